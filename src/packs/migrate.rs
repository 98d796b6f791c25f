//! Bringing an exported JournalEntry (v9–v12 shapes) to the v13 shape, as Foundry's own data
//! migrations would, before any document is created:
//!
//! - v9 entries kept one HTML body (`content`) and an image (`img`) on the entry and called
//!   `ownership` `permission`; v10 made them a text page and an image page.
//! - v10–v11 kept the source UUID in `flags.core.sourceId` and the export's origin in
//!   `flags.exportSource` (`{world, system, coreVersion, systemVersion}`); v12 moved the first to
//!   `_stats.compendiumSource` and v13 the second to `_stats.exportSource` (`{worldId, uuid,
//!   coreVersion, systemId, systemVersion}`).
//! - v13 entries have `categories` and pages a `category`; pages have `_stats` since v11.
//!
//! Values v13 would refuse are repaired when the fix is certain and reported either way: an `_id`
//! that is not 16 letters and digits gets a stable replacement (derived from the old one, so
//! importing the same file twice updates instead of duplicating), a blank name becomes
//! "Untitled", a title level outside 1–6 is clamped, a text format other than 1 (HTML) or
//! 2 (Markdown) becomes the one the page's fields show, an unknown ownership level or owner key
//! is dropped and a fractional sort is rounded. Documents that are not journal entries are
//! reported and skipped.

use super::html::{is_script_url, scan};
use super::Warning;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write;

/// Foundry ids: 16 ASCII letters and digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A stable 16-character id derived from `seed` (FNV-1a over the seed and the position).
pub fn derived_id(seed: &str) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    (0..16u8)
        .map(|i| {
            for b in seed.bytes().chain([i]) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            char::from(ALPHABET[(h % 62) as usize])
        })
        .collect()
}

/// A derived id that is not in `taken` (which then holds it).
pub(crate) fn fresh_id(seed: &str, taken: &mut HashSet<String>) -> String {
    let mut id = derived_id(seed);
    let mut n = 1u32;
    while taken.contains(&id) {
        id = derived_id(&format!("{seed}#{n}"));
        n += 1;
    }
    taken.insert(id.clone());
    id
}

/// `CONST.DOCUMENT_OWNERSHIP_LEVELS`: INHERIT, NONE, LIMITED, OBSERVER, OWNER.
const OWNERSHIP_LEVELS: [i64; 5] = [-1, 0, 1, 2, 3];

/// Where a warning points.
#[derive(Clone, Copy)]
struct At<'a> {
    entry: Option<&'a str>,
    page: Option<&'a str>,
}

fn warn(out: &mut Vec<Warning>, at: At, kind: &str, detail: String) {
    out.push(Warning {
        document_id: at.entry.map(str::to_string),
        page_id: at.page.map(str::to_string),
        field: None,
        kind: kind.to_string(),
        detail,
    });
}

/// The longest string the scan reads in one field (16 MiB): a page of tags that long keeps a
/// stack of about 90 MB in the scan; longer ones are refused before any work.
pub const MAX_FIELD: usize = 16 * 1024 * 1024;

/// The first string in `doc` longer than [`MAX_FIELD`], as an error naming the entry, the field
/// and the limit. (The walk builds no path unless it finds one: it runs on every entry.)
pub fn check_sizes(doc: &Map<String, Value>) -> Result<(), String> {
    /// The path (reference tokens, innermost first) to the first oversized string.
    fn find(v: &Value) -> Option<(Vec<String>, usize)> {
        match v {
            Value::String(s) if s.len() > MAX_FIELD => Some((Vec::new(), s.len())),
            Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                find(item).map(|(mut path, len)| {
                    path.push(i.to_string());
                    (path, len)
                })
            }),
            Value::Object(map) => map.iter().find_map(|(k, item)| {
                find(item).map(|(mut path, len)| {
                    path.push(pointer_token(k).into_owned());
                    (path, len)
                })
            }),
            _ => None,
        }
    }
    let Some((path, len)) = doc.iter().find_map(|(k, v)| {
        find(v).map(|(mut path, len)| {
            path.push(pointer_token(k).into_owned());
            (path, len)
        })
    }) else {
        return Ok(());
    };
    let field: String = path.iter().rev().map(|t| format!("/{t}")).collect();
    let name = doc.get("name").and_then(Value::as_str).unwrap_or("");
    let name: String = name.chars().take(60).collect();
    let id = doc.get("_id").map(Value::to_string).unwrap_or_default();
    Err(format!(
        "the entry {name:?} ({id}) has {:.1} MiB of text in {field}; at most {} MiB is read in one field, so nothing was imported",
        len as f64 / 1_048_576.0,
        MAX_FIELD / 1_048_576
    ))
}

/// A JSON pointer's reference token (RFC 6901).
fn pointer_token(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        Cow::Owned(key.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(key)
    }
}

/// Reports what in one string field could run script or take over the page, each finding once
/// with its count. `html`: the field is rendered as HTML (else only a script URL is looked for,
/// unless it holds markup).
fn scan_field(out: &mut Vec<Warning>, at: At, field: &str, place: &str, value: &str, html: bool) {
    let mut push = |kind: &str, detail: String| {
        out.push(Warning {
            document_id: at.entry.map(str::to_string),
            page_id: at.page.map(str::to_string),
            field: Some(field.to_string()),
            kind: kind.to_string(),
            detail,
        })
    };
    if !html && is_script_url(value) {
        push("javascriptUrl", format!("{place} is a script URL"));
    }
    // no tag without a `<` (a character reference never makes one)
    if !value.contains('<') {
        return;
    }
    let found = scan(value);
    let last = found.found.len();
    for (i, d) in found.found.into_iter().enumerate() {
        let times = if d.count > 1 {
            format!(" ({} times)", d.count)
        } else {
            String::new()
        };
        let more = if i + 1 == last && found.omitted > 0 {
            format!("; {} more findings there are not listed", found.omitted)
        } else {
            String::new()
        };
        push(d.kind, format!("{} in {place}{times}{more}", d.detail));
    }
}

/// [`scan_field`] over every string in `value` (flags, system data), which modules may render
/// as HTML.
fn scan_data(
    out: &mut Vec<Warning>,
    at: At,
    pointer: &mut String,
    path: &mut String,
    value: &Value,
) {
    match value {
        Value::String(s) => scan_field(out, at, pointer, path, s, false),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let (p, q) = (pointer.len(), path.len());
                let _ = write!(pointer, "/{i}");
                let _ = write!(path, "[{i}]");
                scan_data(out, at, pointer, path, item);
                pointer.truncate(p);
                path.truncate(q);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let (p, q) = (pointer.len(), path.len());
                pointer.push('/');
                pointer.push_str(&pointer_token(k));
                path.push('.');
                path.push_str(k);
                scan_data(out, at, pointer, path, item);
                pointer.truncate(p);
                path.truncate(q);
            }
        }
        _ => {}
    }
}

/// Scans every field of an entry or page that Foundry (or a module) renders: its name, the
/// page's HTML, Markdown, image caption and source, and every string in `flags` and `system`.
fn scan_fields(doc: &Map<String, Value>, at: At, out: &mut Vec<Warning>) {
    let what = if at.page.is_some() {
        "the page name"
    } else {
        "the entry name"
    };
    if let Some(name) = doc.get("name").and_then(Value::as_str) {
        scan_field(out, at, "/name", what, name, true);
    }
    if let Some(text) = doc.get("text").and_then(Value::as_object) {
        if let Some(html) = text.get("content").and_then(Value::as_str) {
            scan_field(out, at, "/text/content", "the page HTML", html, true);
        }
        if let Some(md) = text.get("markdown").and_then(Value::as_str) {
            scan_field(out, at, "/text/markdown", "the page Markdown", md, true);
        }
    }
    if let Some(caption) = doc
        .get("image")
        .and_then(|i| i.get("caption"))
        .and_then(Value::as_str)
    {
        scan_field(
            out,
            at,
            "/image/caption",
            "the image caption",
            caption,
            true,
        );
    }
    if let Some(src) = doc.get("src").and_then(Value::as_str) {
        scan_field(out, at, "/src", "the page source", src, false);
    }
    for key in ["flags", "system"] {
        match doc.get(key) {
            // most documents' flags are empty, or hold no string worth a path
            Some(Value::Object(m)) if m.is_empty() => {}
            Some(v) => {
                let mut pointer = String::with_capacity(64);
                pointer.push('/');
                pointer.push_str(key);
                let mut path = String::with_capacity(64);
                path.push_str(key);
                scan_data(out, at, &mut pointer, &mut path, v);
            }
            None => {}
        }
    }
}

/// `map.entry(key).or_insert_with(value)` without making a `String` of the key when it is there
/// (`Map::entry` takes an owned key; this runs for every field v13 adds, on every page).
fn or_insert(map: &mut Map<String, Value>, key: &str, value: impl FnOnce() -> Value) {
    if !map.contains_key(key) {
        map.insert(key.to_string(), value());
    }
}

fn blank(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_none_or(|n| n.trim().is_empty())
}

fn fix_name(obj: &mut Map<String, Value>, at: At, what: &str, out: &mut Vec<Warning>) {
    if blank(obj.get("name")) {
        warn(
            out,
            at,
            "blankName",
            format!("the {what} had no name; it is called \"Untitled\""),
        );
        obj.insert("name".into(), json!("Untitled"));
    }
}

/// An integer from a number, or a whole-number string, if it is one.
fn whole(v: &Value) -> Option<f64> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }?;
    n.is_finite().then_some(n)
}

fn fix_sort(obj: &mut Map<String, Value>, at: At, out: &mut Vec<Warning>) {
    let fixed = match obj.get("sort") {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => return,
        None | Some(Value::Null) => 0,
        Some(v) => {
            let fixed = whole(v).map_or(0, |n| n.round() as i64);
            warn(
                out,
                at,
                "sort",
                format!("sort {v} is not a whole number; it became {fixed}"),
            );
            fixed
        }
    };
    obj.insert("sort".into(), json!(fixed));
}

fn fix_ownership(obj: &mut Map<String, Value>, at: At, page: bool, out: &mut Vec<Warning>) {
    let Some(Value::Object(own)) = obj.get_mut("ownership") else {
        if let Some(v) = obj.get("ownership").filter(|v| !v.is_null()) {
            warn(
                out,
                at,
                "ownership",
                format!("ownership {v} is not an object; the default was used"),
            );
        }
        obj.insert(
            "ownership".into(),
            json!({"default": if page { -1 } else { 0 }}),
        );
        return;
    };
    // in key order; only what is removed is copied (an owner's key, for its warning)
    let mut removed: Vec<(String, String)> = Vec::new();
    for (k, v) in own.iter_mut() {
        let level = whole(v).filter(|l| l.fract() == 0.0).map(|l| l as i64);
        let problem = if k != "default" && !valid_id(k) {
            Some(format!("the owner {k:?} is not a user id; it was removed"))
        } else {
            match level {
                Some(l) if OWNERSHIP_LEVELS.contains(&l) => {
                    if !v.is_i64() {
                        *v = json!(l);
                    }
                    None
                }
                _ => Some(format!("unknown ownership level {v} for {k} was removed")),
            }
        };
        if let Some(detail) = problem {
            removed.push((k.clone(), detail));
        }
    }
    for (k, detail) in removed {
        own.remove(&k);
        warn(out, at, "ownership", detail);
    }
}

/// The document's `_stats` (taken out of it) with the v13 fields that are missing filled with
/// `null`; `{}` first if it is not an object.
fn take_stats(obj: &mut Map<String, Value>) -> Map<String, Value> {
    let mut s = match obj.remove("_stats") {
        Some(Value::Object(s)) => s,
        _ => Map::new(),
    };
    fill_stats(&mut s);
    s
}

/// The document's `_stats` made as [`take_stats`] makes it, where it is (a page's, which needs
/// nothing else: no key to take out and put back on every page).
fn fix_stats(obj: &mut Map<String, Value>) {
    match obj.get_mut("_stats") {
        Some(Value::Object(s)) => fill_stats(s),
        _ => {
            let s = take_stats(obj);
            obj.insert("_stats".into(), Value::Object(s));
        }
    }
}

/// The v13 `_stats` fields.
const STATS: [&str; 9] = [
    "compendiumSource",
    "duplicateSource",
    "exportSource",
    "coreVersion",
    "systemId",
    "systemVersion",
    "createdTime",
    "modifiedTime",
    "lastModifiedBy",
];

/// The v13 `_stats` fields that are missing, as `null` (an empty one, as most pages of v10
/// exports have, is built in one go rather than by nine insertions).
fn fill_stats(s: &mut Map<String, Value>) {
    if s.is_empty() {
        *s = STATS.iter().map(|k| (k.to_string(), Value::Null)).collect();
        return;
    }
    for key in STATS {
        or_insert(s, key, || Value::Null);
    }
}

/// The v13 `_stats.exportSource` from a v10–v12 `flags.exportSource` (or a v13 one, unchanged).
fn export_source(v: &Value) -> Value {
    let Value::Object(o) = v else {
        return Value::Null;
    };
    let pick = |new: &str, old: &str| {
        o.get(new)
            .or_else(|| o.get(old))
            .cloned()
            .unwrap_or(Value::Null)
    };
    json!({
        "worldId": pick("worldId", "world"),
        "uuid": pick("uuid", "uuid"),
        "coreVersion": pick("coreVersion", "coreVersion"),
        "systemId": pick("systemId", "system"),
        "systemVersion": pick("systemVersion", "systemVersion"),
    })
}

/// Keeps a value the import could not use in the entry's `flags["icon-engine"]`, so nothing is
/// lost.
fn keep_in_flags(doc: &mut Map<String, Value>, key: &str, value: Value) {
    let flags = doc.entry("flags").or_insert_with(|| json!({}));
    if !flags.is_object() {
        *flags = json!({});
    }
    if let Some(flags) = flags.as_object_mut() {
        let ours = flags.entry("icon-engine").or_insert_with(|| json!({}));
        if !ours.is_object() {
            *ours = json!({});
        }
        if let Some(ours) = ours.as_object_mut() {
            ours.insert(key.to_string(), value);
        }
    }
}

/// Whether `doc` is a journal entry: v10+ entries have `pages` (an array, or anything else
/// when they have no `type`), v9 entries `content` or `img` and no `type`; foundryvtt-cli files
/// say so in `_key`.
fn is_journal(doc: &Map<String, Value>) -> bool {
    doc.get("pages").is_some_and(Value::is_array)
        || (doc.contains_key("pages") && !doc.contains_key("type"))
        || doc
            .get("_key")
            .and_then(Value::as_str)
            .is_some_and(|k| k.starts_with("!journal!"))
        || (!doc.contains_key("pages")
            && !doc.contains_key("type")
            && (doc.get("content").is_some_and(Value::is_string)
                || doc.get("img").is_some_and(Value::is_string)))
}

/// Ids every document or page keeps (valid ones), so replacements never take them.
pub fn valid_ids<'a>(docs: impl IntoIterator<Item = &'a Map<String, Value>>) -> HashSet<String> {
    valid_id_set(
        docs.into_iter()
            .filter_map(|d| d.get("_id").and_then(Value::as_str)),
    )
}

/// [`valid_ids`] from the documents' `_id` strings.
pub fn valid_id_set<'a>(ids: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    ids.into_iter()
        .filter(|id| valid_id(id))
        .map(str::to_string)
        .collect()
}

/// The v13 JournalEntry for `doc`, or `None` (with a warning) when it is not one. `taken` holds
/// the ids in use; a replacement id is added to it.
pub fn journal_entry(
    mut doc: Map<String, Value>,
    taken: &mut HashSet<String>,
    out: &mut Vec<Warning>,
) -> Option<Map<String, Value>> {
    let old_id = doc.get("_id").and_then(Value::as_str).map(str::to_string);
    if !is_journal(&doc) {
        let what = doc
            .get("type")
            .and_then(Value::as_str)
            .map(|t| format!(" (type {t})"))
            .or_else(|| {
                doc.get("_key")
                    .and_then(Value::as_str)
                    .map(|k| format!(" (key {k})"))
            })
            .unwrap_or_default();
        let name = doc
            .get("name")
            .and_then(Value::as_str)
            .map_or("a document".to_string(), |n| format!("{n:?}"));
        warn(
            out,
            At {
                entry: old_id.as_deref(),
                page: None,
            },
            "notJournal",
            format!("{name}{what} is not a journal entry and was skipped"),
        );
        return None;
    }
    doc.remove("_key");
    let id = match old_id.as_deref() {
        Some(id) if valid_id(id) => id.to_string(),
        old => {
            let (seed, why) = match old {
                Some(old) => (
                    old.to_string(),
                    format!("the entry id {old:?} is not 16 letters and digits"),
                ),
                None => (
                    entry_seed(&doc),
                    "the entry had no id (Foundry's Export Data leaves it out)".to_string(),
                ),
            };
            let new = fresh_id(&seed, taken);
            let at = At {
                entry: Some(&new),
                page: None,
            };
            warn(out, at, "idReplaced", format!("{why}; it became {new}"));
            doc.insert("_id".into(), json!(new));
            new
        }
    };
    let at = At {
        entry: Some(&id),
        page: None,
    };
    fix_name(&mut doc, at, "entry", out);
    if !doc.contains_key("pages") {
        v9_pages(&mut doc, &id, out);
    }
    if !doc.contains_key("ownership") {
        if let Some(permission) = doc.remove("permission") {
            doc.insert("ownership".into(), permission);
        }
    }
    doc.remove("permission");
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
    let mut s = take_stats(&mut doc);
    if let Some(v) = source.filter(|v| !v.is_null()) {
        if s.get("compendiumSource").is_none_or(Value::is_null) {
            s.insert("compendiumSource".into(), v);
        }
    }
    let export = match s.get("exportSource").filter(|v| !v.is_null()) {
        Some(v) => Some(v.clone()),
        None => export,
    };
    if let Some(v) = export.filter(|v| !v.is_null()) {
        s.insert("exportSource".into(), export_source(&v));
    }
    doc.insert("_stats".into(), Value::Object(s));
    doc.insert("flags".into(), Value::Object(flags));
    or_insert(&mut doc, "categories", || json!([]));
    or_insert(&mut doc, "folder", || Value::Null);
    fix_sort(&mut doc, at, out);
    fix_ownership(&mut doc, at, false, out);
    scan_fields(&doc, at, out);
    let pages = match doc.remove("pages") {
        Some(Value::Array(p)) => p,
        None | Some(Value::Null) => Vec::new(),
        // a map of pages (by id) is read as its pages
        Some(Value::Object(map)) => {
            warn(
                out,
                at,
                "badPage",
                format!(
                    "pages was an object, not an array; its {} values were read as the pages",
                    map.len()
                ),
            );
            map.into_iter().map(|(_, p)| p).collect()
        }
        Some(other) => {
            let kept = "flags.icon-engine.unreadPages";
            warn(
                out,
                at,
                "badPage",
                format!("pages {other} is not an array; the entry has no pages, and the value is kept in {kept}"),
            );
            keep_in_flags(&mut doc, "unreadPages", other);
            Vec::new()
        }
    };
    let mut page_ids: HashSet<String> = pages
        .iter()
        .filter_map(|p| p.get("_id").and_then(Value::as_str))
        .filter(|id| valid_id(id))
        .map(str::to_string)
        .collect();
    let mut kept: HashSet<String> = HashSet::new();
    let mut pages: Vec<Map<String, Value>> = pages
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Value::Object(p) => Some(page(p, i, &id, &mut page_ids, &mut kept, out)),
            other => {
                warn(
                    out,
                    at,
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

/// What identifies an entry that has no id: its name and its pages' ids (which Export Data
/// keeps), else its whole content.
fn entry_seed(doc: &Map<String, Value>) -> String {
    let name = doc.get("name").and_then(Value::as_str).unwrap_or("");
    let pages: Vec<&str> = doc
        .get("pages")
        .and_then(Value::as_array)
        .map(|p| {
            p.iter()
                .filter_map(|p| p.get("_id").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    if pages.is_empty() {
        format!("{name}\u{0}{}", Value::Object(doc.clone()))
    } else {
        format!("{name}\u{0}{}", pages.join("\u{0}"))
    }
}

/// v9's `content` and `img` become a text page and an image page, as v10's migration did.
fn v9_pages(doc: &mut Map<String, Value>, id: &str, out: &mut Vec<Warning>) {
    let name = doc.get("name").cloned().unwrap_or(Value::Null);
    let mut pages = Vec::new();
    if let Some(Value::String(content)) = doc.remove("content") {
        pages.push(json!({"_id": derived_id(&format!("{id}-text")), "name": name, "type": "text",
            "sort": 0, "title": {"show": false, "level": 1}, "text": {"format": 1, "content": content}}));
    }
    if let Some(Value::String(img)) = doc.remove("img") {
        pages.push(
            json!({"_id": derived_id(&format!("{id}-image")), "name": name, "type": "image",
            "sort": 100000, "title": {"show": false, "level": 1}, "src": img}),
        );
    }
    let kinds: Vec<&str> = pages.iter().filter_map(|p| p["type"].as_str()).collect();
    warn(
        out,
        At {
            entry: Some(id),
            page: None,
        },
        "v9",
        format!(
            "a v9 entry: its {} became pages",
            if kinds.is_empty() {
                "(empty) body".to_string()
            } else {
                kinds.join(" and ")
            }
        ),
    );
    doc.insert("pages".into(), Value::Array(pages));
}

fn fix_title(p: &mut Map<String, Value>, at: At, out: &mut Vec<Warning>) {
    or_insert(p, "title", || json!({"show": true, "level": 1}));
    let Some(title) = p.get_mut("title") else {
        return;
    };
    if !title.is_object() {
        warn(
            out,
            at,
            "titleLevel",
            format!("title {title} is not an object; it became a level 1 title"),
        );
        *title = json!({"show": true, "level": 1});
        return;
    }
    let Some(level) = title.get("level") else {
        return;
    };
    if level.as_i64().is_some_and(|l| (1..=6).contains(&l)) {
        return;
    }
    let fixed = whole(level).map_or(1, |l| l.round().clamp(1.0, 6.0) as i64);
    let detail = format!("title level {level} is not 1–6; it became {fixed}");
    title["level"] = json!(fixed);
    warn(out, at, "titleLevel", detail);
}

fn page(
    mut p: Map<String, Value>,
    index: usize,
    entry: &str,
    taken: &mut HashSet<String>,
    kept: &mut HashSet<String>,
    out: &mut Vec<Warning>,
) -> Map<String, Value> {
    p.remove("_key");
    let old = p.get("_id").and_then(Value::as_str).map(str::to_string);
    let pid = match old.as_deref() {
        Some(id) if valid_id(id) && !kept.contains(id) => id.to_string(),
        old => {
            let (seed, why) = match old {
                Some(o) if valid_id(o) => (
                    format!("{entry}.{o}.{index}"),
                    format!("the page id {o} is used twice in the entry"),
                ),
                Some(o) => (
                    format!("{entry}.{o}"),
                    format!("the page id {o:?} is not 16 letters and digits"),
                ),
                None => (
                    format!("{entry}.page{index}"),
                    "the page had no id".to_string(),
                ),
            };
            let new = fresh_id(&seed, taken);
            let at = At {
                entry: Some(entry),
                page: Some(&new),
            };
            warn(out, at, "idReplaced", format!("{why}; it became {new}"));
            p.insert("_id".into(), json!(new));
            new
        }
    };
    kept.insert(pid.clone());
    let at = At {
        entry: Some(entry),
        page: Some(&pid),
    };
    fix_name(&mut p, at, "page", out);
    or_insert(&mut p, "type", || json!("text"));
    or_insert(&mut p, "category", || Value::Null);
    if !p.get("flags").is_some_and(Value::is_object) {
        p.insert("flags".into(), json!({}));
    }
    fix_sort(&mut p, at, out);
    fix_title(&mut p, at, out);
    if let Some(Value::Object(text)) = p.get_mut("text") {
        let format = text.get("format").cloned().unwrap_or(Value::Null);
        if !format.as_i64().is_some_and(|f| f == 1 || f == 2) {
            let fixed = if blank(text.get("content")) && !blank(text.get("markdown")) {
                2
            } else {
                1
            };
            text.insert("format".into(), json!(fixed));
            warn(
                out,
                at,
                "textFormat",
                format!("text format {format} is not 1 (HTML) or 2 (Markdown); it became {fixed}"),
            );
        }
    }
    scan_fields(&p, at, out);
    fix_ownership(&mut p, at, true, out);
    fix_stats(&mut p);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn migrate(doc: Value) -> (Option<Value>, Vec<(String, Option<String>)>) {
        let Value::Object(doc) = doc else {
            unreachable!()
        };
        let mut taken = valid_ids([&doc]);
        let mut out = Vec::new();
        let entry = journal_entry(doc, &mut taken, &mut out).map(Value::Object);
        let kinds = out.into_iter().map(|w| (w.kind, w.page_id)).collect();
        (entry, kinds)
    }

    #[test]
    fn derived_ids_are_valid_stable_and_distinct() {
        let a = derived_id("bad id");
        assert!(valid_id(&a));
        assert_eq!(a, derived_id("bad id"));
        assert_ne!(a, derived_id("bad id2"));
        let mut taken = HashSet::from([a.clone()]);
        let b = fresh_id("bad id", &mut taken);
        assert!(valid_id(&b) && b != a && taken.contains(&b));
    }

    #[test]
    fn v10_flags_move_to_v13_stats() {
        let (e, warnings) = migrate(json!({"_id": "aaaaaaaaaaaaaaa1", "name": "A", "pages": [],
            "flags": {"core": {"sourceId": "Compendium.x.y.A", "sheetClass": "s"},
                      "exportSource": {"world": "w", "system": "worldbuilding", "coreVersion": "10.286", "systemVersion": "0.7.1"},
                      "other": {"k": 1}}}));
        let e = e.unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(e["_stats"]["compendiumSource"], "Compendium.x.y.A");
        assert_eq!(
            e["_stats"]["exportSource"],
            json!({"worldId": "w", "uuid": null, "coreVersion": "10.286", "systemId": "worldbuilding", "systemVersion": "0.7.1"})
        );
        assert_eq!(
            e["flags"],
            json!({"core": {"sheetClass": "s"}, "other": {"k": 1}})
        );
        assert_eq!(e["categories"], json!([]));
        assert_eq!(e["ownership"], json!({"default": 0}));
    }

    #[test]
    fn v12_stats_win_over_leftover_flags() {
        let (e, _) = migrate(json!({"_id": "aaaaaaaaaaaaaaa1", "name": "A", "pages": [],
            "flags": {"core": {"sourceId": "Compendium.old"}},
            "_stats": {"compendiumSource": "Compendium.new", "duplicateSource": null}}));
        assert_eq!(e.unwrap()["_stats"]["compendiumSource"], "Compendium.new");
    }

    #[test]
    fn a_v9_entry_becomes_pages() {
        let (e, warnings) = migrate(
            json!({"_id": "fffffffffffffff6", "name": "Old", "content": "<p>body</p>",
            "img": "maps/x.webp", "permission": {"default": 2}}),
        );
        let e = e.unwrap();
        assert_eq!(e["pages"][0]["type"], "text");
        assert_eq!(e["pages"][0]["text"]["content"], "<p>body</p>");
        assert_eq!(e["pages"][1]["type"], "image");
        assert_eq!(e["pages"][1]["src"], "maps/x.webp");
        assert_eq!(e["ownership"], json!({"default": 2}));
        assert!(e.get("permission").is_none() && e.get("content").is_none());
        assert_eq!(warnings, [("v9".to_string(), None)]);
    }

    #[test]
    fn repairs_are_made_and_reported() {
        let (e, warnings) = migrate(json!({"_id": "aaaaaaaaaaaaaaa1", "name": "A", "sort": 2.6,
        "ownership": {"default": 0, "not a user": 3, "uuuuuuuuuuuuuuu1": 3.0, "uuuuuuuuuuuuuuu2": 9},
        "pages": [
            {"_id": "pppppppppppppp01", "name": "x", "sort": 5, "title": {"level": 0}, "text": {"format": 3, "markdown": "# x"}},
            {"_id": "pppppppppppppp01", "name": "y", "sort": 1, "title": {"level": "2.4"}},
            {"name": "z", "sort": 3, "title": "big"},
            "junk"
        ]}));
        let e = e.unwrap();
        let kinds: Vec<&str> = warnings.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "sort",
                "ownership",
                "ownership",
                "titleLevel",
                "textFormat",
                "idReplaced",
                "titleLevel",
                "idReplaced",
                "titleLevel",
                "badPage"
            ]
        );
        assert_eq!(e["sort"], 3);
        assert_eq!(e["ownership"], json!({"default": 0, "uuuuuuuuuuuuuuu1": 3}));
        let pages = e["pages"].as_array().unwrap();
        let names: Vec<&str> = pages.iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["y", "z", "x"], "sorted by sort");
        assert_eq!(
            pages[2]["_id"], "pppppppppppppp01",
            "the first keeps the id"
        );
        assert_eq!(pages[2]["title"]["level"], 1);
        assert_eq!(pages[2]["text"]["format"], 2, "markdown only: Markdown");
        assert_eq!(pages[0]["title"]["level"], 2);
        assert_eq!(pages[1]["title"], json!({"show": true, "level": 1}));
        let ids: HashSet<&str> = pages.iter().map(|p| p["_id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), 3);
        assert!(ids.iter().all(|id| valid_id(id)));
        // the warnings name the new ids
        assert_eq!(warnings[5].1.as_deref(), pages[0]["_id"].as_str());
    }

    #[test]
    fn what_is_not_a_journal_entry_is_skipped() {
        for doc in [
            json!({"_id": "ggggggggggggggg7", "name": "Hero", "type": "character", "system": {}}),
            json!({"_id": "ggggggggggggggg7", "name": "Note", "type": 1, "content": "hi"}),
            json!({"_key": "!actors!ggggggggggggggg7", "name": "Hero"}),
            json!({"name": "Nothing"}),
        ] {
            let (e, warnings) = migrate(doc.clone());
            assert!(e.is_none(), "{doc}");
            assert_eq!(warnings, [("notJournal".to_string(), None)], "{doc}");
        }
    }
}
