import { ICONENGINE, SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import Fraction from "./fraction.mjs";
import { applyMode, currentMode } from "../message-mode.mjs";

/**
 * @import { CoreRequest, Odds } from "../types/core.js"
 */

/**
 * One bar of the chart: a single total, or a bucket of consecutive totals.
 * @typedef {object} OddsBar
 * @property {string} label     The total, or "from–to" for a bucket.
 * @property {number} from      Lowest total in the bar.
 * @property {number} to        Highest total in the bar.
 * @property {number} p         Probability of landing in the bar.
 * @property {string} percent   `p` formatted for display.
 * @property {number} height    Bar height in percent of the tallest bar.
 * @property {string|null} exact  Exact probability as a reduced "n/d", when the core gave one.
 * @property {string} tick      Axis label under the bar: its total, or where its bucket starts.
 * @property {boolean} showTick  Whether to print the tick (only some fit).
 */

/**
 * Everything an odds card shows, kept in the message's flags so it can be re-rendered from data.
 * @typedef {object} OddsReportData
 * @property {CoreRequest} request
 * @property {string} formula       The formula as typed, trimmed.
 * @property {number} mean
 * @property {number} sd
 * @property {string} meanText
 * @property {string} sdText
 * @property {string|null} exactMean
 * @property {number} min           Lowest possible total.
 * @property {number} max           Highest possible total.
 * @property {OddsBar[]} bars
 * @property {number} bucketWidth   Totals per bar (1 when not bucketed).
 * @property {boolean} bucketed     Whether bars group several totals.
 * @property {string|null} trimmed  Probability left out of the chart in its tails, formatted; null if none.
 * @property {boolean} hasNote      Whether the chart needs a caption (bucketed or trimmed).
 * @property {{label: string, labelKey: string, p: number, percent: string, exact: string|null}[]} outcomes
 *   `labelKey` is the i18n key of the core's outcome label (ICONENGINE.Outcome.<label>).
 */

/**
 * Builds, renders and posts `/odds` cards from the core's exact distribution.
 */
export default class OddsReport {
  /**
   * Turn the core's odds into chart data. Pure, so tests can call it without Foundry.
   * @param {CoreRequest} request
   * @param {Odds} odds
   * @param {{maxBars?: number, tailCut?: number}} [limits]
   * @returns {OddsReportData}
   */
  static prepare(request, odds, { maxBars = ICONENGINE.odds.maxBars, tailCut = ICONENGINE.odds.tailCut } = {}) {
    const exactByValue = new Map(odds.exact?.totals ?? []);
    /** @type {{value: number, p: number, exact: Fraction|null}[]} */
    let points = odds.totals.map(([value, p]) => {
      const exact = exactByValue.get(value);
      return { value, p, exact: exact === undefined ? null : Fraction.parse(exact) };
    });
    const min = points[0]?.value ?? 0;
    const max = points.at(-1)?.value ?? 0;

    // Wide distributions: drop far tails first (they would be invisible bars anyway), then bucket.
    let trimmedMass = 0;
    if (points.length > maxBars) {
      let lo = 0;
      let hi = points.length - 1;
      let below = 0;
      let above = 0;
      while ((lo < hi) && (below + points[lo].p < tailCut)) below += points[lo++].p;
      while ((hi > lo) && (above + points[hi].p < tailCut)) above += points[hi--].p;
      trimmedMass = below + above;
      points = points.slice(lo, hi + 1);
    }

    const first = points[0]?.value ?? 0;
    const span = (points.at(-1)?.value ?? 0) - first + 1;
    const bucketWidth = points.length > maxBars ? OddsReport.#niceWidth(span, maxBars) : 1;
    // Buckets start at multiples of their width, so ticks read as round numbers.
    const origin = Math.floor(first / bucketWidth);

    /** @type {Omit<OddsBar, "height"|"showTick"|"percent"|"label">[]} */
    const raw = [];
    if (bucketWidth === 1) {
      for (const { value, p, exact } of points) {
        raw.push({ from: value, to: value, tick: `${value}`, p, exact: exact?.toString() ?? null });
      }
    } else {
      /** @type {Map<number, {from: number, to: number, start: number, p: number, exact: Fraction, exactOk: boolean}>} */
      const buckets = new Map();
      for (const { value, p, exact } of points) {
        const index = Math.floor(value / bucketWidth) - origin;
        let bucket = buckets.get(index);
        if (!bucket) {
          const start = (index + origin) * bucketWidth;
          bucket = { from: value, to: value, start, p: 0, exact: Fraction.ZERO, exactOk: true };
          buckets.set(index, bucket);
        }
        bucket.to = value;
        bucket.p += p;
        if (exact) bucket.exact = bucket.exact.add(exact);
        else bucket.exactOk = false;
      }
      for (const { from, to, start, p, exact, exactOk } of buckets.values()) {
        raw.push({ from, to, tick: `${start}`, p, exact: exactOk ? `${exact}` : null });
      }
    }

    const tallest = Math.max(...raw.map(bar => bar.p), Number.MIN_VALUE);
    // Axis ticks spaced so they don't overlap in a chat-width card.
    const widestTick = Math.max(...raw.map(bar => bar.tick.length), 1);
    const tickEvery = Math.max(1, Math.ceil((raw.length * ((widestTick * 6) + 6)) / 270));
    const bars = raw.map((bar, i) => ({
      ...bar,
      label: bar.from === bar.to ? `${bar.from}` : `${bar.from}–${bar.to}`,
      percent: OddsReport.formatPercent(bar.p),
      height: Math.round((bar.p / tallest) * 10000) / 100,
      showTick: i % tickEvery === 0
    }));

    const outcomes = Object.entries(odds.outcomes).map(([label, p]) => ({
      label,
      labelKey: `ICONENGINE.Outcome.${label}`,
      p,
      percent: OddsReport.formatPercent(p),
      exact: odds.exact?.outcomes[label] ?? null
    }));

    return {
      request,
      formula: "formula" in request && (typeof request.formula === "string") ? request.formula.trim() : request.kind,
      mean: odds.mean,
      sd: odds.sd,
      meanText: odds.mean.toFixed(2),
      sdText: odds.sd.toFixed(2),
      exactMean: odds.exact?.mean ?? null,
      min,
      max,
      bars,
      bucketWidth,
      bucketed: bucketWidth > 1,
      trimmed: trimmedMass > 0 ? OddsReport.formatPercent(trimmedMass) : null,
      hasNote: (bucketWidth > 1) || (trimmedMass > 0),
      outcomes
    };
  }

  /**
   * The smallest 1, 2 or 5 × 10^k bucket width that fits `span` totals into `maxBars` bars.
   * @param {number} span
   * @param {number} maxBars
   * @returns {number}
   */
  static #niceWidth(span, maxBars) {
    // One extra bar of room: aligning buckets to multiples of the width can split the edges.
    const min = span / Math.max(1, maxBars - 1);
    for (let scale = 1; ; scale *= 10) {
      for (const step of [1, 2, 5]) if (step * scale >= min) return step * scale;
    }
  }

  /**
   * A probability as a short percentage; tiny non-zero values don't round to a misleading 0, and a
   * float sum a hair under 0 (or -0) shows as 0, never "-0.00%".
   * @param {number} p
   * @returns {string}
   */
  static formatPercent(p) {
    if ((p > 0) && (p < 0.0001)) return "<0.01%";
    return `${(Math.max(p, 0) * 100).toFixed(2)}%`;
  }

  /**
   * Render the card's HTML from its data.
   * @param {OddsReportData} data
   * @returns {Promise<string>}
   */
  static render(data) {
    return foundry.applications.handlebars.renderTemplate(ICONENGINE.templates.oddsCard, data);
  }

  /**
   * Compute the odds of a request and post them as a chat card.
   * @param {CoreRequest} request
   * @param {object} [messageData]  Extra ChatMessage data, e.g. the speaker.
   * @returns {Promise<ChatMessage | undefined>}
   * @throws {Error} the core's error (e.g. a bad formula).
   */
  static async toMessage(request, messageData = {}) {
    const core = await loadCore();
    const data = OddsReport.prepare(request, core.odds(request));
    const cls = ChatMessage.implementation;
    const chatData = {
      ...messageData,
      content: await OddsReport.render(data),
      flags: { [SYSTEM_ID]: { odds: data } }
    };
    applyMode(chatData, currentMode());
    return cls.create(chatData);
  }
}
