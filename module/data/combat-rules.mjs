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
 * @property {string|null} [summonerId]  The Combatant id of its summoner, when it is a summon.
 */

/**
 * @typedef {object} CombatEntry
 * @property {string} id
 * @property {"party"|"foes"} side
 * @property {boolean} isPlayerCharacter
 * @property {"elite"|"legend"|"mob"|null} template
 * @property {boolean} canSlow
 * @property {string|null} summoner
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
  return { id: facts.id, side, isPlayerCharacter, template, canSlow: !!facts.canSlow, summoner: facts.summonerId ?? null };
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
 * @param {{current?: {id: string}|null}|null} state
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
 * @returns {{hp: number, maxHp: number, vigor: number, armor: number, wounds: number, isPlayerCharacter: boolean, statuses: string[]}|null}
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

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
const isPlainObject = value => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The change that turns `before` into `after`, as Foundry merges an object field's update into
 * its source: nested objects key by key, a deletion for a key that is gone (v13's `-=key: null`, v14's
 * ForcedDeletion: compat/data-operators.mjs), anything else
 * (arrays, numbers, strings, null) replaced whole. Only what differs is in it, so a turn sends a
 * few hundred bytes, not the whole state. How a key is deleted is the generation's
 * (`deleteKey` from compat/data-operators.mjs), passed in so that this stays free of Foundry.
 * @param {Record<string, unknown>} before
 * @param {Record<string, unknown>} after
 * @param {(update: Record<string, unknown>, key: string) => void} deleteKey
 * @returns {Record<string, unknown>}
 */
export function stateDiff(before, after, deleteKey) {
  /** @type {Record<string, unknown>} */
  const diff = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isPlainObject(value) && isPlainObject(old)) {
      const inner = stateDiff(old, value, deleteKey);
      if (Object.keys(inner).length) diff[key] = inner;
    } else if (!(key in before) || JSON.stringify(old) !== JSON.stringify(value)) diff[key] = value;
  }
  for (const key of Object.keys(before)) if (!(key in after)) deleteKey(diff, key);
  return diff;
}

/**
 * The Combat update for a new reducer state: Foundry's `round` and `turn` (so its turn marker and
 * `combat.combatant` follow the ICON turn) and only what changed in `system.state`, diffed against
 * what is stored (so a state stored in version 1's shape loses its old keys).
 * @param {unknown} stored             `system.state` as stored (the Combat's source).
 * @param {import("../applications/combat/tracker-context.mjs").CombatState | null} state  The reducer's new state, or null.
 * @param {string[]} turnIds           The ids of `combat.turns`, in order.
 * @param {(update: Record<string, unknown>, key: string) => void} deleteKey  The generation's deletion (stateDiff).
 * @returns {{round: number, turn: number|null, "system.state"?: unknown}}
 */
export function combatUpdate(stored, state, turnIds, deleteKey) {
  /** @type {{round: number, turn: number|null, "system.state"?: unknown}} */
  const update = { round: state?.round ?? 0, turn: foundryTurn(state, turnIds) };
  if (!state || !isPlainObject(stored)) update["system.state"] = state ?? null;
  else {
    const diff = stateDiff(stored, state, deleteKey);
    if (Object.keys(diff).length) update["system.state"] = diff;
  }
  return update;
}

/**
 * What the end of a character's own turn does to it, from its statuses (as `coreStatuses` names
 * them): Regeneration, "If bloodied, gain 4 vigor at the end of your turn" (whether it is
 * bloodied, and how much vigor, is the core's `icon.heal` "regeneration"); Hatred of X "End this
 * status at the end of your turn" (an ongoing `hatred+` stays until its cause is lifted).
 * @param {string[]} statuses
 * @returns {{regenerates: boolean, ends: string[]}}
 */
export function endOfTurn(statuses) {
  return {
    regenerates: statuses.some(s => s.replace(/\+$/, "") === "regeneration"),
    ends: statuses.filter(s => s === "hatred")
  };
}

/* -------------------------------------------- */
/*  A stored state's size, before it is read     */
/* -------------------------------------------- */

/**
 * The most characters of JSON a stored combat state may have (the core refuses a state text past
 * as many bytes, src/combat/stored.rs `MAX_STATE_JSON`). A state this core writes stays far below
 * it: 1,000 combatants with Foundry's 16-character ids are about 40 KB, and the undo log keeps at
 * most 100 steps holding at most 2,000 combatants' records; with every id at its longest (256
 * bytes) a state is still about 1.2 MB.
 */
export const MAX_STATE_JSON = 4 * 1024 * 1024;

/** Values nest at most this deep in a state (module/core-arguments.mjs `MAX_DEPTH`). */
const MAX_STATE_DEPTH = 64;

/**
 * How many characters of JSON a stored state has at least (strings without their escapes,
 * numbers at one digit), counted as it is walked and no further than just past `limit`: a state
 * of one long string or one long array is refused from its length alone, and at most `limit`
 * small values are ever looked at. Nested deeper than JSON is read counts as past the limit.
 * @param {unknown} state
 * @param {number} [limit]
 * @returns {number}  The count; past `limit` when the state is too large (the walk stopped there).
 */
export function stateSize(state, limit = MAX_STATE_JSON) {
  let size = 0;
  /** @param {unknown} value @param {number} depth @returns {boolean} Whether to go on. */
  const walk = (value, depth) => {
    switch (typeof value) {
      case "string": size += value.length + 2; break;
      case "number": size += 1; break;
      case "boolean": size += 4; break;
      case "object": {
        if (value === null) { size += 4; break; }
        if (depth >= MAX_STATE_DEPTH) { size = limit + 1; return false; }
        if (Array.isArray(value)) {
          // brackets and commas first: a long array is refused before its elements are read
          size += 1 + Math.max(1, value.length);
          if (size > limit) return false;
          for (const item of value) if (!walk(item, depth + 1)) return false;
          break;
        }
        const keys = Object.keys(value);
        size += 1 + Math.max(1, keys.length * 4);
        if (size > limit) return false;
        const record = /** @type {Record<string, unknown>} */ (value);
        for (const key of keys) {
          size += key.length;
          if (!walk(record[key], depth + 1)) return false;
        }
        break;
      }
      default: break;
    }
    return size <= limit;
  };
  walk(state, 0);
  return size;
}

/* -------------------------------------------- */
/*  Steps a player causes on their own documents */
/* -------------------------------------------- */

/** The keys of a stored state that hold its undo log (src/combat/stored.rs). */
export const LOG_KEYS = /** @type {const} */ (["log", "logged", "forgotten", "logWeight", "forgotBy"]);

/**
 * `after` with the undo log of `before`: the change stands, and no step records it.
 * @template {Record<string, unknown>} S
 * @param {S} after
 * @param {Record<string, unknown>} before
 * @returns {S}
 */
export function withLogOf(after, before) {
  /** @type {Record<string, unknown>} */
  const out = { ...after };
  for (const key of LOG_KEYS) {
    if (key in before) out[key] = before[key];
    else delete out[key];
  }
  return /** @type {S} */ (out);
}

/**
 * Whether `after` differs from `before` only in the combatant `id` (its row, its coming or its
 * going) and in what is recomputed for display (`next`, each row's turns per round) or numbers
 * the next one to join (`nextNumber`): nothing else of the fight (the round, the open turn, the
 * sides' slots, resolve, anyone else's turns taken or waiting) moved. The undo log is not
 * compared.
 * @param {Record<string, unknown>} before
 * @param {Record<string, unknown>} after
 * @param {string} id
 * @returns {boolean}
 */
export function onlyConcerns(before, after, id) {
  const skip = new Set([...LOG_KEYS, "next", "combatants", "nextNumber"]);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (!skip.has(key) && JSON.stringify(before[key]) !== JSON.stringify(after[key])) return false;
  }
  const rows = (/** @type {Record<string, unknown>} */ s) =>
    new Map(Object.values(/** @type {Record<string, unknown[]>} */ (s.combatants ?? {})).map(r => [r[0], r]));
  const was = rows(before);
  const now = rows(after);
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    if (key === id) continue;
    const a = was.get(key);
    const b = now.get(key);
    if (!a || !b) return false;
    // every field but the turns per round (index 5), which follow the roster
    if (JSON.stringify([...a.slice(0, 5), ...a.slice(6)]) !== JSON.stringify([...b.slice(0, 5), ...b.slice(6)])) return false;
  }
  return true;
}

/**
 * Whether the kept steps of a state's undo log name a combatant by its id (a step holds a
 * combatant's record, and so its id, when it added it, took it out with others, or converted a
 * snapshot holding it; summons' records name their summoner's id). Conservative: an id JSON would
 * escape counts as named.
 * @param {Record<string, unknown>} state
 * @param {string} id
 * @returns {boolean}
 */
export function logNames(state, id) {
  if (!/^[\w.-]+$/.test(id)) return true;
  const quoted = `"${id}"`;
  return Object.values(/** @type {Record<string, unknown>} */ (state.log ?? {}))
    .some(page => typeof page !== "string" || page.includes(quoted));
}

/* -------------------------------------------- */
/*  Combatants a player adds to a running fight  */
/* -------------------------------------------- */

/**
 * The most combatants a player's own actors may have in a running fight when the player adds one:
 * a character, a companion and the summons one of them calls, with room to spare. The GM adds as
 * many as they like.
 */
export const MAX_PLAYER_COMBATANTS = 8;

/**
 * Whether a player may add one more combatant of an actor to a running fight: at most one per
 * token of that actor on the fight's scene and one without a token (an actor from the sidebar), so
 * every token can fight and no actor fills the turn order; and at most
 * {@link MAX_PLAYER_COMBATANTS} combatants of actors the player owns.
 * @param {{ofActor: number, tokens: number, ofPlayer: number}} counts  Before this one is added:
 *   the fight's combatants of the actor, the actor's tokens on the scene, the fight's combatants
 *   the player owns.
 * @returns {"actor"|"player"|null}  The cap it would pass, or null when it may join.
 */
export function joinRefusal({ ofActor, tokens, ofPlayer }) {
  if (ofActor >= tokens + 1) return "actor";
  if (ofPlayer >= MAX_PLAYER_COMBATANTS) return "player";
  return null;
}
