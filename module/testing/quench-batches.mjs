/**
 * Integration tests for a real world, run by the Quench module (https://github.com/Ethaks/FVTT-Quench):
 * the system imports this file only when Quench is active (module/icon-engine.mjs) and registers
 * the batch at `quenchReady`. Every test creates what it needs, named "ICON test …", and deletes
 * it again, so a GM can run the batch in a live world. The browser harness runs the same batch
 * against test/browser/foundry-shim.mjs (test/browser/quench.test.mjs); tests that need a part
 * of Foundry the shim does not have (compendium packs) skip themselves there, saying why.
 */
import { SYSTEM_ID } from "../config.mjs";
import { usesChatCommandRegistry, usesEffectsV2, usesRegionAreas } from "../compat/generation.mjs";
import { TURN_END_EXPIRY } from "../data/effect-duration.mjs";

/**
 * The parts of Quench's batch context (mocha's BDD functions and chai's `assert`) used here.
 * @typedef {object} BatchContext
 * @property {(title: string, fn: () => void) => void} describe
 * @property {(title: string, fn: (this: TestThis) => Promise<void>) => void} it
 * @property {(fn: () => void) => void} before
 * @property {(fn: () => void) => void} after
 * @property {(fn: () => void) => void} beforeEach
 * @property {(fn: () => Promise<void>) => void} afterEach
 * @property {ChaiAssert} assert
 */

/**
 * @typedef {object} TestThis
 * @property {() => never} skip  Mocha's: ends the test as pending.
 */

/**
 * @typedef {object} ChaiAssert
 * @property {(actual: unknown, expected: unknown, message?: string) => void} equal
 * @property {(actual: unknown, expected: unknown, message?: string) => void} deepEqual
 * @property {(value: unknown, message?: string) => void} ok
 * @property {(value: unknown, message?: string) => void} notOk
 * @property {(haystack: string | unknown[], needle: unknown, message?: string) => void} include
 * @property {(actual: string, pattern: RegExp, message?: string) => void} match
 */

/**
 * @typedef {object} Quench
 * @property {(key: string, fn: (context: BatchContext) => void, options?: {displayName?: string, preSelected?: boolean}) => void} registerBatch
 */

/** The batch's key in Quench. */
export const BATCH = `${SYSTEM_ID}.world`;

/** Name prefix of everything the batch creates. */
const PREFIX = "ICON test";

/**
 * Register the batch (called at `quenchReady`).
 * @param {Quench} quench
 */
export function registerQuenchBatches(quench) {
  quench.registerBatch(BATCH, worldBatch, { displayName: "ICON Engine: a live world", preSelected: true });
}

/**
 * Wait until `test` returns a truthy value (renders and chat hooks are asynchronous), or fail.
 * @template T
 * @param {() => T | null | undefined | false} test
 * @param {string} what  Named in the error.
 * @param {number} [timeout]
 * @returns {Promise<T>}
 */
async function until(test, what, timeout = 5000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = test();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/**
 * A line as the chat input hands it to `ChatLog#processMessage`: v13's textarea, its text; v14's
 * ProseMirror editor, its document's HTML (a paragraph, the text escaped).
 * @param {string} text
 * @returns {string}
 */
function chatInput(text) {
  if (!usesChatCommandRegistry()) return text;
  const paragraph = document.createElement("p");
  paragraph.textContent = text;
  return paragraph.outerHTML;
}

/**
 * The ICON numbers the batch reads off an actor (its `system` is typed per actor type).
 * @typedef {{hp: {value: number, max: number}, vigor: {value: number, max: number}, defense: number, vit: number,
 *   armor: number, class?: string}} ActorStats
 */

/**
 * @param {Actor.Implementation} actor
 * @returns {ActorStats}
 */
const stats = actor => /** @type {ActorStats} */ (/** @type {unknown} */ (actor.system));

/**
 * The world's chat messages (foundry-vtt-types types the stored collection's entries loosely).
 * @returns {ChatMessage.Implementation[]}
 */
const chatMessages = () => /** @type {ChatMessage.Implementation[]} */ (/** @type {unknown} */ (game.messages?.contents ?? []));

/**
 * The damage applied to target `key` of an attack message, if any.
 * @param {ChatMessage.Implementation} message
 * @param {number} key
 */
const damageApplied = (message, key) => message.getFlag(SYSTEM_ID, "damageApplied")?.[key];

/**
 * The rendered chat message element of a message (the chat log's copy).
 * @param {ChatMessage.Implementation} message
 * @returns {HTMLElement | null}
 */
function messageElement(message) {
  return document.querySelector(`.chat-message[data-message-id="${message.id}"]`);
}

/**
 * A button of a message's card (`data-card-action`), once the chat log shows it.
 * @param {ChatMessage.Implementation} message
 * @param {string} action
 * @param {string} what  Named in the timeout.
 * @returns {Promise<HTMLButtonElement>}
 */
function cardButton(message, action, what) {
  return until(() => /** @type {HTMLButtonElement | null} */ (messageElement(message)?.querySelector(`[data-card-action="${action}"]`)), what);
}

/**
 * An ICON attack of `attacker` on `target`, as the attack dialog posts it.
 * @param {Actor.Implementation} attacker
 * @param {Actor.Implementation} target
 * @returns {Promise<ChatMessage.Implementation>}
 */
async function attackMessage(attacker, target) {
  const { default: TacticalRolls } = await import("../dice/tactical-rolls.mjs");
  const { attackTargetOf, initialAttackState } = await import("../dice/tactical-requests.mjs");
  const state = initialAttackState({ targets: [attackTargetOf({ uuid: target.uuid, name: target.name ?? "", img: target.img ?? "",
    system: stats(target), statuses: [] })] });
  return /** @type {ChatMessage.Implementation} */ (await TacticalRolls.attack(attacker, state));
}

/**
 * The batch: documents and sheets, every chat card, the combat tracker, the pack import dialog,
 * the rules reference and its links.
 * @param {BatchContext} context
 */
export function worldBatch({ describe, it, before, after, beforeEach, afterEach, assert }) {
  // Foundry reports every deprecated API through logCompatibilityWarning: record them all.
  /** @type {string[]} */
  const deprecations = [];
  /** @type {typeof foundry.utils.logCompatibilityWarning | null} */
  let logCompatibilityWarning = null;
  before(() => {
    logCompatibilityWarning = foundry.utils.logCompatibilityWarning;
    const original = logCompatibilityWarning;
    foundry.utils.logCompatibilityWarning = (message, options) => {
      deprecations.push(String(message));
      return original(message, options);
    };
  });
  after(() => {
    if (logCompatibilityWarning) foundry.utils.logCompatibilityWarning = logCompatibilityWarning;
  });

  /** Documents to delete after each test (newest first). @type {{delete(): Promise<unknown>, id: string | null, collection?: unknown}[]} */
  const created = [];
  /**
   * @template {{delete(): Promise<unknown>, id: string | null}} D
   * @param {D | undefined | null} doc
   * @returns {D}
   */
  const track = doc => {
    if (!doc) throw new Error("nothing was created");
    created.push(doc);
    return doc;
  };
  /** Messages posted during a test are deleted with it. */
  let messagesBefore = new Set();
  /** The dice generator a test replaced, restored after it. @type {(() => number) | null} */
  let randomUniform = null;

  /** Ids of the messages that were there before the test. */
  const messageIds = () => new Set(chatMessages().map(m => m.id ?? ""));
  beforeEach(() => {
    messagesBefore = messageIds();
  });
  /** A message the test posted, once it is there. */
  const newMessage = (/** @type {(m: ChatMessage) => unknown} */ test = () => true) =>
    chatMessages().find(m => !messagesBefore.has(m.id ?? "") && test(m));

  /** Make every die roll its highest face until the test ends. */
  const rollHigh = () => {
    randomUniform ??= CONFIG.Dice.randomUniform;
    CONFIG.Dice.randomUniform = () => 0.999999;
  };

  afterEach(async () => {
    if (randomUniform) CONFIG.Dice.randomUniform = randomUniform;
    randomUniform = null;
    for (const app of [...foundry.applications.instances.values()]) {
      const doc = /** @type {{document?: {name?: string | null}}} */ (/** @type {unknown} */ (app)).document;
      if (doc?.name?.startsWith(PREFIX) || app instanceof foundry.applications.apps.FilePicker) await app.close();
    }
    for (const doc of created.splice(0).reverse()) {
      try {
        await doc.delete();
      } catch {
        // already gone with its parent
      }
    }
    const posted = chatMessages().filter(m => !messagesBefore.has(m.id ?? ""));
    for (const message of posted) await message.delete();
  });

  /**
   * @param {"character"|"foe"|"hero"} type
   * @param {object} [system]
   * @returns {Promise<Actor.Implementation>}
   */
  const actorOf = async (type, system = {}) => {
    const data = { name: `${PREFIX} ${type}`, type, system };
    return track(await Actor.implementation.create(/** @type {Actor.CreateData} */ (data)));
  };
  /** A started combat of a new character and a new foe, and their combatants' ids. */
  const startedCombat = async () => {
    const pc = await actorOf("character");
    const foe = await actorOf("foe");
    const combat = /** @type {import("../documents/icon-combat.mjs").default} */ (track(
      /** @type {Combat | undefined} */ (await Combat.implementation.create({}))));
    await combat.createEmbeddedDocuments("Combatant", [{ actorId: pc.id }, { actorId: foe.id }]);
    const [pcId, foeId] = [pc, foe].map(a => combat.combatants.find(c => c.actor?.id === a.id)?.id ?? "");
    await combat.startCombat();
    return { pc, foe, combat, pcId, foeId };
  };

  /**
   * Open a document's sheet and wait for it.
   * @param {Actor | Item} doc
   * @returns {Promise<HTMLElement>}
   */
  const openSheet = async doc => {
    const sheet = /** @type {foundry.applications.api.ApplicationV2} */ (/** @type {unknown} */ (doc.sheet));
    await sheet.render({ force: true });
    return until(() => sheet.rendered && sheet.element, `${doc.name}'s sheet`);
  };

  describe("actors, items and their sheets", () => {
    it("creates every actor and item type and opens its sheet", async () => {
      for (const type of /** @type {const} */ (["character", "foe", "hero"])) {
        const actor = await actorOf(type);
        const element = await openSheet(actor);
        const name = /** @type {HTMLInputElement | null} */ (element.querySelector('input[name="name"]'));
        assert.equal(name?.value, `${PREFIX} ${type}`, `${type}: the name field`);
        assert.ok(element.querySelector('input[name="system.hp.value"]'), `${type}: an HP field`);
      }
      for (const type of ["ability", "relic", "trait", "class", "job", "foeTemplate"]) {
        const data = { name: `${PREFIX} ${type}`, type };
        const item = track(/** @type {Item | undefined} */ (await Item.implementation.create(/** @type {Item.CreateData} */ (data))));
        const element = await openSheet(item);
        assert.ok(element.querySelector('input[name="name"]'), `${type}: the sheet shows its name field`);
      }
    });

    it("gives every actor type the manifest's hp and vigor token bars", async () => {
      for (const type of /** @type {const} */ (["character", "foe", "hero"])) {
        const actor = await actorOf(type);
        const system = stats(actor);
        assert.ok(Number.isFinite(system.hp?.value) && Number.isFinite(system.hp?.max), `${type}: hp.value and hp.max`);
        assert.ok(Number.isFinite(system.vigor?.value) && Number.isFinite(system.vigor?.max), `${type}: vigor.value and vigor.max`);
      }
    });

    it("opens the file picker from the portrait", async () => {
      const element = await openSheet(await actorOf("character"));
      const portrait = /** @type {HTMLElement} */ (element.querySelector("img.profile"));
      assert.equal(portrait.dataset.action, "editImage");
      portrait.click();
      await until(() => [...foundry.applications.instances.values()].some(app => app instanceof foundry.applications.apps.FilePicker),
        "the file picker");
    });

    it("fills the class preset when the class changes on the sheet", async () => {
      const actor = await actorOf("character");
      const element = await openSheet(actor);
      const select = /** @type {HTMLSelectElement} */ (element.querySelector('select[name="system.class"]'));
      select.value = "stalwart";
      select.dispatchEvent(new Event("change", { bubbles: true }));
      const system = await until(() => stats(actor).class === "stalwart" && stats(actor), "the class to be saved");
      // Stalwart: VIT 10, Armor 2, Defense 6; max HP 4 × VIT, HP starts full (its job: one a pack provides, or none).
      assert.deepEqual([system.vit, system.armor, system.defense, system.hp.max, system.hp.value], [10, 2, 6, 40, 40]);
    });
  });

  describe("chat cards", () => {
    it("an ICON attack: the card, Apply damage and Undo from its buttons", async () => {
      rollHigh();
      const attacker = await actorOf("character");
      const target = await actorOf("foe");
      const before = stats(target).hp.value;
      const message = await attackMessage(attacker, target);
      const apply = await cardButton(message, "damage", "the Apply damage button");
      apply.click();
      const applied = await until(() => damageApplied(message, 0), "damage to be applied");
      const hurt = stats(target).hp.value;
      assert.ok(hurt < before, `all-max dice hit and hurt (${before} → ${hurt})`);
      assert.equal(hurt, applied.after.hp, "the actor holds what the card says");
      const undo = await cardButton(message, "undoDamage", "the Undo button");
      undo.click();
      await until(() => !damageApplied(message, 0), "the undo");
      assert.equal(stats(target).hp.value, before, "Undo restores the HP");
    });

    it("Slashed from the sheet: 4 damage, with Undo and Apply again on its card", async () => {
      const actor = await actorOf("character");
      await actor.toggleStatusEffect("slashed", { active: true });
      const element = await openSheet(actor);
      const button = await until(() => /** @type {HTMLButtonElement | null} */ (element.querySelector('[data-action="takeSlashed"]')), "the Slashed button");
      const before = stats(actor).hp.value;
      button.click();
      const message = await until(() => newMessage(m => !!m.getFlag(SYSTEM_ID, "damageApplied")), "the Slashed card");
      assert.equal(stats(actor).hp.value, before - 4, "Slashed: take 4 damage");
      const undo = await cardButton(message, "undoDamage", "the Undo button");
      undo.click();
      await until(() => !damageApplied(message, 0), "the undo");
      assert.equal(stats(actor).hp.value, before, "Undo restores the HP");
      const apply = await cardButton(message, "damage", "the Apply button after the Undo");
      apply.click();
      await until(() => damageApplied(message, 0), "the damage applied again");
      assert.equal(stats(actor).hp.value, before - 4);
    });

    it("Slashed no more than once a turn in a combat", async function () {
      // A world without Foundry's combat tracker cannot run a combat.
      if (!(ui.combat instanceof foundry.applications.sidebar.tabs.CombatTracker)) this.skip();
      const actor = await actorOf("character");
      const foe = await actorOf("foe");
      await actor.toggleStatusEffect("slashed", { active: true });
      const combat = /** @type {import("../documents/icon-combat.mjs").default} */ (track(
        /** @type {Combat | undefined} */ (await Combat.implementation.create({ active: true }))));
      await combat.createEmbeddedDocuments("Combatant", [{ actorId: actor.id }, { actorId: foe.id }]);
      const [pcId, foeId] = [actor, foe].map(a => combat.combatants.find(c => c.actor?.id === a.id)?.id ?? "");
      await combat.startCombat();
      await combat.iconDispatch({ type: "beginTurn", id: pcId });
      const { default: TacticalRolls } = await import("../dice/tactical-rolls.mjs");
      const before = stats(actor).hp.value;
      await TacticalRolls.slashed(actor);
      assert.equal(await TacticalRolls.slashed(actor), null, "the second Slashed of the turn is refused");
      assert.equal(stats(actor).hp.value, before - 4);
      await combat.iconDispatch({ type: "endTurn" });
      await combat.iconDispatch({ type: "beginTurn", id: foeId });
      await until(() => !actor.getFlag(SYSTEM_ID, "slashedThisTurn"), "the next turn to free Slashed");
      await TacticalRolls.slashed(actor);
      assert.equal(stats(actor).hp.value, before - 8, "a new turn, a new Slashed");
    });

    it("Counter: the attacker's damage card has Undo", async () => {
      rollHigh();
      const attacker = await actorOf("character");
      const target = await actorOf("foe");
      await target.toggleStatusEffect("counter", { active: true });
      const message = await attackMessage(attacker, target);
      const apply = await cardButton(message, "damage", "the Apply damage button");
      apply.click();
      const counter = await cardButton(message, "counter", "the Counter button");
      const before = stats(attacker).hp.value;
      counter.click();
      const card = await until(() => newMessage(m => m.id !== message.id && !!m.getFlag(SYSTEM_ID, "damageApplied")), "the Counter card");
      assert.equal(stats(attacker).hp.value, before - 2, "Counter: 2 damage back");
      const undo = await cardButton(card, "undoDamage", "the Counter card's Undo");
      undo.click();
      await until(() => !damageApplied(card, 0), "the undo");
      assert.equal(stats(attacker).hp.value, before, "Undo restores the attacker");
    });

    it("a save", async () => {
      rollHigh();
      const actor = await actorOf("character");
      const { default: TacticalRolls } = await import("../dice/tactical-rolls.mjs");
      const message = /** @type {ChatMessage.Implementation} */ (await TacticalRolls.save(actor));
      const element = await until(() => messageElement(message), "the save card");
      const outcome = /** @type {{outcome?: {success?: boolean}}} */ (/** @type {unknown} */ (message.rolls[0])).outcome;
      assert.equal(outcome?.success, true, "a natural 20 saves");
      assert.ok(element.querySelector(".icon-tactical"), "the tactical card");
    });

    it("a narrative action roll and a fortune roll", async () => {
      const actor = await actorOf("character", { actions: { smash: 2 } });
      const { default: IconRoll } = await import("../dice/icon-roll.mjs");
      const { actionRequest, defaultInputs, poolOf, DEFAULT_POSITION } = await import("../applications/narrative/action-roll.mjs");
      const { rollFortune } = await import("../applications/narrative/fortune.mjs");
      const request = actionRequest(/** @type {Actor.SystemOfType<"character">} */ (actor.system), "smash", defaultInputs(), DEFAULT_POSITION);
      const roll = await IconRoll.fromRequest(request);
      await roll.evaluate();
      const action = /** @type {ChatMessage.Implementation} */ (await roll.toMessage({ speaker: ChatMessage.implementation.getSpeaker({ actor }) }));
      assert.equal(poolOf(request), 2, "a rating of 2 is a pool of 2");
      assert.equal(roll.dice.reduce((n, d) => n + d.results.length, 0), 2, "and Foundry rolled 2 dice");
      await until(() => messageElement(action), "the action card");
      // a rating with a boon, as `/fortune 2 +1` asks: 2 dots + 1 die
      const fortune = /** @type {ChatMessage.Implementation} */ (await rollFortune({ rating: 2, boons: 1 }, { actor }));
      assert.equal(fortune.rolls[0]?.dice[0]?.results.length, 3);
      await until(() => messageElement(fortune), "the fortune card");
    });

    it("/odds, typed in the chat, posts the exact distribution", async () => {
      const chat = /** @type {import("../types/chat-log.js").ChatLogMessages | null} */ (/** @type {unknown} */ (ui.chat));
      if (!chat) throw new Error("no chat log");
      const posted = await chat.processMessage(chatInput("/odds 2d6"));
      assert.equal(posted, undefined, "the system takes /odds: Foundry posts nothing of its own");
      const message = await until(() => newMessage(m => m.getFlag(SYSTEM_ID, "odds")), "the odds card");
      assert.equal(message.getFlag(SYSTEM_ID, "odds")?.formula, "2d6");
      const element = await until(() => messageElement(message), "the odds card's HTML");
      const seven = element.querySelector('.odds-bar[data-from="7"]');
      assert.include(seven?.getAttribute("data-tooltip") ?? "", "1/6", "P(7) = 1/6, exactly");
    });

    it("every ruleset's roll card", async () => {
      const { default: IconRoll } = await import("../dice/icon-roll.mjs");
      const requests = [
        { kind: "icons.test", ability: 6, difficulty: 5, bonus: 1 },
        { kind: "tribute.test", rank: 1, focus: 3, burden: 2, die: 6, opposition: { rank: 0, focus: 1 }, effectRank: 2 },
        { kind: "narrator.skill", skill: 12, difficulty: 22, use: "attack", baseDamage: 12, ranks: 3 },
        { kind: "mns.action", target: 28 },
        { kind: "mns.save", score: 62, dice: "d100" },
        { kind: "mns.dice", die: "d1000" }
      ];
      for (const request of requests) {
        const roll = await IconRoll.fromRequest(/** @type {import("../types/core.js").CoreRequest} */ (request));
        await roll.evaluate();
        const message = /** @type {ChatMessage.Implementation} */ (await roll.toMessage({}));
        assert.ok(roll.outcome, `${request.kind}: the core decided`);
        assert.equal(roll.total, roll.outcome?.total, `${request.kind}: the roll's total is the core's`);
        await until(() => messageElement(message)?.querySelector(".message-content *"), `${request.kind}'s card`);
      }
    });
  });

  describe("the combat tracker", () => {
    it("runs a round with a slow turn, then undoes the last step", async function () {
      // A world without Foundry's combat tracker cannot run a combat.
      if (!(ui.combat instanceof foundry.applications.sidebar.tabs.CombatTracker)) this.skip();
      const { pc, combat, pcId, foeId } = await startedCombat();
      assert.equal(combat.iconState?.round, 1);
      // The party acts first; the PC goes slow, so the foe takes the regular turn, then the slow one.
      await combat.iconDispatch({ type: "goSlow", id: pcId });
      await combat.iconDispatch({ type: "beginTurn", id: foeId });
      await combat.iconDispatch({ type: "endTurn" });
      await combat.iconDispatch({ type: "beginTurn", id: pcId });
      assert.deepEqual(combat.iconState?.current, { id: pcId, slow: true });
      await combat.iconDispatch({ type: "endTurn" });
      assert.equal(combat.iconState?.round, 2, "nobody has turns left: round 2");
      assert.equal(combat.round, 2, "Foundry's round follows");
      await combat.iconDispatch({ type: "undo" });
      assert.equal(combat.iconState?.round, 1);
      assert.deepEqual(combat.iconState?.current, { id: pcId, slow: true }, "undo reopens the slow turn");
    });
  });

  describe("abilities and areas", () => {
    it("uses an ability on itself: its card names its cost and its effect, which its control applies once, with Undo", async () => {
      const actor = await actorOf("character");
      const [item] = /** @type {Item.Implementation[]} */ (await actor.createEmbeddedDocuments("Item", [/** @type {Item.CreateData} */ ({
        name: `${PREFIX} veil`, type: "ability", system: { actions: "2", tags: ["stance"], range: { kind: "self", value: 0 },
          effects: [{ trigger: "use", status: "dazed" }] } })]));
      const outcome = await /** @type {import("../documents/icon-item.mjs").default} */ (/** @type {unknown} */ (item)).use({ placeArea: false });
      assert.equal(outcome?.kind, "card");
      const message = await until(() => newMessage(m => !!m.getFlag(SYSTEM_ID, "card")), "the ability's card");
      const card = await until(() => messageElement(message)?.querySelector(".card-target"), "the card in the chat log");
      const text = messageElement(message)?.textContent ?? "";
      assert.match(text, /2 actions/);
      assert.match(text, /Dazed \(save ends\)/);
      assert.equal(card.querySelector(".name")?.textContent, actor.name, "a Self ability targets its user");
      const apply = await cardButton(message, "effect", "the effect's control");
      apply.click();
      await until(() => actor.statuses.has("dazed") && messageElement(message)?.querySelector(".card-part.is-applied"), "the status from the card");
      const undo = await cardButton(message, "undoEffect", "the effect's Undo");
      undo.click();
      await until(() => !actor.statuses.has("dazed"), "the Undo");
    });

    it(`places an area as ${usesRegionAreas() ? "a Scene Region" : "a measured template"} of its ICON shape and targets the tokens it covers`, async () => {
      const viewed = canvas?.scene ?? null;
      const actor = await actorOf("character");
      const foe = await actorOf("foe");
      const scene = track(/** @type {Scene | undefined} */ (await Scene.implementation.create(/** @type {Scene.CreateData} */ ({
        name: `${PREFIX} scene`, width: 1000, height: 800, grid: { size: 100, distance: 1, type: 1 },
        tokens: [{ name: "user", actorId: actor.id, actorLink: true, x: 100, y: 100 }, { name: "foe", actorId: foe.id, actorLink: true, x: 300, y: 100 }]
      }))));
      try {
        await scene.view();
        await until(() => canvas?.ready && canvas.scene?.id === scene.id && canvas.grid, "the scene on the canvas");
        const [item] = /** @type {Item.Implementation[]} */ (await actor.createEmbeddedDocuments("Item", [/** @type {Item.CreateData} */ ({
          name: `${PREFIX} cross`, type: "ability", system: { area: { shape: "cross", size: 1 } } })]));
        const size = /** @type {NonNullable<typeof canvas.grid>} */ (canvas.grid).size;
        const placed = await iconEngine.api.placeArea(item, { at: { x: 3.5 * size, y: 2.5 * size } });
        if (!placed) throw new Error("the area was not placed");
        assert.deepEqual(placed.tokens.map(t => t.name), ["foe"], "the cross centred below the foe covers it, not the user");
        assert.deepEqual([...(game.user?.targets ?? [])].map(t => t.name), ["foe"]);
        if (usesRegionAreas()) {
          // v14: a region of one square per space, which Foundry itself finds the foe inside
          const region = /** @type {RegionDocument.Implementation} */ (/** @type {unknown} */ (placed.template));
          assert.equal(region.documentName, "Region");
          assert.equal(region.shapes.length, 5, "a cross 1 is 5 spaces");
          assert.deepEqual([...region.tokens].map(t => t.name), ["foe"], "RegionDocument#tokens agrees");
        } else {
          const object = /** @type {{_getGridHighlightPositions(): {x: number, y: number}[]} | null} */ (/** @type {unknown} */ (placed.template.object));
          if (object) assert.equal(object._getGridHighlightPositions().length, 5, "a cross 1 highlights 5 spaces");
        }
      } finally {
        for (const token of game.user?.targets ?? []) token.setTarget(false, { releaseOthers: false });
        if (viewed) await viewed.view();
      }
    });
  });

  describe("durations and terrain", () => {
    it(`a status to the end of its next turn is written ${usesEffectsV2() ? "as v14's duration with the system's expiry event" : "as v13's flag"}, and ends at its bearer's turn end`, async () => {
      const { pc, combat, pcId, foeId } = await startedCombat();
      const [item] = /** @type {Item.Implementation[]} */ (await pc.createEmbeddedDocuments("Item", [/** @type {Item.CreateData} */ ({
        name: `${PREFIX} daze`, type: "ability", system: { actions: "1", range: { kind: "self", value: 0 },
          effects: [{ trigger: "use", status: "dazed", duration: "turn" }] } })]));
      await /** @type {import("../documents/icon-item.mjs").default} */ (/** @type {unknown} */ (item)).use({ placeArea: false });
      const message = await until(() => newMessage(m => !!m.getFlag(SYSTEM_ID, "card")), "the ability's card");
      (await cardButton(message, "effect", "the effect's control")).click();
      await until(() => pc.statuses.has("dazed"), "the status from the card");
      const effect = pc.effects.find(e => e.statuses.has("dazed"));
      const shape = /** @type {{duration?: {expiry?: unknown}, flags?: Record<string, {endsAtTurnEnd?: unknown} | undefined>}} */ (effect?.toObject() ?? {});
      if (usesEffectsV2()) assert.equal(shape.duration?.expiry, TURN_END_EXPIRY, "v14: the duration's expiry is the system's event");
      else assert.equal(shape.flags?.[SYSTEM_ID]?.endsAtTurnEnd, true, "v13: the flag");
      // the PC goes slow, so the foe's turn comes first and ends: the status stays; the bearer's
      // turn ends: it is gone
      await combat.iconDispatch({ type: "goSlow", id: pcId });
      await combat.iconDispatch({ type: "beginTurn", id: foeId });
      await combat.iconDispatch({ type: "endTurn" });
      assert.ok(pc.statuses.has("dazed"), "another's turn end does not end it");
      await combat.iconDispatch({ type: "beginTurn", id: pcId });
      await combat.iconDispatch({ type: "endTurn" });
      await until(() => !pc.statuses.has("dazed"), "the status ended at its bearer's turn end");
    });

    it("dangerous terrain painted as a region hurts a token moved through it: 2 piercing, once", async () => {
      const viewed = canvas?.scene ?? null;
      const pc = await actorOf("character");
      const health = () => {
        const system = /** @type {{hp?: {value?: number}, vigor?: {value?: number}}} */ (pc.system);
        return Number(system.hp?.value ?? 0) + Number(system.vigor?.value ?? 0);
      };
      // a region with a behavior of the system's own subtype (types 13.345 know no such data)
      const scene = track(/** @type {Scene | undefined} */ (await Scene.implementation.create(/** @type {Scene.CreateData} */ (/** @type {unknown} */ ({
        name: `${PREFIX} terrain`, width: 1000, height: 600, grid: { size: 100, distance: 1, type: 1 },
        tokens: [{ name: "walker", actorId: pc.id, actorLink: true, x: 100, y: 100 }],
        regions: [{ name: `${PREFIX} spikes`, shapes: [{ type: "rectangle", x: 300, y: 0, width: 200, height: 400 }],
          behaviors: [{ name: `${PREFIX} spikes`, type: `${SYSTEM_ID}.dangerousTerrain` }] }]
      })))));
      try {
        await scene.view();
        await until(() => canvas?.ready && canvas.scene?.id === scene.id, "the scene on the canvas");
        const before = health();
        const token = scene.tokens.getName("walker");
        await token?.update({ x: 700, y: 100 });
        await until(() => health() === before - 2, "2 piercing from the region");
        await new Promise(resolve => setTimeout(resolve, 500));
        assert.equal(health(), before - 2, "once for the whole move");
      } finally {
        if (viewed) await viewed.view();
      }
    });
  });

  describe("rules and journal content", () => {
    it("imports a pack through the import dialog", async () => {
      const { default: PackImportDialog } = await import("../applications/pack-import-dialog.mjs");
      // The system's rules reference, exported as a journal log; a small made-up pack where the
      // compendium is missing (the browser harness) or this world already holds its entries.
      const pack = game.packs?.get(`${SYSTEM_ID}.rules-reference`);
      const shipped = pack ? /** @type {JournalEntry[]} */ (/** @type {unknown} */ (await pack.getDocuments())).map(e => e.toObject()) : [];
      const fromPack = shipped.length > 0 && !shipped.some(e => game.journal?.has(String(e._id)));
      const entries = fromPack ? shipped : [{ _id: foundry.utils.randomID(), name: `${PREFIX} import`, pages: [{ _id: foundry.utils.randomID(),
        name: "Page", type: "text", text: { format: 1, content: "<p>Imported.</p><script>alert(1)</script>" } }] }];
      const dialog = new PackImportDialog();
      await dialog.render({ force: true });
      const input = /** @type {HTMLInputElement} */ (dialog.element.querySelector("input[name=file]"));
      const files = new DataTransfer();
      files.items.add(new File([entries.map(e => JSON.stringify(e)).join("\n")], "rules-reference.db"));
      input.files = files.files;
      input.dispatchEvent(new Event("change"));
      const button = await until(() => /** @type {HTMLButtonElement | null} */ (dialog.element?.querySelector('[data-action="import"]:not([disabled])')),
        "the read report");
      button.click();
      for (const entry of entries) {
        const imported = track(await until(() => game.journal?.get(String(entry._id)), `the imported entry ${entry.name}`));
        assert.equal(imported.name, entry.name);
        assert.equal(imported.pages.size, /** @type {unknown[]} */ (entry.pages).length, `${entry.name}: every page`);
        for (const page of imported.pages) {
          const html = /** @type {{text?: {content?: string | null}}} */ (page).text?.content ?? "";
          assert.notOk(/<script|\son[a-z]+=/i.test(html), `${page.name}: script-capable HTML is stripped on import`);
        }
      }
    });

    it("opens the rules reference and shows its glossary terms", async function () {
      const pack = game.packs?.get(`${SYSTEM_ID}.rules-reference`);
      if (!pack) this.skip(); // a world without the system's compendium (the browser harness)
      const entries = /** @type {JournalEntry[]} */ (/** @type {unknown} */ (await pack?.getDocuments()));
      assert.ok(entries.length, "the reference has entries");
      const page = entries[0].pages.contents.find(p => p.type === "text");
      const TextEditor = foundry.applications.ux.TextEditor.implementation;
      const html = await TextEditor.enrichHTML(page?.text?.content ?? "", { relativeTo: page });
      assert.match(html, /class="icon-term"/, "glossary terms become tooltips");
    });

    it("follows an @Icon roll link", async () => {
      const actor = await actorOf("character");
      const TextEditor = foundry.applications.ux.TextEditor.implementation;
      const html = await TextEditor.enrichHTML("<p>@Icon[save]{Save now}</p>", { relativeTo: actor });
      const host = document.createElement("div");
      host.innerHTML = html;
      document.body.append(host);
      try {
        const link = /** @type {HTMLAnchorElement} */ (host.querySelector("a.icon-roll-link"));
        assert.equal(link?.textContent?.trim(), "Save now");
        link.click();
        const message = await until(() => newMessage(), "the save message");
        assert.equal(/** @type {{options: {request?: {kind?: string}}}} */ (/** @type {unknown} */ (message.rolls[0])).options.request?.kind,
          "icon.save");
      } finally {
        host.remove();
      }
    });
  });

  describe("Foundry's deprecations", () => {
    it("nothing the batch ran logged a compatibility (deprecation) warning", async () => {
      assert.deepEqual(deprecations, []);
    });
  });
}
