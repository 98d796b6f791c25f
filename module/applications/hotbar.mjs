import { SYSTEM_ID } from "../config.mjs";
import { format } from "./i18n.mjs";

/**
 * Items dropped on the hotbar become macros that use them (as dnd5e's and Lancer's do): a script
 * macro `game.system.api.useItem("<uuid>")` named and pictured as the item, made once per item
 * and user, in the slot it was dropped on.
 */
export default class HotbarMacros {
  /** Listen to the hotbar. */
  static register() {
    Hooks.on("hotbarDrop", (bar, data, slot) => {
      // Any document can be dropped on the hotbar; foundry-vtt-types 13.345 types the data as a Macro's.
      const dropped = /** @type {{type?: string}} */ (/** @type {unknown} */ (data));
      if (dropped?.type !== "Item") return;
      HotbarMacros.create(/** @type {Item.DropData} */ (dropped), slot).catch(error => {
        console.error(error);
        ui.notifications?.error(error instanceof Error ? error.message : String(error));
      });
      // The system makes this macro; Foundry's own (which opens the item's sheet) must not.
      return false;
    });
  }

  /**
   * The command of an item's macro.
   * @param {string} uuid
   */
  static command(uuid) {
    return `game.system.api.useItem(${JSON.stringify(uuid)});`;
  }

  /**
   * Make (or find) the macro of a dropped item and put it in the slot.
   * @param {Item.DropData} data  Foundry's drag data of an item (`{type: "Item", uuid}`).
   * @param {number} slot
   * @returns {Promise<Macro.Implementation | null>}
   */
  static async create(data, slot) {
    const item = /** @type {Item.Implementation | null | undefined} */ (await Item.implementation.fromDropData(data));
    if (!item?.actor) {
      ui.notifications?.warn(format("ICONENGINE.Hotbar.OnlyOwned"));
      return null;
    }
    const command = HotbarMacros.command(item.uuid);
    const mine = (/** @type {{command?: string, author?: {id?: string | null} | null}} */ m) => m.command === command && m.author?.id === game.user?.id;
    let macro = /** @type {Macro.Implementation | undefined} */ (game.macros?.find(m => mine(/** @type {never} */ (m))));
    macro ??= /** @type {Macro.Implementation | undefined} */ (await Macro.implementation.create(/** @type {Macro.CreateData} */ ({
      name: item.name ?? "", type: "script", img: item.img ?? undefined, command, flags: { [SYSTEM_ID]: { itemMacro: item.uuid } }
    })));
    if (!macro) return null;
    await game.user?.assignHotbarMacro(macro, slot);
    return macro;
  }
}
