/**
 * Teleport X and Rush X from a card (issue 38 §3), the pure parts: where a teleport may land
 * (module/canvas/teleport-space.mjs) and how the card keeps the two kinds (module/data/card-data.mjs).
 * The seed's rules: "Teleport X: A teleport ability allows its user to instantly move to a free
 * space within range X. Teleport does NOT ignore Rampart." "Rampart: Foes cannot enter or exit a
 * space affected by a rampart effect by dashing, flying, or teleporting." "Unstoppable: ... movement
 * ignores engagement and rampart." "Rush X: Move X spaces. You are unstoppable and immune to all
 * damage while moving."
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isRush, spacesMoved, teleportRefusal } from "../../module/canvas/teleport-space.mjs";
import { forcedSpaces } from "../../module/canvas/forced-movement.mjs";
import { abilityParts, checkedPart } from "../../module/data/card-data.mjs";
import { MOVE_KINDS, USER_MOVES } from "../../module/data/ability-rules.mjs";
import { partLine } from "../../module/dice/cards/ability-card.mjs";
import { en, format } from "../support/lang.mjs";

const KNOWN = new Set(["dazed"]);
const cell = (i, j, w = 1, h = 1) => ({ i, j, w, h });

describe("a teleport's landing", () => {
  const board = cell(0, 0, 12, 12);

  test("within range X: the farther of the column and row shifts, a diagonal counting 1", () => {
    const mover = cell(2, 2);
    assert.equal(spacesMoved(mover, { i: 5, j: 4 }), 3);
    assert.equal(teleportRefusal({ mover, to: { i: 5, j: 5 }, range: 3, others: [], bounds: board }), null, "3 diagonal steps: range 3");
    assert.equal(teleportRefusal({ mover, to: { i: 6, j: 2 }, range: 3, others: [], bounds: board }), "range");
    assert.equal(teleportRefusal({ mover, to: { i: 2, j: 2 }, range: 0, others: [], bounds: board }), null, "staying put is within range 0");
  });

  test("a large character: every space of its footprint must be free and on the battlefield, and it moves as far as its corner does", () => {
    const giant = cell(0, 0, 2, 2);
    const other = cell(5, 1);
    // landing at (4,0) covers (4..5, 0..1): (5,1) is the other's
    assert.equal(teleportRefusal({ mover: giant, to: { i: 4, j: 0 }, range: 4, others: [other], bounds: board }), "occupied");
    // at (3,0) it covers (3..4, 0..1): free, though (3,0) is only 1 space from the giant's nearest space
    assert.equal(teleportRefusal({ mover: giant, to: { i: 3, j: 0 }, range: 3, others: [other], bounds: board }), null);
    assert.equal(teleportRefusal({ mover: giant, to: { i: 4, j: 2 }, range: 3, others: [other], bounds: board }), "range",
      "4 columns over: past range 3 although its nearest new space is 3 from its old footprint");
    assert.equal(teleportRefusal({ mover: giant, to: { i: 11, j: 0 }, range: 20, others: [], bounds: board }), "edge",
      "its right column would be off the board");
    assert.equal(teleportRefusal({ mover: giant, to: { i: 10, j: 10 }, range: 20, others: [], bounds: board }), null);
  });

  test("rampart: a foe's rampart stops a teleport out of it or into it, an ally's does not; Unstoppable ignores it", () => {
    const mover = cell(0, 0);
    const hostile = { side: -1, spaces: [cell(4, 0, 2, 2)] };
    assert.equal(teleportRefusal({ mover, to: { i: 4, j: 1 }, range: 5, others: [], ramparts: [hostile], side: 1 }), "rampartEnter");
    assert.equal(teleportRefusal({ mover: cell(5, 1), to: { i: 8, j: 1 }, range: 5, others: [], ramparts: [hostile], side: 1 }), "rampartExit");
    assert.equal(teleportRefusal({ mover, to: { i: 4, j: 1 }, range: 5, others: [], ramparts: [hostile], side: -1 }), null, "its own side passes");
    assert.equal(teleportRefusal({ mover, to: { i: 4, j: 1 }, range: 5, others: [], ramparts: [hostile], side: 1, unstoppable: true }), null);
    assert.equal(teleportRefusal({ mover, to: { i: 2, j: 0 }, range: 5, others: [], ramparts: [hostile], side: 1 }), null, "beside it is free");
  });
});

describe("a rush's mark on its update", () => {
  test("the system's rush option, on the update's options or on a movement's updateOptions", () => {
    assert.equal(isRush({ "icon-engine": { rush: true } }, "icon-engine"), true);
    assert.equal(isRush({ updateOptions: { "icon-engine": { rush: true } } }, "icon-engine"), true);
    assert.equal(isRush({ "icon-engine": { rush: "yes" } }, "icon-engine"), false);
    assert.equal(isRush({ other: { rush: true } }, "icon-engine"), false);
    assert.equal(isRush(null, "icon-engine"), false);
  });
});

describe("teleport and rush parts on the card", () => {
  test("they are move kinds, and land on the user whatever the part's `to` says", () => {
    assert.deepEqual([...USER_MOVES].filter(k => !MOVE_KINDS.includes(k)), []);
    for (const kind of USER_MOVES) {
      const part = checkedPart({ to: "target", move: { kind, spaces: 3 } }, KNOWN);
      assert.equal(part.to, "self", kind);
      assert.deepEqual(part.move, { kind, spaces: 3 });
    }
    assert.equal(checkedPart({ to: "target", move: { kind: "shove", spaces: 3 } }, KNOWN).to, "target", "a shove stays on its targets");
    const [teleport] = abilityParts({ tags: [], effects: [{ trigger: "use", to: "target", move: { kind: "teleport", spaces: 4 } }] }, KNOWN);
    assert.equal(teleport.to, "self");
  });

  test("the card's line says them", () => {
    const line = (/** @type {string} */ kind) => partLine({ trigger: "use", gamble: 4, to: "self", status: "", duration: "save", mark: "",
      move: { kind, spaces: 3 }, text: "" }, format);
    assert.equal(line("teleport"), en.ICONENGINE.Card.Move.teleport.replace("{spaces}", "3"));
    assert.equal(line("rush"), en.ICONENGINE.Card.Move.rush.replace("{spaces}", "3"));
    assert.match(line("teleport"), /teleport 3/);
  });
});

describe("a foe's forced movement on a Sturdy or Unstoppable character", () => {
  test("\"Unstoppable: ... Cannot be moved by foes\"; \"Sturdy: When moved ... by a foe, can only be moved max 1 space\"; an ally's move is whole", () => {
    assert.equal(forcedSpaces(3, { fromFoe: true, statuses: [] }), 3);
    assert.equal(forcedSpaces(3, { fromFoe: true, statuses: ["unstoppable"] }), 0);
    assert.equal(forcedSpaces(3, { fromFoe: true, statuses: ["sturdy"] }), 1);
    assert.equal(forcedSpaces(3, { fromFoe: true, statuses: ["sturdy+"] }), 1, "an ongoing Sturdy");
    assert.equal(forcedSpaces(0, { fromFoe: true, statuses: ["sturdy"] }), 0);
    assert.equal(forcedSpaces(3, { fromFoe: false, statuses: ["unstoppable", "sturdy"] }), 3, "an ally's pull moves them");
  });
});
