/**
 * Fortune rolls, from the `/fortune` chat command or a macro:
 *
 *     iconEngine.applications.narrative.rollFortune({rating: 2, boons: 1}, {actor: _token?.actor});
 *
 * A fortune roll "is the same as a regular action roll, except the table of outcomes is
 * different", made "using the most appropriate action": it takes a rating (an action's dots),
 * with boons and curses as the action roll dialog does, never a bare pool. The command:
 *
 *     /fortune 2          rating 2
 *     /fortune 2 +1       rating 2, one boon
 *     /fortune 0 -1 +2    rating 0, two boons and a curse (net +1; the ±2 cap is the core's)
 *     /fortune tinker +1  the speaker's character's Tinker: its rating and burden ticks, one boon
 *
 * The parsing is pure; the roll goes through IconRoll (imported when needed, so node tests can
 * load the parser without Foundry).
 */
import { ACTIONS } from "../../data/rules.mjs";
import { fortuneActionRequest } from "./action-roll.mjs";

/** An action's dots run 0 to 4 ("rating" of the core's icon.fortune). */
export const MAX_FORTUNE_RATING = 4;
/** Boons or curses one command may add up to (the core's limit for each). */
export const MAX_FORTUNE_MODIFIERS = 20;

/**
 * @typedef {object} FortuneCommand  What `/fortune` asks for: a rating, or an action of the
 *   speaker's character, and the boons and curses typed after it.
 * @property {number | null} rating  The dots given outright (0–4), or null when an action is named.
 * @property {string | null} action  One of ACTIONS, or null when a rating is given.
 * @property {number} boons
 * @property {number} curses
 */

/**
 * @typedef {object} FortuneInput  A fortune roll's rating and what modifies it.
 * @property {number} rating
 * @property {number} [boons]
 * @property {number} [curses]
 * @property {number} [burdenTicks]
 */

/**
 * Read `/fortune`'s arguments: a rating (0–4) or an action's name (its key or its localized label,
 * any case), then any number of `+N` (boons) and `-N` (curses). Null when they are not that.
 * @param {string} args
 * @param {(action: string) => string} [label]  An action's localized name (the key without i18n).
 * @returns {FortuneCommand | null}
 */
export function parseFortune(args, label = action => action) {
  const match = /^\s*([^\s+\-−]+)((?:\s*[+\-−]\s*\d{1,2})*)\s*$/.exec(args);
  if (!match) return null;
  const [, first, rest] = match;
  let rating = null;
  let action = null;
  if (/^\d{1,2}$/.test(first)) {
    rating = Number(first);
    if (rating > MAX_FORTUNE_RATING) return null;
  } else {
    const name = first.toLowerCase();
    action = ACTIONS.find(a => a === name || label(a).toLowerCase() === name) ?? null;
    if (!action) return null;
  }
  let boons = 0;
  let curses = 0;
  for (const [, sign, n] of rest.matchAll(/([+\-−])\s*(\d{1,2})/g)) {
    if (sign === "+") boons += Number(n);
    else curses += Number(n);
  }
  if (boons > MAX_FORTUNE_MODIFIERS || curses > MAX_FORTUNE_MODIFIERS) return null;
  return { rating, action, boons, curses };
}

/**
 * The core request of a fortune roll: a rating with its boons, curses and burden ticks.
 * @param {FortuneInput} input
 * @returns {import("../../types/core.js").CoreRequest & Required<FortuneInput>}
 */
export function fortuneRequest({ rating, boons = 0, curses = 0, burdenTicks = 0 }) {
  return { kind: "icon.fortune", rating, boons, curses, burdenTicks };
}

/**
 * The request of a parsed `/fortune`: the rating given, or the named action of the speaker's
 * character (its dots and burden ticks, as the action roll dialog's Fortune box takes them).
 * @param {FortuneCommand} command
 * @param {import("../../types/system.js").CharacterNarrative | null} character  The speaker's character's system data.
 * @returns {{request: ReturnType<typeof fortuneRequest>} | {error: string}}  `error`: an i18n key.
 */
export function fortuneCommandRequest(command, character) {
  const { boons, curses } = command;
  if (command.action === null) return { request: fortuneRequest({ rating: command.rating ?? 0, boons, curses }) };
  if (!character) return { error: "ICONENGINE.Narrative.FortuneNoCharacter" };
  const inputs = { boons, curses, push: false, aid: 0, temptFate: false, fortune: true };
  const { rating, burdenTicks } = fortuneActionRequest(character, command.action, inputs);
  return { request: fortuneRequest({ rating, boons, curses, burdenTicks }) };
}

/**
 * The card's flavor: "Fortune roll (2d, +1)", the net boons as the action roll counts them.
 * @param {FortuneInput} input
 * @param {string} [action]  The action's localized name.
 */
export function fortuneFlavorData({ rating, boons = 0, curses = 0 }, action) {
  const net = boons - curses;
  return {
    rating: String(rating),
    net: net > 0 ? `, +${net}` : net < 0 ? `, −${-net}` : "",
    action: action ?? ""
  };
}

/**
 * Roll a fortune roll through Foundry's dice and post its card.
 * @param {FortuneInput | number} input  A rating, or a rating with its boons, curses and burden ticks.
 * @param {{actor?: Actor.Implementation | null, speaker?: object, flavor?: string, action?: string}} [options]
 *   `action`: the localized name of the action rolled, for the flavor.
 */
export async function rollFortune(input, { actor = null, speaker, flavor, action } = {}) {
  const request = fortuneRequest(typeof input === "number" ? { rating: input } : input);
  const { default: IconRoll } = await import("../../dice/icon-roll.mjs");
  const key = action ? "ICONENGINE.Narrative.FortuneFlavorAction" : "ICONENGINE.Narrative.FortuneFlavor";
  const text = flavor ?? game.i18n?.format(key, fortuneFlavorData(request, action));
  const roll = await IconRoll.fromRequest(request, { flavor: text });
  await roll.evaluate();
  return roll.toMessage({ speaker: speaker ?? ChatMessage.implementation.getSpeaker(actor ? { actor } : {}), flavor: text });
}
