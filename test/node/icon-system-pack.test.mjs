// Issue 37, item 4: another ICON system's exported compendium (the Svelte "ICON" system's item and
// actor documents; tests/fixtures/other-systems, written for this project in that shape) becomes a
// content pack of this system's types, its abilities read by the same parser as pasted text; the
// content-pack report accounts for every document.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import importer from "../support/load-importer.mjs";
import { iconSystemPack } from "../../module/packs/icon-system-pack.mjs";
import { planContentPack } from "../../module/packs/content-pack.mjs";

const text = readFileSync(new URL("../../tests/fixtures/other-systems/icon-svelte-export.db", import.meta.url), "utf8");

test("abilities, traits, relics, jobs and foes in this system's fields; what has no counterpart named", () => {
  const { pack, bad, warnings } = iconSystemPack(text, importer);
  const plan = planContentPack(pack);
  assert.deepEqual(plan.report.bad, [], "the converted pack is a valid content pack");
  const ability = (/** @type {string} */ name) => pack.abilities.find(a => a.name === name);
  const sweep = ability("Lantern Sweep");
  assert.equal(sweep.actions, "2");
  assert.deepEqual(sweep.tags, ["attack"]);
  assert.deepEqual(sweep.range, { kind: "range", value: 5 });
  assert.deepEqual(sweep.area, { shape: "blast", size: 2 }, "a medium blast is Blast 2");
  assert.deepEqual(sweep.attack, { trueStrike: true });
  assert.deepEqual(sweep.roll, { hitDice: 1, frayOnMiss: true });
  assert.deepEqual(sweep.effects, [{ trigger: "hit", status: "dazed", duration: "save" }]);
  const fang = ability("Twin Fang");
  assert.deepEqual(fang.tags, ["attack", "combo"]);
  assert.equal(fang.combo, "<p>Strike again, and the target is weakened.</p>");
  const guard = ability("Steady Guard");
  assert.deepEqual([guard.actions, guard.interrupt, guard.trigger], ["interrupt", 1, "An ally in range 2 is attacked"]);
  assert.deepEqual(guard.effects, [{ trigger: "use", status: "dodge", duration: "save" }]);
  assert.deepEqual(pack.traits.map(t => t.name).sort(), ["Deep Roots", "Hot Hide"]);
  assert.equal(pack.relics[0].description, "<p>Warm to the touch. alert(1)</p>", "markup is dropped, its text escaped");
  assert.deepEqual(pack.jobs, [{ id: "job-lamplighter", name: "Lamplighter", class: "wright", description: "<p>Keeps the dark at bay.</p>",
    grants: ["lantern-sweep", "twin-fang"] }]);
  const [brute, wisp] = pack.foes;
  assert.deepEqual({ ...brute, abilities: brute.abilities.length, traits: brute.traits.length },
    { id: "foe-cinder-brute", name: "Cinder Brute", foeClass: "heavy", template: "elite", vit: 9, defense: 6, speed: 3, dash: 1, fray: 4, damageDie: 8,
      chapter: 2, biography: "<p>Smoulders.</p>", abilities: 1, traits: 1, relics: [] });
  assert.deepEqual(ability("Coal Fist").effects, [{ trigger: "hit", move: { kind: "shove", spaces: 1 } }]);
  assert.equal(wisp.foeClass, "skirmisher");
  // every document accounted for
  assert.deepEqual(bad.map(b => [b.id, b.field]).sort(), [["Oathkeeper", "type"], ["Some Hero", "type"], ["line 4", "(line)"]]);
  const said = warnings.map(w => `${w.id} ${w.field}: ${w.message}`);
  assert.ok(said.includes("Lantern Wisp type: a summon: imported as a foe"), said.join("\n"));
  assert.ok(said.some(w => /^Lamplighter system.abilities: Compendium.icon.abilities.Item.missing0000000001 is not in this export/.test(w)), said.join("\n"));
  assert.ok(said.some(w => /^Cinder Brute items.2.type: left out: a "bond_power" has no counterpart/.test(w)), said.join("\n"));
  assert.deepEqual([plan.report.records, plan.report.valid], [10, 10], "4 abilities, 2 traits, a relic, a job, 2 foes");
});
