//! Glossary terms from the rules reference's pages: paragraphs that open with a bold term and a
//! colon ("<p><strong>Dodge</strong>: Dodge makes you immune to ...</p>"). The enrichers turn
//! status and glossary words into tooltips with these definitions.

use super::html::{tags, text};
use serde::Serialize;

/// One glossary entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Term {
    pub term: String,
    /// The term for matching: lowercase, without a placeholder ("Hatred of X" → "hatred",
    /// "Armor X" → "armor").
    pub key: String,
    pub definition: String,
    /// The page it came from.
    pub page: String,
}

/// The terms defined in one page's HTML, in order.
pub fn terms(html: &str, page: &str) -> Vec<Term> {
    let all = tags(html);
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for t in &all {
        match (t.name.as_str(), t.end) {
            ("p" | "li", false) => open = Some(t.span.1),
            ("p" | "li", true) => {
                if let Some(start) = open.take() {
                    if let Some(term) = paragraph(&html[start..t.span.0], page) {
                        out.push(term);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A paragraph that opens with `<strong>Term:</strong>` or `<strong>Term</strong>:`.
fn paragraph(inner: &str, page: &str) -> Option<Term> {
    let inner_tags = tags(inner);
    let strong = inner_tags
        .iter()
        .position(|t| t.name == "strong" && !t.end)?;
    let close = inner_tags[strong..]
        .iter()
        .find(|t| t.name == "strong" && t.end)?;
    let bold = text(&inner[inner_tags[strong].span.1..close.span.0]);
    let whole = text(inner);
    let rest = whole.strip_prefix(bold.as_str())?.trim_start();
    let (term, definition) = if let Some(term) = bold.strip_suffix(':') {
        (term.trim(), rest)
    } else {
        (bold.trim(), rest.strip_prefix(':')?.trim_start())
    };
    if term.is_empty() || definition.is_empty() || term.len() > 60 {
        return None;
    }
    let lower = term.to_lowercase();
    let key = lower
        .strip_suffix(" of x")
        .or_else(|| lower.strip_suffix(" x"))
        .unwrap_or(&lower)
        .to_string();
    Some(Term {
        key,
        term: term.to_string(),
        definition: definition.to_string(),
        page: page.to_string(),
    })
}
