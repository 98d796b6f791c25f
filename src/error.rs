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
