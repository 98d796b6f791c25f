import { SYSTEM_ID } from "../config.mjs";
import { getCore } from "../core.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import { format, localize } from "../applications/i18n.mjs";
import { tokenSpaces } from "./area-shapes.mjs";
import { barriersOf, bodyOf } from "./scene-sight.mjs";
import TerrainBehaviors from "./terrain-behaviors.mjs";
import { hasTerrain, spacesInside, terrainType } from "./terrain-spaces.mjs";

/**
 * @typedef {object} MovePrice  A token's move as the core prices it (`iconMovement`).
 * @property {number} cost
 * @property {{to: [number, number], cost: number, engaged: boolean, difficult: boolean}[]} steps
 * @property {{step: number, problem: "immobile" | "diagonal" | "obstructed" | "wall" | "endsOccupied", by: number | null}[]} problems
 */

/**
 * @typedef {object} TerrainRegion  A scene's region as read here (API v13 and v14 `RegionDocument`).
 * @property {Iterable<{type?: string, active?: boolean, disabled?: boolean}>} [behaviors]
 * @property {{x: number, y: number, width: number, height: number}} [bounds]
 * @property {(point: {x: number, y: number, elevation: number}) => boolean} testPoint
 */

/** Movement actions that are no walk through the spaces between (v13's CONFIG.Token.movement.actions). */
const NOT_WALKED = new Set(["blink", "displace"]);

/**
 * A token's moves by ICON's rules ("Engagement", "Difficult Terrain", "Obstruction", Flying,
 * Phasing, Immobile, Skirmisher): the core prices each step and says what a move breaks; a
 * player's move that breaks a rule is warned about (never stopped: the table decides), a GM's
 * goes unremarked.
 */
export default class TokenMovement {
  /**
   * Listen for moves (Foundry 13 and 14 fire `preMoveToken` on the mover's client), and price each
   * walked step of Foundry's movement actions by ICON's rules, so the ruler shows ICON's costs.
   */
  static register() {
    Hooks.on("preMoveToken", (/** @type {TokenDocument.Implementation} */ token, /** @type {unknown} */ movement) => {
      TokenMovement.#warn(token, /** @type {PendingMove} */ (movement));
    });
    TokenMovement.#priceActions();
    // ICON's terrain painted as regions (module/canvas/terrain-behaviors.mjs): registered at `init` too.
    TerrainBehaviors.register();
  }

  /**
   * Wrap each movement action's cost function (v13 and v14 `CONFIG.Token.movement.actions[name]
   * .getCostFunction(token, options)` → `(baseCost, from, to, distance, segment) => cost`) to add
   * what ICON adds to a step: engagement and difficult terrain, in the scene's distance units.
   * Teleports are left as they are; the `fly` action moves as Flying.
   */
  static #priceActions() {
    const actions = /** @type {Record<string, {teleport?: boolean, getCostFunction?: CostFunctionMaker}> | undefined} */ (
      /** @type {{movement?: {actions?: object}}} */ (CONFIG.Token)?.movement?.actions);
    for (const [name, action] of Object.entries(actions ?? {})) {
      if (action.teleport) continue;
      const inner = action.getCostFunction ?? (() => (/** @type {number} */ cost) => cost);
      action.getCostFunction = (token, options) => {
        const base = inner(token, options);
        const extra = TokenMovement.stepExtra(token, { flying: name === "fly" });
        return (cost, from, to, distance, segment) => base(cost, from, to, distance, segment) + extra(from, to);
      };
    }
  }

  /**
   * @callback CostFunctionMaker
   * @param {TokenDocument.Implementation} token
   * @param {object} options
   * @returns {(cost: number, from: {i: number, j: number}, to: {i: number, j: number}, distance: number, segment: object) => number}
   */

  /**
   * What ICON adds to one step of `token` from grid offset `from` to `to` (the token's top-left
   * space), in the scene's distance units: a space more to leave a space beside a foe, and one
   * more to leave difficult terrain, as the core prices it; 0 for anything but one step.
   * @param {TokenDocument.Implementation} token
   * @param {{flying?: boolean}} [options]
   * @returns {(from: {i: number, j: number}, to: {i: number, j: number}) => number}
   */
  static stepExtra(token, { flying = false } = {}) {
    const request = TokenMovement.#request(token, { flying });
    if (!request) return () => 0;
    const unit = Number(token.parent?.grid?.distance) || 1;
    return (from, to) => {
      if (Math.max(Math.abs(to.i - from.i), Math.abs(to.j - from.j)) !== 1) return 0;
      try {
        const price = getCore().iconMovement({ ...request, mover: { ...request.mover, i: from.i, j: from.j }, path: [[to.i, to.j]], walls: [] });
        return (price.cost - 1) * unit;
      } catch (error) {
        console.warn(`${SYSTEM_ID} | movement cost`, error);
        return 0;
      }
    };
  }

  /**
   * @typedef {object} PendingMove  What `preMoveToken` gives, as read here.
   * @property {{x: number, y: number}} origin
   * @property {{waypoints: {x: number, y: number, action?: string}[]}} [passed]
   * @property {{waypoints: {x: number, y: number, action?: string}[]}} [pending]
   * @property {string} [method]
   */

  /**
   * @param {TokenDocument.Implementation} token
   * @param {PendingMove} movement
   */
  static #warn(token, movement) {
    if (game.user?.isGM || !movement?.origin || ["undo", "config"].includes(movement.method ?? "")) return;
    const waypoints = [...(movement.passed?.waypoints ?? []), ...(movement.pending?.waypoints ?? [])];
    if (waypoints.some(w => NOT_WALKED.has(w.action ?? ""))) return;
    let price;
    try {
      price = TokenMovement.price(token, movement.origin, waypoints, { flying: waypoints.some(w => w.action === "fly") });
    } catch (error) {
      console.warn(`${SYSTEM_ID} | movement`, error);
      return;
    }
    if (!price?.problems.length) return;
    const seen = new Set();
    const lines = price.problems.filter(p => !seen.has(p.problem) && seen.add(p.problem))
      .map(p => localize(`ICONENGINE.Movement.problem.${p.problem}`));
    ui.notifications?.warn(format("ICONENGINE.Movement.warning", { name: token.name ?? "", problems: lines.join(" ") }));
  }

  /**
   * The price of moving `token` from `origin` through `waypoints` (pixels, top-left corners) on
   * its scene, the core routing between them (the cheapest way that breaks no rule; the straight
   * line's steps, and what they break, where there is none), or null when it is on no scene with a grid.
   * @param {TokenDocument.Implementation} token
   * @param {{x: number, y: number}} origin
   * @param {{x: number, y: number}[]} waypoints
   * @param {{dash?: boolean, flying?: boolean, unstoppable?: boolean}} [options]  `unstoppable`: moving as
   *   Unstoppable whatever its statuses (a rush: "You are unstoppable ... while moving").
   * @returns {MovePrice | null}
   */
  static price(token, origin, waypoints, { dash = false, flying = false, unstoppable = false } = {}) {
    const request = TokenMovement.#request(token, { dash, flying, unstoppable });
    if (!request) return null;
    const size = request.grid;
    const space = (/** @type {{x: number, y: number}} */ p) => /** @type {[number, number]} */ ([Math.round(p.y / size), Math.round(p.x / size)]);
    const [i, j] = space(origin);
    // the core routes between the waypoints: the cheapest way that breaks no rule, as a player
    // walks round a foe or a wall a straight drag would cross
    return getCore().iconMovement({ ...request, mover: { ...request.mover, i, j }, path: waypoints.map(space), route: true });
  }

  /**
   * The core's movement request for `token` on its scene, without its path: its size, how it
   * moves, the other tokens, difficult terrain and the walls that block movement; null on no
   * scene with a grid.
   * @param {TokenDocument.Implementation} token
   * @param {{dash?: boolean, flying?: boolean, unstoppable?: boolean}} options
   */
  static #request(token, { dash = false, flying = false, unstoppable = false }) {
    const scene = token.parent;
    const size = scene?.grid?.size;
    if (!scene || !size) return null;
    const actor = token.actor;
    const statuses = new Set(actor ? ActorStatuses.statusesOf(/** @type {Actor.Implementation} */ (actor)).map(s => s.replace(/\+$/, "")) : []);
    // The Skirmisher trait: the Vagabond's class trait ("Skirmisher, Dodge") and the Skirmisher foe class's.
    const system = /** @type {{class?: unknown, foeClass?: unknown}} */ (actor?.system ?? {});
    const skirmisher = system.class === "vagabond" || system.foeClass === "skirmisher";
    const side = Math.sign(token.disposition ?? 0);
    const others = [...(scene.tokens ?? [])].filter(t => t !== token && t.id !== token.id).map(t => {
      const other = t.actor ? ActorStatuses.statusesOf(/** @type {Actor.Implementation} */ (t.actor)).map(s => s.replace(/\+$/, "")) : [];
      const body = bodyOf(t, size, 1);
      return {
        body: { i: body.i, j: body.j, rows: body.rows, cols: body.cols },
        foe: !!side && Math.sign(t.disposition ?? 0) === -side,
        solid: !other.some(s => ["incapacitated", "intangible", "defeated"].includes(s))
      };
    });
    const me = bodyOf({ x: token.x ?? 0, y: token.y ?? 0, width: token.width ?? 1, height: token.height ?? 1 }, size, 1);
    return {
      grid: Math.round(size),
      mover: { i: me.i, j: me.j, rows: me.rows, cols: me.cols },
      mode: {
        dash,
        flying: flying || statuses.has("flying"),
        phasing: statuses.has("phasing"),
        skirmisher,
        unstoppable: unstoppable || statuses.has("unstoppable"),
        immobile: statuses.has("immobile") || statuses.has("incapacitated")
      },
      others,
      difficult: TokenMovement.difficultSpaces(scene, size, token.elevation ?? 0),
      walls: barriersOf([...(scene.walls ?? [])].filter(w => (w.move ?? 0) > 0), []).map(({ a, b, height }) => ({ a, b, height }))
    };
  }

  /**
   * The spaces of difficult terrain on a scene: those of each region with an acting
   * `icon-engine.difficultTerrain` behavior (a space whose centre is inside the region, at the
   * mover's elevation, by Foundry's `RegionDocument#testPoint`), and those of each tile whose
   * `flags.icon-engine.terrain` is "difficult" (how scenes marked it before regions; still read).
   * @param {Scene.Implementation} scene
   * @param {number} size
   * @param {number} [elevation]  The mover's, tested against each region's bottom and top.
   * @returns {[number, number][]}
   */
  static difficultSpaces(scene, size, elevation = 0) {
    /** @type {[number, number][]} */
    const out = [];
    for (const tile of scene.tiles ?? []) {
      if (/** @type {Record<string, {terrain?: unknown} | undefined>} */ (tile.flags ?? {})[SYSTEM_ID]?.terrain !== "difficult") continue;
      const spaces = tokenSpaces({ x: tile.x ?? 0, y: tile.y ?? 0, width: (tile.width ?? 0) / size, height: (tile.height ?? 0) / size }, size);
      for (const s of spaces) out.push([s.i, s.j]);
    }
    const type = terrainType(SYSTEM_ID, "difficult");
    const regions = /** @type {Iterable<TerrainRegion>} */ (/** @type {{regions?: unknown}} */ (scene).regions ?? []);
    for (const region of regions) {
      if (typeof region.testPoint !== "function" || !hasTerrain(region, type)) continue;
      // a region's bounds (v13 and v14 `RegionDocument#bounds`), else the scene's rectangle
      const bounds = region.bounds ?? { x: 0, y: 0, width: Number(scene.width) || 0, height: Number(scene.height) || 0 };
      out.push(...spacesInside(point => region.testPoint({ ...point, elevation }), bounds, size));
    }
    return out;
  }
}
