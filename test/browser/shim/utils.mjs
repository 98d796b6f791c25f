/**
 * The shim's `foundry.utils` and `foundry.helpers` (common/utils/*.d.mts, client/helpers/*.d.mts):
 * plain-data helpers, collections, Hooks and the client settings.
 */
import { GENERATION } from "./generation.mjs";

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

export { deepClone, getProperty, setProperty, expandObject, flattenObject, flattenInto, ForcedDeletion, mergeObject, assignFields, logCompatibilityWarning, randomID, Collection, WorldCollection, Hooks, performIntegerSort, getRoute, ClientSettings, cleanHTML, escapeHTML };
