import { SYSTEM_ID } from "../config.mjs";
import IconRoll from "../dice/icon-roll.mjs";

/**
 * Behaviour of the system's chat cards after Foundry renders them. Cards are rendered from the
 * data in their flags; this only wires their buttons.
 */
export default class ChatCards {
  /** Start listening to chat message renders. */
  static register() {
    Hooks.on("renderChatMessageHTML", ChatCards.#onRender);
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    const odds = message.getFlag(SYSTEM_ID, "odds");
    if (!odds) return;
    for (const button of html.querySelectorAll("[data-icon-engine-action]")) {
      button.addEventListener("click", event => ChatCards.#onAction(event, message));
    }
  }

  /**
   * @param {Event} event
   * @param {ChatMessage.Implementation} message
   */
  static async #onAction(event, message) {
    const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    if (button.dataset.iconEngineAction !== "roll") return;
    button.disabled = true;
    try {
      await ChatCards.#rollFromOdds(message);
    } catch (error) {
      console.error(error);
      const text = error instanceof Error ? error.message : String(error);
      ui.notifications?.error(game.i18n?.format("ICONENGINE.Roll.Error", { message: text }) ?? text);
    } finally {
      button.disabled = false;
    }
  }

  /**
   * Roll the request an odds card describes.
   * @param {ChatMessage.Implementation} message
   */
  static async #rollFromOdds(message) {
    const { request, formula } = /** @type {import("../dice/odds-report.mjs").OddsReportData} */ (
      message.getFlag(SYSTEM_ID, "odds"));
    const roll = await IconRoll.fromRequest(request);
    await roll.evaluate();
    // The flavor is HTML, and the formula the card's author's text: escaped.
    await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker(), flavor: foundry.utils.escapeHTML(String(formula ?? "")) });
  }
}
