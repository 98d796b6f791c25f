import { ICONENGINE, SYSTEM_ID } from "../../config.mjs";
import { loadCore } from "../../core.mjs";
import IconSocket from "../../icon-socket.mjs";
import { readPosition } from "./action-roll.mjs";
import { addClock, clockPanelContext, editClock, removeClock, tickClock } from "./clocks.mjs";
import { applyNarrative, narrativeNotices } from "./narrative-state.mjs";

/**
 * @import IconActor from "../../documents/icon-actor.mjs"
 * @import { ProgressClock } from "./clocks.mjs"
 * @import { Position } from "./action-roll.mjs"
 */

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/** The system socket request (module/icon-socket.mjs) a player's tick runs as on the GM's client. */
const TICK_REQUEST = "tickClock";

/**
 * The world's progress clocks and the GM's position (risk and effect) for the next action rolls,
 * kept in two world settings (see module/applications/narrative/clocks.mjs for why a panel and
 * not a `clock` actor). Everyone sees the panel; only the GM edits it. Players tick clocks from
 * their cards through the GM's client (world settings are the GM's to write).
 */
export default class ClockPanel extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    id: "icon-engine-clocks",
    classes: ["icon-engine", "clock-panel-app"],
    window: { title: "ICONENGINE.Clock.Title", icon: "fa-solid fa-clock", resizable: true },
    position: { width: 320, height: /** @type {"auto"} */ ("auto") },
    actions: {
      tickClock: ClockPanel.#onTick,
      removeClock: ClockPanel.#onRemove,
      addClock: ClockPanel.#onAdd,
      tableEvent: ClockPanel.#onTableEvent
    }
  };

  /** @override */
  static PARTS = { panel: { template: ICONENGINE.templates.clockPanel } };

  /** Register the world settings and the socket; call at init. */
  static register() {
    game.settings?.register(SYSTEM_ID, "clocks", {
      scope: "world", config: false, type: Array, default: [],
      onChange: () => ClockPanel.#refresh()
    });
    game.settings?.register(SYSTEM_ID, "position", {
      scope: "world", config: false, type: Object, default: { risk: "risky", effect: "normal" },
      onChange: () => {
        ClockPanel.#refresh();
        // Open action roll dialogs show the GM's risk and effect and odds of their own.
        for (const app of foundry.applications.instances.values()) {
          if (app.options.classes.includes("action-roll") && app.rendered) app.render();
        }
      }
    });
    IconSocket.registerHandler(TICK_REQUEST, payload => ClockPanel.tick(String(payload.id), Number(payload.ticks)));
    // A button under the token controls opens the panel for everyone (players see, the GM edits).
    // Typed in module/types/fvtt-config.d.ts (foundry-vtt-types 13.345 leaves it out).
    Hooks.on("getSceneControlButtons", controls => {
      const tokens = controls.tokens;
      if (!tokens?.tools) return;
      tokens.tools.iconEngineClocks = {
        name: "iconEngineClocks", title: "ICONENGINE.Clock.Title", icon: "fa-solid fa-clock", order: 100,
        button: true, visible: true, onChange: () => ClockPanel.open()
      };
    });
  }

  /** @returns {ProgressClock[]} */
  static get clocks() {
    return /** @type {ProgressClock[]} */ (game.settings?.get(SYSTEM_ID, "clocks") ?? []);
  }

  /** @returns {Position} */
  static get position() {
    return readPosition(game.settings?.get(SYSTEM_ID, "position"));
  }

  /**
   * The GM sets the risk and effect of the next action rolls.
   * @param {Partial<Position>} changes
   */
  static async setPosition(changes) {
    if (!game.user?.isGM) return;
    await game.settings?.set(SYSTEM_ID, "position", readPosition({ ...ClockPanel.position, ...changes }));
  }

  /** Open (or bring forward) the panel. */
  static async open() {
    const existing = foundry.applications.instances.get("icon-engine-clocks");
    if (existing) return existing.render({ force: true });
    await loadCore();
    return new ClockPanel().render({ force: true });
  }

  /**
   * Tick a clock, from a card or the panel. The GM writes the setting; a player's tick runs on the
   * active GM's client through the system socket, and a refusal (the clock is gone, no GM) comes
   * back as this promise's rejection, so the card does not mark a tick that never happened.
   * @param {string} id
   * @param {number} ticks
   */
  static async tick(id, ticks) {
    if (game.user?.isGM) return ClockPanel.#store(tickClock(ClockPanel.clocks, id, ticks).clocks);
    if (!game.users?.activeGM) throw new Error(game.i18n?.localize("ICONENGINE.Clock.NoGM") ?? "No GM");
    await IconSocket.executeAsGM(TICK_REQUEST, { id, ticks });
  }

  /** @param {ProgressClock[]} clocks */
  static async #store(clocks) {
    await game.settings?.set(SYSTEM_ID, "clocks", clocks);
  }

  static #refresh() {
    const panel = foundry.applications.instances.get("icon-engine-clocks");
    if (panel?.rendered) panel.render();
  }

  /**
   * @override
   * @param {import("../../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    return clockPanelContext(ClockPanel.clocks, { isGM: Boolean(game.user?.isGM), position: ClockPanel.position });
  }

  /**
   * The GM's edits of names, sizes and the position take effect on change.
   * @override
   * @param {import("../../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!game.user?.isGM) return;
    for (const field of this.element.querySelectorAll("[data-clock-field]")) {
      field.addEventListener("change", event => this.#onFieldChange(event));
    }
  }

  /** @param {Event} event */
  async #onFieldChange(event) {
    const field = /** @type {HTMLInputElement|HTMLSelectElement} */ (event.currentTarget);
    const name = field.dataset.clockField ?? "";
    try {
      if (name === "risk" || name === "effect") return await ClockPanel.setPosition({ [name]: field.value });
      const id = field.closest("[data-clock-id]")?.getAttribute("data-clock-id") ?? "";
      const changes = name === "segments" ? { segments: Number(field.value) } : { name: field.value };
      await ClockPanel.#store(editClock(ClockPanel.clocks, id, changes));
    } catch (error) {
      ClockPanel.#report(error);
    }
  }

  /** @param {unknown} error */
  static #report(error) {
    console.error(error);
    ui.notifications?.error(error instanceof Error ? error.message : String(error));
  }

  /**
   * @this {ClockPanel}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #onTick(event, target) {
    const id = target.closest("[data-clock-id]")?.getAttribute("data-clock-id") ?? "";
    await ClockPanel.tick(id, Number(target.dataset.ticks)).catch(ClockPanel.#report);
  }

  /**
   * @this {ClockPanel}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #onRemove(event, target) {
    const id = target.closest("[data-clock-id]")?.getAttribute("data-clock-id") ?? "";
    await ClockPanel.#store(removeClock(ClockPanel.clocks, id));
  }

  /**
   * End of scene (the broken recover), camp or end of the expedition, for every player character,
   * through the core's narrativeApply. Camp is also the tactical camp ("Characters that camp
   * regain all of their HP"; personal resolve "resets to 0 after camp"): the core's `icon.heal`
   * camp, with its card.
   * @this {ClockPanel}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #onTableEvent(event, target) {
    if (!game.user?.isGM) return;
    const type = target.dataset.event ?? "";
    for (const actor of /** @type {IconActor[]} */ (game.actors?.contents ?? [])) {
      if (actor.type !== "character") continue;
      try {
        const { update, effects } = applyNarrative(/** @type {Actor.SystemOfType<"character">} */ (actor.system), { type }); // a character (checked above)
        await actor.update(update);
        const { notices } = narrativeNotices(effects, actor.name ?? "");
        for (const { key, data, level } of notices) ui.notifications?.[level](game.i18n?.format(key, data) ?? key);
        if (type === "clearStrain") {
          const { default: TacticalRolls } = await import("../../dice/tactical-rolls.mjs");
          await TacticalRolls.heal(actor, "camp");
        }
      } catch (error) {
        ClockPanel.#report(error);
      }
    }
  }

  /** @this {ClockPanel} */
  static async #onAdd() {
    const name = /** @type {HTMLInputElement|null} */ (this.element.querySelector("[name=newName]"))?.value ?? "";
    const segments = Number(/** @type {HTMLSelectElement|null} */ (this.element.querySelector("[name=newSegments]"))?.value ?? 6);
    try {
      const label = name.trim() || (game.i18n?.localize("ICONENGINE.Clock.Untitled") ?? "Clock");
      await ClockPanel.#store(addClock(ClockPanel.clocks, { id: foundry.utils.randomID(), name: label, segments }));
    } catch (error) {
      ClockPanel.#report(error);
    }
  }
}
