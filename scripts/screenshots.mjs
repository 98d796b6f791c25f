// Makes the README's three screenshots (docs/screenshots/) from the PNGs the browser tests write
// to test-results/, in the headless Chromium the tests use (no image tools to install):
//   character-sheet.png  the character sheet (sheets.test.mjs: character-combat.png)
//   attack-card.png      the attack dialog with each target's exact odds, beside the card the roll
//                        made (attack.test.mjs: attack-dialog.png, attack-card.png)
//   combat-tracker.png   the tracker mid-round (combat-tracker.test.mjs: combat-tracker-mid-round.png)
// scripts/screenshots.sh runs those tests first. Fails if a source is missing or a result is over
// MAX_BYTES, so the committed images stay small.
//   node scripts/screenshots.mjs
import { mkdir, readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openPage } from "../test/support/browser.mjs";
import { SCREENSHOTS } from "./release-manifest.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RESULTS = `${ROOT}test-results/`;
const OUT = `${ROOT}docs/screenshots/`;
const MAX_BYTES = 120_000;

/** Each README screenshot: the test results it is made of, side by side, with a caption under each. */
const SOURCES = {
  "character-sheet.png": [["character-combat.png", ""]],
  "attack-card.png": [["attack-dialog.png", "Before the roll: the odds per target"], ["attack-card.png", "The roll: the core's verdict"]],
  "combat-tracker.png": [["combat-tracker-mid-round.png", ""]]
};

const names = SCREENSHOTS.map(s => s.file);
if (JSON.stringify(Object.keys(SOURCES)) !== JSON.stringify(names)) {
  throw new Error(`screenshots.mjs makes ${Object.keys(SOURCES)}, but the manifest publishes ${names}`);
}

/** @param {string} file */
async function dataUrl(file) {
  try {
    return `data:image/png;base64,${(await readFile(RESULTS + file)).toString("base64")}`;
  } catch {
    throw new Error(`no test-results/${file}: run the browser tests first (bash scripts/screenshots.sh does)`);
  }
}

await mkdir(OUT, { recursive: true });
const browser = await openPage();
try {
  for (const [target, parts] of Object.entries(SOURCES)) {
    const figures = await Promise.all(parts.map(async ([file, caption]) =>
      `<figure><img src="${await dataUrl(file)}">${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`));
    await browser.page.setViewportSize({ width: 1200, height: 900 });
    await browser.page.setContent(`<!doctype html><style>
      body { margin: 0; font: 13px sans-serif; color: #333; }
      #shot { display: inline-flex; gap: 16px; align-items: flex-start; padding: ${parts.length > 1 ? "12px" : "0"}; background: #f0eee6; }
      figure { margin: 0; } img { display: block; } figcaption { margin-top: 6px; text-align: center; }
      </style><div id="shot">${figures.join("")}</div>`);
    await browser.page.locator("img").evaluateAll(images => Promise.all(images.map(i => i.decode())));
    await browser.page.locator("#shot").screenshot({ path: OUT + target });
    const { size } = await stat(OUT + target);
    if (size > MAX_BYTES) throw new Error(`docs/screenshots/${target} is ${size} bytes, over ${MAX_BYTES}`);
    console.log(`docs/screenshots/${target}: ${Math.round(size / 1024)} KB from ${parts.map(p => p[0]).join(" + ")}`);
  }
  if (browser.errors.length) throw new Error(browser.errors.join("\n"));
} finally {
  await browser.close();
}
