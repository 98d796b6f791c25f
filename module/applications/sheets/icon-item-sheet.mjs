import { ICONENGINE } from "../../config.mjs";
import { USABLE_TYPES } from "../../data/ability-rules.mjs";
import { abilityContext, grantContext, usesContext } from "./sheet-context.mjs";
import editableAction from "./editable-action.mjs";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ItemSheetV2 } = foundry.applications.sheets;

/**
 * ItemSheetV2 with Handlebars parts, typed as the class declared in module/types/sheets.d.ts
 * (why: there).
 */
const HandlebarsItemSheet = /** @type {typeof import("../../types/sheets.js").HandlebarsItemSheet} */ (
  HandlebarsApplicationMixin(ItemSheetV2));

/** The system data of the item types these sheets show. @typedef {Item.SystemOfType<"ability" | "relic" | "trait" | "class" | "job" | "foeTemplate">} IconItemSystem */

/** The sheet of relics and traits: name, image, description; a relic's charges; Use. */
export class IconItemSheet extends HandlebarsItemSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "sheet", "item"],
    position: { width: 480, height: 480 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: { useItem: editableAction(IconItemSheet.#useItem) }
  };

  /** @inheritdoc */
  static PARTS = {
    item: { template: ICONENGINE.sheets.item, scrollable: [""] }
  };

  /** HTML fields of the item type, enriched for display. @type {string[]} */
  static HTML_FIELDS = ["description"];

  /**
   * @inheritdoc
   * @param {import("../../types/sheets.js").ItemSheetContextOptions} options
   */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    const item = this.document;
    // ICON's item types: these sheets are registered for them only.
    const system = /** @type {IconItemSystem} */ (item.system);
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const html = /** @type {Record<string, string | undefined>} */ (/** @type {unknown} */ (system._source));
    /** @type {Record<string, string>} */
    const enriched = {};
    for (const field of /** @type {typeof IconItemSheet} */ (this.constructor).HTML_FIELDS) {
      enriched[field] = await TextEditor.enrichHTML(html[field] ?? "", { relativeTo: item, secrets: item.isOwner });
    }
    return Object.assign(context, {
      item,
      system,
      source: system._source,
      readOnly: !this.isEditable,
      enriched,
      // An owned ability, relic or trait is used from here (module/applications/item-use.mjs).
      canUse: !!item.actor && USABLE_TYPES.includes(item.type),
      ...this._prepareTypeContext(system)
    });
  }

  /** @param {IconItemSystem} system @returns {object} */
  _prepareTypeContext(system) {
    return this.document.type === "relic"
      ? { hasUses: true, ...usesContext(/** @type {Item.SystemOfType<"relic">} */ (system)._source) }
      : {};
  }

  /**
   * Use the item (its owner's).
   * @this {IconItemSheet}
   */
  static async #useItem() {
    await /** @type {import("../../documents/icon-item.mjs").default} */ (/** @type {unknown} */ (this.document)).use();
  }
}

/** The ability sheet: cost, reach, tags, attack, save, effects, charges and limits, text. */
export class AbilitySheet extends IconItemSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["ability"],
    position: { width: 560, height: 720 },
    actions: {
      toggleTag: editableAction(AbilitySheet.#toggleTag),
      addEffect: editableAction(AbilitySheet.#addEffect),
      removeEffect: editableAction(AbilitySheet.#removeEffect)
    }
  };

  /** @inheritdoc */
  static PARTS = {
    item: { template: ICONENGINE.sheets.ability, scrollable: [""], templates: [ICONENGINE.sheets.uses] }
  };

  /** @inheritdoc */
  static HTML_FIELDS = ["description", "combo"];

  /** @inheritdoc @param {IconItemSystem} system */
  _prepareTypeContext(system) {
    return abilityContext(/** @type {Item.SystemOfType<"ability">} */ (system)._source);
  }

  /** The ability's system source. */
  get #source() {
    return /** @type {Item.SystemOfType<"ability">} */ (this.document.system)._source;
  }

  /**
   * @this {AbilitySheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #toggleTag(event, target) {
    // The template's buttons are ABILITY_TAGS.
    const tag = /** @type {typeof import("../../data/rules.mjs").ABILITY_TAGS[number]} */ (target.dataset.tag ?? "");
    const tags = this.#source.tags;
    await this.document.update({ system: { tags: tags.includes(tag) ? tags.filter(t => t !== tag) : [...tags, tag] } });
  }

  /** @this {AbilitySheet} */
  static async #addEffect() {
    // "Effects happen regardless of hitting or missing, unless specified": a new effect fires on use.
    const effects = [...this.#source.effects, { trigger: /** @type {const} */ ("use"), gamble: 4, to: /** @type {const} */ ("target"), status: "",
      duration: /** @type {const} */ ("save"), mark: "", move: { kind: /** @type {const} */ (""), spaces: 1 }, movement: "", text: "" }];
    await this.document.update({ system: { effects } });
  }

  /**
   * @this {AbilitySheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #removeEffect(event, target) {
    const index = Number(target.dataset.index);
    await this.document.update({ system: { effects: this.#source.effects.filter((_, i) => i !== index) } });
  }
}

/**
 * The sheet of class, job and foe template items: key, class or template, and the items they
 * grant (dropped on the list, removed by their ×).
 */
export class GrantSheet extends IconItemSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["grant"],
    position: { width: 480, height: 560 },
    actions: { removeGrant: editableAction(GrantSheet.#removeGrant) }
  };

  /** @inheritdoc */
  static PARTS = {
    item: { template: ICONENGINE.sheets.grant, scrollable: [""] }
  };

  /** @inheritdoc @param {IconItemSystem} system */
  _prepareTypeContext(system) {
    const item = { type: this.document.type, system: /** @type {Item.SystemOfType<"job">} */ (system)._source };
    return grantContext(item, uuid => {
      const doc = /** @type {{name?: string | null, img?: string | null, type?: string} | null} */ (
        foundry.utils.fromUuidSync(/** @type {`Item.${string}`} */ (uuid)));
      return doc ? { name: doc.name ?? "", img: doc.img ?? "", type: doc.type ?? "" } : null;
    });
  }

  /**
   * Items dropped on the grants list are added to it (by UUID).
   * @inheritdoc
   * @param {import("../../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!this.isEditable) return;
    const list = this.element.querySelector(".grant-list");
    list?.addEventListener("dragover", event => event.preventDefault());
    list?.addEventListener("drop", event => this.#onDrop(/** @type {DragEvent} */ (event)));
  }

  /** @param {DragEvent} event */
  async #onDrop(event) {
    event.preventDefault();
    const data = /** @type {{type?: string, uuid?: string}} */ (foundry.applications.ux.TextEditor.implementation.getDragEventData(event));
    if (data.type !== "Item" || typeof data.uuid !== "string") return;
    const item = await fromUuid(/** @type {`Item.${string}`} */ (data.uuid));
    if (!(item instanceof Item) || !USABLE_TYPES.includes(item.type)) return;
    const grants = /** @type {Item.SystemOfType<"job">} */ (this.document.system)._source.grants;
    if (grants.includes(data.uuid)) return;
    await this.document.update({ system: { grants: [...grants, data.uuid] } });
  }

  /**
   * @this {GrantSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #removeGrant(event, target) {
    const index = Number(target.dataset.index);
    const grants = /** @type {Item.SystemOfType<"job">} */ (this.document.system)._source.grants.filter((_, i) => i !== index);
    await this.document.update({ system: { grants } });
  }
}
