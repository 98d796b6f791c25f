// Speed of the size options bench/size-options.sh built, against the shipped wasm, side by side
// in one process (a window of each in turn; the best window of each). Prints markdown.
//   node bench/size-options.mjs <dir of the option builds>
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const dir = process.argv[2];
const load = async (glue, wasm) => {
  const m = await import(`${glue}?${Math.random()}`);
  m.initSync({ module: readFileSync(wasm) });
  return m;
};
const root = new URL("..", import.meta.url).pathname;
const shipped = await load(`${root}wasm/icon_engine.js`, `${root}wasm/icon_engine_bg.wasm`);
const swb = await load(`${dir}/swb/pkg/icon_engine.js`, `${dir}/swb/pkg/icon_engine_bg.wasm`);
const z = await load(`${dir}/z/pkg/icon_engine.js`, `${dir}/z/pkg/icon_engine_bg.wasm`);

/** Microseconds per call of each of `fns`, measured in turn. */
function times(fns, ms = 150, rounds = 4) {
  for (const fn of fns) for (const warm = performance.now() + 300; performance.now() < warm;) fn();
  const best = fns.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      let n = 0;
      while (performance.now() - start < ms) { fn(); n++; }
      best[k] = Math.max(best[k], n / ((performance.now() - start) / 1000));
    });
  }
  return best.map(perSecond => 1e6 / perSecond);
}
const fmt = us => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`);

const attack = { kind: "icon.attack", boons: 2, defense: 12, bonus: 3 };
// serde-wasm-bindgen reads a plain object (JSON.parse of the checked text, as module/core.mjs
// would hand it over); the others read the JSON text
const asText = m => value => JSON.stringify(value);
const asObject = () => value => JSON.parse(JSON.stringify(value));
const builds = [["shipped", shipped, asText], ["serde-wasm-bindgen", swb, asObject], ["opt-level z", z, asText]];
const cases = [
  ["decode a request (new handle, released)", (m, arg) => () => { m.requestNew(arg(attack)); m.requestsRelease(); }],
  ["roll icon.attack (raw, seeded)", (m, arg) => { const h = m.requestNew(arg(attack)); let s = 0; return () => m.requestRoll(h, s++); }],
  ["rollMany 10d6 × 10,000", (m, arg) => { const h = m.requestNew(arg({ kind: "dice", formula: "10d6" })); let s = 0; return () => m.requestRollMany(h, 10000, s++); }],
  ["odds 100d6, first ask", (m, arg) => () => { m.requestOddsArrays(m.requestNew(arg({ kind: "dice", formula: "100d6" }))); m.requestsRelease(); }],
  ["odds 20d10kh5, first ask", (m, arg) => () => { m.requestOddsArrays(m.requestNew(arg({ kind: "dice", formula: "20d10kh5" }))); m.requestsRelease(); }],
  ["combatApply, 1,000 combatants", (m, arg) => {
    const combatants = Array.from({ length: 1000 }, (_, i) => ({ id: `c${i}`, side: i % 2 ? "foes" : "party" }));
    const state = JSON.parse(m.combatApplyJson(null, arg({ type: "start", combatants }))).state;
    return () => m.combatApplyJson(arg(state), arg({ type: "beginTurn", id: "c0" }));
  }]
];
console.log(`| case | ${builds.map(([name]) => name).join(" | ")} |`);
console.log(`|---|${builds.map(() => "---:").join("|")}|`);
for (const [label, make] of cases) {
  const t = times(builds.map(([, m, arg]) => make(m, arg(m))));
  console.log(`| ${label} | ${t.map((us, k) => (k ? `${fmt(us)} (${(us / t[0]).toFixed(2)}×)` : fmt(us))).join(" | ")} |`);
}
const message = (m, arg) => { try { m.requestNew(arg({ kind: "icon.attack", boons: "two" })); } catch (e) { return e.message; } };
console.log("");
console.log(`Messages for \`{kind: "icon.attack", boons: "two"}\`: shipped \`${message(shipped, asText(shipped))}\`; serde-wasm-bindgen \`${message(swb, asObject(swb))}\` (no field named).`);
