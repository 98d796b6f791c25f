//! Glossary terms from the rules reference's pages, for the enrichers' tooltips and the status
//! effects' descriptions.
//!
//! The seed's "Basic Combat Concepts & Glossary" and "Positive Effects/Statuses/Blights/States"
//! pages define one term per paragraph, opening with the term in bold and a colon, the colon
//! inside or outside the bold (`<p><strong>Dodge</strong>: Dodge makes you ...</p>`,
//! `<p><strong>Evasion: </strong>Roll a d6 ...</p>`), sometimes split over several bold runs
//! (`<strong>Rescue </strong><span><strong>(1 action):</strong> ...</span>`) and once with a
//! spaced dash (`<strong>Triggered effect</strong> - An effect ...`). So a definition is a
//! paragraph or list item whose text opens with a bold run followed by a colon, or by a dash
//! outside the bold. (A bold label that ends in its own dash, `<strong>Risky - </strong>`, is how
//! the narrative pages list risk and effect levels, whose names are ordinary words; those are
//! not glossary terms.)
//!
//! A definition goes on over the paragraphs and lists that follow it, until the next term, a
//! heading, a horizontal rule or the end of the list item it sits in ("Vigilance X" and
//! "Incapacitated" have a second paragraph). A paragraph that is bold all through is a heading:
//! the statuses page groups its terms under "POSITIVE EFFECTS & TRAITS", "STATUSES" and
//! "SPECIAL STATES", and each term carries the heading it sits under as its `section`.
//! Footnote markers (`<sup>1</sup>`) are not part of the text.

use super::html::{decode_entities, tags, text, Tag};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// One glossary entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Term {
    /// As written ("Hatred of X", "Recover (2 actions)").
    pub term: String,
    /// The term for matching: lowercase, without a placeholder or an action cost ("Hatred of X"
    /// → "hatred", "Armor X" → "armor", "Recover (2 actions)" → "recover").
    pub key: String,
    /// Plain text; paragraphs are separated by a newline.
    pub definition: String,
    /// The name of the page it came from.
    pub page: String,
    /// The heading the term sits under on its page ("STATUSES"), if any.
    pub section: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Paragraph,
    Heading,
    Rule,
}

/// A paragraph, list item, heading or rule.
#[derive(Debug)]
struct Block {
    kind: Kind,
    /// Byte range of the content.
    inner: (usize, usize),
    /// Index range of the tags inside.
    tags: (usize, usize),
    /// The tag (by index) that opened it (for a rule, the `<hr>`).
    opened: usize,
    /// The tag (by index) of the innermost element it sits in.
    parent: Option<usize>,
}

/// The blocks of a page, in order, and for every tag the index of the tag at which its element
/// was closed (`usize::MAX` if never), so "does element `h` hold block `b`" is one comparison.
struct Blocks {
    list: Vec<Block>,
    closed_at: Vec<usize>,
}

impl Blocks {
    /// Whether the element opened by tag `h` was open when `block` opened.
    fn holds(&self, h: usize, block: &Block) -> bool {
        h < block.opened && self.closed_at.get(h).is_some_and(|&c| c > block.opened)
    }
}

const BLOCKS: [&str; 10] = ["p", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6"];
const VOID: [&str; 13] = [
    "area", "base", "br", "col", "embed", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The open elements while reading the blocks: tag indices, with each name's positions
/// indexed, so no end tag walks the whole stack.
struct Stack<'t> {
    tags: Vec<usize>,
    /// Name → index into `by_name` (the log replay's map type: one copy of its code in wasm).
    ids: HashMap<Cow<'t, str>, usize>,
    by_name: Vec<Vec<usize>>,
    /// Stack position of each open tag (`usize::MAX` when not open).
    position: Vec<usize>,
    closed_at: Vec<usize>,
}

impl<'t> Stack<'t> {
    fn push(&mut self, tag: usize, name: &'t str) {
        self.position[tag] = self.tags.len();
        let id = match self.ids.get(name) {
            Some(&id) => id,
            None => {
                self.ids.insert(Cow::Borrowed(name), self.by_name.len());
                self.by_name.push(Vec::new());
                self.by_name.len() - 1
            }
        };
        self.by_name[id].push(self.tags.len());
        self.tags.push(tag);
    }

    /// The stack position of the innermost open element called `name`.
    fn nearest(&self, name: &str) -> Option<usize> {
        let id = *self.ids.get(name)?;
        self.by_name.get(id)?.last().copied()
    }

    /// Pops to (and including) stack position `pos`, noting that the popped elements closed
    /// at tag `now`.
    fn truncate(&mut self, pos: usize, now: usize, all: &'t [Tag]) {
        while self.tags.len() > pos {
            let Some(j) = self.tags.pop() else { break };
            self.closed_at[j] = now;
            self.position[j] = usize::MAX;
            if let Some(&id) = self.ids.get(all[j].name.as_str()) {
                self.by_name[id].pop();
            }
        }
    }
}

/// The blocks of a page, in order.
fn blocks(html: &str, all: &[Tag]) -> Blocks {
    struct Open {
        tag: usize,
        start: usize,
        parent: Option<usize>,
    }
    let mut out = Vec::new();
    let mut stack = Stack {
        tags: Vec::new(),
        ids: HashMap::new(),
        by_name: Vec::new(),
        position: vec![usize::MAX; all.len()],
        closed_at: vec![usize::MAX; all.len()],
    };
    let mut open: Option<Open> = None;
    let finish = |o: Open, end: usize, at: usize, out: &mut Vec<Block>| {
        out.push(Block {
            kind: if is_heading(&all[o.tag].name) {
                Kind::Heading
            } else {
                Kind::Paragraph
            },
            inner: (o.start, end.max(o.start)),
            tags: (o.tag + 1, at),
            opened: o.tag,
            parent: o.parent,
        })
    };
    for (i, t) in all.iter().enumerate() {
        let name = t.name.as_str();
        if t.end {
            if let Some(o) = open.take() {
                if all[o.tag].name == name {
                    finish(o, t.span.0, i, &mut out);
                } else {
                    open = Some(o);
                }
            }
            if let Some(pos) = stack.nearest(name) {
                stack.truncate(pos, i, all);
            }
            // an unclosed block ends with the element around it
            if let Some(o) = open.take() {
                if stack.position[o.tag] != usize::MAX {
                    open = Some(o);
                } else {
                    finish(o, t.span.0, i, &mut out);
                }
            }
        } else if name == "hr" {
            if let Some(o) = open.take() {
                let pos = stack.position[o.tag];
                if pos != usize::MAX {
                    stack.truncate(pos, i, all);
                }
                finish(o, t.span.0, i, &mut out);
            }
            out.push(Block {
                kind: Kind::Rule,
                inner: (t.span.0, t.span.0),
                tags: (i, i),
                opened: i,
                parent: stack.tags.last().copied(),
            });
        } else if !VOID.contains(&name) {
            if BLOCKS.contains(&name) {
                if let Some(o) = open.take() {
                    // a paragraph or heading cannot hold a block: it ends here; a list item's
                    // own text before a nested paragraph is left out
                    let holder = &all[o.tag].name;
                    if holder == "p" || is_heading(holder) {
                        let pos = stack.position[o.tag];
                        if pos != usize::MAX {
                            stack.truncate(pos, i, all);
                        }
                        finish(o, t.span.0, i, &mut out);
                    }
                }
                open = Some(Open {
                    tag: i,
                    start: t.span.1,
                    parent: stack.tags.last().copied(),
                });
            }
            stack.push(i, name);
        }
    }
    if let Some(o) = open.take() {
        finish(o, html.len(), all.len(), &mut out);
    }
    Blocks {
        list: out,
        closed_at: stack.closed_at,
    }
}

/// A block's characters, each marked bold or not, white space folded to single spaces and
/// trimmed; footnote markers left out.
fn characters(html: &str, block: &Block, all: &[Tag]) -> Vec<(char, bool)> {
    let mut out: Vec<(char, bool)> = Vec::new();
    let push = |s: &str, bold: bool, out: &mut Vec<(char, bool)>| {
        for c in decode_entities(s).chars() {
            if c.is_whitespace() {
                if out.last().is_some_and(|(l, _)| *l != ' ') {
                    out.push((' ', false));
                }
            } else {
                out.push((c, bold));
            }
        }
    };
    let mut bold = 0usize;
    let mut sup: Option<usize> = None;
    let mut at = block.inner.0;
    for t in all.get(block.tags.0..block.tags.1).unwrap_or_default() {
        push(&html[at..t.span.0.max(at)], bold > 0, &mut out);
        at = t.span.1.max(at);
        match (t.name.as_str(), t.end) {
            ("strong" | "b", false) => bold += 1,
            ("strong" | "b", true) => bold = bold.saturating_sub(1),
            ("br", _) => push(" ", false, &mut out),
            ("sup", false) => sup = Some(out.len()),
            ("sup", true) => {
                if let Some(from) = sup.take() {
                    let marker = out.get(from..).unwrap_or_default().iter().all(|(c, _)| {
                        c.is_ascii_digit() || matches!(c, ' ' | ',' | '*' | '†' | '‡')
                    });
                    if marker {
                        out.truncate(from);
                    }
                }
            }
            _ => {}
        }
    }
    push(
        &html[at.min(block.inner.1)..block.inner.1],
        bold > 0,
        &mut out,
    );
    while out.last().is_some_and(|(c, _)| *c == ' ') {
        out.pop();
    }
    if out.first().is_some_and(|(c, _)| *c == ' ') {
        out.remove(0);
    }
    out
}

fn string(chars: &[(char, bool)]) -> String {
    chars.iter().map(|(c, _)| *c).collect()
}

/// What a paragraph's text is: a definition (term, definition), a heading, or plain text.
enum Line {
    Definition(String, String),
    Heading(String),
    Text(String),
}

const DASHES: [&str; 3] = ["- ", "– ", "— "];

fn line(chars: &[(char, bool)]) -> Line {
    // the leading bold run: bold characters with only spaces between
    let lead_end = chars
        .iter()
        .position(|(c, b)| !b && *c != ' ')
        .unwrap_or(chars.len());
    let lead_end = chars[..lead_end]
        .iter()
        .rposition(|(_, b)| *b)
        .map_or(0, |p| p + 1);
    let lead = string(&chars[..lead_end]);
    let rest = string(&chars[lead_end..]);
    let whole = string(chars);
    if lead.trim().is_empty() {
        return Line::Text(whole);
    }
    let rest_trimmed = rest.trim_start();
    let split = if let Some(colon) = lead.find(':') {
        Some((
            lead[..colon].to_string(),
            format!("{}{rest}", &lead[colon + 1..]),
        ))
    } else if let Some(after) = rest_trimmed.strip_prefix(':') {
        Some((lead.clone(), after.to_string()))
    } else if !DASHES
        .iter()
        .any(|d| lead.trim_end().ends_with(d.trim_end()))
    {
        DASHES
            .iter()
            .find_map(|d| rest_trimmed.strip_prefix(d))
            .map(|after| (lead.clone(), after.to_string()))
    } else {
        None
    };
    match split {
        Some((term, definition)) => {
            let term = term.trim().to_string();
            let definition = definition.trim().to_string();
            if term.is_empty()
                || definition.is_empty()
                || term.chars().count() > 60
                || !term.chars().any(char::is_alphabetic)
            {
                Line::Text(whole)
            } else {
                Line::Definition(term, definition)
            }
        }
        None if rest.trim().is_empty() => Line::Heading(whole),
        None => Line::Text(whole),
    }
}

/// The matching key of a term: lowercase, without a trailing action cost or symbol in brackets
/// ("(1 action)", "(+)") and without a trailing placeholder ("of X", "X").
pub fn key(term: &str) -> String {
    let mut k = term.trim().to_lowercase();
    if k.ends_with(')') {
        if let Some(open) = k.rfind('(') {
            let inside = &k[open..];
            if open > 0 && (inside.contains("action") || !inside.chars().any(char::is_alphabetic)) {
                k.truncate(open);
            }
        }
    }
    let k = k.trim_end();
    k.strip_suffix(" of x")
        .or_else(|| k.strip_suffix(" x"))
        .unwrap_or(k)
        .trim()
        .to_string()
}

/// The longest page HTML the glossary reads: 512 KiB (the glossary builds every tag with its
/// attributes; the slowest page of this size, deeply nested lists, takes about 40 ms in wasm,
/// bench/packs-hostile.mjs; the rules reference's pages are under 30 KB).
pub const MAX_PAGE: usize = 512 * 1024;

/// [`terms`], refusing HTML longer than [`MAX_PAGE`] before any work, saying so.
pub fn page_terms(html: &str, page: &str) -> crate::error::Result<Vec<Term>> {
    if html.len() > MAX_PAGE {
        return Err(too_long(html.len(), page));
    }
    Ok(terms(html, page))
}

/// The error for a page of `len` bytes (or UTF-16 units) past [`MAX_PAGE`].
pub fn too_long(len: usize, page: &str) -> crate::error::Error {
    let page: String = page.chars().take(60).collect();
    crate::error::Error::request(format!(
        "the page {page:?} has {} KiB of HTML; the glossary reads at most {} KiB a page",
        len.div_ceil(1024),
        MAX_PAGE / 1024
    ))
}

/// The terms defined in one page's HTML, in order. A key defined twice on the page with
/// different text ("Chapter I" under every narrative action) is ambiguous and left out.
pub fn terms(html: &str, page: &str) -> Vec<Term> {
    let all = tags(html);
    let mut out: Vec<Term> = Vec::new();
    // the term being read, and the element it sits in (continuations stay inside it)
    let mut current: Option<(Term, Option<usize>)> = None;
    let mut section: Option<String> = None;
    let finish = |current: &mut Option<(Term, Option<usize>)>, out: &mut Vec<Term>| {
        if let Some((t, _)) = current.take() {
            out.push(t);
        }
    };
    let blocks = blocks(html, &all);
    for block in &blocks.list {
        match block.kind {
            Kind::Rule => finish(&mut current, &mut out),
            Kind::Heading => {
                finish(&mut current, &mut out);
                let heading = text(&html[block.inner.0..block.inner.1]);
                if !heading.is_empty() {
                    section = Some(heading);
                }
            }
            Kind::Paragraph => {
                let chars = characters(html, block, &all);
                if chars.is_empty() {
                    continue;
                }
                match line(&chars) {
                    Line::Definition(term, definition) => {
                        finish(&mut current, &mut out);
                        let term = Term {
                            key: key(&term),
                            term,
                            definition,
                            page: page.to_string(),
                            section: section.clone(),
                        };
                        current = Some((term, block.parent));
                    }
                    Line::Heading(heading) => {
                        finish(&mut current, &mut out);
                        section = Some(heading);
                    }
                    Line::Text(more) => {
                        let inside = current.as_ref().is_some_and(|(_, holder)| {
                            holder.is_none_or(|h| blocks.holds(h, block))
                        });
                        match current.as_mut() {
                            Some((t, _)) if inside => {
                                t.definition.push('\n');
                                t.definition.push_str(&more);
                            }
                            _ => finish(&mut current, &mut out),
                        }
                    }
                }
            }
        }
    }
    finish(&mut current, &mut out);
    let mut definitions: HashMap<&str, &str> = HashMap::new();
    let mut ambiguous: HashSet<String> = HashSet::new();
    for t in &out {
        if let Some(d) = definitions.insert(&t.key, &t.definition) {
            if d != t.definition {
                ambiguous.insert(t.key.clone());
            }
        }
    }
    let mut seen: HashSet<String> = HashSet::new();
    out.into_iter()
        .filter(|t| !ambiguous.contains(&t.key) && seen.insert(t.key.clone()))
        .collect()
}

/// The glossary of imported journal entries: the terms of every text page, in entry and page
/// order; a key defined on more than one page keeps its first definition. A page longer than
/// [`MAX_PAGE`] is refused.
pub fn from_documents(documents: &[Value]) -> crate::error::Result<Vec<Term>> {
    let mut out: Vec<Term> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for page in documents
        .iter()
        .filter_map(|d| d.get("pages").and_then(Value::as_array))
        .flatten()
        .filter(|p| {
            p.get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| t == "text")
        })
    {
        let html = page
            .pointer("/text/content")
            .and_then(Value::as_str)
            .unwrap_or("");
        let name = page.get("name").and_then(Value::as_str).unwrap_or("");
        for t in page_terms(html, name)? {
            if seen.insert(t.key.clone()) {
                out.push(t);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(html: &str) -> Vec<(String, String)> {
        terms(html, "P")
            .into_iter()
            .map(|t| (t.term, t.definition))
            .collect()
    }

    fn pair(t: &str, d: &str) -> (String, String) {
        (t.to_string(), d.to_string())
    }

    #[test]
    fn every_shape_of_bold_term_in_the_seed_is_read() {
        let html = concat!(
            "<p><strong>Dodge</strong>: Dodge makes you immune.</p>",
            "<p><strong>Evasion: </strong>Roll a d6.</p>",
            "<p><span style=\"font-family:Inter\"><strong>Armor X:</strong> Reduce damage.</span></p>",
            "<p><strong>Rescue </strong><span><strong>(1 action):</strong> Help an ally.</span></p>",
            "<p><strong>Heavy Attack</strong> <strong>(2 actions):</strong> 2[D] + fray.</p>",
            "<p><strong>Blessing:</strong> Gain a token.<strong> </strong><sup>1</sup></p>",
            "<p><strong>Triggered effect</strong> - An effect that activates.</p>",
        );
        assert_eq!(
            pairs(html),
            [
                pair("Dodge", "Dodge makes you immune."),
                pair("Evasion", "Roll a d6."),
                pair("Armor X", "Reduce damage."),
                pair("Rescue (1 action)", "Help an ally."),
                pair("Heavy Attack (2 actions)", "2[D] + fray."),
                pair("Blessing", "Gain a token."),
                pair("Triggered effect", "An effect that activates."),
            ]
        );
    }

    #[test]
    fn what_is_not_a_definition() {
        let html = concat!(
            "<p>The following is a glossary:<br /><strong>Dash (1 action):</strong> Dash.</p>",
            "<p><strong>Cure </strong>A character that is cured gains vigor.</p>",
            "<ul><li><p><strong>Risky - </strong>some harmful consequences.</p></li>",
            "<li><p><strong>6,6:</strong> Critical!</p></li></ul>",
            "<p><strong>A very long bold sentence that goes on and on and on well past any term</strong>: x</p>",
            "<p><strong>Empty:</strong></p>",
        );
        assert_eq!(pairs(html), []);
    }

    #[test]
    fn definitions_continue_until_the_next_term_heading_or_rule() {
        let html = concat!(
            "<p>Intro text.</p>",
            "<p><strong>POSITIVE EFFECTS &amp; TRAITS</strong></p>",
            "<p><strong>Vigilance X</strong>: Charges.</p><p>They stack.</p>",
            "<ul class=\"ak-ul\"><li><p>Reduce damage.</p></li></ul>",
            "<p><strong>Vigor X</strong>: A shield.</p>",
            "<hr /><p><strong>STATUSES</strong></p>",
            "<p><strong>Blind</strong>: Range 2.</p>",
            "<hr /><ol><li><p>A footnote.</p></li></ol>",
            "<h2>Later</h2><ul><li><p><strong>Target lower</strong>: +1 boon.</p><p>Same item.</p></li>",
            "<li><p>Another item.</p></li></ul>",
        );
        let t = terms(html, "Statuses");
        let got: Vec<(&str, &str, Option<&str>)> = t
            .iter()
            .map(|t| (t.term.as_str(), t.definition.as_str(), t.section.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Vigilance X",
                    "Charges.\nThey stack.\nReduce damage.",
                    Some("POSITIVE EFFECTS & TRAITS")
                ),
                ("Vigor X", "A shield.", Some("POSITIVE EFFECTS & TRAITS")),
                ("Blind", "Range 2.", Some("STATUSES")),
                ("Target lower", "+1 boon.\nSame item.", Some("Later")),
            ]
        );
        assert!(t.iter().all(|t| t.page == "Statuses"));
    }

    #[test]
    fn keys_drop_placeholders_and_action_costs() {
        for (term, k) in [
            ("Hatred of X", "hatred"),
            ("Armor X", "armor"),
            ("Immune to X", "immune to"),
            ("Recover (2 actions)", "recover"),
            ("Light attack (1 action)", "light attack"),
            ("Ongoing (+)", "ongoing"),
            ("True Strike", "true strike"),
            ("[D]", "[d]"),
            ("(+)", "(+)"),
        ] {
            assert_eq!(key(term), k, "{term}");
        }
    }

    #[test]
    fn ambiguous_keys_are_left_out_and_repeats_kept_once() {
        let html = concat!(
            "<p><strong>Chapter I</strong>: Climb a wall.</p>",
            "<p><strong>Chapter I</strong>: Spot a trap.</p>",
            "<p><strong>Mark</strong>: One per character.</p>",
            "<p><strong>Mark:</strong> One per character.</p>",
        );
        assert_eq!(pairs(html), [pair("Mark", "One per character.")]);
    }

    #[test]
    fn unclosed_and_odd_markup_does_not_lose_terms() {
        let html = "<p><b>Sealed</b>: No statuses.<p><strong>Slashed</strong>: 4 damage.</div><p><strong>Stunned";
        assert_eq!(
            pairs(html),
            [pair("Sealed", "No statuses."), pair("Slashed", "4 damage."),]
        );
        assert_eq!(pairs(""), []);
        assert_eq!(pairs("</p></li><p>"), []);
    }

    #[test]
    fn a_page_past_the_limit_is_refused_saying_so() {
        let big = "<p>x</p>".repeat(MAX_PAGE / 8 + 1);
        let e = page_terms(&big, "Big").unwrap_err();
        assert_eq!(
            e.message(),
            "the page \"Big\" has 513 KiB of HTML; the glossary reads at most 512 KiB a page"
        );
        assert!(page_terms(&big[..MAX_PAGE], "Fits").is_ok());
    }

    #[test]
    fn the_pack_glossary_keeps_the_first_definition_of_a_key() {
        let docs = serde_json::json!([{"pages": [
            {"name": "A", "type": "text", "text": {"content": "<p><strong>Cure</strong>: First.</p>"}},
            {"name": "Img", "type": "image", "src": "x.webp"},
            {"name": "B", "type": "text", "text": {"content": "<p><strong>Cure</strong>: Second.</p><p><strong>Fray</strong>: Damage.</p>"}}
        ]}]);
        let g = from_documents(docs.as_array().unwrap()).unwrap();
        let got: Vec<(&str, &str)> = g
            .iter()
            .map(|t| (t.definition.as_str(), t.page.as_str()))
            .collect();
        assert_eq!(got, [("First.", "A"), ("Damage.", "B")]);
    }
}
