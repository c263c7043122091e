//! Bit-level facts about XLA's floating-point formats: special values
//! (inf, NaN) per format, exact decoding, round-to-nearest-even encoding
//! and the shortest decimal that reads back as the same bits. Shared by the
//! importer/exporter and the interpreter.

use crate::ast::PrimitiveType;

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
        F8e8m0fnu => {
            Some(FloatFormat { exponent_bits: 8, mantissa_bits: 0, has_sign: false, kind: FiniteAllOnesNan, bias: 127 })
        }
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
        if self.has_sign {
            1u64 << (self.width() - 1)
        } else {
            0
        }
    }

    fn exponent_mask(&self) -> u64 {
        ((1u64 << self.exponent_bits) - 1) << self.mantissa_bits
    }

    /// Bits of +/-inf, or None if the format has none.
    pub fn infinity(&self, negative: bool) -> Option<u64> {
        (self.kind == SpecialValues::Ieee).then(|| self.exponent_mask() | if negative { self.sign_bit() } else { 0 })
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
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }
}

impl FloatFormat {
    /// The bits of `x` rounded to this format (to nearest, ties to even),
    /// NaN and overflow as the format allows: infinity where it has one,
    /// else NaN (or the largest value for the finite-only formats).
    pub fn round_from_f64(&self, x: f64) -> u64 {
        let sign = if x.is_sign_negative() { self.sign_bit() } else { 0 };
        if self.kind == SpecialValues::FiniteOnly {
            // The formats with neither inf nor NaN (f4, f6) saturate, and
            // NaN becomes a zero of the opposite sign, as ml_dtypes and
            // XLA convert.
            if x.is_nan() {
                return sign ^ self.sign_bit();
            }
            let largest = sign | ((1 << (self.width() - 1)) - 1);
            return if x.is_infinite() { largest } else { self.encode(x).unwrap_or(largest) };
        }
        if x.is_nan() {
            return self.nan(x.is_sign_negative(), 0).unwrap_or(0);
        }
        if x.is_infinite() {
            return self.infinity(x < 0.0).or_else(|| self.nan(x < 0.0, 0)).unwrap_or(0);
        }
        match self.encode(x) {
            Some(bits) => bits,
            None => self.infinity(x < 0.0).or_else(|| self.nan(x < 0.0, 0)).unwrap_or(0),
        }
    }

    /// The value of `bits` (NaN and infinities included).
    pub fn decode(&self, bits: u64) -> f64 {
        match self.special_text(bits) {
            Some(t) if t.ends_with("inf") => {
                if t.starts_with('-') {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Some(t) => {
                if t.starts_with('-') {
                    -f64::NAN
                } else {
                    f64::NAN
                }
            }
            None => self.finite_value(bits),
        }
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
            SpecialValues::FiniteAllOnesNan => {
                biased > max_biased || (biased == max_biased && mantissa == (1u64 << m) - 1)
            }
            SpecialValues::FiniteNegZeroNan | SpecialValues::FiniteOnly => biased > max_biased,
        };
        // A negative value that rounds to zero is -0, which the fnuz
        // formats lack (their sign-and-zero code is NaN): it becomes +0.
        if bits == 0 && self.kind == SpecialValues::FiniteNegZeroNan {
            return Some(0);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use PrimitiveType::*;

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

    #[test]
    fn negative_values_that_round_to_zero_have_no_sign_in_fnuz_formats() {
        for t in [F8e4m3fnuz, F8e5m2fnuz, F8e4m3b11fnuz] {
            let f = float_format(t).unwrap();
            assert_eq!(f.round_from_f64(-1e-30), 0, "{t:?}");
            assert_eq!(f.round_from_f64(-0.0), 0, "{t:?}");
            assert_eq!(f.round_from_f64(-0.5), 0x80 | f.round_from_f64(0.5), "{t:?}");
        }
        let e4m3fn = float_format(F8e4m3fn).unwrap();
        assert_eq!(e4m3fn.round_from_f64(-1e-30), 0x80);
    }

    #[test]
    fn formats_without_inf_and_nan_saturate() {
        // ml_dtypes' conversions (what XLA computes).
        let f4 = float_format(F4e2m1fn).unwrap();
        let cases = [(7.0, 0x7), (100.0, 0x7), (f64::INFINITY, 0x7), (f64::NEG_INFINITY, 0xF), (-7.0, 0xF)];
        for (x, bits) in cases {
            assert_eq!(f4.round_from_f64(x), bits, "{x}");
        }
        assert_eq!(f4.round_from_f64(f64::NAN), 0x8);
        assert_eq!(f4.round_from_f64(-f64::NAN), 0x0);
        assert_eq!(f4.round_from_f64(0.3), 0x1);
        assert_eq!(float_format(F6e2m3fn).unwrap().round_from_f64(100.0), 31);
        assert_eq!(float_format(F6e3m2fn).unwrap().round_from_f64(-1e30), 63);
    }
}
