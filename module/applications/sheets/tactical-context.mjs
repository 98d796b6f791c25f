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
 * @param {object} options
 * @param {import("./sheet-context.mjs").ItemLike[]} options.items
 * @param {string[]} options.statuses  The actor's core statuses (`id+` when ongoing).
 * @param {string[] | null} options.saveable  The core's `iconSaveable(statuses)`, or null while it loads.
 * @param {{blessings?: unknown, combo?: unknown, powerDice?: unknown}} [options.system]  The actor's system data (its tokens).
 * @param {boolean} [options.isCharacter]  A player character (limit breaks).
 */
export function tacticalSheetContext({ items, statuses, saveable, system = {}, isCharacter = false }) {
  const tokens = tokensOf(system);
  const known = new Map(statusEffects().map(entry => [entry.id, entry]));
  return {
    attacks: items
      .filter(item => item.type === "ability" && item.system?.tags?.includes("attack"))
      .map(item => ({ id: item.id, name: item.name, img: item.img })),
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
    healingOptions: HEALINGS.map(value => ({ value, label: `ICONENGINE.Tactical.Healing.${value}` })),
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
