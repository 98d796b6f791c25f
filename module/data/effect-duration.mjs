import { SYSTEM_ID } from "../config.mjs";
import { usesEffectsV2 } from "../compat/generation.mjs";

/**
 * How an ICON status lasts, read and written in one place for both Foundry generations, so no
 * caller branches on the generation (issue 40 §4). ICON's durations (module/data/ability-rules.mjs
 * `EFFECT_DURATIONS`): "save" ("make a save to end most Statuses"), "ongoing" (+: "can't be ended
 * until the thing causing it ... is ended"), "turn" (to the end of the affected character's next
 * turn) and "cure" (a blight: "Blights need to be cured to be removed").
 *
 * Where each lives:
 * - "turn" on v14 is the effect's own `duration` (api/v14 `EffectDurationData`: `{value, units,
 *   expiry, expired}`): `{value: 0, units: "turns", expiry: TURN_END_EXPIRY}` (`icon-engine.turnEnd`), an expiry event
 *   of the system's own (`CONFIG.ActiveEffect.expiryEvents`, whose handling core leaves to the
 *   package: `CONST.ACTIVE_EFFECT_EXPIRY_EVENTS` "Other events can be defined by systems and
 *   modules, with their handling also left to them"). Not core's "turnEnd": core's
 *   `ActiveEffect#isExpiryEvent("turnEnd")` matches the turn of the effect's `start.combatant`,
 *   the combatant whose turn it was when the effect began (the inflicter's, mostly), and
 *   Foundry's own Crucible overrides `_preCreate` and `isExpiryEvent` to make it the target's;
 *   ICON's turns are its reducer's, not Foundry's `combat.previous`. With a package event core
 *   never acts: `isExpiryEvent` is false for every core event and for `updateWorldTime` (a
 *   non-core expiry), and only the tracker (module/documents/item-recharge.mjs) ends the effect, at
 *   the end of its bearer's turn, deleting it (core's `expiryAction` would only mark it expired).
 *   On v13 (no expiry field: v13's duration is `{rounds, turns, seconds, startRound, ...}`) it is
 *   the flag `flags.icon-engine.endsAtTurnEnd`, as before.
 * - "ongoing", "cure" and "save" have no core expiry on either generation (nothing in time ends
 *   them: a cause lifted, a cure, a save), so they stay in `flags.icon-engine` (`ongoing`,
 *   `kind: "blight"`; nothing for a save), their duration "truly indefinite" on v14 (value and
 *   expiry null). Not in `system`: a status effect is core's (`toggleStatusEffect` builds it from
 *   `CONFIG.statusEffects`, type "base"), flags read alike on 13 and 14, and a system model would
 *   need a registered ActiveEffect type and a migration of every world's effects.
 *
 * Every reader reads both shapes on both generations: an effect written by an older version
 * (flags only) or on the other generation reads the same.
 */

/** The system's expiry event: the end of the affected character's next turn, as ICON's tracker says. */
export const TURN_END_EXPIRY = `${SYSTEM_ID}.turnEnd`;

/** @typedef {"save" | "ongoing" | "turn" | "cure"} IconDuration */

/**
 * An effect as the reader needs it: an ActiveEffect or its source data.
 * @typedef {{flags?: unknown, duration?: unknown} | null | undefined} DurationBearer
 */

/**
 * The system's own flags of an effect.
 * @param {DurationBearer} effect
 * @returns {Record<string, unknown>}
 */
function ownFlags(effect) {
  const flags = /** @type {Record<string, unknown> | null | undefined} */ (effect?.flags);
  const own = flags?.[SYSTEM_ID];
  return own && typeof own === "object" ? /** @type {Record<string, unknown>} */ (own) : {};
}

/**
 * How an effect ends, whichever shape it was written in.
 * @param {DurationBearer} effect
 * @returns {IconDuration}
 */
export function effectDuration(effect) {
  const own = ownFlags(effect);
  if (own.ongoing === true) return "ongoing";
  if (own.kind === "blight") return "cure";
  const expiry = /** @type {{expiry?: unknown} | null | undefined} */ (effect?.duration)?.expiry;
  if (own.endsAtTurnEnd === true || expiry === TURN_END_EXPIRY) return "turn";
  return "save";
}

/**
 * Whether no save ends it: ongoing (+), or a blight, which only a cure ends. The core reads both
 * as `id+` (module/data/rules.mjs `coreStatuses`), which `iconSaveable` leaves out.
 * @param {DurationBearer} effect
 */
export function isUnsaveable(effect) {
  const duration = effectDuration(effect);
  return duration === "ongoing" || duration === "cure";
}

/**
 * Whether it ends at the end of its bearer's turn (the tracker ends it; module/documents/item-recharge.mjs).
 * @param {DurationBearer} effect
 */
export function endsAtTurnEnd(effect) {
  return effectDuration(effect) === "turn";
}

/**
 * What an effect's source holds of an ICON duration, in the running generation's shape (`v14` to
 * choose): the system's flags (`flags.icon-engine`), and on v14 for "turn" the effect's
 * `duration`. A "save" holds nothing of its own.
 * @param {IconDuration} duration
 * @param {{v14?: boolean}} [options]
 * @returns {{flags: Record<string, unknown>, duration?: Pick<import("../types/foundry-v14.js").EffectDurationDataV14, "value" | "units" | "expiry">}}
 */
export function durationSource(duration, { v14 = usesEffectsV2() } = {}) {
  switch (duration) {
    case "ongoing": return { flags: { ongoing: true } };
    case "cure": return { flags: { kind: "blight" } };
    case "turn": return v14 ? { flags: {}, duration: { value: 0, units: "turns", expiry: TURN_END_EXPIRY } } : { flags: { endsAtTurnEnd: true } };
    default: return { flags: {} };
  }
}

/**
 * The update that gives an effect an ICON duration ({@link durationSource}), as dotted keys that
 * merge into what the effect holds (its other flags stay).
 * @param {IconDuration} duration
 * @param {{v14?: boolean}} [options]
 * @returns {Record<string, unknown>}  Dotted keys for `updateEmbeddedDocuments`.
 */
export function durationUpdate(duration, options = {}) {
  const source = durationSource(duration, options);
  /** @type {Record<string, unknown>} */
  const update = {};
  for (const [key, value] of Object.entries(source.flags)) update[`flags.${SYSTEM_ID}.${key}`] = value;
  for (const [key, value] of Object.entries(source.duration ?? {})) update[`duration.${key}`] = value;
  return update;
}

/**
 * Register the system's expiry event (v14 `CONFIG.ActiveEffect.expiryEvents`, read in `init`:
 * core caches the list the first time it reads it), so an effect's sheet names it. Nothing on v13.
 * @param {{ActiveEffect?: Partial<import("../types/foundry-v14.js").ActiveEffectConfigV14>}} config  `CONFIG` (v14's, or v13's without the list).
 */
export function registerExpiryEvents(config) {
  const events = config.ActiveEffect?.expiryEvents;
  if (events) events[TURN_END_EXPIRY] = "ICONENGINE.Status.Expiry.turnEnd";
}
