/**
 * The browser tests' one set-up (test/support/browser.mjs `openHarness`): the page it opens is the
 * harness with the shim's world booted as the user asked for, under the generation the run plays
 * (`ICON_FOUNDRY_GENERATION`), at the size asked for, with what `beforeInit` returned; without a
 * user, only the shim's base; and `close` stops the server too.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { GENERATION, openHarness } from "../support/browser.mjs";

/** Who and what the page is, read in it. */
const PAGE_STATE = () => ({
  user: globalThis.game?.user ? { id: game.user.id, isGM: game.user.isGM, name: game.user.name } : null,
  ready: globalThis.game?.ready ?? null,
  generation: globalThis.game?.release?.generation ?? null,
  api: typeof globalThis.game?.system?.api?.useItem,
  localized: game.i18n.localize("CHAT.RollPublic"),
  width: innerWidth,
  height: innerHeight,
  path: location.pathname
});

for (const as of /** @type {const} */ (["player", "gm"])) {
  describe(`openHarness({as: "${as}"}) under Foundry ${GENERATION}`, () => {
    /** @type {Awaited<ReturnType<typeof openHarness>>} */
    let harness;
    before(async () => {
      harness = await openHarness({ as, viewport: { width: 640, height: 480 },
        beforeInit: (shim, arg) => ({ arg, user: game.user.id, ready: game.ready, hasInstallPack: typeof shim.installPack }), arg: { a: 1 } });
    });
    after(async () => { await harness?.close(); });

    test(`the page is the ${as}, in a world booted and ready, the size asked for`, async () => {
      const state = await harness.page.evaluate(PAGE_STATE);
      assert.deepEqual(state.user, as === "player"
        ? { id: "playerUser000000", isGM: false, name: "Player" }
        : { id: "gmUser0000000000", isGM: true, name: "Gamemaster" });
      assert.equal(state.ready, true);
      assert.equal(state.generation, GENERATION);
      assert.equal(state.api, "function");
      assert.equal(state.localized, "Public Roll");
      assert.deepEqual([state.width, state.height], [640, 480]);
      assert.equal(state.path, "/systems/icon-engine/test/browser/harness.html");
      assert.deepEqual(harness.errors, []);
    });

    test("beforeInit ran once the world was installed, before the game was ready, with its argument", () => {
      const user = as === "player" ? "playerUser000000" : "gmUser0000000000";
      assert.deepEqual(harness.init, { arg: { a: 1 }, user, ready: false, hasInstallPack: "function" });
    });
  });
}

describe("openHarness({as: null}): the shim's base only", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let harness;
  before(async () => { harness = await openHarness({ as: null, path: "/test/browser/harness.html" }); });
  after(async () => { await harness?.close(); });

  test("no world is installed; cards can be rendered", async () => {
    const state = await harness.page.evaluate(PAGE_STATE);
    assert.equal(state.user, null);
    assert.equal(state.ready, null);
    assert.equal(state.localized, "Public Roll");
    assert.deepEqual([state.width, state.height], [480, 720]);
    assert.equal(state.path, "/test/browser/harness.html");
  });

  test("close() closes the page and stops the server", async () => {
    const url = harness.server.url;
    assert.equal((await fetch(`${url}/test/browser/harness.html`)).status, 200);
    await harness.close();
    await assert.rejects(fetch(`${url}/test/browser/harness.html`));
    assert.equal(harness.page.isClosed(), true);
  });
});
