/**
 * What a core health outcome (`icon.applyDamage`, `icon.heal`) changes on an actor, as plain data:
 * the update, the status effects to delete and to create, and everything an Undo needs to put the
 * actor back. Pure (no Foundry API), so the node and browser tests run the same mapping.
 */
import { SYSTEM_ID } from "../config.mjs";
import { effectDuration } from "./effect-duration.mjs";
import { statusEffects } from "./status-effects.mjs";

/**
 * @typedef {object} EffectLike  One of the actor's own ActiveEffects.
 * @property {string} id
 * @property {string[]} statuses
 * @property {ActiveEffect.Source} data  Its full source (`toObject()`), to recreate it on Undo.
 */

/**
 * @typedef {object} HealthChange
 * @property {Record<string, number>} update     Dotted `system.*` keys that change.
 * @property {string[]} deleteEffects            Ids of effects whose status ended.
 * @property {string[]} createStatuses           Status ids the actor gains.
 * @property {HealthUndo} undo                   How to restore the actor (the created effects'
 *   ids are added by the caller once they exist).
 */

/**
 * @typedef {object} HealthUndo
 * @property {Record<string, number>} update     The previous values of the changed keys.
 * @property {ActiveEffect.Source[]} restoreEffects  Sources of the deleted effects.
 * @property {string[]} deleteEffects            Ids of the effects the change created.
 */

/**
 * Statuses the system keeps in step by itself: Bloodied follows HP (IconActor#syncBloodied), so
 * the mapping leaves it alone rather than race that update.
 */
const AUTOMATIC = new Set(["bloodied"]);

/** @param {string} status */
const bare = status => status.replace(/\+$/, "");

/**
 * The change from an actor's current health to the core's new target (and its personal resolve,
 * which camp resets, when the core was given one).
 * @param {{system: {hp: {value: number}, vigor: {value: number}, wounds: number, resolve?: unknown}, effects: EffectLike[]}} actor
 * @param {string[]} before  The core statuses the request was made with.
 * @param {{hp: number, vigor: number, wounds: number, statuses: string[], resolve?: number | null}} after  The core's new target.
 * @returns {HealthChange}
 */
export function healthChange(actor, before, after) {
  const s = actor.system;
  /** @type {Record<string, number>} */
  const update = {};
  /** @type {Record<string, number>} */
  const previous = {};
  /** @type {[string, number, number][]} */
  const fields = [
    ["system.hp.value", s.hp.value, after.hp],
    ["system.vigor.value", s.vigor.value, after.vigor],
    ["system.wounds", s.wounds, after.wounds]
  ];
  if (typeof after.resolve === "number" && typeof s.resolve === "number") fields.push(["system.resolve", s.resolve, after.resolve]);
  for (const [key, old, now] of fields) {
    if (old !== now) {
      update[key] = now;
      previous[key] = old;
    }
  }
  const beforeIds = new Set(before.map(bare));
  const afterIds = new Set(after.statuses.map(bare));
  const ended = new Set([...beforeIds].filter(id => !afterIds.has(id) && !AUTOMATIC.has(id)));
  const deleted = actor.effects.filter(effect => effect.statuses.some(id => ended.has(id)));
  const createStatuses = [...afterIds].filter(id => !beforeIds.has(id) && !AUTOMATIC.has(id));
  return {
    update,
    deleteEffects: deleted.map(effect => effect.id),
    createStatuses,
    undo: { update: previous, restoreEffects: deleted.map(effect => effect.data), deleteEffects: [] }
  };
}

/**
 * The ActiveEffect source of a status the core adds. ICON statuses come from the system's status
 * list; states the list does not hold (immune after Defiance, fallen) get a plain effect.
 * @param {string} id
 * @param {(key: string) => string} localize
 * @returns {{name: string, img: string, description: string, statuses: string[], flags: object}}
 */
export function statusEffectData(id, localize) {
  const entry = statusEffects().find(status => status.id === id);
  if (entry) {
    return { name: localize(entry.name), img: entry.img, description: localize(entry.description), statuses: [id], flags: entry.flags };
  }
  return {
    name: localize(`ICONENGINE.Tactical.State.${id}`),
    img: "icons/svg/aura.svg",
    description: "",
    statuses: [id],
    flags: { [SYSTEM_ID]: { kind: "state", ongoing: false } }
  };
}

/**
 * The effects that end with the current turn: the immunity Defiance grants "for the rest of the
 * turn" (the plain `immune` state effect {@link statusEffectData} creates, never an ICON status),
 * and Hatred ("End this status at the end of your turn"), unless it is ongoing (+; read from
 * either generation's shape, module/data/effect-duration.mjs).
 * @param {Iterable<{id: string | null, statuses: Iterable<string>, flags?: {[SYSTEM_ID]?: {kind?: unknown, ongoing?: unknown}}, duration?: unknown}>} effects
 * @returns {string[]}  Effect ids to delete.
 */
export function endOfTurnEffectIds(effects) {
  const ids = [];
  for (const effect of effects) {
    const flags = effect.flags?.[SYSTEM_ID];
    const statuses = [...effect.statuses];
    if (!effect.id) continue;
    if (flags?.kind === "state" && statuses.includes("immune")) ids.push(effect.id);
    else if (statuses.includes("hatred") && effectDuration(effect) !== "ongoing") ids.push(effect.id);
  }
  return ids;
}

/**
 * Apply a dotted update to a plain copy of system data (what `Actor#update` does to the source);
 * for previews and tests.
 * @template {object} System
 * @param {System} system
 * @param {Record<string, number>} update  `system.*` keys.
 * @returns {System}  A new object.
 */
export function applyToSystem(system, update) {
  const copy = structuredClone(system);
  for (const [path, value] of Object.entries(update)) {
    const parts = path.replace(/^system\./, "").split(".");
    const last = /** @type {string} */ (parts.pop());
    // Plain nested data: each step down is another record.
    let node = /** @type {Record<string, unknown>} */ (copy);
    for (const part of parts) node = /** @type {Record<string, unknown>} */ (node[part]);
    node[last] = value;
  }
  return copy;
}
