//! Importing journal packs: the seed's NeDB log, hand-made logs, JSON shapes, v13 migration,
//! unsafe HTML and the glossary.

use icon_engine::packs::glossary::terms;
use icon_engine::packs::html::dangers;
use icon_engine::packs::{import_pack, Format, ImportOptions};
use serde_json::{json, Value};
use std::collections::HashMap;

fn seed() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/seeds/icon-rules-reference.db"
    );
    std::fs::read_to_string(path).expect("the seed is beside the repository (../shared/seeds)")
}

fn auto() -> ImportOptions {
    ImportOptions::default()
}

#[test]
fn the_seed_imports_to_two_entries_and_seventeen_pages_with_the_newest_text() {
    let text = seed();
    let imported = import_pack(&text, &auto()).unwrap();
    let r = &imported.report;
    assert_eq!(
        (r.lines, r.documents, r.superseded, r.deleted, r.bad.len()),
        (38, 2, 36, 0, 0)
    );
    let pages: Vec<usize> = imported
        .documents
        .iter()
        .map(|d| d["pages"].as_array().unwrap().len())
        .collect();
    assert_eq!(pages, [11, 6]);
    // the newest revision of each entry, by its own modifiedTime
    let mut newest: HashMap<String, i64> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let t = v["_stats"]["modifiedTime"].as_i64().unwrap();
        let slot = newest
            .entry(v["_id"].as_str().unwrap().to_string())
            .or_insert(t);
        *slot = (*slot).max(t);
    }
    for d in &imported.documents {
        assert_eq!(
            d["_stats"]["modifiedTime"].as_i64(),
            Some(newest[d["_id"].as_str().unwrap()])
        );
        // pages in sort order
        let sorts: Vec<f64> = d["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["sort"].as_f64().unwrap())
            .collect();
        assert!(sorts.windows(2).all(|w| w[0] <= w[1]), "{sorts:?}");
        // v10 flags moved to v13 _stats
        assert_eq!(d["categories"], json!([]));
        assert!(d["flags"].get("exportSource").is_none());
        assert!(d["_stats"]["exportSource"].is_object());
    }
    let tactical = imported
        .documents
        .iter()
        .find(|d| d["_id"] == "oTFwOxymQG9qIOAd")
        .unwrap();
    assert_eq!(
        tactical["_stats"]["compendiumSource"],
        "JournalEntry.Ww2NsTPXkqetekYC"
    );
    assert_eq!(
        tactical["pages"][0]["name"],
        "Basic Combat Concepts & Glossary"
    );
}

#[test]
fn a_hand_made_log_with_deletes_index_lines_and_duplicates() {
    let page = |id: &str| json!({"_id": id, "name": "P", "type": "text", "sort": 0, "text": {"format": 1, "content": "<p>x</p>"}});
    let entry = |id: &str, name: &str, flags: Value| {
        json!({"_id": id, "name": name, "pages": [page("pppppppppppppp01")], "flags": flags})
            .to_string()
    };
    let log = [
        r#"{"$$indexCreated":{"fieldName":"name","unique":false,"sparse":false}}"#.to_string(),
        entry(
            "aaaaaaaaaaaaaaa1",
            "A v1",
            json!({"core": {"sourceId": "Compendium.x.y.A"}}),
        ),
        String::new(),
        entry(
            "bbbbbbbbbbbbbbb2",
            "B",
            json!({"exportSource": {"world": "w", "coreVersion": "11.315"}}),
        ),
        entry(
            "aaaaaaaaaaaaaaa1",
            "A v2",
            json!({"core": {"sourceId": "Compendium.x.y.A"}}),
        ),
        entry("ccccccccccccccc3", "C", json!({})),
        r#"{"$$deleted":true,"_id":"ccccccccccccccc3"}"#.to_string(),
        r#"{"$$indexRemoved":"name"}"#.to_string(),
        entry(
            "ddddddddddddddd4",
            "D v12",
            json!({"core": {"sourceId": "JournalEntry.old"}, "exportSource": null}),
        ),
        entry(
            "aaaaaaaaaaaaaaa1",
            "A v3",
            json!({"core": {"sourceId": "Compendium.x.y.A"}}),
        ),
        "{this is not json".to_string(),
    ]
    .join("\n");
    let imported = import_pack(
        &log,
        &ImportOptions {
            format: Format::Nedb,
            force: false,
        },
    )
    .unwrap();
    let r = &imported.report;
    // 10 non-blank lines; 1 bad (10%, not more), so the import goes ahead
    assert_eq!(
        (r.lines, r.documents, r.superseded, r.deleted),
        (10, 3, 2, 1)
    );
    assert_eq!(r.bad.len(), 1);
    assert_eq!(r.bad[0].line, 11);
    let names: Vec<&str> = imported
        .documents
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["A v3", "B", "D v12"]);
    assert_eq!(
        imported.documents[0]["_stats"]["compendiumSource"],
        "Compendium.x.y.A"
    );
    assert_eq!(
        imported.documents[1]["_stats"]["exportSource"]["coreVersion"],
        "11.315"
    );
    // above 10% corrupt lines: refused unless forced
    let worse = format!("{log}\nnot json either");
    let e = import_pack(&worse, &auto()).unwrap_err();
    assert!(
        e.message().contains("2 of 11 lines are corrupt"),
        "{}",
        e.message()
    );
    let forced = import_pack(
        &worse,
        &ImportOptions {
            format: Format::Auto,
            force: true,
        },
    )
    .unwrap();
    assert_eq!((forced.report.documents, forced.report.bad.len()), (3, 2));
}

#[test]
fn json_exports_and_repairs() {
    let one = json!({"_id": "bad id", "name": " ", "pages": [
        {"_id": "qqqqqqqqqqqqqqq1", "name": "B", "sort": 200, "title": {"show": true, "level": 9}, "text": {"format": 7, "content": "<p>b</p>"}},
        {"_id": "qqqqqqqqqqqqqqq2", "name": "", "sort": 100, "text": {"format": 1, "content": "<p>a</p>"}, "ownership": {"default": 7, "u": 3}}
    ], "ownership": {"default": 0, "x": "owner"}});
    let imported = import_pack(&one.to_string(), &auto()).unwrap();
    let d = &imported.documents[0];
    let kinds: Vec<&str> = imported
        .report
        .warnings
        .iter()
        .map(|w| w.kind.as_str())
        .collect();
    for k in [
        "idReplaced",
        "blankName",
        "titleLevel",
        "textFormat",
        "ownership",
    ] {
        assert!(kinds.contains(&k), "{k} in {kinds:?}");
    }
    assert!(icon_engine::packs::migrate::valid_id(
        d["_id"].as_str().unwrap()
    ));
    assert_eq!(d["name"], "Untitled");
    assert_eq!(d["pages"][0]["sort"], 100, "pages are in sort order");
    assert_eq!(d["pages"][1]["title"]["level"], 6);
    assert_eq!(d["pages"][1]["text"]["format"], 1);
    assert_eq!(d["pages"][0]["ownership"], json!({"u": 3}));
    // the same file gives the same replacement ids, so a re-import updates instead of duplicating
    let again = import_pack(&one.to_string(), &auto()).unwrap();
    assert_eq!(again.documents[0]["_id"], d["_id"]);
    // an array, foundryvtt-cli files with _key, a v9 entry, and a document that is not a journal
    let many = json!([
        {"_key": "!journal!eeeeeeeeeeeeeee5", "_id": "eeeeeeeeeeeeeee5", "name": "E", "pages": []},
        {"_id": "fffffffffffffff6", "name": "Old", "content": "<p>v9 body</p>"},
        {"_id": "ggggggggggggggg7", "name": "Hero", "type": "character", "system": {}}
    ]);
    let imported = import_pack(&many.to_string(), &auto()).unwrap();
    assert_eq!((imported.report.lines, imported.report.documents), (3, 2));
    assert_eq!(
        imported.documents[1]["pages"][0]["text"]["content"],
        "<p>v9 body</p>"
    );
    assert!(imported
        .report
        .warnings
        .iter()
        .any(|w| w.kind == "notJournal" && w.detail.contains("type character")));
    assert!(import_pack(
        "[1, 2",
        &ImportOptions {
            format: Format::Json,
            force: false
        }
    )
    .is_err());
}

#[test]
fn unsafe_html_is_reported() {
    let corpus = [
        ("<script>alert(1)</script>", "script"),
        (r#"<img src="x" onerror="alert(1)">"#, "eventHandler"),
        (r#"<a href="javascript:alert(1)">x</a>"#, "javascriptUrl"),
        (
            r#"<a href="jav&#x09;ascript:alert(1)">x</a>"#,
            "javascriptUrl",
        ),
        (
            r#"<a href=" JaVaScRiPt&colon;alert(1)">x</a>"#,
            "javascriptUrl",
        ),
        (
            r#"<iframe srcdoc="<script>alert(1)</script>"></iframe>"#,
            "srcdoc",
        ),
        (r#"<svg><g onload="alert(1)"></g></svg>"#, "eventHandler"),
        (r#"<object data="evil.swf"></object>"#, "object"),
        ("<embed src=x>", "embed"),
        ("<IFRAME src=//evil>", "iframe"),
    ];
    for (html, kind) in corpus {
        let found: Vec<&str> = dangers(html).iter().map(|d| d.kind).collect();
        assert!(found.contains(&kind), "{html}: {found:?}");
    }
    for safe in [
        "<p><strong>Dodge</strong>: immune</p>",
        r#"<a href="https://example.com/javascript:x">ok</a>"#,
        "<p>onerror is a word</p>",
    ] {
        assert!(dangers(safe).is_empty(), "{safe}");
    }
    let page = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "X", "pages": [{"_id": "iiiiiiiiiiiiiii9", "name": "P", "text": {"format": 1, "content": corpus.map(|c| c.0).join("")}}]});
    let imported = import_pack(&page.to_string(), &auto()).unwrap();
    assert!(
        imported
            .report
            .warnings
            .iter()
            .filter(|w| w.page_id.as_deref() == Some("iiiiiiiiiiiiiii9"))
            .count()
            >= corpus.len()
    );
}

#[test]
fn the_glossary_yields_every_status_with_its_text() {
    let imported = import_pack(&seed(), &auto()).unwrap();
    let tactical = imported
        .documents
        .iter()
        .find(|d| d["_id"] == "oTFwOxymQG9qIOAd")
        .unwrap();
    let mut glossary = Vec::new();
    for p in tactical["pages"].as_array().unwrap() {
        glossary.extend(terms(
            p["text"]["content"].as_str().unwrap_or(""),
            p["name"].as_str().unwrap(),
        ));
    }
    let find = |t: &str| {
        glossary
            .iter()
            .find(|g| g.key == t.to_lowercase())
            .unwrap_or_else(|| panic!("{t} missing"))
    };
    for status in [
        "Blind",
        "Dazed",
        "Hatred",
        "Pacified",
        "Sealed",
        "Shattered",
        "Slashed",
        "Stunned",
        "Vulnerable",
        "Weakened",
        "Counter",
        "Defiance",
        "Dodge",
        "Evasion",
        "Flying",
        "Intangible",
        "Phasing",
        "Stealth",
        "Sturdy",
        "Unstoppable",
        "Regeneration",
        "Vigilance",
        "Bloodied",
        "Immobile",
        "Incapacitated",
    ] {
        let g = find(status);
        assert!(g.definition.len() > 10, "{status}: {}", g.definition);
        assert_eq!(
            g.page, "Positive Effects/Statuses/Blights/States",
            "{status}"
        );
    }
    assert!(find("Dodge")
        .definition
        .starts_with("Dodge makes you immune to all damage from misses"));
    assert_eq!(find("Hatred").term, "Hatred of X");
    assert!(find("Armor")
        .definition
        .starts_with("Reduce all damage taken by X"));
}
