/** System-wide constants, exposed as `CONFIG.ICONENGINE`. */

/** The system id, also the flag scope. */
export const SYSTEM_ID = "icon-engine";

/** Where Foundry serves this system's files from. */
export const SYSTEM_PATH = `systems/${SYSTEM_ID}`;

export const ICONENGINE = {
  /** Handlebars templates, by purpose. */
  templates: {
    oddsCard: `${SYSTEM_PATH}/templates/chat/odds-card.hbs`,
    rollCard: `${SYSTEM_PATH}/templates/chat/icon-roll.hbs`,
    actionCard: `${SYSTEM_PATH}/templates/chat/icon-action.hbs`,
    fortuneCard: `${SYSTEM_PATH}/templates/chat/icon-fortune.hbs`,
    actionRoll: `${SYSTEM_PATH}/templates/apps/action-roll.hbs`,
    actionRollOdds: `${SYSTEM_PATH}/templates/apps/action-roll-odds.hbs`,
    clockPanel: `${SYSTEM_PATH}/templates/apps/clock-panel.hbs`,
    burdenPrompt: `${SYSTEM_PATH}/templates/apps/burden-prompt.hbs`,
    helpCard: `${SYSTEM_PATH}/templates/chat/help-card.hbs`,
    abilityCard: `${SYSTEM_PATH}/templates/chat/ability-card.hbs`,
    contentPack: `${SYSTEM_PATH}/templates/apps/content-pack.hbs`
  },

  /** The ICON combat tracker's parts and the end-of-turn saves card. */
  combat: {
    tracker: `${SYSTEM_PATH}/templates/combat/tracker.hbs`,
    footer: `${SYSTEM_PATH}/templates/combat/footer.hbs`,
    saves: `${SYSTEM_PATH}/templates/chat/combat-saves.hbs`
  },

  /** Sheet part templates. */
  sheets: {
    tabs: `${SYSTEM_PATH}/templates/actor/tabs.hbs`,
    limited: `${SYSTEM_PATH}/templates/actor/limited.hbs`,
    characterHeader: `${SYSTEM_PATH}/templates/actor/character-header.hbs`,
    characterCombat: `${SYSTEM_PATH}/templates/actor/character-combat.hbs`,
    characterNarrative: `${SYSTEM_PATH}/templates/actor/character-narrative.hbs`,
    characterAbilities: `${SYSTEM_PATH}/templates/actor/character-abilities.hbs`,
    characterBio: `${SYSTEM_PATH}/templates/actor/character-bio.hbs`,
    foe: `${SYSTEM_PATH}/templates/actor/foe.hbs`,
    ability: `${SYSTEM_PATH}/templates/item/ability.hbs`,
    item: `${SYSTEM_PATH}/templates/item/item.hbs`,
    grant: `${SYSTEM_PATH}/templates/item/grant.hbs`,
    uses: `${SYSTEM_PATH}/templates/item/uses.hbs`
  },

  /** Partials the sheet templates include by path (loaded at init). */
  partials: [
    `${SYSTEM_PATH}/templates/actor/health.hbs`,
    `${SYSTEM_PATH}/templates/actor/combat-stats.hbs`,
    `${SYSTEM_PATH}/templates/actor/item-list.hbs`,
    `${SYSTEM_PATH}/templates/actor/ability-card.hbs`,
    `${SYSTEM_PATH}/templates/actor/foe-entry.hbs`,
    `${SYSTEM_PATH}/templates/actor/tactical-actions.hbs`,
    `${SYSTEM_PATH}/templates/item/uses.hbs`
  ],

  /**
   * ICON statuses by kind: blights (`status`), special states and positive effects. Each has an
   * icon in assets/icons/statuses/<id>.svg and its glossary text at ICONENGINE.Status.<id>.hint.
   * `bloodied` is toggled automatically from HP; `defeated` is Foundry's DEFEATED status.
   */
  statuses: {
    status: ["blind", "dazed", "hatred", "pacified", "sealed", "shattered", "slashed", "stunned", "vulnerable", "weakened"],
    state: ["bloodied", "immobile", "incapacitated", "defeated"],
    positive: ["counter", "defiance", "dodge", "evasion", "flying", "intangible", "phasing", "stealth", "sturdy",
      "unstoppable", "regeneration", "vigilance"]
  },

  /** Chart limits for odds cards. */
  odds: {
    /** At most this many bars; wider distributions are bucketed. */
    maxBars: 40,
    /** Wide distributions drop tails holding less than this probability on each side. */
    tailCut: 0.0005
  }
};
