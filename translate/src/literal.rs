//! HLO literals as MLIR dense elements attributes, both ways.
//!
//! Import keeps the decimal digits XLA printed (MLIR rounds them to the
//! element type exactly once, as XLA's parser does) and writes special
//! values (inf, NaN with payload) as bit patterns, per float format.
//! Export reads the attribute's raw element data, so nothing depends on
//! how MLIR chose to print it.

use rxla_hlo_text::ast::{Dim, LiteralArray, PrimitiveType};

/// Bit layout of a float format, for special values.
#[derive(Clone, Copy, Debug)]
pub struct FloatFormat {
    pub exponent_bits: u32,
    pub mantissa_bits: u32,
    pub has_sign: bool,
    pub kind: SpecialValues,
    /// Exponent bias.
    pub bias: i32,
}

/// How a format encodes infinities and NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialValues {
    /// IEEE: all-ones exponent; zero mantissa is inf, else NaN.
    Ieee,
    /// `fn`: no inf; NaN is all ones (exponent and mantissa).
    FiniteAllOnesNan,
    /// `fnuz`: no inf, no negative zero; NaN is the sign bit alone.
    FiniteNegZeroNan,
    /// No inf, no NaN (f4/f6).
    FiniteOnly,
}

/// The float format of a primitive type (None for non-floats).
pub fn float_format(t: PrimitiveType) -> Option<FloatFormat> {
    use PrimitiveType::*;
    use SpecialValues::*;
    let f = |e: u32, m, kind| {
        // fnuz formats move the bias up by one (no negative zero).
        let bias = (1i32 << (e - 1)) - 1 + (kind == FiniteNegZeroNan) as i32;
        Some(FloatFormat { exponent_bits: e, mantissa_bits: m, has_sign: true, kind, bias })
    };
    match t {
        F16 => f(5, 10, Ieee),
        Bf16 => f(8, 7, Ieee),
        F32 => f(8, 23, Ieee),
        F64 => f(11, 52, Ieee),
        F8e5m2 => f(5, 2, Ieee),
        F8e4m3 => f(4, 3, Ieee),
        F8e3m4 => f(3, 4, Ieee),
        F8e4m3fn => f(4, 3, FiniteAllOnesNan),
        F8e4m3fnuz => f(4, 3, FiniteNegZeroNan),
        F8e5m2fnuz => f(5, 2, FiniteNegZeroNan),
        F8e4m3b11fnuz => Some(FloatFormat { bias: 11, ..f(4, 3, FiniteNegZeroNan)? }),
        F8e8m0fnu => Some(FloatFormat {
            exponent_bits: 8,
            mantissa_bits: 0,
            has_sign: false,
            kind: FiniteAllOnesNan,
            bias: 127,
        }),
        F4e2m1fn => f(2, 1, FiniteOnly),
        F6e2m3fn => f(2, 3, FiniteOnly),
        F6e3m2fn => f(3, 2, FiniteOnly),
        _ => None,
    }
}

impl FloatFormat {
    pub fn width(&self) -> u32 {
        self.exponent_bits + self.mantissa_bits + self.has_sign as u32
    }

    fn sign_bit(&self) -> u64 {
        if self.has_sign { 1u64 << (self.width() - 1) } else { 0 }
    }

    fn exponent_mask(&self) -> u64 {
        ((1u64 << self.exponent_bits) - 1) << self.mantissa_bits
    }

    /// Bits of +/-inf, or None if the format has none.
    pub fn infinity(&self, negative: bool) -> Option<u64> {
        (self.kind == SpecialValues::Ieee)
            .then(|| self.exponent_mask() | if negative { self.sign_bit() } else { 0 })
    }

    /// Bits of a NaN with `payload` (0: the default quiet NaN).
    pub fn nan(&self, negative: bool, payload: u64) -> Option<u64> {
        let sign = if negative { self.sign_bit() } else { 0 };
        match self.kind {
            SpecialValues::Ieee => {
                let max = (1u64 << self.mantissa_bits) - 1;
                let mantissa = if payload == 0 { 1u64 << (self.mantissa_bits - 1) } else { payload };
                (mantissa <= max).then(|| self.exponent_mask() | mantissa | sign)
            }
            SpecialValues::FiniteAllOnesNan if payload == 0 => {
                Some(self.exponent_mask() | ((1u64 << self.mantissa_bits) - 1) | sign)
            }
            SpecialValues::FiniteNegZeroNan if payload == 0 => Some(1u64 << (self.width() - 1)),
            _ => None,
        }
    }

    /// Classifies `bits`: Some(text) for inf/NaN in XLA's spelling.
    pub fn special_text(&self, bits: u64) -> Option<String> {
        let negative = bits & self.sign_bit() != 0;
        let sign = if negative { "-" } else { "" };
        let mantissa = bits & ((1u64 << self.mantissa_bits) - 1);
        match self.kind {
            SpecialValues::Ieee if bits & self.exponent_mask() == self.exponent_mask() => {
                if mantissa == 0 {
                    Some(format!("{sign}inf"))
                } else if mantissa == 1u64 << (self.mantissa_bits - 1) {
                    Some(format!("{sign}nan"))
                } else {
                    Some(format!("{sign}nan(0x{mantissa:x})"))
                }
            }
            SpecialValues::FiniteAllOnesNan
                if bits & !self.sign_bit() == self.exponent_mask() | ((1u64 << self.mantissa_bits) - 1) =>
            {
                Some(format!("{sign}nan"))
            }
            SpecialValues::FiniteNegZeroNan if bits == 1u64 << (self.width() - 1) => Some("nan".into()),
            _ => None,
        }
    }

    /// The exact value of finite `bits` as f64 (every format here fits).
    pub fn finite_value(&self, bits: u64) -> f64 {
        let negative = bits & self.sign_bit() != 0;
        let exponent = ((bits & self.exponent_mask()) >> self.mantissa_bits) as i32;
        let mantissa = (bits & ((1u64 << self.mantissa_bits) - 1)) as f64;
        let scale = (1u64 << self.mantissa_bits) as f64;
        let bias = self.bias;
        let magnitude = if self.mantissa_bits == 0 {
            2f64.powi(exponent - bias)
        } else if exponent == 0 {
            mantissa / scale * 2f64.powi(1 - bias)
        } else {
            (1.0 + mantissa / scale) * 2f64.powi(exponent - bias)
        };
        if negative { -magnitude } else { magnitude }
    }
}

impl FloatFormat {
    /// Rounds a finite `value` to this format (nearest, ties to even) and
    /// returns its bits; None if it overflows to a value the format lacks.
    pub fn encode(&self, value: f64) -> Option<u64> {
        let sign = if value.is_sign_negative() && self.has_sign { self.sign_bit() } else { 0 };
        let a = value.abs();
        if a == 0.0 {
            return Some(if self.kind == SpecialValues::FiniteNegZeroNan { 0 } else { sign });
        }
        let m = self.mantissa_bits as i32;
        let min_exp = 1 - self.bias; // exponent of the smallest normal
        let e = (a.log2().floor() as i32).max(min_exp);
        // Quantum at this exponent; round the magnitude to a multiple of it.
        let quantum = 2f64.powi(e - m);
        let mut q = (a / quantum).round_ties_even() as u64;
        let mut e = e;
        if q >= 2u64 << m {
            q >>= 1;
            e += 1;
        }
        let biased = if q < (1u64 << m) { 0 } else { (e + self.bias) as u64 };
        let max_biased = (1u64 << self.exponent_bits) - 1;
        let mantissa = q & ((1u64 << m) - 1);
        let bits = (biased << m) | mantissa;
        // Reject encodings that land on inf/NaN or beyond the largest finite.
        let too_big = match self.kind {
            SpecialValues::Ieee => biased >= max_biased,
            SpecialValues::FiniteAllOnesNan => biased > max_biased || (biased == max_biased && mantissa == (1u64 << m) - 1),
            SpecialValues::FiniteNegZeroNan | SpecialValues::FiniteOnly => biased > max_biased,
        };
        (!too_big).then_some(bits | sign)
    }

    /// The shortest decimal that reads back (rounded to this format) as the
    /// finite `bits`.
    pub fn shortest_decimal(&self, bits: u64) -> String {
        let value = self.finite_value(bits);
        for digits in 1..=17 {
            let text = format!("{:.*e}", digits - 1, value);
            if let Ok(parsed) = text.parse::<f64>() {
                if self.encode(parsed) == Some(bits) {
                    return plain_or_exponent(parsed, &text);
                }
            }
        }
        plain_or_exponent(value, &format!("{value:e}"))
    }
}

/// `1.5` for ordinary magnitudes, the exponent form otherwise.
fn plain_or_exponent(value: f64, exponent_form: &str) -> String {
    let a = value.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        format!("{value}")
    } else {
        exponent_form.to_string()
    }
}

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
    let hex_bits = |bits: u64| format!("0x{:0width$X}", bits, width = (format.width() as usize + 3) / 4);
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

/// A literal's nested elements as MLIR dense text (`dense<...>` body),
/// checking the nesting against `dims`.
pub fn array_to_mlir(t: PrimitiveType, dims: &[Dim], literal: &LiteralArray) -> Result<String, LiteralError> {
    let sizes: Vec<i64> = dims
        .iter()
        .map(|d| match d {
            Dim::Static(n) => Ok(*n),
            _ => Err(LiteralError("constants with dynamic dimensions are not supported".into())),
        })
        .collect::<Result<_, _>>()?;
    if sizes.iter().any(|&n| n == 0) {
        return Ok(String::new());
    }
    let mut out = String::new();
    write_level(t, &sizes, literal, &mut out, 0)?;
    Ok(out)
}

fn write_level(t: PrimitiveType, sizes: &[i64], literal: &LiteralArray, out: &mut String, depth: usize) -> Result<(), LiteralError> {
    match (sizes.split_first(), literal) {
        (None, LiteralArray::Element(token)) => {
            out.push_str(&element_to_mlir(t, token)?);
            Ok(())
        }
        // XLA prints scalars of rank 0 as a bare element; a one-element
        // braced scalar is accepted too.
        (None, LiteralArray::Nested(items)) if items.len() == 1 => write_level(t, sizes, &items[0], out, depth),
        (None, LiteralArray::Nested(_)) => Err(LiteralError(format!("literal has too many nesting levels for a rank-{depth} shape"))),
        (Some(_), LiteralArray::Element(token)) => Err(LiteralError(format!(
            "literal element '{token}' appears where dimension {depth} needs a {{...}} list"
        ))),
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

    #[test]
    fn shortest_decimals_read_back_exactly() {
        let bf16 = float_format(Bf16).unwrap();
        assert_eq!(bf16.encode(0.1), Some(0x3DCD));
        assert_eq!(bf16.shortest_decimal(0x3DCD), "0.1");
        assert_eq!(bf16.shortest_decimal(0x3F80), "1");
        let f16 = float_format(F16).unwrap();
        assert_eq!(f16.encode(65504.0), Some(0x7BFF));
        assert_eq!(f16.encode(70000.0), None);
        assert_eq!(f16.shortest_decimal(0x0001), "6e-8");
        let e4m3fn = float_format(F8e4m3fn).unwrap();
        assert_eq!(e4m3fn.encode(448.0), Some(0x7E));
        assert_eq!(e4m3fn.encode(480.0), None);
        // Every finite bf16 prints to a decimal that encodes back to it.
        for bits in 0u64..0x10000 {
            if bf16.special_text(bits).is_none() {
                let text = bf16.shortest_decimal(bits);
                assert_eq!(bf16.encode(text.parse().unwrap()), Some(bits), "{bits:#x} -> {text}");
            }
        }
    }

    #[test]
    fn decodes_finite_values() {
        let bf16 = float_format(Bf16).unwrap();
        assert_eq!(bf16.finite_value(0x3F80), 1.0);
        assert_eq!(bf16.finite_value(0xC000), -2.0);
        let e4m3fn = float_format(F8e4m3fn).unwrap();
        assert_eq!(e4m3fn.finite_value(0x7E), 448.0);
        assert_eq!(e4m3fn.special_text(0x7F).as_deref(), Some("nan"));
        let fnuz = float_format(F8e5m2fnuz).unwrap();
        assert_eq!(fnuz.finite_value(0x40), 1.0);
        assert_eq!(float_format(F32).unwrap().special_text(0x7F800001).as_deref(), Some("nan(0x1)"));
    }
}
