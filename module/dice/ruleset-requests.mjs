/**
 * Core requests of the other rulesets from a roll dialog's values, and the odds the dialog shows.
 * Pure (only game.i18n), so node and browser tests exercise this very code.
 */

/**
 * @import { CoreRequest, Odds } from "../types/core.js"
 * @import { Campaign } from "../data/rulesets.mjs"
 * @typedef {import("../types/core.js").RulesetTables} RulesetTables
 * @typedef {Record<string, unknown>} DialogValues  A dialog form's values (strings, numbers, booleans).
 * @typedef {{kind: string, [field: string]: unknown}} RequestData  A request of these kinds.
 */

import { localize } from "../applications/i18n.mjs";

/**
 * The i18n key naming a request kind: "tribute.test" → ICONENGINE.Rulesets.kind.tributeTest (a dot
 * inside a key would read as a path).
 * @param {string} kind
 */
export function kindLabelKey(kind) {
  return `ICONENGINE.Rulesets.kind.${kind.replace(/\.(\w)/g, (_, c) => c.toUpperCase())}`;
}

/** The order each kind's outcomes are listed in (the core reports them by name). */
export const OUTCOME_ORDER = Object.freeze({
  "icons.test": ["failure", "moderate", "major", "massive", "cosmic"],
  "tribute.test": ["win", "match", "fail"],
  "narrator.skill": ["success", "failure", "unfamiliar", "faulty", "yesNo", "shortAnswers", "background", "studied",
    "miss", "winged", "hit", "bonus"],
  "mns.action": ["success", "failure"],
  "mns.save": ["success", "failure"],
  "mns.dice": []
});

/** The values a dialog of each kind starts from. */
export const DIALOG_DEFAULTS = Object.freeze({
  "icons.test": { ability: 3, difficulty: 3, bonus: 0, penalty: 0, reaction: false },
  "tribute.test": { rank: 0, focus: 0, burden: 0, oppositionMode: "fixed", opposition: 0, oppRank: 0, oppFocus: 0, oppBurden: 0, effectRank: "" },
  "narrator.skill": { skill: 10, dice: "3d6", modifiers: 0, use: "qualitative", difficultySource: "chart", chartDifficulty: 20,
    knowledgeDifficulty: 20, opponentSkill: 10, opposedModifier: 0, difficulty: 20, baseDamage: 0, ranks: 1, baseRanks: 0 },
  "mns.action": { target: 14, bonus: 0, special: true },
  "mns.save": { score: 10, bonus: 0, saveDice: "2d10", special: true },
  "mns.dice": { die: "d100" }
});

/**
 * An integer from a form value, or the fallback when it is blank or not a number.
 * @param {unknown} value
 * @param {number} [fallback]
 */
export function integer(value, fallback = 0) {
  if (value === "" || value === null || value === undefined) return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/** @param {unknown} value */
const truthy = value => value === true || value === "true" || value === "on";

/**
 * The narrator's difficulty from where the dialog takes it: the difficulty chart, the background
 * knowledge chart, an opposed action (the opponent's deterministic roll, 10 + skill, plus the
 * opposed-modifier chart) or a number typed in.
 * @param {DialogValues} v
 * @param {RulesetTables} tables
 * @returns {number}
 */
export function narratorDifficulty(v, tables) {
  switch (v.difficultySource) {
    case "chart": return integer(v.chartDifficulty, 20);
    case "knowledge": return integer(v.knowledgeDifficulty, 20);
    case "opposed": return tables.narratorDeterministic + integer(v.opponentSkill) + integer(v.opposedModifier);
    default: return integer(v.difficulty, 20);
  }
}

/**
 * The core request of a dialog.
 * @param {string} kind
 * @param {DialogValues} v
 * @param {Campaign} campaign
 * @param {RulesetTables} tables
 * @returns {RequestData}
 */
export function requestFrom(kind, v, campaign, tables) {
  switch (kind) {
    case "icons.test":
      return { kind, ability: integer(v.ability, 3), difficulty: integer(v.difficulty, 3), bonus: integer(v.bonus), penalty: integer(v.penalty) };
    case "tribute.test": {
      const opposition = v.oppositionMode === "roll"
        ? { rank: integer(v.oppRank), focus: integer(v.oppFocus), burden: integer(v.oppBurden) }
        : integer(v.opposition);
      /** @type {RequestData} */
      const request = { kind, rank: integer(v.rank), focus: integer(v.focus), burden: integer(v.burden), die: campaign.tributeDie, opposition };
      if (v.effectRank !== "" && v.effectRank !== null && v.effectRank !== undefined) request.effectRank = integer(v.effectRank);
      return request;
    }
    case "narrator.skill": {
      const use = String(v.use || "qualitative");
      /** @type {RequestData} */
      const request = { kind, skill: integer(v.skill, 10), difficulty: narratorDifficulty(v, tables),
        dice: String(v.dice ?? "").trim() || "3d6", modifiers: integer(v.modifiers), use, scale: campaign.narratorScale };
      if (use === "attack" && integer(v.baseDamage) > 0) {
        // Bonus damage is a fraction of one rank's damage, so the core needs the form's ranks.
        request.baseDamage = integer(v.baseDamage);
        request.ranks = integer(v.ranks, 1);
      }
      // "up to a maximum bonus of 1/2 the base ranks of power": the power's base ranks (0: none given)
      if (use === "quantitative" && integer(v.baseRanks) > 0) request.ranks = integer(v.baseRanks);
      return request;
    }
    case "mns.action":
      return { kind, target: integer(v.target, 14), bonus: integer(v.bonus), special: v.special === undefined ? true : truthy(v.special) };
    case "mns.save":
      return { kind, score: integer(v.score, 10), bonus: integer(v.bonus), dice: v.saveDice === "d100" ? "d100" : "2d10",
        special: v.special === undefined ? true : truthy(v.special) };
    case "mns.dice":
      return { kind, die: String(v.die || "d100") };
    default:
      throw new Error(`ICON Engine: no roll dialog for the request kind "${kind}"`);
  }
}

/** @param {number} p */
export function percent(p) {
  return `${(100 * p).toFixed(2)}%`;
}

/**
 * @typedef {object} OddsRow
 * @property {string} label   The core's outcome name.
 * @property {string} name    Localised.
 * @property {number} p
 * @property {string} percent
 * @property {string|null} exact  The exact fraction, when the core has one.
 * @property {string} width   CSS width of the bar.
 */

/**
 * What a dialog shows of the core's odds: each outcome, the mean and standard deviation of the
 * total (the seed's guide to how predictable a set of dice is), and Tribute's profit/waste grid.
 * @param {string} kind
 * @param {Odds & {profitWaste?: {profit: number, waste: number, p: number, exact: string|null}[]}} odds
 */
export function oddsView(kind, odds) {
  const order = /** @type {Record<string, readonly string[]>} */ (OUTCOME_ORDER)[kind] ?? [];
  /** @type {OddsRow[]} */
  const rows = Object.entries(odds.outcomes)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([label, p]) => ({
      label,
      name: localize(`ICONENGINE.Rulesets.outcome.${label}`),
      p,
      percent: percent(p),
      exact: odds.exact?.outcomes[label] ?? null,
      width: `${(100 * p).toFixed(1)}%`
    }));
  let grid = null;
  if (odds.profitWaste) {
    const profits = [...new Set(odds.profitWaste.map(c => c.profit))].sort((a, b) => a - b);
    const wastes = [...new Set(odds.profitWaste.map(c => c.waste))].sort((a, b) => a - b);
    grid = {
      wastes,
      rows: profits.map(profit => ({
        profit,
        cells: wastes.map(waste => {
          const cell = odds.profitWaste?.find(c => c.profit === profit && c.waste === waste);
          return { percent: cell ? percent(cell.p) : "", exact: cell?.exact ?? "" };
        })
      }))
    };
  }
  return {
    rows,
    mean: odds.mean.toFixed(2),
    sd: odds.sd.toFixed(2),
    exactMean: odds.exact?.mean ?? null,
    min: odds.totals[0]?.[0] ?? null,
    max: odds.totals.at(-1)?.[0] ?? null,
    grid
  };
}
