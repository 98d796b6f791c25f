/**
 * Issue 36: a hostile player against the turn order and the end of combat. Each test plays the
 * player through what a player may write (their own actors' effects and data, their own
 * Combatants: test/support/stand-in-combat.mjs holds v13's permissions) and the system socket
 * (`playerRequests`, as Foundry's server delivers it), and the GM's client hears of each write as
 * Foundry tells it (the writer's id with the hook). Run against the code before issue 36, each
 * numbered family's tests fail.
 */
import { beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GM, PLAYER, addActor, as, installWorld, nextId, playerRequests, world } from "../support/stand-in-world.mjs";
import { Scene, installCombat, settle } from "../support/stand-in-combat.mjs";

installWorld();
const { default: core } = await import("../support/load-core.mjs");
const { IconCombat, newCombat } = await installCombat();
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
const rules = await import("../../module/data/combat-rules.mjs");

/** The caps and the limit this file holds the code to (module/data/combat-rules.mjs, src/combat/stored.rs). */
const MAX_PLAYER_COMBATANTS = 8;
const MAX_STATE_JSON = 4 * 1024 * 1024;
test("the caps and the limit are the code's", () => {
  assert.equal(rules.MAX_PLAYER_COMBATANTS, MAX_PLAYER_COMBATANTS);
  assert.equal(rules.MAX_STATE_JSON, MAX_STATE_JSON);
});

const SCOPE = "icon-engine";
const ownedByPlayer = { default: 0, [PLAYER]: 3 };

IconCombat.registerSocket();
IconCombat.registerDefeatedSync();
IconSocket.register();

/** What the GM is told, and what reaches the console. */
const notices = [];
const consoleErrors = [];
globalThis.ui.notifications = { warn: m => notices.push(m), error: m => notices.push(m), info: () => {} };
console.error = (...args) => consoleErrors.push(args.map(String).join(" "));
console.warn = () => {};
// Regeneration posts a healing card through TacticalRolls (not under test here).
const healed = [];
TacticalRolls.heal = async (actor, healing) => { healed.push([actor.name, healing]); };

let hero;
let companion;
let ogre;
let wolf;
let scene;

beforeEach(() => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.combats.clear();
  world.game.user = world.game.users.get(GM);
  notices.length = 0;
  consoleErrors.length = 0;
  healed.length = 0;
  hero = addActor({ name: "Ysolde", type: "character", ownership: ownedByPlayer, system: { hp: { value: 10, max: 40 }, vigor: { value: 4, max: 10 } } });
  // a companion the player owns: an NPC (foe-type) actor on the party's side by its friendly token
  companion = addActor({ name: "Hound", type: "foe", ownership: ownedByPlayer });
  ogre = addActor({ name: "Ogre", type: "foe", system: { hp: { value: 5, max: 40 } } });
  wolf = addActor({ name: "Wolf", type: "foe", system: { hp: { value: 8, max: 40 } } });
  scene = new Scene();
});

/**
 * A fight on the scene: each actor's token and combatant (made by the GM), started by the GM.
 * @returns {Promise<any>}
 */
async function fight(fighters = [[hero, 1], [ogre, -1], [wolf, -1]]) {
  const combat = newCombat({ scene });
  for (const [actor, disposition] of fighters) {
    const token = scene.addToken({ actor, disposition });
    await combat.createEmbeddedDocuments("Combatant", [{ actorId: actor.id, tokenId: token.id }]);
  }
  await settle();
  await as(GM, () => combat.startCombat());
  return combat;
}

const state = combat => structuredClone(combat._source.system.state);
const idOf = (combat, actor) => combat.combatants.find(c => c.actorId === actor.id).id;
const rowOf = (combat, id) => Object.values(combat._source.system.state.combatants).find(r => r[0] === id);

/** The player writes an effect on their own actor; the GM's client hears of it. */
async function playerAddsEffect(actor, data) {
  const [effect] = await as(PLAYER, () => actor.createEmbeddedDocuments("ActiveEffect", [data]));
  await as(GM, () => Hooks.callAll("createActiveEffect", effect, {}, PLAYER));
  return effect;
}

/** The player deletes an effect of their own actor; the GM's client hears of it. */
async function playerDeletesEffect(actor, effect) {
  await as(PLAYER, () => actor.deleteEmbeddedDocuments("ActiveEffect", [effect.id]));
  await as(GM, () => Hooks.callAll("deleteActiveEffect", effect, {}, PLAYER));
}

const defeated = { name: "Defeated", statuses: ["defeated"] };

/* ------------------------------------------------------------------ 3. the undo log, the roster */

describe("3. What a player does to their own documents neither flushes the GM's undo history nor crowds the roster", () => {
  test("150 Defeated toggles on the player's own token take no step: the GM's turn steps all undo", async () => {
    const combat = await fight();
    const pc = idOf(combat, hero);
    const foe = idOf(combat, ogre);
    // the GM's steps: a turn of each side and a resolve
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: pc }, { type: "endTurn" }, { type: "beginTurn", id: foe },
      { type: "endTurn" }, { type: "adjustResolve", by: 2 }]));
    const before = state(combat);
    assert.equal(before.logged, 5);
    for (let i = 0; i < 150; i++) {
      const effect = await playerAddsEffect(hero, defeated);
      await settle();
      assert.equal(rowOf(combat, pc)[2] & 4, 4, "the turn order follows: defeated");
      await playerDeletesEffect(hero, effect);
      await settle();
      assert.equal(rowOf(combat, pc)[2] & 4, 0, "and standing again");
    }
    assert.equal(state(combat).logged, 5, "no step logged for the player's own status");
    assert.equal(state(combat).forgotten, 0);
    // every GM step undoes, back to the fight as it started
    await as(GM, () => combat.iconCommit(Array.from({ length: 5 }, () => ({ type: "undo" }))));
    const back = state(combat);
    assert.equal(back.logged, 0);
    assert.equal(back.partyResolve, 1);
    assert.equal(back.current, undefined);
    assert.deepEqual(Object.values(back.combatants).map(r => r[3]), [0, 0, 0], "no turn taken");
  });

  test("120 combatants of the player's own character created and deleted take no step", async () => {
    const combat = await fight();
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: idOf(combat, hero) }, { type: "endTurn" }]));
    const token = scene.addToken({ actor: hero, disposition: 1 });
    for (let i = 0; i < 120; i++) {
      const [made] = await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant", [{ actorId: hero.id, tokenId: token.id }]));
      await settle();
      assert.ok(rowOf(combat, made.id), "it joins the turn order");
      await as(PLAYER, () => combat.deleteEmbeddedDocuments("Combatant", [made.id]));
      await settle();
      assert.equal(rowOf(combat, made.id), undefined, "and leaves it");
    }
    assert.equal(state(combat).logged, 2, "the GM's two steps only");
    await as(GM, () => combat.iconCommit([{ type: "undo" }, { type: "undo" }]));
    assert.equal(state(combat).logged, 0);
  });

  test("after a GM's own combatant joined (an add in the log), a player's join and leave take their step back", async () => {
    const combat = await fight([[hero, 1], [ogre, -1]]);
    // the GM adds the wolf mid-fight: an add step in the log, which a quiet add would break
    const wolfToken = scene.addToken({ actor: wolf, disposition: -1 });
    await combat.createEmbeddedDocuments("Combatant", [{ actorId: wolf.id, tokenId: wolfToken.id }]);
    await settle();
    await as(GM, () => combat.iconCommit([{ type: "adjustResolve", by: 1 }]));
    const logged = state(combat).logged;
    const token = scene.addToken({ actor: hero, disposition: 1 });
    for (let i = 0; i < 50; i++) {
      const [made] = await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant", [{ actorId: hero.id, tokenId: token.id }]));
      await settle();
      assert.ok(rowOf(combat, made.id));
      await as(PLAYER, () => combat.deleteEmbeddedDocuments("Combatant", [made.id]));
      await settle();
      assert.equal(rowOf(combat, made.id), undefined);
    }
    assert.equal(state(combat).logged, logged, "each join's step taken back when it leaves");
    await as(GM, () => combat.iconCommit([{ type: "undo" }, { type: "undo" }]));
    assert.equal(rowOf(combat, idOf(combat, wolf)), undefined, "the GM's steps undo: the resolve, then the wolf's joining");
  });

  test("a change the log depends on still takes its step: the player's combatant that acted leaves, and the GM's undo brings it back", async () => {
    const combat = await fight();
    const token = scene.addToken({ actor: hero, disposition: 1 });
    const [made] = await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant", [{ actorId: hero.id, tokenId: token.id }]));
    await settle();
    // it takes a turn (a logged step names it), then the GM acts
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: made.id }, { type: "endTurn" }, { type: "adjustResolve", by: 1 }]));
    const logged = state(combat).logged;
    await as(PLAYER, () => combat.deleteEmbeddedDocuments("Combatant", [made.id]));
    await settle();
    assert.equal(rowOf(combat, made.id), undefined);
    assert.equal(state(combat).logged, logged + 1, "its leaving is a step: undoing the turn it took needs it back");
    await as(GM, () => combat.iconCommit(Array.from({ length: 4 }, () => ({ type: "undo" }))));
    assert.ok(rowOf(combat, made.id), "back, its turn undone");
    assert.equal(rowOf(combat, made.id)[3], 0);
  });

  test("the player's character defeated quietly across the GM's steps: every step still undoes, the fight stays whole", async () => {
    const combat = await fight();
    const [pc, foe, grunt] = [hero, ogre, wolf].map(a => idOf(combat, a));
    await playerAddsEffect(hero, defeated);
    await settle();
    // the round ends (the foes take their turns), a new one starts; the GM spends resolve
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: foe }, { type: "endTurn" }, { type: "beginTurn", id: grunt }, { type: "endTurn" },
      { type: "adjustResolve", by: -1 }]));
    assert.equal(state(combat).round, 2);
    assert.equal(rowOf(combat, pc)[2] & 4, 4);
    const logged = state(combat).logged;
    assert.equal(logged, 5, "the GM's steps, not the player's status");
    await as(GM, () => combat.iconCommit(Array.from({ length: logged }, () => ({ type: "undo" }))));
    const back = state(combat);
    assert.deepEqual([back.round, back.partyResolve, back.logged], [1, 1, 0]);
    assert.equal(rowOf(combat, pc)[2] & 4, 4, "still defeated, as the character is");
    // and the fight goes on from there
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: foe }]));
  });

  test("998 combatants of the player's character: at most its tokens plus one join; the GM's next foe still enters", async () => {
    const combat = await fight();
    const before = combat.combatants.size;
    await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant", Array.from({ length: 998 }, () => ({ actorId: hero.id }))));
    await settle(200);
    const heroes = combat.combatants.filter(c => c.actorId === hero.id);
    assert.equal(heroes.length, 2, "one token on the scene, and one more");
    assert.equal(combat.combatants.size, before + 1, "the rest deleted again");
    assert.equal(Object.keys(state(combat).combatants).length, before + 1);
    assert.match(notices.join("\n"), /ICONENGINE\.Combat\.JoinRefused\.actor.*Ysolde/);
    // the GM's foe enters the turn order
    const token = scene.addToken({ actor: wolf, disposition: -1 });
    const [foe] = await combat.createEmbeddedDocuments("Combatant", [{ actorId: wolf.id, tokenId: token.id }]);
    await settle();
    assert.ok(rowOf(combat, foe.id), "the GM's foe joined");
  });

  test(`a player has at most ${MAX_PLAYER_COMBATANTS} combatants of their own in a running fight`, async () => {
    const combat = await fight();
    // tokens enough for each to be allowed by its actor's cap
    for (let i = 0; i < 12; i++) scene.addToken({ actor: companion, disposition: 1 });
    for (let i = 0; i < 12; i++) {
      await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant", [{ actorId: companion.id }]));
      await settle();
    }
    const owned = combat.combatants.filter(c => c.testUserPermission(world.game.users.get(PLAYER), "OWNER"));
    assert.equal(owned.length, MAX_PLAYER_COMBATANTS);
    assert.match(notices.join("\n"), /ICONENGINE\.Combat\.JoinRefused\.player/);
  });

  test("a combatant the player creates carries no GM-only settings; the GM's own choices stand", async () => {
    const combat = await fight();
    const token = scene.addToken({ actor: companion, disposition: 1 });
    // the player writes the foes' side and slow turns on their companion's new combatant
    const [made] = await as(PLAYER, () => combat.createEmbeddedDocuments("Combatant",
      [{ actorId: companion.id, tokenId: token.id, system: { side: "foes", canSlow: true } }]));
    await settle();
    const row = rowOf(combat, made.id);
    assert.deepEqual([row[1], row[2] & 2], [0, 0], "the party's side (its friendly token), no slow turns");
    // the GM sets slow turns on the ogre; the player rewrites their own combatant's system; a new fight
    const fresh = newCombat({ scene });
    const [ogreC] = await fresh.createEmbeddedDocuments("Combatant", [{ actorId: ogre.id }]);
    const [heroC] = await fresh.createEmbeddedDocuments("Combatant", [{ actorId: hero.id }]);
    const [hound] = await as(PLAYER, () => fresh.createEmbeddedDocuments("Combatant", [{ actorId: companion.id, tokenId: token.id }]));
    await fresh.updateEmbeddedDocuments("Combatant", [{ _id: ogreC.id, system: { canSlow: true } }]);
    await as(PLAYER, () => fresh.updateEmbeddedDocuments("Combatant", [{ _id: hound.id, system: { side: "foes", canSlow: true } }]));
    await settle();
    await as(GM, () => fresh.startCombat());
    const rows = Object.fromEntries(Object.values(state(fresh).combatants).map(r => [r[0], r]));
    assert.equal(rows[ogreC.id][2] & 2, 2, "the GM's slow turns");
    assert.deepEqual([rows[hound.id][1], rows[hound.id][2] & 2], [0, 0], "not the player's");
    assert.equal(rows[heroC.id][1], 0);
    assert.deepEqual(fresh._source.system.choices, { [ogreC.id]: { side: "", canSlow: true } }, "the GM's record, which only GMs write");
  });
});

/* ---------------------------------------------------- 4. the end of combat, each actor apart */

describe("4. One actor the core refuses skips that actor only, and the GM hears of it", () => {
  /** The Dazed status, as the system creates it. */
  const dazed = { name: "Dazed", statuses: ["dazed"], flags: { [SCOPE]: { kind: "status", ongoing: false } } };

  test("the player's character with armor 5000: everyone else still heals, loses vigor, gains resolve, is cured", async () => {
    const ally = addActor({ name: "Brann", type: "character", ownership: ownedByPlayer, system: { hp: { value: 6, max: 40 }, vigor: { value: 5, max: 10 } } });
    const combat = await fight([[hero, 1], [ally, 1], [ogre, -1]]);
    await as(GM, () => ally.createEmbeddedDocuments("ActiveEffect", [dazed]));
    await as(GM, () => ogre.createEmbeddedDocuments("ActiveEffect", [dazed]));
    // what the data model would refuse, written straight to the player's own actor
    await as(PLAYER, () => hero.update({ "system.armor": 5000 }));
    await as(GM, () => combat.iconCommit([{ type: "endCombat" }]));
    // "heal to bloodied" (half of 40), vigor lost, +1 personal resolve for the player characters, cured
    assert.deepEqual([ally.system.hp.value, ally.system.vigor.value, ally.system.resolve], [20, 0, 1]);
    assert.deepEqual(ally.effects.contents.map(e => e.name), []);
    assert.deepEqual([ogre.system.hp.value, ogre.effects.contents.length], [20, 0]);
    // the hero skipped, as it was
    assert.deepEqual([hero.system.hp.value, hero.system.vigor.value, hero.system.resolve], [10, 4, 0]);
    assert.equal(notices.filter(n => /ICONENGINE\.Combat\.Skipped/.test(n)).length, 1, "one notice");
    assert.match(notices.join(), /Skipped.*"name":"Ysolde".*armor/);
    assert.ok(consoleErrors.some(e => /combatEnd: Ysolde/.test(e)));
  });

  test("two power dice of one ability: the same", async () => {
    const combat = await fight([[hero, 1], [ogre, -1]]);
    await as(PLAYER, () => hero.update({ "system.powerDice": [{ ability: "Flare", ticks: 2 }, { ability: "Flare", ticks: 3 }] }));
    await as(GM, () => combat.iconCommit([{ type: "endCombat" }]));
    assert.equal(ogre.system.hp.value, 20, "the ogre after the hero still heals");
    assert.match(notices.join(), /Skipped.*Ysolde.*two power dice of Flare/);
  });

  test("a turn's end: the owner the core refuses does not stop the other fighters' once-a-turn limits clearing", async () => {
    const combat = await fight();
    const pc = idOf(combat, hero);
    // bloodied with Regeneration: its end-of-turn healing reads the hero's data, which the core refuses
    await as(PLAYER, () => hero.update({ "system.armor": 5000 }));
    await playerAddsEffect(hero, { name: "Regeneration", statuses: ["regeneration"], flags: { [SCOPE]: { kind: "status", ongoing: false } } });
    await as(GM, () => ogre.setFlag(SCOPE, "slashedThisTurn", true));
    await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "beginTurn", id: pc }] });
    await as(GM, () => ogre.setFlag(SCOPE, "slashedThisTurn", true));
    const reply = await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "endTurn" }] });
    assert.equal(reply.ok, true, reply.error);
    assert.equal(ogre.getFlag(SCOPE, "slashedThisTurn"), undefined, "the ogre may take Slashed again");
    assert.match(notices.join(), /Skipped.*Ysolde/);
  });

  test("recharges: an actor whose items cannot be written is skipped, the others recharge", async () => {
    const combat = await fight([[hero, 1], [ogre, -1]]);
    const recharged = [];
    const items = actor => [{ id: `${actor.id}-i`, system: { charges: { value: 0, max: 1, recharge: "round" }, limit: { per: "", used: 0 } } }];
    Object.assign(hero, { items: items(hero), updateEmbeddedDocuments: async () => { throw new Error("stand-in server: refused"); } });
    Object.assign(ogre, { items: items(ogre), updateEmbeddedDocuments: async (type, updates) => { recharged.push(...updates); } });
    const pc = idOf(combat, hero);
    const foe = idOf(combat, ogre);
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: pc }, { type: "endTurn" }, { type: "beginTurn", id: foe }, { type: "endTurn" }]));
    assert.equal(state(combat).round, 2);
    assert.deepEqual(recharged.map(u => u._id), [`${ogre.id}-i`], "the ogre's ability recharged at the round's start");
    assert.match(notices.join(), /Skipped.*"name":"Ysolde"/);
  });
});

/* ------------------------------------------------------------------ 7. Hatred, the hater's own */

describe("7. Hatred ends at the end of the hater's own turn", () => {
  const hatred = { name: "Hatred", statuses: ["hatred"], flags: { [SCOPE]: { kind: "status", ongoing: false } } };

  test("a Hatred inflicted on a foe during the player's turn survives that turn's end, and ends with the foe's own", async () => {
    const combat = await fight();
    const pc = idOf(combat, hero);
    const foe = idOf(combat, ogre);
    await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "beginTurn", id: pc }] });
    // the player's ability makes the ogre hate them (the GM's client writes it)
    await as(GM, () => ogre.createEmbeddedDocuments("ActiveEffect", [hatred]));
    const ended = await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "endTurn" }] });
    assert.equal(ended.ok, true, ended.error);
    assert.deepEqual(ogre.effects.contents.map(e => e.name), ["Hatred"], "the player's turn end leaves the ogre's Hatred");
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: foe }]));
    assert.deepEqual(ogre.effects.contents.map(e => e.name), ["Hatred"]);
    await as(GM, () => combat.iconCommit([{ type: "endTurn" }]));
    assert.deepEqual(ogre.effects.contents.map(e => e.name), [], "\"End this status at the end of your turn\"");
  });

  test("an ongoing Hatred stays; another fighter's Defiance immunity still ends with any turn", async () => {
    const combat = await fight();
    const foe = idOf(combat, ogre);
    await as(GM, () => ogre.createEmbeddedDocuments("ActiveEffect", [{ ...hatred, flags: { [SCOPE]: { kind: "status", ongoing: true } } }]));
    await as(GM, () => hero.createEmbeddedDocuments("ActiveEffect", [{ name: "Immune", statuses: ["immune"], flags: { [SCOPE]: { kind: "state", ongoing: false } } }]));
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: idOf(combat, hero) }, { type: "endTurn" }, { type: "beginTurn", id: foe }, { type: "endTurn" }]));
    assert.deepEqual(ogre.effects.contents.map(e => e.name), ["Hatred"]);
    assert.deepEqual(hero.effects.contents.map(e => e.name), []);
  });
});

/* ------------------------------------------------------------------------ 8. the state's size */

describe("8. A stored state past the limit is refused before it is read, with a clear message", () => {
  const sizes = {
    "one long string": base => ({ ...base, junk: "x".repeat(MAX_STATE_JSON + 10) }),
    "200,000 combatants": base => ({ ...base, nextNumber: 200_000,
      combatants: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [String(i), [`c${i}`, 1, 0, 0, 0, 1]])) })
  };
  for (const [name, grow] of Object.entries(sizes)) {
    test(`${name}: the GM's events and the player's requests are refused, the tracker shows no fight, the GM is told once`, async () => {
      const combat = await fight();
      const pc = idOf(combat, hero);
      combat._source.system.state = grow(state(combat));
      combat.prepareBaseData();
      const reply = await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "beginTurn", id: pc }] });
      assert.equal(reply.ok, false);
      assert.match(reply.error, /ICONENGINE\.Combat\.StateTooLarge.*"max":"4,194,304"/);
      await assert.rejects(as(GM, () => combat.iconCommit([{ type: "adjustResolve", by: 1 }])), /StateTooLarge/);
      assert.equal(combat.iconState, null);
      assert.equal(combat.iconState, null);
      assert.equal(notices.filter(n => /StateTooLarge/.test(n)).length, 1);
      // the GM may still end it (Foundry deletes the Combat)
      await as(GM, () => combat.endCombat());
      assert.equal(world.game.combats.has(combat.id), false);
    });
  }

  test("the core refuses the text of a state past its limit by its length", () => {
    const base = core.combatApply(null, { type: "start", combatants: [{ id: "a", side: "party", isPlayerCharacter: true, template: null, canSlow: false, summoner: null }] }).state;
    assert.throws(() => core.combatApply({ ...base, junk: "x".repeat(MAX_STATE_JSON) }, { type: "adjustResolve", by: 1 }),
      /invalid combat state: it is \d+ bytes of JSON; the limit is 4194304/);
    assert.equal(core.combatApply({ ...base, junk: "x".repeat(1000) }, { type: "adjustResolve", by: 1 }).state.partyResolve, 2);
  });
});

/* ------------------------------------------------------------- 9. the tracker says what it did */

describe("9. A chat note says what the turn's end and the combat's end did by themselves", () => {
  const notes = () => world.game.messages.contents.filter(m => m.flags[SCOPE]?.announcement);
  /** What the note says: its text, HTML's entities read back. */
  const text = message => message.source.content.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()
    .replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#x27;/g, "'").replace(/&amp;/g, "&");

  test("the player's turn ends: their Hatred, a status to the end of their turn and Stunned after an ability", async () => {
    const combat = await fight();
    const pc = idOf(combat, hero);
    await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "beginTurn", id: pc }] });
    await as(GM, () => hero.createEmbeddedDocuments("ActiveEffect", [
      { name: "Hatred", statuses: ["hatred"], flags: { [SCOPE]: { kind: "status", ongoing: false } } },
      { name: "Weakened", statuses: ["weakened"], flags: { [SCOPE]: { kind: "status", ongoing: false, endsAtTurnEnd: true } } }]));
    // the player's ability while Stunned: their client takes Stunned off, then ends the turn
    const stunned = await playerAddsEffect(hero, { name: "Stunned", statuses: ["stunned"], flags: { [SCOPE]: { kind: "status", ongoing: false } } });
    await playerDeletesEffect(hero, stunned);
    await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "endTurn" }] });
    const [note] = notes();
    assert.ok(note, "a note");
    assert.equal(text(note), "ICONENGINE.Combat.Note.turnEnd {\"name\":\"Ysolde\"} ICONENGINE.Combat.Note.ended {\"name\":\"Ysolde\",\"statuses\":\"Stunned, Hatred, Weakened\"}");
    assert.deepEqual(note.source.whisper.sort(), [GM, PLAYER].sort(), "to the GM and the owner");
    assert.deepEqual(hero.effects.contents.map(e => e.name), []);
    // a turn in which nothing ended by itself says nothing
    await as(GM, () => combat.iconCommit([{ type: "beginTurn", id: idOf(combat, ogre) }, { type: "endTurn" }]));
    assert.equal(notes().length, 1);
  });

  test("the combat ends: healed to bloodied, vigor lost, resolve gained, statuses ended, summons gone; names as text", async () => {
    hero.source.name = "<img src=x onerror=alert(1)>";
    const combat = await fight();
    await as(GM, () => ogre.createEmbeddedDocuments("ActiveEffect", [{ name: "Dazed", statuses: ["dazed"], flags: { [SCOPE]: { kind: "status", ongoing: false } } }]));
    const imp = addActor({ name: "Imp", type: "foe" });
    scene.addToken({ actor: imp, name: "Imp", flags: { [SCOPE]: { summoned: ogre.uuid } } });
    await as(GM, () => combat.iconCommit([{ type: "endCombat" }]));
    const [note] = notes();
    assert.ok(note, "a note");
    const content = note.source.content;
    assert.doesNotMatch(content, /<img/, "the name is text");
    assert.match(text(note), /Note\.combatEndSummons \{"names":"Imp"\}/);
    assert.match(text(note), /Note\.healed \{"name":"<img src=x onerror=alert\(1\)>","from":"10","to":"20"\}/);
    assert.match(text(note), /Note\.vigorLost \{"name":"<img[^"]*","vigor":"4"\}/);
    assert.match(text(note), /Note\.resolve \{"name":"<img[^"]*"\}/);
    assert.match(text(note), /Note\.healed \{"name":"Ogre","from":"5","to":"20"\}/);
    assert.match(text(note), /Note\.ended \{"name":"Ogre","statuses":"Dazed"\}/);
    assert.deepEqual(note.source.whisper.sort(), [GM, PLAYER].sort());
  });
});

/* -------------------------------------------------- 4. the data models refuse what the core does */

describe("4. The actor data models refuse what the core refuses", () => {
  // Foundry's field validation as v13 applies it to a source (min, max, integer, blank, choices,
  // a field's `validate`), over stand-in field classes that keep their options.
  class DataField {
    constructor(options = {}) { this.options = options; }
    check(value) {
      const { validate } = this.options;
      return typeof validate === "function" && validate(value) === false ? [this.options.validationError ?? "invalid"] : [];
    }
  }
  class NumberField extends DataField {
    check(value) {
      const { min, max, integer, choices } = this.options;
      if (typeof value !== "number" || !Number.isFinite(value)) return ["not a number"];
      if (integer && !Number.isInteger(value)) return ["not an integer"];
      if (min !== undefined && value < min) return [`below ${min}`];
      if (max !== undefined && value > max) return [`above ${max}`];
      if (choices && !choices.includes(value)) return ["not a choice"];
      return super.check(value);
    }
  }
  class StringField extends DataField {
    check(value) {
      if (typeof value !== "string") return ["not a string"];
      if (value === "" && this.options.blank === false) return ["blank"];
      return super.check(value);
    }
  }
  class SchemaField extends DataField {
    constructor(fields, options) { super(options); this.fields = fields; }
    check(value) { return Object.entries(this.fields).flatMap(([k, f]) => f.check(value?.[k]).map(e => `${k}: ${e}`)); }
  }
  class ArrayField extends DataField {
    constructor(element, options) { super(options); this.element = element; }
    check(value) { return [...value.flatMap((v, i) => this.element.check(v).map(e => `${i}.${e}`)), ...super.check(value)]; }
  }
  const Pass = class extends DataField { check() { return []; } };
  let schemas;
  let validateCharacter;
  const source = overrides => {
    const system = { biography: "", class: "", job: "", vit: 10, hp: { value: 40, max: 40 }, vigor: { value: 0, max: 10 }, wounds: 0,
      defense: 7, speed: 4, dash: 2, damageDie: 8, fray: 3, armor: 0, vigilance: 0, blessings: 0, combo: false, powerDice: [],
      level: 1, range: 3, resolve: 0, xp: 0, actions: Object.fromEntries(["sneak", "traverse", "sense", "study", "charm", "command", "tinker", "excel", "smash", "endure"].map(a => [a, 0])), strain: { value: 0, max: 5 }, effort: 0, burdens: [], broken: false,
      brokenForExpedition: false, burdenPending: false, sitsOutNextExpedition: false, limitBreakUsed: false, bonds: "", ideals: "", ambitions: "" };
    for (const [path, value] of Object.entries(overrides)) {
      const parts = path.split(".");
      parts.slice(0, -1).reduce((node, part) => node[part], system)[parts.at(-1)] = value;
    }
    return system;
  };
  /** The model's verdict: its fields' and its joint rule's errors. */
  const modelErrors = system => {
    const errors = new SchemaField(schemas.character).check(system);
    try { validateCharacter(system); } catch (error) { errors.push(error.message); }
    return errors;
  };
  /** The core's verdict on what of this actor reaches it. */
  const coreRefuses = (system, request) => {
    try {
      core.resolve(request(system), []);
      return false;
    } catch {
      return true;
    }
  };
  const target = (s, resolve) => ({ hp: s.hp.value, maxHp: s.hp.max, vigor: s.vigor.value, armor: s.armor, wounds: s.wounds,
    isPlayerCharacter: true, statuses: [], ...(resolve ? { resolve: s.resolve } : {}) });
  const heal = s => ({ kind: "icon.heal", target: target(s), healing: "endCombat" });

  test("each bound: the largest value both accept, and the next both refuse", async () => {
    globalThis.foundry.data = { fields: { DataField, NumberField, StringField, SchemaField, ArrayField, BooleanField: Pass, HTMLField: StringField, ObjectField: Pass } };
    globalThis.foundry.abstract = { TypeDataModel: class {} };
    const { default: CharacterData } = await import("../../module/data/character-data.mjs");
    const { default: HeroData } = await import("../../module/data/hero-data.mjs");
    schemas = { character: CharacterData.defineSchema(), hero: HeroData.defineSchema() };
    validateCharacter = data => CharacterData.validateJoint(data);
    const dice = n => Array.from({ length: n }, (_, i) => ({ ability: `Ability ${i}`, ticks: 1 }));
    // [name, the largest accepted source, the next, what reaches the core]
    const bounds = [
      ["armor", { armor: 1000 }, { armor: 1001 }, heal],
      ["vigor", { "vigor.value": 100_000 }, { "vigor.value": 100_001 }, heal],
      ["hp", { "hp.value": 100_000, "hp.max": 100_000 }, { "hp.value": 100_001, "hp.max": 100_001 }, heal],
      ["wounds", { wounds: 4 }, { wounds: 5 }, heal],
      ["resolve", { resolve: 1000 }, { resolve: 1001 }, s => ({ kind: "icon.heal", target: target(s, true), healing: "endCombat" })],
      ["fray", { fray: 1000 }, { fray: 1001 }, s => ({ kind: "icon.damage", result: "hit", die: 8, dice: 1, fray: s.fray })],
      ["defense", { defense: 100 }, { defense: 101 }, s => ({ kind: "icon.attack", boons: 0, curses: 0, defense: s.defense })],
      ["effort", { effort: 1000 }, { effort: 1001 }, s => ({ kind: "icon.action", rating: 1, effortPool: s.effort })],
      ["blessings", { blessings: 100 }, { blessings: 101 }, s => ({ kind: "icon.tokens", tokens: { blessings: s.blessings }, event: { type: "endCombat" } })],
      ["power dice", { powerDice: dice(20) }, { powerDice: dice(21) }, s => ({ kind: "icon.tokens", tokens: { powerDice: s.powerDice }, event: { type: "endCombat" } })],
      ["ticks", { powerDice: [{ ability: "Flare", ticks: 6 }] }, { powerDice: [{ ability: "Flare", ticks: 7 }] },
        s => ({ kind: "icon.tokens", tokens: { powerDice: s.powerDice }, event: { type: "endCombat" } })],
      ["one die per ability", { powerDice: [{ ability: "Flare", ticks: 1 }, { ability: "Glow", ticks: 1 }] },
        { powerDice: [{ ability: "Flare", ticks: 1 }, { ability: "Flare", ticks: 1 }] },
        s => ({ kind: "icon.tokens", tokens: { powerDice: s.powerDice }, event: { type: "endCombat" } })],
      // 256 bytes: 128 two-byte letters; one more is past it
      ["an ability's name", { powerDice: [{ ability: "é".repeat(128), ticks: 1 }] }, { powerDice: [{ ability: `${"é".repeat(128)}a`, ticks: 1 }] },
        s => ({ kind: "icon.tokens", tokens: { powerDice: s.powerDice }, event: { type: "endCombat" } })],
      ["a blank ability", { powerDice: [{ ability: "\u00a0x", ticks: 1 }] }, { powerDice: [{ ability: "\u0085 ", ticks: 1 }] },
        s => ({ kind: "icon.tokens", tokens: { powerDice: s.powerDice }, event: { type: "endCombat" } })]
    ];
    for (const [name, largest, next, request] of bounds) {
      const ok = source(largest);
      const bad = source(next);
      assert.deepEqual(modelErrors(ok), [], `${name}: the model accepts ${JSON.stringify(largest).slice(0, 80)}`);
      assert.equal(coreRefuses(ok, request), false, `${name}: the core accepts it`);
      assert.notDeepEqual(modelErrors(bad), [], `${name}: the model refuses ${JSON.stringify(next).slice(0, 80)}`);
      assert.equal(coreRefuses(bad, request), true, `${name}: the core refuses it`);
    }
    // a hero's health reaches the core too (the end of combat heals whoever has HP)
    const health = new SchemaField({ hp: schemas.hero.hp, vigor: schemas.hero.vigor });
    const heroTarget = h => ({ kind: "icon.heal", target: { hp: h.hp.value, maxHp: h.hp.max, vigor: h.vigor.value, statuses: [] }, healing: "endCombat" });
    for (const [largest, next] of [[{ hp: { value: 100_000, max: 100_000 }, vigor: { value: 0, max: 0 } }, { hp: { value: 100_001, max: 100_001 }, vigor: { value: 0, max: 0 } }],
      [{ hp: { value: 1, max: 1 }, vigor: { value: 100_000, max: 0 } }, { hp: { value: 1, max: 1 }, vigor: { value: 100_001, max: 0 } }]]) {
      assert.deepEqual(health.check(largest), []);
      assert.equal(coreRefuses(largest, heroTarget), false);
      assert.notDeepEqual(health.check(next), []);
      assert.equal(coreRefuses(next, heroTarget), true);
    }
  });
});
