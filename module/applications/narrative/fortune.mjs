/**
 * Fortune rolls, from the `/fortune N` chat command or a macro:
 *
 *     iconEngine.applications.narrative.rollFortune(3, {actor: _token?.actor});
 *
 * The parsing is pure; the roll goes through IconRoll (imported when needed, so node tests can
 * load the parser without Foundry).
 */

/** More dice than this is surely a typo (the core refuses it too). */
export const MAX_FORTUNE_DICE = 20;

/**
 * The dice of `/fortune N`: a whole number of dice, or null when the argument is not one.
 * @param {string} args
 * @returns {number|null}
 */
export function parseFortune(args) {
  const match = /^\d{1,3}$/.exec(args.trim());
  if (!match) return null;
  const dice = Number(match[0]);
  return dice <= MAX_FORTUNE_DICE ? dice : null;
}

/**
 * The core request of a fortune roll.
 * @param {number} dice
 * @returns {import("../../types/core.js").CoreRequest}
 */
export function fortuneRequest(dice) {
  return { kind: "icon.fortune", dice };
}

/**
 * Roll a fortune roll through Foundry's dice and post its card.
 * @param {number} dice
 * @param {{actor?: Actor.Implementation | null, speaker?: object, flavor?: string}} [options]
 */
export async function rollFortune(dice, { actor = null, speaker, flavor } = {}) {
  const { default: IconRoll } = await import("../../dice/icon-roll.mjs");
  const text = flavor ?? game.i18n?.format("ICONENGINE.Narrative.FortuneFlavor", { dice: String(dice) });
  const roll = await IconRoll.fromRequest(fortuneRequest(dice), { flavor: text });
  await roll.evaluate();
  return roll.toMessage({ speaker: speaker ?? ChatMessage.implementation.getSpeaker(actor ? { actor } : {}), flavor: text });
}
