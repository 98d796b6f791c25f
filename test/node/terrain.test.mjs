/**
 * The pure part of ICON's terrain from a scene's regions (module/canvas/terrain-spaces.mjs): which
 * grid spaces a region covers, which behaviors act, and which moves dangerous terrain hurts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TERRAIN_BEHAVIORS, behaviorActs, dangerousMoveHurts, hasTerrain, pathTouches, spacesInside, terrainType } from "../../module/canvas/terrain-spaces.mjs";

describe("terrain from regions", () => {
  test("the subtypes are the manifest's, named as Foundry names a package's", async () => {
    const { readFile } = await import("node:fs/promises");
    const manifest = JSON.parse(await readFile(new URL("../../system.json", import.meta.url), "utf8"));
    assert.deepEqual(Object.keys(manifest.documentTypes.RegionBehavior).sort(), Object.values(TERRAIN_BEHAVIORS).sort());
    assert.equal(terrainType("icon-engine", "difficult"), "icon-engine.difficultTerrain");
    assert.equal(terrainType("icon-engine", "dangerous"), "icon-engine.dangerousTerrain");
  });

  test("a region covers the spaces whose centre it holds", () => {
    // a circle of radius 120 about (250, 250), grid 100: the centres within 120 of it (not the corners, 141 away)
    const circle = ({ x, y }) => Math.hypot(x - 250, y - 250) <= 120;
    const spaces = spacesInside(circle, { x: 100, y: 100, width: 300, height: 300 }, 100);
    const expected = [];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) if (Math.hypot((j + 0.5) * 100 - 250, (i + 0.5) * 100 - 250) <= 120) expected.push([i, j]);
    // the bounds hold every covered centre
    assert.deepEqual(spaces, expected.filter(([i, j]) => i >= 1 && i < 4 && j >= 1 && j < 4));
    assert.deepEqual(spaces, [[1, 2], [2, 1], [2, 2], [2, 3], [3, 2]]);
    // a rectangle off the grid's lines: a space counts when its centre is inside
    const rect = ({ x, y }) => x >= 120 && x <= 240 && y >= 0 && y <= 90;
    assert.deepEqual(spacesInside(rect, { x: 120, y: 0, width: 120, height: 90 }, 100), [[0, 1]]);
  });

  test("spaces: nothing for a bad grid or bounds, nor for a region too large to walk", () => {
    const all = () => true;
    assert.deepEqual(spacesInside(all, { x: 0, y: 0, width: 100, height: 100 }, 0), []);
    assert.deepEqual(spacesInside(all, { x: 0, y: 0, width: Infinity, height: 100 }, 100), []);
    assert.deepEqual(spacesInside(all, { x: 0, y: 0, width: 100, height: Number.NaN }, 100), []);
    assert.deepEqual(spacesInside(all, { x: 0, y: 0, width: 100_000, height: 100_000 }, 100), []);
    assert.equal(spacesInside(all, { x: 0, y: 0, width: 40_000, height: 40_000 }, 100).length, 160_000);
  });

  test("a behavior acts while active (Foundry's document) or, as data, while not disabled", () => {
    assert.equal(behaviorActs({ active: true, disabled: true }), true, "the document's own answer first");
    assert.equal(behaviorActs({ active: false }), false);
    assert.equal(behaviorActs({ disabled: true }), false);
    assert.equal(behaviorActs({}), true);
    const type = "icon-engine.difficultTerrain";
    assert.equal(hasTerrain({ behaviors: [{ type: "executeScript" }, { type }] }, type), true);
    assert.equal(hasTerrain({ behaviors: [{ type, disabled: true }] }, type), false);
    assert.equal(hasTerrain({ behaviors: null }, type), false);
    assert.equal(hasTerrain({ behaviors: [{ type: "icon-engine.dangerousTerrain" }] }, type), false);
  });

  test("dangerous terrain hurts a walk, not a flyer, an undo, a typed position or a relocation", () => {
    const walk = { id: "m1", method: "dragging", passed: { waypoints: [{ action: "walk" }, { action: "walk" }] } };
    assert.equal(dangerousMoveHurts(walk, { flying: false }), true);
    assert.equal(dangerousMoveHurts(walk, { flying: true }), false, "Flying ignores terrain effects");
    assert.equal(dangerousMoveHurts({ ...walk, passed: { waypoints: [{ action: "walk" }, { action: "fly" }] } }, { flying: false }), false);
    assert.equal(dangerousMoveHurts({ ...walk, method: "undo" }, { flying: false }), false);
    assert.equal(dangerousMoveHurts({ ...walk, method: "config" }, { flying: false }), false);
    assert.equal(dangerousMoveHurts({ ...walk, passed: { waypoints: [{ action: "displace" }] } }, { flying: false }), false);
    // "Rush X: Move X spaces. You are unstoppable and immune to all damage while moving."
    assert.equal(dangerousMoveHurts({ ...walk, updateOptions: { "icon-engine": { rush: true } } }, { flying: false }), false);
    assert.equal(dangerousMoveHurts({ ...walk, updateOptions: { "icon-engine": { rush: "yes" } } }, { flying: false }), true);
    assert.equal(dangerousMoveHurts({ ...walk, updateOptions: { other: { rush: true } } }, { flying: false }), true);
    assert.equal(dangerousMoveHurts({ ...walk, passed: { waypoints: [{ action: "blink" }] } }, { flying: false }), true, "a teleport lands in the space");
    assert.equal(dangerousMoveHurts(null, { flying: false }), false, "no movement: a token placed or a region drawn over it");
    assert.equal(dangerousMoveHurts({}, { flying: false }), true);
  });

  test("a path touches a region when a point of it, sampled along each leg, is inside", () => {
    // the region: x in [300, 500], any y
    const strip = ({ x }) => x >= 300 && x <= 500;
    assert.equal(pathTouches([{ x: 150, y: 150 }, { x: 650, y: 150 }], strip, 25), true, "through it");
    assert.equal(pathTouches([{ x: 350, y: 150 }, { x: 650, y: 150 }], strip, 25), true, "out of it");
    assert.equal(pathTouches([{ x: 150, y: 150 }, { x: 250, y: 150 }, { x: 250, y: 650 }], strip, 25), false, "beside it");
    // a leg that jumps the strip between two samples misses it: the step is what finds it
    assert.equal(pathTouches([{ x: 150, y: 150 }, { x: 650, y: 150 }], strip, 500), false);
    assert.equal(pathTouches([], strip, 25), false);
    assert.equal(pathTouches([{ x: 400, y: 0 }], strip, 0), false, "no step, no path");
    // a malformed path is sampled a bounded number of times
    let calls = 0;
    pathTouches([{ x: 0, y: 0 }, { x: 1e12, y: 0 }], () => (calls++, false), 1);
    assert.equal(calls, 4097);
  });
});
