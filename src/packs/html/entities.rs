//! Character references (WHATWG HTML §13.2.5.72–80), as the tokenizer decodes them in text and
//! attribute values.
//!
//! Numeric references are decoded in full (with the Windows-1252 remapping of 0x80–0x9F). Of the
//! 2,231 named references only the ones that stand for ASCII are known here: the scanner's
//! questions (a URL's scheme, `http-equiv`, an animation's `attributeName`, a CSS `position` or
//! `@import`) are about ASCII, and any other reference stands for a character none of them can
//! contain, so it may as well stay as written. Names are case-sensitive, as in browsers.

/// Named references that stand for ASCII: `(name without ';', text, legacy)`. Legacy ones are
/// decoded without their `;` too (outside attribute values, or when what follows is not `=` or
/// a letter or digit).
const NAMED: [(&str, &str, bool); 48] = [
    ("AMP", "&", true),
    ("DiacriticalGrave", "`", false),
    ("GT", ">", true),
    ("Hat", "^", false),
    ("LT", "<", true),
    ("NewLine", "\n", false),
    ("QUOT", "\"", true),
    ("Tab", "\t", false),
    ("UnderBar", "_", false),
    ("VerticalLine", "|", false),
    ("amp", "&", true),
    ("apos", "'", false),
    ("ast", "*", false),
    ("bsol", "\\", false),
    ("colon", ":", false),
    ("comma", ",", false),
    ("commat", "@", false),
    ("dollar", "$", false),
    ("equals", "=", false),
    ("excl", "!", false),
    ("fjlig", "fj", false),
    ("grave", "`", false),
    ("gt", ">", true),
    ("lbrace", "{", false),
    ("lbrack", "[", false),
    ("lcub", "{", false),
    ("lowbar", "_", false),
    ("lpar", "(", false),
    ("lsqb", "[", false),
    ("lt", "<", true),
    ("midast", "*", false),
    ("num", "#", false),
    ("percnt", "%", false),
    ("period", ".", false),
    ("plus", "+", false),
    ("quest", "?", false),
    ("quot", "\"", true),
    ("rbrace", "}", false),
    ("rbrack", "]", false),
    ("rcub", "}", false),
    ("rpar", ")", false),
    ("rsqb", "]", false),
    ("semi", ";", false),
    ("sol", "/", false),
    ("verbar", "|", false),
    ("vert", "|", false),
    // non-ASCII, but common in journal text
    ("nbsp", "\u{a0}", true),
    ("NonBreakingSpace", "\u{a0}", false),
];

/// Windows-1252 for the numeric references 0x80–0x9F (§13.2.5.80); 0 keeps the code point.
const C1: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// The reference at the start of `s` (just after `&`): the text it stands for and how many
/// bytes of `s` it used, or `None` to leave the `&` as written.
pub(crate) fn reference(s: &str, in_attribute: bool) -> Option<(Decoded, usize)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
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
        // leading zeros are free; more than 8 significant digits is past U+10FFFF anyway
        let text = s[start..start + digits].trim_start_matches('0');
        let code = if text.len() > 8 {
            u32::MAX
        } else {
            u32::from_str_radix(text, if hex { 16 } else { 10 }).unwrap_or(0)
        };
        let code = match code {
            0x80..=0x9F => match C1[(code - 0x80) as usize] {
                0 => code,
                mapped => u32::from(mapped),
            },
            c => c,
        };
        let c = match code {
            0 => '\u{fffd}',
            c => char::from_u32(c).unwrap_or('\u{fffd}'),
        };
        let used = start + digits;
        let used = if b.get(used) == Some(&b';') {
            used + 1
        } else {
            used
        };
        return Some((Decoded::Char(c), used));
    }
    let n = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    if n == 0 {
        return None;
    }
    let name = &s[..n];
    let semicolon = b.get(n) == Some(&b';');
    if semicolon {
        if let Some((_, text, _)) = NAMED.iter().find(|(k, _, _)| *k == name) {
            return Some((Decoded::Str(text), n + 1));
        }
    }
    // the longest legacy name that starts the run (`&ampx` is `&` then `x` in text)
    let (k, text, _) = NAMED
        .iter()
        .filter(|(k, _, legacy)| *legacy && name.starts_with(k))
        .max_by_key(|(k, _, _)| k.len())?;
    if in_attribute
        && b.get(k.len())
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'=')
    {
        return None;
    }
    Some((Decoded::Str(text), k.len()))
}

/// What a reference stands for.
pub(crate) enum Decoded {
    Char(char),
    Str(&'static str),
}

/// `s` with its character references decoded, as the browser decodes an attribute value
/// (`in_attribute`) or text.
pub fn decode(s: &str, in_attribute: bool) -> std::borrow::Cow<'_, str> {
    let Some(first) = s.find('&') else {
        return std::borrow::Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[..first]);
    let mut rest = &s[first..];
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        match reference(rest, in_attribute) {
            Some((Decoded::Char(c), used)) => {
                out.push(c);
                rest = &rest[used..];
            }
            Some((Decoded::Str(t), used)) => {
                out.push_str(t);
                rest = &rest[used..];
            }
            None => out.push('&'),
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_references_follow_the_standard() {
        assert_eq!(decode("&#106;&#x61;&#X76;a", true), "java");
        assert_eq!(decode("&#106avascript&#58", true), "javascript:");
        assert_eq!(decode("&#0000106;", true), "j");
        assert_eq!(
            decode("&#0;&#99999999999;&#xD800;", true),
            "\u{fffd}\u{fffd}\u{fffd}"
        );
        assert_eq!(decode("&#x80;&#x81;&#150;", true), "€\u{81}–");
        assert_eq!(decode("&# &#x; &#xg", true), "&# &#x; &#xg");
    }

    #[test]
    fn named_references_are_case_sensitive_and_legacy_ones_need_no_semicolon() {
        assert_eq!(
            decode("a &amp b &lt;c&gt; &Tab;&NewLine;&colon;", true),
            "a & b <c> \t\n:"
        );
        assert_eq!(decode("&TAB;&Colon;&colon", true), "&TAB;&Colon;&colon");
        // in an attribute a legacy name followed by a letter, digit or `=` stays as written
        assert_eq!(decode("?a=1&lt=2&ampx&amp;", true), "?a=1&lt=2&ampx&");
        assert_eq!(decode("&ampx &lt=", false), "&x <=");
        assert_eq!(decode("R&D &copy; &", true), "R&D &copy; &");
    }
}
