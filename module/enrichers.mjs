/**
 * Text enrichers for journals, items and chat:
 * - `[D]` shows the speaker's damage die;
 * - glossary and status terms become tooltips whose text comes from the rules reference's
 *   glossary pages (parsed by the core);
 * - `@Icon[attack boons=1]{label}` and `@Icon[action smash]` become roll links.
 * Every element is built with DOM APIs from parsed values, never from the raw match.
 *
 * Which chat messages are enriched: v13's ChatMessage#renderHTML enriches every message's content.
 * Players' and macros' messages keep that (a term in a player's line gets its tooltip, an
 * `@Icon` link rolls). Roll cards are not enriched (Foundry shows an element-less roll message's
 * rolls in place of its content). The system's own content cards, built from data (odds,
 * end-of-turn saves, turn announcements), are shown as stored: {@link IconEnrichers.guardSystemCards}.
 */

import { SYSTEM_ID } from "./config.mjs";
import { ACTIONS } from "./data/rules.mjs";

/** The request kinds `@Icon[...]` may name, and the core kind each maps to. */
const LINK_KINDS = {
  attack: "icon.attack",
  save: "icon.save",
  action: "icon.action",
  fortune: "icon.fortune",
  damage: "icon.damage",
  evasion: "icon.evasion"
};


/**
 * A translated string (the key itself before i18n is ready).
 * @param {string} key
 * @param {Record<string, string>} [data]
 * @returns {string}
 */
const t = (key, data) => {
  const i18n = typeof game === "undefined" ? undefined : game.i18n;
  return (data ? i18n?.format(key, data) : i18n?.localize(key)) ?? key;
};

/** Flags written bare in a link (`push`) rather than as `name=value`. */
const FLAGS = ["push", "temptFate", "canCrit"];

/**
 * The system's flags (under its scope) that mark its own content cards: odds (module/dice/
 * odds-report.mjs), end-of-turn saves and turn announcements (module/documents/combat-effects.mjs),
 * the `/icon help` card (module/applications/chat-commands.mjs, its content links made when posted),
 * an item's use card (module/applications/item-use.mjs, its text enriched when posted).
 */
export const SYSTEM_CARDS = Object.freeze(["odds", "saves", "announcement", "help", "use"]);

export default class IconEnrichers {
  /**
   * Show the system's own content cards as they were stored, not as v13's ChatMessage#renderHTML
   * enriched them: the glossary would put tooltips into their labels, and a name in them (an
   * actor's, a combatant's) could become a link or an inline roll. Registered before any other
   * chat render hook, so the listeners those bind stay on the elements shown. The stored content
   * is what Foundry would have enriched, so showing it as it is adds nothing.
   */
  static guardSystemCards() {
    Hooks.on("renderChatMessageHTML", (message, html) => {
      if (!IconEnrichers.isSystemCard(message)) return;
      const content = html.querySelector(".message-content");
      if (content) content.innerHTML = message.content ?? "";
    });
  }

  /**
   * Is this message one of the system's own content cards (see {@link SYSTEM_CARDS})? A roll
   * message never is: Foundry shows its rolls.
   * @param {{content?: string | null, isRoll?: boolean, getFlag(scope: string, key: string): unknown}} message
   */
  static isSystemCard(message) {
    if (message.isRoll) return false;
    return SYSTEM_CARDS.some(flag => !!message.getFlag(SYSTEM_ID, flag));
  }

  /**
   * Parse the inside of `@Icon[...]`: a kind, then `name=value` pairs, bare flags, and for actions
   * the action's name (its rating is read from the actor when the link is used).
   * @param {string} text
   * @returns {{kind: string, action?: string, [field: string]: unknown}}
   */
  static parseLink(text) {
    const [word, ...rest] = text.trim().split(/\s+/);
    const kind = LINK_KINDS[/** @type {keyof typeof LINK_KINDS} */ (word?.toLowerCase())];
    if (!kind) throw new Error(t("ICONENGINE.Enricher.UnknownKind", { kind: word ?? "" }));
    /** @type {{kind: string, action?: string, [field: string]: unknown}} */
    const request = { kind };
    for (const part of rest) {
      const pair = /^([A-Za-z]+)=(-?\d+|[a-z]+)$/.exec(part);
      if (pair) {
        const value = Number.isNaN(Number(pair[2])) ? pair[2] : Number(pair[2]);
        if (pair[1] === "die" && typeof value === "string") request.die = Number(value.replace(/^d/, ""));
        else request[pair[1]] = value;
      } else if (FLAGS.includes(part)) request[part] = true;
      else if (kind === "icon.action" && /** @type {readonly string[]} */ (ACTIONS).includes(part.toLowerCase())) request.action = part.toLowerCase();
      else if (/^d(6|8|10|12)$/.test(part) && kind === "icon.damage") request.die = Number(part.slice(1));
      else if (["hit", "crit", "miss"].includes(part) && kind === "icon.damage") request.result = part;
      else throw new Error(t("ICONENGINE.Enricher.BadPart", { part }));
    }
    if (kind === "icon.action" && !request.action) {
      throw new Error(t("ICONENGINE.Enricher.NoAction"));
    }
    return request;
  }

  /**
   * A roll link for a parsed request.
   * @param {{kind: string, action?: string}} request
   * @param {string} [label]
   * @returns {HTMLAnchorElement}
   */
  static rollLink(request, label) {
    const a = document.createElement("a");
    a.classList.add("icon-roll-link", "content-link");
    a.dataset.iconRequest = JSON.stringify(request);
    const icon = document.createElement("i");
    icon.classList.add("fa-solid", "fa-dice-d20");
    icon.inert = true;
    a.append(icon, " ", label ?? IconEnrichers.#defaultLabel(request));
    a.dataset.tooltip = t("ICONENGINE.Enricher.RollTooltip");
    return a;
  }

  /**
   * A glossary term with its definition as the tooltip.
   * @param {string} text        The words as written.
   * @param {string} definition
   * @returns {HTMLSpanElement}
   */
  static term(text, definition) {
    const span = document.createElement("span");
    span.classList.add("icon-term");
    span.dataset.tooltip = definition;
    span.textContent = text;
    return span;
  }

  /**
   * `[D]` with the speaker's damage die (a number of faces), when one is known.
   * @param {number|null|undefined} faces
   * @returns {HTMLSpanElement}
   */
  static damageDie(faces) {
    const span = document.createElement("span");
    span.classList.add("icon-damage-die");
    span.textContent = faces ? `[d${faces}]` : "[D]";
    span.dataset.tooltip = t("ICONENGINE.Enricher.DamageDie");
    return span;
  }

  /**
   * A pattern matching any of the glossary's keys as whole words, longest first (so "Armor X"
   * wins over "Armor"); keys are escaped, never trusted as regex.
   * @param {string[]} keys
   * @returns {RegExp|null}
   */
  static termPattern(keys) {
    const words = [...new Set(keys.filter(Boolean))].sort((a, b) => b.length - a.length)
      .map(k => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return words.length ? new RegExp(`\\b(${words.join("|")})\\b`, "gi") : null;
  }

  /** Register the roll-link and damage-die enrichers, and the click handler of roll links. */
  static register() {
    const enrichers = CONFIG.TextEditor.enrichers;
    enrichers.push({
      pattern: /@Icon\[([^\]]+)\](?:\{([^}]+)\})?/g,
      enricher: async match => {
        try {
          return IconEnrichers.rollLink(IconEnrichers.parseLink(match[1]), match[2]);
        } catch (error) {
          const span = document.createElement("span");
          span.classList.add("icon-enricher-error");
          span.textContent = match[0];
          span.dataset.tooltip = error instanceof Error ? error.message : String(error);
          return span;
        }
      }
    });
    enrichers.push({
      pattern: /\[D\]/g,
      enricher: async (match, options) => {
        const doc = /** @type {{system?: {damageDie?: number}, actor?: {system?: {damageDie?: number}}}|undefined} */ (
          /** @type {unknown} */ (options?.relativeTo));
        return IconEnrichers.damageDie(doc?.system?.damageDie ?? doc?.actor?.system?.damageDie);
      }
    });
    IconEnrichers.listenTo(document);
    // v14 can render an ApplicationV2 (a journal, a sheet, the chat) in a detached browser window:
    // its document needs the listener too. In v13 every application is in `document`.
    Hooks.on("renderApplicationV2", (app, element) => IconEnrichers.listenTo(element.ownerDocument));
  }

  /** Documents whose roll-link clicks are handled. @type {WeakSet<Document>} */
  static #listening = new WeakSet();

  /**
   * Handle roll-link clicks in a document (once per document).
   * @param {Document} doc
   */
  static listenTo(doc) {
    if (IconEnrichers.#listening.has(doc)) return;
    IconEnrichers.#listening.add(doc);
    doc.addEventListener("click", IconEnrichers.#onClick);
  }

  /**
   * Register the glossary-term enricher once the terms are known.
   * @param {{key: string, definition: string}[]} glossary
   */
  static registerGlossary(glossary) {
    const definitions = new Map(glossary.map(g => [g.key, g.definition]));
    const pattern = IconEnrichers.termPattern([...definitions.keys()]);
    if (pattern) {
      CONFIG.TextEditor.enrichers.push({
        pattern,
        enricher: async match => {
          const definition = definitions.get(match[1].toLowerCase());
          return definition ? IconEnrichers.term(match[1], definition) : null;
        }
      });
    }
  }

  /**
   * Roll a clicked link as the user's character (or controlled token): an action link reads the
   * action's dots from the actor.
   * @param {MouseEvent} event
   */
  static async #onClick(event) {
    // Not `instanceof Element`: a detached window's nodes belong to that window's Element class.
    const target = /** @type {Partial<Element> | null} */ (event.target);
    const link = /** @type {HTMLElement | null} */ (target?.closest?.(".icon-roll-link") ?? null);
    if (!link?.dataset.iconRequest) return;
    event.preventDefault();
    /** @type {{kind: string, action?: string, [field: string]: unknown}} */
    const { action, ...request } = JSON.parse(link.dataset.iconRequest);
    const actor = canvas?.tokens?.controlled[0]?.actor ?? game.user?.character ?? null;
    if (action) {
      const actions = /** @type {Record<string, number | {value?: number}> | undefined} */ (
        /** @type {{actions?: object}} */ (actor?.system ?? {}).actions);
      const dots = actions?.[action];
      request.rating = typeof dots === "number" ? dots : (dots?.value ?? 0);
    }
    try {
      const { IconRoll } = await import("./dice/_module.mjs");
      const roll = await IconRoll.fromRequest(request);
      await roll.toMessage({ speaker: ChatMessage.getSpeaker({ actor }) });
    } catch (error) {
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * @param {{kind: string, action?: string}} request
   * @returns {string}
   */
  static #defaultLabel(request) {
    const kind = request.kind.replace(/^icon\./, "");
    return request.action ? `${t(`ICONENGINE.Enricher.Kind.${kind}`)}: ${request.action}`
      : t(`ICONENGINE.Enricher.Kind.${kind}`);
  }
}
