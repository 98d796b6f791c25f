// Loads a built wasm module (wasm-bindgen glue + a .wasm file) the way the system does and prints
// what a few calls return, as one JSON line: the client core's verbs, the importer's, or the
// encounter forecast's. scripts/
// build.sh runs it on the unoptimised and on the wasm-opt output and keeps the optimised module
// only if both print the same.
//   node scripts/wasm-smoke.mjs wasm-dir/icon_engine.js some.wasm
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [glue, wasm] = process.argv.slice(2);
const m = await import(pathToFileURL(path.resolve(glue)).href);
m.initSync({ module: readFileSync(wasm) });

/** @param {() => unknown} f */
const attempt = f => {
  try {
    return f();
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
};
const dice = formula => JSON.stringify({ kind: "dice", formula });
const out = m.rollJson
  ? {
    version: attempt(() => m.version()),
    roll: attempt(() => m.resolveJson(dice("4d6kh3 + 2d8!"), "[[1,2,3,4],[8,8]]")),
    more: attempt(() => m.resolveJson(dice("4d6kh3 + 2d8!"), "[[1,2,3,4],[8,8],[8]]")),
    attack: attempt(() => m.resolveJson(JSON.stringify({ kind: "icon.attack", boons: 2, defense: 12 }), "[[17],[2,5]]")),
    seeded: attempt(() => m.rollJson(JSON.stringify({ kind: "tribute.test", rank: 2, focus: 1, die: 8, opposition: 3 }), 7)),
    odds: attempt(() => m.oddsJson(dice("3d6"))),
    plan: attempt(() => m.planJson(dice("2d20kh1 + 1d4"))),
    combat: attempt(() => m.combatApplyJson(null, JSON.stringify({ type: "start", combatants: [{ id: "a", side: "party" }] }))),
    bad: attempt(() => m.planJson(dice("2d")))
  }
  : m.Forecast
  ? {
    version: attempt(() => m.version()),
    forecast: attempt(() => {
      const hero = { id: "h", side: "party", isPlayerCharacter: true, hp: 20, maxHp: 20, defense: 10, die: 8, fray: 2 };
      const foe = { id: "f", side: "foes", template: "elite", hp: 18, maxHp: 18, defense: 8, die: 6, fray: 1, canCrit: false };
      const f = new m.Forecast(JSON.stringify({ fighters: [hero, foe], options: { fights: 300, seed: 5 } }));
      f.play(150);
      f.play(1000);
      return { played: f.played, report: JSON.parse(f.report()), steps: JSON.parse(f.trace(3)).steps.length };
    }),
    bad: attempt(() => new m.Forecast("{}"))
  }
  : {
    version: attempt(() => m.version()),
    pack: attempt(() => m.importPack('{"_id":"aaaaaaaaaaaaaaa1","name":"x","pages":[{"_id":"bbbbbbbbbbbbbbb1","name":"p","type":"text","text":{"content":"<p><strong>Dazed</strong>: a curse.</p><script>x</script>"}}]}')),
    terms: attempt(() => m.glossaryTerms("<p><strong>Dodge</strong>: immune.</p>", "P")),
    bad: attempt(() => m.importPack("x\ny", { format: "nedb" }))
  };
if (typeof out.version !== "string") {
  console.error("version() did not return a string:", out.version);
  process.exit(1);
}
console.log(JSON.stringify(out));
