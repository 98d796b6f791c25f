/**
 * Issue 41: a class never picks a job whose content is missing. In a shim world booted as Foundry
 * boots it, whose only job item is the Wright's Geomancer, a character's class is picked on its
 * sheet (the select, as a user changes it): the sheet offers only the jobs that exist, picks one of
 * them, and says plainly when a class has none, instead of naming a job no pack provides ("No job
 * item with the key enochian").
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { UNTIL, openHarness } from "../support/browser.mjs";

describe("issue 41: the jobs a class offers are the ones that exist", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {import("playwright-core").Page} */
  let page;

  before(async () => {
    browser = await openHarness({ as: "gm", scripts: [UNTIL] });
    page = browser.page;
    await page.evaluate(async () => {
      const quake = await Item.implementation.create({ name: "Quake", type: "ability", system: { actions: "1" } });
      await Item.implementation.create({ name: "Geomancer (our pack)", type: "job", system: { key: "geomancer", class: "wright", grants: [quake.uuid] } });
      const actor = await Actor.implementation.create({ name: "Wren", type: "character" });
      await actor.sheet.render({ force: true });
      globalThis.t = { actor, until };
    });
  });

  after(async () => {
    await browser?.close();
  });

  /** Pick a class in the sheet's select as a user does, and wait for the actor to take it. */
  const pickClass = className => page.evaluate(async className => {
    const { actor, until } = globalThis.t;
    ui.notifications.queue.length = 0;
    const select = actor.sheet.element.querySelector('select[name="system.class"]');
    select.value = className;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await until(() => actor.system.class === className, `the class ${className}`);
    await new Promise(resolve => setTimeout(resolve, 100));
    await actor.sheet.render();
    const sheet = actor.sheet.element;
    return {
      job: actor.system.job,
      offered: [...sheet.querySelectorAll('select[name="system.job"] option')].map(o => [o.value, o.textContent.trim()]),
      hint: sheet.querySelector(".no-jobs")?.textContent.trim() ?? null,
      items: actor.items.map(i => i.name),
      notices: ui.notifications.queue.map(n => `${n.type}: ${n.message}`)
    };
  }, className);

  test("the Wright picks the one job of it that exists, and grants what it gives; no notice of a missing job", async () => {
    const shown = await pickClass("wright");
    assert.equal(shown.job, "geomancer", "not the Enochian, which no pack provides");
    assert.deepEqual(shown.offered, [["", "(no job)"], ["geomancer", "Geomancer (our pack)"]]);
    assert.equal(shown.hint, null);
    assert.deepEqual(shown.notices.filter(n => /No job item/.test(n)), []);
    await page.evaluate(() => globalThis.t.until(() => globalThis.t.actor.items.getName("Quake"), "the job's grant"));
    assert.deepEqual(browser.errors, []);
  });

  test("a class with no job that exists picks none and says so plainly", async () => {
    const shown = await pickClass("mendicant");
    assert.equal(shown.job, "");
    assert.deepEqual(shown.offered, [["", "(no job)"]]);
    assert.match(shown.hint, /^No job of this class is in the world or its compendiums/);
    assert.deepEqual(shown.notices.filter(n => /No job item/.test(n)), []);
    assert.deepEqual(browser.errors, []);
  });
});
