import BaseActorData, { CORE_BOUNDS, defineBaseActorSchema } from "./base-actor-data.mjs";
import { ACTIONS, BURDEN_CLOCKS, CLASSES, LIMITS, characterMaxHp, chapterOfLevel, validateCharacter } from "./rules.mjs";

function defineCharacterSchema() {
  const { ArrayField, BooleanField, HTMLField, NumberField, SchemaField, StringField } = foundry.data.fields;
  /** @param {number} [initial] @param {number} [min] @param {number} [max] */
  const integer = (initial = 0, min = 0, max = undefined) =>
    new NumberField({ required: true, nullable: false, integer: true, initial, min, max });
  // Typed as string: blank ("" until picked) is valid too.
  const actionChoice = () => new StringField({ required: true, blank: true, choices: /** @type {string[]} */ ([...ACTIONS]) });
  return {
    ...defineBaseActorSchema(),
    class: new StringField({ required: true, blank: true, choices: Object.keys(CLASSES) }),
    job: new StringField({ required: true, blank: true }),
    level: integer(0, ...LIMITS.level),
    range: integer(3),
    resolve: integer(0, 0, CORE_BOUNDS.resolve),
    xp: integer(0),
    // Typed per action: Object.fromEntries alone loses the keys.
    actions: new SchemaField(/** @type {Record<typeof ACTIONS[number], ReturnType<typeof integer>>} */ (
      Object.fromEntries(ACTIONS.map(action => [action, integer(0, ...LIMITS.rating)])))),
    strain: new SchemaField({ value: integer(0), max: integer(5, ...LIMITS.maxStrain) }),
    effort: integer(0, 0, CORE_BOUNDS.effort),
    // Breaking, as the core's narrativeApply tracks it: broken this scene, for the whole expedition
    // (with 3 burdens), and a burden still to name.
    broken: new BooleanField({ required: true, initial: false }),
    brokenForExpedition: new BooleanField({ required: true, initial: false }),
    burdenPending: new BooleanField({ required: true, initial: false }),
    // Broke with 3 burdens in the expedition that ended: "cannot embark on the next expedition".
    sitsOutNextExpedition: new BooleanField({ required: true, initial: false }),
    // Used a limit break this expedition (it cannot receive personal resolve from another's).
    limitBreakUsed: new BooleanField({ required: true, initial: false }),
    burdens: new ArrayField(new SchemaField({
      name: new StringField({ required: true, blank: true }),
      actions: new SchemaField({ first: actionChoice(), second: actionChoice() }),
      clock: new NumberField({ required: true, nullable: false, integer: true, initial: 4, choices: [...BURDEN_CLOCKS] }),
      filled: integer(0, 0, 10)
    })),
    bonds: new HTMLField({ required: true, blank: true }),
    ideals: new HTMLField({ required: true, blank: true }),
    ambitions: new HTMLField({ required: true, blank: true })
  };
}

/**
 * System data of the `character` Actor type (a player character).
 * @extends {BaseActorData<ReturnType<typeof defineCharacterSchema>>}
 */
export default class CharacterData extends BaseActorData {
  /** @override */
  static defineSchema() {
    return defineCharacterSchema();
  }

  /** @override @param {{vit: number}} source */
  static maxHpOf(source) {
    return characterMaxHp(source.vit);
  }

  /**
   * Cross-field rules (wounds, ratings, strain, burdens); Foundry calls this on every validation.
   * @override
   * @param {Parameters<typeof validateCharacter>[0]} data
   */
  static validateJoint(data) {
    const [error] = validateCharacter(data);
    if (error) throw new Error(game.i18n?.format(error.key, error.data) ?? error.key);
  }

  /** The chapter of the character's level (I = 1–4, II = 5–8, III = 9–12). */
  get chapter() {
    return chapterOfLevel(this.level);
  }
}
