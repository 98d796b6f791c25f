import BaseItemData, { defineBaseItemSchema } from "./base-item-data.mjs";
import { CLASSES, FOE_TEMPLATES } from "./rules.mjs";

/** An item's key: lowercase letters, digits and dashes, as a character's `system.job` holds it. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/i;

/**
 * What a class, job and foe template item share: its key (what a character's `system.class` or
 * `system.job`, or a foe's `system.template`, says) and the items it grants (their UUIDs).
 */
export function defineGrantSchema() {
  const { ArrayField, StringField } = foundry.data.fields;
  return {
    ...defineBaseItemSchema(),
    key: new StringField({ required: true, blank: false, initial: "new", validate: (/** @type {unknown} */ v) => typeof v !== "string" || KEY_PATTERN.test(v),
      validationError: "must be letters, digits and dashes (at most 64)" }),
    grants: new ArrayField(new StringField({ required: true, blank: false }),
      { validate: (/** @type {unknown} */ v) => !Array.isArray(v) || v.length <= 50, validationError: "must have at most 50 items" })
  };
}

/**
 * System data of the `class` Item type: picking the class on a character grants these items
 * (its class trait, say). The class's numbers are the rules' (module/data/rules.mjs CLASSES).
 * @extends {BaseItemData<ReturnType<typeof defineGrantSchema>>}
 */
export class ClassData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineGrantSchema();
  }
}

function defineJobSchema() {
  const { StringField } = foundry.data.fields;
  return { ...defineGrantSchema(), class: new StringField({ required: true, blank: true, choices: Object.keys(CLASSES) }) };
}

/**
 * System data of the `job` Item type: picking the job on a character grants these items (its
 * abilities); `class` is the class it belongs to.
 * @extends {BaseItemData<ReturnType<typeof defineJobSchema>>}
 */
export class JobData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineJobSchema();
  }
}

function defineFoeTemplateSchema() {
  const { StringField } = foundry.data.fields;
  return { ...defineGrantSchema(), template: new StringField({ required: true, blank: true, choices: [...FOE_TEMPLATES] }) };
}

/**
 * System data of the `foeTemplate` Item type: dropped on a foe, it sets the foe's template
 * (normal, elite, legend, mob) and grants these items (the template's traits and abilities).
 * @extends {BaseItemData<ReturnType<typeof defineFoeTemplateSchema>>}
 */
export class FoeTemplateData extends BaseItemData {
  /** @override */
  static defineSchema() {
    return defineFoeTemplateSchema();
  }
}
