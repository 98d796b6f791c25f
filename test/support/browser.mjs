/**
 * Launches Debian's Chromium through playwright-core with a fresh profile, and collects page
 * errors so tests can fail on them. `openHarness` is the browser tests' one set-up: the harness
 * page with the shim's world booted as a user.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "./static-server.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The Foundry generation the shim plays (test/browser/foundry-shim.mjs): 13 or 14, from the
 * environment's `ICON_FOUNDRY_GENERATION` (13 when unset). `npm run test:browser` runs every
 * browser test under each; every page this opens tells its shim which one.
 */
export const GENERATION = (() => {
  const generation = Number(process.env.ICON_FOUNDRY_GENERATION ?? 13);
  if (generation !== 13 && generation !== 14) throw new Error(`ICON_FOUNDRY_GENERATION must be 13 or 14, not ${process.env.ICON_FOUNDRY_GENERATION}`);
  return generation;
})();

/**
 * Where an ability's area lives under the generation the shim plays: a measured template on 13,
 * a Scene Region on 14 (which folds templates into regions): its embedded document name, the
 * scene's collection and the canvas layer.
 */
export const AREAS = Object.freeze(GENERATION >= 14
  ? { document: "Region", collection: "regions", layer: "regions" }
  : { document: "MeasuredTemplate", collection: "templates", layer: "templates" });

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync"
];

/**
 * @returns {Promise<{page: import("playwright-core").Page, errors: string[], close: () => Promise<void>}>}
 */
export async function openPage() {
  const profile = await mkdtemp(join(tmpdir(), "icon-engine-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 480, height: 720 }
  });
  // Before any of the page's scripts: the generation the shim plays (read once, when it loads).
  await context.addInitScript(generation => { globalThis.ICON_SHIM_GENERATION = generation; }, GENERATION);
  const page = context.pages()[0] ?? await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", error => errors.push(`pageerror: ${error.message}`));
  page.on("console", message => {
    // A failed resource's console line names no file; its location does.
    if (message.type() === "error") errors.push(`console.error: ${message.text()}${/^Failed to load/.test(message.text()) ? ` (${message.location().url})` : ""}`);
  });
  page.on("requestfailed", request => errors.push(`requestfailed: ${request.url()}`));
  return {
    page,
    errors,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  };
}

/**
 * Page code that defines `until(test, what, timeout = 5000)`: polls `test` until it returns
 * something truthy (what the system does after a click is asynchronous, as in Foundry), else
 * throws naming `what`. Add it with `page.addInitScript(UNTIL)` or evaluate it in the page.
 */
export const UNTIL = `globalThis.until = async (test, what, timeout = 5000) => {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
};`;

/** Where the harness page is served: where Foundry serves a system's files, so relative paths resolve. */
export const HARNESS_PATH = "/systems/icon-engine/test/browser/harness.html";

/**
 * @typedef {object} HarnessOptions
 * @property {"gm" | "player" | null} [as]  The user the page's world is booted as (test/support/boot-system.mjs);
 *   null: no world, only the shim's base (what a chat card needs). Default "gm".
 * @property {{width: number, height: number}} [viewport]  The page's size (openPage's is 480×720).
 * @property {boolean} [core]  Load the wasm core once the world has started (default true).
 * @property {boolean} [templates]  Then the sheet partials and the chat cards' templates (default: `core`).
 * @property {object} [data]  The world's stored documents (installWorld's `data`).
 * @property {string[]} [modules]  The active modules' ids (installWorld's `modules`).
 * @property {((shim: any, arg: any) => unknown) | string} [beforeInit]  Page code run once the world is installed,
 *   before the system's entry point: sent as its source, so it uses only its arguments and the
 *   page's globals. What it returns, read once the world has booted, is the harness's `init`.
 * @property {unknown} [arg]  The second argument of `beforeInit` (JSON).
 * @property {string[]} [scripts]  Page scripts run once the shim is ready, before the world (e.g. {@link UNTIL}).
 * @property {(page: import("playwright-core").Page) => unknown} [onPage]  Called (and awaited) before the
 *   page loads the harness: to listen to its requests, or route them.
 * @property {string} [path]  Where the harness is served (default {@link HARNESS_PATH}).
 * @property {Parameters<typeof startServer>[0]} [server]  The static server's options.
 */

/**
 * The browser tests' one set-up: starts the static server, opens a page, loads the harness
 * (test/browser/harness.html) and waits for the shim, then boots the system in the shim's world
 * as the user `as` (installWorld, the entry point, startGame) and loads the core when asked.
 * `close` closes the page and the server.
 * @param {HarnessOptions} [options]
 * @returns {Promise<{page: import("playwright-core").Page, errors: string[], server: {url: string, close: () => Promise<void>},
 *   init: unknown, close: () => Promise<void>}>}
 */
export async function openHarness({ as = "gm", viewport, core = true, templates = core, data = {}, modules = [], beforeInit, arg,
  scripts = [], onPage, path = HARNESS_PATH, server: serverOptions } = {}) {
  const server = await startServer(serverOptions);
  /** @type {Awaited<ReturnType<typeof openPage>> | null} */
  let browser = null;
  try {
    browser = await openPage();
    const { page } = browser;
    if (viewport) await page.setViewportSize(viewport);
    await onPage?.(page);
    await page.goto(`${server.url}${path}`);
    await page.waitForFunction(() => globalThis.shimReady === true);
    for (const script of scripts) await page.evaluate(script);
    const init = as === null ? undefined : await page.evaluate(async ({ as, core, templates, data, modules, beforeInit, arg }) => {
      // Beside the harness page, wherever it is served (the page's shim is the one it imports).
      const { bootSystem } = await import(new URL("../support/boot-system.mjs", location.href).href);
      let before;
      await bootSystem({ as, core, templates, data, modules,
        beforeInit: beforeInit ? shim => { before = (0, eval)(`(${beforeInit})`)(shim, arg); } : undefined });
      return before;
    }, { as, core, templates, data, modules, beforeInit: beforeInit && String(beforeInit), arg });
    const opened = browser;
    return { page, errors: browser.errors, server, init, close: async () => { await opened.close(); await server.close(); } };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}
