/**
 * A character's combat tokens as the actor stores them (`system.blessings`, `system.combo`,
 * `system.powerDice`) and the core's `icon.tokens` sees them: Blessing tokens, the Combo token,
 * Power dice. Pure: no Foundry API.
 */

/**
 * @typedef {object} Tokens  The core's `icon.tokens` state.
 * @property {number} blessings
 * @property {boolean} combo
 * @property {{ability: string, ticks: number}[]} powerDice
 */

/**
 * The tokens of an actor's system data (absent fields: none held).
 * @param {{blessings?: unknown, combo?: unknown, powerDice?: unknown}} system
 * @returns {Tokens}
 */
export function tokensOf(system) {
  const dice = Array.isArray(system.powerDice) ? system.powerDice : [];
  return {
    blessings: Math.max(0, Math.trunc(Number(system.blessings) || 0)),
    combo: system.combo === true,
    powerDice: dice.filter(d => d && typeof d.ability === "string" && d.ability)
      .map(d => ({ ability: String(d.ability), ticks: Math.trunc(Number(d.ticks) || 1) }))
  };
}

/**
 * The actor update that stores tokens.
 * @param {Tokens} tokens
 * @returns {Record<string, unknown>}
 */
export function tokensUpdate(tokens) {
  return { "system.blessings": tokens.blessings, "system.combo": tokens.combo, "system.powerDice": tokens.powerDice };
}
