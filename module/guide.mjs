/**
 * The in-game guide: the compendium built from docs/guide.md (scripts/guide-pack.mjs), and the
 * ids of its entry and pages. Ids are derived from the heading text, so a rebuild gives the same
 * ids and a link into the guide (the `/icon help` card's) stays valid as long as its heading does.
 * Pure: the build script and the tests import it as well as the system.
 */
import { SYSTEM_ID } from "./config.mjs";
import derivedId from "./packs/derived-id.mjs";

/** The compendium's name in system.json; its collection id is `icon-engine.guide`. */
export const GUIDE_PACK = "guide";

/** The compendium's collection id (`game.packs` key). */
export const GUIDE_COLLECTION = `${SYSTEM_ID}.${GUIDE_PACK}`;

/** The slug of the guide's one entry (its title, the Markdown's `#` heading). */
export const GUIDE_ENTRY_SLUG = "icon-engine-guide";


/**
 * A heading's anchor as GitHub writes it (github-slugger): lower case, punctuation and symbols
 * dropped, spaces as hyphens. So `[Attack](#attack)` links work on GitHub and in Foundry alike.
 * @param {string} text  The heading's text, without Markdown.
 * @returns {string}
 */
export function guideSlug(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/**
 * A Foundry id (16 letters and digits) derived from a slug: FNV-1a over the seed and the
 * position, the derivation the core's importer uses for ids it has to replace
 * (src/packs/migrate.rs `derived_id`), over `icon-engine.guide:<slug>`.
 * @param {string} slug
 * @returns {string}
 */
export function guideId(slug) {
  return derivedId(`${GUIDE_COLLECTION}:${slug}`);
}

/** The guide entry's id. */
export const GUIDE_ENTRY_ID = guideId(GUIDE_ENTRY_SLUG);

/**
 * The UUID of the guide's page for a heading slug (v13's form for a compendium's embedded
 * document: `Compendium.<package>.<pack>.<Type>.<id>.<EmbeddedType>.<id>`).
 * @param {string} slug
 * @returns {string}
 */
export function guidePageUuid(slug) {
  return `Compendium.${GUIDE_COLLECTION}.JournalEntry.${GUIDE_ENTRY_ID}.JournalEntryPage.${guideId(slug)}`;
}

/**
 * A content link to a guide page, for HTML Foundry enriches (chat messages, journal pages).
 * @param {string} slug
 * @param {string} [label]  The link's text; the page's name when omitted.
 * @returns {string}
 */
export function guideLink(slug, label) {
  return `@UUID[${guidePageUuid(slug)}]${label ? `{${label}}` : ""}`;
}
