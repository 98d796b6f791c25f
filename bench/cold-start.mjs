// One fresh node process, as a client starts: the client core compiled and instantiated, then the
// first call of each user action, every one timed (the code each runs is cold the first time:
// V8 compiles wasm lazily, baseline first). bench/run.mjs runs it several times and keeps the
// least of each figure. Prints one JSON object.
//   node bench/cold-start.mjs kinds    compile, instantiate, the first roll and odds of every kind
//   node bench/cold-start.mjs limits K the first plan, roll and odds of the K-th largest legal
//                                      request (bench/requests.mjs LARGEST), alone in its process
//   node bench/cold-start.mjs combat N the first events of a fight of N combatants, alone in its process
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { COLD_KINDS, DIALOG, LARGEST, fight } from "./requests.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const mode = process.argv[2] ?? "kinds";
const out = {};
/** Milliseconds of `fn`, and whether it refused (past a limit: an answer too, timed the same). */
const timed = fn => {
  const start = performance.now();
  let refused = false;
  try {
    fn();
  } catch {
    refused = true;
  }
  return { ms: performance.now() - start, refused };
};
/** Milliseconds of `fn`, its answer or its refusal kept. */
const time = fn => timed(fn).ms;

const bytes = readFileSync(`${root}wasm/icon_engine_bg.wasm`);
let t = performance.now();
const module = await WebAssembly.compile(bytes);
out.compile = performance.now() - t;
const glue = await import(`${root}wasm/icon_engine.js`);
t = performance.now();
glue.initSync({ module });
out.instantiate = performance.now() - t;
const core = await (await import(`${root}module/core.mjs`)).loadCore();

if (mode === "kinds") {
  out.roll = {};
  out.odds = {};
  for (const [name, request] of COLD_KINDS) out.roll[name] = time(() => core.roll(request));
  // an attack dialog opened right after: the odds of each of its 8 targets
  out.dialog = time(() => DIALOG.forEach(r => core.odds(r)));
  for (const [name, request] of COLD_KINDS) out.odds[name] = time(() => core.odds(request));
} else if (mode === "limits") {
  const [name, request] = LARGEST[Number(process.argv[3])];
  const plan = time(() => core.plan(request));
  const roll = time(() => core.roll(request));
  const odds = timed(() => core.odds(request));
  out.limits = { name, plan, roll, odds: odds.ms, oddsRefused: odds.refused };
} else if (mode === "combat") {
  const f = fight(core, Number(process.argv[3]));
  // the start, then the first turn begun and ended: the first calls the process makes
  out.combat = { start: f.startMs, begin: time(() => f.step()), end: time(() => f.step()) };
}
console.log(JSON.stringify(out));
