//! `icon.ability`: which parts of an ability fire, against each target and on the user, and what
//! stops their statuses and marks. Each test quotes the seed sentence it holds the rule to
//! (icon-rules-reference.db, "Rules Reference (Tactical Combat)"); the property test checks
//! every firing against the trigger's condition, computed here on its own.

use icon_engine::request::{self, Prepared, Request, Resolution};
use proptest::prelude::*;
use serde_json::{json, Value};

/// The outcome of a request (no dice), and its total.
fn rule(v: Value) -> (i64, Value) {
    let req: Request = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"));
    let p = Prepared::new(&req).unwrap_or_else(|e| panic!("{v}: {}", e.message()));
    assert!(request::plan(&p).unwrap().is_empty(), "no dice");
    match request::resolve(&p, &[]).unwrap() {
        Resolution::Done(d) => (d.total, serde_json::to_value(&d).unwrap()),
        Resolution::More { dice } => panic!("wanted more: {dice:?}"),
    }
}

/// The message a request is refused with (when read, or when checked).
fn refused(v: Value) -> String {
    let text = v.to_string();
    match icon_engine::decode::from_json_text::<Request>("request", &text) {
        Err(e) => e.message().to_string(),
        Ok(req) => Prepared::new(&req)
            .expect_err(&format!("{v} should be refused"))
            .message()
            .to_string(),
    }
}

fn ability(parts: Value, user: Value, targets: Value) -> Value {
    json!({"kind": "icon.ability", "parts": parts, "user": user, "targets": targets})
}

/// The indices of the parts that fired against each target, and on the user.
fn fired(d: &Value) -> (Vec<Vec<u64>>, Vec<u64>) {
    let idx = |list: &Value| -> Vec<u64> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|p| p["index"].as_u64().unwrap())
            .collect()
    };
    (
        d["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| idx(&t["parts"]))
            .collect(),
        idx(&d["self"]),
    )
}

/// One part of each trigger (gamble 4+), all on the target, with no status or mark.
fn every_trigger() -> Value {
    json!([
        {"trigger": "use"}, {"trigger": "hit"}, {"trigger": "crit"}, {"trigger": "miss"},
        {"trigger": "exceed"}, {"trigger": "failedSave"}, {"trigger": "charge"},
        {"trigger": "comeback"}, {"trigger": "finishingBlow"}, {"trigger": "slay"},
        {"trigger": "gamble", "gamble": 4}, {"trigger": "heroic"}
    ])
}

const USE: u64 = 0;
const HIT: u64 = 1;
const CRIT: u64 = 2;
const MISS: u64 = 3;
const EXCEED: u64 = 4;
const FAILED_SAVE: u64 = 5;
const CHARGE: u64 = 6;
const COMEBACK: u64 = 7;
const FINISHING_BLOW: u64 = 8;
const SLAY: u64 = 9;
const GAMBLE: u64 = 10;
const HEROIC: u64 = 11;

/// The parts of [`every_trigger`] that fire against one target, the use's gamble d6 given.
fn against(target: Value, user: Value, gamble: Option<u8>) -> Vec<u64> {
    let mut req = ability(every_trigger(), user, json!([target]));
    req["gamble"] = json!(gamble.unwrap_or(1));
    let (total, d) = rule(req);
    let (targets, own) = fired(&d);
    assert!(own.is_empty());
    assert_eq!(total as usize, targets[0].len(), "total counts the firings");
    targets[0].clone()
}

/// Seed (Effects/Armor/Resistance): "Effects happen regardless of hitting or missing, unless
/// specified"; (Statuses, Evasion): "Effects that don't require a hit and automatically happen
/// go through evasion". A `use` part fires against every target: hit, critically hit, missed
/// (an evaded attack is a miss) or never attacked.
#[test]
fn use_fires_against_every_target_hit_missed_or_not_attacked() {
    for attack in [json!("hit"), json!("crit"), json!("miss"), json!(null)] {
        let fired = against(json!({"attack": attack}), json!({}), None);
        assert!(fired.contains(&USE), "{attack}: {fired:?}");
    }
}

/// Seed (Bonus Damage/Critical Hits): "A critical hit counts as a hit for anything relying on
/// hitting"; "20+ on any total attack roll is a critical hit!". A `hit` part fires on a hit or a
/// critical hit, a `crit` part on a critical hit only, a `miss` part on a miss only.
#[test]
fn hit_crit_and_miss_parts_follow_the_attack() {
    assert_eq!(
        against(json!({"attack": "hit"}), json!({}), None),
        [USE, HIT]
    );
    assert_eq!(
        against(json!({"attack": "crit"}), json!({}), None),
        [USE, HIT, CRIT]
    );
    assert_eq!(
        against(json!({"attack": "miss"}), json!({}), None),
        [USE, MISS]
    );
}

/// Seed (Glossary): "Exceed: A triggered effect that takes place on a total attack roll of
/// 15+". An exceed part fires when the attack roll exceeded, hit or not; against a target no
/// attack roll was made against (`attack: null`), no attack-dependent part ever fires.
#[test]
fn exceed_needs_an_attack_roll_of_15_or_more() {
    assert_eq!(
        against(json!({"attack": "hit", "exceed": true}), json!({}), None),
        [USE, HIT, EXCEED]
    );
    // 16 against a defense of 17: a miss that exceeds
    assert_eq!(
        against(json!({"attack": "miss", "exceed": true}), json!({}), None),
        [USE, MISS, EXCEED]
    );
    assert_eq!(
        against(json!({"attack": null, "exceed": true}), json!({}), None),
        [USE]
    );
}

/// Seed (Glossary): "Effect: A part of an ability that simply happens and is applied to all
/// targets, no roll or save required": a part that asks for a save fires only when the target
/// failed it.
#[test]
fn a_failed_save_part_fires_only_on_a_failed_save() {
    assert_eq!(
        against(json!({"save": "failed"}), json!({}), None),
        [USE, FAILED_SAVE]
    );
    assert_eq!(against(json!({"save": "saved"}), json!({}), None), [USE]);
    assert_eq!(against(json!({}), json!({}), None), [USE]);
}

/// Seed (Glossary): "Charge: A triggered effect that activates when the ability is used on a
/// slow turn"; "Comeback: A triggered effect that turns on if the character using this ability
/// is bloodied"; "Heroic: Stalwart only triggered effect. Triggers when its special condition
/// is fulfilled". The user's triggers fire against every target.
#[test]
fn charge_comeback_and_heroic_follow_the_user() {
    assert_eq!(
        against(json!({}), json!({"slowTurn": true}), None),
        [USE, CHARGE]
    );
    assert_eq!(
        against(json!({}), json!({"bloodied": true}), None),
        [USE, COMEBACK]
    );
    assert_eq!(
        against(json!({}), json!({"heroic": true}), None),
        [USE, HEROIC]
    );
    // a bloodied target is no comeback: that is the user's
    assert!(!against(json!({"bloodied": true}), json!({}), None).contains(&COMEBACK));
    let (_, d) = rule(ability(
        json!([{"trigger": "charge"}]),
        json!({"slowTurn": true}),
        json!([{}, {"attack": "miss"}, {"attack": null}]),
    ));
    assert_eq!(fired(&d).0, [[0], [0], [0]]);
}

/// Seed (Glossary): "Finishing Blow: ... Triggered effect that triggers if this ability targets
/// a bloodied foe"; "Summons ... do not count as allies or foes for the purposes of abilities".
/// "Slay: A triggered effect that activates when this ability reduces a character to 0 hp".
#[test]
fn finishing_blow_and_slay_follow_the_target() {
    assert_eq!(
        against(json!({"bloodied": true}), json!({}), None),
        [USE, FINISHING_BLOW]
    );
    // an ally is no foe, nor is a summon
    assert_eq!(
        against(json!({"bloodied": true, "fromFoe": false}), json!({}), None),
        [USE]
    );
    assert_eq!(
        against(json!({"bloodied": true, "summon": true}), json!({}), None),
        [USE]
    );
    assert_eq!(
        against(json!({"slain": true}), json!({}), None),
        [USE, SLAY]
    );
    // any character, an ally too
    assert_eq!(
        against(json!({"slain": true, "fromFoe": false}), json!({}), None),
        [USE, SLAY]
    );
}

/// Seed (Glossary): "Gamble: Roll 1d6, then trigger an effect on a certain result or higher".
#[test]
fn gamble_fires_on_its_number_or_higher() {
    for d6 in 1..=6u8 {
        let fired = against(json!({}), json!({}), Some(d6));
        assert_eq!(fired.contains(&GAMBLE), d6 >= 4, "d6 {d6}");
    }
    // Gamble 1+ always fires, 6+ only on a 6
    let gamble = |n: u8, d6: u8| {
        let mut req = ability(
            json!([{"trigger": "gamble", "gamble": n}]),
            json!({}),
            json!([{}]),
        );
        req["gamble"] = json!(d6);
        rule(req).0
    };
    assert_eq!((gamble(1, 1), gamble(6, 5), gamble(6, 6)), (1, 0, 1));
}

/// Seed (Glossary): "Triggered effect - An effect that actives under a certain condition. ...
/// Each unique effect can only trigger once per ability, and once per trigger". A part on the
/// user fires once a use, however many targets fire it.
#[test]
fn a_part_on_the_user_fires_once_a_use() {
    let parts = json!([
        {"trigger": "hit", "to": "self", "status": "dodge"},
        {"trigger": "slay", "to": "self"},
        {"trigger": "use", "to": "self"},
        {"trigger": "crit", "to": "self"},
        {"trigger": "hit", "status": "dazed"},
        {"trigger": "comeback", "to": "self"}
    ]);
    let targets = json!([{"attack": "hit"}, {"attack": "crit"}, {"attack": "hit", "slain": true}]);
    let (total, d) = rule(ability(parts.clone(), json!({}), targets));
    let (on_targets, own) = fired(&d);
    assert_eq!(on_targets, [vec![4], vec![4], vec![4]]);
    assert_eq!(own, [0, 1, 2, 3]);
    assert_eq!(total, 3 + 4);
    assert_eq!(
        d["self"][0],
        json!({"index": 0, "status": {"lands": true, "blockedBy": null}, "mark": null})
    );
    // no target: a use part still fires on the user, a hit part does not
    let (total, d) = rule(ability(parts, json!({"bloodied": true}), json!([])));
    assert_eq!(fired(&d), (vec![], vec![2, 5]));
    assert_eq!(total, 2);
}

fn landing(lands: bool, blocked_by: Option<&str>) -> Value {
    json!({"lands": lands, "blockedBy": blocked_by})
}

/// The status and mark of part 0 (`use`) as they land on one target.
fn lands_on(status: &str, user: &[&str], target: Value) -> (Value, Value) {
    let (_, d) = rule(ability(
        json!([{"trigger": "use", "status": status, "mark": true}]),
        json!({"statuses": user}),
        json!([target]),
    ));
    let p = &d["targets"][0]["parts"][0];
    (p["status"].clone(), p["mark"].clone())
}

/// Seed (Statuses): "Unstoppable: Immune to all statuses". Positive effects are no statuses:
/// they go through, and so does a mark.
#[test]
fn an_unstoppable_target_takes_no_status() {
    let target = json!({"statuses": ["unstoppable"]});
    assert_eq!(
        lands_on("dazed", &[], target.clone()),
        (landing(false, Some("unstoppable")), landing(true, None))
    );
    assert_eq!(
        lands_on("dodge", &[], target.clone()).0,
        landing(true, None)
    );
    // the ongoing unstoppable+ too
    assert_eq!(
        lands_on("weakened", &[], json!({"statuses": ["unstoppable+"]})).0,
        landing(false, Some("unstoppable"))
    );
}

/// Seed (Statuses): "Sealed: Character cannot inflict statuses"; "Unstoppable: Immune to all
/// statuses" and "Immune to X: Not affected by X in any way": a Sealed user that is Unstoppable
/// is not affected by its Sealed and inflicts statuses.
#[test]
fn a_sealed_user_inflicts_no_status_unless_unstoppable() {
    assert_eq!(
        lands_on("vulnerable", &["sealed"], json!({})),
        (landing(false, Some("sealed")), landing(true, None))
    );
    assert_eq!(
        lands_on("evasion", &["sealed"], json!({})).0,
        landing(true, None)
    );
    assert_eq!(
        lands_on("vulnerable", &["sealed", "unstoppable"], json!({})).0,
        landing(true, None)
    );
    // and on the user itself: Sealed stops what the user inflicts, itself included
    let (_, d) = rule(ability(
        json!([{"trigger": "use", "to": "self", "status": "slashed"}]),
        json!({"statuses": ["sealed"]}),
        json!([]),
    ));
    assert_eq!(d["self"][0]["status"], landing(false, Some("sealed")));
}

/// Seed (Positive Effects): "Intangible: Intangible characters can be targeted, but are Immune
/// to damage and effects from foes": a foe's status, positive effect and mark are all stopped;
/// an ally's land.
#[test]
fn an_intangible_target_takes_nothing_from_a_foe() {
    let foe = json!({"statuses": ["intangible"]});
    assert_eq!(
        lands_on("dazed", &[], foe.clone()),
        (
            landing(false, Some("intangible")),
            landing(false, Some("intangible"))
        )
    );
    assert_eq!(
        lands_on("dodge", &[], foe).0,
        landing(false, Some("intangible"))
    );
    assert_eq!(
        lands_on(
            "dazed",
            &[],
            json!({"statuses": ["intangible"], "fromFoe": false})
        ),
        (landing(true, None), landing(true, None))
    );
}

/// A mob is immune to statuses (ICON's mob template); positive effects and marks still land.
#[test]
fn a_mob_takes_no_status() {
    assert_eq!(
        lands_on("blind", &[], json!({"mob": true})),
        (landing(false, Some("mob")), landing(true, None))
    );
    assert_eq!(
        lands_on("flying", &[], json!({"mob": true})).0,
        landing(true, None)
    );
}

/// Seed (Glossary): "Summon: ... Summons are intangible, and cannot be marked": a mark never
/// lands on a summon; a foe's status is stopped as Intangible stops it.
#[test]
fn a_summon_cannot_be_marked_and_is_intangible() {
    assert_eq!(
        lands_on("dazed", &[], json!({"summon": true})),
        (
            landing(false, Some("intangible")),
            landing(false, Some("summon"))
        )
    );
    assert_eq!(
        lands_on("dazed", &[], json!({"summon": true, "fromFoe": false})),
        (landing(true, None), landing(false, Some("summon")))
    );
}

/// A part with no status and no mark fires with both `null`; only the parts that fire are
/// listed, in part order, with their index.
#[test]
fn the_answer_lists_the_parts_that_fire_in_order() {
    let (total, d) = rule(ability(
        json!([
            {"trigger": "miss", "status": "dazed"},
            {"trigger": "hit"},
            {"trigger": "use", "mark": true},
            {"trigger": "crit", "status": "vulnerable"}
        ]),
        json!({}),
        json!([{"attack": "hit"}]),
    ));
    assert_eq!(total, 2);
    assert_eq!(
        d["targets"],
        json!([{"parts": [
            {"index": 1, "status": null, "mark": null},
            {"index": 2, "status": null, "mark": {"lands": true, "blockedBy": null}}
        ]}])
    );
    assert_eq!(d["self"], json!([]));
    assert_eq!(d["kind"], "icon.ability");
}

#[test]
fn malformed_abilities_are_refused_saying_why() {
    let part = json!({"trigger": "use"});
    let many = |n: usize, item: Value| Value::Array(vec![item; n]);
    for (req, words) in [
        (
            ability(many(13, part.clone()), json!({}), json!([])),
            "`parts[12]`: an ability has at most 12 parts",
        ),
        (
            ability(json!([part]), json!({}), many(65, json!({}))),
            "`targets`: an ability has at most 64 targets",
        ),
        (
            ability(json!([{"trigger": "gamble"}]), json!({}), json!([])),
            "parts[0]: a gamble part says its number",
        ),
        (
            ability(
                json!([{"trigger": "hit", "gamble": 3}]),
                json!({}),
                json!([]),
            ),
            "parts[0].gamble: only a part with trigger \"gamble\"",
        ),
        (
            ability(
                json!([{"trigger": "gamble", "gamble": 7}]),
                json!({}),
                json!([]),
            ),
            "parts[0].gamble must be from 1 to 6",
        ),
        (
            ability(
                json!([{"trigger": "gamble", "gamble": 3}]),
                json!({}),
                json!([]),
            ),
            "a gamble part needs the use's Gamble d6",
        ),
        (
            ability(
                json!([{"trigger": "use", "status": "dazed+"}]),
                json!({}),
                json!([]),
            ),
            "parts[0].status: a bare status id",
        ),
        (
            ability(
                json!([{"trigger": "use", "status": "x".repeat(65)}]),
                json!({}),
                json!([]),
            ),
            "parts[0].status: a bare status id of at most 64 bytes",
        ),
        (
            ability(json!([{"trigger": "onHit"}]), json!({}), json!([])),
            "unknown variant `onHit`",
        ),
        (
            ability(
                json!([{"trigger": "use", "target": "self"}]),
                json!({}),
                json!([]),
            ),
            "unknown field `target`",
        ),
        (
            ability(json!([]), json!({"slow": true}), json!([])),
            "unknown field `slow`",
        ),
        (
            ability(json!([]), json!({}), json!([{"attack": "evaded"}])),
            "`targets[0].attack`: unknown variant `evaded`",
        ),
        (json!({"kind": "icon.ability"}), "missing field `parts`"),
    ] {
        let m = refused(req.clone());
        assert!(m.contains(words), "{req}: {m}");
    }
    let mut used = ability(
        json!([{"trigger": "gamble", "gamble": 2}]),
        json!({}),
        json!([]),
    );
    used["gamble"] = json!(0);
    assert!(refused(used).contains("gamble must be from 1 to 6"));
}

/* ------------------------------------------------------------------ the property */

/// A trigger's condition against one target, written from the seed independently of the core.
fn condition(trigger: &str, gamble_n: u8, t: &Value, user: &Value, d6: u8) -> bool {
    let attack = t["attack"].as_str();
    let flag = |v: &Value, k: &str| v[k].as_bool().unwrap_or(false);
    match trigger {
        "use" => true,
        "hit" => matches!(attack, Some("hit" | "crit")),
        "crit" => attack == Some("crit"),
        "miss" => attack == Some("miss"),
        "exceed" => attack.is_some() && flag(t, "exceed"),
        "failedSave" => t["save"] == "failed",
        "charge" => flag(user, "slowTurn"),
        "comeback" => flag(user, "bloodied"),
        "heroic" => flag(user, "heroic"),
        "finishingBlow" => {
            flag(t, "bloodied") && t["fromFoe"].as_bool().unwrap_or(true) && !flag(t, "summon")
        }
        "slay" => flag(t, "slain"),
        "gamble" => d6 >= gamble_n,
        other => panic!("{other}"),
    }
}

const TRIGGERS: [&str; 12] = [
    "use",
    "hit",
    "crit",
    "miss",
    "exceed",
    "failedSave",
    "charge",
    "comeback",
    "finishingBlow",
    "slay",
    "gamble",
    "heroic",
];
const STATUSES: [&str; 6] = ["", "dazed", "dodge", "sealed", "unstoppable", "intangible"];

fn part() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&TRIGGERS[..]),
        1..=6u8,
        any::<bool>(),
        prop::sample::select(&STATUSES[..]),
        any::<bool>(),
    )
        .prop_map(|(trigger, n, own, status, mark)| {
            let mut p = json!({"trigger": trigger, "status": status, "mark": mark,
                "to": if own { "self" } else { "target" }});
            if trigger == "gamble" {
                p["gamble"] = json!(n);
            }
            p
        })
}

fn target() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec![
            json!("hit"),
            json!("crit"),
            json!("miss"),
            json!(null),
        ]),
        prop::sample::select(vec![json!("saved"), json!("failed"), json!(null)]),
        prop::collection::vec(any::<bool>(), 6),
        prop::collection::vec(prop::sample::select(&STATUSES[1..]), 0..3),
    )
        .prop_map(|(attack, save, f, statuses)| {
            json!({"attack": attack, "save": save, "exceed": f[0], "bloodied": f[1],
                "slain": f[2], "mob": f[3], "summon": f[4], "fromFoe": f[5],
                "statuses": statuses})
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A part fires against a target exactly when its trigger's condition holds there, and on
    /// the user exactly when it holds for the use or against some target; never otherwise.
    #[test]
    fn a_part_fires_exactly_when_its_condition_holds(
        parts in prop::collection::vec(part(), 0..=12),
        targets in prop::collection::vec(target(), 0..6),
        user in (any::<bool>(), any::<bool>(), any::<bool>(),
                 prop::collection::vec(prop::sample::select(&STATUSES[1..]), 0..3))
            .prop_map(|(b, s, h, st)| json!({"bloodied": b, "slowTurn": s, "heroic": h, "statuses": st})),
        d6 in 1..=6u8,
    ) {
        let mut req = ability(Value::Array(parts.clone()), user.clone(), Value::Array(targets.clone()));
        req["gamble"] = json!(d6);
        let (total, d) = rule(req);
        let (on_targets, own) = fired(&d);
        let holds = |p: &Value, t: &Value| condition(
            p["trigger"].as_str().unwrap(),
            p["gamble"].as_u64().unwrap_or(0) as u8,
            t, &user, d6,
        );
        let mut count = 0;
        for (t, got) in targets.iter().zip(&on_targets) {
            let want: Vec<u64> = (0..parts.len() as u64)
                .filter(|&i| parts[i as usize]["to"] == "target" && holds(&parts[i as usize], t))
                .collect();
            prop_assert_eq!(got, &want, "target {}", t);
            count += want.len();
        }
        let user_level = ["use", "charge", "comeback", "heroic", "gamble"];
        let want_own: Vec<u64> = (0..parts.len() as u64)
            .filter(|&i| {
                let p = &parts[i as usize];
                p["to"] == "self" && if user_level.contains(&p["trigger"].as_str().unwrap()) {
                    holds(p, &json!({}))
                } else {
                    targets.iter().any(|t| holds(p, t))
                }
            })
            .collect();
        prop_assert_eq!(&own, &want_own);
        prop_assert_eq!(total as usize, count + want_own.len());
    }
}

/// "A character that drops to 0 HP is defeated. Defeated characters clear all statuses, marks,
/// vigor, and other effects on them": a target this ability's damage slew (or one already
/// defeated) takes none of its statuses or marks; a standing one does.
#[test]
fn nothing_lands_on_a_defeated_target() {
    let parts = json!([{"trigger": "crit", "status": "stunned", "mark": true}, {"trigger": "use", "status": "dodge"}]);
    let targets = json!([
        {"attack": "crit", "slain": true},
        {"attack": "crit", "statuses": ["defeated"]},
        {"attack": "crit"}
    ]);
    let (_, d) = rule(ability(parts, json!({}), targets));
    for slain in [0, 1] {
        for part in d["targets"][slain]["parts"].as_array().unwrap() {
            assert_eq!(
                part["status"],
                json!({"lands": false, "blockedBy": "defeated"}),
                "{part}"
            );
        }
        assert_eq!(
            d["targets"][slain]["parts"][0]["mark"],
            json!({"lands": false, "blockedBy": "defeated"})
        );
    }
    assert_eq!(
        d["targets"][2]["parts"][0]["status"],
        json!({"lands": true, "blockedBy": null})
    );
    assert_eq!(
        d["targets"][2]["parts"][0]["mark"],
        json!({"lands": true, "blockedBy": null})
    );
}
