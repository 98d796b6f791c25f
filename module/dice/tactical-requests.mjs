/**
 * Pure builders of the ICON tactical requests (icon.attack, icon.damage, icon.applyDamage,
 * icon.save, icon.heal) from actors', abilities' and the attack dialog's data, and the attack
 * dialog's context with exact odds from the core. No Foundry API (beyond game.i18n), so node and
 * browser tests run exactly this code against the real core.
 *
 * Every target gets its own attack roll: each has its own defense, height and cover (so its own
 * boons, curses and odds); a target with Evasion rolls its d6 as that attack's first die (the
 * core's `icon.attack` with `evasion`), which True Strike ignores.
 */

/**
 * @import { CoreApi, CoreRequest, Done } from "../types/core.js"
 * @import { AbilitySource } from "../types/system.js"
 */
import { attackRange } from "../data/ability-rules.mjs";

/**
 * @typedef {object} AttackRequest  An `icon.attack` request.
 * @property {"icon.attack"} kind
 * @property {number} [boons]     None with autoHit (no attack roll).
 * @property {number} [curses]
 * @property {number} [bonus]
 * @property {boolean} canCrit
 * @property {boolean} trueStrike  "Ignores dodge, blind, evasion, and stealth."
 * @property {boolean} autoHit     No attack roll: always a hit, never a crit or a miss.
 * @property {boolean} evasion     The target has Evasion (its d6 comes first).
 * @property {number} [defense]  The target's; none without a target.
 */

/**
 * @typedef {object} AttackOptions  The rule options an attack starts with: what an ability item
 *   (or a macro) says of its attack, by the names docs/js-contract.md gives them. Build them with
 *   {@link attackOptions}; the attack dialog takes them as initial options.
 * @property {boolean} trueStrike  True Strike: "Ignores dodge, blind, evasion, and stealth."
 * @property {boolean} autoHit     Auto-Hit: "doesn't make an attack roll but always scores a hit (not critical hit or miss)".
 * @property {boolean} floor       Its damage "cannot bring your hp below 1" (a Shove's collision): applied with `floor: 1`.
 * @property {boolean} critAgain   Its critical hits are critical again ("if you critical hit again, you gain bonus damage").
 * @property {string} mark         The mark it places on each target it attacks, by its unique name ("" for none).
 * @property {number | null} range The ability's range in spaces (Blind caps it at 2), or null.
 * @property {boolean} unerring    Unerring: "Ignores cover and aetherwall".
 */

/**
 * @typedef {object} AttackTarget  A targeted token, as the attack needs it.
 * @property {string} uuid         The target actor's uuid (a token's synthetic actor for unlinked tokens).
 * @property {string} [token]      Its token's uuid, when it stands on a scene.
 * @property {string} name
 * @property {string} img
 * @property {number} defense      Read from the target actor.
 * @property {boolean} evasion     The target has the Evasion effect.
 * @property {number} heightDifference  Attacker's height minus the target's (−3..3).
 * @property {boolean} cover       The target is behind cover from the attacker.
 * @property {boolean} adjacent    The target is adjacent to the attacker (cover does not count).
 * @property {boolean} hated       The target is the attacker's Hatred's foe X (full damage).
 * @property {boolean} [stealth]   The target has Stealth (only an adjacent attacker may target it).
 * @property {number | null} [distance]  Spaces from the attacker, when the canvas measured them.
 * @property {string[]} [statuses] The target's core statuses (Hatred's end reads foe X's).
 * @property {boolean} [summon]    The target is a summon ("cannot be marked").
 * @property {boolean} [sight]     The attacker can draw line of sight to it (unmeasured: yes).
 * @property {MapNote | null} [map]  What the scene said of it (module/canvas/scene-sight.mjs), before any override.
 */

/**
 * @typedef {object} MapNote  A target as the map shows it to the attacker.
 * @property {boolean} sight
 * @property {boolean} cover
 * @property {boolean} adjacent
 * @property {number} heightDifference
 * @property {number} distance
 * @property {"wall" | "terrain" | null} coverBy    What gives the cover.
 * @property {"wall" | "terrain" | null} blockedBy  What blocks the sight.
 */

/**
 * @typedef {object} AttackState  Everything the attack dialog edits.
 * @property {number} boons
 * @property {number} curses
 * @property {number} bonus
 * @property {number} dice        Damage dice on a hit (1 light, 2 heavy, or the ability's; 0: fray only).
 * @property {number} bonusDice   Bonus damage dice.
 * @property {boolean} frayOnMiss
 * @property {boolean} pierce
 * @property {boolean} divine
 * @property {boolean} ranged
 * @property {boolean} foeAdjacent
 * @property {string[]} [foesAdjacent]  The hostile tokens the map shows adjacent to the attacker, by name.
 * @property {boolean} weakened   The attacker is weakened (−2 damage).
 * @property {boolean} dazed      The attacker is dazed (+1 curse on attack rolls).
 * @property {boolean} pacified   The attacker is pacified (deals half damage).
 * @property {boolean} hatred     The attacker has Hatred of X (half damage to foes other than X).
 * @property {boolean} [hatredOngoing]  Its Hatred is ongoing (`hatred+`): foe X's state does not end it.
 * @property {boolean} area       An area attack: Dodge makes its targets immune to its damage.
 * @property {boolean} saveForHalf  Its targets may save for half damage (the damage card offers both).
 * @property {boolean} blind      The attacker is blind (its range is at most 2).
 * @property {boolean} combo      The ability has Combo (base or combo version by the attacker's token).
 * @property {boolean} trueStrike  See {@link AttackOptions}.
 * @property {boolean} autoHit
 * @property {boolean} floor
 * @property {boolean} critAgain
 * @property {string} mark
 * @property {number | null} range
 * @property {boolean} unerring
 * @property {string} rollMode
 * @property {AttackTarget[]} targets
 */

/** The options of a plain attack: none of them. @type {Readonly<AttackOptions>} */
export const NO_ATTACK_OPTIONS = Object.freeze({
  trueStrike: false, autoHit: false, floor: false, critAgain: false, mark: "", range: null, unerring: false
});

/**
 * The attack options of a source (an ability's `system.attack`, a macro's object, the dialog's
 * initial options): each known name read as its type, anything else ignored. The one place that
 * names them, so an ability's fields map onto them in one step.
 * @param {Record<string, unknown> | null | undefined} [source]
 * @returns {AttackOptions}
 */
export function attackOptions(source) {
  const o = source ?? {};
  const range = Math.trunc(Number(o.range));
  return {
    trueStrike: o.trueStrike === true,
    autoHit: o.autoHit === true,
    // `floor: 1` (as icon.applyDamage takes it) or true
    floor: o.floor === true || o.floor === 1,
    critAgain: o.critAgain === true,
    mark: typeof o.mark === "string" ? o.mark.trim().slice(0, 100) : "",
    range: o.range !== null && o.range !== undefined && o.range !== "" && Number.isFinite(range) && range >= 0 ? Math.min(range, 1000) : null,
    unerring: o.unerring === true
  };
}

/**
 * @typedef {object} Attacker  The attacking actor's numbers.
 * @property {string} [uuid]
 * @property {string} name
 * @property {6|8|10|12} die
 * @property {number} fray
 * @property {boolean} canCrit
 */

/**
 * A whole number in [min, max] from a form value (bad input falls back to `fallback`).
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @param {number} [fallback]
 * @returns {number}
 */
export function clampInt(value, min, max, fallback = min) {
  const n = Math.trunc(Number(value));
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/**
 * The attacker's numbers from an actor's system data. Foes "cannot land critical hits unless
 * noted otherwise" (their `canCrit`); player characters always can.
 * @param {{type: string, name: string, uuid?: string, system: {damageDie: number, fray: number, canCrit?: boolean}}} actor
 * @returns {Attacker}
 */
export function attackerOf(actor) {
  const system = actor.system;
  return {
    uuid: actor.uuid,
    name: actor.name,
    die: /** @type {Attacker["die"]} */ (system.damageDie),
    fray: system.fray,
    canCrit: actor.type === "foe" ? !!system.canCrit : true
  };
}

/**
 * A targeted token as the attack sees it: its actor's defense, and whether it has Evasion.
 * @param {{uuid: string, name: string, img: string, system: {defense: number}, statuses: string[]}} token
 * @returns {AttackTarget}
 */
export function attackTargetOf({ uuid, name, img, system, statuses }) {
  const bare = statuses.map(s => s.replace(/\+$/, ""));
  return { uuid, name, img, defense: system.defense, evasion: bare.includes("evasion"), heightDifference: 0, cover: false,
    adjacent: false, hated: false, stealth: bare.includes("stealth"), distance: null, statuses: [...statuses], summon: false };
}

/**
 * The state an attack dialog starts from: the ability's roll data (or a light/heavy basic attack),
 * the attacker's own statuses, and the targets.
 * @param {object} options
 * @param {{system: Pick<AbilitySource, "roll" | "tags">} | null} [options.ability]  An ability item (its `system.roll`, `tags`,
 *   `attack`, `range` and `area`).
 * @param {boolean} [options.heavy]   A basic heavy attack (2[D]) when there is no ability.
 * @param {string[]} [options.attackerStatuses]  The attacker's core status ids that take effect (the core's
 *   `iconEffectiveStatuses`: an Unstoppable attacker is not affected by its Dazed, Weakened, Pacified or Hatred).
 * @param {AttackTarget[]} [options.targets]
 * @param {string} [options.rollMode]
 * @param {Record<string, unknown>} [options.options]  Initial {@link AttackOptions} (over the ability's `system.attack`).
 * @returns {AttackState}
 */
export function initialAttackState({ ability = null, heavy = false, attackerStatuses = [], targets = [], rollMode = "publicroll",
  options = {} } = {}) {
  const roll = ability?.system?.roll;
  const has = (/** @type {string} */ id) => attackerStatuses.some(s => s.replace(/\+$/, "") === id);
  const tags = Array.isArray(ability?.system?.tags) ? ability.system.tags : [];
  // An ability item's attack options (`system.attack`, its range from `system.range`), then the caller's.
  const system = /** @type {{system?: {attack?: Record<string, unknown>, range?: {kind?: string, value?: number}, area?: {shape?: string}}} | null} */ (ability)?.system;
  const range = attackRange(system?.range);
  const own = { ...(system?.attack ?? {}), ...(range === null ? {} : { range }) };
  return {
    boons: roll?.boons ?? 0,
    curses: roll?.curses ?? 0,
    bonus: 0,
    dice: roll ? roll.hitDice : heavy ? 2 : 1,
    bonusDice: roll?.bonusDice ?? 0,
    frayOnMiss: roll?.frayOnMiss ?? true,
    pierce: roll?.pierce ?? false,
    divine: roll?.divine ?? false,
    // "For ranged attacks, a target must have at least 1 space of its area within the listed range":
    // an ability with a range is a ranged attack (cover and the adjacent foe's curse apply); melee reaches adjacent spaces.
    ranged: system?.range?.kind === "range",
    foeAdjacent: false,
    weakened: has("weakened"),
    dazed: has("dazed"),
    pacified: has("pacified"),
    hatred: has("hatred"),
    hatredOngoing: attackerStatuses.includes("hatred+"),
    // An ability tagged "area", or with an area, applies area effects (Dodge is immune to their damage).
    area: tags.includes("area") || !!system?.area?.shape,
    saveForHalf: roll?.saveForHalf ?? false,
    blind: has("blind"),
    combo: tags.includes("combo"),
    ...attackOptions({ ...own, ...options }),
    rollMode,
    targets: targets.map(t => ({ ...t }))
  };
}

/**
 * The state after the dialog's form changed. `data` is the flat form data (`boons`, `curses`,
 * `bonus`, `dice`, `bonusDice`, checkboxes, `rollMode`, and `targets.<i>.heightDifference` /
 * `targets.<i>.cover`); missing checkboxes are unchecked.
 * @param {AttackState} state
 * @param {Record<string, unknown>} data
 * @returns {AttackState}
 */
export function readAttackForm(state, data) {
  const flag = (/** @type {string} */ key) => data[key] === true || data[key] === "on" || data[key] === "true";
  return {
    ...state,
    boons: clampInt(data.boons, 0, 20, state.boons),
    curses: clampInt(data.curses, 0, 20, state.curses),
    bonus: clampInt(data.bonus, -20, 20, state.bonus),
    dice: clampInt(data.dice, 0, 6, state.dice),
    bonusDice: clampInt(data.bonusDice, 0, 6, state.bonusDice),
    frayOnMiss: flag("frayOnMiss"),
    pierce: flag("pierce"),
    divine: flag("divine"),
    ranged: flag("ranged"),
    foeAdjacent: flag("foeAdjacent"),
    weakened: flag("weakened"),
    dazed: flag("dazed"),
    pacified: flag("pacified"),
    hatred: flag("hatred"),
    area: flag("area"),
    saveForHalf: flag("saveForHalf"),
    blind: flag("blind"),
    trueStrike: flag("trueStrike"),
    autoHit: flag("autoHit"),
    floor: flag("floor"),
    critAgain: flag("critAgain"),
    unerring: flag("unerring"),
    mark: "mark" in data ? attackOptions({ mark: data.mark }).mark : state.mark,
    range: "range" in data ? attackOptions({ range: data.range }).range : state.range,
    rollMode: typeof data.rollMode === "string" && data.rollMode ? data.rollMode : state.rollMode,
    targets: state.targets.map((target, i) => ({
      ...target,
      heightDifference: clampInt(data[`targets.${i}.heightDifference`], -3, 3, target.heightDifference),
      cover: flag(`targets.${i}.cover`),
      // the map's measure stands until the form says otherwise (a row without the box keeps it)
      sight: `targets.${i}.sight` in data ? flag(`targets.${i}.sight`) : target.sight ?? true,
      adjacent: flag(`targets.${i}.adjacent`),
      hated: flag(`targets.${i}.hated`)
    }))
  };
}

/**
 * @typedef {object} SituationAnswer  The core's `iconSituation`.
 * @property {number} boons
 * @property {number} curses
 * @property {boolean} cover
 * @property {number | null} [maxRange]  The ability's reach: its range, at most 2 while blind (unless True Strike).
 * @property {"stealth" | "range" | "sight" | null} [untargetable]  Why the target cannot be targeted, or null.
 */

/**
 * The `icon.attack` request against one target (or none): the dialog's boons and curses plus what
 * the situation gives (core `iconSituation`: adjacency, height, cover, a dazed attacker; Blind's
 * range and Stealth, which True Strike ignores). An auto-hit attack makes no attack roll, so it
 * carries no boons, curses or bonus.
 * @param {Pick<CoreApi, "iconSituation">} core
 * @param {AttackState} state
 * @param {Attacker} attacker
 * @param {AttackTarget | null} target
 * @returns {{request: AttackRequest, cover: boolean, situation: SituationAnswer}}
 */
export function attackRequest(core, state, attacker, target) {
  const situation = /** @type {SituationAnswer} */ (core.iconSituation({
    ranged: state.ranged,
    foeAdjacent: state.foeAdjacent,
    heightDifference: target?.heightDifference ?? 0,
    targetInCover: target?.cover ?? false,
    targetAdjacent: target?.adjacent ?? false,
    attackerDazed: state.dazed,
    attackerBlind: state.blind ?? false,
    targetStealth: target?.stealth ?? false,
    trueStrike: state.trueStrike ?? false,
    unerring: state.unerring ?? false,
    range: state.range ?? null,
    distance: target?.distance ?? null,
    sight: target?.sight ?? true
  }));
  /** @type {AttackRequest} */
  const request = {
    kind: "icon.attack",
    canCrit: attacker.canCrit,
    trueStrike: !!state.trueStrike,
    autoHit: !!state.autoHit,
    evasion: !!target?.evasion
  };
  if (!state.autoHit) Object.assign(request, { boons: state.boons + situation.boons, curses: state.curses + situation.curses, bonus: state.bonus });
  if (target) request.defense = target.defense;
  return { request, cover: situation.cover, situation };
}

/**
 * How an attack landed: a miss when evaded (the core's `evaded`) or short of the defense; a crit
 * when the core says so; with no target (no defense), a hit unless it crits.
 * @param {Done | null} attack   The icon.attack outcome (null: no attack was made).
 * @param {boolean} [evaded]     Evaded by a separate `icon.evasion` roll.
 * @returns {"hit"|"crit"|"miss"}
 */
export function attackResult(attack, evaded = false) {
  if (evaded || !attack || attack.evaded) return "miss";
  if (attack.crit) return "crit";
  return attack.hit === false ? "miss" : "hit";
}

/**
 * The `icon.damage` request of an attack result, or null when a miss deals nothing (no fray).
 * @param {AttackState} state
 * @param {Attacker} attacker
 * @param {"hit"|"crit"|"miss"} result
 * @returns {CoreRequest | null}
 */
export function damageRequest(state, attacker, result) {
  if (result === "miss" && !state.frayOnMiss) return null;
  return {
    kind: "icon.damage",
    result,
    die: attacker.die,
    dice: state.dice,
    fray: attacker.fray,
    bonusDice: state.bonusDice,
    // "if you critical hit again, you gain bonus damage": only a critical hit can be one again
    critAgain: result === "crit" && !!state.critAgain
  };
}

/**
 * @typedef {object} DamageOptions  What `icon.applyDamage` takes besides the target and amount.
 * @property {"hit"|"miss"|"area"|"save"} source
 * @property {boolean} pierce
 * @property {boolean} divine
 * @property {boolean} attackerWeakened
 * @property {boolean} attackerPacified
 * @property {boolean} attackerHatred
 * @property {boolean} cover
 * @property {0|1} floor          1: the damage "cannot bring your hp below 1".
 * @property {boolean} trueStrike True Strike's damage ignores Dodge.
 * @property {boolean} [savedHalf]
 */

/**
 * @typedef {object} HealthDamageOptions  `icon.applyDamage` options of damage that is no attack's:
 *   Slashed (`source: "slashed"`), dangerous terrain (`"dangerousTerrain"`), a Sacrifice
 *   (`"sacrifice"`, held at 1 HP) or an effect such as Counter's.
 * @property {"slashed"|"effect"|"dangerousTerrain"|"sacrifice"} source
 * @property {boolean} ability  Whether an ability dealt it (Counter and Pacified care).
 * @property {boolean} fromFoe  Whether a foe of the target dealt it (Intangible and Vigilance care).
 * @property {boolean} [terrainTakenThisTurn]  Dangerous terrain already hurt the target this turn (it deals none).
 * @property {0|1} [floor]
 */

/**
 * The options `icon.applyDamage` takes for a target hit by this attack: the source of the damage
 * (Dodge stops misses, area attacks and damage after a successful save), piercing, divine, the
 * attacker's weakness, pacification and hatred (half damage unless this target is the hated foe),
 * and cover.
 * @param {AttackState} state
 * @param {"hit"|"crit"|"miss"} result
 * @param {boolean} cover  Whether cover counts (from the core's situation).
 * @param {AttackTarget | null} [target]
 * @returns {DamageOptions}
 */
export function damageOptions(state, result, cover, target = null) {
  return {
    source: state.area ? "area" : result === "miss" ? "miss" : "hit",
    pierce: state.pierce,
    divine: state.divine,
    attackerWeakened: state.weakened,
    attackerPacified: state.pacified,
    attackerHatred: state.hatred && !target?.hated,
    cover,
    floor: state.floor ? 1 : 0,
    trueStrike: !!state.trueStrike
  };
}

/**
 * The options for a target that saved against a save-for-half attack: the damage came despite a
 * successful save (Dodge stops it), halved by the core.
 * @template {object} Options
 * @param {Options} options  {@link DamageOptions}.
 * @returns {Options & {source: "save", savedHalf: true}}
 */
export function savedOptions(options) {
  return { ...options, source: "save", savedHalf: true };
}

/**
 * A percentage with two decimals.
 * @param {number} p
 */
export function percent(p) {
  return `${(100 * p).toFixed(2)}%`;
}

/**
 * The attack dialog's context: the numbers, and per target (or once without targets) the net
 * boons/curses and the exact P(hit), P(crit) and P(exceed) from the core's `odds`.
 * @param {Pick<CoreApi, "iconSituation" | "odds" | "resolve">} core
 * @param {AttackState} state
 * @param {Attacker} attacker
 */
export function attackDialogContext(core, state, attacker) {
  const targets = state.targets.length ? state.targets : [null];
  const rows = targets.map((target, index) => {
    const { request, cover, situation } = attackRequest(core, state, attacker, target);
    const odds = core.odds(request);
    const exact = odds.exact?.outcomes ?? {};
    const boons = Number(request.boons ?? 0);
    const curses = Number(request.curses ?? 0);
    const untargetable = situation.untargetable ?? null;
    return {
      index,
      target,
      net: boons - curses,
      netLabel: state.autoHit ? "—" : boons === curses ? "0" : boons > curses ? `+${boons - curses}` : `−${curses - boons}`,
      cover,
      sight: target?.sight !== false,
      evading: !!request.evasion && !request.trueStrike,
      untargetable,
      untargetableLabel: untargetable ? `ICONENGINE.Rules.Untargetable.${untargetable}` : null,
      hatredEnds: target?.hated && state.hatred ? hatredEnd(core, target, !!state.hatredOngoing) : null,
      heightOptions: [-3, -2, -1, 0, 1, 2, 3].map(value => ({
        value, label: value > 0 ? `+${value}` : String(value), selected: value === (target?.heightDifference ?? 0)
      })),
      hit: odds.outcomes.hit !== undefined ? { p: odds.outcomes.hit, text: percent(odds.outcomes.hit), exact: exact.hit ?? "" } : null,
      evaded: odds.outcomes.evaded !== undefined ? { p: odds.outcomes.evaded, text: percent(odds.outcomes.evaded), exact: exact.evaded ?? "" } : null,
      crit: { p: odds.outcomes.crit, text: percent(odds.outcomes.crit), exact: exact.crit ?? "" },
      exceed: { p: odds.outcomes.exceed, text: percent(odds.outcomes.exceed), exact: exact.exceed ?? "" }
    };
  });
  return {
    state,
    attacker,
    rows,
    hasTargets: state.targets.length > 0,
    damageFormula: `${state.dice}[D] + ${attacker.fray}`,
    dieLabel: `d${attacker.die}`,
    maxRange: rows.length ? attackRequest(core, state, attacker, null).situation.maxRange ?? null : null
  };
}

/**
 * Whether the attacker's Hatred of X ends because of foe X (the core's `icon.hatred`: X became
 * immune to damage or un-targetable): the i18n key of the reason, or null while it lasts.
 * @param {Pick<CoreApi, "resolve">} core
 * @param {AttackTarget} target  Foe X.
 * @param {boolean} [ongoing]    The Hatred is ongoing (`hatred+`): it waits for its cause.
 * @returns {string | null}
 */
export function hatredEnd(core, target, ongoing = false) {
  const answer = /** @type {{status: string, ends?: boolean, reason?: string | null}} */ (
    core.resolve({ kind: "icon.hatred", foe: target.statuses ?? [], ongoing }, []));
  return answer.ends && answer.reason ? `ICONENGINE.Rules.HatredEnds.${answer.reason}` : null;
}

/**
 * @typedef {object} PlannedAttack  One target's part of an attack.
 * @property {AttackTarget | null} target
 * @property {AttackRequest} attack   With the target's Evasion d6 first when it has Evasion.
 * @property {boolean} cover
 * @property {"stealth" | "range" | "sight" | null} untargetable  Why the target cannot be attacked (it is skipped).
 */

/**
 * The rolls an attack makes, per target, before any die is thrown (damage follows each attack's
 * result; see {@link damageRequest}).
 * @param {Pick<CoreApi, "iconSituation">} core
 * @param {AttackState} state
 * @param {Attacker} attacker
 * @returns {PlannedAttack[]}
 */
export function planAttack(core, state, attacker) {
  const targets = state.targets.length ? state.targets : [null];
  return targets.map(target => {
    const { request, cover, situation } = attackRequest(core, state, attacker, target);
    return { target, attack: request, cover, untargetable: situation.untargetable ?? null };
  });
}

/**
 * The core target of an actor: HP, vigor, armor, wounds, statuses (`id+` when ongoing) and, for a
 * player character, personal resolve (camp resets it).
 * @param {{type: string, system: {hp: {value: number, max: number}, vigor: {value: number}, armor: number, wounds: number, resolve?: unknown}}} actor
 * @param {string[]} statuses  Core status ids (see `coreStatuses` in data/rules.mjs).
 */
export function coreTarget(actor, statuses) {
  const s = actor.system;
  /** @type {{hp: number, maxHp: number, vigor: number, armor: number, wounds: number, isPlayerCharacter: boolean, statuses: string[], resolve?: number}} */
  const target = {
    hp: s.hp.value,
    maxHp: s.hp.max,
    vigor: s.vigor.value,
    armor: s.armor,
    wounds: s.wounds,
    isPlayerCharacter: actor.type === "character",
    statuses
  };
  if (actor.type === "character" && typeof s.resolve === "number") target.resolve = s.resolve;
  return target;
}

/**
 * The `icon.applyDamage` request for an amount of damage into a target.
 * @param {ReturnType<typeof coreTarget>} target
 * @param {number} amount
 * @param {Record<string, unknown>} options  {@link DamageOptions}, or a source of its own (slashed).
 * @returns {CoreRequest}
 */
export function applyDamageRequest(target, amount, options) {
  return { kind: "icon.applyDamage", target, amount: Math.max(0, amount), ...options };
}

/**
 * The `icon.heal` request of a healing rule.
 * @param {ReturnType<typeof coreTarget>} target
 * @param {"cure"|"regeneration"|"rescue"|"endCombat"|"rest"|"camp"} healing
 * @returns {CoreRequest}
 */
export function healRequest(target, healing) {
  return { kind: "icon.heal", target, healing };
}

/**
 * The `icon.save` request (a save succeeds on 10+); `blessing`: a Blessing token spent on it, +1 boon.
 * @param {{boons?: number, curses?: number, bonus?: number, blessing?: boolean}} [options]
 * @returns {CoreRequest}
 */
export function saveRequest({ boons = 0, curses = 0, bonus = 0, blessing = false } = {}) {
  return blessing ? { kind: "icon.save", boons, curses, bonus, blessing } : { kind: "icon.save", boons, curses, bonus };
}

/**
 * What using an ability (any, basic attacks included) does to its user's statuses: Stunned "Your
 * next ability used ends your turn, then end this status"; Stealth "is broken when you use any
 * ability other than dash". The core says which statuses remain (`iconAfterAbility`); the turn ends
 * when the user was stunned, an ongoing `stunned+` included (its cause keeps the status, not the turn).
 * @param {Pick<CoreApi, "iconAfterAbility" | "iconEffectiveStatuses">} core
 * @param {string[]} statuses  The user's core statuses (`id+` when ongoing).
 * @param {{dash?: boolean}} [ability]  `dash`: the ability was a Dash.
 * @returns {{ended: string[], endsTurn: boolean}}  `ended`: status ids to remove.
 */
export function abilityAftermath(core, statuses, { dash = false } = {}) {
  const bare = (/** @type {string} */ s) => s.replace(/\+$/, "");
  const left = new Set(core.iconAfterAbility(statuses, { dash }));
  return {
    ended: statuses.filter(s => !left.has(s)).map(bare),
    // "Unstoppable: Immune to all statuses": a Stunned Unstoppable character's turn goes on.
    endsTurn: core.iconEffectiveStatuses(statuses).some(s => bare(s) === "stunned")
  };
}
