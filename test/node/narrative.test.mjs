/**
 * ICON narrative play's pure modules against the built wasm core: the action roll dialog's
 * request and odds, the cards' contexts, the mapping of narrativeApply to actor updates, the
 * burden prompt, the clocks, fortune parsing. Expected values are computed here independently
 * (enumeration of every face, the seed's tables), never read back from the core.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";
import { loadCore } from "../../module/core.mjs";
import Fraction from "../../module/dice/fraction.mjs";
import { ACTIONS } from "../../module/data/rules.mjs";
import * as actionRoll from "../../module/applications/narrative/action-roll.mjs";
import * as state from "../../module/applications/narrative/narrative-state.mjs";
import * as clocks from "../../module/applications/narrative/clocks.mjs";
import { narrativeEventOf } from "../../module/applications/narrative/card-buttons.mjs";
import { parseFortune, fortuneRequest } from "../../module/applications/narrative/fortune.mjs";
import { actionCardContext, fortuneCardContext, countedDice } from "../../module/dice/cards/icon-narrative.mjs";
import { registeredRollCards, rollCardFor } from "../../module/dice/roll-cards.mjs";
import ChatCommands from "../../module/applications/chat-commands.mjs";

await loadCore();
const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));

/** A character's system data as the data model prepares it. */
function character(changes = {}) {
  return {
    actions: Object.fromEntries(ACTIONS.map(a => [a, 0])),
    strain: { value: 0, max: 5 }, effort: 2, burdens: [], broken: false, brokenForExpedition: false, burdenPending: false,
    ...changes
  };
}

/**
 * Exact P(fail, partial, success, critical) of a pool by enumerating every face: n ≥ 1 keeps the
 * highest (two 6s critical), 0 rolls 2d6 and keeps the lowest (no critical).
 * @param {number} pool
 */
function enumerate(pool) {
  const n = pool === 0 ? 2 : pool;
  const counts = [0n, 0n, 0n, 0n];
  const total = 6 ** n;
  for (let code = 0; code < total; code++) {
    const dice = [];
    for (let i = 0, c = code; i < n; i++, c = Math.floor(c / 6)) dice.push((c % 6) + 1);
    const counted = pool === 0 ? Math.min(...dice) : Math.max(...dice);
    const sixes = dice.filter(d => d === 6).length;
    const tier = pool > 0 && sixes >= 2 ? 3 : counted === 6 ? 2 : counted >= 4 ? 1 : 0;
    counts[tier] += 1n;
  }
  return counts.map(k => new Fraction(k, BigInt(total)).toString());
}

describe("action roll dialog", () => {
  test("the request takes the rating, the burden ticks on that action and breaking from the actor", () => {
    const system = character({
      broken: true,
      burdens: [
        { name: "Broken arm", actions: { first: "smash", second: "tinker" }, clock: 6, filled: 6 },
        { name: "Fear", actions: { first: "command", second: "smash" }, clock: 4, filled: 4 },
        { name: "Bad knee", actions: { first: "smash", second: "traverse" }, clock: 4, filled: 4 }
      ]
    });
    system.actions.smash = 3;
    const request = actionRoll.actionRequest(system, "smash", actionRoll.defaultInputs(), { risk: "desperate", effect: "powerful" });
    assert.deepEqual(request, {
      kind: "icon.action", rating: 3, burdenTicks: 2, broken: true, boons: 0, curses: 0, push: false, aid: 0,
      temptFate: false, risk: "desperate", effect: "powerful"
    }, "a third tick by hand doesn't stack past the rules' two");
    assert.equal(state.burdenTicksOn(system.burdens, "tinker"), 1);
    assert.equal(state.burdenTicksOn(system.burdens, "charm"), 0);
  });

  test("the odds of every pool 0–6 are the exact enumerated values", () => {
    for (let pool = 0; pool <= 6; pool++) {
      const system = character();
      system.actions.excel = Math.min(pool, 4);
      const inputs = { ...actionRoll.defaultInputs(), boons: Math.max(0, pool - 4) };
      const context = actionRoll.actionDialogContext({ system, action: "excel", inputs, position: actionRoll.DEFAULT_POSITION, isGM: false });
      assert.equal(context.pool, pool);
      assert.equal(context.lowest, pool === 0);
      assert.deepEqual(context.odds.map(row => row.exact), enumerate(pool), `pool ${pool}`);
      assert.deepEqual(context.odds.map(row => row.key), ["fail", "partial", "success", "critical"]);
    }
  });

  test("the odds follow the inputs: push, aid and tempting fate are boons, clamped to +2", () => {
    const system = character();
    system.actions.sneak = 1;
    const ctx = (/** @type {Partial<import("../../module/applications/narrative/action-roll.mjs").ActionInputs>} */ inputs) =>
      actionRoll.actionDialogContext({ system, action: "sneak", inputs: { ...actionRoll.defaultInputs(), ...inputs },
        position: actionRoll.DEFAULT_POSITION, isGM: true });
    assert.equal(ctx({}).odds[0].exact, "1/2");
    assert.equal(ctx({ push: true }).pool, 2);
    assert.equal(ctx({ push: true }).odds[0].exact, "1/4");
    assert.equal(ctx({ push: true }).odds[3].exact, "1/36");
    assert.equal(ctx({ push: true, aid: 1, temptFate: true }).pool, 3, "three boons clamp to +2");
    assert.equal(ctx({ push: true, aid: 1, temptFate: true }).odds[3].exact, "2/27");
    assert.equal(ctx({ curses: 1 }).pool, 0);
    assert.equal(ctx({ curses: 1 }).odds[0].exact, "3/4", "0 dice: the lowest of 2d6");
    assert.equal(ctx({ boons: 2, curses: 2 }).pool, 1);
    assert.equal(ctx({ push: true }).odds[0].percent, "25.00%");
    // the GM gets the selects, the player sees them disabled (the template reads isGM)
    assert.equal(ctx({}).riskOptions.find(o => o.selected)?.value, "risky");
    assert.equal(ctx({ push: true }).effortCost, 1);
  });

  test("form data is read as numbers and checkboxes; positions fall back to risky/normal", () => {
    assert.deepEqual(actionRoll.readInputs({ boons: "2", curses: "-3", push: true, aid: "1.7", temptFate: "on" }),
      { boons: 2, curses: 0, push: true, aid: 1, temptFate: true, fortune: false, brokenPaidByAlly: false, aidBy: [], brokenPaidBy: "" });
    assert.deepEqual(actionRoll.readInputs({}), actionRoll.defaultInputs());
    // issue 41: the allies ticked (FormDataExtended's flat keys, or expanded), each once; a broken roller's payer
    assert.deepEqual(actionRoll.readInputs({ "aidBy.brann000000000001": true, "aidBy.mira0000000000001": false, "aidBy.x<y": true,
      brokenPaidBy: "brann000000000001" }),
    { ...actionRoll.defaultInputs(), aid: 1, aidBy: ["brann000000000001"], brokenPaidByAlly: true, brokenPaidBy: "brann000000000001" });
    assert.deepEqual(actionRoll.readInputs({ aidBy: { a1: "on", b2: true } }).aidBy, ["a1", "b2"]);
    assert.deepEqual(actionRoll.readPosition({ risk: "desperate", effect: "bogus" }), { risk: "desperate", effect: "normal" });
    assert.deepEqual(actionRoll.readPosition(null), { risk: "risky", effect: "normal" });
  });

  test("a roll spends the actor's own effort: push and acting while broken, not the helpers' aid", () => {
    const system = character({ effort: 3 });
    const outcome = core.resolve({ kind: "icon.action", rating: 1, push: true, aid: 2, broken: true }, [[1, 1, 1]]);
    assert.equal(outcome.status, "done");
    assert.deepEqual(actionRoll.effortUpdate(system, /** @type {any} */ (outcome)), { "system.effort": 1 });
    assert.deepEqual(actionRoll.effortUpdate(system, { effort: 2, effortHelpers: 2 }), {});
    assert.deepEqual(actionRoll.effortUpdate(character({ effort: 0 }), { effort: 1, effortHelpers: 0 }), { "system.effort": 0 });
  });
});

describe("narrative cards", () => {
  test("both kinds are registered with their templates", () => {
    assert.ok(registeredRollCards().includes("icon.action"));
    assert.ok(registeredRollCards().includes("icon.fortune"));
    assert.match(rollCardFor("icon.action")?.template ?? "", /templates\/chat\/icon-action\.hbs$/);
  });

  test("the action card marks the counted die and carries the consequences", () => {
    const request = { kind: "icon.action", rating: 3, risk: "desperate", effect: "normal" };
    const partial = /** @type {any} */ (core.resolve(request, [[2, 5, 4]]));
    const card = actionCardContext(partial, request, { action: "smash", actorUuid: "Actor.abc" });
    assert.deepEqual(card.dice, [{ value: 2, six: false, counted: false }, { value: 5, six: false, counted: true }, { value: 4, six: false, counted: false }]);
    assert.equal(card.result, "partial");
    assert.equal(card.strain, 4, "desperate: 4 strain");
    assert.equal(card.segments, 2, "normal effect: 2 segments");
    assert.equal(card.canCriticalStrain, true);
    assert.equal(card.actorUuid, "Actor.abc");
    assert.equal(card.actionLabel, "ICONENGINE.ActionRating.smash");
    assert.deepEqual([card.aidNames, card.brokenPaidByName], ["", ""], "no helpers");
    const aided = actionCardContext(partial, request, { aidNames: ["Brann", "Mira", 7], brokenPaidByName: "Brann" });
    assert.deepEqual([aided.aidNames, aided.brokenPaidByName], ["Brann, Mira", "Brann"]);

    const crit = /** @type {any} */ (core.resolve(request, [[6, 1, 6]]));
    const c = actionCardContext(crit, request);
    assert.equal(c.result, "critical");
    assert.equal(c.segments, 3, "critical raises normal to powerful");
    assert.equal(c.raised, true);
    assert.equal(c.hasConsequence, false);
    assert.deepEqual(c.dice.map(d => d.counted), [true, false, true]);

    const zero = /** @type {any} */ (core.resolve({ kind: "icon.action", rating: 0 }, [[6, 3]]));
    assert.deepEqual(countedDice(zero).map(d => d.counted), [false, true], "0 dice: the lowest counts");
    assert.equal(zero.result, "fail");
  });

  test("a seeded core roll gives the same card every time, and its counted die is the highest", () => {
    const request = { kind: "icon.action", rating: 4, boons: 1 };
    const a = core.roll(request, 42);
    const b = core.roll(request, 42);
    assert.deepEqual(a.dice, b.dice);
    const card = actionCardContext(/** @type {any} */ (a), request);
    const counted = card.dice.find(d => d.counted);
    assert.equal(counted?.value, Math.max(.../** @type {number[]} */ (a.dice)));
    assert.equal(card.dice.length, 5);
  });

  test("fortune cards read the same dice as poor/average/good/excellent", () => {
    const cases = [[[3], "poor"], [[5, 2], "average"], [[6, 1], "good"], [[6, 6, 2], "excellent"]];
    for (const [faces, result] of cases) {
      const outcome = /** @type {any} */ (core.resolve(fortuneRequest({ rating: faces.length }), [faces]));
      const card = fortuneCardContext(outcome);
      assert.equal(card.result, result);
      assert.ok(en.ICONENGINE.Narrative.Fortune[card.result]);
    }
  });

  test("the card buttons mean takeStrain, critical strain and resist", () => {
    assert.deepEqual(narrativeEventOf("takeStrain", { strain: 2, risk: "risky" }), { type: "takeStrain", amount: 2, critical: false });
    assert.deepEqual(narrativeEventOf("criticalStrain", { strain: 4, risk: "desperate" }), { type: "takeStrain", amount: 4, critical: true });
    assert.deepEqual(narrativeEventOf("resist", { strain: 0, risk: "controlled" }), { type: "resist", risk: "controlled" });
    assert.throws(() => narrativeEventOf("heal", { strain: 0, risk: "risky" }));
  });
});

describe("narrativeApply to actor updates", () => {
  const ratings = { smash: 3, tinker: 2, charm: 1, study: 1, endure: 2, command: 1 };
  const hero = (changes = {}) => {
    const system = character({ strain: { value: 4, max: 5 }, ...changes });
    Object.assign(system.actions, ratings);
    return system;
  };
  /** Apply to a system and return the system the update gives (as Foundry's update would). */
  const step = (system, event) => {
    const { update, effects } = state.applyNarrative(system, event);
    const next = structuredClone(system);
    next.strain.value = update["system.strain.value"];
    next.burdens = update["system.burdens"];
    next.broken = update["system.broken"];
    next.brokenForExpedition = update["system.brokenForExpedition"];
    next.burdenPending = update["system.burdenPending"];
    return { system: next, effects, update };
  };

  test("strain up to the maximum, then a break that asks for a burden", () => {
    let { system, effects } = step(hero(), { type: "takeStrain", amount: 1, critical: false });
    assert.equal(system.strain.value, 5);
    assert.deepEqual(effects, []);
    ({ system, effects } = step(system, { type: "resist", risk: "controlled" }));
    assert.deepEqual([system.strain.value, system.broken, system.burdenPending], [0, true, true]);
    const notices = state.narrativeNotices(effects, "Ysolde");
    assert.equal(notices.chooseBurden, true);
    assert.deepEqual(notices.notices.map(n => n.key), ["ICONENGINE.Narrative.Broke"]);
    assert.ok(en.ICONENGINE.Narrative.Broke.includes("{name}"));

    // the prompt offers actions with dots that are not ticked twice
    const prompt = state.burdenPromptContext(system);
    assert.deepEqual(prompt.firstOptions.map(o => o.value), ["study", "charm", "command", "tinker", "smash", "endure"]);
    assert.equal(prompt.enough, true);
    const event = state.takeBurdenEvent({ name: " Broken arm ", first: "smash", second: "tinker", clock: "6" });
    ({ system } = step(system, event));
    assert.deepEqual(system.burdens, [{ name: "Broken arm", actions: { first: "smash", second: "tinker" }, clock: 6, filled: 6 }]);
    assert.equal(system.burdenPending, false);
    assert.equal(actionRoll.actionRequest(system, "smash", actionRoll.defaultInputs(), actionRoll.DEFAULT_POSITION).burdenTicks, 1);
  });

  test("refused burdens throw and change nothing; critical strain breaks at once", () => {
    const broken = step(hero(), { type: "takeStrain", amount: 0, critical: true }).system;
    assert.equal(broken.broken, true);
    assert.throws(() => state.applyNarrative(broken, state.takeBurdenEvent({ name: "x", first: "sneak", second: "smash", clock: 6 })),
      /sneak is at 0d/);
    assert.throws(() => state.applyNarrative(hero(), state.takeBurdenEvent({ name: "x", first: "smash", second: "tinker", clock: 6 })),
      /only when breaking/);
  });

  test("the third burden, then a break with 3 burdens lasts the expedition", () => {
    let system = hero();
    const pairs = [["smash", "tinker"], ["charm", "study"], ["endure", "smash"]];
    for (const [first, second] of pairs) {
      system = step(system, { type: "takeStrain", amount: 9, critical: false }).system;
      system = step(system, state.takeBurdenEvent({ name: `${first}/${second}`, first, second, clock: 4 })).system;
      system = step(system, { type: "endScene" }).system;
      assert.equal(system.broken, false);
    }
    assert.equal(state.burdenPromptContext(system).firstOptions.some(o => o.value === "smash"), false, "smash is ticked twice");
    const { system: after, effects } = step(system, { type: "takeStrain", amount: 6, critical: false });
    assert.deepEqual(effects.map(e => e.type), ["broke", "brokenForExpedition"]);
    assert.deepEqual([after.broken, after.brokenForExpedition, after.burdenPending, after.burdens.length], [true, true, false, 3]);
    assert.equal(state.narrativeNotices(effects, "Y").chooseBurden, false);
    assert.equal(step(after, { type: "endScene" }).system.broken, true);
    assert.equal(step(after, { type: "endExpedition" }).system.broken, false);
  });

  test("clicking a burden's clock on the sheet: unticking heals through the core and removes it at 0", () => {
    let system = hero();
    system = step(system, { type: "takeStrain", amount: 9, critical: false }).system;
    system = step(system, state.takeBurdenEvent({ name: "Haunted", first: "smash", second: "tinker", clock: 6 })).system;
    assert.equal(system.burdens[0].filled, 6, "a new burden's clock is full");
    assert.equal(state.burdenClockClick(system.burdens, 0, 9), null, "no 9th segment on a 6-clock");
    assert.equal(state.burdenClockClick(system.burdens, 1, 1), null, "no second burden");
    // Clicking the 4th segment of a full 6-clock leaves 4 filled: two segments healed.
    const click = state.burdenClockClick(system.burdens, 0, 4);
    assert.deepEqual(click, { event: { type: "healBurden", index: 0, segments: 2 } });
    system = step(system, click.event).system;
    assert.equal(system.burdens[0].filled, 4);
    assert.deepEqual(state.burdenClockClick(system.burdens, 0, 5), { filled: 5 }, "filling back is a plain correction");
    // Clicking the last filled segment unticks it; at 0 the core removes the burden.
    let effects = [];
    for (let filled = 4; filled > 0; filled--) {
      const next = state.burdenClockClick(system.burdens, 0, filled);
      assert.deepEqual(next, { event: { type: "healBurden", index: 0, segments: 1 } });
      ({ system, effects } = step(system, next.event));
    }
    assert.equal(system.burdens.length, 0);
    assert.deepEqual(effects.map(e => e.type), ["burdenHealed"]);
    assert.equal(state.narrativeNotices(effects, "Y").notices[0].key, "ICONENGINE.Narrative.BurdenHealed");
  });
});

describe("clocks", () => {
  test("ticking through the core stays within 4, 6, 8, 10 and 12 segments", () => {
    for (const segments of clocks.CLOCK_SIZES) {
      let list = clocks.addClock([], { id: "c", name: " Escape ", segments });
      assert.equal(list[0].name, "Escape");
      let result = clocks.tickClock(list, "c", 3);
      assert.equal(result.clock.filled, 3);
      result = clocks.tickClock(result.clocks, "c", 20);
      assert.deepEqual([result.clock.filled, result.complete], [segments, true]);
      result = clocks.tickClock(result.clocks, "c", -99);
      assert.equal(result.clock.filled, 0);
    }
    for (const bad of [3, 5, 7, 14]) assert.throws(() => clocks.addClock([], { id: "x", name: "x", segments: bad }), /4, 6, 8, 10 or 12/);
    assert.throws(() => clocks.tickClock([], "nope", 1), /no clock nope/);
    const shrunk = clocks.editClock([{ id: "a", name: "A", segments: 12, filled: 9 }], "a", { segments: 6 });
    assert.deepEqual(shrunk[0], { id: "a", name: "A", segments: 6, filled: 6 });
    assert.deepEqual(clocks.removeClock(shrunk, "a"), []);
  });

  test("the SVG wedges: one per segment, the filled ones first, closing at the top", () => {
    const view = clocks.clockView({ id: "a", name: "A", segments: 8, filled: 3 });
    assert.equal(view.wedges.length, 8);
    assert.deepEqual(view.wedges.map(w => w.filled), [true, true, true, false, false, false, false, false]);
    assert.equal(view.viewBox, "0 0 60 60");
    // the first wedge starts at 12 o'clock (30, 2) and the last ends there
    assert.match(view.wedges[0].d, /^M30 30 L30\.00 2\.00 A28 28 0 0 1 /);
    assert.match(view.wedges[7].d, / 30\.00 2\.00 Z$/);
    const panel = clocks.clockPanelContext([{ id: "a", name: "A", segments: 4, filled: 4 }], { isGM: false, position: { risk: "controlled", effect: "weak" } });
    assert.equal(panel.clocks[0].complete, true);
    assert.equal(panel.riskLabel, "ICONENGINE.Narrative.Risk.controlled");
    assert.deepEqual(clocks.clockChoices([{ id: "a", name: "Alarm", segments: 6, filled: 2 }]), [{ value: "a", label: "Alarm (2/6)" }]);
  });
});

describe("issue 17: effort, fortune rolls with a rating, burdens at 0d", () => {
  const system = character({ effort: 1 });
  system.actions.smash = 2;
  const ctx = (/** @type {any} */ inputs) => actionRoll.actionDialogContext({ system, action: "smash",
    inputs: { ...actionRoll.defaultInputs(), ...inputs }, position: actionRoll.DEFAULT_POSITION, isGM: true });

  // "When you push yourself during your action roll, you spend 1 effort to gain +1 boon on your
  // roll" (issue 27): every push and aid asked for is paid, the ±2 cap or not.
  test("every push asked for is paid, in the dialog and on the roll; the roll carries the effort pool", () => {
    assert.equal(ctx({ push: true }).effortCost, 1);
    assert.equal(ctx({ boons: 2, push: true }).effortCost, 1, "two boons already: the push adds no die, and is paid");
    assert.equal(ctx({ boons: 2, push: true }).pool, 4);
    assert.equal(ctx({ boons: 1, curses: 3, push: true }).effortCost, 1, "a push that cancels a curse counts");
    const rolled = actionRoll.withEffortPool(ctx({ boons: 2, push: true, aid: 1 }).request, { effort: 3 });
    const outcome = core.resolve(rolled, [[1, 1, 1, 1]]);
    assert.deepEqual([outcome.effort, outcome.effortHelpers, outcome.effortLeft], [2, 1, 2]);
    assert.deepEqual(actionRoll.effortUpdate({ effort: 3 }, /** @type {any} */ (outcome)), { "system.effort": 2 });
    // a push the character cannot pay is refused by the core, in its words
    assert.throws(() => core.plan(actionRoll.withEffortPool(ctx({ push: true }).request, { effort: 0 })), /not enough effort/);
    // a fortune roll costs nothing and carries no pool
    const fortune = ctx({ fortune: true, push: true }).request;
    assert.equal(actionRoll.withEffortPool(fortune, { effort: 0 }), fortune);
  });

  test("a fortune roll of an action takes its rating, boons, curses and burdens, and reads poor to excellent", () => {
    const burdened = { ...system, burdens: [{ name: "Tired", actions: { first: "smash", second: "charm" }, clock: 4, filled: 4 }] };
    const request = actionRoll.fortuneActionRequest(burdened, "smash", { ...actionRoll.defaultInputs(), boons: 3, fortune: true });
    assert.deepEqual(request, { kind: "icon.fortune", rating: 2, boons: 3, curses: 0, burdenTicks: 1 });
    assert.equal(actionRoll.poolOf(request), 3, "2 dots − 1 tick + 2 (boons capped)");
    const c = ctx({ fortune: true, push: true });
    assert.equal(c.request.kind, "icon.fortune");
    assert.deepEqual(c.odds.map(row => row.key), ["poor", "average", "good", "excellent"]);
    assert.deepEqual(c.odds.map(row => row.exact), enumerate(2));
    assert.equal(c.effortCost, 0, "nothing is bought on a fortune roll");
    assert.equal(actionRoll.dialogRequest(system, "smash", { ...actionRoll.defaultInputs(), fortune: true }, actionRoll.DEFAULT_POSITION).kind,
      "icon.fortune");
    const done = core.resolve(request, [[6, 6, 2]]);
    assert.equal(fortuneCardContext(/** @type {any} */ (done)).result, "excellent");
  });

  test("the burden prompt offers only actions still above 0d", () => {
    const one = character({ burdenPending: true, broken: true });
    one.actions.charm = 1;
    one.actions.smash = 2;
    one.actions.tinker = 1;
    one.burdens = [{ name: "Tired", actions: { first: "charm", second: "smash" }, clock: 4, filled: 4 }];
    assert.deepEqual(state.burdenPromptContext(one).firstOptions.map(o => o.value), ["tinker", "smash"]);
  });
});

describe("fortune rolls", () => {
  test("/fortune R is ours and reads rating R (the command's syntax: chat-commands.test.mjs)", () => {
    assert.deepEqual(ChatCommands.parse("/fortune 3"), { command: "fortune", args: "3" });
    assert.deepEqual(parseFortune("3"), { rating: 3, action: null, boons: 0, curses: 0 });
    assert.deepEqual(parseFortune(" 0 "), { rating: 0, action: null, boons: 0, curses: 0 });
    for (const bad of ["", "-1", "2d6", "21", "x"]) assert.equal(parseFortune(bad), null, bad);
    assert.deepEqual(ChatCommands.parse("/clocks"), { command: "clocks", args: "" });
  });

  test("every user-facing key the narrative templates use exists in lang/en.json", () => {
    const templates = ["templates/chat/icon-action.hbs", "templates/chat/icon-fortune.hbs", "templates/apps/action-roll.hbs",
      "templates/apps/action-roll-odds.hbs", "templates/apps/clock-panel.hbs", "templates/apps/burden-prompt.hbs"];
    const keys = templates.flatMap(t => [...readFileSync(new URL(`../../${t}`, import.meta.url), "utf8")
      .matchAll(/"(ICONENGINE\.[A-Za-z.]+)"/g)].map(m => m[1]));
    assert.ok(keys.length > 20);
    const get = (/** @type {string} */ key) => key.split(".").reduce((/** @type {any} */ node, part) => node?.[part], en);
    for (const key of keys) assert.equal(typeof get(key), "string", key);
    for (const group of ["Risk", "Effect", "Result", "ResultHint", "Fortune"]) {
      for (const value of Object.keys(en.ICONENGINE.Narrative[group])) assert.ok(value);
    }
    for (const risk of actionRoll.RISKS) assert.ok(en.ICONENGINE.Narrative.Risk[risk]);
    for (const effect of actionRoll.EFFECTS) assert.ok(en.ICONENGINE.Narrative.Effect[effect]);
    for (const result of actionRoll.ACTION_RESULTS) assert.ok(en.ICONENGINE.Narrative.ResultHint[result]);
  });
});

describe("issue 41: aid and an ally's effort for a broken character are the helpers'", () => {
  // "When you aid an ally during their action roll, you spend 1 effort to grant them +1 boon."
  // "When you are broken, you must spend 1 effort to take any action. Nearby characters can also
  // spend effort for you."
  const allies = [{ id: "brann000000000001", name: "Brann", effort: 2 }, { id: "mira0000000000001", name: "Mira", effort: 0 }];
  const ctx = (/** @type {any} */ system, /** @type {any} */ inputs) => actionRoll.actionDialogContext({ system, action: "smash",
    inputs: { ...actionRoll.defaultInputs(), ...inputs }, position: actionRoll.DEFAULT_POSITION, isGM: false, allies });

  test("each ally ticked is a boon the roll asks the core for, and 1 of that ally's effort, not the roller's", () => {
    const system = character({ effort: 0 });
    system.actions.smash = 1;
    const c = ctx(system, { aidBy: ["brann000000000001"], aid: 1 });
    assert.equal(c.request.aid, 1);
    assert.equal(c.pool, 2, "1 dot + 1 boon from the aid");
    assert.equal(c.effortCost, 0, "the roller pays nothing for an ally's aid");
    assert.deepEqual(c.helpers.map(h => [h.name, h.aiding, h.cost, h.short, h.canAid]),
      [["Brann", true, 1, false, true], ["Mira", false, 0, false, false]], "an ally with no effort cannot be ticked");
    assert.equal(c.canRoll, true);
    assert.deepEqual([...actionRoll.helperCosts(c.inputs)], [["brann000000000001", 1]]);
    // the core agrees: the helpers' share is theirs
    const outcome = core.resolve(actionRoll.withEffortPool(c.request, system), [[1, 1]]);
    assert.deepEqual([outcome.effort, outcome.effortHelpers, outcome.effortLeft], [1, 1, 0]);
  });

  test("a broken roller's effort to act paid by an ally: the ally pays 1 (2 if it also aids); more than it has stops the roll", () => {
    const system = character({ effort: 0, broken: true });
    system.actions.smash = 2;
    const alone = ctx(system, {});
    assert.equal(alone.effortCost, 1, "broken: 1 effort to act");
    assert.equal(alone.effortShort, true);
    assert.equal(alone.canRoll, false, "0 effort: the roll cannot be made");
    const paid = ctx(system, { brokenPaidBy: "brann000000000001" });
    assert.equal(paid.request.brokenPaidByAlly, true);
    assert.equal(paid.effortCost, 0);
    assert.equal(paid.canRoll, true);
    const both = ctx(system, { brokenPaidBy: "brann000000000001", aidBy: ["brann000000000001"] });
    assert.deepEqual(both.helpers[0].cost, 2, "aid and the broken roller's effort: 2 from Brann");
    assert.equal(both.canRoll, true, "Brann has 2");
    const poorer = actionRoll.actionDialogContext({ system, action: "smash", position: actionRoll.DEFAULT_POSITION, isGM: false,
      inputs: { ...actionRoll.defaultInputs(), brokenPaidBy: "brann000000000001", aidBy: ["brann000000000001"] },
      allies: [{ ...allies[0], effort: 1 }] });
    assert.equal(poorer.canRoll, false);
    assert.deepEqual(poorer.shortHelpers, [{ name: "Brann", cost: 2, effort: 1 }]);
    // only a broken roller is paid for; a helper no longer offered drops out
    const standing = ctx(character({ effort: 1 }), { brokenPaidBy: "brann000000000001", aidBy: ["gone000000000001"] });
    assert.deepEqual([standing.request.brokenPaidByAlly, standing.request.aid], [undefined, 0]);
  });

  test("a roll that costs the roller more effort than it has is not offered", () => {
    const system = character({ effort: 0 });
    system.actions.smash = 2;
    const c = ctx(system, { push: true });
    assert.deepEqual([c.effortCost, c.effortShort, c.canRoll], [1, true, false]);
    assert.equal(ctx(character({ effort: 1 }), { push: true }).canRoll, true);
  });
});
