/**
 * The core's unsafe-HTML scan against Chromium's own HTML parser, on a generated corpus.
 *
 * Each payload mixes what decides how HTML is tokenized (raw text elements, comments in every
 * spelling, bogus comments, CDATA, DOCTYPEs, SVG and MathML with their integration points and
 * breakout tags, tables, selects, templates, noscript) with what could run script or take over
 * the page. Chromium parses it as Foundry renders a page (into a `div`, scripting on; the page
 * has a CSP that runs nothing) and as a sanitiser's inert document does (scripting off); the set
 * of findings in the DOM it builds is computed here, in the browser, from the elements and
 * attributes themselves (URL schemes by `new URL`, CSS by CSSOM). The core reports through
 * `importPack`. Every finding Chromium's DOM has must be reported, and the core may report more
 * only where it says why: markup inside an attribute value (read again as a browser could after
 * a sanitiser re-serialised it), a tag cut off at the end of the text, tags a fragment drops
 * (`body`, `html`, `head`, `frame`, `frameset`), and style sheets read more crudely than CSSOM.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import importer from "../support/load-importer.mjs";

/** A small seeded PRNG (mulberry32), so the corpus is the same on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRUCTURE = [
  "<style>", "</style>", "<STYLE >", "</style >", "</style/>", "<textarea>", "</textarea>", "<title>", "</title>",
  "<noscript>", "</noscript>", "<xmp>", "</xmp>", "<noembed>", "</noembed>", "<noframes>", "</noframes>",
  "<iframe>", "</iframe>", "<script>", "</script>", "<script>/*", "*/</script>", "<plaintext>",
  "<svg>", "</svg>", "<svg/>", "<math>", "</math>", "<mi>", "</mi>", "<mtext>", "<mglyph>", "<malignmark>",
  "<desc>", "</desc>", "<foreignObject>", "</foreignobject>", "<svg><title>", "</title>", "<annotation-xml encoding=\"text/html\">",
  "<annotation-xml>", "</annotation-xml>", "<g>", "</g>", "<table>", "</table>", "<tr>", "<td>", "</td>", "<select>", "</select>",
  "<option>", "<template>", "</template>", "<div>", "</div>", "<p>", "</p>", "</br>", "<b>", "</b>", "<i>", "</i>",
  "<font color=red>", "<font>", "</font>", "<span>", "</span>", "<ul><li>", "</li>", "</ul>", "<button>", "</button>",
  "<a>", "</a>", "<h1>", "</h1>", "<pre>", "<form>", "</form>", "<x-y>", "</x>", "<math><mi><svg>",
  "<!--", "-->", "--!>", "<!-->", "<!--->", "<!---->", "<!-- x -- y -->", "<!x", "<?xml ", "</1", "<!DOCTYPE html>",
  "<![CDATA[", "]]>", ">", "<", "-", "'", "\"", "/", " ", "x", "&lt;", "&amp;", "\n"
];

const DANGER = [
  "<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1) onerror=2>", "<IMG SRC=x ONERROR=alert(1)>", "<image src=x onerror=1>", "<svg><image href=x onerror=1></svg>",
  "<a href=\"javascript:alert(1)\">", "<a href=\"jav&#x09;ascript:1\">", "<a href=\" &#14; javascript:x\">",
  "<a href=\"&#106;avascript&colon;x\">", "<a href=https://x href=javascript:x>", "<a href=\"javascript&#x3A;x\">",
  "<a href=\"&#xa0;javascript:x\">", "<iframe src=\"data:text/html,<b>\">", "<object data=\" DATA:Text/HTML;base64,AA\">",
  "<svg onload=alert(1)>", "<svg><g onclick=1></g></svg>", "<script>alert(1)</script>", "<iframe srcdoc=\"<b>x</b>\">",
  "<meta http-equiv=refresh content=0>", "<META HTTP-EQUIV=\"&#82;efresh\" content=1>", "<meta http-equiv=\" refresh\">",
  "<meta name=refresh>", "<base href=x>", "<link rel=stylesheet href=x>", "<link rel=x>",
  "<style>@import 'x.css';</style>", "<style>@\\69mport url(x.css);</style>", "<style>.a{position:fixed}</style>",
  "<style>p{color:red}</style>", "<div style=\"position:fixed;inset:0\">", "<div style=\"position: \\66ixed\">",
  "<div style=\"position:fixed;position:static\">", "<div style=\"position:absolute\">", "<p style='position&colon;fixed'>",
  "<embed src=x>", "<object></object>", "<applet></applet>", "<svg><set attributeName=href to=javascript:x /></svg>",
  "<svg><animate attributeName=onbegin values=1 /></svg>", "<svg><a xlink:href=javascript:x>y</a></svg>",
  "<math><a href=javascript:x>y</a></math>", "<form action=javascript:x>", "<button formaction=javascript:x>",
  "<p title=\"<img src=x onerror=1>\">", "<input autofocus onfocus=1>", "<video poster=javascript:x>",
  "<body onload=1>", "<frameset onload=1>", "<img src=x onerror=alert(1)"
];

/** The corpus: `n` payloads of 1–8 pieces, a danger in most. */
function corpus(n, seed) {
  const next = random(seed);
  const pick = list => list[Math.floor(next() * list.length)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const parts = [];
    const count = 1 + Math.floor(next() * 8);
    for (let j = 0; j < count; j++) parts.push(next() < 0.7 ? pick(STRUCTURE) : pick(DANGER));
    if (next() < 0.8) parts.push(pick(DANGER));
    out.push(parts.join(""));
  }
  return out;
}

/** In the browser: the findings of the DOM Chromium builds from each payload, both ways. */
function chromiumFindings(payloads) {
  const URL_ATTRS = ["href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "lowsrc", "dynsrc"];
  const ANIMATIONS = ["animate", "set", "animatemotion", "animatetransform"];
  const inert = document.implementation.createHTMLDocument("");
  const isScriptUrl = value => {
    let url;
    try { url = new URL(value, "http://base.invalid/"); } catch { return false; }
    if (url.protocol === "javascript:" || url.protocol === "vbscript:") return true;
    if (url.protocol !== "data:") return false;
    return url.pathname.split(",")[0].replace(/^[\t\n\f\r ]+/, "").toLowerCase().startsWith("text/html");
  };
  const fixedValue = value => value === "fixed" || value.includes("(");
  /** CSSOM of a style sheet's text, in the inert document (nothing loads). */
  const sheet = text => {
    const style = inert.createElement("style");
    style.textContent = text;
    inert.head.append(style);
    const found = { import: false, fixed: false };
    const walk = rules => {
      for (const rule of rules) {
        if (rule instanceof CSSImportRule) found.import = true;
        if (rule.style && fixedValue(rule.style.getPropertyValue("position"))) found.fixed = true;
        if (rule.cssRules) walk(rule.cssRules);
      }
    };
    walk(style.sheet?.cssRules ?? []);
    style.remove();
    return found;
  };
  const check = (el, out) => {
    const name = el.localName.toLowerCase();
    const add = (kind, what) => out.add(`${kind}: ${what}`);
    if (name === "script") add("script", "<script>");
    if (["iframe", "frame", "frameset"].includes(name)) add("iframe", `<${name}>`);
    if (["object", "applet"].includes(name)) add("object", `<${name}>`);
    if (name === "embed") add("embed", "<embed>");
    if (name === "base") add("base", "<base>");
    if (name === "meta" && (el.getAttribute("http-equiv") ?? "").replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "").toLowerCase() === "refresh") {
      add("metaRefresh", "<meta http-equiv=refresh>");
    }
    if (name === "link" && el.hasAttribute("href")) add("link", "<link href>");
    if (name === "style") {
      const found = sheet(el.textContent);
      if (found.import) add("cssImport", "@import in <style>");
      if (found.fixed) add("fixedOverlay", "position: fixed in <style>");
    }
    if (ANIMATIONS.includes(name)) {
      const target = (el.getAttribute("attributeName") ?? el.getAttribute("attributename") ?? "").trim().toLowerCase();
      if (target.startsWith("on")) add("eventHandler", `<${name} attributeName=${target}>`);
      else if (URL_ATTRS.includes(target)) {
        const values = ["to", "from", "values", "by"].map(a => el.getAttribute(a)).filter(v => v !== null);
        if (values.some(v => v.split(";").some(isScriptUrl))) add("javascriptUrl", `<${name} attributeName=${target}>`);
      }
    }
    for (const attr of el.attributes) {
      const a = attr.name.toLowerCase();
      if (a.startsWith("on")) add("eventHandler", `<${name} ${a}>`);
      else if (a === "srcdoc") add("srcdoc", `<${name} srcdoc>`);
      else if (URL_ATTRS.includes(a) && isScriptUrl(attr.value)) add("javascriptUrl", `<${name} ${a}>`);
      else if (a === "style" && el.style && fixedValue(el.style.getPropertyValue("position"))) {
        add("fixedOverlay", `position: fixed in <${name} style>`);
      }
    }
  };
  const walk = (root, out) => {
    for (const el of root.querySelectorAll("*")) {
      check(el, out);
      if (el.content instanceof DocumentFragment) walk(el.content, out);
    }
  };
  return payloads.map(html => {
    const out = new Set();
    // as a page renders: scripting on (this page's CSP runs none of it)
    const live = document.createElement("div");
    live.innerHTML = html;
    walk(live, out);
    // as a sanitiser's inert document parses: scripting off
    const dead = inert.createElement("div");
    dead.innerHTML = html;
    walk(dead, out);
    return [...out].sort();
  });
}

/** What the core reports for each payload, as `kind: detail` without place and count. */
function coreFindings(payloads) {
  const entry = {
    _id: "differential0001", name: "D",
    pages: payloads.map((html, i) => ({ _id: `p${String(i).padStart(15, "0")}`, name: "P", sort: i, text: { format: 1, content: html } }))
  };
  const { report } = importer.importPack(JSON.stringify(entry));
  const by = payloads.map(() => new Set());
  for (const w of report.warnings) {
    if (w.field !== "/text/content") continue;
    const detail = w.detail.replace(/; \d+ more findings there are not listed$/, "").replace(/ \(\d+ times\)$/, "").replace(/ in the page HTML$/, "");
    by[Number(w.pageId.slice(1))].add(`${w.kind}: ${detail}`);
  }
  return by.map(s => [...s].sort());
}

/**
 * What the core may report beyond Chromium's DOM, because it says why: markup in an attribute
 * value, a tag cut off at the end, tags a fragment drops, and style sheets, which it reads more
 * crudely than CSSOM (a rule after garbage, or an `@import` after another rule, still counts).
 */
const EXPLAINED = / inside the | \(cut off at the end of the text\)$|: <(body|html|head|frame|frameset)[ >]|in <style>$/;

let browser;
before(async () => {
  browser = await openPage();
  const page = browser.page;
  await page.route("http://differential.test/", route => route.fulfill({
    status: 200,
    contentType: "text/html",
    headers: { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" },
    body: "<!doctype html><title>differential</title>"
  }));
  await page.goto("http://differential.test/");
});
after(async () => { await browser?.close(); });

test("the scan reports what Chromium builds, and more only where it says why", async () => {
  const payloads = corpus(3000, 20260516);
  const dialogs = [];
  browser.page.on("dialog", d => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  const chromium = await browser.page.evaluate(chromiumFindings, payloads);
  const ours = coreFindings(payloads);
  const missed = [];
  const unexplained = [];
  let findings = 0;
  for (let i = 0; i < payloads.length; i++) {
    const mine = new Set(ours[i]);
    const theirs = new Set(chromium[i]);
    findings += theirs.size;
    for (const f of theirs) if (!mine.has(f)) missed.push({ html: payloads[i], finding: f, ours: ours[i] });
    for (const f of mine) if (!theirs.has(f) && !EXPLAINED.test(f)) unexplained.push({ html: payloads[i], finding: f, chromium: chromium[i] });
  }
  assert.ok(findings > 3000, `the corpus reaches many findings (${findings})`);
  // every kind is in the corpus
  const kinds = new Set(chromium.flat().map(f => f.split(":")[0]));
  for (const kind of ["script", "eventHandler", "javascriptUrl", "iframe", "srcdoc", "object", "embed", "metaRefresh", "base", "link", "cssImport", "fixedOverlay"]) {
    assert.ok(kinds.has(kind), `the corpus reaches ${kind}`);
  }
  assert.deepEqual(missed.slice(0, 5), [], `${missed.length} findings missed`);
  assert.deepEqual(unexplained.slice(0, 5), [], `${unexplained.length} findings Chromium does not have`);
  assert.deepEqual(dialogs, [], "nothing ran while parsing");
});
