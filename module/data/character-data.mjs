import BaseActorData from "./base-actor-data.mjs";

/** System data of the `character` Actor type. Placeholder: later issues add its fields. */
export default class CharacterData extends BaseActorData {}
