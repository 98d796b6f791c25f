/**
 * Writing an import plan (module/packs/import-plan.mjs) into Foundry, all or nothing to the user:
 * every entry is validated before anything is written; if a write fails, what was written is
 * undone (created entries deleted, updated ones put back as they were), and where an undo itself
 * fails the outcome names exactly the entries left written. Foundry's calls come in as `io`, so
 * node tests run this exact code with a write that fails half-way.
 * @import { PlannedEntry, PlannedPage } from "./import-plan.mjs"
 */
import { batches } from "./import-plan.mjs";

/**
 * @typedef {object} ImportIO  What writing needs of Foundry (the dialog passes the real calls).
 * @property {(entry: PlannedEntry) => void} validate  Throws when Foundry would refuse the entry.
 * @property {(entries: PlannedEntry[]) => Promise<void>} create  Creates entries with their ids.
 * @property {(ids: string[]) => Promise<void>} remove  Deletes entries.
 * @property {(id: string) => boolean} exists  Whether the destination holds an entry of this id.
 * @property {(id: string) => object | null} snapshot  An existing entry's source, pages included.
 * @property {(change: PlannedUpdate) => Promise<void>} update  Updates an entry: its fields, its
 *   pages that exist, then its new pages.
 * @property {(source: object, newPages: string[]) => Promise<void>} restore  Puts an entry back
 *   to a snapshot: deletes the pages the import added, restores the others and its fields.
 */

/**
 * @typedef {{entry: PlannedEntry, newPages: PlannedPage[], oldPages: PlannedPage[]}} PlannedUpdate
 */

/**
 * @typedef {object} WrittenEntry  An entry the import wrote.
 * @property {string} id
 * @property {string} name
 * @property {"created" | "updated"} how
 */

/**
 * @typedef {object} ImportOutcome
 * @property {boolean} ok
 * @property {number} created
 * @property {number} updated
 * @property {string} [error]  Why it failed: the entry and Foundry's reason.
 * @property {"validate" | "write"} [stage]  Where it failed (nothing is written when validating).
 * @property {WrittenEntry[]} left  Entries still written after a failure (their undo failed too).
 */

/**
 * An entry's name and id, for a message.
 * @param {PlannedEntry} entry
 */
const label = entry => `${entry.name} (${entry._id})`;

/** @param {unknown} error */
const reason = error => (error instanceof Error ? error.message : String(error));

/**
 * Write a plan: validate every entry, then create in batches and update one by one, reporting
 * progress as a share done; on a failure undo what was written.
 * @param {{create: PlannedEntry[], update: PlannedUpdate[]}} plan
 * @param {ImportIO} io
 * @param {{batch?: number, progress?: (share: number) => void}} [options]
 * @returns {Promise<ImportOutcome>}
 */
export async function writeImport(plan, io, { batch = 20, progress = () => {} } = {}) {
  const entries = [...plan.create, ...plan.update.map(u => u.entry)];
  for (const entry of entries) {
    try {
      io.validate(entry);
    } catch (error) {
      return { ok: false, created: 0, updated: 0, stage: "validate", error: `${label(entry)}: ${reason(error)}`, left: [] };
    }
  }
  const total = entries.length;
  let done = 0;
  /** @type {PlannedEntry[]} */
  const created = [];
  /** @type {{entry: PlannedEntry, before: object, newPages: string[]}[]} */
  const updated = [];
  /** @type {string | null} */
  let error = null;
  for (const group of batches(plan.create, batch)) {
    try {
      await io.create(group);
      created.push(...group);
      done += group.length;
      progress(done / Math.max(total, 1));
    } catch (e) {
      // Foundry may have written part of a batch before it failed.
      created.push(...group.filter(entry => io.exists(entry._id)));
      error = `${group.map(label).join(", ")}: ${reason(e)}`;
      break;
    }
  }
  for (const change of error ? [] : plan.update) {
    const before = io.snapshot(change.entry._id);
    if (!before) {
      error = `${label(change.entry)}: it is no longer there to update`;
      break;
    }
    updated.push({ entry: change.entry, before, newPages: change.newPages.map(p => p._id) });
    try {
      await io.update(change);
      done += 1;
      progress(done / Math.max(total, 1));
    } catch (e) {
      error = `${label(change.entry)}: ${reason(e)}`;
      break;
    }
  }
  if (!error) return { ok: true, created: created.length, updated: updated.length, left: [] };
  /** @type {WrittenEntry[]} */
  const left = [];
  // Undone newest first, so each entry goes back to what it was before the import.
  for (const { entry, before, newPages } of updated.reverse()) {
    try {
      await io.restore(before, newPages);
    } catch {
      left.push({ id: entry._id, name: entry.name, how: "updated" });
    }
  }
  if (created.length) {
    try {
      await io.remove(created.map(e => e._id));
    } catch {
      // Deleted one by one, to name exactly the ones that stay.
      for (const entry of created) {
        try {
          if (io.exists(entry._id)) await io.remove([entry._id]);
        } catch {
          left.push({ id: entry._id, name: entry.name, how: "created" });
        }
      }
    }
  }
  return { ok: false, created: 0, updated: 0, stage: "write", error, left };
}
