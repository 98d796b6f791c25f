/**
 * An ICON area as a Foundry v14 Scene Region's data, and back (v14 folds measured templates into
 * regions). The region holds one square polygon per covered space, so Foundry's own tests of it
 * (`RegionDocument#tokens`, `testPoint`, its highlight) cover exactly ICON's spaces; its
 * `flags.icon-engine.area` keeps what a template's does (module/canvas/template-data.mjs) plus the
 * origin's pixel centre (`x`, `y`), since a region has no position of its own. Pure (no Foundry
 * API): node tests check it.
 */
import { outline } from "./area-shapes.mjs";
import { AREA_FLAG, areaTemplateData, templateSpaces } from "./template-data.mjs";

/** @import { AreaShape, Space } from "./area-shapes.mjs" */
/** @import { AreaFlag } from "./template-data.mjs" */

/**
 * A square space as a v14 polygon shape (scene pixels, clockwise on screen).
 * @param {Space} space
 * @param {number} gridSize
 * @returns {{type: "polygon", points: number[], hole: false}}
 */
export function spacePolygon({ i, j }, gridSize) {
  const x = j * gridSize;
  const y = i * gridSize;
  return { type: "polygon", points: [x, y, x + gridSize, y, x + gridSize, y + gridSize, x, y + gridSize], hole: false };
}

/**
 * The region data of an area chosen at a space.
 * @param {{shape: AreaShape, size: number}} area
 * @param {{anchor: Space, user?: Space[]}} where
 * @param {{size: number, distance: number}} grid
 * @param {{name: string, color?: string, visibility: number, item?: string, actor?: string, scope: string}} meta
 */
export function areaRegionData(area, where, grid, { name, color, visibility, item, actor, scope }) {
  const template = areaTemplateData(area, where, grid, { item, actor, scope });
  const flags = /** @type {Record<string, Record<string, AreaFlag>>} */ (template.flags);
  const flag = { ...flags[scope][AREA_FLAG], x: Number(template.x), y: Number(template.y) };
  const spaces = /** @type {Space[]} */ (templateSpaces({ x: flag.x, y: flag.y, flags }, grid.size, scope));
  /** @type {Record<string, unknown>} */
  const data = {
    name,
    visibility,
    highlightMode: "shapes",
    shapes: spaces.map(space => spacePolygon(space, grid.size)),
    flags: { [scope]: { [AREA_FLAG]: flag } }
  };
  if (color) data.color = color;
  return data;
}

/**
 * The space a region shape is, when it is one: a polygon (not a hole) of exactly the four corners
 * of a grid space, as {@link spacePolygon} makes it.
 * @param {{type?: unknown, points?: unknown, hole?: unknown}} shape
 * @param {number} gridSize
 * @returns {Space | null}
 */
export function shapeSpace(shape, gridSize) {
  const points = shape.points;
  if (shape.type !== "polygon" || shape.hole || !Array.isArray(points) || points.length !== 8 || !points.every(Number.isFinite)) return null;
  const xs = points.filter((_, k) => k % 2 === 0);
  const ys = points.filter((_, k) => k % 2 === 1);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  if (x % gridSize !== 0 || y % gridSize !== 0) return null;
  const square = spacePolygon({ i: y / gridSize, j: x / gridSize }, gridSize).points;
  const corners = new Set(Array.from({ length: 4 }, (_, k) => `${square[2 * k]},${square[2 * k + 1]}`));
  const given = new Set(Array.from({ length: 4 }, (_, k) => `${points[2 * k]},${points[2 * k + 1]}`));
  return given.size === 4 && [...given].every(c => corners.has(c)) ? { i: y / gridSize, j: x / gridSize } : null;
}

/**
 * The spaces a region of the system covers, or null when it holds no ICON area: the spaces its
 * shapes are (a square polygon each, as the system makes them: what Foundry draws and tests, so a
 * module that moved the shapes in `icon-engine.preCreateTemplate` moved the area); from its flag
 * (origin and cells) when the shapes are no longer one square per space.
 * @param {{flags?: Record<string, unknown> | null, shapes?: readonly {type?: unknown, points?: unknown, hole?: unknown}[] | null}} region
 *   Its data or document.
 * @param {number} gridSize
 * @param {string} scope
 * @returns {Space[] | null}
 */
export function regionSpaces(region, gridSize, scope) {
  const flag = /** @type {Partial<AreaFlag & {x: number, y: number}> | undefined} */ (
    /** @type {Record<string, unknown> | undefined} */ (region.flags?.[scope])?.[AREA_FLAG]);
  if (!flag) return null;
  const shapes = [...(region.shapes ?? [])];
  const fromShapes = shapes.map(shape => shapeSpace(shape, gridSize));
  if (shapes.length && fromShapes.every(Boolean)) return /** @type {Space[]} */ (fromShapes);
  if (!Number.isFinite(flag.x) || !Number.isFinite(flag.y)) return null;
  return templateSpaces({ x: /** @type {number} */ (flag.x), y: /** @type {number} */ (flag.y), flags: region.flags }, gridSize, scope);
}

/**
 * The one shape a placement preview moves and turns: the outline of the spaces (its longest loop;
 * the shapes are one piece), as a polygon in scene pixels.
 * @param {Space[]} spaces
 * @param {number} gridSize
 * @returns {{type: "polygon", points: number[], hole: false}}
 */
export function outlinePolygon(spaces, gridSize) {
  const loops = outline(spaces, gridSize);
  const longest = loops.reduce((a, b) => (b.length > a.length ? b : a), /** @type {number[]} */ ([]));
  return { type: "polygon", points: longest, hole: false };
}

/**
 * Where a placed preview went: how far its first point moved, in whole spaces (what a preview
 * that is only moved tells), and how far it turned, to the nearest multiple of 45° (ICON's eight
 * directions; what a preview that is only turned tells), comparing its points as placed with the
 * ones it was built with.
 * @param {number[]} before  The preview's points as built.
 * @param {number[]} after   As placed.
 * @param {number} gridSize
 * @returns {{di: number, dj: number, turn: number}}  `turn` in degrees, clockwise on screen, 0 to 315.
 */
export function placementOf(before, after, gridSize) {
  const angle = (/** @type {number[]} */ p) => Math.atan2(p[3] - p[1], p[2] - p[0]);
  const degrees = ((angle(after) - angle(before)) * 180) / Math.PI;
  return {
    di: Math.round((after[1] - before[1]) / gridSize),
    dj: Math.round((after[0] - before[0]) / gridSize),
    turn: ((Math.round(degrees / 45) * 45) % 360 + 360) % 360
  };
}
