/**
 * World settings of the other rulesets: which ruleset the world plays, the campaign
 * choices the seeds leave to the table (Tribute's reality level, the narrator's scale, which of
 * the ICONS level names to show) and Men & Supermen's GM-editable charts.
 */
import { SYSTEM_ID } from "./config.mjs";
import { EMPTY_MNS_CHARTS, RULESETS } from "./data/rulesets.mjs";
import MnsChartsConfig from "./applications/mns-charts-config.mjs";
import { PLAYERS_APPLY_SETTING } from "./data/trust.mjs";
import GmRecords from "./gm-records.mjs";
import { FOE_HP_CHOICES } from "./applications/combat/tracker-context.mjs";

/** Setting keys. */
export const SETTINGS = Object.freeze({
  ruleset: "ruleset",
  tributeDie: "tributeDie",
  narratorScale: "narratorScale",
  iconsLevelNames: "iconsLevelNames",
  mnsCharts: "mnsCharts",
  dataVersion: "dataVersion",
  playersApplyDamage: PLAYERS_APPLY_SETTING,
  foeHp: "foeHp"
});

export { FOE_HP_CHOICES };

/**
 * Register the settings (from the `init` hook).
 */
export function registerRulesetSettings() {
  /** @param {string} key */
  const t = key => `ICONENGINE.Settings.${key}`;
  // Hero sheets show the world's ruleset: draw them again when it changes.
  const rerender = () => {
    for (const actor of /** @type {Actor.Implementation[]} */ (/** @type {unknown} */ (game.actors ?? []))) {
      if (actor.type === "hero" && actor.sheet?.rendered) actor.sheet.render();
    }
  };

  game.settings.register(SYSTEM_ID, SETTINGS.ruleset, {
    name: t("ruleset.name"),
    hint: t("ruleset.hint"),
    scope: "world",
    config: true,
    type: String,
    choices: Object.fromEntries(RULESETS.map(id => [id, `ICONENGINE.Ruleset.${id}`])),
    default: "icon",
    onChange: rerender
  });

  game.settings.register(SYSTEM_ID, SETTINGS.tributeDie, {
    name: t("tributeDie.name"),
    hint: t("tributeDie.hint"),
    scope: "world",
    config: true,
    type: String,
    choices: { 4: "ICONENGINE.Tribute.reality.mundane", 6: "ICONENGINE.Tribute.reality.heroic",
      8: "ICONENGINE.Tribute.reality.pulpy", 10: "ICONENGINE.Tribute.reality.cinematic",
      12: "ICONENGINE.Tribute.reality.overTheTop" },
    default: "6",
    onChange: rerender
  });

  game.settings.register(SYSTEM_ID, SETTINGS.narratorScale, {
    name: t("narratorScale.name"),
    hint: t("narratorScale.hint"),
    scope: "world",
    config: true,
    type: String,
    choices: { coarse: "ICONENGINE.Narrator.scale.coarse", fine: "ICONENGINE.Narrator.scale.fine" },
    default: "coarse",
    onChange: rerender
  });

  game.settings.register(SYSTEM_ID, SETTINGS.iconsLevelNames, {
    name: t("iconsLevelNames.name"),
    hint: t("iconsLevelNames.hint"),
    scope: "world",
    config: true,
    type: String,
    choices: { [-1]: "ICONENGINE.Icons.names.none", 0: "ICONENGINE.Icons.names.first",
      1: "ICONENGINE.Icons.names.second", 2: "ICONENGINE.Icons.names.third" },
    default: "1",
    onChange: rerender
  });

  game.settings.register(SYSTEM_ID, SETTINGS.mnsCharts, {
    name: t("mnsCharts.name"),
    scope: "world",
    config: false,
    type: Object,
    default: EMPTY_MNS_CHARTS()
  });

  game.settings.registerMenu(SYSTEM_ID, "mnsChartsMenu", {
    name: t("mnsCharts.name"),
    label: t("mnsCharts.label"),
    hint: t("mnsCharts.hint"),
    icon: "fa-solid fa-table",
    type: MnsChartsConfig,
    restricted: true
  });
}

/**
 * What the GM's client does for players (docs/security.md): whether players may apply damage from
 * their own cards to targets they do not own (off: the GM or the target's owner applies, as in
 * dnd5e), and the GM's hidden records of what its client applied for chat cards.
 */
export function registerTrustSettings() {
  game.settings.register(SYSTEM_ID, SETTINGS.playersApplyDamage, {
    name: "ICONENGINE.Trust.Setting.name",
    hint: "ICONENGINE.Trust.Setting.hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false
  });
  GmRecords.register();
}

/**
 * The combat tracker's world setting: what its rows show players of a foe's HP (the GM sees every
 * combatant's, a player always their own characters' and their allies'). Players' trackers are
 * drawn again when it changes.
 */
export function registerTrackerSettings() {
  game.settings.register(SYSTEM_ID, SETTINGS.foeHp, {
    name: "ICONENGINE.Settings.foeHp.name",
    hint: "ICONENGINE.Settings.foeHp.hint",
    scope: "world",
    config: true,
    type: String,
    choices: Object.fromEntries(FOE_HP_CHOICES.map(choice => [choice, `ICONENGINE.Settings.foeHp.${choice}`])),
    default: "bloodied",
    onChange: () => ui.combat?.render()
  });
}

/**
 * The world's data version: the number of the last data migration it has had
 * (module/migrations/). Hidden; only the migration runner changes it.
 */
export function registerDataVersionSetting() {
  game.settings.register(SYSTEM_ID, SETTINGS.dataVersion, {
    name: "ICONENGINE.Settings.dataVersion.name",
    hint: "ICONENGINE.Settings.dataVersion.hint",
    scope: "world",
    config: false,
    type: Number,
    default: 0
  });
}

/**
 * The world's ruleset.
 * @returns {import("./data/rulesets.mjs").RulesetId}
 */
export function currentRuleset() {
  return /** @type {import("./data/rulesets.mjs").RulesetId} */ (game.settings.get(SYSTEM_ID, SETTINGS.ruleset));
}

/**
 * The campaign choices the hero sheet and roll dialogs need.
 * @returns {import("./data/rulesets.mjs").Campaign}
 */
export function campaignSettings() {
  return {
    ruleset: currentRuleset(),
    tributeDie: Number(game.settings.get(SYSTEM_ID, SETTINGS.tributeDie)),
    narratorScale: /** @type {"coarse"|"fine"} */ (game.settings.get(SYSTEM_ID, SETTINGS.narratorScale)),
    iconsLevelNames: Number(game.settings.get(SYSTEM_ID, SETTINGS.iconsLevelNames))
  };
}
