import { SYSTEM_PATH } from "../config.mjs";
import { loadCore } from "../core.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import { kindLabelKey } from "../dice/ruleset-requests.mjs";
import { campaignSettings } from "../settings.mjs";
import { localize } from "./i18n.mjs";
import { rollDialogContext } from "./ruleset-roll-context.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @typedef {object} RulesetRollOptions
 * @property {string} kind                      A request kind of the other rulesets.
 * @property {Record<string, unknown>} [values] Starting values (the rest are the kind's defaults).
 * @property {string} [label]                   What is rolled ("Prowess", "Move Roll"), for the card.
 * @property {Actor.Implementation | null} [actor]             The speaker.
 */

/**
 * The roll dialog of ICONS, Tribute, the 3d6 skill system and Men & Supermen: the request's fields
 * with the exact odds from the core, live as they change; Roll sends it through IconRoll, so
 * Foundry's dice (and Dice So Nice) roll and the core decides.
 */
export default class RulesetRollDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["icon-engine", "ruleset-roll-dialog"],
    window: { contentClasses: ["standard-form"] },
    position: { width: 460 },
    form: { handler: RulesetRollDialog.#onChange, submitOnChange: true, closeOnSubmit: false },
    actions: { roll: RulesetRollDialog.#roll }
  };

  /** @override */
  static PARTS = {
    form: { template: `${SYSTEM_PATH}/templates/apps/ruleset-roll.hbs` }
  };

  /** @type {string} */
  #kind;

  /** @type {Record<string, unknown>} */
  #values;

  /** @type {string} */
  #label;

  /** @type {Actor.Implementation | null} */
  #actor;

  /**
   * @param {RulesetRollOptions & Record<string, unknown>} options
   */
  constructor({ kind, values = {}, label = "", actor = null, ...options }) {
    super(options);
    this.#kind = kind;
    this.#values = { ...values };
    this.#label = label;
    this.#actor = actor;
  }

  /** @override */
  get title() {
    const kind = localize(kindLabelKey(this.#kind));
    return this.#label ? `${this.#label}: ${kind}` : kind;
  }

  /**
   * @override
   * @param {Partial<import("../types/sheets.js").ApplicationContextOptions>} [options]  None when #roll asks.
   * @returns {Promise<foundry.applications.api.ApplicationV2.RenderContext & ReturnType<typeof rollDialogContext>>}
   */
  async _prepareContext(options) {
    const core = await loadCore();
    return rollDialogContext({ kind: this.#kind, values: this.#values, campaign: campaignSettings(),
      tables: core.rulesetTables(), odds: request => core.odds(request) });
  }

  /**
   * A field changed: keep the values and draw the fields and odds again.
   * @this {RulesetRollDialog}
   * @param {SubmitEvent | Event} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onChange(event, form, formData) {
    this.#values = { ...this.#values, ...formData.object };
    await this.render();
  }

  /**
   * Roll the request through Foundry's dice and post the card.
   * @this {RulesetRollDialog}
   */
  static async #roll() {
    const form = /** @type {HTMLFormElement} */ (this.element);
    this.#values = { ...this.#values, ...new foundry.applications.ux.FormDataExtended(form).object };
    const context = await this._prepareContext({});
    if (!context.request) return;
    const roll = await IconRoll.fromRequest(context.request, { ruleset: { label: this.#label, reaction: Boolean(context.values.reaction) } });
    await roll.evaluate();
    await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor: this.#actor ?? undefined }) });
    await this.close();
  }
}
