import { ICONENGINE } from "../../config.mjs";
import { USABLE_TYPES } from "../../data/ability-rules.mjs";
import { format } from "../i18n.mjs";
import IconActorSheet from "./icon-actor-sheet.mjs";
import { foeContext, sortedItems, statblockEntry } from "./sheet-context.mjs";

/**
 * The ICON foe sheet: one page, laid out as a foe's stat block (its class and template, its
 * numbers, its traits, then each action with its text and a Use button; see foe.hbs).
 */
export default class FoeSheet extends IconActorSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["foe"],
    position: { width: 600, height: 720 }
  };

  /** @inheritdoc */
  static PARTS = {
    foe: { template: ICONENGINE.sheets.foe, scrollable: [""] },
    limited: { template: ICONENGINE.sheets.limited }
  };

  /**
   * @inheritdoc
   * @param {Actor.SystemOfType<"foe">} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  _prepareTypeContext(system, items) {
    return foeContext(system, items);
  }

  /**
   * The stat block's entries: each trait and ability with its text enriched (as the item's own
   * sheet enriches it: secrets for the foe's owners).
   * @inheritdoc
   * @param {import("../../types/sheets.js").ActorSheetContextOptions} options
   */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    const actor = this.document;
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const enrich = (/** @type {unknown} */ html, /** @type {Item.Implementation} */ item) =>
      TextEditor.enrichHTML(typeof html === "string" ? html : "", { relativeTo: item, secrets: actor.isOwner });
    const items = sortedItems(actor.items.contents).filter(item => USABLE_TYPES.includes(item.type) && item.type !== "relic");
    const statblock = await Promise.all(items.map(async item => {
      const system = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (item.system));
      return statblockEntry({ id: item.id ?? "", name: item.name, img: item.img ?? "", type: item.type, system },
        { html: await enrich(system.description, item), combo: await enrich(system.combo, item) }, format);
    }));
    const { actions, traitEntries } = foeContext(/** @type {Actor.SystemOfType<"foe">} */ (this.system), [], statblock);
    return Object.assign(context, { actions, traitEntries });
  }
}
