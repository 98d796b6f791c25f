/**
 * Issue 28's walk through an empty world, as a table would play it, in the shim's v13 world with
 * the system's real classes: import the example content pack → create a character → pick a job
 * (its abilities appear) → drag an area attack to the hotbar → run the macro → place its template
 * on the map → the covered tokens are the targets → the attack card applies damage → undo. Every
 * step leaves a screenshot in test-results/abilities-walkthrough-*.png.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GENERATION, UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
describe(`issue 28: abilities at the table, from an empty world (Foundry ${GENERATION})`, () => {
  let browser;
  /** The walk's state, step to step. */
  const walk = {};
  const shot = async (n, name, locator) => (locator ?? browser.page).screenshot({ path: `${results}abilities-walkthrough-${GENERATION >= 14 ? "v14-" : ""}${n}-${name}.png` });

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

  test("1. the example content pack is imported: its report accounts for every record, the compendiums hold them", async () => {
    const { page } = browser;
    const empty = await page.evaluate(async () => {
      const sizes = [game.actors.size, game.items.size, game.scenes.size, game.macros.size, game.packs.filter(p => p.metadata.packageType === "world").length];
      await new iconEngine.applications.ContentPackDialog().render({ force: true });
      return sizes;
    });
    assert.deepEqual(empty, [0, 0, 0, 0, 0], "an empty world");
    await page.locator("#icon-engine-content-pack button[data-action=example]").click();
    await page.locator("#icon-engine-content-pack .icon-import-report").waitFor();
    const counts = await page.locator("#icon-engine-content-pack .counts").textContent();
    assert.equal(counts.trim(), "20 of 20 records can be imported: 18 items, 2 actors");
    assert.equal(await page.locator("#icon-engine-content-pack .bad").count(), 0);
    await shot(1, "content-pack", page.locator("#icon-engine-content-pack"));
    await page.locator("#icon-engine-content-pack button[data-action=import]").click();
    const packs = await page.evaluate(async () => {
      await until(() => game.packs.get("world.icon-engine-example-actors")?.size === 2, "the actors compendium");
      return ["world.icon-engine-example-items", "world.icon-engine-example-actors"].map(id => {
        const pack = game.packs.get(id);
        return { id, type: pack.documentName, size: pack.size, names: pack.contents.map(d => d.name).sort() };
      });
    });
    assert.deepEqual(packs.map(p => [p.id, p.type, p.size]), [["world.icon-engine-example-items", "Item", 18], ["world.icon-engine-example-actors", "Actor", 2]]);
    assert.ok(packs[0].names.includes("Hail Square") && packs[0].names.includes("Stormbender (example)"));
    assert.deepEqual(packs[1].names, ["Ash Hound", "Cinder Cantor"]);
    assert.match(await page.evaluate(() => ui.notifications.queue.map(n => n.message).join("\n")), /Imported ICON Engine Example: 20 created, 0 updated/);
    assert.deepEqual(browser.errors, []);
  });

  test("2. a character is created and its sheet opened", async () => {
    const { page } = browser;
    walk.actor = await page.evaluate(async () => {
      const actor = await Actor.implementation.create({ name: "Wren", type: "character" });
      await actor.sheet.render({ force: true });
      return actor.id;
    });
    await page.locator(`#CharacterSheet-Actor-${walk.actor}`).waitFor();
    assert.equal(await page.locator(`#CharacterSheet-Actor-${walk.actor} input[name=name]`).inputValue(), "Wren");
    await shot(2, "character", page.locator(`#CharacterSheet-Actor-${walk.actor}`));
  });

  test("3. picking the class and job on the sheet grants their items from the imported pack; the abilities appear as cards", async () => {
    const { page } = browser;
    const sheet = page.locator(`#CharacterSheet-Actor-${walk.actor}`);
    await sheet.locator("select[name='system.class']").selectOption("wright");
    await page.evaluate(async id => until(() => game.actors.get(id).items.some(i => i.name === "Weathered Mind"), "the class trait"), walk.actor);
    await sheet.locator("select[name='system.job']").selectOption("stormbender");
    const items = await page.evaluate(async id => {
      const actor = game.actors.get(id);
      await until(() => actor.items.filter(i => i.type === "ability").length === 4, "the job's abilities");
      return actor.items.map(i => ({ name: i.name, type: i.type, grant: i.getFlag("icon-engine", "grant"), source: i._stats?.compendiumSource }));
    }, walk.actor);
    assert.deepEqual(items.filter(i => i.type === "ability").map(i => i.name).sort(), ["Crackling Lance", "Hail Square", "Static Veil", "Wind Stride"]);
    for (const item of items) {
      assert.match(item.source, /^Compendium\.world\.icon-engine-example-items\.Item\./, `${item.name} remembers its compendium`);
      assert.equal(item.grant.kind, item.type === "trait" ? "class" : "job");
    }
    await sheet.locator("a[data-action=tab][data-tab=abilities]").click();
    const rows = sheet.locator(".tab.abilities [data-item-list=ability] .ability-card");
    await rows.first().waitFor();
    assert.equal(await rows.count(), 4);
    const hail = sheet.locator(".ability-card", { hasText: "Hail Square" });
    assert.deepEqual(await hail.locator(".ability-chips li").allTextContents(), ["2 actions", "Range 6", "Blast 2", "Charges 2/2"]);
    assert.deepEqual(await hail.locator(".ability-card-tags li").allTextContents(), ["Attack", "Area"]);
    assert.equal(await hail.locator("button.use-item").getAttribute("aria-label"), "Use Hail Square");
    // The pointer off the sheet, so the shot shows no hovered control.
    await page.mouse.move(0, 0);
    await shot(3, "job-abilities", sheet);
  });

  test("4. the GM lays out a scene: the character and three foes from the pack", async () => {
    const { page } = browser;
    walk.scene = await page.evaluate(async actorId => {
      const pack = game.packs.get("world.icon-engine-example-actors");
      const hound = await Actor.implementation.create(game.actors.fromCompendium(pack.contents.find(a => a.name === "Ash Hound")));
      const size = 50;
      const at = (name, actor, i, j, more = {}) => ({ name, actorId: actor.id, actorLink: actor.type === "character", x: j * size, y: i * size,
        texture: { src: actor.img ?? CONST.DEFAULT_TOKEN }, ...more });
      const wren = game.actors.get(actorId);
      const scene = await Scene.implementation.create({ name: "Cinder Road", width: 500, height: 400, grid: { size, distance: 1 },
        tokens: [at("Wren", wren, 6, 1), at("Hound A", hound, 2, 5), at("Hound B", hound, 3, 6), at("Hound C", hound, 5, 8)] });
      await scene.view();
      return scene.id;
    }, walk.actor);
    await page.locator("#board").waitFor();
    assert.equal(await page.evaluate(() => canvas.tokens.placeables.length), 4);
    await shot(4, "scene", page.locator("#board"));
  });

  test("5. the area attack dragged from its row to the hotbar becomes a macro that uses it", async () => {
    const { page } = browser;
    const row = page.locator(`#CharacterSheet-Actor-${walk.actor} .ability-card`, { hasText: "Hail Square" });
    await row.dragTo(page.locator("#hotbar .slot[data-slot='1']"));
    const macro = await page.evaluate(async id => {
      await until(() => game.user._source.hotbar[1], "the hotbar slot");
      const m = game.macros.get(game.user._source.hotbar[1]);
      const item = game.actors.get(id).items.getName("Hail Square");
      return { name: m.name, type: m.type, command: m.command, uuid: item.uuid };
    }, walk.actor);
    assert.deepEqual([macro.name, macro.type], ["Hail Square", "script"]);
    assert.equal(macro.command, `game.system.api.useItem("${macro.uuid}");`);
    await page.locator("#hotbar .slot[data-slot='1'][data-macro-id]").waitFor();
    await shot(5, "hotbar", page.locator("#hotbar"));
  });

  // The area: a measured template on 13, a Scene Region on 14 (module/canvas/area-placement.mjs).
  test("6-7. running the macro previews the area under the pointer; a click places it, and the tokens it covers become the targets", async () => {
    const { page } = browser;
    await page.locator("#hotbar .slot[data-slot='1']").click();
    const board = page.locator("#board");
    await board.scrollIntoViewIfNeeded();
    const box = await board.boundingBox();
    // the blast 2 anchored at row 2, column 5 covers rows 2-3, columns 5-6: Hounds A and B, not C
    const point = { x: box.x + 5 * 50 + 25, y: box.y + 2 * 50 + 25 };
    const layer = GENERATION >= 14 ? "regions" : "templates";
    await page.evaluate(layer => until(() => canvas[layer].preview.children.length === 1, "the preview"), layer);
    await page.mouse.move(point.x - 100, point.y + 50);
    await page.mouse.move(point.x, point.y, { steps: 4 });
    const preview = await page.evaluate(() => until(() => {
      if (game.release.generation >= 14) {
        // the outline's corners: the square of rows 2-3, columns 5-6
        const points = canvas.regions.preview.children[0]?.document.shapes[0]?.points ?? [];
        const xs = points.filter((_, k) => k % 2 === 0);
        const ys = points.filter((_, k) => k % 2 === 1);
        return Math.min(...xs) === 250 && [`${Math.min(...xs)},${Math.min(...ys)}`, `${Math.max(...xs)},${Math.max(...ys)}`];
      }
      const t = canvas.templates.preview.children[0];
      return t?.document.x === 275 && t._getGridHighlightPositions().map(p => `${p.x},${p.y}`);
    }, "the preview under the pointer"));
    assert.deepEqual(preview.sort(), GENERATION >= 14 ? ["250,100", "350,200"] : ["250,100", "250,150", "300,100", "300,150"]);
    await shot(6, "preview", board);
    await page.mouse.click(point.x, point.y);
    const placed = await page.evaluate(async () => {
      const template = await until(() => (game.release.generation >= 14 ? canvas.scene.regions : canvas.scene.templates).contents[0], "the area");
      await until(() => document.querySelector(".attack-dialog"), "the attack dialog");
      return {
        flag: template.getFlag("icon-engine", "area"),
        targets: [...game.user.targets].map(t => t.name).sort(),
        rows: [...document.querySelectorAll(".attack-dialog tr.attack-target td:first-child")].map(td => td.textContent.trim()).sort()
      };
    });
    assert.deepEqual([placed.flag.shape, placed.flag.size], ["blast", 2]);
    if (GENERATION >= 14) {
      // a region of the four spaces, one square each, and the tokens Foundry counts inside it
      const region = await page.evaluate(() => {
        const r = canvas.scene.regions.contents[0];
        return { squares: r.shapes.map(s => s.points.slice(0, 2).join(",")).sort(), inside: [...r.tokens].map(t => t.name).sort(), templates: canvas.scene.templates };
      });
      assert.deepEqual(region.squares, ["250,100", "250,150", "300,100", "300,150"]);
      assert.deepEqual(region.inside, ["Hound A", "Hound B"]);
      assert.equal(region.templates, undefined, "no measured template on 14");
    }
    assert.deepEqual(placed.targets, ["Hound A", "Hound B"]);
    assert.deepEqual(placed.rows, ["Hound A", "Hound B"], "the attack dialog shows the covered tokens");
    await shot(7, "targets", page);
    await shot(7, "board", board);
  });

  test("8. the attack is rolled (a charge spent) and its card applies damage to a covered hound", async () => {
    const { page } = browser;
    await page.locator(".attack-dialog button[type=submit]").click();
    const rolled = await page.evaluate(async id => {
      const message = await until(() => game.messages.contents.find(m => m.rolls.some(r => r.iconOptions?.tactical?.role === "damage")), "the attack card");
      const hail = game.actors.get(id).items.getName("Hail Square");
      return { message: message.id, charges: hail.system.charges.value, name: message.getFlag("icon-engine", "card")?.name };
    }, walk.actor);
    assert.equal(rolled.charges, 1, "2 charges, one spent by the roll");
    assert.equal(rolled.name, "Hail Square", "the card of the ability used");
    walk.message = rolled.message;
    const card = page.locator(`#chat [data-message-id='${walk.message}']`);
    await card.locator("button[data-card-action=damage]:not([data-saved])").first().waitFor();
    const before = await page.evaluate(() => canvas.scene.tokens.contents.filter(t => t.name.startsWith("Hound")).map(t => [t.name, t.actor.system.hp.value]));
    walk.before = Object.fromEntries(before);
    await card.locator("button[data-card-action=damage]:not([data-saved])[data-key='0']").click();
    const applied = await page.evaluate(async id => {
      const message = game.messages.get(id);
      const done = await until(() => message.getFlag("icon-engine", "damageApplied")?.[0], "the applied damage");
      const token = canvas.scene.tokens.contents.find(t => t.actor?.uuid === done.targetUuid);
      return { name: token.name, hp: token.actor.system.hp.value, dealt: done.dealt };
    }, walk.message);
    assert.ok(["Hound A", "Hound B"].includes(applied.name));
    assert.equal(applied.hp, walk.before[applied.name] - applied.dealt, "the hound's HP fell by what the card dealt");
    assert.ok(applied.dealt > 0);
    walk.applied = applied;
    await card.locator(".tactical-applied").first().waitFor();
    await shot(8, "applied", card);
  });

  test("9. undo puts the hound back", async () => {
    const { page } = browser;
    const card = page.locator(`#chat [data-message-id='${walk.message}']`);
    await card.locator("button[data-card-action=undoDamage]").first().click();
    const hp = await page.evaluate(async ({ id, name }) => {
      const message = game.messages.get(id);
      await until(() => !message.getFlag("icon-engine", "damageApplied")?.[0], "the undo");
      return canvas.scene.tokens.contents.find(t => t.name === name).actor.system.hp.value;
    }, { id: walk.message, name: walk.applied.name });
    assert.equal(hp, walk.before[walk.applied.name]);
    await card.locator("button[data-card-action=damage]:not([data-saved])[data-key='0']").waitFor();
    await shot(9, "undone", card);
    assert.deepEqual(browser.errors, []);
  });
});
