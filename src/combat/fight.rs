//! The fight as it stands: who is in it, each combatant's turns this round, whose slot it is.
//! The turn-order rules themselves (Rules Reference, Tactical Combat; ICON 1.5 where the
//! reference is silent, see docs/rules.md "Combat") are the methods here.

use super::refuse;
use crate::error::Result;
use serde::ser::SerializeStruct;
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
/// As JSON its entry's fields and the counters sit side by side, and every field at its default
/// (`false`, `0`, `null`) is left out, so a stored fight stays small and a Combat update that
/// changes one counter carries one key.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "CombatantFields")]
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

impl Serialize for Combatant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let e = &self.entry;
        let mut s = serializer.serialize_struct("Combatant", 11)?;
        s.serialize_field("id", &e.id)?;
        s.serialize_field("side", &e.side)?;
        if e.is_player_character {
            s.serialize_field("isPlayerCharacter", &true)?;
        }
        if let Some(t) = e.template {
            s.serialize_field("template", &t)?;
        }
        if e.can_slow {
            s.serialize_field("canSlow", &true)?;
        }
        if let Some(by) = &e.summoner {
            s.serialize_field("summoner", by)?;
        }
        if self.defeated {
            s.serialize_field("defeated", &true)?;
        }
        if self.taken != 0 {
            s.serialize_field("taken", &self.taken)?;
        }
        if self.slow != 0 {
            s.serialize_field("slow", &self.slow)?;
        }
        if self.delay {
            s.serialize_field("delay", &true)?;
        }
        s.serialize_field("turns", &self.turns)?;
        s.end()
    }
}

/// [`Combatant`] as it is read: the same JSON, its fields listed flat (`flatten` would buffer
/// every object first). Every field but `id` and `side` may be missing; the stored shape from
/// before issue 18 wrote them all, so it reads the same way.
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

pub(crate) fn regular_left(c: &Combatant, turns: u32) -> u32 {
    if c.defeated {
        return 0;
    }
    turns.saturating_sub(c.taken.saturating_add(c.slow))
}
