/**
 * Issue 36, 5: marks broken for the table. A player may write any flag on their own actor's
 * effects, a mark's among them; the core's `icon.marks` refuses a whole list with one malformed
 * mark in it. The GM's client leaves such marks out (reporting each once to its console), so
 * everyone's marks are still placed and ended; and a mark its placer already has on a target is
 * kept, not placed again, however often a card asks. Played as the player through the system
 * socket (`cardAction`) in the stand-in world (test/support/stand-in-world.mjs).
 * Run against the code before issue 36, these tests fail.
 */
import { beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GM, PLAYER, addActor, as, installWorld, playerRequests, postMessage, world } from "../support/stand-in-world.mjs";
import { cardFlag, cardPart } from "../support/cards.mjs";

installWorld();
const { default: core } = await import("../support/load-core.mjs");
globalThis.canvas = null;
globalThis.CONFIG.statusEffects = [{ id: "marked", img: "marked.svg" }];
globalThis.Combat = class { get started() { return false; } };
globalThis.Combatant = class {};
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: ActorMarks } = await import("../../module/documents/actor-marks.mjs");
const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
const { default: GmRecords } = await import("../../module/gm-records.mjs");
const settings = await import("../../module/settings.mjs");

settings.registerTrustSettings?.();
ActorMarks.register();
GmRecords.register();
CardActions.register();
IconSocket.register();

const SCOPE = "icon-engine";
const ownedByPlayer = { default: 0, [PLAYER]: 3 };
const consoleErrors = [];
console.error = (...args) => consoleErrors.push(args.map(a => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));

let hero;
let ogre;
let wolf;

beforeEach(async () => {
  world.game.actors.clear();
  world.game.messages.clear();
  world.game.user = world.game.users.get(GM);
  consoleErrors.length = 0;
  hero = addActor({ name: "Ysolde", type: "character", ownership: ownedByPlayer });
  ogre = addActor({ name: "Ogre", type: "foe" });
  wolf = addActor({ name: "Wolf", type: "foe" });
  await as(GM, () => world.game.settings.set(SCOPE, "gmRecords", {}));
  await as(GM, () => world.game.settings.set(SCOPE, "playersApplyDamage", true));
});

const marksOn = actor => actor.effects.contents.filter(e => e.statuses.has("marked")).map(e => e.source.flags[SCOPE].mark.mark);

/** The player's ability card: `user` used "Hunter's Mark" on `target`, whose one part marks it. */
const markedCard = (user, target, mark) => postMessage(world.game.users.get(PLAYER), {
  flags: { [SCOPE]: { card: cardFlag(user, [target], { kind: "card", name: mark, parts: [cardPart({ mark })] }) } } });

/** The player writes a mark effect of their own making on their own character. */
const forgedMark = (mark, placer = hero.uuid) => as(PLAYER, () => hero.createEmbeddedDocuments("ActiveEffect", [{
  name: "Forged", statuses: ["marked"], flags: { [SCOPE]: { mark: { mark, placer, placerName: "x" } } } }]));

describe("5. Marks: a malformed stored mark is left out, the rest keep working", () => {
  for (const [name, bad] of [["300 characters", "x".repeat(300)], ["blank", "   "], ["blank to Rust's trim (U+0085)", "\u0085"],
    ["257 bytes", `${"é".repeat(128)}a`]]) {
    test(`a mark flag of ${name} on the player's own effect: marks are still placed and ended; reported once`, async () => {
      await forgedMark(bad);
      await forgedMark(bad, ogre.uuid);
      // the GM's foe marks the player's character; the player's card marks the ogre
      await as(GM, () => ActorMarks.placeMark(wolf, hero, "Pack Hunt"));
      const reply = await playerRequests("cardAction", { messageId: markedCard(hero, ogre, "Hunter's Mark").id, action: "effect", key: 0, part: 0 });
      assert.equal(reply.ok, true, reply.error);
      assert.deepEqual(marksOn(ogre), ["Hunter's Mark"]);
      assert.deepEqual(marksOn(hero).filter(m => m === "Pack Hunt"), ["Pack Hunt"]);
      // "Marks end when the character that placed the mark is defeated"
      await as(GM, () => ActorMarks.endMarksOf(wolf));
      assert.deepEqual(marksOn(hero).filter(m => m === "Pack Hunt"), []);
      const reports = consoleErrors.filter(e => /marks: the mark of/.test(e));
      assert.equal(reports.length, 2, "each malformed mark once, however often the marks are read");
      assert.match(reports[0], new RegExp(hero.uuid.replace(".", "\\.")));
    });
  }

  test("the largest mark the core takes is read: 256 bytes", async () => {
    const long = "é".repeat(128);
    await forgedMark(long, wolf.uuid);
    // the wolf's own mark elsewhere ends its older one on the hero: only if the core read it
    await as(GM, () => ActorMarks.placeMark(wolf, ogre, long));
    assert.deepEqual(marksOn(hero), [], "the same mark of the same placer moved");
    assert.deepEqual(marksOn(ogre), [long]);
    assert.equal(consoleErrors.filter(e => /marks: the mark of/.test(e)).length, 0);
    assert.equal(core.resolve({ kind: "icon.marks", marks: [{ mark: long, placer: "a", target: "b" }], event: { type: "endCombat" } }, []).total, 1);
  });
});

describe("5. Marks: a repeated placement keeps the mark there", () => {
  // one more than the core's marks list holds (src/rulesets/icon/marks.rs MAX_MARKS, 1,000)
  test("1,001 placements of the same mark on the same target leave one effect, the same one", async () => {
    await as(GM, () => ActorMarks.placeMark(hero, ogre, "Hunter's Mark"));
    const [first] = ogre.effects.contents;
    for (let i = 0; i < 1000; i++) assert.equal((await as(GM, () => ActorMarks.placeMark(hero, ogre, "Hunter's Mark"))).placed, true);
    assert.deepEqual(ogre.effects.contents.map(e => e.id), [first.id], "kept, not deleted and made again");
    // and the placer's marks still follow the rules: a new mark on the same target replaces it
    await as(GM, () => ActorMarks.placeMark(hero, ogre, "Brand"));
    assert.deepEqual(marksOn(ogre), ["Brand"]);
  });

  test("an ability card's mark asked for again and again through cardAction: placed once, one mark", async () => {
    const card = markedCard(hero, ogre, "Brand");
    const replies = [];
    for (let i = 0; i < 50; i++) replies.push(await playerRequests("cardAction", { messageId: card.id, action: "effect", key: 0, part: 0 }));
    assert.equal(replies[0].ok, true, replies[0].error);
    assert.ok(replies.slice(1).every(r => !r.ok && /AlreadyApplied/.test(r.error)), "pressed once");
    assert.deepEqual(marksOn(ogre), ["Brand"]);
  });

  test("marks left by an older version twice over are one mark: placing it again keeps one", async () => {
    const data = { name: "Brand", statuses: ["marked"], flags: { [SCOPE]: { mark: { mark: "Brand", placer: hero.uuid, placerName: "Ysolde" } } } };
    await as(GM, () => ogre.createEmbeddedDocuments("ActiveEffect", [data, data, data]));
    await as(GM, () => ActorMarks.placeMark(hero, ogre, "Brand"));
    assert.deepEqual(marksOn(ogre), ["Brand"]);
  });
});
