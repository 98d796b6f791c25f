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
export interface CacheStats { parses: number; hits: number; size: number; }
"#;

fn js_error(e: crate::Error) -> JsError {
    JsError::new(e.message())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let s = serde_wasm_bindgen::Serializer::new()
        .serialize_maps_as_objects(true)
        .serialize_missing_as_null(true);
    value
        .serialize(&s)
        .map_err(|e| JsError::new(&format!("cannot hand the result to JavaScript: {e}")))
}

fn prepare(request: JsValue) -> Result<Prepared, JsError> {
    let req: Request = serde_wasm_bindgen::from_value(request)
        .map_err(|e| JsError::new(&format!("invalid request: {}", clean(&e.to_string()))))?;
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
        if n.fract() != 0.0 || !(0.0..=MAX_SEED as f64).contains(&n) {
            return Err(JsError::new(&format!(
                "a seed must be an integer from 0 to {MAX_SEED}, not {n}"
            )));
        }
        return Ok(Some(n as u64));
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
    let faces: Vec<Vec<i64>> = serde_wasm_bindgen::from_value(faces).map_err(|e| {
        JsError::new(&format!(
            "faces must be an array of arrays of integers: {e}"
        ))
    })?;
    to_js(&request::resolve(&prepared, &faces).map_err(js_error)?)
}

/// Rolls with the core's RNG and resolves; the result carries its faces and seed for replay.
#[wasm_bindgen(unchecked_return_type = "Done")]
pub fn roll(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint | string | undefined")] seed: JsValue,
) -> Result<JsValue, JsError> {
    let prepared = prepare(request)?;
    let seed = match seed_from(&seed)? {
        Some(s) => s,
        None => fresh_seed().map_err(js_error)?,
    };
    to_js(&request::roll(&prepared, seed).map_err(js_error)?)
}

/// Exact probabilities: the distribution of the total, mean, sd and outcome labels.
#[wasm_bindgen(unchecked_return_type = "OddsReport")]
pub fn odds(
    #[wasm_bindgen(unchecked_param_type = "CoreRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&request::odds(&prepare(request)?).map_err(js_error)?)
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
        let seed = match seed_from(&seed)? {
            Some(s) => s,
            None => fresh_seed().map_err(js_error)?,
        };
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

fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("invalid {what}: {}", clean(&e.to_string()))))
}

/// As [`from_js`], through a JSON value first: serde-wasm-bindgen reads only a plain struct's
/// known fields, so this is how `deny_unknown_fields` sees a typo in an options object.
fn from_js_strict<T: serde::de::DeserializeOwned>(
    what: &str,
    value: JsValue,
) -> Result<T, JsError> {
    let json: serde_json::Value = from_js(what, value)?;
    serde_json::from_value(json).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}

/// serde-wasm-bindgen's messages carry the JS `Error: ` prefix; ours say it once.
fn clean(message: &str) -> &str {
    message.strip_prefix("Error: ").unwrap_or(message)
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

/// The derived health values of an ICON character or foe: `{bloodied, bloodiedValue, healableMax,
/// vigorCap, fallen}` from `{hp, maxHp, vigor, wounds, ...}`.
#[wasm_bindgen(js_name = iconDerived, unchecked_return_type = "{bloodied: boolean, bloodiedValue: number, healableMax: number, vigorCap: number, fallen: boolean}")]
pub fn icon_derived(
    #[wasm_bindgen(unchecked_param_type = "object")] target: JsValue,
) -> Result<JsValue, JsError> {
    let target: crate::rulesets::icon::Target = from_js("character", target)?;
    to_js(&target.derived().map_err(js_error)?)
}

/// Imports an exported journal pack (NeDB log or JSON): `{documents, report}`.
#[wasm_bindgen(js_name = importPack, unchecked_return_type = "{documents: object[], report: object}")]
pub fn import_pack(
    text: &str,
    #[wasm_bindgen(
        unchecked_param_type = "{format?: \"auto\" | \"nedb\" | \"json\", force?: boolean} | undefined"
    )]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options: crate::packs::ImportOptions = if options.is_undefined() || options.is_null() {
        crate::packs::ImportOptions::default()
    } else {
        from_js_strict("import options", options)?
    };
    to_js(&crate::packs::import_pack(text, &options).map_err(js_error)?)
}

/// The glossary terms a page's HTML defines: `[{term, key, definition, page}]`.
#[wasm_bindgen(js_name = glossaryTerms, unchecked_return_type = "{term: string, key: string, definition: string, page: string}[]")]
pub fn glossary_terms(html: &str, page: &str) -> Result<JsValue, JsError> {
    to_js(&crate::packs::glossary::terms(html, page))
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
