import { ICONENGINE } from "../config.mjs";
import { MAX_HELPERS } from "../applications/narrative/action-roll.mjs";
import { getCore, isCoreLoaded, loadCore } from "../core.mjs";
import planFormula from "./plan-formula.mjs";
import { registeredRollCards, rollCardFor } from "./roll-cards.mjs";
import SyncTemplates from "./sync-templates.mjs";

/**
 * @import { CoreRequest, Done, PlanDie } from "../types/core.js"
 */

/**
 * The options an IconRoll carries; they are serialised with the roll, so a chat card can be
 * rendered again from the stored outcome.
 * @typedef {object} IconRollOptions
 * @property {CoreRequest} [request]  What the core is asked to resolve.
 * @property {Done|null} [outcome]    The core's final answer, set by evaluation.
 * @property {string} [flavor]
 * @property {import("./cards/icon-tactical.mjs").TacticalOptions} [tactical]  Tactical rolls (module/dice/tactical-rolls.mjs).
 * @property {string} [action]     Action rolls (module/applications/narrative): the action rolled.
 * @property {string} [actorUuid]  Action rolls: whose.
 * @property {string[]} [aidBy]    Action rolls: the actor UUIDs of the allies who aid (each pays 1 effort).
 * @property {string | null} [brokenPaidBy]  Action rolls: the ally (actor UUID) who pays a broken roller's effort, or null.
 * @property {{label: string, reaction: boolean}} [ruleset]  Rolls of the other rulesets (module/applications/ruleset-roll-dialog.mjs).
 */

/** Foundry's Roll, with the protected member 13.345's declarations lack (module/types/roll.d.ts). */
const Roll = /** @type {typeof import("../types/roll.js").RollWithChatContext} */ (foundry.dice.Roll);

/**
 * A roll whose rules live in the wasm core. Foundry rolls the physical dice (so Dice So Nice,
 * roll modes and manual dice entry keep working); the core reads the faces and decides the result,
 * asking for more dice (explosions, rerolls) until it is done.
 */
export default class IconRoll extends Roll {
  /** @override */
  static CHAT_TEMPLATE = ICONENGINE.templates.rollCard;

  /** A request that keeps asking for dice is a core bug; don't loop forever on it. */
  static MAX_ROUNDS = 100;

  /**
   * Build a roll for a core request: its formula holds the dice the core plans to read first.
   * @param {CoreRequest} request
   * @param {IconRollOptions} [options]
   * @returns {Promise<IconRoll>}
   */
  static async fromRequest(request, options = {}) {
    const core = await loadCore();
    // Roll's typed options don't know our fields; they are plain serialisable data all the same.
    const rollOptions = /** @type {foundry.dice.Roll.Options} */ (/** @type {unknown} */ ({ ...options, request }));
    return new this(this.formulaFromPlan(core.plan(request)), {}, rollOptions);
  }

  /**
   * The Foundry formula of a core plan; see {@link planFormula}.
   * @param {PlanDie[]} dice
   * @returns {string}
   */
  static formulaFromPlan(dice) {
    return planFormula(dice);
  }

  /**
   * The roll's own options, typed.
   * @returns {IconRollOptions}
   */
  get iconOptions() {
    return /** @type {IconRollOptions} */ (this.options);
  }

  /**
   * The core's outcome once evaluated.
   * @returns {Done|null}
   */
  get outcome() {
    return this.iconOptions.outcome ?? null;
  }

  /* -------------------------------------------- */

  /**
   * Roll the planned dice through Foundry, then let the core resolve them.
   * @override
   * @param {Parameters<foundry.dice.Roll["_evaluate"]>[0]} [options]
   * @returns {Promise<foundry.dice.Roll.Evaluated<this>>}
   */
  async _evaluate(options = {}) {
    const request = this.iconOptions.request;
    if (!request) return super._evaluate(options);
    const core = await loadCore();
    await super._evaluate(options);

    // Min/max previews: the exact support gives the true extremes; fall back to Foundry's if the
    // odds are too large to compute.
    if (options.minimize || options.maximize) {
      try {
        const { totals } = core.odds(request);
        const extreme = options.minimize ? totals[0] : totals.at(-1);
        if (extreme) this._total = extreme[0];
      } catch {
        // Keep Foundry's own extreme.
      }
      this.iconOptions.outcome = null;
      return /** @type {foundry.dice.Roll.Evaluated<this>} */ (this);
    }

    const faces = this.dice.map(term => term.results.map(result => result.result));
    let answer = core.resolve(request, faces);
    for (let round = 1; answer.status === "more"; round++) {
      if (round > IconRoll.MAX_ROUNDS) throw new Error(`IconRoll: the core asked for more dice ${round - 1} times`);
      // A separate root roll, so manual dice entry prompts for the extra dice too.
      const extra = new foundry.dice.Roll(IconRoll.formulaFromPlan(answer.dice));
      await extra.evaluate(options);
      for (const term of extra.dice) faces.push(term.results.map(result => result.result));
      const plus = new foundry.dice.terms.OperatorTerm({ operator: "+" });
      await plus.evaluate();
      // Appended as terms so roll.dice (and Dice So Nice) shows them.
      this.terms.push(plus, ...extra.terms);
      answer = core.resolve(request, faces);
    }

    this.resetFormula();
    this.iconOptions.outcome = answer;
    this._total = answer.total;
    return /** @type {foundry.dice.Roll.Evaluated<this>} */ (this);
  }

  /* -------------------------------------------- */

  /**
   * Render with the card registered for the request's kind (module/dice/roll-cards.mjs), or the
   * generic dice card.
   * @override
   * @param {Parameters<foundry.dice.Roll["render"]>[0]} [options]
   */
  async render(options = {}) {
    const card = rollCardFor(this.iconOptions.request?.kind);
    return super.render(card && !options.template ? { ...options, template: card.template } : options);
  }

  /**
   * The outcome its faces give now, through the core: what the message stores is its author's
   * claim, so a card shows (and applies) what the core makes of the stored request and faces, and
   * nothing when the core refuses them. Null before the core has loaded or for a roll without a request.
   * @returns {Done | null}
   */
  checkedOutcome() {
    const request = this.iconOptions.request;
    if (!request || !isCoreLoaded() || !this._evaluated) return null;
    try {
      const faces = this.dice.map(term => term.results.map(result => result.result));
      const answer = getCore().resolve(request, faces);
      return answer.status === "done" ? answer : null;
    } catch {
      return null;
    }
  }

  /**
   * The roll's options with the names of the actors it names read from their documents now (an
   * unlinked token's own name first), never from what the message stores: a tactical roll's actor
   * and target, an action roll's helpers (`aidNames`, `brokenPaidByName`).
   * @returns {Record<string, unknown>}
   */
  #namedOptions() {
    const options = /** @type {Record<string, unknown>} */ ({ ...this.options });
    const tactical = this.iconOptions.tactical;
    const { aidBy, brokenPaidBy } = this.iconOptions;
    if (Array.isArray(aidBy)) options.aidNames = aidBy.slice(0, MAX_HELPERS).map(IconRoll.#nameAt);
    if (typeof brokenPaidBy === "string") options.brokenPaidByName = IconRoll.#nameAt(brokenPaidBy);
    if (!tactical) return options;
    /** @param {{uuid?: unknown, name?: unknown} | null | undefined} who */
    const named = who => (who && typeof who.uuid === "string" ? { ...who, name: IconRoll.#nameAt(who.uuid) } : who ?? null);
    options.tactical = { ...tactical, target: named(tactical.target), actor: named(tactical.actor) };
    return options;
  }

  /**
   * An actor's name now (its unlinked token's first), or "?" when the UUID names none.
   * @param {unknown} uuid
   * @returns {string}
   */
  static #nameAt(uuid) {
    let doc = null;
    try {
      doc = typeof uuid === "string" && uuid.length <= 300 ? foundry.utils.fromUuidSync(/** @type {`Actor.${string}`} */ (uuid)) : null;
    } catch {
      doc = null;
    }
    const actor = /** @type {{name?: string, token?: {name?: string} | null} | null} */ (doc);
    return actor ? (actor.token?.name ?? actor.name ?? "") : "?";
  }

  /**
   * The chat card's context: Foundry's, the core's outcome (computed again, see
   * {@link checkedOutcome}) and the registered card's own context from it.
   * @template {import("../types/roll.js").ChatRenderContext} C
   * @param {{flavor?: string, isPrivate?: boolean}} options
   * @param {C} context  Foundry's context (formula, flavor, user, tooltip, total).
   */
  #cardContext({ isPrivate = false } = {}, context) {
    const outcome = isPrivate ? null : this.checkedOutcome();
    const request = this.iconOptions.request;
    const card = rollCardFor(request?.kind);
    return {
      ...context,
      total: outcome ? outcome.total : context.total,
      request,
      card: outcome && request && card?.context ? card.context(outcome, request, this.#namedOptions()) : null,
      formula: outcome?.formula ?? context.formula,
      outcome: outcome && {
        ...outcome,
        terms: (outcome.terms ?? []).map(term => ({ ...term, dieClass: IconRoll.#dieClass(term.notation) }))
      }
    };
  }

  /**
   * Add the core's outcome to the chat card, and show the formula as the user wrote it.
   * Overrides Roll#_prepareChatRenderContext (Foundry v12+; declared in module/types/roll.d.ts,
   * which foundry-vtt-types 13.345 lacks).
   * @override
   * @param {{flavor?: string, isPrivate?: boolean}} [options]
   */
  async _prepareChatRenderContext(options = {}) {
    return this.#cardContext(options, await super._prepareChatRenderContext(options));
  }

  /**
   * The chat card now, synchronously (the templates compiled at init: module/dice/sync-templates.mjs),
   * for the chat hook that shows a message's rolls rather than whatever HTML its author stored.
   * Null when its template is not compiled yet.
   * @param {{isPrivate?: boolean}} [options]
   * @returns {string | null}
   */
  renderSync({ isPrivate = false } = {}) {
    const template = rollCardFor(this.iconOptions.request?.kind)?.template ?? IconRoll.CHAT_TEMPLATE;
    if (!SyncTemplates.has(template)) return null;
    const flavor = isPrivate ? null : this.iconOptions.flavor ?? null;
    const total = isPrivate ? "?" : Math.round(Number(this.total) * 100) / 100;
    const context = this.#cardContext({ isPrivate }, { formula: isPrivate ? "???" : this._formula, flavor, user: game.user?.id ?? "", tooltip: "", total });
    return SyncTemplates.render(template, context);
  }

  /** The templates {@link renderSync} needs: the generic card and every registered kind's. */
  static get chatTemplates() {
    return [IconRoll.CHAT_TEMPLATE, ...new Set(registeredRollCards().map(kind => rollCardFor(kind)?.template ?? ""))].filter(Boolean);
  }

  /**
   * Foundry's dice CSS class (`d6`, `df`) for a term's notation.
   * @param {string} notation
   * @returns {string}
   */
  static #dieClass(notation) {
    const match = /d(\d+|f)/i.exec(notation);
    return match ? `d${match[1].toLowerCase()}` : "";
  }
}
