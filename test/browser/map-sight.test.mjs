/**
 * Issue 38: the map knows ICON. An attack's targets read from the scene as the attacker's token
 * sees them: a wall that blocks vision leaves a target out of sight ("you need line of sight to
 * target a character"), a low wall (one that blocks only movement) beside a target gives it cover
 * ("a space of terrain ... of its height"), elevation gives height, a hostile token beside the
 * attacker ticks "foe adjacent" for a ranged attack, and a player's use with no attack leaves an
 * out-of-sight target out with a notice (a GM's choice stands). Each figure is the core's (tests/icon_sight.rs holds the geometry);
 * here the scene's documents flow through the real dialog. In the shim's world, as the GM.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { UNTIL } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("the map's sight, cover and height in an attack", () => {
  const open = shimWorldPage({ as: "gm" });

  test("a wall hides a target, a low wall covers one, elevation is height, an adjacent hostile token is a foe adjacent; the boxes still override", async () => {
    const { page } = open.browser;
    await page.setViewportSize({ width: 720, height: 1100 });
    const first = await page.evaluate(async UNTIL => {
      eval(UNTIL);
      const size = 100;
      const hero = await Actor.implementation.create({ name: "Ysolde", type: "character", items: [
        { name: "Longshot", type: "ability", system: { range: { kind: "range", value: 8 } } },
        { name: "Hex", type: "ability", system: { range: { kind: "range", value: 8 }, effects: [{ trigger: "use", status: "dazed" }] } }
      ] });
      const foe = name => Actor.implementation.create({ name, type: "foe", system: { defense: 10 } });
      const [hidden, crouched, perched, lurker] = [await foe("Hidden"), await foe("Crouched"), await foe("Perched"), await foe("Lurker")];
      const scene = await Scene.implementation.create({ name: "Sightlines", width: 1000, height: 800, grid: { size, distance: 1 },
        tokens: [
          { name: "Ysolde", actorId: hero.id, actorLink: true, x: 0, y: 0, disposition: 1 },
          { name: "Hidden", actorId: hidden.id, actorLink: true, x: 4 * size, y: 0 },
          { name: "Crouched", actorId: crouched.id, actorLink: true, x: 4 * size, y: 2 * size },
          { name: "Perched", actorId: perched.id, actorLink: true, x: 0, y: 4 * size, elevation: 2 },
          { name: "Lurker", actorId: lurker.id, actorLink: true, x: 0, y: size }
        ],
        walls: [
          // a stone wall (blocks vision) between Ysolde and Hidden
          { c: [250, 0, 250, 100] },
          // a low wall (blocks movement only) right beside Crouched, on Ysolde's side
          { c: [400, 200, 400, 300], sight: 0 }
        ] });
      await scene.view();
      const tokens = Object.fromEntries(scene.tokens.map(t => [t.name, t]));
      const { default: AttackDialog } = await import("../../module/applications/attack-dialog.mjs");
      const ability = hero.items.getName("Longshot");
      const dialog = await AttackDialog.open(hero, { ability, tokens: [tokens.Hidden, tokens.Crouched, tokens.Perched] });
      const root = dialog.element;
      const rows = [...root.querySelectorAll("tr.attack-target")].map(tr => {
        const box = name => tr.querySelector(`input[name$=".${name}"]`).checked;
        const note = tr.nextElementSibling?.matches(".attack-map-note") ? tr.nextElementSibling.textContent.trim() : "";
        return { name: tr.cells[0].textContent.trim(), sight: box("sight"), cover: box("cover"), adjacent: box("adjacent"),
          height: Number(tr.querySelector("select").value), note };
      });
      const foeAdjacent = root.querySelector("input[name=foeAdjacent]").checked;
      const foesNote = root.querySelector(".attack-situation .map-note")?.textContent.trim() ?? "";
      const warnings = [...root.querySelectorAll(".odds-warning.untargetable")].map(r => r.textContent.trim());
      globalThis.sightDialog = dialog;
      return { id: dialog.id, rows, foeAdjacent, foesNote, warnings };
    }, UNTIL);
    await mkdir(results, { recursive: true });
    await page.locator(`#${first.id}`).screenshot({ path: `${results}/map-sight-attack.png` });
    const then = await page.evaluate(async UNTIL => {
      eval(UNTIL);
      const dialog = globalThis.sightDialog;
      const root = dialog.element;
      const hero = game.actors.getName("Ysolde");
      // The GM knows better (a window in the wall): the box puts Hidden back in sight.
      const sightBox = root.querySelector("tr.attack-target[data-index='0'] input[name$='.sight']");
      sightBox.checked = true;
      sightBox.dispatchEvent(new Event("change", { bubbles: true }));
      await until(() => !root.querySelector(".odds-warning.untargetable"), "the odds to redraw");
      const afterBox = [...root.querySelectorAll(".odds-warning.untargetable")].length;
      await dialog.close();
      // A use with no attack: an out-of-sight target is left out, with a notice.
      ui.notifications.queue.length = 0;
      for (const t of canvas.tokens.placeables) t.setTarget(["Hidden", "Crouched"].includes(t.name), { releaseOthers: false });
      const hexed = async () => (await hero.items.getName("Hex").use()).message.getFlag("icon-engine", "card").targets.map(t => fromUuidSync(t.actor)?.name);
      // The GM's choice is the GM's override; a player's use is held to the map.
      const gmTargets = await hexed();
      await game.user.update({ role: CONST.USER_ROLES.PLAYER });
      const hexTargets = await hexed().finally(() => game.user.update({ role: CONST.USER_ROLES.GAMEMASTER }));
      const notices = ui.notifications.queue.map(n => n.message);
      for (const t of canvas.tokens.placeables) t.setTarget(false, { releaseOthers: false });
      return { afterBox, gmTargets, hexTargets, notices };
    }, UNTIL);
    const seen = { ...first, ...then };
    assert.deepEqual(seen.rows.map(({ note, ...row }) => row), [
      { name: "Hidden", sight: false, cover: false, adjacent: false, height: 0 },
      { name: "Crouched", sight: true, cover: true, adjacent: false, height: 0 },
      { name: "Perched", sight: true, cover: false, adjacent: false, height: -2 }
    ]);
    assert.deepEqual(seen.rows.map(r => r.note), [
      "On the map: out of sight behind a wall, on your level, 4 spaces away.",
      "On the map: in sight, cover from terrain of its height beside it, on your level, 4 spaces away.",
      "On the map: in sight, 2 levels higher, 4 spaces away."
    ]);
    assert.equal(seen.foeAdjacent, true, "Lurker (hostile) stands beside Ysolde (friendly)");
    assert.match(seen.foesNote, /Lurker/);
    assert.deepEqual(seen.warnings, ["Hidden is out of sight: no line of sight reaches it."]);
    assert.equal(seen.afterBox, 0, "the dialog's box overrides the map");
    assert.deepEqual(seen.gmTargets, ["Hidden", "Crouched"], "a GM's targets stand");
    assert.deepEqual(seen.hexTargets, ["Crouched"]);
    assert.deepEqual(seen.notices, ["Hidden is out of sight: it is not affected."]);
    assert.deepEqual(open.browser.errors, []);
  });
});
