import { ICONENGINE, SYSTEM_ID } from "../../config.mjs";
import GmRecords from "../../gm-records.mjs";
import { bindNarrativeCard, narrativeEventOf } from "./card-buttons.mjs";
import ClockPanel from "./clock-panel.mjs";
import { applyNarrative, burdenPromptContext, narrativeNotices, takeBurdenEvent } from "./narrative-state.mjs";

/**
 * Narrative play in Foundry after a card is rendered: the action card's Take strain / Resist /
 * Critical strain buttons apply through the core's narrativeApply to the card's actor, Tick
 * ticks the chosen world clock, and a break prompts for the burden.
 */
export default class NarrativeCards {
  /** Start listening to chat message renders. */
  static register() {
    Hooks.on("renderChatMessageHTML", NarrativeCards.#onRender);
  }

  /**
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    const root = /** @type {HTMLElement|null} */ (html.querySelector(".icon-action-card"));
    if (!root) return;
    const applied = /** @type {string[]} */ (message.getFlag(SYSTEM_ID, "applied") ?? []);
    // The GM's record of the card's tick, whatever the message's flags say.
    if (GmRecords.tick(message.id)) applied.push("tickClock");
    bindNarrativeCard(root, ClockPanel.clocks, {
      narrative: (event, button) => NarrativeCards.#apply(message, root.dataset.actorUuid ?? "", event, button),
      tickClock: async id => {
        try {
          await ClockPanel.tickFromCard(message, id);
        } catch (error) {
          NarrativeCards.#report(error);
          throw error;
        }
        await NarrativeCards.#markApplied(message, "tickClock");
      }
    }, { applied, isGM: Boolean(game.user?.isGM) });
  }

  /**
   * Apply a narrative event to the card's actor; a break asks for the burden.
   * @param {ChatMessage.Implementation} message
   * @param {string} uuid
   * @param {object} event
   * @param {string} button
   */
  static async #apply(message, uuid, event, button) {
    const actor = /** @type {Actor.Implementation|null} */ (foundry.utils.fromUuidSync(uuid));
    if (!actor || actor.type !== "character") return NarrativeCards.#report(new Error(game.i18n?.localize("ICONENGINE.Narrative.NoActor")));
    if (!actor.isOwner) return NarrativeCards.#report(new Error(game.i18n?.format("ICONENGINE.Narrative.NotOwner", { name: actor.name })));
    const consequence = NarrativeCards.consequence(message, actor);
    if (!consequence) return NarrativeCards.#report(new Error(game.i18n?.localize("ICONENGINE.Narrative.NoActor")));
    event = narrativeEventOf(button, consequence);
    try {
      const { update, effects } = applyNarrative(/** @type {Actor.SystemOfType<"character">} */ (actor.system), event); // a character (checked above)
      await actor.update(update);
      await NarrativeCards.#markApplied(message, button);
      await NarrativeCards.#afterEffects(actor, effects);
    } catch (error) {
      NarrativeCards.#report(error);
      throw error;
    }
  }

  /**
   * What an action card's consequence buttons act with, from checked data: the card's character is
   * its author's claim, so it must be one its author may roll for (or the author a GM); the strain
   * and risk are its action roll's, resolved again from its faces, whatever the card's buttons carry.
   * Null when the card may not act on that character or has no action roll the core accepts.
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} actor  The character the card names.
   * @returns {{strain: number, risk: string} | null}
   */
  static consequence(message, actor) {
    const author = message.author;
    if (!author || !(author.isGM || actor.testUserPermission(author, "OWNER"))) return null;
    const roll = /** @type {import("../../dice/icon-roll.mjs").default | undefined} */ (message.rolls.find(r =>
      /** @type {{request?: {kind?: string}}} */ (r.options ?? {}).request?.kind === "icon.action"));
    const outcome = roll?.checkedOutcome?.() ?? null;
    if (!outcome) return null;
    const request = /** @type {{risk?: unknown} | undefined} */ (roll?.iconOptions.request);
    return { strain: Number(outcome.strain ?? 0), risk: typeof request?.risk === "string" ? request.risk : "risky" };
  }

  /**
   * Tell the table what happened, and ask a broken character for the burden.
   * @param {Actor.Implementation} actor
   * @param {import("./narrative-state.mjs").NarrativeEffect[]} effects
   */
  static async #afterEffects(actor, effects) {
    const { notices, chooseBurden } = narrativeNotices(effects, actor.name ?? "");
    for (const { key, data, level } of notices) ui.notifications?.[level](game.i18n?.format(key, data) ?? key);
    if (chooseBurden) await NarrativeCards.promptBurden(actor);
  }

  /**
   * A broken character names the burden and picks two actions; refused choices ask again.
   * @param {Actor.Implementation} actor
   */
  static async promptBurden(actor) {
    const { DialogV2 } = foundry.applications.api;
    const { renderTemplate } = foundry.applications.handlebars;
    for (;;) {
      // Only a broken character is asked.
      const content = await renderTemplate(ICONENGINE.templates.burdenPrompt, burdenPromptContext(/** @type {Actor.SystemOfType<"character">} */ (actor.system)));
      const data = await DialogV2.input({
        window: { title: game.i18n?.format("ICONENGINE.Narrative.BurdenTitle", { name: actor.name ?? "" }) ?? "" },
        content,
        rejectClose: false
      });
      if (!data) return;
      try {
        const { update } = applyNarrative(/** @type {Actor.SystemOfType<"character">} */ (actor.system), takeBurdenEvent(/** @type {Record<string, unknown>} */ (data)));
        await actor.update(update);
        return;
      } catch (error) {
        NarrativeCards.#report(error);
      }
    }
  }

  /**
   * Remember on the message what was applied, so the buttons stay disabled for everyone.
   * @param {ChatMessage.Implementation} message
   * @param {string} button
   */
  static async #markApplied(message, button) {
    if (button === "resist" || !message.isOwner) return;
    const applied = /** @type {string[]} */ (message.getFlag(SYSTEM_ID, "applied") ?? []);
    if (!applied.includes(button)) await message.setFlag(SYSTEM_ID, "applied", [...applied, button]);
  }

  /** @param {unknown} error */
  static #report(error) {
    console.error(error);
    ui.notifications?.error(error instanceof Error ? error.message : String(error));
  }
}
