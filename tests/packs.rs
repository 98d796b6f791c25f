//! Importing journal packs: the seed's NeDB log (a real v10 compendium export), hand-made logs,
//! JSON shapes, the v13 migration, unsafe HTML (reported by the scanner, removed by the CLI's
//! sanitiser) and the glossary the enrichers use.

use icon_engine::packs::glossary::Term;
use icon_engine::packs::html::dangers;
use icon_engine::packs::sanitize::sanitize;
use icon_engine::packs::{glossary, import_pack, Format, ImportOptions, Imported};
use serde_json::{json, Value};

const SEED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/seeds/icon-rules-reference.db"
);
const TACTICAL: &str = "oTFwOxymQG9qIOAd";
const NARRATIVE: &str = "zr2iJeDGRgYVvxHH";
const STATUSES_PAGE: &str = "Positive Effects/Statuses/Blights/States";
const GLOSSARY_PAGE: &str = "Basic Combat Concepts & Glossary";

fn seed() -> String {
    std::fs::read_to_string(SEED).expect("the vendored seed (tests/fixtures/seeds)")
}

fn options(format: Format, force: bool) -> ImportOptions {
    ImportOptions { format, force }
}

fn auto() -> ImportOptions {
    ImportOptions::default()
}

fn entry<'a>(imported: &'a Imported, id: &str) -> &'a Value {
    imported
        .documents
        .iter()
        .find(|d| d["_id"] == id)
        .unwrap_or_else(|| panic!("entry {id} imported"))
}

fn page_names(entry: &Value) -> Vec<&str> {
    entry["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

#[test]
fn the_seed_imports_to_two_entries_and_seventeen_pages_in_sort_order() {
    let imported = import_pack(&seed(), &auto()).unwrap();
    let r = &imported.report;
    assert_eq!(
        (r.lines, r.documents, r.superseded, r.deleted),
        (38, 2, 36, 0)
    );
    assert!(r.bad.is_empty() && r.warnings.is_empty(), "{r:?}");
    let ids: Vec<&str> = imported
        .documents
        .iter()
        .map(|d| d["_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [TACTICAL, NARRATIVE], "in order of first appearance");
    let tactical = entry(&imported, TACTICAL);
    assert_eq!(tactical["name"], "Rules Reference (Tactical Combat)");
    // the log stores the glossary page last; its sort (0) puts it first
    assert_eq!(
        page_names(tactical),
        [
            GLOSSARY_PAGE,
            "Targeting/Range",
            "Cover/Line of Sight",
            "Engagement",
            "Bonus Damage/Critical Hits",
            "Effects/Armor/Resistance",
            "Exiting Combat",
            "Resolve",
            "Health/Healing",
            STATUSES_PAGE,
            "Session End XP",
        ]
    );
    let narrative = entry(&imported, NARRATIVE);
    assert_eq!(narrative["name"], "Rules Reference (Narrative Play)");
    assert_eq!(
        page_names(narrative),
        [
            "Action Rolls",
            "Action Ratings and Chapter Examples",
            "Fortune Rolls",
            "Risk and Effect",
            "Tempting Fate",
            "Strain, Effort, Breaking, and Burdens",
        ]
    );
}

/// The newest revision of each entry, by `_stats.modifiedTime`, read straight from the log.
fn newest_revisions(text: &str) -> Vec<(usize, Value)> {
    let mut newest: Vec<(usize, Value)> = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: Value = serde_json::from_str(line).unwrap();
        let t = v["_stats"]["modifiedTime"].as_i64().unwrap();
        match newest.iter_mut().find(|(_, n)| n["_id"] == v["_id"]) {
            Some(slot) if slot.1["_stats"]["modifiedTime"].as_i64().unwrap() < t => *slot = (i, v),
            Some(_) => {}
            None => newest.push((i, v)),
        }
    }
    newest
}

fn contents(entry: &Value) -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = entry["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["_id"].as_str().unwrap().to_string(),
                p["text"]["content"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    pages.sort();
    pages
}

#[test]
fn the_seed_keeps_the_newest_text_of_every_page() {
    let text = seed();
    let imported = import_pack(&text, &auto()).unwrap();
    let newest = newest_revisions(&text);
    assert_eq!(newest.len(), 2);
    for (line, revision) in &newest {
        let id = revision["_id"].as_str().unwrap();
        let got = entry(&imported, id);
        assert_eq!(
            got["_stats"]["modifiedTime"], revision["_stats"]["modifiedTime"],
            "{id}"
        );
        assert_eq!(
            contents(got),
            contents(revision),
            "{id} (line {})",
            line + 1
        );
    }
    // and that is not what the first revision says: the glossary and the statuses changed
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["_id"], TACTICAL);
    let changed: Vec<String> = contents(entry(&imported, TACTICAL))
        .into_iter()
        .zip(contents(&first))
        .filter(|(new, old)| new != old)
        .map(|(new, _)| new.0)
        .collect();
    assert_eq!(
        changed,
        [
            "IzXXF4HBMq0xuhSr",
            "PO5vb3MMUI5nNQkT",
            "QtiAR2K8afJ13232",
            "Zz3TcLTaCNUcsS7q",
            "xLw5B9ggDnEVT0HG"
        ]
    );
    assert_eq!(
        entry(&imported, TACTICAL)["_stats"]["modifiedTime"],
        1_686_414_874_201_i64
    );
    assert_eq!(
        entry(&imported, NARRATIVE)["_stats"]["modifiedTime"],
        1_686_412_399_145_i64
    );
}

#[test]
fn the_seed_is_migrated_to_the_v13_shape() {
    let imported = import_pack(&seed(), &auto()).unwrap();
    for (id, source) in [
        (TACTICAL, "JournalEntry.Ww2NsTPXkqetekYC"),
        (NARRATIVE, "JournalEntry.lgFVQllCGHZgKc3e"),
    ] {
        let d = entry(&imported, id);
        assert_eq!(d["_stats"]["compendiumSource"], source);
        assert_eq!(
            d["_stats"]["exportSource"],
            json!({"worldId": "icon-things", "uuid": null, "coreVersion": "10.286",
                   "systemId": "worldbuilding", "systemVersion": "0.7.1"})
        );
        assert_eq!(d["_stats"]["coreVersion"], "10.291");
        assert_eq!(
            d["flags"],
            json!({}),
            "flags.core.sourceId and exportSource moved"
        );
        assert_eq!(d["categories"], json!([]));
        assert_eq!(d["ownership"], json!({"default": 0, "tXyJLVgERViy4mQ6": 3}));
        for p in d["pages"].as_array().unwrap() {
            assert_eq!(p["category"], Value::Null);
            assert_eq!(p["ownership"], json!({"default": -1}));
            assert!(p["_stats"].is_object() && p["_stats"]["modifiedTime"].is_null());
            assert_eq!(p["text"]["format"], 1);
            assert!(p.get("_key").is_none());
        }
    }
}

/// A log written by hand: index lines, blank lines, duplicates, deletions (one of a document that
/// comes back), v10, v11 and v12 flag shapes and a corrupt line.
fn hand_made_log() -> String {
    let page = |id: &str, sort: i64| {
        json!({"_id": id, "name": format!("P{sort}"), "type": "text", "sort": sort,
               "text": {"format": 1, "content": "<p>x</p>"}})
    };
    let entry = |id: &str, name: &str, extra: Value| {
        let mut e = json!({"_id": id, "name": name,
                           "pages": [page("pppppppppppppp02", 200), page("pppppppppppppp01", 100)]});
        if let (Some(e), Value::Object(extra)) = (e.as_object_mut(), extra) {
            e.extend(extra);
        }
        e.to_string()
    };
    let v10 = json!({"flags": {"core": {"sourceId": "Compendium.world.rules.JournalEntry.aaaaaaaaaaaaaaa1"},
                               "exportSource": {"world": "w10", "system": "icon-engine", "coreVersion": "10.291", "systemVersion": "0.1"}}});
    let v11 = json!({"flags": {"exportSource": {"world": "w11", "system": "icon-engine", "coreVersion": "11.315", "systemVersion": "0.2"}},
                     "_stats": {"coreVersion": "11.315", "modifiedTime": 11}});
    let v12 = json!({"flags": {"core": {"sourceId": "JournalEntry.leftover"}},
                     "_stats": {"compendiumSource": "Compendium.world.rules.JournalEntry.ddddddddddddddd4",
                                "duplicateSource": null, "coreVersion": "12.331", "modifiedTime": 12}});
    [
        r#"{"$$indexCreated":{"fieldName":"name","unique":false,"sparse":false}}"#.to_string(),
        entry("aaaaaaaaaaaaaaa1", "A v1", v10.clone()),
        String::new(),
        entry("bbbbbbbbbbbbbbb2", "B", v11),
        entry("aaaaaaaaaaaaaaa1", "A v2", v10.clone()),
        entry("ccccccccccccccc3", "C", json!({})),
        r#"{"$$deleted":true,"_id":"ccccccccccccccc3"}"#.to_string(),
        r#"{"$$indexRemoved":"name"}"#.to_string(),
        entry("ddddddddddddddd4", "D", v12),
        entry("aaaaaaaaaaaaaaa1", "A v3", v10),
        "{\"_id\": \"eeeeeeeeeeeeeee5\", \"name\": \"cut off".to_string(),
        r#"{"$$deleted":true,"_id":"ddddddddddddddd4"}"#.to_string(),
        entry("ddddddddddddddd4", "D again", json!({})),
    ]
    .join("\n")
}

#[test]
fn a_hand_made_log_replays_with_full_accounting() {
    let log = hand_made_log();
    let imported = import_pack(&log, &options(Format::Nedb, false)).unwrap();
    let r = &imported.report;
    // 12 non-blank lines, each in one bucket (1 corrupt of 12 is under 10%): 3 documents, 4
    // superseded (A v1, A v2, and C and D by their deletions), 2 deletions, 2 index lines, 1 bad
    assert_eq!(
        (
            r.lines,
            r.documents,
            r.superseded,
            r.deleted,
            r.unknown_deletions,
            r.index_lines
        ),
        (12, 3, 4, 2, 0, 2)
    );
    assert_eq!(r.bad.len(), 1);
    assert_eq!(
        r.bad[0].line, 11,
        "numbered as in the file, blank line included"
    );
    assert!(
        r.bad[0].error.starts_with("not JSON (EOF while parsing"),
        "{:?}",
        r.bad
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let names: Vec<&str> = imported
        .documents
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["A v3", "B", "D again"],
        "deleted C is gone, D came back"
    );
    let [a, b, d] = [0, 1, 2].map(|i| &imported.documents[i]);
    // v10: both flags move
    assert_eq!(
        a["_stats"]["compendiumSource"],
        "Compendium.world.rules.JournalEntry.aaaaaaaaaaaaaaa1"
    );
    assert_eq!(a["_stats"]["exportSource"]["worldId"], "w10");
    assert_eq!(a["flags"], json!({}));
    // v11: exportSource moves into the _stats it already had
    assert_eq!(b["_stats"]["exportSource"]["coreVersion"], "11.315");
    assert_eq!(b["_stats"]["exportSource"]["systemId"], "icon-engine");
    assert_eq!(b["_stats"]["modifiedTime"], 11);
    assert!(b["_stats"]["compendiumSource"].is_null());
    // the re-created D is the plain one, not the v12 version that was deleted
    assert!(d["_stats"]["compendiumSource"].is_null());
    // pages in sort order
    assert_eq!(page_names(a), ["P100", "P200"]);
}

#[test]
fn a_v12_entry_keeps_its_own_stats_over_leftover_flags() {
    let log = hand_made_log();
    let without_the_deletion: Vec<&str> = log.lines().take(9).collect();
    let imported = import_pack(&without_the_deletion.join("\n"), &auto()).unwrap();
    let d = entry(&imported, "ddddddddddddddd4");
    assert_eq!(
        d["_stats"]["compendiumSource"],
        "Compendium.world.rules.JournalEntry.ddddddddddddddd4"
    );
    assert_eq!(d["_stats"]["coreVersion"], "12.331");
    assert_eq!(d["flags"], json!({}));
}

#[test]
fn more_than_ten_percent_corrupt_lines_refuse_the_import_unless_forced() {
    let log = hand_made_log();
    // exactly 10%: 2 of 20 lines
    let padded = format!(
        "{log}\nnot json{}",
        "\n{\"$$indexCreated\":{\"fieldName\":\"x\"}}".repeat(7)
    );
    let r = import_pack(&padded, &auto()).unwrap().report;
    assert_eq!((r.lines, r.bad.len()), (20, 2));
    // above: 2 of 13
    let worse = format!("{log}\nnot json either");
    let e = import_pack(&worse, &auto()).unwrap_err();
    assert!(
        e.message()
            .starts_with("2 of 13 lines are corrupt (more than 10%) (line 11: not JSON"),
        "{}",
        e.message()
    );
    let forced = import_pack(&worse, &options(Format::Auto, true)).unwrap();
    assert_eq!((forced.report.documents, forced.report.bad.len()), (3, 2));
    assert_eq!(forced.report.bad[1].line, 14);
}

#[test]
fn json_exports_in_every_shape() {
    // Foundry's Export Data: no _id on the entry, exportSource in flags
    let export = |name: &str| {
        json!({"name": name, "pages": [{"_id": "qqqqqqqqqqqqqqq1", "name": "P", "sort": 0,
               "type": "text", "text": {"format": 1, "content": "<p>a</p>"}}],
               "flags": {"exportSource": {"world": "w", "system": "s", "coreVersion": "12.331", "systemVersion": "1"}}})
        .to_string()
    };
    let one = import_pack(&export("Lore"), &auto()).unwrap();
    let id = one.documents[0]["_id"].as_str().unwrap().to_string();
    assert!(icon_engine::packs::migrate::valid_id(&id));
    assert_eq!(one.report.warnings.len(), 1);
    assert_eq!(one.report.warnings[0].kind, "idReplaced");
    assert!(one.report.warnings[0].detail.contains("had no id"));
    assert_eq!(
        one.report.warnings[0].document_id.as_deref(),
        Some(id.as_str())
    );
    // the same file gives the same id (a re-import updates); another entry another id
    let again = import_pack(&export("Lore"), &auto()).unwrap();
    assert_eq!(again.documents[0]["_id"], id.as_str());
    let other = import_pack(&export("History"), &auto()).unwrap();
    assert_ne!(other.documents[0]["_id"], id.as_str());
    // an array with a duplicate, a foundryvtt-cli file, a v9 entry, an actor and a non-object
    let many = json!([
        {"_id": "eeeeeeeeeeeeeee5", "name": "E old", "pages": []},
        {"_key": "!journal!eeeeeeeeeeeeeee6", "_id": "eeeeeeeeeeeeeee6", "name": "CLI", "pages": [
            {"_key": "!journal.pages!eeeeeeeeeeeeeee6.qqqqqqqqqqqqqqq2", "_id": "qqqqqqqqqqqqqqq2", "name": "P",
             "type": "text", "text": {"format": 1, "content": "<p>b</p>"}}]},
        {"_id": "fffffffffffffff6", "name": "Old", "content": "<p>v9 body</p>", "permission": {"default": 2}},
        {"_id": "ggggggggggggggg7", "name": "Hero", "type": "character", "system": {}},
        "stray",
        {"_id": "eeeeeeeeeeeeeee5", "name": "E new", "pages": []}
    ]);
    let imported = import_pack(&many.to_string(), &auto()).unwrap();
    let r = &imported.report;
    // an export is no log: the second entry with an id is another entry, kept under a new id
    // and reported (issue 25)
    assert_eq!(
        (r.lines, r.documents, r.superseded, r.bad.len()),
        (6, 4, 0, 1)
    );
    assert_eq!(r.bad[0].line, 5);
    let names: Vec<&str> = imported
        .documents
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["E old", "CLI", "Old", "E new"]);
    let renamed = imported.documents[3]["_id"].as_str().unwrap();
    assert_eq!(imported.documents[0]["_id"], "eeeeeeeeeeeeeee5");
    assert!(icon_engine::packs::migrate::valid_id(renamed) && renamed != "eeeeeeeeeeeeeee5");
    let cli = &imported.documents[1];
    assert!(cli.get("_key").is_none() && cli["pages"][0].get("_key").is_none());
    let v9 = &imported.documents[2];
    assert_eq!(v9["pages"][0]["text"]["content"], "<p>v9 body</p>");
    assert_eq!(v9["ownership"], json!({"default": 2}));
    let kinds: Vec<&str> = r.warnings.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(kinds, ["duplicateId", "v9", "notJournal"]);
    assert_eq!(r.warnings[0].document_id.as_deref(), Some(renamed));
    assert!(
        r.warnings[0]
            .detail
            .contains("item 6 has the id eeeeeeeeeeeeeee5"),
        "{}",
        r.warnings[0].detail
    );
    assert!(r.warnings[2].detail.contains("type character"));
    // a broken file is an error that says where
    let e = import_pack("[1, 2", &options(Format::Json, false)).unwrap_err();
    assert!(e.message().starts_with("the file is not valid JSON"), "{e}");
}

#[test]
fn invalid_values_are_repaired_and_reported() {
    let one = json!({"_id": "bad id", "name": " ", "pages": [
        {"_id": "qqqqqqqqqqqqqqq1", "name": "B", "sort": 200, "title": {"show": true, "level": 9}, "text": {"format": 7, "content": "<p>b</p>"}},
        {"_id": "qqqqqqqqqqqqqqq2", "name": "", "sort": 100, "text": {"format": 1, "content": "<p>a</p>"}, "ownership": {"default": 7, "uuuuuuuuuuuuuuu1": 3}}
    ], "ownership": {"default": 0, "xxxxxxxxxxxxxxx1": "owner"}});
    let imported = import_pack(&one.to_string(), &auto()).unwrap();
    let d = &imported.documents[0];
    let id = d["_id"].as_str().unwrap();
    let got: Vec<(&str, Option<&str>, Option<&str>)> = imported
        .report
        .warnings
        .iter()
        .map(|w| {
            (
                w.kind.as_str(),
                w.document_id.as_deref(),
                w.page_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("idReplaced", Some(id), None),
            ("blankName", Some(id), None),
            ("ownership", Some(id), None),
            ("titleLevel", Some(id), Some("qqqqqqqqqqqqqqq1")),
            ("textFormat", Some(id), Some("qqqqqqqqqqqqqqq1")),
            ("blankName", Some(id), Some("qqqqqqqqqqqqqqq2")),
            ("ownership", Some(id), Some("qqqqqqqqqqqqqqq2")),
        ]
    );
    assert!(icon_engine::packs::migrate::valid_id(id));
    assert_eq!(d["name"], "Untitled");
    assert_eq!(d["ownership"], json!({"default": 0}));
    assert_eq!(page_names(d), ["Untitled", "B"], "pages are in sort order");
    assert_eq!(d["pages"][1]["title"]["level"], 6);
    assert_eq!(d["pages"][1]["text"]["format"], 1);
    assert_eq!(d["pages"][0]["ownership"], json!({"uuuuuuuuuuuuuuu1": 3}));
    // the same file gives the same replacement ids, so a re-import updates instead of duplicating
    let again = import_pack(&one.to_string(), &auto()).unwrap();
    assert_eq!(again.documents[0]["_id"], d["_id"]);
}

/// Script-capable HTML and the kind the scanner reports for it.
const XSS: [(&str, &str); 18] = [
    (
        r#"<div style="position:fixed;inset:0">x</div>"#,
        "fixedOverlay",
    ),
    (
        r#"<p style="color:red;POSITION:\66ixed">x</p>"#,
        "fixedOverlay",
    ),
    (
        "<meta http-equiv=refresh content=0;url=https://x>",
        "metaRefresh",
    ),
    ("<base href=//evil/>", "base"),
    ("<link rel=stylesheet href=//evil/x.css>", "link"),
    ("<style>@import 'https://evil/x.css';</style>", "cssImport"),
    ("<script>alert(1)</script>", "script"),
    (r#"<img src="x" onerror="alert(1)">"#, "eventHandler"),
    ("<img src=x onerror=alert(1)>", "eventHandler"),
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
    (
        r#"<svg onload="alert(1)"><circle r="1"/></svg>"#,
        "eventHandler",
    ),
    (r#"<svg><g onload="alert(1)"></g></svg>"#, "eventHandler"),
    (r#"<object data="evil.swf"></object>"#, "object"),
    ("<embed src=x>", "embed"),
    ("<IFRAME src=//evil>", "iframe"),
];

#[test]
fn unsafe_html_is_reported_on_its_page() {
    let content: String = XSS.iter().map(|(h, _)| format!("<p>ok</p>{h}")).collect();
    let doc = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "X", "pages": [
        {"_id": "iiiiiiiiiiiiiii9", "name": "P", "text": {"format": 1, "content": content}},
        {"_id": "iiiiiiiiiiiiiiia", "name": "Clean", "text": {"format": 1, "content": "<p><strong>Dodge</strong>: immune</p>"}},
        {"_id": "iiiiiiiiiiiiiiib", "name": "Link", "type": "pdf", "src": "javascript:alert(1)"}
    ]});
    let imported = import_pack(&doc.to_string(), &auto()).unwrap();
    let on = |page: &str| -> Vec<String> {
        imported
            .report
            .warnings
            .iter()
            .filter(|w| w.page_id.as_deref() == Some(page))
            .map(|w| {
                format!(
                    "{} {}: {}",
                    w.field.as_deref().unwrap_or("-"),
                    w.kind,
                    w.detail
                )
            })
            .collect()
    };
    // each finding once, in order, with its count; the iframe with srcdoc is both
    assert_eq!(
        on("iiiiiiiiiiiiiii9"),
        [
            "/text/content fixedOverlay: position: fixed in <div style> in the page HTML",
            "/text/content fixedOverlay: position: fixed in <p style> in the page HTML",
            "/text/content metaRefresh: <meta http-equiv=refresh> in the page HTML",
            "/text/content base: <base> in the page HTML",
            "/text/content link: <link href> in the page HTML",
            "/text/content cssImport: @import in <style> in the page HTML",
            "/text/content script: <script> in the page HTML",
            "/text/content eventHandler: <img onerror> in the page HTML (2 times)",
            "/text/content javascriptUrl: <a href> in the page HTML (3 times)",
            "/text/content iframe: <iframe> in the page HTML (2 times)",
            "/text/content srcdoc: <iframe srcdoc> in the page HTML",
            "/text/content eventHandler: <svg onload> in the page HTML",
            "/text/content eventHandler: <g onload> in the page HTML",
            "/text/content object: <object> in the page HTML",
            "/text/content embed: <embed> in the page HTML",
        ]
    );
    assert!(on("iiiiiiiiiiiiiiia").is_empty());
    assert_eq!(
        on("iiiiiiiiiiiiiiib"),
        ["/src javascriptUrl: the page source is a script URL"]
    );
    // reported, not changed: cleanHTML does that in Foundry
    assert_eq!(
        imported.documents[0]["pages"][0]["text"]["content"],
        content.as_str()
    );
}

#[test]
fn the_cli_sanitiser_removes_everything_the_scanner_reports() {
    for (html, kind) in XSS {
        assert!(
            dangers(html).iter().any(|d| d.kind == kind),
            "scanner: {html}"
        );
        let clean = sanitize(&format!("<p>keep <strong>this</strong></p>{html}"));
        assert!(dangers(&clean).is_empty(), "{html} → {clean}");
        let lower = clean.to_lowercase();
        for bad in [
            "<script",
            "onerror",
            "onload",
            "javascript",
            "srcdoc",
            "<iframe",
            "<object",
            "<embed",
            "<svg",
        ] {
            assert!(!lower.contains(bad), "{bad} survived {html}: {clean}");
        }
        assert!(
            clean.starts_with("<p>keep <strong>this</strong></p>"),
            "{clean}"
        );
    }
    // what journal pages use stays
    let seed_like = r#"<div data-layout-column="true" style="flex-basis:33.33%"><h2>SNEAK</h2><ul class="ak-ul"><li><p><a href="https://example.com/rules">rules</a> <em>x</em><sup>1</sup></p></li></ul><hr /></div>"#;
    let clean = sanitize(seed_like);
    for keep in [
        "data-layout-column=\"true\"",
        "style=\"flex-basis:33.33%\"",
        "<h2>SNEAK</h2>",
        "class=\"ak-ul\"",
        "href=\"https://example.com/rules\"",
        "<sup>1</sup>",
        "<hr>",
    ] {
        assert!(clean.contains(keep), "{keep} lost: {clean}");
    }
}

fn seed_glossary() -> Vec<Term> {
    glossary(&seed(), &auto()).unwrap()
}

/// The bold names between two bold headings of the statuses page, read with plain string
/// operations: an oracle independent of the glossary parser.
fn names_between(html: &str, from: &str, to: &str) -> Vec<String> {
    let start = html.find(&format!("<strong>{from}</strong>")).unwrap();
    let end = html
        .find(&format!("<strong>{to}</strong>"))
        .unwrap_or(html.len());
    html[start..end]
        .split("<p><strong>")
        .skip(1)
        .map(|s| {
            s.split("</strong>")
                .next()
                .unwrap()
                .trim()
                .trim_end_matches(':')
                .trim()
                .to_string()
        })
        .collect()
}

#[test]
fn the_glossary_yields_every_status_in_the_seed_with_its_text() {
    let imported = import_pack(&seed(), &auto()).unwrap();
    let statuses_html = entry(&imported, TACTICAL)["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == STATUSES_PAGE)
        .unwrap()["text"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let g = seed_glossary();
    let section = |s: &str| -> Vec<&Term> {
        g.iter()
            .filter(|t| t.section.as_deref() == Some(s))
            .collect()
    };
    let statuses = section("STATUSES");
    let names: Vec<&str> = statuses.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(
        names,
        names_between(&statuses_html, "STATUSES", "SPECIAL STATES")
    );
    let got: Vec<(&str, &str)> = statuses
        .iter()
        .map(|t| (t.key.as_str(), t.definition.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("blind", "Reduces the maximum range of all your abilities to 2."),
            ("dazed", "+1 curse on all of your attack rolls while dazed."),
            ("hatred", "Deal half damage to all foes other than foe X. End this status at the end of your turn, or if foe X becomes immune to damage or un-targetable.."),
            ("pacified", "Character deals half damage. Breaks when damaged by a foe’s ability."),
            ("sealed", "Character cannot inflict statuses."),
            ("shattered", "Prevents you from gaining or benefiting from vigor."),
            ("slashed", "Take 4 damage after you or an ally uses an ability that moves you, but no more than once a turn."),
            ("stunned", "Can’t take interrupts. Your next ability used ends your turn, then end this status."),
            ("vulnerable", "Increases all damage you take by 1."),
            ("weakened", "All damage dealt reduced by 2."),
        ]
    );
    assert!(statuses.iter().all(|t| t.page == STATUSES_PAGE));
    assert_eq!(statuses[2].term, "Hatred of X");
    let positive = section("POSITIVE EFFECTS & TRAITS");
    let names: Vec<&str> = positive.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(
        names,
        names_between(&statuses_html, "POSITIVE EFFECTS &amp; TRAITS", "STATUSES")
    );
    assert_eq!(positive.len(), 19);
    let states = section("SPECIAL STATES");
    let names: Vec<&str> = states.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(names, ["Bloodied", "Immobile", "Incapacitated"]);
    // a definition that goes on over a second paragraph keeps it
    assert_eq!(
        states[2].definition,
        "An incapacitated character doesn’t take turns, doesn’t provide obstruction or engagement, can’t move, take actions, or use abilities or traits.\nAll effects on that character end. All effects, marks and summons created by that character are removed. Objects and terrain effects remain."
    );
    // every status id the system defines (module/config.mjs) has its text, except Foundry's
    // own "defeated"
    for id in [
        "blind",
        "dazed",
        "hatred",
        "pacified",
        "sealed",
        "shattered",
        "slashed",
        "stunned",
        "vulnerable",
        "weakened",
        "bloodied",
        "immobile",
        "incapacitated",
        "counter",
        "defiance",
        "dodge",
        "evasion",
        "flying",
        "intangible",
        "phasing",
        "stealth",
        "sturdy",
        "unstoppable",
        "regeneration",
        "vigilance",
    ] {
        assert!(g.iter().any(|t| t.key == id), "{id}");
    }
}

#[test]
fn the_glossary_page_defines_its_terms() {
    let g = seed_glossary();
    let terms: Vec<&Term> = g.iter().filter(|t| t.page == GLOSSARY_PAGE).collect();
    assert_eq!(terms.len(), 47);
    let find = |k: &str| {
        terms
            .iter()
            .find(|t| t.key == k)
            .unwrap_or_else(|| panic!("{k}"))
    };
    assert_eq!(find("armor").term, "Armor X");
    assert_eq!(
        find("armor").definition,
        "Reduce all damage taken by X. Always reduce by the highest value."
    );
    assert_eq!(find("heavy attack").term, "Heavy Attack (2 actions)");
    assert_eq!(find("rescue").term, "Rescue (1 action)");
    assert_eq!(
        find("triggered effect").definition,
        "An effect that actives under a certain condition. Common effects are critical hit, slay, collide, finishing blow, and charge. Each unique effect can only trigger once per ability, and once per trigger"
    );
    // the footnote marker is not part of the text, nor are the footnotes after the rule
    assert!(find("blessing")
        .definition
        .ends_with("discarded at the end of combat."));
    assert!(!g
        .iter()
        .any(|t| t.definition.contains("Blessing tokens are not unique")));
    // result bands and the repeated "Chapter I" examples of the narrative pages are not terms
    assert!(!g
        .iter()
        .any(|t| t.key == "6" || t.key == "1-3" || t.key == "chapter i"));
}

/// What the wasm side hands to JS is exactly `serde_json`'s text of the import (the seed, whose
/// pages are HTML with quotes and non-ASCII text, a log with warnings and a bad line, and a JSON
/// export).
#[test]
fn the_text_handed_to_js_is_serde_jsons() {
    let export = serde_json::to_string(&import_pack(&seed(), &auto()).unwrap().documents).unwrap();
    for (text, options) in [
        (seed(), auto()),
        (hand_made_log(), options(Format::Nedb, false)),
        (export, auto()),
    ] {
        let imported = import_pack(&text, &options).unwrap();
        let serde = serde_json::to_string(&imported).unwrap();
        assert_eq!(icon_engine::packs::json::to_text(&imported), serde);
        assert_eq!(
            icon_engine::packs::import_pack_json(&text, &options).unwrap(),
            serde
        );
    }
}

#[test]
fn every_field_foundry_renders_is_scanned() {
    let doc = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "<img src=x onerror=alert(1)>Entry",
        "flags": {"some-module": {"note": "<a href='javascript:x'>n</a>", "list": ["ok", "javascript:alert(1)"]}},
        "pages": [
        {"_id": "iiiiiiiiiiiiiii9", "name": "<svg onload=alert(1)>", "text": {"format": 2, "content": "", "markdown": "# x\n<script>alert(1)</script>"},
         "system": {"a/b": {"html": "<div style='position:fixed;inset:0'>"}}},
        {"_id": "iiiiiiiiiiiiiiia", "name": "Img", "type": "image", "src": "x.webp", "image": {"caption": "<meta http-equiv=refresh content=0;url=https://x>"}}
    ]});
    let imported = import_pack(&doc.to_string(), &auto()).unwrap();
    let got: Vec<(Option<&str>, Option<&str>, &str)> = imported
        .report
        .warnings
        .iter()
        .map(|w| (w.page_id.as_deref(), w.field.as_deref(), w.kind.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (None, Some("/name"), "eventHandler"),
            (None, Some("/flags/some-module/list/1"), "javascriptUrl"),
            (None, Some("/flags/some-module/note"), "javascriptUrl"),
            (Some("iiiiiiiiiiiiiii9"), Some("/name"), "eventHandler"),
            (Some("iiiiiiiiiiiiiii9"), Some("/text/markdown"), "script"),
            (
                Some("iiiiiiiiiiiiiii9"),
                Some("/system/a~1b/html"),
                "fixedOverlay"
            ),
            (
                Some("iiiiiiiiiiiiiiia"),
                Some("/image/caption"),
                "metaRefresh"
            ),
        ]
    );
    let details: Vec<&str> = imported
        .report
        .warnings
        .iter()
        .map(|w| w.detail.as_str())
        .collect();
    assert_eq!(details[0], "<img onerror> in the entry name");
    assert_eq!(details[1], "flags.some-module.list[1] is a script URL");
    assert_eq!(details[2], "<a href> in flags.some-module.note");
    assert_eq!(
        details[5],
        "position: fixed in <div style> in system.a/b.html"
    );
}

#[test]
fn pages_that_are_not_an_array_are_kept() {
    let map = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "Map", "pages": {
        "iiiiiiiiiiiiiii9": {"_id": "iiiiiiiiiiiiiii9", "name": "P", "text": {"content": "<p>x</p>"}}}});
    let imported = import_pack(&map.to_string(), &auto()).unwrap();
    assert_eq!(page_names(&imported.documents[0]), ["P"]);
    assert_eq!(imported.report.warnings[0].kind, "badPage");
    let text = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "Text", "pages": "the pages"});
    let imported = import_pack(&text.to_string(), &auto()).unwrap();
    let d = &imported.documents[0];
    assert_eq!(d["pages"], json!([]));
    assert_eq!(d["flags"]["icon-engine"]["unreadPages"], "the pages");
    assert!(imported.report.warnings[0]
        .detail
        .contains("kept in flags.icon-engine.unreadPages"));
}

#[test]
fn input_past_the_limits_is_refused_saying_the_limit() {
    use icon_engine::packs::{migrate::MAX_FIELD, MAX_TEXT};
    let e = import_pack(&" ".repeat(MAX_TEXT + 1), &auto()).unwrap_err();
    assert_eq!(e.message(), "the pack is 64.0 MiB; at most 64 MiB is read");
    let page = json!({"_id": "hhhhhhhhhhhhhhh8", "name": "Big", "pages": [
        {"_id": "iiiiiiiiiiiiiii9", "name": "P", "text": {"content": "<a>".repeat(MAX_FIELD / 3 + 1)}}]});
    let e = import_pack(&page.to_string(), &auto()).unwrap_err();
    assert_eq!(
        e.message(),
        "the entry \"Big\" (\"hhhhhhhhhhhhhhh8\") has 16.0 MiB of text in /pages/0/text/content; at most 16 MiB is read in one field, so nothing was imported"
    );
}
