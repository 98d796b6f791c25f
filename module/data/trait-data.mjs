import BaseItemData from "./base-item-data.mjs";

/** System data of the `trait` Item type. Placeholder: later issues add its fields. */
export default class TraitData extends BaseItemData {}
