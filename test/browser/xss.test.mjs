/**
 * Imported journal HTML is data from strangers. An XSS corpus goes through the pack importer
 * (`icon-engine import`, whose allowlist sanitiser stands where Foundry's cleanHTML stands in the
 * module), is rendered in headless Chromium, and must run nothing: the test listens for dialogs,
 * console output and page errors. The same corpus unsanitised is the control that proves the
 * listener would notice.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "../support/browser.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = path.join(root, "target", "release", "icon-engine");

const corpus = [
  "<script>alert('script')</script>",
  "<img src=x onerror=\"alert('onerror')\">",
  "<a id=js href=\"javascript:alert('javascript')\">click</a>",
  "<a id=tab href=\"jav&#x09;ascript:alert('tab')\">click</a>",
  "<iframe srcdoc=\"<script>parent.alert('srcdoc')</script>\"></iframe>",
  "<svg><image href=x onerror=\"alert('svg')\"></image></svg>",
  "<svg onload=\"alert('svg onload')\"></svg>",
  "<body onload=\"alert('body')\">",
  "<object data=\"javascript:alert('object')\"></object>",
  "<details open ontoggle=\"alert('toggle')\"></details>"
];

/** Renders `html` as a page body and reports every dialog, console message and page error. */
async function render(page, html) {
  const seen = [];
  const onDialog = dialog => { seen.push(`dialog: ${dialog.message()}`); dialog.dismiss().catch(() => {}); };
  const onConsole = message => seen.push(`console: ${message.text()}`);
  const onError = error => seen.push(`pageerror: ${error.message}`);
  page.on("dialog", onDialog);
  page.on("console", onConsole);
  page.on("pageerror", onError);
  await page.setContent(`<!doctype html><html><body>${html}</body></html>`);
  // links only run when followed
  for (const link of await page.$$("a")) await link.click({ timeout: 1000 }).catch(() => {});
  await page.waitForTimeout(300);
  page.off("dialog", onDialog);
  page.off("console", onConsole);
  page.off("pageerror", onError);
  return seen;
}

let browser;
before(async () => { browser = await openPage(); });
after(async () => { await browser?.close(); });

test("the XSS corpus runs nothing after import, and its control does", async () => {
  assert.ok(existsSync(cli), "target/release/icon-engine is built by scripts/build.sh");
  const dir = mkdtempSync(path.join(tmpdir(), "icon-xss-"));
  const entry = {
    _id: "xssxssxssxssxss1",
    name: "XSS",
    pages: corpus.map((html, i) => ({ _id: `page${String(i).padStart(12, "0")}`, name: `P${i}`, sort: i, text: { format: 1, content: html } }))
  };
  writeFileSync(path.join(dir, "xss.json"), JSON.stringify(entry));
  const report = execFileSync(cli, ["import", path.join(dir, "xss.json"), "--out", path.join(dir, "out")], { encoding: "utf8" });
  for (const kind of ["script", "eventHandler", "javascriptUrl", "srcdoc", "object"]) {
    assert.match(report, new RegExp(`\\b${kind}\\b`), `the importer reports ${kind}`);
  }
  const [file] = readdirSync(path.join(dir, "out"));
  const imported = JSON.parse(readFileSync(path.join(dir, "out", file), "utf8"));
  assert.equal(imported.pages.length, corpus.length);

  // the control: unsanitised, the corpus does run (so the listeners work)
  const control = await render(browser.page, corpus.join("\n"));
  assert.ok(control.some(s => s.startsWith("dialog:")), `the control ran nothing: ${control}`);

  for (const page of imported.pages) {
    const seen = await render(browser.page, page.text.content);
    assert.deepEqual(seen, [], `${page.name}: ${page.text.content}`);
  }
});
