import { cleanImported } from "../packs/clean-html.mjs";
import { UNSAFE, batches, planImport } from "../packs/import-plan.mjs";
import readPack from "../packs/read-pack.mjs";

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

  /** Entries written per batch. */
  static BATCH = 20;

  /** @type {{documents: object[], report: ImportReport} | null} */
  #read = null;

  /** @type {string|null} */
  #error = null;

  /** @type {string} */
  #fileName = "";

  /** The button in the Journal and Compendium sidebars. */
  static registerButtons() {
    Hooks.on("renderJournalDirectory", (app, element) => PackImportDialog.#addButton(/** @type {HTMLElement} */ (element)));
    Hooks.on("renderCompendiumDirectory", (app, element) => PackImportDialog.#addButton(/** @type {HTMLElement} */ (element)));
  }

  /**
   * @param {HTMLElement} element
   */
  static #addButton(element) {
    if (!game.user?.isGM || element.querySelector(".icon-pack-import")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.classList.add("icon-pack-import");
    const icon = document.createElement("i");
    icon.classList.add("fa-solid", "fa-file-import");
    icon.inert = true;
    button.append(icon, " ", game.i18n?.localize("ICONENGINE.Import.Button") ?? "");
    button.addEventListener("click", () => new PackImportDialog().render({ force: true }));
    (element.querySelector(".header-actions") ?? element).append(button);
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
    return {
      fileName: this.#fileName,
      error: this.#error,
      report,
      pages: this.#read?.documents.reduce((n, d) => n + /** @type {{pages: unknown[]}} */ (d).pages.length, 0) ?? 0,
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
   * Create or update the entries, in batches, with a progress bar.
   * @this {PackImportDialog}
   */
  static async #onImport() {
    const read = this.#read;
    if (!read) return;
    const form = /** @type {HTMLFormElement} */ (this.element);
    const data = new FormData(form);
    const destination = String(data.get("destination") ?? "folder");
    const folder = String(data.get("folder") ?? "") || null;
    const clean = (/** @type {string} */ html) => cleanImported(html);
    // the configured JournalEntry class, as other systems may extend it
    const JournalEntryClass = JournalEntry.implementation;
    /** @type {string|undefined} */
    let packId;
    /** @type {(id: string) => {pages: string[]}|undefined} */
    let existing;
    if (destination === "compendium") {
      const label = String(data.get("label") ?? "").trim() || this.#fileName;
      const pack = await foundry.documents.collections.CompendiumCollection.createCompendium({ label, type: "JournalEntry" });
      packId = pack.collection;
      existing = () => undefined;
    } else {
      existing = id => {
        const entry = game.journal?.get(id);
        return entry ? { pages: entry.pages.map(p => p.id ?? "") } : undefined;
      };
    }
    const users = new Set(game.users?.map(u => u.id ?? "") ?? []);
    const plan = planImport(read.documents, read.report.warnings, clean, existing, users);
    const total = plan.create.length + plan.update.length;
    // v13 progress notifications: `update({pct})` moves the bar
    const progress = /** @type {{update?: (data: {pct: number}) => void} | undefined} */ (/** @type {unknown} */ (
      ui.notifications?.info("ICONENGINE.Import.Progress", { localize: true, progress: true })));
    let done = 0;
    const step = () => progress?.update?.({ pct: total ? done / total : 1 });
    for (const batch of batches(plan.create, PackImportDialog.BATCH)) {
      const docs = batch.map(entry => (folder && !packId ? { ...entry, folder } : entry));
      // The plan's entries are the core's v13 JournalEntry sources (docs/js-contract.md, importPack).
      await JournalEntryClass.createDocuments(/** @type {JournalEntry.CreateData[]} */ (docs), { keepId: true, pack: packId });
      done += batch.length;
      step();
    }
    for (const { entry, newPages, oldPages } of plan.update) {
      const doc = game.journal?.get(entry._id);
      if (!doc) continue;
      const { pages, ...fields } = entry;
      // Sources as above: the entry's fields and its pages'.
      await doc.update(/** @type {JournalEntry.UpdateData} */ (fields));
      if (oldPages.length) await doc.updateEmbeddedDocuments("JournalEntryPage", /** @type {JournalEntryPage.UpdateData[]} */ (oldPages));
      if (newPages.length) await doc.createEmbeddedDocuments("JournalEntryPage", /** @type {JournalEntryPage.CreateData[]} */ (newPages), { keepId: true });
      done += 1;
      step();
    }
    ui.notifications?.info(game.i18n?.format("ICONENGINE.Import.Done", {
      created: String(plan.create.length), updated: String(plan.update.length)
    }) ?? "");
    await this.close();
  }
}
