/**
 * The combat tracker's world setting (module/settings.mjs), for foundry-vtt-types.
 * Type-checking only.
 */
declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    /** What the tracker shows players of a foe's HP: "never", "bloodied" (or not) or "exact". */
    "icon-engine.foeHp": string;
  }
}

export {};
