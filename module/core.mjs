/**
 * The one place that loads the wasm rules core. Everything else imports from here.
 * @import { CoreApi } from "./types/core.js"
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via CoreApi below.
import init, * as wasm from "../wasm/icon_engine.js";

/** @type {Promise<CoreApi> | null} */
let loading = null;

/** @type {CoreApi | null} */
let loaded = null;

/**
 * Load and instantiate the wasm core once; later calls share the same promise.
 * The default `init()` fetches icon_engine_bg.wasm next to icon_engine.js, so this works from
 * systems/icon-engine/ in Foundry and from the repo root in tests.
 * @returns {Promise<CoreApi>}
 */
export function loadCore() {
  return loading ??= init().then(() => {
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

/** @type {CoreApi["roll"]} */
export const roll = (request, seed) => getCore().roll(request, seed);

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
