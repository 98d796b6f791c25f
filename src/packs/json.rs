//! JSON inputs and the import as JSON text. Inputs: a single document as Foundry's "Export Data" writes it (`fvtt-JournalEntry-*.json`,
//! no `_id` on the entry), an array of documents, or a foundryvtt-cli source file (`_key` on the
//! entry and its pages). Items are counted as the report's "lines" (the item number stands for the
//! line number of a bad one, and the 10% rule of logs does not apply). An export is no log: an
//! item whose `_id` an earlier item already has is another entry, kept under a new id (derived
//! from the old one and its item number, so the same file imports the same way) and reported.

use super::nedb::{plain_run, Replay};
use super::{Imported, Report};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::fmt::Write;

/// The documents of a JSON export, in order of first appearance.
pub fn read(text: &str) -> Result<Replay> {
    let value: Value = super::js_json::parse(text)
        .map_err(|e| Error::request(format!("the file is not valid JSON: {e}")))?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(_) => vec![value],
        _ => {
            return Err(Error::request(
                "the JSON holds neither a document nor an array of documents",
            ))
        }
    };
    let mut r = Replay {
        lines: items.len(),
        ..Replay::default()
    };
    let mut kept: Vec<(usize, Map<String, Value>)> = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(mut doc) = item else {
            r.bad.push((i + 1, "not a JSON object".to_string()));
            continue;
        };
        // ids as NeDB keys them (a number is its string); an unusable one is left to the
        // migration, which replaces it
        if let Some(id) = super::nedb::id_of(&doc).ok().flatten() {
            if !doc.get("_id").is_some_and(Value::is_string) {
                doc.insert("_id".into(), Value::String(id));
            }
        }
        kept.push((i + 1, doc));
    }
    // a repeated id gets a new one that no item has
    let mut taken = super::migrate::valid_ids(kept.iter().map(|(_, d)| d));
    let mut seen: HashSet<String> = HashSet::new();
    for (item, doc) in &mut kept {
        let Some(id) = doc.get("_id").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        if seen.insert(id.clone()) {
            continue;
        }
        let new = super::migrate::fresh_id(&format!("{id}@{item}"), &mut taken);
        doc.insert("_id".into(), Value::String(new.clone()));
        r.renamed.push((*item, id, new));
    }
    r.documents = kept.into_iter().map(|(_, d)| d).collect();
    Ok(r)
}

/// `serde_json::to_string(imported)`, faster: the wasm side hands an import to JS as this text
/// (one `JSON.parse`), and page HTML, most of it, needs escaping only here and there, so runs
/// that need none are found sixteen bytes at a time and copied whole (`serde_json` looks at
/// every byte). Numbers are written as `serde_json` writes them.
pub fn to_text(imported: &Imported) -> String {
    let mut out = String::with_capacity(1024);
    out.push_str(DOCUMENTS_START);
    for (i, doc) in imported.documents.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(&mut out, doc);
    }
    write_report_end(&mut out, &imported.report);
    out
}

/// What [`to_text`] starts with: the documents follow, separated by commas.
pub(crate) const DOCUMENTS_START: &str = "{\"documents\":[";

/// What [`to_text`] ends with after the documents: the report.
pub(crate) fn write_report_end(out: &mut String, report: &Report) {
    out.push_str("],\"report\":");
    // small, and its field names are serde's to give
    out.push_str(&serde_json::to_string(report).unwrap_or_else(|_| "null".into()));
    out.push('}');
}

/// A document, as [`write_value`] writes it as a `Value::Object`.
pub(crate) fn write_object(out: &mut String, map: &Map<String, Value>) {
    out.push('{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key);
        out.push(':');
        write_value(out, item);
    }
    out.push('}');
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // whole numbers (sort, levels, times: most of them) without the formatting machinery;
        // serde_json's Display of any number is its JSON
        Value::Number(n) => match n.as_i64() {
            Some(whole) => write_whole(out, whole),
            None => {
                let _ = write!(out, "{n}");
            }
        },
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(out, map),
    }
}

fn write_whole(out: &mut String, n: i64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// A JSON string: `"` and `\` escaped, control characters as `serde_json` writes them.
#[inline(always)]
fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let b = s.as_bytes();
    let mut start = 0;
    loop {
        let stop = plain_run(b, start);
        // stops are ASCII, so both ends are character boundaries
        out.push_str(s.get(start..stop).unwrap_or_default());
        let Some(&c) = b.get(stop) else {
            break;
        };
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                let _ = write!(out, "\\u{c:04x}");
            }
        }
        start = stop + 1;
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packs::{BadLine, Report, Warning};
    use proptest::prelude::*;

    /// Any JSON value: every kind of number, any text (control characters, quotes, non-ASCII).
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(vec![0, -1, 9, 10, -10, i64::MIN, i64::MAX]).prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\\u{0}-\u{1f}a<>é]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn the_text_is_what_serde_json_writes(documents in prop::collection::vec(value(), 0..4), line in 0..9usize, error in any::<String>()) {
            let imported = Imported {
                documents,
                report: Report {
                    lines: line,
                    bad: vec![BadLine { line, error: error.clone() }],
                    warnings: vec![Warning { document_id: Some(error), page_id: None, field: Some("/x~1y".into()), kind: "x".into(), detail: "\"".into() }],
                    ..Report::default()
                },
            };
            prop_assert_eq!(to_text(&imported), serde_json::to_string(&imported).unwrap());
        }
    }

    #[test]
    fn one_document_an_array_and_duplicates() {
        let one = read(r#"{"name": "A", "pages": []}"#).unwrap();
        assert_eq!((one.lines, one.documents.len()), (1, 1));
        let many = read(
            r#"[{"_id": "aaaaaaaaaaaaaaa1", "name": "first"}, 7, {"name": "no id"},
                {"_id": "aaaaaaaaaaaaaaa1", "name": "second"}]"#,
        )
        .unwrap();
        assert_eq!((many.lines, many.superseded), (4, 0));
        assert_eq!(many.bad, [(2, "not a JSON object".to_string())]);
        let kept: Vec<(&str, Option<&str>)> = many
            .documents
            .iter()
            .map(|d| {
                (
                    d["name"].as_str().unwrap(),
                    d.get("_id").and_then(Value::as_str),
                )
            })
            .collect();
        // both are kept, in order; the second under a new id, reported
        assert_eq!(many.renamed.len(), 1);
        let (item, old, new) = &many.renamed[0];
        let (old, new) = (old.as_str(), new.as_str());
        assert_eq!((*item, old), (4, "aaaaaaaaaaaaaaa1"));
        assert!(super::super::migrate::valid_id(new) && new != old);
        assert_eq!(
            kept,
            [("first", Some(old)), ("no id", None), ("second", Some(new))]
        );
        // the same file gets the same new id
        assert_eq!(read(r#"[{"_id": "aaaaaaaaaaaaaaa1"}, {"_id": "aaaaaaaaaaaaaaa1"}, {"_id": "aaaaaaaaaaaaaaa1"}]"#).unwrap().renamed.len(), 2);
    }

    #[test]
    fn what_is_not_a_json_export_is_an_error() {
        let e = read("[1, 2").unwrap_err();
        assert!(
            e.message().starts_with("the file is not valid JSON: "),
            "{e}"
        );
        let e = read("\"text\"").unwrap_err();
        assert_eq!(
            e.message(),
            "the JSON holds neither a document nor an array of documents"
        );
    }
}
