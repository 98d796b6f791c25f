//! The exact distribution of one dice term under its modifiers.
//!
//! Without keep/drop, every original die is independent, so the term is the `n`-fold convolution
//! of one die's contribution. One die's contribution is computed per *result*: a result entering
//! modifier `i` in state `s` contributes `D(i, s)`; re-rolls and explosions spawn fresh results
//! that enter the same (recursive) or the next modifier, which gives a short recursion with one
//! aggregate per modifier (the "fresh result" mixtures), never an enumeration of all rolls.
//!
//! With keep/drop, the modifiers before it leave one active result per die, so the term is an
//! order statistic: a dynamic programme over the face values, highest (or lowest) first, counting
//! how many dice show each value with binomial probabilities. The modifiers after it apply per
//! kept result again. When each kept die adds one number (no explosion after the keep), the
//! programme's state is only (dice placed, kept total): [`kernel::keep_counts`] /
//! [`kernel::keep_f64`].

use super::dist::{charge_wide, ok, span, too_wide, Budget, Dist, Fail, Res};
use super::kernel::{self, Face};
use super::num::{Num, View};
use crate::dice::ast::*;
use crate::dice::resolve::{apply_simple, DieResult};
use crate::error::Error;
use std::collections::BTreeMap;

/// Hash maps of die states and modifier indices: small keys, hashed often.
type HashMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;
use std::rc::Rc;

/// The parts of a die result that modifiers read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    value: i64,
    count: Option<i64>,
    success: Option<bool>,
    failure: Option<bool>,
}

impl State {
    fn fresh(value: i64) -> Self {
        Self {
            value,
            count: None,
            success: None,
            failure: None,
        }
    }
    /// Applies a modifier that needs no dice, with the very code the resolver uses.
    fn apply(self, m: Modifier) -> Self {
        let mut r = [DieResult::new(self.value, 0)];
        r[0].count = self.count;
        r[0].success = self.success;
        r[0].failure = self.failure;
        apply_simple(&mut r, m);
        Self {
            value: r[0].value,
            count: r[0].count,
            success: r[0].success,
            failure: r[0].failure,
        }
    }
    fn contribution(self) -> i64 {
        self.count.unwrap_or(self.value)
    }
}

/// A result's contribution: a single value, or a shared distribution shifted by a constant.
#[derive(Debug, Clone)]
enum Contrib<N> {
    Point(i64),
    Shifted(Rc<Dist<N>>, i64),
}

impl<N: Num> Contrib<N> {
    fn plus(&self, other: &Self, budget: &mut Budget) -> Res<Self> {
        Ok(match (self, other) {
            (Contrib::Point(a), Contrib::Point(b)) => Contrib::Point(a + b),
            (Contrib::Point(a), Contrib::Shifted(d, k))
            | (Contrib::Shifted(d, k), Contrib::Point(a)) => Contrib::Shifted(d.clone(), k + a),
            (Contrib::Shifted(d1, k1), Contrib::Shifted(d2, k2)) => {
                Contrib::Shifted(Rc::new(d1.convolve(d2, budget)?), k1 + k2)
            }
        })
    }
}

/// Builds a mixture of contributions.
struct Mixer<N> {
    points: Vec<(i64, N)>,
    dists: Vec<(N, Rc<Dist<N>>, i64)>,
}

impl<N: Num> Mixer<N> {
    fn new() -> Self {
        Self {
            points: Vec::new(),
            dists: Vec::new(),
        }
    }
    fn add(&mut self, w: N, c: Contrib<N>) {
        match c {
            Contrib::Point(v) => self.points.push((v, w)),
            Contrib::Shifted(d, k) => self.dists.push((w, d, k)),
        }
    }
    fn finish(self, budget: &mut Budget) -> Res<Dist<N>> {
        budget.spend((self.points.len() as u64).saturating_mul(N::ADD_STEPS))?;
        let mut out = Dist::from_points(self.points)?;
        for (w, d, k) in self.dists {
            let shifted = Dist {
                offset: d.offset + k,
                p: d.p.clone(),
            };
            out.add_scaled(&shifted, w, budget)?;
        }
        Ok(out)
    }
}

fn unsupported(what: &str) -> Fail {
    Fail::Limit(Error::odds(format!(
        "exact odds are not available for {what}"
    )))
}

/// The per-result recursion over a run of modifiers that contains no keep/drop.
struct Backward<'a, N> {
    die: Die,
    ops: &'a [Modifier],
    /// `F(i)`: a fresh result entering modifier `i`.
    fresh: HashMap<usize, Rc<Dist<N>>>,
    /// The spawned chain of a recursive modifier `i` (explosions or re-rolls), from depth 1.
    chain: HashMap<usize, Rc<Dist<N>>>,
}

impl<'a, N: Num> Backward<'a, N> {
    fn new(die: Die, ops: &'a [Modifier]) -> Self {
        Self {
            die,
            ops,
            fresh: HashMap::default(),
            chain: HashMap::default(),
        }
    }

    fn face_weight(&self) -> Res<N> {
        ok(N::ratio(1, u64::from(self.die.faces())))
    }

    /// `D(i, s)`: what a result in state `s` entering modifier `i` contributes, with its offspring.
    fn contribution(&mut self, i: usize, s: State, budget: &mut Budget) -> Res<Contrib<N>> {
        budget.spend(1)?;
        let Some(m) = self.ops.get(i).copied() else {
            return Ok(Contrib::Point(s.contribution()));
        };
        match m {
            Modifier::Reroll {
                recursive, cond, ..
            } => {
                if !cond.test(s.value) {
                    return self.contribution(i + 1, s, budget);
                }
                let d = if recursive {
                    self.chain(i, cond, true, budget)?
                } else {
                    self.fresh(i + 1, budget)?
                };
                Ok(Contrib::Shifted(d, 0))
            }
            Modifier::Explode {
                recursive, cond, ..
            } => {
                let own = self.contribution(i + 1, s, budget)?;
                if !cond.test(s.value) {
                    return Ok(own);
                }
                let spawned = if recursive {
                    self.chain(i, cond, false, budget)?
                } else {
                    self.fresh(i + 1, budget)?
                };
                own.plus(&Contrib::Shifted(spawned, 0), budget)
            }
            Modifier::Select { .. } => Err(unsupported("a second keep/drop in one term")),
            simple => self.contribution(i + 1, s.apply(simple), budget),
        }
    }

    /// `F(i)`: the distribution contributed by a fresh result entering modifier `i`.
    fn fresh(&mut self, i: usize, budget: &mut Budget) -> Res<Rc<Dist<N>>> {
        if let Some(d) = self.fresh.get(&i) {
            return Ok(d.clone());
        }
        let w = self.face_weight()?;
        let d = if i >= self.ops.len() {
            // no modifiers left: the die itself, without a detour through one point per face
            span(self.die.min(), self.die.max())?;
            budget.spend(u64::from(self.die.faces()))?;
            Rc::new(Dist {
                offset: self.die.min(),
                p: vec![w; self.die.faces() as usize],
            })
        } else {
            let mut mix = Mixer::new();
            for v in self.die.values() {
                let c = self.contribution(i, State::fresh(v), budget)?;
                mix.add(w, c);
            }
            Rc::new(mix.finish(budget)?)
        };
        self.fresh.insert(i, d.clone());
        Ok(d)
    }

    /// A result spawned by recursive modifier `i` at depth 1; spawns stop at depth [`MAX_CHAIN`].
    ///
    /// With `A`/`B` the fresh results entering `i + 1` whose value does not/does meet the
    /// condition (each weighted 1/faces): explosions give `E(d) = A + B·E(d+1)` (the exploding
    /// result contributes *and* spawns), re-rolls give `R(d) = A + q·R(d+1)` (the re-rolled result
    /// is discarded), and at the cap `E = R = A + B`.
    fn chain(
        &mut self,
        i: usize,
        cond: Condition,
        reroll: bool,
        budget: &mut Budget,
    ) -> Res<Rc<Dist<N>>> {
        if let Some(d) = self.chain.get(&i) {
            return Ok(d.clone());
        }
        let w = self.face_weight()?;
        let (mut a, mut b) = (Mixer::new(), Mixer::new());
        let mut hits = 0u64;
        for v in self.die.values() {
            let c = self.contribution(i + 1, State::fresh(v), budget)?;
            if cond.test(v) {
                hits += 1;
                b.add(w, c);
            } else {
                a.add(w, c);
            }
        }
        let q = ok(N::ratio(hits, u64::from(self.die.faces())))?;
        chain_fits(q)?;
        let (a, b) = (a.finish(budget)?, b.finish(budget)?);
        let mut e = a.clone();
        e.add_scaled(&b, N::one(), budget)?;
        for _ in 1..MAX_CHAIN {
            let next = if reroll {
                let mut r = a.clone();
                r.add_scaled(&e, q, budget)?;
                r
            } else {
                let mut x = b.convolve(&e, budget)?;
                x.add_scaled(&a, N::one(), budget)?;
                x
            };
            e = next;
        }
        let e = Rc::new(e);
        self.chain.insert(i, e.clone());
        Ok(e)
    }
}

/// The distribution of `term` rolled with `n` dice.
pub(super) fn term_dist<N: Num>(term: &DiceTerm, n: u32, budget: &mut Budget) -> Res<Dist<N>> {
    let mods = &term.modifiers;
    if mods.iter().any(|m| {
        matches!(
            m,
            Modifier::Reroll { limit: Some(_), .. } | Modifier::Explode { limit: Some(_), .. }
        )
    }) {
        return Err(unsupported(
            "a limited number of re-rolls or explosions (such as r1=1)",
        ));
    }
    let selects: Vec<usize> = mods
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m, Modifier::Select { .. }))
        .map(|(i, _)| i)
        .collect();
    match selects.as_slice() {
        [] => {
            let mut back = Backward::new(term.die, mods);
            let one = back.fresh(0, budget)?;
            drop(back);
            if n == 1 {
                // one die (1d2048): the distribution itself, not a copy of it
                return Ok(Rc::try_unwrap(one).unwrap_or_else(|shared| (*shared).clone()));
            }
            one.power(n, budget)
        }
        [k] => {
            let (before, after) = (&mods[..*k], &mods[k + 1..]);
            if before.iter().any(|m| matches!(m, Modifier::Explode { .. })) {
                return Err(unsupported("keep/drop after an explosion"));
            }
            let Modifier::Select { selection, n: sel } = mods[*k] else {
                return Err(unsupported("this modifier"));
            };
            refuse_early(term.die, n, selection, sel, before, after, budget)?;
            let pre = forward::<N>(term.die, before, budget)?;
            let mut post = Backward::new(term.die, after);
            select_dist(&pre, n, selection, sel, &mut post, budget)
        }
        _ => Err(unsupported("more than one keep/drop in one term")),
    }
}

/// Steps charged per state of one die that keep/drop reads: a hash map entry per face value and
/// modifier, then a group, a weight and a few small vectors per value for the programme, about a
/// microsecond in wasm on a first call, far dearer than a kernel's multiply-add.
const STATE_STEPS: u64 = 2048;

/// Refuses a keep/drop term before any work when its states alone exceed the budget, or when its
/// answer is wider than the limit (each kept die adding its face, no modifier around the keep):
/// `2d1000000kh1` would build a million states, seconds of work, before anything said no.
fn refuse_early(
    die: Die,
    n: u32,
    selection: Selection,
    sel: u32,
    before: &[Modifier],
    after: &[Modifier],
    budget: &mut Budget,
) -> Res<()> {
    if before.is_empty() && after.is_empty() {
        let kept = i64::from(match selection {
            Selection::KeepHighest | Selection::KeepLowest => sel.min(n),
            Selection::DropHighest | Selection::DropLowest => n - sel.min(n),
        });
        let bound = |v: i64| v.checked_mul(kept).ok_or_else(too_wide);
        span(bound(die.min())?, bound(die.max())?)?;
    }
    let per_state = STATE_STEPS.saturating_mul(1 + before.len() as u64);
    budget.spend(u64::from(die.faces()).saturating_mul(per_state))
}

/// The state of one die's single active result after modifiers without keep/drop or explosions.
fn forward<N: Num>(die: Die, ops: &[Modifier], budget: &mut Budget) -> Res<HashMap<State, N>> {
    let w = ok(N::ratio(1, u64::from(die.faces())))?;
    let uniform: HashMap<State, N> = die.values().map(|v| (State::fresh(v), w)).collect();
    let mut states = uniform.clone();
    for m in ops {
        budget.spend(states.len() as u64)?;
        let mut next: HashMap<State, N> = HashMap::default();
        match *m {
            Modifier::Reroll {
                recursive, cond, ..
            } => {
                let mut moved = N::zero();
                for (s, p) in states {
                    if cond.test(s.value) {
                        moved = ok(moved.add(p))?;
                    } else {
                        add_to(&mut next, s, p)?;
                    }
                }
                let replacement = if recursive {
                    reroll_chain(die, cond, w)?
                } else {
                    uniform.clone()
                };
                for (s, p) in replacement {
                    add_to(&mut next, s, ok(p.mul(moved))?)?;
                }
            }
            simple => {
                for (s, p) in states {
                    add_to(&mut next, s.apply(simple), p)?;
                }
            }
        }
        states = next;
    }
    Ok(states)
}

fn add_to<N: Num>(map: &mut HashMap<State, N>, s: State, p: N) -> Res<()> {
    let slot = map.entry(s).or_insert(N::zero());
    *slot = ok(slot.add(p))?;
    Ok(())
}

/// A chain of re-rolls or explosions with chance `q` each reaches its last result ([`MAX_CHAIN`]
/// deep) with chance `q^99`, a factor of the deepest totals' probabilities: when its denominator
/// leaves `u128` the exact attempt would only find that out after a hundred passes of exact
/// arithmetic, so it gives way to floats at once.
fn chain_fits<N: Num>(q: N) -> Res<()> {
    match N::view(&[q]) {
        Some(View::Counts { den, .. }) if den.checked_pow(MAX_CHAIN - 1).is_none() => {
            Err(Fail::Inexact)
        }
        _ => Ok(()),
    }
}

/// Where a die re-rolled by `rr` ends up: `G(d) = [v ∉ C]/faces + q·G(d+1)`, `G(cap)` uniform.
fn reroll_chain<N: Num>(die: Die, cond: Condition, w: N) -> Res<HashMap<State, N>> {
    let hits = die.values().filter(|v| cond.test(*v)).count() as u64;
    let q = ok(N::ratio(hits, u64::from(die.faces())))?;
    chain_fits(q)?;
    let mut g: Vec<(i64, N)> = die.values().map(|v| (v, w)).collect();
    for _ in 1..MAX_CHAIN {
        g = g
            .into_iter()
            .map(|(v, p)| {
                let own = if cond.test(v) { N::zero() } else { w };
                Ok((v, ok(own.add(ok(q.mul(p))?))?))
            })
            .collect::<Res<_>>()?;
    }
    Ok(g.into_iter().map(|(v, p)| (State::fresh(v), p)).collect())
}

/// Each value's probability and the one number a kept die with it adds, when no modifier after
/// the keep/drop spreads a kept die over several (the common case: `10d10kh3`, `4d6kh3cs>=5`).
fn point_faces<N: Num>(
    order: &[(i64, Vec<(State, N)>)],
    post: &mut Backward<'_, N>,
    budget: &mut Budget,
) -> Res<Option<Vec<Face<N>>>> {
    let mut faces = Vec::with_capacity(order.len());
    for (_, states) in order {
        let mut weight = N::zero();
        let mut add = None;
        for (s, p) in states {
            weight = ok(weight.add(*p))?;
            match post.contribution(0, *s, budget)? {
                Contrib::Point(x) if add.is_none() || add == Some(x) => add = Some(x),
                _ => return Ok(None),
            }
        }
        let Some(add) = add else {
            return Ok(None);
        };
        faces.push(Face { add, weight });
    }
    Ok(Some(faces))
}

/// Keep the first `kept` of `n` dice over `faces` (in keeping order) with the kernels: counts
/// over `den^n` when exact, conditioned floats otherwise.
fn keep_points<N: Num>(faces: &[Face<N>], n: u32, kept: u32, budget: &mut Budget) -> Res<Dist<N>> {
    let lo = faces.iter().map(|f| f.add).min().unwrap_or(0);
    let hi = faces.iter().map(|f| f.add).max().unwrap_or(0);
    let width = hi
        .checked_sub(lo)
        .and_then(|w| u64::try_from(w).ok())
        .ok_or_else(too_wide)?;
    let k = i64::from(kept);
    let (Some(total_lo), Some(total_hi)) = (lo.checked_mul(k), hi.checked_mul(k)) else {
        return Err(too_wide());
    };
    span(total_lo, total_hi)?;
    if lo == hi {
        // every kept die adds the same
        return Ok(Dist::point(total_lo));
    }
    if kept == n {
        // keeping every die (4d6kh4, 1000d6dl0) is a plain sum
        let one = Dist::from_points(faces.iter().map(|f| (f.add, f.weight)).collect())?;
        return one.power(n, budget);
    }
    let steps = kernel::keep_cost(n, kept, width).saturating_mul(faces.len() as u64);
    budget.spend(steps)?;
    // the view of the weights, and the answer of kept·width + 1 values back from counts
    let values = (faces.len() as u64).saturating_add(width.saturating_mul(u64::from(kept)) + 1);
    budget.spend(values.saturating_mul(N::VIEW_STEPS))?;
    let weights: Vec<N> = faces.iter().map(|f| f.weight).collect();
    let p = match ok(N::view(&weights))? {
        View::Counts { den, nums } => {
            // every count is at most den^n, the number of all rolls
            charge_wide(budget, den.checked_pow(n).unwrap_or(u128::MAX), steps)?;
            let faces: Vec<Face<u128>> = faces
                .iter()
                .zip(nums)
                .map(|(f, weight)| Face { add: f.add, weight })
                .collect();
            let counts = ok(kernel::keep_counts(&faces, n, kept))?;
            ok(N::from_counts(counts, ok(den.checked_pow(n))?))?
        }
        View::Float(v) => {
            let faces: Vec<Face<f64>> = faces
                .iter()
                .zip(v)
                .map(|(f, weight)| Face { add: f.add, weight })
                .collect();
            ok(N::from_floats(ok(kernel::keep_f64(&faces, n, kept))?))?
        }
    };
    Ok(Dist {
        offset: total_lo,
        p,
    })
}

/// The order-statistics programme for keep/drop over `n` i.i.d. dice with states `pre`.
fn select_dist<N: Num>(
    pre: &HashMap<State, N>,
    n: u32,
    selection: Selection,
    sel: u32,
    post: &mut Backward<'_, N>,
    budget: &mut Budget,
) -> Res<Dist<N>> {
    let (highest_first, kept) = match selection {
        Selection::KeepHighest => (true, sel.min(n)),
        Selection::KeepLowest => (false, sel.min(n)),
        Selection::DropHighest => (false, n - sel.min(n)),
        Selection::DropLowest => (true, n - sel.min(n)),
    };
    if kept == 0 {
        return Ok(Dist::point(0));
    }
    // Group the states by face value: P(value) and the kept contribution given the value.
    let mut by_value: BTreeMap<i64, Vec<(State, N)>> = BTreeMap::new();
    for (s, p) in pre {
        if !p.is_zero() {
            by_value.entry(s.value).or_default().push((*s, *p));
        }
    }
    let mut order: Vec<(i64, Vec<(State, N)>)> = by_value.into_iter().collect();
    if highest_first {
        order.reverse();
    }
    if let Some(faces) = point_faces(&order, post, budget)? {
        return keep_points(&faces, n, kept, budget);
    }
    let mut remaining = N::one();
    let mut dp: Vec<Option<Dist<N>>> = vec![None; kept as usize];
    dp[0] = Some(Dist::point(0));
    let mut done: Dist<N> = Dist {
        offset: 0,
        p: Vec::new(),
    };
    let values = order.len();
    for (index, (_, states)) in order.into_iter().enumerate() {
        let mut p_v = N::zero();
        for (_, p) in &states {
            p_v = ok(p_v.add(*p))?;
        }
        let mut mix = Mixer::new();
        for (s, p) in &states {
            let c = post.contribution(0, *s, budget)?;
            mix.add(ok(p.div(p_v))?, c);
        }
        let kept_one = mix.finish(budget)?;
        let mut powers = vec![Dist::point(0)];
        // The last value takes every die left; saying so exactly keeps float round-off from leaking.
        let q = if index + 1 == values {
            N::one()
        } else {
            ok(p_v.div(remaining))?
        };
        let mut next: Vec<Option<Dist<N>>> = vec![None; kept as usize];
        for m in 0..kept {
            let Some(cur) = dp[m as usize].take() else {
                continue;
            };
            let left = n - m;
            budget.spend(N::binomial_row_cost(left))?;
            let row = ok(N::binomial_row(left, q))?;
            for (j, w) in (0..=left).zip(row) {
                if w.is_zero() {
                    continue;
                }
                let t = j.min(kept - m) as usize;
                while powers.len() <= t {
                    let p = powers[powers.len() - 1].convolve(&kept_one, budget)?;
                    powers.push(p);
                }
                let part = cur.convolve(&powers[t], budget)?;
                let target = if m + j >= kept {
                    &mut done
                } else {
                    next[(m + j) as usize].get_or_insert_with(|| Dist {
                        offset: 0,
                        p: Vec::new(),
                    })
                };
                target.add_scaled(&part, w, budget)?;
            }
        }
        dp = next;
        remaining = ok(remaining.sub(p_v))?;
        if dp.iter().all(Option::is_none) {
            break;
        }
    }
    Ok(done)
}
