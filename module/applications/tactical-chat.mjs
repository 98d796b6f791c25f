import { SYSTEM_ID } from "../config.mjs";
import { SLASHED_FLAG } from "../data/slashed.mjs";
import { loadCore } from "../core.mjs";
import { PLAYERS_APPLY_SETTING, applyOptionsOnly, checkedKey, healthUndoOnly, knownStatuses, mayApplyDamage, vigilanceRefundOnly,
  wholeIn } from "../data/trust.mjs";
import { MAX_VIGILANCE, spendVigilance, vigilanceSpenders } from "../data/vigilance.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import ActorHealth from "../documents/actor-health.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import { savedOptions } from "../dice/tactical-requests.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import GmRecords from "../gm-records.mjs";
import IconSocket from "../icon-socket.mjs";
import { localize } from "./i18n.mjs";

/**
 * @import { TacticalOptions, AppliedDamage } from "../dice/cards/icon-tactical.mjs"
 * @import { Done } from "../types/core.js"
 * @typedef {`Actor.${string}` | `Scene.${string}`} ActorUuid  An actor's uuid, or an unlinked token's synthetic actor's.
 */

/**
 * @typedef {object} ApplyChoice  How a target's damage is applied.
 * @property {boolean} [saved]     The target saved against a save-for-half attack.
 * @property {number} [vigilance]  An ally's Vigilance roll (highest d6), reducing as armor.
 * @property {string} [vigilanceBy]       The ally who spends the charges (an actor's uuid).
 * @property {number} [vigilanceCharges]  How many charges it spends.
 */

/** @param {string} key @param {Record<string, string>} data */
const format = (key, data) => game.i18n?.format(key, data) ?? key;
/** A user-given name made safe for HTML (a message's flavor is HTML). @param {string} text */
const escape = text => foundry.utils.escapeHTML(text);

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
 * @typedef {object} DamageRecord  A card's applied damage and how far its record is trusted.
 * @property {AppliedDamage} applied
 * @property {boolean} byGM  The GM's own record (GmRecords), trusted in full; else the message's
 *   flag, written by whoever applied it on their own client, trusted only over actors the
 *   message's author owns.
 */

/**
 * The Apply damage / Undo / Counter buttons of attack cards (and of the damage cards of Slashed and
 * Counter). The card shows an Apply button per target to who may apply it: the GM, the target's
 * owner, or the card's author when the world lets players apply damage from their own cards
 * ({@link PLAYERS_APPLY_SETTING}). A user who may not change every actor involved asks the active
 * GM through the socket; the GM's client checks the request (docs/security.md), recomputes the
 * damage from the roll's faces through the core, applies it and keeps its own record
 * ({@link GmRecords}), which an Undo restores from. The message's flag
 * (`flags.icon-engine.damageApplied.<key>`) shows the breakdown on the card.
 */
export default class TacticalChat {
  /** Start listening to chat renders and to GM requests. */
  static register() {
    Hooks.on("renderChatMessageHTML", TacticalChat.#onRender);
    IconSocket.registerHandler("applyDamage", (payload, userId) => TacticalChat.#serial(() => TacticalChat.#requestApply(payload, userId)));
    IconSocket.registerHandler("undoDamage", (payload, userId) => TacticalChat.#serial(() => TacticalChat.#requestUndo(payload, userId)));
    IconSocket.registerHandler("counterDamage", (payload, userId) => TacticalChat.#serial(() => TacticalChat.#requestCounter(payload, userId)));
  }

  /** The GM's damage actions, one after another: two requests for one card cannot both pass its checks. */
  static #queue = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T>} action
   * @returns {Promise<T>}
   */
  static #serial(action) {
    const run = TacticalChat.#queue.then(action);
    TacticalChat.#queue = run.then(() => {}, () => {});
    return run;
  }

  /** Whether the world lets players apply damage from their own cards to targets they do not own. */
  static get playersApply() {
    return game.settings?.get(SYSTEM_ID, PLAYERS_APPLY_SETTING) === true;
  }

  /**
   * Who may apply (and undo) a card's damage to its target: the GM, the target's owner, or the
   * card's author when {@link TacticalChat.playersApply}.
   * @param {User.Implementation | null | undefined} user
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} target
   */
  static mayApply(user, message, target) {
    if (!user) return false;
    return mayApplyDamage({ isGM: !!user.isGM, ownsTarget: target.testUserPermission(user, "OWNER"),
      isAuthor: !!user.id && message.author?.id === user.id, playersApply: TacticalChat.playersApply });
  }

  /**
   * The card a request names, checked: a message, a damage roll's key in it, the roll's target.
   * @param {Record<string, unknown>} payload
   */
  static async #card(payload) {
    const key = checkedKey(payload.key);
    if (typeof payload.messageId !== "string" || key === null) throw new Error(localize("ICONENGINE.Trust.BadRequest"));
    // foundry-vtt-types 13.345 types the collection's get() without the document's own members.
    const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(payload.messageId)));
    if (!message) throw new Error(localize("ICONENGINE.Trust.NoMessage"));
    const roll = TacticalChat.damageRoll(message, key);
    const target = roll ? await TacticalChat.#targetActor(roll) : null;
    if (!roll || !target) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
    return { message, key, roll, target };
  }

  /**
   * A player asks the GM to apply a card's damage: allowed to the target's owner, or to the card's
   * author when the world allows it; Vigilance is spent from an actor the asker owns, other than
   * the target, 1 to its held charges, a d6's roll.
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #requestApply(payload, userId) {
    const user = game.users?.get(userId);
    const { message, key, target } = await TacticalChat.#card(payload);
    if (!TacticalChat.mayApply(user, message, target)) throw new Error(format("ICONENGINE.Trust.MayNotApply", { name: target.name ?? "" }));
    /** @type {ApplyChoice} */
    const choice = { saved: payload.saved === true };
    if (payload.vigilance !== undefined && payload.vigilance !== 0) {
      const vigilance = wholeIn(payload.vigilance, 1, 6);
      const charges = wholeIn(payload.vigilanceCharges, 1, MAX_VIGILANCE);
      const spender = await actorOf(payload.vigilanceBy);
      if (vigilance === null || charges === null || !spender || !user || spender.uuid === target.uuid || !spender.testUserPermission(user, "OWNER")) {
        throw new Error(localize("ICONENGINE.Trust.BadVigilance"));
      }
      Object.assign(choice, { vigilance, vigilanceBy: spender.uuid, vigilanceCharges: charges });
    }
    await TacticalChat.applyDamage(message, key, choice);
  }

  /**
   * A player asks the GM to undo a card's applied damage: allowed to whoever may apply it.
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #requestUndo(payload, userId) {
    const { message, key, target } = await TacticalChat.#card(payload);
    if (!TacticalChat.mayApply(game.users?.get(userId), message, target)) {
      throw new Error(format("ICONENGINE.Trust.MayNotApply", { name: target.name ?? "" }));
    }
    await TacticalChat.undoDamage(message, key);
  }

  /**
   * A player asks the GM to deal a target's Counter damage back: allowed to the GM, the damaged
   * target's owner, and the attacker's owner.
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #requestCounter(payload, userId) {
    const user = game.users?.get(userId);
    const { message, key, target } = await TacticalChat.#card(payload);
    const attacker = await TacticalChat.#attacker(message);
    if (!user || !(user.isGM || target.testUserPermission(user, "OWNER") || attacker.testUserPermission(user, "OWNER"))) {
      throw new Error(localize("ICONENGINE.Trust.MayNotCounter"));
    }
    await TacticalChat.counterDamage(message, key);
  }

  /**
   * The record of a card's applied damage: the GM's own if its client applied it, else the
   * message's flag (see {@link DamageRecord}).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @returns {DamageRecord | null}
   */
  static record(message, key) {
    const own = GmRecords.damage(message.id, key);
    if (own) return { applied: own, byGM: true };
    const flag = /** @type {Record<string, AppliedDamage> | undefined} */ (message.getFlag(SYSTEM_ID, "damageApplied"))?.[key];
    return flag && typeof flag === "object" ? { applied: flag, byGM: false } : null;
  }

  /**
   * Whether a record may change an actor: the GM's record any; a message's flag only the actors
   * its author owns (all of them for a GM's message).
   * @param {DamageRecord} record
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} actor
   */
  static #covers(record, message, actor) {
    if (record.byGM) return true;
    const author = message.author;
    return !!author && (author.isGM || actor.testUserPermission(author, "OWNER"));
  }

  /**
   * The attacker a card names, who must be its author's (a player attacks with an actor they own).
   * @param {ChatMessage.Implementation} message
   * @returns {Promise<Actor.Implementation>}
   */
  static async #attacker(message) {
    const attacker = await actorOf(message.getFlag(SYSTEM_ID, "tactical")?.attacker);
    const author = message.author;
    if (!attacker || !author || !(author.isGM || attacker.testUserPermission(author, "OWNER"))) {
      throw new Error(localize("ICONENGINE.Trust.NoAttacker"));
    }
    return attacker;
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    // Private to this viewer (blind): Foundry rendered "???" cards, and nothing is added.
    if (!message.isContentVisible || !html.querySelector(".tactical-apply")) return;
    for (const block of html.querySelectorAll(".tactical-apply[data-key]")) {
      const key = Number(/** @type {HTMLElement} */ (block).dataset.key);
      const roll = TacticalChat.damageRoll(message, key);
      const uuid = roll?.iconOptions.tactical?.target?.uuid;
      const target = typeof uuid === "string" ? foundry.utils.fromUuidSync(/** @type {ActorUuid} */ (uuid)) : null;
      const canAct = !!game.user?.isGM || (target instanceof Actor && TacticalChat.mayApply(game.user, message, /** @type {Actor.Implementation} */ (target)));
      const done = TacticalChat.record(message, key)?.applied;
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
      if (game.user?.isGM || await TacticalChat.#runsHere(message, key, socketAction, actor, choice)) {
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
   * Whether a player's client carries out an action itself: on their own card, when they own
   * every actor it changes and no GM's record is involved (what the GM's client applied, its
   * client undoes).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {"undoDamage" | "counterDamage" | "applyDamage"} action
   * @param {Actor.Implementation} target
   * @param {ApplyChoice} choice
   */
  static async #runsHere(message, key, action, target, choice) {
    if (!message.isAuthor || !target.isOwner) return false;
    const record = TacticalChat.record(message, key);
    if (record?.byGM) return false;
    const owned = async (/** @type {unknown} */ uuid) => !uuid || !!(await actorOf(uuid))?.isOwner;
    if (action === "applyDamage") return owned(choice.vigilanceBy);
    if (action === "undoDamage") return owned(record?.applied.vigilance?.uuid);
    return owned(message.getFlag(SYSTEM_ID, "tactical")?.attacker);
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
      const tactical = roll.iconOptions?.tactical;
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
   * The damage of a card's roll, computed again through the core: an attack's `icon.damage` from
   * the faces the roll stores (whatever total the message claims), a health card's
   * `icon.applyDamage` amount as the core accepts it; and its `icon.applyDamage` options.
   * @param {import("../dice/icon-roll.mjs").default} roll
   * @returns {Promise<{amount: number, options: Record<string, unknown>}>}
   */
  static async #damageOf(roll) {
    const { request, tactical } = roll.iconOptions;
    const options = applyOptionsOnly(tactical?.apply);
    if (tactical?.role === "health" && request?.kind === "icon.applyDamage") {
      const amount = wholeIn(/** @type {{amount?: unknown}} */ (request).amount, 0, 1_000_000);
      if (amount !== null) return { amount, options };
    } else if (tactical?.role === "damage" && request?.kind === "icon.damage") {
      const core = await loadCore();
      const faces = roll.dice.map(term => term.results.map(result => result.result));
      const outcome = /** @type {Done | {status: string}} */ (core.resolve(request, faces));
      if (outcome.status === "done") return { amount: Math.max(0, Number(/** @type {Done} */ (outcome).total) || 0), options };
    }
    throw new Error(localize("ICONENGINE.Trust.BadRoll"));
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
    // The card shows the roll's flavor as text; the message's flavor is HTML, so its names are escaped.
    const flavor = format("ICONENGINE.Vigilance.Roll", { name: spender.name, charges: String(charges), target: target.name ?? "" });
    const html = format("ICONENGINE.Vigilance.Roll", { name: escape(spender.name), charges: String(charges), target: escape(target.name ?? "") });
    const roll = await IconRoll.fromRequest({ kind: "dice", formula: spent.formula }, { flavor });
    await roll.evaluate();
    const holder = await actorOf(spender.uuid);
    await roll.toMessage({ speaker: holder ? ChatMessage.implementation.getSpeaker({ actor: holder }) : message.speaker, flavor: html });
    return { vigilance: roll.total ?? 0, vigilanceBy: spender.uuid, vigilanceCharges: charges };
  }

  /**
   * Apply a target's damage through the core's `icon.applyDamage` and record how to undo it: the
   * GM's client in its own record ({@link GmRecords}), a player's (on their own card, to actors
   * they own) in the message's flag; the flag shows the breakdown on the card either way. The
   * damage is the roll's, computed again from its faces; applied once per card and target.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {ApplyChoice} [choice]  A successful save against a save-for-half attack, a Vigilance roll.
   */
  static async applyDamage(message, key, { saved = false, vigilance = 0, vigilanceBy, vigilanceCharges = 0 } = {}) {
    if (TacticalChat.record(message, key)) throw new Error(localize("ICONENGINE.Trust.AlreadyApplied"));
    const roll = TacticalChat.damageRoll(message, key);
    const actor = roll ? await TacticalChat.#targetActor(roll) : null;
    if (!roll || !actor) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
    const tactical = /** @type {TacticalOptions} */ (roll.iconOptions.tactical);
    const { amount, options: base } = await TacticalChat.#damageOf(roll);
    /** @type {Record<string, unknown>} */
    const options = saved && tactical.saveForHalf ? savedOptions(base) : { ...base };
    const spender = vigilance > 0 ? await actorOf(vigilanceBy) : null;
    if (vigilance > 0 && !spender) throw new Error(localize("ICONENGINE.Vigilance.NoHolder"));
    const spent = spender ? await ActorHealth.spendVigilance(spender, vigilanceCharges, vigilance) : null;
    if (spent) options.vigilance = vigilance;
    try {
      const applied = await ActorHealth.applyDamageTo(actor, amount, options);
      if (spent) applied.vigilance = spent;
      if (game.user?.isGM && message.id) await GmRecords.setDamage(message.id, key, applied);
      await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}`, applied);
    } catch (error) {
      // Nothing is lost: charges spent on damage that was not applied come back.
      if (spent) await ActorHealth.refundVigilance(spent);
      throw error;
    }
  }

  /**
   * Counter: the damaged target deals its Counter damage back to the attacker ("When damaged by an
   * ability, deal 2 damage back"), as damage that is no ability's; once per applied damage. The
   * amount is the GM's record's, which its core computed from the target's statuses when it
   * applied the damage; a message's own record is computed again the same way from the target's
   * statuses now (and may only hit an attacker its author owns).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async counterDamage(message, key) {
    const record = TacticalChat.record(message, key);
    if (!record) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    const { applied } = record;
    if (applied.counterDone) return;
    const attacker = await TacticalChat.#attacker(message);
    if (!TacticalChat.#covers(record, message, attacker)) throw new Error(localize("ICONENGINE.Trust.NotCovered"));
    const counter = record.byGM ? wholeIn(applied.counter, 0, 100) ?? 0 : await TacticalChat.#counterNow(message, key, applied);
    if (!counter) return;
    const done = { ...applied, counterDone: true };
    if (record.byGM && message.id) await GmRecords.setDamage(message.id, key, done);
    await dottedFlags(message).setFlag(SYSTEM_ID, `damageApplied.${key}.counterDone`, true);
    // Its own card, with Undo (and Apply again after an Undo).
    await TacticalRolls.damage(attacker, counter, { source: "effect", ability: false, fromFoe: true },
      { label: "ICONENGINE.Status.counter.name" });
  }

  /**
   * The Counter damage a card's target deals back now, through the core: the damage it took was an
   * ability's and hurt it (the record says it took some), and its statuses now include Counter.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {AppliedDamage} applied
   * @returns {Promise<number>}
   */
  static async #counterNow(message, key, applied) {
    const roll = TacticalChat.damageRoll(message, key);
    const target = roll ? await TacticalChat.#targetActor(roll) : null;
    if (!roll || !target || !(Number(applied.dealt) > 0)) return 0;
    const { options } = await TacticalChat.#damageOf(roll);
    if (options.ability === false) return 0;
    const core = await loadCore();
    // One point of damage into a fresh target with the actor's statuses: what Counter deals back.
    const probe = { hp: 10, maxHp: 10, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: false, statuses: ActorStatuses.statusesOf(target) };
    const answer = /** @type {Done & {counter?: number}} */ (core.resolve({ kind: "icon.applyDamage", target: probe, amount: 1, source: "effect" }, []));
    return Number(answer.counter ?? 0);
  }

  /**
   * Undo an applied damage: the target's previous health fields and status effects, the turn's
   * Slashed, the Vigilance charges spent on it; only these, however the record reads, and only on
   * the actors the record covers ({@link DamageRecord}).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async undoDamage(message, key) {
    const record = TacticalChat.record(message, key);
    if (!record) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    const { applied } = record;
    const known = knownStatuses();
    const target = await actorOf(applied.targetUuid);
    const refund = vigilanceRefundOnly(applied.vigilance, known);
    const holder = refund ? await actorOf(refund.uuid) : null;
    // Every actor it would change is checked before anything changes.
    for (const actor of [target, holder]) {
      if (actor && !TacticalChat.#covers(record, message, actor)) throw new Error(localize("ICONENGINE.Trust.NotCovered"));
    }
    if (target) {
      const undo = healthUndoOnly(applied.undo, known);
      // Only effects the application made: status effects.
      undo.deleteEffects = undo.deleteEffects.filter(id => {
        const effect = target.effects.get(id);
        return !!effect && effect.statuses.size > 0 && [...effect.statuses].every(s => known.has(s));
      });
      await ActorHealth.undoHealth(target, undo);
      if (applied.slashed === true) await target.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
    }
    if (refund && holder) await ActorHealth.refundVigilance(refund);
    if (record.byGM && message.id) await GmRecords.setDamage(message.id, key, null);
    await dottedFlags(message).unsetFlag(SYSTEM_ID, `damageApplied.${key}`);
  }
}
