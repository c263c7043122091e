//! Literals in XLA's literal text format (`Literal::ToString`), as
//! `hlo-run --print-literals` prints them:
//!
//! ```text
//! f32[] 1.5
//! s32[3] {1, 2, 3}
//! f32[2,3] {
//!   { 1, 2, 3 },
//!   { 4, 5, 6 }
//! }
//! (
//! f32[2] {1, 2},
//! pred[] true
//! )
//! ```
//!
//! Layout rules (XLA's `DenseArrayToStringHelper`): the shape without
//! layout, a space, then nested braces; rank 1 is `{a, b}`; in rank 2 and
//! up, outer braces open with a newline and close after one, innermost rows
//! are indented two spaces and padded inside the braces (`{ 1, 2 }`) unless
//! they have at most one element (`{1}`); from rank 4 on, inner opening
//! braces carry an index comment (`{ /*i0=1*/`). Tuples print as `(`,
//! elements joined by `,\n`, `)`, each element with its shape; a token is
//! `token`.
//!
//! Elements (XLA's `GetAsString` / `RoundTripFpToString`): integers in
//! decimal (sub-byte types by value); `pred` as `true`/`false` for a scalar
//! and `1`/`0` inside arrays; f32 as C's `%.6g`, or `%.9g` when `%.6g`
//! does not read back as the same float; f64 as `%.15g` or `%.17g`; f16,
//! bf16 and the f8/f6/f4 formats as `%.Ng` of the value with N the type's
//! `max_digits10` (5 for f16, 4 for bf16, 3 for e4m3 types, 2 for e5m2,
//! ...); infinities `inf`/`-inf`; NaN `nan`/`-nan`, followed by
//! `(0xPAYLOAD)` when the mantissa is not the default quiet NaN (IEEE
//! formats only); complex numbers `(re, im)` with each part formatted as
//! its float type.

use crate::literal::{Data, Literal};
use half::{bf16, f16};
use rxla_hlo_text::{ast::PrimitiveType, floats::float_format};

/// XLA's `Literal::ToString()`.
pub fn literal_to_string(literal: &Literal) -> String {
    let mut out = String::new();
    write_literal(&mut out, literal);
    out
}

/// XLA's `Literal::ToStringOneline()`: the same text on one line.
pub fn literal_to_string_oneline(literal: &Literal) -> String {
    literal_to_string(literal).split(['\n', ' ']).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ")
}

fn write_literal(out: &mut String, literal: &Literal) {
    match literal {
        Literal::Tuple(elements) => {
            out.push_str("(\n");
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                write_literal(out, e);
            }
            out.push_str("\n)");
        }
        Literal::Token => out.push_str("token"),
        Literal::Array { dims, data } => {
            out.push_str(data.element_type().name());
            out.push('[');
            out.push_str(&dims.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
            out.push_str("] ");
            let elements = element_strings(data, !dims.is_empty());
            let mut index = Vec::with_capacity(dims.len());
            let mut next = 0usize;
            write_nested(out, dims, dims.len(), &mut index, &elements, &mut next);
        }
    }
}

fn write_nested(
    out: &mut String,
    dims: &[i64],
    rank: usize,
    index: &mut Vec<i64>,
    elements: &[String],
    next: &mut usize,
) {
    if dims.is_empty() {
        if let Some(e) = elements.get(*next) {
            out.push_str(e);
        }
        *next += 1;
        return;
    }
    let open = |out: &mut String, index: &[i64]| {
        if rank == 1 {
            out.push('{');
        } else if dims.len() == 1 {
            out.push_str(if dims[0] <= 1 { "  {" } else { "  { " });
        } else if rank > 3 && !index.is_empty() && index.len() < rank {
            out.push_str(&format!("{{ /*i{}={}*/\n", index.len() - 1, index[index.len() - 1]));
        } else {
            out.push_str("{\n");
        }
    };
    let close = |out: &mut String| {
        if rank == 1 {
            out.push('}');
        } else if dims.len() == 1 {
            out.push_str(if dims[0] <= 1 { "}" } else { " }" });
        } else {
            out.push_str("\n}");
        }
    };
    open(out, index);
    for i in 0..dims[0].max(0) {
        index.push(i);
        write_nested(out, &dims[1..], rank, index, elements, next);
        index.pop();
        if i < dims[0] - 1 {
            out.push(',');
            out.push(if dims.len() > 1 { '\n' } else { ' ' });
        }
    }
    close(out);
}

/// Every element as text, row-major.
fn element_strings(data: &Data, in_array: bool) -> Vec<String> {
    fn ints<T: ToString>(v: &[T]) -> Vec<String> {
        v.iter().map(T::to_string).collect()
    }
    match data {
        Data::Pred(v) => v
            .iter()
            .map(|&b| {
                match (in_array, b) {
                    (true, true) => "1",
                    (true, false) => "0",
                    (false, true) => "true",
                    (false, false) => "false",
                }
                .to_string()
            })
            .collect(),
        Data::S8(v) => ints(v),
        Data::S16(v) => ints(v),
        Data::S32(v) => ints(v),
        Data::S64(v) => ints(v),
        Data::U8(v) => ints(v),
        Data::U16(v) => ints(v),
        Data::U32(v) => ints(v),
        Data::U64(v) => ints(v),
        Data::F16(v) => v.iter().map(|&x| f16_to_string(x)).collect(),
        Data::Bf16(v) => v.iter().map(|&x| bf16_to_string(x)).collect(),
        Data::F32(v) => v.iter().map(|&x| f32_to_string(x)).collect(),
        Data::F64(v) => v.iter().map(|&x| f64_to_string(x)).collect(),
        Data::C64(v) => v.iter().map(|c| format!("({}, {})", f32_to_string(c.re), f32_to_string(c.im))).collect(),
        Data::C128(v) => v.iter().map(|c| format!("({}, {})", f64_to_string(c.re), f64_to_string(c.im))).collect(),
        Data::Bits(t, v) => v.iter().map(|&b| bits_to_string(*t, b)).collect(),
    }
}

/// `max_digits10` of a binary format with `precision` significand bits
/// (the implicit bit included), as Eigen/ml_dtypes define it.
fn max_digits10(precision: u32) -> usize {
    2 + (precision as usize * 30103) / 100000
}

/// NaN/inf text for a format's bits, else None.
fn special(t: PrimitiveType, bits: u64) -> Option<String> {
    float_format(t)?.special_text(bits)
}

pub fn f32_to_string(x: f32) -> String {
    if let Some(s) = special(PrimitiveType::F32, x.to_bits() as u64) {
        return s;
    }
    let short = format_g(x as f64, 6);
    if short.parse::<f32>().ok() == Some(x) {
        short
    } else {
        format_g(x as f64, 9)
    }
}

pub fn f64_to_string(x: f64) -> String {
    if let Some(s) = special(PrimitiveType::F64, x.to_bits()) {
        return s;
    }
    let short = format_g(x, 15);
    if short.parse::<f64>().ok() == Some(x) {
        short
    } else {
        format_g(x, 17)
    }
}

pub fn f16_to_string(x: f16) -> String {
    special(PrimitiveType::F16, x.to_bits() as u64).unwrap_or_else(|| format_g(x.to_f64(), max_digits10(11)))
}

pub fn bf16_to_string(x: bf16) -> String {
    special(PrimitiveType::Bf16, x.to_bits() as u64).unwrap_or_else(|| format_g(x.to_f64(), max_digits10(8)))
}

/// An element of a bit-pattern type (f8/f6/f4 or a sub-byte integer).
pub fn bits_to_string(t: PrimitiveType, b: u8) -> String {
    match float_format(t) {
        Some(f) => match f.special_text(b as u64) {
            Some(s) => s,
            None => format_g(f.finite_value(b as u64), max_digits10(f.mantissa_bits + 1)),
        },
        None => match t {
            PrimitiveType::S1 | PrimitiveType::S2 | PrimitiveType::S4 => (b as i8).to_string(),
            _ => b.to_string(),
        },
    }
}

/// C's `printf("%.{precision}g", x)` for finite `x`.
pub fn format_g(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let p = precision.max(1);
    if x == 0.0 {
        return if x.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // The exponent after rounding to p significant digits.
    let e_form = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let m = strip_zeros(mantissa);
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, x)).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex32;

    #[test]
    fn printf_g() {
        assert_eq!(format_g(1.0, 6), "1");
        assert_eq!(format_g(0.1, 6), "0.1");
        assert_eq!(format_g(123456.0, 6), "123456");
        assert_eq!(format_g(1234567.0, 6), "1.23457e+06");
        assert_eq!(format_g(0.0001, 6), "0.0001");
        assert_eq!(format_g(0.00001, 6), "1e-05");
        assert_eq!(format_g(-2.5, 6), "-2.5");
        assert_eq!(format_g(1e100, 6), "1e+100");
        assert_eq!(format_g(999999.5, 6), "1e+06");
        assert_eq!(format_g(-0.0, 6), "-0");
    }

    #[test]
    fn floats_round_trip_like_xla() {
        assert_eq!(f32_to_string(0.1), "0.1");
        assert_eq!(f32_to_string(1.0 / 3.0), "0.333333343");
        assert_eq!(f32_to_string(f32::INFINITY), "inf");
        assert_eq!(f32_to_string(-f32::NAN), "-nan");
        assert_eq!(f32_to_string(f32::from_bits(0x7fc00001)), "nan(0x400001)");
        assert_eq!(f64_to_string(0.1), "0.1");
        assert_eq!(f64_to_string(1.0 / 3.0), "0.33333333333333331");
        assert_eq!(bf16_to_string(bf16::from_f32(1.0 / 3.0)), "0.334");
        assert_eq!(f16_to_string(f16::from_f32(0.1)), "0.099976");
        assert_eq!(bits_to_string(PrimitiveType::F8e4m3fn, 0x7f), "nan");
        assert_eq!(bits_to_string(PrimitiveType::F8e4m3fn, 0x38), "1");
        assert_eq!(bits_to_string(PrimitiveType::S4, 0xf8), "-8");
    }

    #[test]
    fn layouts_match_xla() {
        let l = Literal::array(vec![2, 3], Data::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
        assert_eq!(literal_to_string(&l), "f32[2,3] {\n  { 1, 2, 3 },\n  { 4, 5, 6 }\n}");
        let l = Literal::array(vec![3], Data::S32(vec![1, -2, 3]));
        assert_eq!(literal_to_string(&l), "s32[3] {1, -2, 3}");
        let l = Literal::array(vec![], Data::Pred(vec![true]));
        assert_eq!(literal_to_string(&l), "pred[] true");
        let l = Literal::array(vec![2], Data::Pred(vec![true, false]));
        assert_eq!(literal_to_string(&l), "pred[2] {1, 0}");
        let l = Literal::array(vec![2, 1], Data::U8(vec![7, 8]));
        assert_eq!(literal_to_string(&l), "u8[2,1] {\n  {7},\n  {8}\n}");
        let l = Literal::array(vec![2, 1, 2], Data::S8(vec![1, 2, 3, 4]));
        assert_eq!(literal_to_string(&l), "s8[2,1,2] {\n{\n  { 1, 2 }\n},\n{\n  { 3, 4 }\n}\n}");
        let l = Literal::array(vec![1, 2, 1, 1], Data::S8(vec![1, 2]));
        assert_eq!(
            literal_to_string(&l),
            "s8[1,2,1,1] {\n{ /*i0=0*/\n{ /*i1=0*/\n  {1}\n},\n{ /*i1=1*/\n  {2}\n}\n}\n}"
        );
        let l = Literal::array(vec![0], Data::F32(vec![]));
        assert_eq!(literal_to_string(&l), "f32[0] {}");
        let l = Literal::array(vec![1], Data::C64(vec![Complex32::new(1.0, -0.5)]));
        assert_eq!(literal_to_string(&l), "c64[1] {(1, -0.5)}");
        let t = Literal::Tuple(vec![Literal::array(vec![], Data::S32(vec![1])), Literal::Token]);
        assert_eq!(literal_to_string(&t), "(\ns32[] 1,\ntoken\n)");
        assert_eq!(literal_to_string_oneline(&t), "( s32[] 1, token )");
    }
}
