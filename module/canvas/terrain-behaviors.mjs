import { SYSTEM_ID } from "../config.mjs";
import { TERRAIN_FLAG } from "../data/terrain.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import ActorTurns from "../documents/actor-turns.mjs";
import { dangerousMoveHurts, pathTouches, terrainType } from "./terrain-spaces.mjs";

/** @import { TerrainMove } from "./terrain-spaces.mjs" */

/**
 * @typedef {object} TerrainRegionEvent  A region event as its behaviors receive it (API v13 and v14
 *   `RegionEvent`: `{name, data, region, user}`); a move's data is `{token, movement}` (v13 and v14
 *   `RegionTokenMoveEventData`).
 * @property {string} name
 * @property {{token?: TokenDocument.Implementation | null, movement?: TerrainMove | null}} data
 * @property {{testPoint?: (point: {x: number, y: number, elevation: number}) => boolean} | null} [region]
 * @property {{id?: string | null}} [user]  Who triggered it (moved the token).
 */

/**
 * @typedef {object} TokenMove  A token's current or last movement as every client knows it (API v13
 *   and v14 `TokenDocument#movement`, `TokenMovementData`), as read here.
 * @property {string} [id]
 * @property {string[]} [chain]  The movements it continues.
 * @property {string} [method]
 * @property {{x: number, y: number, width?: number, height?: number}} [origin]
 * @property {{waypoints?: {x: number, y: number, width?: number, height?: number, action?: string}[]}} [passed]
 */

/** @typedef {new (...args: never[]) => object} BehaviorClass */

/**
 * ICON's terrain as the system's region behaviors, on Foundry 13 and 14 alike: both have Scene
 * Regions with system-defined behavior subtypes (system.json `documentTypes.RegionBehavior`, the
 * class in `CONFIG.RegionBehavior.dataModels["icon-engine.<type>"]`, extending
 * `foundry.data.regionBehaviors.RegionBehaviorType`), and the same move events
 * (`CONST.REGION_EVENTS.TOKEN_MOVE_IN`, `TOKEN_MOVE_OUT`, `TOKEN_MOVE_WITHIN`, data
 * `{token, movement}`), so one behavior of each kind serves both: v13's equivalent is the same
 * behavior. docs/foundry-api.md ("Terrain as region behaviors") cites the pages.
 *
 * - *Difficult terrain* (`icon-engine.difficultTerrain`): its region's spaces are difficult terrain
 *   for the core's movement prices (canvas/token-movement.mjs `difficultSpaces`), the ruler and the
 *   move warning. The behavior holds no data and handles no move: it only has the paths being
 *   planned priced again when it comes or goes, or its region changes shape.
 * - *Dangerous terrain* (`icon-engine.dangerousTerrain`): a token that moves into, out of or within
 *   its region takes the damage through the sheet's path (`TacticalRolls.dangerousTerrain`, a card
 *   with Undo; the core decides, the tracker's flag keeps "once a turn").
 *
 * Who acts: Foundry triggers a move's region events on the mover's client, which sends them to
 * every other client, and each client runs the behaviors (API v13 and v14 `RegionDocument#_triggerEvent`:
 * `game.socket.emit("regionEvent", ...)` then `_handleEvent`; the others' `#onSocketEvent`). The
 * damage is written by the active GM's client only (`game.users.activeGM.isSelf`, as the system's
 * other GM-side work): one client, whoever moved, and a player cannot skip it by not running it
 * (docs/security.md). One movement crosses several borders and regions (into and out of one in a
 * single drag is two events): it hurts once, by the movement's id.
 *
 * An event that reaches the GM through the socket is a player's claim (docs/security.md): it hurts
 * only when its movement is the token's own, as the server gave it to every client
 * (`TokenDocument#movement`: that movement, or one it continues), and that movement's path (its
 * origin and passed waypoints, the token's centre) touches the region. A forged event can then
 * only deliver a real movement's damage, and only once.
 */
export default class TerrainBehaviors {
  /** @type {{difficult: BehaviorClass, dangerous: BehaviorClass} | null} */
  static #types = null;

  /** The movements that have hurt already (`tokenUuid|movementId`), newest last, a few hundred kept. */
  static #hurt = new Set();

  /** Per actor, the damage being dealt: each move's waits for the one before (the flag it sets). */
  static #queues = new Map();

  /**
   * Register the two behaviors (at `init`, before any scene's regions are made): their classes,
   * icons and labels (`ICONENGINE.Terrain.*`; `TYPES.RegionBehavior.icon-engine.<type>`, Foundry's
   * default key for a subtype's label, says the same).
   */
  static register() {
    const config = /** @type {{dataModels?: Record<string, unknown>, typeIcons?: Record<string, string>, typeLabels?: Record<string, string>} | undefined} */ (
      /** @type {{RegionBehavior?: object}} */ (CONFIG).RegionBehavior);
    if (!config?.dataModels) return;
    const types = TerrainBehaviors.types();
    if (!types) return;
    config.dataModels[terrainType(SYSTEM_ID, "difficult")] = types.difficult;
    config.dataModels[terrainType(SYSTEM_ID, "dangerous")] = types.dangerous;
    config.typeIcons ??= {};
    config.typeIcons[terrainType(SYSTEM_ID, "difficult")] = "fa-solid fa-hill-rockslide";
    config.typeIcons[terrainType(SYSTEM_ID, "dangerous")] = "fa-solid fa-triangle-exclamation";
    config.typeLabels ??= {};
    config.typeLabels[terrainType(SYSTEM_ID, "difficult")] = "ICONENGINE.Terrain.difficult";
    config.typeLabels[terrainType(SYSTEM_ID, "dangerous")] = "ICONENGINE.Terrain.dangerous";
  }

  /**
   * The two behavior classes, made once Foundry's `RegionBehaviorType` exists (they extend it, so
   * they cannot be made when this module is read), or null without it.
   * @returns {{difficult: BehaviorClass, dangerous: BehaviorClass} | null}
   */
  static types() {
    if (TerrainBehaviors.#types) return TerrainBehaviors.#types;
    const Base = /** @type {(new (...args: never[]) => object) | undefined} */ (
      /** @type {{data?: {regionBehaviors?: {RegionBehaviorType?: unknown}}}} */ (foundry).data?.regionBehaviors?.RegionBehaviorType);
    if (!Base) return null;
    const EVENTS = /** @type {Record<string, string>} */ (/** @type {{REGION_EVENTS?: object}} */ (CONST).REGION_EVENTS ?? {});
    const replan = async () => {
      /** @type {{tokens?: {recalculatePlannedMovementPaths?: () => void}} | undefined} */ (canvas)?.tokens?.recalculatePlannedMovementPaths?.();
    };
    class DifficultTerrainBehavior extends Base {
      /** No data: the region's spaces are the terrain. */
      static defineSchema() { return {}; }
      static events = { [EVENTS.BEHAVIOR_VIEWED]: replan, [EVENTS.BEHAVIOR_UNVIEWED]: replan, [EVENTS.REGION_BOUNDARY]: replan };
    }
    const hurt = (/** @type {TerrainRegionEvent} */ event) => TerrainBehaviors.onMove(event);
    class DangerousTerrainBehavior extends Base {
      /** No data: the rule is the same for every region (2 piercing, once a turn). */
      static defineSchema() { return {}; }
      static events = { [EVENTS.TOKEN_MOVE_IN]: hurt, [EVENTS.TOKEN_MOVE_OUT]: hurt, [EVENTS.TOKEN_MOVE_WITHIN]: hurt };
    }
    return (TerrainBehaviors.#types = { difficult: DifficultTerrainBehavior, dangerous: DangerousTerrainBehavior });
  }

  /**
   * A token moved into, out of or within a region of dangerous terrain: on the active GM's client
   * only, its character or foe takes the damage, once for the whole movement, not when it flies,
   * and not again in a turn of a running combat in which it has taken it (nothing to deal: the
   * core would deal 0, and a card of nothing each step would only be noise).
   * @param {TerrainRegionEvent} event
   * @returns {Promise<void>}
   */
  static async onMove(event) {
    if (!game.users?.activeGM?.isSelf) return;
    const { token, movement } = event.data ?? {};
    const actor = /** @type {Actor.Implementation | null | undefined} */ (token?.actor);
    if (!token || !actor || !["character", "foe"].includes(actor.type ?? "")) return;
    const real = TerrainBehaviors.#ownMove(event, token, movement);
    if (!real) return;
    const flying = ActorStatuses.statusesOf(actor).some(s => s.replace(/\+$/, "") === "flying");
    if (!dangerousMoveHurts(real, { flying })) return;
    if (movement?.id) {
      const key = `${token.uuid}|${movement.id}`;
      if (TerrainBehaviors.#hurt.has(key)) return;
      TerrainBehaviors.#hurt.add(key);
      if (TerrainBehaviors.#hurt.size > 500) TerrainBehaviors.#hurt.delete(TerrainBehaviors.#hurt.values().next().value ?? "");
    }
    const before = TerrainBehaviors.#queues.get(actor.uuid) ?? Promise.resolve();
    const dealt = before.then(async () => {
      if (ActorTurns.inCombat(actor) && actor.getFlag(SYSTEM_ID, TERRAIN_FLAG)) return;
      const { default: TacticalRolls } = await import("../dice/tactical-rolls.mjs");
      await TacticalRolls.dangerousTerrain(actor);
    }).catch((/** @type {unknown} */ error) => console.error(`${SYSTEM_ID} | dangerous terrain`, error));
    TerrainBehaviors.#queues.set(actor.uuid, dealt);
    await dealt;
    if (TerrainBehaviors.#queues.get(actor.uuid) === dealt) TerrainBehaviors.#queues.delete(actor.uuid);
  }

  /**
   * The event's movement when it is the token's own and touches the event's region, else null:
   * the token's current movement if the event names it (its data, not the event's), or the
   * event's if the current one continues it (its path then is the event's: the GM's client keeps
   * no earlier movement's).
   * @param {TerrainRegionEvent} event
   * @param {TokenDocument.Implementation} token
   * @param {TerrainMove | null | undefined} movement
   * @returns {TokenMove | null}
   */
  static #ownMove(event, token, movement) {
    const current = /** @type {TokenMove | null | undefined} */ (/** @type {{movement?: unknown}} */ (token).movement);
    if (!movement?.id || !current?.id) return null;
    const real = current.id === movement.id ? current
      : current.chain?.includes(movement.id) ? /** @type {TokenMove} */ (movement) : null;
    const region = event.region;
    if (!real || typeof region?.testPoint !== "function") return null;
    const size = Number(token.parent?.grid?.size) || 100;
    const elevation = token.elevation ?? 0;
    const centre = (/** @type {{x: number, y: number, width?: number, height?: number}} */ p) => ({
      x: Number(p.x) + ((p.width ?? token.width ?? 1) * size) / 2, y: Number(p.y) + ((p.height ?? token.height ?? 1) * size) / 2 });
    const points = [real.origin, ...(real.passed?.waypoints ?? [])].filter(p => !!p && Number.isFinite(p.x) && Number.isFinite(p.y))
      .map(p => centre(/** @type {{x: number, y: number}} */ (p)));
    const test = region.testPoint.bind(region);
    return pathTouches(points, point => test({ ...point, elevation }), size / 4) ? real : null;
  }
}
