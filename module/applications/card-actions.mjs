import { SYSTEM_ID } from "../config.mjs";
import { loadCore } from "../core.mjs";
import { SLASHED_FLAG } from "../data/slashed.mjs";
import { durationUpdate } from "../data/effect-duration.mjs";
import { PLAYERS_APPLY_SETTING, applyOptionsOnly, checkedKey, healthUndoOnly, knownStatuses, markEffectSource, mayApplyDamage,
  statusEffectSource, vigilanceRefundOnly, wholeIn } from "../data/trust.mjs";
import { MAX_VIGILANCE, spendVigilance, vigilanceSpenders } from "../data/vigilance.mjs";
import { TEMPLATES } from "../dice/cards/icon-tactical.mjs";
import { forcedPath, forcedSpaces } from "../canvas/forced-movement.mjs";
import TeleportPlacement from "../canvas/teleport-placement.mjs";
import { RUSH_OPTION, spacesMoved } from "../canvas/teleport-space.mjs";
import TokenMovement from "../canvas/token-movement.mjs";
import { TELEPORT_ACTION, teleportToken } from "../compat/token-moves.mjs";
import IconRoll from "../dice/icon-roll.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import { savedOptions } from "../dice/tactical-requests.mjs";
import ActorHealth from "../documents/actor-health.mjs";
import ActorMarks from "../documents/actor-marks.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import GmRecords from "../gm-records.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import IconSocket from "../icon-socket.mjs";
import CardFacts, { actorAt, documentAt } from "./card-facts.mjs";
import { format, formatPlural, localize } from "./i18n.mjs";

/**
 * @import { CardFactsOf } from "./card-facts.mjs"
 * @import { AppliedEffect, CheckedRoll } from "../dice/cards/ability-card.mjs"
 * @import { AppliedDamage } from "../dice/cards/icon-tactical.mjs"
 * @import { CardPart } from "../data/card-data.mjs"
 * @import { Footprint } from "../canvas/forced-movement.mjs"
 */

/**
 * @typedef {object} CardControl  What a card's button asks, named by ids only: the rest (the target,
 *   the amount, the status) is derived again from the message's checked data and the records.
 * @property {"damage" | "undoDamage" | "counter" | "effect" | "undoEffect"} action
 * @property {number} key          A target's key (-1: the card's user, for an effect on it).
 * @property {number} [part]       A part's index.
 * @property {boolean} [saved]     Save for half, chosen by the presser when no save was rolled.
 * @property {boolean} [keepOld]   A mark: keep the placer's older mark on the target.
 * @property {number} [vigilance]  An ally's Vigilance roll (the highest d6), reducing the damage as armor.
 * @property {string} [vigilanceBy]
 * @property {number} [vigilanceCharges]
 * @property {{x: number, y: number}} [from]  A dragged move: where the token stood (it stands where it was dragged).
 * @property {{x: number, y: number}} [to]    A teleport: the top-left corner (pixels) of the footprint picked, checked again.
 */

/** The actions a control may name. */
const ACTIONS = /** @type {const} */ (["damage", "undoDamage", "counter", "effect", "undoEffect"]);

/**
 * The one applier of chat cards' controls: an ability card's damage, parts (statuses, marks,
 * forced movement) and their undo, Counter; the Apply / Undo of the damage cards that are no
 * ability's (Slashed, Counter, terrain, sacrifice) and of attack messages from before cards. Every
 * control goes through {@link CardActions.run} with the asking user, on the GM's client for a
 * player's request (the system socket's `cardAction`) and for the GM's own clicks alike: the same
 * checks, the same derivation (docs/security.md). What an application did is recorded (the GM's
 * records, mirrored on the message's flags to show it), once per card, target and part.
 */
export default class CardActions {
  /** Answer players' requests (call at init). */
  static register() {
    IconSocket.registerHandler("cardAction", (payload, userId) => CardActions.#serial(() => CardActions.#request(payload, userId)));
    // A part's move the GM (or the token's owner) drags: checked against its distance on this client.
    Hooks.on("preUpdateToken", (/** @type {TokenDocument.Implementation} */ token, /** @type {Record<string, unknown>} */ change,
      /** @type {Record<string, unknown>} */ options) => CardActions.#checkDrag(token, change, options));
    Hooks.on("updateToken", (/** @type {TokenDocument.Implementation} */ token, /** @type {Record<string, unknown>} */ change) => {
      CardActions.#dragged(token, change).catch(error => ui.notifications?.error(error instanceof Error ? error.message : String(error)));
    });
  }

  /**
   * The move a part lets this client's user drag (its control pressed), until the token moves.
   * @type {{token: string, from: {x: number, y: number}, spaces: number, rush: boolean, message: ChatMessage.Implementation, key: number, part: number} | null}
   */
  static #drag = null;

  /**
   * A fired part on a card's target (key -1: its user), with who it lands on and that actor's token.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {number} index
   */
  static #firedPart(message, key, index) {
    const facts = CardFacts.of(message);
    const part = facts?.card.parts[index];
    const recipient = (key === -1 ? facts?.user : facts?.actors[key]) ?? null;
    const fired = (key === -1 ? facts?.answer?.self : facts?.answer?.targets[key]?.parts)?.find(p => p.index === index);
    if (!facts || !part || !recipient || !fired) throw new Error(localize("ICONENGINE.Card.NotFired"));
    const token = CardActions.#tokenOf(facts, key, recipient);
    return { facts, part, recipient, fired, token };
  }

  /**
   * The token a part moves: a target's as the card names it, else its actor's on the viewed scene
   * (the user's, for key -1).
   * @param {CardFactsOf} facts
   * @param {number} key
   * @param {Actor.Implementation} recipient
   * @returns {TokenDocument.Implementation | null}
   */
  static #tokenOf(facts, key, recipient) {
    const named = key === -1 ? null : /** @type {TokenDocument.Implementation | null} */ (documentAt(facts.card.targets[key]?.token));
    const active = /** @type {Token.Implementation[]} */ (recipient.getActiveTokens())[0]?.document ?? null;
    // the document as its collection holds it now (a placeable may still hold the one before an update)
    return named ?? (active ? /** @type {TokenDocument.Implementation | null} */ (documentAt(active.uuid)) ?? active : null);
  }

  /**
   * Whether `user` may apply a part to its recipient: its user's own movement (key -1) by the GM
   * or the user's owner, a target's by {@link CardActions.mayApply}.
   * @param {User.Implementation | null | undefined} user
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {Actor.Implementation} recipient
   */
  static #mayApplyPart(user, message, key, recipient) {
    if (!user) return false;
    return key === -1 ? !!user.isGM || recipient.testUserPermission(user, "OWNER") : CardActions.mayApply(user, message, recipient);
  }

  /**
   * The spaces a part's movement may take its recipient: what the rules allow of the part, less
   * what a foe's forced movement may do to a Sturdy or Unstoppable target (forced-movement.mjs
   * `forcedSpaces`); a user's own teleport or rush all of it.
   * @param {CardFactsOf} facts
   * @param {number} key
   * @param {CardPart} part
   * @param {import("../dice/cards/ability-card.mjs").FiredPart} fired
   * @param {Actor.Implementation} recipient
   */
  static #allowedSpaces(facts, key, part, fired, recipient) {
    const spaces = fired.move?.spaces ?? part.move.spaces;
    if (key === -1) return spaces;
    return forcedSpaces(spaces, { fromFoe: !!facts.targets[key]?.fromFoe, statuses: ActorStatuses.statusesOf(recipient) });
  }

  /**
   * Arm a part's move ("Move a character ... X spaces", or its user's "Rush X: Move X spaces"): the
   * next drag of the token on this client is checked against X and recorded on the card.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {number} index
   */
  static armDrag(message, key, index) {
    const { facts, part, recipient, fired, token } = CardActions.#firedPart(message, key, index);
    if (part.move.kind !== "move" && part.move.kind !== "rush") throw new Error(localize("ICONENGINE.Card.NotFired"));
    if (!CardActions.#mayApplyPart(game.user, message, key, recipient)) throw new Error(format("ICONENGINE.Use.MayNotAffect", { name: recipient.name ?? "" }));
    if (!token?.isOwner) throw new Error(localize("ICONENGINE.Card.NoTokens"));
    const spaces = CardActions.#allowedSpaces(facts, key, part, fired, recipient);
    const rush = part.move.kind === "rush";
    CardActions.#drag = { token: token.uuid, from: { x: token.x, y: token.y }, spaces, rush, message, key, part: index };
    ui.notifications?.info(rush ? formatPlural("ICONENGINE.Card.Move.RushNow", spaces, { name: token.name ?? "" })
      : formatPlural("ICONENGINE.Card.DragNow", spaces, { name: token.name ?? "" }));
  }

  /**
   * Pick a teleport's landing on the map and apply it ("instantly move to a free space within
   * range X"): the presser picks, the applier checks the space again.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {number} index
   */
  static async pickTeleport(message, key, index) {
    const { part, recipient, fired, token } = CardActions.#firedPart(message, key, index);
    if (part.move.kind !== "teleport") throw new Error(localize("ICONENGINE.Card.NotFired"));
    if (!CardActions.#mayApplyPart(game.user, message, key, recipient)) throw new Error(format("ICONENGINE.Use.MayNotAffect", { name: recipient.name ?? "" }));
    if (!token) throw new Error(localize("ICONENGINE.Card.NoTokens"));
    const to = await TeleportPlacement.pick(token, fired.move?.spaces ?? part.move.spaces);
    if (!to) return null;
    return CardActions.press(message, { action: "effect", key, part: index, to });
  }

  /**
   * How far a drag of the armed kind goes, in spaces: a move's straight distance (a diagonal
   * counting 1); a rush's cost by ICON's movement rules with its user Unstoppable ("You are
   * unstoppable ... while moving": engagement costs nothing), through the core's `iconMovement`.
   * @param {TokenDocument.Implementation} token
   * @param {{x: number, y: number}} from
   * @param {{x: number, y: number}} to
   * @param {boolean} rush
   */
  static #dragSpaces(token, from, to, rush) {
    const size = canvas?.grid?.size ?? 1;
    const straight = Math.max(Math.abs(to.x - from.x), Math.abs(to.y - from.y)) / size;
    if (!rush) return straight;
    const price = TokenMovement.price(token, from, [to], { unstoppable: true });
    return price ? price.cost : straight;
  }

  /**
   * Refuse a drag of the armed token farther than its part allows; mark a rush's update as one
   * (`options["icon-engine"].rush`, teleport-space.mjs `isRush`).
   * @param {TokenDocument.Implementation} token
   * @param {Record<string, unknown>} change
   * @param {Record<string, unknown>} [options]
   * @returns {boolean | void}
   */
  static #checkDrag(token, change, options) {
    const drag = CardActions.#drag;
    if (!drag || drag.token !== token.uuid || (!("x" in change) && !("y" in change))) return;
    const to = { x: Number(change.x ?? token.x), y: Number(change.y ?? token.y) };
    const spaces = CardActions.#dragSpaces(token, drag.from, to, drag.rush);
    if (spaces > drag.spaces) {
      ui.notifications?.warn(formatPlural("ICONENGINE.Card.DragTooFar", drag.spaces, { name: token.name ?? "" }));
      return false;
    }
    if (drag.rush && options) {
      const own = /** @type {Record<string, unknown> | undefined} */ (options[SYSTEM_ID]);
      options[SYSTEM_ID] = { ...(own && typeof own === "object" ? own : {}), [RUSH_OPTION]: true };
    }
  }

  /**
   * Record the armed move once its token has moved: the part is applied, with its undo.
   * @param {TokenDocument.Implementation} token
   * @param {Record<string, unknown>} change
   */
  static async #dragged(token, change) {
    const drag = CardActions.#drag;
    if (!drag || drag.token !== token.uuid || (!("x" in change) && !("y" in change))) return;
    CardActions.#drag = null;
    await CardActions.press(drag.message, { action: "effect", key: drag.key, part: drag.part, from: drag.from });
  }

  /** The GM's actions, one after another: two requests for one control cannot both pass its checks. */
  static #queue = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T>} action
   * @returns {Promise<T>}
   */
  static #serial(action) {
    const run = CardActions.#queue.then(action);
    CardActions.#queue = run.then(() => {}, () => {});
    return run;
  }

  /** Whether the world lets players apply damage from their own cards to targets they do not own. */
  static get playersApply() {
    return game.settings?.get(SYSTEM_ID, PLAYERS_APPLY_SETTING) === true;
  }

  /**
   * Who may apply (and undo) a card's damage and parts to a target: the GM, the target's owner, or
   * the card's author when {@link CardActions.playersApply}.
   * @param {User.Implementation | null | undefined} user
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation} target
   */
  static mayApply(user, message, target) {
    if (!user) return false;
    return mayApplyDamage({ isGM: !!user.isGM, ownsTarget: target.testUserPermission(user, "OWNER"),
      isAuthor: !!user.id && message.author?.id === user.id, playersApply: CardActions.playersApply });
  }

  /* -------------------------------------------- */
  /*  Pressing a control                          */
  /* -------------------------------------------- */

  /**
   * A click on one of the controls the card rendered (module/applications/card-view.mjs).
   * @param {HTMLButtonElement} button
   * @param {ChatMessage.Implementation} message
   */
  static async click(button, message) {
    button.disabled = true;
    try {
      const action = button.dataset.cardAction ?? "";
      const key = Number(button.dataset.key ?? 0);
      if (action === "save") await CardActions.rollSave(message, key);
      else if (action === "undoHeal") await CardActions.undoHeal(message, /** @type {User.Implementation} */ (game.user));
      else if (action === "vigilance") {
        const spent = await CardActions.#rollVigilance(message, key);
        if (spent) await CardActions.press(message, { action: "damage", key, ...spent });
      } else if (action === "drag") {
        CardActions.armDrag(message, key, Number(button.dataset.part));
      } else if (action === "teleport") {
        await CardActions.pickTeleport(message, key, Number(button.dataset.part));
      } else if (action === "effect") {
        const part = Number(button.dataset.part);
        const keepOld = await CardActions.#askKeep(message, key, part);
        if (keepOld === null) return;
        await CardActions.press(message, { action, key, part, keepOld });
      } else {
        const control = { action: /** @type {CardControl["action"]} */ (action), key, part: Number(button.dataset.part ?? 0) };
        if (button.dataset.saved) Object.assign(control, { saved: button.dataset.saved === "true" });
        await CardActions.press(message, control);
      }
    } catch (error) {
      console.error(error);
      ui.notifications?.error(error instanceof Error ? error.message : String(error));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * Carry out a control: here when this user may make every change it makes and no GM's record is
   * involved, else through the active GM.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   */
  static async press(message, control) {
    const user = game.user;
    if (user?.isGM || (user && CardActions.runsHere(message, control, user))) return CardActions.run(message, control, user);
    return IconSocket.executeAsGM("cardAction", { messageId: message.id, ...control });
  }

  /**
   * A request's payload cut to a control, or an error.
   * @param {Record<string, unknown>} payload
   * @returns {CardControl}
   */
  static checkedControl(payload) {
    const action = ACTIONS.find(a => a === payload.action);
    const key = payload.key === -1 && (action === "effect" || action === "undoEffect") ? -1 : checkedKey(payload.key);
    const part = payload.part === undefined ? 0 : wholeIn(payload.part, 0, 11);
    if (!action || key === null || part === null) throw new Error(localize("ICONENGINE.Trust.BadRequest"));
    /** @type {CardControl} */
    const control = { action, key, part };
    if (payload.saved === true || payload.saved === false) control.saved = payload.saved;
    if (payload.keepOld === true) control.keepOld = true;
    const from = /** @type {{x?: unknown, y?: unknown} | null} */ (payload.from && typeof payload.from === "object" ? payload.from : null);
    if (from) {
      const x = wholeIn(from.x, -1_000_000, 1_000_000);
      const y = wholeIn(from.y, -1_000_000, 1_000_000);
      if (x === null || y === null) throw new Error(localize("ICONENGINE.Trust.BadRequest"));
      control.from = { x, y };
    }
    const to = /** @type {{x?: unknown, y?: unknown} | null} */ (payload.to && typeof payload.to === "object" ? payload.to : null);
    if (to) {
      const x = wholeIn(to.x, -1_000_000, 1_000_000);
      const y = wholeIn(to.y, -1_000_000, 1_000_000);
      if (x === null || y === null) throw new Error(localize("ICONENGINE.Trust.BadRequest"));
      control.to = { x, y };
    }
    if (payload.vigilance !== undefined && payload.vigilance !== 0) {
      const vigilance = wholeIn(payload.vigilance, 1, 6);
      const charges = wholeIn(payload.vigilanceCharges, 1, MAX_VIGILANCE);
      if (vigilance === null || charges === null || typeof payload.vigilanceBy !== "string") throw new Error(localize("ICONENGINE.Trust.BadVigilance"));
      Object.assign(control, { vigilance, vigilanceBy: payload.vigilanceBy.slice(0, 300), vigilanceCharges: charges });
    }
    return control;
  }

  /**
   * The GM's side of a player's request.
   * @param {Record<string, unknown>} payload  `{messageId, ...CardControl}`.
   * @param {string} userId
   */
  static async #request(payload, userId) {
    const user = game.users?.get(userId);
    const message = typeof payload.messageId === "string"
      ? /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(payload.messageId))) : undefined;
    if (!message) throw new Error(localize("ICONENGINE.Trust.NoMessage"));
    if (!user) throw new Error(localize("ICONENGINE.Socket.NoSender"));
    const control = CardActions.checkedControl(payload);
    // What a player may do on their own client is done there: the GM does no work (and keeps no record) for it.
    if (CardActions.runsHere(message, control, user)) throw new Error(localize("ICONENGINE.Trust.OwnClient"));
    return CardActions.run(message, control, user);
  }

  /**
   * Whether a player carries out a control on their own client: on their own card, when they own
   * every actor it changes and no GM's record is involved (what the GM's client applied, its client
   * undoes). Marks end other placements of their mark, which may be others' actors: the GM places them.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static runsHere(message, control, user) {
    if (user.isGM || message.author?.id !== user.id) return false;
    const owns = (/** @type {Actor.Implementation | null | undefined} */ actor) => !!actor && actor.testUserPermission(user, "OWNER");
    const facts = CardFacts.of(message);
    const target = control.key === -1 ? facts?.user ?? null : facts ? facts.actors[control.key] ?? null : CardActions.rollTarget(message, control.key);
    if (!owns(target)) return false;
    const key = String(control.key);
    switch (control.action) {
      case "damage":
        return !control.vigilanceBy || owns(actorAt(control.vigilanceBy));
      case "undoDamage": {
        if (GmRecords.damage(message.id, control.key)) return false;
        const flag = /** @type {Record<string, AppliedDamage> | undefined} */ (message.getFlag(SYSTEM_ID, "damageApplied"))?.[key];
        return !flag?.vigilance?.uuid || owns(actorAt(flag.vigilance.uuid));
      }
      case "counter":
        return !GmRecords.damage(message.id, control.key) && owns(CardActions.#attackerOf(message, facts));
      case "effect":
      case "undoEffect": {
        if (GmRecords.effect(message.id, `${key}.${control.part ?? 0}`)) return false;
        const part = facts?.card.parts[control.part ?? 0];
        return !!part && !part.mark && (!part.move.kind || !!canvas?.ready);
      }
      default:
        return false;
    }
  }

  /* -------------------------------------------- */
  /*  The applier                                 */
  /* -------------------------------------------- */

  /**
   * Carry out a control for a user: every check made here, whoever pressed it (a player's request
   * or the GM's own click).
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user  Who asked.
   */
  static async run(message, control, user) {
    if (game.user?.isGM && !GmRecords.hasRoom(message.id)) throw new Error(localize("ICONENGINE.Trust.RecordsFull"));
    switch (control.action) {
      case "damage": return CardActions.#applyDamage(message, control, user);
      case "undoDamage": return CardActions.#undoDamage(message, control, user);
      case "counter": return CardActions.#counter(message, control, user);
      case "effect": return CardActions.#applyPart(message, control, user);
      case "undoEffect": return CardActions.#undoPart(message, control, user);
      default: throw new Error(localize("ICONENGINE.Trust.BadRequest"));
    }
  }

  /**
   * Undo a healing card (a cure, a rest, Regeneration): the health fields and status effects it
   * changed, as its author's record says, only on an actor its author owns; by its author or a GM,
   * once. Runs on the presser's client: the author owns every actor it changes.
   * @param {ChatMessage.Implementation} message
   * @param {User.Implementation} user
   */
  static async undoHeal(message, user) {
    const healed = /** @type {{actor?: unknown, undo?: unknown} | undefined} */ (message.getFlag(SYSTEM_ID, "healed"));
    const actor = actorAt(healed?.actor);
    if (!healed || !actor || message.getFlag(SYSTEM_ID, "healUndone")) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    if (!(user.isGM || message.author?.id === user.id) || !CardFacts.authorOwns(message, actor) || !actor.testUserPermission(user, "OWNER")) {
      throw new Error(format("ICONENGINE.Trust.MayNotApply", { name: actor.name ?? "" }));
    }
    const known = knownStatuses();
    const undo = healthUndoOnly(healed.undo, known);
    undo.deleteEffects = undo.deleteEffects.filter(id => {
      const effect = actor.effects.get(id);
      return !!effect && effect.statuses.size > 0 && [...effect.statuses].every(s => known.has(s));
    });
    await ActorHealth.undoHealth(actor, undo);
    await message.setFlag(SYSTEM_ID, "healUndone", true);
  }

  /**
   * The target of a damage roll in a message that is no ability card (a health card, or an
   * attack message from before cards): the actor its roll names.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @returns {Actor.Implementation | null}
   */
  static rollTarget(message, key) {
    const roll = CardActions.#damageRoll(message, key);
    return roll ? actorAt(/** @type {{target?: {uuid?: unknown}}} */ (roll.options.tactical)?.target?.uuid) : null;
  }

  /**
   * A message's damage roll of a key, resolved again: an ability card's target's, or a health
   * card's (`role: "health"` with its `icon.applyDamage` options).
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @returns {CheckedRoll | null}
   */
  static #damageRoll(message, key) {
    const damage = CardFacts.roll(message, "damage", key);
    if (damage) return damage;
    const health = CardFacts.roll(message, "health", key);
    return health && /** @type {{apply?: unknown}} */ (health.options.tactical)?.apply ? health : null;
  }

  /**
   * What a damage control applies: its target, the amount (the roll's outcome from its faces; a
   * health card's request amount), the `icon.applyDamage` options, and the save's part in it.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {CardFactsOf | null} facts
   */
  static #damageOf(message, key, facts) {
    const roll = CardActions.#damageRoll(message, key);
    const target = facts ? facts.actors[key] ?? null : CardActions.rollTarget(message, key);
    if (!roll || !target) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
    const options = applyOptionsOnly(/** @type {{apply?: unknown}} */ (roll.options.tactical)?.apply);
    let amount;
    if (roll.request.kind === "icon.applyDamage") amount = wholeIn(/** @type {{amount?: unknown}} */ (roll.request).amount, 0, 1_000_000);
    else amount = Math.max(0, Math.trunc(Number(roll.outcome.total)) || 0);
    if (amount === null) throw new Error(localize("ICONENGINE.Trust.BadRoll"));
    const fact = facts?.targets[key] ?? null;
    // Hatred halves only damage dealt to a foe of the hater; Intangible and Vigilance read it too.
    if (fact && roll.request.kind === "icon.damage") options.fromFoe = fact.fromFoe;
    const forHalf = facts ? !!facts.card.save?.forHalf : !!(/** @type {{saveForHalf?: unknown}} */ (roll.options.tactical)?.saveForHalf);
    return { target, amount, options, forHalf, save: fact?.save ?? null };
  }

  /**
   * The card's user, who Counter hits: a card's actor when its author may use it, or an attack
   * message's attacker its author owns.
   * @param {ChatMessage.Implementation} message
   * @param {CardFactsOf | null} facts
   * @returns {Actor.Implementation | null}
   */
  static #attackerOf(message, facts) {
    if (facts) return facts.user;
    const attacker = actorAt(/** @type {{attacker?: unknown} | undefined} */ (message.getFlag(SYSTEM_ID, "tactical"))?.attacker);
    return attacker && CardFacts.authorOwns(message, attacker) ? attacker : null;
  }

  /**
   * Whether a record may change an actor: the GM's record any; a message's flag only the actors
   * its author owns.
   * @param {boolean} byGM
   * @param {ChatMessage.Implementation} message
   * @param {Actor.Implementation | null} actor
   */
  static #covers(byGM, message, actor) {
    return !actor || byGM || CardFacts.authorOwns(message, actor);
  }

  /**
   * Keep a record: the GM's client in its own records and, to show it, on the message; a player's
   * (on their own card, for their own actors) on the message only.
   * @param {ChatMessage.Implementation} message
   * @param {"damage" | "effect" | "counter"} group
   * @param {string} slot  A key, or `${key}.${part}`.
   * @param {unknown} value  null: forget.
   */
  static async #record(message, group, slot, value) {
    const messageId = /** @type {string} */ (message.id);
    if (game.user?.isGM) {
      if (group === "damage") await GmRecords.setDamage(messageId, Number(slot), /** @type {AppliedDamage | null} */ (value));
      else if (group === "effect") await GmRecords.setEffect(messageId, slot, /** @type {AppliedEffect | null} */ (value));
      else await GmRecords.setCounter(messageId, Number(slot));
    }
    const path = { damage: "damageApplied", effect: "effectsApplied", counter: "counterDealt" }[group];
    const flags = /** @type {{setFlag(scope: string, key: string, value: unknown): Promise<unknown>, unsetFlag(scope: string, key: string): Promise<unknown>}} */ (message);
    if (value === null) await flags.unsetFlag(SYSTEM_ID, `${path}.${slot}`);
    else await flags.setFlag(SYSTEM_ID, `${path}.${slot}`, value);
  }

  /**
   * The record of a slot: the GM's own, else the message's flag (see {@link CardFacts.records}).
   * @param {ChatMessage.Implementation} message
   * @param {"damage" | "effects"} group
   * @param {string} slot
   * @returns {{value: Record<string, unknown>, byGM: boolean} | null}
   */
  static #recordOf(message, group, slot) {
    const own = GmRecords.of(message.id)[group]?.[slot];
    if (own) return { value: /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (own)), byGM: true };
    const path = group === "damage" ? `damageApplied.${slot}` : `effectsApplied.${slot}`;
    // A dotted key, as Foundry's getFlag takes it (foundry-vtt-types 13.345 types top-level keys only).
    const flag = /** @type {{getFlag(scope: string, key: string): unknown}} */ (message).getFlag(SYSTEM_ID, path);
    return flag && typeof flag === "object" ? { value: /** @type {Record<string, unknown>} */ (flag), byGM: false } : null;
  }

  /**
   * Apply a target's damage once: who may, the amount and options derived again, save for half
   * from the target's save (or, before one is rolled, the presser's choice), an ally's Vigilance.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static async #applyDamage(message, control, user) {
    const facts = CardFacts.of(message);
    const { target, amount, options: base, forHalf, save } = CardActions.#damageOf(message, control.key, facts);
    if (!CardActions.mayApply(user, message, target)) throw new Error(format("ICONENGINE.Trust.MayNotApply", { name: target.name ?? "" }));
    if (CardActions.#recordOf(message, "damage", String(control.key))) throw new Error(localize("ICONENGINE.Trust.AlreadyApplied"));
    const saved = forHalf && (save ? save.success : control.saved === true);
    /** @type {Record<string, unknown>} */
    const options = saved ? savedOptions(base) : { ...base };
    let spent = null;
    if (control.vigilance) {
      const spender = actorAt(control.vigilanceBy);
      if (!spender || spender.uuid === target.uuid || !spender.testUserPermission(user, "OWNER")) throw new Error(localize("ICONENGINE.Trust.BadVigilance"));
      spent = await ActorHealth.spendVigilance(spender, control.vigilanceCharges ?? 0, control.vigilance);
      options.vigilance = control.vigilance;
    }
    try {
      const applied = await ActorHealth.applyDamageTo(target, amount, options);
      applied.userId = user.id ?? "";
      if (spent) applied.vigilance = spent;
      await CardActions.#record(message, "damage", String(control.key), applied);
    } catch (error) {
      // Nothing is lost: charges spent on damage that was not applied come back.
      if (spent) await ActorHealth.refundVigilance(spent);
      throw error;
    }
  }

  /**
   * Undo an applied damage: only the health fields and status effects it changed, the turn's
   * Slashed, the Vigilance it spent, and only on the actors its record covers. Counter dealt for
   * it stays dealt ("once per applied damage" would otherwise repeat after each undo).
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static async #undoDamage(message, control, user) {
    const facts = CardFacts.of(message);
    const target = facts ? facts.actors[control.key] ?? null : CardActions.rollTarget(message, control.key);
    if (!target || !CardActions.mayApply(user, message, target)) throw new Error(format("ICONENGINE.Trust.MayNotApply", { name: target?.name ?? "" }));
    const record = CardActions.#recordOf(message, "damage", String(control.key));
    if (!record) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    const known = knownStatuses();
    const refund = vigilanceRefundOnly(record.value.vigilance, known);
    const holder = refund ? actorAt(refund.uuid) : null;
    // Every actor it would change is checked before anything changes.
    for (const actor of [target, holder]) if (!CardActions.#covers(record.byGM, message, actor)) throw new Error(localize("ICONENGINE.Trust.NotCovered"));
    const undo = healthUndoOnly(record.value.undo, known);
    // Only effects the application made: status effects.
    undo.deleteEffects = undo.deleteEffects.filter(id => {
      const effect = target.effects.get(id);
      return !!effect && effect.statuses.size > 0 && [...effect.statuses].every(s => known.has(s));
    });
    await ActorHealth.undoHealth(target, undo);
    if (record.value.slashed === true) await target.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
    if (refund && holder) await ActorHealth.refundVigilance(refund);
    await CardActions.#record(message, "damage", String(control.key), null);
  }

  /**
   * Counter: the damaged target deals its Counter damage back to the card's user ("When damaged by
   * an ability, deal 2 damage back, each time damage is applied"), as damage that is no ability's;
   * once per card and target, an undo of the damage notwithstanding. The amount is the GM's record's
   * (its core computed it from the target's statuses when it applied the damage), or the core's
   * again from the target's statuses now for a record of the message's.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static async #counter(message, control, user) {
    const facts = CardFacts.of(message);
    const record = CardActions.#recordOf(message, "damage", String(control.key));
    if (!record) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    const target = facts ? facts.actors[control.key] ?? null : CardActions.rollTarget(message, control.key);
    const attacker = CardActions.#attackerOf(message, facts);
    if (!attacker || !target) throw new Error(localize("ICONENGINE.Trust.NoAttacker"));
    if (!(user.isGM || target.testUserPermission(user, "OWNER") || attacker.testUserPermission(user, "OWNER"))) {
      throw new Error(localize("ICONENGINE.Trust.MayNotCounter"));
    }
    if (!CardActions.#covers(record.byGM, message, attacker)) throw new Error(localize("ICONENGINE.Trust.NotCovered"));
    const dealt = GmRecords.counter(message.id, control.key)
      || /** @type {Record<string, boolean> | undefined} */ (message.getFlag(SYSTEM_ID, "counterDealt"))?.[String(control.key)] === true;
    if (dealt) throw new Error(localize("ICONENGINE.Trust.CounterDealt"));
    const counter = record.byGM ? wholeIn(record.value.counter, 0, 100) ?? 0 : await CardActions.#counterNow(message, control.key, facts, record.value);
    if (!counter) return;
    await CardActions.#record(message, "counter", String(control.key), true);
    // Its own card, with Undo (and Apply again after an Undo).
    await TacticalRolls.damage(attacker, counter, { source: "effect", ability: false, fromFoe: true }, { label: "ICONENGINE.Status.counter.name" });
  }

  /**
   * The Counter damage a card's target deals back now, through the core: the damage it took was an
   * ability's and hurt it, and its statuses now include Counter.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {CardFactsOf | null} facts
   * @param {Record<string, unknown>} applied
   * @returns {Promise<number>}
   */
  static async #counterNow(message, key, facts, applied) {
    const { target, options } = CardActions.#damageOf(message, key, facts);
    if (!(Number(applied.dealt) > 0) || options.ability === false) return 0;
    const core = await loadCore();
    const statuses = ActorStatuses.statusesOf(target);
    // One point of damage into a fresh target with the actor's statuses: what Counter deals back.
    const probe = { hp: 10, maxHp: 10, vigor: 0, armor: 0, wounds: 0, isPlayerCharacter: false, statuses };
    const answer = /** @type {{counter?: number}} */ (core.resolve({ kind: "icon.applyDamage", target: probe, amount: 1, source: "effect" }, []));
    return Number(answer.counter ?? 0);
  }

  /* -------------------------------------------- */
  /*  Parts: statuses, marks, forced movement     */
  /* -------------------------------------------- */

  /**
   * A card's part on one of its targets (key -1: its user), once, if the core says it fired for
   * them: its status if it lands (with its duration and its source), its mark placed by the card's
   * user, its forced movement by the rules. `icon-engine.preApplyEffect` (target, {effect,
   * inflicter}) may cancel it; `icon-engine.applyEffect` (target, {effect, inflicter, landed}) follows.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static async #applyPart(message, control, user) {
    const facts = CardFacts.of(message);
    if (!facts) throw new Error(localize("ICONENGINE.Use.NoEffect"));
    const index = control.part ?? 0;
    const part = facts.card.parts[index];
    const recipient = control.key === -1 ? facts.user : facts.actors[control.key] ?? null;
    if (!part || !recipient) throw new Error(localize("ICONENGINE.Use.NoTarget"));
    if (control.key === -1 ? !(user.isGM || recipient.testUserPermission(user, "OWNER")) : !CardActions.mayApply(user, message, recipient)) {
      throw new Error(format("ICONENGINE.Use.MayNotAffect", { name: recipient.name ?? "" }));
    }
    const fired = (control.key === -1 ? facts.answer?.self : facts.answer?.targets[control.key]?.parts)?.find(p => p.index === index);
    if (!fired) throw new Error(localize("ICONENGINE.Card.NotFired"));
    // as the card shows it: no control for a part of which nothing can land (a status and a mark
    // the rules block, or a mark with no placer)
    const blocked = (!part.status || fired.status?.lands === false) && (!part.mark || !facts.user || fired.mark?.lands === false);
    if (blocked && !part.move.kind) throw new Error(format("ICONENGINE.Card.AllBlocked", { name: recipient.name ?? "" }));
    const slot = `${control.key}.${index}`;
    if (CardActions.#recordOf(message, "effects", slot)) throw new Error(localize("ICONENGINE.Trust.AlreadyApplied"));
    const change = { effect: { ...part }, inflicter: facts.user };
    if (!callPre(HOOKS.preApplyEffect, recipient, change)) throw cancelled(HOOKS.preApplyEffect);
    /** @type {AppliedEffect} */
    const applied = { userId: user.id ?? "", landed: false, blockedBy: null, created: [], restored: [], moved: null, collision: null };
    if (part.status) {
      if (fired.status?.lands) {
        const created = await CardActions.#addStatus(recipient, part, facts);
        applied.created.push(...created.map(id => ({ actor: recipient.uuid, id })));
        applied.landed = true;
      } else applied.blockedBy = fired.status?.blockedBy ?? null;
    }
    if (part.mark && facts.user) {
      if (fired.mark?.lands) {
        const placed = await ActorMarks.placeMark(facts.user, recipient, part.mark, { keepOld: !!control.keepOld });
        if (placed.created) applied.created.push({ actor: recipient.uuid, id: placed.created });
        applied.restored.push(...placed.ended.map(e => ({ actor: e.actor, source: /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (e.source)) })));
        applied.landed ||= placed.placed;
      } else applied.blockedBy ??= fired.mark?.blockedBy ?? null;
    }
    if ((part.move.kind === "move" && control.key !== -1) || (part.move.kind === "rush" && control.key === -1)) {
      applied.moved = CardActions.#draggedMove(facts, control, part, fired, recipient);
      applied.landed ||= applied.moved.spaces > 0;
    }
    if (part.move.kind === "teleport" && control.key === -1) {
      applied.moved = await CardActions.#teleport(facts, control, part, fired, recipient);
      applied.landed ||= applied.moved.spaces > 0;
    }
    if ((part.move.kind === "shove" || part.move.kind === "pull") && control.key !== -1) {
      const { moved, collision } = await CardActions.#move(facts, control.key, part, fired, recipient);
      applied.moved = moved;
      applied.collision = collision;
      applied.landed ||= !!moved && (moved.spaces > 0 || moved.collided);
    }
    await CardActions.#record(message, "effect", slot, applied);
    callAfter(HOOKS.applyEffect, recipient, { effect: change.effect, inflicter: facts.user, landed: applied.landed });
  }

  /**
   * Put a status on an actor (`toggleStatusEffect`, which the Unstoppable guard sees), with how long
   * it lasts (ongoing +, or to the end of its next turn) and where it came from (its origin, the
   * card). Returns the ids of the effects it created (none when the status was already on).
   * @param {Actor.Implementation} actor
   * @param {CardPart} part
   * @param {CardFactsOf} facts
   * @returns {Promise<string[]>}
   */
  static async #addStatus(actor, part, facts) {
    const before = new Set(actor.effects.map(e => e.id));
    await actor.toggleStatusEffect(part.status, { active: true });
    const created = actor.effects.filter(e => !before.has(e.id) && e.statuses.has(part.status));
    // How long it lasts, in the generation's shape (module/data/effect-duration.mjs). An ongoing part
    // of a stance or an aura lasts while its cause does (module/documents/lasting-effects.mjs).
    const lasts = { [`flags.${SYSTEM_ID}.source`]: { card: facts.message.id, name: facts.card.name }, ...durationUpdate(part.duration),
      ...(part.duration === "ongoing" && facts.cause ? { [`flags.${SYSTEM_ID}.cause`]: facts.cause } : {}) };
    if (created.length) {
      await actor.updateEmbeddedDocuments("ActiveEffect", created.map(e => ({ _id: e.id, origin: facts.user?.uuid ?? null, ...lasts })));
    }
    return created.map(e => e.id ?? "");
  }

  /**
   * Forced movement by the rules: a shove straight away from the card's user (a pull towards it)
   * of the spaces the core allows, stopping at the battlefield's edge, and colliding with another
   * character, a wall or a blocking object ("they collide and stop, taking damage equal to shove
   * amount, which cannot reduce them below 1 hp").
   * @param {CardFactsOf} facts
   * @param {number} key
   * @param {CardPart} part
   * @param {import("../dice/cards/ability-card.mjs").FiredPart} fired
   * @param {Actor.Implementation} recipient
   * @returns {Promise<{moved: AppliedEffect["moved"], collision: AppliedDamage | null}>}
   */
  static async #move(facts, key, part, fired, recipient) {
    const grid = canvas?.grid;
    const scene = canvas?.scene;
    const entry = facts.card.targets[key];
    const tokenDoc = /** @type {TokenDocument.Implementation | null} */ (documentAt(entry?.token))
      ?? /** @type {Token.Implementation[]} */ (recipient.getActiveTokens())[0]?.document ?? null;
    const fromDoc = /** @type {Token.Implementation[] | undefined} */ (facts.user?.getActiveTokens())?.[0]?.document ?? null;
    if (!grid || !scene || !tokenDoc || !fromDoc || tokenDoc.parent !== scene || fromDoc.parent !== scene) {
      throw new Error(localize("ICONENGINE.Card.NoTokens"));
    }
    const size = grid.size;
    const foot = (/** @type {TokenDocument.Implementation} */ t) => ({ i: Math.round(t.x / size), j: Math.round(t.y / size),
      w: Math.max(1, Math.round(Number(t.width) || 1)), h: Math.max(1, Math.round(Number(t.height) || 1)) });
    const target = foot(tokenDoc);
    const others = scene.tokens.contents.filter(t => t.id !== tokenDoc.id && t.id !== fromDoc.id && CardActions.#obstructs(t)).map(foot);
    const rect = /** @type {{sceneRect?: {x: number, y: number, width: number, height: number}} | undefined} */ (canvas?.dimensions)?.sceneRect;
    const center = (/** @type {Footprint} */ f) => ({ x: (f.i + f.w / 2) * size, y: (f.j + f.h / 2) * size });
    const backend = /** @type {{testCollision?: (a: object, b: object, o: object) => unknown} | undefined} */ (
      /** @type {{polygonBackends?: {move?: object}}} */ (CONFIG.Canvas)?.polygonBackends?.move);
    const path = forcedPath({
      target, user: foot(fromDoc), kind: /** @type {"shove" | "pull"} */ (part.move.kind),
      spaces: CardActions.#allowedSpaces(facts, key, part, fired, recipient),
      blocked: (next, from) => {
        if (rect && (next.i * size < rect.x || next.j * size < rect.y || (next.i + next.w) * size > rect.x + rect.width
          || (next.j + next.h) * size > rect.y + rect.height)) return "edge";
        if (others.some(o => next.i < o.i + o.w && o.i < next.i + next.w && next.j < o.j + o.h && o.j < next.j + next.h)) return "collide";
        if (backend?.testCollision?.(center(from), center(next), { type: "move", mode: "any" })) return "collide";
        return "clear";
      }
    });
    const from = { x: tokenDoc.x, y: tokenDoc.y };
    const to = { x: path.end.i * size, y: path.end.j * size };
    if (path.moved) await tokenDoc.update({ x: to.x, y: to.y });
    let collision = null;
    if (path.collided) {
      collision = await ActorHealth.applyDamageTo(recipient, part.move.spaces, { source: "effect", ability: true,
        fromFoe: !!facts.targets[key]?.fromFoe, floor: 1 });
    }
    return { moved: { token: tokenDoc.uuid, from, to, spaces: path.moved, collided: path.collided }, collision };
  }

  /**
   * A move the presser dragged: the token stands where it was dragged, at most the spaces the rules
   * allow from where it stood (`from`, the control's claim, checked against that distance).
   * @param {CardFactsOf} facts
   * @param {CardControl} control
   * @param {CardPart} part
   * @param {import("../dice/cards/ability-card.mjs").FiredPart} fired
   * @param {Actor.Implementation} recipient
   * @returns {NonNullable<AppliedEffect["moved"]>}
   */
  static #draggedMove(facts, control, part, fired, recipient) {
    const token = CardActions.#tokenOf(facts, control.key, recipient);
    const size = canvas?.grid?.size ?? 0;
    if (!token || !control.from || !size) throw new Error(localize("ICONENGINE.Card.NoTokens"));
    const spaces = CardActions.#dragSpaces(token, control.from, { x: token.x, y: token.y }, part.move.kind === "rush");
    const allowed = CardActions.#allowedSpaces(facts, control.key, part, fired, recipient);
    if (spaces > allowed) throw new Error(formatPlural("ICONENGINE.Card.DragTooFar", allowed, { name: token.name ?? "" }));
    return { token: token.uuid, from: control.from, to: { x: token.x, y: token.y }, spaces: Math.round(spaces), collided: false };
  }

  /**
   * A teleport to the space the presser picked (`to`, the control's claim), checked again here:
   * "a free space within range X" (teleport-space.mjs `teleportRefusal`); then the token moves by
   * Foundry's teleport movement (compat/token-moves.mjs).
   * @param {CardFactsOf} facts
   * @param {CardControl} control
   * @param {CardPart} part
   * @param {import("../dice/cards/ability-card.mjs").FiredPart} fired
   * @param {Actor.Implementation} recipient
   * @returns {Promise<NonNullable<AppliedEffect["moved"]>>}
   */
  static async #teleport(facts, control, part, fired, recipient) {
    const token = CardActions.#tokenOf(facts, control.key, recipient);
    const size = canvas?.grid?.size ?? 0;
    if (!token || !size || !canvas?.scene || token.parent !== canvas.scene) throw new Error(localize("ICONENGINE.Card.NoTokens"));
    if (!control.to) throw new Error(localize("ICONENGINE.Trust.BadRequest"));
    const cell = { i: Math.round(control.to.x / size), j: Math.round(control.to.y / size) };
    const refusal = TeleportPlacement.refusal(token, cell, fired.move?.spaces ?? part.move.spaces);
    if (refusal) throw new Error(localize(`ICONENGINE.Card.Move.Refused.${refusal}`));
    const from = { x: token.x, y: token.y };
    const to = { x: cell.i * size, y: cell.j * size };
    const spaces = spacesMoved({ i: Math.round(from.x / size), j: Math.round(from.y / size) }, cell);
    if (spaces && !(await teleportToken(token, to))) throw new Error(localize("ICONENGINE.Card.Move.NotMoved"));
    return { token: token.uuid, from, to, spaces, collided: false, action: TELEPORT_ACTION };
  }

  /**
   * Whether a token is in a shoved character's way ("Obstruction ... foes, terrain and objects";
   * an incapacitated or intangible character "doesn't provide obstruction").
   * @param {TokenDocument.Implementation} token
   */
  static #obstructs(token) {
    const statuses = /** @type {Set<string> | undefined} */ (token.actor?.statuses);
    return !["defeated", "incapacitated", "intangible"].some(s => statuses?.has(s));
  }

  /**
   * Undo an applied part: the effects it created (status and mark effects only), the marks it
   * ended (recreated), its movement (back where it came from, if the token has not moved since),
   * its collision's damage; only on the actors its record covers.
   * @param {ChatMessage.Implementation} message
   * @param {CardControl} control
   * @param {User.Implementation} user
   */
  static async #undoPart(message, control, user) {
    const facts = CardFacts.of(message);
    if (!facts) throw new Error(localize("ICONENGINE.Use.NoEffect"));
    const recipient = control.key === -1 ? facts.user : facts.actors[control.key] ?? null;
    if (!recipient) throw new Error(localize("ICONENGINE.Use.NoTarget"));
    if (control.key === -1 ? !(user.isGM || recipient.testUserPermission(user, "OWNER")) : !CardActions.mayApply(user, message, recipient)) {
      throw new Error(format("ICONENGINE.Use.MayNotAffect", { name: recipient.name ?? "" }));
    }
    const slot = `${control.key}.${control.part ?? 0}`;
    const record = CardActions.#recordOf(message, "effects", slot);
    if (!record) throw new Error(localize("ICONENGINE.Trust.NotApplied"));
    const known = knownStatuses();
    const created = (Array.isArray(record.value.created) ? record.value.created : []).slice(0, 16);
    const restored = (Array.isArray(record.value.restored) ? record.value.restored : []).slice(0, 16);
    const actors = [...created, ...restored].map(entry => actorAt(/** @type {{actor?: unknown}} */ (entry)?.actor));
    for (const actor of [recipient, ...actors]) if (!CardActions.#covers(record.byGM, message, actor)) throw new Error(localize("ICONENGINE.Trust.NotCovered"));
    for (const [i, entry] of created.entries()) {
      const actor = actors[i];
      const effect = actor?.effects.get(String(/** @type {{id?: unknown}} */ (entry)?.id ?? ""));
      // Only what an application makes: status and mark effects.
      if (actor && effect && effect.statuses.size > 0 && [...effect.statuses].every(s => known.has(s) || s === "marked")) {
        await actor.deleteEmbeddedDocuments("ActiveEffect", [effect.id ?? ""]);
      }
    }
    for (const [i, entry] of restored.entries()) {
      const actor = actors[created.length + i];
      const raw = /** @type {{source?: unknown}} */ (entry)?.source;
      const source = markEffectSource(raw, known) ?? statusEffectSource(raw, known);
      if (actor && source && !actor.effects.has(source._id ?? "")) await actor.createEmbeddedDocuments("ActiveEffect", [source], { keepId: true });
    }
    const moved = /** @type {{token?: unknown, from?: {x?: unknown, y?: unknown}, to?: {x?: unknown, y?: unknown}} | null} */ (record.value.moved);
    if (moved && typeof moved.token === "string") {
      const token = /** @type {TokenDocument.Implementation | null} */ (documentAt(moved.token));
      const at = (/** @type {unknown} */ v) => (typeof v === "number" && Number.isFinite(v) ? v : null);
      const from = { x: at(moved.from?.x), y: at(moved.from?.y) };
      if (token && token.actor?.uuid === recipient.uuid && from.x !== null && from.y !== null && token.x === at(moved.to?.x) && token.y === at(moved.to?.y)) {
        // A teleport goes back as it came: by Foundry's teleport movement.
        if (/** @type {{action?: unknown}} */ (moved).action === TELEPORT_ACTION) await teleportToken(token, { x: from.x, y: from.y });
        else await token.update({ x: from.x, y: from.y });
      }
    }
    const collision = /** @type {{undo?: unknown} | null} */ (record.value.collision);
    if (collision?.undo) await ActorHealth.undoHealth(recipient, healthUndoOnly(collision.undo, known));
    await CardActions.#record(message, "effect", slot, null);
  }

  /**
   * Before placing a mark on a character that already has another of its placer's: "you choose
   * which to keep or discard". True: keep the old one; false: the new one (or no choice to make);
   * null: cancelled.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @param {number} index
   * @returns {Promise<boolean | null>}
   */
  static async #askKeep(message, key, index) {
    const facts = CardFacts.of(message);
    const part = facts?.card.parts[index];
    const target = key === -1 ? facts?.user : facts?.actors[key];
    if (!facts?.user || !part?.mark || !target) return false;
    const old = ActorMarks.markOn(facts.user, target);
    if (!old || old === part.mark) return false;
    const choice = await foundry.applications.api.DialogV2.wait({
      window: { title: localize("ICONENGINE.Card.KeepTitle") },
      content: `<p>${foundry.utils.escapeHTML(format("ICONENGINE.Card.KeepWhich", { name: target.name ?? "", old, mark: part.mark }))}</p>`,
      buttons: [
        { action: "new", label: format("ICONENGINE.Card.KeepNew", { mark: part.mark }), default: true },
        { action: "old", label: format("ICONENGINE.Card.KeepOld", { mark: old }) }
      ],
      rejectClose: false
    });
    return choice === "old" ? true : choice === "new" ? false : null;
  }

  /* -------------------------------------------- */
  /*  Saves and Vigilance (rolled on the presser's client) */
  /* -------------------------------------------- */

  /**
   * A target's owner rolls its save against the card ("a save succeeds on 10+"), once, spending a
   * Blessing token for +1 boon if they choose to and hold one. The save message names the card,
   * which reads its result from there.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   */
  static async rollSave(message, key) {
    const facts = CardFacts.of(message);
    const target = facts?.actors[key] ?? null;
    if (!facts?.card.save || !target) throw new Error(localize("ICONENGINE.Use.NoTarget"));
    if (!target.isOwner) throw new Error(format("ICONENGINE.Use.NotYours", { name: target.name ?? "" }));
    if (facts.targets[key]?.save) throw new Error(localize("ICONENGINE.Card.AlreadySaved"));
    const blessing = await CardActions.askBlessing(target);
    if (blessing === null) return null;
    return TacticalRolls.save(target, { boons: facts.card.save.boons, curses: facts.card.save.curses, blessing,
      link: { message: /** @type {string} */ (message.id), key } });
  }

  /**
   * Whether to spend one of an actor's Blessing tokens on a save ("By default a character can use a
   * blessing token to gain +1 boon when they make a save"): asked only when it holds one. Null: cancelled.
   * @param {Actor.Implementation} actor
   * @returns {Promise<boolean | null>}
   */
  static async askBlessing(actor) {
    const held = Number(/** @type {{tokens?: {blessings?: unknown}}} */ (actor.system).tokens?.blessings ?? 0);
    if (!(held > 0)) return false;
    const choice = await foundry.applications.api.DialogV2.wait({
      window: { title: localize("ICONENGINE.Card.BlessingTitle") },
      content: `<p>${foundry.utils.escapeHTML(formatPlural("ICONENGINE.Card.BlessingAsk", held, { name: actor.name ?? "" }))}</p>`,
      buttons: [
        { action: "spend", label: localize("ICONENGINE.Card.BlessingSpend") },
        { action: "keep", label: localize("ICONENGINE.Card.BlessingKeep"), default: true }
      ],
      rejectClose: false
    });
    return choice === "spend" ? true : choice === "keep" ? false : null;
  }

  /**
   * Vigilance: who spends how many of its charges (a prompt offering at most the charges held),
   * then their d6s rolled through Foundry, the highest counting. Null when no one holds charges or
   * the prompt is cancelled. The charges are spent when the damage is applied.
   * @param {ChatMessage.Implementation} message
   * @param {number} key
   * @returns {Promise<{vigilance: number, vigilanceBy: string, vigilanceCharges: number} | null>}
   */
  static async #rollVigilance(message, key) {
    const facts = CardFacts.of(message);
    const target = facts ? facts.actors[key] ?? null : CardActions.rollTarget(message, key);
    if (!target) throw new Error(localize("ICONENGINE.Tactical.NoTarget"));
    /** @type {(Actor.Implementation | null | undefined)[]} */
    const candidates = [
      ...(/** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat))?.combatants.map(c => c.actor) ?? []),
      game.user?.character,
      ...(canvas?.tokens?.controlled.map(t => t.actor) ?? [])
    ];
    const spenders = vigilanceSpenders(candidates.filter(a => !!a), target.uuid);
    if (!spenders.length) {
      ui.notifications?.warn(format("ICONENGINE.Vigilance.NoSpender", { name: target.name ?? "" }));
      return null;
    }
    const most = Math.max(...spenders.map(s => s.held));
    const content = await foundry.applications.handlebars.renderTemplate(TEMPLATES.vigilance, {
      spenders: spenders.map(s => ({ ...s, label: format("ICONENGINE.Vigilance.Holder", { name: s.name, held: String(s.held) }) })),
      most
    });
    const answer = /** @type {Record<string, unknown> | null} */ (await foundry.applications.api.DialogV2.input({
      window: { title: localize("ICONENGINE.Status.vigilance.name") }, content, rejectClose: false
    }));
    const spender = spenders.find(s => s.uuid === answer?.spender) ?? (spenders.length === 1 ? spenders[0] : null);
    if (!answer || !spender) return null;
    const charges = Math.trunc(Number(answer.charges));
    const spent = spendVigilance(spender.held, charges);
    if (!spent) {
      ui.notifications?.warn(formatPlural("ICONENGINE.Vigilance.NotHeldCount", Math.trunc(Number(answer.charges)) || 0, { name: spender.name, held: String(spender.held) }));
      return null;
    }
    const escape = (/** @type {string} */ s) => foundry.utils.escapeHTML(s);
    const flavor = format("ICONENGINE.Vigilance.Roll", { name: spender.name, charges: String(charges), target: target.name ?? "" });
    const html = format("ICONENGINE.Vigilance.Roll", { name: escape(spender.name), charges: String(charges), target: escape(target.name ?? "") });
    const roll = await IconRoll.fromRequest({ kind: "dice", formula: spent.formula }, { flavor });
    await roll.evaluate();
    const holder = actorAt(spender.uuid);
    await roll.toMessage({ speaker: holder ? ChatMessage.implementation.getSpeaker({ actor: holder }) : message.speaker, flavor: html });
    return { vigilance: roll.total ?? 0, vigilanceBy: spender.uuid, vigilanceCharges: charges };
  }
}
