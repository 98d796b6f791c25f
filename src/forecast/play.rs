//! One fight, played out by the rules the table plays: turns by the combat reducer
//! ([`crate::combat::play`]: sides, elites, legends and mobs, rounds, party resolve), attacks
//! and damage rolled as `icon.attack` and `icon.damage` and applied through `icon.applyDamage`,
//! what an ability's parts do through `icon.ability`, saves through `icon.save`, Regeneration and
//! the rescue through `icon.heal`, a limit break's resolve through `icon.limitBreak`, Stunned
//! and Stealth after an ability through the core's `after_ability`, and the end of a turn as the
//! module runs it (module/documents/combat-effects.mjs). Who acts and with what is the side's
//! policy ([`super::policy`]).

use super::dice::{attack_result, Rolled, Roller};
use super::expect::{apply_request, attack_request, damage_request, save_request, Attacker};
use super::input::{AbilitySpec, Duration, Fighter, Per, Recharge, Tag};
use super::prepare::{Aim, Prepared};
use super::tally::{FightResult, FighterResult, Outcome};
use super::trace::{Role, Trace, TraceEvent, TraceFighter, TraceRequest, TraceStep};
use crate::combat::{self, Effect, Fight, Phase, Side, Template};
use crate::dice::rng::{DiceRng, MAX_SEED};
use crate::error::{Error, Result};
use crate::request::Detail;
use crate::rulesets::icon::ability::{self, Ability, SaveResult, To, Trigger};
use crate::rulesets::icon::effects::{affects, Hatred};
use crate::rulesets::icon::health::{ApplyDamage, Heal, Healing, HpFloor, Source, Target};
use crate::rulesets::icon::limit_break::LimitBreak;
use crate::rulesets::icon::situation::{after_ability, saveable};

/// A fighter in a fight: its health as the rules hold it, and what the forecast tracks beside.
#[derive(Debug, Clone)]
pub(super) struct Unit {
    pub t: Target,
    pub side: Side,
    /// Out of the fight: the reducer's defeated (or 0 HP).
    pub down: bool,
    /// Statuses that end with the bearer's turn.
    pub turn_end: Vec<String>,
    /// Ongoing statuses this fighter holds up on others: (holder, status as stored).
    pub caused: Vec<(usize, String)>,
    /// Its Hatred's foe X, when the forecast put the Hatred on it.
    pub hates: Option<usize>,
    pub charges: Vec<u32>,
    pub used: Vec<u32>,
    pub result: FighterResult,
}

impl Unit {
    pub fn standing(&self) -> bool {
        !self.down && self.t.hp > 0
    }
    pub fn bloodied(&self) -> bool {
        self.t.hp > 0 && 2 * self.t.hp <= self.t.max_hp
    }
}

/// What a fighter does with an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Choice {
    /// Uses ability `ability` against `targets` (none for an ability on its user alone).
    Use { ability: usize, targets: Vec<usize> },
    /// Rescue (1 action): "Help an adjacent defeated ally. They end the incapacitated state on
    /// themselves and heal to full hit points, minus any wounds they've taken."
    Rescue(usize),
}

/// A fight under way.
pub(super) struct Play<'p> {
    pub p: &'p Prepared,
    pub roller: &'p mut Roller,
    pub rng: DiceRng,
    pub fight: Fight,
    pub units: Vec<Unit>,
    effects: Vec<combat::Effect>,
    trace: Option<Vec<TraceStep>>,
    /// Events played, against a runaway fight.
    events: u32,
    /// The round of the last turn begun: the round a fight was decided in (the turn that
    /// decides it may close the round, and the reducer then counts the next).
    turn_round: u32,
}

/// Turn-order events a fight may take at most per round and fighter (a turn is two or three,
/// a defeat or a rescue one more), before it is stopped as a fault.
const EVENTS_PER_ROUND_AND_FIGHTER: u32 = 64;

impl<'p> Play<'p> {
    pub fn new(p: &'p Prepared, roller: &'p mut Roller, seed: u64, trace: bool) -> Result<Self> {
        let units = p
            .request
            .fighters
            .iter()
            .enumerate()
            .map(|(i, f)| unit(f, &p.abilities[i], p.start_down[i]))
            .collect();
        Ok(Self {
            p,
            roller,
            rng: DiceRng::from_seed(seed & MAX_SEED)?,
            fight: p.start.clone(),
            units,
            effects: Vec::new(),
            trace: trace.then(|| {
                p.opening
                    .iter()
                    .map(|e| TraceStep::Combat { event: e.clone() })
                    .collect()
            }),
            events: 0,
            turn_round: p.start.round,
        })
    }

    fn record(&mut self, step: impl FnOnce(&Self) -> TraceStep) {
        if self.trace.is_some() {
            let step = step(self);
            if let Some(t) = &mut self.trace {
                t.push(step);
            }
        }
    }

    fn id(&self, u: usize) -> &str {
        &self.p.request.fighters[u].id
    }

    /// Sends the reducer an event and runs what it asks for: the end of a turn, a round's start.
    pub fn event(&mut self, e: TraceEvent) -> Result<()> {
        self.events += 1;
        let most = EVENTS_PER_ROUND_AND_FIGHTER
            .saturating_mul(self.units.len() as u32 + 1)
            .saturating_mul(self.p.request.options.max_rounds + 1);
        if self.events > most {
            return Err(Error::request(
                "internal: a forecast fight took more turn-order events than its rounds allow",
            ));
        }
        // the trace keeps the event as sent; without one, it is the reducer's as it stands
        let event = if self.trace.is_some() {
            let event = e.event();
            self.record(|_| TraceStep::Combat { event: e });
            event
        } else {
            e.into_event()
        };
        let mut effects = std::mem::take(&mut self.effects);
        effects.clear();
        combat::play(&mut self.fight, &event, &mut effects)?;
        for effect in &effects {
            match effect {
                Effect::TurnEnded { id } => {
                    let owner = self.p.index.get(id.as_str()).copied();
                    self.end_of_turn(owner)?;
                }
                Effect::RoundStarted { .. } => self.round_started(),
                _ => {}
            }
        }
        self.effects = effects;
        Ok(())
    }

    /// Whether a side has won: the party when no foe stands and a party fighter does, the foes
    /// the other way round, neither when both fell.
    pub fn decided(&self) -> Option<Outcome> {
        let (mut party, mut foes) = (false, false);
        for u in &self.units {
            if u.standing() {
                match u.side {
                    Side::Party => party = true,
                    Side::Foes => foes = true,
                }
            }
        }
        match (party, foes) {
            (true, true) => None,
            (true, false) => Some(Outcome::Party),
            (false, true) => Some(Outcome::Foes),
            (false, false) => Some(Outcome::Unfinished),
        }
    }

    /// Plays the fight to its end.
    pub fn run(mut self) -> Result<(FightResult, Option<Trace>)> {
        let max = self.p.request.options.max_rounds;
        // a turn open in the running combat is played from its start
        if let Some(turn) = self.fight.current.clone() {
            if let Some(&u) = self.p.index.get(turn.id.as_str()) {
                if self.decided().is_none() {
                    self.turn(u)?;
                }
            }
            self.event(TraceEvent::EndTurn)?;
        }
        let outcome = loop {
            if let Some(outcome) = self.decided() {
                break outcome;
            }
            if self.fight.round > max {
                break Outcome::Unfinished;
            }
            let Some(next) = self.fight.next else {
                break Outcome::Unfinished;
            };
            let side = next.side;
            // the side's first combatant in the tracker's order with a turn of this phase left
            // (`turns`, the reducer's turns a round, is kept up to date after every event: the
            // reducer's `regular_left` from it, without counting the player characters again)
            let pick = self.fight.combatants.values().find(|c| {
                c.entry.side == side
                    && match next.phase {
                        Phase::Regular => combat::regular_left(c, c.turns) > 0,
                        Phase::Slow => !c.defeated && c.slow > 0,
                    }
            });
            let Some(c) = pick else {
                return Err(Error::request(
                    "internal: the reducer named a side with no combatant to act",
                ));
            };
            let id = c.entry.id.clone();
            if next.phase == Phase::Regular && c.delay {
                // a pending delay: "your next turn must be slow"
                self.event(TraceEvent::GoSlow { id })?;
                continue;
            }
            self.turn_round = self.fight.round;
            let u = self.p.index.get(id.as_str()).copied();
            self.event(TraceEvent::BeginTurn { id })?;
            if let Some(u) = u {
                self.turn(u)?;
            }
            self.event(TraceEvent::EndTurn)?;
        };
        let rounds = match outcome {
            Outcome::Unfinished => self.fight.round.min(max),
            _ => self.turn_round,
        }
        .max(1);
        for u in &mut self.units {
            u.result.fallen = u.t.fallen;
        }
        let fighters = self.units.iter().map(|u| u.result).collect();
        let trace = self.trace.take().map(|steps| Trace {
            fight: 0,
            seed: self.rng.seed(),
            state: self.p.request.combat.clone(),
            outcome,
            rounds,
            steps,
            fighters: self
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| TraceFighter {
                    id: self.id(i).to_string(),
                    hp: u.t.hp,
                    vigor: u.t.vigor,
                    wounds: u.t.wounds,
                    resolve: u.t.resolve,
                    statuses: u.t.statuses.clone(),
                    defeated: u.down,
                })
                .collect(),
        });
        Ok((
            FightResult {
                outcome,
                rounds,
                fighters,
            },
            trace,
        ))
    }

    /// A fighter's turn: two actions (a 2-action ability, or two 1-action ones, never the same
    /// ability twice), as its side's policy chooses; Stunned and End turn end it early.
    fn turn(&mut self, u: usize) -> Result<()> {
        if !self.units[u].standing() {
            return Ok(());
        }
        let mut left = 2u8;
        let mut used: Vec<usize> = Vec::with_capacity(2);
        let mut rescued = false;
        while left > 0 {
            let Some(choice) = self.choose(u, left, &used, rescued) else {
                break;
            };
            // "Stunned: Your next ability used ends your turn, then end this status"
            let stunned = affects(&self.units[u].t.statuses, "stunned");
            let ends = match choice {
                Choice::Rescue(ally) => {
                    rescued = true;
                    left -= 1;
                    self.rescue(u, ally)?;
                    false
                }
                Choice::Use { ability, targets } => {
                    used.push(ability);
                    let p = self.p;
                    let spec = &p.abilities[u][ability].spec;
                    left = left.saturating_sub(spec.actions.cost().unwrap_or(2));
                    let ends = spec.has(Tag::EndTurn);
                    self.use_ability(u, ability, &targets)?;
                    ends
                }
            };
            self.after_ability(u);
            if ends || stunned || !self.units[u].standing() || self.decided().is_some() {
                break;
            }
        }
        Ok(())
    }

    /// The statuses left once `u` used an ability (Stunned ends, Stealth breaks).
    fn after_ability(&mut self, u: usize) {
        let before = &self.units[u].t.statuses;
        // what `after_ability` takes off (nothing else changes: the common case, without a copy)
        if !before.iter().any(|s| s == "stunned" || s == "stealth") {
            return;
        }
        let after = after_ability(before, false);
        if after.len() == before.len() {
            return;
        }
        let gone: Vec<String> = before
            .iter()
            .filter(|s| !after.contains(s))
            .cloned()
            .collect();
        self.units[u].t.statuses = after;
        for status in gone {
            self.record(|p| TraceStep::Status {
                target: p.id(u).to_string(),
                status,
                added: false,
                why: "afterAbility",
            });
        }
    }

    /// Whether `u` may use its ability `a` with `left` actions this turn, `used` already used.
    pub fn usable(&self, u: usize, a: usize, left: u8, used: &[usize]) -> bool {
        let planned = &self.p.abilities[u][a];
        let spec = &planned.spec;
        let unit = &self.units[u];
        let Some(cost) = spec.actions.cost() else {
            return false;
        };
        if cost > left || used.contains(&a) || planned.aim == Aim::Unplayed {
            return false;
        }
        if spec.charges.max > 0 && unit.charges[a] == 0 {
            return false;
        }
        if spec.limit.per != Per::Unlimited && unit.used[a] > 0 {
            return false;
        }
        if spec.resolve_cost > 0 {
            if unit.side != Side::Party {
                return false;
            }
            let personal = unit.t.resolve.unwrap_or(0).max(0) as u64;
            if personal + u64::from(self.fight.party_resolve) < u64::from(spec.resolve_cost) {
                return false;
            }
        }
        true
    }

    /// The standing fighters on the other side of `u`, in order.
    pub fn foes_of(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[u].side;
        (0..self.units.len())
            .filter(move |&t| self.units[t].side != side && self.units[t].standing())
    }

    /// The standing fighters on the side of `u` (itself included), in order.
    pub fn allies_of(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[u].side;
        (0..self.units.len())
            .filter(move |&t| self.units[t].side == side && self.units[t].standing())
    }

    /// Uses ability `a` of `u` against `targets`: its cost paid, then per target the attack and
    /// its damage, the save, and what the ability's parts put on the targets and the user.
    fn use_ability(&mut self, u: usize, a: usize, targets: &[usize]) -> Result<()> {
        let p = self.p;
        let spec: &AbilitySpec = &p.abilities[u][a].spec;
        self.record(|p| TraceStep::Use {
            by: p.id(u).to_string(),
            ability: a,
            name: spec.name.clone(),
            targets: targets.iter().map(|&t| p.id(t).to_string()).collect(),
        });
        if spec.resolve_cost > 0 {
            self.limit_break(u, spec.resolve_cost)?;
        }
        let unit = &mut self.units[u];
        if spec.charges.max > 0 {
            unit.charges[a] = unit.charges[a].saturating_sub(1);
        }
        if spec.limit.per != Per::Unlimited {
            unit.used[a] += 1;
        }
        let gamble = if spec.parts.iter().any(|p| p.trigger == Trigger::Gamble) {
            let slot = self.roller.gamble()?;
            let rolled = self.roll(slot, u, None, Role::Gamble, None)?.total;
            Some(rolled.clamp(1, 6) as u8)
        } else {
            None
        };
        // an ability without parts puts nothing anywhere: its targets are not kept for
        // `icon.ability`
        let parts = !spec.parts.is_empty();
        let user_statuses = if parts {
            self.units[u].t.statuses.clone()
        } else {
            Vec::new()
        };
        let user_bloodied = self.units[u].bloodied();
        let room = if parts { targets.len() } else { 0 };
        let (mut aimed, mut struck) = (Vec::with_capacity(room), Vec::with_capacity(room));
        for &t in targets {
            if !self.units[t].standing() {
                continue;
            }
            let target = self.strike(u, spec, t, parts)?;
            if parts {
                aimed.push(t);
                struck.push(target);
            }
            if !self.units[u].standing() {
                break;
            }
        }
        if !parts {
            return Ok(());
        }
        let request = Ability {
            parts: spec.parts.iter().map(|p| p.part()).collect(),
            user: ability::User {
                statuses: user_statuses,
                bloodied: user_bloodied,
                slow_turn: self.fight.current.as_ref().is_some_and(|t| t.slow),
                heroic: false,
            },
            gamble,
            targets: struck,
        };
        let (total, outcome) = request.apply()?;
        self.record(|_| TraceStep::Rule {
            target: None,
            request: TraceRequest::Ability(request),
            total,
            roll: None,
        });
        for (t, fired) in aimed.iter().zip(&outcome.targets) {
            for part in &fired.parts {
                if part.status.is_some_and(|l| l.lands) {
                    let spec_part = &spec.parts[part.index];
                    self.add_status(*t, &spec_part.status, spec_part.duration, u);
                }
            }
        }
        for part in &outcome.user {
            if part.status.is_some_and(|l| l.lands) && self.units[u].standing() {
                let spec_part = &spec.parts[part.index];
                self.add_status(u, &spec_part.status, spec_part.duration, u);
            }
        }
        Ok(())
    }

    /// One target of a use: its attack and damage (with Counter's damage back), and its save.
    /// Returns the target as `icon.ability` reads it (its statuses only when `parts`: the
    /// ability has parts for `icon.ability`).
    fn strike(
        &mut self,
        u: usize,
        spec: &AbilitySpec,
        t: usize,
        parts: bool,
    ) -> Result<ability::Target> {
        let from_foe = self.units[u].side != self.units[t].side;
        let bloodied = self.units[t].bloodied();
        let hp_before = self.units[t].t.hp;
        let mut target = ability::Target {
            attack: None,
            exceed: false,
            save: None,
            bloodied,
            slain: false,
            statuses: Vec::new(),
            mob: self.p.request.fighters[t].template == Some(Template::Mob),
            summon: false,
            from_foe,
        };
        let save_needed =
            spec.save.is_some() || spec.attack.as_ref().is_some_and(|a| a.save_for_half);
        let saved = if save_needed {
            let slot = self.roller.save(&save_request(spec.save))?;
            let success = match self.roll(slot, u, Some(t), Role::Save, None)?.detail {
                Detail::IconSave(s) => s.success,
                _ => false,
            };
            target.save = Some(if success {
                SaveResult::Saved
            } else {
                SaveResult::Failed
            });
            success
        } else {
            false
        };
        if let Some(attack) = &spec.attack {
            self.end_hatred_of(u, t);
            let unit = &self.units[u];
            let by = Attacker::of(&self.p.request.fighters[u], &unit.t.statuses);
            let evasion = self.units[t]
                .t
                .statuses
                .iter()
                .any(|s| s.trim_end_matches('+') == "evasion");
            let request = attack_request(&by, attack, self.p.request.fighters[t].defense, evasion);
            let slot = self.roller.attack(&request)?;
            let Detail::IconAttack(outcome) =
                self.roll(slot, u, Some(t), Role::Attack, None)?.detail
            else {
                return Err(Error::request(
                    "internal: an attack roll without its outcome",
                ));
            };
            let result = attack_result(&outcome);
            target.attack = Some(result);
            target.exceed = outcome.exceed;
            if let Some(damage) = damage_request(&by, attack, result) {
                let slot = self.roller.damage(&damage)?;
                let amount = self.roll(slot, u, Some(t), Role::Damage, None)?.total;
                let roll = self.trace.as_ref().map(|s| s.len() - 1);
                let hated = self.units[u].hates == Some(t);
                let saved_half = saved && attack.save_for_half;
                let request = apply_request(
                    &by,
                    attack,
                    result,
                    spec.area || spec.has(Tag::Area),
                    self.take_target(t),
                    self.units[t].side,
                    amount.max(0),
                    saved_half,
                    hated,
                );
                let (taken, counter) = self.apply_damage(t, request, roll)?;
                if from_foe {
                    self.units[u].result.dealt += taken;
                }
                if counter > 0 && self.units[u].standing() {
                    let back = ApplyDamage {
                        target: self.take_target(u),
                        amount: counter,
                        source: Source::Effect,
                        pierce: false,
                        divine: false,
                        attacker_weakened: false,
                        attacker_pacified: false,
                        attacker_hatred: false,
                        cover: false,
                        from_foe: true,
                        ability: false,
                        saved_half: false,
                        vigilance: 0,
                        floor: HpFloor::Zero,
                        true_strike: false,
                        terrain_taken_this_turn: false,
                    };
                    let (taken, _) = self.apply_damage(u, back, None)?;
                    if from_foe {
                        self.units[t].result.dealt += taken;
                    }
                }
            }
        }
        target.slain = hp_before > 0 && self.units[t].t.hp == 0;
        if parts {
            target.statuses = self.units[t].t.statuses.clone();
        }
        Ok(target)
    }

    /// Hatred of X: "End this status at the end of your turn, or if foe X becomes immune to
    /// damage or un-targetable" (`icon.hatred`), asked when the hater attacks X, as the attack
    /// dialog does.
    fn end_hatred_of(&mut self, u: usize, t: usize) {
        if self.units[u].hates != Some(t) || !self.units[u].t.statuses.iter().any(|s| s == "hatred")
        {
            return;
        }
        let rule = Hatred {
            foe: self.units[t].t.statuses.clone(),
            targetable: self.units[t].standing(),
            ongoing: false,
        };
        if rule.apply().is_ok_and(|(_, o)| o.ends) {
            self.units[u].hates = None;
            self.remove_status(u, "hatred", "hatredEnds");
        }
    }

    /// `t`'s health for a request that replaces it (`icon.applyDamage`'s target): its statuses
    /// move into the request rather than being copied, and the outcome's target takes their place.
    fn take_target(&mut self, t: usize) -> Target {
        let statuses = std::mem::take(&mut self.units[t].t.statuses);
        Target {
            statuses,
            ..self.units[t].t.clone()
        }
    }

    /// Applies damage through `icon.applyDamage` (its target is `t`'s health, which the outcome
    /// replaces); a fighter it defeats leaves the turn order.
    /// Returns the damage taken and Counter's damage back.
    fn apply_damage(
        &mut self,
        t: usize,
        request: ApplyDamage,
        roll: Option<usize>,
    ) -> Result<(i64, i64)> {
        let was = request.target.hp;
        let (taken, outcome) = request.apply()?;
        let counter = outcome.counter;
        self.record(|p| TraceStep::Rule {
            target: Some(p.id(t).to_string()),
            request: TraceRequest::ApplyDamage(request),
            total: taken,
            roll,
        });
        self.units[t].t = outcome.target;
        // bloodied or worse: a blow from above half to 0 counts
        if 2 * self.units[t].t.hp <= self.units[t].t.max_hp {
            self.units[t].result.bloodied = true;
        }
        if was > 0 && self.units[t].t.hp == 0 {
            self.defeated(t)?;
        }
        Ok((taken, counter))
    }

    /// `t` fell: "Defeated characters clear all statuses, marks, vigor, and other effects on
    /// them" (the core's applyDamage did), it leaves the turn order (the tracker marks it
    /// defeated), and what it held up ends: the ongoing statuses it caused, a Hatred of it.
    fn defeated(&mut self, t: usize) -> Result<()> {
        self.units[t].result.defeated = true;
        self.units[t].turn_end.clear();
        self.units[t].hates = None;
        if !self.units[t].down {
            self.units[t].down = true;
            let id = self.id(t).to_string();
            self.event(TraceEvent::SetDefeated { id, defeated: true })?;
        }
        for (holder, status) in std::mem::take(&mut self.units[t].caused) {
            if self.units[holder].t.statuses.contains(&status) {
                self.units[holder].t.statuses.retain(|s| *s != status);
                self.record(|p| TraceStep::Status {
                    target: p.id(holder).to_string(),
                    status,
                    added: false,
                    why: "causeDefeated",
                });
            }
        }
        for h in 0..self.units.len() {
            if self.units[h].hates == Some(t) {
                self.units[h].hates = None;
                if self.units[h].t.statuses.iter().any(|s| s == "hatred") {
                    self.remove_status(h, "hatred", "hatredEnds");
                }
            }
        }
        Ok(())
    }

    /// Puts a status a part landed on `holder`, lasting as the part says: `save` bare (saved
    /// against at the end of its turns, unless a positive effect), `turn` bare until the end of
    /// its next turn, `ongoing` as `id+` while `by` stands, `cure` as a blight (`id+`, no save).
    fn add_status(&mut self, holder: usize, status: &str, duration: Duration, by: usize) {
        if status.is_empty()
            || self.units[holder]
                .t
                .statuses
                .iter()
                .any(|s| s.trim_end_matches('+') == status)
        {
            return;
        }
        let stored = match duration {
            Duration::Save | Duration::Turn => status.to_string(),
            Duration::Ongoing | Duration::Cure => format!("{status}+"),
        };
        match duration {
            Duration::Turn => self.units[holder].turn_end.push(stored.clone()),
            Duration::Ongoing if by != holder => {
                self.units[by].caused.push((holder, stored.clone()))
            }
            _ => {}
        }
        if status == "hatred" && by != holder {
            self.units[holder].hates = Some(by);
        }
        self.units[holder].t.statuses.push(stored.clone());
        self.record(|p| TraceStep::Status {
            target: p.id(holder).to_string(),
            status: stored,
            added: true,
            why: "landed",
        });
    }

    fn remove_status(&mut self, holder: usize, stored: &str, why: &'static str) {
        let before = self.units[holder].t.statuses.len();
        self.units[holder].t.statuses.retain(|s| s != stored);
        self.units[holder].turn_end.retain(|s| s != stored);
        if self.units[holder].t.statuses.len() != before {
            self.record(|p| TraceStep::Status {
                target: p.id(holder).to_string(),
                status: stored.to_string(),
                added: false,
                why,
            });
        }
    }

    /// Rescue: `icon.heal` "rescue" on the ally, who rejoins the turn order.
    fn rescue(&mut self, u: usize, ally: usize) -> Result<()> {
        let _ = u;
        let request = Heal {
            target: self.units[ally].t.clone(),
            healing: Healing::Rescue,
        };
        let (total, outcome) = request.apply()?;
        let id = self.id(ally).to_string();
        self.record(|_| TraceStep::Rule {
            target: Some(id.clone()),
            request: TraceRequest::Heal(request),
            total,
            roll: None,
        });
        self.units[ally].t = outcome.target;
        if self.units[ally].bloodied() {
            self.units[ally].result.bloodied = true;
        }
        self.units[ally].down = false;
        self.event(TraceEvent::SetDefeated {
            id,
            defeated: false,
        })
    }

    /// A limit break's cost: personal resolve first, then the party's (`icon.limitBreak`); the
    /// party's share leaves the tracker's party resolve.
    fn limit_break(&mut self, u: usize, cost: u32) -> Result<()> {
        let personal = self.units[u].t.resolve.unwrap_or(0).clamp(0, 1000) as u32;
        let party = self.fight.party_resolve.min(1000);
        let from_party = cost.saturating_sub(personal);
        let request = LimitBreak {
            cost,
            personal,
            party,
            from_party,
            give: None,
        };
        let (total, outcome) = request.apply()?;
        let id = self.id(u).to_string();
        self.record(|_| TraceStep::Rule {
            target: Some(id),
            request: TraceRequest::LimitBreak(request),
            total,
            roll: None,
        });
        self.units[u].t.resolve = Some(i64::from(outcome.personal));
        if from_party > 0 {
            self.event(TraceEvent::AdjustResolve {
                by: -(from_party as i32),
            })?;
        }
        Ok(())
    }

    /// The end of a turn as the module runs it: charges that come back at their owner's turn's
    /// end and every once-a-turn mark; the owner's statuses that last to the end of its turn;
    /// Defiance's immunity on every fighter; the owner's Hatred; its Regeneration
    /// (`icon.heal`); then a save (`icon.save`) against each status it can save against.
    fn end_of_turn(&mut self, owner: Option<usize>) -> Result<()> {
        let resets = if self.p.turn_resets {
            self.units.len()
        } else {
            0
        };
        for (i, unit) in self.units.iter_mut().enumerate().take(resets) {
            for (a, planned) in self.p.abilities[i].iter().enumerate() {
                let spec = &planned.spec;
                if owner == Some(i) && spec.charges.recharge == Recharge::Turn {
                    unit.charges[a] = spec.charges.max;
                }
                if spec.limit.per == Per::Turn {
                    unit.used[a] = 0;
                }
            }
        }
        if let Some(o) = owner {
            for status in std::mem::take(&mut self.units[o].turn_end) {
                self.remove_status(o, &status, "turnEnd");
            }
        }
        for i in 0..self.units.len() {
            if self.units[i].t.statuses.iter().any(|s| s == "immune") {
                self.remove_status(i, "immune", "immuneEnds");
            }
        }
        let Some(o) = owner else {
            return Ok(());
        };
        if self.units[o].t.statuses.iter().any(|s| s == "hatred") {
            self.units[o].hates = None;
            self.remove_status(o, "hatred", "turnEnd");
        }
        if !self.units[o].standing() {
            return Ok(());
        }
        if self.units[o]
            .t
            .statuses
            .iter()
            .any(|s| s.trim_end_matches('+') == "regeneration")
        {
            let request = Heal {
                target: self.units[o].t.clone(),
                healing: Healing::Regeneration,
            };
            let (total, outcome) = request.apply()?;
            if total > 0 {
                let id = self.id(o).to_string();
                self.record(|_| TraceStep::Rule {
                    target: Some(id),
                    request: TraceRequest::Heal(request),
                    total,
                    roll: None,
                });
                self.units[o].t = outcome.target;
            }
        }
        for status in saveable(&self.units[o].t.statuses) {
            let slot = self.roller.save(&save_request(None))?;
            let saved = match self
                .roll(slot, o, None, Role::StatusSave, Some(&status))?
                .detail
            {
                Detail::IconSave(s) => s.success,
                _ => false,
            };
            if saved {
                self.remove_status(o, &status, "saved");
            }
        }
        Ok(())
    }

    /// A round starts: charges that come back each round, and once-a-round marks.
    fn round_started(&mut self) {
        if !self.p.round_resets {
            return;
        }
        for (i, unit) in self.units.iter_mut().enumerate() {
            for (a, planned) in self.p.abilities[i].iter().enumerate() {
                let spec = &planned.spec;
                if spec.charges.recharge == Recharge::Round {
                    unit.charges[a] = spec.charges.max;
                }
                if spec.limit.per == Per::Round {
                    unit.used[a] = 0;
                }
            }
        }
    }

    /// Rolls the request in `slot` (noted in the trace): its total and the kind's outcome.
    fn roll(
        &mut self,
        slot: usize,
        by: usize,
        target: Option<usize>,
        role: Role,
        status: Option<&str>,
    ) -> Result<Rolled> {
        let rolled = self.roller.roll(slot, &mut self.rng)?;
        self.note_roll(slot, by, target, role, status, rolled.total);
        Ok(rolled)
    }

    fn note_roll(
        &mut self,
        slot: usize,
        by: usize,
        target: Option<usize>,
        role: Role,
        status: Option<&str>,
        total: i64,
    ) {
        if self.trace.is_none() {
            return;
        }
        let request = match self.roller.request(slot) {
            crate::request::Request::IconAttack(a) => TraceRequest::Attack(a.clone()),
            crate::request::Request::IconDamage(d) => TraceRequest::Damage(d.clone()),
            crate::request::Request::IconSave(s) => TraceRequest::Save(s.clone()),
            crate::request::Request::Dice { formula } => TraceRequest::Dice {
                formula: formula.clone(),
            },
            _ => return,
        };
        let step = TraceStep::Roll {
            by: self.id(by).to_string(),
            target: target.map(|t| self.id(t).to_string()),
            role,
            status: status.map(str::to_string),
            request,
            faces: self.roller.faces(slot).to_vec(),
            total,
        };
        if let Some(t) = &mut self.trace {
            t.push(step);
        }
    }
}

/// A fighter as a fight starts: its health for the rules, its abilities' charges and marks.
fn unit(f: &Fighter, abilities: &[super::prepare::Planned], down: bool) -> Unit {
    let t = Target {
        hp: f.hp,
        max_hp: f.max_hp,
        vigor: f.vigor,
        armor: f.armor,
        wounds: f.wounds,
        is_player_character: f.is_player_character,
        statuses: f.statuses.clone(),
        resolve: f.is_player_character.then_some(i64::from(f.resolve)),
        defeated: f.hp == 0,
        fallen: f.wounds >= 4,
        bloodied: f.hp > 0 && 2 * f.hp <= f.max_hp,
    };
    let bloodied = t.bloodied;
    Unit {
        t,
        side: f.side,
        down,
        turn_end: f
            .ends_at_turn_end
            .iter()
            .filter(|s| f.statuses.contains(s))
            .cloned()
            .collect(),
        caused: Vec::new(),
        hates: None,
        charges: abilities.iter().map(|a| a.spec.charges.value).collect(),
        used: abilities.iter().map(|a| a.spec.limit.used).collect(),
        result: FighterResult {
            bloodied,
            ..FighterResult::default()
        },
    }
}

/// Whether `ability`'s parts put a status on its targets that is a foe's to suffer (else it aims
/// at allies, when it has no attack).
pub(super) fn aims_at_foes(spec: &AbilitySpec) -> bool {
    use crate::rulesets::icon::situation::POSITIVE_EFFECTS;
    if spec.attack.is_some() || spec.save.is_some() {
        return true;
    }
    let on_targets: Vec<&str> = spec
        .parts
        .iter()
        .filter(|p| p.to == To::Target && !p.status.is_empty())
        .map(|p| p.status.as_str())
        .collect();
    !on_targets.is_empty() && on_targets.iter().any(|s| !POSITIVE_EFFECTS.contains(s))
}
