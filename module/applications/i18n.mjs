/**
 * game.i18n for pure context builders: foundry-vtt-types types it as possibly undefined before
 * `i18nInit`, and `format` takes string values. Falls back to the key, as Foundry does.
 */

/**
 * @param {string} key
 * @returns {string}
 */
export function localize(key) {
  return game.i18n?.localize(key) ?? key;
}

/**
 * @param {string} key
 * @param {Record<string, unknown>} [data]  Values are stringified; without data, the key is localized.
 * @returns {string}
 */
export function format(key, data) {
  if (!data) return localize(key);
  const strings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
  return game.i18n?.format(key, strings) ?? key;
}
