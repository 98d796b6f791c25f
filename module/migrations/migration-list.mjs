import { STATE_VERSION } from "../applications/combat/tracker-context.mjs";
import { loadCore } from "../core.mjs";
import { migrateAbilitySource } from "../data/ability-rules.mjs";

/**
 * The world data migrations, oldest first. Each brings a world from data version `version - 1` to
 * `version`; the runner (migration-runner.mjs) runs the ones a world has not had yet, on `ready`,
 * for the active GM, and records the version after each.
 *
 * To add one, append a line, e.g. for a new shape of the Combat's stored state:
 *
 *   { version: 1, label: 'ICONENGINE.Migration.label.combatState', documents: { Combat: convertCombatState } },
 *
 * where convertCombatState(source) gets a copy of one Combat's stored data (`toObject()`) and
 * returns it converted, or null when it is already in the new shape (a world made by a newer
 * version of the system runs the migration too). It never writes (no document calls): the runner
 * writes once every converter has run, so a throw leaves every document as it was. It may be async
 * to wait for something it reads, e.g. the rules core (`await loadCore()` from module/core.mjs).
 * Add the label to lang/en.json.
 * @type {readonly import("./migration-runner.mjs").Migration[]}
 */
export const MIGRATIONS = Object.freeze([
  { version: 1, label: "ICONENGINE.Migration.label.combatState", documents: { Combat: convertCombatState } },
  { version: 2, label: "ICONENGINE.Migration.label.combatState", documents: { Combat: convertCombatState } },
  { version: 3, label: "ICONENGINE.Migration.label.abilityRange", stored: true,
    documents: { Item: convertAbilityRange, Actor: convertActorAbilityRanges } }
]);

/**
 * Migration 3: an ability's `range` stored as free text (its older shape) is stored as today's
 * `{kind, value}`, its unread text at the head of the description (ability-rules.mjs
 * migrateAbilitySource). AbilityData's `migrateData` converts it whenever the item is read, but
 * never writes: without this, the old text stays in the database, is converted again on every
 * load, and is lost at the next edit that writes the description. Reads the stored data (`stored`).
 * @type {import("./migration-runner.mjs").MigrateSource}
 */
function convertAbilityRange(source) {
  return convertAbility(source) ? source : null;
}

/**
 * Migration 3 for the abilities an actor holds (its embedded items).
 * @type {import("./migration-runner.mjs").MigrateSource}
 */
function convertActorAbilityRanges(source) {
  const items = Array.isArray(source.items) ? /** @type {Record<string, unknown>[]} */ (source.items) : [];
  let changed = false;
  for (const item of items) changed = convertAbility(item) || changed;
  return changed ? source : null;
}

/**
 * An ability item's stored data converted in place.
 * @param {Record<string, unknown>} item
 * @returns {boolean} whether anything changed
 */
function convertAbility(item) {
  const system = /** @type {Record<string, unknown> | undefined} */ (item.system);
  if (item.type !== "ability" || !system || typeof system.range !== "string") return false;
  migrateAbilitySource(system);
  return true;
}

/**
 * Migrations 1 and 2: a Combat's turn-order state in an older shape is stored in today's.
 * Version 1 (no `v`) carried its undo history as snapshots; version 2 stored
 * each combatant as an object of named fields, version 3 as an array. The core's `upgrade` event
 * converts either (nothing about the fight changes); states already in today's shape and combats
 * not started are left alone. IconCombat also converts on the GM's next event, so this only saves
 * every client the conversion on load.
 * @type {import("./migration-runner.mjs").MigrateSource}
 */
async function convertCombatState(source) {
  const system = /** @type {{state?: {v?: number} | null} | undefined} */ (source.system);
  const state = system?.state;
  if (!system || !state || state.v === STATE_VERSION) return null;
  const core = await loadCore();
  system.state = core.combatApply(state, { type: "upgrade" }).state;
  return source;
}
