/**
 * The encounter forecast in a shim world (issue 39): the GM's Forecast button in the combat
 * tracker's header opens the Encounter dialog on the running combat, which loads the forecast's
 * own wasm module and shows a progress bar, then each side's chance, the rounds to the end, each
 * character's defeat chance and each foe's threat as bars; a planned fight from actors dropped
 * into the dialog; both themes, checked by axe-core (screenshots: test-results/forecast-*.png). A
 * player has no button, never fetches the forecast's module, and `game.system.api.forecast`
 * refuses them.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { UNTIL, openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const AXE = fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));

/**
 * A page with the system booted in a shim world as `as`, the requests it made recorded.
 * @param {"gm" | "player"} as
 */
function world(as) {
  /** @type {{browser: Awaited<ReturnType<typeof openHarness>>, page: import("playwright-core").Page, requested: string[]}} */
  const open = /** @type {any} */ ({ requested: [] });
  before(async () => {
    open.browser = await openHarness({ as, viewport: { width: 1100, height: 1000 },
      onPage: page => page.on("request", request => open.requested.push(new URL(request.url()).pathname)) });
    open.page = open.browser.page;
    await open.page.addScriptTag({ path: AXE });
  });
  after(async () => {
    await open.browser?.close();
  });
  return open;
}

/** An ability item's data (module/data/ability-data.mjs). */
const ABILITIES = [
  { name: "Sundering Cleave", type: "ability", system: { actions: "2", tags: ["attack"], roll: { hitDice: 2 },
    effects: [{ trigger: "hit", to: "target", status: "vulnerable", duration: "save" }] } },
  { name: "Ember Wave", type: "ability", system: { actions: "1", tags: ["attack", "area"], area: { shape: "line", size: 4 },
    roll: { saveForHalf: true }, save: { enabled: true }, charges: { value: 1, max: 1, recharge: "round" } } }
];

/**
 * axe-core over the dialog: its serious and critical violations.
 * @param {import("playwright-core").Page} page
 */
const axe = page => page.evaluate(async () => {
  const { violations } = await globalThis.axe.run(document.querySelector("#icon-engine-forecast"), { resultTypes: ["violations"] });
  return violations.filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => `${v.id}: ${v.nodes.map(n => n.target.join(" ")).join("; ")}`);
});

/**
 * Screenshot the dialog in both themes, axe-checking each.
 * @param {import("playwright-core").Page} page
 * @param {string} name
 */
async function shots(page, name) {
  await mkdir(results, { recursive: true });
  const found = {};
  for (const theme of ["light", "dark"]) {
    await page.evaluate(theme => {
      document.body.classList.remove("theme-light", "theme-dark");
      document.body.classList.add(`theme-${theme}`);
    }, theme);
    await page.locator("#icon-engine-forecast").screenshot({ path: `${results}forecast-${name}-${theme}.png` });
    const v = await axe(page);
    if (v.length) found[theme] = v;
  }
  return found;
}

describe("the GM's forecast", () => {
  const open = world("gm");

  test("the tracker's Forecast button opens the Encounter dialog on the running combat; it loads its module, shows progress, then the charts", async () => {
    const result = await open.page.evaluate(async ({ UNTIL, ABILITIES }) => {
      eval(UNTIL);
      const pcs = await Promise.all(["Ysolde", "Brann"].map(name => Actor.implementation.create({ name, type: "character" })));
      await pcs[0].createEmbeddedDocuments("Item", ABILITIES);
      const foes = await Promise.all([["Ogre Chief", "elite"], ["Goblin", ""], ["Goblin Archer", ""]]
        .map(([name, template]) => Actor.implementation.create({ name, type: "foe", system: { template } })));
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [...pcs, ...foes].map(a => ({ actorId: a.id })));
      await ui.combat.render();
      (await until(() => ui.combat.element.querySelector(".icon-start"), "Begin combat")).click();
      await until(() => combat.iconState?.round === 1, "the combat to start");
      // a turn taken: the forecast starts from the fight as it stands
      const ysolde = combat.combatants.find(c => c.name === "Ysolde");
      await combat.iconDispatch({ type: "beginTurn", id: ysolde.id });
      await combat.iconDispatch({ type: "endTurn" });
      await pcs[1].update({ "system.hp.value": 10 });
      await ui.combat.render();
      const button = await until(() => ui.combat.element.querySelector('[data-action="iconForecast"]'), "the Forecast button");
      const shown = { label: button.getAttribute("aria-label"), combatControl: button.classList.contains("combat-control"),
        spacersLeft: ui.combat.element.querySelectorAll(".control-buttons.left .spacer").length };
      button.click();
      const dialog = await until(() => document.querySelector("#icon-engine-forecast"), "the Encounter dialog");
      const source = dialog.querySelector(".forecast-source")?.textContent.trim();
      dialog.querySelector("#icon-forecast-seed").value = "2024";
      dialog.querySelector("#icon-forecast-fights").value = "1500";
      // the progress bar, seen while it runs
      let progress = 0;
      const watch = new MutationObserver(() => {
        const bar = document.querySelector("#icon-engine-forecast .forecast-progress:not([hidden]) progress");
        if (bar && bar.value > progress) progress = bar.value;
      });
      watch.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
      dialog.querySelector(".forecast-run").click();
      await until(() => document.querySelector("#icon-engine-forecast .forecast-report"), "the report", 20000);
      watch.disconnect();
      const app = foundry.applications.instances.get("icon-engine-forecast");
      const report = app.report;
      const el = document.querySelector("#icon-engine-forecast");
      return {
        shown, source, progress,
        fights: report.fights, seed: report.seed, round: report.round,
        sum: report.party.p + report.foes.p + report.unfinished.p,
        fighters: report.fighters.map(f => f.id).sort(),
        combatants: combat.combatants.map(c => c.id).sort(),
        rounds: el.querySelectorAll(".forecast-chart.rounds li").length,
        defeat: [...el.querySelectorAll(".forecast-chart.defeat li .label")].map(e => e.textContent),
        threat: [...el.querySelectorAll(".forecast-chart.threat li .label")].map(e => e.textContent),
        headline: el.querySelector(".win.party")?.textContent.replace(/\s+/g, " ").trim(),
        words: el.querySelector(".forecast-chart.defeat .sr-only")?.textContent,
        sampled: el.querySelector(".forecast-report")?.textContent.includes("seed 2024")
      };
    }, { UNTIL, ABILITIES });
    assert.equal(result.shown.label, "Forecast this encounter");
    assert.equal(result.shown.combatControl, false, "not routed to a Combat method");
    assert.equal(result.shown.spacersLeft, 2, "where Roll All and Roll NPCs were, spacers still");
    assert.match(result.source, /running combat, round 1/);
    assert.ok(result.progress > 0, "the progress bar moved");
    assert.equal(result.fights, 1500);
    assert.equal(result.seed, 2024);
    assert.equal(result.round, 1);
    assert.ok(Math.abs(result.sum - 1) < 1e-9);
    assert.deepEqual(result.fighters, result.combatants, "every combatant with an actor is a fighter");
    assert.ok(result.rounds >= 2, "a bar per round");
    assert.deepEqual(result.defeat, ["Ysolde", "Brann"]);
    assert.deepEqual(result.threat, ["Ogre Chief", "Goblin", "Goblin Archer"]);
    assert.match(result.headline, /^\d+\.\d% The party wins \(95% interval \d+\.\d% to \d+\.\d%\)$/);
    assert.match(result.words, /95% interval/);
    assert.equal(result.sampled, true);
    assert.ok(open.requested.some(p => p.endsWith("/wasm/icon_forecast_bg.wasm")), "the forecast's module was fetched");
    assert.deepEqual(await shots(open.page, "running"), {}, "axe finds nothing serious in either theme");
    assert.deepEqual(open.browser.errors, []);
  });

  test("forecast again on the same seed gives the same report; the API runs the same request", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const app = foundry.applications.instances.get("icon-engine-forecast");
      const first = app.report;
      document.querySelector("#icon-engine-forecast .forecast-run").click();
      await until(() => app.report !== first && app.report, "the second report", 20000);
      const request = await game.system.api.forecast.request({ combat: game.combats.active, options: { fights: 1500, seed: 2024 } });
      const viaApi = await game.system.api.forecast.run(request);
      return { same: JSON.stringify(app.report) === JSON.stringify(first), api: JSON.stringify(viaApi) === JSON.stringify(first) };
    }, UNTIL);
    assert.deepEqual(result, { same: true, api: true });
    assert.deepEqual(open.browser.errors, []);
  });

  test("a planned fight: actors dropped into the dialog, a side changed, then forecast", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      foundry.applications.instances.get("icon-engine-forecast")?.close();
      await until(() => !document.querySelector("#icon-engine-forecast"), "the dialog to close");
      const [ysolde] = game.actors.filter(a => a.name === "Ysolde");
      const ogre = game.actors.find(a => a.name === "Ogre Chief");
      const goblin = game.actors.find(a => a.name === "Goblin");
      const app = await game.system.api.forecast.open({ actors: [{ actor: ysolde }] });
      const el = () => document.querySelector("#icon-engine-forecast");
      const drop = async actor => {
        const data = new DataTransfer();
        data.setData("text/plain", JSON.stringify({ type: "Actor", uuid: actor.uuid }));
        el().querySelector(".forecast-fighters").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
      };
      await drop(ogre);
      await until(() => el().querySelectorAll(".forecast-fighter").length === 2, "the ogre in the roster");
      await drop(goblin);
      await until(() => el().querySelectorAll(".forecast-fighter").length === 3, "the goblin in the roster");
      // the goblin fights with the party
      el().querySelectorAll('[data-action="swapSide"]')[2].click();
      await until(() => el().querySelectorAll(".forecast-fighter.side-party").length === 2, "the goblin's side");
      el().querySelector("#icon-forecast-seed").value = "7";
      el().querySelector("#icon-forecast-party").value = "threat";
      el().querySelector(".forecast-run").click();
      await until(() => el()?.querySelector(".forecast-report"), "the report", 20000);
      return { source: el().querySelector(".forecast-source")?.textContent.trim(), seed: app.report.seed, policy: app.report.policy, round: app.report.round,
        sides: app.report.fighters.map(f => f.side), defeat: [...el().querySelectorAll(".forecast-chart.defeat li .label")].map(e => e.textContent),
        threat: [...el().querySelectorAll(".forecast-chart.threat li .label")].map(e => e.textContent) };
    }, UNTIL);
    assert.deepEqual(result, { source: "A planned fight", seed: 7, policy: { party: "threat", foes: "focus" }, round: 1,
      sides: ["party", "foes", "party"], defeat: ["Ysolde", "Goblin"], threat: ["Ogre Chief"] });
    assert.deepEqual(await shots(open.page, "planned"), {}, "axe finds nothing serious in either theme");
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("a player and the forecast", () => {
  const open = world("player");

  test("a player has no Forecast button, the API refuses them, and the forecast's module is never fetched", async () => {
    const result = await open.page.evaluate(async UNTIL => {
      eval(UNTIL);
      await ui.combat.render();
      const answers = [];
      for (const call of [() => game.system.api.forecast.run({ fighters: [], options: {} }), () => game.system.api.forecast.open({}),
        () => game.system.api.forecast.request({ actors: [] })]) {
        try {
          await call();
          answers.push("ran");
        } catch (error) {
          answers.push(error.message);
        }
      }
      return { isGM: game.user.isGM, button: !!ui.combat.element?.querySelector('[data-action="iconForecast"]'), answers };
    }, UNTIL);
    const refused = "Only a GM can forecast an encounter.";
    assert.deepEqual(result, { isGM: false, button: false, answers: [refused, refused, refused] });
    // (styles/forecast.css is one of system.json's stylesheets, which every client loads)
    assert.deepEqual(open.requested.filter(p => /icon_forecast|\/forecast\/|forecast-dialog/.test(p)), [], "nothing of the forecast was fetched");
    assert.deepEqual(open.browser.errors, []);
  });
});
