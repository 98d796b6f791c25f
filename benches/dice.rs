//! `cargo bench --bench dice`: rolls per second and exact-odds timings for a few formulas.
//! A plain harness (no framework) so the numbers print as a table for BENCHMARKS.md.

use icon_engine::cache::FormulaCache;
use icon_engine::request::{self, Prepared, Request};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn prepared(formula: &str) -> Prepared {
    Prepared::new(&Request::Dice {
        formula: formula.to_string(),
    })
    .expect("benchmark formulas parse")
}

/// Runs `f` repeatedly for about `budget`, returning calls per second.
fn rate(budget: Duration, mut f: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for _ in 0..64 {
            f(n);
            n += 1;
        }
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let budget = Duration::from_millis(400);
    println!("| formula | rolls/s (plan+RNG+resolve) |");
    println!("|---|---:|");
    for formula in [
        "1d20 + 5",
        "3d6",
        "4d6kh3",
        "2d20kh1",
        "10d10cs>=7",
        "8d6x",
        "(2d4)d6",
    ] {
        let p = prepared(formula);
        let r = rate(budget, |seed| {
            black_box(request::roll(&p, seed).expect("rolls"));
        });
        println!("| `{formula}` | {:.0} |", r);
    }

    println!();
    println!("| formula | odds time | exact? | totals |");
    println!("|---|---:|:--:|---:|");
    for formula in [
        "3d6",
        "4d6kh3",
        "2d20kh1",
        "100d6",
        "1000d6",
        "20d10kh5",
        "10d100",
        "30d100",
        "3d6x",
        "10d10cs>=7df1",
        "1d1000000",
        "(2d4)d6",
    ] {
        let p = prepared(formula);
        let start = Instant::now();
        let mut runs = 0u32;
        let mut last = None;
        while runs < 3 || start.elapsed() < budget {
            last = Some(black_box(request::odds(&p).expect("odds")));
            runs += 1;
            if start.elapsed() > Duration::from_secs(5) {
                break;
            }
        }
        let each = start.elapsed() / runs;
        let report = last.expect("ran at least once");
        println!(
            "| `{formula}` | {:.3} ms | {} | {} |",
            each.as_secs_f64() * 1e3,
            if report.exact.is_some() { "yes" } else { "f64" },
            report.totals.len()
        );
    }

    println!();
    let mut cache = FormulaCache::default();
    let req = Request::Dice {
        formula: "4d6kh3 + 1d8[fire] + 3".to_string(),
    };
    let cached = rate(budget, |_| {
        black_box(Prepared::from_cache(req.clone(), &mut cache).expect("parses"));
    });
    let uncached = rate(budget, |_| {
        black_box(Prepared::new(&req).expect("parses"));
    });
    println!("| prepare `4d6kh3 + 1d8[fire] + 3` | per second |");
    println!("|---|---:|");
    println!("| parsed every time | {uncached:.0} |");
    println!("| from the formula cache | {cached:.0} |");
}
