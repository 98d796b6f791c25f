/**
 * The pack importer (the HTML scanner, NeDB, migration and the glossary): a wasm module of its own,
 * loaded only where an import runs, by the import worker (module/packs/import-worker.mjs) and,
 * when no worker can be made, on the GM's main thread (module/packs/read-pack.mjs). A player's
 * client never loads it. Arguments are checked here as module/core.mjs checks the core's.
 * @import { ImporterApi } from "../types/core.js"
 * @import { PasteApi } from "./paste.js"
 */

// @ts-ignore -- wasm/ is a build output (it may be absent at type-check time); typed via ImporterApi below.
import init, * as wasm from "../../wasm/icon_importer.js";
import { plainCopy, stringArg } from "../core-arguments.mjs";

/** @type {Promise<ImporterApi & PasteApi> | null} */
let loading = null;

/**
 * Load and instantiate the importer once; later calls share the same promise. Like `loadCore`,
 * the default `init()` fetches icon_importer_bg.wasm next to its glue, and a module already
 * initialised with `initSync` (node) is taken as it is.
 * @returns {Promise<ImporterApi & PasteApi>}
 */
export function loadImporter() {
  return loading ??= init().then(() => Object.freeze({ importPack, glossary, glossaryTerms, parseAbilityText, parseFoeText,
    version: () => wasm.version() }));
}

/**
 * Import options as plain data (the importer reads them as a JS object and checks each), or
 * undefined.
 * @param {unknown} options
 * @returns {Parameters<typeof wasm.importPack>[1]}
 */
const importOptions = options =>
  (options === undefined || options === null ? undefined : /** @type {Parameters<typeof wasm.importPack>[1]} */ (plainCopy("import options", options)));

/** @type {ImporterApi["importPack"]} */
export const importPack = (text, options) =>
  /** @type {ReturnType<ImporterApi["importPack"]>} */ (wasm.importPack(stringArg("text", text), importOptions(options)));

/** @type {ImporterApi["glossary"]} */
export const glossary = (text, options) => wasm.glossary(stringArg("text", text), importOptions(options));

/** @type {ImporterApi["glossaryTerms"]} */
export const glossaryTerms = (html, page) => wasm.glossaryTerms(stringArg("html", html), stringArg("page", page));

/** @type {PasteApi["parseAbilityText"]} */
export const parseAbilityText = (text, options) =>
  /** @type {ReturnType<PasteApi["parseAbilityText"]>} */ (wasm.parseAbilityText(stringArg("text", text), options === undefined || options === null ? undefined
    : /** @type {{type?: "ability" | "trait" | "relic"}} */ (plainCopy("paste options", options))));

/** @type {PasteApi["parseFoeText"]} */
export const parseFoeText = text => /** @type {ReturnType<PasteApi["parseFoeText"]>} */ (wasm.parseFoeText(stringArg("text", text)));
