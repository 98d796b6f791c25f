import { ICONENGINE } from "../../config.mjs";
import { abilityContext } from "./sheet-context.mjs";
import AttackDialog from "../attack-dialog.mjs";
import editableAction from "./editable-action.mjs";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ItemSheetV2 } = foundry.applications.sheets;

/**
 * ItemSheetV2 with Handlebars parts, typed as the class declared in module/types/sheets.d.ts
 * (why: there).
 */
const HandlebarsItemSheet = /** @type {typeof import("../../types/sheets.js").HandlebarsItemSheet} */ (
  HandlebarsApplicationMixin(ItemSheetV2));

/** The sheet of relics and traits: name, image, description. */
export class IconItemSheet extends HandlebarsItemSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "sheet", "item"],
    position: { width: 480, height: 480 },
    window: { resizable: true },
    form: { submitOnChange: true }
  };

  /** @inheritdoc */
  static PARTS = {
    item: { template: ICONENGINE.sheets.item, scrollable: [""] }
  };

  /**
   * @inheritdoc
   * @param {import("../../types/sheets.js").ItemSheetContextOptions} options
   */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    const item = this.document;
    // ICON's item types: these sheets are registered for them only.
    const system = /** @type {Item.SystemOfType<"ability" | "relic" | "trait">} */ (item.system);
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    return Object.assign(context, {
      item,
      system,
      source: system._source,
      readOnly: !this.isEditable,
      enriched: { description: await TextEditor.enrichHTML(system.description ?? "", { relativeTo: item, secrets: item.isOwner }) },
      ...this._prepareTypeContext(system)
    });
  }

  /** @param {Item.SystemOfType<"ability" | "relic" | "trait">} system @returns {object} */
  _prepareTypeContext(system) {
    return {};
  }
}

/** The ability sheet: actions, tags, range, roll data, effects. */
export class AbilitySheet extends IconItemSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["ability"],
    position: { width: 520, height: 640 },
    actions: { toggleTag: editableAction(AbilitySheet.#toggleTag), rollAttack: editableAction(AbilitySheet.#rollAttack) }
  };

  /** @inheritdoc */
  static PARTS = {
    item: { template: ICONENGINE.sheets.ability, scrollable: [""] }
  };

  /** @inheritdoc @param {Item.SystemOfType<"ability">} system */
  _prepareTypeContext(system) {
    // An owned ability with the attack tag opens the attack dialog.
    return { ...abilityContext(system), canAttack: !!this.document.actor && system.tags.includes("attack") };
  }

  /**
   * @this {AbilitySheet}
   */
  static async #rollAttack() {
    const actor = this.document.actor;
    if (actor) await AttackDialog.open(actor, { ability: this.document });
  }

  /**
   * @this {AbilitySheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #toggleTag(event, target) {
    // The template's checkboxes are ABILITY_TAGS.
    const tag = /** @type {typeof import("../../data/rules.mjs").ABILITY_TAGS[number]} */ (target.dataset.tag ?? "");
    const tags = /** @type {Item.SystemOfType<"ability">} */ (this.document.system)._source.tags;
    await this.document.update({ system: { tags: tags.includes(tag) ? tags.filter(t => t !== tag) : [...tags, tag] } });
  }
}
