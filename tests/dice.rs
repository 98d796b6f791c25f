//! Dice core: parsing, Foundry modifier semantics, exact odds against independent computations,
//! and rolls against odds.

mod support;

use icon_engine::dice::odds::num::{Num, Ratio};
use icon_engine::dice::odds::{distribution, Distribution};
use icon_engine::dice::parse;
use icon_engine::dice::resolve::{plan, resolve, DiceNeed, Step};
use icon_engine::request::{self, Prepared, Request, Resolution};
use icon_engine::ErrorKind;
use std::collections::BTreeMap;
use support::enumerate;

fn r(n: u128, d: u128) -> Ratio {
    Ratio::ratio(n as u64, d as u64).unwrap()
}

fn exact(f: &str) -> Distribution {
    distribution(&parse(f).unwrap()).unwrap()
}

fn p_exact(d: &Distribution, v: i64) -> Ratio {
    d.exact
        .as_ref()
        .expect("exact odds")
        .iter()
        .find(|(t, _)| *t == v)
        .map(|(_, p)| *p)
        .unwrap_or(Ratio::zero())
}

fn total(f: &str, faces: &[&[i64]]) -> i64 {
    let faces: Vec<Vec<i64>> = faces.iter().map(|v| v.to_vec()).collect();
    match resolve(&parse(f).unwrap(), &faces).unwrap() {
        Step::Done(e) => e.total,
        Step::More(m) => panic!("{f}: wanted more dice {m:?}"),
    }
}

// ---------------------------------------------------------------- parsing

#[test]
fn parses_foundry_notation_and_normalises_it() {
    for (src, norm) in [
        ("3d6", "3d6"),
        ("d20", "1d20"),
        ("4d6kh3 + 2", "4d6kh3 + 2"),
        ("2d20kl", "2d20kl1"),
        ("4d6k3", "4d6kh3"),
        ("4d6d1", "4d6dl1"),
        ("d%", "1d%"),
        ("4dF", "4dF"),
        ("2d6[fire]+1d4[cold]", "2d6[fire] + 1d4[cold]"),
        ("(2d4)d6", "(2d4)d6"),
        ("-(1d4+2)*3", "-(1d4 + 2) * 3"),
        ("10d10cs>=7df=1", "10d10cs>=7df=1"),
        ("3d6x", "3d6x=6"),
        ("3d6xo5", "3d6xo=5"),
        ("4d6r<3", "4d6r<3"),
        ("4d6rr", "4d6rr=1"),
        ("6d6min2max5", "6d6min2max5"),
        ("1D6", "1d6"),
        (
            "d2+d3+d5+d32+d100+d1000",
            "1d2 + 1d3 + 1d5 + 1d32 + 1d100 + 1d1000",
        ),
        ("5[bonus]", "5[bonus]"),
        ("7 / 2", "7 / 2"),
        ("2 - (3 - 1)", "2 - (3 - 1)"),
    ] {
        assert_eq!(parse(src).unwrap().to_string(), norm, "{src}");
        // the normal form parses to the same formula
        assert_eq!(parse(norm).unwrap(), parse(src).unwrap(), "{src}");
    }
}

#[test]
fn parse_errors_name_position_and_expectation() {
    for (src, pos, words) in [
        ("2d6+", 5, "expected a number, a die"),
        ("d", 2, "expected the number of faces"),
        ("3d0", 3, "at least 1 face"),
        ("1e9d6", 2, "expected an operator"),
        ("1001d6", 1, "more than the 1000 allowed"),
        ("d1000001", 2, "more than the 1000000 faces"),
        ("(1d6", 5, "')' to close the '(' at position 1"),
        (
            "2d6[fire",
            9,
            "']' to close the flavor text opened at position 4",
        ),
        ("2d6q", 4, "a modifier"),
        ("", 1, "an empty formula"),
        ("4d6r>", 6, "a number after the comparison"),
        ("99999999999999999999999d6", 1, "too large"),
        ("2d6 3", 5, "expected an operator"),
    ] {
        let e = parse(src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse);
        let msg = e.message();
        assert!(msg.contains(&format!("at position {pos}")), "{src}: {msg}");
        assert!(msg.contains(words), "{src}: {msg}");
    }
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse(&deep).unwrap_err().message().contains("nests deeper"));
    let negs = format!("{}1", "-".repeat(10_000));
    assert!(parse(&negs).is_err());
    let long = vec!["1d6"; 100_000].join("+");
    assert!(parse(&long)
        .unwrap_err()
        .message()
        .contains("more than 100 operators"));
    assert!(parse(&vec!["1"; 101].join("*")).is_ok());
    assert!(parse(&vec!["1"; 102].join("*"))
        .unwrap_err()
        .message()
        .contains("more than 100 operators"));
}

// ---------------------------------------------------------------- resolution semantics

#[test]
fn keep_and_drop_follow_foundry_including_ties() {
    assert_eq!(total("4d6kh3", &[&[6, 1, 3, 5]]), 14);
    assert_eq!(total("4d6kl3", &[&[6, 1, 3, 5]]), 9);
    assert_eq!(total("4d6dh1", &[&[6, 1, 3, 5]]), 9);
    assert_eq!(total("4d6dl1", &[&[6, 1, 3, 5]]), 14);
    assert_eq!(total("2d20kh", &[&[4, 17]]), 17);
    // Foundry discards the earliest of tied results first
    let f = parse("4d6kh2").unwrap();
    let Step::Done(e) = resolve(&f, &[vec![5, 5, 5, 1]]).unwrap() else {
        panic!()
    };
    let active: Vec<bool> = e.terms[0].results.iter().map(|r| r.active).collect();
    assert_eq!(active, [false, true, true, false]);
    assert_eq!(e.total, 10);
    // keeping more dice than rolled keeps all
    assert_eq!(total("2d6kh5", &[&[2, 3]]), 5);
    assert_eq!(total("2d6dl5", &[&[2, 3]]), 0);
}

#[test]
fn explosions_ask_for_more_dice_round_by_round() {
    let f = parse("2d6x").unwrap();
    assert_eq!(
        plan(&f).unwrap(),
        vec![DiceNeed {
            die: icon_engine::dice::Die::Standard(6),
            count: 2,
            role: icon_engine::dice::resolve::Role::Dice("dice".into()),
            term: 0
        }]
    );
    let Step::More(m) = resolve(&f, &[vec![6, 2]]).unwrap() else {
        panic!()
    };
    assert_eq!((m.len(), m[0].count), (1, 1));
    let Step::More(_) = resolve(&f, &[vec![6, 2], vec![6]]).unwrap() else {
        panic!()
    };
    assert_eq!(total("2d6x", &[&[6, 2], &[6], &[3]]), 17);
    // explode once: the new die does not explode again
    assert_eq!(total("2d6xo", &[&[6, 6], &[6, 1]]), 19);
    // explode on a condition
    assert_eq!(total("3d10x>=9", &[&[9, 10, 1], &[2, 9], &[3]]), 34);
}

#[test]
fn explosions_stop_after_one_hundred_per_die() {
    let f = parse("1d2x").unwrap();
    let mut faces = vec![vec![2]];
    for _ in 0..100 {
        match resolve(&f, &faces).unwrap() {
            Step::More(_) => faces.push(vec![2]),
            Step::Done(_) => panic!("stopped early at {}", faces.len()),
        }
    }
    let Step::Done(e) = resolve(&f, &faces).unwrap() else {
        panic!("did not stop")
    };
    assert_eq!(e.total, 202);
    assert_eq!(e.terms[0].results.len(), 101);
}

#[test]
fn rerolls_once_and_recursively() {
    // r: the 1s are re-rolled once; the new 1 stays
    assert_eq!(total("4d6r1", &[&[1, 3, 1, 5], &[1, 2]]), 11);
    // rr: the new 1 is re-rolled again
    assert_eq!(total("4d6rr1", &[&[1, 3, 1, 5], &[1, 2], &[4]]), 14);
    assert_eq!(total("4d6r<3", &[&[1, 3, 2, 5], &[2, 6]]), 16);
    // a limit: only the first 1 is re-rolled
    assert_eq!(total("3d6r1=1", &[&[1, 1, 4], &[6]]), 11);
}

#[test]
fn counting_successes_and_failures() {
    assert_eq!(total("5d10cs>=7", &[&[7, 3, 10, 1, 8]]), 3);
    assert_eq!(total("5d10cs", &[&[7, 3, 10, 10, 8]]), 2);
    assert_eq!(total("5d10cf", &[&[7, 1, 10, 1, 8]]), 2);
    assert_eq!(total("5d10cs>=7df=1", &[&[7, 1, 10, 1, 8]]), 1);
    // df without a condition deducts the results cs marked unsuccessful
    assert_eq!(total("4d6cs>4df", &[&[5, 1, 6, 3]]), 0);
    // sf subtracts the failed values
    assert_eq!(total("4d6sf<3", &[&[5, 1, 6, 2]]), 8);
    assert_eq!(total("3d6min3", &[&[1, 2, 6]]), 12);
    assert_eq!(total("3d6max4", &[&[1, 5, 6]]), 9);
}

#[test]
fn special_dice_and_arithmetic() {
    assert_eq!(total("4dF", &[&[-1, 0, 1, 1]]), 1);
    assert_eq!(total("d%", &[&[100]]), 100);
    assert_eq!(total("(2d4)d6", &[&[3, 1], &[1, 2, 3, 4]]), 10);
    assert_eq!(total("2d6*2 - 10/3", &[&[3, 4]]), 11);
    assert_eq!(total("-7/2", &[]), -4);
    assert_eq!(total("7/-2", &[]), -4);
    assert_eq!(total("-(2d6)", &[&[1, 2]]), -3);
    assert_eq!(total("1d6 - 1d6 * 2", &[&[5], &[2]]), 1);
    let f = parse("d1000 + d32 + d5").unwrap();
    let needs = plan(&f).unwrap();
    let faces: Vec<u32> = needs.iter().map(|n| n.die.faces()).collect();
    assert_eq!(faces, [1000, 32, 5]);
    // (2d4)d6 asks for its d6s only after the d4s
    let f = parse("(2d4)d6 + 1d8").unwrap();
    assert_eq!(plan(&f).unwrap().len(), 2);
    let Step::More(m) = resolve(&f, &[vec![2, 2], vec![5]]).unwrap() else {
        panic!()
    };
    assert_eq!((m[0].die.faces(), m[0].count), (6, 4));
}

#[test]
fn bad_faces_are_clear_errors() {
    let f = parse("2d6").unwrap();
    let too_few = resolve(&f, &[vec![1]]).unwrap_err();
    assert!(
        too_few.message().contains("should hold 2"),
        "{}",
        too_few.message()
    );
    let bad_face = resolve(&f, &[vec![1, 7]]).unwrap_err();
    assert!(
        bad_face.message().contains("7 is not a face of a d6"),
        "{}",
        bad_face.message()
    );
    let extra = resolve(&f, &[vec![1, 2], vec![3]]).unwrap_err();
    assert!(
        extra.message().contains("used only 1"),
        "{}",
        extra.message()
    );
    let zero = resolve(
        &parse("1d6/(1d6-1d6)").unwrap(),
        &[vec![3], vec![2], vec![2]],
    )
    .unwrap_err();
    assert!(zero.message().contains("division by zero"));
}

// ---------------------------------------------------------------- exact odds

#[test]
fn known_exact_values() {
    let d = exact("3d6");
    assert_eq!(p_exact(&d, 10), r(27, 216));
    assert_eq!(d.exact_mean().unwrap(), "21/2");
    let d = exact("4d6kh3");
    assert_eq!(d.exact_mean().unwrap(), "15869/1296");
    let d = exact("2d20kh1");
    assert_eq!(p_exact(&d, 20), r(39, 400));
    let d = exact("2d20kl1");
    assert_eq!(p_exact(&d, 1), r(39, 400));
    let d = exact("1d6 - 1d6");
    assert_eq!(d.exact_mean().unwrap(), "0/1");
    let d = exact("-1d4");
    assert_eq!(d.exact_mean().unwrap(), "-5/2");
    // 4dF: P(0) = 19/81
    assert_eq!(p_exact(&exact("4dF"), 0), r(19, 81));
}

#[test]
fn single_exploding_die_has_geometric_tail() {
    // P(1d6x = 6k + r) = 6^-(k+1) for r in 1..=5 while k < 100
    let d = exact("1d6x");
    let exact_mass: Vec<(i64, Ratio)> = d.exact.clone().unwrap_or_default();
    if !exact_mass.is_empty() {
        panic!("6^101 overflows u128, so the exact form must be absent");
    }
    for k in 0..8i64 {
        for rem in 1..=5 {
            let p = d.totals.iter().find(|(v, _)| *v == 6 * k + rem).unwrap().1;
            let want = 6f64.powi(-(k as i32 + 1));
            assert!(
                (p - want).abs() <= 1e-15 * want,
                "k={k} r={rem}: {p} vs {want}"
            );
        }
        assert!(d.totals.iter().all(|(v, _)| v % 6 != 0 || *v == 606));
    }
    // the cap: after 100 explosions the last die stands, so 606 = 101 sixes is possible
    let last = d.totals.last().unwrap();
    assert_eq!(last.0, 606);
    let sum: f64 = d.totals.iter().map(|t| t.1).sum();
    assert!((sum - 1.0).abs() < 1e-12);
}

#[test]
fn odds_equal_exhaustive_enumeration() {
    for src in [
        "3d6",
        "4d6kh3",
        "4d6kl2",
        "5d4dh2",
        "5d4dl1 + 2",
        "2d20kh1",
        "3d6r1",
        "3d6r<3",
        "3d4xo",
        "2d6xo>=5",
        "4d6cs>=5",
        "4d6cf<3",
        "4d6cs>4df",
        "4d6cs>=5df=1",
        "3d6sf<3",
        "3d6min3",
        "3d6max4",
        "4d6r1kh3",
        "4d6kh3xo",
        "3d6kh2cs>=4",
        "3d6min2kh2",
        "3dF",
        "(1d4)d6",
        "(1d3)d4kh1",
        "2d6 * 1d4",
        "1d20 / 1d4",
        "-1d8 / 3",
        "1d6 - 1d4 + 3",
        "d%",
        "(1d3 - 1)d6",
    ] {
        let want = enumerate::<Ratio>(src);
        let got = exact(src);
        let got: BTreeMap<i64, Ratio> = got.exact.expect(src).into_iter().collect();
        assert_eq!(got, want, "{src}");
    }
}

/// Recursive re-rolls and explosions chain up to 100 deep, beyond `u128` rationals: enumerate in
/// floats (one exploding face keeps each chain linear, so enumeration stays small).
#[test]
fn recursive_modifiers_equal_float_enumeration() {
    for src in [
        "2d4rr1",
        "1d3rr2",
        "1d4x",
        "2d3x",
        "1d4rr1x",
        "1d3x=2cs>=2",
        "1d4xmin2",
    ] {
        let want = enumerate::<f64>(src);
        let got = exact(src);
        assert_eq!(
            got.totals.len(),
            want.values().filter(|p| **p > 0.0).count(),
            "{src}"
        );
        for (v, p) in &got.totals {
            let w = want[v];
            assert!(
                (p - w).abs() <= 1e-12 * w.max(1e-300) + 1e-300,
                "{src} at {v}: {p} vs {w}"
            );
        }
    }
}

#[test]
fn probabilities_sum_to_one_and_floats_match_exact() {
    for src in [
        "10d6",
        "20d10kh5",
        "8d8r1",
        "3d6x",
        "6d10cs>=8",
        "50d4 - 20d6",
        "4d6kh3 * 2",
    ] {
        let d = exact(src);
        let sum: f64 = d.totals.iter().map(|t| t.1).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{src}: {sum}");
        if let Some(e) = &d.exact {
            let s = e.iter().fold(Ratio::zero(), |a, (_, p)| a.add(*p).unwrap());
            assert_eq!(s, Ratio::one(), "{src}");
        }
    }
}

#[test]
fn large_pools_fall_back_to_floats_and_stay_normalised() {
    // 6^400 does not fit u128, so floats; the mean is still exact enough
    let d = exact("400d6");
    assert!(d.exact.is_none());
    assert!((d.mean() - 1400.0).abs() < 1e-6);
    assert!((d.sd() - (400.0f64 * 35.0 / 12.0).sqrt()).abs() < 1e-6);
    // the widest answer allowed: every total of a d2048, each exactly 1/2048
    let odds = |f: &str| {
        let req: Request =
            serde_json::from_value(serde_json::json!({"kind": "dice", "formula": f})).unwrap();
        request::odds(&Prepared::new(&req).unwrap())
    };
    let d = odds("1d2048").unwrap();
    assert_eq!(d.totals.len(), 2_048);
    assert_eq!(d.totals[2_047], (2_048, 1.0 / 2_048.0));
    assert_eq!(d.exact.unwrap().totals[0], (1, "1/2048".to_string()));
    assert_eq!(odds("409d6").unwrap().totals.len(), 2_046);
    // one more is refused, naming the limit
    for f in ["1d2049", "1d8192", "1d2048 + 1d2", "410d6"] {
        let e = odds(f).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Odds, "{f}");
        assert!(
            e.message()
                .ends_with("possible totals; an answer holds at most 2048"),
            "{f}: {}",
            e.message()
        );
    }
    let d = exact("100d6kh1");
    // P(max of 100 d6 = 6) = 1 - (5/6)^100
    let p6 = d.totals.iter().find(|t| t.0 == 6).unwrap().1;
    assert!((p6 - (1.0 - (5.0f64 / 6.0).powi(100))).abs() < 1e-12);
}

#[test]
fn odds_beyond_the_limits_are_clear_errors() {
    for (src, words) in [
        ("1000d1000000", "span more than"),
        ("10d6x", "too long"),
        ("3d6r1=1", "limited number"),
        ("4d6xkh3", "keep/drop after an explosion"),
        ("4d6kh3kl2", "more than one keep/drop"),
        ("1d6 / (1d2 - 1)", "divide by zero"),
        ("1d1000000 * 1d1000000", "span more than"),
        ("1d2000 * 1d2000 * 1d3", "span more than"),
        ("1d1000000", "span more than 8192 possible totals"),
        ("1d8193", "span more than 8192 possible totals"),
        ("10d1000", "span more than 8192 possible totals"),
        // keep/drop of huge dice: refused before building a state per face (issue 16, point 5)
        ("2d1000000kh1", "span more than 8192 possible totals"),
        ("2d1000000dl1", "span more than 8192 possible totals"),
        ("1000d9000kl1", "span more than 8192 possible totals"),
        ("2d1000000kh1cs>5", "too long"),
        ("2d1000000r1kh1", "too long"),
        ("2d1000000min3kh1", "too long"),
    ] {
        let e = distribution(&parse(src).unwrap()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Odds, "{src}");
        assert!(e.message().contains(words), "{src}: {}", e.message());
    }
}

// ---------------------------------------------------------------- the verbs

#[test]
fn requests_are_tagged_json_and_roll_is_replayable() {
    let req: Request = serde_json::from_str(r#"{"kind":"dice","formula":"4d6kh3+2"}"#).unwrap();
    let p = Prepared::new(&req).unwrap();
    let plan = request::plan(&p).unwrap();
    assert_eq!(
        serde_json::to_value(&plan).unwrap(),
        serde_json::json!([{"faces":6,"count":4,"role":"dice","notation":"d6","term":0}])
    );
    let a = request::roll(&p, 12345).unwrap();
    let b = request::roll(&p, 12345).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.seed, Some(12345));
    // replaying the faces through resolve gives the same outcome
    let Resolution::Done(c) = request::resolve(&p, &a.faces).unwrap() else {
        panic!()
    };
    assert_eq!(c.total, a.total);
    let bad: Result<Request, _> = serde_json::from_str(r#"{"kind":"nope"}"#);
    assert!(bad.is_err());
    let json = serde_json::to_value(request::odds(&p).unwrap()).unwrap();
    assert_eq!(
        json["exact"]["mean"],
        "15869/1296 + 2"
            .replace(" + 2", "")
            .replace("15869/1296", "18461/1296")
    );
    assert!(json["outcomes"].as_object().unwrap().is_empty());
    assert_eq!(json["formula"], "4d6kh3 + 2");
    // each plan entry names the outcome term its faces belong to
    let p = Prepared::new(&Request::Dice {
        formula: "1d4 + (2d4)d6".into(),
    })
    .unwrap();
    let terms: Vec<usize> = request::plan(&p).unwrap().iter().map(|d| d.term).collect();
    assert_eq!(terms, [0, 1]);
    let Resolution::More { dice } = request::resolve(&p, &[vec![1], vec![1, 2]]).unwrap() else {
        panic!()
    };
    assert_eq!((dice[0].term, dice[0].count), (2, 3));
}

#[test]
fn roll_pins_faces_for_a_fixed_seed() {
    let p = Prepared::new(&Request::Dice {
        formula: "10d6".into(),
    })
    .unwrap();
    let done = request::roll(&p, 42).unwrap();
    assert_eq!(done.faces, vec![PINNED_10D6_SEED_42.to_vec()]);
}

const PINNED_10D6_SEED_42: [i64; 10] = [1, 6, 4, 6, 4, 6, 5, 3, 4, 6];

/// `roll` reads the outcome from the one evaluation it draws (and a rule's follow-up batch):
/// the outcome `resolve` gives for the same faces, for every rule kind.
#[test]
fn roll_gives_what_resolve_gives_for_its_faces_for_every_kind() {
    let target = r#"{"hp":20,"maxHp":20,"vigor":5,"armor":1,"wounds":1,"isPlayerCharacter":true,"statuses":["dazed"]}"#;
    let requests = [
        r#"{"kind":"dice","formula":"4d6kh3 + 2d8x[fire] - 1"}"#.to_string(),
        r#"{"kind":"icon.attack","boons":2,"defense":12}"#.into(),
        r#"{"kind":"icon.save","curses":2}"#.into(),
        r#"{"kind":"icon.damage","result":"crit","die":8,"dice":2,"fray":3,"bonusDice":1}"#.into(),
        r#"{"kind":"icon.action","rating":3,"push":true}"#.into(),
        r#"{"kind":"icon.fortune","dice":0}"#.into(),
        r#"{"kind":"icon.evasion"}"#.into(),
        r#"{"kind":"icon.attack","curses":1,"defense":12,"evasion":true}"#.into(),
        r#"{"kind":"icon.attack","defense":12,"evasion":true,"autoHit":true}"#.into(),
        r#"{"kind":"icon.damage","result":"crit","die":6,"fray":2,"critAgain":true}"#.into(),
        format!(r#"{{"kind":"icon.applyDamage","target":{target},"amount":30,"source":"hit"}}"#),
        format!(r#"{{"kind":"icon.heal","target":{target},"healing":"rest"}}"#),
        r#"{"kind":"icons.test","ability":6,"difficulty":5}"#.into(),
        r#"{"kind":"tribute.test","rank":2,"focus":2,"burden":1,"die":8,"opposition":{"rank":1,"focus":1}}"#.into(),
        r#"{"kind":"narrator.skill","skill":12,"difficulty":3}"#.into(),
        r#"{"kind":"mns.action","target":60,"bonus":5}"#.into(),
        r#"{"kind":"mns.save","score":12,"dice":"d100"}"#.into(),
        r#"{"kind":"mns.dice","die":"d1000"}"#.into(),
    ];
    let mut follow_ups = 0;
    for json in &requests {
        let p = Prepared::new(&serde_json::from_str::<Request>(json).unwrap()).unwrap();
        for seed in 0..60 {
            let rolled = request::roll(&p, seed).unwrap();
            let Resolution::Done(mut resolved) = request::resolve(&p, &rolled.faces).unwrap()
            else {
                panic!("{json}: resolve asked for more dice than roll drew")
            };
            resolved.seed = Some(seed);
            assert_eq!(rolled, resolved, "{json} seed {seed}");
            follow_ups += usize::from(rolled.faces.len() > p.formula().terms.len());
        }
    }
    assert!(
        follow_ups > 0,
        "a follow-up batch (Men & Supermen's re-rolled 1s) was drawn"
    );
}
