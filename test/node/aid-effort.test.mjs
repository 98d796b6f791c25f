/**
 * Issue 41: aid, and an ally paying effort for a broken character, take the helpers' effort
 * ("When you aid an ally during their action roll, you spend 1 effort to grant them +1 boon";
 * "When you are broken, you must spend 1 effort to take any action. Nearby characters can also
 * spend effort for you"). The roller's client pays the helpers its user owns; the active GM's
 * client the others, on the `payAid` request (docs/security.md), sent here as a non-GM player's,
 * exactly as Foundry's server delivers it, in a world of stand-ins that refuse a write their user
 * may not make (test/support/stand-in-world.mjs). What the roll claims is checked against the roll
 * (the core resolves its faces again); a helper pays once per roll; then 1,000 hostile payloads
 * change nothing the player does not own.
 */
import { beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GM, PLAYER, Roll, addActor, as, changedNotOwned, installWorld, nextId, playerRequests, postMessage, random, snapshot, world } from
  "../support/stand-in-world.mjs";

installWorld();
const { default: core } = await import("../support/load-core.mjs");
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: AidEffort, aidClaim, helperPayment, PAY_REQUEST } = await import("../../module/applications/narrative/aid-effort.mjs");

AidEffort.register();
IconSocket.register();

const SCOPE = "icon-engine";
const gm = () => world.game.users.get(GM);
const player = () => world.game.users.get(PLAYER);

let hero;
let brann;
let mira;
let ogre;
beforeEach(() => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.user = gm();
  const mine = { default: 0, [PLAYER]: 3 };
  hero = addActor({ name: "Ysolde", type: "character", ownership: mine, system: { effort: 1 } });
  brann = addActor({ name: "Brann", type: "character", ownership: mine, system: { effort: 2 } });
  // Another player's character: the player may not write it.
  mira = addActor({ name: "Mira", type: "character", system: { effort: 2 } });
  ogre = addActor({ name: "Ogre", type: "foe", system: { effort: 5 } });
});

/**
 * An action roll as the dialog makes it: `rating` 2, the helpers named in its options, faces
 * enough for its pool; the core's outcome.
 * @param {{aidBy?: unknown, brokenPaidBy?: unknown, roller?: {uuid: string}, aid?: number, broken?: boolean, paid?: boolean}} claim
 */
function actionRoll({ aidBy = [], brokenPaidBy = null, roller = hero, aid = Array.isArray(aidBy) ? Math.min(20, aidBy.length) : 0,
  paid = brokenPaidBy !== null, broken = paid } = {}) {
  const request = { kind: "icon.action", rating: 2, boons: 0, curses: 0, push: false, aid, temptFate: false, burdenTicks: 0, broken,
    risk: "risky", effect: "normal", ...(paid ? { brokenPaidByAlly: true } : {}) };
  const pool = core.plan(request)[0].count;
  const faces = [Array.from({ length: pool }, (_, i) => [6, 4, 2, 3, 5][i % 5])];
  const outcome = core.resolve(request, faces);
  return new Roll({ request, faces, outcome, options: { action: "smash", actorUuid: roller.uuid, aidBy, brokenPaidBy } });
}

const card = (author, claim) => postMessage(author, { rolls: [actionRoll(claim)] });

/** The claim of a roll, as the GM's client reads it from the roll's options. */
const claimOf = roll => aidClaim({ request: roll.options.request, options: roll.options }, roll.outcome);

describe("what a roll's helpers owe, checked against the roll", () => {
  test("aid: 1 effort from each ally named; a broken roller's payer 1 more; the core's effortHelpers must agree", () => {
    const claim = claimOf(actionRoll({ aidBy: ["Actor.b", "Actor.m"] }));
    assert.deepEqual([...claim.costs], [["Actor.b", 1], ["Actor.m", 1]]);
    assert.equal(claim.roller, hero.uuid);
    const broken = actionRoll({ aidBy: ["Actor.b"], brokenPaidBy: "Actor.b" });
    assert.deepEqual([...claimOf(broken).costs], [["Actor.b", 2]]);
    assert.equal(broken.outcome.effortHelpers, 2, "the core: 1 aid + 1 for the broken roller");
  });

  test("a claim that is not what the roll was rolled with is refused", () => {
    const bad = [
      actionRoll({ aidBy: ["Actor.b"], aid: 0 }),                                     // names a helper the roll never asked for
      actionRoll({ aidBy: [], aid: 2 }),                                              // two aids, no one named
      actionRoll({ aidBy: ["Actor.b", "Actor.b"] }),                                  // one helper twice
      actionRoll({ aidBy: [hero.uuid] }),                                             // the roller aiding itself
      actionRoll({ brokenPaidBy: "Actor.b", paid: false, broken: true }),            // a payer the roll did not ask for
      actionRoll({ aidBy: "Actor.b" }),                                               // not a list
      actionRoll({ aidBy: Array.from({ length: 21 }, (_, i) => `Actor.x${i}`) })      // past the core's 20
    ];
    for (const roll of bad) assert.throws(() => claimOf(roll), /AidMismatch/, JSON.stringify(roll.options));
  });

  test("a helper pays once per roll, and nothing when it has too little", () => {
    assert.deepEqual(helperPayment({ effort: 2 }, undefined, "m1", 1), { update: { "system.effort": 1, "flags.icon-engine.aidPaid": ["m1"] } });
    assert.equal(helperPayment({ effort: 2 }, ["m1"], "m1", 1), null);
    assert.deepEqual(helperPayment({ effort: 1 }, [], "m1", 2), { short: true });
    // only the messages that still exist are remembered
    assert.deepEqual(helperPayment({ effort: 3 }, ["gone", "m0"], "m1", 1, id => id === "m0").update["flags.icon-engine.aidPaid"], ["m0", "m1"]);
  });
});

describe("the payAid request", () => {
  test("the player's roll aided by another player's character: the GM's client takes 1 of its effort, once", async () => {
    const message = card(player(), { aidBy: [mira.uuid] });
    const before = snapshot();
    const reply = await playerRequests(PAY_REQUEST, { messageId: message.id });
    assert.equal(reply.ok, true, reply.error);
    assert.deepEqual(reply.result, { paid: ["Mira"], short: [] });
    assert.equal(mira.system.effort, 1);
    assert.deepEqual(mira.getFlag(SCOPE, "aidPaid"), [message.id]);
    assert.deepEqual(changedNotOwned(before, snapshot()), [mira.uuid], "only the helper the roll names");
    const again = await playerRequests(PAY_REQUEST, { messageId: message.id });
    assert.equal(again.ok, true);
    assert.deepEqual(again.result, { paid: [], short: [] });
    assert.equal(mira.system.effort, 1, "a roll takes a helper's effort once");
  });

  test("a broken roller's effort paid by an ally who also aids: 2 from the ally", async () => {
    const message = card(player(), { aidBy: [mira.uuid], brokenPaidBy: mira.uuid, broken: true });
    const reply = await playerRequests(PAY_REQUEST, { messageId: message.id });
    assert.equal(reply.ok, true, reply.error);
    assert.equal(mira.system.effort, 0);
  });

  test("a helper with too little effort left pays nothing, and the player is told", async () => {
    await as(GM, () => mira.update({ "system.effort": 0 }));
    const message = card(player(), { aidBy: [mira.uuid] });
    const reply = await playerRequests(PAY_REQUEST, { messageId: message.id });
    assert.deepEqual(reply.result, { paid: [], short: ["Mira"] });
    assert.equal(mira.system.effort, 0);
  });

  test("the roller's own client pays the helpers it owns; the GM's client skips a helper already paid", async () => {
    const message = card(player(), { aidBy: [brann.uuid] });
    const result = await as(PLAYER, () => AidEffort.pay(message));
    assert.deepEqual(result, { paid: ["Brann"], short: [] });
    assert.equal(brann.system.effort, 1);
    const reply = await playerRequests(PAY_REQUEST, { messageId: message.id });
    assert.deepEqual(reply.result, { paid: [], short: [] });
    assert.equal(brann.system.effort, 1, "not twice");
  });

  test("refused: another's message, a roll of a character the author does not own, a foe or the roller as helper, a claim the roll does not bear", async () => {
    const cases = {
      "the GM's roll": card(gm(), { aidBy: [mira.uuid], roller: mira }),
      "a roll for a character the player does not own": card(player(), { aidBy: [brann.uuid], roller: mira }),
      "a foe named as helper": card(player(), { aidBy: [ogre.uuid] }),
      "the roller named as helper": card(player(), { aidBy: [hero.uuid] }),
      "a helper the roll did not ask for": card(player(), { aidBy: [mira.uuid], aid: 0 }),
      "a helper named twice": card(player(), { aidBy: [mira.uuid, mira.uuid] }),
      "no action roll": postMessage(player(), { rolls: [] })
    };
    for (const [what, message] of Object.entries(cases)) {
      const before = snapshot();
      const reply = await playerRequests(PAY_REQUEST, { messageId: message.id });
      assert.equal(reply.ok, false, what);
      assert.deepEqual(changedNotOwned(before, snapshot()), [], what);
    }
    assert.deepEqual([mira.system.effort, ogre.system.effort], [2, 5]);
  });

  test("1,000 hostile payloads change nothing the player does not own", async () => {
    const next = random(41);
    const pick = list => list[Math.floor(next() * list.length)];
    const uuids = () => [mira.uuid, ogre.uuid, hero.uuid, brann.uuid, "Actor.nobody000000001", "x".repeat(500), 7, null, { uuid: mira.uuid }];
    // The player's own messages whose claims do not fit their rolls, and the GM's, among the ids sent.
    const messages = [];
    for (let i = 0; i < 40; i++) {
      const aidBy = next() < 0.2 ? pick(uuids()) : Array.from({ length: Math.floor(next() * 4) }, () => pick(uuids()));
      const aid = Array.isArray(aidBy) ? aidBy.length + 1 + Math.floor(next() * 3) : 1;
      messages.push(card(next() < 0.3 ? gm() : player(), { aidBy, aid, roller: pick([hero, mira, ogre]), brokenPaidBy: next() < 0.3 ? pick(uuids()) : null }));
    }
    const values = () => [pick(messages).id, nextId("m"), "", 42, null, [pick(messages).id], { id: pick(messages).id }, "__proto__", "a".repeat(300)];
    const before = snapshot();
    for (let i = 0; i < 1000; i++) {
      const payload = next() < 0.9 ? { messageId: pick(values()) } : pick([{}, { messageId: pick(messages).id, aidBy: [mira.uuid], sender: GM }]);
      await playerRequests(PAY_REQUEST, payload);
    }
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    assert.deepEqual([mira.system.effort, ogre.system.effort], [2, 5]);
  });
});
