/**
 * ICON's areas on a square grid, as grid spaces: which spaces a blast, burst, line, cross or arc
 * covers, which tokens stand in them, and the outline Foundry draws. Pure (no Foundry API), so node
 * tests check the same geometry the measured templates use.
 *
 * The rules reference says of areas only: "AoE: Area of effect, usually has a specific pattern.
 * Only one space in an area of effect is the attack space and requires a roll, the others apply
 * area effects automatically", "Area Ability: An ability that applies area effects in a large,
 * fixed pattern", and for ranged attacks "a target must have at least 1 space of its area within
 * the listed range". The patterns themselves are this system's reading of ICON's names, counting a
 * diagonal step as 1 space (docs/guide.md, "Areas on the map"):
 *
 * - blast N: an N×N square, centred on the chosen space (for an even N the chosen space is the
 *   upper left of the four middle ones);
 * - burst N: every space within N of the character (a diagonal counts 1), not the character's own;
 * - line N: N spaces in a straight line from the character, in one of the eight directions;
 * - cross N: the chosen space and N spaces out from it in each of the four straight directions;
 * - arc N: a quarter turn (90°) opening from the character towards one of the eight directions,
 *   N spaces deep.
 *
 * Spaces are Foundry's grid offsets `{i, j}` (i the row, j the column); directions are Foundry's
 * template `direction` in degrees, clockwise from east (so 90 is south, the screen's y down).
 */

/** The shapes, as an ability's `system.area.shape` names them. */
export const AREA_SHAPES = /** @type {const} */ (["blast", "burst", "line", "cross", "arc"]);

/** The smallest and largest size of an area. */
export const AREA_SIZE = /** @type {const} */ ([1, 12]);

/** @typedef {{i: number, j: number}} Space */
/** @typedef {typeof AREA_SHAPES[number]} AreaShape */

/** The eight directions, clockwise from east, as a step of one space each. */
const STEPS = [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]];

/**
 * The step of one space in a direction snapped to the nearest multiple of 45°.
 * @param {number} degrees
 * @returns {Space}
 */
export function directionStep(degrees) {
  const index = ((Math.round(Number(degrees) / 45) % 8) + 8) % 8;
  const [i, j] = STEPS[Number.isFinite(index) ? index : 0];
  return { i, j };
}

/**
 * The direction (a multiple of 45°) from one space towards another; east when they are the same.
 * @param {Space} from
 * @param {Space} to
 */
export function directionBetween(from, to) {
  const di = to.i - from.i;
  const dj = to.j - from.j;
  if (!di && !dj) return 0;
  const degrees = (Math.atan2(di, dj) * 180) / Math.PI;
  return ((Math.round(degrees / 45) * 45) % 360 + 360) % 360;
}

/**
 * Spaces between two spaces when a diagonal step counts 1 (Foundry's EQUIDISTANT rule).
 * @param {Space} a
 * @param {Space} b
 */
export function spacesBetween(a, b) {
  return Math.max(Math.abs(a.i - b.i), Math.abs(a.j - b.j));
}

/**
 * The fewest spaces between two groups of spaces (two tokens' areas): "a target must have at least
 * 1 space of its area within the listed range of the attack", and a large user's range counts from
 * the nearest of its spaces.
 * @param {Space[]} a
 * @param {Space[]} b
 * @returns {number}
 */
export function nearestSpaces(a, b) {
  let best = Infinity;
  for (const s of a) for (const t of b) best = Math.min(best, spacesBetween(s, t));
  return best;
}

/** @param {Space} s */
const key = s => `${s.i},${s.j}`;

/**
 * The spaces sorted (by row, then column) without repeats.
 * @param {Iterable<Space>} spaces
 * @returns {Space[]}
 */
function uniqueSorted(spaces) {
  const seen = new Map();
  for (const s of spaces) seen.set(key(s), { i: s.i, j: s.j });
  return [...seen.values()].sort((a, b) => a.i - b.i || a.j - b.j);
}

/**
 * The space of the character an area comes out of, facing a direction: of its spaces, the one
 * furthest along the direction (then the nearest to the chosen space). A one-space token is its
 * own space.
 * @param {Space[]} user
 * @param {Space} step
 * @param {Space} anchor
 */
function originFacing(user, step, anchor) {
  let best = user[0];
  for (const s of user.slice(1)) {
    const along = s.i * step.i + s.j * step.j;
    const bestAlong = best.i * step.i + best.j * step.j;
    if (along > bestAlong || (along === bestAlong && spacesBetween(s, anchor) < spacesBetween(best, anchor))) best = s;
  }
  return best;
}

/**
 * The spaces an area covers.
 * @param {{shape: AreaShape, size: number}} area
 * @param {object} where
 * @param {Space} where.anchor      The chosen space (a blast's or cross's centre; where a line, arc
 *   or burst is aimed).
 * @param {Space[]} [where.user]    The spaces of the character using the ability (a burst, line
 *   and arc come out of it); without them, the anchor stands in for the character.
 * @param {number} [where.direction]  A line's or arc's direction in degrees (snapped to 45°);
 *   without it, from the character towards the anchor.
 * @returns {Space[]}  Sorted by row, then column.
 */
export function areaSpaces({ shape, size }, { anchor, user = [], direction }) {
  const n = Number(size);
  if (!AREA_SHAPES.includes(shape)) throw new Error(`unknown area shape "${shape}" (one of ${AREA_SHAPES.join(", ")})`);
  if (!Number.isInteger(n) || n < AREA_SIZE[0] || n > AREA_SIZE[1]) {
    throw new Error(`an area's size must be a whole number from ${AREA_SIZE[0]} to ${AREA_SIZE[1]}, not ${size}`);
  }
  const from = user.length ? user : [anchor];
  /** @type {Space[]} */
  const out = [];
  switch (shape) {
    case "blast": {
      const top = anchor.i - Math.floor((n - 1) / 2);
      const left = anchor.j - Math.floor((n - 1) / 2);
      for (let i = top; i < top + n; i++) for (let j = left; j < left + n; j++) out.push({ i, j });
      break;
    }
    case "cross": {
      out.push(anchor);
      for (let k = 1; k <= n; k++) {
        out.push({ i: anchor.i - k, j: anchor.j }, { i: anchor.i + k, j: anchor.j }, { i: anchor.i, j: anchor.j - k }, { i: anchor.i, j: anchor.j + k });
      }
      break;
    }
    case "burst": {
      const own = new Set(from.map(key));
      for (const s of from) {
        for (let i = s.i - n; i <= s.i + n; i++) for (let j = s.j - n; j <= s.j + n; j++) if (!own.has(key({ i, j }))) out.push({ i, j });
      }
      break;
    }
    case "line":
    case "arc": {
      const centre = from[0];
      const step = directionStep(direction ?? directionBetween(centre, anchor));
      const origin = originFacing(from, step, anchor);
      if (shape === "line") {
        for (let k = 1; k <= n; k++) out.push({ i: origin.i + k * step.i, j: origin.j + k * step.j });
      } else if (step.i && step.j) {
        // Facing a diagonal: the quarter between the two straight directions beside it.
        for (let a = 0; a <= n; a++) for (let b = 0; b <= n; b++) if (a || b) out.push({ i: origin.i + a * step.i, j: origin.j + b * step.j });
      } else {
        // Facing straight: k spaces ahead, widening by one space on each side per step.
        const side = { i: step.j, j: step.i };
        for (let k = 1; k <= n; k++) {
          for (let l = -k; l <= k; l++) out.push({ i: origin.i + k * step.i + l * side.i, j: origin.j + k * step.j + l * side.j });
        }
      }
      const own = new Set(from.map(key));
      return uniqueSorted(out.filter(s => !own.has(key(s))));
    }
  }
  return uniqueSorted(out);
}

/**
 * The spaces a token stands in: from its top-left corner in pixels and its size in spaces.
 * @param {{x: number, y: number, width?: number, height?: number}} token  A TokenDocument's fields.
 * @param {number} gridSize  Pixels per space.
 * @returns {Space[]}
 */
export function tokenSpaces({ x, y, width = 1, height = 1 }, gridSize) {
  const top = Math.round(y / gridSize);
  const left = Math.round(x / gridSize);
  /** @type {Space[]} */
  const out = [];
  for (let i = 0; i < Math.max(1, Math.round(height)); i++) for (let j = 0; j < Math.max(1, Math.round(width)); j++) out.push({ i: top + i, j: left + j });
  return out;
}

/**
 * The tokens an area covers: those with at least one of their spaces in it ("a target must have
 * at least 1 space of its area" in reach).
 * @template {{x: number, y: number, width?: number, height?: number}} T
 * @param {Space[]} spaces
 * @param {T[]} tokens
 * @param {number} gridSize
 * @returns {T[]}  In the order given.
 */
export function coveredTokens(spaces, tokens, gridSize) {
  const inside = new Set(spaces.map(key));
  return tokens.filter(token => tokenSpaces(token, gridSize).some(s => inside.has(key(s))));
}

/**
 * The outline of a set of spaces as closed loops of corner points, in pixels, relative to a
 * point. Spaces that touch only at a corner (a diagonal line) are joined at that corner, so a
 * pattern of touching spaces is one loop; separate groups give one loop each.
 * @param {Space[]} spaces
 * @param {number} gridSize  Pixels per space.
 * @param {{x: number, y: number}} [relativeTo]  Subtracted from every point.
 * @returns {number[][]}  Each loop as `[x0, y0, x1, y1, ...]`, clockwise on screen.
 */
export function outline(spaces, gridSize, relativeTo = { x: 0, y: 0 }) {
  const sorted = uniqueSorted(spaces);
  const inside = new Set(sorted.map(key));
  const filled = (/** @type {number} */ i, /** @type {number} */ j) => inside.has(`${i},${j}`);
  // Each boundary edge, directed so its space is on the right (clockwise on screen), from grid
  // corner to grid corner, both as "row,col".
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  const add = (/** @type {number[]} */ a, /** @type {number[]} */ b) => {
    const from = `${a[0]},${a[1]}`;
    edges.set(from, [...(edges.get(from) ?? []), `${b[0]},${b[1]}`]);
  };
  for (const { i, j } of sorted) {
    if (!filled(i - 1, j)) add([i, j], [i, j + 1]);
    if (!filled(i, j + 1)) add([i, j + 1], [i + 1, j + 1]);
    if (!filled(i + 1, j)) add([i + 1, j + 1], [i + 1, j]);
    if (!filled(i, j - 1)) add([i + 1, j], [i, j]);
  }
  const corner = (/** @type {string} */ c) => c.split(",").map(Number);
  const loops = [];
  while (edges.size) {
    // A loop starts at the top-left corner of the first space left: only that space touches it.
    const start = [...edges.keys()].sort((a, b) => corner(a)[0] - corner(b)[0] || corner(a)[1] - corner(b)[1])[0];
    const loop = [start];
    let at = start;
    /** @type {number[] | null} */
    let heading = null;
    for (;;) {
      const out = /** @type {string[]} */ (edges.get(at));
      let pick = 0;
      if (out.length > 1 && heading) {
        // Where two spaces touch at a corner, turn left (on screen, left of (di, dj) is (-dj, di)):
        // the loop goes on round the next space instead of closing, so they are one outline.
        const left = [-heading[1], heading[0]];
        const index = out.findIndex(next => corner(next)[0] - corner(at)[0] === left[0] && corner(next)[1] - corner(at)[1] === left[1]);
        if (index >= 0) pick = index;
      }
      const next = out.splice(pick, 1)[0];
      if (!out.length) edges.delete(at);
      heading = [corner(next)[0] - corner(at)[0], corner(next)[1] - corner(at)[1]];
      at = next;
      if (at === start || !edges.has(at)) break;
      loop.push(at);
    }
    loops.push(loop.flatMap(c => [corner(c)[1] * gridSize - relativeTo.x, corner(c)[0] * gridSize - relativeTo.y]));
  }
  return loops;
}
