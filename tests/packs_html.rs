//! The unsafe-HTML scan reads borrowed tags (`packs::html`), allocating only for what it
//! reports. These properties hold it, and `tags`, to the straightforward versions that build
//! every tag with its attributes first (what they did before), over generated markup full of
//! the tokens the scanner cares about.

use icon_engine::packs::html::{dangers, decode_entities, is_script_url, tags, Attr, Danger, Tag};
use proptest::prelude::*;

const URL_ATTRS: [&str; 10] = [
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "data",
    "poster",
    "background",
    "lowsrc",
    "dynsrc",
];
const SVG_ANIMATIONS: [&str; 4] = ["animate", "set", "animatemotion", "animatetransform"];
const MAX_DEPTH: usize = 3;

fn comment_end(html: &str, start: usize) -> usize {
    let body = start + 2;
    let a = html[body..].find("-->").map(|e| body + e + 3);
    let b = html[body..].find("--!>").map(|e| body + e + 4);
    match (a, b) {
        (Some(a), Some(b)) => a.min(b),
        (Some(e), None) | (None, Some(e)) => e,
        (None, None) => html.len(),
    }
}

/// `tags` as it was: every tag built with its attributes.
fn reference_tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let start = i + off;
        if html[start..].starts_with("<!--") {
            i = comment_end(html, start);
            continue;
        }
        let mut j = start + 1;
        let end = bytes.get(j) == Some(&b'/');
        if end {
            j += 1;
        }
        let name_start = j;
        while j < bytes.len()
            && !bytes[j].is_ascii_whitespace()
            && bytes[j] != b'>'
            && bytes[j] != b'/'
        {
            j += 1;
        }
        let name = html[name_start..j].to_ascii_lowercase();
        if !name.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
            i = start + 1;
            continue;
        }
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            let a = j;
            // the first character may be `=`; after it a name ends at space, `/`, `>` or `=`
            j += 1;
            while j < bytes.len()
                && !bytes[j].is_ascii_whitespace()
                && !matches!(bytes[j], b'=' | b'>' | b'/')
            {
                j += 1;
            }
            let attr = html[a..j].to_ascii_lowercase();
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut raw = "";
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                match bytes.get(j) {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        let v = j + 1;
                        let close = html[v..].find(q as char).map_or(html.len(), |e| v + e);
                        raw = &html[v..close];
                        j = (close + 1).min(html.len());
                    }
                    _ => {
                        let v = j;
                        while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>'
                        {
                            j += 1;
                        }
                        raw = &html[v..j];
                    }
                }
            }
            attrs.push(Attr {
                name: attr,
                value: decode_entities(raw),
                raw: raw.to_string(),
            });
        }
        let close = (j + 1).min(html.len());
        out.push(Tag {
            name,
            end,
            attrs,
            span: (start, close),
        });
        i = close;
    }
    out
}

/// `dangers` as it was, over those tags.
fn reference_dangers(html: &str) -> Vec<Danger> {
    let mut out = Vec::new();
    scan(html, "", 0, &mut out);
    out
}

fn scan(html: &str, context: &str, depth: usize, out: &mut Vec<Danger>) {
    let mut push = |kind: &'static str, what: String| {
        out.push(Danger {
            kind,
            detail: format!("{what}{context}"),
        })
    };
    let mut nested: Vec<(String, String)> = Vec::new();
    for tag in reference_tags(html).into_iter().filter(|t| !t.end) {
        let name = tag.name.as_str();
        match name {
            "script" => push("script", "<script>".into()),
            "iframe" | "frame" | "frameset" => push("iframe", format!("<{name}>")),
            "object" | "applet" => push("object", format!("<{name}>")),
            "embed" => push("embed", "<embed>".into()),
            "meta" => {
                let refresh = tag
                    .attr("http-equiv")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
                let target = tag.attr("content").and_then(|c| {
                    let lower = c.to_ascii_lowercase();
                    lower.find("url=").map(|at| c[at + 4..].to_string())
                });
                if refresh && target.is_some_and(|t| is_script_url(t.trim_matches(['\'', '"']))) {
                    push("javascriptUrl", "<meta http-equiv=refresh>".into());
                }
            }
            _ if SVG_ANIMATIONS.contains(&name) => {
                let target = tag
                    .attr("attributename")
                    .unwrap_or("")
                    .trim()
                    .to_lowercase();
                if target.starts_with("on") {
                    push("eventHandler", format!("<{name} attributeName={target}>"));
                } else if URL_ATTRS.contains(&target.as_str()) {
                    let mut values = ["to", "from", "values", "by"]
                        .iter()
                        .filter_map(|a| tag.attr(a))
                        .flat_map(|v| v.split(';'));
                    if values.any(is_script_url) {
                        push("javascriptUrl", format!("<{name} attributeName={target}>"));
                    }
                }
            }
            _ => {}
        }
        for attr in &tag.attrs {
            let a = attr.name.as_str();
            if a.starts_with("on") {
                push("eventHandler", format!("<{name} {a}>"));
            } else if a == "srcdoc" {
                push("srcdoc", format!("<{name} srcdoc>"));
            } else if URL_ATTRS.contains(&a) && is_script_url(&attr.value) {
                push("javascriptUrl", format!("<{name} {a}>"));
            } else if attr.raw.contains('<') && depth < MAX_DEPTH {
                nested.push((attr.raw.clone(), format!(" inside the {a} of <{name}>")));
            }
        }
    }
    for (value, inner) in nested {
        scan(&value, &format!("{inner}{context}"), depth + 1, out);
    }
}

/// Markup from the pieces the scanner reads: tag and attribute names in any case, quotes,
/// character references, comments, URLs, nested markup in values, non-ASCII text.
fn markup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "<",
        ">",
        "</",
        "/",
        "=",
        "\"",
        "'",
        " ",
        "\t",
        "\n",
        "<!--",
        "-->",
        "--!>",
        "p",
        "IMG",
        "script",
        "ScRiPt",
        "iframe",
        "frame",
        "object",
        "applet",
        "embed",
        "meta",
        "svg",
        "set",
        "animate",
        "a",
        "on",
        "ONLOAD",
        "onerror",
        "href",
        "xlink:href",
        "src",
        "srcdoc",
        "data",
        "http-equiv",
        "refresh",
        "content",
        "url=",
        "attributeName",
        "to",
        "values",
        ";",
        "javascript:",
        "JaVa&#x09;script:",
        "&#106;",
        "&colon;",
        "&amp;",
        "alert(1)",
        "x",
        "é",
        "ẞ",
        "noscript",
        "title",
    ]);
    // pieces of tags, so that whole tags come together often
    let fragment = prop::sample::select(vec![
        "<script>",
        "<SCRIPT src=x>",
        "<iframe ",
        "<Frame>",
        "<object data=x>",
        "<embed ",
        "<meta http-equiv=\"refresh\" content=\"0;url=",
        "<meta http-equiv=refresh content='",
        "<svg><set attributeName=\"href\" to=\"",
        "<animateTransform attributeName=\"onend\"",
        "<ANIMATEMOTION attributeName=href values=\"",
        "<frameset>",
        "<animate attributename=ONBEGIN values=",
        "<animate attributeName=xlink:href values=\"a;",
        " onclick=",
        " OnLoad=\"",
        " href=\"",
        " src=",
        " srcdoc=\"",
        " data=",
        "<img ",
        "<p title=\"",
        "<a ",
        "\">",
        "'>",
        ">",
        "</p>",
        "<!-- ",
        " -->",
    ]);
    let piece = prop_oneof![3 => token, 2 => fragment];
    prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn tags_and_dangers_equal_the_straightforward_reading(html in markup()) {
        prop_assert_eq!(tags(&html), reference_tags(&html));
        prop_assert_eq!(dangers(&html), reference_dangers(&html));
    }

    #[test]
    fn any_text_reads_the_same(html in any::<String>()) {
        prop_assert_eq!(tags(&html), reference_tags(&html));
        prop_assert_eq!(dangers(&html), reference_dangers(&html));
    }
}

/// The generated markup reaches every kind of report.
#[test]
fn the_generated_markup_finds_every_kind() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut kinds = std::collections::BTreeMap::new();
    for _ in 0..3000 {
        let html = markup().new_tree(&mut runner).unwrap().current();
        for d in reference_dangers(&html) {
            *kinds.entry(d.kind).or_insert(0) += 1;
        }
    }
    for kind in [
        "script",
        "eventHandler",
        "javascriptUrl",
        "iframe",
        "srcdoc",
        "object",
        "embed",
    ] {
        assert!(
            kinds.get(kind).is_some_and(|n| *n > 10),
            "{kind}: {kinds:?}"
        );
    }
}
