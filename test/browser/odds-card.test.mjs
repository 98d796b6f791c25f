/**
 * The wasm core and the odds card in a real browser (Debian Chromium via playwright-core):
 * the system's own modules are loaded as Foundry would serve them, with only the shim in
 * foundry-shim.mjs standing in for Foundry.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("in the browser", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;

  before(async () => {
    browser = await openHarness({ as: null, path: "/test/browser/harness.html" });
  });

  after(async () => {
    await browser?.close();
  });

  /** Fail on anything the page reported as an error. */
  const assertNoErrors = () => assert.deepEqual(browser.errors, []);

  test("the core loads once through module/core.mjs", async () => {
    const info = await browser.page.evaluate(async () => {
      const core = await import("/module/core.mjs");
      const [a, b] = await Promise.all([core.loadCore(), core.loadCore()]);
      return { same: a === b, version: core.version(), loaded: core.isCoreLoaded() };
    });
    assert.equal(info.same, true);
    assert.equal(info.loaded, true);
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    assertNoErrors();
  });

  test("/odds 3d6 renders a card with the right mean, bars and exact tooltips", async () => {
    const { page } = browser;
    const data = await page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const { default: OddsReport } = await import("/module/dice/odds-report.mjs");
      const core = await loadCore();
      const request = { kind: "dice", formula: "3d6" };
      const report = OddsReport.prepare(request, core.odds(request));
      document.querySelector(".message-content").innerHTML = await OddsReport.render(report);
      return report;
    });
    assert.equal(data.meanText, "10.50");

    const card = page.locator(".odds-card");
    assert.equal(await card.locator(".odds-mean").textContent(), "10.50");
    assert.equal(await card.locator(".odds-mean").getAttribute("data-tooltip"), "21/2");
    assert.equal(await card.locator(".odds-sd").textContent(), "2.96");
    assert.equal(await card.locator(".odds-formula").textContent(), "3d6");
    assert.equal(await card.locator(".odds-bar").count(), 16);
    assert.equal(await card.locator('.odds-bar[data-from="10"]').getAttribute("data-tooltip"), "10: 12.50% = 1/8");
    assert.equal(await card.locator(".odds-title").textContent(), "Odds", "localized");
    assert.equal(await card.locator(".odds-note").count(), 0, "no caption for a narrow chart");

    // The bars are drawn: the tallest fills its track, the rarest is short but visible.
    const heights = await card.locator(".odds-fill").evaluateAll(fills => fills.map(f => f.getBoundingClientRect().height));
    const track = await card.locator(".odds-bar").first().evaluate(bar => bar.getBoundingClientRect().height);
    assert.ok(Math.max(...heights) > 0.9 * track - 20, `tallest ${Math.max(...heights)} of ${track}`);
    assert.ok(heights[0] > 0 && heights[0] < Math.max(...heights) / 10);

    await mkdir(results, { recursive: true });
    await page.locator(".chat-message").screenshot({ path: `${results}odds-card.png` });
    assertNoErrors();
  });

  test("a wide distribution is bucketed into at most the configured bars", async () => {
    const { page } = browser;
    const report = await page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const { default: OddsReport } = await import("/module/dice/odds-report.mjs");
      const { ICONENGINE } = await import("/module/config.mjs");
      const core = await loadCore();
      const request = { kind: "dice", formula: "10d100" };
      const data = OddsReport.prepare(request, core.odds(request));
      document.querySelector(".message-content").innerHTML = await OddsReport.render(data);
      return { bars: data.bars.length, max: ICONENGINE.odds.maxBars, mean: data.meanText };
    });
    assert.ok(report.bars <= report.max);
    assert.equal(report.mean, "505.00");
    assert.equal(await page.locator(".odds-bar").count(), report.bars);
    assert.equal(await page.locator(".odds-note").count(), 1, "the caption explains buckets and tails");
    await page.locator(".chat-message").screenshot({ path: `${results}odds-card-wide.png` });
    assertNoErrors();
  });

  test("a bad formula throws the core's positioned message", async () => {
    const message = await browser.page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const core = await loadCore();
      try {
        core.odds({ kind: "dice", formula: "2d6+" });
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : `not an Error: ${error}`;
      }
    });
    assert.match(message ?? "", /position \d+/);
    assertNoErrors();
  });

  test("the IconRoll flow: plan, roll faces from the core Rng, resolve until done; totals in the support", async () => {
    const runs = await browser.page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const { default: planFormula } = await import("/module/dice/plan-formula.mjs");
      const core = await loadCore();
      const out = [];
      for (const formula of ["4d6kh3+2", "2d6x", "2d20kh1", "4dF + 1"]) {
        const request = { kind: "dice", formula };
        const support = new Set(core.odds(request).totals.map(([v]) => v));
        // As CONFIG.Dice.randomUniform would: one core Rng drives every face Foundry rolls.
        const rng = new core.Rng(1234);
        /** @param {{faces: number, count: number, notation: string}} die */
        const rollDie = die => {
          const face = Math.ceil((1 - rng.uniform()) * die.faces);
          return die.notation === "dF" ? face - 2 : face;
        };
        for (let i = 0; i < 40; i++) {
          const plan = core.plan(request);
          const faces = plan.map(die => Array.from({ length: die.count }, () => rollDie(die)));
          let answer = core.resolve(request, faces);
          let rounds = 0;
          while (answer.status === "more") {
            rounds++;
            for (const die of answer.dice) faces.push(Array.from({ length: die.count }, () => rollDie(die)));
            answer = core.resolve(request, faces);
          }
          const seeded = core.roll(request, i);
          out.push({
            formula,
            foundryFormula: planFormula(plan),
            total: answer.total,
            inSupport: support.has(answer.total),
            seededInSupport: support.has(seeded.total),
            rounds
          });
        }
      }
      return out;
    });
    for (const run of runs) {
      assert.ok(run.inSupport, `${run.formula}: ${run.total} not in support`);
      assert.ok(run.seededInSupport, `${run.formula}: seeded roll not in support`);
      assert.match(run.foundryFormula, /^\d+d(\d+|F)\[[^\]]+\]( \+ \d+d(\d+|F)\[[^\]]+\])*$/);
    }
    assert.ok(runs.some(run => run.formula === "2d6x" && run.rounds > 0), "some 2d6x roll exploded");
    assertNoErrors();
  });
});
