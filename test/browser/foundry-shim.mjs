/**
 * The ONLY Foundry stand-in of the browser tests, kept minimal: what rendering a chat card needs.
 * - game.i18n.localize / format, from lang/en.json
 * - foundry.applications.handlebars.renderTemplate, via the real Handlebars
 * - the `localize` Handlebars helper (with hash arguments formatting, as Foundry's does)
 * - foundry.applications.handlebars.loadTemplates, registering each template as a partial named by
 *   its path (as Foundry does), for the sheet partials
 * Template paths under systems/icon-engine/ map to the repo root, as Foundry serves them.
 *
 * Everything it provides is held to foundry-vtt-types by scripts/shim-conformance.mjs (run by
 * `npm run typecheck`): a member Foundry does not declare, or one whose type does not fit the
 * declaration, fails the build. What is not Foundry API (test plumbing) is marked on its
 * statement with a comment `@shim-unchecked <reason>`.
 */

/** Load a classic (UMD) script; Handlebars' browser build is not an ES module. */
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

await loadScript("/node_modules/handlebars/dist/handlebars.min.js");
const Handlebars = globalThis.Handlebars;
const translations = await (await fetch("/lang/en.json")).json();

/** @param {string} key */
function localize(key) {
  const value = key.split(".").reduce((node, part) => node?.[part], translations);
  return typeof value === "string" ? value : key;
}

/** @param {string} key @param {Record<string, unknown>} data */
function format(key, data = {}) {
  return localize(key).replace(/{(\w+)}/g, (match, name) => (name in data ? String(data[name]) : match));
}

Handlebars.registerHelper("localize", (key, options) => {
  const hash = options?.hash ?? {};
  return Object.keys(hash).length ? format(key, hash) : localize(key);
});

const compiled = new Map();

/** @param {string} path @param {object} data */
async function renderTemplate(path, data) {
  if (!compiled.has(path)) {
    const url = `/${path.replace(/^systems\/icon-engine\//, "")}`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    compiled.set(path, Handlebars.compile(await response.text()));
  }
  return compiled.get(path)(data);
}

/**
 * As Foundry's: paths (each partial named by its path) or `{partialId: path}`; resolves to the
 * compiled templates.
 * @param {string[] | Record<string, string>} paths
 * @returns {Promise<((data: object) => string)[]>}
 */
async function loadTemplates(paths) {
  const entries = Array.isArray(paths) ? paths.map(path => [path, path]) : Object.entries(paths);
  const templates = [];
  for (const [id, path] of entries) {
    const response = await fetch(`/${path.replace(/^systems\/icon-engine\//, "")}`);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    const text = await response.text();
    Handlebars.registerPartial(id, text);
    templates.push(Handlebars.compile(text));
  }
  return templates;
}

globalThis.game = { i18n: { localize, format } };
globalThis.foundry = { applications: { handlebars: { renderTemplate, loadTemplates } } };
/** @shim-unchecked the page's ready flag for the tests, not Foundry API */
globalThis.shimReady = true;
