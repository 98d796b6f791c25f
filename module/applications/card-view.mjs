import { SYSTEM_ID } from "../config.mjs";
import { isCoreLoaded } from "../core.mjs";
import { ABILITY_CARD_TEMPLATE, abilityCardContext } from "../dice/cards/ability-card.mjs";
import { TEMPLATES, appliedContext } from "../dice/cards/icon-tactical.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import SyncTemplates from "../dice/sync-templates.mjs";
import CardActions from "./card-actions.mjs";
import CardFacts, { SaveIndex, actorAt } from "./card-facts.mjs";
import { format, localize } from "./i18n.mjs";

/**
 * @import { CardFactsOf } from "./card-facts.mjs"
 */

/**
 * How the system's chat messages show, on every reader's client: the first `renderChatMessageHTML`
 * listener replaces what a message's author stored with what its checked data says. An ability's
 * card is rendered from {@link CardFacts}; a message of IconRolls shows its rolls, each resolved
 * again from its faces (its stored HTML and outcome are its author's claims). Only controls this
 * code rendered are wired, to {@link CardActions}, which derives everything a control does again.
 */
export default class CardView {
  /** The templates the synchronous render needs, compiled at init. */
  static get templates() {
    return [ABILITY_CARD_TEMPLATE, TEMPLATES.applied, ...IconRoll.chatTemplates];
  }

  /**
   * Listen first: call during `init`, before any other `renderChatMessageHTML` listener.
   */
  static register() {
    Hooks.on("renderChatMessageHTML", CardView.#onRender);
    SaveIndex.register();
    // A GM's record of an application changes what every card shows.
    Hooks.on("updateSetting", (/** @type {{key?: string}} */ setting) => {
      if (setting.key === `${SYSTEM_ID}.gmRecords`) CardView.#refreshCards();
    });
  }

  /** Render the cards in the log again (after the GM's records changed). */
  static #refreshCards() {
    const chat = /** @type {import("../types/chat-log.js").ChatLogMessages | undefined} */ (/** @type {unknown} */ (ui.chat));
    for (const message of /** @type {Iterable<ChatMessage.Implementation>} */ (game.messages ?? [])) {
      if (message.getFlag(SYSTEM_ID, "card") || message.getFlag(SYSTEM_ID, "damageApplied")) chat?.updateMessage(message);
    }
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    // Private to this viewer (blind): Foundry rendered "???" from the rolls; nothing is added.
    if (!message.isContentVisible) return;
    const content = /** @type {HTMLElement | null} */ (html.querySelector(".message-content"));
    if (!content) return;
    const card = message.getFlag(SYSTEM_ID, "card");
    const rolls = /** @type {unknown[]} */ (message.rolls).filter(r => r instanceof IconRoll);
    if (!card && !rolls.length) return;
    if (!isCoreLoaded() || !CardView.templates.every(t => SyncTemplates.has(t))) {
      // Shown once the core and the templates are there (a message rendered in the first moments of a session).
      content.replaceChildren(Object.assign(document.createElement("p"), { textContent: localize("ICONENGINE.Card.Loading") }));
      CardView.#whenReady(message);
      return;
    }
    try {
      if (card) CardView.#renderCard(message, content);
      else CardView.#renderRolls(message, content, /** @type {IconRoll[]} */ (rolls));
    } catch (error) {
      console.error(`${SYSTEM_ID} | card ${message.id}`, error);
      content.replaceChildren(Object.assign(document.createElement("p"), { className: "card-error", textContent: String(error instanceof Error ? error.message : error) }));
      return;
    }
    content.addEventListener("click", event => {
      const button = /** @type {HTMLElement} */ (event.target).closest?.("button[data-card-action]");
      // Not instanceof: a v14 detached chat window's nodes belong to that window's classes.
      if (!button || button.tagName !== "BUTTON") return;
      event.preventDefault();
      CardActions.click(/** @type {HTMLButtonElement} */ (button), message);
    });
  }

  /** @type {Set<string>} */
  static #waiting = new Set();

  /** @param {ChatMessage.Implementation} message */
  static #whenReady(message) {
    if (!message.id || CardView.#waiting.has(message.id)) return;
    CardView.#waiting.add(message.id);
    import("../core.mjs").then(core => Promise.all([core.loadCore(), SyncTemplates.ready])).then(() => {
      CardView.#waiting.delete(message.id ?? "");
      /** @type {import("../types/chat-log.js").ChatLogMessages | undefined} */ (/** @type {unknown} */ (ui.chat))?.updateMessage(message);
    }, error => console.error(error));
  }

  /**
   * An ability's card, from its facts.
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} content
   */
  static #renderCard(message, content) {
    const facts = CardFacts.of(message);
    if (!facts) {
      content.replaceChildren(Object.assign(document.createElement("p"), { textContent: localize("ICONENGINE.Card.Unreadable") }));
      return;
    }
    const context = abilityCardContext({
      card: facts.card,
      html: foundry.utils.cleanHTML(facts.card.html),
      userName: facts.userName,
      targets: facts.targets,
      answer: facts.answer,
      error: facts.error,
      gamble: facts.gamble,
      records: facts.records,
      viewer: CardView.viewer(facts),
      format: (key, data) => format(key, data)
    });
    content.innerHTML = SyncTemplates.render(ABILITY_CARD_TEMPLATE, context);
  }

  /**
   * What this client's user may press on a card.
   * @param {CardFactsOf} facts
   * @returns {import("../dice/cards/ability-card.mjs").Viewer}
   */
  static viewer(facts) {
    const user = game.user;
    return {
      mayApply: key => {
        const target = facts.actors[key];
        return !!target && CardActions.mayApply(user, facts.message, target);
      },
      maySave: key => !!facts.actors[key]?.isOwner,
      mayApplySelf: !!facts.user && (!!user?.isGM || !!facts.user.isOwner),
      userName: id => game.users?.get(id)?.name ?? localize("ICONENGINE.Card.SomeUser")
    };
  }

  /**
   * A message of IconRolls: each roll rendered again from its faces; a damage roll's apply block
   * shows its applied breakdown (from the records), or goes when this user may not apply it.
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} content
   * @param {IconRoll[]} rolls
   */
  static #renderRolls(message, content, rolls) {
    content.innerHTML = rolls.map(roll => roll.renderSync() ?? "").join("");
    // A healing card's Undo, for its author (or a GM) when its author owns the healed actor.
    const healed = /** @type {{actor?: unknown} | undefined} */ (message.getFlag(SYSTEM_ID, "healed"));
    const healedActor = healed ? actorAt(healed.actor) : null;
    if (healedActor && CardFacts.authorOwns(message, healedActor) && (game.user?.isGM || message.isAuthor) && healedActor.isOwner) {
      const undone = !!message.getFlag(SYSTEM_ID, "healUndone");
      const line = document.createElement(undone ? "p" : "button");
      if (line instanceof HTMLButtonElement) {
        line.type = "button";
        line.dataset.cardAction = "undoHeal";
        line.innerHTML = '<i class="fa-solid fa-rotate-left" inert></i> ';
        line.append(localize("ICONENGINE.Tactical.Undo"));
      } else {
        line.className = "card-applied";
        line.textContent = localize("ICONENGINE.Card.Undone");
      }
      content.querySelector(".tactical-heal")?.append(line);
    }
    for (const block of content.querySelectorAll(".tactical-apply[data-key]")) {
      const key = Number(/** @type {HTMLElement} */ (block).dataset.key);
      const target = CardActions.rollTarget(message, key);
      const canAct = !!target && CardActions.mayApply(game.user, message, target);
      const records = CardFacts.records(message, target ? Object.assign([], { [key]: target }) : [], null);
      const done = records.damage[String(key)];
      if (done) {
        const context = { ...appliedContext(done, key), targetName: target?.token?.name ?? target?.name ?? done.targetName, canUndo: canAct,
          counter: done.counter && !records.counter[String(key)] ? done.counter : 0 };
        block.outerHTML = SyncTemplates.render(TEMPLATES.applied, context);
      } else if (!canAct) {
        block.remove();
      }
    }
  }

  /**
   * The name a card shows for an actor uuid now.
   * @param {string} uuid
   */
  static nameOf(uuid) {
    const actor = actorAt(uuid);
    return actor ? (actor.token?.name ?? actor.name ?? "") : "";
  }
}
