// Node benchmark of the built wasm core (`npm run bench` after `scripts/build.sh`): rolls per
// second and odds timings, printed as markdown tables for BENCHMARKS.md. Timings are measured
// here, never asserted in tests.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const root = fileURLToPath(new URL("..", import.meta.url));
const core = await import(`${root}wasm/icon_engine.js`);
core.initSync({ module: readFileSync(`${root}wasm/icon_engine_bg.wasm`) });

/** Calls `fn` for about `ms` milliseconds; returns calls per second. */
function rate(fn, ms = 400) {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    for (let i = 0; i < 32; i++) fn(n++);
  }
  return n / ((performance.now() - start) / 1000);
}

/** Mean milliseconds per call over at least 3 calls and about `ms` milliseconds. */
function each(fn, ms = 400) {
  const start = performance.now();
  let n = 0;
  while (n < 3 || performance.now() - start < ms) {
    fn();
    n++;
    if (performance.now() - start > 5000) break;
  }
  return (performance.now() - start) / n;
}

console.log("| request | rolls/s in wasm (plan+RNG+resolve) |");
console.log("|---|---:|");
const rolls = [
  { kind: "dice", formula: "3d6" },
  { kind: "dice", formula: "4d6kh3" },
  { kind: "dice", formula: "8d6x" },
  { kind: "icon.attack", boons: 2, defense: 12 },
  { kind: "icon.action", rating: 3, push: true }
];
for (const request of rolls) {
  const r = rate(seed => core.roll(request, seed));
  console.log(`| \`${JSON.stringify(request)}\` | ${Math.round(r)} |`);
}

console.log("");
console.log("| request | odds in wasm | exact? |");
console.log("|---|---:|:--:|");
const odds = [
  { kind: "dice", formula: "3d6" },
  { kind: "dice", formula: "4d6kh3" },
  { kind: "dice", formula: "10d100" },
  { kind: "dice", formula: "30d100" },
  { kind: "dice", formula: "1000d6" },
  { kind: "dice", formula: "3d6x" },
  { kind: "icon.attack", boons: 3, curses: 1, defense: 14 },
  { kind: "icon.action", rating: 4, boons: 2 }
];
for (const request of odds) {
  let last;
  const ms = each(() => { last = core.odds(request); });
  console.log(`| \`${JSON.stringify(request)}\` | ${ms.toFixed(3)} ms | ${last.exact ? "yes" : "f64"} |`);
}
