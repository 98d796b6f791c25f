/**
 * The one place that loads the wasm rules core. Everything else imports from here.
 * @import { CoreApi } from "./types/core.js"
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via CoreApi below.
import init, * as wasm from "../wasm/icon_engine.js";
import { flatOutcome } from "./dice/flat-outcome.mjs";

/** @type {Promise<CoreApi> | null} */
let loading = null;

/** @type {CoreApi | null} */
let loaded = null;

/** The wasm instance's memory, which the fast `roll` path reads its outcome from. */
/** @type {WebAssembly.Memory | null} */
let memory = null;

/**
 * Load and instantiate the wasm core once; later calls share the same promise.
 * The default `init()` fetches icon_engine_bg.wasm next to icon_engine.js, so this works from
 * systems/icon-engine/ in Foundry and from the repo root in tests.
 * @returns {Promise<CoreApi>}
 */
export function loadCore() {
  return loading ??= init().then((/** @type {{memory: WebAssembly.Memory}} */ exports) => {
    memory = exports.memory;
    loaded = /** @type {CoreApi} */ (/** @type {unknown} */ (wasm));
    return loaded;
  });
}

/**
 * The loaded core, for synchronous callers that run after loading (e.g. `CONFIG.Dice.randomUniform`).
 * @returns {CoreApi}
 * @throws {Error} if {@link loadCore} has not finished yet.
 */
export function getCore() {
  if (!loaded) throw new Error("ICON Engine: the rules core is not loaded yet");
  return loaded;
}

/**
 * Has the core finished loading?
 * @returns {boolean}
 */
export function isCoreLoaded() {
  return loaded !== null;
}

/* -------------------------------------------- */
/*  The verbs, bound to the loaded core          */
/* -------------------------------------------- */

/** @type {CoreApi["plan"]} */
export const plan = request => getCore().plan(request);

/** @type {CoreApi["resolve"]} */
export const resolve = (request, faces) => getCore().resolve(request, faces);

/**
 * Rolls a request with the core's RNG. A plain `{kind: "dice", formula}` with a number seed (or
 * none) takes the fast path: the formula is parsed once into a handle, the core writes the
 * outcome as numbers into its memory and {@link flatOutcome} builds the same object the JSON path
 * returns. Everything else, including every input the core must refuse, goes the JSON way.
 * @type {CoreApi["roll"]}
 */
export function roll(request, seed) {
  const core = getCore();
  if (request?.kind === "dice" && typeof request.formula === "string" && memory
    && (seed === undefined || (typeof seed === "number" && seed >= 0)) && onlyKindAndFormula(request)) {
    const shaped = diceHandle(core, request.formula);
    const at = core.rollDice(shaped.handle, seed ?? -1);
    // growing the memory detaches the old buffer, which leaves the view empty
    if (f64.length === 0) f64 = new Float64Array(memory.buffer);
    return flatOutcome(f64, at / 8, shaped.shape);
  }
  return core.roll(request, seed);
}

/** @typedef {{handle: number, shape: import("./dice/flat-outcome.mjs").DiceShape}} Shaped */

/** Formula text → its handle in the core and its shape (at most {@link MAX_HANDLES}). */
/** @type {Map<string, Shaped>} */
const handles = new Map();
const MAX_HANDLES = 512;

/** The wasm memory as f64s, renewed when the memory has grown (the old view is then empty). */
let f64 = new Float64Array(0);

/**
 * @param {CoreApi} core
 * @param {string} formula
 * @returns {Shaped}
 */
function diceHandle(core, formula) {
  let shaped = handles.get(formula);
  if (shaped === undefined) {
    if (handles.size >= MAX_HANDLES) {
      core.diceHandlesRelease();
      handles.clear();
    }
    const handle = core.diceHandle(formula);
    shaped = { handle, shape: core.diceShape(handle) };
    handles.set(formula, shaped);
  }
  return shaped;
}

/**
 * Has the request no fields besides `kind` and `formula`? (Others are refused by the JSON path.)
 * @param {object} request
 */
function onlyKindAndFormula(request) {
  let n = 0;
  for (const key in request) if (++n > 2 || (key !== "kind" && key !== "formula")) return false;
  return true;
}

/** @type {CoreApi["odds"]} */
export const odds = request => getCore().odds(request);

/** @type {CoreApi["version"]} */
export const version = () => getCore().version();

/** @type {CoreApi["cacheStats"]} */
export const cacheStats = () => getCore().cacheStats();

/** @type {CoreApi["combatApply"]} */
export const combatApply = (state, event) => getCore().combatApply(state, event);

/** @type {CoreApi["narrativeApply"]} */
export const narrativeApply = (state, event) => getCore().narrativeApply(state, event);

/** @type {CoreApi["clockTick"]} */
export const clockTick = (clock, ticks) => getCore().clockTick(clock, ticks);

/** @type {CoreApi["sessionXp"]} */
export const sessionXp = checklist => getCore().sessionXp(checklist);

/** @type {CoreApi["iconDerived"]} */
export const iconDerived = target => getCore().iconDerived(target);

/**
 * A new ChaCha20 stream from the core.
 * @param {import("./types/core.js").Seed} [seed]  Omit to seed from the platform's entropy.
 * @returns {import("./types/core.js").Rng}
 */
export function createRng(seed) {
  const { Rng } = getCore();
  return seed === undefined ? new Rng() : new Rng(seed);
}
