import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { formatPlural } from "../applications/i18n.mjs";
import { healthChange, statusEffectData } from "../data/health-changes.mjs";
import { SLASHED_FLAG, slashedLimit } from "../data/slashed.mjs";
import { TERRAIN_FLAG } from "../data/terrain.mjs";
import { gainVigilance, spendVigilance, vigilanceHeld } from "../data/vigilance.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import { applyDamageRequest, coreTarget } from "../dice/tactical-requests.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import ActorTurns from "./actor-turns.mjs";

/**
 * @import { AppliedDamage, VigilanceSpent } from "../dice/cards/icon-tactical.mjs"
 * @import { HealthChange, HealthUndo } from "../data/health-changes.mjs"
 * @import { Done } from "../types/core.js"
 * @import { IconHealthActor } from "../types/system.js"
 */

/**
 * An actor's health written from the core's answers: damage through `icon.applyDamage` (with what
 * an undo needs), health changes and their undo, and Vigilance charges spent and given back.
 */
export default class ActorHealth {
  /**
   * Apply damage to an actor through the core's `icon.applyDamage`: its health written, and what a
   * message keeps of it (the breakdown and the undo). Slashed damage in a combat counts against
   * the turn (refused the second time); so does dangerous terrain's (the core deals none the
   * second time, read from the actor's flag when the damage is applied). `icon-engine.preApplyDamage`
   * (actor, {amount, options}) may cancel it (it throws) or change the amount and options;
   * `icon-engine.applyDamage` (actor, applied) follows.
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} amount
   * @param {Record<string, unknown>} options  icon.applyDamage options.
   * @returns {Promise<AppliedDamage>}
   */
  static async applyDamageTo(actor, amount, options) {
    const core = await loadCore();
    const change = { amount, options: { ...options } };
    if (!callPre(HOOKS.preApplyDamage, actor, change)) throw cancelled(HOOKS.preApplyDamage);
    amount = Math.max(0, Math.trunc(Number(change.amount)) || 0);
    options = change.options;
    const limit = options.source === "slashed" ? ActorHealth.slashedLimit(actor) : null;
    if (limit && !limit.allowed) {
      throw new Error(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name: actor.name ?? "" }) ?? "ICONENGINE.Tactical.SlashedOnce");
    }
    // Counted before the damage is written, so a second click in the meantime is refused.
    if (limit?.counts) await actor.setFlag(SYSTEM_ID, SLASHED_FLAG, true);
    const terrain = options.source === "dangerousTerrain" && ActorTurns.inCombat(actor);
    const terrainTaken = terrain && !!actor.getFlag(SYSTEM_ID, TERRAIN_FLAG);
    if (options.source === "dangerousTerrain") options = { ...options, terrainTakenThisTurn: terrainTaken };
    if (terrain && !terrainTaken) await actor.setFlag(SYSTEM_ID, TERRAIN_FLAG, true);
    try {
      const statuses = ActorStatuses.statusesOf(actor);
      // Damage is dealt to the actors with ICON health.
      const target = /** @type {IconHealthActor} */ (actor);
      const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
      const answer = /** @type {Done & {target: AppliedDamage["after"] & {statuses: string[]}, steps: AppliedDamage["steps"], counter?: number}} */ (
        core.resolve(request, []));
      const change = healthChange({ system: target.system, effects: ActorStatuses.effectsOf(actor) }, statuses, answer.target);
      const undo = await ActorHealth.applyHealth(actor, change);
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
      if (terrain && !terrainTaken) applied.terrain = true;
      callAfter(HOOKS.applyDamage, actor, applied);
      return applied;
    } catch (error) {
      if (limit?.counts) await actor.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
      if (terrain && !terrainTaken) await actor.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
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
      await ActorHealth.undoHealth(target, applied.undo);
      if (applied.slashed) await target.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
      if (applied.terrain) await target.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
    }
    if (applied.vigilance) await ActorHealth.refundVigilance(applied.vigilance);
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

  /**
   * Slashed's "no more than once a turn" for this actor now (see data/slashed.mjs).
   * @param {Actor.Implementation} actor
   */
  static slashedLimit(actor) {
    return slashedLimit({ inCombat: ActorTurns.inCombat(actor), takenThisTurn: !!actor.getFlag(SYSTEM_ID, SLASHED_FLAG) });
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
      throw new Error(formatPlural("ICONENGINE.Vigilance.NotHeldCount", charges, { name: actor.name ?? "", held }));
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
}
