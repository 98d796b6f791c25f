import { applyPresets, htmlFieldsContext, itemRow, sortedItems } from "./sheet-context.mjs";
import { USABLE_TYPES } from "../../data/ability-rules.mjs";
import { getCore, isCoreLoaded } from "../../core.mjs";
import AttackDialog from "../attack-dialog.mjs";
import TacticalRolls from "../../dice/tactical-rolls.mjs";
import ActorStatuses from "../../documents/actor-statuses.mjs";
import ActorTurns from "../../documents/actor-turns.mjs";
import { tacticalSheetContext } from "./tactical-context.mjs";
import editableAction from "./editable-action.mjs";
import { activateKeyboard, markSelectedTab } from "../keyboard.mjs";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

/**
 * ActorSheetV2 with Handlebars parts, typed as the class declared in module/types/sheets.d.ts
 * (why: there).
 */
const HandlebarsActorSheet = /** @type {typeof import("../../types/sheets.js").HandlebarsActorSheet} */ (
  HandlebarsApplicationMixin(ActorSheetV2));

/**
 * What the character and foe sheets share: the form, the limited view for non-owners, presets on
 * submit, wounds pips, item rows (create, edit, delete).
 */
export default class IconActorSheet extends HandlebarsActorSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "sheet", "actor"],
    position: { width: 620, height: 720 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: {
      setWounds: editableAction(IconActorSheet.#setWounds),
      createItem: editableAction(IconActorSheet.#createItem),
      pasteAbilities: editableAction(IconActorSheet.#pasteAbilities),
      editItem: IconActorSheet.#editItem,
      deleteItem: editableAction(IconActorSheet.#deleteItem),
      useItem: editableAction(IconActorSheet.#useItem),
      rollAttack: editableAction(IconActorSheet.#rollAttack),
      rollSave: editableAction(IconActorSheet.#rollSave),
      heal: editableAction(IconActorSheet.#heal),
      takeSlashed: editableAction(IconActorSheet.#takeSlashed),
      takeTerrain: editableAction(IconActorSheet.#takeTerrain),
      sacrifice: editableAction(IconActorSheet.#sacrifice),
      tickPowerDie: editableAction(IconActorSheet.#tickPowerDie),
      addPowerDie: editableAction(IconActorSheet.#addPowerDie),
      limitBreak: editableAction(IconActorSheet.#limitBreak)
    }
  };

  /** HTML fields of the actor type, enriched for display. @type {string[]} */
  static HTML_FIELDS = ["biography"];

  /**
   * Non-owners with limited permission see only the `limited` part.
   * @inheritdoc
   * @param {foundry.applications.api.HandlebarsApplicationMixin.RenderOptions} options
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
   * @param {import("../../types/sheets.js").ActorSheetContextOptions} options
   */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    const actor = this.document;
    const system = this.system;
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const ctor = /** @type {typeof IconActorSheet} */ (this.constructor);
    // HTML_FIELDS name HTMLFields of the source, which are strings.
    const html = /** @type {Readonly<Record<string, string | undefined>>} */ (/** @type {Readonly<Record<string, unknown>>} */ (system._source));
    /** @type {Record<string, string>} */
    const enriched = {};
    for (const field of ctor.HTML_FIELDS) {
      enriched[field] = await TextEditor.enrichHTML(html[field] ?? "", { relativeTo: actor, secrets: actor.isOwner });
    }
    const format = (/** @type {string} */ key, /** @type {Record<string, string> | undefined} */ data) =>
      (data ? game.i18n?.format(key, data) : game.i18n?.localize(key)) ?? key;
    /** @type {import("./sheet-context.mjs").ItemLike[]} */
    const items = sortedItems(actor.items.contents).map(item => ({ id: item.id ?? "", name: item.name, img: item.img ?? "", type: item.type,
      // Only an ability's tags are read; the other item types have none.
      system: /** @type {{tags?: readonly string[]}} */ (item.system),
      row: itemRow({ type: item.type, system: /** @type {import("../../data/ability-rules.mjs").AbilityLike} */ (item.system) }, format) }));
    return Object.assign(context, {
      actor,
      system,
      source: system._source,
      // Observers see the sheet without its controls (see editable-action.mjs).
      readOnly: !this.isEditable,
      enriched,
      // The character's bonds, ideals and ambitions are on its Narrative tab, the biography on Bio.
      narrativeFields: htmlFieldsContext(ctor.HTML_FIELDS.filter(f => f !== "biography"), system._source, enriched),
      bioFields: htmlFieldsContext(["biography"], system._source, enriched),
      tabs: this._prepareTabs("primary"),
      tactical: IconActorSheet.#tacticalContext(actor, items),
      ...this._prepareTypeContext(system, items)
    });
  }

  /**
   * The actor's system data, as one of ICON's actor types: the sheets are registered for those only.
   * @returns {import("../../types/system.js").IconActorSystem}
   */
  get system() {
    return /** @type {import("../../types/system.js").IconActorSystem} */ (this.document.system);
  }

  /**
   * @param {import("../../types/system.js").IconActorSystem} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   * @returns {object}
   */
  _prepareTypeContext(system, items) {
    return {};
  }

  /**
   * Keyboard access to the sheet's link-like controls and its sliders (keyboard.mjs), once: the
   * listener is on the sheet's element, which its re-rendered parts live in.
   * @inheritdoc
   * @param {foundry.applications.sheets.ActorSheetV2.RenderContext} context
   * @param {foundry.applications.api.HandlebarsApplicationMixin.RenderOptions} options
   */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    activateKeyboard(this.element, (slider, value) => {
      // The change re-renders the part the slider is in: the new one gets the focus back.
      this.#refocus = `[role="slider"][data-index="${slider.dataset.index ?? ""}"]`;
      return this._onSlide(slider, value);
    });
  }

  /** The slider to focus again once the sheet has re-rendered, or null. @type {string | null} */
  #refocus = null;

  /**
   * @inheritdoc
   * @param {foundry.applications.sheets.ActorSheetV2.RenderContext} context
   * @param {foundry.applications.api.HandlebarsApplicationMixin.RenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    this.#dragDrop.bind(this.element);
    if (!this.#refocus) return;
    /** @type {HTMLElement | null} */ (this.element.querySelector(this.#refocus))?.focus();
    this.#refocus = null;
  }

  /**
   * A `[role=slider]` moved from the keyboard to `value`; subclasses that draw sliders handle it.
   * @param {HTMLElement} slider
   * @param {number} value
   * @returns {Promise<void> | void}
   */
  _onSlide(slider, value) {}

  /**
   * The selected tab is marked for assistive technology too.
   * @inheritdoc
   * @param {string} tab
   * @param {string} group
   * @param {Parameters<foundry.applications.api.ApplicationV2["changeTab"]>[2]} [options]
   */
  changeTab(tab, group, options) {
    super.changeTab(tab, group, options);
    markSelectedTab(this.element, group, tab);
  }

  /**
   * Each tab part gets its own tab descriptor as `tab`.
   * @inheritdoc
   * @param {string} partId
   * @param {foundry.applications.sheets.ActorSheetV2.RenderContext} context
   * @param {import("../../types/sheets.js").DeepPartial<foundry.applications.api.HandlebarsApplicationMixin.RenderOptions>} options
   */
  async _preparePartContext(partId, context, options) {
    const partContext = await super._preparePartContext(partId, context, options);
    return Object.assign(partContext, { tab: partContext.tabs?.[partId] });
  }

  /**
   * Apply class/foe presets when a class or template changes.
   * @inheritdoc
   * @param {SubmitEvent} event
   * @param {HTMLFormElement} form
   * @param {object} submitData  The expanded form data (foundry-vtt-types 13.345 says FormDataExtended;
   *   Foundry passes `_prepareSubmitData`'s object).
   * @param {unknown} [options]
   */
  async _processSubmitData(event, form, submitData, options) {
    const data = /** @type {{system?: import("./sheet-context.mjs").PresetFields}} */ (submitData);
    applyPresets(data, this.document.type, this.system._source, await this._presetContent(data));
    return super._processSubmitData(event, form, /** @type {foundry.applications.ux.FormDataExtended} */ (submitData), options);
  }

  /**
   * What a preset may pick from, as content the world has (a character's class picks only jobs
   * that exist). Subclasses look it up; none by default.
   * @param {{system?: import("./sheet-context.mjs").PresetFields}} submitData
   * @returns {Promise<{jobs?: readonly string[] | null}>}
   */
  async _presetContent(submitData) {
    return {};
  }

  /**
   * Click a wound pip: set wounds to it, or one less when it is the last filled one.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #setWounds(event, target) {
    const value = Number(target.dataset.value);
    const current = /** @type {import("../../types/system.js").IconHealthSystem} */ (this.system).wounds;
    await this.document.update({ system: { wounds: value === current ? value - 1 : value } });
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
   * "Paste abilities": the paste dialog, creating on this actor (module/applications/paste-dialog.mjs).
   * @this {IconActorSheet}
   */
  static async #pasteAbilities() {
    const { default: PasteDialog } = await import("../paste-dialog.mjs");
    await new PasteDialog({ actor: this.document }).render({ force: true });
  }

  /**
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #editItem(event, target) {
    const id = target.closest("[data-item-id]")?.getAttribute("data-item-id") ?? "";
    // ICON items have ApplicationV2 sheets (an AppV1 sheet's render(force) would take this truthy object too).
    const sheet = /** @type {foundry.applications.api.ApplicationV2.Any | null | undefined} */ (this.document.items.get(id)?.sheet);
    await sheet?.render({ force: true });
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
   * @param {Actor.Implementation} actor
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  static #tacticalContext(actor, items) {
    const statuses = ActorStatuses.statusesOf(actor);
    return tacticalSheetContext({ items, statuses, saveable: isCoreLoaded() ? getCore().iconSaveable(statuses) : null,
      system: /** @type {Record<string, unknown>} */ (actor.system), isCharacter: actor.type === "character", isFoe: actor.type === "foe" });
  }

  /**
   * Open the attack dialog: a light or heavy basic attack, or an ability's.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #rollAttack(event, target) {
    const ability = target.dataset.itemId ? this.document.items.get(target.dataset.itemId) ?? null : null;
    // An ability's attack is a use of it: its area, charges and limits first (item-use.mjs).
    if (ability) await /** @type {import("../../documents/icon-item.mjs").default} */ (/** @type {unknown} */ (ability)).use();
    else await AttackDialog.open(this.document, { heavy: target.dataset.heavy === "true" });
  }

  /**
   * Use the row's item: an attack opens its dialog, a save calls for saves, anything else posts its card.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #useItem(event, target) {
    const id = target.closest("[data-item-id]")?.getAttribute("data-item-id") ?? "";
    const item = this.document.items.get(id);
    if (item) await /** @type {import("../../documents/icon-item.mjs").default} */ (/** @type {unknown} */ (item)).use();
  }

  /* -------------------------------------------- */
  /*  Drag and drop                               */
  /* -------------------------------------------- */

  /**
   * Item rows drag (to sort them, to another sheet, to the hotbar); items dropped on the sheet are
   * added (abilities, relics, traits), sorted (the actor's own), or picked (a class, job or foe
   * template sets the actor's, and grants its items: module/documents/item-grants.mjs); effects
   * dropped are added. Every drop passes core's `dropActorSheetData` hook first.
   */
  #dragDrop = new foundry.applications.ux.DragDrop.implementation({
    dragSelector: ".icon-items [data-item-id]",
    dropSelector: null,
    permissions: { dragstart: () => true, drop: () => this.isEditable },
    callbacks: { dragstart: event => this.#onDragStart(/** @type {DragEvent} */ (event)), drop: event => this.#onDrop(/** @type {DragEvent} */ (event)) }
  });

  /**
   * A row's item as Foundry's drag data (`{type: "Item", uuid}`).
   * @param {DragEvent} event
   */
  #onDragStart(event) {
    const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.currentTarget).closest("[data-item-id]"));
    const item = row ? this.document.items.get(row.dataset.itemId ?? "") : undefined;
    if (!item || !event.dataTransfer) return;
    event.dataTransfer.setData("text/plain", JSON.stringify(item.toDragData()));
  }

  /**
   * A drop on the sheet, as core's ActorSheetV2#_onDrop takes it (this DragDrop's `ondrop` replaces
   * core's): core's `dropActorSheetData` hook first, so modules see every drop and may refuse it
   * (false); then an item is added, sorted or picked, an effect added.
   * @param {DragEvent} event
   */
  async #onDrop(event) {
    const data = /** @type {{type?: string}} */ (foundry.applications.ux.TextEditor.implementation.getDragEventData(event));
    if (!this.isEditable) return;
    // v13 types the hook's data as a drop of some document type (`{type}`); any data may be dropped.
    if (Hooks.call("dropActorSheetData", this.document, this, /** @type {foundry.appv1.sheets.ActorSheet.DropData} */ (data)) === false) return;
    /** @type {(() => Promise<unknown>) | null} */
    let drop = null;
    if (data.type === "Item") {
      const item = /** @type {Item.Implementation | null | undefined} */ (await Item.implementation.fromDropData(/** @type {Item.DropData} */ (data)));
      if (item) drop = () => this._onDropItem(event, item);
    } else if (data.type === "ActiveEffect") {
      const effect = /** @type {ActiveEffect.Implementation | null | undefined} */ (
        await ActiveEffect.implementation.fromDropData(/** @type {ActiveEffect.DropData} */ (data)));
      if (effect) drop = () => this._onDropActiveEffect(event, effect);
    }
    if (!drop) return;
    try {
      await IconActorSheet.#noticeErrors(drop);
    } finally {
      this.render();
    }
  }

  /**
   * A dropped effect is added to the actor (a copy; its id kept unless the actor has one by it),
   * as core's ActorSheetV2#_onDropActiveEffect does; one that already applies to the actor is not.
   * @param {DragEvent} event
   * @param {ActiveEffect.Implementation} effect
   * @returns {Promise<unknown>}
   */
  async _onDropActiveEffect(event, effect) {
    const actor = this.document;
    if (!actor.isOwner || effect.target === actor) return null;
    const keepId = !actor.effects.has(effect.id ?? "");
    return ActiveEffect.implementation.create(/** @type {ActiveEffect.CreateData} */ (effect.toObject()), { parent: actor, keepId });
  }

  /**
   * A dropped item: the actor's own is sorted among its siblings; an ability, relic or trait is
   * added (a copy, remembering where it came from); a class, job or foe template is picked.
   * @param {DragEvent} event
   * @param {Item.Implementation} item
   * @returns {Promise<unknown>}
   */
  async _onDropItem(event, item) {
    const actor = this.document;
    if (item.parent === actor) return this.#sortItem(event, item);
    if (["class", "job", "foeTemplate"].includes(item.type)) {
      const { default: ItemGrants } = await import("../../documents/item-grants.mjs");
      return ItemGrants.pick(actor, item);
    }
    if (!USABLE_TYPES.includes(item.type)) return null;
    const data = item.pack ? game.items?.fromCompendium(/** @type {never} */ (item)) : item.toObject();
    return actor.createEmbeddedDocuments("Item", [/** @type {Item.CreateData} */ (data)]);
  }

  /**
   * Sort an item of the actor's before or after the row it was dropped on (Foundry's integer sort).
   * @param {DragEvent} event
   * @param {Item.Implementation} item
   */
  async #sortItem(event, item) {
    const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest?.("[data-item-id]") ?? null);
    const target = row ? this.document.items.get(row.dataset.itemId ?? "") : undefined;
    if (!row || !target || target.id === item.id) return null;
    const siblings = [...(row.parentElement?.children ?? [])].map(el => this.document.items.get(/** @type {HTMLElement} */ (el).dataset.itemId ?? ""))
      .filter(sibling => !!sibling && sibling.id !== item.id);
    const updates = foundry.utils.performIntegerSort(item, { target, siblings: /** @type {Item.Implementation[]} */ (siblings) })
      .map(u => ({ _id: u.target.id ?? "", ...u.update }));
    return this.document.updateEmbeddedDocuments("Item", updates);
  }

  /**
   * A save, against the clicked status icon's status if any.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #rollSave(event, target) {
    await TacticalRolls.save(this.document, { status: target.dataset.status ?? null, blessing: target.dataset.blessing === "true" });
  }

  /**
   * Run a sheet action, telling the user the core's refusal.
   * @param {() => Promise<unknown>} action
   */
  static async #noticeErrors(action) {
    try {
      await action();
    } catch (error) {
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Dangerous terrain: 2 piercing damage, only once a turn (TacticalRolls.dangerousTerrain).
   * @this {IconActorSheet}
   */
  static async #takeTerrain() {
    await IconActorSheet.#noticeErrors(() => TacticalRolls.dangerousTerrain(this.document));
  }

  /**
   * Sacrifice X: the HP asked for, held at 1 (TacticalRolls.sacrifice).
   * @this {IconActorSheet}
   */
  static async #sacrifice() {
    const answer = /** @type {{amount?: unknown} | null} */ (await foundry.applications.api.DialogV2.input({
      window: { title: "ICONENGINE.Rules.Sacrifice" },
      content: `<label>${foundry.utils.escapeHTML(game.i18n?.localize("ICONENGINE.Rules.Sheet.sacrificeAmount") ?? "")}
        <input type="number" name="amount" value="1" min="1" max="1000" step="1" autofocus></label>`,
      rejectClose: false
    }));
    const amount = Math.trunc(Number(answer?.amount));
    if (!answer || !(amount > 0)) return;
    await IconActorSheet.#noticeErrors(() => TacticalRolls.sacrifice(this.document, amount));
  }

  /**
   * Tick a power die up or down (at 0 it is discarded).
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #tickPowerDie(event, target) {
    const ability = target.dataset.ability ?? "";
    const by = Math.trunc(Number(target.dataset.by)) || 0;
    await IconActorSheet.#noticeErrors(() => ActorTurns.tokens(this.document, { type: "tickPowerDie", ability, by }));
  }

  /**
   * Gain a power die (at 1 tick) for the ability named.
   * @this {IconActorSheet}
   */
  static async #addPowerDie() {
    const answer = /** @type {{ability?: unknown} | null} */ (await foundry.applications.api.DialogV2.input({
      window: { title: "ICONENGINE.Rules.Tokens.addPowerDie" },
      content: `<label>${foundry.utils.escapeHTML(game.i18n?.localize("ICONENGINE.Rules.Tokens.powerDieAbility") ?? "")}
        <input type="text" name="ability" maxlength="100" autofocus></label>`,
      rejectClose: false
    }));
    const ability = typeof answer?.ability === "string" ? answer.ability.trim() : "";
    if (!ability) return;
    await IconActorSheet.#noticeErrors(() => ActorTurns.tokens(this.document, { type: "gainPowerDie", ability }));
  }

  /**
   * A limit break: its resolve cost (personal, and party resolve when the GM spends it), and 1
   * personal resolve given to another character (ActorTurns.limitBreak).
   * @this {IconActorSheet}
   */
  static async #limitBreak() {
    const actor = this.document;
    // CONFIG.Actor.documentClass makes every actor an IconActor.
    const others = /** @type {Actor.Implementation[]} */ (game.actors?.contents ?? []).filter(a => a.type === "character" && a.id !== actor.id);
    const esc = foundry.utils.escapeHTML;
    const t = (/** @type {string} */ key) => esc(game.i18n?.localize(key) ?? key);
    const options = others.map(a => `<option value="${esc(a.uuid)}">${esc(a.name ?? "")}</option>`).join("");
    const answer = /** @type {{cost?: unknown, fromParty?: unknown, giveTo?: unknown} | null} */ (await foundry.applications.api.DialogV2.input({
      window: { title: "ICONENGINE.Rules.LimitBreak.title" },
      content: `<label>${t("ICONENGINE.Rules.LimitBreak.cost")} <input type="number" name="cost" value="1" min="0" max="100" step="1"></label>
        <label>${t("ICONENGINE.Rules.LimitBreak.fromParty")} <input type="number" name="fromParty" value="0" min="0" max="100" step="1"></label>
        <label>${t("ICONENGINE.Rules.LimitBreak.giveTo")} <select name="giveTo"><option value="">${t("ICONENGINE.Rules.LimitBreak.nobody")}</option>${options}</select></label>`,
      rejectClose: false
    }));
    if (!answer) return;
    const giveTo = others.find(a => a.uuid === answer.giveTo) ?? null;
    await IconActorSheet.#noticeErrors(() => ActorTurns.limitBreak(actor, { cost: Math.trunc(Number(answer.cost)) || 0,
      fromParty: Math.trunc(Number(answer.fromParty)) || 0, giveTo: /** @type {Actor.Implementation | null} */ (giveTo) }));
  }

  /**
   * Slashed: the actor takes its 4 damage (once a turn in a combat; TacticalRolls.slashed says no
   * the second time).
   * @this {IconActorSheet}
   */
  static async #takeSlashed() {
    try {
      await TacticalRolls.slashed(this.document);
    } catch (error) {
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Cure, or the healing rule picked next to the button.
   * @this {IconActorSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #heal(event, target) {
    const choice = /** @type {HTMLSelectElement | null} */ (target.parentElement?.querySelector(".healing-choice") ?? null);
    // The button's or the select's value: "cure" or one of HEALINGS (tactical-context.mjs).
    const healing = /** @type {"cure" | typeof import("./tactical-context.mjs").HEALINGS[number]} */ (target.dataset.healing ?? choice?.value ?? "cure");
    try {
      await TacticalRolls.heal(this.document, healing);
    } catch (error) {
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }
}
