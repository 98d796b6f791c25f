/**
 * The status icons (assets/icons/statuses/<id>.svg) as a token shows them: rasterised by Chromium
 * at 24 px (Foundry draws token effects at about a fifth of a grid square, 20 px on a 100 px
 * grid) and at 64 px. Every status has one, no two are the same picture, and each draws something
 * that reads on light and dark token art. Contact sheet: test-results/status-icons.png.
 *
 * "The same picture" is judged on lightness alone (CIE L*), so icons that differ only in hue
 * count as one (players with colour blindness; Foundry's effect tint), and at the best of the nine
 * alignments one pixel apart, so a copy moved by a pixel counts as one too. Two icons are
 * different pictures when, so aligned, at least MIN_DIFFERENT of the 24 × 24 pixels differ by
 * more than DIFFERENT_LIGHTNESS. The measure is itself checked on near-duplicates made here (an
 * icon moved by a pixel, an icon recoloured into another group's colour). Two-letter labels on
 * one shape (the icons this replaced) mostly fall below it: 95 of their 117 same-shape pairs.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ICONENGINE } from "../../module/config.mjs";
import { openPage } from "../support/browser.mjs";

const dir = new URL("../../assets/icons/statuses/", import.meta.url);
const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const lang = JSON.parse(await readFile(new URL("../../lang/en.json", import.meta.url), "utf8"));

/** Status id -> its group in ICONENGINE.statuses (positive, status, state). */
const kinds = new Map(Object.entries(ICONENGINE.statuses).flatMap(([kind, ids]) => ids.map(id => [id, kind])));
const ids = [...kinds.keys()];

/** Light and dark token art the icons must stand out from (parchment, a night scene). */
const LIGHT = [240, 234, 214];
const DARK = [27, 27, 27];
/** The neutral grey pictures are compared on (L* 54, between both). */
const GREY = [128, 128, 128];
/** ΔL* a GM sees at a glance on a 24 px badge (about a fifth of the black-to-white range). */
const DIFFERENT_LIGHTNESS = 20;
/** Pixels of the 24 × 24 that must differ: 48 (8 %, a 7 × 7 patch) is a part of the picture, not a detail. */
const MIN_DIFFERENT = 48;
/** WCAG 2.1 SC 1.4.11: graphical objects need a 3:1 contrast against what is next to them. */
const MIN_CONTRAST = 3;

/** @param {number} c  An sRGB channel, 0-255. */
const linear = c => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
/** @param {number[]} rgb */
const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
/** CIE L* (0 black – 100 white) of a relative luminance. */
const lightness = y => y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : y * 24389 / 27;
/** WCAG contrast ratio of two luminances. */
const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * An RGBA raster composited over a background colour.
 * @param {number[]} rgba
 * @param {number[]} bg
 * @returns {number[][]} one [r, g, b] per pixel
 */
function over(rgba, bg) {
  const out = [];
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3] / 255;
    out.push([0, 1, 2].map(k => rgba[i + k] * a + bg[k] * (1 - a)));
  }
  return out;
}

/**
 * The picture two icons are compared by: L* of each pixel over grey.
 * @param {number[]} rgba
 */
const picture = rgba => Float64Array.from(over(rgba, GREY), p => lightness(luminance(p)));

/**
 * How many pixels of two pictures differ by more than DIFFERENT_LIGHTNESS, at the best of the
 * nine alignments one pixel apart (outside the raster counts as the grey background).
 * @param {Float64Array} a
 * @param {Float64Array} b
 * @param {number} size
 */
function differentPixels(a, b, size) {
  const grey = lightness(luminance(GREY));
  let best = Infinity;
  for (let sy = -1; sy <= 1; sy++) for (let sx = -1; sx <= 1; sx++) {
    let n = 0;
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
      const bx = x + sx, by = y + sy;
      const other = bx < 0 || by < 0 || bx >= size || by >= size ? grey : b[by * size + bx];
      if (Math.abs(a[y * size + x] - other) > DIFFERENT_LIGHTNESS) n++;
    }
    best = Math.min(best, n);
  }
  return best;
}

/**
 * Legibility of one 24 px raster. `coverage`: share of opaque pixels. `ink`: share of the central
 * disc (inside every frame's ring) at 3:1 or more against the disc's own backing colour (its
 * commonest colour), i.e. the pictogram. `edge`: for each background, the share of 48 rays from
 * the outside in that meet a pixel at 3:1 against that background within 3 px (an eighth of the
 * badge) of the silhouette's edge, i.e. how much of the rim stands out.
 * @param {number[]} rgba
 * @param {number} size
 */
function legibility(rgba, size) {
  const c = (size - 1) / 2;
  let opaque = 0;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] >= 128) opaque++;
  // The central disc: 1/3 of the size in radius, inside the ring (which starts at 25.5/64).
  const disc = [];
  const flat = over(rgba, GREY);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    if (Math.hypot(x - c, y - c) <= size / 3) disc.push(flat[y * size + x]);
  }
  const counts = new Map();
  for (const p of disc) {
    const key = p.map(v => Math.round(v / 16)).join();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [backingKey] = [...counts].sort((a, b) => b[1] - a[1])[0];
  const backing = luminance(backingKey.split(",").map(v => Number(v) * 16));
  const ink = disc.filter(p => contrast(luminance(p), backing) >= MIN_CONTRAST).length / disc.length;
  /** @param {number[]} bg */
  const edge = bg => {
    const px = over(rgba, bg);
    const bgL = luminance(bg);
    let good = 0;
    const rays = 48;
    for (let r = 0; r < rays; r++) {
      const angle = 2 * Math.PI * r / rays;
      let rim = -1, ok = false;
      for (let d = size / 2 + 1; d >= 0 && (rim < 0 || d > rim - 3); d -= 0.25) {
        const x = Math.round(c + d * Math.cos(angle)), y = Math.round(c + d * Math.sin(angle));
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const i = y * size + x;
        if (rgba[i * 4 + 3] < 128) continue;
        if (rim < 0) rim = d;
        if (contrast(luminance(px[i]), bgL) >= MIN_CONTRAST) ok = true;
      }
      if (ok) good++;
    }
    return good / rays;
  };
  return { coverage: opaque / (size * size), ink, light: edge(LIGHT), dark: edge(DARK) };
}

let browser;
/** @type {Map<string, string>} */
const sources = new Map();
/** @type {Map<string, {24: number[], 64: number[]}>} */
const rasters = new Map();

/**
 * Rasterises SVG sources as an <img> drawn into a canvas (as a token's effect texture is).
 * @param {string[]} svgs
 * @param {number} size
 * @param {number} [offset]  draw this many pixels right and down
 * @returns {Promise<number[][]>}
 */
function rasterise(svgs, size, offset = 0) {
  return browser.page.evaluate(async ({ svgs, size, offset }) => Promise.all(svgs.map(async svg => {
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    await img.decode();
    const canvas = new OffscreenCanvas(size, size);
    const ctx = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext("2d"));
    ctx.drawImage(img, offset, offset, size, size);
    return Array.from(ctx.getImageData(0, 0, size, size).data);
  })), { svgs, size, offset });
}

before(async () => {
  for (const id of ids) {
    try {
      sources.set(id, await readFile(new URL(`${id}.svg`, dir), "utf8"));
    } catch { /* reported by the first test */ }
  }
  browser = await openPage();
  const present = [...sources.keys()];
  const [small, large] = await Promise.all([24, 64].map(size => rasterise(present.map(id => sources.get(id) ?? ""), size)));
  present.forEach((id, i) => rasters.set(id, { 24: small[i], 64: large[i] }));
});
after(async () => {
  await browser?.close();
});

test("every status has its icon, and every icon is a status's", async () => {
  const files = (await readdir(dir)).filter(f => f.endsWith(".svg")).map(f => f.slice(0, -4)).sort();
  assert.equal(ids.length, 26);
  assert.deepEqual(ids.filter(id => !files.includes(id)), [], "statuses without an icon");
  assert.deepEqual(files.filter(f => !kinds.has(f)), [], "icons of no status");
});

test("each icon is a small self-contained SVG labelled with its status's name", () => {
  for (const [id, svg] of sources) {
    const root = svg.match(/<svg\b[^>]*>/)?.[0] ?? "";
    assert.match(root, /viewBox="0 0 64 64"/, id);
    assert.match(root, /role="img"/, id);
    const label = root.match(/aria-label="([^"]+)"/)?.[1];
    // The name as the glossary writes it ("Hatred (of)" is "Hatred of X" there).
    const name = lang.ICONENGINE.Status[id].name.replace(/ \(of\)$/, "");
    assert.ok(label?.startsWith(name), `${id}: aria-label ${label} names ${name}`);
    assert.equal(svg.match(/<title>([^<]+)<\/title>/)?.[1], label, `${id}: <title> as the label`);
    // A picture, not lettering; nothing fetched, nothing run.
    assert.doesNotMatch(svg, /<(text|image|script|foreignObject|style|use)\b|href=|url\(|@import|\bon\w+=/i, id);
    assert.ok(Buffer.byteLength(svg) <= 2048, `${id}: ${Buffer.byteLength(svg)} bytes`);
  }
});

test("the measure calls near-duplicates the same picture", async () => {
  // Sturdy moved by one pixel, and sturdy in the blights' red, are sturdy.
  const sturdy = sources.get("sturdy") ?? "";
  const [moved] = await rasterise([sturdy], 24, 1);
  const [red] = await rasterise([sturdy.replaceAll("#2e7d4f", "#b0402e")], 24);
  const base = picture(rasters.get("sturdy")?.[24] ?? []);
  assert.ok(differentPixels(base, picture(moved), 24) < MIN_DIFFERENT);
  assert.ok(differentPixels(base, picture(red), 24) < MIN_DIFFERENT);
});

test("no two icons are the same picture at 24 px", () => {
  const pictures = [...rasters].map(([id, r]) => ({ id, raw: r[24].join(), picture: picture(r[24]) }));
  const alike = [];
  let closest = { n: Infinity, pair: "" };
  for (let i = 0; i < pictures.length; i++) {
    for (let j = i + 1; j < pictures.length; j++) {
      const a = pictures[i], b = pictures[j];
      const n = a.raw === b.raw ? 0 : differentPixels(a.picture, b.picture, 24);
      if (n < closest.n) closest = { n, pair: `${a.id}/${b.id}` };
      if (n < MIN_DIFFERENT) alike.push(`${a.id} and ${b.id} (${n} pixels differ)`);
    }
  }
  assert.deepEqual(alike, [], `closest pair: ${closest.pair}`);
});

test("each icon draws a legible pictogram at 24 px, on light and on dark art", () => {
  const weak = [];
  for (const [id, r] of rasters) {
    const small = legibility(r[24], 24);
    const large = legibility(r[64], 64);
    // A badge, not a speck; a pictogram on its backing; a rim that stands out all round.
    if (small.coverage < 0.6 || large.coverage < 0.6) weak.push(`${id}: covers ${small.coverage.toFixed(2)}`);
    if (small.ink < 0.15 || small.ink > 0.85) weak.push(`${id}: pictogram ${small.ink.toFixed(2)} of the centre`);
    if (small.light < 1 || small.dark < 1) weak.push(`${id}: rim stands out ${small.light.toFixed(2)} on light, ${small.dark.toFixed(2)} on dark`);
  }
  assert.deepEqual(weak, []);
});

test("contact sheet: every icon at 24 and 64 px on light and dark art", async () => {
  const page = browser.page;
  const data = id => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sources.get(id) ?? "")}`;
  const css = rgb => `rgb(${rgb.join(" ")})`;
  const groups = { positive: "Positive effects", status: "Statuses", state: "Special states" };
  const rows = Object.entries(ICONENGINE.statuses).map(([kind, list]) => `<h2>${groups[kind] ?? kind}</h2>` + list.map(id => `
    <div class="row"><span class="name">${id}</span>
      ${[LIGHT, DARK].map(bg => `<span class="cell" style="background:${css(bg)}"><img src="${data(id)}" width="24" height="24"></span>`).join("")}
      <span class="cell art"><img src="${data(id)}" width="24" height="24"></span>
      <canvas data-id="${id}" width="24" height="24"></canvas>
      ${[LIGHT, DARK].map(bg => `<span class="cell" style="background:${css(bg)}"><img src="${data(id)}" width="64" height="64"></span>`).join("")}
    </div>`).join("")).join("");
  await page.setViewportSize({ width: 900, height: 400 });
  await page.setContent(`<!doctype html><style>
    body { margin: 8px; font: 12px sans-serif; background: #fff; column-count: 2; }
    h2 { font-size: 13px; margin: 6px 0 2px; }
    .row { display: flex; align-items: center; gap: 4px; margin: 2px 0; break-inside: avoid; }
    .name { width: 90px; }
    .cell { display: inline-flex; padding: 4px; }
    .art { background: linear-gradient(135deg, #d9c9a3, #5a6b3a 45%, #20242c 55%, #c24a3a); }
    canvas { width: 72px; height: 72px; image-rendering: pixelated; }
  </style><body>${rows}</body>`);
  // The 24 px raster, magnified ×3 pixel for pixel.
  await page.evaluate(async () => {
    await Promise.all([...document.images].map(img => img.decode()));
    for (const canvas of document.querySelectorAll("canvas")) {
      const img = /** @type {HTMLImageElement} */ (canvas.closest(".row")?.querySelector("img"));
      const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
      ctx.fillStyle = "#808080";
      ctx.fillRect(0, 0, 24, 24);
      ctx.drawImage(img, 0, 0, 24, 24);
    }
  });
  await mkdir(results, { recursive: true });
  await page.screenshot({ path: `${results}status-icons.png`, fullPage: true });
  assert.equal(await page.locator(".row").count(), ids.length);
  assert.deepEqual(browser.errors, []);
});
