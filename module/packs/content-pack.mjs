/**
 * Content packs (docs/content-packs.md): a JSON file of classes, jobs, abilities, traits, relics,
 * foes and foe templates, planned into the Item and Actor documents of two compendiums, with a
 * report that accounts for every record: the documents it becomes, or why it cannot (the record
 * named with the field). Pure: the data models' own validation comes in as `validate`, so the
 * build (the system's example pack), node tests and the in-world importer plan the same documents.
 */
import { SYSTEM_ID, SYSTEM_PATH } from "../config.mjs";
import { foeMaxHp, foePresetUpdate } from "../data/rules.mjs";
import derivedId from "./derived-id.mjs";

/** What a content pack declares itself as, and the one version there is. */
export const CONTENT_PACK_FORMAT = "icon-engine-content-pack";
export const CONTENT_PACK_VERSION = 1;

/** The system's example content pack, as Foundry serves it. */
export const EXAMPLE_PACK_PATH = `${SYSTEM_PATH}/assets/content-packs/example.json`;

/** A record's id, and a pack's: lowercase letters, digits and dashes. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * A maker of record ids for a converted pack: each text slugged to `ID_PATTERN`'s alphabet (at most
 * 56 characters, accents dropped, "record" when nothing is left), made unique in the pack with "-2", "-3", ...
 * @returns {(text: string) => string}
 */
export function recordIdMaker() {
  const ids = new Set();
  return text => {
    // NFKD splits "è" into "e" and a combining mark, which is dropped (not turned into a dash)
    const base = text.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 56) || "record";
    let candidate = base;
    for (let n = 2; ids.has(candidate); n++) candidate = `${base}-${n}`;
    ids.add(candidate);
    return candidate;
  };
}

/** The most records a pack may hold (of all kinds together). */
export const MAX_RECORDS = 2000;

/** The record kinds, in the order they are planned (items before the foes that carry them). */
export const KINDS = /** @type {const} */ (["classes", "jobs", "abilities", "traits", "relics", "foeTemplates", "foes"]);

/** @typedef {typeof KINDS[number]} Kind */

/** The document each kind becomes: its document name and type. @type {Readonly<Record<Kind, {documentName: "Item" | "Actor", type: string}>>} */
export const KIND_TYPES = Object.freeze({
  classes: { documentName: "Item", type: "class" },
  jobs: { documentName: "Item", type: "job" },
  abilities: { documentName: "Item", type: "ability" },
  traits: { documentName: "Item", type: "trait" },
  relics: { documentName: "Item", type: "relic" },
  foeTemplates: { documentName: "Item", type: "foeTemplate" },
  foes: { documentName: "Actor", type: "foe" }
});

/** The fields a record of each kind may have besides `id`, `name` and `img` (its `system` fields, and references). */
export const RECORD_FIELDS = Object.freeze({
  classes: ["description", "grants"],
  jobs: ["description", "class", "grants"],
  abilities: ["description", "combo", "actions", "interrupt", "trigger", "tags", "resolveCost", "range", "area", "roll", "attack", "save",
    "effects", "charges", "limit"],
  traits: ["description"],
  relics: ["description", "charges", "limit"],
  foeTemplates: ["description", "template", "grants"],
  foes: ["biography", "foeClass", "template", "chapter", "size", "partySize", "canCrit", "vit", "defense", "speed", "dash", "damageDie", "fray",
    "armor", "abilities", "traits", "relics"]
});

/** Default images of the documents, by type (Foundry's own icons). @type {Readonly<Record<string, string>>} */
const DEFAULT_IMG = Object.freeze({
  class: "icons/svg/book.svg", job: "icons/svg/book.svg", ability: "icons/svg/lightning.svg", trait: "icons/svg/aura.svg",
  relic: "icons/svg/chest.svg", foeTemplate: "icons/svg/book.svg", foe: "icons/svg/mystery-man.svg"
});

/** The kinds of item a grant or a foe may reference. */
const GRANTABLE = /** @type {const} */ (["abilities", "traits", "relics"]);

/**
 * @typedef {object} BadRecord  A record that cannot be imported.
 * @property {Kind | "pack"} kind
 * @property {string} id       Its id as given ("" when it has none; "#3" for the 4th when unnamed).
 * @property {number} index    Its place in its list.
 * @property {string} field    The field at fault (a JSON path in the record, or the document's field path).
 * @property {string} message
 */

/**
 * @typedef {object} Warning  Something imported differently from how it is written.
 * @property {Kind | "pack"} kind
 * @property {string} id
 * @property {string} field
 * @property {string} message
 */

/**
 * @typedef {object} PackReport  Every record accounted for: `records = valid + bad.length`.
 * @property {string} id       The pack's id.
 * @property {string} name
 * @property {number} records
 * @property {number} valid
 * @property {Record<Kind, number>} kinds  Valid records by kind.
 * @property {BadRecord[]} bad
 * @property {Warning[]} warnings
 */

/**
 * @typedef {object} PackPlan
 * @property {Record<string, unknown>[]} items   Item documents (with `_id`), for the item compendium.
 * @property {Record<string, unknown>[]} actors  Actor documents (embedded items inside), for the actor compendium.
 * @property {PackReport} report
 * @property {{items: string, actors: string}} packs  The compendiums' collection ids the UUIDs name.
 */

/**
 * The data models' validation of one document: null when valid, else the field at fault and why.
 * @callback Validate
 * @param {Record<string, unknown>} document
 * @param {"Item" | "Actor"} documentName
 * @returns {{field: string, message: string} | null}
 */


// Documents keep their ids when a pack is imported again, so UUIDs into it (grants, macros,
// links) stay valid.
export { derivedId };

/**
 * The compendiums a pack is imported into, by default: `world.<id>-items` and `world.<id>-actors`.
 * @param {string} id
 */
export function worldPacks(id) {
  return { items: `world.${id}-items`, actors: `world.${id}-actors` };
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isRecord = value => !!value && typeof value === "object" && !Array.isArray(value);

/**
 * Plan a content pack.
 * @param {string | unknown} input  The pack's JSON text, or the parsed value.
 * @param {object} [options]
 * @param {{items: string, actors: string}} [options.packs]  The compendiums' collection ids
 *   (default {@link worldPacks} of the pack's id).
 * @param {Validate} [options.validate]  The data models' validation (Foundry's); without it only
 *   the pack's own rules are checked.
 * @returns {PackPlan}
 * @throws {Error} when the input is no content pack at all (not JSON, not an object, another format or version).
 */
export function planContentPack(input, { packs, validate } = {}) {
  let pack = input;
  if (typeof input === "string") {
    try {
      pack = JSON.parse(input);
    } catch (error) {
      throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (!isRecord(pack)) throw new Error("a content pack is a JSON object");
  if (pack.format !== CONTENT_PACK_FORMAT) throw new Error(`"format" must be "${CONTENT_PACK_FORMAT}"`);
  if (pack.version !== CONTENT_PACK_VERSION) throw new Error(`"version" must be ${CONTENT_PACK_VERSION} (this system reads version ${CONTENT_PACK_VERSION})`);
  if (typeof pack.id !== "string" || !ID_PATTERN.test(pack.id)) throw new Error(`"id" must be lowercase letters, digits and dashes (at most 64)`);
  const id = pack.id;
  const name = typeof pack.name === "string" && pack.name.trim() ? pack.name.trim() : id;
  const where = packs ?? worldPacks(id);
  /** @type {BadRecord[]} */
  const bad = [];
  /** @type {Warning[]} */
  const warnings = [];
  for (const key of Object.keys(pack)) {
    if (!["format", "version", "id", "name", "description", ...KINDS].includes(key)) {
      warnings.push({ kind: "pack", id, field: key, message: "not a field of a content pack: ignored" });
    }
  }
  let total = 0;
  for (const kind of KINDS) {
    if (pack[kind] === undefined) continue;
    if (!Array.isArray(pack[kind])) throw new Error(`"${kind}" must be a list of records`);
    total += pack[kind].length;
  }
  if (total > MAX_RECORDS) throw new Error(`at most ${MAX_RECORDS} records in one pack, not ${total}`);

  // First pass: every record's id, so references resolve whatever their order.
  /** @type {Map<string, {kind: Kind, id: string, _id: string, uuid: string}>} */
  const items = new Map();
  /** @type {{kind: Kind, index: number, record: Record<string, unknown>, id: string, _id: string}[]} */
  const records = [];
  for (const kind of KINDS) {
    const list = /** @type {unknown[]} */ (pack[kind] ?? []);
    list.forEach((record, index) => {
      const label = isRecord(record) && typeof record.id === "string" ? record.id : "";
      const fail = (/** @type {string} */ field, /** @type {string} */ message) => bad.push({ kind, id: label, index, field, message });
      if (!isRecord(record)) return fail("", "a record is a JSON object");
      if (typeof record.id !== "string" || !ID_PATTERN.test(record.id)) return fail("id", "must be lowercase letters, digits and dashes (at most 64)");
      const type = KIND_TYPES[kind];
      const _id = derivedId(`${SYSTEM_ID}.content:${id}.${type.type}.${record.id}`);
      const key = `${type.documentName}:${record.id}`;
      if (items.has(key)) return fail("id", `"${record.id}" is the id of another ${type.documentName === "Item" ? "item" : "foe"} record`);
      const collection = type.documentName === "Item" ? where.items : where.actors;
      items.set(key, { kind, id: record.id, _id, uuid: `Compendium.${collection}.${type.documentName}.${_id}` });
      records.push({ kind, index, record, id: record.id, _id });
      return undefined;
    });
  }

  /** @type {Record<string, unknown>[]} */
  const itemDocs = [];
  /** @type {Record<string, unknown>[]} */
  const actorDocs = [];
  /** @type {Map<string, Record<string, unknown>>} */
  const itemById = new Map();
  const kinds = /** @type {Record<Kind, number>} */ (Object.fromEntries(KINDS.map(k => [k, 0])));

  for (const { kind, index, record, id: recordId, _id } of records) {
    const fail = (/** @type {string} */ field, /** @type {string} */ message) => {
      bad.push({ kind, id: recordId, index, field, message });
    };
    const unknown = Object.keys(record).filter(f => !["id", "name", "img", ...RECORD_FIELDS[kind]].includes(f));
    if (unknown.length) { fail(unknown[0], `not a field of ${kind} records (they have ${RECORD_FIELDS[kind].join(", ")})`); continue; }
    if (typeof record.name !== "string" || !record.name.trim()) { fail("name", "must be a name (text)"); continue; }
    if (record.img !== undefined && typeof record.img !== "string") { fail("img", "must be an image path (text)"); continue; }
    const { documentName, type } = KIND_TYPES[kind];
    /** @type {Record<string, unknown>} */
    const system = {};
    for (const field of RECORD_FIELDS[kind]) if (record[field] !== undefined && !["grants", "abilities", "traits", "relics"].includes(field)) system[field] = record[field];
    /** A list of references to item records, as their UUIDs (or, for a foe, the records). */
    const refs = (/** @type {string} */ field) => {
      const value = record[field];
      if (value === undefined) return [];
      if (!Array.isArray(value) || !value.every(v => typeof v === "string")) { fail(field, "must be a list of record ids"); return null; }
      const out = [];
      for (const ref of value) {
        const found = items.get(`Item:${ref}`);
        if (!found || !(GRANTABLE).includes(/** @type {typeof GRANTABLE[number]} */ (found.kind))) {
          fail(field, `"${ref}" is no ability, trait or relic of this pack`);
          return null;
        }
        out.push(found);
      }
      return out;
    };
    /** @type {Record<string, unknown>} */
    let doc;
    if (documentName === "Item") {
      if (kind === "classes" || kind === "jobs" || kind === "foeTemplates") {
        const granted = refs("grants");
        if (!granted) continue;
        system.key = recordId;
        system.grants = granted.map(g => g.uuid);
      }
      doc = { _id, name: record.name.trim(), type, img: record.img ?? DEFAULT_IMG[type], system, flags: { [SYSTEM_ID]: { contentPack: { pack: id, id: recordId } } } };
    } else {
      const lists = ["abilities", "traits", "relics"].map(refs);
      if (lists.some(l => l === null)) continue;
      // A foe's numbers are its class's (and template's) unless the record gives them.
      const preset = typeof system.foeClass === "string" ? foePresetUpdate(system.foeClass, String(system.template ?? ""), Number(system.partySize ?? 4)) : {};
      /** @type {Record<string, unknown>} */
      const base = {};
      for (const [path, value] of Object.entries(preset)) base[path.replace(/^system\./, "")] = value;
      delete base["hp.value"];
      delete base["hp.max"];
      const merged = { ...base, ...system };
      // Full HP for its VIT and template (the data model keeps max HP in step).
      const hp = foeMaxHp({ vit: Number(merged.vit ?? 8), template: String(merged.template ?? ""), partySize: Number(merged.partySize ?? 4) });
      if (Number.isFinite(hp)) merged.hp = { value: hp, max: hp };
      const carried = /** @type {{kind: Kind, id: string, _id: string, uuid: string}[]} */ (lists.flat());
      doc = { _id, name: record.name.trim(), type, img: record.img ?? DEFAULT_IMG[type], system: merged,
        items: carried.map(c => ({ _ref: c })), flags: { [SYSTEM_ID]: { contentPack: { pack: id, id: recordId } } } };
    }
    if (validate) {
      const probe = documentName === "Actor" ? { ...doc, items: [] } : doc;
      const failure = validate(probe, documentName);
      if (failure) { fail(failure.field, failure.message); continue; }
    }
    kinds[kind]++;
    if (documentName === "Item") {
      itemDocs.push(doc);
      itemById.set(recordId, doc);
    } else actorDocs.push(doc);
  }

  // References to records that could not be planned are dropped, with a warning each; a foe's
  // items are copies of the planned item documents (its own ids, the item's UUID as their source).
  const planned = new Set(itemDocs.map(d => `Compendium.${where.items}.Item.${d._id}`));
  for (const doc of itemDocs) {
    const system = /** @type {{grants?: string[]}} */ (doc.system);
    if (!system.grants) continue;
    const kept = system.grants.filter(uuid => planned.has(uuid));
    for (const uuid of system.grants.filter(u => !planned.has(u))) {
      const ref = [...items.values()].find(i => i.uuid === uuid);
      const flag = /** @type {{contentPack: {id: string}}} */ (/** @type {Record<string, unknown>} */ (doc.flags)[SYSTEM_ID]);
      warnings.push({ kind: /** @type {Kind} */ (kindOfType(String(doc.type))), id: flag.contentPack.id, field: "grants",
        message: `"${ref?.id ?? uuid}" cannot be imported, so it is not granted` });
    }
    system.grants = kept;
  }
  for (const doc of actorDocs) {
    const refs = /** @type {{_ref: {id: string, _id: string, uuid: string}}[]} */ (doc.items);
    const flag = /** @type {{contentPack: {id: string}}} */ (/** @type {Record<string, unknown>} */ (doc.flags)[SYSTEM_ID]);
    doc.items = refs.flatMap(({ _ref }, n) => {
      const item = itemById.get(_ref.id);
      if (!item) {
        warnings.push({ kind: "foes", id: flag.contentPack.id, field: "items", message: `"${_ref.id}" cannot be imported, so the foe does not carry it` });
        return [];
      }
      const copy = structuredClone(item);
      copy._id = derivedId(`${SYSTEM_ID}.content:${id}.foe.${flag.contentPack.id}.${n}.${_ref.id}`);
      copy._stats = { compendiumSource: _ref.uuid };
      copy.sort = (n + 1) * 100000;
      return [copy];
    });
  }
  const valid = Object.values(kinds).reduce((a, b) => a + b, 0);
  return {
    items: itemDocs,
    actors: actorDocs,
    packs: where,
    report: { id, name, records: total, valid, kinds, bad, warnings }
  };
}

/**
 * The kind of records a document type comes from.
 * @param {string} type
 * @returns {Kind | "pack"}
 */
function kindOfType(type) {
  return /** @type {Kind | undefined} */ (KINDS.find(k => KIND_TYPES[k].type === type)) ?? "pack";
}

/**
 * A validation error as the report names it: the first failing field's path and its message.
 * Reads a DataModelValidationError's failures (`getAllFailures`: path → failure) when it has
 * them, else its message's first `path: message` line.
 * @param {unknown} error
 * @returns {{field: string, message: string}}
 */
export function failureOf(error) {
  const all = /** @type {{getAllFailures?: () => Record<string, unknown> | void}} */ (error ?? {}).getAllFailures?.();
  if (all && typeof all === "object") {
    const [field, failure] = Object.entries(all)[0] ?? [];
    if (field) return { field, message: String(/** @type {{message?: unknown} | undefined} */ (failure)?.message ?? failure) };
  }
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").map(l => l.trim()).find(l => /^[\w.]+: /.test(l));
  if (line) {
    const at = line.indexOf(": ");
    return { field: line.slice(0, at), message: line.slice(at + 2) };
  }
  return { field: "", message: text };
}

/**
 * foundryvtt-cli source files of a plan's documents (the build compiles the system's example pack
 * from them): each document with its `_key`, embedded items with theirs.
 * @param {PackPlan} plan
 * @returns {{items: Record<string, unknown>[], actors: Record<string, unknown>[]}}
 */
export function cliSources(plan) {
  return {
    items: plan.items.map(doc => ({ ...doc, _key: `!items!${doc._id}` })),
    actors: plan.actors.map(doc => ({
      ...doc,
      items: /** @type {Record<string, unknown>[]} */ (doc.items).map(item => ({ ...item, _key: `!actors.items!${doc._id}.${item._id}` })),
      _key: `!actors!${doc._id}`
    }))
  };
}
