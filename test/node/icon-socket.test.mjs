/**
 * The system socket: who asked is the sender id Foundry's server appends to the listener's
 * arguments, never an id inside the message; refusals go back to the asker.
 */
import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";

const GM = "gm0000000000000A";
const PLAYER = "player000000000B";

/** A client's view of the world: who it is, who else is connected, and its end of the socket. */
function client(selfId) {
  const users = new Map([
    [GM, { id: GM, isGM: true, active: true }],
    [PLAYER, { id: PLAYER, isGM: false, active: true }]
  ]);
  const self = users.get(selfId);
  const listeners = new Map();
  const sent = [];
  return {
    sent,
    /** The server delivering a message from `senderId` (socket.io: the data, then the sender). */
    deliver: (message, senderId) => listeners.get("system.icon-engine")?.(message, senderId),
    game: {
      user: self,
      users: Object.assign(users, { activeGM: { ...users.get(GM), isSelf: selfId === GM } }),
      socket: { on: (channel, fn) => listeners.set(channel, fn), emit: (channel, message) => sent.push({ channel, message }) },
      i18n: { localize: key => key, format: (key, data) => `${key} ${JSON.stringify(data)}` }
    }
  };
}

globalThis.foundry = { utils: { randomID: () => Math.random().toString(36).slice(2, 18) } };
const { default: IconSocket } = await import("../../module/icon-socket.mjs");

/** What the handler saw. */
let seen = [];
IconSocket.registerHandler("probe", async (payload, userId) => {
  seen.push({ payload, userId });
  if (payload.refuse) throw new Error("You may not end this combat.");
  return { applied: payload.value };
});

beforeEach(() => { seen = []; });

/** Let the listener's awaits finish. */
const settle = () => new Promise(resolve => setImmediate(resolve));

test("the GM runs a request as the user the server names, whatever the payload claims", async () => {
  const gm = client(GM);
  globalThis.game = gm.game;
  IconSocket.register();
  // A player forges the GM's id inside the message, as the old protocol trusted.
  gm.deliver({ kind: "request", id: "r1", type: "probe", payload: { value: 3, userId: GM }, userId: GM }, PLAYER);
  await settle();
  assert.equal(seen.length, 1);
  assert.equal(seen[0].userId, PLAYER, "the handler checks the real sender");
  assert.deepEqual(gm.sent.map(s => s.message), [{ kind: "reply", id: "r1", to: PLAYER, ok: true, result: { applied: 3 } }]);
  assert.equal(gm.sent[0].channel, "system.icon-engine");
});

test("a refusal goes back to the asker with its reason", async () => {
  const gm = client(GM);
  globalThis.game = gm.game;
  IconSocket.register();
  gm.deliver({ kind: "request", id: "r2", type: "probe", payload: { refuse: true } }, PLAYER);
  await settle();
  assert.deepEqual(gm.sent.map(s => s.message), [{ kind: "reply", id: "r2", to: PLAYER, ok: false, error: "You may not end this combat." }]);
  gm.sent.length = 0;
  // Unknown requests and unknown senders are refused, not dropped.
  gm.deliver({ kind: "request", id: "r3", type: "nope", payload: {} }, PLAYER);
  gm.deliver({ kind: "request", id: "r4", type: "probe", payload: {} }, "stranger00000000");
  await settle();
  assert.deepEqual(gm.sent.map(s => [s.message.id, s.message.ok, s.message.to]), [["r3", false, PLAYER], ["r4", false, "stranger00000000"]]);
  assert.deepEqual(seen.map(s => s.userId), [PLAYER], "only the refused request reached the handler");
});

test("a request without a data record is refused with its reason, before any handler runs", async () => {
  const gm = client(GM);
  globalThis.game = gm.game;
  IconSocket.register();
  for (const [id, payload] of [["p1", null], ["p2", "messageId"], ["p3", [1, 2]], ["p4", undefined]]) {
    gm.deliver({ kind: "request", id, type: "probe", payload }, PLAYER);
  }
  await settle();
  assert.deepEqual(gm.sent.map(s => [s.message.id, s.message.ok, s.message.to, s.message.error]),
    ["p1", "p2", "p3", "p4"].map(id => [id, false, PLAYER, 'ICONENGINE.Socket.BadPayload {"type":"probe"}']));
  assert.deepEqual(seen, [], "no handler saw them");
});

test("only the active GM answers; messages of the channel's other users are ignored", async () => {
  const player = client(PLAYER);
  globalThis.game = player.game;
  IconSocket.register();
  player.deliver({ kind: "request", id: "r5", type: "probe", payload: { value: 1 } }, GM);
  player.deliver({ type: "tickClock", id: "c1", ticks: 1 }, GM);
  await settle();
  assert.equal(seen.length, 0);
  assert.deepEqual(player.sent, []);
});

test("a player's request resolves with the GM's answer, rejects with its refusal, and ignores forged answers", async () => {
  const player = client(PLAYER);
  globalThis.game = player.game;
  IconSocket.register();
  const asked = IconSocket.executeAsGM("probe", { value: 5 });
  const [{ message: request }] = player.sent;
  assert.equal(request.kind, "request");
  assert.equal(request.type, "probe");
  assert.deepEqual(request.payload, { value: 5 });
  assert.equal("userId" in request, false, "the asker does not name itself");
  // An answer from a non-GM client, or to someone else, is not the GM's.
  player.deliver({ kind: "reply", id: request.id, to: PLAYER, ok: false, error: "forged" }, PLAYER);
  player.deliver({ kind: "reply", id: request.id, to: "other00000000000", ok: false, error: "not yours" }, GM);
  player.deliver({ kind: "reply", id: request.id, to: PLAYER, ok: true, result: { applied: 5 } }, GM);
  assert.deepEqual(await asked, { applied: 5 });

  const refused = IconSocket.executeAsGM("probe", { refuse: true });
  const { message: second } = player.sent.at(-1);
  player.deliver({ kind: "reply", id: second.id, to: PLAYER, ok: false, error: "You may not end this combat." }, GM);
  await assert.rejects(refused, /ICONENGINE\.Socket\.Refused .*You may not end this combat\./);
});

test("a GM runs its own requests directly, as itself", async () => {
  const gm = client(GM);
  globalThis.game = gm.game;
  assert.deepEqual(await IconSocket.executeAsGM("probe", { value: 2, userId: PLAYER }), { applied: 2 });
  assert.equal(seen[0].userId, GM);
  assert.deepEqual(gm.sent, []);
});
