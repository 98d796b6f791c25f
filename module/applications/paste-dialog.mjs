import addDirectoryButton from "./directory-button.mjs";
import { format, formatPlural, localize } from "./i18n.mjs";
import { statblockEntry } from "./sheets/sheet-context.mjs";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @import { ParsedFoe, PastedItem, Unparsed } from "../packs/paste.js"
 * @typedef {"ability" | "trait" | "relic" | "foe"} PasteKind
 */

/** The dialog's template. */
const TEMPLATE = "systems/icon-engine/templates/apps/paste-abilities.hbs";

/** A description the importer wrote: escaped text in paragraphs, nothing else (checked before it is stored). */
const ESCAPED_PARAGRAPHS = /^(?:<p>[^<>]*<\/p>)*$/;

/**
 * "Paste abilities" (issue 37): on an actor's Abilities tab (its abilities, traits or relics), in
 * the Items directory (items of the world) and the Actors directory (a foe from its stat block).
 * Paste text as a book prints it; the importer (module/packs/importer.mjs, loaded on demand) reads
 * it; each item found is shown as its card will read it, with what was not understood; a name,
 * cost, reach or damage can be fixed; Create makes the items (or the foe with its items) as one
 * made by hand. Every pasted string shows as text: nothing from the paste is rendered as HTML.
 */
export default class PasteDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** @override */
  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["icon-engine", "paste-dialog"],
    window: { title: "ICONENGINE.Paste.Title", icon: "fa-solid fa-paste", resizable: true },
    position: { width: 640, height: 720 },
    actions: {
      read: PasteDialog.#onRead,
      create: PasteDialog.#onCreate
    }
  };

  /** @override */
  static PARTS = {
    form: { template: TEMPLATE, scrollable: [".paste-items"] }
  };

  /** @type {Actor.Implementation | null} */
  #actor;

  /** @type {PasteKind} */
  #kind;

  #text = "";

  /** The items read, as they will be created (fixed fields applied). @type {PastedItem[]} */
  #items = [];

  /** Whether each item is to be created. @type {boolean[]} */
  #include = [];

  /** @type {Unparsed[]} */
  #unparsed = [];

  /** A pasted foe, when the kind is "foe". @type {ParsedFoe["foe"] | null} */
  #foe = null;

  /** @type {string | null} */
  #error = null;

  #read = false;

  /**
   * @param {{actor?: Actor.Implementation | null, kind?: PasteKind} & Record<string, unknown>} [options]
   */
  constructor({ actor = null, kind = "ability", ...options } = {}) {
    super(options);
    this.#actor = actor;
    this.#kind = kind;
  }

  /** The buttons in the Items directory (items of the world) and the Actors directory (a foe). */
  static registerButtons() {
    addDirectoryButton(["renderItemDirectory"], { cssClass: "icon-paste-items", icon: "fa-paste", label: "ICONENGINE.Paste.Button",
      open: () => new PasteDialog().render({ force: true }) });
    addDirectoryButton(["renderActorDirectory"], { cssClass: "icon-paste-foe", icon: "fa-paste", label: "ICONENGINE.Paste.FoeButton",
      open: () => new PasteDialog({ kind: "foe" }).render({ force: true }) });
  }

  /** @override */
  get title() {
    const title = localize("ICONENGINE.Paste.Title");
    return this.#actor ? `${title}: ${this.#actor.name}` : title;
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationContextOptions} options
   * @returns {Promise<import("../types/sheets.js").ApplicationContext>}
   */
  async _prepareContext(options) {
    const kinds = /** @type {PasteKind[]} */ (this.#actor ? ["ability", "trait", "relic"] : ["ability", "trait", "relic", "foe"]);
    const items = this.#items.map((item, index) => this.#itemContext(item, index));
    const outside = this.#unparsed.filter(u => u.item === null).map(u => ({ text: u.text, reason: localize(`ICONENGINE.Paste.Reason.${u.reason}`) }));
    const understood = items.filter(i => i.understood).length;
    return {
      text: this.#text,
      kinds: kinds.map(kind => ({ value: kind, label: localize(`ICONENGINE.Paste.Kind.${kind}`), selected: kind === this.#kind })),
      error: this.#error,
      read: this.#read,
      foe: this.#foe ? { name: this.#foe.name, stats: this.#foeStats() } : null,
      items,
      outside,
      summary: this.#read ? formatPlural("ICONENGINE.Paste.Found", this.#items.length, { understood: String(understood) }) : "",
      canCreate: this.#include.some(Boolean) || !!this.#foe,
      destination: this.#actor ? format("ICONENGINE.Paste.OnActor", { name: this.#actor.name ?? "" })
        : localize(this.#kind === "foe" ? "ICONENGINE.Paste.NewFoe" : "ICONENGINE.Paste.InWorld")
    };
  }

  /**
   * One item as the dialog shows it: its fields to fix, its card (the stat block's reading of it:
   * module/applications/sheets/sheet-context.mjs statblockEntry), what of its text was not understood.
   * @param {PastedItem} item
   * @param {number} index
   */
  #itemContext(item, index) {
    const system = /** @type {Record<string, any>} */ (item.system);
    const card = statblockEntry({ id: String(index), name: item.name, img: "", type: item.type, system }, { html: "" }, format);
    const notUnderstood = this.#unparsed.filter(u => u.item === index)
      .map(u => ({ text: u.text, reason: localize(`ICONENGINE.Paste.Reason.${u.reason}`) }));
    return {
      index,
      name: item.name,
      type: item.type,
      typeLabel: localize(`TYPES.Item.${item.type}`),
      include: this.#include[index],
      ability: item.type === "ability",
      actionChoices: ["1", "2", "free", "interrupt"].map(value => ({ value, label: localize(`ICONENGINE.Paste.Actions.${value}`),
        selected: value === (system.actions ?? "1") })),
      rangeChoices: ["", "self", "melee", "range"].map(value => ({ value, label: localize(`ICONENGINE.Paste.Range.${value || "none"}`),
        selected: value === (system.range?.kind ?? "") })),
      ranged: system.range?.kind === "range",
      rangeValue: system.range?.value ?? 0,
      hitDice: system.roll?.hitDice ?? 1,
      attack: !!system.tags?.includes("attack"),
      card,
      // the pasted text itself, as plain text (the description holds it escaped)
      source: paragraphsText(String(system.description ?? "")),
      understood: notUnderstood.length === 0,
      notUnderstood
    };
  }

  /** A pasted foe's numbers, in words. */
  #foeStats() {
    const system = /** @type {Record<string, unknown>} */ (this.#foe?.system ?? {});
    return Object.entries(system).filter(([key]) => key !== "biography")
      .map(([key, value]) => `${localize(`ICONENGINE.Paste.Stat.${key}`)} ${value}`).join(", ");
  }

  /**
   * @override
   * @param {import("../types/sheets.js").ApplicationRenderContext} context
   * @param {import("../types/sheets.js").ApplicationRenderOptions} options
   */
  async _onRender(context, options) {
    await super._onRender(context, options);
    this.element.addEventListener("change", event => this.#onChange(/** @type {HTMLElement} */ (event.target)));
  }

  /**
   * A field fixed: the item as it will be created changes with it.
   * @param {HTMLElement} target
   */
  #onChange(target) {
    const input = /** @type {HTMLInputElement} */ (target);
    if (input.name === "text") { this.#text = input.value; return; }
    if (input.name === "kind") { this.#kind = /** @type {PasteKind} */ (input.value); return; }
    const index = Number(input.dataset.index);
    const item = this.#items[index];
    if (!item) return;
    const system = /** @type {Record<string, any>} */ (item.system);
    const number = (/** @type {number} */ min, /** @type {number} */ max) => Math.min(max, Math.max(min, Math.trunc(Number(input.value) || 0)));
    switch (input.dataset.field) {
      case "include": this.#include[index] = input.checked; break;
      case "name": item.name = input.value.trim() || item.name; break;
      case "actions": system.actions = input.value; break;
      case "rangeKind": system.range = { kind: input.value, value: input.value === "melee" ? 1 : system.range?.value ?? 0 }; break;
      case "rangeValue": system.range = { kind: system.range?.kind || "range", value: number(0, 100) }; break;
      case "hitDice": system.roll = { ...system.roll, hitDice: number(0, 6) }; break;
      default: return;
    }
    this.render();
  }

  /**
   * Read the pasted text with the importer.
   * @this {PasteDialog}
   */
  static async #onRead() {
    const form = /** @type {HTMLFormElement} */ (this.element);
    this.#text = /** @type {HTMLTextAreaElement} */ (form.elements.namedItem("text")).value;
    this.#kind = /** @type {PasteKind} */ (/** @type {HTMLSelectElement} */ (form.elements.namedItem("kind")).value);
    try {
      const { loadImporter } = await import("../packs/importer.mjs");
      const importer = await loadImporter();
      if (this.#kind === "foe") {
        const { foe, items, unparsed } = importer.parseFoeText(this.#text);
        this.#foe = foe;
        this.#items = items;
        this.#unparsed = unparsed;
      } else {
        const { items, unparsed } = importer.parseAbilityText(this.#text, { type: this.#kind });
        this.#foe = null;
        this.#items = items;
        this.#unparsed = unparsed;
      }
      this.#include = this.#items.map(() => true);
      this.#error = null;
    } catch (error) {
      this.#foe = null;
      this.#items = [];
      this.#unparsed = [];
      this.#include = [];
      this.#error = format("ICONENGINE.Paste.Refused", { message: error instanceof Error ? error.message : String(error) });
    }
    this.#read = true;
    await this.render();
  }

  /**
   * Create the items chosen: on the actor, in the world, or with the pasted foe.
   * @this {PasteDialog}
   */
  static async #onCreate() {
    const items = this.#items.filter((_, i) => this.#include[i]).map(item => ({ name: item.name, type: item.type, system: safeSystem(item.system) }));
    try {
      let created = 0;
      if (this.#foe) {
        const foe = /** @type {Record<string, any>} */ (this.#foe);
        const actor = await Actor.implementation.create({ name: foe.name, type: "foe",
          system: { ...foe.system, biography: safeParagraphs(String(foe.system.biography ?? "")) }, items });
        created = actor ? 1 + items.length : 0;
        // ICON actors have ApplicationV2 sheets (an AppV1 sheet's render(force) would take this truthy object too).
        await /** @type {foundry.applications.api.ApplicationV2.Any | null | undefined} */ (actor?.sheet)?.render({ force: true });
      } else if (this.#actor) {
        created = (await this.#actor.createEmbeddedDocuments("Item", items))?.length ?? 0;
      } else {
        created = (await Item.implementation.createDocuments(items)).length;
      }
      ui.notifications?.info(formatPlural("ICONENGINE.Paste.Created", created));
      await this.close();
    } catch (error) {
      this.#error = format("ICONENGINE.Paste.Invalid", { message: error instanceof Error ? error.message : String(error) });
      await this.render();
    }
  }
}

/**
 * An item's system as it will be stored: the description kept only if it is the importer's
 * escaped paragraphs (it is HTML, enriched where it shows), else its text escaped again.
 * @param {Record<string, unknown>} system
 */
function safeSystem(system) {
  const out = foundry.utils.deepClone(system);
  out.description = safeParagraphs(String(system.description ?? ""));
  return out;
}

/** @param {string} html */
function safeParagraphs(html) {
  if (ESCAPED_PARAGRAPHS.test(html)) return html;
  return `<p>${foundry.utils.escapeHTML(html)}</p>`;
}

/**
 * The text of the importer's escaped paragraphs, one line each (shown as text, escaped by the template).
 * @param {string} html
 */
function paragraphsText(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  return [...doc.body.querySelectorAll("p")].map(p => p.textContent ?? "").join("\n") || (doc.body.textContent ?? "");
}
