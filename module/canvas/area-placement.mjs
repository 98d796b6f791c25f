import { SYSTEM_ID } from "../config.mjs";
import { HOOKS, callAfter, callPre } from "../hooks.mjs";
import { areaTemplateData, spaceAt, tokenSpaces, tokensInTemplate } from "./template-data.mjs";
import { localize } from "../applications/i18n.mjs";

/** @import { Space } from "./area-shapes.mjs" */

/**
 * Placing an item's area on the viewed scene as a measured template, and targeting what it covers.
 * A preview follows the pointer (as dnd5e's and Lancer's templates do): a left click places it, a
 * right click cancels; a line or arc points from the user's token towards the pointer; a burst is
 * placed around the user's token at once. `icon-engine.preCreateTemplate` (item, data) may cancel
 * the template or change its data; `icon-engine.createTemplate` (item, template, tokens) follows.
 */
export default class AreaPlacement {
  /**
   * Place an item's area.
   * @param {Item.Implementation} item  An ability (or relic) with `system.area.shape`.
   * @param {{at?: {x: number, y: number} | null}} [options]  `at`: place it at this point (pixels)
   *   without a preview (macros, other modules).
   * @returns {Promise<{template: MeasuredTemplateDocument.Implementation, tokens: TokenDocument.Implementation[]} | null>}
   *   Null when cancelled or there is no scene.
   */
  static async place(item, { at = null } = {}) {
    const area = /** @type {{shape?: import("./area-shapes.mjs").AreaShape | "", size?: number} | undefined} */ (
      /** @type {{area?: unknown}} */ (item.system).area);
    if (!area?.shape) return null;
    const grid = canvas?.grid;
    const scene = canvas?.scene;
    if (!canvas?.ready || !grid || !scene) {
      ui.notifications?.warn(localize("ICONENGINE.Area.NoScene"));
      return null;
    }
    const shape = area.shape;
    const size = area.size ?? 1;
    const token = /** @type {TokenDocument.Implementation[]} */ (item.actor?.getActiveTokens(false, true) ?? [])[0] ?? null;
    const user = token ? tokenSpaces(token, grid.size) : [];
    // The user's colour as CSS (v13's User#color is a Color).
    const color = /** @type {{css?: string} | null | undefined} */ (/** @type {unknown} */ (game.user?.color))?.css;
    /** @param {Space} anchor */
    const build = anchor => areaTemplateData({ shape, size }, { anchor, user }, { size: grid.size, distance: grid.distance }, {
      user: game.user?.id ?? undefined, fillColor: color || undefined, item: item.uuid, actor: item.actor?.uuid, scope: SYSTEM_ID });
    let data;
    if (shape === "burst" && user.length) data = build(user[0]);
    else if (at) data = build(spaceAt(at, grid.size));
    else data = await AreaPlacement.#preview(build);
    if (!data) return null;
    if (!callPre(HOOKS.preCreateTemplate, item, data)) return null;
    const created = await scene.createEmbeddedDocuments("MeasuredTemplate", [/** @type {MeasuredTemplateDocument.CreateData} */ (data)]);
    const template = /** @type {MeasuredTemplateDocument.Implementation | undefined} */ (created?.[0]);
    if (!template) return null;
    const tokens = AreaPlacement.coveredTokens(template);
    await AreaPlacement.target(tokens);
    callAfter(HOOKS.createTemplate, item, template, tokens);
    return { template, tokens };
  }

  /**
   * The tokens of the viewed scene a template covers (hidden ones only for a GM).
   * @param {{x: number, y: number, flags?: Record<string, unknown> | null}} template
   * @returns {TokenDocument.Implementation[]}
   */
  static coveredTokens(template) {
    const grid = canvas?.grid;
    const tokens = /** @type {TokenDocument.Implementation[]} */ (canvas?.scene?.tokens.contents ?? []).filter(t => game.user?.isGM || !t.hidden);
    return grid ? tokensInTemplate(template, tokens, grid.size, SYSTEM_ID) : [];
  }

  /**
   * Make these tokens the user's targets, and only these (Foundry's Token#setTarget).
   * @param {TokenDocument.Implementation[]} tokens
   */
  static async target(tokens) {
    const wanted = new Set(tokens.map(t => t.id));
    for (const placeable of canvas?.tokens?.placeables ?? []) {
      const on = wanted.has(placeable.document.id);
      if (on !== placeable.isTargeted) placeable.setTarget(on, { releaseOthers: false, groupSelection: true });
    }
  }

  /**
   * The preview: a template that follows the pointer on the templates layer until a left click
   * places it (its data) or a right click cancels (null).
   * @param {(anchor: Space) => Record<string, unknown>} build
   * @returns {Promise<Record<string, unknown> | null>}
   */
  static async #preview(build) {
    const layer = /** @type {NonNullable<typeof canvas.templates>} */ (canvas.templates);
    const stage = /** @type {NonNullable<typeof canvas.stage>} */ (canvas.stage);
    const view = /** @type {NonNullable<typeof canvas.app>} */ (canvas.app).view;
    const size = /** @type {NonNullable<typeof canvas.grid>} */ (canvas.grid).size;
    // The layer active before, activated again after (an InteractionLayer: the tokens', usually).
    const initialLayer = /** @type {{activate?: () => unknown} | null} */ (canvas.activeLayer);
    let anchor = spaceAt({ x: 0, y: 0 }, size);
    const cls = /** @type {typeof MeasuredTemplateDocument} */ (/** @type {unknown} */ (CONFIG.MeasuredTemplate.documentClass));
    const doc = new cls(/** @type {MeasuredTemplateDocument.CreateData} */ (build(anchor)), { parent: /** @type {never} */ (canvas.scene) });
    const object = new CONFIG.MeasuredTemplate.objectClass(/** @type {MeasuredTemplateDocument.Implementation} */ (doc));
    await object.draw();
    layer.activate();
    layer.preview?.addChild(object);
    return new Promise(resolve => {
      /** @param {{getLocalPosition(target: unknown): {x: number, y: number}}} event */
      const at = event => spaceAt(event.getLocalPosition(layer), size);
      const finish = (/** @type {Record<string, unknown> | null} */ result) => {
        stage.off("mousemove", move);
        stage.off("mouseup", confirm);
        view.oncontextmenu = null;
        layer.clearPreviewContainer();
        initialLayer?.activate?.();
        resolve(result);
      };
      /** @param {PIXI.FederatedPointerEvent} event */
      const move = event => {
        event.stopPropagation();
        const next = at(event);
        if (next.i === anchor.i && next.j === anchor.j) return;
        anchor = next;
        // The whole area again: its cells change with the direction, not only its origin.
        doc.updateSource(/** @type {MeasuredTemplateDocument.UpdateData} */ (build(anchor)));
        object.refresh();
      };
      /** @param {PIXI.FederatedPointerEvent} event */
      const confirm = event => {
        if (event.button !== 0) return;
        event.stopPropagation();
        finish(build(at(event)));
      };
      stage.on("mousemove", move);
      stage.on("mouseup", confirm);
      view.oncontextmenu = event => {
        event.preventDefault();
        finish(null);
      };
    });
  }
}
