/**
 * A forecast request from Foundry's documents: the running combat (its reducer state and each
 * combatant's actor), or a planned fight (actors, with the side each fights on). What each
 * fighter is made of is module/forecast/fighters.mjs.
 */

import ActorStatuses from "../documents/actor-statuses.mjs";
import { combatantEntry } from "../data/combat-rules.mjs";
import { fighterOf } from "./fighters.mjs";

/**
 * The forecast's options (docs/js-contract.md).
 * @typedef {object} ForecastOptions
 * @property {number} [fights]
 * @property {number | null} [seed]
 * @property {{party?: string, foes?: string}} [policy]
 * @property {number} [areaTargets]
 * @property {number} [maxRounds]
 */

/**
 * An actor's fighter.
 * @param {Actor.Implementation} actor
 * @param {string} id
 * @param {{side: "party"|"foes", isPlayerCharacter: boolean, template: "elite"|"legend"|"mob"|null, canSlow: boolean}} entry
 */
export function actorFighter(actor, id, entry) {
  const items = actor.items.contents.map(i => ({ type: i.type, name: i.name, system: /** @type {Record<string, any>} */ (i.system) }));
  return fighterOf({ id, entry, system: /** @type {Record<string, any>} */ (actor.system), statuses: ActorStatuses.statusesOf(actor), items });
}

/**
 * The request of a running combat: every combatant with an actor that is not a summon, from the
 * reducer's state as stored.
 * @param {import("../documents/icon-combat.mjs").default} combat
 * @param {ForecastOptions} [options]
 */
export function combatRequest(combat, options = {}) {
  const state = combat.iconState;
  if (!state) throw new Error("the combat has not started");
  const fighters = [];
  for (const c of combat.combatants) {
    const combatant = /** @type {import("../documents/icon-combatant.mjs").default} */ (/** @type {unknown} */ (c));
    const row = combatant.iconRow;
    if (!c.actor || !row || row.summoner) continue;
    /** @type {"elite"|"legend"|"mob"|null} */
    const template = row.template === "elite" || row.template === "legend" || row.template === "mob" ? row.template : null;
    const entry = { side: row.side, isPlayerCharacter: !!row.isPlayerCharacter, template, canSlow: !!row.canSlow };
    fighters.push(actorFighter(c.actor, /** @type {string} */ (c.id), entry));
  }
  return { fighters, combat: JSON.stringify(state), options };
}

/**
 * A planned fighter: an actor and the side it fights on (from its type and token's disposition
 * when not given).
 * @typedef {object} PlannedFighter
 * @property {Actor.Implementation} actor
 * @property {"party"|"foes"} [side]
 * @property {number} [disposition]
 */

/**
 * The request of a planned fight, which starts as a new combat would.
 * @param {PlannedFighter[]} planned
 * @param {ForecastOptions} [options]
 */
export function plannedRequest(planned, options = {}) {
  const fighters = planned.map(({ actor, side, disposition }, i) => {
    const id = `planned${i}`;
    const system = /** @type {{template?: string}} */ (actor.system);
    const e = combatantEntry({ id, actorType: actor.type, template: system.template, disposition, side: side ?? "" });
    return actorFighter(actor, id, { side: e.side, isPlayerCharacter: e.isPlayerCharacter, template: e.template, canSlow: e.canSlow });
  });
  return { fighters, options };
}
