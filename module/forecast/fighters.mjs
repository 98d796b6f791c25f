/**
 * A forecast's fighters from what the module knows of each combatant: its reducer entry (side,
 * player character, template, slow turns), its actor's system data and statuses, and its
 * abilities' structured data (module/data/ability-data.mjs), as the core's forecast request takes
 * them (docs/js-contract.md, "Encounter forecast"). Pure functions, no Foundry globals, so node
 * tests run this exact code.
 */

/** The ability tags the forecast reads (module/data/rules.mjs ABILITY_TAGS). */
const TAGS = new Set(["attack", "area", "aura", "mark", "stance", "combo", "delay", "endTurn", "summon", "terrain", "limitBreak"]);
/** The effect triggers the core's `icon.ability` takes. */
const TRIGGERS = new Set(["use", "hit", "crit", "miss", "exceed", "failedSave", "charge", "comeback", "finishingBlow", "slay", "gamble", "heroic"]);
const ACTIONS = new Set(["1", "2", "free", "interrupt"]);
const DURATIONS = new Set(["save", "ongoing", "turn", "cure"]);
const RECHARGES = new Set(["", "turn", "round", "combat", "rest"]);
const PERS = new Set(["", "turn", "round", "combat"]);

/**
 * @typedef {object} FighterSource
 * @property {string} id                       The combatant's id (or a unique id in a planned fight).
 * @property {{side: "party"|"foes", isPlayerCharacter: boolean, template: "elite"|"legend"|"mob"|null, canSlow: boolean}} entry
 * @property {Record<string, any>} system      The actor's system data.
 * @property {string[]} statuses               Its statuses as the core names them (`id+` for ongoing ones).
 * @property {{type: string, name: string, system: Record<string, any>}[]} items
 */

/**
 * A whole number within [min, max], or `fallback`.
 * @param {unknown} v @param {number} min @param {number} max @param {number} fallback
 */
const int = (v, min, max, fallback) => (typeof v === "number" && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.trunc(v))) : fallback);

/**
 * An ability item as the forecast plays it, or null when it is not an ability.
 * @param {{type: string, name: string, system: Record<string, any>}} item
 */
export function abilityOf(item) {
  if (item.type !== "ability") return null;
  const s = item.system ?? {};
  const tags = (Array.isArray(s.tags) ? s.tags : []).filter((/** @type {unknown} */ t) => typeof t === "string" && TAGS.has(t)).slice(0, 16);
  const roll = s.roll ?? {};
  const attack = s.attack ?? {};
  const parts = (Array.isArray(s.effects) ? s.effects : [])
    .filter((/** @type {any} */ e) => e && typeof e.status === "string" && e.status && TRIGGERS.has(e.trigger))
    .slice(0, 12)
    .map((/** @type {any} */ e) => ({
      trigger: e.trigger,
      gamble: e.trigger === "gamble" ? int(e.gamble, 1, 6, 4) : null,
      to: e.to === "self" ? "self" : "target",
      status: e.status,
      duration: DURATIONS.has(e.duration) ? e.duration : "save"
    }));
  return {
    name: String(item.name ?? "").slice(0, 200),
    actions: ACTIONS.has(s.actions) ? s.actions : "1",
    tags,
    attack: tags.includes("attack") ? {
      boons: int(roll.boons, 0, 20, 0), curses: int(roll.curses, 0, 20, 0), dice: int(roll.hitDice, 0, 20, 1),
      bonusDice: int(roll.bonusDice, 0, 20, 0), frayOnMiss: roll.frayOnMiss !== false, pierce: !!roll.pierce, divine: !!roll.divine,
      saveForHalf: !!roll.saveForHalf, trueStrike: !!attack.trueStrike, autoHit: !!attack.autoHit, critAgain: !!attack.critAgain,
      floor: !!attack.floor
    } : null,
    save: s.save?.enabled ? { boons: int(s.save.boons, 0, 20, 0), curses: int(s.save.curses, 0, 20, 0) } : null,
    area: !!s.area?.shape,
    parts,
    charges: { value: int(s.charges?.value, 0, 1000, 0), max: int(s.charges?.max, 0, 1000, 0), recharge: RECHARGES.has(s.charges?.recharge) ? s.charges.recharge : "" },
    limit: { per: PERS.has(s.limit?.per) ? s.limit.per : "", used: int(s.limit?.used, 0, 99, 0) },
    resolveCost: int(s.resolveCost, 0, 1000, 0)
  };
}

/**
 * A fighter of the forecast request.
 * @param {FighterSource} source
 */
export function fighterOf({ id, entry, system, statuses, items }) {
  const maxHp = int(system.hp?.max, 1, 100_000, 1);
  const abilities = [];
  for (const item of items) {
    const a = abilityOf(item);
    if (a) abilities.push(a);
    if (abilities.length >= 32) break;
  }
  return {
    id,
    side: entry.side,
    isPlayerCharacter: !!entry.isPlayerCharacter,
    template: entry.template ?? null,
    canSlow: !!entry.canSlow,
    hp: int(system.hp?.value, 0, maxHp, maxHp),
    maxHp,
    vigor: int(system.vigor?.value, 0, 100_000, 0),
    armor: int(system.armor, 0, 1000, 0),
    wounds: int(system.wounds, 0, 4, 0),
    resolve: entry.isPlayerCharacter ? int(system.resolve, 0, 1000, 0) : 0,
    statuses: statuses.slice(0, 128),
    defense: int(system.defense, 0, 100, 0),
    die: int(system.damageDie, 1, 100, 8),
    fray: int(system.fray, 0, 1000, 0),
    // "Foes cannot land critical hits unless noted otherwise"
    canCrit: entry.isPlayerCharacter || !!system.canCrit,
    abilities
  };
}
