/**
 * The shim's one switch (test/browser/foundry-shim.mjs): which Foundry generation it plays. Every
 * file of the shim that differs between 13 and 14 imports it from here; none reads the page or
 * the environment itself.
 */

/**
 * The Foundry generation this page's shim plays: 14 when the page was told so before it loaded
 * (test/support/browser.mjs, from `ICON_FOUNDRY_GENERATION`), else 13. The one switch: every
 * member that differs between the two reads it.
 */
export const GENERATION = globalThis.ICON_SHIM_GENERATION === 14 ? 14 : 13;
