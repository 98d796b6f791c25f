//! Dense probability distributions over consecutive integers, and the limits on computing them.

use super::kernel;
use super::num::{Num, View};
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

/// No distribution may span more values than this on the way to an answer: it bounds what each
/// step allocates (a wider one, `1d1000000`, `1d2000 * 1d2000`, is refused before any work).
/// The answer itself holds at most [`MAX_TOTALS`].
pub const MAX_SUPPORT: usize = 1 << 13;

/// An answer has at most this many possible totals. Handing one over costs about a microsecond
/// a total once warm and several on a first call (its probability as a float and a fraction
/// written as JSON, then `JSON.parse` in JS; more for fractions past `u64`), so 2,048 keep the
/// first call of `1d2048` within a frame. `409d6` has 2,046 totals; no game's dice come near them.
pub const MAX_TOTALS: usize = 1 << 11;

/// The refusal of an answer of `totals` possible totals, past [`MAX_TOTALS`].
pub fn too_many_totals(totals: usize) -> Error {
    Error::odds(format!(
        "the odds of this formula have {totals} possible totals; an answer holds at most {MAX_TOTALS}"
    ))
}

/// A count of elementary steps left; running out is a limit, not a wrong answer.
///
/// A step is about one float multiply-add of a kernel in wasm (2–4 ns in node on a shared 2 GHz
/// Xeon, measured with `bench/run.mjs`); the kernels charge before they work, so a refusal is
/// quick. The cost of handing the answer over is not counted here: [`MAX_TOTALS`] bounds it.
#[derive(Debug, Clone)]
pub struct Budget {
    left: u64,
    exact: bool,
}

impl Budget {
    /// Steps allowed for float arithmetic: every step is charged at what it costs on a first
    /// call, the code still cold, so an accepted request is answered within a frame, 16 ms
    /// (`npm run bench`, "The first call of the largest legal request"): `400d6`, `140d6kh70`
    /// and `3d6x` are answered, `1000d6`, `10d6x` and `1000d4xo` refused.
    pub const FLOAT: u64 = 8_000_000;
    /// Steps allowed for exact arithmetic, which costs more per step; beyond it floats take over.
    /// Overflow is found before the work (every kernel bounds its counts first), so a failed
    /// exact attempt costs little.
    pub const EXACT: u64 = 3_000_000;
    /// Steps per pair of possible values of a product or quotient (the function, a slot, a
    /// multiply-add).
    pub const PER_PAIR: u64 = 1;

    pub fn new(exact: bool) -> Self {
        Self {
            left: if exact { Self::EXACT } else { Self::FLOAT },
            exact,
        }
    }
    /// The steps left.
    pub fn left(&self) -> u64 {
        self.left
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

/// Budget steps of a kernel's step counting in `u128` instead of `u64` or `f64`: in wasm each
/// multiplication is a library call and each addition two operations.
pub const WIDE_STEPS: u64 = 8;

/// Charges the rest of [`WIDE_STEPS`] for `steps` steps already charged when exact counts over
/// `den` (the bound of every count) leave `u64`, so the kernel counts in `u128`.
pub(super) fn charge_wide(budget: &mut Budget, den: u128, steps: u64) -> Res<()> {
    if den > u128::from(u64::MAX) {
        budget.spend(steps.saturating_mul(WIDE_STEPS - 1))?;
    }
    Ok(())
}

pub(super) fn too_wide() -> Fail {
    Fail::Limit(Error::odds(format!(
        "the exact odds of this formula span more than {MAX_SUPPORT} possible totals"
    )))
}

/// The number of values in `[lo, hi]`, or the "too wide" limit.
pub fn span(lo: i64, hi: i64) -> Res<usize> {
    hi.checked_sub(lo)
        .and_then(|d| usize::try_from(d).ok())
        .and_then(|d| d.checked_add(1))
        .filter(|l| *l <= MAX_SUPPORT)
        .ok_or_else(too_wide)
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
        let len = span(lo, hi)?;
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

    /// Adds `w · other` into `self`, widening as needed (charged for the copy that widening
    /// makes and the pass, before either).
    pub fn add_scaled(&mut self, other: &Self, w: N, budget: &mut Budget) -> Res<()> {
        budget.spend(((self.p.len() + other.p.len()) as u64).saturating_mul(N::ADD_STEPS))?;
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
        let nonzero = small.p.iter().filter(|q| !q.is_zero()).count();
        let steps = (nonzero as u64).saturating_mul(large.p.len() as u64);
        budget.spend(steps)?;
        // the views of both and the answer back from counts
        budget.spend((2 * (small.p.len() + large.p.len()) as u64).saturating_mul(N::VIEW_STEPS))?;
        if nonzero == 1 {
            if let Some(i) = small.p.iter().position(|q| *q == N::one()) {
                // adding a constant: a shift, not a pass of multiplications
                let offset = (small.lo() + i as i64)
                    .checked_add(large.lo())
                    .ok_or_else(too_wide)?;
                return Ok(Self {
                    offset,
                    p: large.p.clone(),
                });
            }
        }
        if nonzero == 0 || large.p.is_empty() {
            return Ok(Self {
                offset: 0,
                p: Vec::new(),
            });
        }
        let lo = small.lo().checked_add(large.lo()).ok_or_else(too_wide)?;
        let hi = small.hi().checked_add(large.hi()).ok_or_else(too_wide)?;
        span(lo, hi)?;
        let p = match (N::view(&small.p), N::view(&large.p)) {
            (Some(View::Counts { den: da, nums: a }), Some(View::Counts { den: db, nums: b })) => {
                let den = ok(da.checked_mul(db))?;
                charge_wide(budget, den, steps)?;
                ok(N::from_counts(ok(kernel::convolve_counts(&a, &b))?, den))?
            }
            (Some(View::Float(a)), Some(View::Float(b))) => {
                ok(N::from_floats(kernel::convolve_f64(&a, &b)))?
            }
            _ => return Err(Fail::Inexact),
        };
        Ok(Self { offset: lo, p })
    }

    /// The `n`-fold sum of independent draws (`n = 0` is the point 0): a plain die by window
    /// sums, anything else die by die, exact in counts over `den^n`. The budget is charged for
    /// the whole power before any work, so a refusal costs nothing.
    pub fn power(&self, n: u32, budget: &mut Budget) -> Res<Self> {
        if n == 0 {
            return Ok(Self::point(0));
        }
        if n == 1 || self.p.is_empty() {
            return Ok(self.clone());
        }
        let view = ok(N::view(&self.p))?;
        let (uniform, nonzero) = match &view {
            View::Counts { nums, .. } => (
                kernel::is_uniform(nums),
                nums.iter().filter(|x| **x != 0).count(),
            ),
            View::Float(v) => (
                kernel::is_uniform(v),
                v.iter().filter(|x| **x != 0.0).count(),
            ),
        };
        // exact: every count is at most den^n, the number of all rolls, which must fit
        let total = match &view {
            View::Counts { den, .. } => ok(den.checked_pow(n))?,
            View::Float(_) => 0,
        };
        let steps = kernel::power_cost(self.p.len(), nonzero, uniform, n);
        budget.spend(steps)?;
        // the view, and the answer of n·(len − 1) + 1 values back from counts
        let values = (self.p.len() as u64).saturating_mul(u64::from(n) + 1);
        budget.spend(values.saturating_mul(N::VIEW_STEPS))?;
        charge_wide(budget, total, steps)?;
        let lo = self.lo().checked_mul(i64::from(n)).ok_or_else(too_wide)?;
        let hi = self.hi().checked_mul(i64::from(n)).ok_or_else(too_wide)?;
        span(lo, hi)?;
        let p = match view {
            View::Counts { nums, .. } => {
                ok(N::from_counts(ok(kernel::power_counts(&nums, n))?, total))?
            }
            View::Float(v) => ok(N::from_floats(kernel::power_f64(&v, n)))?,
        };
        Ok(Self { offset: lo, p })
    }

    pub fn negate(&self) -> Self {
        let mut p = self.p.clone();
        p.reverse();
        Self {
            offset: -self.hi(),
            p,
        }
    }

    /// The distribution of `f(a, b)` for independent `a ~ self`, `b ~ other`: the values first
    /// (one pass of `f`, which also gives the range), then the probabilities as products of
    /// counts or floats ([`kernel::combine_counts`]).
    pub fn combine(
        &self,
        other: &Self,
        budget: &mut Budget,
        f: impl Fn(i64, i64) -> Result<i64, Fail>,
    ) -> Res<Self> {
        let support = |d: &Self| -> Vec<usize> {
            d.p.iter()
                .enumerate()
                .filter(|(_, q)| !q.is_zero())
                .map(|(i, _)| i)
                .collect()
        };
        let (ia, ib) = (support(self), support(other));
        let steps = (ia.len() as u64)
            .saturating_mul(ib.len() as u64)
            .saturating_mul(Budget::PER_PAIR);
        budget.spend(steps)?;
        // the views of both (the answer back from counts is charged once its width is known)
        budget.spend(((ia.len() + ib.len()) as u64).saturating_mul(N::VIEW_STEPS))?;
        let mut values = Vec::with_capacity(ia.len() * ib.len());
        for i in &ia {
            for j in &ib {
                values.push(f(self.offset + *i as i64, other.offset + *j as i64)?);
            }
        }
        let (Some(lo), Some(hi)) = (values.iter().min().copied(), values.iter().max().copied())
        else {
            return Ok(Self {
                offset: 0,
                p: Vec::new(),
            });
        };
        let len = span(lo, hi)?;
        budget.spend((len as u64).saturating_mul(N::VIEW_STEPS))?;
        // the slot of each pair's value, row by row
        let slots: Vec<usize> = values.iter().map(|v| (v - lo) as usize).collect();
        let pick = |d: &Self, idx: &[usize]| -> Vec<N> { idx.iter().map(|i| d.p[*i]).collect() };
        let p = match (N::view(&pick(self, &ia)), N::view(&pick(other, &ib))) {
            (Some(View::Counts { den: da, nums: a }), Some(View::Counts { den: db, nums: b })) => {
                let den = ok(da.checked_mul(db))?;
                charge_wide(budget, den, steps)?;
                ok(N::from_counts(
                    ok(kernel::combine_counts(&a, &b, &slots, len))?,
                    den,
                ))?
            }
            (Some(View::Float(a)), Some(View::Float(b))) => {
                ok(N::from_floats(kernel::combine_f64(&a, &b, &slots, len)))?
            }
            _ => return Err(Fail::Inexact),
        };
        Ok(Self { offset: lo, p })
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
