/**
 * A character's narrative state (strain, breaking, burdens) as the core's `narrativeApply` sees
 * it, and the actor update its answer maps to. Pure: no Foundry API beyond i18n keys, so node and
 * browser tests run exactly what the card buttons and the burden prompt run.
 * @import { CoreApi } from "../../types/core.js"
 */
import { narrativeApply } from "../../core.mjs";
import { ACTIONS, BURDEN_CLOCKS } from "../../data/rules.mjs";

/** An action carries at most two burden ticks ("up to twice per action"). */
export const MAX_TICKS = 2;

/**
 * @typedef {object} SheetBurden  A burden as the character data stores it.
 * @property {string} name
 * @property {{first: string, second: string}} actions
 * @property {number} clock
 * @property {number} filled
 */

/**
 * @typedef {object} NarrativeState  The core's narrative state (docs/js-contract.md, Reducers).
 * @property {number} strain
 * @property {number} maxStrain
 * @property {Record<string, number>} ratings
 * @property {{name: string, actions: [string, string], clock: number, filled: number}[]} burdens
 * @property {boolean} broken
 * @property {boolean} brokenForExpedition
 * @property {boolean} burdenPending
 * @property {boolean} sitsOutNextExpedition  Broke with 3 burdens: "cannot embark on the next expedition".
 * @property {boolean} limitBreakUsed  Used a limit break this expedition (cleared when it ends).
 */

/**
 * @typedef {{type: string, name?: string}} NarrativeEffect  What `narrativeApply` reports.
 */

/**
 * Burden ticks on an action: each burden ticking it is −1d on its rolls, at most two.
 * @param {SheetBurden[]} burdens
 * @param {string} action
 * @returns {number}
 */
export function burdenTicksOn(burdens, action) {
  const ticks = burdens.filter(b => b.actions?.first === action || b.actions?.second === action).length;
  // The sheet lets a player tick an action a third time by hand; the rules stop at two.
  return Math.min(ticks, MAX_TICKS);
}

/**
 * The core's narrative state of a character's system data.
 * @param {import("../../types/system.js").CharacterNarrative} system
 * @returns {NarrativeState}
 */
export function narrativeStateOf(system) {
  return {
    strain: system.strain.value,
    maxStrain: system.strain.max,
    ratings: { ...system.actions },
    burdens: system.burdens.map(b => ({
      name: b.name, actions: [b.actions.first, b.actions.second], clock: b.clock, filled: b.filled
    })),
    broken: Boolean(system.broken),
    brokenForExpedition: Boolean(system.brokenForExpedition),
    burdenPending: Boolean(system.burdenPending),
    sitsOutNextExpedition: Boolean(system.sitsOutNextExpedition),
    limitBreakUsed: Boolean(system.limitBreakUsed)
  };
}

/**
 * The actor update that stores a narrative state.
 * @param {NarrativeState} state
 * @returns {Record<string, unknown>}
 */
export function narrativeUpdate(state) {
  return {
    "system.strain.value": state.strain,
    "system.burdens": state.burdens.map(b => ({
      name: b.name, actions: { first: b.actions[0], second: b.actions[1] }, clock: b.clock, filled: b.filled
    })),
    "system.broken": state.broken,
    "system.brokenForExpedition": state.brokenForExpedition,
    "system.burdenPending": state.burdenPending,
    "system.sitsOutNextExpedition": !!state.sitsOutNextExpedition,
    "system.limitBreakUsed": !!state.limitBreakUsed
  };
}

/**
 * Apply a narrative event (takeStrain, resist, takeBurden, ...) to a character through the core.
 * Throws the core's error when the event is refused (the actor must then stay as it is).
 * @param {import("../../types/system.js").CharacterNarrative} system
 * @param {object} event
 * @param {CoreApi["narrativeApply"]} [apply]  The core's reducer (tests may pass the node core).
 * @returns {{state: NarrativeState, effects: NarrativeEffect[], update: Record<string, unknown>}}
 */
export function applyNarrative(system, event, apply = narrativeApply) {
  const answer = apply(narrativeStateOf(system), event);
  const state = /** @type {NarrativeState} */ (answer.state);
  return { state, effects: /** @type {NarrativeEffect[]} */ (answer.effects), update: narrativeUpdate(state) };
}

/**
 * What clicking segment `segment` (1-based) of burden `index`'s clock on the sheet means.
 * Unticking heals the burden (an interlude's work), so it goes through the core, which removes
 * the burden when its clock empties; filling segments back is the GM correcting the clock.
 * @param {SheetBurden[]} burdens
 * @param {number} index
 * @param {number} segment
 * @returns {{event: {type: "healBurden", index: number, segments: number}} | {filled: number} | null}
 */
export function burdenClockClick(burdens, index, segment) {
  const burden = burdens[index];
  if (!burden || !Number.isInteger(segment) || segment < 1 || segment > burden.clock) return null;
  const next = burden.filled === segment ? segment - 1 : segment;
  if (next < burden.filled) return { event: { type: "healBurden", index, segments: burden.filled - next } };
  return next === burden.filled ? null : { filled: next };
}

/**
 * What to tell the table about the effects of an event: i18n keys with their data, and whether
 * the player must now name a burden.
 * @param {NarrativeEffect[]} effects
 * @param {string} name  The character's name.
 * @returns {{notices: {key: string, data: Record<string, string>, level: "info"|"warn"}[], chooseBurden: boolean}}
 */
export function narrativeNotices(effects, name) {
  /** @type {{key: string, data: Record<string, string>, level: "info"|"warn"}[]} */
  const notices = [];
  let chooseBurden = false;
  for (const effect of effects) {
    switch (effect.type) {
      case "broke": notices.push({ key: "ICONENGINE.Narrative.Broke", data: { name }, level: "warn" }); break;
      case "brokenForExpedition":
        notices.push({ key: "ICONENGINE.Narrative.BrokenForExpedition", data: { name }, level: "warn" }); break;
      case "burdenHealed":
        notices.push({ key: "ICONENGINE.Narrative.BurdenHealed", data: { name, burden: effect.name ?? "" }, level: "info" }); break;
      case "recovered": notices.push({ key: "ICONENGINE.Narrative.Recovered", data: { name }, level: "info" }); break;
      case "sitsOutNextExpedition":
        notices.push({ key: "ICONENGINE.Rules.Narrative.SitsOut", data: { name }, level: "warn" }); break;
      case "mayEmbark": notices.push({ key: "ICONENGINE.Rules.Narrative.MayEmbark", data: { name }, level: "info" }); break;
      case "chooseBurden": chooseBurden = true; break;
    }
  }
  return { notices, chooseBurden };
}

/**
 * The burden prompt of a broken character: the actions a burden may tick ("more than 0d": dots
 * less the burden ticks already on it, and not ticked twice yet) and the clock sizes. The core
 * checks the choice again when it is applied.
 * @param {import("../../types/system.js").CharacterNarrative} system
 */
export function burdenPromptContext(system) {
  const eligible = ACTIONS.filter(a => {
    const ticks = burdenTicksOn(system.burdens, a);
    return (system.actions[a] ?? 0) - ticks > 0 && ticks < MAX_TICKS;
  });
  /** @param {string} picked */
  const actionOptions = picked => eligible.map(value => ({ value, label: `ICONENGINE.ActionRating.${value}`, selected: value === picked }));
  return {
    firstOptions: actionOptions(eligible[0] ?? ""),
    secondOptions: actionOptions(eligible[1] ?? ""),
    clockOptions: BURDEN_CLOCKS.map(value => ({ value, label: String(value), selected: value === 6 })),
    enough: eligible.length >= 2
  };
}

/**
 * The takeBurden event of the burden prompt's form data.
 * @param {Record<string, unknown>} data  `{name, first, second, clock}`.
 */
export function takeBurdenEvent(data) {
  return {
    type: "takeBurden",
    name: String(data.name ?? "").trim(),
    actions: [String(data.first ?? ""), String(data.second ?? "")],
    clock: Number(data.clock)
  };
}
