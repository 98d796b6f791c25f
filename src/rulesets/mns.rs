//! Men & Supermen (seed `men-and-supermen.txt`): action rolls, saves and the special dice.
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

/// The faces of the 2d10 an action roll or a save rolled (before any re-roll).
fn two_d10(eval: &Evaluation, role: &str) -> Vec<i64> {
    term(eval, role)
        .map(|t| t.results.iter().map(|r| r.value).collect())
        .unwrap_or_default()
}

/// A special character's re-roll of every 1 on 2d10 ("Usually, when a Special Character rolls
/// 2d10 and a 1 is rolled, that die can be rolled again"): one d10 per 1, subtracted.
fn reroll_ones(dice: &[i64]) -> Option<DiceNeed> {
    let ones = dice.iter().filter(|v| **v == 1).count() as u32;
    (ones > 0).then_some(DiceNeed {
        die: Die::Standard(10),
        count: ones,
        role: Role::Reroll,
        term: 0,
    })
}

/// The exact distribution of one special character's d10: 2–10 as rolled, a 1 becomes
/// 1 − re-roll.
fn special_die() -> std::result::Result<Dist<Ratio>, Fail> {
    let tenth = Ratio::ratio(1, 10).ok_or(Fail::Inexact)?;
    let hundredth = Ratio::ratio(1, 100).ok_or(Fail::Inexact)?;
    let mut points: Vec<(i64, Ratio)> = (2..=10).map(|v| (v, tenth)).collect();
    points.extend((1..=10).map(|r| (1 - r, hundredth)));
    Dist::from_points(points)
}

/// The exact distribution of a special character's 2d10 with its re-rolled 1s.
fn special_two_d10(what: &str) -> Result<Distribution> {
    special_die()
        .and_then(|d| d.convolve(&d, &mut Budget::new(true)))
        .map(|d| Distribution::from_exact(&d))
        .map_err(|_| {
            Error::odds(format!(
                "the odds of a special {what} could not be computed"
            ))
        })
}

impl Action {
    fn needed(&self) -> i64 {
        self.target + self.bonus
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
        if !self.special {
            return None;
        }
        reroll_ones(&two_d10(eval, "action"))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<ActionOutcome> {
        self.outcome_with(eval, &[])
    }
    fn outcome_with(&self, eval: &Evaluation, extra: &[i64]) -> Result<ActionOutcome> {
        let total = self.total_with(eval, extra);
        Ok(ActionOutcome {
            dice: two_d10(eval, "action"),
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
        self.special.then(|| special_two_d10("action roll"))
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

/// `mns.save`: a saving throw or knowledge roll, succeeding at or under the score plus the bonus
/// pool. On 2d10 a special character re-rolls 1s as on every 2d10 roll; "Ones do not reduce the
/// die roll for Knowledge Rolls" (d100), which never re-roll.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Save {
    pub score: i64,
    #[serde(default)]
    pub dice: SaveDice,
    /// The bonus pool (negative for a penalty): "there might well be a bonus of 1, 2, 3, or 4 to
    /// the bonus pool" of a save.
    #[serde(default)]
    pub bonus: i64,
    /// Special characters re-roll 1s on 2d10 and subtract the re-roll (default, as for actions).
    #[serde(default = "yes")]
    pub special: bool,
}

/// What a save came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveOutcome {
    /// The faces rolled (two d10s, or the d100).
    pub dice: Vec<i64>,
    /// The re-rolls of the 1s, subtracted (2d10, special characters).
    pub rerolls: Vec<i64>,
    pub success: bool,
    /// Score + bonus − total.
    pub quality: i64,
}

impl Save {
    fn needed(&self) -> i64 {
        self.score + self.bonus
    }
    fn rerolls(&self) -> bool {
        self.special && self.dice == SaveDice::TwoD10
    }
}

impl DiceRule for Save {
    type Outcome = SaveOutcome;
    fn formula(&self) -> Result<String> {
        check_range("score", self.score, -1000, 1000)?;
        check_range("bonus", self.bonus, -1000, 1000)?;
        Ok(match self.dice {
            SaveDice::TwoD10 => "2d10[save]",
            SaveDice::D100 => "1d100[save]",
        }
        .to_string())
    }
    fn follow_up(&self, eval: &Evaluation) -> Option<DiceNeed> {
        if !self.rerolls() {
            return None;
        }
        reroll_ones(&two_d10(eval, "save"))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<SaveOutcome> {
        self.outcome_with(eval, &[])
    }
    fn outcome_with(&self, eval: &Evaluation, extra: &[i64]) -> Result<SaveOutcome> {
        let total = self.total_with(eval, extra);
        Ok(SaveOutcome {
            dice: two_d10(eval, "save"),
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
        self.rerolls().then(|| special_two_d10("save"))
    }
}

/// The glossary's special dice ("Special Dice"), each read from the physical dice it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum Special {
    /// "roll d6; 1, 2, & 3 are 1; 4, 5, & 6 are 2."
    #[serde(rename = "d2")]
    D2,
    /// "roll d6; 1 & 2 are 1; 3 & 4 are 2; 5 & 6 are 3"
    #[serde(rename = "d3")]
    D3,
    /// "roll d10; divide the result by 2; round up."
    #[serde(rename = "d5")]
    D5,
    /// "roll d4; subtract 1; multiply by 8; add d8."
    #[serde(rename = "d32")]
    D32,
    /// Tens die then ones die, a "ten" reading zero; "If two zeros are rolled, this is really 100."
    #[serde(rename = "d100")]
    D100,
    /// Hundreds, tens and ones, "'Tens' mean '0' unless all three come up zero, which is 1,000."
    #[serde(rename = "d1000")]
    D1000,
    /// "roll d100; this roll is used to generate a percentage": the d100 over 100.
    #[serde(rename = "d%")]
    Percent,
}

impl Special {
    /// The physical dice in roll order: (faces, role).
    pub fn physical(self) -> &'static [(u32, &'static str)] {
        match self {
            Special::D2 | Special::D3 => &[(6, "d6")],
            Special::D5 => &[(10, "d10")],
            Special::D32 => &[(4, "d4"), (8, "d8")],
            Special::D100 | Special::Percent => &[(10, "tens"), (10, "ones")],
            Special::D1000 => &[(10, "hundreds"), (10, "tens"), (10, "ones")],
        }
    }

    /// How many values the die has (it reads 1 to this).
    pub fn sides(self) -> i64 {
        match self {
            Special::D2 => 2,
            Special::D3 => 3,
            Special::D5 => 5,
            Special::D32 => 32,
            Special::D100 | Special::Percent => 100,
            Special::D1000 => 1000,
        }
    }

    /// The value the seed's procedure reads from the physical faces (in [`Special::physical`]
    /// order; a d10 face is 1–10, its "ten" reading as a zero digit).
    pub fn read(self, faces: &[i64]) -> Result<i64> {
        let dice = self.physical();
        if faces.len() != dice.len()
            || faces
                .iter()
                .zip(dice)
                .any(|(f, (n, _))| !(1..=i64::from(*n)).contains(f))
        {
            return Err(Error::faces(format!(
                "a {} reads {} dice ({}), not {faces:?}",
                self.name(),
                dice.len(),
                dice.iter()
                    .map(|(n, _)| format!("d{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        // "a 'ten' means 'zero'": the digits, all-zero reading as the largest value
        let digits = || {
            let v = faces.iter().fold(0, |acc, f| acc * 10 + f % 10);
            if v == 0 {
                self.sides()
            } else {
                v
            }
        };
        Ok(match self {
            Special::D2 => (faces[0] - 1) / 3 + 1,
            Special::D3 | Special::D5 => (faces[0] + 1) / 2,
            Special::D32 => (faces[0] - 1) * 8 + faces[1],
            Special::D100 | Special::Percent | Special::D1000 => digits(),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Special::D2 => "d2",
            Special::D3 => "d3",
            Special::D5 => "d5",
            Special::D32 => "d32",
            Special::D100 => "d100",
            Special::D1000 => "d1000",
            Special::Percent => "d%",
        }
    }
}

/// `mns.dice`: one of the special dice.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpecialRoll {
    pub die: Special,
}

/// What a special die came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecialOutcome {
    pub die: Special,
    /// The physical faces read, in roll order.
    pub dice: Vec<i64>,
    /// How many faces each of those physical dice has (a d32 is a d4 and a d8: `[4, 8]`).
    pub die_faces: Vec<u32>,
    pub value: i64,
    /// d%: the value divided by 100 ("divide the roll by 100 first, then multiply").
    pub multiplier: Option<f64>,
}

impl SpecialRoll {
    fn faces(&self, eval: &Evaluation) -> Vec<i64> {
        self.die
            .physical()
            .iter()
            .map(|(_, role)| term(eval, role).map_or(0, |t| t.total))
            .collect()
    }
}

impl DiceRule for SpecialRoll {
    type Outcome = SpecialOutcome;
    /// The physical dice, each named for its part; the total is re-read by the procedure.
    fn formula(&self) -> Result<String> {
        Ok(self
            .die
            .physical()
            .iter()
            .map(|(n, role)| format!("1d{n}[{role}]"))
            .collect::<Vec<_>>()
            .join(" + "))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<SpecialOutcome> {
        let dice = self.faces(eval);
        let value = self.die.read(&dice)?;
        Ok(SpecialOutcome {
            die: self.die,
            dice,
            die_faces: self.die.physical().iter().map(|(n, _)| *n).collect(),
            value,
            multiplier: (self.die == Special::Percent).then(|| value as f64 / 100.0),
        })
    }
    fn total_with(&self, eval: &Evaluation, _extra: &[i64]) -> i64 {
        self.die.read(&self.faces(eval)).unwrap_or(eval.total)
    }
    fn outcomes(&self, _dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(Vec::new())
    }
    /// Every combination of the physical faces, read by the procedure.
    fn distribution(&self) -> Option<Result<Distribution>> {
        let dice = self.die.physical();
        let count: u64 = dice.iter().map(|(n, _)| u64::from(*n)).product();
        let weight = match Ratio::ratio(1, count) {
            Some(w) => w,
            None => return Some(Err(Error::odds("the special die's odds are out of range"))),
        };
        let mut points = Vec::new();
        for code in 0..count {
            let mut rest = code;
            let faces: Vec<i64> = dice
                .iter()
                .map(|(n, _)| {
                    let f = (rest % u64::from(*n)) as i64 + 1;
                    rest /= u64::from(*n);
                    f
                })
                .collect();
            match self.die.read(&faces) {
                Ok(v) => points.push((v, weight)),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(
            Dist::from_points(points)
                .map(|d| Distribution::from_exact(&d))
                .map_err(|_| Error::odds("the special die's odds could not be computed")),
        )
    }
}
