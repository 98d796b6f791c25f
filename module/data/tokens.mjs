/**
 * A character's combat tokens as the actor stores them (`system.blessings`, `system.combo`,
 * `system.powerDice`) and the core's `icon.tokens` sees them: Blessing tokens, the Combo token,
 * Power dice. Pure: no Foundry API.
 */

/**
 * The core's bounds on tokens (src/rulesets/icon/tokens.rs): at most 100 Blessing tokens, at most
 * 20 power dice, each of 1 to 6 ticks and unique to its ability, named in 1 to 256 bytes.
 */
export const TOKEN_BOUNDS = Object.freeze({ blessings: 100, powerDice: 20, ticks: 6, abilityBytes: 256 });

const utf8 = new TextEncoder();

/**
 * Why the core would refuse a power die's ability (blank as Rust's `trim` sees it, or past 256
 * bytes of UTF-8), or null.
 * @param {unknown} ability
 * @returns {string | null}
 */
export function powerDieAbilityRefusal(ability) {
  if (typeof ability !== "string" || /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(ability)) return "blank";
  if (utf8.encode(ability).length > TOKEN_BOUNDS.abilityBytes) return "long";
  return null;
}

/**
 * Why the core would refuse a list of power dice (more than 20, two of one ability), or null.
 * @param {unknown} dice
 * @returns {string | null}
 */
export function powerDiceRefusal(dice) {
  if (!Array.isArray(dice)) return null;
  if (dice.length > TOKEN_BOUNDS.powerDice) return "many";
  const abilities = dice.map(d => /** @type {{ability?: unknown} | null} */ (d)?.ability);
  return new Set(abilities).size === abilities.length ? null : "twice";
}

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
