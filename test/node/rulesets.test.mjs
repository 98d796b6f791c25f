/**
 * The other rulesets' pure modules (dialog requests and odds, chat-card contexts, hero sheet
 * context, the M&S charts editor) against the built wasm core.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";

// The only Foundry API these modules use: game.i18n, from the real lang file.
const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));
/** @param {string} key */
const localize = key => {
  const value = key.split(".").reduce((node, part) => node?.[part], en);
  return typeof value === "string" ? value : key;
};
globalThis.game = /** @type {any} */ ({ i18n: { localize,
  format: (/** @type {string} */ key, /** @type {Record<string, unknown>} */ data = {}) =>
    localize(key).replace(/{(\w+)}/g, (m, name) => (name in data ? String(data[name]) : m)) } });

const { requestFrom, oddsView, narratorDifficulty, integer } = await import("../../module/dice/ruleset-requests.mjs");
const { rollDialogContext } = await import("../../module/applications/ruleset-roll-context.mjs");
const cards = await import("../../module/dice/cards/rulesets.mjs");
const { rollCardFor } = await import("../../module/dice/roll-cards.mjs");
const { heroContext } = await import("../../module/applications/sheets/hero-context.mjs");
const rulesets = await import("../../module/data/rulesets.mjs");
const { chartsFromForm, mnsChartsContext } = await import("../../module/applications/mns-charts-context.mjs");

const tables = core.rulesetTables();
/** @type {import("../../module/data/rulesets.mjs").Campaign} */
const campaign = { ruleset: "icons", tributeDie: 6, narratorScale: "coarse", iconsLevelNames: 1 };
const odds = (/** @type {any} */ request) => core.odds(request);

/** Resolve a request from given faces, answering `more` rounds from `extra`. */
function resolve(/** @type {any} */ request, /** @type {number[][]} */ faces) {
  const answer = core.resolve(request, faces);
  assert.equal(answer.status, "done", JSON.stringify(answer));
  return /** @type {import("../../module/types/core.js").Done} */ (answer);
}

describe("ICONS", () => {
  test("the dialog shows levels by name and the exact odds of each outcome", () => {
    const ctx = rollDialogContext({ kind: "icons.test", values: { ability: 8, difficulty: 6 }, campaign, tables, odds });
    const ability = ctx.fields.find(f => f.name === "ability");
    assert.equal(ability?.options?.find(o => o.selected)?.label, "Astounding (8)");
    assert.deepEqual(ctx.request, { kind: "icons.test", ability: 8, difficulty: 6, bonus: 0, penalty: 0 });
    // effect = result + 2: failure at −3 or less (1+2+3 of 36), moderate −2..0 (4+5+6), major +1..+2
    // (5+4), massive +3 or more (3+2+1)
    assert.deepEqual(ctx.odds?.rows.map(r => [r.label, r.exact]),
      [["failure", "1/6"], ["moderate", "5/12"], ["major", "1/4"], ["massive", "1/6"]]);
    assert.equal(ctx.odds?.rows[1].percent, "41.67%");
    assert.equal(ctx.odds?.rows[0].name, "Failure");
    // numbers only
    const plain = rollDialogContext({ kind: "icons.test", values: { ability: 8 }, campaign: { ...campaign, iconsLevelNames: -1 }, tables, odds });
    assert.equal(plain.fields[0].options?.find(o => o.selected)?.label, "8");
    assert.equal(plain.title, "ICONS test");
  });

  test("a reaction is a test against the GM character's ability; the card says so", () => {
    const ctx = rollDialogContext({ kind: "icons.test", values: { ability: 4, difficulty: 6, reaction: true }, campaign, tables, odds });
    assert.equal(ctx.fields.find(f => f.name === "difficulty")?.label, "GM character's ability");
    const request = /** @type {any} */ (ctx.request);
    const done = resolve(request, [[6], [2]]);
    const card = cards.iconsTestCard(done, request, { ruleset: { label: "Coordination", reaction: true } });
    assert.deepEqual([card.title, card.reaction, card.result, card.effort, card.effect, card.outcomeLabel],
      ["Coordination", true, "+4", 8, 2, "Moderate success"]);
    const cosmic = resolve({ kind: "icons.test", ability: 10, difficulty: 10 }, [[6], [1]]);
    assert.equal(cards.iconsTestCard(cosmic, { kind: "icons.test", ability: 10, difficulty: 10 }, {}).cosmic, true);
  });

  test("Determination is a pool that never goes below 0", () => {
    assert.equal(rulesets.changeDetermination(2, -1), 1);
    assert.equal(rulesets.changeDetermination(0, -1), null);
    assert.equal(rulesets.changeDetermination(0, 1), 1);
  });
});

describe("Tribute", () => {
  test("a roll with profit and waste both: the card shows the counted dice and both", () => {
    const request = requestFrom("tribute.test", { rank: 2, focus: 2, burden: 2, opposition: 2, effectRank: 3 }, campaign, tables);
    assert.deepEqual(request, { kind: "tribute.test", rank: 2, focus: 2, burden: 2, die: 6, opposition: 2, effectRank: 3 });
    const done = resolve(request, [[5, 5, 2], [5, 3, 5]]);
    const card = cards.tributeTestCard(done, request, {});
    assert.deepEqual([card.result, card.profit, card.waste, card.effectBefore, card.effectRank], ["match", 1, 1, 3, 3]);
    assert.deepEqual(card.focus.map(d => d.counted), [true, false, false]);
    assert.deepEqual(card.burden.map(d => d.counted), [true, false, false]);
  });

  test("the dialog's opposition can roll; odds add up and the profit/waste grid covers every cell", () => {
    const ctx = rollDialogContext({ kind: "tribute.test", values: { rank: 1, focus: 1, oppositionMode: "roll", oppRank: 1, oppBurden: 1 },
      campaign: { ...campaign, tributeDie: 8 }, tables, odds });
    assert.deepEqual(ctx.request, { kind: "tribute.test", rank: 1, focus: 1, burden: 0, die: 8, opposition: { rank: 1, focus: 0, burden: 1 } });
    assert.ok(ctx.fields.some(f => f.name === "oppFocus"));
    assert.equal(ctx.odds?.rows.map(r => r.label).join(), "win,match,fail");
    const total = (ctx.odds?.rows ?? []).reduce((s, r) => s + r.p, 0);
    assert.ok(Math.abs(total - 1) < 1e-12);
    const report = /** @type {any} */ (core.odds(/** @type {any} */ (ctx.request)));
    const grid = oddsView("tribute.test", report).grid;
    const cells = report.profitWaste.length;
    assert.equal(grid?.rows.flatMap(r => r.cells).filter(c => c.percent).length, cells);
  });
});

describe("the 3d6 skill system", () => {
  test("difficulty from the chart, the knowledge chart, an opponent (10 + skill ± circumstances) or a number", () => {
    assert.equal(narratorDifficulty({ difficultySource: "chart", chartDifficulty: 25 }, tables), 25);
    assert.equal(narratorDifficulty({ difficultySource: "knowledge", knowledgeDifficulty: 28 }, tables), 28);
    assert.equal(narratorDifficulty({ difficultySource: "opposed", opponentSkill: 12, opposedModifier: -4 }, tables), 18);
    assert.equal(narratorDifficulty({ difficultySource: "custom", difficulty: 31 }, tables), 31);
    const ctx = rollDialogContext({ kind: "narrator.skill", values: { difficultySource: "opposed", opponentSkill: 12, opposedModifier: 8 }, campaign, tables, odds });
    const picker = ctx.fields.find(f => f.name === "opposedModifier");
    assert.equal(picker?.options?.length, 9);
    assert.equal(picker?.options?.find(o => o.selected)?.label, "Greatly hinder the actor (+8)");
    assert.equal(ctx.difficulty, 30);
    const chart = rollDialogContext({ kind: "narrator.skill", values: {}, campaign, tables, odds }).fields.find(f => f.name === "chartDifficulty");
    assert.deepEqual(chart?.options?.map(o => o.value), [15, 18, 20, 22, 25, 28, 32, 35, 38, 40, 45, 48]);
    assert.equal(chart?.options?.find(o => o.selected)?.label, "Challenging (50/50) for a beginner (20)");
  });

  test("the standard deviation of the dice set comes from the core's odds", () => {
    const sd = (/** @type {string} */ dice) => rollDialogContext({ kind: "narrator.skill", values: { dice }, campaign, tables, odds }).odds?.sd;
    assert.equal(sd("3d6"), Math.sqrt(35 / 4).toFixed(2));
    assert.equal(sd("1d20"), Math.sqrt(399 / 12).toFixed(2));
    assert.equal(sd("deterministic"), "0.00");
    const bad = rollDialogContext({ kind: "narrator.skill", values: { dice: "3d" }, campaign, tables, odds });
    assert.match(String(bad.error), /faces/);
  });

  test("attack and knowledge cards", () => {
    const request = requestFrom("narrator.skill", { skill: 10, difficultySource: "custom", difficulty: 20, use: "attack", baseDamage: 12 },
      { ...campaign, narratorScale: "fine" }, tables);
    assert.equal(request.scale, "fine");
    const card = cards.narratorSkillCard(resolve(request, [[3, 4, 4]]), request, {});
    assert.deepEqual([card.roll, card.levels, card.band, card.damage], [21, "+1", "bonus", 13]);
    const know = requestFrom("narrator.skill", { skill: 10, difficultySource: "knowledge", knowledgeDifficulty: 20, use: "knowledge" }, campaign, tables);
    const k = cards.narratorSkillCard(resolve(know, [[1, 1, 4]]), know, {});
    assert.deepEqual([k.band, k.levels, k.success], ["unfamiliar", "-4", false]);
    assert.match(String(k.bandHint), /totally unfamiliar/);
  });
});

describe("Men & Supermen", () => {
  test("Seraph's Move Roll: 28, dice 5 and 1, the 1 re-rolled 4: total 2, Quality 26", () => {
    const request = requestFrom("mns.action", { target: 28, special: true }, campaign, tables);
    const more = core.resolve(request, [[5, 1]]);
    assert.equal(more.status, "more");
    const done = resolve(request, [[5, 1], [4]]);
    const card = cards.mnsRollCard(done, request, { ruleset: { label: "Move Roll" } });
    assert.deepEqual([card.title, card.total, card.needed, card.quality, card.success], ["Move Roll", 2, 28, 26, true]);
    assert.deepEqual(card.dice?.map(d => [d.value, d.one]), [[5, false], [1, true]]);
    assert.deepEqual(card.rerolls?.map(d => d.value), [4]);
    // not special: the checkbox off sends special: false, and a 1 stays
    assert.equal(requestFrom("mns.action", { target: 10, special: false }, campaign, tables).special, false);
  });

  test("saves, knowledge on d100 and the special dice", () => {
    const save = requestFrom("mns.save", { score: 62, saveDice: "d100" }, campaign, tables);
    const card = cards.mnsRollCard(resolve(save, [[45]]), save, {});
    assert.deepEqual([card.total, card.quality, card.success], [45, 17, true]);
    const d = requestFrom("mns.dice", { die: "d%" }, campaign, tables);
    const pct = cards.mnsRollCard(resolve(d, [[10], [7]]), d, {});
    assert.deepEqual([pct.value, pct.multiplier], [7, 0.07]);
    const ctx = rollDialogContext({ kind: "mns.dice", values: { die: "d32" }, campaign, tables, odds });
    assert.equal(ctx.odds?.min, 1);
    assert.equal(ctx.odds?.max, 32);
    assert.equal(ctx.fields[0].options?.length, 7);
  });

  test("the GM's charts: empty by default, typed as result = value, bad lines reported", () => {
    const empty = mnsChartsContext(undefined);
    assert.deepEqual(empty.charts.map(c => [c.id, c.text]), [["sphere", ""], ["square", ""], ["doubles", ""], ["action", ""]]);
    const { charts, bad } = chartsFromForm({ sphere: "0 = 1\n\n1 = 1.3\nnonsense", square: "", doubles: " = 4", action: "" });
    assert.deepEqual(charts.sphere, [{ result: "0", value: "1" }, { result: "1", value: "1.3" }]);
    assert.deepEqual(bad, { sphere: [4], doubles: [1] });
    assert.equal(rulesets.formatChartText(charts.sphere), "0 = 1\n1 = 1.3");
    assert.deepEqual(rulesets.normalizeCharts({ sphere: "junk" }), rulesets.EMPTY_MNS_CHARTS());
  });
});

describe("the hero sheet's context", () => {
  const system = {
    icons: { abilities: { prowess: 8, coordination: 4, strength: 3, intellect: 5, awareness: 2, willpower: 6 }, powers: [{ name: "Flight", level: 7 }], determination: 2 },
    tribute: { attributes: [{ name: "Might", rank: 2, focus: 1, burden: 0 }], effects: [] },
    narrator: { skills: [{ name: "Archery", rank: 15, dice: "3d6", baseDamage: 8 }] },
    mns: { special: true, characteristics: Object.fromEntries(rulesets.MNS_CHARACTERISTICS.map(c => [c, 10])), height: 1.791,
      targets: [{ name: "Move Roll", target: 28, bonus: 0 }], knowledge: [] }
  };
  system.mns.characteristics.learning = 7;
  system.mns.characteristics.sight = 2;
  const lookup = (/** @type {any} */ q) => core.mnsLookup(q);

  test("shows only the world's ruleset, ICONS levels by name", () => {
    const ctx = /** @type {any} */ (heroContext({ system, campaign, tables, lookup }));
    assert.equal(ctx.isIcons, true);
    assert.equal(ctx.tribute, undefined);
    assert.equal(ctx.icons.abilities[0].levelLabel, "Astounding (8)");
    assert.equal(ctx.icons.powers[0].levelLabel, "Incredible (7)");
    assert.equal(ctx.icons.determination, 2);
    assert.equal(/** @type {any} */ (heroContext({ system, campaign: { ...campaign, ruleset: "icon" }, tables, lookup })).isIcon, true);
  });

  test("Men & Supermen: lookups from the core's tables, charts empty until the GM fills them", () => {
    const ctx = /** @type {any} */ (heroContext({ system, campaign: { ...campaign, ruleset: "mns" }, tables, lookup, charts: { sphere: [{ result: "0", value: "1" }] } }));
    assert.equal(ctx.mns.learningModifier, "3/2");
    assert.equal(ctx.mns.sightModifiers, "close -3 / ranged -7 (defense -1)");
    assert.deepEqual(ctx.mns.charts.map((/** @type {any} */ c) => c.status), ["1 row", "empty (the GM types it in)", "empty (the GM types it in)", "empty (the GM types it in)"]);
    assert.deepEqual(ctx.mns.specialDice, ["d2", "d3", "d5", "d32", "d100", "d1000", "d%"]);
    system.mns.characteristics.learning = 2;
    assert.equal(/** @type {any} */ (heroContext({ system, campaign: { ...campaign, ruleset: "mns" }, tables, lookup })).mns.learningModifier, "—");
    system.mns.characteristics.learning = 7;
  });

  test("Tribute pools and the reality level", () => {
    const ctx = /** @type {any} */ (heroContext({ system, campaign: { ...campaign, ruleset: "tribute", tributeDie: 10 }, tables, lookup }));
    assert.equal(ctx.tribute.reality, "Cinematic (d10)");
    assert.equal(ctx.tribute.attributes[0].pool, "2 FOCUS, 1 BURDEN d10");
  });
});

describe("registration", () => {
  test("every ruleset kind has a card in the roll-card registry, built from the stored outcome", () => {
    cards.registerRulesetCards();
    for (const kinds of Object.values(rulesets.RULESET_KINDS)) {
      for (const kind of kinds) {
        const card = rollCardFor(kind);
        assert.ok(card?.template.endsWith(".hbs"), kind);
        const request = requestFrom(kind, {}, campaign, tables);
        const done = core.roll(request, 7);
        assert.equal(typeof card?.context?.(done, request, {}), "object", kind);
      }
    }
  });

  test("integer() reads form values", () => {
    assert.deepEqual([integer("5"), integer(""), integer("x", 3), integer(2.7), integer(null, 1)], [5, 0, 3, 2, 1]);
  });
});

describe("issue 17: the audit's ruleset fixes in the module", () => {
  test("ICONS: the penalty field has a minimum and a hint, and a negative penalty shows the core's reason", () => {
    const ctx = rollDialogContext({ kind: "icons.test", values: { penalty: -1 }, campaign, tables, odds });
    const field = ctx.fields.find(f => f.name === "penalty");
    assert.equal(field?.min, 0);
    assert.match(String(field?.hint), /enter it as 1/);
    assert.equal(ctx.odds, null);
    assert.match(String(ctx.error), /penalty.*enter it as 1/);
  });

  test("ICONS: a difficulty 9 test with a –1 penalty is cosmic at effort 15, and the card says massive", () => {
    const request = requestFrom("icons.test", { ability: 10, difficulty: 9, penalty: 1 }, campaign, tables);
    const card = cards.iconsTestCard(resolve(request, [[6], [1]]), request, {});
    assert.deepEqual([card.difficulty, card.effort, card.outcome, card.cosmic], [10, 15, "massive", true]);
    const eleven = requestFrom("icons.test", { ability: 10, difficulty: 10, penalty: 1 }, campaign, tables);
    const c = cards.iconsTestCard(resolve(eleven, [[6], [1]]), eleven, {});
    assert.deepEqual([c.outcome, c.cosmic], ["major", false]);
    const rows = rollDialogContext({ kind: "icons.test", values: { ability: 10, difficulty: 9, penalty: 1 }, campaign, tables, odds }).odds?.rows;
    assert.equal(rows?.find(r => r.label === "cosmic")?.exact, "1/36");
  });

  test("M&S: a special character's save on 2d10 re-rolls its 1s; the dialog sends special and the bonus pool", () => {
    const ctx = rollDialogContext({ kind: "mns.save", values: { score: 8, bonus: 2 }, campaign, tables, odds });
    assert.deepEqual(ctx.fields.map(f => f.name), ["score", "bonus", "saveDice", "special"]);
    assert.deepEqual(ctx.request, { kind: "mns.save", score: 8, bonus: 2, dice: "2d10", special: true });
    // d100 knowledge rolls never re-roll: no Special box
    const d100 = rollDialogContext({ kind: "mns.save", values: { saveDice: "d100" }, campaign, tables, odds });
    assert.equal(d100.fields.some(f => f.name === "special"), false);
    const request = /** @type {any} */ (ctx.request);
    assert.equal(core.resolve(request, [[1, 9]]).status, "more");
    const card = cards.mnsRollCard(resolve(request, [[1, 9], [4]]), request, {});
    assert.deepEqual([card.total, card.needed, card.bonus, card.quality, card.success], [6, 10, "+2", 4, true]);
    assert.deepEqual(card.dice?.map(d => [d.value, d.one]), [[1, true], [9, false]]);
    assert.deepEqual(card.rerolls?.map(d => d.value), [4]);
  });

  test("M&S: only a special character's 1s are marked on an action card", () => {
    const plain = requestFrom("mns.action", { target: 10, special: false }, campaign, tables);
    const card = cards.mnsRollCard(resolve(plain, [[1, 7]]), plain, {});
    assert.deepEqual(card.dice?.map(d => [d.value, d.one]), [[1, false], [7, false]]);
  });

  test("M&S: the special-dice card draws the physical dice rolled", () => {
    const draw = (/** @type {string} */ die, /** @type {number[][]} */ faces) => {
      const request = requestFrom("mns.dice", { die }, campaign, tables);
      return cards.mnsRollCard(resolve(request, faces), request, {}).faces?.map(f => f.dieClass);
    };
    assert.deepEqual(draw("d2", [[5]]), ["d6"]);
    assert.deepEqual(draw("d3", [[2]]), ["d6"]);
    assert.deepEqual(draw("d5", [[7]]), ["d10"]);
    assert.deepEqual(draw("d32", [[3], [5]]), ["d4", "d8"]);
    assert.deepEqual(draw("d100", [[3], [9]]), ["d10", "d10"]);
    assert.deepEqual(draw("d1000", [[1], [2], [3]]), ["d10", "d10", "d10"]);
  });

  test("3d6: the card draws the formula's dice, and attacks send the form's ranks", () => {
    const request = requestFrom("narrator.skill", { skill: 10, difficultySource: "custom", difficulty: 20, dice: "1d20" }, campaign, tables);
    const card = cards.narratorSkillCard(resolve(request, [[15]]), request, {});
    assert.deepEqual(card.faces.map(f => [f.value, f.dieClass]), [[15, "d20"]]);
    const kept = requestFrom("narrator.skill", { skill: 10, difficultySource: "custom", difficulty: 20, dice: "4d6kh3" }, campaign, tables);
    const k = cards.narratorSkillCard(resolve(kept, [[1, 5, 6, 4]]), kept, {});
    assert.deepEqual(k.faces.map(f => [f.value, f.dieClass, f.discarded]), [[1, "d6", true], [5, "d6", false], [6, "d6", false], [4, "d6", false]]);
    const ctx = rollDialogContext({ kind: "narrator.skill", values: { use: "attack", baseDamage: 24, ranks: 3, difficultySource: "custom", difficulty: 20 },
      campaign, tables, odds });
    assert.ok(ctx.fields.some(f => f.name === "ranks" && f.min === 1));
    const attack = /** @type {any} */ (ctx.request);
    assert.deepEqual([attack.baseDamage, attack.ranks], [24, 3]);
    // one success level: a quarter of one rank's 8 damage, not of the whole 24
    const hit = cards.narratorSkillCard(resolve(attack, [[3, 4, 4]]), attack, {});
    assert.equal(hit.damage, 26);
  });

  // "each 4 successes (coarse-scale) ... one additional rank of power ..., up to a maximum bonus of
  // 1/2 the base ranks of power" (issue 27)
  test("a quantitative use takes the power's base ranks, and the core caps extra ranks at half of them", () => {
    const ctx = rollDialogContext({ kind: "narrator.skill", values: { use: "quantitative", baseRanks: 3, skill: 20, difficultySource: "custom",
      difficulty: 20 }, campaign, tables, odds });
    const field = ctx.fields.find(f => f.name === "baseRanks");
    assert.equal(field?.label, "Base ranks of power");
    const request = /** @type {any} */ (ctx.request);
    assert.equal(request.ranks, 3);
    // 20 + 18 − 20 = 18 levels: 4 ranks coarse, at most 1 of 3 base ranks
    assert.equal(resolve(request, [[6, 6, 6]]).extraRanks, 1);
    const none = /** @type {any} */ (rollDialogContext({ kind: "narrator.skill", values: { use: "quantitative", skill: 20, difficultySource: "custom",
      difficulty: 20 }, campaign, tables, odds }).request);
    assert.equal("ranks" in none, false, "0 base ranks: none given");
  });
});
