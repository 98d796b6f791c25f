//! Importing exported journal packs: NeDB logs and JSON exports become v13-shaped JournalEntry
//! documents with their pages, and a report that accounts for every line, so nothing is lost
//! silently. Imported HTML is data from strangers: everything that could run script is reported
//! (not changed: in Foundry the module runs it through `foundry.utils.cleanHTML`; the native CLI
//! sanitises it with [`sanitize`]).
//!
//! - [`nedb`]: replaying a `.db` log;
//! - [`json`]: Export Data files, arrays and foundryvtt-cli source files;
//! - [`migrate`]: the v13 shape and the repairs;
//! - [`html`]: the unsafe-HTML scanner (pure Rust, also in wasm);
//! - [`glossary`]: term → definition from the rules reference's pages;
//! - [`sanitize`] (native only): the CLI's allowlist sanitiser.

pub mod ability_text;
pub mod glossary;
pub mod html;
pub mod js_json;
pub mod json;
pub mod migrate;
pub mod nedb;
#[cfg(not(target_arch = "wasm32"))]
pub mod sanitize;

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest pack read: 64 MiB of text (what the boundary takes as one argument). Longer ones
/// are refused before any work, saying so.
pub const MAX_TEXT: usize = 64 * 1024 * 1024;

/// The error for a pack of `len` bytes (or UTF-16 units) past [`MAX_TEXT`].
pub fn too_long(len: usize) -> Error {
    Error::request(format!(
        "the pack is {:.1} MiB; at most {} MiB is read",
        len as f64 / 1_048_576.0,
        MAX_TEXT / 1_048_576
    ))
}

/// NeDB refuses a log with more than this share of corrupt lines (its `corruptAlertThreshold`),
/// and so do we unless forced. We count non-blank lines only.
pub const BAD_LINE_LIMIT: f64 = 0.10;

/// What the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON when the whole text is one JSON value (or starts with `[`), else an NeDB log.
    #[default]
    Auto,
    Nedb,
    Json,
}

/// `importPack` options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportOptions {
    #[serde(default)]
    pub format: Format,
    /// Import even when more than 10% of the lines are corrupt.
    #[serde(default)]
    pub force: bool,
}

/// A line (an item, for JSON) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    pub line: usize,
    pub error: String,
}

/// Something repaired, skipped or suspicious.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    pub document_id: Option<String>,
    pub page_id: Option<String>,
    /// The field it is about, as a JSON pointer into the entry (or the page, with `page_id`):
    /// `/text/content`, `/name`, `/flags/some-module/note`. Set for the unsafe-HTML kinds.
    pub field: Option<String>,
    /// `notJournal`, `idReplaced`, `duplicateId`, `blankName`, `titleLevel`, `textFormat`,
    /// `ownership`, `sort`, `badPage`, `v9`, and the unsafe-HTML kinds ([`html::KINDS`]).
    pub kind: String,
    pub detail: String,
}

/// The accounting of an import: every non-blank line (item, for JSON) is counted in exactly one
/// bucket, so `lines = documents + skipped + superseded + deleted + unknownDeletions +
/// indexLines + bad.len()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Non-blank lines (items, for JSON).
    pub lines: usize,
    /// Journal entries imported (the winning line of each).
    pub documents: usize,
    /// Winning lines that are not journal entries (reported as `notJournal`).
    pub skipped: usize,
    /// Lines replaced by a later line with the same `_id` (a revision or a deletion).
    pub superseded: usize,
    /// Deletion lines that removed a document.
    pub deleted: usize,
    /// Deletion lines for an `_id` that was not there.
    pub unknown_deletions: usize,
    /// NeDB's `$$indexCreated` and `$$indexRemoved` lines.
    pub index_lines: usize,
    pub bad: Vec<BadLine>,
    pub warnings: Vec<Warning>,
}

/// The documents and the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    /// v13 JournalEntry source objects with their `pages`, sorted by `sort`.
    pub documents: Vec<Value>,
    pub report: Report,
}

/// Imports a pack from its text.
pub fn import_pack(text: &str, options: &ImportOptions) -> Result<Imported> {
    let mut documents = Vec::new();
    let report = import_each(text, options, |entry| documents.push(Value::Object(entry)))?;
    Ok(Imported { documents, report })
}

/// `serde_json::to_string(&import_pack(text, options)?)`, made faster for the wasm side, which
/// hands an import to JS as this text: each entry is written as soon as it is migrated and
/// then dropped (see [`nedb::Lazy`]), by [`json`]'s writer.
pub fn import_pack_json(text: &str, options: &ImportOptions) -> Result<String> {
    let mut out = String::with_capacity(1024);
    out.push_str(json::DOCUMENTS_START);
    let mut first = true;
    let report = import_each(text, options, |entry| {
        if !first {
            out.push(',');
        }
        first = false;
        json::write_object(&mut out, &entry);
    })?;
    json::write_report_end(&mut out, &report);
    Ok(out)
}

/// The import: every entry, migrated, to `entry` in order, and the report.
fn import_each(
    text: &str,
    options: &ImportOptions,
    mut entry: impl FnMut(serde_json::Map<String, Value>),
) -> Result<Report> {
    if text.len() > MAX_TEXT {
        return Err(too_long(text.len()));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = match options.format {
        Format::Auto => detect(text),
        f => f,
    };
    // a JSON export is built whole; a log's winning lines are built one at a time
    let lazy = match format {
        Format::Json => None,
        Format::Nedb | Format::Auto => Some(nedb::replay_lazy(text)),
    };
    let (mut replay, taken, documents): (_, _, Box<dyn Iterator<Item = _>>) = match lazy {
        None => {
            let mut replay = json::read(text)?;
            let documents = std::mem::take(&mut replay.documents);
            let taken = migrate::valid_ids(&documents);
            (replay, taken, Box::new(documents.into_iter().map(Ok)))
        }
        Some(lazy) => {
            let taken = migrate::valid_id_set(lazy.ids());
            let (replay, documents) = lazy.into_documents();
            (replay, taken, Box::new(documents))
        }
    };
    let mut taken = taken;
    let corrupt = replay.corrupt;
    let renamed = std::mem::take(&mut replay.renamed);
    let mut report = Report {
        lines: replay.lines,
        superseded: replay.superseded,
        deleted: replay.deleted,
        unknown_deletions: replay.unknown_deletions,
        index_lines: replay.index_lines,
        bad: replay
            .bad
            .into_iter()
            .map(|(line, error)| BadLine { line, error })
            .collect(),
        ..Report::default()
    };
    for (item, old, new) in renamed {
        report.warnings.push(Warning {
            document_id: Some(new.clone()),
            page_id: None,
            field: None,
            kind: "duplicateId".into(),
            detail: format!("item {item} has the id {old} of an earlier item; it is another entry and was kept as {new}"),
        });
    }
    // NeDB's rule, for logs: more than 10% of lines that are not JSON refuses the file (lines
    // that are JSON but not documents it skips, and so do we, reporting them); a JSON export
    // either parses as a whole or not at all
    let share = corrupt as f64 / report.lines.max(1) as f64;
    if format != Format::Json && share > BAD_LINE_LIMIT && !options.force {
        let example = report
            .bad
            .first()
            .map(|b| format!(" (line {}: {})", b.line, b.error))
            .unwrap_or_default();
        return Err(Error::request(format!(
            "{corrupt} of {} lines are corrupt (more than 10%){example}, so nothing was imported; import with force to take the readable ones",
            report.lines
        )));
    }
    let mut late_bad = false;
    for doc in documents {
        match doc {
            Ok(doc) => match migrate::check_sizes(&doc)
                .map_err(Error::request)
                .map(|()| migrate::journal_entry(doc, &mut taken, &mut report.warnings))?
            {
                Some(e) => {
                    report.documents += 1;
                    entry(e);
                }
                None => report.skipped += 1,
            },
            Err((line, error)) => {
                report.bad.push(BadLine { line, error });
                late_bad = true;
            }
        }
    }
    if late_bad {
        report.bad.sort_by_key(|b| b.line);
    }
    Ok(report)
}

/// The glossary of a pack (any input `import_pack` reads): the terms of every text page.
pub fn glossary(text: &str, options: &ImportOptions) -> Result<Vec<glossary::Term>> {
    glossary::from_documents(&import_pack(text, options)?.documents)
}

/// A log has one object per line; an export is one JSON value. A text that is one JSON value
/// (or starts with `[`) is an export. Otherwise, one that starts with `{` is a broken export
/// (read as JSON, to say where it breaks) unless its lines read as a log's: the first line is a
/// complete object, or at least half of the first 1,000 non-blank lines are. So a log whose
/// first line is corrupt is still read as a log.
fn detect(text: &str) -> Format {
    let t = text.trim_start();
    if t.starts_with('[') || serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok() {
        return Format::Json;
    }
    if !t.starts_with('{') {
        return Format::Nedb;
    }
    let object = |line: &str| {
        let line = line.trim();
        nedb::top_level(line).is_some()
            || matches!(js_json::parse(line), Ok(serde_json::Value::Object(_)))
    };
    let mut lines = t.lines().map(str::trim).filter(|l| !l.is_empty());
    if lines.next().is_some_and(object) {
        return Format::Nedb;
    }
    let (mut seen, mut objects) = (1usize, 0usize);
    for line in lines.take(999) {
        seen += 1;
        objects += usize::from(object(line));
    }
    if objects * 2 >= seen {
        Format::Nedb
    } else {
        Format::Json
    }
}

/// What belongs to the world a document came from, dropped for a pack source: `_stats` (its
/// times, its user, a `compendiumSource` pointing into that world) and ownership by anyone but
/// `default` (its users do not exist where the pack goes).
fn drop_foreign(doc: &mut serde_json::Map<String, Value>) {
    doc.remove("_stats");
    if let Some(Value::Object(own)) = doc.get_mut("ownership") {
        own.retain(|k, _| k == "default");
    }
}

/// The foundryvtt-cli source form of an imported entry: `_key`s on the entry
/// (`!journal!<id>`) and its pages (`!journal.pages!<entry>.<page>`), as its `extractPack`
/// writes them, `clean` applied to every page's HTML (the CLI passes its sanitiser), and the
/// source world's stats and users dropped.
pub fn source_form(mut entry: Value, clean: &dyn Fn(&str) -> String) -> Value {
    let id = entry
        .get("_id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if let Some(pages) = entry.get_mut("pages").and_then(Value::as_array_mut) {
        for page in pages.iter_mut() {
            let page_id = page
                .get("_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(content) = page.pointer_mut("/text/content") {
                if let Some(html) = content.as_str() {
                    *content = Value::String(clean(html));
                }
            }
            if let Some(p) = page.as_object_mut() {
                drop_foreign(p);
                p.insert(
                    "_key".into(),
                    Value::String(format!("!journal.pages!{id}.{page_id}")),
                );
            }
        }
    }
    if let Some(e) = entry.as_object_mut() {
        drop_foreign(e);
        e.insert("_key".into(), Value::String(format!("!journal!{id}")));
    }
    entry
}

/// The file name foundryvtt-cli's `extractPack` gives an entry: the name with every character
/// but ASCII letters, digits and Cyrillic `А-я` as `_` (its `getSafeFilename`, which counts
/// UTF-16 units, so a character outside the BMP becomes `__`), `_`, the id, `.json`; the id
/// alone without a name.
pub fn file_name(entry: &Value) -> String {
    let id = entry.get("_id").and_then(Value::as_str).unwrap_or_default();
    let name = entry.get("name").and_then(Value::as_str).unwrap_or("");
    if name.is_empty() {
        return format!("{id}.json");
    }
    let safe: String = name
        .chars()
        .flat_map(|c| {
            let keep = c.is_ascii_alphanumeric() || ('\u{410}'..='\u{44f}').contains(&c);
            let n = if keep { 1 } else { c.len_utf16() };
            std::iter::repeat_n(if keep { c } else { '_' }, n)
        })
        .collect();
    format!("{safe}_{id}.json")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(detect("[]"), Format::Json);
        assert_eq!(
            detect("\n  {\"name\": \"A\",\n \"pages\": []}\n"),
            Format::Json
        );
        assert_eq!(detect("{\"_id\":\"a\"}\n{\"_id\":\"b\"}\n"), Format::Nedb);
        assert_eq!(detect("{\"_id\":\"a\"}\nnot json"), Format::Nedb);
        // a corrupt first line: the rest reads as a log
        assert_eq!(
            detect("{\"_id\":\"a\",\n{\"_id\":\"b\"}\n{\"_id\":\"c\"}\n"),
            Format::Nedb
        );
        assert_eq!(detect("{\n  \"name\": \"broken\",\n"), Format::Json);
        assert_eq!(detect("not json at all"), Format::Nedb);
        assert_eq!(detect(""), Format::Nedb);
    }

    #[test]
    fn a_broken_json_export_says_where_it_breaks() {
        let e = import_pack(
            "{\n  \"name\": \"A\",\n  \"pages\": [\n",
            &ImportOptions::default(),
        )
        .unwrap_err();
        assert!(
            e.message()
                .starts_with("the file is not valid JSON: EOF while parsing"),
            "{e}"
        );
    }

    #[test]
    fn refusal_names_the_first_bad_line() {
        let e = import_pack(
            "{\"_id\":\"a\",\"pages\":[]}\nx\ny",
            &ImportOptions::default(),
        )
        .unwrap_err();
        assert!(
            e.message()
                .starts_with("2 of 3 lines are corrupt (more than 10%) (line 2: not JSON"),
            "{e}"
        );
    }

    #[test]
    fn a_corrupt_first_line_is_one_bad_line_of_a_log() {
        let log = "{\"_id\":\"aaaaaaaaaaaaaaa0\",\"name\n{\"_id\":\"aaaaaaaaaaaaaaa1\",\"name\":\"A\",\"pages\":[]}\n{\"_id\":\"aaaaaaaaaaaaaaa2\",\"name\":\"B\",\"pages\":[]}";
        let e = import_pack(log, &ImportOptions::default()).unwrap_err();
        assert!(e.message().starts_with("1 of 3 lines are corrupt"), "{e}");
        let r = import_pack(
            log,
            &ImportOptions {
                force: true,
                ..ImportOptions::default()
            },
        )
        .unwrap();
        assert_eq!((r.report.documents, r.report.bad.len()), (2, 1));
    }

    #[test]
    fn a_byte_order_mark_is_not_a_bad_line() {
        let r = import_pack(
            "\u{feff}{\"_id\":\"aaaaaaaaaaaaaaa1\",\"name\":\"A\",\"pages\":[]}\n{\"_id\":\"aaaaaaaaaaaaaaa2\",\"name\":\"B\",\"pages\":[]}",
            &ImportOptions::default(),
        )
        .unwrap();
        assert_eq!((r.report.documents, r.report.bad.len()), (2, 0));
    }

    #[test]
    fn file_names_follow_foundryvtt_cli() {
        let f = |name: &str| file_name(&json!({"_id": "oTFwOxymQG9qIOAd", "name": name}));
        assert_eq!(
            f("Rules Reference (Tactical Combat)"),
            "Rules_Reference__Tactical_Combat__oTFwOxymQG9qIOAd.json"
        );
        assert_eq!(f("Équipe Щит 🛡"), "_quipe_Щит____oTFwOxymQG9qIOAd.json");
        assert_eq!(f(""), "oTFwOxymQG9qIOAd.json");
    }

    #[test]
    fn the_source_form_keys_entries_and_pages_and_cleans_html() {
        let entry = json!({"_id": "eeeeeeeeeeeeeee1", "name": "E",
            "_stats": {"compendiumSource": "JournalEntry.Ww2NsTPXkqetekYC", "lastModifiedBy": "tXyJLVgERViy4mQ6"},
            "ownership": {"default": 0, "tXyJLVgERViy4mQ6": 3},
            "pages": [
            {"_id": "ppppppppppppppp1", "text": {"content": "<p>a</p>"}, "_stats": {"createdTime": 1},
             "ownership": {"default": -1, "tXyJLVgERViy4mQ6": 3}},
            {"_id": "ppppppppppppppp2", "type": "image", "src": "x.webp"}
        ]});
        let s = source_form(entry, &|h: &str| h.to_uppercase());
        assert_eq!(s["_key"], "!journal!eeeeeeeeeeeeeee1");
        assert_eq!(
            s["pages"][0]["_key"],
            "!journal.pages!eeeeeeeeeeeeeee1.ppppppppppppppp1"
        );
        assert_eq!(
            s["pages"][1]["_key"],
            "!journal.pages!eeeeeeeeeeeeeee1.ppppppppppppppp2"
        );
        assert_eq!(s["pages"][0]["text"]["content"], "<P>A</P>");
        // the source world's stats and users are gone
        assert!(s.get("_stats").is_none() && s["pages"][0].get("_stats").is_none());
        assert_eq!(s["ownership"], json!({"default": 0}));
        assert_eq!(s["pages"][0]["ownership"], json!({"default": -1}));
    }
}
