//! Typed readers for attribute values.
//!
//! The parser keeps every attribute value as source text ([`AttrValue`]);
//! these functions interpret one by what its keyword means, each
//! `fn(&AttrValue) -> Result<T, ParseError>`, with errors located inside the
//! value. [`check_module`] runs the reader that applies to every attribute
//! keyword it knows, which is how the tests prove every real value readable.
//!
//! | reader | syntax |
//! |---|---|
//! | [`integer`], [`float`], [`boolean`], [`string`], [`enum_word`] | `3`, `1e-5`, `true`, `"s"`, `kLoop` |
//! | [`dims`], [`int_lists`], [`bool_list`] | `{1,0}`, `{{0,1},{2,3}}`, `{true,false}` or `true` |
//! | [`computation`], [`computation_list`], [`instruction_names`] | `%c`, `{%a, %b}` |
//! | [`shape`], [`shape_list`] | `f32[2]{0}`, `{f32[2]{0}, s32[]}` |
//! | [`slice()`], [`padding`], [`window`], [`conv_dim_labels`] | see [`SliceDim`], [`PaddingDim`], [`WindowDim`], [`ConvDimensionNumbers`] |
//! | [`replica_groups`], [`source_target_pairs`] | `{{0,1},{2,3}}`, `[2,4]<=[4,2]T(1,0)`, `{{0,1},{1,0}}` |
//! | [`precision_list`], [`result_accuracy`] | `{highest,default}`, `{tolerance={atol=1e-5}}` |
//! | [`metadata`], [`frontend_attributes`], [`backend_config`] | `{op_name="a" source_line=3}`, `{k="v"}`, `"..."` or `{json}` |
//! | [`sharding()`] | `{devices=[2,1]<=[2]}`, see [`Sharding`] |
//! | [`output_to_operand_aliasing`], [`input_output_alias`], [`buffer_donor`], [`entry_computation_layout`] | module and fusion aliasing, `{(f32[2]{0})->f32[]}` |

mod aliasing;
mod annotations;
mod check;
mod collective;
mod sharding;
mod window;

pub use aliasing::*;
pub use annotations::*;
pub use check::{check_module, CheckReport};
pub use collective::*;
pub use sharding::*;
pub use window::*;

use crate::ast::{AttrValue, Shape};
use crate::error::ParseError;
use crate::lexer::{pos_in, Result, Tok};
use crate::parser::{error_at, parse_int, string_value, Parser};

/// Runs `read` over the value's tokens and requires it to consume them all.
fn read<'v, T>(v: &'v AttrValue, read: impl FnOnce(&mut Parser<'v>) -> Result<T>) -> Result<T> {
    let mut p = Parser::at(&v.text, v.pos);
    let out = read(&mut p)?;
    p.expect_end("the attribute value")?;
    Ok(out)
}

fn symbol(kind: Tok) -> &'static str {
    match kind {
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LSquare => "[",
        Tok::RSquare => "]",
        Tok::Colon => ":",
        _ => ",",
    }
}

/// The `T(perm)` after an iota's reshape dims (`<=[..]T(..)` in shardings
/// and replica groups): a permutation of the `rank` dims, implied for one
/// dim. `dims` names the dims and `transpose` the list in errors.
fn iota_transpose(p: &mut Parser<'_>, rank: usize, dims: &str, transpose: &str) -> Result<Vec<i64>> {
    if p.peek()?.is_ident("T") {
        p.bump()?;
        let perm_tok = p.peek()?;
        let perm = list(p, [Tok::LParen, Tok::Comma, Tok::RParen], transpose, |p| p.int("expects an integer"))?;
        if !is_permutation(&perm, rank) {
            return Err(error_at(&perm_tok, &format!("expects a permutation of the {dims}")));
        }
        Ok(perm)
    } else if rank == 1 {
        Ok(vec![0])
    } else {
        Err(p.error(&format!("expects T(...) after several {dims}")))
    }
}

/// Whether `values` are 0..n, each once, in some order.
fn is_permutation(values: &[i64], n: usize) -> bool {
    let mut seen = vec![false; n];
    values.len() == n
        && values.iter().all(|&v| (0..n as i64).contains(&v) && !std::mem::replace(&mut seen[v as usize], true))
}

/// `open (item (delim item)*)? close`
fn list<'v, T>(
    p: &mut Parser<'v>,
    [open, delim, close]: [Tok; 3],
    what: &str,
    mut item: impl FnMut(&mut Parser<'v>) -> Result<T>,
) -> Result<Vec<T>> {
    p.expect(open, &format!("expects '{}' to start {what}", symbol(open)))?;
    let mut out = Vec::new();
    if !p.at_kind(close)? {
        loop {
            out.push(item(p)?);
            if !p.eat(delim)? {
                break;
            }
        }
    }
    p.expect(close, &format!("expects '{}' or '{}' in {what}", symbol(delim), symbol(close)))?;
    Ok(out)
}

const BRACES: [Tok; 3] = [Tok::LBrace, Tok::Comma, Tok::RBrace];

fn int_list(p: &mut Parser<'_>) -> Result<Vec<i64>> {
    list(p, BRACES, "a list of integers", |p| p.int("expects an integer"))
}

fn string_token(p: &mut Parser<'_>) -> Result<String> {
    let tok = p.expect(Tok::Str, "expects a quoted string")?;
    string_value(&tok)
}

fn bool_token(p: &mut Parser<'_>) -> Result<bool> {
    let tok = p.peek()?;
    match tok.text {
        "true" if tok.is(Tok::Ident) => {}
        "false" if tok.is(Tok::Ident) => {}
        _ => return Err(error_at(&tok, "expects true or false")),
    }
    p.bump()?;
    Ok(tok.text == "true")
}

fn float_token(p: &mut Parser<'_>) -> Result<f64> {
    let tok = p.peek()?;
    if !matches!(tok.kind, Tok::Int | Tok::Float) {
        return Err(error_at(&tok, "expects a number"));
    }
    p.bump()?;
    let value = if tok.is(Tok::Int) { parse_int(tok.text).map(|i| i as f64) } else { tok.text.parse::<f64>().ok() };
    value.ok_or_else(|| error_at(&tok, "unsupported number syntax"))
}

/// A balanced `{...}`/`(...)`/`[...]` group, returned as source text.
fn raw_group<'v>(p: &mut Parser<'v>) -> Result<&'v str> {
    let open = p.bump()?;
    let mut depth = 1usize;
    loop {
        let tok = p.bump()?;
        match tok.kind {
            Tok::LBrace | Tok::LParen | Tok::LSquare => depth += 1,
            Tok::RBrace | Tok::RParen | Tok::RSquare => depth -= 1,
            Tok::Eof => return Err(error_at(&open, "unbalanced bracket")),
            _ => {}
        }
        if depth == 0 {
            return Ok(&p.source()[open.start..tok.end()]);
        }
    }
}

/// `3`, `-1`, `0x10`.
pub fn integer(v: &AttrValue) -> Result<i64> {
    read(v, |p| p.int("expects an integer"))
}

/// `1e-05`, `0.5`, `3`, `inf`.
pub fn float(v: &AttrValue) -> Result<f64> {
    read(v, float_token)
}

/// `true` or `false`.
pub fn boolean(v: &AttrValue) -> Result<bool> {
    read(v, bool_token)
}

/// `true`, or a braced list `{true,false}` (one entry per tuple leaf).
pub fn bool_list(v: &AttrValue) -> Result<Vec<bool>> {
    read(v, |p| {
        if p.at_kind(Tok::LBrace)? {
            list(p, BRACES, "a list of booleans", bool_token)
        } else {
            Ok(vec![bool_token(p)?])
        }
    })
}

/// A quoted string, unescaped: `"main"`.
pub fn string(v: &AttrValue) -> Result<String> {
    read(v, string_token)
}

/// One identifier: `kLoop`, `LT`, `FFT`, `rng_default`.
pub fn enum_word(v: &AttrValue) -> Result<String> {
    read(v, |p| Ok(p.expect(Tok::Ident, "expects a word")?.text.to_string()))
}

/// `{1,0}` or `{}`.
pub fn dims(v: &AttrValue) -> Result<Vec<i64>> {
    read(v, int_list)
}

/// `{{0,1},{2,3}}` or `{}`.
pub fn int_lists(v: &AttrValue) -> Result<Vec<Vec<i64>>> {
    read(v, |p| list(p, BRACES, "a list of integer lists", int_list))
}

/// `%name` or `name`, returned without `%`.
pub fn computation(v: &AttrValue) -> Result<String> {
    read(v, |p| {
        if p.at_kind(Tok::LBrace)? {
            return Err(p.error("inline computations are not supported; name a computation"));
        }
        Ok(p.name("a computation name")?.0)
    })
}

/// `{%a, %b}` or `{}`.
pub fn computation_list(v: &AttrValue) -> Result<Vec<String>> {
    read(v, |p| list(p, BRACES, "a list of computations", |p| Ok(p.name("a computation name")?.0)))
}

/// `{%a, %b}`: instruction names, as in `control-predecessors`.
pub fn instruction_names(v: &AttrValue) -> Result<Vec<String>> {
    read(v, |p| list(p, BRACES, "a list of instructions", |p| Ok(p.name("an instruction name")?.0)))
}

/// A shape, as in `outfeed_shape=(f32[2]{0}, token[])`.
pub fn shape(v: &AttrValue) -> Result<Shape> {
    read(v, |p| p.shape())
}

/// `{f32[2]{0}, s32[]}`, as in `operand_layout_constraints`.
pub fn shape_list(v: &AttrValue) -> Result<Vec<Shape>> {
    read(v, |p| list(p, BRACES, "a list of shapes", |p| p.shape()))
}

/// Character-level scanning for the pattern values (`3x3`, `0_1x1_0`,
/// `b01f_01io->b01f`) that are not token sequences.
struct Scan<'v> {
    v: &'v AttrValue,
    s: &'v [u8],
    i: usize,
}

impl<'v> Scan<'v> {
    fn new(v: &'v AttrValue) -> Self {
        Scan { v, s: v.text.as_bytes(), i: 0 }
    }

    fn error_at(&self, at: usize, message: &str) -> ParseError {
        let at = at.min(self.s.len());
        let text = &self.v.text[at..];
        let len = text.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')).count();
        let len = if len == 0 { text.chars().next().map_or(0, char::len_utf8) } else { len };
        ParseError::new(pos_in(&self.v.text, self.v.pos, at), message, &text[..len])
    }

    /// An error whose token is the single character at `at`.
    fn error_char(&self, at: usize, message: &str) -> ParseError {
        let at = at.min(self.s.len());
        let len = self.v.text[at..].chars().next().map_or(0, char::len_utf8);
        ParseError::new(pos_in(&self.v.text, self.v.pos, at), message, &self.v.text[at..at + len])
    }

    fn error(&self, message: &str) -> ParseError {
        self.error_at(self.i, message)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            return true;
        }
        false
    }

    fn expect(&mut self, c: u8, message: &str) -> Result<()> {
        if !self.eat(c) {
            return Err(self.error(message));
        }
        Ok(())
    }

    /// Skips blanks and comments.
    fn skip_blank(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'*') => match self.v.text[self.i + 2..].find("*/") {
                    Some(end) => self.i += end + 4,
                    None => return,
                },
                _ => return,
            }
        }
    }

    /// `-?[0-9]+`
    fn int(&mut self) -> Result<i64> {
        let start = self.i;
        self.eat(b'-');
        let digits = self.s[self.i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(self.error_at(start, "expects an integer"));
        }
        self.i += digits;
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(parse_int)
            .ok_or_else(|| self.error_at(start, "integer out of range"))
    }

    /// `[a-z_]+`
    fn word(&mut self) -> &'v str {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_lowercase() || b == b'_') {
            self.i += 1;
        }
        &self.v.text[start..self.i]
    }

    fn end(&mut self) -> Result<()> {
        self.skip_blank();
        if self.i < self.s.len() {
            return Err(self.error("unexpected text after the attribute value"));
        }
        Ok(())
    }
}
