/**
 * game.i18n for pure context builders: foundry-vtt-types types it as possibly undefined before
 * `i18nInit`, and `format` takes string values. Falls back to the key, as Foundry does.
 */

/**
 * @param {string} key
 * @returns {string}
 */
export function localize(key) {
  return i18nOrNull()?.localize(key) ?? key;
}

/**
 * @param {string} key
 * @param {Record<string, unknown>} [data]  Values are stringified; without data, the key is localized.
 * @returns {string}
 */
export function format(key, data) {
  if (!data) return localize(key);
  const strings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
  return i18nOrNull()?.format(key, strings) ?? key;
}

/** game.i18n, or null where there is no game (node tests of pure modules). */
function i18nOrNull() {
  return typeof game === "undefined" ? null : game.i18n ?? null;
}

/**
 * The key of a count's plural form: `key.one`, `key.other` (or any other CLDR category the
 * language has: `zero`, `two`, `few`, `many`), as `Intl.PluralRules` picks it for the user's
 * language (`game.i18n.lang`; English when there is none yet). game.i18n has no plural helper;
 * a language whose translation lacks the category it picks falls back to `other`.
 * @param {string} key    The i18n key of an object of plural forms (`{one: "…", other: "…"}`).
 * @param {number} count
 * @param {string} [lang]  A BCP 47 language tag; `game.i18n.lang` by default.
 * @returns {string}
 */
export function pluralKey(key, count, lang = i18nOrNull()?.lang ?? "en") {
  let category = "other";
  try {
    category = new Intl.PluralRules(lang || "en").select(Number(count) || 0);
  } catch {
    // An unknown language tag: English's rules are better than none.
    category = new Intl.PluralRules("en").select(Number(count) || 0);
  }
  const chosen = `${key}.${category}`;
  if (category === "other") return chosen;
  // Without translations yet (a pure test), the category the rules picked.
  const i18n = i18nOrNull();
  if (!i18n) return chosen;
  const known = typeof i18n.has === "function" ? i18n.has(chosen) : i18n.localize(chosen) !== chosen;
  return known ? chosen : `${key}.other`;
}

/**
 * A string that shows a count, in the plural form the user's language takes for it (see
 * {@link pluralKey}): `formatPlural("ICONENGINE.Grant.Granted", 1, {name})` reads "… gains 1 item
 * …", with 3 "… gains 3 items …". `{count}` is the count unless `data` gives it.
 * @param {string} key    The i18n key of an object of plural forms.
 * @param {number} count  The number that picks the form.
 * @param {Record<string, unknown>} [data]  The string's other placeholders.
 * @returns {string}
 */
export function formatPlural(key, count, data = {}) {
  return format(pluralKey(key, count), { count, ...data });
}
