import ActorStatuses from "../documents/actor-statuses.mjs";
import { localize } from "../applications/i18n.mjs";
import { teleportRefusal } from "./teleport-space.mjs";

/**
 * @import { Footprint } from "./forced-movement.mjs"
 * @import { Rampart, TeleportRefusal } from "./teleport-space.mjs"
 */

/**
 * @typedef {object} PreviewGraphics  What the preview draws with of PIXI 7's Graphics.
 * @property {() => PreviewGraphics} clear
 * @property {(width: number, color: number) => PreviewGraphics} lineStyle
 * @property {(color: number, alpha: number) => PreviewGraphics} beginFill
 * @property {(x: number, y: number, w: number, h: number) => PreviewGraphics} drawRect
 * @property {() => PreviewGraphics} endFill
 * @property {() => void} destroy
 */

/**
 * Picking a teleport's landing on the viewed scene, and the scene's side of its rules: the mover's
 * footprint follows the pointer (snapped to the grid, drawn green where it may land and red where
 * it may not, and said in {@link TeleportPlacement.current}), a left click on a space it may land
 * on picks it, a click on one it may not says why and keeps picking, a right click or Escape
 * cancels. The pointer reaches the stage as PIXI's events, as areas are placed on Foundry 13
 * (area-placement.mjs); the same in both generations.
 */
export default class TeleportPlacement {
  /**
   * What the placement shows now: the footprint under the pointer and why it may not land there
   * (null: it may). Null when no placement is open.
   * @type {{at: {i: number, j: number}, refusal: TeleportRefusal | null} | null}
   */
  static current = null;

  /**
   * The scene's facts a teleport of `token` is checked against: its footprint, the other
   * characters' footprints (every other token: "a free space"), the battlefield, its side, and
   * whether it is Unstoppable. Ramparts: the system has no rampart on the map yet (a rampart is a
   * status; nothing marks a space as affected by one), so none.
   * @param {TokenDocument.Implementation} token
   * @returns {{mover: Footprint, others: Footprint[], bounds: Footprint | null, ramparts: Rampart[], side: number, unstoppable: boolean} | null}
   */
  static sceneFacts(token) {
    const scene = token.parent;
    const size = scene?.grid?.size;
    if (!scene || !size) return null;
    const foot = (/** @type {TokenDocument.Implementation} */ t) => ({ i: Math.round((t.x ?? 0) / size), j: Math.round((t.y ?? 0) / size),
      w: Math.max(1, Math.round(Number(t.width) || 1)), h: Math.max(1, Math.round(Number(t.height) || 1)) });
    const others = [...(scene.tokens ?? [])].filter(t => t.id !== token.id).map(foot);
    // The scene's rectangle (without its padding), as a shove's edge reads it on the viewed scene.
    const rect = canvas?.scene === scene
      ? /** @type {{sceneRect?: {x: number, y: number, width: number, height: number}} | undefined} */ (canvas?.dimensions)?.sceneRect : undefined;
    const bounds = rect ? { i: Math.ceil(rect.x / size), j: Math.ceil(rect.y / size), w: Math.floor(rect.width / size), h: Math.floor(rect.height / size) } : null;
    const actor = token.actor;
    const statuses = actor ? ActorStatuses.statusesOf(/** @type {Actor.Implementation} */ (actor)).map(s => s.replace(/\+$/, "")) : [];
    return { mover: foot(token), others, bounds, ramparts: [], side: Math.sign(token.disposition ?? 0), unstoppable: statuses.includes("unstoppable") };
  }

  /**
   * Why `token` may not teleport to the space `to` (its top-left cell) within `range`, or null.
   * @param {TokenDocument.Implementation} token
   * @param {{i: number, j: number}} to
   * @param {number} range
   * @returns {TeleportRefusal | null}
   */
  static refusal(token, to, range) {
    const facts = TeleportPlacement.sceneFacts(token);
    if (!facts) return "edge";
    return teleportRefusal({ ...facts, to, range });
  }

  /**
   * Pick where `token` teleports, up to `range` spaces: the top-left corner (pixels) of the
   * footprint picked, or null when cancelled.
   * @param {TokenDocument.Implementation} token
   * @param {number} range
   * @returns {Promise<{x: number, y: number} | null>}
   */
  static async pick(token, range) {
    const size = canvas?.grid?.size;
    const stage = canvas?.stage;
    const view = canvas?.app?.view;
    if (!canvas?.ready || !size || !stage || !view || token.parent !== canvas.scene) throw new Error(localize("ICONENGINE.Card.NoTokens"));
    const w = Math.max(1, Math.round(Number(token.width) || 1));
    const h = Math.max(1, Math.round(Number(token.height) || 1));
    const drawing = TeleportPlacement.#drawing();
    ui.notifications?.info(localize("ICONENGINE.Card.Move.PickSpace"));
    return new Promise(resolve => {
      /** The footprint's top-left cell, centred on the pointer. @param {{getLocalPosition(target: unknown): {x: number, y: number}}} event */
      const at = event => {
        const p = event.getLocalPosition(stage);
        return { i: Math.round(p.x / size - w / 2), j: Math.round(p.y / size - h / 2) };
      };
      /** @param {{i: number, j: number}} cell */
      const show = cell => {
        const refusal = TeleportPlacement.refusal(token, cell, range);
        TeleportPlacement.current = { at: cell, refusal };
        if (!drawing) return;
        // PIXI 7's Graphics (Foundry 13 and 14)
        const color = refusal ? 0xcc3333 : 0x33aa55;
        drawing.clear();
        drawing.lineStyle(3, color).beginFill(color, 0.35).drawRect(cell.i * size, cell.j * size, w * size, h * size).endFill();
      };
      /** @param {{x: number, y: number} | null} result */
      const finish = result => {
        stage.off("mousemove", move);
        stage.off("mouseup", confirm);
        view.oncontextmenu = null;
        document.removeEventListener("keydown", escape, true);
        drawing?.destroy();
        TeleportPlacement.current = null;
        resolve(result);
      };
      /** @param {{getLocalPosition(target: unknown): {x: number, y: number}, stopPropagation?: () => void}} event */
      const move = event => show(at(event));
      /** @param {{button: number, getLocalPosition(target: unknown): {x: number, y: number}, stopPropagation?: () => void}} event */
      const confirm = event => {
        if (event.button !== 0) return;
        event.stopPropagation?.();
        const cell = at(event);
        show(cell);
        const refusal = TeleportPlacement.current?.refusal ?? null;
        if (refusal) {
          ui.notifications?.warn(localize(`ICONENGINE.Card.Move.Refused.${refusal}`));
          return;
        }
        finish({ x: cell.i * size, y: cell.j * size });
      };
      /** @param {KeyboardEvent} event */
      const escape = event => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        event.stopPropagation();
        finish(null);
      };
      stage.on("mousemove", move);
      stage.on("mouseup", confirm);
      view.oncontextmenu = event => {
        event.preventDefault();
        finish(null);
      };
      document.addEventListener("keydown", escape, true);
      show({ i: Math.round(token.x / size), j: Math.round(token.y / size) });
    });
  }

  /**
   * The preview's drawing: a PIXI graphics on the canvas's interface group (above the tokens),
   * or null where there is none to draw on.
   * @returns {PreviewGraphics | null}
   */
  static #drawing() {
    const Graphics = /** @type {{Graphics?: new () => PreviewGraphics} | undefined} */ (/** @type {{PIXI?: unknown}} */ (globalThis).PIXI)?.Graphics;
    const group = /** @type {{addChild?: (child: unknown) => unknown} | undefined} */ (/** @type {{interface?: unknown}} */ (canvas).interface);
    if (!Graphics || !group?.addChild) return null;
    const graphics = new Graphics();
    group.addChild(graphics);
    return graphics;
  }
}
