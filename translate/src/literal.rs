//! HLO literals as MLIR dense elements attributes, both ways.
//!
//! Import keeps the decimal digits XLA printed (MLIR rounds them to the
//! element type exactly once, as XLA's parser does) and writes special
//! values (inf, NaN with payload) as bit patterns, per float format.
//! Export reads the attribute's raw element data, so nothing depends on
//! how MLIR chose to print it.

use rxla_hlo_text::ast::{Dim, LiteralArray, PrimitiveType};
pub use rxla_hlo_text::floats::{float_format, FloatFormat, SpecialValues};

/// Why a literal cannot be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralError(pub String);

/// One element in MLIR dense syntax.
pub fn element_to_mlir(t: PrimitiveType, token: &str) -> Result<String, LiteralError> {
    use PrimitiveType::*;
    let token = token.trim();
    match t {
        Pred => match token {
            "true" | "1" => Ok("true".into()),
            "false" | "0" => Ok("false".into()),
            _ => Err(LiteralError(format!("'{token}' is not a pred value (true or false)"))),
        },
        S2 | S4 | S8 | S16 | S32 | S64 | U2 | U4 | U8 | U16 | U32 | U64 => {
            let digits = token.strip_prefix('-').unwrap_or(token);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(LiteralError(format!("'{token}' is not an integer")));
            }
            if token.starts_with('-') && matches!(t, U2 | U4 | U8 | U16 | U32 | U64) {
                return Err(LiteralError(format!("'{token}' is negative but the type is {}", t.name())));
            }
            Ok(token.to_string())
        }
        C64 | C128 => {
            let inner = token
                .strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .ok_or_else(|| LiteralError(format!("'{token}' is not a complex value (re, im)")))?;
            let (re, im) = inner
                .split_once(',')
                .ok_or_else(|| LiteralError(format!("'{token}' is not a complex value (re, im)")))?;
            let part = if t == C64 { F32 } else { F64 };
            Ok(format!("({}, {})", element_to_mlir(part, re)?, element_to_mlir(part, im)?))
        }
        _ => {
            let format = float_format(t)
                .ok_or_else(|| LiteralError(format!("literals of type {} are not supported", t.name())))?;
            float_to_mlir(&format, t, token)
        }
    }
}

fn float_to_mlir(format: &FloatFormat, t: PrimitiveType, token: &str) -> Result<String, LiteralError> {
    let (negative, body) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let hex_bits = |bits: u64| format!("0x{:0width$X}", bits, width = (format.width() as usize).div_ceil(4));
    let unsupported = || LiteralError(format!("'{token}' cannot be represented in {}", t.name()));
    if body == "inf" {
        return format.infinity(negative).map(hex_bits).ok_or_else(unsupported);
    }
    if body == "nan" {
        return format.nan(negative, 0).map(hex_bits).ok_or_else(unsupported);
    }
    if let Some(payload) = body.strip_prefix("nan(").and_then(|p| p.strip_suffix(')')) {
        let payload = payload
            .strip_prefix("0x")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| LiteralError(format!("bad NaN payload in '{token}'")))?;
        return format.nan(negative, payload).map(hex_bits).ok_or_else(unsupported);
    }
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let value = parse_hex_float(hex).ok_or_else(|| LiteralError(format!("'{token}' is not a float")))?;
        let value = if negative { -value } else { value };
        return Ok(decimal_with_point(&format!("{value:e}")));
    }
    // Decimal: keep the digits, make it an MLIR float literal.
    let valid = !body.is_empty()
        && body.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && body.as_bytes()[0].is_ascii_digit()
        && body.parse::<f64>().is_ok();
    if !valid {
        return Err(LiteralError(format!("'{token}' is not a float")));
    }
    let text = decimal_with_point(body);
    Ok(if negative { format!("-{text}") } else { text })
}

/// An f64 as an MLIR float literal that reads back as the same value.
pub fn float_literal(value: f64) -> String {
    if value.is_finite() {
        decimal_with_point(&format!("{value:e}"))
    } else {
        format!("0x{:016X}", value.to_bits())
    }
}

/// `1` -> `1.0`, `1e5` -> `1.0e5`; MLIR float literals need a point.
fn decimal_with_point(text: &str) -> String {
    if text.contains('.') {
        return text.to_string();
    }
    match text.find(['e', 'E']) {
        Some(i) => format!("{}.0{}", &text[..i], &text[i..]),
        None => format!("{text}.0"),
    }
}

/// `1.8p3` (after `0x`) as f64.
fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.find(['p', 'P']) {
        Some(i) => (&hex[..i], hex[i + 1..].parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut value = 0f64;
    for c in int.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

/// The sizes of a constant's dimensions (all static).
fn static_sizes(dims: &[Dim]) -> Result<Vec<i64>, LiteralError> {
    dims.iter()
        .map(|d| match d {
            Dim::Static(n) => Ok(*n),
            _ => Err(LiteralError("constants with dynamic dimensions are not supported".into())),
        })
        .collect()
}

/// A literal's nested elements as MLIR dense text (`dense<...>` body),
/// checking the nesting against `dims`.
pub fn array_to_mlir(t: PrimitiveType, dims: &[Dim], literal: &LiteralArray) -> Result<String, LiteralError> {
    let sizes = static_sizes(dims)?;
    if sizes.contains(&0) {
        return Ok(String::new());
    }
    let mut out = String::new();
    write_level(t, &sizes, literal, &mut out, 0)?;
    Ok(out)
}

fn write_level(
    t: PrimitiveType,
    sizes: &[i64],
    literal: &LiteralArray,
    out: &mut String,
    depth: usize,
) -> Result<(), LiteralError> {
    match (sizes.split_first(), literal) {
        (None, LiteralArray::Element(token)) => {
            out.push_str(&element_to_mlir(t, token)?);
            Ok(())
        }
        // XLA prints scalars of rank 0 as a bare element; a one-element
        // braced scalar is accepted too.
        (None, LiteralArray::Nested(items)) if items.len() == 1 => write_level(t, sizes, &items[0], out, depth),
        (None, LiteralArray::Nested(_)) => {
            Err(LiteralError(format!("literal has too many nesting levels for a rank-{depth} shape")))
        }
        (Some(_), LiteralArray::Element(token)) => {
            Err(LiteralError(format!("literal element '{token}' appears where dimension {depth} needs a {{...}} list")))
        }
        (Some((&n, rest)), LiteralArray::Nested(items)) => {
            if items.len() as i64 != n {
                return Err(LiteralError(format!(
                    "literal has {} elements in dimension {depth}, the shape has {n}",
                    items.len()
                )));
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_level(t, rest, item, out, depth + 1)?;
            }
            out.push(']');
            Ok(())
        }
    }
}

/// The values XLA's parser gives a literal whose elements a dump elided
/// (`constant({...})`: `--xla_dump_to` and `HloModule::ToString` print
/// large constants so): deterministic garbage, the literal's bytes in
/// row-major order filled with consecutive 32-bit words from a counter
/// (the last `size % 4` bytes from a byte counter), masked to 0/1 per byte
/// for `pred`. The counters run on across the constants of a module in
/// text order; XLA's run on across the whole process, so the values are
/// XLA's for the first module a process parses. Distinct constants get
/// distinct values, so CSE treats them as XLA does.
#[derive(Debug, Default)]
pub struct ElidedFill {
    word: u32,
    byte: u8,
}

impl ElidedFill {
    /// The next `size` bytes.
    pub fn bytes(&mut self, size: usize, pred: bool) -> Vec<u8> {
        let mask: u32 = if pred { 0x0101_0101 } else { u32::MAX };
        let mut out = Vec::with_capacity(size);
        for _ in 0..size / 4 {
            out.extend_from_slice(&(self.word & mask).to_le_bytes());
            self.word = self.word.wrapping_add(1);
        }
        for _ in 0..size % 4 {
            out.push(self.byte & mask as u8);
            self.byte = self.byte.wrapping_add(1);
        }
        out
    }
}

/// Bytes per element of `t` in an XLA literal (sub-byte types take a
/// byte each there).
fn literal_byte_width(t: PrimitiveType) -> Option<usize> {
    use PrimitiveType::*;
    Some(match t {
        Pred | S1 | S2 | S4 | S8 | U1 | U2 | U4 | U8 => 1,
        F4e2m1fn | F6e2m3fn | F6e3m2fn | F8e3m4 | F8e4m3 | F8e4m3fn | F8e4m3fnuz | F8e4m3b11fnuz | F8e5m2
        | F8e5m2fnuz | F8e8m0fnu => 1,
        S16 | U16 | F16 | Bf16 => 2,
        S32 | U32 | F32 => 4,
        S64 | U64 | F64 | C64 => 8,
        C128 => 16,
        Token | Opaque => return None,
    })
}

/// The `dense<...>` body of an elided literal of type `t` and `dims`,
/// filled by `fill` as XLA's parser fills it (see [`ElidedFill`]). Types
/// whose MLIR storage is the literal's bytes get MLIR's hex form (fast for
/// big constants); `pred` and sub-byte types, whose MLIR storage differs,
/// get elements (the low bits of each byte).
pub fn elided_to_mlir(t: PrimitiveType, dims: &[Dim], fill: &mut ElidedFill) -> Result<String, LiteralError> {
    use PrimitiveType::*;
    let sizes = static_sizes(dims)?;
    if sizes.is_empty() {
        return Err(LiteralError("'{...}' elides the elements of an array; a scalar constant needs its value".into()));
    }
    let count: usize = sizes.iter().product::<i64>().try_into().unwrap_or(0);
    if count == 0 {
        return Ok(String::new());
    }
    let width =
        literal_byte_width(t).ok_or_else(|| LiteralError(format!("a {} constant has no elements", t.name())))?;
    let bytes = fill.bytes(count * width, t == Pred);
    let sub_byte_bits = match t {
        S1 | U1 => Some(1),
        S2 | U2 => Some(2),
        S4 | U4 | F4e2m1fn => Some(4),
        F6e2m3fn | F6e3m2fn => Some(6),
        _ => None,
    };
    let element = |b: u8| -> String {
        match (t, sub_byte_bits) {
            (Pred, _) => (if b != 0 { "true" } else { "false" }).to_string(),
            (S1 | S2 | S4, Some(bits)) => (((b << (8 - bits)) as i8) >> (8 - bits)).to_string(),
            (U1 | U2 | U4, Some(bits)) => (b & ((1u8 << bits) - 1)).to_string(),
            (_, Some(bits)) => format!("0x{:X}", b & ((1u8 << bits) - 1)),
            _ => unreachable!("only pred and sub-byte types are written as elements"),
        }
    };
    if t == Pred || sub_byte_bits.is_some() {
        let elements: Vec<String> = bytes.iter().map(|&b| element(b)).collect();
        let mut out = String::new();
        nest(&elements, &sizes, &mut out);
        return Ok(out);
    }
    let mut out = String::with_capacity(4 + 2 * bytes.len());
    out.push_str("\"0x");
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in &bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out.push('"');
    Ok(out)
}

/// `elements` (row-major) as nested MLIR brackets over `sizes`.
fn nest(elements: &[String], sizes: &[i64], out: &mut String) {
    match sizes.split_first() {
        None => out.push_str(&elements[0]),
        Some((&n, rest)) => {
            let stride = elements.len() / n as usize;
            out.push('[');
            for i in 0..n as usize {
                if i > 0 {
                    out.push_str(", ");
                }
                nest(&elements[i * stride..(i + 1) * stride], rest, out);
            }
            out.push(']');
        }
    }
}

/// True for the `{...}` of an elided literal.
pub fn is_elided(literal: &LiteralArray) -> bool {
    matches!(literal, LiteralArray::Nested(items) if matches!(items.as_slice(), [LiteralArray::Element(e)] if e == "..."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimitiveType::*;

    #[test]
    fn special_values_per_format() {
        assert_eq!(element_to_mlir(F32, "inf").unwrap(), "0x7F800000");
        assert_eq!(element_to_mlir(F32, "-inf").unwrap(), "0xFF800000");
        assert_eq!(element_to_mlir(F32, "nan").unwrap(), "0x7FC00000");
        assert_eq!(element_to_mlir(F32, "-nan").unwrap(), "0xFFC00000");
        assert_eq!(element_to_mlir(F32, "nan(0x1)").unwrap(), "0x7F800001");
        assert_eq!(element_to_mlir(Bf16, "-inf").unwrap(), "0xFF80");
        assert_eq!(element_to_mlir(F16, "nan").unwrap(), "0x7E00");
        assert_eq!(element_to_mlir(F8e4m3fn, "nan").unwrap(), "0x7F");
        assert_eq!(element_to_mlir(F8e5m2fnuz, "nan").unwrap(), "0x80");
        assert!(element_to_mlir(F8e4m3fn, "inf").is_err());
        assert!(element_to_mlir(F4e2m1fn, "nan").is_err());
    }

    #[test]
    fn decimals_keep_their_digits() {
        assert_eq!(element_to_mlir(F32, "1").unwrap(), "1.0");
        assert_eq!(element_to_mlir(F32, "-0").unwrap(), "-0.0");
        assert_eq!(element_to_mlir(F64, "1e+300").unwrap(), "1.0e+300");
        assert_eq!(element_to_mlir(F32, "0.100000001").unwrap(), "0.100000001");
        assert_eq!(element_to_mlir(F32, "0x1.8p1").unwrap(), "3.0e0");
        assert!(element_to_mlir(F32, "1.2.3").is_err());
        assert!(element_to_mlir(F32, "abc").is_err());
    }

    #[test]
    fn integers_pred_and_complex() {
        assert_eq!(element_to_mlir(S32, "-7").unwrap(), "-7");
        assert!(element_to_mlir(U8, "-1").is_err());
        assert_eq!(element_to_mlir(Pred, "true").unwrap(), "true");
        assert_eq!(element_to_mlir(C64, "(1, -2.5)").unwrap(), "(1.0, -2.5)");
    }

    #[test]
    fn nesting_must_match_the_shape() {
        let lit = LiteralArray::Nested(vec![
            LiteralArray::Nested(vec![LiteralArray::Element("1".into()), LiteralArray::Element("2".into())]),
            LiteralArray::Nested(vec![LiteralArray::Element("3".into()), LiteralArray::Element("4".into())]),
        ]);
        let dims = [Dim::Static(2), Dim::Static(2)];
        assert_eq!(array_to_mlir(S32, &dims, &lit).unwrap(), "[[1, 2], [3, 4]]");
        let err = array_to_mlir(S32, &[Dim::Static(3), Dim::Static(2)], &lit).unwrap_err();
        assert!(err.0.contains("2 elements in dimension 0, the shape has 3"));
        assert_eq!(array_to_mlir(F32, &[Dim::Static(0)], &LiteralArray::Nested(vec![])).unwrap(), "");
    }
}
