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
import { durationSource, effectDuration } from "./effect-duration.mjs";
import { statusEffects } from "./status-effects.mjs";
import { MAX_VIGILANCE } from "./vigilance.mjs";
import { MARK_FLAG } from "./marks.mjs";

/**
 * @import { HealthUndo } from "./health-changes.mjs"
 * @import { AppliedDamage, VigilanceSpent } from "../dice/cards/icon-tactical.mjs"
 * @import { AppliedEffect } from "../dice/cards/ability-card.mjs"
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
 * image, description, statuses (all of them ones the system knows), the system's `kind` and
 * `ongoing` flags and how it lasts (a status to the end of its bearer's turn keeps that, in the
 * running generation's shape: module/data/effect-duration.mjs); nothing else (no changes, no
 * other flags). Null when it is no status effect.
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
  const text = (/** @type {unknown} */ value) => (typeof value === "string" ? value.slice(0, 300) : "");
  const lasts = effectDuration({ flags, duration: source.duration }) === "turn" ? durationSource("turn") : null;
  // The fields a status effect is made of (statusEffectData), as plain source data.
  return /** @type {ActiveEffect.Source} */ (/** @type {unknown} */ ({
    _id: source._id,
    name: text(source.name),
    img: text(source.img),
    description: text(source.description),
    statuses: [...new Set(/** @type {string[]} */ (statuses))],
    flags: { [SYSTEM_ID]: { kind: typeof own?.kind === "string" ? text(own.kind) : "status", ongoing: own?.ongoing === true, ...lasts?.flags } },
    ...(lasts?.duration ? { duration: lasts.duration } : {})
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
    restoreEffects: restore.slice(0, 32).map(data => statusEffectSource(data, known)).filter(data => data !== null),
    deleteEffects: remove.slice(0, 32).filter(isDocumentId)
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

/** @param {unknown} value @param {number} max */
const capped = (value, max) => (typeof value === "string" ? value.slice(0, max) : "");

/** @param {unknown} value @returns {Record<string, unknown>} */
const fields = value => (value && typeof value === "object" && !Array.isArray(value) ? /** @type {Record<string, unknown>} */ (value) : {});

/** @param {unknown} value */
const integer = value => (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= 1_000_000 ? value : 0);

/**
 * A mark effect's source as an application deletes it (the placer's older mark) and an undo
 * recreates it: a status effect's fields and the system's mark flag (a name of at most 100
 * characters, the placer's uuid and name); null when it is no mark.
 * @param {unknown} data
 * @param {Set<string>} known
 * @returns {ActiveEffect.Source | null}
 */
export function markEffectSource(data, known) {
  // A mark effect carries the `marked` status, which is no status of the token HUD's list.
  const source = statusEffectSource(data, new Set([...known, "marked"]));
  if (source && (source.statuses.length !== 1 || source.statuses[0] !== "marked")) return null;
  const mark = fields(fields(fields(fields(data).flags)[SYSTEM_ID])[MARK_FLAG]);
  if (!source || typeof mark.mark !== "string" || !mark.mark.trim() || typeof mark.placer !== "string") return null;
  const own = /** @type {Record<string, Record<string, unknown>>} */ (/** @type {unknown} */ (source.flags));
  own[SYSTEM_ID][MARK_FLAG] = { mark: capped(mark.mark, 100), placer: capped(mark.placer, 300), placerName: capped(mark.placerName, 100) };
  return source;
}

/**
 * An applied damage as the GM's records keep it: ids, numbers and capped text only (names of at
 * most 100 characters, at most 32 steps, the undo cut as {@link healthUndoOnly} cuts it), so no
 * record grows with what a player writes on their own actors.
 * @param {unknown} applied
 * @param {Set<string>} [known]
 * @returns {AppliedDamage}
 */
export function boundedApplied(applied, known = knownStatuses()) {
  const a = fields(applied);
  const after = fields(a.after);
  /** @type {AppliedDamage} */
  const out = {
    targetUuid: capped(a.targetUuid, 300),
    targetName: capped(a.targetName, 100),
    dealt: integer(a.dealt),
    steps: (Array.isArray(a.steps) ? a.steps : []).slice(0, 32).map(step => {
      const s = fields(step);
      return { rule: capped(s.rule, 40), change: integer(s.change), amount: integer(s.amount) };
    }),
    counter: wholeIn(a.counter, 0, 100) ?? 0,
    after: { hp: integer(after.hp), vigor: integer(after.vigor), wounds: integer(after.wounds), defeated: after.defeated === true,
      fallen: after.fallen === true },
    undo: healthUndoOnly(a.undo, known),
    userId: capped(a.userId, 16)
  };
  if (a.counterDone === true) out.counterDone = true;
  if (a.slashed === true) out.slashed = true;
  if (a.terrain === true) out.terrain = true;
  const vigilance = vigilanceRefundOnly(a.vigilance, known);
  if (vigilance) out.vigilance = { ...vigilance, uuid: capped(vigilance.uuid, 300), name: capped(vigilance.name, 100) };
  return out;
}

/**
 * An applied part as the GM's records keep it: who applied it, whether it landed, the effects it
 * created (ids), the marks it ended (as {@link markEffectSource} cuts them), the token it moved and
 * the collision's damage; nothing else.
 * @param {unknown} applied
 * @param {Set<string>} [known]
 * @returns {AppliedEffect}
 */
export function boundedEffect(applied, known = knownStatuses()) {
  const a = fields(applied);
  const point = (/** @type {unknown} */ p) => ({ x: integer(fields(p).x), y: integer(fields(p).y) });
  const moved = a.moved ? fields(a.moved) : null;
  return {
    userId: capped(a.userId, 16),
    landed: a.landed === true,
    blockedBy: typeof a.blockedBy === "string" ? capped(a.blockedBy, 32) : null,
    created: (Array.isArray(a.created) ? a.created : []).slice(0, 16).map(c => ({ actor: capped(fields(c).actor, 300), id: capped(fields(c).id, 16) }))
      .filter(c => c.actor && isDocumentId(c.id)),
    restored: (Array.isArray(a.restored) ? a.restored : []).slice(0, 16)
      .map(r => ({ actor: capped(fields(r).actor, 300), source: markEffectSource(fields(r).source, known) ?? statusEffectSource(fields(r).source, known) }))
      .filter(r => r.actor && r.source !== null)
      .map(r => ({ actor: r.actor, source: /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (r.source)) })),
    moved: moved ? { token: capped(moved.token, 300), from: point(moved.from), to: point(moved.to), spaces: wholeIn(moved.spaces, 0, 100) ?? 0,
      // a teleport's (its undo teleports back)
      collided: moved.collided === true, ...(moved.action === "blink" ? { action: "blink" } : {}) } : null,
    collision: a.collision ? boundedApplied(a.collision, known) : null
  };
}
