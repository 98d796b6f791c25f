//! Deciding a formula's outcome from the faces rolled, following Foundry's modifier semantics.
//!
//! Resolution is a replay: every call starts from the formula and consumes the given faces in
//! order. Dice are requested in *rounds*: round 0 is every term whose count is known (the plan);
//! later rounds ask for re-rolls, explosions and terms whose count came from other dice. When the
//! faces run out, the remaining requests of the round are returned as `More`, the caller rolls
//! them, appends them and calls again. The round order reproduces Foundry's result order exactly.

use super::ast::*;
use crate::error::{Error, Result};
use serde::Serialize;

/// What a batch of dice is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// A term's own dice; the string is its flavor text or `"dice"`.
    Dice(String),
    Reroll,
    Explode,
}

impl Role {
    pub fn label(&self) -> &str {
        match self {
            Role::Dice(s) => s,
            Role::Reroll => "reroll",
            Role::Explode => "explode",
        }
    }
}

/// A request for `count` dice of one kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceNeed {
    pub die: Die,
    pub count: u32,
    pub role: Role,
    /// The index of the term (in formula order) the dice belong to.
    pub term: usize,
}

/// Either the finished outcome, or the dice still to roll.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<T> {
    Done(T),
    More(Vec<DiceNeed>),
}

/// One die result, with Foundry's flags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DieResult {
    pub value: i64,
    pub active: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exploded: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rerolled: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub discarded: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<bool>,
    /// Spawns by the current explode/re-roll modifier in this result's lineage (for the cap).
    #[serde(skip)]
    depth: u32,
}

impl DieResult {
    pub(crate) fn new(value: i64, depth: u32) -> Self {
        Self {
            value,
            active: true,
            count: None,
            exploded: false,
            rerolled: false,
            discarded: false,
            success: None,
            failure: None,
            depth,
        }
    }
    /// What the result adds to its term's total (Foundry's `DiceTerm#total`).
    pub fn contribution(&self) -> i64 {
        if self.active {
            self.count.unwrap_or(self.value)
        } else {
            0
        }
    }
}

/// One dice term's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TermOutcome {
    pub notation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavor: Option<String>,
    pub total: i64,
    pub results: Vec<DieResult>,
}

/// A resolved formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    pub total: i64,
    pub terms: Vec<TermOutcome>,
}

/// The dice to roll first (round 0).
pub fn plan(formula: &Formula) -> Result<Vec<DiceNeed>> {
    Ok(match resolve(formula, &[])? {
        Step::More(dice) => dice,
        Step::Done(_) => Vec::new(),
    })
}

/// Where resolution takes each batch of dice it asks for, in request order.
pub trait FaceSource {
    /// Hands the faces for `need` to `take`, or says there are none yet (`Ok(false)`: the rest
    /// of the round is then returned as [`Step::More`]).
    fn supply(&mut self, need: &DiceNeed, take: &mut dyn FnMut(&[i64])) -> Result<bool>;
}

/// Faces given up front, one array per batch, checked against what each batch asked for.
struct Given<'a> {
    faces: &'a [Vec<i64>],
    used: usize,
}

impl FaceSource for Given<'_> {
    fn supply(&mut self, need: &DiceNeed, take: &mut dyn FnMut(&[i64])) -> Result<bool> {
        let Some(values) = self.faces.get(self.used) else {
            return Ok(false);
        };
        check_faces(self.used, need, values)?;
        self.used += 1;
        take(values);
        Ok(true)
    }
}

/// Resolves `formula` from `faces` (one array per requested batch, in request order).
pub fn resolve(formula: &Formula, faces: &[Vec<i64>]) -> Result<Step<Evaluation>> {
    let (step, used) = resolve_prefix(formula, faces)?;
    if used < faces.len() {
        return Err(Error::faces(format!(
            "{} arrays of faces were given but the roll used only {used}",
            faces.len()
        )));
    }
    Ok(step)
}

/// As [`resolve`], reading only the arrays the formula needs and saying how many that was, so a
/// rule can ask for dice of its own after the formula's.
pub fn resolve_prefix(formula: &Formula, faces: &[Vec<i64>]) -> Result<(Step<Evaluation>, usize)> {
    let mut given = Given { faces, used: 0 };
    let step = resolve_from(formula, &mut given, true)?;
    Ok((step, given.used))
}

/// Resolves `formula` in one pass, taking each batch from `source` as it is asked for (rolling
/// draws them on the spot, instead of replaying the formula once per round). With `named` false
/// every term's `notation` is left empty: for callers that know the formula's notations already
/// (the fast roll path), so no strings are formatted per roll.
pub fn resolve_from(
    formula: &Formula,
    source: &mut dyn FaceSource,
    named: bool,
) -> Result<Step<Evaluation>> {
    let mut states: Vec<TermState> = formula.terms.iter().map(|_| TermState::default()).collect();
    let mut rolled = 0u64;
    // kept in step with `states`: only `advance(i)` and `feed` change a term's total
    let mut totals: Vec<Option<i64>> = vec![None; states.len()];
    let mut needs: Vec<(usize, DiceNeed)> = Vec::new();
    loop {
        needs.clear();
        for i in 0..states.len() {
            let need = states[i].advance(formula, i, &totals)?;
            totals[i] = states[i].total;
            if let Some(need) = need {
                needs.push((i, need));
            }
        }
        if needs.is_empty() {
            break;
        }
        rolled += needs.iter().map(|(_, n)| u64::from(n.count)).sum::<u64>();
        if rolled > MAX_DICE_PER_ROLL {
            return Err(Error::request(format!(
                "a roll may roll at most {MAX_DICE_PER_ROLL} dice (counting re-rolls and explosions); this one needs {rolled}"
            )));
        }
        for (k, (i, need)) in needs.iter().enumerate() {
            let (state, term) = (&mut states[*i], &formula.terms[*i]);
            if !source.supply(need, &mut |values| state.feed(term, values))? {
                let more = needs[k..].iter().map(|(_, n)| n.clone()).collect();
                return Ok(Step::More(more));
            }
            totals[*i] = states[*i].total;
        }
    }
    let total = eval(&formula.expr, &totals)?.ok_or_else(|| {
        Error::request("the formula could not be completed (a dice count depends on itself)")
    })?;
    check_safe(total)?;
    let terms = states
        .into_iter()
        .enumerate()
        .map(|(i, s)| TermOutcome {
            notation: if named {
                formula.term_notation(i)
            } else {
                String::new()
            },
            flavor: formula.terms[i].flavor.clone(),
            total: s.total.unwrap_or(0),
            results: s.results,
        })
        .collect();
    Ok(Step::Done(Evaluation { total, terms }))
}

pub(crate) fn check_safe(v: i64) -> Result<i64> {
    if v.abs() > MAX_SAFE {
        Err(Error::overflow(format!(
            "the total {v} is beyond the largest integer a JS number holds exactly"
        )))
    } else {
        Ok(v)
    }
}

pub(crate) fn check_faces(entry: usize, need: &DiceNeed, values: &[i64]) -> Result<()> {
    if values.len() != need.count as usize {
        return Err(Error::faces(format!(
            "faces array {} should hold {} {} result(s) ({}) but holds {}",
            entry + 1,
            need.count,
            need.die,
            need.role.label(),
            values.len()
        )));
    }
    if let Some(bad) = values.iter().find(|v| !need.die.has_face(**v)) {
        return Err(Error::faces(format!(
            "faces array {}: {bad} is not a face of a {} ({} to {})",
            entry + 1,
            need.die,
            need.die.min(),
            need.die.max()
        )));
    }
    Ok(())
}

/// Evaluates an expression over the term totals; `None` while a needed term is unfinished.
pub(crate) fn eval(e: &Expr, totals: &[Option<i64>]) -> Result<Option<i64>> {
    Ok(match e {
        Expr::Const { value, .. } => Some(*value),
        Expr::Term(i) => totals.get(*i).copied().flatten(),
        Expr::Neg(inner) => eval(inner, totals)?.map(|v| -v),
        Expr::Group { inner, .. } => eval(inner, totals)?,
        Expr::Bin(op, a, b) => {
            let (Some(a), Some(b)) = (eval(a, totals)?, eval(b, totals)?) else {
                return Ok(None);
            };
            Some(op.apply(a, b).ok_or_else(|| {
                if *op == BinOp::Div && b == 0 {
                    Error::request(format!("division by zero ({a} / 0)"))
                } else {
                    Error::overflow(format!("{a} {} {b} is out of range", op.symbol()))
                }
            })?)
        }
    })
}

#[derive(Debug, Clone)]
enum Phase {
    /// The count is not known yet.
    Waiting,
    /// The term's own dice were requested.
    Base,
    /// Applying modifiers; `next` is the first not finished.
    Modifiers {
        next: usize,
        pending: Option<Spawn>,
    },
    Done,
}

/// An explode/re-roll modifier's next batch: the results that spawn a new die.
#[derive(Debug, Clone)]
struct Spawn {
    parents: Vec<usize>,
    /// Spawns left under the modifier's own limit (`x2>4`), if it has one.
    limit: Option<u32>,
    /// Whether the batch was already handed out as a need this round.
    requested: bool,
}

#[derive(Debug, Clone)]
struct TermState {
    phase: Phase,
    results: Vec<DieResult>,
    total: Option<i64>,
}

impl Default for TermState {
    fn default() -> Self {
        Self {
            phase: Phase::Waiting,
            results: Vec::new(),
            total: None,
        }
    }
}

/// Marks the results of `candidates` that spawn a die under a re-roll/explode modifier, in order,
/// respecting the modifier's limit and the per-lineage cap.
fn select_parents(
    results: &mut [DieResult],
    candidates: std::ops::Range<usize>,
    cond: Condition,
    mut limit: Option<u32>,
    reroll: bool,
) -> Spawn {
    let mut parents = Vec::new();
    for i in candidates {
        let Some(r) = results.get_mut(i) else { break };
        if limit == Some(0) {
            break;
        }
        if !r.active || r.depth >= MAX_CHAIN || !cond.test(r.value) {
            continue;
        }
        if reroll {
            r.rerolled = true;
            r.active = false;
        } else {
            r.exploded = true;
        }
        parents.push(i);
        limit = limit.map(|l| l - 1);
    }
    Spawn {
        parents,
        limit,
        requested: false,
    }
}

/// A term whose modifiers need no more dice, settled: `modifiers` applied in order to its
/// `results`, and the term's total (what the fast paths of `roll` and `rollMany` share).
pub(crate) fn settle(results: &mut [DieResult], modifiers: &[Modifier]) -> i64 {
    for m in modifiers {
        apply_simple(results, *m);
    }
    results.iter().map(DieResult::contribution).sum()
}

/// The modifiers that need no dice, exactly as Foundry's `Die` applies them.
pub(crate) fn apply_simple(results: &mut [DieResult], m: Modifier) {
    match m {
        Modifier::Select { selection, n } => {
            let (keep, highest) = match selection {
                Selection::KeepHighest => (true, true),
                Selection::KeepLowest => (true, false),
                Selection::DropHighest => (false, true),
                Selection::DropLowest => (false, false),
            };
            keep_or_drop(results, n as usize, keep, highest);
        }
        Modifier::Min(t) => {
            for r in results.iter_mut().filter(|r| r.value < t) {
                r.count = Some(t);
            }
        }
        Modifier::Max(t) => {
            for r in results.iter_mut().filter(|r| r.value > t) {
                r.count = Some(t);
            }
        }
        Modifier::CountSuccess(c) => {
            for r in results.iter_mut() {
                let s = c.test(r.value);
                r.success = Some(s);
                if s {
                    r.failure = None;
                }
                r.count = Some(i64::from(s));
            }
        }
        Modifier::CountFailure(c) => {
            for r in results.iter_mut() {
                let s = c.test(r.value);
                r.failure = Some(s);
                if s {
                    r.success = None;
                }
                r.count = Some(i64::from(s));
            }
        }
        Modifier::DeductFailure(c) | Modifier::SubtractFailure(c) => {
            let subtract = matches!(m, Modifier::SubtractFailure(_));
            for r in results.iter_mut() {
                mark_failure(r, c);
                if r.failure == Some(true) {
                    r.count = Some(if subtract { -r.value } else { -1 });
                }
            }
        }
        Modifier::Reroll { .. } | Modifier::Explode { .. } => {}
    }
}

/// `df`/`sf`: a failure is a result meeting the condition, or without one, a result already
/// marked unsuccessful by `cs`.
pub(crate) fn mark_failure(r: &mut DieResult, c: Option<Condition>) {
    let fail = match c {
        Some(c) => c.test(r.value),
        None => r.success == Some(false),
    };
    if fail {
        r.failure = Some(true);
        r.success = None;
    }
}

/// Foundry's `DiceTerm._keepOrDrop`: ties at the cut are discarded earliest first.
fn keep_or_drop(results: &mut [DieResult], number: usize, keep: bool, highest: bool) {
    let ascending = keep == highest;
    // the active values, on the stack for the usual pools (a roll allocates nothing for them)
    let mut stack = [0i64; 32];
    let mut heap = Vec::new();
    let active = results.iter().filter(|r| r.active).count();
    let values: &mut [i64] = if active <= stack.len() {
        &mut stack[..active]
    } else {
        heap.resize(active, 0);
        &mut heap
    };
    for (slot, r) in values.iter_mut().zip(results.iter().filter(|r| r.active)) {
        *slot = r.value;
    }
    let len = values.len();
    let number = if keep {
        len.saturating_sub(number)
    } else {
        number.min(len)
    };
    if number >= len {
        // everything goes
        for r in results.iter_mut().filter(|r| r.active) {
            r.discarded = true;
            r.active = false;
        }
        return;
    }
    // the value at the cut, as sorting would place it, without sorting the rest
    let cut = if ascending {
        *values.select_nth_unstable(number).1
    } else {
        *values.select_nth_unstable_by(number, |a, b| b.cmp(a)).1
    };
    let mut discarded = 0;
    for r in results.iter_mut().filter(|r| r.active) {
        let wrong_side = if ascending {
            r.value < cut
        } else {
            r.value > cut
        };
        if wrong_side {
            r.discarded = true;
            r.active = false;
            discarded += 1;
        }
    }
    // ties at the cut go earliest first, as many as are still to go
    for r in results.iter_mut().filter(|r| r.active && r.value == cut) {
        if discarded >= number {
            break;
        }
        r.discarded = true;
        r.active = false;
        discarded += 1;
    }
}

impl TermState {
    /// Moves the term on as far as it can without dice; returns the dice it needs next.
    fn advance(
        &mut self,
        f: &Formula,
        index: usize,
        totals: &[Option<i64>],
    ) -> Result<Option<DiceNeed>> {
        let Some(term) = f.terms.get(index) else {
            return Ok(None);
        };
        loop {
            match &mut self.phase {
                Phase::Done | Phase::Base => return Ok(None),
                Phase::Waiting => {
                    let count = match &term.count {
                        Count::Fixed(n) => *n,
                        Count::Expr(e) => match eval(e, totals)? {
                            None => return Ok(None),
                            Some(n) if (0..=i64::from(MAX_DICE_PER_TERM)).contains(&n) => n as u32,
                            Some(n) => {
                                return Err(Error::request(format!(
                                    "the dice count of {} came to {n}; a term rolls 0 to {MAX_DICE_PER_TERM} dice",
                                    f.term_notation(index)
                                )))
                            }
                        },
                    };
                    if count == 0 {
                        self.phase = Phase::Modifiers {
                            next: 0,
                            pending: None,
                        };
                        continue;
                    }
                    self.phase = Phase::Base;
                    let role =
                        Role::Dice(term.flavor.clone().unwrap_or_else(|| "dice".to_string()));
                    return Ok(Some(DiceNeed {
                        die: term.die,
                        count,
                        role,
                        term: index,
                    }));
                }
                Phase::Modifiers { next, pending } => {
                    if let Some(spawn) = pending {
                        if spawn.requested {
                            return Ok(None);
                        }
                        spawn.requested = true;
                        let reroll =
                            matches!(term.modifiers.get(*next), Some(Modifier::Reroll { .. }));
                        return Ok(Some(DiceNeed {
                            die: term.die,
                            count: spawn.parents.len() as u32,
                            role: if reroll { Role::Reroll } else { Role::Explode },
                            term: index,
                        }));
                    }
                    let Some(m) = term.modifiers.get(*next).copied() else {
                        let total = self
                            .results
                            .iter()
                            .try_fold(0i64, |t, r| t.checked_add(r.contribution()))
                            .ok_or_else(|| Error::overflow("a term's total is out of range"))?;
                        self.total = Some(check_safe(total)?);
                        self.phase = Phase::Done;
                        return Ok(None);
                    };
                    match m {
                        Modifier::Reroll { limit, cond, .. }
                        | Modifier::Explode { limit, cond, .. } => {
                            for r in &mut self.results {
                                r.depth = 0;
                            }
                            let reroll = matches!(m, Modifier::Reroll { .. });
                            let all = 0..self.results.len();
                            let spawn = select_parents(&mut self.results, all, cond, limit, reroll);
                            if spawn.parents.is_empty() {
                                *next += 1;
                            } else {
                                *pending = Some(spawn);
                            }
                        }
                        other => {
                            apply_simple(&mut self.results, other);
                            *next += 1;
                        }
                    }
                }
            }
        }
    }

    /// Takes the faces for the dice this term asked for (already checked against the need).
    fn feed(&mut self, term: &DiceTerm, values: &[i64]) {
        match &mut self.phase {
            Phase::Base => {
                self.results = values.iter().map(|v| DieResult::new(*v, 0)).collect();
                self.phase = Phase::Modifiers {
                    next: 0,
                    pending: None,
                };
            }
            Phase::Modifiers { next, pending } => {
                let Some(spawn) = pending.take() else { return };
                let first_new = self.results.len();
                for (parent, v) in spawn.parents.iter().zip(values) {
                    let depth = self.results.get(*parent).map_or(0, |p| p.depth) + 1;
                    self.results.push(DieResult::new(*v, depth));
                }
                let again = match term.modifiers.get(*next) {
                    Some(Modifier::Reroll {
                        recursive: true,
                        cond,
                        ..
                    }) => Some((*cond, true)),
                    Some(Modifier::Explode {
                        recursive: true,
                        cond,
                        ..
                    }) => Some((*cond, false)),
                    _ => None,
                };
                let new = first_new..self.results.len();
                let follow = again.map(|(cond, reroll)| {
                    select_parents(&mut self.results, new, cond, spawn.limit, reroll)
                });
                match follow {
                    Some(s) if !s.parents.is_empty() => *pending = Some(s),
                    _ => *next += 1,
                }
            }
            Phase::Waiting | Phase::Done => {}
        }
    }
}
