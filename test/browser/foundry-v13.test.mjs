/**
 * What Foundry v13 does that the shim used to hide (issue 30), each with the system's answer,
 * in a shim world booted as Foundry boots it (test/browser/foundry-shim.mjs `startGame`: init,
 * the world's documents, setup, the user interface, ready):
 * 1. v13's CombatTracker routes a `.combat-control` click to `combat[action]()`: the ICON tracker
 *    drops core's Roll All / Roll NPCs, initiative is refused with a notice, and the ICON rows'
 *    hide/defeat buttons are core's `.combatant-control`s.
 * 2. When the core loads after the world, actors are prepared again without making a sheet
 *    application for each (`Actor#sheet` does in v13).
 * 3. A core that fails to load before `ui.notifications` exists is still told, at `ready`.
 * 4. Core's own actor and item sheets are not offered.
 * 5. v13's ChatMessage#renderHTML enriches content: the system's own cards are shown as stored,
 *    players' messages enriched, roll cards show their rolls.
 * 6. A new world records the data version without a migration banner.
 * And what the shim's v13 behaviour showed besides: a roll mode chosen in a dialog survives
 * ChatMessage#_preCreate, a value a sheet's model rejects is refused with Foundry's notice, a
 * stored document the models reject leaves the world loading, and manual dice entry feeds ICON
 * rolls.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GENERATION, UNTIL, openHarness } from "../support/browser.mjs";

/** The notice of refused initiative (lang/en.json). */
const NO_INITIATIVE = "ICON has no initiative to roll: who acts next is chosen on the combat tracker (Act).";

/**
 * A page with the system booted in a shim world, for the enclosing suite. `route` may hold the
 * wasm back (or fail it) before the page loads; `boot` false leaves the booting to the test.
 * @param {{as?: "gm" | "player", data?: object, route?: (page: import("playwright-core").Page) => Promise<void>, boot?: boolean}} [options]
 */
function world({ as = "gm", data = {}, route, boot = true } = {}) {
  /** @type {{browser: Awaited<ReturnType<typeof openHarness>>, page: import("playwright-core").Page}} */
  const open = /** @type {any} */ ({});
  before(async () => {
    // The world is installed here, and started below only when `boot` (a test may start it itself).
    open.browser = await openHarness({ as: null, onPage: route });
    open.page = open.browser.page;
    await open.page.evaluate(async ({ as, data }) => {
      const shim = await import("./foundry-shim.mjs");
      shim.installWorld({ as, data });
      await import("../../module/icon-engine.mjs");
    }, { as, data });
    if (boot) {
      await open.page.evaluate(async () => {
        const shim = await import("./foundry-shim.mjs");
        await shim.startGame();
        const { loadCore } = await import("../../module/core.mjs");
        await loadCore();
        await foundry.applications.handlebars.loadTemplates(CONFIG.ICONENGINE.partials);
        await globalThis.iconEngine.dice.SyncTemplates.ready;
        // what the boot told the user, once the ready hook's data migration has run
        for (let waited = 0; !game.settings.get("icon-engine", "dataVersion") && waited < 5000; waited += 20) await new Promise(r => setTimeout(r, 20));
        globalThis.bootNotices = ui.notifications.queue.map(n => [n.type, n.message]);
      });
    }
  });
  after(async () => {
    await open.browser?.close();
  });
  return open;
}

describe("1. the combat tracker in v13's CombatTracker", () => {
  const open = world();

  test("core's Roll All / Roll NPCs are gone from the header; initiative is refused with a notice, nothing rolled", async () => {
    const result = await open.page.evaluate(async () => {
      const pc = await Actor.implementation.create({ name: "Ysolde", type: "character" });
      const foe = await Actor.implementation.create({ name: "Goblin", type: "foe" });
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: pc.id }, { actorId: foe.id }]);
      await ui.combat.render();
      const element = ui.combat.element;
      const header = element.querySelector('[data-application-part="header"]');
      const shown = {
        header: !!header?.querySelector(".encounter-controls.combat"),
        initiativeButtons: element.querySelectorAll('[data-action="rollAll"], [data-action="rollNPC"], [data-action="rollInitiative"]').length,
        // every control v13 routes to combat[action]()
        combatControls: [...element.querySelectorAll(".combat-control[data-action]")].map(b => b.dataset.action),
        spacers: header?.querySelectorAll(".control-buttons.left .spacer").length ?? 0
      };
      ui.notifications.queue.length = 0;
      const messages = game.messages.size;
      const answers = [];
      for (const call of [() => combat.rollAll(), () => combat.rollNPC(), () => combat.rollInitiative([combat.combatants.contents[0].id])]) {
        try {
          answers.push((await call()) === combat);
        } catch (error) {
          answers.push(String(error));
        }
      }
      return { shown, answers, posted: game.messages.size - messages, initiative: combat.combatants.map(c => c.initiative),
        notices: ui.notifications.queue.map(n => [n.type, n.message]) };
    });
    assert.deepEqual(result.shown, { header: true, initiativeButtons: 0, combatControls: [], spacers: 2 },
      "core's header without its initiative buttons, spacers in their place");
    assert.deepEqual(result.answers, [true, true, true]);
    assert.equal(result.posted, 0, "no initiative card");
    assert.deepEqual(result.initiative, [null, null], "no initiative written");
    assert.deepEqual(result.notices, [["warning", NO_INITIATIVE], ["warning", NO_INITIATIVE], ["warning", NO_INITIATIVE]]);
    assert.deepEqual(open.browser.errors, []);
  });

  test("Begin, Act, End turn, hide and defeat, clicked on the rendered tracker, do what they say", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const combat = game.combats.active;
      const [pc, foe] = ["Ysolde", "Goblin"].map(name => combat.combatants.find(c => c.name === name));
      const row = id => ui.combat.element.querySelector(`li[data-combatant-id="${id}"]`);
      const click = async (selector, what) => (await until(() => ui.combat.element.querySelector(selector), what)).click();
      await click(".icon-start", "Begin combat");
      await until(() => combat.iconState?.round === 1, "the combat to start");
      await click(`li[data-combatant-id="${pc.id}"] .icon-act`, "Ysolde's Act");
      await until(() => combat.iconState?.current?.id === pc.id, "Ysolde's turn");
      const acting = !!(await until(() => row(pc.id)?.classList.contains("active"), "Ysolde's row marked acting"));
      await click(`li[data-combatant-id="${pc.id}"] .icon-end`, "End turn");
      await until(() => !combat.iconState?.current, "the turn to end");
      const taken = Object.values(combat.iconState.combatants).find(c => c[0] === pc.id)[3];
      // core's combatant controls: v13 sends them to _onCombatantControl
      row(foe.id).querySelector('[data-action="toggleHidden"]').click();
      await until(() => combat.combatants.get(foe.id).hidden, "the goblin hidden");
      row(foe.id).querySelector('[data-action="toggleDefeated"]').click();
      await until(() => combat.combatants.get(foe.id).isDefeated, "the goblin defeated");
      const defeated = await until(() => combat.iconState && Object.values(combat.iconState.combatants).some(c => c[0] === foe.id && (c[2] & 4)),
        "the reducer to mark the goblin defeated");
      return { acting, taken, hidden: combat.combatants.get(foe.id).hidden,
        statuses: [...foe.actor.statuses], defeated: !!defeated };
    }, UNTIL);
    assert.deepEqual(result, { acting: true, taken: 1, hidden: true, statuses: ["defeated"], defeated: true });
    assert.deepEqual(open.browser.errors, []);
  });

  test("issue 41: a row's HP and statuses come from its actor; Delay, clicked on the rendered tracker, marks a pending delay", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const combat = game.combats.active;
      const pc = combat.combatants.find(c => c.name === "Ysolde");
      const row = () => ui.combat.element.querySelector(`li[data-combatant-id="${pc.id}"]`);
      // 14 of 32: bloodied (the system sets the status), and Dazed from the token HUD
      await pc.actor.update({ "system.hp.value": 14 });
      await until(() => pc.actor.statuses.has("bloodied"), "Bloodied");
      await pc.actor.toggleStatusEffect("dazed", { active: true });
      await ui.combat.render();
      const shown = { hp: row().querySelector(".icon-row-hp")?.textContent.trim(),
        statuses: [...row().querySelectorAll(".icon-row-statuses img")].map(img => [img.alt, img.getAttribute("src")]).sort() };
      (await until(() => row()?.querySelector('[data-action="iconDelay"]'), "Ysolde's Delay")).click();
      const flags = await until(() => Object.values(combat.iconState.combatants).find(c => c[0] === pc.id && (c[2] & 8))?.[2], "the pending delay");
      await until(() => row()?.querySelector(".icon-delay"), "the row to say so");
      return { ...shown, delayed: (flags & 8) !== 0, control: !!row().querySelector('[data-action="iconDelay"]') };
    }, UNTIL);
    assert.deepEqual(result, { hp: "HP 14/32", statuses: [["Bloodied", "systems/icon-engine/assets/icons/statuses/bloodied.svg"],
      ["Dazed", "systems/icon-engine/assets/icons/statuses/dazed.svg"]], delayed: true, control: false });
    assert.deepEqual(open.browser.errors, []);
  });

  test("4. core's actor and item sheets are not offered (Sheet Configuration lists CONFIG[…].sheetClasses)", async () => {
    const offered = await open.page.evaluate(() => ({
      Actor: Object.fromEntries(Object.entries(CONFIG.Actor.sheetClasses).map(([type, sheets]) => [type, Object.keys(sheets)])),
      Item: Object.fromEntries(Object.entries(CONFIG.Item.sheetClasses).map(([type, sheets]) => [type, Object.keys(sheets)]))
    }));
    assert.deepEqual(offered, {
      Actor: { character: ["icon-engine.CharacterSheet"], foe: ["icon-engine.FoeSheet"], hero: ["icon-engine.HeroSheet"], base: [] },
      Item: { ability: ["icon-engine.AbilitySheet"], relic: ["icon-engine.IconItemSheet"], trait: ["icon-engine.IconItemSheet"],
        class: ["icon-engine.GrantSheet"], job: ["icon-engine.GrantSheet"], foeTemplate: ["icon-engine.GrantSheet"], base: [] }
    });
  });

  test("6. a new world records its data version without a migration banner", async () => {
    const state = await open.page.evaluate(async () => {
      const { MIGRATIONS } = await import("../../module/migrations/migration-list.mjs");
      return { version: game.settings.get("icon-engine", "dataVersion"), latest: MIGRATIONS.length, notices: globalThis.bootNotices };
    });
    assert.equal(state.version, state.latest);
    assert.deepEqual(state.notices, [], "nothing was migrated, nothing is said");
  });
});

describe("2. the core loading after the world: 500 actors prepared again, no sheet made", () => {
  /** Releases the held-back wasm. @type {() => void} */
  let release = () => {};
  const held = new Promise(resolve => { release = resolve; });
  const id = (/** @type {string} */ prefix, /** @type {number} */ i) => `${prefix}${String(i).padStart(16 - prefix.length, "0")}`;
  const actors = Array.from({ length: 500 }, (_, i) => ({ _id: id("act", i), name: `Actor ${i}`, type: i < 20 ? "foe" : "character",
    ownership: { default: 0 } }));
  const scene = { _id: id("scn", 0), name: "Battlefield", tokens: [
    ...Array.from({ length: 20 }, (_, i) => ({ _id: id("tok", i), name: `Goblin ${i}`, actorId: id("act", i), actorLink: false,
      delta: { system: { hp: { value: 10 + i } } } })),
    { _id: id("tok", 99), name: "Actor 20", actorId: id("act", 20), actorLink: true }
  ] };
  const open = world({
    data: { actors, scenes: [scene] }, boot: false,
    route: page => page.route("**/icon_engine_bg.wasm", async route => { await held; await route.continue(); })
  });

  test("only the open sheet is redrawn, world and unlinked-token actors get their derived values", async () => {
    const before = await open.page.evaluate(async () => {
      const shim = await import("./foundry-shim.mjs");
      await shim.startGame();
      const { isCoreLoaded } = await import("../../module/core.mjs");
      const open = game.actors.contents[25];
      await foundry.applications.handlebars.loadTemplates(CONFIG.ICONENGINE.partials);
      await globalThis.iconEngine.dice.SyncTemplates.ready;
      globalThis.sheetRenders = 0;
      Hooks.on("renderCharacterSheet", () => { globalThis.sheetRenders++; });
      await open.sheet.render({ force: true });
      return { loaded: isCoreLoaded(), derived: game.actors.contents.filter(a => a.system.derived).length, renders: globalThis.sheetRenders,
        windows: foundry.applications.instances.size };
    });
    assert.deepEqual(before, { loaded: false, derived: 0, renders: 1, windows: 3 }, "the world is up, the core not yet");
    release();
    const after = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const { loadCore } = await import("../../module/core.mjs");
      await loadCore();
      const tokens = game.scenes.contents[0].tokens.contents;
      await until(() => game.actors.contents.every(a => a.system.derived) && tokens.every(t => t.actor.system.derived), "every actor's derived values");
      await until(() => globalThis.sheetRenders === 2, "the open sheet redrawn");
      return {
        sheetsMade: game.actors.contents.filter(a => a._sheet).map(a => a.name),
        tokenActors: tokens.filter(t => !t.actorLink).map(t => t.actor.system.hp.value),
        windows: foundry.applications.instances.size,
        renders: globalThis.sheetRenders
      };
    }, UNTIL);
    assert.deepEqual(after.sheetsMade, ["Actor 25"], "Actor#sheet makes an application: only the opened actor has one");
    assert.deepEqual(after.tokenActors, Array.from({ length: 20 }, (_, i) => 10 + i), "each token its own synthetic actor");
    assert.equal(after.windows, 3, "the tracker, the hotbar and the open sheet");
    assert.equal(after.renders, 2);
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("3. a core that fails before the user interface exists", () => {
  const open = world({ boot: false, route: page => page.route("**/icon_engine_bg.wasm", route => route.fulfill({ status: 404, body: "not here" })) });

  test("is told at ready, with what to do", async () => {
    const shown = await open.page.evaluate(async () => {
      const { loadCore } = await import("../../module/core.mjs");
      const failure = await loadCore().then(() => null, error => String(error));
      const uiBefore = !!ui.notifications;
      const shim = await import("./foundry-shim.mjs");
      await shim.startGame();
      return { failure, uiBefore, notices: ui.notifications.queue.map(n => [n.type, n.message]) };
    });
    assert.ok(shown.failure, "the load failed");
    assert.equal(shown.uiBefore, false, "before Foundry made ui.notifications");
    const errors = shown.notices.filter(([type]) => type === "error");
    assert.equal(errors.length, 1, JSON.stringify(shown.notices));
    const [, message] = errors[0];
    assert.match(message, /^The ICON Engine rules core failed to load \(.+\)\. /);
    assert.match(message, /Reload the page \(F5\); if it fails again, update or reinstall the system/);
    // Expected here: the missing file, and the system saying so on the console.
    const unexpected = open.browser.errors.filter(e => !/404|the rules core did not load|the glossary could not be loaded/.test(e));
    assert.deepEqual(unexpected, []);
  });
});

describe("5. which chat cards v13's renderHTML enriches", () => {
  const open = world();

  test("the system's own cards as stored, a player's line enriched, a roll card its roll", async () => {
    const cards = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const { default: IconEnrichers } = await import("../../module/enrichers.mjs");
      IconEnrichers.registerGlossary(["range", "dazed", "goblin", "save"].map(key => ({ key, definition: `About ${key}.` })));
      const shown = async message => {
        const li = await until(() => document.querySelector(`#chat [data-message-id="${message.id}"]`), `message ${message.id}`);
        const content = li.querySelector(".message-content");
        const stored = document.createElement("template");
        stored.innerHTML = message.content;
        return { terms: [...content.querySelectorAll(".icon-term")].map(t => t.textContent.toLowerCase()), asStored: content.innerHTML === stored.innerHTML };
      };
      const { default: OddsReport } = await import("../../module/dice/odds-report.mjs");
      const odds = await OddsReport.toMessage({ kind: "dice", formula: "2d6" });
      // the end of a goblin's turn with Dazed, and its delayed effect firing
      const goblin = await Actor.implementation.create({ name: "Goblin", type: "foe" });
      await goblin.toggleStatusEffect("dazed", { active: true });
      const combat = await Combat.implementation.create({});
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: goblin.id }]);
      const combatant = combat.combatants.contents[0];
      const { runCombatEffects } = await import("../../module/documents/combat-effects.mjs");
      const none = async () => {};
      const before = new Set(game.messages.keys());
      await runCombatEffects(combat, [{ type: "delayFired", id: combatant.id }, { type: "turnEnded", id: combatant.id }],
        { startTurn: none, clearMovement: none, endTurn: none, startRound: none, endRound: none });
      const posted = game.messages.contents.filter(m => !before.has(m.id));
      const announcement = posted.find(m => m.getFlag("icon-engine", "announcement"));
      const saves = posted.find(m => m.getFlag("icon-engine", "saves"));
      const player = await ChatMessage.implementation.create({ content: "<p>The goblin is dazed, out of range.</p>" });
      const { default: IconRoll } = await import("../../module/dice/icon-roll.mjs");
      const roll = await IconRoll.fromRequest({ kind: "icon.save" });
      await roll.evaluate();
      const save = await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor: goblin }) });
      const saveCard = await until(() => document.querySelector(`#chat [data-message-id="${save.id}"] .message-content`), "the save card");
      const shownCards = {
        odds: await shown(odds), announcement: announcement && await shown(announcement), saves: saves && await shown(saves),
        player: await shown(player),
        save: { terms: saveCard.querySelectorAll(".icon-term").length, card: !!saveCard.querySelector(".icon-engine") }
      };
      // the saves card shown as stored keeps its buttons' listeners (the guard runs first)
      const count = game.messages.size;
      document.querySelector(`#chat [data-message-id="${saves.id}"] button[data-icon-save="dazed"]`).click();
      const rolled = await until(() => game.messages.size > count && game.messages.contents.at(-1), "the save the button rolls");
      return { ...shownCards, saveButton: rolled.rolls[0]?.options.request?.kind };
    }, UNTIL);
    assert.deepEqual(cards.odds, { terms: [], asStored: true }, "the odds card (its Range label is a glossary term)");
    assert.deepEqual(cards.announcement, { terms: [], asStored: true }, "the announcement (the goblin's name is one)");
    assert.deepEqual(cards.saves, { terms: [], asStored: true }, "the saves card (Dazed and Save are)");
    assert.deepEqual(cards.player, { terms: ["goblin", "dazed", "range"], asStored: false }, "a player's line is enriched");
    assert.deepEqual(cards.save, { terms: 0, card: true }, "a roll card shows its roll");
    assert.equal(cards.saveButton, "icon.save", "the saves card's button still rolls");
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("what v13's ChatMessage, sheets and world load do besides", () => {
  const open = world({ data: { actors: [
    { _id: "actValid00000001", name: "Valid", type: "character" },
    // wounds past the rules' limit: the character model rejects it
    { _id: "actBroken0000002", name: "Broken", type: "character", system: { wounds: 99 } }
  ] } });

  test("a stored document the models reject leaves the world loading, listed in invalidDocumentIds", async () => {
    const loaded = await open.page.evaluate(() => ({ actors: game.actors.contents.map(a => a.name), invalid: [...game.actors.invalidDocumentIds],
      stored: game.data.actors.map(a => a.name) }));
    assert.deepEqual(loaded, { actors: ["Valid"], invalid: ["actBroken0000002"], stored: ["Valid", "Broken"] });
    assert.deepEqual(open.browser.errors.filter(e => !/Failed to initialize Actor \[actBroken0000002\]/.test(e)), []);
    open.browser.errors.length = 0;
  });

  test("new documents get v13's default images (Actor.DEFAULT_ICON, Item.DEFAULT_ICON, Macro.DEFAULT_ICON), and the harness shows them", async () => {
    // What the declarations say v13's defaults are.
    const types = "../../node_modules/@league-of-foundry-developers/foundry-vtt-types/src/foundry/common/";
    const read = path => readFile(fileURLToPath(new URL(types + path, import.meta.url)), "utf8");
    const declared = {
      token: (await read("constants.d.mts")).match(/DEFAULT_TOKEN: "([^"]+)"/)?.[1],
      item: (await read("documents/item.d.mts")).match(/@defaultValue `"([^"]+)"`\s*\*\/\s*static DEFAULT_ICON/)?.[1],
      macro: (await read("documents/macro.d.mts")).match(/@defaultValue `"([^"]+)"`\s*\*\/\s*static DEFAULT_ICON/)?.[1]
    };
    assert.ok(declared.token && declared.item && declared.macro, JSON.stringify(declared));
    assert.match(await read("documents/actor.d.mts"), /@defaultValue `CONST\.DEFAULT_TOKEN`\s*\*\/\s*static DEFAULT_ICON/, "an actor's default is the token's");
    const shown = await open.page.evaluate(async () => {
      const actor = await Actor.implementation.create({ name: "New hero", type: "character" });
      const [item] = await actor.createEmbeddedDocuments("Item", [{ name: "New ability", type: "ability" }]);
      const macro = await Macro.implementation.create({ name: "New macro", type: "script" });
      // each image as a sheet shows it, from the harness page (Foundry serves its core icons at the same relative paths)
      const loads = await Promise.all([actor.img, item.img, macro.img].map(src => new Promise(resolve => {
        const image = new Image();
        image.onload = () => resolve(image.naturalWidth > 0);
        image.onerror = () => resolve(false);
        image.src = src;
      })));
      const out = { token: CONST.DEFAULT_TOKEN, actor: [Actor.DEFAULT_ICON, Actor.implementation.getDefaultArtwork().texture.src, actor.img],
        item: [Item.DEFAULT_ICON, item.img], macro: [Macro.DEFAULT_ICON, macro.img], loads };
      await actor.delete();
      await macro.delete();
      return out;
    });
    assert.deepEqual(shown, { token: declared.token, actor: [declared.token, declared.token, declared.token], item: [declared.item, declared.item],
      macro: [declared.macro, declared.macro], loads: [true, true, true] });
    assert.deepEqual(open.browser.errors, []);
  });

  // v13's core.rollMode is v14's core.messageMode (v14 has no rollMode setting); the dialog's mode
  // is stored in v13's names, which the system maps to the running generation's.
  test("a roll posted public by a user whose chat mode is private stays public (ChatMessage#_preCreate)", async () => {
    const modes = await open.page.evaluate(async v14 => {
      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const { default: IconRoll } = await import("../../module/dice/icon-roll.mjs");
      const actor = game.actors.getName("Valid");
      const [setting, gm, open] = v14 ? ["messageMode", "gm", "public"] : ["rollMode", "gmroll", "publicroll"];
      await game.settings.set("core", setting, gm);
      const results = {};
      for (const mode of ["publicroll", "blindroll", "selfroll"]) {
        const roll = await IconRoll.fromRequest({ kind: "icon.save" });
        await roll.evaluate();
        const message = await TacticalRolls.post(actor, [roll], "Save", mode);
        results[mode] = { whisper: message.whisper.length, blind: message.blind };
      }
      await game.settings.set("core", setting, open);
      return results;
    }, GENERATION >= 14);
    assert.deepEqual(modes, { publicroll: { whisper: 0, blind: false }, blindroll: { whisper: 1, blind: true }, selfroll: { whisper: 1, blind: false } });
    assert.deepEqual(open.browser.errors, []);
  });

  test("a value the model rejects, typed into a sheet, is refused with Foundry's notice; the actor is unchanged", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const actor = game.actors.getName("Valid");
      const sheet = actor.sheet;
      await sheet.render({ force: true });
      ui.notifications.queue.length = 0;
      const vit = sheet.element.querySelector('input[name="system.vit"]');
      vit.value = "999";
      vit.dispatchEvent(new Event("change", { bubbles: true }));
      const notice = await until(() => ui.notifications.queue.find(n => n.type === "error"), "the notice");
      await sheet.close();
      return { vit: actor.system.vit, notice: notice.message };
    }, UNTIL);
    assert.equal(result.vit, 8);
    assert.match(result.notice, /^Actor \[actValid00000001\] validation errors:\n[\s\S]*vit: must be at most 99/);
    // v13 logs the refused submission too
    assert.ok(open.browser.errors.some(e => /validation errors/.test(e)));
    assert.deepEqual(open.browser.errors.filter(e => !/validation errors/.test(e)), []);
    open.browser.errors.length = 0;
  });
  test("dice entered by hand (Dice Configuration: manual) are the faces an ICON roll resolves, not the generator's", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const { default: IconRoll } = await import("../../module/dice/icon-roll.mjs");
      await game.settings.set("core", "diceConfiguration", { d20: "manual" });
      const random = CONFIG.Dice.randomUniform;
      let drawn = 0;
      CONFIG.Dice.randomUniform = () => { drawn++; return random(); };
      try {
        const roll = await IconRoll.fromRequest({ kind: "icon.save" });
        const evaluated = roll.evaluate();
        const form = await until(() => document.querySelector("form.roll-resolver"), "the manual entry form");
        const input = form.querySelector('input[data-denomination="d20"]');
        input.value = "20";
        form.querySelector('button[type="submit"]').click();
        await evaluated;
        return { faces: roll.dice.map(d => d.values), success: roll.outcome?.success, drawn, formLeft: !!document.querySelector("form.roll-resolver") };
      } finally {
        CONFIG.Dice.randomUniform = random;
        await game.settings.set("core", "diceConfiguration", {});
      }
    }, UNTIL);
    assert.deepEqual(result, { faces: [[20]], success: true, drawn: 0, formLeft: false });
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("the shim's ApplicationV2 as v13's (what the tests above rely on)", () => {
  const open = world();

  test("parts share one context, render({parts}) redraws only those, clicks reach actions as v13 sends them", async () => {
    const seen = await open.page.evaluate(async () => {
      const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;
      const log = [];
      class Probe extends HandlebarsApplicationMixin(ApplicationV2) {
        static DEFAULT_OPTIONS = { actions: { left: () => log.push("left"), both: { handler: event => log.push(`both:${event.button}`), buttons: [0, 2] },
          fails: () => { throw new Error("an action's error"); } } };
        static PARTS = { a: { template: "systems/icon-engine/templates/combat/footer.hbs" }, b: { template: "systems/icon-engine/templates/combat/footer.hbs" } };
        async _preparePartContext(partId, context, options) {
          context = await super._preparePartContext(partId, context, options);
          log.push(`${partId}:${context.fromA ?? "-"}`);
          if (partId === "a") context.fromA = "a was here";
          return context;
        }
        _onClickAction(event, target) { log.push(`unhandled:${target.dataset.action}:${event.button}`); }
      }
      const app = new Probe();
      await app.render({ force: true });
      const first = app.element.querySelector('[data-application-part="a"]');
      log.push("--");
      await app.render({ parts: ["b"] });
      const kept = app.element.querySelector('[data-application-part="a"]') === first;
      log.push("--");
      const content = app.element.querySelector('[data-application-part="b"]');
      content.innerHTML = '<a data-action="left" href="#here">l</a><button data-action="both">b</button><span data-action="other">o</span><i data-action="fails">f</i>';
      const defaults = [];
      for (const [selector, type, button] of [["[data-action=left]", "click", 0], ["[data-action=left]", "contextmenu", 2], ["[data-action=both]", "contextmenu", 2],
        ["[data-action=other]", "click", 0], ["[data-action=other]", "contextmenu", 2]]) {
        const event = new MouseEvent(type, { bubbles: true, cancelable: true, button });
        content.querySelector(selector).dispatchEvent(event);
        defaults.push(event.defaultPrevented);
      }
      const errors = [];
      window.addEventListener("error", event => { errors.push(event.message); event.preventDefault(); }, { once: true });
      content.querySelector("[data-action=fails]").dispatchEvent(new MouseEvent("click", { bubbles: true, button: 0 }));
      await app.close();
      return { log, kept, defaults, errors };
    });
    assert.deepEqual(seen.log, ["a:-", "b:a was here", "--", "b:-", "--", "left", "both:2", "unhandled:other:0", "unhandled:other:2"],
      "one context across a render's parts; only b the second time; a left-click action ignores right-clicks");
    assert.equal(seen.kept, true, "part a untouched by render({parts: [\"b\"]})");
    assert.deepEqual(seen.defaults, [false, false, false, false, false], "no default prevented");
    assert.equal(seen.errors.length, 1, "an action's error is not swallowed");
    assert.match(seen.errors[0], /an action's error/);
  });

  test("a render awaited inside a render step of the same application waits forever, and the shim says so", async () => {
    const waited = await open.page.evaluate(async () => {
      const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;
      class Stuck extends HandlebarsApplicationMixin(ApplicationV2) {
        static PARTS = { a: { template: "systems/icon-engine/templates/combat/footer.hbs" } };
        async _onRender(context, options) {
          if (options.isFirstRender) await this.render();
        }
      }
      const said = new Promise(resolve => {
        const error = console.error;
        console.error = (...args) => { console.error = error; resolve(args.join(" ")); };
      });
      const app = new Stuck();
      const rendering = app.render({ force: true }).then(() => "rendered");
      return Promise.race([rendering, said]);
    });
    assert.match(waited, /still waiting: awaited there, it deadlocks/);
  });
});
