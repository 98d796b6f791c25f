/**
 * The system's real classes in a shim world (test/browser/foundry-shim.mjs `installWorld`), for
 * what the Quench batch cannot show as the GM: a player's view of sheets they only observe. And
 * the wasm core loaded as Foundry serves it under a `routePrefix`, from a server that does not
 * know the .wasm type.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openHarness, openPage } from "../support/browser.mjs";
import { startServer } from "../support/static-server.mjs";

/**
 * A page booted as a player for the enclosing suite (opened before its tests, closed after).
 * `browser` is set once the page is open, so tests read it through the returned object.
 */
function playerPage() {
  /** @type {{browser: any}} */
  const open = { browser: null };
  before(async () => {
    open.browser = await openHarness({ as: "player" });
  });
  after(async () => {
    await open.browser?.close();
  });
  return open;
}

describe("a player's sheets", () => {
  const player = playerPage();

  /** Open the sheet of a character the player has `level` on; what it offers and what clicking does. */
  const sheetAs = level => player.browser.page.evaluate(async level => {
    const actor = await Actor.implementation.create({ name: `Seen at ${level}`, type: "character",
      ownership: { default: 0, [game.user.id]: level }, system: { wounds: 1 }, items: [{ name: "Aether Lens", type: "relic" }] });
    const sheet = actor.sheet;
    await sheet.render({ force: true });
    const element = sheet.element;
    // The sheet's own actions: those in its parts (the window frame's close and controls menu are Foundry's).
    const actions = [...new Set([...element.querySelectorAll(".window-content [data-action]")].map(e => e.dataset.action))].sort();
    const frame = [...element.querySelectorAll(".window-header [data-action]")].map(e => e.dataset.action);
    const enabledInputs = [...element.querySelectorAll(".window-content :is(input, select, textarea, button)")].filter(e => !e.disabled).length;
    // What a click on the second wound pip does, through the sheet's own action table.
    const pip = element.querySelector(".wounds .pip:nth-child(2)");
    ui.notifications.queue.length = 0;
    await sheet.options.actions.setWounds.call(sheet, new PointerEvent("click"), pip);
    const result = { editable: sheet.isEditable, actions, frame, enabledInputs, wounds: actor.system.wounds,
      notices: ui.notifications.queue.map(n => n.message) };
    await sheet.close();
    await actor.delete();
    return result;
  }, level);

  test("an observer sees the sheet without controls, and its actions refuse", async () => {
    const observed = await sheetAs(2);
    assert.equal(observed.editable, false);
    assert.deepEqual(observed.actions, ["editItem", "tab"]);
    assert.deepEqual(observed.frame, ["toggleControls", "close"], "v13's window frame around the sheet");
    assert.equal(observed.enabledInputs, 0, "DocumentSheetV2 disables the form for non-editors");
    assert.equal(observed.wounds, 1, "the click changed nothing");
    assert.deepEqual(observed.notices, ["You can only view this sheet."]);
    assert.deepEqual(player.browser.errors, []);
  });

  test("the owner's sheet acts", async () => {
    const owned = await sheetAs(3);
    assert.equal(owned.editable, true);
    assert.ok(owned.actions.includes("setWounds") && owned.actions.includes("editImage") && owned.actions.includes("rollAttack"));
    assert.ok(owned.enabledInputs > 10);
    assert.equal(owned.wounds, 2, "the second pip sets 2 wounds");
    assert.deepEqual(owned.notices, []);
    assert.deepEqual(player.browser.errors, []);
  });
});

describe("v14's detached windows", () => {
  const player = playerPage();

  test("a roll link in an application rendered into another window's document still rolls", async () => {
    const posted = await player.browser.page.evaluate(async () => {
      // A same-origin frame stands in for v14's detached window: its own document and Element class.
      const frame = document.createElement("iframe");
      document.body.append(frame);
      const other = frame.contentDocument;
      const element = other.createElement("section");
      const TextEditor = foundry.applications.ux.TextEditor.implementation;
      element.innerHTML = await TextEditor.enrichHTML("<p>@Icon[save]{Save}</p>");
      other.body.append(element);
      // What v14 calls once the application has rendered into that window.
      Hooks.callAll("renderApplicationV2", { id: "journal" }, element);
      const before = game.messages.size;
      element.querySelector("a.icon-roll-link").dispatchEvent(new other.defaultView.MouseEvent("click", { bubbles: true }));
      const deadline = Date.now() + 5000;
      while (game.messages.size === before && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      const message = game.messages.contents.at(-1);
      const kind = game.messages.size > before ? message.rolls[0].options.request.kind : null;
      await message?.delete();
      frame.remove();
      return kind;
    });
    assert.equal(posted, "icon.save");
    assert.deepEqual(player.browser.errors, []);
  });
});

describe("v14's detached chat", () => {
  const player = playerPage();

  test("Apply damage on a card rendered in another window's document still applies", async () => {
    const result = await player.browser.page.evaluate(async () => {
      const mine = { default: 0, [game.user.id]: 3 };
      const attacker = await Actor.implementation.create({ name: "Ysolde", type: "character", ownership: mine });
      const target = await Actor.implementation.create({ name: "Goblin", type: "foe", ownership: mine });
      const before = target.system.hp.value;
      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const { attackTargetOf, initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999999;
      const message = await TacticalRolls.attack(attacker, initialAttackState({ targets: [attackTargetOf({ uuid: target.uuid,
        name: target.name, img: "", system: target.system, statuses: [] })] }));
      CONFIG.Dice.randomUniform = random;
      const deadline = Date.now() + 5000;
      let card;
      while (!(card = document.querySelector(`[data-message-id="${message.id}"]`)) && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      // A popped-out chat renders the message in the detached window's document (nodes of that
      // window), then calls the render hook on it, as here.
      const frame = document.createElement("iframe");
      document.body.append(frame);
      const other = frame.contentDocument;
      const copy = other.importNode(card, true);
      other.body.append(copy);
      Hooks.callAll("renderChatMessageHTML", message, copy, {});
      copy.querySelector('[data-card-action="damage"]').dispatchEvent(new other.defaultView.MouseEvent("click", { bubbles: true }));
      while (!message.getFlag("icon-engine", "damageApplied") && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      const after = target.system.hp.value;
      // the card's images load before the window goes (a removed frame aborts their requests)
      await Promise.all([...other.images].map(img => (img.complete ? null : new Promise(r => { img.onload = img.onerror = r; }))));
      frame.remove();
      await message.delete();
      await attacker.delete();
      await target.delete();
      return { before, after, applied: !!message.getFlag("icon-engine", "damageApplied") };
    });
    assert.equal(result.applied, true);
    assert.ok(result.after < result.before, `${result.before} → ${result.after}`);
    assert.deepEqual(player.browser.errors, []);
  });
});

describe("the wasm core as Foundry serves it", () => {
  let server;
  let browser;
  const warnings = [];

  before(async () => {
    server = await startServer({ wasmType: "application/octet-stream" });
    browser = await openPage();
    browser.page.on("console", message => { if (message.type() === "warning") warnings.push(message.text()); });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("under a routePrefix, with .wasm served as application/octet-stream, the core loads", async () => {
    await browser.page.goto(`${server.url}/vtt/systems/icon-engine/test/browser/harness.html`);
    await browser.page.waitForFunction(() => globalThis.shimReady === true);
    const loaded = await browser.page.evaluate(async () => {
      const core = await import("../../module/core.mjs");
      const api = await core.loadCore();
      const wasm = performance.getEntriesByType("resource").find(e => e.name.endsWith(".wasm"));
      return { version: api.version(), total: core.roll({ kind: "dice", formula: "1d1" }, 7).total, wasm: new URL(wasm.name).pathname };
    });
    assert.match(loaded.version, /^\d+\.\d+\.\d+/);
    assert.equal(loaded.total, 1);
    assert.equal(loaded.wasm, "/vtt/systems/icon-engine/wasm/icon_engine_bg.wasm", "fetched next to the glue, under the prefix");
    // wasm-bindgen's fallback (WebAssembly.instantiate over the bytes) says why it was needed.
    assert.ok(warnings.some(w => w.includes("application/wasm")), `warnings: ${warnings}`);
    assert.deepEqual(browser.errors, []);
  });
});
