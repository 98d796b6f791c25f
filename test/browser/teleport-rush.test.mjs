/**
 * Teleport X and Rush X applied from a card (issue 38 §3), in the shim world on a scene of 12 × 12
 * spaces with a large (2×2) character. "Teleport X: A teleport ability allows its user to instantly
 * move to a free space within range X." "Rush X: Move X spaces. You are unstoppable and immune to
 * all damage while moving." "Engagement: A character must spend +1 space of movement to exit a
 * space adjacent to a foe"; "Unstoppable: ... movement ignores engagement and rampart." The
 * teleport's landing is picked on the board (the pointer reaches the stage as PIXI's events), the
 * applier checks it again, and a player's claim is checked by the GM (docs/security.md).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";
import { en } from "../support/lang.mjs";

const results = new URL("../../test-results/", import.meta.url).pathname;
const REFUSED = en.ICONENGINE.Card.Move.Refused;

/** The scene, its actors and the teleport and rush cards, set up in the page. */
async function setUp(page) {
  return page.evaluate(async UNTIL => {
    eval(UNTIL);
    const size = 50;
    const PLAYER = "playerUser000000";
    const { cardFlag, cardPart } = await import("../support/cards.mjs");
    const giant = await Actor.implementation.create({ name: "Giant", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
    const runner = await Actor.implementation.create({ name: "Runner", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
    const brute = await Actor.implementation.create({ name: "Brute", type: "foe" });
    const guard = await Actor.implementation.create({ name: "Guard", type: "foe" });
    const scene = await Scene.implementation.create({ name: "Blink Field", width: 12 * size, height: 12 * size, grid: { size, distance: 1 }, tokens: [
      { name: "Giant", actorId: giant.id, actorLink: true, x: 2 * size, y: 2 * size, width: 2, height: 2, disposition: 1 },
      { name: "Brute", actorId: brute.id, actorLink: true, x: 6 * size, y: 3 * size, disposition: -1 },
      { name: "Runner", actorId: runner.id, actorLink: true, x: 1 * size, y: 9 * size, disposition: 1 },
      { name: "Guard", actorId: guard.id, actorLink: true, x: 1 * size, y: 8 * size, disposition: -1 }
    ] });
    await scene.view();
    // `to: "target"`: a teleport and a rush land on their user whatever the part says
    const post = async (user, kind, spaces, author) => ChatMessage.implementation.create({ author, flags: { "icon-engine": {
      card: cardFlag(user, [], { kind: "card", name: kind, parts: [cardPart({ to: "target", move: { kind, spaces } })] }) } } });
    const teleport = await post(giant, "teleport", 3, PLAYER);
    const rush = await post(runner, "rush", 3, PLAYER);
    const element = id => document.querySelector(`#chat [data-message-id="${id}"]`);
    await until(() => element(teleport.id)?.querySelector("button[data-card-action=teleport]"), "the teleport's control");
    await until(() => element(rush.id)?.querySelector("button[data-card-action=drag]"), "the rush's control");
    return { teleport: teleport.id, rush: rush.id, size };
  }, UNTIL);
}

describe("teleport and rush from a card, as the GM", () => {
  const open = shimWorldPage({ as: "gm" });

  test("a 2×2 teleport: its footprint follows the pointer, an occupied or too far space is refused, a free one within range is landed on by Foundry's teleport movement; Undo teleports back", async () => {
    const { page } = open.browser;
    await page.setViewportSize({ width: 1280, height: 1000 });
    const ids = await setUp(page);
    const seen = await page.evaluate(async ({ ids, UNTIL }) => {
      eval(UNTIL);
      const { size } = ids;
      const { default: TeleportPlacement } = await import("../../module/canvas/teleport-placement.mjs");
      const giant = { get x() { return canvas.scene.tokens.find(t => t.name === "Giant").x; }, get y() { return canvas.scene.tokens.find(t => t.name === "Giant").y; } };
      const moves = [];
      Hooks.on("preMoveToken", (token, movement) => moves.push({ name: token.name, actions: movement.passed.waypoints.map(w => w.action) }));
      const warnings = [];
      const warn = ui.notifications.warn.bind(ui.notifications);
      ui.notifications.warn = (text, ...rest) => { warnings.push(text); return warn(text, ...rest); };
      // the pointer over a space, the footprint centred on it (a 2×2's top-left cell is one up and left)
      const pointer = (i, j) => ({ button: 0, getLocalPosition: () => ({ x: (i + 1) * size, y: (j + 1) * size }), stopPropagation() {} });
      const element = () => document.querySelector(`#chat [data-message-id="${ids.teleport}"]`);
      const out = {};
      element().querySelector("button[data-card-action=teleport]").click();
      await until(() => TeleportPlacement.current, "the placement open");
      // onto the Brute: (5,2)-(6,3) holds (6,3)
      canvas.stage.emit("mousemove", pointer(5, 2));
      out.overBrute = TeleportPlacement.current.refusal;
      canvas.stage.emit("mouseup", pointer(5, 2));
      // 4 columns over: past range 3
      canvas.stage.emit("mousemove", pointer(6, 6));
      out.farAway = TeleportPlacement.current.refusal;
      canvas.stage.emit("mouseup", pointer(6, 6));
      // its top row off the board
      canvas.stage.emit("mousemove", pointer(2, -1));
      out.offBoard = TeleportPlacement.current.refusal;
      out.stillOpen = !!TeleportPlacement.current;
      out.notRecorded = !game.messages.get(ids.teleport).getFlag("icon-engine", "effectsApplied")?.["-1"]?.["0"];
      out.before = [giant.x / size, giant.y / size];
      // (5,4)-(6,5): free, 3 columns and 2 rows over
      canvas.stage.emit("mousemove", pointer(5, 4));
      out.free = TeleportPlacement.current.refusal;
      canvas.stage.emit("mouseup", pointer(5, 4));
      await until(() => game.messages.get(ids.teleport).getFlag("icon-engine", "effectsApplied")?.["-1"]?.["0"], "the teleport recorded");
      out.after = [giant.x / size, giant.y / size];
      out.closed = TeleportPlacement.current === null;
      out.record = game.messages.get(ids.teleport).getFlag("icon-engine", "effectsApplied")["-1"]["0"].moved;
      await until(() => element()?.querySelector(".card-applied"), "the card says it");
      out.applied = element().querySelector(".card-applied").textContent.trim();
      out.moves = [...moves];
      out.warnings = [...warnings];
      return out;
    }, { ids, UNTIL });
    assert.equal(seen.overBrute, "occupied", "one of its four spaces is the Brute's");
    assert.equal(seen.farAway, "range");
    assert.equal(seen.offBoard, "edge");
    assert.equal(seen.stillOpen, true, "a refused click keeps the placement open");
    assert.equal(seen.notRecorded, true);
    assert.deepEqual(seen.warnings, [REFUSED.occupied, REFUSED.range], "each refused click says why");
    assert.equal(seen.free, null);
    assert.deepEqual(seen.before, [2, 2]);
    assert.deepEqual(seen.after, [5, 4]);
    assert.equal(seen.closed, true);
    assert.deepEqual({ ...seen.record, token: undefined }, { token: undefined, from: { x: 100, y: 100 }, to: { x: 250, y: 200 }, spaces: 3,
      collided: false, action: "blink" });
    assert.deepEqual(seen.moves, [{ name: "Giant", actions: ["blink"] }], "one move, Foundry's teleport action");
    assert.match(seen.applied, /moved 3 spaces/);
    await page.locator(`#chat [data-message-id="${ids.teleport}"]`).screenshot({ path: `${results}teleport-card.png` });
    await page.locator("#board").screenshot({ path: `${results}teleport-map.png` });

    const undone = await page.evaluate(async ({ ids, UNTIL }) => {
      eval(UNTIL);
      const giant = { get x() { return canvas.scene.tokens.find(t => t.name === "Giant").x; }, get y() { return canvas.scene.tokens.find(t => t.name === "Giant").y; } };
      const actions = [];
      Hooks.once("preMoveToken", (token, movement) => actions.push(...movement.passed.waypoints.map(w => w.action)));
      document.querySelector(`#chat [data-message-id="${ids.teleport}"] button[data-card-action=undoEffect]`).click();
      await until(() => !game.messages.get(ids.teleport).getFlag("icon-engine", "effectsApplied")?.["-1"]?.["0"], "the teleport undone");
      return { at: [giant.x / ids.size, giant.y / ids.size], actions };
    }, { ids, UNTIL });
    assert.deepEqual(undone, { at: [2, 2], actions: ["blink"] }, "back where it stood, by a teleport");
    assert.deepEqual(open.browser.errors, []);
  });

  test("a right click or Escape cancels the placement: nothing moves, nothing is recorded", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async ({ UNTIL }) => {
      eval(UNTIL);
      const { default: TeleportPlacement } = await import("../../module/canvas/teleport-placement.mjs");
      const message = game.messages.contents.find(m => m.getFlag("icon-engine", "card")?.name === "teleport");
      const giant = { get x() { return canvas.scene.tokens.find(t => t.name === "Giant").x; }, get y() { return canvas.scene.tokens.find(t => t.name === "Giant").y; } };
      const button = () => document.querySelector(`#chat [data-message-id="${message.id}"] button[data-card-action=teleport]`);
      await until(() => button() && !button().disabled, "the control back");
      button().click();
      await until(() => TeleportPlacement.current, "the placement open");
      canvas.app.view.oncontextmenu({ preventDefault() {} });
      const afterRight = TeleportPlacement.current;
      await until(() => !button().disabled, "the control free");
      button().click();
      await until(() => TeleportPlacement.current, "the placement open again");
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      return { afterRight, afterEscape: TeleportPlacement.current, at: [giant.x, giant.y],
        recorded: !!message.getFlag("icon-engine", "effectsApplied")?.["-1"]?.["0"] };
    }, { UNTIL });
    assert.deepEqual(seen, { afterRight: null, afterEscape: null, at: [100, 100], recorded: false });
  });

  test("the GM checks a player's claimed landing: another's character is refused, an occupied or too far space is refused, a free one lands", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async () => {
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      const message = game.messages.contents.find(m => m.getFlag("icon-engine", "card")?.name === "teleport");
      const giant = { get x() { return canvas.scene.tokens.find(t => t.name === "Giant").x; }, get y() { return canvas.scene.tokens.find(t => t.name === "Giant").y; } };
      const player = game.users.get("playerUser000000");
      // the GM's side of a request (CardActions.#request after its payload is cut to a control)
      const claim = async (to, user = player) => {
        try {
          await CardActions.run(message, CardActions.checkedControl({ action: "effect", key: -1, part: 0, to }), user);
          return "done";
        } catch (error) {
          return error.message;
        }
      };
      const out = {};
      out.occupied = await claim({ x: 250, y: 100 });
      out.far = await claim({ x: 300, y: 100 });
      out.forged = await claim({ x: "250", y: null });
      // a player who does not own the Giant
      const stranger = new CONFIG.User.documentClass({ _id: "strangerUser0000", name: "Stranger", role: 1 });
      out.stranger = await claim({ x: 250, y: 200 }, stranger);
      out.atAfterRefusals = [giant.x, giant.y];
      out.owner = await claim({ x: 100, y: 250 });
      out.at = [giant.x, giant.y];
      return out;
    });
    assert.equal(seen.occupied, REFUSED.occupied);
    assert.equal(seen.far, REFUSED.range);
    assert.equal(seen.forged, en.ICONENGINE.Trust.BadRequest);
    assert.equal(seen.stranger, en.ICONENGINE.Use.MayNotAffect.replace("{name}", "Giant"));
    assert.deepEqual(seen.atAfterRefusals, [100, 100]);
    assert.equal(seen.owner, "done");
    assert.deepEqual(seen.at, [100, 250]);
  });

  test("a rush: a drag of X spaces past a foe costs X (Unstoppable: engagement ignored), one more is refused; its update says it is a rush", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async ({ UNTIL }) => {
      eval(UNTIL);
      const size = 50;
      const { default: TokenMovement } = await import("../../module/canvas/token-movement.mjs");
      const { isRush } = await import("../../module/canvas/teleport-space.mjs");
      const message = game.messages.contents.find(m => m.getFlag("icon-engine", "card")?.name === "rush");
      // the shim's scene holds a new token document after each update
      const runner = () => canvas.scene.tokens.find(t => t.name === "Runner");
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      // The same path, priced without the rush: leaving (1,9) and (2,9), both beside the Guard at (1,8), costs 2 more
      const walked = TokenMovement.price(runner(), { x: runner().x, y: runner().y }, [{ x: 4 * size, y: 9 * size }]).cost;
      const rushed = TokenMovement.price(runner(), { x: runner().x, y: runner().y }, [{ x: 4 * size, y: 9 * size }], { unstoppable: true }).cost;
      const updates = [];
      Hooks.on("updateToken", (token, change, options) => { if (token.name === "Runner") updates.push(isRush(options, "icon-engine")); });
      element().querySelector("button[data-card-action=drag]").click();
      // 4 spaces: one too many
      const tooFar = await runner().update({ x: 5 * size });
      const afterTooFar = runner().x / size;
      const three = await runner().update({ x: 4 * size });
      await until(() => message.getFlag("icon-engine", "effectsApplied")?.["-1"]?.["0"], "the rush recorded");
      const record = message.getFlag("icon-engine", "effectsApplied")["-1"]["0"].moved;
      const at = runner().x / size;
      // a drag after the rush is recorded is no rush
      await runner().update({ y: 10 * size });
      return { walked, rushed, tooFar: tooFar === undefined, afterTooFar, moved: !!three, at,
        spaces: record.spaces, updates };
    }, { UNTIL });
    assert.equal(seen.walked, 5, "3 steps and 2 engagements");
    assert.equal(seen.rushed, 3);
    assert.equal(seen.tooFar, true, "4 spaces refused");
    assert.equal(seen.afterTooFar, 1);
    assert.equal(seen.moved, true);
    assert.equal(seen.at, 4);
    assert.equal(seen.spaces, 3);
    assert.deepEqual(seen.updates, [true, false], "the rush's update carries the rush option, the next drag does not");
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("a foe's shove on a Sturdy or Unstoppable character", () => {
  const open = shimWorldPage({ as: "gm" });

  test("a foe's Shove 3 moves a Sturdy character 1 space and an Unstoppable one not at all; an ordinary one 3", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 50;
      const { cardFlag, cardPart } = await import("../support/cards.mjs");
      const ogre = await Actor.implementation.create({ name: "Ogre", type: "foe" });
      const heroes = [];
      for (const name of ["Plain", "Rooted", "Relentless"]) heroes.push(await Actor.implementation.create({ name, type: "character" }));
      await heroes[1].toggleStatusEffect("sturdy", { active: true });
      await heroes[2].toggleStatusEffect("unstoppable", { active: true });
      // the ogre at column 1; each hero beside it in its own row, pushed right along an open row
      const scene = await Scene.implementation.create({ name: "Ledge", width: 12 * size, height: 12 * size, grid: { size, distance: 1 }, tokens: [
        { name: "Ogre", actorId: ogre.id, actorLink: true, x: size, y: 4 * size, disposition: -1 },
        ...heroes.map((h, k) => ({ name: h.name, actorId: h.id, actorLink: true, x: 2 * size, y: (3 + k) * size, disposition: 1 }))] });
      await scene.view();
      const message = await ChatMessage.implementation.create({ flags: { "icon-engine": {
        card: cardFlag(ogre, heroes, { kind: "card", name: "Club Sweep", parts: [cardPart({ move: { kind: "shove", spaces: 3 } })] }) } } });
      const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
      await until(() => element()?.querySelectorAll("button[data-card-action=effect]").length === 3, "three shoves");
      for (let key = 0; key < 3; key++) {
        element().querySelector(`button[data-card-action=effect][data-key="${key}"]`).click();
        await until(() => message.getFlag("icon-engine", "effectsApplied")?.[String(key)]?.["0"], `shove ${key} recorded`);
      }
      const at = name => { const t = canvas.scene.tokens.find(x => x.name === name); return [t.x / size, t.y / size]; };
      return { plain: at("Plain"), rooted: at("Rooted"), relentless: at("Relentless"),
        spaces: [0, 1, 2].map(k => message.getFlag("icon-engine", "effectsApplied")[String(k)]["0"].moved.spaces) };
    }, UNTIL);
    // straight away from the ogre at (1,4): Plain at (2,3) goes up-right, Rooted at (2,4) right, Relentless at (2,5) down-right
    assert.deepEqual(seen.spaces, [3, 1, 0]);
    assert.deepEqual(seen.plain, [5, 0]);
    assert.deepEqual(seen.rooted, [3, 4]);
    assert.deepEqual(seen.relentless, [2, 5]);
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("the ability editor", () => {
  const open = shimWorldPage({ as: "gm" });

  test("its move field offers teleport and rush, and the data model keeps them", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async UNTIL => {
      eval(UNTIL);
      const item = await Item.implementation.create({ name: "Blink", type: "ability", system: { effects: [
        { trigger: "use", to: "target", move: { kind: "teleport", spaces: 3 } }, { trigger: "use", move: { kind: "rush", spaces: 2 } }] } });
      await item.sheet.render(true);
      const select = await until(() => item.sheet.element?.querySelector('select[name="system.effects.0.move.kind"]'), "the move field");
      const out = { options: [...select.options].map(o => [o.value, o.textContent.trim()]), selected: select.value,
        stored: item.system.effects.map(e => e.move) };
      await item.sheet.close();
      return out;
    }, UNTIL);
    const labels = en.ICONENGINE.ItemSheet.Move;
    assert.deepEqual(seen.options, [["", labels.none], ["shove", labels.shove], ["pull", labels.pull], ["move", labels.move],
      ["teleport", labels.teleport], ["rush", labels.rush]]);
    assert.equal(seen.selected, "teleport");
    assert.deepEqual(seen.stored, [{ kind: "teleport", spaces: 3 }, { kind: "rush", spaces: 2 }]);
    assert.deepEqual(open.browser.errors, []);
  });
});

describe("teleport and rush from a card, as a player", () => {
  const open = shimWorldPage({ as: "player" });

  test("the control shows to the user's owner only", async () => {
    const { page } = open.browser;
    const seen = await page.evaluate(async UNTIL => {
      eval(UNTIL);
      const PLAYER = "playerUser000000";
      const { cardFlag, cardPart } = await import("../support/cards.mjs");
      const mine = await Actor.implementation.create({ name: "Mine", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
      const theirs = await Actor.implementation.create({ name: "Theirs", type: "character", ownership: { default: 2 } });
      const scene = await Scene.implementation.create({ name: "Field", width: 500, height: 500, grid: { size: 50, distance: 1 }, tokens: [
        { name: "Mine", actorId: mine.id, actorLink: true, x: 0, y: 0 }, { name: "Theirs", actorId: theirs.id, actorLink: true, x: 200, y: 0 }] });
      await scene.view();
      const post = async (user, author) => ChatMessage.implementation.create({ author, flags: { "icon-engine": {
        card: cardFlag(user, [], { kind: "card", name: user.name, parts: [cardPart({ to: "self", move: { kind: "teleport", spaces: 2 } })] }) } } });
      const a = await post(mine, PLAYER);
      const b = await post(theirs, "gmUser0000000000");
      const element = id => document.querySelector(`#chat [data-message-id="${id}"]`);
      await until(() => element(a.id)?.querySelector(".card-part") && element(b.id)?.querySelector(".card-part"), "both cards");
      return { mine: !!element(a.id).querySelector("button[data-card-action=teleport]"), theirs: !!element(b.id).querySelector("button[data-card-action=teleport]") };
    }, UNTIL);
    assert.deepEqual(seen, { mine: true, theirs: false });
    assert.deepEqual(open.browser.errors, []);
  });
});
