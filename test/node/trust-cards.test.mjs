/**
 * Issue 36's "cards the GM clicks" and issue 41's one card, as a hostile player tries them: the GM's
 * client booted with the system's card code (CardFacts, CardActions), the player's socket requests
 * delivered as Foundry's server delivers them, the player writing only what the server lets an
 * author write (their message's content, flags and rolls; their own actors). What a card shows is
 * built from CardFacts (module/applications/card-view.mjs renders exactly that), so each test reads
 * what the GM would see there and checks that pressing it does that and nothing else.
 */
import { before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import { GM, PLAYER, Roll, addActor, as, changedNotOwned, installWorld, nextId, playerRequests, postMessage, random, snapshot, world } from
  "../support/stand-in-world.mjs";
import { cardFlag, cardPart } from "../support/cards.mjs";

installWorld();
globalThis.canvas = null;
globalThis.CONFIG.statusEffects = [{ id: "marked", img: "marked.svg" }, { id: "stunned" }, { id: "dazed" }, { id: "sturdy" }];
globalThis.Combat = class { get started() { return false; } };
globalThis.Combatant = class {};
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
const { default: CardFacts } = await import("../../module/applications/card-facts.mjs");
const { default: ActorStatuses } = await import("../../module/documents/actor-statuses.mjs");
const { default: GmRecords } = await import("../../module/gm-records.mjs");
const { default: NarrativeCards } = await import("../../module/applications/narrative/narrative-cards.mjs");
const { saveCardAllows } = await import("../../module/documents/combat-effects.mjs");
const settings = await import("../../module/settings.mjs");
const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");

// Rolls of requests that need no dice (Counter's icon.applyDamage): the core's answer, as IconRoll keeps it.
TacticalRolls.roll = async (request, tactical) => {
  const outcome = core.resolve(request, []);
  return new Roll({ request, outcome, options: { tactical }, total: outcome.total });
};

settings.registerTrustSettings?.();
GmRecords.register();
ActorStatuses.register();
CardActions.register();
IconSocket.register();

const SCOPE = "icon-engine";
const gm = () => world.game.users.get(GM);
const player = () => world.game.users.get(PLAYER);
const ownedByPlayer = { default: 0, [PLAYER]: 3 };
const settle = async () => { for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve)); };

let hero;
let other;
let goblin;
let boss;

beforeEach(async () => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.user = gm();
  hero = addActor({ name: "Ysolde", type: "character", ownership: ownedByPlayer });
  // another player's character: not this player's
  other = addActor({ name: "Brann", type: "character" });
  goblin = addActor({ name: "Goblin", type: "foe" });
  boss = addActor({ name: "Boss", type: "foe", system: { hp: { value: 80, max: 80 } },
    effects: [{ _id: nextId("e"), name: "Unstoppable", statuses: ["unstoppable"], flags: { [SCOPE]: { kind: "positive", ongoing: false } } }] });
  await as(GM, async () => {
    await world.game.settings.set(SCOPE, "gmRecords", {});
    await world.game.settings.set(SCOPE, "playersApplyDamage", false);
  });
});

/** A damage roll of key `key` whose faces the core resolves to `fray + faces`, claiming `claimed` as its stored outcome and target name. */
function damageRoll(key, faces, { fray = 2, claimedTotal = 3, claimedName = "Goblin", target = null } = {}) {
  const request = { kind: "icon.damage", result: "hit", die: 12, dice: faces.length, fray, bonusDice: 0 };
  const outcome = { ...core.resolve(request, [faces]), total: claimedTotal };
  return new Roll({ request, faces: [faces], outcome, total: claimedTotal,
    options: { tactical: { role: "damage", key, target: target ? { uuid: target.uuid, name: claimedName } : null,
      apply: { source: "hit", pierce: false, divine: false, attackerWeakened: false, attackerPacified: false, attackerHatred: false, cover: false, floor: 0,
        trueStrike: false } } } });
}

describe("1. a card shows what its controls do: its data, never its author's HTML", () => {
  test("an attack card reading 'Apply 3 to Goblin' shows the Boss and 25, and the GM's Apply deals the 25 it shows", async () => {
    // The player writes the card: its content, its roll's stored outcome and target name say 3 to Goblin; its record and faces say the Boss.
    const forged = postMessage(player(), {
      content: '<div class="tactical-apply"><button data-card-action="damage" data-key="0">Apply 3 to Goblin</button></div>',
      rolls: [damageRoll(0, [12, 11], { target: boss })],
      flags: { [SCOPE]: { card: cardFlag(hero, [boss]) } }
    });
    const facts = CardFacts.of(forged);
    const shown = facts.targets[0];
    assert.equal(shown.name, "Boss", "the name is the target's document's, not the stored 'Goblin'");
    assert.equal(shown.damage.outcome.total, 25, "the amount the faces give (12 + 11 + fray 2), not the stored 3");
    await as(GM, () => CardActions.run(forged, { action: "damage", key: 0 }, gm()));
    assert.equal(boss.system.hp.value, 80 - 25, "done: what was shown");
    assert.equal(goblin.system.hp.value, 30, "the Goblin, which the HTML named, is untouched");
  });

  test("a use card reading 'Apply Sturdy to Goblin' for another player's character: it shows the Boss and its Stun, and places no mark as that character", async () => {
    const forged = postMessage(player(), {
      content: '<button data-use-effect="0">Apply Sturdy to Goblin</button>',
      flags: { [SCOPE]: { card: cardFlag(other, [boss], { kind: "card", parts: [
        cardPart({ status: "stunned", mark: "Doom" })] }) } }
    });
    const facts = CardFacts.of(forged);
    assert.equal(facts.user, null, "the card's actor is another's: the card has no user");
    assert.equal(facts.userName, "Brann");
    assert.equal(facts.targets[0].name, "Boss");
    const fired = facts.answer.targets[0].parts[0];
    assert.deepEqual(fired.status, { lands: false, blockedBy: "unstoppable" }, "the Boss is Unstoppable: the Stun cannot land");
    assert.deepEqual(fired.mark, { lands: false, blockedBy: "notTheirs" }, "no mark is placed for a character its author does not own");
    // the player may not press it on the GM's Boss
    const before = snapshot();
    const reply = await playerRequests("cardAction", { messageId: forged.id, action: "effect", key: 0, part: 0 });
    assert.equal(reply.ok, false);
    assert.deepEqual(changedNotOwned(before, snapshot()), []);
    // the GM's own click goes through the same checks: nothing can land, so nothing is done or recorded
    await assert.rejects(as(GM, () => CardActions.run(forged, { action: "effect", key: 0, part: 0 }, gm())), /AllBlocked/);
    assert.deepEqual([...boss.statuses].sort(), ["unstoppable"]);
    assert.equal(GmRecords.effect(forged.id, "0.0"), null);
  });

  test("an action card naming another player's character moves no strain onto it, whatever its buttons say", async () => {
    const request = { kind: "icon.action", rating: 2, boons: 0, curses: 0, risk: "risky", effect: "normal", burdenTicks: 0, broken: false };
    const outcome = core.resolve(request, [[3, 2]]);
    const roll = new Roll({ request, faces: [[3, 2]], outcome: { ...outcome, strain: 2 }, options: { action: "hunt", actorUuid: other.uuid } });
    roll.checkedOutcome = () => core.resolve(request, [[3, 2]]);
    const forged = postMessage(player(), { rolls: [roll] });
    assert.equal(NarrativeCards.consequence(forged, other), null, "not the author's character: no consequence to take");
    const own = new Roll({ request, faces: [[3, 2]], outcome: { ...outcome, strain: 9 }, options: { action: "hunt", actorUuid: hero.uuid } });
    own.checkedOutcome = () => core.resolve(request, [[3, 2]]);
    const honest = postMessage(player(), { rolls: [own] });
    assert.deepEqual(NarrativeCards.consequence(honest, hero), { strain: outcome.strain, risk: "risky" },
      "the author's own character: the strain the faces give, not the stored 9");
  });

  test("a forged saves card ends nothing: only a GM's card, only a status it names that the actor can save against", () => {
    const saveable = core.iconSaveable(ActorStatuses.statusesOf(boss));
    assert.equal(saveAllows(player(), ["unstoppable"], "unstoppable", saveable), false, "a player's card");
    assert.equal(saveAllows(gm(), ["unstoppable"], "unstoppable", saveable), false, "Unstoppable is no status a save ends");
    assert.equal(saveAllows(gm(), ["dazed"], "dazed", ["dazed"]), true);
    assert.equal(saveAllows(gm(), ["dazed"], "weakened", ["dazed", "weakened"]), false, "a status the card does not name");
  });
});

/** @param {object} author @param {string[]} statuses @param {string} status @param {string[]} saveable */
const saveAllows = (author, statuses, status, saveable) => saveCardAllows({ author }, { actorUuid: "x", statuses }, status, saveable);

describe("summons", () => {
  test("\"Summons are intangible\": a summon's statuses read intangible (ongoing), so foes' damage and effects do not reach it", () => {
    const summon = { id: "s", appliedEffects: [], token: { getFlag: (scope, key) => scope === SCOPE && key === "summoned" } };
    assert.deepEqual(ActorStatuses.statusesOf(/** @type {never} */ (summon)), ["intangible+"]);
    assert.deepEqual(ActorStatuses.statusesOf(/** @type {never} */ ({ ...summon, token: null })), []);
    const answer = core.resolve({ kind: "icon.applyDamage", target: { hp: 10, maxHp: 10, statuses: ["intangible+"] }, amount: 5, source: "hit",
      fromFoe: true }, []);
    assert.equal(answer.target.hp, 10, "immune to a foe's damage");
  });
});

describe("what using an ability does to its user (issue 41: Stealth, Unstoppable)", () => {
  test("\"Stealth is broken when you use any ability other than dash\"; Stunned ends the turn, unless the user is Unstoppable", async () => {
    const { abilityAftermath } = await import("../../module/dice/tactical-requests.mjs");
    assert.deepEqual(abilityAftermath(core, ["stealth"]), { ended: ["stealth"], endsTurn: false });
    assert.deepEqual(abilityAftermath(core, ["stealth"], { dash: true }), { ended: [], endsTurn: false });
    assert.deepEqual(abilityAftermath(core, ["stealth+"]), { ended: [], endsTurn: false }, "an ongoing Stealth stays until its cause ends");
    assert.deepEqual(abilityAftermath(core, ["stunned"]), { ended: ["stunned"], endsTurn: true });
    assert.equal(abilityAftermath(core, ["stunned", "unstoppable"]).endsTurn, false, "\"Unstoppable: Immune to all statuses\"");
  });

  test("an Unstoppable attacker's Dazed, Weakened and Pacified do not shape its attack", async () => {
    const { initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
    const raw = ["dazed", "weakened", "pacified", "unstoppable"];
    const state = initialAttackState({ attackerStatuses: core.iconEffectiveStatuses(raw) });
    assert.deepEqual([state.dazed, state.weakened, state.pacified], [false, false, false]);
    const plain = initialAttackState({ attackerStatuses: core.iconEffectiveStatuses(["dazed", "weakened"]) });
    assert.deepEqual([plain.dazed, plain.weakened], [true, true]);
  });
});

describe("2. Counter is dealt once per card and target, undo or not", () => {
  test("Apply → Counter → Undo → Apply → Counter: the second Counter is refused, the attacker takes 2 once", async () => {
    const thorn = addActor({ name: "Thorn", type: "character", ownership: ownedByPlayer,
      effects: [{ _id: nextId("e"), name: "Counter", statuses: ["counter"], flags: { [SCOPE]: { kind: "positive", ongoing: false } } }] });
    const card = postMessage(gm(), { rolls: [damageRoll(0, [3], { target: thorn })], flags: { [SCOPE]: { card: cardFlag(goblin, [thorn]) } } });
    const ask = action => playerRequests("cardAction", { messageId: card.id, action, key: 0 });
    assert.equal((await ask("damage")).ok, true);
    assert.equal((await ask("counter")).ok, true);
    assert.equal(goblin.system.hp.value, 28, "Counter: 2 back");
    assert.equal((await ask("undoDamage")).ok, true);
    assert.equal((await ask("damage")).ok, true);
    const again = await ask("counter");
    assert.equal(again.ok, false);
    assert.match(again.error, /CounterDealt/);
    assert.equal(goblin.system.hp.value, 28, "never a second time");
  });
});

describe("6. the GM's records stay small whatever a player writes on their own actors", () => {
  test("a 2 MB name and 20 of the player's own zero-damage cards: the GM does none of it, and its records hold capped text", async () => {
    await as(PLAYER, () => hero.update({ name: "N".repeat(2_000_000) }));
    const cards = Array.from({ length: 20 }, () => postMessage(player(), { rolls: [damageRoll(0, [1], { fray: 0, target: hero })],
      flags: { [SCOPE]: { card: cardFlag(hero, [hero]) } } }));
    let slowest = 0;
    for (const card of cards) {
      const started = performance.now();
      const reply = await playerRequests("cardAction", { messageId: card.id, action: "damage", key: 0 });
      slowest = Math.max(slowest, performance.now() - started);
      assert.equal(reply.ok, false, "what the player may do on their own client, the GM does not do for them");
      assert.match(reply.error, /OwnClient/);
    }
    assert.deepEqual(world.game.settings.get(SCOPE, "gmRecords"), {});
    // the GM applying such a card itself keeps a capped record
    await as(GM, () => CardActions.run(cards[0], { action: "damage", key: 0 }, gm()));
    const record = GmRecords.damage(cards[0].id, 0);
    assert.equal(record.targetName.length, 100);
    assert.ok(JSON.stringify(world.game.settings.get(SCOPE, "gmRecords")).length < 4096);
    assert.ok(slowest < 100, `each request answered within 100 ms (slowest ${slowest.toFixed(1)} ms)`);
  });

  test("a record is cut as it is written: a claimed record full of someone's effects keeps only status effects' capped fields", async () => {
    const { boundedApplied } = await import("../../module/data/trust.mjs");
    const huge = { targetUuid: "Actor.x", targetName: "y".repeat(10_000), dealt: 1, steps: Array(500).fill({ rule: "hp", change: -1, amount: 1 }),
      after: { hp: 1 }, userId: GM, undo: { update: { "system.hp.value": 2, "system.armor": 9 },
        restoreEffects: Array.from({ length: 300 }, () => ({ _id: nextId("e"), name: "z".repeat(100_000), statuses: ["dazed"], changes: [{ key: "x" }] })),
        deleteEffects: [] } };
    const cut = boundedApplied(huge, new Set(["dazed"]));
    assert.equal(cut.targetName.length, 100);
    assert.equal(cut.steps.length, 32);
    assert.equal(cut.undo.restoreEffects.length, 32);
    assert.deepEqual(Object.keys(cut.undo.update), ["system.hp.value"]);
    assert.ok(JSON.stringify(cut).length < 20_000, `${JSON.stringify(cut).length} bytes`);
  });
});

describe("1,000 hostile cardAction payloads against ability cards", () => {
  /** @type {ReturnType<typeof random>} */
  let r;
  before(() => {
    r = random(41);
    console.warn = () => {};
  });

  test("nothing the player does not own changes, and no GM-side call takes 100 ms", async () => {
    const cards = [
      postMessage(player(), { rolls: [damageRoll(0, [12, 11], { target: boss })], flags: { [SCOPE]: { card: cardFlag(hero, [boss], { parts: [
        cardPart({ status: "dazed", duration: "turn", mark: "Brand", move: { kind: "shove", spaces: 2 } }),
        cardPart({ to: "self", status: "stunned" })] }) } } }),
      postMessage(player(), { flags: { [SCOPE]: { card: { ...cardFlag(other, [boss, goblin]), parts: "x".repeat(300) } } } }),
      // the GM's card on its own foes (on the player's character, its owner may legitimately apply it: the trust-boundary tests)
      postMessage(gm(), { rolls: [damageRoll(0, [6], { target: boss })], flags: { [SCOPE]: { card: cardFlag(goblin, [boss, goblin], { save: { boons: 0,
        curses: 0, forHalf: true } }) } } })
    ];
    const pick = list => list[Math.floor(r() * list.length)];
    const values = [undefined, null, 0, -1, 1, 11, 12, 99, 100, "0", true, false, {}, [], "x".repeat(500), GM, boss.uuid, hero.uuid];
    const before = snapshot();
    let slowest = 0;
    for (let i = 0; i < 1000; i++) {
      const payload = {};
      const fields = { messageId: cards.map(c => c.id), action: ["damage", "undoDamage", "counter", "effect", "undoEffect", "save", "nope"],
        key: [0, 0, 1, -1, 2, 64], part: [0, 1, 2, 11, -1], saved: [true, false], keepOld: [true, false],
        vigilance: [0, 1, 6, 7], vigilanceBy: [hero.uuid, boss.uuid], vigilanceCharges: [1, 99] };
      for (const [name, pool] of Object.entries(fields)) if (r() < 0.9) payload[name] = r() < 0.85 ? pick(pool) : pick(values);
      const started = performance.now();
      const reply = await playerRequests("cardAction", payload);
      slowest = Math.max(slowest, performance.now() - started);
      assert.equal(reply.to, PLAYER);
      assert.deepEqual(changedNotOwned(before, snapshot()), [], `payload ${i}: ${JSON.stringify(payload)} (${reply.ok ? "accepted" : reply.error})`);
    }
    await settle();
    assert.ok(slowest < 100, `slowest GM-side call ${slowest.toFixed(1)} ms`);
  });
});
