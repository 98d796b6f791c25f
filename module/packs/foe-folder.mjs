/**
 * The community foe creator's files (issue 37, item 3) as a content pack: a folder of JSON files,
 * each one record or a list of records `{Name, Inherits, Type, Traits, Actions, ...stats}`, built as
 * ICON builds a foe: from a faction, a class and a template, which are records of the folder too
 * (`Type` "faction", "class" or "template"), each foe inheriting (`Inherits`: a name or a list of
 * names) their stats, traits and actions, its own winning. Actions `{Name, ActionCost, Tags,
 * Description}` are read as ability text by the importer (`parseAbilityText`: "Slam (1 action,
 * Attack, line 3): On hit: ..."), so `Tags` such as "line 3", "true strike" and "recharge 6" mean
 * what they mean in a book. The pack then goes through the content-pack report
 * (module/packs/content-pack.mjs): every record is accounted for; what the conversion itself
 * could not read is returned as the report's bad records and warnings, named with the file and field.
 * @import { BadRecord, Warning } from "./content-pack.mjs"
 * @import { PasteApi } from "./paste.js"
 */
import { CONTENT_PACK_FORMAT, CONTENT_PACK_VERSION, recordIdMaker } from "./content-pack.mjs";

/** The foe classes and templates a base record's name (or `Class`, `Template`) may give. */
const CLASSES = ["heavy", "skirmisher", "leader", "artillery"];
const TEMPLATES = ["elite", "legend", "mob"];

/** Stats a record may give, by their names in the files (lowercase), as the foe data model names them. */
const STATS = /** @type {Record<string, string>} */ ({
  vit: "vit", vitality: "vit", defense: "defense", defence: "defense", speed: "speed", dash: "dash", fray: "fray",
  damage: "damageDie", damagedie: "damageDie", die: "damageDie", armor: "armor", armour: "armor", size: "size", chapter: "chapter"
});

/** The most files one folder holds. */
export const MAX_FILES = 2000;

/**
 * @typedef {{Name?: unknown, Inherits?: unknown, Type?: unknown, Traits?: unknown, Actions?: unknown} & Record<string, unknown>} FoeFile
 * @typedef {{file: string, index: number, record: FoeFile}} Source
 */

/**
 * A folder of foe files as a content pack, with what the conversion could not read.
 * @param {{name: string, text: string}[]} files
 * @param {Pick<PasteApi, "parseAbilityText">} importer
 * @param {{id?: string, name?: string}} [options]
 * @returns {{pack: Record<string, unknown>, bad: BadRecord[], warnings: Warning[]}}
 */
export function foeFolderPack(files, importer, { id = "community-foes", name = "Community foes" } = {}) {
  if (files.length > MAX_FILES) throw new Error(`at most ${MAX_FILES} files in one folder, not ${files.length}`);
  /** @type {BadRecord[]} */
  const bad = [];
  /** @type {Warning[]} */
  const warnings = [];
  /** @type {Source[]} */
  const sources = [];
  files.forEach((file, index) => {
    let value;
    try {
      value = JSON.parse(file.text);
    } catch (error) {
      bad.push({ kind: "foes", id: file.name, index, field: "(file)", message: `not JSON: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    const records = Array.isArray(value) ? value : [value];
    records.forEach((record, k) => {
      const where = records.length > 1 ? `${file.name}[${k}]` : file.name;
      if (!record || typeof record !== "object" || Array.isArray(record)) bad.push({ kind: "foes", id: where, index, field: "(record)", message: "not a JSON object" });
      else if (typeof record.Name !== "string" || !record.Name.trim()) bad.push({ kind: "foes", id: where, index, field: "Name", message: "missing: every record has a name" });
      else sources.push({ file: where, index, record: /** @type {FoeFile} */ (record) });
    });
  });
  /** @type {Map<string, Source>} */
  const byName = new Map();
  for (const source of sources) {
    const key = String(source.record.Name).trim().toLowerCase();
    if (byName.has(key)) warnings.push({ kind: "foes", id: source.file, field: "Name", message: `"${source.record.Name}" again: the later record is used` });
    byName.set(key, source);
  }
  /** A record id from a name, unique in the pack. */
  const idOf = recordIdMaker();
  /** @type {Record<string, unknown>[]} */
  const abilities = [];
  /** @type {Record<string, unknown>[]} */
  const traits = [];
  /** @type {Record<string, unknown>[]} */
  const foes = [];
  for (const source of byName.values()) {
    const type = String(source.record.Type ?? "").trim().toLowerCase();
    const key = String(source.record.Name).trim().toLowerCase();
    if (["faction", "class", "template"].includes(type) || (!type && (CLASSES.includes(key) || TEMPLATES.includes(key)))) continue;
    const fail = (/** @type {string} */ field, /** @type {string} */ message) => bad.push({ kind: "foes", id: source.file, index: source.index, field, message });
    const chain = ancestry(source, byName);
    if (typeof chain === "string") { fail("Inherits", chain); continue; }
    /** @type {Record<string, unknown>} */
    const foe = { id: idOf(`foe-${source.record.Name}`), name: String(source.record.Name).trim() };
    /** @type {string[]} */
    const foeTraits = [];
    /** @type {string[]} */
    const foeAbilities = [];
    let hp = null;
    let failed = false;
    // its items, kept only if the foe is
    /** @type {Record<string, unknown>[]} */
    const ownTraits = [];
    /** @type {Record<string, unknown>[]} */
    const ownAbilities = [];
    for (const { record } of chain) {
      const recordKey = String(record.Name).trim().toLowerCase();
      const recordType = String(record.Type ?? "").trim().toLowerCase();
      if (CLASSES.includes(recordKey) && recordType !== "faction") foe.foeClass = recordKey;
      if (TEMPLATES.includes(recordKey) && recordType !== "faction") foe.template = recordKey;
      for (const [field, value] of Object.entries(record)) {
        const lower = field.toLowerCase();
        if (lower === "class" && typeof value === "string" && CLASSES.includes(value.toLowerCase())) foe.foeClass = value.toLowerCase();
        else if (lower === "template" && typeof value === "string" && [...TEMPLATES, "", "normal"].includes(value.toLowerCase())) foe.template = value.toLowerCase() === "normal" ? "" : value.toLowerCase();
        else if (lower === "hp") hp = number(value);
        else if (lower === "description" || lower === "biography") foe.biography = paragraphs(String(value));
        else if (STATS[lower]) {
          const n = number(value);
          if (n === null) { fail(field, `not a number: ${JSON.stringify(value)}`); failed = true; } else foe[STATS[lower]] = n;
        }
      }
      for (const [k, entry] of list(record.Traits).entries()) {
        const trait = traitOf(entry);
        if (!trait) { fail(`Traits[${k}]`, "a trait is {Name, Description} or \"Name: text\""); failed = true; continue; }
        const traitId = idOf(`${foe.name}-${trait.name}`);
        ownTraits.push({ id: traitId, name: trait.name, description: paragraphs(trait.text) });
        foeTraits.push(traitId);
      }
      for (const [k, entry] of list(record.Actions).entries()) {
        const text = actionText(entry);
        if (!text) { fail(`Actions[${k}]`, "an action is {Name, ActionCost, Tags, Description}"); failed = true; continue; }
        const { items, unparsed } = importer.parseAbilityText(text.text);
        const [item] = items;
        if (!item) { fail(`Actions[${k}]`, `not read as an ability: ${text.text.slice(0, 80)}`); failed = true; continue; }
        for (const piece of unparsed) warnings.push({ kind: "abilities", id: `${foe.name}: ${item.name}`, field: `Actions[${k}]`, message: `${piece.reason}: ${piece.text}` });
        const abilityId = idOf(`${foe.name}-${item.name}`);
        ownAbilities.push({ id: abilityId, name: item.name, ...item.system });
        foeAbilities.push(abilityId);
      }
    }
    if (failed) continue;
    traits.push(...ownTraits);
    abilities.push(...ownAbilities);
    if (hp !== null && foe.vit === undefined) {
      const per = foe.template === "elite" ? 8 : 4;
      if (!foe.template || foe.template === "elite") {
        if (hp % per === 0 && hp / per >= 1) foe.vit = hp / per;
        else warnings.push({ kind: "foes", id: source.file, field: "HP", message: `${hp} HP is no VIT (${per} HP per VIT): not read` });
      }
    }
    foe.traits = foeTraits;
    foe.abilities = foeAbilities;
    foes.push(foe);
  }
  return {
    pack: { format: CONTENT_PACK_FORMAT, version: CONTENT_PACK_VERSION, id, name, abilities, traits, foes },
    bad,
    warnings
  };
}

/**
 * A record's ancestors then itself, parents first (depth first, in the order `Inherits` names them),
 * each once; or why not.
 * @param {Source} source
 * @param {Map<string, Source>} byName
 * @returns {Source[] | string}
 */
function ancestry(source, byName) {
  /** @type {Source[]} */
  const out = [];
  const done = new Set();
  /** @param {Source} node @param {string[]} path @returns {string | null} */
  const visit = (node, path) => {
    const key = String(node.record.Name).trim().toLowerCase();
    if (path.includes(key)) return `inherits itself: ${[...path, key].join(" → ")}`;
    if (done.has(key)) return null;
    for (const parent of list(node.record.Inherits)) {
      if (typeof parent !== "string") return `a name, not ${JSON.stringify(parent)}`;
      const found = byName.get(parent.trim().toLowerCase());
      if (!found) return `"${parent}" is no record of the folder`;
      const error = visit(found, [...path, key]);
      if (error) return error;
    }
    done.add(key);
    out.push(node);
    return null;
  };
  return visit(source, []) ?? out;
}

/** @param {unknown} value @returns {unknown[]} */
const list = value => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** A whole number from 0 to 1000 ("d8" is 8), or null. @param {unknown} value */
function number(value) {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim().replace(/^d/i, "")) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 1000 ? n : null;
}

/** A trait entry: `{Name, Description}` or "Name: text". @param {unknown} entry */
function traitOf(entry) {
  if (typeof entry === "string") {
    const colon = entry.indexOf(":");
    return colon > 0 ? { name: entry.slice(0, colon).trim(), text: entry.slice(colon + 1).trim() } : null;
  }
  if (!entry || typeof entry !== "object") return null;
  const record = /** @type {Record<string, unknown>} */ (entry);
  const name = record.Name ?? record.name;
  const text = record.Description ?? record.Text ?? record.Effect ?? "";
  return typeof name === "string" && name.trim() ? { name: name.trim(), text: String(text) } : null;
}

/**
 * An action as ability text: "Name (cost, tags): description".
 * @param {unknown} entry
 */
function actionText(entry) {
  if (typeof entry === "string") return entry.trim() ? { text: entry } : null;
  if (!entry || typeof entry !== "object") return null;
  const record = /** @type {Record<string, unknown>} */ (entry);
  const name = record.Name ?? record.name;
  if (typeof name !== "string" || !name.trim()) return null;
  const cost = costText(record.ActionCost ?? record.Cost);
  const tags = list(record.Tags).filter(t => typeof t === "string" && t.trim()).map(t => String(t).trim());
  const parts = ["Description", "Text", "Effect", "Trigger"].filter(k => typeof record[k] === "string" && String(record[k]).trim());
  const body = parts.map(k => (k === "Trigger" ? `Trigger: ${record[k]}` : String(record[k]))).join(" ");
  return { text: `${name.trim().replace(/[():]/g, " ")} (${[cost, ...tags].join(", ")}): ${body}` };
}

/** @param {unknown} cost */
function costText(cost) {
  if (cost === 0 || (typeof cost === "string" && /^(free|0)/i.test(cost.trim()))) return "free action";
  if (cost === 2 || cost === "2") return "2 actions";
  if (typeof cost === "string" && /^(interrupt|reaction)/i.test(cost.trim())) return cost.trim().replace(/^reaction/i, "interrupt");
  return "1 action";
}

/** Text as escaped paragraphs, one per line. @param {string} text */
function paragraphs(text) {
  const escape = (/** @type {string} */ s) => s.replace(/[&<>"']/g, c => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#x27" }[c]};`);
  return text.split(/\r?\n/).map(l => l.trim()).filter(Boolean).map(l => `<p>${escape(l)}</p>`).join("");
}
