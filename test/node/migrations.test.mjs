/**
 * World data migrations (module/migrations/): a stored world at data version 0
 * (test/node/fixtures/world-v0.json) run through the real MigrationRunner with test migrations,
 * over a stand-in for the parts of `game` the runner touches (game.collections' WorldCollections
 * with contents/invalidDocumentIds/documentClass, game.data, game.settings, game.users.activeGM,
 * ui.notifications; each member as declared in foundry-vtt-types v13). Updates are applied as
 * Foundry applies `{diff: false, recursive: false}`: each field given replaces the stored one.
 * Needs no wasm.
 */
import { beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const fixture = JSON.parse(readFileSync(new URL("fixtures/world-v0.json", import.meta.url), "utf8"));
const translations = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8"));
/** @param {string} key */
const localize = key => {
  const value = key.split(".").reduce((node, part) => node?.[part], translations);
  return typeof value === "string" ? value : key;
};

// settings.mjs (which registers the setting) imports the Men & Supermen charts app, an
// ApplicationV2: its base classes, enough to define it.
globalThis.foundry = /** @type {any} */ ({
  applications: { api: { ApplicationV2: class {}, HandlebarsApplicationMixin: (/** @type {any} */ Base) => class extends Base {} } }
});
const { MigrationRunner, MIGRATIONS } = await import("../../module/migrations/_module.mjs");

/** Collection names of the world document types in the fixture (Document.metadata.collection / embedded). */
const TYPES = {
  Actor: { collection: "actors", embedded: { ActiveEffect: "effects", Item: "items" } },
  Item: { collection: "items", embedded: { ActiveEffect: "effects" } },
  Combat: { collection: "combats", embedded: { Combatant: "combatants", CombatantGroup: "groups" } }
};

/**
 * A world loaded from the fixture, as the runner sees it through `game`.
 * @param {{failWrite?: (id: string) => boolean, activeGM?: boolean, dataVersion?: number}} [options]
 */
function loadWorld({ failWrite = () => false, activeGM = true, dataVersion } = {}) {
  const world = {
    /** @type {Record<string, Map<string, any>>} the stored data, by collection */
    stored: {},
    /** @type {{documentName: string, updates: any[], operation: object}[]} */
    requests: [],
    /** @type {[string, string, object|undefined][]} */
    notifications: [],
    /** @type {Record<string, unknown>} */
    settings: { ...fixture.settings },
    /** @type {Record<string, object>} */
    registered: {},
    /** @type {[string, Function][]} */
    hooks: []
  };
  if (dataVersion !== undefined) world.settings["icon-engine.dataVersion"] = dataVersion;
  const collections = new Map();
  for (const [documentName, { collection, embedded }] of Object.entries(TYPES)) {
    const stored = new Map(fixture[collection].map((/** @type {any} */ d) => [d._id, structuredClone(d)]));
    world.stored[collection] = stored;
    const invalid = new Set(fixture.invalidIds[documentName] ?? []);
    collections.set(documentName, {
      get contents() {
        return [...stored.values()].filter(d => !invalid.has(d._id))
          .map(d => ({ id: d._id, name: d.name, toObject: () => structuredClone(d) }));
      },
      invalidDocumentIds: invalid,
      documentClass: {
        metadata: { collection, embedded },
        /** @param {any[]} updates @param {object} operation */
        async updateDocuments(updates, operation) {
          world.requests.push({ documentName, updates: structuredClone(updates), operation });
          for (const { _id, ...changes } of updates) {
            if (failWrite(_id)) throw new Error(`the server refused ${_id}`);
            const document = stored.get(_id);
            if (!document) throw new Error(`no ${documentName} ${_id}`);
            // {diff: false, recursive: false}: every field given replaces the stored one whole
            for (const [key, value] of Object.entries(changes)) document[key] = structuredClone(value);
          }
          return [];
        }
      }
    });
  }
  const notify = (/** @type {string} */ type) => (/** @type {string} */ message, /** @type {object} */ options) => {
    world.notifications.push([type, message, options]);
  };
  globalThis.game = /** @type {any} */ ({
    users: { activeGM: { isSelf: activeGM } },
    collections,
    // What the server sent at load: the stored data, which the runner reads for invalid documents.
    data: Object.fromEntries(Object.entries(TYPES).map(([, { collection }]) => [collection, structuredClone(fixture[collection])])),
    settings: {
      /** @param {string} scope @param {string} key @param {object} config */
      register: (scope, key, config) => { world.registered[`${scope}.${key}`] = config; },
      /** @param {string} scope @param {string} key */
      get: (scope, key) => world.settings[`${scope}.${key}`] ?? /** @type {any} */ (world.registered[`${scope}.${key}`])?.default,
      /** @param {string} scope @param {string} key @param {unknown} value */
      set: async (scope, key, value) => { world.settings[`${scope}.${key}`] = value; return value; }
    },
    i18n: { localize, format: (/** @type {string} */ key, /** @type {Record<string, string>} */ data = {}) =>
      localize(key).replace(/{(\w+)}/g, (m, k) => (k in data ? String(data[k]) : m)) }
  });
  globalThis.ui = /** @type {any} */ ({ notifications: { info: notify("info"), warn: notify("warn"), error: notify("error"), success: notify("success") } });
  globalThis.Hooks = /** @type {any} */ ({ once: (/** @type {string} */ name, /** @type {Function} */ fn) => world.hooks.push([name, fn]) });
  /** Everything stored, as plain data. */
  world.snapshot = () => Object.fromEntries(Object.entries(world.stored).map(([k, m]) => [k, structuredClone([...m.values()])]));
  return world;
}

// Test migrations, in the shapes the real ones will take.
/** 1: the Combat's state keeps an event log and a checkpoint instead of snapshot history. */
const combatLog = {
  version: 1,
  label: "test: combat state as an event log",
  documents: {
    Combat: (/** @type {any} */ source) => {
      const state = source.system?.state;
      if (!state || !("history" in state)) return null;
      const { history, forgotten, ...rest } = state;
      source.system.state = { ...rest, log: [], checkpoint: history[0] ?? null, forgottenSteps: forgotten };
      return source;
    }
  }
};
/** 2: characters' `job` renamed `calling` (async, as a converter waiting for the rules core is). */
const calling = {
  version: 2,
  label: "test: job is now calling",
  documents: {
    Actor: async (/** @type {any} */ source) => {
      await new Promise(resolve => setTimeout(resolve, 1));
      if (source.type !== "character" || !("job" in source.system)) return null;
      const { job, ...system } = source.system;
      source.system = { ...system, calling: job };
      return source;
    }
  }
};
/** 3: a converter with a bug that shows on one actor only, after others were converted. */
const broken = {
  version: 3,
  label: "test: breaks on Mirror",
  documents: {
    Item: (/** @type {any} */ source) => ({ ...source, name: `${source.name}!` }),
    Actor: (/** @type {any} */ source) => {
      if (source.name === "Mirror") throw new TypeError("cannot read properties of undefined (reading 'rank')");
      return { ...source, system: { ...source.system, level: source.system.level + 1 } };
    }
  }
};

const byId = (/** @type {any[]} */ documents) => Object.fromEntries(documents.map(d => [d._id, d]));

describe("MigrationRunner over a stored world at data version 0", () => {
  test("runs every migration in order, records the version after each, tells the GM", async () => {
    const world = loadWorld();
    const before = world.snapshot();
    const report = await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(report, { from: 0, to: 2, ran: [1, 2], failed: null });
    assert.equal(world.settings["icon-engine.dataVersion"], 2);

    const after = world.snapshot();
    // The Combat: snapshot history became a log and a checkpoint; the rest of the fight is as it was.
    const [fightBefore] = before.combats;
    const [fight] = after.combats;
    const { history, forgotten, ...kept } = fightBefore.system.state;
    assert.deepEqual(fight.system.state, { ...kept, log: [], checkpoint: history[0], forgottenSteps: forgotten });
    assert.equal(fight.system.state.round, 1);
    assert.deepEqual(fight.system.state.combatants.map((/** @type {any} */ c) => [c.id, c.taken]),
      [["cmbtYsolde000001", 1], ["cmbtBrann0000002", 0], ["cmbtGoblin000003", 0]]);
    assert.deepEqual({ ...fight, system: null }, { ...fightBefore, system: null }, "combatants, flags, _stats untouched");

    // Characters, the invalid one (read from its stored data) included; the foe is not touched.
    const actors = byId(after.actors);
    const was = byId(before.actors);
    for (const id of ["actYsolde0000001", "actBrann00000002", "actMirror0000004"]) {
      const { job, ...system } = was[id].system;
      assert.deepEqual(actors[id].system, { ...system, calling: job }, id);
      assert.deepEqual({ ...actors[id], system: null }, { ...was[id], system: null }, `${id}: only system changed`);
    }
    assert.equal(actors.actMirror0000004.system.calling, "Ember");
    assert.deepEqual(actors.actGoblin0000003, was.actGoblin0000003);
    assert.deepEqual(after.items, before.items);

    // Only the changed fields were sent, whole, without diffing or merging.
    assert.deepEqual(world.requests.map(r => [r.documentName, r.updates.map(u => [u._id, Object.keys(u).sort()])]), [
      ["Combat", [["cbtFight00000001", ["_id", "system"]]]],
      ["Actor", [["actYsolde0000001", ["_id", "system"]], ["actBrann00000002", ["_id", "system"]], ["actMirror0000004", ["_id", "system"]]]]
    ]);
    for (const { operation } of world.requests) assert.deepEqual(operation, { diff: false, recursive: false, render: false });

    assert.deepEqual(world.notifications.map(([type, message]) => [type, message]), [
      ["info", "ICON Engine is migrating this world's data from version 0 to 2. Keep the world open until it says it has finished."],
      ["success", "ICON Engine finished migrating this world's data: it is now at version 2."]
    ]);
  });

  test("a second load has nothing to do: no writes, no notifications", async () => {
    const world = loadWorld({ dataVersion: 2 });
    const report = await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(report, { from: 2, to: 2, ran: [], failed: null });
    assert.deepEqual(world.requests, []);
    assert.deepEqual(world.notifications, []);
  });

  test("a new world (nothing to convert) records the current version silently: no banner", async () => {
    const world = loadWorld();
    for (const stored of Object.values(world.stored)) stored.clear();
    for (const collection of game.collections.values()) collection.invalidDocumentIds.clear();
    game.data = { actors: [], items: [], combats: [] };
    const report = await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(report, { from: 0, to: 2, ran: [1, 2], failed: null });
    assert.equal(world.settings["icon-engine.dataVersion"], 2);
    assert.deepEqual(world.requests, []);
    assert.deepEqual(world.notifications, [], "dnd5e records a new world's version without a word");
  });

  test("a world that already has the new shape is left as it is (converters return null)", async () => {
    const world = loadWorld();
    await MigrationRunner.migrateWorld([combatLog, calling]);
    const migrated = world.snapshot();
    // The same data at version 0 again, e.g. a world made by a newer system with the setting lost.
    world.settings["icon-engine.dataVersion"] = 0;
    world.requests.length = 0;
    globalThis.game.data = structuredClone(migrated);
    const report = await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(report.ran, [1, 2]);
    assert.deepEqual(world.requests, []);
    assert.deepEqual(world.snapshot(), migrated);
    assert.deepEqual(world.notifications.slice(2), [], "nothing to write: no banner the second time");
  });

  test("a converter that throws changes nothing: the data and the version stay as the last good migration left them", async () => {
    const world = loadWorld();
    const report = await MigrationRunner.migrateWorld([combatLog, calling, broken]);
    assert.deepEqual(report, {
      from: 0, to: 2, ran: [1, 2],
      failed: { version: 3, document: "Actor Mirror [actMirror0000004]", error: "cannot read properties of undefined (reading 'rank')" }
    });
    assert.equal(world.settings["icon-engine.dataVersion"], 2);
    // Migration 3 wrote nothing, not even the Item and the actors it converted before Mirror.
    assert.deepEqual(world.requests.map(r => r.documentName), ["Combat", "Actor"]);
    const expected = loadWorld();
    await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(world.snapshot(), expected.snapshot());
    const [type, message, options] = world.notifications.at(-1) ?? [];
    assert.equal(type, "error");
    assert.equal(message, "ICON Engine's data migration 3 (test: breaks on Mirror) failed on Actor Mirror [actMirror0000004]: "
      + "cannot read properties of undefined (reading 'rank'). That migration changed nothing, and the world's data stays at "
      + "version 2; it will be tried again next time the world loads. The browser console has the details.");
    assert.deepEqual(options, { permanent: true });
  });

  test("when the first migration fails, the stored world is exactly the fixture and the version 0", async () => {
    const world = loadWorld();
    const before = world.snapshot();
    const first = { ...broken, version: 1 };
    const report = await MigrationRunner.migrateWorld([first, { ...combatLog, version: 2 }]);
    assert.equal(report?.failed?.version, 1);
    assert.deepEqual(report?.ran, []);
    assert.deepEqual(world.snapshot(), before);
    assert.equal(world.settings["icon-engine.dataVersion"], 0);
    assert.deepEqual(world.requests, []);
  });

  test("a write the server refuses midway: what was written is put back, the version stays", async () => {
    const batch = MigrationRunner.BATCH;
    MigrationRunner.BATCH = 1; // a request per document, so the failure comes after a success
    try {
      const world = loadWorld({ failWrite: id => id === "actBrann00000002" });
      const report = await MigrationRunner.migrateWorld([combatLog, calling]);
      assert.deepEqual(report?.failed, { version: 2, document: "Actor Brann [actBrann00000002]", error: "the server refused actBrann00000002" });
      assert.equal(world.settings["icon-engine.dataVersion"], 1);
      const expected = loadWorld();
      await MigrationRunner.migrateWorld([combatLog]);
      assert.deepEqual(world.snapshot(), expected.snapshot(), "Ysolde's converted data was put back");
      // Ysolde written, Brann refused, then both put back as they were.
      assert.deepEqual(world.requests.filter(r => r.documentName === "Actor").map(r => [r.updates[0]._id, "calling" in r.updates[0].system]), [
        ["actYsolde0000001", true], ["actBrann00000002", true], ["actYsolde0000001", false], ["actBrann00000002", false]
      ]);
    } finally {
      MigrationRunner.BATCH = batch;
    }
  });

  test("a converter may not touch identity or embedded documents", async () => {
    for (const [field, change] of /** @type {const} */ ([["_id", "actNew0000000001"], ["items", [{ _id: "x", name: "y" }]], ["_stats", {}]])) {
      const world = loadWorld();
      const before = world.snapshot();
      const bad = { version: 1, label: "test: bad", documents: { Actor: (/** @type {any} */ s) => ({ ...s, [field]: change }) } };
      const report = await MigrationRunner.migrateWorld([bad]);
      assert.match(report?.failed?.error ?? "", new RegExp(`the converter changed ${field}, which a migration may not`));
      assert.deepEqual(world.snapshot(), before, field);
    }
  });

  test("a world newer than the system is left alone, with a warning", async () => {
    const world = loadWorld({ dataVersion: 5 });
    const report = await MigrationRunner.migrateWorld([combatLog, calling]);
    assert.deepEqual(report, { from: 5, to: 5, ran: [], failed: null });
    assert.deepEqual(world.requests, []);
    assert.deepEqual(world.notifications.map(([type, message]) => [type, message]), [["warn",
      "This world's data is at version 5, newer than this ICON Engine knows (2). Update the system before playing this world; nothing was migrated."]]);
  });

  test("only the active GM migrates", async () => {
    const world = loadWorld({ activeGM: false });
    assert.equal(await MigrationRunner.migrateWorld([combatLog, calling]), null);
    assert.deepEqual(world.requests, []);
    assert.equal(world.settings["icon-engine.dataVersion"], 0);
  });

  test("migrations are numbered 1, 2, 3, ... in order, each converter a function", () => {
    assert.throws(() => new MigrationRunner([calling]), /migration 1 is numbered 2: number them 1, 2, 3, \.\.\. in order/);
    assert.throws(() => new MigrationRunner([combatLog, { ...calling, version: 3 }]), /migration 2 is numbered 3/);
    assert.throws(() => new MigrationRunner([{ version: 1, label: "x", documents: { Actor: /** @type {any} */ ("no") } }]),
      /migration 1: documents\.Actor is not a function/);
    assert.equal(new MigrationRunner([combatLog, calling]).latest, 2);
  });
});

describe("the shipped migrations and their registration", () => {
  beforeEach(() => loadWorld());

  test("MIGRATIONS is a valid list whose labels are in lang/en.json", () => {
    const runner = new MigrationRunner(MIGRATIONS);
    assert.equal(runner.latest, MIGRATIONS.length);
    for (const migration of MIGRATIONS) assert.notEqual(localize(migration.label), migration.label, migration.label);
  });

  test("migration 1 stores the fixture's pre-issue-18 combat state in today's shape, the same fight", async () => {
    const core = (await import("../support/load-core.mjs")).default;
    const old = structuredClone(fixture.combats[0].system.state);
    assert.ok(Array.isArray(old.history) && old.v === undefined, "the fixture holds the old shape");
    const world = loadWorld();
    const report = await new MigrationRunner(MIGRATIONS.slice(0, 1)).run();
    assert.deepEqual(report.failed, null);
    const stored = world.stored.combats.get(fixture.combats[0]._id).system.state;
    assert.equal(stored.v, 3, "today's shape");
    assert.equal(stored.history, undefined, "no snapshots left");
    // The same fight: the same events give the same effects on the old and the converted state,
    // undo included (the old snapshots became steps), down to the refusal past the first one.
    const events = [{ type: "beginTurn", id: "cmbtGoblin000003" }, { type: "endTurn" }, { type: "undo" }, { type: "undo" },
      { type: "undo" }, { type: "undo" }];
    let [a, b] = [old, stored];
    for (const event of events) {
      const run = (/** @type {any} */ state) => { try { return core.combatApply(state, event); } catch (e) { return { error: String(e) }; } };
      const [ra, rb] = [run(a), run(b)];
      assert.deepEqual(rb.effects, ra.effects, `${event.type}: the same effects`);
      assert.equal("error" in rb, "error" in ra, `${event.type}: refused on both or neither`);
      if ("error" in ra) break;
      [a, b] = [ra.state, rb.state];
      assert.deepEqual(rb.state.current ?? null, ra.state.current ?? null, `${event.type}: the same open turn`);
      assert.equal(rb.state.round, ra.state.round);
      assert.equal(rb.state.partyResolve, ra.state.partyResolve);
    }
    // A second run finds nothing to convert.
    world.requests.length = 0;
    world.settings["icon-engine.dataVersion"] = 0;
    await new MigrationRunner(MIGRATIONS.slice(0, 1)).run();
    assert.equal(world.requests.length, 0);
  });

  test("migration 2 stores a version-2 combat state (combatants as objects) in today's shape, the same fight", async () => {
    const core = (await import("../support/load-core.mjs")).default;
    const v2 = JSON.parse(readFileSync(new URL("../../tests/fixtures/combat-state-v2.json", import.meta.url), "utf8"));
    assert.equal(v2.v, 2);
    const world = loadWorld({ dataVersion: 1 });
    const id = fixture.combats[0]._id;
    world.stored.combats.get(id).system.state = structuredClone(v2);
    const report = await new MigrationRunner(MIGRATIONS).run();
    assert.deepEqual(report.failed, null);
    const stored = world.stored.combats.get(id).system.state;
    assert.equal(stored.v, 3);
    assert.deepEqual(Object.values(stored.combatants).map(c => c[0]), Object.values(v2.combatants).map(c => c.id));
    const [a, b] = [v2, stored].map(state => core.combatApply(state, { type: "endTurn" }));
    assert.deepEqual(b, a, "the same event, the same fight and effects");
  });

  test("migration 3 writes abilities' text ranges to the database, which the models' migrateData converts only in memory", async () => {
    const { migrateAbilitySource } = await import("../../module/data/ability-rules.mjs");
    const world = loadWorld({ dataVersion: 2 });
    const ability = (/** @type {string} */ id, /** @type {string} */ range) => ({ _id: id, name: id, type: "ability",
      system: { description: "<p>Mine.</p>", actions: 1, tags: [], range }, effects: [], flags: {} });
    const stored = {
      item: ability("itmVolley0000001", "Range 5"),
      held: [ability("itmSelf000000001", "self"), ability("itmFar0000000001", "close blast 2"), { _id: "itmTrait00000001", name: "Tough", type: "trait", system: {} }]
    };
    const actor = world.stored.actors.get("actYsolde0000001");
    actor.items = structuredClone(stored.held);
    world.stored.items.set(stored.item._id, structuredClone(stored.item));
    game.data.items.push(structuredClone(stored.item));
    game.data.actors.find((/** @type {any} */ a) => a._id === actor._id).items = structuredClone(stored.held);
    // As Foundry reads them: toObject() is the source after migrateData (AbilityData's converts the
    // range), so it shows no text range although the database holds one.
    const asRead = (/** @type {any} */ data) => {
      const read = structuredClone(data);
      for (const item of [read, ...(read.items ?? [])]) if (item.type === "ability") migrateAbilitySource(item.system);
      return read;
    };
    for (const name of ["Actor", "Item"]) {
      const collection = game.collections.get(name);
      const contents = Object.getOwnPropertyDescriptor(collection, "contents")?.get;
      Object.defineProperty(collection, "contents", { get: () => contents.call(collection).map((/** @type {any} */ d) => ({ ...d, toObject: () => asRead(d.toObject()) })) });
    }
    const report = await new MigrationRunner(MIGRATIONS).run();
    assert.deepEqual(report.failed, null);
    assert.deepEqual(report.ran, [3]);
    assert.deepEqual(world.stored.items.get(stored.item._id).system.range, { kind: "range", value: 5 }, "a world ability, in the database");
    const held = world.stored.actors.get(actor._id).items;
    assert.deepEqual(held.map((/** @type {any} */ i) => i.system.range), [{ kind: "self", value: 0 }, { kind: "", value: 0 }, undefined],
      "an actor's abilities, in the database; its other items as they were");
    assert.equal(held[1].system.description, "<p>close blast 2</p><p>Mine.</p>", "text that is no range is kept in the description");
    assert.deepEqual(held[2], stored.held[2]);
    const writes = world.requests.map(r => [r.documentName, r.updates.map(u => u._id)]);
    assert.deepEqual(writes, [["Item", [stored.item._id]], ["Actor", [actor._id]]], "only the documents that held a text range");
    assert.equal(world.stored.items.get("itmStrike0000001").system.range, undefined, "an ability with no text range is left alone");
  });

  test("register(): a hidden world setting, default 0, and a ready hook that migrates", async () => {
    const world = loadWorld();
    MigrationRunner.register();
    assert.deepEqual(world.registered["icon-engine.dataVersion"], {
      name: "ICONENGINE.Settings.dataVersion.name", hint: "ICONENGINE.Settings.dataVersion.hint",
      scope: "world", config: false, type: Number, default: 0
    });
    assert.deepEqual(world.hooks.map(([name]) => name), ["ready"]);
    const report = await world.hooks[0][1]();
    assert.deepEqual(report, { from: 0, to: MIGRATIONS.length, ran: MIGRATIONS.map(m => m.version), failed: null });
  });
});
