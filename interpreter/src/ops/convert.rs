//! `convert`, `bitcast-convert` and `bitcast`.
//!
//! Edge-case decisions (XLA:CPU's behaviour, checked against the oracle's
//! convert, bitcast and edge_convert cases):
//!
//! - **float -> integer** truncates toward zero and saturates to the
//!   target's range; NaN becomes 0 (s4/u4/s2/u2 saturate to their own
//!   range).
//! - **integer -> integer** keeps the low bits (two's-complement wrap), for
//!   sub-byte targets too. **integer -> float** rounds to nearest even.
//! - **float -> float** and **integer -> f16/bf16** round to nearest even,
//!   once (f64 and wide integers go through a round-to-odd f32, which makes
//!   the final rounding exact).
//!   Overflow gives inf, or NaN (sign kept) for formats without inf
//!   (f8e4m3fn, fnuz formats); f4/f6 saturate to their largest value
//!   and turn NaN into a zero of the opposite sign (ml_dtypes, XLA).
//!   NaN stays NaN.
//! - **Subnormals**: f64 -> f32 flushes f32-subnormal results to zero (FTZ);
//!   f32 -> f64 (and f32 -> pred) treats subnormal inputs as zero (DAZ), as
//!   XLA:CPU's hardware conversions do. Conversions XLA:CPU performs with
//!   bit manipulation (bf16 <-> f32, f8 formats) keep subnormals.
//! - **-> pred** is `x != 0` (NaN gives true, -0 gives false).
//!   **pred ->** gives 0 or 1.
//! - **complex -> real** (or integer, or pred) takes the real part;
//!   **real -> complex** has a zero imaginary part.
//! - **bitcast-convert** reinterprets the bits. With different widths the
//!   wider element maps to the minor-most dimension of the narrower ones in
//!   little-endian order (element 0 holds the least significant bits), as on
//!   XLA's little-endian hosts; sub-byte types pack from the low bits. A pred
//!   is one byte (nonzero reads as true).
//! - **bitcast** is a reshape of the row-major elements when both shapes
//!   have the default (descending) layout. With explicit layouts it
//!   reinterprets the physical order: the operand's elements are laid out by
//!   its minor_to_major and read back by the result's (tiling and memory
//!   space are ignored). An element type change of the same width
//!   reinterprets the bits.

use crate::{
    bail,
    error::{EvalError, Result},
    eval::Interpreter,
    literal::{element_count, narrow_float_bits, strides, Data, ElementType, Literal},
    ops::elementwise::{
        array_operand, ftz32, ftz64, narrow_float, result_array, sub_byte_int, widen_f32, widen_sub_byte,
        wrap_sub_byte, FLUSH_SUBNORMALS,
    },
};
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::ast::{Instruction, PrimitiveType as T, Shape};
use std::borrow::Cow;

pub fn evaluate(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    Some(match inst.opcode.as_str() {
        "convert" => convert(inst, operands),
        "bitcast-convert" => bitcast_convert(inst, operands),
        "bitcast" => bitcast(interpreter, inst, operands),
        _ => return None,
    })
}

fn convert(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let (_, x) = array_operand(operands, 0)?;
    if x.len() != element_count(&dims) {
        bail!("the operand has {} elements, the result has {}", x.len(), element_count(&dims));
    }
    let data = convert_data(x, t)?;
    Ok(Literal::Array { dims, data })
}

// ---------------------------------------------------------------------------
// Element conversion

/// Conversions of one native numeric type by Rust's `as`, which has XLA's
/// semantics (int wrap, float->int saturation with NaN -> 0, rounding to
/// nearest even).
trait Prim: Copy {
    const FLOAT: bool;
    fn as_i8(self) -> i8;
    fn as_i16(self) -> i16;
    fn as_i32(self) -> i32;
    fn as_i64(self) -> i64;
    fn as_u8(self) -> u8;
    fn as_u16(self) -> u16;
    fn as_u32(self) -> u32;
    fn as_u64(self) -> u64;
    fn as_f32(self) -> f32;
    fn as_f64(self) -> f64;
    /// The value rounded to f32 with round-to-odd: a second rounding of
    /// the result to any format with at most 22 significand bits (f16,
    /// bf16) is then the correctly rounded value.
    fn as_f32_odd(self) -> f32;
    fn nonzero(self) -> bool;
}

/// Round-to-odd of an integer magnitude `m` to 24 significant bits.
#[inline(always)]
fn u64_to_f32_odd(m: u64) -> f32 {
    if m < 1 << 24 {
        return m as f32;
    }
    let shift = 40 - m.leading_zeros();
    let kept = (m >> shift) | ((m & ((1u64 << shift) - 1) != 0) as u64);
    kept as f32 * f32::from_bits((127 + shift) << 23)
}

/// Round-to-odd of an f64 to f32 (NaN and infinities pass through;
/// values beyond f32's range become infinities, which every narrower
/// format also overflows to).
#[inline(always)]
fn f64_to_f32_odd(x: f64) -> f32 {
    let t = x as f32;
    if !t.is_finite() || t as f64 == x {
        return t;
    }
    // Truncate toward zero, then make the last bit odd.
    let bits = if (t as f64).abs() > x.abs() { t.to_bits() - 1 } else { t.to_bits() };
    f32::from_bits(bits | 1)
}

macro_rules! impl_prim {
    ($($t:ty => $float:expr, $zero:expr, $odd:expr);* $(;)?) => {$(
        impl Prim for $t {
            const FLOAT: bool = $float;
            #[inline(always)] fn as_i8(self) -> i8 { self as i8 }
            #[inline(always)] fn as_i16(self) -> i16 { self as i16 }
            #[inline(always)] fn as_i32(self) -> i32 { self as i32 }
            #[inline(always)] fn as_i64(self) -> i64 { self as i64 }
            #[inline(always)] fn as_u8(self) -> u8 { self as u8 }
            #[inline(always)] fn as_u16(self) -> u16 { self as u16 }
            #[inline(always)] fn as_u32(self) -> u32 { self as u32 }
            #[inline(always)] fn as_u64(self) -> u64 { self as u64 }
            #[inline(always)] fn as_f32(self) -> f32 { self as f32 }
            #[inline(always)] fn as_f64(self) -> f64 { self as f64 }
            #[inline(always)] fn as_f32_odd(self) -> f32 { ($odd)(self) }
            #[inline(always)] fn nonzero(self) -> bool { self != $zero }
        }
    )*};
}

impl_prim!(
    i8 => false, 0, |x: i8| x as f32;
    i16 => false, 0, |x: i16| x as f32;
    i32 => false, 0, |x: i32| u64_to_f32_odd(x.unsigned_abs() as u64).copysign(x as f32);
    i64 => false, 0, |x: i64| u64_to_f32_odd(x.unsigned_abs()).copysign(x as f32);
    u8 => false, 0, |x: u8| x as f32;
    u16 => false, 0, |x: u16| x as f32;
    u32 => false, 0, |x: u32| u64_to_f32_odd(x as u64);
    u64 => false, 0, u64_to_f32_odd;
    f32 => true, 0.0, |x: f32| x;
    f64 => true, 0.0, f64_to_f32_odd;
);

#[inline(always)]
fn map<A: Copy, R>(a: &[A], f: impl Fn(A) -> R) -> Vec<R> {
    a.iter().map(|&x| f(x)).collect()
}

/// Converts native numbers to type `to`. `ftz_f32` flushes subnormal f32
/// results (for f64 sources).
fn from_prim<S: Prim>(v: &[S], to: ElementType, ftz_f32: bool) -> Result<Data> {
    let f32_out = |x: S| if ftz_f32 { ftz32(x.as_f32()) } else { x.as_f32() };
    Ok(match to {
        T::Pred => Data::Pred(map(v, S::nonzero)),
        T::S8 => Data::S8(map(v, S::as_i8)),
        T::S16 => Data::S16(map(v, S::as_i16)),
        T::S32 => Data::S32(map(v, S::as_i32)),
        T::S64 => Data::S64(map(v, S::as_i64)),
        T::U8 => Data::U8(map(v, S::as_u8)),
        T::U16 => Data::U16(map(v, S::as_u16)),
        T::U32 => Data::U32(map(v, S::as_u32)),
        T::U64 => Data::U64(map(v, S::as_u64)),
        T::F32 => Data::F32(map(v, f32_out)),
        T::F64 => Data::F64(map(v, S::as_f64)),
        T::F16 => Data::F16(map(v, |x| f16::from_f32(x.as_f32_odd()))),
        T::Bf16 => Data::Bf16(map(v, |x| bf16::from_f32(x.as_f32_odd()))),
        T::C64 => Data::C64(map(v, |x| Complex32::new(f32_out(x), 0.0))),
        T::C128 => Data::C128(map(v, |x| Complex64::new(x.as_f64(), 0.0))),
        _ => {
            if let Some((bits, signed)) = sub_byte_int(to) {
                let (min, max) =
                    if signed { (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) } else { (0, (1i64 << bits) - 1) };
                Data::Bits(
                    to,
                    map(v, |x| {
                        let i = if S::FLOAT {
                            let f = x.as_f64();
                            if f.is_nan() {
                                0
                            } else {
                                (f.clamp(min as f64, max as f64)) as i64
                            }
                        } else {
                            x.as_i64()
                        };
                        wrap_sub_byte(i as u8, bits, signed)
                    }),
                )
            } else if let Some(format) = narrow_float(to) {
                Data::Bits(to, map(v, |x| narrow_float_bits(&format, x.as_f64()) as u8))
            } else {
                bail!("cannot convert to {}", to.name())
            }
        }
    })
}

/// Converts `d` to element type `to` with XLA's semantics.
pub(crate) fn convert_data(d: &Data, to: ElementType) -> Result<Data> {
    if d.element_type() == to {
        return Ok(d.clone());
    }
    match d {
        Data::Pred(v) => from_prim(&map(v, |b| b as u8), to, false),
        Data::S8(v) => from_prim(v, to, false),
        Data::S16(v) => from_prim(v, to, false),
        Data::S32(v) => from_prim(v, to, false),
        Data::S64(v) => from_prim(v, to, false),
        Data::U8(v) => from_prim(v, to, false),
        Data::U16(v) => from_prim(v, to, false),
        Data::U32(v) => from_prim(v, to, false),
        Data::U64(v) => from_prim(v, to, false),
        Data::F32(v) => {
            let v: Cow<[f32]> = if FLUSH_SUBNORMALS && matches!(to, T::F64 | T::C128 | T::Pred) {
                Cow::Owned(map(v, ftz32))
            } else {
                Cow::Borrowed(v)
            };
            from_prim(&v, to, false)
        }
        Data::F64(v) => {
            let v: Cow<[f64]> =
                if FLUSH_SUBNORMALS && to == T::Pred { Cow::Owned(map(v, ftz64)) } else { Cow::Borrowed(v) };
            from_prim(&v, to, true)
        }
        Data::C64(v) => match to {
            T::C128 => Ok(Data::C128(map(v, |z| Complex64::new(ftz32(z.re) as f64, ftz32(z.im) as f64)))),
            _ => convert_data(&Data::F32(map(v, |z| z.re)), to),
        },
        Data::C128(v) => match to {
            T::C64 => Ok(Data::C64(map(v, |z| Complex32::new(ftz32(z.re as f32), ftz32(z.im as f32))))),
            _ => convert_data(&Data::F64(map(v, |z| z.re)), to),
        },
        Data::F16(_) | Data::Bf16(_) => from_prim(&widen_f32(d).unwrap(), to, false),
        Data::Bits(t, _) => {
            if let Some(wide) = widen_sub_byte(d) {
                convert_data(&wide, to)
            } else if let Some(v) = widen_f32(d) {
                from_prim(&v, to, false)
            } else {
                bail!("cannot convert from {}", t.name())
            }
        }
    }
}

// ---------------------------------------------------------------------------
// bitcast-convert

/// Bits per element of `t`.
pub(crate) fn element_bits(t: ElementType) -> Option<u32> {
    Some(match t {
        T::Pred | T::S8 | T::U8 => 8,
        T::S16 | T::U16 | T::F16 | T::Bf16 => 16,
        T::S32 | T::U32 | T::F32 => 32,
        T::S64 | T::U64 | T::F64 | T::C64 => 64,
        T::C128 => 128,
        _ => {
            if let Some((bits, _)) = sub_byte_int(t) {
                bits
            } else {
                narrow_float(t)?.width()
            }
        }
    })
}

/// The elements' bytes in little-endian order (byte-sized types only).
fn to_le_bytes(d: &Data) -> Option<Vec<u8>> {
    macro_rules! bytes {
        ($v:expr, $f:expr) => {
            $v.iter().flat_map(|&x| $f(x)).collect()
        };
    }
    Some(match d {
        Data::Pred(v) => map(v, |b| b as u8),
        Data::S8(v) => map(v, |x| x as u8),
        Data::U8(v) => v.clone(),
        Data::S16(v) => bytes!(v, i16::to_le_bytes),
        Data::S32(v) => bytes!(v, i32::to_le_bytes),
        Data::S64(v) => bytes!(v, i64::to_le_bytes),
        Data::U16(v) => bytes!(v, u16::to_le_bytes),
        Data::U32(v) => bytes!(v, u32::to_le_bytes),
        Data::U64(v) => bytes!(v, u64::to_le_bytes),
        Data::F16(v) => bytes!(v, |x: f16| x.to_bits().to_le_bytes()),
        Data::Bf16(v) => bytes!(v, |x: bf16| x.to_bits().to_le_bytes()),
        Data::F32(v) => bytes!(v, |x: f32| x.to_bits().to_le_bytes()),
        Data::F64(v) => bytes!(v, |x: f64| x.to_bits().to_le_bytes()),
        Data::C64(v) => v
            .iter()
            .flat_map(|z| z.re.to_bits().to_le_bytes().into_iter().chain(z.im.to_bits().to_le_bytes()))
            .collect(),
        Data::C128(v) => v
            .iter()
            .flat_map(|z| z.re.to_bits().to_le_bytes().into_iter().chain(z.im.to_bits().to_le_bytes()))
            .collect(),
        Data::Bits(t, v) if element_bits(*t) == Some(8) => v.clone(),
        Data::Bits(..) => return None,
    })
}

/// Elements of type `t` from little-endian bytes (byte-sized types only).
fn from_le_bytes(t: ElementType, bytes: &[u8]) -> Result<Data> {
    macro_rules! read {
        ($variant:ident, $ty:ty, $n:expr, $f:expr) => {
            Data::$variant(bytes.chunks_exact($n).map(|c| $f(<$ty>::from_le_bytes(c.try_into().unwrap()))).collect())
        };
    }
    Ok(match t {
        T::Pred => Data::Pred(map(bytes, |b| b != 0)),
        T::S8 => Data::S8(map(bytes, |b| b as i8)),
        T::U8 => Data::U8(bytes.to_vec()),
        T::S16 => read!(S16, i16, 2, |x| x),
        T::S32 => read!(S32, i32, 4, |x| x),
        T::S64 => read!(S64, i64, 8, |x| x),
        T::U16 => read!(U16, u16, 2, |x| x),
        T::U32 => read!(U32, u32, 4, |x| x),
        T::U64 => read!(U64, u64, 8, |x| x),
        T::F16 => read!(F16, u16, 2, f16::from_bits),
        T::Bf16 => read!(Bf16, u16, 2, bf16::from_bits),
        T::F32 => read!(F32, u32, 4, f32::from_bits),
        T::F64 => read!(F64, u64, 8, f64::from_bits),
        T::C64 => Data::C64(
            bytes
                .chunks_exact(8)
                .map(|c| {
                    Complex32::new(
                        f32::from_bits(u32::from_le_bytes(c[..4].try_into().unwrap())),
                        f32::from_bits(u32::from_le_bytes(c[4..].try_into().unwrap())),
                    )
                })
                .collect(),
        ),
        T::C128 => Data::C128(
            bytes
                .chunks_exact(16)
                .map(|c| {
                    Complex64::new(
                        f64::from_bits(u64::from_le_bytes(c[..8].try_into().unwrap())),
                        f64::from_bits(u64::from_le_bytes(c[8..].try_into().unwrap())),
                    )
                })
                .collect(),
        ),
        _ if element_bits(t) == Some(8) => Data::Bits(t, bytes.to_vec()),
        _ => bail!("cannot bitcast to {}", t.name()),
    })
}

/// Bit patterns (low `width` bits of each u64) of types up to 64 bits.
fn to_bit_values(d: &Data) -> Option<Vec<u64>> {
    let t = d.element_type();
    let width = element_bits(t)?;
    if width > 64 {
        return None;
    }
    if let Data::Bits(_, v) = d {
        let mask = (1u64 << width) - 1;
        return Some(map(v, |b| b as u64 & mask));
    }
    let bytes = to_le_bytes(d)?;
    let size = (width / 8) as usize;
    Some(bytes.chunks_exact(size).map(|c| c.iter().rev().fold(0u64, |acc, &b| (acc << 8) | b as u64)).collect())
}

/// Elements of type `t` from bit patterns.
fn from_bit_values(t: ElementType, values: &[u64]) -> Result<Data> {
    let width = element_bits(t).ok_or_else(|| EvalError::new(format!("cannot bitcast to {}", t.name())))?;
    if let Some((bits, signed)) = sub_byte_int(t) {
        return Ok(Data::Bits(t, map(values, |v| wrap_sub_byte(v as u8, bits, signed))));
    }
    if width < 8 {
        let mask = (1u64 << width) - 1;
        return Ok(Data::Bits(t, map(values, |v| (v & mask) as u8)));
    }
    let size = (width / 8) as usize;
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes().into_iter().take(size)).collect();
    from_le_bytes(t, &bytes)
}

/// Reinterprets the elements `d` as type `to` (element counts scale with
/// the width ratio).
pub(crate) fn bitcast_data(d: &Data, to: ElementType) -> Result<Data> {
    let from = d.element_type();
    let (wi, wo) = match (element_bits(from), element_bits(to)) {
        (Some(a), Some(b)) => (a, b),
        _ => bail!("cannot bitcast {} to {}", from.name(), to.name()),
    };
    if wi % 8 == 0 && wo % 8 == 0 {
        let bytes = to_le_bytes(d).ok_or_else(|| EvalError::new(format!("cannot bitcast {}", from.name())))?;
        return from_le_bytes(to, &bytes);
    }
    let values = to_bit_values(d).ok_or_else(|| EvalError::new(format!("cannot bitcast {}", from.name())))?;
    let out: Vec<u64> = if wi == wo {
        values
    } else if wi > wo && wi % wo == 0 {
        let k = wi / wo;
        let mask = (1u64 << wo) - 1;
        values.iter().flat_map(|&v| (0..k).map(move |i| (v >> (i * wo)) & mask)).collect()
    } else if wo > wi && wo % wi == 0 && wo <= 64 {
        let k = (wo / wi) as usize;
        if values.len() % k != 0 {
            bail!("{} elements cannot be grouped by {k}", values.len());
        }
        values
            .chunks_exact(k)
            .map(|c| c.iter().enumerate().fold(0u64, |acc, (i, &v)| acc | (v << (i as u32 * wi))))
            .collect()
    } else {
        bail!("cannot bitcast {} ({wi} bits) to {} ({wo} bits)", from.name(), to.name())
    };
    from_bit_values(to, &out)
}

fn bitcast_convert(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let (_, x) = array_operand(operands, 0)?;
    let data = bitcast_data(x, t)?;
    if data.len() != element_count(&dims) {
        bail!("bitcast-convert gives {} elements, the result shape has {}", data.len(), element_count(&dims));
    }
    Ok(Literal::Array { dims, data })
}

// ---------------------------------------------------------------------------
// bitcast

/// The minor_to_major of an array shape (None: the default layout).
fn minor_to_major(shape: &Shape) -> Option<Vec<i64>> {
    match shape {
        Shape::Array { layout: Some(layout), dims, .. } => {
            let m2m = layout.minor_to_major.clone();
            let default: Vec<i64> = (0..dims.len() as i64).rev().collect();
            (m2m.len() == dims.len() && m2m != default).then_some(m2m)
        }
        _ => None,
    }
}

/// The shape of operand `i` of `inst`: written with the operand, or that of
/// the instruction defining it.
fn operand_shape(interpreter: &Interpreter, inst: &Instruction, i: usize) -> Option<Shape> {
    let operand = inst.operands.get(i)?;
    if let Some(shape) = &operand.shape {
        return Some(shape.clone());
    }
    let module = interpreter.module();
    let computation = module.computations.iter().find(|c| c.instructions.iter().any(|x| std::ptr::eq(x, inst)))?;
    computation.instructions.iter().find(|x| x.name == operand.name).map(|x| x.shape.clone())
}

/// Transposes row-major `data` of `dims`: result dimension `k` is input
/// dimension `perm[k]`.
fn transpose(data: &Data, dims: &[i64], perm: &[usize]) -> Data {
    let in_strides = strides(dims);
    let out_dims: Vec<i64> = perm.iter().map(|&p| dims[p]).collect();
    let step: Vec<i64> = perm.iter().map(|&p| in_strides[p]).collect();
    let n = element_count(dims);
    let mut indices = Vec::with_capacity(n);
    let mut index = vec![0i64; out_dims.len()];
    let mut offset = 0i64;
    for _ in 0..n {
        indices.push(offset as usize);
        for d in (0..index.len()).rev() {
            index[d] += 1;
            offset += step[d];
            if index[d] < out_dims[d] {
                break;
            }
            offset -= step[d] * index[d];
            index[d] = 0;
        }
    }
    data.select(&indices)
}

fn bitcast(interpreter: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let (in_dims, x) = array_operand(operands, 0)?;
    let data = if x.element_type() != t {
        if element_bits(x.element_type()) != element_bits(t) {
            bail!("bitcast from {} to {} changes the element width", x.element_type().name(), t.name());
        }
        bitcast_data(x, t)?
    } else {
        x.clone()
    };
    if data.len() != element_count(&dims) {
        bail!("bitcast of {} elements to a shape with {}", data.len(), element_count(&dims));
    }
    let in_layout = operand_shape(interpreter, inst, 0).and_then(|s| minor_to_major(&s));
    let out_layout = minor_to_major(&inst.shape);
    if in_layout.is_none() && out_layout.is_none() {
        return Ok(Literal::Array { dims, data });
    }
    let major_to_minor = |m2m: Option<Vec<i64>>, rank: usize| -> Result<Vec<usize>> {
        let order: Vec<usize> = match m2m {
            Some(m) => m.iter().rev().map(|&d| d as usize).collect(),
            None => (0..rank).collect(),
        };
        let mut seen = vec![false; rank];
        for &d in &order {
            if d >= rank || std::mem::replace(&mut seen[d], true) {
                bail!("invalid layout {order:?} for rank {rank}");
            }
        }
        Ok(order)
    };
    // Physical (major-to-minor) order of the operand's elements.
    let in_order = major_to_minor(in_layout, in_dims.len())?;
    let physical = transpose(&data, in_dims, &in_order);
    // Read the buffer as the result's physical layout, then go back to
    // row-major logical order.
    let out_order = major_to_minor(out_layout, dims.len())?;
    let physical_dims: Vec<i64> = out_order.iter().map(|&d| dims[d]).collect();
    let mut inverse = vec![0usize; out_order.len()];
    for (k, &d) in out_order.iter().enumerate() {
        inverse[d] = k;
    }
    let data = transpose(&physical, &physical_dims, &inverse);
    Ok(Literal::Array { dims, data })
}
