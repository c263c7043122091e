//! The one error type of the crate: a located message.

use crate::ast::Pos;

/// Longest token text an error keeps; a runaway string literal or attribute
/// value would otherwise be copied whole into the message.
const MAX_TOKEN_CHARS: usize = 60;

/// A syntax error: where, what, and the text of the token it was found at
/// (empty at the end of the input).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: error: {message} ({})", at(token))]
pub struct ParseError {
    pub pos: Pos,
    pub message: String,
    pub token: String,
}

fn at(token: &str) -> String {
    if token.is_empty() {
        "at end of input".to_string()
    } else {
        format!("at '{token}'")
    }
}

impl ParseError {
    pub fn new(pos: Pos, message: impl Into<String>, token: &str) -> Self {
        ParseError { pos, message: message.into(), token: clip(token) }
    }

    /// `file:line:col: error: message (at 'token')`, the form compilers and
    /// editors recognise.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

fn clip(token: &str) -> String {
    match token.char_indices().nth(MAX_TOKEN_CHARS) {
        Some((i, _)) => format!("{}...", &token[..i]),
        None => token.to_string(),
    }
}
