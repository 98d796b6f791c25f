import { SYSTEM_ID } from "../config.mjs";
import { combatApply } from "../core.mjs";
import { STATE_VERSION, stateCombatants } from "../applications/combat/tracker-context.mjs";
import { MAX_PLAYER_COMBATANTS, MAX_STATE_JSON, combatUpdate, joinRefusal, logNames, onlyConcerns, refusalFor, stateSize, withLogOf } from "../data/combat-rules.mjs";
import IconSocket from "../icon-socket.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import { runCombatEffects } from "./combat-effects.mjs";
import { localize } from "../applications/i18n.mjs";
import { deleteKey } from "../compat/data-operators.mjs";

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
    if (!stored) return null;
    // a state past the size limit is not read at all (see #sizeRefusal); the GM is told once
    const refusal = IconCombat.#sizeRefusal(stored);
    if (refusal) {
      if (game.user?.isGM && !IconCombat.#told.has(stored)) {
        IconCombat.#told.add(stored);
        console.error(`${SYSTEM_ID} | combat ${this.id}: ${refusal}`);
        ui.notifications?.error(refusal);
      }
      return null;
    }
    if (stored.v === STATE_VERSION) return /** @type {CombatState} */ (stored);
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
   * Each stored state's size in characters of JSON, as far as {@link stateSize} counted it (just
   * past the limit at most), by the stored object: measured when the Combat's data is prepared,
   * so an event on a state too large is refused without reading it again.
   * @type {WeakMap<object, number>}
   */
  static #sizes = new WeakMap();

  /** Stored states too large that the GM has been told of. */
  static #told = new WeakSet();

  /**
   * The refusal of a stored state past {@link MAX_STATE_JSON} characters of JSON, or null. A
   * state this core writes is far below it; one past it (written by hand or by another module) is
   * refused before anything walks, copies or parses it, and the core refuses its text by length too.
   * @param {object} stored
   * @param {{again?: boolean}} [options]  again: measure it even if it was measured before.
   * @returns {string | null}
   */
  static #sizeRefusal(stored, { again = false } = {}) {
    let size = again ? undefined : IconCombat.#sizes.get(stored);
    if (size === undefined) IconCombat.#sizes.set(stored, size = stateSize(stored, MAX_STATE_JSON));
    return size > MAX_STATE_JSON ? format("ICONENGINE.Combat.StateTooLarge", { max: MAX_STATE_JSON.toLocaleString("en") }) : null;
  }

  /**
   * The stored state's size is measured whenever the Combat's data is (re)prepared: on load and
   * after every update, on every client, at most just past the limit.
   * @override
   */
  prepareBaseData() {
    super.prepareBaseData();
    // no private instance members here: Foundry prepares a document inside its constructor,
    // before a subclass's own are set up (static ones exist by then)
    const stored = /** @type {{state?: object | null} | undefined} */ (this._source.system)?.state;
    if (stored) IconCombat.#sizeRefusal(stored, { again: true });
  }

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
      const stored = this.#storedState;
      const tooLarge = stored ? IconCombat.#sizeRefusal(stored) : null;
      if (tooLarge) throw new Error(tooLarge);
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
   * @param {{quiet?: boolean}} [options]  quiet: the events follow what a player wrote on their
   *   own documents (a combatant of theirs joining or leaving, its Defeated status); each is
   *   carried out without a step in the undo log when no kept step depends on it (see
   *   `#quietly`), so a player cannot push the GM's steps out of the log.
   */
  async iconCommit(events, user = game.user, { quiet = false } = {}) {
    if (!game.user?.isGM) throw new Error(localize("ICONENGINE.Combat.noGM"));
    const stored = this.#storedState;
    const tooLarge = stored ? IconCombat.#sizeRefusal(stored) : null;
    if (tooLarge) throw new Error(tooLarge);
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
      const reduced = (quiet && this.#quietly(state, event))
        || /** @type {{state: CombatState | null, effects: CombatEffect[]}} */ (combatApply(state, event));
      state = reduced.state;
      effects.push(...reduced.effects);
    }
    // only what changed: Foundry sends (and every client receives) this diff, not the state
    const updateData = combatUpdate(this.#storedState, state, this.turns.map(c => c.id ?? ""), deleteKey);
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
    }, { endedInTurn: actor => IconCombat.#takeEndedInTurn(actor.uuid) });
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

  /**
   * A change that follows a player's own document (their combatant joining or leaving, its
   * Defeated status) carried out without a step in the undo log, or null when it cannot be. It
   * must change nothing but that combatant: no round starts, no summons leave, no turn closes,
   * nobody else's turns move (`onlyConcerns`). And no kept step may depend on it: for the
   * Defeated status, no kept step holds the combatant's record (undoing a summon's departure
   * would bring it back beside a defeated summoner); for a combatant joining or leaving, every
   * kept step is undone, on a copy, over the change, and each undo must be one the core
   * accepts. A combatant that joined in the newest step and leaves again takes that step back.
   * @param {CombatState | null} state
   * @param {CombatEvent} event  setDefeated, addCombatant or removeCombatant.
   * @returns {{state: CombatState, effects: CombatEffect[]} | null}
   */
  #quietly(state, event) {
    if (!state || state.ended) return null;
    const combatant = /** @type {{id?: unknown} | undefined} */ (event.combatant);
    const id = event.type === "addCombatant" ? combatant?.id : event.id;
    if (typeof id !== "string" || !["setDefeated", "addCombatant", "removeCombatant"].includes(event.type)) return null;
    const before = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (state));
    /** @type {{state: CombatState | null, effects: CombatEffect[]}} */
    let reduced;
    try {
      reduced = /** @type {{state: CombatState | null, effects: CombatEffect[]}} */ (combatApply(state, event));
    } catch {
      return null;
    }
    const after = /** @type {Record<string, unknown> | null} */ (/** @type {unknown} */ (reduced.state));
    if (after && !reduced.effects.length && onlyConcerns(before, after, id)) {
      const unlogged = /** @type {CombatState} */ (/** @type {unknown} */ (withLogOf(after, before)));
      if (event.type === "setDefeated") return logNames(before, id) ? null : { state: unlogged, effects: [] };
      if (IconCombat.#undoesOver(unlogged)) return { state: unlogged, effects: [] };
    }
    return event.type === "removeCombatant" ? IconCombat.#takeBack(state, id) : null;
  }

  /**
   * Whether every kept step of a state's undo log undoes, one after another, and leaves a fight
   * the core accepts.
   * @param {CombatState} state
   * @returns {boolean}
   */
  static #undoesOver(state) {
    let at = /** @type {CombatState | null} */ (state);
    try {
      for (let steps = (state.logged ?? 0) - (state.forgotten ?? 0); steps > 0 && at; steps--) {
        at = /** @type {CombatState | null} */ (combatApply(at, { type: "undo" }).state);
      }
      // the fight before the oldest kept step, checked whole as every event checks it
      if (at) combatApply(at, { type: "upgrade" });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The newest step undone, when it is exactly the joining of combatant `id` (undoing it takes out
   * that combatant and changes nothing else), else null.
   * @param {CombatState} state
   * @param {string} id
   * @returns {{state: CombatState, effects: CombatEffect[]} | null}
   */
  static #takeBack(state, id) {
    try {
      const back = /** @type {CombatState | null} */ (combatApply(state, { type: "undo" }).state);
      if (!back || stateCombatants(back).some(c => c.id === id) || !stateCombatants(state).some(c => c.id === id)) return null;
      const before = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (state));
      return onlyConcerns(before, /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (back)), id)
        ? { state: back, effects: [] } : null;
    } catch {
      return null;
    }
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
   * the combatant defeated in the turn order, for linked and unlinked actors alike. Who wrote the
   * status comes with the hook (Foundry's server says it): a player's own status is followed
   * without a step in the undo log where nothing logged depends on it.
   */
  static registerDefeatedSync() {
    const sync = (/** @type {ActiveEffect.Implementation} */ effect, /** @type {unknown} */ options, /** @type {string} */ userId) => {
      if (!game.user?.isActiveGM || !effect.statuses.has(CONFIG.specialStatusEffects.DEFEATED)) return;
      const actor = effect.parent;
      if (!(actor instanceof Actor)) return;
      for (const combat of game.combats ?? []) if (combat instanceof IconCombat) combat.#syncDefeated(actor.uuid, userId);
    };
    Hooks.on("createActiveEffect", sync);
    Hooks.on("deleteActiveEffect", sync);
    Hooks.on("deleteActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => IconCombat.#noteEndedInTurn(effect));
  }

  /**
   * Statuses that ended by themselves during the open turn, for the turn's chat note, by the
   * turn owner's actor UUID: Stunned ("Your next ability used ends your turn, then end this
   * status"), which the user's client takes off before it ends the turn.
   * @type {Map<string, string[]>}
   */
  static #endedInTurn = new Map();

  /** Statuses that end by themselves during their owner's turn (see {@link IconCombat.#endedInTurn}). */
  static #ENDING_IN_TURN = new Set(["stunned"]);

  /**
   * Keep a status that ended by itself on the actor whose turn is open, on the active GM.
   * @param {ActiveEffect.Implementation} effect
   */
  static #noteEndedInTurn(effect) {
    if (!game.user?.isActiveGM || ![...effect.statuses].some(s => IconCombat.#ENDING_IN_TURN.has(s))) return;
    const actor = effect.parent;
    if (!(actor instanceof Actor)) return;
    for (const combat of game.combats ?? []) {
      if (!(combat instanceof IconCombat)) continue;
      const open = combat.iconState?.current?.id;
      if (!open || combat.combatants.get(open)?.actor?.uuid !== actor.uuid) continue;
      IconCombat.#endedInTurn.set(actor.uuid, [...(IconCombat.#endedInTurn.get(actor.uuid) ?? []), effect.name ?? ""]);
    }
  }

  /**
   * What ended by itself during the turn of this actor that now ends (and forget it).
   * @param {string} uuid
   * @returns {string[]}
   */
  static #takeEndedInTurn(uuid) {
    const ended = IconCombat.#endedInTurn.get(uuid) ?? [];
    IconCombat.#endedInTurn.delete(uuid);
    return ended;
  }

  /**
   * Tell the reducer about combatants of this actor whose defeated state it has wrong.
   * @param {string} actorUuid
   * @param {string | undefined} userId  Who wrote the status.
   */
  #syncDefeated(actorUuid, userId) {
    this.#follow(() => this.#defeatedEvents(c => c.actor?.uuid === actorUuid), userId);
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
    const [parent, collection, documents, , , userId] = args;
    if (parent !== this || collection !== "combatants") return;
    // foundry-vtt-types 13.345's stored-document type does not resolve the configured class.
    const created = /** @type {import("./icon-combatant.mjs").default[]} */ (/** @type {unknown} */ (documents));
    // what a GM wrote at creation (a side, slow turns) is theirs: recorded where players cannot write
    if (game.users?.get(userId)?.isGM) {
      this.#recordChoices(created.filter(c => {
        const system = /** @type {{side?: unknown, canSlow?: unknown} | undefined} */ (c._source?.system);
        return !!system && ((typeof system.side === "string" && system.side !== "") || system.canSlow === true);
      }));
    }
    this.#follow(async () => {
      const known = new Set(stateCombatants(this.iconState).map(c => c.id));
      const joining = await this.#capped(created.filter(c => !known.has(c.id ?? "")), userId);
      return joining.map(c => ({ type: "addCombatant", combatant: c.iconEntry() }));
    }, userId);
  }

  /** @override @param {Combat.OnDeleteDescendantDocumentsArgs} args */
  _onDeleteDescendantDocuments(...args) {
    super._onDeleteDescendantDocuments(...args);
    const [parent, collection, , ids, , userId] = args;
    if (parent !== this || collection !== "combatants") return;
    const gone = /** @type {string[]} */ (ids);
    this.#forgetChoices(gone);
    this.#follow(() => {
      const known = new Set(stateCombatants(this.iconState).map(c => c.id));
      return gone.filter(id => known.has(id)).map(id => ({ type: "removeCombatant", id }));
    }, userId);
  }

  /** @override @param {Combat.OnUpdateDescendantDocumentsArgs} args */
  _onUpdateDescendantDocuments(...args) {
    super._onUpdateDescendantDocuments(...args);
    const [parent, collection, documents, changes, , userId] = args;
    if (parent !== this || collection !== "combatants") return;
    const updated = /** @type {import("./icon-combatant.mjs").default[]} */ (/** @type {unknown} */ (documents));
    if (game.users?.get(userId)?.isGM) {
      // only the combatants whose side or slow turns this update wrote
      const wrote = new Set(/** @type {{_id?: string, system?: Record<string, unknown>}[]} */ (changes)
        .filter(change => change?.system && ("side" in change.system || "canSlow" in change.system)).map(change => change._id));
      this.#recordChoices(updated.filter(c => wrote.has(c.id ?? "")));
    }
    const ids = new Set(documents.map(c => c.id));
    this.#follow(() => this.#defeatedEvents(c => ids.has(c.id ?? "")), userId);
  }

  /* -------------------------------------------- */
  /*  What only a GM chooses for a combatant        */
  /* -------------------------------------------- */

  /**
   * The side and slow turns GMs wrote for combatants, on this client, by Combatant id: a GM's
   * write is heard here at once (before the update's promise resolves on the GM's own client), so
   * a fight begun right after it has it.
   * @type {Map<string, {side: string, canSlow: boolean}>}
   */
  #choices = new Map();

  /**
   * What a GM chose for a combatant (`side`, `canSlow`), or null when no GM wrote them: a player
   * may write their own Combatant's `system` (v13's Combatant update permission), so the turn
   * order reads these from the GM's record (this client's, then the Combat's `system.choices`,
   * which only GMs write), never from the Combatant as it stands.
   * @param {string} id  A Combatant id.
   * @returns {{side: string, canSlow: boolean} | null}
   */
  iconChoiceOf(id) {
    const mine = this.#choices.get(id);
    if (mine) return mine;
    const stored = /** @type {{choices?: Record<string, {side?: unknown, canSlow?: unknown}> | null} | undefined} */ (this._source.system)
      ?.choices?.[id];
    if (!stored || typeof stored !== "object") return null;
    return { side: typeof stored.side === "string" ? stored.side : "", canSlow: stored.canSlow === true };
  }

  /**
   * Keep what GMs wrote for these combatants' side and slow turns: here at once, and in the
   * Combat's `system.choices` through the active GM.
   * @param {import("./icon-combatant.mjs").default[]} combatants
   */
  #recordChoices(combatants) {
    /** @type {Record<string, unknown>} */
    const update = {};
    for (const c of combatants) {
      if (!c.id) continue;
      const system = /** @type {{side?: unknown, canSlow?: unknown} | undefined} */ (c._source?.system ?? c.system) ?? {};
      const choice = { side: typeof system.side === "string" ? system.side : "", canSlow: system.canSlow === true };
      this.#choices.set(c.id, choice);
      update[`system.choices.${c.id}`] = choice;
    }
    if (Object.keys(update).length && game.user?.isActiveGM) {
      this.update(/** @type {Combat.UpdateData} */ (update)).catch(error => console.error(`${SYSTEM_ID} | combat choices`, error));
    }
  }

  /**
   * Drop the GM's record of combatants that left.
   * @param {string[]} ids
   */
  #forgetChoices(ids) {
    const stored = /** @type {{choices?: Record<string, unknown> | null} | undefined} */ (this._source.system)?.choices ?? {};
    /** @type {Record<string, unknown>} */
    const update = {};
    for (const id of ids) {
      this.#choices.delete(id);
      if (id in stored) deleteKey(update, `system.choices.${id}`);
    }
    if (Object.keys(update).length && game.user?.isActiveGM) {
      this.update(/** @type {Combat.UpdateData} */ (/** @type {unknown} */ (update))).catch(error => console.error(`${SYSTEM_ID} | combat choices`, error));
    }
  }

  /**
   * The combatants a user added that may join the running fight: a GM's all; a player's within
   * the caps of `joinRefusal` (an actor's tokens on the scene plus one; eight of the player's own
   * in all). The rest are deleted again (as the GM), and the GM is told.
   * @param {import("./icon-combatant.mjs").default[]} created
   * @param {string | undefined} userId
   * @returns {Promise<import("./icon-combatant.mjs").default[]>}
   */
  async #capped(created, userId) {
    const user = game.users?.get(userId ?? "");
    if (!created.length || !user || user.isGM) return created;
    const fresh = new Set(created.map(c => c.id));
    const standing = this.combatants.filter(c => !fresh.has(c.id));
    /** @type {import("./icon-combatant.mjs").default[]} */
    const joining = [];
    /** @type {import("./icon-combatant.mjs").default[]} */
    const refused = [];
    for (const c of created) {
      const others = [...standing, ...joining];
      const scene = this.scene ?? c.token?.parent ?? null;
      const reason = joinRefusal({
        ofActor: others.filter(o => !!c.actorId && o.actorId === c.actorId).length,
        tokens: c.actorId ? scene?.tokens.filter(t => t.actorId === c.actorId).length ?? 0 : 0,
        ofPlayer: others.filter(o => o.testUserPermission(user, "OWNER")).length
      });
      (reason ? refused : joining).push(c);
      if (reason) {
        const message = format(`ICONENGINE.Combat.JoinRefused.${reason}`, { name: c.name ?? "", user: user.name ?? "", max: String(MAX_PLAYER_COMBATANTS) });
        console.warn(`${SYSTEM_ID} | ${message}`);
        if (refused.length === 1) ui.notifications?.warn(message);
      }
    }
    if (refused.length) await this.deleteEmbeddedDocuments("Combatant", refused.map(c => c.id ?? ""));
    return joining;
  }

  /** Roster updates in flight, one after another. */
  #following = Promise.resolve();

  /**
   * Keep the reducer in step with the Combat's combatants during a running combat, on the active
   * GM only. The events are worked out when their turn in the queue comes, from the state as it
   * is then, so two notices of one change (Combatant update, then the status) apply it once. What
   * a player wrote on their own documents is followed quietly (no undo step where nothing logged
   * depends on it; see `#quietly`).
   * @param {() => CombatEvent[] | Promise<CombatEvent[]>} events
   * @param {string | undefined} [userId]  Who wrote the change (Foundry's server says it).
   */
  #follow(events, userId) {
    if (!game.user?.isActiveGM) return;
    const writer = userId ? game.users?.get(userId) : undefined;
    const quiet = !!writer && !writer.isGM;
    this.#following = this.#following.then(async () => {
      const state = this.iconState;
      if (!state || state.ended) return;
      const list = await events();
      if (list.length) await this.iconCommit(list, null, { quiet });
    }).catch(error => console.error(`${SYSTEM_ID} | combat roster`, error));
  }
}
