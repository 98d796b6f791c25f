// The requests the benchmarks ask (bench/run.mjs, bench/cold-start.mjs).
import { performance } from "node:perf_hooks";

const dice = formula => ({ kind: "dice", formula });
const target = { hp: 20, maxHp: 20, vigor: 5, armor: 1, wounds: 0, isPlayerCharacter: true, statuses: ["dazed"] };

/**
 * Every request kind, and rpg-dice-roller's notation for the same dice (the rule's own formula,
 * which `odds(request).formula` shows, in rpg-dice-roller's words), or null for the kinds that
 * roll no dice: nothing to compare them with.
 * @type {[object, string | null][]}
 */
export const ROLLING = [
  [dice("1d20+3"), "1d20+3"],
  [dice("4d6kh3"), "4d6kh3"],
  [dice("10d6x"), "10d6!"],
  [dice("3d6cs>=5"), "3d6>=5"],
  [{ kind: "icon.attack", boons: 2, defense: 12 }, "1d20+2d6kh1"],
  [{ kind: "icon.save", boons: 1 }, "1d20+1d6kh1"],
  [{ kind: "icon.damage", result: "hit", die: 8, dice: 2, fray: 3 }, "2d8kh2+3"],
  [{ kind: "icon.action", rating: 3, push: true }, "4d6kh1"],
  [{ kind: "icon.fortune", dice: 3 }, "3d6kh1"],
  [{ kind: "icon.evasion" }, "1d6"],
  [{ kind: "icons.test", ability: 6, difficulty: 5 }, "1d6-1d6+6"],
  [{ kind: "tribute.test", rank: 2, focus: 2, burden: 1, die: 8, opposition: 3 }, "2+3d8kh1-2d8kh1-3"],
  [{ kind: "narrator.skill", skill: 12, difficulty: 0 }, "12+3d6"],
  [{ kind: "mns.action", target: 60, bonus: 5 }, "2d10"],
  [{ kind: "mns.save", score: 12 }, "2d10"],
  [{ kind: "mns.dice", die: "d100" }, "1d10+1d10"],
  [{ kind: "icon.applyDamage", target, amount: 7, source: "hit" }, null],
  [{ kind: "icon.heal", target: { ...target, hp: 5 }, healing: "rest" }, null],
  [{ kind: "icon.inflict", status: "dazed", target: [] }, null],
  [{ kind: "icon.hatred", foe: [] }, null],
  [{ kind: "icon.marks", marks: [], event: { type: "place", mark: { mark: "hunted", placer: "a", target: "b" } } }, null],
  [{ kind: "icon.tokens", tokens: { blessings: 1 }, event: { type: "spendBlessing" } }, null],
  [{ kind: "icon.limitBreak", cost: 2, personal: 3 }, null]
];

/** Every request kind once, by kind (the first of each in {@link ROLLING}). */
export const COLD_KINDS = [...new Map(ROLLING.map(([r]) => [r.kind === "dice" ? `dice ${r.formula}` : r.kind, r])).entries()]
  .filter(([name]) => !name.startsWith("dice ") || name === "dice 4d6kh3" || name === "dice 10d6x");

/** An attack dialog with 8 targets: one attack's odds against each (their defenses, cover, evasion). */
export const DIALOG = Array.from({ length: 8 }, (_, i) => ({
  kind: "icon.attack", boons: 1 + (i % 3), curses: i % 2, defense: 8 + i, evasion: i === 5, trueStrike: i === 7
}));

const big = { hp: 100000, maxHp: 100000, vigor: 25000, armor: 1000, wounds: 0, isPlayerCharacter: true, statuses: [] };
/** The longest status list: 128 ids of 64 bytes (src/rulesets/icon/effects.rs). */
const manyStatuses = Array.from({ length: 128 }, (_, i) => `status-${String(i).padStart(3, "0")}-`.padEnd(64, "x"));
/** A Foundry-like 16-character id. */
const id = i => `c${String(i).padStart(15, "0")}`;
/** The largest legal request of every kind (docs/js-contract.md's limits). */
export const LARGEST = [
  ["10 × 1000d1000000", dice(Array.from({ length: 10 }, () => "1000d1000000").join(" + "))],
  ["1000d6x", dice("1000d6x")],
  ["3d6x", dice("3d6x")],
  ["400d6", dice("400d6")],
  ["20d100", dice("20d100")],
  ["1d2048", dice("1d2048")],
  ["2d1000000kh1cs>5", dice("2d1000000kh1cs>5")],
  ["140d6kh70", dice("140d6kh70")],
  ["101 terms of 1d6", dice(`${"1d6 + ".repeat(100)}1d6`)],
  ["icon.attack, 100 boons", { kind: "icon.attack", boons: 100, bonus: 1000, defense: 100 }],
  ["icon.save, 100 curses", { kind: "icon.save", curses: 100, bonus: -1000 }],
  ["icon.damage, 40 dice", { kind: "icon.damage", result: "crit", die: 12, dice: 20, bonusDice: 20, fray: 1000, flat: 1000 }],
  ["icon.action, 20 boons and aid", { kind: "icon.action", rating: 4, boons: 20, aid: 20, push: true }],
  ["icon.fortune, 20 dice", { kind: "icon.fortune", dice: 20 }],
  ["icon.applyDamage, 128 statuses", { kind: "icon.applyDamage", target: { ...big, statuses: manyStatuses }, amount: 10, source: "hit" }],
  ["icon.heal, 128 statuses", { kind: "icon.heal", target: { ...big, statuses: manyStatuses }, healing: "rest" }],
  ["icons.test at 100", { kind: "icons.test", ability: 100, difficulty: 100, bonus: 100, penalty: 100 }],
  ["tribute.test, rank 100", { kind: "tribute.test", rank: 100, focus: 5, burden: 5, die: 12, opposition: { rank: 100, focus: 5, burden: 5 } }],
  ["narrator.skill attack", { kind: "narrator.skill", skill: 200, difficulty: 300, modifiers: 100, use: "attack", baseDamage: 1000000, ranks: 1000 }],
  ["mns.action", { kind: "mns.action", target: 1000, bonus: 1000 }],
  ["mns.save d100", { kind: "mns.save", score: 1000, dice: "d100" }],
  ["icon.inflict, 128 statuses each", { kind: "icon.inflict", status: "dazed", inflicter: manyStatuses, target: manyStatuses }],
  ["icon.hatred, 128 statuses", { kind: "icon.hatred", foe: manyStatuses }],
  ["icon.marks, 1,000 marks", { kind: "icon.marks", marks: Array.from({ length: 1000 }, (_, i) => ({ mark: `mark-${i % 40}`, placer: id(i % 64), target: id(1000 + i) })),
    event: { type: "place", mark: { mark: "mark-0", placer: id(0), target: id(1000) } } }],
  ["icon.ability, 12 parts × 64 targets", largestAbility()]
];

/**
 * One use of an ability as large as its limits let it be within 256 KiB: 12 parts (every trigger,
 * a status and a mark each), 64 targets each with as many 64-byte statuses as fit.
 */
function largestAbility() {
  const triggers = ["use", "hit", "crit", "miss", "exceed", "failedSave", "finishingBlow", "slay", "charge", "comeback", "heroic", "gamble"];
  const parts = triggers.map((trigger, i) => ({ trigger, ...(trigger === "gamble" ? { gamble: 4 } : {}), to: i % 5 ? "target" : "self", status: "dazed", mark: i % 2 === 0 }));
  const use = perTarget => ({ kind: "icon.ability", parts, user: { statuses: ["dazed"], bloodied: true, slowTurn: true, heroic: true }, gamble: 5,
    targets: Array.from({ length: 64 }, (_, i) => ({ attack: ["hit", "crit", "miss"][i % 3], exceed: i % 4 === 0, save: i % 2 ? "failed" : "saved",
      bloodied: i % 3 === 0, slain: i % 7 === 0, statuses: manyStatuses.slice(0, perTarget), mob: i % 9 === 0, summon: i % 11 === 0 })) });
  let perTarget = 128;
  while (JSON.stringify(use(perTarget)).length > 256 * 1024) perTarget--;
  return use(perTarget);
}


/**
 * A fight of `n` one-turn combatants started through `core.combatApply`, and `step()`, the next
 * tracker move (a turn begun, or ended), which returns the state it applied to.
 * @param {{combatApply: Function}} core
 * @param {number} n
 */
export function fight(core, n) {
  const combatants = Array.from({ length: n }, (_, i) => ({ id: id(i), side: i % 2 ? "foes" : "party", isPlayerCharacter: i % 2 === 0 }));
  const sides = { party: combatants.filter(c => c.side === "party").map(c => c.id), foes: combatants.filter(c => c.side === "foes").map(c => c.id) };
  const start = performance.now();
  let state = core.combatApply(null, { type: "start", combatants }).state;
  const startMs = performance.now() - start;
  const used = { party: 0, foes: 0 };
  const step = () => {
    const event = state.current ? { type: "endTurn" } : { type: "beginTurn", id: sides[state.next.side][used[state.next.side]++] };
    const out = core.combatApply(state, event);
    if (out.effects.some(e => e.type === "roundStarted")) used.party = used.foes = 0;
    const before = state;
    state = out.state;
    return before;
  };
  return { combatants, step, startMs, get state() { return state; } };
}
