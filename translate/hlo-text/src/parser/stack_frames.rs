//! The stack-frame tables newer XLA prints between the header and the
//! computations, resolved into one [`StackFrame`] per frame id:
//!
//! ```text
//! FileNames
//! 1 "jax/_src/foo.py"
//!
//! FunctionNames
//! 1 "f"
//!
//! FileLocations
//! 1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=2 end_column=9}
//!
//! StackFrames
//! 1 {file_location_id=1 parent_frame_id=1}
//! ```
//!
//! Entries are numbered from 1 in order (XLA numbers them by position; a
//! number out of sequence is rejected here rather than silently ignored).
//! `parent_frame_id` is the parent's id plus one, so 1 means "no parent".

use super::{error_at, Parser};
use crate::ast::StackFrame;
use crate::lexer::{unescape, Result, Tok, Token};

const LOCATION_KEYS: [&str; 6] = ["file_name_id", "function_name_id", "line", "end_line", "column", "end_column"];
const FRAME_KEYS: [&str; 2] = ["file_location_id", "parent_frame_id"];

impl<'a> Parser<'a> {
    pub(crate) fn stack_frames(&mut self) -> Result<Vec<StackFrame>> {
        self.bump()?; // FileNames
        let files = self.numbered_strings()?;
        self.section("FunctionNames")?;
        let functions = self.numbered_strings()?;
        self.section("FileLocations")?;
        let locations = self.numbered_entries(&LOCATION_KEYS)?;
        self.section("StackFrames")?;
        let frames = self.numbered_entries(&FRAME_KEYS)?;

        let mut resolved = Vec::with_capacity(frames.len());
        for (i, frame) in frames.iter().enumerate() {
            let loc = &locations[lookup(&frame[0], locations.len(), "file location")?];
            let parent = frame[1].1 - 1;
            if parent < 0 || parent as usize > frames.len() {
                return Err(error_at(&frame[1].0, "parent_frame_id refers to no stack frame"));
            }
            resolved.push(StackFrame {
                id: i as i64 + 1,
                file: files[lookup(&loc[0], files.len(), "file name")?].clone(),
                function: functions[lookup(&loc[1], functions.len(), "function name")?].clone(),
                line: loc[2].1,
                end_line: loc[3].1,
                column: loc[4].1,
                end_column: loc[5].1,
                parent_id: parent,
            });
        }
        Ok(resolved)
    }

    fn section(&mut self, keyword: &str) -> Result<()> {
        let tok = self.peek()?;
        if !tok.is_ident(keyword) {
            return Err(error_at(&tok, &format!("expects the '{keyword}' section")));
        }
        self.bump()?;
        Ok(())
    }

    /// The entry number, which must be `expected`.
    fn entry_number(&mut self, expected: usize) -> Result<()> {
        let tok = self.bump()?;
        if self.int_value(&tok)? != expected as i64 {
            return Err(error_at(&tok, &format!("expects entry number {expected}")));
        }
        Ok(())
    }

    /// `(int string)*`
    fn numbered_strings(&mut self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        while self.at_kind(Tok::Int)? {
            self.entry_number(out.len() + 1)?;
            let tok = self.expect(Tok::Str, "expects a quoted string")?;
            out.push(string_value(&tok)?);
        }
        Ok(out)
    }

    /// `(int '{' key=int ... '}')*` with exactly the keys `keys`, returned in
    /// the order of `keys` with the value tokens (for error positions).
    fn numbered_entries(&mut self, keys: &[&str]) -> Result<Vec<Vec<(Token<'a>, i64)>>> {
        let mut out = Vec::new();
        while self.at_kind(Tok::Int)? {
            self.entry_number(out.len() + 1)?;
            self.expect(Tok::LBrace, "expects '{' to start the entry")?;
            let mut values: Vec<Option<(Token<'a>, i64)>> = vec![None; keys.len()];
            while !self.at_kind(Tok::RBrace)? {
                self.eat(Tok::Comma)?;
                let key = self.expect(Tok::Ident, "expects a key")?;
                let Some(slot) = keys.iter().position(|k| *k == key.text) else {
                    return Err(error_at(&key, &format!("unknown key '{}'", key.text)));
                };
                if values[slot].is_some() {
                    return Err(error_at(&key, &format!("key '{}' given twice", key.text)));
                }
                self.expect(Tok::Equal, "expects '=' after the key")?;
                let tok = self.expect(Tok::Int, "expects an integer")?;
                values[slot] = Some((tok, self.int_value(&tok)?));
            }
            if let Some(missing) = values.iter().position(Option::is_none) {
                return Err(self.error(&format!("entry lacks '{}='", keys[missing])));
            }
            self.bump()?; // '}'
            out.push(values.into_iter().flatten().collect());
        }
        Ok(out)
    }
}

/// Checks a 1-based reference into a table of `len` entries.
fn lookup(value: &(Token<'_>, i64), len: usize, what: &str) -> Result<usize> {
    let id = value.1;
    if id < 1 || id as u64 > len as u64 {
        return Err(error_at(&value.0, &format!("no {what} has id {id}")));
    }
    Ok(id as usize - 1)
}

/// The unescaped contents of a string token.
pub(crate) fn string_value(tok: &Token<'_>) -> Result<String> {
    let inner = &tok.text[1..tok.text.len() - 1];
    unescape(inner).map_err(|(_, why)| error_at(tok, why))
}
