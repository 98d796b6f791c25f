//! Dense probability distributions over consecutive integers, and the limits on computing them.

use super::num::{Convolved, Num};
use crate::error::Error;

/// Why a distribution could not be computed.
#[derive(Debug, Clone, PartialEq)]
pub enum Fail {
    /// Exact arithmetic left `u128` (or its step budget): fall back to floats.
    Inexact,
    /// Outside the limits whatever the arithmetic: a clear error for the caller.
    Limit(Error),
}

pub type Res<T> = Result<T, Fail>;

/// Lifts an exact-arithmetic `Option` into [`Res`].
pub fn ok<T>(v: Option<T>) -> Res<T> {
    v.ok_or(Fail::Inexact)
}

/// No distribution may span more values than this.
pub const MAX_SUPPORT: usize = 1 << 22;

/// A count of elementary steps left; running out is a limit, not a wrong answer.
#[derive(Debug, Clone)]
pub struct Budget {
    left: u64,
    exact: bool,
}

impl Budget {
    /// Steps allowed for float arithmetic (about a second of work in wasm).
    pub const FLOAT: u64 = 300_000_000;
    /// Steps allowed for exact arithmetic, which costs more per step; beyond it floats take over.
    pub const EXACT: u64 = 8_000_000;

    pub fn new(exact: bool) -> Self {
        Self {
            left: if exact { Self::EXACT } else { Self::FLOAT },
            exact,
        }
    }
    pub fn spend(&mut self, steps: u64) -> Res<()> {
        if steps > self.left {
            self.left = 0;
            return Err(if self.exact {
                Fail::Inexact
            } else {
                Fail::Limit(Error::odds(
                    "the exact odds of this formula take too long to compute (too many dice or faces combined)",
                ))
            });
        }
        self.left -= steps;
        Ok(())
    }
}

fn too_wide() -> Fail {
    Fail::Limit(Error::odds(format!(
        "the exact odds of this formula span more than {MAX_SUPPORT} possible totals"
    )))
}

/// `p[i]` is the probability of `offset + i`. May be a sub-distribution while being built.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist<N> {
    pub offset: i64,
    pub p: Vec<N>,
}

impl<N: Num> Dist<N> {
    pub fn point(v: i64) -> Self {
        Self {
            offset: v,
            p: vec![N::one()],
        }
    }

    /// An all-zero distribution over `[lo, hi]`.
    pub fn zeros(lo: i64, hi: i64) -> Res<Self> {
        let len = hi
            .checked_sub(lo)
            .and_then(|d| usize::try_from(d).ok())
            .and_then(|d| d.checked_add(1))
            .filter(|l| *l <= MAX_SUPPORT)
            .ok_or_else(too_wide)?;
        Ok(Self {
            offset: lo,
            p: vec![N::zero(); len],
        })
    }

    pub fn lo(&self) -> i64 {
        self.offset
    }
    pub fn hi(&self) -> i64 {
        self.offset + self.p.len() as i64 - 1
    }

    /// Adds `w · other` into `self`, widening as needed.
    pub fn add_scaled(&mut self, other: &Self, w: N) -> Res<()> {
        if other.p.is_empty() {
            return Ok(());
        }
        if self.p.is_empty() {
            *self = Self::zeros(other.lo(), other.hi())?;
        }
        let lo = self.lo().min(other.lo());
        let hi = self.hi().max(other.hi());
        if lo < self.lo() || hi > self.hi() {
            let mut wide = Self::zeros(lo, hi)?;
            let at = (self.offset - lo) as usize;
            wide.p[at..at + self.p.len()].copy_from_slice(&self.p);
            *self = wide;
        }
        let at = (other.offset - self.offset) as usize;
        for (slot, q) in self.p[at..].iter_mut().zip(&other.p) {
            if !q.is_zero() {
                *slot = ok(slot.add(ok(q.mul(w))?))?;
            }
        }
        Ok(())
    }

    /// The distribution of the sum of independent draws from `self` and `other`.
    pub fn convolve(&self, other: &Self, budget: &mut Budget) -> Res<Self> {
        let (small, large) = if self.p.len() <= other.p.len() {
            (self, other)
        } else {
            (other, self)
        };
        let nonzero: Vec<(usize, N)> = small
            .p
            .iter()
            .enumerate()
            .filter(|(_, q)| !q.is_zero())
            .map(|(i, q)| (i, *q))
            .collect();
        budget.spend((nonzero.len() as u64).saturating_mul(large.p.len() as u64))?;
        if let [(i, q)] = nonzero.as_slice() {
            if *q == N::one() {
                // adding a constant: a shift, not a pass of multiplications
                let offset = (small.lo() + *i as i64)
                    .checked_add(large.lo())
                    .ok_or_else(too_wide)?;
                return Ok(Self {
                    offset,
                    p: large.p.clone(),
                });
            }
        }
        let lo = small.lo().checked_add(large.lo()).ok_or_else(too_wide)?;
        let hi = small.hi().checked_add(large.hi()).ok_or_else(too_wide)?;
        let mut out = Self::zeros(lo, hi)?;
        match N::convolve_slices(&small.p, &large.p) {
            Convolved::Done(p) => {
                out.p = p;
                return Ok(out);
            }
            Convolved::Overflow => return Err(Fail::Inexact),
            Convolved::Unsupported => {}
        }
        for (i, q) in nonzero {
            for (slot, r) in out.p[i..].iter_mut().zip(&large.p) {
                if !r.is_zero() {
                    *slot = ok(slot.add(ok(q.mul(*r))?))?;
                }
            }
        }
        Ok(out)
    }

    /// The `n`-fold sum of independent draws (`n = 0` is the point 0).
    pub fn power(&self, n: u32, budget: &mut Budget) -> Res<Self> {
        if n == 0 {
            return Ok(Self::point(0));
        }
        let mut acc = self.clone();
        for _ in 1..n {
            acc = acc.convolve(self, budget)?;
        }
        Ok(acc)
    }

    pub fn negate(&self) -> Self {
        let mut p = self.p.clone();
        p.reverse();
        Self {
            offset: -self.hi(),
            p,
        }
    }

    /// The distribution of `f(a, b)` for independent `a ~ self`, `b ~ other`.
    pub fn combine(
        &self,
        other: &Self,
        budget: &mut Budget,
        f: impl Fn(i64, i64) -> Result<i64, Fail>,
    ) -> Res<Self> {
        budget.spend((self.p.len() as u64).saturating_mul(other.p.len() as u64))?;
        let mut points: Vec<(i64, N)> = Vec::new();
        for (i, a) in self.p.iter().enumerate().filter(|(_, a)| !a.is_zero()) {
            for (j, b) in other.p.iter().enumerate().filter(|(_, b)| !b.is_zero()) {
                let v = f(self.offset + i as i64, other.offset + j as i64)?;
                points.push((v, ok(a.mul(*b))?));
            }
        }
        Self::from_points(points)
    }

    /// Builds a distribution from weighted points (repeated values add up).
    pub fn from_points(points: Vec<(i64, N)>) -> Res<Self> {
        let (Some(lo), Some(hi)) = (
            points.iter().map(|p| p.0).min(),
            points.iter().map(|p| p.0).max(),
        ) else {
            return Ok(Self {
                offset: 0,
                p: Vec::new(),
            });
        };
        let mut out = Self::zeros(lo, hi)?;
        for (v, w) in points {
            let slot = &mut out.p[(v - lo) as usize];
            *slot = ok(slot.add(w))?;
        }
        Ok(out)
    }

    /// The non-zero points, ascending.
    pub fn points(&self) -> impl Iterator<Item = (i64, N)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, q)| !q.is_zero())
            .map(|(i, q)| (self.offset + i as i64, *q))
    }
}
