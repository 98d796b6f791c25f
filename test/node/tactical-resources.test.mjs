/**
 * Issue 17's gaps on the module side, through TacticalRolls, CardActions and the combat effects
 * over stand-ins for Foundry's documents (actors that hold system data, effects and flags; chat
 * messages with dotted flags; a started combat), with the real wasm core deciding the damage:
 * Slashed once a turn, Counter's card with Undo, Vigilance charges held, spent and given back.
 * Expected numbers come from the seed's rules: Slashed 4, Counter 2, armor and Vigilance "reduce
 * the damage by the amount rolled as if with armor" (the higher counts).
 */
import { before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";

/* ------------------------------------------------------------------ stand-ins for Foundry */

/** Set a dotted path in an object (Foundry's update and setFlag expand them the same way). */
function setPath(object, path, value) {
  const parts = path.split(".");
  let node = object;
  for (const part of parts.slice(0, -1)) node = node[part] ??= {};
  node[parts.at(-1)] = value;
}
/** Flatten nested update data into dotted keys (leaves: anything but plain objects). */
function flatten(data, prefix = "", out = {}) {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value)) flatten(value, path, out);
    else out[path] = value;
  }
  return out;
}

const registry = new Map();
const warnings = [];
const messages = [];
let effectIds = 0;

class StandInEffect {
  constructor(data) {
    // Foundry ids: 16 letters and digits.
    this.id = data._id ?? `e${String(++effectIds).padStart(15, "0")}`;
    this.data = structuredClone({ ...data, _id: this.id });
    this.statuses = new Set(data.statuses ?? []);
    this.flags = data.flags ?? {};
  }
  toObject() { return structuredClone(this.data); }
}

class StandInActor {
  constructor({ name, type = "character", system = {}, statuses = [], isOwner = true }) {
    Object.assign(this, { name, type, uuid: `Actor.${name}`, isOwner, flags: {} });
    this.system = { hp: { value: 30, max: 40 }, vigor: { value: 0, max: 10 }, wounds: 0, armor: 0, vigilance: 0, resolve: 0, ...system };
    const list = statuses.map(id => new StandInEffect({ statuses: [id.replace(/\+$/, "")], flags: { "icon-engine": { ongoing: id.endsWith("+") } } }));
    this.effects = { contents: list, has: id => list.some(e => e.id === id) };
    registry.set(this.uuid, this);
  }
  get appliedEffects() { return this.effects.contents; }
  getFlag(scope, key) { return this.flags[scope]?.[key]; }
  async setFlag(scope, key, value) { setPath(this.flags, `${scope}.${key}`, value); }
  async unsetFlag(scope, key) { delete this.flags[scope]?.[key]; }
  async update(data) { for (const [path, value] of Object.entries(flatten(data))) setPath(this, path, value); }
  async deleteEmbeddedDocuments(type, ids) {
    const list = this.effects.contents;
    for (const id of ids) list.splice(list.findIndex(e => e.id === id), 1);
  }
  async createEmbeddedDocuments(type, data) {
    const made = data.map(d => new StandInEffect(d));
    this.effects.contents.push(...made);
    return made;
  }
  async toggleStatusEffect(id, { active }) {
    if (!active) await this.deleteEmbeddedDocuments("ActiveEffect", this.effects.contents.filter(e => e.statuses.has(id)).map(e => e.id));
  }
  testUserPermission() { return this.isOwner; }
}

class StandInMessage {
  constructor(data) {
    // Posted by the GM's client (game.user): its flags are the GM's (module/applications/tactical-chat.mjs).
    Object.assign(this, { id: `m${messages.length + 1}`, rolls: data.rolls ?? [], speaker: data.speaker, flags: structuredClone(data.flags ?? {}),
      author: game.user, isAuthor: true, isContentVisible: true });
    messages.push(this);
  }
  getFlag(scope, key) { return key.split(".").reduce((node, part) => node?.[part], this.flags[scope]); }
  async setFlag(scope, key, value) { setPath(this.flags, `${scope}.${key}`, structuredClone(value)); }
  async unsetFlag(scope, key) {
    const parts = key.split(".");
    const parent = parts.slice(0, -1).reduce((node, part) => node?.[part], this.flags[scope]);
    if (parent) delete parent[parts.at(-1)];
  }
}

globalThis.foundry = { dice: { Roll: class {} }, applications: { handlebars: { renderTemplate: async () => "" } },
  utils: { fromUuidSync: uuid => registry.get(uuid) ?? null } };
globalThis.Actor = StandInActor;
globalThis.CONFIG = { sounds: { dice: "sounds/dice.wav" }, Dice: {}, ChatMessage: {} };
globalThis.ChatMessage = { implementation: {
  getSpeaker: ({ actor } = {}) => ({ alias: actor?.name }),
  applyRollMode: data => data,
  create: async data => new StandInMessage(data)
} };
globalThis.ui = { notifications: { warn: message => warnings.push(message), error: message => warnings.push(message), info: () => {} } };
globalThis.Hooks = { on: () => {}, callAll: () => true, call: () => true };
globalThis.fromUuid = async uuid => registry.get(uuid) ?? null;
/** World settings (the GM's records of applied damage among them). */
const settings = new Map([["rollMode", "publicroll"]]);
globalThis.game = {
  release: { generation: 13 }, user: { id: "u1", isGM: true }, combat: null,
  settings: { get: (scope, key) => settings.get(key), set: async (scope, key, value) => settings.set(key, structuredClone(value)) },
  i18n: { localize: key => key, format: (key, data) => `${key} ${JSON.stringify(data)}` }
};

const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
const { default: ActorHealth } = await import("../../module/documents/actor-health.mjs");
const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
const { runCombatEffects } = await import("../../module/documents/combat-effects.mjs");
const requests = await import("../../module/dice/tactical-requests.mjs");
const cards = await import("../../module/dice/cards/icon-tactical.mjs");
const { gainVigilance, spendVigilance, vigilanceHeld, vigilanceSpenders } = await import("../../module/data/vigilance.mjs");
const { slashedLimit } = await import("../../module/data/slashed.mjs");
const { tacticalSheetContext } = await import("../../module/applications/sheets/tactical-context.mjs");

// Rolls of requests that need no dice (icon.applyDamage): the core's answer, as IconRoll keeps it.
TacticalRolls.roll = async (request, tactical) => ({ request, outcome: core.resolve(request, []), iconOptions: { request, tactical },
  options: { request, tactical }, dice: [] });

/** A started combat of these actors; runCombatEffects' turn workflows do nothing. */
function combatOf(actors) {
  const combatants = new Map(actors.map((actor, i) => [`c${i}`, { id: `c${i}`, actor, token: null, name: actor.name }]));
  return {
    started: true, round: 1, turns: [...combatants.values()],
    combatants: Object.assign(combatants, { [Symbol.iterator]: () => combatants.values(), some: fn => [...combatants.values()].some(fn),
      map: fn => [...combatants.values()].map(fn) })
  };
}
const workflows = { startTurn: async () => {}, clearMovement: async () => {}, endTurn: async () => {}, startRound: async () => {}, endRound: async () => {} };

/**
 * An attack message with one damage roll of `total` into `target`: an `icon.damage` roll whose d6
 * shows 1 and whose flat bonus makes the rest, as the GM's client resolves it again from its faces.
 */
function attackMessage(attacker, target, total) {
  const apply = requests.damageOptions(requests.initialAttackState(), "hit", false);
  const request = { kind: "icon.damage", result: "hit", die: 6, dice: 1, fray: 0, flat: total - 1, bonusDice: 0 };
  assert.equal(core.resolve(request, [[1]]).total, total);
  const options = { request, tactical: { role: "damage", key: 0, target: { uuid: target.uuid, name: target.name }, apply } };
  const roll = { total, dice: [{ results: [{ result: 1 }] }], iconOptions: options, options };
  return new StandInMessage({ rolls: [roll], flags: { "icon-engine": { tactical: { attacker: attacker.uuid } } } });
}

beforeEach(() => {
  warnings.length = 0;
  game.combat = null;
});

describe("Slashed: 4 damage, no more than once a turn", () => {
  test("the rule's limit: counted in a combat only, refused the second time", () => {
    assert.deepEqual(slashedLimit({ inCombat: false, takenThisTurn: true }), { allowed: true, counts: false });
    assert.deepEqual(slashedLimit({ inCombat: true, takenThisTurn: false }), { allowed: true, counts: true });
    assert.deepEqual(slashedLimit({ inCombat: true, takenThisTurn: true }), { allowed: false, counts: true });
  });

  test("in a combat: once a turn, refused with a notice, free again when a turn starts or ends; Undo frees it", async () => {
    const ysolde = new StandInActor({ name: "Ysolde", system: { armor: 1 }, statuses: ["slashed"] });
    const brann = new StandInActor({ name: "Brann", statuses: ["slashed"] });
    const combat = combatOf([ysolde, brann]);
    game.combat = combat;
    // "Armor X: Reduce all damage taken by X": 4 − 1
    const first = await TacticalRolls.slashed(ysolde);
    assert.equal(ysolde.system.hp.value, 27);
    assert.equal(ysolde.getFlag("icon-engine", "slashedThisTurn"), true);
    const again = await TacticalRolls.slashed(ysolde);
    assert.equal(again, null);
    assert.equal(ysolde.system.hp.value, 27, "the second Slashed of the turn deals nothing");
    assert.match(warnings.at(-1), /ICONENGINE\.Tactical\.SlashedOnce.*Ysolde/);
    // the card's Apply after an Undo goes through the same limit
    await CardActions.run(first, { action: "undoDamage", key: 0 }, game.user);
    assert.equal(ysolde.system.hp.value, 30, "Undo restores the HP");
    assert.equal(ysolde.getFlag("icon-engine", "slashedThisTurn"), undefined, "and frees the turn's Slashed");
    await CardActions.run(first, { action: "damage", key: 0 }, game.user);
    assert.equal(ysolde.system.hp.value, 27, "Apply again from the card");
    await CardActions.run(first, { action: "undoDamage", key: 0 }, game.user);
    await TacticalRolls.slashed(ysolde);
    await assert.rejects(CardActions.run(first, { action: "damage", key: 0 }, game.user), /SlashedOnce/, "re-applying a Slashed in a turn that had one");
    assert.equal(ysolde.system.hp.value, 27);
    // another fighter's Slashed is its own
    await TacticalRolls.slashed(brann);
    assert.equal(brann.system.hp.value, 26);
    // a turn ends: every fighter may take Slashed again
    await runCombatEffects(/** @type {any} */ (combat), [{ type: "turnEnded", id: "c1" }], workflows);
    assert.equal(ysolde.getFlag("icon-engine", "slashedThisTurn"), undefined);
    assert.equal(brann.getFlag("icon-engine", "slashedThisTurn"), undefined);
    await TacticalRolls.slashed(ysolde);
    assert.equal(ysolde.system.hp.value, 24);
    // a turn starts: the same
    await runCombatEffects(/** @type {any} */ (combat), [{ type: "turnStarted", id: "c0" }], workflows);
    await TacticalRolls.slashed(ysolde);
    assert.equal(ysolde.system.hp.value, 21);
  });

  test("outside combat there are no turns to count; without the status it is refused", async () => {
    const ysolde = new StandInActor({ name: "Loner", statuses: ["slashed"] });
    await TacticalRolls.slashed(ysolde);
    await TacticalRolls.slashed(ysolde);
    assert.equal(ysolde.system.hp.value, 22);
    assert.equal(ysolde.getFlag("icon-engine", "slashedThisTurn"), undefined);
    const whole = new StandInActor({ name: "Whole" });
    assert.equal(await TacticalRolls.slashed(whole), null);
    assert.equal(whole.system.hp.value, 30);
    assert.match(warnings.at(-1), /NotSlashed/);
  });

  test("the sheet offers Slashed while the actor has the status", () => {
    const base = { items: [], saveable: [] };
    assert.deepEqual(tacticalSheetContext({ ...base, statuses: ["slashed"] }).slashed?.amount, 4);
    assert.equal(tacticalSheetContext({ ...base, statuses: ["slashed+"] }).slashed?.amount, 4);
    assert.equal(tacticalSheetContext({ ...base, statuses: ["dazed"] }).slashed, null);
  });
});

describe("Counter: its own card, with Undo", () => {
  test("the attacker takes 2 at once; the card keeps the breakdown and undo; Undo and Apply again", async () => {
    const attacker = new StandInActor({ name: "Goblin", type: "foe", system: { armor: 0, hp: { value: 20, max: 20 } } });
    const target = new StandInActor({ name: "Thorn", statuses: ["counter"] });
    const attack = attackMessage(attacker, target, 9);
    await CardActions.run(attack, { action: "damage", key: 0 }, game.user);
    assert.equal(target.system.hp.value, 21);
    assert.equal(attack.getFlag("icon-engine", "damageApplied")[0].counter, 2, "Counter: 2 damage back");
    await CardActions.run(attack, { action: "counter", key: 0 }, game.user);
    assert.equal(attacker.system.hp.value, 18);
    assert.equal(attack.getFlag("icon-engine", "counterDealt")[0], true, "Counter is dealt for this card and target");
    const card = messages.at(-1);
    assert.notEqual(card, attack);
    const applied = card.getFlag("icon-engine", "damageApplied")?.[0];
    assert.ok(applied, "the Counter card holds its applied damage, as attack cards do");
    assert.deepEqual([applied.targetUuid, applied.dealt, applied.after.hp], [attacker.uuid, 2, 18]);
    // its card renders the apply block the chat hook fills with the breakdown and Undo
    const [roll] = card.rolls;
    const context = cards.healthContext(roll.outcome, roll.request, { tactical: roll.iconOptions.tactical });
    assert.deepEqual([context.canApply, context.key, context.amount], [true, 0, 2]);
    assert.equal(CardActions.rollTarget(card, 0), attacker, "its Apply and Undo find the roll's target");
    await CardActions.run(card, { action: "undoDamage", key: 0 }, game.user);
    assert.equal(attacker.system.hp.value, 20, "Undo restores the attacker");
    assert.equal(card.getFlag("icon-engine", "damageApplied")?.[0], undefined);
    await CardActions.run(card, { action: "damage", key: 0 }, game.user);
    assert.equal(attacker.system.hp.value, 18, "Apply again deals Counter's 2, not the card's total");
    // a second Counter from the same damage is refused, and so is one after an Undo of the damage and a new Apply
    await assert.rejects(CardActions.run(attack, { action: "counter", key: 0 }, game.user), /CounterDealt/);
    await CardActions.run(attack, { action: "undoDamage", key: 0 }, game.user);
    await CardActions.run(attack, { action: "damage", key: 0 }, game.user);
    await assert.rejects(CardActions.run(attack, { action: "counter", key: 0 }, game.user), /CounterDealt/);
    assert.equal(attacker.system.hp.value, 18);
  });
});

describe("Vigilance charges: held, stacking, spent, given back", () => {
  test("the rule: charges stack, 1d6 a charge spent, never more than held", () => {
    assert.equal(gainVigilance(2, 3), 5, "Vigilance charges stack");
    assert.equal(gainVigilance(98, 5), 99, "the data model's ceiling");
    for (const bad of [0, -1, 1.5, NaN]) assert.equal(gainVigilance(2, bad), null, String(bad));
    assert.deepEqual(spendVigilance(3, 2), { left: 1, formula: "2d6kh1" });
    assert.deepEqual(spendVigilance(3, 3), { left: 0, formula: "3d6kh1" });
    for (const bad of [0, 4, 1.5, -1]) assert.equal(spendVigilance(3, bad), null, String(bad));
    assert.deepEqual([vigilanceHeld({ vigilance: 3 }), vigilanceHeld({}), vigilanceHeld(null), vigilanceHeld({ vigilance: -2 })], [3, 0, 0, 0]);
    // who may spend: owned, holding charges, not the damaged one, once each
    const actors = [
      { uuid: "Actor.a", name: "A", isOwner: true, system: { vigilance: 2 } },
      { uuid: "Actor.a", name: "A", isOwner: true, system: { vigilance: 2 } },
      { uuid: "Actor.b", name: "B", isOwner: false, system: { vigilance: 4 } },
      { uuid: "Actor.c", name: "C", isOwner: true, system: { vigilance: 0 } },
      { uuid: "Actor.t", name: "T", isOwner: true, system: { vigilance: 5 } }
    ];
    assert.deepEqual(vigilanceSpenders(actors, "Actor.t"), [{ uuid: "Actor.a", name: "A", held: 2 }]);
  });

  test("gaining stacks on the actor", async () => {
    const warden = new StandInActor({ name: "Warden", system: { vigilance: 1 } });
    assert.equal(await ActorHealth.gainVigilance(warden, 2), 3);
    assert.equal(warden.system.vigilance, 3);
    await assert.rejects(ActorHealth.gainVigilance(warden, 0), /BadGain/);
  });

  test("spent on an ally's damage: the charges go, the roll reduces as armor; Undo gives them back", async () => {
    const foe = new StandInActor({ name: "Ogre", type: "foe" });
    const ally = new StandInActor({ name: "Ally", system: { armor: 1 } });
    const warden = new StandInActor({ name: "Keeper", system: { vigilance: 3 } });
    const attack = attackMessage(foe, ally, 9);
    // 2 charges rolled a 5: "reduce the damage by the amount rolled as if with armor" (5 > armor 1)
    await CardActions.run(attack, { action: "damage", key: 0, vigilance: 5, vigilanceBy: warden.uuid, vigilanceCharges: 2 }, game.user);
    assert.equal(warden.system.vigilance, 1, "2 of 3 charges spent");
    assert.equal(ally.system.hp.value, 26, "9 − 5");
    const applied = attack.getFlag("icon-engine", "damageApplied")[0];
    assert.deepEqual(applied.vigilance && [applied.vigilance.uuid, applied.vigilance.charges, applied.vigilance.rolled], [warden.uuid, 2, 5]);
    assert.ok(applied.steps.some(step => step.rule === "vigilance"));
    assert.deepEqual(cards.appliedContext(applied, 0).vigilance, { name: "Keeper", charges: 2, rolled: 5 });
    await CardActions.run(attack, { action: "undoDamage", key: 0 }, game.user);
    assert.deepEqual([warden.system.vigilance, ally.system.hp.value], [3, 30], "Undo: the charges and the HP come back");
  });

  test("more charges than held are refused and nothing changes; the last charge ends the status, Undo restores it", async () => {
    const foe = new StandInActor({ name: "Troll", type: "foe" });
    const ally = new StandInActor({ name: "Friend" });
    const warden = new StandInActor({ name: "Sentinel", system: { vigilance: 2 }, statuses: ["vigilance"] });
    const attack = attackMessage(foe, ally, 9);
    await assert.rejects(CardActions.run(attack, { action: "damage", key: 0, vigilance: 6, vigilanceBy: warden.uuid, vigilanceCharges: 3 }, game.user), /NotHeld/);
    assert.deepEqual([warden.system.vigilance, ally.system.hp.value], [2, 30]);
    assert.equal(attack.getFlag("icon-engine", "damageApplied"), undefined);
    await CardActions.run(attack, { action: "damage", key: 0, vigilance: 4, vigilanceBy: warden.uuid, vigilanceCharges: 2 }, game.user);
    assert.deepEqual([warden.system.vigilance, ally.system.hp.value], [0, 25]);
    assert.equal(warden.effects.contents.length, 0, "no charges left: the Vigilance effect is gone");
    await CardActions.run(attack, { action: "undoDamage", key: 0 }, game.user);
    assert.equal(warden.system.vigilance, 2);
    assert.deepEqual(warden.effects.contents.map(e => [...e.statuses]), [["vigilance"]]);
  });

  test("damage that Vigilance cannot reduce (no foe's ability) is refused and the charges come back", async () => {
    const ally = new StandInActor({ name: "Cut", statuses: ["slashed"] });
    const warden = new StandInActor({ name: "Watcher", system: { vigilance: 2 } });
    const card = await TacticalRolls.slashed(ally);
    await CardActions.run(card, { action: "undoDamage", key: 0 }, game.user);
    await assert.rejects(CardActions.run(card, { action: "damage", key: 0, vigilance: 3, vigilanceBy: warden.uuid, vigilanceCharges: 1 }, game.user), /vigilance/);
    assert.deepEqual([warden.system.vigilance, ally.system.hp.value], [2, 30]);
  });
});
