/**
 * What the importer's text parsers answer (module/packs/importer.mjs: `parseAbilityText`,
 * `parseFoeText`; docs/content-packs.md, "Pasting text"). Each `system` holds only the fields
 * the text states, in the data model's own field names; the data model fills the rest.
 */

/** Why a piece of pasted text was not understood (i18n: ICONENGINE.Paste.Reason.<reason>). */
export type PasteReason =
  | "outsideItem" | "notARule" | "unknownTag" | "unknownPart" | "outOfRange" | "tooLong" | "tooMany" | "rechargeRoll" | "mismatch";

/** A piece of the text not understood: never dropped. `item`: the index in `items` it belongs to. */
export interface Unparsed { text: string; reason: PasteReason; item: number | null }

/** One item found, as `Item.create` takes it. */
export interface PastedItem { name: string; type: "ability" | "trait" | "relic"; system: Record<string, unknown> & { description: string } }

export interface ParsedText { items: PastedItem[]; unparsed: Unparsed[] }

export interface ParsedFoe {
  foe: { name: string; type: "foe"; system: Record<string, unknown> };
  items: PastedItem[];
  unparsed: Unparsed[];
}

/** The text parsers of the importer. */
export interface PasteApi {
  parseAbilityText(text: string, options?: { type?: "ability" | "trait" | "relic" }): ParsedText;
  parseFoeText(text: string): ParsedFoe;
}
