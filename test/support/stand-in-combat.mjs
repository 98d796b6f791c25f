/**
 * A Combat of the system (module/documents/icon-combat.mjs) over the stand-in world
 * (test/support/stand-in-world.mjs), for the tests that play a hostile player against the turn
 * order (test/node/trust-combat.test.mjs): Combatants with v13's permissions (their actor's
 * owner may create, delete and update one, and of an update only `initiative`, `flags`,
 * `defeated` and `system`: BaseCombatant's `#canUpdate`), delivered to the GM's client as
 * Foundry delivers them (the Combat's `_on…DescendantDocuments` callbacks with the writer's id);
 * a scene with tokens; the Combat's own update (the GM's only: players may write only the turn
 * fields, and the system never asks them to). Call after `installWorld()`, before the module's
 * documents are imported.
 */
import { GM, nextId, setPath, world } from "./stand-in-world.mjs";

/** Foundry's merge of update data into a source: dotted keys expand, `-=key` deletes, objects merge. */
function mergeUpdate(source, data) {
  for (const [path, value] of Object.entries(data)) setPath(source, path, value, merge);
}

/** An object field's merge (`-=key` deletes; anything but a plain object replaces). */
function merge(stored, update) {
  const plain = v => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!plain(update) || !plain(stored)) return structuredClone(update);
  const out = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (key.startsWith("-=")) delete out[key.slice(2)];
    else out[key] = merge(out[key], value);
  }
  return out;
}

/**
 * The server has written; the GM's client hears of it (with the writer's id) and goes on as the
 * GM: what it queues runs as the GM (the stand-in world has one `game.user` for every client).
 */
function heardByGM(callback) {
  world.game.user = world.game.users.get(GM);
  callback();
}

/** A Collection as Foundry's: a Map iterating its values, with the array helpers the system uses. */
export class Collection extends Map {
  [Symbol.iterator]() { return this.values(); }
  get contents() { return [...this.values()]; }
  find(fn) { return this.contents.find(fn); }
  filter(fn) { return this.contents.filter(fn); }
  map(fn) { return this.contents.map(fn); }
  some(fn) { return this.contents.some(fn); }
}

/** A token on the scene: its actor (linked: the world actor), disposition and flags. */
export class Token {
  constructor({ actor, disposition = -1, flags = {}, name }, scene) {
    Object.assign(this, { id: nextId("t"), actorId: actor.id, actorLink: true, disposition, flags, name: name ?? actor.name, parent: scene });
    this.actorRef = actor;
  }
  get actor() { return this.actorRef; }
  get uuid() { return `Scene.${this.parent.id}.Token.${this.id}`; }
  getFlag(scope, key) { return this.flags[scope]?.[key]; }
}

/** The scene the fight is on. */
export class Scene {
  constructor() {
    this.id = nextId("s");
    this.tokens = new Collection();
    this.deleted = [];
  }
  addToken(options) {
    const token = new Token(options, this);
    this.tokens.set(token.id, token);
    return token;
  }
  async deleteEmbeddedDocuments(type, ids) {
    if (!world.game.user?.isGM) throw new Error("stand-in server: only the GM deletes tokens here");
    for (const id of ids) this.tokens.delete(id);
    this.deleted.push(...ids);
  }
}

/**
 * Install `globalThis.Combat` and `globalThis.Combatant` as the bases the system's classes
 * extend, then import them.
 * @returns {Promise<{IconCombat: any, IconCombatant: any, newCombat: (options: {scene?: Scene}) => any}>}
 */
export async function installCombat() {
  globalThis.Combat = class {
    get started() { return this.round > 0; }
    prepareBaseData() {}
    _onCreateDescendantDocuments() {}
    _onDeleteDescendantDocuments() {}
    _onUpdateDescendantDocuments() {}
    async _onStartTurn() {}
    async _clearMovementHistoryOnStartTurn() {}
    async _onEndTurn() {}
    async _onStartRound() {}
    async _onEndRound() {}
    _playCombatSound() {}
    async delete() { world.game.combats.delete(this.id); }
  };
  globalThis.Combatant = class {
    constructor(source, combat) {
      this._source = { _id: nextId("c"), system: { side: "", canSlow: false }, defeated: false, flags: {}, ...structuredClone(source) };
      this.parent = combat;
    }
    get id() { return this._source._id; }
    get combat() { return this.parent; }
    get name() { return this._source.name ?? this.token?.name ?? this.actor?.name ?? ""; }
    get actorId() { return this._source.actorId; }
    get tokenId() { return this._source.tokenId ?? null; }
    get system() { return this._source.system; }
    get token() { return this.tokenId ? this.parent.scene?.tokens.get(this.tokenId) ?? null : null; }
    get actor() { return this.token?.actor ?? world.game.actors.get(this.actorId) ?? null; }
    get isDefeated() { return this._source.defeated || !!this.actor?.effects.some(e => e.statuses.has("defeated")); }
    get uuid() { return `Combat.${this.parent.id}.Combatant.${this.id}`; }
    // v13: a Combatant's permissions are its actor's
    testUserPermission(user, level) { return this.actor?.testUserPermission(user, level) ?? !!user?.isGM; }
    get isOwner() { return this.testUserPermission(world.game.user, "OWNER"); }
  };
  const { default: IconCombat } = await import("../../module/documents/icon-combat.mjs");
  const { default: IconCombatant } = await import("../../module/documents/icon-combatant.mjs");

  /** A new (not started) Combat on a scene, in `game.combats`. */
  const newCombat = ({ scene = new Scene() } = {}) => {
    const combat = new IconCombat();
    const combatants = new Collection();
    Object.assign(combat, {
      id: nextId("combat"), _source: { system: { state: null, choices: {} } }, round: 0, turn: null, scene, combatants,
      /** Every Combat update, as sent. */
      updates: [],
      get turns() { return combatants.contents; },
      async update(data) {
        if (!world.game.user?.isGM) throw new Error("stand-in server: only the GM writes the combat's system and turn");
        this.updates.push(structuredClone(data));
        const { round, turn, ...rest } = data;
        mergeUpdate(this._source, rest);
        if (round !== undefined) this.round = round;
        if (turn !== undefined) this.turn = turn;
        this.prepareBaseData();
        return this;
      },
      /**
       * Combatants created by the current user (the server's check: their actor's owner, or a
       * GM), then every client hears of it.
       */
      async createEmbeddedDocuments(type, data) {
        const user = world.game.user;
        const made = data.map(d => new IconCombatant(d, combat));
        for (const c of made) if (!c.testUserPermission(user, "OWNER")) throw new Error(`stand-in server: ${user.name} may not create ${c.name}`);
        for (const c of made) combatants.set(c.id, c);
        heardByGM(() => combat._onCreateDescendantDocuments(combat, "combatants", made, data, {}, user.id));
        return made;
      },
      async deleteEmbeddedDocuments(type, ids) {
        const user = world.game.user;
        const gone = ids.map(id => combatants.get(id)).filter(c => !!c);
        for (const c of gone) if (!c.testUserPermission(user, "OWNER")) throw new Error(`stand-in server: ${user.name} may not delete ${c.name}`);
        for (const c of gone) combatants.delete(c.id);
        heardByGM(() => combat._onDeleteDescendantDocuments(combat, "combatants", gone, gone.map(c => c.id), {}, user.id));
        return gone;
      },
      /** v13's BaseCombatant#canUpdate: a player only `initiative`, `flags`, `defeated`, `system` of their own. */
      async updateEmbeddedDocuments(type, changes) {
        const user = world.game.user;
        const done = [];
        for (const change of changes) {
          const c = combatants.get(change._id);
          if (!c) continue;
          const keys = Object.keys(change).filter(k => k !== "_id");
          if (!user.isGM && (!c.testUserPermission(user, "OWNER") || keys.some(k => !["initiative", "flags", "defeated", "system"].includes(k)))) {
            throw new Error(`stand-in server: ${user.name} may not update ${c.name}`);
          }
          c._source = merge(c._source, structuredClone(change));
          done.push(c);
        }
        heardByGM(() => combat._onUpdateDescendantDocuments(combat, "combatants", done, changes, {}, user.id));
        return done;
      }
    });
    world.game.combats.set(combat.id, combat);
    return combat;
  };
  return { IconCombat, IconCombatant, newCombat };
}

/** Let the GM's queued work (the roster's follow-ups, hooks' promises) run. */
export async function settle(rounds = 40) {
  for (let i = 0; i < rounds; i++) await new Promise(resolve => setImmediate(resolve));
}
