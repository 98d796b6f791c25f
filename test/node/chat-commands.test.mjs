/**
 * Which chat input the system takes over. Everything else must reach Foundry untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import "../support/load-core.mjs";
import ChatCommands from "../../module/applications/chat-commands.mjs";

test("/odds is ours, with its formula", () => {
  assert.deepEqual(ChatCommands.parse("/odds 4d6kh3 + 2"), { command: "odds", args: "4d6kh3 + 2" });
  assert.deepEqual(ChatCommands.parse("  /ODDS   3d6  "), { command: "odds", args: "3d6" });
  assert.deepEqual(ChatCommands.parse("/odds"), { command: "odds", args: "" });
});

test("Foundry's commands, plain text and prototype names pass through", () => {
  for (const message of ["/roll 1d20", "/r 2d6", "/w Gamemaster hi", "hello", "/oddsx 3d6", "/toString", "/constructor 1"]) {
    assert.equal(ChatCommands.parse(message), null, message);
  }
});

/* ---------------------------------------------------------------- /fortune */

import { readFileSync } from "node:fs";
import core from "../support/load-core.mjs";
import { fortuneCommandRequest, fortuneFlavorData, fortuneRequest, parseFortune } from "../../module/applications/narrative/fortune.mjs";

const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));

/**
 * The dice a fortune roll throws, computed here from the seed: an action roll's pool, "dots − burden
 * ticks", boons and curses "can further modify the final amount of dice rolled by up to +2 or -2".
 */
const seedPool = ({ rating, boons, curses, burdenTicks }) => Math.max(0, rating - burdenTicks + Math.max(-2, Math.min(2, boons - curses)));

/** The pool the core plans for a request: the `pool` of its outcome with every die a 1. */
function corePool(request) {
  const pool = seedPool(request);
  const outcome = core.resolve(request, [Array(pool === 0 ? 2 : pool).fill(1)]);
  return outcome.pool;
}

test("/fortune takes a rating and the action dialog's boons and curses", () => {
  assert.deepEqual(ChatCommands.parse("/fortune 2 +1"), { command: "fortune", args: "2 +1" });
  const cases = {
    "2": { rating: 2, action: null, boons: 0, curses: 0 },
    " 0 ": { rating: 0, action: null, boons: 0, curses: 0 },
    "2 +1": { rating: 2, action: null, boons: 1, curses: 0 },
    "4 -2": { rating: 4, action: null, boons: 0, curses: 2 },
    "1 +1 -1 +2": { rating: 1, action: null, boons: 3, curses: 1 },
    "3+1−1": { rating: 3, action: null, boons: 1, curses: 1 },
    "tinker +1": { rating: null, action: "tinker", boons: 1, curses: 0 },
    "SMASH": { rating: null, action: "smash", boons: 0, curses: 0 }
  };
  for (const [args, expected] of Object.entries(cases)) assert.deepEqual(parseFortune(args), expected, args);
  // an action by its localized name
  assert.deepEqual(parseFortune("Bricoler -1", a => (a === "tinker" ? "Bricoler" : a)), { rating: null, action: "tinker", boons: 0, curses: 1 });
  // no pool beyond a rating (the seed's fortune roll is an action's), no stray words, no sign without a number
  for (const bad of ["", "5", "20", "-1", "2d6", "x", "2 +", "2 + 1 x", "2 1", "2 +21", "2 +15 +15", "tinker2"]) {
    assert.equal(parseFortune(bad), null, bad);
  }
});

test("/fortune's request rolls the dice the seed gives: rating, ±2 at most, burden ticks of a named action", () => {
  for (let rating = 0; rating <= 4; rating++) {
    for (let boons = 0; boons <= 3; boons++) {
      for (let curses = 0; curses <= 3; curses++) {
        const answer = fortuneCommandRequest({ rating, action: null, boons, curses }, null);
        assert.ok("request" in answer);
        assert.deepEqual(answer.request, { kind: "icon.fortune", rating, boons, curses, burdenTicks: 0 });
        assert.equal(corePool(answer.request), seedPool(answer.request), JSON.stringify(answer.request));
      }
    }
  }
  // `/fortune 3` throws the 3 dice the old `/fortune 3` threw
  assert.equal(corePool(fortuneRequest({ rating: 3 })), 3);
  // a named action: the character's dots and burden ticks
  const character = { actions: { tinker: 3, smash: 1 }, burdens: [{ name: "Tired", actions: { first: "tinker", second: "smash" }, clock: 4, filled: 0 }] };
  const tinker = fortuneCommandRequest({ rating: null, action: "tinker", boons: 1, curses: 0 }, /** @type {any} */ (character));
  assert.deepEqual(tinker, { request: { kind: "icon.fortune", rating: 3, boons: 1, curses: 0, burdenTicks: 1 } });
  assert.equal(corePool(tinker.request), 3, "3 dots − 1 tick + 1 boon");
  // no character to speak as: a clear message
  const none = fortuneCommandRequest({ rating: null, action: "tinker", boons: 0, curses: 0 }, null);
  assert.deepEqual(none, { error: "ICONENGINE.Narrative.FortuneNoCharacter" });
  assert.equal(typeof en.ICONENGINE.Narrative.FortuneNoCharacter, "string");
});

test("/fortune's help and flavor are i18n'd and say what the command takes", () => {
  assert.match(en.ICONENGINE.Narrative.FortuneUsage, /\/fortune R \[\+B\] \[-C\]/);
  assert.match(en.ICONENGINE.Narrative.FortuneUsage, /0 to 4/);
  assert.deepEqual(fortuneFlavorData({ rating: 2, boons: 1, curses: 0 }), { rating: "2", net: ", +1", action: "" });
  assert.deepEqual(fortuneFlavorData({ rating: 0, boons: 0, curses: 2 }, "Tinker"), { rating: "0", net: ", −2", action: "Tinker" });
  for (const key of ["FortuneFlavor", "FortuneFlavorAction"]) {
    for (const field of ["{rating}", "{net}"]) assert.ok(en.ICONENGINE.Narrative[key].includes(field), `${key} ${field}`);
  }
});
