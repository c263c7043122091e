//! Element conversions shared by `dot` and `convolution`: operands into the
//! compute type of the result, results back into the result type.
//!
//! The rules are the reference interpreter's (interpreter/src/ops/linalg.rs),
//! so the kernels agree with it bit for bit apart from accumulation order:
//!
//! - the compute type depends on the result type only: f32 for f32, f16,
//!   bf16 and the f8/f6/f4 formats; f64; c64; c128; a wrapping integer for
//!   integers (i32 for results of 32 bits or fewer, i64 for 64-bit results
//!   and `pred`, whose value is `sum != 0`). Wrapping arithmetic modulo
//!   2^32 gives the same low bits as the interpreter's i64 accumulation,
//!   so the narrower accumulator is exact;
//! - an operand whose type differs from the result's is first converted to
//!   the result type (`f32 x f32 -> bf16` rounds the operands to bf16,
//!   floats into integers truncate toward zero and saturate, NaN -> 0),
//!   except that integer operands of integer results keep their value (the
//!   wrap at the end gives the same bits) and complex operands of real
//!   results contribute their real part;
//! - results round once, to nearest even (narrow floats through the
//!   interpreter's encoder), integers wrap to the result width, sub-byte
//!   integers are stored sign- or zero-extended in their byte.

use crate::array::{typed_cow, ArrayRef, ElementType};
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::floats::float_format;
use rxla_interpreter::literal::{narrow_float_bits, Data, Literal};
use std::borrow::Cow;

/// The type products are accumulated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compute {
    F32,
    F64,
    C32,
    C64,
    I32,
    I64,
}

/// The compute type of result type `t` (`op` names the caller in errors).
pub(crate) fn compute_type(op: &str, t: ElementType) -> Result<Compute, String> {
    use ElementType::*;
    Ok(match t {
        F64 => Compute::F64,
        C64 => Compute::C32,
        C128 => Compute::C64,
        S64 | U64 | Pred => Compute::I64,
        S1 | S2 | S4 | S8 | S16 | S32 | U1 | U2 | U4 | U8 | U16 | U32 => Compute::I32,
        Token | Opaque => return Err(format!("{op}: {} is not a numeric result type", t.name())),
        F32 | F16 | Bf16 => Compute::F32,
        other if float_format(other).is_some() => Compute::F32,
        other => return Err(format!("{op}: unsupported result type {}", other.name())),
    })
}

/// True for the 8-bit-and-narrower float formats (stored one per byte).
pub(crate) fn is_narrow_float(t: ElementType) -> bool {
    !matches!(t, ElementType::F16 | ElementType::Bf16 | ElementType::F32 | ElementType::F64)
        && float_format(t).is_some()
}

fn is_real_float(t: ElementType) -> bool {
    float_format(t).is_some()
}

/// The value of each of the 256 bit patterns of a narrow float format.
fn narrow_table(t: ElementType) -> Vec<f64> {
    let lit = Literal::array(vec![256], Data::Bits(t, (0..=255u8).collect()));
    lit.to_f32_vec().into_iter().map(|x| x as f64).collect()
}

/// Applies `$f` (a closure-like body over `$x`, of the source's Rust type)
/// to every element, for each real source type; `$c` for complex ones.
macro_rules! map_elements {
    ($a:expr, $out:ty, |$x:ident| $real:expr, |$z:ident| $complex:expr) => {{
        let a: ArrayRef = $a;
        use ElementType::*;
        let v: Vec<$out> = match a.ty {
            Pred | U1 | U2 | U4 | U8 => a
                .data
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as u64;
                    $real
                })
                .collect(),
            S1 | S2 | S4 | S8 => a
                .data
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as i8 as i64;
                    $real
                })
                .collect(),
            S16 => typed_cow::<i16>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as i64;
                    $real
                })
                .collect(),
            S32 => typed_cow::<i32>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as i64;
                    $real
                })
                .collect(),
            S64 => typed_cow::<i64>(a.data).iter().map(|&$x| -> $out { $real }).collect(),
            U16 => typed_cow::<u16>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as u64;
                    $real
                })
                .collect(),
            U32 => typed_cow::<u32>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x as u64;
                    $real
                })
                .collect(),
            U64 => typed_cow::<u64>(a.data).iter().map(|&$x| -> $out { $real }).collect(),
            F16 => typed_cow::<f16>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x.to_f64();
                    $real
                })
                .collect(),
            Bf16 => typed_cow::<bf16>(a.data)
                .iter()
                .map(|&$x| -> $out {
                    let $x = $x.to_f64();
                    $real
                })
                .collect(),
            F32 => typed_cow::<f32>(a.data).iter().map(|&$x| -> $out { $real }).collect(),
            F64 => typed_cow::<f64>(a.data).iter().map(|&$x| -> $out { $real }).collect(),
            C64 => typed_cow::<Complex32>(a.data)
                .iter()
                .map(|&$z| -> $out {
                    let $z = Complex64::new($z.re as f64, $z.im as f64);
                    $complex
                })
                .collect(),
            C128 => typed_cow::<Complex64>(a.data).iter().map(|&$z| -> $out { $complex }).collect(),
            Token | Opaque => Vec::new(),
            narrow => {
                let table = narrow_table(narrow);
                a.data
                    .iter()
                    .map(|&b| -> $out {
                        let $x = table[b as usize];
                        $real
                    })
                    .collect()
            }
        };
        v
    }};
}

/// Every element as f64 (integers rounded to nearest, complex: real part).
pub(crate) fn to_f64s(a: ArrayRef) -> Vec<f64> {
    map_elements!(a, f64, |x| x as f64, |z| z.re)
}

/// Every element as i64: integers exactly (u64 as its bits), floats
/// truncated toward zero and saturated (NaN: 0), complex: the real part.
pub(crate) fn to_i64s(a: ArrayRef) -> Vec<i64> {
    map_elements!(a, i64, |x| x as i64, |z| z.re as i64)
}

/// Every element as c128 (reals with a zero imaginary part).
pub(crate) fn to_c64s(a: ArrayRef) -> Vec<Complex64> {
    map_elements!(a, Complex64, |x| Complex64::new(x as f64, 0.0), |z| z)
}

/// Every element as f32, rounded once from its exact value (the
/// interpreter's `to_f32s`: 32- and 64-bit integers convert directly).
fn to_f32s(a: ArrayRef) -> Vec<f32> {
    match a.ty {
        ElementType::F16 => typed_cow::<f16>(a.data).iter().map(|x| x.to_f32()).collect(),
        ElementType::Bf16 => typed_cow::<bf16>(a.data).iter().map(|x| x.to_f32()).collect(),
        ElementType::F32 => typed_cow::<f32>(a.data).into_owned(),
        ElementType::S32 => typed_cow::<i32>(a.data).iter().map(|&x| x as f32).collect(),
        ElementType::S64 => typed_cow::<i64>(a.data).iter().map(|&x| x as f32).collect(),
        ElementType::U32 => typed_cow::<u32>(a.data).iter().map(|&x| x as f32).collect(),
        ElementType::U64 => typed_cow::<u64>(a.data).iter().map(|&x| x as f32).collect(),
        ElementType::C64 => typed_cow::<Complex32>(a.data).iter().map(|x| x.re).collect(),
        _ => to_f64s(a).into_iter().map(|x| x as f32).collect(),
    }
}

/// Rounds `x` to float type `t` and returns the rounded value.
fn round_to(t: ElementType, x: f64, table: Option<&[f64]>) -> f32 {
    match t {
        ElementType::F16 => f16::from_f64(x).to_f32(),
        ElementType::Bf16 => bf16::from_f64(x).to_f32(),
        ElementType::F32 => x as f32,
        other => {
            let format = float_format(other).expect("a float type");
            let table = table.expect("a narrow float table");
            table[narrow_float_bits(&format, x) as usize & 0xff] as f32
        }
    }
}

/// An operand in the f32 compute type of result type `t`.
pub(crate) fn load_f32(a: ArrayRef<'_>, t: ElementType) -> Cow<'_, [f32]> {
    if a.ty == ElementType::F32 && t == ElementType::F32 {
        return typed_cow(a.data);
    }
    if a.ty == t || t == ElementType::F32 {
        return Cow::Owned(to_f32s(a));
    }
    let table = is_narrow_float(t).then(|| narrow_table(t));
    Cow::Owned(to_f64s(a).into_iter().map(|x| round_to(t, x, table.as_deref())).collect())
}

pub(crate) fn load_f64(a: ArrayRef<'_>) -> Cow<'_, [f64]> {
    match a.ty {
        ElementType::F64 => typed_cow(a.data),
        _ => Cow::Owned(to_f64s(a)),
    }
}

pub(crate) fn load_c32(a: ArrayRef<'_>) -> Cow<'_, [Complex32]> {
    match a.ty {
        ElementType::C64 => typed_cow(a.data),
        _ => Cow::Owned(to_c64s(a).into_iter().map(|z| Complex32::new(z.re as f32, z.im as f32)).collect()),
    }
}

pub(crate) fn load_c64(a: ArrayRef<'_>) -> Cow<'_, [Complex64]> {
    match a.ty {
        ElementType::C128 => typed_cow(a.data),
        _ => Cow::Owned(to_c64s(a)),
    }
}

/// Range of integer type `t` (as the interpreter's saturating conversion
/// from floats uses it).
fn int_range(t: ElementType) -> (i64, i64) {
    use ElementType::*;
    match t {
        S1 => (-1, 0),
        S2 => (-2, 1),
        S4 => (-8, 7),
        S8 => (i8::MIN as i64, i8::MAX as i64),
        S16 => (i16::MIN as i64, i16::MAX as i64),
        S32 => (i32::MIN as i64, i32::MAX as i64),
        U1 => (0, 1),
        U2 => (0, 3),
        U4 => (0, 15),
        U8 => (0, u8::MAX as i64),
        U16 => (0, u16::MAX as i64),
        U32 => (0, u32::MAX as i64),
        _ => (i64::MIN, i64::MAX),
    }
}

/// An operand as the i64 values the interpreter accumulates for integer
/// (or pred) result type `t`.
pub(crate) fn load_i64(a: ArrayRef<'_>, t: ElementType) -> Cow<'_, [i64]> {
    if matches!(a.ty, ElementType::S64 | ElementType::U64) {
        return typed_cow(a.data);
    }
    if !is_real_float(a.ty) {
        return Cow::Owned(to_i64s(a));
    }
    // Floats are converted to the result type first.
    let (lo, hi) = int_range(t);
    let v = to_f64s(a);
    Cow::Owned(match t {
        ElementType::Pred => v.iter().map(|&x| (x != 0.0) as i64).collect(),
        ElementType::U64 => v.iter().map(|&x| x as u64 as i64).collect(),
        _ => v.iter().map(|&x| (x as i64).clamp(lo, hi)).collect(),
    })
}

/// An operand in the i32 compute type (results of at most 32 bits): the
/// low 32 bits of [`load_i64`].
pub(crate) fn load_i32(a: ArrayRef<'_>, t: ElementType) -> Cow<'_, [i32]> {
    if matches!(a.ty, ElementType::S32 | ElementType::U32) {
        return typed_cow(a.data);
    }
    Cow::Owned(load_i64(a, t).iter().map(|&x| x as i32).collect())
}

/// Truncates `x` to the width of integer type `t` (sign- or zero-extended
/// back to i64).
pub(crate) fn wrap_int(t: ElementType, x: i64) -> i64 {
    use ElementType::*;
    match t {
        S1 => -(x & 1),
        S2 => (x << 62) >> 62,
        S4 => (x << 60) >> 60,
        S8 => x as i8 as i64,
        S16 => x as i16 as i64,
        S32 => x as i32 as i64,
        U1 => x & 1,
        U2 => x & 3,
        U4 => x & 15,
        U8 => x as u8 as i64,
        U16 => x as u16 as i64,
        U32 => x as u32 as i64,
        _ => x,
    }
}

/// Writes f32 results into `out` as float type `t`, rounding to nearest even.
pub(crate) fn store_f32(t: ElementType, v: &[f32], out: &mut [u8]) {
    match t {
        ElementType::F32 => crate::array::write_typed(v, out),
        ElementType::F16 => {
            for (o, x) in out.chunks_exact_mut(2).zip(v) {
                o.copy_from_slice(&f16::from_f32(*x).to_bits().to_le_bytes());
            }
        }
        ElementType::Bf16 => {
            for (o, x) in out.chunks_exact_mut(2).zip(v) {
                o.copy_from_slice(&bf16::from_f32(*x).to_bits().to_le_bytes());
            }
        }
        other => {
            let format = float_format(other).expect("store_f32 of a float type");
            for (o, &x) in out.iter_mut().zip(v) {
                *o = narrow_float_bits(&format, x as f64) as u8;
            }
        }
    }
}

/// Writes integer results into `out` as integer type `t` (wrapping; pred
/// is `x != 0`).
pub(crate) fn store_int<I: Copy + Into<i64>>(t: ElementType, v: &[I], out: &mut [u8]) {
    use ElementType::*;
    macro_rules! put {
        ($ty:ty) => {{
            let w = std::mem::size_of::<$ty>();
            for (o, &x) in out.chunks_exact_mut(w).zip(v) {
                o.copy_from_slice(&(x.into() as $ty).to_le_bytes());
            }
        }};
    }
    match t {
        Pred => out.iter_mut().zip(v).for_each(|(o, &x)| *o = (x.into() != 0) as u8),
        S8 | U8 => put!(u8),
        S16 | U16 => put!(u16),
        S32 | U32 => put!(u32),
        S64 | U64 => put!(u64),
        sub => out.iter_mut().zip(v).for_each(|(o, &x)| *o = wrap_int(sub, x.into()) as u8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_types_follow_the_result_type() {
        use ElementType::*;
        assert_eq!(compute_type("dot", Bf16).unwrap(), Compute::F32);
        assert_eq!(compute_type("dot", F8e4m3fn).unwrap(), Compute::F32);
        assert_eq!(compute_type("dot", S8).unwrap(), Compute::I32);
        assert_eq!(compute_type("dot", Pred).unwrap(), Compute::I64);
        assert!(compute_type("dot", Token).is_err());
    }

    #[test]
    fn operands_convert_to_the_result_type_first() {
        let v = [1.0f32 + 1.0 / 1024.0, 3.7, -2.5];
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let a = ArrayRef::new(ElementType::F32, &[3], &bytes);
        // 1 + 2^-10 is not a bf16: it rounds to 1.
        assert_eq!(load_f32(a, ElementType::Bf16)[0], 1.0);
        assert_eq!(&load_i64(a, ElementType::S8)[..], &[1, 3, -2]);
        assert_eq!(&load_i64(a, ElementType::U8)[..], &[1, 3, 0]);
        assert_eq!(&load_i64(a, ElementType::Pred)[..], &[1, 1, 1]);
    }

    #[test]
    fn integer_results_wrap() {
        let mut out = [0u8; 3];
        store_int(ElementType::S4, &[7i64, 8, -9], &mut out);
        assert_eq!(out, [7, 0xf8, 7]);
        store_int(ElementType::Pred, &[0i64, 2, -1], &mut out);
        assert_eq!(out, [0, 1, 1]);
    }
}
