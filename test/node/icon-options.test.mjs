/**
 * Issue 27 on the JS side, against the built wasm core: the attack options (True Strike,
 * Auto-Hit, a floor at 1 HP, a repeated critical hit, a mark, the range) from their one builder
 * through the attack dialog's context and odds, the cards, the damage options; marks, tokens,
 * limit breaks, inflicting statuses and the narrative state's new fields. Expected values are
 * computed here by enumerating the dice, or are the seed's (icon-rules-reference.db).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import * as requests from "../../module/dice/tactical-requests.mjs";
import * as cards from "../../module/dice/cards/icon-tactical.mjs";
import { endedEffects, markEffectData, marksOf } from "../../module/data/marks.mjs";
import { tokensOf, tokensUpdate } from "../../module/data/tokens.mjs";
import { tacticalSheetContext } from "../../module/applications/sheets/tactical-context.mjs";
import { applyNarrative, narrativeNotices, narrativeStateOf } from "../../module/applications/narrative/narrative-state.mjs";
import { lookup } from "../support/lang.mjs";

/** gcd-reduced "n/d", as the core prints exact probabilities. */
function fraction(n, d) {
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  const g = gcd(n, d) || 1;
  return `${n / g}/${d / g}`;
}

/** Exact P(d20 + bonus ≥ k) as [hits, 20]. */
const d20AtLeast = (bonus, k) => [Array.from({ length: 20 }, (_, i) => i + 1 + bonus).filter(t => t >= k).length, 20];

const stormbender = { type: "character", name: "Ysolde", uuid: "Actor.y", system: { damageDie: 8, fray: 4 } };
const target = (over = {}) => ({ uuid: "Actor.foe", name: "Goblin", img: "", defense: 12, evasion: false, heightDifference: 0, cover: false,
  adjacent: false, hated: false, stealth: false, distance: null, statuses: [], summon: false, ...over });

describe("attack options (issue 27, points 6-8 and 12)", () => {
  test("attackOptions reads the agreed names, and nothing else", () => {
    assert.deepEqual(requests.attackOptions(undefined), requests.NO_ATTACK_OPTIONS);
    assert.deepEqual(requests.attackOptions({ trueStrike: true, autoHit: true, floor: 1, critAgain: true, mark: "  Immolate ", range: "5",
      unerring: true, bogus: 1 }), { trueStrike: true, autoHit: true, floor: true, critAgain: true, mark: "Immolate", range: 5, unerring: true });
    // truthy strings are not booleans; a blank range is none
    assert.deepEqual(requests.attackOptions({ trueStrike: "yes", floor: 2, range: "" }), requests.NO_ATTACK_OPTIONS);
  });

  test("the dialog starts from an ability's system.attack and the caller's options", () => {
    const ability = { system: { roll: { hitDice: 1 }, tags: ["attack", "combo"], attack: { trueStrike: true } } };
    const state = requests.initialAttackState({ ability, options: { autoHit: true }, attackerStatuses: ["blind"] });
    assert.deepEqual([state.trueStrike, state.autoHit, state.combo, state.blind], [true, true, true, true]);
    const read = requests.readAttackForm(state, { trueStrike: "on", floor: "on", mark: "Hex", range: "3" });
    assert.deepEqual([read.trueStrike, read.autoHit, read.floor, read.mark, read.range, read.blind], [true, false, true, "Hex", 3, false]);
  });

  // "Evasion: Roll a d6 when attacked. On a 4+, the attack automatically misses."
  // "True Strike: Ignores dodge, blind, evasion, and stealth."
  test("True Strike doubles back the P(hit) a target's Evasion halves, exactly", () => {
    const state = requests.initialAttackState({ targets: [target({ evasion: true })] });
    const plain = requests.attackDialogContext(core, state, requests.attackerOf(stormbender)).rows[0];
    const [hits, all] = d20AtLeast(0, 12);
    assert.equal(plain.hit.exact, fraction(hits, 2 * all));
    assert.equal(plain.evaded.exact, "1/2");
    assert.equal(plain.evading, true);
    const strike = requests.attackDialogContext(core, { ...state, trueStrike: true }, requests.attackerOf(stormbender)).rows[0];
    assert.equal(strike.hit.exact, fraction(hits, all));
    assert.equal(strike.evaded, null);
    assert.equal(strike.hit.p, 2 * plain.hit.p);
  });

  // "Auto-Hit: This attack doesn't make an attack roll but always scores a hit (not critical hit or miss)."
  test("Auto-Hit: no roll, P(hit) 1, no crit, no exceed; the request carries no boons", () => {
    const state = { ...requests.initialAttackState({ targets: [target({ defense: 30 })] }), autoHit: true, boons: 2 };
    const { request } = requests.attackRequest(core, state, requests.attackerOf(stormbender), state.targets[0]);
    assert.equal("boons" in request, false);
    assert.deepEqual(core.plan(request), []);
    const row = requests.attackDialogContext(core, state, requests.attackerOf(stormbender)).rows[0];
    assert.deepEqual([row.hit.exact, row.crit.exact, row.exceed.exact, row.netLabel], ["1/1", "0/1", "0/1", "—"]);
    const outcome = core.resolve(request, []);
    assert.equal(requests.attackResult(outcome), "hit");
    const card = cards.attackContext(outcome, request, { tactical: { role: "attack", key: 0, target: null } });
    assert.deepEqual([card.autoHit, card.dice, card.result], [true, [], "hit"]);
  });

  test("the attack card shows the Evasion d6 first and says Evaded", () => {
    const state = requests.initialAttackState({ targets: [target({ evasion: true })] });
    const { request } = requests.attackRequest(core, { ...state, boons: 1 }, requests.attackerOf(stormbender), state.targets[0]);
    const outcome = core.resolve(request, [[5], [18], [4]]);
    const card = cards.attackContext(outcome, request, { tactical: { role: "attack", key: 0, target: state.targets[0] } });
    assert.deepEqual(card.evasionDice.map(d => d.face), [5]);
    assert.deepEqual(card.dice.map(d => d.face), [18, 4]);
    assert.deepEqual([card.evaded, card.result], [true, "miss"]);
    for (const key of ["ICONENGINE.Tactical.Evaded", "ICONENGINE.Rules.AutoHit", "ICONENGINE.Rules.TrueStrike", "ICONENGINE.Rules.Floor",
      "ICONENGINE.Rules.CritAgain"]) assert.equal(typeof lookup(key), "string", key);
  });

  // Shove: "taking damage equal to shove amount, which cannot reduce them below 1 hp"
  test("a floor at 1 HP goes from the dialog to the damage card and the core holds it", () => {
    const state = { ...requests.initialAttackState(), floor: true };
    const apply = requests.damageOptions(state, "hit", false);
    assert.equal(apply.floor, 1);
    const card = cards.damageContext({ result: "hit", kept: [8], dropped: [], fray: 4, flat: 0, faces: [[8]], total: 12 },
      { kind: "icon.damage", result: "hit", die: 8, fray: 4 }, { tactical: { role: "damage", key: 0, target: target(), apply } });
    assert.equal(card.floor, true);
    const done = core.resolve(requests.applyDamageRequest({ hp: 10, maxHp: 40, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: true,
      statuses: [] }, 12, apply), []);
    assert.deepEqual([done.target.hp, done.target.defeated, done.total], [1, false, 9]);
  });

  // "Critical hits don't stack, if you critical hit again, you gain bonus damage."
  test("a critical hit again adds one bonus die, only to critical hits", () => {
    const state = { ...requests.initialAttackState(), critAgain: true };
    const attacker = requests.attackerOf(stormbender);
    assert.equal(requests.damageRequest(state, attacker, "crit").critAgain, true);
    assert.equal(requests.damageRequest(state, attacker, "hit").critAgain, false);
    assert.deepEqual(core.plan(requests.damageRequest(state, attacker, "crit")).map(d => d.count), [3]);
  });

  // "Blind: Reduces the maximum range of all your abilities to 2." "Stealth: ... cannot be directly
  // targeted except from an adjacent space."
  test("Blind's range and Stealth mark rows untargetable, and the plan skips them; True Strike ignores both", () => {
    const state = { ...requests.initialAttackState({ attackerStatuses: ["blind"], targets: [target({ distance: 4 }),
      target({ uuid: "Actor.s", stealth: true }), target({ uuid: "Actor.n", distance: 2 })] }), range: 6 };
    const context = requests.attackDialogContext(core, state, requests.attackerOf(stormbender));
    assert.deepEqual(context.rows.map(r => r.untargetable), ["range", "stealth", null]);
    assert.equal(context.maxRange, 2);
    for (const row of context.rows) if (row.untargetableLabel) assert.equal(typeof lookup(row.untargetableLabel), "string");
    assert.deepEqual(requests.planAttack(core, state, requests.attackerOf(stormbender)).map(p => p.untargetable), ["range", "stealth", null]);
    const strike = requests.planAttack(core, { ...state, trueStrike: true }, requests.attackerOf(stormbender));
    assert.deepEqual(strike.map(p => p.untargetable), [null, null, null]);
  });

  // "Hatred of X: ... End this status ... if foe X becomes immune to damage or un-targetable."
  test("the hated foe's row says when Hatred ends", () => {
    const state = requests.initialAttackState({ attackerStatuses: ["hatred"], targets: [target({ hated: true, statuses: ["intangible"] }), target()] });
    const rows = requests.attackDialogContext(core, state, requests.attackerOf(stormbender)).rows;
    assert.deepEqual(rows.map(r => r.hatredEnds), ["ICONENGINE.Rules.HatredEnds.intangible", null]);
    assert.equal(typeof lookup(rows[0].hatredEnds), "string");
    assert.equal(requests.hatredEnd(core, target({ statuses: ["dazed"] })), null);
  });
});

describe("marks, tokens and limit breaks on the module's data (issue 27, points 9 and 12)", () => {
  // "Marks end when the character that placed the mark is defeated"
  test("marks stored on effects go through the core: the placer's defeat ends them", () => {
    const actors = [
      { uuid: "Actor.ogre", effects: [{ id: "e1", flags: { "icon-engine": { mark: { mark: "Immolate", placer: "Actor.ana" } } } },
        { id: "e2", flags: { "icon-engine": { mark: { mark: "Brand", placer: "Actor.bo" } } } }, { id: "e3", flags: {} }] },
      { uuid: "Actor.wolf", effects: [{ id: "e4", flags: { "icon-engine": { mark: { mark: "Hex", placer: "Actor.ana" } } } }] }
    ];
    const stored = marksOf(actors, "icon-engine");
    assert.equal(stored.length, 3);
    const answer = core.resolve({ kind: "icon.marks", marks: stored.map(s => s.mark), event: { type: "defeated", id: "Actor.ana" } }, []);
    assert.deepEqual(endedEffects(stored, answer.ended).map(s => s.effectId).sort(), ["e1", "e4"]);
    // placing Immolate on the wolf ends ana's Hex there and her Immolate on the ogre
    const placed = core.resolve({ kind: "icon.marks", marks: stored.map(s => s.mark),
      event: { type: "place", mark: { mark: "Immolate", placer: "Actor.ana", target: "Actor.wolf" } } }, []);
    assert.deepEqual(endedEffects(stored, placed.ended).map(s => s.effectId).sort(), ["e1", "e4"]);
    const data = markEffectData({ mark: "Immolate", placer: "Actor.ana", target: "Actor.wolf" }, "Ana", "icon-engine",
      (key, d) => `${key}:${d.mark}/${d.placer}`, "x.svg");
    assert.deepEqual([data.statuses, data.flags["icon-engine"].mark], [["marked"], { mark: "Immolate", placer: "Actor.ana", placerName: "Ana" }]);
    assert.equal(marksOf([{ uuid: "Actor.wolf", effects: [{ id: "m", flags: data.flags }] }], "icon-engine")[0].mark.mark, "Immolate");
  });

  test("tokens: the sheet's data through icon.tokens and back; the sheet lists them", () => {
    const system = { blessings: 2, combo: false, powerDice: [{ ability: "Storm", ticks: 6 }] };
    const tokens = tokensOf(system);
    const spent = core.resolve({ kind: "icon.tokens", tokens, event: { type: "spendBlessing" } }, []);
    assert.deepEqual(tokensUpdate(spent.tokens), { "system.blessings": 1, "system.combo": false, "system.powerDice": [{ ability: "Storm", ticks: 6 }] });
    const combo = core.resolve({ kind: "icon.tokens", tokens, event: { type: "useCombo" } }, []);
    assert.deepEqual(combo.effects, [{ type: "baseVersion" }]);
    const gone = core.resolve({ kind: "icon.tokens", tokens, event: { type: "endCombat" } }, []);
    assert.deepEqual(gone.tokens, { blessings: 0, combo: false, powerDice: [] });
    const sheet = tacticalSheetContext({ items: [], statuses: [], saveable: [], system, isCharacter: true });
    assert.deepEqual([sheet.tokens.blessings, sheet.tokens.powerDice[0].canTickUp, sheet.terrainDamage, sheet.isCharacter], [2, false, 2, true]);
    assert.deepEqual(tokensOf({}), { blessings: 0, combo: false, powerDice: [] });
  });

  test("a blessing on a save is +1 boon", () => {
    assert.deepEqual(requests.saveRequest({ blessing: true }), { kind: "icon.save", boons: 0, curses: 0, bonus: 0, blessing: true });
    assert.equal(core.odds(requests.saveRequest({ blessing: true })).exact.outcomes.success,
      core.odds(requests.saveRequest({ boons: 1 })).exact.outcomes.success);
  });

  test("inflicting a status: Sealed and Unstoppable stop it", () => {
    const blocked = core.resolve({ kind: "icon.inflict", status: "dazed", inflicter: ["sealed"], target: [] }, []);
    assert.deepEqual([blocked.inflicted, blocked.blockedBy], [false, "sealed"]);
    for (const key of ["sealed", "unstoppable", "intangible"]) assert.equal(typeof lookup(`ICONENGINE.Rules.Blocked.${key}`), "string");
  });
});

describe("the narrative state's new fields (issue 27, points 3 and 5)", () => {
  const system = {
    strain: { value: 0, max: 5 }, actions: { smash: 3, tinker: 2, charm: 1, study: 1, endure: 2 },
    burdens: [
      { name: "a", actions: { first: "smash", second: "tinker" }, clock: 4, filled: 4 },
      { name: "b", actions: { first: "charm", second: "study" }, clock: 4, filled: 4 },
      { name: "c", actions: { first: "endure", second: "smash" }, clock: 4, filled: 4 }
    ],
    broken: false, brokenForExpedition: false, burdenPending: false, sitsOutNextExpedition: false, limitBreakUsed: true
  };

  test("broken with three burdens: the end of the expedition writes who sits out the next one", () => {
    const broke = applyNarrative(system, { type: "takeStrain", amount: 9 });
    assert.equal(broke.state.brokenForExpedition, true);
    const next = { ...system, ...Object.fromEntries(Object.entries(broke.update).map(([k, v]) => [k.replace("system.", ""), v])),
      strain: { value: broke.state.strain, max: 5 } };
    // a second break in the scene asks for nothing
    assert.deepEqual(applyNarrative(next, { type: "takeStrain", amount: 9 }).effects, []);
    const ended = applyNarrative(next, { type: "endExpedition" });
    assert.equal(ended.update["system.sitsOutNextExpedition"], true);
    assert.equal(ended.update["system.limitBreakUsed"], false, "a limit break is used for an expedition");
    const { notices } = narrativeNotices(ended.effects, "Ysolde");
    assert.deepEqual(notices.map(n => n.key), ["ICONENGINE.Narrative.Recovered", "ICONENGINE.Rules.Narrative.SitsOut"]);
    for (const n of notices) assert.equal(typeof lookup(n.key), "string");
    assert.equal(narrativeStateOf({ ...system, sitsOutNextExpedition: true }).sitsOutNextExpedition, true);
  });
});
