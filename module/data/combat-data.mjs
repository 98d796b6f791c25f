function defineCombatSchema() {
  const { ObjectField } = foundry.data.fields;
  // The reducer's plain JSON, written whole on every event (every key is always present, so an
  // update's merge replaces it exactly); null before the combat starts.
  return {
    state: new ObjectField({ required: false, nullable: true, initial: null }),
    // What GMs wrote for combatants' side and slow turns, by Combatant id ({side, canSlow}): the turn
    // order reads these, not the Combatant's own `system`, which its owner may write too (issue 36).
    choices: new ObjectField({ required: false, nullable: false, initial: {} })
  };
}

/**
 * System data of every Combat: the ICON turn order's reducer state (`combatApply` in the core).
 *
 * Why `system` on the core "base" type rather than a flag or a new subtype: since v12 Combat has
 * a TypeDataModel-backed `system` field, and the combats Foundry creates itself (the tracker's
 * "+" button, "toggle combat state" on a token) are all of type "base", so a model registered for
 * "base" covers every combat without a type picker or a migration, while the state stays a
 * schema-validated, documented part of the document instead of an untyped flag.
 * @extends {foundry.abstract.TypeDataModel<ReturnType<typeof defineCombatSchema>, Combat.Implementation>}
 */
export default class IconCombatData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineCombatSchema();
  }
}
