/**
 * The system's stylesheets (every one system.json lists) keep every colour in a variable: a colour
 * is written only in the declaration of a custom property of a theme block (`:root, .theme-light`
 * or `.theme-dark`), the two theme blocks declare the same variables, and every `--icon-*` a rule
 * of any stylesheet reads is declared. Templates carry no colour in their inline styles. The
 * browser side (both themes rendered, contrast, axe) is test/browser/look.test.mjs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** @type {string[]} */
const STYLES = JSON.parse(await readFile(join(ROOT, "system.json"), "utf8")).styles;
/** Each stylesheet's text, by its path in system.json. */
const SHEETS = Object.fromEntries(await Promise.all(STYLES.map(async path => [path, await readFile(join(ROOT, path), "utf8")])));
/** The stylesheet that declares the theme variables. */
const THEME_SHEET = "styles/icon-engine.css";
/** Every template's text. */
const TEMPLATES = await Promise.all((await readdir(join(ROOT, "templates"), { withFileTypes: true, recursive: true }))
  .filter(e => e.isFile() && e.name.endsWith(".hbs")).map(e => readFile(join(e.parentPath, e.name), "utf8")));

/** CSS's named colours (CSS Color 4), besides the keywords that are no colour of their own. */
const NAMED = "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood "
  + "cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray "
  + "darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen "
  + "darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue "
  + "firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew "
  + "hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan "
  + "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray "
  + "lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue "
  + "mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred "
  + "midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid "
  + "palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple "
  + "rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue "
  + "slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white "
  + "whitesmoke yellow yellowgreen canvas canvastext linktext visitedtext activetext buttonface buttontext buttonborder "
  + "field fieldtext highlight highlighttext selecteditem selecteditemtext mark marktext graytext accentcolor accentcolortext";
const LITERAL = new RegExp(String.raw`#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\(|\b(?:${NAMED.split(" ").join("|")})\b`, "i");
/** Whether a value writes a colour (a variable's name, `--icon-gold`, is none). */
const COLOUR = { test: (/** @type {string} */ value) => LITERAL.test(value.replace(/--[\w-]+/g, "")) };

/**
 * The stylesheet's rules as [selector, declarations] (no nesting; at-rules' blocks are read
 * through, so a rule inside @media is checked as any other).
 * @param {string} css
 * @returns {{selector: string, declarations: [string, string][]}[]}
 */
function rules(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const found = [];
  for (const match of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = match[1].trim().replace(/\s+/g, " ");
    // Quoted text (content: "") and url() hold no colour of a rule.
    const body = match[2].replace(/"[^"]*"|'[^']*'/g, '""');
    const declarations = body.split(";").map(d => d.trim()).filter(Boolean).map(d => {
      const colon = d.indexOf(":");
      return /** @type {[string, string]} */ ([d.slice(0, colon).trim(), d.slice(colon + 1).trim()]);
    });
    found.push({ selector, declarations });
  }
  return found;
}

const THEMES = { light: ":root, .theme-light", dark: ".theme-dark" };
const all = rules(SHEETS[THEME_SHEET]);

/**
 * The declarations of a stylesheet that write a colour outside a theme block's variables.
 * @param {string} css
 * @returns {string[]}
 */
function offenders(css) {
  const found = [];
  for (const { selector, declarations } of rules(css)) {
    const isTheme = Object.values(THEMES).includes(selector);
    for (const [property, value] of declarations) {
      if (isTheme && property.startsWith("--")) continue;
      if (COLOUR.test(value)) found.push(`${selector} { ${property}: ${value} }`);
    }
  }
  return found;
}

test("system.json lists the system's stylesheets, the theme variables' first", () => {
  assert.equal(STYLES[0], THEME_SHEET);
  assert.ok(STYLES.includes("styles/abilities.css"), STYLES.join(", "));
});

test("the theme stylesheet parses into rules, with a light and a dark theme block; the others declare no theme of their own", () => {
  assert.ok(all.length > 100, `${all.length} rules`);
  for (const selector of Object.values(THEMES)) assert.equal(all.filter(r => r.selector === selector).length, 1, selector);
  for (const [path, css] of Object.entries(SHEETS)) {
    if (path === THEME_SHEET) continue;
    assert.ok(rules(css).length > 10, `${path} parses`);
    assert.deepEqual(rules(css).filter(r => Object.values(THEMES).includes(r.selector)).map(r => r.selector), [], path);
  }
});

test("no rule of any stylesheet writes a colour: only the theme blocks' variables hold one", () => {
  for (const [path, css] of Object.entries(SHEETS)) assert.deepEqual(offenders(css), [], path);
});

test("the check itself catches a colour in a rule (hex, rgb(), a named colour) and allows one in a theme variable", () => {
  const sample = rules(`.theme-dark { --icon-x: #fff; } .a { color: #abc; } .b { border: 1px solid rgb(0 0 0 / 20%); }
    .c { background: white; } .d { color: var(--icon-x); } .e { color: currentcolor; } .f { border-color: transparent; }`);
  const caught = sample.filter(r => r.selector !== ".theme-dark" && r.declarations.some(([, v]) => COLOUR.test(v))).map(r => r.selector);
  assert.deepEqual(caught, [".a", ".b", ".c"]);
});

test("a colour planted in abilities.css is caught, whether written plainly or as a variable's fallback", () => {
  const css = SHEETS["styles/abilities.css"];
  const at = css.indexOf("{", css.indexOf(".ability-card .item-name")) + 1;
  const plant = (/** @type {string} */ text) => css.slice(0, at) + text + css.slice(at);
  assert.deepEqual(offenders(plant(" color: #a05a00;")), [`.icon-engine .ability-card .item-name { color: #a05a00 }`]);
  assert.deepEqual(offenders(plant(" border-color: var(--color-border-light-tertiary, rgb(0 0 0 / 15%));")),
    [`.icon-engine .ability-card .item-name { border-color: var(--color-border-light-tertiary, rgb(0 0 0 / 15%)) }`]);
  assert.deepEqual(offenders(plant(" background: var(--icon-accent);")), [], "a variable is no colour");
});

test("both themes declare the same variables, and every --icon-* any stylesheet reads is declared", () => {
  const declared = Object.fromEntries(Object.entries(THEMES).map(([theme, selector]) =>
    [theme, all.find(r => r.selector === selector)?.declarations.map(([p]) => p).filter(p => p.startsWith("--")).sort()]));
  assert.deepEqual(declared.dark, declared.light);
  // Variables a rule sets for its own elements (a meter's colour and fill) count as declared.
  const local = new Set(Object.values(SHEETS).flatMap(css => rules(css).flatMap(r => r.declarations.map(([p]) => p))).filter(p => p.startsWith("--icon-")));
  for (const text of TEMPLATES) for (const m of text.matchAll(/(--icon-[a-z0-9-]+)\s*:/g)) local.add(m[1]);
  for (const [path, css] of Object.entries(SHEETS)) {
    const read = new Set([...css.matchAll(/var\((--icon-[a-z0-9-]+)/g)].map(m => m[1]));
    const undeclared = [...read].filter(name => !declared.light?.includes(name) && !local.has(name));
    assert.deepEqual(undeclared, [], path);
  }
});

test("templates' inline styles hold no colour", () => {
  const offenders = [];
  for (const text of TEMPLATES) {
    for (const m of text.matchAll(/style="([^"]*)"/g)) if (COLOUR.test(m[1].replace(/{{[^}]*}}/g, ""))) offenders.push(m[0]);
  }
  assert.deepEqual(offenders, []);
});
