//! The exact-odds kernels (keep/drop programme, powers, convolutions) against independent
//! computations: every face tuple enumerated (through the resolver, or weighted by hand), naive
//! die-by-die convolution, and the exact kernels against the float ones.

mod support;

use icon_engine::dice::odds::kernel::{self, Face};
use icon_engine::dice::odds::num::{Num, Ratio};
use icon_engine::dice::odds::{distribution, Distribution};
use icon_engine::dice::parse;
use proptest::prelude::*;
use std::collections::BTreeMap;
use support::enumerate;

fn exact_of(d: &Distribution) -> BTreeMap<i64, Ratio> {
    d.exact.clone().expect("exact odds").into_iter().collect()
}

/// Keep the first `k` of every tuple of `n` faces (by a stable sort in keeping order), weighted by
/// the faces' integer weights: the definition of the keep programme.
fn keep_by_enumeration(faces: &[Face<u128>], n: u32, k: u32) -> BTreeMap<i64, u128> {
    let mut out = BTreeMap::new();
    let mut idx = vec![0usize; n as usize];
    loop {
        let mut sorted = idx.clone();
        sorted.sort_unstable();
        let total: i64 = sorted[..k as usize].iter().map(|i| faces[*i].add).sum();
        let weight: u128 = idx.iter().map(|i| faces[*i].weight).product();
        *out.entry(total).or_insert(0) += weight;
        let mut pos = 0;
        loop {
            if pos == idx.len() {
                out.retain(|_, w| *w != 0);
                return out;
            }
            idx[pos] += 1;
            if idx[pos] < faces.len() {
                break;
            }
            idx[pos] = 0;
            pos += 1;
        }
    }
}

/// A kernel's dense vector (index 0 = `lo`) as its non-zero points.
fn points<T: Copy + PartialEq + Default>(v: &[T], lo: i64) -> BTreeMap<i64, T> {
    v.iter()
        .enumerate()
        .filter(|(_, x)| **x != T::default())
        .map(|(i, x)| (lo + i as i64, *x))
        .collect()
}

fn faces_strategy() -> impl Strategy<Value = Vec<Face<u128>>> {
    prop::collection::vec((-5i64..9, 0u128..5), 1..6)
        .prop_filter("some value is possible", |v| v.iter().any(|(_, w)| *w != 0))
        .prop_map(|v| {
            v.into_iter()
                .map(|(add, weight)| Face { add, weight })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Exact counts and conditioned floats both equal the weighted enumeration of every tuple,
    /// for any weights (impossible values included) and any (repeated, unordered, negative)
    /// amounts a kept die adds.
    #[test]
    fn keep_kernels_equal_tuple_enumeration(
        faces in faces_strategy(),
        n in 1u32..6,
        k_pick in 0u32..6,
    ) {
        let k = k_pick % n + 1;
        let lo = faces.iter().map(|f| f.add).min().unwrap() * i64::from(k);
        let want = keep_by_enumeration(&faces, n, k);
        let counts = kernel::keep_counts(&faces, n, k).expect("small pools fit");
        prop_assert_eq!(&points(&counts, lo), &want);
        let d: u128 = faces.iter().map(|f| f.weight).sum();
        let floats: Vec<Face<f64>> = faces
            .iter()
            .map(|f| Face { add: f.add, weight: f.weight as f64 / d as f64 })
            .collect();
        let got = kernel::keep_f64(&floats, n, k).unwrap();
        let all = d.pow(n) as f64;
        prop_assert_eq!(got.len(), counts.len());
        for (i, p) in got.iter().enumerate() {
            let w = counts[i] as f64 / all;
            prop_assert!((p - w).abs() <= 1e-12 * w + 1e-300, "{} at {}: {} vs {}", n, i, p, w);
        }
    }

    /// Keep/drop terms with the modifiers around them equal the resolver on every face tuple.
    #[test]
    fn keep_drop_terms_equal_resolver_enumeration(
        n in 1u32..6,
        faces in prop::sample::select(vec![2u32, 3, 4, 6, 8]),
        sel in prop::sample::select(vec!["kh", "kl", "dh", "dl"]),
        count in 0u32..7,
        pre in prop::sample::select(vec!["", "", "r1", "min2", "max3", "r<2"]),
        post in prop::sample::select(vec!["", "", "cs>=3", "cf<2", "cs>=2df1"]),
    ) {
        prop_assume!(u64::from(faces).pow(n) <= 8_000);
        let src = format!("{n}d{faces}{pre}{sel}{count}{post}");
        let want = enumerate::<Ratio>(&src);
        let got = exact_of(&distribution(&parse(&src).unwrap()).unwrap());
        prop_assert_eq!(got, want, "{}", src);
    }

    /// Exact powers equal naive die-by-die convolution, for plain dice (window sums) and for any
    /// weights; float powers equal them to 1e-12 relative, down to the smallest tail.
    #[test]
    fn powers_equal_naive_convolution(
        weights in prop::collection::vec(0u128..4, 1..8),
        uniform in any::<bool>(),
        n in 1u32..25,
    ) {
        let weights: Vec<u128> = if uniform { vec![1; weights.len()] } else { weights };
        prop_assume!(weights.iter().any(|w| *w != 0));
        let mut naive = weights.clone();
        for _ in 1..n {
            naive = naive_convolve(&naive, &weights);
        }
        // at most 21^24 rolls: every count fits
        prop_assert_eq!(kernel::power_counts(&weights, n), Some(naive));
        let d: u128 = weights.iter().sum();
        let p: Vec<f64> = weights.iter().map(|w| *w as f64 / d as f64).collect();
        let floats = kernel::power_f64(&p, n);
        let mut naive_f = p.clone();
        for _ in 1..n {
            naive_f = naive_convolve_f64(&naive_f, &p);
        }
        prop_assert_eq!(floats.len(), naive_f.len());
        for (a, b) in floats.iter().zip(&naive_f) {
            prop_assert!((a - b).abs() <= 1e-12 * b + 1e-300, "{} vs {}", a, b);
        }
    }
}

fn naive_convolve(a: &[u128], b: &[u128]) -> Vec<u128> {
    let mut out = vec![0u128; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

fn naive_convolve_f64(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// The float path (taken when exact rationals overflow, here through 100-deep re-roll chains)
/// of keep/drop equals the resolver enumerated in floats.
#[test]
fn float_keep_drop_equals_float_enumeration() {
    for src in ["2d4rr1kh1", "2d3rr1kl1", "2d4rr<2dl1", "2d3rr1kh1cs>=3"] {
        let d = distribution(&parse(src).unwrap()).unwrap();
        assert!(d.exact.is_none(), "{src} is expected to need floats");
        let want = enumerate::<f64>(src);
        assert_eq!(
            d.totals.len(),
            want.values().filter(|p| **p > 0.0).count(),
            "{src}"
        );
        for (v, p) in &d.totals {
            let w = want[v];
            assert!((p - w).abs() <= 1e-12 * w, "{src} at {v}: {p} vs {w}");
        }
    }
}

/// Large pools: the float keep programme against the exact one where both run (D^n fits u128),
/// and float sums of many dice against naive convolution, every total present.
#[test]
fn large_pools_agree_across_representations() {
    for (n, faces, k) in [(30u32, 6u128, 5u32), (20, 10, 3), (40, 2, 39), (12, 20, 1)] {
        let exact: Vec<Face<u128>> = (1..=faces as i64)
            .rev()
            .map(|add| Face { add, weight: 1 })
            .collect();
        let floats: Vec<Face<f64>> = exact
            .iter()
            .map(|f| Face {
                add: f.add,
                weight: 1.0 / faces as f64,
            })
            .collect();
        let counts = kernel::keep_counts(&exact, n, k).unwrap();
        let got = kernel::keep_f64(&floats, n, k).unwrap();
        let all = (faces as f64).powi(n as i32);
        for (c, p) in counts.iter().zip(&got) {
            let w = *c as f64 / all;
            assert!((p - w).abs() <= 1e-12 * w, "{n}d{faces}kh{k}: {p} vs {w}");
        }
    }
    for src in ["100d6", "200d4", "60d20"] {
        let d = distribution(&parse(src).unwrap()).unwrap();
        let (n, f): (usize, usize) = {
            let (a, b) = src.split_once('d').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        };
        let die = vec![1.0 / f as f64; f];
        let mut naive = die.clone();
        for _ in 1..n {
            naive = naive_convolve_f64(&naive, &die);
        }
        assert_eq!(
            d.totals.len(),
            naive.len(),
            "{src}: every total is possible"
        );
        for ((v, p), w) in d.totals.iter().zip(&naive) {
            assert!((p - w).abs() <= 1e-12 * w, "{src} at {v}: {p} vs {w}");
        }
    }
}

/// The exact mean over a common denominator equals the mean summed term by term.
#[test]
fn exact_means_equal_term_by_term_sums() {
    for src in [
        "3d6",
        "4d6kh3 - 2d4",
        "-1d4",
        "10d10kh3",
        "1d6 - 1d6",
        "2d20kl1 - 30",
    ] {
        let d = distribution(&parse(src).unwrap()).unwrap();
        let (mut pos, mut neg) = (Ratio::zero(), Ratio::zero());
        for (v, p) in d.exact.as_ref().unwrap() {
            let term = p
                .mul(Ratio::big(u128::from(v.unsigned_abs())).unwrap())
                .unwrap();
            if *v >= 0 {
                pos = pos.add(term).unwrap();
            } else {
                neg = neg.add(term).unwrap();
            }
        }
        let want = if pos.to_f64() >= neg.to_f64() {
            pos.sub(neg).unwrap().to_string()
        } else {
            format!("-{}", neg.sub(pos).unwrap())
        };
        assert_eq!(d.exact_mean().unwrap(), want, "{src}");
    }
}

/// The float budget is calibrated to a few milliseconds of wasm, within a frame on the first call
/// (issue 26): large plain pools it accepts come out right (mean and spread of n dice), and work
/// beyond it is refused as a clear error. (Through `odds`, an answer is also held to 2,048
/// totals: tests/dice.rs.)
#[test]
fn the_budget_accepts_large_pools_and_refuses_beyond_them() {
    for (src, n, faces) in [
        ("400d6", 400.0, 6.0),
        ("40d100", 40.0, 100.0),
        ("4d1000", 4.0, 1000.0),
    ] {
        let d = distribution(&parse(src).unwrap()).unwrap();
        let f: f64 = faces;
        assert!(
            (d.mean() - n * (f + 1.0) / 2.0).abs() < 1e-6 * n * f,
            "{src}"
        );
        assert!(
            (d.sd() - (n * (f * f - 1.0) / 12.0).sqrt()).abs() < 1e-6 * n * f,
            "{src}"
        );
        // n·(f+1) − v is as likely as v (the totals below f64's range are left out at both ends)
        let (first, last) = (d.totals[0], d.totals[d.totals.len() - 1]);
        assert_eq!((first.0 + last.0) as f64, n * (f + 1.0), "{src}");
        for ((v, p), (w, q)) in d.totals.iter().zip(d.totals.iter().rev()) {
            assert_eq!(v + w, first.0 + last.0);
            assert!((p - q).abs() <= 1e-12 * p, "{src} at {v}");
        }
    }
    for src in ["1000d6", "1000d16", "10d6x", "1000d4xo", "1000d6 + 1000d6"] {
        let e = distribution(&parse(src).unwrap()).unwrap_err();
        assert!(e.message().contains("too long"), "{src}: {}", e.message());
    }
}
