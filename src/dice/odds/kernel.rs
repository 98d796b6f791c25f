//! The inner loops of exact odds, once per representation (see [`super::num::View`]):
//! exact probabilities as integer counts over one denominator (`u128`, every step checked, so
//! `None` means "does not fit": floats take over), floats as plain `f64` loops without a
//! reduction, an `Option` or a zero test per element.
//!
//! Integer counts are why exact odds are fast: a rational with its own reduced denominator costs
//! two or three `u128` gcds per multiply-add, a count costs one multiply-add. Each integer kernel
//! first bounds every number it will produce (the number of all rolls it counts, `D^n`): when the
//! bound does not fit `u128` it answers `None` at once, and when it fits `u64` it counts in `u64`
//! (in wasm a `u128` multiplication is a library call, `__multi3`). Below the bound the arithmetic
//! cannot overflow, so the inner loops need no checks.

/// The unsigned integers the exact kernels count in.
trait Word: Copy + PartialEq + Default {
    const ZERO: Self;
    const ONE: Self;
    /// Plain (wrapping) arithmetic: below the bound it is exact.
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
        }
    )*};
}
word!(u64, u128);

/// Runs a kernel on `v` in `u64` (`small`) when `bound` fits it, else in `u128` (`large`).
fn counted(
    bound: u128,
    v: &[u128],
    small: impl FnOnce(Vec<u64>) -> Vec<u64>,
    large: impl FnOnce(&[u128]) -> Vec<u128>,
) -> Vec<u128> {
    if bound <= u128::from(u64::MAX) {
        small(v.iter().map(|x| *x as u64).collect())
            .into_iter()
            .map(u128::from)
            .collect()
    } else {
        large(v)
    }
}

/// The full convolution of two count vectors (`None` when the counts can leave `u128`).
pub fn convolve_counts(a: &[u128], b: &[u128]) -> Option<Vec<u128>> {
    // every output is at most Σa·Σb
    let sum = |v: &[u128]| v.iter().try_fold(0u128, |s, x| s.checked_add(*x));
    let bound = sum(a)?.checked_mul(sum(b)?)?;
    if bound <= u128::from(u64::MAX) {
        let narrow = |v: &[u128]| v.iter().map(|x| *x as u64).collect::<Vec<u64>>();
        Some(
            convolve_words(&narrow(a), &narrow(b))
                .into_iter()
                .map(u128::from)
                .collect(),
        )
    } else {
        Some(convolve_words(a, b))
    }
}

fn convolve_words<W: Word>(a: &[W], b: &[W]) -> Vec<W> {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut out = vec![W::ZERO; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate().filter(|(_, x)| **x != W::ZERO) {
        for (slot, y) in out[i..].iter_mut().zip(b) {
            *slot = slot.add(x.mul(*y));
        }
    }
    out
}

/// `out[slots[i·|b| + j]] += a[i]·b[j]` over `len` slots: the probabilities of any function of
/// two independent values (`None` when the counts can leave `u128`).
pub fn combine_counts(a: &[u128], b: &[u128], slots: &[usize], len: usize) -> Option<Vec<u128>> {
    // every output is at most Σa·Σb
    let sum = |v: &[u128]| v.iter().try_fold(0u128, |s, x| s.checked_add(*x));
    let bound = sum(a)?.checked_mul(sum(b)?)?;
    let narrow = |v: &[u128]| v.iter().map(|x| *x as u64).collect::<Vec<u64>>();
    Some(if bound <= u128::from(u64::MAX) {
        combine_words(&narrow(a), &narrow(b), slots, len)
            .into_iter()
            .map(u128::from)
            .collect()
    } else {
        combine_words(a, b, slots, len)
    })
}

fn combine_words<W: Word>(a: &[W], b: &[W], slots: &[usize], len: usize) -> Vec<W> {
    let mut out = vec![W::ZERO; len];
    for (x, row) in a.iter().zip(slots.chunks_exact(b.len().max(1))) {
        for (y, slot) in b.iter().zip(row) {
            out[*slot] = out[*slot].add(x.mul(*y));
        }
    }
    out
}

/// [`combine_counts`] in floats.
pub fn combine_f64(a: &[f64], b: &[f64], slots: &[usize], len: usize) -> Vec<f64> {
    let mut out = vec![0.0; len];
    for (x, row) in a.iter().zip(slots.chunks_exact(b.len().max(1))) {
        for (y, slot) in b.iter().zip(row) {
            out[*slot] += x * y;
        }
    }
    out
}

/// The full convolution of two float vectors.
pub fn convolve_f64(a: &[f64], b: &[f64]) -> Vec<f64> {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate().filter(|(_, x)| **x != 0.0) {
        for (slot, y) in out[i..].iter_mut().zip(b) {
            *slot += x * y;
        }
    }
    out
}

/// Budget steps of one value of a plain die's power by window sums ([`power_f64`]): its four
/// passes (the blocks' prefix and suffix sums, the windows, the mirrored half) and a vector per
/// die take about as long in wasm, on a first call, as fourteen multiply-adds of a convolution.
pub const WINDOW_STEPS: u64 = 14;

/// The number of budget steps [`power_counts`] / [`power_f64`] take for `n` draws of a
/// distribution of `len` values of which `nonzero` are non-zero (the budget is charged first).
pub fn power_cost(len: usize, nonzero: usize, uniform: bool, n: u32) -> u64 {
    let (len, nonzero, n) = (len as u64, nonzero as u64, u64::from(n));
    // the draws 2..=n make vectors of k·(len−1)+1 values: one window sum each for a plain die,
    // `nonzero` multiply-adds each otherwise
    let values = (n.saturating_mul(n + 1) / 2)
        .saturating_sub(1)
        .saturating_mul(len.saturating_sub(1))
        .saturating_add(n.saturating_sub(1));
    values.saturating_mul(if uniform { WINDOW_STEPS } else { nonzero })
}

/// Whether every value of `p` has the same non-zero weight (a plain die): its powers are
/// window sums, one addition per value instead of one multiply-add per face.
pub fn is_uniform<T: PartialEq + Default>(p: &[T]) -> bool {
    p.first()
        .is_some_and(|f| *f != T::default() && p.iter().all(|x| x == f))
}

/// The `n`-fold self-convolution (`n ≥ 1`) of counts, die by die (`None` when the counts can
/// leave `u128`).
pub fn power_counts(p: &[u128], n: u32) -> Option<Vec<u128>> {
    // every output is at most (Σp)^n
    let bound = p
        .iter()
        .try_fold(0u128, |s, x| s.checked_add(*x))?
        .checked_pow(n)?;
    Some(counted(
        bound,
        p,
        |v| power_words(&v, n),
        |v| power_words(v, n),
    ))
}

fn power_words<W: Word>(p: &[W], n: u32) -> Vec<W> {
    if is_uniform(p) {
        // the counts of n dice with one weight each, times weight^n
        let w = p[0];
        let mut acc = vec![W::ONE; p.len()];
        for _ in 1..n {
            acc = window_words(&acc, p.len());
        }
        let scale = (0..n).fold(W::ONE, |s, _| s.mul(w));
        if scale != W::ONE {
            acc.iter_mut().for_each(|x| *x = x.mul(scale));
        }
        return acc;
    }
    let mut acc = p.to_vec();
    for _ in 1..n {
        acc = convolve_words(&acc, p);
    }
    acc
}

/// The `n`-fold self-convolution (`n ≥ 1`) of floats, die by die.
pub fn power_f64(p: &[f64], n: u32) -> Vec<f64> {
    let mut acc = p.to_vec();
    if is_uniform(p) {
        let (w, faces) = (p[0], p.len());
        let mut window = Window::default();
        for _ in 1..n {
            acc = window.sums(&acc, faces, w);
        }
        return acc;
    }
    for _ in 1..n {
        acc = convolve_f64(&acc, p);
    }
    acc
}

/// `out[i] = Σ cur[i−f+1 ..= i]` exactly, as a running sum.
fn window_words<W: Word>(cur: &[W], f: usize) -> Vec<W> {
    let mut out = Vec::with_capacity(cur.len() + f - 1);
    let mut run = W::ZERO;
    for i in 0..cur.len() + f - 1 {
        if let Some(x) = cur.get(i) {
            run = run.add(*x);
        }
        if let Some(x) = i.checked_sub(f).and_then(|j| cur.get(j)) {
            run = run.sub(*x);
        }
        out.push(run);
    }
    out
}

/// Window sums of floats without cancellation: a running sum that adds and subtracts would lose
/// the small tails (the subtraction of two nearly equal sums), so the padded vector is cut into
/// blocks of `f` and each window is a block suffix plus the next block's prefix, both sums of
/// positive terms only. A power of a die with equal weights is symmetric, so only the first half
/// is summed and the rest mirrored (which also keeps the float answer exactly symmetric).
#[derive(Default)]
struct Window {
    ext: Vec<f64>,
    prefix: Vec<f64>,
    suffix: Vec<f64>,
}

impl Window {
    /// The window sums of the symmetric `cur`, times `w`.
    fn sums(&mut self, cur: &[f64], f: usize, w: f64) -> Vec<f64> {
        let out_len = cur.len() + f - 1;
        let half = out_len.div_ceil(2);
        // ext = f−1 zeros, cur, zeros: whole blocks, one more than the windows of the first
        // half start in
        let len = (half.div_ceil(f) + 1) * f;
        self.ext.clear();
        self.ext.resize(f - 1, 0.0);
        self.ext
            .extend_from_slice(&cur[..cur.len().min(len - (f - 1))]);
        self.ext.resize(len, 0.0);
        self.prefix.clear();
        for block in self.ext.chunks_exact(f) {
            let mut run = 0.0;
            self.prefix.extend(block.iter().map(|x| {
                run += x;
                run
            }));
        }
        self.suffix.clear();
        self.suffix.resize(len, 0.0);
        for (block, sums) in self
            .ext
            .chunks_exact(f)
            .zip(self.suffix.chunks_exact_mut(f))
        {
            let mut run = 0.0;
            for (x, s) in block.iter().zip(sums.iter_mut()).rev() {
                run += x;
                *s = run;
            }
        }
        // the window at i·f is block i; the one at i·f + t is block i from t plus block i+1
        // up to t−1
        let mut out = Vec::with_capacity(out_len + f);
        for (suffix, next) in self
            .suffix
            .chunks_exact(f)
            .zip(self.prefix[f..].chunks_exact(f))
        {
            out.push(suffix[0] * w);
            out.extend(suffix[1..].iter().zip(next).map(|(a, b)| (a + b) * w));
        }
        out.truncate(half);
        let mirrored = out_len - half;
        out.extend_from_within(..mirrored);
        out[half..].reverse();
        out
    }
}

/// One value of a keep/drop programme: what a kept die with this value adds to the total, and
/// the value's weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Face<W> {
    pub add: i64,
    pub weight: W,
}

/// The total kept by "keep the first `k` of `n` i.i.d. dice" when the values are listed in the
/// order they are kept (highest first for keep-highest), as counts: the weights are integers
/// over a denominator `D`, the answer's counts are over `D^n` (its index 0 is the total
/// `k·min(add)`).
///
/// The state after some values is (dice `c < k` already placed, their kept total); placing `j`
/// more dice on the next value has `C(n−c, j)·w^j` ways, and once `c + j ≥ k` the kept total is
/// known and the other `n−c−j` dice take any later value (`B^(n−c−j)` ways, `B` the later
/// weights). The state is the kept dice only, never the whole pool.
pub fn keep_counts(faces: &[Face<u128>], n: u32, k: u32) -> Option<Vec<u128>> {
    let (lo, hi) = add_range(faces)?;
    let mut possible = faces.iter().filter(|f| f.weight != 0);
    if let (Some(one), None) = (possible.next(), possible.next()) {
        // one possible value: every kept die adds the same
        let width = usize::try_from(hi - lo).ok()?;
        let mut out = vec![0; width * k as usize + 1];
        out[usize::try_from(one.add - lo).ok()? * k as usize] = one.weight.checked_pow(n)?;
        return Some(out);
    }
    // every count, product and binomial coefficient below is at most D^n, the number of all
    // rolls (D ≥ 2 with two possible values or more)
    let d = faces
        .iter()
        .try_fold(0u128, |s, f| s.checked_add(f.weight))?;
    let bound = d.checked_pow(n)?;
    let weights: Vec<u128> = faces.iter().map(|f| f.weight).collect();
    let with = |w: Vec<u64>| {
        let faces: Vec<Face<u64>> = faces
            .iter()
            .zip(w)
            .map(|(f, weight)| Face { add: f.add, weight })
            .collect();
        keep_words(&faces, n, k)
    };
    Some(counted(bound, &weights, with, |_| keep_words(faces, n, k)))
}

fn keep_words<W: Word>(faces: &[Face<W>], n: u32, k: u32) -> Vec<W> {
    let (lo, hi) = add_range(faces).unwrap_or((0, 0));
    let width = (hi - lo) as usize;
    let (n, k) = (n as usize, k as usize);
    let pascal = pascal_rows::<W>(n);
    let mut later = faces.iter().fold(W::ZERO, |s, f| s.add(f.weight));
    let mut dp: Vec<Vec<W>> = (0..k).map(|c| vec![W::ZERO; c * width + 1]).collect();
    dp[0][0] = W::ONE;
    let mut live = vec![false; k];
    live[0] = true;
    let mut out = vec![W::ZERO; k * width + 1];
    for (i, face) in faces.iter().enumerate() {
        later = later.sub(face.weight);
        let last = i + 1 == faces.len();
        let shift = (face.add - lo) as usize;
        let w_pow = powers(face.weight, n);
        let b_pow = powers(later, n);
        for c in (0..k).rev() {
            if !live[c] {
                continue;
            }
            let left = n - c;
            let row = &pascal[left];
            // finishing: at least k−c of the remaining dice show this value
            let finish = ((k - c)..=left).fold(W::ZERO, |s, j| {
                s.add(row[j].mul(w_pow[j]).mul(b_pow[left - j]))
            });
            let (src, rest) = dp.split_at_mut(c + 1);
            let src = &src[c];
            if finish != W::ZERO {
                let at = (k - c) * shift;
                for (slot, x) in out[at..].iter_mut().zip(src) {
                    *slot = slot.add(x.mul(finish));
                }
            }
            if last {
                continue;
            }
            // continuing: 1 ≤ j < k−c dice show this value
            for j in 1..(k - c).min(left + 1) {
                let ways = row[j].mul(w_pow[j]);
                live[c + j] = true;
                for (slot, x) in rest[j - 1][j * shift..].iter_mut().zip(src) {
                    *slot = slot.add(x.mul(ways));
                }
            }
        }
    }
    out
}

/// The same programme in floats, conditioned instead of counted so that nothing overflows or
/// underflows on the way: `dp[c]` is P(exactly `c` dice above the value, their kept total), and
/// the number of the other `n−c` dice showing the value is binomial with
/// `q = P(value) / P(value or later)`. The weights are probabilities summing to 1.
pub fn keep_f64(faces: &[Face<f64>], n: u32, k: u32) -> Option<Vec<f64>> {
    let (lo, hi) = add_range(faces)?;
    let width = usize::try_from(hi - lo).ok()?;
    let (n_us, k_us) = (n as usize, k as usize);
    // P(this value or a later one), summed from the end so the small ones stay exact
    let mut remaining = vec![0.0; faces.len()];
    let mut run = 0.0;
    for (i, f) in faces.iter().enumerate().rev() {
        run += f.weight;
        remaining[i] = run;
    }
    let mut dp: Vec<Vec<f64>> = (0..k_us).map(|c| vec![0.0; c * width + 1]).collect();
    dp[0][0] = 1.0;
    let mut live = vec![false; k_us];
    live[0] = true;
    let mut out = vec![0.0; k_us * width + 1];
    let mut row = Vec::with_capacity(n_us + 1);
    for (i, face) in faces.iter().enumerate() {
        if remaining[i] <= 0.0 {
            // impossible from here on: every die has found its value
            break;
        }
        let last = i + 1 == faces.len();
        let shift = usize::try_from(face.add - lo).ok()?;
        // q and 1 − q each from sums of weights, so neither is lost when the other is close
        // to 1 (a value of probability 4^-100 after re-rolls); the last value takes every die
        // left, exactly, so round-off does not leak
        let (q, not_q) = if last {
            (1.0, 0.0)
        } else {
            let later = remaining[i + 1];
            (face.weight / remaining[i], later / remaining[i])
        };
        for c in (0..k_us).rev() {
            if !live[c] {
                continue;
            }
            let left = n_us - c;
            binomial_row(left, q, not_q, &mut row);
            let finish: f64 = row[k_us - c..].iter().sum();
            let at = (k_us - c) * shift;
            let (src, rest) = dp.split_at_mut(c + 1);
            let src = &mut src[c];
            if finish != 0.0 {
                for (slot, x) in out[at..].iter_mut().zip(src.iter()) {
                    *slot += x * finish;
                }
            }
            if !last {
                for j in 1..(k_us - c).min(left + 1) {
                    let p = row[j];
                    if p == 0.0 {
                        continue;
                    }
                    live[c + j] = true;
                    let target = &mut rest[j - 1];
                    for (slot, x) in target[j * shift..].iter_mut().zip(src.iter()) {
                        *slot += x * p;
                    }
                }
            }
            let stay = row[0];
            src.iter_mut().for_each(|x| *x *= stay);
        }
    }
    Some(out)
}

/// Budget steps of one entry of a binomial row ([`binomial_row`]; the products and sums of
/// [`keep_counts`]' finishing ways): a division that waits for the one before it, and the
/// bookkeeping around it.
pub const BINOMIAL_STEPS: u64 = 20;

/// Budget steps of one slot of a pass of [`keep_counts`] / [`keep_f64`]: a multiply-add, but the
/// programme runs as one long call that a first call runs in wasm's baseline code throughout,
/// about four times as slow as a convolution's loop called over and over.
pub const KEEP_PASS_STEPS: u64 = 4;

/// The elementary steps of one value of [`keep_counts`] / [`keep_f64`] (charged per value).
pub fn keep_cost(n: u32, k: u32, width: u64) -> u64 {
    // per state count c: a binomial row of n−c and (k−c) passes over c·width+1 totals
    (0..u64::from(k))
        .map(|c| {
            (u64::from(n) - c)
                .saturating_mul(BINOMIAL_STEPS)
                .saturating_add(
                    (u64::from(k) - c)
                        .saturating_mul(c.saturating_mul(width) + 1)
                        .saturating_mul(KEEP_PASS_STEPS),
                )
        })
        .fold(0u64, u64::saturating_add)
}

fn add_range<W>(faces: &[Face<W>]) -> Option<(i64, i64)> {
    let lo = faces.iter().map(|f| f.add).min()?;
    let hi = faces.iter().map(|f| f.add).max()?;
    hi.checked_sub(lo)?;
    Some((lo, hi))
}

/// `w^0 ..= w^n`.
fn powers<W: Word>(w: W, n: usize) -> Vec<W> {
    let mut out = Vec::with_capacity(n + 1);
    let mut x = W::ONE;
    out.push(x);
    for _ in 0..n {
        x = x.mul(w);
        out.push(x);
    }
    out
}

/// Pascal's triangle to row `n` (every entry is at most `2^n ≤ D^n`).
fn pascal_rows<W: Word>(n: usize) -> Vec<Vec<W>> {
    let mut rows: Vec<Vec<W>> = vec![vec![W::ONE]];
    for m in 1..=n {
        let prev = &rows[m - 1];
        let mut row = vec![W::ONE; m + 1];
        for j in 1..m {
            row[j] = prev[j - 1].add(prev[j]);
        }
        rows.push(row);
    }
    rows
}

/// The binomial probabilities `P(j of m) = C(m, j) q^j r^(m−j)` for `j = 0..=m`, with
/// `r = 1 − q` given separately (see [`keep_f64`]): one logarithm at the mode, then ratios
/// outward, so tails underflow to 0 only when they are below `f64`'s range.
pub fn binomial_row(m: usize, q: f64, r: f64, row: &mut Vec<f64>) {
    row.clear();
    row.resize(m + 1, 0.0);
    if r <= 0.0 {
        row[m] = 1.0;
        return;
    }
    if q <= 0.0 {
        row[0] = 1.0;
        return;
    }
    let mode = (((m + 1) as f64 * q).floor() as usize).min(m);
    let k = mode.min(m - mode);
    let ln_c: f64 = (0..k).map(|i| ((m - i) as f64 / (i + 1) as f64).ln()).sum();
    // the logarithm of whichever of q and r is small is the accurate one
    let ln_q = if q < 0.5 { q.ln() } else { (-r).ln_1p() };
    let ln_r = if r < 0.5 { r.ln() } else { (-q).ln_1p() };
    row[mode] = (ln_c + mode as f64 * ln_q + (m - mode) as f64 * ln_r).exp();
    let odds = q / r;
    for j in mode..m {
        row[j + 1] = row[j] * ((m - j) as f64 / (j + 1) as f64) * odds;
    }
    for j in (1..=mode).rev() {
        row[j - 1] = row[j] * (j as f64 / (m - j + 1) as f64) / odds;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_windows_equal_direct_convolution() {
        let die = vec![1.0 / 6.0; 6];
        let mut direct = die.clone();
        for n in 2..40 {
            direct = convolve_f64(&direct, &die);
            let fast = power_f64(&die, n);
            assert_eq!(fast.len(), direct.len());
            for (a, b) in fast.iter().zip(&direct) {
                assert!((a - b).abs() <= 1e-13 * b, "{n}d6: {a} vs {b}");
            }
        }
    }

    #[test]
    fn binomial_rows_match_the_definition() {
        for m in 0..60usize {
            for q in [0.001, 0.1, 1.0 / 3.0, 0.5, 0.77, 0.999] {
                let mut row = Vec::new();
                binomial_row(m, q, 1.0 - q, &mut row);
                for (j, p) in row.iter().enumerate() {
                    let c: f64 = (0..j).map(|i| (m - i) as f64 / (i + 1) as f64).product();
                    let want = c * q.powi(j as i32) * (1.0 - q).powi((m - j) as i32);
                    assert!((p - want).abs() <= 1e-12 * want + 1e-300, "{m} {q} {j}");
                }
            }
        }
    }
}
