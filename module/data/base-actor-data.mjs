/**
 * The schema every ICON actor shares.
 */
function defineBaseActorSchema() {
  const { HTMLField } = foundry.data.fields;
  return {
    biography: new HTMLField({ required: true, blank: true })
  };
}

/**
 * Fields every ICON actor has. Placeholder until the actor rules land; kept as a shared base so
 * character, foe and hero grow from one schema.
 * @extends {foundry.abstract.TypeDataModel<ReturnType<typeof defineBaseActorSchema>, Actor.Implementation>}
 */
export default class BaseActorData extends foundry.abstract.TypeDataModel {
  /** @override */
  static defineSchema() {
    return defineBaseActorSchema();
  }
}
