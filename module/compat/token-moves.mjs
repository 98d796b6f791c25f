/**
 * A token moved by a teleport, through Foundry's own movement (`TokenDocument#move`), so the move
 * is a teleport's for everyone who reads it: its waypoint's action is `blink`, a movement action
 * whose config has `teleport: true` in both generations (CONFIG.Token.movement.actions), which
 * Foundry neither walks nor prices, and the system's movement checks skip (canvas/token-movement.mjs).
 * - Foundry 13: `move(waypoints, options)` (client/documents/token.d.mts in foundry-vtt-types 13.345).
 * - Foundry 14: `move(instruction, options)`, the instruction `{waypoints, method}` (API v14
 *   `TokenMovementInstruction` = `TokenMovementInstructionWaypoints & TokenMovementInstructionOptions`).
 */
import { generation } from "./generation.mjs";

/** The movement action of a teleport (v13's and v14's `CONFIG.Token.movement.actions.blink`, `teleport: true`). */
export const TELEPORT_ACTION = "blink";

/**
 * Teleport a token's top-left corner to `to` (pixels). `options` are the update operation's: they
 * reach the hooks of the update (and the movement's `updateOptions`).
 * @param {TokenDocument.Implementation} token
 * @param {{x: number, y: number}} to
 * @param {Record<string, unknown>} [options]
 * @returns {Promise<boolean>}  Whether the token moved.
 */
export async function teleportToken(token, { x, y }, options = {}) {
  const waypoint = { x, y, action: TELEPORT_ACTION };
  const mover = /** @type {{move(what: unknown, options?: Record<string, unknown>): Promise<boolean>}} */ (/** @type {unknown} */ (token));
  if (generation() >= 14) return mover.move({ waypoints: [waypoint], method: "api" }, options);
  return mover.move([waypoint], { method: "api", ...options });
}
