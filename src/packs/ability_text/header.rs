//! Where an ability starts: its header. Either its name and cost on one line, "Light attack (1
//! action): Make an attack roll." (the glossary's own form), or its name alone on a line above a
//! line of its cost and tags, as a book's page sets it ("ROCK TOSS" / "1 action, Attack, Range
//! 4").

use super::vocab::{cost, label, tag_item};

/// An ability's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    /// The entries in its parentheses (the cost and any tags), or of its tag line.
    pub items: Vec<String>,
    /// What follows on the header's line, its separator (`:`, `.` or a dash) taken off.
    pub rest: String,
}

/// Words of a title that need no capital ("Hatred of the Wolf").
const SMALL_WORDS: &[&str] = &[
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
    "with", "vs", "de", "la",
];

/// Whether a line reads as a title: at most 60 characters and 8 words, a letter first, every
/// word of four letters or more capitalised (or the whole in capitals), no colon, not ending a
/// sentence.
pub fn is_name(line: &str) -> bool {
    let line = line.trim();
    if line.is_empty() || line.len() > 240 || line.chars().count() > 60 || line.contains(':') {
        return false;
    }
    if !line
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '\'' || c == '"')
    {
        return false;
    }
    if line.ends_with(['.', ',', ';', '!', '?']) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() > 8 {
        return false;
    }
    words.iter().all(|w| {
        let letters: String = w.chars().filter(|c| c.is_alphabetic()).collect();
        let first = w.chars().find(|c| c.is_alphanumeric());
        letters.is_empty()
            || first.is_some_and(|c| c.is_uppercase() || c.is_numeric())
            || SMALL_WORDS.contains(&letters.to_ascii_lowercase().as_str())
            || letters.chars().count() < 4
    })
}

/// Whether the words before a header's parentheses read as a name: a capital first, at most 60
/// characters and 8 words, no colon, not ending a sentence.
fn is_inline_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 60
        && name.split_whitespace().count() <= 8
        && !name.contains(':')
        && !name.ends_with(['.', ',', ';', '!', '?'])
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_numeric())
}

/// Splits a tag list into its entries (commas, semicolons, bullets and slashes between them).
pub fn items(list: &str) -> Vec<String> {
    list.split([',', ';', '•', '·', '|', '/'])
        .map(|s| s.trim().trim_end_matches('.').trim())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a line is a cost-and-tags line: its first entry a cost ("1 action, Attack, Range 4"),
/// or at least two entries, every one a tag ("Attack, Melee").
pub fn is_tag_line(line: &str) -> bool {
    if label(line, true).is_some() {
        return false;
    }
    let items = items(line);
    match items.first() {
        Some(first) if cost(first).is_some() => true,
        Some(_) => items.len() >= 2 && items.iter().all(|i| tag_item(i).is_some()),
        None => false,
    }
}

/// The header "Name (cost, tags...)[: rest]" on one line, or None.
pub fn inline(line: &str) -> Option<Header> {
    let open = line.find('(')?;
    let close = open + line[open..].find(')')?;
    let name = line[..open].trim();
    // the cost in parentheses marks the header, so the name needs only a capital first ("Light
    // attack (1 action)", as the glossary writes it)
    if !is_inline_name(name) {
        return None;
    }
    let items = items(&line[open + 1..close]);
    if !items.iter().any(|i| cost(i).is_some()) {
        return None;
    }
    let rest = line[close + 1..].trim_start();
    let rest = rest
        .strip_prefix([':', '.', '-', '–', '—'])
        .unwrap_or(rest)
        .trim();
    Some(Header {
        name: name.to_string(),
        items,
        rest: rest.to_string(),
    })
}

/// The header at `lines[at]`: an inline one, or a name line above a tag line (the tag line is
/// then the header's items, and the header takes two lines). Returns the header and how many
/// lines it takes.
pub fn at(lines: &[String], at: usize) -> Option<(Header, usize)> {
    let line = lines.get(at)?;
    if let Some(header) = inline(line) {
        return Some((header, 1));
    }
    let next = lines.get(at + 1)?;
    if is_name(line) && is_tag_line(next) {
        return Some((
            Header {
                name: line.trim().to_string(),
                items: items(next),
                rest: String::new(),
            },
            2,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_name("Rock Toss"));
        assert!(is_name("ROCK TOSS"));
        assert!(is_name("Hatred of the Wolf"));
        assert!(!is_name("Make an attack roll against a"));
        assert!(!is_name("On hit: 2[D]"));
        assert!(!is_name("Ends a sentence."));
    }

    #[test]
    fn inline_headers() {
        let h = inline("Light attack (1 action): Make an attack roll.").unwrap();
        assert_eq!(h.name, "Light attack");
        assert_eq!(h.items, vec!["1 action"]);
        assert_eq!(h.rest, "Make an attack roll.");
        let h = inline("Ember Lash (2 actions, Attack, Range 3)").unwrap();
        assert_eq!(h.items, vec!["2 actions", "Attack", "Range 3"]);
        assert!(inline("The Bear (a beast)").is_none());
    }

    #[test]
    fn two_line_headers() {
        let lines = [
            "ROCK TOSS".to_string(),
            "1 action, Attack, Range 4".to_string(),
        ];
        let (h, n) = at(&lines, 0).unwrap();
        assert_eq!((h.name.as_str(), n), ("ROCK TOSS", 2));
        assert_eq!(h.items.len(), 3);
        let lines = [
            "Thick Hide".to_string(),
            "Scarred skin turns blows.".to_string(),
        ];
        assert!(at(&lines, 0).is_none());
    }
}
