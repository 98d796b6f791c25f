/**
 * The ONLY Foundry stand-in of the browser tests. Its base is what rendering a chat card needs:
 * - game.i18n.localize / format, from lang/en.json
 * - foundry.applications.handlebars.renderTemplate, via the real Handlebars
 * - the `localize` Handlebars helper (with hash arguments formatting, as Foundry's does)
 * - foundry.applications.handlebars.loadTemplates, registering each template as a partial named by
 *   its path (as Foundry does), for the sheet partials
 * Template paths under systems/icon-engine/ map to the repo root, as Foundry serves them; core's
 * own templates (`templates/...`) to the stand-ins under test/browser/foundry/ (only the ones the
 * system renders: the combat tracker's parts, the roll card, manual dice entry).
 * `installWorld()` then `startGame()` add a v13 world booted as Foundry boots one; it behaves as
 * v13 does wherever the system relies on it, and docs/foundry-api.md ("The browser shim") lists
 * where v13's behaviour was read and every way it still differs, with why that hides nothing.
 *
 * Everything it provides is held to foundry-vtt-types by scripts/shim-conformance.mjs (run by
 * `npm run typecheck`): a member Foundry does not declare, or one whose type does not fit the
 * declaration, fails the build. What is not Foundry API (test plumbing) is marked on its
 * statement with a comment `@shim-unchecked <reason>`.
 */

/** Load a classic (UMD) script; Handlebars' browser build is not an ES module. */
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

/**
 * The Foundry generation this page's shim plays: 14 when the page was told so before it loaded
 * (test/support/browser.mjs, from `ICON_FOUNDRY_GENERATION`), else 13. The one switch: every
 * member that differs between the two reads it.
 */
export const GENERATION = globalThis.ICON_SHIM_GENERATION === 14 ? 14 : 13;

await loadScript("/node_modules/handlebars/dist/handlebars.min.js");
const Handlebars = globalThis.Handlebars;
const translations = await (await fetch("/lang/en.json")).json();
// The few core strings the shim's own markup shows (Foundry's lang/en.json has them).
Object.assign(translations, { Delete: "Delete", TIME: { Now: "Now" },
  CHAT: { To: "To", InvalidCommand: "{command} is not a valid chat message command.", MODES: { Public: "Public Message", GM: "Private GM Message",
    Blind: "Blind GM Message", Self: "Self Message", IC: "In Character" }, RollPublic: "Public Roll", RollPrivate: "Private GM Roll", RollBlind: "Blind GM Roll", RollSelf: "Self Roll", ...translations.CHAT },
  APPLICATION: { TOOLS: { Close: "Close Window", ControlsMenu: "Toggle Controls" } },
  COMBAT: { Round: "Round {round}", NotStarted: "Not Started", None: "No Combat", Create: "Create Encounter", NavLabel: "Encounters",
    EncounterPrevious: "Previous Encounter", EncounterNext: "Next Encounter", RollAll: "Roll All", RollNPC: "Roll NPCs", ...translations.COMBAT } });

/** @param {string} key */
function localize(key) {
  const value = key.split(".").reduce((node, part) => node?.[part], translations);
  return typeof value === "string" ? value : key;
}

/** @param {string} key @param {Record<string, unknown>} data */
function format(key, data = {}) {
  return localize(key).replace(/{(\w+)}/g, (match, name) => (name in data ? String(data[name]) : match));
}

Handlebars.registerHelper("localize", (key, options) => {
  const hash = options?.hash ?? {};
  return Object.keys(hash).length ? format(key, hash) : localize(key);
});

const compiled = new Map();

/**
 * Where the page fetches a template: the system's from the repo root, core's from its stand-in.
 * @param {string} path
 */
function templateURL(path) {
  return path.startsWith("systems/icon-engine/") ? `/${path.slice("systems/icon-engine/".length)}` : `/test/browser/foundry/${path}`;
}

/** @param {string} path @param {object} data */
async function renderTemplate(path, data) {
  if (!compiled.has(path)) {
    const url = templateURL(path);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    compiled.set(path, Handlebars.compile(await response.text()));
  }
  // Foundry renders every template letting it read getters and methods of the context's objects.
  return compiled.get(path)(data, { allowProtoMethodsByDefault: true, allowProtoPropertiesByDefault: true });
}

/**
 * As Foundry's: paths (each partial named by its path) or `{partialId: path}`; resolves to the
 * compiled templates.
 * @param {string[] | Record<string, string>} paths
 * @returns {Promise<((data: object) => string)[]>}
 */
async function loadTemplates(paths) {
  const entries = Array.isArray(paths) ? paths.map(path => [path, path]) : Object.entries(paths);
  const templates = [];
  for (const [id, path] of entries) {
    const response = await fetch(templateURL(path));
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    const text = await response.text();
    Handlebars.registerPartial(id, text);
    templates.push(Handlebars.compile(text));
  }
  return templates;
}

/**
 * Whether a key has a translation (Localization#has; the shim has no fallback language).
 * @param {string} key
 */
function has(key) {
  return typeof key.split(".").reduce((node, part) => node?.[part], translations) === "string";
}

globalThis.game = { i18n: { lang: "en", localize, format, has } };
globalThis.foundry = { applications: { handlebars: { renderTemplate, loadTemplates } } };
/** @shim-unchecked the page's ready flag for the tests, not Foundry API */
globalThis.shimReady = true;

/* ------------------------------------------------------------------------------------------ */
/*  A world: the Foundry v13 classes the system's entry point and the in-Foundry test batch    */
/*  need, installed on demand by `installWorld()` and started by `startGame()` (the card tests  */
/*  above only need the base).                                                                 */
/*  Each member mirrors its declaration in @league-of-foundry-developers/foundry-vtt-types     */
/*  (path given per class); behaviour follows v13's as documented there and in docs/           */
/*  foundry-api.md. Nothing here is ICON-specific: the system's own classes run on top.        */
/* ------------------------------------------------------------------------------------------ */

/** Plain deep copy (foundry.utils.deepClone; common/utils/helpers.d.mts). */
function deepClone(value) {
  if (Array.isArray(value)) return value.map(deepClone);
  if (value instanceof Set) return new Set([...value].map(deepClone));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepClone(v)]));
  }
  return value;
}

/** foundry.utils.getProperty (common/utils/helpers.d.mts). */
function getProperty(object, key) {
  return String(key).split(".").reduce((node, part) => (node == null ? undefined : node[part]), object);
}

/** foundry.utils.setProperty: returns whether a value changed. */
function setProperty(object, key, value) {
  const parts = String(key).split(".");
  const last = parts.pop();
  let node = object;
  for (const part of parts) {
    if (!node[part] || typeof node[part] !== "object") node[part] = {};
    node = node[part];
  }
  const changed = node[last] !== value;
  node[last] = value;
  return changed;
}

/** foundry.utils.expandObject: dotted keys to nested objects. */
function expandObject(object) {
  const expanded = {};
  for (const [key, value] of Object.entries(object ?? {})) {
    const inner = value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype ? expandObject(value) : value;
    setProperty(expanded, key, inner);
  }
  return expanded;
}

/** foundry.utils.flattenObject: nested objects to dotted keys (`_d`, the depth, as Foundry's). */
function flattenObject(object, _d = 0) {
  return flattenInto(object, "");
}

/** flattenObject's recursion, each key under its parent's prefix. */
function flattenInto(object, prefix) {
  const flat = {};
  for (const [key, value] of Object.entries(object ?? {})) {
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
      Object.assign(flat, flattenInto(value, `${prefix}${key}.`));
    } else flat[`${prefix}${key}`] = value;
  }
  return flat;
}

/**
 * v14's foundry.data.operators.ForcedDeletion (api/v14 namespace foundry.data.operators; the
 * global `_del`): an update's value that deletes its key. Its constructor argument is ignored.
 */
class ForcedDeletion {}

/**
 * foundry.utils.mergeObject: `other` (dotted keys expanded) merged into `original`. v13 deletes a
 * key with `-=key`; v14 with a ForcedDeletion value, and throws on the `-=` key as 14.36x's
 * `_migrateDeletionKey` does ("legacy syntax").
 */
function mergeObject(original, other = {}, { inplace = true, insertKeys = true } = {}) {
  const target = inplace ? original : deepClone(original);
  for (const [key, value] of Object.entries(expandObject(other))) {
    if (key.startsWith("-=") && GENERATION >= 14) {
      throw new Error(`You are specifying a forced deletion key "${key}" using legacy syntax which should be migrated to instead pass {${key.slice(2)}: _del} or {${key.slice(2)}: new ForcedDeletion()}`);
    }
    if (key.startsWith("-=") || (GENERATION >= 14 && value instanceof ForcedDeletion)) {
      delete target[key.startsWith("-=") ? key.slice(2) : key];
      continue;
    }
    if (!insertKeys && !(key in target)) continue;
    const current = target[key];
    if (current && typeof current === "object" && !Array.isArray(current) && value && typeof value === "object" && !Array.isArray(value)) {
      mergeObject(current, value, { inplace: true, insertKeys });
    } else target[key] = deepClone(value);
  }
  return target;
}

/**
 * Copy source keys onto a document or model as Foundry's initialization does, leaving alone the
 * ones a class defines as getters (they read `_source` themselves).
 */
function assignFields(target, data) {
  for (const [key, value] of Object.entries(data)) {
    let proto = target;
    let descriptor;
    while (proto && !descriptor) {
      descriptor = Object.getOwnPropertyDescriptor(proto, key);
      proto = Object.getPrototypeOf(proto);
    }
    if (descriptor?.get && !descriptor.set) continue;
    target[key] = value;
  }
}

/** foundry.utils.logCompatibilityWarning (common/utils/logging.d.mts): how Foundry reports a deprecated API. */
function logCompatibilityWarning(message, { since, until } = {}) {
  const text = `Deprecated since Version ${since}; backwards-compatible support may be removed in Version ${until}: ${message}`;
  // The v14 world runs as Foundry advises for testing a package (CONFIG.compatibility.mode
  // FAILURE): a deprecated API throws, so a test of the system fails where a v14 user would see a
  // warning (and a v16 user an error).
  if (GENERATION >= 14) throw new Error(text);
  console.warn(text);
}

/** foundry.utils.randomID: 16 alphanumerics. */
function randomID(length = 16) {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), b => chars[b % chars.length]).join("");
}

/** foundry.utils.Collection (common/utils/collection.d.mts). */
class Collection extends Map {
  get contents() { return [...this.values()]; }
  find(condition) { return this.contents.find(condition); }
  filter(condition) { return this.contents.filter(condition); }
  map(transformer) { return this.contents.map(transformer); }
  some(condition) { return this.contents.some(condition); }
  getName(name) { return this.find(entry => entry.name === name); }
  [Symbol.iterator]() { return this.values(); }
}

/**
 * A world's collection of one document type (client/documents/abstract/world-collection.d.mts):
 * the members the migration runner reads besides Collection's.
 */
class WorldCollection extends Collection {
  invalidDocumentIds = new Set();
  constructor(documentClass) {
    super();
    this.documentClass = documentClass;
  }
  get documentName() { return this.documentClass.metadata.name; }
  /** v13's: a compendium document's data for this world (no id unless kept, its compendium as its source, no folder). */
  fromCompendium(document, { keepId = false, clearFolder = true, clearOwnership = true, clearSort = true } = {}) {
    const data = document.toObject();
    if (!keepId) delete data._id;
    if (clearFolder) delete data.folder;
    if (clearOwnership) delete data.ownership;
    if (clearSort) delete data.sort;
    data._stats = { ...(data._stats ?? {}), compendiumSource: document.uuid };
    return data;
  }
}

/** Hooks (client/helpers/hooks.d.mts). */
class Hooks {
  static #events = new Map();
  static #ids = 0;
  static on(hook, fn, { once = false } = {}) { return Hooks.#add(hook, fn, once); }
  static once(hook, fn) { return Hooks.#add(hook, fn, true); }
  static #add(hook, fn, once) {
    const id = ++Hooks.#ids;
    if (!Hooks.#events.has(hook)) Hooks.#events.set(hook, []);
    Hooks.#events.get(hook).push({ id, fn, once });
    return id;
  }
  static off(hook, fn) {
    const entries = Hooks.#events.get(hook) ?? [];
    Hooks.#events.set(hook, entries.filter(e => e.id !== fn && e.fn !== fn));
  }
  /** @returns {true} */
  static callAll(hook, ...args) {
    for (const entry of [...(Hooks.#events.get(hook) ?? [])]) {
      if (entry.once) Hooks.off(hook, entry.id);
      Hooks.#run(hook, entry, args);
    }
    return true;
  }
  static call(hook, ...args) {
    for (const entry of [...(Hooks.#events.get(hook) ?? [])]) {
      if (entry.once) Hooks.off(hook, entry.id);
      if (Hooks.#run(hook, entry, args) === false) return false;
    }
    return true;
  }
  /** Foundry logs an error thrown by a hook and carries on. */
  static #run(hook, entry, args) {
    try {
      return entry.fn(...args);
    } catch (error) {
      console.error(`Error thrown in hooked function ${hook}`, error);
      return undefined;
    }
  }
}

/* ---- Data models (common/abstract/data.d.mts, common/data/fields.d.mts) ---- */

/**
 * foundry.data.validation.DataModelValidationError (common/data/validation-failure.d.mts): what
 * v13 throws for data its schema rejects (a field's failure, or the model's joint rule).
 */
class DataModelValidationError extends Error {}

/**
 * A validation error of a document, worded as v13 words it (`Actor [id] validation errors:`).
 * @param {{documentName: string}} cls
 * @param {string | null | undefined} id
 * @param {unknown} error
 */
function documentValidationError(cls, id, error) {
  const message = error instanceof Error ? error.message : String(error);
  return new DataModelValidationError(`${cls.documentName} [${id ?? ""}] validation errors:\n  ${message}`, { cause: error });
}

/**
 * Each field's options (Foundry's DataField#options, kept aside: its declared type is each field
 * class's own Options, which the shim's plain option objects are not).
 * @type {WeakMap<object, Record<string, unknown>>}
 */
const FIELD_OPTIONS = new WeakMap();
/** @param {object} field */
const optionsOf = field => FIELD_OPTIONS.get(field) ?? {};

class DataField {
  constructor(options = {}) {
    FIELD_OPTIONS.set(this, options);
    this.name = undefined;
  }
  get required() { return !!optionsOf(this).required; }
  get nullable() { return !!optionsOf(this).nullable; }
  getInitialValue(data) {
    const initial = optionsOf(this).initial;
    return typeof initial === "function" ? initial(data) : deepClone(initial);
  }
  /**
   * Cast then validate; throws an Error naming the field, as a DataModelValidationError does.
   * @param {unknown} value
   * @param {foundry.data.fields.DataField.CleanOptions & {path?: string}} [options]  Foundry's clean
   *   options; `path` (the shim's) names the field in errors.
   */
  clean(value, { path = "" } = {}) {
    if (value === undefined) value = this.getInitialValue();
    if (value === null) {
      if (this.nullable || optionsOf(this).initial === null) return null;
      value = this.getInitialValue();
    }
    const cast = this._cast(value);
    const failure = this._validateType(cast) ?? this.#validateOption(cast);
    if (failure) throw new DataModelValidationError(`${path}: ${failure}`);
    return cast;
  }
  /** The field's `validate` option, as v13 applies it: false is its `validationError`, a throw its message. */
  #validateOption(value) {
    const { validate, validationError } = optionsOf(this);
    if (typeof validate !== "function") return undefined;
    try {
      return validate.call(this, value, {}) === false ? validationError ?? "is not a valid value" : undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  _cast(value) { return value; }
  _validateType() { return undefined; }
}

class NumberField extends DataField {
  /** An empty input is no number: null (then the field's nullable/initial rule). @param {unknown} value @param {foundry.data.fields.DataField.CleanOptions & {path?: string}} [options] */
  clean(value, options) { return super.clean(value === "" ? null : value, options); }
  _cast(value) { return Number(value); }
  _validateType(value) {
    if (value === null) return this.nullable ? undefined : "may not be null";
    if (!Number.isFinite(value)) return "must be a finite number";
    if (optionsOf(this).integer && !Number.isInteger(value)) return "must be an integer";
    if (optionsOf(this).min !== undefined && value < optionsOf(this).min) return `must be at least ${optionsOf(this).min}`;
    if (optionsOf(this).max !== undefined && value > optionsOf(this).max) return `must be at most ${optionsOf(this).max}`;
    if (optionsOf(this).choices && !optionsOf(this).choices.includes(value)) return `${value} is not a valid choice`;
    return undefined;
  }
}

class StringField extends DataField {
  getInitialValue(data) {
    const value = super.getInitialValue(data);
    return value === undefined ? (optionsOf(this).blank === false ? undefined : "") : value;
  }
  _cast(value) { return String(value); }
  _validateType(value) {
    if (value === "" && optionsOf(this).blank === false) return "may not be a blank string";
    const choices = optionsOf(this).choices;
    const allowed = Array.isArray(choices) ? choices : choices && typeof choices === "object" ? Object.keys(choices) : null;
    if (value !== "" && allowed && !allowed.includes(value)) return `${value} is not a valid choice`;
    return undefined;
  }
}

class HTMLField extends StringField {}

class BooleanField extends DataField {
  getInitialValue(data) { return super.getInitialValue(data) ?? false; }
  _cast(value) { return Boolean(value); }
}

class ObjectField extends DataField {
  getInitialValue(data) { return super.getInitialValue(data) ?? {}; }
}

class ArrayField extends DataField {
  constructor(element, options = {}) {
    super(options);
    this.element = element;
  }
  getInitialValue(data) { return super.getInitialValue(data) ?? []; }
  /** @param {unknown} value @param {foundry.data.fields.DataField.CleanOptions & {path?: string}} [options] */
  clean(value, { path = "" } = {}) {
    const array = value === undefined || value === null ? this.getInitialValue() : Object.values(value);
    const cleaned = array.map((item, i) => this.element.clean(item, { path: `${path}.${i}` }));
    const { validate, validationError } = optionsOf(this);
    if (typeof validate === "function" && validate.call(this, cleaned, {}) === false) {
      throw new DataModelValidationError(`${path}: ${validationError ?? "is not a valid value"}`);
    }
    return cleaned;
  }
}

class SchemaField extends DataField {
  constructor(fields, options = {}) {
    super(options);
    this.fields = fields;
    for (const [name, field] of Object.entries(fields)) field.name = name;
  }
  getInitialValue() {
    return Object.fromEntries(Object.entries(this.fields).map(([name, field]) =>
      [name, field instanceof SchemaField ? field.getInitialValue() : field.getInitialValue()]));
  }
  /** @param {unknown} value @param {foundry.data.fields.DataField.CleanOptions & {path?: string}} [options] */
  clean(value, { path = "" } = {}) {
    const data = value && typeof value === "object" ? value : {};
    return Object.fromEntries(Object.entries(this.fields).map(([name, field]) =>
      [name, field.clean(data[name], { path: path ? `${path}.${name}` : name })]));
  }
}

/** Each DataModel class's schema. @type {WeakMap<Function, SchemaField>} */
const SCHEMAS = new WeakMap();

/** foundry.abstract.DataModel: source cleaned against the schema, fields copied onto the instance. */
class DataModel {
  constructor(data = {}, { parent = null } = {}) {
    Object.defineProperty(this, "parent", { value: parent, writable: true });
    Object.defineProperty(this, "_source", { value: this.constructor.cleanData(data), writable: true });
    this._initialize();
  }
  static defineSchema() { return {}; }
  static get schema() {
    // One schema per model class, built on first use.
    let schema = SCHEMAS.get(this);
    if (!schema) SCHEMAS.set(this, schema = new SchemaField(this.defineSchema()));
    return schema;
  }
  get schema() { return this.constructor.schema; }
  /** v13's: stored data of an older shape, as it reads today (called on every read, before cleaning). */
  static migrateData(source) { return source; }
  static cleanData(source = {}) {
    const cleaned = this.schema.clean(this.migrateData(deepClone(source ?? {})));
    try {
      this.validateJoint(cleaned);
    } catch (error) {
      // v13 reports a joint rule's error as the model's validation failure.
      throw error instanceof DataModelValidationError ? error : new DataModelValidationError(error instanceof Error ? error.message : String(error), { cause: error });
    }
    return cleaned;
  }
  static validateJoint() {}
  _initialize() {
    assignFields(this, deepClone(this._source));
  }
  reset() { this._initialize(); }
  toObject() { return deepClone(this._source); }

}

/** foundry.abstract.TypeDataModel: the `system` of a typed document. */
class TypeDataModel extends DataModel {
  prepareBaseData() {}
  prepareDerivedData() {}
  async _preCreate() {}
  async _preUpdate() {}
  _onUpdate() {}
}

/* ---- Documents (client/documents/*.d.mts) ---- */

const OWNERSHIP = Object.freeze({ INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 });
/** `CONST.DEFAULT_TOKEN` (common/constants.d.mts): actors' and tokens' default image. */
const DEFAULT_TOKEN = "icons/svg/mystery-man.svg";

/**
 * What every client document here shares: a source, `_id`, typed `system`, flags, ownership,
 * embedded collections, the create/update/delete workflows with their hooks, and the sheet.
 */
class ClientDocument {
  /** `Document.metadata` (common/abstract/document.d.mts): name, world collection, embedded collections by document name. */
  static metadata = Object.freeze(/** @type {const} */ ({ name: "Document", collection: null, embedded: {} }));
  static get documentName() { return this.metadata.name; }

  /**
   * @param {object} [data]  The source.
   * @param {{parent?: object | null}} [context]  The parent document of an embedded one.
   */
  constructor(data = {}, { parent = null, pack = null } = {}) {
    /** @shim-unchecked Foundry types the parent per document class (an Actor's TokenDocument, an Item's Actor); the shim's one base keeps the parent its collection gave */
    this.parent = parent;
    // Document#pack: the compendium a document is in (an embedded one is in its parent's).
    this.pack = parent?.pack ?? pack;
    this.apps = {};
    try {
      this._source = this.constructor.cleanData(data);
    } catch (error) {
      throw documentValidationError(this.constructor, data?._id, error);
    }
    this._initialize();
  }

  static get implementation() { return CONFIG[this.documentName]?.documentClass ?? this; }
  static get collectionName() { return this.metadata.collection; }

  /** Document.getCollectionName: the field holding embedded documents of that name. */
  static getCollectionName(documentName) { return this.metadata.embedded[documentName]; }

  static cleanData(data) {
    const source = { _id: data._id ?? randomID(), name: data.name ?? "", ...deepClone(data) };
    source.flags ??= {};
    source.ownership ??= { default: OWNERSHIP.NONE };
    for (const name of Object.values(this.metadata.embedded)) source[name] = (source[name] ?? []).map(e => ({ ...e, _id: e._id ?? randomID() }));
    const model = CONFIG[this.documentName]?.dataModels?.[source.type];
    if (model) {
      try {
        source.system = model.cleanData(source.system ?? {});
      } catch (error) {
        // named from the document, as v13's failure is
        throw new DataModelValidationError(`system.${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    return source;
  }

  _initialize() {
    const { system, ...rest } = deepClone(this._source);
    for (const name of Object.values(this.constructor.metadata.embedded)) delete rest[name];
    assignFields(this, rest);
    const model = CONFIG[this.constructor.documentName]?.dataModels?.[this._source.type];
    this.system = model ? new model(this._source.system, { parent: this }) : system;
    for (const [documentName, name] of Object.entries(this.constructor.metadata.embedded)) {
      const cls = CONFIG[documentName].documentClass;
      const before = this[name];
      this[name] = new Collection((this._source[name] ?? []).map(data => [data._id, new cls(data, { parent: this })]));
      // Embedded documents are built anew here (Foundry updates them in place): their open sheets go on with the new ones.
      for (const doc of this[name].values()) {
        const old = before?.get?.(doc.id);
        if (old && old !== doc) Object.assign(doc, { apps: old.apps, _sheet: old._sheet });
      }
    }
    this.prepareData();
  }

  get id() { return this._source._id; }
  get documentName() { return this.constructor.documentName; }
  get uuid() {
    if (this.parent) return `${this.parent.uuid}.${this.documentName}.${this.id}`;
    return this.pack ? `Compendium.${this.pack}.${this.documentName}.${this.id}` : `${this.documentName}.${this.id}`;
  }
  get collection() { return this.parent ? this.parent[this.constructor.collectionName] : game[this.constructor.collectionName]; }

  prepareData() {
    this.prepareBaseData();
    for (const name of Object.values(this.constructor.metadata.embedded)) for (const doc of this[name]) doc.prepareData?.();
    this.prepareDerivedData();
  }
  prepareBaseData() { this.system?.prepareBaseData?.(); }
  prepareDerivedData() { this.system?.prepareDerivedData?.(); }
  reset() { this._initialize(); }
  toObject() { return deepClone(this._source); }
  toJSON() { return this.toObject(); }

  /** DataModel#updateSource: changes merged into the source (cleaned, validated), then initialized again. */
  updateSource(changes = {}) {
    let source;
    try {
      source = this.constructor.cleanData(mergeObject(this.toObject(), expandObject(changes), { inplace: false }));
    } catch (error) {
      throw documentValidationError(this.constructor, this.id, error);
    }
    this._source = source;
    this._initialize();
    return changes;
  }

  /**
   * DataModel#validate: the source with `changes` merged in, against the schema and the joint
   * rules; throws a DataModelValidationError (unless `strict` is false: then false).
   * @param {{changes?: object, clean?: boolean, fallback?: boolean, strict?: boolean}} [options]
   */
  validate({ changes, strict = true } = {}) {
    const data = changes ? mergeObject(this.toObject(), expandObject(changes), { inplace: false }) : this.toObject();
    try {
      this.constructor.cleanData(data);
    } catch (error) {
      if (strict) throw documentValidationError(this.constructor, this.id, error);
      return false;
    }
    return true;
  }

  /* Permissions (client/documents/abstract/client-document.d.mts) */
  getUserLevel(user = game.user) {
    if (user?.isGM) return OWNERSHIP.OWNER;
    if (this.parent?.getUserLevel) return this.parent.getUserLevel(user);
    // A compendium's documents are seen as the pack's ownership by role allows.
    if (this.pack) return game.packs.get(this.pack)?.getUserLevel(user) ?? OWNERSHIP.NONE;
    return this._source.ownership?.[user?.id] ?? this._source.ownership?.default ?? OWNERSHIP.NONE;
  }
  testUserPermission(user, permission, { exact = false } = {}) {
    const level = typeof permission === "string" ? OWNERSHIP[permission] : permission;
    const have = this.getUserLevel(user);
    return exact ? have === level : have >= level;
  }
  get isOwner() { return this.testUserPermission(game.user, "OWNER"); }
  get limited() { return !this.isOwner && this.getUserLevel(game.user) === OWNERSHIP.LIMITED; }

  /* Flags */
  getFlag(scope, key) { return getProperty(this.flags?.[scope], key); }
  setFlag(scope, key, value) { return this.update({ [`flags.${scope}.${key}`]: value }); }
  unsetFlag(scope, key) {
    const parts = key.split(".");
    const last = parts.pop();
    const path = `flags.${scope}${parts.length ? `.${parts.join(".")}` : ""}`;
    return this.update(GENERATION >= 14 ? { [`${path}.${last}`]: new ForcedDeletion() } : { [`${path}.-=${last}`]: null });
  }

  /* Sheets */
  get sheet() {
    if (!this._sheet) {
      const classes = Object.values(CONFIG[this.documentName].sheetClasses?.[this.type ?? "base"] ?? {});
      const entry = classes.find(c => c.default) ?? classes[0];
      if (entry) this._sheet = new entry.cls({ document: this });
    }
    return this._sheet ?? null;
  }
  render(force, options) {
    for (const app of Object.values(this.apps)) app.render(force, options);
  }

  /* Drag and drop (ClientDocument#toDragData, Document.fromDropData) */
  /**
   * @shim-unchecked v13's is `{type: documentName, uuid}`; foundry-vtt-types 13.345's DropData leaves `type` out
   */
  toDragData() { return { type: this.documentName, uuid: this.uuid }; }
  /**
   * @shim-unchecked Foundry types the document it resolves per document class; the shim's one base resolves the UUID for all
   */
  static async fromDropData(data) { return data?.uuid ? fromUuid(data.uuid) : null; }

  /* Content links (ClientDocument#toAnchor, #_onClickDocumentLink) */
  toAnchor({ name, classes = [], dataset = {} } = {}) {
    const anchor = document.createElement("a");
    anchor.classList.add("content-link", ...classes);
    anchor.draggable = true;
    Object.assign(anchor.dataset, { link: "", uuid: this.uuid, id: this.id, type: this.documentName, ...(this.pack ? { pack: this.pack } : {}) }, dataset);
    const icon = document.createElement("i");
    icon.className = CONFIG[this.documentName]?.sidebarIcon ?? "fa-solid fa-file";
    anchor.append(icon, name ?? this.name);
    return anchor;
  }
  _onClickDocumentLink() { return this.sheet?.render({ force: true }); }

  /* The CRUD workflows (server side: one client here, so the user asking is the one applying). */
  /** An array of data creates many (and resolves to them), as v13's does. */
  static async create(data, operation = {}) {
    if (Array.isArray(data)) return this.createDocuments(data, operation);
    const created = await this.createDocuments([data], operation);
    return created[0];
  }

  static async createDocuments(data = [], { parent = null, keepId = false, pack = null, ...options } = {}) {
    const user = game.user;
    const cls = this.implementation;
    const created = [];
    // A compendium's documents are written to the pack (Document.createDocuments `pack`).
    const compendium = pack ? game.packs.get(pack) : null;
    if (pack && !compendium) throw new Error(`There is no compendium pack "${pack}"`);
    for (const entry of data) {
      const source = deepClone(entry);
      if (!keepId) delete source._id;
      if (compendium?.has(source._id)) throw new Error(`The ${this.documentName} [${source._id}] already exists in ${pack}`);
      const doc = new cls(source, { parent, pack });
      if ((await doc._preCreate(source, options, user)) === false) continue;
      if (Hooks.call(`preCreate${this.documentName}`, doc, doc._source, options, user.id) === false) continue;
      if (parent) {
        const field = parent.constructor.getCollectionName(this.documentName);
        parent._source[field].push(doc.toObject());
        parent.reset();
        created.push(parent[field].get(doc.id));
      } else {
        (compendium ?? game[this.collectionName]).set(doc.id, doc);
        created.push(doc);
      }
    }
    for (const doc of created) {
      doc._onCreate(doc._source, options, user.id);
      Hooks.callAll(`create${this.documentName}`, doc, options, user.id);
    }
    if (parent && created.length) {
      parent._onCreateDescendantDocuments(parent, parent.constructor.getCollectionName(this.documentName), created,
        created.map(doc => doc.toObject()), options, user.id);
    }
    parent?.render(false);
    return created;
  }

  /** Document.updateDocuments: each `{_id, ...changes}` applied to the world's (or the parent's) document. */
  /** Document.deleteDocuments (common/abstract/document.d.mts): world documents by id, or a parent's embedded ones. */
  static async deleteDocuments(ids = [], { parent = null, pack = null, ...options } = {}) {
    const collection = parent ? parent[parent.constructor.getCollectionName(this.documentName)] : pack ? game.packs.get(pack) : game[this.collectionName];
    const deleted = [];
    for (const id of ids) {
      const doc = collection.get(id);
      if (doc) deleted.push(await doc.delete(options));
    }
    return deleted;
  }
  static async updateDocuments(updates = [], { parent = null, ...options } = {}) {
    const collection = parent ? parent[parent.constructor.getCollectionName(this.documentName)] : game[this.collectionName];
    const updated = [];
    for (const { _id, ...changes } of updates) {
      const doc = collection?.get(_id);
      if (doc) updated.push(await doc.update(changes, options));
    }
    return updated;
  }

  async update(data = {}, options = {}) {
    const user = game.user;
    const changes = expandObject(data);
    if ((await this._preUpdate(changes, options, user)) === false) return undefined;
    if (Hooks.call(`preUpdate${this.documentName}`, this, changes, options, user.id) === false) return undefined;
    const merged = mergeObject(this.toObject(), changes, { inplace: false });
    // Validation throws before anything is stored, as the server's does.
    let source;
    try {
      source = this.constructor.cleanData(merged);
    } catch (error) {
      throw documentValidationError(this.constructor, this.id, error);
    }
    if (this.parent) {
      const field = this.parent.constructor.getCollectionName(this.documentName);
      const list = this.parent._source[field];
      list[list.findIndex(e => e._id === this.id)] = source;
      this.parent.reset();
      const fresh = this.parent[field].get(this.id);
      fresh._onUpdate(changes, options, user.id);
      Hooks.callAll(`update${this.documentName}`, fresh, changes, options, user.id);
      this.parent._onUpdateDescendantDocuments(this.parent, field, [fresh], [{ _id: this.id, ...changes }], options, user.id);
      this.parent.render(false);
      return fresh;
    }
    this._source = source;
    this._initialize();
    this._onUpdate(changes, options, user.id);
    Hooks.callAll(`update${this.documentName}`, this, changes, options, user.id);
    return this;
  }

  async delete(options = {}) {
    const user = game.user;
    if (Hooks.call(`preDelete${this.documentName}`, this, options, user.id) === false) return undefined;
    if (this.parent) {
      const field = this.parent.constructor.getCollectionName(this.documentName);
      this.parent._source[field] = this.parent._source[field].filter(e => e._id !== this.id);
      this.parent.reset();
    } else (this.pack ? game.packs.get(this.pack) : game[this.constructor.collectionName]).delete(this.id);
    await this._sheet?.close();
    this._onDelete(options, user.id);
    Hooks.callAll(`delete${this.documentName}`, this, options, user.id);
    if (this.parent) {
      this.parent._onDeleteDescendantDocuments(this.parent, this.parent.constructor.getCollectionName(this.documentName), [this], [this.id],
        options, user.id);
    }
    this.parent?.render(false);
    return this;
  }

  async _preCreate(data, options, user) { return this.system?._preCreate ? this.system._preCreate(data, options, user) : undefined; }
  async _preUpdate(changes, options, user) {
    if (changes.system && this.system instanceof TypeDataModel) return this.system._preUpdate(changes, options, user);
    return undefined;
  }
  _onCreate() {}
  _onUpdate() { this.render(false); }
  _onDelete() {}
  /** After embedded documents of this one (or deeper) were created, updated or deleted: (parent, collection, documents, data|changes|ids, options, userId). */
  _onCreateDescendantDocuments() {}
  _onUpdateDescendantDocuments() {}
  _onDeleteDescendantDocuments() {}

  async createEmbeddedDocuments(embeddedName, data, options = {}) {
    return CONFIG[embeddedName].documentClass.createDocuments(data, { ...options, parent: this });
  }
  async deleteEmbeddedDocuments(embeddedName, ids, options = {}) {
    const field = this.constructor.getCollectionName(embeddedName);
    const deleted = [];
    for (const id of ids) {
      const doc = this[field].get(id);
      if (doc) deleted.push(await doc.delete(options));
    }
    return deleted;
  }
  async updateEmbeddedDocuments(embeddedName, updates) {
    const field = this.constructor.getCollectionName(embeddedName);
    return Promise.all(updates.map(({ _id, ...changes }) => this[field].get(_id)?.update(changes)));
  }
}

/**
 * A document class with its `Document.metadata`: `documentName` and `collectionName` are read from
 * it, typed as the literal names (common/abstract/document.d.mts).
 * @template {{name: string, collection: string, embedded: Readonly<Record<string, string>>}} M
 * @param {M} metadata
 */
function documentClass(metadata) {
  return class extends ClientDocument {
    static metadata = metadata;
    /** @returns {M["name"]} */
    static get documentName() { return metadata.name; }
    /** @returns {M["collection"]} */
    static get collectionName() { return metadata.collection; }
  };
}

/** ActiveEffect (client/documents/active-effect.d.mts). */
class ActiveEffect extends documentClass(Object.freeze(/** @type {const} */ ({ name: "ActiveEffect", collection: "effects", embedded: {} }))) {
  /** The statuses the effect applies (Foundry keeps them as a Set on the document). */
  get statuses() { return new Set(/** @type {string[]} */ (this._source.statuses ?? [])); }
  get disabled() { return !!this._source.disabled; }
  get active() { return !this.disabled; }
  /**
   * The duration in the generation's shape, other keys dropped as the schema drops them: v13's
   * `{startTime, seconds, combat, rounds, turns, startRound, startTurn}`, v14's `{value, units,
   * expiry, expired}` (API v14 `EffectDurationData`; `expiry` "turnStart" when `value` is a number
   * and none is given; any event id, core's or a package's).
   */
  static cleanData(data) {
    const source = super.cleanData(data);
    const given = source.duration ?? {};
    if (GENERATION >= 14) {
      const value = Number.isInteger(given.value) && given.value >= 0 ? given.value : null;
      const expiry = typeof given.expiry === "string" && given.expiry ? given.expiry : given.expiry === undefined && value !== null ? "turnStart" : null;
      const units = ["years", "months", "days", "hours", "minutes", "seconds", "rounds", "turns"].includes(given.units) ? given.units : "seconds";
      source.duration = { value, units, expiry, expired: given.expired === true };
    } else {
      source.duration = Object.fromEntries(["startTime", "seconds", "combat", "rounds", "turns", "startRound", "startTurn"]
        .filter(key => given[key] !== undefined).map(key => [key, given[key]]));
    }
    return source;
  }
  /**
   * v14's `ActiveEffect#isExpiryEvent(event, context)` (client/documents/active-effect.mjs), the part
   * that does not need a combatant: `updateWorldTime` satisfies a null expiry, and a core in-combat
   * one out of combat; another event must be the expiry; a package's own event is then reached.
   * Core's own combat events are not modelled (the system writes none): they answer false.
   * @shim-unchecked v14 only (API v14 ActiveEffect#isExpiryEvent); foundry-vtt-types 13 has no such member
   */
  isExpiryEvent(event, _context = {}) {
    if (GENERATION < 14) throw new Error("ActiveEffect#isExpiryEvent is v14's");
    const core = ["combatStart", "roundStart", "turnStart", "combatEnd", "roundEnd", "turnEnd"];
    const expiry = this._source.duration?.expiry ?? null;
    if (event === "updateWorldTime") return !expiry || (!this.parent?.inCombat && core.includes(expiry) && expiry !== "combatStart");
    if (event !== expiry) return false;
    return !core.includes(expiry);
  }
  /** v13's: the document it modifies: its actor; an item's own, or its actor's if it transfers. */
  get target() {
    if (this.parent instanceof Actor) return this.parent;
    return this._source.transfer ? (this.parent?.parent ?? null) : this.parent;
  }
  static async fromStatusEffect(statusId, options = {}) {
    const status = CONFIG.statusEffects.find(e => e.id === statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to ActiveEffect#fromStatusEffect`);
    const { id, hud: _hud, ...effectData } = deepClone(status);
    effectData.name = game.i18n.localize(effectData.name);
    effectData.statuses = [...new Set([id, ...(effectData.statuses ?? [])])];
    return this._fromStatusEffect(statusId, effectData, options);
  }
  static async _fromStatusEffect(statusId, effectData, options) {
    return new this(effectData, options);
  }
}

/** Item (client/documents/item.d.mts). */
class Item extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Item", collection: "items", embedded: { ActiveEffect: "effects" } }))) {
  /** BaseItem.DEFAULT_ICON (common/documents/item.d.mts). */
  static DEFAULT_ICON = "icons/svg/item-bag.svg";
  /** BaseItem.getDefaultArtwork: the `img` field's initial value. */
  static getDefaultArtwork(itemData = {}) { return { img: this.DEFAULT_ICON }; }
  static cleanData(data) {
    const source = super.cleanData(data);
    source.sort ??= 0;
    source.img ??= this.getDefaultArtwork(source).img;
    return source;
  }
  get actor() { return this.parent instanceof Actor ? this.parent : null; }
  get isEmbedded() { return !!this.parent; }
  async deleteDialog(options = {}) {
    const yes = await foundry.applications.api.DialogV2.confirm({ window: { title: this.name }, content: `<p>${this.name}</p>`, ...options });
    return yes ? this.delete() : undefined;
  }
}

/** Actor (client/documents/actor.d.mts). */
class Actor extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Actor", collection: "actors", embedded: { ActiveEffect: "effects", Item: "items" } }))) {
  /** BaseActor.DEFAULT_ICON (common/documents/actor.d.mts): `CONST.DEFAULT_TOKEN`. */
  static DEFAULT_ICON = DEFAULT_TOKEN;
  /** BaseActor.getDefaultArtwork: the `img` field's initial value, and its prototype token's texture. */
  static getDefaultArtwork(actorData = {}) { return { img: this.DEFAULT_ICON, texture: { src: this.DEFAULT_ICON } }; }
  static cleanData(data) {
    const source = super.cleanData(data);
    source.img ??= this.getDefaultArtwork(source).img;
    return source;
  }
  /** The statuses of the actor's applied effects. */
  get statuses() { return new Set(this.appliedEffects.flatMap(effect => [...effect.statuses])); }
  get appliedEffects() { return this.effects.filter(effect => effect.active); }
  /** A synthetic actor's parent is its token. */
  get isToken() { return this.parent instanceof TokenDocument; }
  get token() { return this.parent instanceof TokenDocument ? this.parent : null; }
  get hasPlayerOwner() { return game.users.some(u => !u.isGM && this.testUserPermission(u, "OWNER")); }
  /** A synthetic actor's changes go to its token's delta, which makes the actor anew. */
  async update(data = {}, options = {}) {
    if (!this.isToken) return super.update(data, options);
    const token = /** @type {TokenDocument} */ (this.parent);
    const changes = expandObject(data);
    if ((await this._preUpdate(changes, options, game.user)) === false) return undefined;
    await token.update({ delta: mergeObject(token._source.delta ?? {}, changes, { inplace: false }) });
    const fresh = token.actor;
    if (!fresh) return undefined;
    fresh._onUpdate(changes, options, game.user.id);
    Hooks.callAll(`update${this.documentName}`, fresh, changes, options, game.user.id);
    return fresh;
  }
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    const existing = this.effects.filter(effect => effect.statuses.size === 1 && effect.statuses.has(statusId));
    const on = active ?? !existing.length;
    if (!on && existing.length) {
      await this.deleteEmbeddedDocuments("ActiveEffect", existing.map(e => e.id));
      return false;
    }
    if (on && !existing.length) {
      const effect = await ActiveEffect.implementation.fromStatusEffect(statusId);
      if (overlay) effect._source.flags = { core: { overlay: true } };
      return (await this.createEmbeddedDocuments("ActiveEffect", [effect.toObject()], { keepId: true }))[0];
    }
    return on ? undefined : false;
  }
  getRollData() { return { ...this.system }; }
  /**
   * The tokens of this actor on the viewed scene (its own token for a synthetic actor): placeables, or their documents.
   * @shim-unchecked Foundry types the return by its `document` argument (a conditional type)
   */
  getActiveTokens(linked = false, document = false) {
    if (!canvas.ready || !canvas.scene) return [];
    const tokens = canvas.scene.tokens.filter(t => (this.isToken ? t === this.token : t.actorId === this.id && (!linked || t.actorLink)));
    return document ? tokens : tokens.map(t => t.object).filter(Boolean);
  }
}

/** User (client/documents/user.d.mts). */
class User extends documentClass(Object.freeze(/** @type {const} */ ({ name: "User", collection: "users", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.hotbar ??= {};
    return source;
  }
  _initialize() {
    super._initialize();
    this.targets ??= new UserTargets(this);
  }
  /** v13's: a macro in a hotbar slot (1 to 50; the first free one when none is given), or `null` to clear it. */
  async assignHotbarMacro(macro, slot, { fromSlot } = {}) {
    if (slot === undefined) slot = Array.from({ length: 50 }, (_, i) => i + 1).find(n => !this._source.hotbar[n]);
    slot = Number(slot);
    if (!Number.isInteger(slot) || slot < 1 || slot > 50) throw new Error("Invalid Hotbar slot requested");
    // Core's own deletion, per generation (v14: the ForcedDeletion operator).
    const clear = n => (GENERATION >= 14 ? [`hotbar.${n}`, new ForcedDeletion()] : [`hotbar.-=${n}`, null]);
    const changes = Object.fromEntries([macro ? [`hotbar.${slot}`, macro.id] : clear(slot)]);
    if (fromSlot !== undefined && Number(fromSlot) !== slot) changes[clear(fromSlot)[0]] = clear(fromSlot)[1];
    await this.update(changes);
    ui.hotbar?.render();
    return this;
  }

  /**
   * v13's: the user's activity (cursor, targets, ...) sent to the other connected clients. No one
   * else is connected here: what was sent is kept in {@link broadcasts} for the tests.
   */
  broadcastActivity(activityData = {}, { volatile = false } = {}) {
    if (!this.isSelf) return;
    broadcasts.push({ user: this.id, ...deepClone(activityData), volatile });
  }

  get isGM() { return this._source.role >= 4; }
  get isSelf() { return game.userId === this.id; }
  get active() { return this._source.active ?? true; }
  get isActiveGM() { return this === game.users.activeGM; }
  get character() { return null; }
}

/**
 * The activity the user broadcast (User#broadcastActivity), oldest first. Test plumbing (an
 * export): the other clients Foundry's server would relay it to.
 * @type {object[]}
 */
export const broadcasts = [];

/** ChatMessage (client/documents/chat-message.d.mts). */
class ChatMessage extends documentClass(Object.freeze(/** @type {const} */ ({ name: "ChatMessage", collection: "messages", embedded: {} }))) {
  _initialize() {
    super._initialize();
    this.rolls = (this._source.rolls ?? []).map(data => foundry.dice.Roll.fromData(typeof data === "string" ? JSON.parse(data) : data));
  }
  static cleanData(data) {
    const source = super.cleanData(data);
    source.author ??= game.user.id;
    source.whisper ??= [];
    source.blind ??= false;
    source.timestamp ??= Date.now();
    source.content ??= "";
    // As v13 stores them: each roll serialized to a JSON string.
    source.rolls = (data.rolls ?? []).map(roll => (typeof roll === "string" ? roll : JSON.stringify(roll)));
    return source;
  }
  get author() { return game.users.get(this._source.author) ?? null; }
  get isAuthor() { return game.user.id === this._source.author; }
  get isRoll() { return this.rolls.length > 0; }
  get visible() { return !this.whisper.length || this.isAuthor || this.whisper.includes(game.user.id) || game.user.isGM; }
  get isContentVisible() {
    if (!this.visible) return false;
    if (!this.whisper.length) return true;
    return this.whisper.includes(game.user.id) || (this.isAuthor && !this.blind);
  }
  get alias() { return this.speaker?.alias ?? this.author?.name ?? ""; }
  get speakerActor() { return this.constructor.getSpeakerActor(this.speaker); }
  static getSpeakerActor(speaker) {
    const token = speaker?.scene && speaker.token ? game.scenes.get(speaker.scene)?.tokens.get(speaker.token) : null;
    return /** @type {Actor | null} */ (token?.actor ?? (speaker ? game.actors.get(speaker.actor) : null) ?? null);
  }
  getRollData() { return this.speakerActor?.getRollData() ?? {}; }
  static getSpeaker({ actor, token, alias } = {}) {
    return { scene: null, actor: actor?.id ?? null, token: token?.id ?? null, alias: alias ?? actor?.name ?? game.user.name };
  }
  static getWhisperRecipients(name) {
    return name === "GM" ? game.users.filter(u => u.isGM) : game.users.filter(u => u.name === name);
  }
  /**
   * v14's (chat-message.mjs `applyMode`): who sees a message of a message mode (public, gm,
   * blind, self, ic); "roll" is the user's own `core.messageMode`.
   */
  static applyMode(chatData, messageMode) {
    const mode = messageMode === "roll" ? game.settings.get("core", "messageMode") : messageMode;
    if (!(mode in CONFIG.ChatMessage.modes)) throw new Error(`"${mode}" is not a valid message mode`);
    const gms = game.users.filter(u => u.isGM).map(u => u.id);
    if (mode === "gm" || mode === "blind") chatData.whisper = chatData.whisper?.length ? chatData.whisper : gms;
    else if (mode === "self") chatData.whisper = [game.user.id];
    else chatData.whisper = [];
    chatData.blind = mode === "blind";
    return chatData;
  }
  applyMode(messageMode) {
    const { whisper, blind } = this.constructor.applyMode({ whisper: [...this._source.whisper] }, messageMode);
    this.updateSource({ whisper, blind });
  }
  static applyRollMode(chatData, rollMode) {
    if (GENERATION >= 14) logCompatibilityWarning("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode", { since: 14, until: 16 });
    const mode = rollMode === "roll" ? game.settings.get("core", "rollMode") : rollMode;
    const gms = game.users.filter(u => u.isGM).map(u => u.id);
    if (mode === "gmroll" || mode === "blindroll") chatData.whisper = chatData.whisper?.length ? chatData.whisper : gms;
    else if (mode === "selfroll") chatData.whisper = [game.user.id];
    else chatData.whisper = [];
    chatData.blind = mode === "blindroll";
    return chatData;
  }
  applyRollMode(rollMode) {
    const { whisper, blind } = this.constructor.applyRollMode({ whisper: [...this._source.whisper] }, rollMode);
    this.updateSource({ whisper, blind });
  }
  /**
   * v13's: the content's immediate inline rolls (`[[1d20]]`) are evaluated into it; a roll
   * message gets the dice sound and, unless it was created whispered without a mode, the mode
   * asked for in the options (`rollMode`) or else the user's (`core.rollMode`).
   */
  async _preCreate(data, options, user) {
    if ((await super._preCreate(data, options, user)) === false) return false;
    if (typeof data.content === "string" && /\[\[[^/]/.test(data.content)) {
      let content = data.content;
      for (const [expression] of data.content.matchAll(/\[\[[^/].*?\]{2,3}/g)) {
        content = content.replace(expression, await TextEditor.implementation.enrichHTML(expression,
          { documents: false, secrets: false, links: false, rolls: true, custom: false, rollData: this.getRollData() }));
      }
      this.updateSource({ content });
    }
    if (this.isRoll) {
      if (!("sound" in data)) this.updateSource({ sound: CONFIG.sounds.dice });
      if (GENERATION >= 14) {
        if (options.rollMode) logCompatibilityWarning("The rollMode option of ChatMessage creation is deprecated in favor of messageMode", { since: 14, until: 16 });
        if (options.messageMode || !(data.whisper?.length > 0)) this.applyMode(options.messageMode || "roll");
      } else if (options.rollMode || !(data.whisper?.length > 0)) this.applyRollMode(options.rollMode || "roll");
    }
    return undefined;
  }
  /**
   * The message as the chat log shows it, then `renderChatMessageHTML`. As v13's: the content is
   * enriched (TextEditor.enrichHTML with the speaker's roll data); a roll message whose content has
   * no element shows its rolls instead, and to whom the content is hidden, the rolls rendered
   * privately under "rolled privately".
   */
  async renderHTML({ canDelete, canClose = false, ...rest } = {}) {
    canDelete ??= game.user.isGM;
    const speakerActor = this.speakerActor;
    const data = this.toObject();
    data.content = await TextEditor.implementation.enrichHTML(this.content, { rollData: this.getRollData(), secrets: speakerActor?.isOwner ?? game.user.isGM });
    // v13 also passes canClose and speakerActor, which the declared MessageData lacks.
    const context = { ...rest, canDelete, message: data, user: /** @type {NonNullable<typeof game.user>} */ (game.user), author: this.author,
      alias: this.alias, cssClass: this.whisper.length ? "whisper" : "", isWhisper: this.whisper.length,
      whisperTo: this.whisper.map(id => game.users.get(id)?.name).filter(Boolean).join(", ") };
    if (this.isRoll) {
      if (this.blind || this.whisper.length) context.isWhisper = 0;
      if (this.isContentVisible) {
        const probe = document.createElement("div");
        probe.innerHTML = data.content;
        if (!probe.childElementCount) data.content = (await Promise.all(this.rolls.map(roll => roll.render({ isPrivate: false, message: this })))).join("");
      } else {
        const name = this.author?.name ?? game.i18n.localize("CHAT.UnknownUser");
        data.flavor = game.i18n.format("CHAT.PrivateRollContent", { user: name });
        data.content = (await Promise.all(this.rolls.map(roll => roll.render({ isPrivate: true, message: this })))).join("");
        context.alias = name;
      }
    }
    const li = document.createElement("li");
    li.classList.add("chat-message", "message", "flexcol", ...context.cssClass.split(" ").filter(Boolean));
    li.dataset.messageId = this.id;
    // v13's header (templates/sidebar/chat-message.hbs): sender, metadata (time, delete), whisper, flavor.
    const header = document.createElement("header");
    header.classList.add("message-header", "flexrow");
    const sender = document.createElement("h4");
    sender.classList.add("message-sender");
    sender.textContent = context.alias;
    const metadata = document.createElement("span");
    metadata.classList.add("message-metadata");
    const time = document.createElement("time");
    time.classList.add("message-timestamp");
    time.textContent = game.i18n.localize("TIME.Now");
    metadata.append(time);
    if (canDelete) {
      const remove = document.createElement("a");
      remove.classList.add("message-delete");
      remove.dataset.action = "deleteMessage";
      remove.setAttribute("aria-label", game.i18n.localize("Delete"));
      remove.innerHTML = '<i class="fa-solid fa-trash" inert></i>';
      metadata.append(remove);
    }
    header.append(sender, metadata);
    if (context.isWhisper) {
      const to = document.createElement("span");
      to.classList.add("whisper-to");
      to.textContent = `${game.i18n.localize("CHAT.To")}: ${context.whisperTo}`;
      header.append(to);
    }
    if (data.flavor) {
      const flavor = document.createElement("span");
      flavor.classList.add("flavor-text");
      flavor.innerHTML = data.flavor;
      header.append(flavor);
    }
    const body = document.createElement("div");
    body.classList.add("message-content");
    body.innerHTML = data.content;
    li.append(header, body);
    Hooks.callAll("renderChatMessageHTML", this, li, context);
    return li;
  }
  _onCreate(data, options, userId) {
    super._onCreate(data, options, userId);
    ui.chat?.postOne(this);
  }
  _onUpdate(changes, options, userId) {
    super._onUpdate(changes, options, userId);
    ui.chat?.updateMessage(this);
  }
  _onDelete(options, userId) {
    super._onDelete(options, userId);
    ui.chat?.deleteMessage(this.id);
  }
}

/**
 * Combat (client/documents/combat.d.mts): the v13 members the system's Combat uses or overrides,
 * core's initiative workflow (rollInitiative/rollAll/rollNPC, rolling each combatant's formula,
 * posting the rolls and writing `initiative`) and its turn order sorted by initiative.
 */
class Combat extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Combat", collection: "combats", embedded: { Combatant: "combatants" } }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.round ??= 0;
    source.turn ??= null;
    source.active ??= false;
    source.scene ??= null;
    return source;
  }
  prepareDerivedData() {
    super.prepareDerivedData();
    this.setupTurns();
  }
  get started() { return this.round > 0; }
  get isActive() { return this.active; }
  get scene() { return game.scenes.get(this._source.scene) ?? null; }
  get combatant() { return this.turn === null || this.turn === undefined ? null : this.turns[this.turn] ?? null; }
  get current() { return { round: this.round, turn: this.turn, combatantId: this.combatant?.id ?? null, tokenId: this.combatant?.tokenId ?? null }; }
  setupTurns() {
    this.turns = this.combatants.contents.sort((a, b) => this._sortCombatants(a, b));
    return this.turns;
  }
  /** Highest initiative first (none last), then by name, then by id. */
  _sortCombatants(a, b) {
    const ia = Number.isFinite(a.initiative) ? a.initiative : -Infinity;
    const ib = Number.isFinite(b.initiative) ? b.initiative : -Infinity;
    return (ib - ia) || (a.name ?? "").localeCompare(b.name ?? "") || (a.id ?? "").localeCompare(b.id ?? "");
  }
  async rollInitiative(ids, { formula = null, updateTurn = true, messageOptions = {} } = {}) {
    ids = typeof ids === "string" ? [ids] : ids;
    const currentId = this.combatant?.id;
    const updates = [];
    const messages = [];
    for (const [i, id] of ids.entries()) {
      const combatant = this.combatants.get(id);
      if (!combatant?.isOwner) continue;
      const roll = combatant.getInitiativeRoll(formula);
      await roll.evaluate();
      updates.push({ _id: id, initiative: roll.total });
      const messageData = mergeObject({ speaker: ChatMessage.getSpeaker({ actor: combatant.actor, token: combatant.token, alias: combatant.name }),
        flavor: game.i18n.format("COMBAT.RollsInitiative", { name: combatant.name }), flags: { "core.initiativeRoll": true } }, messageOptions, { inplace: false });
      const chatData = await roll.toMessage(messageData, { create: false });
      if (i > 0) chatData.sound = null;
      messages.push(chatData);
    }
    if (!updates.length) return this;
    await this.updateEmbeddedDocuments("Combatant", updates);
    if (updateTurn && currentId) await this.update({ turn: this.turns.findIndex(t => t.id === currentId) });
    await ChatMessage.implementation.createDocuments(messages);
    return this;
  }
  async rollAll(options) {
    return this.rollInitiative(this.combatants.filter(c => c.isOwner && c.initiative === null).map(c => c.id), options);
  }
  async rollNPC(options = {}) {
    return this.rollInitiative(this.combatants.filter(c => c.isOwner && c.isNPC && c.initiative === null).map(c => c.id), options);
  }
  async startCombat() {
    this._playCombatSound("startEncounter");
    const updateData = { round: 1, turn: 0 };
    Hooks.callAll("combatStart", this, updateData);
    await this.update(updateData);
    return this;
  }
  async nextTurn() { return this.update({ turn: ((this.turn ?? -1) + 1) % Math.max(this.turns.length, 1) }); }
  async nextRound() { return this.update({ round: this.round + 1, turn: 0 }); }
  async previousTurn() { return this.update({ turn: Math.max((this.turn ?? 0) - 1, 0) }); }
  async previousRound() { return this.update({ round: Math.max(this.round - 1, 0), turn: 0 }); }
  async endCombat() {
    const yes = await foundry.applications.api.DialogV2.confirm({ window: { title: "COMBAT.EndTitle" }, content: "<p>COMBAT.EndConfirmation</p>" });
    if (yes) await this.delete();
    return this;
  }
  _playCombatSound() {}
  async _onStartTurn() {}
  async _onEndTurn() {}
  async _onStartRound() {}
  async _onEndRound() {}
  async _clearMovementHistoryOnStartTurn() {}
  async _manageTurnEvents() {}
  _onCreate(data, options, userId) {
    super._onCreate(data, options, userId);
    ui.combat?.render();
  }
  _onUpdate(changes, options, userId) {
    super._onUpdate(changes, options, userId);
    ui.combat?.render();
  }
  _onDelete(options, userId) {
    super._onDelete(options, userId);
    if (ui.combat?.viewed === this) ui.combat.viewed = null;
    ui.combat?.render();
  }
  _onCreateDescendantDocuments(...args) {
    super._onCreateDescendantDocuments(...args);
    ui.combat?.render();
  }
  _onUpdateDescendantDocuments(...args) {
    super._onUpdateDescendantDocuments(...args);
    ui.combat?.render();
  }
  _onDeleteDescendantDocuments(...args) {
    super._onDeleteDescendantDocuments(...args);
    ui.combat?.render();
  }
}

/** Combatant (client/documents/combatant.d.mts): its actor, token, name and image, ownership through the actor. */
class Combatant extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Combatant", collection: "combatants", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.initiative ??= null;
    source.hidden ??= false;
    source.defeated ??= false;
    source.actorId ??= null;
    source.tokenId ??= null;
    return source;
  }
  get combat() { return this.parent instanceof Combat ? this.parent : null; }
  get token() { return this.combat?.scene?.tokens.get(this._source.tokenId) ?? null; }
  get actor() { return /** @type {Actor | null} */ (this.token ? this.token.actor : game.actors.get(this._source.actorId) ?? null); }
  get name() { return this._source.name || this.token?.name || this.actor?.name || ""; }
  get img() { return this._source.img || this.actor?.img || CONST.DEFAULT_TOKEN; }
  get isDefeated() { return this.defeated || !!this.actor?.statuses.has(CONFIG.specialStatusEffects.DEFEATED); }
  get isNPC() { return !this.actor || !this.actor.hasPlayerOwner; }
  get visible() { return this.isOwner || !this.hidden; }
  get players() { return game.users.filter(u => !u.isGM && this.actor?.testUserPermission(u, "OWNER")); }
  getUserLevel(user = game.user) {
    if (user?.isGM) return OWNERSHIP.OWNER;
    return this.actor?.getUserLevel(user) ?? OWNERSHIP.NONE;
  }
  getInitiativeRoll(formula) {
    return new Roll(formula || this._getInitiativeFormula(), this.actor?.getRollData() ?? {});
  }
  /** v13's: the configured formula or the system's (system.json `initiative`), as a string even when neither is set. */
  _getInitiativeFormula() { return String(CONFIG.Combat.initiative.formula || game.system.initiative); }
}

/** Each token's last movement, by its UUID (its document is built anew on every change). @type {Map<string, object>} */
const TOKEN_MOVEMENTS = new Map();

/** The synthetic actors of unlinked tokens, by token. @type {WeakMap<object, Actor>} */
const SYNTHETIC_ACTORS = new WeakMap();

/**
 * TokenDocument (client/documents/token.d.mts): a linked token's actor is the world's; an
 * unlinked token's is a synthetic actor (the base actor with the token's delta), built with the
 * token as v13's ActorDelta does ("when constructed", actor-delta.d.mts `_createSyntheticActor`).
 */
class TokenDocument extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Token", collection: "tokens", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.actorLink ??= false;
    source.actorId ??= null;
    source.delta ??= {};
    source.disposition ??= -1;
    source.hidden ??= false;
    source.x ??= 0;
    source.y ??= 0;
    source.width ??= 1;
    source.height ??= 1;
    source.elevation ??= 0;
    source.texture ??= { src: CONST.DEFAULT_TOKEN };
    return source;
  }
  /** The token's placeable on the viewed scene, or null. */
  get object() { return canvas.ready && canvas.scene === this.parent ? canvas.tokens.get(this.id) ?? null : null; }
  /**
   * v13's and v14's `preMoveToken(document, movement, operation)` on the mover's client when an
   * update changes the position ("return false to prevent"): the shim's movement is one straight
   * waypoint (`method` "api", action "walk" or the update's `options.movementAction`), no ruler.
   */
  async _preUpdate(changes, options, user) {
    if ("x" in changes || "y" in changes) {
      const origin = { x: this._source.x, y: this._source.y, elevation: this._source.elevation ?? 0, width: this._source.width, height: this._source.height };
      const destination = { ...origin, x: changes.x ?? origin.x, y: changes.y ?? origin.y, action: options.movementAction ?? "walk" };
      const movement = { id: randomID(), origin, destination, method: "api", passed: { waypoints: [destination] }, pending: { waypoints: [] },
        autoRotate: false, showRuler: false, updateOptions: options };
      // @shim-unchecked v13's and v14's preMoveToken hook (API hookEvents.preMoveToken), which foundry-vtt-types 13.345 does not declare
      if (Hooks.call("preMoveToken", this, movement, options) === false) return false;
      // kept for the move's region events (Foundry keeps it in the update operation)
      options.shimMovement = movement;
    }
    return super._preUpdate(changes, options, user);
  }
  /**
   * v13's and v14's region move events, on the mover's client after the update (Foundry triggers
   * them at the end of the update's workflow): for each region of the scene, the straight path of
   * the token's centre sampled each quarter space, TOKEN_MOVE_IN when it goes in, TOKEN_MOVE_OUT
   * when it comes out (both for a pass through), TOKEN_MOVE_WITHIN when it stays inside.
   */
  _onUpdate(changes, options, userId) {
    super._onUpdate(changes, options, userId);
    const movement = options.shimMovement;
    if (movement) TOKEN_MOVEMENTS.set(this.uuid, movement);
    const scene = this.parent;
    if (!movement || userId !== game.user.id || !scene?.regions) return;
    const size = scene.grid?.size ?? 100;
    const half = { x: (this.width * size) / 2, y: (this.height * size) / 2 };
    const steps = Math.max(1, Math.ceil((4 * Math.hypot(movement.destination.x - movement.origin.x, movement.destination.y - movement.origin.y)) / size));
    const path = Array.from({ length: steps + 1 }, (_, k) => ({ x: movement.origin.x + ((movement.destination.x - movement.origin.x) * k) / steps + half.x,
      y: movement.origin.y + ((movement.destination.y - movement.origin.y) * k) / steps + half.y, elevation: this.elevation ?? 0 }));
    const { TOKEN_MOVE_IN, TOKEN_MOVE_OUT, TOKEN_MOVE_WITHIN } = CONST.REGION_EVENTS;
    for (const region of scene.regions) {
      const inside = path.map(point => region.testPoint(point));
      const names = [];
      if (inside.some((now, k) => k && now && !inside[k - 1])) names.push(TOKEN_MOVE_IN);
      if (inside.some((now, k) => k && !now && inside[k - 1])) names.push(TOKEN_MOVE_OUT);
      if (!names.length && inside[0] && inside.at(-1)) names.push(TOKEN_MOVE_WITHIN);
      for (const name of names) Promise.resolve().then(() => region._triggerEvent(name, { token: this, movement }));
    }
  }
  /**
   * v13's and v14's current or last movement (every client's, from the update): the shim's movement as above.
   * @shim-unchecked the shim's movement has the members the system reads (id, origin, destination, method, passed, pending, updateOptions), not all of TokenMovementData's
   */
  get movement() { return TOKEN_MOVEMENTS.get(this.uuid) ?? null; }
  /**
   * v13's `move(waypoints, options)` and v14's `move(instruction, options)` (an instruction
   * `{waypoints, method, ...}`): the shim moves to the last waypoint in one update whose movement
   * action is that waypoint's (so `preMoveToken` sees a `blink` as a teleport), and refuses the
   * other generation's form.
   */
  async move(what, options = {}) {
    const waypoints = GENERATION >= 14 ? what?.waypoints : [what].flat();
    if (!Array.isArray(waypoints) || !waypoints.length || waypoints.some(w => !w || typeof w !== "object")) {
      throw new Error(`TokenDocument#move: not Foundry ${GENERATION}'s waypoints`);
    }
    const last = waypoints.at(-1);
    const updated = await this.update({ x: last.x ?? this.x, y: last.y ?? this.y }, { ...options, movementAction: last.action ?? "walk" });
    return !!updated;
  }
  /** v13's: a token's permissions are its actor's. */
  getUserLevel(user = game.user) { return this.actor?.getUserLevel(user) ?? super.getUserLevel(user); }
  _initialize() {
    super._initialize();
    SYNTHETIC_ACTORS.delete(this);
    const base = this._source.actorLink ? null : game.actors?.get(this._source.actorId);
    if (base) {
      const data = mergeObject(base.toObject(), this._source.delta ?? {}, { inplace: false });
      SYNTHETIC_ACTORS.set(this, new CONFIG.Actor.documentClass(data, { parent: this }));
    }
  }
  /** v13's: the SECRET disposition, and the user may not observe the token. */
  get isSecret() { return this._source.disposition === CONST.TOKEN_DISPOSITIONS.SECRET && !this.testUserPermission(game.user, "OBSERVER"); }
  get isLinked() { return !!this._source.actorLink; }
  get baseActor() { return /** @type {Actor | null} */ (game.actors.get(this._source.actorId) ?? null); }
  get actor() { return (this.isLinked ? this.baseActor : SYNTHETIC_ACTORS.get(this)) ?? null; }
}

/**
 * WallDocument (client/documents/wall.d.mts; WallData the same on 13 and 14): its coordinates and
 * restriction types. The shim has no wall placeables: the system reads walls as data.
 */
class WallDocument extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Wall", collection: "walls", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    if (!Array.isArray(source.c) || source.c.length !== 4 || !source.c.every(Number.isFinite)) throw new DataModelValidationError("c: must be a length-4 array of finite numbers");
    // CONST.WALL_SENSE_TYPES.NORMAL, WALL_MOVEMENT_TYPES.NORMAL, WALL_DOOR_TYPES.NONE, WALL_DOOR_STATES.CLOSED: the schema's initials
    for (const [key, initial] of Object.entries({ light: 20, move: 20, sight: 20, sound: 20, dir: 0, door: 0, ds: 0 })) source[key] ??= initial;
    return source;
  }
}

/** TileDocument (client/documents/tile.d.mts): its rectangle in pixels. No tile placeables. */
class TileDocument extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Tile", collection: "tiles", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    for (const key of ["x", "y", "width", "height", "elevation"]) source[key] ??= 0;
    return source;
  }
}

/**
 * Scene (client/documents/scene.d.mts). v13: tokens and measured templates; v14 (which folds
 * MeasuredTemplate into Region, deprecated until 16): tokens and regions. The v14 shim has no
 * templates at all, so a use of them fails a test as Foundry's FAILURE compatibility mode would.
 */
class Scene extends documentClass(GENERATION >= 14
  ? Object.freeze(/** @type {const} */ ({ name: "Scene", collection: "scenes", embedded: { Token: "tokens", Region: "regions", Wall: "walls", Tile: "tiles" } }))
  : Object.freeze(/** @type {const} */ ({ name: "Scene", collection: "scenes", embedded: { Token: "tokens", MeasuredTemplate: "templates", Region: "regions", Wall: "walls", Tile: "tiles" } }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.width ??= 1000;
    source.height ??= 800;
    source.grid = { type: 1, size: 100, distance: game.system.grid?.distance ?? 1, units: game.system.grid?.units ?? "", ...(source.grid ?? {}) };
    return source;
  }
  /** v13's: this scene becomes the viewed one, and the canvas draws it. */
  async view() {
    await canvas.draw(this);
    return this;
  }
  /** The canvas draws again after its tokens or templates change (Foundry's placeables follow their documents). */
  _onCreateDescendantDocuments(...args) { super._onCreateDescendantDocuments(...args); if (canvas.scene === this) canvas.refresh(); }
  _onUpdateDescendantDocuments(...args) { super._onUpdateDescendantDocuments(...args); if (canvas.scene === this) canvas.refresh(); }
  _onDeleteDescendantDocuments(...args) { super._onDeleteDescendantDocuments(...args); if (canvas.scene === this) canvas.refresh(); }
}

/** MeasuredTemplateDocument (client/documents/measured-template.d.mts): a template's data, its placeable while its scene is viewed. */
class MeasuredTemplateDocument extends documentClass(Object.freeze(/** @type {const} */ ({ name: "MeasuredTemplate", collection: "templates", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    if (!["circle", "cone", "rect", "ray"].includes(source.t ?? "circle")) throw new DataModelValidationError(`t: ${source.t} is not a valid choice`);
    source.t ??= "circle";
    for (const [key, initial] of Object.entries({ x: 0, y: 0, distance: 1, direction: 0, angle: 0, width: 0 })) {
      source[key] = Number(source[key] ?? initial);
      if (!Number.isFinite(source[key])) throw new DataModelValidationError(`${key}: must be a finite number`);
    }
    source.user ??= game.user?.id ?? null;
    return source;
  }
  get object() { return canvas.ready && canvas.scene === this.parent ? canvas.templates.get(this.id) ?? null : null; }
  get author() { return game.users.get(this._source.user) ?? null; }
}

/** The region shapes the shim draws and tests points in (v14's ShapesField has ten types). */
const REGION_SHAPES = ["rectangle", "circle", "ellipse", "polygon", "cone", "ring", "line", "emanation", "token", "grid"];

/**
 * The points (x0, y0, x1, y1, ...) of a region shape's outline in scene pixels: rectangles
 * (`x, y` its top left, `rotation` in degrees about it), circles and polygons; the other types are
 * not modelled (none).
 * @param {Record<string, any>} shape
 * @returns {number[]}
 */
function shapePoints(shape) {
  if (shape.type === "polygon") return [...shape.points];
  if (shape.type === "circle") return Array.from({ length: 32 }, (_, k) => [shape.x + Math.cos((k * Math.PI) / 16) * shape.radius, shape.y + Math.sin((k * Math.PI) / 16) * shape.radius]).flat();
  if (shape.type === "rectangle") {
    const rad = ((shape.rotation ?? 0) * Math.PI) / 180;
    return [[0, 0], [shape.width, 0], [shape.width, shape.height], [0, shape.height]]
      .flatMap(([dx, dy]) => [shape.x + dx * Math.cos(rad) - dy * Math.sin(rad), shape.y + dx * Math.sin(rad) + dy * Math.cos(rad)]);
  }
  return [];
}

/**
 * v13's and v14's `foundry.data.regionBehaviors.RegionBehaviorType`: a behavior subtype's data,
 * whose static `events` handlers run, bound to it, for the events its behavior receives. The shim
 * has no configurable `events` field (the subtypes the system defines have none).
 */
class RegionBehaviorType extends TypeDataModel {
  static events = {};
  get behavior() { return this.parent; }
  get region() { return this.parent?.parent ?? null; }
  get scene() { return this.region?.parent ?? null; }
  async _handleRegionEvent(event) { await this.constructor.events[event.name]?.call(this, event); }
}

/**
 * v13's and v14's RegionBehavior (API `foundry.documents.RegionBehavior`), embedded in a region:
 * a `type` (its `system` the type's data model when `CONFIG.RegionBehavior.dataModels` has one),
 * `disabled`; `active` while enabled (v14 also needs its region unhidden: the shim hides none).
 */
class RegionBehavior extends documentClass(Object.freeze(/** @type {const} */ ({ name: "RegionBehavior", collection: "behaviors", embedded: {} }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    source.disabled ??= false;
    source.system ??= {};
    return source;
  }
  get active() { return !this._source.disabled; }
  async _handleRegionEvent(event) { if (this.active) await this.system?._handleRegionEvent?.(event); }
}

/**
 * RegionDocument as v14 has it (API v14 `foundry.documents.RegionDocument`, `RegionData`; v13 has the members the system uses): a
 * name, colour, `shapes` (each with `hole`), `visibility` (initially LAYER_UNLOCKED),
 * `highlightMode`, behaviors (embedded RegionBehavior documents), flags; `tokens`, the set of its
 * scene's token documents inside it (here: a token's centre inside a shape and no hole), and
 * `testPoint`.
 */
class RegionDocument extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Region", collection: "regions", embedded: { RegionBehavior: "behaviors" } }))) {
  static cleanData(data) {
    const source = super.cleanData(data);
    if (typeof source.name !== "string" || !source.name.trim()) throw new DataModelValidationError("name: may not be a blank string");
    source.color ??= "#ff0000";
    source.visibility ??= 4;
    source.highlightMode ??= "shapes";
    source.shapes = (source.shapes ?? []).map(shape => {
      if (!REGION_SHAPES.includes(shape?.type)) throw new DataModelValidationError(`shapes: ${shape?.type} is not a valid shape type`);
      if (shape.type === "polygon" && (!Array.isArray(shape.points) || shape.points.length < 6 || shape.points.length % 2 || !shape.points.every(Number.isFinite))) {
        throw new DataModelValidationError("shapes.points: a polygon must have at least 3 points");
      }
      return { hole: false, ...shape };
    });
    return source;
  }
  get object() { return canvas.ready && canvas.scene === this.parent ? canvas.regions?.get(this.id) ?? null : null; }
  /**
   * v13's and v14's `_triggerEvent`: sent to the other clients (`regionEvent`; the shim's socket
   * reaches no one) and handled here, on the triggering user's client; `_handleEvent` runs each
   * enabled behavior's handler, an error logged, not thrown.
   */
  async _triggerEvent(name, data) {
    game.socket.emit("regionEvent", { regionUuid: this.uuid, userId: game.user.id, eventName: name, eventData: {}, eventDataUuids: [] });
    await this._handleEvent({ name, data, region: this, user: game.user });
  }
  async _handleEvent(event) {
    const results = await Promise.allSettled(this.behaviors.filter(b => !b.disabled).map(b => b._handleRegionEvent(event)));
    for (const result of results) if (result.status === "rejected") console.error(result.reason);
  }
  /** Is a point inside (in a shape, in no hole)? */
  testPoint({ x, y }) {
    const inside = shape => new PixiPolygon(shapePoints(shape)).contains(x, y);
    return this.shapes.some(s => !s.hole && inside(s)) && !this.shapes.some(s => s.hole && inside(s));
  }
  /**
   * The tokens inside this region.
   * @shim-unchecked Foundry types the set by its configured TokenDocument class; the shim's one class is that
   */
  get tokens() {
    const size = this.parent?.grid?.size ?? 100;
    return new Set(this.parent?.tokens.filter(t => this.testPoint({ x: t.x + (t.width * size) / 2, y: t.y + (t.height * size) / 2, elevation: 0 })) ?? []);
  }
}

/** Macro (client/documents/macro.d.mts): a script macro runs its command as an async function, as v13's `execute`. */
class Macro extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Macro", collection: "macros", embedded: {} }))) {
  /** BaseMacro.DEFAULT_ICON (common/documents/macro.d.mts). */
  static DEFAULT_ICON = "icons/svg/dice-target.svg";
  static cleanData(data) {
    const source = super.cleanData(data);
    source.type ??= "chat";
    source.command ??= "";
    source.author ??= game.user?.id ?? null;
    source.img ??= this.DEFAULT_ICON;
    return source;
  }
  get author() { return game.users.get(this._source.author) ?? null; }
  get isAuthor() { return game.user?.id === this._source.author; }
  get canExecute() { return this.type === "chat" || !!game.user; }
  async execute(scope = {}) {
    if (this.type !== "script") return ui.chat?.processMessage?.(this.command);
    const speaker = ChatMessage.implementation.getSpeaker();
    const actor = game.actors.get(speaker.actor ?? "") ?? null;
    const AsyncFunction = (async () => {}).constructor;
    const fn = new AsyncFunction("speaker", "actor", "token", "character", "scope", ...Object.keys(scope), `{${this.command}\n}`);
    return fn.call(this, speaker, actor, null, game.user?.character ?? null, scope, ...Object.values(scope));
  }
}
class JournalEntryPage extends documentClass(Object.freeze(/** @type {const} */ ({ name: "JournalEntryPage", collection: "pages", embedded: {} }))) {
  /** As v13's: the parent entry's sheet, showing this page. */
  _onClickDocumentLink(event) {
    const anchor = event.target instanceof Element ? event.target.closest("a[data-link]") : null;
    return this.parent.sheet?.render(true, { pageId: this.id, anchor: anchor instanceof HTMLElement ? anchor.dataset.hash : undefined });
  }
}
class JournalEntry extends documentClass(Object.freeze(/** @type {const} */ ({ name: "JournalEntry", collection: "journal", embedded: { JournalEntryPage: "pages" } }))) {
}
class Folder extends documentClass(Object.freeze(/** @type {const} */ ({ name: "Folder", collection: "folders", embedded: {} }))) {
}

/* ---- Dice (client/dice/roll.d.mts, client/dice/terms/*.d.mts) ---- */

class RollTerm {
  constructor() {
    /** @type {boolean} */
    this._evaluated = false;
  }
  get total() { return this.number ?? 0; }
  async evaluate() { this._evaluated = true; return this; }
  /** @returns {Record<string, unknown>} */
  toJSON() { return { class: this.constructor.name, ...this }; }
}

class NumericTerm extends RollTerm {
  constructor({ number = 0, options = {} } = {}) { super(); this.number = number; this.options = options; }
  get formula() { return String(this.number); }
}

class OperatorTerm extends RollTerm {
  constructor({ operator = "+", options = {} } = {}) { super(); this.operator = operator; this.options = options; }
  get formula() { return this.operator; }
  /** v13's: the operator itself (Roll#_evaluate reads the operators apart). */
  get total() { return this.operator; }
}

class Die extends RollTerm {
  constructor({ number = 1, faces = 6, modifiers = [], results = [], options = {} } = {}) {
    super();
    Object.assign(this, { number, faces, modifiers, results, options });
  }
  get denomination() { return this.faces === "F" ? "f" : "d"; }
  get formula() { return `${this.number}d${this.faces}${this.options.flavor ? `[${this.options.flavor}]` : ""}`; }
  get total() { return this.results.filter(r => r.active).reduce((sum, r) => sum + r.result, 0); }
  get values() { return this.results.map(r => r.result); }
  /** The user's fulfilment method for this die (`core.diceConfiguration`), else the configured default; none for dF here. */
  get method() {
    if (this.faces === "F") return undefined;
    const configured = /** @type {Record<string, string>} */ (game.settings.get("core", "diceConfiguration") ?? {})[`d${this.faces}`];
    return configured || CONFIG.Dice.fulfillment.defaultMethod || undefined;
  }
  /**
   * Each die's face: from the roll's resolver when the user enters this denomination by hand
   * (an interactive method, v13's manual entry), else from CONFIG.Dice.randomUniform.
   */
  async evaluate({ minimize = false, maximize = false } = {}) {
    const method = this.method;
    const resolver = !minimize && !maximize && method && CONFIG.Dice.fulfillment.methods[method]?.interactive ? TERM_RESOLVERS.get(this) : null;
    for (let i = 0; i < this.number; i++) {
      const faces = this.faces === "F" ? 3 : this.faces;
      let roll = minimize ? 1 : maximize ? faces : undefined;
      if (roll === undefined && resolver && method) roll = (await resolver.resolveResult(this, method)) ?? undefined;
      roll ??= Math.ceil(CONFIG.Dice.randomUniform() * faces);
      this.results.push({ result: this.faces === "F" ? roll - 2 : roll, active: true });
    }
    this._evaluated = true;
    return this;
  }
}

/** The resolver of the roll being evaluated, by its dice terms. @type {WeakMap<object, RollResolver>} */
const TERM_RESOLVERS = new WeakMap();

class Roll {
  static CHAT_TEMPLATE = "templates/dice/roll.html";
  static get resolverImplementation() { return RollResolver; }
  constructor(formula, data = {}, options = {}) {
    this.data = data;
    this.options = options;
    this.terms = Roll.parse(formula);
    this._formula = this.resetFormula();
    this._evaluated = false;
    this._total = undefined;
  }
  /** The v13 grammar this system's formulas use: `NdX[flavor]`, numbers, + and -. */
  static parse(formula) {
    const terms = [];
    for (const token of String(formula).split(/\s+(?=[+-]\s)|(?<=\s[+-])\s+/).map(t => t.trim()).filter(Boolean)) {
      if (token === "+" || token === "-") terms.push(new OperatorTerm({ operator: token }));
      else {
        const die = /^(\d*)d(\d+|F)(?:\[([^\]]*)\])?$/i.exec(token);
        if (die) terms.push(new Die({ number: Number(die[1] || 1), faces: die[2].toUpperCase() === "F" ? "F" : Number(die[2]), options: die[3] ? { flavor: die[3] } : {} }));
        else if (/^-?\d+(\.\d+)?$/.test(token)) terms.push(new NumericTerm({ number: Number(token) }));
        else throw new Error(`Unresolved StringTerm ${token} requested for evaluation`);
      }
    }
    return terms;
  }
  get formula() { return this._formula; }
  get dice() { return this.terms.filter(t => t instanceof Die); }
  get total() { return this._total; }
  get isDeterministic() { return !this.dice.length; }
  resetFormula() { return (this._formula = this.terms.map(t => t.formula).join(" ")); }
  async evaluate(options = {}) {
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    this._evaluated = true;
    return this._evaluate(options);
  }
  /**
   * v13's: first the user's manual entry of the dice they roll by hand (the RollResolver form,
   * when a die's denomination is set to an interactive method), then each term.
   */
  async _evaluate(options = {}) {
    const resolver = options.allowInteractive !== false && !options.minimize && !options.maximize
      ? new this.constructor.resolverImplementation(this) : null;
    if (resolver) {
      for (const term of this.dice) TERM_RESOLVERS.set(term, resolver);
      await resolver.awaitFulfillment();
    }
    for (const term of this.terms) await term.evaluate(options);
    if (resolver?.rendered) await resolver.close();
    let total = 0;
    let sign = 1;
    for (const term of this.terms) {
      if (term instanceof OperatorTerm) sign = term.operator === "-" ? -1 : 1;
      else total += sign * term.total;
    }
    this._total = total;
    return this;
  }
  async render({ flavor, template = this.constructor.CHAT_TEMPLATE, isPrivate = false } = {}) {
    if (!this._evaluated) await this.evaluate();
    return foundry.applications.handlebars.renderTemplate(template, await this._prepareChatRenderContext({ flavor, isPrivate }));
  }
  async _prepareChatRenderContext({ flavor, isPrivate = false } = {}) {
    return { formula: isPrivate ? "???" : this._formula, flavor: isPrivate ? null : flavor ?? this.options.flavor, user: game.user.id,
      tooltip: "", total: isPrivate ? "?" : Math.round(this.total * 100) / 100 };
  }
  /**
   * @param {object} [messageData]
   * @param {{rollMode?: string | null, create?: boolean | null}} [options]  (v14: `messageMode`)
   */
  async toMessage(messageData = {}, { rollMode, messageMode, create = true } = {}) {
    if (!this._evaluated) await this.evaluate();
    const data = mergeObject({ author: game.user.id, content: String(this.total), sound: CONFIG.sounds.dice }, messageData, { inplace: false });
    data.rolls = [this];
    if (GENERATION >= 14) {
      if (rollMode) logCompatibilityWarning("The rollMode option of Roll#toMessage is deprecated in favor of messageMode", { since: 14, until: 16 });
      ChatMessage.implementation.applyMode(data, messageMode ?? game.settings.get("core", "messageMode"));
    } else ChatMessage.implementation.applyRollMode(data, rollMode ?? game.settings.get("core", "rollMode"));
    return create ? ChatMessage.implementation.create(data) : data;
  }
  toJSON() {
    // The terms as they are; JSON.stringify serializes each through its own toJSON, as Foundry's.
    return { class: this.constructor.name, options: deepClone(this.options), formula: this._formula, terms: this.terms,
      total: this._total, evaluated: this._evaluated };
  }
  static fromData(data) {
    const cls = CONFIG.Dice.rolls.find(r => r.name === data.class) ?? Roll;
    const roll = new cls(data.formula, {}, data.options);
    const kinds = { Die, NumericTerm, OperatorTerm };
    roll.terms = data.terms.map(({ class: kind, ...term }) => Object.assign(Object.create((kinds[kind] ?? NumericTerm).prototype), term));
    roll._formula = data.formula;
    roll._total = data.total;
    roll._evaluated = data.evaluated;
    return roll;
  }
}

/* ---- Applications (client/applications/api/*.d.mts, sheets/*.d.mts) ---- */

/** FormDataExtended (client/applications/ux/form-data-extended.d.mts): typed values by name. */
class FormDataExtended {
  constructor(form) {
    this.object = {};
    for (const element of form.elements) {
      if (!element.name || element.disabled) continue;
      if (element.type === "checkbox") this.object[element.name] = element.checked;
      else if (element.type === "number" || element.dataset.dtype === "Number") this.object[element.name] = element.value === "" ? null : Number(element.value);
      else if (element.type === "radio") { if (element.checked) this.object[element.name] = element.value; }
      else this.object[element.name] = element.value;
    }
  }
}

/** An application class and its ancestors, as ApplicationV2.inheritanceChain yields them. */
function* inheritanceChain(cls) {
  while (cls && cls !== Object && cls.prototype) {
    yield cls;
    cls = Object.getPrototypeOf(cls);
  }
}

class ApplicationV2 {
  static DEFAULT_OPTIONS = { id: "app-{id}", classes: [], tag: "div", window: { frame: true, title: "", icon: /** @type {false} */ (false), resizable: false },
    actions: { close: ApplicationV2.#onClose, toggleControls: ApplicationV2.#onToggleControls },
    form: { handler: undefined, submitOnChange: false, closeOnSubmit: false }, position: {} };
  /** The frame's close button. @this {ApplicationV2} */
  static #onClose() { return this.close(); }
  /** The frame's controls button opens its dropdown (the shim's holds no entries). @this {ApplicationV2} */
  static #onToggleControls() { this.element?.querySelector(".controls-dropdown")?.classList.toggle("expanded"); }
  static RENDER_STATES = Object.freeze(/** @type {const} */ ({ ERROR: -3, CLOSING: -2, CLOSED: -1, NONE: 0, RENDERING: 1, RENDERED: 2 }));
  static #count = 0;
  #element = null;
  /** @type {foundry.applications.api.ApplicationV2.RenderState} */
  #state = ApplicationV2.RENDER_STATES.NONE;
  /** v13's render semaphore: one render or close of an application at a time, each after the last. */
  #queue = Promise.resolve();
  /** Whether a render or close step is running now. */
  #stepping = false;

  constructor(options = {}) {
    this.options = this._initializeApplicationOptions(options);
    this.tabGroups = {};
    this.position = { ...this.options.position };
  }

  _initializeApplicationOptions(options) {
    const chain = [...inheritanceChain(this.constructor)].reverse();
    const merged = { classes: [], actions: {} };
    for (const cls of chain) {
      if (!Object.hasOwn(cls, "DEFAULT_OPTIONS")) continue;
      const { classes = [], actions = {}, ...rest } = cls.DEFAULT_OPTIONS;
      merged.classes.push(...classes);
      Object.assign(merged.actions, actions);
      mergeObject(merged, deepClone(rest));
    }
    const { classes = [], actions = {}, ...rest } = options;
    merged.classes.push(...classes);
    Object.assign(merged.actions, actions);
    mergeObject(merged, rest);
    merged.id = String(merged.id ?? "app-{id}").replace("{id}", String(++ApplicationV2.#count));
    merged.uniqueId = merged.id;
    return merged;
  }

  get id() { return this.options.id; }
  get title() { return game.i18n.localize(this.options.window?.title ?? ""); }
  /** Declared HTMLElement; null before the first render, as Foundry's is. */
  get element() { return /** @type {HTMLElement} */ (this.#element); }
  get form() { return this.#element instanceof HTMLFormElement ? this.#element : this.#element?.querySelector("form") ?? null; }
  get state() { return this.#state; }
  get rendered() { return this.#state === ApplicationV2.RENDER_STATES.RENDERED; }
  get hasFrame() { return !!this.options.window?.frame; }
  get window() { return { title: this.#element?.querySelector(".window-title") ?? null }; }

  /**
   * Queued behind any render or close in progress, as v13's semaphore does: a render awaited
   * inside a render step of the same application never starts (Foundry hangs there; the shim
   * says so on the console after 5 s, which fails the tests).
   */
  render(options = {}, _options = {}) {
    if (typeof options === "boolean") options = { ..._options, force: options };
    return this.#enqueue("render", () => this.#render(options));
  }
  close(options = {}) {
    return this.#enqueue("close", () => this.#close(options));
  }
  #enqueue(what, step) {
    const inside = this.#stepping;
    let started = false;
    const run = this.#queue.then(async () => {
      started = true;
      this.#stepping = true;
      try {
        return await step();
      } finally {
        this.#stepping = false;
      }
    });
    this.#queue = run.then(() => undefined, () => undefined);
    if (inside) {
      const timer = setTimeout(() => {
        if (!started) console.error(`${this.constructor.name}: a ${what} asked for during a render or close of the same application is still waiting: awaited there, it deadlocks (v13 queues them)`);
      }, 5000);
      run.then(() => clearTimeout(timer), () => clearTimeout(timer));
    }
    return run;
  }

  async #render(options) {
    const states = ApplicationV2.RENDER_STATES;
    if (!this.rendered && !options.force) return this;
    const isFirstRender = !this.rendered;
    options.isFirstRender = isFirstRender;
    this._configureRenderOptions(options);
    const context = await this._prepareContext(options);
    if (isFirstRender) await this._preFirstRender(context, options);
    await this._preRender(context, options);
    this.#state = states.RENDERING;
    const result = await this._renderHTML(context, options);
    if (isFirstRender) {
      this.#element = await this._renderFrame(options);
      this._attachFrameListeners();
    }
    this._replaceHTML(result, (this.hasFrame && this.#element.querySelector(".window-content")) || this.#element, options);
    if (isFirstRender) this._insertElement(this.#element);
    this.#state = states.RENDERED;
    foundry.applications.instances.set(this.id, this);
    if (isFirstRender) await this._onFirstRender(context, options);
    await this._onRender(context, options);
    for (const cls of inheritanceChain(this.constructor)) Hooks.callAll(`render${cls.name}`, this, this.#element, context, options);
    return this;
  }
  async #close(options) {
    const states = ApplicationV2.RENDER_STATES;
    if (!this.#element) {
      this.#state = states.CLOSED;
      return this;
    }
    this.#state = states.CLOSING;
    await this._preClose(options);
    this._removeElement(this.#element);
    this.#element = null;
    this.#state = states.CLOSED;
    foundry.applications.instances.delete(this.id);
    this._onClose(options);
    for (const cls of inheritanceChain(this.constructor)) Hooks.callAll(`close${cls.name}`, this);
    return this;
  }
  _configureRenderOptions(options) {
    if (options.isFirstRender) options.window = { ...this.options.window, ...(options.window ?? {}) };
  }
  async _prepareContext() { return {}; }
  _prepareTabs(group) {
    const config = this.constructor.TABS?.[group];
    if (!config) return {};
    this.tabGroups[group] ??= config.initial ?? config.tabs[0]?.id ?? null;
    return Object.fromEntries(config.tabs.map(tab => {
      const active = this.tabGroups[group] === tab.id;
      const label = tab.label ?? (config.labelPrefix ? `${config.labelPrefix}.${tab.id}` : tab.id);
      return [tab.id, { ...tab, group, active, cssClass: active ? "active" : "", label }];
    }));
  }
  changeTab(tab, group) {
    this.tabGroups[group] = tab;
    for (const element of this.#element?.querySelectorAll(`[data-group="${group}"][data-tab]`) ?? []) {
      element.classList.toggle("active", element.dataset.tab === tab);
    }
  }
  /** Foundry's is abstract: each kind of application renders its own. */
  async _renderHTML() { throw new Error("An ApplicationV2 subclass must implement _renderHTML"); }
  _replaceHTML(result, content) { content.innerHTML = String(result); }
  /**
   * v13's window frame: the header (its icon, the title, the controls menu and close buttons),
   * the controls dropdown, the content element (`window.contentTag`, `window.contentClasses`) and
   * a resize handle when resizable.
   */
  async _renderFrame() {
    const frame = document.createElement(this.options.tag ?? "div");
    frame.id = this.id;
    frame.classList.add("application", ...this.options.classes);
    if (!this.hasFrame) return frame;
    const { icon, resizable, contentTag = "section", contentClasses = [] } = this.options.window ?? {};
    const header = document.createElement("header");
    header.classList.add("window-header");
    const windowIcon = document.createElement("i");
    windowIcon.classList.add("window-icon", "fa-fw", ...(icon ? icon.split(" ") : []));
    windowIcon.hidden = !icon;
    windowIcon.inert = true;
    const title = document.createElement("h1");
    title.classList.add("window-title");
    title.textContent = this.title;
    header.append(windowIcon, title);
    for (const [action, glyph, label] of [["toggleControls", "fa-ellipsis-vertical", "APPLICATION.TOOLS.ControlsMenu"], ["close", "fa-xmark", "APPLICATION.TOOLS.Close"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.classList.add("header-control", "icon", "fa-solid", glyph);
      button.dataset.action = action;
      button.dataset.tooltip = label;
      button.setAttribute("aria-label", game.i18n.localize(label));
      header.append(button);
    }
    const dropdown = document.createElement("menu");
    dropdown.classList.add("controls-dropdown");
    const content = document.createElement(contentTag);
    content.classList.add("window-content", ...contentClasses);
    frame.append(header, dropdown, content);
    if (resizable) frame.append(Object.assign(document.createElement("div"), { className: "window-resize-handle" }));
    return frame;
  }
  _insertElement(element) {
    const existing = document.getElementById(element.id);
    if (existing) existing.replaceWith(element);
    else document.body.append(element);
  }
  _removeElement(element) { element.remove(); }
  /**
   * v13's listeners: clicks and right-clicks (contextmenu) to the actions, and for a form element
   * its submit and change events.
   */
  _attachFrameListeners() {
    const click = event => this.#onClick(event);
    this.#element.addEventListener("click", click);
    this.#element.addEventListener("contextmenu", click);
    if (this.options.tag === "form") {
      this.#element.addEventListener("submit", event => this._onSubmitForm(this.options.form, event));
      this.#element.addEventListener("change", event => this._onChangeForm(this.options.form, event));
    }
  }
  async _preFirstRender() {}
  async _preRender() {}
  async _onFirstRender() {}
  async _onRender() {}
  async _preClose() {}
  _onClose() {}
  _onChangeForm(formConfig, event) {
    if (formConfig.submitOnChange) this._onSubmitForm(formConfig, event);
  }
  /** v13's: the handler's error is shown (and logged), and the form stays open. */
  async _onSubmitForm(formConfig, event) {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const { handler, closeOnSubmit } = formConfig;
    const formData = new FormDataExtended(form);
    if (handler instanceof Function) {
      try {
        await handler.call(this, event, form, formData);
      } catch (error) {
        // Foundry shows it with `console: true`, which logs it too.
        ui.notifications?.error(error instanceof Error ? error.message : String(error));
        console.error(error);
        return;
      }
    }
    if (closeOnSubmit) await this.close({ submitted: true });
  }
  /** v13's: the handler gets the submit options; an error goes to the caller. */
  async submit(submitOptions = {}) {
    const formConfig = this.options.form;
    if (!formConfig?.handler) throw new Error(`The ${this.constructor.name} DOM element must be a HTMLFormElement with a handler`);
    const form = /** @type {HTMLFormElement} */ (this.element);
    const event = new Event("submit", { cancelable: true });
    const formData = new FormDataExtended(form);
    await formConfig.handler.call(this, event, form, formData, submitOptions);
    if (formConfig.closeOnSubmit) await this.close();
  }
  /**
   * v13's: the closest `[data-action]`; no default prevented, an error not caught (it reaches
   * the page as Foundry's would), the handler only for its `buttons` (left-click unless given).
   */
  #onClick(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (!target || !this.#element?.contains(target)) return;
    const action = target.dataset.action;
    if (action === "tab") {
      if (event.button === 0) this.changeTab(target.dataset.tab, target.dataset.group);
      return;
    }
    let handler = this.options.actions[action];
    if (!handler) {
      this._onClickAction(event, target);
      return;
    }
    let buttons = [0];
    if (typeof handler === "object") {
      buttons = handler.buttons;
      handler = handler.handler;
    }
    if (buttons.includes(event.button)) handler?.call(this, event, target);
  }
  _onClickAction() {}
}

/**
 * foundry.applications.api.HandlebarsApplicationMixin: PARTS rendered by Handlebars, one root
 * element each; a render renders `options.parts` (all of them the first time), each part's
 * context prepared on the one context object of the render, as v13 does.
 */
function HandlebarsApplicationMixin(BaseApplication) {
  return class HandlebarsApplication extends BaseApplication {
    static PARTS = {};
    #parts = {};
    #partDescriptors = {};
    get parts() { return this.#parts; }
    _configureRenderOptions(options) {
      super._configureRenderOptions(options);
      this.#partDescriptors = this._configureRenderParts(options);
      const all = Object.keys(this.#partDescriptors);
      options.parts = options.isFirstRender || !options.parts ? all : options.parts.filter(partId => all.includes(partId));
    }
    _configureRenderParts() { return deepClone(this.constructor.PARTS); }
    async _preparePartContext(partId, context) {
      context.partId = `${this.id}-${partId}`;
      return context;
    }
    async _renderHTML(context, options) {
      const rendered = {};
      for (const partId of options.parts) {
        const part = this.#partDescriptors[partId];
        if (part.templates?.length) await foundry.applications.handlebars.loadTemplates(part.templates);
        const partContext = await this._preparePartContext(partId, context, options);
        const html = await foundry.applications.handlebars.renderTemplate(part.template, partContext);
        const template = document.createElement("template");
        template.innerHTML = html.trim();
        if (template.content.children.length !== 1) throw new Error(`Template part "${partId}" must render a single HTML element.`);
        const element = /** @type {HTMLElement} */ (template.content.firstElementChild);
        element.dataset.applicationPart = partId;
        rendered[partId] = element;
      }
      return rendered;
    }
    _replaceHTML(result, content) {
      for (const [partId, element] of Object.entries(result)) {
        const existing = this.#parts[partId];
        if (existing?.isConnected) existing.replaceWith(element);
        else content.append(element);
        this.#parts[partId] = element;
      }
    }
  };
}

/** DocumentSheetV2 (client/applications/api/document-sheet.d.mts). */
class DocumentSheetV2 extends ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: "{id}", tag: "form", classes: ["sheet"],
    form: { handler: DocumentSheetV2.#onSubmitDocumentForm, submitOnChange: false, closeOnSubmit: false },
    actions: { editImage: DocumentSheetV2.#onEditImage },
    sheetConfig: true, canCreate: false
  };
  constructor(options = {}) {
    const { document: doc, ...rest } = options;
    super({ ...rest, id: `${new.target.name}-${doc.uuid.replaceAll(".", "-")}` });
    this.#document = doc;
  }
  #document;
  /** The sheet's document (the current one: the shim builds embedded documents anew on every change). */
  get document() {
    const doc = this.#document;
    const live = doc.parent ? doc.parent[doc.parent.constructor.getCollectionName(doc.documentName)]?.get(doc.id) : null;
    return live ?? doc;
  }
  get title() { return this.document.name; }
  // v13's defaults (DEFAULT_OPTIONS viewPermission LIMITED, editPermission OWNER) unless given.
  get isVisible() { return this.document.testUserPermission(game.user, this.options.viewPermission ?? OWNERSHIP.LIMITED); }
  get isEditable() { return this.document.testUserPermission(game.user, this.options.editPermission ?? OWNERSHIP.OWNER); }
  /** The document re-renders its open sheets (Document#apps) from here until the sheet closes. */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    this.document.apps[this.id] = this;
  }
  _onClose(options) {
    super._onClose(options);
    delete this.document.apps[this.id];
  }
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    return Object.assign(context, { document: this.document, source: this.document._source, fields: this.document.system?.schema?.fields ?? {},
      editable: this.isEditable, rootId: this.id });
  }
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!this.isEditable) this._toggleDisabled(true);
  }
  /** The form's fields in the content; the window's own controls (close) stay usable. */
  _toggleDisabled(disabled) {
    for (const element of this.form?.elements ?? []) if (!element.closest(".window-header")) element.disabled = disabled;
  }
  _processFormData(event, form, formData) { return expandObject(formData.object); }
  /** v13's: the changes are validated against the document before anything is sent (a DataModelValidationError). */
  _prepareSubmitData(event, form, formData, updateData) {
    const submitData = this._processFormData(event, form, formData);
    if (updateData) mergeObject(submitData, updateData);
    this.document.validate({ changes: submitData, clean: true, fallback: false });
    return submitData;
  }
  async _processSubmitData(event, form, submitData, options = {}) {
    await this.document.update(submitData, options);
  }
  /** `submit({updateData, ...operation})`: extra data merged in, the rest the update's options. */
  static async #onSubmitDocumentForm(event, form, formData, submitOptions = {}) {
    if (!this.isEditable) return;
    const { updateData, ...updateOptions } = submitOptions;
    const submitData = this._prepareSubmitData(event, form, formData, updateData);
    await this._processSubmitData(event, form, submitData, updateOptions);
  }
  static async #onEditImage(event, target) {
    if (target.nodeName !== "IMG") throw new Error("The editImage action is available only for IMG elements.");
    const attr = target.dataset.edit;
    const current = getProperty(this.document._source, attr);
    const picker = new foundry.applications.apps.FilePicker.implementation({ current, type: "image",
      callback: path => { target.src = path; if (this.options.form.submitOnChange) this.submit(); } });
    await picker.browse();
  }
}

class ActorSheetV2 extends DocumentSheetV2 {
  get actor() { return this.document; }
}
class ItemSheetV2 extends DocumentSheetV2 {
  get item() { return this.document; }
  get actor() { return this.document.actor; }
}

/** FilePicker (client/applications/apps/file-picker.d.mts): here it only opens and remembers its request. */
class FilePicker extends HandlebarsApplicationMixin(ApplicationV2) {
  static get implementation() { return FilePicker; }
  constructor(options = {}) {
    super({ id: "file-picker-{id}", window: { title: "FILES.Browse" } });
    this.request = options.current ?? null;
    this.type = options.type ?? "any";
    this.callback = options.callback ?? null;
  }
  async browse() { return this.render({ force: true }); }
}

/**
 * RollResolver (client/applications/dice/roll-resolver.d.mts): v13's manual dice entry. For each
 * die of the roll the user rolls by hand (`core.diceConfiguration` names an interactive method
 * for its denomination, `manual`), an input; the faces typed in are the results, once submitted.
 */
class RollResolver extends HandlebarsApplicationMixin(ApplicationV2) {
  static DEFAULT_OPTIONS = { id: "roll-resolver-{id}", tag: "form", classes: ["roll-resolver"], window: { title: "DICE.RollResolution" },
    form: { handler: RollResolver._fulfillRoll, submitOnChange: false, closeOnSubmit: false } };
  static PARTS = { form: { template: "templates/dice/roll-resolver.hbs" } };
  #roll;
  /** @type {Map<string, foundry.applications.dice.RollResolver.DiceTermFulfillmentDescriptor>} */
  #fulfillable = new Map();
  /** Results typed in, by `method:denomination`, in order. @type {Map<string, number[]>} */
  #results = new Map();
  /** @type {(() => void) | null} */
  #done = null;
  constructor(roll, options = {}) {
    super(options);
    this.#roll = roll;
  }
  get roll() { return this.#roll; }
  get fulfillable() { return this.#fulfillable; }
  async awaitFulfillment() {
    for (const [index, term] of this.#roll.terms.entries()) {
      const method = term instanceof Die ? term.method : undefined;
      if (!method || !CONFIG.Dice.fulfillment.methods[method]?.interactive) continue;
      for (let n = 0; n < term.number; n++) {
        const id = `${index}-${n}`;
        this.#fulfillable.set(id, { id, term, method, isNew: true });
      }
    }
    if (!this.#fulfillable.size) return;
    const done = new Promise(resolve => { this.#done = () => resolve(undefined); });
    await this.render({ force: true });
    await done;
  }
  registerResult(method, denomination, result) {
    const key = `${method}:${denomination}`;
    this.#results.set(key, [...(this.#results.get(key) ?? []), result]);
    return true;
  }
  async resolveResult(term, method) {
    return this.#results.get(`${method}:d${term.faces}`)?.shift();
  }
  async _prepareContext(options) {
    const dice = [...this.#fulfillable.values()].map(({ id, term }) => ({ id, denomination: `d${term.faces}`, faces: term.faces }));
    return Object.assign(await super._prepareContext(options), { formula: this.#roll.formula, dice });
  }
  static async _fulfillRoll(event, form, formData) {
    for (const [id, value] of Object.entries(formData.object)) {
      const die = this.fulfillable.get(id);
      if (die && Number.isFinite(value)) this.registerResult(die.method, `d${die.term.faces}`, Number(value));
    }
    this.#done?.();
  }
}

/* ---- The canvas (client/canvas/*.d.mts, common/grid/*.d.mts): a scene's grid, tokens and templates ---- */

/**
 * UserTargets (client/canvas/placeables/tokens/targets.d.mts): the Token placeables a user targets.
 */
class UserTargets extends Set {
  constructor(user) {
    super();
    this.user = user;
  }
  get ids() { return [...this].map(token => token.id); }
}

/** The parts of PIXI (pixi.js 7) the system draws with: a polygon of points, and display containers with events. */
class PixiPolygon {
  constructor(...points) { this.points = Array.isArray(points[0]) ? [...points[0]] : points; }
  contains(x, y) {
    let inside = false;
    const p = this.points;
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      if ((p[i + 1] > y) !== (p[j + 1] > y) && x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) inside = !inside;
    }
    return inside;
  }
}
class PixiContainer {
  children = [];
  #listeners = new Map();
  addChild(...children) { this.children.push(...children); return children[0]; }
  removeChildren() { return this.children.splice(0); }
  on(event, fn) { this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), fn]); return this; }
  off(event, fn) { this.#listeners.set(event, (this.#listeners.get(event) ?? []).filter(f => f !== fn)); return this; }
  /** @returns {boolean} */
  emit(event, ...args) {
    const listeners = this.#listeners.get(event) ?? [];
    for (const fn of [...listeners]) fn(...args);
    return listeners.length > 0;
  }
}

/**
 * foundry.grid.SquareGrid (common/grid/square.d.mts): offsets `{i, j}` (row, column), points, and
 * paths measured by its diagonal rule (the world's core.gridDiagonals, as v13's scenes use it).
 */
class SquareGrid {
  constructor({ size = 100, distance = 1, units = "", diagonals = 0 } = {}) {
    Object.assign(this, { size, sizeX: size, sizeY: size, distance, units, diagonals, type: 1 });
  }
  get isSquare() { return true; }
  get isGridless() { return false; }
  get isHexagonal() { return false; }
  getOffset(coords) {
    if ("i" in coords) return { i: coords.i, j: coords.j };
    return { i: Math.floor(coords.y / this.size), j: Math.floor(coords.x / this.size) };
  }
  getTopLeftPoint(coords) {
    const { i, j } = this.getOffset(coords);
    return { x: j * this.size, y: i * this.size };
  }
  getCenterPoint(coords) {
    const { x, y } = this.getTopLeftPoint(coords);
    return { x: x + this.size / 2, y: y + this.size / 2 };
  }
  getSnappedPoint(point) { return this.getCenterPoint(point); }
  /** The spaces, distance and cost of a path, a diagonal step counted by the grid's rule (EQUIDISTANT: 1; EXACT: √2; the rest as 1.5). */
  measurePath(waypoints) {
    let spaces = 0;
    let distance = 0;
    let diagonalsSoFar = 0;
    for (let k = 1; k < waypoints.length; k++) {
      const a = this.getOffset(waypoints[k - 1]);
      const b = this.getOffset(waypoints[k]);
      const di = Math.abs(b.i - a.i);
      const dj = Math.abs(b.j - a.j);
      const diagonals = Math.min(di, dj);
      const straight = Math.max(di, dj) - diagonals;
      const rule = this.diagonals;
      const diagonalCost = rule === 0 ? diagonals : rule === 1 ? diagonals * Math.SQRT2 : rule === 3 ? 2 * diagonals
        : rule === 4 ? diagonals + Math.floor((diagonals + (diagonalsSoFar % 2)) / 2) : rule === 5 ? diagonals + Math.ceil((diagonals + (diagonalsSoFar % 2)) / 2)
          : 1.5 * diagonals;
      diagonalsSoFar += diagonals;
      spaces += straight + diagonalCost;
      distance += (straight + diagonalCost) * this.distance;
    }
    return { distance, spaces, cost: distance, waypoints: [] };
  }
}

/** foundry.canvas.placeables.PlaceableObject (client/canvas/placeables/placeable-object.d.mts): an object of a viewed scene's document. */
class PlaceableObject extends PixiContainer {
  constructor(document) {
    super();
    this.document = document;
  }
  get id() { return this.document.id; }
  get scene() { return this.document.parent; }
  async draw() { this.refresh(); return this; }
  refresh() { canvas.paint(); return this; }
  destroy() { this.removeChildren(); }
}

/** foundry.canvas.placeables.Token (client/canvas/placeables/token.d.mts): where it stands, and who targets it. */
class Token extends PlaceableObject {
  /** @returns {foundry.canvas.layers.TokenLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.TokenLayer} */ (/** @type {unknown} */ (canvas.tokens)); }
  get actor() { return this.document.actor; }
  get name() { return this.document.name; }
  get x() { return this.document.x; }
  get y() { return this.document.y; }
  get w() { return this.document.width * canvas.grid.size; }
  get h() { return this.document.height * canvas.grid.size; }
  get center() { return { x: this.x + this.w / 2, y: this.y + this.h / 2 }; }
  get isTargeted() { return game.user.targets.has(this); }
  /** v13's: whether the user controls (has selected) this token. */
  get controlled() { return this.layer.controlledObjects.has(this.id); }
  /** v13's: select this token, releasing the others unless `releaseOthers` is false. */
  control({ releaseOthers = true } = {}) {
    if (releaseOthers) this.layer.releaseAll();
    this.layer.controlledObjects.set(this.id, this);
    canvas.paint();
    return true;
  }
  /** v13's: deselect this token. */
  release() {
    this.layer.controlledObjects.delete(this.id);
    canvas.paint();
    return true;
  }
  /**
   * v13's (Token#isVisible, kept in `visible`): a hidden token is seen by a GM only; another is
   * seen where the user's vision reaches it. The shim has no vision: a test puts a token out of
   * the user's sight with {@link putOutOfSight}.
   */
  get visible() { return !(this.document.hidden && !game.user.isGM) && !OUT_OF_SIGHT.has(this.document.id); }
  get renderable() { return true; }
  /**
   * v13's: this token targeted (or not) by the user, releasing the others unless `releaseOthers`
   * is false; the user's targets are broadcast to the other clients unless it is one step of a
   * group selection (`groupSelection`: the caller broadcasts once at the end).
   */
  setTarget(targeted = true, { user = null, releaseOthers = true, groupSelection = false } = {}) {
    user ??= game.user;
    const targets = user.targets;
    if (releaseOthers) for (const token of [...targets]) if (token !== this) targets.delete(token);
    if (targeted) targets.add(this);
    else targets.delete(this);
    if (!groupSelection) user.broadcastActivity({ targets: targets.ids });
    canvas.paint();
  }
}

/**
 * The ids of tokens the user's vision does not reach (walls, darkness). Test plumbing: Foundry
 * computes it from vision sources.
 * @type {Set<string>}
 */
const OUT_OF_SIGHT = new Set();

/**
 * Put a token out of (or back into) the user's sight. Test plumbing (an export).
 * @param {string} tokenId
 * @param {boolean} [out]
 */
export function putOutOfSight(tokenId, out = true) {
  if (out) OUT_OF_SIGHT.add(tokenId);
  else OUT_OF_SIGHT.delete(tokenId);
}

/**
 * foundry.canvas.placeables.MeasuredTemplate (client/canvas/placeables/template.d.mts): its shape
 * (`_computeShape`, from t, distance, direction, angle, width) and the grid spaces it highlights
 * (`_getGridHighlightPositions`: the spaces whose centres are inside its shape), drawn by the board.
 */
class MeasuredTemplate extends PlaceableObject {
  /** @returns {foundry.canvas.layers.TemplateLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.TemplateLayer} */ (/** @type {unknown} */ (canvas.templates)); }
  /** @type {PIXI.Polygon | undefined} */
  shape = undefined;
  refresh() {
    this.shape = this._computeShape();
    return super.refresh();
  }
  _computeShape() {
    const { t, distance, direction, angle, width } = this.document;
    const r = (distance / canvas.grid.distance) * canvas.grid.size;
    const rad = d => (d * Math.PI) / 180;
    const point = (deg, len) => [Math.cos(rad(deg)) * len, Math.sin(rad(deg)) * len];
    if (t === "circle") return new PixiPolygon(Array.from({ length: 32 }, (_, k) => point((360 * k) / 32, r)).flat());
    if (t === "cone") {
      const half = (angle || 90) / 2;
      return new PixiPolygon([0, 0, ...Array.from({ length: 9 }, (_, k) => point(direction - half + (k * 2 * half) / 8, r)).flat()]);
    }
    if (t === "rect") {
      const [dx, dy] = point(direction, r);
      return new PixiPolygon([0, 0, dx, 0, dx, dy, 0, dy]);
    }
    const w = ((width || canvas.grid.distance) / canvas.grid.distance) * canvas.grid.size / 2;
    const [ex, ey] = point(direction, r);
    const [nx, ny] = point(direction + 90, w);
    return new PixiPolygon([nx, ny, ex + nx, ey + ny, ex - nx, ey - ny, -nx, -ny]);
  }
  _getGridHighlightPositions() {
    const shape = this.shape ?? this._computeShape();
    const size = canvas.grid.size;
    const out = [];
    for (let y = 0; y < canvas.dimensions.height; y += size) {
      for (let x = 0; x < canvas.dimensions.width; x += size) {
        if (shape.contains(x + size / 2 - this.document.x, y + size / 2 - this.document.y)) out.push({ x, y });
      }
    }
    return out;
  }
}

/** v14's Region placeable (`foundry.canvas.placeables.Region`): its shapes' outlines, drawn by the board. */
class Region extends PlaceableObject {
  /** @returns {foundry.canvas.layers.RegionLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.RegionLayer} */ (/** @type {unknown} */ (canvas.regions)); }
}

/** A layer of placeables (client/canvas/layers/base/placeables-layer.d.mts): its objects by id, its preview, activation. */
class PlaceablesLayer extends PixiContainer {
  constructor() {
    super();
    this.objects = new PixiContainer();
    this.preview = new PixiContainer();
  }
  get placeables() { return this.objects.children; }
  get(id) { return this.placeables.find(object => object.id === id); }
  get active() { return canvas.activeLayer === this; }
  activate() { canvas.activeLayer = /** @type {foundry.canvas.layers.CanvasLayer} */ (/** @type {unknown} */ (this)); return this; }
  deactivate() { return this; }
  getSnappedPoint(point) { return canvas.grid.getSnappedPoint(point, {}); }
  clearPreviewContainer() { for (const object of this.preview.removeChildren()) object.destroy?.(); canvas.paint(); }
}
class TokenLayer extends PlaceablesLayer {
  /** v13's: the tokens the user controls, by id. */
  controlledObjects = new Map();
  get controlled() { return [...this.controlledObjects.values()]; }
  /** v13's: release every controlled token; the number released. */
  releaseAll() {
    const count = this.controlledObjects.size;
    this.controlledObjects.clear();
    return count;
  }
}
/**
 * v14's regions layer (API v14 `foundry.canvas.layers.RegionLayer`) and its `placeRegion(data,
 * options)` (`RegionPlacementOptions`: create, allowRotation, createOptions; and `onMove`): a
 * preview of the region follows the pointer (its shapes moved so that the first one's bounds'
 * centre is at the pointer; `onMove(context)` sees `{position, snap, shape, preview, document,
 * event, index, count}` first, may change `context.position`, and returning false keeps the
 * preview where it is); the wheel turns it when rotation is allowed (15°, 45° with Shift); a left
 * click confirms: the region is created (or, with `create: false`, the preview document is
 * returned); a right click skips its only shape, which returns null.
 */
class RegionLayer extends PlaceablesLayer {
  async placeRegion(data, { create = true, allowRotation = true, createOptions = {}, onMove } = {}) {
    const scene = canvas.scene;
    const doc = new CONFIG.Region.documentClass(deepClone(data), { parent: scene });
    const object = new CONFIG.Region.objectClass(doc);
    const initialLayer = canvas.activeLayer;
    this.activate();
    this.preview.addChild(object);
    await object.draw();
    const shapes = deepClone(doc._source.shapes);
    const points = shapePoints(shapes[0] ?? {});
    const xs = points.filter((_, k) => k % 2 === 0);
    const ys = points.filter((_, k) => k % 2 === 1);
    const reference = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
    let position = { ...reference };
    let rotation = 0;
    const place = () => {
      const rad = (rotation * Math.PI) / 180;
      const turn = (x, y) => [position.x + (x - reference.x) * Math.cos(rad) - (y - reference.y) * Math.sin(rad),
        position.y + (x - reference.x) * Math.sin(rad) + (y - reference.y) * Math.cos(rad)];
      doc.updateSource({ shapes: shapes.map(shape => {
        if (shape.type === "polygon") return { ...shape, points: shape.points.flatMap((v, k, all) => (k % 2 ? [] : turn(v, all[k + 1]))) };
        const [x, y] = turn(shape.x, shape.y);
        return { ...shape, x, y, ...(shape.type === "rectangle" ? { rotation: (shape.rotation ?? 0) + rotation } : {}) };
      }) });
      object.refresh();
    };
    const stage = canvas.stage;
    const view = canvas.app.view;
    return new Promise(resolve => {
      /** @param {((value: unknown) => unknown) | null} then */
      const finish = async then => {
        stage.off("mousemove", move);
        stage.off("mouseup", confirm);
        view.removeEventListener("wheel", wheel);
        view.oncontextmenu = null;
        this.clearPreviewContainer();
        initialLayer?.activate?.();
        if (!then) return resolve(null);
        if (!create) return resolve(doc);
        const created = await scene.createEmbeddedDocuments("Region", [doc.toObject()], createOptions);
        return resolve(created?.[0] ?? null);
      };
      const move = event => {
        const context = { position: event.getLocalPosition(this), snap: true, shape: doc.shapes[0], preview: object, document: doc, event, index: 0, count: 1 };
        if (onMove?.(context) === false) return;
        position = { x: context.position.x, y: context.position.y };
        place();
      };
      const wheel = event => {
        if (!allowRotation) return;
        event.preventDefault();
        rotation += Math.sign(event.deltaY) * (event.shiftKey ? 45 : 15);
        place();
      };
      const confirm = event => {
        if (event.button !== 0) return;
        finish(resolve);
      };
      stage.on("mousemove", move);
      stage.on("mouseup", confirm);
      view.addEventListener("wheel", wheel);
      view.oncontextmenu = event => {
        event.preventDefault();
        finish(null);
      };
    });
  }
}

/**
 * v13's templates layer, with its own left-drag: on the active layer, a left press that moves
 * further than the drag resistance draws a new template (`_onDragLeftStart`) and the release
 * creates it (`_onDragLeftDrop`), unless the drag was cancelled (`_onDragLeftCancel`). The
 * layer's interaction manager handles the release after the stage's own listeners (a workflow
 * that uses the pointer, as a template preview does, cancels the layer's drag there).
 */
class TemplateLayer extends PlaceablesLayer {
  /** @type {{origin: {x: number, y: number}, preview: MeasuredTemplate | null} | null} */
  #drag = null;
  /**
   * Core's drag workflow on this layer, from the stage's pointer.
   * @shim-unchecked test plumbing: Foundry's MouseInteractionManager of the layer
   */
  listenTo(stage) {
    stage.on("mousedown", event => {
      if (!this.active || event.button !== 0) return;
      this.#drag = { origin: event.getLocalPosition(this), preview: null };
    });
    stage.on("mousemove", event => {
      const drag = this.#drag;
      if (!drag || drag.preview) return;
      const at = event.getLocalPosition(this);
      if (Math.hypot(at.x - drag.origin.x, at.y - drag.origin.y) < 10) return;
      const doc = new MeasuredTemplateDocument({ t: "circle", x: drag.origin.x, y: drag.origin.y, distance: 1 }, { parent: canvas.scene });
      drag.preview = new (CONFIG.MeasuredTemplate.objectClass ?? MeasuredTemplate)(doc);
      this.preview.addChild(drag.preview);
    });
    stage.on("mouseup", event => {
      if (event.button !== 0) return;
      setTimeout(() => {
        const drag = this.#drag;
        this.#drag = null;
        if (!drag?.preview) return;
        this.clearPreviewContainer();
        canvas.scene?.createEmbeddedDocuments("MeasuredTemplate", [drag.preview.document.toObject()]);
      }, 0);
    });
  }
  /** v13's: the layer's drag is cancelled, its preview cleared. */
  _onDragLeftCancel(event) {
    this.#drag = null;
    this.clearPreviewContainer();
  }
}

/**
 * The Canvas (client/canvas/board.d.mts) of one viewed scene: `draw(scene)` builds its grid (the
 * scene's size and distance, the world's diagonal rule) and its placeables, which follow their
 * documents. PIXI draws nothing here: the board below paints the scene into a 2D canvas element
 * (`app.view`), and the pointer on it reaches the stage as PIXI's federated events do.
 */
class Canvas {
  /** @type {Scene | null} */
  #scene = null;
  /** @type {SquareGrid | null} */
  #grid = null;
  /** @type {PlaceablesLayer | null} */
  #activeLayer = null;
  tokens = new TokenLayer();
  /** v13's templates layer; v14 has the regions layer instead (its templates layer is deprecated). */
  templates = GENERATION >= 14 ? undefined : new TemplateLayer();
  regions = GENERATION >= 14 ? new RegionLayer() : undefined;
  /** @returns {foundry.canvas.layers.CanvasLayer | null} the layer the user works on */
  get activeLayer() { return /** @type {foundry.canvas.layers.CanvasLayer | null} */ (/** @type {unknown} */ (this.#activeLayer)); }
  set activeLayer(layer) { this.#activeLayer = /** @type {PlaceablesLayer | null} */ (/** @type {unknown} */ (layer)); }
  stage = new PixiContainer();
  app = { view: document.createElement("canvas"), stage: this.stage };
  get ready() { return !!this.#scene; }
  get scene() { return this.#scene; }
  get grid() { return this.#grid; }
  // The shim's scenes have no padding: the scene's rectangle is the whole board.
  get dimensions() { return this.#scene ? { width: this.#scene.width, height: this.#scene.height, size: this.#grid.size, distance: this.#grid.distance,
    sceneRect: { x: 0, y: 0, width: this.#scene.width, height: this.#scene.height } } : null; }
  get id() { return this.#scene?.id ?? null; }
  async draw(scene = null) {
    this.#scene = scene;
    if (!scene) return this;
    const { size, distance, units } = scene.grid;
    this.#grid = new SquareGrid({ size, distance, units, diagonals: game.settings.get("core", "gridDiagonals") });
    this.refresh();
    this.activeLayer = this.tokens;
    Hooks.callAll("canvasReady", this);
    return this;
  }
  /**
   * Placeables made anew for the scene's documents.
   * @shim-unchecked test plumbing: Foundry's placeables follow their documents by themselves
   */
  refresh() {
    const scene = this.#scene;
    if (!scene) return;
    const targeted = new Set(game.user.targets.ids);
    game.user.targets.clear();
    this.tokens.objects.removeChildren();
    this.tokens.objects.addChild(...scene.tokens.map(doc => new Token(doc)));
    for (const token of this.tokens.placeables) if (targeted.has(token.id)) game.user.targets.add(token);
    if (GENERATION >= 14) {
      this.regions.objects.removeChildren();
      this.regions.objects.addChild(...scene.regions.map(doc => new CONFIG.Region.objectClass(doc)));
    } else {
      // the configured class draws the system's templates
      const cls = CONFIG.MeasuredTemplate.objectClass ?? MeasuredTemplate;
      this.templates.objects.removeChildren();
      this.templates.objects.addChild(...scene.templates.map(doc => new cls(doc)));
      for (const template of this.templates.placeables) template.shape = template._computeShape();
    }
    this.paint();
  }
  /**
   * Paint the board.
   * @shim-unchecked test plumbing: stands in for PIXI's rendering, for screenshots
   */
  paint() { paintBoard(this); }
}

/** Token images loaded for the board, by path. @type {Map<string, HTMLImageElement>} */
const BOARD_IMAGES = new Map();

/**
 * The board: the viewed scene painted into `canvas.app.view` (grid lines, each template's
 * highlighted spaces and outline, tokens with their names, targets ringed). Test plumbing: the
 * shim's stand-in for PIXI's rendering, so screenshots show the scene.
 */
function paintBoard(board) {
  const view = board.app.view;
  const scene = board.scene;
  if (!scene) return;
  const grid = board.grid;
  view.width = scene.width;
  view.height = scene.height;
  view.id ||= "board";
  if (!view.isConnected) document.body.append(view);
  const g = view.getContext("2d");
  g.fillStyle = "#e8e4d8";
  g.fillRect(0, 0, view.width, view.height);
  g.strokeStyle = "rgba(0,0,0,0.25)";
  g.lineWidth = 1;
  for (let x = 0; x <= view.width; x += grid.size) { g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, view.height); g.stroke(); }
  for (let y = 0; y <= view.height; y += grid.size) { g.beginPath(); g.moveTo(0, y + 0.5); g.lineTo(view.width, y + 0.5); g.stroke(); }
  // v14's regions: each shape filled, its outline drawn (holes left unfilled).
  for (const region of GENERATION >= 14 ? [...board.regions.placeables, ...board.regions.preview.children] : []) {
    for (const shape of region.document.shapes) {
      const points = shapePoints(shape);
      if (!points.length) continue;
      g.beginPath();
      for (let k = 0; k < points.length; k += 2) g[k ? "lineTo" : "moveTo"](points[k], points[k + 1]);
      g.closePath();
      g.fillStyle = shape.hole ? "#e8e4d8" : "rgba(200, 60, 30, 0.35)";
      g.fill();
      g.strokeStyle = "rgba(150, 30, 10, 0.9)";
      g.lineWidth = 2;
      g.stroke();
    }
  }
  const templates = GENERATION >= 14 ? [] : [...board.templates.placeables, ...board.templates.preview.children];
  for (const template of templates) {
    g.fillStyle = "rgba(200, 60, 30, 0.35)";
    for (const { x, y } of template._getGridHighlightPositions()) g.fillRect(x, y, grid.size, grid.size);
    const points = template.shape?.points ?? [];
    if (points.length) {
      g.strokeStyle = "rgba(150, 30, 10, 0.9)";
      g.lineWidth = 3;
      g.beginPath();
      for (let k = 0; k < points.length; k += 2) g[k ? "lineTo" : "moveTo"](template.document.x + points[k], template.document.y + points[k + 1]);
      g.closePath();
      g.stroke();
    }
  }
  for (const token of board.tokens.placeables) {
    const src = token.document.texture?.src ?? CONST.DEFAULT_TOKEN;
    let img = BOARD_IMAGES.get(src);
    if (!img) {
      img = new Image();
      img.src = src;
      img.onload = () => board.paint();
      BOARD_IMAGES.set(src, img);
    }
    g.fillStyle = "#ffffff";
    g.fillRect(token.x + 4, token.y + 4, token.w - 8, token.h - 8);
    if (img.complete && img.naturalWidth) g.drawImage(img, token.x + 6, token.y + 6, token.w - 12, token.h - 12);
    g.fillStyle = "#000000";
    g.font = "11px sans-serif";
    g.fillText(token.name ?? "", token.x + 4, token.y + token.h - 4, token.w - 8);
    if (token.isTargeted) {
      g.strokeStyle = "#d4a000";
      g.lineWidth = 4;
      g.strokeRect(token.x + 2, token.y + 2, token.w - 4, token.h - 4);
    }
  }
}

/**
 * The pointer on the board reaches the stage as PIXI's federated events do: `mousemove`,
 * `mousedown`, `mouseup` (and their `pointer*` names) with `button`, `getLocalPosition` (the
 * canvas is drawn at its own scale, no pan or zoom) and `stopPropagation`.
 * @shim-unchecked test plumbing: PIXI's event system, from the DOM
 */
function listenToBoard(board) {
  const view = board.app.view;
  const relay = (dom, names) => view.addEventListener(dom, event => {
    const rect = view.getBoundingClientRect();
    const local = { x: event.clientX - rect.left, y: event.clientY - rect.top };
    const federated = { button: event.button, clientX: event.clientX, clientY: event.clientY, nativeEvent: event,
      getLocalPosition: () => ({ ...local }), stopPropagation: () => {} };
    federated.data = federated;
    for (const name of names) board.stage.emit(name, federated);
  });
  relay("mousemove", ["mousemove", "pointermove"]);
  relay("mousedown", ["mousedown", "pointerdown"]);
  relay("mouseup", ["mouseup", "pointerup"]);
  board.templates?.listenTo(board.stage);
}

/**
 * foundry.applications.ui.Hotbar (client/applications/ui/hotbar.d.mts): the user's ten slots of
 * the first page; a document dropped on a slot goes to `hotbarDrop` (a listener returning false
 * takes it over), else a macro dropped there is assigned; a click runs the slot's macro.
 */
class Hotbar extends ApplicationV2 {
  static DEFAULT_OPTIONS = { id: "hotbar", tag: "nav", window: { frame: false } };
  /** Over everything else, as Foundry keeps it (here in a corner the harness leaves free). */
  _insertElement(element) {
    element.style.cssText = "position: fixed; right: 8px; top: 8px; z-index: 50; display: flex; gap: 4px;";
    super._insertElement(element);
  }
  async _renderHTML() {
    const list = document.createElement("ol");
    list.id = "action-bar";
    // Foundry's stylesheet draws the slots as a row of squares.
    list.style.cssText = "display: flex; gap: 4px; margin: 0; padding: 4px; list-style: none; background: rgb(0 0 0 / 60%); border-radius: 6px;";
    for (let slot = 1; slot <= 10; slot++) {
      const macro = game.macros.get(game.user._source.hotbar?.[slot] ?? "") ?? null;
      const li = document.createElement("li");
      li.classList.add("slot", macro ? "full" : "open");
      li.dataset.slot = String(slot);
      li.style.cssText = "position: relative; width: 44px; height: 44px; border: 1px solid #888; border-radius: 4px; background: #222; color: #eee;";
      if (macro) {
        li.dataset.macroId = macro.id;
        li.dataset.tooltip = macro.name;
        const img = document.createElement("img");
        img.src = macro.img;
        img.alt = macro.name;
        img.style.cssText = "width: 100%; height: 100%;";
        li.append(img);
      }
      const key = document.createElement("span");
      key.classList.add("key");
      key.style.cssText = "position: absolute; top: 1px; left: 3px; font-size: 10px;";
      key.textContent = String(slot % 10);
      li.append(key);
      list.append(li);
    }
    return list;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  _attachFrameListeners() {
    super._attachFrameListeners();
    this.element.addEventListener("dragover", event => event.preventDefault());
    this.element.addEventListener("drop", event => this.#onDrop(event));
    this.element.addEventListener("click", event => {
      const slot = event.target instanceof Element ? event.target.closest(".slot[data-macro-id]") : null;
      if (slot instanceof HTMLElement) game.macros.get(slot.dataset.macroId ?? "")?.execute();
    });
  }
  async #onDrop(event) {
    event.preventDefault();
    const li = event.target instanceof Element ? event.target.closest(".slot") : null;
    if (!(li instanceof HTMLElement)) return;
    const slot = Number(li.dataset.slot);
    const data = TextEditor.getDragEventData(event);
    if (Hooks.call("hotbarDrop", this, data, slot) === false) return;
    if (data.type === "Macro") {
      const macro = await Macro.implementation.fromDropData(data);
      if (macro) await game.user.assignHotbarMacro(macro, slot);
    }
  }
}

/**
 * foundry.applications.ux.DragDrop (client/applications/ux/drag-drop.d.mts): `bind(html)` makes the
 * elements matching `dragSelector` draggable and calls back on dragstart, and on dragover and drop
 * over `dropSelector` (or the whole element); each permission is asked first. Its handlers are
 * bound once, so binding again after a render adds no second listener.
 */
class DragDrop {
  static get implementation() { return DragDrop; }
  constructor({ dragSelector = null, dropSelector = null, permissions = {}, callbacks = {} } = {}) {
    Object.assign(this, { dragSelector, dropSelector, permissions, callbacks });
    this._handleDragStart = this._handleDragStart.bind(this);
    this._handleDragOver = this._handleDragOver.bind(this);
    this._handleDrop = this._handleDrop.bind(this);
  }
  bind(html) {
    if (this.dragSelector && this.can("dragstart", this.dragSelector)) {
      for (const element of html.querySelectorAll(this.dragSelector)) {
        element.setAttribute("draggable", "true");
        element.addEventListener("dragstart", this._handleDragStart);
      }
    }
    if (this.can("drop", this.dropSelector)) {
      const targets = this.dropSelector ? html.querySelectorAll(this.dropSelector) : [html];
      for (const element of targets) {
        element.addEventListener("dragover", this._handleDragOver);
        element.addEventListener("drop", this._handleDrop);
      }
    }
    return this;
  }
  can(action, selector) { return this.permissions[action] ? this.permissions[action](selector) : true; }
  callback(event, action) { return this.callbacks[action]?.(event); }
  async _handleDragStart(event) {
    await this.callback(event, "dragstart");
    if (event.dataTransfer?.items.length) event.stopPropagation();
  }
  _handleDragOver(event) {
    event.preventDefault();
    this.callback(event, "dragover");
    return false;
  }
  _handleDrop(event) {
    event.preventDefault();
    return this.callback(event, "drop");
  }
}

/**
 * foundry.utils.performIntegerSort (client/utils/helpers.d.mts): `source` put before or after
 * `target` among `siblings` (after it when dragged down, before it when dragged up), every one
 * given a sort of (place × CONST.SORT_INTEGER_DENSITY).
 * @type {typeof foundry.utils.performIntegerSort} */
const performIntegerSort = (source, { target = null, siblings = [], sortKey = /** @type {never} */ ("sort"), sortBefore } = {}) => {
  const fields = (/** @type {unknown} */ value) => /** @type {{id?: unknown} & Record<string, unknown>} */ (value);
  const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => a === b || (fields(a).id !== undefined && fields(a).id === fields(b).id);
  const order = (/** @type {unknown} */ v) => Number(fields(v)[sortKey] ?? 0);
  const sorted = siblings.filter(s => !same(s, source)).sort((a, b) => order(a) - order(b));
  const before = sortBefore ?? (target ? order(source) > order(target) : true);
  let index = target ? sorted.findIndex(s => same(s, target)) : before ? 0 : sorted.length;
  if (index < 0) index = sorted.length;
  else if (target && !before) index += 1;
  sorted.splice(index, 0, source);
  return sorted.map((s, i) => ({ target: s, update: /** @type {never} */ ({ [sortKey]: (i + 1) * CONST.SORT_INTEGER_DENSITY }) }));
};

/** foundry.utils.getRoute (client/utils/helpers.d.mts): a path under the server's route prefix (none here). */
function getRoute(path, { prefix } = {}) {
  const clean = String(path).replace(/^\/+/, "");
  return `/${prefix ? `${prefix}/` : ""}${clean}`;
}

/** DialogV2 (client/applications/api/dialog.d.mts): answers as the user pressing the default button would. */
class DialogV2 extends ApplicationV2 {
  static DEFAULT_OPTIONS = { tag: "dialog", classes: ["dialog"], window: { minimizable: false } };
  /** v13's: the content in a form, the buttons (type, action, icon, label, default) in its footer. */
  async _renderHTML() {
    const form = document.createElement("form");
    form.className = "dialog-form standard-form";
    form.autocomplete = "off";
    const buttons = (this.options.buttons ?? []).map(b => `<button type="${b.type ?? "submit"}" data-action="${escapeHTML(b.action)}"${b.default ? ' class="default" autofocus' : ""}>`
      + `${b.icon ? `<i class="${escapeHTML(b.icon)}" inert></i>` : ""}<span>${escapeHTML(game.i18n.localize(b.label ?? ""))}</span></button>`).join("");
    form.innerHTML = `<div class="dialog-content standard-form">${this.options.content ?? ""}</div><footer class="form-footer">${buttons}</footer>`;
    return form;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  /** A non-modal `<dialog>` is shown open. */
  async _renderFrame(options) {
    const frame = await super._renderFrame(options);
    frame.setAttribute("open", "");
    return frame;
  }
  static async confirm() { return true; }
  static async prompt({ ok } = {}) { return ok?.callback ? ok.callback() : true; }
  static async input() { return {}; }
}

/**
 * Registrations made before the world's sheets are set up (core's own defaults, then the
 * system's at init), applied in order by {@link initializeSheets}, as v13 does once the world's
 * document types are known. @type {(() => void)[] | null}
 */
let pendingSheets = [];

/** Apply the sheet registrations made so far; later ones apply at once. */
function initializeSheets() {
  const pending = pendingSheets ?? [];
  pendingSheets = null;
  for (const apply of pending) apply();
}

/**
 * foundry.applications.apps.DocumentSheetConfig: registrations land in
 * `CONFIG[documentName].sheetClasses[type][scope.ClassName]` as in v13; without `types`, for
 * every type of the document (its data models' and "base").
 */
class DocumentSheetConfig {
  static registerSheet(documentClass, scope, sheetClass, { types, makeDefault = false, label } = {}) {
    const apply = () => {
      const config = CONFIG[documentClass.documentName];
      const id = `${scope}.${sheetClass.name}`;
      for (const type of types ?? [...Object.keys(config.dataModels ?? {}), "base"]) {
        config.sheetClasses[type] ??= {};
        if (makeDefault) for (const entry of Object.values(config.sheetClasses[type])) entry.default = false;
        config.sheetClasses[type][id] = { id, cls: sheetClass, default: makeDefault, label: label ?? id, canBeDefault: true, canConfigure: true };
      }
    };
    if (pendingSheets) pendingSheets.push(apply);
    else apply();
  }
  static unregisterSheet(documentClass, scope, sheetClass, { types } = {}) {
    const apply = () => {
      const config = CONFIG[documentClass.documentName];
      const id = `${scope}.${sheetClass.name}`;
      for (const type of types ?? Object.keys(config.sheetClasses)) delete config.sheetClasses[type]?.[id];
    };
    if (pendingSheets) pendingSheets.push(apply);
    else apply();
  }
}

/** foundry.appv1.sheets.ActorSheet / ItemSheet: core's default sheets in v13 (AppV1), never opened here. */
class ActorSheet {}
class ItemSheet {}

/**
 * TextEditor.implementation.enrichHTML (client/applications/ux/text-editor.d.mts), in v13's order:
 * content links (`documents`: `@UUID[...]{label}` as the document's anchor, a broken link when it
 * does not resolve), inline rolls (`rolls`: `[[1d20]]` evaluated into a result, `[[/r 1d20]]` a
 * roll button) and then each CONFIG.TextEditor.enrichers pattern (`custom`) replace their matches
 * in the content's text nodes. Hyperlinks, embeds and secrets are left as they are.
 */
class TextEditor {
  static get implementation() { return TextEditor; }
  /** v13's: the JSON a drag carries as text/plain, or an empty object. */
  static getDragEventData(event) {
    try {
      return JSON.parse(event.dataTransfer?.getData("text/plain") ?? "") ?? {};
    } catch {
      return {};
    }
  }
  /** v13's content link: `@UUID[uuid#hash]{label}`. */
  static #contentLinkPattern = /@(UUID)\[([^#\]]+)(?:#([^\]]+))?](?:{([^}]+)})?/g;
  static async #createContentLink(match) {
    const [, , uuid, hash, name] = match;
    const doc = await fromUuid(uuid);
    if (doc) return doc.toAnchor({ name, dataset: hash ? { hash } : {} });
    const anchor = document.createElement("a");
    anchor.classList.add("content-link", "broken");
    anchor.dataset.link = "";
    const icon = document.createElement("i");
    icon.className = "fa-solid fa-link-slash";
    anchor.append(icon, name ?? uuid);
    return anchor;
  }
  /** Clicks on content links anywhere open their document (v13 listens on the body). */
  static activateListeners() {
    document.body.addEventListener("click", event => {
      const link = event.target instanceof Element ? event.target.closest("a.content-link[data-uuid]") : null;
      if (!(link instanceof HTMLElement)) return;
      event.preventDefault();
      fromUuid(link.dataset.uuid).then(doc => doc?._onClickDocumentLink(event)).catch(error => console.error(error));
    });
  }
  static async enrichHTML(content, options = {}) {
    const template = document.createElement("template");
    template.innerHTML = String(content ?? "");
    if (options.documents !== false) {
      await TextEditor.#replaceText(template.content, TextEditor.#contentLinkPattern, match => TextEditor.#createContentLink(match));
    }
    if (options.rolls !== false) {
      await TextEditor.#replaceText(template.content, /\[\[(\/[a-z]+\s)?(.*?)(\]{2,3})/gi, match => TextEditor.#inlineRoll(match, options));
    }
    if (options.custom !== false) {
      for (const { pattern, enricher } of CONFIG.TextEditor.enrichers) {
        await TextEditor.#replaceText(template.content, pattern, match => enricher(match, options));
      }
    }
    return template.innerHTML;
  }
  /** Each match of `pattern` in the text nodes under `root`, replaced by what `make` returns (null: left as it is). */
  static async #replaceText(root, pattern, make) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.textContent;
      const regex = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
      const pieces = [];
      let last = 0;
      for (const match of text.matchAll(regex)) {
        const element = await make(match);
        if (!element) continue;
        pieces.push(text.slice(last, match.index), element);
        last = match.index + match[0].length;
      }
      if (!pieces.length) continue;
      pieces.push(text.slice(last));
      node.replaceWith(...pieces);
    }
  }
  /** `[[formula]]` rolled now (its total shown, the roll kept in `data-roll`); `[[/r formula]]` a button that rolls. */
  static async #inlineRoll([, command, formula], options) {
    const a = document.createElement("a");
    a.classList.add("inline-roll");
    if (command) {
      a.classList.add("roll");
      a.dataset.mode = command.trim().slice(1);
      a.dataset.formula = formula.trim();
      a.textContent = formula.trim();
      return a;
    }
    const data = typeof options.rollData === "function" ? options.rollData() : options.rollData ?? {};
    const roll = new Roll(formula.trim(), data);
    await roll.evaluate();
    a.classList.add("inline-result");
    a.dataset.tooltipText = roll.formula;
    a.dataset.roll = encodeURIComponent(JSON.stringify(roll));
    a.textContent = String(roll.total);
    return a;
  }
}

/**
 * AbstractSidebarTab (client/applications/sidebar/sidebar-tab.d.mts): a sidebar tab, rendered in
 * the sidebar without a window frame, its id its tab name.
 */
class AbstractSidebarTab extends ApplicationV2 {
  static DEFAULT_OPTIONS = { classes: ["tab", "sidebar-tab"], window: { frame: false } };
  static tabName = "";
  get tabName() { return this.constructor.tabName; }
  _initializeApplicationOptions(options) {
    const configured = super._initializeApplicationOptions(options);
    configured.id = this.constructor.tabName;
    return configured;
  }
  async _prepareContext(options) {
    return Object.assign(await super._prepareContext(options), { user: /** @type {NonNullable<typeof game.user>} */ (game.user) });
  }
  _insertElement(element) {
    const sidebar = document.getElementById("sidebar") ?? document.body.appendChild(Object.assign(document.createElement("section"), { id: "sidebar" }));
    const existing = document.getElementById(element.id);
    if (existing) existing.replaceWith(element);
    else sidebar.append(element);
  }
}

/**
 * foundry.applications.sidebar.tabs.CombatTracker (client/applications/sidebar/tabs/
 * combat-tracker.d.mts), as v13 has it: three parts from core's templates (the header with the
 * encounter controls, among them Roll All / Roll NPCs; the turns; the footer with the turn
 * controls), header and footer prepared by `_prepareCombatContext`, the turns by
 * `_prepareTrackerContext`. A click on an action without a handler goes to `_onClickAction`: a
 * `.combat-control` calls the viewed Combat's method of the action's name, a `.combatant-control`
 * goes to `_onCombatantControl` (hide, defeat, ping, pan, roll initiative).
 */
class CombatTracker extends HandlebarsApplicationMixin(AbstractSidebarTab) {
  static tabName = /** @type {const} */ ("combat");
  static DEFAULT_OPTIONS = {
    actions: {
      activateCombatant: CombatTracker.#onCombatantMouseDown,
      createCombat: CombatTracker.#onCombatCreate,
      cycleCombat: CombatTracker.#onCombatCycle
    }
  };
  static PARTS = {
    header: { template: "templates/sidebar/tabs/combat/header.hbs" },
    tracker: { template: "templates/sidebar/tabs/combat/tracker.hbs", scrollable: [""] },
    footer: { template: "templates/sidebar/tabs/combat/footer.hbs" }
  };
  /** The id of the combat the user chose to view; until then the active one (or the first). @type {string | null | undefined} */
  #viewedId = undefined;
  get combats() { return game.combats.combats; }
  get viewed() { return this.#viewedId === undefined ? game.combats.active ?? this.combats[0] ?? null : game.combats.get(this.#viewedId ?? "") ?? null; }
  set viewed(combat) { this.#viewedId = combat?.id ?? null; }
  async _preparePartContext(partId, context, options) {
    context = await super._preparePartContext(partId, context, options);
    if (partId === "header" || partId === "footer") await this._prepareCombatContext(context, options);
    else if (partId === "tracker") await this._prepareTrackerContext(context, options);
    return context;
  }
  async _prepareCombatContext(context) {
    const combat = this.viewed;
    const combats = this.combats;
    const index = combat ? combats.indexOf(combat) : -1;
    return Object.assign(context, {
      combat, hasCombat: combat !== null, nextId: combats[index + 1]?.id ?? null, previousId: index > 0 ? combats[index - 1].id : null,
      combats: combats.map((c, i) => ({ id: c.id, label: i + 1, active: c === combat })), control: false, css: "",
      currentIndex: index + 1, displayCycle: combats.length > 1, initiativeIcon: "fa-solid fa-dice-d20", link: !!combat?.scene,
      labels: { scope: combat?.scene ? "COMBAT.Linked" : "COMBAT.Unlinked" }
    });
  }
  async _prepareTrackerContext(context) {
    const combat = this.viewed;
    const turns = [];
    for (const [i, combatant] of (combat?.turns ?? []).entries()) if (combat && combatant.visible) turns.push(await this._prepareTurnContext(combat, combatant, i));
    Object.assign(context, { turns, hasDecimals: false });
  }
  async _prepareTurnContext(combat, combatant, index) {
    const active = combat.turn === index;
    return { id: combatant.id, name: combatant.name, img: await this._getCombatantThumbnail(combatant), initiative: combatant.initiative,
      hidden: combatant.hidden, isDefeated: combatant.isDefeated, isOwner: combatant.isOwner, active, canPing: false,
      resource: null, hasDecimals: false, effects: { icons: [], tooltip: "" },
      css: [active ? "active" : "", combatant.hidden ? "hide" : "", combatant.isDefeated ? "defeated" : ""].filter(Boolean).join(" ") };
  }
  async _getCombatantThumbnail(combatant) { return combatant.img ?? CONST.DEFAULT_TOKEN; }
  async _onClickAction(event, target) {
    if (target.classList.contains("combat-control")) {
      const combat = this.viewed;
      const method = combat?.[target.dataset.action];
      if (typeof method === "function") await method.call(combat);
      return;
    }
    if (target.classList.contains("combatant-control")) await this._onCombatantControl(event, target);
  }
  async _onCombatantControl(event, target) {
    const id = target.closest("[data-combatant-id]")?.getAttribute("data-combatant-id") ?? "";
    const combatant = this.viewed?.combatants.get(id);
    if (!combatant) return undefined;
    switch (target.dataset.action) {
      case "pingCombatant": return this._onPingCombatant(combatant);
      case "panToCombatant": return this._onPanToCombatant(combatant);
      case "rollInitiative": return this._onRollInitiative(combatant);
      case "toggleDefeated": return this._onToggleDefeatedStatus(combatant);
      case "toggleHidden": return this._onToggleHidden(combatant);
    }
    return undefined;
  }
  /** No canvas here: nothing to ping or pan to. */
  _onPingCombatant() {}
  _onPanToCombatant() {}
  _onCombatantMouseDown() {}
  _onRollInitiative(combatant) { return this.viewed?.rollInitiative([combatant.id]); }
  /** v13's: the Combatant's `defeated`, then the actor's DEFEATED status (as an overlay) to match. */
  async _onToggleDefeatedStatus(combatant) {
    const isDefeated = !combatant.isDefeated;
    await combatant.update({ defeated: isDefeated });
    await combatant.actor?.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { overlay: true, active: isDefeated });
  }
  _onToggleHidden(combatant) { return combatant.update({ hidden: !combatant.hidden }); }
  async _onCombatCreate() {
    await Combat.implementation.create({ active: true });
  }
  async _onCombatCycle(event, target) {
    const combat = game.combats.get(target.dataset.combatId ?? "");
    if (!combat) return combat;
    this.viewed = combat;
    await this.render();
    return combat;
  }
  /**
   * Core's combatant menu (not drawn here: no ContextMenu), in the generation's shape: v13's
   * `{name, condition, callback(li)}` and `COMBAT.Combatant*` keys, v14's
   * `{label, visible, onClick(event, li)}` and `COMBATANT.ACTIONS.*` keys.
   * @shim-unchecked v14's entries ({label, visible, onClick}: API v14 foundry.ContextMenuEntry) are not in foundry-vtt-types 13, which holds only v13's
   */
  _getEntryContextOptions() {
    const combatant = li => this.viewed?.combatants.get(li.dataset.combatantId ?? "");
    return [
      ["Update", "COMBAT.CombatantUpdate", '<i class="fa-solid fa-pen-to-square"></i>', () => true, () => {}],
      ["Clear", "COMBAT.CombatantClear", '<i class="fa-solid fa-arrow-rotate-left"></i>', li => Number.isFinite(combatant(li)?.initiative),
        li => { combatant(li)?.update({ initiative: null }); }],
      ["Reroll", "COMBAT.CombatantReroll", '<i class="fa-solid fa-dice-d20"></i>', () => true,
        li => { const c = combatant(li); if (c) this.viewed?.rollInitiative([c.id]); }],
      ["Remove", "COMBAT.CombatantRemove", '<i class="fa-solid fa-trash"></i>', () => true, li => { combatant(li)?.delete(); }]
    ].map(([v14, v13, icon, visible, act]) => (GENERATION >= 14
      ? { label: `COMBATANT.ACTIONS.${v14}`, icon, visible, onClick: (event, li) => act(li) }
      : { name: v13, icon, condition: visible, callback: act }));
  }
  /**
   * Core's encounter menu, in the generation's shape (the same keys in both).
   * @shim-unchecked v14's entries ({label, visible, onClick}: API v14 foundry.ContextMenuEntry) are not in foundry-vtt-types 13, which holds only v13's
   */
  _getCombatContextOptions() {
    return [
      ["COMBAT.InitiativeReset", '<i class="fa-solid fa-arrow-rotate-left"></i>', () => {}],
      ["COMBAT.Delete", '<i class="fa-solid fa-trash"></i>', () => { this.viewed?.endCombat(); }]
    ].map(([key, icon, act]) => (GENERATION >= 14
      ? { label: key, icon, visible: () => !!this.viewed, onClick: () => act() }
      : { name: key, icon, condition: () => !!this.viewed, callback: act }));
  }
  static #onCombatantMouseDown(event, target) { return this._onCombatantMouseDown(event, target); }
  static #onCombatCreate(event, target) { return this._onCombatCreate(event, target); }
  static #onCombatCycle(event, target) { return this._onCombatCycle(event, target); }
}

/**
 * CombatEncounters (client/documents/collections/combat-encounters.d.mts): the world's combats,
 * those of the viewed scene (none is viewed here: the unlinked ones), the active one and the one
 * the tracker shows.
 */
class CombatEncounters extends WorldCollection {
  get combats() { return this.filter(combat => combat.scene === null); }
  get active() { return this.combats.find(combat => combat.active); }
  get viewed() { return ui.combat?.viewed ?? null; }
}

/**
 * Core's chat commands as v13 matches them (ChatLog.MESSAGE_PATTERNS' names): a `/word` that is
 * none of these and no system's is refused.
 */
const CORE_COMMANDS = /^\/(?:r(?:oll)?|gmr(?:oll)?|b(?:lind)?r(?:oll)?|s(?:elf)?r(?:oll)?|p(?:ublic)?r(?:oll)?|ooc|ic|em(?:ote)?|me|w(?:hisper)?|reply|gm|players|m(?:acro)?)(?:\s|$)/i;

/**
 * What the chat input hands ChatLog#processMessage for a line the user typed: v13's textarea
 * gives the text; v14's input is a ProseMirror editor, which gives its document as HTML (a
 * paragraph, the text's `&`, `<`, `>` escaped), the form `chatMessage` listeners then see.
 * Test plumbing: an export, not Foundry API.
 * @param {string} text
 */
export function chatInput(text) {
  return GENERATION >= 14 ? `<p>${escapeHTML(text).replace(/&quot;/g, '"').replace(/&#x27;/g, "'")}</p>` : text;
}

/**
 * The chat log (foundry.applications.sidebar.tabs.ChatLog): messages appear in `#chat` as Foundry
 * renders them, and what the user sends goes through `processMessage` as the generation does it.
 * v13: the `chatMessage` hook sees the text (false stops it), then core's commands; an unknown
 * `/word` throws CHAT.InvalidCommand. v14: the hook sees the editor's HTML, then the registry
 * `ChatLog.CHAT_COMMANDS` (`{rgx, fn}` per command, matched against the HTML without its outer
 * `<p>`; `fn.call(chatLog, command, match, chatData, createOptions)`, false sends nothing);
 * an unknown `/word` throws the same.
 */
class ChatLog {
  /**
   * Send what the user typed (the input's form: {@link chatInput}).
   * @param {string} message
   */
  async processMessage(message) {
    message = message.trim();
    if (!message) return undefined;
    const chatData = { user: game.user.id, speaker: ChatMessage.implementation.getSpeaker() };
    /** @type {Record<string, unknown>} */
    const createOptions = {};
    if (Hooks.call("chatMessage", this, message, chatData) === false) return undefined;
    const html = GENERATION >= 14 ? message.replace(/^<p>|<\/p>$/gi, "") : message;
    if (GENERATION >= 14) {
      const commands = /** @type {Record<string, {rgx: RegExp, fn?: Function}>} */ (/** @type {{CHAT_COMMANDS?: object}} */ (this.constructor).CHAT_COMMANDS ?? {});
      for (const [command, { rgx, fn }] of Object.entries(commands)) {
        const match = html.match(rgx);
        if (!match) continue;
        const result = await fn?.call(this, command, match, chatData, createOptions);
        if (result === false) return undefined;
        return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
      }
    } else if (CORE_COMMANDS.test(html)) return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
    const command = /^(\/[^\s]+)/.exec(html)?.[1];
    if (command) throw new Error(game.i18n.format("CHAT.InvalidCommand", { command }));
    return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
  }
  async postOne(message) {
    document.querySelector("#chat")?.append(await message.renderHTML());
  }
  async updateMessage(message) {
    const existing = document.querySelector(`#chat [data-message-id="${message.id}"]`);
    if (!existing) return;
    existing.replaceWith(await message.renderHTML());
  }
  deleteMessage(id) { document.querySelector(`#chat [data-message-id="${id}"]`)?.remove(); }
}

if (GENERATION >= 14) {
  /**
   * v14's registry of chat commands, core's own in it (what they do is not modelled: their text is
   * posted as it is).
   */
  // Merged in, not declared on the class: the member is v14's (module/types/chat-log.d.ts declares it for the system).
  Object.assign(ChatLog, { CHAT_COMMANDS: Object.fromEntries(["roll", "gmroll", "blindroll", "selfroll", "publicroll", "ooc", "ic", "emote", "whisper", "reply", "gm", "players", "macro"]
    .map(name => [name, { rgx: new RegExp(`^(/${name === "roll" ? "r(?:oll)?" : name === "emote" ? "(?:em(?:ote)?|me)" : name} )([^]*)`, "i") }])) });
}

/** ClientSettings (client/helpers/client-settings.d.mts). */
class ClientSettings {
  #values = new Map();
  #config = new Map();
  menus = new Map();
  register(namespace, key, config) {
    const id = `${namespace}.${key}`;
    this.#config.set(id, { ...config, key, namespace });
    if (!this.#values.has(id)) this.#values.set(id, deepClone(config.default));
  }
  registerMenu(namespace, key, config) { this.menus.set(`${namespace}.${key}`, config); }
  get(namespace, key) {
    const id = `${namespace}.${key}`;
    if (!this.#config.has(id)) throw new Error(`"${id}" is not a registered game setting`);
    return deepClone(this.#values.get(id));
  }
  async set(namespace, key, value) {
    const id = `${namespace}.${key}`;
    const config = this.#config.get(id);
    if (!config) throw new Error(`"${id}" is not a registered game setting`);
    this.#values.set(id, deepClone(value));
    config.onChange?.(value);
    return value;
  }
}

/** Notifications (client/applications/ui/notifications.d.mts): kept, so tests can read them. */
class Notifications {
  /** @shim-unchecked what was shown, for the tests to read (Foundry's queue holds only what waits to be shown) */
  queue = [];
  #notify(type, message, { localize = false, format, progress = false } = {}) {
    const text = format ? game.i18n.format(message, format) : localize ? game.i18n.localize(message) : String(message);
    this.queue.push({ type, message: text });
    // v13's progress notification: update({pct, message}) moves its bar and changes its text.
    const shown = { type, message: text, progress: !!progress, pct: 0 };
    if (progress) Object.assign(shown, { update: ({ pct, message: next } = {}) => Object.assign(shown, pct === undefined ? {} : { pct }, next ? { message: next } : {}) });
    return shown;
  }
  info(message, options) { return this.#notify("info", message, options); }
  warn(message, options) { return this.#notify("warning", message, options); }
  error(message, options) { return this.#notify("error", message, options); }
  success(message, options) { return this.#notify("success", message, options); }
}

/**
 * foundry.utils.cleanHTML (client/utils/helpers.d.mts): script-capable HTML removed (elements
 * that run code, `on*` attributes, javascript: URLs).
 */
function cleanHTML(raw) {
  const template = document.createElement("template");
  template.innerHTML = String(raw);
  for (const element of template.content.querySelectorAll("script, iframe, object, embed")) element.remove();
  for (const element of template.content.querySelectorAll("*")) {
    for (const attr of [...element.attributes]) {
      if (/^on/i.test(attr.name) || attr.name === "srcdoc" || /^\s*javascript:/i.test(attr.value)) element.removeAttribute(attr.name);
    }
  }
  return template.innerHTML;
}

/** foundry.utils.escapeHTML (common/utils/helpers.d.mts): the five HTML-special characters as entities. */
function escapeHTML(value) {
  return String(value).replace(/[&<>"']/g, c => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#x27" }[c]};`);
}

/** fromUuid / foundry.utils.fromUuidSync for world documents and their embedded ones. */
function fromUuidSync(uuid) {
  let parts = String(uuid ?? "").split(".");
  let doc = null;
  if (parts[0] === "Compendium") {
    // Compendium.<package>.<pack>.<Type>.<id>[.<Type>.<id>...]
    const pack = game.packs.get(`${parts[1]}.${parts[2]}`);
    doc = pack?.documentName === parts[3] ? pack.get(parts[4]) ?? null : null;
    if (!doc) return null;
    parts = parts.slice(5);
  }
  for (let i = 0; i < parts.length; i += 2) {
    const [name, id] = [parts[i], parts[i + 1]];
    if (!doc) doc = game[CONFIG[name]?.documentClass?.collectionName]?.get(id) ?? null;
    else if (doc instanceof TokenDocument && name === "Actor") doc = doc.actor?.id === id ? doc.actor : null;
    else {
      const field = doc.constructor.getCollectionName(name);
      doc = field ? doc[field].get(id) ?? null : null;
    }
    if (!doc) return null;
  }
  return doc;
}

/**
 * foundry.documents.collections.CompendiumCollection (client/documents/collections/compendium-collection.d.mts):
 * a pack's documents. Foundry reads them from the pack's database; here the test hands over what
 * foundryvtt-cli reads from the compiled pack (`installPack`).
 */
class CompendiumCollection extends Collection {
  constructor(metadata) {
    super();
    this.metadata = metadata;
  }
  get collection() { return this.metadata.id; }
  get documentName() { return this.metadata.type; }
  get documentClass() { return CONFIG[this.documentName].documentClass; }
  get title() { return this.metadata.label; }
  get index() { return new Collection(this.contents.map(doc => [doc.id, { _id: doc.id, name: doc.name, uuid: doc.uuid, type: doc.type, img: doc.img }])); }
  /** v13's: the index, with the fields asked for read from each document's source. */
  async getIndex({ fields = [] } = {}) {
    return new Collection(this.contents.map(doc => {
      const entry = { _id: doc.id, name: doc.name, uuid: doc.uuid, type: doc.type, img: doc.img };
      for (const field of fields) setProperty(entry, field, deepClone(getProperty(doc._source, field)));
      return [doc.id, entry];
    }));
  }
  async getDocuments() { return this.contents; }
  async getDocument(id) { return this.get(id); }
  /** v13's: a new world compendium (its name must be free), in `game.packs`. */
  static async createCompendium(metadata) {
    const name = String(metadata.name ?? "");
    if (!/^[a-z0-9-]+$/i.test(name)) throw new Error(`Invalid compendium name "${name}"`);
    const id = `world.${name}`;
    if (game.packs.has(id)) throw new Error(`A compendium pack with the name "${name}" already exists`);
    const pack = new CompendiumCollection({ ...metadata, id, name, packageType: "world", packageName: "world", system: game.system.id });
    game.packs.set(id, pack);
    return pack;
  }
  /** The pack's ownership by role (system.json `ownership`); a GM owns every pack. */
  getUserLevel(user = game.user) {
    if (user?.isGM) return OWNERSHIP.OWNER;
    let level = OWNERSHIP.NONE;
    for (const [role, name] of Object.entries(this.metadata.ownership ?? { PLAYER: "OBSERVER", ASSISTANT: "OWNER" })) {
      if ((user?.role ?? 0) >= CONST.USER_ROLES[role]) level = Math.max(level, OWNERSHIP[name]);
    }
    return level;
  }
  get visible() { return this.getUserLevel(game.user) >= OWNERSHIP.OBSERVER; }
}

/**
 * foundry.applications.sheets.journal.JournalEntrySheet, in v13's single-page view: the page a
 * render names by `pageId` (the first page until one is named), its title and its enriched text.
 */
class JournalEntrySheet extends DocumentSheetV2 {
  static DEFAULT_OPTIONS = { classes: ["journal-sheet", "journal-entry"] };
  #pageId = null;
  async _renderHTML(context, options) {
    const pages = this.document.pages.contents.sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
    this.#pageId = options.pageId ?? this.#pageId;
    const page = pages.find(p => p.id === this.#pageId) ?? pages[0];
    const article = document.createElement("article");
    article.classList.add("journal-entry-page", page?.type ?? "text");
    if (!page) return article;
    article.dataset.pageId = page.id;
    const header = document.createElement("header");
    header.classList.add("journal-page-header");
    const title = document.createElement(`h${Math.min(Math.max(page.title?.level ?? 1, 1), 3)}`);
    title.textContent = page.name;
    const content = document.createElement("section");
    content.classList.add("journal-page-content");
    content.innerHTML = await TextEditor.implementation.enrichHTML(page.text?.content ?? "", { relativeTo: page, secrets: page.isOwner });
    header.append(title);
    article.append(header, content);
    return article;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  /** A non-modal `<dialog>` is shown open. */
  async _renderFrame(options) {
    const frame = await super._renderFrame(options);
    frame.setAttribute("open", "");
    return frame;
  }
}

/**
 * Put a compendium pack into `game.packs`, as Foundry does for each pack a package declares:
 * `metadata` is system.json's entry for it, `sources` its documents (with embedded ones). Test
 * plumbing, not Foundry API (an export, not a global): Foundry reads packs from the packages'
 * databases.
 * @param {{name: string, label: string, type: string, ownership?: Record<string, string>}} metadata
 * @param {object[]} sources
 */
export function installPack(metadata, sources) {
  const pack = new CompendiumCollection({ ...metadata, id: `${game.system.id}.${metadata.name}`, packageType: "system", packageName: game.system.id });
  const cls = CONFIG[metadata.type].documentClass;
  for (const source of sources) pack.set(source._id, new cls(source, { pack: pack.collection }));
  game.packs.set(pack.collection, pack);
  return pack;
}

/** The world's stored documents by collection (Foundry's `game.data`), for {@link startGame}. */
const WORLD_COLLECTIONS = /** @type {const} */ (["actors", "items", "scenes", "combats", "messages", "macros"]);

/**
 * The world's documents built from `game.data`, as v13's WorldCollection does it: one its
 * models reject is not thrown, it is left out, its id in the collection's `invalidDocumentIds`
 * (the data stays in `game.data`), and the error logged.
 */
function initializeDocuments() {
  for (const name of WORLD_COLLECTIONS) {
    const collection = game[name];
    for (const source of game.data[name] ?? []) {
      try {
        const doc = new collection.documentClass.implementation(deepClone(source));
        collection.set(doc.id, doc);
      } catch (error) {
        collection.invalidDocumentIds?.add(source._id);
        console.error(`Failed to initialize ${collection.documentClass.documentName} [${source._id}]`, error);
      }
    }
  }
}

/** Let pending tasks run, as Foundry's start does between its steps (it loads translations, packs, the canvas). */
const settle = () => new Promise(resolve => setTimeout(resolve, 0));

/**
 * Foundry's start, once the system's entry point is imported: `init`, the sheet registrations,
 * `i18nInit`, the world's documents from `game.data`, `setup`, then the user interface (only now
 * do `ui.notifications`, `ui.chat` and the combat tracker exist), and `ready` with `game.ready`;
 * other tasks run between the steps, as they do in Foundry.
 */
export async function startGame() {
  Hooks.callAll("init");
  initializeSheets();
  await settle();
  Hooks.callAll("i18nInit");
  initializeDocuments();
  await settle();
  Hooks.callAll("setup");
  await settle();
  ui.notifications = new Notifications();
  ui.chat = new ChatLog();
  ui.combat = new CONFIG.ui.combat();
  await ui.combat.render({ force: true });
  ui.hotbar = new Hotbar();
  await ui.hotbar.render({ force: true });
  game.ready = true;
  Hooks.callAll("ready");
}

/**
 * Install the world: globals (Hooks, CONFIG, CONST, the document classes, fromUuid, an empty
 * `ui`), `game` with a GM and a player (the active user is the GM unless `as` says otherwise),
 * the stored world `data` (collections of source objects, e.g. `{actors: [...]}`), and the
 * `foundry` namespaces, with core's default sheets registered as Foundry's own start-up does.
 * The system's entry point is then imported and {@link startGame} called.
 * @param {{as?: "gm"|"player", modules?: string[], data?: Partial<Record<typeof WORLD_COLLECTIONS[number], object[]>>}} [options]
 */
export function installWorld({ as = "gm", modules = [], data = {} } = {}) {
  const CONST = /** @type {const} */ ({
    DOCUMENT_OWNERSHIP_LEVELS: OWNERSHIP,
    USER_ROLES: { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 },
    DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" },
    DEFAULT_TOKEN,
    GRID_TYPES: { GRIDLESS: 0, SQUARE: 1, HEXODDR: 2, HEXEVENR: 3, HEXODDQ: 4, HEXEVENQ: 5 },
    GRID_DIAGONALS: { EQUIDISTANT: 0, EXACT: 1, APPROXIMATE: 2, RECTILINEAR: 3, ALTERNATING_1: 4, ALTERNATING_2: 5, ILLEGAL: 6 },
    SORT_INTEGER_DENSITY: 100000,
    TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
    // v13's (v14 adds LAYER_UNLOCKED, its new default, and OBSERVER)
    REGION_VISIBILITY: { LAYER: 0, GAMEMASTER: 1, ALWAYS: 2 },
    // v13's and v14's (v14 adds REGION_ANIMATION), those the system handles
    REGION_EVENTS: { BEHAVIOR_VIEWED: "behaviorViewed", BEHAVIOR_UNVIEWED: "behaviorUnviewed", REGION_BOUNDARY: "regionBoundary",
      TOKEN_MOVE_IN: "tokenMoveIn", TOKEN_MOVE_OUT: "tokenMoveOut", TOKEN_MOVE_WITHIN: "tokenMoveWithin" }
  });
  const CONFIG = {
    Actor: { documentClass: Actor, dataModels: {}, sheetClasses: {} },
    Item: { documentClass: Item, dataModels: {}, sheetClasses: {} },
    ActiveEffect: { documentClass: ActiveEffect, dataModels: {}, sheetClasses: {} },
    ChatMessage: { documentClass: ChatMessage, dataModels: {}, sheetClasses: {} },
    Combat: { documentClass: Combat, dataModels: {}, sheetClasses: {}, initiative: { formula: null, decimals: 2 } },
    Combatant: { documentClass: Combatant, dataModels: {}, sheetClasses: {} },
    User: { documentClass: User, sheetClasses: {} },
    Scene: { documentClass: Scene, sheetClasses: {} },
    // v13's movement actions (config.d.mts `CONFIG.Token.movement`), three of them: a walk, a flight and a teleport
    Token: { documentClass: TokenDocument, objectClass: Token, sheetClasses: {},
      movement: { defaultSpeed: 6, defaultAction: "walk", actions: {
        walk: { label: "TOKEN.MOVEMENT.ACTIONS.walk.label", icon: "fa-solid fa-person-walking", order: 0 },
        fly: { label: "TOKEN.MOVEMENT.ACTIONS.fly.label", icon: "fa-solid fa-person-fairy", order: 1 },
        blink: { label: "TOKEN.MOVEMENT.ACTIONS.blink.label", icon: "fa-solid fa-person-from-portal", order: 7, teleport: true,
          getCostFunction: () => (/** @type {number} */ cost) => cost } } } },
    Wall: { documentClass: WallDocument },
    Tile: { documentClass: TileDocument },
    ...(GENERATION >= 14 ? { Region: { documentClass: RegionDocument, objectClass: Region } }
      : { Region: { documentClass: RegionDocument, objectClass: Region }, MeasuredTemplate: { documentClass: MeasuredTemplateDocument, objectClass: MeasuredTemplate, sheetClasses: {} } }),
    // v13's and v14's behavior subtypes (core's own are not modelled)
    // @shim-unchecked foundry-vtt-types 13.345 declares CONFIG.RegionBehavior.documentClass as the Region class (API v13 CONFIG.RegionBehavior: RegionBehavior)
    RegionBehavior: { documentClass: RegionBehavior, dataModels: {}, typeIcons: {}, typeLabels: {} },
    Macro: { documentClass: Macro, sheetClasses: {} },
    JournalEntry: { documentClass: JournalEntry, sheetClasses: {}, sidebarIcon: "fa-solid fa-book-open" },
    JournalEntryPage: { documentClass: JournalEntryPage, dataModels: {}, sheetClasses: {}, sidebarIcon: "fa-solid fa-file-lines" },
    Folder: { documentClass: Folder, sheetClasses: {} },
    Dice: { rolls: [Roll], randomUniform: Math.random,
      fulfillment: { dice: { d4: { label: "d4", icon: "" }, d6: { label: "d6", icon: "" }, d8: { label: "d8", icon: "" }, d10: { label: "d10", icon: "" },
        d12: { label: "d12", icon: "" }, d20: { label: "d20", icon: "" }, d100: { label: "d100", icon: "" } },
      methods: { manual: { label: "DICE.FULFILLMENT.Manual", icon: "fa-solid fa-keyboard", interactive: true, resolver: RollResolver } },
      defaultMethod: "" },
      rollModes: {
      publicroll: { label: "CHAT.RollPublic", icon: "fa-solid fa-globe" }, gmroll: { label: "CHAT.RollPrivate", icon: "fa-solid fa-user-secret" },
      blindroll: { label: "CHAT.RollBlind", icon: "fa-solid fa-eye-slash" }, selfroll: { label: "CHAT.RollSelf", icon: "fa-solid fa-user" } } },
    TextEditor: { enrichers: [] },
    statusEffects: [{ id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" }],
    specialStatusEffects: { DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind", BURROW: "burrow", HOVER: "hover", FLY: "fly" },
    sounds: { dice: "sounds/dice.wav", lock: "sounds/lock.wav", notification: "sounds/notify.wav", combat: "sounds/drums.wav" },
    ui: { combat: CombatTracker, chat: ChatLog },
    queries: {}
  };
  if (GENERATION >= 14) {
    CONFIG.ChatMessage.modes = { public: { label: "CHAT.MODES.Public", icon: "fa-solid fa-globe" }, gm: { label: "CHAT.MODES.GM", icon: "fa-solid fa-user-secret" },
      blind: { label: "CHAT.MODES.Blind", icon: "fa-solid fa-eye-slash" }, self: { label: "CHAT.MODES.Self", icon: "fa-solid fa-user" },
      ic: { label: "CHAT.MODES.IC", icon: "fa-solid fa-masks-theater" } };
    const rollModes = CONFIG.Dice.rollModes;
    delete CONFIG.Dice.rollModes;
    Object.defineProperty(CONFIG.Dice, "rollModes", { get() {
      logCompatibilityWarning("CONFIG.Dice.rollModes is deprecated in favor of CONFIG.ChatMessage.modes", { since: 14, until: 16 });
      return rollModes;
    } });
  }
  Object.assign(globalThis, {
    Hooks, CONFIG, CONST, Actor, Item, ActiveEffect, ChatMessage, Combat, Combatant, User, Scene, JournalEntry, Folder, Macro,
    // pixi.js 7, as far as the system draws with it
    PIXI: { Polygon: PixiPolygon, Container: PixiContainer },
    // v13's blessed globals (client/client.d.mts), with Roll.
    Roll, fromUuid: async uuid => fromUuidSync(uuid), fromUuidSync,
    // No scene is viewed until one is (Scene#view): the canvas exists but has not drawn its layers.
    canvas: new Canvas()
  });
  // v13's global; v14 deprecates it with the rest of the measured templates
  if (GENERATION < 14) globalThis.MeasuredTemplateDocument = MeasuredTemplateDocument;
  listenToBoard(globalThis.canvas);
  // The user interface is made by startGame, after `setup`.
  globalThis.ui = /** @type {typeof ui} */ ({});
  const users = new Collection();
  for (const user of [{ _id: "gmUser0000000000", name: "Gamemaster", role: 4 }, { _id: "playerUser000000", name: "Player", role: 1 }]) {
    users.set(user._id, new User(user));
  }
  Object.defineProperty(users, "activeGM", { get: () => users.find(u => u.isGM && u.active) ?? null });
  const self = as === "gm" ? "gmUser0000000000" : "playerUser000000";
  const socketListeners = new Map();
  Object.assign(globalThis.game, {
    userId: self,
    get user() { return users.get(self); },
    users,
    actors: new WorldCollection(Actor),
    items: new WorldCollection(Item),
    macros: new WorldCollection(Macro),
    messages: new WorldCollection(ChatMessage),
    scenes: new WorldCollection(Scene),
    combats: new CombatEncounters(Combat),
    journal: new Collection(),
    folders: new Collection(),
    packs: new Collection(),
    modules: new Collection(modules.map(id => [id, { id, active: true }])),
    settings: new ClientSettings(),
    release: GENERATION >= 14 ? { generation: 14, build: 360, version: "14.360" } : { generation: 13, build: 345, version: "13.345" },
    system: { id: "icon-engine", grid: { type: 1, distance: 1, units: "", diagonals: 0 } },
    data: { ...Object.fromEntries(WORLD_COLLECTIONS.map(name => [name, []])), ...deepClone(data) },
    ready: false,
    // socket.io's on/emit return the socket, for chaining.
    socket: {
      on(channel, fn) { socketListeners.set(channel, fn); return this; },
      emit() { return this; }
    }
  });
  // Game#combat: the combat the tracker shows.
  Object.defineProperty(game, "combat", { get: () => game.combats.viewed, configurable: true });
  // Game#collections: the world collections by document name (the migration runner reads them)
  game.collections = new Collection([game.actors, game.items, game.messages, game.combats, game.scenes, game.macros].map(c => [c.documentName, c]));
  // The user's chat mode: v13's roll mode, v14's message mode (v14 keeps no core.rollMode setting here).
  if (GENERATION >= 14) game.settings.register("core", "messageMode", { scope: "client", config: false, type: String, default: "public" });
  else game.settings.register("core", "rollMode", { scope: "client", config: false, type: String, default: "publicroll" });
  // Dice Configuration: the fulfilment method per denomination (none: Foundry's generator).
  game.settings.register("core", "diceConfiguration", { scope: "client", config: false, type: Object, default: {} });
  // Square Grid Diagonals: the world's rule, its default the system's (system.json grid.diagonals).
  game.settings.register("core", "gridDiagonals", { scope: "world", config: true, type: Number, default: game.system.grid.diagonals });
  Object.assign(globalThis.foundry, {
    utils: { deepClone, getProperty, setProperty, expandObject, flattenObject, mergeObject, randomID, Collection, fromUuidSync, cleanHTML,
      escapeHTML, logCompatibilityWarning, performIntegerSort, getRoute },
    abstract: { DataModel, TypeDataModel },
    data: { fields: { DataField, NumberField, StringField, HTMLField, BooleanField, ObjectField, ArrayField, SchemaField }, regionBehaviors: { RegionBehaviorType } },
    documents: { Actor, Item, ActiveEffect, ChatMessage, Combat, Combatant, User, Scene, TokenDocument, WallDocument, TileDocument, Macro,
      ...(GENERATION >= 14 ? { RegionDocument } : { MeasuredTemplateDocument }),
      collections: { CombatEncounters, CompendiumCollection } },
    canvas: GENERATION >= 14 ? { placeables: { PlaceableObject, Token, Region }, layers: { TokenLayer, RegionLayer } }
      : { placeables: { PlaceableObject, Token, MeasuredTemplate }, layers: { TokenLayer, TemplateLayer } },
    grid: { SquareGrid },
    dice: { Roll, terms: { RollTerm, Die, NumericTerm, OperatorTerm } },
    appv1: { sheets: { ActorSheet, ItemSheet } }
  });
  foundry.data.validation = { DataModelValidationError };
  // @shim-unchecked v14's foundry.data.operators (API v14 namespace foundry.data.operators) is not in foundry-vtt-types 13
  if (GENERATION >= 14) foundry.data.operators = { ForcedDeletion };
  // @shim-unchecked v14's CONFIG.ActiveEffect.expiryEvents and expiryAction (API v14 variables/CONFIG.ActiveEffect.html) are not in foundry-vtt-types 13
  if (GENERATION >= 14) Object.assign(CONFIG.ActiveEffect, { expiryEvents: {}, expiryAction: "update" });
  Object.assign(globalThis.foundry.applications, {
    api: { ApplicationV2, HandlebarsApplicationMixin, DocumentSheetV2, DialogV2 },
    sheets: { ActorSheetV2, ItemSheetV2, journal: { JournalEntrySheet } },
    apps: { DocumentSheetConfig, FilePicker },
    ux: { TextEditor, FormDataExtended, DragDrop },
    ui: { Hotbar },
    sidebar: { AbstractSidebarTab, tabs: { CombatTracker, ChatLog } },
    dice: { RollResolver },
    instances: new Map()
  });
  // Core's own sheets, registered before any package's (v13's tail.js), for every type.
  DocumentSheetConfig.registerSheet(Actor, "core", ActorSheet, { makeDefault: true });
  DocumentSheetConfig.registerSheet(Item, "core", ItemSheet, { makeDefault: true });
  DocumentSheetConfig.registerSheet(JournalEntry, "core", JournalEntrySheet, { makeDefault: true, label: "SHEETS.JournalEntrySheet" });
  TextEditor.activateListeners();
  return { socketListeners };
}
