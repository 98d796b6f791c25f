use super::*;

fn kinds(html: &str) -> Vec<&'static str> {
    dangers(html).into_iter().map(|d| d.kind).collect()
}

fn details(html: &str) -> Vec<String> {
    dangers(html)
        .into_iter()
        .map(|d| format!("{}: {}", d.kind, d.detail))
        .collect()
}

#[test]
fn tags_end_names_at_slashes_and_read_every_quoting() {
    let t = tags(r#"<IMG a/onerror=x src='1' alt="2>3"/data-x=4><!-- <b> --!><i>"#);
    assert_eq!(t.len(), 2, "{t:?}");
    let names: Vec<&str> = t[0].attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "onerror", "src", "alt", "data-x"]);
    assert_eq!(t[0].attr("alt"), Some("2>3"));
    assert_eq!(t[0].attr("data-x"), Some("4"));
    assert_eq!(t[1].name, "i", "the comment ended at --!>");
    assert!(tags("< script>x</ p><3").is_empty());
}

#[test]
fn script_urls_as_the_url_standard_reads_them() {
    for url in [
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "jav\tascript:alert(1)",
        "\u{1}javascript:alert(1)",
        "java\nscript:alert(1)",
        "\u{0} \u{1f}javascript:x",
        "data:text/html,<script>alert(1)</script>",
        "data: TEXT/HTML;base64,AAAA",
        "VBScript:msgbox",
    ] {
        assert!(is_script_url(url), "{url:?}");
    }
    for url in [
        "https://example.com/javascript:x",
        "#javascript:",
        "javascript",
        "data:image/png;base64,AAAA",
        // the URL parser keeps these, so the scheme is not `javascript`
        "\u{a0}javascript:x",
        "java\u{0}script:x",
        "java\u{85}script:x",
        "1javascript:x",
    ] {
        assert!(!is_script_url(url), "{url:?}");
    }
}

#[test]
fn the_xss_corpus_is_reported() {
    let corpus: [(&str, &str); 27] = [
        ("<script>alert(1)</script>", "script"),
        ("<ScRiPt src=//evil.js></ScRiPt>", "script"),
        ("<svg><script>alert(1)</script></svg>", "script"),
        (r#"<img src="x" onerror="alert(1)">"#, "eventHandler"),
        ("<img src=x onerror=alert(1)>", "eventHandler"),
        ("<svg/onload=alert(1)>", "eventHandler"),
        (r#"<svg><g onload="alert(1)"></g></svg>"#, "eventHandler"),
        ("<img src=x a/onerror=alert(1)>", "eventHandler"),
        ("<body ONLOAD=alert(1)>", "eventHandler"),
        (r#"<a href="javascript:alert(1)">x</a>"#, "javascriptUrl"),
        (
            r#"<a href="jav&#x09;ascript:alert(1)">x</a>"#,
            "javascriptUrl",
        ),
        (
            r#"<a href="jav&Tab;ascript&colon;alert(1)">x</a>"#,
            "javascriptUrl",
        ),
        ("<a href=&#106avascript:alert(1)>x</a>", "javascriptUrl"),
        (
            r#"<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">"#,
            "javascriptUrl",
        ),
        (
            r#"<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>"#,
            "javascriptUrl",
        ),
        (
            r#"<svg><a><set attributeName="href" to="javascript:alert(1)"/></a></svg>"#,
            "javascriptUrl",
        ),
        (
            r#"<svg><animate attributeName="onbegin" values="alert(1)"/></svg>"#,
            "eventHandler",
        ),
        (
            r#"<meta http-equiv="refresh" content="0;url=javascript:alert(1)">"#,
            "metaRefresh",
        ),
        (
            r#"<iframe srcdoc="<script>alert(1)</script>"></iframe>"#,
            "srcdoc",
        ),
        ("<IFRAME src=//evil>", "iframe"),
        (r#"<object data="evil.swf"></object>"#, "object"),
        ("<embed src=x>", "embed"),
        ("<META HTTP-EQUIV=Refresh CONTENT=5>", "metaRefresh"),
        (
            "<meta http-equiv=' &#82;efresh ' content='0;url=https://x'>",
            "metaRefresh",
        ),
        ("<base href=//evil/>", "base"),
        ("<link rel=stylesheet href=//evil/x.css>", "link"),
        (
            "<style>@\\69mport 'https://evil/x.css';</style>",
            "cssImport",
        ),
    ];
    for (html, kind) in corpus {
        assert!(kinds(html).contains(&kind), "{html}: {:?}", kinds(html));
    }
}

#[test]
fn fixed_overlays_are_reported_in_attributes_and_sheets() {
    assert_eq!(
        details(r#"<div style="position:fixed;inset:0;z-index:9999" onclick=x>"#),
        [
            "fixedOverlay: position: fixed in <div style>",
            "eventHandler: <div onclick>"
        ]
    );
    assert_eq!(
        details("<div style='POSITION&colon;\\66ixed'>"),
        ["fixedOverlay: position: fixed in <div style>"]
    );
    assert_eq!(
        details("<style>.x{position:fixed}</style>"),
        ["fixedOverlay: position: fixed in <style>"]
    );
    assert_eq!(
        details("<svg><style>&#64;import url(x.css)</style></svg>"),
        ["cssImport: @import in <style>"]
    );
    assert!(dangers("<div style='position: absolute'>").is_empty());
}

/// The issue's cases: markup a browser reads live after what the old scanner took for the
/// start of a comment.
#[test]
fn script_after_raw_text_bogus_comments_and_cdata_is_reported() {
    let img = "<img src=x onerror=alert(1)>";
    for prefix in [
        "<style><!--</style>",
        "<textarea><!--</textarea>",
        "<title><!--</title>",
        "<noscript><!--</noscript>",
        "<xmp><!--</xmp>",
        "<noembed><!--</noembed>",
        "<noframes><!--</noframes>",
        "<iframe><!--</iframe>",
        "<script><!--</script>",
        "<!x <!-- >",
        "<? <!-- >",
        "</1 <!-- >",
        "<!DOCTYPE <!-- >",
        "<![CDATA[ <!-- ]]>",
        "<!-->",
        "<!--->",
        "<!-- --!>",
        "<!---->",
        "<STYLE><!--</style >",
        "<style><!--</style/>",
        "<textarea></textarea x='<!--'>",
    ] {
        let html = format!("{prefix}{img}-->");
        assert!(
            kinds(&html).contains(&"eventHandler"),
            "{html}: {:?}",
            kinds(&html)
        );
    }
}

#[test]
fn markup_inside_raw_text_and_comments_is_not_live() {
    for html in [
        "<style><img src=x onerror=alert(1)></style>",
        "<textarea><img src=x onerror=alert(1)></textarea>",
        "<title><script>x</script></title>",
        "<!-- <img src=x onerror=alert(1)> -->",
        "<!--<!-- <img src=x onerror=alert(1)> -->",
        "<script><!--<script></script><img src=x onerror=alert(1)></script>",
        "<svg><![CDATA[ <img src=x onerror=alert(1)> ]]></svg>",
        "<svg><style><!--</style><img src=x onerror=alert(1)>--></style></svg>",
        "<xmp></xmpx><img src=x onerror=1></xmp>",
        "<plaintext></plaintext><img src=x onerror=1>",
        "<img src=x onerror=alert(1)",
    ] {
        let found: Vec<Danger> = dangers(html)
            .into_iter()
            .filter(|d| !d.detail.contains("cut off") && d.kind != "script")
            .collect();
        assert!(found.is_empty(), "{html}: {found:?}");
    }
}

#[test]
fn foreign_content_is_left_where_a_browser_leaves_it() {
    // a breakout tag, an integration point and an end tag that closes the <svg>
    for html in [
        "<svg><p><style><!--</style><img src=x onerror=1>",
        "<svg><desc><style><!--</style><img src=x onerror=1>",
        "<svg><foreignObject><style><!--</style><img src=x onerror=1>",
        "<math><mtext><style><!--</style><img src=x onerror=1>",
        "<math><annotation-xml encoding=text/html><style><!--</style><img src=x onerror=1>",
        "<div><svg></div><style><!--</style><img src=x onerror=1>",
        "<svg></svg><style><!--</style><img src=x onerror=1>",
        "<svg><font color=red><style><!--</style><img src=x onerror=1>",
        "<svg></p><style><!--</style><img src=x onerror=1>",
        "<svg/><style><!--</style><img src=x onerror=1>",
    ] {
        assert_eq!(kinds(html), ["eventHandler"], "{html}");
    }
    // still foreign: the img is inside the SVG style's comment
    for html in [
        "<svg><font><style><!--</style><img src=x onerror=1>",
        "<math><mi><mglyph><style><!--</style><img src=x onerror=1>",
        "<math><annotation-xml><style><!--</style><img src=x onerror=1>",
        "<svg><g></div><style><!--</style><img src=x onerror=1>",
    ] {
        assert!(kinds(html).is_empty(), "{html}: {:?}", kinds(html));
    }
}

#[test]
fn noscript_is_read_with_scripting_on_and_off() {
    // on: RAWTEXT, so the title's `</noscript>` ends it; off: markup, so the img is live
    let on = r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>"#;
    assert_eq!(
        details(on),
        [
            "eventHandler: <img onerror>",
            // scripting off: the same img inside the title, for a sanitiser's reading
            "eventHandler: <img onerror> inside the title of <p>"
        ]
    );
    let off = "<noscript><style></noscript><img src=x onerror=alert(1)></style></noscript>";
    assert_eq!(details(off), ["eventHandler: <img onerror>"]);
}

#[test]
fn markup_in_attribute_values_is_read_too() {
    assert_eq!(
        details(r#"<p title="&lt;img src=x onerror=alert(1)&gt;">"#),
        ["eventHandler: <img onerror> inside the title of <p>"]
    );
}

#[test]
fn the_first_of_two_attributes_counts_and_findings_are_counted_once_each() {
    assert!(dangers(r#"<a href="https://x" href="javascript:alert(1)">"#).is_empty());
    assert_eq!(
        details(r#"<a href="javascript:alert(1)" href="https://x">"#),
        ["javascriptUrl: <a href>"]
    );
    let many = "<img src=x onerror=1>".repeat(1000);
    let found = dangers(&many);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].count, 1000);
}

#[test]
fn what_is_reported_is_bounded() {
    let html: String = (0..100).map(|i| format!("<a on{i}=x>")).collect();
    let s = scan(&html);
    assert_eq!(s.found.len(), MAX_REPORTED);
    assert_eq!(s.omitted, 100 - MAX_REPORTED);
}

#[test]
fn tags_cut_off_at_the_end_are_reported_as_such() {
    assert_eq!(
        details("<p>x</p><img src=x onerror=alert(1)"),
        ["eventHandler: <img onerror> (cut off at the end of the text)"]
    );
    assert!(tags("<p>x</p><img src=x onerror=alert(1)").len() == 2);
}

#[test]
fn ordinary_journal_html_is_not_reported() {
    for safe in [
        "<p><strong>Dodge</strong>: immune</p>",
        r#"<a href="https://example.com/javascript:x">ok</a>"#,
        "<p>onerror is a word, and so is javascript: here</p>",
        r#"<p title="a &lt;b&gt; tag">x</p>"#,
        r#"<div data-layout-column="true" style="flex-basis:33.33%"><h2>SNEAK</h2></div>"#,
        r#"<img src="icons/x.webp" alt="<3">"#,
        r#"<section class="secret" style="position: relative"><p>x</p></section>"#,
    ] {
        assert!(dangers(safe).is_empty(), "{safe}: {:?}", dangers(safe));
    }
}

#[test]
fn text_drops_tags_comments_and_folds_space() {
    assert_eq!(
        text("<p>A&nbsp;<strong>b</strong><br/>c &amp;\n d</p><!-- x --><p>e</p>"),
        "A b c & d e"
    );
}

#[test]
fn a_form_inside_a_form_makes_no_element() {
    assert!(dangers("<form><form action=javascript:x>").is_empty());
    assert_eq!(
        details("<form></form><form action=javascript:x>"),
        ["javascriptUrl: <form action>"]
    );
    assert_eq!(
        details("<form><template><form action=javascript:x>"),
        ["javascriptUrl: <form action>"]
    );
}

#[test]
fn an_image_tag_is_an_img_in_html_and_an_image_in_svg() {
    assert_eq!(
        details("<image src=x onerror=1>"),
        ["eventHandler: <img onerror>"]
    );
    assert_eq!(
        details("<svg><image href=x onerror=1>"),
        ["eventHandler: <image onerror>"]
    );
}
