/**
 * The one place that loads the wasm rules core, and the core's public API: everything else (the
 * system, macros, tests) goes through here. Every argument is checked in JS before wasm is
 * entered (module/core-arguments.mjs), so a hostile value can only ever make a call throw an
 * Error naming the field; the wasm exports themselves take JSON text and numbers.
 *
 * Requests are decoded once: the request's JSON text keys a handle in the core, and every verb
 * (plan, resolve, roll, odds, oddsArrays, rollMany) takes that handle. A `dice` roll comes back
 * as numbers in the core's memory, which {@link flatOutcome} builds the outcome object from.
 * @import { CoreApi, CoreRequest, Seed } from "./types/core.js"
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via CoreApi below.
import init, * as wasm from "../wasm/icon_engine.js";
import { flatOutcome, readTape } from "./dice/flat-outcome.mjs";
import { MAX_COMBATANTS, MAX_JSON, integerArg, jsonText, plainCopy, seedArg, stringArg } from "./core-arguments.mjs";

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

/** The wasm instance's memory, which `dice` rolls are read from. */
/** @type {WebAssembly.Memory | null} */
let memory = null;

/** The wasm memory as f64s and u64s, renewed when the memory has grown (an old view is then empty). */
let f64 = new Float64Array(0);
let u64 = new BigUint64Array(0);

/**
 * Load and instantiate the wasm core once; later calls share the same promise.
 * The default `init()` fetches icon_engine_bg.wasm next to icon_engine.js, so this works from
 * systems/icon-engine/ in Foundry and from the repo root in tests (where a core already
 * initialised with `initSync` is taken as it is).
 * @returns {Promise<CoreApi>}
 */
export function loadCore() {
  return loading ??= init().then((/** @type {{memory: WebAssembly.Memory}} */ exports) => {
    memory = exports.memory;
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
/*  Requests: decoded once, then by handle       */
/* -------------------------------------------- */

/** @typedef {import("./dice/flat-outcome.mjs").Shape} Shape */

/** @typedef {ReturnType<CoreApi["oddsArrays"]>} OddsArrays */
/** @typedef {{handle: number, shape: Shape, arrays?: OddsArrays}} Handled */

/** Request JSON text → its handle in the core (at most {@link MAX_REQUESTS}). */
/** @type {Map<string, Handled>} */
const requests = new Map();
/** The core keeps at most this many request handles (src/wasm.rs). */
const MAX_REQUESTS = 4096;

/**
 * The handle of a request, decoding it in the core the first time its JSON text is seen.
 * @param {unknown} request
 * @returns {Handled}
 */
function handled(request) {
  const known = recalled(request);
  if (known !== undefined) return known;
  const text = jsonText("request", request);
  let entry = requests.get(text);
  if (entry === undefined) {
    if (requests.size >= MAX_REQUESTS) release();
    let handle;
    try {
      handle = core().requestNew(text);
    } catch (error) {
      // full with handles made behind this module's back (the raw exports): start afresh
      if (!(error instanceof Error) || !FULL.test(error.message)) throw error;
      release();
      handle = core().requestNew(text);
    }
    entry = { handle, shape: JSON.parse(core().requestShape(handle)) };
    requests.set(text, entry);
  }
  remember(request, entry);
  return entry;
}

/** Frees every request handle, here and in the core. */
function release() {
  core().requestsRelease();
  requests.clear();
  flat.clear();
  flatLeaves = 0;
  keptTotals = 0;
}

/*
 * A request seen before is found again by its structure, keys and values in order (one map per
 * key and per value; nested plain objects and arrays between markers), without writing its
 * JSON: that text and its hash cost more than the roll itself. Values must be strings, finite
 * numbers, booleans or null, containers plain objects or arrays at most 8 deep; anything else,
 * and anything that throws while read, takes the JSON text's way (which checks it and says
 * what is wrong).
 */

/** @typedef {Map<unknown, any>} Trie */
/** @type {Trie} */
const flat = new Map();
let flatLeaves = 0;
/** Markers in a trie path (no key or value is a symbol): a request's entry, an object or array
 * value opening, a container closing. */
const LEAF = Symbol("request");
const OBJECT = Symbol("object");
const ARRAY = Symbol("array");
const CLOSE = Symbol("close");

/**
 * The child of `node` under `key`, made when `grow` (else undefined when missing).
 * @param {Trie} node
 * @param {unknown} key
 * @param {boolean} grow
 * @returns {Trie | undefined}
 */
function child(node, key, grow) {
  let next = node.get(key);
  if (next === undefined && grow) node.set(key, next = new Map());
  return next;
}

/**
 * The trie node under `node` for the value `item` at `key`, or undefined.
 * @param {Trie | undefined} node
 * @param {unknown} key
 * @param {unknown} item
 * @param {boolean} grow
 * @param {number} depth
 * @returns {Trie | undefined}
 */
function step(node, key, item, grow, depth) {
  const byKey = node && child(node, key, grow);
  if (byKey === undefined) return undefined;
  switch (typeof item) {
    case "number": return item - item === 0 ? child(byKey, item, grow) : undefined;
    case "string": case "boolean": return child(byKey, item, grow);
    case "object": {
      if (item === null) return child(byKey, item, grow);
      const proto = Object.getPrototypeOf(item);
      const marker = proto === Object.prototype ? OBJECT : proto === Array.prototype ? ARRAY : undefined;
      return marker && descend(child(byKey, marker, grow), item, grow, depth + 1);
    }
    default: return undefined;
  }
}

/**
 * The trie node where the path of `value`'s contents ends, or undefined.
 * @param {Trie | undefined} node
 * @param {object} value      A plain object or array.
 * @param {boolean} grow
 * @param {number} depth
 * @returns {Trie | undefined}
 */
function descend(node, value, grow, depth) {
  if (depth > 8) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && node; i++) node = step(node, i, value[i], grow, depth);
  } else {
    const record = /** @type {Record<string, unknown>} */ (value);
    for (const key in record) if (!(node = step(node, key, record[key], grow, depth))) return undefined;
  }
  return node && child(node, CLOSE, grow);
}

/**
 * The trie node that ends at `request`, or undefined.
 * @param {unknown} request
 * @param {boolean} grow  Add the nodes that are missing.
 * @returns {Trie | undefined}
 */
function walk(request, grow) {
  if (request === null || typeof request !== "object" || Object.getPrototypeOf(request) !== Object.prototype) return undefined;
  return descend(flat, request, grow, 0);
}

/**
 * The entry of a request seen before, or undefined.
 * @param {unknown} request
 * @returns {Handled | undefined}
 */
function recalled(request) {
  try {
    return walk(request, false)?.get(LEAF);
  } catch {
    return undefined;
  }
}

/**
 * Files a request's entry for {@link recalled}.
 * @param {unknown} request
 * @param {Handled} entry
 */
function remember(request, entry) {
  if (flatLeaves >= 2 * MAX_REQUESTS) {
    flat.clear();
    flatLeaves = 0;
  }
  try {
    const node = walk(request, true);
    if (node && !node.has(LEAF)) {
      node.set(LEAF, entry);
      flatLeaves++;
    }
  } catch {
    // not plain data after all: the JSON text's way each time
  }
}

/**
 * `verb` on the request's handle. Should the core have dropped its handles behind this module's
 * back (the raw `requestsRelease`), the request is decoded again, once.
 * @template T
 * @param {unknown} request
 * @param {(entry: Handled) => T} verb
 * @returns {T}
 */
function withHandle(request, verb) {
  const entry = handled(request);
  try {
    return verb(entry);
  } catch (error) {
    if (!(error instanceof Error) || !STALE.test(error.message)) throw error;
    release();
    return verb(handled(request));
  }
}
const STALE = /is not a request handle/;
const FULL = /at most \d+ request handles/;

/** @type {CoreApi["plan"]} */
export const plan = request => withHandle(request, ({ handle }) => JSON.parse(core().requestPlan(handle)));

/** @type {CoreApi["resolve"]} */
export function resolve(request, faces) {
  return withHandle(request, ({ handle }) => {
    const text = jsonText("faces (an array of arrays of integers)", faces);
    return JSON.parse(core().requestResolve(handle, text));
  });
}

/**
 * Rolls a request with the core's RNG. Without a seed the core takes the next one from its own
 * stream; the outcome's `seed` replays it either way.
 * @type {CoreApi["roll"]}
 */
export function roll(request, seed) {
  const entry = handled(request);
  const s = seedArg(seed);
  try {
    return rolled(entry, s);
  } catch (error) {
    if (!(error instanceof Error) || !STALE.test(error.message)) throw error;
    release();
    return rolled(handled(request), s);
  }
}

/**
 * @param {Handled} entry
 * @param {number} seed  -1: the core's next seed
 */
function rolled({ handle, shape }, seed) {
  const at = core().requestRoll(handle, seed);
  return flatOutcome(view, at / 8, shape, strings);
}

/** The wasm memory as f64s: growing the memory detaches the old buffer, which leaves a view empty. */
function view() {
  if (f64.length === 0) f64 = new Float64Array(/** @type {WebAssembly.Memory} */ (memory).buffer);
  return f64;
}

/** The strings of rule outcomes, numbered as the core numbers them (src/tape.rs). */
/** @type {import("./dice/flat-outcome.mjs").Strings} */
const strings = {
  list: [],
  pull() {
    for (const s of JSON.parse(core().requestStrings(this.list.length))) this.list.push(s);
  }
};

/** @type {CoreApi["odds"]} */
export const odds = request => withHandle(request, ({ handle }) => JSON.parse(core().requestOdds(handle)));

/**
 * The odds as typed arrays, copied out of the numbers the core writes (src/wasm.rs
 * `requestOddsArrays`): no string per total, no JSON. The first answer is kept with the
 * request's handle (odds are a pure function of the request; at most {@link MAX_KEPT_TOTALS}
 * totals kept), and every call gets arrays of its own.
 * @type {CoreApi["oddsArrays"]}
 */
export const oddsArrays = request => withHandle(request, entry => {
  const a = entry.arrays ?? keep(entry, arraysOf(entry));
  return {
    formula: a.formula, values: a.values.slice(), p: a.p.slice(), mean: a.mean, sd: a.sd, outcomes: { ...a.outcomes },
    exact: a.exact && { denominator: a.exact.denominator, numerators: a.exact.numerators.slice() }
  };
});

/** Totals kept by the odds answers of all handles here (the core keeps its own as many). */
const MAX_KEPT_TOTALS = 1 << 18;
let keptTotals = 0;

/**
 * Keeps an answer with its request's handle, dropping every kept answer when there is no room.
 * @param {Handled} entry
 * @param {OddsArrays} arrays
 */
function keep(entry, arrays) {
  if (keptTotals + arrays.values.length > MAX_KEPT_TOTALS) {
    for (const e of requests.values()) e.arrays = undefined;
    keptTotals = 0;
  }
  keptTotals += arrays.values.length;
  entry.arrays = arrays;
  return arrays;
}

/**
 * @param {Handled} entry
 * @returns {OddsArrays}
 */
function arraysOf({ handle, shape }) {
  const at = core().requestOddsArrays(handle) / 8;
  let f = view();
  const [n, mean, sd, exactAt, known] = f.subarray(at, at + 5);
  if (known > strings.list.length) {
    strings.pull();
    f = view();
  }
  const values = f.slice(at + 5, at + 5 + n);
  const p = f.slice(at + 5 + n, at + 5 + 2 * n);
  const outcomes = /** @type {Record<string, number>} */ (readTape(f, at + 5 + 2 * n, strings));
  let exact = null;
  if (exactAt >= 0) {
    // a view over all of the memory, kept (making a view costs more than copying a few words)
    if (u64.length === 0) u64 = new BigUint64Array(/** @type {WebAssembly.Memory} */ (memory).buffer);
    const w = exactAt / 8;
    exact = { denominator: u64[w], numerators: u64.slice(w + 1, w + 1 + n) };
  }
  return { formula: shape.formula, values, p, mean, sd, outcomes, exact };
}

/** @type {CoreApi["rollMany"]} */
export function rollMany(request, n, seed) {
  return withHandle(request, ({ handle }) => {
    const count = integerArg("n", n, 0, 1_000_000, " rolls");
    return core().requestRollMany(handle, count, seedArg(seed));
  });
}

/* -------------------------------------------- */
/*  Reducers and helpers                         */
/* -------------------------------------------- */

/** @type {CoreApi["combatApply"]} */
export function combatApply(state, event) {
  // a start past the limit is refused before its JSON is written (100,000 combatants: ~50 ms)
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

/** @type {CoreApi["iconSaveable"]} */
export const iconSaveable = statuses => JSON.parse(core().iconSaveableJson(jsonText("statuses", statuses)));

/** @type {CoreApi["iconAfterAbility"]} */
export const iconAfterAbility = statuses => JSON.parse(core().iconAfterAbilityJson(jsonText("statuses", statuses)));

/** @type {CoreApi["rulesetTables"]} */
export const rulesetTables = () => JSON.parse(core().rulesetTablesJson());

/** @type {CoreApi["mnsLookup"]} */
export const mnsLookup = query => JSON.parse(core().mnsLookupJson(jsonText("table lookup", query)));

/** @type {CoreApi["version"]} */
export const version = () => core().version();

/** @type {CoreApi["cacheStats"]} */
export const cacheStats = () => JSON.parse(core().cacheStatsJson());

/**
 * Import options as plain data (the pack exports read them as a JS object), or undefined.
 * @param {unknown} options
 */
const importOptions = options => (options === undefined || options === null ? undefined : plainCopy("import options", options));

/** @type {CoreApi["importPack"]} */
export const importPack = (text, options) => core().importPack(stringArg("text", text), importOptions(options));

/** @type {CoreApi["glossary"]} */
export const glossary = (text, options) => core().glossary(stringArg("text", text), importOptions(options));

/** @type {CoreApi["glossaryTerms"]} */
export const glossaryTerms = (html, page) => core().glossaryTerms(stringArg("html", html), stringArg("page", page));

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
const INTERNAL = /^(request|rng)|Json$|^(initSync|default|memory)$|^__/;

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
    iconDerived, iconSituation, iconSaveable, iconAfterAbility, rulesetTables, mnsLookup, version,
    cacheStats, importPack, glossary, glossaryTerms, Rng
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
