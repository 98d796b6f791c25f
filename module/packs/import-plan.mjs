/**
 * The pure half of importing a journal pack into Foundry: the core has already read the file
 * (`importPack`) and reported what is unsafe, field by field; this cleans every field it
 * reported (and every page's HTML), drops what belongs to the world the pack came from, and
 * sorts the entries into creates and updates, so re-importing the same pack updates entries by
 * `_id` instead of duplicating them.
 * @import { ImportWarning } from "../types/core.js"
 */

/**
 * @typedef {object} PlannedPage
 * @property {string} _id
 * @property {{content?: string|null, format?: number}} [text]
 */

/**
 * @typedef {object} PlannedEntry
 * @property {string} _id
 * @property {string} name
 * @property {PlannedPage[]} pages
 */

/** The warning kinds that mean script-capable or page-hijacking content (the core's `html::KINDS`). */
export const UNSAFE = [
  "script", "eventHandler", "javascriptUrl", "iframe", "srcdoc", "object", "embed",
  "metaRefresh", "base", "link", "cssImport", "fixedOverlay"
];

/**
 * The object holding the field a JSON pointer (RFC 6901) names, and the field's key.
 * @param {unknown} root
 * @param {string} pointer
 * @returns {{holder: Record<string, unknown>, key: string} | null}  (an array is held by its index keys)
 */
function resolve(root, pointer) {
  const keys = pointer.split("/").slice(1).map(k => k.replaceAll("~1", "/").replaceAll("~0", "~"));
  const last = keys.pop();
  if (last === undefined) return null;
  let holder = root;
  for (const key of keys) {
    if (holder === null || typeof holder !== "object") return null;
    holder = /** @type {Record<string, unknown>} */ (holder)[key];
  }
  return holder !== null && typeof holder === "object" ? { holder: /** @type {Record<string, unknown>} */ (holder), key: last } : null;
}

/**
 * Drops the source world's bookkeeping: `_stats` but its `exportSource` (the world sets the rest,
 * and a `compendiumSource` would point into the other world), and ownership by users this world
 * does not have.
 * @param {object} entry  An entry or page; its `_stats` and `ownership`, where present, are read and trimmed.
 * @param {Set<string>} users
 */
function dropForeign(entry, users) {
  const doc = /** @type {{_stats?: unknown, ownership?: unknown}} */ (entry);
  if (doc._stats && typeof doc._stats === "object") {
    const { exportSource } = /** @type {{exportSource?: unknown}} */ (doc._stats);
    if (exportSource) doc._stats = { exportSource };
    else delete doc._stats;
  }
  if (doc.ownership && typeof doc.ownership === "object") {
    const ownership = /** @type {Record<string, unknown>} */ (doc.ownership);
    for (const id of Object.keys(ownership)) {
      if (id !== "default" && !users.has(id)) delete ownership[id];
    }
  }
}

/**
 * @param {object[]} documents                 The core's v13-shaped entries.
 * @param {ImportWarning[]} warnings           The core's report warnings: every field with an unsafe
 *   finding is cleaned (a value without markup, which can only be a script URL, is emptied).
 * @param {(html: string) => string} clean     The HTML sanitiser (module/packs/clean-html.mjs).
 * @param {(id: string) => {pages: string[]}|undefined} existing  What the destination already
 *   holds under an id (the ids of its pages), if anything.
 * @param {Set<string>} [users]                 This world's user ids (ownership by others is dropped).
 * @returns {{create: PlannedEntry[], update: {entry: PlannedEntry, newPages: PlannedPage[], oldPages: PlannedPage[]}[]}}
 */
export function planImport(documents, warnings, clean, existing, users = new Set()) {
  /** @type {Map<string, ImportWarning[]>} */
  const unsafe = new Map();
  for (const w of warnings) {
    if (!w.field || !w.documentId || !UNSAFE.includes(w.kind)) continue;
    unsafe.set(w.documentId, [...(unsafe.get(w.documentId) ?? []), w]);
  }
  /** @type {PlannedEntry[]} */
  const create = [];
  /** @type {{entry: PlannedEntry, newPages: PlannedPage[], oldPages: PlannedPage[]}[]} */
  const update = [];
  for (const raw of documents) {
    const entry = /** @type {PlannedEntry} */ (structuredClone(raw));
    /** @type {Set<string>} every field cleaned once, however many findings it has */
    const done = new Set();
    for (const w of unsafe.get(entry._id) ?? []) {
      const key = `${w.pageId ?? ""}${w.field}`;
      if (done.has(key)) continue;
      done.add(key);
      const root = w.pageId ? entry.pages.find(p => p._id === w.pageId) : entry;
      const at = root && resolve(root, /** @type {string} */ (w.field));
      const value = at?.holder[at.key];
      if (typeof value !== "string" || !at) continue;
      at.holder[at.key] = value.includes("<") ? clean(value) : "";
    }
    for (const page of entry.pages) {
      if (typeof page.text?.content === "string" && !done.has(`${page._id}/text/content`)) {
        page.text.content = clean(page.text.content);
      }
      dropForeign(page, users);
    }
    dropForeign(entry, users);
    const found = existing(entry._id);
    if (!found) create.push(entry);
    else {
      const had = new Set(found.pages);
      update.push({
        entry,
        newPages: entry.pages.filter(p => !had.has(p._id)),
        oldPages: entry.pages.filter(p => had.has(p._id))
      });
    }
  }
  return { create, update };
}

/**
 * Splits `items` into batches of `size`, so a large pack reports progress and never blocks long.
 * @template T
 * @param {T[]} items
 * @param {number} size
 * @returns {T[][]}
 */
export function batches(items, size) {
  /** @type {T[][]} */
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
