/**
 * The roll dialog's context for the other rulesets: its fields (with the narrator's difficulty and
 * opposed-modifier charts as pickers), the core request they make, and that request's exact odds.
 * Pure (only game.i18n): the ApplicationV2 class and the browser test both call it.
 */
import { ICONS_LEVELS, iconsLevelLabel } from "../data/rulesets.mjs";
import { format, formatPlural, localize } from "./i18n.mjs";
import { DIALOG_DEFAULTS, integer, kindLabelKey, oddsView, requestFrom } from "../dice/ruleset-requests.mjs";

/**
 * @import { Campaign } from "../data/rulesets.mjs"
 * @import { CoreRequest, Odds, RulesetTables } from "../types/core.js"
 * @typedef {import("../dice/ruleset-requests.mjs").DialogValues} DialogValues
 * @typedef {{value: string|number, label: string, selected: boolean}} FieldOption
 * @typedef {object} Field
 * @property {string} name
 * @property {string} label      Localised.
 * @property {"number"|"select"|"checkbox"|"text"} type
 * @property {unknown} value
 * @property {FieldOption[]} [options]
 * @property {number} [min]
 * @property {number} [max]
 * @property {string} [hint]     Localised.
 */

/** Prefix of the field labels. */
const L = `ICONENGINE.Rulesets.field`;


/**
 * @param {string} name
 * @param {DialogValues} v
 * @param {{min?: number, max?: number, hint?: string, label?: string}} [extra]
 * @returns {Field}
 */
function numberField(name, v, extra = {}) {
  return { name, label: localize(`${L}.${name}`), type: "number", value: v[name], ...extra };
}

/**
 * @param {string} name
 * @param {DialogValues} v
 * @param {{value: string|number, label: string}[]} choices
 * @param {string} [label]
 * @returns {Field}
 */
function selectField(name, v, choices, label = `${L}.${name}`) {
  const current = String(v[name]);
  return { name, label: localize(label), type: "select", value: v[name],
    options: choices.map(c => ({ ...c, selected: String(c.value) === current })) };
}

/** @param {number} n */
const signed = n => (n > 0 ? `+${n}` : `${n}`);

/**
 * The dialog's fields for a kind.
 * @param {string} kind
 * @param {DialogValues} v
 * @param {Campaign} campaign
 * @param {RulesetTables} tables
 * @returns {Field[]}
 */
export function dialogFields(kind, v, campaign, tables) {
  switch (kind) {
    case "icons.test": {
      const levelName = (/** @type {string} */ name, /** @type {number} */ level) => format("ICONENGINE.Icons.levelName", { name, level });
      const levels = ICONS_LEVELS.map(level => ({ value: level, label: iconsLevelLabel(level, tables.iconsLevels, campaign.iconsLevelNames, levelName) }));
      return [
        selectField("ability", v, levels),
        { name: "reaction", label: localize(`${L}.reaction`), type: "checkbox", value: Boolean(v.reaction), hint: localize(`${L}.reactionHint`) },
        selectField("difficulty", v, levels, v.reaction ? `${L}.gmAbility` : `${L}.difficulty`),
        numberField("bonus", v),
        // The seed writes penalties as "–1" but they raise the difficulty; the core refuses negatives.
        numberField("penalty", v, { min: 0, hint: localize(`${L}.penaltyHint`) })
      ];
    }
    case "tribute.test": {
      const counts = [0, 1, 2, 3, 4, 5].map(n => ({ value: n, label: formatPlural("ICONENGINE.Tribute.extraDice", n + 1, { extra: n }) }));
      /** @type {Field[]} */
      const fields = [
        numberField("rank", v),
        selectField("focus", v, counts),
        selectField("burden", v, counts),
        selectField("oppositionMode", v, [{ value: "fixed", label: localize("ICONENGINE.Tribute.opposition.fixed") },
          { value: "roll", label: localize("ICONENGINE.Tribute.opposition.roll") }])
      ];
      if (v.oppositionMode === "roll") {
        fields.push(numberField("oppRank", v), selectField("oppFocus", v, counts), selectField("oppBurden", v, counts));
      } else {
        fields.push(numberField("opposition", v));
      }
      fields.push(selectField("effectRank", v, [{ value: "", label: localize("ICONENGINE.Tribute.noEffect") },
        ...[0, 1, 2, 3, 4, 5].map(n => ({ value: n, label: String(n) }))]));
      return fields;
    }
    case "narrator.skill": {
      /** @param {"narratorDifficulty"|"narratorOpposed"|"narratorKnowledge"} chart @param {(n: number) => string} show */
      const chartChoices = (chart, show) => tables[chart].map(row => ({
        value: row.value, label: `${localize(`ICONENGINE.Narrator.${chart}.${row.id}`)} (${show(row.value)})` }));
      /** @type {Field[]} */
      const fields = [
        numberField("skill", v),
        { name: "dice", label: localize(`${L}.dice`), type: "text", value: v.dice, hint: localize(`${L}.diceHint`) },
        numberField("modifiers", v),
        selectField("use", v, ["qualitative", "quantitative", "knowledge", "attack"].map(u => ({ value: u, label: localize(`ICONENGINE.Narrator.use.${u}`) }))),
        selectField("difficultySource", v, ["chart", "knowledge", "opposed", "custom"].map(s => ({ value: s, label: localize(`ICONENGINE.Narrator.source.${s}`) })))
      ];
      switch (v.difficultySource) {
        case "chart": fields.push(selectField("chartDifficulty", v, chartChoices("narratorDifficulty", String))); break;
        case "knowledge": fields.push(selectField("knowledgeDifficulty", v, chartChoices("narratorKnowledge", String))); break;
        case "opposed":
          fields.push(numberField("opponentSkill", v, { hint: format(`${L}.opponentSkillHint`, { base: tables.narratorDeterministic }) }),
            selectField("opposedModifier", v, chartChoices("narratorOpposed", signed)));
          break;
        default: fields.push(numberField("difficulty", v));
      }
      if (v.use === "attack") {
        fields.push(numberField("baseDamage", v, { min: 0 }),
          numberField("ranks", v, { min: 1, hint: localize(`${L}.ranksHint`) }));
      }
      if (v.use === "quantitative") {
        fields.push(numberField("baseRanks", v, { min: 0, label: localize("ICONENGINE.Rules.Narrator.baseRanks"),
          hint: localize("ICONENGINE.Rules.Narrator.baseRanksHint") }));
      }
      return fields;
    }
    case "mns.action":
      return [numberField("target", v), numberField("bonus", v),
        { name: "special", label: localize(`${L}.special`), type: "checkbox", value: v.special !== false && v.special !== "false", hint: localize(`${L}.specialHint`) }];
    case "mns.save": {
      /** @type {Field[]} */
      const fields = [numberField("score", v), numberField("bonus", v),
        selectField("saveDice", v, [{ value: "2d10", label: "2d10" }, { value: "d100", label: "d100" }])];
      // "Ones do not reduce the die roll for Knowledge Rolls": only 2d10 saves re-roll.
      if (v.saveDice !== "d100") {
        fields.push({ name: "special", label: localize(`${L}.special`), type: "checkbox", value: v.special !== false && v.special !== "false",
          hint: localize(`${L}.specialHint`) });
      }
      return fields;
    }
    case "mns.dice":
      return [selectField("die", v, tables.mnsSpecialDice.map(d => ({ value: d, label: d })))];
    default:
      return [];
  }
}

/**
 * Everything the roll dialog renders: fields, the request, and its exact odds (or the core's
 * error, e.g. for a dice formula that does not parse).
 * @param {object} args
 * @param {string} args.kind
 * @param {DialogValues} [args.values]   Missing values take the kind's defaults.
 * @param {Campaign} args.campaign
 * @param {RulesetTables} args.tables
 * @param {(request: CoreRequest) => Odds} args.odds  The core's `odds`.
 */
export function rollDialogContext({ kind, values = {}, campaign, tables, odds }) {
  const defaults = /** @type {Record<string, DialogValues>} */ (DIALOG_DEFAULTS)[kind] ?? {};
  /** @type {DialogValues} */
  const v = { ...defaults, ...values };
  const fields = dialogFields(kind, v, campaign, tables);
  /** @type {import("../dice/ruleset-requests.mjs").RequestData | null} */
  let request = null;
  let view = null;
  let error = null;
  try {
    request = requestFrom(kind, v, campaign, tables);
    view = oddsView(kind, odds(request));
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  return {
    kind,
    title: localize(kindLabelKey(kind)),
    values: v,
    // flags for the template (Handlebars has no comparisons of its own)
    fields: fields.map(f => ({ ...f, isSelect: f.type === "select", isCheckbox: f.type === "checkbox", isText: f.type === "text",
      hasMin: typeof f.min === "number" })),
    request,
    odds: view,
    error,
    difficulty: kind === "narrator.skill" && request ? integer(request.difficulty) : null
  };
}
