//! A character's combat tokens (Basic Combat Concepts & Glossary): Blessing tokens, the Combo
//! token and Power dice, as a pure state transition: `icon.tokens` applies one event.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The most Blessing tokens one character holds (a typo guard, not a rule).
pub const MAX_BLESSINGS: u32 = 100;
/// A power die is a d6: it ticks from 1 up to 6.
pub const POWER_DIE_FACES: u32 = 6;
/// The most power dice one character holds (a typo guard, not a rule).
pub const MAX_POWER_DICE: usize = 20;

/// "Each power die is unique to the ability that granted it."
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PowerDie {
    pub ability: String,
    pub ticks: u32,
}

/// What a character holds.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tokens {
    #[serde(default)]
    pub blessings: u32,
    /// "You can only have one combo token at once."
    #[serde(default)]
    pub combo: bool,
    #[serde(default)]
    pub power_dice: Vec<PowerDie>,
}

/// What happens to the tokens.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    remote = "Self",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum TokenEvent {
    /// "Certain abilities give yourself or allies a Blessing token".
    GainBlessing {
        #[serde(default = "one")]
        count: u32,
    },
    /// "use a blessing token to gain +1 boon when they make a save" (or another effect).
    SpendBlessing,
    /// Use an ability with Combo: "When you use the base ability, gain a combo token. Any time you
    /// use a combo ability and have a token, you use the combo version instead, discarding the
    /// token."
    UseCombo,
    /// "Some abilities will grant you a power die ... Gain power dice at 1 tick".
    GainPowerDie { ability: String },
    /// "tell you to tick it up or untick it ... if a power die ticks to 0, discard it." `by` may
    /// be negative; a die stops at 6 ticks.
    TickPowerDie { ability: String, by: i32 },
    /// The end of combat: "All blessings are discarded at the end of combat"; combo: "discard all
    /// tokens at the end of combat"; power dice go with them (see docs/rules.md).
    EndCombat,
}

crate::deserialize_tagged!(TokenEvent, "type");

fn one() -> u32 {
    1
}

/// What the module should show after an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TokenEffect {
    /// `useCombo` with a token: the combo version is used, the token discarded.
    ComboVersion,
    /// `useCombo` without a token: the base version is used, a token gained.
    BaseVersion,
    PowerDieDiscarded {
        ability: String,
    },
    Discarded {
        blessings: u32,
        combo: bool,
        power_dice: u32,
    },
}

/// `icon.tokens`: a character's tokens and one event.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokensRule {
    #[serde(default)]
    pub tokens: Tokens,
    pub event: TokenEvent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokensOutcome {
    pub tokens: Tokens,
    pub effects: Vec<TokenEffect>,
}

fn check_ability(ability: &str) -> Result<()> {
    if ability.trim().is_empty() || ability.len() > 256 {
        return Err(Error::request(
            "a power die names the ability that granted it (1 to 256 characters)",
        ));
    }
    Ok(())
}

impl Tokens {
    fn check(&self) -> Result<()> {
        if self.blessings > MAX_BLESSINGS {
            return Err(Error::request(format!(
                "blessings must be from 0 to {MAX_BLESSINGS}, not {}",
                self.blessings
            )));
        }
        if self.power_dice.len() > MAX_POWER_DICE {
            return Err(Error::request(format!(
                "at most {MAX_POWER_DICE} power dice"
            )));
        }
        for (i, d) in self.power_dice.iter().enumerate() {
            check_ability(&d.ability)?;
            if !(1..=POWER_DIE_FACES).contains(&d.ticks) {
                return Err(Error::request(format!(
                    "a power die has 1 to {POWER_DIE_FACES} ticks, not {}",
                    d.ticks
                )));
            }
            if self.power_dice[..i].iter().any(|e| e.ability == d.ability) {
                return Err(Error::request(format!(
                    "two power dice of {}: each is unique to its ability",
                    d.ability
                )));
            }
        }
        Ok(())
    }
}

impl TokensRule {
    /// Applies the event; the total is the Blessing tokens held after it.
    pub fn apply(&self) -> Result<(i64, TokensOutcome)> {
        self.tokens.check()?;
        let mut t = self.tokens.clone();
        let mut effects = Vec::new();
        match &self.event {
            TokenEvent::GainBlessing { count } => {
                if *count == 0 {
                    return Err(Error::request("gain at least 1 blessing token"));
                }
                t.blessings = t.blessings.saturating_add(*count);
                if t.blessings > MAX_BLESSINGS {
                    return Err(Error::request(format!(
                        "at most {MAX_BLESSINGS} blessing tokens"
                    )));
                }
            }
            TokenEvent::SpendBlessing => {
                if t.blessings == 0 {
                    return Err(Error::request("no blessing token to spend"));
                }
                t.blessings -= 1;
            }
            TokenEvent::UseCombo => {
                if t.combo {
                    t.combo = false;
                    effects.push(TokenEffect::ComboVersion);
                } else {
                    t.combo = true;
                    effects.push(TokenEffect::BaseVersion);
                }
            }
            TokenEvent::GainPowerDie { ability } => {
                check_ability(ability)?;
                if t.power_dice.iter().any(|d| &d.ability == ability) {
                    return Err(Error::request(format!(
                        "already holds the power die of {ability}: each is unique to its ability"
                    )));
                }
                if t.power_dice.len() >= MAX_POWER_DICE {
                    return Err(Error::request(format!(
                        "at most {MAX_POWER_DICE} power dice"
                    )));
                }
                t.power_dice.push(PowerDie {
                    ability: ability.clone(),
                    ticks: 1,
                });
            }
            TokenEvent::TickPowerDie { ability, by } => {
                let Some(i) = t.power_dice.iter().position(|d| &d.ability == ability) else {
                    return Err(Error::request(format!("no power die of {ability}")));
                };
                let ticks = (i64::from(t.power_dice[i].ticks) + i64::from(*by))
                    .min(i64::from(POWER_DIE_FACES));
                if ticks <= 0 {
                    let gone = t.power_dice.remove(i);
                    effects.push(TokenEffect::PowerDieDiscarded {
                        ability: gone.ability,
                    });
                } else {
                    t.power_dice[i].ticks = ticks as u32;
                }
            }
            TokenEvent::EndCombat => {
                if t != Tokens::default() {
                    effects.push(TokenEffect::Discarded {
                        blessings: t.blessings,
                        combo: t.combo,
                        power_dice: t.power_dice.len() as u32,
                    });
                }
                t = Tokens::default();
            }
        }
        Ok((i64::from(t.blessings), TokensOutcome { tokens: t, effects }))
    }
}
