/**
 * The manifest points at files that exist, and every i18n key the code and templates use is in
 * lang/en.json. Needs no wasm.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = path => readFileSync(join(root, path), "utf8");
const manifest = JSON.parse(read("system.json"));

/** @param {string} dir @returns {string[]} */
function walk(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

describe("system.json", () => {
  test("identity and compatibility", () => {
    assert.equal(manifest.id, "icon-engine");
    assert.equal(manifest.title, "ICON Engine");
    assert.deepEqual(manifest.compatibility, { minimum: "13", verified: "13" });
    assert.equal(manifest.version, JSON.parse(read("package.json")).version);
  });

  test("every referenced file exists", () => {
    const files = [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map(l => l.path)];
    for (const file of files) assert.ok(existsSync(join(root, file)), `${file} is missing`);
  });

  test("document types", () => {
    assert.deepEqual(Object.keys(manifest.documentTypes.Actor).sort(), ["character", "foe", "hero"]);
    assert.deepEqual(Object.keys(manifest.documentTypes.Item).sort(), ["ability", "relic", "trait"]);
  });
});

describe("lang/en.json", () => {
  const en = JSON.parse(read("lang/en.json"));
  /** @param {string} key */
  const lookup = key => key.split(".").reduce((node, part) => node?.[part], en);

  test("every ICONENGINE.* key used in module/ and templates/ exists", () => {
    const sources = [...walk("module"), ...walk("templates")].filter(f => /\.(mjs|hbs)$/.test(f));
    const texts = sources.map(read);
    // A tab group's labelPrefix names an object of labels (Foundry appends the tab id), not a string.
    const prefixes = new Set(texts.flatMap(text => [...text.matchAll(/labelPrefix:\s*"(ICONENGINE(?:\.\w+)+)"/g)].map(m => m[1])));
    const keys = new Set(texts.flatMap(text => [...text.matchAll(/"(ICONENGINE(?:\.\w+)+)"/g)].map(m => m[1])));
    assert.ok(keys.size > 5, "found the keys");
    for (const key of keys) {
      if (prefixes.has(key)) {
        const labels = lookup(key);
        assert.equal(typeof labels, "object", `${key} (a labelPrefix) is missing`);
        assert.ok(Object.values(labels).every(label => typeof label === "string"), `${key}: every tab has a label`);
      } else assert.equal(typeof lookup(key), "string", `${key} is missing`);
    }
  });

  test("every document type has a label", () => {
    for (const [document, types] of Object.entries(manifest.documentTypes)) {
      for (const type of Object.keys(types)) assert.equal(typeof en.TYPES[document][type], "string");
    }
  });
});
