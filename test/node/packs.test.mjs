// The shipped compendium: the LevelDB pack the build compiled, read back with the official
// foundryvtt-cli, against the seed as the core imports it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import importer from "../support/load-importer.mjs";

const root = new URL("../../", import.meta.url);
const pack = new URL("packs/rules-reference", root);
const seed = new URL("tests/fixtures/seeds/icon-rules-reference.db", root);

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
  assert.deepEqual(manifest.packs.map(p => [p.name, p.type, p.path]), [["rules-reference", "JournalEntry", "packs/rules-reference"],
    ["guide", "JournalEntry", "packs/guide"], ["example-items", "Item", "packs/example-items"], ["example-foes", "Actor", "packs/example-foes"]]);
  if (!existsSync(seed)) return;
  const { documents } = importer.importPack(readFileSync(seed, "utf8"));
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
      const { documents, report } = importer.importPack(log);
      assert.deepEqual(report.bad, []);
      assert.deepEqual(documents.map(d => d.name), [full.toWellFormed(), "after"], JSON.stringify(full.slice(0, 40)));
    }
  }
  assert.throws(() => importer.importPack(7), /text must be a string, not a number/);
});

/**
 * NeDB's own reading of a log (persistence.js `treatRawData`, with `model.deserialize`'s
 * JSON.parse): a truthy `_id` makes a document, keyed by String(_id); `$$deleted: true` removes
 * it; a line that does not parse is corrupt; anything else is skipped.
 */
function nedbKeeps(log) {
  const byId = new Map();
  for (const line of log.split("\n")) {
    let doc;
    try { doc = JSON.parse(line); } catch { continue; }
    if (doc === null || typeof doc !== "object") continue;
    if (doc._id) {
      if (doc.$$deleted === true) byId.delete(String(doc._id));
      else byId.set(String(doc._id), doc);
    }
  }
  return byId;
}

test("importPack keeps what NeDB keeps, on generated logs with every kind of line NeDB reads", () => {
  let seed = 7;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = list => list[Math.floor(next() * list.length)];
  const ids = ['"a"', '"b"', '"5"', "5", "5.0", "true", '""', "0", "null", "false", '"aaaaaaaaaaaaaaa1"'];
  let n = 0;
  const line = () => {
    const name = `"L${n++}${pick(["", "\\ud83d", " \\udc00x", "\\ud83d\\ude00"])}"`;
    const pages = pick(["[]", "[]", "{}", '"text"', "null"]);
    const extra = pick(["", ',"n":1e400', ',"$$indexCreated":{"fieldName":"x"}', ',"m":-1e-400']);
    return pick([
      () => `{"_id":${pick(ids)},"name":${name},"pages":${pages}${extra}}`,
      () => `{"$$deleted":true,"_id":${pick(ids)}}`,
      () => '{"$$indexCreated":{"fieldName":"name"}}',
      () => `{"_id":${pick(ids)},"name":${name}`,
      () => "null",
      () => "[1]"
    ])();
  };
  for (let round = 0; round < 200; round++) {
    const log = Array.from({ length: 1 + Math.floor(next() * 12) }, line).join("\n");
    const want = [...nedbKeeps(log).values()].map(d => String(d.name).toWellFormed()).sort();
    const { documents, report } = importer.importPack(log, { format: "nedb", force: true });
    assert.deepEqual(documents.map(d => d.name).sort(), want, log);
    const sum = report.documents + report.skipped + report.superseded + report.deleted + report.unknownDeletions + report.indexLines + report.bad.length;
    assert.equal(report.lines, sum, log);
  }
});

// Past the stated limits the exports refuse before copying the text into wasm memory (a 50 MB
// page of tags used to trap out of memory), and the module still answers afterwards.
test("texts past the limits are refused saying the limit, and the core still answers", () => {
  assert.throws(() => importer.importPack(" ".repeat(65 * 1024 * 1024)), { message: "the pack is 65.0 MiB; at most 64 MiB is read" });
  assert.throws(() => importer.glossary(" ".repeat(65 * 1024 * 1024)), { message: "the pack is 65.0 MiB; at most 64 MiB is read" });
  assert.throws(() => importer.glossaryTerms("<p>".repeat(200_000), "Big"), { message: 'the page "Big" has 586 KiB of HTML; the glossary reads at most 512 KiB a page' });
  const big = JSON.stringify({ _id: "hhhhhhhhhhhhhhh8", name: "Big", pages: [{ _id: "iiiiiiiiiiiiiii9", name: "P", text: { content: "<a>".repeat(6_000_000) } }] });
  assert.throws(() => importer.importPack(big), /has 17\.2 MiB of text in \/pages\/0\/text\/content; at most 16 MiB is read in one field/);
  assert.deepEqual(importer.glossaryTerms("<p><strong>Dodge</strong>: immune.</p>", "P").map(t => t.key), ["dodge"]);
});
