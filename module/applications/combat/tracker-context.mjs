/**
 * The ICON combat tracker's render context, built purely from the core's reducer state and what
 * the module knows about each combatant. Uses no Foundry global but `game.i18n`, so the browser
 * test renders the real template with this exact code. Everything rule-bound (turns per round,
 * who acts next, the phase) is read from the state the core computed.
 */
import { SIDES, combatantEntry } from "../../data/combat-rules.mjs";
import { format, formatPlural, localize } from "../i18n.mjs";

/**
 * A combatant as the tracker shows it. `visible` is Foundry's `Combatant#visible` (the owner or
 * not hidden); without it, what it would be. `health`: its actor's HP and whether the core calls
 * it bloodied (none for an actor without ICON health); `statuses`: its actor's status effects,
 * each its image and name.
 * @typedef {import("../../data/combat-rules.mjs").CombatantFacts & {
 *   name: string, img: string, isOwner: boolean, hidden?: boolean, visible?: boolean,
 *   health?: {value: number, max: number, bloodied: boolean} | null, statuses?: {img: string, name: string}[]
 * }} CombatantRowFacts
 */

/**
 * What a row shows of a combatant's HP: the numbers to the GM, to the combatant's owner and for
 * the party's side; of a foe, what the world's setting lets players see (nothing, bloodied or not,
 * or the numbers).
 * @param {CombatantRowFacts} facts
 * @param {"party"|"foes"} side
 * @param {{isGM: boolean, foeHp: string}} user
 * @returns {{exact: boolean, value?: number, max?: number, bloodied: boolean, text: string, label: string} | null}
 */
export function rowHealth(facts, side, { isGM, foeHp }) {
  const health = facts.health;
  if (!health) return null;
  const shown = isGM || facts.isOwner || side === "party" ? "exact" : foeHp;
  if (shown === "exact") {
    const data = { value: health.value, max: health.max };
    return { exact: true, ...data, bloodied: health.bloodied, text: format("ICONENGINE.Combat.hp", data),
      label: format("ICONENGINE.Combat.hpOf", { name: facts.name, ...data }) };
  }
  if (shown !== "bloodied") return null;
  const text = localize(health.bloodied ? "ICONENGINE.Combat.bloodied" : "ICONENGINE.Combat.notBloodied");
  return { exact: false, bloodied: health.bloodied, text, label: `${facts.name}: ${text}` };
}

/**
 * A combatant in the reducer state, every field written out ({@link stateCombatant} reads it
 * from the stored form).
 * @typedef {object} StateCombatant
 * @property {string} id
 * @property {"party"|"foes"} side
 * @property {boolean} isPlayerCharacter
 * @property {string|null} template
 * @property {boolean} canSlow
 * @property {string|null} summoner
 * @property {boolean} defeated
 * @property {number} taken
 * @property {number} slow
 * @property {boolean} delay
 * @property {number} turns
 */

/**
 * A combatant as the state stores it (version 3, src/combat/fight.rs): `[id, side, flags, taken,
 * slow, turns, template?, summoner?]`, side 0 (party) or 1 (foes), flags 1 a player character,
 * 2 may go slow, 4 defeated, 8 a pending delay, template 0 for none.
 * @typedef {[string, number, number, number, number, number, (string|number)?, string?]} StoredCombatant
 */

/** What the tracker shows players of a foe's HP (the world setting `foeHp`, module/settings.mjs): nothing, whether it is bloodied, or its HP. */
export const FOE_HP_CHOICES = /** @type {const} */ (["never", "bloodied", "exact"]);

/**
 * A stored `foeHp` setting as one of its choices ("bloodied" for anything else).
 * @param {unknown} value
 * @returns {typeof FOE_HP_CHOICES[number]}
 */
export function foeHpChoice(value) {
  return FOE_HP_CHOICES.find(choice => choice === value) ?? "bloodied";
}

/** The version of the stored state this system's core writes (src/combat/stored.rs). */
export const STATE_VERSION = 3;

/**
 * The reducer state (see docs/js-contract.md, Reducers): the fight, its combatants by number,
 * and the undo log in pages. `current`, `next` and `lastSide` are left out when there is none.
 * @typedef {object} CombatState
 * @property {number} v
 * @property {number} round
 * @property {Record<string, StoredCombatant>} combatants
 * @property {{id: string, slow: boolean}} [current]
 * @property {{phase: "regular"|"slow", side: "party"|"foes"}} [next]
 * @property {number} partyResolve
 * @property {boolean} ended
 * @property {Record<string, string>} log
 * @property {number} logged
 * @property {number} forgotten
 */

/**
 * A stored combatant with every field written out.
 * @param {StoredCombatant} c
 * @returns {StateCombatant}
 */
export function stateCombatant([id, side, flags, taken, slow, turns, template, summoner]) {
  return {
    id, side: side === 0 ? "party" : "foes",
    isPlayerCharacter: (flags & 1) !== 0, canSlow: (flags & 2) !== 0, defeated: (flags & 4) !== 0, delay: (flags & 8) !== 0,
    taken, slow, turns,
    template: typeof template === "string" ? template : null,
    summoner: summoner ?? null
  };
}

/**
 * Every combatant of a state, every field written out, by number order.
 * @param {CombatState | null | undefined} state
 * @returns {StateCombatant[]}
 */
export function stateCombatants(state) {
  return Object.values(state?.combatants ?? {}).map(stateCombatant);
}

/**
 * The pips of a combatant's turns this round, in order: taken, waiting for the slow phase,
 * still to take, and (when defeated) lost.
 * @param {StateCombatant} c
 * @returns {("spent"|"slow"|"ready"|"lost")[]}
 */
export function turnPips(c) {
  const turns = Math.max(c.turns, c.taken + c.slow);
  return Array.from({ length: turns }, (_, i) => {
    if (i < c.taken) return "spent";
    if (c.defeated) return "lost";
    if (i < c.taken + c.slow) return "slow";
    return "ready";
  });
}

/**
 * The tracker context.
 * @param {CombatState|null} state       null before the combat starts.
 * @param {CombatantRowFacts[]} combatants  In the Combat's turn order.
 * @param {{isGM: boolean, foeHp?: string}} user  `foeHp`: the world's setting of what players see of a
 *   foe's HP ("never", "bloodied" or "exact"; module/settings.mjs).
 */
export function trackerContext(state, combatants, { isGM, foeHp = "bloodied" }) {
  const i18n = game.i18n;
  if (!i18n) throw new Error("ICON Engine: the tracker renders after game.i18n is ready");
  const byId = new Map(stateCombatants(state).map(c => [c.id, c]));
  const started = state !== null;
  const ended = !!state?.ended;
  const current = state?.current ?? null;
  const next = state?.next ?? null;
  const currentSide = current ? byId.get(current.id)?.side ?? null : null;
  // While a turn is open its side is acting; between turns, the side whose slot it is.
  const actingSide = currentSide ?? next?.side ?? null;

  const rows = combatants.filter(f => f.visible ?? (isGM || f.isOwner || !f.hidden)).map(f => {
    const c = byId.get(f.id);
    const side = c?.side ?? combatantEntry(f).side;
    const mayControl = isGM || f.isOwner;
    const defeated = !!c?.defeated;
    const regularLeft = c && !defeated ? Math.max(0, c.turns - c.taken - c.slow) : 0;
    const active = current?.id === f.id;
    const open = started && !ended && !current && next?.side === side && !defeated && !!c;
    const eligible = open && (next?.phase === "regular" ? regularLeft > 0 && !c?.delay : (c?.slow ?? 0) > 0);
    // Going slow passes a regular slot; foes need the GM's flag, or a pending delay forces it.
    const slowable = open && next?.phase === "regular" && regularLeft > 0
      && (side === "party" || !!c?.canSlow || !!c?.delay);
    const pips = c ? turnPips(c) : [];
    // A delay is marked for a combatant still to take a turn ("your next turn must be slow"), once.
    const delayable = started && !ended && !!c && !defeated && !c.delay && c.turns > 0;
    return {
      id: f.id,
      name: f.name,
      img: f.img,
      side,
      hidden: !!f.hidden,
      defeated,
      active,
      delay: !!c?.delay,
      summon: !!c?.summoner,
      pips,
      turnsLeft: regularLeft + (defeated ? 0 : c?.slow ?? 0),
      pipsLabel: c ? formatPlural("ICONENGINE.Combat.turnsLeft", c.turns, { left: regularLeft + (defeated ? 0 : c.slow) }) : "",
      canAct: eligible && mayControl,
      canSlow: slowable && mayControl,
      canEnd: active && mayControl && !ended,
      canDelay: delayable && mayControl,
      delayLabel: format("ICONENGINE.Combat.delayOf", { name: f.name }),
      health: rowHealth(f, side, { isGM, foeHp }),
      statuses: f.statuses ?? [],
      statusesLabel: format("ICONENGINE.Combat.statusesOf", { name: f.name }),
      css: [active ? "active" : "", defeated ? "defeated" : "", f.hidden ? "hide" : "", eligible ? "eligible" : ""]
        .filter(Boolean).join(" ")
    };
  });

  const groups = SIDES.map(side => ({
    side,
    label: i18n.localize(`ICONENGINE.Combat.side.${side}`),
    acting: started && !ended && actingSide === side,
    rows: rows.filter(r => r.side === side)
  }));

  let status = "";
  if (!started) status = i18n.localize("ICONENGINE.Combat.status.notStarted");
  else if (ended) status = i18n.localize("ICONENGINE.Combat.status.ended");
  else if (current) {
    const name = rows.find(r => r.id === current.id)?.name ?? "";
    status = i18n.format(current.slow ? "ICONENGINE.Combat.status.actingSlow" : "ICONENGINE.Combat.status.acting", { name });
  } else if (next) {
    status = i18n.format(`ICONENGINE.Combat.status.${next.phase}`,
      { side: i18n.localize(`ICONENGINE.Combat.side.${next.side}`) });
  } else status = i18n.localize("ICONENGINE.Combat.status.stalled");

  // undo goes back while the log has steps, and undoes the start when nothing was forgotten
  const undoable = started && ((state?.logged ?? 0) > (state?.forgotten ?? 0) || !state?.forgotten);
  return {
    isGM,
    started,
    ended,
    round: state?.round ?? 0,
    phase: next?.phase ?? (current?.slow ? "slow" : current ? "regular" : ""),
    actingSide,
    status,
    partyResolve: state?.partyResolve ?? 0,
    groups,
    canStart: isGM && !started && rows.length > 0,
    canUndo: isGM && undoable,
    canAdjustResolve: isGM && started && !ended,
    canEndCombat: isGM
  };
}

/**
 * The reducer event a tracker button sends, from its `data-action` and the row's combatant id.
 * @param {string} action
 * @param {{combatantId?: string, by?: string}} data
 * @returns {{type: string, id?: string, [field: string]: unknown} | null}
 */
export function trackerEvent(action, { combatantId, by } = {}) {
  switch (action) {
    case "iconAct": return combatantId ? { type: "beginTurn", id: combatantId } : null;
    case "iconSlow": return combatantId ? { type: "goSlow", id: combatantId } : null;
    case "iconDelay": return combatantId ? { type: "delay", id: combatantId } : null;
    case "iconEndTurn": return { type: "endTurn" };
    case "iconUndo": return { type: "undo" };
    case "iconResolve": return { type: "adjustResolve", by: Number(by) || 0 };
    default: return null;
  }
}
