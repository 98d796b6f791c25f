/** Which actor field a class, job or foe template item sets, by actor type (module/documents/item-grants.mjs). */
export const GRANT_FIELDS = Object.freeze({
  character: Object.freeze({ class: "class", job: "job" }),
  foe: Object.freeze({ template: "foeTemplate" })
});
