// Loads a built core (wasm-bindgen glue + a .wasm file) the way the system does and prints what a
// few calls return, as one JSON line. scripts/build.sh runs it on the unoptimised and on the
// wasm-opt output and keeps the optimised module only if both print the same.
//   node scripts/wasm-smoke.mjs wasm-dir/icon_engine.js some.wasm
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [glue, wasm] = process.argv.slice(2);
const core = await import(pathToFileURL(path.resolve(glue)).href);
core.initSync({ module: readFileSync(wasm) });

/** @param {() => unknown} f */
const attempt = f => {
  try {
    return f();
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
};
const dice = formula => ({ kind: "dice", formula });
const out = {
  version: attempt(() => core.version()),
  roll: attempt(() => core.roll(dice("4d6kh3 + 2d8!"), 42)),
  odds: attempt(() => core.odds(dice("3d6"))),
  plan: attempt(() => core.plan(dice("2d20kh1 + 1d4"))),
  bad: attempt(() => core.roll(dice("2d"), 1))
};
if (typeof out.version !== "string") {
  console.error("version() did not return a string:", out.version);
  process.exit(1);
}
console.log(JSON.stringify(out));
