import { ICONENGINE, SYSTEM_ID, SYSTEM_PATH } from "../config.mjs";

/**
 * The entries of `CONFIG.statusEffects` (v13 shape: `{id, name, img, description}`; `name` and
 * `description` are i18n keys Foundry localizes when it creates the ActiveEffect). The glossary
 * text is the description, so it shows as the effect's tooltip.
 *
 * Ongoing (+) statuses: an effect created from a status carries the flag
 * `flags.icon-engine.ongoing` (false by default). A status flagged ongoing cannot be removed by a
 * save: it is passed to the core as `id+` (see `coreStatuses` in rules.mjs), which `iconSaveable`
 * leaves out. The flag lives on the effect, not the status list, because the same status can be
 * ongoing from one source (a stance, a mark) and saveable from another.
 * @returns {{id: string, name: string, img: string, description: string, flags: object}[]}
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
