//! A forecast made ready to play: the request checked, each fighter's abilities listed (the
//! basic attacks first), how each is aimed, the fight every fight starts from (the running
//! combat's, or a planned one's `start`), and the exact expected damage of every ability against
//! every foe, which the policies rank by and the report sums.

use super::dice::Roller;
use super::expect::{expected, Attacker, Exact};
use super::input::{
    AbilitySpec, Options, Per, Recharge, Request, Tag, MAX_AREA_TARGETS, MAX_FIGHTER_FIGHTS,
    MAX_FIGHTS, MAX_ROUNDS,
};
use super::play::aims_at_foes;
use super::trace::TraceEvent;
use crate::combat::{self, CombatState, Entry, Fight, Side};
use crate::error::{Error, Result};
use crate::rulesets::icon::effects::affects;
type HashMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;

/// How an ability is aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// At foes (its attack, its save, or a status a foe suffers).
    Foes,
    /// At allies (a positive status on its targets).
    Allies,
    /// On its user alone (its parts put something on the user only).
    User,
    /// Not played: a free action or an interrupt, a summon, terrain, or nothing the forecast can
    /// play (no attack, save or status).
    Unplayed,
}

/// An ability as the forecast plays it.
#[derive(Debug, Clone)]
pub struct Planned {
    pub spec: AbilitySpec,
    pub aim: Aim,
}

/// A forecast ready to play.
#[derive(Debug)]
pub struct Prepared {
    pub request: Request,
    /// Each fighter's abilities (Light and Heavy Attack first, when it has them).
    pub abilities: Vec<Vec<Planned>>,
    /// Each fighter is out of the fight as it starts (defeated in the running combat, or 0 HP).
    pub start_down: Vec<bool>,
    /// The fight every fight starts from.
    pub start: Fight,
    /// The events that made `start` (a planned fight's `start`; none for a running combat).
    pub opening: Vec<TraceEvent>,
    /// Fighter index by combatant id.
    pub index: HashMap<String, usize>,
    /// `expect[u][a][t]`: the damage fighter `t` is expected to take from one use of `u`'s
    /// ability `a`, exactly where it can be (zero for an ally, or an ability without attack).
    pub expect: Vec<Vec<Vec<Exact>>>,
    /// `ranked[u][a]`: the fighters on the other side of `u`, by what `u`'s ability `a` is
    /// expected to do to them, most first (the first of equals first): an area's extra targets
    /// are the standing ones in this order, worked out once rather than at every action.
    pub ranked: Vec<Vec<Vec<usize>>>,
    /// Each fighter's expected damage a round as the forecast starts (see [`per_round`]).
    pub per_round: Vec<Exact>,
    /// Each fighter's side as 0 (party) or 1 (foes), for the tally.
    pub sides: Vec<usize>,
    /// Some ability comes back or clears at the end of a turn (charges or a once-a-turn limit),
    /// or at a round's start: the fights skip the walk over every ability when none does.
    pub turn_resets: bool,
    pub round_resets: bool,
}

/// Checks `request` and prepares it, with the roller its fights roll through.
pub fn prepare(request: Request) -> Result<(Prepared, Roller)> {
    check_options(&request.options, request.fighters.len())?;
    if request.fighters.is_empty() {
        return Err(Error::request("a forecast needs at least one fighter"));
    }
    let mut index = HashMap::with_capacity_and_hasher(request.fighters.len(), Default::default());
    for (i, f) in request.fighters.iter().enumerate() {
        if f.id.is_empty() || f.id.len() > combat::MAX_ID_BYTES {
            return Err(Error::request(format!(
                "a fighter's id must be 1 to {} bytes",
                combat::MAX_ID_BYTES
            )));
        }
        if index.insert(f.id.clone(), i).is_some() {
            return Err(Error::request(format!(
                "fighter {} is listed twice in the forecast",
                f.id
            )));
        }
        check_fighter(f)?;
    }
    for side in [Side::Party, Side::Foes] {
        if !request.fighters.iter().any(|f| f.side == side) {
            return Err(Error::request(format!(
                "a forecast needs a fighter on each side: there is none in the {}",
                side.name()
            )));
        }
    }
    let (start, opening) = match &request.combat {
        Some(text) => {
            let state = CombatState::from_json_text(text)?;
            state.check()?;
            state
                .now
                .validate()
                .map_err(|e| Error::request(format!("invalid combat state: {}", e.message())))?;
            if state.now.ended {
                return Err(Error::request(
                    "the combat has ended: there is nothing to forecast",
                ));
            }
            for f in &request.fighters {
                let Some(c) = state.now.get(&f.id) else {
                    return Err(Error::request(format!(
                        "fighter {} is not a combatant of this combat",
                        f.id
                    )));
                };
                if c.entry.side != f.side {
                    return Err(Error::request(format!(
                        "fighter {} is on the {} in the forecast but the {} in the combat",
                        f.id,
                        f.side.name(),
                        c.entry.side.name()
                    )));
                }
            }
            (state.now, Vec::new())
        }
        None => {
            let combatants: Vec<Entry> = request
                .fighters
                .iter()
                .map(|f| Entry {
                    id: f.id.clone(),
                    side: f.side,
                    is_player_character: f.is_player_character,
                    template: f.template,
                    can_slow: f.can_slow,
                    summoner: None,
                })
                .collect();
            let event = combat::Event::Start {
                combatants: combatants.clone(),
            };
            let (Some(state), _) = combat::apply(None, &event)? else {
                return Err(Error::request("internal: a planned fight did not start"));
            };
            (state.now, vec![TraceEvent::Start { combatants }])
        }
    };
    let start_down: Vec<bool> = request
        .fighters
        .iter()
        .map(|f| f.hp <= 0 || start.get(&f.id).is_some_and(|c| c.defeated))
        .collect();
    let abilities: Vec<Vec<Planned>> = request
        .fighters
        .iter()
        .map(|f| {
            let basic = if f.basic_attacks {
                vec![AbilitySpec::light(), AbilitySpec::heavy()]
            } else {
                Vec::new()
            };
            basic
                .into_iter()
                .chain(f.abilities.iter().cloned())
                .map(|spec| Planned {
                    aim: aim(&spec),
                    spec,
                })
                .collect()
        })
        .collect();
    let mut roller = Roller::default();
    let mut expect = Vec::with_capacity(abilities.len());
    for (u, f) in request.fighters.iter().enumerate() {
        let by = Attacker::of(f, &f.statuses);
        let mut rows = Vec::with_capacity(abilities[u].len());
        for planned in &abilities[u] {
            let mut row = Vec::with_capacity(request.fighters.len());
            for t in &request.fighters {
                let e = match (&planned.spec.attack, planned.aim) {
                    (Some(attack), Aim::Foes) if t.side != f.side => expected(
                        &mut roller,
                        &by,
                        attack,
                        planned.spec.save,
                        planned.spec.area || planned.spec.has(Tag::Area),
                        t,
                    )?,
                    _ => Exact::ZERO,
                };
                row.push(e);
            }
            rows.push(row);
        }
        expect.push(rows);
    }
    let ranked = expect
        .iter()
        .enumerate()
        .map(|(u, rows)| {
            rows.iter()
                .map(|row: &Vec<Exact>| {
                    let mut order: Vec<usize> = (0..request.fighters.len())
                        .filter(|&t| request.fighters[t].side != request.fighters[u].side)
                        .collect();
                    order.sort_by(|&x, &y| row[y].value.total_cmp(&row[x].value).then(x.cmp(&y)));
                    order
                })
                .collect()
        })
        .collect();
    let sides = request
        .fighters
        .iter()
        .map(|f| match f.side {
            Side::Party => 0,
            Side::Foes => 1,
        })
        .collect();
    let mut prepared = Prepared {
        request,
        abilities,
        start_down,
        start,
        opening,
        index,
        expect,
        ranked,
        per_round: Vec::new(),
        sides,
        turn_resets: false,
        round_resets: false,
    };
    let specs = || prepared.abilities.iter().flatten().map(|a| &a.spec);
    prepared.turn_resets =
        specs().any(|s| s.charges.recharge == Recharge::Turn || s.limit.per == Per::Turn);
    prepared.round_resets =
        specs().any(|s| s.charges.recharge == Recharge::Round || s.limit.per == Per::Round);
    prepared.per_round = (0..prepared.request.fighters.len())
        .map(|u| per_round(&prepared, u))
        .collect();
    Ok((prepared, roller))
}

/// The bounds of the options: fights, rounds, area targets, and fights × fighters.
pub fn check_options(o: &Options, fighters: usize) -> Result<()> {
    if o.fights == 0 || o.fights > MAX_FIGHTS {
        return Err(Error::request(format!(
            "a forecast plays 1 to {MAX_FIGHTS} fights (asked: {})",
            o.fights
        )));
    }
    if o.max_rounds == 0 || o.max_rounds > MAX_ROUNDS {
        return Err(Error::request(format!(
            "a forecast plays a fight for 1 to {MAX_ROUNDS} rounds (asked: {})",
            o.max_rounds
        )));
    }
    if o.area_targets == 0 || o.area_targets > MAX_AREA_TARGETS {
        return Err(Error::request(format!(
            "an area ability catches 1 to {MAX_AREA_TARGETS} foes in a forecast (asked: {})",
            o.area_targets
        )));
    }
    let work = u64::from(o.fights) * fighters as u64;
    if work > MAX_FIGHTER_FIGHTS {
        return Err(Error::request(format!(
            "a forecast plays at most {MAX_FIGHTER_FIGHTS} fighter-fights (fights times fighters): {} fights of {fighters} fighters is {work}",
            o.fights
        )));
    }
    Ok(())
}

/// Numbers a fight can hold: HP, defense, dice and fray within the core's own limits.
fn check_fighter(f: &super::input::Fighter) -> Result<()> {
    let bad = |what: &str| Err(Error::request(format!("fighter {}: {what}", f.id)));
    if f.max_hp <= 0 || f.max_hp > 100_000 {
        return bad("max HP must be 1 to 100000");
    }
    if f.hp < 0 || f.hp > f.max_hp {
        return bad("HP must be 0 to its max HP");
    }
    if !(0..=100_000).contains(&f.vigor) || !(0..=1000).contains(&f.armor) {
        return bad("vigor must be 0 to 100000 and armor 0 to 1000");
    }
    if !(0..=100).contains(&f.defense) {
        return bad("defense must be 0 to 100");
    }
    if !(1..=100).contains(&f.die) {
        return bad("the damage die must be 1 to 100 (a d6 is 6)");
    }
    if !(0..=1000).contains(&f.fray) {
        return bad("fray must be 0 to 1000");
    }
    if f.wounds > 4 || f.resolve > 1000 {
        return bad("wounds must be 0 to 4 and resolve 0 to 1000");
    }
    for a in &f.abilities {
        if let Some(at) = &a.attack {
            if at.dice > 20 || at.bonus_dice > 20 || at.boons > 20 || at.curses > 20 {
                return bad("an ability's dice, bonus dice, boons and curses are at most 20 each");
            }
        }
        if let Some(s) = &a.save {
            if s.boons > 20 || s.curses > 20 {
                return bad("a save's boons and curses are at most 20 each");
            }
        }
        if a.resolve_cost > 1000 || a.charges.max > 1000 || a.charges.value > 1000 {
            return bad("an ability's cost and charges are at most 1000");
        }
        for p in &a.parts {
            if !p.status.is_empty() && !crate::rulesets::icon::effects::is_status(&p.status) {
                return bad(&format!("{} is not a status the core knows", p.status));
            }
        }
    }
    Ok(())
}

/// How `spec` is aimed (see [`Aim`]).
fn aim(spec: &AbilitySpec) -> Aim {
    if spec.actions.cost().is_none() || spec.has(Tag::Summon) || spec.has(Tag::Terrain) {
        return Aim::Unplayed;
    }
    if aims_at_foes(spec) {
        return Aim::Foes;
    }
    let on_targets = spec
        .parts
        .iter()
        .any(|p| p.to == crate::rulesets::icon::ability::To::Target && !p.status.is_empty());
    if on_targets {
        return Aim::Allies;
    }
    if spec.parts.iter().any(|p| !p.status.is_empty()) {
        return Aim::User;
    }
    Aim::Unplayed
}

/// How many foes a use of `spec` catches.
pub fn catches(p: &Prepared, spec: &AbilitySpec) -> usize {
    if spec.area || spec.has(Tag::Area) {
        p.request.options.area_targets as usize
    } else {
        1
    }
}

/// The damage fighter `u` is expected to deal a round as the forecast starts, exactly: its
/// turns a round (the reducer's: an elite 2, a legend one per player character) times its best
/// turn, the two actions of its turn spent on the abilities with the best expected damage (a
/// 2-action ability, or two different 1-action ones), each against the foe it does most to
/// (times the foes an area catches). A fighter out of the fight, or without a foe, deals none.
pub fn per_round(p: &Prepared, u: usize) -> Exact {
    if p.start_down[u] {
        return Exact::ZERO;
    }
    let f = &p.request.fighters[u];
    let best_against = |a: usize| -> Exact {
        let spec = &p.abilities[u][a].spec;
        let mut each: Vec<Exact> = (0..p.request.fighters.len())
            .filter(|&t| p.request.fighters[t].side != f.side && !p.start_down[t])
            .map(|t| p.expect[u][a][t])
            .collect();
        each.sort_by(|x, y| y.value.total_cmp(&x.value));
        each.into_iter()
            .take(catches(p, spec))
            .fold(Exact::ZERO, Exact::plus)
    };
    let playable: Vec<(usize, u8)> = p.abilities[u]
        .iter()
        .enumerate()
        .filter(|(_, a)| a.aim == Aim::Foes && a.spec.resolve_cost == 0)
        .filter(|(_, a)| a.spec.charges.max == 0 || a.spec.charges.value > 0)
        .filter_map(|(i, a)| a.spec.actions.cost().map(|c| (i, c)))
        .collect();
    let values: Vec<(Exact, u8)> = playable
        .iter()
        .map(|&(a, c)| (best_against(a), c))
        .collect();
    // "Stunned: Your next ability used ends your turn": one ability this turn
    let stunned = affects(&f.statuses, "stunned");
    let mut best = Exact::ZERO;
    for (i, &(v, c)) in values.iter().enumerate() {
        if c == 2 && v.value > best.value {
            best = v;
        }
        if c == 1 {
            if v.value > best.value {
                best = v;
            }
            if stunned {
                continue;
            }
            for (j, &(w, d)) in values.iter().enumerate() {
                if j != i && d == 1 {
                    let two = v.plus(w);
                    if two.value > best.value {
                        best = two;
                    }
                }
            }
        }
    }
    let turns = p.start.get(&f.id).map_or(1, |c| p.start.turns_per_round(c));
    let mut total = Exact::ZERO;
    for _ in 0..turns {
        total = total.plus(best);
    }
    total
}
