import { SYSTEM_PATH } from "../config.mjs";
import { loadCore } from "../core.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { attackDialogContext, attackTargetOf, attackerOf, initialAttackState, readAttackForm } from "../dice/tactical-requests.mjs";
import { currentMode, modeChoices } from "../message-mode.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @import { AttackState } from "../dice/tactical-requests.mjs"
 */

/**
 * The attack dialog: boons, curses, bonus, damage dice, the situation per target (height, cover),
 * and live exact P(hit) / P(crit) / P(exceed) per targeted token from the core's odds. Opened
 * from an ability with the attack tag or from an actor sheet's light/heavy attack. The context
 * is built by the pure `attackDialogContext`; this class only keeps the state and re-renders
 * the odds part when the form changes.
 */
export default class AttackDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "attack-dialog"],
    tag: "form",
    window: { title: "ICONENGINE.Tactical.Dialog.title", icon: "fa-solid fa-dice-d20" },
    position: { width: 480 },
    form: { handler: AttackDialog.#onSubmit, closeOnSubmit: true }
  };

  /** @override */
  static PARTS = {
    form: { template: `${SYSTEM_PATH}/templates/apps/attack-dialog.hbs` },
    odds: { template: `${SYSTEM_PATH}/templates/apps/attack-odds.hbs` },
    footer: { template: "templates/generic/form-footer.hbs" }
  };

  /** @type {Actor.Implementation} */
  #actor;

  /** @type {Item.Implementation | null} */
  #ability;

  /** @type {AttackState} */
  #state;

  /**
   * @param {{actor: Actor.Implementation, ability?: Item.Implementation | null, heavy?: boolean} & import("../types/sheets.js").DeepPartial<foundry.applications.api.ApplicationV2.Configuration>} options
   */
  constructor({ actor, ability = null, heavy = false, ...options }) {
    super(options);
    this.#actor = actor;
    this.#ability = ability;
    this.#state = initialAttackState({
      ability: /** @type {{system: Item.SystemOfType<"ability">} | null} */ (ability), // attacks come from ability items
      heavy,
      attackerStatuses: TacticalRolls.statusesOf(actor),
      targets: AttackDialog.userTargets(),
      rollMode: currentMode()
    });
  }

  /**
   * Open the dialog for an actor (and an ability).
   * @param {Actor.Implementation} actor
   * @param {{ability?: Item.Implementation | null, heavy?: boolean}} [options]
   */
  static async open(actor, options = {}) {
    await loadCore();
    return new AttackDialog({ actor, ...options }).render({ force: true });
  }

  /**
   * The user's targeted tokens, with the defense and Evasion read from each token's actor.
   * @returns {import("../dice/tactical-requests.mjs").AttackTarget[]}
   */
  static userTargets() {
    /** @type {import("../dice/tactical-requests.mjs").AttackTarget[]} */
    const targets = [];
    for (const token of game.user?.targets ?? []) {
      const actor = token.actor;
      if (!actor) continue;
      targets.push(attackTargetOf({
        uuid: actor.uuid,
        name: token.name ?? actor.name,
        img: token.document?.texture?.src ?? actor.img ?? "",
        // Targets are characters and foes, whose defense the attack reads.
        system: /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system),
        statuses: [...actor.statuses]
      }));
    }
    return targets;
  }

  /** @override */
  get title() {
    const name = this.#ability?.name ?? this.#actor.name ?? "";
    return game.i18n?.format("ICONENGINE.Tactical.Dialog.titleOf", { name }) ?? name;
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const core = await loadCore();
    return {
      ...attackDialogContext(core, this.#state, attackerOf(/** @type {import("../types/system.js").IconHealthActor} */ (this.#actor))),
      rollModes: modeChoices(this.#state.rollMode),
      buttons: [{ type: "submit", icon: "fa-solid fa-dice-d20", label: "ICONENGINE.Tactical.Dialog.roll" }]
    };
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    // The form element outlives part re-renders, so one listener serves the dialog's lifetime.
    this.element.addEventListener("change", () => this.#onChange());
  }

  /** Read the form into the state and redraw the odds. */
  #onChange() {
    const FormDataExtended = foundry.applications.ux.FormDataExtended;
    const data = new FormDataExtended(/** @type {HTMLFormElement} */ (this.element)).object;
    this.#state = readAttackForm(this.#state, /** @type {Record<string, unknown>} */ (data));
    this.render({ parts: ["odds"] });
  }

  /**
   * @this {AttackDialog}
   * @param {Event | SubmitEvent} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onSubmit(event, form, formData) {
    this.#state = readAttackForm(this.#state, formData.object);
    await TacticalRolls.attack(this.#actor, this.#state, { ability: this.#ability });
  }
}
