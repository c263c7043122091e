//! The error type of the crate.

use std::fmt;

/// Everything that can go wrong: malformed text, a map or an op description
/// that does not make sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that does not parse; `offset` is the byte offset of the problem.
    Parse { offset: usize, message: String },
    /// An indexing map that is inconsistent (e.g. a variable out of range).
    InvalidMap(String),
    /// An op description that is inconsistent (wrong operand count, bad
    /// attribute, shapes that do not fit together).
    InvalidOp(String),
    /// A well-formed request this library does not handle.
    Unsupported(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { offset, message } => {
                write!(f, "parse error at offset {offset}: {message}")
            }
            Error::InvalidMap(m) => write!(f, "invalid indexing map: {m}"),
            Error::InvalidOp(m) => write!(f, "invalid op: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
