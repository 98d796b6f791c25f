//! The reducer's state as it is stored on the Combat document (`system.state`), and reading
//! version 1 of that shape (no `v`), which carried up to 100 whole snapshots for undo.
//!
//! The stored JSON is an object of small keys, so the update Foundry sends for an event (it
//! diffs an object field key by key) carries what changed: a turn changes one combatant (a short
//! array, `[id, side, flags, taken, slow, turns]`, see src/combat/fight.rs), a few fields of the
//! fight, and one key of the log.
//!
//! ```json
//! {"v": 3, "round": 2, "partyResolve": 2, "regularSide": "party", "slowSide": "foes",
//!  "lastSide": "foes", "current": {"id": "pc1", "slow": false}, "ended": false,
//!  "combatants": {"0": ["pc1", 0, 1, 1, 0, 1], ...}, "nextNumber": 5,
//!  "log": {"4": "[[1,3,0,1,0],[0,0]]"}, "logged": 42, "forgotten": 40}
//! ```
//!
//! Version 2 stored each combatant as an object of named fields (defaults left out); it is read
//! as it is, and written back as version 3.
//!
//! `current`, `next` and `lastSide` are left out when there is none, `logWeight` and `forgotBy`
//! when they are 0 or none: the text holds no `null`, which the boundary would otherwise take as
//! a cue to walk the whole argument looking for values JSON cannot carry.

use super::fight::{Combatant, Fight, Next, Side, Turn};
use super::log::{Frame, Header, Log, Patch, Step};
use super::{refuse, MAX_COMBATANTS, MAX_HISTORY};
use crate::error::Result;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// The most bytes of JSON a stored state may have, refused by its length before it is parsed (so
/// a state of megabytes costs no parse, and no search for the field at fault). A state this core
/// writes stays far below it: 1,000 combatants with Foundry's 16-character ids are about 40 KB,
/// and the undo log keeps at most [`MAX_HISTORY`] steps holding at most
/// [`super::MAX_HISTORY_COMBATANTS`] combatants' records; with every id at its longest a state is
/// still about 1.2 MB. module/data/combat-rules.mjs refuses a larger one before it writes its text.
pub const MAX_STATE_JSON: usize = 4 << 20;

/// The version of the stored shape this core writes: 3 stores each combatant as an array
/// (src/combat/fight.rs); 2 stored it as an object of named fields, and reads the same otherwise.
pub const STATE_VERSION: u32 = 3;

/// Which limit of the undo log dropped the most recent step it forgot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Limit {
    /// [`MAX_HISTORY`] steps.
    Steps,
    /// [`super::MAX_HISTORY_COMBATANTS`] combatants' records across the steps.
    Combatants,
}

/// The reducer's state: the fight now and the undo log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombatState {
    pub now: Fight,
    /// The last steps, oldest first (at most [`MAX_HISTORY`]); undo stops at the steps it has
    /// forgotten instead of undoing the start.
    pub log: Log,
    /// Why the last forgotten step was dropped (`None` while nothing is forgotten).
    pub forgot_by: Option<Limit>,
}

impl CombatState {
    /// Steps dropped from the log.
    pub fn forgotten(&self) -> u64 {
        self.log.forgotten()
    }
}

impl Serialize for CombatState {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let f = &self.now;
        let mut s = serializer.serialize_struct("CombatState", 16)?;
        s.serialize_field("v", &STATE_VERSION)?;
        s.serialize_field("round", &f.round)?;
        s.serialize_field("partyResolve", &f.party_resolve)?;
        s.serialize_field("regularSide", &f.regular_side)?;
        s.serialize_field("slowSide", &f.slow_side)?;
        if let Some(side) = &f.last_side {
            s.serialize_field("lastSide", side)?;
        }
        if let Some(turn) = &f.current {
            s.serialize_field("current", turn)?;
        }
        if let Some(next) = &f.next {
            s.serialize_field("next", next)?;
        }
        s.serialize_field("ended", &f.ended)?;
        s.serialize_field("combatants", &f.combatants)?;
        s.serialize_field("nextNumber", &f.next_number)?;
        s.serialize_field("log", &self.log)?;
        s.serialize_field("logged", &self.log.logged())?;
        s.serialize_field("forgotten", &self.log.forgotten())?;
        if self.log.weight() > 0 {
            s.serialize_field("logWeight", &self.log.weight())?;
        }
        if let Some(by) = self.forgot_by {
            s.serialize_field("forgotBy", &by)?;
        }
        s.end()
    }
}

/// `combatants` as stored: an object by number, or (version 1) an array.
enum Roster {
    Numbered(BTreeMap<u32, Combatant>),
    Listed(Vec<Combatant>),
}

impl<'de> Deserialize<'de> for Roster {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct RosterVisitor;
        impl<'de> Visitor<'de> for RosterVisitor {
            type Value = Roster;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the combatants, by number")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Roster, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((n, c)) = map.next_entry::<u32, Combatant>()? {
                    if out.len() >= MAX_COMBATANTS {
                        return Err(de::Error::custom(too_many_listed()));
                    }
                    if out.insert(n, c).is_some() {
                        return Err(de::Error::custom(format!(
                            "combatant number {n} is there twice"
                        )));
                    }
                }
                Ok(Roster::Numbered(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Roster, A::Error> {
                let mut out = Vec::new();
                while let Some(c) = seq.next_element::<Combatant>()? {
                    if out.len() >= MAX_COMBATANTS {
                        return Err(de::Error::custom(too_many_listed()));
                    }
                    out.push(c);
                }
                Ok(Roster::Listed(out))
            }
        }
        d.deserialize_any(RosterVisitor)
    }
}

/// The refusal of a combat past [`MAX_COMBATANTS`].
pub fn too_many() -> String {
    format!("a combat has at most {MAX_COMBATANTS} combatants")
}

/// [`too_many`] from the reader of an event's or a state's `combatants` (both at the root), which
/// knows where it is: [`crate::decode`] takes a message that starts with its path as located and
/// does not read a list past the limit again to find the field.
pub fn too_many_listed() -> String {
    format!("`combatants`: {}", too_many())
}

/// A snapshot of a version 1 state's history.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotV1 {
    round: u32,
    combatants: Vec<Combatant>,
    regular_side: Side,
    slow_side: Side,
    current: Option<Turn>,
    last_side: Option<Side>,
    party_resolve: u32,
    ended: bool,
}

/// The stored state as read: the fields of both shapes.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredFields {
    #[serde(default)]
    v: Option<u32>,
    round: u32,
    combatants: Roster,
    regular_side: Side,
    slow_side: Side,
    #[serde(default)]
    current: Option<Turn>,
    #[serde(default)]
    last_side: Option<Side>,
    party_resolve: u32,
    ended: bool,
    /// Display only: recomputed.
    #[serde(default)]
    next: Option<Next>,
    #[serde(default)]
    next_number: Option<u32>,
    #[serde(default)]
    log: Option<BTreeMap<u64, String>>,
    #[serde(default)]
    logged: Option<u64>,
    #[serde(default)]
    log_weight: u64,
    #[serde(default)]
    forgotten: u64,
    #[serde(default)]
    forgot_by: Option<Limit>,
    /// Version 1: the earlier snapshots, oldest first.
    #[serde(default)]
    history: Option<Vec<SnapshotV1>>,
}

impl<'de> Deserialize<'de> for CombatState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let fields = StoredFields::deserialize(d)?;
        CombatState::from_fields(fields).map_err(|e| de::Error::custom(e.message()))
    }
}

impl CombatState {
    /// A state from its stored JSON text, refused by its length (past [`MAX_STATE_JSON`] bytes)
    /// before it is parsed.
    pub fn from_json_text(text: &str) -> Result<Self> {
        crate::decode::from_json_text_within("combat state", text, MAX_STATE_JSON)
    }

    fn from_fields(f: StoredFields) -> Result<Self> {
        match f.v {
            None => return from_v1(f),
            Some(2 | STATE_VERSION) => {}
            Some(v) => {
                return refuse(format!(
                "`v`: version {v} of the combat state is not one this core reads (2, {STATE_VERSION})"
            ))
            }
        }
        let Roster::Numbered(combatants) = f.combatants else {
            return refuse(
                "`combatants`: a version 2 or 3 state has them by number, not as a list",
            );
        };
        let Some(next_number) = f.next_number else {
            return refuse("missing field `nextNumber`");
        };
        let now = Fight {
            round: f.round,
            combatants,
            next_number,
            regular_side: f.regular_side,
            slow_side: f.slow_side,
            current: f.current,
            last_side: f.last_side,
            party_resolve: f.party_resolve,
            ended: f.ended,
            next: f.next,
        };
        let log = Log::stored(
            f.forgotten,
            f.logged.unwrap_or(f.forgotten),
            f.log_weight,
            f.log.unwrap_or_default(),
        );
        Ok(CombatState {
            now,
            log,
            forgot_by: f.forgot_by.filter(|_| f.forgotten > 0),
        })
    }

    /// Whether the state fits together: unique ids, an open turn of someone in the fight,
    /// numbers below `nextNumber`, a log whose pages are the kept steps'. Checked when it is
    /// used rather than when it is read, so the refusal names the field that is wrong.
    pub fn check(&self) -> Result<()> {
        let f = &self.now;
        if f.combatants
            .keys()
            .next_back()
            .is_some_and(|n| *n >= f.next_number)
        {
            return refuse(
                "invalid combat state: `nextNumber`: a combatant has that number or a higher one",
            );
        }
        check_fight(f).map_err(|e| {
            crate::error::Error::request(format!("invalid combat state: {}", e.message()))
        })?;
        self.log.check()
    }
}

/// What every fight satisfies: unique ids, and an open turn that belongs to a combatant.
fn check_fight(f: &Fight) -> Result<()> {
    let mut ids = HashSet::with_capacity(f.combatants.len());
    for c in f.combatants.values() {
        if !ids.insert(c.entry.id.as_str()) {
            return refuse(format!("`combatants`: {} is there twice", c.entry.id));
        }
    }
    if let Some(turn) = &f.current {
        if !ids.contains(turn.id.as_str()) {
            return refuse(format!(
                "`current`: the open turn is {}'s, who is not in the combat",
                turn.id
            ));
        }
    }
    Ok(())
}

/// Reads a state stored in version 1 (no `v`): the fight as it was, its snapshot history
/// turned into undo steps that restore each snapshot exactly, and what it had forgotten.
fn from_v1(f: StoredFields) -> Result<CombatState> {
    let Roster::Listed(listed) = f.combatants else {
        return refuse("missing field `v` (a state with combatants by number is version 2)");
    };
    let history = f.history.unwrap_or_default();
    // numbers in the order of joining: those in the fight now, then those only the history has
    let mut numbers: HashMap<String, u32> = HashMap::new();
    let mut next_number = 0u32;
    let all = listed
        .iter()
        .chain(history.iter().rev().flat_map(|s| s.combatants.iter()));
    for c in all {
        if !numbers.contains_key(&c.entry.id) {
            if numbers.len() >= MAX_COMBATANTS {
                return refuse(too_many());
            }
            numbers.insert(c.entry.id.clone(), next_number);
            next_number += 1;
        }
    }
    let now = SnapshotV1 {
        round: f.round,
        combatants: listed,
        regular_side: f.regular_side,
        slow_side: f.slow_side,
        current: f.current,
        last_side: f.last_side,
        party_resolve: f.party_resolve,
        ended: f.ended,
    };
    let now = fight_v1(now, &numbers, next_number)?;
    let mut fights = Vec::with_capacity(history.len() + 1);
    for s in history {
        fights.push(fight_v1(s, &numbers, next_number)?);
    }
    let kept = fights.len();
    fights.push(now.clone());
    let mut log = Log::new(f.forgotten);
    for pair in fights.windows(2) {
        log.push(Step::Patch(Box::new(patch(&pair[0], &pair[1])?)))?;
    }
    let forgot_by = (f.forgotten > 0).then_some(if kept >= MAX_HISTORY {
        Limit::Steps
    } else {
        Limit::Combatants
    });
    let mut state = CombatState {
        now,
        log,
        forgot_by,
    };
    state.trim()?;
    Ok(state)
}

/// A version 1 snapshot as a fight, its combatants numbered.
fn fight_v1(s: SnapshotV1, numbers: &HashMap<String, u32>, next_number: u32) -> Result<Fight> {
    let mut combatants = BTreeMap::new();
    for c in s.combatants {
        let Some(n) = numbers.get(&c.entry.id) else {
            return refuse(format!("`combatants`: {} has no number", c.entry.id));
        };
        if combatants.insert(*n, c).is_some() {
            return refuse("`combatants`: a combatant is there twice");
        }
    }
    let mut fight = Fight {
        round: s.round,
        combatants,
        next_number,
        regular_side: s.regular_side,
        slow_side: s.slow_side,
        current: s.current,
        last_side: s.last_side,
        party_resolve: s.party_resolve,
        ended: s.ended,
        next: None,
    };
    check_fight(&fight)?;
    fight.refresh();
    Ok(fight)
}

/// The step from one snapshot to the next.
fn patch(before: &Fight, after: &Fight) -> Result<Patch> {
    let (Some(hb), Some(ha)) = (Header::of(before), Header::of(after)) else {
        return refuse("`history`: an open turn belongs to nobody in the combat");
    };
    let mut frames = (Vec::new(), Vec::new());
    let numbers: std::collections::BTreeSet<u32> = before
        .combatants
        .keys()
        .chain(after.combatants.keys())
        .copied()
        .collect();
    for n in numbers {
        let (b, a) = (before.combatants.get(&n), after.combatants.get(&n));
        if b != a {
            frames.0.extend(b.map(|c| (n, c.clone())));
            frames.1.extend(a.map(|c| (n, c.clone())));
        }
    }
    Ok(Patch {
        before: Frame {
            header: hb,
            combatants: frames.0,
        },
        after: Frame {
            header: ha,
            combatants: frames.1,
        },
    })
}
