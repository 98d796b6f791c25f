/**
 * Builds a roll's outcome object from the flat numbers the core writes (src/wasm.rs
 * `requestRoll`): `seed, total, batches, (count, face × count) × batches`, then a `dice`
 * request's terms (layout and flag bits: src/dice/flat.rs) or a rule's outcome fields as a tape
 * (src/tape.rs). The object is exactly the one `resolve` gives for the same faces, plus the seed,
 * keys in the same order; building it here from numbers avoids writing the outcome as JSON in
 * wasm and parsing it back, which cost several times the roll itself.
 * @import { Done, DieResult, TermOutcome } from "../types/core.js"
 */

/** @typedef {{kind: string, formula: string, terms?: {notation: string, flavor: string | null}[]}} Shape */

/**
 * The strings a tape refers to by number, in the core's order; `pull` appends the ones the core
 * has numbered since (it calls into the core, which may grow its memory).
 * @typedef {{list: string[], pull: () => void}} Strings
 */

const ACTIVE = 1;
const EXPLODED = 2;
const REROLLED = 4;
const DISCARDED = 8;
const HAS_SUCCESS = 16;
const SUCCESS = 32;
const HAS_FAILURE = 64;
const FAILURE = 128;
const HAS_COUNT = 256;

/** Tape tags (src/tape.rs). */
const NULL = 0, FALSE = 1, TRUE = 2, NUM = 3, STR = 4, ARR = 5, OBJ = 6, TEXT = 7;

/** The next number to read (the readers below share it). */
let i = 0;

/**
 * The outcome written at `f[start]`.
 * @param {() => Float64Array} view  The wasm memory as f64s (a new view once it has grown).
 * @param {number} start          Index of the first number (the seed).
 * @param {Shape} shape           What every roll of the request shares.
 * @param {Strings} strings       The tape's strings.
 * @returns {Done & {seed: number}}
 */
export function flatOutcome(view, start, shape, strings) {
  let f = view();
  i = start;
  const seed = f[i++];
  const total = f[i++];
  const batches = f[i++];
  /** @type {number[][]} */
  const faces = new Array(batches);
  for (let b = 0; b < batches; b++) {
    const n = f[i++];
    const batch = new Array(n);
    for (let k = 0; k < n; k++) batch[k] = f[i++];
    faces[b] = batch;
  }
  if (shape.terms === undefined) {
    /** @type {Record<string, unknown>} */
    const done = { kind: shape.kind, total, faces, seed };
    // strings the core numbered since this module last asked (asking may grow the memory)
    if (f[i++] > strings.list.length) {
      strings.pull();
      f = view();
    }
    // the rule's outcome: one object whose fields follow the four above
    if (f[i++] !== OBJ) throw new Error("ICON Engine: a rule's outcome that is not an object");
    const n = f[i++];
    for (let k = 0; k < n; k++) {
      const key = /** @type {string} */ (value(f, strings));
      done[key] = value(f, strings);
    }
    return /** @type {Done & {seed: number}} */ (done);
  }
  const count = f[i++];
  /** @type {TermOutcome[]} */
  const terms = new Array(count);
  for (let t = 0; t < count; t++) {
    const termTotal = f[i++];
    const n = f[i++];
    /** @type {DieResult[]} */
    const results = new Array(n);
    for (let k = 0; k < n; k++) {
      const value = f[i++];
      const flags = f[i++];
      const dieCount = f[i++];
      /** @type {DieResult} */
      const r = { value, active: (flags & ACTIVE) !== 0 };
      if (flags > ACTIVE) {
        if (flags & HAS_COUNT) r.count = dieCount;
        if (flags & EXPLODED) r.exploded = true;
        if (flags & REROLLED) r.rerolled = true;
        if (flags & DISCARDED) r.discarded = true;
        if (flags & HAS_SUCCESS) r.success = (flags & SUCCESS) !== 0;
        if (flags & HAS_FAILURE) r.failure = (flags & FAILURE) !== 0;
      }
      results[k] = r;
    }
    const { notation, flavor } = shape.terms[t];
    terms[t] = flavor === null
      ? { notation, total: termTotal, results }
      : { notation, flavor, total: termTotal, results };
  }
  return /** @type {Done & {seed: number}} */ ({ kind: "dice", total, faces, seed, formula: shape.formula, terms });
}

/**
 * The tape value written at `f[start]` (src/tape.rs), once the strings it refers to are known.
 * @param {Float64Array} f
 * @param {number} start
 * @param {Strings} strings
 * @returns {unknown}
 */
export function readTape(f, start, strings) {
  i = start;
  return value(f, strings);
}

/**
 * The tape value at `f[i]` (src/tape.rs), as JSON would give it.
 * @param {Float64Array} f
 * @param {Strings} strings
 * @returns {unknown}
 */
function value(f, strings) {
  switch (f[i++]) {
    case NULL: return null;
    case FALSE: return false;
    case TRUE: return true;
    case NUM: return f[i++];
    case STR: return strings.list[f[i++]];
    case TEXT: {
      const n = f[i++];
      let s = "";
      for (let k = 0; k < n; k++) s += String.fromCharCode(f[i++]);
      return s;
    }
    case ARR: {
      const n = f[i++];
      const a = new Array(n);
      for (let k = 0; k < n; k++) a[k] = value(f, strings);
      return a;
    }
    case OBJ: {
      const n = f[i++];
      /** @type {Record<string, unknown>} */
      const o = {};
      for (let k = 0; k < n; k++) {
        const key = /** @type {string} */ (value(f, strings));
        o[key] = value(f, strings);
      }
      return o;
    }
    default:
      throw new Error(`ICON Engine: an unknown tag ${f[i - 1]} in a roll's outcome`);
  }
}
