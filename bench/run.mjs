// `npm run bench`: the core (built wasm, in node and headless Chromium) side by side with the tools
// users would pick instead, in one process on one machine (issue 9). Prints markdown and appends
// it to BENCHMARKS.md with the date and command. Timings are recorded, never asserted in tests.
//
// Sections: rolling vs @dice-roller/rpg-dice-roller; rollMany; exact odds vs Python icepool (a
// venv in target/bench-venv, made on first use); pack import vs plain JSON.parse and
// @foundryvtt/foundryvtt-cli; wasm size and instantiate time in Chromium; the combat reducer at
// 15/100/1,000/10,000 combatants (beside the old core with ICON_OLD_WASM=DIR); the largest legal
// request of every kind; the wasm-size options (bench/size-options.sh: two scratch release
// builds). `--only=a,b` runs some sections (rolling, batch, odds, packs, size, options, combat,
// limits); `--no-append` only prints.
// ICON_FUZZ_SECONDS=600 also runs every cargo-fuzz target for that long (bench/fuzz.sh).
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const raw = await import(`${root}wasm/icon_engine.js`);
raw.initSync({ module: readFileSync(`${root}wasm/icon_engine_bg.wasm`) });
// everything below goes through the system's public API (module/core.mjs), the path users take:
// request objects in, outcome objects out, every argument checked before wasm is entered
const api = await import(`${root}module/core.mjs`);
const core = await api.loadCore();
const dice = formula => ({ kind: "dice", formula });

const only = process.argv.find(a => a.startsWith("--only="))?.slice(7).split(",");
const want = name => !only || only.includes(name);
const out = [];
const say = (line = "") => { console.log(line); out.push(line); };
const verdict = ok => (ok ? "met" : "**not met**");
const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** Calls per second of `fn`: the best of three windows of about `ms` milliseconds each, after
 * ~300 ms of warm-up, so both sides are measured with their code optimised and a burst of load
 * from elsewhere on the machine does not decide the ratio. */
function rate(fn, ms = 400) {
  for (const warm = performance.now() + 300; performance.now() < warm;) for (let i = 0; i < 64; i++) fn(i);
  let best = 0;
  for (let window = 0; window < 3; window++) {
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < ms) for (let i = 0; i < 64; i++) fn(n++);
    best = Math.max(best, n / ((performance.now() - start) / 1000));
  }
  return best;
}

/** Median milliseconds of `fn` over `runs` runs (after one warm-up). */
function median(fn, runs = 7) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

say(`## Benchmarks — ${new Date().toISOString().slice(0, 10)}, \`npm run bench\`${only ? ` \`--only=${only}\`` : ""}`);
say("");
say(`node ${process.version}, ${(await import("node:os")).cpus()[0]?.model ?? "?"} (${(await import("node:os")).cpus().length} cores); wasm ${fmt(readFileSync(`${root}wasm/icon_engine_bg.wasm`).length)} bytes.`);
say("");

/* ---------------------------------------------------------------- rolling */
/**
 * Rates of several functions measured in turn (a window of each, `rounds` times, after a warm-up
 * of each), so that all of them meet the same load on a shared machine; the best window of each.
 * @param {(() => unknown)[]} fns
 */
function rates(fns, ms = 150, rounds = 4) {
  for (const fn of fns) for (const warm = performance.now() + 300; performance.now() < warm;) for (let i = 0; i < 64; i++) fn();
  const best = fns.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      let n = 0;
      while (performance.now() - start < ms) { for (let i = 0; i < 64; i++) fn(); n += 64; }
      best[k] = Math.max(best[k], n / ((performance.now() - start) / 1000));
    });
  }
  return best;
}

/** Every request kind and rpg-dice-roller's notation for the same dice (the rule's own formula,
 * which `odds(request).formula` shows, in rpg-dice-roller's words). */
const target = { hp: 20, maxHp: 20, vigor: 5, armor: 1, wounds: 0, isPlayerCharacter: true, statuses: ["dazed"] };
const ROLLING = [
  [dice("1d20+3"), "1d20+3"],
  [dice("4d6kh3"), "4d6kh3"],
  [dice("10d6x"), "10d6!"],
  [dice("3d6cs>=5"), "3d6>=5"],
  [{ kind: "icon.attack", boons: 2, defense: 12 }, "1d20+2d6kh1"],
  [{ kind: "icon.save", boons: 1 }, "1d20+1d6kh1"],
  [{ kind: "icon.damage", result: "hit", die: 8, dice: 2, fray: 3 }, "2d8kh2+3"],
  [{ kind: "icon.action", rating: 3, push: true }, "4d6kh1"],
  [{ kind: "icon.fortune", dice: 3 }, "3d6kh1"],
  [{ kind: "icon.evasion" }, "1d6"],
  [{ kind: "icon.applyDamage", target, amount: 7, source: "hit" }, "7"],
  [{ kind: "icon.heal", target: { ...target, hp: 5 }, healing: "rest" }, "5"],
  [{ kind: "icons.test", ability: 6, difficulty: 5 }, "1d6-1d6+6"],
  [{ kind: "tribute.test", rank: 2, focus: 2, burden: 1, die: 8, opposition: 3 }, "2+3d8kh1-2d8kh1-3"],
  [{ kind: "narrator.skill", skill: 12, difficulty: 0 }, "12+3d6"],
  [{ kind: "mns.action", target: 60, bonus: 5 }, "2d10"],
  [{ kind: "mns.save", score: 12 }, "2d10"],
  [{ kind: "mns.dice", die: "d100" }, "1d10+1d10"]
];

if (want("rolling")) {
  const { DiceRoll } = await import("@dice-roller/rpg-dice-roller");
  say("### Rolling: `roll` through module/core.mjs (a new request object in, the outcome object out) vs rpg-dice-roller, seeded and unseeded");
  say("");
  say("Each row measures the three side by side, a window of each in turn, four times; best window of each. The request object is written anew for every call, as a caller does; rpg-dice-roller parses its notation every call too.");
  say("");
  say("| request | rpg-dice-roller notation | rpg-dice-roller rolls/s | roll seeded rolls/s | ratio | roll unseeded rolls/s | ratio | target ≥ 20× |");
  say("|---|---|---:|---:|---:|---:|---:|:--:|");
  for (const [request, theirs] of ROLLING) {
    const text = JSON.stringify(request);
    // a fresh object each call (structuredClone is dearer than a literal, so a plain spread of a
    // flat copy: what `{kind: ..., boons: ...}` costs a caller)
    const fresh = () => ({ ...request });
    let seed = 0;
    const [them, seeded, unseeded] = rates([
      () => new DiceRoll(theirs).total,
      () => core.roll(fresh(), seed++).total,
      () => core.roll(fresh()).total
    ]);
    const met = seeded / them >= 20 && unseeded / them >= 20;
    say(`| \`${text.length > 70 ? `${text.slice(0, 67)}...` : text}\` | \`${theirs}\` | ${fmt(them)} | ${fmt(seeded)} | ${fmt(seeded / them, 1)}× | ${fmt(unseeded)} | ${fmt(unseeded / them, 1)}× | ${verdict(met)} |`);
  }
  say("");
}

/* ---------------------------------------------------------------- rollMany */
if (want("batch")) {
  say("### `rollMany(request, n, seed)`: totals as a Float64Array");
  say("");
  say("| request | n | ms per call | dice per second | target ≥ 50 M d6/s |");
  say("|---|---:|---:|---:|:--:|");
  for (const [formula, n, per] of [["1d6", 1_000_000, 1], ["10d6", 100_000, 10], ["100d6", 10_000, 100], ["1000d6", 1_000, 1000], ["4d6kh3", 125_000, 4]]) {
    let seed = 0;
    const ms = median(() => core.rollMany(dice(formula), n, seed++));
    const perSecond = (n * per) / (ms / 1000);
    say(`| \`${formula}\` | ${fmt(n)} | ${fmt(ms, 2)} | ${fmt(perSecond / 1e6, 1)} M | ${formula.endsWith("d6") ? verdict(perSecond >= 50e6) : "—"} |`);
  }
  say("");
}

/* ---------------------------------------------------------------- odds vs icepool */
/** Exact "n/d" strings (or BigInt parts) compared by cross-multiplication. */
const sameFraction = (a, b) => {
  const [an, ad = "1"] = String(a).split("/");
  const [bn, bd = "1"] = String(b).split("/");
  return BigInt(an) * BigInt(bd) === BigInt(bn) * BigInt(ad);
};

function icepoolAnswers() {
  const venv = path.join(root, "target", "bench-venv");
  const python = path.join(venv, "bin", "python");
  if (!existsSync(python)) {
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
  }
  if (spawnSync(python, ["-c", "import icepool"]).status !== 0) {
    execFileSync(path.join(venv, "bin", "pip"), ["install", "-q", "icepool"], { stdio: "inherit" });
  }
  return JSON.parse(execFileSync(python, [path.join(root, "bench", "icepool_questions.py")], { encoding: "utf8", maxBuffer: 64 << 20 }));
}

if (want("odds")) {
  const ice = icepoolAnswers();
  const byName = Object.fromEntries(ice.questions.map(q => [q.name, q]));
  say(`### Exact odds: \`core.odds\` / \`core.oddsArrays\` through module/core.mjs vs icepool ${ice.icepool} (Python ${ice.python})`);
  say("");
  say("icepool's cold run is its first evaluation in a fresh process, its warm run the same question again (its caches hit). The core's *first ask* decodes the request and computes its odds (the raw exports: a new handle each call); *again* is the same question asked again through the API, answered from the request handle's memo (odds are a pure function of the request). Times are per call from call rates after 300 ms of warm-up (V8 optimises wasm in the background).");
  say("");
  say("| question | core request | icepool cold ms | icepool warm ms | core first ask ms | core oddsArrays again ms | core odds again ms | cold / first ask | warm / again | same answers | ≥ 100× warm |");
  say("|---|---|---:|---:|---:|---:|---:|---:|---:|---|:--:|");
  /** Compares core probabilities (exact "n/d" or null, and f64) with icepool's {exact, p}. */
  const agree = (label, exact, p, theirs, log) => {
    const t = theirs ?? { exact: "0/1", p: 0 };
    if (exact != null) {
      if (!sameFraction(exact, t.exact)) log.push(`${label}: ${exact} ≠ ${t.exact}`);
      return "exact";
    }
    if (!(Math.abs(p - t.p) <= 1e-12)) log.push(`${label}: ${p} vs ${t.p}`);
    return "f64";
  };
  const totals = (odds, theirs, log) => {
    const kinds = new Set();
    const exact = new Map((odds.exact?.totals ?? []).map(([v, f]) => [String(v), f]));
    for (const [v, p] of odds.totals) kinds.add(agree(`P(${v})`, exact.get(String(v)) ?? null, p, theirs[String(v)], log));
    for (const v of Object.keys(theirs)) if (!odds.totals.some(([w]) => String(w) === v)) log.push(`icepool has ${v}, the core not`);
    return [...kinds].join("+");
  };
  const labels = (odds, theirs, log, map = l => l) => {
    const kinds = new Set();
    for (const [label, p] of Object.entries(odds.outcomes)) {
      kinds.add(agree(label, odds.exact?.outcomes?.[label] ?? null, p, theirs[map(label)], log));
    }
    return [...kinds].join("+");
  };
  const questions = [
    ["icon.attack 3 boons vs defense 10", { kind: "icon.attack", boons: 3, defense: 10 }, (o, a, log) => {
      const k = totals(o, a.totals, log);
      for (const l of ["hit", "crit", "exceed"]) agree(l, o.exact?.outcomes?.[l] ?? null, o.outcomes[l], a.outcomes[l].true, log);
      return k;
    }],
    ...[0, 1, 2, 3, 4, 5, 6].map(n => [`narrative pool ${n}`, { kind: "icon.fortune", dice: n }, (o, a, log) => labels(o, a.labels, log)]),
    ["tribute 6 focus + 6 burden d12", { kind: "tribute.test", rank: 0, focus: 5, burden: 5, die: 12, opposition: 0 }, (o, a, log) => {
      // icepool's joint (result, profit, waste) → the core's win/match/fail and profitWaste
      const result = {}, pw = {};
      const add = (m, k, e) => { m[k] = m[k] ? (() => { const [an, ad] = m[k].split("/").map(BigInt), [bn, bd] = e.split("/").map(BigInt); return `${an * bd + bn * ad}/${ad * bd}`; })() : e; };
      for (const [key, { exact }] of Object.entries(a.joint)) {
        const [r, profit, waste] = JSON.parse(key);
        add(result, r, exact);
        add(pw, `${profit},${waste}`, exact);
      }
      const f = x => ({ exact: x, p: Number(BigInt(x.split("/")[0]) * 10n ** 18n / BigInt(x.split("/")[1])) / 1e18 });
      const k = labels(o, Object.fromEntries(Object.entries(result).map(([l, x]) => [l, f(x)])), log);
      for (const { profit, waste, p, exact } of o.profitWaste) agree(`profit ${profit} waste ${waste}`, exact, p, pw[`${profit},${waste}`] && f(pw[`${profit},${waste}`]), log);
      if (o.profitWaste.length !== Object.keys(pw).length) log.push(`profit/waste: ${o.profitWaste.length} cells vs ${Object.keys(pw).length}`);
      return k;
    }],
    ["10d10 keep 3", dice("10d10kh3"), (o, a, log) => totals(o, a.totals, log)],
    ["6d6kh3 - 6d6kh3", dice("6d6kh3 - 6d6kh3"), (o, a, log) => totals(o, a.totals, log)],
    ["100d6", dice("100d6"), (o, a, log) => totals(o, a.totals, log)],
    ["icons.test ability 6 vs difficulty 5", { kind: "icons.test", ability: 6, difficulty: 5 }, (o, a, log) => totals(o, a.totals, log) + "; " + labels(o, a.labels, log)]
  ];
  const problems = [];
  for (const [name, request, check] of questions) {
    const q = byName[name];
    const log = [];
    const how = check(core.odds(request), q.answer, log);
    const text = JSON.stringify(request);
    const firstAsk = () => {
      const handle = raw.requestNew(text);
      raw.requestOddsArrays(handle);
      raw.requestsRelease();
    };
    const [first, again, oddsAgain] = rates([firstAsk, () => core.oddsArrays({ ...request }), () => core.odds({ ...request })], 100, 3)
      .map(perSecond => 1000 / perSecond);
    const ratio = q.warmMs / again;
    problems.push(...log.map(l => `${name}: ${l}`));
    say(`| ${name} | \`${text}\` | ${fmt(q.coldMs, 2)} | ${fmt(q.warmMs, 2)} | ${fmt(first, 4)} | ${fmt(again, 4)} | ${fmt(oddsAgain, 4)} | ${fmt(q.coldMs / first)}× | ${fmt(ratio)}× | ${log.length ? `**${log.length} differ**` : `yes (${how})`} | ${verdict(ratio >= 100)} |`);
  }
  say("");
  if (problems.length) { say("Differences:"); for (const p of problems.slice(0, 20)) say(`- ${p}`); say(""); }
}

/* ---------------------------------------------------------------- pack import */
/** The same shape of log as benches/packs.rs: ~10 MB, many revisions, some deletions. */
function generatedLog(entries = 200, pages = 5, target = 10 * 1024 * 1024) {
  const body = "<h2>Rules</h2><p>" + "The <strong>party</strong> acts first; foes follow. ".repeat(40) + "</p>";
  const lines = [JSON.stringify({ $$indexCreated: { fieldName: "name", unique: false, sparse: false } })];
  let size = lines[0].length;
  for (let revision = 0; size < target; revision++) {
    const e = revision % entries;
    const id = `e${String(e).padStart(15, "0")}`;
    const doc = {
      _id: id, name: `Entry ${e}`, ownership: { default: 0 }, folder: null, sort: e, _stats: { modifiedTime: revision },
      flags: { core: { sourceId: `Compendium.world.x.JournalEntry.${id}` } },
      pages: Array.from({ length: pages }, (_, p) => ({
        _id: `p${String(e).padStart(7, "0")}x${String(p).padStart(7, "0")}`, name: `Page ${p}`, type: "text", sort: p * 100000,
        title: { show: true, level: 1 }, text: { format: 1, content: `${body} rev ${revision}` }, ownership: { default: -1 }, flags: {}
      }))
    };
    lines.push(JSON.stringify(doc));
    size += lines.at(-1).length + 1;
    if (revision % 97 === 0) lines.push(JSON.stringify({ $$deleted: true, _id: `e${String((revision + 1) % entries).padStart(15, "0")}` }));
  }
  return lines.join("\n") + "\n";
}

/**
 * Median milliseconds of `a` and of `b` over `runs` runs taken in turn, so that both meet the
 * same load, after calling both for `warm` ms: wasm starts as baseline code that V8 optimises
 * in the background, which on a busy machine takes more than a few calls (one warm-up call left
 * the seed's import measured mostly before it).
 */
function medians(a, b, runs = 7, warm = 1000) {
  const start = performance.now();
  for (let n = 0; n < 3 || performance.now() - start < warm; n++) {
    a();
    b();
  }
  const ta = [], tb = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    a();
    ta.push(performance.now() - t);
    t = performance.now();
    b();
    tb.push(performance.now() - t);
  }
  const mid = v => v.sort((x, y) => x - y)[Math.floor(runs / 2)];
  return [mid(ta), mid(tb)];
}

/** What a plain-JS reader does: split lines, JSON.parse, last line per _id wins. */
function plainRead(text) {
  const docs = new Map();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let doc;
    try { doc = JSON.parse(line); } catch { continue; }
    if (!doc._id) continue;
    if (doc.$$deleted) docs.delete(doc._id);
    else docs.set(doc._id, doc);
  }
  return [...docs.values()];
}

if (want("packs")) {
  // foundryvtt-cli 3's extractPack({nedb: true}) reads the log with nedb-promises and then also
  // opens the .db path as LevelDB, which throws asynchronously here; so its NeDB reading step is
  // timed directly: the same Datastore load and find that extractNedb starts with.
  const { default: Datastore } = await import("nedb-promises");
  const cliRead = async file => {
    const db = new Datastore({ filename: file, autoload: true });
    return (await db.find({})).length;
  };
  say("### Pack import: `core.importPack` in wasm (replay, migration, HTML report) vs a plain-JS read vs foundryvtt-cli");
  say("");
  say("| log | size | documents | plain JS ms | core.importPack ms | ratio | foundryvtt-cli NeDB read ms | target ≤ 2× |");
  say("|---|---:|---:|---:|---:|---:|---:|:--:|");
  const dir = mkdtempSync(path.join(tmpdir(), "icon-bench-"));
  const seed = path.join(root, "tests", "fixtures", "seeds", "icon-rules-reference.db");
  const logs = [];
  if (existsSync(seed)) logs.push(["seed `icon-rules-reference.db`", readFileSync(seed, "utf8")]);
  logs.push(["generated NeDB log", generatedLog()]);
  const firsts = [];
  for (const [name, text] of logs) {
    const file = path.join(dir, "pack.db");
    writeFileSync(file, text);
    const start = performance.now();
    let imported = core.importPack(text);
    firsts.push(`${name.split(" ")[0]} ${fmt(performance.now() - start, 1)} ms`);
    const [plain, ours] = medians(() => plainRead(text), () => { imported = core.importPack(text); });
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await cliRead(file);
      runs.push(performance.now() - start);
    }
    const cli = runs.sort((a, b) => a - b)[1];
    say(`| ${name} | ${fmt(text.length / 1048576, 2)} MB | ${imported.documents.length} (plain: ${plainRead(text).length}) | ${fmt(plain, 1)} | ${fmt(ours, 1)} | ${fmt(ours / plain, 2)}× | ${fmt(cli, 1)} | ${verdict(ours / plain <= 2)} |`);
  }
  rmSync(dir, { recursive: true, force: true });
  say("");
  say(`Steady state: both sides warmed up for a second, then run in turn (median of 7). V8 first runs wasm as baseline code and optimises it in the background, so the first calls are slower: the first \`importPack\` of each log took ${firsts.join(", ")}.`);
  say("");
}

/* ---------------------------------------------------------------- size and start-up */
if (want("size")) {
  const bytes = readFileSync(`${root}wasm/icon_engine_bg.wasm`);
  const gz = gzipSync(bytes, { level: 9 }).length;
  say("### Size and start-up");
  say("");
  say("| measure | value | target | |");
  say("|---|---:|---:|:--:|");
  say(`| wasm raw | ${fmt(bytes.length / 1024, 1)} KiB (${fmt(bytes.length)} B) | ≤ 350 KB | ${verdict(bytes.length <= 350_000)} |`);
  say(`| wasm gzip -9 | ${fmt(gz / 1024, 1)} KiB (${fmt(gz)} B) | ≤ 130 KB | ${verdict(gz <= 130_000)} |`);
  try {
    const { openPage } = await import("../test/support/browser.mjs");
    const { startServer } = await import("../test/support/static-server.mjs");
    const server = await startServer();
    const browser = await openPage();
    const loads = [];
    for (let i = 0; i < 5; i++) {
      await browser.page.goto(`${server.url}/test/browser/harness.html?bench=${i}`);
      loads.push(await browser.page.evaluate(async () => {
        const t0 = performance.now();
        const glue = await import(`/wasm/icon_engine.js?${Math.random()}`);
        const bytes = await (await fetch(`/wasm/icon_engine_bg.wasm?${Math.random()}`)).arrayBuffer();
        const t1 = performance.now();
        await glue.default({ module_or_path: bytes });
        const t2 = performance.now();
        glue.requestRoll(glue.requestNew(JSON.stringify({ kind: "dice", formula: "3d6" })), 1);
        return { fetch: t1 - t0, instantiate: t2 - t1, first: performance.now() - t2 };
      }));
    }
    await browser.close();
    await server.close();
    const med = key => loads.map(l => l[key]).sort((a, b) => a - b)[2];
    say(`| Chromium: compile + instantiate (bytes in memory) | ${fmt(med("instantiate"), 1)} ms | — | |`);
    say(`| Chromium: first roll after instantiate | ${fmt(med("first"), 2)} ms | — | |`);
    say(`| Chromium: glue import + wasm fetch (local server) | ${fmt(med("fetch"), 1)} ms | — | |`);
  } catch (e) {
    say(`| Chromium | not measured: ${e.message.split("\n")[0]} | | |`);
  }
  say("");
}

/* ---------------------------------------------------------------- combat */
if (want("combat")) {
  // Issue 18: the event-log state side by side with the snapshot-history state it replaced. The
  // old core is a wasm built from the code before it: ICON_OLD_WASM=DIR (its icon_engine.js and
  // icon_engine_bg.wasm, e.g. main's wasm/ copied aside before building), else only the new one.
  const { combatUpdate } = await import(`${root}module/data/combat-rules.mjs`);
  const oldDir = process.env.ICON_OLD_WASM;
  let old = null;
  if (oldDir && existsSync(path.join(oldDir, "icon_engine.js"))) {
    old = await import(pathToFileURL(path.resolve(oldDir, "icon_engine.js")).href);
    old.initSync({ module: readFileSync(path.resolve(oldDir, "icon_engine_bg.wasm")) });
  }
  const id = i => `c${String(i).padStart(15, "0")}`; // Foundry ids are 16 characters
  /** A fight of n one-turn combatants, and a function that gives the next tracker move. */
  const fight = (api, n) => {
    const combatants = Array.from({ length: n }, (_, i) => ({ id: id(i), side: i % 2 ? "foes" : "party", isPlayerCharacter: i % 2 === 0 }));
    const sides = { party: combatants.filter(c => c.side === "party").map(c => c.id), foes: combatants.filter(c => c.side === "foes").map(c => c.id) };
    let state = api.combatApply(null, { type: "start", combatants }).state;
    const used = { party: 0, foes: 0 };
    const step = () => {
      const event = state.current ? { type: "endTurn" } : { type: "beginTurn", id: sides[state.next.side][used[state.next.side]++] };
      const out = api.combatApply(state, event);
      if (out.effects.some(e => e.type === "roundStarted")) used.party = used.foes = 0;
      const before = state;
      state = out.state;
      return before;
    };
    return { combatants, step, get state() { return state; } };
  };
  /**
   * µs per event: the least of `windows` windows of events (each at least 40 events and 300 ms, at
   * most 2 s), after `warm`. The least, because on a shared machine the other windows measure the
   * neighbours too.
   */
  const perEvent = (api, n, warm, windows = 5) => {
    const f = fight(api, n);
    for (let i = 0; i < warm; i++) f.step();
    let best = null;
    for (let w = 0; w < windows; w++) {
      let events = 0;
      const start = performance.now();
      const cpu = process.cpuUsage();
      while (events < 40 || (performance.now() - start < 300 && events < 20_000)) {
        f.step();
        events++;
        if (performance.now() - start > 2000 && events >= 4) break;
      }
      const used = process.cpuUsage(cpu);
      const us = (used.user + used.system) / events;
      if (!best || us < best.us) best = { us, wall: ((performance.now() - start) * 1000) / events, events };
    }
    return { ...best, f };
  };
  say("### Combat state (issue 18): an event through `combatApply` from JS, the event log against the snapshot history it replaced");
  say("");
  const os = await import("node:os");
  say(`One-turn combatants with 16-character ids, turns begun and ended in order, timed once the undo history has filled. Times are this process's CPU time per event (\`process.cpuUsage\`; wall-clock time in parentheses), the least of five windows, since the machine is shared (load average ${os.loadavg().map(l => fmt(l, 1)).join(", ")} at the start). ${old ? `Old: the wasm in \`ICON_OLD_WASM\` (${oldDir}).` : "No old wasm given (ICON_OLD_WASM), so no old column."} The update is what IconCombat hands to \`Combat#update\` for one turn event: the old module wrote the whole state, the new one \`combatUpdate\` (module/data/combat-rules.mjs), the largest over the timed events.`);
  say("");
  say("| combatants | µs per event (old) | µs per event (new) | new µs per event per combatant | state JSON (old → new) | largest update (old → new) | undo steps kept (old → new) | start (new) |");
  say("|---:|---:|---:|---:|---:|---:|---:|---:|");
  // both modules tier up (V8 compiles wasm lazily) before anything is timed
  perEvent(core, 15, 2000);
  if (old) perEvent(old, 15, 200);
  const kb = bytes => (bytes >= 1048576 ? `${fmt(bytes / 1048576, 2)} MB` : bytes >= 10240 ? `${fmt(bytes / 1024, 0)} KB` : `${fmt(bytes)} B`);
  for (const n of [15, 100, 1000, 10000]) {
    const now = perEvent(core, n, 120);
    // the largest update over a round's worth of events after the window
    let largest = 0;
    for (let i = 0; i < Math.min(2 * n + 2, 400); i++) {
      const before = now.f.step();
      largest = Math.max(largest, JSON.stringify(combatUpdate(before, now.f.state, [])).length);
    }
    let was = null;
    if (old) {
      const warm = n >= 10000 ? 2 : n >= 1000 ? 4 : 120;
      was = perEvent(old, n, warm);
    }
    const start = median(() => core.combatApply(null, { type: "start", combatants: now.f.combatants }), 3);
    const oldState = was ? JSON.stringify(was.f.state).length : null;
    const time = t => `${fmt(t.us, 1)} (${fmt(t.wall, 0)})`;
    say(`| ${fmt(n)} | ${was ? time(was) : "—"} | ${time(now)} | ${fmt(now.us / n, 3)} | ${was ? `${kb(oldState)} → ` : ""}${kb(JSON.stringify(now.f.state).length)} | ${was ? `${kb(oldState)} → ` : ""}${kb(largest)} | ${was ? `${was.f.state.history.length} → ` : ""}${now.f.state.logged - now.f.state.forgotten} | ${fmt(start, 2)} ms |`);
  }
  const tooMany = Array.from({ length: 100_000 }, (_, i) => ({ id: id(i), side: i % 2 ? "foes" : "party" }));
  const refused = median(() => { try { core.combatApply(null, { type: "start", combatants: tooMany }); } catch { /* refused: at most 10,000 */ } }, 3);
  say("");
  say(`A start with 100,000 combatants is refused (a combat has at most 10,000) in ${fmt(refused, 1)} ms${old ? `; the old core took ${fmt(median(() => { try { old.combatApply(null, { type: "start", combatants: tooMany.slice(0, 20_000) }); } catch { /* */ } }, 1), 0)} ms for a start of 20,000` : ""}.`);
  say("");
}

/* ---------------------------------------------------------------- limits */
if (want("limits")) {
  say("### The largest legal request of every kind, and of every other export but combat and packs, through module/core.mjs (node)");
  say("");
  say("Median of 3 calls each, after one; a request and every other argument but a combat's and a pack's is at most 256 KiB of JSON (`MAX_REQUEST_JSON`), a roll at most 10,000 dice, odds at most 8,192 totals and a 40 ms budget, `rollMany` at most 1,000,000 rolls and 1,000,000 dice (500,000 kept, dropped or counted). Odds are timed on a new request each call (the first ask, not the memo).");
  say("");
  say("| request | plan ms | roll ms | odds ms (first ask) | < 50 ms |");
  say("|---|---:|---:|---:|:--:|");
  const target = { hp: 100000, maxHp: 100000, vigor: 25000, armor: 1000, wounds: 0, isPlayerCharacter: true, statuses: [] };
  const manyStatuses = Array.from({ length: 15000 }, (_, i) => `status-${i}`);
  const largest = [
    dice(Array.from({ length: 10 }, () => "1000d1000000").join(" + ")),
    dice("1000d6x"),
    dice("1000d6"),
    dice("80d100"),
    dice("1d8192"),
    dice("2d8192kh1"),
    dice("1d1000000"),
    dice("2d1000000kh1"),
    dice("2d1000000kh1cs>5"),
    dice("1000d6kh500"),
    dice("20d10kh5"),
    dice(`${"1d6 + ".repeat(499)}1d6`),
    { kind: "icon.attack", boons: 100, bonus: 1000, defense: 100 },
    { kind: "icon.save", curses: 100, bonus: -1000 },
    { kind: "icon.damage", result: "crit", die: 12, dice: 20, bonusDice: 20, fray: 1000, flat: 1000 },
    { kind: "icon.action", rating: 4, boons: 20, aid: 20, push: true },
    { kind: "icon.fortune", dice: 20 },
    { kind: "icon.applyDamage", target, amount: 1000000, source: "hit" },
    { kind: "icon.applyDamage", target: { ...target, statuses: manyStatuses }, amount: 10, source: "hit" },
    { kind: "icon.heal", target: { ...target, statuses: manyStatuses }, healing: "rest" },
    { kind: "icon.evasion" },
    { kind: "icons.test", ability: 100, difficulty: 100, bonus: 100, penalty: 100 },
    { kind: "tribute.test", rank: 100, focus: 5, burden: 5, die: 12, opposition: { rank: 100, focus: 5, burden: 5 } },
    { kind: "narrator.skill", skill: 200, difficulty: 300, modifiers: 100, use: "attack", baseDamage: 1000000, ranks: 1000 },
    { kind: "mns.action", target: 1000, bonus: 1000 },
    { kind: "mns.save", score: 1000, dice: "d100" }
  ];
  let fresh = 0;
  const time = fn => {
    try {
      return fmt(median(fn, 3), 2);
    } catch (e) {
      const start = performance.now();
      try { fn(); } catch { /* the same refusal, timed */ }
      return `${fmt(performance.now() - start, 2)} (refused: ${e.message.slice(0, 60)})`;
    }
  };
  const worstOf = cells => Math.max(...cells.map(c => Number(c.replace(/,/g, "")) || 0));
  for (const request of largest) {
    const text = JSON.stringify(request);
    // odds on a request the core has not seen: the same request with its keys in another order
    const firstAsk = () => { raw.requestsRelease(); return core.odds(JSON.parse(text)); };
    const cells = [time(() => core.plan(request)), time(() => core.roll(request, fresh++)), time(firstAsk)];
    say(`| \`${text.length > 90 ? `${text.slice(0, 87)}...` : text}\` (${fmt(text.length)} B) | ${cells.join(" | ")} | ${verdict(worstOf(cells) < 50)} |`);
  }
  say("");
  say("| other export at its limit | ms | < 50 ms |");
  say("|---|---:|:--:|");
  const others = [
    ["rollMany(1d6, 1,000,000)", () => core.rollMany(dice("1d6"), 1_000_000, 1)],
    ["rollMany(1000d6, 1,000)", () => core.rollMany(dice("1000d6"), 1000, 1)],
    ["rollMany(10d6x, 2,000)", () => core.rollMany(dice("10d6x"), 2000, 1)],
    ["rollMany(4d6kh3, 125,000)", () => core.rollMany(dice("4d6kh3"), 125_000, 1)],
    ["rollMany(icon.attack 100 boons, 198)", () => core.rollMany({ kind: "icon.attack", boons: 100 }, 198, 1)],
    ["oddsArrays(1d8192), first ask", () => { raw.requestOddsArrays(raw.requestNew(JSON.stringify(dice("1d8192")))); raw.requestsRelease(); }],
    ["resolve(1000d6 × 10, its 10,000 faces)", () => core.resolve(dice(Array.from({ length: 10 }, () => "1000d6").join(" + ")), Array.from({ length: 10 }, () => Array(1000).fill(3)))],
    ["iconSaveable(25,000 statuses, ~190 KB)", () => core.iconSaveable(Array.from({ length: 25000 }, (_, i) => `s${i}`))],
    ["iconAfterAbility(25,000 statuses)", () => core.iconAfterAbility(Array.from({ length: 25000 }, (_, i) => `s${i}`))],
    ["iconDerived(15,000 statuses)", () => core.iconDerived({ ...target, statuses: manyStatuses })],
    ["narrativeApply(3 burdens, takeStrain)", () => core.narrativeApply({ strain: 0, burdens: [] }, { type: "takeStrain", amount: 1000000 })],
    ["clockTick(12 segments, 2^53 − 1 ticks)", () => core.clockTick({ segments: 12, filled: 0 }, Number.MAX_SAFE_INTEGER)],
    ["mnsLookup(baseHeight)", () => core.mnsLookup({ table: "baseHeight", roll: 100 })],
    ["rulesetTables()", () => core.rulesetTables()],
    ["a 2 MiB request (refused: over 256 KiB)", () => core.roll({ kind: "icon.save", note: "x".repeat(2 << 20) })]
  ];
  for (const [label, fn] of others) {
    const cell = time(fn);
    say(`| ${label} | ${cell} | ${verdict(worstOf([cell]) < 50)} |`);
  }
  say("");
}

/* ---------------------------------------------------------------- size options */
if (want("options")) {
  say("### The wasm-size options of issue 19, built from this source (bench/size-options.sh)");
  say("");
  for (const line of execFileSync("bash", [path.join(root, "bench", "size-options.sh")], { encoding: "utf8", maxBuffer: 1 << 24 }).trimEnd().split("\n")) say(line);
  say("");
}

if (process.env.ICON_FUZZ_SECONDS) {
  execFileSync("bash", [path.join(root, "bench", "fuzz.sh"), process.env.ICON_FUZZ_SECONDS], { stdio: "inherit" });
}

if (!process.argv.includes("--no-append")) {
  appendFileSync(path.join(root, "BENCHMARKS.md"), `\n${out.join("\n")}\n`);
  console.error("[bench] appended to BENCHMARKS.md");
}
