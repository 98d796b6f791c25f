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
        "/../shared/seeds/icon-rules-reference.db"
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
