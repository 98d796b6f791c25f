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
    const { UNSAFE } = await import("/module/packs/import-plan.mjs");
    const good = { _id: "aaaaaaaaaaaaaaa1", name: "A", pages: [{ _id: "bbbbbbbbbbbbbbb1", name: "P", text: { format: 1, content: "<p onclick=\"x()\">hi</p><script>x()</script><div style='position:fixed'></div>" }, title: { level: 9 } }] };
    const log = [
      '{"$$indexCreated":{"fieldName":"name"}}', JSON.stringify(good), JSON.stringify({ ...good, name: "A v2" }), "not json",
      ...Array(9).fill(JSON.stringify({ _id: "ccccccccccccccc1", name: "C", pages: [] })), '{"$$deleted":true,"_id":"zzzzzzzzzzzzzzz9"}'
    ].join("\n");
    const { documents, report } = api.importPack(log, { format: "nedb" });
    const stripped = report.warnings.filter(w => UNSAFE.includes(w.kind));
    const repaired = report.warnings.filter(w => !UNSAFE.includes(w.kind));
    const context = {
      fileName: "evil.db", error: null, report, pages: documents.reduce((n, d) => n + d.pages.length, 0),
      bad: report.bad, badMore: 0,
      stripped, strippedCount: stripped.length, strippedMore: 0,
      repaired: repaired.slice(0, 1), repairedCount: repaired.length, repairedMore: repaired.length - 1,
      folders: [{ id: "f1", name: "Rules" }], canImport: true
    };
    const html = await foundry.applications.handlebars.renderTemplate("systems/icon-engine/templates/apps/pack-import.hbs", context);
    const host = document.querySelector(".message-content");
    host.innerHTML = html;
    return { text: host.textContent.replace(/\s+/g, " "), disabled: host.querySelector("[data-action=import]").disabled };
  });
  assert.match(out.text, /2 journal entries with 1 pages, from 14 lines/);
  assert.match(out.text, /9 older versions replaced, 0 deleted entries left out/);
  assert.match(out.text, /1 deletions of entries that were not there/);
  assert.match(out.text, /1 index lines/);
  assert.match(out.text, /1 lines could not be read/);
  assert.match(out.text, /3 pieces of script-capable or page-hijacking HTML will be removed/);
  assert.match(out.text, /eventHandler: <p onclick> in the page HTML/);
  assert.match(out.text, /fixedOverlay: position: fixed in <div style> in the page HTML/);
  assert.match(out.text, /titleLevel/);
  assert.equal(out.disabled, false);
  await mkdir(results, { recursive: true });
  await browser.page.screenshot({ path: `${results}pack-import.png` });
  assert.deepEqual(browser.errors, []);
});

test("the import's cleaner removes what cleanHTML keeps but the core reports: fixed overlays, and refresh, base, link and style elements", async () => {
  const out = await browser.page.evaluate(async () => {
    const core = await import("/module/core.mjs");
    const api = await core.loadCore();
    const { cleanImported } = await import("/module/packs/clean-html.mjs");
    const { UNSAFE } = await import("/module/packs/import-plan.mjs");
    const payloads = [
      "<div style=\"position:fixed;inset:0;z-index:9999\">cover</div>",
      "<p style='POSITION: \\66ixed !important; color: red'>x</p>",
      "<span style=\"position: var(--p)\">x</span>",
      "<meta http-equiv=refresh content=\"0;url=https://x\"><base href=//evil/><link rel=stylesheet href=//evil/x.css>",
      "<style>@import 'https://evil/x.css'; .a { position: fixed }</style><p class=a>x</p>",
      "<svg><style>@import url(x.css)</style></svg>"
    ];
    const kinds = html => {
      const entry = { _id: "cleancleanclean1", name: "C", pages: [{ _id: "pagepagepagepag1", name: "P", text: { format: 1, content: html } }] };
      return api.importPack(JSON.stringify(entry)).report.warnings.filter(w => UNSAFE.includes(w.kind)).map(w => w.kind);
    };
    // cleanHTML stands in as "keep everything", so all of it is the import cleaner's work
    return payloads.map(html => {
      const clean = cleanImported(html, h => h);
      return { html, before: kinds(html), after: kinds(clean), clean };
    });
  });
  for (const { html, before, after, clean } of out) {
    assert.ok(before.length > 0, `the core reports ${html}`);
    assert.deepEqual(after, [], `${html} → ${clean}`);
  }
  // what is not unsafe stays
  assert.match(out[1].clean, /color: red/);
  assert.match(out[0].clean, />cover</);
});
