/**
 * Issue 38, 1: the map's walls, terrain and tokens read as the core's `iconSightlines` takes them
 * ("Cover/Line of Sight": terrain and objects have height; "Characters do NOT grant cover by
 * default"), and what the attack makes of an out-of-sight target. The geometry itself is the
 * core's: tests/icon_sight.rs.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import { barriersOf, bodyOf } from "../../module/canvas/scene-sight.mjs";
import { attackRequest, initialAttackState } from "../../module/dice/tactical-requests.mjs";

// CONST.WALL_SENSE_TYPES.NORMAL, CONST.WALL_MOVEMENT_TYPES.NORMAL, WALL_DOOR_TYPES.DOOR, WALL_DOOR_STATES.OPEN
const NORMAL = 20;
const wall = (c, fields = {}) => ({ c, sight: NORMAL, move: NORMAL, door: 0, ds: 0, flags: {}, ...fields });

describe("the scene's barriers", () => {
  test("a vision wall is seen past by no one; a low (movement-only) wall is 1 level of terrain; flags give heights; open doors and ethereal walls are nothing", () => {
    const barriers = barriersOf([
      wall([0, 0, 100, 0]),
      wall([0, 100, 100, 100], { sight: 0 }),
      wall([0, 200, 100, 200], { flags: { "icon-engine": { height: 2 } } }),
      wall([0, 300, 100, 300], { door: 1, ds: 1 }),
      wall([0, 400, 100, 400], { door: 1, ds: 0 }),
      wall([0, 500, 100, 500], { sight: 0, move: 0 }),
      wall([0, 600, 100.6, 600.4], { sight: 0, flags: { "icon-engine": { height: "tall" } } })
    ], []);
    assert.deepEqual(barriers, [
      { a: [0, 0], b: [100, 0], height: null, kind: "wall" },
      { a: [0, 100], b: [100, 100], height: 1, kind: "terrain" },
      { a: [0, 200], b: [100, 200], height: 2, kind: "terrain" },
      { a: [0, 400], b: [100, 400], height: null, kind: "wall" },
      { a: [0, 600], b: [101, 600], height: 1, kind: "terrain" }
    ]);
  });

  test("a tile with a height is a space of terrain: its four edges", () => {
    const barriers = barriersOf([], [{ x: 100, y: 200, width: 100, height: 100, flags: { "icon-engine": { height: 3 } } }, { x: 0, y: 0, width: 50, height: 50, flags: {} }]);
    assert.deepEqual(barriers.map(b => [...b.a, ...b.b]), [[100, 200, 200, 200], [200, 200, 200, 300], [200, 300, 100, 300], [100, 300, 100, 200]]);
    assert.ok(barriers.every(b => b.height === 3 && b.kind === "terrain"));
  });

  test("a token is a body: its spaces, its level from its elevation (a level per grid space of distance), its height from its size or flag", () => {
    assert.deepEqual(bodyOf({ x: 200, y: 100, width: 1, height: 1, elevation: 0 }, 100, 5), { i: 1, j: 2, rows: 1, cols: 1, level: 0, height: 1 });
    assert.deepEqual(bodyOf({ x: 0, y: 0, width: 3, height: 3, elevation: 12 }, 100, 5), { i: 0, j: 0, rows: 3, cols: 3, level: 2, height: 3 });
    assert.deepEqual(bodyOf({ x: 0, y: 0, width: 4, height: 4, elevation: -5 }, 100, 5).height, 3, "at most 3");
    assert.equal(bodyOf({ x: 0, y: 0, width: 1, height: 1, flags: { "icon-engine": { height: 2 } } }, 100, 5).height, 2);
  });

  test("what the core makes of them: a wall the Foundry way round, through the scene's pixels", () => {
    const [sight] = core.iconSightlines({ grid: 100, from: bodyOf({ x: 0, y: 0 }, 100, 5), targets: [bodyOf({ x: 500, y: 0 }, 100, 5)],
      barriers: barriersOf([wall([500, 0, 500, 100], { sight: 0 })], []).map(({ a, b, height }) => ({ a, b, height })) });
    assert.deepEqual(sight, { sight: true, cover: true, coverBy: 0, blockedBy: null, adjacent: false, heightDifference: 0, distance: 5 });
  });
});

describe("an out-of-sight target", () => {
  test("cannot be attacked, True Strike or not (its untargetable reason is sight); back in sight by the dialog's box, it can", () => {
    const attacker = { canCrit: true, fray: 2, die: 6 };
    const target = { uuid: "Actor.o", name: "Ogre", img: "", defense: 8, evasion: false, heightDifference: 0, cover: false, adjacent: false, hated: false,
      sight: false, distance: 4 };
    for (const trueStrike of [false, true]) {
      const state = initialAttackState({ targets: [target], options: { trueStrike } });
      assert.equal(attackRequest(core, state, attacker, target).situation.untargetable, "sight");
    }
    const state = initialAttackState({ targets: [target] });
    assert.equal(attackRequest(core, state, attacker, { ...target, sight: true }).situation.untargetable, null);
    assert.equal(attackRequest(core, state, attacker, { ...target, sight: undefined }).situation.untargetable, null, "unmeasured: in sight");
  });
});
