import { applyPresets, htmlFieldsContext } from "./sheet-context.mjs";
import { getCore, isCoreLoaded } from "../../core.mjs";
import AttackDialog from "../attack-dialog.mjs";
import TacticalRolls from "../../dice/tactical-rolls.mjs";
import { tacticalSheetContext } from "./tactical-context.mjs";
import editableAction from "./editable-action.mjs";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

/**
 * ActorSheetV2 with Handlebars parts. Typed loosely on purpose: foundry-vtt-types 13.345's
 * HandlebarsApplicationMixin over a document sheet exceeds TypeScript's instantiation depth
 * (TS2589), which then breaks the Actor types project-wide.
 * @type {any}
 */
const HandlebarsActorSheet = /** @type {any} */ (HandlebarsApplicationMixin)(ActorSheetV2);

/**
 * What the character and foe sheets share: the form, the limited view for non-owners, presets on
 * submit, wounds pips, item rows (create, edit, delete).
 */
export default class IconActorSheet extends HandlebarsActorSheet {
  /** @inheritdoc @type {any} */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "sheet", "actor"],
    position: { width: 620, height: 720 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: {
      setWounds: editableAction(IconActorSheet.#setWounds),
      createItem: editableAction(IconActorSheet.#createItem),
      editItem: IconActorSheet.#editItem,
      deleteItem: editableAction(IconActorSheet.#deleteItem),
      rollAttack: editableAction(IconActorSheet.#rollAttack),
      rollSave: editableAction(IconActorSheet.#rollSave),
      heal: editableAction(IconActorSheet.#heal)
    }
  };

  /** HTML fields of the actor type, enriched for display. @type {string[]} */
  static HTML_FIELDS = ["biography"];

  /**
   * Non-owners with limited permission see only the `limited` part.
   * @inheritdoc
   * @param {any} options
   */
  _configureRenderParts(options) {
    const parts = super._configureRenderParts(options);
    if (this.document.limited) return { limited: parts.limited };
    delete parts.limited;
    return parts;
  }

  /**
   * The context every part shares: the document, its system data and source, the enriched HTML,
   * and the type-specific context (subclasses add it in {@link _prepareTypeContext}).
   * @inheritdoc
   * @param {any} options
   */
  async _prepareContext(options) {
    const context = /** @type {any} */ (await super._prepareContext(options));
    const actor = this.document;
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const ctor = /** @type {typeof IconActorSheet} */ (this.constructor);
    /** @type {Record<string, string>} */
    const enriched = {};
    for (const field of ctor.HTML_FIELDS) {
      enriched[field] = await TextEditor.enrichHTML(/** @type {any} */ (actor.system)[field] ?? "", { relativeTo: actor, secrets: actor.isOwner });
    }
    const items = actor.items.contents.map((/** @type {any} */ item) => ({ id: item.id ?? "", name: item.name, img: item.img ?? "", type: item.type, system: item.system }));
    return Object.assign(context, {
      actor,
      system: actor.system,
      source: actor.system._source,
      // Observers see the sheet without its controls (see editable-action.mjs).
      readOnly: !this.isEditable,
      enriched,
      bioFields: htmlFieldsContext(ctor.HTML_FIELDS.filter(f => f !== "biography").concat("biography"), actor.system._source, enriched),
      tabs: this._prepareTabs("primary"),
      tactical: IconActorSheet.#tacticalContext(actor, items),
      ...this._prepareTypeContext(actor.system, items)
    });
  }

  /**
   * @param {any} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   * @returns {object}
   */
  _prepareTypeContext(system, items) {
    return {};
  }

  /**
   * Each tab part gets its own tab descriptor as `tab`.
   * @inheritdoc
   * @param {string} partId
   * @param {any} context
   * @param {any} options
   */
  async _preparePartContext(partId, context, options) {
    const partContext = /** @type {any} */ (await super._preparePartContext(partId, context, options));
    partContext.tab = partContext.tabs?.[partId];
    return partContext;
  }

  /**
   * Apply class/foe presets when a class or template changes.
   * @inheritdoc
   * @param {SubmitEvent} event
   * @param {HTMLFormElement} form
   * @param {any} submitData
   * @param {any} [options]
   */
  async _processSubmitData(event, form, submitData, options) {
    applyPresets(submitData, this.document.type, this.document.system._source);
    return super._processSubmitData(event, form, submitData, options);
  }

  /**
   * Click a wound pip: set wounds to it, or one less when it is the last filled one.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #setWounds(event, target) {
    const value = Number(target.dataset.value);
    const current = /** @type {any} */ (this.document.system).wounds;
    await this.document.update({ "system.wounds": value === current ? value - 1 : value });
  }

  /**
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #createItem(event, target) {
    const type = /** @type {"ability"|"relic"|"trait"} */ (target.dataset.type);
    const name = game.i18n?.localize(`TYPES.Item.${type}`) ?? type;
    await this.document.createEmbeddedDocuments("Item", [{ name, type }]);
  }

  /**
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #editItem(event, target) {
    const id = target.closest("[data-item-id]")?.getAttribute("data-item-id") ?? "";
    await this.document.items.get(id)?.sheet?.render({ force: true });
  }

  /**
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #deleteItem(event, target) {
    const id = target.closest("[data-item-id]")?.getAttribute("data-item-id") ?? "";
    await this.document.items.get(id)?.deleteDialog();
  }

  /**
   * The tactical block: attack buttons, status icons (saveable ones per the core).
   * @param {Actor} actor
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  static #tacticalContext(actor, items) {
    const statuses = TacticalRolls.statusesOf(actor);
    return tacticalSheetContext({ items, statuses, saveable: isCoreLoaded() ? getCore().iconSaveable(statuses) : null });
  }

  /**
   * Open the attack dialog: a light or heavy basic attack, or an ability's.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #rollAttack(event, target) {
    const ability = target.dataset.itemId ? this.document.items.get(target.dataset.itemId) ?? null : null;
    await AttackDialog.open(this.document, { ability, heavy: target.dataset.heavy === "true" });
  }

  /**
   * A save, against the clicked status icon's status if any.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #rollSave(event, target) {
    await TacticalRolls.save(this.document, { status: target.dataset.status ?? null });
  }

  /**
   * Cure, or the healing rule picked next to the button.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #heal(event, target) {
    const choice = /** @type {HTMLSelectElement | null} */ (target.parentElement?.querySelector(".healing-choice") ?? null);
    const healing = /** @type {any} */ (target.dataset.healing ?? choice?.value ?? "cure");
    try {
      await TacticalRolls.heal(this.document, healing);
    } catch (error) {
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }
}
