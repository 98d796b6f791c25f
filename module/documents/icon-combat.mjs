import { SYSTEM_ID } from "../config.mjs";
import { combatApply } from "../core.mjs";
import { STATE_VERSION, stateCombatants } from "../applications/combat/tracker-context.mjs";
import { combatUpdate, refusalFor } from "../data/combat-rules.mjs";
import IconSocket from "../icon-socket.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import { runCombatEffects } from "./combat-effects.mjs";
import { localize } from "../applications/i18n.mjs";

/** @param {string} key @param {Record<string, string>} data */
const format = (key, data) => game.i18n?.format(key, data) ?? key;

/** The system socket request that carries a player's turn-order events to the GM. */
const REQUEST = "combatEvents";

/**
 * The most events one player's request carries (the tracker sends one per click); more is
 * refused whole, so no request can flood the undo log.
 */
export const MAX_EVENTS_PER_REQUEST = 8;

/**
 * @typedef {import("../applications/combat/tracker-context.mjs").CombatState} CombatState
 * @typedef {{type: string, id?: string | null, [field: string]: unknown}} CombatEvent  A reducer event (docs/js-contract.md).
 * @typedef {[{round: number, turn: number}, {advanceTime: number, direction: number}]} TurnHookData
 *   combatRound/combatTurn's data as declared; ICON's turn is null between turns (Combat#turn is
 *   nullable) and no time advances, so what is passed is cast to it.
 * @typedef {Parameters<typeof runCombatEffects>[1][number]} CombatEffect  A reducer effect.
 */

/**
 * The system's Combat: ICON has no initiative, so the turn order is the core's reducer
 * (`combatApply`), whose state lives in `system.state`. Every event runs on one GM (a player's
 * click travels over the system socket to the active GM), which stores the new state, keeps Foundry's
 * `round`/`turn` in step (turn markers, `combat.combatant`), fires the `combatRound`/`combatTurn`
 * hooks and the `_onStartTurn`/`_onEndTurn` workflows once, and carries out the effects.
 */
export default class IconCombat extends Combat {
  /**
   * The reducer state, or null before the combat starts. A state stored in an older shape
   * (version 1 its undo history as snapshots, no `v`; version 2 its combatants as objects) is shown
   * converted by the core; the GM's next event (or {@link iconUpgrade}) stores it converted.
   * @type {import("../applications/combat/tracker-context.mjs").CombatState | null}
   */
  get iconState() {
    const stored = this.#storedState;
    if (!stored || stored.v === STATE_VERSION) return /** @type {CombatState | null} */ (stored);
    let view = IconCombat.#upgraded.get(stored);
    if (!view) {
      try {
        view = /** @type {CombatState} */ (combatApply(stored, { type: "upgrade" }).state);
      } catch (error) {
        console.error(`${SYSTEM_ID} | combat state`, error);
        return null;
      }
      IconCombat.#upgraded.set(stored, view);
    }
    return view;
  }

  /** Converted views of states stored in the old shape, by the stored object. */
  static #upgraded = new WeakMap();

  /**
   * `system.state` as stored (what Foundry diffs an update against).
   * @returns {(Partial<CombatState> & Record<string, unknown>) | null}  Today's shape has `v` = STATE_VERSION.
   */
  get #storedState() {
    // Every Combat is of the "base" type; system.state holds the reducer's JSON (an ObjectField), or null.
    const system = /** @type {{state?: (Partial<CombatState> & Record<string, unknown>) | null} | undefined} */ (this._source.system);
    return system?.state ?? null;
  }

  /**
   * Store a state kept in an older shape in today's shape (nothing about the
   * fight changes, nothing is logged). Events do this by themselves; a world migration can call
   * it for every combat at once. GM only.
   * @returns {Promise<boolean>}  Whether anything was converted.
   */
  async iconUpgrade() {
    const stored = this.#storedState;
    if (!game.user?.isGM || !stored || stored.v === STATE_VERSION) return false;
    await this.iconCommit([{ type: "upgrade" }], null);
    return true;
  }

  /** Party resolve now (0 outside a started combat). */
  get partyResolve() {
    return this.iconState?.partyResolve ?? 0;
  }

  /** @override */
  get started() {
    return this.iconState !== null || super.started;
  }

  /**
   * Send a turn-order event. It is checked here first, so a refusal shows at once with the core's
   * reason; then the active GM applies it.
   * @param {CombatEvent} event
   * @returns {Promise<void>}
   */
  async iconDispatch(event) {
    try {
      combatApply(this.iconState, event);
      const reason = refusalFor(event, this.#userFacts(game.user, this.iconState));
      if (reason) throw new Error(localize(reason));
      if (game.user?.isGM) return await this.iconCommit([event]);
      if (!game.users?.activeGM) throw new Error(localize("ICONENGINE.Combat.noGM"));
      await IconSocket.executeAsGM(REQUEST, { combatId: this.id, events: [event] });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ui.notifications?.warn(format("ICONENGINE.Combat.Refused.error", { message }));
    }
  }

  /**
   * Apply events as the GM: one Combat update, then the effects, on this client only. Throws
   * (and stores nothing) if the core refuses any of them.
   * @param {CombatEvent[]} events
   * @param {User.Implementation | null} [user]  Who asked (null: the system itself).
   */
  async iconCommit(events, user = game.user) {
    if (!game.user?.isGM) throw new Error(localize("ICONENGINE.Combat.noGM"));
    const roundBefore = this.round;
    let state = this.iconState;
    /** @type {CombatEffect[]} */
    const effects = [];
    for (const event of events) {
      // Checked against the state as the events before it in the batch left it.
      const reason = user ? refusalFor(event, this.#userFacts(user, state)) : null;
      if (reason) throw new Error(localize(reason));
      // Other modules may cancel a turn-order change or change its event (module/hooks.mjs).
      if (!callPre(HOOKS.preTurnChange, this, event, { user, state })) throw cancelled(HOOKS.preTurnChange);
      // The reducer's answer, as docs/js-contract.md gives it.
      const reduced = /** @type {{state: CombatState | null, effects: CombatEffect[]}} */ (combatApply(state, event));
      state = reduced.state;
      effects.push(...reduced.effects);
    }
    // only what changed: Foundry sends (and every client receives) this diff, not the state
    const updateData = combatUpdate(this.#storedState, state, this.turns.map(c => c.id ?? ""));
    // core's _onUpdate then calls _manageTurnEvents on every client (see there)
    const updateOptions = { direction: /** @type {const} */ (1) };
    // Foundry's hooks, fired once here (the GM) before the update, as core's nextRound/nextTurn do.
    const hookArgs = /** @type {TurnHookData} */ (/** @type {unknown} */ ([updateData, updateOptions]));
    if (updateData.round !== this.round) Hooks.callAll("combatRound", this, ...hookArgs);
    else if (updateData.turn !== this.turn) Hooks.callAll("combatTurn", this, ...hookArgs);
    // A dotted "system.state" key, which Foundry expands; the declared UpdateData has no dotted form.
    await this.update(/** @type {Combat.UpdateData} */ (/** @type {unknown} */ (updateData)), updateOptions);
    await runCombatEffects(this, effects, {
      startTurn: (c, context) => this._onStartTurn(c, context),
      clearMovement: (c, context) => this._clearMovementHistoryOnStartTurn(c, context),
      endTurn: (c, context) => this._onEndTurn(c, context),
      startRound: context => this._onStartRound(context),
      endRound: context => this._onEndRound(context)
    });
    callAfter(HOOKS.turnChange, this, { events, effects, state });
    const started = effects.find(e => e.type === "roundStarted");
    if (started) callAfter(HOOKS.roundChange, this, started.round ?? this.round, roundBefore);
  }

  /**
   * What the permission check needs to know about a user, in a state.
   * @param {User.Implementation | null} user
   * @param {CombatState | null} state
   */
  #userFacts(user, state) {
    return {
      isGM: !!user?.isGM,
      owns: (/** @type {string} */ id) => !!user && !!this.combatants.get(id)?.testUserPermission(user, "OWNER"),
      currentId: state?.current?.id ?? null
    };
  }

  /** Players' events reach the active GM through the system socket; it checks and applies them. */
  static registerSocket() {
    IconSocket.registerHandler(REQUEST, async (payload, userId) => {
      const { combatId, events } = payload;
      const combat = typeof combatId === "string" ? /** @type {IconCombat | undefined} */ (game.combats?.get(combatId)) : undefined;
      const user = game.users?.get(userId) ?? null;
      if (!combat || !user) throw new Error(localize("ICONENGINE.Trust.NoCombat"));
      if (!Array.isArray(events) || !events.length) throw new Error(localize("ICONENGINE.Trust.NoEvents"));
      if (events.length > MAX_EVENTS_PER_REQUEST) {
        throw new Error(format("ICONENGINE.Trust.TooManyEvents", { count: String(events.length), max: String(MAX_EVENTS_PER_REQUEST) }));
      }
      // Each a record with a type: what else a player sent, the reducer and refusalFor check.
      if (!events.every(e => e && typeof e === "object" && !Array.isArray(e) && typeof e.type === "string")) {
        throw new Error(localize("ICONENGINE.Trust.BadEvent"));
      }
      await combat.iconCommit(/** @type {CombatEvent[]} */ (events), user);
    });
  }

  /**
   * The Defeated status set on a token (HUD, damage) without touching the Combatant still marks
   * the combatant defeated in the turn order, for linked and unlinked actors alike.
   */
  static registerDefeatedSync() {
    const sync = (/** @type {ActiveEffect.Implementation} */ effect) => {
      if (!game.user?.isActiveGM || !effect.statuses.has(CONFIG.specialStatusEffects.DEFEATED)) return;
      const actor = effect.parent;
      if (!(actor instanceof Actor)) return;
      for (const combat of game.combats ?? []) if (combat instanceof IconCombat) combat.#syncDefeated(actor.uuid);
    };
    Hooks.on("createActiveEffect", sync);
    Hooks.on("deleteActiveEffect", sync);
  }

  /**
   * Tell the reducer about combatants of this actor whose defeated state it has wrong.
   * @param {string} actorUuid
   */
  #syncDefeated(actorUuid) {
    this.#follow(() => this.#defeatedEvents(c => c.actor?.uuid === actorUuid));
  }

  /**
   * setDefeated events for the chosen combatants whose defeated state the reducer has wrong.
   * @param {(c: Combatant.Implementation) => boolean} which
   * @returns {CombatEvent[]}
   */
  #defeatedEvents(which) {
    const rows = new Map(stateCombatants(this.iconState).map(c => [c.id, c]));
    return this.combatants.filter(c => which(c)).flatMap(c => {
      const row = rows.get(c.id ?? "");
      return row && row.defeated !== c.isDefeated ? [{ type: "setDefeated", id: c.id, defeated: c.isDefeated }] : [];
    });
  }

  /* -------------------------------------------- */
  /*  Foundry's turn controls, mapped to ICON      */
  /* -------------------------------------------- */

  /**
   * Begin the ICON turn order with every combatant (defeated ones marked so).
   * @override
   */
  async startCombat() {
    const combatants = this.combatants.contents;
    const entries = combatants.map(c => c.iconEntry());
    /** @type {CombatEvent[]} */
    const events = [{ type: "start", combatants: entries }];
    for (const c of combatants) if (c.isDefeated) events.push({ type: "setDefeated", id: c.id, defeated: true });
    this._playCombatSound("startEncounter");
    // Foundry passes turn 0; ICON has no open turn until one is picked (declared: a number).
    Hooks.callAll("combatStart", this, /** @type {{round: number, turn: number}} */ (/** @type {unknown} */ ({ round: 1, turn: null })));
    await this.iconCommit(events);
    return this;
  }

  /**
   * "Next turn" ends the open turn; who acts next is chosen on the tracker.
   * @override
   */
  async nextTurn() {
    if (this.iconState?.current) await this.iconDispatch({ type: "endTurn" });
    else ui.notifications?.info(localize("ICONENGINE.Combat.pickWhoActs"));
    return this;
  }

  /**
   * Rounds end by themselves when nobody has turns left.
   * @override
   */
  async nextRound() {
    ui.notifications?.info(localize("ICONENGINE.Combat.nextRoundRefused"));
    return this;
  }

  /** @override */
  async previousTurn() {
    await this.iconDispatch({ type: "undo" });
    return this;
  }

  /** @override */
  async previousRound() {
    await this.iconDispatch({ type: "undo" });
    return this;
  }

  /**
   * ICON has no initiative: who acts next is chosen on the tracker. Core's initiative rolls (a
   * macro, a module, a combatant's d20) would post cards, write `initiative` and re-sort `turns`;
   * they are refused with a notice.
   * @override
   * @param {string | string[]} ids
   * @param {Combat.InitiativeOptions} [options]
   */
  async rollInitiative(ids, options) {
    ui.notifications?.warn(localize("ICONENGINE.Foundry.NoInitiative"));
    return this;
  }

  /** @override @param {Combat.InitiativeOptions} [options] */
  async rollAll(options) {
    return this.rollInitiative([], options);
  }

  /** @override @param {Combat.InitiativeOptions} [options] */
  async rollNPC(options) {
    return this.rollInitiative([], options);
  }

  /**
   * Ask, apply the end-of-combat rules (the reducer's `endCombat` effects), then delete the
   * combat as Foundry does.
   * @override
   */
  async endCombat() {
    const yes = await foundry.applications.api.DialogV2.confirm({
      window: { title: "COMBAT.EndTitle" },
      content: `<p>${localize("ICONENGINE.Combat.endCombatConfirm")}</p>`
    });
    if (!yes) return this;
    const state = this.iconState;
    if (state && !state.ended) await this.iconCommit([{ type: "endCombat" }]);
    await this.delete();
    return this;
  }

  /**
   * Turn events come from the reducer's effects (see {@link iconCommit}); Foundry's own detection
   * compares turn indices, which ICON's side-alternating order does not follow. What core does on
   * every client after a turn change still happens: the `combatTurnChange` hook.
   * @override
   */
  async _manageTurnEvents() {
    if (!this.iconState) return super._manageTurnEvents();
    if (this.previous) Hooks.callAll("combatTurnChange", this, this.previous, this.current);
  }

  /* -------------------------------------------- */
  /*  The roster follows the Combat's combatants   */
  /* -------------------------------------------- */

  /** @override @param {Combat.OnCreateDescendantDocumentsArgs} args */
  _onCreateDescendantDocuments(...args) {
    super._onCreateDescendantDocuments(...args);
    const [parent, collection, documents] = args;
    if (parent !== this || collection !== "combatants") return;
    const known = () => new Set(stateCombatants(this.iconState).map(c => c.id));
    // foundry-vtt-types 13.345's stored-document type does not resolve the configured class.
    const created = /** @type {import("./icon-combatant.mjs").default[]} */ (/** @type {unknown} */ (documents));
    this.#follow(() => created.filter(c => !known().has(c.id ?? ""))
      .map(c => ({ type: "addCombatant", combatant: c.iconEntry() })));
  }

  /** @override @param {Combat.OnDeleteDescendantDocumentsArgs} args */
  _onDeleteDescendantDocuments(...args) {
    super._onDeleteDescendantDocuments(...args);
    const [parent, collection, , ids] = args;
    if (parent !== this || collection !== "combatants") return;
    this.#follow(() => {
      const known = new Set(stateCombatants(this.iconState).map(c => c.id));
      return /** @type {string[]} */ (ids).filter(id => known.has(id)).map(id => ({ type: "removeCombatant", id }));
    });
  }

  /** @override @param {Combat.OnUpdateDescendantDocumentsArgs} args */
  _onUpdateDescendantDocuments(...args) {
    super._onUpdateDescendantDocuments(...args);
    const [parent, collection, documents] = args;
    if (parent !== this || collection !== "combatants") return;
    const ids = new Set(documents.map(c => c.id));
    this.#follow(() => this.#defeatedEvents(c => ids.has(c.id ?? "")));
  }

  /** Roster updates in flight, one after another. */
  #following = Promise.resolve();

  /**
   * Keep the reducer in step with the Combat's combatants during a running combat, on the active
   * GM only. The events are worked out when their turn in the queue comes, from the state as it
   * is then, so two notices of one change (Combatant update, then the status) apply it once.
   * @param {() => CombatEvent[]} events
   */
  #follow(events) {
    if (!game.user?.isActiveGM) return;
    this.#following = this.#following.then(async () => {
      const state = this.iconState;
      if (!state || state.ended) return;
      const list = events();
      if (list.length) await this.iconCommit(list, null);
    }).catch(error => console.error(`${SYSTEM_ID} | combat roster`, error));
  }
}
