/**
 * A Foundry world of stand-ins for the trust-boundary tests (test/node/trust-boundary.test.mjs):
 * a GM and a player, documents that hold ownership and refuse a write their user may not make
 * (as Foundry's server does: v13's ownership levels, a message's author owns it, world settings
 * are the GM's), and the system socket as Foundry's server delivers it: the GM's listener gets
 * the message and the sender's id. What a test asserts is read from the documents' sources, so a
 * snapshot before and after says what changed and who owns it.
 */
import { SYSTEM_ID } from "../../module/config.mjs";

export const GM = "gm00000000000000";
export const PLAYER = "player0000000000";
const OWNER = 3;
const CHANNEL = `system.${SYSTEM_ID}`;

let ids = 0;
/** A Foundry-shaped id (16 letters and digits), deterministic. */
export const nextId = (prefix = "d") => `${prefix}${String(++ids).padStart(16 - prefix.length, "0")}`;

/** @param {unknown} value */
const clone = value => (value === undefined ? undefined : structuredClone(value));

/**
 * Set a dotted path (Foundry's update expands them); `-=key` deletes.
 * @param {(stored: unknown, value: unknown) => unknown} [combine]  What the key becomes (a copy of the value).
 */
export function setPath(object, path, value, combine = (_, v) => clone(v)) {
  const parts = path.split(".");
  let node = object;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
    node = node[part];
  }
  const last = parts.at(-1);
  if (last.startsWith("-=")) delete node[last.slice(2)];
  else node[last] = combine(node[last], value);
}

/** Nested update data as dotted keys (leaves: anything but plain objects). */
function flatten(data, prefix = "", out = {}) {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value) && !key.startsWith("-=") && Object.keys(value).length) flatten(value, path, out);
    else out[path] = value;
  }
  return out;
}

/** A Collection as Foundry's: a Map with the array helpers the system uses. */
class Collection extends Map {
  // Foundry's Collection iterates its values.
  [Symbol.iterator]() { return this.values(); }
  get contents() { return [...this.values()]; }
  find(fn) { return this.contents.find(fn); }
  filter(fn) { return this.contents.filter(fn); }
  map(fn) { return this.contents.map(fn); }
  some(fn) { return this.contents.some(fn); }
}

class User {
  constructor({ id, name, isGM }) { Object.assign(this, { id, name, isGM, role: isGM ? 4 : 1, active: true, character: null }); }
  get isSelf() { return world.game.user?.id === this.id; }
  get isActiveGM() { return this.isGM && this.isSelf; }
}

/** Permission denied, as Foundry's server answers a write its user may not make. */
function denied(doc, user) {
  return new Error(`stand-in server: ${user?.name ?? "nobody"} may not modify ${doc.uuid}`);
}

class Document {
  /** @param {object} source */
  constructor(source) {
    this.source = { _id: source._id ?? nextId(), flags: {}, ownership: { default: 0 }, ...clone(source) };
  }
  get id() { return this.source._id; }
  get name() { return this.source.name; }
  get flags() { return this.source.flags; }
  get ownership() { return this.source.ownership; }
  /** @param {User} user */
  getUserLevel(user) {
    if (user?.isGM) return OWNER;
    return this.source.ownership[user?.id] ?? this.source.ownership.default ?? 0;
  }
  testUserPermission(user, level) {
    const want = typeof level === "number" ? level : { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 }[level];
    return this.getUserLevel(user) >= want;
  }
  get isOwner() { return this.testUserPermission(world.game.user, "OWNER"); }
  /** Whether the current user may write this document (the server's check). */
  canModify(user = world.game.user) { return this.testUserPermission(user, "OWNER"); }
  assertWrite() { if (!this.canModify()) throw denied(this, world.game.user); }
  getFlag(scope, key) { return key.split(".").reduce((node, part) => node?.[part], this.source.flags[scope]); }
  async setFlag(scope, key, value) { return this.update({ [`flags.${scope}.${key}`]: value }); }
  async unsetFlag(scope, key) {
    const parts = key.split(".");
    const last = parts.pop();
    return this.update({ [`flags.${scope}${parts.length ? `.${parts.join(".")}` : ""}.-=${last}`]: null });
  }
  async update(data, { recursive = true } = {}) {
    this.assertWrite();
    const changes = recursive ? flatten(data) : data;
    for (const [path, value] of Object.entries(changes)) setPath(this.source, path, value);
    world.writes.push({ uuid: this.uuid, by: world.game.user?.id });
    return this;
  }
  toObject() { return clone(this.source); }
}

class ActiveEffect extends Document {
  constructor(source, parent) {
    super(source);
    this.parent = parent;
  }
  get uuid() { return `${this.parent.uuid}.ActiveEffect.${this.id}`; }
  get statuses() { return new Set(this.source.statuses ?? []); }
  canModify(user) { return this.parent.canModify(user); }
}

export class Actor extends Document {
  constructor(source) {
    super({ type: "character", ...source });
    this.source.system = { hp: { value: 30, max: 40 }, vigor: { value: 0, max: 10 }, wounds: 0, armor: 0, vigilance: 0, resolve: 0,
      ...clone(source.system ?? {}) };
    this.source.effects ??= [];
  }
  get uuid() { return `Actor.${this.id}`; }
  get type() { return this.source.type; }
  get system() { return this.source.system; }
  get effects() {
    return new Collection(this.source.effects.map(e => [e._id, new ActiveEffect(e, this)]));
  }
  get appliedEffects() { return this.effects.contents; }
  get temporaryEffects() { return this.effects.contents; }
  get statuses() { return new Set(this.source.effects.flatMap(e => e.statuses ?? [])); }
  /** A world actor has no token of its own; none stands on a scene here. */
  get token() { return null; }
  getActiveTokens() { return []; }
  async updateEmbeddedDocuments(type, updates) {
    this.assertWrite();
    for (const { _id, ...changes } of updates) {
      const effect = this.source.effects.find(e => e._id === _id);
      if (effect) for (const [path, value] of Object.entries(flatten(changes))) setPath(effect, path, value);
    }
    world.writes.push({ uuid: this.uuid, by: world.game.user?.id });
  }
  async createEmbeddedDocuments(type, data, { keepId = false } = {}) {
    this.assertWrite();
    const made = data.map(d => ({ ...clone(d), _id: keepId && d._id ? d._id : nextId("e") }));
    this.source.effects.push(...made);
    world.writes.push({ uuid: this.uuid, by: world.game.user?.id });
    return made.map(d => new ActiveEffect(d, this));
  }
  async deleteEmbeddedDocuments(type, list) {
    this.assertWrite();
    this.source.effects = this.source.effects.filter(e => !list.includes(e._id));
    world.writes.push({ uuid: this.uuid, by: world.game.user?.id });
  }
  async toggleStatusEffect(id, { active }) {
    const has = this.source.effects.filter(e => (e.statuses ?? []).includes(id)).map(e => e._id);
    if (!active && has.length) await this.deleteEmbeddedDocuments("ActiveEffect", has);
    if (active && !has.length) await this.createEmbeddedDocuments("ActiveEffect", [{ name: id, statuses: [id] }]);
  }
}

/**
 * An IconRoll as a message's `rolls` holds it: its options (request, tactical, outcome, ...)
 * and the faces Foundry rolled, in its dice terms.
 */
export class Roll {
  constructor({ request, faces = [], options = {}, outcome = null, total = 0 }) {
    this.options = { request: clone(request), outcome: clone(outcome), ...clone(options) };
    this.dice = faces.map(results => ({ results: results.map(result => ({ result, active: true })) }));
    this.total = total;
  }
  get iconOptions() { return this.options; }
  get outcome() { return this.options.outcome ?? null; }
}

export class ChatMessage extends Document {
  constructor(source, author) {
    super(source);
    this.source.author = author.id;
    this.rollObjects = source.rolls ?? [];
  }
  get uuid() { return `ChatMessage.${this.id}`; }
  get author() { return world.game.users.get(this.source.author) ?? null; }
  get isAuthor() { return this.source.author === world.game.user?.id; }
  get isContentVisible() { return true; }
  get rolls() { return this.rollObjects; }
  get speaker() { return this.source.speaker ?? {}; }
  // v13: the author owns their message (BaseChatMessage#getUserLevel); the GM owns all.
  getUserLevel(user) { return user?.isGM || user?.id === this.source.author ? OWNER : 0; }
  toObject() { return { ...clone(this.source), rolls: this.rollObjects.map(r => ({ options: clone(r.options), dice: clone(r.dice), total: r.total })) }; }
}

/** The world the tests run in; `world.game` is what `globalThis.game` is. */
export const world = {
  /** Every document write, with who made it. */
  writes: [],
  /** Every message the GM's client emitted on the system channel. */
  sent: [],
  game: null,
  listeners: new Map()
};

/**
 * Install the stand-ins as Foundry's globals.
 * @param {{core: object}} options
 */
export function installWorld() {
  const users = new Collection([[GM, new User({ id: GM, name: "Gamemaster", isGM: true })],
    [PLAYER, new User({ id: PLAYER, name: "Player", isGM: false })]]);
  Object.defineProperty(users, "activeGM", { get: () => users.get(GM) });
  const settings = new Map();
  const registered = new Map();
  world.game = {
    release: { generation: 13 },
    user: users.get(GM),
    users,
    actors: new Collection(),
    messages: new Collection(),
    combats: new Collection(),
    combat: null,
    i18n: { localize: key => key, format: (key, data) => `${key} ${JSON.stringify(data)}` },
    socket: {
      on: (channel, fn) => world.listeners.set(channel, fn),
      emit: (channel, message) => { if (world.game.user?.isGM) world.sent.push(message); }
    },
    settings: {
      register: (scope, key, config) => registered.set(`${scope}.${key}`, config),
      get: (scope, key) => clone(settings.has(`${scope}.${key}`) ? settings.get(`${scope}.${key}`) : registered.get(`${scope}.${key}`)?.default),
      set: async (scope, key, value) => {
        // World settings are written by users with SETTINGS_MODIFY: the GM here.
        if (!world.game.user?.isGM) throw new Error(`stand-in server: ${world.game.user?.name} may not modify the setting ${key}`);
        settings.set(`${scope}.${key}`, clone(value));
        world.writes.push({ uuid: `Setting.${scope}.${key}`, by: world.game.user.id });
        registered.get(`${scope}.${key}`)?.onChange?.(value);
        return value;
      }
    }
  };
  globalThis.game = world.game;
  const registry = () => new Map([...world.game.actors.values(), ...world.game.messages.values()].map(d => [d.uuid, d]));
  globalThis.fromUuid = async uuid => (typeof uuid === "string" ? registry().get(uuid) ?? null : null);
  globalThis.fromUuidSync = uuid => registry().get(uuid) ?? null;
  globalThis.Actor = Actor;
  globalThis.CONFIG = { sounds: { dice: "dice.wav" }, Dice: {}, ChatMessage: {}, specialStatusEffects: { DEFEATED: "defeated" } };
  globalThis.ChatMessage = { implementation: {
    getSpeaker: ({ actor } = {}) => ({ alias: actor?.name, actor: actor?.id }),
    applyRollMode: data => data,
    create: async data => postMessage(world.game.user, data)
  } };
  globalThis.ui = { notifications: { warn: () => {}, error: () => {}, info: () => {} } };
  const hooks = new Map();
  globalThis.Hooks = {
    on: (name, fn) => hooks.set(name, [...(hooks.get(name) ?? []), fn]),
    once: () => {},
    callAll: (name, ...args) => { for (const fn of hooks.get(name) ?? []) fn(...args); return true; },
    call: () => true
  };
  globalThis.foundry = {
    utils: {
      randomID: () => nextId("r"),
      fromUuidSync: uuid => globalThis.fromUuidSync(uuid),
      escapeHTML: value => String(value).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c])
    },
    dice: { Roll: class {}, terms: {} },
    applications: {
      handlebars: { renderTemplate: async () => "" },
      api: { ApplicationV2: class {}, HandlebarsApplicationMixin: base => base, DialogV2: { input: async () => null, confirm: async () => true } },
      instances: new Map()
    }
  };
  return world;
}

/**
 * An actor in the world.
 * @param {object} source  `ownership` as Foundry's: `{[userId]: 3}` for an owner.
 */
export function addActor(source) {
  const actor = new Actor(source);
  world.game.actors.set(actor.id, actor);
  return actor;
}

/**
 * A chat message posted by `author` (a player may post what they like: that is the point).
 * @param {User} author
 * @param {object} data  `rolls`: {@link Roll}s.
 */
export function postMessage(author, data) {
  const message = new ChatMessage({ ...data, rolls: undefined }, author);
  message.rollObjects = data.rolls ?? [];
  world.game.messages.set(message.id, message);
  world.writes.push({ uuid: message.uuid, by: author.id });
  return message;
}

/** Run `fn` as a user (their client). */
export async function as(userId, fn) {
  const before = world.game.user;
  world.game.user = world.game.users.get(userId);
  try {
    return await fn();
  } finally {
    world.game.user = before;
  }
}

/**
 * The player's request, delivered to the active GM's client as Foundry's server delivers a
 * package socket message: the data, then the sender's id. Resolves with the GM's reply.
 * @param {string} type
 * @param {unknown} payload
 * @param {string} [senderId]
 */
export async function playerRequests(type, payload, senderId = PLAYER) {
  const listener = world.listeners.get(CHANNEL);
  if (!listener) throw new Error("IconSocket.register() has not run");
  const id = nextId("q");
  world.game.user = world.game.users.get(GM);
  const before = world.sent.length;
  listener({ kind: "request", id, type, payload }, senderId);
  for (let i = 0; i < 200 && !world.sent.slice(before).some(m => m.id === id); i++) await new Promise(resolve => setImmediate(resolve));
  const reply = world.sent.slice(before).find(m => m.id === id);
  if (!reply) throw new Error(`no reply to ${type}`);
  return reply;
}

/**
 * Every document's and world setting's data now, by uuid, with whether the player owns it.
 * @param {() => Record<string, {owned: boolean, data: unknown}>} [extra]  More (a combat's state).
 */
export function snapshot(extra = () => ({})) {
  const player = world.game.users.get(PLAYER);
  /** @type {Record<string, {owned: boolean, data: string}>} */
  const out = {};
  for (const doc of [...world.game.actors.values(), ...world.game.messages.values()]) {
    out[doc.uuid] = { owned: doc.testUserPermission(player, "OWNER"), data: JSON.stringify(doc.toObject()) };
  }
  for (const key of ["clocks", "gmRecords", "playersApplyDamage"]) {
    out[`Setting.${key}`] = { owned: false, data: JSON.stringify(world.game.settings.get(SYSTEM_ID, key)) };
  }
  for (const [uuid, entry] of Object.entries(extra())) out[uuid] = { owned: entry.owned, data: JSON.stringify(entry.data) };
  return out;
}

/**
 * The documents the player does not own that differ between two snapshots (created or deleted
 * ones included).
 * @param {ReturnType<typeof snapshot>} before
 * @param {ReturnType<typeof snapshot>} after
 * @returns {string[]}
 */
export function changedNotOwned(before, after) {
  const uuids = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...uuids].filter(uuid => {
    const a = before[uuid];
    const b = after[uuid];
    if (a?.data === b?.data) return false;
    return !(a?.owned ?? b?.owned);
  });
}

/**
 * mulberry32: a seeded generator of numbers in [0, 1), so a randomized test's failure replays
 * exactly.
 * @param {number} seed
 */
export function random(seed) {
  let s = seed;
  return () => {
    s = (s + 0x6D2B79F5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
