//! `cargo bench --bench packs`: importing a generated ~10 MB NeDB log with many revisions.

use icon_engine::packs::{import_pack, ImportOptions};
use std::time::Instant;

fn main() {
    // 200 entries, each with 5 pages of ~1 KB, rewritten many times, some deleted
    let body = "<p><strong>Term</strong>: a definition with some <em>markup</em>.</p>".repeat(16);
    let mut log = String::new();
    let mut revision = 0u64;
    while log.len() < 10 * 1024 * 1024 {
        let e = revision % 200;
        let pages: Vec<String> = (0..5)
            .map(|p| format!(r#"{{"_id":"p{e:07}x{p:07}","name":"Page {p}","type":"text","sort":{p},"text":{{"format":1,"content":"{body} rev {revision}"}}}}"#))
            .collect();
        log.push_str(&format!(
            r#"{{"_id":"e{e:015}","name":"Entry {e}","pages":[{}],"flags":{{"core":{{"sourceId":"JournalEntry.x"}}}},"_stats":{{"modifiedTime":{revision}}}}}"#,
            pages.join(",")
        ));
        log.push('\n');
        if revision % 97 == 0 {
            log.push_str(&format!(
                r#"{{"$$deleted":true,"_id":"e{:015}"}}"#,
                (revision + 1) % 200
            ));
            log.push('\n');
        }
        revision += 1;
    }
    let start = Instant::now();
    let imported = import_pack(&log, &ImportOptions::default()).expect("imports");
    let took = start.elapsed();
    let r = &imported.report;
    println!("| log | lines | documents | superseded | deleted | import time |");
    println!("|---|---:|---:|---:|---:|---:|");
    println!(
        "| {:.1} MB generated NeDB log | {} | {} | {} | {} | {:.0} ms |",
        log.len() as f64 / 1_048_576.0,
        r.lines,
        r.documents,
        r.superseded,
        r.deleted,
        took.as_secs_f64() * 1e3
    );
}
