//! Statuses that stop statuses, and statuses that end with another character's state
//! ("Positive Effects/Statuses/Blights/States"): Unstoppable, Sealed, Intangible and Hatred of X.

use crate::error::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize};

/// The seed's statuses ("STATUSES"): what Unstoppable is immune to and Sealed cannot inflict.
pub const STATUSES: [&str; 10] = [
    "blind",
    "dazed",
    "hatred",
    "pacified",
    "sealed",
    "shattered",
    "slashed",
    "stunned",
    "vulnerable",
    "weakened",
];

/// A list of statuses (a character's, an inflicter's, foe X's) holds at most this many ids: ICON
/// has 26, each bare or ongoing (`dazed+`), which leaves room for a module's own; every rule that
/// reads a list looks through it, so its length bounds the work.
pub const MAX_STATUSES: usize = 128;
/// A status id is at most this many bytes (ICON's longest, `incapacitated`, is 13).
pub const MAX_STATUS_BYTES: usize = 64;

/// Reads a status list, refused past [`MAX_STATUSES`] ids or at an id past [`MAX_STATUS_BYTES`]
/// as soon as it is read, so an oversized list costs nothing more.
pub fn status_list<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
    struct Bounded;
    impl<'de> serde::de::Visitor<'de> for Bounded {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of status ids")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Vec<String>, A::Error> {
            let mut out = Vec::new();
            while let Some(id) = seq.next_element::<StatusId>()? {
                if out.len() >= MAX_STATUSES {
                    return Err(serde::de::Error::custom(format!(
                        "a list of statuses holds at most {MAX_STATUSES}"
                    )));
                }
                out.push(id.0);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded)
}

/// One status id of at most [`MAX_STATUS_BYTES`].
struct StatusId(String);

impl<'de> Deserialize<'de> for StatusId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        if id.len() > MAX_STATUS_BYTES {
            return Err(serde::de::Error::custom(format!(
                "a status id is at most {MAX_STATUS_BYTES} bytes"
            )));
        }
        Ok(Self(id))
    }
}

/// A status list as an argument of its own (`iconSaveable`, `iconAfterAbility`), read by
/// [`status_list`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Statuses(#[serde(deserialize_with = "status_list")] pub Vec<String>);

fn yes() -> bool {
    true
}

/// Whether `statuses` (core ids, `+` for ongoing) hold `id`.
fn has(statuses: &[String], id: &str) -> bool {
    statuses.iter().any(|s| s.trim_end_matches('+') == id)
}

/// Whether `id` (bare or ongoing) is one of the seed's statuses ([`STATUSES`]): not a positive
/// effect, a trait, a state, a blight or a mark.
pub fn is_status(id: &str) -> bool {
    STATUSES.contains(&id.trim_end_matches('+'))
}

/// Whether a character with `statuses` is affected by `id`: it has it, and it is not immune to
/// it. "Unstoppable: Immune to all statuses"; "Immune to X: Not affected by X in any way": the
/// statuses an Unstoppable character has stay on it (a save or a cure ends them, and they work
/// again once Unstoppable ends), but none of them does anything, ongoing ones included (immune
/// is "in any way"). Every rule that reads a character's statuses for what they do asks here
/// (or [`effective`], the same answer as a list).
pub fn affects(statuses: &[String], id: &str) -> bool {
    has(statuses, id) && !immune(statuses, id)
}

/// Whether a character with `statuses` is immune to `id`: Unstoppable, and `id` a status.
fn immune(statuses: &[String], id: &str) -> bool {
    is_status(id) && has(statuses, "unstoppable")
}

/// The statuses that take effect on a character with `statuses` (in order, `+` kept): all but
/// the ones it is immune to (see [`affects`]). JS derives a character's state from these
/// (`iconEffectiveStatuses`), so it never decides immunity itself.
pub fn effective(statuses: &[String]) -> Vec<String> {
    let unstoppable = has(statuses, "unstoppable");
    statuses
        .iter()
        .filter(|s| !(unstoppable && is_status(s)))
        .cloned()
        .collect()
}

/// Who a status or mark would land on, read once from its statuses and what it is beyond them.
#[derive(Debug, Clone, Copy)]
pub struct Recipient {
    /// "Intangible characters can be targeted, but are Immune to damage and effects from foes";
    /// "Summons are intangible".
    pub intangible: bool,
    /// "Unstoppable: Immune to all statuses".
    pub unstoppable: bool,
    /// A mob is immune to statuses.
    pub mob: bool,
    /// "Summons are intangible, and cannot be marked".
    pub summon: bool,
    /// "Defeated characters clear all statuses, marks, vigor, and other effects on them".
    pub defeated: bool,
}

impl Recipient {
    /// A character with `statuses`, a mob and a summon as said.
    pub fn new(statuses: &[String], mob: bool, summon: bool) -> Self {
        Self {
            intangible: summon || has(statuses, "intangible"),
            unstoppable: has(statuses, "unstoppable"),
            mob,
            summon,
            defeated: has(statuses, "defeated"),
        }
    }
}

/// Whether a character with `statuses` is Sealed ("Character cannot inflict statuses") and
/// affected by it: an Unstoppable one is not ([`affects`]).
pub fn sealed(statuses: &[String]) -> bool {
    affects(statuses, "sealed")
}

/// What stops status or effect `id` (bare) from landing on `target`, inflicted by a character
/// that is [`sealed`] or not, a foe of the target when `from_foe`: Intangible stops anything
/// from a foe; Sealed, the target's Unstoppable and a mob stop statuses, but not positive
/// effects, traits, states or blights.
pub fn status_blocked(
    id: &str,
    inflicter_sealed: bool,
    target: Recipient,
    from_foe: bool,
) -> Option<Blocked> {
    let status = is_status(id);
    if target.defeated {
        Some(Blocked::Defeated)
    } else if from_foe && target.intangible {
        Some(Blocked::Intangible)
    } else if status && inflicter_sealed {
        Some(Blocked::Sealed)
    } else if status && target.unstoppable {
        Some(Blocked::Unstoppable)
    } else if status && target.mob {
        Some(Blocked::Mob)
    } else {
        None
    }
}

/// What stops a mark from being placed on `target`: a summon "cannot be marked", and an
/// Intangible target is immune to a foe's effects. A mark is no status: Sealed and Unstoppable
/// let it through.
pub fn mark_blocked(target: Recipient, from_foe: bool) -> Option<Blocked> {
    if target.defeated {
        Some(Blocked::Defeated)
    } else if target.summon {
        Some(Blocked::Summon)
    } else if from_foe && target.intangible {
        Some(Blocked::Intangible)
    } else {
        None
    }
}

/// `icon.inflict`: may a status land on a target? "Unstoppable: Immune to all statuses";
/// "Sealed: Character cannot inflict statuses"; "Intangible characters ... are Immune to damage
/// and effects from foes". Positive effects, marks and states are no statuses: Unstoppable and
/// Sealed let them through (Intangible still stops a foe's). See [`status_blocked`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Inflict {
    /// The status or effect id (bare, lowercase).
    pub status: String,
    /// The inflicting character's statuses.
    #[serde(default, deserialize_with = "status_list")]
    pub inflicter: Vec<String>,
    /// The target's statuses.
    #[serde(default, deserialize_with = "status_list")]
    pub target: Vec<String>,
    /// The inflicter is a foe of the target.
    #[serde(default = "yes")]
    pub from_foe: bool,
}

/// What stopped a status (or a mark).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Blocked {
    Sealed,
    Unstoppable,
    Intangible,
    /// The target is a mob, immune to statuses (`icon.ability`'s `mob` target).
    Mob,
    /// The target is a summon, which "cannot be marked" (`icon.ability`'s `summon` target).
    Summon,
    /// The target is defeated: "Defeated characters clear all statuses, marks, vigor, and other
    /// effects on them" (`icon.ability`'s target the ability's damage slew, or one already defeated).
    Defeated,
}

/// Whether the status lands, and what stopped it when it does not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InflictOutcome {
    pub inflicted: bool,
    pub blocked_by: Option<Blocked>,
}

impl Inflict {
    pub fn apply(&self) -> Result<(i64, InflictOutcome)> {
        let id = self.status.trim_end_matches('+');
        if id.is_empty() || id.len() > MAX_STATUS_BYTES {
            return Err(Error::request("status must name a status"));
        }
        let target = Recipient::new(&self.target, false, false);
        let blocked_by = status_blocked(id, sealed(&self.inflicter), target, self.from_foe);
        let inflicted = blocked_by.is_none();
        Ok((
            i64::from(inflicted),
            InflictOutcome {
                inflicted,
                blocked_by,
            },
        ))
    }
}

/// `icon.hatred`: does a Hatred of X end because of foe X? "End this status at the end of your
/// turn, or if foe X becomes immune to damage or un-targetable." Immune to damage: Immune (as
/// Defiance grants), Intangible ("Immune to damage and effects from foes"; X is the hater's foe),
/// a defeated player character ("immune to damage"). Un-targetable: defeated or gone from the
/// battlefield (`targetable: false`: fled, removed), or Stealth ("you cannot be directly targeted
/// except from an adjacent space"). An ongoing `hatred+` waits for its cause: "Ongoing statuses
/// or effects cannot be removed or ignored until whatever is causing them is lifted".
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Hatred {
    /// Foe X's statuses.
    #[serde(deserialize_with = "status_list")]
    pub foe: Vec<String>,
    /// Foe X is still on the battlefield.
    #[serde(default = "yes")]
    pub targetable: bool,
    /// The Hatred is ongoing (`hatred+`).
    #[serde(default)]
    pub ongoing: bool,
}

/// Why a Hatred ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HatredEnd {
    Immune,
    Intangible,
    Defeated,
    Stealth,
    Gone,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HatredOutcome {
    pub ends: bool,
    pub reason: Option<HatredEnd>,
}

impl Hatred {
    pub fn apply(&self) -> Result<(i64, HatredOutcome)> {
        let reason = if !self.targetable {
            Some(HatredEnd::Gone)
        } else if has(&self.foe, "defeated") || has(&self.foe, "incapacitated") {
            Some(HatredEnd::Defeated)
        } else if has(&self.foe, "immune") {
            Some(HatredEnd::Immune)
        } else if has(&self.foe, "intangible") {
            Some(HatredEnd::Intangible)
        } else if has(&self.foe, "stealth") {
            Some(HatredEnd::Stealth)
        } else {
            None
        };
        let ends = reason.is_some() && !self.ongoing;
        Ok((
            i64::from(ends),
            HatredOutcome {
                ends,
                reason: reason.filter(|_| ends),
            },
        ))
    }
}
