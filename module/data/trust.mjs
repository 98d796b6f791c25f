/**
 * What the GM's client accepts from a record it did not write itself, as pure functions (no
 * Foundry globals), so node tests run this exact code (docs/security.md).
 *
 * An application of damage changes an actor's health fields and its status effects, and a
 * Vigilance spender's charges and Vigilance status; nothing else. An undo therefore restores only
 * those, however its record reads: a record that names other fields, other effects or other
 * amounts is cut down to what an application can have changed.
 */
import { SYSTEM_ID } from "../config.mjs";
import { statusEffects } from "./status-effects.mjs";
import { MAX_VIGILANCE } from "./vigilance.mjs";

/**
 * @import { HealthUndo } from "./health-changes.mjs"
 * @import { VigilanceSpent } from "../dice/cards/icon-tactical.mjs"
 */

/** The actor fields `icon.applyDamage` (and camp's resolve) write: all an undo may restore. */
export const HEALTH_FIELDS = Object.freeze(["system.hp.value", "system.vigor.value", "system.wounds", "system.resolve"]);

/**
 * The world setting (module/settings.mjs) that lets players apply damage from their own cards to
 * targets they do not own; off by default, as dnd5e: the GM or the target's owner applies.
 */
export const PLAYERS_APPLY_SETTING = "playersApplyDamage";

/** The states the core adds that are no entry of the status list (see `statusEffectData`). */
const STATES = ["immune", "fallen"];

/** The highest damage-roll key of a message (an attack has one per target; Foundry caps targets far below). */
export const MAX_KEY = 99;

/** A Foundry document id: 16 letters and digits. */
const DOCUMENT_ID = /^[A-Za-z0-9]{16}$/;

/** The status ids an application can add or end. */
export function knownStatuses() {
  return new Set([...statusEffects().map(s => s.id), ...STATES]);
}

/**
 * Whether `value` is a Foundry document id.
 * @param {unknown} value
 * @returns {value is string}
 */
export function isDocumentId(value) {
  return typeof value === "string" && DOCUMENT_ID.test(value);
}

/**
 * A message's damage-roll key from a request: a whole number from 0 to {@link MAX_KEY}, else null.
 * @param {unknown} value
 * @returns {number | null}
 */
export function checkedKey(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_KEY ? value : null;
}

/**
 * A whole number from `min` to `max`, else null.
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @returns {number | null}
 */
export function wholeIn(value, min, max) {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/**
 * A status effect's source as an application deletes and an undo recreates it: its id, name,
 * image, description, statuses (all of them ones the system knows) and the system's `kind` and
 * `ongoing` flags; nothing else (no changes, no other flags). Null when it is no status effect.
 * @param {unknown} data
 * @param {Set<string>} known  {@link knownStatuses}
 * @returns {ActiveEffect.Source | null}
 */
export function statusEffectSource(data, known) {
  if (!data || typeof data !== "object") return null;
  const source = /** @type {Record<string, unknown>} */ (data);
  const statuses = Array.isArray(source.statuses) ? source.statuses : [];
  if (!statuses.length || !statuses.every(s => typeof s === "string" && known.has(s))) return null;
  if (!isDocumentId(source._id)) return null;
  const flags = /** @type {Record<string, Record<string, unknown> | undefined> | undefined} */ (source.flags);
  const own = flags?.[SYSTEM_ID];
  const text = (/** @type {unknown} */ value) => (typeof value === "string" ? value.slice(0, 1000) : "");
  // The fields a status effect is made of (statusEffectData), as plain source data.
  return /** @type {ActiveEffect.Source} */ (/** @type {unknown} */ ({
    _id: source._id,
    name: text(source.name),
    img: text(source.img),
    description: text(source.description),
    statuses: [...new Set(/** @type {string[]} */ (statuses))],
    flags: { [SYSTEM_ID]: { kind: typeof own?.kind === "string" ? text(own.kind) : "status", ongoing: own?.ongoing === true } }
  }));
}

/**
 * An undo of a health change cut down to what an application can have changed: the health
 * fields (whole numbers, 0 or more), status effects to recreate, and effect ids to delete.
 * @param {unknown} undo
 * @param {Set<string>} known  {@link knownStatuses}
 * @returns {HealthUndo}
 */
export function healthUndoOnly(undo, known) {
  const raw = /** @type {{update?: unknown, restoreEffects?: unknown, deleteEffects?: unknown} | null} */ (
    undo && typeof undo === "object" ? undo : null);
  /** @type {Record<string, number>} */
  const update = {};
  const fields = raw?.update && typeof raw.update === "object" ? /** @type {Record<string, unknown>} */ (raw.update) : {};
  for (const key of HEALTH_FIELDS) {
    const value = wholeIn(fields[key], 0, 1_000_000);
    if (value !== null) update[key] = value;
  }
  const restore = Array.isArray(raw?.restoreEffects) ? raw.restoreEffects : [];
  const remove = Array.isArray(raw?.deleteEffects) ? raw.deleteEffects : [];
  return {
    update,
    restoreEffects: restore.slice(0, 50).map(data => statusEffectSource(data, known)).filter(data => data !== null),
    deleteEffects: remove.slice(0, 50).filter(isDocumentId)
  };
}

/**
 * Vigilance charges to give back, cut down to what a spend can have taken: 1 to
 * {@link MAX_VIGILANCE} charges, a d6's roll, and the Vigilance status the last charge ended.
 * Null when it is no spend.
 * @param {unknown} spent
 * @param {Set<string>} known
 * @returns {VigilanceSpent | null}
 */
export function vigilanceRefundOnly(spent, known) {
  if (!spent || typeof spent !== "object") return null;
  const raw = /** @type {Record<string, unknown>} */ (spent);
  const charges = wholeIn(raw.charges, 1, MAX_VIGILANCE);
  if (typeof raw.uuid !== "string" || charges === null) return null;
  const restore = Array.isArray(raw.restoreEffects) ? raw.restoreEffects : [];
  return {
    uuid: raw.uuid,
    name: typeof raw.name === "string" ? raw.name : "",
    charges,
    rolled: wholeIn(raw.rolled, 0, 6) ?? 0,
    restoreEffects: restore.slice(0, 5).map(data => statusEffectSource(data, known))
      .filter(data => data !== null && data.statuses.length === 1 && data.statuses[0] === "vigilance")
      .map(data => /** @type {ActiveEffect.Source} */ (data))
  };
}

/**
 * Who may apply (or undo) a card's damage to a target: the GM, the target's owner, or, when the
 * world lets players apply damage from their own cards, the card's author.
 * @param {{isGM: boolean, ownsTarget: boolean, isAuthor: boolean, playersApply: boolean}} facts
 */
export function mayApplyDamage({ isGM, ownsTarget, isAuthor, playersApply }) {
  return isGM || ownsTarget || (playersApply && isAuthor);
}

/** `icon.applyDamage` fields a card's options never set: the GM's client gives them itself. */
const GIVEN = new Set(["kind", "target", "amount", "vigilance"]);

/**
 * A card's `icon.applyDamage` options as the GM's client passes them on: plain flags and numbers
 * (the core refuses unknown names and wrong types), never the request's kind, target, amount or
 * Vigilance, which the GM's client computes from the target actor, the roll and the spender.
 * @param {unknown} options
 * @returns {Record<string, boolean | number | string>}
 */
export function applyOptionsOnly(options) {
  /** @type {Record<string, boolean | number | string>} */
  const out = {};
  if (!options || typeof options !== "object" || Array.isArray(options)) return out;
  for (const [name, value] of Object.entries(options)) {
    if (GIVEN.has(name) || name === "__proto__" || name === "constructor") continue;
    if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) || typeof value === "string") out[name] = value;
  }
  return out;
}
