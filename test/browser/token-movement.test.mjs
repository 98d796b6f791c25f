/**
 * Issue 38, 2: a token's move by ICON's rules, through Foundry's `preMoveToken`: a player's move
 * that passes through a foe, a wall, or ends in a character's
 * space, or moves an Immobile character, is warned about and still made (the table decides); a
 * Phasing character's pass through a foe is not; a GM moves freely. A drag is walked along the
 * straight line: diagonally for a Skirmisher, else in orthogonal steps, each priced (engagement).
 * The prices themselves are the core's (tests/icon_movement.rs). In the shim's world, as the GM
 * who plays a player by their role.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

describe("a token's move by ICON's rules", () => {
  const open = shimWorldPage({ as: "gm" });

  test("a player's move that breaks a rule is warned about and made; a Skirmisher, Phasing and the GM go unremarked", async () => {
    const seen = await open.browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 100;
      const mira = await Actor.implementation.create({ name: "Mira", type: "character" });
      // a Vagabond: its class trait is "Skirmisher, Dodge"
      const vex = await Actor.implementation.create({ name: "Vex", type: "character", system: { class: "vagabond" } });
      const grunt = await Actor.implementation.create({ name: "Grunt", type: "foe" });
      const scene = await Scene.implementation.create({ name: "Moves", width: 1000, height: 800, grid: { size, distance: 1 },
        tokens: [
          { name: "Mira", actorId: mira.id, actorLink: true, x: 1 * size, y: 1 * size, disposition: 1 },
          { name: "Vex", actorId: vex.id, actorLink: true, x: 1 * size, y: 5 * size, disposition: 1 },
          { name: "Grunt", actorId: grunt.id, actorLink: true, x: 3 * size, y: 1 * size, disposition: -1 }
        ],
        // a wall on x = 600 from y = 0 to 800; row 1's spaces from x = 300 to 600 a pocket closed
        // above, below and on the right, Grunt at its mouth; a short wall on x = 800 across row 3
        walls: [{ c: [600, 0, 600, 800] }, { c: [300, 100, 600, 100] }, { c: [300, 200, 600, 200] }, { c: [800, 300, 800, 400] }] });
      await scene.view();
      const token = name => scene.tokens.getName(name);
      const warned = async (name, x, y) => {
        ui.notifications.queue.length = 0;
        await token(name).update({ x: x * size, y: y * size });
        const at = [token(name).x / size, token(name).y / size];
        return { at, said: ui.notifications.queue.filter(n => n.type === "warning").map(n => n.message) };
      };
      // prices: a diagonal drag is two orthogonal steps unless Skirmisher; leaving Grunt's side costs 1 more a step
      const { default: TokenMovement } = await import("../../module/canvas/token-movement.mjs");
      const price = (name, from, to) => TokenMovement.price(token(name), { x: from[0] * size, y: from[1] * size }, [{ x: to[0] * size, y: to[1] * size }]);
      const prices = {
        miraDiagonal: price("Mira", [1, 1], [2, 2]).cost,
        vexDiagonal: price("Vex", [1, 5], [2, 6]).cost,
        // (2,1) beside Grunt at (3,1) down to (2,3): the first two steps leave spaces beside him
        engaged: price("Mira", [2, 1], [2, 3]).steps.map(s => s.cost),
        // (7,3) → (9,3) in a straight line crosses the short wall: the core routes round it
        detour: (({ cost, steps, problems }) => ({ cost, to: steps.map(s => s.to), problems }))(price("Mira", [7, 3], [9, 3]))
      };
      await game.user.update({ role: CONST.USER_ROLES.PLAYER });
      try {
        return {
          prices,
          diagonal: await warned("Mira", 2, 2),
          back: await warned("Mira", 2, 1),
          // (2,1) → (4,1): into the pocket, whose one way in is through Grunt at (3,1)
          through: await warned("Mira", 4, 1),
          wall: await warned("Mira", 7, 1),
          // back across the wall, through and onto Grunt
          onto: await warned("Mira", 3, 1),
          skirmisher: await warned("Vex", 2, 6),
          phasing: await (async () => {
            await vex.toggleStatusEffect("phasing", { active: true });
            await token("Vex").update({ x: 2 * size, y: 1 * size });
            return warned("Vex", 4, 1);
          })(),
          immobile: await (async () => {
            await mira.toggleStatusEffect("immobile", { active: true });
            return warned("Mira", 2, 1);
          })()
        };
      } finally {
        await game.user.update({ role: CONST.USER_ROLES.GAMEMASTER });
      }
    }, UNTIL);
    const text = {
      diagonal: "It steps diagonally, which only a Skirmisher may.",
      obstructed: "It passes through a foe's space (only Phasing or Flying may).",
      wall: "It passes through a wall.",
      endsOccupied: "It ends in another character's space.",
      immobile: "It cannot move (Immobile or Incapacitated)."
    };
    const warning = (...problems) => [`Mira's move breaks ICON's movement rules: ${problems.map(p => text[p]).join(" ")} The GM may allow it.`];
    assert.deepEqual(seen.prices, { miraDiagonal: 2, vexDiagonal: 1, engaged: [2, 2],
      detour: { cost: 4, to: [[2, 7], [2, 8], [3, 8], [3, 9]], problems: [] } });
    assert.deepEqual(seen.diagonal, { at: [2, 2], said: [] }, "a diagonal drag is walked as two orthogonal steps");
    assert.deepEqual(seen.back, { at: [2, 1], said: [] });
    assert.deepEqual(seen.through, { at: [4, 1], said: warning("obstructed") }, "warned, and made");
    assert.deepEqual(seen.wall, { at: [7, 1], said: warning("wall") });
    assert.deepEqual(seen.onto, { at: [3, 1], said: warning("wall", "obstructed", "endsOccupied") });
    assert.deepEqual(seen.skirmisher, { at: [2, 6], said: [] }, "a Skirmisher steps diagonally");
    assert.deepEqual(seen.phasing, { at: [4, 1], said: [] }, "Phasing passes through a foe");
    assert.deepEqual(seen.immobile.said, warning("immobile"));
    // and the GM moves freely
    const gm = await open.browser.page.evaluate(async () => {
      ui.notifications.queue.length = 0;
      await game.scenes.getName("Moves").tokens.getName("Mira").update({ x: 0, y: 700 });
      return ui.notifications.queue.length;
    });
    assert.equal(gm, 0);
    assert.deepEqual(open.browser.errors, []);
  });

  test("the ruler's costs: each walked step priced as ICON prices it, in the scene's units; teleports as Foundry prices them", async () => {
    const seen = await open.browser.page.evaluate(async () => {
      const size = 100;
      const kai = await Actor.implementation.create({ name: "Kai", type: "character" });
      const brute = await Actor.implementation.create({ name: "Brute", type: "foe" });
      // 5 distance units a space: ICON's +1 space is +5 on the ruler
      const scene = await Scene.implementation.create({ name: "Costs", width: 1000, height: 800, grid: { size, distance: 5 },
        tokens: [
          { name: "Kai", actorId: kai.id, actorLink: true, x: 1 * size, y: 1 * size, disposition: 1 },
          { name: "Brute", actorId: brute.id, actorLink: true, x: 3 * size, y: 1 * size, disposition: -1 }
        ],
        tiles: [{ x: 0, y: 3 * size, width: 2 * size, height: size, flags: { "icon-engine": { terrain: "difficult" } } }] });
      const token = scene.tokens.getName("Kai");
      const { actions } = CONFIG.Token.movement;
      const walk = actions.walk.getCostFunction(token, {});
      const fly = actions.fly.getCostFunction(token, {});
      const at = (i, j) => ({ i, j, k: 0 });
      return {
        // (1,2) is beside Brute at (1,3): leaving it costs 5 more; (1,1) → (1,2) costs the base
        open: walk(5, at(1, 1), at(1, 2), 5, {}),
        engaged: walk(5, at(1, 2), at(2, 2), 5, {}),
        // (3,1) is difficult terrain: leaving it costs 5 more, entering it nothing
        intoDifficult: walk(5, at(2, 1), at(3, 1), 5, {}),
        outOfDifficult: walk(5, at(3, 1), at(4, 1), 5, {}),
        flyingEngaged: fly(5, at(1, 2), at(2, 2), 5, {}),
        // a core action's own cost comes first (crawl doubles it in v13's defaults): the shim's blink is a teleport
        blink: actions.blink.getCostFunction(token, {})(5, at(1, 2), at(6, 6), 25, {})
      };
    });
    assert.deepEqual(seen, { open: 5, engaged: 10, intoDifficult: 5, outOfDifficult: 10, flyingEngaged: 5, blink: 5 });
    assert.deepEqual(open.browser.errors, []);
  });
});
