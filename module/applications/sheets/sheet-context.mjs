/**
 * Pure context preparation of the ICON sheets: what the Handlebars templates show, from an
 * actor's or item's system data. No Foundry API, so the browser test renders the templates with
 * exactly this code.
 */
import { ABILITY_ACTIONS, ABILITY_TAGS, ACTIONS, BURDEN_CLOCKS, CLASSES, DAMAGE_DICE, FOE_CLASSES, FOE_TEMPLATES,
  LIMITS, chapterOfLevel, classPresetUpdate, foePresetUpdate, foeTurns } from "../../data/rules.mjs";
import { AREA_SHAPES, EFFECT_DURATIONS, EFFECT_TRIGGERS, LIMITS as ITEM_LIMITS, MOVE_KINDS, RANGE_KINDS, RECHARGES, TARGET_KINDS, USABLE_TYPES,
  abilitySummary } from
  "../../data/ability-rules.mjs";
import { ICONENGINE } from "../../config.mjs";
import { abilityParts } from "../../data/card-data.mjs";
import { partLine } from "../../dice/cards/ability-card.mjs";
import { formatPlural } from "../i18n.mjs";

/**
 * @typedef {{value: string|number, label: string, selected: boolean}} Option
 * @typedef {import("../../types/system.js").CharacterSystem} CharacterSystem
 * @typedef {import("../../types/system.js").FoeSystem} FoeSystem
 * @typedef {import("../../types/system.js").AbilitySource} AbilitySource
 */

/**
 * @template {string|number} Value
 * @param {readonly Value[]} values
 * @param {string|number} current
 * @param {(value: Value) => string} label  i18n key of each value.
 * @returns {Option[]}
 */
function options(values, current, label) {
  return values.map(value => ({ value, label: label(value), selected: value === current }));
}

/**
 * The segments of a burden clock as SVG paths (a circle cut into `clock` wedges, clockwise from
 * the top), each filled or not.
 * @param {number} clock   4, 6 or 10.
 * @param {number} filled
 * @param {number} [radius]
 * @returns {{d: string, filled: boolean, segment: number}[]}
 */
export function clockSegments(clock, filled, radius = 20) {
  const c = radius + 2;
  /** @param {number} i */
  const point = i => {
    const angle = (2 * Math.PI * i) / clock - Math.PI / 2;
    return `${(c + radius * Math.cos(angle)).toFixed(2)} ${(c + radius * Math.sin(angle)).toFixed(2)}`;
  };
  return Array.from({ length: clock }, (_, i) => ({
    d: `M${c} ${c} L${point(i)} A${radius} ${radius} 0 0 1 ${point(i + 1)} Z`,
    filled: i < filled,
    segment: i + 1
  }));
}

/**
 * The action ratings as rows of four dots.
 * @param {Record<string, number>} ratings
 */
export function ratingRows(ratings) {
  return ACTIONS.map(action => ({
    action,
    label: `ICONENGINE.ActionRating.${action}`,
    value: ratings[action] ?? 0,
    max: LIMITS.rating[1],
    dots: Array.from({ length: LIMITS.rating[1] }, (_, i) => ({ value: i + 1, filled: i < (ratings[action] ?? 0) }))
  }));
}

/**
 * How full a bar is drawn: `value` of `max` as a whole percentage, 0 to 100 (0 when there is no
 * maximum yet).
 * @param {number} value
 * @param {number | null | undefined} max
 */
export function meterPercent(value, max) {
  if (!max || !(max > 0)) return 0;
  return Math.round(Math.min(100, Math.max(0, (100 * value) / max)));
}

/**
 * The health block both actor sheets show. `derived` is the core's `iconDerived` answer, or null
 * while the core loads (the sheet then says so instead of computing anything itself).
 * @param {CharacterSystem | FoeSystem} system
 */
function healthContext(system) {
  const derived = system.derived ?? null;
  return {
    derived,
    coreLoading: derived === null,
    bloodied: derived?.bloodied ?? false,
    fallen: derived?.fallen ?? false,
    woundPips: Array.from({ length: LIMITS.wounds[1] }, (_, i) => ({ value: i + 1, filled: i < system.wounds })),
    // The bars: HP of its maximum with a mark where the actor is bloodied, vigor of its cap.
    meters: {
      hp: meterPercent(system.hp.value, system.hp.max),
      vigor: meterPercent(system.vigor.value, derived?.vigorCap),
      bloodied: derived ? meterPercent(derived.bloodiedValue, system.hp.max) : 0
    },
    dieOptions: options([...DAMAGE_DICE], system.damageDie, die => `d${die}`)
  };
}

/**
 * An item as the sheets list it; `system` is read only for an ability's tags; `row` is what its
 * inline card shows ({@link itemRow}).
 * @typedef {{id: string, name: string, img: string, type: string, system?: {tags?: readonly string[]}, row?: ItemRow}} ItemLike
 */

/**
 * @typedef {object} ItemRow  An item's inline card on an actor's sheet.
 * @property {string[]} chips   Its cost, reach, area, once-per limit and charges, as text.
 * @property {string[]} tags    Its tags, as text.
 * @property {boolean} usable   It can be used (abilities, relics, traits).
 * @property {boolean} spent    It has no charge left.
 */

/**
 * What an item's inline card shows.
 * @param {{type: string, system: import("../../data/ability-rules.mjs").AbilityLike & {resolveCost?: number}}} item
 * @param {(key: string, data?: Record<string, string>) => string} format  i18n.
 * @returns {ItemRow}
 */
export function itemRow(item, format) {
  const summary = abilitySummary(item.type === "ability" ? item.system : { charges: item.system.charges, limit: item.system.limit });
  const say = (/** @type {{key: string, data: Record<string, string>} | null} */ e) => (e ? format(e.key, e.data) : "");
  const chips = [say(summary.cost), say(summary.range), say(summary.area), say(summary.limit)].filter(Boolean);
  if (summary.charges) chips.push(format("ICONENGINE.Use.Charges", { value: String(summary.charges.value), max: String(summary.charges.max) }));
  return {
    chips,
    tags: summary.tags.map(tag => format(`ICONENGINE.Tag.${tag}`)),
    usable: USABLE_TYPES.includes(item.type),
    spent: !!summary.charges && summary.charges.value <= 0
  };
}

/**
 * Items in the order their owner sorted them (Foundry's `sort`), then by name.
 * @template {{sort?: number, name: string}} T
 * @param {T[]} items
 * @returns {T[]}
 */
export function sortedItems(items) {
  return [...items].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0) || a.name.localeCompare(b.name));
}

/**
 * The job select of a character: "no job", then the class's jobs that exist as content (`jobs`,
 * ItemGrants.jobsOf), each by its item's name; the character's job when it has no content is kept
 * as the selected option, marked so (a select without its value would change it on the next
 * submit). Without `jobs` (not looked up), the class's own list by ICON's names.
 * @param {CharacterSystem} system
 * @param {{key: string, name: string}[] | null} jobs
 */
export function jobContext(system, jobs) {
  const preset = CLASSES[/** @type {keyof typeof CLASSES} */ (system.class)];
  if (!preset) return { jobOptions: [], noJobs: false };
  const offered = jobs ?? preset.jobs.map(key => ({ key, name: `ICONENGINE.Job.${key}` }));
  /** @type {(Option & {missing?: string})[]} */
  const jobOptions = [{ value: "", label: "ICONENGINE.Job.none", selected: !system.job },
    ...offered.map(job => ({ value: job.key, label: job.name, selected: job.key === system.job }))];
  if (system.job && !offered.some(job => job.key === system.job)) {
    jobOptions.push({ value: system.job, label: "ICONENGINE.Job.missing", selected: true, missing: system.job });
  }
  return { jobOptions, noJobs: offered.length === 0 };
}

/**
 * Context of the character sheet.
 * @param {CharacterSystem} system  The character's system data (prepared).
 * @param {ItemLike[]} items The actor's items.
 * @param {{key: string, name: string}[] | null} [jobs]  The class's jobs that exist as content.
 */
export function characterContext(system, items = [], jobs = null) {
  const preset = CLASSES[/** @type {keyof typeof CLASSES} */ (system.class)];
  return {
    ...healthContext(system),
    chapter: chapterOfLevel(system.level),
    classOptions: options(Object.keys(CLASSES), system.class, c => `ICONENGINE.Class.${c}`),
    ...jobContext(system, jobs),
    classTrait: preset ? `ICONENGINE.ClassTrait.${preset.trait}` : null,
    ratings: ratingRows(system.actions),
    strainPips: Array.from({ length: system.strain.max }, (_, i) => ({ value: i + 1, filled: i < system.strain.value })),
    canAddBurden: system.burdens.length < LIMITS.burdens[1],
    burdens: system.burdens.map((burden, index) => ({
      ...burden,
      index,
      segments: clockSegments(burden.clock, burden.filled),
      clockOptions: options(BURDEN_CLOCKS, burden.clock, n => String(n)),
      firstOptions: options(ACTIONS, burden.actions.first, a => `ICONENGINE.ActionRating.${a}`),
      secondOptions: options(ACTIONS, burden.actions.second, a => `ICONENGINE.ActionRating.${a}`)
    })),
    abilities: items.filter(i => i.type === "ability"),
    traits: items.filter(i => i.type === "trait"),
    relics: items.filter(i => i.type === "relic")
  };
}

/**
 * Context of the foe sheet: a stat block as an ICON foe reads in the book, its class and template
 * named under its name (with its chapter, size and turns), its numbers, its traits, then its
 * actions, each with its text.
 * @param {FoeSystem} system
 * @param {ItemLike[]} items
 * @param {StatblockItem[]} [statblock]  The foe's items as its stat block reads them ({@link statblockEntry}).
 */
export function foeContext(system, items = [], statblock = []) {
  const turns = foeTurns(system);
  return {
    ...healthContext(system),
    foeClassOptions: options(Object.keys(FOE_CLASSES), system.foeClass, c => `ICONENGINE.FoeClass.${c}`),
    templateOptions: options(FOE_TEMPLATES, system.template, t => `ICONENGINE.FoeTemplate.${t || "none"}`),
    // "Heavy Elite", "Skirmisher" (a normal foe's template is not named), or no class yet.
    kind: {
      foeClass: system.foeClass ? `ICONENGINE.FoeClass.${system.foeClass}` : "ICONENGINE.Foe.noClass",
      template: system.template ? `ICONENGINE.FoeTemplate.${system.template}` : ""
    },
    turns,
    turnsLabel: formatPlural("ICONENGINE.Foe.turns", turns),
    isMob: system.template === "mob",
    abilities: items.filter(i => i.type === "ability"),
    traits: items.filter(i => i.type === "trait"),
    actions: statblock.filter(i => i.type === "ability"),
    traitEntries: statblock.filter(i => i.type === "trait")
  };
}

/**
 * @typedef {object} StatblockItem  An ability or trait as a foe's stat block reads it.
 * @property {string} id
 * @property {string} name
 * @property {string} img
 * @property {string} type
 * @property {ItemRow} row       Its chips (cost, reach, area, once-per limit, charges), tags, spent.
 * @property {string} trigger    An interrupt's trigger, as text.
 * @property {{modifier: string, hit: string, miss: string} | null} attack  What its attack deals, with its boons or curses.
 * @property {string} save       The save it calls for, in words.
 * @property {{when: string, line: string}[]} effects  Its effects, each with when it applies.
 * @property {string} html       Its text (enriched HTML).
 * @property {string} combo      Its Combo version's text (enriched HTML), when it is a combo.
 */

/**
 * An item as a foe's stat block reads it: its cost and reach, its tags, an interrupt's trigger,
 * its attack's damage ("X[D]+fray", fray on a miss), the save it calls for, its effects each after
 * when it applies ("On a hit: Dazed (save ends)"), and its text.
 * @param {{id: string, name: string, img: string, type: string, system: Record<string, unknown>}} item
 * @param {{html: string, combo?: string}} text  Its description and Combo text, enriched.
 * @param {(key: string, data?: Record<string, string>) => string} format  i18n.
 * @returns {StatblockItem}
 */
export function statblockEntry(item, { html, combo = "" }, format) {
  const system = /** @type {import("../../data/ability-rules.mjs").AbilityLike & {resolveCost?: number, trigger?: string,
    roll?: {hitDice?: number, bonusDice?: number, frayOnMiss?: boolean, boons?: number, curses?: number},
    save?: {enabled?: boolean, boons?: number, curses?: number},
    effects?: import("../../data/card-data.mjs").AbilitySystem["effects"]}} */ (item.system);
  const ability = item.type === "ability";
  const row = itemRow({ type: item.type, system }, format);
  if (ability && system.resolveCost) row.chips.push(format("ICONENGINE.Use.ResolveCost", { cost: String(system.resolveCost) }));
  const roll = system.roll ?? {};
  const dice = Math.max(0, Number(roll.hitDice ?? 1)) + Math.max(0, Number(roll.bonusDice ?? 0));
  const net = Number(roll.boons ?? 0) - Number(roll.curses ?? 0);
  const attack = ability && system.tags?.includes("attack") ? {
    modifier: net > 0 ? formatPlural("ICONENGINE.Foe.boons", net) : net < 0 ? formatPlural("ICONENGINE.Foe.curses", -net) : "",
    hit: dice ? format("ICONENGINE.Foe.damage", { dice: String(dice) }) : format("ICONENGINE.Foe.frayOnly"),
    miss: roll.frayOnMiss === false ? "" : format("ICONENGINE.Foe.miss")
  } : null;
  const save = ability && system.save?.enabled ? format("ICONENGINE.Foe.save") : "";
  return {
    id: item.id, name: item.name, img: item.img, type: item.type, row,
    trigger: ability ? abilitySummary(system).trigger : "",
    attack,
    save,
    // The parts as its card reads them (data/card-data.mjs), each after when it applies.
    effects: ability ? abilityParts(/** @type {import("../../data/card-data.mjs").AbilitySystem} */ (system), new Set(Object.values(ICONENGINE.statuses).flat()))
      .map(part => ({ when: format(`ICONENGINE.Card.When.${part.trigger}`, { n: String(part.gamble) }), line: partLine(part, format) }))
      .filter(effect => effect.line) : [],
    html,
    combo: ability && system.tags?.includes("combo") ? combo : ""
  };
}

/**
 * Context of the ability sheet: every field's choices, as the template's selects and toggles show
 * them.
 * @param {AbilitySource} system
 */
export function abilityContext(system) {
  const statusIds = Object.values(ICONENGINE.statuses).flat();
  return {
    actionOptions: options(ABILITY_ACTIONS, system.actions, a => `ICONENGINE.AbilityActions.${a}`),
    isInterrupt: system.actions === "interrupt",
    isLimitBreak: system.tags.includes("limitBreak"),
    isAttack: system.tags.includes("attack"),
    isCombo: system.tags.includes("combo"),
    tagChoices: ABILITY_TAGS.map(tag => ({ tag, label: `ICONENGINE.Tag.${tag}`, checked: system.tags.includes(tag) })),
    rangeOptions: options(RANGE_KINDS, system.range.kind, k => `ICONENGINE.ItemSheet.RangeKind.${k || "none"}`),
    hasRangeValue: system.range.kind === "range" || system.range.kind === "melee",
    areaOptions: options(["", ...AREA_SHAPES], system.area.shape, s => `ICONENGINE.Area.Shape.${s || "none"}`),
    hasArea: !!system.area.shape,
    ...usesContext(system),
    effects: system.effects.map((effect, index) => ({
      ...effect,
      index,
      number: index + 1,
      triggerOptions: options(EFFECT_TRIGGERS, effect.trigger, t => `ICONENGINE.ItemSheet.Trigger.${t}`),
      statusOptions: options(["", ...statusIds], effect.status, id => (id ? `ICONENGINE.Status.${id}.name` : "ICONENGINE.ItemSheet.noStatus")),
      durationOptions: options(EFFECT_DURATIONS, effect.duration, d => `ICONENGINE.ItemSheet.Duration.${d}`),
      isGamble: effect.trigger === "gamble",
      toOptions: options(TARGET_KINDS, effect.to, to => `ICONENGINE.ItemSheet.To.${to}`),
      moveOptions: options(MOVE_KINDS, effect.move?.kind ?? "", m => `ICONENGINE.ItemSheet.Move.${m || "none"}`)
    }))
  };
}

/**
 * The charges and once-per limit of an ability or relic, as its sheet edits them.
 * @param {{charges: {recharge: string}, limit: {per: string}}} system
 */
export function usesContext(system) {
  return {
    rechargeOptions: options(RECHARGES, system.charges.recharge, r => `ICONENGINE.ItemSheet.Recharge.${r || "none"}`),
    limitOptions: options(ITEM_LIMITS, system.limit.per, l => `ICONENGINE.ItemSheet.Limit.${l || "none"}`)
  };
}

/**
 * Context of a class, job or foe template item's sheet: its key, its class or template, and the
 * items it grants as rows (a UUID that no longer resolves shows as missing).
 * @param {{type: string, system: {key: string, grants: readonly string[], class?: string, template?: string}}} item
 * @param {(uuid: string) => {name: string, img: string, type: string} | null} resolve  `fromUuidSync`, as rows need it.
 */
export function grantContext(item, resolve) {
  const system = item.system;
  return {
    isJob: item.type === "job",
    isFoeTemplate: item.type === "foeTemplate",
    classOptions: options(Object.keys(CLASSES), system.class ?? "", c => `ICONENGINE.Class.${c}`),
    templateOptions: options(FOE_TEMPLATES, system.template ?? "", t => `ICONENGINE.FoeTemplate.${t || "none"}`),
    grants: system.grants.map((uuid, index) => {
      const found = resolve(uuid);
      return { uuid, index, name: found?.name ?? "", img: found?.img ?? "", missing: !found, typeLabel: found ? `TYPES.Item.${found.type}` : "" };
    })
  };
}

/**
 * @param {object} target
 * @param {Record<string, unknown>} flat  Dotted `system.*` keys.
 */
function assignDotted(target, flat) {
  for (const [path, value] of Object.entries(flat)) {
    const parts = path.split(".");
    const last = /** @type {string} */ (parts.pop());
    // Plain nested form data: each step down is another record.
    let node = /** @type {Record<string, unknown>} */ (target);
    for (const part of parts) node = /** @type {Record<string, unknown>} */ (node[part] ??= {});
    node[last] = value;
  }
  return target;
}

/**
 * The sheet's submit data with the presets applied: picking another class fills the class's
 * numbers (and full HP), picking another foe class or template fills the foe's. The numbers stay
 * editable afterwards; only a change of class/template overwrites them.
 * @template {{system?: PresetFields}} SubmitData
 * @param {SubmitData} submitData  Expanded form data (`{system: {...}}`).
 * @param {string} type            The actor type.
 * @param {PresetFields & Readonly<Record<string, unknown>>} source  The actor's current system source.
 * @param {{jobs?: readonly string[] | null}} [content]  The new class's jobs that exist as content
 *   (classPresetUpdate picks only among them).
 * @returns {SubmitData}           The same object, changed.
 */
export function applyPresets(submitData, type, source, { jobs = null } = {}) {
  const system = submitData.system ?? {};
  if (type === "character" && system.class !== undefined && system.class !== source.class) {
    assignDotted(submitData, classPresetUpdate(system.class, system.job ?? source.job, jobs));
  } else if (type === "foe") {
    const foe = /** @type {import("../../types/system.js").FoeSource} */ (source); // a foe's source has every foe field
    const foeClass = system.foeClass ?? foe.foeClass;
    const template = system.template ?? foe.template;
    if (foeClass !== foe.foeClass || template !== foe.template) {
      assignDotted(submitData, foePresetUpdate(foeClass, template, system.partySize ?? foe.partySize));
    }
  }
  return submitData;
}

/**
 * The fields a preset reads, of a character's or a foe's system data.
 * @typedef {{class?: string, job?: string, foeClass?: string, template?: string, partySize?: number}} PresetFields
 */

/**
 * The HTML fields of a sheet, for the editors: field name, label, raw source and enriched HTML.
 * @param {string[]} fields
 * @param {Readonly<Record<string, unknown>>} source
 * @param {Record<string, string>} enriched
 */
export function htmlFieldsContext(fields, source, enriched) {
  return fields.map(field => ({ field, label: `ICONENGINE.Actor.${field}`, source: source[field] ?? "", html: enriched[field] ?? "" }));
}
