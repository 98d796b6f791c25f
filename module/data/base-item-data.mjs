/**
 * The schema every ICON item shares.
 */
export function defineBaseItemSchema() {
  const { HTMLField } = foundry.data.fields;
  return {
    description: new HTMLField({ required: true, blank: true })
  };
}

/**
 * Fields every ICON item has. Placeholder until the item rules land.
 * @extends {foundry.abstract.TypeDataModel<ReturnType<typeof defineBaseItemSchema>, Item.Implementation>}
 */
export default class BaseItemData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineBaseItemSchema();
  }
}
