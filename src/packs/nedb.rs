//! NeDB logs (`.db`: v9–v10 compendia and world data): one JSON object per line, appended on every
//! change (NeDB's `persistence.js`). Replaying the log gives the documents: the last line for an
//! `_id` wins, `{"$$deleted": true, "_id"}` removes it, `$$indexCreated`/`$$indexRemoved` lines
//! and blank lines are ignored, and a line that is not a JSON object with an `_id` is reported by
//! its number.

use serde_json::{Map, Value};
use std::collections::HashMap;

/// The documents a log (or a JSON export) leaves, in order of first appearance, and what the
/// replay saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub documents: Vec<Map<String, Value>>,
    /// Non-blank lines read (items, for JSON).
    pub lines: usize,
    /// Earlier versions replaced by a later line with the same `_id`.
    pub superseded: usize,
    /// Documents removed by a deletion line.
    pub deleted: usize,
    /// `(line number, error)` for lines that could not be used.
    pub bad: Vec<(usize, String)>,
}

/// Replays an NeDB log.
pub fn replay(text: &str) -> Replay {
    let mut r = Replay::default();
    // slot per _id in order of first appearance; `None` once deleted (a later line revives it)
    let mut slots: Vec<Option<Map<String, Value>>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        r.lines += 1;
        let number = i + 1;
        let doc = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(doc)) => doc,
            Ok(other) => {
                let what = match other {
                    Value::Array(_) => "an array",
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    _ => "not an object",
                };
                r.bad.push((number, format!("{what}, not a JSON object")));
                continue;
            }
            Err(e) => {
                r.bad.push((number, format!("not JSON ({e})")));
                continue;
            }
        };
        if doc.contains_key("$$indexCreated") || doc.contains_key("$$indexRemoved") {
            continue;
        }
        let id = match doc.get("_id") {
            Some(Value::String(id)) if !id.is_empty() => id.clone(),
            Some(other) => {
                r.bad
                    .push((number, format!("the _id {other} is not a non-empty string")));
                continue;
            }
            None => {
                r.bad
                    .push((number, "a document without an _id".to_string()));
                continue;
            }
        };
        let deletion = doc.get("$$deleted") == Some(&Value::Bool(true));
        match by_id.get(&id) {
            Some(&slot) => {
                let previous =
                    std::mem::replace(&mut slots[slot], if deletion { None } else { Some(doc) });
                if previous.is_some() {
                    if deletion {
                        r.deleted += 1;
                    } else {
                        r.superseded += 1;
                    }
                }
            }
            None if deletion => {}
            None => {
                by_id.insert(id, slots.len());
                slots.push(Some(doc));
            }
        }
    }
    r.documents = slots.into_iter().flatten().collect();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(r: &Replay) -> Vec<&str> {
        r.documents
            .iter()
            .map(|d| d["name"].as_str().unwrap_or("?"))
            .collect()
    }

    #[test]
    fn the_last_line_wins_and_deletions_remove() {
        let log = concat!(
            "{\"$$indexCreated\":{\"fieldName\":\"name\"}}\n",
            "{\"_id\":\"a\",\"name\":\"A1\"}\n",
            "\n",
            "{\"_id\":\"b\",\"name\":\"B1\"}\r\n",
            "{\"_id\":\"a\",\"name\":\"A2\"}\n",
            "{\"$$deleted\":true,\"_id\":\"b\"}\n",
            "{\"$$deleted\":true,\"_id\":\"never\"}\n",
            "{\"$$indexRemoved\":\"name\"}\n",
            "{\"_id\":\"c\",\"name\":\"C1\"}\n",
            "{\"_id\":\"b\",\"name\":\"B2\"}\n",
        );
        let r = replay(log);
        assert_eq!(names(&r), ["A2", "B2", "C1"]);
        assert_eq!((r.lines, r.superseded, r.deleted), (9, 1, 1));
        assert!(r.bad.is_empty());
    }

    #[test]
    fn unreadable_lines_are_reported_by_number() {
        let r = replay("{\"_id\":\"a\"}\n{oops\n[1]\n{\"name\":\"x\"}\n{\"_id\":5}\n\n\"s\"");
        let lines: Vec<usize> = r.bad.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [2, 3, 4, 5, 7]);
        assert!(r.bad[0].1.starts_with("not JSON (key must be a string"));
        assert_eq!(r.bad[1].1, "an array, not a JSON object");
        assert_eq!(r.bad[2].1, "a document without an _id");
        assert_eq!(r.bad[3].1, "the _id 5 is not a non-empty string");
        assert_eq!((r.lines, r.documents.len()), (6, 1));
    }
}
