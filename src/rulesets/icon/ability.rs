//! `icon.ability`: which parts of an ability fire, against each target and on its user, and
//! whether each part's status and mark land. No dice: the caller rolls the attacks, saves and
//! the Gamble d6 and says how each came out.
//!
//! The seed ("Rules Reference (Tactical Combat)"): "Effects happen regardless of hitting or
//! missing, unless specified"; "A critical hit counts as a hit for anything relying on hitting";
//! "Exceed: A triggered effect that takes place on a total attack roll of 15+"; "Charge: A
//! triggered effect that activates when the ability is used on a slow turn"; "Comeback: A
//! triggered effect that turns on if the character using this ability is bloodied"; "Finishing
//! Blow: ... Triggered effect that triggers if this ability targets a bloodied foe"; "Slay: A
//! triggered effect that activates when this ability reduces a character to 0 hp"; "Gamble: Roll
//! 1d6, then trigger an effect on a certain result or higher"; "Heroic: ... Triggers when its
//! special condition is fulfilled"; "Triggered effect: ... Each unique effect can only trigger
//! once per ability, and once per trigger".

use super::effects::{
    mark_blocked, sealed, status_blocked, status_list, Blocked, Recipient, MAX_STATUS_BYTES,
};
use super::tactical::AttackResult;
use crate::decode::at_most;
use crate::error::{Error, Result};
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};

/// An ability has at most this many parts (ICON's have a handful).
pub const MAX_PARTS: usize = 12;
/// An ability is used against at most this many targets (a large area on a crowded map).
pub const MAX_TARGETS: usize = 64;

/// An ability's tag (`ABILITY_TAGS` in `module/data/rules.mjs`): what the paste parser writes and
/// the forecast plays by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Tag {
    Attack,
    Area,
    Aura,
    Mark,
    Stance,
    Combo,
    Delay,
    EndTurn,
    Summon,
    Terrain,
    LimitBreak,
}

/// When a part fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Trigger {
    /// An effect: it fires against every target, hit or missed, evaded or not ("Effects happen
    /// regardless of hitting or missing"; "Effects that don't require a hit and automatically
    /// happen go through evasion").
    Use,
    /// On a hit or a critical hit ("A critical hit counts as a hit for anything relying on
    /// hitting").
    Hit,
    /// On a critical hit.
    Crit,
    /// On a miss (an evaded attack is one).
    Miss,
    /// On a total attack roll of 15+.
    Exceed,
    /// When the target fails its save.
    FailedSave,
    /// When the ability is used on a slow turn.
    Charge,
    /// When the user is bloodied.
    Comeback,
    /// When the target is a bloodied foe.
    FinishingBlow,
    /// When this ability reduces the target to 0 HP.
    Slay,
    /// When the use's Gamble d6 comes up the part's number or higher.
    Gamble,
    /// When the user's special (job) condition is fulfilled.
    Heroic,
}

impl Trigger {
    /// Whether the trigger depends on the target (else on the user or the use).
    fn per_target(self) -> bool {
        !matches!(
            self,
            Trigger::Use | Trigger::Charge | Trigger::Comeback | Trigger::Gamble | Trigger::Heroic
        )
    }
}

/// Whom a part lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum To {
    /// Each target the part fires against.
    #[default]
    Target,
    /// The user, once per use.
    #[serde(rename = "self")]
    User,
}

/// One part of an ability: when it fires, on whom, and the status and mark it puts there.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Part {
    pub trigger: Trigger,
    /// Gamble N+: the least d6 that fires the part (with `trigger: "gamble"` only).
    #[serde(default)]
    pub gamble: Option<u8>,
    #[serde(default)]
    pub to: To,
    /// The status or effect id the part inflicts (bare, lowercase), or `""` for none.
    #[serde(default)]
    pub status: String,
    /// The part places the ability's mark.
    #[serde(default)]
    pub mark: bool,
}

/// The character using the ability.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct User {
    #[serde(default, deserialize_with = "status_list")]
    pub statuses: Vec<String>,
    #[serde(default)]
    pub bloodied: bool,
    /// The ability is used on a slow turn.
    #[serde(default)]
    pub slow_turn: bool,
    /// The user's Heroic condition is fulfilled.
    #[serde(default)]
    pub heroic: bool,
}

/// How a target's save against the ability came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SaveResult {
    Saved,
    Failed,
}

fn yes() -> bool {
    true
}

/// One target of the use, as the use left it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Target {
    /// How the attack against it landed (an evaded one missed); `null` when no attack roll was
    /// made against it.
    #[serde(default)]
    pub attack: Option<AttackResult>,
    /// The attack roll's total was 15+ (never without an attack).
    #[serde(default)]
    pub exceed: bool,
    /// Its save against the ability, when it made one.
    #[serde(default)]
    pub save: Option<SaveResult>,
    /// It was bloodied before this ability's damage.
    #[serde(default)]
    pub bloodied: bool,
    /// This ability's damage took it to 0 HP.
    #[serde(default)]
    pub slain: bool,
    #[serde(default, deserialize_with = "status_list")]
    pub statuses: Vec<String>,
    /// A mob: immune to statuses.
    #[serde(default)]
    pub mob: bool,
    /// A summon: "Summons are intangible, and cannot be marked, and do not count as allies or
    /// foes for the purposes of abilities".
    #[serde(default)]
    pub summon: bool,
    /// The user is its foe.
    #[serde(default = "yes")]
    pub from_foe: bool,
}

/// `icon.ability`: an ability's parts, its user, the use's Gamble d6 and its targets.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ability {
    #[serde(deserialize_with = "parts")]
    pub parts: Vec<Part>,
    #[serde(default)]
    pub user: User,
    /// The use's Gamble d6, when it rolled one (needed by a `gamble` part).
    #[serde(default)]
    pub gamble: Option<u8>,
    #[serde(default, deserialize_with = "targets")]
    pub targets: Vec<Target>,
}

/// Whether a part's status or mark lands, and what stopped it when it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Landing {
    pub lands: bool,
    pub blocked_by: Option<Blocked>,
}

impl From<Option<Blocked>> for Landing {
    fn from(blocked_by: Option<Blocked>) -> Self {
        Self {
            lands: blocked_by.is_none(),
            blocked_by,
        }
    }
}

/// A part that fired: its index in `parts`, and its status and mark (`null` when it has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fired {
    pub index: usize,
    pub status: Option<Landing>,
    pub mark: Option<Landing>,
}

/// The parts that fired against one target, in part order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetOutcome {
    pub parts: Vec<Fired>,
}

/// What fired: per target (in the request's order), and on the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AbilityOutcome {
    pub targets: Vec<TargetOutcome>,
    #[serde(rename = "self")]
    pub user: Vec<Fired>,
}

fn parts<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Part>, D::Error> {
    at_most(d, MAX_PARTS, "an ability has", "parts")
}

fn targets<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Target>, D::Error> {
    at_most(d, MAX_TARGETS, "an ability has", "targets")
}

/// A Gamble number: a d6's face.
fn check_d6(field: &str, n: u8) -> Result<()> {
    if (1..=6).contains(&n) {
        Ok(())
    } else {
        Err(Error::request(format!(
            "{field} must be from 1 to 6 (a d6), not {n}"
        )))
    }
}

impl Part {
    fn check(&self, i: usize) -> Result<()> {
        match (self.trigger, self.gamble) {
            (Trigger::Gamble, Some(n)) => check_d6(&format!("parts[{i}].gamble"), n)?,
            (Trigger::Gamble, None) => {
                return Err(Error::request(format!(
                    "parts[{i}]: a gamble part says its number (gamble: 1 to 6, Gamble N+)"
                )))
            }
            (_, Some(_)) => {
                return Err(Error::request(format!(
                    "parts[{i}].gamble: only a part with trigger \"gamble\" has a number"
                )))
            }
            (_, None) => {}
        }
        let s = &self.status;
        if s.len() > MAX_STATUS_BYTES || s.ends_with('+') || s.trim() != s {
            return Err(Error::request(format!(
                "parts[{i}].status: a bare status id of at most {MAX_STATUS_BYTES} bytes \
                 (no + or spaces), or \"\" for none"
            )));
        }
        Ok(())
    }
}

impl Ability {
    fn check(&self) -> Result<()> {
        for (i, part) in self.parts.iter().enumerate() {
            part.check(i)?;
        }
        match self.gamble {
            Some(n) => check_d6("gamble", n),
            None if self.parts.iter().any(|p| p.trigger == Trigger::Gamble) => Err(Error::request(
                "gamble: a gamble part needs the use's Gamble d6 (1 to 6)",
            )),
            None => Ok(()),
        }
    }

    /// Whether `part`'s trigger fires for the use as a whole (the user-level triggers).
    fn fires_for_use(&self, part: &Part) -> bool {
        match part.trigger {
            Trigger::Use => true,
            Trigger::Charge => self.user.slow_turn,
            Trigger::Comeback => self.user.bloodied,
            Trigger::Heroic => self.user.heroic,
            Trigger::Gamble => self.gamble.zip(part.gamble).is_some_and(|(d6, n)| d6 >= n),
            _ => false,
        }
    }

    /// Whether `part`'s trigger fires against `target`.
    fn fires_against(&self, part: &Part, target: &Target) -> bool {
        // the attack-dependent triggers need an attack roll against the target
        let attack = target.attack;
        match part.trigger {
            Trigger::Hit => matches!(attack, Some(AttackResult::Hit | AttackResult::Crit)),
            Trigger::Crit => attack == Some(AttackResult::Crit),
            Trigger::Miss => attack == Some(AttackResult::Miss),
            Trigger::Exceed => target.exceed && attack.is_some(),
            Trigger::FailedSave => target.save == Some(SaveResult::Failed),
            // "targets a bloodied foe": a summon counts as no foe for abilities
            Trigger::FinishingBlow => target.bloodied && target.from_foe && !target.summon,
            Trigger::Slay => target.slain,
            _ => self.fires_for_use(part),
        }
    }

    /// What `part` puts on `on`, inflicted by the user (`sealed`: it cannot inflict statuses;
    /// `from_foe`: it is a foe of `on`).
    fn fired(index: usize, part: &Part, sealed: bool, on: Recipient, from_foe: bool) -> Fired {
        let status = (!part.status.is_empty())
            .then(|| Landing::from(status_blocked(&part.status, sealed, on, from_foe)));
        let mark = part.mark.then(|| Landing::from(mark_blocked(on, from_foe)));
        Fired {
            index,
            status,
            mark,
        }
    }

    /// The parts that fire against each target and on the user; the total counts every firing.
    pub fn apply(&self) -> Result<(i64, AbilityOutcome)> {
        self.check()?;
        // each list of statuses is read once, not once a part
        let sealed = sealed(&self.user.statuses);
        let targets: Vec<TargetOutcome> = self
            .targets
            .iter()
            .map(|t| {
                let mut on = Recipient::new(&t.statuses, t.mob, t.summon);
                // the ability's own damage slew it: nothing more lands on it
                on.defeated |= t.slain;
                let parts = self
                    .parts
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.to == To::Target && self.fires_against(p, t))
                    .map(|(i, p)| Self::fired(i, p, sealed, on, t.from_foe))
                    .collect();
                TargetOutcome { parts }
            })
            .collect();
        let user = Recipient::new(&self.user.statuses, false, false);
        // a part on the user fires once a use: when its trigger fires for the use, or against
        // any target ("once per ability")
        let own: Vec<Fired> = self
            .parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.to == To::User)
            .filter(|(_, p)| match p.trigger.per_target() {
                true => self.targets.iter().any(|t| self.fires_against(p, t)),
                false => self.fires_for_use(p),
            })
            .map(|(i, p)| Self::fired(i, p, sealed, user, false))
            .collect();
        let total = targets.iter().map(|t| t.parts.len()).sum::<usize>() + own.len();
        Ok((total as i64, AbilityOutcome { targets, user: own }))
    }
}
