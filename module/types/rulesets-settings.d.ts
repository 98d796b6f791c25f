/**
 * The world settings of the other rulesets (module/settings.mjs), for foundry-vtt-types.
 * Type-checking only; nothing here exists at run time.
 */
import type { MnsCharts } from "../data/rulesets.mjs";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    "icon-engine.ruleset": string;
    "icon-engine.tributeDie": string;
    "icon-engine.narratorScale": string;
    "icon-engine.iconsLevelNames": string;
    "icon-engine.mnsCharts": MnsCharts;
  }
}
