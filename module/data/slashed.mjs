/**
 * Slashed: "Take 4 damage after you or an ally uses an ability that moves you, but no more than
 * once a turn." (Rules Reference, Tactical Combat, statuses.)
 *
 * "A turn" is any combatant's turn, as Defiance's "rest of the current turn" and Dangerous
 * Terrain's "only take this damage once a turn" read: the actor's flag
 * `flags.icon-engine.slashedThisTurn` is set when it takes Slashed damage in a running combat and
 * cleared on every fighter whenever a turn starts or ends (module/documents/combat-effects.mjs).
 * Outside combat there are no turns, so nothing is counted.
 */

/** The damage Slashed deals; the core refuses any other amount for a `slashed` source. */
export const SLASHED_DAMAGE = 4;

/** The flag (under the system's scope) that records Slashed damage taken this turn. */
export const SLASHED_FLAG = "slashedThisTurn";

/**
 * Whether Slashed damage may be taken now, and whether taking it counts against the turn.
 * @param {object} state
 * @param {boolean} state.inCombat        The actor fights in a started combat (there are turns).
 * @param {boolean} state.takenThisTurn   Its flag: Slashed damage already taken this turn.
 * @returns {{allowed: boolean, counts: boolean}}
 */
export function slashedLimit({ inCombat, takenThisTurn }) {
  if (!inCombat) return { allowed: true, counts: false };
  return { allowed: !takenThisTurn, counts: true };
}
