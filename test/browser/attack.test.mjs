/**
 * An ICON attack in Chromium, from the dialog to applied damage: the attack dialog's templates
 * rendered with the real context code (attackDialogContext) and the real core's odds; changing
 * boons redraws the odds; the roll's cards render from core outcomes through the roll-card
 * registry exactly as IconRoll does (and hide everything when the roll is private to the viewer);
 * Apply damage runs icon.applyDamage and the pure health mapping on a target's data, and Undo
 * restores it. Foundry's ApplicationV2/ChatMessage glue is not run (Foundry is not here); the
 * steps it takes are mirrored in `attackTest` below. Screenshots in test-results/.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openHarness } from "../support/browser.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

/** Exact P(d20 + highest of n d6 ≥ k) as a reduced fraction, by enumeration (independent of the core). */
function pAtLeast(n, k) {
  let hits = 0;
  let all = 0;
  for (let d20 = 1; d20 <= 20; d20++) {
    for (let code = 0; code < 6 ** n; code++) {
      let c = code;
      let best = 0;
      for (let i = 0; i < n; i++) {
        best = Math.max(best, (c % 6) + 1);
        c = Math.floor(c / 6);
      }
      all++;
      if (d20 + best >= k) hits++;
    }
  }
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  const g = gcd(hits, all);
  return `${hits / g}/${all / g}`;
}

describe("an ICON attack in the browser", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;

  before(async () => {
    browser = await openHarness({ as: null, viewport: { width: 560, height: 900 }, path: "/test/browser/harness.html" });
    await browser.page.evaluate(async () => {
      const { loadCore } = await import("/module/core.mjs");
      const requests = await import("/module/dice/tactical-requests.mjs");
      const cards = await import("/module/dice/cards/icon-tactical.mjs");
      const { rollCardFor } = await import("/module/dice/roll-cards.mjs");
      const health = await import("/module/data/health-changes.mjs");
      const core = await loadCore();
      const render = (path, data) => foundry.applications.handlebars.renderTemplate(path, data);
      const dialog = document.createElement("form");
      dialog.id = "attack-dialog";
      dialog.className = "icon-engine attack-dialog";
      dialog.style.cssText = "width:480px;background:#f0efe7;color:#191813;padding:8px;margin-bottom:12px";
      document.body.prepend(dialog);

      // The Stormbender ([D] d8, fray 4: "2[D]+Fray ... does 2d8+4") attacks a Goblin (defense 14,
      // armor 1, 20 HP, dazed) with a heavy attack.
      const attackerActor = { type: "character", name: "Ysolde", uuid: "Actor.ysolde", system: { damageDie: 8, fray: 4 } };
      const goblin = {
        type: "foe", name: "Goblin", uuid: "Actor.goblin", img: "/assets/icons/statuses/hatred.svg",
        system: { hp: { value: 20, max: 20 }, vigor: { value: 0, max: 5 }, wounds: 0, armor: 1, defense: 14 },
        effects: [{ id: "fx1", statuses: ["dazed"], data: { _id: "fx1", name: "Dazed", statuses: ["dazed"] } }]
      };
      // what modeChoices() gives, its labels as Foundry's own en.json reads CHAT.RollPublic and the rest
      const rollModes = Object.entries({ publicroll: "Public Roll", gmroll: "Private GM Roll", blindroll: "Blind GM Roll", selfroll: "Self Roll" })
        .map(([value, label]) => ({ value, label, selected: value === "publicroll" }));
      const state = requests.initialAttackState({
        heavy: true,
        targets: [requests.attackTargetOf({ uuid: goblin.uuid, name: goblin.name, img: goblin.img, system: goblin.system, statuses: ["dazed"] })]
      });
      const t = {
        core, requests, cards, health, rollCardFor, render, goblin, attackerActor, state,
        attacker: requests.attackerOf(attackerActor),
        original: structuredClone(goblin.system),
        /** What AttackDialog#_prepareContext returns (minus Foundry's footer buttons). */
        context() {
          return { ...requests.attackDialogContext(core, t.state, t.attacker), rollModes };
        },
        async renderDialog(parts = ["form", "odds"]) {
          const context = t.context();
          if (parts.includes("form")) dialog.innerHTML = `<div data-part="form">${await render("systems/icon-engine/templates/apps/attack-dialog.hbs", context)}</div><div data-part="odds"></div>`;
          dialog.querySelector("[data-part=odds]").innerHTML = await render("systems/icon-engine/templates/apps/attack-odds.hbs", context);
        },
        /** AttackDialog#onChange: the form's data (as FormDataExtended gives it) into the state, odds redrawn. */
        async onChange() {
          const data = {};
          for (const el of dialog.querySelectorAll("input[name], select[name]")) data[el.name] = el.type === "checkbox" ? el.checked : el.value;
          t.state = requests.readAttackForm(t.state, data);
          await t.renderDialog(["odds"]);
        },
        /** IconRoll#_prepareChatRenderContext + render: the registered card of the request's kind. */
        async renderCard(request, outcome, options, isPrivate = false) {
          const card = rollCardFor(request.kind);
          const shown = isPrivate ? null : outcome;
          return render(card.template, {
            formula: isPrivate ? "???" : "", total: isPrivate ? "?" : outcome.total, request, outcome: shown,
            card: shown ? card.context(shown, request, { tactical: options }) : null
          });
        }
      };
      dialog.addEventListener("change", () => t.onChange());
      globalThis.attackTest = t;
    });
  });

  after(async () => {
    await browser?.close();
  });

  const assertNoErrors = () => assert.deepEqual(browser.errors, []);

  test("the dialog shows exact odds per target, and they follow the boons as they change", async () => {
    const { page } = browser;
    await page.evaluate(() => globalThis.attackTest.renderDialog());
    const hit = page.locator("#attack-dialog .odds-row[data-index='0'] .p-hit");
    assert.equal(await hit.getAttribute("data-exact"), pAtLeast(0, 14));
    assert.equal(await page.locator("#attack-dialog .attack-target .defense").textContent(), "14");
    assert.equal(await page.locator("#attack-dialog input[name=dice]").inputValue(), "2", "a heavy attack rolls 2[D]");

    await page.fill("#attack-dialog input[name=boons]", "2");
    await page.locator("#attack-dialog input[name=boons]").dispatchEvent("change");
    await page.waitForFunction(() => document.querySelector("#attack-dialog .net")?.textContent === "+2");
    assert.equal(await hit.getAttribute("data-exact"), pAtLeast(2, 14));
    const percent = await hit.textContent();
    const [n, d] = pAtLeast(2, 14).split("/").map(Number);
    assert.equal(percent, `${(100 * n / d).toFixed(2)}%`);
    assert.equal(await page.locator("#attack-dialog .p-crit").getAttribute("data-exact"), pAtLeast(2, 20));
    assert.equal(await page.locator("#attack-dialog .p-exceed").getAttribute("data-exact"), pAtLeast(2, 15));

    // the target stands one level higher: +1 curse, net +1
    await page.selectOption("#attack-dialog select[name='targets.0.heightDifference']", "-1");
    await page.waitForFunction(() => document.querySelector("#attack-dialog .net")?.textContent === "+1");
    assert.equal(await hit.getAttribute("data-exact"), pAtLeast(1, 14));
    await page.selectOption("#attack-dialog select[name='targets.0.heightDifference']", "0");
    await page.waitForFunction(() => document.querySelector("#attack-dialog .net")?.textContent === "+2");

    // a ranged attack on a target in cover: cover counts, unless the target is adjacent
    await page.check("#attack-dialog input[name=ranged]");
    await page.check("#attack-dialog input[name='targets.0.cover']");
    await page.locator("#attack-dialog input[name='targets.0.cover']").dispatchEvent("change");
    await page.waitForSelector("#attack-dialog .odds-row .cover");
    await page.check("#attack-dialog input[name='targets.0.adjacent']");
    await page.locator("#attack-dialog input[name='targets.0.adjacent']").dispatchEvent("change");
    await page.waitForFunction(() => !document.querySelector("#attack-dialog .odds-row .cover"));
    // an area attack that targets may save against for half
    await page.check("#attack-dialog input[name=area]");
    await page.check("#attack-dialog input[name=saveForHalf]");
    await page.locator("#attack-dialog input[name=saveForHalf]").dispatchEvent("change");
    const state = await page.evaluate(() => {
      const t = globalThis.attackTest;
      return { area: t.state.area, saveForHalf: t.state.saveForHalf, adjacent: t.state.targets[0].adjacent,
        apply: t.requests.damageOptions(t.state, "hit", false, t.state.targets[0]) };
    });
    assert.deepEqual([state.area, state.saveForHalf, state.adjacent, state.apply.source], [true, true, true, "area"]);

    await mkdir(results, { recursive: true });
    await page.locator("#attack-dialog").screenshot({ path: `${results}attack-dialog.png` });
    assertNoErrors();
  });

  test("roll → cards → Apply damage updates the target → Undo restores it; blind cards hide everything", async () => {
    const { page } = browser;
    const rolled = await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const { core, requests } = t;
      const [part] = requests.planAttack(core, t.state, t.attacker);
      // d20 16 + the higher boon die 6 = 22: a critical hit (and an exceed)
      const attack = core.resolve(part.attack, [[16], [3, 6]]);
      const result = requests.attackResult(attack);
      const damageRequest = requests.damageRequest(t.state, t.attacker, result);
      const damage = core.resolve(damageRequest, [[5, 8, 2]]);
      const target = { uuid: part.target.uuid, name: part.target.name, img: part.target.img, defense: part.target.defense };
      t.apply = requests.damageOptions(t.state, result, part.cover, part.target);
      t.damage = damage;
      const html = [
        await t.renderCard(part.attack, attack, { role: "attack", key: 0, target }),
        await t.renderCard(damageRequest, damage, { role: "damage", key: 0, target, apply: t.apply, saveForHalf: t.state.saveForHalf })
      ];
      document.querySelector(".message-content").innerHTML = html.join("");
      return { result, total: attack.total, damage: damage.total, plan: core.plan(damageRequest) };
    });
    assert.deepEqual([rolled.result, rolled.total], ["crit", 22]);
    assert.deepEqual(rolled.plan.map(p => [p.count, p.notation]), [[3, "d8"]], "heavy crit: 3[D]");
    assert.equal(rolled.damage, 5 + 8 + 2 + 4);
    const chat = page.locator(".chat-message");
    assert.equal(await chat.locator(".tactical-attack .tactical-result").textContent(), "Critical hit");
    assert.equal(await chat.locator(".tactical-attack .tactical-exceed").textContent(), "Exceed");
    assert.deepEqual(await chat.locator(".tactical-attack .die").allTextContents(), ["16", "3", "6"]);
    assert.equal(await chat.locator(".tactical-attack .die.discarded").textContent(), "3");
    assert.equal(await chat.locator(".tactical-damage .dice-total").textContent(), "19");
    const apply = chat.locator("[data-card-action=damage]:not([data-saved])");
    assert.equal((await apply.textContent()).trim(), "Apply damage to Goblin");
    // a save-for-half attack offers the half too, and an ally's Vigilance
    assert.equal((await chat.locator("[data-card-action=damage][data-saved=true]").textContent()).trim(), "Saved: apply half");
    assert.equal((await chat.locator("[data-card-action=vigilance]").textContent()).trim(), "Vigilance");
    await chat.screenshot({ path: `${results}attack-card.png` });

    // Apply: what TacticalChat.applyDamage does with the owner's data, minus the Document calls.
    await page.evaluate(() => {
      const t = globalThis.attackTest;
      document.querySelector("[data-card-action=damage]:not([data-saved])").addEventListener("click", async () => {
        const { core, requests, health, cards, goblin } = t;
        const statuses = ["dazed"];
        const done = core.resolve(requests.applyDamageRequest(requests.coreTarget(goblin, statuses), t.damage.total, t.apply), []);
        const change = health.healthChange(goblin, statuses, done.target);
        goblin.system = health.applyToSystem(goblin.system, change.update);
        goblin.effects = goblin.effects.filter(e => !change.deleteEffects.includes(e.id));
        t.applied = { targetUuid: goblin.uuid, targetName: goblin.name, dealt: done.total, steps: done.steps,
          after: { hp: done.target.hp, vigor: done.target.vigor, wounds: done.target.wounds, defeated: done.target.defeated, fallen: done.target.fallen },
          undo: { ...change.undo, deleteEffects: change.createStatuses.map(id => `new-${id}`) }, created: change.createStatuses };
        const block = document.querySelector(".tactical-apply[data-key='0']");
        block.innerHTML = await t.render(cards.TEMPLATES.applied, { ...cards.appliedContext(t.applied, 0), canUndo: true });
        block.querySelector("[data-card-action=undoDamage]").addEventListener("click", () => {
          goblin.system = health.applyToSystem(goblin.system, t.applied.undo.update);
          goblin.effects.push(...t.applied.undo.restoreEffects.map(data => ({ id: data._id, statuses: data.statuses, data })));
          block.innerHTML = "<button type=\"button\" data-tactical-action=\"apply\">restored</button>";
        });
      });
    });
    await apply.click();
    await page.waitForSelector(".tactical-applied");
    const afterApply = await page.evaluate(() => ({ system: globalThis.attackTest.goblin.system, applied: globalThis.attackTest.applied }));
    // 19 − armor 1 = 18 off 20 HP: 2 left. Each line says what its rule did, the running amount apart.
    assert.deepEqual(afterApply.applied.steps.map(s => [s.rule, s.change, s.amount]), [["amount", 19, 19], ["armor", -1, 18], ["hp", -18, 18]]);
    assert.equal(afterApply.system.hp.value, 2);
    assert.deepEqual(afterApply.applied.created, [], "bloodied is the actor's own sync");
    assert.deepEqual(await chat.locator(".tactical-applied .tactical-steps li .rule").allTextContents(), ["Damage", "Armor", "HP"]);
    assert.deepEqual(await chat.locator(".tactical-applied .tactical-steps li .change").allTextContents(), ["+19", "−1", "−18"]);
    assert.deepEqual(await chat.locator(".tactical-applied .tactical-steps li .amount").allTextContents(), ["19", "18", "18"]);
    assert.match(await chat.locator(".tactical-applied .tactical-health").textContent(), /Goblin took 18: HP 2, vigor 0/);
    await chat.screenshot({ path: `${results}attack-card-applied.png` });

    await chat.locator("[data-card-action=undoDamage]").click();
    await page.waitForSelector("text=restored");
    const restored = await page.evaluate(() => ({ system: globalThis.attackTest.goblin.system, original: globalThis.attackTest.original,
      effects: globalThis.attackTest.goblin.effects.map(e => e.id) }));
    assert.deepEqual(restored.system, restored.original);
    assert.deepEqual(restored.effects, ["fx1"]);

    // A killing blow: the Goblin (3 HP) takes a second hit and is defeated; the dazed effect goes.
    const killed = await page.evaluate(() => {
      const { core, requests, health, goblin } = globalThis.attackTest;
      goblin.system.hp.value = 3;
      const done = core.resolve(requests.applyDamageRequest(requests.coreTarget(goblin, ["dazed"]), 6, globalThis.attackTest.apply), []);
      return health.healthChange(goblin, ["dazed"], done.target);
    });
    assert.deepEqual([killed.update, killed.deleteEffects, killed.createStatuses], [{ "system.hp.value": 0 }, ["fx1"], ["defeated"]]);

    // The same cards as a blind roll shows them to a player: no target, no dice, no result.
    await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const [part] = t.requests.planAttack(t.core, t.state, t.attacker);
      const attack = t.core.resolve(part.attack, [[16], [3, 6]]);
      const target = { uuid: "Actor.goblin", name: "Goblin", defense: 14 };
      document.querySelector(".message-content").innerHTML = [
        await t.renderCard(part.attack, attack, { role: "attack", key: 0, target }, true),
        await t.renderCard({ kind: "icon.damage", die: 8 }, t.damage, { role: "damage", key: 0, target }, true)
      ].join("");
    });
    const text = await chat.textContent();
    assert.doesNotMatch(text, /Goblin|Critical|Hit|Miss|Exceed|Apply|22|19/);
    assert.equal(await chat.locator(".dice-formula").first().textContent(), "???");
    assert.equal(await chat.locator("[data-card-action]").count(), 0);
    await chat.screenshot({ path: `${results}attack-card-blind.png` });
    assertNoErrors();
  });

  test("the sheet's tactical block: saveable status icons per the core; a cure and its saves as cards", async () => {
    const { page } = browser;
    const shown = await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const { tacticalSheetContext } = await import("/module/applications/sheets/tactical-context.mjs");
      const statuses = ["dazed", "weakened+", "stunned", "bloodied"];
      const tactical = tacticalSheetContext({
        items: [{ id: "a1", name: "Thunderclap", img: "/assets/icons/statuses/stunned.svg", type: "ability", system: { tags: ["attack"] } }],
        statuses, saveable: t.core.iconSaveable(statuses)
      });
      // Foundry serves the system under systems/icon-engine/; the test server serves the repo root.
      for (const icon of tactical.statusIcons) icon.img = icon.img.replace(/^systems\/icon-engine\//, "/");
      const sheet = document.createElement("section");
      sheet.id = "tactical-block";
      sheet.className = "icon-engine sheet actor";
      sheet.style.cssText = "width:480px;background:#f0efe7;color:#191813;padding:8px";
      sheet.innerHTML = await t.render("systems/icon-engine/templates/actor/tactical-actions.hbs", { tactical });
      document.body.prepend(sheet);
      // Cure a bloodied character: a vigor surge, then a save against each saveable status.
      const target = { hp: 12, maxHp: 40, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: true, statuses };
      const heal = t.requests.healRequest(target, "cure");
      const healed = t.core.resolve(heal, []);
      const html = [await t.renderCard(heal, healed, { role: "heal", actor: { uuid: "Actor.y", name: "Ysolde" } })];
      const faces = { dazed: 14, stunned: 6 };
      for (const id of healed.saves) {
        const save = t.core.resolve(t.requests.saveRequest(), [[faces[id]]]);
        html.push(await t.renderCard(t.requests.saveRequest(), save, { role: "save", status: { id, name: game.i18n.localize(`ICONENGINE.Status.${id}.name`) } }));
      }
      document.querySelector(".message-content").innerHTML = html.join("");
      return { saves: healed.saves, vigor: healed.target.vigor };
    });
    assert.deepEqual(shown, { saves: ["dazed", "stunned"], vigor: 10 });
    const block = page.locator("#tactical-block");
    assert.deepEqual(await block.locator(".status-icon.saveable").evaluateAll(els => els.map(e => e.dataset.status)), ["dazed", "stunned"]);
    assert.equal(await block.locator(".status-icon[data-status=weakened] [data-action], .status-icon[data-status=weakened][data-action]").count(), 0, "ongoing: no save");
    assert.deepEqual(await block.locator(".status-icon.saveable button[data-action=rollSave]").evaluateAll(els => els.map(e => e.dataset.status)), ["dazed", "stunned"],
      "a saveable status is a button that saves against it");
    assert.match(await block.locator(".status-icon[data-status=weakened]").getAttribute("data-tooltip"), /cannot be saved/);
    assert.equal(await block.locator(".ability-attack").textContent().then(s => s.trim()), "Thunderclap");
    await block.screenshot({ path: `${results}sheet-tactical-block.png` });
    const chat = page.locator(".chat-message");
    assert.deepEqual(await chat.locator(".tactical-heal .tactical-steps li span:first-child").allTextContents(), ["Vigor surge"]);
    assert.deepEqual(await chat.locator(".tactical-save .tactical-result").allTextContents(), ["Saved", "Failed"]);
    assert.equal(await chat.locator(".tactical-save .status-ended").textContent(), "Dazed ends.");
    await chat.screenshot({ path: `${results}cure-card.png` });
    assertNoErrors();
  });

  test("issue 17: Slashed and Counter cards apply with Undo; Vigilance charges on the sheet, in the prompt and on the card", async () => {
    const { page } = browser;
    const shown = await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const { tacticalSheetContext } = await import("/module/applications/sheets/tactical-context.mjs");
      const ysolde = { uuid: "Actor.ysolde", name: "Ysolde" };
      // Slashed into armor 1, as TacticalRolls.damage rolls it: the card carries its target, amount and options.
      const options = { source: "slashed", ability: false, fromFoe: false };
      const request = t.requests.applyDamageRequest({ hp: 30, maxHp: 40, vigor: 0, armor: 1, wounds: 0, isPlayerCharacter: true, statuses: ["slashed"] }, 4, options);
      const done = t.core.resolve(request, []);
      const card = await t.renderCard(request, done, { role: "health", key: 0, actor: ysolde, target: ysolde, label: "ICONENGINE.Status.slashed.name", amount: 4, apply: options });
      // What the chat hook shows in its apply block once applied (with a Vigilance spent on it, as an attack's may have).
      const applied = { targetUuid: ysolde.uuid, targetName: "Ysolde", dealt: done.total, steps: done.steps, counter: 0,
        after: { hp: done.target.hp, vigor: 0, wounds: 0, defeated: false, fallen: false }, undo: { update: {}, restoreEffects: [], deleteEffects: [] },
        userId: "u", vigilance: { uuid: "Actor.keeper", name: "Keeper", charges: 2, rolled: 5, restoreEffects: [] } };
      const block = await t.render(t.cards.TEMPLATES.applied, { ...t.cards.appliedContext(applied, 0), canUndo: true });
      document.querySelector(".message-content").innerHTML = card;
      t.appliedBlock = block;
      // The sheet of a Slashed character holding 3 Vigilance charges.
      const tactical = tacticalSheetContext({ items: [], statuses: ["slashed"], saveable: [] });
      tactical.slashed.img = tactical.slashed.img.replace(/^systems\/icon-engine\//, "/");
      const sheet = document.createElement("section");
      sheet.id = "slashed-block";
      sheet.className = "icon-engine sheet actor";
      sheet.style.cssText = "width:480px;background:#f0efe7;color:#191813;padding:8px";
      sheet.innerHTML = await t.render("systems/icon-engine/templates/actor/tactical-actions.hbs", { tactical, source: { vigilance: 3 } });
      document.body.prepend(sheet);
      // The Vigilance prompt of two allies holding charges: at most the most held.
      const prompt = document.createElement("form");
      prompt.id = "vigilance-prompt";
      prompt.innerHTML = await t.render(t.cards.TEMPLATES.vigilance, {
        spenders: [{ uuid: "Actor.keeper", label: "Keeper (3 held)" }, { uuid: "Actor.warden", label: "Warden (1 held)" }], most: 3 });
      document.body.prepend(prompt);
      return { steps: done.steps.map(s => s.rule), hp: done.target.hp };
    });
    assert.deepEqual(shown, { steps: ["amount", "armor", "hp"], hp: 27 });
    const chat = page.locator(".chat-message");
    assert.equal((await chat.locator(".tactical-heal .tactical-apply [data-card-action=damage]:not([data-saved])").textContent()).trim(), "Apply 4 damage to Ysolde");
    assert.equal(await chat.locator(".tactical-heal .tactical-steps").count(), 0, "the chat hook shows the applied breakdown in the apply block");
    // TacticalChat's render hook: the applied breakdown in the apply block
    await page.evaluate(() => { document.querySelector(".tactical-heal .tactical-apply").innerHTML = globalThis.attackTest.appliedBlock; });
    assert.equal(await chat.locator(".tactical-heal .tactical-applied [data-card-action=undoDamage]").count(), 1);
    assert.deepEqual(await chat.locator(".tactical-heal .tactical-applied .change").allTextContents(), ["+4", "−1", "−3"]);
    assert.equal(await chat.locator(".tactical-heal .tactical-vigilance").textContent(), "Keeper spent 2 Vigilance: 5 as armor.");
    await chat.screenshot({ path: `${results}slashed-card.png` });
    const sheet = page.locator("#slashed-block");
    assert.equal((await sheet.locator(".take-slashed").textContent()).trim(), "Slashed: take 4 damage");
    assert.equal(await sheet.locator(".take-slashed").getAttribute("data-action"), "takeSlashed");
    assert.equal(await sheet.locator("input[name='system.vigilance']").inputValue(), "3");
    await sheet.screenshot({ path: `${results}sheet-slashed-vigilance.png` });
    const prompt = page.locator("#vigilance-prompt");
    assert.deepEqual(await prompt.locator("select[name=spender] option").allTextContents(), ["Keeper (3 held)", "Warden (1 held)"]);
    assert.equal(await prompt.locator("input[name=charges]").getAttribute("max"), "3");
    assertNoErrors();
  });
  // Issue 27. Seed: "Evasion: Roll a d6 when attacked. On a 4+, the attack automatically misses";
  // "True Strike: Ignores dodge, blind, evasion, and stealth"; "Auto-Hit: This attack doesn't make
  // an attack roll but always scores a hit"; a Shove's collision "cannot reduce them below 1 hp".
  test("issue 27: True Strike and Auto-hit change the shown odds; the damage card's floor holds the target at 1 HP", async () => {
    const { page } = browser;
    await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const goblin = t.requests.attackTargetOf({ uuid: t.goblin.uuid, name: t.goblin.name, img: t.goblin.img, system: t.goblin.system,
        statuses: ["evasion"] });
      t.state = t.requests.initialAttackState({ heavy: true, targets: [goblin] });
      await t.renderDialog();
    });
    const half = fraction => {
      const [n, d] = fraction.split("/").map(Number);
      return n % 2 === 0 ? `${n / 2}/${d}` : `${n}/${2 * d}`;
    };
    const hit = page.locator("#attack-dialog .odds-row[data-index='0'] .p-hit");
    const evaded = page.locator("#attack-dialog .odds-row[data-index='0'] .p-evaded");
    // the Goblin's Evasion halves P(hit): its d6 comes first
    assert.equal(await hit.getAttribute("data-exact"), half(pAtLeast(0, 14)));
    assert.equal(await evaded.textContent(), "50.00%");
    await page.check("#attack-dialog input[name=trueStrike]");
    await page.locator("#attack-dialog input[name=trueStrike]").dispatchEvent("change");
    await page.waitForFunction(() => document.querySelector("#attack-dialog .p-evaded")?.textContent === "—");
    assert.equal(await hit.getAttribute("data-exact"), pAtLeast(0, 14), "True Strike ignores Evasion");
    // Auto-hit: no attack roll, always a hit (not critical)
    await page.check("#attack-dialog input[name=autoHit]");
    await page.locator("#attack-dialog input[name=autoHit]").dispatchEvent("change");
    await page.waitForFunction(() => document.querySelector("#attack-dialog .p-hit")?.getAttribute("data-exact") === "1/1");
    assert.equal(await page.locator("#attack-dialog .p-crit").getAttribute("data-exact"), "0/1");
    assert.equal(await page.locator("#attack-dialog .net").textContent(), "—");
    await page.locator("#attack-dialog").screenshot({ path: `${results}attack-dialog-true-strike.png` });

    // Cannot bring HP below 1: the damage card says so and its Apply holds the Goblin at 1 HP
    await page.uncheck("#attack-dialog input[name=autoHit]");
    await page.check("#attack-dialog input[name=floor]");
    await page.locator("#attack-dialog input[name=floor]").dispatchEvent("change");
    const applied = await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const { core, requests } = t;
      const [part] = requests.planAttack(core, t.state, t.attacker);
      const attack = core.resolve(part.attack, [[18]]);
      const result = requests.attackResult(attack);
      const damageRequest = requests.damageRequest(t.state, t.attacker, result);
      const damage = core.resolve(damageRequest, [[8, 8]]);
      const target = { uuid: part.target.uuid, name: part.target.name, img: part.target.img, defense: part.target.defense };
      const apply = requests.damageOptions(t.state, result, part.cover, part.target);
      document.querySelector(".message-content").innerHTML = [
        await t.renderCard(part.attack, attack, { role: "attack", key: 0, target }),
        await t.renderCard(damageRequest, damage, { role: "damage", key: 0, target, apply })
      ].join("");
      // what the card's Apply runs (TacticalChat.applyDamage): icon.applyDamage with the card's options
      const before = { hp: 15, maxHp: 20, vigor: 0, armor: 1, wounds: 0, isPlayerCharacter: false, statuses: [] };
      const done = core.resolve(requests.applyDamageRequest(before, damage.total, apply), []);
      return { result, total: damage.total, floor: apply.floor, hp: done.target.hp, defeated: done.target.defeated,
        steps: done.steps.map(s => s.rule) };
    });
    assert.deepEqual([applied.result, applied.total, applied.floor], ["hit", 20, 1]);
    assert.deepEqual([applied.hp, applied.defeated], [1, false]);
    assert.ok(applied.steps.includes("floor"));
    const chat = page.locator(".chat-message");
    assert.equal(await chat.locator(".tactical-damage .tactical-floor").textContent(), "Cannot bring HP below 1");
    assert.equal(await chat.locator(".tactical-attack .tactical-true-strike").textContent(), "True Strike");
    await chat.screenshot({ path: `${results}attack-card-floor.png` });
    assertNoErrors();
  });
  // Issue 27: "a character can use a blessing token to gain +1 boon when they make a save";
  // "Gain power dice at 1 tick"; "Dangerous Terrain ... 2 piercing damage"; "Sacrifice X".
  test("issue 27: the sheet's tokens, dangerous terrain, sacrifice and limit break controls", async () => {
    const { page } = browser;
    await page.evaluate(async () => {
      const t = globalThis.attackTest;
      const { tacticalSheetContext } = await import("/module/applications/sheets/tactical-context.mjs");
      const tactical = tacticalSheetContext({ items: [], statuses: [], saveable: [], isCharacter: true,
        system: { blessings: 2, combo: true, powerDice: [{ ability: "Storm", ticks: 3 }] } });
      const sheet = document.createElement("section");
      sheet.id = "tokens-block";
      sheet.className = "icon-engine sheet actor";
      sheet.style.cssText = "width:480px;background:#f0efe7;color:#191813;padding:8px";
      sheet.innerHTML = await t.render("systems/icon-engine/templates/actor/tactical-actions.hbs", { tactical });
      document.body.prepend(sheet);
    });
    const block = page.locator("#tokens-block");
    assert.equal(await block.locator("input[name='system.blessings']").inputValue(), "2");
    assert.equal(await block.locator(".save-blessing").getAttribute("data-blessing"), "true");
    assert.equal(await block.locator("input[name='system.combo']").isChecked(), true);
    assert.deepEqual(await block.locator(".power-die .name").allTextContents(), ["Storm"]);
    assert.deepEqual(await block.locator(".power-die [data-action=tickPowerDie]").evaluateAll(els => els.map(e => e.dataset.by)), ["-1", "1"]);
    assert.match(await block.locator(".take-terrain").textContent(), /Dangerous terrain \(2\)/);
    assert.equal(await block.locator(".sacrifice").getAttribute("data-action"), "sacrifice");
    assert.equal(await block.locator(".limit-break").getAttribute("data-action"), "limitBreak");
    await block.screenshot({ path: `${results}sheet-tokens.png` });
    assertNoErrors();
  });
});
