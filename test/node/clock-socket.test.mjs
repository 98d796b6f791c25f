/**
 * A player's clock tick from a card runs on the active GM's client through the system socket
 * (module/icon-socket.mjs), and a refusal comes back to the player: before, the tick was a
 * fire-and-forget message, so a tick of a clock the GM had removed was lost while the player's
 * card marked it done. The request names the card; the GM's client ticks what its roll gives
 * (test/node/trust-boundary.test.mjs tries it as a hostile player).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import core from "../support/load-core.mjs";

const GM = "gm0000000000000A";
const PLAYER = "player000000000B";
const CHANNEL = "system.icon-engine";

/** The world settings the GM's client writes. */
let clocks = [{ id: "alarm", name: "Alarm", segments: 4, filled: 1 }];
let records = {};

/** The player's action card: 6 and 4 on 2 dice, a success that ticks 2 segments. */
const request = { kind: "icon.action", rating: 2, boons: 0, curses: 0, risk: "risky", effect: "normal", burdenTicks: 0, broken: false };
const card = {
  id: "message000000001", author: { id: PLAYER },
  rolls: [{ options: { request, outcome: core.resolve(request, [[6, 4]]), actorUuid: "Actor.hero" }, get iconOptions() { return this.options; },
    dice: [{ results: [{ result: 6 }, { result: 4 }] }] }]
};

/** A client: who it is, the GM's world settings, and its end of the socket. */
function client(selfId) {
  const users = new Map([[GM, { id: GM, isGM: true, active: true }], [PLAYER, { id: PLAYER, isGM: false, active: true }]]);
  const listeners = new Map();
  const sent = [];
  return {
    sent,
    deliver: (message, senderId) => listeners.get(CHANNEL)?.(message, senderId),
    game: {
      user: users.get(selfId),
      users: Object.assign(users, { activeGM: { ...users.get(GM), isSelf: selfId === GM } }),
      socket: { on: (channel, fn) => listeners.set(channel, fn), emit: (channel, message) => sent.push({ channel, message }) },
      i18n: { localize: key => key, format: (key, data) => `${key} ${JSON.stringify(data)}` },
      messages: new Map([[card.id, card]]),
      settings: {
        register: () => {},
        get: (_scope, key) => (key === "clocks" ? clocks : key === "gmRecords" ? records : undefined),
        set: async (_scope, key, value) => {
          if (key === "clocks") clocks = value;
          if (key === "gmRecords") records = value;
        }
      }
    }
  };
}

globalThis.foundry = {
  utils: { randomID: () => Math.random().toString(36).slice(2, 18), fromUuidSync: () => null },
  applications: { api: { ApplicationV2: class {}, HandlebarsApplicationMixin: base => base }, instances: new Map() }
};
globalThis.Hooks = { on: () => {}, once: () => {} };
const { default: IconSocket } = await import("../../module/icon-socket.mjs");
const { default: ClockPanel } = await import("../../module/applications/narrative/clock-panel.mjs");

const gm = client(GM);
const player = client(PLAYER);

/** Run `fn` as one client. */
const as = (c, fn) => { globalThis.game = c.game; return fn(); };
const settle = () => new Promise(resolve => setImmediate(resolve));

as(gm, () => { ClockPanel.register(); IconSocket.register(); });
as(player, () => IconSocket.register());

/** The player ticks from their card; the server carries the request to the GM and the GM's reply back. */
async function playerTicks(id) {
  const asked = as(player, () => ClockPanel.tickFromCard(card, id));
  const request = player.sent.pop();
  assert.equal(request.channel, CHANNEL);
  assert.equal(request.message.kind, "request");
  as(gm, () => gm.deliver(request.message, PLAYER));
  await settle();
  const reply = gm.sent.pop();
  as(player, () => player.deliver(reply.message, GM));
  return asked;
}

test("a tick of a clock that is gone is refused back to the player, and nothing changes", async () => {
  const before = structuredClone(clocks);
  await assert.rejects(playerTicks("gone"), /no clock gone/);
  assert.deepEqual(clocks, before);
  assert.deepEqual(records, {}, "the card has not ticked");
});

test("a player's tick is written by the GM's client: the 2 segments of the card's roll, once", async () => {
  await playerTicks("alarm");
  assert.equal(clocks[0].filled, 3);
  await assert.rejects(playerTicks("alarm"), /AlreadyTicked/);
  assert.equal(clocks[0].filled, 3);
});

test("without a connected GM the player is told at once", async () => {
  const { activeGM } = player.game.users;
  player.game.users.activeGM = null;
  try {
    await assert.rejects(as(player, () => ClockPanel.tickFromCard(card, "alarm")), /ICONENGINE.Clock.NoGM/);
    assert.equal(player.sent.length, 0);
  } finally {
    player.game.users.activeGM = activeGM;
  }
});
