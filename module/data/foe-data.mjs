import BaseActorData, { defineBaseActorSchema } from "./base-actor-data.mjs";
import { FOE_CLASSES, FOE_TEMPLATES, LIMITS, foeMaxHp, foeTurns, validateFoe } from "./rules.mjs";

function defineFoeSchema() {
  const { BooleanField, NumberField, StringField } = foundry.data.fields;
  /** @param {number} [initial] @param {number} [min] @param {number} [max] */
  const integer = (initial = 0, min = 0, max = undefined) =>
    new NumberField({ required: true, nullable: false, integer: true, initial, min, max });
  return {
    ...defineBaseActorSchema(),
    foeClass: new StringField({ required: true, blank: true, choices: Object.keys(FOE_CLASSES) }),
    template: new StringField({ required: true, blank: true, choices: [...FOE_TEMPLATES] }),
    chapter: integer(1, ...LIMITS.chapter),
    size: integer(1, ...LIMITS.size),
    partySize: integer(4, ...LIMITS.partySize),
    canCrit: new BooleanField({ initial: false })
  };
}

/**
 * System data of the `foe` Actor type. Foes cannot land critical hits unless `canCrit`.
 * @extends {BaseActorData<ReturnType<typeof defineFoeSchema>>}
 */
export default class FoeData extends BaseActorData {
  /** @override */
  static defineSchema() {
    return defineFoeSchema();
  }

  /** @override @param {{vit: number, template: string, partySize: number}} source */
  static maxHpOf(source) {
    return foeMaxHp(source);
  }

  /** @override @param {Parameters<typeof validateFoe>[0]} data */
  static validateJoint(data) {
    const [error] = validateFoe(data);
    if (error) throw new Error(game.i18n?.format(error.key, error.data) ?? error.key);
  }

  /** Turns this foe takes each round (Elite 2, Legend one per player character). */
  get turns() {
    return foeTurns(this);
  }

  /** Mobs are immune to statuses. */
  get immuneToStatuses() {
    return this.template === "mob";
  }
}
