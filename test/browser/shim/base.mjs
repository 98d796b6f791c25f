/**
 * The shim's base, what rendering a chat card needs (see test/browser/foundry-shim.mjs):
 * `game.i18n` from lang/en.json, `foundry.applications.handlebars` via the real Handlebars, and
 * the `localize` helper. Set up when the page loads, before any world is installed.
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
// The few core strings the shim's own markup shows (Foundry's lang/en.json has them).
Object.assign(translations, { Delete: "Delete", TIME: { Now: "Now" },
  CHAT: { To: "To", InvalidCommand: "{command} is not a valid chat message command.", MODES: { Public: "Public Message", GM: "Private GM Message",
    Blind: "Blind GM Message", Self: "Self Message", IC: "In Character" }, RollPublic: "Public Roll", RollPrivate: "Private GM Roll", RollBlind: "Blind GM Roll", RollSelf: "Self Roll", ...translations.CHAT },
  APPLICATION: { TOOLS: { Close: "Close Window", ControlsMenu: "Toggle Controls" } },
  COMBAT: { Round: "Round {round}", NotStarted: "Not Started", None: "No Combat", Create: "Create Encounter", NavLabel: "Encounters",
    EncounterPrevious: "Previous Encounter", EncounterNext: "Next Encounter", RollAll: "Roll All", RollNPC: "Roll NPCs", ...translations.COMBAT } });

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

/**
 * Where the page fetches a template: the system's from the repo root, core's from its stand-in.
 * @param {string} path
 */
function templateURL(path) {
  return path.startsWith("systems/icon-engine/") ? `/${path.slice("systems/icon-engine/".length)}` : `/test/browser/foundry/${path}`;
}

/** @param {string} path @param {object} data */
async function renderTemplate(path, data) {
  if (!compiled.has(path)) {
    const url = templateURL(path);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    compiled.set(path, Handlebars.compile(await response.text()));
  }
  // Foundry renders every template letting it read getters and methods of the context's objects.
  return compiled.get(path)(data, { allowProtoMethodsByDefault: true, allowProtoPropertiesByDefault: true });
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
    const response = await fetch(templateURL(path));
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    const text = await response.text();
    Handlebars.registerPartial(id, text);
    templates.push(Handlebars.compile(text));
  }
  return templates;
}

/**
 * Whether a key has a translation (Localization#has; the shim has no fallback language).
 * @param {string} key
 */
function has(key) {
  return typeof key.split(".").reduce((node, part) => node?.[part], translations) === "string";
}

globalThis.game = { i18n: { lang: "en", localize, format, has } };
globalThis.foundry = { applications: { handlebars: { renderTemplate, loadTemplates } } };
/** @shim-unchecked the page's ready flag for the tests, not Foundry API */
globalThis.shimReady = true;

export { loadScript, Handlebars, translations, localize, format, compiled, templateURL, renderTemplate, loadTemplates, has };
