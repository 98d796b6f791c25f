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
