// A stored combat state far past its limit (issue 36, 8): how long the system takes to refuse it.
// `node bench/state-size.mjs` (after scripts/build.sh). Each state is 30 MB of JSON in one of the
// shapes a state can be made large in: one long string, one long array, a million combatants, a
// million keys nobody reads. For each it prints, in milliseconds:
//   - Foundry's own parse of that JSON (what the client did before the system sees the state),
//   - the system's one measure of it, when the Combat's data is prepared (IconCombat#prepareBaseData:
//     module/data/combat-rules.mjs `stateSize`, which stops just past the limit),
//   - the refusal of an event: the GM's (IconCombat#iconCommit) and a player's request through the
//     system socket (`combatEvents`), each the least of several,
//   - the core's own API called with that state (core.combatApply, as another module may call it):
//     module/core.mjs walks it and writes its JSON, then the core refuses the text by its length,
//     once. (Before issue 36 the system went this way on every event, and the core parsed the
//     text whole before refusing it: about 10 s for a million combatants, measured on that code.)
// Timings are the machine's; nothing here is asserted (test/node/trust-combat.test.mjs asserts the
// refusal and its message).
import { performance } from "node:perf_hooks";
import { GM, PLAYER, addActor, as, installWorld, playerRequests, world } from "../test/support/stand-in-world.mjs";
import { Scene, installCombat, settle } from "../test/support/stand-in-combat.mjs";

installWorld();
const { default: core } = await import("../test/support/load-core.mjs");
const { IconCombat, newCombat } = await installCombat();
const { default: IconSocket } = await import("../module/icon-socket.mjs");
IconCombat.registerSocket();
IconSocket.register();
globalThis.ui.notifications = { warn: () => {}, error: () => {}, info: () => {} };
console.error = () => {};
console.warn = () => {};

const MB30 = 30 * 1000 * 1000;
const hero = addActor({ name: "Ysolde", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
const ogre = addActor({ name: "Ogre", type: "foe" });
const scene = new Scene();
const combat = newCombat({ scene });
for (const actor of [hero, ogre]) await combat.createEmbeddedDocuments("Combatant", [{ actorId: actor.id }]);
await settle();
await as(GM, () => combat.startCombat());
const base = structuredClone(combat._source.system.state);
const pc = combat.combatants.find(c => c.actorId === hero.id).id;

/** The same state, 30 MB of JSON, grown one way. */
const shapes = {
  "one long string": () => ({ ...base, junk: "x".repeat(MB30) }),
  "one long array": () => ({ ...base, junk: Array.from({ length: MB30 / 2 }, () => 0) }),
  "a million combatants": () => ({ ...base, nextNumber: 1_000_000,
    combatants: Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [String(i), [`c${String(i).padStart(16, "0")}`, 1, 0, 0, 0, 1]])) }),
  "a million keys": () => ({ ...base, junk: Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [`key${String(i).padStart(18, "0")}`, 1])) })
};

/** The least of `runs` timings of an async `fn`, in ms. */
async function least(fn, runs = 7) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const fmt = ms => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));
console.log("| state (30 MB of JSON) | Foundry's parse | the system's measure | GM's event refused | player's request refused | core.combatApply alone |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const [name, make] of Object.entries(shapes)) {
  const text = JSON.stringify(make());
  let start = performance.now();
  const stored = JSON.parse(text);
  const parse = performance.now() - start;
  combat._source.system.state = stored;
  start = performance.now();
  combat.prepareBaseData();
  const measure = performance.now() - start;
  let message = "";
  const gm = await least(() => as(GM, () => combat.iconCommit([{ type: "adjustResolve", by: 1 }])).catch(error => { message = error.message; }));
  if (!/StateTooLarge/.test(message)) throw new Error(`${name}: not refused for its size (${message})`);
  const player = await least(async () => {
    const reply = await playerRequests("combatEvents", { combatId: combat.id, events: [{ type: "beginTurn", id: pc }] });
    if (reply.ok || !/StateTooLarge/.test(reply.error)) throw new Error(`${name}: the request was not refused for its size`);
  });
  // the core's API alone: the state walked and written as JSON, the text refused by its length
  start = performance.now();
  try { core.combatApply(stored, { type: "adjustResolve", by: 1 }); } catch { /* refused or not, it took this long */ }
  const before = performance.now() - start;
  console.log(`| ${name} | ${fmt(parse)} | ${fmt(measure)} | ${fmt(gm)} | ${fmt(player)} | ${fmt(before)} |`);
  world.game.user = world.game.users.get(GM);
}
