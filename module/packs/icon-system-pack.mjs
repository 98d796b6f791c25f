/**
 * Another ICON system's exported compendium as a content pack (issue 37, item 4): the documents of
 * the Svelte-based "ICON" system for Foundry (its item types `ability`, `trait`, `relic`, `job`,
 * `bond`, `bond_power`; its actor types `foe`, `summon`, `player`), as an export gives them (a
 * compendium's NeDB log, a JSON array of documents, or one document). Each ability's first choice
 * (its cost in actions, ranges, tags, trigger, effect lines and description) is written back as
 * ability text and read by the importer's parser (`parseAbilityText`), so it lands in this
 * system's fields as pasted text does; its other choices become its Combo text. A foe's class
 * (its colour), template, chapter and numbers map to this system's; its embedded abilities and
 * traits become the pack's records it carries. What has no counterpart here (bonds, bond powers,
 * player characters) is a bad record naming its type, a summon is a foe with a warning: every
 * document is accounted for in the content-pack report.
 * @import { BadRecord, Warning } from "./content-pack.mjs"
 * @import { PasteApi } from "./paste.js"
 */
import { CONTENT_PACK_FORMAT, CONTENT_PACK_VERSION, recordIdMaker } from "./content-pack.mjs";

/** Its class colours, as this system's foe classes and player classes. */
const FOE_CLASS = /** @type {Record<string, string>} */ ({ red: "heavy", yellow: "skirmisher", blue: "artillery", green: "leader" });
const PLAYER_CLASS = /** @type {Record<string, string>} */ ({ red: "stalwart", yellow: "vagabond", blue: "wright", green: "mendicant" });

/** The most documents one export holds. */
export const MAX_DOCUMENTS = 2000;

/**
 * @typedef {{name?: string | null, description?: string, actions?: number | null, ranges?: unknown[], tags?: unknown[], trigger?: string,
 *   resolve?: number, effects?: unknown[]}} Choice  One of an ability's choices, as that system stores it.
 * @typedef {{color?: string, vitality?: number, speed?: number, dash?: number, defense?: number, fray_damage?: number,
 *   damage_die?: number} & Record<string, unknown>} ClassData
 * @typedef {{choices?: Choice[], trait?: boolean, description?: string, class?: ClassData, template?: string, chapter?: number,
 *   abilities?: unknown[]}} SourceSystem
 * @typedef {{_id?: unknown, name?: unknown, type?: unknown, system?: SourceSystem, items?: unknown}} Doc
 */

/**
 * The documents of an export's text: NeDB lines (the last line of an `_id` winning, deletions
 * applied), a JSON array, or one document.
 * @param {string} text
 * @returns {{documents: Doc[], bad: BadRecord[]}}
 */
export function exportDocuments(text) {
  /** @type {BadRecord[]} */
  const bad = [];
  const trimmed = text.trim();
  try {
    const value = JSON.parse(trimmed);
    return { documents: Array.isArray(value) ? value : [value], bad };
  } catch {
    // a log: one document a line
  }
  /** @type {Map<string, Doc>} */
  const byId = new Map();
  trimmed.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    try {
      const doc = JSON.parse(line);
      if (doc && typeof doc === "object" && !Array.isArray(doc) && doc._id) {
        if (doc.$$deleted) byId.delete(String(doc._id));
        else byId.set(String(doc._id), doc);
      }
    } catch (error) {
      bad.push({ kind: "pack", id: `line ${index + 1}`, index, field: "(line)", message: `not JSON: ${error instanceof Error ? error.message : String(error)}` });
    }
  });
  return { documents: [...byId.values()], bad };
}

/**
 * An export of that system as a content pack, with what the conversion could not carry.
 * @param {string} text  The export's text.
 * @param {Pick<PasteApi, "parseAbilityText">} importer
 * @param {{id?: string, name?: string}} [options]
 * @returns {{pack: Record<string, unknown>, bad: BadRecord[], warnings: Warning[]}}
 */
export function iconSystemPack(text, importer, { id = "icon-system-import", name = "ICON system import" } = {}) {
  const { documents, bad } = exportDocuments(text);
  if (documents.length > MAX_DOCUMENTS) throw new Error(`at most ${MAX_DOCUMENTS} documents in one export, not ${documents.length}`);
  /** @type {Warning[]} */
  const warnings = [];
  const idOf = recordIdMaker();
  /** @type {Record<string, Record<string, unknown>[]>} */
  const out = { abilities: [], traits: [], relics: [], jobs: [], foes: [] };
  /** Record ids by the source document's _id (for a job's abilities). @type {Map<string, string>} */
  const recordOf = new Map();
  /** @type {{doc: Doc, index: number}[]} */
  const jobs = [];

  /**
   * An item document as a record of the pack, or why not.
   * @param {Doc} doc
   * @param {string} prefix
   * @returns {{kind: string, record: Record<string, unknown>} | {error: string, field: string}}
   */
  const itemRecord = (doc, prefix) => {
    const itemName = typeof doc.name === "string" && doc.name.trim() ? doc.name.trim() : "";
    if (!itemName) return { error: "missing: every document has a name", field: "name" };
    const system = /** @type {SourceSystem} */ (doc.system && typeof doc.system === "object" ? doc.system : {});
    const recordId = idOf(`${prefix}${itemName}`);
    switch (doc.type) {
      case "ability": case "foe_action": {
        if (system.trait === true && !(Number(system.choices?.[0]?.actions ?? -1) >= 0)) {
          return { kind: "traits", record: { id: recordId, name: itemName, description: paragraphs(choiceText(system.choices?.[0], itemName, false)) } };
        }
        const choices = Array.isArray(system.choices) ? system.choices : [];
        const first = choices[0];
        if (!first) return { error: "an ability with no choice (its cost, tags and effects)", field: "system.choices" };
        const { items, unparsed } = importer.parseAbilityText(choiceText(first, itemName, true));
        const [item] = items;
        if (!item) return { error: `not read as an ability: ${choiceText(first, itemName, true).slice(0, 80)}`, field: "system.choices.0" };
        for (const piece of unparsed) warnings.push({ kind: "abilities", id: itemName, field: "system.choices.0", message: `${piece.reason}: ${piece.text}` });
        /** @type {Record<string, unknown>} */
        const record = { id: recordId, name: itemName, ...item.system };
        if (choices.length > 1) {
          record.combo = paragraphs(choices.slice(1).map(c => choiceText(c, c?.name || itemName, false)).join("\n"));
          record.tags = [...new Set([...(/** @type {string[]} */ (record.tags ?? [])), "combo"])];
        }
        const resolve = Number(first.resolve);
        if (Number.isInteger(resolve) && resolve > 0 && resolve <= 10 && record.resolveCost === undefined) record.resolveCost = resolve;
        return { kind: "abilities", record };
      }
      case "trait": return { kind: "traits", record: { id: recordId, name: itemName, description: paragraphs(htmlText(system.description)) } };
      case "relic": return { kind: "relics", record: { id: recordId, name: itemName, description: paragraphs(htmlText(system.description)) } };
      default: return { error: `a ${JSON.stringify(doc.type)} has no counterpart in this system`, field: "type" };
    }
  };

  documents.forEach((doc, index) => {
    const label = typeof doc?.name === "string" && doc.name ? doc.name : `#${index + 1}`;
    if (!doc || typeof doc !== "object") { bad.push({ kind: "pack", id: label, index, field: "(document)", message: "not a JSON object" }); return; }
    if (doc.type === "job") { jobs.push({ doc, index }); return; }
    if (doc.type === "foe" || doc.type === "summon") {
      const system = /** @type {SourceSystem} */ (doc.system && typeof doc.system === "object" ? doc.system : {});
      const foeName = typeof doc.name === "string" && doc.name.trim() ? doc.name.trim() : "";
      if (!foeName) { bad.push({ kind: "foes", id: label, index, field: "name", message: "missing: every document has a name" }); return; }
      if (doc.type === "summon") warnings.push({ kind: "foes", id: foeName, field: "type", message: "a summon: imported as a foe" });
      /** @type {Record<string, unknown>} */
      const foe = { id: idOf(`foe-${foeName}`), name: foeName, abilities: [], traits: [], relics: [] };
      const cls = /** @type {ClassData} */ (system.class && typeof system.class === "object" ? system.class : {});
      const foeClass = FOE_CLASS[String(cls.color ?? "").toLowerCase()];
      if (foeClass) foe.foeClass = foeClass;
      const template = String(system.template ?? "").toLowerCase();
      if (["elite", "legend", "mob"].includes(template)) foe.template = template;
      for (const [from, to, min, max] of /** @type {[string, string, number, number][]} */ ([["vitality", "vit", 1, 99], ["defense", "defense", 0, 100],
        ["speed", "speed", 0, 99], ["dash", "dash", 0, 99], ["fray_damage", "fray", 0, 1000]])) {
        const n = Number(cls[from]);
        if (Number.isInteger(n) && n >= min && n <= max) foe[to] = n;
      }
      if ([6, 8, 10, 12].includes(Number(cls.damage_die))) foe.damageDie = Number(cls.damage_die);
      const chapter = Number(system.chapter);
      if ([1, 2, 3].includes(chapter)) foe.chapter = chapter;
      const bio = htmlText(system.description);
      if (bio) foe.biography = paragraphs(bio);
      for (const [k, item] of (Array.isArray(doc.items) ? doc.items : []).entries()) {
        const converted = itemRecord(/** @type {Doc} */ (item), `${foeName}-`);
        if ("error" in converted) { warnings.push({ kind: "foes", id: foeName, field: `items.${k}.${converted.field}`, message: `left out: ${converted.error}` }); continue; }
        out[converted.kind].push(converted.record);
        /** @type {string[]} */ (foe[converted.kind])?.push(String(converted.record.id));
      }
      out.foes.push(foe);
      return;
    }
    const converted = itemRecord(doc, "");
    if ("error" in converted) { bad.push({ kind: "abilities", id: label, index, field: converted.field, message: converted.error }); return; }
    out[converted.kind].push(converted.record);
    recordOf.set(String(doc._id ?? ""), String(converted.record.id));
  });
  // a job: its class (its colour) and the abilities of the export it lists (compendium UUIDs)
  for (const { doc, index } of jobs) {
    const system = /** @type {SourceSystem} */ (doc.system && typeof doc.system === "object" ? doc.system : {});
    const jobName = typeof doc.name === "string" ? doc.name.trim() : "";
    const cls = PLAYER_CLASS[String(system.class?.color ?? "").toLowerCase()];
    if (!jobName || !cls) { bad.push({ kind: "jobs", id: jobName || `#${index + 1}`, index, field: jobName ? "system.class.color" : "name", message: jobName ? "no class of ICON's four" : "missing" }); continue; }
    const grants = [];
    for (const uuid of Array.isArray(system.abilities) ? system.abilities : []) {
      const record = recordOf.get(String(uuid).split(".").pop() ?? "");
      if (record) grants.push(record);
      else warnings.push({ kind: "jobs", id: jobName, field: "system.abilities", message: `${uuid} is not in this export: not granted` });
    }
    out.jobs.push({ id: idOf(`job-${jobName}`), name: jobName, class: cls, description: paragraphs(htmlText(system.description)), grants });
  }
  return { pack: { format: CONTENT_PACK_FORMAT, version: CONTENT_PACK_VERSION, id, name, ...out }, bad, warnings };
}

/**
 * A choice of that system's ability as ability text: "Name (2 actions, Attack, Range 5): Trigger:
 * ... description ... effect lines".
 * @param {Choice | undefined} choice
 * @param {string} name
 * @param {boolean} header  With its name and cost (the first choice), or its words only.
 */
function choiceText(choice, name, header) {
  if (!choice || typeof choice !== "object") return "";
  const tags = (Array.isArray(choice.tags) ? choice.tags : []).map(String);
  const interrupt = tags.find(t => /^interrupt\b/i.test(t.trim()));
  const cost = interrupt ? interrupt.trim() : choice.actions === 0 ? "free action" : choice.actions === 2 ? "2 actions" : "1 action";
  const rest = [...tags.filter(t => t !== interrupt), ...(Array.isArray(choice.ranges) ? choice.ranges.map(String) : [])]
    .map(t => t.trim()).filter(Boolean)
    // its sizes of blast, as this system's (small 1, medium 2, large 3)
    .map(t => t.replace(/^small blast$/i, "Blast 1").replace(/^medium blast$/i, "Blast 2").replace(/^large blast$/i, "Blast 3"));
  const body = [choice.trigger ? `Trigger: ${choice.trigger}.` : "", htmlText(choice.description),
    ...(Array.isArray(choice.effects) ? choice.effects.map(e => htmlText(String(e))) : [])].filter(Boolean).join("\n");
  return header ? `${name.replace(/[():]/g, " ").trim()} (${[cost, ...rest].join(", ")}): ${body}` : body;
}

/** The text of HTML, a line per paragraph (parsed inert: a template element's content runs nothing). @param {unknown} html */
function htmlText(html) {
  if (typeof html !== "string" || !html.trim()) return "";
  return html.replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#0?39;|&#x27;/g, "'").replace(/&amp;/g, "&")
    .split("\n").map(l => l.trim()).filter(Boolean).join("\n");
}

/** Text as escaped paragraphs, one per line. @param {string} text */
function paragraphs(text) {
  const escape = (/** @type {string} */ s) => s.replace(/[&<>"']/g, c => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#x27" }[c]};`);
  return text.split(/\r?\n/).map(l => l.trim()).filter(Boolean).map(l => `<p>${escape(l)}</p>`).join("");
}
