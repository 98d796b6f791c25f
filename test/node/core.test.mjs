/**
 * The wasm core's JS contract (docs/js-contract.md), checked against values computed here
 * independently (brute force / convolution with BigInt), not against the core itself.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core, { dice } from "../support/load-core.mjs";

/* -------------------------------------------- */
/*  Independent reference arithmetic            */
/* -------------------------------------------- */

/** @param {bigint} a @param {bigint} b @returns {bigint} */
const gcd = (a, b) => (b ? gcd(b, a % b) : a);

/** Reduced "n/d" (or "n" when d is 1) from BigInt counts. */
function reduced(n, d) {
  const g = gcd(n, d);
  return d / g === 1n ? `${n / g}` : `${n / g}/${d / g}`;
}

/** Counts of each total of `count` dice with `faces` faces, by convolution. */
function sumCounts(count, faces) {
  let counts = new Map([[0, 1n]]);
  for (let i = 0; i < count; i++) {
    const next = new Map();
    for (const [total, ways] of counts) {
      for (let f = 1; f <= faces; f++) next.set(total + f, (next.get(total + f) ?? 0n) + ways);
    }
    counts = next;
  }
  return counts;
}

/** Every ordered outcome of `count` dice with `faces` faces. */
function* outcomes(count, faces) {
  if (count === 0) {
    yield [];
    return;
  }
  for (const rest of outcomes(count - 1, faces)) {
    for (let f = 1; f <= faces; f++) yield [...rest, f];
  }
}

/** Sum of the `keep` highest of some faces. */
const keepHighest = (faces, keep) => [...faces].sort((a, b) => b - a).slice(0, keep).reduce((a, b) => a + b, 0);

/* -------------------------------------------- */

describe("odds", () => {
  test("3d6 matches the convolution exactly, and P(10) = 27/216 = 1/8", () => {
    const odds = core.odds(dice("3d6"));
    const counts = sumCounts(3, 6);
    assert.deepEqual(odds.totals.map(([v]) => v), [...counts.keys()].sort((a, b) => a - b));
    assert.ok(odds.exact, "3d6 has exact odds");
    for (const [value, fraction] of odds.exact.totals) {
      assert.equal(fraction, reduced(counts.get(value), 216n), `P(${value})`);
    }
    const ten = odds.exact.totals.find(([v]) => v === 10);
    assert.equal(ten?.[1], "1/8");
    const tenP = odds.totals.find(([v]) => v === 10)?.[1];
    assert.ok(Math.abs(tenP - 27 / 216) < 1e-12);
    assert.ok(Math.abs(odds.mean - 10.5) < 1e-12);
    assert.ok(Math.abs(odds.sd - Math.sqrt(3 * 35 / 12)) < 1e-12);
    assert.equal(odds.exact.mean, "21/2");
    assert.deepEqual(odds.outcomes, {});
    const sum = odds.totals.reduce((acc, [, p]) => acc + p, 0);
    assert.ok(Math.abs(sum - 1) < 1e-12);
  });

  test("4d6kh3 mean is 15869/1296, as brute force over 1296 outcomes says", () => {
    let sum = 0n;
    for (const faces of outcomes(4, 6)) sum += BigInt(keepHighest(faces, 3));
    assert.equal(reduced(sum, 1296n), "15869/1296");
    const odds = core.odds(dice("4d6kh3"));
    assert.equal(odds.exact?.mean, "15869/1296");
    assert.ok(Math.abs(odds.mean - 15869 / 1296) < 1e-12);
  });

  test("2d20kh1: P(20) = 39/400", () => {
    const odds = core.odds(dice("2d20kh1"));
    assert.equal(odds.exact?.totals.find(([v]) => v === 20)?.[1], "39/400");
    assert.equal(odds.totals.at(-1)?.[0], 20);
    assert.equal(odds.totals[0][0], 1);
  });

  test("a constant modifier shifts the support", () => {
    const plain = core.odds(dice("4d6kh3"));
    const plus = core.odds(dice("4d6kh3+2"));
    assert.deepEqual(plus.totals.map(([v]) => v), plain.totals.map(([v]) => v + 2));
  });
});

describe("plan", () => {
  test("4d6kh3+2 plans one entry of four d6", () => {
    const plan = core.plan(dice("4d6kh3+2"));
    assert.equal(plan.length, 1);
    assert.equal(plan[0].faces, 6);
    assert.equal(plan[0].count, 4);
    assert.equal(plan[0].notation, "d6");
    assert.equal(typeof plan[0].role, "string");
  });

  test("Fate dice plan as dF with 3 faces", () => {
    const [entry] = core.plan(dice("4dF"));
    assert.equal(entry.notation, "dF");
    assert.equal(entry.faces, 3);
    assert.equal(entry.count, 4);
  });
});

describe("resolve", () => {
  test("4d6kh3 with [6,1,3,5] totals 14", () => {
    const done = core.resolve(dice("4d6kh3"), [[6, 1, 3, 5]]);
    assert.equal(done.status, "done");
    assert.equal(done.total, 14);
    assert.deepEqual(done.faces, [[6, 1, 3, 5]]);
    assert.equal(done.terms?.length, 1);
    assert.deepEqual(done.terms[0].results.map(r => r.active), [true, false, true, true]);
    assert.equal(typeof done.formula, "string");
  });

  test("2d6x asks for one more d6 after a 6, then is done with the appended face", () => {
    const request = dice("2d6x");
    const more = core.resolve(request, [[6, 2]]);
    assert.equal(more.status, "more");
    assert.equal(more.dice.length, 1);
    assert.equal(more.dice[0].faces, 6);
    assert.equal(more.dice[0].count, 1);
    const done = core.resolve(request, [[6, 2], [3]]);
    assert.equal(done.status, "done");
    assert.equal(done.total, 11);
  });

  test("faces that do not match the plan throw", () => {
    assert.throws(() => core.resolve(dice("2d6"), [[6]]), Error);
    assert.throws(() => core.resolve(dice("2d6"), [[7, 1]]), Error);
  });
});

describe("roll", () => {
  test("the same seed gives the same faces; seeds may be numbers, BigInts or strings", () => {
    const request = dice("4d6kh3 + 2d6x + 1d20");
    const a = core.roll(request, 42);
    const b = core.roll(request, 42);
    assert.deepEqual(a, b);
    assert.equal(a.seed, 42);
    assert.deepEqual(core.roll(request, 42n).faces, a.faces);
    assert.deepEqual(core.roll(request, "42").faces, a.faces);
    const unseeded = core.roll(request);
    assert.ok(Number.isInteger(unseeded.seed) && unseeded.seed >= 0);
    assert.deepEqual(core.roll(request, unseeded.seed).faces, unseeded.faces);
  });

  test("seed 42 gives the faces the native core pins (tests/dice.rs), so wasm and native agree", () => {
    assert.deepEqual(core.roll(dice("10d6"), 42).faces, [[1, 6, 4, 6, 4, 6, 5, 3, 4, 6]]);
  });

  test("every rolled total is in the support of the odds", () => {
    for (const formula of ["3d6", "4d6kh3+2", "2d20kh1", "2d6x", "4dF", "1d100"]) {
      const support = new Set(core.odds(dice(formula)).totals.map(([v]) => v));
      for (let seed = 0; seed < 50; seed++) {
        const done = core.roll(dice(formula), seed);
        assert.ok(support.has(done.total), `${formula} seed ${seed}: ${done.total} not in support`);
      }
    }
  });

  test("replaying a roll's faces through resolve gives the same total", () => {
    const request = dice("2d6x + 3");
    for (let seed = 0; seed < 30; seed++) {
      const done = core.roll(request, seed);
      const again = core.resolve(request, done.faces);
      assert.equal(again.status, "done");
      assert.equal(again.total, done.total);
    }
  });
});

describe("errors", () => {
  for (const formula of ["2d6+", "d", "3d0", "1e9d6"]) {
    test(`"${formula}" throws an Error naming the position`, () => {
      for (const verb of [core.plan, core.odds, core.roll]) {
        assert.throws(() => verb(dice(formula)), error => {
          assert.ok(error instanceof Error, "a real Error");
          assert.match(error.message, /position \d+/);
          return true;
        });
      }
    });
  }

  test("a bad request kind or seed throws", () => {
    assert.throws(() => core.odds({ kind: "nonsense" }), Error);
    assert.throws(() => core.roll(dice("1d6"), -1), Error);
    assert.throws(() => core.roll(dice("1d6"), 1.5), Error);
  });
});

describe("Rng", () => {
  test("uniform() is in [0, 1) and a seeded stream repeats", () => {
    const a = new core.Rng(7);
    const b = new core.Rng(7);
    assert.equal(a.seed, 7);
    const xs = Array.from({ length: 1000 }, () => a.uniform());
    const ys = Array.from({ length: 1000 }, () => b.uniform());
    assert.deepEqual(xs, ys);
    assert.ok(xs.every(x => x >= 0 && x < 1));
    assert.ok(new Set(xs).size > 990, "values vary");
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
    const other = new core.Rng(8);
    assert.notEqual(other.uniform(), new core.Rng(7).uniform());
    a.free();
    b.free();
    other.free();
  });

  test("an unseeded Rng reports the seed it drew", () => {
    const rng = new core.Rng();
    const replay = new core.Rng(rng.seed);
    assert.equal(rng.uniform(), replay.uniform());
  });
});

describe("version and cache", () => {
  test("version is the crate's semver", () => {
    assert.match(core.version(), /^\d+\.\d+\.\d+/);
  });

  test("a formula is parsed once: the same request again, or another with its formula, hits the parse cache", () => {
    core.odds(dice("3d6 + 17"));
    const before = core.cacheStats();
    core.odds(dice("3d6 + 17"));
    core.roll(dice("3d6 + 17"), 4);
    core.plan(dice("3d6 + 17"));
    // other JSON text (keys in another order), the same formula
    core.odds({ formula: "3d6 + 17", kind: "dice" });
    const after = core.cacheStats();
    assert.equal(after.parses, before.parses, "no new parse");
    assert.equal(after.hits, before.hits + 4, "a hit each");
    assert.ok(after.size >= 1);
  });
});

describe("a request is read as it is at each call", () => {
  /** The outcome `resolve` gives for the faces of a roll. */
  const direct = (request, faces) => core.resolve(request, faces);
  const bare = ({ seed, ...outcome }) => outcome;
  const ofRoll = (request, seed) => { const { status, ...done } = direct(request, core.roll(request, seed).faces); return done; };

  test("an object changed between calls is read anew", () => {
    const r = { kind: "icon.attack", boons: 2, defense: 12 };
    const a = core.roll(r, 5);
    r.boons = 0;
    const b = core.roll(r, 5);
    assert.notEqual(a.boonDie, null);
    assert.equal(b.boonDie, null);
    assert.deepEqual(bare(b), ofRoll(r, 5));
    r.boons = "2";
    assert.throws(() => core.roll(r, 5), /`boons`: invalid type: string "2"/);
    assert.throws(() => core.roll(r, 5), /`boons`: invalid type: string "2"/, "refused every time");
    r.boons = 2;
    assert.deepEqual(core.roll(r, 5), a);
  });

  test("look-alike requests stay apart: nested values, array lengths, where a key sits", () => {
    const hit = (target, extra = {}) => ({ kind: "icon.applyDamage", target, amount: 4, source: "hit", ...extra });
    const base = { hp: 10, maxHp: 10, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: false };
    const requests = [
      hit({ ...base, statuses: [] }), hit({ ...base, statuses: ["dazed"] }), hit({ ...base, statuses: ["dazed", "burning+"] }),
      hit({ ...base, statuses: ["burning+", "dazed"] }), hit({ ...base, armor: 1, statuses: [] }), hit({ ...base, statuses: [] }, { pierce: true }),
      hit({ ...base, statuses: [] }, { amount: 5 }), { amount: 4, kind: "icon.applyDamage", source: "hit", target: { ...base, statuses: [] } }
    ];
    for (let round = 0; round < 2; round++) {
      for (const request of requests) {
        assert.deepEqual(bare(core.roll(structuredClone(request), 1)), ofRoll(request, 1), JSON.stringify(request));
      }
    }
    // the same formula as a number, a string and a negative zero
    assert.equal(core.roll({ kind: "icon.save", bonus: -0 }, 3).total, core.roll({ kind: "icon.save", bonus: 0 }, 3).total);
    assert.throws(() => core.roll({ kind: "icon.save", bonus: "0" }, 3), /`bonus`/);
  });

  test("class instances and getters are read as JSON reads them, with its checks", () => {
    class Attack { constructor() { this.kind = "icon.attack"; this.boons = 1; } }
    assert.equal(core.roll(new Attack(), 9).total, core.roll({ kind: "icon.attack", boons: 1 }, 9).total);
    const withGetter = { kind: "icon.attack", get boons() { return 1; } };
    assert.equal(core.roll(withGetter, 9).total, core.roll({ kind: "icon.attack", boons: 1 }, 9).total);
    assert.throws(() => core.roll({ kind: "icon.attack", boons: NaN }, 9), /`boons`: NaN/);
  });
});
