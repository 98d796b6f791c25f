/**
 * The GM's client is a trust boundary (docs/security.md): issue 28's one new request, `applyEffect`
 * (a use card's effect on a target the asking player does not own), sent as a non-GM player's
 * exactly as Foundry's server delivers it, in a world whose documents refuse what their user may
 * not write (test/support/stand-in-world.mjs). Who may: the GM, the target's owner, or the card's
 * author when the world lets players apply damage to others' targets; what lands: only a status
 * the system knows, with its duration's flag, on a target the card names; a mark only by a placer
 * the card's author owns. Then 1,000 seeded hostile payloads change nothing the player does not own.
 */
import { before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GM, PLAYER, addActor, as, changedNotOwned, installWorld, playerRequests, postMessage, random, snapshot, world } from
  "../support/stand-in-world.mjs";

installWorld();
await import("../support/load-core.mjs");
// What the use flow reads of Foundry besides the stand-in world: no scene is viewed, the status list.
globalThis.canvas = { ready: false, scene: null };
globalThis.CONFIG.statusEffects = [{ id: "marked", img: "marked.svg" }];
globalThis.Combat = class { get started() { return false; } };
globalThis.Combatant = class {};
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: ItemUse } = await import("../../module/applications/item-use.mjs");
const settings = await import("../../module/settings.mjs");

settings.registerTrustSettings?.();
ItemUse.register();
IconSocket.register();

const SCOPE = "icon-engine";
const gm = () => world.game.users.get(GM);
const player = () => world.game.users.get(PLAYER);
const ownedByPlayer = { default: 0, [PLAYER]: 3 };

let hero;
let ally;
let ogre;

beforeEach(() => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.user = gm();
  hero = addActor({ name: "Ysolde", type: "character", ownership: ownedByPlayer });
  ally = addActor({ name: "Brann", type: "character", ownership: ownedByPlayer });
  ogre = addActor({ name: "Ogre", type: "foe" });
  return as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", false));
});

/** A use card as the flow posts it: its author, the user (an actor), the effects, the targets. */
function useCard(author, user, targets, effects = [{ trigger: "use", status: "dazed", duration: "save", mark: "", movement: "", text: "" }]) {
  return postMessage(author, { content: "<div></div>", flags: { [SCOPE]: { use: {
    actor: user.uuid, item: `${user.uuid}.Item.x`, name: "Zap", kind: "card", combo: null, save: null, effects,
    targets: targets.map(t => ({ uuid: t.uuid, name: t.name })) } } } });
}

const statuses = actor => (actor.source.effects ?? []).flatMap(e => e.statuses ?? []).sort();
const request = (message, index, target) => playerRequests("applyEffect", { messageId: message.id, index, target: target.uuid });

describe("applyEffect: a use card's effect on another's target, through the GM", () => {
  test("the player's card on the GM's foe: refused while the world setting is off, applied when it is on", async () => {
    const card = useCard(player(), hero, [ogre]);
    const refused = await request(card, 0, ogre);
    assert.equal(refused.ok, false);
    assert.match(refused.error, /ICONENGINE.Use.MayNotAffect {"name":"Ogre"}/);
    assert.deepEqual(statuses(ogre), []);
    await as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true));
    const applied = await request(card, 0, ogre);
    assert.equal(applied.ok, true, applied.error);
    assert.deepEqual(statuses(ogre), ["dazed"]);
  });

  test("even with the setting on, a card the player did not write applies nothing to what they do not own", async () => {
    await as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true));
    const gmCard = useCard(gm(), ogre, [ogre, hero]);
    const reply = await request(gmCard, 0, ogre);
    assert.equal(reply.ok, false);
    assert.deepEqual(statuses(ogre), []);
    // their own target: the owner may
    const own = await request(gmCard, 0, hero);
    assert.equal(own.ok, true, own.error);
    assert.deepEqual(statuses(hero), ["dazed"]);
  });

  test("what a card claims is cut down: a target it does not name, an effect it does not have, a status the system does not know, a mark by an actor the author does not own", async () => {
    await as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true));
    const card = useCard(player(), hero, [ogre], [
      { trigger: "use", status: "evil", duration: "save", mark: "", movement: "", text: "" },
      { trigger: "use", status: "weakened", duration: "forever", mark: "", movement: "", text: "" }]);
    assert.match((await request(card, 0, ally)).error, /ICONENGINE.Trust.BadRequest/, "not one of its targets");
    assert.match((await request(card, 7, ogre)).error, /ICONENGINE.Trust.BadRequest/, "no such effect");
    assert.equal((await request(card, 0, ogre)).ok, true);
    assert.deepEqual(statuses(ogre), [], "an unknown status lands as nothing");
    assert.equal((await request(card, 1, ogre)).ok, true);
    assert.deepEqual(statuses(ogre), ["weakened"], "a known status, its unknown duration read as a save's");
    const stolen = useCard(player(), ogre, [ogre], [{ trigger: "use", status: "", duration: "save", mark: "Theft", movement: "", text: "" }]);
    assert.equal((await request(stolen, 0, ogre)).ok, true);
    assert.deepEqual(statuses(ogre), ["weakened"], "no mark: the card's actor is the GM's");
    const mine = useCard(player(), hero, [ogre], [{ trigger: "use", status: "", duration: "save", mark: "Brand", movement: "", text: "" }]);
    assert.equal((await request(mine, 0, ogre)).ok, true);
    assert.deepEqual(statuses(ogre), ["marked", "weakened"], "a mark placed by the author's own character");
  });

  test("the sender is the server's: a payload claiming the GM changes nothing", async () => {
    const card = useCard(player(), hero, [ogre]);
    const reply = await playerRequests("applyEffect", { messageId: card.id, index: 0, target: ogre.uuid, userId: GM, isGM: true });
    assert.equal(reply.ok, false);
    assert.deepEqual(statuses(ogre), []);
  });
});

describe("1,000 hostile payloads of applyEffect, sent as the player", () => {
  before(() => {
    // IconSocket logs each refusal; a thousand of them say nothing here.
    console.warn = () => {};
  });

  test("applyEffect: nothing the player does not own changes", async () => {
    const r = random(28);
    const pick = list => list[Math.floor(r() * list.length)];
    const playerCard = useCard(player(), hero, [ogre, hero], [
      { trigger: "use", status: "stunned", duration: "ongoing", mark: "Brand", movement: "", text: "" },
      { trigger: "failedSave", status: "__proto__", duration: "turn", mark: "x".repeat(500), movement: "", text: "" }]);
    const gmCard = useCard(gm(), ogre, [ogre, hero]);
    const forged = postMessage(player(), { content: "", flags: { [SCOPE]: { use: { actor: ogre.uuid, effects: "all", targets: { 0: { uuid: ogre.uuid } } } } } });
    const polluted = JSON.parse('{"__proto__": {"isGM": true}, "constructor": {"prototype": {"isGM": true}}}');
    const values = [undefined, null, 0, -1, 1, 2, 11, 12, 0.5, NaN, "", "0", "x".repeat(500), true, [], {}, polluted, "__proto__",
      GM, PLAYER, playerCard.id, gmCard.id, forged.id, hero.uuid, ogre.uuid, ally.uuid];
    const field = pool => (r() < 0.8 ? pick(pool) : pick(values));
    const before = snapshot();
    for (let i = 0; i < 1000; i++) {
      const sent = {};
      if (r() < 0.95) sent.messageId = field([playerCard.id, gmCard.id, forged.id]);
      if (r() < 0.95) sent.index = field([0, 1, 2, -1, "0"]);
      if (r() < 0.95) sent.target = field([ogre.uuid, hero.uuid, ally.uuid]);
      if (r() < 0.3) Object.assign(sent, { userId: GM, isGM: true });
      const reply = await playerRequests("applyEffect", sent);
      assert.equal(reply.to, PLAYER, "the GM answers the sender");
      const changed = changedNotOwned(before, snapshot());
      assert.deepEqual(changed, [], `payload ${i}: ${JSON.stringify(sent)?.slice(0, 300)} (${reply.ok ? "accepted" : reply.error})`);
    }
  });
});
