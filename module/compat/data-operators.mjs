import { usesDataOperators } from "./generation.mjs";

/**
 * How an update deletes a key, per generation. v13 reads `"-=key": null`; v14 deletes with the
 * value `new foundry.data.operators.ForcedDeletion()` (api/v14 namespace foundry.data.operators)
 * and, from 14.36x, throws on the `-=` key ("You are specifying a forced deletion key ... using
 * legacy syntax"); dnd5e 5.3 and v14 systems write the operator. A v14 deletion of a key the
 * stored source lacks is dropped from the diff, so callers delete only keys that are stored.
 */

/**
 * Sets, in the (nested or dotted) update object `update`, the deletion of `key`.
 * @param {Record<string, unknown>} update  Changed in place.
 * @param {string} key                      The key's name in `update` (may be a dotted path).
 */
export function deleteKey(update, key) {
  if (usesDataOperators()) {
    const operators = /** @type {{foundry?: {data?: {operators?: {ForcedDeletion?: new () => object}}}}} */ (globalThis).foundry?.data?.operators;
    if (!operators?.ForcedDeletion) throw new Error("Foundry 14 has no foundry.data.operators.ForcedDeletion here");
    update[key] = new operators.ForcedDeletion();
    return;
  }
  const dot = key.lastIndexOf(".");
  update[dot < 0 ? `-=${key}` : `${key.slice(0, dot)}.-=${key.slice(dot + 1)}`] = null;
}

