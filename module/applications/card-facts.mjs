import { SYSTEM_ID } from "../config.mjs";
import { getCore, isCoreLoaded } from "../core.mjs";
import { CARD_FLAG, checkedCard } from "../data/card-data.mjs";
import { applyOptionsOnly, knownStatuses } from "../data/trust.mjs";
import { abilityRequest } from "../dice/cards/ability-card.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import LastingEffects from "../documents/lasting-effects.mjs";
import GmRecords from "../gm-records.mjs";

/**
 * @import { CardRecord } from "../data/card-data.mjs"
 * @import { AbilityAnswer, AppliedEffect, CardRecords, CheckedRoll, SaveFact, TargetFacts } from "../dice/cards/ability-card.mjs"
 * @import { AppliedDamage } from "../dice/cards/icon-tactical.mjs"
 * @import { Done } from "../types/core.js"
 * @typedef {import("../dice/icon-roll.mjs").default} IconRoll
 */

/**
 * @typedef {object} CardFactsOf  Everything a card's reader (or the GM applying it) knows of it.
 * @property {ChatMessage.Implementation} message
 * @property {CardRecord} card
 * @property {Actor.Implementation | null} user     The card's actor, when its author may use it.
 * @property {string} userName
 * @property {(Actor.Implementation | null)[]} actors  The targets' actors, by key.
 * @property {TargetFacts[]} targets
 * @property {AbilityAnswer | null} answer
 * @property {string} error
 * @property {number | null} gamble
 * @property {CardRecords} records
 * @property {string} cause  The stance or aura its ongoing parts last with (an effect of its user's), or "".
 */

/** The flag of a save rolled from a card: `{message, key}`. */
export const SAVE_FOR_FLAG = "saveFor";

/**
 * A document by uuid, read synchronously (an embedded one too: `Scene.x.Token.y`), or null.
 * @param {unknown} uuid
 * @returns {unknown}
 */
export function documentAt(uuid) {
  if (typeof uuid !== "string" || !uuid) return null;
  try {
    // Any document's uuid: the declared parameter takes only the uuids of primary documents' kinds.
    return /** @type {(uuid: string) => unknown} */ (foundry.utils.fromUuidSync)(uuid) ?? null;
  } catch {
    return null;
  }
}

/**
 * An actor (or an unlinked token's synthetic actor) by uuid, read synchronously, or null.
 * @param {unknown} uuid
 * @returns {Actor.Implementation | null}
 */
export function actorAt(uuid) {
  const doc = documentAt(uuid);
  return doc instanceof Actor ? /** @type {Actor.Implementation} */ (doc) : null;
}

/**
 * What a card knows, on this client, from checked data only: the card record cut to its shape, the
 * message's rolls resolved again from their faces through the core, the saves rolled for it (the
 * first valid one per target), the records of what was applied (the GM's own, else the message's
 * flags as far as its author's permissions go), and the core's `icon.ability` answer. The card's
 * render and every application read this same object, so what it shows is what a click does.
 */
export default class CardFacts {
  /**
   * The checked card record of a message, or null.
   * @param {ChatMessage.Implementation} message
   * @returns {CardRecord | null}
   */
  static cardOf(message) {
    return checkedCard(message.getFlag(SYSTEM_ID, CARD_FLAG), knownStatuses());
  }

  /**
   * Whether a message's author may act with an actor: a GM, or an owner of it.
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} actor
   */
  static authorOwns(message, actor) {
    const author = message.author;
    return !!author && (author.isGM || actor.testUserPermission(author, "OWNER"));
  }

  /**
   * A message's IconRolls of a tactical role (and key), resolved again from their faces: the
   * outcome the core gives for those faces, whatever outcome the message stores. A roll the core
   * refuses is left out.
   * @param {ChatMessage.Implementation} message
   * @param {string} role
   * @param {number} [key]
   * @returns {CheckedRoll | null}
   */
  static roll(message, role, key) {
    for (const roll of /** @type {IconRoll[]} */ (message.rolls)) {
      const options = /** @type {Record<string, unknown>} */ (roll.options ?? {});
      const tactical = /** @type {{role?: unknown, key?: unknown} | undefined} */ (options.tactical);
      if (tactical?.role !== role || (key !== undefined && tactical.key !== key)) continue;
      const checked = CardFacts.checkRoll(roll);
      if (checked) return checked;
    }
    return null;
  }

  /**
   * One IconRoll resolved again from its faces (null: no request, or the core refuses it).
   * @param {IconRoll} roll
   * @returns {CheckedRoll | null}
   */
  static checkRoll(roll) {
    const options = /** @type {Record<string, unknown>} */ (roll.options ?? {});
    const request = /** @type {import("../types/core.js").CoreRequest | undefined} */ (options.request);
    if (!request || typeof request !== "object" || !isCoreLoaded()) return null;
    try {
      const faces = roll.dice.map(term => term.results.map(result => result.result));
      const outcome = /** @type {Done | {status: string}} */ (getCore().resolve(request, faces));
      return outcome.status === "done" ? { request, outcome: /** @type {Done} */ (outcome), options } : null;
    } catch {
      return null;
    }
  }

  /**
   * The records of what was applied from a card. The GM's own records win; a message's flags
   * (written by whoever applied on their own client) count only for actors its author owns.
   * @param {ChatMessage.Implementation} message
   * @param {(Actor.Implementation | null)[]} actors  The targets by key.
   * @param {Actor.Implementation | null} user
   * @returns {CardRecords}
   */
  static records(message, actors, user) {
    const own = GmRecords.of(message.id);
    /** @type {CardRecords} */
    const out = { damage: { ...own.damage }, effects: { ...own.effects }, counter: { ...own.counter } };
    const covers = (/** @type {Actor.Implementation | null} */ actor) => !!actor && CardFacts.authorOwns(message, actor);
    const flagDamage = /** @type {Record<string, AppliedDamage> | undefined} */ (message.getFlag(SYSTEM_ID, "damageApplied")) ?? {};
    for (const [key, applied] of Object.entries(flagDamage)) {
      if (!(key in out.damage) && applied && typeof applied === "object" && covers(actors[Number(key)] ?? null)) out.damage[key] = applied;
    }
    const flagEffects = /** @type {Record<string, Record<string, AppliedEffect>> | undefined} */ (message.getFlag(SYSTEM_ID, "effectsApplied")) ?? {};
    for (const [key, parts] of Object.entries(flagEffects)) {
      if (!parts || typeof parts !== "object") continue;
      const actor = key === "-1" ? user : actors[Number(key)] ?? null;
      for (const [part, applied] of Object.entries(parts)) {
        const slot = `${key}.${part}`;
        if (!(slot in out.effects) && applied && typeof applied === "object" && covers(actor)) out.effects[slot] = applied;
      }
    }
    const flagCounter = /** @type {Record<string, boolean> | undefined} */ (message.getFlag(SYSTEM_ID, "counterDealt")) ?? {};
    for (const [key, dealt] of Object.entries(flagCounter)) if (dealt === true) out.counter[key] = true;
    return out;
  }

  /**
   * The save a target rolled against a card: the first of the save messages linked to it
   * ({@link SAVE_FOR_FLAG}) whose author owns the target (or is a GM), resolved again.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {Actor.Implementation | null} actor
   * @returns {SaveFact | null}
   */
  static save(message, key, actor) {
    if (!actor || !message.id) return null;
    for (const id of SaveIndex.of(message.id, key)) {
      const save = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(id)));
      const author = save?.author;
      if (!save || !author || !(author.isGM || actor.testUserPermission(author, "OWNER"))) continue;
      const roll = /** @type {IconRoll | undefined} */ (save.rolls.find(r => /** @type {{request?: {kind?: string}}} */ (r.options ?? {}).request?.kind === "icon.save"));
      const checked = roll ? CardFacts.checkRoll(roll) : null;
      if (checked) return { success: !!checked.outcome.success, by: author.name ?? "", messageId: id };
    }
    return null;
  }

  /**
   * Everything a card's reader knows of it now (see {@link CardFactsOf}); null when the message
   * holds no card.
   * @param {ChatMessage.Implementation} message
   * @returns {CardFactsOf | null}
   */
  static of(message) {
    const card = CardFacts.cardOf(message);
    if (!card) return null;
    const claimed = actorAt(card.actor);
    // "Places a mark as another player's character": a card acts for its actor only when its author may.
    const user = claimed && CardFacts.authorOwns(message, claimed) ? claimed : null;
    const userName = claimed ? (claimed.token?.name ?? claimed.name ?? "") : "";
    // An attack made with no target keeps its rolls at key 0: a row of its own, which nothing applies to.
    const entries = card.targets.length || !CardFacts.roll(message, "attack", 0) ? card.targets : [{ actor: "", token: "" }];
    const actors = entries.map(t => actorAt(t.actor));
    const records = CardFacts.records(message, actors, user);
    const targets = entries.map((t, key) => CardFacts.#target(message, card, entries, key, actors[key], claimed, records));
    const gambleRoll = CardFacts.roll(message, "gamble");
    const gamble = gambleRoll ? Math.trunc(Number(gambleRoll.outcome.total)) : null;
    /** @type {AbilityAnswer | null} */
    let answer = null;
    let error = "";
    if (card.parts.length && isCoreLoaded()) {
      try {
        const request = abilityRequest(card, targets, { statuses: user ? ActorStatuses.statusesOf(user) : [] }, gamble);
        answer = /** @type {AbilityAnswer} */ (/** @type {unknown} */ (getCore().resolve(request, [])));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    } else answer = { targets: targets.map(() => ({ parts: [] })), self: [] };
    // A card whose author may not act for its actor places no mark and has no user to land a part on.
    if (answer && !user) {
      const refused = { lands: false, blockedBy: "notTheirs" };
      answer = { targets: answer.targets.map(t => ({ parts: t.parts.map(p => (p.mark ? { ...p, mark: refused } : p)) })), self: [] };
    }
    return { message, card, user, userName, actors, targets, answer, error, gamble, records, cause: LastingEffects.causeOn(card.cause, user) };
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {CardRecord} card
   * @param {CardRecord["targets"]} entries
   * @param {number} key
   * @param {Actor.Implementation | null} actor
   * @param {Actor.Implementation | null} user
   * @param {CardRecords} records
   * @returns {TargetFacts}
   */
  static #target(message, card, entries, key, actor, user, records) {
    const entry = entries[key];
    const token = /** @type {TokenDocument.Implementation | null} */ (documentAt(entry.token));
    const system = /** @type {{hp?: {value?: number, max?: number}, template?: string} | undefined} */ (actor?.system);
    const applied = records.damage[String(key)];
    const max = Number(system?.hp?.max ?? 0);
    const before = applied ? Number(applied.undo?.update?.["system.hp.value"] ?? system?.hp?.value ?? 0) : Number(system?.hp?.value ?? 0);
    return {
      key,
      uuid: entry.actor,
      // A token's own name ("Ash Hound B") before its actor's.
      name: token?.name ?? actor?.token?.name ?? actor?.name ?? (entry.actor ? "?" : game.i18n?.localize("ICONENGINE.Card.NoTarget") ?? ""),
      img: token?.texture?.src ?? actor?.img ?? "",
      exists: !!actor,
      attack: CardFacts.roll(message, "attack", key),
      damage: CardFacts.roll(message, "damage", key),
      save: card.save ? CardFacts.save(message, key, actor) : null,
      statuses: actor ? ActorStatuses.statusesOf(actor) : [],
      mob: actor?.type === "foe" && system?.template === "mob",
      summon: !!token?.getFlag?.(SYSTEM_ID, "summoned") || (!!actor && ActorStatuses.isSummon(actor)),
      fromFoe: !!user && !!actor && user.type !== actor.type,
      bloodied: max > 0 && before * 2 <= max,
      slain: !!applied && (applied.after?.hp === 0 || applied.after?.defeated === true)
    };
  }

  /**
   * A damage roll's options as the GM's client passes them on (see data/trust.mjs).
   * @param {CheckedRoll} roll
   */
  static applyOptions(roll) {
    return applyOptionsOnly(/** @type {{apply?: unknown} | undefined} */ (roll.options.tactical)?.apply);
  }
}

/**
 * Which save messages answer which card, so a card finds its targets' saves without reading the
 * whole chat log at each render: built once from the world's messages, then kept by the
 * create and delete hooks (which render the card again).
 */
export class SaveIndex {
  /** @type {Map<string, Map<number, string[]>> | null} */
  static #index = null;

  /**
   * The ids of the save messages linked to a card's target, oldest first.
   * @param {string} cardId
   * @param {number} key
   * @returns {string[]}
   */
  static of(cardId, key) {
    if (!SaveIndex.#index) {
      SaveIndex.#index = new Map();
      for (const message of /** @type {Iterable<ChatMessage.Implementation>} */ (game.messages ?? [])) SaveIndex.#add(message);
    }
    return SaveIndex.#index.get(cardId)?.get(key) ?? [];
  }

  /**
   * The card a save message answers, or null.
   * @param {ChatMessage.Implementation} message
   * @returns {{message: string, key: number} | null}
   */
  static linkOf(message) {
    const link = /** @type {{message?: unknown, key?: unknown} | undefined} */ (message.getFlag(SYSTEM_ID, SAVE_FOR_FLAG));
    if (typeof link?.message !== "string" || typeof link.key !== "number" || !Number.isInteger(link.key)) return null;
    return { message: link.message, key: link.key };
  }

  /** @param {ChatMessage.Implementation} message */
  static #add(message) {
    const link = SaveIndex.linkOf(message);
    if (!link || !message.id || !SaveIndex.#index) return;
    const keys = SaveIndex.#index.get(link.message) ?? new Map();
    SaveIndex.#index.set(link.message, keys);
    keys.set(link.key, [...(keys.get(link.key) ?? []), message.id]);
  }

  /** Keep the index, and show a card again when a save for it comes or goes. */
  static register() {
    Hooks.on("createChatMessage", (/** @type {ChatMessage.Implementation} */ message) => {
      const link = SaveIndex.linkOf(message);
      if (!link) return;
      if (SaveIndex.#index) SaveIndex.#add(message);
      SaveIndex.#refresh(link.message);
    });
    Hooks.on("deleteChatMessage", (/** @type {ChatMessage.Implementation} */ message) => {
      const link = SaveIndex.linkOf(message);
      if (!link) return;
      const ids = SaveIndex.#index?.get(link.message)?.get(link.key);
      if (ids) SaveIndex.#index?.get(link.message)?.set(link.key, ids.filter(id => id !== message.id));
      SaveIndex.#refresh(link.message);
    });
  }

  /** @param {string} cardId */
  static #refresh(cardId) {
    const card = game.messages?.get(cardId);
    if (card) /** @type {import("../types/chat-log.js").ChatLogMessages | undefined} */ (/** @type {unknown} */ (ui.chat))?.updateMessage(
      /** @type {ChatMessage.Implementation} */ (/** @type {unknown} */ (card)));
  }
}
