import { loadCore } from "../core.mjs";
import { tokensOf, tokensUpdate } from "../data/tokens.mjs";
import { abilityAftermath } from "../dice/tactical-requests.mjs";
import ActorStatuses from "./actor-statuses.mjs";
import { format } from "../applications/i18n.mjs";

/**
 * @typedef {object} IconTurnOrder  What this module uses of the ICON Combat (documents/icon-combat.mjs).
 * @property {{current?: {id: string} | null} | null} iconState
 * @property {{get(id: string): {actor?: {uuid: string} | null} | undefined}} combatants
 * @property {(event: object) => Promise<void>} iconDispatch
 */

/**
 * @import { Done } from "../types/core.js"
 */

/**
 * An actor in the turn order: whether it fights in the running combat, what using an ability does
 * to its turn (Stunned), its tokens (Blessing, Combo, power dice) and its limit break's resolve.
 */
export default class ActorTurns {
  /**
   * Whether the actor fights in the viewed combat once it has started: only then are there turns
   * for "once a turn" to count.
   * @param {Actor.Implementation} actor
   * @returns {boolean}
   */
  static inCombat(actor) {
    // The configured Combat is IconCombat (foundry-vtt-types 13.345 gives game.combat no members of it).
    const combat = /** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat));
    if (!combat?.started) return false;
    return combat.combatants.some(c => c.actor?.uuid === actor.uuid);
  }

  /**
   * After any ability (basic attacks included): Stunned "Your next ability used ends your turn,
   * then end this status", and Stealth "is broken when you use any ability other than dash"
   * ({@link abilityAftermath}); an ability tagged End turn ("This ability ends your turn") ends it
   * too, and one tagged Delay makes the user's next turn slow ("When you use an ability with a delay
   * effect, your next turn must be slow"). The actor's open ICON turn ends once, whatever ends it
   * ("If multiple abilities or effects would end your turn at the same time, you can only choose one").
   * @param {Actor.Implementation} actor
   * @param {{tags?: string[], dash?: boolean}} [ability]  The ability's tags; `dash`: it was a Dash.
   * @returns {Promise<{endsTurn: boolean}>}
   */
  static async abilityUsed(actor, { tags = [], dash = false } = {}) {
    const core = await loadCore();
    const aftermath = abilityAftermath(core, ActorStatuses.statusesOf(actor), { dash });
    for (const id of aftermath.ended) await actor.toggleStatusEffect(id, { active: false });
    if (tags.includes("delay")) await ActorTurns.#dispatchFor(actor, id => ({ type: "delay", id }));
    const endsTurn = aftermath.endsTurn || tags.includes("endTurn");
    if (endsTurn) await ActorTurns.#endTurnOf(actor);
    return { endsTurn };
  }

  /**
   * The combat and the actor's combatant in it, when the actor fights in the running combat.
   * @param {Actor.Implementation} actor
   */
  static #combatantOf(actor) {
    const combat = /** @type {IconTurnOrder & {id?: string | null, combatants: {find(fn: (c: {id: string | null, actor?: {uuid: string} | null}) => boolean): {id: string | null} | undefined}} | null} */ (
      /** @type {unknown} */ (game.combat ?? null));
    const combatant = combat?.combatants.find(c => c.actor?.uuid === actor.uuid);
    return combat && combatant?.id ? { combat, id: combatant.id } : null;
  }

  /**
   * Send a turn-order event for the actor's combatant (through the combat's own dispatch).
   * @param {Actor.Implementation} actor
   * @param {(id: string) => object} event
   */
  static async #dispatchFor(actor, event) {
    const found = ActorTurns.#combatantOf(actor);
    if (!found?.combat.iconState || typeof found.combat.iconDispatch !== "function") return;
    await found.combat.iconDispatch(event(found.id));
  }

  /**
   * Whether the actor is taking a slow turn now (Charge: "when the ability is used on a slow turn").
   * @param {Actor.Implementation} actor
   */
  static slowTurn(actor) {
    const found = ActorTurns.#combatantOf(actor);
    const current = found?.combat.iconState?.current;
    return !!current && current.id === found?.id && /** @type {{slow?: boolean}} */ (current).slow === true;
  }

  /**
   * The turn now, as a stamp that changes with every turn of the running combat (empty outside
   * one): what "once a turn" and Combo's "not both versions in one turn" compare.
   */
  static turnStamp() {
    const combat = /** @type {{id?: string | null, iconState?: {round?: number, current?: {id?: string} | null, logged?: number} | null} | null} */ (
      /** @type {unknown} */ (game.combat ?? null));
    const state = combat?.iconState;
    if (!state?.current?.id) return "";
    return `${combat?.id}.${state.round}.${state.current.id}.${state.logged ?? 0}`;
  }

  /**
   * End the actor's turn if it is the open turn of the ICON combat (the turn order is the combat
   * reducer's: this sends its `endTurn` event through the combat's own dispatch).
   * @param {Actor.Implementation} actor
   */
  static async #endTurnOf(actor) {
    const combat = /** @type {IconTurnOrder | null} */ (/** @type {unknown} */ (game.combat ?? null));
    const id = combat?.iconState?.current?.id;
    if (!combat || !id || typeof combat.iconDispatch !== "function") return;
    if (combat.combatants.get(id)?.actor?.uuid !== actor.uuid) return;
    await combat.iconDispatch({ type: "endTurn" });
  }

  /**
   * The core's `icon.tokens` applied to an actor's tokens (Blessing, Combo, Power dice) and
   * written back. Throws the core's refusal (no token to spend, a second die of one ability).
   * @param {Actor.Implementation} actor
   * @param {Record<string, unknown>} event  A `TokenEvent` (docs/js-contract.md).
   * @returns {Promise<{tokens: import("../data/tokens.mjs").Tokens, effects: {type: string, ability?: string}[]}>}
   */
  static async tokens(actor, event) {
    const core = await loadCore();
    const tokens = tokensOf(/** @type {Record<string, unknown>} */ (actor.system));
    const answer = /** @type {Done & {tokens: import("../data/tokens.mjs").Tokens, effects: {type: string, ability?: string}[]}} */ (
      core.resolve({ kind: "icon.tokens", tokens, event }, []));
    // Dotted `system.*` keys, which Foundry's update expands.
    await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (tokensUpdate(answer.tokens))));
    return { tokens: answer.tokens, effects: answer.effects };
  }

  /**
   * The end of combat: "All blessings are discarded at the end of combat", and the combo token and
   * power dice with them (the core's `icon.tokens` "endCombat"); nothing is written when the
   * actor holds none.
   * @param {Actor.Implementation} actor
   */
  static async discardTokens(actor) {
    const held = tokensOf(/** @type {Record<string, unknown>} */ (actor.system));
    if (!held.blessings && !held.combo && !held.powerDice.length) return;
    await ActorTurns.tokens(actor, { type: "endCombat" });
  }

  /**
   * Use an ability with Combo: the combo version when the actor holds the token (it is
   * discarded), else the base version (a token is gained).
   * @param {Actor.Implementation} actor
   * @returns {Promise<"comboVersion" | "baseVersion">}
   */
  static async useCombo(actor) {
    const { effects } = await ActorTurns.tokens(actor, { type: "useCombo" });
    return effects.some(e => e.type === "comboVersion") ? "comboVersion" : "baseVersion";
  }

  /**
   * A limit break's resolve (the core's `icon.limitBreak`): the cost from the user's personal
   * resolve and, `fromParty` of it, the party's (the combat's `adjustResolve`, the GM's); and 1
   * personal resolve given to a character who hasn't used a limit break this expedition. The
   * user is marked as having used one.
   * @param {Actor.Implementation} actor  A character.
   * @param {{cost: number, fromParty?: number, giveTo?: Actor.Implementation | null}} options
   */
  static async limitBreak(actor, { cost, fromParty = 0, giveTo = null }) {
    const core = await loadCore();
    const system = /** @type {{resolve?: number, limitBreakUsed?: boolean}} */ (actor.system);
    const combat = /** @type {{iconState?: {partyResolve?: number} | null, iconDispatch?: (event: object) => Promise<void>} | null} */ (
      /** @type {unknown} */ (game.combat ?? null));
    const party = Number(combat?.iconState?.partyResolve ?? 0);
    // Party resolve is the combat's, which only the GM changes (the tracker's adjustResolve).
    if (fromParty > 0 && !game.user?.isGM) throw new Error(format("ICONENGINE.Rules.LimitBreak.partyIsGM"));
    const recipient = giveTo ? /** @type {{resolve?: number, limitBreakUsed?: boolean}} */ (giveTo.system) : null;
    const answer = /** @type {Done & {personal: number, party: number, recipientResolve: number | null}} */ (core.resolve({
      kind: "icon.limitBreak", cost, personal: system.resolve ?? 0, party, fromParty,
      give: recipient ? { resolve: recipient.resolve ?? 0, usedLimitBreak: !!recipient.limitBreakUsed } : null
    }, []));
    if (fromParty > 0) await combat?.iconDispatch?.({ type: "adjustResolve", by: -fromParty });
    await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ ({ "system.resolve": answer.personal, "system.limitBreakUsed": true })));
    if (giveTo && answer.recipientResolve !== null) {
      await giveTo.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ ({ "system.resolve": answer.recipientResolve })));
    }
    const text = format(giveTo ? "ICONENGINE.Rules.LimitBreak.UsedGave" : "ICONENGINE.Rules.LimitBreak.Used",
      { name: actor.name ?? "", cost: String(cost), recipient: giveTo?.name ?? "" });
    await ChatMessage.implementation.create({ speaker: ChatMessage.implementation.getSpeaker({ actor }), content: `<p>${foundry.utils.escapeHTML(text)}</p>` });
    return answer;
  }
}
