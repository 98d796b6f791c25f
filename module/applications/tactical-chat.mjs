import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange } from "../data/health-changes.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { applyDamageRequest, coreTarget } from "../dice/tactical-requests.mjs";
import IconSocket from "../icon-socket.mjs";

/**
 * @import { AppliedDamage, TacticalOptions } from "../dice/cards/icon-tactical.mjs"
 * @typedef {AppliedDamage["after"] & {statuses: string[]}} AppliedTarget  The core's target after `icon.applyDamage`.
 * @typedef {`Actor.${string}` | `Scene.${string}`} ActorUuid  An actor's uuid, or an unlinked token's synthetic actor's.
 */

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
  }

  /**
   * A socket handler that checks the asking user may act on the message.
   * @param {(message: ChatMessage.Implementation, key: number) => Promise<unknown>} action
   * @returns {import("../icon-socket.mjs").SocketHandler}
   */
  static #fromSocket(action) {
    return async ({ messageId, key }, userId) => {
      // foundry-vtt-types 13.345 types the collection's get() without the document's own members.
      const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(/** @type {string} */ (messageId)))); // not a string: finds nothing
      if (!message) return;
      const user = game.users?.get(userId);
      if (!user?.isGM && message.author?.id !== userId) return;
      await action(message, Number(key));
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
      if (!(button instanceof HTMLButtonElement)) return;
      event.preventDefault();
      TacticalChat.#onAction(button, message);
    });
  }

  /**
   * @param {HTMLButtonElement} button
   * @param {ChatMessage.Implementation} message
   */
  static async #onAction(button, message) {
    const key = Number(button.dataset.key);
    const undo = button.dataset.tacticalAction === "undo";
    button.disabled = true;
    try {
      const roll = TacticalChat.damageRoll(message, key);
      const actor = roll ? await TacticalChat.#targetActor(roll) : null;
      if (!actor) throw new Error(game.i18n?.localize("ICONENGINE.Tactical.NoTarget") ?? "No target");
      if (game.user?.isGM || (message.isAuthor && actor.isOwner)) {
        await (undo ? TacticalChat.undoDamage(message, key) : TacticalChat.applyDamage(message, key));
      } else {
        await IconSocket.executeAsGM(undo ? "undoDamage" : "applyDamage", { messageId: message.id, key });
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
   * Apply a target's damage through the core's `icon.applyDamage` and remember how to undo it.
   * Runs on a user who owns the target and may edit the message (the GM, via the socket, else).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async applyDamage(message, key) {
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
    const request = applyDamageRequest(coreTarget(target, statuses), roll.total ?? 0,
      /** @type {NonNullable<TacticalOptions["apply"]>} */ (tactical.apply)); // damage rolls carry it
    const answer = /** @type {import("../types/core.js").Done & {target: AppliedTarget, steps: AppliedDamage["steps"]}} */ (core.resolve(request, []));
    const change = healthChange({ system: target.system, effects: TacticalRolls.effectsOf(actor) }, statuses, answer.target);
    const undo = await TacticalRolls.applyHealth(actor, change);
    /** @type {AppliedDamage} */
    const applied = {
      targetUuid: actor.uuid,
      targetName: actor.name ?? "",
      dealt: answer.total,
      steps: answer.steps,
      after: { hp: answer.target.hp, vigor: answer.target.vigor, wounds: answer.target.wounds, defeated: answer.target.defeated,
        fallen: answer.target.fallen },
      undo,
      userId: game.user?.id ?? ""
    };
    await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}`, applied);
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
