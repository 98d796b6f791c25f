import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange, statusEffectData } from "../data/health-changes.mjs";
import { coreStatuses } from "../data/rules.mjs";
import { SLASHED_DAMAGE, SLASHED_FLAG, slashedLimit } from "../data/slashed.mjs";
import { gainVigilance, spendVigilance, vigilanceHeld } from "../data/vigilance.mjs";
import "./cards/icon-tactical.mjs";
import IconRoll from "./icon-roll.mjs";
import { applyMode, createOptions, currentMode } from "../message-mode.mjs";
import { abilityAftermath, applyDamageRequest, attackResult, attackerOf, coreTarget, damageOptions, damageRequest, healRequest, planAttack,
  saveRequest } from "./tactical-requests.mjs";

export { SLASHED_DAMAGE };

/**
 * @typedef {object} IconTurnOrder  What this module uses of the ICON Combat (documents/icon-combat.mjs).
 * @property {{current?: {id: string} | null} | null} iconState
 * @property {{get(id: string): {actor?: {uuid: string} | null} | undefined}} combatants
 * @property {(event: object) => Promise<void>} iconDispatch
 */

/**
 * @import { AttackState } from "./tactical-requests.mjs"
 * @import { AppliedDamage, VigilanceSpent } from "./cards/icon-tactical.mjs"
 * @import { HealthChange, HealthUndo, EffectLike } from "../data/health-changes.mjs"
 * @import { Done } from "../types/core.js"
 * @import { IconHealthActor } from "../types/system.js"
 */

/**
 * The Foundry side of tactical play: roll the requests the pure builders make as IconRolls (so
 * Dice So Nice and roll modes see real Foundry dice), post them as one chat message, and write
 * health changes to actors. The rules are the core's; this only moves data.
 */
export default class TacticalRolls {
  /**
   * The actor's statuses as the core names them (`id+` for ongoing ones).
   * @param {Actor.Implementation} actor
   * @returns {string[]}
   */
  static statusesOf(actor) {
    // Plain reads: the flag is ours (status-effects.mjs), set when the status is created.
    const effects = [...actor.appliedEffects].map(effect => ({
      statuses: effect.statuses,
      ongoing: !!effect.flags?.[SYSTEM_ID]?.ongoing
    }));
    return coreStatuses(effects);
  }

  /**
   * The actor's own effects, for the health mapping.
   * @param {Actor.Implementation} actor
   * @returns {EffectLike[]}
   */
  static effectsOf(actor) {
    return actor.effects.contents.map(effect => ({
      id: String(effect.id ?? ""),
      statuses: [...effect.statuses],
      data: effect.toObject()
    }));
  }

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
   * @param {{damageApplied?: Record<string, AppliedDamage>}} [more]  Other flags of the system's scope.
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
   * Roll an attack: per target the Evasion d6 (if it has Evasion), the attack roll, then the
   * damage of its result; one message.
   * @param {Actor.Implementation} actor
   * @param {AttackState} state
   * @param {{ability?: Item.Implementation | null}} [options]
   */
  static async attack(actor, state, { ability = null } = {}) {
    const core = await loadCore();
    const attacker = attackerOf(/** @type {IconHealthActor} */ (actor)); // the sheets attack with characters and foes
    /** @type {IconRoll[]} */
    const rolls = [];
    for (const [key, part] of planAttack(core, state, attacker).entries()) {
      const target = part.target ? { uuid: part.target.uuid, name: part.target.name, img: part.target.img, defense: part.target.defense } : null;
      let evaded = false;
      if (part.evasion) {
        const evasion = await TacticalRolls.roll(part.evasion, { role: "evasion", key, target });
        rolls.push(evasion);
        evaded = !!evasion.outcome?.evaded;
      }
      /** @type {Done | null} */
      let attackOutcome = null;
      if (!evaded) {
        const roll = await TacticalRolls.roll(part.attack, { role: "attack", key, target });
        rolls.push(roll);
        attackOutcome = roll.outcome;
      }
      const result = attackResult(attackOutcome, evaded);
      const damage = damageRequest(state, attacker, result);
      if (damage) {
        const apply = damageOptions(state, result, part.cover, part.target);
        rolls.push(await TacticalRolls.roll(damage, { role: "damage", key, target, apply, saveForHalf: state.saveForHalf }));
      }
    }
    const flavor = ability?.name ?? game.i18n?.localize(state.dice >= 2 ? "ICONENGINE.Tactical.HeavyAttack" : "ICONENGINE.Tactical.LightAttack") ?? "";
    const message = await TacticalRolls.post(actor, rolls, flavor, state.rollMode, { attacker: actor.uuid, ability: ability?.uuid ?? null });
    // Basic attacks are abilities too ("The following Basic Abilities are common to every character").
    await TacticalRolls.abilityUsed(actor);
    return message;
  }

  /**
   * After any ability (basic attacks included): Stunned "Your next ability used ends your turn,
   * then end this status" ({@link abilityAftermath}); the actor's open ICON turn ends.
   * @param {Actor.Implementation} actor
   * @returns {Promise<{endsTurn: boolean}>}
   */
  static async abilityUsed(actor) {
    const core = await loadCore();
    const { ended, endsTurn } = abilityAftermath(core, TacticalRolls.statusesOf(actor));
    for (const id of ended) await actor.toggleStatusEffect(id, { active: false });
    if (endsTurn) await TacticalRolls.#endTurnOf(actor);
    return { endsTurn };
  }

  /**
   * End the actor's turn if it is the open turn of the ICON combat (the turn order is the combat
   * reducer's: this sends its `endTurn` event through the combat's own dispatch).
   * @param {Actor.Implementation} actor
   */
  static async #endTurnOf(actor) {
    const combat = /** @type {IconTurnOrder | null} */ (/** @type {unknown} */ (game.combat ?? null));
    const id = combat?.iconState?.current?.id;
    if (!combat || !id || typeof combat.iconDispatch !== "function") return;
    if (combat.combatants.get(id)?.actor?.uuid !== actor.uuid) return;
    await combat.iconDispatch({ type: "endTurn" });
  }

  /**
   * Whether the actor fights in the viewed combat once it has started: only then are there turns
   * for "once a turn" to count.
   * @param {Actor.Implementation} actor
   * @returns {boolean}
   */
  static inCombat(actor) {
    // The configured Combat is IconCombat (foundry-vtt-types 13.345 gives game.combat no members of it).
    const combat = /** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat));
    if (!combat?.started) return false;
    return combat.combatants.some(c => c.actor?.uuid === actor.uuid);
  }

  /**
   * Slashed's "no more than once a turn" for this actor now (see data/slashed.mjs).
   * @param {Actor.Implementation} actor
   */
  static slashedLimit(actor) {
    return slashedLimit({ inCombat: TacticalRolls.inCombat(actor), takenThisTurn: !!actor.getFlag(SYSTEM_ID, SLASHED_FLAG) });
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
    if (!TacticalRolls.statusesOf(actor).some(s => s.replace(/\+$/, "") === "slashed")) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.NotSlashed", { name }) ?? "ICONENGINE.Tactical.NotSlashed");
      return null;
    }
    if (!TacticalRolls.slashedLimit(actor).allowed) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name }) ?? "ICONENGINE.Tactical.SlashedOnce");
      return null;
    }
    return TacticalRolls.damage(actor, SLASHED_DAMAGE, { source: "slashed", ability: false, fromFoe: false },
      { label: "ICONENGINE.Status.slashed.name", rollMode });
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
    const statuses = TacticalRolls.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Damage is dealt to the actors with ICON health (Slashed and Counter hit characters and foes).
    const target = /** @type {IconHealthActor} */ (actor);
    const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
    const roll = await TacticalRolls.roll(request, { role: "health", key: 0, actor: who, target: who, label, amount, apply: options });
    const applied = await TacticalRolls.applyDamageTo(actor, amount, options);
    return TacticalRolls.post(actor, [roll], game.i18n?.localize(label) ?? label, rollMode ?? TacticalRolls.#defaultRollMode(), {},
      { damageApplied: { 0: applied } });
  }

  /**
   * Apply damage to an actor through the core's `icon.applyDamage`: its health written, and what a
   * message keeps of it (the breakdown and the undo). Slashed damage in a combat counts against
   * the turn (refused the second time).
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} amount
   * @param {Record<string, unknown>} options  icon.applyDamage options.
   * @returns {Promise<AppliedDamage>}
   */
  static async applyDamageTo(actor, amount, options) {
    const core = await loadCore();
    const limit = options.source === "slashed" ? TacticalRolls.slashedLimit(actor) : null;
    if (limit && !limit.allowed) {
      throw new Error(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name: actor.name ?? "" }) ?? "ICONENGINE.Tactical.SlashedOnce");
    }
    // Counted before the damage is written, so a second click in the meantime is refused.
    if (limit?.counts) await actor.setFlag(SYSTEM_ID, SLASHED_FLAG, true);
    try {
      const statuses = TacticalRolls.statusesOf(actor);
      // Damage is dealt to the actors with ICON health.
      const target = /** @type {IconHealthActor} */ (actor);
      const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
      const answer = /** @type {Done & {target: AppliedDamage["after"] & {statuses: string[]}, steps: AppliedDamage["steps"], counter?: number}} */ (
        core.resolve(request, []));
      const change = healthChange({ system: target.system, effects: TacticalRolls.effectsOf(actor) }, statuses, answer.target);
      const undo = await TacticalRolls.applyHealth(actor, change);
      /** @type {AppliedDamage} */
      const applied = {
        targetUuid: actor.uuid,
        targetName: actor.name ?? "",
        dealt: answer.total,
        steps: answer.steps,
        counter: answer.counter ?? 0,
        after: { hp: answer.target.hp, vigor: answer.target.vigor, wounds: answer.target.wounds, defeated: answer.target.defeated,
          fallen: answer.target.fallen },
        undo,
        userId: game.user?.id ?? ""
      };
      if (limit?.counts) applied.slashed = true;
      return applied;
    } catch (error) {
      if (limit?.counts) await actor.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
      throw error;
    }
  }

  /**
   * Put back what an applied damage changed: the target's health and statuses, the turn's Slashed
   * (it may be taken again), and the Vigilance charges spent on it.
   * @param {AppliedDamage} applied
   */
  static async undoApplied(applied) {
    const actor = await fromUuid(/** @type {`Actor.${string}`} */ (applied.targetUuid));
    if (actor instanceof Actor) {
      // CONFIG.Actor.documentClass makes every actor an IconActor.
      const target = /** @type {Actor.Implementation} */ (actor);
      await TacticalRolls.undoHealth(target, applied.undo);
      if (applied.slashed) await target.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
    }
    if (applied.vigilance) await TacticalRolls.refundVigilance(applied.vigilance);
  }

  /**
   * Gain Vigilance X: the charges stack onto those the actor holds (for macros and abilities).
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} charges
   * @returns {Promise<number>}  The charges held after.
   */
  static async gainVigilance(actor, charges) {
    const held = gainVigilance(vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system)), charges);
    if (held === null) throw new Error(game.i18n?.format("ICONENGINE.Vigilance.BadGain", { charges: String(charges) }) ?? "ICONENGINE.Vigilance.BadGain");
    await actor.update({ system: { vigilance: held } });
    return held;
  }

  /**
   * Spend an actor's Vigilance charges: the charges go, and with the last one its Vigilance
   * status (the effect is its charges). Refused for more charges than it holds.
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} charges
   * @param {number} rolled  The highest d6 of the charges, for the record.
   * @returns {Promise<VigilanceSpent>}  What to put back on Undo.
   */
  static async spendVigilance(actor, charges, rolled) {
    const held = vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system));
    const spent = spendVigilance(held, charges);
    if (!spent) {
      throw new Error(game.i18n?.format("ICONENGINE.Vigilance.NotHeld", { name: actor.name ?? "", charges: String(charges), held: String(held) })
        ?? "ICONENGINE.Vigilance.NotHeld");
    }
    await actor.update({ system: { vigilance: spent.left } });
    const ended = spent.left === 0 ? actor.effects.contents.filter(e => e.statuses.has("vigilance")) : [];
    const restoreEffects = ended.map(e => e.toObject());
    if (ended.length) await actor.deleteEmbeddedDocuments("ActiveEffect", ended.map(e => e.id ?? ""));
    return { uuid: actor.uuid, name: actor.name ?? "", charges, rolled, restoreEffects };
  }

  /**
   * Give spent Vigilance charges back (an Undo), with the status they ended.
   * @param {VigilanceSpent} spent
   */
  static async refundVigilance(spent) {
    const doc = await fromUuid(/** @type {`Actor.${string}`} */ (spent.uuid));
    if (!(doc instanceof Actor)) return;
    const actor = /** @type {Actor.Implementation} */ (doc);
    const held = vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system));
    await actor.update({ system: { vigilance: gainVigilance(held, spent.charges) ?? held } });
    const missing = spent.restoreEffects.filter(data => !actor.effects.has(data._id ?? ""));
    if (missing.length) await actor.createEmbeddedDocuments("ActiveEffect", missing, { keepId: true });
  }

  /**
   * A save (10+), optionally against one of the actor's statuses, which ends on a success. The
   * core refuses ongoing statuses and states (`iconSaveable`).
   * @param {Actor.Implementation} actor
   * @param {{status?: string | null, boons?: number, curses?: number, bonus?: number, rollMode?: string}} [options]
   */
  static async save(actor, { status = null, boons = 0, curses = 0, bonus = 0, rollMode } = {}) {
    const core = await loadCore();
    if (status && !core.iconSaveable(TacticalRolls.statusesOf(actor)).includes(status)) {
      ui.notifications?.warn("ICONENGINE.Tactical.NotSaveable", { localize: true });
      return null;
    }
    const named = status ? { id: status, name: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status } : null;
    const roll = await TacticalRolls.roll(saveRequest({ boons, curses, bonus }),
      { role: "save", actor: { uuid: actor.uuid, name: actor.name ?? "" }, status: named });
    const message = await TacticalRolls.post(actor, [roll], game.i18n?.localize("ICONENGINE.Tactical.Save.title") ?? "",
      rollMode ?? TacticalRolls.#defaultRollMode());
    if (status && roll.outcome?.success) await actor.toggleStatusEffect(status, { active: false });
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
    const statuses = TacticalRolls.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Healing is for the actors with ICON health (the sheets' heal button, characters and foes).
    const heal = await TacticalRolls.roll(healRequest(coreTarget(/** @type {IconHealthActor} */ (actor), statuses), healing),
      { role: "heal", actor: who });
    const outcome = /** @type {Done & {target: Parameters<typeof healthChange>[2], saves: string[]}} */ (heal.outcome);
    // coreTarget above has read ICON health from this actor.
    const system = /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system);
    await TacticalRolls.applyHealth(actor, healthChange({ system, effects: TacticalRolls.effectsOf(actor) }, statuses, outcome.target));
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
    const message = await TacticalRolls.post(actor, rolls, game.i18n?.localize(`ICONENGINE.Tactical.Healing.${healing}`) ?? healing,
      rollMode ?? TacticalRolls.#defaultRollMode());
    for (const status of ended) await actor.toggleStatusEffect(status, { active: false });
    return message;
  }

  /** @returns {string} */
  static #defaultRollMode() {
    return currentMode();
  }

  /**
   * Write a health change to an actor: the update, the ended statuses' effects deleted, the new
   * statuses created. Returns the undo, completed with the created effects' ids.
   * @param {Actor.Implementation} actor
   * @param {HealthChange} change
   * @returns {Promise<HealthUndo>}
   */
  static async applyHealth(actor, change) {
    // Dotted `system.*` keys, which Foundry's update expands; the declared UpdateData has no dotted form.
    if (Object.keys(change.update).length) await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (change.update)));
    if (change.deleteEffects.length) await actor.deleteEmbeddedDocuments("ActiveEffect", change.deleteEffects);
    const localize = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    const created = change.createStatuses.length
      ? await actor.createEmbeddedDocuments("ActiveEffect", change.createStatuses.map(id => statusEffectData(id, localize)))
      : [];
    return { ...change.undo, deleteEffects: (created ?? []).map(effect => String(effect.id ?? "")) };
  }

  /**
   * Put an actor back as it was before a health change.
   * @param {Actor.Implementation} actor
   * @param {HealthUndo} undo
   */
  static async undoHealth(actor, undo) {
    const existing = undo.deleteEffects.filter(id => actor.effects.has(id));
    if (existing.length) await actor.deleteEmbeddedDocuments("ActiveEffect", existing);
    const missing = undo.restoreEffects.filter(data => !actor.effects.has(data._id ?? ""));
    if (missing.length) await actor.createEmbeddedDocuments("ActiveEffect", missing, { keepId: true });
    // Dotted keys, as in applyHealth.
    if (Object.keys(undo.update).length) await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (undo.update)));
  }
}
