/**
 * The shim's applications (`foundry.applications`: api, sheets, apps, ux, ui, sidebar, dice;
 * client/applications/*.d.mts).
 */
import { GENERATION } from "./generation.mjs";
import { deepClone, getProperty, expandObject, mergeObject, Hooks, escapeHTML } from "./utils.mjs";
import { OWNERSHIP, ChatMessage, Combat, Macro } from "./documents.mjs";
import { Die, Roll } from "./dice.mjs";

/* ---- Applications (client/applications/api/*.d.mts, sheets/*.d.mts) ---- */

/** FormDataExtended (client/applications/ux/form-data-extended.d.mts): typed values by name. */
class FormDataExtended {
  constructor(form) {
    this.object = {};
    for (const element of form.elements) {
      if (!element.name || element.disabled) continue;
      if (element.type === "checkbox") this.object[element.name] = element.checked;
      else if (element.type === "number" || element.dataset.dtype === "Number") this.object[element.name] = element.value === "" ? null : Number(element.value);
      else if (element.type === "radio") { if (element.checked) this.object[element.name] = element.value; }
      else this.object[element.name] = element.value;
    }
  }
}

/** An application class and its ancestors, as ApplicationV2.inheritanceChain yields them. */
function* inheritanceChain(cls) {
  while (cls && cls !== Object && cls.prototype) {
    yield cls;
    cls = Object.getPrototypeOf(cls);
  }
}

class ApplicationV2 {
  static DEFAULT_OPTIONS = { id: "app-{id}", classes: [], tag: "div", window: { frame: true, title: "", icon: /** @type {false} */ (false), resizable: false },
    actions: { close: ApplicationV2.#onClose, toggleControls: ApplicationV2.#onToggleControls },
    form: { handler: undefined, submitOnChange: false, closeOnSubmit: false }, position: {} };
  /** The frame's close button. @this {ApplicationV2} */
  static #onClose() { return this.close(); }
  /** The frame's controls button opens its dropdown (the shim's holds no entries). @this {ApplicationV2} */
  static #onToggleControls() { this.element?.querySelector(".controls-dropdown")?.classList.toggle("expanded"); }
  static RENDER_STATES = Object.freeze(/** @type {const} */ ({ ERROR: -3, CLOSING: -2, CLOSED: -1, NONE: 0, RENDERING: 1, RENDERED: 2 }));
  static #count = 0;
  #element = null;
  /** @type {foundry.applications.api.ApplicationV2.RenderState} */
  #state = ApplicationV2.RENDER_STATES.NONE;
  /** v13's render semaphore: one render or close of an application at a time, each after the last. */
  #queue = Promise.resolve();
  /** Whether a render or close step is running now. */
  #stepping = false;

  constructor(options = {}) {
    this.options = this._initializeApplicationOptions(options);
    this.tabGroups = {};
    this.position = { ...this.options.position };
  }

  _initializeApplicationOptions(options) {
    const chain = [...inheritanceChain(this.constructor)].reverse();
    const merged = { classes: [], actions: {} };
    for (const cls of chain) {
      if (!Object.hasOwn(cls, "DEFAULT_OPTIONS")) continue;
      const { classes = [], actions = {}, ...rest } = cls.DEFAULT_OPTIONS;
      merged.classes.push(...classes);
      Object.assign(merged.actions, actions);
      mergeObject(merged, deepClone(rest));
    }
    const { classes = [], actions = {}, ...rest } = options;
    merged.classes.push(...classes);
    Object.assign(merged.actions, actions);
    mergeObject(merged, rest);
    merged.id = String(merged.id ?? "app-{id}").replace("{id}", String(++ApplicationV2.#count));
    merged.uniqueId = merged.id;
    return merged;
  }

  get id() { return this.options.id; }
  get title() { return game.i18n.localize(this.options.window?.title ?? ""); }
  /** Declared HTMLElement; null before the first render, as Foundry's is. */
  get element() { return /** @type {HTMLElement} */ (this.#element); }
  get form() { return this.#element instanceof HTMLFormElement ? this.#element : this.#element?.querySelector("form") ?? null; }
  get state() { return this.#state; }
  get rendered() { return this.#state === ApplicationV2.RENDER_STATES.RENDERED; }
  get hasFrame() { return !!this.options.window?.frame; }
  get window() { return { title: this.#element?.querySelector(".window-title") ?? null }; }

  /**
   * Queued behind any render or close in progress, as v13's semaphore does: a render awaited
   * inside a render step of the same application never starts (Foundry hangs there; the shim
   * says so on the console after 5 s, which fails the tests).
   */
  render(options = {}, _options = {}) {
    if (typeof options === "boolean") options = { ..._options, force: options };
    return this.#enqueue("render", () => this.#render(options));
  }
  close(options = {}) {
    return this.#enqueue("close", () => this.#close(options));
  }
  #enqueue(what, step) {
    const inside = this.#stepping;
    let started = false;
    const run = this.#queue.then(async () => {
      started = true;
      this.#stepping = true;
      try {
        return await step();
      } finally {
        this.#stepping = false;
      }
    });
    this.#queue = run.then(() => undefined, () => undefined);
    if (inside) {
      const timer = setTimeout(() => {
        if (!started) console.error(`${this.constructor.name}: a ${what} asked for during a render or close of the same application is still waiting: awaited there, it deadlocks (v13 queues them)`);
      }, 5000);
      run.then(() => clearTimeout(timer), () => clearTimeout(timer));
    }
    return run;
  }

  async #render(options) {
    const states = ApplicationV2.RENDER_STATES;
    if (!this.rendered && !options.force) return this;
    const isFirstRender = !this.rendered;
    options.isFirstRender = isFirstRender;
    this._configureRenderOptions(options);
    const context = await this._prepareContext(options);
    if (isFirstRender) await this._preFirstRender(context, options);
    await this._preRender(context, options);
    this.#state = states.RENDERING;
    const result = await this._renderHTML(context, options);
    if (isFirstRender) {
      this.#element = await this._renderFrame(options);
      this._attachFrameListeners();
    }
    this._replaceHTML(result, (this.hasFrame && this.#element.querySelector(".window-content")) || this.#element, options);
    if (isFirstRender) this._insertElement(this.#element);
    this.#state = states.RENDERED;
    foundry.applications.instances.set(this.id, this);
    if (isFirstRender) await this._onFirstRender(context, options);
    await this._onRender(context, options);
    for (const cls of inheritanceChain(this.constructor)) Hooks.callAll(`render${cls.name}`, this, this.#element, context, options);
    return this;
  }
  async #close(options) {
    const states = ApplicationV2.RENDER_STATES;
    if (!this.#element) {
      this.#state = states.CLOSED;
      return this;
    }
    this.#state = states.CLOSING;
    await this._preClose(options);
    this._removeElement(this.#element);
    this.#element = null;
    this.#state = states.CLOSED;
    foundry.applications.instances.delete(this.id);
    this._onClose(options);
    for (const cls of inheritanceChain(this.constructor)) Hooks.callAll(`close${cls.name}`, this);
    return this;
  }
  _configureRenderOptions(options) {
    if (options.isFirstRender) options.window = { ...this.options.window, ...(options.window ?? {}) };
  }
  async _prepareContext() { return {}; }
  _prepareTabs(group) {
    const config = this.constructor.TABS?.[group];
    if (!config) return {};
    this.tabGroups[group] ??= config.initial ?? config.tabs[0]?.id ?? null;
    return Object.fromEntries(config.tabs.map(tab => {
      const active = this.tabGroups[group] === tab.id;
      const label = tab.label ?? (config.labelPrefix ? `${config.labelPrefix}.${tab.id}` : tab.id);
      return [tab.id, { ...tab, group, active, cssClass: active ? "active" : "", label }];
    }));
  }
  changeTab(tab, group) {
    this.tabGroups[group] = tab;
    for (const element of this.#element?.querySelectorAll(`[data-group="${group}"][data-tab]`) ?? []) {
      element.classList.toggle("active", element.dataset.tab === tab);
    }
  }
  /** Foundry's is abstract: each kind of application renders its own. */
  async _renderHTML() { throw new Error("An ApplicationV2 subclass must implement _renderHTML"); }
  _replaceHTML(result, content) { content.innerHTML = String(result); }
  /**
   * v13's window frame: the header (its icon, the title, the controls menu and close buttons),
   * the controls dropdown, the content element (`window.contentTag`, `window.contentClasses`) and
   * a resize handle when resizable.
   */
  async _renderFrame() {
    const frame = document.createElement(this.options.tag ?? "div");
    frame.id = this.id;
    frame.classList.add("application", ...this.options.classes);
    if (!this.hasFrame) return frame;
    const { icon, resizable, contentTag = "section", contentClasses = [] } = this.options.window ?? {};
    const header = document.createElement("header");
    header.classList.add("window-header");
    const windowIcon = document.createElement("i");
    windowIcon.classList.add("window-icon", "fa-fw", ...(icon ? icon.split(" ") : []));
    windowIcon.hidden = !icon;
    windowIcon.inert = true;
    const title = document.createElement("h1");
    title.classList.add("window-title");
    title.textContent = this.title;
    header.append(windowIcon, title);
    for (const [action, glyph, label] of [["toggleControls", "fa-ellipsis-vertical", "APPLICATION.TOOLS.ControlsMenu"], ["close", "fa-xmark", "APPLICATION.TOOLS.Close"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.classList.add("header-control", "icon", "fa-solid", glyph);
      button.dataset.action = action;
      button.dataset.tooltip = label;
      button.setAttribute("aria-label", game.i18n.localize(label));
      header.append(button);
    }
    const dropdown = document.createElement("menu");
    dropdown.classList.add("controls-dropdown");
    const content = document.createElement(contentTag);
    content.classList.add("window-content", ...contentClasses);
    frame.append(header, dropdown, content);
    if (resizable) frame.append(Object.assign(document.createElement("div"), { className: "window-resize-handle" }));
    return frame;
  }
  _insertElement(element) {
    const existing = document.getElementById(element.id);
    if (existing) existing.replaceWith(element);
    else document.body.append(element);
  }
  _removeElement(element) { element.remove(); }
  /**
   * v13's listeners: clicks and right-clicks (contextmenu) to the actions, and for a form element
   * its submit and change events.
   */
  _attachFrameListeners() {
    const click = event => this.#onClick(event);
    this.#element.addEventListener("click", click);
    this.#element.addEventListener("contextmenu", click);
    if (this.options.tag === "form") {
      this.#element.addEventListener("submit", event => this._onSubmitForm(this.options.form, event));
      this.#element.addEventListener("change", event => this._onChangeForm(this.options.form, event));
    }
  }
  async _preFirstRender() {}
  async _preRender() {}
  async _onFirstRender() {}
  async _onRender() {}
  async _preClose() {}
  _onClose() {}
  _onChangeForm(formConfig, event) {
    if (formConfig.submitOnChange) this._onSubmitForm(formConfig, event);
  }
  /** v13's: the handler's error is shown (and logged), and the form stays open. */
  async _onSubmitForm(formConfig, event) {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const { handler, closeOnSubmit } = formConfig;
    const formData = new FormDataExtended(form);
    if (handler instanceof Function) {
      try {
        await handler.call(this, event, form, formData);
      } catch (error) {
        // Foundry shows it with `console: true`, which logs it too.
        ui.notifications?.error(error instanceof Error ? error.message : String(error));
        console.error(error);
        return;
      }
    }
    if (closeOnSubmit) await this.close({ submitted: true });
  }
  /** v13's: the handler gets the submit options; an error goes to the caller. */
  async submit(submitOptions = {}) {
    const formConfig = this.options.form;
    if (!formConfig?.handler) throw new Error(`The ${this.constructor.name} DOM element must be a HTMLFormElement with a handler`);
    const form = /** @type {HTMLFormElement} */ (this.element);
    const event = new Event("submit", { cancelable: true });
    const formData = new FormDataExtended(form);
    await formConfig.handler.call(this, event, form, formData, submitOptions);
    if (formConfig.closeOnSubmit) await this.close();
  }
  /**
   * v13's: the closest `[data-action]`; no default prevented, an error not caught (it reaches
   * the page as Foundry's would), the handler only for its `buttons` (left-click unless given).
   */
  #onClick(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (!target || !this.#element?.contains(target)) return;
    const action = target.dataset.action;
    if (action === "tab") {
      if (event.button === 0) this.changeTab(target.dataset.tab, target.dataset.group);
      return;
    }
    let handler = this.options.actions[action];
    if (!handler) {
      this._onClickAction(event, target);
      return;
    }
    let buttons = [0];
    if (typeof handler === "object") {
      buttons = handler.buttons;
      handler = handler.handler;
    }
    if (buttons.includes(event.button)) handler?.call(this, event, target);
  }
  _onClickAction() {}
}

/**
 * foundry.applications.api.HandlebarsApplicationMixin: PARTS rendered by Handlebars, one root
 * element each; a render renders `options.parts` (all of them the first time), each part's
 * context prepared on the one context object of the render, as v13 does.
 */
function HandlebarsApplicationMixin(BaseApplication) {
  return class HandlebarsApplication extends BaseApplication {
    static PARTS = {};
    #parts = {};
    #partDescriptors = {};
    get parts() { return this.#parts; }
    _configureRenderOptions(options) {
      super._configureRenderOptions(options);
      this.#partDescriptors = this._configureRenderParts(options);
      const all = Object.keys(this.#partDescriptors);
      options.parts = options.isFirstRender || !options.parts ? all : options.parts.filter(partId => all.includes(partId));
    }
    _configureRenderParts() { return deepClone(this.constructor.PARTS); }
    async _preparePartContext(partId, context) {
      context.partId = `${this.id}-${partId}`;
      return context;
    }
    async _renderHTML(context, options) {
      const rendered = {};
      for (const partId of options.parts) {
        const part = this.#partDescriptors[partId];
        if (part.templates?.length) await foundry.applications.handlebars.loadTemplates(part.templates);
        const partContext = await this._preparePartContext(partId, context, options);
        const html = await foundry.applications.handlebars.renderTemplate(part.template, partContext);
        const template = document.createElement("template");
        template.innerHTML = html.trim();
        if (template.content.children.length !== 1) throw new Error(`Template part "${partId}" must render a single HTML element.`);
        const element = /** @type {HTMLElement} */ (template.content.firstElementChild);
        element.dataset.applicationPart = partId;
        rendered[partId] = element;
      }
      return rendered;
    }
    _replaceHTML(result, content) {
      for (const [partId, element] of Object.entries(result)) {
        const existing = this.#parts[partId];
        if (existing?.isConnected) existing.replaceWith(element);
        else content.append(element);
        this.#parts[partId] = element;
      }
    }
  };
}

/** DocumentSheetV2 (client/applications/api/document-sheet.d.mts). */
class DocumentSheetV2 extends ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: "{id}", tag: "form", classes: ["sheet"],
    form: { handler: DocumentSheetV2.#onSubmitDocumentForm, submitOnChange: false, closeOnSubmit: false },
    actions: { editImage: DocumentSheetV2.#onEditImage },
    sheetConfig: true, canCreate: false
  };
  constructor(options = {}) {
    const { document: doc, ...rest } = options;
    super({ ...rest, id: `${new.target.name}-${doc.uuid.replaceAll(".", "-")}` });
    this.#document = doc;
  }
  #document;
  /** The sheet's document (the current one: the shim builds embedded documents anew on every change). */
  get document() {
    const doc = this.#document;
    const live = doc.parent ? doc.parent[doc.parent.constructor.getCollectionName(doc.documentName)]?.get(doc.id) : null;
    return live ?? doc;
  }
  get title() { return this.document.name; }
  // v13's defaults (DEFAULT_OPTIONS viewPermission LIMITED, editPermission OWNER) unless given.
  get isVisible() { return this.document.testUserPermission(game.user, this.options.viewPermission ?? OWNERSHIP.LIMITED); }
  get isEditable() { return this.document.testUserPermission(game.user, this.options.editPermission ?? OWNERSHIP.OWNER); }
  /** The document re-renders its open sheets (Document#apps) from here until the sheet closes. */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    this.document.apps[this.id] = this;
  }
  _onClose(options) {
    super._onClose(options);
    delete this.document.apps[this.id];
  }
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    return Object.assign(context, { document: this.document, source: this.document._source, fields: this.document.system?.schema?.fields ?? {},
      editable: this.isEditable, rootId: this.id });
  }
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!this.isEditable) this._toggleDisabled(true);
  }
  /** The form's fields in the content; the window's own controls (close) stay usable. */
  _toggleDisabled(disabled) {
    for (const element of this.form?.elements ?? []) if (!element.closest(".window-header")) element.disabled = disabled;
  }
  _processFormData(event, form, formData) { return expandObject(formData.object); }
  /** v13's: the changes are validated against the document before anything is sent (a DataModelValidationError). */
  _prepareSubmitData(event, form, formData, updateData) {
    const submitData = this._processFormData(event, form, formData);
    if (updateData) mergeObject(submitData, updateData);
    this.document.validate({ changes: submitData, clean: true, fallback: false });
    return submitData;
  }
  async _processSubmitData(event, form, submitData, options = {}) {
    await this.document.update(submitData, options);
  }
  /** `submit({updateData, ...operation})`: extra data merged in, the rest the update's options. */
  static async #onSubmitDocumentForm(event, form, formData, submitOptions = {}) {
    if (!this.isEditable) return;
    const { updateData, ...updateOptions } = submitOptions;
    const submitData = this._prepareSubmitData(event, form, formData, updateData);
    await this._processSubmitData(event, form, submitData, updateOptions);
  }
  static async #onEditImage(event, target) {
    if (target.nodeName !== "IMG") throw new Error("The editImage action is available only for IMG elements.");
    const attr = target.dataset.edit;
    const current = getProperty(this.document._source, attr);
    const picker = new foundry.applications.apps.FilePicker.implementation({ current, type: "image",
      callback: path => { target.src = path; if (this.options.form.submitOnChange) this.submit(); } });
    await picker.browse();
  }
}

class ActorSheetV2 extends DocumentSheetV2 {
  get actor() { return this.document; }
}
class ItemSheetV2 extends DocumentSheetV2 {
  get item() { return this.document; }
  get actor() { return this.document.actor; }
}

/** FilePicker (client/applications/apps/file-picker.d.mts): here it only opens and remembers its request. */
class FilePicker extends HandlebarsApplicationMixin(ApplicationV2) {
  static get implementation() { return FilePicker; }
  constructor(options = {}) {
    super({ id: "file-picker-{id}", window: { title: "FILES.Browse" } });
    this.request = options.current ?? null;
    this.type = options.type ?? "any";
    this.callback = options.callback ?? null;
  }
  async browse() { return this.render({ force: true }); }
}

/**
 * RollResolver (client/applications/dice/roll-resolver.d.mts): v13's manual dice entry. For each
 * die of the roll the user rolls by hand (`core.diceConfiguration` names an interactive method
 * for its denomination, `manual`), an input; the faces typed in are the results, once submitted.
 */
class RollResolver extends HandlebarsApplicationMixin(ApplicationV2) {
  static DEFAULT_OPTIONS = { id: "roll-resolver-{id}", tag: "form", classes: ["roll-resolver"], window: { title: "DICE.RollResolution" },
    form: { handler: RollResolver._fulfillRoll, submitOnChange: false, closeOnSubmit: false } };
  static PARTS = { form: { template: "templates/dice/roll-resolver.hbs" } };
  #roll;
  /** @type {Map<string, foundry.applications.dice.RollResolver.DiceTermFulfillmentDescriptor>} */
  #fulfillable = new Map();
  /** Results typed in, by `method:denomination`, in order. @type {Map<string, number[]>} */
  #results = new Map();
  /** @type {(() => void) | null} */
  #done = null;
  constructor(roll, options = {}) {
    super(options);
    this.#roll = roll;
  }
  get roll() { return this.#roll; }
  get fulfillable() { return this.#fulfillable; }
  async awaitFulfillment() {
    for (const [index, term] of this.#roll.terms.entries()) {
      const method = term instanceof Die ? term.method : undefined;
      if (!method || !CONFIG.Dice.fulfillment.methods[method]?.interactive) continue;
      for (let n = 0; n < term.number; n++) {
        const id = `${index}-${n}`;
        this.#fulfillable.set(id, { id, term, method, isNew: true });
      }
    }
    if (!this.#fulfillable.size) return;
    const done = new Promise(resolve => { this.#done = () => resolve(undefined); });
    await this.render({ force: true });
    await done;
  }
  registerResult(method, denomination, result) {
    const key = `${method}:${denomination}`;
    this.#results.set(key, [...(this.#results.get(key) ?? []), result]);
    return true;
  }
  async resolveResult(term, method) {
    return this.#results.get(`${method}:d${term.faces}`)?.shift();
  }
  async _prepareContext(options) {
    const dice = [...this.#fulfillable.values()].map(({ id, term }) => ({ id, denomination: `d${term.faces}`, faces: term.faces }));
    return Object.assign(await super._prepareContext(options), { formula: this.#roll.formula, dice });
  }
  static async _fulfillRoll(event, form, formData) {
    for (const [id, value] of Object.entries(formData.object)) {
      const die = this.fulfillable.get(id);
      if (die && Number.isFinite(value)) this.registerResult(die.method, `d${die.term.faces}`, Number(value));
    }
    this.#done?.();
  }
}

/**
 * foundry.applications.ui.Hotbar (client/applications/ui/hotbar.d.mts): the user's ten slots of
 * the first page; a document dropped on a slot goes to `hotbarDrop` (a listener returning false
 * takes it over), else a macro dropped there is assigned; a click runs the slot's macro.
 */
class Hotbar extends ApplicationV2 {
  static DEFAULT_OPTIONS = { id: "hotbar", tag: "nav", window: { frame: false } };
  /** Over everything else, as Foundry keeps it (here in a corner the harness leaves free). */
  _insertElement(element) {
    element.style.cssText = "position: fixed; right: 8px; top: 8px; z-index: 50; display: flex; gap: 4px;";
    super._insertElement(element);
  }
  async _renderHTML() {
    const list = document.createElement("ol");
    list.id = "action-bar";
    // Foundry's stylesheet draws the slots as a row of squares.
    list.style.cssText = "display: flex; gap: 4px; margin: 0; padding: 4px; list-style: none; background: rgb(0 0 0 / 60%); border-radius: 6px;";
    for (let slot = 1; slot <= 10; slot++) {
      const macro = game.macros.get(game.user._source.hotbar?.[slot] ?? "") ?? null;
      const li = document.createElement("li");
      li.classList.add("slot", macro ? "full" : "open");
      li.dataset.slot = String(slot);
      li.style.cssText = "position: relative; width: 44px; height: 44px; border: 1px solid #888; border-radius: 4px; background: #222; color: #eee;";
      if (macro) {
        li.dataset.macroId = macro.id;
        li.dataset.tooltip = macro.name;
        const img = document.createElement("img");
        img.src = macro.img;
        img.alt = macro.name;
        img.style.cssText = "width: 100%; height: 100%;";
        li.append(img);
      }
      const key = document.createElement("span");
      key.classList.add("key");
      key.style.cssText = "position: absolute; top: 1px; left: 3px; font-size: 10px;";
      key.textContent = String(slot % 10);
      li.append(key);
      list.append(li);
    }
    return list;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  _attachFrameListeners() {
    super._attachFrameListeners();
    this.element.addEventListener("dragover", event => event.preventDefault());
    this.element.addEventListener("drop", event => this.#onDrop(event));
    this.element.addEventListener("click", event => {
      const slot = event.target instanceof Element ? event.target.closest(".slot[data-macro-id]") : null;
      if (slot instanceof HTMLElement) game.macros.get(slot.dataset.macroId ?? "")?.execute();
    });
  }
  async #onDrop(event) {
    event.preventDefault();
    const li = event.target instanceof Element ? event.target.closest(".slot") : null;
    if (!(li instanceof HTMLElement)) return;
    const slot = Number(li.dataset.slot);
    const data = TextEditor.getDragEventData(event);
    if (Hooks.call("hotbarDrop", this, data, slot) === false) return;
    if (data.type === "Macro") {
      const macro = await Macro.implementation.fromDropData(data);
      if (macro) await game.user.assignHotbarMacro(macro, slot);
    }
  }
}

/**
 * foundry.applications.ux.DragDrop (client/applications/ux/drag-drop.d.mts): `bind(html)` makes the
 * elements matching `dragSelector` draggable and calls back on dragstart, and on dragover and drop
 * over `dropSelector` (or the whole element); each permission is asked first. Its handlers are
 * bound once, so binding again after a render adds no second listener.
 */
class DragDrop {
  static get implementation() { return DragDrop; }
  constructor({ dragSelector = null, dropSelector = null, permissions = {}, callbacks = {} } = {}) {
    Object.assign(this, { dragSelector, dropSelector, permissions, callbacks });
    this._handleDragStart = this._handleDragStart.bind(this);
    this._handleDragOver = this._handleDragOver.bind(this);
    this._handleDrop = this._handleDrop.bind(this);
  }
  bind(html) {
    if (this.dragSelector && this.can("dragstart", this.dragSelector)) {
      for (const element of html.querySelectorAll(this.dragSelector)) {
        element.setAttribute("draggable", "true");
        element.addEventListener("dragstart", this._handleDragStart);
      }
    }
    if (this.can("drop", this.dropSelector)) {
      const targets = this.dropSelector ? html.querySelectorAll(this.dropSelector) : [html];
      for (const element of targets) {
        element.addEventListener("dragover", this._handleDragOver);
        element.addEventListener("drop", this._handleDrop);
      }
    }
    return this;
  }
  can(action, selector) { return this.permissions[action] ? this.permissions[action](selector) : true; }
  callback(event, action) { return this.callbacks[action]?.(event); }
  async _handleDragStart(event) {
    await this.callback(event, "dragstart");
    if (event.dataTransfer?.items.length) event.stopPropagation();
  }
  _handleDragOver(event) {
    event.preventDefault();
    this.callback(event, "dragover");
    return false;
  }
  _handleDrop(event) {
    event.preventDefault();
    return this.callback(event, "drop");
  }
}

/** DialogV2 (client/applications/api/dialog.d.mts): answers as the user pressing the default button would. */
class DialogV2 extends ApplicationV2 {
  static DEFAULT_OPTIONS = { tag: "dialog", classes: ["dialog"], window: { minimizable: false } };
  /** v13's: the content in a form, the buttons (type, action, icon, label, default) in its footer. */
  async _renderHTML() {
    const form = document.createElement("form");
    form.className = "dialog-form standard-form";
    form.autocomplete = "off";
    const buttons = (this.options.buttons ?? []).map(b => `<button type="${b.type ?? "submit"}" data-action="${escapeHTML(b.action)}"${b.default ? ' class="default" autofocus' : ""}>`
      + `${b.icon ? `<i class="${escapeHTML(b.icon)}" inert></i>` : ""}<span>${escapeHTML(game.i18n.localize(b.label ?? ""))}</span></button>`).join("");
    form.innerHTML = `<div class="dialog-content standard-form">${this.options.content ?? ""}</div><footer class="form-footer">${buttons}</footer>`;
    return form;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  /** A non-modal `<dialog>` is shown open. */
  async _renderFrame(options) {
    const frame = await super._renderFrame(options);
    frame.setAttribute("open", "");
    return frame;
  }
  static async confirm() { return true; }
  static async prompt({ ok } = {}) { return ok?.callback ? ok.callback() : true; }
  static async input() { return {}; }
}

/**
 * Registrations made before the world's sheets are set up (core's own defaults, then the
 * system's at init), applied in order by {@link initializeSheets}, as v13 does once the world's
 * document types are known. @type {(() => void)[] | null}
 */
let pendingSheets = [];

/** Apply the sheet registrations made so far; later ones apply at once. */
function initializeSheets() {
  const pending = pendingSheets ?? [];
  pendingSheets = null;
  for (const apply of pending) apply();
}

/**
 * foundry.applications.apps.DocumentSheetConfig: registrations land in
 * `CONFIG[documentName].sheetClasses[type][scope.ClassName]` as in v13; without `types`, for
 * every type of the document (its data models' and "base").
 */
class DocumentSheetConfig {
  static registerSheet(documentClass, scope, sheetClass, { types, makeDefault = false, label } = {}) {
    const apply = () => {
      const config = CONFIG[documentClass.documentName];
      const id = `${scope}.${sheetClass.name}`;
      for (const type of types ?? [...Object.keys(config.dataModels ?? {}), "base"]) {
        config.sheetClasses[type] ??= {};
        if (makeDefault) for (const entry of Object.values(config.sheetClasses[type])) entry.default = false;
        config.sheetClasses[type][id] = { id, cls: sheetClass, default: makeDefault, label: label ?? id, canBeDefault: true, canConfigure: true };
      }
    };
    if (pendingSheets) pendingSheets.push(apply);
    else apply();
  }
  static unregisterSheet(documentClass, scope, sheetClass, { types } = {}) {
    const apply = () => {
      const config = CONFIG[documentClass.documentName];
      const id = `${scope}.${sheetClass.name}`;
      for (const type of types ?? Object.keys(config.sheetClasses)) delete config.sheetClasses[type]?.[id];
    };
    if (pendingSheets) pendingSheets.push(apply);
    else apply();
  }
}

/** foundry.appv1.sheets.ActorSheet / ItemSheet: core's default sheets in v13 (AppV1), never opened here. */
class ActorSheet {}
class ItemSheet {}

/**
 * TextEditor.implementation.enrichHTML (client/applications/ux/text-editor.d.mts), in v13's order:
 * content links (`documents`: `@UUID[...]{label}` as the document's anchor, a broken link when it
 * does not resolve), inline rolls (`rolls`: `[[1d20]]` evaluated into a result, `[[/r 1d20]]` a
 * roll button) and then each CONFIG.TextEditor.enrichers pattern (`custom`) replace their matches
 * in the content's text nodes. Hyperlinks, embeds and secrets are left as they are.
 */
class TextEditor {
  static get implementation() { return TextEditor; }
  /** v13's: the JSON a drag carries as text/plain, or an empty object. */
  static getDragEventData(event) {
    try {
      return JSON.parse(event.dataTransfer?.getData("text/plain") ?? "") ?? {};
    } catch {
      return {};
    }
  }
  /** v13's content link: `@UUID[uuid#hash]{label}`. */
  static #contentLinkPattern = /@(UUID)\[([^#\]]+)(?:#([^\]]+))?](?:{([^}]+)})?/g;
  static async #createContentLink(match) {
    const [, , uuid, hash, name] = match;
    const doc = await fromUuid(uuid);
    if (doc) return doc.toAnchor({ name, dataset: hash ? { hash } : {} });
    const anchor = document.createElement("a");
    anchor.classList.add("content-link", "broken");
    anchor.dataset.link = "";
    const icon = document.createElement("i");
    icon.className = "fa-solid fa-link-slash";
    anchor.append(icon, name ?? uuid);
    return anchor;
  }
  /** Clicks on content links anywhere open their document (v13 listens on the body). */
  static activateListeners() {
    document.body.addEventListener("click", event => {
      const link = event.target instanceof Element ? event.target.closest("a.content-link[data-uuid]") : null;
      if (!(link instanceof HTMLElement)) return;
      event.preventDefault();
      fromUuid(link.dataset.uuid).then(doc => doc?._onClickDocumentLink(event)).catch(error => console.error(error));
    });
  }
  static async enrichHTML(content, options = {}) {
    const template = document.createElement("template");
    template.innerHTML = String(content ?? "");
    if (options.documents !== false) {
      await TextEditor.#replaceText(template.content, TextEditor.#contentLinkPattern, match => TextEditor.#createContentLink(match));
    }
    if (options.rolls !== false) {
      await TextEditor.#replaceText(template.content, /\[\[(\/[a-z]+\s)?(.*?)(\]{2,3})/gi, match => TextEditor.#inlineRoll(match, options));
    }
    if (options.custom !== false) {
      for (const { pattern, enricher } of CONFIG.TextEditor.enrichers) {
        await TextEditor.#replaceText(template.content, pattern, match => enricher(match, options));
      }
    }
    return template.innerHTML;
  }
  /** Each match of `pattern` in the text nodes under `root`, replaced by what `make` returns (null: left as it is). */
  static async #replaceText(root, pattern, make) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.textContent;
      const regex = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
      const pieces = [];
      let last = 0;
      for (const match of text.matchAll(regex)) {
        const element = await make(match);
        if (!element) continue;
        pieces.push(text.slice(last, match.index), element);
        last = match.index + match[0].length;
      }
      if (!pieces.length) continue;
      pieces.push(text.slice(last));
      node.replaceWith(...pieces);
    }
  }
  /** `[[formula]]` rolled now (its total shown, the roll kept in `data-roll`); `[[/r formula]]` a button that rolls. */
  static async #inlineRoll([, command, formula], options) {
    const a = document.createElement("a");
    a.classList.add("inline-roll");
    if (command) {
      a.classList.add("roll");
      a.dataset.mode = command.trim().slice(1);
      a.dataset.formula = formula.trim();
      a.textContent = formula.trim();
      return a;
    }
    const data = typeof options.rollData === "function" ? options.rollData() : options.rollData ?? {};
    const roll = new Roll(formula.trim(), data);
    await roll.evaluate();
    a.classList.add("inline-result");
    a.dataset.tooltipText = roll.formula;
    a.dataset.roll = encodeURIComponent(JSON.stringify(roll));
    a.textContent = String(roll.total);
    return a;
  }
}

/**
 * AbstractSidebarTab (client/applications/sidebar/sidebar-tab.d.mts): a sidebar tab, rendered in
 * the sidebar without a window frame, its id its tab name.
 */
class AbstractSidebarTab extends ApplicationV2 {
  static DEFAULT_OPTIONS = { classes: ["tab", "sidebar-tab"], window: { frame: false } };
  static tabName = "";
  get tabName() { return this.constructor.tabName; }
  _initializeApplicationOptions(options) {
    const configured = super._initializeApplicationOptions(options);
    configured.id = this.constructor.tabName;
    return configured;
  }
  async _prepareContext(options) {
    return Object.assign(await super._prepareContext(options), { user: /** @type {NonNullable<typeof game.user>} */ (game.user) });
  }
  _insertElement(element) {
    const sidebar = document.getElementById("sidebar") ?? document.body.appendChild(Object.assign(document.createElement("section"), { id: "sidebar" }));
    const existing = document.getElementById(element.id);
    if (existing) existing.replaceWith(element);
    else sidebar.append(element);
  }
}

/**
 * foundry.applications.sidebar.tabs.CombatTracker (client/applications/sidebar/tabs/
 * combat-tracker.d.mts), as v13 has it: three parts from core's templates (the header with the
 * encounter controls, among them Roll All / Roll NPCs; the turns; the footer with the turn
 * controls), header and footer prepared by `_prepareCombatContext`, the turns by
 * `_prepareTrackerContext`. A click on an action without a handler goes to `_onClickAction`: a
 * `.combat-control` calls the viewed Combat's method of the action's name, a `.combatant-control`
 * goes to `_onCombatantControl` (hide, defeat, ping, pan, roll initiative).
 */
class CombatTracker extends HandlebarsApplicationMixin(AbstractSidebarTab) {
  static tabName = /** @type {const} */ ("combat");
  static DEFAULT_OPTIONS = {
    actions: {
      activateCombatant: CombatTracker.#onCombatantMouseDown,
      createCombat: CombatTracker.#onCombatCreate,
      cycleCombat: CombatTracker.#onCombatCycle
    }
  };
  static PARTS = {
    header: { template: "templates/sidebar/tabs/combat/header.hbs" },
    tracker: { template: "templates/sidebar/tabs/combat/tracker.hbs", scrollable: [""] },
    footer: { template: "templates/sidebar/tabs/combat/footer.hbs" }
  };
  /** The id of the combat the user chose to view; until then the active one (or the first). @type {string | null | undefined} */
  #viewedId = undefined;
  get combats() { return game.combats.combats; }
  get viewed() { return this.#viewedId === undefined ? game.combats.active ?? this.combats[0] ?? null : game.combats.get(this.#viewedId ?? "") ?? null; }
  set viewed(combat) { this.#viewedId = combat?.id ?? null; }
  async _preparePartContext(partId, context, options) {
    context = await super._preparePartContext(partId, context, options);
    if (partId === "header" || partId === "footer") await this._prepareCombatContext(context, options);
    else if (partId === "tracker") await this._prepareTrackerContext(context, options);
    return context;
  }
  async _prepareCombatContext(context) {
    const combat = this.viewed;
    const combats = this.combats;
    const index = combat ? combats.indexOf(combat) : -1;
    return Object.assign(context, {
      combat, hasCombat: combat !== null, nextId: combats[index + 1]?.id ?? null, previousId: index > 0 ? combats[index - 1].id : null,
      combats: combats.map((c, i) => ({ id: c.id, label: i + 1, active: c === combat })), control: false, css: "",
      currentIndex: index + 1, displayCycle: combats.length > 1, initiativeIcon: "fa-solid fa-dice-d20", link: !!combat?.scene,
      labels: { scope: combat?.scene ? "COMBAT.Linked" : "COMBAT.Unlinked" }
    });
  }
  async _prepareTrackerContext(context) {
    const combat = this.viewed;
    const turns = [];
    for (const [i, combatant] of (combat?.turns ?? []).entries()) if (combat && combatant.visible) turns.push(await this._prepareTurnContext(combat, combatant, i));
    Object.assign(context, { turns, hasDecimals: false });
  }
  async _prepareTurnContext(combat, combatant, index) {
    const active = combat.turn === index;
    return { id: combatant.id, name: combatant.name, img: await this._getCombatantThumbnail(combatant), initiative: combatant.initiative,
      hidden: combatant.hidden, isDefeated: combatant.isDefeated, isOwner: combatant.isOwner, active, canPing: false,
      resource: null, hasDecimals: false, effects: { icons: [], tooltip: "" },
      css: [active ? "active" : "", combatant.hidden ? "hide" : "", combatant.isDefeated ? "defeated" : ""].filter(Boolean).join(" ") };
  }
  async _getCombatantThumbnail(combatant) { return combatant.img ?? CONST.DEFAULT_TOKEN; }
  async _onClickAction(event, target) {
    if (target.classList.contains("combat-control")) {
      const combat = this.viewed;
      const method = combat?.[target.dataset.action];
      if (typeof method === "function") await method.call(combat);
      return;
    }
    if (target.classList.contains("combatant-control")) await this._onCombatantControl(event, target);
  }
  async _onCombatantControl(event, target) {
    const id = target.closest("[data-combatant-id]")?.getAttribute("data-combatant-id") ?? "";
    const combatant = this.viewed?.combatants.get(id);
    if (!combatant) return undefined;
    switch (target.dataset.action) {
      case "pingCombatant": return this._onPingCombatant(combatant);
      case "panToCombatant": return this._onPanToCombatant(combatant);
      case "rollInitiative": return this._onRollInitiative(combatant);
      case "toggleDefeated": return this._onToggleDefeatedStatus(combatant);
      case "toggleHidden": return this._onToggleHidden(combatant);
    }
    return undefined;
  }
  /** No canvas here: nothing to ping or pan to. */
  _onPingCombatant() {}
  _onPanToCombatant() {}
  _onCombatantMouseDown() {}
  _onRollInitiative(combatant) { return this.viewed?.rollInitiative([combatant.id]); }
  /** v13's: the Combatant's `defeated`, then the actor's DEFEATED status (as an overlay) to match. */
  async _onToggleDefeatedStatus(combatant) {
    const isDefeated = !combatant.isDefeated;
    await combatant.update({ defeated: isDefeated });
    await combatant.actor?.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { overlay: true, active: isDefeated });
  }
  _onToggleHidden(combatant) { return combatant.update({ hidden: !combatant.hidden }); }
  async _onCombatCreate() {
    await Combat.implementation.create({ active: true });
  }
  async _onCombatCycle(event, target) {
    const combat = game.combats.get(target.dataset.combatId ?? "");
    if (!combat) return combat;
    this.viewed = combat;
    await this.render();
    return combat;
  }
  /**
   * Core's combatant menu (not drawn here: no ContextMenu), in the generation's shape: v13's
   * `{name, condition, callback(li)}` and `COMBAT.Combatant*` keys, v14's
   * `{label, visible, onClick(event, li)}` and `COMBATANT.ACTIONS.*` keys.
   * @shim-unchecked v14's entries ({label, visible, onClick}: API v14 foundry.ContextMenuEntry) are not in foundry-vtt-types 13, which holds only v13's
   */
  _getEntryContextOptions() {
    const combatant = li => this.viewed?.combatants.get(li.dataset.combatantId ?? "");
    return [
      ["Update", "COMBAT.CombatantUpdate", '<i class="fa-solid fa-pen-to-square"></i>', () => true, () => {}],
      ["Clear", "COMBAT.CombatantClear", '<i class="fa-solid fa-arrow-rotate-left"></i>', li => Number.isFinite(combatant(li)?.initiative),
        li => { combatant(li)?.update({ initiative: null }); }],
      ["Reroll", "COMBAT.CombatantReroll", '<i class="fa-solid fa-dice-d20"></i>', () => true,
        li => { const c = combatant(li); if (c) this.viewed?.rollInitiative([c.id]); }],
      ["Remove", "COMBAT.CombatantRemove", '<i class="fa-solid fa-trash"></i>', () => true, li => { combatant(li)?.delete(); }]
    ].map(([v14, v13, icon, visible, act]) => (GENERATION >= 14
      ? { label: `COMBATANT.ACTIONS.${v14}`, icon, visible, onClick: (event, li) => act(li) }
      : { name: v13, icon, condition: visible, callback: act }));
  }
  /**
   * Core's encounter menu, in the generation's shape (the same keys in both).
   * @shim-unchecked v14's entries ({label, visible, onClick}: API v14 foundry.ContextMenuEntry) are not in foundry-vtt-types 13, which holds only v13's
   */
  _getCombatContextOptions() {
    return [
      ["COMBAT.InitiativeReset", '<i class="fa-solid fa-arrow-rotate-left"></i>', () => {}],
      ["COMBAT.Delete", '<i class="fa-solid fa-trash"></i>', () => { this.viewed?.endCombat(); }]
    ].map(([key, icon, act]) => (GENERATION >= 14
      ? { label: key, icon, visible: () => !!this.viewed, onClick: () => act() }
      : { name: key, icon, condition: () => !!this.viewed, callback: act }));
  }
  static #onCombatantMouseDown(event, target) { return this._onCombatantMouseDown(event, target); }
  static #onCombatCreate(event, target) { return this._onCombatCreate(event, target); }
  static #onCombatCycle(event, target) { return this._onCombatCycle(event, target); }
}

/**
 * Core's chat commands as v13 matches them (ChatLog.MESSAGE_PATTERNS' names): a `/word` that is
 * none of these and no system's is refused.
 */
const CORE_COMMANDS = /^\/(?:r(?:oll)?|gmr(?:oll)?|b(?:lind)?r(?:oll)?|s(?:elf)?r(?:oll)?|p(?:ublic)?r(?:oll)?|ooc|ic|em(?:ote)?|me|w(?:hisper)?|reply|gm|players|m(?:acro)?)(?:\s|$)/i;

/**
 * What the chat input hands ChatLog#processMessage for a line the user typed: v13's textarea
 * gives the text; v14's input is a ProseMirror editor, which gives its document as HTML (a
 * paragraph, the text's `&`, `<`, `>` escaped), the form `chatMessage` listeners then see.
 * Test plumbing: an export, not Foundry API.
 * @param {string} text
 */
export function chatInput(text) {
  return GENERATION >= 14 ? `<p>${escapeHTML(text).replace(/&quot;/g, '"').replace(/&#x27;/g, "'")}</p>` : text;
}

/**
 * The chat log (foundry.applications.sidebar.tabs.ChatLog): messages appear in `#chat` as Foundry
 * renders them, and what the user sends goes through `processMessage` as the generation does it.
 * v13: the `chatMessage` hook sees the text (false stops it), then core's commands; an unknown
 * `/word` throws CHAT.InvalidCommand. v14: the hook sees the editor's HTML, then the registry
 * `ChatLog.CHAT_COMMANDS` (`{rgx, fn}` per command, matched against the HTML without its outer
 * `<p>`; `fn.call(chatLog, command, match, chatData, createOptions)`, false sends nothing);
 * an unknown `/word` throws the same.
 */
class ChatLog {
  /**
   * Send what the user typed (the input's form: {@link chatInput}).
   * @param {string} message
   */
  async processMessage(message) {
    message = message.trim();
    if (!message) return undefined;
    const chatData = { user: game.user.id, speaker: ChatMessage.implementation.getSpeaker() };
    /** @type {Record<string, unknown>} */
    const createOptions = {};
    if (Hooks.call("chatMessage", this, message, chatData) === false) return undefined;
    const html = GENERATION >= 14 ? message.replace(/^<p>|<\/p>$/gi, "") : message;
    if (GENERATION >= 14) {
      const commands = /** @type {Record<string, {rgx: RegExp, fn?: Function}>} */ (/** @type {{CHAT_COMMANDS?: object}} */ (this.constructor).CHAT_COMMANDS ?? {});
      for (const [command, { rgx, fn }] of Object.entries(commands)) {
        const match = html.match(rgx);
        if (!match) continue;
        const result = await fn?.call(this, command, match, chatData, createOptions);
        if (result === false) return undefined;
        return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
      }
    } else if (CORE_COMMANDS.test(html)) return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
    const command = /^(\/[^\s]+)/.exec(html)?.[1];
    if (command) throw new Error(game.i18n.format("CHAT.InvalidCommand", { command }));
    return ChatMessage.implementation.create({ author: chatData.user, speaker: chatData.speaker, content: html }, createOptions);
  }
  async postOne(message) {
    document.querySelector("#chat")?.append(await message.renderHTML());
  }
  async updateMessage(message) {
    const existing = document.querySelector(`#chat [data-message-id="${message.id}"]`);
    if (!existing) return;
    existing.replaceWith(await message.renderHTML());
  }
  deleteMessage(id) { document.querySelector(`#chat [data-message-id="${id}"]`)?.remove(); }
}

if (GENERATION >= 14) {
  /**
   * v14's registry of chat commands, core's own in it (what they do is not modelled: their text is
   * posted as it is).
   */
  // Merged in, not declared on the class: the member is v14's (module/types/chat-log.d.ts declares it for the system).
  Object.assign(ChatLog, { CHAT_COMMANDS: Object.fromEntries(["roll", "gmroll", "blindroll", "selfroll", "publicroll", "ooc", "ic", "emote", "whisper", "reply", "gm", "players", "macro"]
    .map(name => [name, { rgx: new RegExp(`^(/${name === "roll" ? "r(?:oll)?" : name === "emote" ? "(?:em(?:ote)?|me)" : name} )([^]*)`, "i") }])) });
}

/** Notifications (client/applications/ui/notifications.d.mts): kept, so tests can read them. */
class Notifications {
  /** @shim-unchecked what was shown, for the tests to read (Foundry's queue holds only what waits to be shown) */
  queue = [];
  #notify(type, message, { localize = false, format, progress = false } = {}) {
    const text = format ? game.i18n.format(message, format) : localize ? game.i18n.localize(message) : String(message);
    this.queue.push({ type, message: text });
    // v13's progress notification: update({pct, message}) moves its bar and changes its text.
    const shown = { type, message: text, progress: !!progress, pct: 0 };
    if (progress) Object.assign(shown, { update: ({ pct, message: next } = {}) => Object.assign(shown, pct === undefined ? {} : { pct }, next ? { message: next } : {}) });
    return shown;
  }
  info(message, options) { return this.#notify("info", message, options); }
  warn(message, options) { return this.#notify("warning", message, options); }
  error(message, options) { return this.#notify("error", message, options); }
  success(message, options) { return this.#notify("success", message, options); }
}

/**
 * foundry.applications.sheets.journal.JournalEntrySheet, in v13's single-page view: the page a
 * render names by `pageId` (the first page until one is named), its title and its enriched text.
 */
class JournalEntrySheet extends DocumentSheetV2 {
  static DEFAULT_OPTIONS = { classes: ["journal-sheet", "journal-entry"] };
  #pageId = null;
  async _renderHTML(context, options) {
    const pages = this.document.pages.contents.sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
    this.#pageId = options.pageId ?? this.#pageId;
    const page = pages.find(p => p.id === this.#pageId) ?? pages[0];
    const article = document.createElement("article");
    article.classList.add("journal-entry-page", page?.type ?? "text");
    if (!page) return article;
    article.dataset.pageId = page.id;
    const header = document.createElement("header");
    header.classList.add("journal-page-header");
    const title = document.createElement(`h${Math.min(Math.max(page.title?.level ?? 1, 1), 3)}`);
    title.textContent = page.name;
    const content = document.createElement("section");
    content.classList.add("journal-page-content");
    content.innerHTML = await TextEditor.implementation.enrichHTML(page.text?.content ?? "", { relativeTo: page, secrets: page.isOwner });
    header.append(title);
    article.append(header, content);
    return article;
  }
  _replaceHTML(result, content) { content.replaceChildren(result); }
  /** A non-modal `<dialog>` is shown open. */
  async _renderFrame(options) {
    const frame = await super._renderFrame(options);
    frame.setAttribute("open", "");
    return frame;
  }
}

export { FormDataExtended, inheritanceChain, ApplicationV2, HandlebarsApplicationMixin, DocumentSheetV2, ActorSheetV2, ItemSheetV2, FilePicker, RollResolver, Hotbar, DragDrop, DialogV2, pendingSheets, initializeSheets, DocumentSheetConfig, ActorSheet, ItemSheet, TextEditor, AbstractSidebarTab, CombatTracker, CORE_COMMANDS, ChatLog, Notifications, JournalEntrySheet };
