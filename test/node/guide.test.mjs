/**
 * The in-game guide: docs/guide.md, the "ICON Engine Guide" compendium the build makes of it
 * (scripts/guide-pack.mjs through the core's importer, compiled by foundryvtt-cli), and the
 * command list (module/applications/chat-commands.mjs COMMAND_LIST) the `/icon help` card reads.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import importer from "../support/load-importer.mjs";
import ChatCommands, { COMMAND_LIST } from "../../module/applications/chat-commands.mjs";
import { GUIDE_COLLECTION, GUIDE_ENTRY_ID, GUIDE_ENTRY_SLUG, guideId, guidePageUuid, guideSlug } from "../../module/guide.mjs";
import { guideExport, guideSections } from "../../scripts/guide-pack.mjs";

const root = new URL("../../", import.meta.url);
const markdown = readFileSync(new URL("docs/guide.md", root), "utf8");
const en = JSON.parse(readFileSync(new URL("lang/en.json", root), "utf8"));
const manifest = JSON.parse(readFileSync(new URL("system.json", root), "utf8"));

/** The guide's headings of depth 1 to 3, read line by line (outside fenced code), in order. */
function headings(text) {
  const found = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^(#{1,3}) +(.+?) *#*$/.exec(line);
    if (match) found.push({ depth: match[1].length, name: match[2].replace(/`([^`]*)`/g, "$1").replace(/\*\*([^*]*)\*\*/g, "$1") });
  }
  return found;
}

/** The rows of the table under a `###` heading: each row's cells, code spans unwrapped. */
function tableUnder(text, heading) {
  const start = text.indexOf(`\n### ${heading}\n`);
  assert.ok(start >= 0, `docs/guide.md has a "### ${heading}" section`);
  const section = text.slice(start + 1).split(/\n#{1,3} /)[0];
  return section.split("\n").filter(line => /^\|/.test(line) && !/^\| *-/.test(line)).slice(1)
    .map(line => line.split("|").slice(1, -1).map(cell => cell.trim().replace(/^`(.*)`$/, "$1")));
}

/** The compiled pack's entries, read back with foundryvtt-cli. */
async function compiledGuide() {
  const pack = new URL("packs/guide", root);
  assert.ok(existsSync(pack), "packs/guide is built by scripts/build.sh");
  const out = mkdtempSync(path.join(tmpdir(), "icon-guide-"));
  try {
    await extractPack(pack.pathname, out);
    return readdirSync(out).filter(f => f.endsWith(".json")).map(f => JSON.parse(readFileSync(path.join(out, f), "utf8")));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test("anchors are GitHub's, and ids the importer's derivation of them", () => {
  // what GitHub makes of the guide's own headings
  assert.equal(guideSlug("See the odds: /odds"), "see-the-odds-odds");
  assert.equal(guideSlug("Abilities, traits and relics"), "abilities-traits-and-relics");
  assert.equal(guideSlug("Men & Supermen's charts"), "men--supermens-charts");
  assert.equal(guideSlug("Élan vital_2"), "élan-vital_2");
  // the core's importer derives an id it has to replace from the old one (src/packs/migrate.rs):
  // an independent implementation of the same FNV-1a, so JS and Rust agree
  for (const slug of ["attack", GUIDE_ENTRY_SLUG, "see-the-odds-odds", "élan"]) {
    const { documents, report } = importer.importPack(JSON.stringify([{ _id: `${GUIDE_COLLECTION}:${slug}`, name: "x", pages: [] }]));
    assert.equal(report.warnings[0]?.kind, "idReplaced");
    assert.equal(documents[0]._id, guideId(slug), slug);
  }
  assert.match(guideId("attack"), /^[0-9A-Za-z]{16}$/);
  assert.equal(GUIDE_ENTRY_ID, guideId(GUIDE_ENTRY_SLUG));
  assert.equal(guidePageUuid("attack"), `Compendium.icon-engine.guide.JournalEntry.${GUIDE_ENTRY_ID}.JournalEntryPage.${guideId("attack")}`);
});

test("system.json declares the guide compendium", () => {
  const pack = manifest.packs.find(p => p.name === "guide");
  assert.deepEqual(pack && [pack.label, pack.type, pack.path, pack.ownership.PLAYER], ["ICON Engine Guide", "JournalEntry", "packs/guide", "OBSERVER"]);
  assert.equal(`${manifest.id}.${pack.name}`, GUIDE_COLLECTION);
  assert.equal(headings(markdown)[0].name, pack.label, "the guide's title is the compendium's name");
});

test("every heading of the guide is a page of the compiled compendium, in order, with its level", async () => {
  const entries = await compiledGuide();
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry._id, GUIDE_ENTRY_ID);
  const wanted = headings(markdown);
  assert.ok(wanted.length > 20, `${wanted.length} headings`);
  const pages = [...entry.pages].sort((a, b) => a.sort - b.sort);
  assert.deepEqual(pages.map(p => p.name), wanted.map(h => h.name));
  assert.deepEqual(pages.map(p => p.title.level), wanted.map(h => Math.max(1, h.depth - 1)));
  assert.deepEqual(pages.map(p => p._id), wanted.map((h, i) => guideId(i === 0 ? GUIDE_ENTRY_SLUG : guideSlug(h.name))));
  // the pack says what docs/guide.md says now (the build made it from this text)
  const entities = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " };
  const words = html => html.replace(/<[^>]+>/g, " ").replace(/&([a-z#0-9]+);/gi, (m, name) => entities[name] ?? m)
    .split(/\s+/).filter(Boolean);
  const expected = /** @type {{pages: {text: {content: string}}[]}} */ (guideExport(markdown)).pages;
  pages.forEach((page, i) => assert.deepEqual(words(page.text.content), words(expected[i].text.content), page.name));
  assert.ok(pages.every(p => p.type === "text" && p.text.format === 1));
});

test("every image of the guide resolves to a file the system ships, and every link to a page", async () => {
  const [entry] = await compiledGuide();
  const ids = new Set(entry.pages.map(p => p._id));
  const images = new Set();
  let links = 0;
  for (const page of entry.pages) {
    for (const [, src] of page.text.content.matchAll(/<img [^>]*src="([^"]+)"/g)) {
      assert.match(src, /^systems\/icon-engine\/assets\//, `${page.name}: ${src} is served from the system's folder`);
      const file = src.replace(/^systems\/icon-engine\//, "");
      assert.ok(existsSync(new URL(file, root)), `${page.name}: ${file} exists`);
      if (existsSync(new URL("dist/icon-engine/", root))) assert.ok(existsSync(new URL(`dist/icon-engine/${file}`, root)), `${file} is in the build`);
      images.add(file);
    }
    for (const [, uuid] of page.text.content.matchAll(/@UUID\[([^\]]+)\]/g)) {
      const match = /^Compendium\.icon-engine\.guide\.JournalEntry\.(\w{16})\.JournalEntryPage\.(\w{16})$/.exec(uuid);
      assert.ok(match && match[1] === entry._id && ids.has(match[2]), `${page.name}: ${uuid} is a page of the guide`);
      links++;
    }
  }
  assert.ok(images.size >= 15, `${images.size} images`);
  assert.ok(links >= 8, `${links} links`);
  // every image in assets/guide/ is shown somewhere
  const shipped = readdirSync(new URL("assets/guide/", root)).map(f => `assets/guide/${f}`).sort();
  assert.deepEqual([...images].sort(), shipped);
});

test("the guide's command table is the command list, and every command in it is one the system answers", () => {
  const rows = tableUnder(markdown, "Chat commands");
  assert.deepEqual(rows.map(([syntax, , example]) => ({ syntax, example })),
    COMMAND_LIST.map(({ syntax, example }) => ({ syntax, example })));
  const slugs = new Set(guideSections(markdown).sections.map(s => s.slug));
  for (const { syntax, example, hint, guide } of COMMAND_LIST) {
    const parsed = ChatCommands.parse(example);
    assert.ok(parsed, `${example} is a command of the system`);
    const word = parsed.command === "icon" ? `icon ${parsed.args.split(/\s+/)[0]}` : parsed.command;
    assert.ok(ChatCommands.registered.includes(word), `${example}: ${word} is registered`);
    assert.ok(syntax.startsWith(`/${word}`), `${syntax} names ${word}`);
    assert.ok(slugs.has(guide), `${syntax} links to #${guide}, a heading of the guide`);
    assert.equal(typeof hint.split(".").reduce((node, key) => node?.[key], en), "string", hint);
  }
  // and nothing the system answers is left out of the list
  for (const word of ChatCommands.registered) {
    assert.ok(COMMAND_LIST.some(c => c.syntax === `/${word}` || c.syntax.startsWith(`/${word} `)), `/${word} is in the command list`);
  }
});

test("the guide's export is the same every time: rebuilds are byte-identical", () => {
  const a = JSON.stringify(guideExport(markdown));
  assert.equal(JSON.stringify(guideExport(markdown)), a);
  // and through the importer, as the build runs it, with nothing to repair or strip
  const { report } = importer.importPack(a, { format: "json" });
  assert.deepEqual({ documents: report.documents, bad: report.bad, warnings: report.warnings }, { documents: 1, bad: [], warnings: [] });
});

test("the guide refuses what it cannot make a page of: a link to no heading, an image outside assets/", () => {
  assert.throws(() => guideExport("# T\n\n## A\n\nSee [B](#b).\n"), /the link "B" goes to #b, which no heading makes/);
  assert.throws(() => guideExport("# T\n\n## A\n\n![x](../README.md)\n"), /is not in the system's assets\/ folder/);
  assert.throws(() => guideExport("# T\n\n## A\n\n![x](../assets/guide/nothing.webp)\n"), /does not exist/);
  assert.throws(() => guideExport("# T\n\n## A\n\n[x](rules.md)\n"), /links only its own headings and https addresses/);
  assert.throws(() => guideExport("# T\n\n## A\n\n## A\n"), /two headings make the anchor #a/);
  assert.throws(() => guideExport("Text\n\n# T\n"), /text before the guide's "#" heading/);
});

test("the guide's keybindings section says what the system registers: no keybindings", () => {
  /** Every module file's text. */
  const files = dir => readdirSync(new URL(dir, root), { withFileTypes: true })
    .flatMap(d => (d.isDirectory() ? files(`${dir}${d.name}/`) : d.name.endsWith(".mjs") ? [`${dir}${d.name}`] : []));
  const registering = files("module/").filter(f => /keybindings\s*\??\.\s*register\s*\(/.test(readFileSync(new URL(f, root), "utf8")));
  assert.deepEqual(registering, [], "a keybinding is registered: list it in docs/guide.md's Keybindings section and change this test");
  assert.match(markdown, /### Keybindings\n\nICON Engine adds no keybindings of its own\./);
});
