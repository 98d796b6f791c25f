import { ICONS_ABILITIES, MNS_CHARACTERISTICS } from "./rulesets.mjs";

/** The most HP and vigor the core takes (src/rulesets/icon/health.rs `Target::check`). */
const HEALTH_MAX = 100_000;

/**
 * The schema of the generic `hero`: one block of stats per ruleset, so a world can switch
 * rulesets (setting "Ruleset") and each hero keeps what it had. The sheet shows the world's block.
 */
export function defineHeroSchema() {
  const { ArrayField, BooleanField, NumberField, SchemaField, StringField } = foundry.data.fields;
  /** @param {number} [initial] @param {number} [min] @param {number} [max] */
  const integer = (initial = 0, min = undefined, max = undefined) =>
    new NumberField({ required: true, nullable: false, integer: true, initial, min, max });
  const name = () => new StringField({ required: true, blank: true, initial: "" });
  return {
    ...defineBiography(),
    // ICONS: abilities on the 1–10 scale (3 is average) and a pool of Determination points.
    icons: new SchemaField({
      // Typed per key: Object.fromEntries alone loses the keys.
      abilities: new SchemaField(/** @type {Record<typeof ICONS_ABILITIES[number], ReturnType<typeof integer>>} */ (
        Object.fromEntries(ICONS_ABILITIES.map(a => [a, integer(3, 1, 10)])))),
      powers: new ArrayField(new SchemaField({ name: name(), level: integer(5, 1, 10) })),
      determination: integer(0, 0)
    }),
    // Tribute: attribute ranks (0 average, unbounded) with their usual FOCUS and BURDEN dice,
    // and effects rated 0–5.
    tribute: new SchemaField({
      attributes: new ArrayField(new SchemaField({ name: name(), rank: integer(0), focus: integer(0, 0, 5), burden: integer(0, 0, 5) })),
      effects: new ArrayField(new SchemaField({ name: name(), rank: integer(1, 0, 5) }))
    }),
    // The 3d6 skill system: skills with their rank and the dice the narrator chose for them.
    narrator: new SchemaField({
      skills: new ArrayField(new SchemaField({
        name: name(), rank: integer(10), dice: new StringField({ required: true, blank: false, initial: "3d6" }), baseDamage: integer(0, 0)
      }))
    }),
    // Men & Supermen: abilities and attributes, height in metres, Action Roll targets, knowledge
    // scores, and whether the character is Special (re-rolls 1s).
    mns: new SchemaField({
      special: new BooleanField({ initial: true }),
      characteristics: new SchemaField(/** @type {Record<typeof MNS_CHARACTERISTICS[number], ReturnType<typeof integer>>} */ (
        Object.fromEntries(MNS_CHARACTERISTICS.map(c => [c, integer(10)])))),
      height: new NumberField({ required: true, nullable: false, initial: 1.75, min: 0 }),
      targets: new ArrayField(new SchemaField({ name: name(), target: integer(14), bonus: integer(0) })),
      knowledge: new ArrayField(new SchemaField({ name: name(), score: integer(5, 0) }))
    })
  };
}

/**
 * The fields every hero has whatever the ruleset: the biography, and health and vigor as
 * `{value, max}` pairs, which the manifest's `primaryTokenAttribute: "hp"` and
 * `secondaryTokenAttribute: "vigor"` name for every actor type's token bars. The rulesets keep
 * their own stats; these are what the table tracks on the token (the GM sets the maxima).
 */
function defineBiography() {
  const { HTMLField, NumberField, SchemaField } = foundry.data.fields;
  // the core's bounds on health (base-actor-data.mjs CORE_BOUNDS): a hero's health reaches it too
  // (the end of combat heals whoever has HP)
  /** @param {number} initial */
  const integer = initial => new NumberField({ required: true, nullable: false, integer: true, initial, min: 0, max: HEALTH_MAX });
  return {
    biography: new HTMLField({ required: true, blank: true }),
    hp: new SchemaField({ value: integer(10), max: integer(10) }),
    vigor: new SchemaField({ value: integer(0), max: integer(0) })
  };
}

/**
 * System data of the `hero` Actor type.
 * @extends {foundry.abstract.TypeDataModel<ReturnType<typeof defineHeroSchema>, Actor.Implementation>}
 */
export default class HeroData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineHeroSchema();
  }

  /**
   * HP above max HP reads as max HP (the core refuses more; the GM sets a hero's max).
   * @override
   */
  prepareDerivedData() {
    super.prepareDerivedData();
    this.hp.value = Math.min(this.hp.value, this.hp.max);
  }
}
