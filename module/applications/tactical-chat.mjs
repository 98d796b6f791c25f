import { SYSTEM_ID } from "../config.mjs";
import { spendVigilance, vigilanceSpenders } from "../data/vigilance.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { savedOptions } from "../dice/tactical-requests.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import IconSocket from "../icon-socket.mjs";

/**
 * @import { TacticalOptions } from "../dice/cards/icon-tactical.mjs"
 * @typedef {`Actor.${string}` | `Scene.${string}`} ActorUuid  An actor's uuid, or an unlinked token's synthetic actor's.
 */

/**
 * @typedef {object} ApplyChoice  How a target's damage is applied.
 * @property {boolean} [saved]     The target saved against a save-for-half attack.
 * @property {number} [vigilance]  An ally's Vigilance roll (highest d6), reducing as armor.
 * @property {string} [vigilanceBy]       The ally who spends the charges (an actor's uuid).
 * @property {number} [vigilanceCharges]  How many charges it spends.
 */

/** @param {string} key */
const localize = key => game.i18n?.localize(key) ?? key;
/** @param {string} key @param {Record<string, string>} data */
const format = (key, data) => game.i18n?.format(key, data) ?? key;

/**
 * An actor by uuid (an unlinked token's synthetic actor too), or null.
 * @param {unknown} uuid
 * @returns {Promise<Actor.Implementation | null>}
 */
async function actorOf(uuid) {
  if (typeof uuid !== "string" || !uuid) return null;
  const doc = await fromUuid(/** @type {ActorUuid} */ (uuid));
  // CONFIG.Actor.documentClass makes every actor an IconActor.
  return doc instanceof Actor ? /** @type {Actor.Implementation} */ (doc) : null;
}

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
    return async ({ messageId, key, saved = false, vigilance = 0, vigilanceBy, vigilanceCharges }, userId) => {
      // foundry-vtt-types 13.345 types the collection's get() without the document's own members.
      const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(/** @type {string} */ (messageId)))); // not a string: finds nothing
      if (!message) return;
      const user = game.users?.get(userId);
      // Thrown, so the socket answers the asker with the reason.
      if (!user?.isGM && message.author?.id !== userId) {
        throw new Error(game.i18n?.localize("ICONENGINE.Socket.NotAllowed") ?? "Not allowed");
      }
      /** @type {ApplyChoice} */
      const choice = { saved: saved === true, vigilance: Number(vigilance) || 0 };
      if (choice.vigilance) {
        // Charges are spent from an actor the asking user owns.
        const spender = await actorOf(vigilanceBy);
        if (!user || !spender?.testUserPermission(user, "OWNER")) throw new Error(localize("ICONENGINE.Socket.NotAllowed"));
        Object.assign(choice, { vigilanceBy: spender.uuid, vigilanceCharges: Number(vigilanceCharges) || 0 });
      }
      await action(message, Number(key), choice);
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
      if (!actor) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
      /** @type {ApplyChoice} */
      const choice = { saved: action === "applySaved" };
      if (action === "vigilance") {
        const spent = await TacticalChat.#rollVigilance(message, actor);
        if (spent === null) return;
        Object.assign(choice, spent);
      }
      const socketAction = action === "undo" ? "undoDamage" : action === "counter" ? "counterDamage" : "applyDamage";
      const direct = { undoDamage: TacticalChat.undoDamage, counterDamage: TacticalChat.counterDamage, applyDamage: TacticalChat.applyDamage };
      // Vigilance charges change on their holder: spent on apply, given back on undo.
      const holder = action === "undo" ? message.getFlag(SYSTEM_ID, "damageApplied")?.[key]?.vigilance?.uuid : choice.vigilanceBy;
      const holderOwned = !holder || !!(await actorOf(holder))?.isOwner;
      if (game.user?.isGM || (message.isAuthor && actor.isOwner && holderOwned)) {
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
      // An attack's damage roll, or the card of damage that is no attack's (Slashed, Counter).
      return (tactical?.role === "damage" || (tactical?.role === "health" && !!tactical.apply)) && tactical.key === key;
    });
  }

  /**
   * @param {import("../dice/icon-roll.mjs").default} roll
   * @returns {Promise<Actor.Implementation | null>}
   */
  static async #targetActor(roll) {
    return actorOf(roll.iconOptions.tactical?.target?.uuid);
  }

  /**
   * Who may spend Vigilance on a damaged target: the actors of the combat, the user's character
   * and the controlled tokens' actors that the user owns and that hold charges, the target aside.
   * @param {Actor.Implementation} target
   */
  static #vigilanceSpenders(target) {
    /** @type {(Actor.Implementation | null | undefined)[]} */
    const candidates = [
      // The configured Combat (foundry-vtt-types 13.345 gives game.combat no members of it).
      ...(/** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat))?.combatants.map(c => c.actor) ?? []),
      game.user?.character,
      ...(canvas?.tokens?.controlled.map(t => t.actor) ?? [])
    ];
    return vigilanceSpenders(candidates.filter(a => !!a), target.uuid);
  }

  /**
   * Vigilance: who spends how many of its charges (a prompt offering at most the charges held),
   * then their d6s rolled through Foundry, the highest counting (the card of a plain `Nd6kh1`,
   * spoken by the spender). Null when no one holds charges or the prompt is cancelled. The charges
   * are spent when the damage is applied.
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} target
   * @returns {Promise<Required<Pick<ApplyChoice, "vigilance" | "vigilanceBy" | "vigilanceCharges">> | null>}
   */
  static async #rollVigilance(message, target) {
    const spenders = TacticalChat.#vigilanceSpenders(target);
    if (!spenders.length) {
      ui.notifications?.warn(format("ICONENGINE.Vigilance.NoSpender", { name: target.name ?? "" }));
      return null;
    }
    const most = Math.max(...spenders.map(s => s.held));
    const content = await foundry.applications.handlebars.renderTemplate(TEMPLATES.vigilance, {
      spenders: spenders.map(s => ({ ...s, label: format("ICONENGINE.Vigilance.Holder", { name: s.name, held: String(s.held) }) })),
      most
    });
    const data = await foundry.applications.api.DialogV2.input({
      window: { title: localize("ICONENGINE.Status.vigilance.name") },
      content,
      rejectClose: false
    });
    const answer = /** @type {Record<string, unknown> | null} */ (data);
    const spender = spenders.find(s => s.uuid === answer?.spender) ?? (spenders.length === 1 ? spenders[0] : null);
    if (!answer || !spender) return null;
    const charges = Math.trunc(Number(answer.charges));
    const spent = spendVigilance(spender.held, charges);
    if (!spent) {
      ui.notifications?.warn(format("ICONENGINE.Vigilance.NotHeld", { name: spender.name, charges: String(answer.charges), held: String(spender.held) }));
      return null;
    }
    const flavor = format("ICONENGINE.Vigilance.Roll", { name: spender.name, charges: String(charges), target: target.name ?? "" });
    const roll = await IconRoll.fromRequest({ kind: "dice", formula: spent.formula }, { flavor });
    await roll.evaluate();
    const holder = await actorOf(spender.uuid);
    await roll.toMessage({ speaker: holder ? ChatMessage.implementation.getSpeaker({ actor: holder }) : message.speaker, flavor });
    return { vigilance: roll.total ?? 0, vigilanceBy: spender.uuid, vigilanceCharges: charges };
  }

  /**
   * Apply a target's damage through the core's `icon.applyDamage` and remember how to undo it.
   * Runs on a user who owns the target and may edit the message (the GM, via the socket, else).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {ApplyChoice} [choice]  A successful save against a save-for-half attack, a Vigilance roll.
   */
  static async applyDamage(message, key, { saved = false, vigilance = 0, vigilanceBy, vigilanceCharges = 0 } = {}) {
    if (message.getFlag(SYSTEM_ID, "damageApplied")?.[key]) return;
    const roll = TacticalChat.damageRoll(message, key);
    if (!roll) return;
    const actor = await TacticalChat.#targetActor(roll);
    if (!actor) return;
    const tactical = /** @type {TacticalOptions} */ (roll.iconOptions.tactical);
    const base = /** @type {NonNullable<TacticalOptions["apply"]>} */ (tactical.apply); // damage and health rolls carry it
    /** @type {Record<string, unknown>} */
    const options = saved && tactical.saveForHalf ? savedOptions(base) : { ...base };
    // A health card's roll is the core's breakdown; the damage is its amount.
    const amount = tactical.role === "health" ? tactical.amount ?? 0 : roll.total ?? 0;
    const spender = vigilance > 0 ? await actorOf(vigilanceBy) : null;
    if (vigilance > 0 && !spender) throw new Error(localize("ICONENGINE.Vigilance.NoHolder"));
    const spent = spender ? await TacticalRolls.spendVigilance(spender, vigilanceCharges, vigilance) : null;
    if (spent) options.vigilance = vigilance;
    try {
      const applied = await TacticalRolls.applyDamageTo(actor, amount, options);
      if (spent) applied.vigilance = spent;
      await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}`, applied);
    } catch (error) {
      // Nothing is lost: charges spent on damage that was not applied come back.
      if (spent) await TacticalRolls.refundVigilance(spent);
      throw error;
    }
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
    const attacker = await actorOf(message.getFlag(SYSTEM_ID, "tactical")?.attacker);
    if (!attacker) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
    await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}.counterDone`, true);
    // Its own card, with Undo (and Apply again after an Undo).
    await TacticalRolls.damage(attacker, applied.counter, { source: "effect", ability: false, fromFoe: true },
      { label: "ICONENGINE.Status.counter.name" });
  }

  /**
   * Undo an applied damage: the actor's previous HP, vigor, wounds and statuses, the turn's Slashed,
   * the Vigilance charges spent on it.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async undoDamage(message, key) {
    const applied = message.getFlag(SYSTEM_ID, "damageApplied")?.[key];
    if (!applied) return;
    await TacticalRolls.undoApplied(applied);
    await dottedFlags(message).unsetFlag(SYSTEM_ID, `damageApplied.${key}`);
  }
}
