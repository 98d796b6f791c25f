import { SYSTEM_ID } from "../config.mjs";
import { CARD_FLAG, cardRecord } from "../data/card-data.mjs";
import { knownStatuses } from "../data/trust.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import ActorTurns from "../documents/actor-turns.mjs";
import LastingEffects from "../documents/lasting-effects.mjs";
import { applyMode, createOptions } from "../message-mode.mjs";
import { documentAt } from "./card-facts.mjs";
import { format } from "./i18n.mjs";

/**
 * @import { AbilitySystem, CardRecord, CardTarget } from "../data/card-data.mjs"
 */

/**
 * Posting an ability's card (module/data/card-data.mjs): its record built from the item and the
 * use, its rolls, and the area it placed, which goes once the card is posted. The card is rendered
 * from that data on every reader's client (module/applications/card-view.mjs).
 */
export default class CardPost {
  /** The world setting that keeps a used ability's area on the map (off: the area goes once its card is posted). */
  static KEEP_AREAS_SETTING = "keepAreas";

  /**
   * The card of an item's use: its record (module/data/card-data.mjs), the Gamble d6 when a part
   * gambles, and the item's text as its sheet shows it (enriched, cleaned; cleaned again when shown).
   * @param {Item.Implementation} item
   * @param {{kind: "attack"|"save"|"card", targets: CardTarget[], combo?: "baseVersion"|"comboVersion"|"", rollMode?: string, template?: string,
   *   rolls?: IconRoll[]}} options
   * @returns {Promise<CardRecord>}
   */
  static async cardOf(item, { kind, targets, combo = "", template = "" }) {
    // A stance or an aura begins on its user: its ongoing parts last while it does.
    const cause = await LastingEffects.begin(item);
    const actor = /** @type {Actor.Implementation} */ (item.actor);
    const system = /** @type {AbilitySystem & {description?: string, combo?: string, hp?: {value?: number, max?: number}}} */ (item.system);
    const source = combo === "comboVersion" && system.combo ? system.combo : system.description ?? "";
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const enriched = await TextEditor.enrichHTML(source, { relativeTo: item, secrets: false, rollData: actor.getRollData() });
    const hp = /** @type {{hp?: {value?: number, max?: number}}} */ (actor.system).hp;
    const bloodied = !!hp?.max && Number(hp.value) * 2 <= Number(hp.max);
    return cardRecord({
      actor: actor.uuid, item: { uuid: item.uuid, name: item.name ?? "", img: item.img ?? "", type: item.type, system }, kind, combo,
      html: foundry.utils.cleanHTML(enriched), targets, user: { bloodied, slowTurn: ActorTurns.slowTurn(actor) }, template, cause
    }, knownStatuses());
  }

  /**
   * Post an item's card (a use that makes no attack).
   * @param {Item.Implementation} item
   * @param {{kind: "attack"|"save"|"card", targets: CardTarget[], combo?: "baseVersion"|"comboVersion"|"", rollMode?: string, template?: string}} options
   * @returns {Promise<ChatMessage.Implementation | null>}
   */
  static async useCard(item, options) {
    const actor = /** @type {Actor.Implementation} */ (item.actor);
    const card = await CardPost.cardOf(item, options);
    return CardPost.post(actor, card, await CardPost.gambleRolls(card), options.rollMode);
  }

  /**
   * "Gamble: Roll 1d6, then trigger an effect on a certain result or higher": one d6 for the use,
   * when one of its parts gambles.
   * @param {CardRecord} card
   * @returns {Promise<IconRoll[]>}
   */
  static async gambleRolls(card) {
    if (!card.parts.some(p => p.trigger === "gamble")) return [];
    const gamble = await IconRoll.fromRequest({ kind: "dice", formula: "1d6" }, { tactical: { role: "gamble" } });
    await gamble.evaluate();
    return [gamble];
  }

  /**
   * Post a card: its record in the message's flag, its rolls (Dice So Nice and roll modes see them),
   * a plain line of text as stored content (the card itself is rendered from its data on every reader's client).
   * @param {Actor.Implementation} actor
   * @param {CardRecord} card
   * @param {IconRoll[]} rolls
   * @param {string} [rollMode]
   * @returns {Promise<ChatMessage.Implementation | null>}
   */
  static async post(actor, card, rolls, rollMode) {
    const p = document.createElement("p");
    p.textContent = card.name || format(card.basic === "heavy" ? "ICONENGINE.Tactical.HeavyAttack" : "ICONENGINE.Tactical.LightAttack");
    /** @type {Record<string, unknown>} */
    const data = { speaker: ChatMessage.implementation.getSpeaker({ actor }), content: p.outerHTML, rolls, flags: { [SYSTEM_ID]: { [CARD_FLAG]: card } } };
    if (rolls.length) data.sound = CONFIG.sounds.dice;
    // A key of the chat's modes (v13 roll modes, v14 message modes: module/message-mode.mjs).
    if (rollMode) applyMode(data, rollMode);
    return /** @type {ChatMessage.Implementation | null} */ (await ChatMessage.implementation.create(/** @type {ChatMessage.CreateData} */ (data),
      /** @type {ChatMessage.Database.CreateOperation<undefined>} */ (rollMode ? createOptions(rollMode) : {})) ?? null);
  }

  /**
   * A used ability's area goes once its card is posted, unless the world keeps areas or the
   * ability lasts (an aura, a terrain effect).
   * @param {string} uuid  The template's.
   * @param {string[]} tags
   */
  static async resolveArea(uuid, tags) {
    if (!uuid || tags.includes("aura") || tags.includes("terrain")) return;
    if (game.settings?.get(SYSTEM_ID, /** @type {never} */ (CardPost.KEEP_AREAS_SETTING)) === true) return;
    const template = /** @type {MeasuredTemplateDocument.Implementation | null} */ (documentAt(uuid));
    if (template?.isOwner) await template.delete();
  }
}
