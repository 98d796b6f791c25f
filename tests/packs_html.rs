//! The unsafe-HTML scan (`packs::html`) on generated markup: it reads any text without
//! panicking, hands out tags in order, and never loses a live element behind something a
//! browser closes (raw text elements, comments in every spelling, bogus comments, DOCTYPEs,
//! CDATA outside foreign content). `test/browser/html-differential.test.mjs` compares it with
//! Chromium's own parser.

use icon_engine::packs::html::{dangers, scan, tags, text, MAX_REPORTED};
use proptest::prelude::*;

/// Markup from the pieces the tokenizer cares about.
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
        "<!",
        "<?",
        "<![CDATA[",
        "]]>",
        "-",
        "!",
        "p",
        "IMG",
        "script",
        "ScRiPt",
        "style",
        "textarea",
        "title",
        "noscript",
        "xmp",
        "iframe",
        "plaintext",
        "svg",
        "math",
        "mtext",
        "desc",
        "foreignObject",
        "annotation-xml",
        "font",
        "color",
        "on",
        "onerror",
        "href",
        "src",
        "style",
        "javascript:",
        "&#106;",
        "&colon;",
        "&lt;",
        "x",
        "é",
        "ẞ",
        "\u{0}",
    ]);
    let fragment = prop::sample::select(vec![
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<svg>",
        "</svg>",
        "<math>",
        "<mi>",
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<img src=x onerror=1>",
        "<a href=javascript:x>",
        "<noscript>",
        "</noscript>",
        "<textarea>",
        "</textarea>",
        "<!--",
        "-->",
        "<!-->",
        "<template>",
        "<table>",
        "<select>",
        "<b>",
        "</b>",
        " style=\"position:fixed\"",
    ]);
    let piece = prop_oneof![3 => token, 2 => fragment];
    prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())
}

/// Junk for the inside of a construct, made only of `chars`.
fn junk(chars: &'static str) -> impl Strategy<Value = String> {
    let chars: Vec<char> = chars.chars().collect();
    prop::collection::vec(prop::sample::select(chars), 0..12).prop_map(|c| c.into_iter().collect())
}

/// Something a browser reads to its end and closes, hiding nothing after it.
fn closed() -> impl Strategy<Value = String> {
    let raw = prop::sample::select(vec![
        "style", "STYLE", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title",
        "script",
    ]);
    prop_oneof![
        // a raw text element: `<!--`, quotes and tags inside do not matter, its end tag does
        (raw, junk("<!->' \"x/ab")).prop_map(|(name, inside)| {
            let inside = inside.replace("</", "<");
            // in a script, `<!--` starts an escape that `-->` ends; end it so the script closes
            let inside = if name == "script" {
                format!("{inside}-->")
            } else {
                inside
            };
            format!("<{name}>{inside}</{name}>")
        }),
        junk("<!-x' \"").prop_map(|c| format!("<!--{}-->", c.replace("--", "-"))),
        junk("<!-x' \"").prop_map(|c| format!("<!--{}--!>", c.replace("--", "-"))),
        Just("<!-->".to_string()),
        Just("<!--->".to_string()),
        junk("<!-x' \"").prop_map(|c| format!("<!x{}>", c)),
        junk("<!-x' \"").prop_map(|c| format!("<?{}>", c)),
        junk("<!-x' \"").prop_map(|c| format!("</1{}>", c)),
        junk("<!-x' \"").prop_map(|c| format!("<!DOCTYPE {}>", c)),
        junk("<!-x' \"]").prop_map(|c| format!("<![CDATA[{}]]>", c)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn any_text_is_read_and_tags_come_in_order(html in prop_oneof![markup(), any::<String>()]) {
        let t = tags(&html);
        let mut last = 0;
        for tag in &t {
            prop_assert!(tag.span.0 >= last && tag.span.1 <= html.len() && tag.span.0 < tag.span.1);
            last = tag.span.1;
        }
        let s = scan(&html);
        prop_assert!(s.found.len() <= MAX_REPORTED);
        let _ = text(&html);
    }

    #[test]
    fn nothing_a_browser_closes_hides_what_follows(before in prop::collection::vec(closed(), 1..4)) {
        let html = format!("{}<img src=x onerror=alert(1)>", before.concat());
        let live = dangers(&html)
            .into_iter()
            .any(|d| d.kind == "eventHandler" && d.detail == "<img onerror>");
        prop_assert!(live, "{}: {:?}", html, dangers(&html));
    }
}
