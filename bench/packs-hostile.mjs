// The hostile pack inputs of issue 16 against the built wasm (node, median of 5 after a warm-up):
// each is answered in linear time, or refused before any work when past a stated limit.
//   node bench/packs-hostile.mjs      (prints markdown rows for BENCHMARKS.md)
import core from "../test/support/load-importer.mjs";

const entry = pages => JSON.stringify({ _id: "hostilehostile01", name: "H", pages });
const page = (i, content) => ({ _id: `p${String(i).padStart(15, "0")}`, name: "P", text: { format: 1, content } });
const nested = bytes => "<ul><li><p><strong>T</strong>: d</p>".repeat(Math.floor(bytes / 37));

const cases = [
  ["350 KB page of `<!---->` (was 22 s)", () => core.importPack(entry([page(0, "<!---->".repeat(50_000))]))],
  ["512 KiB of nested list items, `glossaryTerms` (at its limit)", () => core.glossaryTerms(nested(512 * 1024), "P")],
  ["50k nested list items (1.7 MB), `glossaryTerms` (was > 10 s)", () => core.glossaryTerms(nested(50_000 * 37), "P")],
  ["one entry with 100,000 script pages (was 5.5 s)", () => core.importPack(entry(Array.from({ length: 100_000 }, (_, i) => page(i, "<script>x</script>"))))],
  ["16 MiB page of `<a>` (at the field limit)", () => core.importPack(entry([page(0, "<a>".repeat(Math.floor(16 * 1024 * 1024 / 3)))]))],
  ["17 MiB page of `<a>` (past it; was a trap at 50 MB)", () => core.importPack(entry([page(0, "<a>".repeat(Math.floor(17 * 1024 * 1024 / 3)))]))],
  ["65 MiB pack (past the pack limit)", () => core.importPack(" ".repeat(65 * 1024 * 1024))]
];

console.log("| input | result | median ms |");
console.log("|---|---|---:|");
for (const [name, run] of cases) {
  let result;
  const once = () => {
    try {
      const r = run();
      result = Array.isArray(r) ? `${r.length} terms` : `${r.documents.length} entries, ${r.report.warnings.length} warnings`;
    } catch (e) {
      result = `refused: ${e.message}`;
    }
  };
  once();
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    once();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${name} | ${result} | ${times[2].toFixed(1)} |`);
}
