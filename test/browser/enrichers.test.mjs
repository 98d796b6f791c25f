/**
 * The enrichers' elements in a real DOM: labels and definitions from journal text stay text,
 * whatever they contain.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openHarness } from "../support/browser.mjs";
let browser;
before(async () => {
  browser = await openHarness({ as: null, path: "/test/browser/harness.html" });
});
after(async () => {
  await browser?.close();
});

test("roll links, terms and [D] are built from values, never from markup", async () => {
  const dialogs = [];
  browser.page.on("dialog", d => { dialogs.push(d.message()); d.dismiss(); });
  const out = await browser.page.evaluate(async () => {
    const { default: E } = await import("/module/enrichers.mjs");
    const host = document.querySelector(".message-content");
    const evil = "<img src=x onerror=alert(1)>";
    const link = E.rollLink(E.parseLink("attack boons=2"), evil);
    const term = E.term("Dazed", `${evil} +1 curse on attack rolls`);
    host.append(link, " ", term, " ", E.damageDie(8), " ", E.damageDie(null));
    await new Promise(r => setTimeout(r, 200));
    return {
      request: JSON.parse(link.dataset.iconRequest),
      linkElements: [...link.querySelectorAll("*")].map(e => e.tagName),
      linkText: link.textContent,
      termTooltip: term.dataset.tooltip,
      termElements: term.children.length,
      dice: [...host.querySelectorAll(".icon-damage-die")].map(e => e.textContent),
      images: host.querySelectorAll("img").length
    };
  });
  assert.deepEqual(out.request, { kind: "icon.attack", boons: 2 });
  assert.deepEqual(out.linkElements, ["I"]);
  assert.match(out.linkText, /<img src=x onerror=alert\(1\)>/);
  assert.match(out.termTooltip, /^<img/);
  assert.equal(out.termElements, 0);
  assert.deepEqual(out.dice, ["[d8]", "[D]"]);
  assert.equal(out.images, 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(browser.errors, []);
});
