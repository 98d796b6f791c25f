// The in-game guide: docs/guide.md becomes the "ICON Engine Guide" compendium's source
// (packs/_source/guide/) through the core's own journal importer, as the rules reference does.
//   node scripts/guide-pack.mjs   (scripts/build.sh step 4, after the native CLI is built)
// The Markdown becomes a Foundry journal export (one JournalEntry, Export Data's JSON): the `#`
// heading is the entry and its first page, every `##` heading a page at title level 1 and every
// `###` a page at level 2, each page's id derived from its heading (module/guide.mjs), so a
// rebuild writes the same bytes. In the pages, `[text](#heading)` becomes a content link to that
// heading's page, `![alt](../assets/...)` an image served from the system's folder, and code
// stays as written (Foundry's enrichers do not turn it into links). Then
// `icon-engine import` turns the export into foundryvtt-cli source JSON; an import with any bad
// line or warning fails the build, and packs/_source/guide/ is replaced only when it changed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Marked } from "marked";
import { SYSTEM_PATH } from "../module/config.mjs";
import { GUIDE_ENTRY_SLUG, guideId, guidePageUuid, guideSlug } from "../module/guide.mjs";
import { replaceDirIfChanged } from "./replace-dir.mjs";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
export const GUIDE_MARKDOWN = path.join(ROOT, "docs", "guide.md");

/** Foundry's sort step (CONST.SORT_INTEGER_DENSITY). */
const SORT_STEP = 100000;

/**
 * @typedef {import("marked").Token} Token
 * @typedef {import("marked").Tokens.Generic} GenericToken
 * @typedef {{name: string, slug: string, depth: number, tokens: Token[]}} Section
 */

/**
 * A heading's or a link's text without Markdown: the text of its inline tokens.
 * @param {Token[] | undefined} tokens
 * @returns {string}
 */
function plain(tokens) {
  return (tokens ?? []).map(token => {
    const t = /** @type {GenericToken} */ (token);
    return t.tokens ? plain(t.tokens) : t.type === "image" ? "" : String(t.text ?? "");
  }).join("");
}

/**
 * The guide's sections: one per heading of depth 1 to 3, with the blocks under it.
 * @param {string} markdown
 * @returns {{sections: Section[], links: object}}
 */
export function guideSections(markdown) {
  const tokens = new Marked({ gfm: true }).lexer(markdown);
  /** @type {Section[]} */
  const sections = [];
  for (const token of tokens) {
    if (token.type === "heading" && token.depth <= 3) {
      const name = plain(token.tokens).trim();
      if (!name) throw new Error(`docs/guide.md: an empty heading (${token.raw.trim()})`);
      if ((token.depth === 1) !== (sections.length === 0)) throw new Error(`docs/guide.md: the guide has one "#" heading, its first line (${token.raw.trim()})`);
      const slug = sections.length ? guideSlug(name) : GUIDE_ENTRY_SLUG;
      if (sections.some(s => s.slug === slug)) throw new Error(`docs/guide.md: two headings make the anchor #${slug}`);
      sections.push({ name, slug, depth: token.depth, tokens: [] });
    } else if (sections.length) sections.at(-1)?.tokens.push(token);
    else if (token.type !== "space") throw new Error("docs/guide.md: text before the guide's \"#\" heading");
  }
  if (!sections.length) throw new Error("docs/guide.md: no heading");
  return { sections, links: tokens.links };
}

/**
 * The Markdown renderer for pages: links to headings become content links to their pages,
 * images the system's files; every target must exist.
 * @param {Set<string>} slugs  The guide's anchors.
 * @param {string} docsDir     Where image paths are relative to.
 * @param {string} root        The system's folder (the repository).
 * @returns {Marked}
 */
function pageRenderer(slugs, docsDir, root) {
  const escape = (/** @type {string} */ text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return new Marked({ gfm: true }).use({
    renderer: {
      link({ href, tokens }) {
        const label = plain(tokens).trim();
        if (href.startsWith("#")) {
          const slug = href.slice(1);
          if (!slugs.has(slug)) throw new Error(`docs/guide.md: the link "${label}" goes to #${slug}, which no heading makes`);
          // Foundry's enricher reads the label up to the first "}"
          return `@UUID[${guidePageUuid(slug)}]{${label.replace(/[{}]/g, "")}}`;
        }
        if (/^https:\/\//.test(href)) return `<a href="${escape(href)}">${this.parser.parseInline(tokens)}</a>`;
        throw new Error(`docs/guide.md: the link "${label}" goes to ${href}; the guide links only its own headings and https addresses`);
      },
      // Code shows syntax, so Foundry's enrichers must not act on it: an empty element splits the
      // text where `@Icon[`, `@UUID[` or `[D]` would match.
      codespan({ text }) {
        return `<code>${escape(text).replace(/@(?=[A-Za-z]+\[)/g, "@<span></span>").replace(/\[D\]/g, "[<span></span>D]")}</code>`;
      },
      image({ href, text }) {
        const file = path.resolve(docsDir, href);
        const relative = path.relative(root, file).split(path.sep).join("/");
        if (!relative.startsWith("assets/")) throw new Error(`docs/guide.md: the image ${href} is not in the system's assets/ folder`);
        if (!existsSync(file)) throw new Error(`docs/guide.md: the image ${href} does not exist`);
        return `<img src="${SYSTEM_PATH}/${escape(relative)}" alt="${escape(text)}">`;
      }
    }
  });
}

/**
 * The guide as a Foundry journal export: one JournalEntry, a text page per heading.
 * @param {string} markdown
 * @param {{docsDir?: string, root?: string}} [where]
 * @returns {Record<string, unknown>}
 */
export function guideExport(markdown, { docsDir = path.dirname(GUIDE_MARKDOWN), root = ROOT } = {}) {
  const { sections, links } = guideSections(markdown);
  const marked = pageRenderer(new Set(sections.map(s => s.slug)), docsDir, root);
  const pages = sections.map((section, i) => ({
    _id: guideId(section.slug),
    name: section.name,
    type: "text",
    title: { show: true, level: Math.max(1, section.depth - 1) },
    text: { format: 1, content: marked.parser(Object.assign([...section.tokens], { links })).trim() },
    sort: (i + 1) * SORT_STEP,
    ownership: { default: -1 },
    flags: {}
  }));
  return {
    _id: guideId(GUIDE_ENTRY_SLUG),
    name: sections[0].name,
    pages,
    folder: null,
    sort: 0,
    ownership: { default: 0 },
    flags: {}
  };
}

/** Write packs/_source/guide/ from docs/guide.md through the native importer. */
function build() {
  const cli = path.join(ROOT, "target", "release", "icon-engine");
  const work = path.join(ROOT, "target", "guide");
  const exportFile = path.join(work, "icon-engine-guide.json");
  const imported = path.join(work, "import");
  const source = path.join(ROOT, "packs", "_source", "guide");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(exportFile, `${JSON.stringify(guideExport(readFileSync(GUIDE_MARKDOWN, "utf8")), null, 2)}\n`);
  const report = execFileSync(cli, ["import", exportFile, "--format", "json", "--out", imported], { encoding: "utf8" });
  if (!/ 0 bad lines, 0 warnings;/.test(report)) throw new Error(`the guide's import was not clean:\n${report}`);
  const changed = replaceDirIfChanged(source, imported);
  rmSync(work, { recursive: true, force: true });
  console.error(`[guide] ${report.split("\n")[0].replace(/; written to .*/, "")}${changed ? ": packs/_source/guide updated" : ""}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) build();
