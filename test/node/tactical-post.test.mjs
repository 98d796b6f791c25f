/**
 * How attack, save and heal messages are created: with the dice sound Roll#toMessage would have
 * given them, and in the chosen roll/message mode.
 */
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.foundry = { dice: { Roll: class {} } };
const created = [];
const applied = [];
globalThis.CONFIG = { sounds: { dice: "sounds/dice.wav" }, Dice: {}, ChatMessage: {} };
globalThis.ChatMessage = { implementation: {
  getSpeaker: ({ actor }) => ({ actor: actor.id, alias: actor.name }),
  applyRollMode: (data, mode) => { applied.push(["applyRollMode", mode]); return data; },
  applyMode: (data, mode) => { applied.push(["applyMode", mode]); return data; },
  create: async data => { created.push(data); return data; }
} };
globalThis.game = { release: { generation: 13 }, settings: { get: () => "publicroll" } };
const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");

const actor = { id: "a1", name: "Ysolde", uuid: "Actor.a1" };

test("tactical messages play the dice sound", async () => {
  created.length = 0;
  await TacticalRolls.post(actor, [], "Heavy attack", "publicroll", { attacker: actor.uuid });
  assert.equal(created.length, 1);
  assert.equal(created[0].sound, "sounds/dice.wav", "CONFIG.sounds.dice, as Roll#toMessage sets it");
  assert.deepEqual(created[0].flags["icon-engine"].tactical, { attacker: "Actor.a1" });
});

test("tactical messages take the roll mode on v13 and the message mode on v14", async () => {
  applied.length = 0;
  globalThis.game.release.generation = 13;
  await TacticalRolls.post(actor, [], "Save", "blindroll");
  globalThis.game.release.generation = 14;
  await TacticalRolls.post(actor, [], "Save", "blindroll");
  assert.deepEqual(applied, [["applyRollMode", "blindroll"], ["applyMode", "blind"]]);
});
