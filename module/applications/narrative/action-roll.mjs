/**
 * The action roll dialog's logic: the core request from the actor and the inputs, and the
 * template context with the core's exact odds. Pure (core + i18n keys only), so the browser test
 * renders the dialog with exactly this code.
 * @import { CoreRequest, Odds } from "../../types/core.js"
 */
import { odds, plan, resolve } from "../../core.mjs";
import Fraction from "../../dice/fraction.mjs";
import OddsReport from "../../dice/odds-report.mjs";
import { burdenTicksOn } from "./narrative-state.mjs";

/** Risk levels, least to most dangerous. */
export const RISKS = /** @type {const} */ (["controlled", "risky", "desperate"]);
/** Effect levels, weakest to strongest. */
export const EFFECTS = /** @type {const} */ (["none", "weak", "normal", "powerful", "superpowered"]);
/** Action roll results, as the core labels its outcomes. */
export const ACTION_RESULTS = /** @type {const} */ (["fail", "partial", "success", "critical"]);
/** Fortune roll results. */
export const FORTUNE_RESULTS = /** @type {const} */ (["poor", "average", "good", "excellent"]);

/**
 * @typedef {object} ActionInputs  What the player adds to a roll.
 * @property {number} boons
 * @property {number} curses
 * @property {boolean} push       Spend 1 effort for +1 boon.
 * @property {number} aid         Allies spending 1 effort each for +1 boon.
 * @property {boolean} temptFate  +1 die; the suggested consequence comes true.
 */

/**
 * @typedef {{risk: typeof RISKS[number], effect: typeof EFFECTS[number]}} Position  The GM's call.
 */

/**
 * @typedef {ActionInputs & {kind: "icon.action", rating: number, burdenTicks: number, broken: boolean,
 *   risk: string, effect: string}} ActionRequest  An `icon.action` request (docs/js-contract.md).
 */

/** @returns {ActionInputs} */
export function defaultInputs() {
  return { boons: 0, curses: 0, push: false, aid: 0, temptFate: false };
}

/** @type {Position} */
export const DEFAULT_POSITION = Object.freeze({ risk: "risky", effect: "normal" });

/** @param {unknown} value */
const count = value => Math.min(20, Math.max(0, Math.trunc(Number(value) || 0)));

/**
 * The inputs of the dialog's form data (strings or numbers, checkboxes as booleans).
 * @param {Record<string, unknown>} data
 * @returns {ActionInputs}
 */
export function readInputs(data) {
  return {
    boons: count(data.boons), curses: count(data.curses), push: data.push === true || data.push === "on",
    aid: count(data.aid), temptFate: data.temptFate === true || data.temptFate === "on"
  };
}

/**
 * A risk/effect pair with unknown values replaced by the defaults.
 * @param {Partial<Record<"risk"|"effect", unknown>> | null | undefined} data
 * @returns {Position}
 */
export function readPosition(data) {
  const risk = RISKS.find(r => r === data?.risk) ?? DEFAULT_POSITION.risk;
  const effect = EFFECTS.find(e => e === data?.effect) ?? DEFAULT_POSITION.effect;
  return { risk, effect };
}

/**
 * The `icon.action` request of a character's action: rating from the actor, burden ticks from
 * its burdens, breaking from its state, the rest from the dialog and the GM's position.
 * @param {import("../../types/system.js").CharacterNarrative} system  The character's system data.
 * @param {string} action    e.g. "smash".
 * @param {ActionInputs} inputs
 * @param {Position} position
 * @returns {ActionRequest}
 */
export function actionRequest(system, action, inputs, position) {
  return {
    kind: "icon.action",
    rating: system.actions[action] ?? 0,
    burdenTicks: burdenTicksOn(system.burdens ?? [], action),
    broken: Boolean(system.broken),
    ...inputs,
    risk: position.risk,
    effect: position.effect
  };
}

/**
 * The dice the core rolls for a request, by reading a dummy roll of its plan: the pool is the
 * core's answer (clamp, burdens, floor), never recomputed here.
 * @param {CoreRequest} request
 * @returns {number}
 */
export function poolOf(request) {
  const faces = plan(request).map(die => Array.from({ length: die.count }, () => 1));
  const answer = resolve(request, faces);
  return answer.status === "done" ? Number(answer.pool) : 0;
}

/**
 * Rows of the odds table: each result's probability, as a percentage and as the exact fraction.
 * @param {Odds} report
 * @param {readonly string[]} labels  The core's outcome labels, in order.
 * @param {(label: string) => string} name  i18n key of a label's name.
 */
export function oddsRows(report, labels, name) {
  return labels.map(key => {
    const p = report.outcomes[key] ?? 0;
    const exact = report.exact?.outcomes[key];
    // Reduced and without a denominator of 1: "0", not "0/1".
    return { key, label: name(key), p, percent: OddsReport.formatPercent(p),
      exact: exact === undefined ? null : Fraction.parse(exact).toString(), width: (p * 100).toFixed(2) };
  });
}

/**
 * @param {readonly string[]} values
 * @param {string} current
 * @param {(value: string) => string} label  i18n key of each value.
 */
function choices(values, current, label) {
  return values.map(value => ({ value, label: label(value), selected: value === current }));
}

/**
 * Everything the action roll dialog shows.
 * @param {object} args
 * @param {import("../../types/system.js").CharacterNarrative} args.system  The character's system data.
 * @param {string} args.action
 * @param {ActionInputs} args.inputs
 * @param {Position} args.position    The GM's risk and effect.
 * @param {boolean} args.isGM         Only the GM sets risk and effect; players see them.
 */
export function actionDialogContext({ system, action, inputs, position, isGM }) {
  const request = actionRequest(system, action, inputs, position);
  const report = odds(request);
  const pool = poolOf(request);
  // The actor pays for a push and for acting while broken; aid is paid by the helpers.
  const effortCost = Number(inputs.push) + Number(Boolean(system.broken));
  return {
    action,
    actionLabel: `ICONENGINE.ActionRating.${action}`,
    rating: request.rating,
    burdenTicks: request.burdenTicks,
    broken: Boolean(system.broken),
    effort: system.effort ?? 0,
    effortCost,
    effortShort: effortCost > (system.effort ?? 0),
    inputs,
    pool,
    lowest: pool === 0,
    isGM,
    position,
    riskOptions: choices(RISKS, position.risk, v => `ICONENGINE.Narrative.Risk.${v}`),
    effectOptions: choices(EFFECTS, position.effect, v => `ICONENGINE.Narrative.Effect.${v}`),
    odds: oddsRows(report, ACTION_RESULTS, v => `ICONENGINE.Narrative.Result.${v}`),
    request
  };
}

/**
 * The effort update after a roll: the actor pays the outcome's effort except the helpers' share.
 * @param {{effort?: number}} system
 * @param {{effort?: unknown, effortHelpers?: unknown}} outcome  The core's `icon.action` outcome.
 * @returns {Record<string, number>}  Empty when nothing is paid.
 */
export function effortUpdate(system, outcome) {
  const paid = Number(outcome.effort ?? 0) - Number(outcome.effortHelpers ?? 0);
  if (paid <= 0) return {};
  return { "system.effort": Math.max(0, (system.effort ?? 0) - paid) };
}
