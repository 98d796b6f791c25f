/**
 * ICON's terrain from a scene's regions, the pure part (no Foundry API: node tests check it). A
 * GM paints terrain as a Scene Region with one of the system's region behaviors (Foundry 13 and 14
 * alike: system-defined `RegionBehavior` subtypes, `<system>.<type>`): `difficultTerrain` makes
 * the spaces it covers difficult terrain ("Costs +1 space of movement to exit"), `dangerousTerrain`
 * hurts a character that enters or exits its spaces ("Entering or exiting a dangerous terrain
 * space causes a character to take 2 piercing damage. Characters can only take this damage once a
 * turn."). Rules Reference, Tactical Combat, glossary.
 */
import { SYSTEM_ID } from "../config.mjs";
import { isRush } from "./teleport-space.mjs";

/** The system's region behavior subtypes (system.json `documentTypes.RegionBehavior`), by kind. */
export const TERRAIN_BEHAVIORS = Object.freeze(/** @type {const} */ ({ difficult: "difficultTerrain", dangerous: "dangerousTerrain" }));

/**
 * A behavior's full type name, as Foundry names a package's subtypes (`icon-engine.difficultTerrain`).
 * @param {string} scope  The system's id.
 * @param {keyof typeof TERRAIN_BEHAVIORS} kind
 */
export const terrainType = (scope, kind) => `${scope}.${TERRAIN_BEHAVIORS[kind]}`;

/**
 * Does a behavior act: `RegionBehavior#active` where the document has it (v13: created, not
 * deleted, not disabled; v14: and its region not hidden), else not `disabled` (data).
 * @param {{active?: boolean, disabled?: boolean}} behavior
 */
export function behaviorActs(behavior) {
  return typeof behavior.active === "boolean" ? behavior.active : !behavior.disabled;
}

/**
 * Does a region hold an acting behavior of `type`?
 * @param {{behaviors?: Iterable<{type?: string, active?: boolean, disabled?: boolean}> | null}} region
 * @param {string} type
 */
export function hasTerrain(region, type) {
  for (const behavior of region.behaviors ?? []) if (behavior.type === type && behaviorActs(behavior)) return true;
  return false;
}

/**
 * The grid spaces (row `i`, column `j`) whose centre is inside a region, by the region's own test
 * (`RegionDocument#testPoint`, Foundry's, which knows every shape and hole), within its bounds: a
 * space is terrain when its centre is, as Foundry counts a token inside a region by its centre.
 * @param {(point: {x: number, y: number}) => boolean} inside
 * @param {{x: number, y: number, width: number, height: number}} bounds  Scene pixels.
 * @param {number} size  The grid's size in pixels.
 * @returns {[number, number][]}
 */
export function spacesInside(inside, bounds, size) {
  /** @type {[number, number][]} */
  const out = [];
  if (!(size > 0) || ![bounds.x, bounds.y, bounds.width, bounds.height].every(Number.isFinite)) return out;
  const [i0, j0] = [Math.floor(bounds.y / size), Math.floor(bounds.x / size)];
  const [i1, j1] = [Math.ceil((bounds.y + bounds.height) / size), Math.ceil((bounds.x + bounds.width) / size)];
  // a bound on the work a malformed region can ask for: a 400 × 400 space scene
  if ((i1 - i0) * (j1 - j0) > 160_000) return out;
  for (let i = i0; i < i1; i++) {
    for (let j = j0; j < j1; j++) if (inside({ x: (j + 0.5) * size, y: (i + 0.5) * size })) out.push([i, j]);
  }
  return out;
}

/**
 * @typedef {object} TerrainMove  What a region's move event tells of the move (v13's and v14's
 *   `TokenMovementOperation`, as read here).
 * @property {string} [id]      The movement's id: one movement crosses many regions and borders.
 * @property {string} [method]  "api", "config", "dragging", "keyboard", "paste", "undo".
 * @property {{waypoints?: {action?: string}[]}} [passed]
 * @property {object} [updateOptions]  The options of the update that moved it.
 */

/**
 * Does a move through dangerous terrain hurt? Not a flyer's ("ignores all terrain, objects, and
 * terrain effects other than impassable terrain": the Flying status, or Foundry's `fly` action),
 * not a rush's ("Rush X: ... immune to all damage while moving": the update the card's rush made
 * says so in its options), not an undo or a position typed in the token's sheet (no move), not a
 * `displace` (a relocation by the GM or a teleport region, with no walk).
 * @param {TerrainMove | null | undefined} movement
 * @param {{flying: boolean}} mover
 */
export function dangerousMoveHurts(movement, { flying }) {
  if (!movement || flying) return false;
  if (isRush(movement.updateOptions, SYSTEM_ID)) return false;
  if (["undo", "config"].includes(movement.method ?? "")) return false;
  const actions = (movement.passed?.waypoints ?? []).map(w => w.action ?? "");
  if (actions.includes("fly")) return false;
  return !(actions.length && actions.every(a => a === "displace"));
}

/**
 * Does a path touch a region: any point of it, sampled at most `step` apart along each leg
 * (the ends included), inside? A move into, out of, through or within a region does.
 * @param {{x: number, y: number}[]} points  The path's points (a token's centre at each waypoint).
 * @param {(point: {x: number, y: number}) => boolean} inside
 * @param {number} step  Pixels; a quarter space is fine enough for grid-sized regions.
 * @returns {boolean}
 */
export function pathTouches(points, inside, step) {
  if (!points.length || !(step > 0)) return false;
  if (inside(points[0])) return true;
  for (let k = 1; k < points.length; k++) {
    const [a, b] = [points[k - 1], points[k]];
    // a bound on the samples a malformed path can ask for
    const n = Math.min(4096, Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / step)));
    for (let m = 1; m <= n; m++) if (inside({ x: a.x + ((b.x - a.x) * m) / n, y: a.y + ((b.y - a.y) * m) / n })) return true;
  }
  return false;
}
