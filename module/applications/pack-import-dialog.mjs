import { cleanImported } from "../packs/clean-html.mjs";
import { UNSAFE, planImport } from "../packs/import-plan.mjs";
import { writeImport } from "../packs/import-writer.mjs";
import readPack from "../packs/read-pack.mjs";
import addDirectoryButton from "./directory-button.mjs";
import { formatPlural } from "./i18n.mjs";
import { packReportLines } from "./import-reports.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @import { ImportReport } from "../types/core.js"
 */

/**
 * "Import journal pack": pick an exported `.db`/`.json`, read it with the core, see the report
 * (counts, repairs, unsafe HTML that will be stripped) before confirming, then create or update
 * the entries in a world folder or a new world compendium, with a progress bar.
 */
export default class PackImportDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    id: "icon-engine-pack-import",
    tag: "form",
    classes: ["icon-engine", "pack-import-dialog"],
    window: { title: "ICONENGINE.Import.Title", icon: "fa-solid fa-file-import" },
    position: { width: 480 },
    actions: {
      import: PackImportDialog.#onImport
    }
  };

  /** @override */
  static PARTS = {
    form: { template: "systems/icon-engine/templates/apps/pack-import.hbs" }
  };

  /** Entries written per batch (each one call to Foundry). */
  static BATCH = 20;

  /** @type {{documents: object[], report: ImportReport} | null} */
  #read = null;

  /** @type {string|null} */
  #error = null;

  /** @type {string} */
  #fileName = "";

  /** The button in the Journal and Compendium sidebars. */
  static registerButtons() {
    addDirectoryButton(["renderJournalDirectory", "renderCompendiumDirectory"], { cssClass: "icon-pack-import", icon: "fa-file-import",
      label: "ICONENGINE.Import.Button", open: () => new PackImportDialog().render({ force: true }) });
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const report = this.#read?.report ?? null;
    const all = /** @type {{type: string, id: string, name: string}[]} */ (/** @type {unknown} */ (game.folders?.contents ?? []));
    const folders = all.filter(f => f.type === "JournalEntry").map(f => ({ id: f.id, name: f.name }));
    const stripped = report?.warnings.filter(w => UNSAFE.includes(w.kind)) ?? [];
    const repaired = report?.warnings.filter(w => !UNSAFE.includes(w.kind)) ?? [];
    const bad = report?.bad ?? [];
    const shown = PackImportDialog.SHOWN;
    const pages = this.#read?.documents.reduce((n, d) => n + /** @type {{pages: unknown[]}} */ (d).pages.length, 0) ?? 0;
    return {
      fileName: this.#fileName,
      error: this.#error,
      report,
      counts: report ? packReportLines(report, { pages, stripped: stripped.length, repaired: repaired.length }) : null,
      // long lists are cut: the counts say how many there are
      bad: bad.slice(0, shown),
      badMore: Math.max(0, bad.length - shown),
      stripped: stripped.slice(0, shown),
      strippedCount: stripped.length,
      strippedMore: Math.max(0, stripped.length - shown),
      repaired: repaired.slice(0, shown),
      repairedCount: repaired.length,
      repairedMore: Math.max(0, repaired.length - shown),
      folders,
      canImport: !!this.#read?.documents.length
    };
  }

  /** At most this many lines of each list are shown. */
  static SHOWN = 100;

  /** Warning kinds that mean script-capable or page-hijacking content, removed on import. */
  static UNSAFE = UNSAFE;

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    const input = /** @type {HTMLInputElement|null} */ (this.element.querySelector("input[name=file]"));
    input?.addEventListener("change", () => this.#read_file(input));
    const force = /** @type {HTMLInputElement|null} */ (this.element.querySelector("input[name=force]"));
    force?.addEventListener("change", () => input?.files?.length && this.#read_file(input));
  }

  /**
   * Read the chosen file with the core and show its report.
   * @param {HTMLInputElement} input
   */
  async #read_file(input) {
    const file = input.files?.[0];
    if (!file) return;
    const force = /** @type {HTMLInputElement|null} */ (this.element.querySelector("input[name=force]"))?.checked ?? false;
    this.#fileName = file.name;
    try {
      this.#read = await readPack(await file.text(), { force });
      this.#error = null;
    } catch (error) {
      this.#read = null;
      this.#error = error instanceof Error ? error.message : String(error);
    }
    this.render();
  }

  /**
   * Create or update the entries, all or nothing: every entry is validated before anything is
   * written, a failure undoes what was written (module/packs/import-writer.mjs), and the progress
   * notice ends with the outcome.
   * @this {PackImportDialog}
   */
  static async #onImport() {
    const read = this.#read;
    if (!read) return;
    const form = /** @type {HTMLFormElement} */ (this.element);
    const data = new FormData(form);
    const destination = String(data.get("destination") ?? "folder");
    const folder = String(data.get("folder") ?? "") || null;
    const t = (/** @type {string} */ key, /** @type {Record<string, string>} */ values = {}) => game.i18n?.format(key, values) ?? key;
    // v13 progress notifications: `update({pct, message})` moves the bar and says where it is.
    const progress = /** @type {{update?: (data: {pct: number, message?: string}) => void} | undefined} */ (/** @type {unknown} */ (
      ui.notifications?.info("ICONENGINE.Import.Progress", { localize: true, progress: true })));
    /** @type {import("../packs/import-writer.mjs").ImportOutcome} */
    let outcome;
    /** @type {CompendiumCollection.Any | null} */
    let pack = null;
    try {
      if (destination === "compendium") {
        const label = String(data.get("label") ?? "").trim() || this.#fileName;
        pack = await foundry.documents.collections.CompendiumCollection.createCompendium({ label, type: "JournalEntry" });
      }
      outcome = await PackImportDialog.#write(read, pack, folder, pct => progress?.update?.({ pct }));
      // A compendium made for an import that wrote nothing goes again.
      if (!outcome.ok && pack && !outcome.left.length) await pack.deleteCompendium();
    } catch (error) {
      outcome = { ok: false, created: 0, updated: 0, stage: "write", error: error instanceof Error ? error.message : String(error), left: [] };
    }
    const message = PackImportDialog.outcomeText(outcome, t);
    progress?.update?.({ pct: 1, message });
    if (outcome.ok) {
      ui.notifications?.info(message);
      await this.close();
    } else {
      ui.notifications?.error(message, { permanent: true });
    }
  }

  /**
   * The import's outcome in words: what was written, or why nothing was (and, where Foundry
   * could not undo a write, which entries stay written).
   * @param {import("../packs/import-writer.mjs").ImportOutcome} outcome
   * @param {(key: string, values?: Record<string, string>) => string} t
   * @returns {string}
   */
  static outcomeText(outcome, t) {
    if (outcome.ok) return t("ICONENGINE.ImportOutcome.Done", { created: formatPlural("ICONENGINE.ImportOutcome.Entries", outcome.created), updated: String(outcome.updated) });
    const error = outcome.error ?? "";
    if (!outcome.left.length) {
      return t(outcome.stage === "validate" ? "ICONENGINE.ImportOutcome.Invalid" : "ICONENGINE.ImportOutcome.RolledBack", { error });
    }
    const entries = outcome.left.map(e => t(`ICONENGINE.ImportOutcome.Left.${e.how}`, { name: e.name, id: e.id })).join("; ");
    return t("ICONENGINE.ImportOutcome.Partial", { error, entries });
  }

  /**
   * Write the plan of a read pack into a world folder, or into a compendium.
   * @param {{documents: object[], report: ImportReport}} read
   * @param {CompendiumCollection.Any | null} pack
   * @param {string | null} folder
   * @param {(share: number) => void} progress
   */
  static async #write(read, pack, folder, progress) {
    const clean = (/** @type {string} */ html) => cleanImported(html);
    // the configured JournalEntry class, as other systems may extend it
    const JournalEntryClass = JournalEntry.implementation;
    const packId = pack?.collection;
    const journal = (/** @type {string} */ id) => (pack ? undefined : game.journal?.get(id));
    const existing = (/** @type {string} */ id) => {
      const entry = journal(id);
      return entry ? { pages: entry.pages.map(p => p.id ?? "") } : undefined;
    };
    const users = new Set(game.users?.map(u => u.id ?? "") ?? []);
    const plan = planImport(read.documents, read.report.warnings, clean, existing, users);
    const placed = (/** @type {import("../packs/import-plan.mjs").PlannedEntry} */ entry) => (folder && !pack ? { ...entry, folder } : entry);
    // The plan's entries are the core's v13 JournalEntry sources (docs/js-contract.md, importPack).
    const source = (/** @type {object} */ entry) => /** @type {JournalEntry.CreateData} */ (entry);
    /** @type {import("../packs/import-writer.mjs").ImportIO} */
    const io = {
      // Constructing a document validates it strictly, its pages included, as creating it would.
      validate: entry => void new JournalEntryClass(source(placed(entry))),
      create: async entries => {
        await JournalEntryClass.createDocuments(entries.map(e => source(placed(e))), { keepId: true, pack: packId });
      },
      remove: async ids => {
        await JournalEntryClass.deleteDocuments(ids, { pack: packId });
      },
      exists: id => (pack ? pack.index.has(id) : !!journal(id)),
      snapshot: id => journal(id)?.toObject() ?? null,
      update: async ({ entry, newPages, oldPages }) => {
        const doc = journal(entry._id);
        if (!doc) throw new Error(`${entry._id} is gone`);
        const { pages, ...fields } = entry;
        // Sources as above: the entry's fields and its pages'.
        await doc.update(/** @type {JournalEntry.UpdateData} */ (fields));
        if (oldPages.length) await doc.updateEmbeddedDocuments("JournalEntryPage", /** @type {JournalEntryPage.UpdateData[]} */ (oldPages));
        if (newPages.length) await doc.createEmbeddedDocuments("JournalEntryPage", /** @type {JournalEntryPage.CreateData[]} */ (newPages), { keepId: true });
      },
      restore: async (before, newPages) => {
        // The server keeps `_stats` itself: everything else is put back as it was.
        const { _id, _stats, pages, ...fields } = /** @type {{_id: string, _stats?: unknown, pages: (JournalEntryPage.UpdateData & {_stats?: unknown})[]}} */ (before);
        const doc = journal(_id);
        if (!doc) throw new Error(`${_id} is gone`);
        const added = newPages.filter(id => doc.pages.has(id));
        if (added.length) await doc.deleteEmbeddedDocuments("JournalEntryPage", added);
        // Replaced whole, not merged: what the import added to an object field goes too.
        const restored = pages.map(({ _stats: _, ...page }) => page);
        if (restored.length) await doc.updateEmbeddedDocuments("JournalEntryPage", restored, { diff: false, recursive: false });
        await doc.update(/** @type {JournalEntry.UpdateData} */ (fields), { diff: false, recursive: false });
      }
    };
    return writeImport(plan, io, { batch: PackImportDialog.BATCH, progress });
  }
}
