/**
 * What an ability (or relic) item's data means at the table, as pure functions the data models,
 * sheets, use flow and tests share (no Foundry API): its choices and limits, how using it is
 * refused or paid for (charges, once per turn/round/combat, interrupts), when it recharges, what
 * kind of use it is, and how stored data of an older shape reads today.
 */
import { AREA_SHAPES, AREA_SIZE } from "../canvas/area-shapes.mjs";
import { pluralKey } from "../applications/i18n.mjs";

export { AREA_SHAPES, AREA_SIZE };

/** The item types that can be used at the table (the ones with charges, limits and a use card). */
export const USABLE_TYPES = Object.freeze(["ability", "relic", "trait"]);

/** How far an ability reaches: nothing said, only its user, an adjacent space, or range N. */
export const RANGE_KINDS = /** @type {const} */ (["", "self", "melee", "range"]);

/** When spent charges come back: never by themselves, or at the end of the owner's turn, at each round's start, at the end of combat, at a rest or camp. */
export const RECHARGES = /** @type {const} */ (["", "turn", "round", "combat", "rest"]);

/** Once per: no limit, each turn (anyone's), each round, each combat. */
export const LIMITS = /** @type {const} */ (["", "turn", "round", "combat"]);

/**
 * When one of an ability's effects applies (the core's `icon.ability` decides, per target): on use,
 * whatever the attack did ("Effects happen regardless of hitting or missing, unless specified");
 * on a hit ("A critical hit counts as a hit"), a critical hit, a miss, an exceed (a total attack
 * roll of 15+), a failed save; and the triggered effects of the glossary: Charge (used on a slow
 * turn), Comeback (its user bloodied), Finishing Blow (its target bloodied), Slay (it reduced a
 * character to 0 hp), Gamble N+ (a d6 of N or more), Heroic (its condition met, judged at the table).
 */
export const EFFECT_TRIGGERS = /** @type {const} */ (["use", "hit", "crit", "miss", "exceed", "failedSave", "charge", "comeback",
  "finishingBlow", "slay", "gamble", "heroic"]);

/** Whom an effect lands on: the ability's targets, or its user ("gain 2 vigor"). */
export const TARGET_KINDS = /** @type {const} */ (["target", "self"]);

/**
 * Movement an effect makes: none, a shove ("Move a character involuntarily X spaces in a straight
 * line away from you"), a pull (towards you), a move the GM drags, up to X spaces; or its user's
 * own movement: a teleport ("A teleport ability allows its user to instantly move to a free space
 * within range X") or a rush ("Rush X: Move X spaces. You are unstoppable and immune to all damage
 * while moving").
 */
export const MOVE_KINDS = /** @type {const} */ (["", "shove", "pull", "move", "teleport", "rush"]);

/**
 * The kinds that move the ability's user ("allows its user to ...", "You are unstoppable"): a part
 * of one of these lands on its user whatever its `to` says (card-data.mjs `checkedPart`).
 */
export const USER_MOVES = /** @type {const} */ (["teleport", "rush"]);

/**
 * How long a status an effect inflicts lasts: until saved against (ICON's default: "You can make a
 * save to end most Statuses"), ongoing (+: "can't be ended until the thing causing it ... is
 * ended"), to the end of the affected character's next turn, or until cured, as a blight ("Blights
 * need to be cured to be removed": no save ends it, a cure does).
 */
export const EFFECT_DURATIONS = /** @type {const} */ (["save", "ongoing", "turn", "cure"]);

/** Bounds of the numbers an ability holds, `[min, max]`. */
export const ABILITY_BOUNDS = /** @type {const} */ ({
  range: [0, 100],
  areaSize: AREA_SIZE,
  charges: [0, 20],
  dice: [0, 6],
  boons: [0, 6],
  interrupt: [1, 10],
  resolveCost: [0, 10]
});

/**
 * @typedef {object} AbilityLike  What these rules read of an ability's (or relic's) `system`.
 * @property {string} [actions]     "1", "2", "free" or "interrupt".
 * @property {number} [interrupt]   Interrupt N: uses between the owner's turns.
 * @property {string[]} [tags]
 * @property {{kind?: string, value?: number}} [range]
 * @property {{shape?: string, size?: number}} [area]
 * @property {{enabled?: boolean}} [save]
 * @property {{value?: number, max?: number, recharge?: string}} [charges]
 * @property {{per?: string, used?: number}} [limit]
 */

/**
 * @typedef {object} Refusal  Why an ability cannot be used now: an i18n key and its data.
 * @property {string} key
 * @property {Record<string, string>} data
 */

/**
 * An ability's stored data of an older shape, as it reads today (called from the data model's
 * `migrateData`, which Foundry runs whenever it reads a document): `range` was free text. "3",
 * "Range 3" or "r3" become range 3, "melee" and "self" their kinds; any other text is kept at the
 * head of the description, so nothing is lost. Returns the same object, changed.
 * @template {Record<string, unknown>} T
 * @param {T} source
 * @returns {T}
 */
export function migrateAbilitySource(source) {
  const data = /** @type {Record<string, unknown>} */ (source);
  if (typeof data.range !== "string") return source;
  const text = data.range.trim();
  const number = /^(?:range\s*|r\s*)?(\d{1,3})$/i.exec(text);
  if (!text) data.range = { kind: "", value: 0 };
  else if (number) data.range = { kind: "range", value: Math.min(Number(number[1]), ABILITY_BOUNDS.range[1]) };
  else if (/^melee$/i.test(text)) data.range = { kind: "melee", value: 1 };
  else if (/^self$/i.test(text)) data.range = { kind: "self", value: 0 };
  else {
    data.range = { kind: "", value: 0 };
    const escaped = text.replace(/[&<>"']/g, c => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#x27" }[c]};`);
    data.description = `<p>${escaped}</p>${typeof data.description === "string" ? data.description : ""}`;
  }
  return source;
}

/**
 * How using this item goes: an attack opens the attack dialog (the Attack tag), a save calls for
 * its targets' saves, anything else posts its use card.
 * @param {AbilityLike} system
 * @returns {"attack" | "save" | "card"}
 */
export function useKind(system) {
  if (system.tags?.includes("attack")) return "attack";
  if (system.save?.enabled) return "save";
  return "card";
}

/**
 * The range an attack reads (`AttackOptions.range`): spaces, or null when nothing limits it.
 * Melee reaches an adjacent space ("a character must be adjacent to be in range for an attack,
 * unless a higher range is specified").
 * @param {AbilityLike["range"]} range
 * @returns {number | null}
 */
export function attackRange(range) {
  if (range?.kind === "range") return Math.max(0, Math.trunc(Number(range.value)) || 0);
  if (range?.kind === "melee") return Math.max(1, Math.trunc(Number(range.value)) || 1);
  return null;
}

/** @param {string} key @param {Record<string, unknown>} [data] @returns {Refusal} */
const refuse = (key, data = {}) => ({ key, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])) });

/**
 * Whether the item can be used now, or why not: no charge left, already used this turn, round or
 * combat (counted only in a started combat), an interrupt while Stunned ("Can't take
 * interrupts") or used up until its owner's next turn.
 * @param {AbilityLike} system
 * @param {{name?: string, inCombat?: boolean, statuses?: string[], interruptsUsed?: number}} [context]
 *   `interruptsUsed`: how often this interrupt was used since its owner's turn started.
 * @returns {Refusal | null}
 */
export function usability(system, { name = "", inCombat = false, statuses = [], interruptsUsed = 0 } = {}) {
  const charges = system.charges;
  if ((charges?.max ?? 0) > 0 && (charges?.value ?? 0) <= 0) return refuse("ICONENGINE.Use.NoCharges", { name });
  const per = system.limit?.per ?? "";
  if (inCombat && per && (system.limit?.used ?? 0) > 0) return refuse(`ICONENGINE.Use.Limit.${per}`, { name });
  if (system.actions === "interrupt") {
    if (statuses.some(s => s.replace(/\+$/, "") === "stunned")) return refuse("ICONENGINE.Use.Stunned", { name });
    const most = Math.max(1, Math.trunc(Number(system.interrupt)) || 1);
    if (inCombat && interruptsUsed >= most) return refuse(pluralKey("ICONENGINE.Use.InterruptsUsed", most), { name, count: most });
  }
  return null;
}

/**
 * What using the item spends: one charge, and its once-per mark in a combat. Dotted `system.*`
 * keys (Foundry's update expands them); empty when it spends nothing.
 * @param {AbilityLike} system
 * @param {{inCombat?: boolean}} [context]
 * @returns {Record<string, number>}
 */
export function consumption(system, { inCombat = false } = {}) {
  /** @type {Record<string, number>} */
  const update = {};
  if ((system.charges?.max ?? 0) > 0) update["system.charges.value"] = Math.max(0, (system.charges?.value ?? 0) - 1);
  if (inCombat && system.limit?.per) update["system.limit.used"] = (system.limit.used ?? 0) + 1;
  return update;
}

/**
 * The moments that give things back: a turn ends (`own`: the item's owner's turn), a round starts,
 * the combat ends, its owner rests or camps.
 * @typedef {"turnEnd" | "roundStart" | "combatEnd" | "rest"} Moment
 */

/**
 * What a moment gives back to an item: its charges (when they recharge then) and its once-per
 * mark (a turn's at any turn's end, a round's when the next starts, a combat's when it ends; the
 * end of combat clears them all). Dotted `system.*` keys; empty when nothing changes.
 * @param {AbilityLike} system
 * @param {Moment} moment
 * @param {{own?: boolean}} [context]  For `turnEnd`: whether it is the owner's turn that ends.
 * @returns {Record<string, number>}
 */
export function recharge(system, moment, { own = false } = {}) {
  /** @type {Record<string, number>} */
  const update = {};
  const charges = system.charges;
  const when = charges?.recharge ?? "";
  const due = (when === "turn" && moment === "turnEnd" && own) || (when === "round" && moment === "roundStart")
    || (when === "combat" && moment === "combatEnd") || (when === "rest" && moment === "rest");
  if ((charges?.max ?? 0) > 0 && due && (charges?.value ?? 0) !== charges?.max) update["system.charges.value"] = charges?.max ?? 0;
  const per = system.limit?.per ?? "";
  const clears = moment === "combatEnd" || (per === "turn" && moment === "turnEnd") || (per === "round" && moment === "roundStart");
  if (per && clears && (system.limit?.used ?? 0) > 0) update["system.limit.used"] = 0;
  return update;
}

/**
 * What an ability's rows and cards say of it, as i18n keys with their data: its cost, range and
 * area, its tags, its charges and its once-per limit.
 * @param {AbilityLike & {resolveCost?: number, trigger?: string}} system
 * @returns {{cost: Refusal | null, range: Refusal | null, area: Refusal | null, tags: string[], charges: {value: number, max: number} | null,
 *   limit: Refusal | null, trigger: string}}
 */
export function abilitySummary(system) {
  const actions = system.actions ?? "";
  const cost = !actions ? null : actions === "interrupt"
    ? refuse("ICONENGINE.Use.Cost.interrupt", { count: Math.max(1, Number(system.interrupt) || 1) })
    : refuse(`ICONENGINE.Use.Cost.${actions}`);
  const kind = system.range?.kind ?? "";
  const range = !kind ? null : refuse(`ICONENGINE.Use.Range.${kind}`, { value: system.range?.value ?? 0 });
  const shape = system.area?.shape ?? "";
  const area = shape ? refuse(`ICONENGINE.Area.${shape}`, { size: system.area?.size ?? 1 }) : null;
  const max = system.charges?.max ?? 0;
  const per = system.limit?.per ?? "";
  return {
    cost,
    range,
    area,
    tags: [...(system.tags ?? [])],
    charges: max > 0 ? { value: system.charges?.value ?? 0, max } : null,
    limit: per ? refuse(`ICONENGINE.Use.Once.${per}`) : null,
    trigger: actions === "interrupt" ? (system.trigger ?? "") : ""
  };
}
