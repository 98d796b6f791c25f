import BaseItemData from "./base-item-data.mjs";

/** System data of the `ability` Item type. Placeholder: later issues add its fields. */
export default class AbilityData extends BaseItemData {}
