/**
 * Issue 41's papercuts of the action roll dialog, in a shim world booted as Foundry boots it, the
 * dialog opened by its own class (ActionRollDialog.open, as the sheet's action names open it):
 *   - a re-render (the GM's risk changing redraws every open dialog whole) keeps what the user
 *     chose, a number typed but not yet committed included; opening it again brings it forward;
 *   - a roll the effort cannot pay says so in the dialog, its Roll button disabled, and stays open
 *     (it used to close on the core's raw error);
 *   - the fortune roll's odds read 0.00% for an outcome that cannot happen (not −0.00%) and are
 *     drawn as bars, each a labelled meter of its chance;
 *   - the allies who aid are named, and their effort, not the roller's, pays for it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("issue 41: the action roll dialog", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {import("playwright-core").Page} */
  let page;

  before(async () => {
    await mkdir(results, { recursive: true });
    browser = await openHarness({ as: "gm", viewport: { width: 900, height: 900 }, scripts: [UNTIL] });
    page = browser.page;
    await page.evaluate(async () => {
      const { default: ActionRollDialog } = await import("../../module/applications/narrative/action-roll-dialog.mjs");
      // Ysolde: Smash 3 with one burden ticking it (2 dice), no effort; Brann has 2 to aid with, Mira none.
      const ysolde = await Actor.implementation.create({ name: "Ysolde", type: "character", system: { effort: 0,
        actions: { smash: 3 }, burdens: [{ name: "Haunted", actions: { first: "smash", second: "charm" }, clock: 6, filled: 6 }] } });
      const brann = await Actor.implementation.create({ name: "Brann", type: "character", system: { effort: 2 } });
      const mira = await Actor.implementation.create({ name: "Mira", type: "character", system: { effort: 0 } });
      // The open action roll dialog (the newest, should there be more than one).
      const dialog = () => [...foundry.applications.instances.values()].filter(app => app.options.classes.includes("action-roll") && app.rendered).at(-1);
      globalThis.t = { ActionRollDialog, ysolde, brann, mira, dialog, until,
        open: async () => (await ActionRollDialog.open(ysolde, "smash")).id,
        /** Set a field as a user does: its value, then (unless `commit` is false) its change event. */
        set: (name, value, commit = true) => {
          const field = dialog().element.querySelector(`[name="${name}"]`);
          if (field.type === "checkbox") field.checked = value;
          else field.value = String(value);
          if (commit) field.dispatchEvent(new Event("change", { bubbles: true }));
        },
        idle: () => new Promise(resolve => setTimeout(resolve, 50))
      };
    });
  });

  after(async () => {
    await browser?.close();
  });

  const selector = () => page.evaluate(() => `#${CSS.escape(globalThis.t.dialog().id)}`);

  test("a re-render keeps what the user chose; opening it again brings the same dialog forward", async () => {
    const shown = await page.evaluate(async () => {
      const { open, set, idle, dialog } = globalThis.t;
      await open();
      set("curses", 1);
      await idle();
      // Typed, not yet committed (no change event): the GM changes the risk meanwhile.
      set("boons", 2, false);
      await game.settings.set("icon-engine", "position", { risk: "desperate", effect: "powerful" });
      await idle();
      const form = dialog().element;
      const before = { boons: form.querySelector('[name="boons"]').value, curses: form.querySelector('[name="curses"]').value,
        risk: form.querySelector('[name="risk"]').value };
      const again = await open();
      return { before, same: again === dialog().id, open: [...foundry.applications.instances.values()].filter(a => a.options.classes.includes("action-roll")).length,
        boons: dialog().element.querySelector('[name="boons"]').value };
    });
    assert.deepEqual(shown, { before: { boons: "2", curses: "1", risk: "desperate" }, same: true, open: 1, boons: "2" });
    assert.deepEqual(browser.errors, []);
  });

  test("a push the character cannot pay: said in the dialog, Roll disabled; the dialog stays open, nothing rolled", async () => {
    await page.evaluate(async () => {
      const { set, idle } = globalThis.t;
      set("boons", 0);
      set("curses", 0);
      set("push", true);
      await idle();
    });
    const dialog = await selector();
    assert.equal((await page.locator(`${dialog} .action-short`).textContent()).trim(), "Not enough effort: this roll costs you 1 and you have 0.");
    assert.equal(await page.locator(`${dialog} button[type=submit]`).isDisabled(), true);
    const after = await page.evaluate(async () => {
      const { dialog, idle } = globalThis.t;
      const messages = game.messages.size;
      ui.notifications.queue.length = 0;
      dialog().element.requestSubmit();
      await idle();
      return { open: !!dialog()?.rendered, posted: game.messages.size - messages, notices: ui.notifications.queue.map(n => n.message) };
    });
    assert.deepEqual(after, { open: true, posted: 0, notices: [] });
    await page.locator(dialog).screenshot({ path: `${results}narrative-dialog-effort.png` });
    assert.deepEqual(browser.errors, []);
  });

  test("a fortune roll's odds: 0.00% where the core's float is −2.8e-17, and a bar per outcome", async () => {
    await page.evaluate(async () => {
      const { set, idle } = globalThis.t;
      set("push", false);
      set("curses", 1);
      set("fortune", true);
      await idle();
    });
    const dialog = await selector();
    const rows = await page.locator(`${dialog} .odds-row`).evaluateAll(rows => rows.map(row => {
      const fill = row.querySelector(".action-odds-fill");
      const track = row.querySelector(".action-odds-bar");
      return { result: row.dataset.result, percent: row.querySelector(".odds-percent").textContent, exact: row.querySelector(".odds-exact").textContent,
        share: fill.getBoundingClientRect().width / track.getBoundingClientRect().width, colour: getComputedStyle(fill).backgroundColor,
        meter: [fill.getAttribute("role"), fill.getAttribute("aria-label"), fill.getAttribute("aria-valuetext")] };
    }));
    // 3 dots − 1 burden tick − 1 curse = 1 die: poor 1/2, average 1/3, good 1/6, excellent impossible
    assert.deepEqual(rows.map(r => [r.result, r.percent, r.exact]),
      [["poor", "50.00%", "1/2"], ["average", "33.33%", "1/3"], ["good", "16.67%", "1/6"], ["excellent", "0.00%", "0"]]);
    for (const [row, p] of rows.map((r, i) => [r, [1 / 2, 1 / 3, 1 / 6, 0][i]])) {
      assert.ok(Math.abs(row.share - p) < 0.01, `${row.result}: bar ${row.share} of the track, chance ${p}`);
      if (p) assert.notEqual(row.colour, "rgba(0, 0, 0, 0)", `${row.result}: the bar is drawn`);
      assert.deepEqual(row.meter, ["meter", { poor: "Poor", average: "Average", good: "Good", excellent: "Excellent" }[row.result], row.percent]);
    }
    await page.locator(dialog).screenshot({ path: `${results}narrative-dialog-fortune.png` });
    assert.deepEqual(browser.errors, []);
  });

  test("aid: the allies with effort are offered; the roll takes 1 from each one ticked, not from the roller", async () => {
    const dialog = await selector();
    await page.evaluate(async () => {
      const { set, idle } = globalThis.t;
      set("fortune", false);
      set("curses", 0);
      await idle();
    });
    const offered = await page.locator(`${dialog} .action-aid label.checkbox`).evaluateAll(labels => labels.map(l =>
      [l.textContent.trim(), !l.querySelector("input").disabled]));
    assert.deepEqual(offered, [["Brann (2 effort)", true], ["Mira (0 effort)", false]]);
    const rolled = await page.evaluate(async () => {
      const { set, idle, dialog, brann, ysolde, until } = globalThis.t;
      set(`aidBy.${brann.id}`, true);
      await idle();
      const pool = dialog().element.querySelector(".action-pool").textContent;
      const messages = game.messages.size;
      dialog().element.querySelector("button[type=submit]").click();
      await until(() => game.messages.size > messages && brann.system.effort === 1, "the roll and Brann's effort");
      const message = game.messages.contents.at(-1);
      const roll = message.rolls[0];
      // the card names the helpers as their documents say now, whatever the message stores
      const note = async () => [...(await message.renderHTML()).querySelectorAll(".narrative-note")].map(p => p.textContent.trim());
      const named = await note();
      await brann.update({ name: "Brann the Bold" });
      const renamed = await note();
      await brann.update({ name: "Brann" });
      return { pool, closed: !dialog(), brann: brann.system.effort, ysolde: ysolde.system.effort, aid: roll.options.request.aid,
        aidBy: roll.options.aidBy, effortHelpers: roll.outcome.effortHelpers, paid: brann.getFlag("icon-engine", "aidPaid")?.length, named, renamed };
    });
    assert.deepEqual(rolled, { pool: "3d6, the highest counts", closed: true, brann: 1, ysolde: 0, aid: 1,
      aidBy: [await page.evaluate(() => globalThis.t.brann.uuid)], effortHelpers: 1, paid: 1,
      named: ["Effort spent: 1 (1 by helpers)", "Aided by Brann."], renamed: ["Effort spent: 1 (1 by helpers)", "Aided by Brann the Bold."] });
    assert.deepEqual(browser.errors, []);
  });
});
