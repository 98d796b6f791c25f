/**
 * What a card shows is what its controls do (issue 36, "a card shows one thing and the GM's click
 * does another"; issue 41, one card per use): in the shim world booted as the GM, a player's card
 * whose stored HTML, stored outcome and stored target name lie is shown from its checked data, and
 * the GM's click on what is shown does exactly that. The chat log renders every message through
 * the system's first render listener (module/applications/card-view.mjs).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { shimWorldPage } from "../support/shim-world.mjs";

const results = new URL("../../test-results/", import.meta.url).pathname;

describe("cards rendered from checked data", () => {
  const open = shimWorldPage({ as: "gm" });

  test("a player's forged card shows its target and amount from the data, and the GM's Apply deals what it shows", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async () => {
      const PLAYER = "playerUser000000";
      const { default: IconRoll } = await import("../../module/dice/icon-roll.mjs");
      const hero = await Actor.implementation.create({ name: "Ana", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
      const goblin = await Actor.implementation.create({ name: "Goblin", type: "foe" });
      const boss = await Actor.implementation.create({ name: "Boss", type: "foe" });
      const start = { boss: boss.system.hp.value, goblin: goblin.system.hp.value };
      // The roll as the player's client would post it, then its stored outcome and target name rewritten to lie.
      const request = { kind: "icon.damage", result: "hit", die: 12, dice: 2, fray: 2, bonusDice: 0 };
      const roll = await IconRoll.fromRequest(request, { tactical: { role: "damage", key: 0, target: { uuid: boss.uuid, name: "Goblin" },
        apply: { source: "hit", pierce: false, divine: false, attackerWeakened: false, attackerPacified: false, attackerHatred: false, cover: false,
          floor: 0, trueStrike: false } } });
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999999;
      await roll.evaluate();
      CONFIG.Dice.randomUniform = random;
      const data = roll.toJSON();
      data.options.outcome = { ...data.options.outcome, total: 3 };
      const card = { v: 1, actor: hero.uuid, item: "", name: "Zap", img: "", type: "ability", basic: "", kind: "attack", combo: "", summary: {},
        html: "<p>Zap.</p>", parts: [], save: null, targets: [{ actor: boss.uuid, token: "" }], user: {}, template: "" };
      const message = await ChatMessage.implementation.create({ author: PLAYER, rolls: [data],
        content: '<div class="tactical-apply"><button data-card-action="damage" data-key="0">Apply 3 to Goblin</button></div>',
        flags: { "icon-engine": { card } } });
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      for (let i = 0; i < 100 && !element()?.querySelector(".card-target"); i++) await new Promise(r => setTimeout(r, 20));
      const shown = {
        name: element().querySelector(".card-target .name")?.textContent,
        total: element().querySelector(".card-damage .card-total")?.textContent.trim(),
        buttons: [...element().querySelectorAll("button[data-card-action]")].map(b => b.textContent.trim()),
        html: element().querySelector(".message-content").textContent.includes("Apply 3 to Goblin")
      };
      element().querySelector("button[data-card-action=damage]").click();
      for (let i = 0; i < 100 && !message.getFlag("icon-engine", "damageApplied"); i++) await new Promise(r => setTimeout(r, 20));
      for (let i = 0; i < 100 && !element()?.querySelector(".tactical-applied"); i++) await new Promise(r => setTimeout(r, 20));
      const after = { boss: boss.system.hp.value, goblin: goblin.system.hp.value, applied: element().querySelector(".tactical-health")?.textContent ?? "" };
      return { id: message.id, shown, after, start };
    });
    assert.equal(seen.shown.name, "Boss", "the target's own name, not the stored 'Goblin'");
    assert.equal(seen.shown.total, "= 26 Damage", "12 + 12 + fray 2, as the faces give, not the stored 3");
    assert.equal(seen.shown.html, false, "the author's HTML is not shown");
    assert.deepEqual(seen.shown.buttons, ["Apply damage to Boss", "Vigilance"]);
    assert.deepEqual([seen.after.boss, seen.after.goblin], [Math.max(0, seen.start.boss - 26), seen.start.goblin], "done: what was shown, on the Boss");
    assert.match(seen.after.applied, /Boss took 26/);
    await page.locator(`#chat [data-message-id="${seen.id}"]`).screenshot({ path: `${results}cards-forged-shown.png` });
    assert.deepEqual(open.browser.errors, []);
  });

  test("a cure's card has Undo: the vigor it gave and the statuses its saves ended come back; pressed once", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async () => {
      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const ana = await Actor.implementation.create({ name: "Ana Cure", type: "character" });
      await ana.update({ "system.hp.value": Math.floor(ana.system.hp.max / 2) });
      await ana.toggleStatusEffect("dazed", { active: true });
      const before = { hp: ana.system.hp.value, vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed") };
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999999;
      const message = await TacticalRolls.heal(ana, "cure");
      CONFIG.Dice.randomUniform = random;
      const healed = { vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed") };
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      for (let i = 0; i < 100 && !element()?.querySelector("[data-card-action=undoHeal]"); i++) await new Promise(r => setTimeout(r, 20));
      element().querySelector("[data-card-action=undoHeal]").click();
      for (let i = 0; i < 100 && !message.getFlag("icon-engine", "healUndone"); i++) await new Promise(r => setTimeout(r, 20));
      for (let i = 0; i < 100 && element()?.querySelector("[data-card-action=undoHeal]"); i++) await new Promise(r => setTimeout(r, 20));
      return { before, healed, after: { hp: ana.system.hp.value, vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed") },
        button: !!element().querySelector("[data-card-action=undoHeal]"), text: element().querySelector(".tactical-heal .card-applied")?.textContent };
    });
    // "A character that's cured gains 4 vigor, or a vigor surge if they're bloodied. Then, they may save against all statuses"
    assert.ok(seen.healed.vigor > seen.before.vigor, "the cure gave vigor");
    assert.equal(seen.healed.dazed, false, "a 20 saves against Dazed");
    assert.deepEqual(seen.after, seen.before, "Undo: the vigor and Dazed come back");
    assert.deepEqual([seen.button, seen.text], [false, "Undone."]);
    assert.deepEqual(open.browser.errors, []);
  });
});
