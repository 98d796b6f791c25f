//! The NeDB replay reads most lines with a scan and builds only the winning ones
//! (`packs::nedb`). These properties hold it to a straightforward replay that parses every line
//! into a `serde_json::Value` (what it did before): the same documents in the same order, the
//! same counts and the same bad lines with the same messages, over generated logs with
//! revisions, deletions, revivals, index lines, nested `_id` keys, escapes, unusual numbers and
//! corrupt lines.

use icon_engine::packs::js_json;
use icon_engine::packs::nedb::{replay, top_level, Replay};
use icon_engine::packs::{
    import_pack, import_pack_json, migrate, BadLine, Format, ImportOptions, Imported, Report,
    BAD_LINE_LIMIT,
};
use proptest::prelude::*;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The replay as NeDB's `persistence.js` (`treatRawData`) describes it, every line parsed in
/// full as `JSON.parse` would: a truthy `_id` makes a document (keyed by `String(_id)`), else an
/// index key makes an index line; and every line counted in one bucket.
fn reference(text: &str) -> Replay {
    let mut r = Replay::default();
    let mut slots: Vec<Option<Map<String, Value>>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        r.lines += 1;
        let mut doc = match js_json::parse(line) {
            Ok(Value::Object(doc)) => doc,
            Ok(Value::Null) => {
                r.bad.push((i + 1, "null, not a JSON object".into()));
                r.corrupt += 1;
                continue;
            }
            Ok(other) => {
                let what = match other {
                    Value::Array(_) => "an array",
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    _ => "not an object",
                };
                r.bad.push((i + 1, format!("{what}, not a JSON object")));
                continue;
            }
            Err(e) => {
                r.bad.push((i + 1, format!("not JSON ({e})")));
                r.corrupt += 1;
                continue;
            }
        };
        // JavaScript's truthiness and String()
        let id = match doc.get("_id") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(Value::String(s)) => (!s.is_empty()).then(|| s.clone()),
            Some(Value::Bool(true)) => Some("true".to_string()),
            Some(Value::Number(n)) => {
                let f = n.as_f64().unwrap();
                (f != 0.0).then(|| js_json::number_string(n))
            }
            Some(other) => {
                r.bad.push((
                    i + 1,
                    format!("the _id {other} is not a string or a number"),
                ));
                continue;
            }
        };
        let Some(id) = id else {
            if doc.contains_key("$$indexCreated") || doc.contains_key("$$indexRemoved") {
                r.index_lines += 1;
            } else {
                let error = match doc.get("_id") {
                    Some(v) => format!("the _id {v} is empty (NeDB skips such a line)"),
                    None => "a document without an _id".to_string(),
                };
                r.bad.push((i + 1, error));
            }
            continue;
        };
        if !doc.get("_id").is_some_and(Value::is_string) {
            doc.insert("_id".into(), Value::String(id.clone()));
        }
        let deletion = doc.get("$$deleted") == Some(&Value::Bool(true));
        match by_id.get(&id) {
            Some(&slot) if deletion => {
                if slots[slot].take().is_some() {
                    r.superseded += 1;
                    r.deleted += 1;
                } else {
                    r.unknown_deletions += 1;
                }
            }
            Some(&slot) => {
                if slots[slot].replace(doc).is_some() {
                    r.superseded += 1;
                }
            }
            None if deletion => r.unknown_deletions += 1,
            None => {
                by_id.insert(id, slots.len());
                slots.push(Some(doc));
            }
        }
    }
    r.documents = slots.into_iter().flatten().collect();
    r
}

/// The import of a log as it was: every line parsed ([`reference`]), then every document
/// migrated; `None` where it refuses (more than 10% corrupt lines, unforced).
fn reference_import(text: &str, force: bool) -> Option<Imported> {
    let r = reference(text);
    if r.corrupt as f64 / r.lines.max(1) as f64 > BAD_LINE_LIMIT && !force {
        return None;
    }
    let mut report = Report {
        lines: r.lines,
        superseded: r.superseded,
        deleted: r.deleted,
        unknown_deletions: r.unknown_deletions,
        index_lines: r.index_lines,
        bad: r
            .bad
            .into_iter()
            .map(|(line, error)| BadLine { line, error })
            .collect(),
        ..Report::default()
    };
    let mut taken = migrate::valid_ids(&r.documents);
    let mut documents = Vec::new();
    for d in r.documents {
        match migrate::journal_entry(d, &mut taken, &mut report.warnings) {
            Some(e) => documents.push(Value::Object(e)),
            None => report.skipped += 1,
        }
    }
    report.documents = documents.len();
    Some(Imported { documents, report })
}

/// JSON texts for values: plain and tricky scalars (escapes, surrogate pairs, lone surrogates,
/// numbers at and beyond the f64 range), any string as `serde_json` writes it, and nesting.
fn value() -> impl Strategy<Value = String> {
    let valid = prop::sample::select(vec![
        "0",
        "-0",
        "12",
        "-7",
        "1.5",
        "-2.25e-3",
        "1E5",
        "6.02e+23",
        "1e308",
        "1e309",
        "9e308",
        "-1.7976931348623157e308",
        "-1e400",
        "1e-400",
        "0e99999",
        "123456789012345678901234567890",
        "true",
        "false",
        "null",
        "\"\"",
        "\"plain\"",
        r#""q \" b \\ s \/ \b\f\n\r\t""#,
        r#""\u00e9\u0041\u005f""#,
        r#""\ud83d\ude00""#,
        r#""\ud83d""#,
        r#""\udc00x""#,
        r#""\ud83d\u0041""#,
        "\"é ✓ 😀\"",
        r#""<p onclick=\"x\">_id</p>""#,
        r#""{\"_id\":\"a\"}""#,
    ]);
    // not JSON values
    let invalid = prop::sample::select(vec![
        "01",
        "-",
        "-01",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "tru",
        "nul",
        "True",
        "NaN",
        "'a'",
        r#""\x""#,
        r#""\u12g4""#,
        r#""\u12""#,
        "\"\t\"",
        "\"\u{1}\"",
        "\"open",
    ]);
    let scalar = prop_oneof![
        8 => valid.prop_map(str::to_string),
        1 => invalid.prop_map(str::to_string),
        2 => any::<String>().prop_map(|s| Value::String(s).to_string()),
        2 => "[a-z<>/ =\"\\\\]{0,40}".prop_map(|s| Value::String(s).to_string()),
    ];
    scalar.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((key(), inner), 0..4).prop_map(|v| {
                let fields: Vec<String> = v.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
                format!("{{{}}}", fields.join(", "))
            }),
        ]
    })
}

/// Keys, as JSON texts: the ones the replay reads (also escaped), and others.
fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "\"_id\"",
        "\"name\"",
        "\"pages\"",
        "\"$$deleted\"",
        "\"$$indexCreated\"",
        r#""\u005fid""#,
        "\"_Id\"",
        "\"\"",
    ])
    .prop_map(str::to_string)
}

/// An `_id` value: mostly a few ids (so lines supersede, delete and revive each other), some
/// that are not usable.
fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(vec!["\"a\"", "\"b\"", "\"c\"", "\"aaaaaaaaaaaaaaa1\""]),
        1 => prop::sample::select(vec!["\"\"", "5", "null", "[\"a\"]", r#""\u0061""#, "\"a\\\"\"", "\"é\""]),
    ]
    .prop_map(str::to_string)
}

/// A pages array whose pages have `_id`s like the entries', to catch a scan that reads a
/// nested `_id` as the document's.
fn pages() -> impl Strategy<Value = String> {
    prop::collection::vec((id(), value()), 0..3).prop_map(|pages| {
        let pages: Vec<String> = pages
            .into_iter()
            .map(|(id, v)| {
                format!("{{\"_id\":{id},\"text\":{{\"content\":{v}}},\"$$deleted\":true}}")
            })
            .collect();
        format!("[{}]", pages.join(","))
    })
}

/// One line of a log: a document (fields in any order), a deletion, an index line, another
/// JSON value, or one of those damaged.
fn line() -> impl Strategy<Value = String> {
    let document = (
        prop::option::weighted(0.9, id()),
        prop::option::weighted(0.1, id()),
        prop::option::weighted(
            0.15,
            prop::sample::select(vec!["true", "false", "\"true\"", "1"]),
        ),
        prop::option::weighted(0.05, value()),
        pages(),
        prop::collection::vec((key(), value()), 0..3),
        prop::sample::select(vec![",", ", ", " ,\t", "\r,\n"]),
    )
        .prop_flat_map(|(id, twice, deleted, index, pages, extra, comma)| {
            let mut fields: Vec<String> = Vec::new();
            fields.extend(id.map(|id| format!("\"_id\":{id}")));
            fields.extend(twice.map(|id| format!("\"_id\" : {id}")));
            fields.extend(deleted.map(|d| format!("\"$$deleted\":{d}")));
            fields.extend(index.map(|v| format!("\"$$indexRemoved\":{v}")));
            fields.push(format!("\"pages\":{pages}"));
            fields.extend(extra.into_iter().map(|(k, v)| format!("{k}:{v}")));
            Just(fields)
                .prop_shuffle()
                .prop_map(move |f| format!("{{{}}}", f.join(comma)))
        });
    let deletion = id().prop_map(|id| format!("{{\"$$deleted\":true,\"_id\":{id}}}"));
    let index = Just(
        r#"{"$$indexCreated":{"fieldName":"name","unique":false,"sparse":false}}"#.to_string(),
    );
    let whole = prop_oneof![
        6 => document,
        2 => deletion,
        1 => index,
        1 => value(),
        1 => (100..135usize).prop_map(|n| format!("{}{}", "{\"a\":".repeat(n), "1}".repeat(n))),
        1 => Just(format!("{{\"_id\":\"a\",\"deep\":{}0{}}}", "[".repeat(99), "]".repeat(99))),
    ];
    (
        whole,
        0..6usize,
        any::<prop::sample::Index>(),
        "[ -~é\t\u{1}\\\\\"{}\\[\\]]",
    )
        .prop_map(|(line, damage, at, with)| {
            let chars: Vec<char> = line.chars().collect();
            let at = at.index(chars.len() + 1);
            match damage {
                // cut short, a character inserted, trailing garbage
                0 => chars[..at].iter().collect(),
                1 => {
                    let mut c = chars;
                    c.splice(at..at, with.chars());
                    c.into_iter().collect()
                }
                2 => format!("{line} {with}"),
                _ => line,
            }
        })
}

/// A log: lines with blank ones between, `\n` or `\r\n`, white space around.
fn log() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            line(),
            prop::sample::select(vec!["\n", "\r\n", "\n\n", " \n\t"]),
        ),
        0..40,
    )
    .prop_map(|lines| lines.into_iter().map(|(l, end)| l + end).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_replay_equals_parsing_every_line(text in log()) {
        prop_assert_eq!(replay(&text), reference(&text), "log:\n{}", text);
    }

    /// Every non-blank line is in exactly one bucket of the report.
    #[test]
    fn every_line_is_counted_once(text in log(), force in any::<bool>(), nedb in any::<bool>()) {
        let options = ImportOptions { format: if nedb { Format::Nedb } else { Format::Auto }, force };
        if let Ok(i) = import_pack(&text, &options) {
            let r = &i.report;
            let sum = r.documents + r.skipped + r.superseded + r.deleted + r.unknown_deletions
                + r.index_lines + r.bad.len();
            prop_assert_eq!(r.lines, sum, "{:?}\nlog:\n{}", r, text);
            prop_assert_eq!(r.documents, i.documents.len());
        }
    }

    /// The text the wasm side hands to JS (entries written as they are migrated) is the import's
    /// `serde_json` text, or the same error.
    #[test]
    fn the_streamed_import_is_the_import(text in log(), force in any::<bool>(), nedb in any::<bool>()) {
        let options = ImportOptions { format: if nedb { Format::Nedb } else { Format::Auto }, force };
        let streamed = import_pack_json(&text, &options).map_err(|e| e.to_string());
        let whole = import_pack(&text, &options)
            .map(|i| serde_json::to_string(&i).unwrap())
            .map_err(|e| e.to_string());
        prop_assert_eq!(streamed, whole);
    }

    /// The import of a log (built line by line as it is migrated) is the import that parsed
    /// every line first.
    #[test]
    fn the_import_equals_parsing_every_line_first(text in log(), force in any::<bool>()) {
        let options = ImportOptions { format: Format::Nedb, force };
        prop_assert_eq!(import_pack(&text, &options).ok(), reference_import(&text, force));
    }

    /// The scan reads what `serde_json` writes (so the logs Foundry writes take the fast path):
    /// any text in a string, at any offset in a line.
    #[test]
    fn the_scan_reads_what_serde_json_writes(
        s in any::<String>(),
        pad in 0..20usize,
        n in any::<i64>(),
        f in any::<f64>().prop_filter("below 1e308", |f| f.abs() < 1e308),
    ) {
        let id = "x".repeat(pad + 1);
        let doc = serde_json::json!({"_id": id, "s": s, "n": n, "f": f, "pages": [{"_id": "p", "t": s}]});
        let line = doc.to_string();
        let top = top_level(&line);
        prop_assert!(top.is_some(), "{}", line);
        prop_assert_eq!(top.and_then(|t| t.id), Some(id.as_str()));
    }

    /// What the scan accepts, `serde_json` reads as an object with the same top-level facts.
    #[test]
    fn the_scan_only_accepts_what_serde_json_reads(line in line()) {
        let line = line.trim();
        if let Some(top) = top_level(line) {
            let doc = match serde_json::from_str::<Value>(line) {
                Ok(Value::Object(doc)) => doc,
                other => return Err(TestCaseError::fail(format!("{line}: scanned, but {other:?}"))),
            };
            prop_assert_eq!(
                top.index,
                doc.contains_key("$$indexCreated") || doc.contains_key("$$indexRemoved")
            );
            prop_assert_eq!(top.deleted, doc.get("$$deleted") == Some(&Value::Bool(true)));
            prop_assert_eq!(top.id, doc.get("_id").and_then(Value::as_str));
        }
    }
}

/// The generators above reach both paths: lines the scan reads and lines it leaves to
/// `serde_json`, and logs with supersessions, deletions and bad lines.
#[test]
fn the_generated_logs_exercise_every_path() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut scanned, mut left, mut superseded, mut deleted, mut bad) = (0, 0, 0, 0, 0);
    for _ in 0..200 {
        let text = log().new_tree(&mut runner).unwrap().current();
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if top_level(l).is_some() {
                scanned += 1;
            } else {
                left += 1;
            }
        }
        let r = reference(&text);
        superseded += r.superseded;
        deleted += r.deleted;
        bad += r.bad.len();
    }
    for (what, n) in [
        ("scanned", scanned),
        ("left to serde_json", left),
        ("superseded", superseded),
        ("deleted", deleted),
        ("bad", bad),
    ] {
        assert!(n > 50, "{what}: only {n}");
    }
}

#[test]
fn lines_the_scan_leaves_to_serde_json_are_reported_as_before() {
    let log = [
        r#"{"_id":"a","n":1e309}"#,
        r#"{"_id":"a","s":"\ud800"}"#,
        r#"{"\u005fid":"a","n":1}"#,
        r#"{"_id":"a","_id":"b"}"#,
        r#"{"_id":"a\u0062","n":2}"#,
        r#"{"_id":"","n":3}"#,
        r#"{"_id":"a","n":01}"#,
        "{\"_id\":\"a\",\"s\":\"tab\there\"}",
        r#"{"_id":"a","pages":[{"_id":"b"}],}"#,
        r#"{"pages":[{"_id":"c"}]}"#,
        r#"{"_id":"c","n":1} x"#,
    ]
    .join("\n");
    let r = replay(&log);
    assert_eq!(r, reference(&log));
    let lines: Vec<usize> = r.bad.iter().map(|(n, _)| *n).collect();
    // 1e309 and a lone surrogate are read as JSON.parse reads them (then superseded by line 3)
    assert_eq!(lines, [6, 7, 8, 9, 10, 11]);
    assert_eq!(r.superseded, 2);
    // the escaped key is the _id; of two _id keys the second wins
    let ids: Vec<&str> = r
        .documents
        .iter()
        .map(|d| d["_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b", "ab"]);
}
