import { ICONENGINE } from "../config.mjs";
import { EXAMPLE_PACK_PATH, worldPacks } from "../packs/content-pack.mjs";
import ContentPackImporter from "../packs/content-import.mjs";
import addDirectoryButton from "./directory-button.mjs";
import { format } from "./i18n.mjs";
import { contentPackLines } from "./import-reports.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * "Import content pack" (GMs, in the Items, Actors and Compendium sidebars): choose a content
 * pack's JSON (or the system's example pack), see its report (every record counted, the ones that
 * cannot be imported named with the field and why) before confirming, then import it into world
 * compendiums with a progress notice (module/packs/content-import.mjs).
 */
export default class ContentPackDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    id: "icon-engine-content-pack",
    tag: "form",
    classes: ["icon-engine", "content-pack-dialog"],
    window: { title: "ICONENGINE.ContentPack.Title", icon: "fa-solid fa-boxes-stacked" },
    position: { width: 520 },
    actions: {
      example: ContentPackDialog.#onExample,
      import: ContentPackDialog.#onImport
    }
  };

  /** @override */
  static PARTS = {
    form: { template: ICONENGINE.templates.contentPack }
  };

  /** At most this many bad records and warnings are listed (the counts say how many there are). */
  static SHOWN = 100;

  /** The pack's text, once read. @type {string | null} */
  #text = null;

  /** @type {ReturnType<typeof ContentPackImporter.plan> | null} */
  #plan = null;

  /** @type {string | null} */
  #error = null;

  /** The buttons in the Items, Actors and Compendium sidebars. */
  static registerButtons() {
    addDirectoryButton(["renderItemDirectory", "renderActorDirectory", "renderCompendiumDirectory"], { cssClass: "icon-content-pack", icon: "fa-boxes-stacked",
      label: "ICONENGINE.ContentPack.Button", open: () => new ContentPackDialog().render({ force: true }) });
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const report = this.#plan?.report ?? null;
    const shown = ContentPackDialog.SHOWN;
    const packs = report ? worldPacks(report.id) : null;
    return {
      error: this.#error,
      report,
      counts: report ? contentPackLines(report, { items: this.#plan?.items.length ?? 0, actors: this.#plan?.actors.length ?? 0 }) : null,
      bad: (report?.bad ?? []).slice(0, shown).map(b => ({ ...b, where: b.index >= 0 ? `#${b.index + 1}` : "" })),
      badMore: Math.max(0, (report?.bad.length ?? 0) - shown),
      warnings: (report?.warnings ?? []).slice(0, shown),
      warningsMore: Math.max(0, (report?.warnings.length ?? 0) - shown),
      itemPack: packs?.items.replace(/^world\./, "") ?? "",
      actorPack: packs?.actors.replace(/^world\./, "") ?? "",
      canImport: !!(this.#plan?.items.length || this.#plan?.actors.length)
    };
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    const input = /** @type {HTMLInputElement | null} */ (this.element.querySelector("input[name=file]"));
    input?.addEventListener("change", async () => {
      const file = input.files?.[0];
      if (file) await this.read(await file.text());
    });    // a folder of the community foe creator's files, as a content pack (module/packs/foe-folder.mjs)
    const folder = /** @type {HTMLInputElement | null} */ (this.element.querySelector("input[name=folder]"));
    folder?.addEventListener("change", async () => {
      const chosen = [...folder.files ?? []].filter(f => f.name.toLowerCase().endsWith(".json"));
      if (chosen.length) await this.readFoeFolder(await Promise.all(chosen.map(async f => ({ name: f.webkitRelativePath || f.name, text: await f.text() }))));
    });    // another ICON system's compendium export (module/packs/icon-system-pack.mjs)
    const other = /** @type {HTMLInputElement | null} */ (this.element.querySelector("input[name=otherSystem]"));
    other?.addEventListener("change", async () => {
      const file = other.files?.[0];
      if (file) await this.readIconSystem(await file.text());
    });
  }

  /**
   * Read another ICON system's compendium export (issue 37): converted to a content pack, whose
   * report also names every document the conversion could not carry.
   * @param {string} text
   */
  async readIconSystem(text) {
    const { loadImporter } = await import("../packs/importer.mjs");
    const { iconSystemPack } = await import("../packs/icon-system-pack.mjs");
    try {
      const { pack, bad, warnings } = iconSystemPack(text, await loadImporter());
      await this.read(JSON.stringify(pack), { bad, warnings });
    } catch (error) {
      this.#plan = null;
      this.#error = format("ICONENGINE.ContentPack.Refused", { message: error instanceof Error ? error.message : String(error) });
      await this.render();
    }
  }

  /**
   * Read a folder of foe files (issue 37): converted to a content pack, whose report also names
   * every file or field the conversion could not read.
   * @param {{name: string, text: string}[]} files
   */
  async readFoeFolder(files) {
    const { loadImporter } = await import("../packs/importer.mjs");
    const { foeFolderPack } = await import("../packs/foe-folder.mjs");
    try {
      const { pack, bad, warnings } = foeFolderPack(files, await loadImporter());
      await this.read(JSON.stringify(pack), { bad, warnings });
    } catch (error) {
      this.#plan = null;
      this.#error = format("ICONENGINE.ContentPack.Refused", { message: error instanceof Error ? error.message : String(error) });
      await this.render();
    }
  }

  /**
   * Read a pack's text and show its report.
   * @param {string} text
   * @param {{bad: import("../packs/content-pack.mjs").BadRecord[], warnings: import("../packs/content-pack.mjs").Warning[]}} [extra]
   *   What a conversion into the pack could not read.
   */
  async read(text, extra = { bad: [], warnings: [] }) {
    this.#text = text;
    try {
      this.#plan = ContentPackImporter.plan(text);
      // what a conversion (a foe folder) could not read is reported with the pack's own findings
      this.#plan.report.bad.unshift(...extra.bad);
      this.#plan.report.warnings.push(...extra.warnings);
      this.#plan.report.records += extra.bad.length;
      this.#error = null;
    } catch (error) {
      this.#plan = null;
      this.#error = format("ICONENGINE.ContentPack.Refused", { message: error instanceof Error ? error.message : String(error) });
    }
    await this.render();
  }

  /**
   * Read the system's example pack.
   * @this {ContentPackDialog}
   */
  static async #onExample() {
    const response = await fetch(foundry.utils.getRoute(EXAMPLE_PACK_PATH));
    await this.read(await response.text());
  }

  /**
   * Import the pack read into the compendiums named.
   * @this {ContentPackDialog}
   */
  static async #onImport() {
    if (!this.#text || !this.#plan) return;
    const data = new foundry.applications.ux.FormDataExtended(/** @type {HTMLFormElement} */ (this.element)).object;
    const names = { items: String(data.itemPack || "").trim() || undefined, actors: String(data.actorPack || "").trim() || undefined };
    // v13 progress notifications: `update({pct, message})` moves the bar and says where it is.
    const notice = /** @type {{update?: (data: {pct: number, message?: string}) => void} | undefined} */ (/** @type {unknown} */ (
      ui.notifications?.info(format("ICONENGINE.ContentPack.Progress"), { progress: true })));
    try {
      const outcome = await ContentPackImporter.import(this.#text, { names,
        progress: share => notice?.update?.({ pct: share }) });
      const text = format("ICONENGINE.ContentPack.Done", { pack: outcome.report.name, created: String(outcome.created), updated: String(outcome.updated),
        packs: [outcome.packs.items, outcome.packs.actors].join(", ") });
      notice?.update?.({ pct: 1, message: text });
      ui.notifications?.info(text);
      await this.close();
    } catch (error) {
      notice?.update?.({ pct: 1 });
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    }
  }
}
