/**
 * Who sees a chat message, across Foundry generations. v13 calls these roll modes
 * (`core.rollMode`, `CONFIG.Dice.rollModes`: publicroll/gmroll/blindroll/selfroll,
 * `ChatMessage.applyRollMode`); v14 renamed them message modes (`core.messageMode`,
 * `CONFIG.ChatMessage.modes`: public/gm/blind/self/ic, `ChatMessage.applyMode`) and logs a
 * deprecation warning for the old names. Branch on `game.release.generation`, as dnd5e does.
 * Values may be stored either way (an attack dialog's state, a macro): they are mapped to the
 * running generation's names before use.
 */

import { usesMessageModes as messageModes } from "./compat/generation.mjs";

/** v13 roll mode → v14 message mode. */
const TO_MESSAGE_MODE = Object.freeze({ publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" });

/** v14 message mode → v13 roll mode (v13 has no in-character mode; it posts publicly). */
const TO_ROLL_MODE = Object.freeze({ public: "publicroll", gm: "gmroll", blind: "blindroll", self: "selfroll", ic: "publicroll" });

/**
 * @typedef {{label: string, icon?: string}} ModeConfig
 * @typedef {{get(namespace: string, key: string): unknown}} SettingsReader
 */

/**
 * Does Foundry speak of message modes (v14 and later)?
 * @returns {boolean}
 */
export function usesMessageModes() {
  return messageModes();
}

/**
 * A mode in the running generation's names.
 * @param {string} mode
 * @returns {string}
 */
export function toCurrentMode(mode) {
  if (usesMessageModes()) return TO_MESSAGE_MODE[/** @type {keyof typeof TO_MESSAGE_MODE} */ (mode)] ?? mode;
  return TO_ROLL_MODE[/** @type {keyof typeof TO_ROLL_MODE} */ (mode)] ?? mode;
}

/**
 * The mode the user picked in the chat sidebar.
 * @returns {string}
 */
export function currentMode() {
  // v14's core.messageMode is not in v13's declared settings; both are plain strings.
  const settings = /** @type {SettingsReader | undefined} */ (/** @type {unknown} */ (game.settings));
  const v14 = usesMessageModes();
  const value = settings?.get("core", v14 ? "messageMode" : "rollMode");
  return typeof value === "string" && value ? toCurrentMode(value) : (v14 ? "public" : "publicroll");
}

/**
 * The modes a roll dialog offers, with their i18n labels.
 * @param {string} [selected]  Marked selected (any generation's name).
 * @returns {{value: string, label: string, selected: boolean}[]}
 */
export function modeChoices(selected = currentMode()) {
  const config = /** @type {{ChatMessage: {modes?: Record<string, ModeConfig>}, Dice: {rollModes?: Record<string, ModeConfig | string>}}} */ (
    /** @type {unknown} */ (CONFIG));
  const modes = (usesMessageModes() ? config.ChatMessage.modes : config.Dice.rollModes) ?? {};
  const current = toCurrentMode(selected);
  return Object.entries(modes).map(([value, mode]) => ({
    value, label: typeof mode === "string" ? mode : mode.label, selected: value === current
  }));
}

/**
 * Apply a mode (either generation's name) to ChatMessage creation data, in place: whisper and
 * blind as Foundry sets them for that mode.
 * @template {object} T
 * @param {T} chatData
 * @param {string} mode
 * @returns {T}
 */
export function applyMode(chatData, mode) {
  const cls = /** @type {{applyMode?: (data: object, mode: string) => object, applyRollMode(data: object, mode: string): object}} */ (
    /** @type {unknown} */ (ChatMessage.implementation));
  const current = toCurrentMode(mode);
  if (usesMessageModes() && cls.applyMode) cls.applyMode(chatData, current);
  else cls.applyRollMode(chatData, current);
  return chatData;
}

/**
 * The create options that carry a mode to a roll message. v13's ChatMessage#_preCreate applies
 * the `rollMode` option to a roll message, and when there is none, the user's own mode to one
 * created without a whisper: a roll posted "public" by a user whose chat mode is private would be
 * whispered to the GM without it. v14 names the option `messageMode`.
 * @param {string} mode  Either generation's name.
 * @returns {{rollMode: string} | {messageMode: string}}
 */
export function createOptions(mode) {
  const current = toCurrentMode(mode);
  return usesMessageModes() ? { messageMode: current } : { rollMode: current };
}
