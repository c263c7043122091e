//! Attributes that annotate rather than define an instruction: `metadata`,
//! `frontend_attributes`, `backend_config`; and the numerics
//! hints `operand_precision` and `result_accuracy`.

use super::{float_token, list, raw_group, read, string_token, BRACES};
use crate::ast::AttrValue;
use crate::lexer::{Result, Tok};
use crate::parser::{error_at, Parser};

/// `metadata={...}`: the known OpMetadata fields, and any other `key=value`
/// kept as (key, value source text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub op_type: Option<String>,
    pub op_name: Option<String>,
    pub source_file: Option<String>,
    pub source_line: Option<i64>,
    pub source_end_line: Option<i64>,
    pub source_column: Option<i64>,
    pub source_end_column: Option<i64>,
    pub stack_frame_id: Option<i64>,
    pub profile_type: Vec<i64>,
    pub deduplicated_name: Option<String>,
    pub scheduling_name: Option<String>,
    pub unknown: Vec<(String, String)>,
}

/// `{op_type="add" op_name="jit(f)/add" source_file="f.py" source_line=3}`:
/// space- (or comma-) separated `key=value`, each key at most once.
pub fn metadata(v: &AttrValue) -> Result<Metadata> {
    read(v, |p| {
        let mut m = Metadata::default();
        let mut seen = std::collections::HashSet::new();
        p.expect(Tok::LBrace, "expects '{' to start the metadata")?;
        while !p.at_kind(Tok::RBrace)? {
            p.eat(Tok::Comma)?;
            let key = p.expect(Tok::Ident, "expects a metadata key")?;
            if !seen.insert(key.text) {
                return Err(error_at(&key, &format!("metadata key '{}' given twice", key.text)));
            }
            p.expect(Tok::Equal, "expects '=' after the metadata key")?;
            let text = |slot: &mut Option<String>, p: &mut Parser<'_>| -> Result<()> {
                *slot = Some(string_token(p)?);
                Ok(())
            };
            let int = |slot: &mut Option<i64>, p: &mut Parser<'_>| -> Result<()> {
                *slot = Some(p.int("expects an integer")?);
                Ok(())
            };
            match key.text {
                "op_type" => text(&mut m.op_type, p)?,
                "op_name" => text(&mut m.op_name, p)?,
                "source_file" => text(&mut m.source_file, p)?,
                "deduplicated_name" => text(&mut m.deduplicated_name, p)?,
                "scheduling_name" => text(&mut m.scheduling_name, p)?,
                "source_line" => int(&mut m.source_line, p)?,
                "source_end_line" => int(&mut m.source_end_line, p)?,
                "source_column" => int(&mut m.source_column, p)?,
                "source_end_column" => int(&mut m.source_end_column, p)?,
                "stack_frame_id" => int(&mut m.stack_frame_id, p)?,
                "profile_type" => m.profile_type = super::int_list(p)?,
                other => {
                    let value = any_value(p)?;
                    m.unknown.push((other.to_string(), value.to_string()));
                }
            }
        }
        p.bump()?; // '}'
        Ok(m)
    })
}

/// One value of unknown meaning: a token, or a bracketed group.
fn any_value<'v>(p: &mut Parser<'v>) -> Result<&'v str> {
    let tok = p.peek()?;
    match tok.kind {
        Tok::LBrace | Tok::LParen | Tok::LSquare => raw_group(p),
        Tok::Str | Tok::Int | Tok::Float | Tok::Ident | Tok::Name => {
            p.bump()?;
            Ok(tok.text)
        }
        _ => Err(error_at(&tok, "expects a value")),
    }
}

/// `{key="value", key2={"json":1}}`: string values unescaped, JSON
/// dictionaries kept as their text.
pub fn frontend_attributes(v: &AttrValue) -> Result<Vec<(String, String)>> {
    read(v, |p| {
        list(p, BRACES, "frontend attributes", |p| {
            let key = p.expect(Tok::Ident, "expects an attribute key")?;
            p.expect(Tok::Equal, "expects '=' after the key")?;
            Ok((key.text.to_string(), string_or_json(p)?))
        })
    })
}

fn string_or_json(p: &mut Parser<'_>) -> Result<String> {
    let tok = p.peek()?;
    match tok.kind {
        Tok::Str => string_token(p),
        Tok::LBrace => Ok(raw_group(p)?.to_string()),
        _ => Err(error_at(&tok, "expects a quoted string or a {JSON} dictionary")),
    }
}

/// `backend_config="..."` (unescaped) or `backend_config={"json":...}` (the
/// dictionary's text).
pub fn backend_config(v: &AttrValue) -> Result<String> {
    read(v, string_or_json)
}

/// An operand precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Default,
    High,
    Highest,
    PackedNibble,
}

/// `{highest,default}` (XLA prints lower case; any case is accepted).
pub fn precision_list(v: &AttrValue) -> Result<Vec<Precision>> {
    read(v, |p| {
        list(p, BRACES, "operand precisions", |p| {
            let tok = p.expect(Tok::Ident, "expects a precision")?;
            Ok(match tok.text.to_ascii_lowercase().as_str() {
                "default" => Precision::Default,
                "high" => Precision::High,
                "highest" => Precision::Highest,
                "packed_nibble" => Precision::PackedNibble,
                _ => return Err(error_at(&tok, "expects default, high, highest or packed_nibble")),
            })
        })
    })
}

/// `result_accuracy=`: a named mode, or numeric tolerances.
#[derive(Clone, Debug, PartialEq)]
pub enum ResultAccuracy {
    /// `{mode=highest}`
    Mode(String),
    /// `{tolerance={atol=1e-5,rtol=0,ulps=2}}`; absent fields are 0.
    Tolerance { atol: f64, rtol: f64, ulps: f64 },
}

/// `{mode=highest}` or `{tolerance={atol=..,rtol=..,ulps=..}}`.
pub fn result_accuracy(v: &AttrValue) -> Result<ResultAccuracy> {
    read(v, |p| {
        p.expect(Tok::LBrace, "expects '{' to start the result accuracy")?;
        let key = p.expect(Tok::Ident, "expects mode= or tolerance=")?;
        p.expect(Tok::Equal, "expects '=' after the key")?;
        let out = match key.text {
            "mode" => ResultAccuracy::Mode(p.expect(Tok::Ident, "expects an accuracy mode")?.text.to_string()),
            "tolerance" => {
                let mut t = [0.0f64; 3];
                let mut seen = [false; 3];
                list(p, BRACES, "tolerances", |p| {
                    let name = p.expect(Tok::Ident, "expects atol=, rtol= or ulps=")?;
                    let Some(i) = ["atol", "rtol", "ulps"].iter().position(|n| *n == name.text) else {
                        return Err(error_at(&name, "expects atol=, rtol= or ulps="));
                    };
                    if std::mem::replace(&mut seen[i], true) {
                        return Err(error_at(&name, &format!("'{}=' given twice", name.text)));
                    }
                    p.expect(Tok::Equal, "expects '=' after the tolerance name")?;
                    t[i] = float_token(p)?;
                    Ok(())
                })?;
                ResultAccuracy::Tolerance { atol: t[0], rtol: t[1], ulps: t[2] }
            }
            _ => return Err(error_at(&key, "expects mode= or tolerance=")),
        };
        p.expect(Tok::RBrace, "expects '}' at the end of the result accuracy")?;
        Ok(out)
    })
}
