/**
 * The browser harness (test/browser/harness.html and the files it serves) stands in for what a
 * Foundry page has around the system: every stylesheet system.json lists, linked in its order as
 * Foundry links them, and a stand-in for each of Foundry's core icons (`icons/svg/…`, served by
 * Foundry, not by the system) that the system, its content packs or the shim name, so no sheet,
 * card or screenshot shows a broken image.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HARNESS = await readFile(join(ROOT, "test/browser/harness.html"), "utf8");
const MANIFEST = JSON.parse(await readFile(join(ROOT, "system.json"), "utf8"));
/** Where the harness page's relative `icons/svg/x.svg` resolves (the page is test/browser/harness.html). */
const STAND_INS = join(ROOT, "test/browser/icons/svg");

/**
 * Every text file under a directory, with its path from the root.
 * @param {string} dir  From the root.
 * @param {RegExp} name
 */
async function texts(dir, name) {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true });
  return Promise.all(entries.filter(e => e.isFile() && name.test(e.name)).map(async e => {
    const path = join(e.parentPath, e.name);
    return { path: relative(ROOT, path), text: await readFile(path, "utf8") };
  }));
}

/** @param {string} text */
const coreIcons = text => [...text.matchAll(/\bicons\/svg\/[\w-]+\.svg\b/g)].map(m => m[0]);

test("the harness links every stylesheet system.json lists, in its order, after Foundry's stand-in", () => {
  const links = [...HARNESS.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map(m => m[1]);
  const system = links.filter(href => href.startsWith("/styles/")).map(href => href.slice(1));
  assert.deepEqual(system, MANIFEST.styles);
  assert.ok(links.indexOf("./foundry/foundry-v13.css") < links.indexOf(`/${MANIFEST.styles[0]}`), "Foundry's own CSS comes first");
});

test("every core icon the system, its content packs and the shim name has a stand-in the harness serves", async () => {
  const files = [
    ...await texts("module", /\.mjs$/), ...await texts("templates", /\.hbs$/), ...await texts("assets", /\.json$/),
    ...await texts("test/browser", /^foundry-shim\.mjs$/), ...await texts("test/browser/shim", /\.mjs$/), ...await texts("test/support", /\.mjs$/)
  ];
  const named = new Map();
  for (const { path, text } of files) for (const icon of coreIcons(text)) named.set(icon, [...(named.get(icon) ?? []), path]);
  // The system's defaults are among them: the content pack's per-type images and the actors' CONST.DEFAULT_TOKEN.
  for (const icon of ["icons/svg/mystery-man.svg", "icons/svg/item-bag.svg", "icons/svg/lightning.svg", "icons/svg/book.svg"]) {
    assert.ok(named.has(icon), `${icon} is named`);
  }
  const missing = [...named].filter(([icon]) => !existsSync(join(STAND_INS, icon.slice("icons/svg/".length)))).map(([icon, paths]) => `${icon} (${paths.join(", ")})`);
  assert.deepEqual(missing, []);
});

test("the check finds each core icon a text names, and nothing else", () => {
  assert.deepEqual(coreIcons('img: "icons/svg/sword.svg", src: `icons/svg/d20-grey.svg`, x: "systems/icon-engine/assets/icons/svg/a.png"'),
    ["icons/svg/sword.svg", "icons/svg/d20-grey.svg"]);
});
