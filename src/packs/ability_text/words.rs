//! Small helpers over lowercase ASCII-ish text: whole-word phrase search and numbers, written by
//! hand (no regex engine in the importer), each linear in the text it reads. Text is lowercased
//! with `to_ascii_lowercase`, which keeps every byte offset: offsets found in the lowercase text
//! slice the text itself (full Unicode lowercasing changes lengths: "İ" is three bytes lowercase).

/// Whether `c` is part of a word.
pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '\''
}

/// The byte offset of `phrase` in `hay` as whole words (the characters around it are not word
/// characters), from `from` on.
pub fn find_from(hay: &str, phrase: &str, from: usize) -> Option<usize> {
    let mut start = from;
    while start <= hay.len() {
        let at = start + hay.get(start..)?.find(phrase)?;
        let before = hay[..at].chars().next_back();
        let after = hay[at + phrase.len()..].chars().next();
        let first = phrase.chars().next();
        let last = phrase.chars().next_back();
        let open = !first.is_some_and(is_word) || !before.is_some_and(is_word);
        let close = !last.is_some_and(is_word) || !after.is_some_and(is_word);
        if open && close {
            return Some(at);
        }
        start = at + phrase.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The offset just past the character at `at` in `s` (a character may take up to four bytes).
pub fn after_char(s: &str, at: usize) -> usize {
    at + s[at..].chars().next().map_or(0, char::len_utf8)
}

/// [`find_from`] from the start.
pub fn find(hay: &str, phrase: &str) -> Option<usize> {
    find_from(hay, phrase, 0)
}

/// Whether `hay` holds any of `phrases` as whole words.
pub fn has_any(hay: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| find(hay, p).is_some())
}

/// The words of `text` (runs of word characters), lowercase.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A number written in digits or as a word from zero to twelve.
pub fn number(word: &str) -> Option<u32> {
    if !word.is_empty() && word.len() <= 6 && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS.iter().position(|w| *w == word).map(|n| n as u32)
}

/// The first number among the (at most `within`) words after the word at `at`.
pub fn number_after(words: &[String], at: usize, within: usize) -> Option<u32> {
    words
        .iter()
        .skip(at + 1)
        .take(within)
        .find_map(|w| number(w))
}

/// `text` with every run of whitespace one space, trimmed.
pub fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `text` cut to at most `max` characters (at a character boundary).
pub fn cut(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// HTML-escapes `text` (`&`, `<`, `>`, `"`, `'`), so whatever was pasted shows as text.
pub fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}

/// Lines as escaped paragraphs: `<p>line</p>` each.
pub fn paragraphs<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for line in lines {
        if line.is_empty() {
            continue;
        }
        out.push_str("<p>");
        escape(line, &mut out);
        out.push_str("</p>");
    }
    out
}

/// A name as it should read: an ALL CAPS name (a PDF's heading) in title case; any other kept.
pub fn name_case(name: &str) -> String {
    let letters: Vec<char> = name.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 2 || letters.iter().any(|c| c.is_lowercase()) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len());
    let mut start = true;
    for c in name.chars() {
        if c.is_alphabetic() {
            if start {
                out.push(c);
            } else {
                out.extend(c.to_lowercase());
            }
            start = false;
        } else {
            out.push(c);
            start = c == ' ' || c == '-' || c == '(' || c == '/';
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_are_whole_words() {
        assert_eq!(find("the target is dazed", "dazed"), Some(14));
        assert_eq!(find("undazed", "dazed"), None);
        assert_eq!(find("dazed+", "dazed"), Some(0));
        assert_eq!(find("a [d]+fray", "[d]"), Some(2));
        assert_eq!(find("re-pull and pull", "pull"), Some(3));
    }

    #[test]
    fn numbers_in_digits_and_words() {
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("two"), Some(2));
        assert_eq!(number("1234567"), None);
        assert_eq!(number("x"), None);
    }

    #[test]
    fn names_in_caps_read_in_title_case() {
        assert_eq!(name_case("ROCK TOSS"), "Rock Toss");
        assert_eq!(name_case("Rock toss"), "Rock toss");
        assert_eq!(name_case("SKY-SPLITTER"), "Sky-Splitter");
    }

    #[test]
    fn escaping_leaves_no_markup() {
        let mut out = String::new();
        escape("<img src=x onerror=\"a()\">&'", &mut out);
        assert_eq!(out, "&lt;img src=x onerror=&quot;a()&quot;&gt;&amp;&#x27;");
    }
}
