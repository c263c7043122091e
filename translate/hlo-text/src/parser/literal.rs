//! `constant(...)` literals, read with the instruction's shape as a guide
//! the way XLA reads them: the shape says whether `(1, 2)` is a tuple or a
//! complex number, how deep the braces nest and how many elements each level
//! holds.
//!
//! ```text
//! literal ::= '{' '...' '}'                       (elided: any shape)
//!           | '(' (literal (',' literal)*)? ')'   (tuple shape)
//!           | dense
//! dense   ::= element                             (rank 0)
//!           | '{' (dense (',' dense)*)? '}'       (rank > 0, one level per dim)
//! element ::= int | float | 'true' | 'false' | '(' real ',' imag ')'
//! ```
//!
//! Elements keep their source text; checking that values fit the type is the
//! importer's job.

use super::{error_at, Parser};
use crate::ast::{Dim, Literal, LiteralArray, PrimitiveType, Shape};
use crate::lexer::{Result, Tok};

impl<'a> Parser<'a> {
    pub(crate) fn literal(&mut self, shape: &Shape) -> Result<Literal> {
        if self.at_kind(Tok::LBrace)? && self.peek2()?.is(Tok::Dots) {
            self.bump()?;
            self.bump()?;
            self.expect(Tok::RBrace, "expects '}' after '{...'")?;
            return Ok(Literal::Array(LiteralArray::Nested(vec![LiteralArray::Element("...".into())])));
        }
        self.enter()?;
        let literal = match shape {
            Shape::Tuple(elements) => Literal::Tuple(self.tuple_literal(elements)?),
            Shape::Token | Shape::Opaque => return Err(self.error("a constant cannot have a token or opaque shape")),
            Shape::Array { element, dims, .. } => Literal::Array(self.dense(*element, dims)?),
        };
        self.leave();
        Ok(literal)
    }

    fn tuple_literal(&mut self, shapes: &[Shape]) -> Result<Vec<Literal>> {
        self.expect(Tok::LParen, "expects '(' to start a tuple literal")?;
        let mut elements = Vec::with_capacity(shapes.len());
        if !self.at_kind(Tok::RParen)? {
            for (i, shape) in shapes.iter().enumerate() {
                if i > 0 {
                    self.expect(Tok::Comma, "expects ',' between tuple elements")?;
                }
                elements.push(self.literal(shape)?);
            }
        }
        if elements.len() != shapes.len() {
            return Err(self.error(&format!("expects {} tuple elements, sees {}", shapes.len(), elements.len())));
        }
        self.expect(Tok::RParen, "expects ')' at the end of the tuple literal")?;
        Ok(elements)
    }

    /// The array for the dimensions `dims` (one brace level per dimension).
    fn dense(&mut self, ty: PrimitiveType, dims: &[Dim]) -> Result<LiteralArray> {
        let Some((first, rest)) = dims.split_first() else {
            return self.element(ty).map(LiteralArray::Element);
        };
        self.enter()?;
        self.expect(Tok::LBrace, &format!("expects '{{' to start a rank-{} array", dims.len()))?;
        let mut children = Vec::new();
        if !self.at_kind(Tok::RBrace)? {
            loop {
                children.push(self.dense(ty, rest)?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        if let Dim::Static(n) = first {
            if children.len() as u64 != *n as u64 {
                return Err(self.error(&format!("expects {n} elements, sees {}", children.len())));
            }
        }
        self.expect(Tok::RBrace, "expects ',' or '}' in the array literal")?;
        self.leave();
        Ok(LiteralArray::Nested(children))
    }

    fn element(&mut self, ty: PrimitiveType) -> Result<String> {
        let tok = self.peek()?;
        let ok = match tok.kind {
            Tok::Int => !ty.is_complex(),
            Tok::Float => ty.is_floating_point(),
            Tok::Ident => ty == PrimitiveType::Pred && matches!(tok.text, "true" | "false"),
            Tok::LParen if ty.is_complex() => return self.complex(),
            _ => false,
        };
        if !ok {
            return Err(error_at(&tok, &format!("expects a {} literal element", ty.name())));
        }
        self.bump()?;
        Ok(tok.text.to_string())
    }

    /// `(real, imag)`, normalised to `(real, imag)` with one space.
    fn complex(&mut self) -> Result<String> {
        self.bump()?;
        let re = self.real_part("expects the real part of a complex number")?;
        self.expect(Tok::Comma, "expects ',' between the real and imaginary parts")?;
        let im = self.real_part("expects the imaginary part of a complex number")?;
        self.expect(Tok::RParen, "expects ')' after the complex number")?;
        Ok(format!("({re}, {im})"))
    }

    fn real_part(&mut self, message: &str) -> Result<&'a str> {
        let tok = self.peek()?;
        if !matches!(tok.kind, Tok::Int | Tok::Float) {
            return Err(error_at(&tok, message));
        }
        self.bump()?;
        Ok(tok.text)
    }
}
