/**
 * What the sheets let a user edit: every field of the data models that a sheet owns has its input
 * in the sheet's template. The schemas are built with stand-in field classes (as in
 * token-bars.test.mjs); the templates are read as text.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

class DataField { constructor(options = {}) { this.options = options; } }
class SchemaField extends DataField { constructor(fields, options) { super(options); this.fields = fields; } }
class ArrayField extends DataField { constructor(element, options) { super(options); this.element = element; } }
const fields = { SchemaField, ArrayField, NumberField: class extends DataField {}, StringField: class extends DataField {},
  BooleanField: class extends DataField {}, HTMLField: class extends DataField {} };
globalThis.foundry = { data: { fields }, abstract: { TypeDataModel: class {} } };

const { AbilityData } = await import("../../module/data/_module.mjs");

/** The `name="…"` attributes of a template's inputs. */
const inputNames = path => new Set([...readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")
  .matchAll(/name="([^"]+)"/g)].map(m => m[1]));

test("every roll field of an ability is on the ability sheet, save for half included", () => {
  const roll = AbilityData.defineSchema().roll;
  assert.ok(roll instanceof SchemaField);
  const names = inputNames("templates/item/ability.hbs");
  const expected = Object.keys(roll.fields).map(key => `system.roll.${key}`);
  assert.ok(expected.includes("system.roll.saveForHalf"));
  for (const name of expected) assert.ok(names.has(name), `${name} has an input`);
});

test("every sheet's name input is labelled Name for screen readers (the character's once read Biography)", () => {
  const lang = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));
  const key = k => k.split(".").reduce((o, part) => o?.[part], lang);
  for (const path of ["templates/actor/character-header.hbs", "templates/actor/hero.hbs", "templates/actor/foe.hbs",
    "templates/item/item.hbs", "templates/item/ability.hbs"]) {
    const text = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
    const input = text.match(/<input[^>]*name="name"[^>]*>/)?.[0];
    assert.ok(input, `${path} has a name input`);
    const label = input.match(/aria-label="\{\{localize "([^"]+)"\}\}"/)?.[1];
    assert.ok(label, `${path}: the name input has an i18n aria-label`);
    assert.equal(key(label), "Name", `${path}: ${label}`);
  }
});
