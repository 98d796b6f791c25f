import { SYSTEM_ID } from "./config.mjs";
import { HOOKS } from "./hooks.mjs";
import * as abilityRules from "./data/ability-rules.mjs";
import * as areaShapes from "./canvas/area-shapes.mjs";
import AreaPlacement from "./canvas/area-placement.mjs";
import ItemUse from "./applications/item-use.mjs";
import AttackDialog from "./applications/attack-dialog.mjs";
import TacticalRolls from "./dice/tactical-rolls.mjs";
import ItemGrants from "./documents/item-grants.mjs";
import * as contentPacks from "./packs/content-pack.mjs";
import ContentPackImporter from "./packs/content-import.mjs";
import { format } from "./applications/i18n.mjs";

/**
 * An item from itself or its UUID.
 * @param {Item.Implementation | string} item
 * @returns {Promise<Item.Implementation>}
 */
async function itemOf(item) {
  if (typeof item !== "string") return item;
  const doc = await fromUuid(/** @type {`Item.${string}`} */ (item));
  if (!(doc instanceof Item)) throw new Error(format("ICONENGINE.Use.NoItem", { uuid: item }));
  return /** @type {Item.Implementation} */ (doc);
}

/** The forecast is the GM's: a player's call is refused before anything loads. */
function gmOnly() {
  if (!game.user?.isGM) throw new Error(format("ICONENGINE.Forecast.GMOnly"));
}

/**
 * The system's API for macros and other modules, `game.system.api` (docs/api.md): every name here
 * is documented there, with the hooks.
 */
export const api = Object.freeze({
  /** The system's id, the flag scope of everything it stores. */
  id: SYSTEM_ID,
  /** The hooks' names (module/hooks.mjs), each documented in docs/api.md. */
  hooks: HOOKS,
  /**
   * Use an ability, relic or trait, as its Use button does (the hotbar's macros call this).
   * @param {Item.Implementation | string} item  The item or its UUID.
   * @param {Partial<import("./applications/item-use.mjs").UseConfig>} [options]
   */
  useItem: async (item, options) => ItemUse.use(await itemOf(item), options),
  /**
   * Why an item cannot be used now (a sentence), or null.
   * @param {Item.Implementation | string} item
   */
  refusal: async item => ItemUse.refusal(await itemOf(item)),
  /**
   * Place an item's area on the viewed scene (a preview, or at `at` in pixels) and target what it covers.
   * @param {Item.Implementation | string} item
   * @param {{at?: {x: number, y: number} | null}} [options]
   */
  placeArea: async (item, options) => AreaPlacement.place(await itemOf(item), options),
  /**
   * The tokens of the viewed scene a measured template covers.
   * @param {MeasuredTemplateDocument.Implementation} template
   */
  coveredTokens: template => AreaPlacement.coveredTokens(template),
  /**
   * Open the attack dialog for an actor (an ability's, or a basic light/heavy attack).
   * @param {Actor.Implementation} actor
   * @param {Parameters<typeof AttackDialog.open>[1]} [options]
   */
  attack: (actor, options) => AttackDialog.open(actor, options),
  /**
   * Roll a save for an actor (against one of its statuses, with boons, curses, a Blessing).
   * @param {Actor.Implementation} actor
   * @param {Parameters<typeof TacticalRolls.save>[1]} [options]
   */
  save: (actor, options) => TacticalRolls.save(actor, options),
  /**
   * Apply a status (with how long it lasts) or a mark to a target, as an ability's effect does.
   * @param {Actor.Implementation | null} inflicter
   * @param {Actor.Implementation} target
   * @param {Partial<import("./applications/item-use.mjs").UseEffect>} effect
   */
  applyEffect: (inflicter, target, effect) => ItemUse.applyEffect(inflicter, target,
    { trigger: "use", status: "", duration: "save", mark: "", movement: "", text: "", ...effect }),
  /**
   * The encounter forecast (GM only; docs/api.md): `open` the Encounter dialog on a running combat
   * or a planned fight of actors, or `run` a forecast request and get its report. The forecast's
   * modules load on first use; a player's call is refused.
   */
  forecast: Object.freeze({
    /** @param {Parameters<typeof import("./applications/forecast-dialog.mjs").default.open>[0]} [options] */
    open: async options => {
      gmOnly();
      const { default: ForecastDialog } = await import("./applications/forecast-dialog.mjs");
      return ForecastDialog.open(options);
    },
    /**
     * @param {object} request  A forecast request (docs/js-contract.md, "Encounter forecast").
     * @param {import("./forecast/forecast.mjs").RunOptions} [options]
     */
    run: async (request, options) => {
      gmOnly();
      const { loadForecast } = await import("./forecast/forecast.mjs");
      return (await loadForecast()).runInBatches(request, options);
    },
    /**
     * A forecast request of the running combat, or of a planned fight of actors.
     * @param {{combat?: import("./documents/icon-combat.mjs").default, actors?: import("./forecast/gather.mjs").PlannedFighter[],
     *   options?: import("./forecast/gather.mjs").ForecastOptions}} source
     */
    request: async ({ combat, actors, options }) => {
      gmOnly();
      const { combatRequest, plannedRequest } = await import("./forecast/gather.mjs");
      return combat ? combatRequest(combat, options) : plannedRequest(actors ?? [], options);
    }
  }),
  /** Granting a class's, job's or foe template's items (module/documents/item-grants.mjs). */
  grants: Object.freeze({
    find: ItemGrants.find,
    grant: ItemGrants.grant,
    revoke: ItemGrants.revoke,
    pick: ItemGrants.pick
  }),
  /** Content packs (docs/content-packs.md): plan one (a report, nothing written), import one. */
  contentPacks: Object.freeze({
    plan: contentPacks.planContentPack,
    import: ContentPackImporter.import,
    examplePath: contentPacks.EXAMPLE_PACK_PATH
  }),
  /** The pure rules of abilities and areas. */
  rules: Object.freeze({ abilities: abilityRules, areas: areaShapes })
});
