/**
 * The system's chat card templates, compiled once at init so a card can be rendered inside the
 * synchronous `renderChatMessageHTML` hook: Foundry does not wait for an async hook, and the card
 * must replace what its author stored before any other listener sees the message.
 */
export default class SyncTemplates {
  /** @type {Map<string, (data: object, options?: object) => string>} */
  static #compiled = new Map();

  /** @type {Promise<void> | null} */
  static #loading = null;

  /**
   * Compile these templates (Foundry's `loadTemplates` resolves to the compiled templates, in order).
   * @param {string[]} paths
   * @returns {Promise<void>}
   */
  static load(paths) {
    const wanted = paths.filter(path => !SyncTemplates.#compiled.has(path));
    const run = (async () => {
      if (!wanted.length) return;
      const compiled = /** @type {((data: object, options?: object) => string)[]} */ (/** @type {unknown} */ (
        await foundry.applications.handlebars.loadTemplates(wanted)));
      wanted.forEach((path, i) => { if (compiled[i]) SyncTemplates.#compiled.set(path, compiled[i]); });
    })();
    SyncTemplates.#loading = (SyncTemplates.#loading ?? Promise.resolve()).then(() => run);
    return run;
  }

  /** Resolves once every template asked for so far is compiled. */
  static get ready() {
    return SyncTemplates.#loading ?? Promise.resolve();
  }

  /**
   * Whether a template is compiled.
   * @param {string} path
   */
  static has(path) {
    return SyncTemplates.#compiled.has(path);
  }

  /**
   * Render a compiled template now, as Foundry's renderTemplate would (reading getters and methods
   * of the context's objects). Throws for a template not compiled yet.
   * @param {string} path
   * @param {object} data
   * @returns {string}
   */
  static render(path, data) {
    const template = SyncTemplates.#compiled.get(path);
    if (!template) throw new Error(`${path} is not compiled yet`);
    return template(data, { allowProtoMethodsByDefault: true, allowProtoPropertiesByDefault: true });
  }
}
