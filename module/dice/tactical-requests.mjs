/**
 * Pure builders of the ICON tactical requests (icon.attack, icon.damage, icon.applyDamage,
 * icon.save, icon.heal) from actors', abilities' and the attack dialog's data, and the attack
 * dialog's context with exact odds from the core. No Foundry API (beyond game.i18n), so node and
 * browser tests run exactly this code against the real core.
 *
 * Every target gets its own attack roll: each has its own defense, height and cover (so its own
 * boons, curses and odds), and a target with Evasion rolls its d6 before that attack.
 */

/**
 * @import { CoreApi, CoreRequest, Done } from "../types/core.js"
 * @import { AbilitySource } from "../types/system.js"
 */

/**
 * @typedef {object} AttackRequest  An `icon.attack` request.
 * @property {"icon.attack"} kind
 * @property {number} boons
 * @property {number} curses
 * @property {number} bonus
 * @property {boolean} canCrit
 * @property {number} [defense]  The target's; none without a target.
 */

/**
 * @typedef {object} AttackTarget  A targeted token, as the attack needs it.
 * @property {string} uuid         The target actor's uuid (a token's synthetic actor for unlinked tokens).
 * @property {string} name
 * @property {string} img
 * @property {number} defense      Read from the target actor.
 * @property {boolean} evasion     The target has the Evasion effect.
 * @property {number} heightDifference  Attacker's height minus the target's (−3..3).
 * @property {boolean} cover       The target is behind cover from the attacker.
 * @property {boolean} adjacent    The target is adjacent to the attacker (cover does not count).
 * @property {boolean} hated       The target is the attacker's Hatred's foe X (full damage).
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
 * @property {boolean} weakened   The attacker is weakened (−2 damage).
 * @property {boolean} dazed      The attacker is dazed (+1 curse on attack rolls).
 * @property {boolean} pacified   The attacker is pacified (deals half damage).
 * @property {boolean} hatred     The attacker has Hatred of X (half damage to foes other than X).
 * @property {boolean} area       An area attack: Dodge makes its targets immune to its damage.
 * @property {boolean} saveForHalf  Its targets may save for half damage (the damage card offers both).
 * @property {string} rollMode
 * @property {AttackTarget[]} targets
 */

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
  return { uuid, name, img, defense: system.defense, evasion: statuses.includes("evasion"), heightDifference: 0, cover: false,
    adjacent: false, hated: false };
}

/**
 * The state an attack dialog starts from: the ability's roll data (or a light/heavy basic attack),
 * the attacker's own statuses, and the targets.
 * @param {object} options
 * @param {{system: Pick<AbilitySource, "roll" | "tags">} | null} [options.ability]  An ability item (its `system.roll` and `tags`).
 * @param {boolean} [options.heavy]   A basic heavy attack (2[D]) when there is no ability.
 * @param {string[]} [options.attackerStatuses]  The attacker's core status ids.
 * @param {AttackTarget[]} [options.targets]
 * @param {string} [options.rollMode]
 * @returns {AttackState}
 */
export function initialAttackState({ ability = null, heavy = false, attackerStatuses = [], targets = [], rollMode = "publicroll" } = {}) {
  const roll = ability?.system?.roll;
  const has = (/** @type {string} */ id) => attackerStatuses.some(s => s.replace(/\+$/, "") === id);
  return {
    boons: 0,
    curses: 0,
    bonus: 0,
    dice: roll ? roll.hitDice : heavy ? 2 : 1,
    bonusDice: roll?.bonusDice ?? 0,
    frayOnMiss: roll?.frayOnMiss ?? true,
    pierce: roll?.pierce ?? false,
    divine: roll?.divine ?? false,
    ranged: false,
    foeAdjacent: false,
    weakened: has("weakened"),
    dazed: has("dazed"),
    pacified: has("pacified"),
    hatred: has("hatred"),
    // An ability tagged "area" applies area effects (Dodge is immune to their damage).
    area: Array.isArray(ability?.system?.tags) && ability.system.tags.includes("area"),
    saveForHalf: roll?.saveForHalf ?? false,
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
    rollMode: typeof data.rollMode === "string" && data.rollMode ? data.rollMode : state.rollMode,
    targets: state.targets.map((target, i) => ({
      ...target,
      heightDifference: clampInt(data[`targets.${i}.heightDifference`], -3, 3, target.heightDifference),
      cover: flag(`targets.${i}.cover`),
      adjacent: flag(`targets.${i}.adjacent`),
      hated: flag(`targets.${i}.hated`)
    }))
  };
}

/**
 * The `icon.attack` request against one target (or none): the dialog's boons and curses plus what
 * the situation gives (core `iconSituation`: adjacency, height, cover, a dazed attacker).
 * @param {Pick<CoreApi, "iconSituation">} core
 * @param {AttackState} state
 * @param {Attacker} attacker
 * @param {AttackTarget | null} target
 * @returns {{request: AttackRequest, cover: boolean, situation: {boons: number, curses: number, cover: boolean}}}
 */
export function attackRequest(core, state, attacker, target) {
  const situation = core.iconSituation({
    ranged: state.ranged,
    foeAdjacent: state.foeAdjacent,
    heightDifference: target?.heightDifference ?? 0,
    targetInCover: target?.cover ?? false,
    targetAdjacent: target?.adjacent ?? false,
    attackerDazed: state.dazed
  });
  /** @type {AttackRequest} */
  const request = {
    kind: "icon.attack",
    boons: state.boons + situation.boons,
    curses: state.curses + situation.curses,
    bonus: state.bonus,
    canCrit: attacker.canCrit
  };
  if (target) request.defense = target.defense;
  return { request, cover: situation.cover, situation };
}

/**
 * How an attack landed: a miss when evaded or short of the defense; a crit when the core says so;
 * with no target (no defense), a hit unless it crits.
 * @param {Done | null} attack   The icon.attack outcome (null when evasion skipped the roll).
 * @param {boolean} [evaded]
 * @returns {"hit"|"crit"|"miss"}
 */
export function attackResult(attack, evaded = false) {
  if (evaded || !attack) return "miss";
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
    bonusDice: state.bonusDice
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
 * @property {boolean} [savedHalf]
 */

/**
 * @typedef {object} HealthDamageOptions  `icon.applyDamage` options of damage that is no attack's:
 *   Slashed (`source: "slashed"`) or an effect such as Counter's.
 * @property {"slashed"|"effect"} source
 * @property {boolean} ability  Whether an ability dealt it (Counter and Pacified care).
 * @property {boolean} fromFoe  Whether a foe of the target dealt it (Intangible and Vigilance care).
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
    cover
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
 * @param {Pick<CoreApi, "iconSituation" | "odds">} core
 * @param {AttackState} state
 * @param {Attacker} attacker
 */
export function attackDialogContext(core, state, attacker) {
  const targets = state.targets.length ? state.targets : [null];
  const rows = targets.map((target, index) => {
    const { request, cover } = attackRequest(core, state, attacker, target);
    const odds = core.odds(request);
    const exact = odds.exact?.outcomes ?? {};
    const boons = Number(request.boons);
    const curses = Number(request.curses);
    return {
      index,
      target,
      net: boons - curses,
      netLabel: boons === curses ? "0" : boons > curses ? `+${boons - curses}` : `−${curses - boons}`,
      cover,
      heightOptions: [-3, -2, -1, 0, 1, 2, 3].map(value => ({
        value, label: value > 0 ? `+${value}` : String(value), selected: value === (target?.heightDifference ?? 0)
      })),
      hit: target ? { p: odds.outcomes.hit, text: percent(odds.outcomes.hit), exact: exact.hit ?? "" } : null,
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
    dieLabel: `d${attacker.die}`
  };
}

/**
 * @typedef {object} PlannedAttack  One target's part of an attack.
 * @property {AttackTarget | null} target
 * @property {CoreRequest | null} evasion   `icon.evasion`, when the target has Evasion.
 * @property {CoreRequest} attack
 * @property {boolean} cover
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
    const { request, cover } = attackRequest(core, state, attacker, target);
    return { target, evasion: target?.evasion ? { kind: "icon.evasion" } : null, attack: request, cover };
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
 * The `icon.save` request (a save succeeds on 10+).
 * @param {{boons?: number, curses?: number, bonus?: number}} [options]
 * @returns {CoreRequest}
 */
export function saveRequest({ boons = 0, curses = 0, bonus = 0 } = {}) {
  return { kind: "icon.save", boons, curses, bonus };
}

/**
 * What using an ability (any, basic attacks included) does to its user's statuses: Stunned "Your
 * next ability used ends your turn, then end this status". The core says which statuses remain
 * (`iconAfterAbility`: stunned ends); the turn ends when the user was stunned, an ongoing
 * `stunned+` included (its cause keeps the status, not the turn).
 * @param {Pick<CoreApi, "iconAfterAbility">} core
 * @param {string[]} statuses  The user's core statuses (`id+` when ongoing).
 * @returns {{ended: string[], endsTurn: boolean}}  `ended`: status ids to remove.
 */
export function abilityAftermath(core, statuses) {
  const bare = (/** @type {string} */ s) => s.replace(/\+$/, "");
  const left = new Set(core.iconAfterAbility(statuses));
  return {
    ended: statuses.filter(s => !left.has(s)).map(bare),
    endsTurn: statuses.some(s => bare(s) === "stunned")
  };
}
