/**
 * The odds card's data: bars, bucketing, tail trimming and exact fractions.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core, { dice } from "../support/load-core.mjs";
import Fraction from "../../module/dice/fraction.mjs";
import OddsReport from "../../module/dice/odds-report.mjs";

describe("Fraction", () => {
  test("parses, reduces and adds exactly", () => {
    assert.equal(`${Fraction.parse("27/216")}`, "1/8");
    assert.equal(`${Fraction.parse("1/3").add(Fraction.parse("1/6"))}`, "1/2");
    assert.equal(`${Fraction.parse("1/2").add(Fraction.parse("1/2"))}`, "1");
    const big = "340282366920938463463374607431768211455";
    assert.equal(`${Fraction.parse(`1/${big}`).add(Fraction.parse(`1/${big}`))}`, `2/${big}`);
    assert.throws(() => Fraction.parse("1/0"), RangeError);
    assert.throws(() => Fraction.parse("one"), SyntaxError);
  });
});

describe("OddsReport.prepare", () => {
  test("3d6: one bar per total, the tallest at 100%, exact fractions kept", () => {
    const request = dice("3d6");
    const data = OddsReport.prepare(request, core.odds(request));
    assert.equal(data.bars.length, 16);
    assert.equal(data.bucketWidth, 1);
    assert.equal(data.bucketed, false);
    assert.equal(data.trimmed, null);
    assert.equal(data.meanText, "10.50");
    assert.equal(data.exactMean, "21/2");
    assert.equal(data.min, 3);
    assert.equal(data.max, 18);
    const ten = data.bars.find(bar => bar.from === 10);
    assert.equal(ten?.exact, "1/8");
    assert.equal(ten?.percent, "12.50%");
    assert.equal(Math.max(...data.bars.map(bar => bar.height)), 100);
    assert.equal(data.bars[0].label, "3");
    assert.ok(data.bars[0].showTick, "the first tick always shows");
  });

  test("wide distributions are trimmed and bucketed to at most maxBars, mass preserved", () => {
    const request = dice("10d100");
    const odds = core.odds(request);
    const data = OddsReport.prepare(request, odds, { maxBars: 40, tailCut: 0.0005 });
    assert.ok(data.bars.length <= 40, `${data.bars.length} bars`);
    assert.ok(data.bucketWidth > 1);
    assert.ok(data.trimmed, "tails were trimmed");
    const shown = data.bars.reduce((sum, bar) => sum + bar.p, 0);
    assert.ok(shown > 0.998 && shown <= 1 + 1e-9, `shown mass ${shown}`);
    // Buckets tile the shown range without overlap.
    for (let i = 1; i < data.bars.length; i++) assert.ok(data.bars[i].from > data.bars[i - 1].to);
    assert.equal(data.min, 10);
    assert.equal(data.max, 1000);
  });

  test("buckets start at round multiples of a 1-2-5 width and sum fractions exactly", () => {
    // A synthetic uniform distribution over 1..100; at most 11 bars means buckets of 10.
    const totals = Array.from({ length: 100 }, (_, i) => /** @type {[number, number]} */ ([i + 1, 0.01]));
    const odds = {
      totals,
      mean: 50.5,
      sd: 28.866,
      outcomes: {},
      exact: {
        totals: totals.map(([v]) => /** @type {[number, string]} */ ([v, "1/100"])),
        mean: "101/2",
        outcomes: {}
      }
    };
    const data = OddsReport.prepare(dice("1d100"), odds, { maxBars: 11, tailCut: 0 });
    assert.equal(data.bucketWidth, 10);
    assert.deepEqual(data.bars.map(bar => bar.label),
      ["1–9", "10–19", "20–29", "30–39", "40–49", "50–59", "60–69", "70–79", "80–89", "90–99", "100"]);
    assert.deepEqual(data.bars.map(bar => bar.tick), ["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]);
    assert.deepEqual(data.bars.map(bar => bar.exact), ["9/100", ...Array(9).fill("1/10"), "1/100"]);
    assert.equal(data.bars[1].height, 100);
    assert.equal(data.bars[0].height, 90);
  });

  test("outcomes carry their exact probabilities", () => {
    const odds = {
      totals: [[0, 0.25], [1, 0.75]],
      mean: 0.75,
      sd: 0.433,
      outcomes: { hit: 0.75 },
      exact: { totals: [[0, "1/4"], [1, "3/4"]], mean: "3/4", outcomes: { hit: "3/4" } }
    };
    const data = OddsReport.prepare({ kind: "icon.attack" }, /** @type {any} */ (odds));
    assert.deepEqual(data.outcomes,
      [{ label: "hit", labelKey: "ICONENGINE.Outcome.hit", p: 0.75, percent: "75.00%", exact: "3/4" }]);
    assert.equal(data.formula, "icon.attack");
  });

  test("tiny probabilities don't round to a misleading 0%", () => {
    assert.equal(OddsReport.formatPercent(1e-9), "<0.01%");
    assert.equal(OddsReport.formatPercent(0), "0.00%");
    // 1 minus a sum of fractions can land a hair under 0
    for (const zero of [-0, -1e-17, 0.3 - (0.1 + 0.2)]) assert.equal(OddsReport.formatPercent(zero), "0.00%");
  });
});

describe("core outcome labels", () => {
  test("every outcome the ICON kinds report has an English label", async () => {
    const { readFile } = await import("node:fs/promises");
    const en = JSON.parse(await readFile(new URL("../../lang/en.json", import.meta.url), "utf8"));
    const requests = [
      { kind: "icon.attack", defense: 12 },
      { kind: "icon.save" },
      { kind: "icon.action", rating: 2 },
      { kind: "icon.fortune", dice: 2 }
    ];
    for (const request of requests) {
      const data = OddsReport.prepare(request, core.odds(request));
      assert.ok(data.outcomes.length > 0, `${request.kind} has outcomes`);
      for (const { label } of data.outcomes) {
        assert.equal(typeof en.ICONENGINE.Outcome[label], "string", `${request.kind}: ${label}`);
      }
    }
  });
});
