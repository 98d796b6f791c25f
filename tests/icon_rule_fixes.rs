//! Rules the core had read against the seed (icon-rules-reference.db, "Rules Reference (Tactical
//! Combat)"), each held to the sentence it breaks and to a computation made here: an
//! Unstoppable character is not affected by the statuses it has, Hatred halves only damage to
//! foes, bonus damage is one die however it is granted, and Stealth ends with any ability but a
//! dash. Each test goes through requests only, so it runs the same against the core before the
//! fix (where it fails).

use icon_engine::request::{self, Prepared, Request, Resolution};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn prepared(v: Value) -> Prepared {
    let req: Request = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"));
    Prepared::new(&req).unwrap_or_else(|e| panic!("{v}: {}", e.message()))
}

fn done(v: Value, faces: &[&[i64]]) -> (i64, Value) {
    let faces: Vec<Vec<i64>> = faces.iter().map(|f| f.to_vec()).collect();
    match request::resolve(&prepared(v), &faces).unwrap() {
        Resolution::Done(d) => (d.total, serde_json::to_value(&d).unwrap()),
        Resolution::More { dice } => panic!("wanted more: {dice:?}"),
    }
}

fn rule(v: Value) -> (i64, Value) {
    done(v, &[])
}

fn target(hp: i64, vigor: i64, statuses: &[&str]) -> Value {
    json!({"hp": hp, "maxHp": 40, "vigor": vigor, "armor": 0, "wounds": 0,
        "isPlayerCharacter": false, "statuses": statuses})
}

fn damage(target: Value, amount: i64, extra: Value) -> (i64, Value) {
    let mut req =
        json!({"kind": "icon.applyDamage", "target": target, "amount": amount, "source": "hit"});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    rule(req)
}

/* ------------------------------------------------------------------ a. Unstoppable */

/// Seed (Statuses): "Unstoppable: Immune to all statuses"; "Vulnerable: Increases all damage you
/// take by 1"; (Glossary) "Immune to X: Not affected by X in any way". A Vulnerable already on an
/// Unstoppable target adds nothing.
#[test]
fn vulnerable_adds_nothing_to_an_unstoppable_target() {
    let (taken, d) = damage(target(30, 0, &["vulnerable", "unstoppable"]), 5, json!({}));
    assert_eq!((taken, &d["target"]["hp"]), (5, &json!(25)));
    // without Unstoppable it still adds 1
    assert_eq!(damage(target(30, 0, &["vulnerable"]), 5, json!({})).0, 6);
    // nor the ongoing one
    assert_eq!(
        damage(
            target(30, 0, &["vulnerable+", "unstoppable+"]),
            5,
            json!({})
        )
        .0,
        5
    );
}

/// Seed (Statuses): "Shattered: Prevents you from gaining or benefiting from vigor", and
/// Unstoppable is "Immune to all statuses": an Unstoppable target's vigor absorbs damage, and a
/// cure gives it vigor, Shattered or not.
#[test]
fn shattered_does_not_stop_an_unstoppable_targets_vigor() {
    let (taken, d) = damage(target(30, 4, &["shattered", "unstoppable"]), 6, json!({}));
    assert_eq!(taken, 6);
    assert_eq!(
        (&d["target"]["vigor"], &d["target"]["hp"]),
        (&json!(0), &json!(28))
    );
    // Shattered alone: the vigor stays, the HP take it all
    let (_, d) = damage(target(30, 4, &["shattered"]), 6, json!({}));
    assert_eq!(
        (&d["target"]["vigor"], &d["target"]["hp"]),
        (&json!(4), &json!(24))
    );
    // a cure: "gain 4 vigor" (not bloodied at 30 of 40)
    let cure = |statuses: &[&str]| {
        rule(json!({"kind": "icon.heal", "healing": "cure", "target": target(30, 0, statuses)})).1
            ["target"]["vigor"]
            .clone()
    };
    assert_eq!(cure(&["shattered", "unstoppable"]), json!(4));
    assert_eq!(cure(&["shattered"]), json!(0));
}

/// Seed (Statuses): "Slashed: Take 4 damage after you or an ally uses an ability that moves
/// you": an Unstoppable character is not affected by its Slashed.
#[test]
fn slashed_deals_nothing_to_an_unstoppable_target() {
    let slashed = |statuses: &[&str]| {
        rule(
            json!({"kind": "icon.applyDamage", "target": target(30, 0, statuses), "amount": 4,
            "source": "slashed", "ability": false}),
        )
        .0
    };
    assert_eq!(slashed(&["slashed"]), 4);
    assert_eq!(slashed(&["slashed", "unstoppable"]), 0);
}

/// Seed (Statuses): "Sealed: Character cannot inflict statuses" -- but an Unstoppable character
/// is not affected by its Sealed, so a Sealed Unstoppable inflicter inflicts.
#[test]
fn a_sealed_unstoppable_inflicter_inflicts_statuses() {
    let inflict = |inflicter: &[&str]| {
        rule(json!({"kind": "icon.inflict", "status": "dazed", "inflicter": inflicter})).1
    };
    assert_eq!(inflict(&["sealed"])["blockedBy"], "sealed");
    let d = inflict(&["sealed", "unstoppable"]);
    assert_eq!(
        (&d["inflicted"], &d["blockedBy"]),
        (&json!(true), &json!(null))
    );
}

/* ------------------------------------------------------------------ b. Hatred */

/// Seed (Statuses): "Hatred of X: Deal half damage to all foes other than foe X": an ally caught
/// in the hater's attack (`fromFoe: false`) takes the damage whole; a foe other than X takes
/// half, rounded up.
#[test]
fn hatred_halves_damage_to_foes_only() {
    let hated = json!({"attackerHatred": true});
    assert_eq!(damage(target(30, 0, &[]), 9, hated.clone()).0, 5);
    assert_eq!(
        damage(
            target(30, 0, &[]),
            9,
            json!({"attackerHatred": true, "fromFoe": true})
        )
        .0,
        5
    );
    assert_eq!(
        damage(
            target(30, 0, &[]),
            9,
            json!({"attackerHatred": true, "fromFoe": false})
        )
        .0,
        9
    );
    // Pacified ("Character deals half damage") halves to everyone
    assert_eq!(
        damage(
            target(30, 0, &[]),
            9,
            json!({"attackerPacified": true, "fromFoe": false})
        )
        .0,
        5
    );
}

/* ------------------------------------------------------------------ c. bonus damage */

/// The exact distribution of the sum of the `keep` highest of `n` d`faces`, plus `flat`, as
/// counts out of faces^n, by enumerating every roll.
fn keep_highest(n: u32, faces: i64, keep: usize, flat: i64) -> BTreeMap<i64, u64> {
    let mut counts = BTreeMap::new();
    let mut roll = vec![1i64; n as usize];
    loop {
        let mut sorted = roll.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let total: i64 = sorted[..keep].iter().sum::<i64>() + flat;
        *counts.entry(total).or_insert(0) += 1;
        // the next roll, as an odometer
        let mut i = 0;
        loop {
            if i == roll.len() {
                return counts;
            }
            roll[i] += 1;
            if roll[i] <= faces {
                break;
            }
            roll[i] = 1;
            i += 1;
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Seed (Bonus Damage/Critical Hits): "If any ability grants bonus damage, roll 1 more die than
/// normal and pick the highest total result"; "Critical hits don't stack, if you critical hit
/// again, you gain bonus damage". Bonus damage is had or not: a critical hit with an ability's
/// bonus damage that is critical again rolls one extra die, not two, and so does any count of
/// bonus dice.
#[test]
fn bonus_damage_is_one_die_however_it_is_granted() {
    let crit = json!({"kind": "icon.damage", "result": "crit", "die": 6, "dice": 1, "fray": 2,
        "bonusDice": 1, "critAgain": true});
    let plan = request::plan(&prepared(crit.clone())).unwrap();
    assert_eq!(
        (plan.len(), plan[0].count),
        (1, 3),
        "[D] + crit's [D] + one bonus die"
    );
    // the outcome keeps the 2 highest of 3
    let (total, d) = done(crit.clone(), &[&[2, 6, 5]]);
    assert_eq!(
        (total, &d["kept"], &d["dropped"]),
        (6 + 5 + 2, &json!([6, 5]), &json!([2]))
    );
    // the odds: exactly 3d6 keep 2 plus fray
    let odds = serde_json::to_value(request::odds(&prepared(crit)).unwrap()).unwrap();
    let want = keep_highest(3, 6, 2, 2);
    let got: BTreeMap<i64, String> = odds["exact"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_i64().unwrap(), p[1].as_str().unwrap().to_string()))
        .collect();
    let want: BTreeMap<i64, String> = want
        .iter()
        .map(|(t, c)| {
            let g = gcd(*c, 216);
            (*t, format!("{}/{}", c / g, 216 / g))
        })
        .collect();
    assert_eq!(got, want);
    // two abilities' bonus damage on a hit: still one die more
    let hit = json!({"kind": "icon.damage", "result": "hit", "die": 8, "dice": 2, "fray": 3,
        "bonusDice": 2});
    assert_eq!(request::plan(&prepared(hit)).unwrap()[0].count, 3);
}

/* ------------------------------------------------------------------ d. Stealth */

/// The statuses left after an ability, through the same function `iconAfterAbility` answers
/// with (test/node/core-ability.test.mjs holds the export to it).
fn after(statuses: &[&str], dash: bool) -> Vec<String> {
    let statuses: Vec<String> = statuses.iter().map(|s| s.to_string()).collect();
    icon_engine::rulesets::icon::situation::after_ability(&statuses, dash)
}

/// Seed (Positive Effects): "Stealth: ... Stealth is broken when you use any ability other than
/// dash"; (Statuses) "Ongoing statuses or effects cannot be removed or ignored until whatever is
/// causing them is lifted"; "Stunned: ... Your next ability used ends your turn, then end this
/// status" (a dash is an ability).
#[test]
fn stealth_ends_with_any_ability_but_a_dash() {
    let all = ["stealth", "stunned", "stealth+", "stunned+", "dazed"];
    assert_eq!(after(&all, false), ["stealth+", "stunned+", "dazed"]);
    assert_eq!(
        after(&all, true),
        ["stealth", "stealth+", "stunned+", "dazed"]
    );
}
