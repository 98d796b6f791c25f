//! NeDB logs (`.db`: v9–v10 compendia and world data): one JSON object per line, appended on every
//! change. Replaying the log gives the documents: the last line for an `_id` wins,
//! `{"$$deleted": true, "_id"}` removes it, `$$indexCreated`/`$$indexRemoved` lines and blank
//! lines are ignored, and a line that is not JSON is reported by its number.

use serde_json::{Map, Value};

/// The documents a log leaves, in order of first appearance, and what the replay saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub documents: Vec<Map<String, Value>>,
    /// Non-blank lines read.
    pub lines: usize,
    /// Earlier versions replaced by a later line with the same `_id`.
    pub superseded: usize,
    /// Documents removed by a deletion line.
    pub deleted: usize,
    /// `(line number, error)` for lines that are not a JSON object with an `_id`.
    pub bad: Vec<(usize, String)>,
}

/// Replays an NeDB log.
pub fn replay(text: &str) -> Replay {
    let mut r = Replay::default();
    let mut order: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut live: std::collections::HashMap<String, Map<String, Value>> =
        std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        r.lines += 1;
        let number = i + 1;
        let doc = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(doc)) => doc,
            Ok(_) => {
                r.bad.push((number, "not a JSON object".to_string()));
                continue;
            }
            Err(e) => {
                r.bad.push((number, format!("not JSON: {e}")));
                continue;
            }
        };
        if doc.contains_key("$$indexCreated") || doc.contains_key("$$indexRemoved") {
            continue;
        }
        let Some(id) = doc.get("_id").and_then(Value::as_str).map(str::to_string) else {
            r.bad
                .push((number, "a document without an _id".to_string()));
            continue;
        };
        if doc.get("$$deleted") == Some(&Value::Bool(true)) {
            if live.remove(&id).is_some() {
                r.deleted += 1;
            }
            continue;
        }
        if live.insert(id.clone(), doc).is_some() {
            r.superseded += 1;
        } else if seen.insert(id.clone()) {
            order.push(id);
        }
    }
    r.documents = order.iter().filter_map(|id| live.remove(id)).collect();
    r
}
