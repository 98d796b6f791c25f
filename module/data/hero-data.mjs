import BaseActorData from "./base-actor-data.mjs";

/** System data of the `hero` Actor type. Placeholder: later issues add its fields. */
export default class HeroData extends BaseActorData {}
