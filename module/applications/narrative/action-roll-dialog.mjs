import { ICONENGINE } from "../../config.mjs";
import { loadCore } from "../../core.mjs";
import { actionDialogContext, defaultInputs, dialogRequest, effortUpdate, namedHelpers, readInputs, withEffortPool } from "./action-roll.mjs";
import AidEffort from "./aid-effort.mjs";
import ClockPanel from "./clock-panel.mjs";

/**
 * @import { ActionInputs } from "./action-roll.mjs"
 */

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * The action roll dialog: the character's rating and burden ticks, the player's boons, curses,
 * push, the allies who aid, tempting fate, the GM's risk and effect, and the core's exact odds,
 * updated as the inputs change; what the user chose stays through any re-render (the GM's risk
 * changing redraws it whole). A roll the effort cannot pay is said in the dialog and its Roll
 * button disabled. Rolling posts the action card, pays the roller's effort and the helpers'
 * (./aid-effort.mjs), and closes the dialog; a refusal stays in it. The logic is in
 * ./action-roll.mjs.
 */
export default class ActionRollDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /**
   * @param {{actor: Actor.Implementation, action: string} & Record<string, unknown>} options
   */
  constructor({ actor, action, ...options }) {
    super({ id: ActionRollDialog.idFor(actor, action), ...options });
    this.actor = actor;
    this.action = action;
    /** @type {ActionInputs} */
    this.inputs = defaultInputs();
  }

  /**
   * One dialog per actor and action: opening it again brings the open one forward, with what was
   * chosen in it.
   * @param {Actor.Implementation} actor
   * @param {string} action
   */
  static idFor(actor, action) {
    return `icon-engine-action-roll-${actor.uuid.replace(/[^A-Za-z0-9-]/g, "-")}-${action}`;
  }

  /** Why the last roll was refused (the core's words), until the inputs change. */
  #error = "";

  /** @override */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "action-roll"],
    tag: "form",
    window: { title: "ICONENGINE.Narrative.ActionRoll", icon: "fa-solid fa-dice-six" },
    position: { width: 400, height: /** @type {"auto"} */ ("auto") },
    form: { handler: ActionRollDialog.#onSubmit, submitOnChange: false, closeOnSubmit: false }
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
    const open = foundry.applications.instances.get(ActionRollDialog.idFor(actor, action));
    if (open instanceof ActionRollDialog) return open.render({ force: true });
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
    // A re-render (the GM's risk changed, the sheet reopened it) keeps what the form holds, even a
    // number typed but not yet committed by a change event.
    if (this.rendered && this.element instanceof HTMLFormElement) this.inputs = this.#readForm();
    return actionDialogContext({
      system: this.#system, action: this.action, inputs: this.inputs,
      position: ClockPanel.position, isGM: Boolean(game.user?.isGM), allies: this.#allies(), error: this.#error
    });
  }

  /** The form's inputs. */
  #readForm() {
    return readInputs(new foundry.applications.ux.FormDataExtended(/** @type {HTMLFormElement} */ (this.element)).object);
  }

  /**
   * The characters who may aid: every other character this user can see, with its effort.
   * @returns {import("./action-roll.mjs").Ally[]}
   */
  #allies() {
    const user = game.user;
    const actors = /** @type {Actor.Implementation[]} */ (/** @type {unknown} */ (game.actors?.contents ?? []));
    return actors.filter(a => a.type === "character" && a !== this.actor && a.id && (!user || a.testUserPermission(user, "LIMITED")))
      .map(a => ({ id: a.id ?? "", name: a.name ?? "", effort: Math.max(0, Math.trunc(Number(/** @type {{effort?: unknown}} */ (a.system).effort) || 0)) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Every change updates the inputs and redraws the odds (only the odds: the inputs keep focus).
   * @override
   * @param {foundry.applications.api.ApplicationV2.FormConfiguration} formConfig
   * @param {Event} event
   */
  _onChangeForm(formConfig, event) {
    super._onChangeForm(formConfig, event);
    this.inputs = this.#readForm();
    this.#error = "";
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
    const allies = this.#allies();
    this.inputs = readInputs(formData.object);
    const context = actionDialogContext({ system: this.#system, action: this.action, inputs: this.inputs, position: ClockPanel.position,
      isGM: Boolean(game.user?.isGM), allies });
    // The dialog said so, and its button was disabled: a roll someone's effort cannot pay is not made.
    if (!context.canRoll) return void this.render({ parts: ["odds"] });
    const inputs = namedHelpers(this.inputs, allies, Boolean(this.#system.broken));
    // The roll carries the character's effort: the core refuses a push it cannot pay.
    const request = withEffortPool(dialogRequest(this.#system, this.action, inputs, ClockPanel.position), this.#system);
    const flavor = this.title;
    // The helpers, as the GM's client checks them against the roll (aid-effort.mjs).
    const uuidOf = (/** @type {string} */ id) => /** @type {Actor.Implementation | undefined} */ (game.actors?.get(id))?.uuid ?? "";
    const helpers = inputs.fortune ? { aidBy: [], brokenPaidBy: null }
      : { aidBy: (inputs.aidBy ?? []).map(uuidOf).filter(Boolean), brokenPaidBy: inputs.brokenPaidBy ? uuidOf(inputs.brokenPaidBy) || null : null };
    let roll;
    try {
      roll = await IconRoll.fromRequest(request, /** @type {import("../../dice/icon-roll.mjs").IconRollOptions} */ ({ flavor, action: this.action,
        actorUuid: actor.uuid, ...helpers }));
      await roll.evaluate();
    } catch (error) {
      // The core's refusal, in its own words, in the dialog: it stays open to change the roll.
      this.#error = error instanceof Error ? error.message : String(error);
      await this.render({ parts: ["odds"] });
      return;
    }
    // The card shows the roll's flavor as text; the message's flavor is HTML: the actor's name escaped.
    const message = /** @type {ChatMessage.Implementation | undefined} */ (await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor }),
      flavor: foundry.utils.escapeHTML(flavor) }));
    // A fortune roll's outcome has no effort: nothing is paid.
    const update = effortUpdate(this.#system, /** @type {Record<string, unknown>} */ (roll.outcome ?? {}));
    if (Object.keys(update).length) await actor.update(update);
    await this.close();
    if (message && (helpers.aidBy.length || helpers.brokenPaidBy)) {
      await AidEffort.pay(message).catch(error => ui.notifications?.error(error instanceof Error ? error.message : String(error)));
    }
  }
}
