/**
 * Chat cards of the ICON tactical rolls: attack, evasion, damage, save and healing. Importing this
 * module registers them with the roll-card registry. The context functions are pure (game.i18n
 * only, through the templates' `localize`), so the browser test renders a card from a real core
 * outcome exactly as IconRoll does.
 *
 * Roll options carry a `tactical` object (see TacticalRolls) naming the target or actor and, for
 * damage, how to apply it; outcome-dependent parts are only built when IconRoll passes an
 * outcome, which it never does for a roll that is private to the viewer (blind rolls).
 */
import { SYSTEM_PATH } from "../../config.mjs";
import { registerRollCard } from "../roll-cards.mjs";

/**
 * @import { CoreRequest, Done } from "../../types/core.js"
 */

/**
 * @typedef {object} TacticalOptions  What an IconRoll of a tactical kind carries besides its request.
 * @property {string} [role]        "attack", "evasion", "damage", "save", "heal".
 * @property {number} [key]         The target's index in the attack (ties damage to its attack).
 * @property {{uuid: string, name: string, img?: string, defense?: number} | null} [target]
 * @property {{uuid: string, name: string} | null} [actor]  Who saves or heals.
 * @property {{id: string, name: string} | null} [status]   The status a save is against.
 * @property {import("../tactical-requests.mjs").DamageOptions | import("../tactical-requests.mjs").HealthDamageOptions} [apply]
 *   icon.applyDamage options (source, pierce, divine, ...) of a damage or health card.
 * @property {boolean} [saveForHalf] The attack's targets may save for half (a second Apply button).
 * @property {string} [label]       i18n key of a health card's heading (Slashed, Counter).
 * @property {number} [amount]      A health card's damage before the rules (Slashed's 4, Counter's 2).
 */

export const TEMPLATES = {
  attack: `${SYSTEM_PATH}/templates/chat/tactical-attack.hbs`,
  evasion: `${SYSTEM_PATH}/templates/chat/tactical-evasion.hbs`,
  damage: `${SYSTEM_PATH}/templates/chat/tactical-damage.hbs`,
  save: `${SYSTEM_PATH}/templates/chat/tactical-save.hbs`,
  heal: `${SYSTEM_PATH}/templates/chat/tactical-heal.hbs`,
  applied: `${SYSTEM_PATH}/templates/chat/tactical-applied.hbs`,
  vigilance: `${SYSTEM_PATH}/templates/apps/vigilance-spend.hbs`
};

/**
 * @param {Record<string, unknown>} options
 * @returns {TacticalOptions}
 */
function tacticalOf(options) {
  return /** @type {TacticalOptions} */ (options?.tactical ?? {});
}

/**
 * Faces of one plan entry as dice chips; `counted` marks the one die that counts (highest).
 * @param {number[] | undefined} faces
 * @param {string} cls       Foundry's die class (d6, d20).
 * @param {number | null} [counted]
 */
function chips(faces, cls, counted) {
  let used = false;
  return (faces ?? []).map(face => {
    const active = counted === undefined || (!used && face === counted);
    if (active && counted !== undefined) used = true;
    return { face, cls, discarded: !active };
  });
}

/**
 * The result label key of a hit/crit/miss.
 * @param {"hit"|"crit"|"miss"} result
 */
function resultKey(result) {
  return `ICONENGINE.Tactical.Result.${result}`;
}

/**
 * Attack card: the target's Evasion d6 when it rolled one, the d20 and the counted boon or curse
 * die (none for an auto-hit), total against the target's defense, and hit / miss / critical hit /
 * exceed, with Evaded, Auto-hit and True Strike said.
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function attackContext(outcome, request, options) {
  const req = /** @type {Record<string, unknown>} */ (request);
  const { target = null, key = 0 } = tacticalOf(options);
  const die = outcome.boonDie ?? outcome.curseDie ?? null;
  const extra = outcome.boonDie != null ? "boon" : outcome.curseDie != null ? "curse" : null;
  /** @type {"hit"|"crit"|"miss"|null} */
  const result = outcome.crit ? "crit" : outcome.hit === true ? "hit" : outcome.hit === false ? "miss" : null;
  // The faces in plan order: the evasion d6, the d20, the boon or curse dice (each when rolled).
  const evading = outcome.evasionDie !== undefined && outcome.evasionDie !== null;
  const rolled = outcome.d20 !== undefined && outcome.d20 !== null;
  let at = 0;
  const evasionDice = evading ? chips(outcome.faces[at++], "d6 evasion") : [];
  const d20Dice = rolled ? chips(outcome.faces[at++], "d20") : [];
  return {
    key,
    target,
    defense: typeof req.defense === "number" ? req.defense : null,
    evasionDice,
    evaded: !!outcome.evaded,
    autoHit: !!outcome.autoHit,
    trueStrike: req.trueStrike === true,
    dice: [
      ...d20Dice,
      ...(rolled ? chips(outcome.faces[at], `d6 ${extra ?? ""}`.trim(), /** @type {number|null} */ (die)) : [])
    ],
    extra,
    extraDie: die,
    bonus: Number(req.bonus ?? 0),
    result,
    resultLabel: result ? resultKey(result) : null,
    exceed: !!outcome.exceed,
    net: Number(req.boons ?? 0) - Number(req.curses ?? 0)
  };
}

/**
 * Evasion card: the target's d6 before the attack, 4+ evades (the attack misses).
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function evasionContext(outcome, request, options) {
  const { target = null } = tacticalOf(options);
  return { target, dice: chips(outcome.faces[0], "d6"), evaded: !!outcome.evaded };
}

/**
 * Damage card: kept and dropped [D]s, fray and flat, the total, and the target's Apply button
 * (the chat hook swaps in the breakdown and Undo once applied).
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function damageContext(outcome, request, options) {
  const req = /** @type {Record<string, unknown>} */ (request);
  const { target = null, key = 0 } = tacticalOf(options);
  const cls = `d${req.die}`;
  const kept = /** @type {number[]} */ (outcome.kept ?? []);
  const dropped = /** @type {number[]} */ (outcome.dropped ?? []);
  const result = /** @type {"hit"|"crit"|"miss"} */ (outcome.result);
  const apply = tacticalOf(options).apply;
  return {
    target,
    key,
    result,
    resultLabel: resultKey(result),
    // "cannot bring your hp below 1": the Apply buttons send floor 1
    floor: !!apply && "floor" in apply && apply.floor === 1,
    critAgain: req.critAgain === true,
    dice: [...kept.map(face => ({ face, cls, discarded: false })), ...dropped.map(face => ({ face, cls, discarded: true }))],
    fray: outcome.fray,
    flat: outcome.flat,
    hasFlat: Number(outcome.flat) !== 0,
    canApply: !!target?.uuid,
    canApplySaved: !!target?.uuid && !!tacticalOf(options).saveForHalf
  };
}

/**
 * Save card: d20 + boon/curse die, success on 10+, and the status it was against.
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function saveContext(outcome, request, options) {
  const { actor = null, status = null } = tacticalOf(options);
  const die = outcome.boonDie ?? outcome.curseDie ?? null;
  const extra = outcome.boonDie != null ? "boon" : outcome.curseDie != null ? "curse" : null;
  return {
    actor,
    status,
    dice: [
      ...chips(outcome.faces[0], "d20"),
      ...chips(outcome.faces[1], `d6 ${extra ?? ""}`.trim(), /** @type {number|null} */ (die))
    ],
    success: !!outcome.success,
    resultLabel: outcome.success ? "ICONENGINE.Tactical.Save.success" : "ICONENGINE.Tactical.Save.failure"
  };
}

/**
 * A step's change as the card shows it: "−1", "+4", or nothing for a step that changes no number.
 * @param {number | undefined} change
 */
function changeText(change) {
  if (!change) return "";
  return change > 0 ? `+${change}` : `−${-change}`;
}

/**
 * The breakdown of a health outcome, one labelled line per core step: what the rule did
 * (`change`, "Armor −1") and, apart, the running amount after it.
 * @param {{rule: string, change?: number, amount: number}[]} steps
 */
export function stepLines(steps) {
  return steps.map(step => ({ rule: step.rule, label: `ICONENGINE.Tactical.Step.${step.rule}`, change: changeText(step.change),
    amount: step.amount }));
}

/** The headings a health card may show (the damage that is no attack's: TacticalRolls.damage's callers). */
export const HEALTH_LABELS = Object.freeze(["ICONENGINE.Tactical.Damage", "ICONENGINE.Status.slashed.name", "ICONENGINE.Status.counter.name",
  "ICONENGINE.Rules.DangerousTerrain", "ICONENGINE.Rules.Sacrifice", "ICONENGINE.Card.Collision"]);

/**
 * Health card of damage that is no attack's (Slashed, Counter): whose, the steps, and HP/vigor now.
 * A card that carries its target and options (TacticalRolls.damage) has an apply block instead of
 * the steps: the chat hook shows the applied breakdown with Undo there, or, after an Undo, its
 * Apply button.
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function healthContext(outcome, request, options) {
  const { actor = null, label: claimed, target = null, key = 0, apply = null } = tacticalOf(options);
  const label = HEALTH_LABELS.includes(String(claimed)) ? String(claimed) : "ICONENGINE.Tactical.Damage";
  // The amount the request asks (what an Apply applies), not a number the roll's options claim.
  const amount = Math.max(0, Math.trunc(Number(/** @type {{amount?: unknown}} */ (request).amount)) || 0);
  const after = /** @type {{hp: number, vigor: number}} */ (outcome.target);
  return {
    actor,
    healingLabel: label,
    steps: stepLines(/** @type {{rule: string, change: number, amount: number}[]} */ (outcome.steps ?? [])),
    hp: after.hp,
    vigor: after.vigor,
    saves: [],
    key,
    target,
    amount,
    canApply: !!target?.uuid && !!apply
  };
}

/**
 * Healing card: which rule, the steps, and the statuses a cure lets the character save against.
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} options
 */
export function healContext(outcome, request, options) {
  const req = /** @type {Record<string, unknown>} */ (request);
  const { actor = null } = tacticalOf(options);
  const target = /** @type {{hp: number, vigor: number}} */ (outcome.target);
  return {
    actor,
    healing: req.healing,
    healingLabel: `ICONENGINE.Tactical.Healing.${req.healing}`,
    steps: stepLines(/** @type {{rule: string, change: number, amount: number}[]} */ (outcome.steps ?? [])),
    hp: target.hp,
    vigor: target.vigor,
    saves: /** @type {string[]} */ (outcome.saves ?? []).map(id => ({ id, label: `ICONENGINE.Status.${id}.name` }))
  };
}

/**
 * @typedef {object} AppliedDamage  What the message flags keep of one applied damage roll.
 * @property {string} targetUuid
 * @property {string} targetName
 * @property {number} dealt           Damage the target took, vigor and HP (the core's total).
 * @property {{rule: string, change?: number, amount: number}[]} steps
 * @property {number} [counter]       Damage the target's Counter deals back to the attacker.
 * @property {boolean} [counterDone]  The Counter damage was applied.
 * @property {{hp: number, vigor: number, wounds: number, defeated: boolean, fallen: boolean}} after
 * @property {import("../../data/health-changes.mjs").HealthUndo} undo
 * @property {string} userId          Who applied it.
 * @property {boolean} [slashed]      Slashed damage that counted against the turn (Undo frees it).
 * @property {boolean} [terrain]      Dangerous terrain damage that counted against the turn (Undo frees it).
 * @property {VigilanceSpent} [vigilance]  The Vigilance spent on it (Undo gives the charges back).
 */

/**
 * @typedef {object} VigilanceSpent  Vigilance charges an ally spent on a damage.
 * @property {string} uuid            The ally's actor.
 * @property {string} name
 * @property {number} charges         Charges spent (1d6 each).
 * @property {number} rolled          The highest d6: the armor it gave.
 * @property {ActiveEffect.Source[]} restoreEffects  The Vigilance status the last charge ended.
 */

/**
 * The context of an applied damage breakdown (with its Undo button).
 * @param {AppliedDamage} applied
 * @param {number} key
 */
export function appliedContext(applied, key) {
  return {
    key,
    targetName: applied.targetName,
    dealt: applied.dealt,
    steps: stepLines(applied.steps),
    after: applied.after,
    counter: applied.counter && !applied.counterDone ? applied.counter : 0,
    vigilance: applied.vigilance ? { name: applied.vigilance.name, charges: applied.vigilance.charges, rolled: applied.vigilance.rolled } : null
  };
}

registerRollCard("icon.attack", { template: TEMPLATES.attack, context: attackContext });
registerRollCard("icon.evasion", { template: TEMPLATES.evasion, context: evasionContext });
registerRollCard("icon.damage", { template: TEMPLATES.damage, context: damageContext });
registerRollCard("icon.save", { template: TEMPLATES.save, context: saveContext });
registerRollCard("icon.heal", { template: TEMPLATES.heal, context: healContext });
registerRollCard("icon.applyDamage", { template: TEMPLATES.heal, context: healthContext });
