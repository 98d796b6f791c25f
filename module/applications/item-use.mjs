import { SYSTEM_ID } from "../config.mjs";
import { EFFECT_DURATIONS, USABLE_TYPES, attackRange, consumption, usability, useKind } from "../data/ability-rules.mjs";
import { durationUpdate } from "../data/effect-duration.mjs";
import ActorMarks from "../documents/actor-marks.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import ActorTurns from "../documents/actor-turns.mjs";
import AreaPlacement from "../canvas/area-placement.mjs";
import UseTargets from "../canvas/use-targets.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import { currentMode } from "../message-mode.mjs";
import AttackDialog from "./attack-dialog.mjs";
import CardPost from "./card-post.mjs";
import { format } from "./i18n.mjs";

/**
 * @import { AbilityLike } from "../data/ability-rules.mjs"
 * @import { AbilitySystem, CardTarget } from "../data/card-data.mjs"
 */

/**
 * @typedef {object} UseConfig  What a use does; `icon-engine.preUseItem` may change it.
 * @property {"attack"|"save"|"card"} kind  An attack opens the attack dialog; a save or any other
 *   use posts the ability's card (its saves and effects are pressed there).
 * @property {boolean} consume     Spend a charge and the once-per limit.
 * @property {boolean} placeArea   Place the item's area on the scene first (its tokens become the targets).
 * @property {{x: number, y: number} | null} at  Place the area here (pixels) without a preview.
 * @property {string} rollMode
 */

/**
 * @typedef {object} UseOutcome
 * @property {"attack"|"save"|"card"} kind
 * @property {ChatMessage.Implementation | null} [message]  The card (save and card uses).
 * @property {AttackDialog | null} [dialog]  The attack dialog (attack uses).
 * @property {import("../canvas/area-placement.mjs").AreaDocument | null} template
 * @property {CardTarget[]} targets
 */

/**
 * @typedef {object} UseEffect  An effect as `game.system.api.applyEffect` takes it.
 * @property {string} [trigger]
 * @property {string} status
 * @property {"save"|"ongoing"|"turn"|"cure"} duration
 * @property {string} mark
 * @property {string} [movement]
 * @property {string} [text]
 */

/**
 * Using an item (its sheet's or row's button, a hotbar macro, `game.system.api.useItem`): the
 * item's limits are checked (charges, once per turn/round/combat, interrupts, Combo's versions),
 * its area placed and the tokens it covers targeted, its targets chosen (module/canvas/use-targets.mjs),
 * then an attack opens the attack dialog filled from the item (the charge is spent when the attack
 * is rolled), and anything else posts its card (module/dice/cards/ability-card.mjs), where its
 * saves are rolled and its effects applied, each once. The card finishes what the ability does;
 * its placed area goes once the card is posted (the world setting `keepAreas` keeps
 * it, and so do auras and terrain effects). `icon-engine.preUseItem` (item, config) may cancel the
 * use or change it; `icon-engine.useItem` (item, outcome) follows.
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
    const system = /** @type {AbilityLike & AbilitySystem} */ (item.system);
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
    /** @type {import("../canvas/area-placement.mjs").AreaDocument | null} */
    let template = null;
    /** @type {TokenDocument.Implementation[] | null} */
    let covered = null;
    if (config.placeArea) {
      const placed = await AreaPlacement.place(item, { at: config.at });
      // Cancelled placement cancels the use; without a scene the use goes on with the targets as they are.
      if (!placed && canvas?.ready) return null;
      template = placed?.template ?? null;
      covered = placed?.tokens ?? null;
    }
    const chosen = UseTargets.choose({ actor, system, covered, range: attackRange(system.range) });
    for (const { name, reason } of chosen.dropped) ui.notifications?.warn(format(`ICONENGINE.Rules.Untargetable.${reason}Notice`, { name }));
    /** @type {CardTarget[]} */
    const targets = chosen.self ? [{ actor: chosen.self.uuid, token: "" }] : chosen.tokens.map(t => UseTargets.recordOf(t));
    /** @type {UseOutcome} */
    let outcome;
    if (config.kind === "attack") {
      const dialog = /** @type {AttackDialog} */ (await AttackDialog.open(actor, { ability: item, tokens: chosen.tokens,
        template: template?.uuid ?? "", beforeRoll: config.consume ? () => ItemUse.spend(item) : null }));
      outcome = { kind: "attack", dialog, template, targets };
    } else {
      if (config.consume) await ItemUse.spend(item);
      const combo = system.tags?.includes("combo") ? await ActorTurns.useCombo(actor) : "";
      const message = await CardPost.useCard(item, { kind: config.kind, targets, combo, rollMode: config.rollMode, template: template?.uuid ?? "" });
      await ActorTurns.abilityUsed(actor, { tags: system.tags ?? [] });
      await CardPost.resolveArea(template?.uuid ?? "", system.tags ?? []);
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
    const system = /** @type {AbilityLike} */ (item.system);
    const used = /** @type {Record<string, number> | undefined} */ (actor.getFlag(SYSTEM_ID, "interruptsUsed"));
    const refusal = usability(system, { name: item.name ?? "", inCombat: ActorTurns.inCombat(actor),
      statuses: ActorStatuses.statusesOf(actor), interruptsUsed: Number(used?.[item.id ?? ""] ?? 0) });
    if (refusal) return format(refusal.key, refusal.data);
    // "Combo versions of that ability count as the same ability, so you can't use a base and combo
    // version of the same ability in the same turn."
    const stamp = ActorTurns.turnStamp();
    const combos = /** @type {Record<string, string> | undefined} */ (actor.getFlag(SYSTEM_ID, "comboTurns"));
    if (system.tags?.includes("combo") && stamp && combos?.[item.id ?? ""] === stamp) {
      return format("ICONENGINE.Use.ComboTurn", { name: item.name ?? "" });
    }
    return null;
  }

  /**
   * Spend what a use costs: a charge, the once-per mark, an interrupt's use until its owner's turn,
   * and a Combo ability's turn. Throws when the item cannot be used any more (a charge went meanwhile).
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
    const stamp = ActorTurns.turnStamp();
    if (system.tags?.includes("combo") && stamp) {
      // Only this turn's stamp is kept per ability: the flag stays as small as the actor's Combo abilities.
      await actor.setFlag(SYSTEM_ID, "comboTurns", /** @type {never} */ ({ [item.id ?? ""]: stamp }));
    }
  }

  /** The world setting of areas (call at init). */
  static register() {
    game.settings?.register(SYSTEM_ID, /** @type {never} */ (CardPost.KEEP_AREAS_SETTING), /** @type {never} */ ({
      name: "ICONENGINE.Settings.keepAreas.name", hint: "ICONENGINE.Settings.keepAreas.hint",
      scope: "world", config: true, type: Boolean, default: false
    }));
  }

  /**
   * One effect on one target, applied by the caller with their own permissions (the API's
   * `applyEffect`, for macros and modules): its status through the core's rules (Unstoppable,
   * Sealed, Intangible; `ActorStatuses.inflict`), ongoing or ending with the target's next turn as
   * it says; its mark placed by the inflicter. `icon-engine.preApplyEffect` (target, {effect,
   * inflicter}) may cancel it or change the effect; `icon-engine.applyEffect` (target, {effect,
   * inflicter, landed}) follows. An ability's card applies its parts through its own controls.
   * @param {Actor.Implementation | null} inflicter
   * @param {Actor.Implementation} target
   * @param {UseEffect} effect
   * @returns {Promise<boolean>}  Whether its status landed (or it placed a mark).
   */
  static async applyEffect(inflicter, target, effect) {
    const change = { effect: { ...effect }, inflicter };
    if (!callPre(HOOKS.preApplyEffect, target, change)) throw cancelled(HOOKS.preApplyEffect);
    const { status, mark } = change.effect;
    const duration = EFFECT_DURATIONS.includes(change.effect.duration) ? change.effect.duration : "save";
    let landed = false;
    if (status) {
      const fromFoe = !!inflicter && inflicter.type !== target.type;
      landed = await ActorStatuses.inflict(inflicter, target, status, { fromFoe });
      if (landed && duration !== "save") {
        const effects = target.effects.filter(e => e.statuses.size === 1 && e.statuses.has(status));
        // in the generation's shape (module/data/effect-duration.mjs)
        const lasts = durationUpdate(duration);
        await target.updateEmbeddedDocuments("ActiveEffect", effects.map(e => ({ _id: e.id, ...lasts })));
      }
    }
    if (mark && inflicter) landed = (await ActorMarks.placeMark(inflicter, target, mark)).placed || landed;
    callAfter(HOOKS.applyEffect, target, { effect: change.effect, inflicter, landed });
    return landed;
  }
}
