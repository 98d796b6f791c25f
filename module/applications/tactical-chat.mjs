import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange } from "../data/health-changes.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { applyDamageRequest, coreTarget } from "../dice/tactical-requests.mjs";
import IconSocket from "../icon-socket.mjs";

/**
 * @import { AppliedDamage, TacticalOptions } from "../dice/cards/icon-tactical.mjs"
 */

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
   * @param {(message: ChatMessage, key: number) => Promise<unknown>} action
   * @returns {import("../icon-socket.mjs").SocketHandler}
   */
  static #fromSocket(action) {
    return async ({ messageId, key }, userId) => {
      const message = /** @type {ChatMessage | undefined} */ (/** @type {unknown} */ (game.messages?.get(messageId)));
      if (!message) return;
      const user = game.users?.get(userId);
      // Thrown, so the socket answers the asker with the reason.
      if (!user?.isGM && /** @type {any} */ (message).author?.id !== userId) {
        throw new Error(game.i18n?.localize("ICONENGINE.Socket.NotAllowed") ?? "Not allowed");
      }
      await action(message, Number(key));
    };
  }

  /**
   * @param {ChatMessage} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    // Private to this viewer (blind): Foundry rendered "???" cards, and nothing is added.
    if (!message.isContentVisible || !html.querySelector(".tactical-apply")) return;
    const applied = /** @type {Record<string, AppliedDamage>} */ (/** @type {any} */ (message).getFlag(SYSTEM_ID, "damageApplied") ?? {});
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
   * @param {ChatMessage} message
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
   * @param {ChatMessage} message
   * @param {number} key
   * @returns {import("../dice/icon-roll.mjs").default | undefined}
   */
  static damageRoll(message, key) {
    return /** @type {any[]} */ (message.rolls).find(roll => {
      const tactical = /** @type {TacticalOptions | undefined} */ (roll.options?.tactical);
      return tactical?.role === "damage" && tactical.key === key;
    });
  }

  /**
   * @param {import("../dice/icon-roll.mjs").default} roll
   * @returns {Promise<Actor | null>}
   */
  static async #targetActor(roll) {
    const tactical = /** @type {TacticalOptions} */ (/** @type {any} */ (roll.options).tactical);
    const uuid = tactical.target?.uuid;
    if (!uuid) return null;
    const doc = /** @type {unknown} */ (await fromUuid(/** @type {any} */ (uuid)));
    return doc instanceof Actor ? doc : null;
  }

  /**
   * Apply a target's damage through the core's `icon.applyDamage` and remember how to undo it.
   * Runs on a user who owns the target and may edit the message (the GM, via the socket, else).
   * @param {ChatMessage} message
   * @param {number} key
   */
  static async applyDamage(message, key) {
    if (/** @type {any} */ (message).getFlag(SYSTEM_ID, `damageApplied.${key}`)) return;
    const roll = TacticalChat.damageRoll(message, key);
    if (!roll) return;
    const actor = await TacticalChat.#targetActor(roll);
    if (!actor) return;
    const tactical = /** @type {TacticalOptions} */ (/** @type {any} */ (roll.options).tactical);
    const core = await loadCore();
    const statuses = TacticalRolls.statusesOf(actor);
    const request = applyDamageRequest(coreTarget(/** @type {any} */ (actor), statuses), roll.total ?? 0,
      /** @type {any} */ (tactical.apply));
    const answer = /** @type {import("../types/core.js").Done & {target: any, steps: any[]}} */ (core.resolve(request, []));
    const change = healthChange({ system: actor.system, effects: TacticalRolls.effectsOf(actor) }, statuses, answer.target);
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
    await /** @type {any} */ (message).setFlag(SYSTEM_ID, `damageApplied.${key}`, applied);
  }

  /**
   * Undo an applied damage: the actor's previous HP, vigor, wounds and statuses.
   * @param {ChatMessage} message
   * @param {number} key
   */
  static async undoDamage(message, key) {
    const applied = /** @type {AppliedDamage | undefined} */ (/** @type {any} */ (message).getFlag(SYSTEM_ID, `damageApplied.${key}`));
    if (!applied) return;
    const actor = /** @type {unknown} */ (await fromUuid(/** @type {any} */ (applied.targetUuid)));
    if (actor instanceof Actor) await TacticalRolls.undoHealth(actor, applied.undo);
    await /** @type {any} */ (message).unsetFlag(SYSTEM_ID, `damageApplied.${key}`);
  }
}
