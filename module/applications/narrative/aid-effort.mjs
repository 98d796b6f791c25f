/**
 * The helpers' effort of an action roll: "When you aid an ally during their action roll, you
 * spend 1 effort to grant them +1 boon", and a broken character's "Nearby characters can also
 * spend effort for you". The roller names the helpers in the action roll dialog; the roll carries
 * them (its options `aidBy`, the helpers' actor UUIDs, and `brokenPaidBy`, one or null), and once
 * it is posted each helper pays: the roller's client pays the helpers its user owns, the active
 * GM's client the others (the `payAid` request, docs/security.md). A helper pays for a roll once:
 * the roll's message id goes into the helper's `flags.icon-engine.aidPaid`, which only the
 * helper's owners and the GM can write, so the roller cannot make another character pay twice.
 * @import { CoreRequest, Done } from "../../types/core.js"
 */
import { SYSTEM_ID } from "../../config.mjs";
import { loadCore } from "../../core.mjs";
import IconSocket from "../../icon-socket.mjs";
import { format, localize } from "../i18n.mjs";
import { MAX_HELPERS } from "./action-roll.mjs";

/** The socket request a player's client sends for the helpers it does not own. */
export const PAY_REQUEST = "payAid";

/** The helper's flag: the ids of the messages whose rolls it has paid for. */
export const PAID_FLAG = "aidPaid";

/**
 * @typedef {object} AidClaim  What a roll says its helpers owe.
 * @property {Map<string, number>} costs  Effort by helper actor UUID.
 * @property {string} roller  The roller's actor UUID.
 */

/**
 * What a posted action roll's helpers owe, checked against the roll itself: the helpers it
 * names must be the ones its request was rolled with (`aid` of them, and one for
 * `brokenPaidByAlly`), and their total what the core, resolving the roll's faces again, says the
 * helpers pay (`effortHelpers`). Pure: the roll's request, outcome and options in.
 * @param {{request: Record<string, unknown>, options: Record<string, unknown>}} roll
 * @param {Done & {effortHelpers?: unknown}} outcome  The core's answer to the request and the roll's faces.
 * @returns {AidClaim}
 * @throws {Error} naming what does not fit (an i18n key).
 */
export function aidClaim({ request, options }, outcome) {
  const refuse = () => new Error("ICONENGINE.Narrative.AidMismatch");
  const aidBy = options.aidBy ?? [];
  const brokenPaidBy = options.brokenPaidBy ?? null;
  if (!Array.isArray(aidBy) || aidBy.length > MAX_HELPERS || !aidBy.every(uuid => typeof uuid === "string" && uuid.length <= 300)) throw refuse();
  if (brokenPaidBy !== null && (typeof brokenPaidBy !== "string" || brokenPaidBy.length > 300)) throw refuse();
  if (new Set(aidBy).size !== aidBy.length) throw refuse();
  if (aidBy.length !== Number(request.aid ?? 0)) throw refuse();
  if ((brokenPaidBy !== null) !== (request.brokenPaidByAlly === true)) throw refuse();
  const owed = aidBy.length + (brokenPaidBy === null ? 0 : 1);
  if (owed !== Number(outcome.effortHelpers ?? 0)) throw refuse();
  const roller = typeof options.actorUuid === "string" ? options.actorUuid : "";
  /** @type {Map<string, number>} */
  const costs = new Map();
  for (const uuid of [...aidBy, ...(brokenPaidBy === null ? [] : [brokenPaidBy])]) {
    if (uuid === roller) throw refuse();
    costs.set(uuid, (costs.get(uuid) ?? 0) + 1);
  }
  return { costs, roller };
}

/**
 * The update a helper makes to pay: its effort less the cost, the message remembered. Null when it
 * has paid for this message already; `short` when it has too little effort (nothing is taken).
 * The messages remembered are those that still exist (only an existing message's roll can be
 * paid for, so a deleted one's id is of no use).
 * @param {{effort?: unknown}} system
 * @param {unknown} paid  Its `flags.icon-engine.aidPaid`.
 * @param {string} messageId
 * @param {number} cost
 * @param {(id: string) => boolean} [exists]  Whether a message still exists.
 * @returns {{update: Record<string, unknown>} | {short: true} | null}
 */
export function helperPayment(system, paid, messageId, cost, exists = () => true) {
  const before = Array.isArray(paid) ? paid.filter(id => typeof id === "string") : [];
  if (before.includes(messageId)) return null;
  const effort = Math.max(0, Math.trunc(Number(system.effort) || 0));
  if (effort < cost) return { short: true };
  const kept = before.filter(id => id !== messageId && exists(id));
  return { update: { "system.effort": effort - cost, [`flags.${SYSTEM_ID}.${PAID_FLAG}`]: [...kept, messageId] } };
}

export default class AidEffort {
  /** Register the GM's side of the request (at init, with the other socket handlers). */
  static register() {
    IconSocket.registerHandler(PAY_REQUEST, (payload, userId) => AidEffort.#serial(() => AidEffort.#request(payload, userId)));
  }

  /** Payments one after another, so one roll cannot pass its once-only check twice. */
  static #queue = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T>} action
   * @returns {Promise<T>}
   */
  static #serial(action) {
    const run = AidEffort.#queue.then(action);
    AidEffort.#queue = run.then(() => {}, () => {});
    return run;
  }

  /**
   * After the roller's client posted an action roll: its helpers pay. Those this user owns pay
   * here; the others through the active GM. What was paid, and who had nothing left, is said.
   * @param {ChatMessage.Implementation} message
   * @returns {Promise<{paid: string[], short: string[]}>}  The helpers' names.
   */
  static async pay(message) {
    const user = game.user;
    if (!user) return { paid: [], short: [] };
    const own = await AidEffort.#serial(() => AidEffort.#payFor(message, user, { ownedOnly: !user.isGM }));
    let result = own;
    if (own.others) {
      const answer = /** @type {{paid?: string[], short?: string[]} | null} */ (await IconSocket.executeAsGM(PAY_REQUEST, { messageId: message.id }));
      result = { paid: [...own.paid, ...(answer?.paid ?? [])], short: [...own.short, ...(answer?.short ?? [])], others: 0 };
    }
    if (result.paid.length) ui.notifications?.info(format("ICONENGINE.Narrative.HelpersPaid", { names: result.paid.join(", ") }));
    for (const name of result.short) ui.notifications?.warn(format("ICONENGINE.Narrative.HelperNothingLeft", { name }));
    return { paid: result.paid, short: result.short };
  }

  /**
   * A player's request: the helpers of their action roll that they do not own pay, on the GM's
   * client. Only the roll's author (or a GM) may ask.
   * @param {Record<string, unknown>} payload
   * @param {string} userId  The sender, as Foundry's server reports it.
   */
  static async #request(payload, userId) {
    const { messageId } = payload;
    if (typeof messageId !== "string") throw new Error(localize("ICONENGINE.Trust.BadRequest"));
    const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(messageId)));
    if (!message) throw new Error(localize("ICONENGINE.Trust.NoMessage"));
    const user = game.users?.get(userId);
    if (!user) throw new Error(localize("ICONENGINE.Socket.NoSender"));
    const { paid, short } = await AidEffort.#payFor(message, user, { ownedOnly: false });
    return { paid, short };
  }

  /**
   * Make a message's action roll's helpers pay: what the roll claims, checked against the roll
   * (the core resolves its faces again), each helper a character other than the roller, once per
   * message. `ownedOnly`: only the helpers `user` owns (the roller's own client); `others` counts
   * the ones left for the GM.
   * @param {ChatMessage.Implementation} message
   * @param {User.Implementation} user  Who asks.
   * @param {{ownedOnly: boolean}} options
   * @returns {Promise<{paid: string[], short: string[], others: number}>}
   */
  static async #payFor(message, user, { ownedOnly }) {
    const roll = /** @type {{options: Record<string, unknown>, dice: {results: {result: number}[]}[]} | undefined} */ (/** @type {unknown} */ (
      message.rolls.find(r => /** @type {{options?: {request?: {kind?: unknown}}}} */ (r).options?.request?.kind === "icon.action")));
    if (!roll) throw new Error(localize("ICONENGINE.Trust.NoActionRoll"));
    if (!user.isGM && message.author?.id !== user.id) throw new Error(localize("ICONENGINE.Narrative.AidNotYourRoll"));
    // A player rolls for a character they own: no one else's roll makes helpers pay.
    const rollerUuid = typeof roll.options.actorUuid === "string" ? roll.options.actorUuid : "";
    const roller = rollerUuid ? foundry.utils.fromUuidSync(/** @type {`Actor.${string}`} */ (rollerUuid)) : null;
    const author = message.author;
    if (!(roller instanceof Actor) || !author || !roller.testUserPermission(author, "OWNER")) throw new Error(localize("ICONENGINE.Narrative.AidNotYourRoll"));
    const request = /** @type {Record<string, unknown>} */ (roll.options.request);
    const core = await loadCore();
    const faces = roll.dice.map(term => term.results.map(result => result.result));
    const outcome = /** @type {Done & {effortHelpers?: unknown}} */ (core.resolve(/** @type {CoreRequest} */ (/** @type {unknown} */ (request)), faces));
    if (outcome.status !== "done") throw new Error(localize("ICONENGINE.Narrative.AidMismatch"));
    let claim;
    try {
      claim = aidClaim({ request, options: roll.options }, outcome);
    } catch (error) {
      throw new Error(localize(error instanceof Error ? error.message : String(error)));
    }
    /** @type {string[]} */
    const paid = [];
    /** @type {string[]} */
    const short = [];
    let others = 0;
    for (const [uuid, cost] of claim.costs) {
      const helper = foundry.utils.fromUuidSync(/** @type {`Actor.${string}`} */ (uuid));
      // Only characters pay effort; the roll's own character pays its own share elsewhere.
      if (!(helper instanceof Actor) || helper.type !== "character") throw new Error(localize("ICONENGINE.Narrative.AidMismatch"));
      if (ownedOnly && !helper.testUserPermission(user, "OWNER")) {
        others++;
        continue;
      }
      const payment = helperPayment(/** @type {{effort?: unknown}} */ (helper.system), helper.getFlag(SYSTEM_ID, PAID_FLAG), message.id ?? "", cost,
        id => !!game.messages?.get(id));
      if (!payment) continue;
      if ("short" in payment) {
        short.push(helper.name ?? "");
        continue;
      }
      await helper.update(payment.update);
      paid.push(helper.name ?? "");
    }
    return { paid, short, others };
  }
}
