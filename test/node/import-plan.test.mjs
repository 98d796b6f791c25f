// Planning a pack import: every reported field cleaned, the source world's bookkeeping dropped,
// entries split into creates and updates by _id.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import importer from "../support/load-importer.mjs";
import { UNSAFE, batches, planImport } from "../../module/packs/import-plan.mjs";

const seed = new URL("../../tests/fixtures/seeds/icon-rules-reference.db", import.meta.url);

test("a re-import updates the entries it finds and creates the rest, with every page cleaned", () => {
  const { documents, report } = importer.importPack(readFileSync(seed, "utf8"));
  const cleaned = [];
  const clean = html => { cleaned.push(html); return html.replace(/<strong>/g, "<b>"); };
  // the world already holds the tactical entry, with only its first page
  const tactical = documents.find(d => d._id === "oTFwOxymQG9qIOAd");
  const existing = id => (id === tactical._id ? { pages: [tactical.pages[0]._id] } : undefined);
  const plan = planImport(documents, report.warnings, clean, existing);
  assert.deepEqual(plan.create.map(e => e._id), ["zr2iJeDGRgYVvxHH"]);
  assert.equal(plan.update.length, 1);
  assert.deepEqual([plan.update[0].oldPages.length, plan.update[0].newPages.length], [1, 10]);
  assert.equal(cleaned.length, 17);
  assert.ok(!JSON.stringify(plan).includes("<strong>"));
  // the core's documents are untouched
  assert.ok(JSON.stringify(documents).includes("<strong>"));
});

test("every field the core reports is cleaned, a script URL emptied, and nothing else touched", () => {
  const entry = {
    _id: "hhhhhhhhhhhhhhh8", name: "<img src=x onerror=alert(1)>Entry",
    flags: { "a-module": { note: "<a href='javascript:x'>n</a>", url: " javascript:alert(1)", plain: "Fish & <b>chips</b>", "a/b": ["<svg onload=1>"] } },
    pages: [
      { _id: "iiiiiiiiiiiiiii9", name: "<svg onload=alert(1)>", text: { format: 2, content: "<p>fine</p>", markdown: "<script>alert(1)</script>" },
        system: { html: "<div style='position:fixed;inset:0'>x</div>" } },
      { _id: "iiiiiiiiiiiiiiia", name: "Img", type: "image", src: "javascript:alert(1)", image: { caption: "<meta http-equiv=refresh content=0>" } }
    ]
  };
  const { documents, report } = importer.importPack(JSON.stringify(entry));
  const reported = report.warnings.filter(w => UNSAFE.includes(w.kind)).map(w => `${w.pageId ?? "entry"} ${w.field}`);
  assert.deepEqual(reported, [
    "entry /name", "entry /flags/a-module/a~1b/0", "entry /flags/a-module/note", "entry /flags/a-module/url",
    "iiiiiiiiiiiiiii9 /name", "iiiiiiiiiiiiiii9 /text/markdown", "iiiiiiiiiiiiiii9 /system/html",
    "iiiiiiiiiiiiiiia /image/caption", "iiiiiiiiiiiiiiia /src"
  ]);
  const cleaned = [];
  const clean = html => { cleaned.push(html); return `[clean]${html.length}`; };
  const [planned] = planImport(documents, report.warnings, clean, () => undefined).create;
  const page = planned.pages.find(p => p._id === "iiiiiiiiiiiiiii9");
  const image = planned.pages.find(p => p._id === "iiiiiiiiiiiiiiia");
  assert.equal(planned.name, `[clean]${entry.name.length}`);
  assert.equal(planned.flags["a-module"].note, `[clean]${entry.flags["a-module"].note.length}`);
  assert.equal(planned.flags["a-module"]["a/b"][0], "[clean]14");
  assert.equal(planned.flags["a-module"].url, "", "a script URL, which has no markup to clean, is emptied");
  assert.equal(planned.flags["a-module"].plain, "Fish & <b>chips</b>", "nothing was reported here");
  assert.equal(page.name, "[clean]21");
  assert.equal(page.text.markdown, "[clean]25");
  assert.equal(page.system.html, `[clean]${entry.pages[0].system.html.length}`);
  assert.equal(image.src, "");
  assert.equal(image.image.caption, "[clean]35");
  assert.equal(image.name, "Img");
  // every page's HTML goes through the sanitiser too, reported or not
  assert.equal(page.text.content, "[clean]11");
  assert.equal(cleaned.length, 8);
});

test("the source world's stats, compendium source and users are dropped", () => {
  const entry = {
    _id: "hhhhhhhhhhhhhhh8", name: "E", ownership: { default: 2, uuuuuuuuuuuuuuu1: 3, uuuuuuuuuuuuuuu2: 3 },
    _stats: { compendiumSource: "JournalEntry.Ww2NsTPXkqetekYC", lastModifiedBy: "uuuuuuuuuuuuuuu1", modifiedTime: 5,
      exportSource: { worldId: "old", uuid: null, coreVersion: "10.291", systemId: "worldbuilding", systemVersion: "0.7.1" } },
    pages: [{ _id: "iiiiiiiiiiiiiii9", name: "P", text: { content: "<p>x</p>" }, ownership: { default: -1, uuuuuuuuuuuuuuu1: 3 },
      _stats: { compendiumSource: "x", createdTime: 1 } }]
  };
  const { documents, report } = importer.importPack(JSON.stringify(entry));
  const [planned] = planImport(documents, report.warnings, html => html, () => undefined, new Set(["uuuuuuuuuuuuuuu2"])).create;
  assert.deepEqual(planned._stats, { exportSource: entry._stats.exportSource });
  assert.deepEqual(planned.ownership, { default: 2, uuuuuuuuuuuuuuu2: 3 });
  assert.equal(planned.pages[0]._stats, undefined);
  assert.deepEqual(planned.pages[0].ownership, { default: -1 });
});

test("batches split evenly with a short last batch", () => {
  assert.deepEqual(batches([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(batches([], 20), []);
});
