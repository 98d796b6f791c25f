/**
 * ICON Engine: entry point of the Foundry VTT system.
 */
import { ICONENGINE, SYSTEM_ID } from "./config.mjs";
import * as core from "./core.mjs";
import * as applications from "./applications/_module.mjs";
import * as data from "./data/_module.mjs";
import * as dice from "./dice/_module.mjs";
import * as documents from "./documents/_module.mjs";
import IconEnrichers from "./enrichers.mjs";
import { registerRulesetSettings, registerTrackerSettings, registerTrustSettings } from "./settings.mjs";
import IconSocket from "./icon-socket.mjs";
import { MigrationRunner } from "./migrations/_module.mjs";
import * as canvasModule from "./canvas/_module.mjs";
import iconTemplateClass from "./canvas/icon-template.mjs";
import { usesRegionAreas } from "./compat/generation.mjs";
import { api } from "./api.mjs";

globalThis.iconEngine = { applications, canvas: canvasModule, core, data, dice, documents, api, CONFIG: ICONENGINE };

// Start fetching the wasm now: Foundry does not await async hooks, so `init` can't wait for it.
const coreLoaded = core.loadCore();

// A failed load is told to the user with what to do. A fast failure (a missing file) can come
// before Foundry has made `ui.notifications` (after `setup`): it is held until `ready`.
coreLoaded.catch(error => {
  console.error(`${SYSTEM_ID} | the rules core did not load`, error);
  const show = () => ui.notifications?.error(game.i18n?.format("ICONENGINE.Core.LoadError",
    { message: error instanceof Error ? error.message : String(error) }) ?? String(error), { permanent: true });
  if (ui.notifications) show();
  else Hooks.once("ready", show);
});

// The in-world test batch (module/testing/) is loaded only when the Quench module is active; Quench
// calls `quenchReady` after every package's init, by when the import has started.
/** @type {Promise<typeof import("./testing/quench-batches.mjs")> | null} */
let quenchBatches = null;
Hooks.once("quenchReady", (/** @type {import("./testing/quench-batches.mjs").Quench} */ quench) => {
  quenchBatches?.then(batches => batches.registerQuenchBatches(quench));
});

// Requests to the active GM (apply damage to a target the user does not own); game.socket
// exists once the game is ready.
Hooks.once("ready", () => IconSocket.register());

// The world's data version, and its migrations on `ready` for the active GM.
Hooks.once("init", () => MigrationRunner.register());

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | Initializing the ICON Engine system`);
  if (game.modules?.get("quench")?.active) quenchBatches = import("./testing/quench-batches.mjs");
  CONFIG.ICONENGINE = ICONENGINE;
  // First of the chat render hooks: the system's own cards are shown as stored, before any hook
  // binds listeners to their elements (see IconEnrichers.guardSystemCards).
  IconEnrichers.guardSystemCards();
  // Then the cards rendered from their checked data (ability cards, messages of IconRolls).
  applications.CardView.register();

  CONFIG.Actor.documentClass = documents.IconActor;
  CONFIG.Item.documentClass = documents.IconItem;
  Object.assign(CONFIG.Actor.dataModels, {
    character: data.CharacterData,
    foe: data.FoeData,
    hero: data.HeroData
  });
  Object.assign(CONFIG.Item.dataModels, {
    ability: data.AbilityData,
    relic: data.RelicData,
    trait: data.TraitData,
    class: data.ClassData,
    job: data.JobData,
    foeTemplate: data.FoeTemplateData
  });
  // ICON's areas on the map (module/canvas/), and the API macros and modules call (docs/api.md).
  // v13 draws the system's areas as templates; v14's are regions (module/canvas/area-placement.mjs).
  if (!usesRegionAreas()) CONFIG.MeasuredTemplate.objectClass = iconTemplateClass();
  // ICON's movement rules: a player's move that breaks one is warned about (module/canvas/token-movement.mjs).
  canvasModule.TokenMovement.register();
  /** @type {{api?: typeof api}} */ (/** @type {unknown} */ (game.system)).api = api;

  // The ICON turn order: Combat/Combatant delegate to the core's reducer, data on the core
  // "base" type (see module/data/combat-data.mjs for why), and the side-grouped tracker.
  CONFIG.Combat.documentClass = documents.IconCombat;
  CONFIG.Combatant.documentClass = documents.IconCombatant;
  Object.assign(CONFIG.Combat.dataModels, { base: data.IconCombatData });
  Object.assign(CONFIG.Combatant.dataModels, { base: data.IconCombatantData });
  CONFIG.ui.combat = applications.combat.IconCombatTracker;
  documents.IconCombat.registerSocket();
  documents.IconCombat.registerDefeatedSync();
  documents.registerSaveCards();

  // ICON statuses replace Foundry's defaults; Defeated is the one the combat tracker toggles, and
  // core's other special statuses (BLIND) must not fire on ICON's same-named ones.
  CONFIG.statusEffects = data.statusEffects();
  data.configureSpecialStatuses(/** @type {Record<string, string | null>} */ (/** @type {unknown} */ (CONFIG.specialStatusEffects)),
    CONFIG.statusEffects);
  // v14: the end of the affected character's next turn, an expiry event of the system's own (data/effect-duration.mjs)
  data.registerExpiryEvents(/** @type {{ActiveEffect?: Partial<import("./types/foundry-v14.js").ActiveEffectConfigV14>}} */ (/** @type {unknown} */ (CONFIG)));

  const { DocumentSheetConfig } = foundry.applications.apps;
  const sheets = applications.sheets;
  // Core's own sheets would still be offered in Sheet Configuration; ICON actors and items need
  // the system's (as dnd5e does, by core's v13 classes).
  DocumentSheetConfig.unregisterSheet(Actor, "core", foundry.appv1.sheets.ActorSheet);
  DocumentSheetConfig.unregisterSheet(Item, "core", foundry.appv1.sheets.ItemSheet);
  DocumentSheetConfig.registerSheet(Actor, SYSTEM_ID, sheets.CharacterSheet,
    { types: ["character"], makeDefault: true, label: "ICONENGINE.Sheet.character" });
  DocumentSheetConfig.registerSheet(Actor, SYSTEM_ID, sheets.FoeSheet,
    { types: ["foe"], makeDefault: true, label: "ICONENGINE.Sheet.foe" });
  DocumentSheetConfig.registerSheet(Actor, SYSTEM_ID, sheets.HeroSheet,
    { types: ["hero"], makeDefault: true, label: "ICONENGINE.Sheet.hero" });
  DocumentSheetConfig.registerSheet(Item, SYSTEM_ID, sheets.AbilitySheet,
    { types: ["ability"], makeDefault: true, label: "ICONENGINE.Sheet.ability" });
  DocumentSheetConfig.registerSheet(Item, SYSTEM_ID, sheets.IconItemSheet,
    { types: ["relic", "trait"], makeDefault: true, label: "ICONENGINE.Sheet.item" });
  DocumentSheetConfig.registerSheet(Item, SYSTEM_ID, sheets.GrantSheet,
    { types: ["class", "job", "foeTemplate"], makeDefault: true, label: "ICONENGINE.Sheet.grant" });

  // The other rulesets: the world's ruleset and its charts, and their chat cards.
  registerRulesetSettings();
  registerTrustSettings();
  registerTrackerSettings();
  dice.rulesetCards.registerRulesetCards();

  // Registered alongside Roll, never replacing it: `/roll` keeps Foundry's own parser.
  CONFIG.Dice.rolls.push(dice.IconRoll);

  // Every die Foundry rolls draws from one ChaCha20 stream of the core. Until the wasm has loaded
  // (normally long before anyone rolls) Foundry's own generator stays in place.
  coreLoaded.then(api => {
    const rng = new api.Rng();
    CONFIG.Dice.randomUniform = () => rng.uniform();
    console.log(`${SYSTEM_ID} | Rules core ${api.version()} loaded`);
    // Actors prepared before the core loaded (world and unlinked-token ones) have no derived values yet.
    const refresh = () => documents.IconActor.refreshAfterCoreLoad({
      actors: /** @type {Iterable<Actor.Implementation>} */ (game.actors ?? []), scenes: game.scenes });
    if (game.ready) refresh();
    else Hooks.once("ready", refresh);
  }, () => {
    // told to the user by the handler above
  });

  applications.ChatCommands.register();
  IconEnrichers.register();
  applications.PackImportDialog.registerButtons();
  applications.ContentPackDialog.registerButtons();
  applications.PasteDialog.registerButtons();
  applications.ItemUse.register();
  applications.HotbarMacros.register();
  applications.ChatCards.register();
  applications.CardActions.register();
  documents.ActorStatuses.register();
  documents.ActorMarks.register();
  documents.LastingEffects.register();
  applications.narrative.ClockPanel.register();
  applications.narrative.AidEffort.register();
  applications.narrative.NarrativeCards.register();
  foundry.applications.handlebars.loadTemplates([...Object.values(ICONENGINE.templates), ...ICONENGINE.partials]);
  // The chat cards, compiled for the synchronous render of checked data (every roll card is registered by now).
  dice.SyncTemplates.load(applications.CardView.templates).catch(error => console.error(`${SYSTEM_ID} | chat card templates`, error));
});

// ICON counts a diagonal as 1 space: system.json's grid.diagonals makes that the default of the
// world's Square Grid Diagonals setting (core.gridDiagonals); a GM whose world says otherwise is told.
Hooks.once("ready", () => {
  if (!game.user?.isGM) return;
  let rule;
  try {
    rule = game.settings?.get("core", "gridDiagonals");
  } catch {
    return;
  }
  if (rule !== undefined && rule !== CONST.GRID_DIAGONALS.EQUIDISTANT) ui.notifications?.warn("ICONENGINE.Area.Diagonals", { localize: true });
});

// The Token HUD copies a status's description into the effect unlocalized; give it text.
Hooks.once("i18nInit", () => data.localizeStatusDescriptions(CONFIG.statusEffects, key => game.i18n?.localize(key) ?? key));

// Glossary tooltips: the terms of the shipped rules reference, read from it by the pack importer
// when the system was built (scripts/glossary.mjs), so no client loads the importer for them.
Hooks.once("ready", async () => {
  if (!game.packs?.get(`${SYSTEM_ID}.rules-reference`)) return;
  try {
    const response = await fetch(new URL("../packs/glossary.json", import.meta.url));
    if (!response.ok) throw new Error(`packs/glossary.json: ${response.status} ${response.statusText}`);
    IconEnrichers.registerGlossary(await response.json());
  } catch (error) {
    console.error(`${SYSTEM_ID} | the glossary could not be loaded`, error);
  }
});
