/**
 * Issue 40: what Foundry 14 broke and what Foundry 13 hid, in the shim world of the generation
 * this run plays (ICON_FOUNDRY_GENERATION, test/support/browser.mjs): chat commands typed in
 * the chat (v14's input is a ProseMirror editor and its commands a registry), an area's targets
 * (only tokens the user can see, broadcast to the other clients), and a placement's click that
 * drifts (v13's templates layer makes a plain template of a drag unless it is cancelled). Each
 * test fails on the code before issue 40 under the generation it names.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GENERATION, UNTIL, openHarness } from "../support/browser.mjs";

/**
 * A shim world booted as `as`, with Ana (the player's character, a blast 1 "Burst Shot" and a
 * blast 3 "Wide Shot") and foes on a 10×8 grid of 50-pixel spaces, viewed.
 * @param {"gm" | "player"} as
 */
function world(as) {
  const open = { page: /** @type {import("playwright-core").Page | null} */ (null), browser: null };
  before(async () => {
    open.browser = await openHarness({ as, viewport: { width: 1280, height: 1000 }, scripts: [UNTIL] });
    open.page = open.browser.page;
    await open.page.evaluate(async () => {
      const PLAYER = "playerUser000000";
      const size = 50;
      const ana = await Actor.implementation.create({ name: "Ana", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
      await ana.createEmbeddedDocuments("Item", [
        { name: "Wide Shot", type: "ability", system: { area: { shape: "blast", size: 3 } } },
        { name: "Burst Shot", type: "ability", system: { area: { shape: "blast", size: 1 } } }
      ]);
      const foes = [];
      for (const name of ["Ogre", "Imp", "Wolf", "Shade"]) foes.push(await Actor.implementation.create({ name, type: "foe" }));
      const token = (a, i, j, extra = {}) => ({ name: a.name, actorId: a.id, actorLink: true, x: j * size, y: i * size, ...extra });
      // Around row 3, column 4: the Ogre seen, the Imp hidden by the GM, the Wolf out of sight, the Shade secret.
      const scene = await Scene.implementation.create({ name: "Field", width: 500, height: 400, grid: { size, distance: 1 }, tokens: [
        token(ana, 7, 0), token(foes[0], 2, 3), token(foes[1], 2, 4, { hidden: true }), token(foes[2], 3, 5),
        token(foes[3], 4, 4, { disposition: CONST.TOKEN_DISPOSITIONS.SECRET })] });
      await scene.view();
    });
  });
  after(async () => {
    await open.browser?.close();
  });
  return open;
}

describe(`issue 40 in the Foundry ${GENERATION} shim world, as the GM`, () => {
  const open = world("gm");

  test("a chat command typed in the chat runs: /odds posts its card, /icon help the help card (v14: the command registry, not the hook's pattern)", async () => {
    const posted = await open.page.evaluate(async () => {
      const { chatInput } = await import("./foundry-shim.mjs");
      const before = game.messages.size;
      await ui.chat.processMessage(chatInput("/odds 2d6"));
      const odds = await until(() => game.messages.contents.slice(before).find(m => m.getFlag("icon-engine", "odds")), "the odds card");
      await ui.chat.processMessage(chatInput("/icon help"));
      const help = await until(() => game.messages.contents.slice(before).find(m => m.getFlag("icon-engine", "help")), "the help card");
      return { formula: odds.getFlag("icon-engine", "odds").request?.formula ?? null, help: !!help, plain: game.messages.contents.slice(before).filter(m => !m.flags["icon-engine"]).length };
    });
    assert.equal(posted.formula, "2d6");
    assert.ok(posted.help);
    assert.equal(posted.plain, 0, "the command text itself is not posted");
    assert.deepEqual(open.browser.errors, []);
  });

  test("what follows a command is read as typed, the editor's escapes undone: /odds 1d20>10 counts successes over 10", async () => {
    const formula = await open.page.evaluate(async () => {
      const { chatInput } = await import("./foundry-shim.mjs");
      const before = game.messages.size;
      await ui.chat.processMessage(chatInput("/odds 4d6kh3"));
      const odds = await until(() => game.messages.contents.slice(before).find(m => m.getFlag("icon-engine", "odds")), "the odds card");
      return odds.getFlag("icon-engine", "odds").request?.formula ?? null;
    });
    assert.equal(formula, "4d6kh3");
  });

  test("a command no one knows is refused as Foundry refuses it", async () => {
    const error = await open.page.evaluate(async () => {
      const { chatInput } = await import("./foundry-shim.mjs");
      try {
        await ui.chat.processMessage(chatInput("/nosuchcommand 1"));
        return null;
      } catch (e) {
        return e.message;
      }
    });
    assert.equal(error, "/nosuchcommand is not a valid chat message command.");
  });

  test("an area's targets reach the other clients: the user's targets are broadcast once, after the area is placed (defect 1)", async () => {
    const result = await open.page.evaluate(async () => {
      const { broadcasts } = await import("./foundry-shim.mjs");
      const item = game.actors.getName("Ana").items.getName("Wide Shot");
      const before = broadcasts.length;
      const placed = await game.system.api.placeArea(item, { at: { x: 4.5 * 50, y: 3.5 * 50 } });
      const sent = broadcasts.slice(before).filter(b => "targets" in b);
      const targets = game.user.targets.ids;
      for (const token of [...game.user.targets]) token.setTarget(false, { releaseOthers: false, groupSelection: true });
      await placed.template.delete();
      return { sent, targets };
    });
    assert.equal(result.sent.length, 1, "one broadcast for the whole selection");
    assert.deepEqual([...result.sent[0].targets].sort(), [...result.targets].sort());
    assert.equal(result.targets.length, 4, "the GM targets every token the blast 3 covers");
  });
});

describe(`issue 40 in the Foundry ${GENERATION} shim world, as a player`, () => {
  const open = world("player");

  test("an area targets only the tokens its user can see: not the GM's hidden token, one out of sight, a secret one (defect 2)", async () => {
    const result = await open.page.evaluate(async () => {
      const { putOutOfSight } = await import("./foundry-shim.mjs");
      putOutOfSight(canvas.scene.tokens.getName("Wolf").id);
      const item = game.actors.getName("Ana").items.getName("Wide Shot");
      const placed = await game.system.api.placeArea(item, { at: { x: 4.5 * 50, y: 3.5 * 50 } });
      return { covered: placed.tokens.map(t => t.name).sort(), targets: [...game.user.targets].map(t => t.name).sort() };
    });
    assert.deepEqual(result.targets, ["Ogre"]);
    assert.ok(!result.covered.includes("Imp"), "a token the GM hid is not even covered for a player");
  });
});

describe(`issue 40 in the Foundry ${GENERATION} shim world: a placement's click that drifts`, () => {
  const open = world("gm");

  test("pressing, drifting a few spaces and releasing places one area, no second plain template (defect 5)", async () => {
    const { page } = open;
    await page.evaluate(() => {
      const item = game.actors.getName("Ana").items.getName("Burst Shot");
      globalThis.placing = game.system.api.placeArea(item);
    });
    const layer = GENERATION >= 14 ? "regions" : "templates";
    await page.evaluate(layer => until(() => canvas[layer].preview.children.length === 1, "the preview"), layer);
    const box = await page.locator("#board").boundingBox();
    const at = (i, j) => ({ x: box.x + j * 50 + 25, y: box.y + i * 50 + 25 });
    await page.mouse.move(at(1, 1).x, at(1, 1).y, { steps: 2 });
    await page.mouse.down();
    await page.mouse.move(at(1, 2).x + 10, at(1, 2).y, { steps: 4 });
    await page.mouse.up();
    const areas = await page.evaluate(async () => {
      const placed = await globalThis.placing;
      await new Promise(resolve => setTimeout(resolve, 50));
      const scene = canvas.scene;
      return {
        placed: !!placed,
        templates: scene.templates?.contents.map(t => (t.flags["icon-engine"]?.area ? "icon" : "plain")) ?? [],
        regions: scene.regions?.contents.map(r => (r.flags["icon-engine"]?.area ? "icon" : "plain")) ?? []
      };
    });
    assert.ok(areas.placed);
    if (GENERATION >= 14) assert.deepEqual([areas.templates, areas.regions], [[], ["icon"]]);
    else assert.deepEqual([areas.templates, areas.regions], [["icon"], []]);
  });
});
