import { bloodiedChange } from "../data/rules.mjs";

/**
 * The system's Actor. Keeps the automatic Bloodied status in step with HP (the core decides
 * bloodied; see `iconDerived`).
 */
export default class IconActor extends Actor {
  /**
   * Add or remove Bloodied when the core's derived value disagrees with the actor's statuses.
   * Only the user who made the change does it, so it happens once.
   * @returns {Promise<void>}
   */
  async syncBloodied() {
    // ICON actors with health carry the core's derived values; others have none.
    const system = /** @type {{derived?: import("../data/base-actor-data.mjs").IconDerived | null} | undefined} */ (this.system);
    const change = bloodiedChange(system?.derived ?? null, this.statuses.has("bloodied"));
    if (change !== null) await this.toggleStatusEffect("bloodied", { active: change });
  }

  /**
   * @override
   * @param {Actor.UpdateData} changed
   * @param {Actor.Database.OnUpdateOperation} options
   * @param {string} userId
   */
  _onUpdate(changed, options, userId) {
    super._onUpdate(changed, options, userId);
    if (game.user?.id === userId && changed.system) this.syncBloodied();
  }
}
