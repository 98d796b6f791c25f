/**
 * The ICON 1.5 numbers the data models and sheets use: class and foe presets, the limits of every
 * number, and the pure checks and clamps behind validation. No Foundry API here, so node tests
 * exercise exactly what the data models call. Derived health values (bloodied, healable HP, vigor
 * cap) are NOT here: they come from the core's `iconDerived`.
 */

/** The ten narrative action ratings, in sheet order. */
export const ACTIONS = /** @type {const} */ ([
  "sneak", "traverse", "sense", "study", "charm", "command", "tinker", "excel", "smash", "endure"
]);

/** Damage dice a class or foe can have. */
export const DAMAGE_DICE = /** @type {const} */ ([6, 8, 10, 12]);

/** Segments a burden's healing clock can have. */
export const BURDEN_CLOCKS = /** @type {const} */ ([4, 6, 10]);

/** Ability tags (limit break carries a resolve cost on the ability). */
export const ABILITY_TAGS = /** @type {const} */ ([
  "attack", "area", "aura", "mark", "stance", "combo", "delay", "endTurn", "summon", "terrain", "limitBreak"
]);

/** How many actions an ability takes. `interrupt` has a count (interrupt N). */
export const ABILITY_ACTIONS = /** @type {const} */ (["1", "2", "free", "interrupt"]);

/**
 * @typedef {object} CombatPreset
 * @property {number} vit
 * @property {number} defense
 * @property {number} speed
 * @property {number} dash
 * @property {6|8|10|12} damageDie
 * @property {number} fray
 * @property {number} range
 * @property {number} armor
 */

/**
 * Player classes: their jobs, the numbers picking the class fills in, and the class trait.
 * @type {Record<"stalwart"|"vagabond"|"mendicant"|"wright", CombatPreset & {jobs: string[], trait: string}>}
 */
export const CLASSES = {
  stalwart: {
    jobs: ["bastion", "demonSlayer", "colossus", "knave"],
    vit: 10, defense: 6, speed: 4, dash: 2, damageDie: 6, fray: 4, range: 3, armor: 2, trait: "armor"
  },
  vagabond: {
    jobs: ["fool", "freelancer", "shade", "warden"],
    vit: 7, defense: 10, speed: 4, dash: 4, damageDie: 10, fray: 2, range: 4, armor: 0, trait: "skirmisherDodge"
  },
  mendicant: {
    jobs: ["chanter", "harvester", "sealer", "seer"],
    vit: 10, defense: 8, speed: 4, dash: 2, damageDie: 6, fray: 3, range: 5, armor: 0, trait: "blessing"
  },
  wright: {
    jobs: ["enochian", "geomancer", "spellblade", "stormbender"],
    // Fray 4: the glossary's "if an ability says it does 2[D]+Fray, and you are a Stormbender, that
    // ability does 2d8+4 damage".
    vit: 8, defense: 7, speed: 4, dash: 2, damageDie: 8, fray: 4, range: 6, armor: 0, trait: "aetherDie"
  }
};

/**
 * Foe classes: the matching player class's numbers, without range. The seed fixes only the
 * Wright's fray (its Stormbender example), so the Artillery keeps fray 3 until a foe source says
 * otherwise.
 */
export const FOE_CLASSES = {
  heavy: { vit: 10, defense: 6, damageDie: 6, fray: 4 },
  skirmisher: { vit: 7, defense: 10, damageDie: 10, fray: 2 },
  leader: { vit: 10, defense: 8, damageDie: 6, fray: 3 },
  artillery: { vit: 8, defense: 7, damageDie: 8, fray: 3 }
};

/** Foe templates. `""` is a normal foe. */
export const FOE_TEMPLATES = /** @type {const} */ (["", "elite", "legend", "mob"]);

/** What a Legend template overrides. */
export const LEGEND = { hpPerPlayer: 50, minHp: 100, defense: 8, damageDie: 8, fray: 3 };

/** A mob: members per player character, hits each member takes. */
export const MOB = { membersPerPlayer: 2, hitsPerMember: 2 };

/**
 * Limits of every bounded number, `[min, max]`. The data models build their NumberFields from
 * these, and {@link validateCharacter}/{@link validateFoe} check the cross-field rules.
 */
/** @type {Record<"level"|"vit"|"wounds"|"rating"|"maxStrain"|"burdens"|"chapter"|"size"|"partySize"|"vigilance", [number, number]>} */
export const LIMITS = {
  level: [0, 12],
  vit: [1, 99],
  wounds: [0, 4],
  rating: [0, 4],
  maxStrain: [1, 10],
  burdens: [0, 3],
  chapter: [1, 3],
  size: [1, 3],
  partySize: [1, 12],
  // "Vigilance charges stack": the seed sets no ceiling; 99 keeps a typo from rolling a thousand d6.
  vigilance: [0, 99]
};

/**
 * The chapter (1–3) of a character level: I = 1–4, II = 5–8, III = 9–12 (level 0 counts as I).
 * @param {number} level
 * @returns {1|2|3}
 */
export function chapterOfLevel(level) {
  return level <= 4 ? 1 : level <= 8 ? 2 : 3;
}

/**
 * Max HP of a character: 4 × VIT.
 * @param {number} vit
 */
export function characterMaxHp(vit) {
  return 4 * vit;
}

/**
 * Max HP of a foe (for a mob: hits of the whole mob). Elite doubles, Legend is 50 per player
 * character with a minimum of 100, a mob has 2 members per player character of 2 hits each.
 * @param {{vit: number, template: string, partySize: number}} foe
 */
export function foeMaxHp({ vit, template, partySize }) {
  switch (template) {
    case "elite": return 8 * vit;
    case "legend": return Math.max(LEGEND.minHp, LEGEND.hpPerPlayer * partySize);
    case "mob": return MOB.membersPerPlayer * partySize * MOB.hitsPerMember;
    default: return 4 * vit;
  }
}

/**
 * Turns a foe takes each round.
 * @param {{template: string, partySize: number}} foe
 */
export function foeTurns({ template, partySize }) {
  return template === "elite" ? 2 : template === "legend" ? partySize : 1;
}

/**
 * The update that picking a class makes: the class's numbers, full HP, and its first job unless
 * the current job already belongs to the class. `jobs`, when given, are the class's jobs that
 * exist as content (a job item of the class in the world or a compendium): only those are picked,
 * and none ("") when there is none, so a class never picks a job no pack provides. Unknown
 * classes change nothing.
 * @param {string} className
 * @param {string} [currentJob]
 * @param {readonly string[] | null} [jobs]  The class's jobs that exist; null: its own list.
 * @returns {Record<string, unknown>}  Dotted `system.*` update keys.
 */
export function classPresetUpdate(className, currentJob = "", jobs = null) {
  const preset = CLASSES[/** @type {keyof typeof CLASSES} */ (className)];
  if (!preset) return {};
  const maxHp = characterMaxHp(preset.vit);
  const offered = jobs ?? preset.jobs;
  return {
    "system.class": className,
    "system.job": offered.includes(currentJob) ? currentJob : offered[0] ?? "",
    "system.vit": preset.vit,
    "system.hp.value": maxHp,
    "system.hp.max": maxHp,
    "system.defense": preset.defense,
    "system.speed": preset.speed,
    "system.dash": preset.dash,
    "system.damageDie": preset.damageDie,
    "system.fray": preset.fray,
    "system.range": preset.range,
    "system.armor": preset.armor
  };
}

/**
 * The update picking a foe class or template makes (Legend overrides defense, die and fray).
 * @param {string} foeClass
 * @param {string} template
 * @param {number} partySize
 * @returns {Record<string, unknown>}
 */
export function foePresetUpdate(foeClass, template, partySize) {
  const preset = FOE_CLASSES[/** @type {keyof typeof FOE_CLASSES} */ (foeClass)];
  if (!preset) return {};
  const numbers = template === "legend" ? { ...preset, ...LEGEND } : preset;
  const maxHp = foeMaxHp({ vit: preset.vit, template, partySize });
  return {
    "system.foeClass": foeClass,
    "system.template": template,
    "system.vit": preset.vit,
    "system.hp.value": maxHp,
    "system.hp.max": maxHp,
    "system.defense": numbers.defense,
    "system.damageDie": numbers.damageDie,
    "system.fray": numbers.fray
  };
}

/**
 * Clamp HP into [0, max] the way the rules do (HP never exceeds max, never drops below 0), and
 * effort to 0+. Returns only the corrections, as a partial `system` object, so the caller merges
 * it into an update.
 * @param {{hp?: {value?: number, max?: number}}} changes  The `system` part of an update.
 * @param {{hp: {value: number, max: number}}} current     The current `system` source.
 * @param {number} maxHp  The max HP after the update.
 * @returns {{hp?: {value: number}}}
 */
export function clampHealth(changes, current, maxHp) {
  const value = changes.hp?.value ?? current.hp.value;
  const clamped = Math.min(Math.max(0, value), maxHp);
  return clamped === value ? {} : { hp: { value: clamped } };
}

/**
 * @typedef {object} RuleError
 * @property {string} key     i18n key of the message.
 * @property {Record<string, string>} data  Its format arguments (strings, as `format` wants).
 */

/**
 * @param {string} key
 * @param {Record<string, unknown>} data
 * @returns {RuleError}
 */
function rule(key, data) {
  return { key, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])) };
}

/**
 * @param {string} path
 * @param {unknown} value
 * @param {[number, number]} range
 * @returns {RuleError[]}
 */
function checkRange(path, value, [min, max]) {
  if (typeof value !== "number") return [];
  if (!Number.isInteger(value) || value < min || value > max) {
    return [rule("ICONENGINE.Validation.Range", { path, value, min, max })];
  }
  return [];
}

/**
 * The rules a character's data must satisfy beyond single fields: wounds 0–4 (a 5th is refused;
 * the 4th makes the character fallen), action ratings 0–4, strain within max strain, at most 3
 * burdens, each burden's filled segments within its clock, vigor not negative.
 * @param {{wounds?: unknown, level?: unknown, actions?: Partial<Record<string, unknown>>, strain?: {value?: unknown, max?: unknown}, burdens?: unknown}} system
 *   A character's `system` source, possibly partial or malformed (hence `unknown` fields).
 * @returns {RuleError[]}
 */
export function validateCharacter(system) {
  /** @type {RuleError[]} */
  const errors = [];
  errors.push(...checkRange("wounds", system.wounds, LIMITS.wounds));
  errors.push(...checkRange("level", system.level, LIMITS.level));
  for (const action of ACTIONS) {
    errors.push(...checkRange(`actions.${action}`, system.actions?.[action], LIMITS.rating));
  }
  const strain = system.strain;
  if (strain && typeof strain.value === "number" && typeof strain.max === "number" && strain.value > strain.max) {
    errors.push(rule("ICONENGINE.Validation.Strain", { value: strain.value, max: strain.max }));
  }
  const burdens = Array.isArray(system.burdens) ? system.burdens : [];
  if (burdens.length > LIMITS.burdens[1]) {
    errors.push(rule("ICONENGINE.Validation.Burdens", { count: burdens.length, max: LIMITS.burdens[1] }));
  }
  burdens.forEach((/** @type {{filled: number, clock: number} | null} */ burden, /** @type {number} */ index) => {
    if (burden && burden.filled > burden.clock) {
      errors.push(rule("ICONENGINE.Validation.BurdenClock", { index: index + 1, filled: burden.filled, clock: burden.clock }));
    }
  });
  return errors;
}

/**
 * The cross-field rules of a foe: chapter and size 1–3.
 * @param {{chapter?: unknown, size?: unknown}} system
 * @returns {RuleError[]}
 */
export function validateFoe(system) {
  return [
    ...checkRange("chapter", system.chapter, LIMITS.chapter),
    ...checkRange("size", system.size, LIMITS.size)
  ];
}

/**
 * The statuses of an actor as the core names them: `id`, with `+` appended for an ongoing one
 * (which a save cannot remove).
 * @param {Iterable<{statuses: Iterable<string>, ongoing: boolean}>} effects
 * @returns {string[]}
 */
export function coreStatuses(effects) {
  const out = new Set();
  for (const effect of effects) {
    for (const id of effect.statuses) out.add(effect.ongoing ? `${id}+` : id);
  }
  return [...out];
}

/**
 * Whether the automatic Bloodied status must change: `true` to add it, `false` to remove it,
 * `null` to leave it (no change, or the core's derived values are not available yet).
 * @param {{bloodied: boolean} | null} derived  From the core's `iconDerived`.
 * @param {boolean} hasStatus  Whether the actor has the Bloodied status now.
 * @returns {boolean | null}
 */
export function bloodiedChange(derived, hasStatus) {
  if (!derived || derived.bloodied === hasStatus) return null;
  return derived.bloodied;
}
