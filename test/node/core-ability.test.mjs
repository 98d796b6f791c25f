/**
 * The built client core's `icon.ability` request and `iconEffectiveStatuses` export, and the
 * rules they fixed (`iconAfterAbility`'s dash, Unstoppable's statuses, Hatred against allies, one
 * bonus damage die), through the public API (module/core.mjs). Expected answers are worked out
 * here from the seed's sentences, not read back from the core.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";

/** @import { AbilityOutcome, AbilityRequest } from "../../module/types/core.js" */

/**
 * @param {Partial<AbilityRequest> & Record<string, unknown>} fields
 * @returns {AbilityRequest}
 */
const ability = fields => ({ kind: "icon.ability", parts: [], ...fields });
/** @param {AbilityRequest} request */
const answer = request => /** @type {AbilityOutcome} */ (core.resolve(request, []));

const lands = { lands: true, blockedBy: null };
/** @param {string} by */
const blocked = by => ({ lands: false, blockedBy: by });

describe("icon.ability", () => {
  test("a worked use: which parts fire against each target and on the user", () => {
    // A heavy strike: dazed as an effect, vulnerable and the mark on a hit, weakened on an
    // exceed, bonus text on a crit, dodge for the user when bloodied (comeback), and a slay part
    const parts = [
      { trigger: "use", status: "dazed" },
      { trigger: "hit", status: "vulnerable", mark: true },
      { trigger: "exceed", status: "weakened" },
      { trigger: "crit" },
      { trigger: "comeback", to: "self", status: "dodge" },
      { trigger: "slay", to: "self" }
    ];
    const targets = [
      { attack: "crit", exceed: true },                           // 20+: a hit, a crit, an exceed
      { attack: "miss", statuses: ["unstoppable"] },              // missed, immune to statuses
      { attack: "hit", statuses: ["intangible"], slain: false },  // a foe's effects do not reach it
      { attack: null, mob: true, slain: true }                    // no attack roll; a mob
    ];
    const out = answer(ability({ parts, targets, user: { bloodied: true } }));
    assert.equal(out.status, "done");
    assert.equal(out.kind, "icon.ability");
    assert.deepEqual(out.targets, [
      { parts: [
        { index: 0, status: lands, mark: null },
        { index: 1, status: lands, mark: lands },
        { index: 2, status: lands, mark: null },
        { index: 3, status: null, mark: null }
      ] },
      { parts: [{ index: 0, status: blocked("unstoppable"), mark: null }] },
      { parts: [
        { index: 0, status: blocked("intangible"), mark: null },
        { index: 1, status: blocked("intangible"), mark: blocked("intangible") }
      ] },
      // slain by this ability: "Defeated characters clear all statuses" before anything else stops it
      { parts: [{ index: 0, status: blocked("defeated"), mark: null }] }
    ]);
    assert.deepEqual(answer(ability({ parts: [{ trigger: "use", status: "dazed" }], targets: [{ mob: true }] })).targets[0].parts[0].status,
      blocked("mob"), "a standing mob is immune to statuses");
    // comeback once (the user is bloodied), slay once (the fourth target went to 0 HP)
    assert.deepEqual(out.self, [{ index: 4, status: lands, mark: null }, { index: 5, status: null, mark: null }]);
    assert.equal(out.total, 4 + 1 + 2 + 1 + 2);
    assert.deepEqual(core.plan(ability({ parts, targets })), [], "no dice");
  });

  test("a summon cannot be marked; a sealed user inflicts no status unless unstoppable", () => {
    const parts = [{ trigger: "use", status: "blind", mark: true }];
    assert.deepEqual(answer(ability({ parts, targets: [{ summon: true, fromFoe: false }] })).targets[0].parts[0],
      { index: 0, status: lands, mark: blocked("summon") });
    const sealed = answer(ability({ parts, user: { statuses: ["sealed"] }, targets: [{}] }));
    assert.deepEqual(sealed.targets[0].parts[0], { index: 0, status: blocked("sealed"), mark: lands });
    const unstoppable = answer(ability({ parts, user: { statuses: ["sealed", "unstoppable+"] }, targets: [{}] }));
    assert.deepEqual(unstoppable.targets[0].parts[0].status, lands);
  });

  test("gamble parts fire on the use's d6 or higher", () => {
    const parts = [{ trigger: "gamble", gamble: 5 }, { trigger: "gamble", gamble: 2, to: "self" }];
    const fired = (/** @type {number} */ d6) => answer(ability({ parts, gamble: d6, targets: [{}] }));
    assert.deepEqual([1, 2, 4, 5, 6].map(d6 => fired(d6).total), [0, 1, 1, 2, 2]);
    assert.throws(() => core.resolve(ability({ parts, targets: [{}] }), []), /a gamble part needs the use's Gamble d6/);
  });

  test("malformed abilities are refused, naming the field", () => {
    const many = Array.from({ length: 13 }, () => ({ trigger: "use" }));
    assert.throws(() => core.resolve(ability({ parts: many }), []), /^Error: invalid request: `parts\[12\]`: an ability has at most 12 parts/);
    assert.throws(() => core.resolve(ability({ targets: Array.from({ length: 65 }, () => ({})) }), []),
      /invalid request: `targets`: an ability has at most 64 targets/);
    assert.throws(() => core.resolve(ability({ parts: [{ trigger: "onHit" }] }), []), /unknown variant `onHit`/);
    assert.throws(() => core.resolve(ability({ parts: [{ trigger: "use", status: "dazed+" }] }), []), /parts\[0\]\.status: a bare status id/);
    assert.throws(() => core.resolve(ability({ targets: [{ attack: "evaded" }] }), []), /`targets\[0\]\.attack`: unknown variant `evaded`/);
  });
});

describe("iconEffectiveStatuses", () => {
  test("an Unstoppable character is affected by none of its statuses, and by all of its effects", () => {
    assert.deepEqual(
      core.iconEffectiveStatuses(["dazed", "unstoppable", "weakened+", "dodge", "pacified", "bloodied", "hatred", "blind"]),
      ["unstoppable", "dodge", "bloodied"]);
    assert.deepEqual(core.iconEffectiveStatuses(["unstoppable+", "sealed", "stunned"]), ["unstoppable+"]);
    const plain = ["dazed", "weakened+", "dodge", "pacified"];
    assert.deepEqual(core.iconEffectiveStatuses(plain), plain, "without Unstoppable every status counts");
    assert.deepEqual(core.iconEffectiveStatuses([]), []);
  });

  test("an Unstoppable attacker's Dazed adds no curse once its state is derived from the core", () => {
    const attacker = ["dazed", "unstoppable"];
    const effective = new Set(core.iconEffectiveStatuses(attacker));
    const situation = /** @type {any} */ (core.iconSituation({ attackerDazed: effective.has("dazed") }));
    assert.equal(situation.curses, 0);
    assert.equal(/** @type {any} */ (core.iconSituation({ attackerDazed: true })).curses, 1, "a dazed attacker: +1 curse");
  });

  test("its argument is checked as every status list is", () => {
    assert.throws(() => core.iconEffectiveStatuses(Array.from({ length: 129 }, () => "dazed")), /a list of statuses holds at most 128/);
    assert.throws(() => core.iconEffectiveStatuses(/** @type {any} */ ("dazed")), /invalid statuses/);
    assert.throws(() => core.iconEffectiveStatuses(/** @type {any} */ ([5])), /invalid statuses/);
  });
});

describe("iconAfterAbility", () => {
  test("Stealth ends with any ability but a dash; Stunned with any; ongoing ones stay", () => {
    const statuses = ["stealth", "stunned", "stealth+", "stunned+", "dazed"];
    assert.deepEqual(core.iconAfterAbility(statuses), ["stealth+", "stunned+", "dazed"]);
    assert.deepEqual(core.iconAfterAbility(statuses, {}), ["stealth+", "stunned+", "dazed"]);
    assert.deepEqual(core.iconAfterAbility(statuses, { dash: false }), ["stealth+", "stunned+", "dazed"]);
    assert.deepEqual(core.iconAfterAbility(statuses, { dash: true }), ["stealth", "stealth+", "stunned+", "dazed"]);
  });

  test("its options are checked", () => {
    assert.throws(() => core.iconAfterAbility(["stealth"], /** @type {any} */ ({ dash: "yes" })), /invalid options: `dash` must be a boolean/);
    assert.throws(() => core.iconAfterAbility(["stealth"], /** @type {any} */ ({ dahs: true })), /invalid options: unknown field `dahs`/);
    assert.throws(() => core.iconAfterAbility(["stealth"], /** @type {any} */ (true)), /invalid options: an object \{dash\} expected/);
    assert.throws(() => core.iconAfterAbility(["stealth"], /** @type {any} */ ({ get dash() { throw new Error("boom"); } })), /invalid options/);
  });
});

describe("rules the core now reads as the seed says", () => {
  /** @param {string[]} statuses @param {object} [extra] */
  const hit = (statuses, amount = 5, extra = {}) => /** @type {any} */ (core.resolve({
    kind: "icon.applyDamage", source: "hit", amount, ...extra,
    target: { hp: 30, maxHp: 40, vigor: 4, armor: 0, wounds: 0, isPlayerCharacter: false, statuses }
  }, []));

  test("Unstoppable: its Vulnerable adds nothing and its Shattered stops no vigor", () => {
    assert.equal(hit(["vulnerable"]).total, 6);
    assert.equal(hit(["vulnerable", "unstoppable"]).total, 5);
    assert.deepEqual([hit(["shattered"]).target.vigor, hit(["shattered"]).target.hp], [4, 25]);
    assert.deepEqual([hit(["shattered", "unstoppable"]).target.vigor, hit(["shattered", "unstoppable"]).target.hp], [0, 29]);
  });

  test("Hatred halves damage to foes only", () => {
    assert.equal(hit([], 9, { attackerHatred: true }).total, 5);
    assert.equal(hit([], 9, { attackerHatred: true, fromFoe: false }).total, 9);
  });

  test("bonus damage is one die: a crit with bonus damage that crits again rolls one extra die", () => {
    const plan = core.plan({ kind: "icon.damage", result: "crit", die: 8, dice: 2, fray: 3, bonusDice: 1, critAgain: true });
    assert.deepEqual(plan.map(d => d.count), [4], "2[D] + crit's [D] + one bonus die");
    assert.deepEqual(core.plan({ kind: "icon.damage", result: "hit", die: 6, fray: 1, bonusDice: 3 }).map(d => d.count), [2]);
  });
});
