//! How the undo log's steps are written: short JSON arrays of numbers (the table is in
//! [`super::log`]), sides and flags as small numbers, 0 for "none", so a page of steps holds
//! neither `null` nor, but where a step names a combatant in full, a quote. Flags, sides and a
//! round's reset are derived through their number or tuple; a step is written by hand, since its
//! last elements are left out when there is nothing in them.

use super::fight::Side;
use super::log::{Departure, Patch, Step};
use super::round::Reset;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A flag as 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Bit(pub bool);

impl From<Bit> for u8 {
    fn from(b: Bit) -> u8 {
        u8::from(b.0)
    }
}

impl TryFrom<u8> for Bit {
    type Error = String;
    fn try_from(n: u8) -> std::result::Result<Self, String> {
        match n {
            0 | 1 => Ok(Bit(n == 1)),
            other => Err(format!("a flag is 0 or 1, not {other}")),
        }
    }
}

/// A side as 0 (party) or 1 (foes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct SideBit(pub Side);

impl From<SideBit> for u8 {
    fn from(s: SideBit) -> u8 {
        s.0 as u8
    }
}

impl TryFrom<u8> for SideBit {
    type Error = String;
    fn try_from(n: u8) -> std::result::Result<Self, String> {
        match n {
            0 => Ok(SideBit(Side::Party)),
            1 => Ok(SideBit(Side::Foes)),
            other => Err(format!("a side is 0 (party) or 1 (foes), not {other}")),
        }
    }
}

/// A side or none: 0 (party), 1 (foes), 2 (none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct LastBit(pub Option<Side>);

impl From<LastBit> for u8 {
    fn from(s: LastBit) -> u8 {
        s.0.map_or(2, |side| side as u8)
    }
}

impl TryFrom<u8> for LastBit {
    type Error = String;
    fn try_from(n: u8) -> std::result::Result<Self, String> {
        match n {
            0 => Ok(LastBit(Some(Side::Party))),
            1 => Ok(LastBit(Some(Side::Foes))),
            2 => Ok(LastBit(None)),
            other => Err(format!(
                "a side is 0 (party), 1 (foes) or 2 (none), not {other}"
            )),
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

impl<'de, T: de::DeserializeOwned> Deserialize<'de> for ZeroOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) if n.as_u64() == Some(0) => Ok(ZeroOr(None)),
            serde_json::Value::Number(n) if n.is_u64() => {
                Err(de::Error::custom(format!("0 or a value, not {n}")))
            }
            v => crate::decode::read::<T>(&v)
                .map(|v| ZeroOr(Some(v)))
                .map_err(de::Error::custom),
        }
    }
}

/// A [`Reset`] as stored: `[regular side before, slow side before, [[number, taken, slow], ...]]`.
pub(crate) type ResetTuple = (SideBit, SideBit, Vec<(u32, u32, u32)>);

impl From<Reset> for ResetTuple {
    fn from(r: Reset) -> Self {
        (SideBit(r.regular_was), SideBit(r.slow_was), r.odd)
    }
}

impl From<ResetTuple> for Reset {
    fn from((regular, slow, odd): ResetTuple) -> Self {
        Reset {
            regular_was: regular.0,
            slow_was: slow.0,
            odd,
        }
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
