/**
 * Forced movement on the grid ("Shove: Move a character involuntarily X spaces in a straight line
 * away from you ... If a shoved character would move into another character's space, an object, or
 * a higher level of terrain, they collide and stop"), as pure grid arithmetic: spaces are grid
 * cells, a token's footprint its width × height in cells. No Foundry API, so node tests run it.
 */

/**
 * @typedef {object} Footprint  A token's cells: its top-left cell and size.
 * @property {number} i  Column.
 * @property {number} j  Row.
 * @property {number} w
 * @property {number} h
 */

/**
 * @typedef {object} ForcedPath
 * @property {{i: number, j: number}} end  The footprint's top-left cell where it stops.
 * @property {number} moved      Spaces it moved.
 * @property {boolean} collided  It stopped against a character, an object or a wall.
 * @property {{i: number, j: number}} direction
 */

/** @param {number} n */
const sign = n => (n > 0 ? 1 : n < 0 ? -1 : 0);

/**
 * The straight line from one footprint's centre through another's, as one of the eight grid
 * directions (ICON counts a diagonal as one space): a component counts when it is at least half
 * the other, so a target two right and one down of its shover goes diagonally.
 * @param {Footprint} from
 * @param {Footprint} to
 * @returns {{i: number, j: number}}
 */
export function directionAway(from, to) {
  const dx = (to.i + to.w / 2) - (from.i + from.w / 2);
  const dy = (to.j + to.h / 2) - (from.j + from.h / 2);
  return {
    i: Math.abs(dx) * 2 >= Math.abs(dy) ? sign(dx) : 0,
    j: Math.abs(dy) * 2 >= Math.abs(dx) ? sign(dy) : 0
  };
}

/**
 * Whether two footprints share a cell.
 * @param {Footprint} a
 * @param {Footprint} b
 */
export function overlaps(a, b) {
  return a.i < b.i + b.w && b.i < a.i + a.w && a.j < b.j + b.h && b.j < a.j + a.h;
}

/**
 * Where a shove (away from the user) or a pull (towards it) takes a target, one space at a time:
 * it stops when the next space would leave the battlefield (no collision), overlap the user (a pull
 * ends beside its puller), or meet an obstacle (a collision: `blocked` says so for a footprint,
 * given the step it comes from).
 * @param {object} options
 * @param {Footprint} options.target
 * @param {Footprint} options.user
 * @param {"shove" | "pull"} options.kind
 * @param {number} options.spaces
 * @param {(next: Footprint, from: Footprint) => "clear" | "edge" | "collide"} options.blocked
 * @returns {ForcedPath}
 */
export function forcedPath({ target, user, kind, spaces, blocked }) {
  const away = directionAway(user, target);
  const direction = kind === "pull" ? { i: -away.i, j: -away.j } : away;
  let at = { ...target };
  let moved = 0;
  let collided = false;
  if (direction.i || direction.j) {
    for (let step = 0; step < spaces; step++) {
      const next = { ...at, i: at.i + direction.i, j: at.j + direction.j };
      if (kind === "pull" && overlaps(next, user)) break;
      const what = blocked(next, at);
      if (what === "collide") {
        collided = true;
        break;
      }
      if (what === "edge") break;
      at = next;
      moved++;
    }
  }
  return { end: { i: at.i, j: at.j }, moved, collided, direction };
}

/**
 * How many spaces a part's forced movement may take a character: a foe's cannot move an
 * Unstoppable one ("Unstoppable: ... Cannot be moved by foes") and moves a Sturdy one 1 space at
 * most ("Sturdy: When moved or removed and placed by a foe, can only be moved max 1 space a turn";
 * per move here: the turn's earlier moves are not counted). An ally's moves them as far as it says.
 * @param {number} spaces
 * @param {{fromFoe: boolean, statuses: Iterable<string>}} mover  `statuses`: the moved character's
 *   status ids (an ongoing one's `+` read as the status).
 */
export function forcedSpaces(spaces, { fromFoe, statuses }) {
  if (!fromFoe) return spaces;
  const held = new Set([...statuses].map(s => s.replace(/\+$/, "")));
  if (held.has("unstoppable")) return 0;
  if (held.has("sturdy")) return Math.min(spaces, 1);
  return spaces;
}
