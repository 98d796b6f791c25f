/**
 * The schema every ICON item shares.
 */
export function defineBaseItemSchema() {
  const { HTMLField } = foundry.data.fields;
  return {
    description: new HTMLField({ required: true, blank: true })
  };
}

/** @typedef {ReturnType<typeof defineBaseItemSchema>} BaseItemSchema */

/**
 * Fields every ICON item has. Generic in the schema so each item type's own fields are typed.
 * @template {BaseItemSchema} [Schema=BaseItemSchema]
 * @extends {foundry.abstract.TypeDataModel<Schema, Item.Implementation>}
 */
export default class BaseItemData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineBaseItemSchema();
  }
}
