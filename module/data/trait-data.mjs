import BaseItemData from "./base-item-data.mjs";

/** System data of the `trait` Item type. Name and description (HTML). */
export default class TraitData extends BaseItemData {}
