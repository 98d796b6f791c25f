//! ICON rolls against the seed's rules and independent computations.

use icon_engine::dice::odds::num::{Num, Ratio};
use icon_engine::request::{self, Detail, Prepared, Request, Resolution};
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

fn plan(v: Value) -> Value {
    serde_json::to_value(request::plan(&prepared(v)).unwrap()).unwrap()
}

fn exact(v: &Value, label: &str) -> String {
    v["exact"]["outcomes"][label].as_str().unwrap().to_string()
}

fn odds(v: Value) -> Value {
    serde_json::to_value(request::odds(&prepared(v)).unwrap()).unwrap()
}

fn ratio(n: u64, d: u64) -> String {
    Ratio::ratio(n, d).unwrap().to_string()
}

#[test]
fn attack_plans_the_d20_then_the_net_boon_dice() {
    let p = plan(json!({"kind": "icon.attack", "boons": 3, "curses": 1}));
    assert_eq!(
        p,
        json!([
            {"faces": 20, "count": 1, "role": "d20", "notation": "d20", "term": 0},
            {"faces": 6, "count": 2, "role": "boon", "notation": "d6", "term": 1}
        ])
    );
    let p = plan(json!({"kind": "icon.attack", "boons": 1, "curses": 3}));
    assert_eq!(p[1]["role"], "curse");
    let p = plan(json!({"kind": "icon.attack", "boons": 2, "curses": 2}));
    assert_eq!(
        p.as_array().unwrap().len(),
        1,
        "boons and curses cancel one for one"
    );
}

#[test]
fn attack_outcomes_hit_crit_exceed() {
    // 14 + highest boon 5 + 1 = 20: a critical hit, which counts as a hit
    let (total, d) = done(
        json!({"kind": "icon.attack", "boons": 2, "bonus": 1, "defense": 22}),
        &[&[14], &[3, 5]],
    );
    assert_eq!(total, 20);
    assert_eq!(
        (d["d20"].clone(), d["boonDie"].clone()),
        (json!(14), json!(5))
    );
    assert_eq!(
        (d["crit"].clone(), d["hit"].clone(), d["exceed"].clone()),
        (json!(true), json!(true), json!(true))
    );
    // a foe cannot crit: 20 against defense 22 misses
    let (_, d) = done(
        json!({"kind": "icon.attack", "boons": 2, "bonus": 1, "defense": 22, "canCrit": false}),
        &[&[14], &[3, 5]],
    );
    assert_eq!(
        (d["crit"].clone(), d["hit"].clone()),
        (json!(false), json!(false))
    );
    // curses subtract the highest: 12 − 6 = 6; no defense → hit is null
    let (total, d) = done(
        json!({"kind": "icon.attack", "curses": 2}),
        &[&[12], &[6, 2]],
    );
    assert_eq!(total, 6);
    assert_eq!(
        (d["hit"].clone(), d["curseDie"].clone(), d["exceed"].clone()),
        (Value::Null, json!(6), json!(false))
    );
}

/// Exact P(total ≥ k) for d20 + (highest of n d6) + bonus, by direct enumeration of the faces.
fn p_at_least(n: u32, sign: i64, bonus: i64, k: i64) -> Ratio {
    let mut hits = 0u64;
    let mut all = 0u64;
    let sixes = 6u64.pow(n);
    for d20 in 1..=20i64 {
        for code in 0..sixes {
            let mut c = code;
            let mut best = 0;
            for _ in 0..n {
                best = best.max((c % 6) as i64 + 1);
                c /= 6;
            }
            let total = d20 + sign * best + bonus;
            all += 1;
            if total >= k {
                hits += 1;
            }
        }
    }
    Ratio::ratio(hits, all).unwrap()
}

#[test]
fn attack_odds_equal_independent_enumeration() {
    for (boons, curses, bonus, defense) in [
        (2u32, 0u32, 0i64, 10i64),
        (0, 1, 2, 12),
        (3, 0, -1, 18),
        (1, 3, 0, 8),
    ] {
        let o = odds(
            json!({"kind": "icon.attack", "boons": boons, "curses": curses, "bonus": bonus, "defense": defense}),
        );
        let (n, sign) = if boons >= curses {
            (boons - curses, 1)
        } else {
            (curses - boons, -1)
        };
        assert_eq!(
            exact(&o, "exceed"),
            p_at_least(n, sign, bonus, 15).to_string()
        );
        assert_eq!(
            exact(&o, "crit"),
            p_at_least(n, sign, bonus, 20).to_string()
        );
        // hit = total ≥ defense or crit
        let hit = p_at_least(n, sign, bonus, defense.min(20)).to_string();
        assert_eq!(exact(&o, "hit"), hit);
        let f: f64 = o["outcomes"]["exceed"].as_f64().unwrap();
        let e = p_at_least(n, sign, bonus, 15).to_f64();
        assert!((f - e).abs() < 1e-12);
    }
    // P(total ≥ 15) with 2 net boons, by hand: Σ over the highest of 2d6 (m has weight 2m−1)
    // of P(d20 ≥ 15 − m) = Σ_m (2m−1)/36 · (6 + m)/20
    let by_hand: u64 = (1..=6u64).map(|m| (2 * m - 1) * (6 + m)).sum();
    let o = odds(json!({"kind": "icon.attack", "boons": 2}));
    assert_eq!(exact(&o, "exceed"), ratio(by_hand, 720));
    assert!(
        o["outcomes"].get("hit").is_none(),
        "no defense, no hit odds"
    );
}

#[test]
fn saves_succeed_on_ten() {
    let (_, d) = done(json!({"kind": "icon.save"}), &[&[10]]);
    assert_eq!(d["success"], true);
    let (_, d) = done(json!({"kind": "icon.save", "curses": 1}), &[&[12], &[3]]);
    assert_eq!(d["success"], false);
    let o = odds(json!({"kind": "icon.save"}));
    assert_eq!(exact(&o, "success"), "11/20");
    let o = odds(json!({"kind": "icon.save", "boons": 1, "bonus": 1}));
    assert_eq!(exact(&o, "success"), p_at_least(1, 1, 1, 10).to_string());
}

#[test]
fn damage_hits_crits_bonus_dice_and_misses() {
    // A Stormbender (Wright: [D] = d8, fray 3) heavy attack (2[D]) crits (+[D]) with bonus damage
    // (one more die, keep the highest): 4d8 keep 3, plus fray.
    let req = json!({"kind": "icon.damage", "result": "crit", "die": 8, "dice": 2, "fray": 3, "bonusDice": 1});
    assert_eq!(
        plan(req.clone()),
        json!([{"faces": 8, "count": 4, "role": "damage", "notation": "d8", "term": 0}])
    );
    let (total, d) = done(req, &[&[8, 2, 5, 7]]);
    assert_eq!(total, 8 + 5 + 7 + 3);
    assert_eq!(
        (d["kept"].clone(), d["dropped"].clone()),
        (json!([8, 5, 7]), json!([2]))
    );
    // a light hit: [D] + fray + flat
    let (total, _) = done(
        json!({"kind": "icon.damage", "result": "hit", "die": 6, "fray": 4, "flat": 2}),
        &[&[3]],
    );
    assert_eq!(total, 9);
    // a miss deals fray only, rolling nothing
    let miss = json!({"kind": "icon.damage", "result": "miss", "die": 10, "fray": 2, "flat": 5});
    assert_eq!(plan(miss.clone()), json!([]));
    assert_eq!(done(miss, &[]).0, 2);
    // an ability without damage dice: a hit deals fray and flat only, a crit still adds [D]
    let none =
        json!({"kind": "icon.damage", "result": "hit", "die": 8, "dice": 0, "fray": 3, "flat": 1});
    assert_eq!(plan(none.clone()), json!([]));
    assert_eq!(done(none, &[]).0, 4);
    let (total, _) = done(
        json!({"kind": "icon.damage", "result": "crit", "die": 8, "dice": 0, "fray": 3}),
        &[&[5]],
    );
    assert_eq!(total, 8);
    // the mean of a d8 heavy hit: 2 × 4.5 + 3
    let o = odds(json!({"kind": "icon.damage", "result": "hit", "die": 8, "dice": 2, "fray": 3}));
    assert_eq!(o["exact"]["mean"], "12/1");
}

#[test]
fn bad_rule_requests_are_clear_errors() {
    for (v, words) in [
        (
            json!({"kind": "icon.damage", "result": "hit", "die": 7, "fray": 1}),
            "6, 8, 10 or 12",
        ),
        (
            json!({"kind": "icon.attack", "boons": 101}),
            "boons must be from 0 to 100",
        ),
        (
            json!({"kind": "icon.action", "rating": 7}),
            "rating must be from 0 to 4",
        ),
    ] {
        let req: Request = serde_json::from_value(v).unwrap();
        let e = Prepared::new(&req).unwrap_err();
        assert!(e.message().contains(words), "{}", e.message());
    }
    let typo: Result<Request, _> =
        serde_json::from_value(json!({"kind": "icon.attack", "boon": 1}));
    assert!(typo
        .unwrap_err()
        .to_string()
        .contains("unknown field `boon`"));
    let missing: Result<Request, _> =
        serde_json::from_value(json!({"kind": "icon.damage", "result": "hit", "fray": 1}));
    assert!(missing
        .unwrap_err()
        .to_string()
        .contains("missing field `die`"));
}

// ---------------------------------------------------------------- narrative play

#[test]
fn action_pool_clamps_boons_and_counts_burdens() {
    let pool = |v: Value| -> u64 {
        plan(v)
            .as_array()
            .unwrap()
            .first()
            .map_or(0, |e| e["count"].as_u64().unwrap())
    };
    assert_eq!(pool(json!({"kind": "icon.action", "rating": 3})), 3);
    // push, two aids and tempting fate are four boons, clamped to +2
    assert_eq!(
        pool(
            json!({"kind": "icon.action", "rating": 3, "push": true, "aid": 2, "temptFate": true})
        ),
        5
    );
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 3, "curses": 5})),
        1
    );
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 2, "burdenTicks": 1, "boons": 1})),
        2
    );
    // 0 dice: roll 2d6 and keep the lowest
    let p = plan(json!({"kind": "icon.action", "rating": 1, "curses": 2}));
    assert_eq!(
        p,
        json!([{"faces": 6, "count": 2, "role": "action", "notation": "d6", "term": 0}])
    );
    let (_, d) = done(json!({"kind": "icon.action", "rating": 0}), &[&[6, 6]]);
    assert_eq!(
        (d["pool"].clone(), d["result"].clone()),
        (json!(0), json!("success")),
        "no critical with 0 dice"
    );
}

#[test]
fn action_results_and_consequences() {
    let act = |risk: &str, effect: &str, faces: &[i64]| {
        done(
            json!({"kind": "icon.action", "rating": faces.len(), "risk": risk, "effect": effect, "push": false}),
            &[faces],
        )
        .1
    };
    let d = act("desperate", "normal", &[2, 3]);
    assert_eq!(
        (
            d["result"].clone(),
            d["strain"].clone(),
            d["segments"].clone()
        ),
        (json!("fail"), json!(4), json!(0))
    );
    let d = act("controlled", "powerful", &[4, 1]);
    assert_eq!(
        (
            d["result"].clone(),
            d["strain"].clone(),
            d["segments"].clone()
        ),
        (json!("partial"), json!(1), json!(3))
    );
    let d = act("risky", "weak", &[6, 2]);
    assert_eq!(
        (
            d["result"].clone(),
            d["strain"].clone(),
            d["segments"].clone()
        ),
        (json!("success"), json!(0), json!(1))
    );
    // a critical raises the effect one step: powerful → superpowered, 5 segments
    let d = act("risky", "powerful", &[6, 6, 1]);
    assert_eq!(
        (
            d["result"].clone(),
            d["effect"].clone(),
            d["segments"].clone()
        ),
        (json!("critical"), json!("superpowered"), json!(5))
    );
    let d = done(
        json!({"kind": "icon.action", "rating": 2, "push": true, "aid": 2}),
        &[&[1, 1, 1, 1]],
    )
    .1;
    // push + 2 aid is three boons; the pool moves by +2 at most, but each is paid
    assert_eq!(
        (
            d["pool"].clone(),
            d["effort"].clone(),
            d["effortHelpers"].clone()
        ),
        (json!(4), json!(3), json!(2))
    );
}

/// Exact P(fail), P(partial), P(success), P(critical) for a pool by enumerating all faces.
fn action_by_enumeration(pool: u32) -> [Ratio; 4] {
    let (n, lowest) = if pool == 0 { (2, true) } else { (pool, false) };
    let mut counts = [0u64; 4];
    let all = 6u64.pow(n);
    for code in 0..all {
        let mut c = code;
        let dice: Vec<u64> = (0..n)
            .map(|_| {
                let v = c % 6 + 1;
                c /= 6;
                v
            })
            .collect();
        let counted = if lowest {
            *dice.iter().min().unwrap()
        } else {
            *dice.iter().max().unwrap()
        };
        let sixes = dice.iter().filter(|v| **v == 6).count();
        let tier = if !lowest && sixes >= 2 {
            3
        } else if counted == 6 {
            2
        } else if counted >= 4 {
            1
        } else {
            0
        };
        counts[tier] += 1;
    }
    counts.map(|k| Ratio::ratio(k, all).unwrap())
}

#[test]
fn action_odds_for_every_pool_equal_enumeration() {
    for pool in 0..=6u32 {
        // rating 4 at most, so reach pools 5 and 6 with boons
        let (rating, boons) = if pool > 4 { (4, pool - 4) } else { (pool, 0) };
        let o = odds(json!({"kind": "icon.action", "rating": rating, "boons": boons}));
        let want = action_by_enumeration(pool);
        for (i, label) in ["fail", "partial", "success", "critical"]
            .iter()
            .enumerate()
        {
            assert_eq!(exact(&o, label), want[i].to_string(), "pool {pool} {label}");
        }
        let f: f64 = ["fail", "partial", "success", "critical"]
            .iter()
            .map(|l| o["outcomes"][l].as_f64().unwrap())
            .sum();
        assert!((f - 1.0).abs() < 1e-12);
    }
    // the worked values: 3 dice fail 1/8, critical 2/27
    let o = odds(json!({"kind": "icon.action", "rating": 3}));
    assert_eq!(
        (exact(&o, "fail"), exact(&o, "critical")),
        (ratio(1, 8), ratio(2, 27))
    );
}

/// The seed's table by hand, pool by pool (reduced fractions worked out on paper, not by code):
/// with n ≥ 1 dice P(fail) = (1/2)^n, P(partial) = (5/6)^n − (1/2)^n, P(one 6) = n·5^(n−1)/6^n,
/// P(critical) = the rest; with 0 dice the lowest of 2d6 counts and no critical is possible.
const POOL_TABLE: [(u32, [(u64, u64); 4]); 7] = [
    (0, [(3, 4), (2, 9), (1, 36), (0, 1)]),
    (1, [(1, 2), (1, 3), (1, 6), (0, 1)]),
    (2, [(1, 4), (4, 9), (5, 18), (1, 36)]),
    (3, [(1, 8), (49, 108), (25, 72), (2, 27)]),
    (4, [(1, 16), (34, 81), (125, 324), (19, 144)]),
    (5, [(1, 32), (1441, 3888), (3125, 7776), (763, 3888)]),
    (6, [(1, 64), (931, 2916), (3125, 7776), (12281, 46656)]),
];

#[test]
fn action_and_fortune_odds_match_the_worked_table_for_pools_0_to_6() {
    for (pool, want) in POOL_TABLE {
        // each pool reached two ways: by dots and boons, and as a fortune roll of that many dice
        let (rating, boons) = if pool > 4 { (4, pool - 4) } else { (pool, 0) };
        let action = odds(json!({"kind": "icon.action", "rating": rating, "boons": boons}));
        let fortune = odds(json!({"kind": "icon.fortune", "dice": pool}));
        let sum = want.iter().fold(Ratio::zero(), |acc, (n, d)| {
            acc.add(Ratio::ratio(*n, *d).unwrap()).unwrap()
        });
        assert_eq!(sum, Ratio::one(), "pool {pool}: the table itself sums to 1");
        for (i, (n, d)) in want.iter().enumerate() {
            let a = ["fail", "partial", "success", "critical"][i];
            let f = ["poor", "average", "good", "excellent"][i];
            assert_eq!(exact(&action, a), ratio(*n, *d), "pool {pool} {a}");
            assert_eq!(exact(&fortune, f), ratio(*n, *d), "pool {pool} {f}");
            let float = *n as f64 / *d as f64;
            assert!((action["outcomes"][a].as_f64().unwrap() - float).abs() < 1e-12);
        }
    }
}

#[test]
fn action_pool_clamp_in_both_directions_and_burden_limits() {
    let pool = |v: Value| done_pool(v);
    // boons and curses cancel before the clamp: 3 boons − 2 curses = +1
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 2, "boons": 3, "curses": 2})),
        3
    );
    // +5 net is +2, −5 net is −2
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 0, "boons": 5})),
        2
    );
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 4, "curses": 5})),
        2
    );
    // the clamp is on boons − curses, not on the burden ticks: 4 − 2 ticks − 2 curses = 0
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 4, "burdenTicks": 2, "curses": 3})),
        0
    );
    // the floor: rating 1, 2 ticks, 2 curses would be −3 dice; it is 0 (roll 2d6, keep the lowest)
    assert_eq!(
        pool(json!({"kind": "icon.action", "rating": 1, "burdenTicks": 2, "curses": 2})),
        0
    );
    // tempting fate alone is one boon, free of effort
    let (_, d) = done(
        json!({"kind": "icon.action", "rating": 1, "temptFate": true}),
        &[&[2, 3]],
    );
    assert_eq!(
        (d["pool"].clone(), d["effort"].clone()),
        (json!(2), json!(0))
    );
    // an action is ticked at most twice
    let req: Request =
        serde_json::from_value(json!({"kind": "icon.action", "rating": 3, "burdenTicks": 3}))
            .unwrap();
    let e = Prepared::new(&req).unwrap_err();
    assert!(
        e.message().contains("burdenTicks must be from 0 to 2"),
        "{}",
        e.message()
    );
}

#[test]
fn a_broken_character_spends_one_effort_to_act() {
    let (_, d) = done(
        json!({"kind": "icon.action", "rating": 2, "broken": true, "push": true, "aid": 1}),
        &[&[4, 4, 4, 1]],
    );
    // 1 to act while broken + 1 push (the actor's) + 1 aid (the helper's)
    assert_eq!(
        (
            d["effort"].clone(),
            d["effortHelpers"].clone(),
            d["result"].clone()
        ),
        (json!(3), json!(1), json!("partial"))
    );
    let (_, d) = done(json!({"kind": "icon.action", "rating": 2}), &[&[1, 1]]);
    assert_eq!(d["effort"], 0);
}

/// The number of dice an action request plans.
fn done_pool(v: Value) -> u64 {
    let p = prepared(v);
    match request::plan(&p).unwrap().first() {
        Some(d) if d.count == 2 && d.faces == 6 => {
            // 2d6 is either a pool of 2 or the 0-dice roll: ask the outcome
            let faces = vec![vec![1, 1]];
            match request::resolve(&p, &faces).unwrap() {
                Resolution::Done(done) => serde_json::to_value(&done).unwrap()["pool"]
                    .as_u64()
                    .unwrap(),
                Resolution::More { .. } => panic!("more"),
            }
        }
        Some(d) => u64::from(d.count),
        None => 0,
    }
}

#[test]
fn fortune_rolls_read_the_same_dice_differently() {
    let (_, d) = done(json!({"kind": "icon.fortune", "dice": 2}), &[&[6, 6]]);
    assert_eq!(d["result"], "excellent");
    let (_, d) = done(json!({"kind": "icon.fortune", "dice": 1}), &[&[5]]);
    assert_eq!(d["result"], "average");
    let o = odds(json!({"kind": "icon.fortune", "dice": 3}));
    let want = action_by_enumeration(3);
    for (i, label) in ["poor", "average", "good", "excellent"].iter().enumerate() {
        assert_eq!(exact(&o, label), want[i].to_string());
    }
}

#[test]
fn rule_outcomes_replay_from_a_seed() {
    let p = prepared(json!({"kind": "icon.attack", "boons": 1, "defense": 12}));
    let a = request::roll(&p, 99).unwrap();
    let b = request::roll(&p, 99).unwrap();
    assert_eq!(a, b);
    let Detail::IconAttack(o) = &a.detail else {
        panic!("attack detail")
    };
    assert_eq!(o.dice.d20.unwrap() + o.dice.boon_die.unwrap(), a.total);
    assert_eq!(o.hit, Some(a.total >= 12 || a.total >= 20));
}

// ---------------------------------------------------------------- health

fn apply(target: Value, amount: i64, source: &str, extra: Value) -> (Value, Vec<(String, i64)>) {
    let mut req =
        json!({"kind": "icon.applyDamage", "target": target, "amount": amount, "source": source});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    let (_, d) = done(req, &[]);
    let steps = d["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["rule"].as_str().unwrap().to_string(),
                s["amount"].as_i64().unwrap(),
            )
        })
        .collect();
    (d["target"].clone(), steps)
}

fn pc(hp: i64, vigor: i64, armor: i64, statuses: &[&str]) -> Value {
    json!({"hp": hp, "maxHp": 40, "vigor": vigor, "armor": armor, "wounds": 0, "isPlayerCharacter": true, "statuses": statuses})
}

fn rules(steps: &[(String, i64)]) -> Vec<(&str, i64)> {
    steps.iter().map(|(r, a)| (r.as_str(), *a)).collect()
}

#[test]
fn damage_mitigation_follows_the_seed_order() {
    // the worked case: 9 into armor 2, resistant, vigor 3: 9−2=7 → 4 → vigor 0, HP −1
    let (t, steps) = apply(pc(30, 3, 2, &["resistant"]), 9, "hit", json!({}));
    assert_eq!(
        rules(&steps),
        [
            ("amount", 9),
            ("armor", 7),
            ("resistant", 4),
            ("vigor", 1),
            ("hp", 1)
        ]
    );
    assert_eq!((t["hp"].clone(), t["vigor"].clone()), (json!(29), json!(0)));
    // vulnerable +1 before the weakened attacker's −2, both before armor
    let (_, steps) = apply(
        pc(30, 0, 1, &["vulnerable"]),
        5,
        "hit",
        json!({"attackerWeakened": true}),
    );
    assert_eq!(
        rules(&steps),
        [
            ("amount", 5),
            ("vulnerable", 6),
            ("weakened", 4),
            ("armor", 3),
            ("hp", 3)
        ]
    );
    // piercing ignores armor and weakness; cover halves rounding up
    let (_, steps) = apply(
        pc(30, 0, 3, &[]),
        7,
        "hit",
        json!({"pierce": true, "attackerWeakened": true, "cover": true}),
    );
    assert_eq!(rules(&steps), [("amount", 7), ("cover", 4), ("hp", 4)]);
    // divine ignores armor, resistance and vigor
    let (t, steps) = apply(
        pc(30, 5, 3, &["resistant"]),
        6,
        "hit",
        json!({"divine": true}),
    );
    assert_eq!(rules(&steps), [("amount", 6), ("hp", 6)]);
    assert_eq!(t["vigor"], 5);
    // shattered: vigor does not absorb
    let (t, _) = apply(pc(30, 5, 0, &["shattered"]), 4, "hit", json!({}));
    assert_eq!((t["hp"].clone(), t["vigor"].clone()), (json!(26), json!(5)));
}

#[test]
fn immunity_and_dodge() {
    let (t, steps) = apply(pc(30, 0, 0, &["immune"]), 9, "hit", json!({}));
    assert_eq!(
        (t["hp"].clone(), rules(&steps)[1]),
        (json!(30), ("immune", 0))
    );
    for source in ["miss", "save", "area"] {
        let (t, _) = apply(pc(30, 0, 0, &["dodge"]), 3, source, json!({}));
        assert_eq!(t["hp"], 30, "dodge vs {source}");
    }
    let (t, _) = apply(pc(30, 0, 0, &["dodge"]), 3, "hit", json!({}));
    assert_eq!(t["hp"], 27, "dodge does not stop hits");
}

#[test]
fn defiance_defeat_wounds_and_falling() {
    let (t, steps) = apply(pc(5, 0, 0, &["defiance", "dazed"]), 9, "hit", json!({}));
    assert_eq!(t["hp"], 1);
    assert!(rules(&steps).contains(&("defiance", 4)));
    let st = t["statuses"].as_array().unwrap();
    assert!(st.contains(&json!("immune")) && !st.contains(&json!("defiance")));
    // a defeated player character: statuses and vigor cleared, a wound, incapacitated
    let (t, steps) = apply(pc(5, 0, 0, &["dazed", "marked"]), 9, "hit", json!({}));
    assert_eq!(
        (t["hp"].clone(), t["wounds"].clone(), t["defeated"].clone()),
        (json!(0), json!(1), json!(true))
    );
    let st = t["statuses"].as_array().unwrap();
    assert!(st.contains(&json!("incapacitated")) && !st.contains(&json!("dazed")));
    assert!(rules(&steps).contains(&("wound", 1)));
    // ...and immune to further damage
    let (t2, _) = apply(t.clone(), 5, "hit", json!({}));
    assert_eq!(t2["wounds"], 1);
    // the fourth wound: fallen
    let mut three = pc(2, 0, 0, &[]);
    three["wounds"] = json!(3);
    let (t, _) = apply(three, 4, "hit", json!({}));
    assert_eq!(
        (t["fallen"].clone(), t["wounds"].clone()),
        (json!(true), json!(4))
    );
    // a foe takes no wound
    let foe = json!({"hp": 3, "maxHp": 20, "statuses": ["slashed"]});
    let (t, _) = apply(foe, 5, "hit", json!({}));
    assert_eq!(
        (t["wounds"].clone(), t["statuses"].clone()),
        (json!(0), json!(["defeated"]))
    );
    // bloodied is derived
    let (t, _) = apply(pc(30, 0, 0, &[]), 10, "hit", json!({}));
    assert_eq!(t["bloodied"], true);
}

fn heal(target: Value, healing: &str) -> Value {
    done(
        json!({"kind": "icon.heal", "target": target, "healing": healing}),
        &[],
    )
    .1
}

#[test]
fn healing_rules() {
    // cure: +4 vigor, or a vigor surge to the cap (25% of max) if bloodied; then saves
    let d = heal(pc(30, 0, 0, &["dazed", "weakened+"]), "cure");
    assert_eq!(
        (d["target"]["vigor"].clone(), d["saves"].clone()),
        (json!(4), json!(["dazed"]))
    );
    let d = heal(pc(15, 2, 0, &[]), "cure");
    assert_eq!(d["target"]["vigor"], 10);
    let d = heal(pc(30, 8, 0, &[]), "cure");
    assert_eq!(d["target"]["vigor"], 10, "vigor never passes the cap");
    // regeneration only when bloodied
    assert_eq!(
        heal(pc(30, 0, 0, &[]), "regeneration")["target"]["vigor"],
        0
    );
    assert_eq!(
        heal(pc(20, 0, 0, &[]), "regeneration")["target"]["vigor"],
        4
    );
    // rescue: back to full minus wounds
    let mut down = pc(0, 0, 0, &["incapacitated", "defeated"]);
    down["wounds"] = json!(1);
    let d = heal(down, "rescue");
    assert_eq!(
        (d["target"]["hp"].clone(), d["target"]["statuses"].clone()),
        (json!(30), json!([]))
    );
    // rest: to the next 25%, or to 50% from 25% or below; never above the wound limit
    for (hp, wounds, want) in [
        (5, 0, 20),
        (10, 0, 20),
        (15, 0, 20),
        (21, 0, 30),
        (30, 0, 40),
        (30, 1, 30),
        (35, 0, 40),
    ] {
        let mut t = pc(hp, 0, 0, &[]);
        t["wounds"] = json!(wounds);
        assert_eq!(
            heal(t, "rest")["target"]["hp"],
            want,
            "rest from {hp} with {wounds} wounds"
        );
    }
    // end of combat: every status ends (ongoing or not), HP up to the bloodied value
    let d = heal(pc(7, 0, 0, &["dazed+", "slashed"]), "endCombat");
    assert_eq!(
        (d["target"]["hp"].clone(), d["target"]["statuses"].clone()),
        (json!(20), json!(["bloodied"]))
    );
    // camp: all HP up to the wound limit
    let mut t = pc(3, 0, 0, &[]);
    t["wounds"] = json!(2);
    assert_eq!(heal(t, "camp")["target"]["hp"], 20);
}

#[test]
fn derived_values_for_the_sheets() {
    use icon_engine::rulesets::icon::health::{chapter, max_hp};
    let t: icon_engine::rulesets::icon::Target =
        serde_json::from_value(json!({"hp": 20, "maxHp": 40, "wounds": 1})).unwrap();
    let d = serde_json::to_value(t.derived().unwrap()).unwrap();
    assert_eq!(
        d,
        json!({"bloodied": true, "bloodiedValue": 20, "healableMax": 30, "vigorCap": 10, "fallen": false})
    );
    let t: icon_engine::rulesets::icon::Target =
        serde_json::from_value(json!({"hp": 41, "maxHp": 40})).unwrap();
    assert!(t
        .derived()
        .unwrap_err()
        .message()
        .contains("target.hp must be from 0 to 40"));
    assert_eq!(max_hp(10).unwrap(), 40);
    assert_eq!(
        [0, 1, 4, 5, 8, 9, 12].map(|l| chapter(l).unwrap()),
        [1, 1, 1, 2, 2, 3, 3]
    );
    assert!(chapter(13).is_err());
}

#[test]
fn targeting_height_cover_evasion_and_status_saves() {
    use icon_engine::rulesets::icon::situation::{after_ability, saveable, Situation};
    // the boons, curses and cover (targeting is tested in tests/icon_effects.rs)
    let m = |v: Value| {
        let mut m = serde_json::to_value(
            serde_json::from_value::<Situation>(v)
                .unwrap()
                .modifiers()
                .unwrap(),
        )
        .unwrap();
        let o = m.as_object_mut().unwrap();
        assert_eq!(
            (&o["maxRange"], &o["untargetable"]),
            (&Value::Null, &Value::Null)
        );
        o.remove("maxRange");
        o.remove("untargetable");
        m
    };
    // +1 curse to a ranged attack with a foe adjacent
    assert_eq!(
        m(json!({"ranged": true, "foeAdjacent": true})),
        json!({"boons": 0, "curses": 1, "cover": false})
    );
    // target lower: +1 boon per level, ignores cover; higher: +1 curse per level
    assert_eq!(
        m(json!({"ranged": true, "heightDifference": 2, "targetInCover": true})),
        json!({"boons": 2, "curses": 0, "cover": false})
    );
    assert_eq!(
        m(json!({"ranged": true, "heightDifference": -1, "targetInCover": true})),
        json!({"boons": 0, "curses": 1, "cover": true})
    );
    // a dazed attacker: +1 curse on every attack roll
    assert_eq!(
        m(json!({"attackerDazed": true, "heightDifference": 1})),
        json!({"boons": 1, "curses": 1, "cover": false})
    );
    // melee ignores cover
    assert_eq!(
        m(json!({"ranged": false, "targetInCover": true})),
        json!({"boons": 0, "curses": 0, "cover": false})
    );
    assert!(
        serde_json::from_value::<Situation>(json!({"heightDifference": 5}))
            .unwrap()
            .modifiers()
            .is_err()
    );
    // evasion: a d6 before the attack, 4+ misses
    assert_eq!(
        done(json!({"kind": "icon.evasion"}), &[&[4]]).1["evaded"],
        true
    );
    assert_eq!(
        done(json!({"kind": "icon.evasion"}), &[&[3]]).1["evaded"],
        false
    );
    assert_eq!(
        exact(&odds(json!({"kind": "icon.evasion"})), "evaded"),
        "1/2"
    );
    // saves at the end of the turn: not ongoing (+) statuses, not states or positive effects
    let st = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        saveable(&st(&["dazed", "weakened+", "bloodied", "dodge", "slashed"])),
        st(&["dazed", "slashed"])
    );
    // every positive effect of the seed's list is kept, as every state and mark is
    assert_eq!(
        saveable(&st(&[
            "rampart",
            "skirmisher",
            "resistant",
            "marked",
            "immobile",
            "sealed"
        ])),
        st(&["sealed"])
    );
    assert_eq!(
        after_ability(&st(&["stunned", "dazed"]), false),
        st(&["dazed"])
    );
}

#[test]
fn a_stormbender_heavy_crit_with_bonus_damage_from_roll_to_hp() {
    // Wright / Stormbender: [D] = d8, fray 3. A heavy attack with 1 boon: d20 17 + boon 3 = 20,
    // a critical hit against defense 8 (and an exceed).
    let (total, d) = done(
        json!({"kind": "icon.attack", "boons": 1, "defense": 8}),
        &[&[17], &[3]],
    );
    assert_eq!(total, 20);
    assert_eq!(
        (d["hit"].clone(), d["crit"].clone(), d["exceed"].clone()),
        (json!(true), json!(true), json!(true))
    );
    // Heavy (2[D]) + crit (+[D]) + bonus damage (one more die, keep the highest three): 4d8kh3 + 3.
    let (dmg, d) = done(
        json!({"kind": "icon.damage", "result": "crit", "die": 8, "dice": 2, "fray": 3, "bonusDice": 1}),
        &[&[1, 6, 6, 4]],
    );
    assert_eq!(dmg, 6 + 6 + 4 + 3);
    assert_eq!(d["dropped"], json!([1]));
    // into a heavy foe (armor 1, 40 HP, no vigor): 19 − 1 = 18 off HP
    let foe = json!({"hp": 40, "maxHp": 40, "armor": 1, "statuses": []});
    let (t, steps) = apply(foe, dmg, "hit", json!({}));
    assert_eq!(rules(&steps), [("amount", 19), ("armor", 18), ("hp", 18)]);
    assert_eq!(
        (t["hp"].clone(), t["bloodied"].clone()),
        (json!(22), json!(false))
    );
}

#[test]
fn crit_odds_with_two_boons_by_hand() {
    // P(d20 + highest of 2d6 ≥ 20) = Σ_m (2m−1)/36 · (m+1)/20
    let by_hand: u64 = (1..=6u64).map(|m| (2 * m - 1) * (m + 1)).sum();
    let o = odds(json!({"kind": "icon.attack", "boons": 3, "curses": 1, "defense": 25}));
    assert_eq!(exact(&o, "crit"), ratio(by_hand, 720));
    // defense above 20: only a crit hits
    assert_eq!(exact(&o, "hit"), ratio(by_hand, 720));
    // a foe that cannot crit needs the total: 26 at most with 2 boons, so defense 27 is never hit,
    // and defense 25 takes (six on the boon die and d20 ≥ 19) or (five and d20 = 20)
    let o = odds(json!({"kind": "icon.attack", "boons": 2, "defense": 27, "canCrit": false}));
    assert_eq!(
        (exact(&o, "hit"), exact(&o, "crit")),
        (ratio(0, 1), ratio(0, 1))
    );
    let o = odds(json!({"kind": "icon.attack", "boons": 2, "defense": 25, "canCrit": false}));
    assert_eq!(exact(&o, "hit"), ratio(11 * 2 + 9, 720));
}

#[test]
fn mitigation_edge_cases() {
    // dodge comes before vulnerable: a dodged miss stays 0
    let (t, steps) = apply(pc(30, 0, 0, &["dodge", "vulnerable"]), 3, "miss", json!({}));
    assert_eq!(
        (t["hp"].clone(), rules(&steps)),
        (json!(30), vec![("amount", 3), ("dodge", 0)])
    );
    // weakened and armor floor at 0 (never heal)
    let (t, steps) = apply(
        pc(30, 0, 2, &[]),
        1,
        "hit",
        json!({"attackerWeakened": true}),
    );
    assert_eq!(
        (t["hp"].clone(), rules(&steps)),
        (json!(30), vec![("amount", 1), ("weakened", 0)])
    );
    // divine is still stopped by immunity
    let (t, _) = apply(pc(30, 0, 0, &["immune"]), 9, "hit", json!({"divine": true}));
    assert_eq!(t["hp"], 30);
    // divine ignores defiance: the character is defeated
    let (t, _) = apply(
        pc(5, 0, 0, &["defiance"]),
        9,
        "hit",
        json!({"divine": true}),
    );
    assert_eq!(
        (t["hp"].clone(), t["defeated"].clone()),
        (json!(0), json!(true))
    );
    // divine is still raised by vulnerable
    let (t, steps) = apply(
        pc(30, 4, 3, &["vulnerable"]),
        5,
        "hit",
        json!({"divine": true}),
    );
    assert_eq!(
        (t["hp"].clone(), rules(&steps)),
        (json!(24), vec![("amount", 5), ("vulnerable", 6), ("hp", 6)])
    );
    // defiance holds once: the immunity it leaves stops the next hit in the same turn
    let (t, _) = apply(pc(3, 0, 0, &["defiance"]), 9, "hit", json!({}));
    let (t2, steps) = apply(t, 9, "hit", json!({}));
    assert_eq!(
        (t2["hp"].clone(), rules(&steps)[1]),
        (json!(1), ("immune", 0))
    );
    // vigor absorbs only what gets through armor and resistance; the rest goes to HP
    let (t, steps) = apply(pc(30, 10, 1, &["resistant"]), 9, "area", json!({}));
    assert_eq!(
        rules(&steps),
        [("amount", 9), ("armor", 8), ("resistant", 4), ("vigor", 0)]
    );
    assert_eq!((t["hp"].clone(), t["vigor"].clone()), (json!(30), json!(6)));
    // damage to an already-defeated foe adds nothing
    let foe = json!({"hp": 0, "maxHp": 20, "statuses": ["defeated"]});
    let (t, steps) = apply(foe, 5, "hit", json!({}));
    assert_eq!(
        (t["hp"].clone(), steps.iter().any(|s| s.0 == "defeated")),
        (json!(0), false)
    );
}

#[test]
fn shattered_blocks_vigor_and_combat_end_clears_it() {
    // a shattered character gains no vigor from a cure, but still saves against its statuses
    let d = heal(pc(15, 0, 0, &["shattered", "dazed+"]), "cure");
    assert_eq!(
        (d["target"]["vigor"].clone(), d["saves"].clone()),
        (json!(0), json!(["shattered"]))
    );
    assert_eq!(
        heal(pc(15, 0, 0, &["shattered"]), "regeneration")["target"]["vigor"],
        0
    );
    // end of combat: vigor is lost, statuses end, HP rises to the bloodied value
    let d = heal(pc(12, 6, 0, &["weakened+", "dazed"]), "endCombat");
    assert_eq!(
        (
            d["target"]["hp"].clone(),
            d["target"]["vigor"].clone(),
            d["target"]["statuses"].clone()
        ),
        (json!(20), json!(0), json!(["bloodied"]))
    );
    assert_eq!(d["total"], json!(2), "8 HP gained, 6 vigor lost");
    // ...but a defeated player character stays down until rescued
    let mut down = pc(0, 0, 0, &["incapacitated", "defeated"]);
    down["wounds"] = json!(1);
    let d = heal(down, "endCombat");
    assert_eq!(d["target"]["hp"], 0);
    assert!(d["target"]["statuses"]
        .as_array()
        .unwrap()
        .contains(&json!("incapacitated")));
    // a cure cannot raise a defeated character; rescue can
    let req: Request = serde_json::from_value(json!({"kind": "icon.heal", "healing": "cure",
        "target": {"hp": 0, "maxHp": 40, "isPlayerCharacter": true, "statuses": ["incapacitated"]}}))
    .unwrap();
    let e = Prepared::new(&req).unwrap_err();
    assert!(e.message().contains("rescue them first"), "{}", e.message());
}

// ---------------------------------------------------------------- issue 17: the ICON audit

/// The steps as (rule, change, running amount).
fn changes(
    target: Value,
    amount: i64,
    source: &str,
    extra: Value,
) -> (i64, Value, Vec<(String, i64, i64)>) {
    let mut req =
        json!({"kind": "icon.applyDamage", "target": target, "amount": amount, "source": source});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    let (total, d) = done(req, &[]);
    let steps = d["steps"]
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
        .collect();
    (total, d, steps)
}

fn triples(steps: &[(String, i64, i64)]) -> Vec<(&str, i64, i64)> {
    steps.iter().map(|(r, c, a)| (r.as_str(), *c, *a)).collect()
}

fn statuses(v: &Value) -> Vec<String> {
    v["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_step_says_what_its_rule_did_apart_from_the_running_total() {
    // 9 into armor 2, resistant, vigor 3: +9; armor −2 (7); resistant −3 (4); vigor −3 (1); HP −1
    let (total, _, steps) = changes(pc(30, 3, 2, &["resistant"]), 9, "hit", json!({}));
    assert_eq!(
        triples(&steps),
        [
            ("amount", 9, 9),
            ("armor", -2, 7),
            ("resistant", -3, 4),
            ("vigor", -3, 1),
            ("hp", -1, 1)
        ]
    );
    assert_eq!(total, 4, "3 vigor and 1 HP taken");
    // the Stormbender's 19 into a heavy foe: "Armor −1", 18 to go, 18 HP lost
    let foe = json!({"hp": 40, "maxHp": 40, "armor": 1, "statuses": []});
    let (_, _, steps) = changes(foe, 19, "hit", json!({}));
    assert_eq!(
        triples(&steps),
        [("amount", 19, 19), ("armor", -1, 18), ("hp", -18, 18)]
    );
}

#[test]
fn defiance_reports_the_damage_actually_taken() {
    // the audit's case: 10 into 2 HP and 3 vigor with Defiance: 3 vigor and 1 HP lost, total 4
    let (total, d, steps) = changes(pc(2, 3, 0, &["defiance"]), 10, "hit", json!({}));
    assert_eq!(total, 4);
    assert_eq!(
        triples(&steps),
        [
            ("amount", 10, 10),
            ("vigor", -3, 7),
            ("defiance", -6, 1),
            ("hp", -1, 1)
        ]
    );
    assert_eq!(
        (d["target"]["hp"].clone(), d["target"]["vigor"].clone()),
        (json!(1), json!(0))
    );
    // overkill: 9 into 5 HP takes 5
    let foe = json!({"hp": 5, "maxHp": 20, "statuses": []});
    let (total, _, steps) = changes(foe, 9, "hit", json!({}));
    assert_eq!((total, steps.last().unwrap().0.as_str()), (5, "defeated"));
}

#[test]
fn the_end_of_combat_cures_every_status_mark_and_blight() {
    // "All ongoing effects (status, mark, blights) are cured": dazed, stunned, hatred, pacified and
    // marks do not follow a character into the next fight; positive effects and traits stay
    let d = heal(
        pc(
            30,
            0,
            0,
            &[
                "dazed",
                "stunned",
                "hatred",
                "pacified",
                "marked",
                "slashed",
                "vulnerable",
                "weakened+",
                "dodge",
                "counter",
                "regeneration",
                "immune",
            ],
        ),
        "endCombat",
    );
    assert_eq!(statuses(&d["target"]), ["dodge", "counter", "regeneration"]);
    // an ongoing positive effect (a stance's) ends too
    let d = heal(pc(30, 0, 0, &["dodge+", "evasion"]), "endCombat");
    assert_eq!(statuses(&d["target"]), ["evasion"]);
    // a defeated character stays down until rescued
    let mut down = pc(0, 0, 0, &["incapacitated", "defeated"]);
    down["wounds"] = json!(1);
    let d = heal(down, "endCombat");
    assert_eq!(statuses(&d["target"]), ["incapacitated", "defeated"]);
}

#[test]
fn personal_resolve_resets_at_camp() {
    // "+1 Personal Resolve after every combat and resets to 0 after camp"
    let mut t = pc(20, 0, 0, &[]);
    t["resolve"] = json!(3);
    let d = heal(t.clone(), "camp");
    assert_eq!(d["target"]["resolve"], 0);
    assert!(d["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["rule"] == "resolveReset" && s["change"] == -3));
    // resting between combats keeps it; a target without it says null
    assert_eq!(heal(t, "rest")["target"]["resolve"], 3);
    assert_eq!(
        heal(pc(20, 0, 0, &[]), "camp")["target"]["resolve"],
        Value::Null
    );
}

#[test]
fn intangible_targets_take_nothing_from_foes() {
    // "Intangible characters can be targeted, but are Immune to damage and effects from foes"
    let (total, d, steps) = changes(
        pc(30, 0, 0, &["intangible", "pacified"]),
        9,
        "hit",
        json!({}),
    );
    assert_eq!((total, d["target"]["hp"].clone()), (0, json!(30)));
    assert_eq!(triples(&steps)[1], ("intangible", -9, 0));
    assert!(
        statuses(&d["target"]).contains(&"pacified".to_string()),
        "no effect either"
    );
    // damage that is not a foe's (an ally's area, terrain) still lands
    let (total, _, _) = changes(
        pc(30, 0, 0, &["intangible"]),
        9,
        "area",
        json!({"fromFoe": false}),
    );
    assert_eq!(total, 9);
}

#[test]
fn pacified_and_hatred_halve_the_damage_dealt() {
    // "Pacified: Character deals half damage"; "Hatred of X: Deal half damage to all foes other
    // than foe X" -- halved once, rounded up as resistance rounds, after a weakened attacker's −2
    let (total, _, steps) = changes(
        pc(30, 0, 0, &[]),
        9,
        "hit",
        json!({"attackerPacified": true}),
    );
    assert_eq!((total, triples(&steps)[1]), (5, ("pacified", -4, 5)));
    let (total, _, steps) = changes(
        pc(30, 0, 1, &[]),
        9,
        "hit",
        json!({"attackerHatred": true, "attackerWeakened": true}),
    );
    assert_eq!(
        triples(&steps),
        [
            ("amount", 9, 9),
            ("weakened", -2, 7),
            ("hatred", -3, 4),
            ("armor", -1, 3),
            ("hp", -3, 3)
        ]
    );
    assert_eq!(total, 3);
    // both: still half once
    let (total, _, _) = changes(
        pc(30, 0, 0, &[]),
        8,
        "hit",
        json!({"attackerPacified": true, "attackerHatred": true}),
    );
    assert_eq!(total, 4);
    // divine damage "cannot be reduced ... in any way"
    let (total, _, _) = changes(
        pc(30, 0, 0, &[]),
        8,
        "hit",
        json!({"attackerPacified": true, "divine": true}),
    );
    assert_eq!(total, 8);
    // "Pacified ... Breaks when damaged by a foe's ability"; not by Slashed, nor when no damage
    let (_, d, _) = changes(pc(30, 0, 0, &["pacified"]), 3, "hit", json!({}));
    assert!(!statuses(&d["target"]).contains(&"pacified".to_string()));
    let (_, d, _) = changes(pc(30, 0, 5, &["pacified"]), 3, "hit", json!({}));
    assert!(
        statuses(&d["target"]).contains(&"pacified".to_string()),
        "armor took it all"
    );
    let (_, d, _) = changes(
        pc(30, 0, 0, &["pacified", "slashed"]),
        4,
        "slashed",
        json!({"ability": false, "fromFoe": false}),
    );
    assert!(statuses(&d["target"]).contains(&"pacified".to_string()));
    let (_, d, _) = changes(pc(30, 0, 0, &["pacified+"]), 3, "hit", json!({}));
    assert!(
        statuses(&d["target"]).contains(&"pacified+".to_string()),
        "ongoing waits for its cause"
    );
}

#[test]
fn counter_vigilance_and_slashed_reach_the_damage() {
    // "Counter: When damaged by an ability, deal 2 damage back, each time damage is applied."
    let (_, d, _) = changes(pc(30, 0, 0, &["counter"]), 3, "hit", json!({}));
    assert_eq!(d["counter"], 2);
    let (_, d, _) = changes(pc(30, 0, 5, &["counter"]), 3, "hit", json!({}));
    assert_eq!(d["counter"], 0, "not damaged");
    let (_, d, _) = changes(pc(30, 0, 0, &[]), 3, "hit", json!({}));
    assert_eq!(d["counter"], 0);
    // Vigilance: "reduce the damage by the amount rolled as if with armor" -- armor counts the
    // highest value, so armor 1 with a vigilance roll of 4 reduces by 4
    let (total, _, steps) = changes(pc(30, 0, 1, &[]), 9, "hit", json!({"vigilance": 4}));
    assert_eq!((total, triples(&steps)[1]), (5, ("vigilance", -4, 5)));
    let (total, _, steps) = changes(pc(30, 0, 3, &[]), 9, "hit", json!({"vigilance": 2}));
    assert_eq!((total, triples(&steps)[1]), (6, ("armor", -3, 6)));
    let (total, _, _) = changes(
        pc(30, 0, 0, &[]),
        9,
        "hit",
        json!({"vigilance": 4, "pierce": true}),
    );
    assert_eq!(total, 9, "as if with armor: piercing ignores it");
    // Slashed: "Take 4 damage after you or an ally uses an ability that moves you"
    let (total, d, _) = changes(
        pc(30, 0, 1, &["slashed", "counter"]),
        4,
        "slashed",
        json!({"ability": false, "fromFoe": false}),
    );
    assert_eq!((total, d["counter"].clone()), (3, json!(0)));
    let refused = |target: Value, amount: i64, source: &str, extra: Value, words: &str| {
        let mut req = json!({"kind": "icon.applyDamage", "target": target, "amount": amount, "source": source});
        for (k, v) in extra.as_object().unwrap() {
            req[k] = v.clone();
        }
        let req: Request = serde_json::from_value(req).unwrap();
        let e = Prepared::new(&req).unwrap_err();
        assert!(e.message().contains(words), "{}", e.message());
    };
    refused(
        pc(30, 0, 0, &[]),
        4,
        "slashed",
        json!({"ability": false}),
        "slashed status",
    );
    refused(
        pc(30, 0, 0, &["slashed"]),
        5,
        "slashed",
        json!({"ability": false}),
        "slashed deals 4",
    );
    refused(
        pc(30, 0, 0, &["slashed"]),
        4,
        "slashed",
        json!({}),
        "ability false",
    );
    refused(
        pc(30, 0, 0, &[]),
        4,
        "hit",
        json!({"vigilance": 3, "fromFoe": false}),
        "foe's ability",
    );
    refused(
        pc(30, 0, 0, &[]),
        4,
        "hit",
        json!({"vigilance": 7}),
        "vigilance must be from 0 to 6",
    );
}

#[test]
fn adjacent_targets_ignore_cover_even_from_ranged_attacks() {
    use icon_engine::rulesets::icon::situation::Situation;
    let cover = |v: Value| {
        serde_json::from_value::<Situation>(v)
            .unwrap()
            .modifiers()
            .unwrap()
            .cover
    };
    // "Attacks vs adjacent foes ignore cover"
    assert!(!cover(
        json!({"ranged": true, "targetAdjacent": true, "targetInCover": true})
    ));
    assert!(cover(json!({"ranged": true, "targetInCover": true})));
}

#[test]
fn fortune_rolls_take_an_actions_rating() {
    // "This is the same as a regular action roll, except the table of outcomes is different"
    let pool = |v: Value| done_pool(v);
    assert_eq!(pool(json!({"kind": "icon.fortune", "rating": 3})), 3);
    assert_eq!(
        pool(json!({"kind": "icon.fortune", "rating": 3, "boons": 4})),
        5,
        "+2 at most"
    );
    assert_eq!(
        pool(json!({"kind": "icon.fortune", "rating": 2, "curses": 1, "burdenTicks": 1})),
        0
    );
    assert_eq!(
        plan(json!({"kind": "icon.fortune", "rating": 1, "curses": 1}))[0]["count"],
        2,
        "0 dice: roll 2d6 and pick the lowest"
    );
    // the odds are the action roll's of the same pool
    for (rating, boons, curses) in [(0, 0, 0), (2, 1, 0), (4, 3, 0), (3, 0, 1)] {
        let f = odds(
            json!({"kind": "icon.fortune", "rating": rating, "boons": boons, "curses": curses}),
        );
        let a = odds(
            json!({"kind": "icon.action", "rating": rating, "boons": boons, "curses": curses}),
        );
        for (fl, al) in [
            ("poor", "fail"),
            ("average", "partial"),
            ("good", "success"),
            ("excellent", "critical"),
        ] {
            assert_eq!(
                exact(&f, fl),
                exact(&a, al),
                "{rating} {boons} {curses} {fl}"
            );
        }
    }
    // a raw pool still works; both or neither are refused
    assert_eq!(pool(json!({"kind": "icon.fortune", "dice": 6})), 6);
    for bad in [
        json!({"kind": "icon.fortune", "dice": 2, "rating": 2}),
        json!({"kind": "icon.fortune"}),
        json!({"kind": "icon.fortune", "dice": 2, "boons": 1}),
        json!({"kind": "icon.fortune", "rating": 5}),
    ] {
        let req: Request = serde_json::from_value(bad.clone()).unwrap();
        assert!(Prepared::new(&req).is_err(), "{bad}");
    }
}

#[test]
fn a_successful_save_against_a_save_for_half_attack_halves_and_dodge_stops_it() {
    let (total, _, steps) = changes(pc(30, 0, 1, &[]), 9, "save", json!({"savedHalf": true}));
    assert_eq!(
        triples(&steps),
        [
            ("amount", 9, 9),
            ("savedHalf", -4, 5),
            ("armor", -1, 4),
            ("hp", -4, 4)
        ]
    );
    assert_eq!(total, 4);
    // "Dodge makes you immune to all damage from misses, successful saves, and area effects"
    let (total, _, _) = changes(
        pc(30, 0, 0, &["dodge"]),
        9,
        "save",
        json!({"savedHalf": true}),
    );
    assert_eq!(total, 0);
    let req: Request = serde_json::from_value(
        json!({"kind": "icon.applyDamage", "target": pc(30, 0, 0, &[]),
        "amount": 9, "source": "hit", "savedHalf": true}),
    )
    .unwrap();
    assert!(Prepared::new(&req)
        .unwrap_err()
        .message()
        .contains("source"));
}

// ---------------------------------------------------------------- issue 27: effort and defeat

/// Seed (Narrative Play, Effort): "When you push yourself during your action roll, you spend 1
/// effort to gain +1 boon on your roll." and "When you aid an ally during their action roll, you
/// spend 1 effort to grant them +1 boon on their roll." Every push and aid asked for is paid, the
/// ±2 cap ("by up to +2 or -2 total") or not.
#[test]
fn every_push_and_aid_asked_for_is_paid() {
    // three curses: the push only cancels one (the pool stays at the −2 floor), and still costs 1
    let d = done(
        json!({"kind": "icon.action", "rating": 3, "curses": 3, "push": true}),
        &[&[4]],
    )
    .1;
    assert_eq!(
        (d["pool"].clone(), d["effort"].clone()),
        (json!(1), json!(1))
    );
    // two boons already: the push adds no die past +2, and is paid
    let d = done(
        json!({"kind": "icon.action", "rating": 2, "boons": 2, "push": true, "aid": 2}),
        &[&[1, 1, 1, 1]],
    )
    .1;
    assert_eq!(
        (
            d["pool"].clone(),
            d["effort"].clone(),
            d["effortHelpers"].clone()
        ),
        (json!(4), json!(3), json!(2))
    );
    // every combination: effort = push + aid (+1 to act while broken), helpers pay the aid
    for rating in 0..=3i64 {
        for curses in 0..=4 {
            for boons in 0..=3 {
                for push in [false, true] {
                    for aid in 0..=2i64 {
                        for broken in [false, true] {
                            let req = json!({"kind": "icon.action", "rating": rating, "boons": boons,
                                "curses": curses, "push": push, "aid": aid, "broken": broken});
                            let pool = done_pool(req.clone()) as usize;
                            let faces = vec![2; if pool == 0 { 2 } else { pool }];
                            let d = done(req.clone(), &[&faces]).1;
                            let want = i64::from(push) + aid + i64::from(broken);
                            assert_eq!(
                                (d["effort"].clone(), d["effortHelpers"].clone()),
                                (json!(want), json!(aid)),
                                "{req}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Seed (Health/Healing): "Defeated player characters are incapacitated (can't do anything) ...
/// and remain that way until someone uses the rescue action to bring them back to their feet."
/// Neither resting between combats nor camping stands them up; the rescue does.
#[test]
fn rest_and_camp_leave_a_defeated_character_down_until_rescued() {
    for healing in ["rest", "camp"] {
        let mut down = pc(0, 0, 0, &["incapacitated", "defeated"]);
        down["wounds"] = json!(1);
        down["resolve"] = json!(2);
        let d = heal(down.clone(), healing);
        let t = &d["target"];
        assert_eq!(
            (
                t["hp"].clone(),
                t["defeated"].clone(),
                statuses(t).contains(&"incapacitated".to_string())
            ),
            (json!(0), json!(true), true),
            "{healing}"
        );
        assert!(d["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["rule"] == "defeated"));
        // camp still resets personal resolve ("resets to 0 after camp")
        let resolve = if healing == "camp" { 0 } else { 2 };
        assert_eq!(t["resolve"], resolve, "{healing}");
        // the rescue stands them up: full HP less the wound
        let r = heal(t.clone(), "rescue");
        assert_eq!(
            (r["target"]["hp"].clone(), r["target"]["defeated"].clone()),
            (json!(30), json!(false))
        );
    }
}
