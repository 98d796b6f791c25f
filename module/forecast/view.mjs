/**
 * What the Encounter dialog shows of a forecast's report: the chance each side wins, the rounds to
 * the end as bars, each character's defeat chance as bars, each foe's threat (its share of the
 * foes' damage, and its exact damage a round), each with the words a screen reader reads. Pure:
 * node tests run this exact code.
 * @import { ForecastReport, Chance } from "./forecast.mjs"
 */

import { format, localize } from "../applications/i18n.mjs";

/** The policies a GM can pick from (src/forecast/input.rs `Policy`, docs/rules.md). */
export const POLICIES = /** @type {const} */ (["focus", "threat", "rescue", "random"]);

/** @param {number} p */
const percent = p => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/**
 * A chance as the dialog says it: `57.3%`, and its interval.
 * @param {Chance} c
 */
function chance(c) {
  return { p: c.p, text: percent(c.p), interval: format("ICONENGINE.Forecast.Interval", { lo: percent(c.lo), hi: percent(c.hi) }),
    width: Math.max(0, Math.min(100, c.p * 100)).toFixed(1), lo: (c.lo * 100).toFixed(1), hi: (c.hi * 100).toFixed(1) };
}

/**
 * A number with at most two decimals.
 * @param {number} v
 */
const decimal = v => String(Math.round(v * 100) / 100);

/**
 * The dialog's view of a report.
 * @param {ForecastReport} report
 * @param {Map<string, string>} names  Each fighter's name by id.
 */
export function reportView(report, names) {
  const name = (/** @type {string} */ id) => names.get(id) ?? id;
  const most = Math.max(1e-9, ...report.rounds.distribution.map(r => r.p), report.rounds.unfinished.p);
  const rounds = report.rounds.distribution.filter(r => r.p > 0).map(r => ({
    label: format("ICONENGINE.Forecast.RoundLabel", { round: r.round }), ...chance(r),
    height: (r.p / most * 100).toFixed(1)
  }));
  if (report.rounds.unfinished.p > 0) {
    rounds.push({ label: format("ICONENGINE.Forecast.Unfinished", { rounds: report.maxRounds }), ...chance(report.rounds.unfinished),
      height: (report.rounds.unfinished.p / most * 100).toFixed(1) });
  }
  const party = report.fighters.filter(f => f.side === "party").map(f => ({
    name: name(f.id), defeated: chance(f.defeated), bloodied: format("ICONENGINE.Forecast.Bloodied", { p: percent(f.bloodied.p) })
  }));
  const foes = report.fighters.filter(f => f.side === "foes").map(f => ({
    name: name(f.id), share: f.share ? chance(f.share) : chance({ p: 0, lo: 0, hi: 0 }),
    perRound: format("ICONENGINE.Forecast.PerRound", { value: decimal(f.perRound.value) }),
    exact: f.perRound.exact
  }));
  return {
    party: chance(report.party),
    foes: chance(report.foes),
    unfinished: chance(report.unfinished),
    unfinishedLabel: format("ICONENGINE.Forecast.Unfinished", { rounds: report.maxRounds }),
    rounds,
    meanRounds: report.rounds.mean ? format("ICONENGINE.Forecast.MeanRounds", { mean: decimal(report.rounds.mean.mean) }) : "",
    defeat: party,
    threat: foes,
    sideDamage: format("ICONENGINE.Forecast.SideDamage", { party: decimal(report.sides.party.perRound.value), foes: decimal(report.sides.foes.perRound.value) }),
    sampled: format("ICONENGINE.Forecast.Sampled", { fights: report.fights, seed: report.seed }),
    seed: report.seed,
    fights: report.fights
  };
}

/**
 * The policy choices, `selected` marked.
 * @param {string} selected
 */
export function policyChoices(selected) {
  return POLICIES.map(id => ({ id, label: localize(`ICONENGINE.Forecast.Policy.${id}`), hint: localize(`ICONENGINE.Forecast.PolicyHint.${id}`), selected: id === selected }));
}
