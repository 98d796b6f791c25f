//! Just enough CSS (Syntax Level 3) for the two things imported HTML must not do with it: load a
//! style sheet from elsewhere (`@import`) and pin an element over the whole window
//! (`position: fixed`). Escapes (`\66ixed`) and comments (`pos/**/ition` is two words, but
//! `position/**/:fixed` is a declaration) are read as browsers read them; where this reading is
//! cruder than a browser's, it errs towards reporting.

/// CSS text with comments removed and escapes decoded, lowercase. A comment becomes a space
/// where it separates two words, so a name split by one never reads as one word.
fn normalise(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = '\0';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push('\u{0}');
            }
            '\\' => {
                let mut hex = String::new();
                while hex.len() < 6 && chars.peek().is_some_and(char::is_ascii_hexdigit) {
                    hex.extend(chars.next());
                }
                if hex.is_empty() {
                    match chars.next() {
                        // an escaped newline continues a string; elsewhere it is nothing
                        Some('\n' | '\r' | '\u{c}') | None => {}
                        Some(c) => out.extend(c.to_lowercase()),
                    }
                } else {
                    if chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                        chars.next();
                    }
                    let code = u32::from_str_radix(&hex, 16).unwrap_or(0);
                    let c = match code {
                        0 | 0xD800..=0xDFFF => '\u{fffd}',
                        c => char::from_u32(c).unwrap_or('\u{fffd}'),
                    };
                    out.extend(c.to_lowercase());
                }
            }
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Whether a declaration list (a `style` attribute, or a rule's block) leaves `position` fixed:
/// the last valid declaration wins, an `!important` one over any other. A value CSS can only
/// know later (`var(--x)`) counts as fixed.
pub fn fixed_position(declarations: &str) -> bool {
    declarations_fixed(&normalise(declarations))
}

/// [`fixed_position`] of text already normalised.
fn declarations_fixed(css: &str) -> bool {
    const KEYWORDS: [&str; 11] = [
        "static",
        "relative",
        "absolute",
        "fixed",
        "sticky",
        "-webkit-sticky",
        "inherit",
        "initial",
        "unset",
        "revert",
        "revert-layer",
    ];
    let mut winner: Option<(bool, bool)> = None; // (fixed, important)
    for declaration in split_top_level(css, ';') {
        let Some((name, value)) = declaration.split_once(':') else {
            continue;
        };
        if name.trim_matches(blank) != "position" {
            continue;
        }
        let mut value = value.trim_matches(blank);
        let mut important = false;
        if let Some(bang) = value.rfind('!') {
            if value[bang + 1..].trim_matches(blank) == "important" {
                important = true;
                value = value[..bang].trim_matches(blank);
            }
        }
        let fixed = value == "fixed" || value.contains('(');
        if !(fixed || KEYWORDS.contains(&value)) {
            continue;
        }
        if winner.is_none_or(|(_, was_important)| important || !was_important) {
            winner = Some((fixed, important));
        }
    }
    winner.is_some_and(|(fixed, _)| fixed)
}

/// White space, and what is left of a comment.
fn blank(c: char) -> bool {
    c.is_ascii_whitespace() || c == '\u{0}'
}

/// `css` cut at `separator` where it is outside strings, brackets and blocks.
fn split_top_level(css: &str, separator: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in css.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, c) if c == separator && depth == 0 => {
                out.push(&css[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&css[start..]);
    out
}

/// What a style sheet (a `<style>` element's text) does that imported HTML must not.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Sheet {
    /// It has an `@import` rule.
    pub import: bool,
    /// Some rule's declarations leave `position` fixed.
    pub fixed: bool,
}

/// Reads a style sheet: every `@import` at-keyword, and every block's declarations (the blocks
/// of nested rules and of `@media` too; strings are not looked into).
pub fn sheet(css: &str) -> Sheet {
    let css = normalise(css);
    let mut found = Sheet::default();
    // blocks: where each open brace's content starts; a block is read when it closes, with its
    // nested blocks cut out
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut top = String::new();
    let mut quote: Option<char> = None;
    for (i, c) in css.char_indices() {
        let current = match open.last_mut() {
            Some((_, text)) => text,
            None => &mut top,
        };
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                current.push(c);
            }
            (None, '@') => {
                if css[i + 1..].starts_with("import")
                    && !css[i + 7..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
                {
                    found.import = true;
                }
                current.push(c);
            }
            (None, '{') => {
                current.push(';');
                open.push((i, String::new()));
            }
            (None, '}') => {
                if let Some((_, block)) = open.pop() {
                    found.fixed |= declarations_fixed(&block);
                }
            }
            (None, c) => current.push(c),
        }
    }
    for (_, block) in open {
        found.fixed |= declarations_fixed(&block);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_position_in_any_spelling() {
        for css in [
            "position:fixed",
            "inset:0; POSITION : Fixed ; z-index: 99",
            "position/**/:/**/fixed",
            "posit\\69 on: \\66ixed",
            "position: fixed !important; position: static",
            "position: fixed ! IMPORTANT",
            "position: var(--p)",
            "position: static; position: fixed",
            "position: fixed; position: nonsense",
        ] {
            assert!(fixed_position(css), "{css}");
        }
        for css in [
            "",
            "position: static",
            "position: fixed; position: absolute",
            "pos/**/ition: fixed",
            "content: 'position: fixed'",
            "background: url(position:fixed)",
            "position: fixedx",
            "position: absolute !important; position: fixed",
        ] {
            assert!(!fixed_position(css), "{css}");
        }
    }

    #[test]
    fn sheets_with_imports_and_fixed_rules() {
        assert_eq!(
            sheet("@import url(https://x/y.css); p { color: red }"),
            Sheet {
                import: true,
                fixed: false
            }
        );
        assert!(sheet("@IMP\\4fRT 'x.css';").import);
        assert!(!sheet("@importance {}").import);
        assert!(!sheet("p::after { content: '@import' }").import);
        assert!(sheet("@media screen { .a { position: fixed; inset: 0 } }").fixed);
        assert!(sheet(".a { color: red; .b { position: fixed } }").fixed);
        assert!(sheet(".a { position: fixed").fixed, "unclosed at the end");
        assert!(!sheet(".a { position: absolute } .b { top: 0 }").fixed);
    }
}
