// Compiles every packs/_source/<name>/ (foundryvtt-cli source JSON) into the LevelDB pack
// <out>/<name>/ (default packs/<name>/, which system.json declares), with the official
// @foundryvtt/foundryvtt-cli.   node scripts/compile-packs.mjs [out-dir]
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const sources = path.join(root, "packs", "_source");
const out = path.resolve(process.argv[2] ?? path.join(root, "packs"));
for (const name of readdirSync(sources, { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name).sort()) {
  const dest = path.join(out, name);
  // a fresh database each build, so a removed entry never lingers
  rmSync(dest, { recursive: true, force: true });
  await compilePack(path.join(sources, name), dest);
  console.error(`[packs] compiled ${path.relative(root, dest)}`);
}
