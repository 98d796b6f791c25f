import { SYSTEM_ID } from "./config.mjs";
import { format as t } from "./applications/i18n.mjs";

/**
 * @callback SocketHandler
 * @param {Record<string, unknown>} payload  As the asking client sent it: unchecked.
 * @param {string} userId  Who asked, as Foundry's server reports the sender (the handler checks
 *   they may). Never read from the payload: a client can write anything there.
 * @returns {Promise<unknown>}
 */

/**
 * @typedef {{kind: "request", id: string, type: string, payload: unknown}} SocketRequest
 * @typedef {{kind: "reply", id: string, to: string, ok: boolean, result?: unknown, error?: string}} SocketReply
 */

/**
 * The system's socket (`system.icon-engine`, enabled by `"socket": true` in system.json): a user
 * asks the active GM to do what they lack the permission for (e.g. apply damage to a token they
 * do not own). Exactly one GM (the active one) handles each request and answers the asker, with
 * the result or the reason it refused.
 *
 * Foundry's server relays a package socket message to every other client and appends the
 * sender's user id as the listener's last argument (socketlib relies on the same); that id, not
 * anything in the message, is who asked.
 */
export default class IconSocket {
  /** The socket channel Foundry gives a system. */
  static CHANNEL = `system.${SYSTEM_ID}`;

  /** How long a request waits for the GM's answer (the GM may disconnect meanwhile). */
  static TIMEOUT_MS = 30_000;

  /** @type {Map<string, SocketHandler>} */
  static #handlers = new Map();

  /** Requests of this client waiting for the GM's answer, by id. */
  /** @type {Map<string, {resolve: (value: unknown) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout>}>} */
  static #pending = new Map();

  /** Start listening (call once, at `ready`, when game.socket exists). */
  static register() {
    game.socket?.on(IconSocket.CHANNEL, (/** @type {unknown} */ message, /** @type {unknown} */ senderId) => {
      IconSocket.#onMessage(message, typeof senderId === "string" ? senderId : "").catch(error => console.error(error));
    });
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
   * Run a request as the GM: directly when this user is a GM, else through the socket, resolving
   * with the GM's result or rejecting with the GM's reason for refusing.
   * @param {string} type
   * @param {Record<string, unknown>} payload
   * @returns {Promise<unknown>}
   * @throws {Error} when no GM is connected, the GM refuses, or no answer comes.
   */
  static async executeAsGM(type, payload) {
    const handler = IconSocket.#handlers.get(type);
    if (!handler) throw new Error(`${SYSTEM_ID} | no socket handler for "${type}"`);
    const user = game.user;
    if (user?.isGM) return handler(payload, user.id ?? "");
    if (!game.users?.activeGM) throw new Error(t("ICONENGINE.Tactical.NoGM"));
    const id = foundry.utils.randomID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        IconSocket.#pending.delete(id);
        reject(new Error(t("ICONENGINE.Socket.NoAnswer")));
      }, IconSocket.TIMEOUT_MS);
      IconSocket.#pending.set(id, { resolve, reject, timer });
      /** @type {SocketRequest} */
      const request = { kind: "request", id, type, payload };
      game.socket?.emit(IconSocket.CHANNEL, request);
    });
  }

  /**
   * @param {unknown} message
   * @param {string} senderId  From Foundry's server.
   */
  static async #onMessage(message, senderId) {
    const kind = /** @type {{kind?: unknown} | null} */ (message)?.kind;
    // Anything else on the channel is not a request or a reply: ignored.
    if (kind === "reply") return IconSocket.#onReply(/** @type {SocketReply} */ (message), senderId);
    if (kind !== "request") return;
    // Only the active GM answers, so a request is carried out once.
    if (!game.users?.activeGM?.isSelf) return;
    const { id, type, payload } = /** @type {SocketRequest} */ (message);
    /** @type {SocketReply} */
    const reply = { kind: "reply", id: String(id), to: senderId, ok: false };
    try {
      const handler = IconSocket.#handlers.get(String(type));
      if (!handler) throw new Error(t("ICONENGINE.Socket.Unknown", { type: String(type) }));
      if (!game.users.get(senderId)) throw new Error(t("ICONENGINE.Socket.NoSender"));
      // The payload is whatever the client sent: handlers read named fields of a record.
      if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
        throw new Error(t("ICONENGINE.Socket.BadPayload", { type: String(type) }));
      }
      reply.result = await handler(/** @type {Record<string, unknown>} */ (payload), senderId);
      reply.ok = true;
    } catch (error) {
      console.warn(`${SYSTEM_ID} | socket request "${type}" from ${senderId} refused`, error);
      reply.error = error instanceof Error ? error.message : String(error);
    }
    // A result that cannot cross the socket is not needed by the asker.
    if (reply.ok) reply.result = IconSocket.#plain(reply.result);
    game.socket?.emit(IconSocket.CHANNEL, reply);
  }

  /**
   * An answer to one of this client's requests, from a GM.
   * @param {SocketReply} reply
   * @param {string} senderId
   */
  static #onReply(reply, senderId) {
    if (reply.to !== game.user?.id) return;
    const pending = IconSocket.#pending.get(reply.id);
    // Only a GM answers requests; anything else is forged.
    if (!pending || !game.users?.get(senderId)?.isGM) return;
    IconSocket.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(new Error(t("ICONENGINE.Socket.Refused", { message: String(reply.error ?? "") })));
  }

  /**
   * JSON-safe copy of a handler's result (documents and functions do not cross the socket).
   * @param {unknown} value
   * @returns {unknown}
   */
  static #plain(value) {
    try {
      return value === undefined ? null : JSON.parse(JSON.stringify(value));
    } catch {
      return null;
    }
  }
}
