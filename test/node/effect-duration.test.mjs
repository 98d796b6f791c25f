/**
 * Issue 40 §4: how an ICON status lasts, read from either Foundry generation's shape (v13: the
 * system's flags; v14: the effect's `duration.expiry` for a turn's end) and written in the one
 * the caller runs (module/data/effect-duration.mjs).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TURN_END_EXPIRY, durationSource, durationUpdate, effectDuration, endsAtTurnEnd, isUnsaveable, registerExpiryEvents }
  from "../../module/data/effect-duration.mjs";
import { endOfTurnEffectIds } from "../../module/data/health-changes.mjs";
import { statusEffectSource } from "../../module/data/trust.mjs";

const SCOPE = "icon-engine";

/**
 * The source an effect would hold after an update of dotted keys, merged into `base` (Foundry's
 * expandObject and mergeObject, written out here independently of the module).
 * @param {Record<string, unknown>} update
 * @param {Record<string, any>} [base]
 */
function applied(update, base = { flags: { [SCOPE]: { kind: "status", ongoing: false } } }) {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(update)) {
    const parts = key.split(".");
    let at = out;
    for (const part of parts.slice(0, -1)) at = at[part] ??= {};
    at[parts.at(-1)] = value;
  }
  return out;
}

describe("reading how a status lasts", () => {
  test("v13's flags (as every older world holds them)", () => {
    assert.equal(effectDuration({ flags: { [SCOPE]: { kind: "status", ongoing: false } } }), "save");
    assert.equal(effectDuration({ flags: { [SCOPE]: { kind: "status", ongoing: true } } }), "ongoing");
    assert.equal(effectDuration({ flags: { [SCOPE]: { kind: "blight", ongoing: false } } }), "cure");
    assert.equal(effectDuration({ flags: { [SCOPE]: { kind: "status", ongoing: false, endsAtTurnEnd: true } } }), "turn");
    // v13's own duration fields say nothing of ICON's
    assert.equal(effectDuration({ flags: {}, duration: { rounds: 1, turns: 0, startRound: 2 } }), "save");
  });

  test("v14's duration: the system's expiry event is a turn's end; core's own events are not ICON's", () => {
    assert.equal(TURN_END_EXPIRY, "icon-engine.turnEnd");
    assert.equal(effectDuration({ flags: { [SCOPE]: { kind: "status" } }, duration: { value: 0, units: "turns", expiry: TURN_END_EXPIRY, expired: false } }), "turn");
    for (const expiry of ["turnEnd", "turnStart", "roundEnd", "combatEnd", null]) {
      assert.equal(effectDuration({ flags: {}, duration: { value: 1, units: "rounds", expiry } }), "save", String(expiry));
    }
  });

  test("nothing there, or nonsense a player wrote, reads as a save", () => {
    for (const effect of [null, undefined, {}, { flags: null }, { flags: { [SCOPE]: "ongoing" } }, { flags: { [SCOPE]: { ongoing: "yes", endsAtTurnEnd: 1 } } },
      { duration: "icon-engine.turnEnd" }]) {
      assert.equal(effectDuration(/** @type {any} */ (effect)), "save", JSON.stringify(effect));
    }
  });

  test("ongoing and blights are not saved against; only a turn status ends at its bearer's turn end", () => {
    const cases = { save: [false, false], ongoing: [true, false], cure: [true, false], turn: [false, true] };
    for (const v14 of [false, true]) {
      for (const [duration, [unsaveable, turn]] of Object.entries(cases)) {
        const effect = applied(durationUpdate(/** @type {any} */ (duration), { v14 }));
        assert.equal(isUnsaveable(effect), unsaveable, `${duration} v14=${v14}`);
        assert.equal(endsAtTurnEnd(effect), turn, `${duration} v14=${v14}`);
      }
    }
  });
});

describe("writing it in the generation's shape", () => {
  test("v13: flags only; v14: a turn's end in the effect's duration, the rest in flags", () => {
    assert.deepEqual(durationUpdate("turn", { v14: false }), { [`flags.${SCOPE}.endsAtTurnEnd`]: true });
    assert.deepEqual(durationUpdate("turn", { v14: true }), { "duration.value": 0, "duration.units": "turns", "duration.expiry": "icon-engine.turnEnd" });
    for (const v14 of [false, true]) {
      assert.deepEqual(durationUpdate("ongoing", { v14 }), { [`flags.${SCOPE}.ongoing`]: true });
      assert.deepEqual(durationUpdate("cure", { v14 }), { [`flags.${SCOPE}.kind`]: "blight" });
      assert.deepEqual(durationUpdate("save", { v14 }), {});
    }
    assert.deepEqual(durationSource("turn", { v14: true }), { flags: {}, duration: { value: 0, units: "turns", expiry: "icon-engine.turnEnd" } });
  });

  test("what is written reads back as written, on either generation, and keeps the effect's other flags", () => {
    for (const v14 of [false, true]) {
      for (const duration of /** @type {const} */ (["save", "ongoing", "turn", "cure"])) {
        const effect = applied(durationUpdate(duration, { v14 }), { flags: { [SCOPE]: { kind: "status", ongoing: false, source: { card: "c", name: "n" } } } });
        assert.equal(effectDuration(effect), duration, `${duration} v14=${v14}`);
        assert.deepEqual(effect.flags[SCOPE].source, { card: "c", name: "n" });
      }
    }
  });

  test("the expiry event is registered where v14 has the list, and nowhere else", () => {
    const v14 = { ActiveEffect: { expiryEvents: { "other.event": "X" } } };
    registerExpiryEvents(v14);
    assert.deepEqual(v14.ActiveEffect.expiryEvents, { "other.event": "X", "icon-engine.turnEnd": "ICONENGINE.Status.Expiry.turnEnd" });
    const v13 = { ActiveEffect: {} };
    registerExpiryEvents(v13);
    assert.deepEqual(v13, { ActiveEffect: {} });
  });
});

describe("the readers", () => {
  test("Hatred ends at its bearer's turn end unless ongoing, in either shape", () => {
    const effects = [
      { id: "a", statuses: ["hatred"], flags: { [SCOPE]: { kind: "status", ongoing: false } } },
      { id: "b", statuses: ["hatred"], flags: { [SCOPE]: { kind: "status", ongoing: true } } },
      { id: "c", statuses: ["hatred"], flags: { [SCOPE]: { kind: "status" } }, duration: { value: 0, units: "turns", expiry: TURN_END_EXPIRY } }];
    assert.deepEqual(endOfTurnEffectIds(effects), ["a", "c"]);
  });

  test("an undo brings a turn status back as one, in the running generation's shape (13 here: no game)", () => {
    const known = new Set(["dazed"]);
    const base = { _id: "abcdefghijklmnop", name: "Dazed", img: "x.svg", statuses: ["dazed"] };
    const fromFlags = statusEffectSource({ ...base, flags: { [SCOPE]: { kind: "status", ongoing: false, endsAtTurnEnd: true } } }, known);
    const fromV14 = statusEffectSource({ ...base, flags: { [SCOPE]: { kind: "status" } }, duration: { value: 0, units: "turns", expiry: TURN_END_EXPIRY } }, known);
    for (const source of [fromFlags, fromV14]) {
      assert.equal(effectDuration(/** @type {any} */ (source)), "turn");
      assert.deepEqual(/** @type {any} */ (source).flags[SCOPE], { kind: "status", ongoing: false, endsAtTurnEnd: true });
    }
    const saved = statusEffectSource({ ...base, flags: { [SCOPE]: { kind: "status", ongoing: false, other: 1 } }, duration: { expiry: "turnEnd" } }, known);
    assert.deepEqual(/** @type {any} */ (saved).flags[SCOPE], { kind: "status", ongoing: false });
    assert.equal(/** @type {any} */ (saved).duration, undefined, "no other duration is carried");
  });
});
