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
    #[serde(default)]
    pub statuses: Vec<String>,
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
        Ok(())
    }
    /// Whether the target has `status`, ongoing or not.
    pub fn has(&self, status: &str) -> bool {
        self.statuses
            .iter()
            .any(|s| s.trim_end_matches('+') == status)
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

/// One line of a breakdown: the rule applied and the amount after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub rule: &'static str,
    pub amount: i64,
}

fn step(rule: &'static str, amount: i64) -> Step {
    Step { rule, amount }
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
}

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
    #[serde(default)]
    pub cover: bool,
}

/// The new target and how the damage got there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthOutcome {
    pub target: Target,
    pub steps: Vec<Step>,
}

impl ApplyDamage {
    /// Applies the damage; the total is the damage that got through mitigation.
    pub fn apply(&self) -> Result<(i64, HealthOutcome)> {
        self.target.check()?;
        check_range("amount", self.amount, 0, 1_000_000)?;
        let mut t = self.target.clone();
        let mut steps = vec![Step {
            rule: "amount",
            amount: self.amount,
        }];
        let mut amount = self.amount;
        // Defeated player characters "are immune to damage".
        let immune = t.has("immune") || (t.is_player_character && t.has("incapacitated"));
        if immune {
            amount = 0;
            steps.push(step("immune", amount));
        }
        if amount > 0
            && t.has("dodge")
            && matches!(self.source, Source::Miss | Source::Save | Source::Area)
        {
            amount = 0;
            steps.push(step("dodge", amount));
        }
        let mitigable = !self.divine;
        if amount > 0 && t.has("vulnerable") {
            amount += 1;
            steps.push(step("vulnerable", amount));
        }
        if amount > 0 && self.attacker_weakened && mitigable && !self.pierce {
            amount = (amount - 2).max(0);
            steps.push(step("weakened", amount));
        }
        if amount > 0 && t.armor > 0 && mitigable && !self.pierce {
            amount = (amount - t.armor).max(0);
            steps.push(step("armor", amount));
        }
        if amount > 0 && mitigable && (t.has("resistant") || self.cover) {
            amount = (amount + 1) / 2;
            steps.push(step(
                if t.has("resistant") {
                    "resistant"
                } else {
                    "cover"
                },
                amount,
            ));
        }
        let dealt = amount;
        if amount > 0 && t.vigor > 0 && mitigable && !t.has("shattered") {
            let absorbed = amount.min(t.vigor);
            t.vigor -= absorbed;
            amount -= absorbed;
            steps.push(step("vigor", amount));
        }
        if amount > 0 {
            let mut hp = (t.hp - amount).max(0);
            if hp == 0 && t.has("defiance") && mitigable {
                // "Prevents hit points from being reduced past 1 hp. When this triggers, remove
                // this effect and character becomes immune to all damage for the rest of the turn."
                hp = 1;
                t.remove("defiance");
                t.add("immune");
                steps.push(step("defiance", t.hp - hp));
            }
            t.hp = hp;
            steps.push(step("hp", amount));
        }
        if t.hp == 0 && self.target.hp > 0 {
            // "Defeated characters clear all statuses, marks, vigor, and other effects on them."
            t.statuses.clear();
            t.vigor = 0;
            steps.push(step("defeated", 0));
            if t.is_player_character {
                t.wounds = (t.wounds + 1).min(FALLEN_WOUNDS);
                steps.push(step("wound", i64::from(t.wounds)));
                if t.wounds >= FALLEN_WOUNDS {
                    t.add("fallen");
                    steps.push(step("fallen", 0));
                } else {
                    t.add("incapacitated");
                }
            }
            t.add("defeated");
        }
        Ok((
            dealt,
            HealthOutcome {
                target: t.settle(),
                steps,
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
                    steps.push(Step {
                        rule: "notBloodied",
                        amount: 0,
                    });
                } else if t.has("shattered") {
                    // Shattered: "Prevents you from gaining or benefiting from vigor."
                    steps.push(Step {
                        rule: "shattered",
                        amount: t.vigor,
                    });
                } else {
                    let gain = if self.healing == Healing::Cure && bloodied {
                        t.vigor_cap()
                    } else {
                        4
                    };
                    t.vigor = (t.vigor + gain).min(t.vigor_cap()).max(t.vigor);
                    steps.push(Step {
                        rule: if gain == 4 { "vigor" } else { "vigorSurge" },
                        amount: t.vigor,
                    });
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
                t.hp = limit;
                steps.push(Step {
                    rule: "rescue",
                    amount: t.hp,
                });
            }
            Healing::EndCombat => {
                // "All ongoing effects (status, mark, blights) are cured"; vigor: "Lose all vigor
                // at the end of combat".
                t.statuses.retain(|s| !s.ends_with('+'));
                if t.vigor > 0 {
                    t.vigor = 0;
                    steps.push(Step {
                        rule: "vigorLost",
                        amount: 0,
                    });
                }
                // "Characters heal to their bloodied value if they're lower" -- but a defeated
                // character stays incapacitated "until someone uses the rescue action".
                if t.hp == 0 {
                    steps.push(Step {
                        rule: "defeated",
                        amount: 0,
                    });
                } else if t.hp < t.bloodied_value() {
                    t.hp = t.bloodied_value().min(limit).max(t.hp);
                }
                steps.push(Step {
                    rule: "endCombat",
                    amount: t.hp,
                });
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
                t.hp = target.min(limit).max(t.hp);
                steps.push(Step {
                    rule: "rest",
                    amount: t.hp,
                });
            }
            Healing::Camp => {
                t.hp = limit.max(t.hp);
                steps.push(Step {
                    rule: "camp",
                    amount: t.hp,
                });
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
