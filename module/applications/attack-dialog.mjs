import { SYSTEM_PATH } from "../config.mjs";
import { getCore, loadCore } from "../core.mjs";
import TacticalRolls from "../dice/tactical-rolls.mjs";
import ActorStatuses from "../documents/actor-statuses.mjs";
import UseTargets from "../canvas/use-targets.mjs";
import SceneSight from "../canvas/scene-sight.mjs";
import { attackDialogContext, attackTargetOf, attackerOf, initialAttackState, readAttackForm } from "../dice/tactical-requests.mjs";
import { currentMode, modeChoices } from "../message-mode.mjs";
import { format, formatPlural, localize } from "./i18n.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @import { AttackState } from "../dice/tactical-requests.mjs"
 */

/**
 * The attack dialog: boons, curses, bonus, damage dice, the situation per target (height, cover),
 * and live exact P(hit) / P(crit) / P(exceed) per targeted token from the core's odds. Opened
 * from an ability with the attack tag or from an actor sheet's light/heavy attack. The context
 * is built by the pure `attackDialogContext`; this class only keeps the state and re-renders
 * the odds part when the form changes.
 *
 * Initial attack options (True Strike, Auto-Hit, a floor at 1 HP, a repeated critical hit, a mark,
 * the range, Unerring: `AttackOptions` in tactical-requests.mjs, named in docs/js-contract.md) come
 * from the ability's `system.attack` and, over them, from the options `open` is given.
 */
export default class AttackDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    classes: ["icon-engine", "attack-dialog"],
    tag: "form",
    window: { title: "ICONENGINE.Tactical.Dialog.title", icon: "fa-solid fa-dice-d20" },
    position: { width: 480 },
    form: { handler: AttackDialog.#onSubmit, closeOnSubmit: true }
  };

  /** @override */
  static PARTS = {
    form: { template: `${SYSTEM_PATH}/templates/apps/attack-dialog.hbs` },
    odds: { template: `${SYSTEM_PATH}/templates/apps/attack-odds.hbs` },
    footer: { template: "templates/generic/form-footer.hbs" }
  };

  /** @type {Actor.Implementation} */
  #actor;

  /** @type {Item.Implementation | null} */
  #ability;

  /** @type {AttackState} */
  #state;

  /**
   * Run before the attack is rolled (an item's use spends its charge here); its error keeps the
   * dialog open and is shown.
   * @type {(() => Promise<unknown>) | null}
   */
  #beforeRoll;

  /** The area the use placed (a MeasuredTemplate uuid), which goes once the attack is posted. */
  #template = "";

  /** The names of the initial attack options `open` takes beside the ability. */
  static OPTION_NAMES = /** @type {const} */ (["trueStrike", "autoHit", "floor", "critAgain", "mark", "range", "unerring"]);

  /**
   * @param {{actor: Actor.Implementation, ability?: Item.Implementation | null, heavy?: boolean, beforeRoll?: (() => Promise<unknown>) | null,
   *   tokens?: TokenDocument.Implementation[] | null, template?: string} & Partial<Record<typeof AttackDialog.OPTION_NAMES[number], unknown>>
   *   & import("../types/sheets.js").DeepPartial<foundry.applications.api.ApplicationV2.Configuration>} options
   *   `tokens`: the use's targets (module/canvas/use-targets.mjs); without them, the user's targeted tokens.
   */
  constructor({ actor, ability = null, heavy = false, beforeRoll = null, tokens = null, template = "", ...rest }) {
    /** @type {Record<string, unknown>} */
    const initial = {};
    const config = /** @type {Record<string, unknown>} */ ({ ...rest });
    for (const name of AttackDialog.OPTION_NAMES) {
      if (name in config) initial[name] = config[name];
      delete config[name];
    }
    super(/** @type {import("../types/sheets.js").DeepPartial<foundry.applications.api.ApplicationV2.Configuration>} */ (config));
    this.#actor = actor;
    this.#ability = ability;
    this.#beforeRoll = beforeRoll;
    this.#template = template;
    this.#state = initialAttackState({
      ability: /** @type {{system: Item.SystemOfType<"ability">} | null} */ (ability), // attacks come from ability items
      heavy,
      // "Unstoppable: Immune to all statuses": only the statuses that take effect shape the attack.
      attackerStatuses: getCore().iconEffectiveStatuses(ActorStatuses.statusesOf(actor)),
      targets: tokens ? AttackDialog.targetsOf(actor, tokens) : AttackDialog.userTargets(actor),
      rollMode: currentMode(),
      // Only the options given: the ability's own (`system.attack`) stand for the others.
      options: initial
    });
    // "+1 curse to ranged attacks if there's a foe adjacent", from the map
    const from = UseTargets.tokenOf(actor);
    const foes = from ? SceneSight.adjacentFoes(from) : [];
    if (foes.length) this.#state = { ...this.#state, foeAdjacent: true, foesAdjacent: foes.map(t => t.name ?? "") };
  }

  /**
   * Open the dialog for an actor (and an ability), with initial attack options
   * (`trueStrike`, `autoHit`, `floor`, `critAgain`, `mark`, `range`, `unerring`).
   * `beforeRoll` runs when the attack is rolled, before the dice (an item's use spends its charge).
   * @param {Actor.Implementation} actor
   * @param {{ability?: Item.Implementation | null, heavy?: boolean, beforeRoll?: (() => Promise<unknown>) | null, tokens?: TokenDocument.Implementation[] | null,
   *   template?: string} & Partial<Record<typeof AttackDialog.OPTION_NAMES[number], unknown>>} [options]
   */
  static async open(actor, options = {}) {
    await loadCore();
    return new AttackDialog({ actor, ...options }).render({ force: true });
  }

  /**
   * The user's targeted tokens as the attack sees them (see {@link targetsOf}).
   * @param {Actor.Implementation} [attacker]
   * @returns {import("../dice/tactical-requests.mjs").AttackTarget[]}
   */
  static userTargets(attacker) {
    return AttackDialog.targetsOf(attacker ?? null, [...(game.user?.targets ?? [])].map(t => /** @type {TokenDocument.Implementation} */ (t.document)));
  }

  /**
   * Tokens as the attack sees them: the defense, Evasion and Stealth read from each token's actor,
   * and the spaces from the attacker's token to the nearest space of the target's ("at least 1
   * space of its area within the listed range") when both are on the scene.
   * @param {Actor.Implementation | null} attacker
   * @param {TokenDocument.Implementation[]} tokens
   * @returns {import("../dice/tactical-requests.mjs").AttackTarget[]}
   */
  static targetsOf(attacker, tokens) {
    /** @type {import("../dice/tactical-requests.mjs").AttackTarget[]} */
    const targets = [];
    /** @type {TokenDocument.Implementation[]} */
    const placed = [];
    const from = attacker ? UseTargets.tokenOf(attacker) : null;
    for (const token of tokens) {
      const actor = token.actor;
      if (!actor) continue;
      placed.push(token);
      const target = attackTargetOf({
        uuid: actor.uuid,
        name: token.name ?? actor.name,
        img: token.texture?.src ?? actor.img ?? "",
        // Targets are characters and foes, whose defense the attack reads.
        system: /** @type {import("../types/system.js").IconHealthSystem} */ (actor.system),
        statuses: ActorStatuses.statusesOf(/** @type {Actor.Implementation} */ (actor))
      });
      target.token = token.uuid ?? "";
      target.summon = !!token.getFlag?.("icon-engine", "summoned");
      target.distance = UseTargets.distance(from, token);
      target.adjacent = target.distance === 1;
      targets.push(target);
    }
    // Line of sight, cover, height and adjacency from the scene; the dialog's boxes override them.
    const seen = from && placed.length ? SceneSight.of(from, placed) : null;
    seen?.forEach((map, k) => {
      const target = targets[k];
      Object.assign(target, { sight: map.sight, cover: map.cover, heightDifference: map.heightDifference, adjacent: map.adjacent, distance: map.distance });
      target.map = { sight: map.sight, cover: map.cover, adjacent: map.adjacent, heightDifference: map.heightDifference, distance: map.distance,
        coverBy: map.coverBy?.kind ?? null, blockedBy: map.blockedBy ? map.blockedBy.kind : null };
    });
    return targets;
  }

  /**
   * What the map said of a target, in words: sight, cover, height, distance.
   * @param {import("../dice/tactical-requests.mjs").MapNote} map
   */
  static mapNote(map) {
    const parts = [
      map.sight ? localize("ICONENGINE.Tactical.Map.inSight") : localize(`ICONENGINE.Tactical.Map.outOfSight.${map.blockedBy ?? "wall"}`),
      ...(map.cover ? [localize(`ICONENGINE.Tactical.Map.cover.${map.coverBy ?? "terrain"}`)] : []),
      map.heightDifference > 0 ? formatPlural("ICONENGINE.Tactical.Map.lower", map.heightDifference)
        : map.heightDifference < 0 ? formatPlural("ICONENGINE.Tactical.Map.higher", -map.heightDifference) : localize("ICONENGINE.Tactical.Map.level"),
      map.adjacent ? localize("ICONENGINE.Tactical.Map.adjacent") : formatPlural("ICONENGINE.Tactical.Map.spaces", map.distance)
    ];
    return format("ICONENGINE.Tactical.Map.note", { parts: parts.join(", ") });
  }

  /** @override */
  get title() {
    const name = this.#ability?.name ?? this.#actor.name ?? "";
    return game.i18n?.format("ICONENGINE.Tactical.Dialog.titleOf", { name }) ?? name;
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const core = await loadCore();
    const context = attackDialogContext(core, this.#state, attackerOf(/** @type {import("../types/system.js").IconHealthActor} */ (this.#actor)));
    return {
      ...context,
      // "Reaches 1 space", "Reaches 2 spaces": the reach in its plural form.
      maxRangeLabel: context.maxRange ? formatPlural("ICONENGINE.Rules.Dialog.maxRange", context.maxRange) : "",
      rows: context.rows.map(row => ({ ...row, mapNote: row.target?.map ? AttackDialog.mapNote(row.target.map) : "" })),
      foesAdjacentNote: this.#state.foesAdjacent?.length
        ? format("ICONENGINE.Tactical.Dialog.foesAdjacent", { names: this.#state.foesAdjacent.join(", ") }) : "",
      rollModes: modeChoices(this.#state.rollMode),
      buttons: [{ type: "submit", icon: "fa-solid fa-dice-d20", label: "ICONENGINE.Tactical.Dialog.roll" }]
    };
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    // The form element outlives part re-renders, so one listener serves the dialog's lifetime.
    this.element.addEventListener("change", () => this.#onChange());
  }

  /** Read the form into the state and redraw the odds. */
  #onChange() {
    const FormDataExtended = foundry.applications.ux.FormDataExtended;
    const data = new FormDataExtended(/** @type {HTMLFormElement} */ (this.element)).object;
    this.#state = readAttackForm(this.#state, /** @type {Record<string, unknown>} */ (data));
    this.render({ parts: ["odds"] });
  }

  /**
   * @this {AttackDialog}
   * @param {Event | SubmitEvent} event
   * @param {HTMLFormElement} form
   * @param {foundry.applications.ux.FormDataExtended} formData
   */
  static async #onSubmit(event, form, formData) {
    this.#state = readAttackForm(this.#state, formData.object);
    await this.#beforeRoll?.();
    await TacticalRolls.attack(this.#actor, this.#state, { ability: this.#ability, template: this.#template });
  }
}
