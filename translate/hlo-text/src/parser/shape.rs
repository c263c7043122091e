//! Shapes and layouts.
//!
//! ```text
//! shape  ::= '(' (shape (',' shape)*)? ')'
//!          | type '[' (dim (',' dim)*)? ']' layout?
//! dim    ::= int | '<=' int | '?'
//! layout ::= '{' (int (',' int)*)? (':' item*)? '}'
//! item   ::= 'T' ('(' (int|'*') (',' (int|'*'))* ')')+ | 'E(' int ')' | 'S(' int ')'
//!          | ('D' | 'L' | '#' | '*' | 'SC' | 'P' | 'M') ('(' ... ')')+
//! ```
//!
//! A `{` after a shape opens a layout only when an integer or `:` follows,
//! which is how XLA tells `-> f32[2] {` (a computation body) from
//! `f32[2]{0}`. Layout items must come in XLA's printing order so that the
//! ones kept verbatim print back in place.

use super::{error_at, Parser};
use crate::ast::{Dim, Layout, PrimitiveType, Shape};
use crate::lexer::{Result, Tok};

/// The order XLA prints (and requires) layout items in.
const ITEM_ORDER: [&str; 10] = ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M"];

/// Rank of a layout item head in [`ITEM_ORDER`].
pub(crate) fn item_rank(head: &str) -> Option<usize> {
    ITEM_ORDER.iter().position(|h| *h == head)
}

/// The primitive type spelled `name`, without scanning [`PrimitiveType::ALL`].
pub(crate) fn primitive_type(name: &str) -> Option<PrimitiveType> {
    use PrimitiveType::*;
    Some(match name {
        "pred" => Pred,
        "s1" => S1,
        "s2" => S2,
        "s4" => S4,
        "s8" => S8,
        "s16" => S16,
        "s32" => S32,
        "s64" => S64,
        "u1" => U1,
        "u2" => U2,
        "u4" => U4,
        "u8" => U8,
        "u16" => U16,
        "u32" => U32,
        "u64" => U64,
        "f16" => F16,
        "bf16" => Bf16,
        "f32" => F32,
        "f64" => F64,
        "c64" => C64,
        "c128" => C128,
        "token" => Token,
        "opaque" => Opaque,
        _ => return PrimitiveType::from_name(name),
    })
}

impl<'a> Parser<'a> {
    /// Whether the next token starts a shape: `(`, a primitive type, or an
    /// identifier followed by `[` (reported as an unknown type).
    pub(crate) fn at_shape(&mut self) -> Result<bool> {
        let tok = self.peek()?;
        Ok(match tok.kind {
            Tok::LParen => true,
            Tok::Ident => primitive_type(tok.text).is_some() || self.peek2()?.is(Tok::LSquare),
            _ => false,
        })
    }

    pub(crate) fn shape(&mut self) -> Result<Shape> {
        self.enter()?;
        let tok = self.peek()?;
        let shape = match tok.kind {
            Tok::LParen => {
                self.bump()?;
                let mut elements = Vec::new();
                if !self.at_kind(Tok::RParen)? {
                    loop {
                        elements.push(self.shape()?);
                        if !self.eat(Tok::Comma)? {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "expects ')' at the end of the tuple shape")?;
                Shape::Tuple(elements)
            }
            Tok::Ident => self.array_shape()?,
            _ => return Err(error_at(&tok, "expects a shape")),
        };
        self.leave();
        Ok(shape)
    }

    fn array_shape(&mut self) -> Result<Shape> {
        let tok = self.bump()?;
        let Some(element) = primitive_type(tok.text) else {
            return Err(error_at(&tok, &format!("unknown primitive type '{}'", tok.text)));
        };
        self.expect(Tok::LSquare, "expects '[' after the element type")?;
        let mut dims = Vec::new();
        if !self.at_kind(Tok::RSquare)? {
            loop {
                dims.push(self.dim()?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RSquare, "expects ']' at the end of the dimensions")?;
        if matches!(element, PrimitiveType::Token | PrimitiveType::Opaque) {
            if !dims.is_empty() {
                return Err(error_at(&tok, &format!("{}[] has no dimensions", tok.text)));
            }
            return Ok(if element == PrimitiveType::Token { Shape::Token } else { Shape::Opaque });
        }
        let mut layout = None;
        if self.at_kind(Tok::LBrace)? && matches!(self.peek2()?.kind, Tok::Int | Tok::Colon) {
            let open = self.peek()?;
            let l = self.layout()?;
            if l.minor_to_major.len() != dims.len() {
                return Err(error_at(
                    &open,
                    &format!(
                        "layout has {} minor-to-major entries for a shape of rank {}",
                        l.minor_to_major.len(),
                        dims.len()
                    ),
                ));
            }
            layout = Some(l);
        }
        Ok(Shape::Array { element, dims, layout })
    }

    fn dim(&mut self) -> Result<Dim> {
        if self.eat(Tok::Question)? {
            return Ok(Dim::Unbounded);
        }
        let bounded = self.eat(Tok::Leq)?;
        let tok = self.expect(Tok::Int, "expects a dimension size")?;
        let size = self.int_value(&tok)?;
        if size < 0 {
            return Err(error_at(&tok, "dimension sizes are not negative"));
        }
        Ok(if bounded { Dim::Bounded(size) } else { Dim::Static(size) })
    }

    /// The value of an `Int` token; fails on overflow.
    pub(crate) fn int_value(&self, tok: &crate::lexer::Token<'_>) -> Result<i64> {
        parse_int(tok.text).ok_or_else(|| error_at(tok, "integer out of range"))
    }

    pub(crate) fn int(&mut self, message: &str) -> Result<i64> {
        let tok = self.expect(Tok::Int, message)?;
        self.int_value(&tok)
    }

    fn layout(&mut self) -> Result<Layout> {
        self.bump()?; // '{'
        let mut layout = Layout::default();
        if self.at_kind(Tok::Int)? {
            loop {
                layout.minor_to_major.push(self.int("expects a dimension number")?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        if self.eat(Tok::Colon)? {
            let mut last: Option<usize> = None;
            loop {
                let head = self.peek()?;
                if !matches!(head.kind, Tok::Ident | Tok::Hash | Tok::Star) {
                    break;
                }
                let Some(rank) = item_rank(head.text) else {
                    return Err(error_at(&head, &format!("unknown layout item '{}'", head.text)));
                };
                if last.is_some_and(|l| l >= rank) {
                    return Err(error_at(
                        &head,
                        "layout item repeated or out of order (XLA writes D, T, L, #, *, E, S, SC, P, M)",
                    ));
                }
                last = Some(rank);
                self.bump()?;
                match head.text {
                    "T" => layout.tiles = self.tiles()?,
                    "E" => layout.element_size_in_bits = Some(self.paren_int()?),
                    "S" => layout.memory_space = Some(self.paren_int()?),
                    _ => {
                        let end = self.paren_groups()?;
                        layout.other.push(self.lexer.src()[head.start..end].to_string());
                    }
                }
            }
        }
        self.expect(Tok::RBrace, "expects '}' at the end of the layout")?;
        Ok(layout)
    }

    /// `('(' (int|'*') (',' (int|'*'))* ')')+` after `T`.
    fn tiles(&mut self) -> Result<Vec<Vec<i64>>> {
        let mut tiles = Vec::new();
        loop {
            self.expect(Tok::LParen, "expects '(' to start a tile")?;
            let mut tile = Vec::new();
            if !self.at_kind(Tok::RParen)? {
                loop {
                    if self.eat(Tok::Star)? {
                        tile.push(-1);
                    } else {
                        tile.push(self.int("expects a tile dimension or '*'")?);
                    }
                    if !self.eat(Tok::Comma)? {
                        break;
                    }
                }
            }
            self.expect(Tok::RParen, "expects ')' at the end of the tile")?;
            tiles.push(tile);
            if !self.at_kind(Tok::LParen)? {
                return Ok(tiles);
            }
        }
    }

    /// `'(' int ')'` after `E` or `S`.
    fn paren_int(&mut self) -> Result<i64> {
        self.expect(Tok::LParen, "expects '('")?;
        let n = self.int("expects an integer")?;
        self.expect(Tok::RParen, "expects ')'")?;
        Ok(n)
    }

    /// One or more balanced `( ... )` groups, skipped; returns the byte
    /// offset just past the last `)`.
    fn paren_groups(&mut self) -> Result<usize> {
        let mut end;
        loop {
            let open = self.expect(Tok::LParen, "expects '(' after the layout item")?;
            let mut depth = 1usize;
            loop {
                let tok = self.bump()?;
                match tok.kind {
                    Tok::LParen | Tok::LBrace | Tok::LSquare => depth += 1,
                    Tok::RParen | Tok::RBrace | Tok::RSquare => depth -= 1,
                    Tok::Eof => return Err(error_at(&open, "unbalanced '(' in the layout")),
                    _ => {}
                }
                if depth == 0 {
                    if !tok.is(Tok::RParen) {
                        return Err(error_at(&tok, "mismatched bracket in the layout"));
                    }
                    end = tok.end();
                    break;
                }
            }
            if !self.at_kind(Tok::LParen)? {
                return Ok(end);
            }
        }
    }
}

/// An `Int` token's value: decimal (with optional `-`) or `0x` hex.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    if neg {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}
