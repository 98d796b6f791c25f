/**
 * The manifest points at files that exist, has the v13 package manifest's shape (type-checked
 * against foundry-vtt-types' declarations by the TypeScript compiler, every pack entry included),
 * and every i18n key the code and templates use is in lang/en.json. Needs no wasm.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestTypeErrors, manifestValueProblems, withRepositoryFields } from "../../scripts/release-manifest.mjs";

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
    // Issue 40: `minimum` the earliest generation the code was checked against (13: foundry-vtt-types
    // 13.345, the v13 shim); no `verified` until the Quench batch has passed in a real Foundry of
    // that version, which nobody has run (README, "Verify on your Foundry").
    assert.deepEqual(manifest.compatibility, { minimum: "13" });
    assert.equal(manifest.version, JSON.parse(read("package.json")).version);
  });

  test("every referenced file exists", () => {
    const files = [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map(l => l.path)];
    for (const file of files) assert.ok(existsSync(join(root, file)), `${file} is missing`);
  });

  test("document types", () => {
    assert.deepEqual(Object.keys(manifest.documentTypes.Actor).sort(), ["character", "foe", "hero"]);
    assert.deepEqual(Object.keys(manifest.documentTypes.Item).sort(), ["ability", "class", "foeTemplate", "job", "relic", "trait"]);
  });
});

/** foundryvtt-cli's _key prefix (the world collection's name) per compendium document type. */
const COLLECTIONS = /** @type {Record<string, string>} */ ({ Actor: "actors", Adventure: "adventures", Cards: "cards",
  Item: "items", JournalEntry: "journal", Macro: "macros", Playlist: "playlists", RollTable: "tables", Scene: "scenes" });

describe("system.json against the v13 package manifest declarations", () => {
  const pack = manifest.packs[0];
  const without = (/** @type {Record<string, unknown>} */ object, /** @type {string} */ key) =>
    Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
  // What the build ships: system.json as committed, with a release's URLs, and without any.
  const good = {
    committed: manifest,
    release: withRepositoryFields(manifest, "https://github.com/example/icon-engine"),
    "no base": withRepositoryFields(manifest, null)
  };
  // Each is wrong in one way the declarations forbid; the check must say where.
  const bad = {
    "unknown key": [{ ...manifest, downlaod: "https://x" }, /downlaod"?' does not exist/],
    "version as a number": [{ ...manifest, version: 1 }, /manifest line 5: .*number/],
    "media url as a number": [{ ...manifest, media: [{ type: "screenshot", url: 5 }] }, /number/],
    "media with an unknown key": [{ ...manifest, media: [{ type: "screenshot", link: "x" }] }, /link"?' does not exist/],
    "no title": [without(manifest, "title"), /Property 'title' is missing/],
    "pack of a type Foundry has no compendium for": [{ ...manifest, packs: [{ ...pack, type: "Combat" }] }, /"Combat"' is not assignable/],
    "pack without a label": [{ ...manifest, packs: [without(pack, "label")] }, /Property 'label' is missing/],
    "pack with an unknown key": [{ ...manifest, packs: [{ ...pack, entity: "JournalEntry" }] }, /entity"?' does not exist/],
    "pack ownership level that does not exist": [{ ...manifest, packs: [{ ...pack, ownership: { PLAYER: "READ" } }] }, /"READ"' is not assignable/],
    "document type that does not exist": [{ ...manifest, documentTypes: { Actress: {} } }, /Actress"?' does not exist/],
    "language without a path": [{ ...manifest, languages: [{ lang: "en", name: "English" }] }, /Property 'path' is missing/]
  };
  /** @type {Promise<Record<string, string[]>>} */
  let checked;
  const errors = () => (checked ??= manifestTypeErrors({ ...good, ...Object.fromEntries(Object.entries(bad).map(([k, [m]]) => [k, m])) }));

  test("the committed manifest and the ones the build writes type-check as a BaseSystem manifest", async () => {
    const all = await errors();
    for (const label of Object.keys(good)) assert.deepEqual(all[label], [], `${label}: ${all[label].join("; ")}`);
  });

  test("the type check fails on each kind of mistake, naming it", async () => {
    const all = await errors();
    for (const [label, [, message]] of Object.entries(bad)) {
      assert.equal(all[label].length, 1, `${label}: ${JSON.stringify(all[label])}`);
      assert.match(all[label][0], message, label);
    }
  });

  test("Foundry's own value checks pass (id, pack names, locales, https URLs)", () => {
    for (const [label, m] of Object.entries(good)) assert.deepEqual(manifestValueProblems(m), [], label);
    assert.deepEqual(manifestValueProblems({ ...manifest, id: "icon engine" }), ['id "icon engine": only letters, digits, - and _']);
    assert.deepEqual(manifestValueProblems({ ...manifest, id: "CON" }), ['id "CON" is a name operating systems reserve']);
    assert.deepEqual(manifestValueProblems({ ...manifest, packs: [{ ...pack, name: "rules.reference" }] }),
      ['packs[0].name "rules.reference" may not contain periods']);
    assert.deepEqual(manifestValueProblems({ ...manifest, packs: [{ ...pack, type: "Item", system: undefined }] }),
      ["packs[0] holds Items, so it must name its system"]);
    assert.deepEqual(manifestValueProblems({ ...manifest, languages: [{ lang: "en_", path: "lang/en.json" }] }),
      ['languages[0].lang "en_" is not a locale Intl.getCanonicalLocales accepts']);
    assert.deepEqual(manifestValueProblems({ ...manifest, download: "http://x/y.zip" }), ['download "http://x/y.zip" is not an https URL']);
  });

  test("every pack entry: unique name, its source in packs/_source, this system, path packs/<name>", () => {
    assert.ok(manifest.packs.length >= 1);
    assert.equal(new Set(manifest.packs.map((/** @type {any} */ p) => p.name)).size, manifest.packs.length);
    for (const p of manifest.packs) {
      assert.equal(p.path, `packs/${p.name}`, `${p.name}: the build compiles packs/_source/<name> to packs/<name>`);
      assert.equal(p.system, manifest.id, p.name);
      const sources = readdirSync(join(root, "packs/_source", p.name)).filter(f => f.endsWith(".json"));
      assert.ok(sources.length > 0, `${p.name}: packs/_source/${p.name} has its documents`);
      for (const file of sources) {
        const document = JSON.parse(read(join("packs/_source", p.name, file)));
        assert.equal(typeof document._id, "string", `${file}: a ${p.type} with an _id`);
        assert.ok(document._key.startsWith(`!${COLLECTIONS[p.type]}!`), `${file}: its _key is in the ${p.type} collection`);
      }
    }
  });

  test("the shipped license, readme and changelog exist", () => {
    assert.equal(manifest.license, "LICENSE");
    for (const file of ["LICENSE", "README.md", "CHANGELOG.md"]) assert.ok(existsSync(join(root, file)), file);
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
    // A count's string (formatPlural, pluralKey in module/applications/i18n.mjs) names an object of
    // plural forms: English needs `one` and `other`.
    const plurals = new Set(texts.flatMap(text => [...text.matchAll(/(?:formatPlural|pluralKey)\(\s*"(ICONENGINE(?:\.\w+)+)"/g)].map(m => m[1])));
    assert.ok(keys.size > 5, "found the keys");
    assert.ok(plurals.size > 5, "found the plural keys");
    for (const key of keys) {
      if (plurals.has(key)) {
        const forms = lookup(key);
        assert.equal(typeof forms?.one, "string", `${key}.one is missing`);
        assert.equal(typeof forms?.other, "string", `${key}.other is missing`);
      } else if (prefixes.has(key)) {
        const labels = lookup(key);
        assert.equal(typeof labels, "object", `${key} (a labelPrefix) is missing`);
        assert.ok(Object.values(labels).every(label => typeof label === "string"), `${key}: every tab has a label`);
      } else assert.equal(typeof lookup(key), "string", `${key} is missing`);
    }
  });

  test("every document type has a label", () => {
    for (const [document, types] of Object.entries(manifest.documentTypes)) {
      // a package's region behavior is `<package>.<type>` (Foundry's key TYPES.RegionBehavior.icon-engine.<type>)
      const labels = document === "RegionBehavior" ? en.TYPES[document]?.[manifest.id] : en.TYPES[document];
      for (const type of Object.keys(types)) assert.equal(typeof labels?.[type], "string", `${document}.${type}`);
    }
  });
});
