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
      // a blight: "Blights need to be cured to be removed" (no save is offered against it)
      const { default: ItemUse } = await import("../../module/applications/item-use.mjs");
      const { default: ActorStatuses } = await import("../../module/documents/actor-statuses.mjs");
      await ItemUse.applyEffect(null, ana, { status: "weakened", duration: "cure", mark: "" });
      const saveable = iconEngine.core.iconSaveable(ActorStatuses.statusesOf(ana));
      const before = { hp: ana.system.hp.value, vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed"), weakened: ana.statuses.has("weakened") };
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999999;
      const message = await TacticalRolls.heal(ana, "cure");
      CONFIG.Dice.randomUniform = random;
      const healed = { vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed"), weakened: ana.statuses.has("weakened") };
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      for (let i = 0; i < 100 && !element()?.querySelector("[data-card-action=undoHeal]"); i++) await new Promise(r => setTimeout(r, 20));
      element().querySelector("[data-card-action=undoHeal]").click();
      for (let i = 0; i < 100 && !message.getFlag("icon-engine", "healUndone"); i++) await new Promise(r => setTimeout(r, 20));
      for (let i = 0; i < 100 && element()?.querySelector("[data-card-action=undoHeal]"); i++) await new Promise(r => setTimeout(r, 20));
      return { before, healed, saveable, after: { hp: ana.system.hp.value, vigor: ana.system.vigor.value, dazed: ana.statuses.has("dazed"),
        weakened: ana.statuses.has("weakened") },
        button: !!element().querySelector("[data-card-action=undoHeal]"), text: element().querySelector(".tactical-heal .card-applied")?.textContent };
    });
    // "A character that's cured gains 4 vigor, or a vigor surge if they're bloodied. Then, they may save against all statuses"
    assert.ok(seen.healed.vigor > seen.before.vigor, "the cure gave vigor");
    assert.equal(seen.healed.dazed, false, "a 20 saves against Dazed");
    assert.deepEqual(seen.saveable, ["dazed"], "no save against the blight");
    assert.equal(seen.healed.weakened, false, "the cure ends the blight");
    assert.deepEqual(seen.after, seen.before, "Undo: the vigor, Dazed and the blight come back");
    assert.deepEqual([seen.button, seen.text], [false, "Undone."]);
    assert.deepEqual(open.browser.errors, []);
  });

  test("a stance: one at a time, its ongoing parts last while it does; an aura's end when a character leaves its range", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async () => {
      const until = async (fn, what) => { for (let i = 0; i < 150; i++) { const v = await fn(); if (v) return v; await new Promise(r => setTimeout(r, 20)); } throw new Error(what); };
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      const size = 50;
      const tess = await Actor.implementation.create({ name: "Tess Stance", type: "character", items: [
        { name: "Iron Guard", type: "ability", system: { tags: ["stance"], range: { kind: "self", value: 0 },
          effects: [{ trigger: "use", to: "self", status: "dodge", duration: "ongoing" }] } },
        { name: "Stone Guard", type: "ability", system: { tags: ["stance"], range: { kind: "self", value: 0 },
          effects: [{ trigger: "use", to: "self", status: "sturdy", duration: "ongoing" }] } },
        { name: "Warding Hum", type: "ability", system: { tags: ["aura"], range: { kind: "range", value: 2 },
          effects: [{ trigger: "use", status: "regeneration", duration: "ongoing" }] } }] });
      const ally = await Actor.implementation.create({ name: "Ally Hum", type: "character" });
      const scene = await Scene.implementation.create({ name: "Hum", width: 500, height: 400, grid: { size, distance: 1 },
        tokens: [{ name: "Tess Stance", actorId: tess.id, actorLink: true, x: 2 * size, y: 2 * size },
          { name: "Ally Hum", actorId: ally.id, actorLink: true, x: 3 * size, y: 2 * size }] });
      await scene.view();
      const stanceOf = () => tess.effects.filter(e => e.getFlag("icon-engine", "lasting")?.kind === "stance").map(e => e.name);
      // Iron Guard: its stance effect, and its Dodge from the card, lasting with it
      const first = await tess.items.getName("Iron Guard").use();
      await CardActions.run(first.message, { action: "effect", key: -1, part: 0 }, game.user);
      const guarded = { stance: stanceOf(), dodge: tess.statuses.has("dodge"),
        cause: tess.effects.find(e => e.statuses.has("dodge"))?.getFlag("icon-engine", "cause") ?? "" };
      // Stone Guard: "only one stance at a time": Iron Guard ends, and the Dodge with it
      const second = await tess.items.getName("Stone Guard").use();
      await until(() => !tess.statuses.has("dodge"), "the Dodge to end with its stance");
      await CardActions.run(second.message, { action: "effect", key: -1, part: 0 }, game.user);
      const switched = { stance: stanceOf(), dodge: tess.statuses.has("dodge"), sturdy: tess.statuses.has("sturdy") };
      // Warding Hum on the ally 1 space away: Regeneration while inside range 2, gone once the ally walks 3 spaces off
      for (const t of canvas.tokens.placeables) t.setTarget(t.name === "Ally Hum", { releaseOthers: false });
      const hum = await tess.items.getName("Warding Hum").use();
      await CardActions.run(hum.message, { action: "effect", key: 0, part: 0 }, game.user);
      const inside = ally.statuses.has("regeneration");
      await scene.tokens.find(t => t.name === "Ally Hum").update({ x: 4 * size });
      const stillInside = ally.statuses.has("regeneration");
      await scene.tokens.find(t => t.name === "Ally Hum").update({ x: 6 * size });
      await until(() => !ally.statuses.has("regeneration"), "the aura's effect to end outside its range");
      return { guarded, switched, inside, stillInside, origin: guarded.cause.startsWith(tess.uuid) };
    });
    assert.deepEqual(seen.guarded.stance, ["Iron Guard"]);
    assert.equal(seen.guarded.dodge, true);
    assert.equal(seen.origin, true, "the Dodge names its stance as its cause");
    assert.deepEqual(seen.switched, { stance: ["Stone Guard"], dodge: false, sturdy: true });
    assert.deepEqual([seen.inside, seen.stillInside], [true, true], "2 spaces away is inside range 2");
    assert.deepEqual(open.browser.errors, []);
  });
});
