//! Marks (Basic Combat Concepts & Glossary, Mark): "You can only place one mark at a time on each
//! character and only one of each unique mark can be active at a time. If you place a mark on a
//! character that already has a mark from you, you choose which to keep or discard. Marks end
//! when the character that placed the mark is defeated, or under other conditions unique to each
//! mark." The marks of a fight are a list; `icon.marks` applies one event to it.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The most marks a fight holds (far past any table's).
pub const MAX_MARKS: usize = 1000;

/// One mark: which (`mark`, the ability's unique mark), who placed it and on whom (ids the
/// caller chooses: the module uses actor UUIDs).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Mark {
    pub mark: String,
    pub placer: String,
    pub target: String,
}

/// What happens to the marks.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    remote = "Self",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum MarkEvent {
    /// Place a mark. A mark the placer already has on that character is discarded for it, unless
    /// `keepOld` (the placer's choice: then the new one is not placed); the same mark of the same
    /// placer on another character fades ("only one of each unique mark can be active").
    /// Summons "cannot be marked".
    Place {
        mark: Mark,
        #[serde(default)]
        keep_old: bool,
        #[serde(default)]
        target_is_summon: bool,
    },
    /// A character is defeated: the marks it placed end ("Marks end when the character that
    /// placed the mark is defeated"), and so do the marks on it ("Defeated characters clear all
    /// statuses, marks, vigor, and other effects on them").
    Defeated { id: String },
    /// A mark ends by its own condition.
    Remove { mark: Mark },
    /// "When combat ends: All ongoing effects (status, mark, blights) are cured."
    EndCombat,
}

crate::deserialize_tagged!(MarkEvent, "type");

/// `icon.marks`: the fight's marks and one event.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Marks {
    #[serde(default)]
    pub marks: Vec<Mark>,
    pub event: MarkEvent,
}

/// The marks after the event, and the ones it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarksOutcome {
    pub marks: Vec<Mark>,
    pub ended: Vec<Mark>,
    /// A `place` put its mark down (false when the placer kept the old one).
    pub placed: bool,
}

fn check(mark: &Mark) -> Result<()> {
    for (field, v) in [
        ("mark", &mark.mark),
        ("placer", &mark.placer),
        ("target", &mark.target),
    ] {
        if v.trim().is_empty() || v.len() > 256 {
            return Err(Error::request(format!(
                "a mark's {field} must be 1 to 256 characters"
            )));
        }
    }
    Ok(())
}

impl Marks {
    /// Applies the event; the total is the number of marks it ended.
    pub fn apply(&self) -> Result<(i64, MarksOutcome)> {
        if self.marks.len() > MAX_MARKS {
            return Err(Error::request(format!(
                "at most {MAX_MARKS} marks, not {}",
                self.marks.len()
            )));
        }
        for m in &self.marks {
            check(m)?;
        }
        let mut placed = false;
        let (kept, ended): (Vec<Mark>, Vec<Mark>) = match &self.event {
            MarkEvent::Place {
                mark,
                keep_old,
                target_is_summon,
            } => {
                check(mark)?;
                if *target_is_summon {
                    return Err(Error::request("summons cannot be marked"));
                }
                let old_here = self
                    .marks
                    .iter()
                    .any(|m| m.placer == mark.placer && m.target == mark.target);
                if old_here && *keep_old {
                    (self.marks.clone(), Vec::new())
                } else {
                    placed = true;
                    let (ended, mut kept): (Vec<Mark>, Vec<Mark>) =
                        self.marks.iter().cloned().partition(|m| {
                            m.placer == mark.placer
                                && (m.target == mark.target || m.mark == mark.mark)
                        });
                    kept.push(mark.clone());
                    // the same mark placed again on the same character refreshes it: not ended
                    let ended = ended.into_iter().filter(|m| m != mark).collect();
                    (kept, ended)
                }
            }
            MarkEvent::Defeated { id } => {
                let (ended, kept) = self
                    .marks
                    .iter()
                    .cloned()
                    .partition(|m| &m.placer == id || &m.target == id);
                (kept, ended)
            }
            MarkEvent::Remove { mark } => {
                if !self.marks.contains(mark) {
                    return Err(Error::request(format!(
                        "there is no mark {} from {} on {}",
                        mark.mark, mark.placer, mark.target
                    )));
                }
                let (ended, kept) = self.marks.iter().cloned().partition(|m| m == mark);
                (kept, ended)
            }
            MarkEvent::EndCombat => (Vec::new(), self.marks.clone()),
        };
        if kept.len() > MAX_MARKS {
            return Err(Error::request(format!("at most {MAX_MARKS} marks")));
        }
        Ok((
            ended.len() as i64,
            MarksOutcome {
                marks: kept,
                ended,
                placed,
            },
        ))
    }
}
