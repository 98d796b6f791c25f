//! `importPack` (and the glossary read from it) on arbitrary bytes, in every format: it never
//! panics, and every line is counted in exactly one bucket of the report.
#![no_main]
use icon_engine::packs::{glossary, import_pack, ImportOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for options in [
        r#"{}"#,
        r#"{"format":"nedb","force":true}"#,
        r#"{"format":"json"}"#,
    ] {
        let options: ImportOptions = serde_json::from_str(options).unwrap();
        if let Ok(imported) = import_pack(&text, &options) {
            let r = &imported.report;
            assert!(r.documents == imported.documents.len());
            assert_eq!(
                r.lines,
                r.documents
                    + r.skipped
                    + r.superseded
                    + r.deleted
                    + r.unknown_deletions
                    + r.index_lines
                    + r.bad.len()
            );
        }
        let _ = glossary(&text, &options);
    }
});
