/**
 * Boot the system in a browser page as Foundry does (imported by page code of the browser tests):
 * the shim's world, then the entry point and its hooks in Foundry's order (init, i18nInit, setup,
 * ready), the wasm core loaded and the sheet partials registered (init's template loads are not
 * awaited; in Foundry they finish long before anyone opens a sheet).
 * @param {{as?: "gm"|"player", modules?: string[], beforeInit?: (shim: object) => void}} [options]
 *   `beforeInit` runs once the world is installed, before the system's entry point.
 */
export async function bootSystem({ as = "gm", modules = [], beforeInit } = {}) {
  const shim = await import("../browser/foundry-shim.mjs");
  shim.installWorld({ as, modules });
  beforeInit?.(shim);
  await import("../../module/icon-engine.mjs");
  for (const hook of ["init", "i18nInit", "setup"]) Hooks.callAll(hook);
  game.ready = true;
  Hooks.callAll("ready");
  const { loadCore } = await import("../../module/core.mjs");
  await loadCore();
  await foundry.applications.handlebars.loadTemplates(CONFIG.ICONENGINE.partials);
  return shim;
}
