//! The undo log: one [`Step`] per accepted event, oldest first. A step is the event (its
//! combatant by number) plus what undoing it needs that the fight after it no longer shows (the
//! slot a closed turn passed on, a round's counters, a removed combatant). Undo inverts the last
//! step; replaying the steps' events from the fight before the first one gives the fight now.
//!
//! Steps are written as short JSON arrays of numbers, the step's code first, sides as 0 (party)
//! / 1 (foes) / 2 (none), flags as 0/1, and 0 for "none" elsewhere, so the text holds no `null`
//! and, but where a step names a combatant in full, no quotes (a page is a JSON string, and
//! quotes in it would cost escaping both ways on every event); a hundred steps fit in well under
//! two kilobytes (the encoding is [`super::codec`]). The stored log keeps them in pages of
//! [`LOG_PAGE`] steps, each page the JSON text of its steps in one string, decoded only when an
//! event touches it (see [`Log`], [`super::pages`]):
//!
//! | step | JSON |
//! |---|---|
//! | begin a turn (`fired`: a pending delay fired) | `[0, n]`, `[0, n, 1]` |
//! | end the turn of `n` | `[1, n, slow, slotWas, lastSideWas, reset?]` |
//! | go slow | `[2, n, regularSideWas, reset?]` |
//! | delay | `[3, n, delayWas]` |
//! | add a combatant | `[4, entry]` |
//! | remove | `[5, departure, reset?]` |
//! | set defeated | `[6, n, defeated, defeatedWas, departure \| 0, reset?]` |
//! | adjust party resolve | `[7, by]` |
//! | end the combat | `[8, [n, slow] \| 0, partyResolveWas]` |
//! | a step converted from the old snapshot history | `[9, frameBefore, frameAfter]` |
//!
//! `reset` = `[regularSideWas, slowSideWas, [[n, taken, slow], ...]]` (a round started, see
//! [`Reset`]); `departure` = `[[[n, combatant], ...], closed, [[n, slowWas], ...]]` (combatants
//! that left, the open turn that closed with them as `[n, slow, slotWas, lastSideWas]` or 0,
//! waiting slow turns taken back); `frame` = `[[round, partyResolve, regularSide, slowSide,
//! lastSide, [n, slow] | 0, ended], [[n, combatant], ...]]`.

use super::codec::{Bit, LastBit, SideBit, ZeroOr};
use super::fight::{Combatant, Entry, Fight, Side, Turn};
pub use super::pages::{Log, LOG_PAGE};
use super::round::Reset;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The log does not fit the fight it is stored with (only a hand-edited state can do this).
pub(crate) fn broken<T>(why: impl fmt::Display) -> Result<T> {
    Err(Error::request(format!(
        "cannot undo: the combat's undo log does not match the fight ({why})"
    )))
}

/// One accepted event and what undoing it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Begin {
        n: u32,
        fired: bool,
    },
    End {
        n: u32,
        slow: bool,
        slot_was: Side,
        last_was: Option<Side>,
        reset: Option<Reset>,
    },
    GoSlow {
        n: u32,
        regular_was: Side,
        reset: Option<Reset>,
    },
    Delay {
        n: u32,
        was: bool,
    },
    Add {
        entry: Entry,
    },
    Remove {
        departure: Departure,
        reset: Option<Reset>,
    },
    Defeat {
        n: u32,
        defeated: bool,
        was: bool,
        departure: Option<Departure>,
        reset: Option<Reset>,
    },
    Resolve {
        by: i32,
    },
    EndCombat {
        current: Option<(u32, bool)>,
        resolve_was: u32,
    },
    /// A step of a version 1 state's snapshot history: the fight's fields and the
    /// combatants that differ, before and after.
    Patch(Box<Patch>),
}

/// Combatants leaving the fight (one removed and the summons that go with it, or a defeated
/// summoner's summons), with what their leaving changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "(Vec<(u32, Combatant)>, ZeroOr<Closed>, Vec<(u32, u32)>)",
    into = "(Vec<(u32, Combatant)>, ZeroOr<Closed>, Vec<(u32, u32)>)"
)]
pub struct Departure {
    pub removed: Vec<(u32, Combatant)>,
    /// The open turn, when it was one of theirs.
    pub closed: Option<Closed>,
    /// Waiting slow turns taken back from Legends, `(number, slow before)`.
    pub clamped: Vec<(u32, u32)>,
}

type DepartureTuple = (Vec<(u32, Combatant)>, ZeroOr<Closed>, Vec<(u32, u32)>);

impl From<DepartureTuple> for Departure {
    fn from((removed, closed, clamped): DepartureTuple) -> Self {
        Self {
            removed,
            closed: closed.0,
            clamped,
        }
    }
}

impl From<Departure> for DepartureTuple {
    fn from(d: Departure) -> Self {
        (d.removed, ZeroOr(d.closed), d.clamped)
    }
}

/// The open turn of a combatant that left: `(number, slow, slot before, last side before)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "(u32, Bit, SideBit, LastBit)",
    into = "(u32, Bit, SideBit, LastBit)"
)]
pub struct Closed {
    pub n: u32,
    pub slow: bool,
    pub slot_was: Side,
    pub last_was: Option<Side>,
}

impl From<(u32, Bit, SideBit, LastBit)> for Closed {
    fn from((n, slow, slot, last): (u32, Bit, SideBit, LastBit)) -> Self {
        Self {
            n,
            slow: slow.0,
            slot_was: slot.0,
            last_was: last.0,
        }
    }
}

impl From<Closed> for (u32, Bit, SideBit, LastBit) {
    fn from(c: Closed) -> Self {
        (c.n, Bit(c.slow), SideBit(c.slot_was), LastBit(c.last_was))
    }
}

/// A converted history step: the fight before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub before: Frame,
    pub after: Frame,
}

/// One side of a [`Patch`]: every field of the fight but the combatants, and the combatants
/// that differ from the other side (those missing here are not in the fight on this side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "(Header, Vec<(u32, Combatant)>)",
    into = "(Header, Vec<(u32, Combatant)>)"
)]
pub struct Frame {
    pub header: Header,
    pub combatants: Vec<(u32, Combatant)>,
}

impl From<(Header, Vec<(u32, Combatant)>)> for Frame {
    fn from((header, combatants): (Header, Vec<(u32, Combatant)>)) -> Self {
        Self { header, combatants }
    }
}

impl From<Frame> for (Header, Vec<(u32, Combatant)>) {
    fn from(f: Frame) -> Self {
        (f.header, f.combatants)
    }
}

type HeaderTuple = (u32, u32, SideBit, SideBit, LastBit, ZeroOr<(u32, Bit)>, Bit);

/// The fight's fields but the combatants (the open turn by number).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "HeaderTuple", into = "HeaderTuple")]
pub struct Header {
    pub round: u32,
    pub party_resolve: u32,
    pub regular_side: Side,
    pub slow_side: Side,
    pub last_side: Option<Side>,
    pub current: Option<(u32, bool)>,
    pub ended: bool,
}

impl From<HeaderTuple> for Header {
    fn from((round, party_resolve, regular, slow, last, current, ended): HeaderTuple) -> Self {
        Self {
            round,
            party_resolve,
            regular_side: regular.0,
            slow_side: slow.0,
            last_side: last.0,
            current: current.0.map(|(n, s)| (n, s.0)),
            ended: ended.0,
        }
    }
}

impl From<Header> for HeaderTuple {
    fn from(h: Header) -> Self {
        (
            h.round,
            h.party_resolve,
            SideBit(h.regular_side),
            SideBit(h.slow_side),
            LastBit(h.last_side),
            ZeroOr(h.current.map(|(n, s)| (n, Bit(s)))),
            Bit(h.ended),
        )
    }
}

impl Header {
    /// The fight's fields as a header, or `None` when the open turn's combatant is not in it.
    pub(crate) fn of(f: &Fight) -> Option<Header> {
        let current = match &f.current {
            Some(t) => Some((f.number_of(&t.id).ok()?, t.slow)),
            None => None,
        };
        Some(Header {
            round: f.round,
            party_resolve: f.party_resolve,
            regular_side: f.regular_side,
            slow_side: f.slow_side,
            last_side: f.last_side,
            current,
            ended: f.ended,
        })
    }
}

impl Step {
    /// How many combatants' records the step holds: the undo log keeps at most
    /// [`super::MAX_HISTORY_COMBATANTS`] across its steps.
    pub fn weight(&self) -> usize {
        let reset = |r: &Option<Reset>| r.as_ref().map_or(0, |r| r.odd.len());
        let departure = |d: &Departure| d.removed.len() + d.clamped.len();
        match self {
            Step::End { reset: r, .. } | Step::GoSlow { reset: r, .. } => reset(r),
            Step::Remove {
                departure: d,
                reset: r,
            } => departure(d) + reset(r),
            Step::Defeat {
                departure: d,
                reset: r,
                ..
            } => d.as_ref().map_or(0, departure) + reset(r),
            Step::Patch(p) => p.before.combatants.len() + p.after.combatants.len(),
            _ => 0,
        }
    }

    /// Puts `fight` back as it was before this step (the fight must be as the step left it).
    /// The display fields are refreshed by the caller.
    pub(crate) fn invert(&self, f: &mut Fight) -> Result<()> {
        match self {
            Step::Begin { n, fired } => {
                let Some(turn) = f.current.take() else {
                    return broken("a turn begun is not open");
                };
                let c = combatant(f, *n)?;
                if c.entry.id != turn.id {
                    return broken(format!("the open turn is {}'s, not {n}'s", turn.id));
                }
                c.taken = less(c.taken)?;
                if turn.slow {
                    c.slow = more(c.slow)?;
                    c.delay = *fired;
                } else if *fired {
                    return broken("a delay fired on a regular turn");
                }
            }
            Step::End {
                n,
                slow,
                slot_was,
                last_was,
                reset,
            } => {
                unreset(f, reset)?;
                if f.current.is_some() {
                    return broken("a turn is open after a turn ended");
                }
                let id = combatant(f, *n)?.entry.id.clone();
                f.current = Some(Turn { id, slow: *slow });
                reopen(f, *slow, *slot_was, *last_was);
            }
            Step::GoSlow {
                n,
                regular_was,
                reset,
            } => {
                unreset(f, reset)?;
                f.regular_side = *regular_was;
                let c = combatant(f, *n)?;
                c.slow = less(c.slow)?;
            }
            Step::Delay { n, was } => combatant(f, *n)?.delay = *was,
            Step::Add { entry } => {
                let Some(n) = f.next_number.checked_sub(1) else {
                    return broken("a combatant joined, and none has a number");
                };
                match f.combatants.remove(&n) {
                    Some(c) if c.entry.id == entry.id => f.next_number = n,
                    _ => return broken(format!("{} is not the last to join", entry.id)),
                }
            }
            Step::Remove { departure, reset } => {
                unreset(f, reset)?;
                return_departure(f, departure)?;
            }
            Step::Defeat {
                n,
                was,
                departure,
                reset,
                ..
            } => {
                unreset(f, reset)?;
                if let Some(d) = departure {
                    return_departure(f, d)?;
                }
                combatant(f, *n)?.defeated = *was;
            }
            Step::Resolve { by } => {
                let Ok(before) = u32::try_from(i64::from(f.party_resolve) - i64::from(*by)) else {
                    return broken("party resolve below 0");
                };
                f.party_resolve = before;
            }
            Step::EndCombat {
                current,
                resolve_was,
            } => {
                f.ended = false;
                f.party_resolve = *resolve_was;
                f.current = match current {
                    Some((n, slow)) => Some(Turn {
                        id: combatant(f, *n)?.entry.id.clone(),
                        slow: *slow,
                    }),
                    None => None,
                };
            }
            Step::Patch(p) => p.restore(f, true)?,
        }
        Ok(())
    }
}

impl Patch {
    /// Sets `fight` to this patch's before (`back`) or after side.
    pub(crate) fn restore(&self, f: &mut Fight, back: bool) -> Result<()> {
        let (from, to) = if back {
            (&self.after, &self.before)
        } else {
            (&self.before, &self.after)
        };
        for (n, _) in &from.combatants {
            if f.combatants.remove(n).is_none() {
                return broken(format!(
                    "combatant {n} of a history step is not in the fight"
                ));
            }
        }
        for (n, c) in &to.combatants {
            if f.combatants.insert(*n, c.clone()).is_some() {
                return broken(format!(
                    "combatant {n} of a history step is in the fight twice"
                ));
            }
        }
        let h = &to.header;
        f.current = match h.current {
            Some((n, slow)) => Some(Turn {
                id: combatant(f, n)?.entry.id.clone(),
                slow,
            }),
            None => None,
        };
        f.round = h.round;
        f.party_resolve = h.party_resolve;
        f.regular_side = h.regular_side;
        f.slow_side = h.slow_side;
        f.last_side = h.last_side;
        f.ended = h.ended;
        Ok(())
    }
}

fn combatant(f: &mut Fight, n: u32) -> Result<&mut Combatant> {
    match f.combatants.get_mut(&n) {
        Some(c) => Ok(c),
        None => broken(format!("combatant {n} is not in the fight")),
    }
}

fn less(v: u32) -> Result<u32> {
    v.checked_sub(1)
        .map_or_else(|| broken("a count below 0"), Ok)
}

fn more(v: u32) -> Result<u32> {
    v.checked_add(1)
        .map_or_else(|| broken("a count past its limit"), Ok)
}

fn unreset(f: &mut Fight, reset: &Option<Reset>) -> Result<()> {
    match reset {
        Some(r) => f.unreset(r),
        None => Ok(()),
    }
}

/// The slot and last side as they were before a turn closed.
fn reopen(f: &mut Fight, slow: bool, slot_was: Side, last_was: Option<Side>) {
    if slow {
        f.slow_side = slot_was;
    } else {
        f.regular_side = slot_was;
    }
    f.last_side = last_was;
}

/// Undoes a departure: waiting slow turns back, the open turn reopened, the combatants back.
fn return_departure(f: &mut Fight, d: &Departure) -> Result<()> {
    for &(n, slow) in &d.clamped {
        combatant(f, n)?.slow = slow;
    }
    for (n, c) in &d.removed {
        if *n >= f.next_number || f.combatants.insert(*n, c.clone()).is_some() {
            return broken(format!("combatant {n} left, and its number is taken"));
        }
    }
    if let Some(closed) = &d.closed {
        if f.current.is_some() {
            return broken("a turn is open after the acting combatant left");
        }
        let id = combatant(f, closed.n)?.entry.id.clone();
        f.current = Some(Turn {
            id,
            slow: closed.slow,
        });
        reopen(f, closed.slow, closed.slot_was, closed.last_was);
    }
    Ok(())
}
