// Compiles every packs/_source/<name>/ (foundryvtt-cli source JSON) into the LevelDB pack
// <out>/<name>/ (default packs/<name>/, which system.json declares), with the official
// @foundryvtt/foundryvtt-cli.   node scripts/compile-packs.mjs [out-dir]
// What belongs to the world a source came from is dropped on the way, whoever wrote the source:
// `_stats` (its times, its user, a compendiumSource pointing into that world) and ownership by
// anyone but `default` (its users do not exist here).
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * @param {Record<string, any>} doc  A top-level entry, its embedded documents inside.
 */
function dropForeign(doc) {
  for (const d of [doc, ...(Array.isArray(doc.pages) ? doc.pages : [])]) {
    delete d._stats;
    if (d.ownership && typeof d.ownership === "object") d.ownership = { default: d.ownership.default ?? (d === doc ? 0 : -1) };
  }
}

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const sources = path.join(root, "packs", "_source");
const out = path.resolve(process.argv[2] ?? path.join(root, "packs"));
for (const name of readdirSync(sources, { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name).sort()) {
  const dest = path.join(out, name);
  // a fresh database each build, so a removed entry never lingers
  rmSync(dest, { recursive: true, force: true });
  await compilePack(path.join(sources, name), dest, { transformEntry: dropForeign });
  console.error(`[packs] compiled ${path.relative(root, dest)}`);
}
