//! The HTML tokenizer of the WHATWG standard (§13.2.5), with as much of tree construction
//! (§13.2.6) as decides how the tokenizer goes on: which elements are open and in which
//! namespace. A browser reads `<style><!--</style><img onerror=…>` as a style sheet and then an
//! image, but `<svg><style><!--</style><img onerror=…>` as an SVG style holding a comment; the
//! difference is the tree, so the tokenizer keeps one.
//!
//! What is followed exactly: the data, RCDATA, RAWTEXT, script data (with its escaped and
//! double-escaped states) and PLAINTEXT states; tags and attributes (names end at white space,
//! `/`, `>` and `=`; the first of two equal attribute names wins; a tag cut off by the end of the
//! text is dropped); comments (`<!-->`, `<!--->`, `--!>`), bogus comments (`<?`, `</1`, `<!x`),
//! DOCTYPEs and CDATA sections (only in foreign content; elsewhere a bogus comment); which start
//! tags switch the tokenizer (`title`, `textarea`, `style`, `xmp`, `iframe`, `noembed`,
//! `noframes`, `noscript` when scripting is on, `script`, `plaintext`) and that they do so only
//! in HTML content; SVG and MathML content, its integration points (`foreignObject`, `desc`,
//! `title`, `mi`…`mtext`, `annotation-xml` with an HTML `encoding`) and the tags that break out
//! of it (`<p>`, `<img>`, `<font color>`, `</p>`, `</br>`, …); and which end tags close which
//! elements (scopes, special elements). What is simplified: the insertion modes of tables and
//! `select` and the adoption agency algorithm, which move elements about but change neither the
//! namespace of what follows nor the tokenizer's state. The browser test
//! `test/browser/html-differential.test.mjs` holds this reading to Chromium's.
//!
//! Everything is linear in the length of the text: every search moves forward, and the open
//! elements are indexed by name, so an end tag never walks the whole stack.

use std::borrow::Cow;
use std::collections::HashMap;

/// The namespace an element is created in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ns {
    Html,
    Svg,
    MathMl,
}

/// A start tag.
#[derive(Debug, Clone, Copy)]
pub struct Start<'a> {
    /// As written.
    pub name: &'a str,
    /// The namespace of the element it makes (or would make).
    pub ns: Ns,
    /// Where its attributes start.
    pub attrs_at: usize,
    /// Byte range in the text.
    pub span: (usize, usize),
    /// Cut off by the end of the text: the browser drops it, but the text may be put before
    /// other markup, which would complete it.
    pub cut: bool,
    /// Ignored by tree construction: a `<form>` inside a form makes no element.
    pub dropped: bool,
}

/// What the tokenizer hands out.
#[derive(Debug, Clone, Copy)]
pub enum Token<'a> {
    Start(Start<'a>),
    /// An end tag (`name` as written); cut-off ones are not handed out.
    End {
        name: &'a str,
        span: (usize, usize),
    },
    /// The content of a RAWTEXT, RCDATA, script or PLAINTEXT element (`decode`: whether
    /// character references count in it, as in RCDATA).
    Raw {
        span: (usize, usize),
        decode: bool,
    },
    /// Text (only with [`Tokenizer::want_text`]): `cdata` text has no character references.
    Text {
        span: (usize, usize),
        cdata: bool,
    },
}

/// How a start tag's content is tokenized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    Data,
    RcData,
    RawText,
    Script,
    PlainText,
}

/// Tokenizer white space (`\r` is a line feed after the input stream's normalisation).
#[inline(always)]
pub fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// One step of reading a tag's attributes.
pub enum Step<'a> {
    /// An attribute `(name, value)` as written, and where reading goes on.
    Attr(&'a str, &'a str, usize),
    /// The tag ends just before `.0` (after its `>`); `.1`: it is self-closing (`/>`).
    End(usize, bool),
    /// The text ends inside the tag.
    Cut,
}

/// Reads the next attribute from `j`, following the attribute states (§13.2.5.32–42).
pub fn step(html: &str, mut j: usize) -> Step<'_> {
    let b = html.as_bytes();
    // before attribute name (and self-closing start tag)
    loop {
        match b.get(j) {
            None => return Step::Cut,
            Some(&c) if is_space(c) => j += 1,
            Some(b'/') => match b.get(j + 1) {
                Some(b'>') => return Step::End(j + 2, true),
                None => return Step::Cut,
                _ => j += 1,
            },
            Some(b'>') => return Step::End(j + 1, false),
            _ => break,
        }
    }
    // attribute name: the first character may be `=` (ASCII, so `j + 1` is a boundary or the
    // scan below moves on to one: every stop is ASCII)
    let start = j;
    j += 1;
    while let Some(&c) = b.get(j) {
        if is_space(c) || matches!(c, b'/' | b'>' | b'=') {
            break;
        }
        j += 1;
    }
    let name = html.get(start..j).unwrap_or_default();
    // after attribute name
    while b.get(j).is_some_and(|&c| is_space(c)) {
        j += 1;
    }
    if b.get(j) != Some(&b'=') {
        return match b.get(j) {
            None => Step::Cut,
            _ => Step::Attr(name, "", j),
        };
    }
    j += 1;
    // before attribute value
    while b.get(j).is_some_and(|&c| is_space(c)) {
        j += 1;
    }
    match b.get(j) {
        None => Step::Cut,
        Some(&q @ (b'"' | b'\'')) => match memchr(q, b, j + 1) {
            Some(close) => Step::Attr(name, html.get(j + 1..close).unwrap_or_default(), close + 1),
            None => Step::Cut,
        },
        Some(b'>') => Step::Attr(name, "", j),
        Some(_) => {
            let v = j;
            while let Some(&c) = b.get(j) {
                if is_space(c) || c == b'>' {
                    break;
                }
                j += 1;
            }
            if j >= b.len() {
                return Step::Cut;
            }
            Step::Attr(name, html.get(v..j).unwrap_or_default(), j)
        }
    }
}

/// The attributes of a tag, from where they start: `(name, value)` as written, every one (the
/// browser keeps the first of two with the same name).
pub struct Attrs<'a> {
    html: &'a str,
    at: usize,
}

impl<'a> Attrs<'a> {
    pub fn new(html: &'a str, at: usize) -> Self {
        Attrs { html, at }
    }
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        match step(self.html, self.at) {
            Step::Attr(name, value, next) => {
                self.at = next;
                Some((name, value))
            }
            Step::End(..) | Step::Cut => None,
        }
    }
}

/// Where a tag whose name ends at `j` ends (after its `>`) and whether it is self-closing, or
/// `None` when the text ends first.
fn tag_end(html: &str, mut j: usize) -> Option<(usize, bool)> {
    loop {
        match step(html, j) {
            Step::Attr(_, _, next) => j = next,
            Step::End(end, self_closing) => return Some((end, self_closing)),
            Step::Cut => return None,
        }
    }
}

/// The first `c` at or after `i`.
#[inline(always)]
pub fn memchr(c: u8, b: &[u8], i: usize) -> Option<usize> {
    Some(i + b.get(i..)?.iter().position(|&x| x == c)?)
}

/// The first `<` at or after `i`, eight bytes a step (most of a page is text between tags).
#[inline(always)]
pub fn find_lt(b: &[u8], mut i: usize) -> Option<usize> {
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
    memchr(b'<', b, i)
}

/// The end of a tag name that starts at `j`: white space, `/` or `>` (or the end of the text).
#[inline(always)]
fn name_end(b: &[u8], mut j: usize) -> usize {
    while let Some(&c) = b.get(j) {
        if is_space(c) || c == b'/' || c == b'>' {
            break;
        }
        j += 1;
    }
    j
}

/// Whether `b[i..]` is `</name` followed by white space, `/` or `>`: an end tag that ends a
/// RAWTEXT, RCDATA or script element called `name` (§13.2.5.11–13).
#[inline(always)]
fn is_end_tag(b: &[u8], i: usize, name: &str) -> bool {
    let n = name.len();
    b.get(i + 1) == Some(&b'/')
        && b.get(i + 2..i + 2 + n)
            .is_some_and(|w| w.eq_ignore_ascii_case(name.as_bytes()))
        && b.get(i + 2 + n)
            .is_some_and(|&c| is_space(c) || c == b'/' || c == b'>')
}

/// Where a comment whose `<!--` ends at `i` ends (after its `>`): `<!-->` and `<!--->` are
/// whole comments; otherwise the first `-->` or `--!>` (§13.2.5.43–52; a nested `<!--` changes
/// nothing but an error).
fn comment_end(b: &[u8], i: usize) -> usize {
    match (b.get(i), b.get(i + 1)) {
        (Some(b'>'), _) => return i + 1,
        (Some(b'-'), Some(b'>')) => return i + 2,
        _ => {}
    }
    let mut j = i;
    while let Some(d) = memchr(b'-', b, j) {
        if b.get(d + 1) == Some(&b'-') {
            match (b.get(d + 2), b.get(d + 3)) {
                (Some(b'>'), _) => return d + 3,
                (Some(b'!'), Some(b'>')) => return d + 4,
                _ => {}
            }
        }
        j = d + 1;
    }
    b.len()
}

/// Where the content of a `<script>` that starts at `i` ends: the `<` of the end tag that
/// closes it, following the escaped (`<!--`) and double-escaped (`<!--<script>`) states
/// (§13.2.5.4, 15–31).
fn script_end(b: &[u8], mut i: usize) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Data,
        Escaped,
        Dash,
        DashDash,
        Double,
        DoubleDash,
        DoubleDashDash,
    }
    let alpha_run = |from: usize| {
        let mut e = from;
        while b.get(e).is_some_and(u8::is_ascii_alphabetic) {
            e += 1;
        }
        e
    };
    let delimiter = |at: usize| {
        b.get(at)
            .is_some_and(|&c| is_space(c) || c == b'/' || c == b'>')
    };
    let mut s = S::Data;
    loop {
        if s == S::Data {
            i = find_lt(b, i)?;
            if is_end_tag(b, i, "script") {
                return Some(i);
            }
            if b.get(i + 1..i + 4) == Some(b"!--") {
                s = S::DashDash;
                i += 4;
            } else {
                i += 1;
            }
            continue;
        }
        let double = matches!(s, S::Double | S::DoubleDash | S::DoubleDashDash);
        if matches!(s, S::Escaped | S::Double) {
            // nothing but `-` and `<` matters in these states
            i += b.get(i..)?.iter().position(|&c| c == b'-' || c == b'<')?;
        }
        match *b.get(i)? {
            b'-' => {
                i += 1;
                s = match s {
                    S::Escaped => S::Dash,
                    S::Double => S::DoubleDash,
                    S::Dash | S::DashDash => S::DashDash,
                    _ => S::DoubleDashDash,
                };
            }
            b'>' if matches!(s, S::DashDash | S::DoubleDashDash) => {
                i += 1;
                s = S::Data;
            }
            b'<' if !double => {
                // script data escaped less-than sign (§13.2.5.20)
                if is_end_tag(b, i, "script") {
                    return Some(i);
                }
                s = S::Escaped;
                if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
                    let e = alpha_run(i + 1);
                    if delimiter(e) && b[i + 1..e].eq_ignore_ascii_case(b"script") {
                        s = S::Double;
                        i = e + 1;
                    } else {
                        i = e;
                    }
                } else {
                    i += 1;
                }
            }
            b'<' => {
                // script data double escaped less-than sign (§13.2.5.28)
                s = S::Double;
                if b.get(i + 1) == Some(&b'/') {
                    let e = alpha_run(i + 2);
                    if delimiter(e) && b[i + 2..e].eq_ignore_ascii_case(b"script") {
                        s = S::Escaped;
                        i = e + 1;
                    } else {
                        i = e;
                    }
                } else {
                    i += 1;
                }
            }
            _ => {
                i += 1;
                s = if double { S::Double } else { S::Escaped };
            }
        }
    }
}

/// What an element is, as far as tree construction here cares.
mod flag {
    /// Special (§13.2.4.2): an end tag for another element stops at it.
    pub const SPECIAL: u16 = 1;
    /// Bounds "has an element in scope".
    pub const SCOPE: u16 = 1 << 1;
    /// Also bounds button scope (`button`).
    pub const BUTTON: u16 = 1 << 2;
    /// Also bounds list item scope (`ol`, `ul`).
    pub const LIST: u16 = 1 << 3;
    /// An HTML integration point: its content is HTML.
    pub const HTML_POINT: u16 = 1 << 4;
    /// A MathML text integration point (`mi`, `mo`, `mn`, `ms`, `mtext`).
    pub const TEXT_POINT: u16 = 1 << 5;
    /// `h1`–`h6`.
    pub const HEADING: u16 = 1 << 6;
    /// Special but not `address`, `div` or `p` (what stops `<li>`, `<dd>` and `<dt>` from closing
    /// an open one).
    pub const STOPS_ITEMS: u16 = 1 << 7;
}

/// What an HTML element name is to tree construction (bits of [`class`]).
mod class {
    /// Special (§13.2.4.2).
    pub const SPECIAL_HTML: u8 = 1;
    /// Its start tag closes an open `p` first (§13.2.6.4.7).
    pub const CLOSES_P: u8 = 1 << 1;
    /// Its start tag leaves foreign content (§13.2.6.5; `font` only with `color`, `face` or
    /// `size`, checked apart).
    pub const BREAKOUT: u8 = 1 << 2;
    /// Its end tag closes it only when it is in scope; other end tags (but the ones handled on
    /// their own) close the nearest element of their name unless a special element is in the way.
    pub const SCOPED_END: u8 = 1 << 3;
    /// A formatting element (its end tag runs the adoption agency algorithm, simplified here).
    pub const FORMATTING: u8 = 1 << 4;
    /// Void: no end tag, never pushed.
    pub const VOID: u8 = 1 << 5;
}

/// The [`class`] bits of a lowercase HTML element name: one match, compiled to a few
/// comparisons, rather than a search of every list for every tag.
fn class(name: &str) -> u8 {
    match name {
        "address" | "article" | "aside" | "details" | "dir" | "fieldset" | "figcaption"
        | "figure" | "footer" | "header" | "hgroup" | "main" | "nav" | "search" | "section"
        | "summary" => class::SPECIAL_HTML | class::CLOSES_P | class::SCOPED_END,
        "applet" | "button" | "caption" | "colgroup" | "marquee" | "object" | "select"
        | "tbody" | "td" | "template" | "tfoot" | "th" | "thead" | "tr" => {
            class::SPECIAL_HTML | class::SCOPED_END
        }
        "area" | "base" | "basefont" | "bgsound" | "col" | "frame" | "input" | "keygen"
        | "link" | "param" | "source" | "track" | "wbr" => class::SPECIAL_HTML | class::VOID,
        "a" | "font" => class::FORMATTING,
        "b" | "big" | "code" | "em" | "i" | "nobr" | "s" | "small" | "strike" | "strong" | "tt"
        | "u" => class::BREAKOUT | class::FORMATTING,
        "blockquote" | "center" | "div" | "dl" | "listing" | "menu" | "ol" | "pre" | "table"
        | "ul" => class::SPECIAL_HTML | class::CLOSES_P | class::BREAKOUT | class::SCOPED_END,
        "body" | "head" | "li" => class::SPECIAL_HTML | class::BREAKOUT,
        "br" | "embed" | "img" | "meta" => class::SPECIAL_HTML | class::VOID | class::BREAKOUT,
        "dd" | "dt" => class::SPECIAL_HTML | class::BREAKOUT | class::SCOPED_END,
        "dialog" => class::CLOSES_P | class::SCOPED_END,
        "form" | "xmp" => class::SPECIAL_HTML | class::CLOSES_P,
        "frameset" | "html" | "iframe" | "noembed" | "noframes" | "noscript" | "plaintext"
        | "script" | "style" | "textarea" | "title" => class::SPECIAL_HTML,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "p" => {
            class::SPECIAL_HTML | class::CLOSES_P | class::BREAKOUT
        }
        "hr" => class::SPECIAL_HTML | class::VOID | class::BREAKOUT | class::CLOSES_P,
        "image" => class::VOID,
        "optgroup" | "option" | "rtc" => class::SCOPED_END,
        "ruby" => class::BREAKOUT | class::SCOPED_END,
        "span" | "sub" | "sup" | "var" => class::BREAKOUT,
        _ => 0,
    }
}

fn lower(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|c| c.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

fn flags(name: &str, ns: Ns, encoding_html: bool) -> u16 {
    use flag::*;
    match ns {
        Ns::Html => {
            let mut f = 0;
            if class(name) & class::SPECIAL_HTML != 0 {
                f |= SPECIAL;
                if !matches!(name, "address" | "div" | "p") {
                    f |= STOPS_ITEMS;
                }
            }
            if matches!(
                name,
                "applet"
                    | "caption"
                    | "html"
                    | "table"
                    | "td"
                    | "th"
                    | "marquee"
                    | "object"
                    | "template"
            ) {
                f |= SCOPE;
            }
            if name == "button" {
                f |= BUTTON;
            }
            if matches!(name, "ol" | "ul") {
                f |= LIST;
            }
            if matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
                f |= HEADING;
            }
            f
        }
        Ns::MathMl => match name {
            "mi" | "mo" | "mn" | "ms" | "mtext" => SPECIAL | STOPS_ITEMS | SCOPE | TEXT_POINT,
            "annotation-xml" if encoding_html => SPECIAL | STOPS_ITEMS | SCOPE | HTML_POINT,
            "annotation-xml" => SPECIAL | STOPS_ITEMS | SCOPE,
            _ => 0,
        },
        Ns::Svg => match name {
            "foreignobject" | "desc" | "title" => SPECIAL | STOPS_ITEMS | SCOPE | HTML_POINT,
            _ => 0,
        },
    }
}

/// An open element (8 bytes: a page of millions of tags keeps a compact stack).
#[derive(Clone, Copy)]
struct Open {
    /// Index into [`Stack::names`].
    name: u32,
    ns: Ns,
    flags: u16,
    /// Taken off the stack out of order (the adoption agency algorithm); skipped.
    gone: bool,
}

/// The stack of open elements, indexed so that every question an end tag asks is answered
/// without walking it.
#[derive(Default)]
struct Stack<'a> {
    open: Vec<Open>,
    /// Every (lowercase) element name seen, and its index.
    names: Vec<Cow<'a, str>>,
    /// (The same map type as the log replay's ids, so the wasm holds one copy of its code.)
    ids: HashMap<Cow<'a, str>, usize>,
    /// Positions of the open elements of each name (by index), innermost last.
    by_name: Vec<Vec<u32>>,
    /// Positions of the open elements with each flag, innermost last, for the flags asked about.
    special: Vec<u32>,
    stops_items: Vec<u32>,
    scope: Vec<u32>,
    button: Vec<u32>,
    list: Vec<u32>,
    heading: Vec<u32>,
    html: Vec<u32>,
}

impl<'a> Stack<'a> {
    fn id(&mut self, name: Cow<'a, str>) -> u32 {
        if let Some(&id) = self.ids.get(name.as_ref()) {
            return id as u32;
        }
        let id = self.names.len() as u32;
        self.names.push(name.clone());
        self.ids.insert(name, id as usize);
        self.by_name.push(Vec::new());
        id
    }

    fn name(&self, e: &Open) -> &str {
        self.names.get(e.name as usize).map_or("", |n| n.as_ref())
    }

    fn push(&mut self, name: Cow<'a, str>, ns: Ns, flags: u16) {
        let id = self.id(name);
        let at = self.open.len() as u32;
        self.by_name[id as usize].push(at);
        for (f, list) in [
            (flag::SPECIAL, &mut self.special),
            (flag::STOPS_ITEMS, &mut self.stops_items),
            (flag::SCOPE, &mut self.scope),
            (flag::BUTTON, &mut self.button),
            (flag::LIST, &mut self.list),
            (flag::HEADING, &mut self.heading),
        ] {
            if flags & f != 0 {
                list.push(at);
            }
        }
        if ns == Ns::Html {
            self.html.push(at);
        }
        self.open.push(Open {
            name: id,
            ns,
            flags,
            gone: false,
        });
    }

    /// Drops the top element's entries in the flag lists.
    fn unlist(&mut self, at: u32) {
        for list in [
            &mut self.special,
            &mut self.stops_items,
            &mut self.scope,
            &mut self.button,
            &mut self.list,
            &mut self.heading,
            &mut self.html,
        ] {
            if list.last() == Some(&at) {
                list.pop();
            }
        }
    }

    /// Pops elements until the stack holds `len` of them.
    fn truncate(&mut self, len: usize) {
        while self.open.len() > len {
            let Some(e) = self.open.pop() else { break };
            let at = self.open.len() as u32;
            if !e.gone {
                if let Some(list) = self.by_name.get_mut(e.name as usize) {
                    list.pop();
                }
            }
            self.unlist(at);
        }
    }

    /// The innermost open element (elements taken out on top are popped at once, so it is
    /// live).
    fn current(&self) -> Option<&Open> {
        self.open.last()
    }

    /// Whether the current node is called `name`.
    fn current_is(&self, name: &str) -> bool {
        self.current().is_some_and(|e| self.name(e) == name)
    }

    /// The innermost open element called `name` (lowercase), if any.
    fn nearest(&self, name: &str) -> Option<usize> {
        let id = *self.ids.get(name)?;
        self.by_name[id].last().map(|&p| p as usize)
    }

    /// Whether `list` holds a position above `at` (an element between `at` and the current
    /// node).
    fn above(list: &[u32], at: usize) -> bool {
        list.last().is_some_and(|&l| l as usize > at)
    }

    /// The innermost `name` if it is in scope (nothing in the scope list or `extra` above it).
    fn in_scope(&self, name: &str, extra: &[u32]) -> Option<usize> {
        let at = self.nearest(name)?;
        (!Self::above(&self.scope, at) && !Self::above(extra, at)).then_some(at)
    }

    /// The innermost HTML element, if any.
    fn innermost_html(&mut self) -> Option<usize> {
        while let Some(&at) = self.html.last() {
            if self.open.get(at as usize).is_some_and(|e| !e.gone) {
                return Some(at as usize);
            }
            self.html.pop();
        }
        None
    }

    /// Takes `at` out of the stack without popping what is above it.
    fn remove(&mut self, at: usize) {
        let Some(e) = self.open.get_mut(at) else {
            return;
        };
        if e.gone {
            return;
        }
        e.gone = true;
        let id = e.name as usize;
        if let Some(list) = self.by_name.get_mut(id) {
            if let Some(pos) = list.iter().rposition(|&p| p as usize == at) {
                list.remove(pos);
            }
        }
        // gone elements on top are popped now, so the current node is always live
        while self.open.last().is_some_and(|e| e.gone) {
            self.open.pop();
            let len = self.open.len() as u32;
            self.unlist(len);
        }
    }
}

/// The tokenizer, with its tree.
pub struct Tokenizer<'a> {
    html: &'a str,
    pos: usize,
    /// Whether scripting is on (then `<noscript>` is RAWTEXT).
    scripting: bool,
    /// Hand out [`Token::Text`] too.
    pub want_text: bool,
    /// Whether a `<noscript>` start tag was read in HTML content (its reading depends on
    /// scripting).
    pub saw_noscript: bool,
    stack: Stack<'a>,
    /// The content that follows the start tag just handed out, and the element's name.
    content: Option<(Content, &'a str)>,
    /// An end tag to hand out next (after a RAWTEXT element's content).
    queued: Option<Token<'a>>,
    /// The form element pointer is set: a `<form>` is open (outside templates).
    form: bool,
    /// The text has no `<svg` or `<math`, so everything is HTML content and no tree is needed:
    /// only open templates are counted (for the form pointer). Most journal pages.
    flat: bool,
    /// Open `<template>`s, in flat mode.
    templates: usize,
}

/// Whether `<svg` or `<math` (any case) appears anywhere: only they start foreign content, so
/// without them the tree decides nothing about tokenizing (a comment or raw text holding one
/// only costs the tree).
fn has_foreign(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(lt) = find_lt(b, i) {
        let after = |n: usize| b.get(lt + 1..lt + 1 + n);
        if after(3).is_some_and(|w| w.eq_ignore_ascii_case(b"svg"))
            || after(4).is_some_and(|w| w.eq_ignore_ascii_case(b"math"))
        {
            return true;
        }
        i = lt + 1;
    }
    false
}

impl<'a> Tokenizer<'a> {
    pub fn new(html: &'a str, scripting: bool) -> Self {
        Tokenizer {
            html,
            pos: 0,
            scripting,
            want_text: false,
            saw_noscript: false,
            stack: Stack::default(),
            content: None,
            queued: None,
            form: false,
            flat: !has_foreign(html.as_bytes()),
            templates: 0,
        }
    }

    /// How many elements are open.
    pub fn depth(&self) -> usize {
        self.stack.open.len()
    }

    /// Whether the adjusted current node is foreign (a fragment's context is an HTML `div`).
    fn in_foreign(&self) -> bool {
        self.stack.current().is_some_and(|e| e.ns != Ns::Html)
    }

    /// Whether a start tag called `name` is handled as HTML (the tree construction
    /// dispatcher, §13.2.6).
    fn start_as_html(&self, name: &str) -> bool {
        let Some(e) = self.stack.current() else {
            return true;
        };
        e.ns == Ns::Html
            || (e.flags & flag::TEXT_POINT != 0 && !matches!(name, "mglyph" | "malignmark"))
            || (e.ns == Ns::MathMl && self.stack.name(e) == "annotation-xml" && name == "svg")
            || e.flags & flag::HTML_POINT != 0
    }

    /// Pops to (and including) `at`.
    fn pop_to(&mut self, at: usize) {
        self.stack.truncate(at);
    }

    /// Closes an open `p` in button scope.
    fn close_p(&mut self) {
        if let Some(at) = self.stack.in_scope("p", &self.stack.button) {
            self.pop_to(at);
        }
    }

    /// Tree construction for a start tag: the namespace, the content that follows it, and
    /// whether the tag was dropped.
    fn start_tag(
        &mut self,
        name: &'a str,
        attrs_at: usize,
        self_closing: bool,
    ) -> (Ns, Content, bool) {
        let lname = lower(name);
        if self.flat {
            if lname == "form" {
                if self.form && self.templates == 0 {
                    return (Ns::Html, Content::Data, true);
                }
                self.form |= self.templates == 0;
            }
            if lname == "template" {
                self.templates += 1;
            }
            return (Ns::Html, self.content_for(&lname), false);
        }
        loop {
            if self.start_as_html(&lname) {
                if lname == "form" {
                    let in_template = self.stack.nearest("template").is_some();
                    if self.form && !in_template {
                        return (Ns::Html, Content::Data, true);
                    }
                    self.form |= !in_template;
                }
                let (ns, content) = self.html_start(lname, self_closing);
                return (ns, content, false);
            }
            // foreign content (§13.2.6.5)
            let breakout = class(&lname) & class::BREAKOUT != 0
                || (lname == "font"
                    && Attrs::new(self.html, attrs_at).any(|(a, _)| {
                        ["color", "face", "size"]
                            .iter()
                            .any(|w| a.eq_ignore_ascii_case(w))
                    }));
            if breakout {
                self.leave_foreign();
                continue;
            }
            let ns = self.stack.current().map_or(Ns::Html, |e| e.ns);
            if !self_closing {
                let html_encoding = ns == Ns::MathMl
                    && lname == "annotation-xml"
                    && first_attr(self.html, attrs_at, "encoding").is_some_and(|v| {
                        let v = super::entities::decode(v, true);
                        v.eq_ignore_ascii_case("text/html")
                            || v.eq_ignore_ascii_case("application/xhtml+xml")
                    });
                let f = flags(&lname, ns, html_encoding);
                self.stack.push(lname, ns, f);
            }
            return (ns, Content::Data, false);
        }
    }

    /// Pops until the current node is HTML or an integration point.
    fn leave_foreign(&mut self) {
        while let Some(e) = self.stack.current() {
            if e.ns == Ns::Html || e.flags & (flag::HTML_POINT | flag::TEXT_POINT) != 0 {
                break;
            }
            let len = self.stack.open.len() - 1;
            self.stack.truncate(len);
        }
    }

    /// A start tag in HTML content ("in body", §13.2.6.4.7).
    fn html_start(&mut self, lname: Cow<'a, str>, self_closing: bool) -> (Ns, Content) {
        let name = lname.as_ref();
        match name {
            "svg" | "math" => {
                let ns = if name == "svg" { Ns::Svg } else { Ns::MathMl };
                if !self_closing {
                    self.stack.push(lname, ns, 0);
                }
                return (ns, Content::Data);
            }
            // dropped in a fragment
            "html" | "body" | "head" | "frameset" | "frame" => return (Ns::Html, Content::Data),
            _ => {}
        }
        let c = class(name);
        if c & class::CLOSES_P != 0 || name == "plaintext" {
            self.close_p();
        }
        match name {
            "li" | "dd" | "dt" => {
                let closes: &[&str] = if name == "li" { &["li"] } else { &["dd", "dt"] };
                for n in closes {
                    if let Some(at) = self.stack.nearest(n) {
                        if !Stack::above(&self.stack.stops_items, at) {
                            self.pop_to(at);
                        }
                    }
                }
                self.close_p();
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
                if self
                    .stack
                    .current()
                    .is_some_and(|e| e.flags & flag::HEADING != 0) =>
            {
                let len = self.stack.open.len() - 1;
                self.stack.truncate(len);
            }
            "button" => {
                if let Some(at) = self.stack.in_scope("button", &[]) {
                    self.pop_to(at);
                }
            }
            "option" | "optgroup" if self.stack.current_is("option") => {
                let len = self.stack.open.len() - 1;
                self.stack.truncate(len);
            }
            "select" | "input" => {
                // a select does not hold another select or an input: it closes
                if let Some(at) = self.stack.in_scope("select", &[]) {
                    self.pop_to(at);
                    if name == "select" {
                        return (Ns::Html, Content::Data);
                    }
                }
            }
            _ => {}
        }
        let content = self.content_for(name);
        if c & class::VOID == 0 {
            let f = flags(name, Ns::Html, false);
            self.stack.push(lname, Ns::Html, f);
        }
        (Ns::Html, content)
    }

    /// How the content of an HTML element called `name` (lowercase) is tokenized.
    fn content_for(&mut self, name: &str) -> Content {
        match name {
            "title" | "textarea" => Content::RcData,
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => Content::RawText,
            "noscript" => {
                self.saw_noscript = true;
                if self.scripting {
                    Content::RawText
                } else {
                    Content::Data
                }
            }
            "script" => Content::Script,
            "plaintext" => Content::PlainText,
            _ => Content::Data,
        }
    }

    /// Tree construction for an end tag.
    fn end_tag(&mut self, name: &'a str) {
        if self.flat {
            if name.eq_ignore_ascii_case("template") && self.templates > 0 {
                self.templates -= 1;
            }
            if name.eq_ignore_ascii_case("form") && self.templates == 0 {
                self.form = false;
            }
            return;
        }
        let lname = lower(name);
        let name = lname.as_ref();
        if self.in_foreign() {
            if matches!(name, "p" | "br") {
                self.leave_foreign();
            } else {
                // the innermost foreign element of that name above every HTML element closes
                let html = self.stack.innermost_html();
                if let Some(at) = self.stack.nearest(name) {
                    if html.is_none_or(|h| at > h) {
                        self.pop_to(at);
                        return;
                    }
                }
            }
        }
        self.html_end(name);
    }

    /// An end tag in HTML content ("in body", §13.2.6.4.7).
    fn html_end(&mut self, name: &str) {
        let at = match name {
            "p" => self.stack.in_scope("p", &self.stack.button),
            "li" => self.stack.in_scope("li", &self.stack.list),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let at = self.stack.heading.last().map(|&p| p as usize);
                at.filter(|&at| !Stack::above(&self.stack.scope, at))
            }
            "body" | "html" | "br" => None,
            "form" => {
                // the form element pointer's form leaves the stack on its own
                let in_template = self.stack.nearest("template").is_some();
                if !in_template {
                    self.form = false;
                }
                if let Some(at) = self.stack.in_scope("form", &[]) {
                    if in_template {
                        Some(at)
                    } else {
                        self.stack.remove(at);
                        None
                    }
                } else {
                    None
                }
            }
            _ if class(name) & class::FORMATTING != 0 => {
                if let Some(at) = self.stack.in_scope(name, &[]) {
                    if Stack::above(&self.stack.special, at) {
                        // a block inside the formatting element: it is taken out, the rest stays
                        self.stack.remove(at);
                        return;
                    }
                    Some(at)
                } else {
                    None
                }
            }
            _ if class(name) & class::SCOPED_END != 0 => self.stack.in_scope(name, &[]),
            _ => {
                // any other end tag: the innermost HTML element of that name, unless a special
                // element is in the way
                self.stack
                    .nearest(name)
                    .filter(|&at| self.stack.open[at].ns == Ns::Html)
                    .filter(|&at| !Stack::above(&self.stack.special, at))
            }
        };
        if let Some(at) = at {
            self.pop_to(at);
        }
    }

    /// Reads the content of the element whose start tag was just handed out.
    fn content(&mut self, content: Content, name: &'a str) -> Option<Token<'a>> {
        let b = self.html.as_bytes();
        let start = self.pos;
        let end = match content {
            Content::Data => return None,
            Content::PlainText => None,
            Content::Script => script_end(b, start),
            Content::RcData | Content::RawText => {
                let mut i = start;
                loop {
                    match find_lt(b, i) {
                        Some(lt) if is_end_tag(b, lt, name) => break Some(lt),
                        Some(lt) => i = lt + 1,
                        None => break None,
                    }
                }
            }
        };
        let text_end = end.unwrap_or(b.len());
        self.pos = text_end;
        if let Some(lt) = end {
            // the end tag, attributes and all
            let j = lt + 2 + name.len();
            match tag_end(self.html, j) {
                Some((close, _)) => {
                    self.end_tag(name);
                    self.queued = Some(Token::End {
                        name: self.html.get(lt + 2..j).unwrap_or(name),
                        span: (lt, close),
                    });
                    self.pos = close;
                }
                None => self.pos = b.len(),
            }
        }
        Some(Token::Raw {
            span: (start, text_end),
            decode: content == Content::RcData,
        })
    }
}

/// The value of the first attribute called `name` (ASCII case-insensitive), as written.
pub fn first_attr<'a>(html: &'a str, at: usize, name: &str) -> Option<&'a str> {
    Attrs::new(html, at)
        .find(|(a, _)| a.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if let Some(t) = self.queued.take() {
            return Some(t);
        }
        if let Some((content, name)) = self.content.take() {
            if let Some(t) = self.content(content, name) {
                return Some(t);
            }
        }
        let html = self.html;
        let b = html.as_bytes();
        loop {
            let from = self.pos;
            if from >= b.len() {
                return None;
            }
            let Some(lt) = find_lt(b, from) else {
                self.pos = b.len();
                return self.text(from, b.len(), false);
            };
            if lt > from && self.want_text {
                self.pos = lt;
                return self.text(from, lt, false);
            }
            let next = b.get(lt + 1).copied();
            match next {
                Some(b'!') => {
                    let rest = &b[lt + 2..];
                    if rest.starts_with(b"--") {
                        self.pos = comment_end(b, lt + 4);
                    } else if rest.starts_with(b"[CDATA[") && self.in_foreign() {
                        let body = lt + 9;
                        let end = html[body..].find("]]>").map_or(b.len(), |e| body + e);
                        self.pos = (end + 3).min(b.len());
                        if self.want_text {
                            return Some(Token::Text {
                                span: (body, end),
                                cdata: true,
                            });
                        }
                    } else {
                        // DOCTYPE, a bogus comment, or CDATA outside foreign content: up to `>`
                        self.pos = memchr(b'>', b, lt + 2).map_or(b.len(), |e| e + 1);
                    }
                }
                Some(b'?') => self.pos = memchr(b'>', b, lt + 2).map_or(b.len(), |e| e + 1),
                Some(b'/') => match b.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let j = name_end(b, lt + 2);
                        let name = &html[lt + 2..j];
                        match tag_end(html, j) {
                            Some((close, _)) => {
                                self.pos = close;
                                self.end_tag(name);
                                return Some(Token::End {
                                    name,
                                    span: (lt, close),
                                });
                            }
                            None => {
                                self.pos = b.len();
                                return None;
                            }
                        }
                    }
                    Some(b'>') => self.pos = lt + 3,
                    // `</` at the end is text
                    None => {
                        self.pos = b.len();
                        return self.text(lt, b.len(), false);
                    }
                    Some(_) => self.pos = memchr(b'>', b, lt + 2).map_or(b.len(), |e| e + 1),
                },
                Some(c) if c.is_ascii_alphabetic() => {
                    let j = name_end(b, lt + 1);
                    let name = &html[lt + 1..j];
                    let (close, self_closing, cut) = match tag_end(html, j) {
                        Some((close, self_closing)) => (close, self_closing, false),
                        None => (b.len(), false, true),
                    };
                    self.pos = close;
                    if cut {
                        // dropped by the browser; handed out as such, with no effect on the tree
                        let ns = if self.in_foreign() && class(&lower(name)) & class::BREAKOUT == 0
                        {
                            self.stack.current().map_or(Ns::Html, |e| e.ns)
                        } else {
                            Ns::Html
                        };
                        return Some(Token::Start(Start {
                            name,
                            ns,
                            attrs_at: j,
                            span: (lt, close),
                            cut,
                            dropped: false,
                        }));
                    }
                    let (ns, content, dropped) = self.start_tag(name, j, self_closing);
                    if ns == Ns::Html && content != Content::Data {
                        self.content = Some((content, name));
                    }
                    return Some(Token::Start(Start {
                        name,
                        ns,
                        attrs_at: j,
                        span: (lt, close),
                        cut,
                        dropped,
                    }));
                }
                _ => {
                    // a `<` that starts nothing is text
                    self.pos = lt + 1;
                    if self.want_text {
                        return self.text(lt, lt + 1, false);
                    }
                }
            }
        }
    }
}

impl<'a> Tokenizer<'a> {
    fn text(&self, from: usize, to: usize, cdata: bool) -> Option<Token<'a>> {
        if self.want_text && to > from {
            Some(Token::Text {
                span: (from, to),
                cdata,
            })
        } else {
            None
        }
    }
}
