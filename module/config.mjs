/** System-wide constants, exposed as `CONFIG.ICONENGINE`. */

/** The system id, also the flag scope. */
export const SYSTEM_ID = "icon-engine";

/** Where Foundry serves this system's files from. */
export const SYSTEM_PATH = `systems/${SYSTEM_ID}`;

export const ICONENGINE = {
  /** Handlebars templates, by purpose. */
  templates: {
    oddsCard: `${SYSTEM_PATH}/templates/chat/odds-card.hbs`,
    rollCard: `${SYSTEM_PATH}/templates/chat/icon-roll.hbs`
  },

  /** Chart limits for odds cards. */
  odds: {
    /** At most this many bars; wider distributions are bucketed. */
    maxBars: 40,
    /** Wide distributions drop tails holding less than this probability on each side. */
    tailCut: 0.0005
  }
};
