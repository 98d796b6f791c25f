//! The wasm boundary: the only module that touches `JsValue`. Its exports are the raw layer under
//! `module/core.mjs`, which is the public API: JS checks every argument there (types, NaN, cycles,
//! depth, throwing getters and proxies, with the field's path in the message) and hands over JSON
//! text and plain numbers. So nothing here reads a JS object: a JS exception thrown while wasm code
//! is on the stack skips the epilogues that restore wasm's stack pointer, and a few thousand such
//! calls used to leave every export trapping. The few calls into JS that remain (the pack exports'
//! `JSON.stringify`, `crypto.getRandomValues`, building typed arrays) are ones the generated glue
//! catches and returns as errors.
//!
//! Requests are decoded once into numbered handles (`requestNew`), and every verb takes a handle:
//! one way in per verb, whether the caller rolls once or a million times.

use crate::cache::FormulaCache;
use crate::dice::chacha::ChaCha20;
use crate::dice::flat::{FlatOut, FlatRoller};
use crate::dice::rng::{DiceRng, MAX_SEED};
use crate::request::{self, Prepared, Request};
use rand::SeedableRng;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// Parsing is pure, so caching it is invisible except in speed; it lives here, at the edge,
    /// so the core itself keeps no state.
    static CACHE: RefCell<FormulaCache> = RefCell::new(FormulaCache::default());
    /// Decoded requests handed to JS as numbers, and the buffer flat outcomes are written to (JS
    /// reads it through the memory, no copy).
    static REQUESTS: RefCell<Requests> = RefCell::new(Requests::default());
    /// Where unseeded rolls take their seeds from (see [`next_seed`]).
    static SEEDS: RefCell<Option<ChaCha20>> = const { RefCell::new(None) };
    /// The caller-owned streams behind `new Rng()`, by number.
    static RNGS: RefCell<Rngs> = RefCell::new(Rngs::default());
}

/// At most this many request handles at once (`requestsRelease` frees them all).
const MAX_REQUESTS: usize = 4096;

/// Decoded requests by handle, and the flat outcomes' buffer.
#[derive(Default)]
struct Requests {
    table: Table,
    out: FlatOut,
    /// The strings rule outcomes have used, by number (JS keeps the same list).
    strings: crate::tape::Strings,
    /// `oddsArrays`' exact numerators.
    words: Vec<u64>,
    /// Totals kept by the odds memos of all entries.
    memo_totals: usize,
}

impl Requests {
    /// Room for a memo of `totals` totals, dropping every memo when there is none.
    fn make_room(&mut self, totals: usize) {
        if self.memo_totals + totals > MAX_MEMO_TOTALS {
            for e in &mut self.table.entries {
                e.parts = None;
                e.arrays = None;
            }
            self.memo_totals = 0;
        }
        self.memo_totals += totals;
    }

    /// The odds parts of the request `handle` stands for, computed once.
    fn odds_parts(&mut self, handle: f64) -> Result<Rc<request::OddsParts>, JsError> {
        let entry = self.table.get(handle)?;
        if let Some(parts) = &entry.parts {
            return Ok(parts.clone());
        }
        let parts = Rc::new(request::odds_parts(&entry.prepared).map_err(js_error)?);
        self.make_room(parts.0.totals.len());
        self.table.get_mut(handle)?.parts = Some(parts.clone());
        Ok(parts)
    }

    /// The odds arrays of the request `handle` stands for, computed once.
    fn odds_arrays(&mut self, handle: f64) -> Result<Rc<crate::batch::OddsArrays>, JsError> {
        if let Some(arrays) = &self.table.get(handle)?.arrays {
            return Ok(arrays.clone());
        }
        let parts = self.odds_parts(handle)?;
        let entry = self.table.get(handle)?;
        let arrays = Rc::new(crate::batch::odds_arrays_with(&entry.prepared, &parts));
        self.make_room(arrays.values.len());
        self.table.get_mut(handle)?.arrays = Some(arrays.clone());
        Ok(arrays)
    }
}

#[derive(Default)]
struct Table {
    /// The handle of `entries[0]`. Handles count up across releases and are never issued twice,
    /// so a stale handle is refused, never read as another request.
    base: f64,
    entries: Vec<Entry>,
}

struct Entry {
    prepared: Prepared,
    /// A `dice` request's formula, ready for flat rolls.
    dice: Option<FlatRoller>,
    /// A rule's buffers, kept from roll to roll (made by its first roll).
    scratch: Option<request::Scratch>,
    /// The odds, once asked for (see [`MAX_MEMO_TOTALS`]).
    parts: Option<Rc<request::OddsParts>>,
    arrays: Option<Rc<crate::batch::OddsArrays>>,
}

/// Odds are a pure function of the request, so a request asked about again (a dialog redrawn,
/// a sheet re-rendered) gets the answer computed the first time, as the parsed formula is
/// reused. At most this many totals are kept across all requests; past it every memo is
/// dropped and the next questions compute afresh.
const MAX_MEMO_TOTALS: usize = 1 << 18;

impl Table {
    fn index(&self, handle: f64) -> Result<usize, JsError> {
        let index = handle - self.base;
        if handle.fract() == 0.0 && index >= 0.0 && index < self.entries.len() as f64 {
            Ok(index as usize)
        } else {
            Err(JsError::new(&format!(
                "{} is not a request handle (or it was released); get one from requestNew(json)",
                number(handle)
            )))
        }
    }
    fn get(&self, handle: f64) -> Result<&Entry, JsError> {
        Ok(&self.entries[self.index(handle)?])
    }
    fn get_mut(&mut self, handle: f64) -> Result<&mut Entry, JsError> {
        let index = self.index(handle)?;
        Ok(&mut self.entries[index])
    }
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** JSON text of a request to the rules core, tagged by kind (module/core.mjs writes it). */
export type RequestJson = string;
"#;

fn js_error(e: crate::Error) -> JsError {
    JsError::new(&crate::error::clip_quotes(e.message()))
}

/// A number from JS as a message shows it (JS's own spelling for NaN and the infinities).
/// Written without `f64`'s `Display`, whose float formatting would add ~20 KB to the wasm.
fn number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        (if x > 0.0 { "Infinity" } else { "-Infinity" }).into()
    } else if x.fract() == 0.0 && x.abs() < 9.0e15 {
        (x as i64).to_string()
    } else {
        serde_json::to_string(&x).unwrap_or_default()
    }
}

/// A value as JSON text for JS to `JSON.parse` (every value the core returns is JSON: numbers are
/// JS-safe integers or finite floats, maps have string keys).
fn json<T: Serialize>(value: &T) -> Result<String, JsError> {
    serde_json::to_string(value)
        .map_err(|e| JsError::new(&format!("cannot hand the result to JavaScript: {e}")))
}

/// A core type from the JSON text JS checked and wrote; errors name the argument and the field.
fn decode<T: DeserializeOwned>(what: &str, text: &JsValue) -> Result<T, JsError> {
    let text = text_arg(what, text)?;
    crate::decode::from_json_text_within(what, &text, crate::decode::MAX_REQUEST_JSON)
        .map_err(js_error)
}

/// [`decode`] for a combat's state and events, which may be megabytes.
fn decode_large<T: DeserializeOwned>(what: &str, text: &JsValue) -> Result<T, JsError> {
    decode_str(what, &text_arg(what, text)?)
}

fn decode_str<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, JsError> {
    crate::decode::from_json_text(what, text).map_err(js_error)
}

/// JSON text handed over as a JS string (module/core.mjs writes it). Taken as a `JsValue`, not
/// `&str`, so a long one is copied by [`long_string_arg`] in one native call.
fn text_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    if !value.is_string() {
        return Err(JsError::new(&format!(
            "invalid {what}: JSON text expected, not a {}",
            value.js_typeof().as_string().unwrap_or_default()
        )));
    }
    long_string_arg(what, value)
}

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

/* ------------------------------------------------------------------ requests and the verbs */

/// Decodes a request (JSON text) once and returns its handle for the verbs below.
#[wasm_bindgen(js_name = requestNew)]
pub fn request_new(
    #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
) -> Result<f64, JsError> {
    let request: Request = decode("request", &json)?;
    let prepared = CACHE
        .with(|c| Prepared::with_cache(&request, &mut c.borrow_mut()))
        .map_err(js_error)?;
    let dice = match prepared.request() {
        Request::Dice { .. } => Some(FlatRoller::new(prepared.formula_rc()).map_err(js_error)?),
        _ => None,
    };
    REQUESTS.with(|r| {
        let r = &mut r.borrow_mut().table;
        if r.entries.len() >= MAX_REQUESTS {
            return Err(JsError::new(&format!(
                "at most {MAX_REQUESTS} request handles at once; release them with requestsRelease()"
            )));
        }
        r.entries.push(Entry {
            prepared,
            dice,
            scratch: None,
            parts: None,
            arrays: None,
        });
        Ok(r.base + (r.entries.len() - 1) as f64)
    })
}

/// What every roll of a request shares, as JSON: `{kind, formula}`, and for `dice` also `terms:
/// [{notation, flavor}]`.
#[wasm_bindgen(js_name = requestShape)]
pub fn request_shape(handle: f64) -> Result<String, JsError> {
    #[derive(Serialize)]
    struct Shape<'a> {
        kind: &'a str,
        /// The normalised formula (a rule's dice in our notation).
        formula: String,
        /// A `dice` request's terms.
        #[serde(skip_serializing_if = "Option::is_none")]
        terms: Option<Vec<crate::dice::flat::TermShape>>,
    }
    REQUESTS.with(|r| {
        let r = r.borrow();
        let e = r.table.get(handle)?;
        json(&Shape {
            kind: e.prepared.request().kind(),
            formula: e.prepared.formula().to_string(),
            terms: e.dice.as_ref().map(|d| d.shape().terms),
        })
    })
}

/// Frees every request handle; older handles are refused from then on.
#[wasm_bindgen(js_name = requestsRelease)]
pub fn requests_release() {
    REQUESTS.with(|r| {
        let r = &mut *r.borrow_mut();
        r.table.base += r.table.entries.len() as f64;
        r.table.entries.clear();
        r.memo_totals = 0;
    })
}

/// Runs `f` on the request a handle stands for.
fn with_request<T>(
    handle: f64,
    f: impl FnOnce(&Prepared) -> Result<T, JsError>,
) -> Result<T, JsError> {
    REQUESTS.with(|r| f(&r.borrow().table.get(handle)?.prepared))
}

/// The dice to roll first, in order (JSON `PlanDie[]`).
#[wasm_bindgen(js_name = requestPlan)]
pub fn request_plan(handle: f64) -> Result<String, JsError> {
    with_request(handle, |p| json(&request::plan(p).map_err(js_error)?))
}

/// Decides the outcome from the faces rolled (JSON: one array per planned/requested batch).
#[wasm_bindgen(js_name = requestResolve)]
pub fn request_resolve(
    handle: f64,
    #[wasm_bindgen(unchecked_param_type = "string")] faces: JsValue,
) -> Result<String, JsError> {
    let faces: Vec<Vec<i64>> = decode("faces (an array of arrays of integers)", &faces)?;
    with_request(handle, |p| {
        json(&request::resolve(p, &faces).map_err(js_error)?)
    })
}

/// Rolls a request from `seed` (negative: the next unseeded one) into the flat buffer and returns
/// its byte offset in the wasm memory: `seed, total, batches, (count, face × count) × batches`,
/// then a `dice` request's terms (`src/dice/flat.rs`) or, for a rule, the number of strings
/// numbered so far and the outcome's fields as a tape (`src/tape.rs`). `module/dice/flat-outcome.mjs` builds the outcome object from them.
#[wasm_bindgen(js_name = requestRoll)]
pub fn request_roll(handle: f64, seed: f64) -> Result<u32, JsError> {
    let seed = seed_or_next(seed)?;
    REQUESTS.with(|r| {
        let r = &mut *r.borrow_mut();
        let entry = r.table.get_mut(handle)?;
        if let Some(roller) = &entry.dice {
            roller.roll_into(seed, &mut r.out).map_err(js_error)?;
            return Ok(r.out.numbers.as_ptr() as u32);
        }
        let scratch = match &mut entry.scratch {
            Some(s) => s,
            none => none.insert(request::Scratch::new(&entry.prepared).map_err(js_error)?),
        };
        let mut rng = DiceRng::from_seed(seed).map_err(js_error)?;
        let (total, detail) =
            request::roll_detail(&entry.prepared, &mut rng, scratch).map_err(js_error)?;
        let out = &mut r.out.numbers;
        out.clear();
        out.extend([seed as f64, total as f64, scratch.faces.len() as f64]);
        for batch in &scratch.faces {
            out.push(batch.len() as f64);
            out.extend(batch.iter().map(|&f| f as f64));
        }
        // how many strings the tape may refer to, so JS can ask for new ones first
        let at = out.len();
        out.push(0.0);
        crate::tape::write(&detail, out, &mut r.strings)
            .map_err(|e| JsError::new(&format!("cannot hand the outcome to JavaScript: {e}")))?;
        out[at] = r.strings.len() as f64;
        Ok(out.as_ptr() as u32)
    })
}

/// The strings rule outcomes have used, from number `from` on, as a JSON array (JS asks for the
/// ones it has not seen yet).
#[wasm_bindgen(js_name = requestStrings)]
pub fn request_strings(from: f64) -> Result<String, JsError> {
    REQUESTS.with(|r| json(&r.borrow().strings.since(from.max(0.0) as usize)))
}

/// Exact probabilities as JSON: the distribution of the total, mean, sd and outcome labels.
#[wasm_bindgen(js_name = requestOdds)]
pub fn request_odds(handle: f64) -> Result<String, JsError> {
    REQUESTS.with(|r| {
        let r = &mut *r.borrow_mut();
        let parts = r.odds_parts(handle)?;
        json(&request::odds_with(&r.table.get(handle)?.prepared, &parts).map_err(js_error)?)
    })
}

/// `n` totals of a request from one stream started at `seed` (negative: the next unseeded one).
#[wasm_bindgen(js_name = requestRollMany)]
pub fn request_roll_many(handle: f64, n: f64, seed: f64) -> Result<js_sys::Float64Array, JsError> {
    let max = crate::batch::MAX_ROLLS;
    if !(n.fract() == 0.0 && (0.0..=f64::from(max)).contains(&n)) {
        return Err(JsError::new(&format!(
            "n must be an integer from 0 to {max} rolls, not {}",
            number(n)
        )));
    }
    let seed = seed_or_next(seed)?;
    with_request(handle, |p| {
        let totals = crate::batch::roll_many(p, n as u32, seed).map_err(js_error)?;
        Ok(js_sys::Float64Array::from(&totals[..]))
    })
}

/// `odds` as arrays, written into the flat buffer (its byte offset is returned):
/// `n, mean, sd, exact, strings, (values × n), (p × n)`, then the outcome labels as a tape object
/// (`src/tape.rs`); `exact` is the byte offset of `denominator, numerators × n` as `u64`s, or −1
/// when the odds are not exact in 64 bits. `module/core.mjs` copies them into typed arrays.
#[wasm_bindgen(js_name = requestOddsArrays)]
pub fn request_odds_arrays(handle: f64) -> Result<u32, JsError> {
    REQUESTS.with(|r| {
        let r = &mut *r.borrow_mut();
        let a = r.odds_arrays(handle)?;
        let exact = match &a.exact {
            None => -1.0,
            Some((den, nums)) => {
                r.words.clear();
                r.words.push(*den);
                r.words.extend(nums);
                r.words.as_ptr() as usize as f64
            }
        };
        let out = &mut r.out.numbers;
        out.clear();
        let n = a.values.len() as f64;
        out.extend([n, a.mean, a.sd, exact, 0.0]);
        out.extend(&a.values);
        out.extend(&a.p);
        // sorted by label, as `odds` gives them
        let outcomes: std::collections::BTreeMap<&str, f64> = a.outcomes.iter().copied().collect();
        crate::tape::write(&outcomes, out, &mut r.strings)
            .map_err(|e| JsError::new(&format!("cannot hand the odds to JavaScript: {e}")))?;
        out[4] = r.strings.len() as f64;
        Ok(out.as_ptr() as u32)
    })
}

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::version().to_string()
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
    live: HashMap<u64, DiceRng>,
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
        Some(decode_large("combat state", &state)?)
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

/// The statuses to save against at the end of a turn (not ongoing, not states or effects).
#[wasm_bindgen(js_name = iconSaveableJson)]
pub fn icon_saveable_json(
    #[wasm_bindgen(unchecked_param_type = "string")] statuses: JsValue,
) -> Result<String, JsError> {
    let statuses: Vec<String> = decode("statuses", &statuses)?;
    json(&crate::rulesets::icon::situation::saveable(&statuses))
}

/// The statuses left after the character uses an ability (stunned ends).
#[wasm_bindgen(js_name = iconAfterAbilityJson)]
pub fn icon_after_ability_json(
    #[wasm_bindgen(unchecked_param_type = "string")] statuses: JsValue,
) -> Result<String, JsError> {
    let statuses: Vec<String> = decode("statuses", &statuses)?;
    json(&crate::rulesets::icon::situation::after_ability(&statuses))
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

/* ------------------------------------------------------------------ the pack exports */
// These still take JS values (the import worker calls `importPack` directly with what it was
// posted, which structured cloning has made plain data). Every call into JS they make is one the
// glue catches, or a `typeof` test.

/// Results cross as one JSON string that `JSON.parse` builds natively.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    js_sys::JSON::parse(&json(value)?)
        .map_err(|_| JsError::new("cannot hand the result to JavaScript: JSON.parse refused it"))
}

/// An argument as JSON text, via `JSON.stringify` (which the glue catches: a throwing getter,
/// proxy or `toJSON` comes back as an error here).
fn json_text(what: &str, value: &JsValue) -> Result<String, JsError> {
    if value.is_undefined() {
        return Err(JsError::new(&format!(
            "invalid {what}: it is missing (undefined)"
        )));
    }
    let text: JsValue = match js_sys::JSON::stringify(value) {
        Ok(t) => t.into(),
        Err(_) => {
            return Err(JsError::new(&format!(
                "invalid {what}: JSON.stringify refused it (a BigInt, a cycle, or a getter, proxy or toJSON that threw)"
            )))
        }
    };
    if !text.is_string() {
        return Err(JsError::new(&format!(
            "invalid {what}: a {} is not a JSON value",
            value.js_typeof().as_string().unwrap_or_default()
        )));
    }
    long_string_arg(what, &text)
}

/// A string argument: wasm-bindgen's `&str` would read any other JS value as garbage memory.
fn string_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| {
        JsError::new(&format!(
            "{what} must be a string, not a {}",
            value.js_typeof().as_string().unwrap_or_default()
        ))
    })
}

/// A JS argument as a core type, through its JSON text; errors name the argument and the field.
fn from_js<T: DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsError> {
    decode_str(what, &json_text(what, &value)?)
}

/// As [`from_js`] (the JSON text shows every field, so `deny_unknown_fields` sees a typo in an
/// options object).
fn from_js_strict<T: DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsError> {
    from_js(what, value)
}

/// `importPack`'s and `glossary`'s options: absent means the defaults.
fn import_options(options: JsValue) -> Result<crate::packs::ImportOptions, JsError> {
    if options.is_undefined() || options.is_null() {
        Ok(crate::packs::ImportOptions::default())
    } else {
        from_js_strict("import options", options)
    }
}

/// Imports an exported journal pack (NeDB log or JSON): `{documents, report}`.
#[wasm_bindgen(js_name = importPack, unchecked_return_type = "{documents: object[], report: object}")]
pub fn import_pack(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{format?: \"auto\" | \"nedb\" | \"json\", force?: boolean} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = import_options(options)?;
    refuse_long_pack(&text)?;
    let text = long_string_arg("text", &text)?;
    // what `to_js` does, the text written entry by entry as the import goes
    let json = crate::packs::import_pack_json(&text, &options).map_err(js_error)?;
    drop(text);
    js_sys::JSON::parse(&json)
        .map_err(|_| JsError::new("cannot hand the result to JavaScript: JSON.parse refused it"))
}

/// Refuses a pack longer than [`crate::packs::MAX_TEXT`] (counted in UTF-16 units, at most its
/// UTF-8 bytes) before it is copied into wasm memory.
fn refuse_long_pack(text: &JsValue) -> Result<(), JsError> {
    match text
        .dyn_ref::<js_sys::JsString>()
        .map(|s| s.length() as usize)
    {
        Some(units) if units > crate::packs::MAX_TEXT => {
            Err(js_error(crate::packs::too_long(units)))
        }
        _ => Ok(()),
    }
}

#[wasm_bindgen]
extern "C" {
    /// The platform's UTF-8 encoder (what the generated glue uses too).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(
        this: &TextEncoder,
        source: &js_sys::JsString,
        into: &js_sys::Uint8Array,
    ) -> EncodeIntoResult;
    /// `{read, written}`: UTF-16 units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

/// Strings up to this many UTF-16 units go through the glue's copy: past it, the fixed cost of
/// `encodeInto` (a view of wasm memory, one native call) is less than the glue's per-character
/// loop (measured on a 15-combatant combat state of 2.4 KB: the call went from 57 to 32 µs).
const GLUE_STRING_UNITS: u32 = 256;

/// A string argument of kilobytes or megabytes (a whole pack), as [`string_arg`] but faster:
/// the generated glue copies a string's ASCII prefix one `charCodeAt` at a time in JS (about
/// 100 ms for a 10 MB log), while `TextEncoder.encodeInto` writes all of it into wasm memory
/// natively. Lone surrogates become U+FFFD, as in the glue.
fn long_string_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
        return string_arg(what, value);
    };
    let units = text.length();
    if units <= GLUE_STRING_UNITS {
        return string_arg(what, value);
    }
    let encoder = TextEncoder::new();
    // ASCII takes one byte per unit; what does not fit is encoded again into room for the worst
    // case (3 bytes per unit). The encoder writes into the vector's spare capacity through a
    // view of wasm memory made from its address (no Rust reference to the unwritten bytes). A
    // view is cut off if the memory grows (a detached buffer takes nothing), so a round that
    // makes no progress is tried again, and after a few the glue's way is taken.
    let mut bytes: Vec<u8> = Vec::with_capacity(units as usize);
    let mut read = 0u32;
    for _ in 0..4 {
        let rest = if read == 0 {
            text.clone()
        } else {
            text.slice(read, units)
        };
        let room = bytes.capacity() - bytes.len();
        let (Ok(at), Ok(len)) = (
            u32::try_from(bytes.as_ptr() as usize + bytes.len()),
            u32::try_from(room),
        ) else {
            break;
        };
        let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
        let view = js_sys::Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), at, len);
        let done = encoder.encode_into(&rest, &view);
        let written = (done.written() as usize).min(room);
        // SAFETY: the encoder initialised `written` bytes (at most the spare capacity) right
        // after the vector's initialised ones
        unsafe { bytes.set_len(bytes.len() + written) };
        read = read.saturating_add(done.read()).min(units);
        if read == units {
            // SAFETY: `encodeInto` writes UTF-8 (whole code points, lone surrogates as U+FFFD),
            // and each round starts at a code point; wasm-bindgen's own string arguments rely on
            // the same (the glue's `encodeInto`, then `String::from_utf8_unchecked`)
            return Ok(unsafe { String::from_utf8_unchecked(bytes) });
        }
        bytes.reserve((units - read) as usize * 3);
    }
    string_arg(what, value)
}

/// The glossary terms a page's HTML defines: `[{term, key, definition, page, section}]`.
#[wasm_bindgen(js_name = glossaryTerms, unchecked_return_type = "GlossaryTerm[]")]
pub fn glossary_terms(
    #[wasm_bindgen(unchecked_param_type = "string")] html: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] page: JsValue,
) -> Result<JsValue, JsError> {
    if let Some(units) = html
        .dyn_ref::<js_sys::JsString>()
        .map(|s| s.length() as usize)
    {
        // UTF-8 takes at least a byte per UTF-16 unit: refused before it is copied
        if units > crate::packs::glossary::MAX_PAGE {
            let page = page.as_string().unwrap_or_default();
            return Err(js_error(crate::packs::glossary::too_long(units, &page)));
        }
    }
    let (html, page) = (string_arg("html", &html)?, string_arg("page", &page)?);
    to_js(&crate::packs::glossary::page_terms(&html, &page).map_err(js_error)?)
}

/// The glossary of a whole pack (any text `importPack` reads, e.g. `JSON.stringify` of the
/// entries): the terms of every text page, a key's first definition winning.
#[wasm_bindgen(unchecked_return_type = "GlossaryTerm[]")]
pub fn glossary(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{format?: \"auto\" | \"nedb\" | \"json\", force?: boolean} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = import_options(options)?;
    refuse_long_pack(&text)?;
    let text = string_arg("text", &text)?;
    to_js(&crate::packs::glossary(&text, &options).map_err(js_error)?)
}
