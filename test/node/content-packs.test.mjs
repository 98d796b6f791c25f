/**
 * Content packs (docs/content-packs.md; module/packs/content-pack.mjs): the planner's report
 * accounts for every record (`records = valid + bad`), names each bad one with its field, and
 * plans documents with stable ids and UUIDs into the compendiums they go to; the system's example
 * pack plans clean, the build compiled exactly its plan (read back with foundryvtt-cli), and its
 * wording is its own (no run of words from the rules reference).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import { CONTENT_PACK_FORMAT, ID_PATTERN, KINDS, cliSources, derivedId, failureOf, planContentPack, recordIdMaker, worldPacks } from "../../module/packs/content-pack.mjs";
import { EXAMPLE_PACKS, examplePlan } from "../../scripts/content-pack.mjs";

const root = new URL("../../", import.meta.url);
const pack = (more = {}) => ({ format: CONTENT_PACK_FORMAT, version: 1, id: "test-pack", name: "Test", ...more });
const ability = (id, more = {}) => ({ id, name: id.replace(/-/g, " "), description: "<p>x</p>", ...more });

describe("planning a content pack", () => {
  test("what is no content pack is refused whole, saying why", () => {
    assert.throws(() => planContentPack("{nope"), /not JSON/);
    assert.throws(() => planContentPack("[1]"), /a content pack is a JSON object/);
    assert.throws(() => planContentPack({ ...pack(), format: "dnd5e" }), /"format" must be "icon-engine-content-pack"/);
    assert.throws(() => planContentPack({ ...pack(), version: 2 }), /"version" must be 1/);
    assert.throws(() => planContentPack({ ...pack(), id: "Bad Id" }), /"id" must be lowercase letters/);
    assert.throws(() => planContentPack(pack({ abilities: {} })), /"abilities" must be a list of records/);
    assert.throws(() => planContentPack(pack({ traits: Array.from({ length: 2001 }, (_, i) => ({ id: `t${i}`, name: "t" })) })), /at most 2000 records/);
  });

  test("every record is accounted for: planned, or named with the field at fault", () => {
    const plan = planContentPack(pack({
      jobs: [{ id: "bastion", name: "Bastion", class: "stalwart", grants: ["bash", "ghost"] }],
      abilities: [ability("bash", { tags: ["attack"] }), ability("bash"), ability("Bad Id"), "not a record", ability("blink", { colour: "red" }),
        { id: "nameless", description: "" }],
      traits: [{ id: "bash", name: "Same id as an ability" }],
      foes: [{ id: "ogre", name: "Ogre", foeClass: "heavy", abilities: ["bash"], traits: "bash" }, { id: "imp", name: "Imp", abilities: ["nope"] }],
      spells: []
    }));
    const { report } = plan;
    assert.equal(report.records, 10);
    assert.equal(report.records, report.valid + report.bad.length, "every record in one bucket");
    const bad = Object.fromEntries(report.bad.map(b => [`${b.kind}#${b.index}`, `${b.id}|${b.field}|${b.message}`]));
    assert.deepEqual(bad, {
      "abilities#1": "bash|id|\"bash\" is the id of another item record",
      "abilities#2": "Bad Id|id|must be lowercase letters, digits and dashes (at most 64)",
      "abilities#3": "|| a record is a JSON object".replace("|| ", "||"),
      "abilities#4": "blink|colour|not a field of abilities records (they have description, combo, actions, interrupt, trigger, tags, resolveCost, range, area, roll, attack, save, effects, charges, limit)",
      "abilities#5": "nameless|name|must be a name (text)",
      "traits#0": "bash|id|\"bash\" is the id of another item record",
      "jobs#0": "bastion|grants|\"ghost\" is no ability, trait or relic of this pack",
      "foes#0": "ogre|traits|must be a list of record ids",
      "foes#1": "imp|abilities|\"nope\" is no ability, trait or relic of this pack"
    });
    assert.deepEqual(report.kinds, { classes: 0, jobs: 0, abilities: 1, traits: 0, relics: 0, foeTemplates: 0, foes: 0 });
    assert.deepEqual(report.warnings, [{ kind: "pack", id: "test-pack", field: "spells", message: "not a field of a content pack: ignored" }]);
    assert.equal(plan.items.length, 1);
  });

  test("documents: stable ids, grants as UUIDs into the item compendium, foes carrying copies of their items at full HP", () => {
    const packs = worldPacks("test-pack");
    const input = pack({
      classes: [{ id: "stalwart", name: "Stalwart", grants: ["iron"] }],
      jobs: [{ id: "bastion", name: "Bastion", class: "stalwart", grants: ["bash"] }],
      abilities: [ability("bash", { tags: ["attack"], range: { kind: "melee", value: 1 } })],
      traits: [{ id: "iron", name: "Iron" }],
      foeTemplates: [{ id: "veteran", name: "Veteran", template: "elite", grants: ["iron"] }],
      foes: [{ id: "ogre", name: "Ogre", foeClass: "heavy", template: "elite", abilities: ["bash"], traits: ["iron"], defense: 9 }]
    });
    const plan = planContentPack(input);
    const again = planContentPack(JSON.stringify(input));
    assert.deepEqual(again.items.map(d => d._id), plan.items.map(d => d._id), "the same ids every time");
    const byName = Object.fromEntries(plan.items.map(d => [d.name, d]));
    const bash = byName.bash;
    assert.equal(bash._id, derivedId("icon-engine.content:test-pack.ability.bash"));
    assert.match(bash._id, /^[0-9A-Za-z]{16}$/);
    assert.deepEqual(byName.Bastion.system, { class: "stalwart", key: "bastion", grants: [`Compendium.${packs.items}.Item.${bash._id}`] });
    assert.equal(byName.Stalwart.type, "class");
    assert.deepEqual([byName.Veteran.type, byName.Veteran.system.template, byName.Veteran.system.key], ["foeTemplate", "elite", "veteran"]);
    const [ogre] = plan.actors;
    assert.equal(ogre.type, "foe");
    // a heavy's numbers (module/data/rules.mjs FOE_CLASSES), the record's defense over them, an elite's HP (8 × VIT)
    assert.deepEqual([ogre.system.vit, ogre.system.defense, ogre.system.damageDie, ogre.system.fray], [10, 9, 6, 4]);
    assert.deepEqual(ogre.system.hp, { value: 80, max: 80 });
    assert.deepEqual(ogre.items.map(i => [i.name, i._stats.compendiumSource]), [["bash", `Compendium.${packs.items}.Item.${bash._id}`],
      ["Iron", `Compendium.${packs.items}.Item.${byName.Iron._id}`]]);
    assert.notEqual(ogre.items[0]._id, bash._id, "the foe's copy has its own id");
    // into other compendiums (the system's), the UUIDs follow
    const system = planContentPack(input, { packs: { items: "icon-engine.x", actors: "icon-engine.y" } });
    assert.match(system.items.find(d => d.name === "Bastion").system.grants[0], /^Compendium\.icon-engine\.x\.Item\./);
  });

  test("the data models' verdict is reported with its field; a grant of a record that failed is dropped with a warning", () => {
    const validate = (doc, documentName) => (doc.system?.area?.size > 12 ? { field: "system.area.size", message: "must be at most 12" }
      : documentName === "Actor" && doc.system.chapter > 3 ? { field: "system.chapter", message: "must be at most 3" } : null);
    const plan = planContentPack(pack({
      jobs: [{ id: "storm", name: "Storm", grants: ["hail", "zap"] }],
      abilities: [ability("hail", { area: { shape: "blast", size: 40 } }), ability("zap")],
      foes: [{ id: "giant", name: "Giant", chapter: 9 }, { id: "imp", name: "Imp", abilities: ["hail"] }]
    }), { validate });
    assert.deepEqual(plan.report.bad.map(b => [b.kind, b.id, b.field, b.message]), [
      ["abilities", "hail", "system.area.size", "must be at most 12"], ["foes", "giant", "system.chapter", "must be at most 3"]]);
    assert.equal(plan.report.valid, 3);
    const storm = plan.items.find(d => d.name === "Storm");
    assert.equal(storm.system.grants.length, 1, "only zap is granted");
    assert.deepEqual(plan.report.warnings.map(w => [w.kind, w.id, w.field]), [["jobs", "storm", "grants"], ["foes", "imp", "items"]]);
    assert.deepEqual(plan.actors.find(a => a.name === "Imp").items, []);
  });

  test("a validation error's field: a DataModelValidationError's failures, else its message's first path", () => {
    const error = Object.assign(new Error("Item [x] validation errors"), { getAllFailures: () => ({ "system.area.size": { message: "must be at most 12" } }) });
    assert.deepEqual(failureOf(error), { field: "system.area.size", message: "must be at most 12" });
    assert.deepEqual(failureOf(new Error("Item [abc] validation errors:\n  system.effects.0.status: ogre is not a valid choice")),
      { field: "system.effects.0.status", message: "ogre is not a valid choice" });
    assert.deepEqual(failureOf(new Error("boom")), { field: "", message: "boom" });
  });
});

test("a converted pack's record ids: slugged to the id alphabet, unique in the pack, never empty", () => {
  const idOf = recordIdMaker();
  const ids = ["Ogre Chief", "ogre  chief!", "OGRE-CHIEF", "¡¡¡", "Crème brûlée", "x".repeat(80), ""].map(idOf);
  assert.deepEqual(ids.slice(0, 5), ["ogre-chief", "ogre-chief-2", "ogre-chief-3", "record", "creme-brulee"]);
  assert.equal(ids[5], "x".repeat(56));
  assert.equal(ids[6], "record-2");
  for (const id of ids) assert.match(id, ID_PATTERN);
  // a second pack starts afresh
  assert.equal(recordIdMaker()("Ogre Chief"), "ogre-chief");
});

describe("the system's example pack", () => {
  test("plans clean: every record of every kind", () => {
    const { report, items, actors } = examplePlan();
    assert.deepEqual(report.bad, []);
    assert.deepEqual(report.warnings, []);
    assert.equal(report.valid, report.records);
    for (const kind of KINDS) assert.ok(report.kinds[kind] > 0, `the example has ${kind}`);
    assert.ok(items.some(i => i.type === "ability" && i.system.area?.shape === "blast" && i.system.tags.includes("attack")), "an area attack");
    assert.equal(actors.length, report.kinds.foes);
  });

  test("the build compiled exactly its plan into the system's compendiums (read back with foundryvtt-cli)", async () => {
    const sources = cliSources(examplePlan());
    for (const [name, docs] of [["example-items", sources.items], ["example-foes", sources.actors]]) {
      const compiled = new URL(`packs/${name}`, root);
      assert.ok(existsSync(compiled), `packs/${name} is built by scripts/build.sh`);
      const out = mkdtempSync(path.join(tmpdir(), "icon-content-"));
      try {
        await extractPack(compiled.pathname, out);
        const read = readdirSync(out).map(f => JSON.parse(readFileSync(path.join(out, f), "utf8")));
        const strip = d => ({ _id: d._id, name: d.name, type: d.type, system: d.system, items: (d.items ?? []).map(i => ({ _id: i._id, name: i.name, system: i.system })) });
        assert.deepEqual(read.map(strip).sort((a, b) => a._id.localeCompare(b._id)), docs.map(strip).sort((a, b) => a._id.localeCompare(b._id)), name);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }
    const manifest = JSON.parse(readFileSync(new URL("system.json", root), "utf8"));
    assert.deepEqual(Object.values(EXAMPLE_PACKS).map(id => manifest.packs.find(p => `${manifest.id}.${p.name}` === id)?.type), ["Item", "Actor"]);
  });

  test("its wording is its own: no run of eight words from the rules reference", () => {
    const words = html => html.replace(/<[^>]+>/g, " ").replace(/&[a-z#0-9]+;/gi, " ").toLowerCase().match(/[a-z0-9']+/g) ?? [];
    const seed = new URL("tests/fixtures/seeds/icon-rules-reference.db", root);
    const reference = ` ${words(readFileSync(seed, "utf8")).join(" ")} `;
    const example = JSON.parse(readFileSync(new URL("assets/content-packs/example.json", root), "utf8"));
    const texts = KINDS.flatMap(kind => (example[kind] ?? []).flatMap(r => [r.name, r.description ?? "", r.biography ?? "", r.trigger ?? "",
      ...(r.effects ?? []).flatMap(e => [e.text ?? "", e.movement ?? ""])]));
    let runs = 0;
    for (const text of texts) {
      const w = words(text);
      for (let i = 0; i + 8 <= w.length; i++) {
        runs++;
        assert.ok(!reference.includes(` ${w.slice(i, i + 8).join(" ")} `), `"${w.slice(i, i + 8).join(" ")}" is in the rules reference`);
      }
    }
    assert.ok(runs > 50, "the check read the example's text");
  });
});
