/**
 * Whom a use affects, and what its tags do to its user's turn (issue 41): the targeted tokens, or
 * the selected ones when none is targeted; a Self ability its user; an area's covered tokens
 * without the defeated and without a Stealthed one its user is not adjacent to ("you cannot be
 * directly targeted except from an adjacent space"); a range counted to the nearest space of a large
 * target ("at least 1 space of its area within the listed range"), for every ability; the placed
 * area gone once the card is posted (kept by the world setting, and for an aura); Delay ("your next
 * turn must be slow"), End turn ("This ability ends your turn"), Combo ("you can't use a base and
 * combo version of the same ability in the same turn"). In the shim's v13 world, booted as the GM.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

describe("a use's targets and its tags", () => {
  const open = shimWorldPage({ as: "gm" });

  test("targets: targeted, else selected; Self; an area without the defeated and the unseen Stealthed; ranges to a large target's nearest space", async () => {
    const seen = await open.browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 50;
      const user = await Actor.implementation.create({ name: "Mira", type: "character", items: [
        { name: "Jab", type: "ability", system: { range: { kind: "range", value: 3 }, effects: [{ trigger: "use", status: "dazed" }] } },
        { name: "Steel Self", type: "ability", system: { range: { kind: "self", value: 0 }, effects: [{ trigger: "use", to: "self", status: "sturdy" }] } },
        { name: "Ash Rain", type: "ability", system: { range: { kind: "range", value: 8 }, area: { shape: "blast", size: 3 },
          effects: [{ trigger: "use", status: "dazed" }] } },
        { name: "Ember Halo", type: "ability", system: { tags: ["aura"], range: { kind: "range", value: 8 }, area: { shape: "blast", size: 1 },
          effects: [{ trigger: "use", status: "dazed" }] } }
      ] });
      const foe = name => Actor.implementation.create({ name, type: "foe" });
      const [near, far, down, sneak, giant] = [await foe("Near"), await foe("Far"), await foe("Down"), await foe("Sneak"), await foe("Giant")];
      await down.toggleStatusEffect("defeated", { active: true });
      await sneak.toggleStatusEffect("stealth", { active: true });
      const scene = await Scene.implementation.create({ name: "Targets", width: 600, height: 500, grid: { size, distance: 1 }, tokens: [
        { name: "Mira", actorId: user.id, actorLink: true, x: 1 * size, y: 1 * size },
        { name: "Near", actorId: near.id, actorLink: true, x: 3 * size, y: 1 * size },
        { name: "Far", actorId: far.id, actorLink: true, x: 9 * size, y: 1 * size },
        { name: "Down", actorId: down.id, actorLink: true, x: 5 * size, y: 5 * size },
        { name: "Sneak", actorId: sneak.id, actorLink: true, x: 6 * size, y: 5 * size },
        // a 3×3 foe whose nearest space is 3 from Mira (its centre is 4 away)
        { name: "Giant", actorId: giant.id, actorLink: true, x: 4 * size, y: 3 * size, width: 3, height: 3 }
      ] });
      await scene.view();
      const cardTargets = message => message.getFlag("icon-engine", "card").targets.map(t => fromUuidSync(t.actor)?.name);
      const token = name => canvas.tokens.placeables.find(t => t.name === name);
      const notices = () => { const q = ui.notifications.queue.map(n => n.message); ui.notifications.queue.length = 0; return q; };
      notices();
      // none targeted: the selected tokens (not the user's own)
      token("Near").control({ releaseOthers: true });
      token("Mira").control({ releaseOthers: false });
      const selected = cardTargets((await user.items.getName("Jab").use()).message);
      canvas.tokens.releaseAll();
      // targeted: those; out of range is left out with a notice, for an ability with no attack too
      for (const t of canvas.tokens.placeables) t.setTarget(["Near", "Far", "Giant"].includes(t.name), { releaseOthers: false });
      const targeted = cardTargets((await user.items.getName("Jab").use()).message);
      const rangeNotices = notices();
      for (const t of canvas.tokens.placeables) t.setTarget(false, { releaseOthers: false });
      // Self: its user, whatever is targeted
      token("Far").setTarget(true, { releaseOthers: false });
      const self = cardTargets((await user.items.getName("Steel Self").use()).message);
      token("Far").setTarget(false, { releaseOthers: false });
      // an area over Down, Sneak and the Giant: the defeated and the Stealthed (not adjacent to Mira) left out; the area goes once posted
      const rain = await user.items.getName("Ash Rain").use({ at: { x: 5 * size + 25, y: 5 * size + 25 } });
      const area = cardTargets(rain.message);
      const areaNotices = notices();
      const rainTemplate = !!fromUuidSync(rain.template.uuid);
      // an aura's area stays
      const halo = await user.items.getName("Ember Halo").use({ at: { x: 3 * size + 25, y: 1 * size + 25 } });
      const haloTemplate = !!fromUuidSync(halo.template.uuid);
      // the world setting keeps every area
      await game.settings.set("icon-engine", "keepAreas", true);
      const kept = await user.items.getName("Ash Rain").use({ at: { x: 5 * size + 25, y: 5 * size + 25 } });
      const keptTemplate = !!fromUuidSync(kept.template.uuid);
      await game.settings.set("icon-engine", "keepAreas", false);
      return { selected, targeted, rangeNotices, self, area, areaNotices, rainTemplate, haloTemplate, keptTemplate };
    }, UNTIL);
    assert.deepEqual(seen.selected, ["Near"], "the selected token, not the user's own");
    assert.deepEqual(seen.targeted, ["Near", "Giant"], "the Giant's nearest space is 3 away: in range 3");
    assert.deepEqual(seen.rangeNotices, ["Far is out of range: it is not affected."]);
    assert.deepEqual(seen.self, ["Mira"]);
    assert.deepEqual(seen.area, ["Giant"]);
    assert.deepEqual(seen.areaNotices.sort(), ["Down is defeated: the area leaves it out.", "Sneak has Stealth and is not adjacent: it is not affected."]);
    assert.deepEqual([seen.rainTemplate, seen.haloTemplate, seen.keptTemplate], [false, true, true]);
    assert.deepEqual(open.browser.errors, []);
  });

  test("tags: Delay makes the next turn slow, End turn ends the turn, Combo's two versions not in one turn", async () => {
    const seen = await open.browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const pc = await Actor.implementation.create({ name: "Kai", type: "character", items: [
        { name: "Slow Burn", type: "ability", system: { tags: ["delay"] } },
        { name: "Last Word", type: "ability", system: { tags: ["endTurn"] } },
        { name: "Flurry", type: "ability", system: { tags: ["combo"] } }
      ] });
      const foe = await Actor.implementation.create({ name: "Brute", type: "foe" });
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: pc.id }, { actorId: foe.id }]);
      await combat.startCombat();
      const [mine, theirs] = [pc, foe].map(a => combat.combatants.find(c => c.actorId === a.id).id);
      const { stateCombatants } = await import("../../module/applications/combat/tracker-context.mjs");
      const entry = id => stateCombatants(combat.iconState).find(c => c.id === id);
      const notices = () => { const q = ui.notifications.queue.map(n => n.message); ui.notifications.queue.length = 0; return q; };
      await combat.iconDispatch({ type: "beginTurn", id: mine });
      // Combo: the base version, then the same ability again this turn is refused
      const base = await pc.items.getName("Flurry").use();
      notices();
      const again = await pc.items.getName("Flurry").use();
      const comboRefused = notices();
      // Delay: the reducer notes the delay (the next turn must be slow)
      await pc.items.getName("Slow Burn").use();
      const delayed = entry(mine)?.delay ?? null;
      // End turn: the open turn ends
      const before = combat.iconState.current?.id ?? null;
      await pc.items.getName("Last Word").use();
      const after = combat.iconState.current?.id ?? null;
      await combat.delete();
      return { base: base?.message?.getFlag("icon-engine", "card").combo, again, comboRefused, delayed, before, after, mine };
    }, UNTIL);
    assert.equal(seen.base, "baseVersion");
    assert.equal(seen.again, null);
    assert.deepEqual(seen.comboRefused, ["Flurry was already used this turn: its base and combo versions count as the same ability."]);
    assert.equal(seen.before, seen.mine);
    assert.equal(seen.after, null, "End turn: no turn open");
    assert.equal(seen.delayed, true, "a delay is pending: the next turn must be slow");
    assert.deepEqual(open.browser.errors, []);
  });
});
