//! Bringing an exported JournalEntry (v9–v12 shapes) to the v13 shape. Values are repaired when
//! the fix is certain (a title level outside 1–6 is clamped) and reported either way; documents
//! that are not journal entries are reported and skipped.

use super::html::{dangers, is_script_url};
use super::Warning;
use serde_json::{json, Map, Value};

/// Foundry ids: 16 ASCII letters and digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A stable replacement for an invalid id (so re-importing the same file updates, not duplicates).
fn replacement_id(old: &str) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    (0..16)
        .map(|i| {
            for b in old.bytes().chain([i as u8]) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            ALPHABET[(h % 62) as usize] as char
        })
        .collect()
}

const OWNERSHIP_LEVELS: [i64; 5] = [-1, 0, 1, 2, 3];

fn warn(
    out: &mut Vec<Warning>,
    doc: &Option<String>,
    page: Option<&str>,
    kind: &str,
    detail: String,
) {
    out.push(Warning {
        document_id: doc.clone(),
        page_id: page.map(str::to_string),
        kind: kind.to_string(),
        detail,
    });
}

/// Repairs `_id` in place; returns the (possibly new) id.
fn fix_id(
    obj: &mut Map<String, Value>,
    doc: &Option<String>,
    page: bool,
    out: &mut Vec<Warning>,
) -> String {
    let old = obj
        .get("_id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if valid_id(&old) {
        return old;
    }
    let new = replacement_id(&old);
    let who = if page { "page" } else { "entry" };
    let detail = format!("the {who} id {old:?} is not 16 letters and digits; it became {new}");
    if page {
        warn(out, doc, Some(&new), "idReplaced", detail);
    } else {
        warn(out, &Some(new.clone()), None, "idReplaced", detail);
    }
    obj.insert("_id".into(), Value::String(new.clone()));
    new
}

fn fix_ownership(
    obj: &mut Map<String, Value>,
    doc: &Option<String>,
    page: Option<&str>,
    out: &mut Vec<Warning>,
) {
    let Some(Value::Object(own)) = obj.get_mut("ownership") else {
        obj.insert(
            "ownership".into(),
            json!({"default": if page.is_some() { -1 } else { 0 }}),
        );
        return;
    };
    let bad: Vec<String> = own
        .iter()
        .filter(|(_, v)| !v.as_i64().is_some_and(|l| OWNERSHIP_LEVELS.contains(&l)))
        .map(|(k, _)| k.clone())
        .collect();
    for k in bad {
        let v = own.remove(&k).unwrap_or(Value::Null);
        warn(
            out,
            doc,
            page,
            "ownership",
            format!("unknown ownership level {v} for {k} was removed"),
        );
    }
}

/// Fills the v13 `_stats` fields that are missing (`_stats` itself if it is not an object).
fn stats(obj: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    let entry = obj.entry("_stats").or_insert_with(|| json!({}));
    if !entry.is_object() {
        *entry = json!({});
    }
    let s = entry.as_object_mut()?;
    for key in [
        "compendiumSource",
        "duplicateSource",
        "exportSource",
        "coreVersion",
        "systemId",
        "systemVersion",
        "createdTime",
        "modifiedTime",
        "lastModifiedBy",
    ] {
        s.entry(key).or_insert(Value::Null);
    }
    Some(s)
}

/// The v13 JournalEntry for `doc`, or `None` (with a warning) when it is not one.
pub fn journal_entry(
    mut doc: Map<String, Value>,
    out: &mut Vec<Warning>,
) -> Option<Map<String, Value>> {
    let old_id = doc.get("_id").and_then(Value::as_str).map(str::to_string);
    let is_v9 = !doc.contains_key("pages")
        && doc.get("content").is_some_and(Value::is_string)
        && !doc.contains_key("type");
    if !doc.get("pages").is_some_and(Value::is_array) && !is_v9 {
        let what = doc
            .get("type")
            .and_then(Value::as_str)
            .map_or(String::new(), |t| format!(" (type {t})"));
        warn(
            out,
            &old_id,
            None,
            "notJournal",
            format!(
                "{}{what} is not a journal entry and was skipped",
                doc.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("a document")
            ),
        );
        return None;
    }
    let id = Some(fix_id(&mut doc, &old_id, false, out));
    if doc
        .get("name")
        .and_then(Value::as_str)
        .is_none_or(|n| n.trim().is_empty())
    {
        warn(
            out,
            &id,
            None,
            "blankName",
            "the entry had no name; it is called \"Untitled\"".into(),
        );
        doc.insert("name".into(), Value::String("Untitled".into()));
    }
    if is_v9 {
        // v9 kept one HTML body on the entry; v10+ keeps pages.
        let content = doc.remove("content").unwrap_or(Value::Null);
        let name = doc.get("name").cloned().unwrap_or(Value::Null);
        let page_id = replacement_id(&format!("{}-page", id.clone().unwrap_or_default()));
        doc.insert(
            "pages".into(),
            json!([{"_id": page_id, "name": name, "type": "text", "sort": 0,
            "title": {"show": true, "level": 1}, "text": {"format": 1, "content": content}}]),
        );
        warn(
            out,
            &id,
            Some(&page_id),
            "v9",
            "the v9 entry's content became its one page".into(),
        );
    }
    // flags of v10–v12 that v13 keeps in _stats
    let mut flags = match doc.remove("flags") {
        Some(Value::Object(f)) => f,
        _ => Map::new(),
    };
    let source = flags
        .get_mut("core")
        .and_then(Value::as_object_mut)
        .and_then(|core| core.remove("sourceId"));
    if flags
        .get("core")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
    {
        flags.remove("core");
    }
    let export = flags.remove("exportSource");
    if let Some(s) = stats(&mut doc) {
        for (key, value) in [("compendiumSource", source), ("exportSource", export)] {
            if let Some(v) = value {
                if s.get(key).is_none_or(Value::is_null) {
                    s.insert(key.into(), v);
                }
            }
        }
    }
    doc.insert("flags".into(), Value::Object(flags));
    doc.entry("categories").or_insert_with(|| json!([]));
    doc.entry("folder").or_insert(Value::Null);
    if !doc.get("sort").is_some_and(Value::is_number) {
        doc.insert("sort".into(), json!(0));
    }
    fix_ownership(&mut doc, &id, None, out);
    let pages = match doc.remove("pages") {
        Some(Value::Array(p)) => p,
        _ => Vec::new(),
    };
    let mut pages: Vec<Map<String, Value>> = pages
        .into_iter()
        .filter_map(|p| match p {
            Value::Object(p) => Some(page(p, &id, out)),
            other => {
                warn(
                    out,
                    &id,
                    None,
                    "badPage",
                    format!("a page that is not an object ({other}) was skipped"),
                );
                None
            }
        })
        .collect();
    pages.sort_by(|a, b| {
        let s = |p: &Map<String, Value>| p.get("sort").and_then(Value::as_f64).unwrap_or(0.0);
        s(a).total_cmp(&s(b))
    });
    doc.insert(
        "pages".into(),
        Value::Array(pages.into_iter().map(Value::Object).collect()),
    );
    Some(doc)
}

fn page(
    mut p: Map<String, Value>,
    doc: &Option<String>,
    out: &mut Vec<Warning>,
) -> Map<String, Value> {
    let pid = fix_id(&mut p, doc, true, out);
    let pid = Some(pid.as_str());
    if p.get("name")
        .and_then(Value::as_str)
        .is_none_or(|n| n.trim().is_empty())
    {
        warn(
            out,
            doc,
            pid,
            "blankName",
            "the page had no name; it is called \"Untitled\"".into(),
        );
        p.insert("name".into(), Value::String("Untitled".into()));
    }
    p.entry("type").or_insert_with(|| json!("text"));
    p.entry("category").or_insert(Value::Null);
    p.entry("flags").or_insert_with(|| json!({}));
    if !p.get("sort").is_some_and(Value::is_number) {
        p.insert("sort".into(), json!(0));
    }
    let title = p
        .entry("title")
        .or_insert_with(|| json!({"show": true, "level": 1}));
    if let Some(level) = title.get("level").and_then(Value::as_i64) {
        if !(1..=6).contains(&level) {
            let fixed = level.clamp(1, 6);
            title["level"] = json!(fixed);
            warn(
                out,
                doc,
                pid,
                "titleLevel",
                format!("title level {level} is outside 1–6; it became {fixed}"),
            );
        }
    }
    if let Some(Value::Object(text)) = p.get_mut("text") {
        let format = text.get("format").and_then(Value::as_i64);
        if !matches!(format, Some(1 | 2)) {
            let fixed = if text.contains_key("markdown") && !text.contains_key("content") {
                2
            } else {
                1
            };
            text.insert("format".into(), json!(fixed));
            warn(
                out,
                doc,
                pid,
                "textFormat",
                format!(
                    "text format {format:?} is not 1 (HTML) or 2 (Markdown); it became {fixed}"
                ),
            );
        }
        if let Some(content) = text.get("content").and_then(Value::as_str) {
            for d in dangers(content) {
                warn(
                    out,
                    doc,
                    pid,
                    d.kind,
                    format!("{} in the page HTML", d.detail),
                );
            }
        }
    }
    if let Some(src) = p.get("src").and_then(Value::as_str) {
        if is_script_url(src) {
            warn(
                out,
                doc,
                pid,
                "javascriptUrl",
                "the page source is a script URL".into(),
            );
        }
    }
    fix_ownership(&mut p, doc, pid, out);
    stats(&mut p);
    p
}
