/**
 * The import dialog's report, rendered from the real template with what the core reports for a
 * pack holding unsafe HTML, corrupt lines and repairs (screenshot: test-results/pack-import.png).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openPage } from "../support/browser.mjs";
import { startServer } from "../support/static-server.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await openPage();
  await browser.page.goto(`${server.url}/test/browser/harness.html`);
  await browser.page.waitForFunction(() => globalThis.shimReady === true);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("the report shows counts, unreadable lines, what will be stripped and what was repaired", async () => {
  const out = await browser.page.evaluate(async () => {
    const core = await import("/module/core.mjs");
    const api = await core.loadCore();
    const good = { _id: "aaaaaaaaaaaaaaa1", name: "A", pages: [{ _id: "bbbbbbbbbbbbbbb1", name: "P", text: { format: 1, content: "<p onclick=\"x()\">hi</p><script>x()</script>" }, title: { level: 9 } }] };
    const log = [JSON.stringify(good), JSON.stringify({ ...good, name: "A v2" }), "not json", ...Array(9).fill(JSON.stringify({ _id: "ccccccccccccccc1", name: "C", pages: [] }))].join("\n");
    const { documents, report } = api.importPack(log, { format: "nedb" });
    const unsafe = ["script", "eventHandler", "javascriptUrl", "iframe", "srcdoc", "object", "embed"];
    const context = {
      fileName: "evil.db", error: null, report, pages: documents.reduce((n, d) => n + d.pages.length, 0),
      stripped: report.warnings.filter(w => unsafe.includes(w.kind)),
      repaired: report.warnings.filter(w => !unsafe.includes(w.kind)),
      folders: [{ id: "f1", name: "Rules" }], canImport: true
    };
    const html = await foundry.applications.handlebars.renderTemplate("systems/icon-engine/templates/apps/pack-import.hbs", context);
    const host = document.querySelector(".message-content");
    host.innerHTML = html;
    return { text: host.textContent.replace(/\s+/g, " "), disabled: host.querySelector("[data-action=import]").disabled };
  });
  assert.match(out.text, /2 journal entries with 1 pages, from 12 lines/);
  assert.match(out.text, /9 older versions replaced, 0 deleted entries left out/);
  assert.match(out.text, /1 lines could not be read/);
  assert.match(out.text, /2 pieces of script-capable HTML will be removed/);
  assert.match(out.text, /eventHandler: <p onclick>/);
  assert.match(out.text, /titleLevel/);
  assert.equal(out.disabled, false);
  await mkdir(results, { recursive: true });
  await browser.page.screenshot({ path: `${results}pack-import.png` });
  assert.deepEqual(browser.errors, []);
});
