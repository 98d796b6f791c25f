/**
 * The world's data version (module/settings.mjs, module/migrations/), for foundry-vtt-types.
 * Type-checking only; nothing here exists at run time.
 */
declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    "icon-engine.dataVersion": number;
  }
}

export {};
