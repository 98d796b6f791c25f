//! The one error type of the core. Every failure is a value with a clear message: the core never
//! panics on any input, and the wasm boundary turns these into JS `Error`s.

use std::fmt;

/// What went wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The broad class of an [`Error`], for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A dice formula could not be parsed.
    Parse,
    /// A request is malformed or asks for something outside the limits.
    Request,
    /// The faces given to `resolve` do not match what the rules asked for.
    Faces,
    /// Exact odds cannot be computed within the limits.
    Odds,
    /// Arithmetic left the range the core supports.
    Overflow,
    /// The platform could not provide entropy for a seed.
    Entropy,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
    pub fn request(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Request, message)
    }
    pub fn faces(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Faces, message)
    }
    pub fn odds(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Odds, message)
    }
    pub fn overflow(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overflow, message)
    }
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// At most this many characters of the caller's input are quoted in a message.
pub const MAX_QUOTED: usize = 100;

/// `text` cut to [`MAX_QUOTED`] characters (with `…` when cut), for quoting input in messages.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `message` with every quoted span (`"…"` or `` `…` ``) longer than [`MAX_QUOTED`] characters
/// cut, so a message never repeats megabytes of the caller's input (serde quotes whole strings,
/// the parser whole formulas).
pub fn clip_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest.as_bytes()[open] as char;
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // the closing quote, or the end of the message
        let close = rest.find(quote).unwrap_or(rest.len());
        let inner = &rest[..close];
        match inner.char_indices().nth(MAX_QUOTED) {
            Some((at, _)) => {
                out.push_str(&inner[..at]);
                out.push('…');
            }
            None => out.push_str(inner),
        }
        rest = &rest[close..];
        if let Some(q) = rest.strip_prefix(quote) {
            out.push(quote);
            rest = q;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_are_cut_short_ones_kept() {
        let long = "x".repeat(5000);
        let m = clip_quotes(&format!(
            "invalid type: string \"{long}\", expected i64 at `{long}`"
        ));
        assert!(m.len() < 260, "{m}");
        assert!(m.starts_with("invalid type: string \"xxx"));
        assert!(m.contains("…\", expected i64 at `x"));
        assert!(m.ends_with("…`"));
        let short = "unknown field `boon`, expected one of `boons`, `curses`";
        assert_eq!(clip_quotes(short), short);
        // an unclosed quote is cut too; multi-byte characters are never split
        let m = clip_quotes(&format!("bad \"{}", "é".repeat(300)));
        assert_eq!(m.chars().filter(|c| *c == 'é').count(), MAX_QUOTED);
        assert_eq!(clip(&"ü".repeat(101)), format!("{}…", "ü".repeat(100)));
        assert_eq!(clip("short"), "short");
    }
}
