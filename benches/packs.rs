//! `cargo bench --bench packs`: importing generated ~10 MB NeDB logs with many revisions (the
//! shape of a world edited for years), the same entries as one JSON export, and the seed with its
//! glossary. Prints markdown table rows (median of several runs) for BENCHMARKS.md.

use icon_engine::packs::{glossary, import_pack, import_pack_json, ImportOptions};
use std::time::{Duration, Instant};

const TARGET: usize = 10 * 1024 * 1024;
const RUNS: usize = 7;

/// A log of `entries` journal entries with `pages` pages of `body` each, rewritten in turn until
/// it reaches ~10 MB, with a deletion now and then (a deleted entry comes back on its next turn)
/// and an index line at the top, as NeDB writes them.
fn generated_log(entries: u64, pages: u64, body: &str) -> String {
    let mut log = String::with_capacity(TARGET + 64 * 1024);
    log.push_str(r#"{"$$indexCreated":{"fieldName":"name","unique":false,"sparse":false}}"#);
    log.push('\n');
    let mut revision = 0u64;
    while log.len() < TARGET {
        let e = revision % entries;
        let pages: Vec<String> = (0..pages)
            .map(|p| {
                let content = serde_json::Value::String(format!("{body} rev {revision}"));
                format!(r#"{{"_id":"p{e:07}x{p:07}","name":"Page {p}","type":"text","sort":{},"title":{{"show":true,"level":1}},"text":{{"format":1,"content":{content}}},"ownership":{{"default":-1}},"flags":{{}}}}"#, p * 100_000)
            })
            .collect();
        log.push_str(&format!(
            r#"{{"_id":"e{e:015}","name":"Entry {e}","pages":[{}],"ownership":{{"default":0}},"flags":{{"core":{{"sourceId":"Compendium.world.x.JournalEntry.e{e:015}"}},"exportSource":{{"world":"w","system":"icon-engine","coreVersion":"10.291","systemVersion":"0.1"}}}},"_stats":{{"modifiedTime":{revision}}},"folder":null,"sort":{e}}}"#,
            pages.join(",")
        ));
        log.push('\n');
        if revision % 97 == 0 {
            log.push_str(&format!(
                r#"{{"$$deleted":true,"_id":"e{:015}"}}"#,
                (revision + 1) % entries
            ));
            log.push('\n');
        }
        revision += 1;
    }
    log
}

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn row(case: &str, text: &str) {
    let options = ImportOptions::default();
    let imported = match import_pack(text, &options) {
        Ok(i) if i.report.bad.is_empty() => i,
        Ok(i) => {
            println!(
                "| {case} | {} bad lines: the generator is wrong |",
                i.report.bad.len()
            );
            return;
        }
        Err(e) => {
            println!("| {case} | failed: {e} |");
            return;
        }
    };
    let r = &imported.report;
    let took = median(|| {
        let _ = std::hint::black_box(import_pack(std::hint::black_box(text), &options));
    });
    // what the wasm side runs: the import written as JSON text, entry by entry
    let as_json = median(|| {
        let _ = std::hint::black_box(import_pack_json(std::hint::black_box(text), &options));
    });
    let mb = text.len() as f64 / 1_048_576.0;
    println!(
        "| {case} | {mb:.1} MB | {} | {} | {} | {} | {:.1} ms | {:.0} MB/s | {:.1} ms |",
        r.lines,
        r.documents,
        r.superseded,
        r.deleted,
        took.as_secs_f64() * 1e3,
        mb / took.as_secs_f64(),
        as_json.as_secs_f64() * 1e3
    );
}

fn main() {
    let html = "<p><strong>Term</strong>: a definition with some <em>markup</em> and a <a href=\"https://example.com\">link</a>.</p>";
    println!("| input | size | lines | entries | superseded | deleted | import (median of {RUNS}) | throughput | import as JSON text |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let big = generated_log(200, 5, &html.repeat(8));
    row("NeDB log: 200 entries × 5 pages of ~1 KB, rewritten", &big);
    let small = generated_log(5_000, 1, html);
    row("NeDB log: 5000 entries × 1 small page, rewritten", &small);
    // the entries the big log leaves, as one JSON export (an array)
    if let Ok(imported) = import_pack(&big, &ImportOptions::default()) {
        let json = serde_json::to_string(&imported.documents).unwrap_or_default();
        row("JSON export of those 200 entries", &json);
    }
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seeds/icon-rules-reference.db"
    );
    if let Ok(text) = std::fs::read_to_string(seed) {
        row("the seed (icon-rules-reference.db)", &text);
        let options = ImportOptions::default();
        let terms = glossary(&text, &options).map_or(0, |g| g.len());
        let took = median(|| {
            let _ = std::hint::black_box(glossary(std::hint::black_box(&text), &options));
        });
        println!(
            "\n| glossary of the seed (import + parse) | terms | time |\n|---|---:|---:|\n| `glossary` | {terms} | {:.2} ms |",
            took.as_secs_f64() * 1e3
        );
    }
}
