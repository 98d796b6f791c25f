import { ICONENGINE } from "../../config.mjs";
import { loadCore } from "../../core.mjs";
import { actionDialogContext, defaultInputs, dialogRequest, effortUpdate, readInputs, withEffortPool } from "./action-roll.mjs";
import ClockPanel from "./clock-panel.mjs";

/**
 * @import { ActionInputs } from "./action-roll.mjs"
 */

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * The action roll dialog: the character's rating and burden ticks, the player's boons, curses,
 * push, aid and tempting fate, the GM's risk and effect, and the core's exact odds, updated as the
 * inputs change. Rolling posts the action card. The logic is in ./action-roll.mjs.
 */
export default class ActionRollDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /**
   * @param {{actor: Actor.Implementation, action: string} & Record<string, unknown>} options
   */
  constructor({ actor, action, ...options }) {
    super(options);
    this.actor = actor;
    this.action = action;
    /** @type {ActionInputs} */
    this.inputs = defaultInputs();
  }

  /** @override */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "action-roll"],
    tag: "form",
    window: { title: "ICONENGINE.Narrative.ActionRoll", icon: "fa-solid fa-dice-six" },
    position: { width: 400, height: /** @type {"auto"} */ ("auto") },
    form: { handler: ActionRollDialog.#onSubmit, submitOnChange: false, closeOnSubmit: true }
  };

  /** @override */
  static PARTS = {
    inputs: { template: ICONENGINE.templates.actionRoll },
    odds: { template: ICONENGINE.templates.actionRollOdds }
  };

  /**
   * Open the dialog for an actor's action (the core is loaded first: the odds come from it).
   * @param {Actor.Implementation} actor
   * @param {string} action
   */
  static async open(actor, action) {
    await loadCore();
    return new ActionRollDialog({ actor, action }).render({ force: true });
  }

  /** @override */
  get title() {
    const action = game.i18n?.localize(`ICONENGINE.ActionRating.${this.action}`) ?? this.action;
    return `${this.actor.name}: ${action}`;
  }

  /** The character's system data: action rolls are a character's (opened from its sheet). */
  get #system() {
    return /** @type {Actor.SystemOfType<"character">} */ (this.actor.system);
  }

  /**
   * @override
   * @param {import("../../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    return actionDialogContext({
      system: this.#system, action: this.action, inputs: this.inputs,
      position: ClockPanel.position, isGM: Boolean(game.user?.isGM)
    });
  }

  /**
   * Every change updates the inputs and redraws the odds (only the odds: the inputs keep focus).
   * @override
   * @param {foundry.applications.api.ApplicationV2.FormConfiguration} formConfig
   * @param {Event} event
   */
  _onChangeForm(formConfig, event) {
    super._onChangeForm(formConfig, event);
    const data = new foundry.applications.ux.FormDataExtended(/** @type {HTMLFormElement} */ (this.element)).object;
    this.inputs = readInputs(data);
    const field = /** @type {HTMLInputElement} */ (event.target);
    if (game.user?.isGM && (field.name === "risk" || field.name === "effect")) {
      // The setting's change re-renders every open action roll dialog, the GM's included.
      ClockPanel.setPosition({ [field.name]: field.value });
      return;
    }
    this.render({ parts: ["odds"] });
  }

  /**
   * Roll through Foundry (Dice So Nice sees the dice), post the card, pay the effort.
   * @this {ActionRollDialog}
   * @param {SubmitEvent | Event} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onSubmit(event, form, formData) {
    const { default: IconRoll } = await import("../../dice/icon-roll.mjs");
    const actor = this.actor;
    const inputs = readInputs(formData.object);
    // The roll carries the character's effort: the core refuses a push it cannot pay.
    const request = withEffortPool(dialogRequest(this.#system, this.action, inputs, ClockPanel.position), this.#system);
    const flavor = this.title;
    let roll;
    try {
      roll = await IconRoll.fromRequest(request, { flavor, action: this.action, actorUuid: actor.uuid });
      await roll.evaluate();
    } catch (error) {
      // The core's refusal (effort the character does not have) in its own words.
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
      return;
    }
    // The card shows the roll's flavor as text; the message's flavor is HTML: the actor's name escaped.
    await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor }), flavor: foundry.utils.escapeHTML(flavor) });
    // A fortune roll's outcome has no effort: nothing is paid.
    const update = effortUpdate(this.#system, /** @type {Record<string, unknown>} */ (roll.outcome ?? {}));
    if (Object.keys(update).length) await actor.update(update);
  }
}
