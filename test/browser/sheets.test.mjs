/**
 * The ICON actor and item sheets in Chromium: each sheet's templates rendered with the real
 * context code (module/applications/sheets/sheet-context.mjs), the real presets (rules.mjs) and
 * the core's derived values. The ApplicationV2 sheet classes themselves are not run (Foundry is
 * not here); the shim only localizes and renders Handlebars. Screenshots in test-results/.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("ICON sheets in the browser", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;

  before(async () => {
    browser = await openHarness({ as: null, viewport: { width: 680, height: 900 }, path: "/test/browser/harness.html" });
    await browser.page.evaluate(async () => {
      const { ICONENGINE } = await import("/module/config.mjs");
      await foundry.applications.handlebars.loadTemplates(ICONENGINE.partials);
      document.body.innerHTML = '<form id="sheet" class="icon-engine sheet actor" style="width:620px;background:#f0efe7;color:#191813;padding:8px"></form>';

      const { loadCore, iconDerived } = await import("/module/core.mjs");
      const context = await import("/module/applications/sheets/sheet-context.mjs");
      const { ACTIONS } = await import("/module/data/rules.mjs");
      await loadCore();
      const render = (path, data) => foundry.applications.handlebars.renderTemplate(path, data);
      /** What prepareDerivedData does, with the same core call. */
      const derive = (system, maxHp) => {
        system.hp.max = maxHp;
        system.derived = iconDerived({ hp: system.hp.value, maxHp, vigor: system.vigor.value, wounds: system.wounds });
        system.vigor.max = system.derived.vigorCap;
        return system;
      };
      const tabs = active => Object.fromEntries(["combat", "narrative", "abilities", "bio"].map(id => [id,
        { id, group: "primary", label: `ICONENGINE.Tab.${id}`, active: id === active, cssClass: id === active ? "active" : "" }]));
      const blankCharacter = () => ({
        biography: "<p>Raised by wolves.</p>", vit: 8, hp: { value: 32, max: 32 }, vigor: { value: 0, max: 8 }, wounds: 0,
        defense: 7, speed: 4, dash: 2, damageDie: 8, fray: 3, armor: 0, class: "", job: "", level: 1, range: 3, resolve: 0, xp: 0,
        actions: Object.fromEntries(ACTIONS.map(a => [a, 0])), strain: { value: 0, max: 5 }, effort: 0, burdens: [],
        bonds: "<p>My sister.</p>", ideals: "", ambitions: ""
      });
      // An ability's system source as its data model stores it (module/data/ability-data.mjs).
      const blankAbility = (more = {}) => ({
        description: "", combo: "", actions: "1", interrupt: 1, trigger: "", tags: [], resolveCost: 0, range: { kind: "", value: 0 },
        area: { shape: "", size: 1 }, roll: { boons: 0, curses: 0, hitDice: 1, frayOnMiss: true, bonusDice: 0, pierce: false, divine: false, saveForHalf: false },
        attack: { trueStrike: false, autoHit: false, unerring: false, floor: false, critAgain: false, mark: "" },
        save: { enabled: false, boons: 0, curses: 0 }, effects: [], charges: { value: 0, max: 0, recharge: "" }, limit: { per: "", used: 0 }, ...more
      });
      globalThis.sheetTest = { ICONENGINE, context, render, derive, tabs, blankCharacter, blankAbility };
    });
  });

  after(async () => {
    await browser?.close();
  });

  const assertNoErrors = () => assert.deepEqual(browser.errors, []);

  /** Render a character sheet (all parts, the given tab active) into #sheet. */
  const renderCharacter = (system, active) => browser.page.evaluate(async ({ system, active }) => {
    const { ICONENGINE, context, render, derive, tabs } = globalThis.sheetTest;
    derive(system, 4 * system.vit);
    const items = [{ id: "a1", name: "Hammer Blow", img: "/assets/icons/statuses/dazed.svg", type: "ability" },
      { id: "t1", name: "Armor 2", img: "/assets/icons/statuses/sturdy.svg", type: "trait" }];
    const allTabs = tabs(active);
    const enriched = { biography: system.biography, bonds: system.bonds, ideals: system.ideals, ambitions: system.ambitions };
    const shared = {
      actor: { name: "Ysolde", img: "/assets/icons/statuses/defiance.svg" }, system, source: system, enriched, tabs: allTabs,
      bioFields: context.htmlFieldsContext(["bonds", "ideals", "ambitions", "biography"], system, enriched),
      ...context.characterContext(system, items)
    };
    const parts = ["characterHeader", "tabs", "characterCombat", "characterNarrative", "characterAbilities", "characterBio"];
    const tabOf = { characterCombat: "combat", characterNarrative: "narrative", characterAbilities: "abilities", characterBio: "bio" };
    const html = [];
    for (const part of parts) html.push(await render(ICONENGINE.sheets[part], { ...shared, tab: allTabs[tabOf[part]] }));
    document.querySelector("#sheet").innerHTML = html.join("");
    return system;
  }, { system, active });

  test("a new character sheet renders; picking Stalwart fills the preset", async () => {
    const { page } = browser;
    const blank = await page.evaluate(() => globalThis.sheetTest.blankCharacter());
    await renderCharacter(blank, "combat");
    assert.equal(await page.locator(".sheet-tabs a").count(), 4);
    assert.deepEqual(await page.locator(".sheet-tabs a").allTextContents(), ["Combat", "Narrative", "Abilities", "Bio"]);
    assert.equal(await page.locator(".tab.combat").isVisible(), true);
    assert.equal(await page.locator(".tab.narrative").isVisible(), false);

    // Picking a class in the select: the sheet's submit path (applyPresets) over the form's data.
    const system = await page.evaluate(() => {
      const { context, blankCharacter } = globalThis.sheetTest;
      const source = blankCharacter();
      const submit = context.applyPresets({ system: { class: "stalwart", job: "" } }, "character", source);
      return { ...source, ...submit.system, hp: { ...source.hp, ...submit.system.hp } };
    });
    const rendered = await renderCharacter(system, "combat");
    assert.equal(await page.locator('select[name="system.class"]').inputValue(), "stalwart");
    assert.equal(await page.locator('select[name="system.job"]').inputValue(), "bastion");
    assert.equal(await page.locator('input[name="system.vit"]').inputValue(), "10");
    assert.equal(await page.locator('input[name="system.defense"]').inputValue(), "6");
    assert.equal(await page.locator('input[name="system.armor"]').inputValue(), "2");
    assert.equal(await page.locator('input[name="system.hp.value"]').inputValue(), "40");
    assert.equal(await page.locator(".icon-health .max").first().textContent(), "40");
    assert.equal(await page.locator(".trait").textContent(), "Class trait: Armor 2");
    assert.equal(rendered.derived.vigorCap, 10, "vigor cap from the core");
    assert.equal(await page.locator(".bloodied-at").textContent(), "Bloodied at 20");

    await mkdir(results, { recursive: true });
    await page.locator("#sheet").screenshot({ path: `${results}character-combat.png` });
    assertNoErrors();
  });

  test("narrative tab: rating dots, strain pips and burden clocks as SVG wedges; bloodied and wounds shown", async () => {
    const { page } = browser;
    const system = await page.evaluate(() => {
      const s = globalThis.sheetTest.blankCharacter();
      Object.assign(s, { class: "wright", job: "stormbender", vit: 8, hp: { value: 12, max: 32 }, wounds: 2 });
      s.actions.smash = 3; s.actions.study = 4;
      s.strain.value = 2;
      s.burdens = [{ name: "Haunted", actions: { first: "sense", second: "charm" }, clock: 6, filled: 2 },
        { name: "Broken arm", actions: { first: "smash", second: "traverse" }, clock: 10, filled: 7 }];
      return s;
    });
    const rendered = await renderCharacter(system, "narrative");
    assert.equal(await page.locator(".tab.narrative").isVisible(), true);
    assert.equal(await page.locator('.rating[data-rating="smash"] .dot.filled').count(), 3);
    assert.equal(await page.locator('.rating[data-rating="study"] .dot.filled').count(), 4);
    assert.equal(await page.locator(".rating .dot").count(), 40);
    // issue 41: each rating's group reads its value (its label had "{value}" unfilled)
    assert.equal(await page.locator('.rating[data-rating="smash"] .dots').getAttribute("aria-label"), "Smash: 3 of 4");
    assert.equal(await page.locator('.rating[data-rating="sneak"] .dots').getAttribute("aria-label"), "Sneak: 0 of 4");
    assert.equal(await page.locator(".strain .pip.filled").count(), 2);
    assert.equal(await page.locator(".burden").nth(0).locator("path.segment").count(), 6);
    assert.equal(await page.locator(".burden").nth(1).locator("path.segment.filled").count(), 7);
    assert.equal(rendered.derived.bloodied, true);
    assert.equal(rendered.derived.healableMax, 16, "two wounds: 50% of 32");
    await page.locator("#sheet").screenshot({ path: `${results}character-narrative.png` });
    await page.evaluate(() => {
      for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === "combat");
    });
    assert.equal(await page.locator(".icon-health.bloodied").count(), 1);
    assert.equal(await page.locator(".wounds .pip.filled").count(), 2);
    assert.equal(await page.locator(".healable").textContent(), "Can heal to 16");
    await page.evaluate(() => {
      for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === "bio");
    });
    assert.equal(await page.locator("prose-mirror").count(), 4);
    await page.locator("#sheet").screenshot({ path: `${results}character-bio.png` });
    assertNoErrors();
  });

  test("foe sheet: a Legend Skirmisher gets the Legend numbers and one turn per player character", async () => {
    const { page } = browser;
    const shown = await page.evaluate(async () => {
      const { ICONENGINE, context, render, derive } = globalThis.sheetTest;
      const { foeMaxHp } = await import("/module/data/rules.mjs");
      const source = { biography: "", vit: 8, hp: { value: 32, max: 32 }, vigor: { value: 0, max: 8 }, wounds: 0, defense: 7,
        speed: 4, dash: 2, damageDie: 8, fray: 3, armor: 0, foeClass: "", template: "", chapter: 1, size: 2, partySize: 3, canCrit: false };
      const submit = context.applyPresets({ system: { foeClass: "skirmisher", template: "legend" } }, "foe", source);
      const system = { ...source, ...submit.system, hp: { ...source.hp, ...submit.system.hp } };
      derive(system, foeMaxHp(system));
      document.querySelector("#sheet").innerHTML = await render(ICONENGINE.sheets.foe, {
        actor: { name: "The Pale Knight", img: "/assets/icons/statuses/hatred.svg" }, system, source: system,
        enriched: { biography: "" }, ...context.foeContext(system, [])
      });
      return system;
    });
    assert.deepEqual([shown.defense, shown.damageDie, shown.fray, shown.hp.max], [8, 8, 3, 150]);
    assert.equal((await page.locator(".foe-kind .turns").textContent()).trim(), "3 turns a round");
    assert.equal((await page.locator(".foe-kind strong").textContent()).trim(), "Skirmisher Legend");
    assert.equal(await page.locator('select[name="system.template"]').inputValue(), "legend");
    assert.equal(await page.locator('input[name="system.canCrit"]').isChecked(), false);
    await page.locator("#sheet").screenshot({ path: `${results}foe-sheet.png` });
    assertNoErrors();
  });

  test("ability and item sheets; the limited view", async () => {
    const { page } = browser;
    await page.evaluate(async () => {
      const { ICONENGINE, context, render, blankAbility } = globalThis.sheetTest;
      const system = blankAbility({ description: "<p>Shove 1. <strong>Exceed:</strong> +[D].</p>", actions: "interrupt", interrupt: 2,
        trigger: "When a foe moves next to you", tags: ["attack", "limitBreak"], resolveCost: 3, range: { kind: "melee", value: 1 },
        area: { shape: "cross", size: 2 },
        roll: { boons: 1, curses: 0, hitDice: 2, frayOnMiss: true, bonusDice: 1, pierce: true, divine: false, saveForHalf: true },
        effects: [{ trigger: "hit", status: "dazed", duration: "turn", mark: "", movement: "Shove 1", text: "" }],
        charges: { value: 1, max: 2, recharge: "combat" }, limit: { per: "round", used: 0 } });
      document.querySelector("#sheet").innerHTML = await render(ICONENGINE.sheets.ability, {
        item: { name: "Heaven's Hammer", img: "/assets/icons/statuses/counter.svg" }, system, source: system,
        enriched: { description: system.description }, ...context.abilityContext(system)
      });
    });
    assert.deepEqual(await page.locator(".icon-tags .tag.active").allTextContents(), ["Attack", "Limit break"]);
    assert.equal(await page.locator('input[name="system.resolveCost"]').inputValue(), "3");
    assert.equal(await page.locator('input[name="system.interrupt"]').inputValue(), "2");
    assert.equal(await page.locator('input[name="system.roll.pierce"]').isChecked(), true);
    // issue 17: the ability's save for half is on its sheet (the attack dialog starts from it)
    assert.equal(await page.locator('input[name="system.roll.saveForHalf"]').isChecked(), true);
    assert.equal(await page.locator('input[name="system.roll.divine"]').isChecked(), false);
    // issue 28: cost with the interrupt's trigger, reach with the area, the effects and the charges
    assert.equal(await page.locator('input[name="system.trigger"]').inputValue(), "When a foe moves next to you");
    assert.equal(await page.locator('select[name="system.range.kind"]').inputValue(), "melee");
    assert.equal(await page.locator('select[name="system.area.shape"]').inputValue(), "cross");
    assert.equal(await page.locator('input[name="system.area.size"]').inputValue(), "2");
    assert.equal(await page.locator('select[name="system.effects.0.status"]').inputValue(), "dazed");
    assert.equal(await page.locator('select[name="system.effects.0.duration"]').inputValue(), "turn");
    assert.equal(await page.locator('input[name="system.effects.0.movement"]').inputValue(), "Shove 1");
    assert.equal(await page.locator('input[name="system.charges.max"]').inputValue(), "2");
    assert.equal(await page.locator('select[name="system.charges.recharge"]').inputValue(), "combat");
    assert.equal(await page.locator('select[name="system.limit.per"]').inputValue(), "round");
    await page.locator("#sheet").screenshot({ path: `${results}ability-sheet.png` });

    const texts = await page.evaluate(async () => {
      const { ICONENGINE, render } = globalThis.sheetTest;
      const item = await render(ICONENGINE.sheets.item, { item: { name: "Aether Lens", img: "" }, source: { description: "" }, enriched: { description: "<p>Glows.</p>" } });
      const limited = await render(ICONENGINE.sheets.limited, { actor: { name: "Ysolde", img: "/assets/icons/statuses/defiance.svg" } });
      document.querySelector("#sheet").innerHTML = limited;
      return { item, limited };
    });
    assert.match(texts.item, /Glows\./);
    assert.equal(await page.locator("#sheet input").count(), 0, "the limited view has no inputs");
    assert.match(texts.limited, /only this character(&#x27;|')s name and portrait/);
    assertNoErrors();
  });

  /**
   * Every sheet template rendered as its owner and as an observer (`readOnly`, which the sheet
   * classes set from `isEditable`): the actions each offers, and its image's attributes.
   */
  const sheetActions = readOnly => browser.page.evaluate(async readOnly => {
    const { ICONENGINE, context, render, derive, tabs, blankCharacter } = globalThis.sheetTest;
    const { loadCore } = await import("/module/core.mjs");
    const { heroContext } = await import("/module/applications/sheets/hero-context.mjs");
    const { MNS_CHARACTERISTICS } = await import("/module/data/rulesets.mjs");
    const { foeMaxHp } = await import("/module/data/rules.mjs");
    const core = await loadCore();
    const actor = { name: "Ysolde", img: "/assets/icons/statuses/defiance.svg" };
    const items = [{ id: "a1", name: "Hammer Blow", img: "/assets/icons/statuses/dazed.svg", type: "ability", system: { tags: ["attack"] } }];
    const character = derive(Object.assign(blankCharacter(), { broken: true, burdenPending: true,
      burdens: [{ name: "Haunted", actions: { first: "sense", second: "charm" }, clock: 6, filled: 2 }] }), 32);
    const foeSource = { biography: "", vit: 8, hp: { value: 32, max: 32 }, vigor: { value: 0, max: 8 }, wounds: 0, defense: 7, speed: 4,
      dash: 2, damageDie: 8, fray: 3, armor: 0, foeClass: "", template: "", chapter: 1, size: 1, partySize: 4, canCrit: false };
    const foe = derive(foeSource, foeMaxHp(foeSource));
    const hero = { biography: "", hp: { value: 10, max: 10 }, vigor: { value: 0, max: 0 },
      icons: { abilities: { prowess: 3, coordination: 3, strength: 3, intellect: 3, awareness: 3, willpower: 3 }, powers: [{ name: "Flight", level: 7 }], determination: 1 },
      tribute: { attributes: [{ name: "Grit", rank: 1, focus: 0, burden: 0 }], effects: [{ name: "Blast", rank: 2 }] },
      narrator: { skills: [{ name: "Climb", rank: 10, dice: "3d6", baseDamage: 0 }] },
      mns: { special: true, characteristics: Object.fromEntries(MNS_CHARACTERISTICS.map(c => [c, 12])), height: 1.8,
        targets: [{ name: "Move", target: 14, bonus: 0 }], knowledge: [{ name: "Chemistry", score: 20 }] } };
    const ability = globalThis.sheetTest.blankAbility({ tags: ["attack"], effects: [{ trigger: "use", status: "", duration: "save", mark: "", movement: "", text: "" }] });
    const sheets = {
      character: [["characterHeader", "tabs", "characterCombat", "characterNarrative", "characterAbilities", "characterBio"].map(part => ICONENGINE.sheets[part]),
        { actor, system: character, source: character, enriched: {}, tabs: tabs("combat"), tab: tabs("combat").combat,
          bioFields: context.htmlFieldsContext(["biography"], character, {}), ...context.characterContext(character, items),
          tactical: { attacks: items, healingOptions: [], statusIcons: [{ id: "dazed", label: "x", hint: "y", img: "", canSave: true }] } }],
      foe: [[ICONENGINE.sheets.foe], { actor, system: foe, source: foe, enriched: {}, ...context.foeContext(foe, items) }],
      ability: [[ICONENGINE.sheets.ability], { item: actor, system: ability, source: ability, enriched: {}, ...context.abilityContext(ability), canUse: true }],
      item: [[ICONENGINE.sheets.item], { item: actor, source: { description: "" }, enriched: {} }]
    };
    for (const ruleset of ["icons", "tribute", "narrator", "mns"]) {
      sheets[`hero (${ruleset})`] = [["systems/icon-engine/templates/actor/hero.hbs"], { actor, system: hero, source: hero, enriched: {},
        ...heroContext({ system: hero, campaign: { ruleset, tributeDie: 6, narratorScale: "coarse", iconsLevelNames: 1 }, tables: core.rulesetTables(),
          lookup: q => core.mnsLookup(q), charts: { sphere: [], square: [], doubles: [], action: [] } }) }];
    }
    const found = {};
    for (const [name, [paths, data]] of Object.entries(sheets)) {
      const html = [];
      for (const path of paths) html.push(await render(path, { ...data, readOnly }));
      const sheet = document.querySelector("#sheet");
      sheet.innerHTML = html.join("");
      found[name] = {
        actions: [...new Set([...sheet.querySelectorAll("[data-action]")].map(e => e.dataset.action))].sort(),
        images: [...sheet.querySelectorAll("img[data-edit]")].map(img => img.dataset.action ?? null)
      };
    }
    return found;
  }, readOnly);

  test("portraits open the file picker: every editable image is ApplicationV2's editImage action", async () => {
    const owner = await sheetActions(false);
    for (const [name, { images }] of Object.entries(owner)) {
      assert.deepEqual(images, ["editImage"], `${name}: one portrait, with data-action="editImage"`);
    }
    assertNoErrors();
  });

  test("an observer's sheet offers no action but tabs and opening items", async () => {
    const owner = await sheetActions(false);
    const observer = await sheetActions(true);
    // The owner's sheets do have the actions the observer's lack.
    assert.ok(owner.character.actions.includes("setWounds") && owner.character.actions.includes("nameBurden"));
    assert.ok(owner["hero (mns)"].actions.includes("roll") && owner.ability.actions.includes("toggleTag"));
    for (const [name, { actions, images }] of Object.entries(observer)) {
      assert.deepEqual(actions.filter(a => !["tab", "editItem"].includes(a)), [], `${name}: ${actions}`);
      assert.ok(images.every(a => a === null), `${name}: the portrait is not editable`);
    }
    assert.deepEqual(observer.character.actions, ["editItem", "tab"]);
    assertNoErrors();
  });

  test("every status icon loads as an SVG", async () => {
    const ids = await browser.page.evaluate(async () => {
      const { ICONENGINE } = globalThis.sheetTest;
      const ids = Object.values(ICONENGINE.statuses).flat();
      document.querySelector("#sheet").innerHTML = ids.map(id => `<img class="status" src="/assets/icons/statuses/${id}.svg" width="32" height="32" title="${game.i18n.localize(`ICONENGINE.Status.${id}.hint`)}">`).join("");
      await Promise.all([...document.images].map(img => img.decode()));
      return [...document.querySelectorAll("img.status")].map(img => img.naturalWidth > 0);
    });
    assert.equal(ids.length, 26);
    assert.ok(ids.every(Boolean));
    await browser.page.locator("#sheet").screenshot({ path: `${results}status-icons.png` });
    assertNoErrors();
  });
});
