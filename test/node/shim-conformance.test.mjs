/**
 * The browser tests' Foundry shim is held to foundry-vtt-types (scripts/shim-conformance.mjs, run
 * by `npm run typecheck`). Here: the real shim passes with its members actually checked, every one
 * of its modules read (test/browser/foundry-shim.mjs and test/browser/shim/*.mjs), and each kind of
 * invention planted into a copy of it (a member, a global, a class member, a signature, a hook),
 * in one of its modules, is caught and named; the CLI fails on one, as the build does.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_SHIM, checkShims } from "../../scripts/shim-conformance.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The real shim's folder: its entry (foundry-shim.mjs) and the modules it composes (shim/*.mjs). */
const SHIM_DIR = dirname(DEFAULT_SHIM);

/**
 * Copies of the real shim, each with one invention planted in one of its modules (`into`, from the
 * entry's folder); the problem it must produce.
 */
const PLANTED = {
  member: {
    into: "shim/base.mjs",
    plant: shim => `${shim}\nglobalThis.foundry.applications.handlebars.renderTemplates = renderTemplate;\n`,
    problem: /^foundry\.applications\.handlebars\.renderTemplates: no such member/
  },
  literalMember: {
    into: "shim/base.mjs",
    plant: shim => shim.replace("{ i18n: { lang: \"en\", localize, format, has } }", "{ i18n: { lang: \"en\", localize, format, has, translate: localize } }"),
    problem: /^game\.i18n\.translate: no such member/
  },
  global: {
    into: "foundry-shim.mjs",
    plant: shim => `${shim}\nglobalThis.FoundryInvented = { ready: true };\n`,
    problem: /^FoundryInvented: the shim provides a global that foundry-vtt-types does not declare/
  },
  signature: {
    into: "shim/base.mjs",
    plant: shim => `${shim}\nglobalThis.game.i18n.localize = (/** @type {number} */ n) => n;\n`,
    problem: /^game\.i18n\.localize: the shim's parameters/
  },
  returnType: {
    into: "shim/base.mjs",
    plant: shim => `${shim}\nglobalThis.foundry.applications.handlebars.renderTemplate = (/** @type {string} */ path) => path;\n`,
    problem: /^foundry\.applications\.handlebars\.renderTemplate: returns string, Foundry's returns a Promise/
  },
  classMember: {
    into: "shim/dice.mjs",
    plant: shim => `${shim}\nclass PlantedRoll {\n  /** @param {string} formula */\n  constructor(formula) { this.formula = formula; }\n`
      + "  async evaluate() { return this; }\n  rerollAll() { return this; }\n}\nglobalThis.Roll = PlantedRoll;\n",
    problem: /^Roll#rerollAll: no such member/
  },
  // The shim's own classes reach each other (arrays of them, what their methods return).
  arrayElement: {
    into: "shim/world.mjs",
    plant: shim => `${shim}\nglobalThis.CONFIG.Dice.rolls = [class { rerollEverything() { return 1; } }];\n`,
    problem: /^CONFIG\.Dice\.rolls\[\]#rerollEverything: no such member/
  },
  hookFamily: {
    into: "shim/documents.mjs",
    plant: shim => `${shim}\nconst planted = "Thing";\nHooks.callAll(\`iconInvented\${planted}\`, 1);\n`,
    problem: /^hook family "iconInvented\*" \(Hooks\.callAll\): no hook foundry-vtt-types declares has this shape/
  },
  hook: {
    into: "shim/canvas.mjs",
    plant: shim => `${shim}\nHooks.callAll("iconEngineInvented", 1);\n`,
    problem: /^hook "iconEngineInvented" \(Hooks\.callAll\): not a hook foundry-vtt-types declares/
  },
  deprecatedHook: {
    into: "shim/applications.mjs",
    plant: shim => `${shim}\nHooks.callAll("renderChatMessage", null, null, {});\n`,
    problem: /^hook "renderChatMessage" \(Hooks\.callAll\): deprecated in v13/
  },
  hookArguments: {
    into: "shim/applications.mjs",
    plant: shim => `${shim}\nHooks.callAll("renderChatMessageHTML", "message", document.body, {});\n`,
    problem: /^hook "renderChatMessageHTML" \(Hooks\.callAll\): argument 1 \(message\)/
  },
  // A null return fits a declared `T | null` (ChatMessage.getSpeakerActor), never a declared `T`.
  nullReturn: {
    into: "shim/documents.mjs",
    plant: shim => `${shim}\nglobalThis.ChatMessage.getSpeaker = () => null;\n`,
    problem: /^ChatMessage\.getSpeaker\(\): the shim's null does not fit/
  },
  helper: {
    into: "shim/base.mjs",
    plant: shim => `${shim}\nHandlebars.registerHelper("iconInvented", () => "");\n`,
    problem: /^Handlebars helper "iconInvented": Foundry has no such helper/
  },
  uncheckedWithoutReason: {
    into: "shim/utils.mjs",
    plant: shim => `${shim}\n/** @shim-unchecked */\nglobalThis.harnessOnly = 1;\n`,
    problem: /^@shim-unchecked without a reason/
  }
};

describe("foundry-shim conformance to foundry-vtt-types", () => {
  /** @type {string} */
  let dir;
  /** The planted copies' entries, by plant. @type {Record<string, string>} */
  const files = {};
  /** @type {ReturnType<typeof checkShims>} */
  let result;
  /** The planted module's lines before the plant, by plant. @type {Record<string, number>} */
  const shimLines = {};

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "icon-engine-shim-"));
    for (const [name, { into, plant }] of Object.entries(PLANTED)) {
      const copy = join(dir, name);
      await cp(join(SHIM_DIR, "foundry-shim.mjs"), join(copy, "foundry-shim.mjs"));
      await cp(join(SHIM_DIR, "shim"), join(copy, "shim"), { recursive: true });
      const shim = await readFile(join(copy, into), "utf8");
      shimLines[name] = shim.split("\n").length;
      const text = plant(shim);
      assert.notEqual(text, shim, `${name}: the plant changed nothing (the shim's text moved?)`);
      await writeFile(join(copy, into), text);
      files[name] = join(copy, "foundry-shim.mjs");
    }
    result = checkShims([DEFAULT_SHIM, ...Object.values(files)]);
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("the system's own declaration files have no errors", () => {
    assert.deepEqual(result.declarations, []);
  });

  test("the browser shim has no member without a counterpart, and its members are checked", async () => {
    const report = result.shims.get(DEFAULT_SHIM);
    assert.ok(report);
    assert.deepEqual(report.problems, []);
    // Every module of the shim is read: the entry, then each namespace module it composes.
    assert.equal(report.files[0], "foundry-shim.mjs");
    assert.deepEqual(report.files.slice(1).sort(), (await readdir(join(SHIM_DIR, "shim"))).filter(f => f.endsWith(".mjs")).map(f => `shim/${f}`).sort());
    // The base the card tests use, the world installWorld() builds (documents, dice, sheets, the
    // chat log's members module/types/chat-log.d.ts declares, Roll's protected chat context from
    // module/types/roll.d.ts), and the document hooks named per document.
    for (const member of ["game.i18n.localize", "game.i18n.format", "foundry.applications.handlebars.renderTemplate",
      "foundry.applications.handlebars.loadTemplates", 'Handlebars helper "localize"', "CONFIG.Actor.documentClass (class)",
      "CONFIG.Actor.documentClass#toggleStatusEffect", "CONFIG.Dice.rolls[]#_prepareChatRenderContext", "CONFIG.ui.chat#postOne",
      "CONFIG.ui.chat#processMessage", 'hook "canvasReady" (Hooks.callAll) argument 1 (canvas).regions.placeRegion',
      "CONST.USER_ROLES.GAMEMASTER", "foundry.applications.api.DocumentSheetV2 (class)", 'hook family "preCreate*" (Hooks.call)',
      'hook "renderChatMessageHTML" (Hooks.callAll)']) {
      assert.ok(report.checked.includes(member), `${member} was not checked: ${report.checked.join(", ")}`);
    }
    // What is not Foundry API, or cannot be typed as Foundry types it, and says why.
    assert.deepEqual([...new Set(report.unchecked.map(line => line.replace(/^[\w/.-]+ line \d+: (\w+: )?/, "")))], [
      "the page's ready flag for the tests, not Foundry API",
      "Foundry types the parent per document class (an Actor's TokenDocument, an Item's Actor); the shim's one base keeps the parent its collection gave",
      "v13's is `{type: documentName, uuid}`; foundry-vtt-types 13.345's DropData leaves `type` out",
      "v13's and v14's preMoveToken hook (API hookEvents.preMoveToken), which foundry-vtt-types 13.345 does not declare",
      "test plumbing: Foundry's MouseInteractionManager of the layer",
      "test plumbing: Foundry's placeables follow their documents by themselves",
      "test plumbing: stands in for PIXI's rendering, for screenshots",
      "test plumbing: PIXI's event system, from the DOM",
      "what was shown, for the tests to read (Foundry's queue holds only what waits to be shown)",
      "foundry-vtt-types 13.345 declares CONFIG.RegionBehavior.documentClass as the Region class (API v13 CONFIG.RegionBehavior: RegionBehavior)",
      "Foundry types the document it resolves per document class; the shim's one base resolves the UUID for all",
      "v14's entries ({label, visible, onClick}: API v14 foundry.ContextMenuEntry) are not in foundry-vtt-types 13, which holds only v13's",
      "Foundry types the set by its configured TokenDocument class; the shim's one class is that",
      "Foundry types the return by its `document` argument (a conditional type)",
      "v14 only (API v14 ActiveEffect#isExpiryEvent); foundry-vtt-types 13 has no such member",
      "the shim's movement has the members the system reads (id, origin, destination, method, passed, pending, updateOptions), not all of TokenMovementData's",
      "v14's foundry.data.operators (API v14 namespace foundry.data.operators) is not in foundry-vtt-types 13",
      "v14's CONFIG.ActiveEffect.expiryEvents and expiryAction (API v14 variables/CONFIG.ActiveEffect.html) are not in foundry-vtt-types 13"
    ]);
  });

  for (const [name, { into, problem }] of Object.entries(PLANTED)) {
    test(`a planted ${name} is caught`, () => {
      const report = result.shims.get(files[name]);
      assert.ok(report);
      assert.ok(report.problems.some(line => problem.test(line)), `expected ${problem}, got:\n${report.problems.join("\n")}`);
      // Every problem is the plant's: the rest of the shim (the other modules, and the planted
      // module's lines before the plant) still conforms.
      const at = report.problems.filter(line => !problem.test(line)).map(line => /\(([\w/.-]+) line (\d+)\)$/.exec(line));
      assert.ok(at.every(match => match?.[1] === into && Number(match[2]) > shimLines[name]), report.problems.join("\n"));
    });
  }

  test("the CLI (what npm run typecheck runs) fails on a planted member and names it", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "scripts/shim-conformance.mjs"), files.member], { encoding: "utf8" });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /PROBLEM +foundry\.applications\.handlebars\.renderTemplates: no such member/);
  });
});
