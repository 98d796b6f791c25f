export { default as ActionRollDialog } from "./action-roll-dialog.mjs";
export { default as AidEffort } from "./aid-effort.mjs";
export { default as ClockPanel } from "./clock-panel.mjs";
export { default as NarrativeCards } from "./narrative-cards.mjs";
export * as actionRoll from "./action-roll.mjs";
export * as clocks from "./clocks.mjs";
export * as narrativeState from "./narrative-state.mjs";
export * as cardButtons from "./card-buttons.mjs";
export { parseFortune, rollFortune } from "./fortune.mjs";
