import { SYSTEM_ID } from "../config.mjs";
import { getCore } from "../core.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import { nearestSpaces, tokenSpaces } from "./area-shapes.mjs";
import SceneSight from "./scene-sight.mjs";

/**
 * @typedef {object} ChosenTargets  Whom a use affects, and who was left out and why.
 * @property {TokenDocument.Implementation[]} tokens
 * @property {{name: string, reason: "stealth" | "range" | "sight" | "defeated"}[]} dropped
 * @property {Actor.Implementation | null} self  A Self ability's user without a token on the scene.
 */

/**
 * Whom using an ability affects, from the scene: a Self ability its user; an area the tokens it
 * covers that the user can see (core's own targeting skips hidden and secret tokens), defeated
 * ones aside; else the user's targets, or, with none, the tokens they selected (as dnd5e applies
 * to selected or targeted tokens). Every target is then checked by the core's `iconSituation`
 * (Blind's range, the ability's range, Stealth: "you cannot be directly targeted except from an
 * adjacent space"), for every ability, not only attacks; the range counts from the nearest space
 * of the user to the nearest of the target ("at least 1 space of its area within the listed range").
 * A target chosen directly must be in the user's line of sight (module/canvas/scene-sight.mjs),
 * unless a GM chose it (the GM's override) or the ability attacks (its dialog shows the sight and
 * lets it be overridden); an area reaches what it covers.
 */
export default class UseTargets {
  /**
   * The user's token on the viewed scene.
   * @param {Actor.Implementation} actor
   * @returns {TokenDocument.Implementation | null}
   */
  static tokenOf(actor) {
    const tokens = /** @type {Token.Implementation[]} */ (actor.getActiveTokens?.() ?? []);
    return tokens.find(t => t.document?.parent === canvas?.scene)?.document ?? null;
  }

  /**
   * Spaces between two tokens' areas on the viewed scene's grid, or null without one.
   * @param {TokenDocument.Implementation | null} from
   * @param {TokenDocument.Implementation | null} to
   * @returns {number | null}
   */
  static distance(from, to) {
    const size = canvas?.grid?.size;
    if (!from || !to || !size) return null;
    const d = nearestSpaces(tokenSpaces(from, size), tokenSpaces(to, size));
    return Number.isFinite(d) ? d : null;
  }

  /**
   * Whether this user can see a token (core's targeting skips tokens it cannot see and secret ones).
   * @param {TokenDocument.Implementation} token
   */
  static #visible(token) {
    if (game.user?.isGM) return true;
    if (token.hidden) return false;
    const secret = /** @type {{isSecret?: boolean}} */ (token).isSecret;
    if (secret && !token.isOwner) return false;
    const placeable = /** @type {{visible?: boolean} | null | undefined} */ (token.object);
    return placeable?.visible !== false;
  }

  /** @param {TokenDocument.Implementation} token */
  static #defeated(token) {
    const statuses = /** @type {Set<string> | undefined} */ (token.actor?.statuses);
    return !!statuses?.has("defeated");
  }

  /**
   * The targets of a use.
   * @param {object} options
   * @param {Actor.Implementation} options.actor
   * @param {{range?: {kind?: string, value?: number}, attack?: {trueStrike?: boolean, mark?: string}, tags?: string[]}} options.system  The ability's.
   * @param {TokenDocument.Implementation[] | null} [options.covered]  The tokens its placed area covers.
   * @param {number | null} [options.range]  The range the ability reaches (null: unlimited).
   * @returns {ChosenTargets}
   */
  static choose({ actor, system, covered = null, range = null }) {
    const user = UseTargets.tokenOf(actor);
    if (system.range?.kind === "self") return { tokens: user ? [user] : [], dropped: [], self: user ? null : actor };
    /** @type {ChosenTargets["dropped"]} */
    const dropped = [];
    /** @type {TokenDocument.Implementation[]} */
    let tokens;
    if (covered) {
      tokens = covered.filter(t => UseTargets.#visible(t));
      for (const token of tokens.filter(t => UseTargets.#defeated(t))) dropped.push({ name: token.name ?? "", reason: "defeated" });
      tokens = tokens.filter(t => !UseTargets.#defeated(t));
    } else {
      tokens = [...(game.user?.targets ?? [])].map(t => /** @type {TokenDocument.Implementation} */ (t.document));
      if (!tokens.length) {
        tokens = (canvas?.tokens?.controlled ?? []).map(t => /** @type {TokenDocument.Implementation} */ (t.document))
          .filter(t => t.id !== user?.id);
      }
    }
    const blind = ActorStatuses.statusesOf(actor).some(s => s.replace(/\+$/, "") === "blind");
    const trueStrike = system.attack?.trueStrike === true;
    const measured = user && !covered && !game.user?.isGM && !system.tags?.includes("attack") ? SceneSight.of(user, tokens) : null;
    const kept = tokens.filter((token, k) => {
      const target = token.actor ? /** @type {Actor.Implementation} */ (token.actor) : null;
      const distance = UseTargets.distance(user, token);
      const stealth = !!target && ActorStatuses.statusesOf(target).some(s => s.replace(/\+$/, "") === "stealth");
      const situation = /** @type {{untargetable?: "stealth" | "range" | "sight" | null}} */ (getCore().iconSituation({
        attackerBlind: blind, targetStealth: stealth, trueStrike, range, distance,
        targetAdjacent: distance !== null && distance <= 1, sight: measured?.[k]?.sight ?? true
      }));
      if (situation.untargetable) dropped.push({ name: token.name ?? "", reason: situation.untargetable });
      return !situation.untargetable;
    });
    return { tokens: kept, dropped, self: null };
  }

  /**
   * The card's record of a target.
   * @param {TokenDocument.Implementation} token
   * @returns {{actor: string, token: string}}
   */
  static recordOf(token) {
    return { actor: token.actor?.uuid ?? "", token: token.uuid ?? "" };
  }

  /**
   * Whether a token stands in an area of the system (its template's flag says so).
   * @param {{flags?: Record<string, unknown> | null}} template
   */
  static isArea(template) {
    return !!/** @type {Record<string, unknown> | undefined} */ (template.flags?.[SYSTEM_ID])?.area;
  }
}
