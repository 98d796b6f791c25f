/**
 * IconActor's Foundry-side duties that need no Foundry: re-preparing every actor once the rules
 * core has loaded, including the synthetic actors of unlinked tokens.
 */
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.Actor = class {};
const { default: IconActor } = await import("../../module/documents/icon-actor.mjs");

/** An actor that records its re-preparations and sheet redraws. */
const fakeActor = (name, { sheetOpen = false } = {}) => ({
  name, resets: 0, renders: 0,
  reset() { this.resets++; },
  sheet: { rendered: sheetOpen, render() { this.owner.renders++; } }
});
const withSheet = actor => Object.assign(actor, { sheet: { ...actor.sheet, owner: actor } });

test("world actors and unlinked token actors are prepared again; linked tokens are not prepared twice", () => {
  const hero = withSheet(fakeActor("hero", { sheetOpen: true }));
  const goblinBase = withSheet(fakeActor("goblin (world)"));
  const goblinA = withSheet(fakeActor("goblin A (token)", { sheetOpen: true }));
  const goblinB = withSheet(fakeActor("goblin B (token)"));
  const world = {
    actors: [hero, goblinBase],
    scenes: [
      { tokens: [{ actorLink: true, actor: hero }, { actorLink: false, actor: goblinA }] },
      { tokens: [{ actorLink: false, actor: goblinB }, { actorLink: false, actor: null }] }
    ]
  };
  assert.equal(IconActor.refreshAfterCoreLoad(world), 4);
  assert.deepEqual([hero, goblinBase, goblinA, goblinB].map(a => a.resets), [1, 1, 1, 1]);
  assert.deepEqual([hero, goblinBase, goblinA, goblinB].map(a => a.renders), [1, 0, 1, 0], "only open sheets redraw");
});

test("nothing to do before the world exists", () => {
  assert.equal(IconActor.refreshAfterCoreLoad({ actors: null, scenes: undefined }), 0);
});
