/**
 * The ONLY Foundry stand-in of the browser tests. Its base is what rendering a chat card needs:
 * - game.i18n.localize / format, from lang/en.json
 * - foundry.applications.handlebars.renderTemplate, via the real Handlebars
 * - the `localize` Handlebars helper (with hash arguments formatting, as Foundry's does)
 * - foundry.applications.handlebars.loadTemplates, registering each template as a partial named by
 *   its path (as Foundry does), for the sheet partials
 * Template paths under systems/icon-engine/ map to the repo root, as Foundry serves them; core's
 * own templates (`templates/...`) to the stand-ins under test/browser/foundry/ (only the ones the
 * system renders: the combat tracker's parts, the roll card, manual dice entry).
 * `installWorld()` then `startGame()` add a v13 world booted as Foundry boots one; it behaves as
 * v13 does wherever the system relies on it, and docs/foundry-api.md ("The browser shim") lists
 * where v13's behaviour was read and every way it still differs, with why that hides nothing.
 *
 * Everything it provides is held to foundry-vtt-types by scripts/shim-conformance.mjs (run by
 * `npm run typecheck`): a member Foundry does not declare, or one whose type does not fit the
 * declaration, fails the build. What is not Foundry API (test plumbing) is marked on its
 * statement with a comment `@shim-unchecked <reason>`.
 */

/*
 * The shim is laid out as Foundry's namespaces, one file each under ./shim/ (each imports what it
 * needs from the others; this file only composes them, and the page loads only this file):
 * - generation.mjs    the one switch: the Foundry generation the page plays (13 or 14)
 * - base.mjs          what a chat card needs (game.i18n, foundry.applications.handlebars)
 * - utils.mjs         foundry.utils and foundry.helpers (collections, Hooks, client settings)
 * - data.mjs          foundry.abstract and foundry.data.fields (the data models)
 * - documents.mjs     foundry.documents and their collections, fromUuid
 * - dice.mjs          foundry.dice (Roll and its terms)
 * - applications.mjs  foundry.applications (api, sheets, apps, ux, ui, sidebar, dice)
 * - canvas.mjs        the canvas, foundry.canvas, foundry.grid and PIXI
 * - world.mjs         installWorld, startGame, installPack
 */

/* ------------------------------------------------------------------------------------------ */
/*  A world: the Foundry v13 classes the system's entry point and the in-Foundry test batch    */
/*  need, installed on demand by `installWorld()` and started by `startGame()` (the card tests  */
/*  only need base.mjs).                                                                        */
/*  Each member mirrors its declaration in @league-of-foundry-developers/foundry-vtt-types     */
/*  (path given per class); behaviour follows v13's as documented there and in docs/           */
/*  foundry-api.md. Nothing here is ICON-specific: the system's own classes run on top.        */
/* ------------------------------------------------------------------------------------------ */

export { GENERATION } from "./shim/generation.mjs";
import "./shim/base.mjs";
export { broadcasts } from "./shim/documents.mjs";
export { putOutOfSight } from "./shim/canvas.mjs";
export { chatInput } from "./shim/applications.mjs";
export { installPack, startGame, installWorld } from "./shim/world.mjs";
