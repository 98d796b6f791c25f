//! Reading imported journal HTML as a browser does: what in it could run script or take over
//! the page (reported before import; in Foundry the HTML then goes through
//! `foundry.utils.cleanHTML` and [`module/packs/clean-html.mjs`]), and the tags and text the
//! glossary reads. Pure Rust with no HTML5 crate (html5ever's tokenizer alone would add about
//! 300 KB to the wasm, html5gum's 130 KB, and neither builds the tree the tokenizer's state
//! depends on), so it runs in wasm too.
//!
//! [`tokenizer`] follows the WHATWG tokenizer and the part of tree construction that decides its
//! state; `test/browser/html-differential.test.mjs` holds it to Chromium's parser. The scan reads
//! the text twice when it has a `<noscript>` (with scripting on, as a page renders it, and off,
//! as a sanitiser's inert document parses it), and, as a browser could after a sanitiser
//! serialised and re-read it, markup inside attribute values. Tags cut off by the end of the
//! text are reported too: the text may be put in front of other markup.
//!
//! Every scan is linear in the length of the text, and what it reports is bounded
//! ([`MAX_REPORTED`] distinct findings, each with a count).

pub mod css;
pub mod entities;
pub mod tokenizer;

use tokenizer::{first_attr, Attrs, Ns, Token, Tokenizer};

/// Something in page HTML that could run script or take over the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Danger {
    /// `script`, `eventHandler`, `javascriptUrl`, `iframe`, `srcdoc`, `object`, `embed`,
    /// `metaRefresh`, `base`, `link`, `cssImport`, `fixedOverlay`.
    pub kind: &'static str,
    /// What and where: `<img onerror>`, `<a href> inside the title of <p>`.
    pub detail: String,
    /// How many times it occurs.
    pub count: usize,
}

/// Every kind of [`Danger`].
pub const KINDS: [&str; 12] = [
    "script",
    "eventHandler",
    "javascriptUrl",
    "iframe",
    "srcdoc",
    "object",
    "embed",
    "metaRefresh",
    "base",
    "link",
    "cssImport",
    "fixedOverlay",
];

/// At most this many distinct findings are listed per scan; the rest are counted in
/// [`Scan::omitted`].
pub const MAX_REPORTED: usize = 32;

/// What a scan found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Distinct findings in order of first appearance.
    pub found: Vec<Danger>,
    /// Findings (occurrences) past the first [`MAX_REPORTED`] distinct ones.
    pub omitted: usize,
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
    /// In the browser's order; the first of two with the same name is the one it keeps.
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

/// Decodes the character references browsers decode in attribute values.
pub fn decode_entities(s: &str) -> String {
    entities::decode(s, true).into_owned()
}

/// All tags the browser reads, in order: not the ones inside comments, raw text (`<style>`,
/// `<textarea>`, `<script>`, …) or cut off at the end.
pub fn tags(html: &str) -> Vec<Tag> {
    let mut out = Vec::new();
    for t in Tokenizer::new(html, true) {
        match t {
            Token::Start(s) if !s.cut => out.push(Tag {
                name: s.name.to_ascii_lowercase(),
                end: false,
                attrs: Attrs::new(html, s.attrs_at)
                    .map(|(name, raw)| Attr {
                        name: name.to_ascii_lowercase(),
                        value: entities::decode(raw, true).into_owned(),
                        raw: raw.to_string(),
                    })
                    .collect(),
                span: s.span,
            }),
            Token::End { name, span } => out.push(Tag {
                name: name.to_ascii_lowercase(),
                end: true,
                attrs: Vec::new(),
                span,
            }),
            _ => {}
        }
    }
    out
}

/// The text of an HTML fragment: tags and comments dropped, entities decoded, white space
/// folded (block tags separate words).
pub fn text(html: &str) -> String {
    let mut out = String::new();
    let mut tokens = Tokenizer::new(html, true);
    tokens.want_text = true;
    for t in tokens {
        match t {
            Token::Text { span, cdata } => {
                let s = &html[span.0..span.1];
                if cdata {
                    out.push_str(s)
                } else {
                    out.push_str(&entities::decode(s, false))
                }
            }
            Token::Raw { span, decode } => {
                let s = &html[span.0..span.1];
                if decode {
                    out.push_str(&entities::decode(s, false))
                } else {
                    out.push_str(s)
                }
            }
            Token::Start(s) => {
                let name = s.name.to_ascii_lowercase();
                if matches!(name.as_str(), "br" | "p" | "li" | "div" | "hr") {
                    out.push(' ');
                }
            }
            Token::End { .. } => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a URL runs script where it is followed or loaded: its scheme, as the URL standard
/// reads it (leading and trailing C0 controls and spaces dropped, tabs and newlines dropped
/// anywhere, case ignored), is `javascript` or `vbscript`, or it is a `data:` URL of HTML.
pub fn is_script_url(value: &str) -> bool {
    let trimmed = value.trim_matches(|c: char| c <= ' ');
    let mut scheme = String::new();
    let mut rest = None;
    for (i, c) in trimmed.char_indices() {
        match c {
            '\t' | '\n' | '\r' => {}
            ':' => {
                rest = Some(&trimmed[i + 1..]);
                break;
            }
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {
                if scheme.is_empty() && !c.is_ascii_alphabetic() {
                    return false;
                }
                scheme.push(c.to_ascii_lowercase());
                if scheme.len() > 16 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    let Some(rest) = rest else { return false };
    match scheme.as_str() {
        "javascript" | "vbscript" => true,
        "data" => {
            let mime: String = rest
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .take_while(|&c| c != ',')
                .collect();
            mime.trim_start_matches(|c: char| c.is_ascii_whitespace())
                .to_ascii_lowercase()
                .starts_with("text/html")
        }
        _ => false,
    }
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

/// Everything in `html` that could run script or take over the page: distinct findings in
/// order, the first [`MAX_REPORTED`] of them.
pub fn dangers(html: &str) -> Vec<Danger> {
    scan(html).found
}

/// [`dangers`], with the count of what was left out.
pub fn scan(html: &str) -> Scan {
    let mut found = Found::default();
    scan_into(html, "", 0, &mut found);
    Scan {
        found: found.list,
        omitted: found.omitted,
    }
}

/// Findings so far: distinct `(kind, detail)` with counts, bounded (so a list search is cheap).
#[derive(Default)]
struct Found {
    list: Vec<Danger>,
    omitted: usize,
}

impl Found {
    /// Counts one finding; with `count_max`, a finding already made in another reading of the
    /// same text keeps the larger count instead of adding up.
    fn add(&mut self, kind: &'static str, detail: String, count: usize, count_max: bool) {
        if let Some(d) = self
            .list
            .iter_mut()
            .find(|d| d.kind == kind && d.detail == detail)
        {
            d.count = if count_max {
                d.count.max(count)
            } else {
                d.count + count
            };
        } else if self.list.len() < MAX_REPORTED {
            self.list.push(Danger {
                kind,
                detail,
                count,
            });
        } else {
            self.omitted += count;
        }
    }
}

/// Scans `html` (with `context` appended to every detail) into `out`: once with scripting on,
/// and once more with it off if the text has a `<noscript>`.
fn scan_into(html: &str, context: &str, depth: usize, out: &mut Found) {
    let mut first = Found::default();
    let mut nested = Vec::new();
    let noscript = scan_once(html, context, true, &mut first, &mut nested);
    let mut second = Found::default();
    if noscript {
        scan_once(html, context, false, &mut second, &mut nested);
    }
    for f in [first, second] {
        out.omitted += f.omitted;
        for d in f.list {
            out.add(d.kind, d.detail, d.count, true);
        }
    }
    if depth < MAX_DEPTH {
        // markup in attribute values, once per distinct value and place
        nested.sort();
        nested.dedup();
        for (value, inner) in nested {
            scan_into(&value, &format!("{inner}{context}"), depth + 1, out);
        }
    }
}

/// One reading. Returns whether a `<noscript>` start tag was read.
fn scan_once(
    html: &str,
    context: &str,
    scripting: bool,
    out: &mut Found,
    nested: &mut Vec<(String, String)>,
) -> bool {
    let mut tokens = Tokenizer::new(html, scripting);
    // the text of a foreign (SVG or MathML) <style> being read, and its depth in the tree
    let mut foreign_style: Option<(String, usize)> = None;
    // an HTML <style>'s text is the next token
    let mut sheet_next = false;
    let push = |out: &mut Found, kind: &'static str, what: String| {
        out.add(kind, format!("{what}{context}"), 1, false)
    };
    while let Some(t) = tokens.next() {
        if let Some((css, depth)) = foreign_style.as_mut() {
            if tokens.depth() < *depth {
                check_sheet(css, context, out);
                foreign_style = None;
                tokens.want_text = false;
            } else if let Token::Text { span, cdata } = t {
                let s = &html[span.0..span.1];
                if cdata {
                    css.push_str(s);
                } else {
                    css.push_str(&entities::decode(s, false));
                }
            }
        }
        let tag = match t {
            Token::Start(tag) if tag.dropped => continue,
            Token::Start(tag) => tag,
            Token::Raw { span, .. } if sheet_next => {
                sheet_next = false;
                check_sheet(&html[span.0..span.1], context, out);
                continue;
            }
            _ => continue,
        };
        sheet_next = false;
        // a bare tag with a name that matters to nobody (most tags of a page) costs nothing more
        if !tag.cut && !risky(tag.name) && html.as_bytes().get(tag.attrs_at) == Some(&b'>') {
            continue;
        }
        let mut name = tag.name.to_ascii_lowercase();
        if name == "image" && tag.ns == Ns::Html {
            // the parser makes an <img> of it
            name = "img".into();
        }
        // a cut-off tag is read as if it were closed where the text ends
        let closed;
        let (html, attrs_at) = if tag.cut {
            closed = format!("{}>", &html[tag.attrs_at..]);
            (closed.as_str(), 0)
        } else {
            (html, tag.attrs_at)
        };
        let cut = if tag.cut {
            " (cut off at the end of the text)"
        } else {
            ""
        };
        let attr = |n: &str| first_attr(html, attrs_at, n).map(|v| entities::decode(v, true));
        match name.as_str() {
            "script" => push(out, "script", format!("<script>{cut}")),
            "iframe" | "frame" | "frameset" => push(out, "iframe", format!("<{name}>{cut}")),
            "object" | "applet" => push(out, "object", format!("<{name}>{cut}")),
            "embed" => push(out, "embed", format!("<embed>{cut}")),
            "base" => push(out, "base", format!("<base>{cut}")),
            "meta"
                if attr("http-equiv").is_some_and(|v| {
                    v.trim_matches(|c: char| c.is_ascii_whitespace())
                        .eq_ignore_ascii_case("refresh")
                }) =>
            {
                push(
                    out,
                    "metaRefresh",
                    format!("<meta http-equiv=refresh>{cut}"),
                );
            }
            "link" if attr("href").is_some() => push(out, "link", format!("<link href>{cut}")),
            "style" if tag.ns != Ns::Html && !tag.cut => {
                tokens.want_text = true;
                foreign_style = Some((String::new(), tokens.depth()));
            }
            "style" => sheet_next = !tag.cut,
            _ if SVG_ANIMATIONS.contains(&name.as_str()) => {
                let target = attr("attributename")
                    .unwrap_or_default()
                    .trim_matches(|c: char| c.is_ascii_whitespace())
                    .to_ascii_lowercase();
                if target.starts_with("on") {
                    push(
                        out,
                        "eventHandler",
                        format!("<{name} attributeName={target}>{cut}"),
                    );
                } else if URL_ATTRS.contains(&target.as_str()) {
                    let script = ["to", "from", "values", "by"]
                        .iter()
                        .filter_map(|a| attr(a))
                        .any(|v| v.split(';').any(is_script_url));
                    if script {
                        push(
                            out,
                            "javascriptUrl",
                            format!("<{name} attributeName={target}>{cut}"),
                        );
                    }
                }
            }
            _ => {}
        }
        let mut seen: Vec<&str> = Vec::new();
        for (a, raw) in Attrs::new(html, attrs_at) {
            // the browser keeps the first of two attributes with the same name
            if seen.iter().any(|s| s.eq_ignore_ascii_case(a)) {
                continue;
            }
            if seen.len() < 64 {
                seen.push(a);
            }
            let named = || format!("<{name} {}>{cut}", a.to_ascii_lowercase());
            let is = |n: &str| a.eq_ignore_ascii_case(n);
            if a.as_bytes()
                .get(..2)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"on"))
            {
                push(out, "eventHandler", named());
            } else if is("srcdoc") {
                push(out, "srcdoc", named());
            } else if URL_ATTRS.iter().any(|u| is(u)) && is_script_url(&entities::decode(raw, true))
            {
                push(out, "javascriptUrl", named());
            } else if is("style") && css::fixed_position(&entities::decode(raw, true)) {
                push(
                    out,
                    "fixedOverlay",
                    format!("position: fixed in <{name} style>{cut}"),
                );
            } else if raw.contains('<') || raw.contains('&') {
                let value = entities::decode(raw, true);
                if value.contains('<') {
                    nested.push((
                        value.into_owned(),
                        format!(" inside the {} of <{name}>", a.to_ascii_lowercase()),
                    ));
                }
            }
        }
    }
    if let Some((css, _)) = foreign_style {
        check_sheet(&css, context, out);
    }
    tokens.saw_noscript
}

/// Whether a start tag is looked at for its name alone: the elements reported by name and the
/// ones whose attributes say what they do (`meta`, `link`, `style`, the SVG animations). By
/// length first, then letter by letter without allocating (this runs for every bare tag).
#[inline(always)]
fn risky(name: &str) -> bool {
    let is = |word: &str| name.eq_ignore_ascii_case(word);
    match name.len() {
        3 => is("set"),
        4 => is("meta") || is("base") || is("link"),
        5 => is("frame") || is("embed") || is("style") || is("image"),
        6 => is("script") || is("iframe") || is("object") || is("applet"),
        7 => is("animate"),
        8 => is("frameset"),
        13 => is("animatemotion"),
        16 => is("animatetransform"),
        _ => false,
    }
}

/// Reports what a `<style>`'s text does.
fn check_sheet(text: &str, context: &str, out: &mut Found) {
    let sheet = css::sheet(text);
    if sheet.import {
        out.add(
            "cssImport",
            format!("@import in <style>{context}"),
            1,
            false,
        );
    }
    if sheet.fixed {
        out.add(
            "fixedOverlay",
            format!("position: fixed in <style>{context}"),
            1,
            false,
        );
    }
}

#[cfg(test)]
mod tests;
