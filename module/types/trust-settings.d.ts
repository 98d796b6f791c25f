/**
 * The world settings of what the GM's client does for players (module/settings.mjs,
 * module/gm-records.mjs; docs/security.md), for foundry-vtt-types. Type-checking only.
 */
import type { MessageRecords } from "../gm-records.mjs";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    "icon-engine.playersApplyDamage": boolean;
    "icon-engine.gmRecords": Record<string, MessageRecords>;
  }
}
