/**
 * Two wasm modules at the table, in the shim's world with the compiled rules reference installed
 * as Foundry installs a system's packs: a player's client loads the client core
 * (wasm/icon_engine_bg.wasm) and never the pack importer (wasm/icon_importer*), and still shows
 * the rules reference's glossary tooltips (packs/glossary.json, which the build's importer wrote
 * from that pack: the same terms the importer finds in its pages now). A GM's import loads the
 * importer, in the import worker.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import importer from "../support/load-importer.mjs";
import { UNTIL, openHarness } from "../support/browser.mjs";

const root = new URL("../../", import.meta.url);

/** The rules reference as compiled: system.json's entry for it and its entries, read back. */
async function rulesReference() {
  const manifest = JSON.parse(await readFile(new URL("system.json", root), "utf8"));
  const declared = manifest.packs.find(p => p.name === "rules-reference");
  const out = await mkdtemp(path.join(tmpdir(), "icon-rules-"));
  await extractPack(fileURLToPath(new URL(declared.path, root)), out);
  const sources = await Promise.all((await readdir(out)).filter(f => f.endsWith(".json"))
    .map(async f => JSON.parse(await readFile(path.join(out, f), "utf8"))));
  await rm(out, { recursive: true, force: true });
  return { declared, sources };
}

describe("a player's client", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {string[]} */
  const requested = [];
  /** @type {Awaited<ReturnType<typeof rulesReference>>} */
  let pack;

  before(async () => {
    pack = await rulesReference();
    browser = await openHarness({ as: "player", onPage: page => page.on("request", request => requested.push(new URL(request.url()).pathname)),
      beforeInit: (shim, { declared, sources }) => shim.installPack(declared, sources), arg: pack });
  });
  after(async () => {
    await browser?.close();
  });

  test("loads the client core and not the importer", async () => {
    // a roll and its odds: the core at work
    const total = await browser.page.evaluate(async () => {
      const { getCore } = await import("../../module/core.mjs");
      return getCore().roll({ kind: "icon.attack", boons: 1, defense: 10 }, 3).total;
    });
    assert.ok(Number.isInteger(total));
    assert.ok(requested.some(p => p.endsWith("/wasm/icon_engine_bg.wasm")), "the client core was fetched");
    assert.deepEqual(requested.filter(p => /icon_importer|importer\.mjs|import-worker/.test(p)), [], "nothing of the importer");
  });

  test("shows the rules reference's glossary, the terms the importer finds in its pages", async () => {
    // Foundry's order: entries by id, each entry's pages as stored
    const expected = [...pack.sources].sort((a, b) => (a._id < b._id ? -1 : 1))
      .flatMap(entry => entry.pages).filter(page => page.type === "text")
      .flatMap(page => importer.glossaryTerms(page.text.content ?? "", page.name));
    const shipped = JSON.parse(await readFile(new URL("packs/glossary.json", root), "utf8"));
    assert.deepEqual(shipped, expected);
    const dazed = expected.findLast(t => t.key === "dazed");
    assert.ok(dazed, "the rules reference defines Dazed");
    const term = await browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      return until(async () => {
        const html = await foundry.applications.ux.TextEditor.implementation.enrichHTML("<p>The goblin is dazed.</p>");
        const host = document.createElement("div");
        host.innerHTML = html;
        const found = host.querySelector(".icon-term");
        return found && { text: found.textContent, tooltip: found.dataset.tooltip ?? found.getAttribute("data-tooltip-text") ?? found.innerHTML };
      }, "the glossary");
    }, UNTIL);
    assert.equal(term.text, "dazed");
    assert.ok(term.tooltip.includes(dazed.definition.split("\n")[0].slice(0, 40)), JSON.stringify(term));
    assert.deepEqual(requested.filter(p => /icon_importer/.test(p)), []);
    assert.deepEqual(browser.errors, []);
  });
});

describe("a GM's import", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {string[]} */
  const requested = [];

  before(async () => {
    browser = await openHarness({ as: null, path: "/test/browser/harness.html", onPage: page => page.on("request", request => requested.push(new URL(request.url()).pathname)) });
  });
  after(async () => {
    await browser?.close();
  });

  test("loads the importer in the import worker, only when a pack is read", async () => {
    const before = requested.filter(p => /icon_importer/.test(p)).length;
    const names = await browser.page.evaluate(async () => {
      const { default: readPack } = await import("/module/packs/read-pack.mjs");
      const { documents } = await readPack('{"_id":"aaaaaaaaaaaaaaa1","name":"A","pages":[]}');
      return documents.map(d => d.name);
    });
    assert.deepEqual(names, ["A"]);
    assert.equal(before, 0, "not before the read");
    assert.ok(requested.some(p => p.endsWith("/wasm/icon_importer_bg.wasm")), "the importer was fetched for the read");
    assert.deepEqual(browser.errors, []);
  });
});
