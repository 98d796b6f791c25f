//! NeDB logs (`.db`: v9–v10 compendia and world data): one JSON object per line, appended on every
//! change (NeDB's `persistence.js`). Replaying the log gives the documents, as NeDB's
//! `treatRawData` does: a line whose `_id` is truthy is a document (even with an index key), and
//! the last line for an `_id` wins (ids are compared as JavaScript's `String(_id)`, so `5` and
//! `"5"` are one document); `{"$$deleted": true, "_id"}` removes it; `$$indexCreated` and
//! `$$indexRemoved` lines and blank lines are not documents. Lines are read as `JSON.parse`
//! reads them ([`super::js_json`]: lone surrogates, numbers past the `f64` range). Any other line
//! is reported by its number.
//!
//! Every non-blank line is counted in exactly one bucket: the winning line of a document, a line
//! superseded by a later one with its `_id` (a revision or a deletion), a deletion that removed a
//! document, a deletion of an id that was not there, an index line, or a bad line.
//!
//! Most lines of a long-lived log are superseded revisions, so the replay does not build every
//! line: a scan ([`top_level`]) checks that a line is JSON `serde_json` would read, without
//! building it, and reads only its top-level `_id`, `$$deleted` and index keys; only the lines
//! that win are parsed into values, at the end. A line the scan is not sure of (escapes in a
//! top-level key or the `_id`, surrogate escapes, numbers near the `f64` range, deep nesting,
//! anything that is not plain valid JSON) is parsed at once as before, so it is reported exactly
//! as `serde_json` would report it.

use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashMap;

/// The documents a log (or a JSON export) leaves, in order of first appearance, and what the
/// replay saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub documents: Vec<Map<String, Value>>,
    /// Non-blank lines read (items, for JSON).
    pub lines: usize,
    /// Lines replaced by a later line with the same `_id` (a revision or a deletion).
    pub superseded: usize,
    /// Deletion lines that removed a document.
    pub deleted: usize,
    /// Deletion lines for an `_id` that was not there (never, or no longer).
    pub unknown_deletions: usize,
    /// `$$indexCreated` and `$$indexRemoved` lines.
    pub index_lines: usize,
    /// `(line number, error)` for lines that could not be used.
    pub bad: Vec<(usize, String)>,
    /// How many of the bad lines are not JSON at all (what NeDB counts as corrupt).
    pub corrupt: usize,
    /// JSON exports: `(item number, id, new id)` of each item whose `_id` an earlier item
    /// already had, kept under a new id (an export is no log: a repeated id is another entry).
    pub renamed: Vec<(usize, String, String)>,
}

/// A document the replay keeps: built already (a line the scan was not sure of), or its line
/// (with its number and the `_id` the scan read), built once it has won.
enum Kept<'a> {
    Built(Map<String, Value>),
    Line(usize, &'a str, &'a str),
}

/// A replay whose winning lines are not built yet: the importer builds, migrates and writes
/// them one at a time ([`Lazy::into_documents`]), so each is still in cache when written and
/// its memory is reused by the next (faster than building them all first).
pub struct Lazy<'a> {
    /// The accounting; `documents` is empty.
    pub replay: Replay,
    kept: Vec<Kept<'a>>,
}

impl<'a> Lazy<'a> {
    /// The `_id` of each document, in order, where it is a string (for the ids the migration
    /// must not hand out), without building them.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.kept.iter().filter_map(|kept| match kept {
            Kept::Built(doc) => doc.get("_id").and_then(Value::as_str),
            Kept::Line(_, _, id) => Some(*id),
        })
    }

    /// The accounting, and the documents in order, each built when it is reached. A line that
    /// does not build (the scan passed it, so this cannot happen) is `Err((line, error))`, to
    /// be reported rather than lost or panicked on.
    #[allow(clippy::type_complexity)]
    pub fn into_documents(
        self,
    ) -> (
        Replay,
        impl Iterator<Item = std::result::Result<Map<String, Value>, (usize, String)>> + 'a,
    ) {
        let documents = self.kept.into_iter().map(|kept| match kept {
            Kept::Built(doc) => Ok(doc),
            Kept::Line(number, line, _) => match super::js_json::parse(line) {
                Ok(Value::Object(doc)) => Ok(doc),
                Ok(_) => Err((number, "not a JSON object".to_string())),
                Err(e) => Err((number, format!("not JSON ({e})"))),
            },
        });
        (self.replay, documents)
    }
}

/// Replays an NeDB log.
pub fn replay(text: &str) -> Replay {
    let (mut r, documents) = replay_lazy(text).into_documents();
    let mut late_bad = false;
    for doc in documents {
        match doc {
            Ok(doc) => r.documents.push(doc),
            Err(bad) => {
                r.bad.push(bad);
                late_bad = true;
            }
        }
    }
    if late_bad {
        r.bad.sort_by_key(|(n, _)| *n);
    }
    r
}

/// Replays an NeDB log, building only the lines the scan was not sure of.
pub fn replay_lazy(text: &str) -> Lazy<'_> {
    let mut state = State::default();
    let mut pos = 0;
    let mut number = 0;
    while pos < text.len() {
        number += 1;
        let rest = &text[pos..];
        // the usual line: an object the scan reads, up to its line ending (the scan does not
        // cross one), so the line is not searched for its end first
        if let Some((top, end)) = scan_object(rest) {
            let after = ws(rest.as_bytes(), end);
            if after == rest.len() || rest.as_bytes()[after] == b'\n' {
                pos += after + 1;
                state.line(number, &rest[..end], Some(top));
                continue;
            }
        }
        // anything else, as `str::lines` and `trim` give it
        let end = rest.find('\n').unwrap_or(rest.len());
        pos += end + 1;
        let line = rest[..end].trim();
        if !line.is_empty() {
            state.line(number, line, top_level(line));
        }
    }
    Lazy {
        replay: state.r,
        kept: state.slots.into_iter().flatten().collect(),
    }
}

/// The replay so far.
#[derive(Default)]
struct State<'a> {
    r: Replay,
    /// Slot per _id in order of first appearance; `None` once deleted (a later line revives it).
    slots: Vec<Option<Kept<'a>>>,
    by_id: HashMap<Cow<'a, str>, usize>,
}

impl<'a> State<'a> {
    /// Line `number` (trimmed, not blank), with what the scan found in it if it is sure.
    fn line(&mut self, number: usize, line: &'a str, top: Option<Top<'a>>) {
        let r = &mut self.r;
        r.lines += 1;
        let (id, deletion, doc) = match top {
            Some(Top {
                id: Some(id),
                deleted,
                ..
            }) => (Cow::Borrowed(id), deleted, Kept::Line(number, line, id)),
            Some(Top { index: true, .. }) => {
                r.index_lines += 1;
                return;
            }
            Some(Top { id: None, .. }) => {
                r.bad.push((number, NO_ID.to_string()));
                return;
            }
            None => match built(line) {
                Ok(Line::Document(id, deletion, doc)) => {
                    (Cow::Owned(id), deletion, Kept::Built(doc))
                }
                Ok(Line::Index) => {
                    r.index_lines += 1;
                    return;
                }
                Err((e, corrupt)) => {
                    r.bad.push((number, e));
                    r.corrupt += usize::from(corrupt);
                    return;
                }
            },
        };
        match self.by_id.get(id.as_ref()) {
            Some(&slot) => {
                let previous = std::mem::replace(
                    &mut self.slots[slot],
                    if deletion { None } else { Some(doc) },
                );
                match (previous.is_some(), deletion) {
                    (true, true) => {
                        r.superseded += 1;
                        r.deleted += 1;
                    }
                    (true, false) => r.superseded += 1,
                    (false, true) => r.unknown_deletions += 1,
                    (false, false) => {}
                }
            }
            None if deletion => r.unknown_deletions += 1,
            None => {
                self.by_id.insert(id, self.slots.len());
                self.slots.push(Some(doc));
            }
        }
    }
}

const NO_ID: &str = "a document without an _id";

/// What a line parsed in full is.
enum Line {
    /// `(_id as NeDB keys it, whether it deletes, the document)`.
    Document(String, bool, Map<String, Value>),
    Index,
}

/// The `_id` NeDB keys a document by, `String(_id)`, when it is truthy; `Ok(None)` when it is
/// missing or falsy (`""`, `0`, `false`, `null`: NeDB does not take the line as a document);
/// `Err` for an object or array id, which NeDB would key as `"[object Object]"` or a joined
/// list, merging unrelated documents.
pub fn id_of(doc: &Map<String, Value>) -> Result<Option<String>, String> {
    match doc.get("_id") {
        None | Some(Value::Null | Value::Bool(false)) => Ok(None),
        Some(Value::String(id)) => Ok((!id.is_empty()).then(|| id.clone())),
        Some(Value::Bool(true)) => Ok(Some("true".into())),
        Some(Value::Number(n)) => {
            let key = super::js_json::number_string(n);
            Ok((key != "0").then_some(key))
        }
        Some(other) => Err(format!("the _id {other} is not a string or a number")),
    }
}

/// A line parsed in full: a document or an index line; `Err` says why the line cannot be used
/// and whether it is corrupt (not JSON, or `null`, which NeDB cannot read either).
fn built(line: &str) -> Result<Line, (String, bool)> {
    let mut doc = match super::js_json::parse(line) {
        Ok(Value::Object(doc)) => doc,
        Ok(Value::Null) => return Err(("null, not a JSON object".into(), true)),
        Ok(other) => {
            let what = match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "not an object",
            };
            return Err((format!("{what}, not a JSON object"), false));
        }
        Err(e) => return Err((format!("not JSON ({e})"), true)),
    };
    let id = match id_of(&doc) {
        Ok(Some(id)) => id,
        Ok(None) if doc.contains_key("$$indexCreated") || doc.contains_key("$$indexRemoved") => {
            return Ok(Line::Index)
        }
        Ok(None) => {
            return Err((
                match doc.get("_id") {
                    Some(v) => format!("the _id {v} is empty (NeDB skips such a line)"),
                    None => NO_ID.to_string(),
                },
                false,
            ))
        }
        Err(e) => return Err((e, false)),
    };
    // a number (or `true`) id becomes its string, as NeDB keys it
    if !doc.get("_id").is_some_and(Value::is_string) {
        doc.insert("_id".into(), Value::String(id.clone()));
    }
    let deletion = doc.get("$$deleted") == Some(&Value::Bool(true));
    Ok(Line::Document(id, deletion, doc))
}

/// What the scan of a line found at its top level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Top<'a> {
    /// The `_id`, when it is a non-empty string without escapes (else the scan is not sure).
    pub id: Option<&'a str>,
    /// `$$deleted` is `true`.
    pub deleted: bool,
    /// `$$indexCreated` or `$$indexRemoved` is present.
    pub index: bool,
}

/// Nesting deeper than this is left to `serde_json`, which refuses a 128th level.
const MAX_DEPTH: u32 = 120;

/// Integer digits plus a positive exponent at most this keep a number below 1e308, inside the
/// `f64` range (about 1.8e308), which `serde_json` refuses to leave; larger ones are left to it.
const MAX_MAGNITUDE: u32 = 308;

/// The top-level keys the replay reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Id,
    Deleted,
    Index,
}

/// Scans `line` without building it: `Some` only when `serde_json::from_str::<Value>(line)`
/// certainly gives an object (strict JSON, nothing after it, no lone-surrogate escapes, numbers
/// well inside the `f64` range, nesting at most [`MAX_DEPTH`]), with its top-level `_id`,
/// `$$deleted` and index keys read as the replay reads them from the object. `None` means "parse
/// it to know": the line may still be fine.
pub fn top_level(line: &str) -> Option<Top<'_>> {
    scan_object(line).and_then(|(top, end)| (end == line.len()).then_some(top))
}

/// [`top_level`] of the object that opens `text`, and where it ends (what follows is not read).
fn scan_object(text: &str) -> Option<(Top<'_>, usize)> {
    let b = text.as_bytes();
    let mut top = Top::default();
    // one bit per open container, 1 for an object; bit 0 is the innermost
    let mut objects: u128 = 0;
    let mut depth: u32 = 0;
    let mut pending: Option<Key> = None;
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut i = 0;
    loop {
        // a value starts at i (after white space)
        i = ws(b, i);
        let key = if depth == 1 { pending.take() } else { None };
        match key {
            Some(Key::Id) => {
                let (end, escaped) = string_end(b, i)?;
                if escaped || end - i <= 2 {
                    return None;
                }
                top.id = Some(text.get(i + 1..end - 1)?);
                i = end;
            }
            other => {
                if other == Some(Key::Deleted) {
                    top.deleted = b[i..].starts_with(b"true");
                }
                if other == Some(Key::Index) {
                    top.index = true;
                }
                match *b.get(i)? {
                    open @ (b'{' | b'[') => {
                        depth += 1;
                        if depth > MAX_DEPTH {
                            return None;
                        }
                        objects = (objects << 1) | u128::from(open == b'{');
                        i = ws(b, i + 1);
                        let close = if open == b'{' { b'}' } else { b']' };
                        if b.get(i) == Some(&close) {
                            depth -= 1;
                            objects >>= 1;
                            i += 1;
                        } else if open == b'{' {
                            i = key_end(b, i, depth, &mut pending)?;
                            continue;
                        } else {
                            continue;
                        }
                    }
                    b'"' => i = string_end(b, i)?.0,
                    b't' => i = literal(b, i, b"true")?,
                    b'f' => i = literal(b, i, b"false")?,
                    b'n' => i = literal(b, i, b"null")?,
                    b'-' | b'0'..=b'9' => i = number_end(b, i)?,
                    _ => return None,
                }
            }
        }
        // after a value: close containers, or find the next value
        loop {
            if depth == 0 {
                return Some((top, i));
            }
            i = ws(b, i);
            let in_object = objects & 1 == 1;
            match *b.get(i)? {
                b',' => {
                    i += 1;
                    if in_object {
                        i = key_end(b, ws(b, i), depth, &mut pending)?;
                    }
                    break;
                }
                b'}' if in_object => {}
                b']' if !in_object => {}
                _ => return None,
            }
            depth -= 1;
            objects >>= 1;
            i += 1;
        }
    }
}

/// Reads a key and its colon at `i`; at the top level, notes the keys the replay reads (a key
/// with escapes is left to `serde_json`). A key given twice is read twice, the last one winning,
/// as in `serde_json`'s map.
#[inline(always)]
fn key_end(b: &[u8], i: usize, depth: u32, pending: &mut Option<Key>) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = string_end(b, i)?;
    if depth == 1 {
        if escaped {
            return None;
        }
        let key = match &b[i + 1..end - 1] {
            b"_id" => Some(Key::Id),
            b"$$deleted" => Some(Key::Deleted),
            b"$$indexCreated" | b"$$indexRemoved" => Some(Key::Index),
            _ => None,
        };
        *pending = key;
    }
    let colon = ws(b, end);
    (b.get(colon) == Some(&b':')).then_some(colon + 1)
}

/// Skips JSON white space but line feeds, which end a log's line.
#[inline(always)]
fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

#[inline(always)]
fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b[i..].starts_with(word).then_some(i + word.len())
}

/// The end of the string that opens at `i` (after its closing quote) and whether it has
/// escapes; `None` for a control character, a bad escape, a surrogate escape or no end.
#[inline(always)]
fn string_end(b: &[u8], i: usize) -> Option<(usize, bool)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        j = plain_run(b, j);
        match *b.get(j)? {
            b'"' => return Some((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                match *b.get(j + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'u' => {
                        let hex = std::str::from_utf8(b.get(j + 2..j + 6)?).ok()?;
                        if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                            return None;
                        }
                        let unit = u32::from_str_radix(hex, 16).ok()?;
                        if (0xD800..=0xDFFF).contains(&unit) {
                            return None;
                        }
                        j += 6;
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// The end of the run of string bytes at `i` that need no attention (not `"`, `\` or a control
/// character), sixteen bytes a step: page HTML is most of a log (and of an import's output,
/// which [`super::json::to_text`] escapes with this too).
#[inline(always)]
pub(crate) fn plain_run(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // the high bit of each byte that is `"`, `\\` or below 0x20; the lowest one set is exact
    // ("Bit Twiddling Hacks": haszero(x ^ c) and hasless(x, 0x20), whose `& !v & HIGH` are all
    // `& !x & HIGH`, since `"` and `\\` are below 0x80)
    let stops = |x: u64| {
        ((x ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES)
            | (x ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES)
            | x.wrapping_sub(ONES * 0x20))
            & !x
            & HIGH
    };
    while let Some(words) = b.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let (lo, hi) = words.split_at(8);
        let lo = stops(u64::from_le_bytes(lo.try_into().unwrap_or([b'"'; 8])));
        let hi = stops(u64::from_le_bytes(hi.try_into().unwrap_or([b'"'; 8])));
        if lo != 0 {
            return i + lo.trailing_zeros() as usize / 8;
        }
        if hi != 0 {
            return i + 8 + hi.trailing_zeros() as usize / 8;
        }
        i += 16;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// The end of the number at `i`, in JSON's grammar (`-`, no leading zeros, a fraction and an
/// exponent with digits); `None` too when it might be beyond the `f64` range.
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i, i - start)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let int_digits;
    match *b.get(i)? {
        b'0' => {
            i += 1;
            int_digits = 1;
        }
        b'1'..=b'9' => (i, int_digits) = digits(b, i),
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        let (end, n) = digits(b, i + 1);
        if n == 0 {
            return None;
        }
        i = end;
    }
    let mut exponent: i64 = 0;
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        let negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let (end, n) = digits(b, i);
        if n == 0 || n > 4 {
            return None;
        }
        let value: i64 = std::str::from_utf8(&b[i..end]).ok()?.parse().ok()?;
        exponent = if negative { -value } else { value };
        i = end;
    }
    (int_digits as i64 + exponent.max(0) <= i64::from(MAX_MAGNITUDE)).then_some(i)
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
        // A1 and B1 superseded (B1 by its deletion), one deletion of b, one of an unknown id,
        // two index lines: 3 + 2 + 1 + 1 + 2 = 9
        assert_eq!(
            (
                r.lines,
                r.superseded,
                r.deleted,
                r.unknown_deletions,
                r.index_lines
            ),
            (9, 2, 1, 1, 2)
        );
        assert!(r.bad.is_empty());
    }

    #[test]
    fn what_nedb_keeps_is_kept() {
        let log = concat!(
            // an _id makes a document even with an index key
            "{\"_id\":\"a\",\"$$indexCreated\":{\"fieldName\":\"x\"},\"name\":\"A\"}\n",
            // a number id is its string: the second line supersedes the first
            "{\"_id\":5,\"name\":\"five\"}\n",
            "{\"_id\":\"5\",\"name\":\"five again\"}\n",
            // JSON.parse reads these
            "{\"_id\":\"s\",\"name\":\"cut \\ud83d\",\"n\":1e400}\n",
            // falsy ids: NeDB does not take the line (an index key makes it an index line)
            "{\"_id\":\"\",\"$$indexRemoved\":\"x\"}\n",
            "{\"_id\":0,\"name\":\"zero\"}\n",
            "null\n",
        );
        let r = replay(log);
        assert_eq!(names(&r), ["A", "five again", "cut \u{fffd}"]);
        assert_eq!(r.documents[1]["_id"], "5");
        assert!(r.documents[2]["n"].is_null());
        assert_eq!((r.superseded, r.index_lines, r.corrupt), (1, 1, 1));
        let bad: Vec<&str> = r.bad.iter().map(|(_, e)| e.as_str()).collect();
        assert_eq!(
            bad,
            [
                "the _id 0 is empty (NeDB skips such a line)",
                "null, not a JSON object"
            ]
        );
    }

    #[test]
    fn unreadable_lines_are_reported_by_number() {
        let r = replay("{\"_id\":\"a\"}\n{oops\n[1]\n{\"name\":\"x\"}\n{\"_id\":5}\n\n\"s\"");
        let lines: Vec<usize> = r.bad.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [2, 3, 4, 7]);
        assert!(r.bad[0].1.starts_with("not JSON (key must be a string"));
        assert_eq!(r.bad[1].1, "an array, not a JSON object");
        assert_eq!(r.bad[2].1, "a document without an _id");
        assert_eq!(r.bad[3].1, "a string, not a JSON object");
        assert_eq!((r.lines, r.documents.len(), r.corrupt), (6, 2, 1));
    }

    #[test]
    fn the_scan_reads_only_the_top_level() {
        let top = |line| top_level(line).map(|t| (t.id, t.deleted, t.index));
        assert_eq!(
            top(r#"{"pages":[{"_id":"p","$$deleted":true}],"_id":"e"}"#),
            Some((Some("e"), false, false))
        );
        assert_eq!(
            top(r#"{"pages":[{"_id":"p"}],"x":{"$$indexCreated":1}}"#),
            Some((None, false, false))
        );
        assert_eq!(
            top(r#"{ "$$deleted" : true , "_id" : "é" }"#),
            Some((Some("é"), true, false))
        );
        assert_eq!(
            top(r#"{"$$indexRemoved":"name"}"#),
            Some((None, false, true))
        );
        // serde_json's map keeps the last of two equal keys, and so does the scan
        assert_eq!(
            top(r#"{"_id":"a","$$deleted":true,"_id":"b","$$deleted":false}"#),
            Some((Some("b"), false, false))
        );
        // left to serde_json
        for unsure in [
            r#"{"\u005fid":"a"}"#,
            r#"{"_id":"a\u0062"}"#,
            r#"{"_id":""}"#,
            r#"{"_id":7}"#,
            r#"[{"_id":"a"}]"#,
            r#"{"_id":"a"} x"#,
            r#"{"_id":"a","n":1e308}"#,
            r#"{"_id":"a","s":"\udfff"}"#,
        ] {
            assert_eq!(top_level(unsure), None, "{unsure}");
        }
    }

    #[test]
    fn the_scan_stops_below_serde_jsons_nesting_limit() {
        for n in 1..=140 {
            // n levels: objects and arrays in turn
            let open: String = (0..n)
                .map(|l| if l % 2 == 0 { "{\"a\":" } else { "[" })
                .collect();
            let close: String = (0..n)
                .rev()
                .map(|l| if l % 2 == 0 { "}" } else { "]" })
                .collect();
            let line = format!("{open}1{close}");
            let parsed = serde_json::from_str::<Value>(&line).is_ok();
            let scanned = top_level(&line).is_some();
            assert!(!scanned || parsed, "depth {n}");
            assert_eq!(scanned, n <= MAX_DEPTH as usize, "depth {n}");
        }
    }

    #[test]
    fn numbers_are_read_in_json_grammar_and_well_inside_the_f64_range() {
        let ok = |n: &str| top_level(&format!("{{\"n\":{n}}}")).is_some();
        for n in [
            "0", "-0", "10", "1.25", "-0.5e-7", "2E+10", "1.7e307", "0.5e307", "1e-9999",
        ] {
            assert!(ok(n), "{n}");
        }
        for n in [
            "01", "-", "1.", ".5", "+1", "1e", "1e+", "1e308", "10e307", "1e99999", "0x1",
        ] {
            assert!(!ok(n), "{n}");
        }
        assert!(ok(&"9".repeat(308)) && !ok(&"9".repeat(309)));
    }
}
