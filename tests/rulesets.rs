//! ICONS and Tribute against their seeds' words, tables and independent enumerations.

use icon_engine::dice::odds::num::{Num, Ratio};
use icon_engine::request::{self, Prepared, Request, Resolution};
use icon_engine::rulesets::icons::level_name;
use icon_engine::rulesets::tribute::extra_dice;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn prepared(v: Value) -> Prepared {
    let req: Request = serde_json::from_value(v).unwrap();
    Prepared::new(&req).unwrap()
}

fn done(v: Value, faces: &[&[i64]]) -> Value {
    let faces: Vec<Vec<i64>> = faces.iter().map(|f| f.to_vec()).collect();
    match request::resolve(&prepared(v), &faces).unwrap() {
        Resolution::Done(d) => serde_json::to_value(&d).unwrap(),
        Resolution::More { dice } => panic!("more: {dice:?}"),
    }
}

fn odds(v: Value) -> Value {
    serde_json::to_value(request::odds(&prepared(v)).unwrap()).unwrap()
}

fn r(n: u64, d: u64) -> String {
    Ratio::ratio(n, d).unwrap().to_string()
}

// ---------------------------------------------------------------- ICONS

#[test]
fn icons_dice_reproduce_the_seed_table() {
    // "Result / Chance of Exact Result / Chance of Result or Higher", as printed (truncated)
    let table: [(i64, f64, f64); 11] = [
        (5, 2.77, 2.77),
        (4, 5.55, 8.33),
        (3, 8.33, 16.66),
        (2, 11.11, 27.77),
        (1, 13.88, 41.66),
        (0, 16.66, 58.33),
        (-1, 13.88, 72.22),
        (-2, 11.11, 83.33),
        (-3, 8.33, 91.66),
        (-4, 5.55, 97.22),
        (-5, 2.77, 100.0),
    ];
    let o = odds(json!({"kind": "icons.test", "ability": 0, "difficulty": 0}));
    let exact: BTreeMap<i64, Ratio> = o["exact"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let (n, d) = t[1].as_str().unwrap().split_once('/').unwrap();
            (
                t[0].as_i64().unwrap(),
                Ratio::ratio(n.parse().unwrap(), d.parse().unwrap()).unwrap(),
            )
        })
        .collect();
    let truncate = |p: f64| (p * 10_000.0 + 1e-9).floor() / 100.0;
    let mut at_least = Ratio::zero();
    for (result, exact_pct, higher_pct) in table {
        let p = exact[&result];
        at_least = at_least.add(p).unwrap();
        // (6 − |result|)/36 exactly
        assert_eq!(
            p,
            Ratio::ratio(6 - result.unsigned_abs(), 36).unwrap(),
            "{result}"
        );
        assert_eq!(truncate(p.to_f64()), exact_pct, "{result}");
        assert_eq!(
            truncate(at_least.to_f64()),
            higher_pct,
            "{result} or higher"
        );
    }
}

#[test]
fn icons_tests_effort_effect_and_outcomes() {
    // the seed: "a roll of +1 and ability 3 have an effort of 4, but with a difficulty 2 test, the
    // effect is only 2"
    let d = done(
        json!({"kind": "icons.test", "ability": 3, "difficulty": 2}),
        &[&[4], &[3]],
    );
    assert_eq!(
        (
            d["result"].clone(),
            d["effort"].clone(),
            d["effect"].clone()
        ),
        (json!(1), json!(4), json!(2))
    );
    assert_eq!(d["outcome"], "moderate");
    // a –1 penalty raises the difficulty
    let d = done(
        json!({"kind": "icons.test", "ability": 3, "difficulty": 2, "penalty": 1}),
        &[&[4], &[3]],
    );
    assert_eq!(d["effect"], 1);
    let d = done(
        json!({"kind": "icons.test", "ability": 5, "difficulty": 4, "bonus": 1}),
        &[&[2], &[5]],
    );
    assert_eq!(
        (d["effect"].clone(), d["outcome"].clone()),
        (json!(-1), json!("failure"))
    );
    let d = done(
        json!({"kind": "icons.test", "ability": 6, "difficulty": 2}),
        &[&[3], &[3]],
    );
    assert_eq!(d["outcome"], "major");
    // effort 15 against cosmic difficulty 10
    let d = done(
        json!({"kind": "icons.test", "ability": 10, "difficulty": 10}),
        &[&[6], &[1]],
    );
    assert_eq!(
        (d["outcome"].clone(), d["cosmic"].clone()),
        (json!("massive"), json!(true))
    );
    let plan = serde_json::to_value(
        request::plan(&prepared(
            json!({"kind": "icons.test", "ability": 1, "difficulty": 1}),
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (plan[0]["role"].clone(), plan[1]["role"].clone()),
        (json!("positive"), json!("negative"))
    );
    // odds of the outcomes: ability 4 vs difficulty 4: effect = dice result
    let o = odds(json!({"kind": "icons.test", "ability": 4, "difficulty": 4}));
    let e = &o["exact"]["outcomes"];
    assert_eq!(
        (
            e["failure"].as_str().unwrap(),
            e["moderate"].as_str().unwrap()
        ),
        (r(15, 36).as_str(), r(15, 36).as_str())
    );
    assert_eq!(
        (e["major"].as_str().unwrap(), e["massive"].as_str().unwrap()),
        (r(5, 36).as_str(), r(1, 36).as_str())
    );
    let o = odds(json!({"kind": "icons.test", "ability": 10, "difficulty": 10}));
    assert_eq!(
        o["exact"]["outcomes"]["cosmic"],
        r(1, 36),
        "effort 15 from ability 10 needs a +5"
    );
    assert_eq!(level_name(8, 1).unwrap(), "Astounding (8)");
    assert_eq!(level_name(11, 0), None);
}

// ---------------------------------------------------------------- Tribute

#[test]
fn tribute_profit_and_waste_follow_the_seed() {
    // highest FOCUS and BURDEN equal: both profit and waste
    assert_eq!(
        (
            extra_dice(&[5, 5, 2], &[5, 3, 5]),
            extra_dice(&[5, 3, 5], &[5, 5, 2])
        ),
        (1, 1)
    );
    assert_eq!(extra_dice(&[6, 4, 3], &[3]), 2);
    assert_eq!(extra_dice(&[3], &[6, 4, 3]), 0);
    assert_eq!(extra_dice(&[2, 2], &[6]), 0);
    let req = json!({"kind": "tribute.test", "rank": 2, "focus": 2, "burden": 2, "die": 6, "opposition": 2, "effectRank": 3});
    let d = done(req, &[&[5, 5, 2], &[5, 3, 5]]);
    assert_eq!(
        (d["value"].clone(), d["result"].clone()),
        (json!(2), json!("match"))
    );
    assert_eq!(
        (
            d["profit"].clone(),
            d["waste"].clone(),
            d["effectRank"].clone()
        ),
        (json!(1), json!(1), json!(3))
    );
    // a win with profit raises the effect, capped at 5
    let req = json!({"kind": "tribute.test", "rank": 1, "focus": 2, "die": 6, "opposition": 0, "effectRank": 4});
    let d = done(req, &[&[6, 4, 3], &[3]]);
    assert_eq!(
        (
            d["result"].clone(),
            d["profit"].clone(),
            d["effectRank"].clone()
        ),
        (json!("win"), json!(2), json!(5))
    );
    // a fail: profit and waste are irrelevant
    let req =
        json!({"kind": "tribute.test", "rank": 0, "focus": 1, "die": 8, "opposition": {"rank": 3}});
    let plan = serde_json::to_value(request::plan(&prepared(req.clone())).unwrap()).unwrap();
    let roles: Vec<&str> = plan
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["focus", "burden", "oppFocus", "oppBurden"]);
    let d = done(req, &[&[2, 2], &[1], &[1], &[1]]);
    assert_eq!(
        (
            d["result"].clone(),
            d["value"].clone(),
            d["opposition"].clone(),
            d["profit"].clone()
        ),
        (json!("fail"), json!(1), json!(3), json!(0))
    );
}

type Outcomes = BTreeMap<&'static str, Ratio>;
type Joint = BTreeMap<(u32, u32), Ratio>;

/// Independent enumeration of every roll: P(win, match, fail) and P(profit, waste).
fn tribute_by_enumeration(
    rank: i64,
    nf: u32,
    nb: u32,
    x: i64,
    opp: Option<(i64, u32, u32)>,
    fixed: i64,
) -> (Outcomes, Joint) {
    let (of, ob) = opp.map_or((0, 0), |(_, f, b)| (f + 1, b + 1));
    let n = nf + nb + of + ob;
    let total = (x as u64).pow(n);
    let mut outcomes: BTreeMap<&str, u64> = BTreeMap::new();
    let mut joint: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    for code in 0..total {
        let mut c = code;
        let dice: Vec<i64> = (0..n)
            .map(|_| {
                let v = (c % x as u64) as i64 + 1;
                c /= x as u64;
                v
            })
            .collect();
        let (f, rest) = dice.split_at(nf as usize);
        let (b, rest) = rest.split_at(nb as usize);
        let value = rank + f.iter().max().unwrap() - b.iter().max().unwrap();
        let opposition = match opp {
            Some((orank, _, _)) => {
                let (f2, b2) = rest.split_at(of as usize);
                orank + f2.iter().max().unwrap() - b2.iter().max().unwrap()
            }
            None => fixed,
        };
        let label = if value > opposition {
            "win"
        } else if value == opposition {
            "match"
        } else {
            "fail"
        };
        *outcomes.entry(label).or_default() += 1;
        let key = if label == "fail" {
            (0, 0)
        } else {
            (extra_dice(f, b), extra_dice(b, f))
        };
        *joint.entry(key).or_default() += 1;
    }
    (
        outcomes
            .into_iter()
            .map(|(k, v)| (k, Ratio::ratio(v, total).unwrap()))
            .collect(),
        joint
            .into_iter()
            .map(|(k, v)| (k, Ratio::ratio(v, total).unwrap()))
            .collect(),
    )
}

#[test]
fn tribute_odds_equal_enumeration() {
    for (rank, focus, burden, die, opp, fixed) in [
        (0i64, 2u32, 1u32, 6i64, None, 0i64),
        (1, 0, 2, 4, None, 2),
        (0, 1, 1, 4, Some((0i64, 1u32, 0u32)), 0),
        (2, 3, 0, 6, None, 5),
        (-1, 1, 2, 4, Some((1, 0, 1)), 0),
    ] {
        let opposition = match opp {
            Some((r, f, b)) => json!({"rank": r, "focus": f, "burden": b}),
            None => json!(fixed),
        };
        let o = odds(
            json!({"kind": "tribute.test", "rank": rank, "focus": focus, "burden": burden, "die": die, "opposition": opposition}),
        );
        let (outcomes, joint) =
            tribute_by_enumeration(rank, focus + 1, burden + 1, die, opp, fixed);
        for label in ["win", "match", "fail"] {
            let want = outcomes
                .get(label)
                .copied()
                .unwrap_or(Ratio::zero())
                .to_string();
            assert_eq!(
                o["exact"]["outcomes"][label], want,
                "{label} for {rank} {focus} {burden} d{die} {opp:?}"
            );
        }
        let got: BTreeMap<(u32, u32), String> = o["profitWaste"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    (
                        c["profit"].as_u64().unwrap() as u32,
                        c["waste"].as_u64().unwrap() as u32,
                    ),
                    c["exact"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: BTreeMap<(u32, u32), String> =
            joint.into_iter().map(|(k, v)| (k, v.to_string())).collect();
        assert_eq!(got, want, "{rank} {focus} {burden} d{die} {opp:?}");
    }
}

#[test]
fn tribute_odds_for_the_largest_pools_are_exact_and_sum_to_one() {
    let o = odds(
        json!({"kind": "tribute.test", "rank": 0, "focus": 5, "burden": 5, "die": 12, "opposition": {"rank": 0, "focus": 5, "burden": 5}}),
    );
    let cells = o["profitWaste"].as_array().unwrap();
    let sum = cells.iter().fold(Ratio::zero(), |acc, c| {
        let (n, d) = c["exact"].as_str().unwrap().split_once('/').unwrap();
        let cell = Ratio {
            num: n.parse().unwrap(),
            den: d.parse().unwrap(),
        };
        acc.add(cell).unwrap()
    });
    assert_eq!(sum, Ratio::one());
    let f: f64 = ["win", "match", "fail"]
        .iter()
        .map(|l| o["outcomes"][l].as_f64().unwrap())
        .sum();
    assert!((f - 1.0).abs() < 1e-12);
    // symmetric sides: win and fail are equally likely
    assert_eq!(
        o["exact"]["outcomes"]["win"],
        o["exact"]["outcomes"]["fail"]
    );
}

#[test]
fn tribute_bad_requests() {
    for (v, words) in [
        (
            json!({"kind": "tribute.test", "rank": 0, "die": 7, "opposition": 0}),
            "4, 6, 8, 10 or 12",
        ),
        (
            json!({"kind": "tribute.test", "rank": 0, "focus": 6, "die": 6, "opposition": 0}),
            "focus must be from 0 to 5",
        ),
        (
            json!({"kind": "tribute.test", "rank": 0, "die": 6, "opposition": 0, "effectRank": 6}),
            "effectRank must be from 0 to 5",
        ),
    ] {
        let req: Request = serde_json::from_value(v).unwrap();
        assert!(Prepared::new(&req).unwrap_err().message().contains(words));
    }
}

// ---------------------------------------------------------------- the 3d6 skill system

fn skill(extra: Value, faces: &[&[i64]]) -> Value {
    let mut req = json!({"kind": "narrator.skill", "skill": 10, "difficulty": 20});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    done(req, faces)
}

#[test]
fn narrator_skill_rolls_and_success_levels() {
    let d = skill(json!({}), &[&[3, 4, 5]]);
    assert_eq!(
        (
            d["roll"].clone(),
            d["successLevels"].clone(),
            d["success"].clone()
        ),
        (json!(22), json!(2), json!(true))
    );
    // the deterministic roll adds 10 and rolls nothing
    let p = serde_json::to_value(request::plan(&prepared(json!({"kind": "narrator.skill", "skill": 12, "difficulty": 20, "dice": "deterministic"}))).unwrap()).unwrap();
    assert_eq!(p, json!([]));
    let d = skill(
        json!({"skill": 12, "dice": "deterministic", "modifiers": -3}),
        &[],
    );
    assert_eq!(
        (d["roll"].clone(), d["success"].clone()),
        (json!(19), json!(false))
    );
    // quantitative: 20% a level coarse, 10% fine; a power rank per 4 (coarse) or 8 (fine) levels
    let d = skill(json!({"use": "quantitative"}), &[&[6, 6, 5]]);
    assert_eq!(
        (
            d["successLevels"].clone(),
            d["percent"].clone(),
            d["extraRanks"].clone()
        ),
        (json!(7), json!(140), json!(1))
    );
    let d = skill(
        json!({"use": "quantitative", "scale": "fine"}),
        &[&[6, 6, 5]],
    );
    assert_eq!(
        (d["percent"].clone(), d["extraRanks"].clone()),
        (json!(70), json!(0))
    );
    // any dice set
    let d = skill(json!({"dice": "1d20"}), &[&[15]]);
    assert_eq!(d["roll"], 25);
}

#[test]
fn narrator_knowledge_and_attack_bands() {
    for (faces, band) in [
        ([1, 1, 4], "unfamiliar"),
        ([1, 2, 4], "faulty"),
        ([3, 3, 4], "yesNo"),
        ([3, 3, 7 - 2], "shortAnswers"),
        ([6, 4, 4], "background"),
        ([6, 6, 6], "studied"),
    ] {
        let d = skill(json!({"use": "knowledge"}), &[&faces]);
        assert_eq!(d["knowledge"], band, "{faces:?}");
    }
    // base damage 12: miss, winged (half), hit, bonus 1/4 a level capped at half the base
    for (faces, band, damage) in [
        ([1, 3, 4], "miss", 0),
        ([3, 3, 3], "winged", 6),
        ([3, 3, 4], "hit", 12),
        ([3, 4, 4], "bonus", 15),
        ([6, 4, 3], "bonus", 18),
    ] {
        // one rank: a rank's damage is the whole base damage
        let d = skill(
            json!({"use": "attack", "baseDamage": 12, "ranks": 1}),
            &[&faces],
        );
        assert_eq!(
            (d["attack"].clone(), d["damage"].clone()),
            (json!(band), json!(damage)),
            "{faces:?}"
        );
    }
    let d = skill(
        json!({"use": "attack", "baseDamage": 12, "ranks": 1, "scale": "fine"}),
        &[&[3, 4, 4]],
    );
    assert_eq!(d["damage"], 13);
}

/// How many of the 216 rolls of 3d6 total at least `t`, counted directly.
fn three_d6_at_least(t: i64) -> u64 {
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                if a + b + c >= t {
                    n += 1;
                }
            }
        }
    }
    n
}

#[test]
fn narrator_odds_and_the_spread_of_dice_sets() {
    let o = odds(json!({"kind": "narrator.skill", "skill": 10, "difficulty": 20}));
    assert_eq!(
        o["exact"]["outcomes"]["success"],
        r(three_d6_at_least(10), 216)
    );
    let o = odds(json!({"kind": "narrator.skill", "skill": 7, "difficulty": 22, "use": "attack"}));
    // miss: 3d6 ≤ 13; winged: 14; hit: 15; bonus: ≥ 16
    let e = &o["exact"]["outcomes"];
    assert_eq!(e["bonus"], r(three_d6_at_least(16), 216));
    assert_eq!(
        e["hit"],
        r(three_d6_at_least(15) - three_d6_at_least(16), 216)
    );
    assert_eq!(e["miss"], r(216 - three_d6_at_least(14), 216));
    // "the smaller the standard deviation, the more predictable": 3d6 vs 1d20 vs deterministic
    let sd = |dice: &str| {
        odds(json!({"kind": "narrator.skill", "skill": 0, "difficulty": 0, "dice": dice}))["sd"]
            .as_f64()
            .unwrap()
    };
    assert!((sd("3d6") - (35.0f64 / 4.0).sqrt()).abs() < 1e-12);
    assert!((sd("1d20") - (399.0f64 / 12.0).sqrt()).abs() < 1e-12);
    assert_eq!(sd("deterministic"), 0.0);
    let bad: Request = serde_json::from_value(
        json!({"kind": "narrator.skill", "skill": 1, "difficulty": 1, "dice": "3d"}),
    )
    .unwrap();
    assert!(Prepared::new(&bad)
        .unwrap_err()
        .message()
        .contains("number of faces"));
}

// ---------------------------------------------------------------- Men & Supermen

#[test]
fn mns_special_characters_subtract_the_reroll_of_a_one() {
    // "Seraph ... His Move Roll is ... 28. He rolls a 5 and a 1, for 6. The 1 is re-rolled,
    // getting a 4, bringing the result to 2. The Quality of the Move Roll is 28-2, or 26."
    let req = json!({"kind": "mns.action", "target": 28});
    let p = prepared(req.clone());
    let Resolution::More { dice } = request::resolve(&p, &[vec![5, 1]]).unwrap() else {
        panic!("a 1 asks for a re-roll")
    };
    assert_eq!(
        serde_json::to_value(&dice).unwrap(),
        json!([{"faces": 10, "count": 1, "role": "reroll", "notation": "d10", "term": 0}])
    );
    let d = done(req.clone(), &[&[5, 1], &[4]]);
    assert_eq!(
        (
            d["total"].clone(),
            d["quality"].clone(),
            d["success"].clone()
        ),
        (json!(2), json!(26), json!(true))
    );
    // "a player rolls 2d10, for 1 and 7, this totals to 8, but the 1 is rolled again; the next die
    // comes up 6, which is subtracted from 8, for a total of 2"
    assert_eq!(
        done(
            json!({"kind": "mns.action", "target": 10}),
            &[&[1, 7], &[6]]
        )["total"],
        2
    );
    // "If both dice come up 1, both dice will be re-rolled, and their total subtracted from 2."
    assert_eq!(
        done(
            json!({"kind": "mns.action", "target": 10}),
            &[&[1, 1], &[3, 5]]
        )["total"],
        -6
    );
    // "Dice are only re-rolled once": a re-rolled 1 stays
    assert_eq!(
        done(
            json!({"kind": "mns.action", "target": 10}),
            &[&[1, 5], &[1]]
        )["total"],
        5
    );
    // not special: no re-roll; failure when over the target
    let d = done(
        json!({"kind": "mns.action", "target": 7, "special": false}),
        &[&[1, 7]],
    );
    assert_eq!(
        (
            d["total"].clone(),
            d["success"].clone(),
            d["quality"].clone()
        ),
        (json!(8), json!(false), json!(-1))
    );
    // a bonus pool adds to the target
    let d = done(
        json!({"kind": "mns.action", "target": 7, "bonus": 2, "special": false}),
        &[&[1, 7]],
    );
    assert_eq!(d["success"], true);
    // too many faces
    let e = request::resolve(&p, &[vec![5, 6], vec![4]]).unwrap_err();
    assert!(e.message().contains("used only 1"), "{}", e.message());
}

#[test]
fn mns_action_odds_equal_enumeration_and_rolls_replay() {
    // every pair of dice, and for each 1 every re-roll
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    for a in 1..=10i64 {
        for b in 1..=10i64 {
            let reroll = |v: i64| -> Vec<(i64, u64)> {
                if v == 1 {
                    (1..=10).map(|r| (1 - r, 1)).collect()
                } else {
                    vec![(v, 10)]
                }
            };
            for (x, wx) in reroll(a) {
                for (y, wy) in reroll(b) {
                    *counts.entry(x + y).or_default() += wx * wy;
                }
            }
        }
    }
    let o = odds(json!({"kind": "mns.action", "target": 12}));
    let got: BTreeMap<i64, String> = o["exact"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t[0].as_i64().unwrap(), t[1].as_str().unwrap().to_string()))
        .collect();
    let want: BTreeMap<i64, String> = counts.iter().map(|(t, c)| (*t, r(*c, 10_000))).collect();
    assert_eq!(got, want);
    let success: u64 = counts
        .iter()
        .filter(|(t, _)| **t <= 12)
        .map(|(_, c)| c)
        .sum();
    assert_eq!(o["exact"]["outcomes"]["success"], r(success, 10_000));
    // not special: plain 2d10
    let o = odds(json!({"kind": "mns.action", "target": 11, "special": false}));
    assert_eq!(o["exact"]["outcomes"]["success"], r(55, 100));
    // a seeded roll goes through the re-roll and replays
    let p = prepared(json!({"kind": "mns.action", "target": 15}));
    for seed in 0..40 {
        let a = request::roll(&p, seed).unwrap();
        assert_eq!(request::roll(&p, seed).unwrap(), a);
        let ones = a.faces[0].iter().filter(|v| **v == 1).count();
        assert_eq!(a.faces.len(), 1 + usize::from(ones > 0), "{:?}", a.faces);
        assert!(want.contains_key(&a.total));
    }
}

#[test]
fn mns_saves() {
    // "Cerest-Ranon's ... save is vs. 62 ... rolls 45, so she's not horrified. Seraph ... saves
    // vs. 68 ... rolls 78, so he is."
    let d = done(
        json!({"kind": "mns.save", "score": 62, "dice": "d100"}),
        &[&[45]],
    );
    assert_eq!(
        (d["success"].clone(), d["quality"].clone()),
        (json!(true), json!(17))
    );
    let d = done(
        json!({"kind": "mns.save", "score": 68, "dice": "d100"}),
        &[&[78]],
    );
    assert_eq!(d["success"], false);
    // a character that is not special never re-rolls 1s
    let d = done(
        json!({"kind": "mns.save", "score": 10, "special": false}),
        &[&[1, 1]],
    );
    assert_eq!(d["total"], 2);
    let o = odds(json!({"kind": "mns.save", "score": 68, "dice": "d100"}));
    assert_eq!(o["exact"]["outcomes"]["success"], r(68, 100));
}

#[test]
fn mns_tables_as_the_seed_prints_them() {
    use icon_engine::rulesets::mns_tables::*;
    let cost = |row| serde_json::to_value(ep_cost(row)).unwrap();
    assert_eq!(cost(0), json!({"amount": 0, "per": null}));
    assert_eq!(cost(3), json!({"amount": 1, "per": "tenMinutes"}));
    // "An action normally has an EP cost of 5 EP (Row 9 on the EP Use Chart)"
    assert_eq!(cost(9), json!({"amount": 5, "per": "round"}));
    // "Hand Damage starts at row 7 ... it costs 3 EP"; "At Q of -1, the EP cost is 6 per round (Row 10)"
    assert_eq!(
        (
            cost(7)["amount"].clone(),
            cost(10)["amount"].clone(),
            cost(12)["amount"].clone()
        ),
        (json!(3), json!(6), json!(8))
    );
    assert_eq!(cost(-4), cost(0));
    let st = |row| skin_temper(row).unwrap().to_string();
    assert_eq!(
        (0..=13).map(st).collect::<Vec<_>>(),
        [
            "1/1", "9/10", "4/5", "2/3", "1/2", "2/5", "1/3", "1/3", "1/4", "1/4", "1/5", "1/5",
            "1/6", "1/6"
        ]
    );
    // "once Skin Temper has been reduced to 1, start going back up the list, but reverse the
    // numbers. So, 1 becomes 10/9, then 5/4, then 3/2"
    assert_eq!([st(-1), st(-2), st(-3)], ["10/9", "5/4", "3/2"]);
    let lm = |l| learning_modifier(l).unwrap().to_string();
    assert_eq!(
        [3, 5, 7, 9, 11, 12, 14, 15, 16, 17, 18, 20].map(lm),
        ["3/1", "2/1", "3/2", "5/4", "1/1", "4/5", "2/3", "1/2", "1/3", "1/4", "1/5", "1/7"]
    );
    assert!(learning_modifier(2).is_err());
    let sm = |s| {
        let m = sight_modifiers(s).unwrap();
        (m.close, m.ranged, m.defense)
    };
    assert_eq!(
        [sm(0), sm(2), sm(6), sm(12), sm(17), sm(24)],
        [
            (-5, -9, -2),
            (-3, -7, -1),
            (0, -3, 0),
            (0, 0, 0),
            (0, 1, 0),
            (3, 5, 0)
        ]
    );
    assert_eq!([sm(28), sm(29), sm(34)], [(3, 5, 0), (3, 6, 0), (4, 7, 0)]);
    assert_eq!(
        [
            base_height_mm(1, false).unwrap(),
            base_height_mm(50, true).unwrap(),
            base_height_mm(100, false).unwrap()
        ],
        [1217, 1663, 2239]
    );
    assert_eq!(
        [
            base_height_mm(3, false).unwrap(),
            base_height_mm(4, false).unwrap(),
            base_height_mm(95, true).unwrap()
        ],
        [1336, 1455, 1925]
    );
    assert!(base_height_mm(0, false).is_err());
    assert_eq!(
        [1, 4, 8, 9, 14, 16, 17, 19, 22].map(|r| base_age(r).unwrap()),
        [-1, 9, 14, 19, 19, 24, 29, 36, 60]
    );
    assert!(base_age(23).is_err());
}

// ---------------------------------------------------------------- Men & Supermen: special dice

#[test]
fn mns_special_dice_read_the_physical_dice_as_the_glossary_says() {
    use icon_engine::rulesets::mns::Special;
    let read = |die: Special, faces: &[i64]| die.read(faces).unwrap();
    // "d2) roll d6; 1, 2, & 3 are 1; 4, 5, & 6 are 2."
    assert_eq!(
        (1..=6).map(|f| read(Special::D2, &[f])).collect::<Vec<_>>(),
        [1, 1, 1, 2, 2, 2]
    );
    // "d3) roll d6; 1 & 2 are 1; 3 & 4 are 2; 5 & 6 are 3"
    assert_eq!(
        (1..=6).map(|f| read(Special::D3, &[f])).collect::<Vec<_>>(),
        [1, 1, 2, 2, 3, 3]
    );
    // "d5) roll d10; divide the result by 2; round up."
    assert_eq!(
        (1..=10)
            .map(|f| read(Special::D5, &[f]))
            .collect::<Vec<_>>(),
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    );
    // "d32) roll d4; subtract 1; multiply by 8; add d8."
    assert_eq!(
        [
            read(Special::D32, &[1, 1]),
            read(Special::D32, &[2, 3]),
            read(Special::D32, &[4, 8])
        ],
        [1, 11, 32]
    );
    // "If a 0 and a 5 is rolled, the result is 5. If a 3 and a 9 is rolled, the result is 39. If
    // two zeroes are rolled, the result is 100." (a d10 face of 10 is its zero)
    assert_eq!(
        [
            read(Special::D100, &[10, 5]),
            read(Special::D100, &[3, 9]),
            read(Special::D100, &[10, 10])
        ],
        [5, 39, 100]
    );
    // d1000: "'Tens' mean '0' unless all three come up zero, which is 1,000."
    assert_eq!(
        [
            read(Special::D1000, &[10, 10, 10]),
            read(Special::D1000, &[10, 10, 1]),
            read(Special::D1000, &[1, 10, 10]),
            read(Special::D1000, &[9, 9, 9])
        ],
        [1000, 1, 100, 999]
    );
    assert!(Special::D32.read(&[5, 1]).is_err());
    assert!(Special::D100.read(&[5]).is_err());

    // Through the verbs: the plan names each physical die; d% is the d100 over 100.
    let plan = serde_json::to_value(
        request::plan(&prepared(json!({"kind": "mns.dice", "die": "d1000"}))).unwrap(),
    )
    .unwrap();
    let roles: Vec<&str> = plan
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["hundreds", "tens", "ones"]);
    let d = done(json!({"kind": "mns.dice", "die": "d%"}), &[&[3], &[7]]);
    assert_eq!(
        (
            d["total"].clone(),
            d["value"].clone(),
            d["multiplier"].clone()
        ),
        (json!(37), json!(37), json!(0.37))
    );
    let d = done(json!({"kind": "mns.dice", "die": "d100"}), &[&[10], &[10]]);
    assert_eq!(
        (d["total"].clone(), d["multiplier"].clone()),
        (json!(100), Value::Null)
    );
    let d = done(json!({"kind": "mns.dice", "die": "d32"}), &[&[3], &[5]]);
    assert_eq!(
        (d["total"].clone(), d["dice"].clone()),
        (json!(21), json!([3, 5]))
    );
    assert!(serde_json::from_value::<Request>(json!({"kind": "mns.dice", "die": "d7"})).is_err());
}

#[test]
fn mns_special_dice_odds_are_uniform() {
    // Each procedure gives every value 1..n once per n-th of the physical outcomes: d2 from 6
    // faces (3 each), d32 from 4×8, d1000 from 10×10×10.
    for (die, n) in [
        ("d2", 2u64),
        ("d3", 3),
        ("d5", 5),
        ("d32", 32),
        ("d100", 100),
        ("d1000", 1000),
        ("d%", 100),
    ] {
        let o = odds(json!({"kind": "mns.dice", "die": die}));
        let totals = o["exact"]["totals"].as_array().unwrap();
        assert_eq!(totals.len() as u64, n, "{die}");
        for (i, t) in totals.iter().enumerate() {
            assert_eq!(t[0], json!(i as u64 + 1), "{die}");
            assert_eq!(t[1].as_str().unwrap(), r(1, n), "{die}");
        }
        assert_eq!(o["exact"]["mean"].as_str().unwrap(), r(n + 1, 2), "{die}");
    }
    // and seeded rolls replay within range
    let p = prepared(json!({"kind": "mns.dice", "die": "d1000"}));
    for seed in 0..20 {
        let a = request::roll(&p, seed).unwrap();
        assert_eq!(request::roll(&p, seed).unwrap(), a);
        assert!((1..=1000).contains(&a.total));
    }
}

// ---------------------------------------------------------------- the printed charts

#[test]
fn ruleset_charts_are_the_seeds_numbers() {
    use icon_engine::rulesets::{narrator, tables};
    let t = serde_json::to_value(tables()).unwrap();
    let values = |key: &str| -> Vec<i64> {
        t[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["value"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(
        values("narratorDifficulty"),
        [15, 18, 20, 22, 25, 28, 32, 35, 38, 40, 45, 48]
    );
    assert_eq!(values("narratorOpposed"), [-12, -8, -4, -2, 0, 2, 4, 8, 12]);
    assert_eq!(values("narratorKnowledge"), [15, 18, 20, 24, 28, 32, 36]);
    assert_eq!(values("tributeRealityLevels"), [4, 6, 8, 10, 12]);
    assert_eq!(
        t["narratorDifficulty"][2]["label"],
        "Challenging task (50/50 success) for a beginner"
    );
    assert_eq!(
        t["mnsSpecialDice"],
        json!(["d2", "d3", "d5", "d32", "d100", "d1000", "d%"])
    );
    // ICONS: levels 1–10, three optional names each
    let levels = t["iconsLevels"].as_array().unwrap();
    assert_eq!(
        levels
            .iter()
            .map(|l| l["level"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    assert_eq!(
        levels[7]["names"],
        json!(["Amazing", "Astounding", "Legendary"])
    );
    assert_eq!(levels[2]["description"], "Average human");
    assert_eq!(
        (1..=10)
            .map(|l| level_name(l, 1).unwrap())
            .collect::<Vec<_>>(),
        [
            "Feeble (1)",
            "Inferior (2)",
            "Mediocre (3)",
            "Competent (4)",
            "Exceptional (5)",
            "Remarkable (6)",
            "Incredible (7)",
            "Astounding (8)",
            "Inhuman (9)",
            "Cosmic (10)"
        ]
    );
    assert_eq!(level_name(10, 2).unwrap(), "Marvelous (10)");
    assert_eq!(level_name(0, 0), None);
    assert_eq!(level_name(5, 3), None);
    // an NPC opponent "will take the deterministic roll, 10 + skill level", modified by the chart
    assert_eq!(narrator::opposed_difficulty(12, -4), 18);
}

#[test]
fn icons_reactions_test_against_the_gm_characters_ability() {
    // "when a villain attacks, the hero's player tests a defensive ability ... as a reaction
    // against a difficulty of the villain's attacking ability": Coordination 4 against Prowess 6
    let reaction = json!({"kind": "icons.test", "ability": 4, "difficulty": 6});
    let d = done(reaction.clone(), &[&[6], &[2]]);
    assert_eq!(
        (
            d["effort"].clone(),
            d["effect"].clone(),
            d["outcome"].clone()
        ),
        (json!(8), json!(2), json!("moderate"))
    );
    // the odds: effect = result − 2, so success needs +2 or better: 10/36
    let o = odds(reaction);
    let success = ["moderate", "major", "massive"]
        .iter()
        .fold(Ratio::zero(), |acc, l| {
            let (n, d) = o["exact"]["outcomes"][l]
                .as_str()
                .unwrap()
                .split_once('/')
                .unwrap();
            acc.add(Ratio::ratio(n.parse().unwrap(), d.parse().unwrap()).unwrap())
                .unwrap()
        });
    assert_eq!(success, Ratio::ratio(10, 36).unwrap());
}

#[test]
fn mns_table_lookups_through_one_query() {
    use icon_engine::rulesets::mns_tables::Lookup;
    let ask = |v: Value| {
        let l: Lookup = serde_json::from_value(v).unwrap();
        serde_json::to_value(l.answer().unwrap()).unwrap()
    };
    assert_eq!(
        ask(json!({"table": "epCost", "row": 9})),
        json!({"amount": 5, "per": "round"})
    );
    assert_eq!(
        ask(json!({"table": "skinTemper", "row": 3})),
        json!({"fraction": "2/3", "value": 2.0 / 3.0})
    );
    assert_eq!(
        ask(json!({"table": "learningModifier", "learning": 7}))["fraction"],
        "3/2"
    );
    assert_eq!(
        ask(json!({"table": "sightModifiers", "sight": 0})),
        json!({"close": -5, "ranged": -9, "defense": -2})
    );
    assert_eq!(
        ask(json!({"table": "baseHeight", "roll": 100, "female": true})),
        json!({"value": 2188})
    );
    assert_eq!(
        ask(json!({"table": "baseAge", "roll": 18})),
        json!({"value": 34})
    );
    let l: Lookup = serde_json::from_value(json!({"table": "baseAge", "roll": 40})).unwrap();
    assert!(l.answer().is_err());
    assert!(
        serde_json::from_value::<Lookup>(json!({"table": "sphere", "row": 1})).is_err(),
        "unprinted charts are not lookups"
    );
}

#[test]
fn tribute_odds_for_every_pool_up_to_six_and_six_d12() {
    // Independently: the highest of n dice of x faces is a in a^n − (a−1)^n of x^n rolls.
    let x: u64 = 12;
    for nf in 1..=6u32 {
        for nb in 1..=6u32 {
            let o = odds(json!({"kind": "tribute.test", "rank": 1, "focus": nf - 1,
                "burden": nb - 1, "die": 12, "opposition": 2}));
            let highest = |n: u32, a: u64| a.pow(n) - (a - 1).pow(n);
            let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
            for a in 1..=x {
                for b in 1..=x {
                    let value = 1 + a as i64 - b as i64;
                    let label = match value.cmp(&2) {
                        std::cmp::Ordering::Greater => "win",
                        std::cmp::Ordering::Equal => "match",
                        std::cmp::Ordering::Less => "fail",
                    };
                    *counts.entry(label).or_default() += highest(nf, a) * highest(nb, b);
                }
            }
            let total = x.pow(nf + nb);
            for (label, count) in counts {
                assert_eq!(
                    o["exact"]["outcomes"][label].as_str().unwrap(),
                    r(count, total),
                    "{label} with {nf}+{nb} d12"
                );
            }
            // the joint distribution of profit and waste is a distribution, within the pools
            let mut sum = Ratio::zero();
            for c in o["profitWaste"].as_array().unwrap() {
                assert!(c["profit"].as_u64().unwrap() < u64::from(nf));
                assert!(c["waste"].as_u64().unwrap() < u64::from(nb));
                let (n, d) = c["exact"].as_str().unwrap().split_once('/').unwrap();
                sum = sum
                    .add(Ratio {
                        num: n.parse().unwrap(),
                        den: d.parse().unwrap(),
                    })
                    .unwrap();
            }
            assert_eq!(sum, Ratio::one(), "{nf}+{nb}");
        }
    }
}

// ---------------------------------------------------------------- issue 17: ICONS

/// The ICONS rule written out plainly: effect = effort − (difficulty + penalty); massive cosmic
/// success when the effective difficulty is 10 and the effort 15 or more.
fn icons_by_hand(
    ability: i64,
    difficulty: i64,
    bonus: i64,
    penalty: i64,
    result: i64,
) -> (&'static str, bool) {
    let effort = ability + bonus + result;
    let effect = effort - (difficulty + penalty);
    let outcome = match effect {
        e if e < 0 => "failure",
        0..=2 => "moderate",
        3 | 4 => "major",
        _ => "massive",
    };
    (outcome, difficulty + penalty == 10 && effort >= 15)
}

#[test]
fn icons_cosmic_is_decided_on_the_effective_difficulty_and_is_always_massive() {
    // difficulty 9 with a –1 penalty is a cosmic (10) test: effort 15 is a massive cosmic success
    let d = done(
        json!({"kind": "icons.test", "ability": 10, "difficulty": 9, "penalty": 1}),
        &[&[6], &[1]],
    );
    assert_eq!(
        (
            d["effort"].clone(),
            d["outcome"].clone(),
            d["cosmic"].clone()
        ),
        (json!(15), json!("massive"), json!(true))
    );
    // difficulty 10 with a –1 penalty is 11: effort 15 is a major success, not cosmic
    let d = done(
        json!({"kind": "icons.test", "ability": 10, "difficulty": 10, "penalty": 1}),
        &[&[6], &[1]],
    );
    assert_eq!(
        (
            d["effect"].clone(),
            d["outcome"].clone(),
            d["cosmic"].clone()
        ),
        (json!(4), json!("major"), json!(false))
    );
    // every test, every roll: resolve and odds agree with the rule by hand, and cosmic ⇒ massive
    for ability in [3, 8, 10, 12] {
        for difficulty in [7, 9, 10] {
            for penalty in [0, 1, 3] {
                for bonus in [0, 2] {
                    let req = json!({"kind": "icons.test", "ability": ability,
                        "difficulty": difficulty, "penalty": penalty, "bonus": bonus});
                    let mut cosmic = 0u64;
                    let mut massive = 0u64;
                    for p in 1..=6 {
                        for n in 1..=6 {
                            let d = done(req.clone(), &[&[p], &[n]]);
                            let (outcome, is_cosmic) =
                                icons_by_hand(ability, difficulty, bonus, penalty, p - n);
                            assert_eq!(d["outcome"], outcome, "{req} {p}-{n}");
                            assert_eq!(d["cosmic"], is_cosmic, "{req} {p}-{n}");
                            if is_cosmic {
                                assert_eq!(d["outcome"], "massive", "{req}: cosmic is massive");
                            }
                            cosmic += u64::from(is_cosmic);
                            massive += u64::from(outcome == "massive");
                        }
                    }
                    let o = odds(req.clone());
                    let e = &o["exact"]["outcomes"];
                    assert_eq!(e["massive"], r(massive, 36), "{req}");
                    if difficulty + penalty == 10 {
                        assert_eq!(e["cosmic"], r(cosmic, 36), "{req}");
                    } else {
                        assert!(
                            e.get("cosmic").is_none(),
                            "{req}: no cosmic odds off a cosmic test"
                        );
                        assert_eq!(cosmic, 0);
                    }
                }
            }
        }
    }
}

#[test]
fn icons_negative_penalties_are_refused_with_the_reason() {
    let bad: Request = serde_json::from_value(
        json!({"kind": "icons.test", "ability": 3, "difficulty": 2, "penalty": -1}),
    )
    .unwrap();
    let e = Prepared::new(&bad).unwrap_err();
    assert!(e.message().contains("penalty"), "{}", e.message());
    assert!(e.message().contains("enter it as 1"), "{}", e.message());
    // a –2 penalty entered as 2 raises the difficulty by 2
    let d = done(
        json!({"kind": "icons.test", "ability": 3, "difficulty": 2, "penalty": 2}),
        &[&[4], &[3]],
    );
    assert_eq!(d["effect"], 0);
}

// ---------------------------------------------------------------- issue 17: Men & Supermen

/// Every special 2d10 roll with its re-rolls, by total, in 1/10,000ths.
fn special_two_d10_counts() -> BTreeMap<i64, u64> {
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    let die = |v: i64| -> Vec<(i64, u64)> {
        if v == 1 {
            (1..=10).map(|r| (1 - r, 1)).collect()
        } else {
            vec![(v, 10)]
        }
    };
    for a in 1..=10 {
        for b in 1..=10 {
            for (x, wx) in die(a) {
                for (y, wy) in die(b) {
                    *counts.entry(x + y).or_default() += wx * wy;
                }
            }
        }
    }
    counts
}

#[test]
fn mns_saves_on_2d10_reroll_ones_for_special_characters() {
    // "if a 1 and a 9 is rolled, that is a 10. Re-roll the 1 and subtract that from 10": a save
    // on 2d10 vs. Agility 8 by a special character (the default, as for actions)
    let req = json!({"kind": "mns.save", "score": 8});
    let Resolution::More { dice } =
        request::resolve(&prepared(req.clone()), &[vec![1, 9]]).unwrap()
    else {
        panic!("a special character's 1 on a 2d10 save asks for a re-roll")
    };
    assert_eq!(
        serde_json::to_value(&dice).unwrap(),
        json!([{"faces": 10, "count": 1, "role": "reroll", "notation": "d10", "term": 0}])
    );
    let d = done(req.clone(), &[&[1, 9], &[4]]);
    assert_eq!(
        (
            d["total"].clone(),
            d["success"].clone(),
            d["quality"].clone()
        ),
        (json!(6), json!(true), json!(2))
    );
    assert_eq!(
        (d["dice"].clone(), d["rerolls"].clone()),
        (json!([1, 9]), json!([4]))
    );
    // both 1s: both re-rolled, their total subtracted from 2
    assert_eq!(done(req.clone(), &[&[1, 1], &[3, 5]])["total"], -6);
    // "Ones do not reduce the die roll for Knowledge Rolls": d100 never re-rolls
    let d = done(
        json!({"kind": "mns.save", "score": 30, "dice": "d100"}),
        &[&[1]],
    );
    assert_eq!(
        (d["total"].clone(), d["quality"].clone()),
        (json!(1), json!(29))
    );
    // odds: the special 2d10 enumerated with every re-roll
    let counts = special_two_d10_counts();
    for score in [2, 8, 12, 20] {
        let o = odds(json!({"kind": "mns.save", "score": score}));
        let success: u64 = counts
            .iter()
            .filter(|(t, _)| **t <= score)
            .map(|(_, c)| c)
            .sum();
        assert_eq!(
            o["exact"]["outcomes"]["success"],
            r(success, 10_000),
            "score {score}"
        );
    }
    // rolls go through the re-roll round and replay
    let p = prepared(json!({"kind": "mns.save", "score": 11}));
    let mut rerolled = false;
    for seed in 0..60 {
        let a = request::roll(&p, seed).unwrap();
        assert_eq!(request::roll(&p, seed).unwrap(), a);
        let ones = a.faces[0].iter().filter(|v| **v == 1).count();
        assert_eq!(a.faces.len(), 1 + usize::from(ones > 0), "{:?}", a.faces);
        rerolled |= ones > 0;
        let rerolls: i64 = a.faces.get(1).map_or(0, |f| f.iter().sum());
        assert_eq!(a.total, a.faces[0].iter().sum::<i64>() - rerolls);
    }
    assert!(rerolled, "60 seeds roll at least one 1");
}

#[test]
fn mns_saves_take_the_bonus_pool() {
    // "save on a 2d10 vs. Agility ... there might well be a bonus of 1, 2, 3, or 4 to the bonus
    // pool": Agility 12 with a bonus of 3 succeeds on 15
    let d = done(
        json!({"kind": "mns.save", "score": 12, "bonus": 3, "special": false}),
        &[&[7, 8]],
    );
    assert_eq!(
        (d["success"].clone(), d["quality"].clone()),
        (json!(true), json!(0))
    );
    let d = done(
        json!({"kind": "mns.save", "score": 62, "bonus": -6, "dice": "d100"}),
        &[&[57]],
    );
    assert_eq!(
        (d["success"].clone(), d["quality"].clone()),
        (json!(false), json!(-1))
    );
    // odds: plain 2d10 at or under 15 is 1 − P(16..20) = 1 − 15/100
    let o = odds(json!({"kind": "mns.save", "score": 12, "bonus": 3, "special": false}));
    assert_eq!(o["exact"]["outcomes"]["success"], r(85, 100));
    let o = odds(json!({"kind": "mns.save", "score": 62, "bonus": -6, "dice": "d100"}));
    assert_eq!(o["exact"]["outcomes"]["success"], r(56, 100));
    let counts = special_two_d10_counts();
    let o = odds(json!({"kind": "mns.save", "score": 5, "bonus": 2}));
    let success: u64 = counts
        .iter()
        .filter(|(t, _)| **t <= 7)
        .map(|(_, c)| c)
        .sum();
    assert_eq!(o["exact"]["outcomes"]["success"], r(success, 10_000));
}

#[test]
fn mns_the_two_d1000_procedures_disagree_whenever_tens_and_ones_are_zero() {
    // "roll d10 and multiply by 100; add d100; if greater than 1000, subtract 1000" against
    // "'Tens' mean '0' unless all three come up zero, which is 1,000"; a d10 face 10 is a "ten".
    let first = |h: i64, t: i64, o: i64| {
        let d100 = {
            let v = (t % 10) * 10 + o % 10;
            if v == 0 {
                100
            } else {
                v
            }
        };
        let v = h * 100 + d100;
        if v > 1000 {
            v - 1000
        } else {
            v
        }
    };
    let second = |h: i64, t: i64, o: i64| {
        let v = (h % 10) * 100 + (t % 10) * 10 + o % 10;
        if v == 0 {
            1000
        } else {
            v
        }
    };
    let mut disagree = Vec::new();
    for h in 1..=10 {
        for t in 1..=10 {
            for o in 1..=10 {
                let read = done(
                    json!({"kind": "mns.dice", "die": "d1000"}),
                    &[&[h], &[t], &[o]],
                );
                assert_eq!(
                    read["value"],
                    second(h, t, o),
                    "the core follows the second"
                );
                if first(h, t, o) != second(h, t, o) {
                    disagree.push((h, t, o));
                }
            }
        }
    }
    // exactly the ten rolls whose tens and ones both show 0, not only the all-zero roll
    assert_eq!(disagree, (1..=10).map(|h| (h, 10, 10)).collect::<Vec<_>>());
}

#[test]
fn mns_special_dice_outcomes_name_the_physical_dice() {
    for (die, faces, want) in [
        ("d2", vec![vec![5]], vec![6]),
        ("d3", vec![vec![2]], vec![6]),
        ("d5", vec![vec![7]], vec![10]),
        ("d32", vec![vec![3], vec![5]], vec![4, 8]),
        ("d%", vec![vec![2], vec![7]], vec![10, 10]),
        ("d1000", vec![vec![2], vec![7], vec![1]], vec![10, 10, 10]),
    ] {
        let faces: Vec<&[i64]> = faces.iter().map(|f| f.as_slice()).collect();
        let d = done(json!({"kind": "mns.dice", "die": die}), &faces);
        assert_eq!(d["dieFaces"], json!(want), "{die}");
    }
}

// ---------------------------------------------------------------- issue 17: 3d6 skill system

#[test]
fn narrator_bonus_damage_is_a_fraction_of_one_ranks_damage() {
    // a 3-rank attack form of base damage 24 (8 per rank): each success level adds 1/4 of 8 (2)
    // coarse or 1/8 of 8 (1) fine, capped at half the base (12)
    for (faces, levels, coarse, fine) in [
        ([3, 4, 4], 1, 24 + 2, 24 + 1),
        ([4, 4, 5], 3, 24 + 6, 24 + 3),
        ([6, 6, 4], 6, 24 + 12, 24 + 6),
        ([6, 6, 6], 8, 24 + 12, 24 + 8),
    ] {
        for (scale, want) in [("coarse", coarse), ("fine", fine)] {
            let d = skill(
                json!({"use": "attack", "baseDamage": 24, "ranks": 3, "scale": scale}),
                &[&faces],
            );
            assert_eq!(d["successLevels"], levels);
            // by hand: ⌊levels · (24 / 3) / step⌋, at most 12
            let step = if scale == "coarse" { 4 } else { 8 };
            assert_eq!(want, 24 + (levels * 8 / step).min(12));
            assert_eq!(d["damage"], want, "{scale} {faces:?}");
        }
    }
    // the old reading (a quarter of the whole base per level) would give 24 + 6 at one level
    let d = skill(
        json!({"use": "attack", "baseDamage": 24, "ranks": 3}),
        &[&[3, 4, 4]],
    );
    assert_ne!(d["damage"], 30);
    // winged and hit do not depend on ranks
    let d = skill(
        json!({"use": "attack", "baseDamage": 25, "ranks": 5}),
        &[&[3, 3, 3]],
    );
    assert_eq!(d["damage"], 12);
    // without ranks a base damage cannot give bonus damage: refused, naming the field
    let bad: Request = serde_json::from_value(json!({"kind": "narrator.skill", "skill": 10,
        "difficulty": 20, "use": "attack", "baseDamage": 12}))
    .unwrap();
    let e = Prepared::new(&bad).unwrap_err();
    assert!(e.message().contains("ranks"), "{}", e.message());
    let bad: Request = serde_json::from_value(json!({"kind": "narrator.skill", "skill": 10,
        "difficulty": 20, "use": "attack", "baseDamage": 12, "ranks": 0}))
    .unwrap();
    assert!(Prepared::new(&bad)
        .unwrap_err()
        .message()
        .contains("ranks must be from 1"));
}

#[test]
fn narrator_outcomes_carry_the_dice_rolled() {
    // a card draws the formula's dice: 2d10 shows two d10s, the deterministic roll none
    let d = skill(json!({"dice": "2d10"}), &[&[3, 9]]);
    let terms = d["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 1);
    assert!(
        terms[0]["notation"].as_str().unwrap().contains("d10"),
        "{}",
        terms[0]
    );
    let values: Vec<i64> = terms[0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [3, 9]);
    let d = skill(json!({"dice": "deterministic"}), &[]);
    assert_eq!(d["terms"], json!([]));
}

/// Seed (narrator-3d6-skill-use.txt, unopposed quantitative actions): "each 4 successes
/// (coarse-scale) or 8 successes (fine-scale) can allow the action to act as if one additional
/// rank of power were used, up to a maximum bonus of 1/2 the base ranks of power."
#[test]
fn narrator_extra_ranks_stop_at_half_the_base_ranks() {
    // 10 + 18 − 20 = 8 levels (2 ranks coarse), 3 base ranks: at most 1 (half of 3, rounded down)
    let d = skill(json!({"use": "quantitative", "ranks": 3}), &[&[6, 6, 6]]);
    assert_eq!(
        (d["successLevels"].clone(), d["extraRanks"].clone()),
        (json!(8), json!(1))
    );
    // 4 base ranks allow 2: the levels give 2
    let d = skill(json!({"use": "quantitative", "ranks": 4}), &[&[6, 6, 6]]);
    assert_eq!(d["extraRanks"], 2);
    // 1 base rank allows none
    let d = skill(json!({"use": "quantitative", "ranks": 1}), &[&[6, 6, 6]]);
    assert_eq!(d["extraRanks"], 0);
    // skill 30 against 20 with 18 rolled: 28 levels, 7 ranks coarse; 10 base ranks cap it at 5
    for (ranks, want) in [(10, 5), (20, 7), (11, 5)] {
        let d = skill(
            json!({"use": "quantitative", "skill": 30, "ranks": ranks}),
            &[&[6, 6, 6]],
        );
        assert_eq!(d["extraRanks"], want, "{ranks} base ranks");
    }
    // without base ranks there is nothing to cap against
    let d = skill(json!({"use": "quantitative", "skill": 30}), &[&[6, 6, 6]]);
    assert_eq!(d["extraRanks"], 7);
}
