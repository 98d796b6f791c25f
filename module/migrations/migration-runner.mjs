import { SYSTEM_ID } from "../config.mjs";
import { SETTINGS, registerDataVersionSetting } from "../settings.mjs";
import { MIGRATIONS } from "./migration-list.mjs";

/**
 * @callback MigrateSource
 * @param {Record<string, unknown>} source  A copy of one document's stored data (toObject()).
 * @returns {Record<string, unknown>|null|undefined|Promise<Record<string, unknown>|null|undefined>}
 *   The converted data, or null when unchanged; async when it needs to wait (e.g. for the rules
 *   core: `await core.loadCore()`), but it never writes.
 */

/**
 * @typedef {object} Migration
 * @property {number} version  The data version it brings a world to: 1 for the first, then 2, ...
 * @property {string} label    What it does, as an i18n key (shown to the GM).
 * @property {Partial<Record<string, MigrateSource>>} documents  World document type (Actor, Item,
 *   Combat, ...) -> its converter.
 * @property {boolean} [stored]  Its converters read every document as stored (`game.data`, as the
 *   server sent it), not as `toObject()`: for a shape that a data model's `migrateData` already
 *   converts in memory, so that `toObject()` shows nothing to write although the database still
 *   holds the old shape. Such a converter may also change embedded documents (an actor's `items`):
 *   the array is written whole, as dnd5e's migrateWorld persists a source migration
 *   (`persistSourceMigration`: the whole source, `diff: false, recursive: false`).
 */

/**
 * What the runner did: the versions before and after, the migrations that ran, and the one that
 * failed (which changed nothing).
 * @typedef {object} MigrationReport
 * @property {number} from
 * @property {number} to
 * @property {number[]} ran
 * @property {{version: number, document: string, error: string}|null} failed
 */

/**
 * The part of a world document the runner reads.
 * @typedef {{id: string|null, name?: string|null, toObject(): object}} MigratableDocument
 */

/**
 * The part of a WorldCollection (game.collections.get(name)) the runner uses.
 * @typedef {object} MigratableCollection
 * @property {MigratableDocument[]} contents
 * @property {Set<string>} invalidDocumentIds
 * @property {{metadata: {collection: string, embedded?: Record<string, string>},
 *   updateDocuments(updates: object[], operation: object): Promise<unknown>}} documentClass
 */

/** @typedef {{id: string, name: string, source: Record<string, unknown>}} SourceEntry */
/** @typedef {{collection: MigratableCollection, id: string, name: string,
 *   before: Record<string, unknown>, after: Record<string, unknown>}} PlannedUpdate */

/**
 * @param {string} key
 * @param {Record<string, string>} [data]
 */
const format = (key, data) => (data ? game.i18n?.format(key, data) : game.i18n?.localize(key)) ?? key;

/** A migration that went wrong, with the document it was on. */
class MigrationFailure extends Error {
  /**
   * @param {string} document
   * @param {unknown} cause
   */
  constructor(document, cause) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.document = document;
  }
}

/**
 * Numbered world data migrations, the way maintained systems run them (dnd5e's migrateWorld,
 * pf2e's MigrationRunner): the world records its data version in a hidden world setting; on
 * `ready` the active GM (and only they, so two GMs never migrate at once) runs every migration
 * newer than that, oldest first, and records each version as it completes. The GM is told only
 * when a migration has something to write: a new world records the versions silently.
 *
 * A migration never loses data. All its converters run over copies of every document before
 * anything is written, so a converter that throws changes nothing; only the fields a converter
 * changed are written (whole, `recursive: false`, so removed keys go); if a write fails, the
 * documents already written are put back as they were. Either way the version stays where it was,
 * the GM is told which migration failed on which document and why, and later migrations wait.
 * Invalid documents (stored data the current models reject, which is what a shape change makes)
 * are migrated from their stored data, as dnd5e does.
 */
export default class MigrationRunner {
  /** Documents per update request. */
  static BATCH = 50;

  /** How updates are written: the changed fields replaced whole, nothing re-rendered. */
  static UPDATE_OPTIONS = Object.freeze({ diff: false, recursive: false, render: false });

  /** Fields a converter may not change: identity and bookkeeping (embedded collections are named by the document class). */
  static FIXED_FIELDS = Object.freeze(["_id", "_stats"]);

  /**
   * Registers the data version setting and the `ready` hook (from `init`).
   */
  static register() {
    registerDataVersionSetting();
    Hooks.once("ready", () => MigrationRunner.migrateWorld());
  }

  /**
   * Runs the migrations this world has not had, if this user is the active GM.
   * @param {readonly Migration[]} [migrations]
   * @returns {Promise<MigrationReport|null>} null when this user does not migrate
   */
  static async migrateWorld(migrations = MIGRATIONS) {
    if (!game.users?.activeGM?.isSelf) return null;
    return new MigrationRunner(migrations).run();
  }

  /** @type {readonly Migration[]} */
  #migrations;

  /** Data last written to invalid documents, which their collection cannot read back. @type {Map<string, Record<string, unknown>>} */
  #written = new Map();

  /**
   * @param {readonly Migration[]} migrations  Numbered 1, 2, 3, ... in order.
   */
  constructor(migrations) {
    migrations.forEach((migration, index) => {
      if (migration.version !== index + 1) {
        throw new Error(`${SYSTEM_ID} | migration ${index + 1} is numbered ${migration.version}: number them 1, 2, 3, ... in order`);
      }
      for (const [name, convert] of Object.entries(migration.documents)) {
        if (typeof convert !== "function") throw new Error(`${SYSTEM_ID} | migration ${migration.version}: documents.${name} is not a function`);
      }
    });
    this.#migrations = migrations;
  }

  /** The data version this system's migrations bring a world to. */
  get latest() {
    return this.#migrations.length;
  }

  /**
   * Runs every migration newer than the world's data version.
   * @returns {Promise<MigrationReport>}
   */
  async run() {
    const from = Number(game.settings.get(SYSTEM_ID, SETTINGS.dataVersion)) || 0;
    /** @type {MigrationReport} */
    const report = { from, to: from, ran: [], failed: null };
    if (from > this.latest) {
      ui.notifications?.warn(format("ICONENGINE.Migration.Newer", { world: String(from), system: String(this.latest) }),
        { permanent: true });
      return report;
    }
    const pending = this.#migrations.filter(m => m.version > from);
    if (!pending.length) return report;

    // The GM hears of a migration only when it has something to write: a new world (or one whose
    // data is already in the new shape) records the versions silently, as dnd5e does.
    let announced = false;
    for (const migration of pending) {
      const label = format(migration.label);
      try {
        const plan = await this.#plan(migration);
        if (plan.length) {
          if (!announced) {
            ui.notifications?.info(format("ICONENGINE.Migration.Begin", { from: String(from), to: String(this.latest) }),
              { permanent: true });
            announced = true;
          }
          console.log(`${SYSTEM_ID} | data migration ${migration.version}: ${label}`);
          await this.#apply(plan, !!migration.stored);
        }
      } catch (error) {
        const document = error instanceof MigrationFailure ? error.document : "-";
        console.error(`${SYSTEM_ID} | data migration ${migration.version} (${label}) failed on ${document}`, error);
        report.failed = { version: migration.version, document, error: error instanceof Error ? error.message : String(error) };
        ui.notifications?.error(format("ICONENGINE.Migration.Failed", {
          version: String(migration.version), label, document, error: report.failed.error, current: String(report.to)
        }), { permanent: true });
        return report;
      }
      await game.settings.set(SYSTEM_ID, SETTINGS.dataVersion, migration.version);
      report.to = migration.version;
      report.ran.push(migration.version);
    }
    if (announced) ui.notifications?.success(format("ICONENGINE.Migration.Complete", { version: String(report.to) }), { permanent: true });
    return report;
  }

  /**
   * One migration's updates, planned from copies of every document (nothing is written).
   * @param {Migration} migration
   * @returns {Promise<PlannedUpdate[]>}
   */
  async #plan(migration) {
    /** @type {PlannedUpdate[]} */
    const plan = [];
    for (const [documentName, convert] of Object.entries(migration.documents)) {
      if (!convert) continue;
      const collection = MigrationRunner.#collection(documentName);
      const fixed = new Set([...MigrationRunner.FIXED_FIELDS,
        ...(migration.stored ? [] : Object.values(collection.documentClass.metadata.embedded ?? {}))]);
      for (const { id, name, source } of this.#sources(collection, !!migration.stored)) {
        const label = `${documentName} ${name} [${id}]`;
        let result;
        try {
          result = await convert(structuredClone(source));
        } catch (error) {
          throw new MigrationFailure(label, error);
        }
        if (result === null || result === undefined) continue;
        if (typeof result !== "object" || Array.isArray(result)) {
          throw new MigrationFailure(label, new Error("the converter returned neither the converted data nor null"));
        }
        /** @type {Record<string, unknown>} */
        const before = {};
        /** @type {Record<string, unknown>} */
        const after = {};
        for (const key of new Set([...Object.keys(source), ...Object.keys(result)])) {
          if (JSON.stringify(source[key]) === JSON.stringify(result[key])) continue;
          if (fixed.has(key)) throw new MigrationFailure(label, new Error(`the converter changed ${key}, which a migration may not`));
          if (!(key in result)) throw new MigrationFailure(label, new Error(`the converter removed the field ${key}`));
          before[key] = source[key];
          after[key] = result[key];
        }
        if (Object.keys(after).length) plan.push({ collection, id, name: label, before, after });
      }
    }
    return plan;
  }

  /**
   * Write a migration's planned updates, restoring on a failed write.
   * @param {PlannedUpdate[]} plan
   * @param {boolean} stored  The migration read the stored data (which no longer says what is
   *   stored once written: later migrations read what this one wrote).
   */
  async #apply(plan, stored) {
    /** @type {PlannedUpdate[]} */
    const attempted = [];
    try {
      for (let i = 0; i < plan.length; i += MigrationRunner.BATCH) {
        const batch = plan.slice(i, i + MigrationRunner.BATCH);
        attempted.push(...batch);
        await MigrationRunner.#write(batch, "after");
      }
    } catch (error) {
      const failed = attempted.at(-1);
      await this.#restore(attempted);
      throw new MigrationFailure(failed?.name ?? "-", error);
    }
    for (const update of plan) {
      if (stored || this.#written.has(update.id) || update.collection.invalidDocumentIds.has(update.id)) {
        const source = this.#written.get(update.id) ?? this.#rawSource(update.collection, update.id) ?? {};
        this.#written.set(update.id, { ...source, ...update.after });
      }
    }
  }

  /**
   * Puts documents back as they were before a failed write. A document that cannot be put back is
   * logged with its previous data, so nothing is lost even then.
   * @param {PlannedUpdate[]} attempted
   */
  async #restore(attempted) {
    for (const update of attempted) {
      try {
        await MigrationRunner.#write([update], "before");
      } catch (error) {
        console.error(`${SYSTEM_ID} | could not restore ${update.name}; its data before the migration:`,
          JSON.stringify(update.before), error);
        ui.notifications?.error(format("ICONENGINE.Migration.RestoreFailed", { document: update.name }), { permanent: true });
      }
    }
  }

  /**
   * Writes updates of one or more collections, a request per collection.
   * @param {PlannedUpdate[]} updates
   * @param {"before"|"after"} side
   */
  static async #write(updates, side) {
    /** @type {Map<MigratableCollection, object[]>} */
    const byCollection = new Map();
    for (const update of updates) {
      const list = byCollection.get(update.collection) ?? [];
      list.push({ _id: update.id, ...update[side] });
      byCollection.set(update.collection, list);
    }
    for (const [collection, list] of byCollection) {
      await collection.documentClass.updateDocuments(list, { ...MigrationRunner.UPDATE_OPTIONS });
    }
  }

  /**
   * Copies of every document of a collection: the valid ones as they are now (as stored, for a
   * `stored` migration), the invalid ones as stored; either as this runner last wrote them.
   * @param {MigratableCollection} collection
   * @param {boolean} stored
   * @returns {SourceEntry[]}
   */
  #sources(collection, stored) {
    /** @type {SourceEntry[]} */
    const entries = [];
    for (const document of collection.contents) {
      if (!document.id) continue;
      const raw = stored ? this.#written.get(document.id) ?? this.#rawSource(collection, document.id) : undefined;
      const source = raw ? structuredClone(raw) : /** @type {Record<string, unknown>} */ (document.toObject());
      entries.push({ id: document.id, name: document.name ?? "", source });
    }
    for (const id of collection.invalidDocumentIds) {
      const source = this.#written.get(id) ?? this.#rawSource(collection, id);
      if (source) entries.push({ id, name: String(source.name ?? ""), source: structuredClone(source) });
    }
    return entries;
  }

  /**
   * A document's data as the server sent it when the world loaded.
   * @param {MigratableCollection} collection
   * @param {string} id
   * @returns {Record<string, unknown>|undefined}
   */
  #rawSource(collection, id) {
    const data = /** @type {Record<string, Record<string, unknown>[]|undefined>} */ (/** @type {unknown} */ (game.data));
    return data[collection.documentClass.metadata.collection]?.find(d => d._id === id);
  }

  /**
   * @param {string} documentName
   * @returns {MigratableCollection}
   */
  static #collection(documentName) {
    const collection = game.collections?.get(documentName);
    if (!collection) throw new MigrationFailure(documentName, new Error(`this world has no ${documentName} collection`));
    return /** @type {MigratableCollection} */ (/** @type {unknown} */ (collection));
  }
}
