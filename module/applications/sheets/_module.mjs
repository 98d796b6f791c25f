export { default as IconActorSheet } from "./icon-actor-sheet.mjs";
export { default as CharacterSheet } from "./character-sheet.mjs";
export { default as FoeSheet } from "./foe-sheet.mjs";
export { default as HeroSheet } from "./hero-sheet.mjs";
export { IconItemSheet, AbilitySheet, GrantSheet } from "./icon-item-sheet.mjs";
export * as context from "./sheet-context.mjs";
