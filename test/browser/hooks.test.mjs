/**
 * The system's hooks for other modules (module/hooks.mjs, docs/api.md), in the shim's v13 world
 * with the system's real classes: for every hook, a listener receives it with the arguments
 * docs/api.md gives; for every `pre` hook, a listener returning false stops the action (nothing is
 * rolled, posted, placed, written or granted), and one that changes the request it is given
 * changes what happens. Also `game.system.api`: what it offers exists and works.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { AREAS, GENERATION, UNTIL, openHarness } from "../support/browser.mjs";

const UNTIL_AND_LISTEN = `${UNTIL}
/** Listen to a hook once for the test: what it received, and what the listener answers. */
globalThis.listen = (name, answer = () => undefined) => {
  const calls = [];
  const id = Hooks.on(name, (...args) => { calls.push(args); return answer(...args); });
  return { calls, off: () => Hooks.off(name, id) };
};`;

describe("icon-engine.* hooks", () => {
  let browser;
  const run = fn => browser.page.evaluate(fn);

  before(async () => {
    browser = await openHarness({ as: "gm", scripts: [UNTIL_AND_LISTEN] });
    await browser.page.evaluate(async () => {
      const ana = await Actor.implementation.create({ name: "Ana", type: "character", system: { damageDie: 6, fray: 2 } });
      const ogre = await Actor.implementation.create({ name: "Ogre", type: "foe", system: { vit: 10, hp: { value: 40, max: 40 }, armor: 0, defense: 5 } });
      const scene = await Scene.implementation.create({ name: "Hooks", width: 500, height: 400, grid: { size: 50, distance: 1 },
        tokens: [{ name: "Ana", actorId: ana.id, actorLink: true, x: 50, y: 50 }, { name: "Ogre", actorId: ogre.id, actorLink: true, x: 150, y: 50 }] });
      await scene.view();
      const { attackTargetOf, initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
      globalThis.t = {
        ana, ogre,
        TacticalRolls: (await import("../../module/dice/tactical-rolls.mjs")).default,
        ActorHealth: (await import("../../module/documents/actor-health.mjs")).default,
        ItemUse: (await import("../../module/applications/item-use.mjs")).default,
        state: () => initialAttackState({ targets: [attackTargetOf({ uuid: ogre.uuid, name: "Ogre", img: "", system: ogre.system, statuses: [] })] }),
        item: async system => (await ana.createEmbeddedDocuments("Item", [{ name: "Test", type: "ability", system }]))[0]
      };
    });
  });

  after(async () => {
    await browser?.close();
  });

  test("game.system.api: every member the docs name, each working", async () => {
    const api = await browser.page.evaluate(async AREAS => {
      const api = game.system.api;
      const item = await t.item({ area: { shape: "cross", size: 1 } });
      const placed = await api.placeArea(item.uuid, { at: { x: 175, y: 75 } });
      const covered = api.coveredTokens(placed.template).map(tk => tk.name);
      const refusal = await api.refusal(item.uuid);
      await canvas.scene.deleteEmbeddedDocuments(AREAS.document, canvas.scene[AREAS.collection].map(tp => tp.id));
      let missing = null;
      try { await api.useItem("Actor.nope.Item.nope"); } catch (error) { missing = error.message; }
      const docs = await (await fetch("/docs/api.md")).text();
      return { keys: Object.keys(api).sort(), undocumented: Object.keys(api).filter(key => !docs.includes(`| \`${key}`)), same: api === iconEngine.api, covered, refusal, missing,
        hooks: Object.values(api.hooks).every(name => name.startsWith("icon-engine.")), shapes: [...api.rules.areas.AREA_SHAPES],
        plan: api.contentPacks.plan(JSON.stringify({ format: "icon-engine-content-pack", version: 1, id: "x", traits: [{ id: "a", name: "A" }] })).report.valid };
    }, AREAS);
    assert.deepEqual(api.keys, ["applyEffect", "attack", "contentPacks", "coveredTokens", "forecast", "grants", "hooks", "id", "placeArea", "refusal", "rules", "save", "useItem"]);
    assert.deepEqual(api.undocumented, [], "docs/api.md names each member");
    assert.equal(api.same, true);
    assert.deepEqual(api.covered, ["Ogre"]);
    assert.equal(api.refusal, null);
    assert.equal(api.missing, "No item at Actor.nope.Item.nope: it was deleted, or the macro names another world's item.");
    assert.equal(api.hooks, true);
    assert.deepEqual(api.shapes, ["blast", "burst", "line", "cross", "arc"]);
    assert.equal(api.plan, 1);
  });

  test("preUseItem / useItem: received; false stops the use; a changed config changes it", async () => {
    const r = await run(async () => {
      const item = await t.item({ tags: ["attack"], charges: { value: 2, max: 2, recharge: "rest" } });
      const fresh = () => t.ana.items.get(item.id);
      const seen = listen("icon-engine.preUseItem");
      const after = listen("icon-engine.useItem");
      const messages = game.messages.size;
      const first = await fresh().use();
      await first.dialog.close();
      seen.off();
      const stop = listen("icon-engine.preUseItem", () => false);
      const stopped = await fresh().use();
      stop.off();
      // an attack used as a card: the config says so
      const change = listen("icon-engine.preUseItem", (it, config) => { config.kind = "card"; });
      const changed = await fresh().use();
      change.off();
      after.off();
      return { pre: [seen.calls[0][0].id === item.id, seen.calls[0][1].kind, seen.calls[0][1].consume], stopped, posted: game.messages.size - messages,
        changed: changed.kind, charges: fresh().system.charges.value, after: after.calls.map(c => [c[0].id === item.id, c[1].kind]) };
    });
    assert.deepEqual(r.pre, [true, "attack", true]);
    assert.equal(r.stopped, null);
    assert.equal(r.changed, "card");
    assert.equal(r.posted, 1, "only the changed use posted (as a card)");
    assert.equal(r.charges, 1, "the card use spent a charge; the stopped one none");
    assert.deepEqual(r.after, [[true, "attack"], [true, "card"]], "useItem after each use that happened");
  });

  // The data is a measured template's on 13 (moved by its x), a region's on 14 (moved by its
  // shapes, one square polygon per space: docs/api.md); the document created is of that kind.
  test(`preCreateTemplate / createTemplate: received; false places nothing; changed data places it elsewhere (a ${GENERATION >= 14 ? "region" : "template"})`, async () => {
    const r = await browser.page.evaluate(async AREAS => {
      const item = await t.item({ area: { shape: "blast", size: 1 } });
      const after = listen("icon-engine.createTemplate");
      const stop = listen("icon-engine.preCreateTemplate", () => false);
      const stopped = await game.system.api.placeArea(item, { at: { x: 175, y: 75 } });
      stop.off();
      const regions = AREAS.document === "Region";
      // two spaces west
      const move = listen("icon-engine.preCreateTemplate", (it, data) => {
        if (regions) data.shapes = data.shapes.map(shape => ({ ...shape, points: shape.points.map((v, k) => (k % 2 ? v : v - 100)) }));
        else data.x = 75;
      });
      const moved = await game.system.api.placeArea(item, { at: { x: 175, y: 75 } });
      move.off();
      after.off();
      const out = { stopped, templates: canvas.scene[AREAS.collection].size, tokens: moved.tokens.map(tk => tk.name), pre: move.calls[0][0].id === item.id,
        kind: moved.template.documentName, data: Object.keys(move.calls[0][1]).filter(key => ["shapes", "t", "x"].includes(key)).sort(),
        after: after.calls.map(c => [c[0].id === item.id, c[1].id === moved.template.id, c[2].map(tk => tk.name)]) };
      await canvas.scene.deleteEmbeddedDocuments(AREAS.document, canvas.scene[AREAS.collection].map(tp => tp.id));
      return out;
    }, AREAS);
    assert.equal(r.stopped, null);
    assert.equal(r.templates, 1, "only the changed one");
    assert.deepEqual(r.tokens, ["Ana"], "moved onto Ana's space instead of the ogre's");
    assert.equal(r.pre, true);
    assert.equal(r.kind, AREAS.document);
    assert.deepEqual(r.data, GENERATION >= 14 ? ["shapes"] : ["t", "x"], "the hook is given the area's data in the generation's shape");
    assert.deepEqual(r.after, [[true, true, ["Ana"]]]);
  });

  test("preAttack / attack and preDamage / damage: received; false stops them; changed state and request change the rolls", async () => {
    const r = await run(async () => {
      const attacks = listen("icon-engine.attack");
      const damages = listen("icon-engine.damage");
      const messages = game.messages.size;
      const stop = listen("icon-engine.preAttack", () => false);
      const stopped = await t.TacticalRolls.attack(t.ana, t.state());
      stop.off();
      const noDamage = listen("icon-engine.preDamage", () => false);
      const undamaged = await t.TacticalRolls.attack(t.ana, t.state());
      noDamage.off();
      const more = listen("icon-engine.preAttack", (actor, state) => { state.boons += 3; });
      const bigger = listen("icon-engine.preDamage", (actor, request) => { request.bonusDice = 2; });
      const changed = await t.TacticalRolls.attack(t.ana, t.state());
      more.off();
      bigger.off();
      attacks.off();
      damages.off();
      const roles = m => m.rolls.map(roll => roll.iconOptions.tactical.role);
      const attackRoll = changed.rolls.find(roll => roll.iconOptions.tactical.role === "attack");
      const damageRoll = changed.rolls.find(roll => roll.iconOptions.tactical.role === "damage");
      return { stopped, posted: game.messages.size - messages, undamaged: roles(undamaged), boons: attackRoll.iconOptions.request.boons,
        bonusDice: damageRoll.iconOptions.request.bonusDice, pre: [more.calls[0][0].id === t.ana.id, more.calls[0][2].ability],
        damageContext: [bigger.calls[0][2].key, bigger.calls[0][2].target.name, typeof bigger.calls[0][2].result],
        attacks: attacks.calls.length, attackArgs: [attacks.calls[1][1].id === changed.id, attacks.calls[1][2].boons],
        damages: damages.calls.map(c => [c[0].id === t.ana.id, c[1].iconOptions.tactical.role]) };
    });
    assert.equal(r.stopped, null);
    assert.equal(r.posted, 2, "the stopped attack posted nothing");
    assert.deepEqual(r.undamaged, ["attack"], "no damage roll");
    assert.equal(r.boons, 3);
    assert.equal(r.bonusDice, 2);
    assert.deepEqual(r.pre, [true, null]);
    assert.deepEqual(r.damageContext, [0, "Ogre", "string"]);
    assert.equal(r.attacks, 2);
    assert.deepEqual(r.attackArgs, [true, 3]);
    assert.deepEqual(r.damages, [[true, "damage"]]);
  });

  test("preApplyDamage / applyDamage: received; false applies nothing (it says why); a changed amount is what is applied", async () => {
    const r = await run(async () => {
      const after = listen("icon-engine.applyDamage");
      const hp = () => game.actors.get(t.ogre.id).system.hp.value;
      const before = hp();
      const stop = listen("icon-engine.preApplyDamage", () => false);
      let refused = null;
      try { await t.ActorHealth.applyDamageTo(t.ogre, 5, { source: "effect", ability: true, fromFoe: true }); } catch (error) { refused = error.message; }
      stop.off();
      const untouched = hp();
      const change = listen("icon-engine.preApplyDamage", (target, request) => { request.amount = 3; });
      const applied = await t.ActorHealth.applyDamageTo(game.actors.get(t.ogre.id), 5, { source: "effect", ability: true, fromFoe: true });
      change.off();
      after.off();
      await t.ActorHealth.undoHealth(game.actors.get(t.ogre.id), applied.undo);
      return { before, refused, untouched, dealt: applied.dealt, lost: before - (before - applied.dealt), pre: [change.calls[0][0].id === t.ogre.id, change.calls[0][1].options.source],
        after: after.calls.map(c => [c[0].id === t.ogre.id, c[1].dealt]), back: hp() };
    });
    assert.equal(r.refused, "Cancelled by a module (icon-engine.preApplyDamage).");
    assert.equal(r.untouched, r.before);
    assert.equal(r.dealt, 3);
    assert.deepEqual(r.pre, [true, "effect"]);
    assert.deepEqual(r.after, [[true, 3]]);
    assert.equal(r.back, r.before);
  });

  test("preSave / save: received; false rolls nothing; a changed request is what is rolled", async () => {
    const r = await run(async () => {
      const after = listen("icon-engine.save");
      const messages = game.messages.size;
      const stop = listen("icon-engine.preSave", () => false);
      const stopped = await t.TacticalRolls.save(t.ana);
      stop.off();
      const change = listen("icon-engine.preSave", (actor, request) => { request.boons = 3; request.bonus = 1; });
      const saved = await t.TacticalRolls.save(t.ana, { boons: 1 });
      change.off();
      after.off();
      const request = saved.rolls[0].iconOptions.request;
      return { stopped, posted: game.messages.size - messages, request: [request.boons, request.bonus], pre: change.calls[0][1],
        after: after.calls.map(c => [c[0].id === t.ana.id, c[1].iconOptions.request.kind, c[2].id === saved.id]) };
    });
    assert.equal(r.stopped, null);
    assert.equal(r.posted, 1);
    assert.deepEqual(r.request, [3, 1]);
    assert.deepEqual(r.pre, { status: null, boons: 3, curses: 0, bonus: 1, blessing: false });
    assert.deepEqual(r.after, [[true, "icon.save", true]]);
  });

  test("preApplyEffect / applyEffect: received; false applies nothing; a changed effect is what lands", async () => {
    const r = await run(async () => {
      const after = listen("icon-engine.applyEffect");
      const effect = { trigger: "use", status: "dazed", duration: "save", mark: "", movement: "", text: "" };
      const stop = listen("icon-engine.preApplyEffect", () => false);
      let refused = null;
      try { await t.ItemUse.applyEffect(t.ana, t.ogre, effect); } catch (error) { refused = error.message; }
      stop.off();
      const dazedAfterStop = game.actors.get(t.ogre.id).statuses.has("dazed");
      const change = listen("icon-engine.preApplyEffect", (target, request) => { request.effect.status = "weakened"; });
      const landed = await t.ItemUse.applyEffect(t.ana, game.actors.get(t.ogre.id), effect);
      change.off();
      after.off();
      const ogre = game.actors.get(t.ogre.id);
      const out = { refused, dazedAfterStop, landed, statuses: [...ogre.statuses].sort(), pre: [change.calls[0][0].id === t.ogre.id, change.calls[0][1].inflicter.id === t.ana.id],
        after: after.calls.map(c => [c[0].id === t.ogre.id, c[1].effect.status, c[1].landed]) };
      await ogre.toggleStatusEffect("weakened", { active: false });
      return out;
    });
    assert.equal(r.refused, "Cancelled by a module (icon-engine.preApplyEffect).");
    assert.equal(r.dazedAfterStop, false);
    assert.equal(r.landed, true);
    assert.deepEqual(r.statuses, ["weakened"]);
    assert.deepEqual(r.pre, [true, true]);
    assert.deepEqual(r.after, [[true, "weakened", true]]);
  });

  test("preTurnChange / turnChange / roundChange / recharge / partyResolve: received; false refuses the turn event; a changed event is what happens", async () => {
    const r = await run(async () => {
      const turns = listen("icon-engine.turnChange");
      const rounds = listen("icon-engine.roundChange");
      const recharges = listen("icon-engine.recharge");
      const resolve = listen("icon-engine.partyResolve");
      await t.item({ limit: { per: "turn", used: 1 } });
      const cass = await Actor.implementation.create({ name: "Cass", type: "character" });
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: t.ana.id }, { actorId: cass.id }, { actorId: t.ogre.id }]);
      await combat.startCombat();
      const [ana, other, ogre] = [t.ana, cass, t.ogre].map(a => combat.combatants.find(c => c.actorId === a.id).id);
      ui.notifications.queue.length = 0;
      const stop = listen("icon-engine.preTurnChange", () => false);
      await combat.iconDispatch({ type: "beginTurn", id: ana });
      stop.off();
      const refused = { current: combat.iconState.current ?? null, notices: ui.notifications.queue.map(n => n.message) };
      // Ana's button pressed, Cass's turn begins: a module swaps the combatant
      const swap = listen("icon-engine.preTurnChange", (c, event) => { if (event.type === "beginTurn") event.id = other; });
      await combat.iconDispatch({ type: "beginTurn", id: ana });
      swap.off();
      const current = combat.iconState.current?.id;
      await combat.iconDispatch({ type: "endTurn" });
      // the sides alternate until everyone has acted; then the next round starts
      for (const id of [ogre, ana]) {
        await combat.iconDispatch({ type: "beginTurn", id });
        await combat.iconDispatch({ type: "endTurn" });
      }
      const round = combat.iconState.round;
      await combat.delete();
      [turns, rounds, recharges, resolve].forEach(l => l.off());
      return { round, refused, swapped: current === other, pre: swap.calls[0][1].type, turnCalls: turns.calls.length,
        turnArgs: turns.calls.at(-1) && [Array.isArray(turns.calls.at(-1)[1].events), Array.isArray(turns.calls.at(-1)[1].effects)],
        rounds: rounds.calls.map(c => [c[1], c[2]]), recharge: recharges.calls.some(c => c[0].id === t.ana.id && c[1] === "turnEnd"),
        resolve: resolve.calls.map(c => typeof c[1]) };
    });
    assert.equal(r.refused.current, null, "no turn began");
    assert.deepEqual(r.refused.notices, ["The combat tracker refused: Cancelled by a module (icon-engine.preTurnChange)."]);
    assert.equal(r.swapped, true, "Cass's turn began instead");
    assert.equal(r.pre, "beginTurn");
    assert.ok(r.turnCalls >= 4);
    assert.deepEqual(r.turnArgs, [true, true]);
    assert.ok(r.rounds.some(([round, previous]) => round === 2 && previous === 1), JSON.stringify(r.rounds));
    assert.equal(r.recharge, true, "Ana's once-a-turn ability cleared when a turn ended");
    assert.ok(r.resolve.length >= 1 && r.resolve.every(type => type === "number"), "party resolve rose with the round");
  });

  test("preGrantItems / grantItems: received; false grants nothing; changed items are what is granted", async () => {
    const r = await run(async () => {
      const { installPack } = await import("./foundry-shim.mjs");
      installPack({ name: "grant-hooks", label: "Grant hooks", type: "Item" }, [
        { _id: "hookAbility00001", name: "First", type: "ability" }, { _id: "hookAbility00002", name: "Second", type: "ability" },
        { _id: "hookJob000000001", name: "Geomancer (test)", type: "job", system: { key: "geomancer", class: "wright",
          grants: ["Compendium.icon-engine.grant-hooks.Item.hookAbility00001", "Compendium.icon-engine.grant-hooks.Item.hookAbility00002"] } }]);
      const { default: ItemGrants } = await import("../../module/documents/item-grants.mjs");
      const job = await fromUuid("Compendium.icon-engine.grant-hooks.Item.hookJob000000001");
      const bo = await Actor.implementation.create({ name: "Bo", type: "character" });
      const after = listen("icon-engine.grantItems");
      const stop = listen("icon-engine.preGrantItems", () => false);
      const none = await ItemGrants.grant(bo, job);
      stop.off();
      const trim = listen("icon-engine.preGrantItems", (actor, grant) => { grant.items.splice(1); });
      const some = await ItemGrants.grant(bo, job);
      trim.off();
      after.off();
      return { none: none.length, some: some.map(i => i.name), pre: [trim.calls[0][0].id === bo.id, trim.calls[0][1].source.id],
        after: after.calls.map(c => [c[0].id === bo.id, c[1].map(i => i.name), c[2].id]) };
    });
    assert.equal(r.none, 0);
    assert.deepEqual(r.some, ["First"]);
    assert.deepEqual(r.pre, [true, "hookJob000000001"]);
    assert.deepEqual(r.after, [[true, ["First"], "hookJob000000001"]]);
    assert.deepEqual(browser.errors, []);
  });
});
