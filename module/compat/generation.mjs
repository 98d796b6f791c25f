/**
 * Which Foundry generation runs, and what follows from it, in one place: each concern that
 * differs between Foundry 13 and 14 asks here and branches once, in its own module (message
 * modes: module/message-mode.mjs; chat commands: applications/chat-commands.mjs; areas:
 * canvas/area-placement.mjs; status durations: data/effect-duration.mjs; update operators:
 * compat/data-operators.mjs). dnd5e 5.3 branches on `game.release.generation` the same way.
 * docs/foundry-api.md ("Foundry 13 and 14") lists every API that differs and where.
 */

/**
 * The running generation (`game.release.generation`), 13 before `game` has one.
 * @returns {number}
 */
export function generation() {
  return /** @type {{game?: {release?: {generation?: number}}}} */ (globalThis).game?.release?.generation ?? 13;
}

/** v14 speaks of message modes, not roll modes (CONFIG.ChatMessage.modes, core.messageMode). */
export const usesMessageModes = () => generation() >= 14;

/**
 * v14 folds measured templates into Scene Regions (MeasuredTemplate deprecated until 16): an
 * ability's area is a Region placed with `RegionLayer#placeRegion`.
 */
export const usesRegionAreas = () => generation() >= 14;

/**
 * v14's chat input is a ProseMirror editor and its commands a registry
 * (`ChatLog.CHAT_COMMANDS`); v13 has the `chatMessage` hook only.
 */
export const usesChatCommandRegistry = () => generation() >= 14;

/**
 * v14's Active Effects v2: a duration `{value, units, expiry}` (and `start`), changes under
 * `system.changes`; v13's duration is `{rounds, turns, seconds, startRound, ...}`. Asked by
 * data/effect-duration.mjs only.
 */
export const usesEffectsV2 = () => generation() >= 14;

/** v14 deletes a key with `foundry.data.operators.ForcedDeletion`; v13 with a `-=key` update key. */
export const usesDataOperators = () => generation() >= 14;
