/**
 * The Foundry formula built from a core plan. Needs no wasm.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import planFormula from "../../module/dice/plan-formula.mjs";

test("one flavored term per plan entry, in order", () => {
  assert.equal(planFormula([
    { faces: 6, count: 4, role: "dice", notation: "d6" },
    { faces: 3, count: 2, role: "fate", notation: "dF" },
    { faces: 100, count: 1, role: "explode", notation: "d100" }
  ]), "4d6[dice] + 2dF[fate] + 1d100[explode]");
});

test("an empty plan is the constant 0, and brackets can't break the flavor", () => {
  assert.equal(planFormula([]), "0");
  assert.equal(planFormula([{ faces: 6, count: 1, role: "fire]x[", notation: "d6" }]), "1d6[firex]");
});
