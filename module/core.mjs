/**
 * The one place that loads the wasm rules core, and the core's public API: everything else (the
 * system, macros, tests) goes through here. Every argument is checked in JS before wasm is
 * entered (module/core-arguments.mjs), so a hostile value can only ever make a call throw an
 * Error naming the field; the wasm exports themselves take JSON text and numbers, and answer
 * with JSON text that `JSON.parse` makes into the objects below.
 *
 * This is the client core (dice, odds, rulesets, combat) that every client loads. The pack
 * importer is a module of its own that only an import loads (module/packs/importer.mjs).
 * @import { CoreApi, Seed } from "./types/core.js"
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via CoreApi below.
import init, * as wasm from "../wasm/icon_engine.js";
import { MAX_COMBATANTS, MAX_JSON, describe, integerArg, jsonText, plainCopy, seedArg } from "./core-arguments.mjs";

/**
 * The raw wasm exports (wasm/icon_engine.js), typed loosely: only this module calls them.
 * @typedef {Record<string, (...args: any[]) => any>} RawCore
 */

/** @type {Promise<CoreApi> | null} */
let loading = null;

/** @type {CoreApi | null} */
let loaded = null;

/** @type {RawCore | null} */
let raw = null;

/**
 * Load and instantiate the wasm core once; later calls share the same promise.
 * The default `init()` fetches icon_engine_bg.wasm next to icon_engine.js, so this works from
 * systems/icon-engine/ in Foundry and from the repo root in tests (where a core already
 * initialised with `initSync` is taken as it is).
 * @returns {Promise<CoreApi>}
 */
export function loadCore() {
  return loading ??= init().then(() => {
    raw = /** @type {RawCore} */ (/** @type {unknown} */ (wasm));
    loaded = makeApi(raw);
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

/** @returns {RawCore} */
function core() {
  if (!raw) throw new Error("ICON Engine: the rules core is not loaded yet");
  return raw;
}

/* -------------------------------------------- */
/*  The verbs                                    */
/* -------------------------------------------- */

/**
 * A request as the JSON text the core reads.
 * @param {unknown} request
 */
const requestText = request => jsonText("request", request);

/** @type {CoreApi["plan"]} */
export const plan = request => JSON.parse(core().planJson(requestText(request)));

/** @type {CoreApi["resolve"]} */
export function resolve(request, faces) {
  const text = requestText(request);
  return JSON.parse(core().resolveJson(text, jsonText("faces (an array of arrays of integers)", faces)));
}

/**
 * Rolls a request with the core's RNG. Without a seed the core takes the next one from its own
 * stream; the outcome's `seed` replays it either way.
 * @type {CoreApi["roll"]}
 */
export function roll(request, seed) {
  const text = requestText(request);
  return JSON.parse(core().rollJson(text, seedArg(seed)));
}

/** @type {CoreApi["odds"]} */
export const odds = request => JSON.parse(core().oddsJson(requestText(request)));

/**
 * The odds as typed arrays: the core writes the exact numerators as decimal strings (a u64 is
 * not a number JSON gives JS exactly), read here as BigInts.
 * @type {CoreApi["oddsArrays"]}
 */
export function oddsArrays(request) {
  /** @type {{formula: string, values: number[], p: number[], mean: number, sd: number, outcomes: Record<string, number>, exact: null | {denominator: string, numerators: string[]}}} */
  const a = JSON.parse(core().oddsArraysJson(requestText(request)));
  return {
    formula: a.formula, values: Float64Array.from(a.values), p: Float64Array.from(a.p), mean: a.mean, sd: a.sd, outcomes: a.outcomes,
    exact: a.exact && { denominator: BigInt(a.exact.denominator), numerators: BigUint64Array.from(a.exact.numerators, BigInt) }
  };
}

/** @type {CoreApi["rollMany"]} */
export function rollMany(request, n, seed) {
  const text = requestText(request);
  const count = integerArg("n", n, 0, 1_000_000, " rolls");
  return core().rollManyTotals(text, count, seedArg(seed));
}

/* -------------------------------------------- */
/*  Reducers and helpers                         */
/* -------------------------------------------- */

/** @type {CoreApi["combatApply"]} */
export function combatApply(state, event) {
  // a start past the limit is refused before its JSON is written (100,000 combatants would take ~50 ms)
  const listed = /** @type {{combatants?: unknown} | null} */ (typeof event === "object" ? event : null)?.combatants;
  if (Array.isArray(listed) && listed.length > MAX_COMBATANTS) {
    throw new Error(`invalid combat event: \`combatants\`: a combat has at most ${MAX_COMBATANTS} combatants`);
  }
  // a fight's state and events may be megabytes (src/combat owns their limits)
  const stateText = state === null || state === undefined ? null : jsonText("combat state", state, MAX_JSON);
  return JSON.parse(core().combatApplyJson(stateText, jsonText("combat event", event, MAX_JSON)));
}

/** @type {CoreApi["narrativeApply"]} */
export function narrativeApply(state, event) {
  return JSON.parse(core().narrativeApplyJson(jsonText("narrative state", state), jsonText("narrative event", event)));
}

/** @type {CoreApi["clockTick"]} */
export function clockTick(clock, ticks) {
  const text = jsonText("clock", clock);
  const by = integerArg("ticks", ticks, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return JSON.parse(core().clockTickJson(text, by));
}

/** @type {CoreApi["sessionXp"]} */
export const sessionXp = checklist => core().sessionXpJson(jsonText("XP checklist", checklist));

/** @type {CoreApi["iconDerived"]} */
export const iconDerived = target => JSON.parse(core().iconDerivedJson(jsonText("character", target)));

/** @type {CoreApi["iconSituation"]} */
export const iconSituation = situation => JSON.parse(core().iconSituationJson(jsonText("situation", situation)));

/** @type {CoreApi["iconSightlines"]} */
export const iconSightlines = request => JSON.parse(core().iconSightlinesJson(jsonText("sightlines", request)));

/** @type {CoreApi["iconMovement"]} */
export const iconMovement = request => JSON.parse(core().iconMovementJson(jsonText("movement", request)));

/** @type {CoreApi["iconSaveable"]} */
export const iconSaveable = statuses => JSON.parse(core().iconSaveableJson(jsonText("statuses", statuses)));

/**
 * The statuses left once a character uses an ability: Stunned ends, and Stealth unless the
 * ability was a dash (`{dash: true}`; without options the ability is no dash).
 * @type {CoreApi["iconAfterAbility"]}
 */
export function iconAfterAbility(statuses, options) {
  const text = jsonText("statuses", statuses);
  return JSON.parse(core().iconAfterAbilityJson(text, dashOption(options)));
}

/**
 * `iconAfterAbility`'s options, read as plain data: `{dash?: boolean}` or nothing.
 * @param {unknown} options
 * @returns {boolean}
 */
function dashOption(options) {
  if (options === undefined) return false;
  const o = plainCopy("options", options);
  if (o === null || typeof o !== "object" || Array.isArray(o)) {
    throw new Error(`invalid options: an object {dash} expected, not ${describe(o)}`);
  }
  const { dash = false, ...rest } = /** @type {Record<string, unknown>} */ (o);
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new Error(`invalid options: unknown field \`${unknown}\`, expected \`dash\``);
  if (typeof dash !== "boolean") throw new Error(`invalid options: \`dash\` must be a boolean, not ${describe(dash)}`);
  return dash;
}

/** @type {CoreApi["iconEffectiveStatuses"]} */
export const iconEffectiveStatuses = statuses => JSON.parse(core().iconEffectiveStatusesJson(jsonText("statuses", statuses)));

/** @type {CoreApi["rulesetTables"]} */
export const rulesetTables = () => JSON.parse(core().rulesetTablesJson());

/** @type {CoreApi["mnsLookup"]} */
export const mnsLookup = query => JSON.parse(core().mnsLookupJson(jsonText("table lookup", query)));

/** @type {CoreApi["version"]} */
export const version = () => core().version();

/** @type {CoreApi["cacheStats"]} */
export const cacheStats = () => JSON.parse(core().cacheStatsJson());

/* -------------------------------------------- */
/*  The caller-owned stream                      */
/* -------------------------------------------- */

/** Frees the core's stream of an Rng that was dropped without `free()`. */
const dropped = new FinalizationRegistry((/** @type {number} */ id) => raw?.rngFree(id));

/**
 * A ChaCha20 stream owned by the caller (backs `CONFIG.Dice.randomUniform`): the same words for
 * the same seed as every roll's dice.
 */
export class Rng {
  /** The core's number for the stream; -1 once freed. */
  #id;

  /** @param {Seed} [seed]  Omit to take the next seed of the core's own stream. */
  constructor(seed) {
    this.#id = core().rngNew(seedArg(seed));
    dropped.register(this, this.#id, this);
  }

  /** @returns {number} in [0, 1) with 53 random bits. */
  uniform() {
    return core().rngUniform(this.#live());
  }

  /** @returns {number} The seed the stream started from. */
  get seed() {
    return core().rngSeed(this.#live());
  }

  /** Frees the stream (later calls throw; freeing twice does nothing). */
  free() {
    if (this.#id < 0) return;
    dropped.unregister(this);
    core().rngFree(this.#id);
    this.#id = -1;
  }

  #live() {
    if (this.#id < 0) throw new Error("this Rng was freed");
    return this.#id;
  }
}

/**
 * A new ChaCha20 stream from the core.
 * @param {Seed} [seed]  Omit to take the next seed of the core's own stream.
 * @returns {Rng}
 */
export function createRng(seed) {
  return new Rng(seed);
}

/* -------------------------------------------- */
/*  The API object                               */
/* -------------------------------------------- */

/** Raw exports that only this module calls (the layer under the API). */
const INTERNAL = /^rng|Json$|^(rollManyTotals|initSync|default|memory)$|^__/;

/**
 * The API object `loadCore` resolves to. Exports of the core that this module does not know
 * (added later) come through too, each argument checked the same way first.
 * @param {RawCore} raw
 * @returns {CoreApi}
 */
function makeApi(raw) {
  /** @type {Record<string, unknown>} */
  const api = {
    plan, resolve, roll, odds, oddsArrays, rollMany, combatApply, narrativeApply, clockTick, sessionXp,
    iconDerived, iconSituation, iconSightlines, iconMovement, iconSaveable, iconAfterAbility, iconEffectiveStatuses, rulesetTables, mnsLookup, version,
    cacheStats, Rng
  };
  for (const [name, fn] of Object.entries(raw)) {
    if (name in api || INTERNAL.test(name) || typeof fn !== "function") continue;
    api[name] = (/** @type {unknown[]} */ ...args) => fn(...args.map((arg, i) => plainArg(`argument ${i + 1} of ${name}`, arg)));
  }
  return /** @type {CoreApi} */ (/** @type {unknown} */ (Object.freeze(api)));
}

/**
 * An argument of an export this module does not know: primitives as they are, objects as plain
 * data, the rest refused.
 * @param {string} what
 * @param {unknown} value
 */
function plainArg(what, value) {
  switch (typeof value) {
    case "string": case "number": case "boolean": case "undefined": return value;
    case "object": return value === null ? null : plainCopy(what, value);
    default: throw new Error(`invalid ${what}: a ${typeof value} is not allowed`);
  }
}
