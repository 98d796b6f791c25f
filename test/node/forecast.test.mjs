/**
 * The encounter forecast's wasm module (wasm/icon_forecast*, loaded only by a GM's forecast) from
 * JS: its fighters as module/forecast/fighters.mjs reads them from actors' data, its fights
 * replayed through the client core's `combatApply` and `resolve` (what the tracker and the cards
 * call) to the same turns and totals, the same seed giving the same report, and its bounds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import core from "../support/load-core.mjs";
import { abilityOf, fighterOf } from "../../module/forecast/fighters.mjs";
import { reportView } from "../../module/forecast/view.mjs";

const root = new URL("../../", import.meta.url);
const glue = new URL("wasm/icon_forecast.js", root);
const binary = new URL("wasm/icon_forecast_bg.wasm", root);
if (!existsSync(glue) || !existsSync(binary)) throw new Error("wasm/ is not built: run scripts/build.sh before the node tests");
const raw = await import(glue.href);
raw.initSync({ module: readFileSync(binary) });
const { loadForecast } = await import(new URL("module/forecast/forecast.mjs", root).href);
const forecast = await loadForecast();

/** An ability item as Foundry holds it (module/data/ability-data.mjs). */
const ability = (name, system) => ({ type: "ability", name, system: {
  actions: "1", tags: [], roll: { boons: 0, curses: 0, hitDice: 1, frayOnMiss: true, bonusDice: 0, pierce: false, divine: false, saveForHalf: false },
  attack: { trueStrike: false, autoHit: false, unerring: false, floor: false, critAgain: false, mark: "" },
  save: { enabled: false, boons: 0, curses: 0 }, area: { shape: "", size: 1 }, effects: [],
  charges: { value: 0, max: 0, recharge: "" }, limit: { per: "", used: 0 }, resolveCost: 0, ...system } });

const effect = (status, more = {}) => ({ trigger: "hit", gamble: 4, to: "target", status, duration: "save", mark: "", move: { kind: "", spaces: 1 },
  movement: "", text: "", ...more });

const character = (id, more = {}) => fighterOf({
  id, entry: { side: "party", isPlayerCharacter: true, template: null, canSlow: true },
  system: { hp: { value: 30, max: 30 }, vigor: { value: 4, max: 8 }, armor: 0, wounds: 0, resolve: 2, defense: 9, damageDie: 8, fray: 3, ...more },
  statuses: [],
  items: [
    ability("Crushing blow", { actions: "2", tags: ["attack"], roll: { ...ability("", {}).system.roll, hitDice: 2 }, effects: [effect("dazed")] }),
    ability("Flame wave", { tags: ["attack", "area"], area: { shape: "line", size: 4 }, roll: { ...ability("", {}).system.roll, saveForHalf: true },
      save: { enabled: true, boons: 0, curses: 1 }, charges: { value: 1, max: 1, recharge: "round" } }),
    ability("Last stand", { actions: "2", tags: ["attack", "limitBreak"], resolveCost: 3, roll: { ...ability("", {}).system.roll, hitDice: 4 } }),
    ability("Lucky shot", { tags: ["attack"], effects: [effect("vulnerable", { trigger: "gamble", gamble: 5 })] }),
    { type: "trait", name: "not an ability", system: {} }
  ]
});

const foe = (id, more = {}, template = null) => fighterOf({
  id, entry: { side: "foes", isPlayerCharacter: false, template, canSlow: false },
  system: { hp: { value: 20, max: 20 }, vigor: { value: 0, max: 0 }, armor: 1, wounds: 0, defense: 8, damageDie: 6, fray: 2, canCrit: false, ...more },
  statuses: [],
  items: [ability("Claws", { tags: ["attack"], effects: [effect("weakened", { duration: "turn" })] })]
});

const request = (fights, seed) => ({
  fighters: [character("ana"), character("bo", { hp: { value: 14, max: 30 } }), foe("wolf1"), foe("wolf2"), foe("alpha", { hp: { value: 30, max: 30 } }, "elite")],
  options: { fights, seed, policy: { party: "rescue", foes: "threat" } }
});

test("an ability's structured data becomes the forecast's, and what is not an ability is left out", () => {
  const f = character("ana");
  assert.equal(f.abilities.length, 4);
  assert.deepEqual(f.abilities[0].attack.dice, 2);
  assert.deepEqual(f.abilities[0].parts, [{ trigger: "hit", gamble: null, to: "target", status: "dazed", duration: "save" }]);
  assert.equal(f.abilities[1].area, true);
  assert.deepEqual(f.abilities[1].save, { boons: 0, curses: 1 });
  assert.equal(f.abilities[1].attack.saveForHalf, true);
  assert.equal(f.abilities[2].resolveCost, 3);
  assert.equal(f.abilities[3].parts[0].gamble, 5);
  assert.equal(f.canCrit, true);
  assert.equal(foe("x").canCrit, false, "a foe cannot crit unless noted");
  assert.equal(abilityOf({ type: "trait", name: "t", system: {} }), null);
  // a status an effect does not name is no part; an unknown tag is dropped
  assert.deepEqual(abilityOf(ability("x", { tags: ["attack", "bogus"], effects: [effect("")] })).tags, ["attack"]);
});

test("the same seed plays the same forecast; its figures add up", async () => {
  const a = await forecast.runInBatches(request(400, 1234), { batch: 150 });
  const b = await forecast.run(request(400, 1234));
  assert.deepEqual(a, b, "batches of 150 and one run play the same fights");
  assert.equal(a.fights, 400);
  assert.equal(a.seed, 1234);
  assert.ok(Math.abs(a.party.p + a.foes.p + a.unfinished.p - 1) < 1e-12);
  const ended = a.rounds.distribution.reduce((s, r) => s + r.p, 0);
  assert.ok(Math.abs(ended + a.rounds.unfinished.p - 1) < 1e-12);
  for (const f of a.fighters) {
    assert.ok(f.defeated.lo <= f.defeated.p && f.defeated.p <= f.defeated.hi);
    assert.ok(f.perRound.value >= 0);
  }
  // the foes' shares of their damage add up to 1
  const shares = a.fighters.filter(f => f.side === "foes").reduce((s, f) => s + (f.share?.p ?? 0), 0);
  assert.ok(Math.abs(shares - 1) < 1e-9, String(shares));
  // exact figures are fractions that are their values
  const [n, d] = a.sides.foes.perRound.exact.split("/").map(Number);
  assert.ok(Math.abs(n / d - a.sides.foes.perRound.value) < 1e-12);
  const c = await forecast.run(request(400, 1235));
  assert.notDeepEqual(c.party, a.party);
  // the dialog's view says every figure in words
  const view = reportView(a, new Map([["ana", "Ana"], ["alpha", "Alpha"]]));
  assert.equal(view.defeat.length, 2);
  assert.equal(view.threat.length, 3);
  assert.equal(view.defeat[0].name, "Ana");
  assert.match(view.party.text, /^\d+\.\d%$/);
});

test("a forecast's fight replays through the tracker's combatApply and the cards' resolve to the same turns and totals", () => {
  let rolls = 0, rules = 0, kinds = new Set();
  for (const fight of [0, 1, 2, 3, 5, 8, 13, 21]) {
    const t = forecast.trace(request(30, 77), fight);
    assert.equal(t.fight, fight);
    let state = null;
    for (const step of t.steps) {
      if (step.type === "combat") {
        state = core.combatApply(state, step.event).state;
      } else if (step.type === "roll") {
        const done = core.resolve(step.request, step.faces);
        assert.equal(done.status ?? "done", "done");
        assert.equal(done.total, step.total, `${step.request.kind} by ${step.by}`);
        rolls++;
        kinds.add(step.request.kind);
      } else if (step.type === "rule") {
        assert.equal(core.resolve(step.request, []).total, step.total, step.request.kind);
        rules++;
        kinds.add(step.request.kind);
      }
    }
    // the tracker's state marks defeated whom the fight left defeated
    const rows = Object.values(state.combatants);
    for (const f of t.fighters) {
      const row = rows.find(r => (Array.isArray(r) ? r[0] : r.id) === f.id);
      assert.ok(row, f.id);
    }
    assert.equal(JSON.stringify(forecast.trace(request(30, 77), fight)), JSON.stringify(t), "the same fight again");
  }
  assert.ok(rolls > 50 && rules > 20, `${rolls} rolls, ${rules} rules`);
  for (const kind of ["icon.attack", "icon.damage", "icon.save", "icon.applyDamage", "icon.ability"]) assert.ok(kinds.has(kind), kind);
});

test("bounds are refused with a clear error", async () => {
  await assert.rejects(forecast.run({ ...request(1, 1), options: { fights: 100_001 } }), /1 to 100000 fights/);
  await assert.rejects(forecast.run({ fighters: [], options: {} }), /at least one fighter/);
  await assert.rejects(forecast.run({ fighters: request(1, 1).fighters.slice(0, 2), options: {} }), /each side/);
  const many = Array.from({ length: 65 }, (_, i) => ({ ...foe(`f${i}`) }));
  await assert.rejects(forecast.run({ fighters: many, options: {} }), /at most 64 fighters/);
  await assert.rejects(forecast.run({ ...request(1, 1), combat: "{}" }), /combat state/);
  assert.throws(() => forecast.trace(request(5, 1), 5), /no fight 5/);
});
