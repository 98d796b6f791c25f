/**
 * The other rulesets in Chromium: each chat card rendered from a real core outcome (a seeded
 * core roll) with the registered template and card context, the hero sheet for ICONS and Men &
 * Supermen from the real hero context, and the roll dialog whose odds follow its fields.
 * Screenshots in test-results/.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("the other rulesets in the browser", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;

  before(async () => {
    await mkdir(results, { recursive: true });
    browser = await openHarness({ as: null, path: "/test/browser/harness.html" });
    await browser.page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const core = await loadCore();
      const cards = await import("/module/dice/cards/rulesets.mjs");
      const { rollCardFor } = await import("/module/dice/roll-cards.mjs");
      const { requestFrom } = await import("/module/dice/ruleset-requests.mjs");
      const { rollDialogContext } = await import("/module/applications/ruleset-roll-context.mjs");
      const { heroContext } = await import("/module/applications/sheets/hero-context.mjs");
      const rulesets = await import("/module/data/rulesets.mjs");
      cards.registerRulesetCards();
      const tables = core.rulesetTables();
      const campaign = { ruleset: "icons", tributeDie: 6, narratorScale: "coarse", iconsLevelNames: 1 };
      const render = (path, data) => foundry.applications.handlebars.renderTemplate(path, data);
      /** What IconRoll#render + _prepareChatRenderContext give the template, from a seeded core roll. */
      const renderCard = async (request, seed, options = {}) => {
        const outcome = core.roll(request, seed);
        const card = rollCardFor(request.kind);
        const html = await render(card.template, { formula: core.plan(request).map(d => `${d.count}${d.notation}`).join(" + "),
          total: outcome.total, outcome, request, card: card.context(outcome, request, options) });
        document.querySelector(".message-content").innerHTML = html;
        return outcome;
      };
      globalThis.rulesetTest = { core, tables, campaign, render, renderCard, requestFrom, rollDialogContext, heroContext, rulesets };
    });
  });

  after(async () => {
    await browser?.close();
  });

  const assertNoErrors = () => assert.deepEqual(browser.errors, []);
  /** @param {string} name */
  const shoot = name => browser.page.locator(".chat-message").screenshot({ path: `${results}${name}.png` });
  /** @param {string} selector */
  const text = selector => browser.page.locator(`.message-content ${selector}`).first().textContent().then(t => t?.trim());

  test("ICONS card: the positive and negative dice, effort, effect and outcome", async () => {
    const outcome = await browser.page.evaluate(() => globalThis.rulesetTest.renderCard(
      { kind: "icons.test", ability: 6, difficulty: 5, bonus: 1 }, 11, { ruleset: { label: "Prowess" } }));
    assert.equal(await text(".die.positive"), String(outcome.positive));
    assert.equal(await text(".die.negative"), String(outcome.negative));
    assert.equal(await text(".effort"), `${outcome.effort} (ability 6 ${outcome.result >= 0 ? "+" : ""}${outcome.result} +1)`);
    assert.equal(outcome.effort, 6 + 1 + outcome.positive - outcome.negative);
    assert.equal(await text(".effect"), String(outcome.effort - 5));
    const names = { failure: "Failure", moderate: "Moderate success", major: "Major success", massive: "Massive success" };
    assert.equal(await text(".outcome"), names[outcome.outcome]);
    assert.equal(await text(".card-title"), "Prowess");
    await shoot("ruleset-card-icons");
    assertNoErrors();
  });

  test("Tribute card: FOCUS and BURDEN dice with the counted ones marked, result, profit, waste", async () => {
    const outcome = await browser.page.evaluate(() => globalThis.rulesetTest.renderCard(
      { kind: "tribute.test", rank: 1, focus: 3, burden: 2, die: 6, opposition: { rank: 0, focus: 1 }, effectRank: 2 }, 5));
    const page = browser.page;
    assert.deepEqual(await page.locator(".message-content .focus .die").allTextContents(), outcome.focusDice.map(String));
    assert.deepEqual(await page.locator(".message-content .burden .die").allTextContents(), outcome.burdenDice.map(String));
    assert.equal(await text(".focus .die.counted"), String(Math.max(...outcome.focusDice)));
    assert.equal(await text(".card-title"), "Tribute test d6");
    assert.equal(await text(".value"), String(outcome.value));
    assert.equal(await text(".opposition"), String(outcome.opposition));
    assert.equal(await text(".outcome"), { win: "Win", match: "Match", fail: "Fail" }[outcome.result]);
    if (outcome.result !== "fail") {
      assert.equal(await text(".profit"), String(outcome.profit));
      assert.equal(await text(".waste"), String(outcome.waste));
      assert.equal(await text(".effect-rank"), `2 → ${outcome.effectRank}`);
    } else {
      assert.equal(await page.locator(".message-content .profit").count(), 0);
    }
    await shoot("ruleset-card-tribute");
    assertNoErrors();
  });

  test("3d6 skill card: the roll, success levels and the attack band with damage", async () => {
    const outcome = await browser.page.evaluate(() => globalThis.rulesetTest.renderCard(
      { kind: "narrator.skill", skill: 12, difficulty: 22, use: "attack", baseDamage: 12, ranks: 3 }, 3, { ruleset: { label: "Archery" } }));
    assert.equal(await text(".roll"), `${outcome.roll} (skill 12)`);
    assert.equal(await text(".difficulty"), "22");
    assert.equal(await text(".levels"), `${outcome.successLevels > 0 ? "+" : ""}${outcome.successLevels}`);
    const bands = { miss: "Miss", winged: "Winged", hit: "Hit", bonus: "Hit with bonus damage" };
    assert.equal(await text(".outcome"), bands[outcome.attack]);
    assert.equal(await text(".damage"), String(outcome.damage));
    assert.equal(await browser.page.locator(".message-content .card-dice .die.d6").count(), 3);
    await shoot("ruleset-card-narrator");
    // another dice set: the card draws the formula's dice (a d20 and two d4s), not d6s
    const other = await browser.page.evaluate(() => globalThis.rulesetTest.renderCard(
      { kind: "narrator.skill", skill: 12, difficulty: 22, dice: "1d20 + 2d4" }, 5, { ruleset: { label: "Juggling" } }));
    const faces = other.terms.flatMap(term => term.results.map(r => String(r.value)));
    assert.deepEqual(await browser.page.locator(".message-content .card-dice .die").allTextContents(), faces);
    assert.equal(await browser.page.locator(".message-content .card-dice .die.d20").count(), 1);
    assert.equal(await browser.page.locator(".message-content .card-dice .die.d4").count(), 2);
    assert.equal(await browser.page.locator(".message-content .card-dice .die.d6").count(), 0);
    await shoot("ruleset-card-narrator-d20");
    assertNoErrors();
  });

  test("Men & Supermen cards: an Action Roll with a re-rolled 1, a save, a special die", async () => {
    const page = browser.page;
    // the first seed whose roll shows a 1, so the card has a re-roll
    const outcome = await page.evaluate(async () => {
      const { core, renderCard } = globalThis.rulesetTest;
      const request = { kind: "mns.action", target: 28 };
      let seed = 0;
      while (!core.roll(request, seed).faces[0].includes(1)) seed++;
      return { seed, ...(await renderCard(request, seed, { ruleset: { label: "Move Roll" } })) };
    });
    assert.equal(outcome.faces.length, 2, "the core asked for the re-roll");
    assert.deepEqual(await page.locator(".message-content .die.reroll").allTextContents(), outcome.rerolls.map(String));
    assert.equal(await page.locator(".message-content .die.one").count(), outcome.dice.filter(d => d === 1).length);
    assert.equal(await text(".total"), String(outcome.total));
    assert.equal(outcome.total, outcome.dice[0] + outcome.dice[1] - outcome.rerolls.reduce((a, b) => a + b, 0));
    assert.equal(await text(".quality"), String(28 - outcome.total));
    await shoot("ruleset-card-mns-action");

    const save = await page.evaluate(() => globalThis.rulesetTest.renderCard({ kind: "mns.save", score: 62, dice: "d100" }, 9));
    assert.equal(await text(".total"), String(save.total));
    assert.equal(await text(".outcome"), save.success ? "Success" : "Failure");
    await shoot("ruleset-card-mns-save");

    // a special character's save on 2d10 re-rolls its 1s, with a bonus pool
    const save2 = await page.evaluate(async () => {
      const { core, renderCard } = globalThis.rulesetTest;
      const request = { kind: "mns.save", score: 12, bonus: 2 };
      let seed = 0;
      while (!core.roll(request, seed).faces[0].includes(1)) seed++;
      return renderCard(request, seed, { ruleset: { label: "Save vs. Agility" } });
    });
    assert.equal(save2.rerolls.length, save2.dice.filter(d => d === 1).length);
    assert.deepEqual(await page.locator(".message-content .die.reroll").allTextContents(), save2.rerolls.map(String));
    assert.equal(await page.locator(".message-content .die.one").count(), save2.rerolls.length);
    assert.equal(await text(".needed"), "14 (+2)");
    await shoot("ruleset-card-mns-save-special");

    // a character that is not special: a 1 is just a 1, nothing marked
    await page.evaluate(async () => {
      const { core, renderCard } = globalThis.rulesetTest;
      const request = { kind: "mns.action", target: 12, special: false };
      let seed = 0;
      while (!core.roll(request, seed).faces[0].includes(1)) seed++;
      return renderCard(request, seed, { ruleset: { label: "Move Roll (normal)" } });
    });
    assert.equal(await page.locator(".message-content .die.one").count(), 0);
    assert.equal(await page.locator(".message-content .die.reroll").count(), 0);

    const die = await page.evaluate(() => globalThis.rulesetTest.renderCard({ kind: "mns.dice", die: "d1000" }, 2));
    assert.equal(await page.locator(".message-content .card-dice .die.d10").count(), 3);
    assert.equal(await text(".value"), String(die.value));
    const digits = die.dice.map(d => d % 10).join("");
    assert.equal(die.value, Number(digits) || 1000);
    // a d32 is a d4 and a d8, drawn as such
    const d32 = await page.evaluate(() => globalThis.rulesetTest.renderCard({ kind: "mns.dice", die: "d32" }, 4));
    assert.deepEqual(await page.locator(".message-content .card-dice .die").evaluateAll(els => els.map(e => e.className)),
      ["die d4", "die d8"]);
    assert.equal(d32.value, (d32.dice[0] - 1) * 8 + d32.dice[1]);
    await shoot("ruleset-card-mns-dice");
    assertNoErrors();
  });

  /** Render the hero sheet of a ruleset, as HeroSheet does, into the page. */
  const renderHero = ruleset => browser.page.evaluate(async ruleset => {
    const { core, tables, campaign, render, heroContext, rulesets } = globalThis.rulesetTest;
    const { loadTemplates } = foundry.applications.handlebars;
    await loadTemplates([]);
    const system = {
      biography: "<p>A hero.</p>",
      icons: { abilities: { prowess: 8, coordination: 4, strength: 3, intellect: 5, awareness: 2, willpower: 6 }, powers: [{ name: "Flight", level: 7 }], determination: 3 },
      tribute: { attributes: [], effects: [] },
      narrator: { skills: [] },
      mns: { special: true, characteristics: Object.fromEntries(rulesets.MNS_CHARACTERISTICS.map(c => [c, 12])), height: 1.791,
        targets: [{ name: "Move Roll", target: 28, bonus: 0 }], knowledge: [{ name: "Chemistry", score: 20 }] }
    };
    system.mns.characteristics.agility = 22;
    system.mns.characteristics.learning = 16;
    system.mns.characteristics.sight = 24;
    const context = heroContext({ system, campaign: { ...campaign, ruleset }, tables, lookup: q => core.mnsLookup(q),
      charts: { sphere: [], square: [], doubles: [], action: [] } });
    document.body.innerHTML = '<form id="sheet" class="icon-engine sheet actor hero" style="width:580px;background:#f0efe7;color:#191813;padding:8px"></form>';
    document.querySelector("#sheet").innerHTML = await render("systems/icon-engine/templates/actor/hero.hbs", {
      actor: { name: "Seraph", img: "/assets/icons/statuses/flying.svg" }, system, source: system, enriched: { biography: system.biography }, ...context });
  }, ruleset);

  test("hero sheet, ICONS: abilities by level name, powers, the Determination pool", async () => {
    const page = browser.page;
    await renderHero("icons");
    assert.equal(await page.locator(".ruleset-name").textContent(), "Ruleset: ICONS");
    assert.equal(await page.locator(".ability").count(), 6);
    assert.equal(await page.locator('select[name="system.icons.abilities.prowess"] option:checked').textContent(), "Astounding (8)");
    assert.equal(await page.locator('select[name="system.icons.abilities.awareness"] option:checked').textContent(), "Inferior (2)");
    assert.equal(await page.locator('select[name="system.icons.powers.0.level"] option:checked').textContent(), "Incredible (7)");
    assert.equal(await page.locator('input[name="system.icons.determination"]').inputValue(), "3");
    assert.equal(await page.locator(".mns-stats").count(), 0, "only the world's ruleset");
    await page.locator("#sheet").screenshot({ path: `${results}hero-icons.png` });
    assertNoErrors();
  });

  test("hero sheet, Men & Supermen: characteristics, the core's table lookups, empty charts", async () => {
    const page = browser.page;
    await renderHero("mns");
    assert.equal(await page.locator(".characteristic").count(), 11);
    assert.equal(await page.locator('input[name="system.mns.characteristics.agility"]').inputValue(), "22");
    assert.equal(await page.locator(".learning-modifier").textContent(), "1/3");
    assert.equal(await page.locator(".sight-modifiers").textContent(), "close +3 / ranged +5 (defense 0)");
    assert.equal(await page.locator('input[name="system.mns.targets.0.target"]').inputValue(), "28");
    assert.equal(await page.locator('input[name="system.mns.special"]').isChecked(), true);
    assert.deepEqual(await page.locator(".special-dice button").allTextContents(), ["d2", "d3", "d5", "d32", "d100", "d1000", "d%"]);
    assert.equal(await page.locator(".charts li").first().textContent(), "Sphere Chart: empty (the GM types it in)");
    await page.locator("#sheet").screenshot({ path: `${results}hero-mns.png` });
    assertNoErrors();
  });

  test("the narrator's roll dialog: chart pickers, and the odds follow the fields", async () => {
    const page = browser.page;
    await page.evaluate(async () => {
      const { core, tables, campaign, render, rollDialogContext } = globalThis.rulesetTest;
      document.body.innerHTML = '<form id="dialog" class="icon-engine" style="width:440px;background:#f0efe7;color:#191813;padding:8px"></form>';
      const form = document.querySelector("#dialog");
      let values = { skill: 12 };
      // What RulesetRollDialog's form handler does on a change: keep the values, render again.
      const draw = async () => {
        const context = rollDialogContext({ kind: "narrator.skill", values, campaign, tables, odds: r => core.odds(r) });
        form.innerHTML = await render("systems/icon-engine/templates/apps/ruleset-roll.hbs", context);
        globalThis.rulesetTest.dialog = context;
      };
      form.addEventListener("change", async () => {
        const data = Object.fromEntries(new FormData(form));
        values = { ...values, ...data };
        await draw();
      });
      await draw();
    });
    const percent = label => page.locator(`.odds-row[data-outcome="${label}"] .percent`).textContent();
    // skill 12 + 3d6 against 20: success on 3d6 ≥ 8, 181/216
    assert.equal(await page.locator('select[name="chartDifficulty"] option').count(), 12);
    assert.equal(await percent("success"), "83.80%");
    assert.equal(await page.locator('.odds-row[data-outcome="success"]').getAttribute("data-tooltip"), "181/216");
    assert.equal(await page.locator(".odds-spread .sd").textContent(), "SD 2.96");
    await page.locator("#dialog").screenshot({ path: `${results}ruleset-dialog-chart.png` });

    // pick "Daunting task for an expert" (32): now 3d6 ≥ 20 is impossible
    await page.selectOption('select[name="chartDifficulty"]', "32");
    await page.waitForFunction(() => globalThis.rulesetTest.dialog.request.difficulty === 32);
    assert.equal(await percent("success"), "0.00%");

    // an opponent with skill 10 and circumstances greatly favouring the actor: 10 + 10 − 8 = 12
    await page.selectOption('select[name="difficultySource"]', "opposed");
    await page.waitForSelector('select[name="opposedModifier"]');
    assert.equal(await page.locator('select[name="opposedModifier"] option').count(), 9);
    await page.fill('input[name="opponentSkill"]', "10");
    await page.selectOption('select[name="opposedModifier"]', "-8");
    await page.waitForFunction(() => globalThis.rulesetTest.dialog.request.difficulty === 12);
    assert.equal(await page.locator(".narrator-difficulty strong").textContent(), "12");
    assert.equal(await percent("success"), "100.00%");

    // a deterministic roll has no spread; an attack lists its bands
    await page.fill('input[name="dice"]', "deterministic");
    await page.locator('input[name="dice"]').dispatchEvent("change");
    await page.waitForFunction(() => globalThis.rulesetTest.dialog.request.dice === "deterministic");
    assert.equal(await page.locator(".odds-spread .sd").textContent(), "SD 0.00");
    await page.selectOption('select[name="use"]', "attack");
    await page.waitForSelector('.odds-row[data-outcome="bonus"]');
    assert.deepEqual(await page.locator(".odds-row .name").allTextContents(), ["Miss", "Winged", "Hit", "Hit with bonus damage"]);
    // a bad formula shows the core's message and disables Roll
    await page.fill('input[name="dice"]', "3d");
    await page.locator('input[name="dice"]').dispatchEvent("change");
    await page.waitForSelector(".odds-error");
    assert.equal(await page.locator('button[data-action="roll"]').isDisabled(), true);
    await page.fill('input[name="dice"]', "3d6");
    await page.locator('input[name="dice"]').dispatchEvent("change");
    await page.waitForSelector('.odds-row[data-outcome="miss"]');
    await page.locator("#dialog").screenshot({ path: `${results}ruleset-dialog-opposed.png` });
    assertNoErrors();
  });
});
