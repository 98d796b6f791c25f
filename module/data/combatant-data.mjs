function defineCombatantSchema() {
  const { BooleanField, StringField } = foundry.data.fields;
  return {
    // Typed as string: blank ("", the side follows the actor) is valid too.
    side: new StringField({ required: true, blank: true, initial: "", choices: /** @type {string[]} */ (["party", "foes"]) }),
    canSlow: new BooleanField({ initial: false })
  };
}

/**
 * System data of every Combatant: the GM's overrides for the ICON turn order. The side normally
 * follows the actor (characters are the party) and the token (friendly NPCs are allies).
 * @extends {foundry.abstract.TypeDataModel<ReturnType<typeof defineCombatantSchema>, Combatant.Implementation>}
 */
export default class IconCombatantData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineCombatantSchema();
  }
}
