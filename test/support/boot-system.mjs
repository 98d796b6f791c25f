/**
 * Boot the system in a browser page as Foundry does (imported by page code of the browser tests,
 * and by test/support/browser.mjs `openHarness`): the shim's world, then the entry point and
 * Foundry's start (`shim.startGame()`: init, the sheets, i18nInit, the world's documents, setup,
 * the user interface, ready), the wasm core loaded and the sheet partials registered (init's
 * template loads are not awaited; in Foundry they finish long before anyone opens a sheet).
 * @param {{as?: "gm"|"player", modules?: string[], data?: object, beforeInit?: (shim: object) => void, core?: boolean, templates?: boolean}} [options]
 *   `data` is the stored world (installWorld's); `beforeInit` runs once the world is installed,
 *   before the system's entry point; `core: false` leaves the wasm core unloaded, `templates:
 *   false` the partials and card templates (both loaded by default).
 */
export async function bootSystem({ as = "gm", modules = [], data = {}, beforeInit, core = true, templates = core } = {}) {
  const shim = await import("../browser/foundry-shim.mjs");
  shim.installWorld({ as, modules, data });
  beforeInit?.(shim);
  await import("../../module/icon-engine.mjs");
  await shim.startGame();
  if (core) {
    const { loadCore } = await import("../../module/core.mjs");
    await loadCore();
  }
  if (templates) {
    await foundry.applications.handlebars.loadTemplates(CONFIG.ICONENGINE.partials);
    // and the chat cards' templates, compiled for their synchronous render (module/dice/sync-templates.mjs)
    await globalThis.iconEngine.dice.SyncTemplates.ready;
  }
  return shim;
}
