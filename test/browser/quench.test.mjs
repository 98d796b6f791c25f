/**
 * The in-Foundry test batch (module/testing/quench-batches.mjs), run here against the shim: the
 * system's real entry point boots in the page (init, i18nInit, setup, ready, as Foundry calls
 * them), loads the batch because a "quench" module is active, registers it at `quenchReady`, and
 * test/support/quench-runner.mjs runs it with mocha's and chai's semantics. A test the batch skips
 * here (it needs a compendium) is reported as skipped, with the reason.
 * Also: what the system configures at init against v13's CONFIG (statuses, sheets, token bars).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

/** Why the batch skips a test in the harness. */
const SKIPPED_HERE = {
  "rules and journal content › opens the rules reference and shows its glossary terms": "needs the compiled compendium pack"
};

describe("the Quench batch against the shim", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {{batch: string, title: string, state: string, error?: string}[]} */
  let outcomes = [];
  /** What init left in CONFIG. */
  let configured;

  before(async () => {
    // Served as Foundry serves it (openHarness's default), so every relative path the module and templates use resolves.
    browser = await openHarness({ as: "gm", modules: ["quench"], viewport: { width: 900, height: 900 } });
    configured = await browser.page.evaluate(async () => {
      return {
        blind: CONFIG.specialStatusEffects.BLIND,
        defeated: CONFIG.specialStatusEffects.DEFEATED,
        descriptions: CONFIG.statusEffects.map(s => s.description),
        sheets: Object.fromEntries(["character", "foe", "hero"].map(type =>
          [type, new Actor({ name: "x", type }).sheet?.constructor.name ?? null])),
        rolls: CONFIG.Dice.rolls.map(r => r.name)
      };
    });
  });

  after(async () => {
    await browser?.close();
  });

  test("init configures v13's CONFIG: ICON statuses with text, core BLIND unmapped, sheets, IconRoll", () => {
    assert.equal(configured.blind, null, "ICON's Blind is not core's BLIND");
    assert.equal(configured.defeated, "defeated");
    assert.equal(configured.descriptions.length, 26);
    assert.ok(configured.descriptions.every(d => !d.startsWith("ICONENGINE.")), "descriptions localized at i18nInit");
    assert.deepEqual(configured.sheets, { character: "CharacterSheet", foe: "FoeSheet", hero: "HeroSheet" });
    assert.deepEqual(configured.rolls, ["Roll", "IconRoll"]);
  });

  test("the system registers its batch at quenchReady, only because Quench is active", async () => {
    const registered = await browser.page.evaluate(async () => {
      const batches = [];
      Hooks.callAll("quenchReady", { registerBatch: (key, fn, options) => batches.push({ key, fn, options }) });
      const deadline = Date.now() + 5000;
      while (!batches.length && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 10));
      globalThis.quenchBatches = batches;
      return batches.map(b => ({ key: b.key, options: b.options }));
    });
    assert.deepEqual(registered, [{ key: "icon-engine.world", options: { displayName: "ICON Engine: a live world", preSelected: true } }]);
    outcomes = await browser.page.evaluate(async () => {
      const { runBatches } = await import("/test/support/quench-runner.mjs");
      return runBatches(globalThis.quenchBatches);
    });
    assert.ok(outcomes.length >= 10, `the batch ran (${outcomes.length} tests)`);
    await mkdir(results, { recursive: true });
    await browser.page.screenshot({ path: `${results}quench-harness.png`, fullPage: true });
  });

  test("every test of the batch passes here, or is skipped for a stated reason", t => {
    for (const o of outcomes) t.diagnostic(`${o.state}: ${o.title}${o.error ? ` — ${o.error.split("\n")[0]}` : ""}`);
    for (const outcome of outcomes) {
      if (outcome.state === "pending") {
        assert.ok(SKIPPED_HERE[outcome.title], `${outcome.title} skipped without a reason`);
        t.diagnostic(`skipped here: ${outcome.title} (${SKIPPED_HERE[outcome.title]})`);
      } else assert.equal(outcome.state, "passed", `${outcome.title}\n${outcome.error ?? ""}`);
    }
    assert.deepEqual(outcomes.filter(o => o.state === "pending").map(o => o.title).sort(), Object.keys(SKIPPED_HERE).sort());
  });

  test("the batch cleans up: no test documents, messages or windows are left", async () => {
    const left = await browser.page.evaluate(() => ({
      actors: game.actors.contents.map(a => a.name),
      items: game.items.contents.map(i => i.name),
      journal: game.journal.contents.map(j => j.name),
      messages: game.messages.size,
      windows: [...foundry.applications.instances.keys()]
    }));
    // The sidebar's combat tracker and the hotbar stay, as in Foundry.
    assert.deepEqual(left, { actors: [], items: [], journal: [], messages: 0, windows: ["combat", "hotbar"] });
  });

  test("no page errors", () => {
    assert.deepEqual(browser.errors, []);
  });
});
