/**
 * The wasm boundary never traps: every export, called with malformed JS values (wrong types,
 * missing fields, NaN, huge numbers, negative dice, 10^9 dice, BigInts, symbols, functions,
 * cycles), throws a plain JS Error whose message names the field, and the module still answers
 * correctly afterwards: the client core's exports and the pack importer's. Requests beyond the limits are refused with the limit in the message.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core, { dice, raw } from "../support/load-core.mjs";
import importer, { raw as rawImporter } from "../support/load-importer.mjs";

/** 3d6 with seed 7, and P(3d6 = 10) = 27/216, taken before anything malformed is sent. */
const before = {
  roll: core.roll(dice("3d6"), 7),
  odds: core.odds(dice("3d6")).exact.totals.find(([v]) => v === 10)[1]
};

/** Asserts `fn` throws an Error (never a wasm RuntimeError trap) whose message matches `re`. */
function refuses(fn, re, label = String(re)) {
  let thrown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, `${label}: did not throw`);
  assert.ok(thrown instanceof Error, `${label}: threw a non-Error ${String(thrown)}`);
  assert.ok(!(thrown instanceof WebAssembly.RuntimeError), `${label}: the wasm trapped: ${thrown.message}`);
  if (re) assert.match(thrown.message, re, label);
  return thrown.message;
}

const cyclic = { kind: "dice", formula: "1d6" };
cyclic.self = cyclic;

/** Values that are wrong almost everywhere. */
const BAD = [
  undefined, null, NaN, Infinity, -Infinity, -1, 0.5, 1e9, 2 ** 64, -(2 ** 63), "", "x", "1d6",
  true, [], [[]], [[NaN]], [["x"]], {}, { kind: 5 }, { kind: "nope" }, { kind: "dice" },
  { kind: "dice", formula: NaN }, { kind: "dice", formula: "1000000000d6" },
  { kind: "icon.fortune", dice: -3 }, { kind: "icon.fortune", dice: 1e9 },
  { type: "start", combatants: [{ id: "a", side: "sideways" }] }, { type: "beginTurn" },
  10n, Symbol("s"), () => 1, cyclic, new Map([["kind", "dice"]]), new Uint8Array(4),
  "\u0000".repeat(64), "{".repeat(10000)
];

/** The API's functions: the core's, then the importer's (named `importer.x`). */
const API = [...Object.entries(core), ...Object.entries(importer).map(([name, f]) => [`importer.${name}`, f])];

describe("every export refuses malformed values with an Error, never a trap", () => {
  const exports = API.filter(([name, f]) =>
    typeof f === "function" && !["initSync", "default"].includes(name) && !name.startsWith("__"));

  test("the modules export what docs/js-contract.md lists", () => {
    const names = exports.map(([n]) => n);
    for (const name of ["plan", "resolve", "roll", "odds", "oddsArrays", "rollMany", "combatApply",
      "narrativeApply", "iconDerived", "iconSituation", "iconSaveable", "version", "cacheStats", "Rng",
      "importer.importPack", "importer.glossaryTerms", "importer.glossary", "importer.version"]) {
      assert.ok(names.includes(name), `${name} is exported`);
    }
    assert.ok(!names.includes("importPack"), "the client core has no importer");
  });

  for (const [name, fn] of exports) {
    test(`${name}`, () => {
      const arity = Math.max(fn.length, 1);
      let calls = 0;
      for (let position = 0; position < arity; position++) {
        for (const bad of BAD) {
          // the other arguments are valid where a valid value is obvious
          const args = Array.from({ length: arity }, (_, i) => (i === position ? bad : undefined));
          calls++;
          try {
            if (name === "Rng") new fn(...args).uniform();
            else fn(...args);
          } catch (e) {
            assert.ok(e instanceof Error, `${name}(${position}: ${String(bad)}) threw a non-Error`);
            assert.ok(!(e instanceof WebAssembly.RuntimeError), `${name} trapped: ${e.message}`);
            assert.ok(e.message.length > 0, `${name}: an empty message`);
          }
        }
      }
      assert.ok(calls >= BAD.length);
      // and the module still answers, exactly as before
      assert.deepEqual(core.roll(dice("3d6"), 7), before.roll);
      assert.equal(core.odds(dice("3d6")).exact.totals.find(([v]) => v === 10)[1], before.odds);
    });
  }
});

/* ------------------------------------------------------------------ issue 16, point 1 */

/** A proxy every one of whose traps throws. */
const trapping = () => new Proxy({}, Object.fromEntries(
  ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "apply", "construct"]
    .map(trap => [trap, () => { throw new Error(`the ${trap} trap`); }])));

/** Arguments that once made the wasm-bindgen glue throw inside wasm, which skipped restoring
 * wasm's stack pointer: after 1,000–3,600 of them every export trapped with "memory access out of
 * bounds". Top-level and nested in a request, in every argument position. */
const HOSTILE = [
  () => Symbol("s"),
  () => () => 1,
  () => ({ toJSON() { return undefined; } }),
  () => ({ toJSON() { throw new Error("toJSON threw"); } }),
  trapping,
  () => ({ get kind() { throw new Error("a getter threw"); } }),
  () => ({ kind: "dice", formula: Symbol("f") }),
  () => ({ kind: "icon.attack", boons: trapping() }),
  () => ({ kind: "icon.attack", boons: { toJSON() { return undefined; } } }),
  () => [[1, 2, trapping()]],
  () => 10n,
  () => cyclic,
  () => JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`),
  () => ({ length: 1e9, slice() { return this; } }),
  () => new Uint8Array(8)
];

/** The answers that must still come back after the hammering: taken before it. */
const answers = () => ({
  roll: core.roll(dice("3d6"), 7),
  attack: core.roll({ kind: "icon.attack", boons: 2, defense: 12 }, 99),
  odds: core.odds(dice("3d6")).exact.totals.find(([v]) => v === 10)[1],
  combat: core.combatApply(null, { type: "start", combatants: [{ id: "a", side: "party" }, { id: "b", side: "foes" }] }).state.combatants.length,
  pack: importer.importPack('{"_id":"aaaaaaaaaaaaaaa1","name":"x","pages":[]}\n').documents.length,
  uniform: new core.Rng(5).uniform()
});

describe("10,000 hostile calls per export leave the module answering (issue 16, point 1)", () => {
  const expected = answers();
  assert.equal(expected.odds, "1/8");
  const freed = new core.Rng(1);
  freed.free();

  /** Calls `fn` 10,000 times with hostile values in turn in every argument position. */
  const hammer = (name, fn, arity, construct = false) => {
    const kinds = new Set();
    for (let i = 0; i < 10_000; i++) {
      const bad = HOSTILE[i % HOSTILE.length]();
      const args = Array.from({ length: Math.max(arity, 1) }, (_, k) => (k === i % Math.max(arity, 1) ? bad : 1));
      try {
        if (construct) new fn(...args);
        else fn(...args);
      } catch (e) {
        assert.ok(!(e instanceof WebAssembly.RuntimeError), `${name} trapped: ${e.message}`);
        assert.ok(e instanceof Error, `${name} threw a non-Error`);
        kinds.add(e.constructor.name);
      }
    }
    return kinds;
  };

  for (const [name, fn] of API) {
    test(`${name}: every refusal an Error naming something, never a trap`, () => {
      hammer(name, fn, fn.length, name === "Rng");
      assert.deepEqual(answers(), expected);
    });
  }
  test("a freed Rng, 10,000 times", () => {
    for (let i = 0; i < 10_000; i++) {
      assert.throws(() => (i % 2 ? freed.uniform() : freed.seed), /this Rng was freed/);
    }
    freed.free(); // again: nothing
    assert.deepEqual(answers(), expected);
  });
  // the raw exports under the API take only JSON text and numbers; whatever reaches them is
  // refused in JS before wasm is entered, or read by wasm without calling back into JS
  for (const [name, fn] of [...Object.entries(raw), ...Object.entries(rawImporter).map(([n, f]) => [`importer ${n}`, f])]) {
    if (typeof fn !== "function" || /(^| )(initSync|default)$/.test(name)) continue;
    test(`raw ${name}`, () => {
      hammer(name, fn, fn.length);
      for (let i = 0; i < 1000; i++) {
        for (const stale of [-1, 0.5, 2 ** 60, NaN]) {
          if (name.startsWith("rng") && name !== "rngNew") try { fn(stale); } catch (e) { assert.ok(!(e instanceof WebAssembly.RuntimeError)); }
        }
      }
      assert.deepEqual(answers(), expected);
    });
  }
  test("messages of the hostile values name where they are", () => {
    assert.match(refuses(() => core.roll({ kind: "icon.attack", boons: trapping() })), /invalid request: `boons`: reading it threw the (get|ownKeys|getPrototypeOf) trap/);
    assert.match(refuses(() => core.roll({ kind: "icon.attack", boons: { toJSON() { return undefined; } } })), /`boons`: its toJSON\(\) gave no value/);
    assert.match(refuses(() => core.roll({ kind: "icon.attack", boons: () => 2 })), /`boons`: a function is not a JSON value/);
    assert.match(refuses(() => core.roll({ kind: "dice", formula: Symbol("f") })), /`formula`: a symbol is not a JSON value/);
    assert.match(refuses(() => core.roll({ get kind() { throw new Error("a getter threw"); } })), /`kind`: reading it threw a getter threw/);
    assert.match(refuses(() => core.resolve(dice("3d6"), [[1, 2, trapping()]])), /faces.*`\[0\]\[2\]`: reading it threw/);
    assert.match(refuses(() => core.odds(Symbol("s"))), /invalid request: a symbol is not a JSON value/);
    assert.match(refuses(() => core.odds({ toJSON() { return undefined; } })), /invalid request: its toJSON\(\) gave no value/);
    assert.match(refuses(() => core.combatApply(null, { type: "start", combatants: [{ id: 1n }] })), /combat event: `combatants\[0\]\.id`: a BigInt/);
    assert.match(refuses(() => core.clockTick({ segments: 4, filled: 0 }, Symbol("t"))), /ticks must be an integer.*a symbol/);
    assert.match(refuses(() => new core.Rng(Symbol("s"))), /a seed must be a number, a BigInt or a decimal string, not a symbol/);
    // a Date is what its toJSON says (a string): refused for what it is, not for being a Date
    assert.match(refuses(() => core.roll({ kind: "icon.attack", boons: new Date(0) })), /`boons`: invalid type: string "1970/);
  });
});

describe("messages name the field", () => {
  const cases = [
    ["NaN", () => core.roll({ kind: "icon.attack", boons: NaN }), /`boons`.*NaN/],
    ["Infinity", () => core.odds({ kind: "icon.attack", defense: Infinity }), /`defense`.*Infinity/],
    ["a string for a number", () => core.roll({ kind: "icon.attack", boons: "2" }), /`boons`.*string/],
    ["a fraction", () => core.plan({ kind: "icon.fortune", dice: 1.5 }), /`dice`.*1\.5/],
    ["negative dice", () => core.roll({ kind: "icon.fortune", dice: -1 }), /`dice`.*-1/],
    ["10^9 dice", () => core.roll({ kind: "icon.fortune", dice: 1e9 }), /dice/],
    ["10^9 dice in a formula", () => core.roll(dice("1000000000d6")), /1000/],
    ["2^64", () => core.roll({ kind: "icon.attack", boons: 2 ** 64 }), /`boons`/],
    ["a BigInt", () => core.roll({ kind: "icon.attack", boons: 2n }), /`boons`.*BigInt/],
    ["a function", () => core.roll({ kind: "dice", formula: () => "1d6" }), /formula/],
    ["a missing field", () => core.roll({ kind: "dice" }), /missing field `formula`/],
    ["an unknown field", () => core.roll({ kind: "icon.attack", boon: 1 }), /unknown field `boon`/],
    ["an unknown kind", () => core.roll({ kind: "icon.atack" }), /unknown variant `icon\.atack`/],
    ["no request at all", () => core.roll(undefined), /request.*missing/],
    ["a cycle", () => core.odds(cyclic), /self|circular|cycle/],
    ["a nested field", () => core.resolve({ kind: "icon.applyDamage", amount: 3, source: "hit", target: { hp: "ten", maxHp: 20 } }, []), /`target\.hp`/],
    ["faces with NaN", () => core.resolve(dice("3d6"), [[1, 2, NaN]]), /faces.*`\[0\]\[2\]`.*NaN/],
    ["faces that are not arrays", () => core.resolve(dice("3d6"), [1, 2, 3]), /faces.*`\[0\]`/],
    ["a NaN seed", () => core.roll(dice("1d6"), NaN), /seed.*NaN/],
    ["a negative seed", () => core.roll(dice("1d6"), -1), /seed/],
    ["an Rng seed", () => new core.Rng(2 ** 60), /seed/],
    ["rollMany's n", () => core.rollMany(dice("1d6"), -5, 1), /n must be.*-5/],
    ["rollMany's n as a string", () => core.rollMany(dice("1d6"), "5", 1), /n must be/],
    ["a combatant's side", () => core.combatApply(null, { type: "start", combatants: [{ id: "a", side: "sideways" }] }), /`combatants\[0\]\.side`.*sideways/],
    ["a combat state", () => core.combatApply({ round: "one" }, { type: "endTurn" }), /combat state.*`round`/],
    ["narrative strain", () => core.narrativeApply({ strain: NaN }, { type: "clearStrain" }), /`strain`.*NaN/],
    ["a derived value", () => core.iconDerived({ hp: "x", maxHp: 10 }), /`hp`/],
    ["import options", () => importer.importPack("", { force: "yes" }), /`force`/],
    ["a situation", () => core.iconSituation({ heightDifference: NaN }), /`heightDifference`.*NaN/],
    ["statuses", () => core.iconSaveable(["dazed", 3]), /`\[1\]`/]
  ];
  for (const [label, fn, re] of cases) test(label, () => refuses(fn, re, label));
  // arguments past 256 characters of JSON take another way into wasm (encodeInto, src/wasm.rs
  // GLUE_STRING_UNITS); on either side of it they must read the same
  for (const n of [2, 12, 200]) test(`a combat state of ${n} combatants: non-ASCII ids round-trip, and a NaN deep inside is named`, () => {
    // a lone surrogate (half a cut emoji) is read as U+FFFD, as importPack reads one
    const ids = Array.from({ length: n }, (_, i) => (i === 1 ? "\ud83d" : `Æ😀${i}`));
    const combatants = ids.map((id, i) => ({ id, side: i % 2 ? "foes" : "party" }));
    const start = { type: "start", combatants };
    const length = JSON.stringify(start).length; // the argument that carries the cut surrogate in
    const { state } = core.combatApply(null, start);
    assert.ok(n === 2 ? length <= 256 : n === 12 ? length > 256 && length <= 4096 : length > 4096, `${length}`);
    assert.deepEqual(Object.values(state.combatants).map(c => c[0]), ids.map((id, i) => (i === 1 ? "\ufffd" : id)));
    const { state: begun } = core.combatApply(state, { type: "beginTurn", id: "Æ😀0" });
    assert.equal(begun.current.id, "Æ😀0");
    const bad = structuredClone(begun);
    bad.combatants[n - 1][3] = NaN; // taken (src/combat/fight.rs: [id, side, flags, taken, ...])
    refuses(() => core.combatApply(bad, { type: "endTurn" }), new RegExp(`\`combatants\\.${n - 1}\\[3\\]\`.*NaN`));
  });
  test("a start past 1,000 combatants: refused before its JSON is written, as the core refuses it", () => {
    const many = n => ({ type: "start", combatants: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, side: i % 2 ? "foes" : "party" })) });
    assert.equal(Object.keys(core.combatApply(null, many(1_000)).state.combatants).length, 1_000);
    let written = 0;
    const tooMany = many(1_001);
    tooMany.combatants[0].toJSON = () => { written++; return { id: "c0", side: "party" }; };
    /** @type {unknown} */
    let thrown;
    try { core.combatApply(null, tooMany); } catch (error) { thrown = error; }
    assert.ok(thrown instanceof Error);
    assert.equal(written, 0, "nothing of it was written as JSON");
    // the same words as the core's own refusal, read from the JSON text
    delete tooMany.combatants[0].toJSON;
    assert.throws(() => raw.combatApplyJson(null, JSON.stringify(tooMany)), error => error.message === thrown.message);
  });
  test("the module still answers", () => {
    assert.deepEqual(core.roll(dice("3d6"), 7), before.roll);
  });
});

describe("messages (issue 16, point 9)", () => {
  const deep = n => { let x = 1; for (let i = 0; i < n; i++) x = [x]; return x; };
  const cases = [
    ["a number for kind", () => core.roll({ kind: 5 }), /^invalid request: `kind`: invalid type: integer `5`/],
    ["null for kind", () => core.odds({ kind: null }), /^invalid request: `kind`: invalid type: null/],
    ["a number for type", () => core.combatApply(null, { type: 5 }), /^invalid combat event: `type`: invalid type: integer/],
    ["an array for type", () => core.narrativeApply({ strain: 0 }, { type: [] }), /^invalid narrative event: `type`: invalid type: sequence/],
    ["a number for table", () => core.mnsLookup({ table: 5 }), /^invalid table lookup: `table`/],
    ["too deep", () => core.roll({ kind: "icon.attack", boons: deep(70) }), /^invalid request: `boons\[0\]\[0\].*: nested more than 64 levels deep$/],
    ["too deep in faces", () => core.resolve(dice("1d6"), deep(100)), /^invalid faces.*: `\[0\]\[0\].*: nested more than 64 levels deep$/],
    ["an off-table age roll", () => core.mnsLookup({ table: "baseAge", roll: 0 }), /^invalid table lookup: `roll`: the age table covers rolls 1 to 22, not 0/],
    ["an off-table height roll", () => core.mnsLookup({ table: "baseHeight", roll: 1000 }), /^invalid table lookup: `roll`: a d100 roll/],
    ["a mistyped row", () => core.mnsLookup({ table: "epCost", row: "x" }), /^invalid table lookup: `row`: invalid type: string/],
    ["an opposition of the wrong shape", () => core.roll({ kind: "tribute.test", rank: 1, die: 6, opposition: "x" }), /^invalid request: `opposition`: expected a number or an opposing side \{rank, focus, burden\}/],
    ["a fraction of a tick", () => core.clockTick({ segments: 4, filled: 0 }, 1.5), /^ticks must be an integer.*not 1\.5$/],
    ["a tick as a string", () => core.clockTick({ segments: 4, filled: 0 }, "1"), /^ticks must be an integer.*not "1"$/]
  ];
  for (const [label, fn, re] of cases) test(label, () => refuses(fn, re, label));

  test("a clock still ticks by whole numbers, backwards too", () => {
    assert.deepEqual(core.clockTick({ segments: 4, filled: 1 }, 2), { segments: 4, filled: 3, complete: false });
    assert.deepEqual(core.clockTick({ segments: 4, filled: 1 }, -1), { segments: 4, filled: 0, complete: false });
  });

  test("messages quote at most ~100 characters of the input", () => {
    const long = "q".repeat(1_000_000);
    for (const fn of [
      () => core.roll({ kind: "icon.attack", boons: long }),
      () => core.roll({ kind: long }),
      () => core.roll({ kind: "icon.attack", [long]: 1 }),
      () => core.roll(dice(`1d6+${long}`)),
      () => core.roll(dice("1d6"), long),
      () => core.roll(dice("1d6"), `9${"0".repeat(5000)}`),
      () => core.iconSaveable([long, 3]),
      () => core.combatApply(null, { type: "beginTurn", id: long }),
      () => core.mnsLookup({ table: long }),
      () => core.rollMany(dice("1d6"), long, 1),
      () => core.clockTick({ segments: 4, filled: 0 }, long),
      () => importer.importPack(`{"_id": "${long}"`),
      () => core.roll({ kind: "icon.attack", boons: { [long]: deep(80) } })
    ]) {
      const m = refuses(fn);
      assert.ok(m.length < 400, `${m.length} characters: ${m.slice(0, 300)}`);
      assert.ok(!/q{101}/.test(m), m.slice(0, 300));
    }
  });
});

describe("requests beyond the limits are refused up front, saying the limit", () => {
  test("a roll of more than 10,000 dice", () => {
    const formula = Array.from({ length: 11 }, () => "1000d6").join(" + ");
    refuses(() => core.plan(dice(formula)), /at most 10000 dice/);
    refuses(() => core.roll(dice(formula), 1), /at most 10000 dice/);
    assert.equal(core.plan(dice(Array.from({ length: 10 }, () => "1000d6").join(" + "))).length, 10);
  });
  test("explosions past 10,000 dice stop the roll with the limit", () => {
    // d1 always explodes: 1000 dice x 100 explosions each
    refuses(() => core.roll(dice("1000d1x"), 1), /at most 10000 dice/);
  });
  test("more than 1000 dice in a term, or faces beyond 10^6", () => {
    refuses(() => core.plan(dice("1001d6")), /1000/);
    refuses(() => core.plan(dice("1d1000001")), /1000000/);
  });
  test("batches beyond 1,000,000 rolls or dice", () => {
    refuses(() => core.rollMany(dice("1d6"), 1_000_001, 1), /1000000/);
    refuses(() => core.rollMany(dice("1000d6"), 1001, 1), /1000000 dice/);
    refuses(() => core.rollMany(dice("10d6x"), 2001, 1), /20000 dice/);
  });
  test("odds past the work budget, wider than 8192 totals on the way, or answers of more than 2048", () => {
    for (const formula of ["10d6x", "1000d6"]) refuses(() => core.odds(dice(formula)), /too long/);
    for (const formula of ["1000d1000000", "1d1000000", "1d8193"]) {
      refuses(() => core.odds(dice(formula)), /more than 8192 possible totals/);
      refuses(() => core.oddsArrays(dice(formula)), /more than 8192 possible totals/);
    }
    for (const formula of ["1d2049", "1d8192", "2d4000", "410d6"]) {
      refuses(() => core.odds(dice(formula)), /possible totals; an answer holds at most 2048$/);
      refuses(() => core.oddsArrays(dice(formula)), /possible totals; an answer holds at most 2048$/);
    }
    assert.equal(core.oddsArrays(dice("1d2048")).p.length, 2048);
    // the largest plain pool answered: its mean and spread are n dice's
    const pool = core.odds(dice("409d6"));
    assert.ok(Math.abs(pool.mean - 409 * 3.5) < 1e-6 && Math.abs(pool.sd - Math.sqrt(409 * 35 / 12)) < 1e-6);
  });
  test("a request or other small argument over 256 KiB of JSON, refused before wasm is entered", () => {
    const big = "x".repeat(256 * 1024);
    refuses(() => core.roll({ kind: "icon.save", note: big }), /^invalid request: it is \d+ characters of JSON; the limit is 262144$/);
    refuses(() => core.iconSaveable(Array.from({ length: 200_000 }, () => "a")), /^invalid statuses: 200000 elements; this argument is at most 262144 characters of JSON$/);
    refuses(() => core.resolve(dice("1d6"), [Array(300_000).fill(1)]), /^invalid faces.*`\[0\]`: 300000 elements/);
    // a character's longest status list, 128 ids of 64 bytes, is answered; one more is refused naming it
    const statuses = Array.from({ length: 128 }, (_, i) => `s${i}`.padEnd(64, "x"));
    const target = { hp: 10, maxHp: 10, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: false, statuses };
    const hit = core.roll({ kind: "icon.applyDamage", target, amount: 3, source: "hit" }, 1);
    assert.equal(hit.target.hp, 7);
    refuses(() => core.roll({ kind: "icon.applyDamage", target: { ...target, statuses: [...statuses, "dazed"] }, amount: 3, source: "hit" }, 1),
      /^invalid request: `target\.statuses`: a list of statuses holds at most 128$/);
    refuses(() => core.iconSaveable([...statuses, "dazed"]), /^invalid statuses: a list of statuses holds at most 128$/);
    refuses(() => core.iconSaveable(["x".repeat(65)]), /^invalid statuses: `\[0\]`: a status id is at most 64 bytes$/);
    // a combat's events may be far larger (its limits are the combat tracker's): 1,000 combatants
    // with ids of 256 bytes are over 256 KiB of JSON
    const combatants = Array.from({ length: 1000 }, (_, i) => ({ id: `c${i}`.padEnd(256, "x"), side: i % 2 ? "foes" : "party" }));
    assert.ok(JSON.stringify(combatants).length > 256 * 1024);
    assert.equal(Object.keys(core.combatApply(null, { type: "start", combatants }).state.combatants).length, 1000);
  });
  test("the module still answers", () => {
    assert.deepEqual(core.roll(dice("3d6"), 7), before.roll);
  });
});

describe("rollMany and oddsArrays", () => {
  test("rollMany's first total is roll's, and the batch replays from its seed", () => {
    for (const request of [dice("1d20+3"), dice("4d6kh3"), dice("10d6x"), dice("3d6cs>=5"), { kind: "icon.attack", boons: 2, defense: 12 }]) {
      const totals = core.rollMany(request, 500, 12345);
      assert.ok(totals instanceof Float64Array);
      assert.equal(totals.length, 500);
      assert.equal(totals[0], core.roll(request, 12345).total);
      assert.deepEqual(core.rollMany(request, 500, 12345), totals);
    }
  });
  test("a question asked again gets the same answer, in arrays of its own", () => {
    const first = core.oddsArrays(dice("4d6kh3"));
    first.p.fill(0);
    first.values.fill(-1);
    first.exact.numerators.fill(0n);
    first.outcomes.x = 1;
    const again = core.oddsArrays(dice("4d6kh3"));
    assert.deepEqual([...again.values], Array.from({ length: 16 }, (_, i) => i + 3));
    assert.equal(again.exact.numerators.reduce((a, b) => a + b, 0n), again.exact.denominator);
    assert.deepEqual(again.outcomes, {});
    assert.equal(again.p[15], 21 / 1296, "P(18) = 21/1296");
    // more wide answers than the memo keeps (2^18 totals): each still right
    for (let i = 0; i < 140; i++) {
      const wide = core.oddsArrays(dice(`1d2000 + ${i}`));
      assert.equal(wide.values.length, 2000);
      assert.equal(wide.values[0], 1 + i);
      assert.equal(wide.exact.denominator, 2000n);
    }
    assert.equal(core.odds(dice("1d2000 + 0")).exact.totals[1999][1], "1/2000");
  });

  test("oddsArrays carries odds' distribution exactly, as typed arrays", () => {
    for (const request of [dice("3d6"), dice("4d6kh3"), dice("100d6"), { kind: "icon.attack", boons: 3, defense: 10 }, { kind: "tribute.test", rank: 1, focus: 2, burden: 1, die: 12, opposition: 3 }]) {
      const odds = core.odds(request);
      const arrays = core.oddsArrays(request);
      assert.ok(arrays.values instanceof Float64Array && arrays.p instanceof Float64Array);
      assert.deepEqual([...arrays.values], odds.totals.map(([v]) => v));
      assert.deepEqual([...arrays.p], odds.totals.map(([, p]) => p));
      assert.deepEqual(arrays.outcomes, odds.outcomes);
      assert.equal(arrays.mean, odds.mean);
      if (odds.exact) {
        const { denominator, numerators } = arrays.exact;
        assert.ok(numerators instanceof BigUint64Array);
        assert.equal(numerators.reduce((a, b) => a + b, 0n), denominator, "the numerators sum to the denominator");
        odds.exact.totals.forEach(([, fraction], i) => {
          const [n, d = "1"] = fraction.split("/");
          assert.equal(BigInt(n) * denominator, numerators[i] * BigInt(d), `${JSON.stringify(request)} P(${arrays.values[i]})`);
        });
      } else {
        assert.equal(arrays.exact, null);
      }
    }
  });
});
