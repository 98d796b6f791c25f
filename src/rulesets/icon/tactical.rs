//! Tactical combat rolls: attacks, saves and damage ("Rules Reference (Tactical Combat)").

use super::boons::{fragment, signed};
use crate::dice::odds::Distribution;
use crate::dice::resolve::Evaluation;
use crate::error::{Error, Result};
use crate::rulesets::{check_range, kept, term, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// The largest flat bonus a roll accepts.
const MAX_BONUS: i64 = 1000;

fn yes() -> bool {
    true
}

/// The d20 and boon/curse dice of an attack or save.
fn d20_formula(boons: u32, curses: u32, bonus: i64) -> Result<String> {
    check_range("bonus", bonus, -MAX_BONUS, MAX_BONUS)?;
    Ok(format!(
        "1d20[d20]{}{}",
        fragment(boons, curses)?,
        signed(bonus)
    ))
}

/// The dice of a d20 roll: the d20 and the counted boon or curse die.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct D20Dice {
    pub d20: i64,
    pub boon_die: Option<i64>,
    pub curse_die: Option<i64>,
}

impl D20Dice {
    fn read(eval: &Evaluation) -> Self {
        let die = |role: &str| term(eval, role).map(|t| t.total);
        Self {
            d20: die("d20").unwrap_or(0),
            boon_die: die("boon"),
            curse_die: die("curse"),
        }
    }
}

/// `icon.attack`: d20 + boon/curse die + bonus against a defense. "20+ on any total attack roll is
/// a critical hit" (Bonus Damage/Critical Hits); "NPCs cannot land critical hits unless noted".
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attack {
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    #[serde(default)]
    pub bonus: i64,
    #[serde(default)]
    pub defense: Option<i64>,
    #[serde(default = "yes")]
    pub can_crit: bool,
}

/// What an attack roll came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackOutcome {
    #[serde(flatten)]
    pub dice: D20Dice,
    /// `null` when no defense was given.
    pub hit: Option<bool>,
    /// Total 20+ (and the attacker can crit); a critical hit counts as a hit.
    pub crit: bool,
    /// Total 15+.
    pub exceed: bool,
}

impl Attack {
    fn crit(&self, total: i64) -> bool {
        self.can_crit && total >= 20
    }
    fn hit(&self, total: i64) -> Option<bool> {
        self.defense.map(|d| total >= d || self.crit(total))
    }
}

impl DiceRule for Attack {
    type Outcome = AttackOutcome;
    fn formula(&self) -> Result<String> {
        if let Some(d) = self.defense {
            check_range("defense", d, 0, 100)?;
        }
        d20_formula(self.boons, self.curses, self.bonus)
    }
    fn outcome(&self, eval: &Evaluation) -> Result<AttackOutcome> {
        let total = eval.total;
        Ok(AttackOutcome {
            dice: D20Dice::read(eval),
            hit: self.hit(total),
            crit: self.crit(total),
            exceed: total >= 15,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        let mut out = vec![
            ("crit", Prob::of(dist, |t| self.crit(t))),
            ("exceed", Prob::of(dist, |t| t >= 15)),
        ];
        if self.defense.is_some() {
            out.push(("hit", Prob::of(dist, |t| self.hit(t) == Some(true))));
        }
        Ok(out)
    }
}

/// `icon.save`: d20 + boon/curse die + bonus; 10+ succeeds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Save {
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    #[serde(default)]
    pub bonus: i64,
}

/// What a save came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveOutcome {
    #[serde(flatten)]
    pub dice: D20Dice,
    pub success: bool,
}

/// A save succeeds on a total of 10 or more.
pub const SAVE_TARGET: i64 = 10;

impl DiceRule for Save {
    type Outcome = SaveOutcome;
    fn formula(&self) -> Result<String> {
        d20_formula(self.boons, self.curses, self.bonus)
    }
    fn outcome(&self, eval: &Evaluation) -> Result<SaveOutcome> {
        Ok(SaveOutcome {
            dice: D20Dice::read(eval),
            success: eval.total >= SAVE_TARGET,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(vec![("success", Prob::of(dist, |t| t >= SAVE_TARGET))])
    }
}

/// How an attack landed, for its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttackResult {
    Hit,
    Crit,
    Miss,
}

fn one() -> u32 {
    1
}

/// `icon.damage`: on a hit `dice`×[D] + fray + flat ("Light attack: On hit: [D] + fray, Miss: fray;
/// Heavy Attack: 2[D] + fray"); a critical hit adds +[D]; bonus damage rolls extra [D] and keeps
/// the highest ("roll 1 more die than normal and pick the highest total result"). A miss deals fray.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Damage {
    pub result: AttackResult,
    /// The damage die [D]: 6, 8, 10 or 12.
    pub die: u32,
    #[serde(default = "one")]
    pub dice: u32,
    pub fray: i64,
    #[serde(default)]
    pub flat: i64,
    #[serde(default)]
    pub bonus_dice: u32,
}

/// What a damage roll came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DamageOutcome {
    pub result: AttackResult,
    pub kept: Vec<i64>,
    pub dropped: Vec<i64>,
    pub fray: i64,
    pub flat: i64,
}

impl DiceRule for Damage {
    type Outcome = DamageOutcome;
    fn formula(&self) -> Result<String> {
        if ![6, 8, 10, 12].contains(&self.die) {
            return Err(Error::request(format!(
                "the damage die [D] must be 6, 8, 10 or 12, not {}",
                self.die
            )));
        }
        // 0 dice: an attack whose hit deals only fray (and flat) damage.
        check_range("dice", i64::from(self.dice), 0, 20)?;
        check_range("bonusDice", i64::from(self.bonus_dice), 0, 20)?;
        check_range("fray", self.fray, 0, MAX_BONUS)?;
        check_range("flat", self.flat, -MAX_BONUS, MAX_BONUS)?;
        let fray = format!("{}[fray]", self.fray);
        let keep = match self.result {
            AttackResult::Miss => return Ok(fray),
            AttackResult::Hit => self.dice,
            AttackResult::Crit => self.dice + 1,
        };
        if keep == 0 {
            return Ok(format!("{fray}{}", signed(self.flat)));
        }
        Ok(format!(
            "{}d{}kh{keep}[damage] + {fray}{}",
            keep + self.bonus_dice,
            self.die,
            signed(self.flat)
        ))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<DamageOutcome> {
        let dropped = term(eval, "damage")
            .map(|t| {
                t.results
                    .iter()
                    .filter(|r| !r.active)
                    .map(|r| r.value)
                    .collect()
            })
            .unwrap_or_default();
        Ok(DamageOutcome {
            result: self.result,
            kept: kept(eval, "damage"),
            dropped,
            fray: self.fray,
            flat: self.flat,
        })
    }
    fn outcomes(&self, _dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(Vec::new())
    }
}
