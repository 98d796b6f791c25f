/**
 * Marks as the module stores them: an ActiveEffect on the marked actor with the `marked` status
 * and `flags.icon-engine.mark = {mark, placer, placerName}` (the placer an actor UUID). The rules
 * (one mark per placer on each character, one of each unique mark, the end with the placer's
 * defeat) are the core's `icon.marks`; this only reads and writes effects. Pure: no Foundry API.
 */

/** The flag (under the system's scope) that holds a mark effect's mark. */
export const MARK_FLAG = "mark";

/**
 * @typedef {object} Mark  A mark as the core's `icon.marks` takes it.
 * @property {string} mark    The unique mark (an ability's name).
 * @property {string} placer  Who placed it (an actor UUID).
 * @property {string} target  On whom (an actor UUID).
 */

/**
 * @typedef {object} MarkedEffect  Where a mark is stored.
 * @property {string} actorUuid
 * @property {string} effectId
 * @property {Mark} mark
 */

/** The most UTF-8 bytes of a mark's name, placer or target (src/rulesets/icon/marks.rs `check`). */
export const MAX_MARK_FIELD_BYTES = 256;

/** The most marks the core's `icon.marks` takes at once (src/rulesets/icon/marks.rs `MAX_MARKS`). */
export const MAX_MARKS = 1000;

const utf8 = new TextEncoder();

/** Blank as Rust's `str::trim` sees it: nothing but Unicode White_Space (which U+0085 is, and U+FEFF is not). */
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/**
 * Whether the core's `icon.marks` takes this mark: its name, placer and target each 1 to
 * {@link MAX_MARK_FIELD_BYTES} bytes, not blank.
 * @param {Mark} mark
 * @returns {boolean}
 */
export function wellFormed(mark) {
  return [mark.mark, mark.placer, mark.target].every(v => typeof v === "string" && !BLANK.test(v)
    && (v.length <= MAX_MARK_FIELD_BYTES / 3 || utf8.encode(v).length <= MAX_MARK_FIELD_BYTES));
}

/**
 * The marks held by effects of some actors. A mark flag the core would refuse (a name of 300
 * characters, a blank one: an effect's owner may write its flags) is left out, so one malformed
 * mark does not make the core refuse everyone's; it is put in `malformed` for a report.
 * @param {{uuid: string, effects: {id: string | null, flags?: Record<string, unknown> | null}[]}[]} actors
 * @param {string} scope  The system id.
 * @param {MarkedEffect[]} [malformed]  Receives the marks left out.
 * @returns {MarkedEffect[]}
 */
export function marksOf(actors, scope, malformed = []) {
  /** @type {MarkedEffect[]} */
  const out = [];
  for (const actor of actors) {
    for (const effect of actor.effects) {
      const flag = /** @type {{mark?: unknown, placer?: unknown} | undefined} */ (
        /** @type {Record<string, unknown> | undefined} */ (effect.flags?.[scope])?.[MARK_FLAG]);
      if (!effect.id || typeof flag?.mark !== "string" || typeof flag.placer !== "string") continue;
      const held = { actorUuid: actor.uuid, effectId: effect.id, mark: { mark: flag.mark, placer: flag.placer, target: actor.uuid } };
      (wellFormed(held.mark) ? out : malformed).push(held);
    }
  }
  return out;
}

/**
 * The stored marks an `icon.marks` event can end, each mark once: a placement ends only its
 * placer's marks (its older mark on the target, the same mark elsewhere), a defeat only those
 * the defeated character placed or holds. The core's answer is the same as for the whole list,
 * and the list stays within {@link MAX_MARKS} unless one character placed more (then the first
 * are kept, and `over` says so).
 * @param {MarkedEffect[]} stored
 * @param {{type: "place", placer: string} | {type: "defeated", id: string}} event
 * @returns {{marks: Mark[], over: boolean}}
 */
export function marksFor(stored, event) {
  const key = (/** @type {Mark} */ m) => JSON.stringify([m.mark, m.placer, m.target]);
  /** @type {Map<string, Mark>} */
  const marks = new Map();
  for (const { mark } of stored) {
    const concerned = event.type === "place" ? mark.placer === event.placer : mark.placer === event.id || mark.target === event.id;
    if (concerned) marks.set(key(mark), mark);
  }
  const all = [...marks.values()];
  return { marks: all.slice(0, MAX_MARKS), over: all.length > MAX_MARKS };
}

/**
 * The stored effects of the marks the core ended.
 * @param {MarkedEffect[]} stored
 * @param {Mark[]} ended
 * @returns {MarkedEffect[]}
 */
export function endedEffects(stored, ended) {
  const key = (/** @type {Mark} */ m) => JSON.stringify([m.mark, m.placer, m.target]);
  const gone = new Set(ended.map(key));
  return stored.filter(s => gone.has(key(s.mark)));
}

/**
 * The ActiveEffect data of a placed mark.
 * @param {Mark} mark
 * @param {string} placerName
 * @param {string} scope  The system id.
 * @param {(key: string, data?: Record<string, string>) => string} format  i18n.
 * @param {string} img
 */
export function markEffectData(mark, placerName, scope, format, img) {
  return {
    name: format("ICONENGINE.Rules.Mark.name", { mark: mark.mark, placer: placerName }),
    img,
    statuses: ["marked"],
    description: format("ICONENGINE.Rules.Mark.hint", { mark: mark.mark, placer: placerName }),
    flags: { [scope]: { [MARK_FLAG]: { mark: mark.mark, placer: mark.placer, placerName }, ongoing: false } }
  };
}
