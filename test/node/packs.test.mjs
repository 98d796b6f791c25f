// The shipped compendium: the LevelDB pack the build compiled, read back with the official
// foundryvtt-cli, against the seed as the core imports it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import core from "../support/load-core.mjs";

const root = new URL("../../", import.meta.url);
const pack = new URL("packs/rules-reference", root);
const seed = new URL("../shared/seeds/icon-rules-reference.db", root);

test("the compiled rules reference holds 2 entries and 17 pages in order, with the newest text", async () => {
  assert.ok(existsSync(pack), "packs/rules-reference is built by scripts/build.sh");
  const out = mkdtempSync(path.join(tmpdir(), "icon-pack-"));
  await extractPack(pack.pathname, out);
  const entries = readdirSync(out).filter(f => f.endsWith(".json"))
    .map(f => JSON.parse(readFileSync(path.join(out, f), "utf8")));
  assert.equal(entries.length, 2);
  assert.equal(entries.reduce((n, e) => n + e.pages.length, 0), 17);
  // nothing of the world the seed was exported from: its stats (times, user, compendiumSource)
  // and its users' ownership
  for (const doc of [...entries, ...entries.flatMap(e => e.pages)]) {
    assert.ok(!doc._stats?.compendiumSource && !doc._stats?.lastModifiedBy && !doc._stats?.exportSource, JSON.stringify(doc._stats));
    assert.deepEqual(Object.keys(doc.ownership ?? { default: 0 }), ["default"], doc.name);
  }
  const manifest = JSON.parse(readFileSync(new URL("system.json", root), "utf8"));
  assert.deepEqual(manifest.packs.map(p => [p.name, p.type, p.path]), [["rules-reference", "JournalEntry", "packs/rules-reference"]]);
  if (!existsSync(seed)) return;
  const { documents } = core.importPack(readFileSync(seed, "utf8"));
  for (const entry of entries) {
    const want = documents.find(d => d._id === entry._id);
    assert.ok(want, entry.name);
    const sorted = [...entry.pages].sort((a, b) => a.sort - b.sort).map(p => p._id);
    assert.deepEqual(sorted, want.pages.map(p => p._id), "pages in sort order");
    for (const page of entry.pages) {
      const original = want.pages.find(p => p._id === page._id);
      // the newest revision's words (the CLI sanitised the HTML, so compare the text)
      const words = html => html.replace(/<[^>]+>/g, " ").replace(/&[a-z#0-9]+;/gi, " ").split(/\s+/).filter(Boolean);
      assert.deepEqual(words(page.text.content ?? ""), words(original.text.content ?? ""), page.name);
    }
  }
});

// importPack takes the text into wasm with TextEncoder.encodeInto (one byte per UTF-16 unit
// first, then again with room for the rest): every string must arrive as the glue would pass it,
// lone surrogates as U+FFFD.
test("importPack reads any text as JS holds it: non-ASCII at either end, astral, lone surrogates", () => {
  const names = ["plain", "é".repeat(3000), "😀 and ✓", `${"x".repeat(5000)}ß`, "ß".repeat(2) + "x".repeat(9), "lone \ud800 high", "lone \udc00 low", "end \ud83d"];
  for (const name of names) {
    for (const prefix of ["", "a".repeat(1000), "€"]) {
      const full = prefix + name;
      // written by hand: JSON.stringify would escape a lone surrogate
      const log = `{"_id":"aaaaaaaaaaaaaaa1","name":"${full}","pages":[]}\n{"_id":"bbbbbbbbbbbbbbb2","name":"after","pages":[]}\n`;
      const { documents, report } = core.importPack(log);
      assert.deepEqual(report.bad, []);
      assert.deepEqual(documents.map(d => d.name), [full.toWellFormed(), "after"], JSON.stringify(full.slice(0, 40)));
    }
  }
  assert.throws(() => core.importPack(7), /text must be a string, not a number/);
});
