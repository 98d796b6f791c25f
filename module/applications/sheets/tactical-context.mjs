/**
 * Pure context of the sheets' tactical block: attack buttons (light, heavy, each ability with the
 * attack tag), save and healing buttons, and the actor's status icons, each clickable to save
 * against it when the core says it can be saved (not ongoing, not a state or positive effect); the
 * Slashed button while the actor is Slashed (the status set from the Token HUD shows it).
 */
import { SLASHED_DAMAGE } from "../../data/slashed.mjs";
import { statusEffects } from "../../data/status-effects.mjs";
import { MAX_VIGILANCE } from "../../data/vigilance.mjs";
import { DANGEROUS_TERRAIN_DAMAGE } from "../../data/terrain.mjs";
import { tokensOf } from "../../data/tokens.mjs";

/** Healing rules the sheet offers besides Cure (the core's `icon.heal`). */
export const HEALINGS = /** @type {const} */ (["rescue", "regeneration", "endCombat", "rest", "camp"]);

/**
 * Those a foe's sheet offers: rescue, the end of combat's healing, rest and camp are the player
 * characters' (a foe that regenerates still does).
 */
export const FOE_HEALINGS = /** @type {const} */ (["regeneration"]);

/**
 * @param {object} options
 * @param {import("./sheet-context.mjs").ItemLike[]} options.items
 * @param {string[]} options.statuses  The actor's core statuses (`id+` when ongoing).
 * @param {string[] | null} options.saveable  The core's `iconSaveable(statuses)`, or null while it loads.
 * @param {{blessings?: unknown, combo?: unknown, powerDice?: unknown, vigilance?: unknown}} [options.system]  The actor's system
 *   data (its tokens, its Vigilance charges).
 * @param {boolean} [options.isCharacter]  A player character (limit breaks).
 * @param {boolean} [options.isFoe]  A foe: its sheet shows no character-only control (Vigilance
 *   charges, Blessing tokens, the Combo token, Power dice, rescue, the end of combat's healing,
 *   rest and camp) unless the foe has them; its abilities' attacks are its stat block's Use buttons.
 */
export function tacticalSheetContext({ items, statuses, saveable, system = {}, isCharacter = false, isFoe = false }) {
  const tokens = tokensOf(system);
  const known = new Map(statusEffects().map(entry => [entry.id, entry]));
  const healings = isFoe ? FOE_HEALINGS : HEALINGS;
  const show = {
    vigilance: !isFoe || Math.trunc(Number(system.vigilance) || 0) > 0,
    blessings: !isFoe || tokens.blessings > 0,
    combo: !isFoe || tokens.combo,
    powerDice: !isFoe || tokens.powerDice.length > 0
  };
  return {
    attacks: isFoe ? [] : items
      .filter(item => item.type === "ability" && item.system?.tags?.includes("attack"))
      .map(item => ({ id: item.id, name: item.name, img: item.img })),
    show: { ...show, tokens: show.blessings || show.combo || show.powerDice },
    statusIcons: statuses.map(status => {
      const id = status.replace(/\+$/, "");
      const ongoing = status.endsWith("+");
      const canSave = !!saveable?.includes(status);
      return {
        id,
        ongoing,
        canSave,
        img: known.get(id)?.img ?? "icons/svg/aura.svg",
        label: `ICONENGINE.Status.${id}.name`,
        hint: ongoing ? "ICONENGINE.Tactical.OngoingHint" : canSave ? "ICONENGINE.Tactical.SaveHint" : "ICONENGINE.Tactical.NoSaveHint"
      };
    }),
    healingOptions: healings.map(value => ({ value, label: `ICONENGINE.Tactical.Healing.${value}` })),
    // One healing besides Cure is a button of its own, more a choice and its Heal button.
    healingChoice: healings.length > 1,
    // "Take 4 damage after you or an ally uses an ability that moves you": the table says when.
    slashed: statuses.some(status => status.replace(/\+$/, "") === "slashed")
      ? { amount: SLASHED_DAMAGE, img: known.get("slashed")?.img ?? "icons/svg/aura.svg" } : null,
    vigilanceMax: MAX_VIGILANCE,
    // Combat tokens: Blessing (+1 boon on a save), the Combo token, Power dice (ticks 1-6).
    tokens: { ...tokens, powerDice: tokens.powerDice.map((die, index) => ({ ...die, index, canTickUp: die.ticks < 6 })) },
    terrainDamage: DANGEROUS_TERRAIN_DAMAGE,
    isCharacter
  };
}
