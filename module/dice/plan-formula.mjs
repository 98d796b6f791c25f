/**
 * @import { PlanDie } from "../types/core.js"
 */

/**
 * The Foundry formula for a core plan: one `${count}${notation}[role]` term per entry, in plan
 * order, so the roll's dice terms line up one-to-one with the faces the core expects.
 * Kept apart from IconRoll so it can be used and tested without Foundry.
 * @param {PlanDie[]} dice
 * @returns {string}
 */
export default function planFormula(dice) {
  if (!dice.length) return "0";
  // Flavor text ends at "]", so a role must not contain brackets.
  return dice.map(die => `${die.count}${die.notation}[${die.role.replace(/[[\]]/g, "")}]`).join(" + ");
}
