import { ICONENGINE, SYSTEM_ID } from "../config.mjs";
import OddsReport from "../dice/odds-report.mjs";
import { GUIDE_COLLECTION, GUIDE_ENTRY_ID, guideLink } from "../guide.mjs";
import { applyMode } from "../message-mode.mjs";
import { usesChatCommandRegistry } from "../compat/generation.mjs";
import { fortuneCommandRequest, parseFortune, rollFortune } from "./narrative/fortune.mjs";

/**
 * @callback ChatCommandHandler
 * @param {string} args        Everything after the command word, trimmed.
 * @param {{speaker?: object}} chatData  The chat data Foundry assembled (speaker, user).
 * @returns {Promise<unknown>}
 */

/**
 * One line of the command list.
 * @typedef {object} ChatCommandInfo
 * @property {string} syntax   How it is typed, placeholders in capitals or <angle brackets>.
 * @property {string} example  A line that runs it.
 * @property {string} hint     i18n key: what it does, in a sentence.
 * @property {string} guide    The slug of the guide heading (docs/guide.md) that explains it.
 */

/**
 * Every command the system answers, in the order the `/icon help` card lists them. The one
 * list the card, the guide's command table (docs/guide.md, held to it by
 * test/node/guide.test.mjs) and its browser test read.
 * @type {readonly ChatCommandInfo[]}
 */
export const COMMAND_LIST = Object.freeze([
  { syntax: "/odds <formula>", example: "/odds 4d6kh3", hint: "ICONENGINE.Help.odds", guide: "see-the-odds-odds" },
  { syntax: "/fortune R [+B] [-C]", example: "/fortune 2 +1", hint: "ICONENGINE.Help.fortune", guide: "narrative-rolls" },
  { syntax: "/clocks", example: "/clocks", hint: "ICONENGINE.Help.clocks", guide: "clocks" },
  { syntax: "/icon help", example: "/icon help", hint: "ICONENGINE.Help.help", guide: "chat-commands" },
  { syntax: "/icon guide", example: "/icon guide", hint: "ICONENGINE.Help.guide", guide: "icon-engine-guide" }
].map(info => Object.freeze(info)));

/**
 * The system's slash commands, registered as the running generation takes them (the one place
 * that branches for chat commands):
 * - Foundry 13 has no chat-command registry: they hook `chatMessage` (which fires before Foundry
 *   parses commands, with the typed text) and return false when they handle the input.
 * - Foundry 14's chat input is a ProseMirror editor: `chatMessage` sees its HTML (`<p>/odds 2d6</p>`),
 *   which the hook's pattern never matches, and a `/word` no registry knows throws. There the
 *   commands are entries of `ChatLog.CHAT_COMMANDS` (`{rgx, fn}`; core matches `rgx` against the
 *   HTML without its outer paragraph and calls `fn(command, match, chatData, createOptions)` on
 *   the chat log; false posts nothing), and what follows the command is read back as text.
 */
export default class ChatCommands {
  /** @type {Record<string, ChatCommandHandler>} */
  static #commands = {
    odds: ChatCommands.#odds,
    fortune: ChatCommands.#fortune,
    clocks: ChatCommands.#clocks,
    icon: ChatCommands.#icon
  };

  /**
   * `/icon <subcommand>`: the system's own commands. Anything else answers with the help card.
   * @type {Record<string, ChatCommandHandler>}
   */
  static #iconCommands = {
    help: ChatCommands.#help,
    guide: ChatCommands.#guide
  };

  /**
   * The commands registered: each command word, and each `/icon` subcommand as `icon <word>`.
   * @returns {string[]}
   */
  static get registered() {
    return [...Object.keys(ChatCommands.#commands), ...Object.keys(ChatCommands.#iconCommands).map(sub => `icon ${sub}`)];
  }

  /** Start listening to the chat input (at `init`, before the chat log is made). */
  static register() {
    if (!usesChatCommandRegistry()) {
      Hooks.on("chatMessage", ChatCommands.#onChatMessage);
      return;
    }
    const registry = /** @type {import("../types/foundry-v14").ChatLogV14} */ (/** @type {unknown} */ (foundry.applications.sidebar.tabs.ChatLog)).CHAT_COMMANDS;
    for (const word of Object.keys(ChatCommands.#commands)) {
      registry[word] = { rgx: new RegExp(`^(\\/${word})(?:\\s+([^]*))?$`, "i"), fn: ChatCommands.#onCommand };
    }
  }

  /**
   * v14's registry callback: the command's word (its key) and what followed it, as HTML.
   * @this {unknown}
   * @param {string} command
   * @param {RegExpMatchArray} match
   * @param {{speaker?: object}} chatData
   * @returns {Promise<false>}
   */
  static async #onCommand(command, match, chatData) {
    const parsed = ChatCommands.parse(`/${command} ${ChatCommands.textOf(match[2] ?? "")}`);
    if (parsed) await ChatCommands.#run(parsed, chatData);
    return false;
  }

  /**
   * The text of the chat editor's HTML (v14): tags dropped, `&amp;`, `&lt;`, ... read back, a line
   * break as a new line.
   * @param {string} html
   * @returns {string}
   */
  static textOf(html) {
    const template = document.createElement("template");
    template.innerHTML = html.replace(/<br\s*\/?>/gi, "\n").replace(/<\/p>\s*<p>/gi, "\n");
    return template.content.textContent ?? "";
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
    // The hook cannot wait.
    ChatCommands.#run(parsed, chatData);
    return false;
  }

  /**
   * Run a parsed command; errors are reported where the user looks.
   * @param {{command: string, args: string}} parsed
   * @param {{speaker?: object}} chatData
   */
  static async #run(parsed, chatData) {
    try {
      await ChatCommands.#commands[parsed.command](parsed.args, chatData);
    } catch (error) {
      console.error(error);
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
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
   * `/icon help` and `/icon` followed by anything it does not know.
   * @type {ChatCommandHandler}
   */
  static async #icon(args, chatData) {
    const [sub = "", ...rest] = args.split(/\s+/);
    const handler = Object.hasOwn(ChatCommands.#iconCommands, sub.toLowerCase()) ? ChatCommands.#iconCommands[sub.toLowerCase()] : null;
    if (handler) return handler(rest.join(" "), chatData);
    return ChatCommands.postHelp(chatData, args);
  }

  /**
   * `/icon help`: the command card.
   * @type {ChatCommandHandler}
   */
  static async #help(args, chatData) {
    return ChatCommands.postHelp(chatData);
  }

  /**
   * Post the help card: every command of {@link COMMAND_LIST}, what it does, an example and a
   * link to its page of the guide. Only the user who asked sees it.
   * @param {{speaker?: object}} [chatData]
   * @param {string} [unknown]  What followed `/icon` when it was not a subcommand, said on the card.
   * @returns {Promise<ChatMessage | undefined>}
   */
  static async postHelp(chatData = {}, unknown) {
    const localize = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    // Only a plain word is said back: the card's content links are enriched, and a user's
    // `@UUID[…]` or `[[/r …]]` must not become a link or a roll in it.
    const word = unknown?.trim().split(/\s+/)[0] ?? "";
    const said = /^[\p{L}\p{N}_-]{1,30}$/u.test(word) ? `/icon ${word}` : "/icon …";
    const context = {
      commands: COMMAND_LIST.map(info => ({ ...info, hint: localize(info.hint), link: guideLink(info.guide) })),
      unknown: unknown === undefined ? null : word ? game.i18n?.format("ICONENGINE.Help.Unknown", { command: said }) : localize("ICONENGINE.Help.NoSubcommand"),
      guide: guideLink("icon-engine-guide", localize("ICONENGINE.Help.OpenGuide"))
    };
    const html = await foundry.applications.handlebars.renderTemplate(ICONENGINE.templates.helpCard, context);
    // One of the system's own cards (module/enrichers.mjs SYSTEM_CARDS), shown as stored: its
    // content links are made now, and nothing else in it is enriched (no glossary tooltips).
    const content = await foundry.applications.ux.TextEditor.implementation.enrichHTML(html,
      { documents: true, links: false, rolls: false, embeds: false, custom: false });
    const messageData = applyMode({ speaker: chatData.speaker, content, flags: { [SYSTEM_ID]: { help: true } } }, "selfroll");
    return ChatMessage.implementation.create(messageData);
  }

  /**
   * `/icon guide`: open the guide (the compendium built from docs/guide.md).
   * @type {ChatCommandHandler}
   */
  static async #guide() {
    const pack = game.packs?.get(GUIDE_COLLECTION);
    // The guide pack holds JournalEntry documents (system.json); the collection's type is the union of all.
    const entry = /** @type {JournalEntry.Implementation | null | undefined} */ (/** @type {unknown} */ (pack ? await pack.getDocument(GUIDE_ENTRY_ID) : null));
    if (!entry) {
      ui.notifications?.warn("ICONENGINE.Help.NoGuide", { localize: true });
      return;
    }
    return entry.sheet?.render(true);
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
