import { ICONENGINE } from "../../config.mjs";
import IconActorSheet from "./icon-actor-sheet.mjs";
import { foeContext } from "./sheet-context.mjs";

/** The ICON foe sheet: one page. */
export default class FoeSheet extends IconActorSheet {
  /** @inheritdoc */
  static DEFAULT_OPTIONS = {
    classes: ["foe"],
    position: { width: 560, height: 640 }
  };

  /** @inheritdoc */
  static PARTS = {
    foe: { template: ICONENGINE.sheets.foe, scrollable: [""] },
    limited: { template: ICONENGINE.sheets.limited }
  };

  /** @inheritdoc @param {any} system @param {any[]} items */
  _prepareTypeContext(system, items) {
    return foeContext(system, items);
  }
}
