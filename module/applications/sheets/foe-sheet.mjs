import { ICONENGINE } from "../../config.mjs";
import IconActorSheet from "./icon-actor-sheet.mjs";
import { foeContext } from "./sheet-context.mjs";

/** The ICON foe sheet: one page. */
export default class FoeSheet extends IconActorSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["foe"],
    position: { width: 560, height: 640 }
  };

  /** @inheritdoc */
  static PARTS = {
    foe: { template: ICONENGINE.sheets.foe, scrollable: [""] },
    limited: { template: ICONENGINE.sheets.limited }
  };

  /**
   * @inheritdoc
   * @param {Actor.SystemOfType<"foe">} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  _prepareTypeContext(system, items) {
    return foeContext(system, items);
  }
}
