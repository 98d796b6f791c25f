//! Issue 27: the ICON rules the core could not express before, each against its seed sentence
//! (icon-rules-reference.db, "Rules Reference (Tactical Combat)") and independent computations:
//! damage held at 1 HP, True Strike, Auto-Hit, marks, dangerous terrain, the statuses that stop
//! statuses, Blind's range, Hatred's end, a repeated critical hit, Blessing, Combo, Power dice,
//! limit breaks passing personal resolve and the effort pool.

use icon_engine::dice::odds::num::{Num, Ratio};
use icon_engine::request::{self, Prepared, Request, Resolution};
use icon_engine::rulesets::icon::situation::Situation;
use serde_json::{json, Value};

fn prepared(v: Value) -> Prepared {
    let req: Request = serde_json::from_value(v).unwrap();
    Prepared::new(&req).unwrap()
}

fn done(v: Value, faces: &[&[i64]]) -> (i64, Value) {
    let p = prepared(v);
    let faces: Vec<Vec<i64>> = faces.iter().map(|f| f.to_vec()).collect();
    match request::resolve(&p, &faces).unwrap() {
        Resolution::Done(d) => (d.total, serde_json::to_value(&d).unwrap()),
        Resolution::More { dice } => panic!("wanted more: {dice:?}"),
    }
}

/// A no-dice rule's outcome.
fn rule(v: Value) -> (i64, Value) {
    done(v, &[])
}

/// The error a request is refused with.
fn refused(v: Value) -> String {
    let req: Request = serde_json::from_value(v.clone()).unwrap();
    Prepared::new(&req)
        .expect_err(&format!("{v} should be refused"))
        .message()
        .to_string()
}

fn plan(v: Value) -> Value {
    serde_json::to_value(request::plan(&prepared(v)).unwrap()).unwrap()
}

fn odds(v: Value) -> Value {
    serde_json::to_value(request::odds(&prepared(v)).unwrap()).unwrap()
}

fn exact(v: &Value, label: &str) -> String {
    v["exact"]["outcomes"][label]
        .as_str()
        .unwrap_or_else(|| panic!("no exact {label} in {v}"))
        .to_string()
}

fn ratio(n: u64, d: u64) -> Ratio {
    Ratio::ratio(n, d).unwrap()
}

fn pc(hp: i64, vigor: i64, armor: i64, statuses: &[&str]) -> Value {
    json!({"hp": hp, "maxHp": 40, "vigor": vigor, "armor": armor, "wounds": 0,
        "isPlayerCharacter": true, "statuses": statuses})
}

fn apply(target: Value, amount: i64, source: &str, extra: Value) -> (i64, Value) {
    let mut req =
        json!({"kind": "icon.applyDamage", "target": target, "amount": amount, "source": source});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    rule(req)
}

/// The steps as (rule, change, amount).
fn steps(d: &Value) -> Vec<(String, i64, i64)> {
    d["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["rule"].as_str().unwrap().to_string(),
                s["change"].as_i64().unwrap(),
                s["amount"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn has_step(d: &Value, rule: &str) -> bool {
    steps(d).iter().any(|(r, _, _)| r == rule)
}

// ---------------------------------------------------------------- 6. cannot bring HP below 1

/// Seed (Glossary, Sacrifice X): "Reduce your hp by X, usually as a cost for an ability. Sacrifice
/// costs are paid at the start of an ability, cannot be reduced, ignored, transferred, or resisted,
/// cannot bring your hp below 1, and you can pay them even if you don't have enough hp left."
#[test]
fn a_sacrifice_is_paid_in_hp_and_stops_at_1() {
    // 4 of 10 HP: vigor, armor, resistance and immunity change nothing
    let (total, d) = apply(
        pc(10, 5, 3, &["resistant", "immune", "intangible", "dodge"]),
        4,
        "sacrifice",
        json!({}),
    );
    assert_eq!(total, 4);
    assert_eq!(
        (d["target"]["hp"].clone(), d["target"]["vigor"].clone()),
        (json!(6), json!(5))
    );
    assert_eq!(steps(&d), [("amount".into(), 4, 4), ("hp".into(), -4, 4)]);
    // more than is left: paid anyway, the HP stop at 1 (Defiance never triggers)
    let (total, d) = apply(pc(3, 0, 0, &["defiance"]), 5, "sacrifice", json!({}));
    assert_eq!((total, d["target"]["hp"].clone()), (2, json!(1)));
    assert_eq!(steps(&d)[1], ("floor".into(), -3, 2));
    assert!(d["target"]["statuses"]
        .as_array()
        .unwrap()
        .contains(&json!("defiance")));
    // at 1 HP a sacrifice costs nothing more
    let (total, d) = apply(pc(1, 0, 0, &[]), 2, "sacrifice", json!({}));
    assert_eq!(
        (
            total,
            d["target"]["hp"].clone(),
            d["target"]["defeated"].clone()
        ),
        (0, json!(1), json!(false))
    );
    // "cannot be reduced ... or resisted": nothing that reduces damage goes with it
    for extra in [
        json!({"attackerWeakened": true}),
        json!({"cover": true}),
        json!({"trueStrike": true}),
    ] {
        assert!(refused(
            json!({"kind": "icon.applyDamage", "target": pc(10, 0, 0, &[]), "amount": 2,
            "source": "sacrifice"})
            .as_object()
            .unwrap()
            .clone()
            .into_iter()
            .chain(extra.as_object().unwrap().clone())
            .collect::<serde_json::Map<_, _>>()
            .into()
        )
        .contains("cannot be reduced"));
    }
    assert!(refused(
        json!({"kind": "icon.applyDamage", "target": pc(0, 0, 0, &["defeated"]),
        "amount": 2, "source": "sacrifice"})
    )
    .contains("defeated"));
}

/// Seed (Glossary, Shove): "If a shoved character would move into another character's space, an
/// object, or a higher level of terrain, they collide and stop, taking damage equal to shove
/// amount, which cannot reduce them below 1 hp." `floor: 1` holds such damage at 1 HP, after
/// armor and vigor have done their part.
#[test]
fn damage_with_a_floor_of_1_leaves_1_hp() {
    // 10 into 5 HP and 2 vigor behind armor 1: 9 after armor, vigor takes 2, HP stop at 1
    let (total, d) = apply(
        pc(5, 2, 1, &["defiance"]),
        10,
        "effect",
        json!({"floor": 1}),
    );
    assert_eq!(total, 2 + 4);
    assert_eq!(
        steps(&d),
        [
            ("amount".into(), 10, 10),
            ("armor".into(), -1, 9),
            ("vigor".into(), -2, 7),
            ("floor".into(), -3, 4),
            ("hp".into(), -4, 4)
        ]
    );
    let t = &d["target"];
    assert_eq!(
        (t["hp"].clone(), t["defeated"].clone()),
        (json!(1), json!(false))
    );
    assert!(
        t["statuses"]
            .as_array()
            .unwrap()
            .contains(&json!("defiance")),
        "the floor holds before Defiance would trigger"
    );
    // less than the HP above 1: the floor changes nothing
    let (_, d) = apply(pc(20, 0, 0, &[]), 6, "hit", json!({"floor": 1}));
    assert!(!has_step(&d, "floor") && d["target"]["hp"] == 14);
    // floor 0 is the default (defeat as usual); only 0 and 1 are floors
    let (_, d) = apply(pc(5, 0, 0, &[]), 9, "hit", json!({"floor": 0}));
    assert_eq!(d["target"]["defeated"], true);
    let req = json!({"kind": "icon.applyDamage", "target": pc(5, 0, 0, &[]), "amount": 9, "source": "hit", "floor": 2});
    let e = serde_json::from_value::<Request>(req)
        .unwrap_err()
        .to_string();
    assert!(e.contains("floor must be 0 or 1"), "{e}");
}

// ---------------------------------------------------------------- 7, 8. True Strike, Auto-Hit

/// Exact P(d20 + highest of n boon d6 (sign ±) + bonus ≥ k), by enumeration.
fn p_at_least(n: u32, sign: i64, bonus: i64, k: i64) -> Ratio {
    let (mut hits, mut all) = (0u64, 0u64);
    for d20 in 1..=20i64 {
        for code in 0..6u64.pow(n) {
            let (mut c, mut best) = (code, 0);
            for _ in 0..n {
                best = best.max((c % 6) as i64 + 1);
                c /= 6;
            }
            all += 1;
            hits += u64::from(d20 + sign * best + bonus >= k);
        }
    }
    ratio(hits, all)
}

/// Seed (Evasion): "Roll a d6 when attacked. On a 4+, the attack automatically misses. Check
/// before the attack roll." (Glossary, True Strike): "Ignores dodge, blind, evasion, and stealth."
#[test]
fn true_strike_ignores_evasion_in_the_roll_and_the_odds() {
    let evaded = json!({"kind": "icon.attack", "boons": 1, "defense": 12, "evasion": true});
    // the evasion d6 is the attack's first die, and counts nothing in the total
    assert_eq!(
        plan(evaded.clone())[0],
        json!({"faces": 6, "count": 1, "role": "evasion", "notation": "d6", "term": 0})
    );
    let (total, d) = done(evaded.clone(), &[&[4], &[19], &[6]]);
    assert_eq!(total, 25);
    assert_eq!(
        (
            d["evaded"].clone(),
            d["evasionDie"].clone(),
            d["hit"].clone(),
            d["crit"].clone(),
            d["exceed"].clone()
        ),
        (
            json!(true),
            json!(4),
            json!(false),
            json!(false),
            json!(false)
        ),
        "4+ evades: no hit, no critical hit, no exceed"
    );
    let (_, d) = done(evaded.clone(), &[&[3], &[19], &[6]]);
    assert_eq!(
        (d["evaded"].clone(), d["hit"].clone(), d["crit"].clone()),
        (json!(false), json!(true), json!(true))
    );
    // odds: P(hit and not evaded) = P(hit) · 1/2, exactly
    let o = odds(evaded.clone());
    let half = ratio(1, 2);
    assert_eq!(
        exact(&o, "hit"),
        p_at_least(1, 1, 0, 12).mul(half).unwrap().to_string()
    );
    assert_eq!(
        exact(&o, "crit"),
        p_at_least(1, 1, 0, 20).mul(half).unwrap().to_string()
    );
    assert_eq!(
        exact(&o, "exceed"),
        p_at_least(1, 1, 0, 15).mul(half).unwrap().to_string()
    );
    assert_eq!(exact(&o, "evaded"), "1/2");
    // True Strike: no evasion die, the attack roll's own odds
    let mut strike = evaded.clone();
    strike["trueStrike"] = json!(true);
    assert_eq!(plan(strike.clone())[0]["role"], "d20");
    let o = odds(strike.clone());
    assert_eq!(exact(&o, "hit"), p_at_least(1, 1, 0, 12).to_string());
    assert!(o["outcomes"].get("evaded").is_none());
    let (_, d) = done(strike, &[&[19], &[6]]);
    assert_eq!(
        (d["evaded"].clone(), d["evasionDie"].clone()),
        (json!(false), Value::Null)
    );
    // roll and resolve agree on the evasion die (the same seed, the same outcome)
    let p = prepared(evaded);
    for seed in 0..40 {
        let rolled = request::roll(&p, seed).unwrap();
        let Resolution::Done(mut resolved) = request::resolve(&p, &rolled.faces).unwrap() else {
            panic!("more")
        };
        resolved.seed = Some(seed);
        assert_eq!(rolled, resolved);
    }
}

/// Seed (Dodge): "Dodge makes you immune to all damage from misses, successful saves, and area
/// effects." True Strike "Ignores dodge".
#[test]
fn true_strike_damage_goes_through_dodge() {
    let (total, d) = apply(pc(20, 0, 0, &["dodge"]), 4, "miss", json!({}));
    assert_eq!(total, 0);
    assert!(has_step(&d, "dodge"));
    for source in ["miss", "area"] {
        let (total, d) = apply(
            pc(20, 0, 0, &["dodge"]),
            4,
            source,
            json!({"trueStrike": true}),
        );
        assert_eq!(total, 4, "{source}");
        assert!(has_step(&d, "trueStrikeDodge") && !has_step(&d, "dodge"));
    }
}

/// Seed (Blind): "Reduces the maximum range of all your abilities to 2." (Stealth): "While you
/// have stealth, you cannot be directly targeted except from an adjacent space." True Strike
/// ignores both.
#[test]
fn blind_caps_the_range_and_stealth_needs_adjacency_unless_true_strike() {
    let m = |v: Value| {
        serde_json::to_value(
            serde_json::from_value::<Situation>(v)
                .unwrap()
                .modifiers()
                .unwrap(),
        )
        .unwrap()
    };
    let blind = m(json!({"ranged": true, "attackerBlind": true, "range": 5, "distance": 4}));
    assert_eq!(
        (blind["maxRange"].clone(), blind["untargetable"].clone()),
        (json!(2), json!("range"))
    );
    assert_eq!(
        m(json!({"attackerBlind": true, "range": 5, "distance": 2}))["untargetable"],
        Value::Null
    );
    assert_eq!(
        m(json!({"attackerBlind": true}))["maxRange"],
        2,
        "blind caps even an unknown range"
    );
    let strike = m(json!({"attackerBlind": true, "range": 5, "distance": 4, "trueStrike": true}));
    assert_eq!(
        (strike["maxRange"].clone(), strike["untargetable"].clone()),
        (json!(5), Value::Null)
    );
    assert_eq!(
        m(json!({"range": 5, "distance": 6}))["untargetable"],
        "range"
    );
    // stealth: only from an adjacent space
    assert_eq!(
        m(json!({"ranged": true, "targetStealth": true}))["untargetable"],
        "stealth"
    );
    assert_eq!(
        m(json!({"targetStealth": true, "targetAdjacent": true}))["untargetable"],
        Value::Null
    );
    assert_eq!(
        m(json!({"targetStealth": true, "trueStrike": true}))["untargetable"],
        Value::Null
    );
    // out of sight ("those characters can't draw line of sight to it"): True Strike does not
    // ignore that ("Ignores dodge, blind, evasion, and stealth")
    assert_eq!(m(json!({"sight": false}))["untargetable"], "sight");
    assert_eq!(
        m(json!({"sight": false, "trueStrike": true, "targetAdjacent": true}))["untargetable"],
        "sight"
    );
    assert_eq!(m(json!({"sight": true}))["untargetable"], Value::Null);
    // Unerring: "Ignores cover and aetherwall"
    assert_eq!(
        m(json!({"ranged": true, "targetInCover": true}))["cover"],
        true
    );
    assert_eq!(
        m(json!({"ranged": true, "targetInCover": true, "unerring": true}))["cover"],
        false
    );
}

/// Seed (Glossary, Auto-Hit): "This attack doesn't make an attack roll but always scores a hit
/// (not critical hit or miss)."
#[test]
fn auto_hit_rolls_nothing_and_always_hits() {
    let auto = json!({"kind": "icon.attack", "defense": 30, "autoHit": true});
    assert_eq!(plan(auto.clone()), json!([]));
    let (total, d) = done(auto.clone(), &[]);
    assert_eq!(total, 0);
    assert_eq!(
        (
            d["hit"].clone(),
            d["crit"].clone(),
            d["exceed"].clone(),
            d["d20"].clone(),
            d["autoHit"].clone()
        ),
        (
            json!(true),
            json!(false),
            json!(false),
            Value::Null,
            json!(true)
        )
    );
    let o = odds(auto);
    assert_eq!(
        (exact(&o, "hit"), exact(&o, "crit"), exact(&o, "exceed")),
        ("1/1".to_string(), "0/1".to_string(), "0/1".to_string())
    );
    // without a defense it still hits
    assert_eq!(
        done(json!({"kind": "icon.attack", "autoHit": true}), &[]).1["hit"],
        true
    );
    // Evasion still answers it (an attack), True Strike does not let it
    let evaded = json!({"kind": "icon.attack", "autoHit": true, "evasion": true});
    assert_eq!(exact(&odds(evaded.clone()), "hit"), "1/2");
    assert_eq!(done(evaded.clone(), &[&[5]]).1["hit"], false);
    assert_eq!(done(evaded, &[&[1]]).1["hit"], true);
    assert_eq!(
        exact(
            &odds(
                json!({"kind": "icon.attack", "autoHit": true, "evasion": true, "trueStrike": true})
            ),
            "hit"
        ),
        "1/1"
    );
    // no attack roll: boons, curses and a bonus are refused
    for extra in [
        json!({"boons": 1}),
        json!({"curses": 2}),
        json!({"bonus": 3}),
    ] {
        let mut req = json!({"kind": "icon.attack", "autoHit": true});
        for (k, v) in extra.as_object().unwrap() {
            req[k] = v.clone();
        }
        assert!(refused(req).contains("auto-hit"));
    }
}

// ---------------------------------------------------------------- 9. marks

fn mark(m: &str, placer: &str, target: &str) -> Value {
    json!({"mark": m, "placer": placer, "target": target})
}

fn marks(list: Value, event: Value) -> Value {
    rule(json!({"kind": "icon.marks", "marks": list, "event": event})).1
}

/// Seed (Glossary, Mark): "You can only place one mark at a time on each character and only one
/// of each unique mark can be active at a time. If you place a mark on a character that already has
/// a mark from you, you choose which to keep or discard. Marks end when the character that placed
/// the mark is defeated" and "if you used the ability Immolate, which marks an enemy, the next time
/// you used Immolate on a different character, the mark on the first character would fade. If you
/// used a different mark ability on your immolate target, immolate would end on your target."
#[test]
fn marks_one_per_source_on_each_character_ending_with_their_placer() {
    let place = |list: Value, m: Value| marks(list, json!({"type": "place", "mark": m}));
    // two sources may mark the same character
    let d = place(
        json!([mark("immolate", "ana", "ogre")]),
        mark("brand", "bo", "ogre"),
    );
    assert_eq!(d["marks"].as_array().unwrap().len(), 2);
    assert_eq!(
        (d["placed"].clone(), d["ended"].clone()),
        (json!(true), json!([]))
    );
    // Immolate on a different character: the first fades
    let d = place(d["marks"].clone(), mark("immolate", "ana", "wolf"));
    assert_eq!(d["ended"], json!([mark("immolate", "ana", "ogre")]));
    assert_eq!(
        d["marks"],
        json!([mark("brand", "bo", "ogre"), mark("immolate", "ana", "wolf")])
    );
    // a different mark of ana's on the wolf: Immolate ends there
    let d = place(d["marks"].clone(), mark("hex", "ana", "wolf"));
    assert_eq!(d["ended"], json!([mark("immolate", "ana", "wolf")]));
    // or ana keeps the old one: the new one is not placed
    let kept = marks(
        d["marks"].clone(),
        json!({"type": "place", "mark": mark("immolate", "ana", "wolf"), "keepOld": true}),
    );
    assert_eq!(
        (kept["placed"].clone(), kept["marks"].clone()),
        (json!(false), d["marks"].clone())
    );
    // placing the same mark again refreshes it; nothing ends
    let again = place(d["marks"].clone(), mark("hex", "ana", "wolf"));
    assert_eq!(
        (
            again["ended"].clone(),
            again["marks"].as_array().unwrap().len()
        ),
        (json!([]), 2)
    );
    // ana is defeated: her marks end; bo's stay
    let (ended, d2) = rule(
        json!({"kind": "icon.marks", "marks": d["marks"], "event": {"type": "defeated", "id": "ana"}}),
    );
    assert_eq!(
        (ended, d2["marks"].clone()),
        (1, json!([mark("brand", "bo", "ogre")]))
    );
    // the marked ogre is defeated: the marks on it end too
    assert_eq!(
        marks(
            d2["marks"].clone(),
            json!({"type": "defeated", "id": "ogre"})
        )["marks"],
        json!([])
    );
    // "Summons are intangible, and cannot be marked"
    let e = refused(
        json!({"kind": "icon.marks", "marks": [], "event": {"type": "place", "mark": mark("hex", "ana", "imp"), "targetIsSummon": true}}),
    );
    assert!(e.contains("summons cannot be marked"));
    // the end of combat cures every mark
    assert_eq!(
        marks(d["marks"].clone(), json!({"type": "endCombat"}))["marks"],
        json!([])
    );
    assert!(refused(json!({"kind": "icon.marks", "marks": [], "event": {"type": "remove", "mark": mark("hex", "ana", "imp")}})).contains("no mark"));
}

// ---------------------------------------------------------------- 10. dangerous terrain

/// Seed (Glossary, Dangerous Terrain): "Entering or exiting a dangerous terrain space causes a
/// character to take 2 piercing damage. Characters can only take this damage once a turn."
#[test]
fn dangerous_terrain_deals_2_piercing_once_a_turn() {
    let terrain = json!({"ability": false});
    let (total, d) = apply(pc(20, 0, 3, &[]), 2, "dangerousTerrain", terrain.clone());
    assert_eq!(total, 2, "piercing: armor 3 does not reduce it");
    assert!(!has_step(&d, "armor"));
    let (total, d) = apply(
        pc(20, 0, 3, &[]),
        2,
        "dangerousTerrain",
        json!({"ability": false, "terrainTakenThisTurn": true}),
    );
    assert_eq!(
        (total, steps(&d)[1].clone()),
        (0, ("onceATurn".into(), -2, 0))
    );
    // "A flying character ignores all terrain, objects, and terrain effects other than impassable"
    let (total, _) = apply(pc(20, 0, 0, &["flying"]), 2, "dangerousTerrain", terrain);
    assert_eq!(total, 0);
    assert!(refused(json!({"kind": "icon.applyDamage", "target": pc(20, 0, 0, &[]), "amount": 3, "source": "dangerousTerrain", "ability": false})).contains("2 damage"));
    assert!(refused(json!({"kind": "icon.applyDamage", "target": pc(20, 0, 0, &[]), "amount": 2, "source": "dangerousTerrain"})).contains("not an ability"));
    assert!(refused(json!({"kind": "icon.applyDamage", "target": pc(20, 0, 0, &[]), "amount": 2, "source": "hit", "terrainTakenThisTurn": true})).contains("dangerousTerrain"));
}

// ---------------------------------------------------------------- 11. statuses that stop statuses

fn inflict(status: &str, inflicter: &[&str], target: &[&str]) -> Value {
    rule(
        json!({"kind": "icon.inflict", "status": status, "inflicter": inflicter, "target": target}),
    )
    .1
}

/// Seed: "Unstoppable: Immune to all statuses." "Sealed: Character cannot inflict statuses."
/// "Intangible characters can be targeted, but are Immune to damage and effects from foes."
#[test]
fn unstoppable_sealed_and_intangible_stop_statuses() {
    assert_eq!(inflict("dazed", &[], &[])["inflicted"], true);
    let d = inflict("dazed", &["sealed"], &[]);
    assert_eq!(
        (d["inflicted"].clone(), d["blockedBy"].clone()),
        (json!(false), json!("sealed"))
    );
    let d = inflict("weakened", &[], &["unstoppable"]);
    assert_eq!(
        (d["inflicted"].clone(), d["blockedBy"].clone()),
        (json!(false), json!("unstoppable"))
    );
    // an ongoing unstoppable+ (a stance's) counts as well
    assert_eq!(
        inflict("stunned", &[], &["unstoppable+"])["blockedBy"],
        "unstoppable"
    );
    // positive effects are no statuses: a sealed ally still grants Dodge, Unstoppable still gains it
    assert_eq!(
        inflict("dodge", &["sealed"], &["unstoppable"])["inflicted"],
        true
    );
    // every status of the seed's list is stopped
    for s in icon_engine::rulesets::icon::effects::STATUSES {
        assert_eq!(inflict(s, &[], &["unstoppable"])["inflicted"], false, "{s}");
    }
    assert_eq!(
        inflict("dodge", &[], &["intangible"])["blockedBy"],
        "intangible"
    );
    let ally = rule(json!({"kind": "icon.inflict", "status": "dazed", "target": ["intangible"], "fromFoe": false})).1;
    assert_eq!(ally["inflicted"], true);
}

/// Seed (Hatred of X): "Deal half damage to all foes other than foe X. End this status at the end
/// of your turn, or if foe X becomes immune to damage or un-targetable."
#[test]
fn hatred_ends_when_foe_x_becomes_immune_or_untargetable() {
    let ends = |foe: &[&str], extra: Value| {
        let mut req = json!({"kind": "icon.hatred", "foe": foe});
        for (k, v) in extra.as_object().unwrap() {
            req[k] = v.clone();
        }
        let d = rule(req).1;
        json!({"ends": d["ends"], "reason": d["reason"]})
    };
    assert_eq!(
        ends(&["dazed", "bloodied"], json!({})),
        json!({"ends": false, "reason": null})
    );
    for (statuses, reason) in [
        (&["immune"][..], "immune"),
        (&["intangible"][..], "intangible"),
        (&["incapacitated", "defeated"][..], "defeated"),
        (&["stealth"][..], "stealth"),
    ] {
        assert_eq!(
            ends(statuses, json!({})),
            json!({"ends": true, "reason": reason}),
            "{statuses:?}"
        );
    }
    assert_eq!(ends(&[], json!({"targetable": false}))["reason"], "gone");
    // an ongoing hatred+ waits for its cause
    assert_eq!(ends(&["immune"], json!({"ongoing": true}))["ends"], false);
}

// ---------------------------------------------------------------- 12. the rest

/// Seed (Bonus Damage/Critical Hits): "Critical hits don't stack, if you critical hit again, you
/// gain bonus damage." and "If any ability grants bonus damage, roll 1 more die than normal and
/// pick the highest total result."
#[test]
fn a_repeated_critical_hit_gains_bonus_damage() {
    let crit = json!({"kind": "icon.damage", "result": "crit", "die": 8, "dice": 2, "fray": 3});
    assert_eq!(plan(crit.clone())[0]["count"], 3);
    let mut again = crit.clone();
    again["critAgain"] = json!(true);
    // still one +[D] (3 kept), one more die rolled
    assert_eq!(plan(again.clone())[0]["count"], 4);
    let (total, d) = done(again.clone(), &[&[1, 8, 7, 6]]);
    assert_eq!(
        (total, d["kept"].clone(), d["dropped"].clone()),
        (8 + 7 + 6 + 3, json!([8, 7, 6]), json!([1]))
    );
    // the same as a critical hit with one bonus damage die
    let mut bonus = crit;
    bonus["bonusDice"] = json!(1);
    assert_eq!(odds(again)["exact"], odds(bonus)["exact"]);
    assert!(refused(
        json!({"kind": "icon.damage", "result": "hit", "die": 8, "fray": 3, "critAgain": true})
    )
    .contains("crit"));
}

/// Seed (Glossary, Blessing): "By default a character can use a blessing token to gain +1 boon
/// when they make a save. All blessings are discarded at the end of combat."
#[test]
fn a_blessing_gives_a_save_one_boon_and_ends_with_the_combat() {
    let o = odds(json!({"kind": "icon.save", "blessing": true, "curses": 1}));
    // one boon against one curse: a plain d20, 10+ is 11/20
    assert_eq!(exact(&o, "success"), "11/20");
    assert_eq!(
        odds(json!({"kind": "icon.save", "blessing": true}))["exact"],
        odds(json!({"kind": "icon.save", "boons": 1}))["exact"]
    );
    let tokens = |t: Value, e: Value| rule(json!({"kind": "icon.tokens", "tokens": t, "event": e}));
    let (held, d) = tokens(json!({}), json!({"type": "gainBlessing", "count": 2}));
    assert_eq!(held, 2);
    let (held, d) = tokens(d["tokens"].clone(), json!({"type": "spendBlessing"}));
    assert_eq!(held, 1);
    let (held, d) = tokens(d["tokens"].clone(), json!({"type": "endCombat"}));
    assert_eq!(
        (held, d["effects"].clone()),
        (
            0,
            json!([{"type": "discarded", "blessings": 1, "combo": false, "powerDice": 0}])
        )
    );
    assert!(refused(
        json!({"kind": "icon.tokens", "tokens": {}, "event": {"type": "spendBlessing"}})
    )
    .contains("no blessing"));
}

/// Seed (Glossary, Combo): "When you use the base ability, gain a combo token. Any time you use a
/// combo ability and have a token, you use the combo version instead, discarding the token . You
/// can only have one combo token at once, and discard all tokens at the end of combat."
/// (Power Die): "Gain power dice at 1 tick, and if a power die ticks to 0, discard it."
#[test]
fn combo_tokens_and_power_dice() {
    let tokens =
        |t: Value, e: Value| rule(json!({"kind": "icon.tokens", "tokens": t, "event": e})).1;
    let d = tokens(json!({}), json!({"type": "useCombo"}));
    assert_eq!(
        (d["tokens"]["combo"].clone(), d["effects"].clone()),
        (json!(true), json!([{"type": "baseVersion"}]))
    );
    // "Combo actions can be interwoven": the next combo ability, any of them, uses the token
    let d = tokens(d["tokens"].clone(), json!({"type": "useCombo"}));
    assert_eq!(
        (d["tokens"]["combo"].clone(), d["effects"].clone()),
        (json!(false), json!([{"type": "comboVersion"}]))
    );
    // power dice: gained at 1 tick, at most 6, discarded at 0, one per ability
    let d = tokens(
        json!({}),
        json!({"type": "gainPowerDie", "ability": "Storm"}),
    );
    assert_eq!(
        d["tokens"]["powerDice"],
        json!([{"ability": "Storm", "ticks": 1}])
    );
    let d = tokens(
        d["tokens"].clone(),
        json!({"type": "tickPowerDie", "ability": "Storm", "by": 9}),
    );
    assert_eq!(d["tokens"]["powerDice"][0]["ticks"], 6);
    let up = d["tokens"].clone();
    assert!(refused(json!({"kind": "icon.tokens", "tokens": up, "event": {"type": "gainPowerDie", "ability": "Storm"}})).contains("unique"));
    let d = tokens(
        up,
        json!({"type": "tickPowerDie", "ability": "Storm", "by": -6}),
    );
    assert_eq!(
        (d["tokens"]["powerDice"].clone(), d["effects"].clone()),
        (
            json!([]),
            json!([{"type": "powerDieDiscarded", "ability": "Storm"}])
        )
    );
    assert!(refused(json!({"kind": "icon.tokens", "tokens": {"powerDice": [{"ability": "A", "ticks": 7}]}, "event": {"type": "endCombat"}})).contains("1 to 6"));
}

/// Seed (Resolve): "When you use your Limit Break, you can give 1 personal resolve as part of the
/// activation to another character who hasn't used a limit break this expedition."
#[test]
fn a_limit_break_passes_one_personal_resolve() {
    let (spent, d) = rule(
        json!({"kind": "icon.limitBreak", "cost": 3, "personal": 2, "party": 4, "fromParty": 2,
        "give": {"resolve": 0}}),
    );
    assert_eq!(spent, 3);
    assert_eq!(
        d,
        json!({"personal": 0, "party": 2, "recipientResolve": 1, "kind": "icon.limitBreak", "total": 3, "faces": []})
    );
    assert!(refused(json!({"kind": "icon.limitBreak", "cost": 2, "personal": 3, "give": {"resolve": 1, "usedLimitBreak": true}}))
        .contains("hasn't used a limit break"));
    assert!(refused(
        json!({"kind": "icon.limitBreak", "cost": 3, "personal": 3, "give": {"resolve": 1}})
    )
    .contains("left to give"));
    assert!(
        refused(json!({"kind": "icon.limitBreak", "cost": 3, "personal": 2}))
            .contains("personal resolve")
    );
    assert!(refused(
        json!({"kind": "icon.limitBreak", "cost": 3, "personal": 3, "party": 1, "fromParty": 2})
    )
    .contains("party resolve"));
}

/// Seed (Narrative Play, Effort): "Effort is a resource used to Push and Aid. It is an important
/// resource that should be managed well." A character's pool pays its push (and the 1 effort to
/// act while broken); a roll it cannot pay is refused, and the outcome says what is left.
#[test]
fn the_effort_pool_pays_for_pushes_across_rolls() {
    let mut pool = 2u32;
    for _ in 0..2 {
        let d = done(
            json!({"kind": "icon.action", "rating": 2, "push": true, "aid": 1, "effortPool": pool}),
            &[&[3, 3, 3, 3]],
        )
        .1;
        assert_eq!(
            (d["effort"].clone(), d["effortHelpers"].clone()),
            (json!(2), json!(1))
        );
        pool = d["effortLeft"].as_u64().unwrap() as u32;
    }
    assert_eq!(pool, 0);
    assert!(
        refused(json!({"kind": "icon.action", "rating": 2, "push": true, "effortPool": 0}))
            .contains("not enough effort")
    );
    // a broken character with no effort left may still act when a nearby character pays
    assert!(
        refused(json!({"kind": "icon.action", "rating": 2, "broken": true, "effortPool": 0}))
            .contains("not enough effort")
    );
    let d = done(
        json!({"kind": "icon.action", "rating": 2, "broken": true, "brokenPaidByAlly": true, "effortPool": 0}),
        &[&[3, 3]],
    )
    .1;
    assert_eq!(
        (
            d["effort"].clone(),
            d["effortHelpers"].clone(),
            d["effortLeft"].clone()
        ),
        (json!(1), json!(1), json!(0))
    );
    assert!(
        refused(json!({"kind": "icon.action", "rating": 2, "brokenPaidByAlly": true}))
            .contains("broken")
    );
    // without a pool nothing is checked and nothing is left to say
    assert_eq!(
        done(
            json!({"kind": "icon.action", "rating": 1, "push": true}),
            &[&[3, 3]]
        )
        .1["effortLeft"],
        Value::Null
    );
}

// ---------------------------------------------------------------- the readings (docs/rules.md)

/// Seed (Action Rolls): "In the case that you roll with 0 dice (either naturally or because of
/// curses), instead roll 2D6 and pick the lowest result" and "6,6: Critical Hit!". Reading: the
/// 0-dice roll's two dice stand for one, read by the lowest, so 6,6 is a success, never a critical.
#[test]
fn a_zero_dice_action_roll_of_6_6_is_a_success() {
    for req in [
        json!({"kind": "icon.action", "rating": 0, "effect": "normal"}),
        json!({"kind": "icon.action", "rating": 2, "curses": 2, "effect": "normal"}),
    ] {
        let d = done(req.clone(), &[&[6, 6]]).1;
        assert_eq!(
            (
                d["pool"].clone(),
                d["result"].clone(),
                d["effect"].clone(),
                d["segments"].clone()
            ),
            (json!(0), json!("success"), json!("normal"), json!(2)),
            "{req}"
        );
        assert_eq!(exact(&odds(req.clone()), "critical"), "0/1");
        // P(success) with 0 dice is P(both dice 6) = 1/36
        assert_eq!(exact(&odds(req), "success"), "1/36");
    }
    assert_eq!(
        done(json!({"kind": "icon.fortune", "dice": 0}), &[&[6, 6]]).1["result"],
        "good"
    );
}

/// Seed: "Pacified: Character deals half damage." "Hatred of X: Deal half damage to all foes other
/// than foe X." Reading: an attacker both pacified and hateful deals half, once.
#[test]
fn pacified_and_hatred_together_halve_once() {
    let (total, d) = apply(
        pc(40, 0, 0, &[]),
        9,
        "hit",
        json!({"attackerPacified": true, "attackerHatred": true}),
    );
    assert_eq!(total, 5);
    assert_eq!(steps(&d)[1], ("pacified".into(), -4, 5));
    assert!(!has_step(&d, "hatred"));
}
