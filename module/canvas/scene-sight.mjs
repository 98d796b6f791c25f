import { SYSTEM_ID } from "../config.mjs";
import { getCore } from "../core.mjs";
import { tokenSpaces, nearestSpaces } from "./area-shapes.mjs";

/**
 * @typedef {object} Barrier  What stands in a line of sight (the core's `iconSightlines`), with
 *   what the dialog calls it.
 * @property {[number, number]} a  One end, in pixels.
 * @property {[number, number]} b  The other.
 * @property {number | null} height  Levels; null: nothing sees past it.
 * @property {"wall" | "terrain"} kind
 */

/**
 * @typedef {object} MapSight  A target as the attacker's token sees it on the scene.
 * @property {boolean} sight
 * @property {boolean} cover
 * @property {boolean} adjacent
 * @property {number} heightDifference
 * @property {number} distance
 * @property {Barrier | null} coverBy
 * @property {Barrier | null} blockedBy
 */

/** Levels a barrier has when it says none: a wall that blocks sight stands above anything. */
const LOW_WALL = 1;

/**
 * The system's height flag of a document's flags, as given.
 * @param {object | undefined} flags
 * @returns {unknown}
 */
const heightFlag = flags => /** @type {Record<string, {height?: unknown} | undefined> | undefined} */ (flags)?.[SYSTEM_ID]?.height;

/** @param {unknown} value */
const levels = value => (Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) <= 100 ? /** @type {number} */ (value) : null);

/**
 * The barriers of a scene's walls and terrain. A wall that blocks vision is a barrier nothing sees
 * past, unless its `flags.icon-engine.height` gives its height in levels; a wall that only blocks
 * movement (vision passes) is terrain 1 level high, or its flag's height; an open door, or a wall
 * that blocks neither, is no barrier. A tile with `flags.icon-engine.height` is terrain of that
 * height: its four edges ("a space of terrain"). Characters are never barriers ("Characters do
 * NOT grant cover by default").
 * @param {Iterable<{c: number[], sight?: number | null, move?: number | null, door?: number | null, ds?: number | null, flags?: object}>} walls
 * @param {Iterable<{x: number, y: number, width: number, height: number, flags?: object}>} tiles
 * @returns {Barrier[]}
 */
export function barriersOf(walls, tiles) {
  /** @type {Barrier[]} */
  const out = [];
  const point = (/** @type {number} */ x, /** @type {number} */ y) => /** @type {[number, number]} */ ([Math.round(x), Math.round(y)]);
  for (const wall of walls) {
    const [x0, y0, x1, y1] = wall.c ?? [];
    if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
    // CONST.WALL_DOOR_STATES.OPEN
    if ((wall.door ?? 0) > 0 && wall.ds === 1) continue;
    const sight = (wall.sight ?? 0) > 0;
    const move = (wall.move ?? 0) > 0;
    if (!sight && !move) continue;
    const flagged = levels(heightFlag(wall.flags));
    out.push({ a: point(x0, y0), b: point(x1, y1), height: flagged ?? (sight ? null : LOW_WALL), kind: sight && flagged === null ? "wall" : "terrain" });
  }
  for (const tile of tiles) {
    const height = levels(heightFlag(tile.flags));
    if (height === null || ![tile.x, tile.y, tile.width, tile.height].every(Number.isFinite)) continue;
    const [l, t, r, b] = [tile.x, tile.y, tile.x + tile.width, tile.y + tile.height];
    for (const [from, to] of [[[l, t], [r, t]], [[r, t], [r, b]], [[r, b], [l, b]], [[l, b], [l, t]]]) {
      out.push({ a: point(from[0], from[1]), b: point(to[0], to[1]), height, kind: "terrain" });
    }
  }
  return out;
}

/**
 * A token as the core reads a character: its spaces, the level it stands on (its elevation in
 * the scene's distance units, a level per grid space of distance) and its height in levels
 * (`flags.icon-engine.height`, else its size: "Player characters are size 1", at most 3).
 * @param {{x: number, y: number, width?: number, height?: number, elevation?: number, flags?: object}} token
 * @param {number} gridSize      Pixels per space.
 * @param {number} gridDistance  Distance units per space.
 */
export function bodyOf(token, gridSize, gridDistance) {
  const spaces = tokenSpaces(token, gridSize);
  const i = Math.min(...spaces.map(s => s.i));
  const j = Math.min(...spaces.map(s => s.j));
  const rows = Math.min(10, Math.max(1, Math.round(token.height ?? 1)));
  const cols = Math.min(10, Math.max(1, Math.round(token.width ?? 1)));
  const level = Math.max(-100, Math.min(100, Math.floor((Number(token.elevation) || 0) / (gridDistance || 1))));
  const flagged = levels(heightFlag(token.flags));
  const height = flagged !== null && flagged >= 1 && flagged <= 3 ? flagged : Math.min(3, Math.max(rows, cols));
  return { i, j, rows, cols, level, height };
}

/**
 * Line of sight, cover, adjacency and height on the viewed scene ("Cover/Line of Sight",
 * "Targeting/Range"), computed by the core's `iconSightlines` from the scene's walls, terrain tiles
 * and tokens.
 */
export default class SceneSight {
  /**
   * Each target token as `from` sees it, or null without a scene (or a core answer).
   * @param {TokenDocument.Implementation} from
   * @param {TokenDocument.Implementation[]} targets
   * @returns {MapSight[] | null}
   */
  static of(from, targets) {
    const scene = canvas?.scene;
    const size = canvas?.grid?.size;
    if (!scene || !size || from.parent !== scene) return null;
    const distance = Number(scene.grid?.distance) || 1;
    const barriers = barriersOf(scene.walls?.contents ?? [], scene.tiles?.contents ?? []);
    const body = (/** @type {TokenDocument.Implementation} */ t) => bodyOf(t, size, distance);
    try {
      const sights = /** @type {{sight: boolean, cover: boolean, adjacent: boolean, heightDifference: number, distance: number,
        coverBy: number | null, blockedBy: number | null}[]} */ (getCore().iconSightlines({
        grid: Math.round(size), from: body(from), targets: targets.map(body), barriers: barriers.map(({ a, b, height }) => ({ a, b, height }))
      }));
      return sights.map(s => ({ ...s, coverBy: s.coverBy === null ? null : barriers[s.coverBy] ?? null,
        blockedBy: s.blockedBy === null ? null : barriers[s.blockedBy] ?? null }));
    } catch (error) {
      // Too large a scene to measure in a frame: the dialog's own inputs stand.
      console.warn(`${SYSTEM_ID} | line of sight`, error);
      return null;
    }
  }

  /**
   * The tokens hostile to `from` adjacent to it, not defeated ("+1 curse to ranged attacks if
   * there's a foe adjacent"): of the opposite disposition (friendly against hostile).
   * @param {TokenDocument.Implementation} from
   * @returns {TokenDocument.Implementation[]}
   */
  static adjacentFoes(from) {
    const scene = canvas?.scene;
    const size = canvas?.grid?.size;
    if (!scene || !size || from.parent !== scene) return [];
    const mine = tokenSpaces(from, size);
    const side = Math.sign(from.disposition ?? 0);
    if (!side) return [];
    return /** @type {TokenDocument.Implementation[]} */ ([...(scene.tokens ?? [])]).filter(t => t !== from
      && Math.sign(t.disposition ?? 0) === -side && !t.actor?.statuses?.has("defeated")
      && nearestSpaces(mine, tokenSpaces(t, size)) <= 1);
  }
}
