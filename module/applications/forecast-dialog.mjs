import { format, localize } from "./i18n.mjs";
import { loadForecast } from "../forecast/forecast.mjs";
import { combatRequest, plannedRequest } from "../forecast/gather.mjs";
import { POLICIES, policyChoices, reportView } from "../forecast/view.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @import { ForecastReport } from "../forecast/forecast.mjs"
 * @import { PlannedFighter } from "../forecast/gather.mjs"
 */

/**
 * The Encounter dialog (GM only): how a fight is likely to go, forecast by the core's
 * `forecast` module (loaded when the dialog first runs). For the running combat it plays from
 * the combat's state as it stands (refreshed on demand as the fight goes on); for a planned
 * fight, from the selected tokens or actors dropped into the dialog. Charts are HTML bars, each
 * with its figure in words; a progress bar shows the fights played while it runs.
 */
export default class ForecastDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    id: "icon-engine-forecast",
    tag: "form",
    classes: ["icon-engine", "forecast-dialog"],
    window: { title: "ICONENGINE.Forecast.Title", icon: "fa-solid fa-chart-column", resizable: true },
    position: { width: 560 },
    form: { handler: ForecastDialog.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: {
      addSelected: ForecastDialog.#onAddSelected,
      removeFighter: ForecastDialog.#onRemove,
      swapSide: ForecastDialog.#onSwapSide
    }
  };

  /** @override */
  static PARTS = {
    form: { template: "systems/icon-engine/templates/apps/forecast-dialog.hbs", scrollable: [""] }
  };

  /**
   * Open the dialog (GM only): on `combat` (the running one), or on a planned fight of `actors`
   * (the selected tokens' when none are given and there is no combat).
   * @param {{combat?: import("../documents/icon-combat.mjs").default | null, actors?: PlannedFighter[]}} [options]
   */
  static async open({ combat = null, actors } = {}) {
    if (!game.user?.isGM) throw new Error(localize("ICONENGINE.Forecast.GMOnly"));
    const dialog = new ForecastDialog();
    if (combat?.iconState && !combat.iconState.ended) dialog.#combat = combat;
    else dialog.#planned = actors ?? ForecastDialog.#selected();
    await dialog.render({ force: true });
    return dialog;
  }

  /** @type {import("../documents/icon-combat.mjs").default | null} */
  #combat = null;

  /** @type {PlannedFighter[]} */
  #planned = [];

  /** @type {{fights: number, seed: string, party: string, foes: string}} */
  #settings = { fights: 2000, seed: "", party: "focus", foes: "focus" };

  /** @type {ForecastReport | null} */
  #report = null;

  /** @type {Map<string, string>} */
  #names = new Map();

  /** @type {string | null} */
  #error = null;

  #running = false;

  /** The report shown, for macros and tests. */
  get report() {
    return this.#report;
  }

  /** The planned fight's fighters from the controlled tokens with an actor. */
  static #selected() {
    /** @type {PlannedFighter[]} */
    const out = [];
    for (const token of canvas?.tokens?.controlled ?? []) {
      const actor = token.actor;
      if (actor) out.push({ actor, disposition: token.document.disposition });
    }
    return out;
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const combat = this.#combat;
    const planned = this.#planned.map((p, i) => {
      const side = this.#sideOf(p);
      const sideLabel = localize(side === "party" ? "ICONENGINE.Forecast.SideParty" : "ICONENGINE.Forecast.SideFoes");
      return { index: i, name: p.actor.name, img: p.actor.img, side, sideLabel,
        swap: format("ICONENGINE.Forecast.SwapSide", { name: p.actor.name, side: sideLabel }),
        remove: format("ICONENGINE.Forecast.Remove", { name: p.actor.name }) };
    });
    return {
      running: !!combat,
      runningLabel: combat ? format("ICONENGINE.Forecast.Running", { round: combat.iconState?.round ?? 0 }) : "",
      planned,
      settings: this.#settings,
      partyPolicies: policyChoices(this.#settings.party),
      foesPolicies: policyChoices(this.#settings.foes),
      busy: this.#running,
      error: this.#error,
      report: this.#report ? reportView(this.#report, this.#names) : null,
      canRun: !!combat || planned.length > 1
    };
  }

  /**
   * A planned fighter's side: as given, else from its actor's type and token.
   * @param {PlannedFighter} p
   * @returns {"party"|"foes"}
   */
  #sideOf(p) {
    if (p.side) return p.side;
    if (p.actor.type === "character") return "party";
    return (p.disposition ?? -1) > 0 ? "party" : "foes";
  }

  /**
   * Actors dropped onto the dialog join the planned fight.
   * @override
   * @param {import("../types/sheets.js").ApplicationContext} context
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (this.#combat) return;
    const zone = this.element.querySelector(".forecast-fighters");
    zone?.addEventListener("dragover", event => event.preventDefault());
    zone?.addEventListener("drop", event => this.#onDrop(/** @type {DragEvent} */ (event)));
  }

  /** @param {DragEvent} event */
  async #onDrop(event) {
    event.preventDefault();
    const data = /** @type {{type?: string, uuid?: string}} */ (foundry.applications.ux.TextEditor.implementation.getDragEventData(event));
    if (data?.type !== "Actor" || typeof data.uuid !== "string") return;
    const actor = await fromUuid(/** @type {`Actor.${string}`} */ (data.uuid));
    if (!(actor instanceof Actor)) return;
    this.#planned.push({ actor: /** @type {Actor.Implementation} */ (actor) });
    this.#report = null;
    await this.render();
  }

  /** @this {ForecastDialog} */
  static async #onAddSelected() {
    const selected = ForecastDialog.#selected();
    if (!selected.length) {
      ui.notifications?.warn(localize("ICONENGINE.Forecast.NoneSelected"));
      return;
    }
    this.#planned.push(...selected);
    this.#report = null;
    await this.render();
  }

  /** @this {ForecastDialog} @param {PointerEvent} event @param {HTMLElement} target */
  static async #onRemove(event, target) {
    this.#planned.splice(Number(target.dataset.index), 1);
    this.#report = null;
    await this.render();
  }

  /** @this {ForecastDialog} @param {PointerEvent} event @param {HTMLElement} target */
  static async #onSwapSide(event, target) {
    const p = this.#planned[Number(target.dataset.index)];
    if (!p) return;
    p.side = this.#sideOf(p) === "party" ? "foes" : "party";
    this.#report = null;
    await this.render();
  }

  /**
   * Run the forecast with the form's settings.
   * @this {ForecastDialog}
   * @param {Event | SubmitEvent} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onSubmit(event, form, formData) {
    const o = /** @type {Record<string, unknown>} */ (formData.object);
    const pick = (/** @type {unknown} */ v) => (POLICIES.includes(/** @type {any} */ (v)) ? String(v) : "focus");
    this.#settings = {
      fights: Math.max(1, Math.min(100_000, Math.trunc(Number(o.fights)) || 2000)),
      seed: String(o.seed ?? "").trim(),
      party: pick(o.party),
      foes: pick(o.foes)
    };
    await this.run();
  }

  /** Play the forecast (again) and show it. */
  async run() {
    if (this.#running) return;
    const s = this.#settings;
    const seed = /^\d+$/.test(s.seed) ? Number(s.seed) : null;
    const options = { fights: s.fights, seed, policy: { party: s.party, foes: s.foes } };
    this.#running = true;
    this.#error = null;
    await this.render();
    try {
      const request = this.#combat ? combatRequest(this.#combat, options) : plannedRequest(this.#planned, options);
      this.#names = new Map(this.#combat
        ? this.#combat.combatants.map(c => [/** @type {string} */ (c.id), c.name ?? ""])
        : this.#planned.map((p, i) => [`planned${i}`, p.actor.name]));
      const forecast = await loadForecast();
      this.#report = await forecast.runInBatches(request, { onProgress: (played, fights) => this.#progress(played, fights) });
    } catch (error) {
      this.#error = format("ICONENGINE.Forecast.Failed", { message: error instanceof Error ? error.message : String(error) });
      this.#report = null;
    } finally {
      this.#running = false;
    }
    await this.render();
  }

  /**
   * The progress bar between batches (set directly: a render per batch would cost more than it).
   * @param {number} played @param {number} fights
   */
  #progress(played, fights) {
    const bar = /** @type {HTMLProgressElement | null} */ (this.element?.querySelector(".forecast-progress progress"));
    const text = this.element?.querySelector(".forecast-progress .status");
    if (bar) {
      bar.max = fights;
      bar.value = played;
    }
    if (text) text.textContent = format("ICONENGINE.Forecast.Progress", { played, fights });
  }
}
