import BaseActorData from "./base-actor-data.mjs";

/** System data of the `foe` Actor type. Placeholder: later issues add its fields. */
export default class FoeData extends BaseActorData {}
