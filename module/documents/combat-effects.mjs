import { ICONENGINE, SYSTEM_ID } from "../config.mjs";
import { getCore } from "../core.mjs";
import { endOfCombatChanges, endOfTurn, healTarget } from "../data/combat-rules.mjs";
import { endOfTurnEffectIds } from "../data/health-changes.mjs";
import { SLASHED_FLAG } from "../data/slashed.mjs";
import { TERRAIN_FLAG } from "../data/terrain.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import ActorTurns from "./actor-turns.mjs";
import { HOOKS, callAfter } from "../hooks.mjs";
import { runMoment } from "./item-recharge.mjs";
import { localize } from "../applications/i18n.mjs";

/** @param {string} key @param {Record<string, string>} data */
const format = (key, data) => game.i18n?.format(key, data) ?? key;

/**
 * Carries out what the turn-order reducer asks of Foundry. Runs on the active GM only, once per
 * event, right after the Combat update that stored the new state.
 */

/**
 * The Combat's lifecycle workflows (protected on Combat, so the document passes them in).
 * @typedef {object} TurnWorkflows
 * @property {(combatant: Combatant.Implementation, context: Combat.TurnEventContext) => Promise<void>} startTurn
 * @property {(combatant: Combatant.Implementation, context: Combat.TurnEventContext) => Promise<void>} clearMovement
 *   Combat#_clearMovementHistoryOnStartTurn: core calls it right after `_onStartTurn` for a combatant
 *   with a token, so movement history (and what it costs) starts afresh each turn.
 * @property {(combatant: Combatant.Implementation, context: Combat.TurnEventContext) => Promise<void>} endTurn
 * @property {(context: Combat.RoundEventContext) => Promise<void>} startRound
 * @property {(context: Combat.RoundEventContext) => Promise<void>} endRound
 */

/**
 * @param {Combat.Implementation} combat
 * @param {{type: string, id?: string, round?: number, partyResolve?: number, personalResolve?: string[], ids?: string[]}[]} effects
 * @param {TurnWorkflows} workflows
 */
export async function runCombatEffects(combat, effects, workflows) {
  const turnIndex = (/** @type {string|undefined} */ id) => combat.turns.findIndex(c => c.id === id);
  for (const effect of effects) {
    const combatant = effect.id ? combat.combatants.get(effect.id) : undefined;
    // Charges, once-per limits and statuses that last a turn (module/documents/item-recharge.mjs).
    await runMoment(combat, effect).catch(error => console.error(`${SYSTEM_ID} | recharge at ${effect.type} failed`, error));
    try {
      switch (effect.type) {
        case "roundStarted": {
          const round = effect.round ?? combat.round;
          if (round > 1) await workflows.endRound({ round: round - 1, skipped: false });
          await workflows.startRound({ round, skipped: false });
          break;
        }
        case "turnStarted":
          if (!combatant) break;
          // "Interrupts refresh at the start of the owner's turn": the count of interrupts used
          // since then is kept on the actor.
          const actor = combatant.actor;
          if (actor?.getFlag(SYSTEM_ID, "interruptsUsed")) await actor.unsetFlag(SYSTEM_ID, "interruptsUsed");
          await clearTurnLimits(combat);
          const context = { round: combat.round, turn: turnIndex(effect.id), skipped: false };
          await workflows.startTurn(combatant, context);
          if (combatant.token) await workflows.clearMovement(combatant, context);
          break;
        case "turnEnded":
          if (!combatant) break;
          await workflows.endTurn(combatant, { round: combat.round, turn: turnIndex(effect.id), skipped: false });
          await endTurnImmunity(combat);
          await endOfTurnRules(combatant);
          await promptSaves(combatant);
          await clearTurnLimits(combat);
          break;
        case "summonsLeft":
          await summonsLeave(combat, effect.ids ?? []);
          break;
        case "delayFired":
          if (combatant) await announce(combatant, format("ICONENGINE.Combat.delayFired", { name: combatant.name ?? "" }));
          break;
        case "resolveChanged":
          // for other modules: party resolve is spent by limit breaks
          callAfter(HOOKS.partyResolve, combat, effect.partyResolve ?? 0);
          break;
        case "combatEnded":
          await endOfCombat(combat, new Set(effect.personalResolve ?? []));
          break;
      }
    } catch (error) {
      console.error(`${SYSTEM_ID} | combat effect ${effect.type} failed`, error);
    }
  }
}

/**
 * Defiance's immunity lasts the rest of the turn it was used in, whoever's turn that was: every
 * turn's end clears it from every fighter.
 * @param {Combat.Implementation} combat
 */
async function endTurnImmunity(combat) {
  for (const combatant of combat.combatants) {
    const actor = combatant.actor;
    if (!actor) continue;
    const ids = endOfTurnEffectIds(actor.effects.contents.map(e => ({ id: e.id, statuses: e.statuses, flags: e.flags })));
    if (ids.length) await actor.deleteEmbeddedDocuments("ActiveEffect", ids);
  }
}

/**
 * What may happen "no more than once a turn" starts afresh with every turn, whoever's: Slashed's
 * and dangerous terrain's counts (module/data/slashed.mjs, terrain.mjs) are cleared from every
 * fighter when a turn starts or ends.
 * @param {Combat.Implementation} combat
 */
async function clearTurnLimits(combat) {
  for (const combatant of combat.combatants) {
    const actor = combatant.actor;
    if (actor?.getFlag(SYSTEM_ID, SLASHED_FLAG)) await actor.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
    if (actor?.getFlag(SYSTEM_ID, TERRAIN_FLAG)) await actor.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
  }
}

/**
 * The end of the character's own turn: Regeneration gives 4 vigor if it is bloodied (the core's
 * `icon.heal` "regeneration", posted as a healing card only when it gives something), and Hatred
 * ends (see `endOfTurn`). Before the saves, so an ended status is not offered a save.
 * @param {Combatant.Implementation} combatant
 */
async function endOfTurnRules(combatant) {
  const actor = combatant.actor;
  if (!actor) return;
  const statuses = ActorStatuses.statusesOf(actor);
  const { regenerates, ends } = endOfTurn(statuses);
  // ICON health is a character's or a foe's (a hero of another ruleset has none)
  const health = actor.type === "character" || actor.type === "foe"
    ? /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system) : null;
  const target = regenerates && health ? healTarget(health, actor.type === "character", statuses) : null;
  if (target && target.hp > 0) {
    const outcome = getCore().resolve({ kind: "icon.heal", target, healing: "regeneration" }, []);
    if (outcome.status === "done" && outcome.total > 0) await TacticalRolls.heal(actor, "regeneration");
  }
  for (const status of ends) await actor.toggleStatusEffect(status, { active: false });
}

/**
 * "Summons are removed from the battlefield when their summoner is defeated": their Combatants
 * and tokens go (the reducer has already taken them out of the turn order).
 * @param {Combat.Implementation} combat
 * @param {string[]} ids  Combatant ids.
 */
async function summonsLeave(combat, ids) {
  const leaving = ids.map(id => combat.combatants.get(id)).filter(c => !!c);
  const tokens = leaving.map(c => c.token).filter(t => !!t && t.parent === combat.scene).map(t => t?.id ?? "");
  const present = leaving.map(c => c.id ?? "");
  if (present.length) await combat.deleteEmbeddedDocuments("Combatant", present);
  if (tokens.length) await combat.scene?.deleteEmbeddedDocuments("Token", tokens);
}

/**
 * End of turn: a chat card (to the owners and the GM) with a save button per status the
 * character can save against, as the core decides (`iconSaveable`).
 * @param {Combatant.Implementation} combatant
 */
async function promptSaves(combatant) {
  const actor = combatant.actor;
  if (!actor) return;
  const statuses = getCore().iconSaveable(ActorStatuses.statusesOf(actor));
  if (!statuses.length) return;
  const names = statuses.map(id => ({ id, name: localize(`ICONENGINE.Status.${id}.name`) }));
  const content = await foundry.applications.handlebars.renderTemplate(ICONENGINE.combat.saves, {
    text: format("ICONENGINE.Combat.saves", { name: combatant.name ?? "", statuses: names.map(s => s.name).join(", ") }),
    statuses: names.map(s => ({ ...s, label: format("ICONENGINE.Combat.saveButton", { status: s.name }) }))
  });
  await ChatMessage.implementation.create(({
    content,
    speaker: ChatMessage.implementation.getSpeaker({ actor, token: combatant.token }),
    whisper: game.users?.filter(u => u.isGM || actor.testUserPermission(u, "OWNER")).map(u => u.id ?? "") ?? [],
    flags: { [SYSTEM_ID]: { saves: { actorUuid: actor.uuid, statuses } } }
  }));
}

/**
 * A short public chat line about a combatant.
 * @param {Combatant.Implementation} combatant
 * @param {string} text
 */
async function announce(combatant, text) {
  const p = document.createElement("p");
  p.textContent = text;
  await ChatMessage.implementation.create({
    content: p.outerHTML,
    speaker: ChatMessage.implementation.getSpeaker({ actor: combatant.actor ?? undefined, token: combatant.token }),
    // one of the system's own cards, shown as stored (module/enrichers.mjs SYSTEM_CARDS)
    flags: { [SYSTEM_ID]: { announcement: true } }
  });
}

/**
 * The end-of-combat rules: per combatant's actor (linked or the token's own), the core's
 * "endCombat" healing (ongoing effects cured, vigor lost, HP up to the bloodied value), +1
 * personal resolve for the player characters the reducer listed; summons disappear (tokens
 * flagged `flags.icon-engine.summoned`).
 * @param {Combat.Implementation} combat
 * @param {Set<string>} personalResolve  Combatant ids.
 */
async function endOfCombat(combat, personalResolve) {
  const core = getCore();
  const done = new Set();
  for (const combatant of combat.combatants) {
    const actor = combatant.actor;
    if (!actor || done.has(actor.uuid)) continue;
    done.add(actor.uuid);
    await ActorTurns.discardTokens(actor);
    const statuses = ActorStatuses.statusesOf(actor);
    // Any actor's system data: healTarget reads ICON health where there is some.
    const system = /** @type {Parameters<typeof healTarget>[0]} */ (actor.system);
    const target = healTarget(system, actor.type === "character", statuses);
    if (!target) continue;
    const outcome = /** @type {import("../types/core.js").Done & Parameters<typeof endOfCombatChanges>[1]} */ (
      core.resolve({ kind: "icon.heal", target, healing: "endCombat" }, []));
    const { update, cured } = endOfCombatChanges(/** @type {import("../types/system.js").IconHealthSystem} */ (actor.system), outcome, statuses,
      personalResolve.has(combatant.id ?? ""));
    if (Object.keys(update).length) await actor.update(update);
    const gone = actor.temporaryEffects.filter(e => [...e.statuses].some(s => cured.includes(s))).map(e => e.id ?? "");
    if (gone.length) await actor.deleteEmbeddedDocuments("ActiveEffect", gone);
  }
  const summoned = combat.scene?.tokens.filter(t => !!t.getFlag(SYSTEM_ID, "summoned")).map(t => t.id ?? "") ?? [];
  if (summoned.length) await combat.scene?.deleteEmbeddedDocuments("Token", summoned);
}

/**
 * Whether an end-of-turn saves card may roll a save against a status: only a GM's card (the
 * tracker's GM posts them), only for a status its flag names, and only one the actor may save
 * against now (`saveable`: the core's `iconSaveable` of its statuses).
 * @param {{author?: {isGM?: boolean} | null}} message
 * @param {unknown} flag  The card's `saves` flag.
 * @param {string} status
 * @param {string[]} saveable
 */
export function saveCardAllows(message, flag, status, saveable) {
  const statuses = /** @type {{statuses?: unknown} | null} */ (flag)?.statuses;
  return !!message.author?.isGM && Array.isArray(statuses) && statuses.includes(status) && saveable.includes(status);
}

/**
 * Wire the save buttons of the end-of-turn cards: roll an ICON save (`icon.save`); on a success
 * the status ends. Only a GM's card is honoured (the tracker's GM posts them), and only for a
 * status its flag names that the actor may save against now (the core's `iconSaveable`): a
 * player's forged card saves nothing. A Blessing token may be spent on the save (+1 boon).
 */
export function registerSaveCards() {
  Hooks.on("renderChatMessageHTML", (message, html) => {
    const saves = message.getFlag(SYSTEM_ID, "saves");
    if (!saves) return;
    const buttons = /** @type {HTMLButtonElement[]} */ ([...html.querySelectorAll("button[data-icon-save]")]);
    if (!message.author?.isGM) {
      for (const button of buttons) button.remove();
      return;
    }
    for (const button of buttons) {
      button.addEventListener("click", async () => {
        const status = button.dataset.iconSave ?? "";
        const actor = /** @type {Actor.Implementation | null} */ (fromUuidSync(saves.actorUuid));
        if (!actor?.isOwner) return;
        if (!saveCardAllows(message, saves, status, getCore().iconSaveable(ActorStatuses.statusesOf(actor)))) {
          ui.notifications?.warn("ICONENGINE.Tactical.NotSaveable", { localize: true });
          return;
        }
        button.disabled = true;
        try {
          const { default: CardActions } = await import("../applications/card-actions.mjs");
          const blessing = await CardActions.askBlessing(actor);
          if (blessing === null) return;
          const saved = await TacticalRolls.save(actor, { status, blessing });
          const roll = /** @type {import("../dice/icon-roll.mjs").default | undefined} */ (saved?.rolls?.[0]);
          if (roll?.outcome?.success) {
            ui.notifications?.info(format("ICONENGINE.Combat.saved", { name: actor.name ?? "", status: localize(`ICONENGINE.Status.${status}.name`) }));
          }
        } finally {
          button.disabled = false;
        }
      });
    }
  });
}
