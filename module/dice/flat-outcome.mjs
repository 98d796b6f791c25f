/**
 * Builds a `dice` roll's outcome object from the flat numbers the core writes for the fast `roll`
 * path (layout and flag bits: src/dice/flat.rs). The object is exactly the one the core's
 * JSON path returns, keys in the same order; building it here from numbers avoids serialising the
 * outcome to JSON in wasm and parsing it back, which cost far more than the roll itself.
 * @import { Done, DieResult, TermOutcome } from "../types/core.js"
 */

/** @typedef {{formula: string, terms: {notation: string, flavor: string | null}[]}} DiceShape */

const ACTIVE = 1;
const EXPLODED = 2;
const REROLLED = 4;
const DISCARDED = 8;
const HAS_SUCCESS = 16;
const SUCCESS = 32;
const HAS_FAILURE = 64;
const FAILURE = 128;
const HAS_COUNT = 256;

/**
 * The outcome written at `f[start]`.
 * @param {Float64Array} f       The wasm memory as f64s.
 * @param {number} start          Index of the first number (the seed).
 * @param {DiceShape} shape       What every roll of the formula shares.
 * @returns {Done & {seed: number}}
 */
export function flatOutcome(f, start, shape) {
  let i = start;
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
