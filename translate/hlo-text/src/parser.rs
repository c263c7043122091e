//! The HLO module parser: text in, [`ast::Module`] out.
//!
//! ```text
//! module       ::= header? stack_frames? computation+
//! header       ::= 'HloModule' name (',' attribute)*
//! computation  ::= 'ENTRY'? name signature? '{' instruction+ '}' (',' attribute)*
//! signature    ::= '(' (name ':' shape (',' name ':' shape)*)? ')' '->' shape
//! instruction  ::= 'ROOT'? name '=' shape opcode '(' operands ')' (',' attribute)*
//! operand      ::= shape? name
//! attribute    ::= ident '=' value          (value kept as source text)
//! ```
//!
//! Names take an optional `%`. `constant(...)` holds a literal and
//! `parameter(N)` a number instead of operands. Shapes and layouts are in
//! [`shape`], literals in [`literal`], the trailing stack-frame tables in
//! [`stack_frames`].
//!
//! Safety properties the fuzzer checks: no panics on any `&str`, nesting
//! bounded by [`MAX_DEPTH`] (an error, not a stack overflow), and one pass
//! over the input (a token is lexed at most twice, for lookahead).

mod literal;
mod shape;
mod stack_frames;

pub(crate) use shape::item_rank;
pub(crate) use shape::parse_int;
pub(crate) use stack_frames::string_value;

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ast::{AttrValue, Attribute, Computation, Instruction, Literal, Module, Operand, Pos, Shape, Signature};
use crate::error::ParseError;
use crate::lexer::{Lexer, Result, Tok, Token};

/// FNV-1a: names are short and trusted not to be adversarial enough to
/// matter, and SipHash showed up in profiles of 100k-instruction modules.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The names defined so far in a scope, borrowed from the source.
type Names<'a> = HashSet<&'a str, BuildHasherDefault<Fnv>>;

/// An instruction's operands, constant literal and parameter number.
type Rhs = (Vec<Operand>, Option<Literal>, Option<i64>);

/// How deep tuples, literals and other recursive constructs may nest.
pub const MAX_DEPTH: u32 = 512;

/// Parses a whole HLO module (see the module docs for the grammar).
pub fn parse_module(text: &str) -> std::result::Result<Module, ParseError> {
    Parser::new(text).module()
}

/// Parses a single shape such as `(f32[2,3]{1,0}, s32[])`; the whole text
/// must be the shape.
pub fn parse_shape(text: &str) -> std::result::Result<crate::ast::Shape, ParseError> {
    let mut p = Parser::new(text);
    let shape = p.shape()?;
    p.expect_end("a shape")?;
    Ok(shape)
}

pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    /// Up to two tokens of lookahead (the first `ahead_len`), lexed on
    /// demand. A plain array: shuffling `Option<Token>`s showed in profiles.
    ahead: [Token<'a>; 2],
    ahead_len: usize,
    depth: u32,
    /// Instructions written inline as operands (`add(x, f32[] constant(1))`),
    /// in definition order, waiting to be placed before their user.
    nested: Vec<Instruction>,
    /// Nested instructions named so far (their names are `<opcode>.anon<n>`).
    anonymous: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self::at(text, Pos { line: 1, col: 1 })
    }

    /// A parser over `text` whose first character is at `pos`: attribute
    /// readers parse values in place so that errors point into the file.
    pub(crate) fn at(text: &'a str, pos: Pos) -> Self {
        let none = Token { kind: Tok::Eof, text: "", start: 0, pos };
        Parser {
            lexer: Lexer::with_pos(text, pos),
            ahead: [none; 2],
            ahead_len: 0,
            depth: 0,
            nested: Vec::new(),
            anonymous: 0,
        }
    }

    // ----- token plumbing -------------------------------------------------

    /// The text being parsed.
    pub(crate) fn source(&self) -> &'a str {
        self.lexer.src()
    }

    pub(crate) fn peek(&mut self) -> Result<Token<'a>> {
        if self.ahead_len == 0 {
            self.ahead[0] = self.lexer.next_token()?;
            self.ahead_len = 1;
        }
        Ok(self.ahead[0])
    }

    pub(crate) fn peek2(&mut self) -> Result<Token<'a>> {
        self.peek()?;
        if self.ahead_len == 1 {
            self.ahead[1] = self.lexer.next_token()?;
            self.ahead_len = 2;
        }
        Ok(self.ahead[1])
    }

    pub(crate) fn bump(&mut self) -> Result<Token<'a>> {
        let tok = self.peek()?;
        self.ahead[0] = self.ahead[1];
        self.ahead_len -= 1;
        Ok(tok)
    }

    pub(crate) fn at_kind(&mut self, kind: Tok) -> Result<bool> {
        Ok(self.peek()?.is(kind))
    }

    pub(crate) fn eat(&mut self, kind: Tok) -> Result<bool> {
        if self.at_kind(kind)? {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(crate) fn expect(&mut self, kind: Tok, message: &str) -> Result<Token<'a>> {
        let tok = self.peek()?;
        if !tok.is(kind) {
            return Err(error_at(&tok, message));
        }
        self.bump()
    }

    /// Fails unless the input is exhausted.
    pub(crate) fn expect_end(&mut self, what: &str) -> Result<()> {
        let tok = self.peek()?;
        if !tok.is(Tok::Eof) {
            return Err(error_at(&tok, &format!("unexpected text after {what}")));
        }
        Ok(())
    }

    /// An error at the next token.
    pub(crate) fn error(&mut self, message: &str) -> ParseError {
        match self.peek() {
            Ok(tok) => error_at(&tok, message),
            Err(e) => e,
        }
    }

    /// Enters one level of nesting; fails past [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The raw source text of an attribute value, starting at the next token.
    fn value(&mut self) -> Result<AttrValue> {
        if self.ahead_len > 0 {
            // Undo the lookahead: the value is re-read as text.
            let tok = self.ahead[0];
            self.lexer.reset(tok.start, tok.pos);
            self.ahead_len = 0;
        }
        let (text, pos) = self.lexer.capture_value()?;
        Ok(AttrValue { text: text.to_string(), pos })
    }

    /// `%name` or a bare identifier; returns the name without `%`.
    pub(crate) fn name(&mut self, what: &str) -> Result<(String, Pos)> {
        self.name_str(what).map(|(name, pos)| (name.to_string(), pos))
    }

    fn name_str(&mut self, what: &str) -> Result<(&'a str, Pos)> {
        let tok = self.peek()?;
        let name = match tok.kind {
            Tok::Name => &tok.text[1..],
            Tok::Ident => tok.text,
            _ => return Err(error_at(&tok, &format!("expects {what}"))),
        };
        self.bump()?;
        Ok((name, tok.pos))
    }

    // ----- module structure -------------------------------------------------

    fn module(&mut self) -> Result<Module> {
        let first = self.peek()?;
        let mut name = None;
        let mut attributes = Vec::new();
        if first.is_ident("HloModule") {
            self.bump()?;
            name = Some(self.name("a module name")?.0);
            attributes = self.attributes()?;
        } else if !matches!(first.kind, Tok::Ident | Tok::Name) {
            return Err(error_at(&first, "expects 'HloModule' or a computation"));
        }
        let stack_frames = if self.peek()?.is_ident("FileNames") && !self.peek2_opens_computation()? {
            self.stack_frames()?
        } else {
            Vec::new()
        };

        let mut computations: Vec<Computation> = Vec::new();
        let mut names = Names::default();
        let mut entry = None;
        loop {
            let tok = self.peek()?;
            if tok.is(Tok::Eof) {
                break;
            }
            let c = self.computation(&mut names)?;
            if c.is_entry {
                if entry.is_some() {
                    return Err(error_at(&tok, "a module has only one ENTRY computation"));
                }
                entry = Some(computations.len());
            }
            computations.push(c);
        }
        if computations.is_empty() {
            return Err(self.error("expects a computation"));
        }
        let entry = entry.unwrap_or(computations.len() - 1);
        // A header-less file (an emitter test, a bare computation) is named
        // after its first computation.
        let name = name.unwrap_or_else(|| computations[0].name.clone());
        Ok(Module { name, attributes, computations, entry, stack_frames, pos: first.pos })
    }

    fn peek2_opens_computation(&mut self) -> Result<bool> {
        Ok(matches!(self.peek2()?.kind, Tok::LBrace | Tok::LParen))
    }

    /// `(',' attribute)*`
    fn attributes(&mut self) -> Result<Vec<Attribute>> {
        let mut attrs = Vec::new();
        while self.eat(Tok::Comma)? {
            let tok = self.expect(Tok::Ident, "expects an attribute name")?;
            self.expect(Tok::Equal, "expects '=' after the attribute name")?;
            let value = self.value()?;
            attrs.push(Attribute { name: tok.text.to_string(), value, pos: tok.pos });
        }
        Ok(attrs)
    }

    fn computation(&mut self, names: &mut Names<'a>) -> Result<Computation> {
        let is_entry = self.peek()?.is_ident("ENTRY");
        if is_entry {
            self.bump()?;
        }
        let name_tok = self.peek()?;
        let (name, pos) = self.name_str("a computation name")?;
        if !names.insert(name) {
            return Err(error_at(&name_tok, &format!("computation '{name}' is defined twice")));
        }
        let name = name.to_string();
        let signature = if self.at_kind(Tok::LParen)? { Some(self.signature()?) } else { None };
        self.expect(Tok::LBrace, "expects '{' to start the computation body")?;

        let mut instructions: Vec<Instruction> = Vec::new();
        let mut defined = Names::default();
        let mut root = None;
        loop {
            let tok = self.peek()?;
            match tok.kind {
                Tok::RBrace => break,
                Tok::Eof => return Err(error_at(&tok, &format!("expects '}}' at the end of computation '{name}'"))),
                _ => {}
            }
            let i = self.instruction(&mut defined)?;
            // Instructions nested in its operands come first.
            instructions.append(&mut self.nested);
            if i.is_root {
                if root.is_some() {
                    return Err(error_at(&tok, "a computation has only one ROOT instruction"));
                }
                root = Some(instructions.len());
            }
            instructions.push(i);
        }
        if instructions.is_empty() {
            return Err(self.error(&format!("computation '{name}' has no instructions")));
        }
        self.bump()?; // '}'
        let attributes = self.attributes()?;
        let root = root.unwrap_or(instructions.len() - 1);
        Ok(Computation { name, is_entry, signature, instructions, root, attributes, pos })
    }

    fn signature(&mut self) -> Result<Signature> {
        self.bump()?; // '('
        let mut params = Vec::new();
        if !self.at_kind(Tok::RParen)? {
            loop {
                let (name, _) = self.name("a parameter name")?;
                self.expect(Tok::Colon, "expects ':' after the parameter name")?;
                params.push((name, self.shape()?));
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "expects ')' at the end of the parameter list")?;
        self.expect(Tok::Arrow, "expects '->' before the result shape")?;
        let result = self.shape()?;
        Ok(Signature { params, result })
    }

    fn instruction(&mut self, defined: &mut Names<'a>) -> Result<Instruction> {
        let is_root = self.peek()?.is_ident("ROOT");
        if is_root {
            self.bump()?;
        }
        let name_tok = self.peek()?;
        let (name, pos) = self.name_str("an instruction name")?;
        if defined.contains(name) {
            return Err(error_at(&name_tok, &format!("instruction '{name}' is defined twice")));
        }
        self.expect(Tok::Equal, "expects '=' after the instruction name")?;
        if !self.at_shape()? {
            return Err(self.error("expects the instruction's shape"));
        }
        let shape = self.shape()?;
        let opcode = self.expect(Tok::Ident, "expects an opcode")?.text.to_string();
        let (operands, literal, parameter_number) = self.instruction_rhs(&opcode, &shape, defined)?;
        let attributes = self.attributes()?;
        // Defined after its operands: an instruction cannot use itself.
        defined.insert(name);
        Ok(Instruction {
            name: name.to_string(),
            is_root,
            shape,
            opcode,
            operands,
            literal,
            parameter_number,
            attributes,
            pos,
        })
    }

    /// What follows an instruction's opcode, up to its attributes: the
    /// operands, the constant's literal or the parameter number.
    fn instruction_rhs(&mut self, opcode: &str, shape: &Shape, defined: &Names<'a>) -> Result<Rhs> {
        let (mut operands, mut literal, mut parameter_number) = (Vec::new(), None, None);
        match opcode {
            "parameter" => {
                self.expect(Tok::LParen, "expects '(' before the parameter number")?;
                let tok = self.expect(Tok::Int, "expects the parameter number")?;
                match parse_int(tok.text) {
                    Some(n) if n >= 0 => parameter_number = Some(n),
                    _ => return Err(error_at(&tok, "expects a parameter number in 0..2^63")),
                }
                self.expect(Tok::RParen, "expects ')' after the parameter number")?;
            }
            "constant" => {
                self.expect(Tok::LParen, "expects '(' before the constant's literal")?;
                literal = Some(self.literal(shape)?);
                self.expect(Tok::RParen, "expects ')' after the constant's literal")?;
            }
            _ => operands = self.operands(defined)?,
        }
        Ok((operands, literal, parameter_number))
    }

    /// An instruction written inline as an operand, `shape opcode(...)`
    /// without attributes (XLA's parser accepts them and names them
    /// `<opcode>.anon`); queued in `nested`. Returns its name.
    fn nested_instruction(&mut self, shape: Shape, defined: &Names<'a>) -> Result<String> {
        let tok = self.expect(Tok::Ident, "expects an opcode")?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(error_at(&tok, "operands are nested too deeply"));
        }
        let opcode = tok.text.to_string();
        let (operands, literal, parameter_number) = self.instruction_rhs(&opcode, &shape, defined)?;
        self.depth -= 1;
        self.anonymous += 1;
        let name = format!("{opcode}.anon{}", self.anonymous);
        self.nested.push(Instruction {
            name: name.clone(),
            is_root: false,
            shape,
            opcode,
            operands,
            literal,
            parameter_number,
            attributes: Vec::new(),
            pos: tok.pos,
        });
        Ok(name)
    }

    /// `'(' (shape? name (',' shape? name)*)? ')'`; every operand must name
    /// an instruction defined earlier in the computation, as in XLA, or be
    /// an instruction written inline (`shape opcode(...)`).
    fn operands(&mut self, defined: &Names<'a>) -> Result<Vec<Operand>> {
        self.expect(Tok::LParen, "expects '(' before the operands")?;
        let mut operands = Vec::new();
        if !self.at_kind(Tok::RParen)? {
            loop {
                let shape = if self.at_shape()? { Some(self.shape()?) } else { None };
                let tok = self.peek()?;
                if let (Some(s), Tok::Ident, Tok::LParen) = (&shape, tok.kind, self.peek2()?.kind) {
                    let name = self.nested_instruction(s.clone(), defined)?;
                    operands.push(Operand { shape, name, pos: tok.pos });
                    if !self.eat(Tok::Comma)? {
                        break;
                    }
                    continue;
                }
                let (name, pos) = self.name_str("an operand name")?;
                if !defined.contains(name) {
                    return Err(error_at(&tok, &format!("operand '{name}' is not defined before its use")));
                }
                operands.push(Operand { shape, name: name.to_string(), pos });
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "expects ')' at the end of the operands")?;
        Ok(operands)
    }
}

pub(crate) fn error_at(tok: &Token<'_>, message: &str) -> ParseError {
    ParseError::new(tok.pos, message, tok.text)
}
