import { SYSTEM_ID } from "../config.mjs";
import { EFFECT_DURATIONS, USABLE_TYPES, consumption, usability, useKind } from "../data/ability-rules.mjs";
import { knownStatuses } from "../data/trust.mjs";
import { USE_CARD_TEMPLATE, useCardContext } from "../dice/cards/use-card.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import ActorMarks from "../documents/actor-marks.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import ActorTurns from "../documents/actor-turns.mjs";
import AreaPlacement from "../canvas/area-placement.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import IconSocket from "../icon-socket.mjs";
import { applyMode, createOptions, currentMode } from "../message-mode.mjs";
import AttackDialog from "./attack-dialog.mjs";
import TacticalChat from "./tactical-chat.mjs";
import { format } from "./i18n.mjs";

/**
 * @import { UseEffect, UseRecord, UseTarget } from "../dice/cards/use-card.mjs"
 * @import { AbilityLike } from "../data/ability-rules.mjs"
 */


/**
 * @typedef {object} UseConfig  What a use does; `icon-engine.preUseItem` may change it.
 * @property {"attack"|"save"|"card"} kind  An attack opens the attack dialog, a save calls for its
 *   targets' saves, a card posts the use card.
 * @property {boolean} consume     Spend a charge and the once-per limit.
 * @property {boolean} placeArea   Place the item's area on the scene first (its tokens become the targets).
 * @property {{x: number, y: number} | null} at  Place the area here (pixels) without a preview.
 * @property {string} rollMode
 */

/**
 * @typedef {object} UseOutcome
 * @property {"attack"|"save"|"card"} kind
 * @property {ChatMessage.Implementation | null} [message]  The use card (save and card uses).
 * @property {AttackDialog | null} [dialog]  The attack dialog (attack uses).
 * @property {MeasuredTemplateDocument.Implementation | null} template
 * @property {UseTarget[]} targets
 */

/**
 * Using an item (its sheet's or row's button, a hotbar macro, `game.system.api.useItem`): the
 * item's limits are checked (charges, once per turn/round/combat, interrupts), its area placed and
 * the tokens it covers targeted, then an attack opens the attack dialog filled from the item (the
 * charge is spent when the attack is rolled), a save calls for its targets' saves, and anything
 * else posts its use card with a button per effect. `icon-engine.preUseItem` (item, config) may
 * cancel the use or change it; `icon-engine.useItem` (item, outcome) follows.
 */
export default class ItemUse {
  /**
   * Use an item.
   * @param {Item.Implementation} item
   * @param {Partial<UseConfig>} [options]
   * @returns {Promise<UseOutcome | null>}  Null when refused or cancelled (a notice says why).
   */
  static async use(item, options = {}) {
    const actor = item.actor;
    if (!actor) throw new Error(format("ICONENGINE.Use.NoActor", { name: item.name ?? "" }));
    if (!USABLE_TYPES.includes(item.type)) throw new Error(format("ICONENGINE.Use.NotUsable", { name: item.name ?? "" }));
    const system = /** @type {AbilityLike} */ (item.system);
    /** @type {UseConfig} */
    const config = {
      kind: item.type === "ability" ? useKind(system) : "card",
      consume: true,
      placeArea: !!system.area?.shape,
      at: null,
      rollMode: currentMode(),
      ...options
    };
    if (!callPre(HOOKS.preUseItem, item, config)) return null;
    const refusal = ItemUse.refusal(item);
    if (refusal) {
      ui.notifications?.warn(refusal);
      return null;
    }
    /** @type {MeasuredTemplateDocument.Implementation | null} */
    let template = null;
    if (config.placeArea) {
      const placed = await AreaPlacement.place(item, { at: config.at });
      // Cancelled placement cancels the use; without a scene the use goes on with the targets as they are.
      if (!placed && canvas?.ready) return null;
      template = placed?.template ?? null;
    }
    const targets = ItemUse.userTargets();
    /** @type {UseOutcome} */
    let outcome;
    if (config.kind === "attack") {
      const dialog = /** @type {AttackDialog} */ (await AttackDialog.open(actor, { ability: item,
        beforeRoll: config.consume ? () => ItemUse.spend(item) : null }));
      outcome = { kind: "attack", dialog, template, targets };
    } else {
      if (config.consume) await ItemUse.spend(item);
      const combo = system.tags?.includes("combo") ? await ActorTurns.useCombo(actor) : null;
      const message = await ItemUse.postCard(item, { kind: config.kind, targets, combo, rollMode: config.rollMode });
      await ActorTurns.abilityUsed(actor);
      outcome = { kind: config.kind, message, template, targets };
    }
    callAfter(HOOKS.useItem, item, outcome);
    return outcome;
  }

  /**
   * Why the item cannot be used now (a sentence), or null.
   * @param {Item.Implementation} item
   * @returns {string | null}
   */
  static refusal(item) {
    const actor = item.actor;
    if (!actor) return format("ICONENGINE.Use.NoActor", { name: item.name ?? "" });
    const used = /** @type {Record<string, number> | undefined} */ (actor.getFlag(SYSTEM_ID, "interruptsUsed"));
    const refusal = usability(/** @type {AbilityLike} */ (item.system), { name: item.name ?? "", inCombat: ActorTurns.inCombat(actor),
      statuses: ActorStatuses.statusesOf(actor), interruptsUsed: Number(used?.[item.id ?? ""] ?? 0) });
    return refusal ? format(refusal.key, refusal.data) : null;
  }

  /**
   * Spend what a use costs: a charge, the once-per mark, and an interrupt's use until its owner's
   * turn. Throws when the item cannot be used any more (a charge went meanwhile).
   * @param {Item.Implementation} item
   */
  static async spend(item) {
    const refusal = ItemUse.refusal(item);
    if (refusal) throw new Error(refusal);
    const actor = /** @type {Actor.Implementation} */ (item.actor);
    const system = /** @type {AbilityLike} */ (item.system);
    const inCombat = ActorTurns.inCombat(actor);
    const update = consumption(system, { inCombat });
    // Dotted `system.*` keys, which Foundry's update expands.
    if (Object.keys(update).length) await item.update(/** @type {Item.UpdateData} */ (/** @type {unknown} */ (update)));
    if (system.actions === "interrupt" && inCombat) {
      // "Interrupts refresh at the start of the owner's turn" (module/documents/combat-effects.mjs clears the flag).
      const used = /** @type {Record<string, number>} */ ({ ...(/** @type {object | undefined} */ (actor.getFlag(SYSTEM_ID, "interruptsUsed")) ?? {}) });
      used[item.id ?? ""] = (used[item.id ?? ""] ?? 0) + 1;
      await actor.setFlag(SYSTEM_ID, "interruptsUsed", /** @type {never} */ (used));
    }
  }

  /**
   * The user's targeted tokens, as the use card names them.
   * @returns {UseTarget[]}
   */
  static userTargets() {
    /** @type {UseTarget[]} */
    const out = [];
    for (const token of game.user?.targets ?? []) {
      const actor = token.actor;
      if (!actor) continue;
      out.push({ uuid: actor.uuid, name: token.name ?? actor.name ?? "", img: token.document?.texture?.src ?? actor.img ?? "" });
    }
    return out;
  }

  /**
   * Post an item's use card.
   * @param {Item.Implementation} item
   * @param {{kind: "attack"|"save"|"card", targets: UseTarget[], combo?: "baseVersion"|"comboVersion"|null, rollMode?: string}} options
   * @returns {Promise<ChatMessage.Implementation | null>}
   */
  static async postCard(item, { kind, targets, combo = null, rollMode }) {
    const actor = /** @type {Actor.Implementation} */ (item.actor);
    const system = /** @type {AbilityLike & {description?: string, combo?: string, effects?: UseEffect[], save?: {enabled?: boolean, boons?: number, curses?: number}}} */ (
      item.system);
    /** @type {UseRecord} */
    const record = {
      actor: actor.uuid,
      item: item.uuid,
      name: item.name ?? "",
      kind,
      effects: (system.effects ?? []).map(e => ({ trigger: e.trigger, status: e.status, duration: e.duration, mark: e.mark, movement: e.movement, text: e.text })),
      targets,
      save: kind === "save" ? { boons: system.save?.boons ?? 0, curses: system.save?.curses ?? 0 } : null,
      combo
    };
    const source = combo === "comboVersion" && system.combo ? system.combo : system.description ?? "";
    // The item's text as its sheet shows it ([D] its owner's die, roll links), then cleaned: the
    // card is stored and shown as it is (one of the system's own cards).
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const enriched = await TextEditor.enrichHTML(source, { relativeTo: item, secrets: false, rollData: actor.getRollData() });
    const html = foundry.utils.cleanHTML(enriched);
    const context = useCardContext({ item: { name: item.name ?? "", img: item.img ?? "", type: item.type, system }, html, record,
      format: (key, data) => format(key, data) });
    const content = await foundry.applications.handlebars.renderTemplate(USE_CARD_TEMPLATE, context);
    /** @type {Record<string, unknown>} */
    const data = { speaker: ChatMessage.implementation.getSpeaker({ actor }), content, flags: { [SYSTEM_ID]: { use: record } } };
    // A key of the chat's modes (v13 roll modes, v14 message modes: module/message-mode.mjs).
    if (rollMode) applyMode(data, rollMode);
    return /** @type {ChatMessage.Implementation | null} */ (await ChatMessage.implementation.create(/** @type {ChatMessage.CreateData} */ (data),
      /** @type {ChatMessage.Database.CreateOperation<undefined>} */ (rollMode ? createOptions(rollMode) : {})) ?? null);
  }

  /**
   * The use record a card stores, or null.
   * @param {ChatMessage.Implementation} message
   * @returns {UseRecord | null}
   */
  static recordOf(message) {
    const record = /** @type {UseRecord | undefined} */ (message.getFlag(SYSTEM_ID, "use"));
    return record && typeof record === "object" ? record : null;
  }

  /** Wire use cards' buttons, and let the GM apply effects players ask for. */
  static register() {
    Hooks.on("renderChatMessageHTML", ItemUse.#onRender);
    IconSocket.registerHandler("applyEffect", (payload, userId) => ItemUse.#requestEffect(payload, userId));
  }

  /**
   * Hide the buttons a viewer may not press, and handle the others.
   * @param {ChatMessage.Implementation} message
   * @param {HTMLElement} html
   */
  static #onRender(message, html) {
    const record = ItemUse.recordOf(message);
    if (!record || !message.isContentVisible) return;
    const targets = record.targets.map(t => /** @type {Actor.Implementation | null} */ (foundry.utils.fromUuidSync(t.uuid)));
    // who may apply a card's effect is who may apply its damage (docs/security.md)
    const mayAffectAny = targets.some(t => t && TacticalChat.mayApply(game.user, message, t));
    if (!mayAffectAny) for (const button of html.querySelectorAll("button[data-use-effect]")) button.remove();
    for (const button of html.querySelectorAll("button[data-use-save]")) {
      const target = /** @type {Actor.Implementation | null} */ (foundry.utils.fromUuidSync(/** @type {HTMLElement} */ (button).dataset.useSave ?? ""));
      if (!target?.isOwner) button.remove();
    }
    html.addEventListener("click", event => {
      const button = /** @type {HTMLElement} */ (event.target).closest?.("button[data-use-effect], button[data-use-save]");
      // Not instanceof: a v14 detached chat window's nodes belong to that window's classes.
      if (!button || button.tagName !== "BUTTON") return;
      event.preventDefault();
      ItemUse.#onButton(/** @type {HTMLButtonElement} */ (button), message).catch(error => {
        console.error(error);
        ui.notifications?.error(error instanceof Error ? error.message : String(error));
      });
    });
  }

  /**
   * @param {HTMLButtonElement} button
   * @param {ChatMessage.Implementation} message
   */
  static async #onButton(button, message) {
    button.disabled = true;
    try {
      if (button.dataset.useSave) await ItemUse.rollSave(message, button.dataset.useSave);
      else await ItemUse.applyEffectToTargets(message, Number(button.dataset.useEffect));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * A target's owner rolls its save against a card's save ("a save succeeds on 10+"); on a
   * failure, the card's failed-save effects land on it (its owner applies them).
   * @param {ChatMessage.Implementation} message
   * @param {string} targetUuid
   * @returns {Promise<boolean | null>}  Whether it saved (null: no save was rolled).
   */
  static async rollSave(message, targetUuid) {
    const record = ItemUse.recordOf(message);
    const entry = record?.targets.find(t => t.uuid === targetUuid);
    const target = entry ? /** @type {Actor.Implementation | null} */ (await fromUuid(/** @type {`Actor.${string}`} */ (targetUuid))) : null;
    if (!record?.save || !target) throw new Error(format("ICONENGINE.Use.NoTarget"));
    if (!target.isOwner) throw new Error(format("ICONENGINE.Use.NotYours", { name: target.name ?? "" }));
    const saved = await TacticalRolls.save(target, { boons: record.save.boons, curses: record.save.curses });
    const roll = /** @type {import("../dice/icon-roll.mjs").default | undefined} */ (saved?.rolls?.[0]);
    if (!roll) return null;
    const success = !!roll.outcome?.success;
    if (!success) {
      const inflicter = /** @type {Actor.Implementation | null} */ (await fromUuid(/** @type {`Actor.${string}`} */ (record.actor)));
      for (const effect of record.effects.filter(e => e.trigger === "failedSave")) await ItemUse.applyEffect(inflicter, target, effect);
    }
    return success;
  }

  /**
   * Apply one of a card's effects to every target the user may affect; the rest through the GM.
   * @param {ChatMessage.Implementation} message
   * @param {number} index
   */
  static async applyEffectToTargets(message, index) {
    const record = ItemUse.recordOf(message);
    const effect = record?.effects[index];
    if (!record || !effect) throw new Error(format("ICONENGINE.Use.NoEffect"));
    const inflicter = /** @type {Actor.Implementation | null} */ (await fromUuid(/** @type {`Actor.${string}`} */ (record.actor)));
    for (const entry of record.targets) {
      const target = /** @type {Actor.Implementation | null} */ (await fromUuid(/** @type {`Actor.${string}`} */ (entry.uuid)));
      if (!target) continue;
      if (game.user?.isGM || (target.isOwner && (!effect.mark || inflicter?.isOwner))) await ItemUse.applyEffect(inflicter, target, effect);
      else if (TacticalChat.mayApply(game.user, message, target)) {
        await IconSocket.executeAsGM("applyEffect", { messageId: message.id, index, target: entry.uuid });
      }
    }
  }

  /**
   * The GM's side of a player's request to apply a card's effect to a target (docs/security.md):
   * a card that exists with the effect at that index and the target among its targets; the asker
   * may affect the target (the GM, its owner, or the card's author when the world allows); the
   * effect is cut to a known status with a known duration and a mark's name.
   * @param {Record<string, unknown>} payload  `{messageId, index, target}`.
   * @param {string} userId
   */
  static async #requestEffect(payload, userId) {
    const user = game.users?.get(userId);
    const message = typeof payload.messageId === "string"
      ? /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(payload.messageId))) : undefined;
    const record = message ? ItemUse.recordOf(message) : null;
    if (!message || !record) throw new Error(format("ICONENGINE.Trust.NoMessage"));
    const index = typeof payload.index === "number" && Number.isInteger(payload.index) && payload.index >= 0 && payload.index < 12 ? payload.index : -1;
    const effect = record.effects?.[index];
    const entry = Array.isArray(record.targets) ? record.targets.find(t => t?.uuid === payload.target) : undefined;
    if (!effect || !entry || typeof entry.uuid !== "string") throw new Error(format("ICONENGINE.Trust.BadRequest"));
    const target = await fromUuid(/** @type {`Actor.${string}`} */ (entry.uuid));
    if (!(target instanceof Actor)) throw new Error(format("ICONENGINE.Use.NoTarget"));
    if (!TacticalChat.mayApply(user, message, /** @type {Actor.Implementation} */ (target))) {
      throw new Error(format("ICONENGINE.Use.MayNotAffect", { name: target.name ?? "" }));
    }
    const inflicter = typeof record.actor === "string" ? await fromUuid(/** @type {`Actor.${string}`} */ (record.actor)) : null;
    // A mark is placed by the card's actor, which its author must own (as an attack's).
    const placer = inflicter instanceof Actor && !!user && (user.isGM || (message.author?.id === userId && inflicter.testUserPermission(user, "OWNER")))
      ? /** @type {Actor.Implementation} */ (inflicter) : null;
    const status = typeof effect.status === "string" && knownStatuses().has(effect.status) ? effect.status : "";
    const duration = EFFECT_DURATIONS.includes(effect.duration) ? effect.duration : "save";
    const mark = placer && typeof effect.mark === "string" ? effect.mark.slice(0, ActorMarks.MAX_MARK_NAME) : "";
    await ItemUse.applyEffect(inflicter instanceof Actor ? /** @type {Actor.Implementation} */ (inflicter) : null,
      /** @type {Actor.Implementation} */ (target), { trigger: "use", status, duration, mark, movement: "", text: "" });
  }

  /**
   * One effect on one target: its status through the core's rules (Unstoppable, Sealed,
   * Intangible; `ActorStatuses.inflict`), ongoing or ending with the target's next turn as it says;
   * its mark placed by the inflicter. `icon-engine.preApplyEffect` (target, {effect, inflicter})
   * may cancel it or change the effect; `icon-engine.applyEffect` (target, {effect, inflicter,
   * landed}) follows. Movement and text are for the table.
   * @param {Actor.Implementation | null} inflicter
   * @param {Actor.Implementation} target
   * @param {UseEffect} effect
   * @returns {Promise<boolean>}  Whether its status landed (or it placed a mark).
   */
  static async applyEffect(inflicter, target, effect) {
    const change = { effect: { ...effect }, inflicter };
    if (!callPre(HOOKS.preApplyEffect, target, change)) throw cancelled(HOOKS.preApplyEffect);
    const { status, duration, mark } = change.effect;
    let landed = false;
    if (status) {
      const fromFoe = !!inflicter && inflicter.type !== target.type;
      landed = await ActorStatuses.inflict(inflicter, target, status, { fromFoe });
      if (landed && duration !== "save") {
        const effects = target.effects.filter(e => e.statuses.size === 1 && e.statuses.has(status));
        const flags = duration === "ongoing" ? { ongoing: true } : { endsAtTurnEnd: true };
        await target.updateEmbeddedDocuments("ActiveEffect", effects.map(e => ({ _id: e.id, [`flags.${SYSTEM_ID}`]: flags })));
      }
    }
    if (mark && inflicter) landed = (await ActorMarks.placeMark(inflicter, target, mark)) || landed;
    callAfter(HOOKS.applyEffect, target, { effect: change.effect, inflicter, landed });
    return landed;
  }
}
