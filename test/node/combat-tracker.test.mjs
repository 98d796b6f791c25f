/**
 * The combat tracker's pure modules against the built wasm core: reducer entries from combatant
 * facts, who may send what, Foundry's turn index, the tracker context (checked against what the
 * core's reducer actually accepts), and the end-of-combat changes from the core's healing.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";

const translations = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));
/** @param {string} key */
const localize = key => {
  const value = key.split(".").reduce((node, part) => node?.[part], translations);
  return typeof value === "string" ? value : key;
};
globalThis.game = {
  i18n: { localize, format: (key, data = {}) => localize(key).replace(/{(\w+)}/g, (m, k) => (k in data ? String(data[k]) : m)) }
};

const { combatantEntry, refusalFor, foundryTurn, healTarget, endOfCombatChanges } = await import("../../module/data/combat-rules.mjs");
const { trackerContext, trackerEvent, turnPips } = await import("../../module/applications/combat/tracker-context.mjs");

/** The fight of the browser test: three PCs, an Elite and a normal foe. */
const facts = [
  { id: "pc1", actorType: "character", name: "Ysolde", img: "", isOwner: true },
  { id: "pc2", actorType: "character", name: "Brann", img: "", isOwner: false },
  { id: "pc3", actorType: "character", name: "Mira", img: "", isOwner: false },
  { id: "elite", actorType: "foe", template: "elite", disposition: -1, name: "Ogre", img: "", isOwner: false },
  { id: "grunt", actorType: "foe", template: "", disposition: -1, name: "Goblin", img: "", isOwner: false }
];

/** @param {any} state @param {object} event */
const apply = (state, event) => core.combatApply(state, event);
const start = () => apply(null, { type: "start", combatants: facts.map(combatantEntry) }).state;
/** @param {any} ctx @param {string} id */
const row = (ctx, id) => ctx.groups.flatMap(g => g.rows).find(r => r.id === id);

describe("combat tracker (pure modules + core)", () => {
  before(() => assert.equal(typeof core.combatApply, "function"));

  test("combatant entries: characters are the party, friendly NPCs allies, GM override, templates", () => {
    assert.deepEqual(combatantEntry({ id: "a", actorType: "character", disposition: -1 }),
      { id: "a", side: "party", isPlayerCharacter: true, template: null, canSlow: false });
    assert.equal(combatantEntry({ id: "b", actorType: "foe", disposition: 1 }).side, "party");
    assert.equal(combatantEntry({ id: "b", actorType: "foe", disposition: 0 }).side, "foes");
    assert.equal(combatantEntry({ id: "b", actorType: "foe", disposition: -1, side: "party" }).side, "party");
    assert.equal(combatantEntry({ id: "b", actorType: "foe", disposition: 1, side: "foes" }).side, "foes");
    assert.equal(combatantEntry({ id: "c", actorType: "character", side: "foes" }).side, "party", "a PC stays with the party");
    assert.equal(combatantEntry({ id: "d", actorType: null }).side, "foes");
    assert.equal(combatantEntry({ id: "e", actorType: "foe", template: "legend" }).template, "legend");
    assert.equal(combatantEntry({ id: "e", actorType: "foe", template: "" }).template, null);
    assert.equal(combatantEntry({ id: "e", actorType: "foe", canSlow: true }).canSlow, true);
    // two unlinked tokens of one foe actor are two combatants: the core counts both
    const state = apply(null, { type: "start", combatants: [
      combatantEntry({ id: "pc", actorType: "character" }),
      combatantEntry({ id: "tokA", actorType: "foe" }), combatantEntry({ id: "tokB", actorType: "foe" })] }).state;
    assert.deepEqual(state.combatants.map(c => c.turns), [1, 1, 1]);
  });

  test("who may send what: the GM everything, players their own combatants' turns", () => {
    const player = { isGM: false, owns: id => id === "pc1", currentId: null };
    assert.equal(refusalFor({ type: "beginTurn", id: "pc1" }, player), null);
    assert.equal(refusalFor({ type: "goSlow", id: "pc1" }, player), null);
    assert.equal(refusalFor({ type: "beginTurn", id: "pc2" }, player), "ICONENGINE.Combat.Refused.notYours");
    assert.equal(refusalFor({ type: "endTurn" }, player), "ICONENGINE.Combat.Refused.notYours");
    assert.equal(refusalFor({ type: "endTurn" }, { ...player, currentId: "pc1" }), null);
    for (const type of ["undo", "adjustResolve", "start", "endCombat", "setDefeated", "removeCombatant"]) {
      assert.equal(refusalFor({ type }, player), "ICONENGINE.Combat.Refused.gmOnly", type);
      assert.equal(refusalFor({ type }, { ...player, isGM: true }), null);
    }
  });

  test("Foundry's turn index follows the open ICON turn", () => {
    let state = start();
    const ids = ["elite", "grunt", "pc1", "pc2", "pc3"];
    assert.equal(foundryTurn(state, ids), null);
    state = apply(state, { type: "beginTurn", id: "pc2" }).state;
    assert.equal(foundryTurn(state, ids), 3);
    assert.equal(foundryTurn(state, ["elite"]), null, "a combatant not in the turn list");
    assert.equal(foundryTurn(null, ids), null);
  });

  test("the fight's context: sides, highlighted side, pips, who can act", () => {
    assert.deepEqual(trackerContext(null, facts, { isGM: true }).groups.map(g => g.rows.length), [3, 2]);
    let state = start();
    let ctx = trackerContext(state, facts, { isGM: true });
    assert.equal(ctx.round, 1);
    assert.equal(ctx.partyResolve, 1);
    assert.equal(ctx.actingSide, "party");
    assert.deepEqual(ctx.groups.map(g => [g.side, g.acting]), [["party", true], ["foes", false]]);
    assert.deepEqual(row(ctx, "elite").pips, ["ready", "ready"]);
    assert.equal(row(ctx, "pc1").canAct, true);
    assert.equal(row(ctx, "elite").canAct, false);
    assert.equal(ctx.status, "Next to act: Party.");
    // a player sees Act only on what they own
    const player = trackerContext(state, facts, { isGM: false });
    assert.deepEqual(player.groups[0].rows.map(r => r.canAct), [true, false, false]);
    assert.equal(player.canUndo, false);
    assert.equal(player.canAdjustResolve, false);
    state = apply(state, { type: "beginTurn", id: "pc1" }).state;
    ctx = trackerContext(state, facts, { isGM: true });
    assert.equal(row(ctx, "pc1").active, true);
    assert.equal(row(ctx, "pc1").canEnd, true);
    assert.deepEqual(row(ctx, "pc1").pips, ["spent"]);
    assert.equal(ctx.groups.flatMap(g => g.rows).filter(r => r.canAct).length, 0, "nobody acts while a turn is open");
    state = apply(state, { type: "endTurn" }).state;
    state = apply(state, { type: "setDefeated", id: "grunt", defeated: true }).state;
    ctx = trackerContext(state, facts, { isGM: true });
    assert.equal(ctx.actingSide, "foes");
    assert.deepEqual(row(ctx, "grunt").pips, ["lost"]);
    assert.match(row(ctx, "grunt").css, /defeated/);
    assert.equal(row(ctx, "grunt").canAct, false);
    assert.equal(row(ctx, "elite").canAct, true);
    assert.equal(row(ctx, "elite").canSlow, false, "a foe cannot go slow unless flagged");
  });

  test("pips: taken, waiting slow, ready, lost", () => {
    const c = { turns: 3, taken: 1, slow: 1, defeated: false };
    assert.deepEqual(turnPips(/** @type {any} */ (c)), ["spent", "slow", "ready"]);
    assert.deepEqual(turnPips(/** @type {any} */ ({ ...c, defeated: true })), ["spent", "lost", "lost"]);
  });

  test("the buttons' events", () => {
    assert.deepEqual(trackerEvent("iconAct", { combatantId: "a" }), { type: "beginTurn", id: "a" });
    assert.deepEqual(trackerEvent("iconSlow", { combatantId: "a" }), { type: "goSlow", id: "a" });
    assert.deepEqual(trackerEvent("iconEndTurn"), { type: "endTurn" });
    assert.deepEqual(trackerEvent("iconUndo"), { type: "undo" });
    assert.deepEqual(trackerEvent("iconResolve", { by: "-1" }), { type: "adjustResolve", by: -1 });
    assert.equal(trackerEvent("iconAct", {}), null);
    assert.equal(trackerEvent("somethingElse"), null);
  });

  test("the context offers exactly the buttons the core accepts, over random fights", () => {
    let seed = 12345;
    const rand = n => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let fight = 0; fight < 12; fight++) {
      const roster = [
        ...facts.slice(0, 1 + rand(3)),
        { id: "ally", actorType: "npc", disposition: 1, name: "Ally", img: "", isOwner: false },
        { id: "legend", actorType: "foe", template: "legend", name: "Dragon", img: "", isOwner: false },
        { id: "sly", actorType: "foe", canSlow: true, name: "Sly", img: "", isOwner: false },
        ...facts.slice(3, 3 + rand(3))
      ];
      let state = apply(null, { type: "start", combatants: roster.map(combatantEntry) }).state;
      for (let step = 0; step < 50; step++) {
        const ctx = trackerContext(state, roster, { isGM: true });
        const rows = ctx.groups.flatMap(g => g.rows);
        // the undo history plays no part in what is accepted; leave it out of the many probes
        const probe = { ...state, history: [] };
        for (const r of rows) {
          const accepts = event => { try { apply(probe, event); return true; } catch { return false; } };
          assert.equal(r.canAct, accepts({ type: "beginTurn", id: r.id }), `Act ${r.id} at step ${step}`);
          assert.equal(r.canSlow, accepts({ type: "goSlow", id: r.id }), `Slow ${r.id} at step ${step}`);
          assert.equal(r.canEnd, state.current?.id === r.id);
          assert.equal(r.pips.length >= r.turnsLeft, true);
        }
        assert.equal(ctx.actingSide, state.current ? state.combatants.find(c => c.id === state.current.id).side : state.next?.side ?? null);
        // take a random offered button (or mark a delay / defeat someone now and then)
        const offered = rows.flatMap(r => [r.canAct && trackerEvent("iconAct", { combatantId: r.id }),
          r.canSlow && trackerEvent("iconSlow", { combatantId: r.id }), r.canEnd && trackerEvent("iconEndTurn")]).filter(Boolean);
        const roll = rand(10);
        const event = roll === 0 ? { type: "delay", id: rows[rand(rows.length)].id }
          : roll === 1 ? { type: "setDefeated", id: rows[rand(rows.length)].id, defeated: rand(2) === 0 }
          : offered[rand(offered.length)];
        if (!event) break;
        state = apply(state, event).state;
      }
    }
  });

  test("end of combat: the core's healing, cured statuses, personal resolve", () => {
    const system = { hp: { value: 10, max: 40 }, vigor: { value: 5 }, armor: 0, wounds: 0, resolve: 2 };
    const statuses = ["dazed", "weakened+"];
    const target = healTarget(system, true, statuses);
    const outcome = core.resolve({ kind: "icon.heal", target, healing: "endCombat" }, []);
    assert.equal(outcome.status, "done");
    const { update, cured } = endOfCombatChanges(system, outcome, statuses, true);
    // heal to the bloodied value (50% of 40), vigor lost, every status cured, ongoing or not
    assert.deepEqual(update, { "system.hp.value": 20, "system.vigor.value": 0, "system.resolve": 3 });
    assert.deepEqual(cured, ["dazed", "weakened"]);
    const foe = endOfCombatChanges({ hp: { value: 30, max: 40 }, vigor: { value: 0 } },
      core.resolve({ kind: "icon.heal", target: healTarget({ hp: { value: 30, max: 40 } }, false, []), healing: "endCombat" }, []), [], false);
    assert.deepEqual(foe, { update: {}, cured: [] });
    assert.equal(healTarget({ name: "no health" }, false, []), null);
  });

  test("round 2 opens with the side opposite the last turn; resolve +1", () => {
    let state = start();
    for (const id of ["pc1", "elite", "pc2", "elite", "pc3", "grunt"]) {
      state = apply(state, { type: "beginTurn", id }).state;
      state = apply(state, { type: "endTurn" }).state;
    }
    const ctx = trackerContext(state, facts, { isGM: true });
    assert.equal(ctx.round, 2);
    assert.equal(ctx.partyResolve, 2);
    assert.equal(ctx.actingSide, "party", "the foes took the last turn");
  });
});
