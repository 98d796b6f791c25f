/**
 * The Foundry side of the ICON turn order, as pure functions: how a Combatant becomes a reducer
 * entry, who may send which event, and where Foundry's `turn` index points. The rules themselves
 * (turn counts, sides, slow turns, rounds) live in the core's `combatApply`; nothing here
 * re-derives them. No Foundry globals, so node tests run this exact code.
 */

/** The two sides of an ICON fight. */
export const SIDES = /** @type {const} */ (["party", "foes"]);

/**
 * What the module knows about a combatant, read from its Combatant, token and actor.
 * @typedef {object} CombatantFacts
 * @property {string} id                 The Combatant id (unique even for several unlinked tokens of one actor).
 * @property {string|null} actorType     "character", "foe", ... (null without an actor).
 * @property {string} [template]         A foe's template: "", "elite", "legend" or "mob".
 * @property {number} [disposition]      The token's disposition (1 friendly, 0 neutral, -1 hostile).
 * @property {""|"party"|"foes"} [side]  The GM's choice on the Combatant; "" = from actor and token.
 * @property {boolean} [canSlow]         The GM lets this foe take slow turns.
 */

/**
 * @typedef {object} CombatEntry
 * @property {string} id
 * @property {"party"|"foes"} side
 * @property {boolean} isPlayerCharacter
 * @property {"elite"|"legend"|"mob"|null} template
 * @property {boolean} canSlow
 */

/**
 * The reducer entry of a combatant. Player characters (actor type `character`) fight with the
 * party; other combatants join the party when the GM says so or their token is friendly (allied
 * NPCs), else they are foes. Templates only matter for turns per round, which the core counts.
 * @param {CombatantFacts} facts
 * @returns {CombatEntry}
 */
export function combatantEntry(facts) {
  const isPlayerCharacter = facts.actorType === "character";
  /** @type {"party"|"foes"} */
  let side;
  if (isPlayerCharacter) side = "party";
  else if (facts.side === "party" || facts.side === "foes") side = facts.side;
  else side = (facts.disposition ?? -1) > 0 ? "party" : "foes";
  const template = ["elite", "legend", "mob"].includes(facts.template ?? "")
    ? /** @type {"elite"|"legend"|"mob"} */ (facts.template) : null;
  return { id: facts.id, side, isPlayerCharacter, template, canSlow: !!facts.canSlow };
}

/**
 * May this user send this event? The GM may send anything. A player may act, go slow or mark a
 * delay for a combatant they own, and end the open turn of one they own; everything else
 * (starting, undo, resolve, the roster, ending the combat) is the GM's.
 * @param {{type: string, id?: string | null}} event
 * @param {{isGM: boolean, owns: (id: string) => boolean, currentId: string|null}} user
 * @returns {string|null}  null when allowed, else the i18n key of the reason.
 */
export function refusalFor(event, { isGM, owns, currentId }) {
  if (isGM) return null;
  switch (event.type) {
    case "beginTurn":
    case "goSlow":
    case "delay":
      return event.id && owns(event.id) ? null : "ICONENGINE.Combat.Refused.notYours";
    case "endTurn":
      return currentId && owns(currentId) ? null : "ICONENGINE.Combat.Refused.notYours";
    default:
      return "ICONENGINE.Combat.Refused.gmOnly";
  }
}

/**
 * Foundry's `turn` for a reducer state: the index of the combatant whose turn is open in the
 * Combat's turn order, or null between turns (so Foundry's turn marker and `combat.combatant`
 * follow the ICON turn).
 * @param {{current: {id: string}|null}|null} state
 * @param {string[]} turnIds  The ids of `combat.turns`, in order.
 * @returns {number|null}
 */
export function foundryTurn(state, turnIds) {
  const id = state?.current?.id;
  if (!id) return null;
  const index = turnIds.indexOf(id);
  return index >= 0 ? index : null;
}

/**
 * The core's healing target for an ICON actor's system data and its statuses (as `coreStatuses`
 * names them), or null for an actor without ICON health.
 * @param {{hp?: {value: number, max: number}, vigor?: {value: number}, armor?: number, wounds?: number} | null | undefined} system
 * @param {boolean} isPlayerCharacter
 * @param {string[]} statuses
 * @returns {object|null}
 */
export function healTarget(system, isPlayerCharacter, statuses) {
  if (!system?.hp || !Number.isFinite(system.hp.max) || system.hp.max < 1) return null;
  return {
    hp: system.hp.value, maxHp: system.hp.max, vigor: system.vigor?.value ?? 0, armor: system.armor ?? 0,
    wounds: system.wounds ?? 0, isPlayerCharacter, statuses
  };
}

/**
 * What the end of combat changes on one actor, from the core's `icon.heal` ("endCombat")
 * outcome: the system update (HP, vigor, and +1 personal resolve for a player character), and
 * the statuses the core cured (their effects are deleted).
 * @param {{hp: {value: number}, vigor?: {value: number}, resolve?: number}} system  The actor's system data before.
 * @param {{target: {hp: number, vigor: number, statuses: string[]}}} outcome
 * @param {string[]} statuses             What went in, as `coreStatuses` names them.
 * @param {boolean} gainsResolve          A player character the core listed for personal resolve.
 * @returns {{update: Record<string, number>, cured: string[]}}
 */
export function endOfCombatChanges(system, outcome, statuses, gainsResolve) {
  /** @type {Record<string, number>} */
  const update = {};
  if (outcome.target.hp !== system.hp.value) update["system.hp.value"] = outcome.target.hp;
  if (outcome.target.vigor !== (system.vigor?.value ?? 0)) update["system.vigor.value"] = outcome.target.vigor;
  if (gainsResolve) update["system.resolve"] = (system.resolve ?? 0) + 1;
  const kept = new Set(outcome.target.statuses);
  const cured = statuses.filter(s => !kept.has(s)).map(s => s.replace(/\+$/, ""));
  return { update, cured };
}
