/**
 * Chat cards of the other rulesets (ICONS, Tribute, the 3d6 skill system, Men & Supermen): one
 * template per request kind, and a pure context from the core's stored outcome, so a card renders
 * the same from a live roll, a reload, or a test.
 */
import { SYSTEM_PATH } from "../../config.mjs";
import { format, formatPlural, localize } from "../../applications/i18n.mjs";
import { registerRollCard } from "../roll-cards.mjs";
import { kindLabelKey } from "../ruleset-requests.mjs";

/**
 * @import { CoreRequest, Done } from "../../types/core.js"
 * @typedef {{label?: string, reaction?: boolean}} CardOptions  `options.ruleset` of the roll.
 * @typedef {Record<string, unknown>} Request  The request's fields, as the dialog sent them.
 */

/**
 * The outcome of each kind, as docs/js-contract.md gives it (the core's `resolve`/`roll`), on top
 * of what every outcome has (Done: `total`, `faces`).
 * @typedef {Done & {positive: number, negative: number, result: number, effort: number, effect: number,
 *   outcome: string, cosmic?: boolean}} IconsTestOutcome
 * @typedef {Done & {focusDice: number[], burdenDice: number[], value: number, opposition: number,
 *   result: string, profit: number, waste: number, effectRank?: number | null}} TributeTestOutcome
 * @typedef {Done & {roll: number, successLevels: number, success: boolean, percent?: number | null,
 *   extraRanks?: number | null, knowledge?: string | null, attack?: string | null, damage?: number | null}} NarratorSkillOutcome
 * @typedef {Done & {dice?: number[], rerolls?: number[], success?: boolean, quality?: unknown, value?: number,
 *   multiplier?: number | null}} MnsOutcome
 */

/** Template of each kind. */
export const RULESET_CARD_TEMPLATES = Object.freeze({
  "icons.test": `${SYSTEM_PATH}/templates/chat/icons-test.hbs`,
  "tribute.test": `${SYSTEM_PATH}/templates/chat/tribute-test.hbs`,
  "narrator.skill": `${SYSTEM_PATH}/templates/chat/narrator-skill.hbs`,
  "mns.action": `${SYSTEM_PATH}/templates/chat/mns-roll.hbs`,
  "mns.save": `${SYSTEM_PATH}/templates/chat/mns-roll.hbs`,
  "mns.dice": `${SYSTEM_PATH}/templates/chat/mns-roll.hbs`
});

/** @param {string} key @param {Record<string, unknown>} [data] */
const t = (key, data) => (data ? format(key, data) : localize(key));

/** @param {number} n */
const signed = n => (n > 0 ? `+${n}` : `${n}`);

/**
 * The card's heading: what was rolled (from the dialog) or the kind's name.
 * @param {string} kind
 * @param {Record<string, unknown>} options
 */
function heading(kind, options) {
  const ruleset = /** @type {CardOptions} */ (options?.ruleset ?? {});
  return {
    title: ruleset.label || t(kindLabelKey(kind)),
    reaction: Boolean(ruleset.reaction)
  };
}

/**
 * Dice as the card shows them; `highlight` marks the counted one.
 * @param {number[]} values
 * @param {number} faces
 * @param {boolean} [markHighest]
 */
function dice(values, faces, markHighest = false) {
  const top = Math.max(...values);
  const first = values.indexOf(top);
  return values.map((value, i) => ({ value, dieClass: `d${faces}`, counted: markHighest && i === first }));
}

/**
 * Foundry's dice CSS class (`d6`, `d10`, `df`) of a term's notation (`3d6`, `2d10kh1`).
 * @param {string} notation
 */
function dieClassOf(notation) {
  const match = /d(\d+|f)/i.exec(String(notation ?? ""));
  return match ? `d${match[1].toLowerCase()}` : "";
}

/**
 * `icons.test`: positive and negative die, effort, effect and the outcome.
 * @param {IconsTestOutcome} o @param {Request} r @param {Record<string, unknown>} options
 */
export function iconsTestCard(o, r, options) {
  const difficulty = Number(r.difficulty) + Number(r.penalty ?? 0);
  return {
    ...heading("icons.test", options),
    positive: { value: o.positive, dieClass: "d6" },
    negative: { value: o.negative, dieClass: "d6" },
    result: signed(o.result),
    ability: r.ability,
    bonus: Number(r.bonus ?? 0) ? signed(Number(r.bonus)) : null,
    effort: o.effort,
    difficulty,
    effect: o.effect,
    outcome: o.outcome,
    outcomeLabel: t(`ICONENGINE.Rulesets.outcome.${o.outcome}`),
    success: o.outcome !== "failure",
    cosmic: Boolean(o.cosmic)
  };
}

/**
 * `tribute.test`: the FOCUS and BURDEN dice (the highest of each counted), the result against the
 * opposition, profit, waste and the effect rank after them.
 * @param {TributeTestOutcome} o @param {Request} r @param {Record<string, unknown>} options
 */
export function tributeTestCard(o, r, options) {
  const die = Number(r.die);
  return {
    ...heading("tribute.test", options),
    die: `d${die}`,
    rank: r.rank,
    focus: dice(o.focusDice, die, true),
    burden: dice(o.burdenDice, die, true),
    value: o.value,
    opposition: o.opposition,
    result: o.result,
    resultLabel: t(`ICONENGINE.Rulesets.outcome.${o.result}`),
    success: o.result !== "fail",
    profit: o.profit,
    waste: o.waste,
    effectBefore: r.effectRank ?? null,
    effectRank: o.effectRank ?? null
  };
}

/**
 * `narrator.skill`: the skill roll, the success levels and what they mean for the use.
 * @param {NarratorSkillOutcome} o @param {Request} r @param {Record<string, unknown>} options
 */
export function narratorSkillCard(o, r, options) {
  const use = String(r.use ?? "qualitative");
  const band = o.knowledge ?? o.attack ?? (o.success ? "success" : "failure");
  const levels = Number(o.successLevels);
  return {
    ...heading("narrator.skill", options),
    dice: r.dice ?? "3d6",
    // The dice the formula rolled, each with its own faces (a 1d20 set draws a d20).
    faces: (o.terms ?? []).flatMap((/** @type {{notation: string, results: {value: number, active: boolean}[]}} */ term) =>
      term.results.map(result => ({ value: result.value, dieClass: dieClassOf(term.notation), discarded: result.active === false }))),
    skill: r.skill,
    modifiers: Number(r.modifiers ?? 0) ? signed(Number(r.modifiers)) : null,
    roll: o.roll,
    difficulty: r.difficulty,
    levels: signed(levels),
    levelsLabel: levels < 0 ? formatPlural("ICONENGINE.Narrator.failureLevels", -levels) : formatPlural("ICONENGINE.Narrator.successLevels", levels),
    use: t(`ICONENGINE.Narrator.use.${use}`),
    band,
    bandLabel: t(`ICONENGINE.Rulesets.outcome.${band}`),
    bandHint: o.knowledge ? t(`ICONENGINE.Narrator.knowledgeHint.${o.knowledge}`) : null,
    success: Boolean(o.success),
    percent: o.percent === null || o.percent === undefined ? null : signed(o.percent),
    extraRanks: o.extraRanks || null,
    damage: o.damage ?? null
  };
}

/**
 * Men & Supermen: an Action Roll (with a Special character's re-rolled 1s), a save, or a special die.
 * @param {MnsOutcome} o @param {Request} r @param {Record<string, unknown>} options
 */
export function mnsRollCard(o, r, options) {
  const kind = String(r.kind);
  const base = { ...heading(kind, options), kind, total: o.total };
  if (kind === "mns.dice") {
    // The physical dice rolled, as the core names them (a d32 is a d4 and a d8).
    const sides = /** @type {number[]} */ (o.dieFaces ?? []);
    return { ...base, special: true, die: r.die,
      faces: (o.dice ?? []).map((/** @type {number} */ value, /** @type {number} */ i) => ({ value, dieClass: sides[i] ? `d${sides[i]}` : "" })),
      value: o.value, multiplier: o.multiplier ?? null };
  }
  const needed = (kind === "mns.action" ? Number(r.target) : Number(r.score)) + Number(r.bonus ?? 0);
  // An action's outcome has its dice (docs/js-contract.md); a save's are its faces.
  const rolled = o.dice ?? o.faces?.[0] ?? [];
  // Only a special character's 1s matter: the core re-rolled every 1 it asked a re-roll for.
  const rerolled = (o.rerolls ?? []).length > 0;
  return {
    ...base,
    dice: rolled.map((/** @type {number} */ value) => ({ value, dieClass: r.dice === "d100" ? "d100" : "d10", one: rerolled && value === 1 })),
    rerolls: (o.rerolls ?? []).map((/** @type {number} */ value) => ({ value, dieClass: "d10" })),
    needed,
    bonus: Number(r.bonus ?? 0) ? signed(Number(r.bonus)) : null,
    success: Boolean(o.success),
    quality: o.quality,
    resultLabel: t(o.success ? "ICONENGINE.Rulesets.outcome.success" : "ICONENGINE.Rulesets.outcome.failure")
  };
}

/** The context function of each kind. */
export const RULESET_CARD_CONTEXTS = Object.freeze({
  "icons.test": iconsTestCard,
  "tribute.test": tributeTestCard,
  "narrator.skill": narratorSkillCard,
  "mns.action": mnsRollCard,
  "mns.save": mnsRollCard,
  "mns.dice": mnsRollCard
});

/**
 * The card context of an outcome (what IconRoll merges under `card`).
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} [options]
 */
export function rulesetCardContext(outcome, request, options = {}) {
  // Each builder reads its kind's outcome fields (docs/js-contract.md); the kind picks the builder.
  const build = /** @type {Record<string, (o: Done, r: Request, options: Record<string, unknown>) => object>} */ (
    /** @type {unknown} */ (RULESET_CARD_CONTEXTS))[request.kind];
  if (!build) throw new Error(`ICON Engine: no ruleset card for "${request.kind}"`);
  return { ...build(outcome, /** @type {Request} */ (request), options) };
}

/** Register every ruleset card with the roll-card registry. */
export function registerRulesetCards() {
  for (const [kind, template] of Object.entries(RULESET_CARD_TEMPLATES)) {
    registerRollCard(kind, { template, context: (outcome, request, options) => rulesetCardContext(outcome, request, options) });
  }
}
