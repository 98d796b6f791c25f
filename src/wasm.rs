//! The wasm boundary: the only module that touches `JsValue`. It converts JS values to the core's
//! types and back (camelCase plain objects), turns every core error into a JS `Error` with the
//! core's message, and keeps the one piece of memoisation the contract asks for (parsed formulas).

use crate::cache::FormulaCache;
use crate::dice::rng::{fresh_seed, DiceRng, MAX_SEED};
use crate::request::{self, Prepared, Request};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// Parsing is pure, so caching it is invisible except in speed; it lives here, at the edge,
    /// so the core itself keeps no state.
    static CACHE: RefCell<FormulaCache> = RefCell::new(FormulaCache::default());
    /// Parsed formulas handed to JS as numbers for the fast `roll` path, and the buffer the
    /// flat outcomes are written to (JS reads it through the memory, no copy).
    static HANDLES: RefCell<Handles> = RefCell::new(Handles::default());
    /// `value => does it hold a number JSON cannot carry, a function, a symbol or a BigInt?`
    static NON_JSON: js_sys::Function = js_sys::Function::new_with_args(
        "value",
        "const bad = v => { \
           if (typeof v === 'number') return !Number.isFinite(v); \
           if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return true; \
           if (v === null || typeof v !== 'object') return false; \
           if (Array.isArray(v)) { for (const x of v) if (bad(x)) return true; return false; } \
           for (const k in v) if (bad(v[k])) return true; \
           return false; \
         }; \
         return bad(value);",
    );
    /// Builds `oddsArrays`' object in one call (see there).
    static ODDS_ARRAYS: js_sys::Function = js_sys::Function::new_with_args(
        "formula, values, p, mean, sd, outcomes, denominator, numerators",
        "return { formula, values, p, mean, sd, outcomes: JSON.parse(outcomes), \
           exact: numerators === undefined ? null : { denominator, numerators } };",
    );
}

/// At most this many dice handles at once (`diceHandlesRelease` frees them all).
const MAX_HANDLES: usize = 4096;

#[derive(Default)]
struct Handles {
    /// Bumped by every release, so a handle from before it is refused, never misread.
    generation: u32,
    formulas: Vec<crate::dice::flat::FlatRoller>,
    out: crate::dice::flat::FlatOut,
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A request to the rules core, tagged by kind. */
export type CoreRequest = { kind: "dice"; formula: string } | { kind: string; [field: string]: unknown };
/** Dice to roll: Foundry term `${count}${notation}`. */
export interface PlanDie { faces: number; count: number; role: string; notation: string; term: number; }
export interface DieResultData { value: number; active: boolean; count?: number; exploded?: boolean; rerolled?: boolean; discarded?: boolean; success?: boolean; failure?: boolean; }
export interface TermOutcomeData { notation: string; flavor?: string; total: number; results: DieResultData[]; }
export interface Done { status: "done"; kind: string; total: number; faces: number[][]; seed?: number; formula?: string; terms?: TermOutcomeData[]; [field: string]: unknown; }
export interface More { status: "more"; dice: PlanDie[]; }
export interface OddsReport { formula: string; totals: [number, number][]; mean: number; sd: number; outcomes: Record<string, number>; exact: null | { totals: [number, string][]; mean: string; outcomes: Record<string, string> }; }
/** `odds` as typed arrays: P(values[i]) = p[i] = numerators[i] / denominator (exact, when it fits u64). */
export interface OddsArrays { formula: string; values: Float64Array; p: Float64Array; mean: number; sd: number; outcomes: Record<string, number>; exact: null | { denominator: bigint; numerators: BigUint64Array }; }
export interface CacheStats { parses: number; hits: number; size: number; }
export interface ChartEntry { id: string; label: string; value: number; }
export interface RulesetTables { iconsLevels: { level: number; description: string; names: [string, string, string] }[]; tributeRealityLevels: ChartEntry[]; narratorDifficulty: ChartEntry[]; narratorOpposed: ChartEntry[]; narratorKnowledge: ChartEntry[]; narratorDeterministic: number; mnsSpecialDice: string[]; }
/** A glossary term from the rules reference: `key` is for matching ("Hatred of X" → "hatred"). */
export interface GlossaryTerm { term: string; key: string; definition: string; page: string; section: string | null; }
"#;

fn js_error(e: crate::Error) -> JsError {
    JsError::new(e.message())
}

/// Results cross as one JSON string that `JSON.parse` builds natively: far fewer boundary calls
/// than building the objects field by field (every value the core returns is JSON: numbers are
/// JS-safe integers or finite floats, maps have string keys).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsError::new(&format!("cannot hand the result to JavaScript: {e}")))?;
    js_sys::JSON::parse(&text)
        .map_err(|_| JsError::new("cannot hand the result to JavaScript: JSON.parse refused it"))
}

/// An argument as JSON text, via `JSON.stringify` (one call, native speed). What JSON cannot
/// say is refused with the field's path: NaN and ±Infinity (which `JSON.stringify` would turn
/// into `null`), BigInts, symbols, functions and cycles.
fn json_text(what: &str, value: &JsValue) -> Result<String, JsError> {
    if value.is_undefined() {
        return Err(JsError::new(&format!(
            "invalid {what}: it is missing (undefined)"
        )));
    }
    let text = match js_sys::JSON::stringify(value) {
        // a combat state is hundreds of kilobytes: the glue would copy it a unit at a time
        Ok(t) if t.length() > 4096 => long_string_arg(what, &t.into()).ok(),
        Ok(t) => JsValue::from(t).as_string(),
        Err(e) => {
            let why = unrepresentable(value, &mut String::new(), 0).unwrap_or_else(|| {
                e.dyn_ref::<js_sys::Error>()
                    .and_then(|e| e.message().as_string())
                    .unwrap_or_default()
            });
            return Err(JsError::new(&format!("invalid {what}: {why}")));
        }
    };
    let Some(text) = text else {
        return Err(JsError::new(&format!(
            "invalid {what}: a {} is not a JSON value",
            value.js_typeof().as_string().unwrap_or_default()
        )));
    };
    // JSON.stringify writes NaN, ±Infinity and functions in arrays as `null`; a quick walk in JS
    // tells whether any is there before the slow walk (field by field across the boundary)
    // names it
    if text.contains("null")
        && NON_JSON
            .with(|f| f.call1(&JsValue::NULL, value))
            .is_ok_and(|v| v.is_truthy())
    {
        if let Some(why) = unrepresentable(value, &mut String::new(), 0) {
            return Err(JsError::new(&format!("invalid {what}: {why}")));
        }
    }
    Ok(text)
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

/// The first value below `value` that JSON cannot carry faithfully, as "`path`: why".
fn unrepresentable(value: &JsValue, path: &mut String, depth: usize) -> Option<String> {
    let at = |path: &str| {
        if path.is_empty() {
            "the value".to_string()
        } else {
            format!("`{path}`")
        }
    };
    if let Some(n) = value.as_f64() {
        let js = if n.is_nan() {
            "NaN"
        } else if n > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return (!n.is_finite()).then(|| format!("{}: {js} is not a finite number", at(path)));
    }
    if value.is_bigint() {
        return Some(format!(
            "{}: a BigInt is not allowed here; use a number",
            at(path)
        ));
    }
    if value.is_symbol() || value.is_function() {
        return Some(format!(
            "{}: a {} is not a JSON value",
            at(path),
            value.js_typeof().as_string().unwrap_or_default()
        ));
    }
    if !value.is_object() {
        return None;
    }
    if depth >= 64 {
        return Some(format!(
            "{}: nested more than 64 levels deep (or a cycle)",
            at(path)
        ));
    }
    let len = path.len();
    if js_sys::Array::is_array(value) {
        let array = js_sys::Array::from(value);
        for (i, item) in array.iter().enumerate() {
            path.push_str(&format!("[{i}]"));
            let found = unrepresentable(&item, path, depth + 1);
            path.truncate(len);
            if found.is_some() {
                return found;
            }
        }
        return None;
    }
    let object = js_sys::Object::from(value.clone());
    for key in js_sys::Object::keys(&object).iter() {
        let name = key.as_string().unwrap_or_default();
        let item = js_sys::Reflect::get(&object, &key).unwrap_or(JsValue::UNDEFINED);
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(&name);
        let found = unrepresentable(&item, path, depth + 1);
        path.truncate(len);
        if found.is_some() {
            return found;
        }
    }
    None
}

fn prepare(request: JsValue) -> Result<Prepared, JsError> {
    let req: Request = from_js("request", request)?;
    CACHE
        .with(|c| Prepared::with_cache(&req, &mut c.borrow_mut()))
        .map_err(js_error)
}

/// A seed from a JS number, BigInt or decimal string; `None` for undefined/null.
fn seed_from(value: &JsValue) -> Result<Option<u64>, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let text = if let Some(n) = value.as_f64() {
        return seed_number(n).map(Some);
    } else if value.is_bigint() {
        js_sys::BigInt::from(value.clone())
            .to_string(10)
            .map(String::from)
            .unwrap_or_default()
    } else if let Some(s) = value.as_string() {
        s
    } else {
        return Err(JsError::new(
            "a seed must be a number, a BigInt or a decimal string",
        ));
    };
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|s| *s <= MAX_SEED)
        .map(Some)
        .ok_or_else(|| {
            JsError::new(&format!(
                "a seed must be an integer from 0 to {MAX_SEED}, not {text}"
            ))
        })
}

/// A seed from a JS number.
fn seed_number(n: f64) -> Result<u64, JsError> {
    if n.fract() != 0.0 || !(0.0..=MAX_SEED as f64).contains(&n) {
        return Err(JsError::new(&format!(
            "a seed must be an integer from 0 to {MAX_SEED}, not {n}"
        )));
    }
    Ok(n as u64)
}

/// [`seed_from`], or a fresh seed from the platform's entropy when none is given.
fn seed_or_fresh(value: &JsValue) -> Result<u64, JsError> {
    match seed_from(value)? {
        Some(s) => Ok(s),
        None => fresh_seed().map_err(js_error),
    }
}

/// The dice to roll first, in order.
#[wasm_bindgen(unchecked_return_type = "PlanDie[]")]
pub fn plan(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&request::plan(&prepare(request)?).map_err(js_error)?)
}

/// Decides the outcome from the faces rolled (one array per planned/requested batch, in order).
#[wasm_bindgen(unchecked_return_type = "Done | More")]
pub fn resolve(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number[][]")] faces: JsValue,
) -> Result<JsValue, JsError> {
    let prepared = prepare(request)?;
    let faces: Vec<Vec<i64>> = from_js("faces (an array of arrays of integers)", faces)?;
    to_js(&request::resolve(&prepared, &faces).map_err(js_error)?)
}

/// Rolls with the core's RNG and resolves; the result carries its faces and seed for replay.
#[wasm_bindgen(unchecked_return_type = "Done")]
pub fn roll(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint | string | undefined")] seed: JsValue,
) -> Result<JsValue, JsError> {
    let prepared = prepare(request)?;
    let seed = seed_or_fresh(&seed)?;
    to_js(&request::roll(&prepared, seed).map_err(js_error)?)
}

/// A number standing for `formula` (parsed once) in [`roll_dice`]; see `module/core.mjs`.
#[wasm_bindgen(js_name = diceHandle)]
pub fn dice_handle(
    #[wasm_bindgen(unchecked_param_type = "string")] formula: JsValue,
) -> Result<f64, JsError> {
    let text = string_arg("formula", &formula)?;
    let parsed = CACHE
        .with(|c| c.borrow_mut().get(&text))
        .and_then(crate::dice::flat::FlatRoller::new)
        .map_err(js_error)?;
    HANDLES.with(|h| {
        let mut h = h.borrow_mut();
        if h.formulas.len() >= MAX_HANDLES {
            return Err(JsError::new(&format!(
                "at most {MAX_HANDLES} dice handles at once; release them with diceHandlesRelease()"
            )));
        }
        h.formulas.push(parsed);
        Ok(f64::from(h.generation) * 65536.0 + (h.formulas.len() - 1) as f64)
    })
}

/// What every roll of a handle's formula shares: `{formula, terms: [{notation, flavor}]}`.
#[wasm_bindgen(js_name = diceShape, unchecked_return_type = "{formula: string, terms: {notation: string, flavor: string | null}[]}")]
pub fn dice_shape(handle: f64) -> Result<JsValue, JsError> {
    HANDLES.with(|h| {
        let h = h.borrow();
        to_js(&Handles::find(h.generation, &h.formulas, handle)?.shape())
    })
}

/// Rolls a handle's formula from `seed` (a fresh one when negative) into the flat buffer and
/// returns its byte offset in the wasm memory (layout in `src/dice/flat.rs`).
#[wasm_bindgen(js_name = rollDice)]
pub fn roll_dice(handle: f64, seed: f64) -> Result<u32, JsError> {
    let seed = if seed < 0.0 {
        fresh_seed().map_err(js_error)?
    } else {
        seed_number(seed)?
    };
    HANDLES.with(|h| {
        let h = &mut *h.borrow_mut();
        let roller = Handles::find(h.generation, &h.formulas, handle)?;
        roller.roll_into(seed, &mut h.out).map_err(js_error)?;
        Ok(h.out.numbers.as_ptr() as u32)
    })
}

/// Frees every dice handle; older handles are refused from then on.
#[wasm_bindgen(js_name = diceHandlesRelease)]
pub fn dice_handles_release() {
    HANDLES.with(|h| {
        let mut h = h.borrow_mut();
        h.formulas.clear();
        h.generation = (h.generation + 1) % (1 << 20);
    })
}

impl Handles {
    /// The roller `handle` stands for (split from `self` so the buffer can be borrowed too).
    fn find(
        generation: u32,
        formulas: &[crate::dice::flat::FlatRoller],
        handle: f64,
    ) -> Result<&crate::dice::flat::FlatRoller, JsError> {
        let index = handle % 65536.0;
        let known = handle.fract() == 0.0
            && handle >= 0.0
            && (handle / 65536.0).floor() == f64::from(generation)
            && (index as usize) < formulas.len();
        if !known {
            return Err(JsError::new(&format!(
                "{handle} is not a dice handle (or it was released); get one from diceHandle(formula)"
            )));
        }
        Ok(&formulas[index as usize])
    }
}

/// Exact probabilities: the distribution of the total, mean, sd and outcome labels.
#[wasm_bindgen(unchecked_return_type = "OddsReport")]
pub fn odds(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&request::odds(&prepare(request)?).map_err(js_error)?)
}

/// `n` totals of `request` from one stream started at `seed` (the first is `roll`'s total for
/// that seed), for simulations.
#[wasm_bindgen(js_name = rollMany)]
pub fn roll_many(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint | string | undefined")] seed: JsValue,
) -> Result<js_sys::Float64Array, JsError> {
    let max = crate::batch::MAX_ROLLS;
    let count = match n.as_f64() {
        Some(v) if v.fract() == 0.0 && (0.0..=f64::from(max)).contains(&v) => v as u32,
        _ => {
            return Err(JsError::new(&format!(
                "n must be an integer from 0 to {max} rolls, not {}",
                js_sys::JSON::stringify(&n)
                    .ok()
                    .and_then(|t| JsValue::from(t).as_string())
                    .unwrap_or_else(|| format!(
                        "a {}",
                        n.js_typeof().as_string().unwrap_or_default()
                    ))
            )))
        }
    };
    let prepared = prepare(request)?;
    let seed = seed_or_fresh(&seed)?;
    let totals = crate::batch::roll_many(&prepared, count, seed).map_err(js_error)?;
    Ok(js_sys::Float64Array::from(&totals[..]))
}

/// `odds` as typed arrays: `{formula, values: Float64Array, p: Float64Array, mean, sd, outcomes,
/// exact: null | {denominator: bigint, numerators: BigUint64Array}}`.
#[wasm_bindgen(js_name = oddsArrays, unchecked_return_type = "OddsArrays")]
pub fn odds_arrays(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let a = crate::batch::odds_arrays(&prepare(request)?).map_err(js_error)?;
    // the labels as one JSON text: building the object field by field from wasm cost ~1 µs a
    // property (a key string decoded, a Reflect.set), more than the odds of a small question;
    // sorted by label, as `odds` gives them
    let outcomes: std::collections::BTreeMap<&str, f64> = a.outcomes.iter().copied().collect();
    let outcomes = serde_json::to_string(&outcomes)
        .map_err(|e| JsError::new(&format!("cannot hand the odds to JavaScript: {e}")))?;
    let (den, nums) = match &a.exact {
        None => (JsValue::UNDEFINED, JsValue::UNDEFINED),
        Some((den, nums)) => (
            js_sys::BigInt::from(*den).into(),
            js_sys::BigUint64Array::from(&nums[..]).into(),
        ),
    };
    ODDS_ARRAYS
        .with(|f| {
            f.call8(
                &JsValue::NULL,
                &JsValue::from_str(&a.formula),
                &js_sys::Float64Array::from(&a.values[..]),
                &js_sys::Float64Array::from(&a.p[..]),
                &JsValue::from_f64(a.mean),
                &JsValue::from_f64(a.sd),
                &JsValue::from_str(&outcomes),
                &den,
                &nums,
            )
        })
        .map_err(|_| JsError::new("cannot hand the odds to JavaScript"))
}

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::version().to_string()
}

/// Counters of the parsed-formula cache.
#[wasm_bindgen(js_name = cacheStats, unchecked_return_type = "CacheStats")]
pub fn cache_stats() -> Result<JsValue, JsError> {
    to_js(&CACHE.with(|c| c.borrow().stats()))
}

/// A ChaCha20 stream owned by the caller: backs `CONFIG.Dice.randomUniform`.
#[wasm_bindgen]
pub struct Rng {
    inner: DiceRng,
}

#[wasm_bindgen]
impl Rng {
    /// A stream from `seed`, or from the platform's entropy when none is given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number | bigint | string | undefined")]
        seed: JsValue,
    ) -> Result<Rng, JsError> {
        let seed = seed_or_fresh(&seed)?;
        Ok(Rng {
            inner: DiceRng::from_seed(seed).map_err(js_error)?,
        })
    }

    /// A number in [0, 1) with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        self.inner.uniform()
    }

    /// The seed the stream started from.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> f64 {
        self.inner.seed() as f64
    }
}

/// A reducer's answer: the new state and what Foundry should carry out.
#[derive(Serialize)]
struct Reduced<S: Serialize, E: Serialize> {
    state: S,
    effects: Vec<E>,
}

/// A JS argument as a core type, through its JSON text; errors name the argument and the field.
fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsError> {
    crate::decode::from_json_text(what, &json_text(what, &value)?).map_err(js_error)
}

/// As [`from_js`] (the JSON text shows every field, so `deny_unknown_fields` sees a typo in an
/// options object).
fn from_js_strict<T: serde::de::DeserializeOwned>(
    what: &str,
    value: JsValue,
) -> Result<T, JsError> {
    from_js(what, value)
}

/// The combat tracker: `(state | null, event) -> {state, effects}`; refused events throw.
#[wasm_bindgen(js_name = combatApply, unchecked_return_type = "{state: object | null, effects: object[]}")]
pub fn combat_apply(
    #[wasm_bindgen(unchecked_param_type = "object | null")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] event: JsValue,
) -> Result<JsValue, JsError> {
    let state: Option<crate::combat::CombatState> = if state.is_null() || state.is_undefined() {
        None
    } else {
        Some(from_js("combat state", state)?)
    };
    let event: crate::combat::Event = from_js("combat event", event)?;
    let (state, effects) = crate::combat::apply(state.as_ref(), &event).map_err(js_error)?;
    to_js(&Reduced { state, effects })
}

/// A character's narrative state (strain, burdens, breaking): `(state, event) -> {state, effects}`.
#[wasm_bindgen(js_name = narrativeApply, unchecked_return_type = "{state: object, effects: object[]}")]
pub fn narrative_apply(
    #[wasm_bindgen(unchecked_param_type = "object")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] event: JsValue,
) -> Result<JsValue, JsError> {
    let state: crate::rulesets::icon::strain::NarrativeState = from_js("narrative state", state)?;
    let event: crate::rulesets::icon::strain::NarrativeEvent = from_js("narrative event", event)?;
    let (state, effects) = state.apply(&event).map_err(js_error)?;
    to_js(&Reduced { state, effects })
}

/// A progress clock (4, 6, 8, 10 or 12 segments) ticked by `ticks` (negative unticks):
/// `{segments, filled, complete}`.
#[wasm_bindgen(js_name = clockTick, unchecked_return_type = "{segments: number, filled: number, complete: boolean}")]
pub fn clock_tick(
    #[wasm_bindgen(unchecked_param_type = "{segments: number, filled: number}")] clock: JsValue,
    ticks: i32,
) -> Result<JsValue, JsError> {
    let clock: crate::rulesets::icon::strain::Clock = from_js("clock", clock)?;
    to_js(&clock.tick(i64::from(ticks)).map_err(js_error)?.view())
}

/// The end-of-session XP of `{ideals, challenged, ambition, burdenInvoked}`.
#[wasm_bindgen(js_name = sessionXp)]
pub fn session_xp(
    #[wasm_bindgen(unchecked_param_type = "object")] checklist: JsValue,
) -> Result<u32, JsError> {
    let xp: crate::rulesets::icon::strain::SessionXp = from_js_strict("XP checklist", checklist)?;
    Ok(xp.total())
}

/// The derived health values of an ICON character or foe: `{bloodied, bloodiedValue, healableMax,
/// vigorCap, fallen}` from `{hp, maxHp, vigor, wounds, ...}`.
#[wasm_bindgen(js_name = iconDerived, unchecked_return_type = "{bloodied: boolean, bloodiedValue: number, healableMax: number, vigorCap: number, fallen: boolean}")]
pub fn icon_derived(
    #[wasm_bindgen(unchecked_param_type = "object")] target: JsValue,
) -> Result<JsValue, JsError> {
    let target: crate::rulesets::icon::Target = from_js("character", target)?;
    to_js(&target.derived().map_err(js_error)?)
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

/// A string argument of megabytes (a whole pack), as [`string_arg`] but several times faster:
/// the generated glue copies a string's ASCII prefix one `charCodeAt` at a time in JS (about
/// 100 ms for a 10 MB log), while `TextEncoder.encodeInto` writes all of it into wasm memory
/// natively. Lone surrogates become U+FFFD, as in the glue.
fn long_string_arg(what: &str, value: &JsValue) -> Result<String, JsError> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
        return string_arg(what, value);
    };
    let units = text.length();
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

/// The boons, curses and cover an attack's situation gives: `{boons, curses, cover}` from
/// `{ranged, foeAdjacent, heightDifference, targetInCover}`.
#[wasm_bindgen(js_name = iconSituation, unchecked_return_type = "{boons: number, curses: number, cover: boolean}")]
pub fn icon_situation(
    #[wasm_bindgen(unchecked_param_type = "object")] situation: JsValue,
) -> Result<JsValue, JsError> {
    let s: crate::rulesets::icon::situation::Situation = from_js_strict("situation", situation)?;
    to_js(&s.modifiers().map_err(js_error)?)
}

/// The statuses to save against at the end of a turn (not ongoing, not states or effects).
#[wasm_bindgen(js_name = iconSaveable, unchecked_return_type = "string[]")]
pub fn icon_saveable(
    #[wasm_bindgen(unchecked_param_type = "string[]")] statuses: JsValue,
) -> Result<JsValue, JsError> {
    let statuses: Vec<String> = from_js("statuses", statuses)?;
    to_js(&crate::rulesets::icon::situation::saveable(&statuses))
}

/// The statuses left after the character uses an ability (stunned ends).
#[wasm_bindgen(js_name = iconAfterAbility, unchecked_return_type = "string[]")]
pub fn icon_after_ability(
    #[wasm_bindgen(unchecked_param_type = "string[]")] statuses: JsValue,
) -> Result<JsValue, JsError> {
    let statuses: Vec<String> = from_js("statuses", statuses)?;
    to_js(&crate::rulesets::icon::situation::after_ability(&statuses))
}

/// The charts the other rulesets print (ICONS levels, Tribute reality levels, the narrator's
/// difficulty, opposed-modifier and knowledge charts, Men & Supermen's special dice).
#[wasm_bindgen(js_name = rulesetTables, unchecked_return_type = "RulesetTables")]
pub fn ruleset_tables() -> Result<JsValue, JsError> {
    to_js(&crate::rulesets::tables())
}

/// A lookup in a Men & Supermen table: `{table: "epCost"|"skinTemper"|"learningModifier"|
/// "sightModifiers"|"baseHeight"|"baseAge", ...}`.
#[wasm_bindgen(js_name = mnsLookup, unchecked_return_type = "object")]
pub fn mns_lookup(
    #[wasm_bindgen(unchecked_param_type = "object")] query: JsValue,
) -> Result<JsValue, JsError> {
    let lookup: crate::rulesets::mns_tables::Lookup = from_js_strict("table lookup", query)?;
    to_js(&lookup.answer().map_err(js_error)?)
}
