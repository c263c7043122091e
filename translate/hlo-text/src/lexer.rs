//! Tokens of the HLO text format.
//!
//! The lexer is deliberately context free: it knows punctuation, names,
//! numbers and strings, and skips whitespace and both comment forms. The
//! pattern tokens XLA's lexer recognises by regular expression (`3x3`,
//! `0_1x1_0`, `b01f_01io->b01f`) only occur inside attribute values, which
//! the parser captures as raw text ([`Lexer::capture_value`]) and the readers
//! in [`crate::attrs`] take apart character by character.
//!
//! Every token carries its byte offset and its 1-based line and column
//! (columns count characters, not bytes), tracked incrementally so that the
//! whole input is scanned once.

use crate::ast::Pos;
use crate::error::ParseError;

pub type Result<T> = std::result::Result<T, ParseError>;

/// How deep brackets may nest inside one attribute value.
pub const MAX_VALUE_DEPTH: usize = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `[A-Za-z_][A-Za-z0-9_.-]*`: keywords, opcodes, types, bare names.
    Ident,
    /// `%name`.
    Name,
    /// `-?[0-9]+` or a hex integer `0x1F`.
    Int,
    /// Decimal or hex floats, `inf`, `-inf`, `nan`, `-nan`, `nan(0x1)`.
    Float,
    /// `"..."` or `'...'`, quotes and escapes included in the text.
    Str,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LSquare,
    RSquare,
    Comma,
    Colon,
    Equal,
    /// `->`
    Arrow,
    /// `<=`
    Leq,
    Star,
    Hash,
    Plus,
    Tilde,
    Question,
    /// `...`
    Dots,
    Eof,
}

#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub kind: Tok,
    pub text: &'a str,
    /// Byte offset of the first character.
    pub start: usize,
    pub pos: Pos,
}

impl Token<'_> {
    pub fn is(&self, kind: Tok) -> bool {
        self.kind == kind
    }

    pub fn is_ident(&self, word: &str) -> bool {
        self.kind == Tok::Ident && self.text == word
    }

    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

#[derive(Clone)]
pub struct Lexer<'a> {
    src: &'a str,
    off: usize,
    pos: Pos,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Self::with_pos(src, Pos { line: 1, col: 1 })
    }

    /// A lexer over `src` whose first character is at `pos` (used to lex an
    /// attribute value in place).
    pub fn with_pos(src: &'a str, pos: Pos) -> Self {
        Lexer { src, off: 0, pos }
    }

    pub fn src(&self) -> &'a str {
        self.src
    }

    pub fn offset(&self) -> usize {
        self.off
    }

    pub fn pos(&self) -> Pos {
        self.pos
    }

    /// Moves back to a position returned earlier (a token's start).
    pub fn reset(&mut self, off: usize, pos: Pos) {
        self.off = off;
        self.pos = pos;
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.off + ahead).copied()
    }

    /// Advances one byte, keeping line and column current. Columns advance on
    /// the first byte of each UTF-8 sequence only.
    fn bump(&mut self) {
        let b = self.src.as_bytes()[self.off];
        self.off += 1;
        if b == b'\n' {
            self.pos.line = self.pos.line.saturating_add(1);
            self.pos.col = 1;
        } else if b & 0xC0 != 0x80 {
            self.pos.col = self.pos.col.saturating_add(1);
        }
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    fn error_here(&self, message: &str) -> ParseError {
        let token = self.src[self.off..].chars().next().map(String::from).unwrap_or_default();
        ParseError::new(self.pos, message, &token)
    }

    /// Skips whitespace and comments. Fails on an unterminated `/*`.
    pub fn skip_trivia(&mut self) -> Result<()> {
        loop {
            match self.peek_byte(0) {
                Some(b' ' | b'\t' | b'\r') => {
                    let n = self.src.as_bytes()[self.off..]
                        .iter()
                        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                        .count();
                    self.skip_ascii(n);
                }
                Some(b'\n') => self.bump(),
                Some(b'/') if self.peek_byte(1) == Some(b'*') => {
                    let (start, pos) = (self.off, self.pos);
                    self.bump_n(2);
                    loop {
                        match self.peek_byte(0) {
                            None => return Err(ParseError::new(pos, "unterminated comment", &self.src[start..])),
                            Some(b'*') if self.peek_byte(1) == Some(b'/') => {
                                self.bump_n(2);
                                break;
                            }
                            Some(_) => self.bump(),
                        }
                    }
                }
                Some(b'/') if self.peek_byte(1) == Some(b'/') => {
                    while !matches!(self.peek_byte(0), None | Some(b'\n')) {
                        self.bump();
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    pub fn next_token(&mut self) -> Result<Token<'a>> {
        self.skip_trivia()?;
        let (start, pos) = (self.off, self.pos);
        let Some(b) = self.peek_byte(0) else {
            return Ok(Token { kind: Tok::Eof, text: "", start, pos });
        };
        let kind = match b {
            b'{' => self.single(Tok::LBrace),
            b'}' => self.single(Tok::RBrace),
            b'(' => self.single(Tok::LParen),
            b')' => self.single(Tok::RParen),
            b'[' => self.single(Tok::LSquare),
            b']' => self.single(Tok::RSquare),
            b',' => self.single(Tok::Comma),
            b':' => self.single(Tok::Colon),
            b'=' => self.single(Tok::Equal),
            b'*' => self.single(Tok::Star),
            b'#' => self.single(Tok::Hash),
            b'+' => self.single(Tok::Plus),
            b'~' => self.single(Tok::Tilde),
            b'?' => self.single(Tok::Question),
            b'<' if self.peek_byte(1) == Some(b'=') => {
                self.bump_n(2);
                Tok::Leq
            }
            b'-' if self.peek_byte(1) == Some(b'>') => {
                self.bump_n(2);
                Tok::Arrow
            }
            b'.' if self.peek_byte(1) == Some(b'.') && self.peek_byte(2) == Some(b'.') => {
                self.bump_n(3);
                Tok::Dots
            }
            b'%' => self.name()?,
            b'"' | b'\'' => self.string()?,
            b'0'..=b'9' | b'-' | b'.' => self.number()?,
            b if is_ident_start(b) => self.ident(),
            _ => return Err(self.error_here("unexpected character")),
        };
        Ok(Token { kind, text: &self.src[start..self.off], start, pos })
    }

    fn single(&mut self, kind: Tok) -> Tok {
        self.bump();
        kind
    }

    /// Skips `n` bytes known to be ASCII and not newlines (one column each).
    fn skip_ascii(&mut self, n: usize) {
        self.off += n;
        self.pos.col = self.pos.col.saturating_add(n as u32);
    }

    fn eat_ident_chars(&mut self) {
        let n = self.src.as_bytes()[self.off..].iter().take_while(|&&b| is_ident_char(b)).count();
        self.skip_ascii(n);
    }

    fn name(&mut self) -> Result<Tok> {
        if !self.peek_byte(1).is_some_and(is_ident_start) {
            return Err(self.error_here("expects a name after '%'"));
        }
        self.bump();
        self.eat_ident_chars();
        Ok(Tok::Name)
    }

    fn ident(&mut self) -> Tok {
        let start = self.off;
        self.eat_ident_chars();
        match &self.src[start..self.off] {
            "inf" => Tok::Float,
            "nan" => {
                self.nan_payload();
                Tok::Float
            }
            _ => Tok::Ident,
        }
    }

    /// `(0x1234)` right after `nan`, part of the same token.
    fn nan_payload(&mut self) {
        let rest = &self.src.as_bytes()[self.off..];
        if rest.starts_with(b"(0x") || rest.starts_with(b"(0X") {
            let digits = rest[3..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
            if digits > 0 && rest.get(3 + digits) == Some(&b')') {
                self.bump_n(4 + digits);
            }
        }
    }

    fn digits(&mut self, hex: bool) -> usize {
        let rest = &self.src.as_bytes()[self.off..];
        let n = rest.iter().take_while(|b| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() }).count();
        self.skip_ascii(n);
        n
    }

    fn number(&mut self) -> Result<Tok> {
        let (start, pos) = (self.off, self.pos);
        if self.peek_byte(0) == Some(b'-') {
            self.bump();
            let rest = &self.src.as_bytes()[self.off..];
            let word_end = |n: usize| !rest.get(n).copied().is_some_and(is_ident_char);
            if rest.starts_with(b"inf") && word_end(3) {
                self.bump_n(3);
                return Ok(Tok::Float);
            }
            if rest.starts_with(b"nan") && (word_end(3) || rest.get(3) == Some(&b'(')) {
                self.bump_n(3);
                self.nan_payload();
                return Ok(Tok::Float);
            }
        }
        let bytes = self.src.as_bytes();
        if bytes.get(self.off) == Some(&b'0') && matches!(bytes.get(self.off + 1), Some(b'x' | b'X')) {
            return self.hex_number(start, pos);
        }
        let int_digits = self.digits(false);
        let mut float = false;
        if self.peek_byte(0) == Some(b'.') && self.peek_byte(1) != Some(b'.') {
            let after_dot = self.peek_byte(1).is_some_and(|b| b.is_ascii_digit());
            if int_digits > 0 || after_dot {
                self.bump();
                self.digits(false);
                float = true;
            }
        }
        if int_digits == 0 && !float {
            self.reset(start, pos);
            return Err(self.error_here("unexpected character"));
        }
        if matches!(self.peek_byte(0), Some(b'e' | b'E')) {
            let sign = matches!(self.peek_byte(1), Some(b'+' | b'-')) as usize;
            if self.peek_byte(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                self.bump_n(1 + sign);
                self.digits(false);
                float = true;
            }
        }
        Ok(if float { Tok::Float } else { Tok::Int })
    }

    /// `0x1F` (an integer) or `0x1.8p3` (a hex float).
    fn hex_number(&mut self, start: usize, pos: Pos) -> Result<Tok> {
        self.bump_n(2);
        let mut n = self.digits(true);
        let mut float = false;
        if self.peek_byte(0) == Some(b'.') {
            self.bump();
            n += self.digits(true);
            float = true;
        }
        if n == 0 {
            self.reset(start, pos);
            return Err(self.error_here("malformed hexadecimal number"));
        }
        if matches!(self.peek_byte(0), Some(b'p' | b'P')) {
            let sign = matches!(self.peek_byte(1), Some(b'+' | b'-')) as usize;
            if self.peek_byte(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                self.bump_n(1 + sign);
                self.digits(false);
                float = true;
            }
        }
        Ok(if float { Tok::Float } else { Tok::Int })
    }

    fn string(&mut self) -> Result<Tok> {
        let (start, pos) = (self.off, self.pos);
        let quote = self.src.as_bytes()[start];
        self.bump();
        loop {
            match self.peek_byte(0) {
                None => return Err(ParseError::new(pos, "unterminated string", &self.src[start..])),
                Some(b'\\') => {
                    self.bump();
                    if self.peek_byte(0).is_some() {
                        self.bump();
                    }
                }
                Some(b) if b == quote => {
                    self.bump();
                    return Ok(Tok::Str);
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// Captures an attribute value as source text: from the next non-blank
    /// character up to a top-level `,`, an unmatched closing bracket, a
    /// newline outside brackets, or the end of the input. Brackets must
    /// balance; strings and comments are skipped over, so a `,` or `}` inside
    /// them does not end the value. The lexer is left at the terminator.
    pub fn capture_value(&mut self) -> Result<(&'a str, Pos)> {
        self.skip_trivia()?;
        let (start, start_pos) = (self.off, self.pos);
        let mut end = start;
        let mut open: Vec<(u8, Pos, usize)> = Vec::new();
        while let Some(b) = self.peek_byte(0) {
            match b {
                b'\n' if open.is_empty() => break,
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.bump();
                    continue;
                }
                b',' if open.is_empty() => break,
                b'/' if matches!(self.peek_byte(1), Some(b'*' | b'/')) => {
                    let line_comment = self.peek_byte(1) == Some(b'/');
                    if line_comment && open.is_empty() {
                        // Runs to the newline, which ends the value.
                        self.skip_trivia()?;
                        break;
                    }
                    let (s, p) = (self.off, self.pos);
                    if line_comment {
                        while !matches!(self.peek_byte(0), None | Some(b'\n')) {
                            self.bump();
                        }
                    } else {
                        self.skip_block_comment(s, p)?;
                    }
                    continue;
                }
                b'"' | b'\'' => {
                    self.string()?;
                }
                b'{' | b'(' | b'[' => {
                    if open.len() >= MAX_VALUE_DEPTH {
                        return Err(self.error_here("brackets nest too deeply"));
                    }
                    open.push((b, self.pos, self.off));
                    self.bump();
                }
                b'}' | b')' | b']' => {
                    let Some(&(opener, _, _)) = open.last() else {
                        break;
                    };
                    let expected = match opener {
                        b'{' => b'}',
                        b'(' => b')',
                        _ => b']',
                    };
                    if b != expected {
                        return Err(
                            self.error_here(&format!("mismatched '{}', expects '{}'", b as char, expected as char))
                        );
                    }
                    open.pop();
                    self.bump();
                }
                _ => self.bump(),
            }
            end = self.off;
        }
        if let Some(&(opener, pos, off)) = open.last() {
            return Err(ParseError::new(
                pos,
                format!("unbalanced '{}' in attribute value", opener as char),
                &self.src[off..off + 1],
            ));
        }
        if end == start {
            return Err(self.error_here("expects an attribute value"));
        }
        Ok((&self.src[start..end], start_pos))
    }

    fn skip_block_comment(&mut self, start: usize, pos: Pos) -> Result<()> {
        self.bump_n(2);
        loop {
            match self.peek_byte(0) {
                None => return Err(ParseError::new(pos, "unterminated comment", &self.src[start..])),
                Some(b'*') if self.peek_byte(1) == Some(b'/') => {
                    self.bump_n(2);
                    return Ok(());
                }
                Some(_) => self.bump(),
            }
        }
    }
}

/// The position of byte `offset` of `text`, where `text` starts at `base`.
pub fn pos_in(text: &str, base: Pos, offset: usize) -> Pos {
    let mut lexer = Lexer::with_pos(text, base);
    let offset = offset.min(text.len());
    while lexer.off < offset {
        lexer.bump();
    }
    lexer.pos
}

/// Decodes the C-style escapes absl::CUnescape accepts (`\n \t \r \\ \" \'
/// \? \a \b \f \v`, octal `\123`, hex `\x7f`, `\u1234`, `\U0001F600`) in
/// the text between the quotes of a string token. On failure, returns the
/// byte offset of the bad escape and why.
pub fn unescape(inner: &str) -> std::result::Result<String, (usize, &'static str)> {
    if !inner.contains('\\') {
        return Ok(inner.to_string());
    }
    let bytes = inner.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let at = i;
        let Some(&e) = bytes.get(i + 1) else {
            return Err((at, "incomplete escape sequence"));
        };
        i += 2;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'\\' | b'"' | b'\'' | b'?' => out.push(e),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                let mut n = 1;
                while n < 3 && bytes.get(i).is_some_and(|b| (b'0'..=b'7').contains(b)) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    n += 1;
                }
                if v > 0xff {
                    return Err((at, "octal escape out of range"));
                }
                out.push(v as u8);
            }
            b'x' => {
                let n = bytes[i..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
                if n == 0 {
                    return Err((at, "\\x needs hexadecimal digits"));
                }
                let v = inner[i..i + n]
                    .bytes()
                    .fold(0u32, |v, d| v.saturating_mul(16).saturating_add((d as char).to_digit(16).unwrap_or(0)));
                if v > 0xff {
                    return Err((at, "hex escape out of range"));
                }
                out.push(v as u8);
                i += n;
            }
            b'u' | b'U' => {
                let n = if e == b'u' { 4 } else { 8 };
                let digits = inner.get(i..i + n).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
                let Some(digits) = digits else {
                    return Err((at, "bad unicode escape"));
                };
                let c = u32::from_str_radix(digits, 16).ok().and_then(char::from_u32);
                let Some(c) = c else {
                    return Err((at, "bad unicode escape"));
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += n;
            }
            _ => return Err((at, "unknown escape sequence")),
        }
    }
    String::from_utf8(out).map_err(|e| (e.utf8_error().valid_up_to().min(inner.len()), "string is not valid UTF-8"))
}

/// Quotes `s` the way absl::CEscape does for HLO text: backslash, quotes and
/// control characters escaped; other characters (non-ASCII included) kept.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
