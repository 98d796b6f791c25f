/**
 * Marks in a shim world (test/browser/foundry-shim.mjs `installWorld`), with the system's real
 * classes (issue 27): an attack with the dialog's Mark option has the mark as a part of its card,
 * placed from the card (its placer choosing which of its marks to keep); the GM refuses a player who may not apply the card's effects or
 * does not own its user
 * (the GM's client is a trust boundary); "Marks end when the character that placed the mark is
 * defeated"; Unstoppable refuses a status put on it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openHarness } from "../support/browser.mjs";

describe("marks in a world", () => {
  let browser;

  before(async () => {
    browser = await openHarness({ as: "gm", templates: false });
  });

  after(async () => {
    await browser?.close();
  });

  test("an attack's mark is placed from its card, its placer choosing which mark to keep; the GM refuses what a message does not say; it ends with its placer's defeat", async () => {
    const result = await browser.page.evaluate(async () => {
      const PLAYER = "playerUser000000";
      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      const { attackTargetOf, initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
      const ana = await Actor.implementation.create({ name: "Ana", type: "character", ownership: { default: 0, [PLAYER]: 3 } });
      const bo = await Actor.implementation.create({ name: "Bo", type: "character" });
      const ogre = await Actor.implementation.create({ name: "Ogre", type: "foe" });
      const wolf = await Actor.implementation.create({ name: "Wolf", type: "foe" });
      const targetOf = actor => attackTargetOf({ uuid: actor.uuid, name: actor.name, img: "", system: actor.system, statuses: [] });
      const marksOn = actor => actor.effects.contents.filter(e => e.getFlag("icon-engine", "mark"))
        .map(e => `${e.getFlag("icon-engine", "mark").mark}/${e.getFlag("icon-engine", "mark").placerName}`);
      // an attack whose dialog names a mark: its card has the mark as a part, applied from the card
      const attack = async (actor, target, mark, keepOld = false) => {
        const message = await TacticalRolls.attack(actor, initialAttackState({ targets: [targetOf(target)], options: { mark } }));
        await CardActions.run(message, { action: "effect", key: 0, part: 0, keepOld }, game.user);
        return message;
      };
      // the GM rolls Ana's Immolate on the ogre, then Bo's Brand on the ogre: one mark from each
      await attack(ana, ogre, "Immolate");
      await attack(bo, ogre, "Brand");
      const first = marksOn(ogre).sort();
      // Immolate on the wolf: the ogre's fades ("only one of each unique mark can be active")
      const message = await attack(ana, wolf, "Immolate");
      const moved = { ogre: marksOn(ogre), wolf: marksOn(wolf) };
      // Bo's Hex on the ogre, Bo keeping the old Brand ("you choose which to keep or discard"): nothing changes; then Hex replacing it
      await attack(bo, ogre, "Hex", true);
      const kept = marksOn(ogre);
      const hexed = await attack(bo, ogre, "Hex");
      const replaced = marksOn(ogre);
      // Undo of that placement: the Hex goes, the Brand it ended comes back
      await CardActions.run(hexed, { action: "undoEffect", key: 0, part: 0 }, game.user);
      const undone = marksOn(ogre);
      // a player asks the GM to place the mark of a card they did not write: refused
      const player = game.users.get(PLAYER);
      const refusals = [];
      try { await CardActions.run(message, { action: "effect", key: 0, part: 0 }, player); } catch (error) { refusals.push(error.message); }
      // ... nor of one they wrote for a character they do not own
      const { cardFlag, cardPart } = await import("../support/cards.mjs");
      const forged = await ChatMessage.implementation.create({ author: PLAYER, content: "",
        flags: { "icon-engine": { card: cardFlag(bo, [wolf], { kind: "card", name: "Hex", parts: [cardPart({ mark: "Hex" })] }) } } });
      try { await CardActions.run(forged, { action: "effect", key: 0, part: 0 }, player); } catch (error) { refusals.push(error.message); }
      await game.settings.set("icon-engine", "playersApplyDamage", true);
      try { await CardActions.run(forged, { action: "effect", key: 0, part: 0 }, player); } catch (error) { refusals.push(error.message); }
      await game.settings.set("icon-engine", "playersApplyDamage", false);
      // Ana is defeated: her marks end, Bo's stay
      await ana.toggleStatusEffect("defeated", { active: true });
      const deadline = Date.now() + 3000;
      while (marksOn(wolf).length && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      const afterDefeat = { ogre: marksOn(ogre), wolf: marksOn(wolf) };
      // "Unstoppable: Immune to all statuses"
      await wolf.toggleStatusEffect("unstoppable", { active: true });
      ui.notifications.queue.length = 0;
      await wolf.toggleStatusEffect("dazed", { active: true });
      const unstoppable = { dazed: wolf.statuses.has("dazed"), notices: ui.notifications.queue.map(n => n.message) };
      for (const doc of [ana, bo, ogre, wolf, forged, ...game.messages.contents]) await doc.delete();
      return { first, moved, kept, replaced, undone, refusals, afterDefeat, unstoppable };
    });
    assert.deepEqual(result.first, ["Brand/Bo", "Immolate/Ana"]);
    assert.deepEqual(result.moved, { ogre: ["Brand/Bo"], wolf: ["Immolate/Ana"] });
    assert.deepEqual(result.kept, ["Brand/Bo"], "Bo kept the Brand");
    assert.deepEqual(result.replaced, ["Hex/Bo"], "then the Hex replaced it");
    assert.deepEqual(result.undone, ["Brand/Bo"], "the Undo of the Hex gives the Brand back");
    assert.equal(result.refusals.length, 3);
    for (const refusal of result.refusals.slice(0, 2)) assert.equal(refusal, "Only the GM or Wolf's owner may apply this effect to it (world setting: players apply damage to others' targets).");
    assert.equal(result.refusals[2], "Nothing of this effect can land on Wolf.", "the card's author may apply it, but Bo is not theirs to place a mark for");
    assert.deepEqual(result.afterDefeat, { ogre: ["Brand/Bo"], wolf: [] });
    assert.equal(result.unstoppable.dazed, false);
    assert.match(result.unstoppable.notices.join(" "), /Unstoppable/);
    assert.deepEqual(browser.errors, []);
  });
});
