//! Men & Supermen (seed `men-and-supermen.txt`): action rolls and saves.
//!
//! "Action Rolls use 2d10. If the 2d10 result is less than or equal to the Action Roll in
//! question, the Action is successful. The Quality of the success is found by subtracting the die
//! roll from the target number." For a Special Character, "when a 1 shows up on one of the dice,
//! that die can be re-rolled, and its second result subtracted from the first ... If both dice
//! come up 1, both dice will be re-rolled, and their total subtracted from 2. Dice are only
//! re-rolled once." Zeroes on a d10 read as 10, so the dice are 1–10.

use crate::dice::ast::Die;
use crate::dice::odds::dist::{Budget, Dist, Fail};
use crate::dice::odds::num::{Num, Ratio};
use crate::dice::odds::Distribution;
use crate::dice::resolve::{DiceNeed, Evaluation, Role};
use crate::error::{Error, Result};
use crate::rulesets::{check_range, term, DiceRule, Prob};
use serde::{Deserialize, Serialize};

fn yes() -> bool {
    true
}

/// `mns.action`: an Action Roll against a target number.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Action {
    /// The Action Roll needed.
    pub target: i64,
    /// The bonus pool (negative for a penalty).
    #[serde(default)]
    pub bonus: i64,
    /// Special characters re-roll 1s and subtract the re-roll.
    #[serde(default = "yes")]
    pub special: bool,
}

/// What an action roll came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionOutcome {
    pub dice: Vec<i64>,
    /// The re-rolls of the 1s, subtracted.
    pub rerolls: Vec<i64>,
    pub success: bool,
    /// Target + bonus − total: the lower the dice, the higher the quality.
    pub quality: i64,
}

impl Action {
    fn needed(&self) -> i64 {
        self.target + self.bonus
    }
    fn dice(eval: &Evaluation) -> Vec<i64> {
        term(eval, "action")
            .map(|t| t.results.iter().map(|r| r.value).collect())
            .unwrap_or_default()
    }
    /// The exact distribution of one special die: 2–10 as rolled, a 1 becomes 1 − re-roll.
    fn special_die() -> std::result::Result<Dist<Ratio>, Fail> {
        let tenth = Ratio::ratio(1, 10).ok_or(Fail::Inexact)?;
        let hundredth = Ratio::ratio(1, 100).ok_or(Fail::Inexact)?;
        let mut points: Vec<(i64, Ratio)> = (2..=10).map(|v| (v, tenth)).collect();
        points.extend((1..=10).map(|r| (1 - r, hundredth)));
        Dist::from_points(points)
    }
}

impl DiceRule for Action {
    type Outcome = ActionOutcome;
    fn formula(&self) -> Result<String> {
        check_range("target", self.target, -1000, 1000)?;
        check_range("bonus", self.bonus, -1000, 1000)?;
        Ok("2d10[action]".to_string())
    }
    fn follow_up(&self, eval: &Evaluation) -> Option<DiceNeed> {
        let ones = Self::dice(eval).iter().filter(|v| **v == 1).count() as u32;
        (self.special && ones > 0).then_some(DiceNeed {
            die: Die::Standard(10),
            count: ones,
            role: Role::Reroll,
            term: 0,
        })
    }
    fn outcome(&self, eval: &Evaluation) -> Result<ActionOutcome> {
        self.outcome_with(eval, &[])
    }
    fn outcome_with(&self, eval: &Evaluation, extra: &[i64]) -> Result<ActionOutcome> {
        let total = self.total_with(eval, extra);
        Ok(ActionOutcome {
            dice: Self::dice(eval),
            rerolls: extra.to_vec(),
            success: total <= self.needed(),
            quality: self.needed() - total,
        })
    }
    fn total_with(&self, eval: &Evaluation, extra: &[i64]) -> i64 {
        eval.total - extra.iter().sum::<i64>()
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(vec![
            ("success", Prob::of(dist, |t| t <= self.needed())),
            ("failure", Prob::of(dist, |t| t > self.needed())),
        ])
    }
    fn distribution(&self) -> Option<Result<Distribution>> {
        if !self.special {
            return None;
        }
        let two = Self::special_die().and_then(|d| d.convolve(&d, &mut Budget::new(true)));
        Some(
            two.map(|d| Distribution::from_exact(&d)).map_err(|_| {
                Error::odds("the odds of a special action roll could not be computed")
            }),
        )
    }
}

/// The dice of a save: 2d10, or d100 (00 reads as 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum SaveDice {
    #[default]
    #[serde(rename = "2d10")]
    TwoD10,
    #[serde(rename = "d100")]
    D100,
}

/// `mns.save`: a saving throw or knowledge roll, succeeding at or under the score; no re-rolls.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Save {
    pub score: i64,
    #[serde(default)]
    pub dice: SaveDice,
}

/// What a save came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveOutcome {
    pub success: bool,
    pub quality: i64,
}

impl DiceRule for Save {
    type Outcome = SaveOutcome;
    fn formula(&self) -> Result<String> {
        check_range("score", self.score, -1000, 1000)?;
        Ok(match self.dice {
            SaveDice::TwoD10 => "2d10[save]",
            SaveDice::D100 => "1d100[save]",
        }
        .to_string())
    }
    fn outcome(&self, eval: &Evaluation) -> Result<SaveOutcome> {
        Ok(SaveOutcome {
            success: eval.total <= self.score,
            quality: self.score - eval.total,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(vec![
            ("success", Prob::of(dist, |t| t <= self.score)),
            ("failure", Prob::of(dist, |t| t > self.score)),
        ])
    }
}
