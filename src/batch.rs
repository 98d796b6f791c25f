//! Many rolls of one request at once, for simulations: only the totals, drawn from one ChaCha20
//! stream. Roll `i` draws exactly the faces `roll` would draw next from that stream, so the first
//! total equals `roll(request, seed).total` and the batch replays from its seed.
//!
//! A plain formula whose terms roll a fixed number of dice without re-rolls or explosions (the
//! usual `NdX + k`, keep/drop, success counting) takes a fast path that never builds an outcome;
//! everything else goes through `roll` itself.

use crate::dice::ast::{BinOp, Count, Die, Expr, Formula, Modifier};
use crate::dice::resolve::{check_safe, eval, settle, DieResult};
use crate::dice::rng::DiceRng;
use crate::error::{Error, Result};
use crate::request::{self, Prepared, Request};
use serde::Serialize;
use std::collections::BTreeMap;

/// At most this many rolls in one batch.
pub const MAX_ROLLS: u32 = 1_000_000;
/// At most this many dice in one batch on the fast path (about 20 ms of work in wasm).
pub const MAX_DICE: u64 = 1_000_000;
/// At most this many dice in one batch on the fast path when its dice are kept, dropped, counted
/// or otherwise modified (each die then costs about twice as much: the largest such batch,
/// `4d6kh3` × 250,000, took 57 ms in wasm, over the 50 ms every accepted call keeps to).
pub const MAX_MODIFIED_DICE: u64 = 500_000;
/// At most this many planned dice in one batch that needs the full `roll` per total (re-rolls,
/// explosions, rule kinds): each roll builds its whole outcome, so it costs far more per die.
pub const MAX_SLOW_DICE: u64 = 20_000;

/// The totals of `n` rolls of `request` from one stream started at `seed`.
pub fn roll_many(request: &Prepared, n: u32, seed: u64) -> Result<Vec<f64>> {
    if n > MAX_ROLLS {
        return Err(Error::request(format!(
            "n must be from 0 to {MAX_ROLLS} rolls, not {n}"
        )));
    }
    let mut rng = DiceRng::from_seed(seed)?;
    let planned: u64 = request::plan(request)?
        .iter()
        .map(|d| u64::from(d.count))
        .sum();
    let dice = planned.max(1) * u64::from(n);
    let fast = matches!(request.request(), Request::Dice { .. }) && is_simple(request.formula());
    let modified = request
        .formula()
        .terms
        .iter()
        .any(|t| !t.modifiers.is_empty());
    let (limit, how) = if fast && !modified {
        (MAX_DICE, "")
    } else if fast {
        (
            MAX_MODIFIED_DICE,
            " that keep, drop, count or change their faces",
        )
    } else {
        (
            MAX_SLOW_DICE,
            " that re-roll, explode or read a rule's outcome",
        )
    };
    if dice > limit {
        return Err(Error::request(format!(
            "a batch rolls at most {limit} dice{how}; {n} rolls of {planned} dice is {dice}"
        )));
    }
    if fast {
        return Fast::new(request.formula()).totals(&mut rng, n);
    }
    let mut out = Vec::with_capacity(n as usize);
    if matches!(request.request(), Request::Dice { .. }) {
        // re-rolls and explosions: resolution in one pass, no outcome strings
        for _ in 0..n {
            out.push(request::roll_formula(request.formula(), &mut rng)?.0.total as f64);
        }
        return Ok(out);
    }
    let mut scratch = request::Scratch::new(request)?;
    for _ in 0..n {
        out.push(request::roll_detail(request, &mut rng, &mut scratch)?.0 as f64);
    }
    Ok(out)
}

/// Whether every term rolls a known number of dice with modifiers that need no more dice.
pub(crate) fn is_simple(formula: &Formula) -> bool {
    formula.terms.iter().all(|t| {
        matches!(t.count, Count::Fixed(_))
            && t.modifiers
                .iter()
                .all(|m| !matches!(m, Modifier::Reroll { .. } | Modifier::Explode { .. }))
    })
}

/// The fast path's reusable buffers.
struct Fast<'a> {
    formula: &'a Formula,
    totals: Vec<Option<i64>>,
    results: Vec<DieResult>,
}

impl<'a> Fast<'a> {
    fn new(formula: &'a Formula) -> Self {
        Self {
            formula,
            totals: vec![None; formula.terms.len()],
            results: Vec::new(),
        }
    }

    fn totals(mut self, rng: &mut DiceRng, n: u32) -> Result<Vec<f64>> {
        let mut out = Vec::with_capacity(n as usize);
        if let Some((faces, count, offset)) = self.plain_sum() {
            // `NdX + k`: no expression to evaluate, no term state, one loop per die size
            rng.sums(faces, count, n, offset, &mut out);
            // every total lies in [offset, offset + count·faces]: checked once when that range
            // is safe, else total by total
            let safe = i64::from(count)
                .checked_mul(i64::from(faces))
                .and_then(|m| offset.checked_add(m))
                .is_some_and(|hi| check_safe(hi).is_ok() && check_safe(offset).is_ok());
            if !safe {
                for &total in &out {
                    check_safe(total as i64)?;
                }
            }
            return Ok(out);
        }
        for _ in 0..n {
            out.push(self.one(rng)? as f64);
        }
        Ok(out)
    }

    /// `(faces, count, k)` when the formula is one modifier-free term of a standard die, plus
    /// or minus a constant (`3d6`, `1d20 + 5`).
    fn plain_sum(&self) -> Option<(u32, u32, i64)> {
        let [term] = &self.formula.terms[..] else {
            return None;
        };
        let (&Count::Fixed(count), Die::Standard(faces), true) =
            (&term.count, term.die, term.modifiers.is_empty())
        else {
            return None;
        };
        let offset = match &self.formula.expr {
            Expr::Term(0) => 0,
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => match (&**a, &**b) {
                (Expr::Term(0), Expr::Const { value, .. }) if *op == BinOp::Add => *value,
                (Expr::Term(0), Expr::Const { value, .. }) => value.checked_neg()?,
                (Expr::Const { value, .. }, Expr::Term(0)) if *op == BinOp::Add => *value,
                _ => return None,
            },
            _ => return None,
        };
        Some((faces, count, offset))
    }

    /// One roll: each term's dice in formula order (the plan's order), as `roll` draws them.
    fn one(&mut self, rng: &mut DiceRng) -> Result<i64> {
        let formula = self.formula;
        for (i, term) in formula.terms.iter().enumerate() {
            let Count::Fixed(count) = term.count else {
                return Err(Error::request("a batch term has no fixed dice count"));
            };
            let faces = term.die.faces();
            let total = if term.modifiers.is_empty() {
                // a sum of at most 1000 faces of at most 10^6 each cannot overflow
                rng.sum(faces, count) + term.die.shift() * i64::from(count)
            } else {
                self.results.clear();
                self.results
                    .extend((0..count).map(|_| DieResult::new(rng.die(term.die), 0)));
                settle(&mut self.results, &term.modifiers)
            };
            self.totals[i] = Some(total);
        }
        let total = eval(&formula.expr, &self.totals)?
            .ok_or_else(|| Error::request("the formula could not be completed"))?;
        check_safe(total)
    }
}

/// Odds as parallel arrays (typed arrays in JS), for callers that read whole distributions:
/// no string per total.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsArrays {
    pub formula: String,
    /// The totals with non-zero probability, ascending.
    pub values: Vec<f64>,
    /// P(values[i]).
    pub p: Vec<f64>,
    pub mean: f64,
    pub sd: f64,
    /// P(each outcome label), by label.
    pub outcomes: BTreeMap<&'static str, f64>,
    /// P(values[i]) = numerators[i] / denominator exactly, when the odds are exact and their
    /// common denominator fits in a `u64`.
    pub exact: Option<ExactArrays>,
}

/// Exact odds over one denominator, written as decimal strings (JS reads them as BigInts: a
/// `u64` is not a JSON number JS holds exactly).
#[derive(Debug, Clone, PartialEq)]
pub struct ExactArrays {
    pub denominator: u64,
    pub numerators: Vec<u64>,
}

impl Serialize for ExactArrays {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Decimals<'a>(&'a [u64]);
        impl Serialize for Decimals<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|n| n.to_string()))
            }
        }
        let mut out = s.serialize_struct("ExactArrays", 2)?;
        out.serialize_field("denominator", &self.denominator.to_string())?;
        out.serialize_field("numerators", &Decimals(&self.numerators))?;
        out.end()
    }
}

/// The odds of `request` as [`OddsArrays`].
pub fn odds_arrays(request: &Prepared) -> Result<OddsArrays> {
    let (d, outcomes) = request::odds_parts(request)?;
    let exact = d.exact.as_ref().and_then(|e| {
        let den = e.iter().try_fold(1u128, |l, (_, r)| {
            let g = crate::dice::odds::num::gcd(l, r.den);
            (l / g).checked_mul(r.den)
        })?;
        let denominator = u64::try_from(den).ok()?;
        let numerators = e
            .iter()
            .map(|(_, r)| u64::try_from(r.num * (den / r.den)).ok())
            .collect::<Option<Vec<u64>>>()?;
        Some(ExactArrays {
            denominator,
            numerators,
        })
    });
    Ok(OddsArrays {
        formula: request.text().to_string(),
        values: d.totals.iter().map(|(v, _)| *v as f64).collect(),
        p: d.totals.iter().map(|(_, p)| *p).collect(),
        mean: d.mean(),
        sd: d.sd(),
        outcomes: outcomes.iter().map(|(l, p)| (*l, p.p)).collect(),
        exact,
    })
}
