/**
 * Which chat card a core request kind renders with. Each ruleset registers its kinds here (from
 * its own file under module/dice/cards/), so IconRoll stays ignorant of the rules: it asks this
 * registry for the template and for the extra context the card needs from the stored outcome.
 *
 * The `context` function must be pure (no Foundry calls beyond i18n), so browser tests can render
 * a card from a real core outcome with the same code Foundry runs.
 */

/**
 * @typedef {object} RollCard
 * @property {string} template  Handlebars template path (systems/icon-engine/...).
 * @property {(outcome: import("../types/core.js").Done, request: import("../types/core.js").CoreRequest,
 *   options: Record<string, unknown>) => Record<string, unknown>} [context]
 *   Extra context for the template, merged under `card`.
 */

/** @type {Map<string, RollCard>} */
const CARDS = new Map();

/**
 * Register the card of a request kind (e.g. "icon.attack"). A later registration replaces an
 * earlier one, so a module can restyle a card.
 * @param {string} kind
 * @param {RollCard} card
 */
export function registerRollCard(kind, card) {
  CARDS.set(kind, card);
}

/**
 * The card registered for a kind, if any.
 * @param {string | undefined} kind
 * @returns {RollCard | undefined}
 */
export function rollCardFor(kind) {
  return kind === undefined ? undefined : CARDS.get(kind);
}

/** Every registered kind (for tests and docs). */
export function registeredRollCards() {
  return [...CARDS.keys()];
}
