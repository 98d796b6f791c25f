import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { MAX_MARKS, endedEffects, markEffectData, marksFor, marksOf } from "../data/marks.mjs";
import GmRecords from "../gm-records.mjs";
import IconSocket from "../icon-socket.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import LastingEffects from "./lasting-effects.mjs";
import { format } from "../applications/i18n.mjs";

/**
 * @import { Done } from "../types/core.js"
 * @typedef {import("../dice/icon-roll.mjs").default} IconRoll
 */

/**
 * Marks ("You can only place one mark at a time on each character and only one of each unique mark
 * can be active at a time"): placed and ended through the core's `icon.marks`, stored as effects
 * with the system's mark flag (module/data/marks.mjs). The GM places them for players' cards.
 */
export default class ActorMarks {
  /** The longest mark name the GM's client writes onto an effect (an ability's name). */
  static MAX_MARK_NAME = 100;

  /** The GM's placements, one after another, so a card's once-only check sees the one before. */
  static #queue = Promise.resolve();

  /**
   * The GM's side of placing marks: a message's `flags.icon-engine.tactical.mark` ({mark, targets})
   * placed by its attacker through the core's `icon.marks` (the placer's older mark on a target and
   * its same mark elsewhere end), on the targets the message's own attack rolls name, once per
   * message (the GM's record). Refused unless the asking user is a GM or the message's author and
   * owns the attacker. See docs/security.md.
   * @param {Record<string, unknown>} payload  `{messageId}`.
   * @param {string} userId  Who asked.
   * @returns {Promise<void>}
   */
  static placeMarks(payload, userId) {
    const run = ActorMarks.#queue.then(() => ActorMarks.#placeMarks(payload, userId));
    ActorMarks.#queue = run.then(() => {}, () => {});
    return run;
  }

  /**
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #placeMarks({ messageId }, userId) {
    const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(String(messageId))));
    if (!message) throw new Error(format("ICONENGINE.Rules.Mark.NoMessage"));
    const user = game.users?.get(userId);
    const tactical = /** @type {{attacker?: unknown, mark?: {mark?: unknown, targets?: unknown} | null} | undefined} */ (
      message.getFlag(SYSTEM_ID, "tactical"));
    const placer = typeof tactical?.attacker === "string" ? await fromUuid(/** @type {`Actor.${string}`} */ (tactical.attacker)) : null;
    if (!(placer instanceof Actor) || !user) throw new Error(format("ICONENGINE.Socket.NotAllowed"));
    if (!user.isGM && (message.author?.id !== userId || !placer.testUserPermission(user, "OWNER"))) {
      throw new Error(format("ICONENGINE.Socket.NotAllowed"));
    }
    const name = typeof tactical?.mark?.mark === "string" ? tactical.mark.mark.trim() : "";
    if (!name || name.length > ActorMarks.MAX_MARK_NAME) {
      throw new Error(format("ICONENGINE.Rules.Mark.BadName", { max: String(ActorMarks.MAX_MARK_NAME) }));
    }
    if (GmRecords.marksPlaced(message.id)) throw new Error(format("ICONENGINE.Rules.Mark.AlreadyPlaced"));
    if (!game.user?.isGM) throw new Error(format("ICONENGINE.Trust.GMOnly"));
    const targets = Array.isArray(tactical?.mark?.targets) ? tactical.mark.targets.filter(t => typeof t === "string") : [];
    // Only the targets the message's own attack rolls name.
    const rolled = new Set(/** @type {IconRoll[]} */ (message.rolls).map(r => r.iconOptions.tactical?.role === "attack" ? r.iconOptions.tactical.target?.uuid : null));
    let marked = false;
    for (const uuid of targets) {
      if (!rolled.has(uuid)) continue;
      const target = await fromUuid(/** @type {`Actor.${string}`} */ (uuid));
      if (!(target instanceof Actor)) continue;
      marked = true;
      await ActorMarks.placeMark(placer, /** @type {Actor.Implementation} */ (target), name);
    }
    if (marked) await GmRecords.setMarks(/** @type {string} */ (message.id), userId);
  }

  /**
   * @typedef {object} PlacedMark  What placing a mark did, for its undo.
   * @property {boolean} placed  It was placed, or is there already.
   * @property {string | null} created  The mark effect's id on the target (none when it was there already).
   * @property {{actor: string, source: ActiveEffect.Source}[]} ended  The mark effects it deleted.
   */

  /**
   * Place a mark through the core's `icon.marks` (the placer's older mark on the target ends,
   * unless `keepOld`: "If you place a mark on a character that already has a mark from you, you
   * choose which to keep or discard"; its same mark elsewhere ends; a summon "cannot be marked").
   * The same mark the placer already has on the target (a repeated request for one card's mark) is
   * kept as it is, not placed again, so repeats leave one mark effect. As the GM: the callers check who asks.
   * @param {Actor.Implementation} placer
   * @param {Actor.Implementation} target
   * @param {string} name  The unique mark.
   * @param {{keepOld?: boolean}} [options]
   * @returns {Promise<PlacedMark>}
   */
  static async placeMark(placer, target, name, { keepOld = false } = {}) {
    const core = await loadCore();
    const img = CONFIG.statusEffects.find(s => s.id === "marked")?.img ?? "icons/svg/target.svg";
    const stored = ActorMarks.#storedMarks();
    // "Summons ... cannot be marked".
    const summon = ActorStatuses.isSummon(target);
    const mark = { mark: name, placer: placer.uuid, target: target.uuid };
    const answer = /** @type {Done & {ended: import("../data/marks.mjs").Mark[], placed: boolean}} */ (core.resolve({ kind: "icon.marks",
      marks: ActorMarks.#marksFor(stored, { type: "place", placer: placer.uuid }), event: { type: "place", mark, keepOld, targetIsSummon: summon } }, []));
    const ended = await ActorMarks.#deleteMarks(stored, answer.ended);
    if (!answer.placed) return { placed: false, created: null, ended };
    const same = stored.filter(s => s.mark.mark === mark.mark && s.mark.placer === mark.placer && s.mark.target === mark.target);
    if (same.length) {
      // already there: kept (a copy left by an older version is one mark too many)
      const extra = same.slice(1).map(s => s.effectId).filter(id => target.effects.has(id));
      if (extra.length) await target.deleteEmbeddedDocuments("ActiveEffect", extra);
      return { placed: true, created: null, ended };
    }
    const data = markEffectData(mark, placer.name ?? "", SYSTEM_ID, format, img);
    const docs = await target.createEmbeddedDocuments("ActiveEffect", [/** @type {ActiveEffect.CreateData} */ (/** @type {unknown} */ (data))]);
    return { placed: true, created: docs?.[0]?.id ?? null, ended };
  }

  /**
   * The mark a placer already has on a target (its name), or null: before placing another, its
   * placer chooses which to keep.
   * @param {Actor.Implementation} placer
   * @param {Actor.Implementation} target
   * @returns {string | null}
   */
  static markOn(placer, target) {
    const found = marksOf([{ uuid: target.uuid, effects: target.effects.contents.map(e => ({ id: e.id, flags: e.flags })) }], SYSTEM_ID)
      .find(s => s.mark.placer === placer.uuid);
    return found?.mark.mark ?? null;
  }

  /**
   * "Marks end when the character that placed the mark is defeated": the marks the core's
   * `icon.marks` ends with this actor's defeat (those it placed, and those on it) are deleted.
   * Runs on the active GM when an actor gains the defeated status.
   * @param {Actor.Implementation} actor
   */
  static async endMarksOf(actor) {
    const core = await loadCore();
    const stored = ActorMarks.#storedMarks();
    const marks = ActorMarks.#marksFor(stored, { type: "defeated", id: actor.uuid });
    if (!marks.length) return;
    const answer = /** @type {Done & {ended: import("../data/marks.mjs").Mark[]}} */ (core.resolve({ kind: "icon.marks",
      marks, event: { type: "defeated", id: actor.uuid } }, []));
    await ActorMarks.#deleteMarks(stored, answer.ended);
  }

  /**
   * The marks an event concerns (`marksFor`), the excess of one character's past the core's limit
   * reported to the console.
   * @param {import("../data/marks.mjs").MarkedEffect[]} stored
   * @param {Parameters<typeof marksFor>[1]} event
   */
  static #marksFor(stored, event) {
    const { marks, over } = marksFor(stored, event);
    if (over) console.error(`${SYSTEM_ID} | marks: more than ${MAX_MARKS} marks concern ${event.type === "place" ? event.placer : event.id}; the first ${MAX_MARKS} are read`);
    return marks;
  }

  /**
   * The marks the fighters' effects hold, those the core would refuse left out (and each reported
   * once to the GM's console).
   * @returns {import("../data/marks.mjs").MarkedEffect[]}
   */
  static #storedMarks() {
    /** @type {import("../data/marks.mjs").MarkedEffect[]} */
    const malformed = [];
    const stored = marksOf(LastingEffects.fighters().map(a => ({ uuid: a.uuid, effects: a.effects.contents.map(e => ({ id: e.id, flags: e.flags })) })),
      SYSTEM_ID, malformed);
    for (const bad of malformed) {
      const key = `${bad.actorUuid}.ActiveEffect.${bad.effectId}`;
      if (ActorMarks.#reported.has(key) || !game.user?.isGM) continue;
      ActorMarks.#reported.add(key);
      console.error(`${SYSTEM_ID} | marks: the mark of ${key} is not one the core reads (a name, placer and target of 1 to 256 bytes); it is left out`,
        bad.mark);
    }
    return stored;
  }

  /** The malformed marks reported already, by effect UUID. */
  static #reported = new Set();

  /**
   * Delete the stored effects of marks the core ended.
   * @param {import("../data/marks.mjs").MarkedEffect[]} stored
   * @param {import("../data/marks.mjs").Mark[]} ended
   * @returns {Promise<{actor: string, source: ActiveEffect.Source}[]>}  The deleted effects' sources (an undo recreates them).
   */
  static async #deleteMarks(stored, ended) {
    /** @type {{actor: string, source: ActiveEffect.Source}[]} */
    const deleted = [];
    for (const gone of endedEffects(stored, ended)) {
      const doc = await fromUuid(/** @type {`Actor.${string}`} */ (gone.actorUuid));
      const effect = doc instanceof Actor ? doc.effects.get(gone.effectId) : undefined;
      if (!effect) continue;
      deleted.push({ actor: gone.actorUuid, source: effect.toObject() });
      await /** @type {Actor.Implementation} */ (doc).deleteEmbeddedDocuments("ActiveEffect", [gone.effectId]);
    }
    return deleted;
  }

  /**
   * Start listening: the GM places marks players ask for, and ends the marks of a character that
   * is defeated (any way: damage, the tracker, the token HUD).
   */
  static register() {
    IconSocket.registerHandler("placeMarks", ActorMarks.placeMarks);
    Hooks.on("createActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => {
      if (!game.users?.activeGM?.isSelf || !effect.statuses.has("defeated")) return;
      const actor = effect.parent;
      if (actor instanceof Actor) ActorMarks.endMarksOf(/** @type {Actor.Implementation} */ (actor)).catch(error => console.error(error));
    });
  }
}
