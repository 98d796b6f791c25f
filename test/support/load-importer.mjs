/**
 * Loads the built pack importer (wasm/icon_importer*, a module of its own that only an import
 * loads) synchronously for node tests and hands back its API (module/packs/importer.mjs: every
 * argument checked in JS first). Lives outside test/node/ so the test runner doesn't take it for
 * a test file.
 */
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const glue = new URL("wasm/icon_importer.js", root);
const binary = new URL("wasm/icon_importer_bg.wasm", root);

if (!existsSync(glue) || !existsSync(binary)) {
  throw new Error("wasm/ is not built: run `npm run build` (scripts/build.sh) before the node tests");
}

/** The raw wasm exports of the importer, initialised. */
export const raw = await import(glue.href);
raw.initSync({ module: readFileSync(binary) });

const { loadImporter } = await import(new URL("module/packs/importer.mjs", root).href);
/** @type {import("../../module/types/core.js").ImporterApi} */
const importer = await loadImporter();

export default importer;
