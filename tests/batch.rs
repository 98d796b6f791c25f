//! `roll_many`: batches of totals from one stream, checked against `roll` itself.

use icon_engine::batch::{roll_many, MAX_DICE, MAX_MODIFIED_DICE, MAX_ROLLS, MAX_SLOW_DICE};
use icon_engine::dice::rng::DiceRng;
use icon_engine::request::{self, Prepared, Request};

fn prepared(json: &str) -> Prepared {
    let req: Request = serde_json::from_str(json).unwrap();
    Prepared::new(&req).unwrap()
}

fn dice(formula: &str) -> Prepared {
    prepared(&format!(r#"{{"kind":"dice","formula":"{formula}"}}"#))
}

/// The totals `roll` gives drawing one roll after another from the same stream.
fn by_roll(p: &Prepared, n: u32, seed: u64) -> Vec<f64> {
    let mut rng = DiceRng::from_seed(seed).unwrap();
    (0..n)
        .map(|_| request::roll_with(p, &mut rng).unwrap().total as f64)
        .collect()
}

#[test]
fn the_fast_path_draws_exactly_what_roll_draws() {
    // fast path: fixed counts, modifiers that need no more dice, fate dice, arithmetic
    for formula in [
        "3d6",
        "1d20 + 3",
        "4d6kh3",
        "3d6cs>=5",
        "10d10cs>=7df1",
        "4dF + 1",
        "2d20kl1 - 1d4 * 2",
        "8d6min2max5",
        "(1d8 + 2) / 2",
        "0d6 + 5",
        "d%",
        // the plain-sum loop: one modifier-free term plus or minus a constant, sizes specialised
        // (d4–d100) and not (d7, d1000)
        "1d6",
        "100d6",
        "2d4 - 3",
        "7 + 3d8",
        "1d7 + 1",
        "5d1000 - 1000000000000",
        "3d12 - 2",
        "1d100",
    ] {
        let p = dice(formula);
        for seed in [0, 1, 42, 9_007_199_254_740_991] {
            assert_eq!(
                roll_many(&p, 200, seed).unwrap(),
                by_roll(&p, 200, seed),
                "{formula} seed {seed}"
            );
        }
        assert_eq!(
            roll_many(&p, 1, 7).unwrap()[0],
            request::roll(&p, 7).unwrap().total as f64,
            "{formula}: the first total is roll's"
        );
    }
}

#[test]
fn rerolls_explosions_and_rules_go_through_roll() {
    for json in [
        r#"{"kind":"dice","formula":"10d6x"}"#,
        r#"{"kind":"dice","formula":"4d6r1"}"#,
        r#"{"kind":"dice","formula":"(2d4)d6"}"#,
        r#"{"kind":"icon.attack","boons":3,"defense":10}"#,
        r#"{"kind":"mns.action","target":12}"#,
    ] {
        let p = prepared(json);
        assert_eq!(
            roll_many(&p, 100, 5).unwrap(),
            by_roll(&p, 100, 5),
            "{json}"
        );
    }
}

#[test]
fn batch_totals_follow_the_dice() {
    // 3d6: mean 10.5, sd sqrt(35/4); 200,000 rolls put the sample mean within 0.02 (4.7 sd)
    let totals = roll_many(&dice("3d6"), 200_000, 99).unwrap();
    assert!(totals.iter().all(|t| (3.0..=18.0).contains(t)));
    let mean = totals.iter().sum::<f64>() / totals.len() as f64;
    assert!((mean - 10.5).abs() < 0.02, "mean {mean}");
    // every total of 3d6 turns up, including P = 1/216 ones
    for v in 3..=18 {
        assert!(totals.contains(&f64::from(v)), "{v} never rolled");
    }
}

#[test]
fn batches_beyond_the_limits_are_refused_up_front() {
    let e = roll_many(&dice("1d6"), MAX_ROLLS + 1, 1).unwrap_err();
    assert!(
        e.message().contains(&MAX_ROLLS.to_string()),
        "{}",
        e.message()
    );
    assert!(roll_many(&dice("1d6"), MAX_ROLLS, 1).is_ok());
    let e = roll_many(&dice("1000d6"), 1001, 1).unwrap_err();
    assert!(
        e.message().contains(&MAX_DICE.to_string()),
        "{}",
        e.message()
    );
    let e = roll_many(&dice("100d6x"), 201, 1).unwrap_err();
    assert!(
        e.message().contains(&MAX_SLOW_DICE.to_string()),
        "{}",
        e.message()
    );
    assert!(roll_many(&dice("1d6"), 0, 1).unwrap().is_empty());
    // kept, dropped or counted dice cost about twice as much: half as many (issue 16, point 8)
    let e = roll_many(&dice("4d6kh3"), 125_001, 1).unwrap_err();
    assert_eq!(
        e.message(),
        format!("a batch rolls at most {MAX_MODIFIED_DICE} dice that keep, drop, count or change their faces; 125001 rolls of 4 dice is 500004")
    );
    assert_eq!(
        roll_many(&dice("4d6kh3"), 125_000, 1).unwrap().len(),
        125_000
    );
    assert!(
        roll_many(&dice("2d6 + 1d4"), 333_333, 1).is_ok(),
        "no modifiers: the full limit"
    );
}

#[test]
fn the_plain_sum_loop_at_the_edges_of_its_range() {
    // constants are at most 10^12 and a term at most 1000 dice of 10^6 faces, so a plain sum
    // always fits a JS number: the loop checks that range once, not total by total
    for formula in [
        "1000d1000000 + 1000000000000",
        "1000d1000000 - 1000000000000",
        "1000000000000 + 1d6",
    ] {
        let p = dice(formula);
        let totals = roll_many(&p, 20, 9).unwrap();
        assert_eq!(totals, by_roll(&p, 20, 9), "{formula}");
    }
}
