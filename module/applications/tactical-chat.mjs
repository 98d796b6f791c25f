import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange } from "../data/health-changes.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { applyDamageRequest, coreTarget, savedOptions } from "../dice/tactical-requests.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import IconSocket from "../icon-socket.mjs";

/**
 * @import { AppliedDamage, TacticalOptions } from "../dice/cards/icon-tactical.mjs"
 * @typedef {AppliedDamage["after"] & {statuses: string[]}} AppliedTarget  The core's target after `icon.applyDamage`.
 * @typedef {`Actor.${string}` | `Scene.${string}`} ActorUuid  An actor's uuid, or an unlinked token's synthetic actor's.
 */

/**
 * @typedef {object} ApplyChoice  How a target's damage is applied.
 * @property {boolean} [saved]     The target saved against a save-for-half attack.
 * @property {number} [vigilance]  An ally's Vigilance roll (highest d6), reducing as armor.
 */

/** Vigilance charges one spend rolls at most (d6 each, highest counts). */
const MAX_VIGILANCE_CHARGES = 10;

/**
 * A message's flags by dotted key, as Foundry's setFlag/unsetFlag take them (foundry-vtt-types
 * 13.345 types top-level keys only).
 * @param {ChatMessage.Implementation} message
 * @returns {{setFlag(scope: string, key: string, value: unknown): Promise<unknown>, unsetFlag(scope: string, key: string): Promise<unknown>}}
 */
const dottedFlags = message => message;

/**
 * The Apply damage / Undo buttons of attack cards. The card shows an Apply button per target; once
 * applied, the message flags (`flags.icon-engine.damageApplied.<key>`) hold the core's breakdown and the
 * undo data, and this hook shows them instead. The GM or the message's author may act; a user who
 * does not own the target asks the active GM through the socket.
 */
export default class TacticalChat {
  /** Start listening to chat renders and to GM requests. */
  static register() {
    Hooks.on("renderChatMessageHTML", TacticalChat.#onRender);
    IconSocket.registerHandler("applyDamage", TacticalChat.#fromSocket(TacticalChat.applyDamage));
    IconSocket.registerHandler("undoDamage", TacticalChat.#fromSocket(TacticalChat.undoDamage));
    IconSocket.registerHandler("counterDamage", TacticalChat.#fromSocket(TacticalChat.counterDamage));
  }

  /**
   * A socket handler that checks the asking user may act on the message.
   * @param {(message: ChatMessage.Implementation, key: number, choice: ApplyChoice) => Promise<unknown>} action
   * @returns {import("../icon-socket.mjs").SocketHandler}
   */
  static #fromSocket(action) {
    return async ({ messageId, key, saved = false, vigilance = 0 }, userId) => {
      // foundry-vtt-types 13.345 types the collection's get() without the document's own members.
      const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(/** @type {string} */ (messageId)))); // not a string: finds nothing
      if (!message) return;
      const user = game.users?.get(userId);
      // Thrown, so the socket answers the asker with the reason.
      if (!user?.isGM && message.author?.id !== userId) {
        throw new Error(game.i18n?.localize("ICONENGINE.Socket.NotAllowed") ?? "Not allowed");
      }
      await action(message, Number(key), { saved: saved === true, vigilance: Number(vigilance) || 0 });
    };
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    // Private to this viewer (blind): Foundry rendered "???" cards, and nothing is added.
    if (!message.isContentVisible || !html.querySelector(".tactical-apply")) return;
    const applied = message.getFlag(SYSTEM_ID, "damageApplied") ?? {};
    const canAct = !!game.user?.isGM || message.isAuthor;
    for (const block of html.querySelectorAll(".tactical-apply[data-key]")) {
      const key = Number(/** @type {HTMLElement} */ (block).dataset.key);
      const done = applied[key];
      if (done) {
        const context = { ...appliedContext(done, key), canUndo: canAct };
        foundry.applications.handlebars.renderTemplate(TEMPLATES.applied, context).then(markup => {
          block.innerHTML = markup;
        });
      } else if (!canAct) {
        block.remove();
      }
    }
    html.addEventListener("click", event => {
      const button = /** @type {HTMLElement} */ (event.target).closest("[data-tactical-action]");
      // Not instanceof: a v14 detached chat window's nodes belong to that window's classes.
      if (!button || button.tagName !== "BUTTON") return;
      event.preventDefault();
      TacticalChat.#onAction(/** @type {HTMLButtonElement} */ (button), message);
    });
  }

  /**
   * @param {HTMLButtonElement} button
   * @param {ChatMessage.Implementation} message
   */
  static async #onAction(button, message) {
    const key = Number(button.dataset.key);
    const action = button.dataset.tacticalAction ?? "apply";
    button.disabled = true;
    try {
      const roll = TacticalChat.damageRoll(message, key);
      const actor = roll ? await TacticalChat.#targetActor(roll) : null;
      if (!actor) throw new Error(game.i18n?.localize("ICONENGINE.Tactical.NoTarget") ?? "No target");
      /** @type {ApplyChoice} */
      const choice = { saved: action === "applySaved" };
      if (action === "vigilance") {
        const rolled = await TacticalChat.#rollVigilance(message);
        if (rolled === null) return;
        choice.vigilance = rolled;
      }
      const socketAction = action === "undo" ? "undoDamage" : action === "counter" ? "counterDamage" : "applyDamage";
      const direct = { undoDamage: TacticalChat.undoDamage, counterDamage: TacticalChat.counterDamage, applyDamage: TacticalChat.applyDamage };
      if (game.user?.isGM || (message.isAuthor && actor.isOwner)) {
        await direct[socketAction](message, key, choice);
      } else {
        await IconSocket.executeAsGM(socketAction, { messageId: message.id, key, ...choice });
      }
    } catch (error) {
      console.error(error);
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * The damage roll of a target in an attack message.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @returns {import("../dice/icon-roll.mjs").default | undefined}
   */
  static damageRoll(message, key) {
    // Attack messages hold IconRolls (CONFIG.Dice.rolls has the class, so the rolls come back as such).
    const rolls = /** @type {import("../dice/icon-roll.mjs").default[]} */ (message.rolls);
    return rolls.find(roll => {
      const tactical = roll.iconOptions.tactical;
      return tactical?.role === "damage" && tactical.key === key;
    });
  }

  /**
   * @param {import("../dice/icon-roll.mjs").default} roll
   * @returns {Promise<Actor.Implementation | null>}
   */
  static async #targetActor(roll) {
    const tactical = roll.iconOptions.tactical;
    const uuid = tactical?.target?.uuid;
    if (!uuid) return null;
    const doc = await fromUuid(/** @type {ActorUuid} */ (uuid));
    // CONFIG.Actor.documentClass makes every actor an IconActor.
    return doc instanceof Actor ? /** @type {Actor.Implementation} */ (doc) : null;
  }

  /**
   * Vigilance: how many charges to spend (a prompt), then their d6s rolled through Foundry, the
   * highest counting (the card of a plain `Nd6kh1`). Null when cancelled.
   * @param {ChatMessage.Implementation} message
   * @returns {Promise<number | null>}
   */
  static async #rollVigilance(message) {
    const localize = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    const input = `<label>${localize("ICONENGINE.Tactical.VigilanceCharges")}
      <input type="number" name="charges" value="1" min="1" max="${MAX_VIGILANCE_CHARGES}" step="1" autofocus></label>`;
    const data = await foundry.applications.api.DialogV2.input({
      window: { title: localize("ICONENGINE.Status.vigilance.name") },
      content: input,
      rejectClose: false
    });
    const charges = /** @type {Record<string, unknown> | null} */ (data)?.charges;
    const n = Math.trunc(Number(charges));
    if (!Number.isFinite(n) || n < 1) return null;
    const roll = await IconRoll.fromRequest({ kind: "dice", formula: `${Math.min(n, MAX_VIGILANCE_CHARGES)}d6kh1` },
      { flavor: localize("ICONENGINE.Status.vigilance.name") });
    await roll.evaluate();
    await roll.toMessage({ speaker: message.speaker, flavor: localize("ICONENGINE.Status.vigilance.name") });
    return roll.total ?? 0;
  }

  /**
   * Apply a target's damage through the core's `icon.applyDamage` and remember how to undo it.
   * Runs on a user who owns the target and may edit the message (the GM, via the socket, else).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {ApplyChoice} [choice]  A successful save against a save-for-half attack, a Vigilance roll.
   */
  static async applyDamage(message, key, { saved = false, vigilance = 0 } = {}) {
    if (message.getFlag(SYSTEM_ID, "damageApplied")?.[key]) return;
    const roll = TacticalChat.damageRoll(message, key);
    if (!roll) return;
    const actor = await TacticalChat.#targetActor(roll);
    if (!actor) return;
    const tactical = /** @type {TacticalOptions} */ (roll.iconOptions.tactical);
    const core = await loadCore();
    const statuses = TacticalRolls.statusesOf(actor);
    // Attacks target characters and foes: the actors with ICON health.
    const target = /** @type {import("../types/system.js").IconHealthActor} */ (actor);
    const base = /** @type {NonNullable<TacticalOptions["apply"]>} */ (tactical.apply); // damage rolls carry it
    /** @type {Record<string, unknown>} */
    const options = saved && tactical.saveForHalf ? savedOptions(base) : { ...base };
    if (vigilance > 0) options.vigilance = vigilance;
    const request = applyDamageRequest(coreTarget(target, statuses), roll.total ?? 0, options);
    const answer = /** @type {import("../types/core.js").Done & {target: AppliedTarget, steps: AppliedDamage["steps"], counter?: number}} */ (core.resolve(request, []));
    const change = healthChange({ system: target.system, effects: TacticalRolls.effectsOf(actor) }, statuses, answer.target);
    const undo = await TacticalRolls.applyHealth(actor, change);
    /** @type {AppliedDamage} */
    const applied = {
      targetUuid: actor.uuid,
      targetName: actor.name ?? "",
      dealt: answer.total,
      steps: answer.steps,
      counter: answer.counter ?? 0,
      after: { hp: answer.target.hp, vigor: answer.target.vigor, wounds: answer.target.wounds, defeated: answer.target.defeated,
        fallen: answer.target.fallen },
      undo,
      userId: game.user?.id ?? ""
    };
    await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}`, applied);
  }

  /**
   * Counter: the damaged target deals its Counter damage back to the attacker ("When damaged by an
   * ability, deal 2 damage back"), as damage that is no ability's; once per applied damage.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async counterDamage(message, key) {
    const applied = message.getFlag(SYSTEM_ID, "damageApplied")?.[key];
    if (!applied?.counter || applied.counterDone) return;
    const attackerUuid = message.getFlag(SYSTEM_ID, "tactical")?.attacker;
    const attacker = attackerUuid ? await fromUuid(/** @type {ActorUuid} */ (attackerUuid)) : null;
    if (!(attacker instanceof Actor)) throw new Error(game.i18n?.localize("ICONENGINE.Tactical.NoTarget") ?? "No target");
    await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}.counterDone`, true);
    // CONFIG.Actor.documentClass makes every actor an IconActor.
    await TacticalRolls.damage(/** @type {Actor.Implementation} */ (attacker), applied.counter, { source: "effect", ability: false, fromFoe: true },
      { label: "ICONENGINE.Status.counter.name" });
  }

  /**
   * Undo an applied damage: the actor's previous HP, vigor, wounds and statuses.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async undoDamage(message, key) {
    const applied = message.getFlag(SYSTEM_ID, "damageApplied")?.[key];
    if (!applied) return;
    const actor = await fromUuid(/** @type {ActorUuid} */ (applied.targetUuid));
    if (actor instanceof Actor) await TacticalRolls.undoHealth(/** @type {Actor.Implementation} */ (actor), applied.undo);
    await dottedFlags(message).unsetFlag(SYSTEM_ID, `damageApplied.${key}`);
  }
}
