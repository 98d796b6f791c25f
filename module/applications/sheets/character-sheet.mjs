import { ICONENGINE } from "../../config.mjs";
import IconActorSheet from "./icon-actor-sheet.mjs";
import editableAction from "./editable-action.mjs";
import ActionRollDialog from "../narrative/action-roll-dialog.mjs";
import NarrativeCards from "../narrative/narrative-cards.mjs";
import { characterContext, jobContext } from "./sheet-context.mjs";
import { applyNarrative, burdenClockClick, narrativeNotices } from "../narrative/narrative-state.mjs";

const T = ICONENGINE.sheets;

/** The ICON character sheet: tabs Combat / Narrative / Abilities / Bio. */
export default class CharacterSheet extends IconActorSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["character"],
    actions: {
      setRating: editableAction(CharacterSheet.#setRating),
      setStrain: editableAction(CharacterSheet.#setStrain),
      addBurden: editableAction(CharacterSheet.#addBurden),
      removeBurden: editableAction(CharacterSheet.#removeBurden),
      setClock: editableAction(CharacterSheet.#setClock),
      rollAction: editableAction(CharacterSheet.#rollAction),
      nameBurden: editableAction(CharacterSheet.#nameBurden)
    }
  };

  /** @inheritdoc */
  static PARTS = {
    header: { template: T.characterHeader },
    tabs: { template: T.tabs },
    combat: { template: T.characterCombat, scrollable: [""] },
    narrative: { template: T.characterNarrative, scrollable: [""] },
    abilities: { template: T.characterAbilities, scrollable: [""] },
    bio: { template: T.characterBio, scrollable: [""] },
    limited: { template: T.limited }
  };

  /**
   * `cssClass: ""` only because foundry-vtt-types 13.345 requires it (Foundry adds "active" to it).
   * @inheritdoc
   */
  static TABS = {
    primary: {
      tabs: [{ id: "combat", cssClass: "", icon: "fa-solid fa-shield-halved" }, { id: "narrative", cssClass: "", icon: "fa-solid fa-masks-theater" },
        { id: "abilities", cssClass: "", icon: "fa-solid fa-bolt" }, { id: "bio", cssClass: "", icon: "fa-solid fa-feather" }],
      initial: "combat",
      labelPrefix: "ICONENGINE.Tab"
    }
  };

  /** @inheritdoc */
  static HTML_FIELDS = ["biography", "bonds", "ideals", "ambitions"];

  /**
   * @inheritdoc
   * @param {Actor.SystemOfType<"character">} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  _prepareTypeContext(system, items) {
    return characterContext(system, items);
  }

  /**
   * The job select offers the class's jobs that exist as content, and says so when none does.
   * @inheritdoc
   * @param {import("../../types/sheets.js").ActorSheetContextOptions} options
   */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    const { default: ItemGrants } = await import("../../documents/item-grants.mjs");
    return Object.assign(context, jobContext(this.#system, await ItemGrants.jobsOf(this.#system.class)));
  }

  /**
   * A class picked on the sheet picks only among its jobs that exist as content.
   * @inheritdoc
   * @param {{system?: import("./sheet-context.mjs").PresetFields}} submitData
   */
  async _presetContent(submitData) {
    const next = submitData.system?.class;
    if (next === undefined || next === this.#system._source.class) return {};
    const { default: ItemGrants } = await import("../../documents/item-grants.mjs");
    return { jobs: (await ItemGrants.jobsOf(next)).map(job => job.key) };
  }

  /** The character's system data: this sheet is registered for characters only. */
  get #system() {
    return /** @type {Actor.SystemOfType<"character">} */ (this.system);
  }

  /**
   * Click a dot: set the rating to it, or one less when it is the highest filled dot.
   * @this {CharacterSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #setRating(event, target) {
    const { rating } = target.dataset;
    const value = Number(target.dataset.value);
    const current = /** @type {Record<string, number | undefined>} */ (this.#system.actions)[rating ?? ""];
    await this.document.update({ [`system.actions.${rating}`]: value === current ? value - 1 : value });
  }

  /**
   * @this {CharacterSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #setStrain(event, target) {
    const value = Number(target.dataset.value);
    await this.document.update({ system: { strain: { value: value === this.#system.strain.value ? value - 1 : value } } });
  }

  /** @this {CharacterSheet} */
  static async #addBurden() {
    const burdens = this.#system._source.burdens;
    await this.document.update({ system: { burdens: [...burdens, { name: "", actions: { first: "", second: "" }, clock: 4, filled: 0 }] } });
  }

  /**
   * @this {CharacterSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #removeBurden(event, target) {
    const index = Number(target.dataset.index);
    const burdens = this.#system._source.burdens.filter((_, i) => i !== index);
    await this.document.update({ system: { burdens } });
  }

  /**
   * Click an action's name: the action roll dialog (the dots set the rating).
   * @this {CharacterSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #rollAction(event, target) {
    const action = target.closest("[data-rating]")?.getAttribute("data-rating") ?? "";
    await ActionRollDialog.open(this.document, action);
  }

  /**
   * A broken character names the burden the break asked for.
   * @this {CharacterSheet}
   */
  static async #nameBurden() {
    await NarrativeCards.promptBurden(this.document);
  }

  /**
   * Click a clock segment: fill up to it, or empty it when it is the last filled one.
   * @this {CharacterSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #setClock(event, target) {
    await this.#clockTo(Number(target.dataset.index), Number(target.dataset.segment));
  }

  /**
   * A burden clock moved from the keyboard: one step up fills the next segment, one step down
   * empties the last filled one, as clicking them does.
   * @inheritdoc
   * @param {HTMLElement} slider
   * @param {number} value
   */
  async _onSlide(slider, value) {
    if (!this.isEditable || !slider.matches(".burden .clock")) return;
    const index = Number(slider.dataset.index);
    const start = this.#system._source.burdens[index];
    if (!start) return;
    // As clicks: a higher segment fills up to it, a lower one empties down to it; reaching 0 takes
    // a click on the first segment once it is the last filled. A burden healed away stops it.
    for (let now = start.filled, clicks = 0; now !== value && clicks < 2; clicks++) {
      await this.#clockTo(index, value > now ? value : Math.max(value, 1));
      const burden = this.#system._source.burdens[index];
      if (!burden || burden.name !== start.name || burden.filled === now) break;
      now = burden.filled;
    }
  }

  /**
   * Fill a burden clock up to a segment, or empty that segment when it is the last filled one.
   * @param {number} index    The burden.
   * @param {number} segment  1-based.
   */
  async #clockTo(index, segment) {
    const source = this.#system._source;
    const click = burdenClockClick(source.burdens, index, segment);
    if (!click) return;
    if ("event" in click) {
      const { update, effects } = applyNarrative(source, click.event);
      await this.document.update(update);
      for (const notice of narrativeNotices(effects, this.document.name ?? "").notices) {
        ui.notifications?.info(game.i18n?.format(notice.key, notice.data) ?? notice.key);
      }
      return;
    }
    const burdens = foundry.utils.deepClone(source.burdens);
    burdens[index].filled = click.filled;
    await this.document.update({ system: { burdens } });
  }
}
