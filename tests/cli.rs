//! The `icon-engine` command line: pack import to foundryvtt-cli source files, sanitised.

use serde_json::{json, Value};
use std::process::Command;

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_icon-engine"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("icon-engine-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn import_writes_one_source_file_per_entry_with_keys() {
    let out = scratch("seed");
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seeds/icon-rules-reference.db"
    );
    let run = cli()
        .args(["import", seed, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).starts_with("2 entries (17 pages) from 38 lines"));
    let mut files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2);
    for f in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let id = v["_id"].as_str().unwrap();
        assert_eq!(v["_key"], format!("!journal!{id}"));
        for p in v["pages"].as_array().unwrap() {
            assert_eq!(
                p["_key"],
                format!("!journal.pages!{id}.{}", p["_id"].as_str().unwrap())
            );
        }
        assert!(f
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .ends_with(&format!("_{id}.json")));
    }
}

#[test]
fn import_sanitises_page_html_and_reports_what_it_found() {
    let dir = scratch("xss");
    let html = r#"<p>ok <strong>bold</strong></p><script>alert(1)</script><img src="x" onerror="alert(1)"><a href="jav&#x09;ascript:alert(1)">a</a><iframe srcdoc="<script>alert(1)</script>"></iframe><svg onload="alert(1)"></svg><object data="x"></object>"#;
    let entry = json!({"_id": "xxxxxxxxxxxxxxx1", "name": "Evil", "pages": [{"_id": "yyyyyyyyyyyyyyy1", "name": "P", "text": {"format": 1, "content": html}}]});
    let file = dir.join("evil.json");
    std::fs::write(&file, entry.to_string()).unwrap();
    let out = dir.join("out");
    let run = cli()
        .args(["import"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success());
    let report = String::from_utf8_lossy(&run.stdout);
    for kind in [
        "script",
        "eventHandler",
        "javascriptUrl",
        "srcdoc",
        "object",
    ] {
        assert!(report.contains(kind), "{kind} not reported: {report}");
    }
    let written = std::fs::read_to_string(out.join("Evil_xxxxxxxxxxxxxxx1.json")).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    let clean = v["pages"][0]["text"]["content"]
        .as_str()
        .unwrap()
        .to_lowercase();
    for bad in [
        "<script",
        "onerror",
        "javascript",
        "<iframe",
        "srcdoc",
        "onload",
        "<object",
    ] {
        assert!(!clean.contains(bad), "{bad} survived: {clean}");
    }
    assert!(clean.contains("<strong>bold</strong>"), "{clean}");
}

#[test]
fn bad_input_is_a_clear_failure() {
    let run = cli()
        .args(["import", "/nonexistent/file.db", "--out", "/tmp/x"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read /nonexistent/file.db"));
    let run = cli().args(["frobnicate"]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn a_corrupt_log_is_refused_unless_forced() {
    let dir = scratch("corrupt");
    let log = dir.join("corrupt.db");
    std::fs::write(
        &log,
        "{\"_id\":\"aaaaaaaaaaaaaaa1\",\"name\":\"A\",\"pages\":[]}\nnot json\n{\"_id\":\"aaaaaaaaaaaaaaa2\",\"name\":\"B\",\"pages\":[]}\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = cli()
        .arg("import")
        .arg(&log)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.starts_with("icon-engine: 1 of 3 lines are corrupt (more than 10%) (line 2: not JSON"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written on refusal");
    let run = cli()
        .arg("import")
        .arg(&log)
        .args(["--force", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success());
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        report
            .starts_with("2 entries (0 pages) from 3 lines: 0 superseded, 0 deleted, 1 bad lines"),
        "{report}"
    );
    assert!(report.contains("  line 2: not JSON"), "{report}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2);
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        vec![],
        vec!["import"],
        vec!["import", "x.db"],
        vec!["import", "x.db", "--out"],
        vec!["import", "x.db", "--out", "d", "--format", "yaml"],
        vec!["glossary", "x.db", "--bogus"],
    ] {
        let run = cli().args(&args).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("usage: icon-engine import"));
    }
}

#[test]
fn glossary_prints_the_terms_as_json() {
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seeds/icon-rules-reference.db"
    );
    let run = cli().args(["glossary", seed]).output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let terms: Vec<Value> = serde_json::from_slice(&run.stdout).unwrap();
    let dazed = terms.iter().find(|t| t["key"] == "dazed").unwrap();
    assert_eq!(
        dazed,
        &json!({"term": "Dazed", "key": "dazed", "definition": "+1 curse on all of your attack rolls while dazed.",
                "page": "Positive Effects/Statuses/Blights/States", "section": "STATUSES"})
    );
    assert_eq!(terms.len(), 84);
}
