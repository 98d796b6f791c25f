/**
 * The shim's data models (`foundry.abstract`, `foundry.data.fields`; common/abstract/data.d.mts,
 * common/data/fields.d.mts).
 */
import { deepClone, assignFields } from "./utils.mjs";

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

export { DataModelValidationError, documentValidationError, FIELD_OPTIONS, optionsOf, DataField, NumberField, StringField, HTMLField, BooleanField, ObjectField, ArrayField, SchemaField, SCHEMAS, DataModel, TypeDataModel };
