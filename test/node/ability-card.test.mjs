/**
 * An ability's card from checked data (issue 41, and issue 36's "cards the GM clicks"): the record a
 * message's flag claims is cut to its shape (module/data/card-data.mjs), the card's context is built
 * from that record, the rolls resolved again by the real core, the saves and the records of what was
 * applied (module/dice/cards/ability-card.mjs), and forced movement follows the grid
 * (module/canvas/forced-movement.mjs). Expected words come from lang/en.json, expected numbers from
 * the seed's rules ("Shove: ... X spaces in a straight line away from you ... they collide and stop").
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";
import { CARD_LIMITS, CARD_VERSION, abilityParts, cardRecord, checkedCard } from "../../module/data/card-data.mjs";
import { abilityCardContext, abilityRequest, attackResultOf, partApplies, partLine, saveCalled } from "../../module/dice/cards/ability-card.mjs";
import { directionAway, forcedPath } from "../../module/canvas/forced-movement.mjs";
import { en, format } from "../support/lang.mjs";

const KNOWN = new Set(["dazed", "weakened", "vulnerable", "stunned", "marked", "sturdy"]);

/** An ability's system source as the data model stores it. */
const ability = (more = {}) => ({
  actions: "1", interrupt: 1, trigger: "", tags: [], resolveCost: 0, range: { kind: "", value: 0 }, area: { shape: "", size: 1 },
  roll: { saveForHalf: false }, attack: { mark: "" }, save: { enabled: false, boons: 0, curses: 0 }, effects: [],
  charges: { value: 0, max: 0 }, limit: { per: "" }, ...more
});

const effect = (more = {}) => ({ trigger: "use", gamble: 4, to: "target", status: "", duration: "save", mark: "", move: { kind: "", spaces: 1 },
  movement: "", text: "", ...more });

describe("the card record: what a use posts, and what a reader makes of a claim", () => {
  test("a use's record: the ability's parts (its attack's mark a part of its own), its save, its targets and user", () => {
    const system = ability({
      tags: ["attack", "combo"], range: { kind: "range", value: 5 }, save: { enabled: true, boons: 1, curses: 0 }, roll: { saveForHalf: true },
      attack: { mark: "Brand" },
      effects: [effect({ trigger: "hit", status: "dazed", duration: "turn" }), effect({ trigger: "failedSave", status: "weakened", movement: "Shove 1" })]
    });
    const card = cardRecord({ actor: "Actor.a", item: { uuid: "Actor.a.Item.i", name: "Lance", img: "l.svg", type: "ability", system }, kind: "attack",
      combo: "baseVersion", html: "<p>Zap.</p>", targets: [{ actor: "Actor.t", token: "Scene.s.Token.t" }], user: { bloodied: true, slowTurn: false } },
    KNOWN);
    assert.equal(card.v, CARD_VERSION);
    assert.deepEqual(card.parts.map(p => [p.trigger, p.status, p.duration, p.mark, p.text]), [
      ["hit", "dazed", "turn", "", ""],
      ["failedSave", "weakened", "save", "", "Shove 1"],
      // "Each ability grants its mark a unique effect": placed on each target it attacks
      ["use", "", "save", "Brand", ""]
    ]);
    assert.deepEqual(card.save, { boons: 1, curses: 0, forHalf: true });
    assert.deepEqual(card.targets, [{ actor: "Actor.t", token: "Scene.s.Token.t" }]);
    assert.deepEqual(card.user, { bloodied: true, slowTurn: false });
    assert.deepEqual(card.summary.range, { kind: "range", value: 5 });
    // an effect that names its own mark is not doubled
    assert.equal(abilityParts(ability({ attack: { mark: "Brand" }, effects: [effect({ mark: "Brand" })] }), KNOWN).length, 1);
    // an ability with no attack roll has nothing to hit: an effect stored "on a hit" happens on use
    assert.deepEqual(abilityParts(ability({ effects: [effect({ trigger: "hit", status: "dazed" })] }), KNOWN).map(p => p.trigger), ["use"]);
    assert.deepEqual(abilityParts(ability({ tags: ["attack"], effects: [effect({ trigger: "hit", status: "dazed" })] }), KNOWN).map(p => p.trigger), ["hit"]);
  });

  test("a hostile claim is cut to the shape: unknown statuses, triggers and kinds dropped, text and lists bounded, no extra field", () => {
    const claim = {
      v: CARD_VERSION, actor: "Actor.a", item: 7, name: "x".repeat(5000), kind: "nuke", basic: "mega", combo: "both",
      summary: { actions: "9", tags: ["attack", "godmode", ...Array(50).fill("area")], range: { kind: "galaxy", value: 1e9 }, charges: { value: -1, max: 99 } },
      html: "y".repeat(100_000),
      parts: Array.from({ length: 40 }, (_, i) => ({ trigger: i ? "hit" : "always", status: i % 2 ? "dazed" : "owned", duration: "forever", gamble: 99,
        to: "everyone", mark: "m".repeat(400), move: { kind: "vanish", spaces: 1e6 }, text: "t".repeat(9000), damage: 999 })),
      save: { boons: 50, curses: -3, forHalf: "yes" },
      targets: [...Array.from({ length: 100 }, (_, i) => ({ actor: `Actor.${i}`, token: 5 })), { token: "no actor" }],
      user: { bloodied: "yes", slowTurn: true, isGM: true }, cause: "c".repeat(5000),
      applyTo: "Actor.boss", amount: 27
    };
    const card = checkedCard(claim, KNOWN);
    assert.ok(card);
    assert.equal(card.name.length, CARD_LIMITS.name);
    assert.equal(card.html.length, CARD_LIMITS.html);
    assert.deepEqual([card.item, card.kind, card.basic, card.combo], ["", "card", "", ""]);
    assert.deepEqual(card.summary.tags, ["attack", "area"]);
    assert.deepEqual([card.summary.actions, card.summary.range, card.summary.charges], ["1", { kind: "", value: 0 }, { value: 0, max: 0 }]);
    assert.equal(card.parts.length, CARD_LIMITS.parts);
    assert.deepEqual(card.parts[0], { trigger: "use", gamble: 4, to: "target", status: "", duration: "save", mark: "m".repeat(CARD_LIMITS.name),
      move: { kind: "", spaces: 0 }, text: "t".repeat(CARD_LIMITS.text) });
    assert.equal(card.parts[1].status, "dazed");
    assert.deepEqual(card.save, { boons: 0, curses: 0, forHalf: false });
    assert.equal(card.targets.length, CARD_LIMITS.targets);
    assert.deepEqual(card.targets[0], { actor: "Actor.0", token: "" });
    assert.deepEqual(card.user, { bloodied: false, slowTurn: true });
    assert.equal(card.cause.length, CARD_LIMITS.uuid);
    assert.deepEqual(Object.keys(card).sort(), ["actor", "basic", "cause", "combo", "html", "img", "item", "kind", "name", "parts", "save", "summary",
      "targets", "template", "type", "user", "v"]);
    // no card at all
    for (const bad of [null, 7, "card", [], {}, { v: 2, actor: "Actor.a" }, { v: CARD_VERSION, actor: "" }]) assert.equal(checkedCard(bad, KNOWN), null);
  });
});

/** An attack roll and a damage roll resolved by the core from given faces, as CardFacts checks them. */
function checkedRoll(request, faces, options = {}) {
  const outcome = core.resolve(request, faces);
  assert.equal(outcome.status, "done");
  return { request, outcome, options };
}

const viewer = (may = true) => ({ mayApply: () => may, maySave: () => may, mayApplySelf: may, userName: id => ({ gm: "Gamemaster", p: "Pat" })[id] ?? "someone" });

describe("the card's context, from checked facts", () => {
  const card = cardRecord({ actor: "Actor.a", item: { uuid: "Actor.a.Item.i", name: "Lance", img: "", type: "ability", system: ability({
    tags: ["attack"], save: { enabled: true, boons: 0, curses: 0 }, roll: { saveForHalf: true },
    effects: [effect({ trigger: "hit", status: "dazed", duration: "turn" }), effect({ trigger: "use", move: { kind: "shove", spaces: 2 } }),
      effect({ trigger: "use", to: "self", text: "Gain 2 vigor." })] }) }, kind: "attack",
  targets: [{ actor: "Actor.t", token: "" }, { actor: "Actor.u", token: "" }] }, KNOWN);
  // d20 15 + no boons against defense 10: a hit; d20 3: a miss
  const attack = face => checkedRoll({ kind: "icon.attack", canCrit: true, trueStrike: false, autoHit: false, evasion: false, boons: 0, curses: 0,
    bonus: 0, defense: 10 }, [[face]], { tactical: { role: "attack" } });
  const damage = checkedRoll({ kind: "icon.damage", result: "hit", die: 6, dice: 1, fray: 2, bonusDice: 0 }, [[5]], { tactical: { role: "damage" } });
  const target = (key, more) => ({ key, uuid: `Actor.${key}`, name: `Hound ${"AB"[key]}`, img: "", exists: true, attack: null, damage: null, save: null,
    statuses: [], mob: false, summon: false, fromFoe: true, bloodied: false, slain: false, ...more });
  const records = { damage: {}, effects: {}, counter: {} };

  test("each target: its attack and damage as the core resolves them, its save, its fired parts with a control each; the user's own parts", () => {
    const targets = [target(0, { attack: attack(15), damage }), target(1, { attack: attack(3), save: { success: true, by: "Pat", messageId: "m" } })];
    const answer = { targets: [{ parts: [{ index: 0, status: { lands: true, blockedBy: null }, mark: null }, { index: 1, status: null, mark: null }] },
      { parts: [{ index: 1, status: null, mark: null }] }], self: [{ index: 2, status: null, mark: null }] };
    const context = abilityCardContext({ card, html: "<p>Zap.</p>", userName: "Ana", targets, answer, gamble: null, records, viewer: viewer(), format });
    assert.deepEqual(context.targets.map(t => [t.name, t.attack?.result, t.damage?.total ?? null]), [["Hound A", "hit", 7], ["Hound B", "miss", null]]);
    assert.deepEqual(context.targets[0].parts.map(p => [p.when, p.line, p.canApply]), [
      ["On a hit:", "Dazed until the end of its next turn", true],
      ["Effect:", "shove 2 (away from the user)", true]
    ]);
    assert.deepEqual(context.targets[1].parts.map(p => p.line), ["shove 2 (away from the user)"]);
    assert.deepEqual(context.self.map(p => [p.line, p.applies, p.canApply]), [["Gain 2 vigor.", false, false]], "text alone is for the table");
    // save for half: Hound B saved, so its one Apply is half; Hound A has not rolled, so both choices show
    assert.equal(context.targets[1].save.rolled.text, "Hound B saved (rolled by Pat).");
    assert.equal(context.targets[0].save.canRoll, true);
    assert.deepEqual([context.targets[0].damage.canApplyFull, context.targets[0].damage.halved], [true, false]);
    assert.equal(context.saveLabel, "Each target saves (10+).");
    // with boons and curses, each counted in its plural form
    assert.equal(saveCalled({ boons: 1, curses: 2 }, format), "Each target saves (10+), with 1 boon and 2 curses.");
    assert.equal(saveCalled({ boons: 0, curses: 1 }, format), "Each target saves (10+), with 1 curse.");
  });

  test("what was applied shows who applied it, with Undo; a blocked status says why and has no control; a reader who may not press sees none", () => {
    const targets = [target(0, { attack: attack(15), damage })];
    const answer = { targets: [{ parts: [{ index: 0, status: { lands: false, blockedBy: "unstoppable" }, mark: null }, { index: 1, status: null, mark: null }] }],
      self: [] };
    const applied = { damage: { 0: { targetUuid: "Actor.0", targetName: "x", dealt: 7, steps: [], counter: 2, after: { hp: 23, vigor: 0, wounds: 0,
      defeated: false, fallen: false }, undo: { update: {}, restoreEffects: [], deleteEffects: [] }, userId: "gm" } },
    effects: { "0.1": { userId: "p", landed: true, blockedBy: null, created: [], restored: [], moved: { token: "t", from: { x: 0, y: 0 },
      to: { x: 200, y: 0 }, spaces: 2, collided: false }, collision: null } }, counter: {} };
    const context = abilityCardContext({ card, html: "", userName: "Ana", targets, answer, gamble: null, records: applied, viewer: viewer(), format });
    const row = context.targets[0];
    assert.equal(row.damage.applied.by, "applied by Gamemaster");
    assert.equal(row.damage.applied.counter, 2, "Counter not yet dealt back");
    assert.equal(row.damage.canUndo, true);
    assert.deepEqual([row.parts[0].blocked, row.parts[0].canApply], ["Unstoppable: immune to statuses", false]);
    assert.deepEqual([row.parts[1].applied.text, row.parts[1].applied.moved, row.parts[1].canApply, row.parts[1].canUndo],
      ["applied by Pat", "moved 2 spaces", false, true]);
    const dealt = abilityCardContext({ card, html: "", userName: "Ana", targets, answer, gamble: null, records: { ...applied, counter: { 0: true } },
      viewer: viewer(), format });
    assert.equal(dealt.targets[0].damage.applied.counter, 0, "Counter dealt for this card and target: no second one, Undo or not");
    const watcher = abilityCardContext({ card, html: "", userName: "Ana", targets, answer, gamble: null, records, viewer: viewer(false), format });
    assert.deepEqual([watcher.targets[0].damage.canApply, watcher.targets[0].save.canRoll, watcher.targets[0].parts.some(p => p.canApply)], [false, false, false]);
  });

  test("the icon.ability request: parts, the user, and per target what the attack, save and damage came to", () => {
    const targets = [target(0, { attack: attack(15), bloodied: true }), target(1, { attack: attack(3), save: { success: false, by: "", messageId: "" },
      slain: true, mob: true })];
    const request = abilityRequest(card, targets, { statuses: ["sealed"] }, 5);
    assert.deepEqual(request.parts, [{ trigger: "hit", to: "target", status: "dazed", mark: false }, { trigger: "use", to: "target", status: "", mark: false },
      { trigger: "use", to: "self", status: "", mark: false }]);
    assert.deepEqual(request.user, { statuses: ["sealed"], bloodied: false, slowTurn: false, heroic: true });
    assert.equal(request.gamble, 5);
    assert.deepEqual(request.targets.map(t => [t.attack, t.save, t.bloodied, t.slain, t.mob]), [["hit", null, true, false, false], ["miss", "failed", false, true, true]]);
    // "On a 4+, the attack automatically misses": an evaded attack is a miss
    assert.equal(attackResultOf({ evaded: true, hit: true, crit: true }), "miss");
    assert.equal(attackResultOf({ autoHit: true }), "hit");
  });

  test("a part's line and whether a control applies it", () => {
    const line = part => partLine({ trigger: "use", gamble: 4, to: "target", status: "", duration: "save", mark: "", move: { kind: "", spaces: 0 }, text: "", ...part }, format);
    assert.equal(line({ status: "weakened", duration: "ongoing" }), "Weakened+ (ongoing)");
    assert.equal(line({ mark: "Brand", move: { kind: "pull", spaces: 3 } }), "mark: Brand; pull 3 (towards the user)");
    assert.equal(partApplies({ status: "", mark: "", move: { kind: "move", spaces: 2 } }), true, "a move the GM drags has its control (it arms the check)");
    assert.equal(partApplies({ status: "", mark: "", move: { kind: "", spaces: 2 } }), false, "text alone has none");
    assert.equal(partApplies({ status: "", mark: "", move: { kind: "shove", spaces: 2 } }), true);
  });
});

describe("forced movement on the grid", () => {
  const open = () => "clear";
  test("a shove goes straight away from its user, diagonals counting 1; a pull comes towards it and stops beside it", () => {
    const user = { i: 5, j: 5, w: 1, h: 1 };
    assert.deepEqual(directionAway(user, { i: 7, j: 5, w: 1, h: 1 }), { i: 1, j: 0 });
    assert.deepEqual(directionAway(user, { i: 7, j: 6, w: 1, h: 1 }), { i: 1, j: 1 }, "two right and one down: diagonally");
    assert.deepEqual(directionAway(user, { i: 8, j: 6, w: 1, h: 1 }), { i: 1, j: 0 }, "three right and one down: straight right");
    assert.deepEqual(forcedPath({ target: { i: 6, j: 5, w: 1, h: 1 }, user, kind: "shove", spaces: 3, blocked: open }),
      { end: { i: 9, j: 5 }, moved: 3, collided: false, direction: { i: 1, j: 0 } });
    assert.deepEqual(forcedPath({ target: { i: 9, j: 5, w: 1, h: 1 }, user, kind: "pull", spaces: 10, blocked: open }).end, { i: 6, j: 5 },
      "a pull ends adjacent to its puller");
  });

  test("it collides with what is in the way and stops; the battlefield's edge stops it without a collision", () => {
    const user = { i: 0, j: 0, w: 1, h: 1 };
    const wall = (next) => (next.i >= 3 ? "collide" : "clear");
    assert.deepEqual(forcedPath({ target: { i: 1, j: 0, w: 1, h: 1 }, user, kind: "shove", spaces: 4, blocked: wall }),
      { end: { i: 2, j: 0 }, moved: 1, collided: true, direction: { i: 1, j: 0 } });
    const edge = (next) => (next.i >= 3 ? "edge" : "clear");
    assert.deepEqual(forcedPath({ target: { i: 1, j: 0, w: 1, h: 1 }, user, kind: "shove", spaces: 4, blocked: edge }).collided, false);
    // a large target: its whole footprint moves
    const big = forcedPath({ target: { i: 2, j: 0, w: 2, h: 2 }, user, kind: "shove", spaces: 2, blocked: open });
    assert.deepEqual(big.end, { i: 4, j: 0 }, "its centre is 2.5 right and 0.5 down of the shover: straight right");
  });
});
