import { ICONENGINE, SYSTEM_ID } from "../config.mjs";
import { getCore } from "../core.mjs";
import { endOfCombatChanges, endOfTurn, healTarget } from "../data/combat-rules.mjs";
import { endOfTurnEffectIds } from "../data/health-changes.mjs";
import { SLASHED_FLAG } from "../data/slashed.mjs";
import { TERRAIN_FLAG } from "../data/terrain.mjs";
import { tokensOf } from "../data/tokens.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import ActorTurns from "./actor-turns.mjs";
import { HOOKS, callAfter } from "../hooks.mjs";
import { runMoment } from "./item-recharge.mjs";
import { eachActorApart } from "./each-actor.mjs";
import { format, localize } from "../applications/i18n.mjs";

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
 * What ended by itself during a turn and what the end-of-turn and end-of-combat rules did, by
 * actor, for the chat note ({@link postNote}).
 * @typedef {object} NoteLine
 * @property {Actor.Implementation} actor
 * @property {string[]} ended       Statuses (their names) that ended.
 * @property {{from: number, to: number} | null} [healed]  HP healed (up to the bloodied value).
 * @property {number} [vigorLost]
 * @property {boolean} [resolve]   +1 personal resolve.
 * @property {boolean} [tokens]    Combat tokens discarded.
 */

/**
 * @param {Combat.Implementation} combat
 * @param {{type: string, id?: string, round?: number, partyResolve?: number, personalResolve?: string[], ids?: string[]}[]} effects
 * @param {TurnWorkflows} workflows
 * @param {{endedInTurn?: (actor: Actor.Implementation) => string[]}} [context]  endedInTurn: the
 *   statuses that ended by themselves during the turn now ending (Stunned after an ability), by
 *   the turn owner's actor, for the turn's note.
 */
export async function runCombatEffects(combat, effects, workflows, { endedInTurn = () => [] } = {}) {
  const turnIndex = (/** @type {string|undefined} */ id) => combat.turns.findIndex(c => c.id === id);
  for (const effect of effects) {
    const combatant = effect.id ? combat.combatants.get(effect.id) : undefined;
    // Charges, once-per limits and statuses that last a turn (module/documents/item-recharge.mjs).
    const recharged = await runMoment(combat, effect).catch(error => {
      console.error(`${SYSTEM_ID} | recharge at ${effect.type} failed`, error);
      return [];
    });
    try {
      switch (effect.type) {
        case "roundStarted": {
          const round = effect.round ?? combat.round;
          if (round > 1) await workflows.endRound({ round: round - 1, skipped: false });
          await workflows.startRound({ round, skipped: false });
          break;
        }
        case "turnStarted": {
          if (!combatant) break;
          // "Interrupts refresh at the start of the owner's turn": the count of interrupts used
          // since then is kept on the actor.
          const actor = combatant.actor;
          if (actor) {
            await eachActorApart("turnStart", [actor], async a => {
              if (a.getFlag(SYSTEM_ID, "interruptsUsed")) await a.unsetFlag(SYSTEM_ID, "interruptsUsed");
            });
          }
          await clearTurnLimits(combat);
          const context = { round: combat.round, turn: turnIndex(effect.id), skipped: false };
          await workflows.startTurn(combatant, context);
          if (combatant.token) await workflows.clearMovement(combatant, context);
          break;
        }
        case "turnEnded": {
          if (!combatant) break;
          await workflows.endTurn(combatant, { round: combat.round, turn: turnIndex(effect.id), skipped: false });
          const ended = await endOfTurnEffects(combat, combatant);
          const owner = combatant.actor;
          if (owner) {
            await eachActorApart("turnEnd", [owner], async actor => {
              await endOfTurnRules(actor);
              await promptSaves(combatant, actor);
            });
          }
          await clearTurnLimits(combat);
          /** @type {NoteLine[]} */
          const lines = [];
          const add = (/** @type {Actor.Implementation} */ actor, /** @type {string[]} */ names) => {
            if (!names.length) return;
            const line = lines.find(l => l.actor === actor);
            if (line) line.ended.push(...names.filter(n => !line.ended.includes(n)));
            else lines.push({ actor, ended: [...new Set(names)] });
          };
          if (owner) add(owner, endedInTurn(owner));
          for (const { actor, ended: names } of [...ended, ...recharged]) add(actor, names);
          await postNote(format("ICONENGINE.Combat.Note.turnEnd", { name: combatant.name ?? "" }), lines, combatant);
          break;
        }
        case "summonsLeft": {
          const names = await summonsLeave(combat, effect.ids ?? []);
          if (names.length) await postNote(format("ICONENGINE.Combat.Note.summonsLeft", { names: names.join(", ") }), [], combatant, { always: true });
          break;
        }
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
 * What ends with every turn's end: Defiance's immunity lasts the rest of the turn it was used
 * in, whoever's turn that was, so every fighter's ends; Hatred ("End this status at the end of
 * your turn") is the hater's own, so only the turn owner's ends (a Hatred the owner inflicted on
 * a foe lasts to the end of that foe's turn). An ongoing Hatred (`+`) stays until its cause is
 * lifted. Each fighter apart.
 * @param {Combat.Implementation} combat
 * @param {Combatant.Implementation} owner  Whose turn ends.
 * @returns {Promise<{actor: Actor.Implementation, ended: string[]}[]>}  What ended, by actor (the effects' names).
 */
async function endOfTurnEffects(combat, owner) {
  const mine = owner.actor?.uuid;
  const done = await eachActorApart("turnEnd", fightersOf(combat), async actor => {
    const effects = actor.effects.contents;
    const ending = new Set(endOfTurnEffectIds(effects.map(e => ({ id: e.id, statuses: e.statuses, flags: e.flags, duration: e.duration }))));
    // another fighter's Hatred is not theirs to lose at this turn's end: only the immunity
    const gone = effects.filter(e => ending.has(e.id ?? "") && (actor.uuid === mine || e.statuses.has("immune")));
    if (gone.length) await actor.deleteEmbeddedDocuments("ActiveEffect", gone.map(e => e.id ?? ""));
    return { actor, ended: gone.map(e => e.name ?? "") };
  });
  return done.filter(d => d.ended.length);
}

/**
 * The fighters' actors (linked or the token's own), each once.
 * @param {Combat.Implementation} combat
 * @returns {Actor.Implementation[]}
 */
function fightersOf(combat) {
  /** @type {Map<string, Actor.Implementation>} */
  const found = new Map();
  for (const combatant of combat.combatants) {
    const actor = combatant.actor;
    if (actor && !found.has(actor.uuid)) found.set(actor.uuid, actor);
  }
  return [...found.values()];
}

/**
 * What may happen "no more than once a turn" starts afresh with every turn, whoever's: Slashed's
 * and dangerous terrain's counts (module/data/slashed.mjs, terrain.mjs) are cleared from every
 * fighter when a turn starts or ends. Each fighter apart.
 * @param {Combat.Implementation} combat
 */
async function clearTurnLimits(combat) {
  await eachActorApart("turnLimits", fightersOf(combat), async actor => {
    if (actor.getFlag(SYSTEM_ID, SLASHED_FLAG)) await actor.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
    if (actor.getFlag(SYSTEM_ID, TERRAIN_FLAG)) await actor.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
  });
}

/**
 * The end of the character's own turn: Regeneration gives 4 vigor if it is bloodied (the core's
 * `icon.heal` "regeneration", posted as a healing card only when it gives something), and Hatred
 * ends (see `endOfTurn`; its effects are gone already, {@link endOfTurnEffects}). Before the
 * saves, so an ended status is not offered a save. Throws the core's refusal of the actor's data.
 * @param {Actor.Implementation} actor
 */
async function endOfTurnRules(actor) {
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
 * @returns {Promise<string[]>}  The names of the summons that left.
 */
async function summonsLeave(combat, ids) {
  const leaving = ids.map(id => combat.combatants.get(id)).filter(c => !!c);
  const tokens = leaving.map(c => c.token).filter(t => !!t && t.parent === combat.scene).map(t => t?.id ?? "");
  const present = leaving.map(c => c.id ?? "");
  if (present.length) await combat.deleteEmbeddedDocuments("Combatant", present);
  if (tokens.length) await combat.scene?.deleteEmbeddedDocuments("Token", tokens);
  return leaving.map(c => c.name ?? "");
}

/**
 * End of turn: a chat card (to the owners and the GM) with a save button per status the
 * character can save against, as the core decides (`iconSaveable`).
 * @param {Combatant.Implementation} combatant
 * @param {Actor.Implementation} actor  The combatant's.
 */
async function promptSaves(combatant, actor) {
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
    whisper: whisperTo([actor]),
    flags: { [SYSTEM_ID]: { saves: { actorUuid: actor.uuid, statuses } } }
  }));
}

/**
 * The GMs and the owners of these actors.
 * @param {Actor.Implementation[]} actors
 * @returns {string[]}  User ids.
 */
function whisperTo(actors) {
  return game.users?.filter(u => u.isGM || actors.some(a => a.testUserPermission(u, "OWNER"))).map(u => u.id ?? "") ?? [];
}

/**
 * The chat note of what the turn order's rules did by themselves (issue 36): a title and a line
 * per actor (statuses that ended, healing to bloodied, vigor lost, personal resolve, tokens
 * discarded), whispered to the GMs and those actors' owners. Nothing is posted when there is no
 * line unless `always`. Names reach the note as text.
 * @param {string} title
 * @param {NoteLine[]} lines
 * @param {Combatant.Implementation | undefined} [combatant]  Who speaks (the turn owner).
 * @param {{always?: boolean}} [options]  always: post the title alone too.
 */
async function postNote(title, lines, combatant, { always = false } = {}) {
  const items = lines.flatMap(noteItems);
  if (!items.length && !always) return;
  const escape = foundry.utils.escapeHTML;
  const content = `<div class="icon-engine-note"><p><strong>${escape(title)}</strong></p>`
    + (items.length ? `<ul>${items.map(text => `<li>${escape(text)}</li>`).join("")}</ul>` : "") + "</div>";
  await ChatMessage.implementation.create({
    content,
    speaker: ChatMessage.implementation.getSpeaker({ actor: combatant?.actor ?? undefined, token: combatant?.token }),
    whisper: whisperTo([...new Set(lines.map(l => l.actor).concat(combatant?.actor ? [combatant.actor] : []))]),
    // one of the system's own cards, shown as stored (module/enrichers.mjs SYSTEM_CARDS)
    flags: { [SYSTEM_ID]: { announcement: true } }
  });
}

/**
 * A note's lines for one actor.
 * @param {NoteLine} line
 * @returns {string[]}
 */
function noteItems(line) {
  const name = line.actor.name ?? "";
  /** @type {string[]} */
  const out = [];
  if (line.healed) out.push(format("ICONENGINE.Combat.Note.healed", { name, from: line.healed.from, to: line.healed.to }));
  if (line.vigorLost) out.push(format("ICONENGINE.Combat.Note.vigorLost", { name, vigor: line.vigorLost }));
  if (line.resolve) out.push(format("ICONENGINE.Combat.Note.resolve", { name }));
  if (line.ended.length) out.push(format("ICONENGINE.Combat.Note.ended", { name, statuses: line.ended.join(", ") }));
  if (line.tokens) out.push(format("ICONENGINE.Combat.Note.tokens", { name }));
  return out;
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
 * flagged `flags.icon-engine.summoned`). Each actor apart: one the core refuses (armor past its
 * bound, two power dice of one ability) is skipped and reported, and every other still heals.
 * A note says what happened.
 * @param {Combat.Implementation} combat
 * @param {Set<string>} personalResolve  Combatant ids.
 */
async function endOfCombat(combat, personalResolve) {
  const core = getCore();
  /** @type {Map<string, boolean>} */
  const gainsResolve = new Map();
  for (const combatant of combat.combatants) {
    const uuid = combatant.actor?.uuid;
    if (uuid) gainsResolve.set(uuid, (gainsResolve.get(uuid) ?? false) || personalResolve.has(combatant.id ?? ""));
  }
  const lines = await eachActorApart("combatEnd", fightersOf(combat), async actor => {
    /** @type {NoteLine} */
    const line = { actor, ended: [] };
    const statuses = ActorStatuses.statusesOf(actor);
    // Any actor's system data: healTarget reads ICON health where there is some.
    const system = /** @type {Parameters<typeof healTarget>[0]} */ (actor.system);
    const target = healTarget(system, actor.type === "character", statuses);
    // the core checks the actor's data before anything of it is written
    const outcome = target ? /** @type {import("../types/core.js").Done & Parameters<typeof endOfCombatChanges>[1]} */ (
      core.resolve({ kind: "icon.heal", target, healing: "endCombat" }, [])) : null;
    line.tokens = await discardedTokens(actor);
    if (!outcome || !target) return line;
    const { update, cured } = endOfCombatChanges(/** @type {import("../types/system.js").IconHealthSystem} */ (actor.system), outcome,
      statuses, !!gainsResolve.get(actor.uuid));
    if (Object.keys(update).length) await actor.update(update);
    const gone = actor.temporaryEffects.filter(e => [...e.statuses].some(s => cured.includes(s)));
    if (gone.length) await actor.deleteEmbeddedDocuments("ActiveEffect", gone.map(e => e.id ?? ""));
    if (outcome.target.hp > target.hp) line.healed = { from: target.hp, to: outcome.target.hp };
    if (outcome.target.vigor < target.vigor) line.vigorLost = target.vigor - outcome.target.vigor;
    line.resolve = "system.resolve" in update;
    line.ended = [...new Set(gone.map(e => e.name ?? ""))];
    return line;
  });
  const scene = combat.scene;
  const summoned = scene?.tokens.filter(t => !!t.getFlag(SYSTEM_ID, "summoned")) ?? [];
  if (summoned.length) {
    try {
      await scene?.deleteEmbeddedDocuments("Token", summoned.map(t => t.id ?? ""));
    } catch (error) {
      console.error(`${SYSTEM_ID} | summons at the end of combat`, error);
    }
  }
  const title = summoned.length
    ? format("ICONENGINE.Combat.Note.combatEndSummons", { names: summoned.map(t => t.name ?? "").join(", ") })
    : localize("ICONENGINE.Combat.Note.combatEnd");
  await postNote(title, lines, undefined, { always: summoned.length > 0 });
}

/**
 * "All blessings are discarded at the end of combat", and the combo token and power dice with
 * them (ActorTurns.discardTokens, the core's `icon.tokens` "endCombat").
 * @param {Actor.Implementation} actor
 * @returns {Promise<boolean>}  Whether any were held.
 */
async function discardedTokens(actor) {
  const held = tokensOf(/** @type {Record<string, unknown>} */ (actor.system));
  if (!held.blessings && !held.combo && !held.powerDice.length) return false;
  await ActorTurns.discardTokens(actor);
  return true;
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
