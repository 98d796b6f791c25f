import { SYSTEM_ID } from "../config.mjs";
import { format, localize } from "../applications/i18n.mjs";

/**
 * Work on several actors one apart from another, as the turn order's effects do (a turn's start
 * and end, the saves card, summons leaving, recharges, the end of combat): a refusal for one actor
 * (the core refusing its data, a write that fails) skips that actor only. It is logged to the
 * console, and the GM whose client runs the effects is told once, naming the actor and the rule.
 * The others go on as if nothing happened.
 * @template T
 * @param {string} rule  What is being done, an i18n key under `ICONENGINE.Combat.Rule`.
 * @param {Iterable<Actor.Implementation>} actors
 * @param {(actor: Actor.Implementation) => Promise<T>} fn
 * @returns {Promise<T[]>}  What `fn` gave, for the actors it did not skip.
 */
export async function eachActorApart(rule, actors, fn) {
  /** @type {T[]} */
  const out = [];
  for (const actor of actors) {
    try {
      out.push(await fn(actor));
    } catch (error) {
      reportSkipped(rule, actor, error);
    }
  }
  return out;
}

/**
 * The console error and the GM's notice of an actor skipped by a rule.
 * @param {string} rule  An i18n key under `ICONENGINE.Combat.Rule`.
 * @param {{name?: string | null, uuid?: string}} actor
 * @param {unknown} error
 */
export function reportSkipped(rule, actor, error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`${SYSTEM_ID} | ${rule}: ${actor.name ?? ""} (${actor.uuid ?? ""}) skipped`, error);
  if (!game.user?.isGM) return;
  ui.notifications?.error(format("ICONENGINE.Combat.Skipped", {
    name: actor.name ?? "", rule: localize(`ICONENGINE.Combat.Rule.${rule}`), message
  }));
}
