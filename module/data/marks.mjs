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

/**
 * The marks held by effects of some actors.
 * @param {{uuid: string, effects: {id: string | null, flags?: Record<string, unknown> | null}[]}[]} actors
 * @param {string} scope  The system id.
 * @returns {MarkedEffect[]}
 */
export function marksOf(actors, scope) {
  /** @type {MarkedEffect[]} */
  const out = [];
  for (const actor of actors) {
    for (const effect of actor.effects) {
      const flag = /** @type {{mark?: unknown, placer?: unknown} | undefined} */ (
        /** @type {Record<string, unknown> | undefined} */ (effect.flags?.[scope])?.[MARK_FLAG]);
      if (!effect.id || typeof flag?.mark !== "string" || typeof flag.placer !== "string") continue;
      out.push({ actorUuid: actor.uuid, effectId: effect.id, mark: { mark: flag.mark, placer: flag.placer, target: actor.uuid } });
    }
  }
  return out;
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
