//! Damage, defeat and healing ("Health/Healing", "Effects/Armor/Resistance", "Positive
//! Effects/Statuses/Blights/States" in the seed). Pure state transitions with a breakdown of every
//! step, so the card can show why 9 damage became 1.

use crate::dice::odds::Distribution;
use crate::dice::resolve::Evaluation;
use crate::error::{Error, Result};
use crate::rulesets::{check_range, DiceRule, Prob};
use serde::{Deserialize, Serialize};

/// A character's health as the rules see it. Status ids are lowercase; an ongoing status carries a
/// trailing `+` (`dazed+`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    pub hp: i64,
    pub max_hp: i64,
    #[serde(default)]
    pub vigor: i64,
    #[serde(default)]
    pub armor: i64,
    #[serde(default)]
    pub wounds: u32,
    #[serde(default)]
    pub is_player_character: bool,
    #[serde(default, deserialize_with = "super::effects::status_list")]
    pub statuses: Vec<String>,
    /// Personal resolve, when the caller tracks it: "+1 Personal Resolve after every combat and
    /// resets to 0 after camp" (`camp` sets it to 0; `null` when not given).
    #[serde(default)]
    pub resolve: Option<i64>,
    /// Derived on output: HP 0.
    #[serde(default)]
    pub defeated: bool,
    /// Derived on output: four wounds.
    #[serde(default)]
    pub fallen: bool,
    /// Derived on output: HP at or below half of max.
    #[serde(default)]
    pub bloodied: bool,
}

/// Wounds at which a player character is fallen.
pub const FALLEN_WOUNDS: u32 = 4;

impl Target {
    fn check(&self) -> Result<()> {
        check_range("target.maxHp", self.max_hp, 1, 100_000)?;
        check_range("target.hp", self.hp, 0, self.max_hp)?;
        check_range("target.vigor", self.vigor, 0, 100_000)?;
        check_range("target.armor", self.armor, 0, 1000)?;
        check_range(
            "target.wounds",
            i64::from(self.wounds),
            0,
            i64::from(FALLEN_WOUNDS),
        )?;
        if let Some(r) = self.resolve {
            check_range("target.resolve", r, 0, 1000)?;
        }
        Ok(())
    }
    /// Whether the target has `status`, ongoing or not.
    pub fn has(&self, status: &str) -> bool {
        self.statuses
            .iter()
            .any(|s| s.trim_end_matches('+') == status)
    }
    /// Whether the target is affected by `status`: has it and is not immune to it
    /// (Unstoppable is "Immune to all statuses": [`super::effects::affects`]).
    pub fn suffers(&self, status: &str) -> bool {
        super::effects::affects(&self.statuses, status)
    }
    fn add(&mut self, status: &str) {
        if !self.has(status) {
            self.statuses.push(status.to_string());
        }
    }
    fn remove(&mut self, status: &str) {
        self.statuses.retain(|s| s.trim_end_matches('+') != status);
    }
    /// Vigor "cannot go past 25% of your hp".
    pub fn vigor_cap(&self) -> i64 {
        self.max_hp / 4
    }
    /// "Characters can't heal higher than their wounds": each wound takes 25% of max HP.
    pub fn healable_max(&self) -> i64 {
        self.max_hp * i64::from(FALLEN_WOUNDS.saturating_sub(self.wounds)) / 4
    }
    /// The bloodied value: half of max HP (rounded down).
    pub fn bloodied_value(&self) -> i64 {
        self.max_hp / 2
    }
    /// Recomputes the derived flags.
    fn settle(mut self) -> Self {
        self.defeated = self.hp == 0;
        self.fallen = self.wounds >= FALLEN_WOUNDS;
        self.bloodied = self.hp > 0 && 2 * self.hp <= self.max_hp;
        if self.bloodied {
            self.add("bloodied");
        } else {
            self.remove("bloodied");
        }
        self
    }
}

/// One line of a breakdown: the rule applied, what it did (`change`, signed: armor 1 on 18 damage
/// is −1) and the running amount after it (the damage still to apply, or for healing the value
/// reached), so a card can show "Armor −1" and the running total apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub rule: &'static str,
    pub change: i64,
    pub amount: i64,
}

/// A step that took the running damage from `before` to `after`.
fn step(rule: &'static str, before: i64, after: i64) -> Step {
    Step {
        rule,
        change: after - before,
        amount: after,
    }
}

/// Records `rule` taking the running damage to `after`.
fn to(steps: &mut Vec<Step>, rule: &'static str, amount: i64, after: i64) -> i64 {
    steps.push(step(rule, amount, after));
    after
}

/// A step whose change is not the running amount's (vigor absorbed, HP lost, a wound).
fn step_by(rule: &'static str, change: i64, amount: i64) -> Step {
    Step {
        rule,
        change,
        amount,
    }
}

/// Where damage comes from (dodge and immunity care).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Hit,
    Miss,
    Area,
    /// Damage dealt despite a successful save.
    Save,
    Effect,
    /// Slashed: "Take 4 damage after you or an ally uses an ability that moves you, but no more
    /// than once a turn." Not an ability's damage.
    Slashed,
    /// Dangerous Terrain: "Entering or exiting a dangerous terrain space causes a character to
    /// take 2 piercing damage. Characters can only take this damage once a turn."
    #[serde(rename = "dangerousTerrain")]
    DangerousTerrain,
    /// Sacrifice X: "Reduce your hp by X ... cannot be reduced, ignored, transferred, or
    /// resisted, cannot bring your hp below 1, and you can pay them even if you don't have enough
    /// hp left." HP lost, not damage: nothing mitigates it, vigor does not absorb it.
    Sacrifice,
}

/// The damage dangerous terrain deals.
pub const DANGEROUS_TERRAIN_DAMAGE: i64 = 2;

/// The lowest HP a damage can bring its target to: 0, or 1 for damage that "cannot bring your hp
/// below 1" (Sacrifice X, a Shove's collision: "taking damage equal to shove amount, which cannot
/// reduce them below 1 hp"). JSON `0` or `1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum HpFloor {
    #[default]
    Zero,
    One,
}

impl TryFrom<u8> for HpFloor {
    type Error = String;
    fn try_from(n: u8) -> std::result::Result<Self, String> {
        match n {
            0 => Ok(HpFloor::Zero),
            1 => Ok(HpFloor::One),
            _ => Err(format!(
                "floor must be 0 or 1 (damage that cannot bring HP below 1), not {n}"
            )),
        }
    }
}

impl From<HpFloor> for u8 {
    fn from(f: HpFloor) -> u8 {
        match f {
            HpFloor::Zero => 0,
            HpFloor::One => 1,
        }
    }
}

impl HpFloor {
    fn hp(self) -> i64 {
        i64::from(u8::from(self))
    }
}

/// The damage Slashed deals.
pub const SLASHED_DAMAGE: i64 = 4;
/// The damage Counter deals back: "When damaged by an ability, deal 2 damage back, each time
/// damage is applied."
pub const COUNTER_DAMAGE: i64 = 2;

/// `icon.applyDamage`: mitigation in the seed's order, then vigor, then HP, then defeat.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApplyDamage {
    pub target: Target,
    pub amount: i64,
    pub source: Source,
    #[serde(default)]
    pub pierce: bool,
    #[serde(default)]
    pub divine: bool,
    #[serde(default)]
    pub attacker_weakened: bool,
    /// The attacker is pacified: "Character deals half damage."
    #[serde(default)]
    pub attacker_pacified: bool,
    /// The attacker has Hatred of another foe than this target: "Deal half damage to all foes
    /// other than foe X." Halves only damage to a foe of the attacker (`fromFoe`).
    #[serde(default)]
    pub attacker_hatred: bool,
    #[serde(default)]
    pub cover: bool,
    /// The damage comes from a foe of the target (Intangible, Pacified, Hatred and Vigilance
    /// care).
    #[serde(default = "yes")]
    pub from_foe: bool,
    /// The damage comes from an ability (Counter and Pacified care); Slashed's is never one.
    #[serde(default = "yes")]
    pub ability: bool,
    /// The target succeeded on its save against an ability that deals half damage on a save
    /// (source `save`): the ability's damage is halved, rounded up as Resistance rounds.
    #[serde(default)]
    pub saved_half: bool,
    /// Vigilance spent by an ally in range 2: the highest d6 rolled, reducing "the damage by the
    /// amount rolled as if with armor" (0: none).
    #[serde(default)]
    pub vigilance: i64,
    /// The lowest HP this damage can leave (see [`HpFloor`]); Sacrifice is always held at 1.
    #[serde(default)]
    pub floor: HpFloor,
    /// The damage comes from a True Strike: "Ignores dodge, blind, evasion, and stealth".
    #[serde(default)]
    pub true_strike: bool,
    /// Dangerous terrain only: the target already took dangerous terrain damage this turn
    /// ("Characters can only take this damage once a turn"), so this deals none.
    #[serde(default)]
    pub terrain_taken_this_turn: bool,
}

fn yes() -> bool {
    true
}

/// The new target and how the damage got there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthOutcome {
    pub target: Target,
    pub steps: Vec<Step>,
    /// Damage the target deals back to the attacker (Counter), 0 when none.
    pub counter: i64,
}

impl ApplyDamage {
    fn check(&self) -> Result<()> {
        self.target.check()?;
        check_range("amount", self.amount, 0, 1_000_000)?;
        check_range("vigilance", self.vigilance, 0, 6)?;
        if self.vigilance > 0 && !(self.from_foe && self.ability) {
            return Err(Error::request(
                "vigilance reduces damage from a foe's ability only (fromFoe and ability)",
            ));
        }
        if self.saved_half && self.source != Source::Save {
            return Err(Error::request(
                "savedHalf is damage after a successful save: send source \"save\"",
            ));
        }
        if self.terrain_taken_this_turn && self.source != Source::DangerousTerrain {
            return Err(Error::request(
                "terrainTakenThisTurn goes with source \"dangerousTerrain\"",
            ));
        }
        if self.source == Source::DangerousTerrain {
            if self.amount != DANGEROUS_TERRAIN_DAMAGE {
                return Err(Error::request(format!(
                    "amount: dangerous terrain deals {DANGEROUS_TERRAIN_DAMAGE} damage, not {}",
                    self.amount
                )));
            }
            if self.ability {
                return Err(Error::request(
                    "dangerous terrain damage is not an ability's: send ability false",
                ));
            }
        }
        if self.source == Source::Sacrifice {
            if self.target.hp == 0 {
                return Err(Error::request(
                    "a defeated character pays no sacrifice (it uses no abilities)",
                ));
            }
            if self.attacker_weakened
                || self.attacker_pacified
                || self.attacker_hatred
                || self.cover
                || self.true_strike
            {
                return Err(Error::request(
                    "a sacrifice \"cannot be reduced, ignored, transferred, or resisted\": \
                     send no attacker statuses, cover or trueStrike with it",
                ));
            }
        }
        if self.source == Source::Slashed {
            if !self.target.has("slashed") {
                return Err(Error::request(
                    "slashed damage needs a target with the slashed status",
                ));
            }
            if self.amount != SLASHED_DAMAGE {
                return Err(Error::request(format!(
                    "amount: slashed deals {SLASHED_DAMAGE} damage, not {}",
                    self.amount
                )));
            }
            if self.ability {
                return Err(Error::request(
                    "slashed damage is not an ability's: send ability false",
                ));
            }
        }
        Ok(())
    }

    /// Sacrifice X: HP lost straight away, held at 1 ("cannot bring your hp below 1"), whatever
    /// the target's immunities, vigor or armor ("cannot be reduced, ignored, transferred, or
    /// resisted"); it is no damage, so nothing reacts to it (Counter, Pacified, Defiance).
    fn sacrifice(&self) -> (i64, HealthOutcome) {
        let mut t = self.target.clone();
        let mut steps = vec![step_by("amount", self.amount, self.amount)];
        let lost = self.amount.min(t.hp - 1).max(0);
        if lost < self.amount {
            steps.push(step("floor", self.amount, lost));
        }
        t.hp -= lost;
        steps.push(step_by("hp", -lost, lost));
        (
            lost,
            HealthOutcome {
                target: t.settle(),
                steps,
                counter: 0,
            },
        )
    }

    /// Applies the damage; the total is the damage the target took (vigor and HP lost).
    pub fn apply(&self) -> Result<(i64, HealthOutcome)> {
        self.check()?;
        if self.source == Source::Sacrifice {
            return Ok(self.sacrifice());
        }
        let mut t = self.target.clone();
        let mut steps = vec![step_by("amount", self.amount, self.amount)];
        let mut amount = self.amount;
        if self.source == Source::DangerousTerrain {
            // "Characters can only take this damage once a turn"; "A flying character ignores
            // all terrain, objects, and terrain effects other than impassable terrain".
            if self.terrain_taken_this_turn {
                amount = to(&mut steps, "onceATurn", amount, 0);
            } else if t.has("flying") {
                amount = to(&mut steps, "flying", amount, 0);
            }
        }
        // Dangerous terrain's damage is piercing.
        let pierce = self.pierce || self.source == Source::DangerousTerrain;
        // Defeated player characters "are immune to damage"; Intangible characters "are Immune
        // to damage and effects from foes".
        if t.has("immune") || (t.is_player_character && t.has("incapacitated")) {
            amount = to(&mut steps, "immune", amount, 0);
        } else if self.from_foe && t.has("intangible") {
            amount = to(&mut steps, "intangible", amount, 0);
        }
        // "Dodge makes you immune to all damage from misses, successful saves, and area effects."
        // True Strike "Ignores dodge".
        if amount > 0
            && t.has("dodge")
            && matches!(self.source, Source::Miss | Source::Save | Source::Area)
        {
            if self.true_strike {
                steps.push(step_by("trueStrikeDodge", 0, amount));
            } else {
                amount = to(&mut steps, "dodge", amount, 0);
            }
        }
        // The ability's own half on a successful save (not a mitigation: divine or not).
        if amount > 0 && self.saved_half {
            amount = to(&mut steps, "savedHalf", amount, (amount + 1) / 2);
        }
        // Divine "cannot be reduced, mitigated, or negated in any way except immunity".
        let mitigable = !self.divine;
        // Slashed on an Unstoppable target does nothing ("Immune to all statuses").
        if amount > 0 && self.source == Source::Slashed && !t.suffers("slashed") {
            amount = to(&mut steps, "unstoppable", amount, 0);
        }
        if amount > 0 && t.suffers("vulnerable") {
            amount = to(&mut steps, "vulnerable", amount, amount + 1);
        }
        if amount > 0 && self.attacker_weakened && mitigable && !pierce {
            amount = to(&mut steps, "weakened", amount, (amount - 2).max(0));
        }
        // Half damage dealt, rounded up as the seed's one halving rule (Resistance) rounds; both
        // at once still halve once, as resistance and cover do. Hatred halves only "to all foes
        // other than foe X": an ally caught in the hater's area takes it whole.
        let hatred = self.attacker_hatred && self.from_foe;
        if amount > 0 && mitigable && (self.attacker_pacified || hatred) {
            let rule = if self.attacker_pacified {
                "pacified"
            } else {
                "hatred"
            };
            amount = to(&mut steps, rule, amount, (amount + 1) / 2);
        }
        // "Armor X: Reduce all damage taken by X. Always reduce by the highest value": Vigilance
        // reduces "as if with armor", so the higher of the two counts.
        let armor = t.armor.max(self.vigilance);
        if amount > 0 && armor > 0 && mitigable && !pierce {
            let rule = if self.vigilance > t.armor {
                "vigilance"
            } else {
                "armor"
            };
            amount = to(&mut steps, rule, amount, (amount - armor).max(0));
        }
        if amount > 0 && mitigable && (t.has("resistant") || self.cover) {
            let rule = if t.has("resistant") {
                "resistant"
            } else {
                "cover"
            };
            amount = to(&mut steps, rule, amount, (amount + 1) / 2);
        }
        let mut taken = 0;
        if amount > 0 && t.vigor > 0 && mitigable && !t.suffers("shattered") {
            let absorbed = amount.min(t.vigor);
            t.vigor -= absorbed;
            taken += absorbed;
            steps.push(step_by("vigor", -absorbed, amount - absorbed));
            amount -= absorbed;
        }
        if amount > 0 {
            let mut lost = amount.min(t.hp);
            // Damage that "cannot bring your hp below 1" (a Shove's collision) stops there, before
            // Defiance would trigger.
            let floor = self.floor.hp();
            if t.hp - lost < floor {
                let held = (t.hp - floor).max(0);
                steps.push(step("floor", amount, held));
                amount = held;
                lost = held;
            }
            if lost == t.hp && t.hp > 0 && t.has("defiance") && mitigable {
                // "Prevents hit points from being reduced past 1 hp. When this triggers, remove
                // this effect and character becomes immune to all damage for the rest of the turn."
                let held = (t.hp - 1).max(0);
                steps.push(step("defiance", amount, held));
                amount = held;
                lost = held;
                t.remove("defiance");
                t.add("immune");
            }
            t.hp -= lost;
            taken += lost;
            steps.push(step_by("hp", -lost, amount));
        }
        let damaged = taken > 0;
        let mut counter = 0;
        if damaged && self.ability && t.has("counter") {
            counter = COUNTER_DAMAGE;
        }
        // Pacified "Breaks when damaged by a foe's ability" (an ongoing one waits for its cause).
        if damaged && self.ability && self.from_foe && t.statuses.iter().any(|s| s == "pacified") {
            t.statuses.retain(|s| s != "pacified");
            steps.push(step_by("pacifiedBroken", 0, amount));
        }
        if t.hp == 0 && self.target.hp > 0 {
            // "Defeated characters clear all statuses, marks, vigor, and other effects on them."
            t.statuses.clear();
            t.vigor = 0;
            steps.push(step_by("defeated", 0, 0));
            if t.is_player_character {
                t.wounds = (t.wounds + 1).min(FALLEN_WOUNDS);
                steps.push(step_by("wound", 1, i64::from(t.wounds)));
                if t.wounds >= FALLEN_WOUNDS {
                    t.add("fallen");
                    steps.push(step_by("fallen", 0, 0));
                } else {
                    t.add("incapacitated");
                }
            }
            t.add("defeated");
        }
        Ok((
            taken,
            HealthOutcome {
                target: t.settle(),
                steps,
                counter,
            },
        ))
    }
}

/// The kinds of healing in the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Healing {
    /// +4 vigor, or a vigor surge (to the cap) if bloodied (none while shattered); then save
    /// against each status.
    Cure,
    /// +4 vigor at the end of the turn if bloodied.
    Regeneration,
    /// An adjacent ally ends incapacitated and heals to full HP minus wounds.
    Rescue,
    /// End of combat: ongoing effects cured, vigor lost, HP raised to the bloodied value if lower
    /// (a defeated character waits for a rescue).
    EndCombat,
    /// Between combats: to the next 25% of max HP, or to 50% if at or below 25%.
    Rest,
    /// Camp: all HP (up to the wound limit).
    Camp,
}

/// `icon.heal`: one of the healing rules applied to a target.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Heal {
    pub target: Target,
    pub healing: Healing,
}

/// The healed target, the breakdown and the statuses to roll saves against (for a cure).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealOutcome {
    pub target: Target,
    pub steps: Vec<Step>,
    pub saves: Vec<String>,
}

/// States that outlast the end of combat: a defeated character stays down until rescued, a fallen
/// one for good. Positive effects and traits (Dodge, Counter, ...) are not cured either; Immune
/// from Defiance lasted "for the rest of the current turn", which the end of combat ends.
const LASTING_STATES: [&str; 4] = ["defeated", "incapacitated", "fallen", "bloodied"];

/// Whether the end of combat cures `status`: "All ongoing effects (status, mark, blights) are
/// cured": every status and blight (everything that is not a positive effect, a trait or a
/// lasting state), every mark, and every ongoing (`+`) effect.
fn ends_with_combat(status: &str) -> bool {
    if status.ends_with('+') {
        return true;
    }
    !(LASTING_STATES.contains(&status) || super::situation::POSITIVE_EFFECTS.contains(&status))
}

impl Heal {
    /// Heals; the total is HP plus vigor gained.
    pub fn apply(&self) -> Result<(i64, HealOutcome)> {
        self.target.check()?;
        let mut t = self.target.clone();
        let before = t.hp + t.vigor;
        let limit = t.healable_max();
        let mut steps = Vec::new();
        let mut saves = Vec::new();
        let bloodied = t.hp > 0 && 2 * t.hp <= t.max_hp;
        match self.healing {
            Healing::Cure | Healing::Regeneration => {
                if t.hp == 0 {
                    return Err(Error::request(
                        "a defeated character cannot be cured; rescue them first",
                    ));
                }
                if self.healing == Healing::Regeneration && !bloodied {
                    steps.push(step_by("notBloodied", 0, t.vigor));
                } else if t.suffers("shattered") {
                    // Shattered: "Prevents you from gaining or benefiting from vigor."
                    steps.push(step_by("shattered", 0, t.vigor));
                } else {
                    let gain = if self.healing == Healing::Cure && bloodied {
                        t.vigor_cap()
                    } else {
                        4
                    };
                    let old = t.vigor;
                    t.vigor = (t.vigor + gain).min(t.vigor_cap()).max(t.vigor);
                    steps.push(step(
                        if gain == 4 { "vigor" } else { "vigorSurge" },
                        old,
                        t.vigor,
                    ));
                }
                if self.healing == Healing::Cure {
                    saves = super::situation::saveable(&t.statuses);
                }
            }
            Healing::Rescue => {
                if !t.has("incapacitated") && t.hp > 0 {
                    return Err(Error::request(
                        "only a defeated (incapacitated) character can be rescued",
                    ));
                }
                if t.wounds >= FALLEN_WOUNDS {
                    return Err(Error::request("a fallen character cannot be rescued"));
                }
                t.remove("incapacitated");
                t.remove("defeated");
                let old = t.hp;
                t.hp = limit;
                steps.push(step("rescue", old, t.hp));
            }
            Healing::EndCombat => {
                // "All ongoing effects (status, mark, blights) are cured"; vigor: "Lose all vigor
                // at the end of combat".
                let cured: Vec<String> = t
                    .statuses
                    .iter()
                    .filter(|s| ends_with_combat(s))
                    .cloned()
                    .collect();
                t.statuses.retain(|s| !ends_with_combat(s));
                if !cured.is_empty() {
                    steps.push(step_by("cured", -(cured.len() as i64), 0));
                }
                if t.vigor > 0 {
                    steps.push(step("vigorLost", t.vigor, 0));
                    t.vigor = 0;
                }
                // "Characters heal to their bloodied value if they're lower" -- but a defeated
                // character stays incapacitated "until someone uses the rescue action".
                let old = t.hp;
                if t.hp == 0 {
                    steps.push(step_by("defeated", 0, 0));
                } else if t.hp < t.bloodied_value() {
                    t.hp = t.bloodied_value().min(limit).max(t.hp);
                }
                steps.push(step("endCombat", old, t.hp));
            }
            // "Defeated player characters ... remain that way until someone uses the rescue
            // action": neither resting nor camping stands them up (as at the end of combat).
            Healing::Rest | Healing::Camp if t.hp == 0 => {
                steps.push(step_by("defeated", 0, 0));
                if self.healing == Healing::Camp {
                    Self::reset_resolve(&mut t, &mut steps);
                }
            }
            Healing::Rest => {
                let quarter = t.max_hp as f64 / 4.0;
                let target = if t.hp as f64 <= quarter {
                    t.max_hp / 2
                } else {
                    // the next 25% mark above the current HP
                    let k = (t.hp * 4 / t.max_hp) + 1;
                    (t.max_hp * k / 4).min(t.max_hp)
                };
                let old = t.hp;
                t.hp = target.min(limit).max(t.hp);
                steps.push(step("rest", old, t.hp));
            }
            Healing::Camp => {
                let old = t.hp;
                t.hp = limit.max(t.hp);
                steps.push(step("camp", old, t.hp));
                Self::reset_resolve(&mut t, &mut steps);
            }
        }
        let t = t.settle();
        let gained = t.hp + t.vigor - before;
        Ok((
            gained,
            HealOutcome {
                target: t,
                steps,
                saves,
            },
        ))
    }

    /// "+1 Personal Resolve after every combat and resets to 0 after camp."
    fn reset_resolve(t: &mut Target, steps: &mut Vec<Step>) {
        if let Some(r) = t.resolve.filter(|r| *r > 0) {
            steps.push(step("resolveReset", r, 0));
            t.resolve = Some(0);
        }
    }
}

/// No dice: the formula is the constant the rule computes, so every verb still works.
macro_rules! no_dice_rule {
    ($ty:ty, $outcome:ty) => {
        impl DiceRule for $ty {
            type Outcome = $outcome;
            fn formula(&self) -> Result<String> {
                Ok(self.apply()?.0.to_string())
            }
            fn outcome(&self, _eval: &Evaluation) -> Result<$outcome> {
                Ok(self.apply()?.1)
            }
            fn outcomes(&self, _dist: &Distribution) -> Result<Vec<(&'static str, Prob)>> {
                Ok(Vec::new())
            }
        }
    };
}

no_dice_rule!(ApplyDamage, HealthOutcome);
no_dice_rule!(Heal, HealOutcome);
no_dice_rule!(super::effects::Inflict, super::effects::InflictOutcome);
no_dice_rule!(super::ability::Ability, super::ability::AbilityOutcome);
no_dice_rule!(super::effects::Hatred, super::effects::HatredOutcome);
no_dice_rule!(super::marks::Marks, super::marks::MarksOutcome);
no_dice_rule!(super::tokens::TokensRule, super::tokens::TokensOutcome);
no_dice_rule!(
    super::limit_break::LimitBreak,
    super::limit_break::LimitBreakOutcome
);

/// Values the sheets show that follow from a character's numbers (issue: computed by the core,
/// never duplicated in JS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Derived {
    /// HP at or below half of max.
    pub bloodied: bool,
    /// Half of max HP, rounded down: what the end of combat heals to.
    pub bloodied_value: i64,
    /// The HP a character can heal to after wounds (each takes 25% of max).
    pub healable_max: i64,
    /// Vigor cannot go past 25% of max HP.
    pub vigor_cap: i64,
    pub fallen: bool,
}

impl Target {
    /// The derived values of this target (refused if its numbers are out of range).
    pub fn derived(&self) -> Result<Derived> {
        self.check()?;
        let t = self.clone().settle();
        Ok(Derived {
            bloodied: t.bloodied,
            bloodied_value: t.bloodied_value(),
            healable_max: t.healable_max(),
            vigor_cap: t.vigor_cap(),
            fallen: t.fallen,
        })
    }
}

/// Max HP from VIT: "max HP = 4 × VIT"; chapter from level (I: 1–4, II: 5–8, III: 9–12; level 0
/// counts as chapter I).
pub fn max_hp(vit: i64) -> Result<i64> {
    Ok(4 * check_range("vit", vit, 1, 1000)?)
}

/// The chapter (1–3) of a level 0–12.
pub fn chapter(level: i64) -> Result<i64> {
    let level = check_range("level", level, 0, 12)?;
    Ok(((level.max(1) - 1) / 4) + 1)
}
