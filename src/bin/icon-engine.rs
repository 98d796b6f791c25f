//! `icon-engine`: the rules core's command line.
//!
//! ```text
//! icon-engine import <file> --out <dir> [--format auto|nedb|json] [--force]
//! icon-engine glossary <file>
//! ```
//! `import` writes foundryvtt-cli source JSON (one file per entry, `_key`s set, page HTML
//! sanitised) from an NeDB log or a JSON export, and prints the report. `glossary` prints the
//! glossary terms of a pack's pages as JSON.

use icon_engine::packs::{
    file_name, glossary, import_pack, sanitize::sanitize, source_form, Format, ImportOptions,
};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: icon-engine import <file> --out <dir> [--format auto|nedb|json] [--force]\n       icon-engine glossary <file>");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("icon-engine: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let (Some(command), Some(file)) = (args.first(), args.get(1)) else {
        return Ok(usage());
    };
    let mut options = ImportOptions::default();
    let mut out: Option<String> = None;
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--out" => out = rest.next().cloned(),
            "--force" => options.force = true,
            "--format" => {
                options.format = match rest.next().map(String::as_str) {
                    Some("auto") => Format::Auto,
                    Some("nedb") => Format::Nedb,
                    Some("json") => Format::Json,
                    other => {
                        return Err(format!("--format takes auto, nedb or json, not {other:?}"))
                    }
                }
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let imported = import_pack(&text, &options).map_err(|e| e.to_string())?;
    match command.as_str() {
        "glossary" => {
            let terms: Vec<_> = imported
                .documents
                .iter()
                .flat_map(|d| d["pages"].as_array().cloned().unwrap_or_default())
                .flat_map(|p| {
                    glossary::terms(
                        p.pointer("/text/content")
                            .and_then(|c| c.as_str())
                            .unwrap_or(""),
                        p["name"].as_str().unwrap_or(""),
                    )
                })
                .collect();
            let json = serde_json::to_string_pretty(&terms).map_err(|e| e.to_string())?;
            println!("{json}");
            Ok(ExitCode::SUCCESS)
        }
        "import" => {
            let Some(out) = out else {
                return Ok(usage());
            };
            std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {out}: {e}"))?;
            let r = &imported.report;
            let pages: usize = imported
                .documents
                .iter()
                .map(|d| d["pages"].as_array().map_or(0, Vec::len))
                .sum();
            for doc in imported.documents.iter().cloned() {
                let path = std::path::Path::new(&out).join(file_name(&doc));
                let source = source_form(doc, &sanitize);
                let json = serde_json::to_string_pretty(&source).map_err(|e| e.to_string())? + "\n";
                std::fs::write(&path, json)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            println!(
                "{} entries ({pages} pages) from {} lines: {} superseded, {} deleted, {} bad lines, {} warnings; written to {out}",
                r.documents,
                r.lines,
                r.superseded,
                r.deleted,
                r.bad.len(),
                r.warnings.len()
            );
            for b in &r.bad {
                println!("  line {}: {}", b.line, b.error);
            }
            for w in &r.warnings {
                println!(
                    "  {} {}: {}",
                    w.document_id.as_deref().unwrap_or("-"),
                    w.kind,
                    w.detail
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => Ok(usage()),
    }
}
