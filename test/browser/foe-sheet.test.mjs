/**
 * Issue 41: the foe sheet is a stat block. In a shim world booted as Foundry boots it, the foe
 * sheet drawn by its own class (FoeSheet) from a foe's documents: its class and template under its
 * name, each action with its cost, reach, tags, text, trigger, attack and effects and a Use button
 * (which uses the item, as the character sheet's does), its traits with their text, and no
 * character-only control (Vigilance charges, Blessing tokens, the Combo token, Power dice, rescue)
 * unless the foe has them.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("issue 41: the foe sheet as a stat block", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {import("playwright-core").Page} */
  let page;
  let sheet = "";

  before(async () => {
    await mkdir(results, { recursive: true });
    browser = await openHarness({ as: "gm", viewport: { width: 900, height: 1400 }, scripts: [UNTIL] });
    page = browser.page;
    sheet = await page.evaluate(async () => {
      const art = name => `systems/icon-engine/assets/icons/statuses/${name}.svg`;
      const foe = await Actor.implementation.create({ name: "Cinder Witch", type: "foe", system: { foeClass: "artillery", template: "elite", chapter: 2 },
        items: [
          { name: "Ember Hex", type: "ability", img: art("hatred"), system: { actions: "1", tags: ["attack"], range: { kind: "range", value: 5 },
            roll: { hitDice: 1, curses: 1, frayOnMiss: false }, effects: [{ trigger: "hit", status: "weakened", duration: "save" }],
            description: "<p>A hex of <strong>smouldering</strong> ash.</p>" } },
          { name: "Smoke Screen", type: "ability", img: art("stealth"), system: { actions: "interrupt", interrupt: 2, trigger: "A foe ends its turn next to her",
            area: { shape: "burst", size: 1 }, save: { enabled: true }, effects: [{ trigger: "failedSave", status: "blind", duration: "turn" }],
            description: "<p>Thick smoke pours from her robes.</p>" } },
          { name: "Ash Skin", type: "trait", img: art("sturdy"), system: { description: "<p>Immune to burning.</p>" } }
        ] });
      const app = foe.sheet;
      await app.render({ force: true });
      globalThis.t = { foe, app, until };
      return `#${CSS.escape(app.id)}`;
    });
  });

  after(async () => {
    await browser?.close();
  });

  test("its class and template under its name; its traits, then each action with its cost, reach, tags, text, trigger, attack and effects", async () => {
    assert.equal((await page.locator(`${sheet} .foe-kind strong`).textContent()).trim(), "Artillery Elite");
    assert.equal((await page.locator(`${sheet} .foe-kind .turns`).textContent()).trim(), "2 turns a round");
    const entries = await page.locator(`${sheet} .foe-entry`).evaluateAll(entries => entries.map(e => ({
      list: e.closest("[data-item-list]").dataset.itemList,
      name: e.querySelector(".item-name").textContent.trim(),
      chips: [...e.querySelectorAll(".ability-chips li")].map(li => li.textContent.trim()),
      tags: [...e.querySelectorAll(".ability-card-tags li")].map(li => li.textContent.trim()),
      trigger: e.querySelector(".foe-trigger")?.textContent.trim() ?? null,
      text: e.querySelector(".foe-text")?.innerHTML.trim() ?? null,
      attack: e.querySelector(".foe-attack")?.textContent.replace(/\s+/g, " ").trim() ?? null,
      save: e.querySelector(".foe-save")?.textContent.trim() ?? null,
      effects: [...e.querySelectorAll(".foe-effects li")].map(li => li.textContent.replace(/\s+/g, " ").trim()),
      use: e.querySelector("button.use-item")?.getAttribute("aria-label") ?? null
    })));
    assert.deepEqual(entries, [
      { list: "trait", name: "Ash Skin", chips: [], tags: [], trigger: null, text: "<p>Immune to burning.</p>", attack: null, save: null, effects: [],
        use: "Use Ash Skin" },
      { list: "ability", name: "Ember Hex", chips: ["1 action", "Range 5"], tags: ["Attack"], trigger: null, text: "<p>A hex of <strong>smouldering</strong> ash.</p>",
        attack: "Attack (1 curse): 1[D] + fray on a hit", save: null, effects: ["On a hit: Weakened (save ends)"], use: "Use Ember Hex" },
      { list: "ability", name: "Smoke Screen", chips: ["Interrupt 2", "Burst 1"], tags: [], trigger: "Trigger: A foe ends its turn next to her",
        text: "<p>Thick smoke pours from her robes.</p>", attack: null, save: "Its targets save (10+).",
        effects: ["On a failed save: Blind until the end of its next turn"], use: "Use Smoke Screen" }
    ]);
    await page.locator(sheet).screenshot({ path: `${results}foe-sheet-statblock.png` });
    assert.deepEqual(browser.errors, []);
  });

  test("an action's Use button uses it (as the character sheet's does): its card is posted", async () => {
    const posted = await page.evaluate(async () => {
      const { app, until } = globalThis.t;
      const before = game.messages.size;
      [...app.element.querySelectorAll(".foe-entry")].find(e => e.querySelector(".item-name").textContent.trim() === "Smoke Screen")
        .querySelector("button.use-item").click();
      await until(() => game.messages.size > before, "the card");
      return game.messages.contents.at(-1).getFlag("icon-engine", "card")?.name;
    });
    assert.equal(posted, "Smoke Screen");
    assert.deepEqual(browser.errors, []);
  });

  test("no character-only control unless the foe has it: Vigilance, Blessings, Combo, Power dice, rescue", async () => {
    const controls = () => page.evaluate(selector => {
      const root = document.querySelector(selector);
      return {
        vigilance: !!root.querySelector('input[name="system.vigilance"]'),
        blessings: !!root.querySelector('input[name="system.blessings"]'),
        combo: !!root.querySelector('input[name="system.combo"]'),
        powerDice: !!root.querySelector(".add-power-die"),
        healing: [...root.querySelectorAll('[data-action="heal"]')].map(b => b.dataset.healing ?? "choice"),
        attacks: [...root.querySelectorAll(".icon-tactical-actions .ability-attack")].length
      };
    }, sheet);
    assert.deepEqual(await controls(), { vigilance: false, blessings: false, combo: false, powerDice: false, healing: ["cure", "regeneration"], attacks: 0 });
    await page.evaluate(async () => {
      const { foe, app } = globalThis.t;
      await foe.update({ "system.vigilance": 2, "system.blessings": 1 });
      await app.render();
    });
    const held = await controls();
    assert.deepEqual([held.vigilance, held.blessings, held.combo, held.powerDice], [true, true, false, false], "what it holds is shown");
    assert.deepEqual(browser.errors, []);
  });
});
