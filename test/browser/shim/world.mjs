/**
 * The shim's world (see test/browser/foundry-shim.mjs): `installWorld()` puts the globals and
 * namespaces in place, `startGame()` boots it as Foundry does, `installPack()` adds a compendium.
 */
import { GENERATION } from "./generation.mjs";
import { deepClone, getProperty, setProperty, expandObject, flattenObject, ForcedDeletion, mergeObject, logCompatibilityWarning, randomID, Collection, WorldCollection, Hooks, performIntegerSort, getRoute, ClientSettings, cleanHTML, escapeHTML } from "./utils.mjs";
import { DataModelValidationError, DataField, NumberField, StringField, HTMLField, BooleanField, ObjectField, ArrayField, SchemaField, DataModel, TypeDataModel } from "./data.mjs";
import { OWNERSHIP, DEFAULT_TOKEN, ActiveEffect, Item, Actor, User, ChatMessage, Combat, Combatant, TokenDocument, WallDocument, TileDocument, Scene, MeasuredTemplateDocument, RegionBehaviorType, RegionBehavior, RegionDocument, Macro, JournalEntryPage, JournalEntry, Folder, CombatEncounters, fromUuidSync, CompendiumCollection } from "./documents.mjs";
import { RollTerm, NumericTerm, OperatorTerm, Die, Roll } from "./dice.mjs";
import { FormDataExtended, ApplicationV2, HandlebarsApplicationMixin, DocumentSheetV2, ActorSheetV2, ItemSheetV2, FilePicker, RollResolver, Hotbar, DragDrop, DialogV2, initializeSheets, DocumentSheetConfig, ActorSheet, ItemSheet, TextEditor, AbstractSidebarTab, CombatTracker, ChatLog, Notifications, JournalEntrySheet } from "./applications.mjs";
import { PixiPolygon, PixiContainer, SquareGrid, PlaceableObject, Token, MeasuredTemplate, Region, TokenLayer, RegionLayer, TemplateLayer, Canvas, listenToBoard } from "./canvas.mjs";

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

export { WORLD_COLLECTIONS, initializeDocuments, settle };
