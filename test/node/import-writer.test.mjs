/**
 * An import is all or nothing to the user (issue 25, point 6; module/packs/import-writer.mjs):
 * every entry is validated before anything is written, a write that fails half-way undoes what
 * was written, and where an undo fails too the outcome names exactly the entries left written.
 * Foundry's calls are stand-ins over an in-memory journal that fail where a test says.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeImport } from "../../module/packs/import-writer.mjs";
import { planImport } from "../../module/packs/import-plan.mjs";

const id = n => `entry${String(n).padStart(11, "0")}`;
const entry = (n, pages = []) => ({ _id: id(n), name: `Entry ${n}`, pages });
const page = (n, content = "<p>x</p>") => ({ _id: `page${String(n).padStart(12, "0")}`, name: `Page ${n}`, text: { content, format: 1 } });

/**
 * A journal and Foundry's calls on it. `failOn` names the call (and how many of its calls go
 * through first) that fails.
 * @param {object[]} existing
 * @param {{create?: number, update?: number, remove?: boolean, restore?: string[], invalid?: string}} [failOn]
 */
function journalOf(existing = [], failOn = {}) {
  const journal = new Map(existing.map(e => [e._id, structuredClone(e)]));
  const calls = { create: 0, update: 0 };
  /** @type {import("../../module/packs/import-writer.mjs").ImportIO} */
  const io = {
    validate: e => {
      if (e._id === failOn.invalid) throw new Error("pages.0.type: not a page type");
    },
    create: async entries => {
      if (failOn.create !== undefined && calls.create++ >= failOn.create) {
        // Foundry may have stored the first of the batch before it failed
        journal.set(entries[0]._id, structuredClone(entries[0]));
        throw new Error("the server refused the batch");
      }
      for (const e of entries) journal.set(e._id, structuredClone(e));
    },
    remove: async ids => {
      if (failOn.remove) throw new Error("cannot delete");
      for (const i of ids) journal.delete(i);
    },
    exists: i => journal.has(i),
    snapshot: i => structuredClone(journal.get(i) ?? null),
    update: async ({ entry: e, newPages, oldPages }) => {
      if (failOn.update !== undefined && calls.update++ >= failOn.update) throw new Error("the server refused the update");
      const doc = journal.get(e._id);
      const { pages, ...fields } = e;
      Object.assign(doc, fields);
      doc.pages = [...doc.pages.map(p => oldPages.find(o => o._id === p._id) ?? p), ...newPages];
    },
    restore: async (before, newPages) => {
      if (failOn.restore?.includes(before._id)) throw new Error("cannot restore");
      const doc = journal.get(before._id);
      doc.pages = doc.pages.filter(p => !newPages.includes(p._id));
      journal.set(before._id, structuredClone(before));
    }
  };
  return { journal, io };
}

/** The plan for `documents` into `journal` (what the dialog does). */
const plan = (documents, journal) => planImport(documents, [], html => html,
  i => (journal.has(i) ? { pages: journal.get(i).pages.map(p => p._id) } : undefined));

test("everything is written when nothing fails; progress reaches the whole", async () => {
  const old = entry(1, [page(1, "<p>old</p>")]);
  const { journal, io } = journalOf([old]);
  const shares = [];
  const docs = [entry(1, [page(1, "<p>new</p>"), page(2)]), ...Array.from({ length: 45 }, (_, i) => entry(i + 2))];
  const outcome = await writeImport(plan(docs, journal), io, { batch: 20, progress: s => shares.push(s) });
  assert.deepEqual(outcome, { ok: true, created: 45, updated: 1, left: [] });
  assert.equal(journal.size, 46);
  assert.deepEqual(journal.get(id(1)).pages.map(p => p.text.content), ["<p>new</p>", "<p>x</p>"]);
  assert.equal(shares.at(-1), 1);
});

test("an entry Foundry would refuse stops the import before anything is written, and is named", async () => {
  const old = entry(1, [page(1, "<p>old</p>")]);
  const { journal, io } = journalOf([old], { invalid: id(30) });
  const docs = [entry(1, [page(1, "<p>new</p>")]), ...Array.from({ length: 45 }, (_, i) => entry(i + 2))];
  const outcome = await writeImport(plan(docs, journal), io);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.stage, "validate");
  assert.match(outcome.error, /Entry 30 \(entry00000000030\): pages\.0\.type/);
  assert.deepEqual([...journal.values()], [old], "nothing written");
});

test("a batch that fails half-way: what was created is deleted, the part of the batch Foundry stored too", async () => {
  const old = entry(1, [page(1, "<p>old</p>")]);
  const { journal, io } = journalOf([old], { create: 1 });
  const docs = [entry(1, [page(1, "<p>new</p>"), page(2)]), ...Array.from({ length: 45 }, (_, i) => entry(i + 2))];
  const outcome = await writeImport(plan(docs, journal), io, { batch: 20 });
  assert.equal(outcome.ok, false);
  assert.equal(outcome.stage, "write");
  assert.match(outcome.error, /the server refused the batch/);
  assert.deepEqual(outcome.left, []);
  assert.deepEqual([...journal.values()], [old], "the 20 created and the one stored from the failed batch are gone");
});

test("an update that fails: earlier updates are put back, created entries deleted", async () => {
  const olds = [entry(1, [page(1, "<p>one</p>")]), entry(2, [page(2, "<p>two</p>")])];
  const { journal, io } = journalOf(olds, { update: 1 });
  const docs = [entry(1, [page(1, "<p>1!</p>"), page(3)]), entry(2, [page(2, "<p>2!</p>")]), entry(3)];
  const outcome = await writeImport(plan(docs, journal), io);
  assert.equal(outcome.ok, false);
  assert.match(outcome.error, /Entry 2 \(entry00000000002\): the server refused the update/);
  assert.deepEqual([...journal.values()], olds);
});

test("where an undo fails too, the outcome names exactly the entries left written", async () => {
  const olds = [entry(1, [page(1, "<p>one</p>")]), entry(2, [page(2, "<p>two</p>")])];
  const { journal, io } = journalOf(olds, { update: 1, remove: true, restore: [id(1)] });
  const docs = [entry(1, [page(1, "<p>1!</p>")]), entry(2, [page(2, "<p>2!</p>")]), entry(3), entry(4)];
  const outcome = await writeImport(plan(docs, journal), io);
  assert.equal(outcome.ok, false);
  assert.deepEqual(outcome.left, [
    { id: id(1), name: "Entry 1", how: "updated" },
    { id: id(3), name: "Entry 3", how: "created" },
    { id: id(4), name: "Entry 4", how: "created" }
  ]);
  assert.deepEqual([...journal.keys()].sort(), [id(1), id(2), id(3), id(4)], "what the outcome names is what stays");
  assert.deepEqual(journal.get(id(2)), olds[1], "entry 2's update was put back");
});
