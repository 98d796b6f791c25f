import { recharge } from "../data/ability-rules.mjs";
import { endsAtTurnEnd } from "../data/effect-duration.mjs";
import { HOOKS, callAfter } from "../hooks.mjs";
import { eachActorApart } from "./each-actor.mjs";

/**
 * @import { Moment } from "../data/ability-rules.mjs"
 */

/**
 * Give an actor's items back what a moment gives them (ability-rules.mjs `recharge`): their
 * charges when they recharge then, and their once-per marks. One update for all of them;
 * `icon-engine.recharge` (actor, moment, updates) follows when anything changed.
 * @param {Actor.Implementation} actor
 * @param {Moment} moment
 * @param {{own?: boolean}} [context]  For a turn's end: whether it is this actor's turn.
 * @returns {Promise<object[]>}  The updates made.
 */
export async function rechargeItems(actor, moment, { own = false } = {}) {
  /** @type {Record<string, unknown>[]} */
  const updates = [];
  for (const item of actor.items ?? []) {
    const change = recharge(/** @type {import("../data/ability-rules.mjs").AbilityLike} */ (item.system), moment, { own });
    if (Object.keys(change).length) updates.push({ _id: item.id, ...change });
  }
  if (!updates.length) return updates;
  // Dotted `system.*` keys, which Foundry's update expands.
  await actor.updateEmbeddedDocuments("Item", /** @type {Item.UpdateData[]} */ (/** @type {unknown} */ (updates)));
  callAfter(HOOKS.recharge, actor, moment, updates);
  return updates;
}

/**
 * The turn order's moments, as the reducer's effects say them (module/documents/combat-effects.mjs
 * awaits this for each one, on the active GM): a turn's end recharges its owner's `turn` charges,
 * clears every once-per-turn mark and ends the statuses that last to the end of its owner's turn;
 * a round's start and the combat's end recharge and clear theirs. Each actor apart: one whose
 * items cannot be written is skipped and reported, the others recharge.
 * @param {Combat.Implementation} combat
 * @param {{type: string, id?: string}} effect  A reducer effect.
 * @returns {Promise<{actor: Actor.Implementation, ended: string[]}[]>}  The statuses each actor's
 *   turn end ended (their effects' names), for the actors it ended any.
 */
export async function runMoment(combat, effect) {
  const moment = effect.type === "turnEnded" ? "turnEnd" : effect.type === "roundStarted" ? "roundStart"
    : effect.type === "combatEnded" ? "combatEnd" : null;
  if (!moment) return [];
  /** @type {Map<string, {actor: Actor.Implementation, ids: Set<string>}>} */
  const found = new Map();
  for (const c of combat.combatants) {
    const actor = c.actor;
    if (!actor) continue;
    const entry = found.get(actor.uuid) ?? { actor, ids: new Set() };
    entry.ids.add(c.id ?? "");
    found.set(actor.uuid, entry);
  }
  const owners = new Map([...found.values()].map(({ actor, ids }) => [actor, !!effect.id && ids.has(effect.id)]));
  const done = await eachActorApart("recharge", owners.keys(), async actor => {
    const own = !!owners.get(actor);
    await rechargeItems(actor, moment, { own });
    return { actor, ended: own && moment === "turnEnd" ? await endTurnEffects(actor) : [] };
  });
  return done.filter(d => d.ended.length);
}

/**
 * Statuses an ability inflicted "to the end of the affected character's next turn" (on v14 the
 * system's expiry event, on v13 `flags.icon-engine.endsAtTurnEnd`: module/data/effect-duration.mjs)
 * end with its turn. Core never ends them (the expiry is the system's own), so they end once, here.
 * @param {Actor.Implementation} actor
 * @returns {Promise<string[]>}  The ended effects' names.
 */
async function endTurnEffects(actor) {
  const gone = actor.effects.filter(e => endsAtTurnEnd(e));
  if (gone.length) await actor.deleteEmbeddedDocuments("ActiveEffect", gone.map(e => e.id ?? ""));
  return gone.map(e => e.name ?? "");
}
