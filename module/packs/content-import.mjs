import { failureOf, planContentPack, worldPacks } from "./content-pack.mjs";
import { format } from "../applications/i18n.mjs";

/** @import { PackPlan } from "./content-pack.mjs" */

/**
 * @typedef {object} ContentImportOutcome
 * @property {PackPlan["report"]} report
 * @property {{items: string, actors: string}} packs  The compendiums written.
 * @property {number} created
 * @property {number} updated
 */

/**
 * Importing a content pack into world compendiums (GM only, as creating a compendium is): the pack
 * is planned with the data models as its validator (a record they refuse is reported with the
 * field, and left out), then its documents are written into an Item and an Actor compendium
 * (created when missing). A document the pack wrote before is replaced, keeping its id, so UUIDs
 * into the pack stay valid. All or nothing: if a write fails, what it wrote is undone.
 */
export default class ContentPackImporter {
  /**
   * The data models' validation of a planned document: construct it as Foundry would store it.
   * @type {import("./content-pack.mjs").Validate}
   */
  static validate(document, documentName) {
    try {
      const cls = /** @type {{new (data: object): unknown}} */ (/** @type {unknown} */ (CONFIG[documentName].documentClass));
      // A compendium's document: no world-only fields (folder, ownership by user).
      new cls(foundry.utils.deepClone(document));
      return null;
    } catch (error) {
      return failureOf(error);
    }
  }

  /**
   * Plan a pack with the data models as its validator (nothing written).
   * @param {string | unknown} input
   * @param {{packs?: {items: string, actors: string}}} [options]
   */
  static plan(input, { packs } = {}) {
    return planContentPack(input, { packs, validate: ContentPackImporter.validate });
  }

  /**
   * Import a pack.
   * @param {string | unknown} input  The pack's JSON text or value.
   * @param {{names?: {items?: string, actors?: string}, progress?: (share: number) => void}} [options]
   *   `names`: the compendiums' names (default `<pack id>-items` and `<pack id>-actors`).
   * @returns {Promise<ContentImportOutcome>}
   */
  static async import(input, { names = {}, progress = () => {} } = {}) {
    if (!game.user?.isGM) throw new Error(format("ICONENGINE.Trust.GMOnly"));
    const preview = planContentPack(input);
    const defaults = worldPacks(preview.report.id);
    const itemName = names.items ?? defaults.items.replace(/^world\./, "");
    const actorName = names.actors ?? defaults.actors.replace(/^world\./, "");
    const packs = { items: `world.${itemName}`, actors: `world.${actorName}` };
    const plan = ContentPackImporter.plan(input, { packs });
    if (!plan.items.length && !plan.actors.length) return { report: plan.report, packs, created: 0, updated: 0 };
    const itemPack = await ContentPackImporter.#pack(packs.items, "Item", format("ICONENGINE.ContentPack.ItemsLabel", { name: plan.report.name }));
    const actorPack = plan.actors.length
      ? await ContentPackImporter.#pack(packs.actors, "Actor", format("ICONENGINE.ContentPack.ActorsLabel", { name: plan.report.name })) : null;
    let created = 0;
    let updated = 0;
    const total = plan.items.length + plan.actors.length;
    /** @type {{pack: CompendiumCollection.Any, documentName: "Item" | "Actor", ids: string[], replaced: object[]}[]} */
    const written = [];
    try {
      for (const [pack, documentName, docs] of /** @type {[CompendiumCollection.Any | null, "Item" | "Actor", Record<string, unknown>[]][]} */ (
        [[itemPack, "Item", plan.items], [actorPack, "Actor", plan.actors]])) {
        if (!pack || !docs.length) continue;
        const cls = /** @type {{createDocuments: Function, deleteDocuments: Function}} */ (/** @type {unknown} */ (CONFIG[documentName].documentClass));
        const existing = docs.map(d => String(d._id)).filter(id => pack.index.has(id));
        const replaced = await Promise.all(existing.map(async id => /** @type {{toObject(): object}} */ (await pack.getDocument(id)).toObject()));
        const entry = { pack, documentName, ids: /** @type {string[]} */ ([]), replaced };
        written.push(entry);
        if (existing.length) await cls.deleteDocuments(existing, { pack: pack.collection });
        for (let i = 0; i < docs.length; i += 50) {
          const batch = docs.slice(i, i + 50);
          await cls.createDocuments(batch, { pack: pack.collection, keepId: true });
          entry.ids.push(...batch.map(d => String(d._id)));
          progress((created + updated + entry.ids.length) / total);
        }
        updated += existing.length;
        created += docs.length - existing.length;
      }
    } catch (error) {
      await ContentPackImporter.#undo(written);
      throw error;
    }
    return { report: plan.report, packs, created, updated };
  }

  /**
   * A world compendium, created when it does not exist.
   * @param {string} collection  `world.<name>`.
   * @param {"Item" | "Actor"} type
   * @param {string} label
   * @returns {Promise<CompendiumCollection.Any>}
   */
  static async #pack(collection, type, label) {
    const found = game.packs?.get(collection);
    if (found) {
      if (found.documentName !== type) throw new Error(`${collection} holds ${found.documentName} documents, not ${type}`);
      return /** @type {CompendiumCollection.Any} */ (found);
    }
    const { CompendiumCollection } = foundry.documents.collections;
    return /** @type {CompendiumCollection.Any} */ (await CompendiumCollection.createCompendium(/** @type {never} */ ({
      type, label, name: collection.replace(/^world\./, ""), package: "world"
    })));
  }

  /**
   * Undo a failed import's writes: the documents it created are deleted and the ones it replaced put back.
   * @param {{pack: CompendiumCollection.Any, documentName: "Item" | "Actor", ids: string[], replaced: object[]}[]} written
   */
  static async #undo(written) {
    for (const { pack, documentName, ids, replaced } of written.reverse()) {
      const cls = /** @type {{createDocuments: Function, deleteDocuments: Function}} */ (/** @type {unknown} */ (CONFIG[documentName].documentClass));
      try {
        if (ids.length) await cls.deleteDocuments(ids, { pack: pack.collection });
        if (replaced.length) await cls.createDocuments(replaced, { pack: pack.collection, keepId: true });
      } catch (error) {
        console.error(error);
      }
    }
  }
}
