//! Strain, breaking and burdens ("Strain, Effort, Breaking, and Burdens"), as a reducer over a
//! character's narrative state: `(state, event) -> (state, effects)`. A refused event is an error
//! and leaves the state as it was.

use super::narrative::Risk;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The ten actions of narrative play.
pub const ACTIONS: [&str; 10] = [
    "sneak", "traverse", "sense", "study", "charm", "command", "tinker", "excel", "smash", "endure",
];
/// "A character with 3 burdens can still break ... but doesn't mark an extra burden."
pub const MAX_BURDENS: usize = 3;
/// An action can be ticked by burdens "up to twice".
pub const MAX_TICKS: usize = 2;
/// Burden clocks have 4, 6 or 10 segments.
pub const BURDEN_CLOCKS: [u32; 3] = [4, 6, 10];

fn five() -> u32 {
    5
}

/// A long-term harm: −1d on each of its two actions until its clock is unticked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Burden {
    pub name: String,
    pub actions: [String; 2],
    pub clock: u32,
    /// Segments still filled; the burden heals when this reaches 0.
    pub filled: u32,
}

/// What narrative play tracks for one character.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NarrativeState {
    #[serde(default)]
    pub strain: u32,
    #[serde(default = "five")]
    pub max_strain: u32,
    /// Dots per action (0–4), by lowercase action name.
    #[serde(default)]
    pub ratings: std::collections::BTreeMap<String, u32>,
    #[serde(default)]
    pub burdens: Vec<Burden>,
    #[serde(default)]
    pub broken: bool,
    /// Broke with 3 burdens: stays broken until the expedition ends.
    #[serde(default)]
    pub broken_for_expedition: bool,
    /// Broke with fewer than 3 burdens and must name the new burden.
    #[serde(default)]
    pub burden_pending: bool,
    /// Broke with 3 burdens during the expedition that ended: "cannot embark on the next
    /// expedition". Cleared when that next expedition ends.
    #[serde(default)]
    pub sits_out_next_expedition: bool,
    /// Used a limit break this expedition: it cannot receive personal resolve from another's
    /// ("another character who hasn't used a limit break this expedition"). Cleared when the
    /// expedition ends.
    #[serde(default)]
    pub limit_break_used: bool,
}

/// Things that happen to a character's narrative state.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    remote = "Self",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum NarrativeEvent {
    /// Strain from a roll; `critical` strain breaks at once.
    TakeStrain {
        amount: u32,
        #[serde(default)]
        critical: bool,
    },
    /// Take strain instead of a consequence: 1, 2 or 4 by risk.
    Resist { risk: Risk },
    /// Name the burden a break asked for and tick two actions with more than 0 dots.
    TakeBurden {
        name: String,
        actions: [String; 2],
        clock: u32,
    },
    /// Untick `segments` of burden `index` in an interlude.
    HealBurden { index: usize, segments: u32 },
    /// Camp or the end of an interlude: all strain heals.
    ClearStrain,
    /// The scene ends: a broken character recovers (unless broken for the expedition).
    EndScene,
    /// The expedition ends: nobody stays broken; a character broken with 3 burdens sits out the
    /// next expedition, and one that sat out this one may embark on the following.
    EndExpedition,
}

crate::deserialize_tagged!(NarrativeEvent, "type");

/// What the module should show or ask for after an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum NarrativeEffect {
    Broke,
    ChooseBurden,
    BrokenForExpedition,
    BurdenHealed {
        name: String,
    },
    Recovered,
    /// Broke with 3 burdens: "cannot embark on the next expedition".
    SitsOutNextExpedition,
    /// Sat out the expedition that ended: may "return the following expedition".
    MayEmbark,
}

impl NarrativeState {
    /// Burden ticks on `action` (each is −1d on its rolls).
    pub fn ticks(&self, action: &str) -> usize {
        self.burdens
            .iter()
            .filter(|b| b.actions.iter().any(|a| a == action))
            .count()
    }

    fn break_now(&mut self, effects: &mut Vec<NarrativeEffect>) {
        self.strain = 0;
        self.broken = true;
        effects.push(NarrativeEffect::Broke);
        if self.burdens.len() >= MAX_BURDENS {
            self.broken_for_expedition = true;
            effects.push(NarrativeEffect::BrokenForExpedition);
        } else {
            self.burden_pending = true;
            effects.push(NarrativeEffect::ChooseBurden);
        }
    }

    fn take_strain(&mut self, amount: u32, critical: bool, effects: &mut Vec<NarrativeEffect>) {
        self.strain = self.strain.saturating_add(amount);
        if self.broken {
            // Broken, "too hurt or overwhelmed to continue in the current scene": a break lasts
            // the scene, so strain fills the boxes up to the maximum and breaks nothing again
            // (no second burden) until "You cease to be broken at the end of the scene".
            self.strain = self.strain.min(self.max_strain);
            return;
        }
        // "You also break if your strain reaches one or more above your maximum."
        if critical || self.strain > self.max_strain {
            self.break_now(effects);
        }
    }

    /// Applies `event`; the state is untouched when the event is refused.
    pub fn apply(&self, event: &NarrativeEvent) -> Result<(NarrativeState, Vec<NarrativeEffect>)> {
        let mut s = self.clone();
        let mut effects = Vec::new();
        match event {
            NarrativeEvent::TakeStrain { amount, critical } => {
                s.take_strain(*amount, *critical, &mut effects)
            }
            NarrativeEvent::Resist { risk } => s.take_strain(risk.strain(), false, &mut effects),
            NarrativeEvent::TakeBurden {
                name,
                actions,
                clock,
            } => {
                if !s.burden_pending {
                    return Err(Error::request("a burden is taken only when breaking"));
                }
                if name.trim().is_empty() {
                    return Err(Error::request("name the burden"));
                }
                if !BURDEN_CLOCKS.contains(clock) {
                    return Err(Error::request(format!(
                        "a burden clock has 4, 6 or 10 segments, not {clock}"
                    )));
                }
                if actions[0] == actions[1] {
                    return Err(Error::request("a burden ticks two different actions"));
                }
                for a in actions {
                    if !ACTIONS.contains(&a.as_str()) {
                        return Err(Error::request(format!("{a} is not an action")));
                    }
                    // "tick two actions which have more than 0d": the dice the action rolls now,
                    // its dots less the burden ticks it already carries.
                    let dice =
                        i64::from(s.ratings.get(a).copied().unwrap_or(0)) - s.ticks(a) as i64;
                    if dice <= 0 {
                        return Err(Error::request(format!(
                            "{a} is at 0d; a burden ticks actions with more than 0d"
                        )));
                    }
                    if s.ticks(a) >= MAX_TICKS {
                        return Err(Error::request(format!("{a} is already ticked twice")));
                    }
                }
                s.burdens.push(Burden {
                    name: name.trim().to_string(),
                    actions: actions.clone(),
                    clock: *clock,
                    filled: *clock,
                });
                s.burden_pending = false;
            }
            NarrativeEvent::HealBurden { index, segments } => {
                let Some(b) = s.burdens.get_mut(*index) else {
                    return Err(Error::request(format!("there is no burden {index}")));
                };
                b.filled = b.filled.saturating_sub(*segments);
                if b.filled == 0 {
                    let healed = s.burdens.remove(*index);
                    effects.push(NarrativeEffect::BurdenHealed { name: healed.name });
                }
            }
            NarrativeEvent::ClearStrain => s.strain = 0,
            NarrativeEvent::EndScene => {
                if s.broken && !s.broken_for_expedition {
                    s.broken = false;
                    effects.push(NarrativeEffect::Recovered);
                }
            }
            NarrativeEvent::EndExpedition => {
                if s.broken {
                    effects.push(NarrativeEffect::Recovered);
                }
                // "After the expedition is over, any character that broke this way ... cannot
                // embark on the next expedition ... then return the following expedition".
                if s.broken_for_expedition {
                    s.sits_out_next_expedition = true;
                    effects.push(NarrativeEffect::SitsOutNextExpedition);
                } else if s.sits_out_next_expedition {
                    s.sits_out_next_expedition = false;
                    effects.push(NarrativeEffect::MayEmbark);
                }
                s.broken = false;
                s.broken_for_expedition = false;
                s.limit_break_used = false;
            }
        }
        Ok((s, effects))
    }
}

/// A progress clock of 4, 6, 8, 10 or 12 segments, ticked by effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    pub segments: u32,
    pub filled: u32,
}

impl Clock {
    pub fn new(segments: u32) -> Result<Self> {
        if ![4, 6, 8, 10, 12].contains(&segments) {
            return Err(Error::request(format!(
                "a clock has 4, 6, 8, 10 or 12 segments, not {segments}"
            )));
        }
        Ok(Self {
            segments,
            filled: 0,
        })
    }
    /// Ticks `n` segments (negative unticks), staying within the clock.
    pub fn tick(self, n: i64) -> Result<Self> {
        let c = Self::new(self.segments)?;
        let filled = (i64::from(self.filled.min(c.segments)) + n).clamp(0, i64::from(c.segments));
        Ok(Self {
            filled: filled as u32,
            ..c
        })
    }
    pub fn complete(self) -> bool {
        self.filled >= self.segments
    }
    /// The clock as the module shows it, with whether it is complete.
    pub fn view(self) -> ClockView {
        ClockView {
            segments: self.segments,
            filled: self.filled,
            complete: self.complete(),
        }
    }
}

/// A clock after a tick: its segments, how many are filled, and whether it is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    pub segments: u32,
    pub filled: u32,
    pub complete: bool,
}

/// The end-of-session XP checklist ("Session End XP").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SessionXp {
    /// Bond ideals fulfilled: 1 xp for one, 2 for two or more.
    pub ideals: u32,
    /// Times challenged or tested: 1 xp, 2 if multiple times.
    pub challenged: u32,
    /// Ambition accomplished, rated 1–3 by difficulty (0 for none).
    pub ambition: u32,
    /// Burdens invoked at least once: 1 xp.
    pub burden_invoked: bool,
}

impl SessionXp {
    pub fn total(self) -> u32 {
        self.ideals.min(2)
            + self.challenged.min(2)
            + self.ambition.min(3)
            + u32::from(self.burden_invoked)
    }
}
