import { SYSTEM_ID } from "./config.mjs";
import { boundedApplied, boundedEffect } from "./data/trust.mjs";

/**
 * @import { AppliedDamage } from "./dice/cards/icon-tactical.mjs"
 * @import { AppliedEffect } from "./dice/cards/ability-card.mjs"
 */

/**
 * @typedef {object} TickRecord  A clock tick the GM's client made from an action card.
 * @property {string} clockId
 * @property {number} ticks
 * @property {string} userId  Who asked.
 */

/**
 * @typedef {object} MessageRecords  What the GM's client carried out for one chat message.
 * @property {Record<string, AppliedDamage>} [damage]   Applied damage by the card's target key.
 * @property {Record<string, AppliedEffect>} [effects]  Applied parts by `${key}.${part}` (key -1: the card's user).
 * @property {Record<string, boolean>} [counter]        Counter dealt back, by target key; an undo of the damage leaves it dealt.
 * @property {TickRecord} [tick]
 */

/** The world setting that holds the records. */
export const RECORDS_SETTING = "gmRecords";

/**
 * The GM's own records of what its client carried out for chat cards: damage applied (with how to
 * undo it), parts applied, Counter dealt, clock ticks, by message id. They live in a hidden world
 * setting, which only users with the SETTINGS_MODIFY permission (by default the GMs and assistant
 * GMs) can write, so a player cannot forge or erase one the way they can rewrite their own
 * message's flags: an undo restores what this record says, a card ticks its clock once. See
 * docs/security.md.
 *
 * Bounded: a record holds ids, numbers and capped text (data/trust.mjs cuts each one as it is
 * written), a message's records at most {@link GmRecords.MAX_RECORD_BYTES} of JSON (a card whose
 * records are full refuses further applications before anything changes), and the setting the
 * records of at most {@link GmRecords.MAX_MESSAGES} messages and {@link GmRecords.MAX_BYTES} of
 * JSON (the oldest go first); a deleted message's records go with it.
 */
export default class GmRecords {
  /** Records are kept for at most this many messages (the oldest go first). */
  static MAX_MESSAGES = 200;

  /** The most JSON one message's records hold. */
  static MAX_RECORD_BYTES = 64 * 1024;

  /** The most JSON the setting holds. */
  static MAX_BYTES = 2 * 1024 * 1024;

  /** Register the setting and forget a deleted message's records (call at init). */
  static register() {
    game.settings?.register(SYSTEM_ID, RECORDS_SETTING, {
      scope: "world", config: false, type: Object, default: {}
    });
    Hooks.on("deleteChatMessage", (/** @type {ChatMessage.Implementation} */ message) => {
      if (game.user?.isActiveGM && message.id && GmRecords.#all()[message.id]) GmRecords.#forget(message.id);
    });
  }

  /** Writes, one after another: each reads what the one before it wrote. */
  static #queue = Promise.resolve();

  /** Deleted messages whose records go at the next write (a flushed chat log deletes many at once). */
  static #gone = new Set();

  /** @param {string} messageId */
  static #forget(messageId) {
    GmRecords.#gone.add(messageId);
    if (GmRecords.#gone.size === 1) GmRecords.#serial(() => GmRecords.#write(null, null)).catch(console.error);
  }

  /**
   * @param {() => Promise<void>} action
   * @returns {Promise<void>}
   */
  static #serial(action) {
    const run = GmRecords.#queue.then(action);
    GmRecords.#queue = run.catch(() => {});
    return run;
  }

  /** @returns {Record<string, MessageRecords>} */
  static #all() {
    const value = game.settings?.get(SYSTEM_ID, RECORDS_SETTING);
    return value && typeof value === "object" ? value : {};
  }

  /**
   * The records of a message (a copy of that message's, small by the bounds above).
   * @param {string | null | undefined} messageId
   * @returns {MessageRecords}
   */
  static of(messageId) {
    const found = messageId ? GmRecords.#all()[messageId] : undefined;
    return found && typeof found === "object" ? structuredClone(found) : {};
  }

  /**
   * Whether a message's records have room for another application (checked before one is made).
   * @param {string | null | undefined} messageId
   */
  static hasRoom(messageId) {
    return JSON.stringify(GmRecords.of(messageId)).length < GmRecords.MAX_RECORD_BYTES;
  }

  /**
   * The GM's record of a card's applied damage, if its client applied it.
   * @param {string | null | undefined} messageId
   * @param {number} key
   * @returns {AppliedDamage | null}
   */
  static damage(messageId, key) {
    return GmRecords.of(messageId).damage?.[String(key)] ?? null;
  }

  /**
   * Record (or, with null, forget) a card's applied damage. GM only.
   * @param {string} messageId
   * @param {number} key
   * @param {AppliedDamage | null} applied
   */
  static async setDamage(messageId, key, applied) {
    return GmRecords.#serial(() => GmRecords.#setSlot(messageId, "damage", String(key), applied ? boundedApplied(applied) : null));
  }

  /**
   * The GM's record of a card's applied part.
   * @param {string | null | undefined} messageId
   * @param {string} slot  `${key}.${part}`.
   * @returns {AppliedEffect | null}
   */
  static effect(messageId, slot) {
    return GmRecords.of(messageId).effects?.[slot] ?? null;
  }

  /**
   * Record (or, with null, forget) a card's applied part. GM only.
   * @param {string} messageId
   * @param {string} slot
   * @param {AppliedEffect | null} applied
   */
  static async setEffect(messageId, slot, applied) {
    return GmRecords.#serial(() => GmRecords.#setSlot(messageId, "effects", slot, applied ? boundedEffect(applied) : null));
  }

  /**
   * Whether a card's target dealt its Counter back.
   * @param {string | null | undefined} messageId
   * @param {number} key
   */
  static counter(messageId, key) {
    return GmRecords.of(messageId).counter?.[String(key)] === true;
  }

  /**
   * Record that a card's target dealt its Counter back. GM only.
   * @param {string} messageId
   * @param {number} key
   */
  static async setCounter(messageId, key) {
    return GmRecords.#serial(() => GmRecords.#setSlot(messageId, "counter", String(key), true));
  }

  /**
   * @param {string} messageId
   * @param {"damage" | "effects" | "counter"} group
   * @param {string} slot
   * @param {unknown} value  null: forget.
   */
  static async #setSlot(messageId, group, slot, value) {
    const records = GmRecords.of(messageId);
    const entries = /** @type {Record<string, unknown>} */ ({ ...records[group] });
    if (value === null) delete entries[slot];
    else entries[slot] = value;
    /** @type {Record<string, unknown>} */
    const next = { ...records, [group]: entries };
    if (!Object.keys(entries).length) delete next[group];
    if (JSON.stringify(next).length > GmRecords.MAX_RECORD_BYTES) {
      throw new Error(game.i18n?.localize("ICONENGINE.Trust.RecordsFull") ?? "records full");
    }
    await GmRecords.#write(messageId, Object.keys(next).length ? /** @type {MessageRecords} */ (next) : null);
  }

  /**
   * The clock tick a card made, if any.
   * @param {string | null | undefined} messageId
   * @returns {TickRecord | null}
   */
  static tick(messageId) {
    return GmRecords.of(messageId).tick ?? null;
  }

  /**
   * Record a card's clock tick. GM only.
   * @param {string} messageId
   * @param {TickRecord} tick
   */
  static async setTick(messageId, tick) {
    return GmRecords.#serial(() => GmRecords.#write(messageId, { ...GmRecords.of(messageId), tick }));
  }

  /**
   * Write a message's records (or, with null, forget them), and forget deleted messages'; the
   * oldest messages' records go past {@link GmRecords.MAX_MESSAGES} or {@link GmRecords.MAX_BYTES}.
   * @param {string | null} messageId
   * @param {MessageRecords | null} records  null: forget the message.
   */
  static async #write(messageId, records) {
    if (!game.user?.isGM) throw new Error(game.i18n?.localize("ICONENGINE.Trust.GMOnly") ?? "GM only");
    const all = { ...GmRecords.#all() };
    for (const id of GmRecords.#gone) delete all[id];
    GmRecords.#gone.clear();
    if (messageId) delete all[messageId];
    // Re-inserted last: the object's key order is the order of use, oldest first.
    if (messageId && records) all[messageId] = records;
    const keys = Object.keys(all);
    for (const old of keys.slice(0, Math.max(0, keys.length - GmRecords.MAX_MESSAGES))) delete all[old];
    let size = JSON.stringify(all).length;
    for (const old of Object.keys(all)) {
      if (size <= GmRecords.MAX_BYTES || old === messageId) break;
      size -= JSON.stringify(all[old]).length + old.length + 6;
      delete all[old];
    }
    await game.settings?.set(SYSTEM_ID, RECORDS_SETTING, all);
  }
}
