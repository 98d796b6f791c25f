/**
 * The core's arguments checked in JS, before wasm is entered, and written as the JSON text the
 * core reads. Every problem is an Error naming the argument and the field's path
 * (``invalid request: `boons`: NaN is not a finite number``).
 *
 * Why here and not in wasm: a JS exception thrown while wasm code is on the stack (a getter, a
 * proxy trap or a `toJSON` that throws, a symbol read as a string) unwinds past the code that
 * restores wasm's stack pointer, and a few thousand such calls left every export trapping. Here
 * every read of a caller's value happens in plain JS, inside a `try`.
 */

/** An argument is at most this many UTF-16 units of JSON (the core's limit is 64 MiB of UTF-8). */
export const MAX_JSON = 64 * 1024 * 1024;
/** A request, its faces and the other small arguments (all but a combat's state and events and a
 * pack's text) are at most this many (src/decode.rs `MAX_REQUEST_JSON`). */
export const MAX_REQUEST_JSON = 256 * 1024;
/** Values nest at most this deep (deeper is refused, naming the path). */
export const MAX_DEPTH = 64;
/** At most this many characters of the caller's input are quoted in a message. */
export const MAX_QUOTED = 100;
/** A combat has at most this many combatants (src/combat `MAX_COMBATANTS`; the core refuses more
 * as it reads them, with the message `combatApply` gives here before writing their JSON). */
export const MAX_COMBATANTS = 1_000;
/** Seeds are integers a JS number holds exactly. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/**
 * At most {@link MAX_QUOTED} characters of `text`.
 * @param {string} text
 * @returns {string}
 */
export function clip(text) {
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/**
 * A value named for a message without running any of its code (no `toString`, no getters).
 * @param {unknown} value
 * @returns {string}
 */
export function describe(value) {
  switch (typeof value) {
    case "number": return String(value);
    case "bigint": return `${clip(String(value))}n`;
    case "string": return JSON.stringify(clip(value));
    case "boolean": return String(value);
    case "undefined": return "undefined";
    case "object": return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
    default: return `a ${typeof value}`;
  }
}

/**
 * The message of something thrown, read without letting it throw again.
 * @param {unknown} thrown
 * @returns {string}
 */
function thrownMessage(thrown) {
  try {
    if (thrown instanceof Error) return clip(String(thrown.message));
    return describe(thrown);
  } catch {
    return "an exception";
  }
}

/**
 * Is `value` plain JSON data (finite numbers, strings, booleans, null, arrays and objects without
 * `toJSON`), within the depth and size limits? The quick test every argument takes; anything
 * else is looked at again by {@link problem}, which names what is wrong.
 * @param {unknown} value
 * @param {number} depth
 * @param {number} max  Elements an array may have.
 * @returns {boolean}
 */
function plain(value, depth, max) {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return true;
    case "number":
      return value - value === 0;
    case "object": {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        const n = value.length;
        if (n > max) return false;
        for (let i = 0; i < n; i++) if (!plain(value[i], depth + 1, max)) return false;
        return true;
      }
      if (typeof (/** @type {{toJSON?: unknown}} */ (value)).toJSON === "function") return false;
      const record = /** @type {Record<string, unknown>} */ (value);
      for (const key of Object.keys(record)) if (!plain(record[key], depth + 1, max)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * `a.b[2].c` from a path of keys and indices.
 * @param {(string | number)[]} path
 * @returns {string}
 */
function render(path) {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else out += out ? `.${step}` : step;
  }
  return out;
}

/**
 * What is wrong with `root` as JSON data, as "`path`: why" ("why" alone at the top), or "" when nothing is (a `Date`, an
 * object whose `toJSON` gives plain data). Reads `root` the way `JSON.stringify` does.
 * @param {unknown} root
 * @param {number} limit  Characters of JSON the argument may have.
 * @returns {string}
 */
function problem(root, limit) {
  /** @type {(string | number)[]} */
  const path = [];
  /** @type {unknown[]} */
  const open = [];
  const at = () => (path.length ? `\`${clip(render(path))}\`: ` : "");
  /**
   * @param {unknown} value
   * @param {string} key
   * @returns {string}
   */
  const walk = (value, key) => {
    if (value !== null && typeof value === "object"
      && typeof (/** @type {{toJSON?: unknown}} */ (value)).toJSON === "function") {
      value = /** @type {{toJSON: (key: string) => unknown}} */ (value).toJSON(key);
      if (value === undefined) return `${at()}its toJSON() gave no value`;
    }
    switch (typeof value) {
      case "number":
        return value - value === 0 ? "" : `${at()}${value} is not a finite number`;
      case "bigint":
        return `${at()}a BigInt is not allowed here; use a number`;
      case "symbol":
      case "function":
        return `${at()}a ${typeof value} is not a JSON value`;
      case "object": {
        if (value === null) return "";
        if (open.includes(value)) return `${at()}a cycle (the value contains itself)`;
        if (path.length >= MAX_DEPTH) return `${at()}nested more than ${MAX_DEPTH} levels deep`;
        open.push(value);
        if (Array.isArray(value)) {
          const n = value.length;
          if (n > limit / 2) return `${at()}${n} elements; this argument is at most ${limit} characters of JSON`;
          for (let i = 0; i < n; i++) {
            path.push(i);
            const why = walk(value[i], String(i));
            if (why) return why;
            path.pop();
          }
        } else {
          const record = /** @type {Record<string, unknown>} */ (value);
          for (const k of Object.keys(record)) {
            path.push(k);
            const item = record[k];
            const why = item === undefined ? "" : walk(item, k);
            if (why) return why;
            path.pop();
          }
        }
        open.pop();
        return "";
      }
      default:
        return "";
    }
  };
  try {
    return walk(root, "");
  } catch (thrown) {
    return `${at()}reading it threw ${thrownMessage(thrown)}`;
  }
}

/**
 * `value` as JSON text for the core, or an Error naming the argument (`what`) and the field.
 * Refused: undefined, NaN and ±Infinity (JSON would say null), BigInts, symbols and functions
 * (JSON would drop them), a `toJSON` that gives nothing, cycles, more than {@link MAX_DEPTH}
 * levels, more than `limit` characters, and anything that throws while being read.
 * @param {string} what
 * @param {unknown} value
 * @param {number} [limit]  Characters of JSON it may have.
 * @returns {string}
 */
export function jsonText(what, value, limit = MAX_REQUEST_JSON) {
  if (value === undefined) throw new Error(`invalid ${what}: it is missing (undefined)`);
  let ok = false;
  try {
    ok = plain(value, 0, limit / 2);
  } catch {
    // a throwing getter or proxy: problem() says where
  }
  if (!ok) {
    const why = problem(value, limit);
    if (why) throw new Error(`invalid ${what}: ${why}`);
  }
  let text;
  try {
    text = JSON.stringify(value);
  } catch (thrown) {
    throw new Error(`invalid ${what}: reading it threw ${thrownMessage(thrown)}`);
  }
  if (typeof text !== "string") throw new Error(`invalid ${what}: ${describe(value)} is not a JSON value`);
  if (text.length > limit) {
    throw new Error(`invalid ${what}: it is ${text.length} characters of JSON; the limit is ${limit}`);
  }
  return text;
}

/**
 * `value` as plain data (what its JSON text says), for the exports that still read JS objects.
 * @param {string} what
 * @param {unknown} value
 * @returns {unknown}
 */
export function plainCopy(what, value) {
  return JSON.parse(jsonText(what, value, MAX_JSON));
}

/**
 * A string argument, or an Error naming it.
 * @param {string} what
 * @param {unknown} value
 * @returns {string}
 */
export function stringArg(what, value) {
  if (typeof value !== "string") throw new Error(`${what} must be a string, not a ${value === null ? "null" : typeof value}`);
  return value;
}

/**
 * A seed for the core: a number, BigInt or decimal string of an integer from 0 to 2^53 − 1, or
 * -1 for none (undefined or null: the core takes the next seed of its own stream).
 * @param {unknown} seed
 * @returns {number}
 */
export function seedArg(seed) {
  if (seed === undefined || seed === null) return -1;
  let n = NaN;
  if (typeof seed === "number") n = seed;
  else if (typeof seed === "bigint") n = seed >= 0n && seed <= BigInt(MAX_SEED) ? Number(seed) : NaN;
  else if (typeof seed === "string") n = /^\s*\d{1,16}\s*$/.test(seed) ? Number(seed) : NaN;
  else throw new Error(`a seed must be a number, a BigInt or a decimal string, not ${describe(seed)}`);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new Error(`a seed must be an integer from 0 to ${MAX_SEED}, not ${describe(seed)}`);
  }
  return n;
}

/**
 * An integer argument from `min` to `max`, or an Error naming it.
 * @param {string} what
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @param {string} [unit]
 * @returns {number}
 */
export function integerArg(what, value, min, max, unit = "") {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${what} must be an integer from ${min} to ${max}${unit}, not ${describe(value)}`);
  }
  return value;
}
