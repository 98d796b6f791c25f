/**
 * Pure context of the hero sheet: the stats of the world's ruleset, with ICONS level names, the
 * Men & Supermen table lookups from the core, and the GM's charts. Only game.i18n, so the browser
 * test renders the template with exactly this code.
 */
import { format, formatPlural, localize } from "../i18n.mjs";
import { ICONS_ABILITIES, ICONS_LEVELS, MNS_CHARACTERISTICS, MNS_CHARTS, iconsLevelLabel, normalizeCharts } from "../../data/rulesets.mjs";

/**
 * @import { Campaign } from "../../data/rulesets.mjs"
 * @import { RulesetTables } from "../../types/core.js"
 * @import { HeroSource } from "../../types/system.js"
 */

/** @typedef {(query: {table: string, [field: string]: unknown}) => Record<string, unknown>} MnsLookup The core's `mnsLookup`. */

/** @param {string} key @param {Record<string, unknown>} [data] */
const t = (key, data) => (data ? format(key, data) : localize(key));

/**
 * @param {object} args
 * @param {HeroSource} args.system  The hero's system data.
 * @param {Campaign} args.campaign
 * @param {RulesetTables} args.tables
 * @param {MnsLookup} args.lookup
 * @param {unknown} [args.charts]  The stored Men & Supermen charts.
 */
export function heroContext({ system, campaign, tables, lookup, charts }) {
  const ruleset = campaign.ruleset;
  const context = {
    ruleset,
    rulesetLabel: t(`ICONENGINE.Ruleset.${ruleset}`),
    isIcon: ruleset === "icon",
    isIcons: ruleset === "icons",
    isTribute: ruleset === "tribute",
    isNarrator: ruleset === "narrator",
    isMns: ruleset === "mns"
  };
  switch (ruleset) {
    case "icons": return { ...context, icons: iconsContext(system.icons, campaign, tables) };
    case "tribute": return { ...context, tribute: tributeContext(system.tribute, campaign, tables) };
    case "narrator": return { ...context, narrator: narratorContext(system.narrator, campaign) };
    case "mns": return { ...context, mns: mnsContext(system.mns, lookup, charts, tables) };
    default: return context;
  }
}

/**
 * @param {HeroSource["icons"]} icons
 * @param {Campaign} campaign
 * @param {RulesetTables} tables
 */
function iconsContext(icons, campaign, tables) {
  /** @param {number} level */
  const label = level => iconsLevelLabel(level, tables.iconsLevels, campaign.iconsLevelNames,
    (name, l) => t("ICONENGINE.Icons.levelName", { name, level: l }));
  /** @param {number} current */
  const options = current => ICONS_LEVELS.map(level => ({ value: level, label: label(level), selected: level === current }));
  return {
    abilities: ICONS_ABILITIES.map(key => ({
      key, name: `system.icons.abilities.${key}`, label: t(`ICONENGINE.Icons.abilities.${key}`),
      value: icons.abilities[key], levelLabel: label(icons.abilities[key]), options: options(icons.abilities[key])
    })),
    powers: icons.powers.map((p, index) => ({
      index, name: p.name, level: p.level, levelLabel: label(p.level), options: options(p.level)
    })),
    determination: icons.determination
  };
}

/**
 * @param {HeroSource["tribute"]} tribute
 * @param {Campaign} campaign
 * @param {RulesetTables} tables
 */
function tributeContext(tribute, campaign, tables) {
  const level = tables.tributeRealityLevels.find(l => l.value === campaign.tributeDie);
  return {
    die: `d${campaign.tributeDie}`,
    reality: level ? t(`ICONENGINE.Tribute.reality.${level.id}`) : "",
    attributes: tribute.attributes.map((a, index) => ({ index, ...a,
      pool: t("ICONENGINE.Tribute.pool", { focus: a.focus + 1, burden: a.burden + 1, die: `d${campaign.tributeDie}` }) })),
    effects: tribute.effects.map((e, index) => ({ index, ...e }))
  };
}

/**
 * @param {HeroSource["narrator"]} narrator
 * @param {Campaign} campaign
 */
function narratorContext(narrator, campaign) {
  return {
    scale: t(`ICONENGINE.Narrator.scale.${campaign.narratorScale}`),
    skills: narrator.skills.map((s, index) => ({ index, ...s }))
  };
}

/**
 * A lookup that may be off the printed table: the core's answer, or null (shown as "—").
 * @template Answer
 * @param {() => Answer} ask
 * @returns {Answer | null}
 */
function tryLookup(ask) {
  try {
    return ask();
  } catch {
    return null;
  }
}

/**
 * @param {HeroSource["mns"]} mns
 * @param {MnsLookup} lookup
 * @param {unknown} stored
 * @param {RulesetTables} tables
 */
function mnsContext(mns, lookup, stored, tables) {
  const c = mns.characteristics;
  // The core's answers to these two tables (docs/js-contract.md, mnsLookup).
  const learning = tryLookup(() => /** @type {{fraction: string}} */ (lookup({ table: "learningModifier", learning: c.learning })));
  const sight = tryLookup(() => /** @type {{close: number, ranged: number, defense: number}} */ (lookup({ table: "sightModifiers", sight: c.sight })));
  /** @param {number} n */
  const signed = n => (n > 0 ? `+${n}` : `${n}`);
  const charts = normalizeCharts(stored);
  return {
    special: mns.special,
    height: mns.height,
    characteristics: MNS_CHARACTERISTICS.map(key => ({ key, name: `system.mns.characteristics.${key}`,
      label: t(`ICONENGINE.Mns.characteristic.${key}`), value: c[key] })),
    learningModifier: learning ? learning.fraction.replace(/\/1$/, "") : "—",
    sightModifiers: sight ? t("ICONENGINE.Mns.sightModifiers", { close: signed(sight.close), ranged: signed(sight.ranged), defense: signed(sight.defense) }) : "—",
    targets: mns.targets.map((r, index) => ({ index, ...r })),
    knowledge: mns.knowledge.map((k, index) => ({ index, ...k })),
    charts: MNS_CHARTS.map(id => ({ id, label: t(`ICONENGINE.Mns.charts.${id}`), count: charts[id].length,
      status: charts[id].length ? formatPlural("ICONENGINE.Mns.charts.rows", charts[id].length) : t("ICONENGINE.Mns.charts.empty") })),
    specialDice: tables.mnsSpecialDice
  };
}
