//! Text as it arrives from a PDF, made into logical lines: characters a PDF's text layer uses
//! for ordinary ones (non-breaking spaces, soft hyphens, ligatures, curly quotes), bullets, words
//! hyphenated across lines joined again, and a sentence broken across lines made one line. A
//! logical line ends where a sentence does and the next line starts something of its own: an
//! ability's header or tag line, a part ("On hit:"), a bullet, a blank line.

use super::header::{inline, is_name, is_tag_line};
use super::vocab::label;

/// One logical line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// A blank line came before it (a paragraph break).
    pub after_blank: bool,
}

/// Characters mapped to what they stand for; a few dropped.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\u{2028}' | '\u{2029}' | '\u{000B}' | '\u{000C}' => out.push('\n'),
            '\t' | '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
                out.push(' ')
            }
            '\u{00AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            '\u{2010}' | '\u{2011}' | '\u{2212}' => out.push('-'),
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' => out.push('\''),
            '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => out.push('"'),
            '\u{2026}' => out.push_str("..."),
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Bullets a list item may start with.
const BULLETS: &[char] = &[
    '•', '●', '▪', '◦', '‣', '∙', '·', '◆', '◇', '■', '□', '★', '☆', '➤', '►', '▸', '-', '*', '–',
    '—',
];

/// A raw line trimmed, its spaces squashed and its bullet taken off: `(text, bullet)`.
fn raw(line: &str) -> (String, bool) {
    let line = super::words::squash(line);
    let mut chars = line.chars();
    if let (Some(first), Some(' ')) = (chars.next(), chars.next()) {
        if BULLETS.contains(&first) {
            return (line[first.len_utf8() + 1..].to_string(), true);
        }
    }
    (line, false)
}

/// Word fragments whose hyphen at a line's end is the word's own ("auto-" / "hit").
const OWN_HYPHENS: &[&str] = &["auto", "self", "non", "half", "one", "two", "three", "end"];

/// Whether a raw line starts a logical line of its own.
fn starts_line(line: &str, previous: &str, next: Option<&str>) -> bool {
    // the line being built may have grown long: only a short one can be a name or a header
    let short = previous.len() <= 300;
    label(line, true).is_some()
        || inline(line).is_some()
        || (short && is_tag_line(line) && (is_name(previous) || inline(previous).is_some()))
        || (is_name(line) && next.is_some_and(|n| is_tag_line(n) || label(n, true).is_some()))
        || is_section(line)
        || (short && is_section(previous))
}

/// A heading of a foe's stat block or a job page ("Traits", "Actions").
pub fn is_section(line: &str) -> bool {
    matches!(
        line.trim()
            .trim_end_matches(':')
            .to_ascii_lowercase()
            .as_str(),
        "traits"
            | "actions"
            | "abilities"
            | "interrupts"
            | "reactions"
            | "features"
            | "relics"
            | "special"
            | "statistics"
            | "stats"
    )
}

/// The logical lines of `text`.
pub fn lines(text: &str) -> Vec<Line> {
    let text = normalize(text);
    let raws: Vec<(String, bool)> = text.split('\n').map(raw).collect();
    let mut out: Vec<Line> = Vec::new();
    let mut blank = false;
    // whether the line being built may take a continuation (not a bullet list's closed item)
    for (i, (line, bullet)) in raws.iter().enumerate() {
        if line.is_empty() {
            blank = true;
            continue;
        }
        let next = raws[i + 1..]
            .iter()
            .map(|(l, _)| l.as_str())
            .find(|l| !l.is_empty());
        let new = match out.last() {
            None => true,
            Some(current) => {
                // a title alone on its line ("Eagle Eye") above a sentence: a trait's name
                let titled =
                    is_name(&current.text) && line.chars().next().is_some_and(char::is_uppercase);
                blank || *bullet || titled || starts_line(line, &current.text, next) || {
                    let ends = current.text.ends_with(['.', '!', '?', ':', ')']);
                    let lower = line.chars().next().is_some_and(|c| c.is_lowercase());
                    ends && !lower
                }
            }
        };
        if new {
            out.push(Line {
                text: line.clone(),
                after_blank: blank,
            });
        } else if let Some(current) = out.last_mut() {
            join(&mut current.text, line);
        }
        blank = false;
    }
    out
}

/// Appends a continuation line: a word hyphenated across the break is one word again ("at-" /
/// "tack"), a hyphen that belongs to the word is kept ("auto-" / "hit").
fn join(current: &mut String, next: &str) {
    let hyphenated = current.ends_with('-')
        && current[..current.len() - 1]
            .chars()
            .next_back()
            .is_some_and(char::is_alphabetic);
    if hyphenated {
        let stem_start = current[..current.len() - 1]
            .rfind(|c: char| !c.is_alphabetic())
            .map_or(0, |at| super::words::after_char(current, at));
        let stem = current[stem_start..current.len() - 1].to_ascii_lowercase();
        let next_lower = next.chars().next().is_some_and(char::is_lowercase);
        if next_lower && !OWN_HYPHENS.contains(&stem.as_str()) {
            current.pop();
        }
        current.push_str(next);
    } else {
        current.push(' ');
        current.push_str(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        lines(text).into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn pdf_lines_become_sentences() {
        assert_eq!(
            texts("Spark Jab (1 action): Range 3, Attack. On hit: [D] + fray, and the tar-\nget is dazed.\nMiss: fray."),
            vec!["Spark Jab (1 action): Range 3, Attack. On hit: [D] + fray, and the target is dazed.", "Miss: fray."]
        );
        assert_eq!(
            texts("Auto-\nhit and ﬁre\u{00A0}in the\r\nhole"),
            vec!["Auto-hit and fire in the hole"]
        );
    }

    #[test]
    fn headings_and_tag_lines_stand_alone() {
        assert_eq!(
            texts("ROCK TOSS\n1 action, Attack, Range 4\nOn hit: 2[D] + fray\nMiss: fray\nSTONE SKIN\n1 action, Stance"),
            vec!["ROCK TOSS", "1 action, Attack, Range 4", "On hit: 2[D] + fray", "Miss: fray", "STONE SKIN", "1 action, Stance"]
        );
        assert_eq!(texts("• Shove 2\n• Pull 1"), vec!["Shove 2", "Pull 1"]);
        assert_eq!(
            texts("Traits\nThick Hide: tough."),
            vec!["Traits", "Thick Hide: tough."]
        );
    }
}
