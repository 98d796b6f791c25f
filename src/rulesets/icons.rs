//! ICONS ("Icons: The Basics", seed `icons-the-basics.txt`).
//!
//! "Roll the dice, designating one die positive and one negative ... Subtract the result of the
//! negative die from the positive die to get a result from +5 to –5." Effort = ability + result
//! (+ bonus); effect = effort − difficulty (a penalty adds to the difficulty). Outcome by effect:
//! less than 0 failure, 0–2 moderate, 3–4 major, 5 or more massive success; "An effort of 15 or
//! more is enough to achieve a massive success on a test of cosmic (10) difficulty". The cosmic
//! test is decided on the effective difficulty (the difficulty with its penalties), so a massive
//! cosmic success is always a massive success.

use crate::dice::odds::Distribution;
use crate::dice::resolve::Evaluation;
use crate::error::{Error, Result};
use crate::rulesets::{check_range, term, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// The scale's levels with the seed's three optional names each ("Option: Named Levels").
pub const LEVELS: [(u8, &str, [&str; 3]); 10] = [
    (1, "Weak, minimum human", ["Doddering", "Feeble", "Weak"]),
    (2, "Below-average human", ["Inadequate", "Inferior", "Poor"]),
    (3, "Average human", ["Average", "Mediocre", "Typical"]),
    (
        4,
        "Above-average human",
        ["Accomplished", "Competent", "Good"],
    ),
    (
        5,
        "Exceptional human",
        ["Excellent", "Exceptional", "Great"],
    ),
    (
        6,
        "Ideal or maximum human",
        ["Extraordinary", "Remarkable", "Superb"],
    ),
    (
        7,
        "Low superhuman",
        ["Fantastic", "Incredible", "Wonderful"],
    ),
    (8, "Superhuman", ["Amazing", "Astounding", "Legendary"]),
    (9, "High superhuman", ["Colossal", "Inhuman", "Monumental"]),
    (
        10,
        "Cosmic or maximum superhuman",
        ["Astonishing", "Cosmic", "Marvelous"],
    ),
];

/// A level's label with one of its names: `level_name(8, 1)` is "Astounding (8)".
pub fn level_name(level: i64, name_set: usize) -> Option<String> {
    let (_, _, names) = LEVELS.iter().find(|(l, _, _)| i64::from(*l) == level)?;
    Some(format!("{} ({level})", names.get(name_set)?))
}

/// Cosmic difficulty, and the effort that achieves a massive cosmic success against it.
pub const COSMIC_DIFFICULTY: i64 = 10;
pub const COSMIC_EFFORT: i64 = 15;

/// `icons.test`: a test of an ability against a difficulty (a reaction is a test whose difficulty
/// is the GM character's ability).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Test {
    pub ability: i64,
    pub difficulty: i64,
    /// Added to the effort.
    #[serde(default)]
    pub bonus: i64,
    /// Added to the difficulty: "a penalty, expressed as a minus ... increasing the test's
    /// difficulty", so a –1 penalty is `penalty: 1`; negative penalties are refused.
    #[serde(default)]
    pub penalty: i64,
}

/// failure / moderate / major / massive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Failure,
    Moderate,
    Major,
    Massive,
}

/// The outcome for an effect.
pub fn outcome(effect: i64) -> Outcome {
    match effect {
        e if e < 0 => Outcome::Failure,
        0..=2 => Outcome::Moderate,
        3 | 4 => Outcome::Major,
        _ => Outcome::Massive,
    }
}

/// What a test came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestOutcome {
    pub positive: i64,
    pub negative: i64,
    /// positive − negative, −5 to +5.
    pub result: i64,
    pub effort: i64,
    pub effect: i64,
    pub outcome: Outcome,
    /// A massive cosmic success: effort 15+ against an effective difficulty (with penalties) of 10.
    pub cosmic: bool,
}

impl Test {
    fn check(&self) -> Result<()> {
        check_range("ability", self.ability, 0, 100)?;
        check_range("difficulty", self.difficulty, 0, 100)?;
        check_range("bonus", self.bonus, -100, 100)?;
        if self.penalty < 0 {
            // The seed writes penalties with a minus ("a –1 penalty") but they raise the
            // difficulty; a negative number here would make the test easier.
            return Err(Error::request(format!(
                "penalty must be from 0 to 100, not {}: a penalty written \"–{}\" raises the \
                 difficulty, so enter it as {}",
                self.penalty,
                self.penalty.unsigned_abs(),
                self.penalty.unsigned_abs()
            )));
        }
        check_range("penalty", self.penalty, 0, 100)?;
        Ok(())
    }
    /// The difficulty with its penalties: what the effort is measured against.
    pub fn effective_difficulty(&self) -> i64 {
        self.difficulty + self.penalty
    }
    fn effect(&self, effort: i64) -> i64 {
        effort - self.effective_difficulty()
    }
    /// Effort 15+ on a test whose effective difficulty is cosmic (10); the effect is then 5 or
    /// more, a massive success.
    fn cosmic(&self, effort: i64) -> bool {
        self.effective_difficulty() == COSMIC_DIFFICULTY && effort >= COSMIC_EFFORT
    }
}

impl DiceRule for Test {
    type Outcome = TestOutcome;
    /// The total is the effort; the positive die is planned first, then the negative.
    fn formula(&self) -> Result<String> {
        self.check()?;
        let base = self.ability + self.bonus;
        Ok(format!("1d6[positive] - 1d6[negative] + {base}").replace("+ -", "- "))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<TestOutcome> {
        let positive = term(eval, "positive").map_or(0, |t| t.total);
        let negative = term(eval, "negative").map_or(0, |t| t.total);
        let effort = eval.total;
        let effect = self.effect(effort);
        Ok(TestOutcome {
            positive,
            negative,
            result: positive - negative,
            effort,
            effect,
            outcome: outcome(effect),
            cosmic: self.cosmic(effort),
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        let mut out = vec![
            (
                "failure",
                Prob::of(dist, |e| outcome(self.effect(e)) == Outcome::Failure),
            ),
            (
                "moderate",
                Prob::of(dist, |e| outcome(self.effect(e)) == Outcome::Moderate),
            ),
            (
                "major",
                Prob::of(dist, |e| outcome(self.effect(e)) == Outcome::Major),
            ),
            (
                "massive",
                Prob::of(dist, |e| outcome(self.effect(e)) == Outcome::Massive),
            ),
        ];
        if self.effective_difficulty() == COSMIC_DIFFICULTY {
            out.push(("cosmic", Prob::of(dist, |e| self.cosmic(e))));
        }
        Ok(out)
    }
}
