/**
 * A 10 MB generated NeDB log (many revisions) read in the browser through the worker: the result
 * is checked here; the timings (import time, the longest main-thread gap meanwhile) are written
 * to test-results/pack-import.json for BENCHMARKS.md, never asserted.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
let browser;
before(async () => {
  browser = await openHarness({ as: null, path: "/test/browser/harness.html" });
});
after(async () => {
  await browser?.close();
});

test("a 10 MB log imports in a worker while the page keeps running", async () => {
  const out = await browser.page.evaluate(async () => {
    const { default: readPack } = await import("/module/packs/read-pack.mjs");
    const body = "<p><strong>Term</strong>: a definition with some <em>markup</em>.</p>".repeat(16);
    const lines = [];
    let size = 0;
    for (let rev = 0; size < 10 * 1024 * 1024; rev++) {
      const e = rev % 200;
      const pages = [0, 1, 2, 3, 4].map(p => ({
        _id: `p${String(e).padStart(7, "0")}x${String(p).padStart(7, "0")}`, name: `Page ${p}`, type: "text", sort: p,
        text: { format: 1, content: `${body} rev ${rev}` }
      }));
      const line = JSON.stringify({ _id: `e${String(e).padStart(15, "0")}`, name: `Entry ${e}`, pages, _stats: { modifiedTime: rev } });
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join("\n");
    // measure the main thread: the longest gap between animation frames while the worker works
    let last = performance.now();
    let longest = 0;
    let running = true;
    const tick = now => { longest = Math.max(longest, now - last); last = now; if (running) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const start = performance.now();
    const { documents, report } = await readPack(text);
    const took = performance.now() - start;
    running = false;
    const newest = documents.every(d => d._stats.modifiedTime >= lines.length - 200);
    return { mb: text.length / 1048576, took, longest, documents: documents.length, superseded: report.superseded, lines: report.lines, newest };
  });
  assert.equal(out.documents, 200);
  assert.equal(out.superseded, out.lines - 200);
  assert.ok(out.newest, "every entry is its newest revision");
  await mkdir(results, { recursive: true });
  await writeFile(`${results}pack-import.json`, JSON.stringify(out, null, 2));
  assert.deepEqual(browser.errors, []);
});

// A small log and what the core makes of it, for the failure cases below.
const LOG = '{"_id":"aaaaaaaaaaaaaaa1","name":"A","pages":[]}\n{"_id":"aaaaaaaaaaaaaaa1","name":"A2","pages":[]}';

test("when a worker cannot be made (cross-origin hosting), the read happens on the main thread", async () => {
  const out = await browser.page.evaluate(async log => {
    const Real = globalThis.Worker;
    globalThis.Worker = class { constructor() { throw new DOMException("cross-origin worker script", "SecurityError"); } };
    try {
      const { default: readPack } = await import("/module/packs/read-pack.mjs?case=throws");
      const { documents, report } = await readPack(log);
      return { names: documents.map(d => d.name), superseded: report.superseded };
    } finally {
      globalThis.Worker = Real;
    }
  }, LOG);
  assert.deepEqual(out, { names: ["A2"], superseded: 1 });
});

test("a worker whose script does not load falls back to the main thread instead of hanging", async () => {
  await browser.page.route("**/module/packs/import-worker.mjs*", route => route.fulfill({ status: 404, body: "" }));
  try {
    const out = await browser.page.evaluate(async log => {
      const { default: readPack } = await import("/module/packs/read-pack.mjs?case=404");
      const reads = await Promise.all([readPack(log), readPack(log, { format: "nedb" })]);
      return reads.map(r => r.documents.map(d => d.name));
    }, LOG);
    assert.deepEqual(out, [["A2"], ["A2"]]);
  } finally {
    await browser.page.unroute("**/module/packs/import-worker.mjs*");
  }
});

test("an answer the page cannot read rejects the pending read, and the next read works", async () => {
  const out = await browser.page.evaluate(async log => {
    const Real = globalThis.Worker;
    const made = [];
    globalThis.Worker = class extends Real { constructor(...args) { super(...args); made.push(this); } };
    try {
      const { default: readPack } = await import("/module/packs/read-pack.mjs?case=messageerror");
      // the worker loads and answers once
      await readPack(log);
      const failing = readPack(log);
      made[0].dispatchEvent(new MessageEvent("messageerror"));
      const error = await failing.then(() => "resolved", e => e.message);
      const again = await readPack(log);
      return { error, again: again.documents.map(d => d.name), workers: made.length };
    } finally {
      globalThis.Worker = Real;
    }
  }, LOG);
  assert.deepEqual(out, { error: "the pack import worker's answer could not be read", again: ["A2"], workers: 2 });
});
