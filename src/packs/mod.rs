//! Importing exported journal packs: NeDB logs and JSON exports become v13-shaped JournalEntry
//! documents with their pages, and a report that accounts for every line, so nothing is lost
//! silently. Imported HTML is data from strangers: everything that could run script is reported.

pub mod glossary;
pub mod html;
pub mod migrate;
pub mod nedb;
#[cfg(not(target_arch = "wasm32"))]
pub mod sanitize;

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// NeDB refuses a log with more than this share of corrupt lines, and so do we unless forced.
pub const BAD_LINE_LIMIT: f64 = 0.10;

/// What the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Format {
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

/// A line that could not be read.
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
    pub kind: String,
    pub detail: String,
}

/// The accounting of an import.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub lines: usize,
    pub documents: usize,
    pub superseded: usize,
    pub deleted: usize,
    pub bad: Vec<BadLine>,
    pub warnings: Vec<Warning>,
}

/// The documents and the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    pub documents: Vec<Value>,
    pub report: Report,
}

/// Imports a pack from its text.
pub fn import_pack(text: &str, options: &ImportOptions) -> Result<Imported> {
    let format = match options.format {
        Format::Auto => detect(text),
        f => f,
    };
    let mut report = Report::default();
    let raw: Vec<Map<String, Value>> = match format {
        Format::Nedb | Format::Auto => {
            let r = nedb::replay(text);
            report.lines = r.lines;
            report.superseded = r.superseded;
            report.deleted = r.deleted;
            report.bad = r
                .bad
                .into_iter()
                .map(|(line, error)| BadLine { line, error })
                .collect();
            let share = report.bad.len() as f64 / report.lines.max(1) as f64;
            if share > BAD_LINE_LIMIT && !options.force {
                return Err(Error::request(format!(
                    "{} of {} lines are corrupt (more than 10%), so the log was not imported; import with force to take the readable lines",
                    report.bad.len(),
                    report.lines
                )));
            }
            r.documents
        }
        Format::Json => json_documents(text, &mut report)?,
    };
    let mut documents = Vec::new();
    for doc in raw {
        if let Some(entry) = migrate::journal_entry(doc, &mut report.warnings) {
            documents.push(Value::Object(entry));
        }
    }
    report.documents = documents.len();
    Ok(Imported { documents, report })
}

/// A log has one object per line; an export is one JSON value.
fn detect(text: &str) -> Format {
    let t = text.trim_start();
    if t.starts_with('[') || serde_json::from_str::<Value>(text).is_ok() {
        Format::Json
    } else {
        Format::Nedb
    }
}

/// The foundryvtt-cli source form of an imported entry: `_key`s on the entry and its pages, and
/// `clean` applied to every page's HTML (the CLI passes its sanitiser).
pub fn source_form(mut entry: Value, clean: &dyn Fn(&str) -> String) -> Value {
    let id = entry["_id"].as_str().unwrap_or_default().to_string();
    entry["_key"] = Value::String(format!("!journal!{id}"));
    if let Some(pages) = entry.get_mut("pages").and_then(Value::as_array_mut) {
        for page in pages {
            let page_id = page["_id"].as_str().unwrap_or_default().to_string();
            page["_key"] = Value::String(format!("!journal.pages!{id}.{page_id}"));
            if let Some(content) = page.pointer_mut("/text/content") {
                if let Some(html) = content.as_str() {
                    *content = Value::String(clean(html));
                }
            }
        }
    }
    entry
}

/// A file name for an entry, as foundryvtt-cli names them: the name with anything but letters and
/// digits as `_`, then the id.
pub fn file_name(entry: &Value) -> String {
    let name: String = entry["name"]
        .as_str()
        .unwrap_or("entry")
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect();
    format!("{name}_{}.json", entry["_id"].as_str().unwrap_or_default())
}

/// A single document ("Export Data"), an array of documents, or foundryvtt-cli files (`_key`).
fn json_documents(text: &str, report: &mut Report) -> Result<Vec<Map<String, Value>>> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Error::request(format!("the file is not JSON: {e}")))?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(_) => vec![value],
        _ => {
            return Err(Error::request(
                "the JSON holds neither a document nor an array of documents",
            ))
        }
    };
    report.lines = items.len();
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::Object(doc) => out.push(doc),
            _ => report.bad.push(BadLine {
                line: i + 1,
                error: "not a JSON object".to_string(),
            }),
        }
    }
    Ok(out)
}
