import { SYSTEM_ID } from "../config.mjs";
import { getCore, isCoreLoaded, loadCore } from "../core.mjs";
import { healthChange, statusEffectData } from "../data/health-changes.mjs";
import { coreStatuses } from "../data/rules.mjs";
import { SLASHED_DAMAGE, SLASHED_FLAG, slashedLimit } from "../data/slashed.mjs";
import { DANGEROUS_TERRAIN_DAMAGE, TERRAIN_FLAG } from "../data/terrain.mjs";
import { endedEffects, markEffectData, marksOf } from "../data/marks.mjs";
import { tokensOf, tokensUpdate } from "../data/tokens.mjs";
import { gainVigilance, spendVigilance, vigilanceHeld } from "../data/vigilance.mjs";
import GmRecords from "../gm-records.mjs";
import IconSocket from "../icon-socket.mjs";
import "./cards/icon-tactical.mjs";
import IconRoll from "./icon-roll.mjs";
import { applyMode, createOptions, currentMode } from "../message-mode.mjs";
import { HOOKS, callAfter, callPre, cancelled } from "../hooks.mjs";
import { rechargeItems } from "../documents/item-recharge.mjs";
import { abilityAftermath, applyDamageRequest, attackResult, attackerOf, coreTarget, damageOptions, damageRequest, hatredEnd, healRequest,
  planAttack, saveRequest } from "./tactical-requests.mjs";
import { format } from "../applications/i18n.mjs";

export { SLASHED_DAMAGE, DANGEROUS_TERRAIN_DAMAGE };

/**
 * @typedef {object} IconTurnOrder  What this module uses of the ICON Combat (documents/icon-combat.mjs).
 * @property {{current?: {id: string} | null} | null} iconState
 * @property {{get(id: string): {actor?: {uuid: string} | null} | undefined}} combatants
 * @property {(event: object) => Promise<void>} iconDispatch
 */

/**
 * @import { AttackState } from "./tactical-requests.mjs"
 * @import { AppliedDamage, VigilanceSpent } from "./cards/icon-tactical.mjs"
 * @import { HealthChange, HealthUndo, EffectLike } from "../data/health-changes.mjs"
 * @import { Done } from "../types/core.js"
 * @import { IconHealthActor } from "../types/system.js"
 */

/**
 * The Foundry side of tactical play: roll the requests the pure builders make as IconRolls (so
 * Dice So Nice and roll modes see real Foundry dice), post them as one chat message, and write
 * health changes to actors. The rules are the core's; this only moves data.
 */
export default class TacticalRolls {
  /**
   * The actor's statuses as the core names them (`id+` for ongoing ones).
   * @param {Actor.Implementation} actor
   * @returns {string[]}
   */
  static statusesOf(actor) {
    // Plain reads: the flag is ours (status-effects.mjs), set when the status is created.
    const effects = [...actor.appliedEffects].map(effect => ({
      statuses: effect.statuses,
      ongoing: !!effect.flags?.[SYSTEM_ID]?.ongoing
    }));
    return coreStatuses(effects);
  }

  /**
   * The actor's own effects, for the health mapping.
   * @param {Actor.Implementation} actor
   * @returns {EffectLike[]}
   */
  static effectsOf(actor) {
    return actor.effects.contents.map(effect => ({
      id: String(effect.id ?? ""),
      statuses: [...effect.statuses],
      data: effect.toObject()
    }));
  }

  /**
   * An evaluated IconRoll of a request, with the tactical options its card needs.
   * @param {import("../types/core.js").CoreRequest} request
   * @param {import("./cards/icon-tactical.mjs").TacticalOptions} tactical
   * @returns {Promise<IconRoll>}
   */
  static async roll(request, tactical) {
    const roll = await IconRoll.fromRequest(request, { tactical });
    await roll.evaluate();
    return roll;
  }

  /**
   * Post rolls as one chat message in a roll mode.
   * @param {Actor.Implementation} actor
   * @param {IconRoll[]} rolls
   * @param {string} flavor
   * @param {string} rollMode
   * @param {object} [flags]  The message's `tactical` flag.
   * @param {{damageApplied?: Record<string, AppliedDamage>}} [more]  Other flags of the system's scope.
   */
  static async post(actor, rolls, flavor, rollMode, flags = {}, more = {}) {
    const data = {
      speaker: ChatMessage.implementation.getSpeaker({ actor }),
      flavor,
      rolls,
      // Roll#toMessage plays it for its messages; these are created directly.
      sound: CONFIG.sounds.dice,
      flags: { [SYSTEM_ID]: { ...more, tactical: flags } }
    };
    // A key of CONFIG.Dice.rollModes: from the dialogs' roll-mode select or the core setting;
    // given to the creation too, or Foundry applies the user's own mode over a public one.
    applyMode(data, rollMode);
    return ChatMessage.implementation.create(data, /** @type {ChatMessage.Database.CreateOperation<undefined>} */ (createOptions(rollMode)));
  }

  /**
   * Roll an attack: per target the attack roll (with the target's Evasion d6 first when it has
   * Evasion and the attack is no True Strike; none at all for an auto-hit), then the damage of
   * its result; one message. Targets the core finds untargetable (Stealth, Blind's range) are
   * skipped with a notice. A Hatred whose foe X became immune or un-targetable ends first; an
   * ability with Combo uses (or gains) the attacker's combo token; a mark is placed on every
   * target attacked. `icon-engine.preAttack` (actor, state, {ability}) may cancel it or change the
   * state; `icon-engine.preDamage` (actor, request, {target, key, result}) each damage roll;
   * `icon-engine.damage` and `icon-engine.attack` follow (module/hooks.mjs).
   * @param {Actor.Implementation} actor
   * @param {AttackState} state
   * @param {{ability?: Item.Implementation | null}} [options]
   */
  static async attack(actor, state, { ability = null } = {}) {
    const core = await loadCore();
    if (!callPre(HOOKS.preAttack, actor, state, { ability })) return null;
    const attacker = attackerOf(/** @type {IconHealthActor} */ (actor)); // the sheets attack with characters and foes
    state = await TacticalRolls.#endHatred(actor, state);
    const combo = state.combo ? await TacticalRolls.useCombo(actor) : null;
    /** @type {IconRoll[]} */
    const rolls = [];
    /** @type {string[]} */
    const attacked = [];
    /** @type {[IconRoll, {target: object | null, key: number, result: string}][]} */
    const damaged = [];
    for (const [key, part] of planAttack(core, state, attacker).entries()) {
      const target = part.target ? { uuid: part.target.uuid, name: part.target.name, img: part.target.img, defense: part.target.defense } : null;
      if (part.untargetable) {
        ui.notifications?.warn(format(`ICONENGINE.Rules.Untargetable.${part.untargetable}Notice`, { name: target?.name ?? "" }));
        continue;
      }
      const roll = await TacticalRolls.roll(part.attack, { role: "attack", key, target });
      rolls.push(roll);
      if (part.target) attacked.push(part.target.uuid);
      const result = attackResult(roll.outcome);
      const damage = damageRequest(state, attacker, result);
      const context = { target, key, result };
      if (damage && callPre(HOOKS.preDamage, actor, damage, context)) {
        const apply = damageOptions(state, result, part.cover, part.target);
        const damageRoll = await TacticalRolls.roll(damage, { role: "damage", key, target, apply, saveForHalf: state.saveForHalf });
        rolls.push(damageRoll);
        damaged.push([damageRoll, context]);
      }
    }
    if (!rolls.length) return null;
    // The flavor is HTML: the ability's name is the user's, escaped.
    const name = ability?.name ? foundry.utils.escapeHTML(ability.name)
      : game.i18n?.localize(state.dice >= 2 ? "ICONENGINE.Tactical.HeavyAttack" : "ICONENGINE.Tactical.LightAttack") ?? "";
    const version = combo ? game.i18n?.localize(`ICONENGINE.Rules.Tokens.${combo}`) ?? combo : "";
    const flavor = version ? `${name} (${version})` : name;
    const mark = state.mark ? { mark: state.mark, targets: attacked } : null;
    const message = await TacticalRolls.post(actor, rolls, flavor, state.rollMode, { attacker: actor.uuid, ability: ability?.uuid ?? null, mark });
    if (mark && attacked.length && message) await TacticalRolls.#placeMarksOf(message);
    for (const [roll, context] of damaged) callAfter(HOOKS.damage, actor, roll, context);
    callAfter(HOOKS.attack, actor, message, state, { ability });
    // Basic attacks are abilities too ("The following Basic Abilities are common to every character").
    await TacticalRolls.abilityUsed(actor);
    return message;
  }

  /**
   * Hatred of X: "End this status at the end of your turn, or if foe X becomes immune to damage or
   * un-targetable." When the attack's hated target is such (the core's `icon.hatred`), the
   * attacker's Hatred ends before the attack, and the attack deals full damage.
   * @param {Actor.Implementation} actor
   * @param {AttackState} state
   * @returns {Promise<AttackState>}
   */
  static async #endHatred(actor, state) {
    if (!state.hatred) return state;
    const core = await loadCore();
    const hated = state.targets.find(t => t.hated);
    if (!hated || !hatredEnd(core, hated, !!state.hatredOngoing)) return state;
    if (TacticalRolls.statusesOf(actor).includes("hatred")) await actor.toggleStatusEffect("hatred", { active: false });
    ui.notifications?.info(format("ICONENGINE.Rules.HatredEnded", { name: actor.name ?? "", foe: hated.name }));
    return { ...state, hatred: false };
  }

  /**
   * After any ability (basic attacks included): Stunned "Your next ability used ends your turn,
   * then end this status" ({@link abilityAftermath}); the actor's open ICON turn ends.
   * @param {Actor.Implementation} actor
   * @returns {Promise<{endsTurn: boolean}>}
   */
  static async abilityUsed(actor) {
    const core = await loadCore();
    const { ended, endsTurn } = abilityAftermath(core, TacticalRolls.statusesOf(actor));
    for (const id of ended) await actor.toggleStatusEffect(id, { active: false });
    if (endsTurn) await TacticalRolls.#endTurnOf(actor);
    return { endsTurn };
  }

  /**
   * End the actor's turn if it is the open turn of the ICON combat (the turn order is the combat
   * reducer's: this sends its `endTurn` event through the combat's own dispatch).
   * @param {Actor.Implementation} actor
   */
  static async #endTurnOf(actor) {
    const combat = /** @type {IconTurnOrder | null} */ (/** @type {unknown} */ (game.combat ?? null));
    const id = combat?.iconState?.current?.id;
    if (!combat || !id || typeof combat.iconDispatch !== "function") return;
    if (combat.combatants.get(id)?.actor?.uuid !== actor.uuid) return;
    await combat.iconDispatch({ type: "endTurn" });
  }

  /**
   * The core's `icon.tokens` applied to an actor's tokens (Blessing, Combo, Power dice) and
   * written back. Throws the core's refusal (no token to spend, a second die of one ability).
   * @param {Actor.Implementation} actor
   * @param {Record<string, unknown>} event  A `TokenEvent` (docs/js-contract.md).
   * @returns {Promise<{tokens: import("../data/tokens.mjs").Tokens, effects: {type: string, ability?: string}[]}>}
   */
  static async tokens(actor, event) {
    const core = await loadCore();
    const tokens = tokensOf(/** @type {Record<string, unknown>} */ (actor.system));
    const answer = /** @type {Done & {tokens: import("../data/tokens.mjs").Tokens, effects: {type: string, ability?: string}[]}} */ (
      core.resolve({ kind: "icon.tokens", tokens, event }, []));
    // Dotted `system.*` keys, which Foundry's update expands.
    await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (tokensUpdate(answer.tokens))));
    return { tokens: answer.tokens, effects: answer.effects };
  }

  /**
   * The end of combat: "All blessings are discarded at the end of combat", and the combo token and
   * power dice with them (the core's `icon.tokens` "endCombat"); nothing is written when the
   * actor holds none.
   * @param {Actor.Implementation} actor
   */
  static async discardTokens(actor) {
    const held = tokensOf(/** @type {Record<string, unknown>} */ (actor.system));
    if (!held.blessings && !held.combo && !held.powerDice.length) return;
    await TacticalRolls.tokens(actor, { type: "endCombat" });
  }

  /**
   * Use an ability with Combo: the combo version when the actor holds the token (it is
   * discarded), else the base version (a token is gained).
   * @param {Actor.Implementation} actor
   * @returns {Promise<"comboVersion" | "baseVersion">}
   */
  static async useCombo(actor) {
    const { effects } = await TacticalRolls.tokens(actor, { type: "useCombo" });
    return effects.some(e => e.type === "comboVersion") ? "comboVersion" : "baseVersion";
  }

  /**
   * Every actor that fights or stands on the viewed scene: the combat's combatants, the scene's
   * tokens (unlinked ones' own actors) and the world's actors; each once.
   * @returns {Actor.Implementation[]}
   */
  static #fighters() {
    /** @type {Map<string, Actor.Implementation>} */
    const found = new Map();
    const add = (/** @type {Actor.Implementation | null | undefined} */ a) => { if (a) found.set(a.uuid, a); };
    // The configured Combat is IconCombat (foundry-vtt-types 13.345 gives game.combat no members of it).
    const combat = /** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat));
    for (const c of combat?.combatants ?? []) add(c.actor);
    for (const t of canvas?.scene?.tokens ?? []) add(/** @type {Actor.Implementation | null} */ (t.actor));
    for (const a of game.actors ?? []) add(/** @type {Actor.Implementation} */ (a));
    return [...found.values()];
  }

  /** @returns {import("../data/marks.mjs").MarkedEffect[]} */
  static #storedMarks() {
    return marksOf(TacticalRolls.#fighters().map(a => ({ uuid: a.uuid, effects: a.effects.contents.map(e => ({ id: e.id, flags: e.flags })) })),
      SYSTEM_ID);
  }

  /**
   * Delete the stored effects of marks the core ended.
   * @param {import("../data/marks.mjs").MarkedEffect[]} stored
   * @param {import("../data/marks.mjs").Mark[]} ended
   */
  static async #deleteMarks(stored, ended) {
    for (const gone of endedEffects(stored, ended)) {
      const doc = await fromUuid(/** @type {`Actor.${string}`} */ (gone.actorUuid));
      if (doc instanceof Actor && doc.effects.has(gone.effectId)) await doc.deleteEmbeddedDocuments("ActiveEffect", [gone.effectId]);
    }
  }

  /**
   * Place an attack message's mark on the targets it attacked (as the GM: the socket carries a
   * player's request, and the GM checks it comes from the message's author, who owns the attacker).
   * @param {ChatMessage.Implementation} message
   */
  static async #placeMarksOf(message) {
    try {
      await IconSocket.executeAsGM("placeMarks", { messageId: message.id });
    } catch (error) {
      ui.notifications?.warn(error instanceof Error ? error.message : String(error));
    }
  }

  /** The longest mark name the GM's client writes onto an effect (an ability's name). */
  static MAX_MARK_NAME = 100;

  /** The GM's placements, one after another, so a card's once-only check sees the one before. */
  static #queue = Promise.resolve();

  /**
   * The GM's side of placing marks: a message's `flags.icon-engine.tactical.mark` ({mark, targets})
   * placed by its attacker through the core's `icon.marks` (the placer's older mark on a target and
   * its same mark elsewhere end), on the targets the message's own attack rolls name, once per
   * message (the GM's record). Refused unless the asking user is a GM or the message's author and
   * owns the attacker. See docs/security.md.
   * @param {Record<string, unknown>} payload  `{messageId}`.
   * @param {string} userId  Who asked.
   * @returns {Promise<void>}
   */
  static placeMarks(payload, userId) {
    const run = TacticalRolls.#queue.then(() => TacticalRolls.#placeMarks(payload, userId));
    TacticalRolls.#queue = run.then(() => {}, () => {});
    return run;
  }

  /**
   * @param {Record<string, unknown>} payload
   * @param {string} userId
   */
  static async #placeMarks({ messageId }, userId) {
    const message = /** @type {ChatMessage.Implementation | undefined} */ (/** @type {unknown} */ (game.messages?.get(String(messageId))));
    if (!message) throw new Error(format("ICONENGINE.Rules.Mark.NoMessage"));
    const user = game.users?.get(userId);
    const tactical = /** @type {{attacker?: unknown, mark?: {mark?: unknown, targets?: unknown} | null} | undefined} */ (
      message.getFlag(SYSTEM_ID, "tactical"));
    const placer = typeof tactical?.attacker === "string" ? await fromUuid(/** @type {`Actor.${string}`} */ (tactical.attacker)) : null;
    if (!(placer instanceof Actor) || !user) throw new Error(format("ICONENGINE.Socket.NotAllowed"));
    if (!user.isGM && (message.author?.id !== userId || !placer.testUserPermission(user, "OWNER"))) {
      throw new Error(format("ICONENGINE.Socket.NotAllowed"));
    }
    const name = typeof tactical?.mark?.mark === "string" ? tactical.mark.mark.trim() : "";
    if (!name || name.length > TacticalRolls.MAX_MARK_NAME) {
      throw new Error(format("ICONENGINE.Rules.Mark.BadName", { max: String(TacticalRolls.MAX_MARK_NAME) }));
    }
    if (GmRecords.marksPlaced(message.id)) throw new Error(format("ICONENGINE.Rules.Mark.AlreadyPlaced"));
    if (!game.user?.isGM) throw new Error(format("ICONENGINE.Trust.GMOnly"));
    const targets = Array.isArray(tactical?.mark?.targets) ? tactical.mark.targets.filter(t => typeof t === "string") : [];
    // Only the targets the message's own attack rolls name.
    const rolled = new Set(/** @type {IconRoll[]} */ (message.rolls).map(r => r.iconOptions.tactical?.role === "attack" ? r.iconOptions.tactical.target?.uuid : null));
    let marked = false;
    for (const uuid of targets) {
      if (!rolled.has(uuid)) continue;
      const target = await fromUuid(/** @type {`Actor.${string}`} */ (uuid));
      if (!(target instanceof Actor)) continue;
      marked = true;
      await TacticalRolls.placeMark(placer, /** @type {Actor.Implementation} */ (target), name);
    }
    if (marked) await GmRecords.setMarks(/** @type {string} */ (message.id), userId);
  }

  /**
   * Place a mark through the core's `icon.marks` (the placer's older mark on the target and its
   * same mark elsewhere end; a summon "cannot be marked"). As the GM: the callers check who asks.
   * @param {Actor.Implementation} placer
   * @param {Actor.Implementation} target
   * @param {string} name  The unique mark.
   * @returns {Promise<boolean>}  Whether it was placed.
   */
  static async placeMark(placer, target, name) {
    const core = await loadCore();
    const img = CONFIG.statusEffects.find(s => s.id === "marked")?.img ?? "icons/svg/target.svg";
    const stored = TacticalRolls.#storedMarks();
    // "Summons ... cannot be marked": an unlinked token's actor, or a linked actor's token on the scene.
    const summon = !!target.token?.getFlag(SYSTEM_ID, "summoned")
      || !!canvas?.scene?.tokens.some(t => t.actorLink && t.actorId === target.id && !!t.getFlag(SYSTEM_ID, "summoned"));
    const mark = { mark: name, placer: placer.uuid, target: target.uuid };
    const answer = /** @type {Done & {ended: import("../data/marks.mjs").Mark[], placed: boolean}} */ (core.resolve({ kind: "icon.marks",
      marks: stored.map(s => s.mark), event: { type: "place", mark, targetIsSummon: summon } }, []));
    await TacticalRolls.#deleteMarks(stored, answer.ended);
    if (answer.placed) {
      const data = markEffectData(mark, placer.name ?? "", SYSTEM_ID, format, img);
      await target.createEmbeddedDocuments("ActiveEffect", [/** @type {ActiveEffect.CreateData} */ (/** @type {unknown} */ (data))]);
    }
    return answer.placed;
  }

  /**
   * "Marks end when the character that placed the mark is defeated": the marks the core's
   * `icon.marks` ends with this actor's defeat (those it placed, and those on it) are deleted.
   * Runs on the active GM when an actor gains the defeated status.
   * @param {Actor.Implementation} actor
   */
  static async endMarksOf(actor) {
    const core = await loadCore();
    const stored = TacticalRolls.#storedMarks();
    if (!stored.length) return;
    const answer = /** @type {Done & {ended: import("../data/marks.mjs").Mark[]}} */ (core.resolve({ kind: "icon.marks",
      marks: stored.map(s => s.mark), event: { type: "defeated", id: actor.uuid } }, []));
    await TacticalRolls.#deleteMarks(stored, answer.ended);
  }

  /**
   * "Unstoppable: Immune to all statuses": the status a user is about to put on an Unstoppable
   * character (the token HUD, a macro, an ability) is refused with a notice, as the core's
   * `icon.inflict` says; positive effects, states and marks pass. The inflicter is not known
   * here, so Sealed and Intangible are left to {@link TacticalRolls.inflict}.
   * @param {ActiveEffect.Implementation} effect
   * @returns {boolean}  false: refuse the creation.
   */
  static allowStatus(effect) {
    const actor = effect.parent;
    if (!(actor instanceof Actor) || !effect.statuses.size || !isCoreLoaded()) return true;
    const target = TacticalRolls.statusesOf(/** @type {Actor.Implementation} */ (actor));
    for (const status of effect.statuses) {
      const answer = /** @type {Done & {inflicted?: boolean, blockedBy?: string | null}} */ (
        getCore().resolve({ kind: "icon.inflict", status, target, fromFoe: false }, []));
      if (answer.inflicted === false) {
        ui.notifications?.warn(format(`ICONENGINE.Rules.Blocked.${answer.blockedBy}`, { name: actor.name ?? "", inflicter: "",
          status: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }));
        return false;
      }
    }
    return true;
  }

  /**
   * Start listening: the GM places marks players ask for, and ends the marks of a character that
   * is defeated (any way: damage, the tracker, the token HUD); statuses stop at Unstoppable.
   */
  static register() {
    IconSocket.registerHandler("placeMarks", TacticalRolls.placeMarks);
    Hooks.on("preCreateActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => TacticalRolls.allowStatus(effect));
    Hooks.on("createActiveEffect", (/** @type {ActiveEffect.Implementation} */ effect) => {
      if (!game.users?.activeGM?.isSelf || !effect.statuses.has("defeated")) return;
      const actor = effect.parent;
      if (actor instanceof Actor) TacticalRolls.endMarksOf(/** @type {Actor.Implementation} */ (actor)).catch(error => console.error(error));
    });
  }

  /**
   * Dangerous terrain: "Entering or exiting a dangerous terrain space causes a character to take
   * 2 piercing damage. Characters can only take this damage once a turn." The core's damage
   * applied with a card and Undo; the second time in a turn of a running combat it deals nothing.
   * @param {Actor.Implementation} actor
   * @param {{rollMode?: string}} [options]
   */
  static async dangerousTerrain(actor, { rollMode } = {}) {
    const taken = TacticalRolls.inCombat(actor) && !!actor.getFlag(SYSTEM_ID, TERRAIN_FLAG);
    return TacticalRolls.damage(actor, DANGEROUS_TERRAIN_DAMAGE,
      { source: "dangerousTerrain", ability: false, fromFoe: false, terrainTakenThisTurn: taken },
      { label: "ICONENGINE.Rules.DangerousTerrain", rollMode });
  }

  /**
   * Sacrifice X: "Reduce your hp by X ... cannot bring your hp below 1, and you can pay them even
   * if you don't have enough hp left." The core's HP loss applied with a card and Undo.
   * @param {Actor.Implementation} actor
   * @param {number} amount
   * @param {{rollMode?: string}} [options]
   */
  static async sacrifice(actor, amount, { rollMode } = {}) {
    return TacticalRolls.damage(actor, Math.max(0, Math.trunc(amount)), { source: "sacrifice", ability: false, fromFoe: false },
      { label: "ICONENGINE.Rules.Sacrifice", rollMode });
  }

  /**
   * Whether a status lands on a target: the core's `icon.inflict` ("Unstoppable: Immune to all
   * statuses", "Sealed: Character cannot inflict statuses", Intangible against a foe's). When it
   * does, the status is added; when not, a notice says what stopped it.
   * @param {Actor.Implementation | null} inflicter  Who inflicts it (null: no one, e.g. terrain).
   * @param {Actor.Implementation} target
   * @param {string} status
   * @param {{fromFoe?: boolean}} [options]
   * @returns {Promise<boolean>}  Whether it landed.
   */
  static async inflict(inflicter, target, status, { fromFoe = true } = {}) {
    const core = await loadCore();
    const answer = /** @type {Done & {inflicted: boolean, blockedBy: string | null}} */ (core.resolve({ kind: "icon.inflict", status,
      inflicter: inflicter ? TacticalRolls.statusesOf(inflicter) : [], target: TacticalRolls.statusesOf(target), fromFoe }, []));
    if (!answer.inflicted) {
      ui.notifications?.warn(format(`ICONENGINE.Rules.Blocked.${answer.blockedBy}`, {
        name: target.name ?? "", inflicter: inflicter?.name ?? "", status: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }));
      return false;
    }
    await target.toggleStatusEffect(status, { active: true });
    return true;
  }

  /**
   * A limit break's resolve (the core's `icon.limitBreak`): the cost from the user's personal
   * resolve and, `fromParty` of it, the party's (the combat's `adjustResolve`, the GM's); and 1
   * personal resolve given to a character who hasn't used a limit break this expedition. The
   * user is marked as having used one.
   * @param {Actor.Implementation} actor  A character.
   * @param {{cost: number, fromParty?: number, giveTo?: Actor.Implementation | null}} options
   */
  static async limitBreak(actor, { cost, fromParty = 0, giveTo = null }) {
    const core = await loadCore();
    const system = /** @type {{resolve?: number, limitBreakUsed?: boolean}} */ (actor.system);
    const combat = /** @type {{iconState?: {partyResolve?: number} | null, iconDispatch?: (event: object) => Promise<void>} | null} */ (
      /** @type {unknown} */ (game.combat ?? null));
    const party = Number(combat?.iconState?.partyResolve ?? 0);
    // Party resolve is the combat's, which only the GM changes (the tracker's adjustResolve).
    if (fromParty > 0 && !game.user?.isGM) throw new Error(format("ICONENGINE.Rules.LimitBreak.partyIsGM"));
    const recipient = giveTo ? /** @type {{resolve?: number, limitBreakUsed?: boolean}} */ (giveTo.system) : null;
    const answer = /** @type {Done & {personal: number, party: number, recipientResolve: number | null}} */ (core.resolve({
      kind: "icon.limitBreak", cost, personal: system.resolve ?? 0, party, fromParty,
      give: recipient ? { resolve: recipient.resolve ?? 0, usedLimitBreak: !!recipient.limitBreakUsed } : null
    }, []));
    if (fromParty > 0) await combat?.iconDispatch?.({ type: "adjustResolve", by: -fromParty });
    await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ ({ "system.resolve": answer.personal, "system.limitBreakUsed": true })));
    if (giveTo && answer.recipientResolve !== null) {
      await giveTo.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ ({ "system.resolve": answer.recipientResolve })));
    }
    const text = format(giveTo ? "ICONENGINE.Rules.LimitBreak.UsedGave" : "ICONENGINE.Rules.LimitBreak.Used",
      { name: actor.name ?? "", cost: String(cost), recipient: giveTo?.name ?? "" });
    await ChatMessage.implementation.create({ speaker: ChatMessage.implementation.getSpeaker({ actor }), content: `<p>${foundry.utils.escapeHTML(text)}</p>` });
    return answer;
  }

  /**
   * Whether the actor fights in the viewed combat once it has started: only then are there turns
   * for "once a turn" to count.
   * @param {Actor.Implementation} actor
   * @returns {boolean}
   */
  static inCombat(actor) {
    // The configured Combat is IconCombat (foundry-vtt-types 13.345 gives game.combat no members of it).
    const combat = /** @type {Combat.Implementation | null | undefined} */ (/** @type {unknown} */ (game.combat));
    if (!combat?.started) return false;
    return combat.combatants.some(c => c.actor?.uuid === actor.uuid);
  }

  /**
   * Slashed's "no more than once a turn" for this actor now (see data/slashed.mjs).
   * @param {Actor.Implementation} actor
   */
  static slashedLimit(actor) {
    return slashedLimit({ inCombat: TacticalRolls.inCombat(actor), takenThisTurn: !!actor.getFlag(SYSTEM_ID, SLASHED_FLAG) });
  }

  /**
   * Slashed: "Take 4 damage after you or an ally uses an ability that moves you, but no more than
   * once a turn." Applies the core's slashed damage to the actor and posts the breakdown, with
   * Undo. Refused, with a notification, for an actor without Slashed and for a second time in a
   * turn of the combat it fights in.
   * @param {Actor.Implementation} actor
   * @param {{rollMode?: string}} [options]
   */
  static async slashed(actor, { rollMode } = {}) {
    const name = actor.name ?? "";
    if (!TacticalRolls.statusesOf(actor).some(s => s.replace(/\+$/, "") === "slashed")) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.NotSlashed", { name }) ?? "ICONENGINE.Tactical.NotSlashed");
      return null;
    }
    if (!TacticalRolls.slashedLimit(actor).allowed) {
      ui.notifications?.warn(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name }) ?? "ICONENGINE.Tactical.SlashedOnce");
      return null;
    }
    return TacticalRolls.damage(actor, SLASHED_DAMAGE, { source: "slashed", ability: false, fromFoe: false },
      { label: "ICONENGINE.Status.slashed.name", rollMode });
  }

  /**
   * Damage that is no attack's (Slashed, Counter): the core's `icon.applyDamage` applied to the
   * actor at once, and a card with its breakdown and Undo (the message's `damageApplied.0`, as an
   * attack card's; after an Undo, its Apply button applies it again).
   * @param {Actor.Implementation} actor
   * @param {number} amount
   * @param {import("./tactical-requests.mjs").DamageOptions | import("./tactical-requests.mjs").HealthDamageOptions} options
   *   icon.applyDamage options (source, ability, fromFoe, ...).
   * @param {{label: string, rollMode?: string}} card  `label`: i18n key of the card's heading.
   */
  static async damage(actor, amount, options, { label, rollMode }) {
    const statuses = TacticalRolls.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Damage is dealt to the actors with ICON health (Slashed and Counter hit characters and foes).
    const target = /** @type {IconHealthActor} */ (actor);
    const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
    const roll = await TacticalRolls.roll(request, { role: "health", key: 0, actor: who, target: who, label, amount, apply: options });
    const applied = await TacticalRolls.applyDamageTo(actor, amount, options);
    return TacticalRolls.post(actor, [roll], game.i18n?.localize(label) ?? label, rollMode ?? TacticalRolls.#defaultRollMode(), {},
      { damageApplied: { 0: applied } });
  }

  /**
   * Apply damage to an actor through the core's `icon.applyDamage`: its health written, and what a
   * message keeps of it (the breakdown and the undo). Slashed damage in a combat counts against
   * the turn (refused the second time); so does dangerous terrain's (the core deals none the
   * second time, read from the actor's flag when the damage is applied). `icon-engine.preApplyDamage`
   * (actor, {amount, options}) may cancel it (it throws) or change the amount and options;
   * `icon-engine.applyDamage` (actor, applied) follows.
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} amount
   * @param {Record<string, unknown>} options  icon.applyDamage options.
   * @returns {Promise<AppliedDamage>}
   */
  static async applyDamageTo(actor, amount, options) {
    const core = await loadCore();
    const change = { amount, options: { ...options } };
    if (!callPre(HOOKS.preApplyDamage, actor, change)) throw cancelled(HOOKS.preApplyDamage);
    amount = Math.max(0, Math.trunc(Number(change.amount)) || 0);
    options = change.options;
    const limit = options.source === "slashed" ? TacticalRolls.slashedLimit(actor) : null;
    if (limit && !limit.allowed) {
      throw new Error(game.i18n?.format("ICONENGINE.Tactical.SlashedOnce", { name: actor.name ?? "" }) ?? "ICONENGINE.Tactical.SlashedOnce");
    }
    // Counted before the damage is written, so a second click in the meantime is refused.
    if (limit?.counts) await actor.setFlag(SYSTEM_ID, SLASHED_FLAG, true);
    const terrain = options.source === "dangerousTerrain" && TacticalRolls.inCombat(actor);
    const terrainTaken = terrain && !!actor.getFlag(SYSTEM_ID, TERRAIN_FLAG);
    if (options.source === "dangerousTerrain") options = { ...options, terrainTakenThisTurn: terrainTaken };
    if (terrain && !terrainTaken) await actor.setFlag(SYSTEM_ID, TERRAIN_FLAG, true);
    try {
      const statuses = TacticalRolls.statusesOf(actor);
      // Damage is dealt to the actors with ICON health.
      const target = /** @type {IconHealthActor} */ (actor);
      const request = applyDamageRequest(coreTarget(target, statuses), amount, options);
      const answer = /** @type {Done & {target: AppliedDamage["after"] & {statuses: string[]}, steps: AppliedDamage["steps"], counter?: number}} */ (
        core.resolve(request, []));
      const change = healthChange({ system: target.system, effects: TacticalRolls.effectsOf(actor) }, statuses, answer.target);
      const undo = await TacticalRolls.applyHealth(actor, change);
      /** @type {AppliedDamage} */
      const applied = {
        targetUuid: actor.uuid,
        targetName: actor.name ?? "",
        dealt: answer.total,
        steps: answer.steps,
        counter: answer.counter ?? 0,
        after: { hp: answer.target.hp, vigor: answer.target.vigor, wounds: answer.target.wounds, defeated: answer.target.defeated,
          fallen: answer.target.fallen },
        undo,
        userId: game.user?.id ?? ""
      };
      if (limit?.counts) applied.slashed = true;
      if (terrain && !terrainTaken) applied.terrain = true;
      callAfter(HOOKS.applyDamage, actor, applied);
      return applied;
    } catch (error) {
      if (limit?.counts) await actor.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
      if (terrain && !terrainTaken) await actor.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
      throw error;
    }
  }

  /**
   * Put back what an applied damage changed: the target's health and statuses, the turn's Slashed
   * (it may be taken again), and the Vigilance charges spent on it.
   * @param {AppliedDamage} applied
   */
  static async undoApplied(applied) {
    const actor = await fromUuid(/** @type {`Actor.${string}`} */ (applied.targetUuid));
    if (actor instanceof Actor) {
      // CONFIG.Actor.documentClass makes every actor an IconActor.
      const target = /** @type {Actor.Implementation} */ (actor);
      await TacticalRolls.undoHealth(target, applied.undo);
      if (applied.slashed) await target.unsetFlag(SYSTEM_ID, SLASHED_FLAG);
      if (applied.terrain) await target.unsetFlag(SYSTEM_ID, TERRAIN_FLAG);
    }
    if (applied.vigilance) await TacticalRolls.refundVigilance(applied.vigilance);
  }

  /**
   * Gain Vigilance X: the charges stack onto those the actor holds (for macros and abilities).
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} charges
   * @returns {Promise<number>}  The charges held after.
   */
  static async gainVigilance(actor, charges) {
    const held = gainVigilance(vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system)), charges);
    if (held === null) throw new Error(game.i18n?.format("ICONENGINE.Vigilance.BadGain", { charges: String(charges) }) ?? "ICONENGINE.Vigilance.BadGain");
    await actor.update({ system: { vigilance: held } });
    return held;
  }

  /**
   * Spend an actor's Vigilance charges: the charges go, and with the last one its Vigilance
   * status (the effect is its charges). Refused for more charges than it holds.
   * @param {Actor.Implementation} actor  A character or a foe.
   * @param {number} charges
   * @param {number} rolled  The highest d6 of the charges, for the record.
   * @returns {Promise<VigilanceSpent>}  What to put back on Undo.
   */
  static async spendVigilance(actor, charges, rolled) {
    const held = vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system));
    const spent = spendVigilance(held, charges);
    if (!spent) {
      throw new Error(game.i18n?.format("ICONENGINE.Vigilance.NotHeld", { name: actor.name ?? "", charges: String(charges), held: String(held) })
        ?? "ICONENGINE.Vigilance.NotHeld");
    }
    await actor.update({ system: { vigilance: spent.left } });
    const ended = spent.left === 0 ? actor.effects.contents.filter(e => e.statuses.has("vigilance")) : [];
    const restoreEffects = ended.map(e => e.toObject());
    if (ended.length) await actor.deleteEmbeddedDocuments("ActiveEffect", ended.map(e => e.id ?? ""));
    return { uuid: actor.uuid, name: actor.name ?? "", charges, rolled, restoreEffects };
  }

  /**
   * Give spent Vigilance charges back (an Undo), with the status they ended.
   * @param {VigilanceSpent} spent
   */
  static async refundVigilance(spent) {
    const doc = await fromUuid(/** @type {`Actor.${string}`} */ (spent.uuid));
    if (!(doc instanceof Actor)) return;
    const actor = /** @type {Actor.Implementation} */ (doc);
    const held = vigilanceHeld(/** @type {{vigilance?: unknown}} */ (actor.system));
    await actor.update({ system: { vigilance: gainVigilance(held, spent.charges) ?? held } });
    const missing = spent.restoreEffects.filter(data => !actor.effects.has(data._id ?? ""));
    if (missing.length) await actor.createEmbeddedDocuments("ActiveEffect", missing, { keepId: true });
  }

  /**
   * A save (10+), optionally against one of the actor's statuses, which ends on a success. The
   * core refuses ongoing statuses and states (`iconSaveable`). With `blessing`, one of the actor's
   * Blessing tokens is spent for +1 boon (refused, with a notice, when it holds none).
   * `icon-engine.preSave` (actor, {status, boons, curses, bonus, blessing}) may cancel it or change
   * the request; `icon-engine.save` (actor, roll, message) follows.
   * @param {Actor.Implementation} actor
   * @param {{status?: string | null, boons?: number, curses?: number, bonus?: number, blessing?: boolean, rollMode?: string}} [options]
   */
  static async save(actor, { status = null, boons = 0, curses = 0, bonus = 0, blessing = false, rollMode } = {}) {
    const core = await loadCore();
    const request = { status, boons, curses, bonus, blessing };
    if (!callPre(HOOKS.preSave, actor, request)) return null;
    ({ status, boons, curses, bonus, blessing } = request);
    if (status && !core.iconSaveable(TacticalRolls.statusesOf(actor)).includes(status)) {
      ui.notifications?.warn("ICONENGINE.Tactical.NotSaveable", { localize: true });
      return null;
    }
    if (blessing) {
      try {
        await TacticalRolls.tokens(actor, { type: "spendBlessing" });
      } catch {
        ui.notifications?.warn(format("ICONENGINE.Rules.Tokens.NoBlessing", { name: actor.name ?? "" }));
        return null;
      }
    }
    const named = status ? { id: status, name: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status } : null;
    const roll = await TacticalRolls.roll(saveRequest({ boons, curses, bonus, blessing }),
      { role: "save", actor: { uuid: actor.uuid, name: actor.name ?? "" }, status: named });
    const message = await TacticalRolls.post(actor, [roll], game.i18n?.localize("ICONENGINE.Tactical.Save.title") ?? "",
      rollMode ?? TacticalRolls.#defaultRollMode());
    if (status && roll.outcome?.success) await actor.toggleStatusEffect(status, { active: false });
    callAfter(HOOKS.save, actor, roll, message);
    return message;
  }

  /**
   * A healing rule (cure, rescue, rest, ...) through the core; a cure then saves against every
   * status the core lists, each ending on a success. One message.
   * @param {Actor.Implementation} actor
   * @param {"cure"|"regeneration"|"rescue"|"endCombat"|"rest"|"camp"} healing
   * @param {{rollMode?: string}} [options]
   */
  static async heal(actor, healing, { rollMode } = {}) {
    const statuses = TacticalRolls.statusesOf(actor);
    const who = { uuid: actor.uuid, name: actor.name ?? "" };
    // Healing is for the actors with ICON health (the sheets' heal button, characters and foes).
    const heal = await TacticalRolls.roll(healRequest(coreTarget(/** @type {IconHealthActor} */ (actor), statuses), healing),
      { role: "heal", actor: who });
    const outcome = /** @type {Done & {target: Parameters<typeof healthChange>[2], saves: string[]}} */ (heal.outcome);
    // coreTarget above has read ICON health from this actor.
    const system = /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system);
    await TacticalRolls.applyHealth(actor, healthChange({ system, effects: TacticalRolls.effectsOf(actor) }, statuses, outcome.target));
    const rolls = [heal];
    /** @type {string[]} */
    const ended = [];
    for (const status of outcome.saves ?? []) {
      const save = await TacticalRolls.roll(saveRequest(), {
        role: "save", actor: who, status: { id: status, name: game.i18n?.localize(`ICONENGINE.Status.${status}.name`) ?? status }
      });
      rolls.push(save);
      if (save.outcome?.success) ended.push(status);
    }
    const message = await TacticalRolls.post(actor, rolls, game.i18n?.localize(`ICONENGINE.Tactical.Healing.${healing}`) ?? healing,
      rollMode ?? TacticalRolls.#defaultRollMode());
    for (const status of ended) await actor.toggleStatusEffect(status, { active: false });
    // A rest or camp recharges what recharges at rest (module/data/ability-rules.mjs).
    if (healing === "rest" || healing === "camp") await rechargeItems(actor, "rest");
    return message;
  }

  /** @returns {string} */
  static #defaultRollMode() {
    return currentMode();
  }

  /**
   * Write a health change to an actor: the update, the ended statuses' effects deleted, the new
   * statuses created. Returns the undo, completed with the created effects' ids.
   * @param {Actor.Implementation} actor
   * @param {HealthChange} change
   * @returns {Promise<HealthUndo>}
   */
  static async applyHealth(actor, change) {
    // Dotted `system.*` keys, which Foundry's update expands; the declared UpdateData has no dotted form.
    if (Object.keys(change.update).length) await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (change.update)));
    if (change.deleteEffects.length) await actor.deleteEmbeddedDocuments("ActiveEffect", change.deleteEffects);
    const localize = (/** @type {string} */ key) => game.i18n?.localize(key) ?? key;
    const created = change.createStatuses.length
      ? await actor.createEmbeddedDocuments("ActiveEffect", change.createStatuses.map(id => statusEffectData(id, localize)))
      : [];
    return { ...change.undo, deleteEffects: (created ?? []).map(effect => String(effect.id ?? "")) };
  }

  /**
   * Put an actor back as it was before a health change.
   * @param {Actor.Implementation} actor
   * @param {HealthUndo} undo
   */
  static async undoHealth(actor, undo) {
    const existing = undo.deleteEffects.filter(id => actor.effects.has(id));
    if (existing.length) await actor.deleteEmbeddedDocuments("ActiveEffect", existing);
    const missing = undo.restoreEffects.filter(data => !actor.effects.has(data._id ?? ""));
    if (missing.length) await actor.createEmbeddedDocuments("ActiveEffect", missing, { keepId: true });
    // Dotted keys, as in applyHealth.
    if (Object.keys(undo.update).length) await actor.update(/** @type {Actor.UpdateData} */ (/** @type {unknown} */ (undo.update)));
  }
}
