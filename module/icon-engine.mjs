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

globalThis.iconEngine = { applications, core, data, dice, documents, CONFIG: ICONENGINE };

// Start fetching the wasm now: Foundry does not await async hooks, so `init` can't wait for it.
const coreLoaded = core.loadCore();

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | Initializing the ICON Engine system`);
  CONFIG.ICONENGINE = ICONENGINE;

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
    trait: data.TraitData
  });

  // Registered alongside Roll, never replacing it: `/roll` keeps Foundry's own parser.
  CONFIG.Dice.rolls.push(dice.IconRoll);

  // Every die Foundry rolls draws from one ChaCha20 stream of the core. Until the wasm has loaded
  // (normally long before anyone rolls) Foundry's own generator stays in place.
  coreLoaded.then(api => {
    const rng = new api.Rng();
    CONFIG.Dice.randomUniform = () => rng.uniform();
    console.log(`${SYSTEM_ID} | Rules core ${api.version()} loaded`);
  }, error => {
    console.error(error);
    ui.notifications?.error(game.i18n?.format("ICONENGINE.Core.LoadError", { message: String(error) }) ?? String(error),
      { permanent: true });
  });

  applications.ChatCommands.register();
  IconEnrichers.register();
  applications.PackImportDialog.registerButtons();
  applications.ChatCards.register();
  foundry.applications.handlebars.loadTemplates(Object.values(ICONENGINE.templates));
});

// Glossary tooltips: the terms come from the shipped rules reference, parsed by the core.
Hooks.once("ready", async () => {
  try {
    const api = await coreLoaded;
    const pack = game.packs?.get(`${SYSTEM_ID}.rules-reference`);
    if (!pack) return;
    const entries = /** @type {JournalEntry[]} */ (/** @type {unknown} */ (await pack.getDocuments()));
    const glossary = entries.flatMap(entry => entry.pages.contents)
      .filter(page => page.type === "text")
      .flatMap(page => api.glossaryTerms(page.text.content ?? "", page.name ?? ""));
    IconEnrichers.registerGlossary(glossary);
  } catch (error) {
    console.error(`${SYSTEM_ID} | the glossary could not be loaded`, error);
  }
});
