import BaseItemData from "./base-item-data.mjs";

/** System data of the `relic` Item type. Name and description (HTML). */
export default class RelicData extends BaseItemData {}
