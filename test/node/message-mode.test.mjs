/**
 * Roll modes (v13) and message modes (v14): the module reads the right setting, offers the right
 * list, and calls the right ChatMessage method with the running generation's names, whichever
 * names a caller stored.
 */
import { test } from "node:test";
import assert from "node:assert/strict";

/** A Foundry of one generation: its settings, its mode lists, and a ChatMessage that records calls. */
function foundryOf(generation) {
  const calls = [];
  const settings = generation >= 14 ? { "core.messageMode": "blind" } : { "core.rollMode": "gmroll" };
  globalThis.game = { release: { generation }, settings: { get: (ns, key) => {
    if (!(`${ns}.${key}` in settings)) throw new Error(`${ns}.${key} is not a registered setting`);
    return settings[`${ns}.${key}`];
  } } };
  const implementation = { applyRollMode: (data, mode) => { calls.push(["applyRollMode", mode]); return data; } };
  if (generation >= 14) implementation.applyMode = (data, mode) => { calls.push(["applyMode", mode]); return data; };
  globalThis.ChatMessage = { implementation };
  globalThis.CONFIG = generation >= 14
    ? { ChatMessage: { modes: { public: { label: "CHAT.MODES.public" }, gm: { label: "CHAT.MODES.gm" }, blind: { label: "CHAT.MODES.blind" },
      self: { label: "CHAT.MODES.self" }, ic: { label: "CHAT.MODES.ic" } } }, Dice: {} }
    : { ChatMessage: {}, Dice: { rollModes: { publicroll: { label: "CHAT.RollPublic" }, gmroll: { label: "CHAT.RollPrivate" },
      blindroll: { label: "CHAT.RollBlind" }, selfroll: { label: "CHAT.RollSelf" } } } };
  return calls;
}

const modes = await import("../../module/message-mode.mjs");

test("v13: core.rollMode, CONFIG.Dice.rollModes, ChatMessage.applyRollMode with v13 names", () => {
  const calls = foundryOf(13);
  assert.equal(modes.usesMessageModes(), false);
  assert.equal(modes.currentMode(), "gmroll");
  assert.deepEqual(modes.modeChoices().map(c => [c.value, c.selected]),
    [["publicroll", false], ["gmroll", true], ["blindroll", false], ["selfroll", false]]);
  const data = {};
  assert.equal(modes.applyMode(data, "blind"), data, "a v14 name stored earlier still works");
  modes.applyMode({}, "selfroll");
  assert.deepEqual(calls, [["applyRollMode", "blindroll"], ["applyRollMode", "selfroll"]]);
});

test("v14: core.messageMode, CONFIG.ChatMessage.modes, ChatMessage.applyMode with v14 names", () => {
  const calls = foundryOf(14);
  assert.equal(modes.usesMessageModes(), true);
  assert.equal(modes.currentMode(), "blind");
  assert.deepEqual(modes.modeChoices("gmroll").map(c => [c.value, c.selected]),
    [["public", false], ["gm", true], ["blind", false], ["self", false], ["ic", false]]);
  modes.applyMode({}, "gmroll");
  modes.applyMode({}, "public");
  assert.deepEqual(calls, [["applyMode", "gm"], ["applyMode", "public"]], "never the deprecated applyRollMode");
});
