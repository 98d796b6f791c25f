import { SYSTEM_ID, SYSTEM_PATH } from "../../config.mjs";
import { getCore, isCoreLoaded } from "../../core.mjs";
import { changeDetermination } from "../../data/rulesets.mjs";
import { campaignSettings } from "../../settings.mjs";
import RulesetRollDialog from "../ruleset-roll-dialog.mjs";
import { localize } from "../i18n.mjs";
import IconActorSheet from "./icon-actor-sheet.mjs";
import editableAction from "./editable-action.mjs";
import { heroContext } from "./hero-context.mjs";
import { meterPercent } from "./sheet-context.mjs";

/** Lists of rows the sheet can add to and remove from, with a new row's data. */
const LISTS = /** @type {Record<string, {path: string, blank: () => object}>} */ ({
  powers: { path: "icons.powers", blank: () => ({ name: "", level: 5 }) },
  attributes: { path: "tribute.attributes", blank: () => ({ name: "", rank: 0, focus: 0, burden: 0 }) },
  effects: { path: "tribute.effects", blank: () => ({ name: "", rank: 1 }) },
  skills: { path: "narrator.skills", blank: () => ({ name: "", rank: 10, dice: "3d6", baseDamage: 0 }) },
  targets: { path: "mns.targets", blank: () => ({ name: "", target: 14, bonus: 0 }) },
  knowledge: { path: "mns.knowledge", blank: () => ({ name: "", score: 5 }) }
});

/**
 * The generic hero's sheet: the stats of the world's ruleset (setting "Ruleset"), each with a roll
 * button opening that ruleset's roll dialog.
 */
export default class HeroSheet extends IconActorSheet {
  /** @inheritdoc @type {foundry.applications.api.DocumentSheetV2.DefaultOptions} */
  static DEFAULT_OPTIONS = {
    classes: ["hero"],
    position: { width: 600, height: 700 },
    actions: {
      addRow: editableAction(HeroSheet.#addRow),
      removeRow: editableAction(HeroSheet.#removeRow),
      determination: editableAction(HeroSheet.#determination),
      roll: editableAction(HeroSheet.#roll)
    }
  };

  /** @inheritdoc */
  static PARTS = {
    hero: { template: `${SYSTEM_PATH}/templates/actor/hero.hbs`, scrollable: [""] },
    limited: { template: `${SYSTEM_PATH}/templates/actor/limited.hbs` }
  };

  /**
   * @inheritdoc
   * @param {Actor.SystemOfType<"hero">} system
   * @param {import("./sheet-context.mjs").ItemLike[]} items
   */
  _prepareTypeContext(system, items) {
    const source = this.#source;
    const meters = { hp: meterPercent(source.hp.value, source.hp.max), vigor: meterPercent(source.vigor.value, source.vigor.max) };
    // The system draws open sheets again once the core has loaded (module/icon-engine.mjs).
    if (!isCoreLoaded()) return { coreLoading: true, meters };
    const core = getCore();
    return { meters, ...heroContext({ system, campaign: campaignSettings(), tables: core.rulesetTables(),
      lookup: query => core.mnsLookup(query), charts: game.settings.get(SYSTEM_ID, "mnsCharts") }) };
  }

  /**
   * The hero's system source with every ruleset's block (HeroData is typed with the biography only).
   * @returns {import("../../types/system.js").HeroSource}
   */
  get #source() {
    return /** @type {Actor.SystemOfType<"hero">} */ (this.system)._source;
  }

  /**
   * @this {HeroSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #addRow(event, target) {
    const list = LISTS[target.dataset.list ?? ""];
    if (!list) return;
    const rows = /** @type {unknown[]} */ (foundry.utils.getProperty(this.#source, list.path) ?? []);
    await this.document.update({ [`system.${list.path}`]: [...rows, list.blank()] });
  }

  /**
   * @this {HeroSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #removeRow(event, target) {
    const list = LISTS[target.dataset.list ?? ""];
    if (!list) return;
    const index = Number(target.dataset.index);
    const rows = /** @type {unknown[]} */ (foundry.utils.getProperty(this.#source, list.path) ?? []);
    await this.document.update({ [`system.${list.path}`]: rows.filter((_, i) => i !== index) });
  }

  /**
   * Spend (−1) or gain (+1) a Determination point.
   * @this {HeroSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #determination(event, target) {
    const next = changeDetermination(this.#source.icons.determination, Number(target.dataset.change));
    if (next === null) {
      ui.notifications?.warn(localize("ICONENGINE.Icons.noDetermination"));
      return;
    }
    await this.document.update({ system: { icons: { determination: next } } });
  }

  /**
   * Open the roll dialog for a stat: `data-roll` names the kind of roll, `data-key`/`data-index`
   * the stat.
   * @this {HeroSheet}
   * @param {PointerEvent} event
   * @param {HTMLElement} target
   */
  static async #roll(event, target) {
    const { roll, key = "", index = "" } = target.dataset;
    const s = this.#source;
    const i = Number(index);
    /** @type {{kind: string, values: Record<string, unknown>, label: string} | null} */
    let spec = null;
    switch (roll) {
      case "icons":
        spec = { kind: "icons.test", values: { ability: /** @type {Record<string, number | undefined>} */ (s.icons.abilities)[key] }, label: localize(`ICONENGINE.Icons.abilities.${key}`) };
        break;
      case "power":
        spec = { kind: "icons.test", values: { ability: s.icons.powers[i]?.level }, label: s.icons.powers[i]?.name };
        break;
      case "tribute": {
        const a = s.tribute.attributes[i];
        spec = { kind: "tribute.test", values: { rank: a?.rank, focus: a?.focus, burden: a?.burden }, label: a?.name };
        break;
      }
      case "skill": {
        const skill = s.narrator.skills[i];
        spec = { kind: "narrator.skill", values: { skill: skill?.rank, dice: skill?.dice, baseDamage: skill?.baseDamage }, label: skill?.name };
        break;
      }
      case "target": {
        const row = s.mns.targets[i];
        spec = { kind: "mns.action", values: { target: row?.target, bonus: row?.bonus, special: s.mns.special }, label: row?.name };
        break;
      }
      case "save":
        spec = { kind: "mns.save", values: { score: /** @type {Record<string, number | undefined>} */ (s.mns.characteristics)[key], saveDice: "2d10", special: s.mns.special }, label: localize(`ICONENGINE.Mns.characteristic.${key}`) };
        break;
      case "knowledge": {
        // "Knowledge Rolls use d100. Ones do not reduce the die roll for Knowledge Rolls."
        const k = s.mns.knowledge[i];
        spec = { kind: "mns.save", values: { score: k?.score, saveDice: "d100" }, label: k?.name };
        break;
      }
      case "special":
        spec = { kind: "mns.dice", values: { die: key }, label: key };
        break;
    }
    if (spec) await new RulesetRollDialog({ ...spec, label: spec.label ?? "", actor: this.document }).render({ force: true });
  }
}
