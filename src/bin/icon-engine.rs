//! `icon-engine`: the rules core's command line.
//!
//! ```text
//! icon-engine import <file> --out <dir> [--format auto|nedb|json] [--force]
//! icon-engine glossary <file> [--format auto|nedb|json] [--force]
//! ```
//! `import` writes foundryvtt-cli source JSON (one file per entry, `_key`s set, page HTML
//! sanitised with an allowlist) from an NeDB log or a JSON export, and prints the report; a log
//! with more than 10% corrupt lines is refused (exit 1) unless `--force`. `glossary` prints the
//! glossary terms of a pack's pages as JSON. The logic lives in `icon_engine::packs`.

use icon_engine::packs::{
    file_name, glossary, import_pack, sanitize::sanitize, source_form, Format, ImportOptions,
    Imported,
};
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str =
    "usage: icon-engine import <file> --out <dir> [--format auto|nedb|json] [--force]
       icon-engine glossary <file> [--format auto|nedb|json] [--force]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("icon-engine: {message}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Run(message)) => {
            eprintln!("icon-engine: {message}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    /// The command line is wrong (exit 2).
    Usage(String),
    /// The command failed (exit 1).
    Run(String),
}

fn run(args: &[String]) -> Result<(), Failure> {
    let usage = |m: &str| Failure::Usage(m.to_string());
    let command = args.first().ok_or_else(|| usage("no command"))?;
    if !matches!(command.as_str(), "import" | "glossary") {
        return Err(usage(&format!("unknown command {command:?}")));
    }
    let file = args.get(1).ok_or_else(|| usage("no input file"))?;
    let mut options = ImportOptions::default();
    let mut out: Option<&String> = None;
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--out" if command == "import" => {
                out = Some(
                    rest.next()
                        .ok_or_else(|| usage("--out needs a directory"))?,
                )
            }
            "--force" => options.force = true,
            "--format" => {
                options.format = match rest.next().map(String::as_str) {
                    Some("auto") => Format::Auto,
                    Some("nedb") => Format::Nedb,
                    Some("json") => Format::Json,
                    other => {
                        return Err(usage(&format!(
                            "--format takes auto, nedb or json, not {}",
                            other.unwrap_or("nothing")
                        )))
                    }
                }
            }
            other => return Err(usage(&format!("unknown option {other}"))),
        }
    }
    let out = match (command.as_str(), out) {
        ("import", None) => return Err(usage("import needs --out <dir>")),
        (_, out) => out,
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::Run(format!("cannot read {file}: {e}")))?;
    // `import` has its --out (checked above); `glossary` has none and prints
    let Some(out) = out else {
        let terms = glossary(&text, &options).map_err(|e| Failure::Run(e.to_string()))?;
        let json = serde_json::to_string_pretty(&terms).map_err(|e| Failure::Run(e.to_string()))?;
        println!("{json}");
        return Ok(());
    };
    let imported = import_pack(&text, &options).map_err(|e| Failure::Run(e.to_string()))?;
    write(&imported, Path::new(out)).map_err(Failure::Run)?;
    print_report(&imported, out);
    Ok(())
}

/// One foundryvtt-cli source file per entry, HTML sanitised.
fn write(imported: &Imported, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for doc in &imported.documents {
        let path = out.join(file_name(doc));
        let source = source_form(doc.clone(), &sanitize);
        let json = serde_json::to_string_pretty(&source).map_err(|e| e.to_string())? + "\n";
        std::fs::write(&path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn print_report(imported: &Imported, out: &str) {
    let r = &imported.report;
    let pages: usize = imported
        .documents
        .iter()
        .map(|d| d["pages"].as_array().map_or(0, Vec::len))
        .sum();
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
        let at = match (&w.document_id, &w.page_id) {
            (Some(d), Some(p)) => format!("{d}.{p}"),
            (Some(d), None) => d.clone(),
            _ => "-".to_string(),
        };
        println!("  {at} {}: {}", w.kind, w.detail);
    }
}
