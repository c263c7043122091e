//! Parsing of the text format of expressions and indexing maps.
//!
//! Map grammar (whitespace is free):
//!
//! ```text
//! map        := '(' names ')' ['[' names ']'] ['{' names '}'] '->' '(' [expr {',' expr}] ')'
//!               [',' 'domain' ':' decl {',' decl} {',' constraint}] [',']
//!               [',' 'is_simplified' ':' ('true' | 'false')]
//!             | 'UNDEFINED'
//! decl       := name 'in' interval        (every variable, in declaration order)
//! constraint := expr 'in' interval
//! interval   := '[' int ',' int ']'
//! expr       := term {('+' | '-') term}
//! term       := unary {('*' | 'floordiv' | 'floorDiv' | '/' | 'ceildiv' | 'mod' | '%') unary}
//! unary      := '-' unary | primary
//! primary    := int | name | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
//! ```
//!
//! This is XLA's format (`ParseIndexingMap`); `/` and `%` are the spellings
//! of XLA's symbolic expression parser. Unary minus binds tighter than the
//! multiplicative operators, as in MLIR's affine parser.

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::interval::Interval;
use crate::map::{is_valid_name, IndexingMap, Variable};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(u128),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    offset: usize,
}

fn tokenize(text: &str) -> Result<Vec<Token>> {
    const PUNCT: &[&str] = &["->", "(", ")", "[", "]", "{", "}", ",", ":", "+", "-", "*", "/", "%"];
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token { tok: Tok::Ident(text[start..i].to_string()), offset: start });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value = text[start..i].parse::<u128>().ok().filter(|v| *v <= (i64::MAX as u128) + 1);
            let Some(value) = value else {
                return Err(Error::Parse {
                    offset: start,
                    message: format!("integer `{}` is too large", &text[start..i]),
                });
            };
            out.push(Token { tok: Tok::Int(value), offset: start });
            continue;
        }
        for p in PUNCT {
            if text[i..].starts_with(p) {
                out.push(Token { tok: Tok::Punct(p), offset: i });
                i += p.len();
                continue 'outer;
            }
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        return Err(Error::Parse { offset: i, message: format!("unexpected character `{ch}`") });
    }
    out.push(Token { tok: Tok::Eof, offset: text.len() });
    Ok(out)
}

/// How names in expressions resolve to variables.
enum Names<'a> {
    /// `d<N>` is dimension N, `s<N>` symbol N.
    Default,
    /// Explicit names: dimensions, then symbols.
    Explicit { dims: &'a [String], syms: &'a [String] },
}

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    names: Names<'a>,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Int(v) => format!("`{v}`"),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "end of input".to_string(),
    }
}

impl<'a> Parser<'a> {
    fn new(text: &str, names: Names<'a>) -> Result<Parser<'a>> {
        Ok(Parser { tokens: tokenize(text)?, pos: 0, names })
    }

    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.tokens[(self.pos + k).min(self.tokens.len() - 1)].tok
    }

    fn offset(&self) -> usize {
        self.tokens[self.pos].offset
    }

    fn advance(&mut self) {
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
    }

    fn error<T>(&self, message: String) -> Result<T> {
        Err(Error::Parse { offset: self.offset(), message })
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == s)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, p: &str) -> Result<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.error(format!("expected `{p}`, found {}", describe(self.peek())))
        }
    }

    fn expect_ident(&mut self, s: &str) -> Result<()> {
        if self.is_ident(s) {
            self.advance();
            Ok(())
        } else {
            self.error(format!("expected `{s}`, found {}", describe(self.peek())))
        }
    }

    fn expect_eof(&self) -> Result<()> {
        match self.peek() {
            Tok::Eof => Ok(()),
            t => self.error(format!("unexpected {} after the end", describe(t))),
        }
    }

    fn parse_int(&mut self) -> Result<i64> {
        let negative = self.eat_punct("-");
        match *self.peek() {
            Tok::Int(v) => {
                let v = if negative { -(v as i128) } else { v as i128 };
                match i64::try_from(v) {
                    Ok(v) => {
                        self.advance();
                        Ok(v)
                    }
                    Err(_) => self.error(format!("integer {v} does not fit in 64 bits")),
                }
            }
            ref t => self.error(format!("expected an integer, found {}", describe(t))),
        }
    }

    fn parse_interval(&mut self) -> Result<Interval> {
        self.expect_punct("[")?;
        let lo = self.parse_int()?;
        self.expect_punct(",")?;
        let hi = self.parse_int()?;
        self.expect_punct("]")?;
        Ok(Interval::new(lo, hi))
    }

    // -- Expressions ---------------------------------------------------------

    fn parse_expr(&mut self) -> Result<Expr> {
        let mut lhs = self.parse_term()?;
        loop {
            if self.eat_punct("+") {
                lhs = lhs.add(&self.parse_term()?);
            } else if self.eat_punct("-") {
                lhs = lhs.sub(&self.parse_term()?);
            } else {
                return Ok(lhs);
            }
        }
    }

    fn parse_term(&mut self) -> Result<Expr> {
        let mut lhs = self.parse_unary()?;
        loop {
            let op = match self.peek() {
                Tok::Punct("*") => "*",
                Tok::Punct("/") => "floordiv",
                Tok::Punct("%") => "mod",
                Tok::Ident(s) if s == "floordiv" || s == "floorDiv" => "floordiv",
                Tok::Ident(s) if s == "ceildiv" => "ceildiv",
                Tok::Ident(s) if s == "mod" => "mod",
                _ => return Ok(lhs),
            };
            self.advance();
            // A zero divisor is accepted (it evaluates to "undefined"), so that
            // every printed expression parses back.
            let rhs = self.parse_unary()?;
            lhs = match op {
                "*" => lhs.mul(&rhs),
                "floordiv" => lhs.floor_div(&rhs),
                "ceildiv" => lhs.ceil_div(&rhs),
                _ => lhs.modulo(&rhs),
            };
        }
    }

    fn parse_unary(&mut self) -> Result<Expr> {
        if self.eat_punct("-") {
            // -9223372036854775808 is a literal, not the negation of one.
            if let Tok::Int(v) = *self.peek() {
                if v == (i64::MAX as u128) + 1 {
                    self.advance();
                    return Ok(Expr::constant(i64::MIN));
                }
            }
            return Ok(self.parse_unary()?.neg());
        }
        self.parse_primary()
    }

    fn parse_primary(&mut self) -> Result<Expr> {
        match self.peek().clone() {
            Tok::Int(v) => match i64::try_from(v) {
                Ok(v) => {
                    self.advance();
                    Ok(Expr::constant(v))
                }
                Err(_) => self.error(format!("integer {v} does not fit in 64 bits")),
            },
            Tok::Punct("(") => {
                self.advance();
                let e = self.parse_expr()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Ident(name) if (name == "min" || name == "max") && self.peek_at(1) == &Tok::Punct("(") => {
                self.advance();
                self.advance();
                let a = self.parse_expr()?;
                self.expect_punct(",")?;
                let b = self.parse_expr()?;
                self.expect_punct(")")?;
                Ok(if name == "min" { a.minimum(&b) } else { a.maximum(&b) })
            }
            Tok::Ident(name) => {
                let e = self.resolve(&name)?;
                self.advance();
                Ok(e)
            }
            t => self.error(format!("expected an expression, found {}", describe(&t))),
        }
    }

    fn resolve(&self, name: &str) -> Result<Expr> {
        match &self.names {
            Names::Default => {
                let parse_index = |prefix: &str| -> Option<usize> {
                    let rest = name.strip_prefix(prefix)?;
                    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                    rest.parse().ok()
                };
                if let Some(i) = parse_index("d") {
                    return Ok(Expr::dim(i));
                }
                if let Some(j) = parse_index("s") {
                    return Ok(Expr::sym(j));
                }
                self.error(format!("unknown variable `{name}` (expected d<N> or s<N>)"))
            }
            Names::Explicit { dims, syms } => {
                if let Some(i) = dims.iter().position(|n| n == name) {
                    return Ok(Expr::dim(i));
                }
                if let Some(j) = syms.iter().position(|n| n == name) {
                    return Ok(Expr::sym(j));
                }
                self.error(format!("unknown variable `{name}`"))
            }
        }
    }

    // -- Maps ------------------------------------------------------------------

    fn parse_name_list(&mut self, open: &str, close: &str, seen: &mut Vec<String>) -> Result<Vec<String>> {
        self.expect_punct(open)?;
        let mut names = Vec::new();
        if self.eat_punct(close) {
            return Ok(names);
        }
        loop {
            let name = match self.peek() {
                Tok::Ident(n) => n.clone(),
                t => return self.error(format!("expected a variable name, found {}", describe(t))),
            };
            if !is_valid_name(&name) {
                return self.error(format!("`{name}` cannot be a variable name"));
            }
            if seen.contains(&name) {
                return self.error(format!("variable `{name}` is declared twice"));
            }
            seen.push(name.clone());
            names.push(name);
            self.advance();
            if self.eat_punct(close) {
                return Ok(names);
            }
            self.expect_punct(",")?;
        }
    }
}

/// Parses an expression whose variables are `d<N>` (dimensions) and `s<N>`
/// (symbols).
pub fn parse_expr(text: &str) -> Result<Expr> {
    let mut p = Parser::new(text, Names::Default)?;
    let e = p.parse_expr()?;
    p.expect_eof()?;
    Ok(e)
}

/// Parses an expression whose variables are the given dimension and symbol
/// names.
pub fn parse_expr_with_names(text: &str, dims: &[String], syms: &[String]) -> Result<Expr> {
    let mut p = Parser::new(text, Names::Explicit { dims, syms })?;
    let e = p.parse_expr()?;
    p.expect_eof()?;
    Ok(e)
}

/// Parses an indexing map in XLA's text format (see the module docs).
pub fn parse_indexing_map(text: &str) -> Result<IndexingMap> {
    if text.trim() == "UNDEFINED" {
        return Ok(IndexingMap::undefined());
    }
    if text.trim() == "KNOWN EMPTY" {
        return Err(Error::Parse {
            offset: 0,
            message:
                "`KNOWN EMPTY` does not say how many variables the map has; write the map with an empty bound instead"
                    .into(),
        });
    }
    let mut p = Parser::new(text, Names::Default)?;
    let mut seen = Vec::new();
    let dim_names = p.parse_name_list("(", ")", &mut seen)?;
    let range_names = if p.is_punct("[") { p.parse_name_list("[", "]", &mut seen)? } else { Vec::new() };
    let rt_names = if p.is_punct("{") { p.parse_name_list("{", "}", &mut seen)? } else { Vec::new() };
    p.expect_punct("->")?;
    let sym_names: Vec<String> = range_names.iter().chain(&rt_names).cloned().collect();
    p.names = Names::Explicit { dims: &dim_names, syms: &sym_names };

    p.expect_punct("(")?;
    let mut results = Vec::new();
    if !p.eat_punct(")") {
        loop {
            results.push(p.parse_expr()?);
            if p.eat_punct(")") {
                break;
            }
            p.expect_punct(",")?;
        }
    }

    let mut dim_vars: Vec<Variable> = Vec::new();
    let mut range_vars: Vec<Variable> = Vec::new();
    let mut rt_vars: Vec<Variable> = Vec::new();
    let mut constraints = Vec::new();
    let has_vars = !dim_names.is_empty() || !sym_names.is_empty();
    if p.is_punct(",") && matches!(p.peek_at(1), Tok::Ident(s) if s == "domain") {
        p.advance();
        p.advance();
        p.expect_punct(":")?;
        let groups: [(&[String], &str, &mut Vec<Variable>); 3] =
            [(&dim_names, "d", &mut dim_vars), (&range_names, "s", &mut range_vars), (&rt_names, "rt", &mut rt_vars)];
        let mut first = true;
        for (names, prefix, vars) in groups {
            for (i, name) in names.iter().enumerate() {
                if !first && !p.eat_punct(",") {
                    return p.error(format!("expected `,` and the bounds of `{name}`, found {}", describe(p.peek())));
                }
                first = false;
                match p.peek() {
                    Tok::Ident(n) if n == name => p.advance(),
                    t => return p.error(format!("expected the bounds of `{name}`, found {}", describe(t))),
                }
                p.expect_ident("in")?;
                let bounds = p.parse_interval()?;
                // A default name is stored as "no name", as XLA does.
                let stored = if *name == format!("{prefix}{i}") { String::new() } else { name.clone() };
                vars.push(Variable { bounds, name: stored });
            }
        }
        loop {
            if !first {
                if !p.eat_punct(",") {
                    break;
                }
                if matches!(p.peek(), Tok::Eof) || p.is_ident("is_simplified") {
                    break;
                }
            }
            if matches!(p.peek(), Tok::Eof) {
                break;
            }
            first = false;
            let e = p.parse_expr()?;
            p.expect_ident("in")?;
            constraints.push((e, p.parse_interval()?));
        }
        if p.is_ident("is_simplified") {
            // Older XLA versions print this flag; it carries no information.
            p.advance();
            p.expect_punct(":")?;
            if !(p.is_ident("true") || p.is_ident("false")) {
                return p.error(format!("expected `true` or `false`, found {}", describe(p.peek())));
            }
            p.advance();
        }
    } else if has_vars {
        return p.error(format!("expected `, domain:`, found {}", describe(p.peek())));
    }
    p.expect_eof()?;
    IndexingMap::new(results, dim_vars, range_vars, rt_vars, constraints)
}

impl Expr {
    /// Parses an expression over `d<N>` and `s<N>` (see [`parse_expr`]).
    pub fn parse(text: &str) -> Result<Expr> {
        parse_expr(text)
    }
}

impl IndexingMap {
    /// Parses XLA's text format (see [`parse_indexing_map`]).
    pub fn parse(text: &str) -> Result<IndexingMap> {
        parse_indexing_map(text)
    }
}
