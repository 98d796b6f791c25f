import { ICONENGINE, SYSTEM_ID, SYSTEM_PATH } from "../config.mjs";

/**
 * @typedef {object} IconStatusEffect
 * @property {string} id
 * @property {string} name         An i18n key (Foundry localizes it).
 * @property {string} img
 * @property {string} description  An i18n key until {@link localizeStatusDescriptions} runs.
 * @property {object} flags
 */

/**
 * The entries of `CONFIG.statusEffects` (v13 shape: `{id, name, img, description}`; `name` is an
 * i18n key Foundry localizes when it creates the ActiveEffect). The glossary text is the
 * description, so it shows as the effect's tooltip.
 *
 * Ongoing (+) statuses: an effect created from a status carries the flag
 * `flags.icon-engine.ongoing` (false by default). A status flagged ongoing cannot be removed by a
 * save: it is passed to the core as `id+` (see `coreStatuses` in rules.mjs), which `iconSaveable`
 * leaves out. The flag lives on the effect, not the status list, because the same status can be
 * ongoing from one source (a stance, a mark) and saveable from another. How a status lasts is read
 * and written by module/data/effect-duration.mjs only (both generations' shapes).
 * @returns {IconStatusEffect[]}
 */
export function statusEffects() {
  return Object.entries(ICONENGINE.statuses).flatMap(([kind, ids]) => ids.map(id => ({
    id,
    name: `ICONENGINE.Status.${id}.name`,
    img: `${SYSTEM_PATH}/assets/icons/statuses/${id}.svg`,
    description: `ICONENGINE.Status.${id}.hint`,
    flags: { [SYSTEM_ID]: { kind, ongoing: false } }
  })));
}

/**
 * The special statuses Foundry gives core behaviour to (`CONFIG.specialStatusEffects`). Only
 * DEFEATED is ICON's; every other one whose id an ICON status shares is unmapped, since ICON's
 * meaning differs: core's BLIND ("blind") takes the token's sight away completely, while ICON's
 * Blind only caps the range of abilities at 2.
 * @param {Record<string, string | null | undefined>} special  `CONFIG.specialStatusEffects`.
 * @param {Iterable<{id: string}>} statuses  The ICON statuses.
 */
export function configureSpecialStatuses(special, statuses) {
  special.DEFEATED = "defeated";
  const ids = new Set([...statuses].map(status => status.id));
  for (const [key, id] of Object.entries(special)) {
    // null is how maintained systems (Lancer) switch a core mechanic off: no status matches it.
    if (key !== "DEFEATED" && id && ids.has(id)) special[key] = null;
  }
}

/**
 * Foundry localizes a status's `name` when the Token HUD creates its ActiveEffect, but copies
 * `description` as it is; so once translations are loaded (`i18nInit`) the descriptions are made
 * text, else the effect would store the raw key.
 * @param {{description?: string | null}[]} statuses  `CONFIG.statusEffects`, changed in place.
 * @param {(key: string) => string} localize
 */
export function localizeStatusDescriptions(statuses, localize) {
  for (const status of statuses) {
    if (status.description) status.description = localize(status.description);
  }
}
