/**
 * Chat cards of ICON narrative play: `icon.action` and `icon.fortune`. The context functions are
 * pure (the core's stored outcome in, template data out), so browser tests render the cards from
 * a real core outcome with the code Foundry runs.
 * @import { CoreRequest, Done } from "../../types/core.js"
 */
import { ICONENGINE } from "../../config.mjs";
import { formatPlural } from "../../applications/i18n.mjs";
import { registerRollCard } from "../roll-cards.mjs";

/**
 * The dice of an action or fortune roll, with the one that counts marked: the highest, or the
 * lowest of the 2d6 rolled for a pool of 0; on a critical every 6 counts.
 * @param {Done} outcome
 */
export function countedDice(outcome) {
  const dice = /** @type {number[]} */ (outcome.dice ?? []);
  const lowest = outcome.pool === 0;
  const counted = dice.length ? (lowest ? Math.min(...dice) : Math.max(...dice)) : null;
  const index = counted === null ? -1 : dice.indexOf(counted);
  const critical = outcome.result === "critical" || outcome.result === "excellent";
  return dice.map((value, i) => ({ value, six: value === 6, counted: i === index || (critical && value === 6) }));
}

/**
 * The action card: the dice, the result, strain to take or resist, segments to tick.
 * @param {Done} outcome
 * @param {CoreRequest} request
 * @param {Record<string, unknown>} [options]  The roll's options (`action`, `actorUuid`), with the
 *   helpers' names as the reader's documents give them (`aidNames`, `brokenPaidByName`).
 */
export function actionCardContext(outcome, request, options = {}) {
  // The icon.action fields (docs/js-contract.md); CoreRequest types only `kind`.
  const fields = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (request));
  const result = String(outcome.result);
  const risk = String(fields.risk ?? "risky");
  const strain = Number(outcome.strain ?? 0);
  const segments = Number(outcome.segments ?? 0);
  const action = typeof options.action === "string" ? options.action : null;
  return {
    action,
    actionLabel: action ? `ICONENGINE.ActionRating.${action}` : null,
    actorUuid: typeof options.actorUuid === "string" ? options.actorUuid : "",
    result,
    resultLabel: `ICONENGINE.Narrative.Result.${result}`,
    resultHint: `ICONENGINE.Narrative.ResultHint.${result}`,
    dice: countedDice(outcome),
    pool: outcome.pool,
    lowest: outcome.pool === 0,
    risk,
    riskLabel: `ICONENGINE.Narrative.Risk.${risk}`,
    effect: String(outcome.effect),
    effectLabel: `ICONENGINE.Narrative.Effect.${outcome.effect}`,
    raised: outcome.effect !== (fields.effect ?? "normal"),
    strain,
    // A consequence is on the table on a fail or partial, or when fate was tempted: the player
    // may take strain, or resist another consequence for strain by risk.
    hasConsequence: strain > 0 || fields.temptFate === true,
    canTakeStrain: strain > 0,
    // "Rarely, when failing or partially succeeding at a Desperate action, you might take
    // Critical Strain": the GM's button.
    canCriticalStrain: strain > 0 && risk === "desperate",
    segments,
    segmentsLabel: formatPlural("ICONENGINE.Narrative.Segments", segments),
    hasSegments: segments > 0,
    effort: outcome.effort,
    effortHelpers: outcome.effortHelpers,
    temptFate: fields.temptFate === true,
    push: fields.push === true,
    aid: Number(fields.aid ?? 0),
    // "you spend 1 effort to grant them a boon": who aided, and who paid for a broken roller
    aidNames: Array.isArray(options.aidNames) ? options.aidNames.filter(n => typeof n === "string").join(", ") : "",
    brokenPaidByName: typeof options.brokenPaidByName === "string" ? options.brokenPaidByName : ""
  };
}

/**
 * The fortune card: the dice and the result.
 * @param {Done} outcome
 */
export function fortuneCardContext(outcome) {
  const result = String(outcome.result);
  return {
    result,
    resultLabel: `ICONENGINE.Narrative.Fortune.${result}`,
    dice: countedDice(outcome),
    pool: outcome.pool,
    lowest: outcome.pool === 0
  };
}

registerRollCard("icon.action", { template: ICONENGINE.templates.actionCard, context: actionCardContext });
registerRollCard("icon.fortune", { template: ICONENGINE.templates.fortuneCard, context: fortuneCardContext });
