import { SYSTEM_ID } from "../config.mjs";
import { HOOKS, callAfter, callPre } from "../hooks.mjs";
import { usesRegionAreas } from "../compat/generation.mjs";
import { areaTemplateData, spaceAt, tokenSpaces, tokensInTemplate } from "./template-data.mjs";
import { areaRegionData, outlinePolygon, placementOf, regionSpaces } from "./region-data.mjs";
import { coveredTokens, directionStep } from "./area-shapes.mjs";
import { localize } from "../applications/i18n.mjs";

/** @import { Space } from "./area-shapes.mjs" */

/**
 * @typedef {{id: string | null, uuid: string, flags?: Record<string, unknown> | null, isOwner?: boolean,
 *   object?: unknown, delete(): Promise<unknown>}} AreaDocument
 *   An area on the scene: a MeasuredTemplateDocument on Foundry 13, a RegionDocument on 14.
 */

/**
 * Placing an item's area on the viewed scene, and targeting what it covers. The one place that
 * branches on the generation for areas (module/compat/generation.mjs `usesRegionAreas`):
 * - Foundry 13: a measured template. A preview follows the pointer (as dnd5e's and Lancer's
 *   templates do): a left click places it, a right click cancels; a line or arc points from the
 *   user's token towards the pointer; the templates layer's own drag is cancelled when the click
 *   ends (dnd5e 5.3 `AbilityTemplate#_finishPlacement`), so a click that drifts leaves no second,
 *   plain template.
 * - Foundry 14, which folds measured templates into Scene Regions: a region of the covered
 *   spaces, placed with v14's own placement (`RegionLayer#placeRegion`): a blast or cross follows
 *   the pointer, a line or arc starts at its user and turns with the mouse wheel (ICON's eight
 *   directions), a left click places it, a right click cancels.
 * A burst is placed around the user's token at once. `icon-engine.preCreateTemplate` (item, data)
 * may cancel the area or change its data (a region's on 14); `icon-engine.createTemplate` (item,
 * area, tokens) follows.
 */
export default class AreaPlacement {
  /**
   * Place an item's area.
   * @param {Item.Implementation} item  An ability (or relic) with `system.area.shape`.
   * @param {{at?: {x: number, y: number} | null}} [options]  `at`: place it at this point (pixels)
   *   without a preview (macros, other modules).
   * @returns {Promise<{template: AreaDocument, tokens: TokenDocument.Implementation[]} | null>}
   *   Null when cancelled or there is no scene. `template` is the area's document, whichever kind.
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
    const regions = usesRegionAreas();
    const meta = { item: item.uuid, actor: item.actor?.uuid, scope: SYSTEM_ID };
    const visibility = /** @type {{REGION_VISIBILITY?: {ALWAYS?: number}}} */ (/** @type {unknown} */ (CONST)).REGION_VISIBILITY?.ALWAYS ?? 2;
    /** @param {Space} anchor */
    const build = anchor => (regions
      ? areaRegionData({ shape, size }, { anchor, user }, { size: grid.size, distance: grid.distance },
        { ...meta, name: item.name ?? "", color: color || undefined, visibility })
      : areaTemplateData({ shape, size }, { anchor, user }, { size: grid.size, distance: grid.distance },
        { ...meta, user: game.user?.id ?? undefined, fillColor: color || undefined }));
    let data;
    if (shape === "burst" && user.length) data = build(user[0]);
    else if (at) data = build(spaceAt(at, grid.size));
    else if (regions) data = await AreaPlacement.#placeRegion(build, { shape, user });
    else data = await AreaPlacement.#preview(build);
    if (!data) return null;
    if (!callPre(HOOKS.preCreateTemplate, item, data)) return null;
    const created = await scene.createEmbeddedDocuments(regions ? "Region" : "MeasuredTemplate", /** @type {never} */ ([data]));
    const template = /** @type {AreaDocument | undefined} */ (/** @type {unknown} */ (created?.[0]));
    if (!template) return null;
    const tokens = AreaPlacement.coveredTokens(template);
    await AreaPlacement.target(tokens);
    callAfter(HOOKS.createTemplate, item, template, tokens);
    return { template, tokens };
  }

  /**
   * The tokens of the viewed scene an area covers (ICON: "at least 1 space of its area" inside),
   * those the user may know of: hidden ones only for a GM. A region's are also the tokens Foundry
   * counts inside it (`RegionDocument#tokens`).
   * @param {{x?: number, y?: number, flags?: Record<string, unknown> | null, tokens?: Iterable<TokenDocument.Implementation>,
   *   shapes?: readonly {type?: unknown, points?: unknown, hole?: unknown}[] | null}} area
   *   A template's or region's document (or data).
   * @returns {TokenDocument.Implementation[]}
   */
  static coveredTokens(area) {
    const grid = canvas?.grid;
    if (!grid) return [];
    const tokens = /** @type {TokenDocument.Implementation[]} */ (canvas?.scene?.tokens.contents ?? []).filter(t => game.user?.isGM || !t.hidden);
    if (typeof area.x === "number" && typeof area.y === "number") {
      return tokensInTemplate(/** @type {{x: number, y: number}} */ (area), tokens, grid.size, SYSTEM_ID);
    }
    const spaces = regionSpaces(area, grid.size, SYSTEM_ID);
    const inside = new Set(area.tokens ?? []);
    const covered = new Set(spaces ? coveredTokens(spaces, tokens, grid.size) : []);
    return tokens.filter(t => covered.has(t) || inside.has(t));
  }

  /**
   * Make these tokens the user's targets, and only these, leaving out the ones the user cannot
   * see (core's own targeting skips `!token.visible`, `!token.renderable` and secret tokens), and
   * tell the other clients once (`groupSelection` leaves broadcasting to the caller, as core's
   * target tool does at the end of a selection).
   * @param {TokenDocument.Implementation[]} tokens
   */
  static async target(tokens) {
    const wanted = new Set(tokens.map(t => t.id));
    for (const placeable of canvas?.tokens?.placeables ?? []) {
      const on = wanted.has(placeable.document.id) && AreaPlacement.targetable(placeable);
      if (on !== placeable.isTargeted) placeable.setTarget(on, { releaseOthers: false, groupSelection: true });
    }
    game.user?.broadcastActivity({ targets: game.user.targets.ids });
  }

  /**
   * Whether the user may target a token as core's targeting allows: one it sees, drawn, and not
   * secret from it.
   * @param {Token.Implementation} placeable
   */
  static targetable(placeable) {
    const token = /** @type {{visible?: boolean, renderable?: boolean}} */ (/** @type {unknown} */ (placeable));
    const secret = /** @type {{isSecret?: boolean}} */ (placeable.document).isSecret === true;
    return token.visible !== false && token.renderable !== false && !secret;
  }

  /**
   * v14: the area's region placed with Foundry's own placement (`RegionLayer#placeRegion`, not
   * created by it): a preview of its outline that follows the pointer, snapped to a space, or, for
   * a line or arc, stays at its user and turns with the wheel. Returns the region data of the
   * spaces where it was left, or null when cancelled.
   * @param {(anchor: Space) => Record<string, unknown>} build
   * @param {{shape: string, user: Space[]}} area
   * @returns {Promise<Record<string, unknown> | null>}
   */
  static async #placeRegion(build, { shape, user }) {
    const grid = /** @type {NonNullable<typeof canvas.grid>} */ (canvas.grid);
    const layer = /** @type {import("../types/foundry-v14").RegionLayerV14} */ (/** @type {unknown} */ (canvas.regions));
    const turns = shape === "line" || shape === "arc";
    const origin = user[0] ?? { i: 0, j: 0 };
    // A line or arc starts pointing east of its user; a blast or cross at the user's space.
    const start = turns ? { i: origin.i, j: origin.j + 1 } : origin;
    const first = build(start);
    const spaces = regionSpaces(first, grid.size, SYSTEM_ID) ?? [];
    const preview = outlinePolygon(spaces, grid.size);
    // The preview is moved by the centre of its bounds: kept where the chosen space (the one
    // under the pointer) is the area's anchor, as on 13.
    const xs = preview.points.filter((_, k) => k % 2 === 0);
    const ys = preview.points.filter((_, k) => k % 2 === 1);
    const anchorCentre = grid.getCenterPoint(start);
    const offset = { x: (Math.min(...xs) + Math.max(...xs)) / 2 - anchorCentre.x, y: (Math.min(...ys) + Math.max(...ys)) / 2 - anchorCentre.y };
    const placed = await layer.placeRegion({ ...first, shapes: [preview] }, {
      create: false,
      allowRotation: turns,
      onMove: context => {
        if (turns) return false;
        const centre = grid.getCenterPoint(grid.getOffset(context.position));
        Object.assign(context.position, { x: centre.x + offset.x, y: centre.y + offset.y });
        return undefined;
      }
    });
    const after = placed?.shapes?.[0]?.points;
    if (!after) return null;
    const { di, dj, turn } = placementOf(preview.points, after, grid.size);
    if (!turns) return build({ i: start.i + di, j: start.j + dj });
    const step = directionStep(turn);
    return build({ i: origin.i + step.i, j: origin.j + step.j });
  }

  /**
   * v13: the preview, a template that follows the pointer on the templates layer until a left
   * click places it (its data) or a right click cancels (null).
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
      /**
       * @param {Record<string, unknown> | null} result
       * @param {unknown} event
       */
      const finish = (result, event) => {
        // The layer's own left-drag (a press that moved) would make a plain template of its own
        // when the button comes up: cancelled, as dnd5e 5.3 does before v14.
        /** @type {{_onDragLeftCancel?: (event: unknown) => void}} */ (/** @type {unknown} */ (layer))._onDragLeftCancel?.(event);
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
        finish(build(at(event)), event);
      };
      stage.on("mousemove", move);
      stage.on("mouseup", confirm);
      view.oncontextmenu = event => {
        event.preventDefault();
        finish(null, event);
      };
    });
  }
}
