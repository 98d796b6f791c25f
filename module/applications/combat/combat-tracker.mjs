import { ICONENGINE, SYSTEM_ID } from "../../config.mjs";
import { contextEntry, entryLabel } from "../context-menu-entry.mjs";
import { foeHpChoice, trackerContext, trackerEvent } from "./tracker-context.mjs";

/**
 * Core's context menu entries about initiative, by their labels in either generation: v13's
 * combatant entries `COMBAT.CombatantClear`/`CombatantReroll`, which v14 renamed
 * `COMBATANT.ACTIONS.Clear`/`Reroll` (v14 systems filter those; read in public v14 tracker code),
 * and the encounter menu's `COMBAT.InitiativeReset` (the same key in both).
 */
const INITIATIVE_ENTRIES = new Set(["COMBAT.CombatantClear", "COMBAT.CombatantReroll", "COMBATANT.ACTIONS.Clear",
  "COMBATANT.ACTIONS.Reroll", "COMBAT.InitiativeReset"]);

/**
 * The ICON combat tracker: the two sides with each combatant's turns as pips, its HP (as the
 * viewer may see it: the `foeHp` setting) and its statuses, the side that acts next highlighted,
 * Act / Slow / End turn / Delay buttons for whoever may use them, party resolve with +/−, the
 * round, and Undo. Foundry draws it again when a combatant's token's actor or its effects change
 * (TokenDocument#_onRelatedUpdate). Foundry's header part (encounter tabs, settings) is kept without its
 * initiative buttons; the tracker and footer parts are ours, rendered from {@link trackerContext}.
 * Every ICON button sends a reducer event through {@link IconCombat#iconDispatch}; hide and
 * defeat are core's `.combatant-control`s, which v13 routes to `_onCombatantControl`.
 */
export default class IconCombatTracker extends foundry.applications.sidebar.tabs.CombatTracker {
  /** @override */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine"],
    actions: {
      iconAct: IconCombatTracker.#onEvent,
      iconSlow: IconCombatTracker.#onEvent,
      iconDelay: IconCombatTracker.#onEvent,
      iconEndTurn: IconCombatTracker.#onEvent,
      iconUndo: IconCombatTracker.#onEvent,
      iconResolve: IconCombatTracker.#onEvent,
      iconStart: IconCombatTracker.#onStart,
      iconEndCombat: IconCombatTracker.#onEndCombat,
      iconForecast: IconCombatTracker.#onForecast
    }
  };

  /** @override */
  static PARTS = {
    header: { template: "templates/sidebar/tabs/combat/header.hbs" },
    tracker: { template: ICONENGINE.combat.tracker, scrollable: [""] },
    footer: { template: ICONENGINE.combat.footer }
  };

  /**
   * The tracker part is ours: core's `_prepareTrackerContext` would build a row per combatant
   * (initiative, resource, effects) that the ICON template never shows.
   * @override
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderContext} context
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderOptions} options
   */
  async _prepareTrackerContext(context, options) {
    Object.assign(context, await this.#iconContext());
  }

  /**
   * The footer is ours too; the header keeps core's context (encounter tabs, settings), which
   * core prepares for both in `_prepareCombatContext`.
   * @override
   * @param {string} partId
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderContext} context
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderOptions} options
   */
  async _preparePartContext(partId, context, options) {
    context = await super._preparePartContext(partId, context, options);
    if (partId === "footer") Object.assign(context, await this.#iconContext());
    return context;
  }

  /**
   * Core's header is kept (encounters, round, encounter menu) without its Roll All / Roll NPCs
   * buttons: v13 calls `combat[action]()` for any `.combat-control`, and ICON has no initiative
   * (IconCombat refuses it). Spacers keep the title centred, as core lays the header out for
   * players.
   * @override
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderContext} context
   * @param {foundry.applications.sidebar.tabs.CombatTracker.RenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!options.parts?.includes("header")) return;
    for (const button of this.element.querySelectorAll('[data-action="rollAll"], [data-action="rollNPC"]')) {
      const spacer = document.createElement("div");
      spacer.classList.add("spacer");
      button.replaceWith(spacer);
    }
    if (game.user?.isGM) this.#addForecastButton();
  }

  /**
   * The GM's Forecast button, in the spacer core keeps before the encounter menu (the left
   * spacers stand for Roll All and Roll NPCs, two each side keep the title centred): it opens the
   * Encounter dialog on the viewed combat once started, else on the selected tokens. Not a
   * `.combat-control`, so v13 does not look for a Combat method of its name.
   */
  #addForecastButton() {
    const spacer = this.element.querySelector(".encounter-controls .control-buttons.right .spacer");
    if (!spacer || this.element.querySelector('[data-action="iconForecast"]')) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "inline-control icon fa-solid fa-chart-column icon-forecast";
    button.dataset.action = "iconForecast";
    const label = game.i18n?.localize("ICONENGINE.Forecast.Button") ?? "ICONENGINE.Forecast.Button";
    button.setAttribute("aria-label", label);
    button.dataset.tooltip = label;
    spacer.replaceWith(button);
  }

  /**
   * Open the Encounter dialog (module/applications/forecast-dialog.mjs, loaded on the first
   * click, with the forecast's wasm when it first runs).
   * @this {IconCombatTracker}
   */
  static async #onForecast() {
    const { default: ForecastDialog } = await import("../forecast-dialog.mjs");
    await ForecastDialog.open({ combat: this.iconCombat });
  }

  /**
   * The viewed combat as the system's Combat (Foundry's `viewed` is typed with the stored-document
   * helper, which does not resolve the configured class).
   * @returns {import("../../documents/icon-combat.mjs").default | null}
   */
  get iconCombat() {
    return /** @type {import("../../documents/icon-combat.mjs").default | null} */ (/** @type {unknown} */ (this.viewed));
  }

  /** The pure tracker context for the viewed combat. */
  async #iconContext() {
    const combat = this.iconCombat;
    // The world setting's choice (module/settings.mjs registers it).
    const user = { isGM: !!game.user?.isGM, foeHp: foeHpChoice(game.settings.get(SYSTEM_ID, "foeHp")) };
    if (!combat) return trackerContext(null, [], user);
    const facts = await Promise.all(combat.turns.map(async c => {
      const combatant = /** @type {import("../../documents/icon-combatant.mjs").default} */ (/** @type {unknown} */ (c));
      return {
        ...combatant.iconFacts,
        name: combatant.name ?? "",
        // core's choice of image: a video token's first frame, else the token or actor image
        // (declared for the stored-document type, which does not resolve the configured class)
        img: await this._getCombatantThumbnail(/** @type {Combatant.Stored} */ (/** @type {unknown} */ (combatant))),
        isOwner: combatant.isOwner,
        hidden: combatant.hidden,
        visible: combatant.visible,
        health: IconCombatTracker.healthOf(combatant.actor),
        statuses: IconCombatTracker.statusIconsOf(combatant.actor)
      };
    }));
    return trackerContext(combat.iconState ?? null, facts, user);
  }

  /**
   * An actor's HP as the row shows it, with the core's verdict on bloodied; null for an actor
   * without ICON health (or none).
   * @param {Actor.Implementation | null} actor
   * @returns {{value: number, max: number, bloodied: boolean} | null}
   */
  static healthOf(actor) {
    const system = /** @type {{hp?: {value?: unknown, max?: unknown}, derived?: {bloodied?: boolean} | null} | undefined} */ (actor?.system);
    const value = Number(system?.hp?.value);
    const max = Number(system?.hp?.max);
    if (!Number.isFinite(value) || !Number.isFinite(max) || max < 1) return null;
    return { value, max, bloodied: !!system?.derived?.bloodied };
  }

  /**
   * An actor's statuses as the row shows them: each applied effect that carries a status (or is an
   * ICON mark), its image and its name, once per image (as core's tracker shows effects);
   * Defeated is the row's own look, not an icon.
   * @param {Actor.Implementation | null} actor
   * @returns {{img: string, name: string}[]}
   */
  static statusIconsOf(actor) {
    /** @type {Map<string, string>} */
    const icons = new Map();
    for (const effect of actor?.appliedEffects ?? []) {
      const statuses = [...effect.statuses];
      const mark = !!/** @type {{mark?: unknown} | undefined} */ (effect.flags?.[SYSTEM_ID])?.mark;
      if (!statuses.length && !mark) continue;
      if (statuses.includes(CONFIG.specialStatusEffects.DEFEATED ?? "defeated")) continue;
      if (effect.img && !icons.has(effect.img)) icons.set(effect.img, effect.name ?? "");
    }
    return [...icons].map(([img, name]) => ({ img, name }));
  }

  /**
   * The GM's side and slow-turn choices for a combatant, next to Foundry's entries.
   * @override
   */
  _getEntryContextOptions() {
    // ICON has no initiative: core's clear and reroll initiative entries would do nothing useful
    const options = super._getEntryContextOptions().filter(o => !INITIATIVE_ENTRIES.has(entryLabel(o)));
    /** @param {HTMLElement} li */
    const combatant = li => this.iconCombat?.combatants.get(li.dataset.combatantId ?? "");
    /** Every Combatant's system is the system's model (module/data/combatant-data.mjs). */
    const system = (/** @type {Combatant.Implementation | undefined} */ c) =>
      /** @type {import("../../data/combatant-data.mjs").default | undefined} */ (c?.system);
    /** @param {string} side @param {string} label */
    const sideEntry = (side, label) => contextEntry({
      label,
      icon: '<i class="fa-solid fa-people-arrows"></i>',
      visible: li => !!game.user?.isGM && system(combatant(li))?.side !== side,
      onClick: li => { combatant(li)?.update({ system: { side } }); }
    });
    return [
      ...options,
      sideEntry("", "ICONENGINE.Combat.sideChoice.auto"),
      sideEntry("party", "ICONENGINE.Combat.sideChoice.party"),
      sideEntry("foes", "ICONENGINE.Combat.sideChoice.foes"),
      contextEntry({
        label: "ICONENGINE.Combat.canSlow",
        icon: '<i class="fa-solid fa-hourglass-half"></i>',
        visible: li => !!game.user?.isGM && !!combatant(li),
        onClick: li => {
          const c = combatant(li);
          c?.update({ system: { canSlow: !system(c)?.canSlow } });
        }
      })
    ];
  }

  /**
   * The encounter menu without core's "reset initiative", which also sets Foundry's turn to 0 and
   * so would point the turn marker away from the ICON turn.
   * @override
   */
  _getCombatContextOptions() {
    return super._getCombatContextOptions().filter(o => !INITIATIVE_ENTRIES.has(entryLabel(o)));
  }

  /**
   * Act, Slow, End turn, Delay, Undo, resolve ±: the button's reducer event.
   * @this {IconCombatTracker}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #onEvent(event, target) {
    event.stopPropagation();
    const combatantId = target.closest("[data-combatant-id]")?.getAttribute("data-combatant-id") ?? undefined;
    const reducerEvent = trackerEvent(target.dataset.action ?? "", { combatantId, by: target.dataset.by });
    const combat = this.iconCombat;
    if (!reducerEvent || !combat) return;
    target.toggleAttribute("disabled", true);
    try {
      await combat.iconDispatch(reducerEvent);
    } finally {
      target.toggleAttribute("disabled", false);
    }
  }

  /**
   * @this {IconCombatTracker}
   */
  static async #onStart() {
    await this.iconCombat?.startCombat();
  }

  /**
   * @this {IconCombatTracker}
   */
  static async #onEndCombat() {
    await this.iconCombat?.endCombat();
  }
}
