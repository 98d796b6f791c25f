/**
 * Progress clocks of the world-level clock panel: the list the GM keeps, ticks through the core's
 * `clockTick`, and the panel's SVG geometry. Pure (core + i18n keys), so the browser test draws
 * the panel and ticks it with exactly this code.
 *
 * Why a world-level panel and not a `clock` actor: clocks are the table's shared progress, not
 * characters. They need no tokens, sheets or per-user permissions, and one world setting reaches
 * every client at once (its onChange redraws every open panel), so players always see the GM's
 * clocks without being given access to documents.
 */
import { clockTick } from "../../core.mjs";
import { clockSegments } from "../sheets/sheet-context.mjs";
import { EFFECTS, RISKS } from "./action-roll.mjs";

/** Segments a progress clock can have. */
export const CLOCK_SIZES = /** @type {const} */ ([4, 6, 8, 10, 12]);

/** Radius of a panel clock's SVG (the viewBox is `2 × (radius + 2)` square). */
export const PANEL_RADIUS = 28;

/**
 * @typedef {object} ProgressClock
 * @property {string} id
 * @property {string} name
 * @property {number} segments  4, 6, 8, 10 or 12.
 * @property {number} filled
 */

/**
 * Tick (or untick, with a negative count) one clock of the list; the core keeps it in bounds
 * and refuses sizes that are not clock sizes.
 * @param {ProgressClock[]} clocks
 * @param {string} id
 * @param {number} ticks
 * @returns {{clocks: ProgressClock[], clock: ProgressClock, complete: boolean}}
 */
export function tickClock(clocks, id, ticks) {
  const index = clocks.findIndex(c => c.id === id);
  if (index < 0) throw new Error(`there is no clock ${id}`);
  const ticked = clockTick({ segments: clocks[index].segments, filled: clocks[index].filled }, Math.trunc(ticks));
  const clock = { ...clocks[index], filled: ticked.filled };
  return { clocks: clocks.map((c, i) => (i === index ? clock : c)), clock, complete: ticked.complete };
}

/**
 * The segments an action card ticks: its roll's outcome (the core's `icon.action`, resolved again
 * from the roll's faces) gives them; null when it gives none.
 * @param {{status: string, segments?: unknown}} outcome
 * @returns {number | null}
 */
export function cardTicks(outcome) {
  const segments = Number(outcome.status === "done" ? outcome.segments : 0);
  return Number.isInteger(segments) && segments > 0 ? segments : null;
}

/**
 * Add an empty clock. The core checks the size.
 * @param {ProgressClock[]} clocks
 * @param {{id: string, name: string, segments: number}} clock
 * @returns {ProgressClock[]}
 */
export function addClock(clocks, { id, name, segments }) {
  const checked = clockTick({ segments: Number(segments), filled: 0 }, 0);
  return [...clocks, { id, name: name.trim(), segments: checked.segments, filled: 0 }];
}

/**
 * Change a clock's name or size (a smaller size keeps at most its segments filled).
 * @param {ProgressClock[]} clocks
 * @param {string} id
 * @param {{name?: string, segments?: number}} changes
 * @returns {ProgressClock[]}
 */
export function editClock(clocks, id, changes) {
  return clocks.map(c => {
    if (c.id !== id) return c;
    const segments = changes.segments === undefined ? c.segments : Number(changes.segments);
    const ticked = clockTick({ segments, filled: Math.min(c.filled, segments) }, 0);
    return { ...c, name: changes.name === undefined ? c.name : changes.name.trim(), segments, filled: ticked.filled };
  });
}

/**
 * @param {ProgressClock[]} clocks
 * @param {string} id
 * @returns {ProgressClock[]}
 */
export function removeClock(clocks, id) {
  return clocks.filter(c => c.id !== id);
}

/**
 * A clock drawn as SVG wedges, clockwise from the top.
 * @param {ProgressClock} clock
 * @param {number} [radius]
 */
export function clockView(clock, radius = PANEL_RADIUS) {
  const size = 2 * (radius + 2);
  return {
    ...clock,
    viewBox: `0 0 ${size} ${size}`,
    size,
    wedges: clockSegments(clock.segments, clock.filled, radius),
    complete: clock.filled >= clock.segments
  };
}

/**
 * The clock panel: every clock with its SVG, the GM's controls, and the position (risk and
 * effect) the GM has set for the next action rolls.
 * @param {ProgressClock[]} clocks
 * @param {{isGM: boolean, position: {risk: string, effect: string}}} options
 */
export function clockPanelContext(clocks, { isGM, position }) {
  return {
    isGM,
    empty: clocks.length === 0,
    clocks: clocks.map(c => ({
      ...clockView(c),
      sizeOptions: CLOCK_SIZES.map(value => ({ value, selected: value === c.segments }))
    })),
    sizeOptions: CLOCK_SIZES.map(value => ({ value, selected: value === 6 })),
    riskOptions: RISKS.map(value => ({ value, label: `ICONENGINE.Narrative.Risk.${value}`, selected: value === position.risk })),
    effectOptions: EFFECTS.map(value => ({ value, label: `ICONENGINE.Narrative.Effect.${value}`, selected: value === position.effect })),
    riskLabel: `ICONENGINE.Narrative.Risk.${position.risk}`,
    effectLabel: `ICONENGINE.Narrative.Effect.${position.effect}`
  };
}

/**
 * The clocks a card can tick, for its select.
 * @param {ProgressClock[]} clocks
 * @returns {{value: string, label: string}[]}
 */
export function clockChoices(clocks) {
  return clocks.map(c => ({ value: c.id, label: `${c.name} (${c.filled}/${c.segments})` }));
}

/**
 * Fill a card's clock select with the current clocks (the card is rendered from stored roll data,
 * the clock list is live). DOM only, no Foundry.
 * @param {HTMLSelectElement} select
 * @param {ProgressClock[]} clocks
 */
export function fillClockSelect(select, clocks) {
  const current = select.value;
  select.replaceChildren(...clockChoices(clocks).map(({ value, label }) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    option.selected = value === current;
    return option;
  }));
}
