import { SYSTEM_ID } from "../config.mjs";
import { getCore, isCoreLoaded, loadCore } from "../core.mjs";
import { coreStatuses } from "../data/rules.mjs";
import { isUnsaveable } from "../data/effect-duration.mjs";
import { format } from "../applications/i18n.mjs";

/**
 * @import { EffectLike } from "../data/health-changes.mjs"
 * @import { Done } from "../types/core.js"
 */

/**
 * An actor's statuses as the rules read them, and whether a status may land on it: the core's
 * `icon.inflict` (Unstoppable, Sealed, Intangible) decides; this only reads and writes effects.
 */
export default class ActorStatuses {
  /**
   * The actor's statuses as the core names them (`id+` for ongoing ones).
   * @param {Actor.Implementation} actor
   * @returns {string[]}
   */
  static statusesOf(actor) {
    // How each lasts, from either generation's shape (effect-duration.mjs). A blight reads as
    // ongoing: no save ends it ("Blights need to be cured to be removed").
    const effects = [...actor.appliedEffects].map(effect => ({ statuses: effect.statuses, ongoing: isUnsaveable(effect) }));
    const statuses = coreStatuses(effects);
    // "Summons are intangible": immune to damage and effects from foes, whatever effects they carry.
    if (ActorStatuses.isSummon(actor) && !statuses.some(s => s.replace(/\+$/, "") === "intangible")) statuses.push("intangible+");
    return statuses;
  }

  /**
   * Whether an actor is a summon on the viewed scene: an unlinked token's actor, or a linked actor's
   * token, flagged `summoned` (module/documents/combat-effects.mjs removes them when combat ends).
   * @param {Actor.Implementation} actor
   */
  static isSummon(actor) {
    return !!actor.token?.getFlag?.(SYSTEM_ID, "summoned")
      || !!(typeof canvas === "undefined" ? null : canvas)?.scene?.tokens.some(t => t.actorLink && t.actorId === actor.id && !!t.getFlag(SYSTEM_ID, "summoned"));
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
   * Whether a status lands on a target: the core's `icon.inflict` ("Unstoppable: Immune to all
   * statuses", "Sealed: Character cannot inflict statuses", Intangible against a foe's). When it
   * does, the status is added; when not, a notice says what stopped it.
   * @param {Actor.Implementation | null} inflicter  Who inflicts it (null: no one, e.g. terrain).
   * @param {Actor.Implementation} target
   * @param {string} status
   * @param {{fromFoe?: boolean}} [options]
   * @returns {Promise<boolean>}  Whether it landed.
   */
  static async inflict(inflicter, target, status, { fromFoe = true } = {}) {
    const core = await loadCore();
    const answer = /** @type {Done & {inflicted: boolean, blockedBy: string | null}} */ (core.resolve({ kind: "icon.inflict", status,
      inflicter: inflicter ? ActorStatuses.statusesOf(inflicter) : [], target: ActorStatuses.statusesOf(target), fromFoe }, []));
    if (!answer.inflicted) {
      ui.notifications?.warn(format(`ICONENGINE.Rules.Blocked.${answer.blockedBy}`, {
        name: target.name ?? "", inflicter: inflicter?.name ?? "", status: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }));
      return false;
    }
    await target.toggleStatusEffect(status, { active: true });
    return true;
  }

  /**
   * "Unstoppable: Immune to all statuses": the status a user is about to put on an Unstoppable
   * character (the token HUD, a macro, an ability) is refused with a notice, as the core's
   * `icon.inflict` says; positive effects, states and marks pass. The inflicter is not known
   * here, so Sealed and Intangible are left to {@link ActorStatuses.inflict}.
   * @param {ActiveEffect.Implementation} effect
   * @returns {boolean}  false: refuse the creation.
   */
  static allowStatus(effect) {
    const actor = effect.parent;
    if (!(actor instanceof Actor) || !effect.statuses.size || !isCoreLoaded()) return true;
    const target = ActorStatuses.statusesOf(/** @type {Actor.Implementation} */ (actor));
    for (const status of effect.statuses) {
      const answer = /** @type {Done & {inflicted?: boolean, blockedBy?: string | null}} */ (
        getCore().resolve({ kind: "icon.inflict", status, target, fromFoe: false }, []));
      if (answer.inflicted === false) {
        ui.notifications?.warn(format(`ICONENGINE.Rules.Blocked.${answer.blockedBy}`, { name: actor.name ?? "", inflicter: "",
          status: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }));
        return false;
      }
    }
    return true;
  }

  /** Statuses stop at Unstoppable, whoever adds them (the token HUD, a macro, an ability). */
  static register() {
    Hooks.on("preCreateActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => ActorStatuses.allowStatus(effect));
  }
}
