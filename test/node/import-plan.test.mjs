// Planning a pack import: pages cleaned, entries split into creates and updates by _id.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";
import { batches, planImport } from "../../module/packs/import-plan.mjs";

const seed = new URL("../../../shared/seeds/icon-rules-reference.db", import.meta.url);

test("a re-import updates the entries it finds and creates the rest, with every page cleaned", () => {
  const { documents } = core.importPack(readFileSync(seed, "utf8"));
  const cleaned = [];
  const clean = html => { cleaned.push(html); return html.replace(/<strong>/g, "<b>"); };
  // the world already holds the tactical entry, with only its first page
  const tactical = documents.find(d => d._id === "oTFwOxymQG9qIOAd");
  const existing = id => (id === tactical._id ? { pages: [tactical.pages[0]._id] } : undefined);
  const plan = planImport(documents, clean, existing);
  assert.deepEqual(plan.create.map(e => e._id), ["zr2iJeDGRgYVvxHH"]);
  assert.equal(plan.update.length, 1);
  assert.deepEqual([plan.update[0].oldPages.length, plan.update[0].newPages.length], [1, 10]);
  assert.equal(cleaned.length, 17);
  assert.ok(!JSON.stringify(plan).includes("<strong>"));
  // the core's documents are untouched
  assert.ok(JSON.stringify(documents).includes("<strong>"));
});

test("batches split evenly with a short last batch", () => {
  assert.deepEqual(batches([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(batches([], 20), []);
});
