/**
 * The ICON rules the data models and sheets call (module/data/rules.mjs, pure), with the core's
 * derived values where the models use them. Needs the built wasm for the iconDerived checks.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import * as rules from "../../module/data/rules.mjs";
import { lookup } from "../support/lang.mjs";

describe("class presets", () => {
  test("each class fills the ICON 1.5 numbers", () => {
    const expected = {
      stalwart: [10, 6, 4, 2, 6, 4, 3, 2], vagabond: [7, 10, 4, 4, 10, 2, 4, 0],
      mendicant: [10, 8, 4, 2, 6, 3, 5, 0], wright: [8, 7, 4, 2, 8, 4, 6, 0]
    };
    for (const [cls, [vit, def, speed, dash, die, fray, range, armor]] of Object.entries(expected)) {
      const u = rules.classPresetUpdate(cls);
      assert.deepEqual(
        [u["system.vit"], u["system.defense"], u["system.speed"], u["system.dash"], u["system.damageDie"], u["system.fray"], u["system.range"], u["system.armor"]],
        [vit, def, speed, dash, die, fray, range, armor], cls);
      assert.equal(u["system.hp.max"], 4 * vit);
      assert.equal(u["system.hp.value"], 4 * vit);
      assert.equal(u["system.job"], rules.CLASSES[cls].jobs[0]);
    }
  });
  test("the glossary's Stormbender: 2[D]+fray is 2d8+4", () => {
    // "if an ability says it does 2[D]+Fray, and you are a Stormbender, that ability does 2d8+4"
    const u = rules.classPresetUpdate("wright", "stormbender");
    const heavy = { kind: "icon.damage", result: "hit", die: u["system.damageDie"], dice: 2, fray: u["system.fray"] };
    assert.deepEqual(core.plan(heavy).map(d => [d.count, d.notation]), [[2, "d8"]]);
    assert.equal(core.resolve(heavy, [[1, 1]]).total, 2 + 4);
    assert.equal(core.resolve(heavy, [[8, 8]]).total, 16 + 4);
  });
  test("a job of the class is kept, another class's job is replaced; unknown class changes nothing", () => {
    assert.equal(rules.classPresetUpdate("wright", "spellblade")["system.job"], "spellblade");
    assert.equal(rules.classPresetUpdate("wright", "knave")["system.job"], "enochian");
    assert.deepEqual(rules.classPresetUpdate("bard"), {});
  });
  test("issue 41: given the jobs that exist as content, a class picks only one of them, or none", () => {
    // a world whose packs give the Wright only the Geomancer: never the Enochian it has no item of
    assert.equal(rules.classPresetUpdate("wright", "", ["geomancer"])["system.job"], "geomancer");
    assert.equal(rules.classPresetUpdate("wright", "knave", ["geomancer", "stormbender"])["system.job"], "geomancer");
    assert.equal(rules.classPresetUpdate("wright", "stormbender", ["geomancer", "stormbender"])["system.job"], "stormbender");
    assert.equal(rules.classPresetUpdate("wright", "enochian", ["geomancer"])["system.job"], "geomancer", "a job with no content is not kept");
    assert.equal(rules.classPresetUpdate("wright", "", [])["system.job"], "", "no job item of the class: no job");
    assert.equal(rules.classPresetUpdate("wright", "", [])["system.vit"], 8, "the class's numbers all the same");
  });
  test("every class, job and trait has a label", () => {
    for (const [cls, preset] of Object.entries(rules.CLASSES)) {
      assert.equal(typeof lookup(`ICONENGINE.Class.${cls}`), "string");
      assert.equal(typeof lookup(`ICONENGINE.ClassTrait.${preset.trait}`), "string");
      for (const job of preset.jobs) assert.equal(typeof lookup(`ICONENGINE.Job.${job}`), "string", job);
    }
  });
});

describe("foes", () => {
  test("foe classes and templates", () => {
    assert.equal(rules.foeMaxHp({ vit: 10, template: "", partySize: 4 }), 40);
    assert.equal(rules.foeMaxHp({ vit: 10, template: "elite", partySize: 4 }), 80, "Elite: double HP");
    assert.equal(rules.foeMaxHp({ vit: 10, template: "legend", partySize: 1 }), 100, "Legend: minimum 100");
    assert.equal(rules.foeMaxHp({ vit: 10, template: "legend", partySize: 3 }), 150, "Legend: 50 per PC");
    assert.equal(rules.foeMaxHp({ vit: 7, template: "mob", partySize: 4 }), 16, "Mob: 2 per PC, 2 hits each");
    assert.deepEqual([rules.foeTurns({ template: "", partySize: 4 }), rules.foeTurns({ template: "elite", partySize: 4 }),
      rules.foeTurns({ template: "legend", partySize: 3 })], [1, 2, 3]);
    const legend = rules.foePresetUpdate("skirmisher", "legend", 4);
    assert.deepEqual([legend["system.defense"], legend["system.damageDie"], legend["system.fray"], legend["system.hp.max"]], [8, 8, 3, 200]);
    const heavy = rules.foePresetUpdate("heavy", "", 4);
    assert.deepEqual([heavy["system.vit"], heavy["system.defense"], heavy["system.damageDie"], heavy["system.fray"]], [10, 6, 6, 4]);
  });
  test("chapter and size outside 1–3 are refused", () => {
    assert.deepEqual(rules.validateFoe({ chapter: 2, size: 3 }), []);
    assert.equal(rules.validateFoe({ chapter: 4, size: 1 })[0].key, "ICONENGINE.Validation.Range");
  });
});

describe("character validation", () => {
  const good = {
    wounds: 3, level: 5, actions: Object.fromEntries(rules.ACTIONS.map(a => [a, 2])),
    strain: { value: 2, max: 5 }, burdens: [{ name: "Grief", clock: 6, filled: 2 }]
  };
  test("a valid character passes", () => assert.deepEqual(rules.validateCharacter(good), []));
  test("a 5th wound, an action rating of 7, strain over max, a 4th burden, an overfilled clock are refused", () => {
    const message = error => error.key && lookup(error.key).replace(/{(\w+)}/g, (_, k) => error.data[k]);
    const wound = rules.validateCharacter({ ...good, wounds: 5 });
    assert.equal(message(wound[0]), "wounds must be a whole number from 0 to 4 (got 5).");
    const rating = rules.validateCharacter({ ...good, actions: { ...good.actions, smash: 7 } });
    assert.equal(message(rating[0]), "actions.smash must be a whole number from 0 to 4 (got 7).");
    assert.equal(rules.validateCharacter({ ...good, strain: { value: 6, max: 5 } })[0].key, "ICONENGINE.Validation.Strain");
    assert.equal(rules.validateCharacter({ ...good, burdens: Array(4).fill(good.burdens[0]) })[0].key, "ICONENGINE.Validation.Burdens");
    assert.equal(message(rules.validateCharacter({ ...good, burdens: [{ name: "x", clock: 4, filled: 5 }] })[0]),
      "Burden 1 has 5 filled segments but its clock only has 4.");
  });
  test("HP is clamped into [0, max]", () => {
    const current = { hp: { value: 20, max: 40 } };
    assert.deepEqual(rules.clampHealth({ hp: { value: 55 } }, current, 40), { hp: { value: 40 } });
    assert.deepEqual(rules.clampHealth({ hp: { value: -3 } }, current, 40), { hp: { value: 0 } });
    assert.deepEqual(rules.clampHealth({ hp: { value: 33 } }, current, 40), {});
    assert.deepEqual(rules.clampHealth({ vit: 4 }, current, 16), { hp: { value: 16 } }, "lowering VIT lowers HP to the new max");
  });
  test("chapters by level", () => {
    assert.deepEqual([0, 1, 4, 5, 8, 9, 12].map(rules.chapterOfLevel), [1, 1, 1, 2, 2, 3, 3]);
  });
});

describe("statuses", () => {
  test("ongoing statuses reach the core with + and are not saveable", () => {
    const statuses = rules.coreStatuses([{ statuses: ["dazed"], ongoing: false }, { statuses: ["blind"], ongoing: true },
      { statuses: ["bloodied"], ongoing: false }]);
    assert.deepEqual(statuses, ["dazed", "blind+", "bloodied"]);
    assert.deepEqual(core.iconSaveable(statuses), ["dazed"]);
  });
  test("Bloodied follows the core's derived value", () => {
    const derived = core.iconDerived({ hp: 20, maxHp: 40, vigor: 0, wounds: 0 });
    assert.equal(derived.bloodied, true);
    assert.equal(rules.bloodiedChange(derived, false), true);
    assert.equal(rules.bloodiedChange(derived, true), null);
    assert.equal(rules.bloodiedChange(core.iconDerived({ hp: 21, maxHp: 40, vigor: 0, wounds: 0 }), true), false);
    assert.equal(rules.bloodiedChange(null, true), null, "core not loaded: leave it");
  });
  test("every status has an icon and glossary text", async () => {
    const { ICONENGINE } = await import("../../module/config.mjs");
    const { existsSync } = await import("node:fs");
    const ids = Object.values(ICONENGINE.statuses).flat();
    assert.equal(ids.length, 26);
    for (const id of ids) {
      assert.ok(existsSync(new URL(`../../assets/icons/statuses/${id}.svg`, import.meta.url)), id);
      assert.ok(lookup(`ICONENGINE.Status.${id}.hint`)?.length > 10, id);
      assert.equal(typeof lookup(`ICONENGINE.Status.${id}.name`), "string");
    }
    assert.equal(lookup("ICONENGINE.Status.dazed.hint"), "+1 curse on all of your attack rolls while dazed.");
  });
});
