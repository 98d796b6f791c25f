/**
 * Imported journal HTML is data from strangers. An XSS corpus goes through the pack importer
 * (`icon-engine import`, whose allowlist sanitiser stands where Foundry's cleanHTML stands in the
 * module), is rendered in headless Chromium, and must run nothing: the test listens for dialogs,
 * console output and page errors. The same corpus unsanitised is the control that proves the
 * listener would notice.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPage } from "../support/browser.mjs";
import { shimWorldPage } from "../support/shim-world.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = path.join(root, "target", "release", "icon-engine");

const corpus = [
  "<script>alert('script')</script>",
  "<img src=x onerror=\"alert('onerror')\">",
  "<a id=js href=\"javascript:alert('javascript')\">click</a>",
  "<a id=tab href=\"jav&#x09;ascript:alert('tab')\">click</a>",
  "<iframe srcdoc=\"<script>parent.alert('srcdoc')</script>\"></iframe>",
  "<svg><image href=x onerror=\"alert('svg')\"></image></svg>",
  "<svg onload=\"alert('svg onload')\"></svg>",
  "<body onload=\"alert('body')\">",
  "<object data=\"javascript:alert('object')\"></object>",
  "<details open ontoggle=\"alert('toggle')\"></details>"
];

/**
 * The OWASP XSS Filter Evasion Cheat Sheet's vectors (cheatsheetseries.owasp.org), plus a few
 * mutation-XSS ones; remote script URLs point at a closed local port so nothing waits on DNS.
 */
const REMOTE = "http://127.0.0.1:9";
const owasp = [
  "javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/\"/+/onmouseover=1/+/[*/[]/+alert(1)//'>",
  `<SCRIPT SRC=${REMOTE}/xss.js></SCRIPT>`,
  "<IMG SRC=\"javascript:alert('XSS');\">",
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  "<IMG SRC=javascript:alert(&quot;XSS&quot;)>",
  "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
  "<a onmouseover=\"alert(document.cookie)\">xxs link</a>",
  "<a onmouseover=alert(document.cookie)>xxs link</a>",
  "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\"\\>",
  "<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>",
  "<IMG SRC=# onmouseover=\"alert('xxs')\">",
  "<IMG SRC= onmouseover=\"alert('xxs')\">",
  "<IMG onmouseover=\"alert('xxs')\">",
  "<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
  "<img src=x onerror=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041\">",
  "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
  "<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>",
  "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
  "<IMG SRC=\"jav\tascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x0D;ascript:alert('XSS');\">",
  "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
  `<SCRIPT/XSS SRC="${REMOTE}/xss.js"></SCRIPT>`,
  "<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
  `<SCRIPT/SRC="${REMOTE}/xss.js"></SCRIPT>`,
  "<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
  `<SCRIPT SRC=${REMOTE}/xss.js?< B >`,
  `<SCRIPT SRC=//127.0.0.1:9/.j>`,
  `<IMG SRC="\`('XSS')"`,
  `<iframe src=${REMOTE}/scriptlet.html <`,
  "</TITLE><SCRIPT>alert(\"XSS\");</SCRIPT>",
  "<INPUT TYPE=\"IMAGE\" SRC=\"javascript:alert('XSS');\">",
  "<BODY BACKGROUND=\"javascript:alert('XSS')\">",
  "<IMG DYNSRC=\"javascript:alert('XSS')\">",
  "<IMG LOWSRC=\"javascript:alert('XSS')\">",
  "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
  "<IMG SRC='vbscript:msgbox(\"XSS\")'>",
  "<svg/onload=alert('XSS')>",
  "<BODY ONLOAD=alert('XSS')>",
  "<BGSOUND SRC=\"javascript:alert('XSS');\">",
  "<BR SIZE=\"&{alert('XSS')}\">",
  "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
  `<STYLE>@import'${REMOTE}/xss.css';</STYLE>`,
  "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
  "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K\">",
  "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
  "<IFRAME SRC=# onmouseover=\"alert(document.cookie)\"></IFRAME>",
  "<FRAMESET><FRAME SRC=\"javascript:alert('XSS');\"></FRAMESET>",
  "<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
  "<TABLE><TD BACKGROUND=\"javascript:alert('XSS')\">",
  "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
  "<DIV STYLE=\"background-image:\\0075\\0072\\006C\\0028'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029'\\0029\">",
  "<DIV STYLE=\"width: expression(alert('XSS'));\">",
  "<IMG STYLE=\"xss:expr/*XSS*/ession(alert('XSS'))\">",
  "<STYLE TYPE=\"text/javascript\">alert('XSS');</STYLE>",
  "<STYLE>.XSS{background-image:url(\"javascript:alert('XSS')\");}</STYLE><A CLASS=XSS></A>",
  "<STYLE type=\"text/css\">BODY{background:url(\"javascript:alert('XSS')\")}</STYLE>",
  "<BASE HREF=\"javascript:alert('XSS');//\">",
  `<OBJECT TYPE="text/x-scriptlet" DATA="${REMOTE}/scriptlet.html"></OBJECT>`,
  "<EMBED SRC=\"data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hsaW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAwIiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlhTUyIpOzwvc2NyaXB0Pjwvc3ZnPg==\" type=\"image/svg+xml\" AllowScriptAccess=\"always\"></EMBED>",
  `<SCRIPT a=">" SRC="${REMOTE}/xss.js"></SCRIPT>`,
  `<SCRIPT =">" SRC="${REMOTE}/xss.js"></SCRIPT>`,
  `<SCRIPT "a='>'" SRC="${REMOTE}/xss.js"></SCRIPT>`,
  `<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="${REMOTE}/xss.js"></SCRIPT>`,
  "<A HREF=\"javascript:document.location='http://127.0.0.1:9/'\">XSS</A>",
  "<IMG SRC=\"livescript:[code]\">",
  "<a href=\"jAvAsCrIpT&colon;alert(1)\">X</a>",
  "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">X</a>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
  "<svg><style><img src=x onerror=alert(1)></style></svg>",
  "<form><button formaction=javascript:alert(1)>X</button></form>",
  "<input autofocus onfocus=alert(1)>",
  "<select autofocus onfocus=alert(1)></select>",
  "<textarea autofocus onfocus=alert(1)></textarea>",
  "<video><source onerror=\"alert(1)\"></video>",
  "<audio src=x onerror=alert(1)>",
  "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  "<svg><a xlink:href=\"javascript:alert(1)\"><text x=\"20\" y=\"20\">X</text></a></svg>",
  "<img src=x:alert(alt) onerror=eval(src) alt=0>",
  "<div style=\"position:fixed;inset:0\" onpointerenter=alert(1)></div>"
];

/** Renders `html` as a page body and reports every dialog, console message and page error. */
async function render(page, html) {
  const seen = [];
  const onDialog = dialog => { seen.push(`dialog: ${dialog.message()}`); dialog.dismiss().catch(() => {}); };
  const onConsole = message => seen.push(`console: ${message.text()}`);
  const onError = error => seen.push(`pageerror: ${error.message}`);
  page.on("dialog", onDialog);
  page.on("console", onConsole);
  page.on("pageerror", onError);
  await page.setContent(`<!doctype html><html><body>${html}</body></html>`);
  // links only run when followed; handlers only when their event comes
  for (const link of await page.$$("a")) await link.click({ timeout: 1000 }).catch(() => {});
  await page.evaluate(() => {
    for (const el of document.body.querySelectorAll("*")) {
      for (const type of ["mouseover", "mouseenter", "pointerenter", "focus", "click"]) el.dispatchEvent(new Event(type));
    }
  }).catch(() => {});
  await page.waitForTimeout(300);
  page.off("dialog", onDialog);
  page.off("console", onConsole);
  page.off("pageerror", onError);
  return seen;
}

let browser;
before(async () => { browser = await openPage(); });
after(async () => { await browser?.close(); });

test("the XSS corpus runs nothing after import, and its control does", async () => {
  assert.ok(existsSync(cli), "target/release/icon-engine is built by scripts/build.sh");
  const dir = mkdtempSync(path.join(tmpdir(), "icon-xss-"));
  const entry = {
    _id: "xssxssxssxssxss1",
    name: "XSS",
    pages: corpus.map((html, i) => ({ _id: `page${String(i).padStart(12, "0")}`, name: `P${i}`, sort: i, text: { format: 1, content: html } }))
  };
  writeFileSync(path.join(dir, "xss.json"), JSON.stringify(entry));
  const report = execFileSync(cli, ["import", path.join(dir, "xss.json"), "--out", path.join(dir, "out")], { encoding: "utf8" });
  for (const kind of ["script", "eventHandler", "javascriptUrl", "srcdoc", "object"]) {
    assert.match(report, new RegExp(`\\b${kind}\\b`), `the importer reports ${kind}`);
  }
  const [file] = readdirSync(path.join(dir, "out"));
  const imported = JSON.parse(readFileSync(path.join(dir, "out", file), "utf8"));
  assert.equal(imported.pages.length, corpus.length);

  // the control: unsanitised, the corpus does run (so the listeners work)
  const control = await render(browser.page, corpus.join("\n"));
  assert.ok(control.some(s => s.startsWith("dialog:")), `the control ran nothing: ${control}`);

  for (const page of imported.pages) {
    const seen = await render(browser.page, page.text.content);
    assert.deepEqual(seen, [], `${page.name}: ${page.text.content}`);
  }
});

test("the OWASP XSS filter evasion vectors run nothing after import, and their control does", async () => {
  assert.ok(existsSync(cli), "target/release/icon-engine is built by scripts/build.sh");
  const dir = mkdtempSync(path.join(tmpdir(), "icon-xss-owasp-"));
  const entry = {
    _id: "xssowaspxssowasp",
    name: "OWASP",
    pages: owasp.map((html, i) => ({ _id: `owasp${String(i).padStart(11, "0")}`, name: `O${i}`, sort: i, text: { format: 1, content: html } }))
  };
  writeFileSync(path.join(dir, "owasp.json"), JSON.stringify(entry));
  execFileSync(cli, ["import", path.join(dir, "owasp.json"), "--out", path.join(dir, "out")], { encoding: "utf8" });
  const [file] = readdirSync(path.join(dir, "out"));
  const imported = JSON.parse(readFileSync(path.join(dir, "out", file), "utf8"));
  assert.equal(imported.pages.length, owasp.length);

  // the control: unsanitised, vectors of this list do run in this Chromium
  const control = await render(browser.page, owasp.filter(v => /onerror|svg\/onload|autofocus/.test(v)).join("\n"));
  assert.ok(control.some(s => s.startsWith("dialog:")), `the control ran nothing: ${control}`);

  // a sanitised <img src="#"> still fails to load on about:blank: a failed load runs nothing
  const ran = seen => seen.filter(s => !s.startsWith("console: Failed to load resource"));
  // each page alone, as the journal renders it
  for (const page of imported.pages) {
    const seen = await render(browser.page, page.text.content);
    assert.deepEqual(ran(seen), [], `${page.name}: ${page.text.content}`);
  }
  // and all of them together, in case one vector completes another
  const together = await render(browser.page, imported.pages.map(p => p.text.content).join("\n"));
  assert.deepEqual(ran(together), []);
});

/**
 * Names are the users' own text (issue 25, point 5): an actor, a foe, an ally, a hero, an ability
 * and an odds card's formula written as an `<img onerror>` go through every card, dialog and sheet
 * the system renders, in the shim
 * world booted as the GM (test/browser/foundry-shim.mjs renders a message's flavor as HTML, as
 * v13's chat-message.hbs does), and nothing runs; the same name put into the page as HTML is the
 * control that proves the check would see it.
 */
describe("names reach HTML only as text", () => {
  const world = shimWorldPage({ as: "gm" });

  test("an actor and an ability named <img src=x onerror=...> run nothing through cards, dialogs and sheets", async () => {
    const out = await world.browser.page.evaluate(async () => {
      const evil = who => `<img src=x onerror="globalThis.__xss.push('${who}')">`;
      globalThis.__xss = [];
      const settle = () => new Promise(resolve => setTimeout(resolve, 400));
      // the control: the name as HTML runs
      const control = document.createElement("div");
      control.innerHTML = evil("control");
      document.body.append(control);
      await settle();
      const controlRan = globalThis.__xss.includes("control");
      control.remove();
      globalThis.__xss = [];

      const { default: TacticalRolls } = await import("../../module/dice/tactical-rolls.mjs");
      const { default: CardActions } = await import("../../module/applications/card-actions.mjs");
      const { default: AttackDialog } = await import("../../module/applications/attack-dialog.mjs");
      const { default: ActionRollDialog } = await import("../../module/applications/narrative/action-roll-dialog.mjs");
      const { default: ClockPanel } = await import("../../module/applications/narrative/clock-panel.mjs");
      const { runCombatEffects } = await import("../../module/documents/combat-effects.mjs");
      const { attackTargetOf, initialAttackState } = await import("../../module/dice/tactical-requests.mjs");
      const rendered = [];

      const hero = await Actor.implementation.create({ name: evil("actor"), type: "character",
        items: [{ name: evil("ability"), type: "ability", system: { tags: ["attack"] } }] });
      const ally = await Actor.implementation.create({ name: evil("ally"), type: "character", system: { vigilance: 2 } });
      const foe = await Actor.implementation.create({ name: evil("foe"), type: "foe" });
      const other = await Actor.implementation.create({ name: evil("hero"), type: "hero" });
      const ability = hero.items.contents[0];
      // sheets
      for (const doc of [hero, foe, other, ability]) {
        await doc.sheet.render({ force: true });
        rendered.push(doc.sheet.element?.outerHTML ?? "");
      }
      // the attack dialog, then the attack's card (its flavor is the ability's name), Apply and its breakdown
      // (its footer is core's templates/generic/form-footer.hbs, not served here: its own parts are rendered)
      const dialog = new AttackDialog({ actor: hero, ability });
      const context = await dialog._prepareContext({});
      for (const part of ["form", "odds"]) rendered.push(await foundry.applications.handlebars.renderTemplate(AttackDialog.PARTS[part].template, context));
      rendered.push(`<h1>${foundry.utils.escapeHTML(dialog.title)}</h1>`);
      const target = attackTargetOf({ uuid: foe.uuid, name: foe.name, img: "", system: foe.system, statuses: [] });
      const random = CONFIG.Dice.randomUniform;
      CONFIG.Dice.randomUniform = () => 0.999999;
      const attack = await TacticalRolls.attack(hero, initialAttackState({ targets: [target] }), { ability });
      await CardActions.run(attack, { action: "damage", key: 0 }, game.user);
      // Vigilance from the ally: its prompt (rendered here) and the roll it posts, the names in its flavor
      Object.defineProperty(game.user, "character", { value: ally, configurable: true });
      const input = foundry.applications.api.DialogV2.input;
      foundry.applications.api.DialogV2.input = async ({ content }) => {
        rendered.push(content);
        return { spender: ally.uuid, charges: 1 };
      };
      // (Vigilance: "When an ally in range 2 is damaged by a foe's ability": the foe attacks the hero)
      const second = await TacticalRolls.attack(foe, initialAttackState({ targets: [attackTargetOf({ uuid: hero.uuid, name: hero.name,
        img: "", system: hero.system, statuses: [] })] }));
      // the chat log renders the card when it likes: wait for its Vigilance button
      let vigilance = null;
      for (let i = 0; i < 250 && !vigilance; i++) {
        vigilance = document.querySelector(`#chat [data-message-id="${second.id}"] [data-card-action="vigilance"]`);
        if (!vigilance) await new Promise(resolve => setTimeout(resolve, 20));
      }
      vigilance?.click();
      for (let i = 0; i < 100 && !second.getFlag("icon-engine", "damageApplied"); i++) await new Promise(resolve => setTimeout(resolve, 20));
      foundry.applications.api.DialogV2.input = input;
      // Slashed, a save, a cure: their cards name the actor
      await hero.toggleStatusEffect("slashed", { active: true });
      await TacticalRolls.slashed(hero);
      await TacticalRolls.save(hero);
      await TacticalRolls.heal(hero, "cure");
      CONFIG.Dice.randomUniform = random;
      // an action roll: its dialog's title and its card's flavor hold the actor's name
      const action = await ActionRollDialog.open(hero, "sneak");
      rendered.push(action?.element?.outerHTML ?? "");
      await action?.options.form.handler.call(action, new Event("submit"), action.element, { object: {} });
      // a clock named so on the GM's panel
      await game.settings.set("icon-engine", "clocks", [{ id: "c1", name: evil("clock"), segments: 4, filled: 1 }]);
      const panel = await ClockPanel.open();
      rendered.push(panel?.element?.outerHTML ?? "");
      // the end-of-turn saves card names the combatant
      await foe.toggleStatusEffect("dazed", { active: true });
      const combatant = { id: "c1", name: foe.name, actor: foe, token: null };
      const combat = { round: 1, turns: [combatant], combatants: Object.assign(new Map([["c1", combatant]]), { [Symbol.iterator]: function* () { yield combatant; } }) };
      const noop = async () => {};
      await runCombatEffects(combat, [{ type: "turnEnded", id: "c1" }, { type: "delayFired", id: "c1" }],
        { startTurn: noop, clearMovement: noop, endTurn: noop, startRound: noop, endRound: noop });
      // an odds card's formula is its author's text: rolling from it puts the formula in the flavor
      const { default: OddsReport } = await import("../../module/dice/odds-report.mjs");
      const odds = await OddsReport.toMessage({ kind: "dice", formula: "1d6" });
      await odds.setFlag("icon-engine", "odds.formula", evil("formula"));
      const count = game.messages.size;
      // the chat log renders the card when it likes (its render is asynchronous, as Foundry's is)
      let rollButton = null;
      for (let i = 0; i < 100 && !rollButton; i++) {
        rollButton = document.querySelector(`#chat [data-message-id="${odds.id}"] [data-icon-engine-action="roll"]`);
        if (!rollButton) await new Promise(resolve => setTimeout(resolve, 20));
      }
      rollButton?.click();
      for (let i = 0; i < 100 && game.messages.size === count; i++) await new Promise(resolve => setTimeout(resolve, 20));
      // everything rendered so far, in the page at once
      const host = document.createElement("div");
      host.innerHTML = rendered.join("\n");
      document.body.append(host);
      await settle();
      const chat = document.querySelector("#chat").textContent;
      return { controlRan, ran: globalThis.__xss, messages: game.messages.size,
        namesShown: ["actor", "ability", "ally", "foe", "formula"].filter(who => chat.includes(evil(who))),
        flavors: game.messages.contents.map(m => m.flavor).filter(Boolean) };
    });
    assert.equal(out.controlRan, true, "the control ran: the check sees a name that reaches HTML");
    assert.deepEqual(out.ran, [], "nothing ran");
    assert.ok(out.messages >= 8, `${out.messages} cards posted`);
    assert.deepEqual(out.namesShown, ["actor", "ability", "ally", "foe", "formula"], "the names are on the cards, as text");
    assert.ok(out.flavors.some(f => f.startsWith("&lt;img")), `the attack's flavor is escaped: ${out.flavors}`);
    assert.ok(out.flavors.some(f => f.includes("Vigilance") || f.includes("&lt;img src=x onerror=\"globalThis.__xss.push('ally')")),
      `the Vigilance roll's flavor names the ally, escaped: ${out.flavors}`);
    // the control's <img src=x> fails to load: nothing else may go wrong
    assert.deepEqual(world.browser.errors.filter(e => !/Failed to load resource.*\/test\/browser\/x\)$/.test(e)), []);
  });
});
