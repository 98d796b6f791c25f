/**
 * How the system looks, in a shim world booted as Foundry boots it, in v13's light and dark
 * themes: every actor and item sheet rendered by its own ApplicationV2 class from real documents
 * (so through the sheet's own `_prepareContext`), every dialog, the chat cards the rolls post and
 * the combat tracker, each inside Foundry's markup (the window frame, the chat message header)
 * with Font Awesome and Signika loaded as Foundry loads them, and every stylesheet system.json
 * lists. Abilities as issue 28 made them are among them: a character's abilities tab (ability,
 * trait and relic cards, spent or not, with areas and charges), every item type's sheet, the use
 * and save cards an ability posts, the content-pack dialog's report and the job-change question.
 * For each:
 *   - an axe-core pass finds no serious or critical violation (contrast included);
 *   - the theme variables give text and controls enough contrast (WCAG AA: 4.5:1 for text,
 *     3:1 for controls and marks);
 *   - screenshots, in test-results/look-*.png, from which scripts/screenshots.mjs composes the
 *     README's.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const AXE = fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));
const THEMES = /** @type {const} */ (["light", "dark"]);

describe("the look, in v13's light and dark themes", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {import("playwright-core").Page} */
  let page;

  before(async () => {
    await mkdir(results, { recursive: true });
    browser = await openHarness({ as: "gm", viewport: { width: 1400, height: 1000 }, scripts: [UNTIL] });
    page = browser.page;
    await page.addScriptTag({ path: AXE });
    await page.evaluate(async () => {
      document.querySelector("#chat").replaceChildren();
      const { classPresetUpdate, foePresetUpdate } = await import("../../module/data/rules.mjs");
      const portrait = name => `systems/icon-engine/test/browser/icons/portraits/${name}.svg`;
      // Item art: the system's own status pictograms stand in for a world's icons.
      const art = name => `systems/icon-engine/assets/icons/statuses/${name}.svg`;

      // World items: what a class, a job and a foe template grant (the job's last grant no longer exists).
      const [shieldWall, oathTrait, eliteTrait] = await Item.implementation.createDocuments([
        { name: "Shield Wall", type: "ability", img: art("sturdy"), system: { actions: "1", tags: ["stance"], description: "<p>Allies behind you gain cover.</p>" } },
        { name: "Oath of the Wall", type: "trait", img: art("defiance"), system: { description: "<p>You do not give ground.</p>" } },
        { name: "Elite's Resolve", type: "trait", img: art("unstoppable") }
      ]);
      const grants = {
        class: await Item.implementation.create({ name: "Stalwart", type: "class", img: art("defiance"),
          system: { key: "stalwart", grants: [oathTrait.uuid], description: "<p>Holds the line.</p>" } }),
        job: await Item.implementation.create({ name: "Bastion", type: "job", img: art("sturdy"),
          system: { key: "bastion", class: "stalwart", grants: [shieldWall.uuid, "Item.gone000000000001"], description: "<p>Stands in front.</p>" } }),
        foeTemplate: await Item.implementation.create({ name: "Elite", type: "foeTemplate", img: art("unstoppable"),
          system: { key: "elite", template: "elite", grants: [eliteTrait.uuid], description: "<p>Two turns a round.</p>" } })
      };

      const character = await Actor.implementation.create({ name: "Ysolde Varn", type: "character", img: portrait("knight"),
        system: { level: 3, vigilance: 2,
          actions: { smash: 3, study: 2, sense: 1, charm: 2, traverse: 1, tinker: 0, sneak: 1, hunt: 2, endure: 3, command: 1 },
          strain: { value: 2, max: 5 }, effort: 1,
          burdens: [{ name: "Haunted by the siege", actions: { first: "sense", second: "charm" }, clock: 6, filled: 2 }],
          bonds: "<p>My sister Aurel, who keeps the lighthouse at Varn.</p>",
          ideals: "<p>No one is left behind the wall.</p>",
          ambitions: "<p>Reforge the broken oath-blade.</p>",
          biography: "<p>Born in the last winter of the siege; raised by the wall's wardens.</p>" },
        items: [
          { name: "Hammer Blow", type: "ability", img: art("stunned"), system: { actions: "1", tags: ["attack"], range: { kind: "melee", value: 1 },
            roll: { hitDice: 2 }, charges: { value: 2, max: 3, recharge: "rest" }, description: "<p>Shove 1. <strong>Exceed:</strong> +[D].</p>" } },
          // No charge left, and an area: the spent card.
          { name: "Cinder Burst", type: "ability", img: art("hatred"), system: { actions: "2", tags: ["attack", "area"], range: { kind: "range", value: 4 },
            area: { shape: "blast", size: 2 }, roll: { hitDice: 1 }, charges: { value: 0, max: 1, recharge: "combat" },
            description: "<p>The ground in the blast burns.</p>" } },
          { name: "Bulwark", type: "ability", img: art("sturdy"), system: { actions: "interrupt", interrupt: 1, trigger: "An ally in range is hit",
            tags: ["stance"], range: { kind: "range", value: 3 }, limit: { per: "round" }, description: "<p>An ally in range gains Sturdy.</p>" } },
          // A use card with an effect button per effect.
          { name: "Static Veil", type: "ability", img: art("shattered"), system: { actions: "1", tags: ["mark"], range: { kind: "range", value: 3 },
            area: { shape: "cross", size: 1 }, effects: [{ trigger: "use", status: "dazed", duration: "turn" }, { trigger: "use", mark: "Spark" },
              { trigger: "use", movement: "Push 1" }], description: "<p>A veil of sparks.</p>" } },
          // A use card that calls for saves; a failed save makes the target vulnerable.
          { name: "Ember Hymn", type: "ability", img: art("regeneration"), system: { actions: "2", save: { enabled: true, curses: 1 },
            effects: [{ trigger: "failedSave", status: "vulnerable", duration: "save" }], description: "<p>A hymn of embers.</p>" } },
          { name: "Armor 2", type: "trait", img: art("defiance"), system: { description: "<p>Reduce damage by 2.</p>" } },
          { name: "Aether Lens", type: "relic", img: art("vigilance"), system: { charges: { value: 1, max: 2, recharge: "rest" },
            description: "<p>It glows near the Blight.</p>" } }
        ] });
      // Picking the class and job grants what they give (the job's missing grant is named in a notice).
      await character.update(classPresetUpdate("stalwart", "bastion"));
      await until(() => character.items.getName("Shield Wall") && character.items.getName("Oath of the Wall"), "the class's and the job's grants");
      await character.update({ "system.hp.value": 27, "system.vigor.value": 4, "system.wounds": 1 });
      await character.toggleStatusEffect("dazed", { active: true });
      await character.toggleStatusEffect("sturdy", { active: true });

      const foe = await Actor.implementation.create({ name: "Ogre Chief", type: "foe", img: portrait("ogre"),
        system: { partySize: 4, biography: "<p>Leads the raiders of the Grey Marches.</p>" },
        items: [{ name: "Crushing Swing", type: "ability", img: art("dazed"), system: { actions: "1", tags: ["attack"], range: "Melee" } },
          // A stat block's actions (issue 41): an area attack with its effect on a hit, an interrupt with its trigger.
          { name: "Ground Slam", type: "ability", img: art("stunned"), system: { actions: "2", tags: ["attack", "area"], range: { kind: "range", value: 3 },
            area: { shape: "blast", size: 1 }, roll: { hitDice: 2, boons: 1 }, charges: { value: 1, max: 1, recharge: "round" },
            effects: [{ trigger: "hit", status: "dazed", duration: "save" }, { trigger: "use", movement: "Push 1" }],
            description: "<p>The maul comes down and the ground cracks around it.</p>" } },
          { name: "Rallying Bellow", type: "ability", img: art("defiance"), system: { actions: "interrupt", interrupt: 1,
            trigger: "An ally in range 3 becomes bloodied", range: { kind: "range", value: 3 }, limit: { per: "round" },
            effects: [{ trigger: "use", text: "That ally gains 4 vigor." }], description: "<p>A roar that puts the raiders back on their feet.</p>" } },
          { name: "Brute", type: "trait", img: art("unstoppable"), system: { description: "<p>Shrugs off the first hit each round.</p>" } }] });
      await foe.update(foePresetUpdate("heavy", "elite", 4));
      await until(() => foe.items.getName("Elite's Resolve"), "the foe template's grant");

      const hero = await Actor.implementation.create({ name: "Captain Meridian", type: "hero", img: portrait("hero"),
        system: { hp: { value: 18, max: 24 }, vigor: { value: 3, max: 6 },
          icons: { abilities: { prowess: 5, coordination: 4, strength: 6, intellect: 3, awareness: 4, willpower: 5 },
            powers: [{ name: "Flight", level: 7 }, { name: "Force field", level: 6 }], determination: 2 },
          tribute: { attributes: [{ name: "Grit", rank: 2, focus: 1, burden: 0 }], effects: [{ name: "Blast", rank: 2 }] },
          narrator: { skills: [{ name: "Climb", rank: 12, dice: "3d6", baseDamage: 0 }] },
          mns: { targets: [{ name: "Leap a wall", target: 14, bonus: 0 }], knowledge: [{ name: "Chemistry", score: 20 }] } } });

      // DialogV2's prompts answer at once in the shim; here they are drawn as v13 draws them, and cancelled.
      const dialogs = [];
      const { DialogV2 } = foundry.applications.api;
      DialogV2.input = async config => {
        const dialog = new DialogV2({ ...config, buttons: [{ action: "ok", label: "Confirm", icon: "fa-solid fa-check", default: true }] });
        await dialog.render({ force: true });
        dialogs.push(dialog);
        return null;
      };
      // v13's confirm: Yes and No buttons.
      DialogV2.confirm = async ({ yes, no, ...config } = {}) => {
        const dialog = new DialogV2({ ...config, buttons: [{ action: "yes", label: "Yes", icon: "fa-solid fa-check", ...yes },
          { action: "no", label: "No", icon: "fa-solid fa-xmark", default: true, ...no }] });
        await dialog.render({ force: true });
        dialogs.push(dialog);
        return false;
      };
      /** Render an application as Foundry opens it, sized as its setPosition sizes it; its element's selector. */
      const size = app => {
        const { width, height } = app.position ?? {};
        // "auto" (or none): as wide as the content, as Foundry's setPosition leaves it.
        app.element.style.width = typeof width === "number" ? `${width}px` : "max-content";
        if (typeof height === "number") app.element.style.height = `${height}px`;
        return `#${CSS.escape(app.id)}`;
      };
      const open = async app => {
        await app.render({ force: true });
        return size(app);
      };
      /** The applications opened by `run` (those not open before). */
      const opened = async run => {
        const before = new Set(foundry.applications.instances.keys());
        await run();
        return [...foundry.applications.instances.values()].filter(app => !before.has(app.id));
      };
      globalThis.look = { character, foe, hero, grants, dialogs, open, size, opened, until };
    });
    await page.evaluate(() => document.fonts.ready);
  });

  after(async () => {
    await browser?.close();
  });

  /** Switch v13's theme: the body's class, as the "applications" colour scheme sets it. */
  const setTheme = theme => page.evaluate(theme => {
    document.body.classList.remove("theme-light", "theme-dark");
    document.body.classList.add(`theme-${theme}`);
  }, theme);

  /**
   * axe-core over one element (its application, card or tracker): the serious and critical
   * violations, each with where.
   * @param {string} selector
   * @returns {Promise<string[]>}
   */
  const axe = selector => page.evaluate(async selector => {
    const element = document.querySelector(selector);
    if (!element) return [`nothing matches ${selector}`];
    const { violations } = await globalThis.axe.run(element, { resultTypes: ["violations"] });
    return violations.filter(v => v.impact === "serious" || v.impact === "critical")
      .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`).join("; ")}`);
  }, selector);

  /**
   * Run axe over each subject in both themes, screenshotting those named; the violations by
   * theme and subject (empty when all pass).
   * @param {{name: string, selector: string, shot?: string, before?: () => Promise<unknown>}[]} subjects
   */
  const inBothThemes = async subjects => {
    const found = {};
    for (const theme of THEMES) {
      await setTheme(theme);
      for (const { name, selector, shot, before } of subjects) {
        await before?.();
        const violations = await axe(selector);
        if (violations.length) found[`${theme}: ${name}`] = violations;
        if (shot) await page.locator(selector).screenshot({ path: `${results}look-${shot}-${theme}.png` });
      }
    }
    return found;
  };

  /** Close every application the page has open (each test shows its own). */
  const closeAll = () => page.evaluate(async () => {
    for (const app of [...foundry.applications.instances.values()]) if (app.id !== "combat") await app.close();
  });

  test("the axe pass reports what it should: an unnamed button, unreadable text, an unlabelled input", async () => {
    await page.evaluate(() => {
      const bad = document.createElement("section");
      bad.id = "axe-probe";
      bad.className = "icon-engine";
      bad.innerHTML = '<button type="button"><i class="fa-solid fa-plus"></i></button><p class="low">faint</p><input type="text">';
      bad.querySelector(".low").style.cssText = "color: var(--icon-surface-strong); background: var(--background)";
      document.body.append(bad);
    });
    const found = await inBothThemes([{ name: "probe", selector: "#axe-probe" }]);
    await page.evaluate(() => document.querySelector("#axe-probe").remove());
    for (const theme of THEMES) {
      assert.deepEqual((found[`${theme}: probe`] ?? []).map(v => v.split(" ")[0]).sort(), ["button-name", "color-contrast", "label"], theme);
    }
  });

  test("every actor and item sheet, from its documents through its own class", async () => {
    const sheets = await page.evaluate(async () => {
      const { character, foe, hero, grants, open } = globalThis.look;
      const items = Object.fromEntries(await Promise.all([...character.items.contents, ...Object.values(grants)]
        .map(async item => [item.type + ":" + item.name, await open(item.sheet)])));
      return { character: await open(character.sheet), foe: await open(foe.sheet), hero: await open(hero.sheet), items };
    });
    // Every item type's sheet is among them; these are shot.
    assert.deepEqual([...new Set(Object.keys(sheets.items).map(key => key.split(":")[0]))].sort(), ["ability", "class", "foeTemplate", "job", "relic", "trait"]);
    const itemShots = { "ability:Static Veil": "item-ability", "relic:Aether Lens": "item-relic", "job:Bastion": "item-job" };
    const tab = id => () => page.evaluate(id => globalThis.look.character.sheet.changeTab(id, "primary"), id);
    /** The character sheet's height: "auto" (its content's), or "" (its position's, as opened). */
    const tall = height => page.evaluate(({ selector, height }) => {
      const { height: opened } = globalThis.look.character.sheet.position;
      document.querySelector(selector).style.height = height || `${opened}px`;
    }, { selector: sheets.character, height });
    const subjects = [
      { name: "character, combat", selector: sheets.character, shot: "character-combat", before: tab("combat") },
      { name: "character, narrative", selector: sheets.character, shot: "character-narrative", before: tab("narrative") },
      // The abilities tab's shot shows every list: the window drawn taller, as a user would drag it.
      { name: "character, abilities", selector: sheets.character, shot: "character-abilities", before: () => tab("abilities")().then(() => tall("auto")) },
      { name: "character, bio", selector: sheets.character, before: () => tab("bio")().then(() => tall("")) },
      // The foe's stat block whole: the window drawn as tall as its content.
      { name: "foe", selector: sheets.foe, shot: "foe", before: () => page.evaluate(selector => { document.querySelector(selector).style.height = "auto"; }, sheets.foe) },
      ...Object.entries(sheets.items).map(([name, selector]) => ({ name, selector, shot: itemShots[name] }))
    ];
    for (const ruleset of ["icons", "tribute", "narrator", "mns"]) {
      subjects.push({ name: `hero (${ruleset})`, selector: sheets.hero, shot: ruleset === "icons" ? "hero" : undefined,
        before: () => page.evaluate(async ruleset => {
          await game.settings.set("icon-engine", "ruleset", ruleset);
          await globalThis.look.hero.sheet.render();
        }, ruleset) });
    }
    const found = await inBothThemes(subjects);
    // The sheet shows the actor's own data through its own context: the Heal picker is filled,
    // the bars and pips hold the actor's numbers.
    const shown = await page.evaluate(selector => {
      const sheet = document.querySelector(selector);
      return {
        heal: [...sheet.querySelectorAll(".healing-choice option")].map(o => o.value),
        hp: sheet.querySelector('input[name="system.hp.value"]').value,
        meter: sheet.querySelector(".icon-meter.hp").style.getPropertyValue("--icon-meter-fill"),
        wounds: sheet.querySelectorAll(".wounds .pip.filled").length,
        frame: [!!sheet.querySelector(".window-header .window-title"), !!sheet.querySelector('.window-header [data-action="close"]')]
      };
    }, sheets.character);
    assert.deepEqual(shown, { heal: ["rescue", "regeneration", "endCombat", "rest", "camp"], hp: "27", meter: "68%", wounds: 1, frame: [true, true] });
    // The abilities tab: a card per item, spent or not, with its chips, and labelled icon controls.
    const cards = Object.fromEntries(await page.evaluate(selector => [...document.querySelectorAll(`${selector} .tab.abilities .ability-card`)].map(card => [
      card.querySelector(".item-name").textContent.trim(),
      { spent: card.classList.contains("spent"), chips: [...card.querySelectorAll(".ability-chips li")].map(li => li.textContent.trim()),
        remove: [card.querySelector("button.delete")?.getAttribute("aria-label"), !!card.querySelector("button.delete i.fa-trash")] }
    ]), sheets.character));
    assert.deepEqual(Object.keys(cards).sort(), ["Aether Lens", "Armor 2", "Bulwark", "Cinder Burst", "Ember Hymn", "Hammer Blow", "Oath of the Wall", "Shield Wall", "Static Veil"]);
    assert.deepEqual(cards["Cinder Burst"], { spent: true, chips: ["2 actions", "Range 4", "Blast 2", "Charges 0/1"], remove: ["Delete: Cinder Burst", true] });
    assert.deepEqual(cards["Hammer Blow"], { spent: false, chips: ["1 action", "Melee", "Charges 2/3"], remove: ["Delete: Hammer Blow", true] });
    assert.deepEqual(cards["Aether Lens"], { spent: false, chips: ["Charges 1/2"], remove: ["Delete: Aether Lens", true] });
    // The ability sheet's controls: tag toggles say whether they are pressed, each effect's remove button names it; the
    // grant sheet's remove buttons name the grant.
    const controls = await page.evaluate(({ ability, job }) => ({
      pressed: [...document.querySelectorAll(`${ability} .icon-tags button.tag[aria-pressed="true"]`)].map(b => b.textContent.trim()),
      unpressed: document.querySelectorAll(`${ability} .icon-tags button.tag[aria-pressed="false"]`).length,
      removeEffect: [...document.querySelectorAll(`${ability} button.remove-effect`)].map(b => [b.getAttribute("aria-label"), !!b.querySelector("i.fa-trash")]),
      removeGrant: [...document.querySelectorAll(`${job} button[data-action="removeGrant"]`)].map(b => b.getAttribute("aria-label"))
    }), { ability: sheets.items["ability:Static Veil"], job: sheets.items["job:Bastion"] });
    assert.deepEqual(controls, { pressed: ["Mark"], unpressed: 10,
      removeEffect: [["Remove effect 1", true], ["Remove effect 2", true], ["Remove effect 3", true]],
      removeGrant: ["Remove from the list: Shield Wall", "Remove from the list: Item.gone000000000001"] });
    assert.deepEqual(found, {});
    await closeAll();
    assert.deepEqual(browser.errors, []);
  });

  test("the keyboard reaches the tabs, the burden clock and an ability card's controls, their focus visible", async () => {
    const selector = await page.evaluate(() => globalThis.look.open(globalThis.look.character.sheet));
    await page.locator(`${selector} [role=tab][data-tab="combat"]`).focus();
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator(`${selector} .tab.narrative`).isVisible(), true, "ArrowRight opens the next tab");
    assert.equal(await page.locator(`${selector} [role=tab][data-tab="narrative"]`).getAttribute("aria-selected"), "true");
    const clock = page.locator(`${selector} .burden .clock`).first();
    await clock.focus();
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => globalThis.look.character.system.burdens[0].filled === 3);
    // The clock keeps the focus through the re-render its change makes.
    await page.waitForFunction(() => document.activeElement?.matches(".burden .clock[aria-valuenow='3']"));
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => globalThis.look.character.system.burdens[0].filled === 2);
    assert.equal(await page.locator(`${selector} .burden .clock`).first().getAttribute("aria-valuenow"), "2");
    // An ability card's controls: Tab goes from the name to Use to the trash button, each with a visible focus ring.
    await page.evaluate(() => globalThis.look.character.sheet.changeTab("abilities", "primary"));
    const card = page.locator(`${selector} .ability-card`, { hasText: "Hammer Blow" });
    await card.locator(".item-name").focus();
    const ring = () => page.evaluate(() => {
      const style = getComputedStyle(document.activeElement);
      return [document.activeElement.getAttribute("aria-label"), style.outlineStyle, style.outlineWidth];
    });
    const rings = [];
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press("Tab");
      rings.push(await ring());
    }
    assert.deepEqual(rings, [["Use Hammer Blow", "solid", "2px"], ["Delete: Hammer Blow", "solid", "2px"]]);
    await closeAll();
    assert.deepEqual(browser.errors, []);
  });

  test("every dialog", async () => {
    const selectors = await page.evaluate(async () => {
      const { character, foe, hero, dialogs, open, size, opened } = globalThis.look;
      await game.settings.set("icon-engine", "ruleset", "icons");
      const { default: AttackDialog } = await import("../../module/applications/attack-dialog.mjs");
      const { default: ActionRollDialog } = await import("../../module/applications/narrative/action-roll-dialog.mjs");
      const { default: RulesetRollDialog } = await import("../../module/applications/ruleset-roll-dialog.mjs");
      const { default: PackImportDialog } = await import("../../module/applications/pack-import-dialog.mjs");
      const { default: MnsChartsConfig } = await import("../../module/applications/mns-charts-config.mjs");
      const { default: ClockPanel } = await import("../../module/applications/narrative/clock-panel.mjs");
      const { default: NarrativeCards } = await import("../../module/applications/narrative/narrative-cards.mjs");
      await game.settings.set("icon-engine", "clocks", [{ id: "vault", name: "Crack the vault", segments: 8, filled: 3 },
        { id: "alarm", name: "The alarm", segments: 4, filled: 4 }]);
      const ability = character.items.find(i => i.name === "Hammer Blow");
      const first = async run => size((await opened(run))[0]);
      const sized = async app => open(app);
      // The user targets the ogre's token (Foundry's user.targets holds Token placeables).
      game.user.targets.add({ actor: foe, name: foe.name, document: { texture: { src: foe.img }, getFlag: () => undefined } });
      const found = {
        attack: await first(() => AttackDialog.open(character, { ability })),
        action: await first(() => ActionRollDialog.open(character, "smash")),
        ruleset: await sized(new RulesetRollDialog({ kind: "icons.test", values: { ability: 5 }, label: "Prowess", actor: hero })),
        packImport: await sized(new PackImportDialog()),
        mnsCharts: await sized(new MnsChartsConfig()),
        clocks: await first(() => ClockPanel.open())
      };
      game.user.targets.clear();
      await character.update({ "system.broken": true, "system.burdenPending": true });
      await NarrativeCards.promptBurden(character);
      found.burden = size(dialogs.at(-1));
      // The content pack dialog with its report: the example pack, and one record it refuses.
      const { default: ContentPackDialog } = await import("../../module/applications/content-pack-dialog.mjs");
      const { EXAMPLE_PACK_PATH } = await import("../../module/packs/content-pack.mjs");
      const pack = await (await fetch(EXAMPLE_PACK_PATH)).json();
      pack.abilities.push({ id: "odd-cone", name: "Odd Cone", area: { shape: "cone", size: 2 } });
      const contentPack = new ContentPackDialog();
      await contentPack.render({ force: true });
      await contentPack.read(JSON.stringify(pack));
      found.contentPack = size(contentPack);
      // Changing the job asks before removing what the old one gave.
      const { default: ItemGrants } = await import("../../module/documents/item-grants.mjs");
      await ItemGrants.revoke(character, "job", "bastion");
      found.jobChange = size(dialogs.at(-1));
      return found;
    });
    const report = await page.locator(`${selectors.contentPack} .icon-import-report`).evaluate(r =>
      ({ counts: r.querySelector(".counts").textContent.trim(), bad: [...r.querySelectorAll(".bad li")].map(li => li.textContent.trim()) }));
    assert.match(report.counts, /^20 of 21 records can be imported/);
    assert.equal(report.bad.length, 1);
    assert.match(report.bad[0], /odd-cone.*area\.shape/);
    assert.match(await page.locator(selectors.jobChange).textContent(), /Ysolde Varn.*1.*Shield Wall/s);
    const found = await inBothThemes(Object.entries(selectors).map(([name, selector]) =>
      ({ name, selector, shot: ["attack", "action", "clocks", "contentPack", "jobChange"].includes(name) ? `dialog-${name}` : undefined })));
    assert.deepEqual(found, {});
    await closeAll();
    assert.deepEqual(browser.errors, []);
  });

  test("the combat tracker mid-round", async () => {
    await page.evaluate(async () => {
      const { character, foe, until } = globalThis.look;
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: character.id }, { actorId: foe.id }]);
      await ui.combat.render();
      ui.combat.element.querySelector(".icon-start")?.click();
      await until(() => combat.iconState?.round === 1, "the combat to start");
      const pc = combat.combatants.find(c => c.actor === character);
      (await until(() => ui.combat.element.querySelector(`li[data-combatant-id="${pc.id}"] .icon-act`), "Act")).click();
      await until(() => combat.iconState?.current?.id === pc.id, "Ysolde's turn");
      ui.combat.element.style.width = "300px";
    });
    const found = await inBothThemes([{ name: "tracker", selector: "#combat", shot: "tracker" }]);
    assert.deepEqual(found, {});
    assert.deepEqual(browser.errors, []);
  });

  test("the chat cards the rolls post, each in v13's chat message", async () => {
    const posted = await page.evaluate(async () => {
      const { character, foe, dialogs, until } = globalThis.look;
      const shown = message => until(() => document.querySelector(`#chat [data-message-id="${message.id}"] .message-content *`), `message ${message.id}`);
      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const { attackTargetOf, initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
      const { default: IconRoll } = await import("../../module/dice/icon-roll.mjs");
      const { actionRequest, defaultInputs, DEFAULT_POSITION } = await import("../../module/applications/narrative/action-roll.mjs");
      const { rollFortune } = await import("../../module/applications/narrative/fortune.mjs");
      const { default: OddsReport } = await import("../../module/dice/odds-report.mjs");
      const ids = {};
      // The attack's dice come up high (a hit, its damage card), then Foundry's generator is back.
      const uniform = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.92;
      const state = initialAttackState({ targets: [attackTargetOf({ uuid: foe.uuid, name: foe.name, img: foe.img, system: foe.system, statuses: [] })] });
      const attack = await TacticalRolls.attack(character, state, { ability: character.items.find(i => i.name === "Hammer Blow") });
      await shown(attack);
      ids.attack = attack.id;
      // The card's Vigilance button asks who spends (the vigilance dialog), then Apply damage.
      const vigilance = document.querySelector(`#chat [data-message-id="${attack.id}"] [data-card-action="vigilance"]`);
      vigilance?.click();
      await until(() => dialogs.some(d => d.element?.querySelector(".vigilance-spend")), "the vigilance dialog");
      ids.vigilanceDialog = dialogs.find(d => d.element?.querySelector(".vigilance-spend")).id;
      document.querySelector(`#chat [data-message-id="${attack.id}"] [data-card-action="damage"]`)?.click();
      await until(() => document.querySelector(`#chat [data-message-id="${attack.id}"] .tactical-applied`), "the applied damage");
      CONFIG.Dice.randomUniform = uniform;
      ids.save = (await TacticalRolls.save(character)).id;
      ids.heal = (await TacticalRolls.heal(character, "cure")).id;
      const request = actionRequest(character.system, "smash", defaultInputs(), DEFAULT_POSITION);
      const roll = await IconRoll.fromRequest(request);
      await roll.evaluate();
      ids.action = (await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor: character }) })).id;
      ids.fortune = (await rollFortune({ rating: 2, boons: 1 }, { actor: character })).id;
      ids.odds = (await OddsReport.toMessage({ kind: "dice", formula: "4d6kh3" })).id;
      for (const [name, request] of Object.entries({
        icons: { kind: "icons.test", ability: 6, difficulty: 5, bonus: 1 },
        tribute: { kind: "tribute.test", rank: 1, focus: 3, burden: 2, die: 6, opposition: { rank: 0, focus: 1 }, effectRank: 2 },
        narrator: { kind: "narrator.skill", skill: 12, difficulty: 22, use: "attack", baseDamage: 12, ranks: 3 },
        mnsAction: { kind: "mns.action", target: 28 },
        mnsSave: { kind: "mns.save", score: 62, dice: "d100" }
      })) {
        const r = await IconRoll.fromRequest(request);
        await r.evaluate();
        ids[name] = (await r.toMessage({})).id;
      }
      // An ability's use card (a button per effect), one that calls for saves, and the save card a target's roll posts.
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      game.user.targets.add({ actor: foe, name: foe.name, document: { actor: foe, name: foe.name, uuid: "", texture: { src: foe.img }, getFlag: () => undefined } });
      ids.use = (await character.items.getName("Static Veil").use({ placeArea: false })).message.id;
      const hymn = (await character.items.getName("Ember Hymn").use()).message;
      ids.useSaves = hymn.id;
      game.user.targets.clear();
      CONFIG.Dice.randomUniform = () => 0.001;
      const saved = await CardActions.rollSave(hymn, 0);
      CONFIG.Dice.randomUniform = uniform;
      if (saved?.rolls?.[0]?.outcome?.success !== false) throw new Error("the ogre's save should fail");
      ids.useSaveRoll = game.messages.contents.at(-1).id;
      await ui.chat.processMessage((await import("./foundry-shim.mjs")).chatInput("/icon help"));
      const help = await until(() => game.messages.contents.find(m => m.content.includes("help-card")), "the help card");
      ids.help = help.id;
      for (const id of Object.values(ids)) if (game.messages.get(id)) await shown(game.messages.get(id));
      return ids;
    });
    const { vigilanceDialog, ...cards } = posted;
    // axe reads the card (the header around it is Foundry's); the shot is the whole message.
    const subjects = Object.entries(cards).map(([name, id]) =>
      ({ name, selector: `#chat [data-message-id="${id}"] .message-content` }));
    const shots = ["attack", "action", "odds", "use", "useSaves", "useSaveRoll"].map(name => ({ name: `${name} (shot)`, selector: `#chat [data-message-id="${cards[name]}"]`, shot: `card-${name}` }));
    subjects.push({ name: "vigilance dialog", selector: `#${vigilanceDialog}` });
    const found = await inBothThemes(subjects);
    for (const theme of THEMES) {
      await setTheme(theme);
      for (const { selector, shot } of shots) await page.locator(selector).screenshot({ path: `${results}look-${shot}-${theme}.png` });
    }
    // Foundry's chat message markup around each card: the sender and the time in the header.
    const header = await page.locator(`#chat [data-message-id="${posted.attack}"] .message-header`).evaluate(h =>
      [!!h.querySelector(".message-sender"), !!h.querySelector(".message-metadata .message-timestamp")]);
    assert.deepEqual(header, [true, true]);
    // The ability's cards: a button per effect it can apply, a save button per target, and the save's own card.
    const uses = await page.evaluate(({ use, useSaves, useSaveRoll }) => {
      const card = id => document.querySelector(`#chat [data-message-id="${id}"] .message-content`);
      return { apply: [...card(use).querySelectorAll("button[data-card-action=effect]")].map(b => b.textContent.trim()),
        saves: [...card(useSaves).querySelectorAll("button[data-card-action=save]")].map(b => b.textContent.trim()),
        saved: card(useSaves).querySelector(".card-save-result")?.textContent.trim() ?? "",
        saveRoll: !!card(useSaveRoll).querySelector(".icon-tactical") };
    }, cards);
    assert.deepEqual(uses, { apply: ["Apply: Dazed until the end of its next turn", "Apply: mark: Spark"], saves: [],
      saved: "Ogre Chief failed its save (rolled by Gamemaster).", saveRoll: true });
    assert.deepEqual(found, {});
    await closeAll();
    assert.deepEqual(browser.errors, []);
  });

  test("the theme variables read with enough contrast, in both themes", async () => {
    const low = await page.evaluate(() => {
      /** The sRGB colour of a computed `rgb(...)` string, composited over `under` when it is see-through. */
      const parse = (text, under = [255, 255, 255]) => {
        const [r, g, b, a = 1] = text.match(/[\d.]+/g).map(Number);
        return [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
      };
      const luminance = rgb => rgb.map(c => c / 255).map(c => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
      const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      // [foreground, background, minimum]: text 4.5:1, marks and control borders 3:1 (WCAG 1.4.3, 1.4.11).
      const pairs = [
        ["--icon-text", "--background", 4.5], ["--icon-text-muted", "--background", 4.5], ["--icon-heading", "--background", 4.5],
        ["--icon-accent", "--background", 4.5], ["--icon-on-accent", "--icon-accent", 4.5],
        ["--icon-success", "--background", 4.5], ["--icon-fail", "--background", 4.5], ["--icon-partial", "--background", 4.5],
        ["--icon-critical", "--background", 4.5], ["--icon-warning", "--background", 4.5], ["--icon-gold", "--background", 4.5],
        ["--icon-slow", "--background", 4.5], ["--icon-die-text", "--icon-die-bg", 4.5], ["--icon-burden-die-text", "--icon-burden-die-bg", 4.5],
        ["--icon-tag-text", "--icon-tag-bg", 4.5], ["--icon-track-text", "--icon-hp", 4.5], ["--icon-track-text", "--icon-vigor", 4.5],
        ["--icon-track-text", "--icon-track", 4.5], ["--icon-control-border", "--background", 3], ["--icon-focus", "--background", 3],
        ["--icon-hp", "--icon-track", 1.5],
        // Abilities: chips and tags on a card, a spent card, the item sheets' panels (legends, labels,
        // tag toggles pressed and not, hovered), failures on a panel. "a over b": a drawn on b, on the page.
        ["--icon-chip-text", "--icon-chip-bg over --icon-surface", 4.5], ["--icon-chip-text", "--icon-chip-bg", 4.5],
        ["--icon-text-muted", "--icon-surface-sunken over --icon-surface", 4.5], ["--icon-text", "--icon-surface-sunken", 4.5],
        ["--icon-text-muted", "--icon-surface-sunken", 4.5], ["--icon-heading", "--icon-surface", 4.5], ["--icon-text-muted", "--icon-surface", 4.5],
        ["--icon-text", "--icon-surface-strong over --icon-surface", 4.5], ["--icon-text", "--icon-accent-soft over --icon-surface", 4.5],
        ["--icon-control-border", "--icon-surface", 3], ["--icon-fail", "--icon-surface", 4.5], ["--icon-accent", "--icon-surface", 3]
      ];
      const failures = [];
      for (const theme of ["light", "dark"]) {
        const box = document.createElement("div");
        box.className = `themed theme-${theme}`;
        const probe = document.createElement("span");
        box.append(probe);
        document.body.append(box);
        const colour = name => {
          probe.style.color = `var(${name})`;
          return getComputedStyle(probe).color;
        };
        const page = parse(colour("--background"));
        for (const [fg, bg, min] of pairs) {
          const back = bg.split(" over ").reverse().reduce((under, name) => (name === "--background" ? page : parse(colour(name), under)), page);
          const value = ratio(parse(colour(fg), back), back);
          if (value < min) failures.push(`${theme}: ${fg} on ${bg} is ${value.toFixed(2)}:1, under ${min}:1`);
        }
        box.remove();
      }
      return failures;
    });
    assert.deepEqual(low, []);
  });
});
