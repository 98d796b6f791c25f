//! Targeting, height and cover ("Targeting/Range", "Cover/Line of Sight"), evasion and status
//! saves ("Positive Effects/Statuses/Blights/States").

use crate::dice::odds::Distribution;
use crate::dice::resolve::Evaluation;
use crate::error::Result;
use crate::rulesets::{check_range, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// Where an attack comes from and goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Situation {
    /// A ranged attack (not melee).
    #[serde(default)]
    pub ranged: bool,
    /// The target is adjacent to the attacker: "Attacks vs adjacent foes ignore cover", ranged
    /// ones included.
    #[serde(default)]
    pub target_adjacent: bool,
    /// A foe is adjacent to the attacker.
    #[serde(default)]
    pub foe_adjacent: bool,
    /// Attacker's height minus the target's (levels 1–3 each).
    #[serde(default)]
    pub height_difference: i64,
    /// The target is behind cover from the attacker.
    #[serde(default)]
    pub target_in_cover: bool,
    /// The attacker is dazed: "+1 curse on all of your attack rolls while dazed".
    #[serde(default)]
    pub attacker_dazed: bool,
    /// The attacker is blind: "Reduces the maximum range of all your abilities to 2."
    #[serde(default)]
    pub attacker_blind: bool,
    /// The target has Stealth: "you cannot be directly targeted except from an adjacent space".
    #[serde(default)]
    pub target_stealth: bool,
    /// True Strike: "Ignores dodge, blind, evasion, and stealth."
    #[serde(default)]
    pub true_strike: bool,
    /// Unerring: "Ignores cover and aetherwall".
    #[serde(default)]
    pub unerring: bool,
    /// The ability's range in spaces, when it has one.
    #[serde(default)]
    pub range: Option<u32>,
    /// Spaces from the attacker to the target, when measured.
    #[serde(default)]
    pub distance: Option<u32>,
    /// The attacker can draw line of sight to the target (`iconSightlines`; assumed when not
    /// measured): a character behind terrain higher than it "can't draw line of sight to it".
    #[serde(default = "in_sight")]
    pub sight: bool,
}

fn in_sight() -> bool {
    true
}

/// Blind's range: "Reduces the maximum range of all your abilities to 2."
pub const BLIND_RANGE: u32 = 2;

/// Why a target cannot be targeted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Untargetable {
    /// The target has Stealth and is not adjacent.
    Stealth,
    /// The target is farther than the (blind-limited) range.
    Range,
    /// No line of sight reaches the target.
    Sight,
}

/// What the situation adds to the attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SituationModifiers {
    pub boons: u32,
    pub curses: u32,
    /// Whether the target's cover counts (resistance against the damage, halving it).
    pub cover: bool,
    /// The most spaces the ability reaches: its range, at most 2 while blind (unless True
    /// Strike); `null` when neither a range nor Blind limits it.
    pub max_range: Option<u32>,
    /// `null` when the target can be targeted, else why not.
    pub untargetable: Option<Untargetable>,
}

impl Situation {
    /// "+1 curse to ranged attacks if there's a foe adjacent"; "Attacks vs adjacent foes ignore
    /// cover" (a melee attack's target is always adjacent, a ranged attack's may be); "Target
    /// lower than you: +1 boon per level difference, ignores cover";
    /// "Target higher than you: +1 curse per level difference"; and a dazed attacker's +1 curse.
    /// Unerring "Ignores cover". Targeting: Blind caps the range at 2 and Stealth allows only an
    /// adjacent attacker, both ignored by True Strike.
    pub fn modifiers(&self) -> Result<SituationModifiers> {
        let h = check_range("heightDifference", self.height_difference, -3, 3)?;
        if let Some(r) = self.range {
            check_range("range", i64::from(r), 0, 1000)?;
        }
        if let Some(d) = self.distance {
            check_range("distance", i64::from(d), 0, 10_000)?;
        }
        let lower = h > 0;
        let blind = self.attacker_blind && !self.true_strike;
        let max_range = match (self.range, blind) {
            (Some(r), true) => Some(r.min(BLIND_RANGE)),
            (None, true) => Some(BLIND_RANGE),
            (r, false) => r,
        };
        // An adjacent target is 1 space away, whatever was measured.
        let distance = if self.target_adjacent {
            Some(1)
        } else {
            self.distance
        };
        let untargetable = if !self.sight {
            Some(Untargetable::Sight)
        } else if self.target_stealth && !self.target_adjacent && !self.true_strike {
            Some(Untargetable::Stealth)
        } else if distance.zip(max_range).is_some_and(|(d, r)| d > r) {
            Some(Untargetable::Range)
        } else {
            None
        };
        Ok(SituationModifiers {
            boons: h.max(0) as u32,
            curses: u32::from(self.ranged && self.foe_adjacent)
                + (-h).max(0) as u32
                + u32::from(self.attacker_dazed),
            cover: self.target_in_cover
                && self.ranged
                && !self.target_adjacent
                && !lower
                && !self.unerring,
            max_range,
            untargetable,
        })
    }
}

/// Evasion as its own roll: "Roll a d6 when attacked. On a 4+, the attack automatically misses.
/// Check before the attack roll." (`icon.attack` rolls it itself for a target with `evasion`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Evasion {}

/// What an evasion roll came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EvasionOutcome {
    pub evaded: bool,
}

impl DiceRule for Evasion {
    type Outcome = EvasionOutcome;
    fn formula(&self) -> Result<String> {
        Ok("1d6[evasion]".to_string())
    }
    fn outcome(&self, eval: &Evaluation) -> Result<EvasionOutcome> {
        Ok(EvasionOutcome {
            evaded: eval.total >= 4,
        })
    }
    fn outcomes(&self, dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
        Ok(vec![("evaded", Prob::of(dist, |t| t >= 4))])
    }
}

/// The seed's positive effects and traits ("POSITIVE EFFECTS & TRAITS"), plus Resistant: kept at
/// the end of combat, never saved against.
pub const POSITIVE_EFFECTS: [&str; 15] = [
    "counter",
    "defiance",
    "dodge",
    "evasion",
    "flying",
    "intangible",
    "phasing",
    "rampart",
    "skirmisher",
    "stealth",
    "sturdy",
    "unstoppable",
    "regeneration",
    "vigilance",
    "resistant",
];

/// The special states and marks, which no save ends.
const STATES: [&str; 7] = [
    "bloodied",
    "defeated",
    "incapacitated",
    "fallen",
    "immobile",
    "immune",
    "marked",
];

/// The statuses a character saves against at the end of its own turn (or when cured): not the
/// ongoing (`+`) ones, which "cannot be removed or ignored until whatever is causing them is
/// lifted", and not states or positive effects.
pub fn saveable(statuses: &[String]) -> Vec<String> {
    statuses
        .iter()
        .filter(|s| {
            !s.ends_with('+')
                && !STATES.contains(&s.as_str())
                && !POSITIVE_EFFECTS.contains(&s.as_str())
        })
        .cloned()
        .collect()
}

/// The statuses left once a character has used an ability (`dash`: the ability was a dash).
/// Stunned: "Your next ability used ends your turn, then end this status" (a dash is an ability
/// too); Stealth "is broken when you use any ability other than dash". The ongoing `stunned+`
/// and `stealth+` stay: "Ongoing statuses or effects cannot be removed or ignored until whatever
/// is causing them is lifted".
pub fn after_ability(statuses: &[String], dash: bool) -> Vec<String> {
    statuses
        .iter()
        .filter(|s| !(s.as_str() == "stunned" || (!dash && s.as_str() == "stealth")))
        .cloned()
        .collect()
}
