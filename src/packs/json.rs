//! JSON inputs: a single document as Foundry's "Export Data" writes it (`fvtt-JournalEntry-*.json`,
//! no `_id` on the entry), an array of documents, or a foundryvtt-cli source file (`_key` on the
//! entry and its pages). Items are counted as the report's "lines" (the item number stands for the
//! line number of a bad one, and the 10% rule of logs does not apply); a later item with the same
//! `_id` supersedes an earlier one, as in a log.

use super::nedb::Replay;
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The documents of a JSON export, in order of first appearance.
pub fn read(text: &str) -> Result<Replay> {
    let value: Value = serde_json::from_str(text)
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
    let mut slots: Vec<Option<Map<String, Value>>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(doc) = item else {
            r.bad.push((i + 1, "not a JSON object".to_string()));
            continue;
        };
        match doc.get("_id").and_then(Value::as_str).map(str::to_string) {
            Some(id) => match by_id.get(&id) {
                Some(&slot) => {
                    slots[slot] = Some(doc);
                    r.superseded += 1;
                }
                None => {
                    by_id.insert(id, slots.len());
                    slots.push(Some(doc));
                }
            },
            None => slots.push(Some(doc)),
        }
    }
    r.documents = slots.into_iter().flatten().collect();
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_document_an_array_and_duplicates() {
        let one = read(r#"{"name": "A", "pages": []}"#).unwrap();
        assert_eq!((one.lines, one.documents.len()), (1, 1));
        let many = read(
            r#"[{"_id": "aaaaaaaaaaaaaaa1", "name": "old"}, 7, {"name": "no id"},
                {"_id": "aaaaaaaaaaaaaaa1", "name": "new"}]"#,
        )
        .unwrap();
        assert_eq!((many.lines, many.superseded), (4, 1));
        assert_eq!(many.bad, [(2, "not a JSON object".to_string())]);
        let names: Vec<&str> = many
            .documents
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["new", "no id"], "the later version, in first place");
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
