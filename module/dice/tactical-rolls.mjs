import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange } from "../data/health-changes.mjs";
import { SLASHED_DAMAGE } from "../data/slashed.mjs";
import { DANGEROUS_TERRAIN_DAMAGE, TERRAIN_FLAG } from "../data/terrain.mjs";
import { cardRecord, checkedPart } from "../data/card-data.mjs";
import { effectDuration } from "../data/effect-duration.mjs";
import { knownStatuses } from "../data/trust.mjs";
import CardPost from "../applications/card-post.mjs";
import "./cards/icon-tactical.mjs";
import IconRoll from "./icon-roll.mjs";
import { applyMode, createOptions, currentMode } from "../message-mode.mjs";
import { HOOKS, callAfter, callPre } from "../hooks.mjs";
import { rechargeItems } from "../documents/item-recharge.mjs";
import ActorHealth from "../documents/actor-health.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import ActorTurns from "../documents/actor-turns.mjs";
import { applyDamageRequest, attackResult, attackerOf, coreTarget, damageOptions, damageRequest, hatredEnd, healRequest,
  planAttack, saveRequest } from "./tactical-requests.mjs";
import { format } from "../applications/i18n.mjs";

export { SLASHED_DAMAGE, DANGEROUS_TERRAIN_DAMAGE };

/**
 * @import { AttackState } from "./tactical-requests.mjs"
 * @import { AppliedDamage } from "./cards/icon-tactical.mjs"
 * @import { Done } from "../types/core.js"
 * @import { IconHealthActor } from "../types/system.js"
 */

/**
 * The Foundry side of tactical rolls: roll the requests the pure builders make as IconRolls (so
 * Dice So Nice and roll modes see real Foundry dice) and post them as one chat message. The rules
 * are the core's; this only moves data. An actor's statuses, marks, health and turn live in
 * module/documents/actor-*.mjs.
 */
export default class TacticalRolls {
  /**
   * An evaluated IconRoll of a request, with the tactical options its card needs.
   * @param {import("../types/core.js").CoreRequest} request
   * @param {import("./cards/icon-tactical.mjs").TacticalOptions} tactical
   * @returns {Promise<IconRoll>}
   */
  static async roll(request, tactical) {
    const roll = await IconRoll.fromRequest(request, { tactical });
    await roll.evaluate();
    return roll;
  }

  /**
   * Post rolls as one chat message in a roll mode.
   * @param {Actor.Implementation} actor
   * @param {IconRoll[]} rolls
   * @param {string} flavor
   * @param {string} rollMode
   * @param {object} [flags]  The message's `tactical` flag.
   * @param {{damageApplied?: Record<string, AppliedDamage>, saveFor?: {message: string, key: number},
   *   healed?: {actor: string, undo: import("../data/health-changes.mjs").HealthUndo}}} [more]
   *   Other flags of the system's scope.
   */
  static async post(actor, rolls, flavor, rollMode, flags = {}, more = {}) {
    const data = {
      speaker: ChatMessage.implementation.getSpeaker({ actor }),
      flavor,
      rolls,
      // Roll#toMessage plays it for its messages; these are created directly.
      sound: CONFIG.sounds.dice,
      flags: { [SYSTEM_ID]: { ...more, tactical: flags } }
    };
    // A key of CONFIG.Dice.rollModes: from the dialogs' roll-mode select or the core setting;
    // given to the creation too, or Foundry applies the user's own mode over a public one.
    applyMode(data, rollMode);
    return ChatMessage.implementation.create(data, /** @type {ChatMessage.Database.CreateOperation<undefined>} */ (createOptions(rollMode)));
  }

  /**
   * Roll an attack and post its card (module/dice/cards/ability-card.mjs): per target the attack
   * roll (with the target's Evasion d6 first when it has Evasion and the attack is no True Strike;
   * none at all for an auto-hit), then the damage of its result; the ability's parts (its effects,
   * its mark) are applied from the card. Targets the core finds untargetable (Stealth, Blind's
   * range, the ability's range) are skipped with a notice. A Hatred whose foe X became immune or
   * un-targetable ends first; an ability with Combo uses (or gains) the attacker's combo token.
   * `icon-engine.preAttack` (actor, state, {ability}) may cancel it or change the state;
   * `icon-engine.preDamage` (actor, request, {target, key, result}) each damage roll;
   * `icon-engine.damage` and `icon-engine.attack` follow (module/hooks.mjs).
   * @param {Actor.Implementation} actor
   * @param {AttackState} state
   * @param {{ability?: Item.Implementation | null, template?: string}} [options]  `template`: the area the use placed.
   */
  static async attack(actor, state, { ability = null, template = "" } = {}) {
    const core = await loadCore();
    if (!callPre(HOOKS.preAttack, actor, state, { ability })) return null;
    const attacker = attackerOf(/** @type {IconHealthActor} */ (actor)); // the sheets attack with characters and foes
    state = await TacticalRolls.#endHatred(actor, state);
    const combo = state.combo ? await ActorTurns.useCombo(actor) : "";
    /** @type {IconRoll[]} */
    const rolls = [];
    /** @type {import("../data/card-data.mjs").CardTarget[]} */
    const targets = [];
    /** @type {[IconRoll, {target: object | null, key: number, result: string}][]} */
    const damaged = [];
    for (const part of planAttack(core, state, attacker)) {
      const target = part.target ? { uuid: part.target.uuid, name: part.target.name, img: part.target.img, defense: part.target.defense } : null;
      if (part.untargetable) {
        ui.notifications?.warn(format(`ICONENGINE.Rules.Untargetable.${part.untargetable}Notice`, { name: target?.name ?? "" }));
        continue;
      }
      // A target's key is its place on the card.
      const key = targets.length;
      if (part.target) targets.push({ actor: part.target.uuid, token: part.target.token ?? "" });
      const roll = await TacticalRolls.roll(part.attack, { role: "attack", key, target });
      rolls.push(roll);
      const result = attackResult(roll.outcome);
      const damage = damageRequest(state, attacker, result);
      const context = { target, key, result };
      if (damage && callPre(HOOKS.preDamage, actor, damage, context)) {
        const apply = damageOptions(state, result, part.cover, part.target);
        const damageRoll = await TacticalRolls.roll(damage, { role: "damage", key, target, apply, saveForHalf: state.saveForHalf });
        rolls.push(damageRoll);
        damaged.push([damageRoll, context]);
      }
      if (!part.target) break;
    }
    if (!rolls.length) return null;
    const known = knownStatuses();
    const card = ability
      ? await CardPost.cardOf(ability, { kind: "attack", targets, combo, template })
      : cardRecord({ actor: actor.uuid, item: null, basic: state.dice >= 2 ? "heavy" : "light", kind: "attack", targets,
        user: { bloodied: false, slowTurn: ActorTurns.slowTurn(actor) }, template }, known);
    // The dialog's mark (an ability's, or one typed for this attack): placed on every target attacked.
    if (state.mark && !card.parts.some(p => p.mark === state.mark) && card.parts.length < 12) {
      card.parts.push(checkedPart({ trigger: "use", to: "target", mark: state.mark }, known));
    }
    if (state.saveForHalf && !card.save) card.save = { boons: 0, curses: 0, forHalf: true };
    rolls.push(...await CardPost.gambleRolls(card));
    const message = await CardPost.post(actor, card, rolls, state.rollMode);
    for (const [roll, context] of damaged) callAfter(HOOKS.damage, actor, roll, context);
    callAfter(HOOKS.attack, actor, message, state, { ability });
    // Basic attacks are abilities too ("The following Basic Abilities are common to every character").
    const tags = /** @type {{tags?: string[]} | undefined} */ (ability?.system)?.tags ?? [];
    await ActorTurns.abilityUsed(actor, { tags });
    await CardPost.resolveArea(template, tags);
    return message;
  }

  /**
   * Hatred of X: "End this status at the end of your turn, or if foe X becomes immune to damage or
   * un-targetable." When the attack's hated target is such (the core's `icon.hatred`), the
   * attacker's Hatred ends before the attack, and the attack deals full damage.
   * @param {Actor.Implementation} actor
   * @param {AttackState} state
   * @returns {Promise<AttackState>}
   */
  static async #endHatred(actor, state) {
    if (!state.hatred) return state;
    const core = await loadCore();
    const hated = state.targets.find(t => t.hated);
    if (!hated || !hatredEnd(core, hated, !!state.hatredOngoing)) return state;
    if (ActorStatuses.statusesOf(actor).includes("hatred")) await actor.toggleStatusEffect("hatred", { active: false });
    ui.notifications?.info(format("ICONENGINE.Rules.HatredEnded", { name: actor.name ?? "", foe: hated.name }));
    return { ...state, hatred: false };
  }

  /**
   * Damage that is no attack's (Slashed, Counter): the core's `icon.applyDamage` applied to the
   * actor at once, and a card with its breakdown and Undo (the message's `damageApplied.0`, as an
   * attack card's; after an Undo, its Apply button applies it again).
   * @param {Actor.Implementation} actor
   * @param {number} amount
   * @param {import("./tactical-requests.mjs").DamageOptions | import("./tactical-requests.mjs").HealthDamageOptions} options
   *   icon.applyDamage options (source, ability, fromFoe, ...).
   * @param {{label: string, rollMode?: string}} card  `label`: i18n key of the card's heading.
   */
  static async damage(actor, amount, options, { label, rollMode }) {
    const statuses = ActorStatuses.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Damage is dealt to the actors with ICON health (Slashed and Counter hit characters and foes).
    const target = /** @type {IconHealthActor} */ (actor);
    const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
    const roll = await TacticalRolls.roll(request, { role: "health", key: 0, actor: who, target: who, label, amount, apply: options });
    const applied = await ActorHealth.applyDamageTo(actor, amount, options);
    return TacticalRolls.post(actor, [roll], game.i18n?.localize(label) ?? label, rollMode ?? TacticalRolls.#defaultRollMode(), {},
      { damageApplied: { 0: applied } });
  }

  /**
   * Slashed: "Take 4 damage after you or an ally uses an ability that moves you, but no more than
   * once a turn." Applies the core's slashed damage to the actor and posts the breakdown, with
   * Undo. Refused, with a notification, for an actor without Slashed and for a second time in a
   * turn of the combat it fights in.
   * @param {Actor.Implementation} actor
   * @param {{rollMode?: string}} [options]
   */
  static async slashed(actor, { rollMode } = {}) {
    const name = actor.name ?? "";
    if (!ActorStatuses.statusesOf(actor).some(s => s.replace(/\+$/, "") === "slashed")) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.NotSlashed", { name }) ?? "ICONENGINE.Tactical.NotSlashed");
      return null;
    }
    if (!ActorHealth.slashedLimit(actor).allowed) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name }) ?? "ICONENGINE.Tactical.SlashedOnce");
      return null;
    }
    return TacticalRolls.damage(actor, SLASHED_DAMAGE, { source: "slashed", ability: false, fromFoe: false },
      { label: "ICONENGINE.Status.slashed.name", rollMode });
  }

  /**
   * Dangerous terrain: "Entering or exiting a dangerous terrain space causes a character to take
   * 2 piercing damage. Characters can only take this damage once a turn." The core's damage
   * applied with a card and Undo; the second time in a turn of a running combat it deals nothing.
   * The one path for it: the sheet's button (by hand, for a fight without a map) and the scene's
   * dangerous terrain regions (module/canvas/terrain-behaviors.mjs, on the active GM's client).
   * @param {Actor.Implementation} actor
   * @param {{rollMode?: string}} [options]
   */
  static async dangerousTerrain(actor, { rollMode } = {}) {
    const taken = ActorTurns.inCombat(actor) && !!actor.getFlag(SYSTEM_ID, TERRAIN_FLAG);
    return TacticalRolls.damage(actor, DANGEROUS_TERRAIN_DAMAGE,
      { source: "dangerousTerrain", ability: false, fromFoe: false, terrainTakenThisTurn: taken },
      { label: "ICONENGINE.Rules.DangerousTerrain", rollMode });
  }

  /**
   * Sacrifice X: "Reduce your hp by X ... cannot bring your hp below 1, and you can pay them even
   * if you don't have enough hp left." The core's HP loss applied with a card and Undo.
   * @param {Actor.Implementation} actor
   * @param {number} amount
   * @param {{rollMode?: string}} [options]
   */
  static async sacrifice(actor, amount, { rollMode } = {}) {
    return TacticalRolls.damage(actor, Math.max(0, Math.trunc(amount)), { source: "sacrifice", ability: false, fromFoe: false },
      { label: "ICONENGINE.Rules.Sacrifice", rollMode });
  }

  /**
   * A save (10+), optionally against one of the actor's statuses, which ends on a success. The
   * core refuses ongoing statuses and states (`iconSaveable`). With `blessing`, one of the actor's
   * Blessing tokens is spent for +1 boon (refused, with a notice, when it holds none).
   * `icon-engine.preSave` (actor, {status, boons, curses, bonus, blessing}) may cancel it or change
   * the request; `icon-engine.save` (actor, roll, message) follows.
   * A save rolled from an ability's card names it (`link`: the card's message and the target's key,
   * stored as the save message's `saveFor` flag), and the card reads its result from there.
   * @param {Actor.Implementation} actor
   * @param {{status?: string | null, boons?: number, curses?: number, bonus?: number, blessing?: boolean, rollMode?: string,
   *   link?: {message: string, key: number} | null}} [options]
   */
  static async save(actor, { status = null, boons = 0, curses = 0, bonus = 0, blessing = false, rollMode, link = null } = {}) {
    const core = await loadCore();
    const request = { status, boons, curses, bonus, blessing };
    if (!callPre(HOOKS.preSave, actor, request)) return null;
    ({ status, boons, curses, bonus, blessing } = request);
    if (status && !core.iconSaveable(ActorStatuses.statusesOf(actor)).includes(status)) {
      ui.notifications?.warn("ICONENGINE.Tactical.NotSaveable", { localize: true });
      return null;
    }
    if (blessing) {
      try {
        await ActorTurns.tokens(actor, { type: "spendBlessing" });
      } catch {
        ui.notifications?.warn(format("ICONENGINE.Rules.Tokens.NoBlessing", { name: actor.name ?? "" }));
        return null;
      }
    }
    const named = status ? { id: status, name: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status } : null;
    const roll = await TacticalRolls.roll(saveRequest({ boons, curses, bonus, blessing }),
      { role: "save", actor: { uuid: actor.uuid, name: actor.name ?? "" }, status: named });
    const message = await TacticalRolls.post(actor, [roll], game.i18n?.localize("ICONENGINE.Tactical.Save.title") ?? "",
      rollMode ?? TacticalRolls.#defaultRollMode(), {}, link ? { saveFor: link } : {});
    if (status && roll.outcome?.success) await actor.toggleStatusEffect(status, { active: false });
    callAfter(HOOKS.save, actor, roll, message);
    return message;
  }

  /**
   * A healing rule (cure, rescue, rest, ...) through the core; a cure then saves against every
   * status the core lists, each ending on a success. One message.
   * @param {Actor.Implementation} actor
   * @param {"cure"|"regeneration"|"rescue"|"endCombat"|"rest"|"camp"} healing
   * @param {{rollMode?: string}} [options]
   */
  static async heal(actor, healing, { rollMode } = {}) {
    const statuses = ActorStatuses.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Healing is for the actors with ICON health (the sheets' heal button, characters and foes).
    const heal = await TacticalRolls.roll(healRequest(coreTarget(/** @type {IconHealthActor} */ (actor), statuses), healing),
      { role: "heal", actor: who });
    const outcome = /** @type {Done & {target: Parameters<typeof healthChange>[2], saves: string[]}} */ (heal.outcome);
    // coreTarget above has read ICON health from this actor.
    const system = /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system);
    const undo = await ActorHealth.applyHealth(actor, healthChange({ system, effects: ActorStatuses.effectsOf(actor) }, statuses, outcome.target));
    const rolls = [heal];
    /** @type {string[]} */
    const ended = [];
    for (const status of outcome.saves ?? []) {
      const save = await TacticalRolls.roll(saveRequest(), {
        role: "save", actor: who, status: { id: status, name: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }
      });
      rolls.push(save);
      if (save.outcome?.success) ended.push(status);
    }
    // "Blights need to be cured to be removed": a cure ends them (a blight that is ongoing, caused by
    // something, waits for its cause). They and the statuses the cure's saves end come back with an Undo.
    const blights = healing === "cure" ? actor.effects.contents.filter(e => effectDuration(e) === "cure" && !e.flags?.[SYSTEM_ID]?.cause) : [];
    const gone = actor.effects.contents.filter(e => [...e.statuses].some(s => ended.includes(s)) || blights.includes(e));
    undo.restoreEffects.push(...gone.map(e => e.toObject()));
    const message = await TacticalRolls.post(actor, rolls, game.i18n?.localize(`ICONENGINE.Tactical.Healing.${healing}`) ?? healing,
      rollMode ?? TacticalRolls.#defaultRollMode(), {}, { healed: { actor: actor.uuid, undo } });
    for (const status of ended) await actor.toggleStatusEffect(status, { active: false });
    const left = blights.map(e => e.id ?? "").filter(id => actor.effects.has(id));
    if (left.length) await actor.deleteEmbeddedDocuments("ActiveEffect", left);
    // A rest or camp recharges what recharges at rest (module/data/ability-rules.mjs).
    if (healing === "rest" || healing === "camp") await rechargeItems(actor, "rest");
    return message;
  }

  /** @returns {string} */
  static #defaultRollMode() {
    return currentMode();
  }
}
