// `npm run bench`: the performance users feel, measured on the built wasm modules (scripts/build.sh)
// through the system's public API, and written to BENCHMARKS.md, which it replaces: the machine,
// the date, the command, one table per figure, each floor met or not. Timings are recorded here,
// never asserted in tests. The machine is shared, so every figure is the least (or the best rate)
// of several windows or fresh processes.
//   npm run bench                    every section, then BENCHMARKS.md is written anew
//   npm run bench -- --carry=levers  every section but those, carried over (marked) from
//                                    BENCHMARKS.md as it stands, then the file is written anew
//   npm run bench -- --only=a,b      some sections (size, levers, cold, rolling, dialog, sight,
//                                    movement, combat, limits, packs, paste, state, forecast),
//                                    printed only
// ICON_FUZZ_SECONDS=600 also runs every cargo-fuzz target for that long (bench/fuzz.sh) and adds
// its table.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { DIALOG, LARGEST, ROLLING, fight } from "./requests.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// everything below goes through the public APIs (module/core.mjs, module/packs/importer.mjs),
// loaded as the node tests load them: request objects in, outcome objects out, every argument
// checked before wasm is entered
const { default: core } = await import("../test/support/load-core.mjs");
const { default: importer } = await import("../test/support/load-importer.mjs");

const only = process.argv.find(a => a.startsWith("--only="))?.slice(7).split(",");
// Sections not measured in this run but carried over, marked, from BENCHMARKS.md as it stands.
const carry = process.argv.find(a => a.startsWith("--carry="))?.slice(8).split(",") ?? [];
const want = name => !only || only.includes(name);
const out = [];
const say = (line = "") => { console.log(line); out.push(line); };
const verdict = ok => (ok ? "met" : "**not met**");
const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const kb = bytes => `${fmt(bytes / 1000, 1)} KB`;
/** The floors of issue 26, each `[figure, met]`, for the summary. */
const floors = [];

/**
 * Calls per second of each of `fns`, measured in turn (a window of each, `rounds` times, after a
 * warm-up of each), so that all of them meet the same load; the best window of each.
 * @param {(() => unknown)[]} fns
 */
function rates(fns, ms = 150, rounds = 6) {
  for (const fn of fns) for (const warm = performance.now() + 300; performance.now() < warm;) for (let i = 0; i < 64; i++) fn();
  const best = fns.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      let n = 0;
      while (performance.now() - start < ms) { for (let i = 0; i < 64; i++) fn(); n += 64; }
      best[k] = Math.max(best[k], n / ((performance.now() - start) / 1000));
    });
  }
  return best;
}

/** The least of `runs` timings of `fn` in milliseconds (after one call). */
function least(fn, runs = 7) {
  fn();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** `runs` fresh processes of bench/cold-start.mjs in `mode`; their answers. */
function coldRuns(mode, runs = 5, ...args) {
  return Array.from({ length: runs }, () =>
    JSON.parse(execFileSync(process.execPath, [path.join(root, "bench", "cold-start.mjs"), mode, ...args], { encoding: "utf8", maxBuffer: 1 << 24 })));
}
/** The least of a figure over the runs. */
const leastOf = (runs, pick) => Math.min(...runs.map(pick));

const cpu = os.cpus();
say("# Benchmarks");
say("");
say(`${new Date().toISOString().slice(0, 10)}, \`npm run bench\`${only ? ` \`--only=${only}\`` : ""}${carry.length ? ` \`--carry=${carry}\`` : ""}: node ${process.version}, ${cpu[0]?.model ?? "?"} (${cpu.length} cores, shared; load average ${os.loadavg().map(l => fmt(l, 1)).join(", ")} at the start), ${os.platform()} ${os.release()}. Each figure is the least time (or best rate) of several windows or fresh processes, since the machine is shared. This file is what \`npm run bench\` writes; it replaces it each time.`);
say("");

/* ---------------------------------------------------------------- size */
/** The client core's budget: 300 KiB by gzip -9, as the project states it. */
const CLIENT_LIMIT = 300 * 1024;
if (want("size")) {
  say("## The wasm modules");
  say("");
  say("The client core is what every client downloads on every world join; the pack importer only where an import runs (the GM's import worker, the CLI is native); the encounter forecast only when a GM runs a forecast.");
  say("");
  say("| module | raw | gzip -9 | floor | |");
  say("|---|---:|---:|---:|:--:|");
  for (const [name, file, limit] of [["client core `wasm/icon_engine_bg.wasm`", "icon_engine_bg.wasm", CLIENT_LIMIT], ["pack importer `wasm/icon_importer_bg.wasm`", "icon_importer_bg.wasm", null],
    ["encounter forecast `wasm/icon_forecast_bg.wasm` (GM only, on demand)", "icon_forecast_bg.wasm", null]]) {
    const bytes = readFileSync(`${root}wasm/${file}`);
    const gz = gzipSync(bytes, { level: 9 }).length;
    say(`| ${name} | ${kb(bytes.length)} (${fmt(bytes.length)} B) | ${kb(gz)} (${fmt(gz)} B) | ${limit ? `≤ ${fmt(limit)} B (300 KiB) gzip -9` : "—"} | ${limit ? verdict(gz <= limit) : ""} |`);
    if (limit) floors.push([`client core ≤ 300 KiB = ${fmt(limit)} B gzip -9 (${fmt(gz)} B)`, gz <= limit]);
  }
  say("");
}

/**
 * Say a section of BENCHMARKS.md as it stands, under its heading, marked as carried over from the
 * run that measured it.
 * @param {string} heading
 */
function carried(heading) {
  const previous = readFileSync(path.join(root, "BENCHMARKS.md"), "utf8");
  const date = previous.match(/^(\d{4}-\d{2}-\d{2}),/m)?.[1] ?? "an earlier run";
  const start = previous.indexOf(`${heading}\n`);
  const end = previous.indexOf("\n## ", start + heading.length);
  say(heading);
  say("");
  say(`*Not measured in this run (\`--carry\`): carried over from the run of ${date}.*`);
  if (start < 0) return say("");
  for (const line of previous.slice(start + heading.length, end < 0 ? undefined : end).trim().split("\n")) say(line);
  say("");
}

/* ---------------------------------------------------------------- size levers */
if (want("levers") && carry.includes("levers")) carried("## What each size lever gives the client core");
else if (want("levers")) {
  say("## What each size lever gives the client core");
  say("");
  say("Each row is the client core built from this source with one lever changed (bench/size-options.sh, scratch builds), against the shipped build's settings: `opt-level = \"s\"`, `lto = true`, `codegen-units = 1`, `panic = \"abort\"`, wasm-opt -Oz --low-memory-unused.");
  say("");
  for (const line of execFileSync("bash", [path.join(root, "bench", "size-options.sh")], { encoding: "utf8", maxBuffer: 1 << 24 }).trimEnd().split("\n")) say(line);
  say("");
}

/* ---------------------------------------------------------------- cold start */
if (want("cold")) {
  const runs = coldRuns("kinds");
  say("## Client core cold start (node, fresh processes)");
  say("");
  say("A fresh node process per run: the module compiled (`WebAssembly.compile`) and instantiated, then the first call of every request kind, in this order (the first `roll` of each kind, then an attack dialog's odds for 8 targets, then the first `odds` of each kind). Least of 5 processes.");
  say("");
  say("| step | ms | floor ≤ 16 ms | |");
  say("|---|---:|---:|:--:|");
  say(`| compile | ${fmt(leastOf(runs, r => r.compile), 2)} | — | |`);
  say(`| instantiate | ${fmt(leastOf(runs, r => r.instantiate), 2)} | — | |`);
  const rows = [];
  for (const name of Object.keys(runs[0].roll)) rows.push([`first \`roll\` of ${name}`, leastOf(runs, r => r.roll[name])]);
  rows.push(["an attack dialog's odds, 8 targets", leastOf(runs, r => r.dialog)]);
  for (const name of Object.keys(runs[0].odds)) rows.push([`first \`odds\` of ${name}`, leastOf(runs, r => r.odds[name])]);
  for (const [label, ms] of rows) say(`| ${label} | ${fmt(ms, 2)} | 16 | ${verdict(ms <= 16)} |`);
  const worst = Math.max(...rows.map(([, ms]) => ms));
  floors.push([`first call of every request kind ≤ 16 ms (worst ${fmt(worst, 2)} ms)`, worst <= 16]);
  say("");
  try {
    const { openPage } = await import("../test/support/browser.mjs");
    const { startServer } = await import("../test/support/static-server.mjs");
    const server = await startServer();
    const browser = await openPage();
    const loads = [];
    for (let i = 0; i < 5; i++) {
      await browser.page.goto(`${server.url}/test/browser/harness.html?bench=${i}`);
      loads.push(await browser.page.evaluate(async () => {
        const t0 = performance.now();
        const glue = await import(`/wasm/icon_engine.js?${Math.random()}`);
        const bytes = await (await fetch(`/wasm/icon_engine_bg.wasm?${Math.random()}`)).arrayBuffer();
        const t1 = performance.now();
        const module = await WebAssembly.compile(bytes);
        const t2 = performance.now();
        await glue.default({ module_or_path: module });
        const t3 = performance.now();
        JSON.parse(glue.rollJson(JSON.stringify({ kind: "icon.attack", boons: 1, defense: 12 }), -1));
        return { fetch: t1 - t0, compile: t2 - t1, instantiate: t3 - t2, first: performance.now() - t3 };
      }));
    }
    await browser.close();
    await server.close();
    const low = key => Math.min(...loads.map(l => l[key]));
    say("In headless Chromium (the browser Foundry runs in), least of 5 page loads:");
    say("");
    say("| step | ms |");
    say("|---|---:|");
    say(`| glue import and wasm fetch (local server) | ${fmt(low("fetch"), 2)} |`);
    say(`| compile | ${fmt(low("compile"), 2)} |`);
    say(`| instantiate | ${fmt(low("instantiate"), 2)} |`);
    say(`| first roll (\`icon.attack\`) | ${fmt(low("first"), 2)} |`);
  } catch (e) {
    say(`Chromium: not measured (${e.message.split("\n")[0]}).`);
  }
  say("");
}

/* ---------------------------------------------------------------- encounter forecast */
if (want("forecast")) {
  const { forecastRequest } = await import("./forecast-request.mjs");
  const raw = await import("../wasm/icon_forecast.js");
  raw.initSync({ module: readFileSync(`${root}wasm/icon_forecast_bg.wasm`) });
  const { loadForecast } = await import("../module/forecast/forecast.mjs");
  const forecast = await loadForecast();
  const FLOOR = 300;
  /** Warm: the least of `runs` forecasts of `request` in this process, after one. */
  const warm = async (request, runs = 5) => {
    await forecast.run(request);
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await forecast.run(request);
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  say("## Encounter forecast (issue 39)");
  say("");
  say("A planned fight of 4 player characters against 6 foes (two elites), each with Light and Heavy Attack and abilities of a sheet's kinds (a 2-action attack that puts a status on a hit, an area attack with a save for half and a charge, a Gamble; bench/forecast-request.mjs), 2,000 fights with a fixed seed, through `loadForecast().run` (module/forecast/forecast.mjs: in batches of 250). *Cold*: a fresh node process, the forecast module compiled and instantiated, then its first forecast (least of 5 processes). *Warm*: the least of 5 forecasts in one process.");
  say("");
  const cold = Array.from({ length: 5 }, () =>
    JSON.parse(execFileSync(process.execPath, [path.join(root, "bench", "forecast-cold.mjs")], { encoding: "utf8" })));
  const w = await warm(forecastRequest(4, 6, 2000));
  const c = leastOf(cold, r => r.first);
  say(`| 2,000 fights of 4 vs 6 | ms | floor ≤ ${FLOOR} ms | |`);
  say("|---|---:|---:|:--:|");
  say(`| node, cold: compile | ${fmt(leastOf(cold, r => r.compile), 1)} | — | |`);
  say(`| node, cold: instantiate | ${fmt(leastOf(cold, r => r.instantiate), 1)} | — | |`);
  say(`| node, cold: the first forecast | ${fmt(c, 1)} | ${FLOOR} | ${verdict(c <= FLOOR)} |`);
  say(`| node, warm | ${fmt(w, 1)} | ${FLOOR} | ${verdict(w <= FLOOR)} |`);
  try {
    const { openPage } = await import("../test/support/browser.mjs");
    const { startServer } = await import("../test/support/static-server.mjs");
    const server = await startServer();
    const browser = await openPage();
    const loads = [];
    for (let i = 0; i < 5; i++) {
      await browser.page.goto(`${server.url}/test/browser/harness.html?forecast=${i}`);
      loads.push(await browser.page.evaluate(async warmRuns => {
        const { forecastRequest } = await import("/bench/forecast-request.mjs");
        const t0 = performance.now();
        const glue = await import(`/wasm/icon_forecast.js?${Math.random()}`);
        const bytes = await (await fetch(`/wasm/icon_forecast_bg.wasm?${Math.random()}`)).arrayBuffer();
        const module = await WebAssembly.compile(bytes);
        await glue.default({ module_or_path: module });
        const t1 = performance.now();
        const run = () => {
          const f = new glue.Forecast(JSON.stringify(forecastRequest(4, 6, 2000)));
          while (f.played < f.fights) f.play(250);
          JSON.parse(f.report());
          f.free();
        };
        run();
        const t2 = performance.now();
        let warm = Infinity;
        for (let k = 0; k < warmRuns; k++) {
          const s = performance.now();
          run();
          warm = Math.min(warm, performance.now() - s);
        }
        return { load: t1 - t0, first: t2 - t1, warm };
      }, i === 0 ? 5 : 1));
    }
    await browser.close();
    await server.close();
    const low = key => Math.min(...loads.map(l => l[key]));
    say(`| Chromium, cold: fetch, compile and instantiate the module (local server) | ${fmt(low("load"), 1)} | — | |`);
    say(`| Chromium, cold: the first forecast | ${fmt(low("first"), 1)} | ${FLOOR} | ${verdict(low("first") <= FLOOR)} |`);
    say(`| Chromium, warm | ${fmt(low("warm"), 1)} | ${FLOOR} | ${verdict(low("warm") <= FLOOR)} |`);
    floors.push([`2,000 fights of 4 vs 6 ≤ ${FLOOR} ms in Chromium (cold ${fmt(low("first"), 1)} ms, warm ${fmt(low("warm"), 1)} ms)`,
      low("first") <= FLOOR && low("warm") <= FLOOR]);
  } catch (e) {
    say(`| Chromium | not measured (${e.message.split("\n")[0]}) | | |`);
    floors.push([`2,000 fights of 4 vs 6 ≤ ${FLOOR} ms (node: cold ${fmt(c, 1)} ms, warm ${fmt(w, 1)} ms; Chromium not measured)`, c <= FLOOR && w <= FLOOR]);
  }
  say("");
  say("Growth, warm in node (least of 5): the time per fight stays flat as fights grow, and per fighter-fight as fighters grow (linear in both).");
  say("");
  say("| fights | fighters | ms | µs per fight | µs per fighter-fight |");
  say("|---:|---:|---:|---:|---:|");
  for (const [fights, party, foes] of [[500, 4, 6], [1000, 4, 6], [2000, 4, 6], [4000, 4, 6], [2000, 2, 3], [2000, 8, 12], [2000, 16, 24]]) {
    const ms = await warm(forecastRequest(party, foes, fights), 3);
    const n = party + foes;
    say(`| ${fmt(fights)} | ${n} (${party} vs ${foes}) | ${fmt(ms, 1)} | ${fmt(ms * 1000 / fights, 1)} | ${fmt(ms * 1000 / fights / n, 2)} |`);
  }
  say("");
}

/* ---------------------------------------------------------------- rolling */
if (want("rolling")) {
  const { DiceRoll } = await import("@dice-roller/rpg-dice-roller");
  say("## Rolls per second of every request kind vs rpg-dice-roller (the same dice)");
  say("");
  say("`roll(request)` through module/core.mjs, unseeded (the core takes its next seed), a new request object each call as a caller writes it; rpg-dice-roller parses its notation every call. The two side by side, a window of each in turn, six times; best window of each. The kinds that roll no dice have nothing to compare with. Outcomes cross the boundary as JSON text, the one path of every verb: no faster path is kept, since none is needed for this floor.");
  say("");
  say("| request | rpg-dice-roller notation | rpg-dice-roller rolls/s | `roll` rolls/s | µs a roll | ratio | floor ≥ 1× | |");
  say("|---|---|---:|---:|---:|---:|---:|:--:|");
  let worst = Infinity;
  for (const [request, theirs] of ROLLING) {
    const text = JSON.stringify(request);
    const fresh = () => ({ ...request });
    const [ours, them] = rates(theirs ? [() => core.roll(fresh()).total, () => new DiceRoll(theirs).total] : [() => core.roll(fresh()).total]);
    const ratio = theirs ? ours / them : null;
    if (ratio !== null) worst = Math.min(worst, ratio);
    say(`| \`${text.length > 70 ? `${text.slice(0, 67)}...` : text}\` | ${theirs ? `\`${theirs}\`` : "(no dice)"} | ${theirs ? fmt(them) : "—"} | ${fmt(ours)} | ${fmt(1e6 / ours, 2)} | ${ratio === null ? "—" : `${fmt(ratio, 2)}×`} | ${ratio === null ? "—" : "1×"} | ${ratio === null ? "" : verdict(ratio >= 1)} |`);
  }
  floors.push([`every comparable kind ≥ 1× rpg-dice-roller (least ${fmt(worst, 2)}×)`, worst >= 1]);
  say("");
}

/* ---------------------------------------------------------------- attack dialog */
if (want("dialog")) {
  say("## Odds for an attack dialog with 8 targets");
  say("");
  say("`odds(request)` for one attack against each of 8 targets (defenses 8 to 15, boons, curses, one target with Evasion, one True Strike): the first time (requests the core has not seen: each decoded and computed) and again (a redraw: each request found by its JSON text, so not decoded again; the odds computed again). Least of 7.");
  say("");
  say("| case | ms for all 8 | floor ≤ 16 ms | |");
  say("|---|---:|---:|:--:|");
  let fresh = 0;
  // a bonus no redraw repeats, so each question is new to the core
  const first = least(() => { fresh++; DIALOG.forEach(r => core.odds({ ...r, bonus: fresh })); });
  const again = least(() => DIALOG.forEach(r => core.odds({ ...r })));
  say(`| first | ${fmt(first, 3)} | 16 | ${verdict(first <= 16)} |`);
  say(`| again | ${fmt(again, 3)} | 16 | ${verdict(again <= 16)} |`);
  floors.push([`an attack dialog's odds for 8 targets ≤ 16 ms (${fmt(first, 3)} ms)`, first <= 16]);
  say("");
}

/**
 * A fixed pseudo-random source (an LCG from `seed`) and 500 walls of one to four spaces on a
 * 100-pixel grid of 60 × 60 spaces drawn from it, two in five blocking only movement: a scene's
 * walls as Foundry stores them.
 * @param {number} seed
 */
function mapOf(seed) {
  const next = (/** @type {number} */ n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const walls = Array.from({ length: 500 }, () => {
    const [x, y, long, across] = [next(60) * 100, next(60) * 100, (1 + next(4)) * 100, next(2) === 0];
    return { c: across ? [x, y, x + long, y] : [x, y, x, y + long], sight: next(5) < 2 ? 0 : 20, move: 20, door: 0, ds: 0, flags: {} };
  });
  return { next, walls };
}

/* ---------------------------------------------------------------- map sight */
if (want("sight")) {
  const { barriersOf, bodyOf } = await import("../module/canvas/scene-sight.mjs");
  say("## Sight, cover and height for 8 targets on a scene with 500 walls");
  say("");
  say("What the attack dialog asks when it opens (module/canvas/scene-sight.mjs): the scene's walls read as barriers, then `iconSightlines` for 8 targets, on a 100-pixel grid of 60 × 60 spaces with 500 walls of one to four spaces (a fixed pseudo-random layout: two in five only block movement, so they are terrain one level high). *Small*: 8 targets of size 1; *large*: 8 targets of size 3 and a size-2 attacker (36 sightlines per pair instead of 1). Least of 7.");
  say("");
  say("| case | sightlines tested | ms | floor ≤ 16 ms | |");
  say("|---|---:|---:|---:|:--:|");
  const { next, walls } = mapOf(38);
  const token = (x, y, size) => ({ x: x * 100, y: y * 100, width: size, height: size, elevation: next(3) * 5 });
  let worst = 0;
  for (const [label, size, from] of [["small", 1, 1], ["large", 3, 2]]) {
    const attacker = token(30, 30, from);
    const targets = Array.from({ length: 8 }, (_, k) => token(5 + 6 * k, k % 2 ? 10 : 50, size));
    const ask = () => core.iconSightlines({ grid: 100, from: bodyOf(attacker, 100, 5),
      targets: targets.map(t => bodyOf(t, 100, 5)), barriers: barriersOf(walls, []).map(({ a, b, height }) => ({ a, b, height })) });
    const ms = least(ask);
    worst = Math.max(worst, ms);
    say(`| ${label} | ${fmt(8 * (from * from) * (size * size))} | ${fmt(ms, 3)} | 16 | ${verdict(ms <= 16)} |`);
  }
  floors.push([`sight, cover and height for 8 targets among 500 walls ≤ 16 ms (worst ${fmt(worst, 3)} ms)`, worst <= 16]);
  say("");
}

/* ---------------------------------------------------------------- movement */
if (want("movement")) {
  const { barriersOf } = await import("../module/canvas/scene-sight.mjs");
  say("## A token's move checked as it is dragged");
  say("");
  say("`iconMovement` for one drag (module/canvas/token-movement.mjs) on a 60 × 60 grid with 500 walls that block movement, 40 other tokens (half of them foes) and 400 spaces of difficult terrain (a fixed pseudo-random layout): a 1×1 and a 3×3 token walking 30 steps, the same tokens routed by the core (`route`) to one waypoint 15 × 15 spaces away (a search of up to 21 × 21 spaces), and the ruler's price of one step (the same request with a one-step path and no walls). Least of 7.");
  say("");
  say("| case | ms | floor ≤ 16 ms | |");
  say("|---|---:|---:|:--:|");
  const map = mapOf(39);
  const next = map.next;
  const walls = barriersOf(map.walls, []).map(({ a, b, height }) => ({ a, b, height }));
  const others = Array.from({ length: 40 }, (_, k) => ({ body: { i: next(60), j: next(60) }, foe: k % 2 === 0 }));
  const difficult = Array.from({ length: 400 }, () => [next(60), next(60)]);
  const path = Array.from({ length: 30 }, (_, k) => [10 + Math.min(k, 15), 10 + Math.max(0, k - 15)]);
  let worst = 0;
  // the same drag as one waypoint 15 × 15 away, routed by the core round what is in its way
  const routed = [[25, 24]];
  for (const [label, size, steps, wallsToo, route] of [["1×1, 30 steps", 1, path, true, false], ["3×3, 30 steps", 3, path, true, false],
    ["1×1, routed to a waypoint 15 × 15 away", 1, routed, true, true], ["3×3, routed to a waypoint 15 × 15 away", 3, routed, true, true],
    ["ruler: one step", 1, [path[0]], false, false]]) {
    const ask = () => core.iconMovement({ grid: 100, mover: { i: 10, j: 9, rows: size, cols: size }, path: steps, others, difficult, walls: wallsToo ? walls : [], route });
    const ms = least(ask);
    worst = Math.max(worst, ms);
    say(`| ${label} | ${fmt(ms, 3)} | 16 | ${verdict(ms <= 16)} |`);
  }
  floors.push([`a dragged move checked within a frame ≤ 16 ms (worst ${fmt(worst, 3)} ms)`, worst <= 16]);
  say("");
}

/* ---------------------------------------------------------------- combat */
if (want("combat")) {
  say("## A combat event at 15 and 1,000 combatants");
  say("");
  say("`combatApply(state, event)` through module/core.mjs: one-turn combatants with 16-character ids, turns begun and ended in order, timed once the undo log has filled. *Steady*: this process's CPU time per event (`process.cpuUsage`), the least of five windows. *First*: the start and the first turn begun and ended, the first calls of a fresh process of each size (least of 3), where the code is cold. A combat has at most 1,000 combatants.");
  say("");
  say("| combatants | steady µs per event | first start ms | first beginTurn ms | first endTurn ms | state JSON | floor: first event ≤ 16 ms | |");
  say("|---:|---:|---:|---:|---:|---:|---:|:--:|");
  const cold = new Map([15, 1000].map(n => [n, coldRuns("combat", 3, String(n))]));
  let worst = 0;
  for (const n of [15, 1000]) {
    const f = fight(core, n);
    for (let i = 0; i < (120); i++) f.step();
    let best = Infinity;
    for (let w = 0; w < 5; w++) {
      let events = 0;
      const start = performance.now();
      const used = process.cpuUsage();
      while (events < 20 || (performance.now() - start < 300 && events < 20_000)) {
        f.step();
        events++;
        if (performance.now() - start > 2000 && events >= 4) break;
      }
      const spent = process.cpuUsage(used);
      best = Math.min(best, (spent.user + spent.system) / events);
    }
    const c = key => leastOf(/** @type {object[]} */ (cold.get(n)), r => r.combat[key]);
    const firstEvent = Math.max(c("start"), c("begin"), c("end"));
    worst = Math.max(worst, firstEvent);
    say(`| ${fmt(n)} | ${fmt(best, 1)} | ${fmt(c("start"), 2)} | ${fmt(c("begin"), 2)} | ${fmt(c("end"), 2)} | ${kb(JSON.stringify(f.state).length)} | 16 | ${verdict(firstEvent <= 16)} |`);
  }
  floors.push([`the first combat event at up to 1,000 combatants ≤ 16 ms (worst ${fmt(worst, 2)} ms)`, worst <= 16]);
  say("");
}

/* ---------------------------------------------------------------- limits */
if (want("limits")) {
  // each request alone in fresh processes: its first call warms nothing for the next
  const cold = LARGEST.map((_, k) => coldRuns("limits", 3, String(k)));
  say("## The first call of the largest legal request of every kind");
  say("");
  say("Each request alone in a fresh process (least of 3), right after instantiation: its first `plan`, `roll` and `odds`, in this order, are the first calls the process makes. Limits: a request at most 256 KiB of JSON, a formula at most 100 operators, a roll at most 10,000 dice, a status list at most 128 ids, odds at most 2,048 totals and a budget of steps sized for a frame (a refusal past a limit is timed as the answer it is).");
  say("");
  say("| request | plan ms | roll ms | odds ms | odds | floor ≤ 16 ms | |");
  say("|---|---:|---:|---:|:--|---:|:--:|");
  let worst = 0;
  LARGEST.forEach(([name], k) => {
    const cell = key => leastOf(cold[k], r => r.limits[key]);
    const [plan, roll, odds] = [cell("plan"), cell("roll"), cell("odds")];
    const most = Math.max(plan, roll, odds);
    worst = Math.max(worst, most);
    const answer = cold[k][0].limits.oddsRefused ? "refused" : "answered";
    say(`| ${name} | ${fmt(plan, 2)} | ${fmt(roll, 2)} | ${fmt(odds, 2)} | ${answer} | 16 | ${verdict(most <= 16)} |`);
  });
  floors.push([`the first call of the largest legal request of every kind ≤ 16 ms (worst ${fmt(worst, 2)} ms)`, worst <= 16]);
  say("");
}

/* ---------------------------------------------------------------- pack import */
/** A ~10 MB NeDB log: many revisions of 200 entries of 5 pages, some deletions. */
function generatedLog(entries = 200, pages = 5, target = 10 * 1024 * 1024) {
  const body = "<h2>Rules</h2><p>" + "The <strong>party</strong> acts first; foes follow. ".repeat(40) + "</p>";
  const lines = [JSON.stringify({ $$indexCreated: { fieldName: "name", unique: false, sparse: false } })];
  let size = lines[0].length;
  for (let revision = 0; size < target; revision++) {
    const e = revision % entries;
    const id = `e${String(e).padStart(15, "0")}`;
    const doc = {
      _id: id, name: `Entry ${e}`, ownership: { default: 0 }, folder: null, sort: e, _stats: { modifiedTime: revision },
      pages: Array.from({ length: pages }, (_, p) => ({
        _id: `p${String(e).padStart(7, "0")}x${String(p).padStart(7, "0")}`, name: `Page ${p}`, type: "text", sort: p * 100000,
        title: { show: true, level: 1 }, text: { format: 1, content: `${body} rev ${revision}` }, ownership: { default: -1 }, flags: {}
      }))
    };
    lines.push(JSON.stringify(doc));
    size += lines.at(-1).length + 1;
    if (revision % 97 === 0) lines.push(JSON.stringify({ $$deleted: true, _id: `e${String((revision + 1) % entries).padStart(15, "0")}` }));
  }
  return lines.join("\n") + "\n";
}

/** `JSON.parse` of the same bytes: every line of the log parsed. */
const parseLines = text => { let n = 0; for (const line of text.split("\n")) if (line.trim()) { try { JSON.parse(line); n++; } catch { /* a corrupt line */ } } return n; };

if (want("packs")) {
  say("## Pack import vs `JSON.parse` of the same bytes");
  say("");
  say("`importPack(text)` through module/packs/importer.mjs (NeDB replay, v13 migration, the unsafe-HTML report of every field) against `JSON.parse` of each line of the same text; MB/s of the text, the best of 5 runs after a second of warm-up of each.");
  say("");
  say("| log | size | entries | `JSON.parse` MB/s | `importPack` MB/s | importPack / JSON.parse |");
  say("|---|---:|---:|---:|---:|---:|");
  const seed = readFileSync(path.join(root, "tests", "fixtures", "seeds", "icon-rules-reference.db"), "utf8");
  for (const [name, text] of [["the rules reference seed", seed], ["a generated NeDB log", generatedLog()]]) {
    const mb = Buffer.byteLength(text) / 1e6;
    let entries = 0;
    for (const warm = performance.now() + 1000; performance.now() < warm;) { parseLines(text); entries = importer.importPack(text).documents.length; }
    const [plain, ours] = [least(() => parseLines(text), 5), least(() => importer.importPack(text), 5)];
    say(`| ${name} | ${fmt(mb, 2)} MB | ${entries} | ${fmt(mb / (plain / 1000), 1)} | ${fmt(mb / (ours / 1000), 1)} | ${fmt(plain / ours, 2)}× |`);
  }
  say("");
}

/* ---------------------------------------------------------------- pasted ability text (issue 37) */
/** @param {unknown} value @returns {unknown} */
const sortKeys = value => Array.isArray(value) ? value.map(sortKeys)
  : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)])) : value;

/** The grammar's keywords (issue 37's list), lowercase, as a text writes them. */
const GRAMMAR = ["1 action", "2 actions", "free action", "interrupt", "trigger", "attack", "area", "aura", "mark", "stance", "combo", "delay",
  "end turn", "summon", "terrain effect", "true strike", "auto-hit", "pierce", "divine", "melee", "range", "self", "blast", "burst", "line",
  "cross", "arc", "effect", "area effect", "on hit", "miss", "critical hit", "exceed", "charge", "comeback", "finishing blow", "slay",
  "gamble", "heroic", "collide", "[d]", "fray", "once per turn", "once per round", "once per combat", "save", "until cured", "next turn"];

if (want("paste")) {
  const corpus = JSON.parse(readFileSync(path.join(root, "tests", "fixtures", "ability-texts", "corpus.json"), "utf8"));
  say("## Pasted ability text");
  say("");
  say("`parseAbilityText(text)` through module/packs/importer.mjs (the GM's importer wasm, as the paste dialog calls it on the main thread; node's V8 stands in for the browser's). The corpus (tests/fixtures/ability-texts/corpus.json: texts written for this project in ICON's grammar, each with the fields it states) pasted again and again to 500 abilities; the least of 7 runs. A paste of 2 MB is refused before it is read, naming the limit (1 MiB); one just under the limit is read.");
  say("");
  const texts = [];
  for (let n = 0; n < 500;) for (const entry of corpus) { if (n >= 500) break; texts.push(entry.text); n += entry.items.length; }
  const five = texts.join("\n\n");
  const found = importer.parseAbilityText(five).items.length;
  const ms = least(() => importer.parseAbilityText(five));
  const big = five.repeat(Math.ceil(2_000_000 / five.length));
  let refusal = "";
  const refusedMs = least(() => { try { importer.parseAbilityText(big); } catch (error) { refusal = error.message; } });
  const under = big.slice(0, 1024 * 1024 - 1024);
  // the worst a paste under the limit costs: read whole, then (past 2000 items) refused naming that limit
  let underAnswer = "";
  const underMs = least(() => {
    try { underAnswer = `${importer.parseAbilityText(under).items.length}`; } catch (error) { underAnswer = `refused ("${error.message}")`; }
  }, 3);
  say("| paste | size | abilities | ms | floor |");
  say("|---|---:|---:|---:|---|");
  say(`| the corpus to 500 abilities | ${kb(Buffer.byteLength(five))} | ${found} | ${fmt(ms, 1)} | ≤ 200 ms: ${verdict(ms <= 200 && found >= 500)} |`);
  say(`| just under the limit | ${kb(Buffer.byteLength(under))} | ${underAnswer} | ${fmt(underMs, 1)} | ≤ 2 s: ${verdict(underMs <= 2000)} |`);
  say(`| 2 MB, refused ("${refusal}") | ${kb(Buffer.byteLength(big))} | 0 | ${fmt(refusedMs, 1)} | ≤ 2 s: ${verdict(refusedMs <= 2000 && /1 MiB/.test(refusal))} |`);
  floors.push([`500 abilities parsed in ≤ 200 ms (${fmt(ms, 1)} ms)`, ms <= 200 && found >= 500]);
  floors.push(["a 2 MB paste answered within 2 s or refused naming the limit", refusedMs <= 2000 && /1 MiB/.test(refusal) && underMs <= 2000]);
  say("");
  say("The corpus: each text \"parses to exactly the fields it states\" when the items read (their names, types and every field but the description, which keeps the whole text) are the ones its entry states; by keyword (a text counts for each keyword it covers) and overall.");
  say("");
  /** @type {Map<string, [number, number]>} */
  const byKeyword = new Map();
  let exact = 0;
  for (const entry of corpus) {
    const items = importer.parseAbilityText(entry.text).items.map(({ system: { description, ...system }, ...rest }) => ({ ...rest, system }));
    const ok = JSON.stringify(sortKeys(items)) === JSON.stringify(sortKeys(entry.items));
    if (ok) exact++;
    // the keywords its entry names, and every keyword of the grammar its text holds
    const text = entry.text.toLowerCase();
    const keywords = new Set([...entry.keywords.map(k => k.toLowerCase()), ...GRAMMAR.filter(k => text.includes(k))]);
    for (const keyword of keywords) {
      const [n, good] = byKeyword.get(keyword) ?? [0, 0];
      byKeyword.set(keyword, [n + 1, good + (ok ? 1 : 0)]);
    }
  }
  say("| keyword | texts | exact | % |");
  say("|---|---:|---:|---:|");
  for (const [keyword, [n, good]] of [...byKeyword].sort(([a], [b]) => a.localeCompare(b))) say(`| ${keyword} | ${n} | ${good} | ${fmt(100 * good / n, 1)} |`);
  say(`| **overall** | ${corpus.length} | ${exact} | ${fmt(100 * exact / corpus.length, 1)} |`);
  floors.push([`≥ 95% of the corpus parses exactly (${fmt(100 * exact / corpus.length, 1)}%)`, exact / corpus.length >= 0.95]);
  say("");
}

/* ---------------------------------------------------------------- stored combat state too large */
if (want("state")) {
  // its own process: it installs the stand-in Foundry world's globals
  const table = execFileSync(process.execPath, [path.join(root, "bench", "state-size.mjs")], { encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "inherit"] });
  say("## A stored combat state far past its limit");
  say("");
  say("A Combat whose stored state is 30 MB of JSON (the limit is 4 MiB), grown four ways: Foundry's own parse of it, the system's one measure of it when the Combat's data is prepared, the refusal of the GM's event and of a player's request (least of 7), and the core's `combatApply` given that state by another module. Milliseconds; `bench/state-size.mjs`.");
  say("");
  for (const line of table.trimEnd().split("\n")) say(line);
  say("");
}

/* ---------------------------------------------------------------- summary and fuzz */
if (floors.length) {
  say("## Floors");
  say("");
  say("| floor | |");
  say("|---|:--:|");
  for (const [figure, met] of floors) say(`| ${figure} | ${verdict(met)} |`);
  say("");
}

if (process.env.ICON_FUZZ_SECONDS) {
  const fuzz = execFileSync("bash", [path.join(root, "bench", "fuzz.sh"), process.env.ICON_FUZZ_SECONDS], { encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "inherit"] });
  for (const line of fuzz.trimEnd().split("\n")) say(line);
  say("");
}

if (!only) {
  writeFileSync(path.join(root, "BENCHMARKS.md"), `${out.join("\n").trimEnd()}\n`);
  console.error("[bench] wrote BENCHMARKS.md");
}
