/**
 * Issue 37, "Paste the book", at the table in the shim's world booted as the GM: "Paste abilities"
 * on a character's Abilities tab reads pasted text (a page with two abilities and an
 * introduction), shows each as its card will read it with what was not understood, takes a fixed
 * name, and creates the items; a pasted attack is used from the sheet and its card applies its
 * damage and its status as a hand-made one's does; the Items directory's button makes world items
 * and the Actors directory's a foe from its stat block; script in the paste runs nowhere it shows.
 * Screenshot: test-results/paste-dialog[-v14].png.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GENERATION, UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const PAGE = [
  "STORMCALLER",
  "A stormcaller bends the sky to their will.",
  "",
  "Shield Knock (1 action, Attack, Melee): On hit: [D] + fray, and the tar-",
  "get is dazed. Miss: fray.",
  "",
  "Odd Trick (1 action, Range 2, Sparkly): Effect: You gain dodge. Talent: Something else happens."
].join("\n");

describe(`the paste dialog (Foundry ${GENERATION})`, () => {
  let browser;
  before(async () => {
    await mkdir(results, { recursive: true });
    browser = await openHarness({ as: "gm", viewport: { width: 1280, height: 1000 }, scripts: [UNTIL] });
    await browser.page.evaluate(async () => {
      (await import("../support/window-size.mjs")).sizeWindows();
    });
  });
  after(async () => {
    await browser?.close();
  });

  test("on a character's Abilities tab: each ability read shows as its card with what was not understood; a fixed name; Create", async () => {
    const { page } = browser;
    await page.evaluate(async () => {
      const actor = await Actor.implementation.create({ name: "Ana", type: "character" });
      await actor.sheet.render({ force: true });
      await until(() => actor.sheet.element?.querySelector("[data-action=pasteAbilities]"), "the sheet's paste button");
      actor.sheet.element.querySelector("[data-action=pasteAbilities]").click();
    });
    const dialog = page.locator(".paste-dialog");
    await dialog.waitFor();
    await dialog.locator("textarea[name=text]").fill(PAGE);
    await dialog.locator("[data-action=read]").click();
    await dialog.locator(".paste-item").nth(1).waitFor();
    const seen = await page.evaluate(() => {
      const element = document.querySelector(".paste-dialog");
      const items = [...element.querySelectorAll(".paste-item")];
      return {
        summary: element.querySelector(".paste-summary").textContent.trim(),
        outside: [...element.querySelectorAll(".paste-outside li")].map(li => li.textContent.replace(/\s+/g, " ").trim()),
        names: items.map(i => i.querySelector(".paste-name").value),
        verdicts: items.map(i => i.querySelector(".paste-verdict").textContent.trim()),
        chips: [...items[0].querySelectorAll(".ability-chips li")].map(li => li.textContent),
        attack: items[0].querySelector(".foe-attack")?.textContent.replace(/\s+/g, " ").trim(),
        effects: [...items[0].querySelectorAll(".foe-effects li")].map(li => li.textContent.replace(/\s+/g, " ").trim()),
        unparsed: [...items[1].querySelectorAll(".paste-unparsed li")].map(li => li.textContent.replace(/\s+/g, " ").trim())
      };
    });
    assert.equal(seen.summary, "2 items found, 1 understood in full.");
    assert.deepEqual(seen.outside, ["Not part of an item: STORMCALLER", "Not part of an item: A stormcaller bends the sky to their will."]);
    assert.deepEqual(seen.names, ["Shield Knock", "Odd Trick"]);
    assert.deepEqual(seen.verdicts, ["Understood", "Partly understood"]);
    assert.deepEqual(seen.chips, ["1 action", "Melee"]);
    assert.equal(seen.attack, "Attack: 1[D] + fray on a hit; fray on a miss");
    assert.equal(seen.effects.length, 1);
    assert.match(seen.effects[0], /Dazed/);
    assert.deepEqual(seen.unparsed, ["Unknown tag: Sparkly", "Part this system has no trigger for: Talent: Something else happens."]);
    // fix a field: the second one's name
    await dialog.locator(".paste-item").nth(1).locator(".paste-name").fill("Odd Trick (fixed)");
    await dialog.locator(".paste-item").nth(1).locator(".paste-name").dispatchEvent("change");
    await page.waitForFunction(() => document.querySelectorAll(".paste-dialog .paste-name")[1]?.value === "Odd Trick (fixed)");
    await dialog.screenshot({ path: `${results}paste-dialog${GENERATION >= 14 ? "-v14" : ""}.png` });
    await dialog.locator("[data-action=create]").click();
    const created = await page.evaluate(async () => {
      const actor = game.actors.getName("Ana");
      await until(() => actor.items.size === 2, "the two items");
      const knock = actor.items.getName("Shield Knock").toObject().system;
      return { names: actor.items.map(i => i.name).sort(), knock, closed: !document.querySelector(".paste-dialog") };
    });
    assert.deepEqual(created.names, ["Odd Trick (fixed)", "Shield Knock"]);
    assert.equal(created.knock.actions, "1");
    assert.deepEqual(created.knock.tags, ["attack"]);
    assert.deepEqual(created.knock.range, { kind: "melee", value: 1 });
    assert.equal(created.knock.roll.hitDice, 1);
    assert.equal(created.knock.roll.frayOnMiss, true);
    assert.deepEqual(created.knock.effects.map(e => [e.trigger, e.status, e.duration]), [["hit", "dazed", "save"]]);
    assert.equal(created.knock.description, "<p>Shield Knock (1 action, Attack, Melee): On hit: [D] + fray, and the target is dazed. Miss: fray.</p>");
    assert.equal(created.closed, true);
    assert.deepEqual(browser.errors, []);
  });

  test("the pasted attack, used from the sheet: the same data as a hand-made one, its card deals its damage and applies Dazed", async () => {
    const { page } = browser;
    const result = await page.evaluate(async () => {
      const actor = game.actors.getName("Ana");
      const pasted = actor.items.getName("Shield Knock");
      // the same ability made by hand, field by field
      const [hand] = await actor.createEmbeddedDocuments("Item", [{ name: "Shield Knock", type: "ability", system: {
        description: pasted.system.description, actions: "1", tags: ["attack"], range: { kind: "melee", value: 1 },
        roll: { hitDice: 1, frayOnMiss: true }, effects: [{ trigger: "hit", status: "dazed", duration: "save" }] } }]);
      const same = JSON.stringify(hand.toObject().system) === JSON.stringify(pasted.toObject().system);
      await hand.delete();
      const foe = await Actor.implementation.create({ name: "Ogre", type: "foe", system: { vit: 8, defense: 0, hp: { value: 32, max: 32 } } });
      const size = 50;
      const scene = await Scene.implementation.create({ name: "Paste", width: 400, height: 300, grid: { size, distance: 1 }, tokens: [
        { name: "Ana", actorId: actor.id, actorLink: true, x: size, y: size }, { name: "Ogre", actorId: foe.id, actorLink: true, x: 2 * size, y: size }] });
      await scene.view();
      canvas.tokens.placeables.find(t => t.name === "Ogre").setTarget(true, { releaseOthers: true });
      // used from the sheet's Use button, as a player would
      await actor.sheet.render({ force: true });
      const row = await until(() => actor.sheet.element.querySelector(`[data-item-id="${pasted.id}"] [data-action=useItem]`), "the Use button");
      row.click();
      const form = await until(() => document.querySelector(".attack-dialog"), "the attack dialog");
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999;
      form.querySelector("button[type=submit]").click();
      const message = await until(() => game.messages.contents.find(m => m.getFlag("icon-engine", "card")?.name === "Shield Knock"
        && m.rolls.some(r => r.iconOptions?.tactical?.role === "damage")), "the attack card");
      CONFIG.Dice.randomUniform = random;
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      const damage = await until(() => element()?.querySelector("button[data-card-action=damage]:not([data-saved])"), "the damage button");
      damage.click();
      const done = await until(() => message.getFlag("icon-engine", "damageApplied")?.[0], "the applied damage");
      const effect = await until(() => element().querySelector("button[data-card-action=effect]"), "the Dazed control");
      const label = effect.textContent.trim();
      effect.click();
      await until(() => foe.statuses.has("dazed"), "Dazed on the Ogre");
      return { same, dealt: done.dealt, hp: foe.system.hp.value, label, source: foe.effects.find(e => e.statuses.has("dazed"))?.flags["icon-engine"]?.source?.name };
    });
    assert.equal(result.same, true, "the pasted item's data is what a hand-made one holds");
    assert.ok(result.dealt > 0);
    assert.equal(result.hp, 32 - result.dealt, "the Ogre's HP fell by what the card dealt");
    assert.match(result.label, /Dazed/);
    assert.equal(result.source, "Shield Knock");
    assert.deepEqual(browser.errors, []);
  });

  test("the Items directory's button makes world relics; the Actors directory's a foe with its traits and actions", async () => {
    const { page } = browser;
    const result = await page.evaluate(async () => {
      const { default: PasteDialog } = await import("../../module/applications/paste-dialog.mjs");
      const read = async (dialog, kind, text) => {
        await dialog.render({ force: true });
        await until(() => dialog.element?.querySelector("[data-action=read]"), "the dialog");
        dialog.element.querySelector("select[name=kind]").value = kind;
        dialog.element.querySelector("textarea[name=text]").value = text;
        dialog.element.querySelector("[data-action=read]").click();
        await until(() => dialog.element.querySelector(".paste-summary"), "the items read");
        dialog.element.querySelector("[data-action=create]").click();
        await until(() => !dialog.rendered, "the dialog closed");
      };
      await read(new PasteDialog(), "relic", "Moonglass Lantern: Holds 3 charges. Recharges when you rest.");
      const relic = game.items.getName("Moonglass Lantern");
      await read(new PasteDialog({ kind: "foe" }), "foe", ["GRAVEL WARDEN", "Heavy Elite, Chapter 2", "HP 64, Defense 8, Speed 3",
        "Traits", "Stone Hide: Attacks against the warden take 1 curse.",
        "Actions", "Slam (1 action, Attack, Melee): On hit: 2[D] + fray. Miss: fray."].join("\n"));
      const foe = await until(() => game.actors.getName("Gravel Warden"), "the foe");
      return { relic: relic && { type: relic.type, charges: relic.system.charges.toObject?.() ?? { ...relic.system.charges } },
        foe: { foeClass: foe.system.foeClass, template: foe.system.template, vit: foe.system.vit, defense: foe.system.defense, speed: foe.system.speed,
          items: foe.items.map(i => [i.name, i.type]).sort() } };
    });
    assert.equal(result.relic.type, "relic");
    assert.deepEqual(result.relic.charges, { value: 3, max: 3, recharge: "rest" });
    assert.deepEqual(result.foe, { foeClass: "heavy", template: "elite", vit: 8, defense: 8, speed: 3, items: [["Slam", "ability"], ["Stone Hide", "trait"]] });
    assert.deepEqual(browser.errors, []);
  });

  test("a folder of foe creator files: the content-pack report names each bad file's field; Import makes the foe compendium", async () => {
    const { page } = browser;
    const names = ["bad-stat.json", "broken.json", "elite.json", "gravel-warden.json", "heavy.json", "quarry-kin.json", "truncated.json"];
    const result = await page.evaluate(async names => {
      const files = await Promise.all(names.map(async name => ({ name,
        text: await (await fetch(`/systems/icon-engine/tests/fixtures/foe-folder/${name}`)).text() })));
      const dialog = new iconEngine.applications.ContentPackDialog();
      await dialog.render({ force: true });
      await dialog.readFoeFolder(files);
      const element = await until(() => document.querySelector("#icon-engine-content-pack .icon-import-report"), "the report");
      const report = { counts: element.querySelector(".counts").textContent.trim(), bad: [...element.querySelectorAll(".bad li")].map(li => li.textContent.trim()),
        warnings: [...element.querySelectorAll(".warnings li")].map(li => li.textContent.trim()) };
      document.querySelector("#icon-engine-content-pack button[data-action=import]").click();
      const pack = await until(() => game.packs.get("world.community-foes-actors")?.size === 1 && game.packs.get("world.community-foes-actors"), "the foe compendium");
      const [foe] = await pack.getDocuments();
      return { report, foe: { name: foe.name, foeClass: foe.system.foeClass, template: foe.system.template, vit: foe.system.vit,
        items: foe.items.map(i => `${i.type}:${i.name}`).sort() } };
    }, names);
    assert.equal(result.report.counts, "7 of 11 records can be imported: 6 items, 1 actor");
    assert.deepEqual(result.report.bad.filter(l => !/^\d/.test(l)).map(l => l.replace(/:.*$/s, "")).sort(),
      ['foes "bad-stat.json[0]" (#1)', 'foes "bad-stat.json[1]" (#1)', 'foes "broken.json" (#2)', 'foes "truncated.json" (#7)']);
    assert.ok(result.report.bad.some(l => /broken\.json.*Inherits: "Nobody" is no record of the folder/.test(l)), JSON.stringify(result.report.bad));
    assert.ok(result.report.warnings.some(l => /Rock Spray.*recharge 6/.test(l)), JSON.stringify(result.report.warnings));
    assert.deepEqual(result.foe, { name: "Gravel Warden", foeClass: "heavy", template: "elite", vit: 8,
      items: ["ability:Hold the Line", "ability:Rock Spray", "ability:Slam", "trait:Braced", "trait:Double Turn", "trait:Stone Blood"] });
    assert.deepEqual(browser.errors, []);
  });

  test("another ICON system's compendium export: the report accounts for every document; Import makes this system's items and foes", async () => {
    const { page } = browser;
    const result = await page.evaluate(async () => {
      const text = await (await fetch("/systems/icon-engine/tests/fixtures/other-systems/icon-svelte-export.db")).text();
      const dialog = new iconEngine.applications.ContentPackDialog();
      await dialog.render({ force: true });
      await dialog.readIconSystem(text);
      const element = await until(() => document.querySelector("#icon-engine-content-pack .icon-import-report"), "the report");
      const counts = element.querySelector(".counts").textContent.trim();
      const bad = [...element.querySelectorAll(".bad li")].map(li => li.textContent.trim()).filter(l => !/^\d/.test(l));
      document.querySelector("#icon-engine-content-pack button[data-action=import]").click();
      const items = await until(() => game.packs.get("world.icon-system-import-items")?.size === 8 && game.packs.get("world.icon-system-import-items"), "the items");
      const sweep = (await items.getDocuments()).find(i => i.name === "Lantern Sweep");
      const foes = await (await until(() => game.packs.get("world.icon-system-import-actors"), "the foes")).getDocuments();
      return { counts, bad, sweep: { tags: [...sweep.system.tags], area: { ...sweep.system.area }, trueStrike: sweep.system.attack.trueStrike },
        foes: foes.map(f => `${f.name}:${f.system.foeClass}:${f.items.size}`).sort() };
    });
    assert.equal(result.counts, "10 of 13 records can be imported: 8 items, 2 actors");
    assert.equal(result.bad.length, 3);
    assert.deepEqual(result.sweep, { tags: ["attack"], area: { shape: "blast", size: 2 }, trueStrike: true });
    assert.deepEqual(result.foes, ["Cinder Brute:heavy:2", "Lantern Wisp:skirmisher:0"]);
    assert.deepEqual(browser.errors, []);
  });

  test("script in a paste runs nowhere it shows: the dialog, the created item's sheet, its use card", async () => {
    const { page } = browser;
    const ran = [];
    page.on("dialog", async d => { ran.push(d.message()); await d.dismiss(); });
    await page.exposeFunction("xssRan", tag => ran.push(tag));
    const result = await page.evaluate(async () => {
      const { default: PasteDialog } = await import("../../module/applications/paste-dialog.mjs");
      const actor = await Actor.implementation.create({ name: "Bea", type: "character" });
      const evil = [
        "<script>xssRan('script')</script>",
        "Venom <img src=x onerror=xssRan`name`> (1 action, Range 3): Effect: <img src=x onerror=xssRan('effect')> the target is dazed.",
        "<svg onload=xssRan('svg')></svg> Talent: <b onmouseover=xssRan('part')>x</b>"
      ].join("\n\n");
      const dialog = new PasteDialog({ actor });
      await dialog.render({ force: true });
      await until(() => dialog.element?.querySelector("[data-action=read]"), "the dialog");
      dialog.element.querySelector("textarea[name=text]").value = evil;
      dialog.element.querySelector("[data-action=read]").click();
      await until(() => dialog.element.querySelector(".paste-summary"), "the items read");
      const markup = dialog.element.querySelector(".paste-items").innerHTML;
      for (const d of dialog.element.querySelectorAll("details")) d.open = true;
      await new Promise(r => setTimeout(r, 100));
      const shown = dialog.element.querySelectorAll(".paste-items img, .paste-items svg, .paste-items script, .paste-items b").length;
      const summary = dialog.element.querySelector(".paste-summary").textContent;
      dialog.element.querySelector("[data-action=create]").click();
      await until(() => actor.items.size > 0 || dialog.element?.querySelector(".icon-import-error"), "the item created");
      if (!actor.items.size) throw new Error(`${summary} ${dialog.element.querySelector(".icon-import-error").textContent}`);
      const item = actor.items.contents[0];
      await item.sheet.render({ force: true });
      await until(() => item.sheet.element, "the item's sheet");
      const outcome = await item.use();
      await until(() => document.querySelector(`#chat [data-message-id="${outcome.message.id}"]`), "the use card");
      await new Promise(r => setTimeout(r, 200));
      return { shown, escaped: markup.includes("&lt;img"), name: item.name, description: item.system.description };
    });
    assert.equal(result.shown, 0, "no element from the paste in the dialog");
    assert.equal(result.escaped, true);
    assert.doesNotMatch(result.description, /<img|<script|<svg/);
    assert.deepEqual(ran, [], "nothing pasted ran");
    assert.deepEqual(browser.errors, []);
    // the control: the same markup rendered as HTML runs, and the listener sees it
    await page.evaluate(async () => {
      const host = document.createElement("div");
      host.innerHTML = "<img src=x onerror=xssRan('control')>";
      document.body.append(host);
      await new Promise(r => setTimeout(r, 300));
      host.remove();
    });
    assert.deepEqual(ran, ["control"]);
    // (its image's 404 is the control's own)
    browser.errors.length = 0;
  });
});
