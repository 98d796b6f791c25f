//! Tactical combat rolls: attacks, saves and damage ("Rules Reference (Tactical Combat)").

use super::boons::{fragment, signed};
use crate::dice::odds::num::{Num, Ratio};
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

/// The dice of a d20 roll: the d20 and the counted boon or curse die (`d20` is `null` for an
/// auto-hit attack, which makes no attack roll).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct D20Dice {
    pub d20: Option<i64>,
    pub boon_die: Option<i64>,
    pub curse_die: Option<i64>,
}

impl D20Dice {
    fn read(eval: &Evaluation) -> Self {
        let die = |role: &str| term(eval, role).map(|t| t.total);
        Self {
            d20: die("d20"),
            boon_die: die("boon"),
            curse_die: die("curse"),
        }
    }
}

/// Evasion: "Roll a d6 when attacked. On a 4+, the attack automatically misses."
pub const EVASION_TARGET: i64 = 4;

/// `p` scaled by the chance an evasion d6 fails (1/2), when the attack can be evaded.
fn unless_evaded(p: Prob, evading: bool) -> Prob {
    if !evading {
        return p;
    }
    let half = Ratio::ratio(1, 2);
    Prob::closed(p.p / 2.0, p.exact.zip(half).and_then(|(e, h)| e.mul(h)))
}

/// `icon.attack`: d20 + boon/curse die + bonus against a defense. "20+ on any total attack roll is
/// a critical hit" (Bonus Damage/Critical Hits); "NPCs cannot land critical hits unless noted".
///
/// A target with Evasion rolls "a d6 when attacked. On a 4+, the attack automatically misses.
/// Check before the attack roll": its d6 is the attack's first die (`1d6[evasion] * 0`, so the
/// total stays the attack roll's), and an evaded attack neither hits, crits nor exceeds. True
/// Strike "Ignores dodge, blind, evasion, and stealth": no evasion die. Auto-Hit "doesn't make an
/// attack roll but always scores a hit (not critical hit or miss)": no d20 and no boon dice, a
/// hit unless evaded (an auto-hit attack is still an attack, and Evasion answers attacks).
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
    /// True Strike: ignores the target's Evasion (and, elsewhere, Dodge, Blind and Stealth).
    #[serde(default)]
    pub true_strike: bool,
    /// Auto-Hit: no attack roll; always a hit, never a critical hit or a miss.
    #[serde(default)]
    pub auto_hit: bool,
    /// The target has Evasion.
    #[serde(default)]
    pub evasion: bool,
}

/// What an attack roll came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackOutcome {
    #[serde(flatten)]
    pub dice: D20Dice,
    /// `null` when no defense was given (and the attack is no auto-hit).
    pub hit: Option<bool>,
    /// Total 20+ (and the attacker can crit); a critical hit counts as a hit.
    pub crit: bool,
    /// Total 15+.
    pub exceed: bool,
    /// The target's Evasion d6, when it rolled one.
    pub evasion_die: Option<i64>,
    /// The Evasion d6 came up 4+: the attack missed.
    pub evaded: bool,
    pub auto_hit: bool,
}

impl Attack {
    /// Whether the target rolls its Evasion d6 against this attack.
    pub fn evading(&self) -> bool {
        self.evasion && !self.true_strike
    }
    fn crit(&self, total: i64) -> bool {
        !self.auto_hit && self.can_crit && total >= 20
    }
    fn exceed(&self, total: i64) -> bool {
        // Exceed is "a total attack roll of 15+": an auto-hit makes none.
        !self.auto_hit && total >= 15
    }
    fn hit(&self, total: i64) -> Option<bool> {
        if self.auto_hit {
            return Some(true);
        }
        self.defense.map(|d| total >= d || self.crit(total))
    }
}

impl DiceRule for Attack {
    type Outcome = AttackOutcome;
    fn formula(&self) -> Result<String> {
        if let Some(d) = self.defense {
            check_range("defense", d, 0, 100)?;
        }
        let roll = if self.auto_hit {
            if self.boons + self.curses > 0 || self.bonus != 0 {
                return Err(Error::request(
                    "an auto-hit attack makes no attack roll: send no boons, curses or bonus with \
                     autoHit",
                ));
            }
            "0".to_string()
        } else {
            d20_formula(self.boons, self.curses, self.bonus)?
        };
        Ok(if self.evading() {
            format!("1d6[evasion] * 0 + {roll}")
        } else {
            roll
        })
    }
    fn outcome(&self, eval: &Evaluation) -> Result<AttackOutcome> {
        let total = eval.total;
        let evasion_die = term(eval, "evasion").map(|t| t.total);
        let evaded = evasion_die.is_some_and(|d| d >= EVASION_TARGET);
        Ok(AttackOutcome {
            dice: D20Dice::read(eval),
            hit: if evaded { Some(false) } else { self.hit(total) },
            crit: !evaded && self.crit(total),
            exceed: !evaded && self.exceed(total),
            evasion_die,
            evaded,
            auto_hit: self.auto_hit,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        // The evasion die is independent of the attack roll (and counts 0 in the total), so
        // P(x and not evaded) = P(x) / 2.
        let evading = self.evading();
        let mut out = vec![
            (
                "crit",
                unless_evaded(Prob::of(dist, |t| self.crit(t)), evading),
            ),
            (
                "exceed",
                unless_evaded(Prob::of(dist, |t| self.exceed(t)), evading),
            ),
        ];
        if self.defense.is_some() || self.auto_hit {
            out.push((
                "hit",
                unless_evaded(Prob::of(dist, |t| self.hit(t) == Some(true)), evading),
            ));
        }
        if evading {
            out.push((
                "evaded",
                Prob::closed(0.5, Ratio::ratio(1, 2).filter(|_| dist.exact.is_some())),
            ));
        }
        Ok(out)
    }
}

/// `icon.save`: d20 + boon/curse die + bonus; 10+ succeeds. A Blessing token spent on it gives
/// +1 boon: "By default a character can use a blessing token to gain +1 boon when they make a
/// save" (one token a save).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Save {
    #[serde(default)]
    pub boons: u32,
    #[serde(default)]
    pub curses: u32,
    #[serde(default)]
    pub bonus: i64,
    /// A Blessing token is spent on this save: +1 boon.
    #[serde(default)]
    pub blessing: bool,
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
        let boons = self.boons.saturating_add(u32::from(self.blessing));
        d20_formula(boons, self.curses, self.bonus)
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
/// Heavy Attack: 2[D] + fray"); a critical hit adds +[D]; bonus damage rolls one extra [D] and
/// keeps the highest ("If any ability grants bonus damage, roll 1 more die than normal and pick
/// the highest total result"). A miss deals fray. "Critical hits don't stack, if you critical hit
/// again, you gain bonus damage": a critical hit that is critical a second time (`critAgain`: the
/// roll's 20+ and an ability that makes the hit critical, or two such abilities) keeps its one
/// +[D] and gains bonus damage. Bonus damage is had or not, never stacked: any `bonusDice` above
/// 0, `critAgain`, or both, roll the one extra die.
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
    /// Bonus damage, as a count for compatibility: any count above 0 is the one bonus die
    /// ("roll 1 more die than normal"), however many abilities grant it.
    #[serde(default)]
    pub bonus_dice: u32,
    /// The critical hit is critical again: it gains bonus damage (only with `crit`), the same
    /// one bonus die as `bonusDice` (the two do not stack).
    #[serde(default)]
    pub crit_again: bool,
}

impl Damage {
    /// The bonus damage dice rolled: 1 when anything grants bonus damage (`bonusDice` above 0, a
    /// repeated critical hit, or both), else 0.
    pub fn all_bonus_dice(&self) -> u32 {
        u32::from(self.bonus_dice > 0 || self.crit_again)
    }
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
        if self.crit_again && self.result != AttackResult::Crit {
            return Err(Error::request(
                "critAgain is a critical hit made critical again: send result \"crit\"",
            ));
        }
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
            keep + self.all_bonus_dice(),
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
