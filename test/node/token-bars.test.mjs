/**
 * Token bars: system.json names `hp` and `vigor` as every actor's primary and secondary token
 * attributes; Foundry offers an attribute as a bar only if the type's schema has it as a
 * SchemaField of NumberFields `value` and `max` (v13 TokenDocument._getTrackedAttributesFromSchema).
 * The schemas are built with stand-in field classes that record what they were given.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

class DataField { constructor(options = {}) { this.options = options; } }
class SchemaField extends DataField { constructor(fields, options) { super(options); this.fields = fields; } }
class ArrayField extends DataField { constructor(element, options) { super(options); this.element = element; } }
class NumberField extends DataField {}
const fields = { SchemaField, ArrayField, NumberField, StringField: class extends DataField {}, BooleanField: class extends DataField {},
  HTMLField: class extends DataField {} };
globalThis.foundry = { data: { fields }, abstract: { TypeDataModel: class {} } };

const { CharacterData, FoeData, HeroData } = await import("../../module/data/_module.mjs");

/** The bars and values Foundry finds in a schema (arrays are not walked, as in core). */
function trackedAttributes(schema, path = []) {
  const found = { bar: [], value: [] };
  for (const [name, field] of Object.entries(schema)) {
    const here = [...path, name];
    if (field instanceof SchemaField) {
      if (field.fields.value instanceof NumberField && field.fields.max instanceof NumberField) found.bar.push(here.join("."));
      else {
        const inner = trackedAttributes(field.fields, here);
        found.bar.push(...inner.bar);
        found.value.push(...inner.value);
      }
    } else if (field instanceof NumberField) found.value.push(here.join("."));
  }
  return found;
}

const manifest = JSON.parse(readFileSync(new URL("../../system.json", import.meta.url), "utf8"));

test("every actor type has the manifest's token bar attributes as value/max bars", () => {
  assert.deepEqual([manifest.primaryTokenAttribute, manifest.secondaryTokenAttribute], ["hp", "vigor"]);
  const types = { character: CharacterData, foe: FoeData, hero: HeroData };
  assert.deepEqual(Object.keys(types), Object.keys(manifest.documentTypes.Actor), "every manifest actor type is checked");
  for (const [type, model] of Object.entries(types)) {
    const { bar } = trackedAttributes(model.defineSchema());
    assert.ok(bar.includes(manifest.primaryTokenAttribute), `${type}: ${manifest.primaryTokenAttribute} is a bar (bars: ${bar})`);
    assert.ok(bar.includes(manifest.secondaryTokenAttribute), `${type}: ${manifest.secondaryTokenAttribute} is a bar (bars: ${bar})`);
  }
});

test("a new hero starts with full health and no vigor", () => {
  const { hp, vigor } = HeroData.defineSchema();
  assert.deepEqual([hp.fields.value.options.initial, hp.fields.max.options.initial], [10, 10]);
  assert.deepEqual([vigor.fields.value.options.initial, vigor.fields.max.options.initial], [0, 0]);
  assert.equal(hp.fields.value.options.min, 0, "health never goes negative");
});
