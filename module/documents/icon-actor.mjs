import { bloodiedChange } from "../data/rules.mjs";
import { GRANT_FIELDS } from "./grant-fields.mjs";

/** @typedef {{reset(): void, render(force?: boolean): void}} Preparable */

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
   * Prepare again every actor that was prepared before the rules core loaded (they hold no
   * derived values yet): the world's actors and the synthetic actors of unlinked tokens, which
   * are separate documents each scene holds, and redraw the sheets that are open. Nothing is
   * created: `Actor#sheet` would make a sheet application for every actor, so the open ones are
   * reached through `Document#render` (the document's `apps`); an unlinked token's synthetic
   * actor exists from the token's construction (v13's ActorDelta), and a token without one (its
   * actor deleted) has none to prepare.
   * @param {{actors?: Iterable<Preparable> | null, scenes?: Iterable<{tokens: Iterable<{actorLink: boolean, actor: Preparable | null}>}> | null}} world
   *   `game`.
   * @returns {number}  How many actors were prepared again.
   */
  static refreshAfterCoreLoad(world) {
    /** @type {Set<Preparable>} */
    const actors = new Set(world.actors ?? []);
    for (const scene of world.scenes ?? []) {
      for (const token of scene.tokens) {
        if (!token.actorLink && token.actor) actors.add(token.actor);
      }
    }
    for (const actor of actors) {
      actor.reset();
      actor.render(false);
    }
    return actors.size;
  }

  /**
   * The class, job or foe template an update changes: what they were before, in the update's
   * options (`iconGrants`), for {@link _onUpdate} to grant and revoke items.
   * @override
   * @param {Actor.UpdateData} changes
   * @param {Actor.Database.PreUpdateOptions} options
   * @param {User.Implementation} user
   */
  async _preUpdate(changes, options, user) {
    const allowed = await super._preUpdate(changes, options, user);
    if (allowed === false) return false;
    const fields = /** @type {Record<string, string> | undefined} */ (GRANT_FIELDS[/** @type {keyof typeof GRANT_FIELDS} */ (this.type)]);
    const expanded = /** @type {{system?: Record<string, unknown>}} */ (foundry.utils.expandObject(/** @type {object} */ (changes)));
    const system = expanded.system ?? {};
    const before = /** @type {Record<string, unknown>} */ (this.system);
    /** @type {Record<string, string>} */
    const previous = {};
    for (const field of Object.keys(fields ?? {})) {
      if (field in system && system[field] !== before[field]) previous[field] = String(before[field] ?? "");
    }
    if (Object.keys(previous).length) /** @type {Record<string, unknown>} */ (options).iconGrants = previous;
    return allowed;
  }

  /**
   * @override
   * @param {Actor.UpdateData} changed
   * @param {Actor.Database.OnUpdateOperation} options
   * @param {string} userId
   */
  _onUpdate(changed, options, userId) {
    super._onUpdate(changed, options, userId);
    if (game.user?.id !== userId) return;
    if (changed.system) this.syncBloodied();
    const previous = /** @type {{iconGrants?: Record<string, string>, iconGrantFrom?: string}} */ (/** @type {unknown} */ (options));
    if (previous.iconGrants) this.#grantChanged(previous.iconGrants, previous.iconGrantFrom ?? null).catch(error => console.error(error));
  }

  /**
   * Grant and revoke the items of a changed class, job or foe template (module/documents/item-grants.mjs).
   * @param {Record<string, string>} previous  The fields' values before, by field.
   * @param {string | null} source  The grant item dropped, if one was.
   */
  async #grantChanged(previous, source) {
    const { default: ItemGrants } = await import("./item-grants.mjs");
    const fields = /** @type {Record<string, import("./item-grants.mjs").GrantKind>} */ (GRANT_FIELDS[/** @type {keyof typeof GRANT_FIELDS} */ (this.type)]);
    const now = /** @type {Record<string, unknown>} */ (this.system);
    for (const [field, from] of Object.entries(previous)) {
      const kind = fields[field];
      await ItemGrants.change(/** @type {Actor.Implementation} */ (/** @type {unknown} */ (this)), kind,
        { from, to: String(now[field] ?? ""), source });
    }
  }
}
