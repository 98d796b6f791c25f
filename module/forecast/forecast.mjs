/**
 * The encounter forecast (docs/js-contract.md, "Encounter forecast"): a wasm module of its own
 * (wasm/icon_forecast*, the core's `forecast` feature), loaded only when a GM opens a forecast,
 * so the client core every player loads does not carry it. The fights are played in batches,
 * yielding between them so the dialog can show its progress.
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via ForecastApi below.
import init, * as wasm from "../../wasm/icon_forecast.js";

/**
 * A sampled chance with its 95% interval.
 * @typedef {{p: number, lo: number, hi: number}} Chance
 */
/**
 * A sampled mean with its 95% interval.
 * @typedef {{mean: number, lo: number, hi: number}} Mean
 */
/**
 * An exact figure: its value, and its fraction `"n/d"` when it is one.
 * @typedef {{value: number, exact: string | null}} Figure
 */
/**
 * @typedef {object} FighterReport
 * @property {string} id
 * @property {"party"|"foes"} side
 * @property {Chance} bloodied
 * @property {Chance} defeated
 * @property {Chance} fallen
 * @property {Mean} damage
 * @property {Chance | null} share
 * @property {Figure} perRound
 */
/**
 * The forecast's report (src/forecast/tally.rs `Report`).
 * @typedef {object} ForecastReport
 * @property {number} fights
 * @property {number} seed
 * @property {{party: string, foes: string}} policy
 * @property {number} areaTargets
 * @property {number} maxRounds
 * @property {number} round
 * @property {number} confidence
 * @property {Chance} party
 * @property {Chance} foes
 * @property {Chance} unfinished
 * @property {{distribution: (Chance & {round: number})[], mean: Mean | null, unfinished: Chance}} rounds
 * @property {FighterReport[]} fighters
 * @property {{party: {perRound: Figure}, foes: {perRound: Figure}}} sides
 */
/**
 * A forecast under way in wasm: `play` more fights, `report` the ones played, `trace` one.
 * @typedef {object} ForecastRun
 * @property {number} fights
 * @property {number} played
 * @property {number} seed
 * @property {(count: number) => number} play
 * @property {() => string} report
 * @property {(fight: number) => string} trace
 * @property {() => void} free
 */
/**
 * @typedef {object} RunOptions
 * @property {number} [batch]  Fights a batch (default 250).
 * @property {(played: number, fights: number) => void} [onProgress]  Called after each batch.
 * @property {AbortSignal} [signal]  Stops between batches (the fights played so far are reported).
 */
/**
 * The forecast module's API.
 * @typedef {object} ForecastApi
 * @property {(request: object) => Promise<ForecastReport>} run
 * @property {(request: object, options?: RunOptions) => Promise<ForecastReport>} runInBatches
 * @property {(request: object, fight: number) => object} trace
 * @property {() => string} version
 */

/** @type {Promise<ForecastApi> | null} */
let loading = null;

/**
 * Load and instantiate the forecast module once; later calls share the same promise. The default
 * `init()` fetches icon_forecast_bg.wasm next to its glue; one already initialised with
 * `initSync` (node) is taken as it is.
 * @returns {Promise<ForecastApi>}
 */
export function loadForecast() {
  return loading ??= init().then(() => Object.freeze({
    run: (/** @type {object} */ request) => runInBatches(request),
    runInBatches,
    trace,
    version: () => /** @type {string} */ (wasm.version())
  }));
}

/**
 * A request as the JSON text the core reads (it checks every field and bound).
 * @param {unknown} request
 * @returns {string}
 */
function requestText(request) {
  if (request === null || typeof request !== "object") throw new Error("a forecast request must be an object");
  return JSON.stringify(request);
}

/**
 * Start a forecast in wasm.
 * @param {object} request
 * @returns {ForecastRun}
 */
function start(request) {
  return /** @type {ForecastRun} */ (new wasm.Forecast(requestText(request)));
}

/**
 * Play a forecast's fights in batches, yielding between them, and report them.
 * @param {object} request
 * @param {RunOptions} [options]
 * @returns {Promise<ForecastReport>}
 */
export async function runInBatches(request, { batch = 250, onProgress, signal } = {}) {
  const run = start(request);
  try {
    const size = Math.max(1, Math.min(100_000, Math.trunc(batch) || 250));
    while (run.played < run.fights) {
      run.play(size);
      onProgress?.(run.played, run.fights);
      if (signal?.aborted || run.played >= run.fights) break;
      await new Promise(resolve => setTimeout(resolve, 0));
      if (signal?.aborted) break;
    }
    return /** @type {ForecastReport} */ (JSON.parse(run.report()));
  } finally {
    run.free();
  }
}

/**
 * One fight of a forecast step by step (src/forecast/trace.rs `Trace`).
 * @param {object} request
 * @param {number} fight
 * @returns {object}
 */
export function trace(request, fight) {
  const run = start(request);
  try {
    return JSON.parse(run.trace(fight));
  } finally {
    run.free();
  }
}
