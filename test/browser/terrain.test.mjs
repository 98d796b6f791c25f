/**
 * Issues 38, 4 and 40, 2: ICON's terrain painted on the scene as the system's region behaviors,
 * the same on Foundry 13 and 14. Difficult terrain ("Costs +1 space of movement to exit") prices
 * the ruler's steps and the core's moves; dangerous terrain ("Entering or exiting a dangerous
 * terrain space causes a character to take 2 piercing damage. Characters can only take this damage
 * once a turn.") deals its damage when a token moves into, through, within or out of it: once a
 * movement, once a turn in a running combat, never to a flyer, and by the active GM's client only
 * (each client runs a region's behaviors; the mover's sends the events to the others).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

describe("terrain from the scene's regions", () => {
  const open = shimWorldPage({ as: "gm" });

  test("the behaviors are registered for both generations, named and iconed", async () => {
    const seen = await open.browser.page.evaluate(() => {
      const { dataModels, typeIcons, typeLabels } = CONFIG.RegionBehavior;
      const types = ["icon-engine.difficultTerrain", "icon-engine.dangerousTerrain"];
      return types.map(type => ({
        model: dataModels[type]?.prototype instanceof foundry.data.regionBehaviors.RegionBehaviorType,
        icon: typeIcons[type],
        label: game.i18n.localize(typeLabels[type]),
        // Foundry's default key for a package's subtype label
        typesLabel: game.i18n.localize(`TYPES.RegionBehavior.${type}`)
      }));
    });
    assert.deepEqual(seen, [
      { model: true, icon: "fa-solid fa-hill-rockslide", label: "ICON: Difficult terrain", typesLabel: "ICON: Difficult terrain" },
      { model: true, icon: "fa-solid fa-triangle-exclamation", label: "ICON: Dangerous terrain", typesLabel: "ICON: Dangerous terrain" }
    ]);
  });

  test("a difficult region: +1 to leave its spaces on the ruler and in the core's price; a flyer, a disabled behavior and other regions add nothing", async () => {
    const seen = await open.browser.page.evaluate(async () => {
      const size = 100;
      const kai = await Actor.implementation.create({ name: "Kai", type: "character" });
      // a rectangle over the spaces (row 1, columns 3–4), and a plain region with no behavior at row 5
      const scene = await Scene.implementation.create({ name: "Mud", width: 1000, height: 800, grid: { size, distance: 5 },
        tokens: [{ name: "Kai", actorId: kai.id, actorLink: true, x: 1 * size, y: 1 * size, disposition: 1 }],
        regions: [
          { name: "Mud", shapes: [{ type: "rectangle", x: 3 * size, y: 1 * size, width: 2 * size, height: size }],
            behaviors: [{ name: "Mud", type: "icon-engine.difficultTerrain" }] },
          { name: "Off", shapes: [{ type: "rectangle", x: 0, y: 3 * size, width: 3 * size, height: size }],
            behaviors: [{ name: "Off", type: "icon-engine.difficultTerrain", disabled: true }] },
          { name: "Plain", shapes: [{ type: "rectangle", x: 0, y: 5 * size, width: 3 * size, height: size }] }
        ] });
      const token = scene.tokens.getName("Kai");
      const { default: TokenMovement } = await import("../../module/canvas/token-movement.mjs");
      const { actions } = CONFIG.Token.movement;
      const walk = actions.walk.getCostFunction(token, {});
      const fly = actions.fly.getCostFunction(token, {});
      const at = (i, j) => ({ i, j, k: 0 });
      // (1,1) → (1,6) along row 1: through (1,3) and (1,4), each left at +1
      const price = TokenMovement.price(token, { x: 1 * size, y: 1 * size }, [{ x: 6 * size, y: 1 * size }]);
      const flying = TokenMovement.price(token, { x: 1 * size, y: 1 * size }, [{ x: 6 * size, y: 1 * size }], { flying: true });
      return {
        spaces: TokenMovement.difficultSpaces(scene, size),
        into: walk(5, at(1, 2), at(1, 3), 5, {}),
        within: walk(5, at(1, 3), at(1, 4), 5, {}),
        out: walk(5, at(1, 4), at(1, 5), 5, {}),
        flyOut: fly(5, at(1, 4), at(1, 5), 5, {}),
        disabled: walk(5, at(3, 1), at(3, 2), 5, {}),
        plain: walk(5, at(5, 1), at(5, 2), 5, {}),
        cost: price.cost,
        steps: price.steps.map(s => s.cost),
        flyingCost: flying.cost
      };
    });
    assert.deepEqual(seen.spaces, [[1, 3], [1, 4]]);
    assert.deepEqual([seen.into, seen.within, seen.out, seen.flyOut, seen.disabled, seen.plain], [5, 10, 10, 5, 5, 5]);
    assert.deepEqual(seen.steps, [1, 1, 2, 2, 1]);
    assert.equal(seen.cost, 7);
    assert.equal(seen.flyingCost, 5, "Flying ignores terrain");
    assert.deepEqual(open.browser.errors, []);
  });

  test("a dangerous region hurts a move into, through or out of it: 2 piercing once a turn, again the next; never a flyer", async () => {
    const seen = await open.browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 100;
      const ana = await Actor.implementation.create({ name: "Ana", type: "character" });
      const ogre = await Actor.implementation.create({ name: "Ogre", type: "foe" });
      const wisp = await Actor.implementation.create({ name: "Wisp", type: "foe" });
      await wisp.toggleStatusEffect("flying", { active: true });
      // spikes over columns 3–4 of rows 0–3
      const scene = await Scene.implementation.create({ name: "Spikes", width: 1000, height: 800, grid: { size, distance: 1 },
        tokens: [
          { name: "Ana", actorId: ana.id, actorLink: true, x: 1 * size, y: 1 * size, disposition: 1 },
          { name: "Ogre", actorId: ogre.id, actorLink: true, x: 1 * size, y: 2 * size, disposition: -1 },
          { name: "Wisp", actorId: wisp.id, actorLink: true, x: 1 * size, y: 3 * size, disposition: -1 }
        ],
        regions: [{ name: "Spikes", shapes: [{ type: "rectangle", x: 3 * size, y: 0, width: 2 * size, height: 4 * size }],
          behaviors: [{ name: "Spikes", type: "icon-engine.dangerousTerrain" }] }] });
      const token = name => scene.tokens.getName(name);
      const health = actor => actor.system.hp.value + actor.system.vigor.value;
      const cards = () => game.messages.filter(m => m.flavor === "Dangerous terrain").length;
      const settle = async () => {
        // the region's handlers run after the update, as Foundry's do: wait until nothing more comes
        let last = -1;
        await until(async () => {
          await new Promise(resolve => setTimeout(resolve, 60));
          const now = cards();
          const still = now === last;
          last = now;
          return still;
        }, "the region's events");
      };
      const move = async (name, x, y, options = {}) => {
        await token(name).update({ x: x * size, y: y * size }, options);
        await settle();
      };
      const start = { ana: health(ana), ogre: health(ogre), wisp: health(wisp), cards: cards() };

      // out of combat: a walk through the region (in and out in one movement) hurts once
      await move("Ana", 6, 1);
      const through = { lost: start.ana - health(ana), cards: cards() - start.cards };

      // in a running combat: into it, within it and out of it in one turn, once
      const combat = await Combat.implementation.create({ active: true });
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: ana.id }, { actorId: ogre.id }, { actorId: wisp.id }]);
      await combat.startCombat();
      const id = actor => combat.combatants.find(c => c.actorId === actor.id).id;
      await combat.iconDispatch({ type: "beginTurn", id: id(ogre) });
      const ogreStart = health(ogre);
      await move("Ogre", 3, 2);
      const afterIn = ogreStart - health(ogre);
      await move("Ogre", 4, 2);
      await move("Ogre", 6, 2);
      const turnOne = ogreStart - health(ogre);
      // the next turn: out and back in hurts again, once
      await combat.iconDispatch({ type: "endTurn" });
      await combat.iconDispatch({ type: "beginTurn", id: id(ana) });
      await move("Ogre", 4, 2);
      await move("Ogre", 6, 2);
      const turnTwo = ogreStart - health(ogre) - turnOne;

      // a flyer (the status, or Foundry's fly action for a walker) takes none
      await move("Wisp", 4, 3);
      await move("Wisp", 6, 3);
      const anaBefore = health(ana);
      await move("Ana", 4, 1, { movementAction: "fly" });
      const flyer = { wisp: start.wisp - health(wisp), anaFlying: anaBefore - health(ana) };
      // a rush ("immune to all damage while moving": the card's rush marks its update) takes none
      await move("Ana", 1, 1, { movementAction: "fly" });
      const anaRushing = health(ana);
      await move("Ana", 6, 1, { "icon-engine": { rush: true } });
      flyer.anaRushing = anaRushing - health(ana);
      const card = game.messages.filter(m => m.flavor === "Dangerous terrain").at(-1);
      await combat.delete();
      return { through, afterIn, turnOne, turnTwo, flyer, dealt: card?.getFlag("icon-engine", "damageApplied")?.[0]?.dealt ?? null,
        total: cards() - start.cards };
    }, UNTIL);
    assert.deepEqual(seen.through, { lost: 2, cards: 1 }, "in and out of the region in one movement: once");
    assert.equal(seen.afterIn, 2, "moving in: 2 piercing");
    assert.equal(seen.turnOne, 2, "within and out of it in the same turn: nothing more");
    assert.equal(seen.turnTwo, 2, "the next turn: 2 again");
    assert.deepEqual(seen.flyer, { wisp: 0, anaFlying: 0, anaRushing: 0 });
    assert.equal(seen.dealt, 2);
    assert.equal(seen.total, 3, "a card for each time it hurt");
    assert.deepEqual(open.browser.errors, []);
  });

  test("a player's move is hurt once, by the active GM's client: the player's own client, and a second delivery, deal nothing", async () => {
    const seen = await open.browser.page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 100;
      const mira = await Actor.implementation.create({ name: "Mira", type: "character", ownership: { default: 3 } });
      const scene = await Scene.implementation.create({ name: "Coals", width: 1000, height: 800, grid: { size, distance: 1 },
        tokens: [{ name: "Mira", actorId: mira.id, actorLink: true, x: 1 * size, y: 1 * size, disposition: 1 }],
        regions: [{ name: "Coals", shapes: [{ type: "polygon", points: [300, 0, 500, 0, 500, 400, 300, 400] }],
          behaviors: [{ name: "Coals", type: "icon-engine.dangerousTerrain" }] }] });
      const token = scene.tokens.getName("Mira");
      const health = () => mira.system.hp.value + mira.system.vigor.value;
      const cards = () => game.messages.filter(m => m.flavor === "Dangerous terrain").length;
      const before = { health: health(), cards: cards() };
      /** @type {unknown} */
      let movement = null;
      const hook = Hooks.on("preMoveToken", (_t, m) => { movement = m; });
      // the player's client: the move triggers the region's events there, and it deals nothing
      await game.user.update({ role: CONST.USER_ROLES.PLAYER });
      try {
        await token.update({ x: 3 * size, y: 1 * size });
        await new Promise(resolve => setTimeout(resolve, 300));
      } finally {
        await game.user.update({ role: CONST.USER_ROLES.GAMEMASTER });
        Hooks.off("preMoveToken", hook);
      }
      const onPlayer = { lost: before.health - health(), cards: cards() - before.cards };
      // the GM's client receives the player's event (Foundry's `regionEvent` socket → `_handleEvent`): it deals the damage
      const region = scene.regions.getName("Coals");
      const player = game.users.find(u => !u.isGM);
      const event = { name: CONST.REGION_EVENTS.TOKEN_MOVE_IN, data: { token: scene.tokens.getName("Mira"), movement }, region, user: player };
      await region._handleEvent(event);
      await until(() => cards() > before.cards, "the GM's card");
      // the same movement's event delivered again (or its exit): nothing more
      await region._handleEvent({ ...event, name: CONST.REGION_EVENTS.TOKEN_MOVE_WITHIN });
      await new Promise(resolve => setTimeout(resolve, 300));
      return { onPlayer, lost: before.health - health(), cards: cards() - before.cards };
    }, UNTIL);
    assert.deepEqual(seen.onPlayer, { lost: 0, cards: 0 }, "not on the player's client");
    assert.deepEqual({ lost: seen.lost, cards: seen.cards }, { lost: 2, cards: 1 }, "once, on the GM's");
    assert.deepEqual(open.browser.errors, []);
  });

  test("a player's forged region event is a claim: no movement of the token's own, or one that never touched the region, hurts no one", async () => {
    const seen = await open.browser.page.evaluate(async () => {
      const size = 100;
      const brute = await Actor.implementation.create({ name: "Brute", type: "foe" });
      const scene = await Scene.implementation.create({ name: "Pit", width: 1000, height: 800, grid: { size, distance: 1 },
        tokens: [{ name: "Brute", actorId: brute.id, actorLink: true, x: 1 * size, y: 5 * size, disposition: -1 }],
        regions: [{ name: "Pit", shapes: [{ type: "rectangle", x: 3 * size, y: 0, width: 2 * size, height: 3 * size }],
          behaviors: [{ name: "Pit", type: "icon-engine.dangerousTerrain" }] }] });
      const token = () => scene.tokens.getName("Brute");
      // the Brute's real movement: along row 5, far from the pit (rows 0–2)
      await token().update({ x: 6 * size, y: 5 * size });
      await new Promise(resolve => setTimeout(resolve, 200));
      const health = () => brute.system.hp.value + brute.system.vigor.value;
      const cards = () => game.messages.filter(m => m.flavor === "Dangerous terrain").length;
      const before = { health: health(), cards: cards() };
      const region = scene.regions.getName("Pit");
      const player = game.users.find(u => !u.isGM);
      const claim = movement => region._handleEvent({ name: CONST.REGION_EVENTS.TOKEN_MOVE_IN, data: { token: token(), movement }, region, user: player });
      // a movement the token never made, its path drawn through the pit
      await claim({ id: "forgedMove000001", method: "dragging", origin: { x: 1 * size, y: 1 * size, width: 1, height: 1 },
        passed: { waypoints: [{ x: 6 * size, y: 1 * size, width: 1, height: 1, action: "walk" }] } });
      // the token's real movement, which never came near the pit, its path claimed through it
      const real = token().movement;
      await claim({ ...real, origin: { x: 1 * size, y: 1 * size, width: 1, height: 1 } });
      await new Promise(resolve => setTimeout(resolve, 300));
      return { lost: before.health - health(), cards: cards() - before.cards, real: !!real?.id };
    });
    assert.equal(seen.real, true, "the token has a movement of its own");
    assert.deepEqual({ lost: seen.lost, cards: seen.cards }, { lost: 0, cards: 0 });
    assert.deepEqual(open.browser.errors, []);
  });
});
