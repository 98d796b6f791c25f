import BaseItemData, { defineBaseItemSchema } from "./base-item-data.mjs";
import { ABILITY_ACTIONS, ABILITY_TAGS } from "./rules.mjs";
import { ABILITY_BOUNDS, AREA_SHAPES, EFFECT_DURATIONS, EFFECT_TRIGGERS, LIMITS, MOVE_KINDS, RANGE_KINDS, RECHARGES, TARGET_KINDS,
  migrateAbilitySource } from "./ability-rules.mjs";
import { ICONENGINE } from "../config.mjs";

/** Every ICON status an effect may inflict, by id. */
const STATUS_IDS = Object.values(ICONENGINE.statuses).flat();

/**
 * Charges and the once-per limit: what abilities and relics spend when used.
 */
export function defineUsesSchema() {
  const { SchemaField, StringField } = foundry.data.fields;
  return {
    // max 0: no charges (unlimited). recharge: when spent charges come back (ability-rules.mjs).
    charges: new SchemaField({
      value: integer(0, ...ABILITY_BOUNDS.charges),
      max: integer(0, ...ABILITY_BOUNDS.charges),
      recharge: new StringField({ required: true, blank: true, choices: [...RECHARGES] })
    }),
    // Once per turn/round/combat; `used` counts uses since it last cleared.
    limit: new SchemaField({
      per: new StringField({ required: true, blank: true, choices: [...LIMITS] }),
      used: integer(0, 0, 99)
    })
  };
}

/** @param {number} [initial] @param {number} [min] @param {number} [max] */
function integer(initial = 0, min = 0, max = undefined) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, initial, min, max });
}

function defineAbilitySchema() {
  const { ArrayField, BooleanField, HTMLField, SchemaField, StringField } = foundry.data.fields;
  /** Plain text of at most `max` characters. @param {number} max */
  const text = max => new StringField({ required: true, blank: true, validate: (/** @type {unknown} */ v) => typeof v !== "string" || v.length <= max,
    validationError: `must be at most ${max} characters` });
  return {
    ...defineBaseItemSchema(),
    // The Combo version's text, shown when the ability is used as its combo version.
    combo: new HTMLField({ required: true, blank: true }),
    actions: new StringField({ required: true, blank: false, initial: "1", choices: [...ABILITY_ACTIONS] }),
    interrupt: integer(1, ...ABILITY_BOUNDS.interrupt),
    // An interrupt's trigger, as text ("when an ally in range 2 is attacked").
    trigger: text(200),
    tags: new ArrayField(new StringField({ required: true, blank: false, choices: [...ABILITY_TAGS] })),
    resolveCost: integer(0, ...ABILITY_BOUNDS.resolveCost),
    range: new SchemaField({
      kind: new StringField({ required: true, blank: true, choices: [...RANGE_KINDS] }),
      value: integer(0, ...ABILITY_BOUNDS.range)
    }),
    area: new SchemaField({
      shape: new StringField({ required: true, blank: true, choices: [...AREA_SHAPES] }),
      size: integer(1, ...ABILITY_BOUNDS.areaSize)
    }),
    roll: new SchemaField({
      boons: integer(0, ...ABILITY_BOUNDS.boons),
      curses: integer(0, ...ABILITY_BOUNDS.boons),
      hitDice: integer(1, ...ABILITY_BOUNDS.dice),
      frayOnMiss: new BooleanField({ initial: true }),
      bonusDice: integer(0, ...ABILITY_BOUNDS.dice),
      pierce: new BooleanField({ initial: false }),
      divine: new BooleanField({ initial: false }),
      // Targets that succeed on a save take half damage (Dodge: none).
      saveForHalf: new BooleanField({ initial: false })
    }),
    // The attack's rule options, by the names AttackOptions gives them (dice/tactical-requests.mjs);
    // its range is `range` above.
    attack: new SchemaField({
      trueStrike: new BooleanField({ initial: false }),
      autoHit: new BooleanField({ initial: false }),
      unerring: new BooleanField({ initial: false }),
      floor: new BooleanField({ initial: false }),
      critAgain: new BooleanField({ initial: false }),
      mark: text(100)
    }),
    // Calls for its targets' saves (10+), with boons or curses on them.
    save: new SchemaField({
      enabled: new BooleanField({ initial: false }),
      boons: integer(0, ...ABILITY_BOUNDS.boons),
      curses: integer(0, ...ABILITY_BOUNDS.boons)
    }),
    // What it does to its targets (or its user): a status (with how long it lasts), a mark, forced
    // movement, or other text; when its trigger fires (ability-rules.mjs EFFECT_TRIGGERS). "Effects
    // happen regardless of hitting or missing, unless specified": a new effect fires on use.
    effects: new ArrayField(new SchemaField({
      trigger: new StringField({ required: true, blank: false, initial: "use", choices: [...EFFECT_TRIGGERS] }),
      // Gamble N+: the d6 face from which it fires.
      gamble: integer(4, 1, 6),
      to: new StringField({ required: true, blank: false, initial: "target", choices: [...TARGET_KINDS] }),
      status: new StringField({ required: true, blank: true, choices: STATUS_IDS }),
      duration: new StringField({ required: true, blank: false, initial: "save", choices: [...EFFECT_DURATIONS] }),
      mark: text(100),
      move: new SchemaField({
        kind: new StringField({ required: true, blank: true, choices: [...MOVE_KINDS] }),
        spaces: integer(1, 0, 10)
      }),
      movement: text(200),
      text: text(500)
    }), { validate: (/** @type {unknown} */ v) => !Array.isArray(v) || v.length <= 12, validationError: "must have at most 12 effects" }),
    ...defineUsesSchema()
  };
}

/**
 * System data of the `ability` Item type: what it costs (actions, interrupt N and its trigger,
 * resolve), its reach (range, area), its attack (roll data and rule options), the save it calls
 * for, its effects on use, on a hit or on a failed save, its tags, its charges and once-per limit.
 * `description` is its text (HTML, enriched on sheets and cards); `combo` its Combo version's.
 * @extends {BaseItemData<ReturnType<typeof defineAbilitySchema>>}
 */
export default class AbilityData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineAbilitySchema();
  }

  /**
   * Stored data of an older shape, as it reads today (ability-rules.mjs migrateAbilitySource).
   * @override
   * @param {Record<string, unknown>} source
   */
  static migrateData(source) {
    migrateAbilitySource(source);
    return super.migrateData(source);
  }
}
