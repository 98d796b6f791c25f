//! The ICON turn order as a pure reducer: `apply(state, event) -> (state, effects)`.
//!
//! ICON has no initiative roll. The party acts first in round 1; after each turn the other side
//! acts, choosing which of its combatants goes; when one side has no turns left the other takes
//! its remaining turns one after another. A character may go *slow* instead, moving its turn
//! after all regular turns, where slow turns alternate sides in the same order as the round's
//! regular turns ("initiative takes the same order as during regular turns", glossary, Slow
//! Turn). The next round starts with the side opposite the one that took the last turn. Party
//! resolve +1 at the start of every round (round 1 included), reset to 0 when combat ends
//! (Rules Reference, Resolve). Summons take no turns and leave with their summoner (glossary,
//! Summon). Readings where the reference is silent are in docs/rules.md, "Combat".
//!
//! A refused event is an error naming why, and the state is unchanged. The state serialises to
//! JSON (stored on the Combat document, see [`stored`]) and round-trips exactly. Undo works from
//! an event log ([`log`]): each accepted event is logged with what undoing it needs, and undo
//! inverts the last step. The state also carries what a tracker shows (`next`, each combatant's
//! `turns`), recomputed after every event, so the JS side never re-derives a rule.

pub mod codec;
mod fight;
pub mod log;
pub mod pages;
mod round;
pub mod stored;

pub use fight::{regular_left, Combatant, Entry, Fight, Next, Phase, Side, Template, Turn};
pub use log::{Log, Step, LOG_PAGE};
pub use round::Reset;
pub use stored::{CombatState, Limit, MAX_STATE_JSON, STATE_VERSION};

use crate::error::{Error, Result};
use log::{Closed, Departure};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::{HashMap, HashSet};

/// Undo goes back at most this many steps.
pub const MAX_HISTORY: usize = 100;
/// The undo log holds at most this many combatants' records across its steps (a round start
/// records the combatants that ended it unexpectedly, a departure those that left); the newest
/// step is always kept, so the stored state stays small in a fight of thousands.
pub const MAX_HISTORY_COMBATANTS: usize = 2_000;
/// A combat has at most this many combatants: a real ICON fight has a few dozen, and at this many
/// the first event of each kind in a fresh process (the code still cold) is answered within a
/// frame, 16 ms (`npm run bench`, "A combat event").
pub const MAX_COMBATANTS: usize = 1_000;
/// A combatant id is at most this many bytes (Foundry's are 16).
pub const MAX_ID_BYTES: usize = 256;

/// Things that happen in a fight.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    remote = "Self",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    Start {
        #[serde(deserialize_with = "at_most_max_combatants")]
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
    /// The state in the shape this core writes, nothing else changed and nothing logged: how a
    /// state stored in an older version is converted without waiting for the next event.
    Upgrade,
}

crate::deserialize_tagged!(Event, "type");

/// `start`'s combatants, refused past [`MAX_COMBATANTS`] as they are read.
fn at_most_max_combatants<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<Entry>, D::Error> {
    struct Bounded;
    impl<'de> serde::de::Visitor<'de> for Bounded {
        type Value = Vec<Entry>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of combatants")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Vec<Entry>, A::Error> {
            let mut out = Vec::new();
            while let Some(e) = seq.next_element()? {
                if out.len() >= MAX_COMBATANTS {
                    return Err(serde::de::Error::custom(stored::too_many_listed()));
                }
                out.push(e);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded)
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
    /// The module runs the end-of-turn rules (regeneration, hatred's end) and prompts saves.
    TurnEnded {
        id: String,
    },
    ResolveChanged {
        party_resolve: u32,
    },
    DelayFired {
        id: String,
    },
    /// The summoner was defeated or left: its summons left the fight with it ("Summons are
    /// removed from the battlefield when their summoner is defeated"); Foundry removes them.
    SummonsLeft {
        summoner: String,
        ids: Vec<String>,
    },
    /// End-of-combat rules: cure ongoing effects, remove summons and created objects, heal to
    /// bloodied, +1 personal resolve for each player character listed.
    CombatEnded {
        personal_resolve: Vec<String>,
    },
}

pub(crate) fn refuse<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::request(why))
}

impl CombatState {
    /// Drops the oldest steps past the log's limits (the newest is always kept).
    pub(crate) fn trim(&mut self) -> Result<()> {
        while self.log.len() > 1 {
            let by = if self.log.len() > MAX_HISTORY {
                Limit::Steps
            } else if self.log.weight() > MAX_HISTORY_COMBATANTS as u64 {
                Limit::Combatants
            } else {
                break;
            };
            self.log.drop_oldest()?;
            self.forgot_by = Some(by);
        }
        Ok(())
    }

    /// The fight before the first step of the log, found by undoing every step (the fight
    /// right after `start` when nothing was forgotten): replaying the log's events from it (see
    /// [`replay`]) gives this state again.
    pub fn checkpoint(&self) -> Result<CombatState> {
        let mut now = self.now.clone();
        for step in self.log.steps()?.iter().rev() {
            step.invert(&mut now)?;
            now.refresh();
        }
        Ok(CombatState {
            now,
            log: Log::new(self.log.forgotten()),
            forgot_by: self.forgot_by,
        })
    }
}

/// Replays `steps` on `from` (a [`CombatState::checkpoint`]): each step's event is applied again
/// (a step converted from the old snapshot history sets its snapshot, as it has no event).
pub fn replay(from: CombatState, steps: &[Step]) -> Result<CombatState> {
    let mut state = from;
    for step in steps {
        let id = |n: &u32| match state.now.combatants.get(n) {
            Some(c) => Ok(c.entry.id.clone()),
            None => refuse(format!(
                "combatant {n} of a logged step is not in the fight"
            )),
        };
        let event = match step {
            Step::Begin { n, .. } => Event::BeginTurn { id: id(n)? },
            Step::End { .. } => Event::EndTurn,
            Step::GoSlow { n, .. } => Event::GoSlow { id: id(n)? },
            // a repeated delay logged before it added no step: kept as it was
            Step::Delay { was: true, .. } => {
                state.log.push(step.clone())?;
                state.trim()?;
                continue;
            }
            Step::Delay { n, .. } => Event::Delay { id: id(n)? },
            Step::Add { entry } => Event::AddCombatant {
                combatant: entry.clone(),
            },
            Step::Remove { departure, .. } => match departure.removed.first() {
                Some((_, c)) => Event::RemoveCombatant {
                    id: c.entry.id.clone(),
                },
                None => return refuse("a logged removal removed nobody"),
            },
            Step::Defeat { n, defeated, .. } => Event::SetDefeated {
                id: id(n)?,
                defeated: *defeated,
            },
            Step::Resolve { by } => Event::AdjustResolve { by: *by },
            Step::EndCombat { .. } => Event::EndCombat,
            Step::Patch(p) => {
                p.restore(&mut state.now, false)?;
                state.now.refresh();
                state.log.push(step.clone())?;
                state.trim()?;
                continue;
            }
        };
        state = match apply(Some(&state), &event)? {
            (Some(s), _) => s,
            (None, _) => return refuse("a replayed step ended the fight"),
        };
    }
    Ok(state)
}

/// Applies `event` to `state` (`None` before `start`). On refusal the caller keeps its state.
pub fn apply(
    state: Option<&CombatState>,
    event: &Event,
) -> Result<(Option<CombatState>, Vec<Effect>)> {
    apply_owned(state.cloned(), event)
}

/// [`apply`] to a state the caller gives up (the wasm boundary reads a fresh one per call), so
/// nothing is copied.
pub fn apply_owned(
    state: Option<CombatState>,
    event: &Event,
) -> Result<(Option<CombatState>, Vec<Effect>)> {
    let mut effects = Vec::new();
    let Some(state) = state else {
        return match event {
            Event::Start { combatants } => start(combatants),
            _ => refuse("the combat has not started: the first event must be start"),
        };
    };
    state.check()?;
    state
        .now
        .validate()
        .map_err(|e| Error::request(format!("invalid combat state: {}", e.message())))?;
    match event {
        Event::Undo => return undo(state),
        Event::Upgrade => return Ok((Some(state), effects)),
        _ => {}
    }
    if state.now.ended {
        return refuse("the combat has ended");
    }
    let CombatState {
        now: mut s,
        mut log,
        forgot_by,
    } = state;
    let Some(step) = step(&mut s, event, &mut effects)? else {
        // nothing changes, and nothing is logged (see [`step`])
        let same = CombatState {
            now: s,
            log,
            forgot_by,
        };
        return Ok((Some(same), effects));
    };
    log.push(step)?;
    let mut next = CombatState {
        now: s,
        log,
        forgot_by,
    };
    next.trim()?;
    Ok((Some(next), effects))
}

/// Plays `event` on a fight that is whole (a state [`apply`] accepted, or the fight of one),
/// the reducer's own step without its undo log: what the encounter forecast plays its fights with,
/// thousands of events a fight would otherwise log and check again. The effects are appended to
/// `effects`; on refusal the fight may be left part-changed, so a caller that goes on keeps a copy.
pub fn play(s: &mut Fight, event: &Event, effects: &mut Vec<Effect>) -> Result<()> {
    if s.ended {
        return refuse("the combat has ended");
    }
    step(s, event, effects).map(|_| ())
}

/// One event on the fight now, past the stored state's checks: what it changes, and the step
/// that undoes it (`None` when nothing changes: a delay already pending). [`apply_owned`] logs
/// the step; [`play`] does not.
#[inline(always)]
fn step(s: &mut Fight, event: &Event, effects: &mut Vec<Effect>) -> Result<Option<Step>> {
    let mut step = match event {
        Event::Start { .. } => return refuse("the combat has already started"),
        Event::Undo | Event::Upgrade => return refuse("not a step"),
        Event::BeginTurn { id } => begin_turn(s, id, effects)?,
        Event::EndTurn => {
            let Some(turn) = s.current.take() else {
                return refuse("no turn is open");
            };
            let n = s.number_of(&turn.id)?;
            let side = s.combatants.get(&n).map_or(Side::Party, |c| c.entry.side);
            let last_was = s.last_side;
            let slot_was = s.close_turn(turn.slow, side);
            effects.push(Effect::TurnEnded { id: turn.id });
            Step::End {
                n,
                slow: turn.slow,
                slot_was,
                last_was,
                reset: s.maybe_new_round(effects)?,
            }
        }
        Event::GoSlow { id } => go_slow(s, id, effects)?,
        Event::Delay { id } => {
            let n = s.number_of(id)?;
            if s.combatants.get(&n).is_some_and(|c| c.delay) {
                // already pending: nothing changes, and nothing is logged, so repeating it
                // cannot push earlier steps out of the undo log
                return Ok(None);
            }
            if let Some(c) = s.combatants.get_mut(&n) {
                c.delay = true;
            }
            Step::Delay { n, was: false }
        }
        Event::AddCombatant { combatant } => {
            add(s, combatant.clone())?;
            Step::Add {
                entry: combatant.clone(),
            }
        }
        Event::RemoveCombatant { id } => {
            let n = s.number_of(id)?;
            let departure = depart(s, n, true, effects);
            Step::Remove {
                departure,
                reset: s.maybe_new_round(effects)?,
            }
        }
        Event::SetDefeated { id, defeated } => {
            let n = s.number_of(id)?;
            let was = match s.combatants.get_mut(&n) {
                Some(c) => std::mem::replace(&mut c.defeated, *defeated),
                None => *defeated,
            };
            // "Summons are removed from the battlefield when their summoner is defeated"
            let departure = if *defeated {
                Some(depart(s, n, false, effects)).filter(|d| !d.removed.is_empty())
            } else {
                None
            };
            Step::Defeat {
                n,
                defeated: *defeated,
                was,
                departure,
                reset: s.maybe_new_round(effects)?,
            }
        }
        Event::AdjustResolve { by } => {
            let value = i64::from(s.party_resolve) + i64::from(*by);
            let Ok(value) = u32::try_from(value) else {
                return refuse(format!(
                    "party resolve is {} and cannot go {} by {}",
                    s.party_resolve,
                    if *by < 0 { "below 0" } else { "that high" },
                    by.unsigned_abs()
                ));
            };
            s.party_resolve = value;
            effects.push(Effect::ResolveChanged {
                party_resolve: value,
            });
            Step::Resolve { by: *by }
        }
        Event::EndCombat => {
            let current = match s.current.take() {
                Some(t) => Some((s.number_of(&t.id)?, t.slow)),
                None => None,
            };
            let resolve_was = s.party_resolve;
            s.ended = true;
            s.party_resolve = 0;
            let personal_resolve = s
                .combatants
                .values()
                .filter(|c| c.entry.is_player_character)
                .map(|c| c.entry.id.clone())
                .collect();
            effects.push(Effect::CombatEnded { personal_resolve });
            effects.push(Effect::ResolveChanged { party_resolve: 0 });
            Step::EndCombat {
                current,
                resolve_was,
            }
        }
    };
    let clamped = s.refresh();
    if !clamped.is_empty() {
        match &mut step {
            Step::Remove { departure, .. }
            | Step::Defeat {
                departure: Some(departure),
                ..
            } => departure.clamped = clamped,
            // only a player character leaving takes turns away
            _ => return refuse("internal: waiting slow turns were taken back without a departure"),
        }
    }
    Ok(Some(step))
}

fn start(combatants: &[Entry]) -> Result<(Option<CombatState>, Vec<Effect>)> {
    if combatants.is_empty() {
        return refuse("a combat needs at least one combatant");
    }
    if combatants.len() > MAX_COMBATANTS {
        return refuse(stored::too_many());
    }
    let mut now = Fight::empty();
    let mut ids = HashSet::with_capacity(combatants.len());
    for e in combatants {
        check_entry(e)?;
        if !ids.insert(e.id.as_str()) {
            return refuse(format!("{} is already in this combat", e.id));
        }
    }
    for e in combatants {
        if let Some(by) = &e.summoner {
            if !ids.contains(by.as_str()) || *by == e.id {
                return refuse(format!("{}'s summoner {by} is not in this combat", e.id));
            }
        }
        now.combatants
            .insert(now.next_number, Combatant::new(e.clone()));
        now.next_number += 1;
    }
    now.round = 1;
    now.party_resolve = 1;
    now.refresh();
    let effects = vec![
        Effect::RoundStarted { round: 1 },
        Effect::ResolveChanged { party_resolve: 1 },
    ];
    let state = CombatState {
        now,
        log: Log::new(0),
        forgot_by: None,
    };
    Ok((Some(state), effects))
}

fn undo(state: CombatState) -> Result<(Option<CombatState>, Vec<Effect>)> {
    let mut effects = Vec::new();
    let CombatState {
        mut now,
        mut log,
        forgot_by,
    } = state;
    let Some(step) = log.pop()? else {
        if log.forgotten() > 0 {
            return refuse(match forgot_by.unwrap_or(Limit::Steps) {
                Limit::Steps => format!(
                    "nothing more to undo: undo goes back at most {MAX_HISTORY} steps"
                ),
                Limit::Combatants => format!(
                    "nothing more to undo: the undo log holds at most {MAX_HISTORY_COMBATANTS} combatants' records across its steps"
                ),
            });
        }
        // undoing the start: back to no combat, but only from the fight exactly as `start` left
        // it (an empty log in a fight that went on, as a state stored without its history has,
        // would otherwise wipe the fight)
        if let Some(why) = now.moved_since_start() {
            return refuse(format!(
                "nothing to undo: the undo log is empty and the fight is not as it started ({why}); end the combat instead"
            ));
        }
        return Ok((None, effects));
    };
    let resolve = now.party_resolve;
    step.invert(&mut now)?;
    now.refresh();
    if now.party_resolve != resolve {
        effects.push(Effect::ResolveChanged {
            party_resolve: now.party_resolve,
        });
    }
    let state = CombatState {
        now,
        log,
        forgot_by,
    };
    Ok((Some(state), effects))
}

/// A combatant choosing a turn (beginning one, or going slow), past the checks both start with:
/// no turn is open, `id` is in the fight and not defeated. Its number, who acts next this round,
/// its turns per round and its record.
type Chooser<'f> = (u32, Option<(Phase, Side)>, u32, &'f mut Combatant);

fn chooser<'f>(s: &'f mut Fight, id: &str) -> Result<Chooser<'f>> {
    if let Some(open) = &s.current {
        return refuse(format!("{}'s turn is still open; end it first", open.id));
    }
    let n = s.number_of(id)?;
    let next = s.next();
    let turns = s.combatants.get(&n).map_or(0, |c| s.turns_per_round(c));
    let Some(c) = s.combatants.get_mut(&n) else {
        return refuse(format!("there is no combatant {id} in this combat"));
    };
    if c.defeated {
        return refuse(format!("{id} is defeated"));
    }
    Ok((n, next, turns, c))
}

fn begin_turn(s: &mut Fight, id: &str, effects: &mut Vec<Effect>) -> Result<Step> {
    let (n, next, turns, c) = chooser(s, id)?;
    if c.entry.summoner.is_some() {
        return refuse(format!("{id} is a summon and takes no turns"));
    }
    let Some((phase, side)) = next else {
        return refuse("nobody has turns left this round");
    };
    if c.entry.side != side {
        return refuse(format!(
            "it is the {} side's turn, and {id} is not on it",
            side.name()
        ));
    }
    let slow = phase == Phase::Slow;
    if slow {
        if c.slow == 0 {
            return refuse(format!("{id} has no slow turn waiting"));
        }
    } else {
        if fight::regular_left(c, turns) == 0 {
            return refuse(format!("{id} has no turns left this round"));
        }
        if c.delay {
            return refuse(format!("{id} has a pending delay and must go slow"));
        }
    }
    let Some(taken) = c.taken.checked_add(1) else {
        return refuse(format!("{id} has taken too many turns"));
    };
    c.taken = taken;
    let mut fired = false;
    if slow {
        c.slow -= 1;
        fired = std::mem::replace(&mut c.delay, false);
        if fired {
            effects.push(Effect::DelayFired { id: id.to_string() });
        }
    }
    s.current = Some(Turn {
        id: id.to_string(),
        slow,
    });
    effects.push(Effect::TurnStarted {
        id: id.to_string(),
        slow,
    });
    Ok(Step::Begin { n, fired })
}

fn go_slow(s: &mut Fight, id: &str, effects: &mut Vec<Effect>) -> Result<Step> {
    let (n, next, turns, c) = chooser(s, id)?;
    // a pending delay forces the slow turn even on a foe that cannot choose one
    if c.entry.side == Side::Foes && !c.entry.can_slow && !c.delay {
        return refuse(format!("{id} is a foe and cannot go slow"));
    }
    match next {
        Some((Phase::Regular, side)) if side == c.entry.side => {}
        Some((Phase::Regular, side)) => {
            return refuse(format!(
                "it is the {} side's turn, and {id} is not on it",
                side.name()
            ))
        }
        _ => return refuse("slow turns can only be chosen before all regular turns are taken"),
    }
    if fight::regular_left(c, turns) == 0 {
        return refuse(format!("{id} has no turns left this round"));
    }
    c.slow += 1; // ok: below turns, which is a u32
    let side = c.entry.side;
    // the side's slot passes on as if it had acted
    let regular_was = std::mem::replace(&mut s.regular_side, side.other());
    Ok(Step::GoSlow {
        n,
        regular_was,
        reset: s.maybe_new_round(effects)?,
    })
}

pub(crate) fn check_entry(e: &Entry) -> Result<()> {
    if e.id.trim().is_empty() {
        return refuse("a combatant needs an id");
    }
    if e.id.len() > MAX_ID_BYTES {
        return refuse(format!(
            "a combatant id is at most {MAX_ID_BYTES} bytes; this one is {}",
            e.id.len()
        ));
    }
    if e.side == Side::Foes && e.is_player_character {
        return refuse(format!(
            "{} is a player character and fights with the party",
            e.id
        ));
    }
    Ok(())
}

fn add(s: &mut Fight, e: Entry) -> Result<()> {
    check_entry(&e)?;
    if s.combatants.len() >= MAX_COMBATANTS {
        return refuse(stored::too_many());
    }
    if s.get(&e.id).is_some() {
        return refuse(format!("{} is already in this combat", e.id));
    }
    if let Some(by) = &e.summoner {
        match s.get(by) {
            None => return refuse(format!("{}'s summoner {by} is not in this combat", e.id)),
            Some(c) if c.defeated => {
                return refuse(format!("{}'s summoner {by} is defeated", e.id))
            }
            Some(_) => {}
        }
    }
    let n = s.next_number;
    let Some(next) = n.checked_add(1) else {
        return refuse("no more combatants can join this combat");
    };
    s.combatants.insert(n, Combatant::new(e));
    s.next_number = next;
    Ok(())
}

/// Combatant `n` leaves (when `itself`) with its summons, theirs in turn, and so on; or only
/// its summons leave. Closes the open turn if it was one of theirs.
fn depart(s: &mut Fight, n: u32, itself: bool, effects: &mut Vec<Effect>) -> Departure {
    let Some(summoner) = s.combatants.get(&n).map(|c| c.entry.id.clone()) else {
        return Departure {
            removed: Vec::new(),
            closed: None,
            clamped: Vec::new(),
        };
    };
    // each summoner's summons, once, so a chain of summons leaves in linear time
    let mut summons: HashMap<&str, Vec<u32>> = HashMap::new();
    for (m, c) in &s.combatants {
        if let Some(by) = &c.entry.summoner {
            summons.entry(by.as_str()).or_default().push(*m);
        }
    }
    let mut leaving: Vec<u32> = if itself { vec![n] } else { Vec::new() };
    let mut queue: Vec<&str> = vec![summoner.as_str()];
    let mut seen: HashSet<u32> = leaving.iter().copied().collect();
    while let Some(by) = queue.pop() {
        for m in summons.get(by).into_iter().flatten() {
            if seen.insert(*m) {
                leaving.push(*m);
                if let Some(c) = s.combatants.get(m) {
                    queue.push(c.entry.id.as_str());
                }
            }
        }
    }
    let mut removed = Vec::with_capacity(leaving.len());
    for m in leaving {
        if let Some(c) = s.combatants.remove(&m) {
            removed.push((m, c));
        }
    }
    let summons: Vec<String> = removed
        .iter()
        .filter(|(_, c)| c.entry.summoner.is_some())
        .map(|(_, c)| c.entry.id.clone())
        .collect();
    if !summons.is_empty() {
        effects.push(Effect::SummonsLeft {
            summoner,
            ids: summons,
        });
    }
    // the open turn of one who left ends: the slot passes on
    let mut closed = None;
    if let Some(turn) = &s.current {
        if let Some((m, c)) = removed.iter().find(|(_, c)| c.entry.id == turn.id) {
            let (m, side, slow) = (*m, c.entry.side, turn.slow);
            let last_was = s.last_side;
            s.current = None;
            let slot_was = s.close_turn(slow, side);
            closed = Some(Closed {
                n: m,
                slow,
                slot_was,
                last_was,
            });
        }
    }
    Departure {
        removed,
        closed,
        clamped: Vec::new(),
    }
}
