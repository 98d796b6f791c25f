//! A `dice` roll's outcome as one flat run of numbers, for the fast `roll` path at the wasm
//! boundary: JS builds the outcome object from these numbers and the formula's [`Shape`] (cached
//! per formula), which is many times quicker than serialising the outcome as JSON and parsing it
//! back. The object built is exactly the one `roll` returns (a node test compares them).
//!
//! Layout, every entry an integer a JS number holds exactly:
//! `seed, total, batches, (count, face × count) × batches, terms,
//!  (total, results, (value, flags, count) × results) × terms`
//! where `flags` holds the [`DieResult`] flags as the bits below.

use super::resolve::{self, DiceNeed, DieResult};
use super::Formula;
use crate::dice::rng::DiceRng;
use crate::error::Result;
use crate::request::roll_formula;
use serde::Serialize;
use std::rc::Rc;

pub const ACTIVE: u32 = 1;
pub const EXPLODED: u32 = 2;
pub const REROLLED: u32 = 4;
pub const DISCARDED: u32 = 8;
/// `success` is present; [`SUCCESS`] is its value.
pub const HAS_SUCCESS: u32 = 16;
pub const SUCCESS: u32 = 32;
/// `failure` is present; [`FAILURE`] is its value.
pub const HAS_FAILURE: u32 = 64;
pub const FAILURE: u32 = 128;
/// `count` is present (the third number of the result).
pub const HAS_COUNT: u32 = 256;

/// What every roll of a formula shares: its normalised text and each term's notation and flavor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shape {
    pub formula: String,
    pub terms: Vec<TermShape>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TermShape {
    pub notation: String,
    /// `null` when the term has none (the outcome then has no `flavor` key).
    pub flavor: Option<String>,
}

impl Shape {
    pub fn of(formula: &Formula) -> Self {
        Self {
            formula: formula.to_string(),
            terms: (0..formula.terms.len())
                .map(|i| TermShape {
                    notation: formula.term_notation(i),
                    flavor: formula.terms[i].flavor.clone(),
                })
                .collect(),
        }
    }
}

/// Where flat rolls are written: the numbers, and scratch space kept between rolls so a roll
/// allocates nothing once the buffers have grown.
#[derive(Debug, Default)]
pub struct FlatOut {
    pub numbers: Vec<f64>,
    results: Vec<DieResult>,
    totals: Vec<Option<i64>>,
}

/// A formula ready for flat rolls: parsed, with its first round of dice planned once.
#[derive(Debug, Clone)]
pub struct FlatRoller {
    formula: Rc<Formula>,
    plan: Vec<DiceNeed>,
    /// Every term rolls its fixed number (≥ 1) of dice once, in term order, with no modifier
    /// that asks for more: such a roll needs none of resolution's rounds.
    simple: bool,
}

impl FlatRoller {
    /// Refuses what `roll` would refuse before drawing a die (more dice than a roll may roll).
    pub fn new(formula: Rc<Formula>) -> Result<Self> {
        let plan = resolve::plan(&formula)?;
        let simple = crate::batch::is_simple(&formula)
            && plan.len() == formula.terms.len()
            && plan
                .iter()
                .enumerate()
                .all(|(i, n)| n.term == i && n.count > 0);
        Ok(Self {
            formula,
            plan,
            simple,
        })
    }

    pub fn shape(&self) -> Shape {
        Shape::of(&self.formula)
    }

    /// Rolls from `seed` (as `roll` does for a `dice` request) into `out`, replacing what was
    /// there.
    pub fn roll_into(&self, seed: u64, buf: &mut FlatOut) -> Result<()> {
        let mut rng = DiceRng::from_seed(seed)?;
        if self.simple {
            return self.roll_simple(&mut rng, seed, buf);
        }
        let out = &mut buf.numbers;
        let (eval, faces) = roll_formula(&self.formula, &mut rng)?;
        out.clear();
        out.push(seed as f64);
        out.push(eval.total as f64);
        out.push(faces.len() as f64);
        for batch in &faces {
            out.push(batch.len() as f64);
            out.extend(batch.iter().map(|&f| f as f64));
        }
        out.push(eval.terms.len() as f64);
        for term in &eval.terms {
            write_term(out, term.total, &term.results);
        }
        Ok(())
    }

    /// [`FlatRoller::roll_into`] for a simple formula: the same draws and the same outcome as
    /// resolution gives (each term's faces, then its modifiers in order, Foundry's way).
    fn roll_simple(&self, rng: &mut DiceRng, seed: u64, buf: &mut FlatOut) -> Result<()> {
        let FlatOut {
            numbers: out,
            results,
            totals,
        } = buf;
        out.clear();
        out.extend([seed as f64, 0.0, self.plan.len() as f64]);
        for need in &self.plan {
            out.push(f64::from(need.count));
            out.extend((0..need.count).map(|_| rng.die(need.die) as f64));
        }
        out.push(self.plan.len() as f64);
        totals.clear();
        let mut at = 3;
        for (need, term) in self.plan.iter().zip(&self.formula.terms) {
            let n = need.count as usize;
            results.clear();
            results.extend(
                out[at + 1..at + 1 + n]
                    .iter()
                    .map(|&v| DieResult::new(v as i64, 0)),
            );
            at += 1 + n;
            let total = resolve::settle(results, &term.modifiers);
            totals.push(Some(total));
            write_term(out, total, results);
        }
        let total = resolve::eval(&self.formula.expr, totals)?
            .ok_or_else(|| crate::error::Error::request("the formula could not be completed"))?;
        out[1] = resolve::check_safe(total)? as f64;
        Ok(())
    }
}

/// A term's total, its result count and each result's value, flags and count.
fn write_term(out: &mut Vec<f64>, total: i64, results: &[DieResult]) {
    out.extend([total as f64, results.len() as f64]);
    for r in results {
        out.extend([
            r.value as f64,
            f64::from(flags(r)),
            r.count.unwrap_or(0) as f64,
        ]);
    }
}

fn flags(r: &DieResult) -> u32 {
    let bit = |on: bool, b: u32| if on { b } else { 0 };
    bit(r.active, ACTIVE)
        | bit(r.exploded, EXPLODED)
        | bit(r.rerolled, REROLLED)
        | bit(r.discarded, DISCARDED)
        | r.success.map_or(0, |s| HAS_SUCCESS | bit(s, SUCCESS))
        | r.failure.map_or(0, |f| HAS_FAILURE | bit(f, FAILURE))
        | bit(r.count.is_some(), HAS_COUNT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{self, Prepared, Request};
    use serde_json::{json, Map, Value};

    /// Reads the flat numbers back into the JSON `roll` returns, the way the JS builder does.
    fn rebuild(shape: &Shape, f: &[f64]) -> Value {
        let mut i = 0;
        let mut next = || {
            i += 1;
            f[i - 1]
        };
        let seed = next();
        let total = next();
        let faces: Vec<Value> = (0..next() as usize)
            .map(|_| {
                json!((0..next() as usize)
                    .map(|_| next() as i64)
                    .collect::<Vec<_>>())
            })
            .collect();
        let terms: Vec<Value> = (0..next() as usize)
            .map(|t| {
                let mut term = Map::new();
                term.insert("notation".into(), json!(shape.terms[t].notation));
                if let Some(fl) = &shape.terms[t].flavor {
                    term.insert("flavor".into(), json!(fl));
                }
                term.insert("total".into(), json!(next() as i64));
                let results: Vec<Value> = (0..next() as usize)
                    .map(|_| {
                        let (value, fl, count) = (next() as i64, next() as u32, next() as i64);
                        let mut r = Map::new();
                        r.insert("value".into(), json!(value));
                        r.insert("active".into(), json!(fl & ACTIVE != 0));
                        if fl & HAS_COUNT != 0 {
                            r.insert("count".into(), json!(count));
                        }
                        for (bit, key) in [
                            (EXPLODED, "exploded"),
                            (REROLLED, "rerolled"),
                            (DISCARDED, "discarded"),
                        ] {
                            if fl & bit != 0 {
                                r.insert(key.into(), json!(true));
                            }
                        }
                        if fl & HAS_SUCCESS != 0 {
                            r.insert("success".into(), json!(fl & SUCCESS != 0));
                        }
                        if fl & HAS_FAILURE != 0 {
                            r.insert("failure".into(), json!(fl & FAILURE != 0));
                        }
                        Value::Object(r)
                    })
                    .collect();
                term.insert("results".into(), json!(results));
                Value::Object(term)
            })
            .collect();
        assert_eq!(i, f.len(), "every number read");
        json!({"kind": "dice", "total": total as i64, "faces": faces, "seed": seed as u64,
               "formula": shape.formula, "terms": terms})
    }

    #[test]
    fn flat_rolls_read_back_as_the_outcome_roll_returns() {
        let formulas = [
            "1d20+3",
            "4d6kh3",
            "10d6x",
            "3d6cs>=5",
            "2d20kl1 + 1d4[fire] - 2",
            "4dF",
            "6d10r<2",
            "5d6xo",
            "3d8min3max6",
            "(1d4)d6",
            "8d6cf<2df=1",
            "d100 + d%",
            "7",
            "2d6rr=1[cold] * 2",
            "4d6dl1 + 4d6dh1",
            "3d6cs>4cf<3",
            "10d10x10kh3",
        ];
        let mut out = FlatOut::default();
        for text in formulas {
            let request = Request::Dice {
                formula: text.into(),
            };
            let prepared = Prepared::new(&request).unwrap();
            let roller = FlatRoller::new(Rc::new(prepared.formula().clone())).unwrap();
            let shape = roller.shape();
            for seed in [0u64, 1, 7, 42, 99_999, (1 << 53) - 1] {
                roller.roll_into(seed, &mut out).unwrap();
                let expected =
                    serde_json::to_value(request::roll(&prepared, seed).unwrap()).unwrap();
                assert_eq!(
                    rebuild(&shape, &out.numbers),
                    expected,
                    "{text} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn errors_are_the_ones_roll_gives() {
        let mut out = FlatOut::default();
        // 10,001 dice: more than a roll may roll
        let request = Request::Dice {
            formula: format!("{}1d6x", "1000d6 + ".repeat(10)),
        };
        let prepared = Prepared::new(&request).unwrap();
        let ours = FlatRoller::new(Rc::new(prepared.formula().clone())).unwrap_err();
        let theirs = request::roll(&prepared, 5).unwrap_err();
        assert_eq!(ours.message(), theirs.message());
        let roller = FlatRoller::new(Rc::new(crate::dice::parse("1d6").unwrap())).unwrap();
        assert!(roller.roll_into(1 << 53, &mut out).is_err());
        // an explosion chain past the cap is refused mid-roll, as `roll` refuses it
        let request = Request::Dice {
            formula: format!("{}1d2x", "1000d6 + ".repeat(9)),
        };
        let prepared = Prepared::new(&request).unwrap();
        let roller = FlatRoller::new(Rc::new(prepared.formula().clone())).unwrap();
        for seed in 0..20 {
            let ours = roller.roll_into(seed, &mut out).map(|_| out.numbers[1]);
            let theirs = request::roll(&prepared, seed).map(|d| d.total as f64);
            assert_eq!(
                ours.map_err(|e| e.message().to_string()),
                theirs.map_err(|e| e.message().to_string())
            );
        }
    }
}
