import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { healthChange, statusEffectData } from "../data/health-changes.mjs";
import { coreStatuses } from "../data/rules.mjs";
import "./cards/icon-tactical.mjs";
import IconRoll from "./icon-roll.mjs";
import { applyMode, currentMode } from "../message-mode.mjs";
import { abilityAftermath, applyDamageRequest, attackResult, attackerOf, coreTarget, damageOptions, damageRequest, healRequest, planAttack,
  saveRequest } from "./tactical-requests.mjs";

/**
 * The damage Slashed deals; the core refuses any other amount for a `slashed` source.
 */
export const SLASHED_DAMAGE = 4;

/**
 * @typedef {object} IconTurnOrder  What this module uses of the ICON Combat (documents/icon-combat.mjs).
 * @property {{current?: {id: string} | null} | null} iconState
 * @property {{get(id: string): {actor?: {uuid: string} | null} | undefined}} combatants
 * @property {(event: object) => Promise<void>} iconDispatch
 */

/**
 * @import { AttackState } from "./tactical-requests.mjs"
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
   * @param {object} [flags]
   */
  static async post(actor, rolls, flavor, rollMode, flags = {}) {
    const data = {
      speaker: ChatMessage.implementation.getSpeaker({ actor }),
      flavor,
      rolls,
      // Roll#toMessage plays it for its messages; these are created directly.
      sound: CONFIG.sounds.dice,
      flags: { [SYSTEM_ID]: { tactical: flags } }
    };
    // A key of CONFIG.Dice.rollModes: from the dialogs' roll-mode select or the core setting.
    applyMode(data, rollMode);
    return ChatMessage.implementation.create(data);
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
   * Slashed: "Take 4 damage after you or an ally uses an ability that moves you, but no more than
   * once a turn." Applies the core's slashed damage to the actor and posts the breakdown. (Once a
   * turn is the table's to keep.)
   * @param {Actor.Implementation} actor
   * @param {{rollMode?: string}} [options]
   */
  static async slashed(actor, { rollMode } = {}) {
    return TacticalRolls.damage(actor, SLASHED_DAMAGE, { source: "slashed", ability: false, fromFoe: false },
      { label: "ICONENGINE.Status.slashed.name", rollMode });
  }

  /**
   * Damage that is no attack's (Slashed, Counter): the core's `icon.applyDamage` applied to the
   * actor at once, and a card with its breakdown.
   * @param {Actor.Implementation} actor
   * @param {number} amount
   * @param {Record<string, unknown>} options  icon.applyDamage options (source, ability, fromFoe, ...).
   * @param {{label: string, rollMode?: string}} card  `label`: i18n key of the card's heading.
   */
  static async damage(actor, amount, options, { label, rollMode }) {
    const statuses = TacticalRolls.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Damage is dealt to the actors with ICON health (Slashed and Counter hit characters and foes).
    const target = /** @type {IconHealthActor} */ (actor);
    const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
    const roll = await TacticalRolls.roll(request, { role: "health", actor: who, label });
    const outcome = /** @type {Done & {target: Parameters<typeof healthChange>[2]}} */ (roll.outcome);
    await TacticalRolls.applyHealth(actor, healthChange({ system: target.system, effects: TacticalRolls.effectsOf(actor) }, statuses, outcome.target));
    return TacticalRolls.post(actor, [roll], game.i18n?.localize(label) ?? label, rollMode ?? TacticalRolls.#defaultRollMode());
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
