// The rules core's newer exports through the real wasm boundary: ICON and the other rulesets'
// request kinds, the reducers, the pack importer, and how bad input is refused.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";
import importer from "../support/load-importer.mjs";

const seed = new URL("../../tests/fixtures/seeds/icon-rules-reference.db", import.meta.url);

describe("rule requests", () => {
  test("an ICON attack resolves and its odds are exact", () => {
    const done = core.resolve({ kind: "icon.attack", boons: 1, defense: 12 }, [[14], [3]]);
    assert.equal(done.status, "done");
    assert.deepEqual([done.total, done.d20, done.boonDie, done.hit, done.crit], [17, 14, 3, true, false]);
    const odds = core.odds({ kind: "icon.action", rating: 3 });
    assert.deepEqual([odds.exact.outcomes.fail, odds.exact.outcomes.critical], ["1/8", "2/27"]);
  });

  test("Men & Supermen re-rolls a special character's 1 through a `more` answer", () => {
    const request = { kind: "mns.action", target: 28 };
    const more = core.resolve(request, [[5, 1]]);
    assert.deepEqual(more, { status: "more", dice: [{ faces: 10, count: 1, role: "reroll", notation: "d10", term: 0 }] });
    const done = core.resolve(request, [[5, 1], [4]]);
    assert.deepEqual([done.total, done.quality, done.success], [2, 26, true]);
  });

  test("typos and unknown kinds are refused with the field's name", () => {
    assert.throws(() => core.plan({ kind: "icon.attack", boon: 1 }), /unknown field `boon`/);
    assert.throws(() => core.plan({ kind: "dice", formula: "1d6", extra: 1 }), /unknown field `extra`/);
    assert.throws(() => core.plan({ kind: "nope" }), /unknown variant `nope`/);
    assert.throws(() => core.plan({ kind: "icon.damage", result: "hit", die: 7, fray: 1 }), /6, 8, 10 or 12/);
  });
});

describe("reducers", () => {
  test("combatApply runs a turn and refuses the wrong side", () => {
    const start = core.combatApply(null, {
      type: "start",
      combatants: [{ id: "a", side: "party", isPlayerCharacter: true }, { id: "f", side: "foes" }]
    });
    assert.deepEqual(start.effects, [{ type: "roundStarted", round: 1 }, { type: "resolveChanged", partyResolve: 1 }]);
    assert.throws(() => core.combatApply(start.state, { type: "beginTurn", id: "f" }), /party side's turn/);
    const turn = core.combatApply(start.state, { type: "beginTurn", id: "a" });
    assert.deepEqual(turn.effects, [{ type: "turnStarted", id: "a", slow: false }]);
    // the state is plain JSON and survives a round trip
    const again = core.combatApply(JSON.parse(JSON.stringify(turn.state)), { type: "endTurn" });
    assert.deepEqual(again.effects, [{ type: "turnEnded", id: "a" }]);
  });

  test("narrativeApply breaks a character past max strain", () => {
    const r = core.narrativeApply({ strain: 4, ratings: { smash: 2, charm: 1 } }, { type: "takeStrain", amount: 2 });
    assert.equal(r.state.broken, true);
    assert.deepEqual(r.effects, [{ type: "broke" }, { type: "chooseBurden" }]);
  });
});

describe("importPack", () => {
  test("the seed imports to 2 entries and 17 pages, and its glossary parses", () => {
    const { documents, report } = importer.importPack(readFileSync(seed, "utf8"));
    assert.deepEqual([report.lines, report.documents, report.superseded, report.bad.length], [38, 2, 36, 0]);
    assert.equal(documents.reduce((n, d) => n + d.pages.length, 0), 17);
    const statuses = documents.flatMap(d => d.pages)
      .find(p => p.name === "Positive Effects/Statuses/Blights/States");
    const terms = importer.glossaryTerms(statuses.text.content, statuses.name);
    assert.ok(terms.some(t => t.key === "shattered" && t.definition.startsWith("Prevents you from gaining")));
  });

  test("options are checked and corrupt logs are refused unless forced", () => {
    assert.throws(() => importer.importPack("{}", { formt: "nedb" }), /unknown field `formt`/);
    assert.throws(() => importer.importPack("x\ny", { format: "nedb" }), /2 of 2 lines are corrupt/);
    const forced = importer.importPack("x\ny", { format: "nedb", force: true });
    assert.deepEqual(forced.report.bad.map(b => b.line), [1, 2]);
  });
});
