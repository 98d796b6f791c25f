//! Rulesets: each rule request is a dice formula plus an interpretation of its outcome.
//!
//! A rule builds its dice as a formula in our own notation (flavor text names each plan entry's
//! role, e.g. `1d20[d20] + 2d6kh1[boon]`), so planning, resolving, replay and exact odds all come
//! from the dice core; the rule only reads the evaluated terms and labels the outcomes.

pub mod icon;
pub mod icons;
pub mod mns;
pub mod mns_tables;
pub mod narrator;
pub mod tribute;

use crate::dice::odds::num::Ratio;
use crate::dice::odds::Distribution;
use crate::dice::resolve::{DiceNeed, Evaluation, TermOutcome};
use crate::error::{Error, Result};
use serde::Serialize;

/// P(outcome), in floats and, when the distribution is exact, as a fraction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prob {
    pub p: f64,
    pub exact: Option<Ratio>,
}

impl Prob {
    /// P(predicate(total)) under `dist`.
    pub fn of(dist: &Distribution, pred: impl Fn(i64) -> bool) -> Self {
        let (p, exact) = dist.probability(pred);
        Self { p, exact }
    }
    /// A probability known in closed form, exact when `exact` is given.
    pub fn closed(p: f64, exact: Option<Ratio>) -> Self {
        Self { p, exact }
    }
}

/// A rule request: its dice, how to read them, and which outcomes its odds report.
pub trait DiceRule {
    type Outcome: Serialize;
    /// The dice as a formula; flavors name the roles. Invalid requests fail here.
    fn formula(&self) -> Result<String>;
    /// Reads the evaluated formula.
    fn outcome(&self, eval: &Evaluation) -> Result<Self::Outcome>;
    /// The labelled outcome probabilities, given the exact distribution of the total.
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>>;

    /// One more batch of dice the rule asks for once the formula is resolved (Men & Supermen's
    /// re-rolled 1s); the caller gets it as a `more` answer.
    fn follow_up(&self, _eval: &Evaluation) -> Option<DiceNeed> {
        None
    }
    /// The outcome when a follow-up batch was rolled (`extra` holds its faces).
    fn outcome_with(&self, eval: &Evaluation, _extra: &[i64]) -> Result<Self::Outcome> {
        self.outcome(eval)
    }
    /// The total when a follow-up batch was rolled.
    fn total_with(&self, eval: &Evaluation, _extra: &[i64]) -> i64 {
        eval.total
    }
    /// The exact distribution of the total, when the formula alone does not give it.
    fn distribution(&self) -> Option<Result<Distribution>> {
        None
    }
    /// Does the outcome show the formula's terms with their notations (so rolling must name
    /// them, as [`crate::dice::resolve::resolve`] does)? Most rules read only values.
    fn names_terms(&self) -> bool {
        false
    }
}

/// The evaluated term whose flavor is `role`, if the formula has one.
pub fn term<'a>(eval: &'a Evaluation, role: &str) -> Option<&'a TermOutcome> {
    eval.terms
        .iter()
        .find(|t| t.flavor.as_deref() == Some(role))
}

/// The active (kept) result values of the term with `role`.
pub fn kept(eval: &Evaluation, role: &str) -> Vec<i64> {
    term(eval, role)
        .map(|t| {
            t.results
                .iter()
                .filter(|r| r.active)
                .map(|r| r.value)
                .collect()
        })
        .unwrap_or_default()
}

/// Checks a request number against its legal range, naming the field in the error.
pub fn check_range(field: &str, value: i64, lo: i64, hi: i64) -> Result<i64> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(Error::request(format!(
            "{field} must be from {lo} to {hi}, not {value}"
        )))
    }
}

/// A row of a printed chart: `id` names it for the module's i18n keys, `label` is the seed's
/// words, `value` the number the chart gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChartEntry {
    pub id: &'static str,
    pub label: &'static str,
    pub value: i64,
}

/// An ICONS level with its description and the seed's three optional names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IconsLevel {
    pub level: u8,
    pub description: &'static str,
    pub names: [&'static str; 3],
}

/// The charts the rulesets print, for the module's pickers and sheets (one source: the core).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tables {
    pub icons_levels: Vec<IconsLevel>,
    /// Tribute's reality levels: `value` is the die.
    pub tribute_reality_levels: Vec<ChartEntry>,
    pub narrator_difficulty: Vec<ChartEntry>,
    pub narrator_opposed: Vec<ChartEntry>,
    pub narrator_knowledge: Vec<ChartEntry>,
    /// The deterministic roll ("the alternative of adding 10"), also an NPC opponent's roll.
    pub narrator_deterministic: i64,
    /// Men & Supermen's special dice, by name.
    pub mns_special_dice: Vec<&'static str>,
}

fn chart(rows: &[narrator::ChartRow]) -> Vec<ChartEntry> {
    rows.iter()
        .map(|(id, label, value)| ChartEntry {
            id,
            label,
            value: *value,
        })
        .collect()
}

/// Every ruleset's printed charts.
pub fn tables() -> Tables {
    Tables {
        icons_levels: icons::LEVELS
            .iter()
            .map(|(level, description, names)| IconsLevel {
                level: *level,
                description,
                names: *names,
            })
            .collect(),
        tribute_reality_levels: tribute::REALITY_LEVELS
            .iter()
            .map(|(die, id, label)| ChartEntry {
                id,
                label,
                value: i64::from(*die),
            })
            .collect(),
        narrator_difficulty: chart(&narrator::DIFFICULTY_CHART),
        narrator_opposed: chart(&narrator::OPPOSED_MODIFIERS),
        narrator_knowledge: chart(&narrator::KNOWLEDGE_DIFFICULTY),
        narrator_deterministic: narrator::DETERMINISTIC,
        mns_special_dice: vec!["d2", "d3", "d5", "d32", "d100", "d1000", "d%"],
    }
}
