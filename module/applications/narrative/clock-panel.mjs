import { ICONENGINE, SYSTEM_ID } from "../../config.mjs";
import { loadCore } from "../../core.mjs";
import GmRecords from "../../gm-records.mjs";
import IconSocket from "../../icon-socket.mjs";
import { readPosition } from "./action-roll.mjs";
import { CLOCK_SIZES, addClock, cardTicks, clockPanelContext, editClock, removeClock, tickClock } from "./clocks.mjs";
import { applyNarrative, narrativeNotices } from "./narrative-state.mjs";

/**
 * @import IconActor from "../../documents/icon-actor.mjs"
 * @import { ProgressClock } from "./clocks.mjs"
 * @import { Position } from "./action-roll.mjs"
 * @import { Done } from "../../types/core.js"
 */

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * The system socket request (module/icon-socket.mjs) a player's tick from an action card runs as
 * on the GM's client: it names the card and the clock, and the GM's client works out the ticks
 * from the card's roll.
 */
const TICK_REQUEST = "tickClock";

/** The most segments one request ticks: a card ticks its roll's segments, never more than the largest clock. */
export const MAX_TICKS = Math.max(...CLOCK_SIZES);

/**
 * The world's progress clocks and the GM's position (risk and effect) for the next action rolls,
 * kept in two world settings (see module/applications/narrative/clocks.mjs for why a panel and
 * not a `clock` actor). Everyone sees the panel; only the GM edits it. Players tick clocks from
 * action cards through the GM's client (world settings are the GM's to write), which ticks the
 * segments the card's roll gives, once per card (docs/security.md).
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
    IconSocket.registerHandler(TICK_REQUEST, (payload, userId) => ClockPanel.#serial(() => ClockPanel.#requestTick(payload, userId)));
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
   * The GM ticks (or unticks) a clock from the panel.
   * @param {string} id
   * @param {number} ticks
   */
  static async tick(id, ticks) {
    if (!game.user?.isGM) throw new Error(game.i18n?.localize("ICONENGINE.Trust.GMOnly") ?? "GM only");
    return ClockPanel.#store(tickClock(ClockPanel.clocks, id, ticks).clocks);
  }

  /**
   * Tick a clock from an action card: the segments its roll gives, once per card. The GM writes the
   * setting; a player's tick runs on the active GM's client through the system socket, and a
   * refusal (the clock is gone, the card has ticked, no GM) comes back as this promise's
   * rejection, so the card does not mark a tick that never happened.
   * @param {ChatMessage.Implementation} message
   * @param {string} clockId
   */
  static async tickFromCard(message, clockId) {
    if (game.user?.isGM) return ClockPanel.#serial(() => ClockPanel.#tickCard(message, clockId, game.user?.id ?? ""));
    if (!game.users?.activeGM) throw new Error(game.i18n?.localize("ICONENGINE.Clock.NoGM") ?? "No GM");
    await IconSocket.executeAsGM(TICK_REQUEST, { messageId: message.id, clockId });
  }

  /** Card ticks one after another, so one card cannot pass its once-only check twice. */
  static #queue = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T>} action
   * @returns {Promise<T>}
   */
  static #serial(action) {
    const run = ClockPanel.#queue.then(action);
    ClockPanel.#queue = run.then(() => {}, () => {});
    return run;
  }

  /**
   * A player's tick request: a card (a chat message with an action roll) and a clock. Allowed to
   * the card's author and its actor's owners.
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #requestTick(payload, userId) {
    const { messageId, clockId } = payload;
    if (typeof messageId !== "string" || typeof clockId !== "string") {
      throw new Error(game.i18n?.localize("ICONENGINE.Trust.BadRequest") ?? "Bad request");
    }
    // foundry-vtt-types 13.345 types the collection's get() without the document's own members.
    const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(messageId)));
    if (!message) throw new Error(game.i18n?.localize("ICONENGINE.Trust.NoMessage") ?? "No message");
    return ClockPanel.#tickCard(message, clockId, userId);
  }

  /**
   * Tick a clock the segments an action card's roll gives, computed again through the core from
   * the roll's faces, once per card (the GM's record says whether it has ticked).
   * @param {ChatMessage.Implementation} message
   * @param {string} clockId
   * @param {string} userId  Who asked.
   */
  static async #tickCard(message, clockId, userId) {
    const t = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    const user = game.users?.get(userId);
    const roll = /** @type {import("../../dice/icon-roll.mjs").default | undefined} */ (
      message.rolls.find(r => /** @type {{options?: {request?: {kind?: unknown}}}} */ (r).options?.request?.kind === "icon.action"));
    if (!roll) throw new Error(t("ICONENGINE.Trust.NoActionRoll"));
    const actorUuid = roll.iconOptions.actorUuid;
    const actor = typeof actorUuid === "string" ? foundry.utils.fromUuidSync(/** @type {`Actor.${string}`} */ (actorUuid)) : null;
    const allowed = !!user && (user.isGM || message.author?.id === user.id || (actor instanceof Actor && actor.testUserPermission(user, "OWNER")));
    if (!allowed) throw new Error(t("ICONENGINE.Trust.MayNotTick"));
    if (GmRecords.tick(message.id)) throw new Error(t("ICONENGINE.Trust.AlreadyTicked"));
    const core = await loadCore();
    const faces = roll.dice.map(term => term.results.map(result => result.result));
    const ticks = cardTicks(/** @type {Done | {status: string}} */ (core.resolve(/** @type {import("../../types/core.js").CoreRequest} */ (roll.iconOptions.request), faces)));
    if (ticks === null) throw new Error(t("ICONENGINE.Trust.NoSegments"));
    if (ticks > MAX_TICKS) throw new Error(game.i18n?.format("ICONENGINE.Trust.TooManyTicks", { max: String(MAX_TICKS) }) ?? "");
    const { clocks } = tickClock(ClockPanel.clocks, clockId, ticks);
    await ClockPanel.#store(clocks);
    if (message.id) await GmRecords.setTick(message.id, { clockId, ticks, userId });
    return { ticks };
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
