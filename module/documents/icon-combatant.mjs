import { SYSTEM_ID } from "../config.mjs";
import { stateCombatants } from "../applications/combat/tracker-context.mjs";
import { combatantEntry } from "../data/combat-rules.mjs";

/**
 * The system's Combatant. It is keyed by its own id in the turn order, so several tokens of one
 * unlinked actor are separate combatants, and it reads the actor through `this.actor` (the
 * token's synthetic actor when unlinked, the world actor when linked).
 */
export default class IconCombatant extends Combatant {
  /**
   * What the turn order needs to know (see `combatantEntry`).
   * @returns {import("../data/combat-rules.mjs").CombatantFacts}
   */
  get iconFacts() {
    // The GM's choices only (the Combat's record of what a GM wrote): a player may write their own
    // Combatant's `system`, and what they write there is not the turn order's (issue 36).
    const combat = /** @type {import("./icon-combat.mjs").default | null} */ (/** @type {unknown} */ (this.combat));
    const system = (this.id ? combat?.iconChoiceOf?.(this.id) : null) ?? { side: "", canSlow: false };
    const actor = this.actor;
    // A foe's template (other actors have none).
    const template = /** @type {{template?: string} | undefined} */ (actor?.system)?.template;
    return {
      id: this.id ?? "",
      actorType: actor?.type ?? null,
      template: template ?? "",
      disposition: this.token?.disposition ?? -1,
      side: /** @type {import("../data/combat-rules.mjs").CombatantFacts["side"]} */ (system.side), // the field's choices, or blank
      canSlow: !!system.canSlow,
      summonerId: this.#summonerId()
    };
  }

  /**
   * The Combatant id of this combatant's summoner in the same combat: a summon's token carries
   * `flags.icon-engine.summoned`, the UUID of its summoner's token or actor (any other truthy
   * value marks a summon whose summoner is not known, which takes turns as before).
   * @returns {string|null}
   */
  #summonerId() {
    const by = this.token?.getFlag(SYSTEM_ID, "summoned");
    if (typeof by !== "string" || !this.combat) return null;
    const summoner = this.combat.combatants.find(c => c.id !== this.id && (c.token?.uuid === by || c.actor?.uuid === by));
    return summoner?.id ?? null;
  }

  /** The reducer entry of this combatant. */
  iconEntry() {
    return combatantEntry(this.iconFacts);
  }

  /** This combatant's row in the reducer state, if the combat has started. */
  get iconRow() {
    const combat = /** @type {import("./icon-combat.mjs").default | null} */ (/** @type {unknown} */ (this.combat));
    return stateCombatants(combat?.iconState).find(c => c.id === this.id) ?? null;
  }
}
