/**
 * Dangerous Terrain: "Entering or exiting a dangerous terrain space causes a character to take 2
 * piercing damage. Characters can only take this damage once a turn." (Rules Reference, Tactical
 * Combat, glossary.)
 *
 * As Slashed's (module/data/slashed.mjs), "a turn" is any combatant's turn: the actor's flag
 * `flags.icon-engine.terrainThisTurn` is set when it takes the damage in a running combat and
 * cleared on every fighter whenever a turn starts or ends (module/documents/combat-effects.mjs).
 * The core deals nothing the second time (`terrainTakenThisTurn`, step `onceATurn`).
 */

/** The damage dangerous terrain deals; the core refuses any other amount. */
export const DANGEROUS_TERRAIN_DAMAGE = 2;

/** The flag (under the system's scope) that records dangerous terrain damage taken this turn. */
export const TERRAIN_FLAG = "terrainThisTurn";
