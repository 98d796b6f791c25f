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
 * @property {boolean} [fortune]  A fortune roll of the action: the same dice, read poor to excellent.
 * @property {boolean} [brokenPaidByAlly]  Broken: a nearby character pays the 1 effort to act.
 * @property {string[]} [aidBy]  The allies who aid, by actor id ("you spend 1 effort to grant them
 *   +1 boon"); `aid` is their number when they are named.
 * @property {string} [brokenPaidBy]  Broken: the ally (actor id) who pays the effort to act, or "".
 */

/**
 * @typedef {object} Ally  A character who may aid the roller or pay for it while it is broken.
 * @property {string} id      Its actor id.
 * @property {string} name
 * @property {number} effort  What it has to spend.
 */

/**
 * @typedef {{risk: typeof RISKS[number], effect: typeof EFFECTS[number]}} Position  The GM's call.
 */

/**
 * @typedef {Omit<ActionInputs, "fortune" | "brokenPaidByAlly" | "aidBy" | "brokenPaidBy"> & {kind: "icon.action", rating: number, burdenTicks: number, broken: boolean,
 *   risk: string, effect: string, brokenPaidByAlly?: boolean, effortPool?: number}} ActionRequest  An `icon.action` request (docs/js-contract.md).
 */

/** @returns {ActionInputs} */
export function defaultInputs() {
  return { boons: 0, curses: 0, push: false, aid: 0, temptFate: false, fortune: false, brokenPaidByAlly: false, aidBy: [], brokenPaidBy: "" };
}

/** The most helpers a roll names (the core's limit of `aid`). */
export const MAX_HELPERS = 20;

/** A Foundry document id: what an ally is named by in the form. */
const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;

/** @param {unknown} value */
const checked = value => value === true || value === "on";

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
  // The allies' boxes, `aidBy.<id>`: flat as FormDataExtended gives them, or expanded.
  const boxes = data.aidBy && typeof data.aidBy === "object" ? Object.entries(data.aidBy).map(([id, on]) => [`aidBy.${id}`, on])
    : Object.entries(data);
  const aidBy = [...new Set(boxes.filter(([name, on]) => name.startsWith("aidBy.") && checked(on)).map(([name]) => name.slice(6)))]
    .filter(id => DOCUMENT_ID.test(id)).slice(0, MAX_HELPERS);
  const brokenPaidBy = typeof data.brokenPaidBy === "string" && DOCUMENT_ID.test(data.brokenPaidBy) ? data.brokenPaidBy : "";
  return {
    boons: count(data.boons), curses: count(data.curses), push: checked(data.push),
    aid: aidBy.length || count(data.aid), temptFate: checked(data.temptFate),
    fortune: checked(data.fortune),
    brokenPaidByAlly: !!brokenPaidBy || checked(data.brokenPaidByAlly),
    aidBy,
    brokenPaidBy
  };
}

/**
 * The inputs with their named helpers kept to the allies offered (one deleted meanwhile drops
 * out; only a broken roller is paid for), and `aid` and `brokenPaidByAlly` counted from them.
 * Inputs that name no one (a macro's `aid: 2`) are kept as they are.
 * @param {ActionInputs} inputs
 * @param {Ally[]} allies
 * @param {boolean} broken
 * @returns {ActionInputs}
 */
export function namedHelpers(inputs, allies, broken) {
  const known = new Set(allies.map(a => a.id));
  const named = { ...inputs };
  if (inputs.aidBy?.length) {
    named.aidBy = inputs.aidBy.filter(id => known.has(id));
    named.aid = named.aidBy.length;
  }
  if (inputs.brokenPaidBy) {
    named.brokenPaidBy = broken && known.has(inputs.brokenPaidBy) ? inputs.brokenPaidBy : "";
    named.brokenPaidByAlly = !!named.brokenPaidBy;
  }
  return named;
}

/**
 * What each named helper pays for a roll: 1 effort to aid, 1 more to pay a broken roller's way
 * ("Nearby characters can also spend effort for you"). A fortune roll buys nothing.
 * @param {ActionInputs} inputs
 * @returns {Map<string, number>}  Effort by actor id.
 */
export function helperCosts(inputs) {
  /** @type {Map<string, number>} */
  const costs = new Map();
  if (inputs.fortune) return costs;
  for (const id of inputs.aidBy ?? []) costs.set(id, (costs.get(id) ?? 0) + 1);
  if (inputs.brokenPaidBy) costs.set(inputs.brokenPaidBy, (costs.get(inputs.brokenPaidBy) ?? 0) + 1);
  return costs;
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
  const { boons, curses, push, aid, temptFate } = inputs;
  const broken = Boolean(system.broken);
  /** @type {ActionRequest} */
  const request = {
    kind: "icon.action",
    rating: system.actions[action] ?? 0,
    burdenTicks: burdenTicksOn(system.burdens ?? [], action),
    broken,
    boons, curses, push, aid, temptFate,
    risk: position.risk,
    effect: position.effect
  };
  // "Nearby characters can also spend effort for you" (only a broken character's 1 to act).
  if (broken && inputs.brokenPaidByAlly) request.brokenPaidByAlly = true;
  return request;
}

/**
 * The request as it is rolled: an action roll carries the character's effort (`effortPool`), so
 * the core refuses a roll it cannot pay and says what is left (`effortLeft`); the effort is
 * tracked across rolls on the actor. A fortune roll costs no effort and carries none.
 * @param {CoreRequest} request  From {@link dialogRequest}.
 * @param {{effort?: number}} system
 * @returns {CoreRequest}
 */
export function withEffortPool(request, system) {
  if (request.kind !== "icon.action") return request;
  return { ...request, effortPool: Math.max(0, Math.trunc(Number(system.effort) || 0)) };
}

/**
 * The `icon.fortune` request of a character's action: "the same as a regular action roll, except
 * the table of outcomes is different", so the action's rating, burden ticks, boons and curses
 * (no risk, no strain, nothing bought with effort).
 * @param {import("../../types/system.js").CharacterNarrative} system  The character's system data.
 * @param {string} action
 * @param {ActionInputs} inputs
 * @returns {CoreRequest & {rating: number, boons: number, curses: number, burdenTicks: number}}
 */
export function fortuneActionRequest(system, action, inputs) {
  return {
    kind: "icon.fortune",
    rating: system.actions[action] ?? 0,
    boons: inputs.boons,
    curses: inputs.curses,
    burdenTicks: burdenTicksOn(system.burdens ?? [], action)
  };
}

/**
 * The request the dialog rolls: the action roll, or its fortune roll.
 * @param {import("../../types/system.js").CharacterNarrative} system  The character's system data.
 * @param {string} action
 * @param {ActionInputs} inputs
 * @param {Position} position
 * @returns {CoreRequest}
 */
export function dialogRequest(system, action, inputs, position) {
  return inputs.fortune ? fortuneActionRequest(system, action, inputs) : actionRequest(system, action, inputs, position);
}

/**
 * A dummy roll of a request's plan (every die a 1), as the core resolves it: what the request
 * decides before any die matters (the pool, the effort).
 * @param {CoreRequest} request
 */
function dummyOutcome(request) {
  const faces = plan(request).map(die => Array.from({ length: die.count }, () => 1));
  const answer = resolve(request, faces);
  return answer.status === "done" ? answer : null;
}

/**
 * The dice the core rolls for a request, by reading a dummy roll of its plan: the pool is the
 * core's answer (clamp, burdens, floor), never recomputed here.
 * @param {CoreRequest} request
 * @returns {number}
 */
export function poolOf(request) {
  return Number(dummyOutcome(request)?.pool ?? 0);
}

/**
 * The effort the roller pays for a request (a push, acting while broken unless an ally pays; aid
 * is the helpers'), from the core: every push asked for is paid, whether the ±2 cap lets its
 * boon change the dice or not.
 * @param {CoreRequest} request
 * @returns {number}
 */
export function effortOf(request) {
  const outcome = dummyOutcome(request);
  return Math.max(0, Number(outcome?.effort ?? 0) - Number(outcome?.effortHelpers ?? 0));
}

/**
 * Rows of the odds table: each result's probability, as a percentage and as the exact fraction.
 * @param {Odds} report
 * @param {readonly string[]} labels  The core's outcome labels, in order.
 * @param {(label: string) => string} name  i18n key of a label's name.
 */
export function oddsRows(report, labels, name) {
  return labels.map(key => {
    const exact = report.exact?.outcomes[key];
    const fraction = exact === undefined ? null : Fraction.parse(exact);
    // A chance is 0 to 1. The core's floats of an outcome that cannot happen can come out a
    // rounding error below 0 (−2.8e-17, which would read "-0.00%"); its exact fraction says 0.
    const p = fraction?.n === 0n ? 0 : Math.min(1, Math.max(0, report.outcomes[key] ?? 0));
    // Reduced and without a denominator of 1: "0", not "0/1".
    return { key, label: name(key), p, percent: OddsReport.formatPercent(p),
      exact: fraction === null ? null : fraction.toString(), width: (p * 100).toFixed(2) };
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
 * @param {Ally[]} [args.allies]      The characters who may aid (not the roller).
 * @param {string} [args.error]       Why the last roll was refused, shown in the dialog.
 */
export function actionDialogContext({ system, action, inputs, position, isGM, allies = [], error = "" }) {
  inputs = namedHelpers(inputs, allies, Boolean(system.broken));
  const { aidBy = [], brokenPaidBy = "" } = inputs;
  const request = actionRequest(system, action, inputs, position);
  const fortune = Boolean(inputs.fortune);
  const rolled = fortune ? fortuneActionRequest(system, action, inputs) : request;
  const report = odds(rolled);
  const pool = poolOf(rolled);
  // What the core charges the actor: a push that changes the pool, acting while broken.
  const effortCost = fortune ? 0 : effortOf(request);
  const effort = system.effort ?? 0;
  const costs = helperCosts(inputs);
  const helpers = allies.map(ally => {
    const cost = costs.get(ally.id) ?? 0;
    return { ...ally, aiding: aidBy.includes(ally.id), paysBroken: brokenPaidBy === ally.id, cost, short: cost > ally.effort,
      // One with no effort left can be named by no one (unless already named, to be unticked).
      canAid: ally.effort > 0 || aidBy.includes(ally.id) };
  });
  // Every effort the roll asks for must be there: the roller's, and each helper's.
  const shortHelpers = helpers.filter(h => h.short);
  const rollerShort = effortCost > effort;
  return {
    action,
    actionLabel: `ICONENGINE.ActionRating.${action}`,
    fortune,
    rating: request.rating,
    burdenTicks: request.burdenTicks,
    broken: Boolean(system.broken),
    effort,
    effortCost,
    effortShort: rollerShort,
    helpers,
    shortHelpers: shortHelpers.map(h => ({ name: h.name, cost: h.cost, effort: h.effort })),
    hasAllies: allies.length > 0,
    canRoll: !rollerShort && !shortHelpers.length,
    error,
    inputs,
    pool,
    lowest: pool === 0,
    isGM,
    position,
    riskOptions: choices(RISKS, position.risk, v => `ICONENGINE.Narrative.Risk.${v}`),
    effectOptions: choices(EFFECTS, position.effect, v => `ICONENGINE.Narrative.Effect.${v}`),
    odds: fortune ? oddsRows(report, FORTUNE_RESULTS, v => `ICONENGINE.Narrative.Fortune.${v}`)
      : oddsRows(report, ACTION_RESULTS, v => `ICONENGINE.Narrative.Result.${v}`),
    request: rolled
  };
}

/**
 * The effort update after a roll: the core's `effortLeft` when the roll carried the pool, else
 * the actor pays the outcome's effort except the helpers' share.
 * @param {{effort?: number}} system
 * @param {{effort?: unknown, effortHelpers?: unknown, effortLeft?: unknown}} outcome  The core's `icon.action` outcome.
 * @returns {Record<string, number>}  Empty when nothing is paid.
 */
export function effortUpdate(system, outcome) {
  if (typeof outcome.effortLeft === "number") {
    return outcome.effortLeft === (system.effort ?? 0) ? {} : { "system.effort": outcome.effortLeft };
  }
  const paid = Number(outcome.effort ?? 0) - Number(outcome.effortHelpers ?? 0);
  if (paid <= 0) return {};
  return { "system.effort": Math.max(0, (system.effort ?? 0) - paid) };
}
