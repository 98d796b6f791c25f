/**
 * A page with the system booted in the shim world (test/browser/foundry-shim.mjs `installWorld`)
 * as Foundry calls its hooks, for the enclosing suite: opened before its tests, closed after.
 * `browser` is set once the page is open, so tests read it through the returned object.
 */
import { after, before } from "node:test";
import { openPage } from "./browser.mjs";
import { startServer } from "./static-server.mjs";

/**
 * @param {{as?: "gm" | "player"}} [options]
 * @returns {{browser: Awaited<ReturnType<typeof openPage>> | null}}
 */
export function shimWorldPage({ as = "gm" } = {}) {
  /** @type {{browser: Awaited<ReturnType<typeof openPage>> | null}} */
  const open = { browser: null };
  let server;
  before(async () => {
    server = await startServer();
    open.browser = await openPage();
    const { page } = open.browser;
    await page.goto(`${server.url}/systems/icon-engine/test/browser/harness.html`);
    await page.waitForFunction(() => globalThis.shimReady === true);
    await page.evaluate(async as => {
      const shim = await import("./foundry-shim.mjs");
      shim.installWorld({ as });
      await import("../../module/icon-engine.mjs");
      await shim.startGame();
      const { loadCore } = await import("../../module/core.mjs");
      await loadCore();
      await foundry.applications.handlebars.loadTemplates(CONFIG.ICONENGINE.partials);
      // and the chat cards' templates, compiled for their synchronous render (module/dice/sync-templates.mjs)
      await globalThis.iconEngine.dice.SyncTemplates.ready;
    }, as);
  });
  after(async () => {
    await open.browser?.close();
    await server?.close();
  });
  return open;
}
