/**
 * The fast `roll` path (module/core.mjs → diceHandle/rollDice → module/dice/flat-outcome.mjs)
 * against the core's JSON path, and the core's own ChaCha20 (wasm SIMD) against a plain-JS
 * ChaCha20 written here from RFC 8439 and rand_core's PCG32 seeding.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import raw, { dice } from "../support/load-core.mjs";
import { loadCore, roll } from "../../module/core.mjs";
import { flatOutcome } from "../../module/dice/flat-outcome.mjs";

await loadCore();
/** The raw wasm exports (initSync hands back the instance's exports once initialised). */
const exports = /** @type {{memory: WebAssembly.Memory}} */ (raw.initSync());

const FORMULAS = [
  "1d20+3", "4d6kh3", "10d6x", "3d6cs>=5", "2d20kl1 + 1d4[fire] - 2", "4dF", "6d10r<2", "5d6xo",
  "3d8min3max6", "(1d4)d6", "8d6cf<2df=1", "d100 + d%", "7", "2d6rr=1[cold] * 2", "4d6dl1 + 4d6dh1",
  "3d6cs>4cf<3", "10d10x10kh3", "1d6x2>4", "(2d6 + 3) / 2", "1000d6",
];

/** The thrown message, or null. */
const message = fn => { try { fn(); return null; } catch (e) { return /** @type {Error} */ (e).message; } };

describe("the fast roll path", () => {
  test("gives exactly the JSON path's outcome for every kind of formula and seed", () => {
    for (const formula of FORMULAS) {
      for (const seed of [0, 1, 42, 123456789, 2 ** 53 - 1]) {
        assert.deepStrictEqual(roll(dice(formula), seed), raw.roll(dice(formula), seed), `${formula} seed ${seed}`);
      }
    }
  });

  test("the flat numbers build the same outcome (the fast path is really taken)", () => {
    const handle = raw.diceHandle("3d6cs>=5 + 2d8kh1[cold]");
    const shape = raw.diceShape(handle);
    assert.deepStrictEqual(shape.terms.map(t => t.flavor), [null, "cold"]);
    const at = raw.rollDice(handle, 99);
    const f64 = new Float64Array(exports.memory.buffer);
    assert.deepStrictEqual(flatOutcome(f64, at / 8, shape), raw.roll(dice("3d6cs>=5 + 2d8kh1[cold]"), 99));
  });

  test("without a seed it rolls fresh ones that replay", () => {
    const a = roll(dice("4d6kh3"));
    assert.ok(Number.isSafeInteger(a.seed));
    assert.deepStrictEqual(roll(dice("4d6kh3"), a.seed), a);
    const seeds = new Set(Array.from({ length: 20 }, () => roll(dice("1d20")).seed));
    assert.ok(seeds.size > 15, "fresh seeds differ");
  });

  test("refuses what the JSON path refuses, with its messages", () => {
    for (const [request, seed] of [
      [dice("2d6+"), 1], [dice("1d6"), -1], [dice("1d6"), 1.5], [dice("1d6"), 2 ** 53], [dice("1d6"), NaN],
      [{ kind: "dice", formula: "1d6", flavor: "x" }, 1], [{ kind: "dice", formula: 6 }, 1],
      [dice(`${"1000d6 + ".repeat(10)}1d6`), 1],
    ]) {
      const ours = message(() => roll(/** @type {any} */ (request), seed));
      assert.ok(ours, `${JSON.stringify(request)} ${seed} is refused`);
      assert.equal(ours, message(() => raw.roll(/** @type {any} */ (request), seed)));
    }
  });

  test("old handles are refused after a release; roll renews its own", () => {
    const handle = raw.diceHandle("1d6");
    raw.diceHandlesRelease();
    assert.match(message(() => raw.rollDice(handle, 1)) ?? "", /not a dice handle \(or it was released\)/);
    assert.match(message(() => raw.diceShape(0.5)) ?? "", /not a dice handle/);
    // more distinct formulas than the wrapper keeps, then the first again
    for (let i = 1; i <= 600; i++) assert.equal(roll(dice(`1d6 + ${i}`), i).total, raw.roll(dice(`1d6 + ${i}`), i).total);
    assert.deepStrictEqual(roll(dice("1d20+3"), 5), raw.roll(dice("1d20+3"), 5));
  });

  test("keeps reading the right memory after it grows", () => {
    const before = exports.memory.buffer.byteLength;
    const hog = [];
    for (let i = 0; hog.length < 40 && exports.memory.buffer.byteLength === before; i++) {
      hog.push(raw.rollMany(dice("1000d6"), 1000, i)); // each call allocates in wasm
      raw.importPack(JSON.stringify(Array.from({ length: 2000 }, (_, k) => ({ _id: `a${k}`.padEnd(16, "x"), name: "x".repeat(200) }))));
    }
    assert.ok(exports.memory.buffer.byteLength > before, "the memory grew");
    for (const formula of FORMULAS.slice(0, 5)) assert.deepStrictEqual(roll(dice(formula), 3), raw.roll(dice(formula), 3));
  });
});

/* ------------------------------------------------------------------ ChaCha20 in plain JS */

/** rand_core's seed_from_u64: PCG32 outputs as the key words. */
function keyFromSeed(seed) {
  const MUL = 6364136223846793005n, INC = 11634580027462260723n, M = (1n << 64n) - 1n;
  let state = BigInt(seed);
  return Array.from({ length: 8 }, () => {
    state = (state * MUL + INC) & M;
    const xorshifted = Number((((state >> 18n) ^ state) >> 27n) & 0xffffffffn);
    const rot = Number(state >> 59n);
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  });
}

/** RFC 8439 §2.3 block function with a 64-bit counter in words 12–13 and a zero nonce. */
function chachaBlock(key, counter) {
  const start = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, ...key, counter >>> 0, Math.floor(counter / 2 ** 32), 0, 0];
  const s = start.slice();
  const rotl = (v, n) => ((v << n) | (v >>> (32 - n))) >>> 0;
  const q = (a, b, c, d) => {
    s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16);
    s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12);
    s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8);
    s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7);
  };
  for (let i = 0; i < 10; i++) {
    q(0, 4, 8, 12); q(1, 5, 9, 13); q(2, 6, 10, 14); q(3, 7, 11, 15);
    q(0, 5, 10, 15); q(1, 6, 11, 12); q(2, 7, 8, 13); q(3, 4, 9, 14);
  }
  return s.map((v, i) => (v + start[i]) >>> 0);
}

function* words(seed) {
  const key = keyFromSeed(seed);
  for (let counter = 0; ; counter++) yield* chachaBlock(key, counter);
}

describe("the core's ChaCha20 stream (wasm SIMD, one and four blocks at a time)", () => {
  test("is the reference stream, word for word, through Rng.uniform", () => {
    for (const seed of [0, 1, 42, 2 ** 53 - 1]) {
      const w = words(seed);
      const rng = new raw.Rng(seed);
      // 300 uniforms read 600 words: the one-block refills and then the four-block ones
      for (let i = 0; i < 300; i++) {
        const hi = w.next().value, lo = w.next().value;
        const expected = (hi * 2 ** 21 + Math.floor(lo / 2 ** 11)) / 2 ** 53;
        assert.equal(rng.uniform(), expected, `seed ${seed}, uniform ${i}`);
      }
    }
  });

  test("the dice faces are the reference words by rejection sampling", () => {
    // d6: 2^32 mod 6 = 4, so words from 2^32 − 4 up are skipped
    const w = words(42);
    const expected = [];
    while (expected.length < 10) {
      const x = w.next().value;
      if (x < 2 ** 32 - 4) expected.push((x % 6) + 1);
    }
    assert.deepStrictEqual(raw.roll(dice("10d6"), 42).faces[0], expected);
    assert.deepStrictEqual(expected, [1, 6, 4, 6, 4, 6, 5, 3, 4, 6], "the stream pinned in src/dice/rng.rs");
  });
});
