/**
 * The guide at the table, in the shim's world as a player: the "ICON Engine Guide" compendium
 * (the compiled pack, read back with foundryvtt-cli, installed as Foundry installs a system's
 * packs), the `/icon help` card and its links into the guide's pages, and every command the
 * guide's command table lists answered by the system. Screenshots in test-results/
 * (guide-help-card.png, guide-page.png).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { extractPack } from "@foundryvtt/foundryvtt-cli";
import { openHarness } from "../support/browser.mjs";

const root = new URL("../../", import.meta.url);
const results = fileURLToPath(new URL("test-results/", root));
const markdown = await readFile(new URL("docs/guide.md", root), "utf8");

/** The first cell of each row of the table under a `###` heading of the guide, code unwrapped. */
function firstColumn(heading) {
  const section = markdown.slice(markdown.indexOf(`\n### ${heading}\n`) + 1).split(/\n#{1,3} /)[0];
  return section.split("\n").filter(line => /^\|/.test(line) && !/^\| *-/.test(line)).slice(1)
    .map(line => line.split("|")[1].trim().replace(/^`(.*)`$/, "$1"));
}

/** The examples of the guide's command table (its third column). */
const examples = markdown.slice(markdown.indexOf("\n### Chat commands\n")).split(/\n#{1,3} /)[1]
  .split("\n").filter(line => /^\| `\//.test(line)).map(line => line.split("|")[3].trim().replace(/^`(.*)`$/, "$1"));

describe("the guide in a world", () => {
  /** @type {Awaited<ReturnType<typeof openHarness>>} */
  let browser;
  /** @type {Record<string, unknown>[]} */
  let settings;

  before(async () => {
    const manifest = JSON.parse(await readFile(new URL("system.json", root), "utf8"));
    const declared = manifest.packs.find(p => p.name === "guide");
    const out = await mkdtemp(path.join(tmpdir(), "icon-guide-"));
    await extractPack(fileURLToPath(new URL(declared.path, root)), out);
    const sources = await Promise.all((await readdir(out)).filter(f => f.endsWith(".json"))
      .map(async f => JSON.parse(await readFile(path.join(out, f), "utf8"))));
    await rm(out, { recursive: true, force: true });

    browser = await openHarness({ as: "player", viewport: { width: 900, height: 900 }, arg: { declared, sources },
      beforeInit: (shim, { declared, sources }) => {
        // what the system registers for the settings window: settings shown there, and menus (read once the world is up)
        const shown = [];
        shim.installPack(declared, sources);
        const { register, registerMenu } = game.settings;
        game.settings.register = (namespace, key, config) => {
          if (namespace === "icon-engine" && config.config) shown.push({ key, name: game.i18n.localize(config.name) });
          return register.call(game.settings, namespace, key, config);
        };
        game.settings.registerMenu = (namespace, key, config) => {
          shown.push({ key, name: game.i18n.localize(config.name), menu: true });
          return registerMenu.call(game.settings, namespace, key, config);
        };
        return shown;
      } });
    settings = browser.init;
  });

  after(async () => {
    await browser?.close();
  });

  /**
   * Type a line into the chat as the generation's chat input hands it to ChatLog#processMessage
   * (v13: the text, the `chatMessage` hook first; v14: the editor's HTML, then the command
   * registry). Whether Foundry went on to post it itself: false when the system took it.
   */
  const say = line => browser.page.evaluate(async line => {
    const { chatInput } = await import("./foundry-shim.mjs");
    return (await ui.chat.processMessage(chatInput(line))) !== undefined;
  }, line);

  /** The newest message once there are more than `count`. */
  const nextMessage = count => browser.page.waitForFunction(count => game.messages.size > count && game.messages.contents.at(-1).id, count);

  test("the guide compendium is there for a player, and opens at its first page", async () => {
    const opened = await browser.page.evaluate(async () => {
      const pack = game.packs.get("icon-engine.guide");
      const entries = await pack.getDocuments();
      const sheet = entries[0].sheet;
      await sheet.render(true);
      const shown = { title: pack.title, visible: pack.visible, entries: entries.map(e => e.name), pages: entries[0].pages.size,
        page: sheet.element.querySelector(".journal-entry-page h1, .journal-entry-page h2")?.textContent };
      await sheet.close();
      return shown;
    });
    assert.deepEqual(opened, { title: "ICON Engine Guide", visible: true, entries: ["ICON Engine Guide"],
      pages: (markdown.match(/^#{1,3} /gm) ?? []).length, page: "ICON Engine Guide" });
  });

  test("/icon help posts a card of every command, to the player alone, each linked to its page of the guide", async () => {
    // A glossary with words of the card: as one of the system's own cards it is shown as stored,
    // its links made when posted and no glossary tooltip put into it (module/enrichers.mjs SYSTEM_CARDS).
    const count = await browser.page.evaluate(async () => {
      const { default: IconEnrichers } = await import("../../module/enrichers.mjs");
      IconEnrichers.registerGlossary(["odds", "clocks", "guide"].map(key => ({ key, definition: `About ${key}.` })));
      return game.messages.size;
    });
    assert.equal(await say("/icon help"), false, "the system takes the command");
    await nextMessage(count);
    const card = await browser.page.evaluate(() => {
      const message = game.messages.contents.at(-1);
      const element = document.querySelector(`#chat [data-message-id="${message.id}"]`);
      const stored = document.createElement("template");
      stored.innerHTML = message.content;
      CONFIG.TextEditor.enrichers.pop();
      return {
        asStored: element.querySelector(".message-content").innerHTML === stored.innerHTML,
        storedLinks: stored.content.querySelectorAll("a.content-link").length,
        terms: element.querySelectorAll(".icon-term").length,
        help: message.getFlag("icon-engine", "help"), whisper: message.whisper,
        rows: [...element.querySelectorAll(".help-command")].map(row => ({
          syntax: row.dataset.syntax,
          link: row.querySelector("a.content-link")?.textContent.trim() ?? null,
          broken: !!row.querySelector("a.broken")
        })),
        guide: element.querySelector(".help-guide a.content-link")?.textContent.trim()
      };
    });
    assert.equal(card.help, true);
    assert.equal(card.asStored, true, "shown as stored");
    assert.equal(card.storedLinks, card.rows.length + 1, "its content links are stored");
    assert.equal(card.terms, 0, "no glossary tooltip in the card");
    assert.deepEqual(card.whisper, ["playerUser000000"], "only the player who asked sees it");
    assert.deepEqual(card.rows.map(r => r.syntax), firstColumn("Chat commands"), "the card lists the guide's commands");
    assert.ok(card.rows.every(r => r.link && !r.broken), JSON.stringify(card.rows));
    assert.equal(card.rows.find(r => r.syntax === "/odds <formula>")?.link, "See the odds: /odds", "the link is named by its page");
    assert.equal(card.guide, "Open the ICON Engine Guide");
    await mkdir(results, { recursive: true });
    await browser.page.locator("#chat .chat-message").last().screenshot({ path: `${results}guide-help-card.png` });
  });

  test("a link on the card opens the guide at its page, with its images", async () => {
    const opened = await browser.page.evaluate(async () => {
      const message = game.messages.contents.at(-1);
      const row = document.querySelector(`#chat [data-message-id="${message.id}"] .help-command[data-syntax="/odds <formula>"]`);
      row.querySelector("a.content-link").click();
      const deadline = Date.now() + 5000;
      let page = null;
      while (!page && Date.now() < deadline) {
        page = document.querySelector(".journal-sheet .journal-entry-page");
        if (!page) await new Promise(r => setTimeout(r, 20));
      }
      const images = [...page.querySelectorAll("img")];
      await Promise.all(images.map(i => i.decode().catch(() => null)));
      return { title: page.querySelector("h1, h2, h3")?.textContent, pageId: page.dataset.pageId,
        images: images.map(i => ({ src: i.getAttribute("src"), width: i.naturalWidth })),
        text: page.querySelector(".journal-page-content").textContent };
    });
    assert.equal(opened.title, "See the odds: /odds");
    assert.match(opened.text, /\/odds 4d6kh3/);
    assert.deepEqual(opened.images.map(i => i.src), ["systems/icon-engine/assets/guide/odds-card.webp"]);
    assert.ok(opened.images.every(i => i.width > 0), "the image loaded from the system's folder");
    await browser.page.locator(".journal-sheet").screenshot({ path: `${results}guide-page.png` });
    // every link of that kind resolves: each page's images load
    const broken = await browser.page.evaluate(async () => {
      const [entry] = await game.packs.get("icon-engine.guide").getDocuments();
      const sheet = entry.sheet;
      const failed = [];
      for (const page of entry.pages) {
        await sheet.render(true, { pageId: page.id });
        for (const image of sheet.element.querySelectorAll("img")) {
          await image.decode().catch(() => null);
          if (!image.naturalWidth) failed.push(`${page.name}: ${image.getAttribute("src")}`);
        }
        for (const link of sheet.element.querySelectorAll("a.content-link.broken")) failed.push(`${page.name}: ${link.textContent}`);
        // code shows syntax as typed: no enricher turned it into a link
        for (const code of sheet.element.querySelectorAll("code")) if (code.querySelector("a, .icon-damage-die")) failed.push(`${page.name}: ${code.textContent}`);
      }
      const links = entry.pages.find(p => p.name === "Roll links in journals");
      await sheet.render(true, { pageId: links.id });
      const codes = [...sheet.element.querySelectorAll("code")].map(c => c.textContent);
      if (!codes.includes("@Icon[attack boons=1]{Strike}")) failed.push(`Roll links in journals shows ${codes.join(", ")}`);
      await sheet.close();
      return failed;
    });
    assert.deepEqual(broken, []);
  });

  test("/icon with no subcommand, or one it does not know, answers with the card", async () => {
    for (const [line, said] of [["/icon frobnicate now", "/icon frobnicate is not a command of ICON Engine"], ["/icon", "/icon takes a subcommand"],
      ["/icon @UUID[Actor.x]{y} [[/r 1d20]]", "/icon … is not a command of ICON Engine"]]) {
      const count = await browser.page.evaluate(() => game.messages.size);
      assert.equal(await say(line), false, line);
      await nextMessage(count);
      const card = await browser.page.evaluate(() => {
        const message = game.messages.contents.at(-1);
        const element = document.querySelector(`#chat [data-message-id="${message.id}"]`);
        return { unknown: element.querySelector(".help-unknown")?.textContent, rows: element.querySelectorAll(".help-command").length,
          links: element.querySelectorAll("a").length };
      });
      assert.ok(card.unknown?.startsWith(said), `${line}: ${card.unknown}`);
      assert.equal(card.links, card.rows + 1, `${line}: the card's own links only`);
      assert.equal(card.rows, firstColumn("Chat commands").length);
    }
  });

  test("every command the guide lists is one the system answers", async () => {
    assert.ok(examples.length >= 5, examples.join(", "));
    for (const line of examples) {
      const before = await browser.page.evaluate(() => {
        ui.notifications.queue.length = 0;
        return { messages: game.messages.size, windows: [...foundry.applications.instances.keys()] };
      });
      assert.equal(await say(line), false, `${line}: the system takes it`);
      const answer = await browser.page.waitForFunction(before => {
        const windows = [...foundry.applications.instances.keys()].filter(id => !before.windows.includes(id));
        const messages = game.messages.size - before.messages;
        const notices = ui.notifications.queue.map(n => `${n.type}: ${n.message}`);
        return (messages || windows.length || notices.length) ? { messages, windows, notices } : null;
      }, before, { timeout: 10_000 }).then(handle => handle.jsonValue());
      assert.deepEqual(answer.notices.filter(n => /^(error|warning)/.test(n)), [], `${line} answered without a complaint`);
      // close what it opened, for the next command
      await browser.page.evaluate(windows => Promise.all(windows.map(id => foundry.applications.instances.get(id)?.close())), answer.windows);
    }
    // and Foundry's own commands stay Foundry's
    assert.equal(await say("/roll 1d20"), true);
  });

  test("every setting of the settings window is in the guide's settings table", () => {
    assert.deepEqual(settings.map(s => s.name).sort(), [...firstColumn("Settings")].sort());
  });

  test("no page errors", () => {
    assert.deepEqual(browser.errors, []);
  });
});
