export { default as IconActor } from "./icon-actor.mjs";
export { default as IconItem } from "./icon-item.mjs";
export { default as IconCombat } from "./icon-combat.mjs";
export { default as IconCombatant } from "./icon-combatant.mjs";
export { registerSaveCards } from "./combat-effects.mjs";
export { default as ActorHealth } from "./actor-health.mjs";
export { default as ActorMarks } from "./actor-marks.mjs";
export { default as ActorStatuses } from "./actor-statuses.mjs";
export { default as ActorTurns } from "./actor-turns.mjs";
