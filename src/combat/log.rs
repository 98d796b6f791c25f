//! The undo log: one [`Step`] per accepted event, oldest first. A step is the event (its
//! combatant by number) plus what undoing it needs that the fight after it no longer shows (the
//! slot a closed turn passed on, a round's counters, a removed combatant). Undo inverts the last
//! step; replaying the steps' events from the fight before the first one gives the fight now.
//!
//! Steps are written as short JSON arrays of numbers, the step's code first, sides as 0 (party)
//! / 1 (foes) / 2 (none), flags as 0/1, and 0 for "none" elsewhere, so the text holds no `null`
//! and, but where a step names a combatant in full, no quotes (a page is a JSON string, and
//! quotes in it would cost escaping both ways on every event); a hundred steps fit in well under
//! two kilobytes. The stored log keeps them in pages of
//! [`LOG_PAGE`] steps, each page the JSON text of its steps in one string, decoded only when an
//! event touches it (see [`Log`]):
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

use super::fight::{Combatant, Entry, Fight, Side, Turn};
use super::round::Reset;
use crate::error::{Error, Result};
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
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
    /// A step of the snapshot history from before issue 18: the fight's fields and the
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

/// A flag as 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bit(pub bool);

impl Serialize for Bit {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_u8(u8::from(self.0))
    }
}

impl<'de> Deserialize<'de> for Bit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(Bit(false)),
            1 => Ok(Bit(true)),
            other => Err(de::Error::custom(format!("a flag is 0 or 1, not {other}"))),
        }
    }
}

/// A side as 0 (party) or 1 (foes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideBit(pub Side);

impl Serialize for SideBit {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_u8(self.0 as u8)
    }
}

impl<'de> Deserialize<'de> for SideBit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(SideBit(Side::Party)),
            1 => Ok(SideBit(Side::Foes)),
            other => Err(de::Error::custom(format!(
                "a side is 0 (party) or 1 (foes), not {other}"
            ))),
        }
    }
}

/// A side or none: 0 (party), 1 (foes), 2 (none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastBit(pub Option<Side>);

impl Serialize for LastBit {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_u8(self.0.map_or(2, |side| side as u8))
    }
}

impl<'de> Deserialize<'de> for LastBit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(LastBit(Some(Side::Party))),
            1 => Ok(LastBit(Some(Side::Foes))),
            2 => Ok(LastBit(None)),
            other => Err(de::Error::custom(format!(
                "a side is 0 (party), 1 (foes) or 2 (none), not {other}"
            ))),
        }
    }
}

/// An optional value written as 0 when there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZeroOr<T>(pub Option<T>);

impl<T: Serialize> Serialize for ZeroOr<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match &self.0 {
            Some(v) => v.serialize(s),
            None => s.serialize_u8(0),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ZeroOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either<T> {
            Zero(u8),
            Some(T),
        }
        match Either::<T>::deserialize(d)? {
            Either::Zero(0) => Ok(ZeroOr(None)),
            Either::Zero(other) => Err(de::Error::custom(format!("0 or a value, not {other}"))),
            Either::Some(v) => Ok(ZeroOr(Some(v))),
        }
    }
}

type ResetTuple = (SideBit, SideBit, Vec<(u32, u32, u32)>);

impl Serialize for Reset {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        (SideBit(self.regular_was), SideBit(self.slow_was), &self.odd).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Reset {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let (regular, slow, odd) = ResetTuple::deserialize(d)?;
        Ok(Reset {
            regular_was: regular.0,
            slow_was: slow.0,
            odd,
        })
    }
}

impl Serialize for Step {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        match self {
            Step::Begin { n, fired } => {
                seq.serialize_element(&0u8)?;
                seq.serialize_element(n)?;
                if *fired {
                    seq.serialize_element(&Bit(true))?;
                }
            }
            Step::End {
                n,
                slow,
                slot_was,
                last_was,
                reset,
            } => {
                seq.serialize_element(&1u8)?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*slow))?;
                seq.serialize_element(&SideBit(*slot_was))?;
                seq.serialize_element(&LastBit(*last_was))?;
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::GoSlow {
                n,
                regular_was,
                reset,
            } => {
                seq.serialize_element(&2u8)?;
                seq.serialize_element(n)?;
                seq.serialize_element(&SideBit(*regular_was))?;
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::Delay { n, was } => {
                seq.serialize_element(&3u8)?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*was))?;
            }
            Step::Add { entry } => {
                seq.serialize_element(&4u8)?;
                seq.serialize_element(entry)?;
            }
            Step::Remove { departure, reset } => {
                seq.serialize_element(&5u8)?;
                seq.serialize_element(departure)?;
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::Defeat {
                n,
                defeated,
                was,
                departure,
                reset,
            } => {
                seq.serialize_element(&6u8)?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*defeated))?;
                seq.serialize_element(&Bit(*was))?;
                if departure.is_some() || reset.is_some() {
                    seq.serialize_element(&ZeroOr(departure.clone()))?;
                }
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::Resolve { by } => {
                seq.serialize_element(&7u8)?;
                seq.serialize_element(by)?;
            }
            Step::EndCombat {
                current,
                resolve_was,
            } => {
                seq.serialize_element(&8u8)?;
                seq.serialize_element(&ZeroOr(current.map(|(n, slow)| (n, Bit(slow)))))?;
                seq.serialize_element(resolve_was)?;
            }
            Step::Patch(p) => {
                seq.serialize_element(&9u8)?;
                seq.serialize_element(&p.before)?;
                seq.serialize_element(&p.after)?;
            }
        }
        seq.end()
    }
}

/// The next element of a step, which must be there.
fn needed<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(
    seq: &mut A,
    at: usize,
    what: &str,
) -> std::result::Result<T, A::Error> {
    seq.next_element()?
        .ok_or_else(|| de::Error::custom(format!("a step is missing its {what} (element {at})")))
}

struct StepVisitor;

impl<'de> Visitor<'de> for StepVisitor {
    type Value = Step;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an undo step: an array starting with its code")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Step, A::Error> {
        let code: u8 = needed(&mut seq, 0, "code")?;
        let step = match code {
            0 => Step::Begin {
                n: needed(&mut seq, 1, "combatant")?,
                fired: seq.next_element::<Bit>()?.is_some_and(|b| b.0),
            },
            1 => Step::End {
                n: needed(&mut seq, 1, "combatant")?,
                slow: needed::<_, Bit>(&mut seq, 2, "slow flag")?.0,
                slot_was: needed::<_, SideBit>(&mut seq, 3, "slot before")?.0,
                last_was: needed::<_, LastBit>(&mut seq, 4, "last side before")?.0,
                reset: seq.next_element()?,
            },
            2 => Step::GoSlow {
                n: needed(&mut seq, 1, "combatant")?,
                regular_was: needed::<_, SideBit>(&mut seq, 2, "slot before")?.0,
                reset: seq.next_element()?,
            },
            3 => Step::Delay {
                n: needed(&mut seq, 1, "combatant")?,
                was: needed::<_, Bit>(&mut seq, 2, "delay before")?.0,
            },
            4 => Step::Add {
                entry: needed(&mut seq, 1, "combatant")?,
            },
            5 => Step::Remove {
                departure: needed(&mut seq, 1, "departure")?,
                reset: seq.next_element()?,
            },
            6 => Step::Defeat {
                n: needed(&mut seq, 1, "combatant")?,
                defeated: needed::<_, Bit>(&mut seq, 2, "defeated flag")?.0,
                was: needed::<_, Bit>(&mut seq, 3, "defeated before")?.0,
                departure: seq.next_element::<ZeroOr<Departure>>()?.and_then(|d| d.0),
                reset: seq.next_element()?,
            },
            7 => Step::Resolve {
                by: needed(&mut seq, 1, "resolve change")?,
            },
            8 => Step::EndCombat {
                current: needed::<_, ZeroOr<(u32, Bit)>>(&mut seq, 1, "open turn")?
                    .0
                    .map(|(n, slow)| (n, slow.0)),
                resolve_was: needed(&mut seq, 2, "party resolve before")?,
            },
            9 => Step::Patch(Box::new(Patch {
                before: needed(&mut seq, 1, "fight before")?,
                after: needed(&mut seq, 2, "fight after")?,
            })),
            other => {
                return Err(de::Error::custom(format!(
                    "{other} is not an undo step code (0 to 9)"
                )))
            }
        };
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!(
                "a step of code {code} has more elements than it takes"
            )));
        }
        Ok(step)
    }
}

impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_seq(StepVisitor)
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

/// Steps per page of the stored log.
pub const LOG_PAGE: u64 = 10;

/// Step numbers stay JS-safe integers.
const MAX_STEP_NUMBER: u64 = (1 << 53) - 1;

/// The undo log: the last steps, oldest first, numbered from `forgotten + 1`.
///
/// Stored as pages of [`LOG_PAGE`] steps by page number (`(step number - 1) / LOG_PAGE`), each
/// the JSON text of its steps in one string. A page is decoded only when an event touches it (the
/// newest to add a step or undo one, the oldest to forget one), so an event reads and writes a
/// couple of pages however many steps the log holds, and a Combat update carries at most two.
#[derive(Debug, Clone, Default)]
pub struct Log {
    forgotten: u64,
    len: u64,
    /// The sum of the kept steps' [`Step::weight`].
    weight: u64,
    pages: BTreeMap<u64, Page>,
    /// What does not fit together in the log as stored (see [`Log::check`]).
    issue: Option<String>,
}

#[derive(Debug, Clone)]
enum Page {
    /// As stored: the JSON text of the page's steps.
    Text(String),
    Steps(Vec<Step>),
}

impl PartialEq for Log {
    fn eq(&self, other: &Self) -> bool {
        (self.forgotten, self.len, self.weight) == (other.forgotten, other.len, other.weight)
            && matches!((self.steps(), other.steps()), (Ok(a), Ok(b)) if a == b)
    }
}

impl Eq for Log {}

impl Log {
    /// An empty log after `forgotten` steps.
    pub fn new(forgotten: u64) -> Self {
        Self {
            forgotten,
            ..Self::default()
        }
    }

    /// A log as stored. Whether its pages are exactly those of steps `forgotten + 1 ..= logged`
    /// is [`Log::check`]ed when the state is used.
    pub(crate) fn stored(
        forgotten: u64,
        logged: u64,
        weight: u64,
        pages: BTreeMap<u64, String>,
    ) -> Self {
        let len = logged.saturating_sub(forgotten);
        // only a log of at most MAX_HISTORY steps has its pages listed (never a huge range)
        let expected: Vec<u64> = if len == 0 || len > super::MAX_HISTORY as u64 {
            Vec::new()
        } else {
            (forgotten / LOG_PAGE..=(logged - 1) / LOG_PAGE).collect()
        };
        let issue = if logged < forgotten {
            Some("`logged`: it is below `forgotten`".to_string())
        } else if logged > MAX_STEP_NUMBER {
            Some(format!(
                "`logged`: steps are numbered up to {MAX_STEP_NUMBER}"
            ))
        } else if len > super::MAX_HISTORY as u64 {
            Some(format!(
                "`log`: it keeps at most {} steps, not {len}",
                super::MAX_HISTORY
            ))
        } else if !pages.keys().copied().eq(expected.iter().copied()) {
            Some(format!(
                "`log`: steps {} to {logged} are kept, on pages {expected:?}",
                forgotten + 1
            ))
        } else {
            None
        };
        Self {
            forgotten,
            len,
            weight,
            pages: pages.into_iter().map(|(k, t)| (k, Page::Text(t))).collect(),
            issue,
        }
    }

    /// Whether the log as stored fits together.
    pub(crate) fn check(&self) -> Result<()> {
        match &self.issue {
            Some(why) => Err(Error::request(format!("invalid combat state: {why}"))),
            None => Ok(()),
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Steps dropped before the first kept one.
    pub fn forgotten(&self) -> u64 {
        self.forgotten
    }

    /// The number of the newest step (`forgotten` + the steps kept).
    pub fn logged(&self) -> u64 {
        self.forgotten.saturating_add(self.len)
    }

    /// The combatants' records the kept steps hold (see [`Step::weight`]).
    pub fn weight(&self) -> u64 {
        self.weight
    }

    /// Every kept step, oldest first (decodes every page).
    pub fn steps(&self) -> Result<Vec<Step>> {
        let mut out = Vec::with_capacity(self.len());
        for (k, page) in &self.pages {
            match page {
                Page::Steps(steps) => out.extend(steps.iter().cloned()),
                Page::Text(text) => out.extend(self.decode(*k, text)?),
            }
        }
        Ok(out)
    }

    /// How many kept steps page `k` holds.
    fn count(&self, k: u64) -> u64 {
        let lo =
            (self.forgotten.saturating_add(1)).max(k.saturating_mul(LOG_PAGE).saturating_add(1));
        let hi = self
            .logged()
            .min(k.saturating_add(1).saturating_mul(LOG_PAGE));
        hi.saturating_add(1).saturating_sub(lo)
    }

    fn decode(&self, k: u64, text: &str) -> Result<Vec<Step>> {
        let steps: Vec<Step> = match serde_json::from_str(text) {
            Ok(s) => s,
            Err(e) => return broken(format!("page {k} of the log: {e}")),
        };
        if steps.len() as u64 != self.count(k) {
            return broken(format!(
                "page {k} of the log holds {} steps, not {}",
                steps.len(),
                self.count(k)
            ));
        }
        Ok(steps)
    }

    /// Page `k`, decoded.
    fn page(&mut self, k: u64) -> Result<&mut Vec<Step>> {
        if let Some(Page::Text(text)) = self.pages.get(&k) {
            let steps = self.decode(k, text)?;
            self.pages.insert(k, Page::Steps(steps));
        }
        match self.pages.entry(k).or_insert(Page::Steps(Vec::new())) {
            Page::Steps(steps) => Ok(steps),
            Page::Text(_) => broken("a page of the log was not decoded"),
        }
    }

    /// Adds the newest step.
    pub(crate) fn push(&mut self, step: Step) -> Result<()> {
        let weight = step.weight() as u64;
        let k = self.logged() / LOG_PAGE;
        self.page(k)?.push(step);
        self.len += 1;
        self.weight = self.weight.saturating_add(weight);
        Ok(())
    }

    /// Takes the newest step off.
    pub(crate) fn pop(&mut self) -> Result<Option<Step>> {
        if self.len == 0 {
            return Ok(None);
        }
        let k = (self.logged() - 1) / LOG_PAGE;
        let page = self.page(k)?;
        let step = page.pop();
        if page.is_empty() {
            self.pages.remove(&k);
        }
        let Some(step) = step else {
            return broken(format!("page {k} of the log is empty"));
        };
        self.len -= 1;
        self.weight = self.weight.saturating_sub(step.weight() as u64);
        Ok(Some(step))
    }

    /// Forgets the oldest step.
    pub(crate) fn drop_oldest(&mut self) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        let k = self.forgotten / LOG_PAGE;
        let page = self.page(k)?;
        if page.is_empty() {
            return broken(format!("page {k} of the log is empty"));
        }
        let step = page.remove(0);
        if page.is_empty() {
            self.pages.remove(&k);
        }
        self.forgotten = self.forgotten.saturating_add(1);
        self.len -= 1;
        self.weight = self.weight.saturating_sub(step.weight() as u64);
        Ok(())
    }
}

impl Serialize for Log {
    /// The pages, by page number: each the JSON text of its steps.
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeMap};
        let mut map = s.serialize_map(Some(self.pages.len()))?;
        for (k, page) in &self.pages {
            match page {
                Page::Text(text) => map.serialize_entry(k, text)?,
                Page::Steps(steps) => {
                    let text = serde_json::to_string(steps).map_err(S::Error::custom)?;
                    map.serialize_entry(k, &text)?;
                }
            }
        }
        map.end()
    }
}
