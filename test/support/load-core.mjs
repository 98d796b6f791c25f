/**
 * Loads the built wasm core synchronously for node tests. Lives outside test/node/ so the test
 * runner doesn't take it for a test file.
 */
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const glue = new URL("wasm/icon_engine.js", root);
const binary = new URL("wasm/icon_engine_bg.wasm", root);

if (!existsSync(glue) || !existsSync(binary)) {
  throw new Error("wasm/ is not built: run `npm run build` (scripts/build.sh) before the node tests");
}

/** @type {import("../../module/types/core.js").CoreApi & {initSync: Function}} */
const core = await import(glue.href);
core.initSync({ module: readFileSync(binary) });

export default core;

/** @param {string} formula */
export const dice = formula => ({ kind: "dice", formula });
