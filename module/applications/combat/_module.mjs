export { default as IconCombatTracker } from "./combat-tracker.mjs";
export * as context from "./tracker-context.mjs";
