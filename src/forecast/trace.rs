//! One fight of a forecast, step by step: every turn-order event it sent the reducer and every
//! request it made of the rules (each roll with the faces it drew), in order, so the fight can be
//! replayed through the client core's `combatApply` and `resolve`, as the tracker and the cards
//! call them, and come out the same (test/node/forecast.test.mjs).

use crate::combat::{Entry, Event};
use crate::rulesets::icon::ability::Ability;
use crate::rulesets::icon::health::{ApplyDamage, Heal};
use crate::rulesets::icon::limit_break::LimitBreak;
use crate::rulesets::icon::{Attack, Damage, Save};
use serde::Serialize;

/// A turn-order event as `combatApply` takes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TraceEvent {
    Start { combatants: Vec<Entry> },
    BeginTurn { id: String },
    EndTurn,
    GoSlow { id: String },
    SetDefeated { id: String, defeated: bool },
    AdjustResolve { by: i32 },
}

impl TraceEvent {
    /// The reducer's event.
    pub fn event(&self) -> Event {
        match self {
            TraceEvent::Start { combatants } => Event::Start {
                combatants: combatants.clone(),
            },
            TraceEvent::BeginTurn { id } => Event::BeginTurn { id: id.clone() },
            TraceEvent::EndTurn => Event::EndTurn,
            TraceEvent::GoSlow { id } => Event::GoSlow { id: id.clone() },
            TraceEvent::SetDefeated { id, defeated } => Event::SetDefeated {
                id: id.clone(),
                defeated: *defeated,
            },
            TraceEvent::AdjustResolve { by } => Event::AdjustResolve { by: *by },
        }
    }

    /// The reducer's event, this one spent (an untraced fight keeps none of its events).
    pub fn into_event(self) -> Event {
        match self {
            TraceEvent::Start { combatants } => Event::Start { combatants },
            TraceEvent::BeginTurn { id } => Event::BeginTurn { id },
            TraceEvent::EndTurn => Event::EndTurn,
            TraceEvent::GoSlow { id } => Event::GoSlow { id },
            TraceEvent::SetDefeated { id, defeated } => Event::SetDefeated { id, defeated },
            TraceEvent::AdjustResolve { by } => Event::AdjustResolve { by },
        }
    }
}

/// A request to the rules, tagged by its kind as `resolve` takes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind")]
pub enum TraceRequest {
    #[serde(rename = "dice")]
    Dice { formula: String },
    #[serde(rename = "icon.attack")]
    Attack(Attack),
    #[serde(rename = "icon.damage")]
    Damage(Damage),
    #[serde(rename = "icon.save")]
    Save(Save),
    #[serde(rename = "icon.applyDamage")]
    ApplyDamage(ApplyDamage),
    #[serde(rename = "icon.heal")]
    Heal(Heal),
    #[serde(rename = "icon.ability")]
    Ability(Ability),
    #[serde(rename = "icon.limitBreak")]
    LimitBreak(LimitBreak),
}

/// What a roll was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    Attack,
    Damage,
    /// A save for half, or against an ability's effects.
    Save,
    /// A save at the end of the bearer's turn, against `status`.
    StatusSave,
    Gamble,
}

/// One step of a fight.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TraceStep {
    /// A turn-order event.
    Combat { event: TraceEvent },
    /// A fighter used an ability (`ability`: its index in the fighter's list, the basic
    /// attacks first when it has them) against these targets.
    Use {
        by: String,
        ability: usize,
        name: String,
        targets: Vec<String>,
    },
    /// A roll: its request, the faces drawn (one array per batch) and the total.
    Roll {
        by: String,
        target: Option<String>,
        role: Role,
        status: Option<String>,
        request: TraceRequest,
        faces: Vec<Vec<i64>>,
        total: i64,
    },
    /// A rule without dice (`icon.applyDamage`, `icon.heal`, `icon.ability`,
    /// `icon.limitBreak`) and its total; `roll` is the index of the damage roll whose total is
    /// the amount, when there is one.
    Rule {
        target: Option<String>,
        request: TraceRequest,
        total: i64,
        roll: Option<usize>,
    },
    /// A status put on or taken off, and why (`landed`, `saved`, `turnEnd`, `immuneEnds`,
    /// `hatredEnds`, `causeDefeated`, `afterAbility`).
    Status {
        target: String,
        status: String,
        added: bool,
        why: &'static str,
    },
}

/// A fighter as the fight left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceFighter {
    pub id: String,
    pub hp: i64,
    pub vigor: i64,
    pub wounds: u32,
    pub resolve: Option<i64>,
    pub statuses: Vec<String>,
    pub defeated: bool,
}

/// A whole fight.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// Which fight of the forecast (0 is the first).
    pub fight: u32,
    /// The seed it was played from (`fight_seed` of the forecast's seed and `fight`).
    pub seed: u64,
    /// The reducer's stored state it started from (for a planned fight, the first step is its
    /// `start` event instead), as JSON text.
    pub state: Option<String>,
    pub outcome: super::tally::Outcome,
    pub rounds: u32,
    pub steps: Vec<TraceStep>,
    pub fighters: Vec<TraceFighter>,
}
