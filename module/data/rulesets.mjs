/**
 * The other rulesets' identifiers and the pure helpers their sheets, dialogs and settings share.
 * No Foundry API here (only plain data), so node tests run this very code.
 */

/** @typedef {"icon"|"icons"|"tribute"|"narrator"|"mns"} RulesetId */

/**
 * @typedef {object} Campaign  The world's ruleset and the campaign choices the seeds leave open.
 * @property {RulesetId} ruleset
 * @property {number} tributeDie        4, 6, 8, 10 or 12: Tribute's reality level.
 * @property {"coarse"|"fine"} narratorScale
 * @property {number} iconsLevelNames   Which of the three optional names (0–2), or −1 for numbers only.
 */

/** The rulesets a world can play; ICON is the system's own. */
export const RULESETS = /** @type {const} */ (["icon", "icons", "tribute", "narrator", "mns"]);

/** The request kinds of each ruleset (ICON's are its own issue's). */
export const RULESET_KINDS = Object.freeze({
  icons: ["icons.test"],
  tribute: ["tribute.test"],
  narrator: ["narrator.skill"],
  mns: ["mns.action", "mns.save", "mns.dice"]
});

/** ICONS: "There are six abilities, three physical and three mental". */
export const ICONS_ABILITIES = /** @type {const} */ (["prowess", "coordination", "strength", "intellect", "awareness", "willpower"]);

/** ICONS levels run "on a scale from 1 to 10". */
export const ICONS_LEVELS = /** @type {const} */ ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

/**
 * Men & Supermen's basic abilities and the attributes rolled with them ("Strength (3d6) Agility
 * (3d6) ... Sight (4d6)", then Beauty and Build).
 */
export const MNS_CHARACTERISTICS = /** @type {const} */ (["strength", "agility", "constitution", "activeCharisma",
  "normalCharisma", "learning", "newoen", "hearing", "sight", "beauty", "build"]);

/** The charts Men & Supermen names but does not print: GM-editable, empty by default. */
export const MNS_CHARTS = /** @type {const} */ (["sphere", "square", "doubles", "action"]);

/**
 * @typedef {{result: string, value: string}} ChartRow
 * @typedef {Record<typeof MNS_CHARTS[number], ChartRow[]>} MnsCharts
 */

/**
 * Fresh empty charts (never invented: the GM types them in from the book).
 * @returns {MnsCharts}
 */
export function EMPTY_MNS_CHARTS() {
  return { sphere: [], square: [], doubles: [], action: [] };
}

/**
 * Reads a chart typed one row a line, `result = value` (blank lines ignored).
 * @param {string} text
 * @returns {{rows: ChartRow[], bad: number[]}}  `bad`: the 1-based numbers of lines without `=`.
 */
export function parseChartText(text) {
  /** @type {ChartRow[]} */
  const rows = [];
  /** @type {number[]} */
  const bad = [];
  String(text ?? "").split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const at = line.indexOf("=");
    const result = at < 0 ? "" : line.slice(0, at).trim();
    if (!result) bad.push(i + 1);
    else rows.push({ result, value: line.slice(at + 1).trim() });
  });
  return { rows, bad };
}

/**
 * The text form of a chart, for its editor.
 * @param {ChartRow[]} rows
 * @returns {string}
 */
export function formatChartText(rows) {
  return (rows ?? []).map(row => `${row.result} = ${row.value}`).join("\n");
}

/**
 * The stored charts, every known chart present (a missing or malformed one reads as empty).
 * @param {unknown} stored
 * @returns {MnsCharts}
 */
export function normalizeCharts(stored) {
  const charts = EMPTY_MNS_CHARTS();
  const source = /** @type {Record<string, unknown>} */ (stored && typeof stored === "object" ? stored : {});
  for (const chart of MNS_CHARTS) {
    const rows = source[chart];
    if (Array.isArray(rows)) {
      charts[chart] = rows.filter(r => r && typeof r.result === "string")
        .map(r => ({ result: String(r.result), value: String(r.value ?? "") }));
    }
  }
  return charts;
}

/**
 * A level's label: "Astounding (8)" with name set 1, "8" with none (−1) or no such level.
 * @param {number} level
 * @param {{level: number, names: string[]}[]} levels  The core's `rulesetTables().iconsLevels`.
 * @param {number} nameSet
 * @param {(name: string, level: number) => string} format  Localised "{name} ({level})".
 * @returns {string}
 */
export function iconsLevelLabel(level, levels, nameSet, format) {
  const name = levels.find(l => l.level === level)?.names[nameSet];
  return name ? format(name, level) : String(level);
}

/**
 * Spend (negative) or gain Determination: the pool never drops below 0.
 * @param {number} pool
 * @param {number} change
 * @returns {number | null}  The new pool, or null when there is not enough to spend.
 */
export function changeDetermination(pool, change) {
  const next = pool + change;
  return next < 0 ? null : next;
}
