/**
 * Pure context of the Men & Supermen charts editor (only game.i18n), for the ApplicationV2 class
 * and the tests.
 */
import { MNS_CHARTS, formatChartText, normalizeCharts, parseChartText } from "../data/rulesets.mjs";
import { formatPlural, localize } from "./i18n.mjs";

/**
 * The editor's context from the stored setting.
 * @param {unknown} stored
 */
export function mnsChartsContext(stored) {
  const charts = normalizeCharts(stored);
  return {
    placeholder: localize("ICONENGINE.Mns.charts.placeholder"),
    charts: MNS_CHARTS.map(id => ({ id, label: localize(`ICONENGINE.Mns.charts.${id}`),
      text: formatChartText(charts[id]), count: formatPlural("ICONENGINE.Mns.charts.rows", charts[id].length) }))
  };
}

/**
 * The charts the form holds, and the numbers of the lines that were not `result = value`.
 * @param {Record<string, unknown>} data
 */
export function chartsFromForm(data) {
  const charts = normalizeCharts({});
  /** @type {Record<string, number[]>} */
  const bad = {};
  for (const id of MNS_CHARTS) {
    const parsed = parseChartText(String(data[id] ?? ""));
    charts[id] = parsed.rows;
    if (parsed.bad.length) bad[id] = parsed.bad;
  }
  return { charts, bad };
}
