/**
 * What the import dialogs' reports say of their counts, each in its plural form ("1 page", "2
 * pages"): the journal pack import's (PackImportDialog) and the content pack import's
 * (ContentPackDialog). Pure (game.i18n only), so the browser tests render the dialogs' templates
 * with exactly these lines.
 * @import { ImportReport } from "../types/core.js"
 */
import { format, formatPlural } from "./i18n.mjs";

/**
 * A journal pack's report: its entries, pages and lines, the history read, what was skipped, the
 * unreadable lines, the unsafe HTML stripped and the values repaired.
 * @param {ImportReport} report
 * @param {{pages: number, stripped: number, repaired: number}} more  Counted by the dialog.
 */
export function packReportLines(report, { pages, stripped, repaired }) {
  return {
    counts: format("ICONENGINE.Import.Counts", { documents: formatPlural("ICONENGINE.Import.Entries", report.documents),
      pages: formatPlural("ICONENGINE.Import.Pages", pages), lines: formatPlural("ICONENGINE.Import.Lines", report.lines) }),
    history: format("ICONENGINE.Import.History", { superseded: formatPlural("ICONENGINE.Import.Superseded", report.superseded),
      deleted: formatPlural("ICONENGINE.Import.Deleted", report.deleted) }),
    skipped: formatPlural("ICONENGINE.Import.Skipped", report.skipped),
    unknownDeletions: formatPlural("ICONENGINE.Import.UnknownDeletions", report.unknownDeletions),
    indexLines: formatPlural("ICONENGINE.Import.IndexLines", report.indexLines),
    bad: formatPlural("ICONENGINE.Import.Bad", report.bad.length),
    stripped: formatPlural("ICONENGINE.Import.Stripped", stripped),
    repaired: formatPlural("ICONENGINE.Import.Repaired", repaired)
  };
}

/** A content pack's kinds, as its report lists them. */
export const CONTENT_KIND_ORDER = /** @type {const} */ (["classes", "jobs", "abilities", "traits", "relics", "foes", "foeTemplates"]);

/**
 * A content pack's report: the records that can be imported of all, the documents they make, the
 * valid records by kind (a list in the user's language), the refused records and the warnings.
 * @param {import("../packs/content-pack.mjs").PackReport} report
 * @param {{items: number, actors: number}} documents  What the import writes.
 */
export function contentPackLines(report, { items, actors }) {
  const list = new Intl.ListFormat(game.i18n?.lang || "en", { type: "unit" });
  return {
    counts: formatPlural("ICONENGINE.ContentPack.Counts", report.records, { valid: report.valid,
      items: formatPlural("ICONENGINE.ContentPack.ItemCount", items), actors: formatPlural("ICONENGINE.ContentPack.ActorCount", actors) }),
    kinds: list.format(CONTENT_KIND_ORDER.map(kind => formatPlural(`ICONENGINE.ContentPack.Kind.${kind}`, report.kinds[kind] ?? 0))),
    bad: formatPlural("ICONENGINE.ContentPack.Bad", report.bad.length),
    warnings: formatPlural("ICONENGINE.ContentPack.Warnings", report.warnings.length)
  };
}
