export { default as BaseActorData } from "./base-actor-data.mjs";
export { default as BaseItemData } from "./base-item-data.mjs";
export { default as CharacterData } from "./character-data.mjs";
export { default as FoeData } from "./foe-data.mjs";
export { default as HeroData } from "./hero-data.mjs";
export { default as AbilityData } from "./ability-data.mjs";
export { default as RelicData } from "./relic-data.mjs";
export { default as TraitData } from "./trait-data.mjs";
