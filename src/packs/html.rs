//! A small HTML reader for imported journal pages: finds what could run script (to report before
//! import; in Foundry the HTML then goes through `foundry.utils.cleanHTML`) and gives the tags and
//! text the glossary reads. Pure Rust with no HTML5 parser, so it runs in wasm too.
//!
//! The scanner errs on the side of reporting. It follows the tokenizer rules of the WHATWG HTML
//! standard (§13.2.5) where an attacker could use the difference between a sloppy reader and a
//! browser: tag and attribute names end at `/` as well as white space, comments end at `-->` or
//! `--!>`, character references decode with or without their `;`, and a URL's scheme is read
//! after the URL standard strips tabs, newlines and control characters (`jav&#x09;ascript:`).
//! Where the browser's reading depends on context the scanner cannot see (raw-text elements such
//! as `<noscript>` or `<textarea>`, which end at their closing tag even inside an attribute
//! value), it reads both ways: attribute values that contain markup are scanned as HTML too.

/// Something in page HTML that could run script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Danger {
    /// `script`, `eventHandler`, `javascriptUrl`, `iframe`, `srcdoc`, `object`, `embed`.
    pub kind: &'static str,
    pub detail: String,
}

/// One attribute of a start tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attr {
    /// Lowercase.
    pub name: String,
    /// With character references decoded, as the browser sees it.
    pub value: String,
    /// As written.
    pub raw: String,
}

/// A start or end tag with its attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Lowercase.
    pub name: String,
    pub end: bool,
    pub attrs: Vec<Attr>,
    /// Byte range of the tag in the source.
    pub span: (usize, usize),
}

impl Tag {
    /// The decoded value of attribute `name`, if the tag has it.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }
}

/// The named character references that matter here: markup, white space and the ones used to
/// hide a `javascript:` scheme (`&Tab;`, `&NewLine;`, `&colon;`). Others stay as written.
const NAMED: [(&str, char); 9] = [
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("tab", '\t'),
    ("newline", '\n'),
    ("colon", ':'),
];

/// The character a reference after `&` stands for, and how many bytes of `s` it used.
/// Numeric references take every digit that follows (`&#106avascript:` is `javascript:`); an
/// out-of-range or zero code point is U+FFFD, as in browsers.
fn reference(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    let (c, used) = if b.first() == Some(&b'#') {
        let hex = matches!(b.get(1), Some(b'x' | b'X'));
        let start = if hex { 2 } else { 1 };
        let digits = b[start..]
            .iter()
            .take_while(|d| {
                if hex {
                    d.is_ascii_hexdigit()
                } else {
                    d.is_ascii_digit()
                }
            })
            .count();
        if digits == 0 {
            return None;
        }
        let code = u32::from_str_radix(&s[start..start + digits], if hex { 16 } else { 10 })
            .unwrap_or(u32::MAX);
        let c = match code {
            0 => '\u{fffd}',
            _ => char::from_u32(code).unwrap_or('\u{fffd}'),
        };
        (c, start + digits)
    } else {
        let n = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
        let name = s[..n].to_ascii_lowercase();
        let c = NAMED.iter().find(|(k, _)| *k == name)?.1;
        (c, n)
    };
    let used = if b.get(used) == Some(&b';') {
        used + 1
    } else {
        used
    };
    Some((c, used))
}

/// Decodes the character references browsers decode in attribute values and text.
pub fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        match reference(rest) {
            Some((c, used)) => {
                out.push(c);
                rest = &rest[used..];
            }
            None => out.push('&'),
        }
    }
    out.push_str(rest);
    out
}

/// Where a comment that opens at `start` (`<!--`) ends: after the first `-->` or `--!>`
/// (`<!-->` and `<!--->` are complete comments too).
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

/// All tags, in order. Comments are skipped; text is not returned.
pub fn tags(html: &str) -> Vec<Tag> {
    raw_tags(html)
        .map(|t| Tag {
            name: t.name.to_ascii_lowercase(),
            end: t.end,
            attrs: t
                .attrs()
                .map(|(name, raw)| Attr {
                    name: name.to_ascii_lowercase(),
                    value: decode_entities(raw),
                    raw: raw.to_string(),
                })
                .collect(),
            span: t.span,
        })
        .collect()
}

/// A tag as written, borrowed from the HTML. [`tags`] builds [`Tag`]s from these; [`dangers`]
/// reads them directly, so ordinary markup costs it no allocation (most tags of a page).
#[derive(Clone, Copy)]
struct RawTag<'a> {
    html: &'a str,
    /// As written.
    name: &'a str,
    end: bool,
    span: (usize, usize),
    /// Where the attributes start.
    attrs_at: usize,
}

impl<'a> RawTag<'a> {
    /// `(name, value)` of every attribute, as written.
    fn attrs(&self) -> RawAttrs<'a> {
        RawAttrs {
            html: self.html,
            j: self.attrs_at,
        }
    }

    /// The decoded value of the first attribute called `name` (lowercase), as [`Tag::attr`].
    fn attr(&self, name: &str) -> Option<String> {
        self.attrs()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, raw)| decode_entities(raw))
    }
}

/// The tags of `html`, in order, comments skipped.
fn raw_tags(html: &str) -> RawTags<'_> {
    RawTags {
        html,
        i: 0,
        only_risky: false,
    }
}

/// The start tags [`scan`] reads: with attributes or with a risky name. The others (most tags)
/// are passed over inside the tokenizer's loop, not handed out one by one.
fn risky_tags(html: &str) -> RawTags<'_> {
    RawTags {
        html,
        i: 0,
        only_risky: true,
    }
}

struct RawTags<'a> {
    html: &'a str,
    i: usize,
    only_risky: bool,
}

impl<'a> Iterator for RawTags<'a> {
    type Item = RawTag<'a>;

    #[inline]
    fn next(&mut self) -> Option<RawTag<'a>> {
        let html = self.html;
        let bytes = html.as_bytes();
        loop {
            let start = find_lt(bytes, self.i)?;
            if bytes[start + 1..].starts_with(b"!--") {
                self.i = comment_end(html, start);
                continue;
            }
            let mut j = start + 1;
            let end = bytes.get(j) == Some(&b'/');
            if end {
                j += 1;
            }
            let name_start = j;
            if !bytes.get(j).is_some_and(u8::is_ascii_alphabetic) {
                self.i = start + 1;
                continue;
            }
            while bytes.get(j).is_some_and(|&c| !NAME_END[usize::from(c)]) {
                j += 1;
            }
            let name = &html[name_start..j];
            // a bare tag (`<p>`, most of them) has nothing more to read
            let (has_attrs, last) = if bytes.get(j) == Some(&b'>') {
                (false, j)
            } else {
                let mut attrs = RawAttrs { html, j };
                (attrs.by_ref().count() > 0, attrs.j)
            };
            let close = (last + 1).min(html.len());
            self.i = close;
            if self.only_risky && (end || !(has_attrs || risky(name))) {
                continue;
            }
            return Some(RawTag {
                html,
                name,
                end,
                span: (start, close),
                attrs_at: j,
            });
        }
    }
}

/// The bytes that end a tag name: ASCII white space (`u8::is_ascii_whitespace`), `>` and `/`.
const NAME_END: [bool; 256] = {
    let mut end = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        end[i] = c.is_ascii_whitespace() || c == b'>' || c == b'/';
        i += 1;
    }
    end
};

/// The first `<` at or after `i`, eight bytes a step (most of a page is text between tags, and
/// the gaps are too short for `str::find`'s set-up to pay).
#[inline(always)]
fn find_lt(b: &[u8], mut i: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(word) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*word) ^ (ONES * u64::from(b'<'));
        // the lowest high bit set marks the first zero byte, that is the first `<`
        let found = x.wrapping_sub(ONES) & !x & HIGH;
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    Some(i + b.get(i..)?.iter().position(|&c| c == b'<')?)
}

/// The attributes of a tag from `j` (after its name) to its `>`: `(name, value)` as written.
struct RawAttrs<'a> {
    html: &'a str,
    j: usize,
}

impl<'a> Iterator for RawAttrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let (html, bytes) = (self.html, self.html.as_bytes());
        let mut j = self.j;
        while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
            j += 1;
        }
        if j >= bytes.len() || bytes[j] == b'>' {
            self.j = j;
            return None;
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
        let name = &html[a..j];
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
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>' {
                        j += 1;
                    }
                    raw = &html[v..j];
                }
            }
        }
        self.j = j;
        Some((name, raw))
    }
}

/// Whether a URL runs script once the browser has normalised it: tabs, newlines and control
/// characters vanish, case does not matter (`jav&#x09;ascript:` after decoding). Also
/// `vbscript:` and `data:text/html`, which run script where a frame loads them.
pub fn is_script_url(value: &str) -> bool {
    let cleaned: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    cleaned.starts_with("javascript:")
        || cleaned.starts_with("vbscript:")
        || cleaned.starts_with("data:text/html")
}

/// Attributes whose value is a URL the browser may load or navigate to.
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

/// SVG animation elements, which can set another attribute (`<set attributeName="href"
/// to="javascript:...">`).
const SVG_ANIMATIONS: [&str; 4] = ["animate", "set", "animatemotion", "animatetransform"];

/// Nested markup inside attribute values is scanned this deep.
const MAX_DEPTH: usize = 3;

/// Everything in `html` that could run script.
pub fn dangers(html: &str) -> Vec<Danger> {
    let mut out = Vec::new();
    scan(html, "", 0, &mut out);
    out
}

/// Whether [`scan`] looks at a tag by its name: `script`, frames, `object`, `applet`, `embed`,
/// `meta` and the SVG animations. By length first, then letter by letter, stopping at the first
/// difference (`strong` is not `script` after two letters; `eq_ignore_ascii_case` compares
/// whole names, and this runs for every bare tag).
#[inline(always)]
fn risky(name: &str) -> bool {
    let is = |word: &[u8]| {
        name.bytes()
            .zip(word)
            .all(|(c, w)| c.to_ascii_lowercase() == *w)
    };
    match name.len() {
        3 => is(b"set"),
        4 => is(b"meta"),
        5 => is(b"frame") || is(b"embed"),
        6 => is(b"script") || is(b"iframe") || is(b"object") || is(b"applet"),
        7 => is(b"animate"),
        8 => is(b"frameset"),
        13 => is(b"animatemotion"),
        16 => is(b"animatetransform"),
        _ => false,
    }
}

fn scan(html: &str, context: &str, depth: usize, out: &mut Vec<Danger>) {
    let mut push = |kind: &'static str, what: String| {
        out.push(Danger {
            kind,
            detail: format!("{what}{context}"),
        })
    };
    let mut nested: Vec<(String, String)> = Vec::new();
    for tag in risky_tags(html) {
        if risky(tag.name) {
            let name = tag.name.to_ascii_lowercase();
            let name = name.as_str();
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
                    if refresh && target.is_some_and(|t| is_script_url(t.trim_matches(['\'', '"'])))
                    {
                        push("javascriptUrl", "<meta http-equiv=refresh>".into());
                    }
                }
                _ if SVG_ANIMATIONS.contains(&name) => {
                    let target = tag
                        .attr("attributename")
                        .unwrap_or_default()
                        .trim()
                        .to_lowercase();
                    if target.starts_with("on") {
                        push("eventHandler", format!("<{name} attributeName={target}>"));
                    } else if URL_ATTRS.contains(&target.as_str()) {
                        let values: Vec<String> = ["to", "from", "values", "by"]
                            .iter()
                            .filter_map(|a| tag.attr(a))
                            .collect();
                        if values.iter().flat_map(|v| v.split(';')).any(is_script_url) {
                            push("javascriptUrl", format!("<{name} attributeName={target}>"));
                        }
                    }
                }
                _ => {}
            }
        }
        for (a, raw) in tag.attrs() {
            let named = |what: &str| {
                format!(
                    "<{} {}>",
                    tag.name.to_ascii_lowercase(),
                    what.to_ascii_lowercase()
                )
            };
            if a.as_bytes()
                .get(..2)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"on"))
            {
                push("eventHandler", named(a));
            } else if a.eq_ignore_ascii_case("srcdoc") {
                push("srcdoc", named("srcdoc"));
            } else if URL_ATTRS.iter().any(|u| a.eq_ignore_ascii_case(u))
                && is_script_url(&decode_entities(raw))
            {
                push("javascriptUrl", named(a));
            } else if raw.contains('<') && depth < MAX_DEPTH {
                nested.push((
                    raw.to_string(),
                    format!(
                        " inside the {} of <{}>",
                        a.to_ascii_lowercase(),
                        tag.name.to_ascii_lowercase()
                    ),
                ));
            }
        }
    }
    for (value, inner) in nested {
        scan(&value, &format!("{inner}{context}"), depth + 1, out);
    }
}

/// The text of an HTML fragment: tags dropped, entities decoded, white space folded.
pub fn text(html: &str) -> String {
    let mut out = String::new();
    let mut last = 0;
    for t in tags(html) {
        out.push_str(&html[last..t.span.0]);
        if matches!(t.name.as_str(), "br" | "p" | "li" | "div" | "hr") {
            out.push(' ');
        }
        last = t.span.1;
    }
    out.push_str(&html[last.min(html.len())..]);
    decode_entities(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(html: &str) -> Vec<&'static str> {
        dangers(html).into_iter().map(|d| d.kind).collect()
    }

    #[test]
    fn numeric_references_decode_with_or_without_semicolons() {
        assert_eq!(decode_entities("&#106;&#x61;&#X76;a"), "java");
        assert_eq!(decode_entities("&#106avascript&#58"), "javascript:");
        assert_eq!(decode_entities("&#0000106;"), "j");
        assert_eq!(decode_entities("&#0;&#99999999999;"), "\u{fffd}\u{fffd}");
        assert_eq!(
            decode_entities("a &amp b &lt;c&gt; &Tab;&NewLine;&colon;"),
            "a & b <c> \t\n:"
        );
        // unknown names and bare ampersands stay as written
        assert_eq!(
            decode_entities("R&D &copy; &# &#x; &"),
            "R&D &copy; &# &#x; &"
        );
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
    fn script_urls_survive_obfuscation() {
        for url in [
            "javascript:alert(1)",
            " JaVaScRiPt:alert(1)",
            "jav\tascript:alert(1)",
            "\u{1}javascript:alert(1)",
            "java\nscript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "VBScript:msgbox",
        ] {
            assert!(is_script_url(url), "{url:?}");
        }
        for url in [
            "https://example.com/javascript:x",
            "#javascript:",
            "javascript",
            "data:image/png;base64,AAAA",
        ] {
            assert!(!is_script_url(url), "{url:?}");
        }
    }

    #[test]
    fn the_xss_corpus_is_reported() {
        let corpus: [(&str, &str); 22] = [
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
                "javascriptUrl",
            ),
            (
                r#"<iframe srcdoc="<script>alert(1)</script>"></iframe>"#,
                "srcdoc",
            ),
            ("<IFRAME src=//evil>", "iframe"),
            (r#"<object data="evil.swf"></object>"#, "object"),
            ("<embed src=x>", "embed"),
        ];
        for (html, kind) in corpus {
            assert!(kinds(html).contains(&kind), "{html}: {:?}", kinds(html));
        }
    }

    #[test]
    fn markup_hidden_in_attributes_and_comments_is_reported() {
        // <noscript> and <textarea> end at their closing tag even inside a quoted value
        let html = r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>"#;
        let found = dangers(html);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].kind, "eventHandler");
        assert_eq!(found[0].detail, "<img onerror> inside the title of <p>");
        // a comment closed by --!> leaves what follows live
        assert_eq!(
            kinds("<!-- --!><img src=x onerror=alert(1)> -->"),
            ["eventHandler"]
        );
        // inside a real comment it is not
        assert!(kinds("<!-- <img src=x onerror=alert(1)> -->").is_empty());
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
        ] {
            assert!(dangers(safe).is_empty(), "{safe}: {:?}", dangers(safe));
        }
    }

    #[test]
    fn text_drops_tags_and_folds_space() {
        assert_eq!(
            text("<p>A&nbsp;<strong>b</strong><br/>c &amp;\n d</p><p>e</p>"),
            "A b c & d e"
        );
    }
}
