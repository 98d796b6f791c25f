import OddsReport from "../dice/odds-report.mjs";

/**
 * @callback ChatCommandHandler
 * @param {string} args        Everything after the command word, trimmed.
 * @param {{speaker?: object}} chatData  The chat data Foundry assembled (speaker, user).
 * @returns {Promise<unknown>}
 */

/**
 * The system's slash commands. v13 has no public chat-command API, so these hook `chatMessage`
 * (which fires before Foundry parses commands) and return false when they handle the input.
 */
export default class ChatCommands {
  /** @type {Record<string, ChatCommandHandler>} */
  static #commands = {
    odds: ChatCommands.#odds
  };

  /** Start listening to the chat input. */
  static register() {
    Hooks.on("chatMessage", ChatCommands.#onChatMessage);
  }

  /**
   * Is this text one of our commands? Exposed for tests and macros.
   * @param {string} message
   * @returns {{command: string, args: string} | null}
   */
  static parse(message) {
    const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(message.trim());
    if (!match) return null;
    const command = match[1].toLowerCase();
    if (!Object.hasOwn(ChatCommands.#commands, command)) return null;
    return { command, args: (match[2] ?? "").trim() };
  }

  /**
   * @param {unknown} chatLog
   * @param {string} message
   * @param {{speaker?: object}} chatData
   * @returns {false | void}  false stops Foundry from handling the message.
   */
  static #onChatMessage(chatLog, message, chatData) {
    const parsed = ChatCommands.parse(message);
    if (!parsed) return;
    // The hook cannot wait; errors are reported where the user looks.
    ChatCommands.#commands[parsed.command](parsed.args, chatData).catch(error => {
      console.error(error);
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    });
    return false;
  }

  /**
   * `/odds <formula>`: post the exact distribution of a dice formula.
   * @type {ChatCommandHandler}
   */
  static async #odds(formula, chatData) {
    if (!formula) {
      ui.notifications?.warn("ICONENGINE.Odds.Usage", { localize: true });
      return;
    }
    try {
      await OddsReport.toMessage({ kind: "dice", formula }, { speaker: chatData.speaker });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ui.notifications?.error(game.i18n?.format("ICONENGINE.Odds.Error", { message }) ?? message);
    }
  }
}
