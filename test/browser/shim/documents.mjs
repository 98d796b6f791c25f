/**
 * The shim's documents (`foundry.documents` and their collections; client/documents/*.d.mts),
 * with fromUuid.
 */
import { GENERATION } from "./generation.mjs";
import { deepClone, getProperty, setProperty, expandObject, ForcedDeletion, mergeObject, assignFields, logCompatibilityWarning, randomID, Collection, WorldCollection, Hooks } from "./utils.mjs";
import { DataModelValidationError, documentValidationError, TypeDataModel } from "./data.mjs";
import { Roll } from "./dice.mjs";
import { TextEditor } from "./applications.mjs";
import { UserTargets, PixiPolygon } from "./canvas.mjs";

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

export { OWNERSHIP, DEFAULT_TOKEN, ClientDocument, documentClass, ActiveEffect, Item, Actor, User, ChatMessage, Combat, Combatant, SYNTHETIC_ACTORS, TokenDocument, WallDocument, TileDocument, Scene, MeasuredTemplateDocument, REGION_SHAPES, shapePoints, RegionBehaviorType, RegionBehavior, RegionDocument, Macro, JournalEntryPage, JournalEntry, Folder, CombatEncounters, fromUuidSync, CompendiumCollection };
