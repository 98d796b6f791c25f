//! The HTML tokenizer and scan (`packs::html`) and the glossary on arbitrary text: they never
//! panic, tags come in order inside the text, and what is reported stays bounded.
#![no_main]
use icon_engine::packs::glossary::terms;
use icon_engine::packs::html::{scan, tags, text, MAX_REPORTED};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    let mut last = 0;
    for t in tags(&html) {
        assert!(t.span.0 >= last && t.span.0 < t.span.1 && t.span.1 <= html.len());
        last = t.span.1;
    }
    let s = scan(&html);
    assert!(s.found.len() <= MAX_REPORTED);
    assert!(s.found.iter().all(|d| d.count > 0));
    let _ = text(&html);
    let _ = terms(&html, "page");
});
