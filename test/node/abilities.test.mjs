/**
 * What an ability's data means at the table (module/data/ability-rules.mjs; its card is
 * test/node/ability-card.test.mjs's), its inline card on a sheet (sheet-context.mjs itemRow) and the
 * attack dialog's starting state from it (tactical-requests.mjs initialAttackState): charges,
 * once per turn/round/combat, interrupts ("Stunned: Can't take interrupts"), recharge moments,
 * stored data of the old shape, and every i18n key they name.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { abilitySummary, attackRange, consumption, migrateAbilitySource, recharge, usability, useKind } from "../../module/data/ability-rules.mjs";
import { itemRow, sortedItems } from "../../module/applications/sheets/sheet-context.mjs";
import { initialAttackState } from "../../module/dice/tactical-requests.mjs";
import { en, format } from "../support/lang.mjs";

/** An ability's system source as the data model stores it. */
const ability = (more = {}) => ({
  description: "", combo: "", actions: "1", interrupt: 1, trigger: "", tags: [], resolveCost: 0, range: { kind: "", value: 0 },
  area: { shape: "", size: 1 }, roll: { boons: 0, curses: 0, hitDice: 1, frayOnMiss: true, bonusDice: 0, pierce: false, divine: false, saveForHalf: false },
  attack: { trueStrike: false, autoHit: false, unerring: false, floor: false, critAgain: false, mark: "" },
  save: { enabled: false, boons: 0, curses: 0 }, effects: [], charges: { value: 0, max: 0, recharge: "" }, limit: { per: "", used: 0 }, ...more
});

describe("stored data of the old shape", () => {
  test("a free-text range reads as its kind and spaces; other text is kept at the head of the description", () => {
    const read = range => migrateAbilitySource({ range, description: "<p>Hit it.</p>" });
    assert.deepEqual(read("3").range, { kind: "range", value: 3 });
    assert.deepEqual(read("Range 5").range, { kind: "range", value: 5 });
    assert.deepEqual(read("r12").range, { kind: "range", value: 12 });
    assert.deepEqual(read("Melee").range, { kind: "melee", value: 1 });
    assert.deepEqual(read("self").range, { kind: "self", value: 0 });
    assert.deepEqual(read("").range, { kind: "", value: 0 });
    const odd = read("Line of sight <3");
    assert.deepEqual(odd.range, { kind: "", value: 0 });
    assert.equal(odd.description, "<p>Line of sight &lt;3</p><p>Hit it.</p>", "nothing is lost, and the text stays text");
    const today = { range: { kind: "range", value: 2 } };
    assert.equal(migrateAbilitySource(today), today);
    assert.deepEqual(today.range, { kind: "range", value: 2 }, "today's shape is left alone");
  });
});

describe("using an ability", () => {
  test("its kind: the Attack tag opens the attack dialog, a save calls for saves, anything else posts its card", () => {
    assert.equal(useKind(ability({ tags: ["attack", "area"] })), "attack");
    assert.equal(useKind(ability({ save: { enabled: true, boons: 0, curses: 0 } })), "save");
    assert.equal(useKind(ability({ tags: ["stance"] })), "card");
  });

  test("its range as the attack reads it: melee reaches an adjacent space, range N spaces, nothing else limits it", () => {
    assert.equal(attackRange({ kind: "range", value: 6 }), 6);
    assert.equal(attackRange({ kind: "melee", value: 0 }), 1);
    assert.equal(attackRange({ kind: "self", value: 0 }), null);
    assert.equal(attackRange({ kind: "", value: 4 }), null);
  });

  test("charges: refused at none left, one spent per use, back when they recharge", () => {
    const spent = ability({ charges: { value: 0, max: 2, recharge: "combat" } });
    assert.deepEqual(usability(spent, { name: "Hail" }), { key: "ICONENGINE.Use.NoCharges", data: { name: "Hail" } });
    const two = ability({ charges: { value: 2, max: 2, recharge: "combat" } });
    assert.equal(usability(two), null);
    assert.deepEqual(consumption(two), { "system.charges.value": 1 });
    assert.deepEqual(consumption(ability()), {}, "no charges, nothing to spend");
    assert.deepEqual(recharge(spent, "combatEnd"), { "system.charges.value": 2 });
    assert.deepEqual(recharge(spent, "roundStart"), {}, "combat charges wait for the end of combat");
    assert.deepEqual(recharge(ability({ charges: { value: 0, max: 3, recharge: "rest" } }), "rest"), { "system.charges.value": 3 });
    const perTurn = ability({ charges: { value: 0, max: 1, recharge: "turn" } });
    assert.deepEqual(recharge(perTurn, "turnEnd", { own: false }), {}, "another's turn ending gives nothing back");
    assert.deepEqual(recharge(perTurn, "turnEnd", { own: true }), { "system.charges.value": 1 });
    assert.deepEqual(recharge(ability({ charges: { value: 1, max: 1, recharge: "round" } }), "roundStart"), {}, "already full");
  });

  test("once per turn, round or combat: counted only in a started combat, cleared by its moment and by the end of combat", () => {
    const round = ability({ limit: { per: "round", used: 1 } });
    assert.deepEqual(usability(round, { name: "Stride", inCombat: true }), { key: "ICONENGINE.Use.Limit.round", data: { name: "Stride" } });
    assert.equal(usability(round, { inCombat: false }), null, "no rounds outside combat");
    assert.deepEqual(consumption(ability({ limit: { per: "round", used: 0 } }), { inCombat: true }), { "system.limit.used": 1 });
    assert.deepEqual(consumption(ability({ limit: { per: "round", used: 0 } }), { inCombat: false }), {});
    assert.deepEqual(recharge(round, "roundStart"), { "system.limit.used": 0 });
    assert.deepEqual(recharge(round, "turnEnd", { own: true }), {}, "a round's limit lasts the round");
    assert.deepEqual(recharge(ability({ limit: { per: "turn", used: 1 } }), "turnEnd"), { "system.limit.used": 0 }, "any turn's end");
    assert.deepEqual(recharge(ability({ limit: { per: "combat", used: 1 } }), "roundStart"), {});
    assert.deepEqual(recharge(ability({ limit: { per: "combat", used: 1 } }), "combatEnd"), { "system.limit.used": 0 });
  });

  test("interrupts: none while Stunned (\"Can't take interrupts\"), at most N until the owner's turn", () => {
    const veil = ability({ actions: "interrupt", interrupt: 2 });
    assert.deepEqual(usability(veil, { name: "Veil", statuses: ["stunned"] }), { key: "ICONENGINE.Use.Stunned", data: { name: "Veil" } });
    assert.deepEqual(usability(veil, { name: "Veil", statuses: ["stunned+"] }), { key: "ICONENGINE.Use.Stunned", data: { name: "Veil" } });
    assert.equal(usability(veil, { inCombat: true, interruptsUsed: 1 }), null);
    assert.deepEqual(usability(veil, { name: "Veil", inCombat: true, interruptsUsed: 2 }), { key: "ICONENGINE.Use.InterruptsUsed.other", data: { name: "Veil", count: "2" } });
    // issue 41: "used 1 times" no more; the count's plural form, as Intl.PluralRules picks it
    assert.deepEqual(usability(ability({ actions: "interrupt", interrupt: 1 }), { name: "Veil", inCombat: true, interruptsUsed: 1 }),
      { key: "ICONENGINE.Use.InterruptsUsed.one", data: { name: "Veil", count: "1" } });
    assert.equal(usability(ability({ actions: "1" }), { statuses: ["stunned"] }), null, "a Stunned character still takes actions");
  });

  test("every refusal and summary names a key of lang/en.json", () => {
    const refusals = [
      usability(ability({ charges: { value: 0, max: 1, recharge: "" } })),
      ...["turn", "round", "combat"].map(per => usability(ability({ limit: { per, used: 1 } }), { inCombat: true })),
      usability(ability({ actions: "interrupt" }), { statuses: ["stunned"] }),
      usability(ability({ actions: "interrupt" }), { inCombat: true, interruptsUsed: 1 })
    ];
    for (const r of refusals) format(r.key, r.data);
    for (const actions of ["1", "2", "free", "interrupt"]) {
      for (const kind of ["", "self", "melee", "range"]) {
        for (const shape of ["", "blast", "burst", "line", "cross", "arc"]) {
          const s = abilitySummary(ability({ actions, range: { kind, value: 3 }, area: { shape, size: 2 }, limit: { per: "turn", used: 0 } }));
          for (const entry of [s.cost, s.range, s.area, s.limit]) if (entry) format(entry.key, entry.data);
        }
      }
    }
  });
});

describe("cards", () => {
  const lance = ability({ description: "<p>Zap.</p>", actions: "interrupt", interrupt: 2, trigger: "When an ally is hit", tags: ["attack", "combo"],
    range: { kind: "range", value: 5 }, area: { shape: "line", size: 4 }, charges: { value: 1, max: 3, recharge: "rest" }, limit: { per: "round", used: 0 },
    resolveCost: 2 });

  test("the inline card of an ability on its actor's sheet: cost, reach, area, limit, charges, tags", () => {
    const row = itemRow({ type: "ability", system: lance }, format);
    assert.deepEqual(row.chips, ["Interrupt 2", "Range 5", "Line 4", "Once a round", "Charges 1/3"]);
    assert.deepEqual(row.tags, ["Attack", "Combo"]);
    assert.equal(row.usable, true);
    assert.equal(row.spent, false);
    assert.equal(itemRow({ type: "relic", system: { charges: { value: 0, max: 2, recharge: "rest" }, limit: { per: "", used: 0 } } }, format).spent, true);
    assert.deepEqual(itemRow({ type: "trait", system: {} }, format), { chips: [], tags: [], usable: true, spent: false });
    assert.deepEqual(sortedItems([{ name: "b", sort: 2 }, { name: "c", sort: 1 }, { name: "a", sort: 2 }]).map(i => i.name), ["c", "a", "b"]);
  });

  test("the attack dialog starts from the ability: its boons and curses, [D], options, range, and an area attack", () => {
    const hail = ability({ tags: ["attack"], area: { shape: "blast", size: 2 }, range: { kind: "range", value: 6 },
      roll: { boons: 1, curses: 2, hitDice: 2, frayOnMiss: false, bonusDice: 1, pierce: true, divine: false, saveForHalf: true },
      attack: { trueStrike: true, autoHit: false, unerring: true, floor: false, critAgain: true, mark: "Frost" } });
    const state = initialAttackState({ ability: { system: hail } });
    assert.deepEqual([state.boons, state.curses, state.dice, state.bonusDice, state.frayOnMiss, state.pierce, state.saveForHalf],
      [1, 2, 2, 1, false, true, true]);
    assert.deepEqual([state.trueStrike, state.unerring, state.critAgain, state.mark, state.range, state.area], [true, true, true, "Frost", 6, true]);
    // the dialog's own options come over the ability's
    assert.equal(initialAttackState({ ability: { system: hail }, options: { range: 2 } }).range, 2);
    assert.equal(initialAttackState({ ability: { system: ability({ tags: ["attack"], range: { kind: "melee", value: 1 } }) } }).range, 1);
    // "For ranged attacks, a target must have at least 1 space of its area within the listed range ... Ranged attacks also
    // care about cover": an ability with Range N opens as a ranged attack, a melee one does not
    assert.equal(state.ranged, true);
    assert.equal(initialAttackState({ ability: { system: ability({ tags: ["attack"], range: { kind: "melee", value: 1 } }) } }).ranged, false);
    assert.equal(initialAttackState({}).ranged, false, "a basic attack is melee");
  });
});

describe("docs/api.md", () => {
  test("lists every hook the system fires, by its name, and no other", async () => {
    const { HOOKS } = await import("../../module/hooks.mjs");
    const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const listed = [...docs.matchAll(/^\| `(icon-engine\.\w+)` \| `\(([^`]*)\)` \|/gm)].map(m => m[1]);
    assert.deepEqual([...listed].sort(), Object.values(HOOKS).sort());
    // every hook the module fires is one of them
    const { readdirSync } = await import("node:fs");
    const walk = dir => readdirSync(dir, { withFileTypes: true }).flatMap(e => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const fired = new Set();
    for (const file of walk(new URL("../../module", import.meta.url).pathname).filter(f => f.endsWith(".mjs"))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/HOOKS\.(\w+)/g)) fired.add(HOOKS[m[1]]);
      for (const m of text.matchAll(/"(icon-engine\.\w+)"/g)) fired.add(m[1]);
    }
    for (const name of fired) assert.ok(listed.includes(name), `${name} is documented`);
  });
});
