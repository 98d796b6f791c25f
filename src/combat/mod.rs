//! The ICON turn order as a pure reducer: `apply(state, event) -> (state, effects)`.
//!
//! ICON has no initiative roll. The party acts first in round 1; after each turn the other side
//! acts, choosing which of its combatants goes; when one side has no turns left the other takes
//! its remaining turns one after another. A party member may go *slow* instead, moving its turn
//! after all regular turns, where slow turns alternate party/foe, party first. The next round
//! starts with the side opposite the one that took the last turn. Party resolve +1 at the start of
//! every round (round 1 included), reset to 0 when combat ends ("Resolve" in the seed).
//!
//! A refused event is an error naming why, and the state is unchanged. The state serialises to
//! JSON (stored on the Combat document) and round-trips exactly; it carries its own undo history.
//! It also carries what a tracker shows (`next`, each combatant's `turns`), recomputed after
//! every event, so the JS side never re-derives a rule.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// At most this many earlier states are kept for undo. The whole state is written to the Combat
/// document on every event, so the history is bounded to keep those updates small.
pub const MAX_HISTORY: usize = 100;
/// At most this many combatants across the kept snapshots (at least one step is always kept):
/// every event carries the whole state across the wasm boundary and onto the Combat document, so
/// a big fight keeps fewer undo steps and an event's cost stays linear in the fight's size with a
/// small factor (20 combatants keep all 100 steps, 100 keep 20, 1,000 keep 2).
pub const MAX_HISTORY_COMBATANTS: usize = 2_000;

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

/// A combatant as `start`/`addCombatant` give it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub side: Side,
    #[serde(default)]
    pub is_player_character: bool,
    #[serde(default)]
    pub template: Option<Template>,
    /// Foes never go slow unless flagged.
    #[serde(default)]
    pub can_slow: bool,
}

/// A combatant in the fight, with this round's bookkeeping.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", from = "CombatantFields")]
pub struct Combatant {
    #[serde(flatten)]
    pub entry: Entry,
    pub defeated: bool,
    /// Turns taken this round (regular and slow).
    pub taken: u32,
    /// Turns moved to the slow phase and not yet taken.
    pub slow: u32,
    /// A pending delay: the next turn must be slow, and the delay fires when it starts.
    pub delay: bool,
    /// Turns this round (see [`Snapshot::turns_per_round`]); kept up to date for display.
    #[serde(default)]
    pub turns: u32,
}

/// [`Combatant`] as it is read: the same JSON, its fields listed flat. Reading through
/// `flatten` buffers every object before reading it, which was most of a combat event's time.
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
    defeated: bool,
    taken: u32,
    slow: u32,
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

/// Everything but the undo history.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub round: u32,
    pub combatants: Vec<Combatant>,
    /// The side whose slot it is in the regular phase.
    pub regular_side: Side,
    /// The side whose slot it is in the slow phase.
    pub slow_side: Side,
    pub current: Option<Turn>,
    /// The side that took the last turn (the next round starts with the other).
    pub last_side: Option<Side>,
    pub party_resolve: u32,
    pub ended: bool,
    /// [`Snapshot::next`] as of this state (`null` while a turn is open or nobody has turns
    /// left); kept up to date for display.
    #[serde(default)]
    pub next: Option<Next>,
}

/// The reducer's state: the snapshot plus the earlier snapshots for undo.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", from = "CombatStateFields")]
pub struct CombatState {
    #[serde(flatten)]
    pub now: Snapshot,
    #[serde(default)]
    pub history: Vec<Snapshot>,
    /// Earlier states dropped from the history (beyond [`MAX_HISTORY`]): undo stops there
    /// instead of undoing the start.
    #[serde(default)]
    pub forgotten: u32,
}

/// [`CombatState`] as it is read, its snapshot's fields listed flat (see [`CombatantFields`]).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CombatStateFields {
    round: u32,
    combatants: Vec<Combatant>,
    regular_side: Side,
    slow_side: Side,
    current: Option<Turn>,
    last_side: Option<Side>,
    party_resolve: u32,
    ended: bool,
    #[serde(default)]
    next: Option<Next>,
    #[serde(default)]
    history: Vec<Snapshot>,
    #[serde(default)]
    forgotten: u32,
}

impl From<CombatStateFields> for CombatState {
    fn from(f: CombatStateFields) -> Self {
        Self {
            now: Snapshot {
                round: f.round,
                combatants: f.combatants,
                regular_side: f.regular_side,
                slow_side: f.slow_side,
                current: f.current,
                last_side: f.last_side,
                party_resolve: f.party_resolve,
                ended: f.ended,
                next: f.next,
            },
            history: f.history,
            forgotten: f.forgotten,
        }
    }
}

/// Things that happen in a fight.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    Start {
        combatants: Vec<Entry>,
    },
    BeginTurn {
        id: String,
    },
    EndTurn,
    GoSlow {
        id: String,
    },
    /// An ability with the delay tag: the character's next turn must be slow.
    Delay {
        id: String,
    },
    AddCombatant {
        combatant: Entry,
    },
    RemoveCombatant {
        id: String,
    },
    SetDefeated {
        id: String,
        defeated: bool,
    },
    /// Spend or grant party resolve by hand (`by` may be negative; resolve never goes below 0).
    AdjustResolve {
        by: i32,
    },
    Undo,
    EndCombat,
}

/// What Foundry should carry out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Effect {
    RoundStarted {
        round: u32,
    },
    /// Also the moment the owner's interrupts refresh.
    TurnStarted {
        id: String,
        slow: bool,
    },
    /// The module prompts saves for the character's statuses.
    TurnEnded {
        id: String,
    },
    ResolveChanged {
        party_resolve: u32,
    },
    DelayFired {
        id: String,
    },
    /// End-of-combat rules: cure ongoing effects, remove summons and created objects, heal to
    /// bloodied, +1 personal resolve for each player character listed.
    CombatEnded {
        personal_resolve: Vec<String>,
    },
}

fn refuse<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::request(why))
}

impl Snapshot {
    fn player_characters(&self) -> u32 {
        self.combatants
            .iter()
            .filter(|c| c.entry.is_player_character)
            .count() as u32
    }

    /// Turns per round: 1; an Elite 2; a Legend one per player character (at least 1).
    pub fn turns_per_round(&self, c: &Combatant) -> u32 {
        match c.entry.template {
            Some(Template::Elite) => 2,
            Some(Template::Legend) => self.player_characters().max(1),
            _ => 1,
        }
    }

    /// Regular turns a combatant still has this round.
    pub fn regular_left(&self, c: &Combatant) -> u32 {
        if c.defeated {
            return 0;
        }
        self.turns_per_round(c).saturating_sub(c.taken + c.slow)
    }

    fn side_has_regular(&self, side: Side) -> bool {
        self.combatants
            .iter()
            .any(|c| c.entry.side == side && self.regular_left(c) > 0)
    }

    fn side_has_slow(&self, side: Side) -> bool {
        self.combatants
            .iter()
            .any(|c| c.entry.side == side && !c.defeated && c.slow > 0)
    }

    /// Who acts next: the phase and the side, or `None` when the round is over.
    pub fn next(&self) -> Option<(Phase, Side)> {
        let pick = |preferred: Side, has: &dyn Fn(Side) -> bool| {
            if has(preferred) {
                Some(preferred)
            } else if has(preferred.other()) {
                Some(preferred.other())
            } else {
                None
            }
        };
        if let Some(side) = pick(self.regular_side, &|s| self.side_has_regular(s)) {
            return Some((Phase::Regular, side));
        }
        pick(self.slow_side, &|s| self.side_has_slow(s)).map(|side| (Phase::Slow, side))
    }

    fn find(&self, id: &str) -> Result<usize> {
        match self.combatants.iter().position(|c| c.entry.id == id) {
            Some(i) => Ok(i),
            None => refuse(format!("there is no combatant {id} in this combat")),
        }
    }

    /// Brings the display fields (`next`, each combatant's `turns`) up to date, after any change.
    fn refresh(&mut self) {
        let turns: Vec<u32> = self
            .combatants
            .iter()
            .map(|c| self.turns_per_round(c))
            .collect();
        for (c, t) in self.combatants.iter_mut().zip(turns) {
            c.turns = t;
            // a Legend loses a turn when a player character leaves: a waiting slow turn goes first
            c.slow = c.slow.min(t.saturating_sub(c.taken));
        }
        self.next = if self.current.is_some() || self.ended {
            None
        } else {
            self.next().map(|(phase, side)| Next { phase, side })
        };
    }

    /// Ends the open turn: the other side gets the slot of the phase the turn was taken in.
    fn close_turn(&mut self, turn: &Turn, side: Side) {
        if turn.slow {
            self.slow_side = side.other();
        } else {
            self.regular_side = side.other();
        }
        self.last_side = Some(side);
    }

    /// Starts a new round if nobody has turns left and no turn is open.
    fn maybe_new_round(&mut self, effects: &mut Vec<Effect>) {
        if self.current.is_some()
            || self.next().is_some()
            || self.combatants.iter().all(|c| c.defeated)
        {
            return;
        }
        self.round += 1;
        for c in &mut self.combatants {
            c.taken = 0;
            c.slow = 0;
        }
        let first = self.last_side.map_or(Side::Party, Side::other);
        self.regular_side = first;
        self.slow_side = Side::Party;
        self.party_resolve += 1;
        effects.push(Effect::RoundStarted { round: self.round });
        effects.push(Effect::ResolveChanged {
            party_resolve: self.party_resolve,
        });
    }
}

/// Applies `event` to `state` (`None` before `start`). On refusal the caller keeps its state.
pub fn apply(
    state: Option<&CombatState>,
    event: &Event,
) -> Result<(Option<CombatState>, Vec<Effect>)> {
    let mut effects = Vec::new();
    let Some(state) = state else {
        let Event::Start { combatants } = event else {
            return refuse("the combat has not started: the first event must be start");
        };
        let mut now = Snapshot {
            round: 0,
            combatants: Vec::new(),
            regular_side: Side::Party,
            slow_side: Side::Party,
            current: None,
            last_side: None,
            party_resolve: 0,
            ended: false,
            next: None,
        };
        for e in combatants {
            add(&mut now, e.clone())?;
        }
        if now.combatants.is_empty() {
            return refuse("a combat needs at least one combatant");
        }
        now.round = 1;
        now.party_resolve = 1;
        now.refresh();
        effects.push(Effect::RoundStarted { round: 1 });
        effects.push(Effect::ResolveChanged { party_resolve: 1 });
        return Ok((
            Some(CombatState {
                now,
                history: Vec::new(),
                forgotten: 0,
            }),
            effects,
        ));
    };

    if let Event::Undo = event {
        let mut history = state.history.clone();
        let Some(previous) = history.pop() else {
            if state.forgotten > 0 {
                return refuse(format!(
                    "nothing more to undo: the history keeps at most {MAX_HISTORY} steps and {MAX_HISTORY_COMBATANTS} combatants across them"
                ));
            }
            // undoing the start: back to no combat
            return Ok((None, effects));
        };
        if previous.party_resolve != state.now.party_resolve {
            effects.push(Effect::ResolveChanged {
                party_resolve: previous.party_resolve,
            });
        }
        return Ok((
            Some(CombatState {
                now: previous,
                history,
                forgotten: state.forgotten,
            }),
            effects,
        ));
    }

    let before = &state.now;
    if before.ended {
        return refuse("the combat has ended");
    }
    let mut s = before.clone();
    match event {
        Event::Start { .. } => return refuse("the combat has already started"),
        Event::Undo => {}
        Event::BeginTurn { id } => {
            if let Some(open) = &s.current {
                return refuse(format!("{}'s turn is still open; end it first", open.id));
            }
            let i = s.find(id)?;
            let c = &s.combatants[i];
            if c.defeated {
                return refuse(format!("{id} is defeated"));
            }
            let Some((phase, side)) = s.next() else {
                return refuse("nobody has turns left this round");
            };
            if c.entry.side != side {
                return refuse(format!(
                    "it is the {} side's turn, and {id} is not on it",
                    side_name(side)
                ));
            }
            let slow = phase == Phase::Slow;
            if slow {
                if c.slow == 0 {
                    return refuse(format!("{id} has no slow turn waiting"));
                }
            } else {
                if s.regular_left(c) == 0 {
                    return refuse(format!("{id} has no turns left this round"));
                }
                if c.delay {
                    return refuse(format!("{id} has a pending delay and must go slow"));
                }
            }
            let c = &mut s.combatants[i];
            if slow {
                c.slow -= 1;
                if c.delay {
                    c.delay = false;
                    effects.push(Effect::DelayFired { id: id.clone() });
                }
            }
            c.taken += 1;
            s.current = Some(Turn {
                id: id.clone(),
                slow,
            });
            effects.push(Effect::TurnStarted {
                id: id.clone(),
                slow,
            });
        }
        Event::EndTurn => {
            let Some(turn) = s.current.take() else {
                return refuse("no turn is open");
            };
            let side = s
                .combatants
                .iter()
                .find(|c| c.entry.id == turn.id)
                .map(|c| c.entry.side);
            if let Some(side) = side {
                s.close_turn(&turn, side);
            }
            effects.push(Effect::TurnEnded { id: turn.id });
            s.maybe_new_round(&mut effects);
        }
        Event::GoSlow { id } => {
            if let Some(open) = &s.current {
                return refuse(format!("{}'s turn is still open; end it first", open.id));
            }
            let i = s.find(id)?;
            let c = &s.combatants[i];
            if c.defeated {
                return refuse(format!("{id} is defeated"));
            }
            // a pending delay forces the slow turn even on a foe that cannot choose one
            if c.entry.side == Side::Foes && !c.entry.can_slow && !c.delay {
                return refuse(format!("{id} is a foe and cannot go slow"));
            }
            match s.next() {
                Some((Phase::Regular, side)) if side == c.entry.side => {}
                Some((Phase::Regular, side)) => {
                    return refuse(format!(
                        "it is the {} side's turn, and {id} is not on it",
                        side_name(side)
                    ))
                }
                _ => {
                    return refuse(
                        "slow turns can only be chosen before all regular turns are taken",
                    )
                }
            }
            if s.regular_left(c) == 0 {
                return refuse(format!("{id} has no turns left this round"));
            }
            let side = c.entry.side;
            s.combatants[i].slow += 1;
            // the side's slot passes on as if it had acted
            s.regular_side = side.other();
            s.maybe_new_round(&mut effects);
        }
        Event::Delay { id } => {
            let i = s.find(id)?;
            s.combatants[i].delay = true;
        }
        Event::AddCombatant { combatant } => {
            add(&mut s, combatant.clone())?;
        }
        Event::RemoveCombatant { id } => {
            let i = s.find(id)?;
            let removed = s.combatants.remove(i);
            // removing the combatant whose turn is open ends that turn: the slot passes on
            if let Some(turn) = s.current.take_if(|t| &t.id == id) {
                s.close_turn(&turn, removed.entry.side);
            }
            s.maybe_new_round(&mut effects);
        }
        Event::SetDefeated { id, defeated } => {
            let i = s.find(id)?;
            s.combatants[i].defeated = *defeated;
            s.maybe_new_round(&mut effects);
        }
        Event::AdjustResolve { by } => {
            let Some(value) = s.party_resolve.checked_add_signed(*by) else {
                return refuse(format!(
                    "party resolve is {} and cannot go below 0",
                    s.party_resolve
                ));
            };
            s.party_resolve = value;
            effects.push(Effect::ResolveChanged {
                party_resolve: value,
            });
        }
        Event::EndCombat => {
            s.ended = true;
            s.current = None;
            let personal_resolve = s
                .combatants
                .iter()
                .filter(|c| c.entry.is_player_character)
                .map(|c| c.entry.id.clone())
                .collect();
            s.party_resolve = 0;
            effects.push(Effect::CombatEnded { personal_resolve });
            effects.push(Effect::ResolveChanged { party_resolve: 0 });
        }
    }
    s.refresh();
    let mut history = state.history.clone();
    let mut forgotten = state.forgotten;
    history.push(before.clone());
    let mut kept: usize = history.iter().map(|h| h.combatants.len()).sum();
    while history.len() > MAX_HISTORY || (history.len() > 1 && kept > MAX_HISTORY_COMBATANTS) {
        kept -= history.remove(0).combatants.len();
        forgotten = forgotten.saturating_add(1);
    }
    Ok((
        Some(CombatState {
            now: s,
            history,
            forgotten,
        }),
        effects,
    ))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Party => "party",
        Side::Foes => "foes",
    }
}

fn add(s: &mut Snapshot, e: Entry) -> Result<()> {
    if e.id.trim().is_empty() {
        return refuse("a combatant needs an id");
    }
    if s.combatants.iter().any(|c| c.entry.id == e.id) {
        return refuse(format!("{} is already in this combat", e.id));
    }
    if e.side == Side::Foes && e.is_player_character {
        return refuse(format!(
            "{} is a player character and fights with the party",
            e.id
        ));
    }
    s.combatants.push(Combatant {
        entry: e,
        defeated: false,
        taken: 0,
        slow: 0,
        delay: false,
        turns: 0,
    });
    Ok(())
}
