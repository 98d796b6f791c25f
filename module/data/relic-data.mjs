import BaseItemData, { defineBaseItemSchema } from "./base-item-data.mjs";
import { defineUsesSchema } from "./ability-data.mjs";

function defineRelicSchema() {
  return { ...defineBaseItemSchema(), ...defineUsesSchema() };
}

/**
 * System data of the `relic` Item type: its description (HTML), and the charges and once-per
 * limit its use spends (as an ability's).
 * @extends {BaseItemData<ReturnType<typeof defineRelicSchema>>}
 */
export default class RelicData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineRelicSchema();
  }
}
