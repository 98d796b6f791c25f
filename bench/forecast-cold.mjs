// One fresh node process, as a GM's first forecast: the forecast's wasm module (wasm/icon_forecast*)
// compiled and instantiated, then its first forecast of 2,000 fights of 4 against 6, the code cold.
// bench/run.mjs runs it several times and keeps the least of each figure. Prints one JSON object.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { forecastRequest } from "./forecast-request.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bytes = readFileSync(`${root}wasm/icon_forecast_bg.wasm`);
let t = performance.now();
const module = await WebAssembly.compile(bytes);
const compile = performance.now() - t;
const glue = await import(`${root}wasm/icon_forecast.js`);
t = performance.now();
glue.initSync({ module });
const instantiate = performance.now() - t;
const { loadForecast } = await import(`${root}module/forecast/forecast.mjs`);
const forecast = await loadForecast();
const request = forecastRequest(4, 6, 2000);
t = performance.now();
const report = await forecast.run(request);
const first = performance.now() - t;
console.log(JSON.stringify({ compile, instantiate, first, fights: report.fights }));
