import { SYSTEM_ID, SYSTEM_PATH } from "../config.mjs";
import { formatPlural, localize } from "./i18n.mjs";
import { chartsFromForm, mnsChartsContext } from "./mns-charts-context.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * The GM's editor of the Men & Supermen charts the seed names but does not print (Sphere, Square,
 * Doubles, Action): one `result = value` row a line, stored in the world setting, empty by default.
 */
export default class MnsChartsConfig extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    id: "icon-engine-mns-charts",
    tag: "form",
    classes: ["icon-engine", "mns-charts-config"],
    window: { title: "ICONENGINE.Mns.charts.title", contentClasses: ["standard-form"] },
    position: { width: 520 },
    form: { handler: MnsChartsConfig.#onSubmit, closeOnSubmit: true }
  };

  /** @override */
  static PARTS = {
    form: { template: `${SYSTEM_PATH}/templates/apps/mns-charts.hbs` }
  };

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    return mnsChartsContext(game.settings.get(SYSTEM_ID, "mnsCharts"));
  }

  /**
   * @this {MnsChartsConfig}
   * @param {SubmitEvent | Event} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onSubmit(event, form, formData) {
    const { charts, bad } = chartsFromForm(formData.object);
    for (const [chart, lines] of Object.entries(bad)) {
      ui.notifications?.warn(formatPlural("ICONENGINE.Mns.charts.badLines", lines.length,
        { chart: localize(`ICONENGINE.Mns.charts.${chart}`), lines: lines.join(", ") }));
    }
    await game.settings.set(SYSTEM_ID, "mnsCharts", charts);
  }
}
