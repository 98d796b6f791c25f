/**
 * The ICON combat tracker in Chromium: its tracker and footer templates rendered with the real
 * context code (module/applications/combat/tracker-context.mjs) from real reducer state of the
 * wasm core. Each click goes the way the tracker's action handlers go: the button's reducer event
 * (trackerEvent) is applied by the core in the page, and the tracker re-renders. The tracker
 * application itself runs in test/browser/foundry-v13.test.mjs (in the shim's v13 CombatTracker)
 * and the Quench batch; test/node/combat-tracker.test.mjs runs its overrides over stand-ins.
 * Screenshots in test-results/.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("ICON combat tracker in the browser", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;

  before(async () => {
    browser = await openHarness({ as: null, viewport: { width: 420, height: 760 }, path: "/test/browser/harness.html" });
    await browser.page.evaluate(async () => {
      document.body.innerHTML = '<section id="combat" class="icon-engine tab sidebar-tab combat-sidebar" style="width:300px;background:#1d1c1b;color:#e7e5dd;padding:4px"><div class="tracker"></div><div class="footer"></div></section>';
      const { ICONENGINE } = await import("/module/config.mjs");
      const { loadCore, combatApply } = await import("/module/core.mjs");
      const { combatantEntry } = await import("/module/data/combat-rules.mjs");
      const { trackerContext, trackerEvent, stateCombatants } = await import("/module/applications/combat/tracker-context.mjs");
      await loadCore();
      const img = "/assets/icons/statuses/";
      // Three player characters (the user owns Ysolde), her summoned wolf, an Elite and a normal foe.
      const facts = [
        { id: "pc1", actorType: "character", name: "Ysolde", img: `${img}defiance.svg`, isOwner: true,
          health: { value: 27, max: 40, bloodied: false }, statuses: [{ img: `${img}dazed.svg`, name: "Dazed" }, { img: `${img}sturdy.svg`, name: "Sturdy" }] },
        { id: "pc2", actorType: "character", name: "Brann", img: `${img}sturdy.svg`, isOwner: false, health: { value: 12, max: 32, bloodied: true } },
        { id: "pc3", actorType: "character", name: "Mira", img: `${img}evasion.svg`, isOwner: false },
        // Ysolde's summoned wolf: no turns of its own
        { id: "wolf", actorType: "foe", disposition: 1, summonerId: "pc1", name: "Spirit Wolf", img: `${img}flying.svg`, isOwner: true },
        { id: "elite", actorType: "foe", template: "elite", disposition: -1, name: "Ogre Chief", img: `${img}hatred.svg`, isOwner: false,
          health: { value: 30, max: 80, bloodied: true }, statuses: [{ img: `${img}weakened.svg`, name: "Weakened" }] },
        { id: "grunt", actorType: "foe", template: "", disposition: -1, name: "Goblin", img: `${img}dazed.svg`, isOwner: false }
      ];
      const t = globalThis.trackerTest = {
        state: /** @type {any} */ (null), isGM: true, foeHp: "bloodied", errors: /** @type {string[]} */ ([]), busy: Promise.resolve(),
        async render() {
          const context = trackerContext(t.state, facts, { isGM: t.isGM, foeHp: t.foeHp });
          const render = foundry.applications.handlebars.renderTemplate;
          document.querySelector("#combat .tracker").innerHTML = await render(ICONENGINE.combat.tracker, context);
          document.querySelector("#combat .footer").innerHTML = await render(ICONENGINE.combat.footer, context);
          return context;
        },
        dispatch(event) {
          try {
            t.state = combatApply(t.state, event).state;
          } catch (error) {
            t.errors.push(String(error.message ?? error));
          }
          return t.render();
        }
      };
      document.querySelector("#combat").addEventListener("click", event => {
        const target = /** @type {HTMLElement} */ (event.target).closest("[data-action]");
        if (!(target instanceof HTMLElement)) return;
        const combatantId = target.closest("[data-combatant-id]")?.getAttribute("data-combatant-id") ?? undefined;
        const action = target.dataset.action ?? "";
        let reducerEvent;
        if (action === "iconStart") reducerEvent = { type: "start", combatants: facts.map(combatantEntry) };
        // Foundry's toggleDefeated updates the Combatant; IconCombat turns that into setDefeated.
        else if (action === "toggleDefeated") {
          const row = stateCombatants(t.state).find(c => c.id === combatantId);
          reducerEvent = { type: "setDefeated", id: combatantId, defeated: !row.defeated };
        } else reducerEvent = trackerEvent(action, { combatantId, by: target.dataset.by });
        if (reducerEvent) t.busy = t.dispatch(reducerEvent);
      });
      await t.render();
    });
  });

  after(async () => {
    await browser?.close();
  });

  const page = () => browser.page;
  /** Click and wait for the re-render. */
  const click = async (/** @type {string} */ selector) => {
    await page().locator(selector).click();
    await page().evaluate(() => globalThis.trackerTest.busy);
  };
  const row = (/** @type {string} */ id) => `li[data-combatant-id="${id}"]`;
  const acting = () => page().locator(".icon-side.acting").getAttribute("data-side");
  const pips = async (/** @type {string} */ id) =>
    page().locator(`${row(id)} .pip`).evaluateAll(els => els.map(el => el.className.replace("pip ", "")));

  test("a full round: alternating sides, the Elite's two turns, a slow turn, a defeated foe, round 2", async () => {
    await mkdir(results, { recursive: true });
    // Before the start: both sides listed, Begin combat for the GM, no Act buttons.
    assert.deepEqual(await page().locator(".icon-side").evaluateAll(els => els.map(e => e.dataset.side)), ["party", "foes"]);
    assert.equal(await page().locator(".icon-act").count(), 0);
    await click(".icon-start");

    assert.equal(await page().locator(".icon-round").textContent(), "Round 1");
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "1", "party resolve +1 in round 1");
    assert.equal(await acting(), "party", "round 1 starts with the party");
    assert.deepEqual(await pips("elite"), ["ready", "ready"], "an Elite has two turns");
    assert.equal(await page().locator(`.icon-side.party .icon-act`).count(), 3);
    assert.equal(await page().locator(`.icon-side.foes .icon-act`).count(), 0);
    assert.equal(await page().locator(".icon-side.foes .icon-slow").count(), 0, "foes cannot go slow");
    assert.equal(await page().locator(`${row("wolf")} .icon-summon`).textContent(), "Summon");
    assert.deepEqual(await pips("wolf"), [], "a summon takes no turns");
    assert.equal(await page().locator(`${row("wolf")} .icon-act, ${row("wolf")} .icon-slow`).count(), 0);
    await page().locator("#combat").screenshot({ path: `${results}combat-tracker-start.png` });

    await click(`${row("pc1")} .icon-act`);
    assert.match(await page().locator(row("pc1")).getAttribute("class") ?? "", /active/);
    assert.equal(await page().locator(".icon-act").count(), 0, "nobody else acts during a turn");
    await click(`${row("pc1")} .icon-end`);
    assert.deepEqual(await pips("pc1"), ["spent"]);
    assert.equal(await acting(), "foes");

    await click(`${row("elite")} .icon-act`);
    await click(`${row("elite")} .icon-end`);
    assert.deepEqual(await pips("elite"), ["spent", "ready"]);
    assert.equal(await acting(), "party");

    // Brann goes slow: his slot passes to the foes as if he had acted.
    await click(`${row("pc2")} .icon-slow`);
    assert.deepEqual(await pips("pc2"), ["slow"]);
    assert.equal(await acting(), "foes");
    await click(`${row("elite")} .icon-act`);
    await click(`${row("elite")} .icon-end`);
    assert.deepEqual(await pips("elite"), ["spent", "spent"]);

    // The goblin falls before acting: struck through, skipped.
    await click(`${row("grunt")} [data-action="toggleDefeated"]`);
    assert.match(await page().locator(row("grunt")).getAttribute("class") ?? "", /defeated/);
    assert.equal(await page().locator(`${row("grunt")} .name`).evaluate(el => getComputedStyle(el).textDecorationLine), "line-through");
    assert.deepEqual(await pips("grunt"), ["lost"]);
    assert.equal(await acting(), "party", "the foes have no turns left");
    await page().locator("#combat").screenshot({ path: `${results}combat-tracker-mid-round.png` });

    await click(`${row("pc3")} .icon-act`);
    await click(`${row("pc3")} .icon-end`);
    // Regular turns done: the slow phase, Brann's slow turn.
    assert.match(await page().locator(".icon-tracker-next").textContent() ?? "", /Slow turns/);
    assert.equal(await page().locator(".icon-act").count(), 1);
    await click(`${row("pc2")} .icon-act`);
    assert.match(await page().locator(".icon-tracker-next").textContent() ?? "", /Brann is taking a slow turn/);
    await click(`${row("pc2")} .icon-end`);

    // Round 2: the party took the last turn, so the foes open it; resolve +1.
    assert.equal(await page().locator(".icon-round").textContent(), "Round 2");
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "2");
    assert.equal(await acting(), "foes");
    assert.deepEqual(await pips("elite"), ["ready", "ready"]);
    assert.deepEqual(await pips("grunt"), ["lost"], "still defeated in round 2");
    assert.equal(await page().locator(`${row("elite")} .icon-act`).count(), 1);
    await page().locator("#combat").screenshot({ path: `${results}combat-tracker-round-2.png` });
    assert.deepEqual(await page().evaluate(() => globalThis.trackerTest.errors), []);
    assert.deepEqual(browser.errors, []);
  });

  test("resolve +/−, undo, and a player's view", async () => {
    await click('.icon-resolve-step[data-by="1"]');
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "3");
    await click('.icon-resolve-step[data-by="-1"]');
    await click('.icon-resolve-step[data-by="-1"]');
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "1");
    await click(".icon-undo");
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "2");
    // Undo the other two resolve steps, then back into round 1: Brann's slow turn is open again.
    await click(".icon-undo");
    await click(".icon-undo");
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "2");
    assert.equal(await page().locator(".icon-round").textContent(), "Round 2");
    await click(".icon-undo");
    assert.equal(await page().locator(".icon-resolve .value").textContent(), "1");
    assert.equal(await page().locator(".icon-round").textContent(), "Round 1");
    assert.match(await page().locator(row("pc2")).getAttribute("class") ?? "", /active/);
    await click(`${row("pc2")} .icon-end`);
    assert.equal(await page().locator(".icon-round").textContent(), "Round 2");

    // A player owning Ysolde: no GM controls; Act only on their own character when the party acts.
    await page().evaluate(() => { globalThis.trackerTest.isGM = false; return globalThis.trackerTest.render(); });
    assert.equal(await page().locator(".icon-undo, .icon-resolve-step, [data-action=toggleDefeated]").count(), 0);
    assert.equal(await page().locator(".icon-act").count(), 0, "the foes act first in round 2");
    await page().evaluate(async () => {
      const t = globalThis.trackerTest;
      await t.dispatch({ type: "beginTurn", id: "elite" });
      await t.dispatch({ type: "endTurn" });
    });
    assert.equal(await page().locator(".icon-act").count(), 1);
    assert.equal(await page().locator(`${row("pc1")} .icon-act`).count(), 1);
    assert.equal(await page().locator(`${row("pc1")} .icon-slow`).count(), 1);
    await page().locator("#combat").screenshot({ path: `${results}combat-tracker-player.png` });
    assert.deepEqual(await page().evaluate(() => globalThis.trackerTest.errors), []);
    assert.deepEqual(browser.errors, []);
  });

  test("issue 41: rows show HP as the viewer may see it and statuses as labelled icons; Delay marks the next turn slow", async () => {
    const hp = async () => Object.fromEntries(await page().locator(".icon-combatant").evaluateAll(rows => rows.map(r =>
      [r.dataset.combatantId, r.querySelector(".icon-row-hp")?.textContent.trim() ?? null])));
    // The player (owning Ysolde): their own character and allies exactly, the foes bloodied or not.
    assert.deepEqual(await hp(), { pc1: "HP 27/40", pc2: "HP 12/32", pc3: null, wolf: null, elite: "Bloodied", grunt: null });
    assert.equal(await page().locator(`${row("pc1")} .icon-row-hp`).getAttribute("aria-label"), "Ysolde: 27 of 40 HP");
    for (const [foeHp, shown] of [["never", null], ["exact", "HP 30/80"]]) {
      await page().evaluate(foeHp => { globalThis.trackerTest.foeHp = foeHp; return globalThis.trackerTest.render(); }, foeHp);
      assert.equal((await hp()).elite, shown, foeHp);
    }
    // Statuses: each effect's image, its name as its text alternative, in a named list.
    assert.deepEqual(await page().locator(`${row("pc1")} .icon-row-statuses img`).evaluateAll(imgs => imgs.map(i => [i.alt, i.complete && i.naturalWidth > 0])),
      [["Dazed", true], ["Sturdy", true]]);
    assert.equal(await page().locator(`${row("pc1")} .icon-row-statuses`).getAttribute("aria-label"), "Ysolde's statuses");
    // Delay: the player's own row only; the rule is its tooltip.
    assert.deepEqual(await page().locator(".icon-delay-control").evaluateAll(b => b.map(x => x.closest("[data-combatant-id]").dataset.combatantId)), ["pc1"]);
    const delay = page().locator(`${row("pc1")} .icon-delay-control`);
    assert.match(await delay.getAttribute("data-tooltip"), /^Delay: .*next turn must be slow/);
    assert.equal(await delay.getAttribute("aria-label"), "Delay Ysolde's next turn");
    await click(`${row("pc1")} .icon-delay-control`);
    assert.equal(await page().locator(`${row("pc1")} .icon-delay`).textContent(), "Delayed: next turn slow");
    assert.equal(await page().locator(`${row("pc1")} .icon-delay-control`).count(), 0, "not twice");
    assert.equal(await page().locator(`${row("pc1")} .icon-act`).count(), 0, "a pending delay: no regular turn");
    assert.equal(await page().locator(`${row("pc1")} .icon-slow`).count(), 1, "the next turn is slow");
    await page().evaluate(() => { globalThis.trackerTest.isGM = true; globalThis.trackerTest.foeHp = "bloodied"; return globalThis.trackerTest.render(); });
    assert.equal((await hp()).elite, "HP 30/80", "the GM sees every HP");
    await page().locator("#combat").screenshot({ path: `${results}combat-tracker-rows.png` });
    assert.deepEqual(await page().evaluate(() => globalThis.trackerTest.errors), []);
    assert.deepEqual(browser.errors, []);
  });
});
