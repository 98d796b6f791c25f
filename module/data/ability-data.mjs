import BaseItemData, { defineBaseItemSchema } from "./base-item-data.mjs";
import { ABILITY_ACTIONS, ABILITY_TAGS } from "./rules.mjs";

function defineAbilitySchema() {
  const { ArrayField, BooleanField, NumberField, SchemaField, StringField } = foundry.data.fields;
  /** @param {number} [initial] @param {number} [min] */
  const integer = (initial = 0, min = 0) => new NumberField({ required: true, nullable: false, integer: true, initial, min });
  return {
    ...defineBaseItemSchema(),
    actions: new StringField({ required: true, blank: false, initial: "1", choices: [...ABILITY_ACTIONS] }),
    interrupt: integer(1, 1),
    tags: new ArrayField(new StringField({ required: true, blank: false, choices: [...ABILITY_TAGS] })),
    resolveCost: integer(0),
    range: new StringField({ required: true, blank: true }),
    roll: new SchemaField({
      hitDice: integer(1),
      frayOnMiss: new BooleanField({ initial: true }),
      bonusDice: integer(0),
      pierce: new BooleanField({ initial: false }),
      divine: new BooleanField({ initial: false }),
      // Targets that succeed on a save take half damage (Dodge: none).
      saveForHalf: new BooleanField({ initial: false })
    })
  };
}

/**
 * System data of the `ability` Item type. `description` holds the effects (HTML); `roll` the
 * structured attack data (hit: `hitDice`[D], fray on a miss, bonus damage dice, pierce, divine).
 * @extends {BaseItemData<ReturnType<typeof defineAbilitySchema>>}
 */
export default class AbilityData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineAbilitySchema();
  }
}
