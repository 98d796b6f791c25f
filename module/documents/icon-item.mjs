/**
 * The system's Item. Abilities, relics and traits are used from their sheet, their row on the
 * actor's sheet, a hotbar macro or `game.system.api.useItem` (module/applications/item-use.mjs).
 */
export default class IconItem extends Item {
  /**
   * Use the item: its area, then its attack, save or use card (module/applications/item-use.mjs).
   * @param {Partial<import("../applications/item-use.mjs").UseConfig>} [options]
   * @returns {Promise<import("../applications/item-use.mjs").UseOutcome | null>}
   */
  async use(options = {}) {
    // Loaded when used: the use flow imports the applications, which import documents.
    const { default: ItemUse } = await import("../applications/item-use.mjs");
    return ItemUse.use(/** @type {Item.Implementation} */ (/** @type {unknown} */ (this)), options);
  }
}
