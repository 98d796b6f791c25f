//! Exact odds of a formula: the distribution of its total, never by simulation.
//!
//! Each dice term is an independent random variable (see [`term`]); constants are points; sums
//! convolve; products and floor-divisions combine pairwise. The computation runs once in exact
//! `u128` rationals and, when those overflow or take too long, again in `f64`.

pub mod dist;
pub mod kernel;
pub mod num;
mod term;

use self::dist::{Budget, Dist, Fail, Res};
use self::num::{Num, Ratio};
use super::ast::*;
use crate::error::{Error, Result};

/// The distribution of a formula's total, in floats and (when it fits) exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// `(total, probability)` for every total with non-zero probability, ascending.
    pub totals: Vec<(i64, f64)>,
    /// The same, exactly, when every probability fits in `u128` rationals.
    pub exact: Option<Vec<(i64, Ratio)>>,
}

impl Distribution {
    pub fn mean(&self) -> f64 {
        self.totals.iter().map(|(v, p)| *v as f64 * p).sum()
    }
    pub fn sd(&self) -> f64 {
        let m = self.mean();
        self.totals
            .iter()
            .map(|(v, p)| (*v as f64 - m).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    }
    /// The exact mean as a reduced fraction string (`"15869/1296"`, `"-7/2"`).
    pub fn exact_mean(&self) -> Option<String> {
        let exact = self.exact.as_ref()?;
        if let Some(mean) = mean_over_common_denominator(exact) {
            return Some(mean);
        }
        let (mut pos, mut neg) = (Ratio::zero(), Ratio::zero());
        for (v, p) in exact {
            let term = p.mul(Ratio::big(u128::from(v.unsigned_abs()))?)?;
            if *v >= 0 {
                pos = pos.add(term)?;
            } else {
                neg = neg.add(term)?;
            }
        }
        Some(if pos.to_f64() >= neg.to_f64() && pos.sub(neg).is_some() {
            pos.sub(neg)?.to_string()
        } else {
            format!("-{}", neg.sub(pos)?)
        })
    }
    /// P(predicate(total)), in floats and exactly.
    pub fn probability(&self, pred: impl Fn(i64) -> bool) -> (f64, Option<Ratio>) {
        let p = self
            .totals
            .iter()
            .filter(|(v, _)| pred(*v))
            .map(|(_, p)| p)
            .sum();
        let exact = self.exact.as_ref().and_then(|e| {
            e.iter()
                .filter(|(v, _)| pred(*v))
                .try_fold(Ratio::zero(), |acc, (_, p)| acc.add(*p))
        });
        (p, exact)
    }
}

/// `Σ v·p` as integer multiply-adds over the least common denominator (one reduction in all,
/// instead of a reduced multiplication and addition per total); `None` when it leaves `u128`.
fn mean_over_common_denominator(exact: &[(i64, Ratio)]) -> Option<String> {
    let probabilities: Vec<Ratio> = exact.iter().map(|(_, p)| *p).collect();
    let (den, nums) = num::common_denominator(&probabilities)?;
    let (mut pos, mut neg) = (0u128, 0u128);
    for ((v, _), n) in exact.iter().zip(nums) {
        let term = u128::from(v.unsigned_abs()).checked_mul(n)?;
        if *v >= 0 {
            pos = pos.checked_add(term)?;
        } else {
            neg = neg.checked_add(term)?;
        }
    }
    Some(if pos >= neg {
        Ratio::ratio_u128(pos - neg, den)?.to_string()
    } else {
        format!("-{}", Ratio::ratio_u128(neg - pos, den)?)
    })
}

impl Distribution {
    /// Wraps an exact distribution computed by a rule of its own.
    pub fn from_exact(d: &Dist<Ratio>) -> Self {
        let exact: Vec<(i64, Ratio)> = d.points().collect();
        Self {
            totals: exact.iter().map(|(v, p)| (*v, p.to_f64())).collect(),
            exact: Some(exact),
        }
    }
}

/// The exact distribution of `formula`'s total.
pub fn distribution(formula: &Formula) -> Result<Distribution> {
    match expr_dist::<Ratio>(formula, &formula.expr, &mut Budget::new(true)) {
        Ok(d) => {
            // sized up front: the widest answer (1d2048) should not grow a vector a dozen times
            let mut exact: Vec<(i64, Ratio)> = Vec::with_capacity(d.p.len());
            exact.extend(d.points());
            drop(d);
            Ok(Distribution {
                totals: exact.iter().map(|(v, p)| (*v, p.to_f64())).collect(),
                exact: Some(exact),
            })
        }
        Err(Fail::Limit(e)) => Err(e),
        Err(Fail::Inexact) => {
            match expr_dist::<f64>(formula, &formula.expr, &mut Budget::new(false)) {
                Ok(d) => Ok(Distribution {
                    totals: d.points().collect(),
                    exact: None,
                }),
                Err(Fail::Limit(e)) => Err(e),
                Err(Fail::Inexact) => Err(Error::odds(
                    "the odds of this formula could not be computed",
                )),
            }
        }
    }
}

/// Budget steps per step of a term whose dice count is itself rolled (`(2d4)d6`), see
/// [`expr_dist`].
const COUNTED_STEPS: u64 = 3;

fn limit(message: String) -> Fail {
    Fail::Limit(Error::odds(message))
}

fn expr_dist<N: Num>(f: &Formula, e: &Expr, budget: &mut Budget) -> Res<Dist<N>> {
    Ok(match e {
        Expr::Const { value, .. } => Dist::point(*value),
        Expr::Group { inner, .. } => expr_dist(f, inner, budget)?,
        Expr::Neg(inner) => expr_dist(f, inner, budget)?.negate(),
        Expr::Term(i) => {
            let term = f
                .terms
                .get(*i)
                .ok_or_else(|| limit("the formula refers to a missing term".to_string()))?;
            match &term.count {
                Count::Fixed(n) => term::term_dist(term, *n, budget)?,
                Count::Expr(count) => {
                    let counts = expr_dist::<N>(f, count, budget)?;
                    let mut out = Dist {
                        offset: 0,
                        p: Vec::new(),
                    };
                    for (n, p) in counts.points() {
                        if !(0..=i64::from(MAX_DICE_PER_TERM)).contains(&n) {
                            return Err(limit(format!(
                                "the dice count of {} can come to {n}; a term rolls 0 to {MAX_DICE_PER_TERM} dice",
                                f.term_notation(*i)
                            )));
                        }
                        // each count's dice computed afresh, in many short calls that a first
                        // call runs in wasm's baseline code: charged three times their steps
                        let left = budget.left();
                        let d = term::term_dist(term, n as u32, budget)?;
                        budget.spend((left - budget.left()).saturating_mul(COUNTED_STEPS - 1))?;
                        out.add_scaled(&d, p, budget)?;
                    }
                    out
                }
            }
        }
        Expr::Bin(op, a, b) => {
            let (a, b) = (expr_dist::<N>(f, a, budget)?, expr_dist::<N>(f, b, budget)?);
            match op {
                BinOp::Add => a.convolve(&b, budget)?,
                BinOp::Sub => a.convolve(&b.negate(), budget)?,
                BinOp::Mul | BinOp::Div => a.combine(&b, budget, |x, y| {
                    op.apply(x, y).ok_or_else(|| {
                        if *op == BinOp::Div {
                            limit(format!("the formula can divide by zero ({x} / {y})"))
                        } else {
                            limit(format!("{x} {} {y} is out of range", op.symbol()))
                        }
                    })
                })?,
            }
        }
    })
}
