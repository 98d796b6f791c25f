export { default as IconActor } from "./icon-actor.mjs";
export { default as IconItem } from "./icon-item.mjs";
export { default as IconCombat } from "./icon-combat.mjs";
export { default as IconCombatant } from "./icon-combatant.mjs";
export { registerSaveCards } from "./combat-effects.mjs";
