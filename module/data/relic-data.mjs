import BaseItemData from "./base-item-data.mjs";

/** System data of the `relic` Item type. Placeholder: later issues add its fields. */
export default class RelicData extends BaseItemData {}
