/**
 * IconActor's Foundry-side duties that need no Foundry: re-preparing every actor once the rules
 * core has loaded, including the synthetic actors of unlinked tokens.
 */
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.Actor = class {};
const { default: IconActor } = await import("../../module/documents/icon-actor.mjs");

/**
 * An actor that records its re-preparations and redraws, as Foundry's does: `render` redraws the
 * applications in `apps` (its open sheets); reading `sheet` would create a sheet application.
 */
const fakeActor = (name, { sheetOpen = false } = {}) => {
  const actor = {
    name, resets: 0, renders: 0, sheetsMade: 0, apps: {},
    reset() { this.resets++; },
    render(force) { for (const app of Object.values(this.apps)) app.render(force); },
    get sheet() { this.sheetsMade++; return { rendered: false, render() {} }; }
  };
  if (sheetOpen) actor.apps.sheet = { render: () => { actor.renders++; } };
  return actor;
};

test("world actors and unlinked token actors are prepared again; only open sheets redraw, none is made", () => {
  const hero = fakeActor("hero", { sheetOpen: true });
  const goblinBase = fakeActor("goblin (world)");
  const goblinA = fakeActor("goblin A (token)", { sheetOpen: true });
  const goblinB = fakeActor("goblin B (token)");
  const world = {
    actors: [hero, goblinBase],
    scenes: [
      { tokens: [{ actorLink: true, actor: hero }, { actorLink: false, actor: goblinA }] },
      { tokens: [{ actorLink: false, actor: goblinB }, { actorLink: false, actor: null }] }
    ]
  };
  const all = [hero, goblinBase, goblinA, goblinB];
  assert.equal(IconActor.refreshAfterCoreLoad(world), 4);
  assert.deepEqual(all.map(a => a.resets), [1, 1, 1, 1]);
  assert.deepEqual(all.map(a => a.renders), [1, 0, 1, 0], "only open sheets redraw");
  assert.deepEqual(all.map(a => a.sheetsMade), [0, 0, 0, 0], "Actor#sheet (which makes a sheet application) is never read");
});

test("nothing to do before the world exists", () => {
  assert.equal(IconActor.refreshAfterCoreLoad({ actors: null, scenes: undefined }), 0);
});
