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
// the raw exports: a request's JSON text becomes a handle the verbs take (module/core.mjs)
const handle = formula => core.requestNew(JSON.stringify({ kind: "dice", formula }));
const out = {
  version: attempt(() => core.version()),
  roll: attempt(() => core.requestResolve(handle("4d6kh3 + 2d8!"), "[[1,2,3,4],[8,8]]")),
  more: attempt(() => core.requestResolve(handle("4d6kh3 + 2d8!"), "[[1,2,3,4],[8,8],[8]]")),
  attack: attempt(() => core.requestResolve(core.requestNew(JSON.stringify({ kind: "icon.attack", boons: 2, defense: 12 })), "[[17],[2,5]]")),
  odds: attempt(() => core.requestOdds(handle("3d6"))),
  plan: attempt(() => core.requestPlan(handle("2d20kh1 + 1d4"))),
  bad: attempt(() => core.requestNew(JSON.stringify({ kind: "dice", formula: "2d" })))
};
if (typeof out.version !== "string") {
  console.error("version() did not return a string:", out.version);
  process.exit(1);
}
console.log(JSON.stringify(out));
