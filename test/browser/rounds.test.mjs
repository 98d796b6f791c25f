/**
 * Issue 41's "done when": two full rounds of an ICON fight, played as a GM runs a session, in the
 * shim's v13 world with the system's real classes. Two characters of different classes and three
 * foes (a normal one, an elite that takes two turns a round, a mob) take their turns in the order
 * the core's turn order allows; every ability used posts one card, and every part of it (damage,
 * saves, statuses with their durations, marks, forced movement) lands from that card's controls,
 * each pressed once, without opening a sheet. Each turn leaves a screenshot of its card and of the
 * map in test-results/rounds-*.png. The abilities are this test's own, in its own words.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

const results = new URL("../../test-results/", import.meta.url).pathname;

/** The fighters: actors, their abilities, and where their tokens stand (column, row). */
const FIGHTERS = [
  { name: "Wren", type: "character", at: [2, 5], system: { class: "wright", damageDie: 8, fray: 2 }, items: [
    { name: "Spark Lance", type: "ability", system: { actions: "1", tags: ["attack"], range: { kind: "range", value: 6 }, roll: { hitDice: 1 },
      description: "<p>A bolt that rattles whoever it strikes.</p>",
      effects: [{ trigger: "hit", status: "dazed", duration: "turn" }, { trigger: "exceed", status: "vulnerable", duration: "save" }] } },
    { name: "Gale Shove", type: "ability", system: { actions: "1", range: { kind: "range", value: 3 }, description: "<p>A gust pushes a foe back.</p>",
      effects: [{ trigger: "use", move: { kind: "shove", spaces: 2 } }] } }
  ] },
  { name: "Tess", type: "character", at: [4, 4], system: { class: "stalwart", damageDie: 10, fray: 3 }, items: [
    { name: "Hammer Blow", type: "ability", system: { actions: "2", tags: ["attack"], range: { kind: "melee", value: 1 }, roll: { hitDice: 2 },
      description: "<p>A heavy swing that sends its target reeling.</p>",
      effects: [{ trigger: "hit", move: { kind: "shove", spaces: 1 } }, { trigger: "crit", status: "stunned", duration: "save" }] } },
    { name: "Guard Stance", type: "ability", system: { actions: "1", tags: ["stance"], range: { kind: "self", value: 0 },
      description: "<p>Set your feet and raise your guard.</p>", effects: [{ trigger: "use", to: "self", status: "dodge", duration: "ongoing" }] } }
  ] },
  { name: "Ash Hound", type: "foe", at: [5, 3], system: { template: "" }, items: [
    { name: "Rending Bite", type: "ability", system: { actions: "1", tags: ["attack"], range: { kind: "melee", value: 1 }, roll: { hitDice: 1 },
      description: "<p>Teeth that leave a limb numb.</p>", effects: [{ trigger: "hit", status: "weakened", duration: "turn" }] } }
  ] },
  { name: "Cinder Cantor", type: "foe", at: [8, 3], system: { template: "elite" }, items: [
    { name: "Ember Hymn", type: "ability", system: { actions: "2", range: { kind: "range", value: 6 }, save: { enabled: true },
      description: "<p>A song of embers that strips away resolve.</p>", effects: [{ trigger: "failedSave", status: "vulnerable", duration: "save" }] } },
    { name: "Cinder Brand", type: "ability", system: { actions: "1", tags: ["mark"], range: { kind: "range", value: 6 },
      description: "<p>A glowing sigil marks its prey.</p>", effects: [{ trigger: "use", mark: "Cinder Brand" }] } }
  ] },
  { name: "Husk Swarm", type: "foe", at: [5, 5], system: { template: "mob" }, items: [
    { name: "Swarm Claws", type: "ability", system: { actions: "1", tags: ["attack"], range: { kind: "melee", value: 1 }, roll: { hitDice: 1 },
      description: "<p>Many small claws at once.</p>" } }
  ] }
];

describe("issue 41: two full rounds, every effect from its card", () => {
  const open = shimWorldPage({ as: "gm" });
  let turn = 0;

  /** Play one turn: begin it, use the ability (targets set as a GM does), finish its card, end it. */
  async function play(user, ability, targets, { dice = 0.999, saves = 0.001, moveFirst = null } = {}) {
    const { page } = open.browser;
    turn += 1;
    const done = await page.evaluate(async args => globalThis.rounds.turn(args), { user, ability, targets, dice, saves, moveFirst });
    await page.locator(`#chat [data-message-id="${done.message}"]`).screenshot({ path: `${results}rounds-${String(turn).padStart(2, "0")}-${user.replace(/ /g, "-")}-card.png` });
    await page.locator("#board").screenshot({ path: `${results}rounds-${String(turn).padStart(2, "0")}-${user.replace(/ /g, "-")}-map.png` });
    return done;
  }

  test("the fight is set: two characters, a normal foe, an elite, a mob, on one map, in ICON's turn order", async () => {
    const { page } = open.browser;
    await page.setViewportSize({ width: 1280, height: 1000 });
    const set = await page.evaluate(async ({ FIGHTERS, UNTIL }) => {
      eval(UNTIL);
      const size = 50;
      const actors = [];
      for (const f of FIGHTERS) actors.push(await Actor.implementation.create({ name: f.name, type: f.type, system: f.system, items: f.items }));
      const scene = await Scene.implementation.create({ name: "Ember Pass", width: 500, height: 400, grid: { size, distance: 1 },
        tokens: FIGHTERS.map((f, i) => ({ name: f.name, actorId: actors[i].id, actorLink: true, x: f.at[0] * size, y: f.at[1] * size })) });
      await scene.view();
      const combat = await Combat.implementation.create({ active: true, scene: scene.id });
      await combat.createEmbeddedDocuments("Combatant", actors.map(a => ({ actorId: a.id, tokenId: scene.tokens.find(t => t.actorId === a.id).id })));
      await combat.startCombat();
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      const tokenAt = name => canvas.scene.tokens.find(t => t.name === name);
      globalThis.rounds = {
        combat,
        /** The open turn of `user`, an ability used, its card's every control pressed, the turn ended. */
        async turn({ user, ability, targets, dice, saves, moveFirst }) {
          const actor = game.actors.getName(user);
          const id = combat.combatants.find(c => c.actorId === actor.id).id;
          await combat.iconDispatch({ type: "beginTurn", id });
          if (combat.iconState?.current?.id !== id) throw new Error(`${user}'s turn did not open: ${JSON.stringify(combat.iconState?.next)}`);
          if (moveFirst) await tokenAt(user).update({ x: moveFirst[0] * size, y: moveFirst[1] * size });
          for (const t of canvas.tokens.placeables) t.setTarget(targets.includes(t.name), { releaseOthers: false });
          const random = CONFIG.Dice.randomUniform;
          CONFIG.Dice.randomUniform = () => dice;
          const before = new Set(game.messages.keys());
          const outcome = await actor.items.getName(ability).use();
          if (outcome?.kind === "attack") outcome.dialog.element.querySelector("button[type=submit]").click();
          const message = await until(() => game.messages.contents.find(m => !before.has(m.id) && m.getFlag("icon-engine", "card")), `${ability}'s card`);
          const element = () => document.querySelector(`#chat [data-message-id="${message.id}"]`);
          await until(() => element()?.querySelector(".card-target, .card-self"), `${ability}'s card in the log`);
          // every control the card offers, once each: damage, saves (failed: `saves`), parts
          const pressed = [];
          for (let i = 0; i < 40; i++) {
            const button = element()?.querySelector("button[data-card-action=damage]:not([data-saved]), button[data-card-action=save], button[data-card-action=effect]");
            if (!button) break;
            const { cardAction, key, part } = button.dataset;
            const name = button.closest(".card-target")?.querySelector(".name")?.textContent ?? user;
            pressed.push(`${name}: ${button.textContent.trim()}`);
            CONFIG.Dice.randomUniform = () => (cardAction === "save" ? saves : dice);
            const selector = `button[data-card-action=${cardAction}][data-key="${key}"]${part !== undefined ? `[data-part="${part}"]` : ""}`;
            button.click();
            await until(() => !element()?.querySelector(selector), `${name}: ${cardAction} pressed`);
          }
          CONFIG.Dice.randomUniform = random;
          const left = [...element().querySelectorAll("button[data-card-action]")].map(b => b.dataset.cardAction).filter(a => !["undoDamage", "undoEffect", "counter", "vigilance"].includes(a));
          const applied = [...element().querySelectorAll(".card-part.is-applied .card-applied")].map(s => s.textContent.trim());
          const blocked = [...element().querySelectorAll(".card-blocked")].map(s => s.textContent.trim());
          if (combat.iconState?.current?.id === id) await combat.iconDispatch({ type: "endTurn" });
          return { message: message.id, pressed, left, applied, blocked, round: combat.iconState?.round };
        },
        /** Where a token stands (column, row), its actor's HP and statuses, and the marks on it. */
        state(name) {
          const token = tokenAt(name);
          const a = token.actor;
          return { at: [token.x / size, token.y / size], hp: a.system.hp.value, statuses: [...a.statuses].sort(),
            marks: a.effects.filter(e => e.getFlag("icon-engine", "mark")).map(e => e.getFlag("icon-engine", "mark").mark) };
        }
      };
      return { turns: combat.combatants.map(c => [c.name, combat.iconState.combatants[c.id]?.[0] ?? null]), round: combat.iconState.round };
    }, { FIGHTERS, UNTIL });
    assert.equal(set.round, 1);
    assert.equal(set.turns.length, 5);
  });

  const state = name => open.browser.page.evaluate(n => globalThis.rounds.state(n), name);

  test("round 1: each fighter's turn, each ability's every effect from its card", async () => {
    // Wren: a critical hit (a 20) is a hit and an exceed: Dazed to the end of the hound's next turn, and Vulnerable
    const hound = await state("Ash Hound");
    let done = await play("Wren", "Spark Lance", ["Ash Hound"]);
    assert.deepEqual(done.left, [], "nothing left to press");
    assert.equal(done.pressed.length, 3, done.pressed.join(" | "));
    let now = await state("Ash Hound");
    assert.ok(now.hp < hound.hp, "the hound took the damage");
    assert.deepEqual(now.statuses.filter(s => ["dazed", "vulnerable"].includes(s)), ["dazed", "vulnerable"]);

    // the hound bites Tess: a hit (foes cannot crit), Weakened to the end of her next turn
    const tess = await state("Tess");
    done = await play("Ash Hound", "Rending Bite", ["Tess"]);
    assert.deepEqual(done.left, []);
    now = await state("Tess");
    assert.ok(now.hp < tess.hp);
    assert.ok(now.statuses.includes("weakened"));

    // Tess: a critical Hammer Blow slays the vulnerable hound: it is shoved 1 space straight away from her, and its
    // Stun lands on no one ("Defeated characters clear all statuses")
    done = await play("Tess", "Hammer Blow", ["Ash Hound"]);
    assert.deepEqual(done.left, []);
    now = await state("Ash Hound");
    assert.deepEqual(now.at, [6, 2], "from (5,3), away from Tess at (4,4): one diagonal step");
    assert.equal(now.hp, 0, "two critical hits on a vulnerable hound: it is defeated");
    assert.ok(!now.statuses.includes("stunned"), now.statuses.join(", "));
    assert.deepEqual(done.blocked, ["defeated: nothing more lands on it"]);

    // the Cantor's hymn: Wren and Tess each roll their save from the card, fail, and are Vulnerable
    done = await play("Cinder Cantor", "Ember Hymn", ["Wren", "Tess"], { saves: 0.001 });
    assert.deepEqual(done.left, []);
    assert.ok((await state("Wren")).statuses.includes("vulnerable"));
    assert.ok((await state("Tess")).statuses.includes("vulnerable"));

    // the swarm claws Tess
    const before = await state("Tess");
    done = await play("Husk Swarm", "Swarm Claws", ["Tess"]);
    assert.deepEqual(done.left, []);
    assert.ok((await state("Tess")).hp < before.hp);

    // the elite's second turn: its brand marks Wren
    done = await play("Cinder Cantor", "Cinder Brand", ["Wren"]);
    assert.deepEqual(done.left, []);
    assert.deepEqual((await state("Wren")).marks, ["Cinder Brand"]);
    assert.equal(done.round, 2, "every fighter's turns taken: round 2");
  });

  test("round 2: a shove, a stance on its user, saves that succeed, a mark moved to a new target", async () => {
    // Wren's gale shoves the swarm 2 spaces straight away from her
    let done = await play("Wren", "Gale Shove", ["Husk Swarm"]);
    assert.deepEqual(done.left, []);
    assert.deepEqual((await state("Husk Swarm")).at, [7, 5]);

    // the hound is defeated and takes no turn; the hymn again: Tess saves this time, nothing lands
    done = await play("Cinder Cantor", "Ember Hymn", ["Tess"], { saves: 0.999 });
    assert.deepEqual(done.left, []);
    assert.equal(done.pressed.length, 1, "only the save: a success fires no failed-save part");

    // Tess takes her stance: Dodge on herself, ongoing
    done = await play("Tess", "Guard Stance", []);
    assert.deepEqual(done.left, []);
    assert.ok((await state("Tess")).statuses.includes("dodge"));

    // the swarm, back beside Tess, claws at her and misses: its fray is applied from the card, and her stance's Dodge
    // takes it ("Dodge makes you immune to all damage from misses")
    const tessBefore = await state("Tess");
    done = await play("Husk Swarm", "Swarm Claws", ["Tess"], { moveFirst: [5, 5], dice: 0.05 });
    assert.deepEqual(done.left, []);
    assert.equal(done.pressed.length, 1, "the fray's Apply");
    assert.equal((await state("Tess")).hp, tessBefore.hp);

    // the brand on Tess: "only one of each unique mark can be active at a time", Wren's fades
    const tessNow = await state("Tess");
    assert.ok(tessNow.hp > 0, `Tess stands: ${JSON.stringify(tessNow)}`);
    done = await play("Cinder Cantor", "Cinder Brand", ["Tess"]);
    assert.deepEqual(done.left, []);
    assert.deepEqual((await state("Tess")).marks, ["Cinder Brand"]);
    assert.deepEqual((await state("Wren")).marks, []);
    assert.equal(done.round, 3, "two full rounds played");
    assert.deepEqual(open.browser.errors, []);
  });
});
