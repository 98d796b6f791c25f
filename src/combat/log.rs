//! The undo log: one [`Step`] per accepted event, oldest first. A step is the event (its
//! combatant by number) plus what undoing it needs that the fight after it no longer shows (the
//! slot a closed turn passed on, a round's counters, a removed combatant). Undo inverts the last
//! step; replaying the steps' events from the fight before the first one gives the fight now.
//!
//! Steps are written as short JSON arrays, a one-letter code first, sides as 0 (party) / 1
//! (foes), flags as 0/1, so a hundred of them fit in a couple of kilobytes:
//!
//! | step | JSON |
//! |---|---|
//! | begin a turn (`fired`: a pending delay fired) | `["b", n]`, `["b", n, 1]` |
//! | end the turn of `n` | `["e", n, slow, slotWas, lastSideWas, reset?]` |
//! | go slow | `["s", n, regularSideWas, reset?]` |
//! | delay | `["d", n, delayWas]` |
//! | add a combatant | `["a", entry]` |
//! | remove | `["x", departure, reset?]` |
//! | set defeated | `["k", n, defeated, defeatedWas, departure?, reset?]` |
//! | adjust party resolve | `["r", by]` |
//! | end the combat | `["z", [n, slow] \| null, partyResolveWas]` |
//! | a step converted from the old snapshot history | `["p", frameBefore, frameAfter]` |
//!
//! `reset` = `[regularSideWas, slowSideWas, [[n, taken, slow], ...]]` (a round started, see
//! [`Reset`]); `departure` = `[[[n, combatant], ...], closed, [[n, slowWas], ...]]` (combatants
//! that left, the open turn that closed with them as `[n, slow, slotWas, lastSideWas]` or null,
//! waiting slow turns taken back); `frame` = `[[round, partyResolve, regularSide, slowSide,
//! lastSide, [n, slow] | null, ended], [[n, combatant], ...]]`.

use super::fight::{Combatant, Entry, Fight, Side, Turn};
use super::round::Reset;
use crate::error::{Error, Result};
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
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
    from = "(Vec<(u32, Combatant)>, Option<Closed>, Vec<(u32, u32)>)",
    into = "(Vec<(u32, Combatant)>, Option<Closed>, Vec<(u32, u32)>)"
)]
pub struct Departure {
    pub removed: Vec<(u32, Combatant)>,
    /// The open turn, when it was one of theirs.
    pub closed: Option<Closed>,
    /// Waiting slow turns taken back from Legends, `(number, slow before)`.
    pub clamped: Vec<(u32, u32)>,
}

impl From<(Vec<(u32, Combatant)>, Option<Closed>, Vec<(u32, u32)>)> for Departure {
    fn from(
        (removed, closed, clamped): (Vec<(u32, Combatant)>, Option<Closed>, Vec<(u32, u32)>),
    ) -> Self {
        Self {
            removed,
            closed,
            clamped,
        }
    }
}

impl From<Departure> for (Vec<(u32, Combatant)>, Option<Closed>, Vec<(u32, u32)>) {
    fn from(d: Departure) -> Self {
        (d.removed, d.closed, d.clamped)
    }
}

/// The open turn of a combatant that left: `(number, slow, slot before, last side before)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "(u32, Bit, SideBit, Option<SideBit>)",
    into = "(u32, Bit, SideBit, Option<SideBit>)"
)]
pub struct Closed {
    pub n: u32,
    pub slow: bool,
    pub slot_was: Side,
    pub last_was: Option<Side>,
}

impl From<(u32, Bit, SideBit, Option<SideBit>)> for Closed {
    fn from((n, slow, slot, last): (u32, Bit, SideBit, Option<SideBit>)) -> Self {
        Self {
            n,
            slow: slow.0,
            slot_was: slot.0,
            last_was: last.map(|s| s.0),
        }
    }
}

impl From<Closed> for (u32, Bit, SideBit, Option<SideBit>) {
    fn from(c: Closed) -> Self {
        (
            c.n,
            Bit(c.slow),
            SideBit(c.slot_was),
            c.last_was.map(SideBit),
        )
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

type HeaderTuple = (
    u32,
    u32,
    SideBit,
    SideBit,
    Option<SideBit>,
    Option<(u32, Bit)>,
    Bit,
);

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
            last_side: last.map(|s| s.0),
            current: current.map(|(n, s)| (n, s.0)),
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
            h.last_side.map(SideBit),
            h.current.map(|(n, s)| (n, Bit(s))),
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
                seq.serialize_element("b")?;
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
                seq.serialize_element("e")?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*slow))?;
                seq.serialize_element(&SideBit(*slot_was))?;
                seq.serialize_element(&last_was.map(SideBit))?;
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::GoSlow {
                n,
                regular_was,
                reset,
            } => {
                seq.serialize_element("s")?;
                seq.serialize_element(n)?;
                seq.serialize_element(&SideBit(*regular_was))?;
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::Delay { n, was } => {
                seq.serialize_element("d")?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*was))?;
            }
            Step::Add { entry } => {
                seq.serialize_element("a")?;
                seq.serialize_element(entry)?;
            }
            Step::Remove { departure, reset } => {
                seq.serialize_element("x")?;
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
                seq.serialize_element("k")?;
                seq.serialize_element(n)?;
                seq.serialize_element(&Bit(*defeated))?;
                seq.serialize_element(&Bit(*was))?;
                if departure.is_some() || reset.is_some() {
                    seq.serialize_element(departure)?;
                }
                if let Some(r) = reset {
                    seq.serialize_element(r)?;
                }
            }
            Step::Resolve { by } => {
                seq.serialize_element("r")?;
                seq.serialize_element(by)?;
            }
            Step::EndCombat {
                current,
                resolve_was,
            } => {
                seq.serialize_element("z")?;
                seq.serialize_element(&current.map(|(n, slow)| (n, Bit(slow))))?;
                seq.serialize_element(resolve_was)?;
            }
            Step::Patch(p) => {
                seq.serialize_element("p")?;
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
        f.write_str("an undo step: an array starting with its one-letter code")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Step, A::Error> {
        let code: String = needed(&mut seq, 0, "code")?;
        let step = match code.as_str() {
            "b" => Step::Begin {
                n: needed(&mut seq, 1, "combatant")?,
                fired: seq.next_element::<Bit>()?.is_some_and(|b| b.0),
            },
            "e" => Step::End {
                n: needed(&mut seq, 1, "combatant")?,
                slow: needed::<_, Bit>(&mut seq, 2, "slow flag")?.0,
                slot_was: needed::<_, SideBit>(&mut seq, 3, "slot before")?.0,
                last_was: needed::<_, Option<SideBit>>(&mut seq, 4, "last side before")?
                    .map(|s| s.0),
                reset: seq.next_element()?,
            },
            "s" => Step::GoSlow {
                n: needed(&mut seq, 1, "combatant")?,
                regular_was: needed::<_, SideBit>(&mut seq, 2, "slot before")?.0,
                reset: seq.next_element()?,
            },
            "d" => Step::Delay {
                n: needed(&mut seq, 1, "combatant")?,
                was: needed::<_, Bit>(&mut seq, 2, "delay before")?.0,
            },
            "a" => Step::Add {
                entry: needed(&mut seq, 1, "combatant")?,
            },
            "x" => Step::Remove {
                departure: needed(&mut seq, 1, "departure")?,
                reset: seq.next_element()?,
            },
            "k" => Step::Defeat {
                n: needed(&mut seq, 1, "combatant")?,
                defeated: needed::<_, Bit>(&mut seq, 2, "defeated flag")?.0,
                was: needed::<_, Bit>(&mut seq, 3, "defeated before")?.0,
                departure: seq.next_element::<Option<Departure>>()?.flatten(),
                reset: seq.next_element()?,
            },
            "r" => Step::Resolve {
                by: needed(&mut seq, 1, "resolve change")?,
            },
            "z" => Step::EndCombat {
                current: needed::<_, Option<(u32, Bit)>>(&mut seq, 1, "open turn")?
                    .map(|(n, slow)| (n, slow.0)),
                resolve_was: needed(&mut seq, 2, "party resolve before")?,
            },
            "p" => Step::Patch(Box::new(Patch {
                before: needed(&mut seq, 1, "fight before")?,
                after: needed(&mut seq, 2, "fight after")?,
            })),
            other => {
                return Err(de::Error::custom(format!(
                    "`{other}` is not an undo step code"
                )))
            }
        };
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!(
                "a `{code}` step has more elements than it takes"
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
