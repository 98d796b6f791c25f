import { SYSTEM_ID } from "../config.mjs";
import { HOOKS, callAfter, callPre } from "../hooks.mjs";
import { GRANT_FIELDS } from "./grant-fields.mjs";
import { CLASSES, foePresetUpdate } from "../data/rules.mjs";
import { format, formatPlural } from "../applications/i18n.mjs";

/**
 * Jobs in the order their class lists them (ICON's), then any other a content pack adds, by name.
 * @param {string} classKey
 * @param {{key: string, name: string}[]} jobs
 */
export function orderedJobs(classKey, jobs) {
  const listed = /** @type {readonly string[]} */ (CLASSES[/** @type {keyof typeof CLASSES} */ (classKey)]?.jobs ?? []);
  const rank = (/** @type {string} */ key) => (listed.includes(key) ? listed.indexOf(key) : listed.length);
  return [...jobs].sort((a, b) => rank(a.key) - rank(b.key) || a.name.localeCompare(b.name));
}

/** The flag (under the system's scope) on an item a class, job or foe template gave. */
export const GRANT_FLAG = "grant";

/**
 * @typedef {"class" | "job" | "foeTemplate"} GrantKind
 * @typedef {{kind: GrantKind, key: string, value: string, source: string}} GrantFlag  `flags.icon-engine.grant`:
 *   what gave the item (its kind and key), the actor's class, job or template it was given for, and
 *   the grant item's UUID.
 */

/**
 * What a class, job or foe template gives an actor: picking one (the sheet's select, a drop, an
 * update) grants the items its item lists, each a copy remembering where it came from
 * (`flags.icon-engine.grant`, and Foundry's `_stats.compendiumSource`); changing it again asks
 * before removing what the old one gave. The grant item is found by its key among the world's
 * items, then the world's compendiums, then the system's. `icon-engine.preGrantItems` (actor,
 * {source, items}) may cancel a grant or change the items; `icon-engine.grantItems` (actor,
 * created, source) follows.
 */
export default class ItemGrants {
  /**
   * What gave an item, or undefined.
   * @param {Item.Implementation} item
   * @returns {GrantFlag | undefined}
   */
  static flagOf(item) {
    const flags = /** @type {Record<string, {grant?: GrantFlag} | undefined>} */ (/** @type {unknown} */ (item.flags ?? {}));
    return flags[SYSTEM_ID]?.grant;
  }

  /**
   * The grant item of a kind and key, or null.
   * @param {GrantKind} kind
   * @param {string} key
   * @returns {Promise<Item.Implementation | null>}
   */
  static async find(kind, key) {
    if (!key) return null;
    const matches = (/** @type {{type?: string, system?: {key?: unknown}}} */ entry) => entry.type === kind && entry.system?.key === key;
    const world = game.items?.find(item => matches(/** @type {never} */ (item)));
    if (world) return /** @type {Item.Implementation} */ (world);
    for (const pack of ItemGrants.#itemPacks()) {
      const index = await pack.getIndex({ fields: /** @type {never} */ (["system.key"]) });
      const entry = index.find(e => matches(/** @type {never} */ (e)));
      if (entry?._id) return /** @type {Item.Implementation | null} */ (await pack.getDocument(entry._id));
    }
    return null;
  }

  /** The Item compendiums, the world's own first (an imported content pack), then the system's. */
  static #itemPacks() {
    return /** @type {CompendiumCollection.Any[]} */ ([...(game.packs ?? [])]).filter(p => p.documentName === "Item")
      .sort((a, b) => Number(a.metadata.packageType !== "world") - Number(b.metadata.packageType !== "world"));
  }

  /**
   * The jobs of a class that exist as content: job items whose class is `classKey`, among the
   * world's items and its compendiums (as {@link find} looks), each key once (the first found), in
   * the order the class lists its jobs, then by name. A class whose jobs no pack provides has none:
   * the sheet offers only these, and picking the class picks none of the others.
   * @param {string} classKey
   * @returns {Promise<{key: string, name: string}[]>}
   */
  static async jobsOf(classKey) {
    if (!classKey) return [];
    /** @type {Map<string, string>} */
    const found = new Map();
    const add = (/** @type {{type?: string, name?: string | null, system?: {key?: unknown, class?: unknown}}} */ entry) => {
      const key = entry.system?.key;
      if (entry.type === "job" && entry.system?.class === classKey && typeof key === "string" && key && !found.has(key)) found.set(key, entry.name ?? key);
    };
    for (const item of game.items ?? []) add(/** @type {never} */ (item));
    for (const pack of ItemGrants.#itemPacks()) {
      const index = await pack.getIndex({ fields: /** @type {never} */ (["system.key", "system.class"]) });
      for (const entry of index) add(/** @type {never} */ (entry));
    }
    return orderedJobs(classKey, [...found].map(([key, name]) => ({ key, name })));
  }

  /**
   * Pick a class, job or foe template item for an actor (an item dropped on its sheet): the actor's
   * field is set to its key, and its items are granted from this item.
   * @param {Actor.Implementation} actor
   * @param {Item.Implementation} item
   */
  static async pick(actor, item) {
    const fields = /** @type {Record<string, string> | undefined} */ (GRANT_FIELDS[/** @type {keyof typeof GRANT_FIELDS} */ (actor.type)]);
    const field = Object.entries(fields ?? {}).find(([, kind]) => kind === item.type)?.[0];
    if (!field) return null;
    const system = /** @type {{key: string, template?: string}} */ (/** @type {unknown} */ (item.system));
    /** @type {Record<string, unknown>} */
    const update = { [`system.${field}`]: system.key };
    if (/** @type {string} */ (item.type) === "foeTemplate") {
      // A foe template is the foe's template, with its numbers (a Legend's defense, die and fray; its HP).
      const foe = /** @type {{foeClass?: string, partySize?: number}} */ (actor.system);
      Object.assign(update, { "system.template": system.template ?? "" },
        foe.foeClass ? foePresetUpdate(foe.foeClass, system.template ?? "", foe.partySize ?? 4) : {});
    }
    // The update's `_onUpdate` grants from this very item (see IconActor).
    return actor.update(/** @type {Actor.UpdateData} */ (update), /** @type {never} */ ({ iconGrantFrom: item.uuid }));
  }

  /**
   * After an actor's class, job or template changed (on the client that changed it): what the old
   * one gave is removed once the user agrees, and what the new one gives is granted.
   * @param {Actor.Implementation} actor
   * @param {GrantKind} kind
   * @param {{from: string, to: string, source?: string | null, ask?: boolean}} change
   *   `source`: the grant item's UUID when it was dropped; `ask`: confirm the removal (default).
   */
  static async change(actor, kind, { from, to, source = null, ask = true }) {
    if (from && from !== to) await ItemGrants.revoke(actor, kind, from, { ask });
    if (!to) return [];
    const item = source ? /** @type {Item.Implementation | null} */ (await fromUuid(/** @type {`Item.${string}`} */ (source))) : await ItemGrants.find(kind, to);
    if (!item || /** @type {string} */ (item.type) !== kind) {
      if (kind !== "foeTemplate" && !source) ui.notifications?.info(format("ICONENGINE.Grant.NotFound", { kind: format(`ICONENGINE.Grant.Kind.${kind}`), key: to }));
      return [];
    }
    return ItemGrants.grant(actor, item, { value: to });
  }

  /**
   * Grant a class's, job's or foe template's items to an actor; those it already gave are not
   * given again.
   * @param {Actor.Implementation} actor
   * @param {Item.Implementation} source  The grant item.
   * @param {{value?: string}} [options]  The actor's class, job or template it is given for (its key).
   * @returns {Promise<Item.Implementation[]>}  The created items.
   */
  static async grant(actor, source, { value } = {}) {
    const system = /** @type {{key: string, grants: string[]}} */ (/** @type {unknown} */ (source.system));
    /** @type {GrantFlag} */
    const flag = { kind: /** @type {GrantKind} */ (source.type), key: system.key, value: value ?? system.key, source: source.uuid };
    const given = new Set(actor.items.filter(i => ItemGrants.flagOf(i)?.source === source.uuid)
      .map(i => /** @type {{compendiumSource?: string | null}} */ (i._stats ?? {}).compendiumSource));
    /** @type {Record<string, unknown>[]} */
    const items = [];
    for (const uuid of system.grants) {
      if (given.has(uuid)) continue;
      const item = await fromUuid(/** @type {`Item.${string}`} */ (uuid));
      if (!(item instanceof Item)) {
        ui.notifications?.warn(format("ICONENGINE.Grant.Missing", { source: source.name ?? "", uuid }));
        continue;
      }
      const data = /** @type {Record<string, unknown>} */ (item.toObject());
      delete data._id;
      foundry.utils.setProperty(data, "_stats.compendiumSource", uuid);
      foundry.utils.setProperty(data, `flags.${SYSTEM_ID}.${GRANT_FLAG}`, flag);
      items.push(data);
    }
    if (!items.length || !callPre(HOOKS.preGrantItems, actor, { source, items })) return [];
    const created = /** @type {Item.Implementation[]} */ (await actor.createEmbeddedDocuments("Item", /** @type {Item.CreateData[]} */ (items)) ?? []);
    if (created.length) ui.notifications?.info(formatPlural("ICONENGINE.Grant.Granted", created.length, { name: actor.name ?? "", source: source.name ?? "" }));
    callAfter(HOOKS.grantItems, actor, created, source);
    return created;
  }

  /**
   * Remove the items a class, job or foe template gave for this value of the actor's field, once
   * the user agrees.
   * @param {Actor.Implementation} actor
   * @param {GrantKind} kind
   * @param {string} key
   * @param {{ask?: boolean}} [options]
   * @returns {Promise<number>}  How many were removed.
   */
  static async revoke(actor, kind, key, { ask = true } = {}) {
    const granted = actor.items.filter(i => {
      const flag = ItemGrants.flagOf(i);
      return flag?.kind === kind && flag.value === key;
    });
    if (!granted.length) return 0;
    const source = format(`ICONENGINE.Grant.Kind.${kind}`) + ` ${key}`;
    if (ask) {
      const esc = foundry.utils.escapeHTML;
      const yes = await foundry.applications.api.DialogV2.confirm({
        window: { title: format("ICONENGINE.Grant.RemoveTitle", { source }) },
        content: `<p>${esc(formatPlural("ICONENGINE.Grant.RemoveContent", granted.length, { name: actor.name ?? "", source,
          items: granted.map(i => i.name).join(", ") }))}</p>`,
        rejectClose: false
      });
      if (!yes) return 0;
    }
    await actor.deleteEmbeddedDocuments("Item", granted.map(i => i.id ?? ""));
    return granted.length;
  }
}
