import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { MAX_MARKS, endedEffects, markEffectData, marksFor, marksOf } from "../data/marks.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import LastingEffects from "./lasting-effects.mjs";
import { format } from "../applications/i18n.mjs";

/**
 * @import { Done } from "../types/core.js"
 */

/**
 * Marks ("You can only place one mark at a time on each character and only one of each unique mark
 * can be active at a time"): placed and ended through the core's `icon.marks`, stored as effects
 * with the system's mark flag (module/data/marks.mjs). The GM places them for players' cards
 * (module/applications/card-actions.mjs).
 */
export default class ActorMarks {
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
   * Start listening: the GM ends the marks of a character that is defeated (any way: damage, the
   * tracker, the token HUD).
   */
  static register() {
    Hooks.on("createActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => {
      if (!game.users?.activeGM?.isSelf || !effect.statuses.has("defeated")) return;
      const actor = effect.parent;
      if (actor instanceof Actor) ActorMarks.endMarksOf(/** @type {Actor.Implementation} */ (actor)).catch(error => console.error(error));
    });
  }
}
