/**
 * ICON tactical combat on the JS side, against the built wasm core: the pure request builders
 * and attack-dialog context (module/dice/tactical-requests.mjs), the chat-card contexts
 * (module/dice/cards/icon-tactical.mjs), the health mapping with its undo
 * (module/data/health-changes.mjs) and the sheets' tactical block. Expected values are computed
 * independently here (enumeration of the dice) or taken from the seed's worked cases.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import * as requests from "../../module/dice/tactical-requests.mjs";
import * as cards from "../../module/dice/cards/icon-tactical.mjs";
import { rollCardFor } from "../../module/dice/roll-cards.mjs";
import { applyToSystem, endOfTurnEffectIds, healthChange, statusEffectData } from "../../module/data/health-changes.mjs";
import { tacticalSheetContext } from "../../module/applications/sheets/tactical-context.mjs";
import { lookup } from "../support/lang.mjs";

/** gcd-reduced "n/d", as the core prints exact probabilities. */
function fraction(n, d) {
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  const g = gcd(n, d) || 1;
  return `${n / g}/${d / g}`;
}

/** Exact P(d20 + sign·(highest of n d6) + bonus ≥ k), by enumerating every face. */
function pAtLeast(n, sign, bonus, k) {
  let hits = 0;
  let all = 0;
  const sixes = 6 ** n;
  for (let d20 = 1; d20 <= 20; d20++) {
    for (let code = 0; code < sixes; code++) {
      let c = code;
      let best = 0;
      for (let i = 0; i < n; i++) {
        best = Math.max(best, (c % 6) + 1);
        c = Math.floor(c / 6);
      }
      all++;
      if (d20 + sign * best + bonus >= k) hits++;
    }
  }
  return fraction(hits, all);
}

const stormbender = { type: "character", name: "Ysolde", uuid: "Actor.ysolde", system: { damageDie: 8, fray: 3 } };
const target = (over = {}) => ({ uuid: "Actor.foe", name: "Goblin", img: "", defense: 12, evasion: false, heightDifference: 0, cover: false, ...over });

describe("attack requests and dialog odds", () => {
  test("the dialog's P(hit), P(crit), P(exceed) per target equal enumeration, and follow the form", () => {
    const attacker = requests.attackerOf(stormbender);
    assert.deepEqual(attacker, { uuid: "Actor.ysolde", name: "Ysolde", die: 8, fray: 3, canCrit: true });
    let state = requests.initialAttackState({ targets: [target(), target({ name: "Ogre", uuid: "Actor.ogre", defense: 18 })] });
    let ctx = requests.attackDialogContext(core, state, attacker);
    assert.equal(ctx.rows.length, 2);
    assert.equal(ctx.rows[0].hit.exact, pAtLeast(0, 1, 0, 12));
    assert.equal(ctx.rows[0].hit.exact, "9/20");
    assert.equal(ctx.rows[1].crit.exact, "1/20");
    // two boons, from the form
    state = requests.readAttackForm(state, { boons: "2", curses: "0", bonus: "0", dice: "1", bonusDice: "0", frayOnMiss: true, rollMode: "publicroll" });
    ctx = requests.attackDialogContext(core, state, attacker);
    assert.equal(ctx.rows[0].netLabel, "+2");
    assert.equal(ctx.rows[0].hit.exact, pAtLeast(2, 1, 0, 12));
    assert.equal(ctx.rows[1].hit.exact, pAtLeast(2, 1, 0, 18));
    assert.equal(ctx.rows[1].exceed.exact, pAtLeast(2, 1, 0, 15));
    assert.equal(ctx.rows[1].crit.exact, pAtLeast(2, 1, 0, 20));
    assert.equal(ctx.rows[0].hit.text, `${(100 * ctx.rows[0].hit.p).toFixed(2)}%`);
    // a curse, a bonus, and the second target one level higher (+1 curse): net 0 with bonus 1
    state = requests.readAttackForm(state, { boons: 2, curses: 1, bonus: 1, dice: 1, bonusDice: 0, "targets.1.heightDifference": -1 });
    ctx = requests.attackDialogContext(core, state, attacker);
    assert.equal(ctx.rows[0].hit.exact, pAtLeast(1, 1, 1, 12));
    assert.equal(ctx.rows[1].netLabel, "0");
    assert.equal(ctx.rows[1].hit.exact, pAtLeast(0, 1, 1, 18));
    // unchecked checkboxes are absent from form data: frayOnMiss is now off
    assert.equal(state.frayOnMiss, false);
  });

  test("situation: ranged with a foe adjacent, height, cover, and a dazed attacker", () => {
    const attacker = requests.attackerOf(stormbender);
    const base = requests.initialAttackState({ targets: [target({ cover: true })] });
    const ranged = { ...base, ranged: true, foeAdjacent: true };
    let r = requests.attackRequest(core, ranged, attacker, ranged.targets[0]);
    assert.deepEqual([r.request.boons, r.request.curses, r.cover], [0, 1, true]);
    // a lower target: a boon per level and cover is ignored
    r = requests.attackRequest(core, ranged, attacker, { ...ranged.targets[0], heightDifference: 2 });
    assert.deepEqual([r.request.boons, r.request.curses, r.cover], [2, 1, false]);
    // melee ignores cover; the dazed attacker's curse comes from its own status
    const dazed = requests.initialAttackState({ attackerStatuses: ["dazed+", "weakened"], targets: [target({ cover: true })] });
    assert.deepEqual([dazed.dazed, dazed.weakened], [true, true]);
    r = requests.attackRequest(core, dazed, attacker, dazed.targets[0]);
    assert.deepEqual([r.request.curses, r.cover], [1, false]);
    // a foe cannot crit unless noted
    const foe = requests.attackerOf({ type: "foe", name: "Ogre", system: { damageDie: 6, fray: 4, canCrit: false } });
    assert.equal(requests.attackRequest(core, base, foe, null).request.canCrit, false);
    assert.equal(requests.attackDialogContext(core, base, foe).rows[0].crit.exact, "0/1");
  });

  test("plan: evasion first for targets with Evasion; results and damage of each outcome", () => {
    const attacker = requests.attackerOf(stormbender);
    const state = requests.initialAttackState({ heavy: true, targets: [target({ evasion: true }), target({ uuid: "Actor.b" })] });
    const plan = requests.planAttack(core, state, attacker);
    // the target's Evasion d6 is its attack's first die ("Check before the attack roll")
    assert.deepEqual(plan.map(p => p.attack.evasion), [true, false]);
    assert.deepEqual(core.plan(plan[0].attack).map(d => d.role), ["evasion", "d20"]);
    assert.equal(core.resolve(plan[0].attack, [[4], [20]]).evaded, true);
    assert.equal(requests.attackResult(core.resolve(plan[0].attack, [[4], [20]])), "miss");
    assert.equal(requests.attackResult(core.resolve(plan[0].attack, [[3], [20]])), "crit");
    assert.equal(requests.attackResult(null, true), "miss");
    const crit = core.resolve(plan[1].attack, [[20]]);
    assert.equal(requests.attackResult(crit), "crit");
    assert.equal(requests.attackResult(core.resolve(plan[1].attack, [[11]])), "miss");
    assert.equal(requests.attackResult(core.resolve({ kind: "icon.attack" }, [[5]])), "hit", "no defense: a hit");
    // heavy: 2[D]; a miss deals fray, or nothing when the ability has no fray on a miss
    assert.deepEqual(requests.damageRequest(state, attacker, "hit"), { kind: "icon.damage", result: "hit", die: 8, dice: 2, fray: 3, bonusDice: 0,
      critAgain: false });
    assert.equal(core.resolve(requests.damageRequest(state, attacker, "miss"), []).total, 3);
    assert.equal(requests.damageRequest({ ...state, frayOnMiss: false }, attacker, "miss"), null);
    assert.deepEqual(requests.damageOptions({ ...state, pierce: true, weakened: true }, "miss", true),
      { source: "miss", pierce: true, divine: false, attackerWeakened: true, attackerPacified: false, attackerHatred: false, cover: true,
        floor: 0, trueStrike: false });
  });

  test("an ability's roll data seeds the dialog: the Stormbender heavy crit with bonus damage", () => {
    const ability = { system: { roll: { hitDice: 2, bonusDice: 1, frayOnMiss: true, pierce: false, divine: false } } };
    const state = requests.initialAttackState({ ability });
    const request = requests.damageRequest(state, requests.attackerOf(stormbender), "crit");
    assert.deepEqual(core.plan(request).map(d => [d.count, d.notation]), [[4, "d8"]]);
    const done = core.resolve(request, [[2, 7, 8, 5]]);
    assert.equal(done.total, 7 + 8 + 5 + 3);
    const card = cards.damageContext(done, request, { tactical: { role: "damage", key: 0, target: { uuid: "Actor.foe", name: "Goblin" } } });
    assert.deepEqual(card.dice.map(d => [d.face, d.discarded]), [[7, false], [8, false], [5, false], [2, true]]);
    assert.equal(card.canApply, true);
    assert.equal(card.resultLabel, "ICONENGINE.Tactical.Result.crit");
  });
});

describe("tactical cards", () => {
  test("every tactical kind has a card, and its labels exist", () => {
    for (const kind of ["icon.attack", "icon.evasion", "icon.damage", "icon.save", "icon.heal"]) {
      assert.ok(rollCardFor(kind)?.template.includes("templates/chat/tactical-"), kind);
    }
    for (const key of ["hit", "crit", "miss"]) assert.equal(typeof lookup(`ICONENGINE.Tactical.Result.${key}`), "string");
  });

  test("attack card: the d20, the counted boon die, hit/crit/exceed against the target", () => {
    const request = { kind: "icon.attack", boons: 2, curses: 0, bonus: 1, defense: 14, canCrit: true };
    const done = core.resolve(request, [[13], [2, 5]]);
    const card = cards.attackContext(done, request, { tactical: { key: 3, target: { uuid: "Actor.foe", name: "Goblin", defense: 14 } } });
    assert.equal(done.total, 19);
    assert.deepEqual(card.dice.map(d => [d.face, d.cls, d.discarded]), [[13, "d20", false], [2, "d6 boon", true], [5, "d6 boon", false]]);
    assert.deepEqual([card.result, card.exceed, card.defense, card.key, card.extra], ["hit", true, 14, 3, "boon"]);
    const miss = core.resolve({ ...request, boons: 0, curses: 1 }, [[10], [4]]);
    assert.equal(cards.attackContext(miss, { ...request, boons: 0, curses: 1 }, {}).result, "miss");
  });

  test("save and heal cards; every step the core reports has a label", () => {
    const save = core.resolve(requests.saveRequest(), [[10]]);
    const card = cards.saveContext(save, requests.saveRequest(), { tactical: { status: { id: "dazed", name: "Dazed" } } });
    assert.deepEqual([card.success, card.status.id], [true, "dazed"]);
    const t = { hp: 15, maxHp: 40, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: true, statuses: ["dazed", "weakened+"] };
    const heal = core.resolve(requests.healRequest(t, "cure"), []);
    const h = cards.healContext(heal, requests.healRequest(t, "cure"), {});
    assert.deepEqual([h.vigor, h.saves.map(s => s.id)], [10, ["dazed"]]);
    const rules = new Set();
    for (const healing of ["cure", "regeneration", "rescue", "endCombat", "rest", "camp"]) {
      const target = healing === "rescue" ? { ...t, hp: 0, statuses: ["incapacitated"] } : t;
      for (const step of core.resolve(requests.healRequest(target, healing), []).steps) rules.add(step.rule);
    }
    for (const [amount, statuses, extra] of [[9, ["immune"], {}], [3, ["dodge"], { source: "miss" }], [9, ["vulnerable", "resistant"], { attackerWeakened: true }],
      [30, ["defiance"], {}], [30, [], {}], [9, ["shattered"], { cover: true }]]) {
      const target = { hp: 10, maxHp: 40, vigor: 4, armor: 1, wounds: 3, isPlayerCharacter: true, statuses };
      const done = core.resolve({ kind: "icon.applyDamage", target, amount, source: "hit", ...extra }, []);
      for (const step of done.steps) rules.add(step.rule);
    }
    for (const rule of rules) assert.equal(typeof lookup(`ICONENGINE.Tactical.Step.${rule}`), "string", rule);
    assert.ok(rules.has("fallen") && rules.has("defiance") && rules.has("cover"));
  });
});

describe("applying damage to an actor's data, and undoing it", () => {
  const system = (over = {}) => ({ hp: { value: 30, max: 40 }, vigor: { value: 3, max: 10 }, wounds: 0, armor: 2, defense: 7, ...over });

  test("the worked case: 9 into armor 2, resistant, vigor 3 → vigor 0, HP −1; undo restores", () => {
    const actor = { type: "character", system: system(), effects: [{ id: "e1", statuses: ["resistant"], data: { _id: "e1", statuses: ["resistant"] } }] };
    const statuses = ["resistant"];
    const request = requests.applyDamageRequest(requests.coreTarget(actor, statuses), 9, { source: "hit", pierce: false, divine: false, attackerWeakened: false, cover: false });
    const done = core.resolve(request, []);
    assert.deepEqual(done.steps.map(s => [s.rule, s.amount]), [["amount", 9], ["armor", 7], ["resistant", 4], ["vigor", 1], ["hp", 1]]);
    const change = healthChange(actor, statuses, done.target);
    assert.deepEqual(change.update, { "system.hp.value": 29, "system.vigor.value": 0 });
    assert.deepEqual(change.undo.update, { "system.hp.value": 30, "system.vigor.value": 3 });
    assert.deepEqual([change.deleteEffects, change.createStatuses], [[], []]);
    const after = applyToSystem(actor.system, change.update);
    assert.deepEqual([after.hp.value, after.vigor.value], [29, 0]);
    assert.deepEqual(applyToSystem(after, change.undo.update), actor.system);
  });

  test("Defiance: HP held at 1, then immune for the rest of the turn only", () => {
    const actor = { type: "character", system: system(), effects: [{ id: "d1", statuses: ["defiance"], data: { _id: "d1", statuses: ["defiance"] } }] };
    const statuses = ["defiance"];
    const request = requests.applyDamageRequest(requests.coreTarget(actor, statuses), 99, { source: "hit", pierce: false, divine: false, attackerWeakened: false, cover: false });
    const done = core.resolve(request, []);
    assert.equal(done.target.hp, 1, "Defiance keeps HP at 1");
    const change = healthChange(actor, statuses, done.target);
    assert.deepEqual(change.deleteEffects, ["d1"], "Defiance is used up");
    assert.deepEqual(change.createStatuses, ["immune"]);
    const immune = { id: "i1", ...statusEffectData("immune", key => key) };
    const dazed = { id: "z1", ...statusEffectData("dazed", key => key) };
    // Only the state effect Defiance created ends with the turn; ICON statuses wait for saves.
    assert.deepEqual(endOfTurnEffectIds([immune, dazed, { id: "x", statuses: ["immune"], flags: {} }]), ["i1"]);
  });

  test("a defeated player character: a wound, statuses cleared, incapacitated and defeated added", () => {
    const effects = [
      { id: "e1", statuses: ["dazed"], data: { _id: "e1", name: "Dazed", statuses: ["dazed"] } },
      { id: "e2", statuses: ["weakened"], data: { _id: "e2", name: "Weakened", statuses: ["weakened"] } },
      { id: "e3", statuses: ["bloodied"], data: { _id: "e3", name: "Bloodied", statuses: ["bloodied"] } }
    ];
    const actor = { type: "character", system: system({ hp: { value: 4, max: 40 }, vigor: { value: 0, max: 10 }, armor: 0, wounds: 1 }), effects };
    const statuses = ["dazed", "weakened+", "bloodied"];
    const done = core.resolve(requests.applyDamageRequest(requests.coreTarget(actor, statuses), 12, requests.damageOptions(requests.initialAttackState(), "hit", false)), []);
    const change = healthChange(actor, statuses, done.target);
    assert.deepEqual(change.update, { "system.hp.value": 0, "system.wounds": 2 });
    assert.deepEqual(change.deleteEffects, ["e1", "e2"], "bloodied is left to IconActor#syncBloodied");
    assert.deepEqual(change.createStatuses.sort(), ["defeated", "incapacitated"]);
    assert.deepEqual(change.undo.restoreEffects.map(e => e._id), ["e1", "e2"]);
    const localize = key => lookup(key) ?? key;
    assert.deepEqual(statusEffectData("incapacitated", localize).statuses, ["incapacitated"]);
    assert.equal(statusEffectData("incapacitated", localize).name, "Incapacitated");
    assert.equal(statusEffectData("immune", localize).name, "Immune", "not in the status list: a plain effect");
  });

  test("a cure through the core: vigor surge when bloodied", () => {
    const actor = { type: "character", system: system({ hp: { value: 12, max: 40 }, vigor: { value: 0, max: 10 } }), effects: [] };
    const done = core.resolve(requests.healRequest(requests.coreTarget(actor, []), "cure"), []);
    assert.deepEqual(healthChange(actor, [], done.target).update, { "system.vigor.value": 10 });
  });
});

describe("the sheets' tactical block", () => {
  test("attack abilities, and status icons saveable only when the core says so", () => {
    const statuses = ["dazed", "weakened+", "bloodied", "immune"];
    const ctx = tacticalSheetContext({
      items: [{ id: "a", name: "Thunder", img: "t.svg", type: "ability", system: { tags: ["attack"] } },
        { id: "b", name: "Ward", img: "w.svg", type: "ability", system: { tags: ["stance"] } }],
      statuses,
      saveable: core.iconSaveable(statuses)
    });
    assert.deepEqual(ctx.attacks.map(a => a.id), ["a"]);
    assert.deepEqual(ctx.statusIcons.map(s => [s.id, s.canSave, s.ongoing]),
      [["dazed", true, false], ["weakened", false, true], ["bloodied", false, false], ["immune", false, false]]);
    assert.match(ctx.statusIcons[0].img, /assets\/icons\/statuses\/dazed\.svg$/);
    for (const option of ctx.healingOptions) assert.equal(typeof lookup(option.label), "string");
    assert.deepEqual(core.iconAfterAbility(["stunned", "dazed+"]), ["dazed+"]);
  });
});

describe("issue 17: the ICON audit on the JS side", () => {
  const attacker = requests.attackerOf(stormbender);
  const pcTarget = (statuses, over = {}) => ({ hp: 30, maxHp: 40, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: true, statuses, ...over });
  const apply = (target, amount, options) => core.resolve(requests.applyDamageRequest(target, amount, options), []);

  test("Dodge: an area attack sends source area, a saved target source save (halved), and Dodge stops both", () => {
    const area = { ...requests.initialAttackState({ targets: [target()] }), area: true };
    const hit = requests.damageOptions(area, "hit", false, area.targets[0]);
    assert.equal(hit.source, "area");
    assert.equal(apply(pcTarget(["dodge"]), 9, hit).total, 0, "Dodge: immune to area effects");
    assert.equal(apply(pcTarget([]), 9, hit).total, 9);
    const saved = requests.savedOptions(requests.damageOptions(requests.initialAttackState(), "hit", false));
    assert.deepEqual([saved.source, saved.savedHalf], ["save", true]);
    assert.equal(apply(pcTarget(["dodge"]), 9, saved).total, 0, "Dodge: immune after a successful save");
    assert.equal(apply(pcTarget([]), 9, saved).total, 5, "half, rounded up");
    // an ability tagged area starts as an area attack; the form can switch both on and off
    assert.equal(requests.initialAttackState({ ability: { system: { tags: ["attack", "area"], roll: { hitDice: 1 } } } }).area, true);
    const read = requests.readAttackForm(requests.initialAttackState(), { area: "on", saveForHalf: true });
    assert.deepEqual([read.area, read.saveForHalf], [true, true]);
    // the damage card offers "Saved: apply half" only for a save-for-half attack
    const request = { kind: "icon.damage", result: "hit", die: 8, dice: 1, fray: 4 };
    const done = core.resolve(request, [[5]]);
    const tactical = { role: "damage", key: 0, target: { uuid: "Actor.foe", name: "Goblin" } };
    assert.equal(cards.damageContext(done, request, { tactical }).canApplySaved, false);
    assert.equal(cards.damageContext(done, request, { tactical: { ...tactical, saveForHalf: true } }).canApplySaved, true);
  });

  test("a ranged attack on an adjacent target ignores cover", () => {
    const state = { ...requests.initialAttackState({ targets: [target({ cover: true })] }), ranged: true };
    assert.equal(requests.attackRequest(core, state, attacker, state.targets[0]).cover, true);
    const adjacent = requests.readAttackForm(state, { ranged: true, "targets.0.cover": true, "targets.0.adjacent": "on" });
    assert.equal(adjacent.targets[0].adjacent, true);
    assert.equal(requests.attackRequest(core, adjacent, attacker, adjacent.targets[0]).cover, false);
  });

  test("a pacified or hateful attacker deals half, full damage to the hated foe", () => {
    const state = requests.initialAttackState({ attackerStatuses: ["hatred", "pacified+"], targets: [target(), target({ uuid: "Actor.x", hated: true })] });
    assert.deepEqual([state.hatred, state.pacified], [true, true]);
    const [a, b] = state.targets.map(t => requests.damageOptions({ ...state, pacified: false }, "hit", false, t));
    assert.deepEqual([a.attackerHatred, b.attackerHatred], [true, false]);
    assert.equal(apply(pcTarget([]), 9, a).total, 5);
    assert.equal(apply(pcTarget([]), 9, b).total, 9);
    assert.equal(apply(pcTarget([]), 9, requests.damageOptions(state, "hit", false, state.targets[1])).total, 5, "pacified halves anyway");
  });

  test("the applied card shows what each rule did apart from the running amount; Counter offers its damage back", () => {
    const done = apply(pcTarget(["resistant", "counter"], { vigor: 3, armor: 2 }), 9, requests.damageOptions(requests.initialAttackState(), "hit", false));
    const ctx = cards.appliedContext({ targetUuid: "Actor.t", targetName: "Ysolde", dealt: done.total, steps: done.steps, counter: done.counter,
      after: { hp: done.target.hp, vigor: done.target.vigor, wounds: 0, defeated: false, fallen: false }, undo: { update: {}, restoreEffects: [], deleteEffects: [] }, userId: "u" }, 0);
    assert.deepEqual(ctx.steps.map(s => [s.rule, s.change, s.amount]),
      [["amount", "+9", 9], ["armor", "−2", 7], ["resistant", "−3", 4], ["vigor", "−3", 1], ["hp", "−1", 1]]);
    assert.equal(ctx.dealt, 4, "3 vigor and 1 HP");
    assert.equal(ctx.counter, 2);
    assert.equal(cards.appliedContext({ ...ctx, steps: done.steps, counter: 2, counterDone: true, after: ctx.after, undo: {}, targetUuid: "", userId: "" }, 0).counter, 0);
    for (const step of ctx.steps) assert.equal(typeof lookup(step.label), "string", step.rule);
  });

  test("Slashed and Counter damage have a card; every new step has a label", () => {
    assert.ok(rollCardFor("icon.applyDamage")?.template.includes("tactical-heal"));
    const request = requests.applyDamageRequest(pcTarget(["slashed"], { armor: 1 }), 4, { source: "slashed", ability: false, fromFoe: false });
    const done = core.resolve(request, []);
    const card = cards.healthContext(done, request, { tactical: { role: "health", actor: { uuid: "a", name: "Ysolde" }, label: "ICONENGINE.Status.slashed.name" } });
    assert.deepEqual([card.hp, card.steps.map(s => s.change)], [27, ["+4", "−1", "−3"]]);
    const rules = new Set();
    const cases = [[pcTarget(["intangible"]), 5, {}], [pcTarget(["pacified"]), 5, { attackerPacified: true }], [pcTarget([]), 5, { attackerHatred: true }],
      [pcTarget([]), 5, { vigilance: 4 }], [pcTarget([]), 5, { source: "save", savedHalf: true }], [pcTarget(["pacified"]), 5, {}],
      [pcTarget([]), 90, { floor: 1 }], [pcTarget([]), 2, { source: "dangerousTerrain", ability: false, terrainTakenThisTurn: true }],
      [pcTarget(["flying"]), 2, { source: "dangerousTerrain", ability: false }], [pcTarget(["dodge"]), 5, { source: "miss", trueStrike: true }]];
    for (const [t, amount, extra] of cases) for (const step of apply(t, amount, { source: "hit", ...extra }).steps) rules.add(step.rule);
    for (const healing of ["endCombat", "rest", "camp"]) {
      const down = { ...pcTarget(["dazed", "incapacitated", "defeated"], { hp: 0, wounds: 1 }), resolve: 2 };
      for (const step of core.resolve(requests.healRequest(healing === "endCombat" ? pcTarget(["dazed"]) : down, healing), []).steps) rules.add(step.rule);
    }
    for (const rule of ["intangible", "pacified", "hatred", "vigilance", "savedHalf", "pacifiedBroken", "cured", "resolveReset", "floor", "onceATurn", "flying", "trueStrikeDodge"]) {
      assert.ok(rules.has(rule), rule);
    }
    for (const rule of rules) assert.equal(typeof lookup(`ICONENGINE.Tactical.Step.${rule}`), "string", rule);
  });

  test("camp resets a character's personal resolve and leaves a defeated one down until rescued, on the actor's data", () => {
    const effects = [{ id: "d", statuses: ["defeated"], data: { _id: "d" } }, { id: "i", statuses: ["incapacitated"], data: { _id: "i" } }];
    const actor = { type: "character", system: { hp: { value: 0, max: 40 }, vigor: { value: 0, max: 10 }, wounds: 1, armor: 0, resolve: 3 }, effects };
    const statuses = ["defeated", "incapacitated"];
    const target = requests.coreTarget(actor, statuses);
    assert.equal(target.resolve, 3);
    const done = core.resolve(requests.healRequest(target, "camp"), []);
    const change = healthChange(actor, statuses, done.target);
    // "remain that way until someone uses the rescue action": HP 0, still defeated and incapacitated
    assert.deepEqual(change.update, { "system.resolve": 0 });
    assert.deepEqual(change.undo.update, { "system.resolve": 3 });
    assert.deepEqual(change.deleteEffects, []);
    // a foe has no personal resolve
    assert.equal("resolve" in requests.coreTarget({ type: "foe", system: { ...actor.system } }, []), false);
  });

  test("any ability, a basic attack included, ends Stunned and the turn", () => {
    assert.deepEqual(requests.abilityAftermath(core, ["stunned", "dazed", "weakened+"]), { ended: ["stunned"], endsTurn: true });
    assert.deepEqual(requests.abilityAftermath(core, ["dazed"]), { ended: [], endsTurn: false });
    assert.deepEqual(requests.abilityAftermath(core, ["stunned+"]), { ended: [], endsTurn: true }, "ongoing: the turn ends, the status stays");
  });

  test("the end of combat cures every status and mark; Hatred ends with its owner's turn", () => {
    const done = core.resolve(requests.healRequest(pcTarget(["dazed", "stunned", "hatred", "pacified", "marked", "dodge"]), "endCombat"), []);
    assert.deepEqual(done.target.statuses, ["dodge"]);
    const hatred = { id: "h1", ...statusEffectData("hatred", key => key) };
    const ongoing = { id: "h2", statuses: ["hatred"], flags: { "icon-engine": { kind: "status", ongoing: true } } };
    assert.deepEqual(endOfTurnEffectIds([hatred, ongoing]), ["h1"]);
  });
});
