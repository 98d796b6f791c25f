/**
 * Launches Debian's Chromium through playwright-core with a fresh profile, and collects page
 * errors so tests can fail on them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

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
