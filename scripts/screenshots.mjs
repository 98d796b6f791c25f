// Makes the README's screenshots (docs/screenshots/) from the PNGs the browser tests write
// to test-results/, in the headless Chromium the tests use (no image tools to install). They come
// from test/browser/look.test.mjs: real documents in the shim world, each sheet rendered by its
// own class inside v13's window frame, each card inside v13's chat message, in v13's light and
// dark themes, with Font Awesome and Signika:
//   character-sheet.png  the character sheet, its Combat tab in the light theme beside its
//                        Narrative tab in the dark theme
//   attack-card.png      the attack dialog with the target's exact odds, beside the card the roll
//                        made (hit, damage applied, Undo), both in the light theme
//   combat-tracker.png   the tracker mid-round, in the dark theme (the sidebar's usual scheme)
//   abilities.png        the character sheet's Abilities tab in the light theme (ability, trait and
//                        relic cards, one spent), beside an ability's use card in the dark theme
// And the in-game guide's images (assets/guide/*.webp, shipped in the system; docs/guide.md shows
// them): GUIDE below names each one's sources, WebP-encoded by Chromium so they stay small.
// scripts/screenshots.sh runs those tests first. Fails if a source is missing or a result is over
// MAX_BYTES (GUIDE_MAX_BYTES for the guide's), so the committed images stay small.
//   node scripts/screenshots.mjs
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openPage } from "../test/support/browser.mjs";
import { SCREENSHOTS } from "./release-manifest.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RESULTS = `${ROOT}test-results/`;
const OUT = `${ROOT}docs/screenshots/`;
// The character sheet is two windows side by side (light and dark), each at its own size.
const MAX_BYTES = 200_000;
const GUIDE_OUT = `${ROOT}assets/guide/`;
const GUIDE_MAX_BYTES = 40_000;

/** Each README screenshot: the test results it is made of, side by side, with a caption under each. */
const SOURCES = {
  "character-sheet.png": [["look-character-combat-light.png", "Light theme: the Combat tab"], ["look-character-narrative-dark.png", "Dark theme: the Narrative tab"]],
  "attack-card.png": [["look-dialog-attack-light.png", "Before the roll: the odds per target"], ["look-card-attack-light.png", "The roll: the core's verdict, applied"]],
  "combat-tracker.png": [["look-tracker-dark.png", ""]],
  "abilities.png": [["look-character-abilities-light.png", "Light theme: the Abilities tab"], ["look-card-use-dark.png", "Dark theme: an ability's use card"]]
};

/**
 * The guide's images: the test results each is made of (with a caption, and a crop
 * `[x, y, width, height]` where the test shot more than the part shown).
 * @type {Record<string, [string, string, number[]?][]>}
 */
const GUIDE = {
  "character-sheet.webp": [["look-character-combat-light.png", ""]],
  "character-narrative.webp": [["look-character-narrative-light.png", ""]],
  "attack-dialog.webp": [["look-dialog-attack-light.png", ""]],
  "attack-card.webp": [["attack-card.png", "Rolled"], ["attack-card-applied.png", "Applied, with Undo"]],
  "tactical-buttons.webp": [["sheet-tactical-block.png", ""]],
  "cure-card.webp": [["cure-card.png", ""]],
  "action-roll.webp": [["narrative-dialog.png", "The dialog"], ["narrative-action-card.png", "The card"]],
  "fortune-card.webp": [["narrative-fortune-card.png", ""]],
  "burden.webp": [["narrative-burden-prompt.png", "Breaking: name the burden"], ["narrative-burden.png", "The burden on the sheet"]],
  "clocks.webp": [["look-dialog-clocks-light.png", ""]],
  "odds-card.webp": [["odds-card.png", ""]],
  // The foe's stat block in two: its name, class, template and numbers; then its traits and actions.
  "foe-sheet.webp": [["look-foe-light.png", "", [0, 0, 600, 535]]],
  "foe-statblock.webp": [["look-foe-light.png", "", [0, 538, 600, 565]]],
  "combat-tracker.webp": [["look-tracker-light.png", "Light theme"], ["look-tracker-dark.png", "Dark theme"]],
  "pack-import.webp": [["pack-import.png", "", [16, 16, 300, 683]]],
  "hero-sheet.webp": [["look-hero-light.png", ""]],
  "help-card.webp": [["guide-help-card.png", ""]],
  "ability-cards.webp": [["look-character-abilities-light.png", ""]],
  "use-card.webp": [["look-card-use-light.png", ""]],
  "area-template.webp": [["abilities-walkthrough-6-preview.png", "The preview under the pointer"], ["abilities-walkthrough-7-board.png", "Placed: the covered tokens targeted"]],
  "content-pack.webp": [["abilities-walkthrough-1-content-pack.png", ""]]
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

/**
 * Lay the parts out side by side in the page, captioned.
 * @param {import("playwright-core").Page} page
 * @param {[string, string, number[]?][]} parts
 */
async function compose(page, parts) {
  const figures = await Promise.all(parts.map(async ([file, caption, crop]) => {
    const image = crop
      ? `<div style="width:${crop[2]}px;height:${crop[3]}px;overflow:hidden"><img src="${await dataUrl(file)}" style="margin:${-crop[1]}px 0 0 ${-crop[0]}px"></div>`
      : `<img src="${await dataUrl(file)}">`;
    return `<figure>${image}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`;
  }));
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.setContent(`<!doctype html><style>
    body { margin: 0; font: 13px sans-serif; color: #333; }
    #shot { display: inline-flex; gap: 16px; align-items: flex-start; padding: ${parts.length > 1 ? "12px" : "0"}; background: #f0eee6; }
    figure { margin: 0; } img { display: block; } figcaption { margin-top: 6px; text-align: center; }
    </style><div id="shot">${figures.join("")}</div>`);
  await page.locator("img").evaluateAll(images => Promise.all(images.map(i => i.decode())));
}

await mkdir(OUT, { recursive: true });
await mkdir(GUIDE_OUT, { recursive: true });
const browser = await openPage();
try {
  for (const [target, parts] of Object.entries(SOURCES)) {
    await compose(browser.page, parts);
    await browser.page.locator("#shot").screenshot({ path: OUT + target });
    const { size } = await stat(OUT + target);
    if (size > MAX_BYTES) throw new Error(`docs/screenshots/${target} is ${size} bytes, over ${MAX_BYTES}`);
    console.log(`docs/screenshots/${target}: ${Math.round(size / 1024)} KB from ${parts.map(p => p[0]).join(" + ")}`);
  }
  for (const [target, parts] of Object.entries(GUIDE)) {
    await compose(browser.page, parts);
    // Chromium's own WebP encoder, through a canvas of the composed PNG
    const png = (await browser.page.locator("#shot").screenshot()).toString("base64");
    const webp = await browser.page.evaluate(async source => {
      const image = new Image();
      image.src = source;
      await image.decode();
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
      canvas.getContext("2d")?.drawImage(image, 0, 0);
      const url = canvas.toDataURL("image/webp", 0.85);
      if (!url.startsWith("data:image/webp")) throw new Error("this Chromium encodes no WebP");
      return url.slice(url.indexOf(",") + 1);
    }, `data:image/png;base64,${png}`);
    await writeFile(GUIDE_OUT + target, Buffer.from(webp, "base64"));
    const { size } = await stat(GUIDE_OUT + target);
    if (size > GUIDE_MAX_BYTES) throw new Error(`assets/guide/${target} is ${size} bytes, over ${GUIDE_MAX_BYTES}`);
    console.log(`assets/guide/${target}: ${Math.round(size / 1024)} KB from ${parts.map(p => p[0]).join(" + ")}`);
  }
  if (browser.errors.length) throw new Error(browser.errors.join("\n"));
} finally {
  await browser.close();
}
