/**
 * Vigilance charges: "Vigilance X: A special effect with X charges, each represented by a d6. [...]
 * Vigilance charges stack if a character gains more than one. A character can spend any number of
 * charges of Vigilance for one of the following effects, rolling 1d6 per charge spent and picking
 * the highest result: When an ally in range 2 is damaged by a foe's ability, reduce the damage by
 * the amount rolled as if with armor [...]" (Rules Reference, Tactical Combat, special effects).
 *
 * The charges are a number on the actor (`system.vigilance`); these pure functions say what gaining
 * and spending them do. The roll and the damage are the core's (`Nd6kh1`, `icon.applyDamage`'s
 * `vigilance`).
 */
import { LIMITS } from "./rules.mjs";

/** The most charges an actor holds (the data model's maximum). */
export const MAX_VIGILANCE = LIMITS.vigilance[1];

/**
 * The charges an actor's system data holds (0 for actors without ICON health).
 * @param {{vigilance?: unknown} | null | undefined} system
 * @returns {number}
 */
export function vigilanceHeld(system) {
  const n = Math.trunc(Number(system?.vigilance ?? 0));
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_VIGILANCE) : 0;
}

/**
 * Gaining Vigilance X: the charges stack onto those held.
 * @param {number} held
 * @param {number} gained
 * @returns {number | null}  The charges held after; null for a gain that is not a whole number of 1 or more.
 */
export function gainVigilance(held, gained) {
  if (!Number.isInteger(gained) || gained < 1) return null;
  return Math.min(MAX_VIGILANCE, held + gained);
}

/**
 * Spending charges: 1d6 each, the highest counts.
 * @param {number} held
 * @param {number} spent
 * @returns {{left: number, formula: string} | null}  The charges left and the dice to roll; null when
 *   `spent` is not a whole number from 1 to `held`.
 */
export function spendVigilance(held, spent) {
  if (!Number.isInteger(spent) || spent < 1 || spent > held) return null;
  return { left: held - spent, formula: `${spent}d6kh1` };
}

/**
 * @typedef {object} VigilanceSpender  Someone who may spend Vigilance on a damaged ally.
 * @property {string} uuid
 * @property {string} name
 * @property {number} held
 */

/**
 * Who may spend Vigilance on this damage: the actors the user may update that hold charges, other
 * than the damaged one ("When an ally in range 2 is damaged"), each once.
 * @param {{uuid: string, name: string | null, isOwner: boolean, system: unknown}[]} actors  Candidates (combatants, the user's character, controlled tokens).
 * @param {string} targetUuid  The damaged actor.
 * @returns {VigilanceSpender[]}
 */
export function vigilanceSpenders(actors, targetUuid) {
  /** @type {Map<string, VigilanceSpender>} */
  const found = new Map();
  for (const actor of actors) {
    const held = vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system));
    if (!actor.isOwner || held < 1 || actor.uuid === targetUuid || found.has(actor.uuid)) continue;
    found.set(actor.uuid, { uuid: actor.uuid, name: actor.name ?? "", held });
  }
  return [...found.values()];
}
