//! The 3d6 skill system (seed `narrator-3d6-skill-use.txt`).
//!
//! Skill roll = skill + dice ("The default set of dice is 3 six-sided dice, with the alternative
//! of adding 10", the deterministic roll) + modifiers; success levels = roll − difficulty. How the
//! levels read depends on the kind of use: qualitative (0 or more succeeds), quantitative (each
//! level 20% coarse / 10% fine), background knowledge (the seed's bands) or an attack (2+ failure
//! levels miss, 1 wings for half base damage, 0 hits, each success adds bonus damage of a quarter
//! (coarse) or an eighth (fine) of one rank's damage).

use crate::dice::odds::Distribution;
use crate::dice::resolve::{Evaluation, TermOutcome};
use crate::error::{Error, Result};
use crate::rulesets::{check_range, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// A chart row: an id (for the module's i18n keys), the seed's words, and the number.
pub type ChartRow = (&'static str, &'static str, i64);

/// The narrator's difficulty chart for unopposed qualitative uses.
pub const DIFFICULTY_CHART: [ChartRow; 12] = [
    (
        "unskilled",
        "Success only an issue for the unskilled or incompetent",
        15,
    ),
    ("beginnerRisk", "Possible failure for a beginner", 18),
    (
        "beginnerChallenge",
        "Challenging task (50/50 success) for a beginner",
        20,
    ),
    ("amateurChallenge", "Challenging task for an amateur", 22),
    (
        "professionalChallenge",
        "Challenging task for a professional",
        25,
    ),
    (
        "professionalDaunting",
        "Daunting task for a professional / challenging task for an expert",
        28,
    ),
    ("expertDaunting", "Daunting task for an expert", 32),
    (
        "expertImpossible",
        "Nigh impossible for expert, challenge for master",
        35,
    ),
    (
        "masterDaunting",
        "Daunting task for master, challenge for genius",
        38,
    ),
    (
        "masterImpossible",
        "Nigh impossible for master, daunting for genius",
        40,
    ),
    (
        "legendary",
        "Legendary, stretching the borders of the conceivable",
        45,
    ),
    ("superhuman", "Superhuman", 48),
];

/// The opposed-action modifiers to the difficulty (the opponent's roll).
pub const OPPOSED_MODIFIERS: [ChartRow; 9] = [
    (
        "overwhelminglyFavor",
        "Circumstances overwhelmingly favor actor",
        -12,
    ),
    ("greatlyFavor", "Circumstances greatly favor actor", -8),
    (
        "substantiallyFavor",
        "Circumstances substantially favor actor",
        -4,
    ),
    (
        "moderatelyFavor",
        "Circumstances moderately favor actor",
        -2,
    ),
    ("neutral", "Circumstances neither favor or hinder actor", 0),
    (
        "moderatelyHinder",
        "Circumstances moderately hinder actor",
        2,
    ),
    (
        "substantiallyHinder",
        "Circumstances substantially hinder actor",
        4,
    ),
    ("greatlyHinder", "Circumstances greatly hinder actor", 8),
    (
        "overwhelminglyHinder",
        "Circumstances overwhelmingly hinder actor",
        12,
    ),
];

/// Background-knowledge difficulties by how closely the subject matches the skill.
pub const KNOWLEDGE_DIFFICULTY: [ChartRow; 7] = [
    ("essential", "Essential to the skill", 15),
    ("central", "A central part of the skill", 18),
    ("typical", "A typical but advanced part of the skill", 20),
    ("elective", "An elective part of the skill", 24),
    ("unusual", "An unusual aspect of the skill", 28),
    ("esoteric", "An esoteric aspect of the skill", 32),
    ("tangential", "Only tangentially related", 36),
];

/// The opponent's roll in an opposed action when the opponent does not roll: "usually an NPC
/// opponent will take the deterministic roll, 10 + skill level".
pub fn opposed_difficulty(opponent_skill: i64, modifier: i64) -> i64 {
    DETERMINISTIC + opponent_skill + modifier
}

/// The deterministic roll: "the alternative of adding 10".
pub const DETERMINISTIC: i64 = 10;

fn three_d6() -> String {
    "3d6".to_string()
}

/// How the success levels are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Use {
    #[default]
    Qualitative,
    Quantitative,
    Knowledge,
    Attack,
}

/// Coarse (20% a level, bonus damage 1/4 a level) or fine (10%, 1/8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    #[default]
    Coarse,
    Fine,
}

impl Scale {
    /// Percent per success level.
    pub fn percent(self) -> i64 {
        match self {
            Scale::Coarse => 20,
            Scale::Fine => 10,
        }
    }
    /// Success levels per extra power rank, and the bonus-damage divisor.
    pub fn step(self) -> i64 {
        match self {
            Scale::Coarse => 4,
            Scale::Fine => 8,
        }
    }
}

/// `narrator.skill`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Skill {
    pub skill: i64,
    pub difficulty: i64,
    /// `"3d6"`, `"deterministic"` or any dice formula.
    #[serde(default = "three_d6")]
    pub dice: String,
    #[serde(default)]
    pub modifiers: i64,
    #[serde(default, rename = "use")]
    pub use_: Use,
    #[serde(default)]
    pub scale: Scale,
    /// An attack's base damage, for winged and bonus damage.
    #[serde(default)]
    pub base_damage: Option<i64>,
    /// The base ranks of power. An attack's (needed with `baseDamage`): bonus damage is a quarter
    /// (coarse) or an eighth (fine) of one rank's damage, `baseDamage / ranks`, per success level.
    /// A quantitative use's: its extra ranks are "up to a maximum bonus of 1/2 the base ranks of
    /// power" (half, rounded down).
    #[serde(default)]
    pub ranks: Option<i64>,
}

/// The background-knowledge bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Knowledge {
    /// 4+ failures: totally unfamiliar.
    Unfamiliar,
    /// 1–3 failures: familiar, but answers may be wrong.
    Faulty,
    /// 0: a few accurate yes/no questions.
    YesNo,
    /// 1–3 successes: short answers.
    ShortAnswers,
    /// 4–7 successes: some background; specialised skill at partial inheritance.
    Background,
    /// 8+ successes: studied extensively; full inheritance.
    Studied,
}

/// The attack bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Attack {
    Miss,
    Winged,
    Hit,
    /// Hit with bonus damage.
    Bonus,
}

/// What a skill use came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillOutcome {
    pub roll: i64,
    pub success_levels: i64,
    pub success: bool,
    /// Quantitative: the change over normal performance, in percent.
    pub percent: Option<i64>,
    /// Quantitative: extra power ranks (a rank per 4 levels coarse, 8 fine), at most half the
    /// base `ranks` when they are given.
    pub extra_ranks: Option<i64>,
    pub knowledge: Option<Knowledge>,
    pub attack: Option<Attack>,
    /// Attack with a base damage: the damage dealt (bonus capped at half the base).
    pub damage: Option<i64>,
    /// The dice rolled, as the formula's terms (empty for the deterministic roll), so a card can
    /// draw each die with its own faces.
    pub terms: Vec<TermOutcome>,
}

/// The knowledge band of a success level.
pub fn knowledge(levels: i64) -> Knowledge {
    match levels {
        l if l <= -4 => Knowledge::Unfamiliar,
        -3..=-1 => Knowledge::Faulty,
        0 => Knowledge::YesNo,
        1..=3 => Knowledge::ShortAnswers,
        4..=7 => Knowledge::Background,
        _ => Knowledge::Studied,
    }
}

/// The attack band of a success level.
pub fn attack(levels: i64) -> Attack {
    match levels {
        l if l <= -2 => Attack::Miss,
        -1 => Attack::Winged,
        0 => Attack::Hit,
        _ => Attack::Bonus,
    }
}

impl Skill {
    fn levels(&self, roll: i64) -> i64 {
        roll - self.difficulty
    }
    /// A quantitative use's extra power ranks: "each 4 successes (coarse-scale) or 8 successes
    /// (fine-scale) can allow the action to act as if one additional rank of power were used, up
    /// to a maximum bonus of 1/2 the base ranks of power". Ranks are whole, so half of an odd
    /// number of base ranks rounds down (3 base ranks allow 1 extra).
    pub fn extra_ranks(&self, levels: i64) -> i64 {
        let ranks = (levels / self.scale.step()).max(0);
        match self.ranks {
            Some(base) => ranks.min(base / 2),
            None => ranks,
        }
    }
    /// Damage for an attack: "Defender winged and takes 1/2 Base Damage"; "0 success levels.
    /// Defender hit, and takes Base Damage"; "1 or more success levels. Defender hit for Base
    /// damage plus Bonus Damage for each success level. Bonus damage is 1/4 of attack form's
    /// damage per rank (coarse) or 1/8 of damage per rank (fine) ... capped at half the Base
    /// Damage". One rank's damage is `baseDamage / ranks`, so the bonus is
    /// ⌊levels · base / (ranks · 4 or 8)⌋, then at most ⌊base / 2⌋.
    pub fn damage(&self, levels: i64) -> Option<i64> {
        let base = self.base_damage?;
        Some(match attack(levels) {
            Attack::Miss => 0,
            Attack::Winged => base / 2,
            Attack::Hit => base,
            Attack::Bonus => {
                // requests are refused without ranks (see `formula`); a direct call without them
                // reads the base damage as one rank's
                let ranks = self.ranks.unwrap_or(1).max(1);
                base + (levels * base / (ranks * self.scale.step())).min(base / 2)
            }
        })
    }
}

impl DiceRule for Skill {
    type Outcome = SkillOutcome;
    fn formula(&self) -> Result<String> {
        check_range("skill", self.skill, -100, 200)?;
        check_range("difficulty", self.difficulty, -100, 300)?;
        check_range("modifiers", self.modifiers, -100, 100)?;
        if let Some(b) = self.base_damage {
            check_range("baseDamage", b, 0, 1_000_000)?;
            if self.use_ == Use::Attack && self.ranks.is_none() {
                return Err(Error::request(
                    "ranks is needed with baseDamage: bonus damage is 1/4 (coarse) or 1/8 (fine) \
                     of one rank's damage per success level",
                ));
            }
        }
        if let Some(r) = self.ranks {
            check_range("ranks", r, 1, 1000)?;
        }
        let dice = self.dice.trim();
        let dice = match dice {
            "deterministic" => DETERMINISTIC.to_string(),
            "" => {
                return Err(Error::request(
                    "dice must be a formula, \"3d6\" or \"deterministic\"",
                ))
            }
            d => format!("({d})"),
        };
        Ok(format!("{} + {dice} + {}", self.skill, self.modifiers).replace("+ -", "- "))
    }
    fn outcome(&self, eval: &Evaluation) -> Result<SkillOutcome> {
        let roll = eval.total;
        let levels = self.levels(roll);
        let quantitative = self.use_ == Use::Quantitative;
        Ok(SkillOutcome {
            roll,
            success_levels: levels,
            success: levels >= 0,
            percent: quantitative.then(|| levels * self.scale.percent()),
            extra_ranks: quantitative.then(|| self.extra_ranks(levels)),
            knowledge: (self.use_ == Use::Knowledge).then(|| knowledge(levels)),
            attack: (self.use_ == Use::Attack).then(|| attack(levels)),
            damage: if self.use_ == Use::Attack {
                self.damage(levels)
            } else {
                None
            },
            terms: eval.terms.clone(),
        })
    }
    /// The card draws the formula's own dice (a d20 and two d4s as such), by their notations.
    fn names_terms(&self) -> bool {
        true
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        let at = |f: &dyn Fn(i64) -> bool| Prob::of(dist, |r| f(self.levels(r)));
        Ok(match self.use_ {
            Use::Qualitative | Use::Quantitative => {
                vec![("success", at(&|l| l >= 0)), ("failure", at(&|l| l < 0))]
            }
            Use::Knowledge => vec![
                ("unfamiliar", at(&|l| knowledge(l) == Knowledge::Unfamiliar)),
                ("faulty", at(&|l| knowledge(l) == Knowledge::Faulty)),
                ("yesNo", at(&|l| knowledge(l) == Knowledge::YesNo)),
                (
                    "shortAnswers",
                    at(&|l| knowledge(l) == Knowledge::ShortAnswers),
                ),
                ("background", at(&|l| knowledge(l) == Knowledge::Background)),
                ("studied", at(&|l| knowledge(l) == Knowledge::Studied)),
            ],
            Use::Attack => vec![
                ("miss", at(&|l| attack(l) == Attack::Miss)),
                ("winged", at(&|l| attack(l) == Attack::Winged)),
                ("hit", at(&|l| attack(l) == Attack::Hit)),
                ("bonus", at(&|l| attack(l) == Attack::Bonus)),
            ],
        })
    }
}
