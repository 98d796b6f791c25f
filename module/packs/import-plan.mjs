/**
 * The pure half of importing a journal pack into Foundry: the core has already read the file
 * (`importPack`); this cleans every page's HTML and sorts the entries into creates and updates,
 * so re-importing the same pack updates entries by `_id` instead of duplicating them.
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

/**
 * @param {object[]} documents                 The core's v13-shaped entries.
 * @param {(html: string) => string} clean     The HTML sanitiser (foundry.utils.cleanHTML).
 * @param {(id: string) => {pages: string[]}|undefined} existing  What the destination already
 *   holds under an id (the ids of its pages), if anything.
 * @returns {{create: PlannedEntry[], update: {entry: PlannedEntry, newPages: PlannedPage[], oldPages: PlannedPage[]}[]}}
 */
export function planImport(documents, clean, existing) {
  /** @type {PlannedEntry[]} */
  const create = [];
  /** @type {{entry: PlannedEntry, newPages: PlannedPage[], oldPages: PlannedPage[]}[]} */
  const update = [];
  for (const raw of documents) {
    const entry = /** @type {PlannedEntry} */ (structuredClone(raw));
    for (const page of entry.pages) {
      if (typeof page.text?.content === "string") page.text.content = clean(page.text.content);
    }
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
