/**
 * The combat tracker's pure modules against the built wasm core: reducer entries from combatant
 * facts, who may send what, Foundry's turn index, the tracker context (checked against what the
 * core's reducer actually accepts), the end-of-combat and end-of-turn rules; then the module's
 * Combat document (IconCombat, over stand-ins for Foundry's classes) writing each event as the
 * small update Foundry sends, and converting a state stored before issue 18; and the tracker
 * application's overrides of Foundry's CombatTracker.
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

const { combatantEntry, refusalFor, foundryTurn, healTarget, endOfCombatChanges, stateDiff, combatUpdate, endOfTurn } =
  await import("../../module/data/combat-rules.mjs");
const { trackerContext, trackerEvent, turnPips, stateCombatants } = await import("../../module/applications/combat/tracker-context.mjs");
const { deleteKey } = await import("../../module/compat/data-operators.mjs");

/** v14's deletion operator (foundry.data.operators.ForcedDeletion), as a stand-in class. */
class ForcedDeletion {}
/**
 * Runs `fn` with Foundry's generation set to `generation` (what compat/generation.mjs reads).
 * @param {number} generation @param {() => void} fn
 */
const underGeneration = (generation, fn) => {
  const foundry = globalThis.foundry;
  globalThis.game.release = { generation };
  globalThis.foundry = { ...foundry, data: { ...foundry?.data, operators: { ForcedDeletion } } };
  try { fn(); } finally { delete globalThis.game.release; globalThis.foundry = foundry; }
};

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
      { id: "a", side: "party", isPlayerCharacter: true, template: null, canSlow: false, summoner: null });
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
    assert.deepEqual(stateCombatants(state).map(c => c.turns), [1, 1, 1]);
    // a summon (its token flagged with the summoner) takes no turns
    const summon = combatantEntry({ id: "wolf", actorType: "foe", disposition: 1, summonerId: "pc" });
    assert.equal(summon.summoner, "pc");
    const withSummon = apply(state, { type: "addCombatant", combatant: summon }).state;
    assert.equal(stateCombatants(withSummon).find(c => c.id === "wolf").turns, 0);
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

  test("issue 41: Delay on a row for its owner or the GM, with the rule as its tooltip; turns counted in their plural form", () => {
    const state = start();
    const player = trackerContext(state, facts, { isGM: false });
    assert.deepEqual(player.groups.flatMap(g => g.rows).filter(r => r.canDelay).map(r => r.id), ["pc1"], "only the player's own (refusalFor)");
    for (const r of player.groups.flatMap(g => g.rows)) {
      assert.equal(refusalFor({ type: "delay", id: r.id }, { isGM: false, owns: id => id === "pc1", currentId: null }) === null, r.canDelay);
    }
    const gm = trackerContext(state, facts, { isGM: true });
    assert.deepEqual(gm.groups.flatMap(g => g.rows).filter(r => r.canDelay).map(r => r.id), ["pc1", "pc2", "pc3", "elite", "grunt"]);
    const delayed = trackerContext(apply(state, { type: "delay", id: "pc1" }).state, facts, { isGM: true });
    assert.equal(row(delayed, "pc1").delay, true);
    assert.equal(row(delayed, "pc1").canDelay, false, "a delay is pending: not twice");
    assert.equal(trackerContext(null, facts, { isGM: true }).groups[0].rows[0].canDelay, false, "not before the combat starts");
    assert.match(localize("ICONENGINE.Combat.delayHint"), /^Delay: .*next turn must be slow/);
    assert.equal(row(gm, "pc1").pipsLabel, "1 of 1 turn left this round");
    assert.equal(row(gm, "elite").pipsLabel, "2 of 2 turns left this round");
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
    // issue 41: the row's Delay is the reducer's delay event
    assert.deepEqual(trackerEvent("iconDelay", { combatantId: "a" }), { type: "delay", id: "a" });
    assert.equal(trackerEvent("iconDelay", {}), null);
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
        for (const r of rows) {
          const accepts = event => { try { apply(state, event); return true; } catch { return false; } };
          assert.equal(r.canAct, accepts({ type: "beginTurn", id: r.id }), `Act ${r.id} at step ${step}`);
          assert.equal(r.canSlow, accepts({ type: "goSlow", id: r.id }), `Slow ${r.id} at step ${step}`);
          assert.equal(r.canEnd, state.current?.id === r.id);
          assert.equal(r.pips.length >= r.turnsLeft, true);
          // issue 41: Delay is offered exactly when the core marks a pending delay on it
          const row = stateCombatants(state).find(c => c.id === r.id);
          const delays = accepts({ type: "delay", id: r.id }) && !row.delay && !row.defeated && row.turns > 0 && !state.ended;
          assert.equal(r.canDelay, delays, `Delay ${r.id} at step ${step}`);
          if (r.canDelay) assert.equal(stateCombatants(apply(state, { type: "delay", id: r.id }).state).find(c => c.id === r.id).delay, true);
        }
        const current = state.current ? stateCombatants(state).find(c => c.id === state.current.id) : null;
        assert.equal(ctx.actingSide, current ? current.side : state.next?.side ?? null);
        // take a random offered button (or mark a delay / defeat someone now and then)
        const offered = rows.flatMap(r => [r.canAct && trackerEvent("iconAct", { combatantId: r.id }),
          r.canSlow && trackerEvent("iconSlow", { combatantId: r.id }), r.canEnd && trackerEvent("iconEndTurn"),
          r.canDelay && rand(4) === 0 && trackerEvent("iconDelay", { combatantId: r.id })]).filter(Boolean);
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

/** A Foundry-like 16-character id. */
const fid = name => name.padEnd(16, "0");

/** Fifteen combatants: five characters, an Elite, a Legend, a foe that may go slow, seven others. */
const fifteen = [
  ...Array.from({ length: 5 }, (_, i) => ({ id: fid(`pc${i}`), actorType: "character" })),
  { id: fid("elite"), actorType: "foe", template: "elite" },
  { id: fid("legend"), actorType: "foe", template: "legend" },
  { id: fid("sly"), actorType: "foe", canSlow: true },
  ...Array.from({ length: 7 }, (_, i) => ({ id: fid(`foe${i}`), actorType: "foe" }))
];

/**
 * What Foundry does with an update of an object field (v13 ObjectField: the change is merged into
 * the stored value key by key; `-=key: null` deletes a key, on v14 a ForcedDeletion value does
 * (and the `-=` key throws); anything that is not a plain object replaces what was there),
 * written out here to check the module's diffs against.
 * @param {any} stored @param {any} change
 */
function foundryMerge(stored, change) {
  const plain = v => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!plain(stored) || !plain(change)) return structuredClone(change);
  const v14 = globalThis.game.release?.generation === 14;
  for (const [key, value] of Object.entries(change)) {
    if (key.startsWith("-=") && v14) throw new Error(`You are specifying a forced deletion key "${key}" using legacy syntax`);
    if (key.startsWith("-=")) delete stored[key.slice(2)];
    else if (value instanceof ForcedDeletion) delete stored[key];
    else stored[key] = plain(value) && plain(stored[key]) ? foundryMerge(stored[key], value) : structuredClone(value);
  }
  return stored;
}

/** A state stored before issue 18, captured from that code (tests/fixtures). */
const oldState = name => JSON.parse(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url), "utf8"));

/** The tracker's moves for the state: end the open turn, else the first eligible combatant acts, now and then slow. */
function trackerMove(state, n) {
  if (state.current) return { type: "endTurn" };
  const rows = stateCombatants(state);
  const next = state.next;
  const c = rows.find(c => c.side === next.side && !c.defeated
    && (next.phase === "regular" ? c.turns - (c.taken ?? 0) - (c.slow ?? 0) > 0 : (c.slow ?? 0) > 0));
  const mayGoSlow = c.side === "party" || c.canSlow || c.delay;
  if (next.phase === "regular" && (c.delay || (mayGoSlow && n % 7 === 3))) return { type: "goSlow", id: c.id };
  return { type: "beginTurn", id: c.id };
}

describe("the stored state and the updates that carry it", () => {
  for (const generation of [13, 14]) {
    test(`a diff merged as Foundry ${generation} merges it gives the new state, over random fights and the old shape`, () => underGeneration(generation, () => {
      let seed = 777;
      const rand = n => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
      const roster = fifteen.map(combatantEntry);
      let stored = null;
      let state = null;
      const check = next => {
        const update = combatUpdate(stored, next, [], deleteKey);
        stored = "system.state" in update ? foundryMerge(stored, update["system.state"]) : stored;
        assert.deepEqual(stored, next);
        state = next;
      };
      check(apply(null, { type: "start", combatants: roster }).state);
      for (let step = 0; step < 400; step++) {
        const roll = rand(12);
        const ids = stateCombatants(state).map(c => c.id);
        const event = roll === 0 ? { type: "undo" }
          : roll === 1 ? { type: "setDefeated", id: ids[rand(ids.length)], defeated: rand(2) === 0 }
          : roll === 2 ? { type: "delay", id: ids[rand(ids.length)] }
          : roll === 3 ? { type: "removeCombatant", id: ids[rand(ids.length)] }
          : roll === 4 ? { type: "addCombatant", combatant: { id: fid(`new${step}`), side: rand(2) ? "party" : "foes", summoner: rand(3) ? null : ids[0] } }
          : trackerMove(state, step);
        let next;
        try { next = apply(state, event).state; } catch { continue; }
        if (!next) break;
        check(next);
      }
      // a state stored in the old shape: the first event's update turns it into the new one
      stored = oldState("combat-v1-midfight.json");
      const next = apply(stored, { type: "endTurn" }).state;
      const update = combatUpdate(stored, next, [], deleteKey);
      if (generation === 13) assert.ok("-=history" in update["system.state"], "the snapshot history is deleted");
      else assert.ok(update["system.state"].history instanceof ForcedDeletion, "the snapshot history is deleted by v14's operator");
      assert.deepEqual(foundryMerge(stored, update["system.state"]), next);
      // before the start and after undoing it
      assert.deepEqual(combatUpdate(null, null, [], deleteKey), { round: 0, turn: null, "system.state": null });
      assert.deepEqual(stateDiff({ a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, deleteKey), {});
      assert.deepEqual(stateDiff({ a: { b: 1, c: 2 } }, { a: { b: 1 } }, deleteKey),
        generation === 13 ? { a: { "-=c": null } } : { a: { c: new ForcedDeletion() } });
      if (generation === 14) assert.ok(stateDiff({ a: { c: 2 } }, { a: {} }, deleteKey).a.c instanceof ForcedDeletion);
    }));
  }

  test("end of turn: regeneration through the core's healing, hatred ends, an ongoing hatred stays", () => {
    assert.deepEqual(endOfTurn(["regeneration", "hatred", "dazed"]), { regenerates: true, ends: ["hatred"] });
    assert.deepEqual(endOfTurn(["hatred+", "regeneration+"]), { regenerates: true, ends: [] });
    assert.deepEqual(endOfTurn([]), { regenerates: false, ends: [] });
    // "If bloodied, gain 4 vigor at the end of your turn": the core decides
    const heal = system => core.resolve({ kind: "icon.heal", target: healTarget(system, true, ["regeneration"]), healing: "regeneration" }, []);
    assert.equal(heal({ hp: { value: 10, max: 40 }, vigor: { value: 0 } }).target.vigor, 4);
    assert.equal(heal({ hp: { value: 30, max: 40 }, vigor: { value: 0 } }).total, 0, "not bloodied");
  });
});

/* ---------------------------------------------------------------- the documents, over stand-ins */

/** Foundry's classes and globals, as far as loading and running the combat documents needs. */
function standIns() {
  const calls = [];
  globalThis.foundry = {
    dice: { Roll: class {} },
    applications: {
      api: { DialogV2: { confirm: async () => true } },
      sidebar: { tabs: { CombatTracker: class {
        // v13 CombatTracker (client/applications/sidebar/tabs/combat-tracker.mjs): _preparePartContext
        // calls _prepareCombatContext for the header and footer, _prepareTrackerContext for the tracker
        async _preparePartContext(partId, context) {
          calls.push(`part:${partId}`);
          if (partId === "tracker") await this._prepareTrackerContext(context, {});
          else await this._prepareCombatContext(context, {});
          return context;
        }
        async _prepareCombatContext(context) { calls.push("core:combat"); context.hasCombat = true; }
        async _prepareTrackerContext(context) { calls.push("core:tracker"); context.turns = []; }
        async _getCombatantThumbnail(combatant) { return combatant.thumb ?? combatant.img; }
        // core's entries in the running generation's shape and keys (v14 renamed name to label, and
        // the combatant entries' keys to COMBATANT.ACTIONS.*, as public v14 tracker code reads them)
        _getEntryContextOptions() {
          return ((game.release?.generation ?? 13) >= 14
            ? ["COMBATANT.ACTIONS.Update", "COMBATANT.ACTIONS.Clear", "COMBATANT.ACTIONS.Reroll", "COMBATANT.ACTIONS.Remove"]
            : ["COMBAT.CombatantUpdate", "COMBAT.CombatantClear", "COMBAT.CombatantReroll",
              "COMBAT.CombatantClearMovementHistory", "COMBAT.CombatantRemove"]).map(coreEntry);
        }
        _getCombatContextOptions() {
          return ["COMBAT.InitiativeReset", "COMBAT.ClearMovementHistories", "COMBAT.Delete"].map(coreEntry);
        }
      } } }
    }
  };
  globalThis.Combat = class { get started() { return false; } };
  globalThis.Combatant = class {};
  globalThis.Hooks = { callAll: (name, ...args) => calls.push(`hook:${name}`), call: (name, ...args) => { calls.push(`hook:${name}`); return true; }, on: () => {} };
  globalThis.ui = { notifications: { warn: m => calls.push(`warn:${m}`), info: () => {} } };
  globalThis.CONST = { DEFAULT_TOKEN: "icons/svg/mystery-man.svg" };
  globalThis.game.user = { isGM: true, isActiveGM: true };
  // World settings (module/settings.mjs): the tracker reads what players see of a foe's HP.
  const settings = new Map([["icon-engine.foeHp", "bloodied"]]);
  globalThis.game.settings = { get: (scope, key) => settings.get(`${scope}.${key}`), set: async (scope, key, value) => settings.set(`${scope}.${key}`, value) };
  globalThis.CONFIG = { specialStatusEffects: { DEFEATED: "defeated" } };
  return calls;
}

/** @param {string} key  A core context menu entry as the running generation writes it. */
const coreEntry = key => ((game.release?.generation ?? 13) >= 14 ? { label: key } : { name: key });

describe("IconCombat and the tracker over stand-ins for Foundry", () => {
  const calls = standIns();
  /** @type {any} */ let IconCombat;
  /** @type {any} */ let IconCombatTracker;
  before(async () => {
    const { loadCore } = await import("../../module/core.mjs");
    await loadCore();
    IconCombat = (await import("../../module/documents/icon-combat.mjs")).default;
    IconCombatTracker = (await import("../../module/applications/combat/combat-tracker.mjs")).default;
  });

  /** A Combat of the system with a stand-in `update` that records the data and merges it as Foundry does. */
  const combatOf = (facts, stored = null) => {
    const combat = new IconCombat();
    const byId = new Map(facts.map(f => [f.id, { id: f.id, name: f.id, token: f.token ?? null, actor: null, iconEntry: () => combatantEntry(f) }]));
    Object.assign(combat, {
      _source: { system: { state: stored } }, round: 0, turn: null, updates: [], begun: [], cleared: [],
      turns: [...byId.values()],
      combatants: Object.assign(byId, { contents: [...byId.values()], filter: fn => [...byId.values()].filter(fn) }),
      async update(data, options) {
        this.updates.push(data);
        this._source.system.state = foundryMerge(this._source.system.state, data["system.state"] ?? this._source.system.state);
        Object.assign(this, { round: data.round, turn: data.turn });
        assert.equal(options.turnEvents, undefined, "core's _onUpdate calls _manageTurnEvents");
      },
      async _onStartTurn(c) { this.begun.push(c.id); },
      async _clearMovementHistoryOnStartTurn(c) { this.cleared.push(c.id); },
      async _onEndTurn() {}, async _onStartRound() {}, async _onEndRound() {}, _playCombatSound() {}
    });
    return combat;
  };

  test("every turn event of a 15-combatant fight sends at most 1 KB; the stored state stays under 4 KB", async () => {
    const combat = combatOf(fifteen);
    await combat.startCombat();
    let expected = structuredClone(combat._source.system.state);
    let largest = 0;
    let largestState = 0;
    for (let n = 0; expected.round <= 12; n++) {
      const event = trackerMove(expected, n);
      await combat.iconCommit([event]);
      expected = apply(expected, event).state;
      const sent = JSON.stringify(combat.updates.at(-1)).length;
      assert.ok(sent <= 1024, `${event.type} sent ${sent} bytes`);
      largest = Math.max(largest, sent);
      largestState = Math.max(largestState, JSON.stringify(combat._source.system.state).length);
      assert.deepEqual(combat._source.system.state, expected, "what Foundry stores is the core's state");
    }
    assert.ok(largestState <= 4096, `${largestState}`);
    console.log(`largest turn update: ${largest} bytes; largest stored state: ${largestState} bytes`);
    // Foundry's turn follows the open ICON turn
    const who = stateCombatants(expected).find(c => c.side === expected.next.side && c.turns > (c.taken ?? 0) + (c.slow ?? 0) && !c.delay);
    await combat.iconCommit([{ type: "beginTurn", id: who.id }]);
    assert.equal(combat.turn, combat.turns.findIndex(c => c.id === who.id));
  });

  test("turn starts run _onStartTurn, then clear the movement history of combatants with a token", async () => {
    const combat = combatOf([
      { id: "pc", actorType: "character", token: { id: "t1" } },
      { id: "foe", actorType: "foe" }
    ]);
    await combat.startCombat();
    await combat.iconCommit([{ type: "beginTurn", id: "pc" }, { type: "endTurn" }, { type: "beginTurn", id: "foe" }]);
    assert.deepEqual(combat.begun, ["pc", "foe"]);
    assert.deepEqual(combat.cleared, ["pc"], "core clears only a combatant with a token, after _onStartTurn");
  });

  test("after a turn change every client fires combatTurnChange; core's turn detection is not run", async () => {
    const combat = combatOf([{ id: "pc", actorType: "character" }, { id: "foe", actorType: "foe" }]);
    await combat.startCombat();
    Object.assign(combat, { previous: { round: 1, turn: null }, current: { round: 1, turn: 0 } });
    calls.length = 0;
    await combat._manageTurnEvents();
    assert.deepEqual(calls, ["hook:combatTurnChange"]);
    assert.deepEqual(combat.begun, [], "the turn workflows run from the reducer's effects only");
  });

  test("end of turn: regeneration when bloodied, hatred ends, then saves against what is left; summons leave", async () => {
    const { runCombatEffects } = await import("../../module/documents/combat-effects.mjs");
    const TacticalRolls = (await import("../../module/dice/tactical-rolls.mjs")).default;
    const heals = [];
    TacticalRolls.heal = async (actor, healing) => { heals.push([actor.name, healing]); return null; };
    const saves = [];
    globalThis.foundry.applications.handlebars = { renderTemplate: async (path, data) => data.text };
    globalThis.ChatMessage = { implementation: {
      create: async data => { saves.push(data.flags["icon-engine"].saves.statuses); }, getSpeaker: () => ({}) } };
    game.users = { filter: () => [] };
    /** An actor with ICON health and these statuses, whose status toggles take effect. */
    const actorOf = (name, hp, statuses) => ({
      name, type: "character", uuid: `Actor.${name}`,
      system: { hp: { value: hp, max: 40 }, vigor: { value: 0 }, armor: 0, wounds: 0 },
      effects: { contents: [] },
      get appliedEffects() { return statuses.map(id => ({ statuses: new Set([id.replace(/\+$/, "")]), flags: { "icon-engine": { ongoing: id.endsWith("+") } } })); },
      async toggleStatusEffect(id, { active }) { if (!active) statuses.splice(statuses.indexOf(id), 1); },
      testUserPermission: () => true,
      getFlag: () => undefined
    });
    const bloodied = actorOf("Ysolde", 12, ["regeneration", "hatred", "dazed"]);
    const healthy = actorOf("Brann", 35, ["regeneration", "hatred+"]);
    const combatants = new Map([["a", { id: "a", actor: bloodied, token: null }], ["b", { id: "b", actor: healthy, token: null }]]);
    const deleted = [];
    const combat = {
      round: 1, turns: [...combatants.values()], combatants: Object.assign(combatants, { [Symbol.iterator]: () => combatants.values() }),
      scene: { deleteEmbeddedDocuments: async (type, ids) => deleted.push([type, ids]) },
      deleteEmbeddedDocuments: async (type, ids) => deleted.push([type, ids])
    };
    const workflows = { startTurn: async () => {}, clearMovement: async () => {}, endTurn: async () => {}, startRound: async () => {}, endRound: async () => {} };
    await runCombatEffects(/** @type {any} */ (combat), [{ type: "turnEnded", id: "a" }, { type: "turnEnded", id: "b" }], workflows);
    assert.deepEqual(heals, [["Ysolde", "regeneration"]], "only the bloodied character regenerates");
    assert.deepEqual(bloodied.system.hp.value, 12);
    assert.deepEqual(saves, [["dazed"]], "hatred ended before the saves; an ongoing hatred+ is not saved against");
    // a defeated summoner's summons leave: their combatants, then their tokens on the combat's scene
    combatants.set("w", { id: "w", actor: null, token: { id: "tokW", parent: combat.scene } });
    await runCombatEffects(/** @type {any} */ (combat), [{ type: "summonsLeft", summoner: "a", ids: ["w", "gone"] }], workflows);
    assert.deepEqual(deleted, [["Combatant", ["w"]], ["Token", ["tokW"]]]);
  });

  test("a Combat stored before issue 18 shows converted and is stored converted on first use", async () => {
    const stored = oldState("combat-v1-midfight.json");
    const acting = stored.current.id;
    const combat = combatOf(stateCombatants(apply(stored, { type: "upgrade" }).state).map(c => ({ id: c.id, actorType: "foe" })), stored);
    const view = combat.iconState;
    assert.equal(view.v, 3);
    assert.equal(view.current.id, stored.current.id);
    assert.equal(combat.iconState, view, "converted once per stored state");
    assert.equal(await combat.iconUpgrade(), true);
    assert.deepEqual(combat._source.system.state, view, "stored converted, nothing else changed");
    assert.equal(await combat.iconUpgrade(), false, "already converted");
    // and the fight goes on from it, undo reaching back into the converted history
    await combat.iconCommit([{ type: "endTurn" }, { type: "undo" }, { type: "undo" }]);
    const now = combat._source.system.state;
    assert.equal(now.current.id, acting);
    assert.equal(stateCombatants(now).find(c => c.id === fid("ysolde")).delay, false, "the last old step (a delay) undone");
    assert.equal(now.logged - now.forgotten, 40, "the converted steps but the one undone");
  });

  test("the tracker: its own tracker context, core's header, no initiative entries, core's thumbnails, visibility", async () => {
    const tracker = new IconCombatTracker();
    const combat = combatOf([{ id: "pc", actorType: "character" }, { id: "foe", actorType: "foe" }]);
    await combat.startCombat();
    Object.assign(combat.turns[0], { thumb: "video-frame.webp", img: "token.webm", isOwner: true, hidden: false, visible: true,
      get iconFacts() { return { id: "pc", actorType: "character" }; } });
    Object.assign(combat.turns[1], { img: "foe.webp", isOwner: false, hidden: true, visible: false,
      get iconFacts() { return { id: "foe", actorType: "foe" }; } });
    Object.defineProperty(tracker, "viewed", { get: () => combat });
    game.user.isGM = false;
    calls.length = 0;
    const trackerPart = await tracker._preparePartContext("tracker", {}, {});
    assert.deepEqual(calls, ["part:tracker"], "core's turn rows are not built");
    assert.deepEqual(trackerPart.groups.flatMap(g => g.rows).map(r => [r.id, r.img]), [["pc", "video-frame.webp"]],
      "a hidden combatant the user does not own is not listed; the image is core's thumbnail");
    calls.length = 0;
    const header = await tracker._preparePartContext("header", {}, {});
    assert.equal(header.hasCombat, true);
    assert.equal(header.groups, undefined, "the header keeps core's context only");
    const footer = await tracker._preparePartContext("footer", {}, {});
    assert.equal(footer.hasCombat, true);
    assert.equal(footer.started, true);
    game.user.isGM = true;
    assert.deepEqual(tracker._getEntryContextOptions().map(o => o.name).slice(0, 3),
      ["COMBAT.CombatantUpdate", "COMBAT.CombatantClearMovementHistory", "COMBAT.CombatantRemove"]);
    assert.deepEqual(tracker._getCombatContextOptions().map(o => o.name), ["COMBAT.ClearMovementHistories", "COMBAT.Delete"]);
  });

  test("issue 41: each row's HP as the viewer may see it (the foeHp setting) and its statuses' icons", async () => {
    const tracker = new IconCombatTracker();
    const combat = combatOf([{ id: "pc", actorType: "character" }, { id: "foe", actorType: "foe" }]);
    await combat.startCombat();
    const effect = (name, statuses, img, flags = {}) => ({ name, img, statuses: new Set(statuses), flags });
    Object.assign(combat.turns[0], { img: "pc.webp", isOwner: true, hidden: false, visible: true,
      get iconFacts() { return { id: "pc", actorType: "character" }; },
      actor: { system: { hp: { value: 27, max: 40 }, derived: { bloodied: false } },
        appliedEffects: [effect("Dazed", ["dazed"], "dazed.svg"), effect("Sturdy", ["sturdy"], "sturdy.svg"), effect("Blessed", [], "aura.svg"),
          effect("Spark", [], "mark.svg", { "icon-engine": { mark: { mark: "Spark" } } })] } });
    Object.assign(combat.turns[1], { img: "foe.webp", isOwner: false, hidden: false, visible: true,
      get iconFacts() { return { id: "foe", actorType: "foe" }; },
      actor: { system: { hp: { value: 12, max: 64 }, derived: { bloodied: true } },
        appliedEffects: [effect("Weakened", ["weakened"], "weakened.svg"), effect("Weakened", ["weakened"], "weakened.svg"),
          effect("Defeated", ["defeated"], "dead.svg")] } });
    Object.defineProperty(tracker, "viewed", { get: () => combat });
    const rows = async () => Object.fromEntries((await tracker._preparePartContext("tracker", {}, {})).groups.flatMap(g => g.rows)
      .map(r => [r.id, { hp: r.health?.text ?? null, statuses: r.statuses.map(s => s.name) }]));
    try {
      game.user.isGM = true;
      assert.deepEqual(await rows(), { pc: { hp: "HP 27/40", statuses: ["Dazed", "Sturdy", "Spark"] }, foe: { hp: "HP 12/64", statuses: ["Weakened"] } },
        "the GM sees every HP; an effect with no status is not a status icon, a mark is; Defeated is the row's look; one icon per image");
      game.user.isGM = false;
      assert.deepEqual((await rows()).foe.hp, "Bloodied", "players, by default: the foe bloodied or not");
      assert.deepEqual((await rows()).pc.hp, "HP 27/40", "a player's own character: always");
      await game.settings.set("icon-engine", "foeHp", "never");
      assert.deepEqual((await rows()).foe.hp, null);
      await game.settings.set("icon-engine", "foeHp", "exact");
      assert.deepEqual((await rows()).foe.hp, "HP 12/64");
      await game.settings.set("icon-engine", "foeHp", "whatever a module wrote");
      assert.deepEqual((await rows()).foe.hp, "Bloodied", "an unknown value reads as the default");
    } finally {
      game.user.isGM = true;
      await game.settings.set("icon-engine", "foeHp", "bloodied");
    }
  });

  test("context menus in either generation's shape: core's initiative entries go, ours read and act", async () => {
    const tracker = new IconCombatTracker();
    const combat = combatOf([{ id: "pc", actorType: "character" }, { id: "foe", actorType: "foe" }]);
    const updates = [];
    combat.combatants.get("foe").update = data => updates.push(data);
    Object.defineProperty(tracker, "viewed", { get: () => combat });
    game.user.isGM = true;
    const li = /** @type {HTMLElement} */ (/** @type {unknown} */ ({ dataset: { combatantId: "foe" } }));
    try {
      for (const generation of [13, 14]) {
        game.release = { generation };
        const entries = tracker._getEntryContextOptions();
        const labels = entries.map(o => (generation >= 14 ? o.label : o.name));
        assert.deepEqual(labels, [...(generation >= 14 ? ["COMBATANT.ACTIONS.Update", "COMBATANT.ACTIONS.Remove"]
          : ["COMBAT.CombatantUpdate", "COMBAT.CombatantClearMovementHistory", "COMBAT.CombatantRemove"]),
          "ICONENGINE.Combat.sideChoice.auto", "ICONENGINE.Combat.sideChoice.party", "ICONENGINE.Combat.sideChoice.foes",
          "ICONENGINE.Combat.canSlow"], `v${generation}`);
        assert.deepEqual(tracker._getCombatContextOptions().map(o => (generation >= 14 ? o.label : o.name)),
          ["COMBAT.ClearMovementHistories", "COMBAT.Delete"], `v${generation}`);
        const party = entries.find(o => (generation >= 14 ? o.label : o.name) === "ICONENGINE.Combat.sideChoice.party");
        // v13: name, condition(li), callback(li); v14: label, visible(li), onClick(event, li), and none of v13's names
        if (generation >= 14) {
          assert.deepEqual(Object.keys(party).sort(), ["icon", "label", "onClick", "visible"]);
          assert.equal(party.visible(li), true);
          party.onClick(new Event("click"), li);
        } else {
          assert.deepEqual(Object.keys(party).sort(), ["callback", "condition", "icon", "name"]);
          assert.equal(party.condition(li), true);
          party.callback(li);
        }
      }
      assert.deepEqual(updates, [{ system: { side: "party" } }, { system: { side: "party" } }], "the side entry sets the side in both");
    } finally {
      delete game.release;
    }
  });
});
