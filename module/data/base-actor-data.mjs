import { isCoreLoaded, iconDerived } from "../core.mjs";
import { DAMAGE_DICE, LIMITS, clampHealth } from "./rules.mjs";
import { TOKEN_BOUNDS, powerDiceRefusal, powerDieAbilityRefusal } from "./tokens.mjs";

/**
 * The core's bounds on an ICON actor's numbers, which the data models take as their fields'
 * maxima, so no actor's data makes the core refuse it in the middle of a fight (issue 36):
 * src/rulesets/icon/health.rs `Target::check` (max HP and HP up to 100,000, vigor up to 100,000,
 * armor up to 1,000, wounds up to 4, resolve up to 1,000), tactical.rs (fray up to 1,000, a
 * defense up to 100), narrative.rs (an effort pool up to 1,000), limit_break.rs (resolve up to
 * 1,000); the tokens' are tokens.mjs `TOKEN_BOUNDS`. HP above max HP, which the core refuses too,
 * is read as max HP ({@link BaseActorData#prepareDerivedData}).
 */
export const CORE_BOUNDS = Object.freeze({ hp: 100_000, vigor: 100_000, armor: 1000, resolve: 1000, fray: 1000, defense: 100, effort: 1000 });

/**
 * The schema every ICON actor shares: biography, VIT, HP and vigor as `{value, max}` pairs (so
 * `primaryTokenAttribute: "hp"` and `secondaryTokenAttribute: "vigor"` resolve to token bars),
 * wounds, the combat numbers, and the Vigilance charges held.
 */
export function defineBaseActorSchema() {
  const { ArrayField, BooleanField, HTMLField, NumberField, SchemaField, StringField } = foundry.data.fields;
  /** @param {number} [initial] @param {number} [min] @param {number} [max] */
  const integer = (initial = 0, min = 0, max = undefined) =>
    new NumberField({ required: true, nullable: false, integer: true, initial, min, max });
  return {
    biography: new HTMLField({ required: true, blank: true }),
    vit: integer(8, ...LIMITS.vit),
    hp: new SchemaField({ value: integer(32, 0, CORE_BOUNDS.hp), max: integer(32, 0, CORE_BOUNDS.hp) }),
    vigor: new SchemaField({ value: integer(0, 0, CORE_BOUNDS.vigor), max: integer(8, 0, CORE_BOUNDS.vigor) }),
    wounds: integer(0, ...LIMITS.wounds),
    defense: integer(7, 0, CORE_BOUNDS.defense),
    speed: integer(4),
    dash: integer(2),
    damageDie: new NumberField({ required: true, nullable: false, integer: true, initial: 8, choices: [...DAMAGE_DICE] }),
    fray: integer(3, 0, CORE_BOUNDS.fray),
    armor: integer(0, 0, CORE_BOUNDS.armor),
    // Vigilance X: "A special effect with X charges" (module/data/vigilance.mjs).
    vigilance: integer(0, ...LIMITS.vigilance),
    // Combat tokens (module/data/tokens.mjs, the core's icon.tokens): Blessing tokens, the one
    // Combo token, Power dice (1-6 ticks, one per ability, at most 20); all discarded at the end
    // of combat.
    blessings: integer(0, 0, TOKEN_BOUNDS.blessings),
    combo: new BooleanField({ required: true, initial: false }),
    powerDice: new ArrayField(new SchemaField({
      ability: new StringField({ required: true, blank: false, validate: powerDieAbilityFits,
        validationError: `names an ability in 1 to ${TOKEN_BOUNDS.abilityBytes} bytes, not blank` }),
      ticks: integer(1, 1, TOKEN_BOUNDS.ticks)
    }), { validate: powerDiceFit, validationError: `holds at most ${TOKEN_BOUNDS.powerDice} power dice, one per ability` })
  };
}

/**
 * A power die's ability as the core takes it (DataField `validate`: false refuses).
 * @param {unknown} ability
 * @returns {boolean}
 */
function powerDieAbilityFits(ability) {
  return powerDieAbilityRefusal(ability) === null;
}

/**
 * The power dice as the core takes them: at most {@link TOKEN_BOUNDS}.powerDice, one per ability.
 * @param {unknown} dice
 * @returns {boolean}
 */
function powerDiceFit(dice) {
  return powerDiceRefusal(dice) === null;
}

/**
 * @typedef {object} IconDerived
 * @property {boolean} bloodied
 * @property {number} bloodiedValue
 * @property {number} healableMax
 * @property {number} vigorCap
 * @property {boolean} fallen
 */

/** @typedef {ReturnType<typeof defineBaseActorSchema>} BaseActorSchema */

/**
 * Fields every ICON actor has, and the derived health values from the core. Generic in the
 * schema so each actor type's own fields are typed.
 * @template {BaseActorSchema} [Schema=BaseActorSchema]
 * @extends {foundry.abstract.TypeDataModel<Schema, Actor.Implementation>}
 */
export default class BaseActorData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineBaseActorSchema();
  }

  /**
   * Derived values from the core (`iconDerived`), or null while the core is still loading. The
   * system re-prepares every actor once the core has loaded (module/icon-engine.mjs).
   * @type {IconDerived | null}
   */
  derived = null;

  /**
   * The max HP these numbers give. Subclasses override.
   * @param {{vit: number}} source  The system source (or the prepared data).
   * @returns {number}
   */
  static maxHpOf(source) {
    return 4 * source.vit;
  }

  /** @override */
  prepareDerivedData() {
    this.hp.max = /** @type {typeof BaseActorData} */ (this.constructor).maxHpOf(this);
    // "HP never exceeds max": HP written above it (a lowered VIT, a write that skipped _preUpdate)
    // reads as max HP, which is also what the core takes.
    this.hp.value = Math.min(this.hp.value, this.hp.max);
    if (!isCoreLoaded()) {
      this.derived = null;
      return;
    }
    this.derived = iconDerived({ hp: this.hp.value, maxHp: this.hp.max, vigor: this.vigor.value, wounds: this.wounds });
    this.vigor.max = this.derived.vigorCap;
  }

  /**
   * Clamp HP into [0, max HP] before an update is saved (the rules never let HP exceed max).
   * @override
   * @param {import("@league-of-foundry-developers/foundry-vtt-types/utils").DeepPartial<foundry.abstract.TypeDataModel.ParentAssignmentType<Schema, Actor.Implementation>>} changes
   * @param {foundry.abstract.Document.Database.PreUpdateOptions<foundry.abstract.types.DatabaseUpdateOperation>} options
   * @param {User.Implementation} user
   */
  async _preUpdate(changes, options, user) {
    const allowed = await super._preUpdate(changes, options, user);
    if (allowed === false) return false;
    const system = changes.system;
    if (!system) return;
    const merged = foundry.utils.mergeObject(this.toObject(), foundry.utils.expandObject(system), { inplace: false });
    const maxHp = /** @type {typeof BaseActorData} */ (this.constructor).maxHpOf(merged);
    const fix = clampHealth(merged, merged, maxHp);
    if (fix.hp) foundry.utils.setProperty(changes, "system.hp.value", fix.hp.value);
    foundry.utils.setProperty(changes, "system.hp.max", maxHp);
  }
}
