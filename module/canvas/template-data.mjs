/**
 * An ICON area as a Foundry v13 measured template's data, and back: the template's origin is the
 * centre of the chosen space, its `flags.icon-engine.area` keeps the shape, size and direction and
 * the spaces it covers (relative to the origin's space), so every client draws, highlights and
 * counts the same spaces whoever placed it. Pure (no Foundry API).
 */
import { areaSpaces, coveredTokens, directionBetween, tokenSpaces } from "./area-shapes.mjs";

/** @import { AreaShape, Space } from "./area-shapes.mjs" */

/** The system's flag (under its scope) on a measured template that holds its ICON area. */
export const AREA_FLAG = "area";

/**
 * Foundry's template type for each shape (`MeasuredTemplateDocument#t`), closest to ICON's pattern;
 * the system draws the pattern itself (module/canvas/icon-template.mjs).
 */
export const FOUNDRY_TYPES = Object.freeze({ blast: "rect", burst: "circle", line: "ray", cross: "circle", arc: "cone" });

/**
 * @typedef {object} AreaFlag  `flags.icon-engine.area` of a template.
 * @property {AreaShape} shape
 * @property {number} size
 * @property {number} direction  Degrees, a multiple of 45 (0: east).
 * @property {[number, number][]} cells  The covered spaces as `[di, dj]` from the origin's space.
 * @property {string} [item]     The UUID of the item whose area it is.
 * @property {string} [actor]    The UUID of the actor that used it.
 */

/**
 * The grid space of a point (pixels), on a square grid of `gridSize` pixels.
 * @param {{x: number, y: number}} point
 * @param {number} gridSize
 * @returns {Space}
 */
export function spaceAt({ x, y }, gridSize) {
  return { i: Math.floor(y / gridSize), j: Math.floor(x / gridSize) };
}

/**
 * The data of a measured template of an area, chosen at a space.
 * @param {{shape: AreaShape, size: number}} area
 * @param {object} where
 * @param {Space} where.anchor      The chosen space.
 * @param {Space[]} [where.user]    The user's token's spaces.
 * @param {{size: number, distance: number}} grid  Pixels and units per space.
 * @param {{user?: string, fillColor?: string, item?: string, actor?: string, scope: string}} meta
 */
export function areaTemplateData(area, { anchor, user = [] }, grid, { user: userId, fillColor, item, actor, scope }) {
  // A burst comes out of its user wherever the pointer is: its origin is the user's first space.
  const origin = area.shape === "burst" && user.length ? user[0] : anchor;
  const from = user.length ? user : [origin];
  const direction = area.shape === "line" || area.shape === "arc" ? directionBetween(from[0], anchor) : 0;
  const spaces = areaSpaces(area, { anchor: origin, user, direction });
  /** @type {AreaFlag} */
  const flag = { shape: area.shape, size: area.size, direction, cells: spaces.map(s => [s.i - origin.i, s.j - origin.j]) };
  if (item) flag.item = item;
  if (actor) flag.actor = actor;
  /** @type {Record<string, unknown>} */
  const data = {
    t: FOUNDRY_TYPES[area.shape],
    x: (origin.j + 0.5) * grid.size,
    y: (origin.i + 0.5) * grid.size,
    direction,
    distance: area.size * grid.distance,
    angle: 90,
    width: grid.distance,
    flags: { [scope]: { [AREA_FLAG]: flag } }
  };
  if (userId) data.user = userId;
  if (fillColor) data.fillColor = fillColor;
  return data;
}

/**
 * The spaces a placed template covers (its origin's space plus its cells), or null when it holds
 * no ICON area.
 * @param {{x: number, y: number, flags?: Record<string, unknown> | null}} template  Its data or document.
 * @param {number} gridSize
 * @param {string} scope
 * @returns {Space[] | null}
 */
export function templateSpaces(template, gridSize, scope) {
  const flag = /** @type {Partial<AreaFlag> | undefined} */ (/** @type {Record<string, unknown> | undefined} */ (template.flags?.[scope])?.[AREA_FLAG]);
  if (!flag || !Array.isArray(flag.cells)) return null;
  const origin = spaceAt(template, gridSize);
  return flag.cells.filter(c => Array.isArray(c) && c.length === 2 && c.every(Number.isInteger))
    .map(([di, dj]) => ({ i: origin.i + di, j: origin.j + dj }));
}

/**
 * The tokens a template covers ("at least 1 space of its area" inside).
 * @template {{x: number, y: number, width?: number, height?: number}} T
 * @param {{x: number, y: number, flags?: Record<string, unknown> | null}} template
 * @param {T[]} tokens  Token documents (or their data).
 * @param {number} gridSize
 * @param {string} scope
 * @returns {T[]}
 */
export function tokensInTemplate(template, tokens, gridSize, scope) {
  const spaces = templateSpaces(template, gridSize, scope);
  return spaces ? coveredTokens(spaces, tokens, gridSize) : [];
}

export { tokenSpaces };
