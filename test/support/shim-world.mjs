/**
 * A page with the system booted in the shim world (test/browser/foundry-shim.mjs `installWorld`)
 * as Foundry calls its hooks, for the enclosing suite: opened before its tests, closed after
 * (test/support/browser.mjs `openHarness`). `browser` is set once the page is open, so tests read
 * it through the returned object.
 */
import { after, before } from "node:test";
import { openHarness } from "./browser.mjs";

/**
 * @param {{as?: "gm" | "player"}} [options]
 * @returns {{browser: Awaited<ReturnType<typeof openHarness>> | null}}
 */
export function shimWorldPage({ as = "gm" } = {}) {
  /** @type {{browser: Awaited<ReturnType<typeof openHarness>> | null}} */
  const open = { browser: null };
  before(async () => {
    open.browser = await openHarness({ as });
  });
  after(async () => {
    await open.browser?.close();
  });
  return open;
}
