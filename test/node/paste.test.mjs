// Issue 37 through the built importer wasm: parseAbilityText and parseFoeText as module/packs/
// importer.mjs hands them to JS, on the corpus of ability texts (tests/fixtures/ability-texts),
// their arguments checked, a paste past the limit refused naming it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import importer from "../support/load-importer.mjs";

const corpus = JSON.parse(readFileSync(new URL("../../tests/fixtures/ability-texts/corpus.json", import.meta.url), "utf8"));

/** @param {{system: Record<string, unknown>}[]} items */
const stated = items => items.map(({ system: { description, ...system }, ...rest }) => ({ ...rest, system }));

test("the corpus parses through the wasm exactly as the Rust tests state it", () => {
  assert.ok(corpus.length >= 60);
  let exact = 0;
  for (const entry of corpus) {
    const { items, unparsed } = importer.parseAbilityText(entry.text);
    assert.ok(Array.isArray(unparsed));
    if (JSON.stringify(sortKeys(stated(items))) === JSON.stringify(sortKeys(entry.items))) exact++;
    for (const item of items) assert.match(item.system.description, /^(<p>[^<>]*<\/p>)+$/, "the description is escaped paragraphs");
  }
  assert.ok(exact / corpus.length >= 0.95, `${exact} of ${corpus.length}`);
});

/** @param {unknown} value @returns {unknown} */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}

test("the glossary's light attack is an ability item, nothing left over", () => {
  const { items, unparsed } = importer.parseAbilityText("Light attack (1 action): Make an attack roll. On hit: [D] + fray, Miss: fray.");
  assert.deepEqual(unparsed, []);
  assert.deepEqual(items, [{ name: "Light attack", type: "ability", system: {
    description: "<p>Light attack (1 action): Make an attack roll. On hit: [D] + fray, Miss: fray.</p>",
    actions: "1", tags: ["attack"], roll: { hitDice: 1, frayOnMiss: true } } }]);
});

test("traits and relics by the type option; an unknown option is refused by name", () => {
  const { items } = importer.parseAbilityText("Iron Will: You cannot be dazed.", { type: "trait" });
  assert.deepEqual(items.map(i => [i.name, i.type]), [["Iron Will", "trait"]]);
  assert.throws(() => importer.parseAbilityText("x", { kind: "trait" }), /kind/);
  assert.throws(() => importer.parseAbilityText("x", { type: "spell" }), /spell/);
});

test("a non-string is an Error; a paste past 1 MiB is refused naming the limit, before it is read", () => {
  for (const bad of [undefined, null, 3, {}, ["a"]]) assert.throws(() => importer.parseAbilityText(bad), /text must be a string/);
  assert.throws(() => importer.parseFoeText(7), /text must be a string/);
  const big = "Lantern Bolt (2 actions, Attack, Range 6): On hit: 2[D] + fray. Miss: fray.\n".repeat(27000);
  assert.ok(big.length > 2_000_000);
  assert.throws(() => importer.parseAbilityText(big), /at most 1 MiB is read at once/);
  assert.throws(() => importer.parseFoeText(big), /at most 1 MiB is read at once/);
});

test("a foe's stat block: its numbers, class and template, traits and actions", () => {
  const block = [
    "GRAVEL WARDEN", "Heavy Elite, Chapter 2", "HP 64, Defense 8, Speed 3, Fray 3, Damage d8",
    "Traits", "Stone Hide: Attacks against the warden take 1 curse.",
    "Actions", "Slam (1 action, Attack, Melee): On hit: 2[D] + fray, and shove the target 1 space. Miss: fray.",
    "Rumble (2 actions, Area, Burst 2): Area effect: Foes in the area must save or be dazed."
  ].join("\n");
  const { foe, items, unparsed } = importer.parseFoeText(block);
  assert.equal(foe.name, "Gravel Warden");
  assert.deepEqual(foe.system, { foeClass: "heavy", template: "elite", chapter: 2, vit: 8, defense: 8, speed: 3, fray: 3, damageDie: 8 });
  assert.deepEqual(items.map(i => [i.name, i.type]), [["Stone Hide", "trait"], ["Slam", "ability"], ["Rumble", "ability"]]);
  assert.deepEqual(items[1].system.effects, [{ trigger: "hit", move: { kind: "shove", spaces: 1 } }]);
  assert.deepEqual(unparsed, []);
});
