//! Limit breaks and resolve (Resolve): "Resolve is a special resource used to activate LIMIT
//! BREAKS ... When you use your Limit Break, you can give 1 personal resolve as part of the
//! activation to another character who hasn't used a limit break this expedition."

use crate::error::{Error, Result};
use crate::rulesets::check_range;
use serde::{Deserialize, Serialize};

/// The character that receives the personal resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Recipient {
    /// Its personal resolve.
    pub resolve: u32,
    /// It used a limit break this expedition (then it cannot receive).
    #[serde(default)]
    pub used_limit_break: bool,
}

/// `icon.limitBreak`: pay a limit break's resolve, from the user's personal resolve and the
/// party's (`fromParty` of the cost; ICON 1.5 lets either pay), and optionally give 1 of the
/// user's personal resolve to a character who has not used a limit break this expedition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitBreak {
    /// The resolve the limit break costs.
    pub cost: u32,
    /// The user's personal resolve.
    pub personal: u32,
    /// The party resolve there is.
    #[serde(default)]
    pub party: u32,
    /// How much of the cost party resolve pays (the rest is personal).
    #[serde(default)]
    pub from_party: u32,
    #[serde(default)]
    pub give: Option<Recipient>,
}

/// The resolve after the activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimitBreakOutcome {
    pub personal: u32,
    pub party: u32,
    /// The recipient's personal resolve after the gift.
    pub recipient_resolve: Option<u32>,
}

impl LimitBreak {
    /// Applies the activation; the total is the resolve spent (the gift is not spent).
    pub fn apply(&self) -> Result<(i64, LimitBreakOutcome)> {
        for (field, v) in [
            ("cost", self.cost),
            ("personal", self.personal),
            ("party", self.party),
            ("fromParty", self.from_party),
        ] {
            check_range(field, i64::from(v), 0, 1000)?;
        }
        if self.from_party > self.cost {
            return Err(Error::request(format!(
                "fromParty {} is more than the cost {}",
                self.from_party, self.cost
            )));
        }
        if self.from_party > self.party {
            return Err(Error::request(format!(
                "not enough party resolve: {} asked, {} held",
                self.from_party, self.party
            )));
        }
        let own = self.cost - self.from_party;
        if own > self.personal {
            return Err(Error::request(format!(
                "not enough personal resolve: the limit break costs {own} of it, {} held",
                self.personal
            )));
        }
        let mut personal = self.personal - own;
        let recipient_resolve = match self.give {
            None => None,
            Some(r) => {
                check_range("give.resolve", i64::from(r.resolve), 0, 1000)?;
                if r.used_limit_break {
                    return Err(Error::request(
                        "personal resolve goes only to a character who hasn't used a limit break \
                         this expedition",
                    ));
                }
                if personal == 0 {
                    return Err(Error::request(
                        "no personal resolve left to give after paying the limit break",
                    ));
                }
                personal -= 1;
                Some(r.resolve + 1)
            }
        };
        Ok((
            i64::from(self.cost),
            LimitBreakOutcome {
                personal,
                party: self.party - self.from_party,
                recipient_resolve,
            },
        ))
    }
}
