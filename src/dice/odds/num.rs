//! Probability arithmetic, generic over a float (always succeeds) and an exact rational (fails
//! cleanly when a numerator or denominator leaves `u128`). The same distribution code runs with
//! both; its inner loops ([`super::kernel`]) see exact vectors as integer counts over one
//! denominator ([`View`]), so exact odds cost checked multiply-adds, not a gcd per operation.

use std::fmt::Debug;

/// A probability type: `f64`, or [`Ratio`] with checked arithmetic (`None` = does not fit).
pub trait Num: Copy + Debug + PartialEq {
    /// Budget steps of adding `w·q` into a slot of a distribution (see
    /// [`Dist::add_scaled`](super::dist::Dist::add_scaled)), in multiply-adds of a float kernel.
    const ADD_STEPS: u64;
    /// Budget steps per value of turning a vector into a kernel's view and back ([`Num::view`],
    /// [`Num::from_counts`]): nothing for floats, a reduction (a gcd) for exact probabilities.
    const VIEW_STEPS: u64;
    fn zero() -> Self;
    fn one() -> Self;
    /// `n / d` (with `d > 0`).
    fn ratio(n: u64, d: u64) -> Option<Self>;
    fn add(self, other: Self) -> Option<Self>;
    /// `self − other`, for `self ≥ other`.
    fn sub(self, other: Self) -> Option<Self>;
    fn mul(self, other: Self) -> Option<Self>;
    /// `self / other` for `other > 0`.
    fn div(self, other: Self) -> Option<Self>;
    fn is_zero(self) -> bool;
    fn to_f64(self) -> f64;

    /// The binomial probability `C(n, j) q^j (1−q)^(n−j)`.
    fn binomial(n: u32, j: u32, q: Self) -> Option<Self> {
        let c = binomial_coefficient(n, j)?;
        let mut p = Self::big(c)?;
        let not_q = Self::one().sub(q)?;
        for _ in 0..j {
            p = p.mul(q)?;
        }
        for _ in 0..(n - j) {
            p = p.mul(not_q)?;
        }
        Some(p)
    }

    /// `[binomial(n, 0, q), ..., binomial(n, n, q)]`, the same values (`None` when any is).
    fn binomial_row(n: u32, q: Self) -> Option<Vec<Self>> {
        (0..=n).map(|j| Self::binomial(n, j, q)).collect()
    }
    /// The budget steps of [`binomial_row`](Num::binomial_row)`(n, _)`: exactly, `n + 1`
    /// coefficients of `n` reduced multiplications each.
    fn binomial_row_cost(n: u32) -> u64 {
        let n = u64::from(n);
        (n + 1)
            .saturating_mul(n + 1)
            .saturating_mul(RATIO_MUL_STEPS)
    }

    /// A large integer (a binomial coefficient beyond `u64`).
    fn big(n: u128) -> Option<Self>;

    /// How the kernels ([`super::kernel`]) see a vector: exact probabilities as counts over
    /// their least common denominator (`None` when it leaves `u128`), floats as they are.
    fn view(v: &[Self]) -> Option<View>;
    /// Back from a kernel's counts over `den` (`None`: does not fit).
    fn from_counts(nums: Vec<u128>, den: u128) -> Option<Vec<Self>>;
    /// Back from a kernel's floats (`None` for an exact type, which never asks).
    fn from_floats(v: Vec<f64>) -> Option<Vec<Self>>;
}

/// A vector of probabilities as the kernels compute with it.
#[derive(Debug, Clone, PartialEq)]
pub enum View {
    /// Exact: `nums[i] / den`.
    Counts {
        den: u128,
        nums: Vec<u128>,
    },
    Float(Vec<f64>),
}

/// Budget steps of a reduced multiplication of two [`Ratio`]s (two `u128` gcds; in wasm each
/// `u128` operation is several `i64` ones or a library call).
pub const RATIO_MUL_STEPS: u64 = 64;
/// Budget steps of an `exp` or a `ln` (in software in wasm).
pub const TRANSCENDENTAL_STEPS: u64 = 16;

/// `C(n, k)` exactly, or `None` beyond `u128`.
pub fn binomial_coefficient(n: u32, k: u32) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) stays integral at every step
        let num = u128::from(n - i);
        let g = gcd(c, u128::from(i + 1));
        let c_red = div(c, g);
        let den = div(u128::from(i + 1), g);
        c = c_red.checked_mul(div(num, den))?;
        if num % den != 0 {
            // den divides c_red * num; since gcd(c_red, den) = 1 it divides num
            return None;
        }
    }
    Some(c)
}

/// Greatest common divisor (binary algorithm), in `u64` when both fit: in wasm a `u128` shift or
/// subtraction is two `i64` operations and every probability here is usually far below 2^64.
pub fn gcd(a: u128, b: u128) -> u128 {
    if (a | b) >> 64 == 0 {
        return u128::from(gcd64(a as u64, b as u64));
    }
    let (mut a, mut b) = (a, b);
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
        if (a | b) >> 64 == 0 {
            return u128::from(gcd64(a as u64, b as u64)) << shift;
        }
    }
}

fn gcd64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `a / b` (`b > 0`), in `u64` when both fit: `u128` division is a library call (`__udivti3`),
/// the hottest function of exact odds before this.
#[inline]
pub fn div(a: u128, b: u128) -> u128 {
    if (a | b) >> 64 == 0 {
        u128::from(a as u64 / b as u64)
    } else {
        a / b
    }
}

impl Num for f64 {
    /// A slot at a time with a zero test, after widening the target by a copy into a new
    /// allocation: in wasm, on a first call, about sixteen multiply-adds of a kernel's loop.
    const ADD_STEPS: u64 = 16;
    const VIEW_STEPS: u64 = 0;
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn ratio(n: u64, d: u64) -> Option<Self> {
        Some(n as f64 / d as f64)
    }
    fn add(self, other: Self) -> Option<Self> {
        Some(self + other)
    }
    fn sub(self, other: Self) -> Option<Self> {
        Some((self - other).max(0.0))
    }
    fn mul(self, other: Self) -> Option<Self> {
        Some(self * other)
    }
    fn div(self, other: Self) -> Option<Self> {
        Some(if other == 0.0 { 0.0 } else { self / other })
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn big(n: u128) -> Option<Self> {
        Some(n as f64)
    }
    fn view(v: &[Self]) -> Option<View> {
        Some(View::Float(v.to_vec()))
    }
    fn from_counts(nums: Vec<u128>, den: u128) -> Option<Vec<Self>> {
        let d = den as f64;
        Some(nums.into_iter().map(|n| n as f64 / d).collect())
    }
    fn from_floats(v: Vec<f64>) -> Option<Vec<Self>> {
        Some(v)
    }
    /// In log space, so `C(1000, 500)·q^500` neither overflows nor underflows on the way.
    fn binomial(n: u32, j: u32, q: Self) -> Option<Self> {
        if j > n {
            return Some(0.0);
        }
        if q <= 0.0 {
            return Some(if j == 0 { 1.0 } else { 0.0 });
        }
        if q >= 1.0 {
            return Some(if j == n { 1.0 } else { 0.0 });
        }
        let ln = ln_choose(n, j) + f64::from(j) * q.ln() + f64::from(n - j) * (-q).ln_1p();
        Some(ln.exp())
    }
    /// A logarithm per half of the row and an exponential per entry.
    fn binomial_row_cost(n: u32) -> u64 {
        (u64::from(n) + 1).saturating_mul(TRANSCENDENTAL_STEPS)
    }
    /// The row with one logarithm per term of `ln C(n, ·)` instead of one per term of each
    /// coefficient: `ln_choose(n, k)` is a running sum, so its prefix sums are the very same
    /// floats, and every entry is computed as [`binomial`](Num::binomial) computes it, to the bit.
    fn binomial_row(n: u32, q: Self) -> Option<Vec<Self>> {
        if q <= 0.0 || q >= 1.0 {
            return (0..=n).map(|j| Self::binomial(n, j, q)).collect();
        }
        let (ln_q, ln_not_q) = (q.ln(), (-q).ln_1p());
        let mut ln_c = Vec::with_capacity(n as usize / 2 + 1);
        let mut sum = std::iter::empty::<f64>().sum::<f64>();
        ln_c.push(sum);
        for i in 0..n / 2 {
            sum += ln_choose_term(n, i);
            ln_c.push(sum);
        }
        Some(
            (0..=n)
                .map(|j| {
                    let ln = ln_c[j.min(n - j) as usize]
                        + f64::from(j) * ln_q
                        + f64::from(n - j) * ln_not_q;
                    ln.exp()
                })
                .collect(),
        )
    }
}

/// `ln C(n, k)` by summing logs (n ≤ a few thousand here, so this is exact enough and cheap).
fn ln_choose(n: u32, k: u32) -> f64 {
    let k = k.min(n - k);
    (0..k).map(|i| ln_choose_term(n, i)).sum()
}

/// The `i`-th term of [`ln_choose`]'s sum: `ln((n − i) / (i + 1))`.
fn ln_choose_term(n: u32, i: u32) -> f64 {
    (f64::from(n - i) / f64::from(i + 1)).ln()
}

/// An exact non-negative rational with `u128` parts, always reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    pub num: u128,
    pub den: u128,
}

impl Ratio {
    /// `num / den` reduced (`None` for `den = 0`).
    pub fn ratio_u128(num: u128, den: u128) -> Option<Self> {
        Self::new(num, den)
    }

    fn new(num: u128, den: u128) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Self {
            num: div(num, g),
            den: div(den, g),
        })
    }
}

impl Ratio {
    /// Both numerators over the least common denominator: `(a, b, lcd)`.
    fn over_common(self, o: Self) -> Option<(u128, u128, u128)> {
        if self.den == o.den {
            return Some((self.num, o.num, self.den));
        }
        let g = gcd(self.den, o.den);
        let l = div(self.den, g).checked_mul(o.den)?;
        Some((
            self.num.checked_mul(div(l, self.den))?,
            o.num.checked_mul(div(l, o.den))?,
            l,
        ))
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // u128 formatting divides in u128 (a library call in wasm); most parts fit u64
        if (self.num | self.den) >> 64 == 0 {
            write!(f, "{}/{}", self.num as u64, self.den as u64)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl Num for Ratio {
    /// A reduced multiplication and addition: a few `u128` gcds.
    const ADD_STEPS: u64 = 2 * RATIO_MUL_STEPS;
    const VIEW_STEPS: u64 = RATIO_MUL_STEPS;
    fn zero() -> Self {
        Self { num: 0, den: 1 }
    }
    fn one() -> Self {
        Self { num: 1, den: 1 }
    }
    fn ratio(n: u64, d: u64) -> Option<Self> {
        Self::new(u128::from(n), u128::from(d))
    }
    fn add(self, o: Self) -> Option<Self> {
        if self.num == 0 {
            return Some(o);
        }
        if o.num == 0 {
            return Some(self);
        }
        let (a, b, l) = self.over_common(o)?;
        Self::new(a.checked_add(b)?, l)
    }
    fn sub(self, o: Self) -> Option<Self> {
        if o.num == 0 {
            return Some(self);
        }
        let (a, b, l) = self.over_common(o)?;
        Self::new(a.checked_sub(b)?, l)
    }
    fn mul(self, o: Self) -> Option<Self> {
        if self.num == 0 || o.num == 0 {
            return Some(Self::zero());
        }
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        let num = div(self.num, g1).checked_mul(div(o.num, g2))?;
        let den = div(self.den, g2).checked_mul(div(o.den, g1))?;
        Some(Self { num, den })
    }
    fn div(self, o: Self) -> Option<Self> {
        if o.num == 0 {
            return None;
        }
        self.mul(Self {
            num: o.den,
            den: o.num,
        })
    }
    fn is_zero(self) -> bool {
        self.num == 0
    }
    fn to_f64(self) -> f64 {
        // Both parts may exceed f64's exact range; the quotient of the rounded parts is within
        // 2 ulp, and when both are huge, scale them down first so neither becomes infinite.
        if (self.num | self.den) >> 64 == 0 {
            // u128 to f64 is a library call in wasm
            return self.num as u64 as f64 / self.den as u64 as f64;
        }
        let (mut n, mut d) = (self.num, self.den);
        while d > (1u128 << 100) {
            n >>= 1;
            d >>= 1;
        }
        n as f64 / d as f64
    }
    fn big(n: u128) -> Option<Self> {
        Some(Self { num: n, den: 1 })
    }

    fn view(v: &[Self]) -> Option<View> {
        let (den, nums) = common_denominator(v)?;
        Some(View::Counts { den, nums })
    }
    /// One reduction per value, and none for the zeros.
    fn from_counts(nums: Vec<u128>, den: u128) -> Option<Vec<Self>> {
        nums.into_iter()
            .map(|n| {
                if n == 0 {
                    Some(Self::zero())
                } else {
                    Self::new(n, den)
                }
            })
            .collect()
    }
    fn from_floats(_: Vec<f64>) -> Option<Vec<Self>> {
        None
    }
}

/// The least common denominator of `v` and the numerators over it.
pub fn common_denominator(v: &[Ratio]) -> Option<(u128, Vec<u128>)> {
    let mut l: u128 = 1;
    for r in v.iter().filter(|r| r.num != 0) {
        if r.den != l {
            l = div(l, gcd(l, r.den)).checked_mul(r.den)?;
        }
    }
    let nums = v
        .iter()
        .map(|r| {
            if r.num == 0 {
                Some(0)
            } else if r.den == l {
                Some(r.num)
            } else {
                r.num.checked_mul(div(l, r.den))
            }
        })
        .collect::<Option<Vec<u128>>>()?;
    Some((l, nums))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_coefficients_match_pascal() {
        let mut row = vec![1u128];
        for n in 1..=120u32 {
            let mut next = vec![1u128; n as usize + 1];
            for k in 1..n as usize {
                next[k] = row[k - 1] + row[k];
            }
            row = next;
            for (k, v) in row.iter().enumerate() {
                assert_eq!(binomial_coefficient(n, k as u32), Some(*v), "C({n},{k})");
            }
        }
        assert_eq!(binomial_coefficient(1000, 500), None);
    }

    #[test]
    fn ratio_arithmetic_reduces_and_detects_overflow() {
        let a = Ratio::ratio(1, 6).unwrap();
        let b = Ratio::ratio(1, 3).unwrap();
        assert_eq!(a.add(b), Ratio::ratio(1, 2));
        assert_eq!(b.sub(a), Ratio::ratio(1, 6));
        assert_eq!(a.mul(b), Ratio::ratio(1, 18));
        assert_eq!(a.div(b), Ratio::ratio(1, 2));
        let tiny = Ratio {
            num: 1,
            den: u128::MAX / 2,
        };
        assert_eq!(tiny.mul(tiny), None);
    }

    #[test]
    fn a_binomial_row_is_each_binomial_to_the_bit() {
        for n in [0, 1, 2, 7, 40, 99, 100, 1000] {
            for q in [0.0, 1e-300, 1.0 / 6.0, 2.0 / 7.0, 0.5, 1.0 - 1e-12, 1.0] {
                let row = f64::binomial_row(n, q).unwrap();
                assert_eq!(row.len(), n as usize + 1);
                for (j, p) in row.iter().enumerate() {
                    let one = f64::binomial(n, j as u32, q).unwrap();
                    assert_eq!(p.to_bits(), one.to_bits(), "n {n} q {q} j {j}");
                }
            }
        }
        let q = Ratio::ratio(2, 7).unwrap();
        let row = Ratio::binomial_row(12, q).unwrap();
        assert_eq!(row[3], Ratio::binomial(12, 3, q).unwrap());
    }

    #[test]
    fn float_binomial_agrees_with_exact() {
        for n in 0..30 {
            for j in 0..=n {
                let q = Ratio::ratio(2, 7).unwrap();
                let exact = Ratio::binomial(n, j, q).unwrap().to_f64();
                let float = f64::binomial(n, j, 2.0 / 7.0).unwrap();
                assert!(
                    (exact - float).abs() <= 1e-12 * exact.max(1e-300),
                    "{n} {j} {exact} {float}"
                );
            }
        }
    }
}
