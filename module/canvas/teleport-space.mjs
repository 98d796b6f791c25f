/**
 * Where a teleport may land, and what marks a rush, as pure grid arithmetic (no Foundry API, so
 * node tests run it). "Teleport X: A teleport ability allows its user to instantly move to a free
 * space within range X. Teleport does NOT ignore Rampart." "Rampart: Foes cannot enter or exit a
 * space affected by a rampart effect by dashing, flying, or teleporting." "Unstoppable: ...
 * movement ignores engagement and rampart." Spaces are grid cells; a token's footprint is its
 * top-left cell and its width × height in cells (forced-movement.mjs `Footprint`).
 */
import { overlaps } from "./forced-movement.mjs";

/** @import { Footprint } from "./forced-movement.mjs" */

/**
 * @typedef {object} Rampart  Spaces a rampart effect affects, and whose they are: its side's foes
 *   may not teleport into or out of them.
 * @property {Footprint[]} spaces  Rectangles of cells.
 * @property {number} side         The disposition of who raised it (1 friendly, -1 hostile, 0: everyone's foe).
 */

/**
 * @typedef {"range" | "edge" | "occupied" | "rampartExit" | "rampartEnter"} TeleportRefusal
 *   Why a space is no teleport's: past its range, off the battlefield, not free (another
 *   character there), or out of or into a foe's rampart.
 */

/** The refusals, in the order they are checked. */
export const TELEPORT_REFUSALS = /** @type {const} */ (["range", "edge", "occupied", "rampartExit", "rampartEnter"]);

/**
 * The spaces a footprint moves: ICON counts a diagonal step as one space, so the farther of its
 * column and row shifts. Every space of a large character moves that far, so a 2×2 character's
 * teleport of range 3 lands its footprint at most 3 spaces from where it stood (range counted to
 * the nearest space of the old footprint would let a large character jump farther than a small one).
 * @param {{i: number, j: number}} from
 * @param {{i: number, j: number}} to
 */
export function spacesMoved(from, to) {
  return Math.max(Math.abs(to.i - from.i), Math.abs(to.j - from.j));
}

/**
 * Whether a rampart stands against a mover of this disposition: its side's foes (a rampart of no
 * side stands against everyone).
 * @param {Rampart} rampart
 * @param {number} side
 */
const against = (rampart, side) => !rampart.side || !side || Math.sign(rampart.side) === -Math.sign(side);

/**
 * Why a teleport may not land the mover's footprint at `to`, or null when it may: within `range`
 * spaces ({@link spacesMoved}), every space inside the battlefield, none shared with another
 * character ("a free space": a large character's every space must be free), and not out of or
 * into a space of a foe's rampart unless the mover is Unstoppable.
 * @param {object} options
 * @param {Footprint} options.mover  Where it stands.
 * @param {{i: number, j: number}} options.to  The footprint's top-left cell where it would land.
 * @param {number} options.range
 * @param {Footprint[]} options.others  The other characters' footprints.
 * @param {Footprint | null} [options.bounds]  The battlefield, in cells (null: unbounded).
 * @param {Rampart[]} [options.ramparts]
 * @param {number} [options.side]  The mover's disposition.
 * @param {boolean} [options.unstoppable]
 * @returns {TeleportRefusal | null}
 */
export function teleportRefusal({ mover, to, range, others, bounds = null, ramparts = [], side = 0, unstoppable = false }) {
  const landing = { i: to.i, j: to.j, w: mover.w, h: mover.h };
  if (spacesMoved(mover, to) > range) return "range";
  if (bounds && (landing.i < bounds.i || landing.j < bounds.j || landing.i + landing.w > bounds.i + bounds.w
    || landing.j + landing.h > bounds.j + bounds.h)) return "edge";
  if (others.some(o => overlaps(landing, o))) return "occupied";
  if (!unstoppable) {
    const standing = ramparts.filter(r => against(r, side));
    if (standing.some(r => r.spaces.some(s => overlaps(mover, s)))) return "rampartExit";
    if (standing.some(r => r.spaces.some(s => overlaps(landing, s)))) return "rampartEnter";
  }
  return null;
}

/** The key of the system's options on a rush's token update (and its movement's `updateOptions`). */
export const RUSH_OPTION = "rush";

/**
 * Whether a token update (or a movement whose `updateOptions` are one) is a rush: "You are
 * unstoppable and immune to all damage while moving", so what a move would deal on the way
 * (dangerous terrain met by it) deals nothing. The card's rush control sets
 * `options["icon-engine"].rush = true` on the update that moves the token.
 * @param {unknown} options  An update operation's options, or a movement with `updateOptions`.
 * @param {string} scope  The system's id.
 */
export function isRush(options, scope) {
  const read = (/** @type {unknown} */ o) => !!o && typeof o === "object"
    && /** @type {Record<string, {[RUSH_OPTION]?: unknown} | undefined>} */ (o)[scope]?.[RUSH_OPTION] === true;
  return read(options) || read(/** @type {{updateOptions?: unknown} | null} */ (options)?.updateOptions);
}
