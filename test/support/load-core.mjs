/**
 * Loads the built wasm core synchronously for node tests and hands back its public API
 * (module/core.mjs: every argument checked in JS before wasm is entered). Lives outside
 * test/node/ so the test runner doesn't take it for a test file.
 */
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const glue = new URL("wasm/icon_engine.js", root);
const binary = new URL("wasm/icon_engine_bg.wasm", root);

if (!existsSync(glue) || !existsSync(binary)) {
  throw new Error("wasm/ is not built: run `npm run build` (scripts/build.sh) before the node tests");
}

/** The raw wasm exports (the layer under module/core.mjs), initialised. */
export const raw = await import(glue.href);
raw.initSync({ module: readFileSync(binary) });

const { loadCore } = await import(new URL("module/core.mjs", root).href);
/** @type {import("../../module/types/core.js").CoreApi} */
const core = await loadCore();

export default core;

/** @param {string} formula */
export const dice = formula => ({ kind: "dice", formula });
