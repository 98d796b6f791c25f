import OddsReport from "../dice/odds-report.mjs";
import { fortuneCommandRequest, parseFortune, rollFortune } from "./narrative/fortune.mjs";

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
    odds: ChatCommands.#odds,
    fortune: ChatCommands.#fortune,
    clocks: ChatCommands.#clocks
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
   * `/fortune R [+B] [-C]`: an ICON fortune roll of rating R (an action's dots, 0 to 4) with B
   * boons and C curses; `/fortune <action> [+B] [-C]` takes the rating and burden ticks of the
   * speaker's character's action (see narrative/fortune.mjs).
   * @type {ChatCommandHandler}
   */
  static async #fortune(args, chatData) {
    const localize = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    const command = parseFortune(args, action => localize(`ICONENGINE.ActionRating.${action}`));
    if (!command) {
      ui.notifications?.warn("ICONENGINE.Narrative.FortuneUsage", { localize: true });
      return;
    }
    const actor = command.action ? ChatMessage.implementation.getSpeakerActor(/** @type {ChatMessage.SpeakerData} */ (chatData.speaker)) : null;
    // Only a character has actions; the narrative fields are its own.
    const character = actor?.type === "character" ? /** @type {Actor.SystemOfType<"character">} */ (actor.system) : null;
    const answer = fortuneCommandRequest(command, character);
    if ("error" in answer) {
      ui.notifications?.warn(answer.error, { localize: true });
      return;
    }
    await rollFortune(answer.request, { speaker: chatData.speaker,
      action: command.action ? localize(`ICONENGINE.ActionRating.${command.action}`) : undefined });
  }

  /**
   * `/clocks`: open the world's progress clocks (loaded on demand: the panel needs Foundry).
   * @type {ChatCommandHandler}
   */
  static async #clocks() {
    const { default: ClockPanel } = await import("./narrative/clock-panel.mjs");
    return ClockPanel.open();
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
