/**
 * The GM's client is a trust boundary (issue 25, docs/security.md): every request it carries out
 * for a player is sent here as a non-GM player's, exactly as Foundry's server delivers it (the
 * sender's id from the socket, never from the payload), in a world where the player owns one
 * character and an ally and the GM owns the foes (test/support/stand-in-world.mjs refuses any
 * write a user may not make, as Foundry's server does). Each numbered point of the issue has
 * tests; then 1,000 hostile payloads of each request kind find nothing the player does not own
 * changed. Expected numbers follow the seed's rules (a d6 damage die with fray 2; Counter 2).
 */
import { before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GM, PLAYER, Roll, addActor, as, changedNotOwned, installWorld, nextId, playerRequests, postMessage, random, snapshot, world } from
  "../support/stand-in-world.mjs";
import { cardFlag, cardPart } from "../support/cards.mjs";

installWorld();
const { default: core } = await import("../support/load-core.mjs");
globalThis.Combat = class {
  get started() { return false; }
  _onCreateDescendantDocuments() {}
  _onDeleteDescendantDocuments() {}
  _onUpdateDescendantDocuments() {}
};
globalThis.Combatant = class {};
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
const { default: ActorMarks } = await import("../../module/documents/actor-marks.mjs");
const { default: ActorStatuses } = await import("../../module/documents/actor-statuses.mjs");
const { default: ClockPanel } = await import("../../module/applications/narrative/clock-panel.mjs");
const { default: IconCombat } = await import("../../module/documents/icon-combat.mjs");
const requests = await import("../../module/dice/tactical-requests.mjs");
const settings = await import("../../module/settings.mjs");
const { combatantEntry } = await import("../../module/data/combat-rules.mjs");

const SCOPE = "icon-engine";
const gm = () => world.game.users.get(GM);
const player = () => world.game.users.get(PLAYER);

// Rolls of requests that need no dice (icon.applyDamage): the core's answer, as IconRoll keeps it.
TacticalRolls.roll = async (request, tactical) => {
  const outcome = core.resolve(request, []);
  return new Roll({ request, outcome, options: { tactical }, total: outcome.total });
};

// What the system registers at init, then the socket at ready.
settings.registerTrustSettings?.();
ClockPanel.register();
CardActions.register();
ActorStatuses.register();
ActorMarks.register();
IconCombat.registerSocket();
IconCombat.registerDefeatedSync();
IconSocket.register();

/* ---------------------------------------------------------------------------------- the world */

let hero;
let ally;
let ogre;
const ownedByPlayer = { default: 0, [PLAYER]: 3 };

beforeEach(() => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.combats.clear();
  world.game.user = gm();
  hero = addActor({ name: "Ysolde", type: "character", ownership: ownedByPlayer });
  ally = addActor({ name: "Brann", type: "character", ownership: ownedByPlayer, system: { vigilance: 3 } });
  ogre = addActor({ name: "Ogre", type: "foe", system: { hp: { value: 30, max: 40 } },
    effects: [{ _id: nextId("e"), name: "Dazed", statuses: ["dazed"], flags: { [SCOPE]: { kind: "status", ongoing: false } } }] });
  return as(GM, async () => {
    await world.game.settings.set(SCOPE, "gmRecords", {});
    await world.game.settings.set(SCOPE, "playersApplyDamage", false);
    await world.game.settings.set(SCOPE, "clocks", [{ id: "alarm", name: "Alarm", segments: 8, filled: 6 }]);
  });
});

/** `icon.damage` of a d6 with fray 2 that rolled `face`: 5 + 2 = 7 on a hit. */
function damageRoll(target, face = 5, key = 0) {
  const request = { kind: "icon.damage", result: "hit", die: 6, dice: 1, fray: 2, bonusDice: 0 };
  const outcome = core.resolve(request, [[face]]);
  const apply = requests.damageOptions(requests.initialAttackState(), "hit", false);
  return new Roll({ request, faces: [[face]], outcome, total: outcome.total,
    options: { tactical: { role: "damage", key, target: { uuid: target.uuid, name: target.name }, apply } } });
}

/** An attack card posted by `author`, `attacker` hitting `target`. */
const attackCard = (author, attacker, target, face = 5) =>
  postMessage(author, { rolls: [damageRoll(target, face)], flags: { [SCOPE]: { tactical: { attacker: attacker.uuid } } } });

/** An action card (`icon.action`, 2 dice) posted by `author` for `actor`: 6 and 4 are a success, 2 segments. */
function actionCard(author, actor, faces = [6, 4]) {
  const request = { kind: "icon.action", rating: 2, boons: 0, curses: 0, risk: "risky", effect: "normal", burdenTicks: 0, broken: false };
  const outcome = core.resolve(request, [faces]);
  return postMessage(author, { rolls: [new Roll({ request, faces: [faces], outcome, options: { action: "hunt", actorUuid: actor.uuid } })] });
}

/** A record of an applied damage as the message flag keeps it, forged to do harm. */
function forgedRecord(target) {
  return {
    targetUuid: target.uuid, targetName: "x", dealt: 9, steps: [], counter: 25, after: { hp: 1, vigor: 0, wounds: 0, defeated: false, fallen: false },
    userId: GM,
    undo: {
      update: { name: "Pwned", [`ownership.${PLAYER}`]: 3, "system.hp.value": 1, "system.armor": 50, "flags.core.sheetClass": "x" },
      restoreEffects: [{ _id: "evil000000000001", name: "Evil", statuses: [], changes: [{ key: "system.hp.max", mode: 2, value: "100" }] },
        { _id: "evil000000000002", name: "Sneaky", statuses: ["dazed"], changes: [{ key: "system.armor", mode: 5, value: "99" }],
          flags: { [SCOPE]: { kind: "status" }, core: { overlay: true } } }],
      deleteEffects: [ogre.source.effects[0]._id]
    },
    vigilance: { uuid: ogre.uuid, name: "Ogre", charges: 99, rolled: 6,
      restoreEffects: [{ _id: "evil000000000003", name: "Evil", statuses: ["vigilance"], changes: [{ key: "system.hp.value", mode: 5, value: "1" }] }] }
  };
}

/** The player writes their own message's flags (which Foundry lets the author do). */
const playerWrites = (message, key, value) => as(PLAYER, () => message.setFlag(SCOPE, key, value));

/* ----------------------------------------------------------------------- 1. undo of applied damage */

describe("1. Undo restores only the GM's own record of an application, only what an application changes", () => {
  test("a forged undo record in the player's own message changes nothing the player does not own", async () => {
    const card = attackCard(player(), hero, ogre);
    await playerWrites(card, "damageApplied.0", forgedRecord(ogre));
    const before = snapshot();
    const reply = await playerRequests("cardAction", { messageId: card.id, action: "undoDamage", key: 0 });
    assert.equal(reply.ok, false, "refused");
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    assert.equal(ogre.name, "Ogre");
    assert.equal(ogre.system.hp.value, 30);
    assert.equal(ogre.testUserPermission(player(), "OWNER"), false);
  });

  test("what the GM's client applied, it undoes from its own record, whatever the message's flag says", async () => {
    await as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true));
    const card = attackCard(player(), hero, ogre);
    const applied = await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 });
    assert.equal(applied.ok, true, applied.error);
    assert.equal(ogre.system.hp.value, 23, "5 + fray 2");
    // the player rewrites the card's record, then asks for the undo
    await playerWrites(card, "damageApplied.0", forgedRecord(ogre));
    const undone = await playerRequests("cardAction", { messageId: card.id, action: "undoDamage", key: 0 });
    assert.equal(undone.ok, true, undone.error);
    assert.equal(ogre.system.hp.value, 30, "the GM's record: HP back to 30, not the forged 1");
    assert.equal(ogre.name, "Ogre");
    assert.equal(ogre.system.armor, 0);
    assert.deepEqual(ogre.effects.contents.map(e => e.name), ["Dazed"], "no effect created, none deleted");
    assert.deepEqual(ogre.ownership, { default: 0 });
  });

  test("by default a player cannot apply their card's damage to a target they do not own; the GM can", async () => {
    const card = attackCard(player(), hero, ogre);
    const before = snapshot();
    const reply = await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /ICONENGINE\.Trust\.MayNotApply/);
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    await as(GM, () => CardActions.run(card, { action: "damage", key: 0 }, gm()));
    assert.equal(ogre.system.hp.value, 23);
  });

  test("a target's owner applies and undoes the GM's card on it through the GM's client", async () => {
    const card = attackCard(gm(), ogre, hero, 3);
    const before = snapshot();
    const applied = await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 });
    assert.equal(applied.ok, true, applied.error);
    assert.equal(hero.system.hp.value, 25, "3 + fray 2");
    assert.deepEqual(changedNotOwned(before, snapshot()).sort(), [`ChatMessage.${card.id}`, "Setting.gmRecords"],
      "the GM's card shows the breakdown and the GM keeps its record; nothing else of the GM's changes");
    const again = await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 });
    assert.match(again.error, /AlreadyApplied/, "once");
    const undone = await playerRequests("cardAction", { messageId: card.id, action: "undoDamage", key: 0 });
    assert.equal(undone.ok, true, undone.error);
    assert.equal(hero.system.hp.value, 30);
  });
});

describe("the GM's records", () => {
  test("a deleted message's records go with it; only the latest messages' are kept", async () => {
    const { default: GmRecords } = await import("../../module/gm-records.mjs");
    const keep = GmRecords.MAX_MESSAGES;
    GmRecords.MAX_MESSAGES = 3;
    try {
      const cards = Array.from({ length: 5 }, () => attackCard(gm(), ogre, ogre, 1));
      for (const card of cards) await as(GM, () => CardActions.run(card, { action: "damage", key: 0 }, gm()));
      const held = () => Object.keys(world.game.settings.get(SCOPE, "gmRecords"));
      assert.deepEqual(held(), cards.slice(2).map(c => c.id), "the latest 3");
      world.game.messages.delete(cards[3].id);
      await as(GM, () => Hooks.callAll("deleteChatMessage", cards[3], {}, GM));
      for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve));
      assert.deepEqual(held(), [cards[2].id, cards[4].id]);
      // a player cannot write them
      await assert.rejects(as(PLAYER, () => GmRecords.setDamage(cards[2].id, 0, null)), /GMOnly/);
      assert.deepEqual(held(), [cards[2].id, cards[4].id]);
    } finally {
      GmRecords.MAX_MESSAGES = keep;
    }
  });
});

/* ------------------------------------------------------------------------------------ 2. Counter */

describe("2. Counter damage comes from the GM's record or the target's statuses, onto the card author's attacker", () => {
  test("a forged Counter of 25 onto the GM's foe deals nothing", async () => {
    // the player's card names the GM's ogre as the attacker and the player's hero as the target
    const card = attackCard(player(), ogre, hero);
    await playerWrites(card, "damageApplied.0", { ...forgedRecord(hero), counter: 25 });
    const before = snapshot();
    const reply = await playerRequests("cardAction", { messageId: card.id, action: "counter", key: 0 });
    assert.equal(reply.ok, false);
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    assert.equal(ogre.system.hp.value, 30);
  });

  test("the GM's foe hits a character with Counter: its owner deals the 2 back once", async () => {
    await as(GM, () => hero.createEmbeddedDocuments("ActiveEffect", [{ name: "Counter", statuses: ["counter"] }]));
    const card = attackCard(gm(), ogre, hero);
    assert.equal((await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 })).ok, true);
    const reply = await playerRequests("cardAction", { messageId: card.id, action: "counter", key: 0 });
    assert.equal(reply.ok, true, reply.error);
    assert.equal(ogre.system.hp.value, 28, "Counter: 2 back");
    await playerRequests("cardAction", { messageId: card.id, action: "counter", key: 0 });
    assert.equal(ogre.system.hp.value, 28, "once per applied damage");
  });
});

/* ------------------------------------------------------------------------------------ 3. Clocks */

describe("3. A player ticks a clock only from an action card, the segments its roll gives, once", () => {
  const alarm = () => world.game.settings.get(SCOPE, "clocks")[0];

  test("a tick request of -8 empties no clock", async () => {
    const before = snapshot();
    const reply = await playerRequests("tickClock", { id: "alarm", ticks: -8 });
    assert.equal(reply.ok, false);
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    assert.equal(alarm().filled, 6);
  });

  test("the player's card ticks its roll's 2 segments, once, whatever the message claims", async () => {
    const card = actionCard(player(), hero);
    // the stored outcome is the author's to rewrite: the GM's client resolves the faces again
    card.rolls[0].options.outcome.segments = 8;
    const reply = await playerRequests("tickClock", { messageId: card.id, clockId: "alarm" });
    assert.equal(reply.ok, true, reply.error);
    assert.equal(alarm().filled, 8);
    await as(GM, () => world.game.settings.set(SCOPE, "clocks", [{ ...alarm(), filled: 0 }]));
    const again = await playerRequests("tickClock", { messageId: card.id, clockId: "alarm" });
    assert.equal(again.ok, false);
    assert.equal(alarm().filled, 0, "a card ticks once");
  });

  test("another's card is not the player's to tick from", async () => {
    const card = actionCard(gm(), ogre);
    const reply = await playerRequests("tickClock", { messageId: card.id, clockId: "alarm" });
    assert.match(reply.error, /MayNotTick/);
    assert.equal(alarm().filled, 6);
  });
});

/* ------------------------------------------------------------------------------------ 4. Combat */

/** A started combat of the player's character and the GM's ogre, over stand-ins. */
async function combat() {
  const combat = new IconCombat();
  const rows = [
    { id: "pc00000000000001", actorType: "character", owner: PLAYER, actor: hero },
    { id: "foe0000000000001", actorType: "foe", owner: null, actor: ogre }
  ].map(f => ({ id: f.id, name: f.id, token: null, actor: f.actor, iconEntry: () => combatantEntry(f),
    get isDefeated() { return f.actor.effects.some(e => e.statuses.has("defeated")); },
    testUserPermission: user => user.isGM || user.id === f.owner }));
  const byId = new Map(rows.map(r => [r.id, r]));
  byId[Symbol.iterator] = () => byId.values();
  Object.assign(combat, {
    id: "combat0000000001", _source: { system: { state: null } }, round: 0, turn: null, turns: rows,
    combatants: Object.assign(byId, { contents: rows, filter: fn => rows.filter(fn) }),
    async update(data) {
      assert.ok(world.game.user?.isGM, "only the GM's client writes the combat");
      if ("system.state" in data) this._source.system.state = merge(this._source.system.state, data["system.state"]);
      Object.assign(this, { round: data.round ?? this.round, turn: data.turn ?? this.turn });
    },
    async _onStartTurn() {}, async _clearMovementHistoryOnStartTurn() {}, async _onEndTurn() {}, async _onStartRound() {},
    async _onEndRound() {}, _playCombatSound() {}
  });
  world.game.combats.set(combat.id, combat);
  await as(GM, () => combat.startCombat());
  return combat;
}

/** Foundry's merge of an object field's update (`-=key` deletes; null replaces). */
function merge(stored, update) {
  if (update === null || typeof update !== "object" || Array.isArray(update) || stored === null || typeof stored !== "object") return update;
  const out = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (key.startsWith("-=")) delete out[key.slice(2)];
    else out[key] = merge(out[key], value);
  }
  return out;
}

const stateOf = c => structuredClone(c._source.system.state);

describe("4. Combat requests: a limit per request, no step for a repeated delay, permissions as the batch goes, no wiped fight", () => {
  test("101 delays in one request are refused whole", async () => {
    const c = await combat();
    const before = stateOf(c);
    const events = Array.from({ length: 101 }, () => ({ type: "delay", id: "pc00000000000001" }));
    const reply = await playerRequests("combatEvents", { combatId: c.id, events });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /TooManyEvents.*"max":"8"/);
    assert.deepEqual(stateOf(c), before);
  });

  test("a repeated pending delay adds no step: the GM's earlier steps stay undoable", async () => {
    const c = await combat();
    await as(GM, () => c.iconCommit([{ type: "adjustResolve", by: 2 }]));
    for (let i = 0; i < 101; i++) {
      const reply = await playerRequests("combatEvents", { combatId: c.id, events: [{ type: "delay", id: "pc00000000000001" }] });
      assert.equal(reply.ok, true, reply.error);
    }
    const state = stateOf(c);
    assert.equal(state.logged, 2, "the GM's resolve and one delay");
    await as(GM, () => c.iconCommit([{ type: "undo" }, { type: "undo" }]));
    assert.equal(stateOf(c).partyResolve, 1, "the GM's step undone");
  });

  test("permissions follow the state as the batch changes it", async () => {
    const c = await combat();
    // the player begins their own turn and ends it in one request: allowed, as the turn is theirs by then
    const reply = await playerRequests("combatEvents", { combatId: c.id, events: [{ type: "beginTurn", id: "pc00000000000001" }, { type: "endTurn" }] });
    assert.equal(reply.ok, true, reply.error);
    assert.equal(stateOf(c).current, undefined);
    // the foe's turn is open: the player's endTurn is refused
    await as(GM, () => c.iconCommit([{ type: "beginTurn", id: "foe0000000000001" }]));
    const before = stateOf(c);
    const refused = await playerRequests("combatEvents", { combatId: c.id, events: [{ type: "endTurn" }] });
    assert.match(refused.error, /notYours/);
    assert.deepEqual(stateOf(c), before);
  });

  test("Previous Turn on a running fight whose undo log is empty refuses, and the fight stays", async () => {
    const c = await combat();
    await as(GM, () => c.iconCommit([{ type: "beginTurn", id: "pc00000000000001" }]));
    // stored without its steps (as a version-1 state without history reads)
    c._source.system.state = { ...stateOf(c), log: {}, logged: 0, forgotten: 0 };
    const before = stateOf(c);
    const warnings = [];
    globalThis.ui.notifications.warn = message => warnings.push(message);
    await as(GM, () => c.previousTurn());
    assert.deepEqual(stateOf(c), before, "not wiped");
    assert.match(warnings.join(), /not as it started \(pc00000000000001's turn is open\)/);
  });
});

describe("the GM's client follows a player's own writes: only what concerns their own", () => {
  test("Defeated on the player's character marks its combatant defeated, and no other", async () => {
    const c = await combat();
    const before = stateOf(c);
    // the player's client writes the status on their own character; every client then hears of it
    const [effect] = await as(PLAYER, () => hero.createEmbeddedDocuments("ActiveEffect", [{ name: "Defeated", statuses: ["defeated"] }]));
    await as(GM, () => Hooks.callAll("createActiveEffect", effect, {}, PLAYER));
    for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve));
    const after = stateOf(c);
    const rows = state => Object.values(state.combatants).map(row => [row[0], row[2] & 4 ? "defeated" : "standing"]);
    assert.deepEqual(rows(before), [["pc00000000000001", "standing"], ["foe0000000000001", "standing"]]);
    assert.deepEqual(rows(after), [["pc00000000000001", "defeated"], ["foe0000000000001", "standing"]]);
    // the player cannot do the same to the GM's foe: the server refuses the write before any hook
    await assert.rejects(as(PLAYER, () => ogre.createEmbeddedDocuments("ActiveEffect", [{ name: "Defeated", statuses: ["defeated"] }])), /may not modify/);
  });

  test("a combatant the player adds for their character joins the party as a player character, whatever it claims", async () => {
    const c = await combat();
    const row = { id: "pc00000000000002", name: "x", token: null, actor: hero, isDefeated: false, testUserPermission: () => true,
      // what the player wrote on the Combatant: the foes' side, slow turns; the entry reads the actor
      iconEntry: () => combatantEntry({ id: "pc00000000000002", actorType: "character", side: "foes", canSlow: true }) };
    c.combatants.set(row.id, row);
    await as(GM, () => { c._onCreateDescendantDocuments(c, "combatants", [row], [], {}, PLAYER); });
    for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve));
    const added = Object.values(stateOf(c).combatants).find(r => r[0] === row.id);
    assert.deepEqual([added[0], added[1], added[2] & 1], [row.id, 0, 1], "on the party's side (0), a player character (flag 1)");
  });
});

/* ------------------------------------------------------------------------------------- Marks */

/** `author`'s ability card: `user` used `mark` on `targets`, its one part marking each. */
const markedCard = (author, user, targets, mark = "Hunter's Mark") => postMessage(author, {
  flags: { [SCOPE]: { card: cardFlag(user, targets, { kind: "card", name: mark, parts: [cardPart({ mark })] }) } } });
/** The card's control that marks its `key`th target. */
const markControl = (card, key = 0, part = 0) => ({ messageId: card.id, action: "effect", key, part });

const marksOn = actor => actor.effects.contents.filter(e => e.statuses.has("marked")).map(e => e.source.flags[SCOPE].mark.mark);

describe("Marks: placed by an ability card's user its author owns, on the card's targets, once", () => {
  before(() => {
    globalThis.canvas = null;
    globalThis.CONFIG.statusEffects = [{ id: "marked", img: "marked.svg" }];
  });
  beforeEach(() => as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true)));

  test("the player's card marks the GM's foe once; asking again changes nothing", async () => {
    const card = markedCard(player(), hero, [ogre]);
    const reply = await playerRequests("cardAction", markControl(card));
    assert.equal(reply.ok, true, reply.error);
    assert.deepEqual(marksOn(ogre), ["Hunter's Mark"]);
    const before = snapshot();
    const again = await playerRequests("cardAction", markControl(card));
    assert.match(again.error, /AlreadyApplied/);
    assert.deepEqual(changedNotOwned(before, snapshot()), [], "the mark is not taken off and put back");
  });

  test("forged cards and controls mark no one", async () => {
    const forgeries = [
      // the user is the GM's foe
      markControl(markedCard(player(), ogre, [ogre])),
      // the GM's card, asked for by the player
      markControl(markedCard(gm(), hero, [ogre])),
      // a target the card does not name, a part it does not have
      markControl(markedCard(player(), hero, [ogre]), 1),
      markControl(markedCard(player(), hero, [ogre]), 0, 1),
      // a mark of blanks is no mark
      markControl(markedCard(player(), hero, [ogre], "   "))
    ];
    const before = snapshot();
    for (const control of forgeries) {
      const reply = await playerRequests("cardAction", control);
      assert.equal(reply.ok, false, `${forgeries.indexOf(control)}: ${reply.error}`);
    }
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    assert.deepEqual(marksOn(ogre), []);
  });

  test("the player's character defeated ends the marks it placed and those on it, no other", async () => {
    const wolf = addActor({ name: "Wolf", type: "foe" });
    assert.equal((await playerRequests("cardAction", markControl(markedCard(player(), hero, [ogre])))).ok, true);
    await as(GM, () => ActorMarks.placeMark(wolf, ogre, "Pack Hunt"));
    await as(GM, () => ActorMarks.placeMark(ogre, hero, "Grudge"));
    assert.deepEqual([marksOn(ogre).sort(), marksOn(hero)], [["Hunter's Mark", "Pack Hunt"], ["Grudge"]]);
    const [effect] = await as(PLAYER, () => hero.createEmbeddedDocuments("ActiveEffect", [{ name: "Defeated", statuses: ["defeated"] }]));
    await as(GM, () => Hooks.callAll("createActiveEffect", effect, {}, PLAYER));
    for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve));
    assert.deepEqual([marksOn(ogre), marksOn(hero)], [["Pack Hunt"], []], "\"Marks end when the character that placed the mark is defeated\"");
  });
});

/* ------------------------------------------------------------- randomized: hostile payloads */

describe("1,000 hostile payloads of each request kind, sent as the player", () => {
  /** @type {ReturnType<typeof random>} */
  let r;
  const pick = list => list[Math.floor(r() * list.length)];
  let values;
  let c;
  before(() => {
    r = random(25);
    // IconSocket logs each refusal; 5,000 of them say nothing here.
    console.warn = () => {};
  });

  /** The world with nothing left that the player may legitimately do to what they do not own. */
  beforeEach(async () => {
    const forged = attackCard(player(), hero, ogre);
    await playerWrites(forged, "damageApplied.0", forgedRecord(ogre));
    const counterBait = attackCard(player(), ogre, hero);
    await playerWrites(counterBait, "damageApplied.0", { ...forgedRecord(hero), counter: 25 });
    const fresh = attackCard(player(), hero, ogre);
    const gmCard = attackCard(gm(), ogre, ogre);
    const applied = attackCard(gm(), ogre, ogre);
    await as(GM, () => CardActions.run(applied, { action: "damage", key: 0 }, gm()));
    const ticked = actionCard(player(), hero);
    await as(GM, () => ClockPanel.tickFromCard?.(ticked, "alarm"));
    const others = actionCard(gm(), ogre);
    // marks: the player's card placed already, a GM's card, a forged target, a forged attacker
    globalThis.canvas = null;
    globalThis.CONFIG.statusEffects = [{ id: "marked", img: "marked.svg" }];
    const marked = markedCard(player(), hero, [ogre]);
    await as(GM, () => CardActions.run(marked, { action: "effect", key: 0, part: 0 }, gm()));
    const markCards = [marked, markedCard(gm(), ogre, [hero]), markedCard(player(), hero, [hero], "Brand"), markedCard(player(), ogre, [ogre])];
    c = await combat();
    // the foe's turn is open and the player's character has a delay pending
    await as(GM, () => c.iconCommit([{ type: "delay", id: "pc00000000000001" }, { type: "goSlow", id: "pc00000000000001" },
      { type: "beginTurn", id: "foe0000000000001" }]));
    const messages = [forged, counterBait, fresh, gmCard, applied, ticked, others, ...markCards].map(m => m.id);
    const uuids = [hero, ally, ogre].map(a => a.uuid);
    const polluted = JSON.parse('{"__proto__": {"isGM": true, "ok": true}, "constructor": {"prototype": {"isGM": true}}}');
    values = [undefined, null, 0, -1, 1, 2, 6, 7, 99, 100, 0.5, -0, 1e9, -1e9, NaN, Infinity, "", "0", "1", "x".repeat(500), true, false,
      [], [0], {}, polluted, "__proto__", "constructor", GM, PLAYER, "alarm", c.id, ...messages, ...uuids, "pc00000000000001",
      "foe0000000000001", forgedRecord(ogre), { type: "undo" }];
    return { messages, uuids };
  });

  /** Sometimes a field from the right pool, sometimes anything at all, sometimes missing. */
  const field = pool => (r() < 0.8 ? pick(pool) : pick(values));
  const record = (fields) => {
    const out = {};
    for (const [name, pool] of Object.entries(fields)) if (r() < 0.9) out[name] = field(pool);
    // claims of who is asking, and other fields no handler reads
    if (r() < 0.3) Object.assign(out, { userId: GM, isGM: true, user: GM, applied: forgedRecord(ogre) });
    return out;
  };
  const ids = () => [...world.game.messages.keys()];
  const event = () => (r() < 0.15 ? pick(values) : {
    type: pick(["beginTurn", "endTurn", "goSlow", "delay", "addCombatant", "removeCombatant", "setDefeated", "adjustResolve", "undo",
      "endCombat", "start", "upgrade", "nope", 7]),
    id: pick(["pc00000000000001", "foe0000000000001", "", "nobody", 3]),
    by: pick([1, -1, 1e9, "2"]), defeated: pick([true, false, "yes"]),
    combatant: { id: pick(["new0000000000001", "pc00000000000001"]), side: pick(["party", "foes", "x"]), summoner: pick([null, "foe0000000000001"]) },
    combatants: [{ id: "pc00000000000001", side: "party" }]
  });
  const payloads = {
    cardAction: () => record({ messageId: ids(), action: ["damage", "damage", "undoDamage", "counter", "effect", "undoEffect", "nope"],
      key: [0, 0, 0, 1, -1, "0", 0.5, 99], part: [0, 0, 1, 11, 12, -1, "0"], saved: [true, false], keepOld: [true, false],
      vigilance: [0, 1, 6, 7, -3, "6"], vigilanceBy: [hero.uuid, ally.uuid, ogre.uuid], vigilanceCharges: [1, 3, 4, 99, -1] }),
    tickClock: () => record({ messageId: ids(), clockId: ["alarm", "nope"], id: ["alarm"], ticks: [-8, 8, 1e6, -1e6, 2] }),
    combatEvents: () => record({ combatId: [c.id], events: [Array.from({ length: r() < 0.7 ? 1 + Math.floor(r() * 3) : Math.floor(r() * 12) }, event),
      [{ type: "delay", id: "pc00000000000001" }]] })
  };

  for (const [type, payload] of Object.entries(payloads)) {
    test(`${type}: nothing the player does not own changes`, async () => {
      const extra = () => ({ [`Combat.${c.id}`]: { owned: false, data: c._source.system.state } });
      const before = snapshot(extra);
      for (let i = 0; i < 1000; i++) {
        const sent = payload();
        const reply = await playerRequests(type, sent);
        assert.equal(reply.to, PLAYER, "the GM answers the sender");
        const changed = changedNotOwned(before, snapshot(extra));
        assert.deepEqual(changed, [], `payload ${i}: ${JSON.stringify(sent)?.slice(0, 400)} (${reply.ok ? "accepted" : reply.error})`);
      }
    });
  }
});
