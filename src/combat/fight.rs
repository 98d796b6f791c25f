//! The fight as it stands: who is in it, each combatant's turns this round, whose slot it is.
//! The turn-order rules themselves (Rules Reference, Tactical Combat; ICON 1.5 where the
//! reference is silent, see docs/rules.md "Combat") are the methods here.

use super::refuse;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Side {
    Party,
    Foes,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Party => Side::Foes,
            Side::Foes => Side::Party,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Side::Party => "party",
            Side::Foes => "foes",
        }
    }
}

/// Foe templates that change turns per round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Template {
    /// Two turns a round.
    Elite,
    /// One turn per player character in the fight (defeated ones count).
    Legend,
    /// Acts as one foe.
    Mob,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A combatant as `start`/`addCombatant` give it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub side: Side,
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_player_character: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Foes never go slow unless flagged.
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_slow: bool,
    /// The id of the combatant that summoned this one. "Summons do not take turns. [...] Summons
    /// are removed from the battlefield when their summoner is defeated" (glossary, Summon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoner: Option<String>,
}

/// A combatant in the fight, with this round's bookkeeping.
///
/// Stored as a short array (see its `Serialize` impl): a Combat update that changes a counter
/// carries the combatant's array (~30 bytes), and reading and writing a fight handles no keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Combatant {
    pub entry: Entry,
    pub defeated: bool,
    /// Turns taken this round (regular and slow).
    pub taken: u32,
    /// Turns moved to the slow phase and not yet taken.
    pub slow: u32,
    /// A pending delay: the next turn must be slow, and the delay fires when it starts.
    pub delay: bool,
    /// Turns this round (see [`Fight::turns_per_round`]); kept up to date for display.
    pub turns: u32,
}

impl Combatant {
    pub(crate) fn new(entry: Entry) -> Self {
        Self {
            entry,
            defeated: false,
            taken: 0,
            slow: 0,
            delay: false,
            turns: 0,
        }
    }
}

/// A combatant's flags as stored (version 3): bit 0 a player character, 1 may go slow, 2
/// defeated, 3 a pending delay.
mod flag {
    pub const PLAYER_CHARACTER: u8 = 1;
    pub const CAN_SLOW: u8 = 1 << 1;
    pub const DEFEATED: u8 = 1 << 2;
    pub const DELAY: u8 = 1 << 3;
    pub const ALL: u8 = PLAYER_CHARACTER | CAN_SLOW | DEFEATED | DELAY;
}

/// Stored (version 3) as `[id, side, flags, taken, slow, turns]`, then the template (or 0) and
/// the summoner when either is there: no keys to write or read, which made the combatants most
/// of a combat event's work (side as in the log, 0 party / 1 foes; flags in [`flag`]).
impl Serialize for Combatant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use super::codec::{SideBit, ZeroOr};
        use serde::ser::SerializeTuple;
        let e = &self.entry;
        let bit = |on: bool, bit: u8| if on { bit } else { 0 };
        let flags = bit(e.is_player_character, flag::PLAYER_CHARACTER)
            | bit(e.can_slow, flag::CAN_SLOW)
            | bit(self.defeated, flag::DEFEATED)
            | bit(self.delay, flag::DELAY);
        let len = match (&e.template, &e.summoner) {
            (_, Some(_)) => 8,
            (Some(_), None) => 7,
            (None, None) => 6,
        };
        let mut s = serializer.serialize_tuple(len)?;
        s.serialize_element(&e.id)?;
        s.serialize_element(&SideBit(e.side))?;
        s.serialize_element(&flags)?;
        s.serialize_element(&self.taken)?;
        s.serialize_element(&self.slow)?;
        s.serialize_element(&self.turns)?;
        if len > 6 {
            s.serialize_element(&ZeroOr(e.template))?;
        }
        if let Some(by) = &e.summoner {
            s.serialize_element(by)?;
        }
        s.end()
    }
}

/// Read as stored since version 3 (an array, see the `Serialize` impl) or before it (an object of
/// named fields, [`CombatantFields`]); the log's pages hold either.
impl<'de> Deserialize<'de> for Combatant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use super::codec::{SideBit, ZeroOr};
        use serde::de::{self, MapAccess, SeqAccess, Visitor};
        struct CombatantVisitor;
        impl<'de> Visitor<'de> for CombatantVisitor {
            type Value = Combatant;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a combatant")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Combatant, A::Error> {
                CombatantFields::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(Combatant::from)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Combatant, A::Error> {
                let missing = |i| de::Error::invalid_length(i, &"6 to 8 elements");
                let id: String = seq.next_element()?.ok_or_else(|| missing(0))?;
                let side: SideBit = seq.next_element()?.ok_or_else(|| missing(1))?;
                let flags: u8 = seq.next_element()?.ok_or_else(|| missing(2))?;
                if flags & !flag::ALL != 0 {
                    return Err(de::Error::custom(format!(
                        "a combatant's flags are 0 to {}, not {flags}",
                        flag::ALL
                    )));
                }
                let taken: u32 = seq.next_element()?.ok_or_else(|| missing(3))?;
                let slow: u32 = seq.next_element()?.ok_or_else(|| missing(4))?;
                let turns: u32 = seq.next_element()?.ok_or_else(|| missing(5))?;
                let template: Option<ZeroOr<Template>> = seq.next_element()?;
                let summoner: Option<String> = seq.next_element()?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(9, &"6 to 8 elements"));
                }
                Ok(Combatant {
                    entry: Entry {
                        id,
                        side: side.0,
                        is_player_character: flags & flag::PLAYER_CHARACTER != 0,
                        template: template.and_then(|t| t.0),
                        can_slow: flags & flag::CAN_SLOW != 0,
                        summoner,
                    },
                    defeated: flags & flag::DEFEATED != 0,
                    taken,
                    slow,
                    delay: flags & flag::DELAY != 0,
                    turns,
                })
            }
        }
        d.deserialize_any(CombatantVisitor)
    }
}

/// [`Combatant`] as it is read: the same JSON, its fields listed flat (`flatten` would buffer
/// every object first). Every field but `id` and `side` may be missing; version 1 of the stored
/// shape wrote them all, so it reads the same way.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CombatantFields {
    id: String,
    side: Side,
    #[serde(default)]
    is_player_character: bool,
    #[serde(default)]
    template: Option<Template>,
    #[serde(default)]
    can_slow: bool,
    #[serde(default)]
    summoner: Option<String>,
    #[serde(default)]
    defeated: bool,
    #[serde(default)]
    taken: u32,
    #[serde(default)]
    slow: u32,
    #[serde(default)]
    delay: bool,
    #[serde(default)]
    turns: u32,
}

impl From<CombatantFields> for Combatant {
    fn from(f: CombatantFields) -> Self {
        Self {
            entry: Entry {
                id: f.id,
                side: f.side,
                is_player_character: f.is_player_character,
                template: f.template,
                can_slow: f.can_slow,
                summoner: f.summoner,
            },
            defeated: f.defeated,
            taken: f.taken,
            slow: f.slow,
            delay: f.delay,
            turns: f.turns,
        }
    }
}

/// Which part of the round it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    Regular,
    Slow,
}

/// Who acts next: the phase of the round and the side whose slot it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Next {
    pub phase: Phase,
    pub side: Side,
}

/// The open turn.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    pub id: String,
    pub slow: bool,
}

/// The fight now: everything but the undo log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fight {
    pub round: u32,
    /// The combatants by number: each gets the next number when it joins and keeps it, so the
    /// undo log names a combatant in a few digits, and the numbers give the order of joining.
    pub combatants: BTreeMap<u32, Combatant>,
    /// The number the next combatant to join gets.
    pub next_number: u32,
    /// The side whose slot it is in the regular phase.
    pub regular_side: Side,
    /// The side whose slot it is in the slow phase.
    pub slow_side: Side,
    pub current: Option<Turn>,
    /// The side that took the last turn (the next round starts with the other).
    pub last_side: Option<Side>,
    pub party_resolve: u32,
    pub ended: bool,
    /// [`Fight::next`] as of this state (`None` while a turn is open, after the end, or when
    /// nobody has turns left); kept up to date for display.
    pub next: Option<Next>,
}

/// Turns per round of `c` in a fight with `pcs` player characters: a summon none ("Summons do
/// not take turns"), an Elite 2, a Legend one per player character (at least 1), others 1.
pub(crate) fn turns_for(c: &Combatant, pcs: u32) -> u32 {
    if c.entry.summoner.is_some() {
        return 0;
    }
    match c.entry.template {
        Some(Template::Elite) => 2,
        Some(Template::Legend) => pcs.max(1),
        _ => 1,
    }
}

impl Fight {
    /// An empty fight before round 1.
    pub(crate) fn empty() -> Self {
        Self {
            round: 0,
            combatants: BTreeMap::new(),
            next_number: 0,
            regular_side: Side::Party,
            slow_side: Side::Party,
            current: None,
            last_side: None,
            party_resolve: 0,
            ended: false,
            next: None,
        }
    }

    pub(crate) fn player_characters(&self) -> u32 {
        self.combatants
            .values()
            .filter(|c| c.entry.is_player_character)
            .count() as u32
    }

    /// Turns per round of `c` (see [`turns_for`]).
    pub fn turns_per_round(&self, c: &Combatant) -> u32 {
        turns_for(c, self.player_characters())
    }

    /// Regular turns a combatant still has this round.
    pub fn regular_left(&self, c: &Combatant) -> u32 {
        regular_left(c, self.turns_per_round(c))
    }

    /// Who acts next: the phase and the side, or `None` when the round is over. Regular turns
    /// alternate sides, and a side with none left passes to the other; then the slow turns, in
    /// the same alternation.
    pub fn next(&self) -> Option<(Phase, Side)> {
        let pcs = self.player_characters();
        let (mut regular, mut slow) = ([false; 2], [false; 2]);
        for c in self.combatants.values() {
            let i = c.entry.side as usize;
            regular[i] |= regular_left(c, turns_for(c, pcs)) > 0;
            slow[i] |= !c.defeated && c.slow > 0;
        }
        let pick = |preferred: Side, has: [bool; 2]| {
            [preferred, preferred.other()]
                .into_iter()
                .find(|s| has[*s as usize])
        };
        if let Some(side) = pick(self.regular_side, regular) {
            return Some((Phase::Regular, side));
        }
        pick(self.slow_side, slow).map(|side| (Phase::Slow, side))
    }

    /// The number of the combatant `id`.
    pub fn number_of(&self, id: &str) -> Result<u32> {
        match self.combatants.iter().find(|(_, c)| c.entry.id == id) {
            Some((n, _)) => Ok(*n),
            None => refuse(format!("there is no combatant {id} in this combat")),
        }
    }

    /// The combatant `id`.
    pub fn get(&self, id: &str) -> Option<&Combatant> {
        self.combatants.values().find(|c| c.entry.id == id)
    }

    /// Brings the display fields (`next`, each combatant's `turns`) up to date after any change,
    /// and returns the waiting slow turns it had to take back, as `(number, slow before)`: a
    /// Legend loses a turn when a player character leaves, and a waiting slow turn goes first.
    pub(crate) fn refresh(&mut self) -> Vec<(u32, u32)> {
        let pcs = self.player_characters();
        let mut clamped = Vec::new();
        for (n, c) in self.combatants.iter_mut() {
            let t = turns_for(c, pcs);
            c.turns = t;
            let most = t.saturating_sub(c.taken);
            if c.slow > most {
                clamped.push((*n, c.slow));
                c.slow = most;
            }
        }
        self.next = if self.current.is_some() || self.ended {
            None
        } else {
            self.next().map(|(phase, side)| Next { phase, side })
        };
        clamped
    }

    /// Ends the open turn: the other side gets the slot of the phase the turn was taken in.
    /// Returns the slot's side before, for undo.
    pub(crate) fn close_turn(&mut self, slow: bool, side: Side) -> Side {
        let slot = if slow {
            &mut self.slow_side
        } else {
            &mut self.regular_side
        };
        let was = *slot;
        *slot = side.other();
        self.last_side = Some(side);
        was
    }
}

impl Fight {
    /// Whether the fight is whole: what every event keeps true of it, relations between
    /// combatants included, so a stored state that is not (hand-edited, or cut short) is refused
    /// before any event works on it. Each combatant is a valid entry (see `start`); a summon's
    /// summoner is another combatant in the fight, standing (a defeated summoner's summons have
    /// left), and no chain of summoners comes back to where it started; nobody has more slow
    /// turns waiting than turns left; the open turn is a combatant's that takes turns, and an
    /// ended combat has none; the fight is in round 1 or later.
    pub fn validate(&self) -> Result<()> {
        if self.round == 0 {
            return refuse("`round`: a started combat is in round 1 or later");
        }
        let by_id: std::collections::HashMap<&str, &Combatant> = self
            .combatants
            .values()
            .map(|c| (c.entry.id.as_str(), c))
            .collect();
        let pcs = self.player_characters();
        for c in self.combatants.values() {
            super::check_entry(&c.entry).map_err(|e| {
                crate::error::Error::request(format!("`combatants`: {}", e.message()))
            })?;
            let id = &c.entry.id;
            if let Some(by) = &c.entry.summoner {
                match by_id.get(by.as_str()) {
                    None => {
                        return refuse(format!(
                            "`combatants`: {id}'s summoner {by} is not in the combat"
                        ))
                    }
                    Some(s) if s.entry.id == *id => {
                        return refuse(format!("`combatants`: {id} is its own summoner"))
                    }
                    Some(s) if s.defeated => {
                        return refuse(format!(
                        "`combatants`: {id}'s summoner {by} is defeated, and its summons have left"
                    ))
                    }
                    Some(_) => {}
                }
                // a chain of summoners is at most as long as the roster
                let mut at = by.as_str();
                let mut steps = 0usize;
                while let Some(next) = by_id.get(at).and_then(|s| s.entry.summoner.as_deref()) {
                    steps += 1;
                    if next == id || steps > by_id.len() {
                        return refuse(format!("`combatants`: {id}'s summoners come back to it"));
                    }
                    at = next;
                }
            }
            let turns = turns_for(c, pcs);
            if c.slow > turns.saturating_sub(c.taken) {
                return refuse(format!(
                    "`combatants`: {id} has {} slow turns waiting and {} turns a round, {} of them taken",
                    c.slow, turns, c.taken
                ));
            }
        }
        if let Some(turn) = &self.current {
            if self.ended {
                return refuse("`current`: an ended combat has no open turn");
            }
            if by_id
                .get(turn.id.as_str())
                .is_some_and(|c| c.entry.summoner.is_some())
            {
                return refuse(format!(
                    "`current`: the open turn is {}'s, a summon, and summons take no turns",
                    turn.id
                ));
            }
        }
        Ok(())
    }

    /// What differs from the fight exactly as `start` leaves it (round 1, party resolve 1, the
    /// party's slot, no turn open or taken, no slow turn, delay or defeat, not ended), named for
    /// a refusal; `None` when nothing does.
    pub fn moved_since_start(&self) -> Option<String> {
        if self.ended {
            return Some("the combat has ended".into());
        }
        if self.round != 1 {
            return Some(format!("it is round {}", self.round));
        }
        if let Some(turn) = &self.current {
            return Some(format!("{}'s turn is open", turn.id));
        }
        if self.party_resolve != 1 {
            return Some(format!("party resolve is {}, not 1", self.party_resolve));
        }
        if self.last_side.is_some()
            || self.regular_side != Side::Party
            || self.slow_side != Side::Party
        {
            return Some("turns have been taken".into());
        }
        for c in self.combatants.values() {
            let id = &c.entry.id;
            if c.taken > 0 {
                return Some(format!("{id} has taken a turn"));
            }
            if c.slow > 0 {
                return Some(format!("{id} has a slow turn waiting"));
            }
            if c.delay {
                return Some(format!("{id} has a pending delay"));
            }
            if c.defeated {
                return Some(format!("{id} is defeated"));
            }
        }
        None
    }
}

/// Regular turns `c` has left this round of its `turns` a round.
pub fn regular_left(c: &Combatant, turns: u32) -> u32 {
    if c.defeated {
        return 0;
    }
    turns.saturating_sub(c.taken.saturating_add(c.slow))
}
