/**
 * The import dialog's report, rendered from the real template with what the core reports for a
 * pack holding unsafe HTML, corrupt lines and repairs (screenshot: test-results/pack-import.png).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
let browser;
before(async () => {
  browser = await openHarness({ as: null, path: "/test/browser/harness.html" });
});
after(async () => {
  await browser?.close();
});

test("the report shows counts, unreadable lines, what will be stripped and what was repaired", async () => {
  const out = await browser.page.evaluate(async () => {
    const { loadImporter } = await import("/module/packs/importer.mjs");
    const api = await loadImporter();
    const { UNSAFE } = await import("/module/packs/import-plan.mjs");
    const { packReportLines } = await import("/module/applications/import-reports.mjs");
    const good = { _id: "aaaaaaaaaaaaaaa1", name: "A", pages: [{ _id: "bbbbbbbbbbbbbbb1", name: "P", text: { format: 1, content: "<p onclick=\"x()\">hi</p><script>x()</script><div style='position:fixed'></div>" }, title: { level: 9 } }] };
    const log = [
      '{"$$indexCreated":{"fieldName":"name"}}', JSON.stringify(good), JSON.stringify({ ...good, name: "A v2" }), "not json",
      ...Array(9).fill(JSON.stringify({ _id: "ccccccccccccccc1", name: "C", pages: [] })), '{"$$deleted":true,"_id":"zzzzzzzzzzzzzzz9"}'
    ].join("\n");
    const { documents, report } = api.importPack(log, { format: "nedb" });
    const stripped = report.warnings.filter(w => UNSAFE.includes(w.kind));
    const repaired = report.warnings.filter(w => !UNSAFE.includes(w.kind));
    const pages = documents.reduce((n, d) => n + d.pages.length, 0);
    const context = {
      fileName: "evil.db", error: null, report, pages,
      counts: packReportLines(report, { pages, stripped: stripped.length, repaired: repaired.length }),
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
  // Each count in its plural form (issue 41: "1 pages", "1 index lines" no more).
  assert.match(out.text, /2 journal entries with 1 page, from 14 lines/);
  assert.match(out.text, /9 older versions replaced, 0 deleted entries left out/);
  assert.match(out.text, /1 deletion of an entry that was not there/);
  assert.match(out.text, /1 index line /);
  assert.match(out.text, /1 line could not be read/);
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
    const { loadImporter } = await import("/module/packs/importer.mjs");
    const api = await loadImporter();
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

/**
 * Issue 25, point 6: the dialog's import is all or nothing to the user. The real dialog, in the shim
 * world booted as the GM, reads a JSON export of 25 entries; the server refuses the second batch
 * of 20. What the first batch created is deleted again, and the progress notice ends with the
 * outcome, which names the failure.
 */
describe("the import dialog, when a write fails half-way", () => {
  const world = shimWorldPage({ as: "gm" });

  test("undoes what it wrote, and its progress notice ends with the outcome", async () => {
    const out = await world.browser.page.evaluate(async () => {
      const { default: PackImportDialog } = await import("../../module/applications/pack-import-dialog.mjs");
      const entries = Array.from({ length: 25 }, (_, i) => ({ _id: `entry${String(i).padStart(11, "0")}`, name: `Entry ${i}`, pages: [] }));
      const dialog = new PackImportDialog();
      await dialog.render({ force: true });
      const input = dialog.element.querySelector("input[name=file]");
      const files = new DataTransfer();
      files.items.add(new File([JSON.stringify(entries)], "rules.json", { type: "application/json" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change"));
      for (let i = 0; i < 200 && !dialog.element.querySelector(".icon-import-report"); i++) await new Promise(resolve => setTimeout(resolve, 25));
      // the server takes the first batch and refuses the second
      const cls = CONFIG.JournalEntry.documentClass;
      const create = cls.createDocuments;
      let calls = 0;
      cls.createDocuments = async function (...args) {
        if (++calls === 2) throw new Error("the server refused the batch");
        return create.apply(this, args);
      };
      ui.notifications.queue.length = 0;
      const shown = [];
      const info = ui.notifications.info.bind(ui.notifications);
      ui.notifications.info = (message, options) => {
        const notice = info(message, options);
        shown.push(notice);
        return notice;
      };
      let thrown = null;
      try {
        await PackImportDialog.DEFAULT_OPTIONS.actions.import.call(dialog);
      } catch (error) {
        thrown = error.message;
      }
      const progress = shown.find(n => n.progress);
      return { calls, thrown, journal: game.journal.size, progress: progress && { pct: progress.pct, message: progress.message },
        notices: ui.notifications.queue.map(n => `${n.type}: ${n.message}`) };
    });
    assert.equal(out.thrown, null, "the failure is reported, not thrown");
    assert.equal(out.calls, 2);
    assert.equal(out.journal, 0, "the 20 entries of the first batch were deleted again");
    assert.equal(out.progress?.pct, 1, "the progress notice ends");
    assert.match(out.progress?.message ?? "", /Import failed and was undone, nothing is left written: .*Entry 20 \(entry00000000020\).*the server refused the batch/);
    assert.ok(out.notices.some(n => /^error: Import failed and was undone/.test(n)), out.notices.join("\n"));
    assert.deepEqual(world.browser.errors, []);
  });
});

/**
 * The GM's import buttons in the sidebar directories' headers (v13 passes `render<Name>Directory`
 * the directory's HTMLElement): the journal importer in the Journal and Compendium directories,
 * the content-pack importer in the Item, Actor and Compendium directories, the paste dialog in the
 * Item and Actor directories (issue 37); once per render, and a
 * click opens the dialog. A player's directories get none.
 */
for (const as of ["gm", "player"]) {
  describe(`the import buttons in the sidebar, as the ${as === "gm" ? "GM" : "player"}`, () => {
    const world = shimWorldPage({ as });

    test(as === "gm" ? "each directory gets its buttons once, and they open the dialogs" : "no directory gets a button", async () => {
      const out = await world.browser.page.evaluate(async () => {
        const directories = ["JournalDirectory", "CompendiumDirectory", "ItemDirectory", "ActorDirectory"];
        const buttons = {};
        const opened = {};
        for (const name of directories) {
          const element = document.createElement("section");
          element.innerHTML = `<header class="directory-header"><div class="header-actions action-buttons"></div></header>`;
          Hooks.callAll(`render${name}`, {}, element, {}, {});
          Hooks.callAll(`render${name}`, {}, element, {}, {});
          const found = [...element.querySelectorAll(".header-actions button")];
          buttons[name] = found.map(b => b.className);
          for (const button of found) {
            button.click();
            await new Promise(resolve => setTimeout(resolve, 200));
            opened[button.className] = [...foundry.applications.instances.values()].map(a => a.constructor.name)
              .filter(n => /PackImportDialog|ContentPackDialog|PasteDialog/.test(n));
          }
        }
        for (const app of [...foundry.applications.instances.values()]) if (/PackImportDialog|ContentPackDialog|PasteDialog/.test(app.constructor.name)) await app.close();
        return { buttons, opened };
      });
      if (as === "gm") {
        assert.deepEqual(out.buttons, {
          JournalDirectory: ["icon-pack-import"], CompendiumDirectory: ["icon-pack-import", "icon-content-pack"],
          ItemDirectory: ["icon-content-pack", "icon-paste-items"], ActorDirectory: ["icon-content-pack", "icon-paste-foe"]
        });
        assert.ok(out.opened["icon-pack-import"].includes("PackImportDialog"));
        assert.ok(out.opened["icon-content-pack"].includes("ContentPackDialog"));
        // issue 37: "Paste abilities" in the Items directory, "Paste a foe" in the Actors directory
        assert.ok(out.opened["icon-paste-items"].includes("PasteDialog"));
        assert.ok(out.opened["icon-paste-foe"].includes("PasteDialog"));
      } else {
        assert.deepEqual(out.buttons, { JournalDirectory: [], CompendiumDirectory: [], ItemDirectory: [], ActorDirectory: [] });
      }
      assert.deepEqual(world.browser.errors, []);
    });
  });
}
