import { SYSTEM_ID } from "./config.mjs";

/**
 * @callback SocketHandler
 * @param {Record<string, unknown>} payload  As the asking client sent it: unchecked.
 * @param {string} userId  Who asked (the handler checks they may).
 * @returns {Promise<unknown>}
 */

/**
 * The system's socket (`system.icon-engine`, enabled by `"socket": true` in system.json): a user
 * asks the active GM to do what they lack the permission for (e.g. apply damage to a token they
 * do not own). Exactly one GM (the active one) handles each request.
 */
export default class IconSocket {
  /** The socket channel Foundry gives a system. */
  static CHANNEL = `system.${SYSTEM_ID}`;

  /** @type {Map<string, SocketHandler>} */
  static #handlers = new Map();

  /** Start listening (call once, at `ready`, when game.socket exists). */
  static register() {
    game.socket?.on(IconSocket.CHANNEL, IconSocket.#onMessage);
  }

  /**
   * Name a request type the GM can run.
   * @param {string} type
   * @param {SocketHandler} handler
   */
  static registerHandler(type, handler) {
    IconSocket.#handlers.set(type, handler);
  }

  /**
   * Run a request as the GM: directly when this user is a GM, else through the socket.
   * @param {string} type
   * @param {Record<string, unknown>} payload
   * @returns {Promise<unknown>}
   * @throws {Error} when no GM is connected.
   */
  static async executeAsGM(type, payload) {
    const handler = IconSocket.#handlers.get(type);
    if (!handler) throw new Error(`${SYSTEM_ID} | no socket handler for "${type}"`);
    const user = game.user;
    if (user?.isGM) return handler(payload, user.id ?? "");
    if (!game.users?.activeGM) throw new Error(game.i18n?.localize("ICONENGINE.Tactical.NoGM") ?? "No GM is connected.");
    game.socket?.emit(IconSocket.CHANNEL, { type, payload, userId: user?.id });
    return undefined;
  }

  /**
   * @param {{type: string, payload: Record<string, unknown>, userId: string}} message
   */
  static async #onMessage({ type, payload, userId }) {
    // Only the active GM answers, so a request is carried out once.
    if (!game.users?.activeGM?.isSelf) return;
    const handler = IconSocket.#handlers.get(type);
    if (!handler) return;
    try {
      await handler(payload, userId);
    } catch (error) {
      console.error(`${SYSTEM_ID} | socket request "${type}" failed`, error);
    }
  }
}
