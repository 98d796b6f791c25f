/**
 * `roll` through module/core.mjs (the core draws the faces and evaluates them in one pass) against
 * `resolve` of the same faces (the core reading faces it is given: its other way to an
 * outcome), and the core's own ChaCha20 (wasm SIMD) against a plain-JS ChaCha20 written here
 * from RFC 8439 and rand_core's PCG32 seeding.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core, { dice, raw } from "../support/load-core.mjs";

/** The raw wasm exports' memory (initSync hands back the instance's exports once initialised). */
const exports = /** @type {{memory: WebAssembly.Memory}} */ (raw.initSync());

const FORMULAS = [
  "1d20+3", "4d6kh3", "10d6x", "3d6cs>=5", "2d20kl1 + 1d4[fire] - 2", "4dF", "6d10r<2", "5d6xo",
  "3d8min3max6", "(1d4)d6", "8d6cf<2df=1", "d100 + d%", "7", "2d6rr=1[cold] * 2", "4d6dl1 + 4d6dh1",
  "3d6cs>4cf<3", "10d10x10kh3", "1d6x2>4", "(2d6 + 3) / 2", "1000d6",
];

/** The thrown message, or null. */
const message = fn => { try { fn(); return null; } catch (e) { return /** @type {Error} */ (e).message; } };

/** What `resolve` makes of a roll's faces, with the roll's seed: the outcome `roll` must give. */
function resolved(request, rolled) {
  const answer = core.resolve(request, rolled.faces);
  assert.equal(answer.status, "done");
  const { status, ...done } = answer;
  return { ...done, seed: rolled.seed };
}

describe("roll", () => {
  test("gives the outcome resolve gives for its faces, for every kind of formula and seed", () => {
    for (const formula of FORMULAS) {
      for (const seed of [0, 1, 42, 123456789, 2 ** 53 - 1]) {
        const rolled = core.roll(dice(formula), seed);
        assert.equal(rolled.seed, seed);
        assert.deepStrictEqual(rolled, resolved(dice(formula), rolled), `${formula} seed ${seed}`);
      }
    }
  });

  test("gives the outcome resolve gives for its faces, for every rule kind", () => {
    const target = { hp: 20, maxHp: 20, vigor: 5, armor: 1, wounds: 1, isPlayerCharacter: true, statuses: ["dazed", "burning+"] };
    const requests = [
      { kind: "icon.attack", boons: 2, defense: 12 }, { kind: "icon.attack", curses: 3 }, { kind: "icon.save", boons: 1 },
      { kind: "icon.damage", result: "crit", die: 8, dice: 2, fray: 3, bonusDice: 1 }, { kind: "icon.action", rating: 3, push: true },
      { kind: "icon.fortune", dice: 0 }, { kind: "icon.evasion" }, { kind: "icon.applyDamage", target, amount: 30, source: "hit" },
      { kind: "icon.heal", target: { ...target, hp: 0 }, healing: "rescue" }, { kind: "icons.test", ability: 6, difficulty: 5 },
      { kind: "tribute.test", rank: 2, focus: 2, burden: 1, die: 8, opposition: { rank: 1, focus: 1 } },
      { kind: "narrator.skill", skill: 12, difficulty: 3, use: "attack", baseDamage: 4, ranks: 2 }, { kind: "mns.action", target: 60, bonus: 5 },
      { kind: "mns.save", score: 12, dice: "d100" }, { kind: "mns.dice", die: "d%" }, { kind: "mns.dice", die: "d1000" }
    ];
    for (const request of requests) {
      for (const seed of [0, 1, 7, 99, 2 ** 53 - 1]) {
        const rolled = core.roll(request, seed);
        const expected = resolved(request, rolled);
        assert.deepStrictEqual(rolled, expected, `${request.kind} seed ${seed}`);
        // resolve's order, with the seed after the faces (where the core's Done has it)
        const keys = Object.keys(expected).filter(k => k !== "seed");
        keys.splice(keys.indexOf("faces") + 1, 0, "seed");
        assert.deepStrictEqual(Object.keys(rolled), keys);
      }
    }
    // a special character's 1s come back as a follow-up batch, drawn within the same roll
    const rerolls = Array.from({ length: 200 }, (_, s) => core.roll({ kind: "mns.action", target: 60 }, s)).filter(r => r.faces.length > 1);
    assert.ok(rerolls.length > 0 && rerolls.every(r => r.rerolls.length === r.faces[1].length));
  });

  test("an outcome of the longest list of strings comes back whole", () => {
    // 128 statuses, the most a list holds, in UTF-8 of one to four bytes a character
    const statuses = Array.from({ length: 128 }, (_, k) => `status ${k} ✓ ${"😀".repeat(k % 3)}`);
    const target = { hp: 10, maxHp: 20, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: false, statuses };
    for (let round = 0; round < 2; round++) {
      const rolled = core.roll({ kind: "icon.applyDamage", target, amount: 1, source: "hit" }, 5);
      assert.deepStrictEqual(rolled.target.statuses.slice(0, 128), statuses);
      assert.deepStrictEqual(rolled, resolved({ kind: "icon.applyDamage", target, amount: 1, source: "hit" }, rolled));
    }
  });

  test("terms without a flavor have no flavor key, as resolve gives them", () => {
    const rolled = core.roll(dice("3d6cs>=5 + 2d8kh1[cold]"), 99);
    assert.deepStrictEqual(rolled.terms.map(t => Object.hasOwn(t, "flavor") ? t.flavor : null), [null, "cold"]);
    assert.deepStrictEqual(Object.keys(rolled), ["kind", "total", "faces", "seed", "formula", "terms"]);
  });

  test("without a seed it rolls seeds that replay", () => {
    const a = core.roll(dice("4d6kh3"));
    assert.ok(Number.isSafeInteger(a.seed));
    assert.deepStrictEqual(core.roll(dice("4d6kh3"), a.seed), a);
    const seeds = new Set(Array.from({ length: 20 }, () => core.roll(dice("1d20")).seed));
    assert.ok(seeds.size > 15, "unseeded rolls take different seeds");
  });

  test("refuses bad seeds and requests, naming them", () => {
    for (const [request, seed, re] of [
      [dice("2d6+"), 1, /2d6\+/], [dice("1d6"), -1, /seed.*-1/], [dice("1d6"), 1.5, /seed.*1\.5/],
      [dice("1d6"), 2 ** 53, /seed.*9007199254740992/], [dice("1d6"), NaN, /seed.*NaN/],
      [{ kind: "dice", formula: "1d6", flavor: "x" }, 1, /unknown field `flavor`/],
      [{ kind: "dice", formula: 6 }, 1, /`formula`.*integer/],
      [dice(`${"1000d6 + ".repeat(10)}1d6`), 1, /at most 10000 dice/],
    ]) {
      assert.match(message(() => core.roll(/** @type {any} */ (request), seed)) ?? "did not throw", re, `${JSON.stringify(request)} ${seed}`);
    }
  });

  test("keeps reading the right memory after it grows", () => {
    const before = exports.memory.buffer.byteLength;
    const hog = [];
    for (let i = 0; hog.length < 40 && exports.memory.buffer.byteLength === before; i++) {
      hog.push(core.rollMany(dice("1000d6"), 1000, i)); // each call allocates in wasm
      hog.push(core.oddsArrays(dice(`1d2000 + ${i}`))); // and the odds' memo keeps each answer
    }
    assert.ok(exports.memory.buffer.byteLength > before, "the memory grew");
    for (const formula of FORMULAS.slice(0, 5)) {
      const rolled = core.roll(dice(formula), 3);
      assert.deepStrictEqual(rolled, resolved(dice(formula), rolled));
    }
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
      const rng = new core.Rng(seed);
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
    assert.deepStrictEqual(core.roll(dice("10d6"), 42).faces[0], expected);
    assert.deepStrictEqual(expected, [1, 6, 4, 6, 4, 6, 5, 3, 4, 6], "the stream pinned in src/dice/rng.rs");
  });
});
