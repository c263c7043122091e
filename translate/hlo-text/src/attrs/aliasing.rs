//! Buffer aliasing and the entry layout: `output_to_operand_aliasing`
//! (fusions, custom calls, async starts), and the module header's
//! `input_output_alias`, `buffer_donor` and `entry_computation_layout`.

use super::{int_list, list, read, BRACES};
use crate::ast::{AttrValue, Shape};
use crate::lexer::{Result, Tok};
use crate::parser::{error_at, Parser};

/// `{output_index}: (operand, {operand_index})`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputOperandAlias {
    pub output_index: Vec<i64>,
    pub operand: i64,
    pub operand_index: Vec<i64>,
}

/// `{{0}: (0, {}), {1}: (1, {})}`
pub fn output_to_operand_aliasing(v: &AttrValue) -> Result<Vec<OutputOperandAlias>> {
    read(v, |p| {
        list(p, BRACES, "output-to-operand aliasing", |p| {
            let output_index = int_list(p)?;
            p.expect(Tok::Colon, "expects ':' after the output index")?;
            p.expect(Tok::LParen, "expects '(' before the operand")?;
            let operand = p.int("expects the operand number")?;
            p.expect(Tok::Comma, "expects ',' after the operand number")?;
            let operand_index = int_list(p)?;
            p.expect(Tok::RParen, "expects ')' after the operand index")?;
            Ok(OutputOperandAlias { output_index, operand, operand_index })
        })
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasKind {
    MayAlias,
    MustAlias,
}

/// `{output_index}: (parameter, {parameter_index}, may-alias)`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputOutputAlias {
    pub output_index: Vec<i64>,
    pub parameter: i64,
    pub parameter_index: Vec<i64>,
    /// `may-alias` when the text omits it.
    pub kind: AliasKind,
}

/// `{ {0}: (0, {}, may-alias), {1}: (1, {}) }`
pub fn input_output_alias(v: &AttrValue) -> Result<Vec<InputOutputAlias>> {
    read(v, |p| {
        list(p, BRACES, "input-output aliasing", |p| {
            let output_index = int_list(p)?;
            p.expect(Tok::Colon, "expects ':' after the output index")?;
            p.expect(Tok::LParen, "expects '(' before the parameter")?;
            let parameter = p.int("expects the parameter number")?;
            p.expect(Tok::Comma, "expects ',' after the parameter number")?;
            let parameter_index = int_list(p)?;
            let mut kind = AliasKind::MayAlias;
            if p.eat(Tok::Comma)? {
                let tok = p.peek()?;
                kind = match tok.text {
                    "may-alias" if tok.is(Tok::Ident) => AliasKind::MayAlias,
                    "must-alias" if tok.is(Tok::Ident) => AliasKind::MustAlias,
                    _ => return Err(error_at(&tok, "expects may-alias or must-alias")),
                };
                p.bump()?;
            }
            p.expect(Tok::RParen, "expects ')' after the alias")?;
            Ok(InputOutputAlias { output_index, parameter, parameter_index, kind })
        })
    })
}

/// `(parameter, {index})`: a parameter buffer the module may reuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferDonor {
    pub parameter: i64,
    pub index: Vec<i64>,
}

/// `{ (0, {}), (1, {0}) }`
pub fn buffer_donor(v: &AttrValue) -> Result<Vec<BufferDonor>> {
    read(v, |p| {
        list(p, BRACES, "buffer donors", |p| {
            p.expect(Tok::LParen, "expects '(' before the parameter")?;
            let parameter = p.int("expects the parameter number")?;
            p.expect(Tok::Comma, "expects ',' after the parameter number")?;
            let index = int_list(p)?;
            p.expect(Tok::RParen, "expects ')' after the index")?;
            Ok(BufferDonor { parameter, index })
        })
    })
}

/// The entry computation's parameter and result shapes with layouts.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputationLayout {
    pub params: Vec<Shape>,
    pub result: Shape,
}

/// `{(f32[2]{0}, s32[])->f32[2]{0}}`
pub fn entry_computation_layout(v: &AttrValue) -> Result<ComputationLayout> {
    read(v, |p: &mut Parser<'_>| {
        p.expect(Tok::LBrace, "expects '{' to start the computation layout")?;
        let params = list(p, [Tok::LParen, Tok::Comma, Tok::RParen], "the parameter shapes", |p| p.shape())?;
        p.expect(Tok::Arrow, "expects '->' before the result shape")?;
        let result = p.shape()?;
        p.expect(Tok::RBrace, "expects '}' at the end of the computation layout")?;
        Ok(ComputationLayout { params, result })
    })
}
