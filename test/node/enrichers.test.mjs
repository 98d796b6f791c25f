// @Icon link parsing and the glossary pattern (the DOM side is in test/browser/enrichers.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import IconEnrichers from "../../module/enrichers.mjs";

test("@Icon[...] arguments become core requests", () => {
  assert.deepEqual(IconEnrichers.parseLink("attack boons=1 defense=12"), { kind: "icon.attack", boons: 1, defense: 12 });
  assert.deepEqual(IconEnrichers.parseLink("action smash push"), { kind: "icon.action", action: "smash", push: true });
  assert.deepEqual(IconEnrichers.parseLink("damage hit d8 dice=2 fray=3"), { kind: "icon.damage", result: "hit", die: 8, dice: 2, fray: 3 });
  assert.deepEqual(IconEnrichers.parseLink("fortune dice=3"), { kind: "icon.fortune", dice: 3 });
  assert.throws(() => IconEnrichers.parseLink("teleport"), /ICONENGINE.Enricher.UnknownKind/);
  assert.throws(() => IconEnrichers.parseLink("action"), /ICONENGINE.Enricher.NoAction/);
  assert.throws(() => IconEnrichers.parseLink("attack boons=<b>"), /ICONENGINE.Enricher.BadPart/);
});

test("the glossary pattern matches whole words, longest first, with keys escaped", () => {
  const pattern = IconEnrichers.termPattern(["armor", "armor x", "dazed", "a+b"]);
  assert.ok(pattern);
  // "aab" would match an unescaped a+b
  const found = [..."Armor X and armor; dazed, undazed, aab, a+b".matchAll(pattern)].map(m => m[1]);
  assert.deepEqual(found, ["Armor X", "armor", "dazed", "a+b"]);
  assert.equal(IconEnrichers.termPattern([]), null);
});
