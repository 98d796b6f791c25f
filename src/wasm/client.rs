//! The client core's exports (the `client` feature): dice, odds, rulesets and combat, the module
//! every client loads. `module/core.mjs` is the public API over them. Each verb takes the
//! request's JSON text, decodes it (a request or formula asked again is found in the
//! [`FormulaCache`]) and answers with JSON text: one way in and one way out per verb.

use super::{decode, decode_large, js_error, json, number, text_arg};
use crate::cache::FormulaCache;
use crate::decode::MAX_REQUEST_JSON;
use crate::dice::chacha::ChaCha20;
use crate::dice::rng::{DiceRng, MAX_SEED};
use crate::request::{self, Prepared};
use rand::SeedableRng;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// Parsing is pure, so caching it is invisible except in speed; it lives here, at the edge,
    /// so the core itself keeps no state.
    static CACHE: RefCell<FormulaCache> = RefCell::new(FormulaCache::default());
    /// Where unseeded rolls take their seeds from (see [`next_seed`]).
    static SEEDS: RefCell<Option<ChaCha20>> = const { RefCell::new(None) };
    /// The caller-owned streams behind `new Rng()`, by number.
    static RNGS: RefCell<Rngs> = RefCell::new(Rngs::default());
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** JSON text of a request to the rules core, tagged by kind (module/core.mjs writes it). */
export type RequestJson = string;
"#;

/// A seed given as a number: negative means "none" (one is taken from [`next_seed`]).
fn seed_or_next(seed: f64) -> Result<u64, JsError> {
    if seed < 0.0 {
        return next_seed();
    }
    if seed.fract() != 0.0 || seed > MAX_SEED as f64 {
        return Err(JsError::new(&format!(
            "a seed must be an integer from 0 to {MAX_SEED}, not {}",
            number(seed)
        )));
    }
    Ok(seed as u64)
}

/// The seed of an unseeded roll: the next 53 bits of one ChaCha20 stream per loaded core, keyed
/// once from the platform's entropy. Each roll still carries its own seed and replays from it;
/// and since the stream's key is 256 bits of entropy that never leave wasm, its output cannot be
/// told from fresh entropy per roll by anyone who has not broken ChaCha20 (docs/js-contract.md).
fn next_seed() -> Result<u64, JsError> {
    SEEDS.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_none() {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key)
                .map_err(|e| JsError::new(&format!("no entropy for a random seed: {e}")))?;
            *s = Some(ChaCha20::from_seed(key));
        }
        let stream = s.as_mut().ok_or_else(|| JsError::new("no seed stream"))?;
        let hi = u64::from(stream.next_u32());
        let lo = u64::from(stream.next_u32());
        Ok(((hi << 32) | lo) & MAX_SEED)
    })
}

/* ------------------------------------------------------------------ the verbs */

/// A request from its JSON text, validated, its dice parsed (or found in the cache).
fn prepared(json: &JsValue) -> Result<Rc<Prepared>, JsError> {
    let text = text_arg("request", json)?;
    CACHE
        .with(|c| {
            c.borrow_mut().prepare(&text, |text| {
                crate::decode::from_json_text_within("request", text, MAX_REQUEST_JSON)
            })
        })
        .map_err(js_error)
}

/// The dice to roll first, in order (JSON `PlanDie[]`).
#[wasm_bindgen(js_name = planJson)]
pub fn plan_json(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
) -> Result<String, JsError> {
    json(&request::plan(&*prepared(&request)?).map_err(js_error)?)
}

/// Decides the outcome from the faces rolled (JSON: one array per planned/requested batch).
#[wasm_bindgen(js_name = resolveJson)]
pub fn resolve_json(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] faces: JsValue,
) -> Result<String, JsError> {
    let prepared = prepared(&request)?;
    let faces: Vec<Vec<i64>> = decode("faces (an array of arrays of integers)", &faces)?;
    json(&request::resolve(&prepared, &faces).map_err(js_error)?)
}

/// Rolls a request from `seed` (negative: the next unseeded one): the outcome `resolve` gives
/// for the faces drawn, with the seed after the faces.
#[wasm_bindgen(js_name = rollJson)]
pub fn roll_json(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
    seed: f64,
) -> Result<String, JsError> {
    let prepared = prepared(&request)?;
    json(&request::roll(&prepared, seed_or_next(seed)?).map_err(js_error)?)
}

/// Exact probabilities: the distribution of the total, mean, sd and outcome labels.
#[wasm_bindgen(js_name = oddsJson)]
pub fn odds_json(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
) -> Result<String, JsError> {
    json(&request::odds(&*prepared(&request)?).map_err(js_error)?)
}

/// The odds as arrays: `{formula, values, p, mean, sd, outcomes, exact}`, `exact` null or
/// `{denominator, numerators}` as decimal strings (u64s; module/core.mjs makes BigInts of them).
#[wasm_bindgen(js_name = oddsArraysJson)]
pub fn odds_arrays_json(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
) -> Result<String, JsError> {
    json(&crate::batch::odds_arrays(&*prepared(&request)?).map_err(js_error)?)
}

/// `n` totals of a request from one stream started at `seed` (negative: the next unseeded one).
#[wasm_bindgen(js_name = rollManyTotals)]
pub fn roll_many_totals(
    #[wasm_bindgen(unchecked_param_type = "RequestJson")] request: JsValue,
    n: f64,
    seed: f64,
) -> Result<js_sys::Float64Array, JsError> {
    let max = crate::batch::MAX_ROLLS;
    if !(n.fract() == 0.0 && (0.0..=f64::from(max)).contains(&n)) {
        return Err(JsError::new(&format!(
            "n must be an integer from 0 to {max} rolls, not {}",
            number(n)
        )));
    }
    let prepared = prepared(&request)?;
    let totals =
        crate::batch::roll_many(&prepared, n as u32, seed_or_next(seed)?).map_err(js_error)?;
    Ok(js_sys::Float64Array::from(&totals[..]))
}

/// Counters of the parsed-formula cache, as JSON `{parses, hits, size}`.
#[wasm_bindgen(js_name = cacheStatsJson)]
pub fn cache_stats_json() -> Result<String, JsError> {
    json(&CACHE.with(|c| c.borrow().stats()))
}

/* ------------------------------------------------------------------ caller-owned streams */

/// The streams behind `new Rng()` in module/core.mjs, by a number never issued twice.
#[derive(Default)]
struct Rngs {
    next: f64,
    live: HashMap<u64, DiceRng, rustc_hash::FxBuildHasher>,
}

/// A ChaCha20 stream from `seed` (negative: the next unseeded seed); returns its number.
#[wasm_bindgen(js_name = rngNew)]
pub fn rng_new(seed: f64) -> Result<f64, JsError> {
    let rng = DiceRng::from_seed(seed_or_next(seed)?).map_err(js_error)?;
    RNGS.with(|r| {
        let mut r = r.borrow_mut();
        let id = r.next;
        r.next += 1.0;
        r.live.insert(id as u64, rng);
        Ok(id)
    })
}

/// Runs `f` on stream `id`.
fn with_rng<T>(id: f64, f: impl FnOnce(&mut DiceRng) -> T) -> Result<T, JsError> {
    RNGS.with(|r| {
        let mut r = r.borrow_mut();
        let known = id.fract() == 0.0 && id >= 0.0;
        match r.live.get_mut(&(id as u64)).filter(|_| known) {
            Some(rng) => Ok(f(rng)),
            None => Err(JsError::new(&format!(
                "{} is not a live Rng (it was freed, or never made)",
                number(id)
            ))),
        }
    })
}

/// A number in [0, 1) with 53 random bits from stream `id`.
#[wasm_bindgen(js_name = rngUniform)]
pub fn rng_uniform(id: f64) -> Result<f64, JsError> {
    with_rng(id, DiceRng::uniform)
}

/// The seed stream `id` started from.
#[wasm_bindgen(js_name = rngSeed)]
pub fn rng_seed(id: f64) -> Result<f64, JsError> {
    with_rng(id, |r| r.seed() as f64)
}

/// Frees stream `id` (freeing it twice does nothing).
#[wasm_bindgen(js_name = rngFree)]
pub fn rng_free(id: f64) {
    RNGS.with(|r| {
        if id.fract() == 0.0 && id >= 0.0 {
            r.borrow_mut().live.remove(&(id as u64));
        }
    })
}

/* ------------------------------------------------------------------ reducers and helpers */

/// A reducer's answer: the new state and what Foundry should carry out.
#[derive(Serialize)]
struct Reduced<S: Serialize, E: Serialize> {
    state: S,
    effects: Vec<E>,
}

/// The combat tracker: `(state | null, event) -> {state, effects}` as JSON; refused events throw.
#[wasm_bindgen(js_name = combatApplyJson)]
pub fn combat_apply_json(
    #[wasm_bindgen(unchecked_param_type = "string | null")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] event: JsValue,
) -> Result<String, JsError> {
    let state: Option<crate::combat::CombatState> = if state.is_null() || state.is_undefined() {
        None
    } else {
        // refused by its length before it is parsed (src/combat/stored.rs)
        let text = text_arg("combat state", &state)?;
        Some(crate::combat::CombatState::from_json_text(&text).map_err(js_error)?)
    };
    // a start past the combatant limit is refused as its list is read (src/combat)
    let event: crate::combat::Event = decode_large("combat event", &event)?;
    let (state, effects) = crate::combat::apply_owned(state, &event).map_err(js_error)?;
    json(&Reduced { state, effects })
}

/// A character's narrative state (strain, burdens, breaking): `(state, event) -> {state, effects}`.
#[wasm_bindgen(js_name = narrativeApplyJson)]
pub fn narrative_apply_json(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] event: JsValue,
) -> Result<String, JsError> {
    let state: crate::rulesets::icon::strain::NarrativeState = decode("narrative state", &state)?;
    let event: crate::rulesets::icon::strain::NarrativeEvent = decode("narrative event", &event)?;
    let (state, effects) = state.apply(&event).map_err(js_error)?;
    json(&Reduced { state, effects })
}

/// A progress clock (4, 6, 8, 10 or 12 segments) ticked by `ticks` (an integer; negative
/// unticks): `{segments, filled, complete}`.
#[wasm_bindgen(js_name = clockTickJson)]
pub fn clock_tick_json(
    #[wasm_bindgen(unchecked_param_type = "string")] clock: JsValue,
    ticks: f64,
) -> Result<String, JsError> {
    if ticks.fract() != 0.0 || ticks.abs() > MAX_SEED as f64 {
        return Err(JsError::new(&format!(
            "ticks must be an integer, not {}",
            number(ticks)
        )));
    }
    let clock: crate::rulesets::icon::strain::Clock = decode("clock", &clock)?;
    json(&clock.tick(ticks as i64).map_err(js_error)?.view())
}

/// The end-of-session XP of `{ideals, challenged, ambition, burdenInvoked}`.
#[wasm_bindgen(js_name = sessionXpJson)]
pub fn session_xp_json(
    #[wasm_bindgen(unchecked_param_type = "string")] checklist: JsValue,
) -> Result<u32, JsError> {
    let xp: crate::rulesets::icon::strain::SessionXp = decode("XP checklist", &checklist)?;
    Ok(xp.total())
}

/// The derived health values of an ICON character or foe: `{bloodied, bloodiedValue, healableMax,
/// vigorCap, fallen}` from `{hp, maxHp, vigor, wounds, ...}`.
#[wasm_bindgen(js_name = iconDerivedJson)]
pub fn icon_derived_json(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
) -> Result<String, JsError> {
    let target: crate::rulesets::icon::Target = decode("character", &target)?;
    json(&target.derived().map_err(js_error)?)
}

/// The boons, curses and cover an attack's situation gives: `{boons, curses, cover}` from
/// `{ranged, foeAdjacent, heightDifference, targetInCover}`.
#[wasm_bindgen(js_name = iconSituationJson)]
pub fn icon_situation_json(
    #[wasm_bindgen(unchecked_param_type = "string")] situation: JsValue,
) -> Result<String, JsError> {
    let s: crate::rulesets::icon::situation::Situation = decode("situation", &situation)?;
    json(&s.modifiers().map_err(js_error)?)
}

/// Line of sight, cover, adjacency and height from an attacker to each target on the map
/// (JSON `Sight[]`, one per target, from `{grid, from, targets, barriers}`).
#[wasm_bindgen(js_name = iconSightlinesJson)]
pub fn icon_sightlines_json(
    #[wasm_bindgen(unchecked_param_type = "string")] request: JsValue,
) -> Result<String, JsError> {
    let s: crate::rulesets::icon::sight::Sightlines = decode("sightlines", &request)?;
    json(&s.apply().map_err(js_error)?)
}

/// A token's move as ICON prices it: each step's cost (engagement, difficult terrain) and what
/// the move breaks (JSON `Priced`, from `Movement`).
#[wasm_bindgen(js_name = iconMovementJson)]
pub fn icon_movement_json(
    #[wasm_bindgen(unchecked_param_type = "string")] request: JsValue,
) -> Result<String, JsError> {
    let m: crate::rulesets::icon::movement::Movement = decode("movement", &request)?;
    json(&m.apply().map_err(js_error)?)
}

/// The statuses to save against at the end of a turn (not ongoing, not states or effects).
#[wasm_bindgen(js_name = iconSaveableJson)]
pub fn icon_saveable_json(
    #[wasm_bindgen(unchecked_param_type = "string")] statuses: JsValue,
) -> Result<String, JsError> {
    let statuses: crate::rulesets::icon::effects::Statuses = decode("statuses", &statuses)?;
    json(&crate::rulesets::icon::situation::saveable(&statuses.0))
}

/// The statuses left after the character uses an ability (stunned ends; stealth too unless the
/// ability was a dash).
#[wasm_bindgen(js_name = iconAfterAbilityJson)]
pub fn icon_after_ability_json(
    #[wasm_bindgen(unchecked_param_type = "string")] statuses: JsValue,
    dash: bool,
) -> Result<String, JsError> {
    let statuses: crate::rulesets::icon::effects::Statuses = decode("statuses", &statuses)?;
    json(&crate::rulesets::icon::situation::after_ability(
        &statuses.0,
        dash,
    ))
}

/// The statuses that take effect on a character: all but the statuses an Unstoppable one is
/// immune to.
#[wasm_bindgen(js_name = iconEffectiveStatusesJson)]
pub fn icon_effective_statuses_json(
    #[wasm_bindgen(unchecked_param_type = "string")] statuses: JsValue,
) -> Result<String, JsError> {
    let statuses: crate::rulesets::icon::effects::Statuses = decode("statuses", &statuses)?;
    json(&crate::rulesets::icon::effects::effective(&statuses.0))
}

/// The charts the other rulesets print (ICONS levels, Tribute reality levels, the narrator's
/// difficulty, opposed-modifier and knowledge charts, Men & Supermen's special dice).
#[wasm_bindgen(js_name = rulesetTablesJson)]
pub fn ruleset_tables_json() -> Result<String, JsError> {
    json(&crate::rulesets::tables())
}

/// A lookup in a Men & Supermen table: `{table: "epCost"|"skinTemper"|"learningModifier"|
/// "sightModifiers"|"baseHeight"|"baseAge", ...}`.
#[wasm_bindgen(js_name = mnsLookupJson)]
pub fn mns_lookup_json(
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
) -> Result<String, JsError> {
    let lookup: crate::rulesets::mns_tables::Lookup = decode("table lookup", &query)?;
    json(&lookup.answer().map_err(js_error)?)
}
