// The system's example content pack (assets/content-packs/example.json) as foundryvtt-cli source
// JSON: packs/_source/example-items (Item) and packs/_source/example-foes (Actor), which the build
// compiles with the other packs. Planned by the importer's own planner (module/packs/content-pack.mjs);
// a record it cannot plan fails the build.   node scripts/content-pack.mjs
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cliSources, planContentPack } from "../module/packs/content-pack.mjs";
import { replaceDirIfChanged } from "./replace-dir.mjs";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
export const EXAMPLE_PACK = path.join(ROOT, "assets", "content-packs", "example.json");
/** The system's compendiums the example is compiled into (system.json `packs`). */
export const EXAMPLE_PACKS = Object.freeze({ items: "icon-engine.example-items", actors: "icon-engine.example-foes" });

/** A source file's name: the document's name as a slug, then its id (as foundryvtt-cli names them). */
const fileName = (/** @type {{name: string, _id: string}} */ doc) => `${doc.name.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}_${doc._id}.json`;

/**
 * The example pack planned for the system's compendiums.
 * @returns {import("../module/packs/content-pack.mjs").PackPlan}
 */
export function examplePlan() {
  return planContentPack(readFileSync(EXAMPLE_PACK, "utf8"), { packs: EXAMPLE_PACKS });
}

/** Write the sources, replacing a folder only when its files change. */
function build() {
  const plan = examplePlan();
  const { bad, records, valid } = plan.report;
  if (bad.length) throw new Error(`the example pack has records it cannot import:\n${bad.map(b => `  ${b.kind} "${b.id}": ${b.field}: ${b.message}`).join("\n")}`);
  const sources = cliSources(plan);
  for (const [folder, docs] of [["example-items", sources.items], ["example-foes", sources.actors]]) {
    const target = path.join(ROOT, "packs", "_source", folder);
    const work = path.join(ROOT, "target", `content-${folder}`);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    for (const doc of /** @type {{name: string, _id: string}[]} */ (docs)) writeFileSync(path.join(work, fileName(doc)), `${JSON.stringify(doc, null, 2)}\n`);
    replaceDirIfChanged(target, work);
  }
  console.error(`[content] example pack: ${valid} of ${records} records, ${plan.items.length} items, ${plan.actors.length} foes`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) build();
