/**
 * ICON's areas on a square grid (module/canvas/area-shapes.mjs, template-data.mjs): the spaces each
 * shape covers, counted independently here (a diagonal step counts 1 space, Foundry's EQUIDISTANT
 * rule), the tokens an area covers ("a target must have at least 1 space of its area" inside), the
 * outline Foundry draws, a template's data read back on another client, and the same area as a
 * v14 Scene Region's data (one square per space) read back from its shapes.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { AREA_SHAPES, areaSpaces, coveredTokens, directionBetween, directionStep, outline, spacesBetween, tokenSpaces } from
  "../../module/canvas/area-shapes.mjs";
import { AREA_FLAG, FOUNDRY_TYPES, areaTemplateData, spaceAt, templateSpaces, tokensInTemplate } from "../../module/canvas/template-data.mjs";
import { areaRegionData, placementOf, regionSpaces, shapeSpace, spacePolygon } from "../../module/canvas/region-data.mjs";

const at = (i, j) => ({ i, j });
const keys = spaces => spaces.map(s => `${s.i},${s.j}`).sort();
/** Every space in a box, filtered: the independent count each shape is checked against. */
function box(r, keep) {
  const out = [];
  for (let i = -r; i <= r; i++) for (let j = -r; j <= r; j++) if (keep(i, j)) out.push(at(i, j));
  return out;
}

describe("the shapes", () => {
  test("blast N is an N×N square about the chosen space", () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const spaces = areaSpaces({ shape: "blast", size: n }, { anchor: at(10, 20) });
      assert.equal(spaces.length, n * n, `blast ${n}`);
      const rows = new Set(spaces.map(s => s.i));
      const cols = new Set(spaces.map(s => s.j));
      assert.equal(rows.size, n);
      assert.equal(cols.size, n);
      assert.ok(spaces.some(s => s.i === 10 && s.j === 20), "the chosen space is in it");
      // centred: as many rows above as below (one more below for an even size)
      assert.equal(Math.min(...rows), 10 - Math.floor((n - 1) / 2));
    }
  });

  test("burst N is every space within N of the character (a diagonal counts 1), not its own", () => {
    for (const n of [1, 2, 3]) {
      const spaces = areaSpaces({ shape: "burst", size: n }, { anchor: at(0, 0), user: [at(0, 0)] });
      assert.deepEqual(keys(spaces), keys(box(n, (i, j) => (i || j) && Math.max(Math.abs(i), Math.abs(j)) <= n)));
      assert.equal(spaces.length, (2 * n + 1) ** 2 - 1);
    }
    // a large character: within N of any of its four spaces
    const big = [at(0, 0), at(0, 1), at(1, 0), at(1, 1)];
    const spaces = areaSpaces({ shape: "burst", size: 1 }, { anchor: at(0, 0), user: big });
    assert.equal(spaces.length, 16 - 4);
    assert.ok(spaces.every(s => big.some(b => spacesBetween(s, b) === 1)));
  });

  test("line N is N spaces straight out of the character, in any of the eight directions", () => {
    assert.deepEqual(keys(areaSpaces({ shape: "line", size: 3 }, { anchor: at(0, 9), user: [at(0, 0)] })), ["0,1", "0,2", "0,3"]);
    assert.deepEqual(keys(areaSpaces({ shape: "line", size: 2 }, { anchor: at(5, 5), user: [at(0, 0)] })), ["1,1", "2,2"]);
    assert.deepEqual(keys(areaSpaces({ shape: "line", size: 2 }, { anchor: at(-4, 0), user: [at(0, 0)] })), ["-1,0", "-2,0"]);
    // a diagonal line of N is N spaces away at its end (a diagonal counts 1)
    const diagonal = areaSpaces({ shape: "line", size: 4 }, { anchor: at(-9, -9), user: [at(0, 0)] });
    assert.equal(Math.max(...diagonal.map(s => spacesBetween(s, at(0, 0)))), 4);
    // given a direction, the anchor does not matter
    assert.deepEqual(keys(areaSpaces({ shape: "line", size: 1 }, { anchor: at(0, 5), user: [at(0, 0)], direction: 90 })), ["1,0"]);
  });

  test("cross N is the chosen space and N spaces out in each straight direction", () => {
    for (const n of [1, 2, 3]) {
      const spaces = areaSpaces({ shape: "cross", size: n }, { anchor: at(0, 0) });
      assert.deepEqual(keys(spaces), keys(box(n, (i, j) => (i === 0 || j === 0))));
      assert.equal(spaces.length, 4 * n + 1);
    }
  });

  test("arc N is a quarter turn opening from the character, N deep", () => {
    // facing east: k spaces ahead, |sideways| at most k
    const east = areaSpaces({ shape: "arc", size: 3 }, { anchor: at(0, 5), user: [at(0, 0)] });
    assert.deepEqual(keys(east), keys(box(3, (i, j) => j >= 1 && Math.abs(i) <= j)));
    assert.equal(east.length, 3 + 5 + 7);
    // facing north-east: the quarter between north and east
    const northEast = areaSpaces({ shape: "arc", size: 2 }, { anchor: at(-4, 4), user: [at(0, 0)] });
    assert.deepEqual(keys(northEast), keys(box(2, (i, j) => i <= 0 && j >= 0 && (i || j))));
    // every space is within N of the character
    assert.ok([...east, ...northEast].every(s => spacesBetween(s, at(0, 0)) <= 3));
  });

  test("directions are Foundry's: degrees clockwise from east, snapped to 45°", () => {
    assert.deepEqual(directionStep(0), at(0, 1));
    assert.deepEqual(directionStep(90), at(1, 0));
    assert.deepEqual(directionStep(225), at(-1, -1));
    assert.deepEqual(directionStep(-45), at(-1, 1));
    assert.equal(directionBetween(at(0, 0), at(3, 0)), 90);
    assert.equal(directionBetween(at(0, 0), at(-2, 2)), 315);
    assert.equal(directionBetween(at(0, 0), at(0, -7)), 180);
    assert.equal(directionBetween(at(0, 0), at(0, 0)), 0);
  });

  test("a wrong shape or size is refused with a clear error", () => {
    assert.throws(() => areaSpaces({ shape: "cone", size: 2 }, { anchor: at(0, 0) }), /unknown area shape "cone"/);
    assert.throws(() => areaSpaces({ shape: "blast", size: 0 }, { anchor: at(0, 0) }), /whole number from 1 to 12, not 0/);
    assert.throws(() => areaSpaces({ shape: "blast", size: 2.5 }, { anchor: at(0, 0) }), /not 2.5/);
    assert.deepEqual([...AREA_SHAPES], ["blast", "burst", "line", "cross", "arc"]);
  });
});

describe("tokens and outlines", () => {
  test("a token covers the spaces of its size; an area covers the tokens with one space in it", () => {
    assert.deepEqual(keys(tokenSpaces({ x: 200, y: 100, width: 2, height: 2 }, 100)), ["1,2", "1,3", "2,2", "2,3"]);
    const blast = areaSpaces({ shape: "blast", size: 2 }, { anchor: at(0, 0) }); // 0,0 .. 1,1
    const tokens = [
      { id: "in", x: 100, y: 100 },
      { id: "edge", x: 100, y: 200, width: 2, height: 2 }, // its 2,1 is outside, but not all
      { id: "big", x: -100, y: -100, width: 2, height: 2 }, // shares 0,0
      { id: "out", x: 200, y: 0 }
    ];
    assert.deepEqual(coveredTokens(blast, tokens, 100).map(t => t.id), ["in", "big"]);
  });

  test("an outline is one closed loop round the spaces, clockwise, spaces touching at a corner joined", () => {
    const [square] = outline([at(0, 0)], 10);
    assert.deepEqual(square, [0, 0, 10, 0, 10, 10, 0, 10]);
    const cross = outline(areaSpaces({ shape: "cross", size: 1 }, { anchor: at(0, 0) }), 1);
    assert.equal(cross.length, 1);
    assert.equal(cross[0].length / 2, 12, "a plus has twelve corners");
    const line = outline(areaSpaces({ shape: "line", size: 3 }, { anchor: at(3, 3), user: [at(0, 0)] }), 1);
    assert.equal(line.length, 1, "a diagonal line is one piece");
    assert.equal(line[0].length / 2, 12);
    assert.equal(outline([at(0, 0), at(0, 5)], 1).length, 2, "apart, two loops");
    // shoelace area of the blast's loop = its spaces
    const [loop] = outline(areaSpaces({ shape: "blast", size: 3 }, { anchor: at(0, 0) }), 1);
    let area = 0;
    for (let k = 0; k < loop.length; k += 2) area += loop[k] * loop[(k + 3) % loop.length] - loop[(k + 2) % loop.length] * loop[k + 1];
    assert.equal(area / 2, 9);
  });
});

describe("templates", () => {
  const grid = { size: 100, distance: 1 };
  test("a template's data keeps the area; another client reads the same spaces and tokens back", () => {
    const data = areaTemplateData({ shape: "cross", size: 2 }, { anchor: at(3, 4) }, grid,
      { user: "u", fillColor: "#ff0000", item: "Item.x", actor: "Actor.y", scope: "icon-engine" });
    assert.equal(data.t, FOUNDRY_TYPES.cross);
    assert.deepEqual([data.x, data.y], [450, 350], "the centre of the chosen space");
    assert.equal(data.distance, 2);
    const flag = data.flags["icon-engine"][AREA_FLAG];
    assert.deepEqual([flag.shape, flag.size, flag.item, flag.actor], ["cross", 2, "Item.x", "Actor.y"]);
    const stored = JSON.parse(JSON.stringify(data));
    assert.deepEqual(keys(templateSpaces(stored, 100, "icon-engine")), keys(areaSpaces({ shape: "cross", size: 2 }, { anchor: at(3, 4) })));
    const tokens = [{ id: "a", x: 400, y: 100 }, { id: "b", x: 600, y: 300 }, { id: "c", x: 500, y: 400 }];
    assert.deepEqual(tokensInTemplate(stored, tokens, 100, "icon-engine").map(t => t.id), ["a", "b"]);
    // moved by a drag, its spaces move with it
    assert.deepEqual(keys(templateSpaces({ ...stored, x: 150, y: 150 }, 100, "icon-engine")),
      keys(areaSpaces({ shape: "cross", size: 2 }, { anchor: at(1, 1) })));
    assert.equal(templateSpaces({ x: 0, y: 0, flags: {} }, 100, "icon-engine"), null, "not an ICON area");
  });

  test("a burst is placed about its user wherever the pointer is; a line points at the pointer", () => {
    const user = [at(5, 5)];
    const burst = areaTemplateData({ shape: "burst", size: 1 }, { anchor: at(0, 0), user }, grid, { scope: "s" });
    assert.deepEqual(spaceAt(burst, 100), at(5, 5));
    assert.equal(templateSpaces(burst, 100, "s").length, 8);
    const line = areaTemplateData({ shape: "line", size: 2 }, { anchor: at(5, 9), user }, grid, { scope: "s" });
    assert.equal(line.direction, 0);
    assert.deepEqual(keys(templateSpaces(line, 100, "s")), ["5,6", "5,7"]);
  });
});

describe("an area as a v14 Scene Region (module/canvas/region-data.mjs)", () => {
  const grid = { size: 50, distance: 1 };
  const meta = { name: "Blast", visibility: 2, scope: "icon-engine" };

  test("one square polygon per space of the pattern; the spaces read back from the shapes", () => {
    const data = areaRegionData({ shape: "cross", size: 1 }, { anchor: at(3, 4) }, grid, meta);
    assert.equal(data.shapes.length, 5);
    for (const shape of data.shapes) {
      assert.equal(shape.type, "polygon");
      assert.equal(shape.points.length, 8);
    }
    assert.deepEqual(keys(regionSpaces(data, grid.size, "icon-engine")), keys([at(2, 4), at(3, 3), at(3, 4), at(3, 5), at(4, 4)]));
    assert.deepEqual(data.flags["icon-engine"][AREA_FLAG].x, 4.5 * 50, "the origin's centre is kept: a region has no position");
  });

  test("shapes moved (a module's preCreateTemplate) move the area; shapes no longer squares fall back to the flag", () => {
    const data = areaRegionData({ shape: "blast", size: 1 }, { anchor: at(1, 3) }, grid, meta);
    const moved = { ...data, shapes: data.shapes.map(s => ({ ...s, points: s.points.map((v, k) => (k % 2 ? v : v - 100)) })) };
    assert.deepEqual(keys(regionSpaces(moved, grid.size, "icon-engine")), ["1,1"]);
    const circle = { ...data, shapes: [{ type: "circle", x: 0, y: 0, radius: 10, hole: false }] };
    assert.deepEqual(keys(regionSpaces(circle, grid.size, "icon-engine")), ["1,3"]);
    assert.equal(regionSpaces({ shapes: data.shapes, flags: {} }, grid.size, "icon-engine"), null, "not the system's area");
  });

  test("a shape is a space only when it is exactly a grid square: not offset, not larger, not a hole", () => {
    assert.deepEqual(shapeSpace(spacePolygon(at(2, 7), 50), 50), at(2, 7));
    assert.equal(shapeSpace({ type: "polygon", points: [10, 0, 60, 0, 60, 50, 10, 50] }, 50), null);
    assert.equal(shapeSpace({ type: "polygon", points: [0, 0, 100, 0, 100, 100, 0, 100] }, 50), null);
    assert.equal(shapeSpace({ ...spacePolygon(at(0, 0), 50), hole: true }, 50), null);
    assert.equal(shapeSpace({ type: "polygon", points: [0, 0, 50, 0, 50, 50, 0, 50, 0, 0] }, 50), null);
  });

  test("where a preview went: whole spaces moved, turns to the nearest 45°", () => {
    const before = [0, 0, 50, 0, 50, 50, 0, 50];
    assert.deepEqual(placementOf(before, before.map((v, k) => v + (k % 2 ? 100 : 150)), 50), { di: 2, dj: 3, turn: 0 });
    // turned a quarter clockwise on screen about the origin: (x, y) -> (-y, x)
    const turned = before.flatMap((v, k, all) => (k % 2 ? [] : [-all[k + 1], v]));
    assert.equal(placementOf(before, turned, 50).turn, 90);
  });
});
