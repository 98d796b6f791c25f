// The glossary of the shipped rules reference, for the system's glossary tooltips
// (module/icon-engine.mjs reads it when the world is ready): the terms of every text page of
// packs/_source/rules-reference, in the order Foundry reads the compendium (entries by id, each
// entry's pages as stored), found by the importer's own `glossaryTerms`. Written at build time so
// that no client loads the importer to find them.   node scripts/glossary.mjs [out-file]
// (default packs/glossary.json; written only when its bytes change). scripts/build.sh runs it.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const raw = await import(path.join(root, "wasm", "icon_importer.js"));
raw.initSync({ module: readFileSync(path.join(root, "wasm", "icon_importer_bg.wasm")) });
const { loadImporter } = await import(path.join(root, "module", "packs", "importer.mjs"));
const importer = await loadImporter();

/**
 * The glossary terms of a pack's source folder, in Foundry's order.
 * @param {string} folder
 */
function packGlossary(folder) {
  /** @type {{_id: string, pages?: {type?: string, name?: string, text?: {content?: string}}[]}[]} */
  const entries = readdirSync(folder).filter(f => f.endsWith(".json"))
    .map(f => JSON.parse(readFileSync(path.join(folder, f), "utf8")))
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return entries.flatMap(entry => (entry.pages ?? []))
    .filter(page => page.type === "text")
    .flatMap(page => importer.glossaryTerms(page.text?.content ?? "", page.name ?? ""));
}

const out = path.resolve(process.argv[2] ?? path.join(root, "packs", "glossary.json"));
const text = `${JSON.stringify(packGlossary(path.join(root, "packs", "_source", "rules-reference")), null, 1)}\n`;
if (!existsSync(out) || readFileSync(out, "utf8") !== text) writeFileSync(out, text);
console.error(`[glossary] ${path.relative(root, out)}: ${JSON.parse(text).length} terms`);
