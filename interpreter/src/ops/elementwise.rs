//! Elementwise ops: unary and binary arithmetic, bitwise and logical ops,
//! `compare`, `select`, `clamp`, `complex`/`real`/`imag`, `constant`,
//! `iota`, `reduce-precision` and `stochastic-convert`.
//!
//! Every kernel matches on the element type once and then loops over typed
//! slices. Types without a native Rust counterpart are computed the way
//! XLA:CPU computes them:
//!
//! - f16, bf16 and the f8/f6/f4 formats are widened to f32 (exactly),
//!   computed in f32 and rounded back to nearest even, once per op.
//! - s2/s4/u2/u4 (and s1/u1) are computed as s8/u8 and wrapped back to their
//!   width, which gives two's-complement results of that width.
//! - f32 transcendental functions are evaluated in f64 and rounded, so they
//!   are correctly rounded in practice (XLA:CPU's own approximations are
//!   within a few ulp of these); c64 math is evaluated in c128 and rounded.
//!
//! Edge-case decisions (XLA:CPU's behaviour, checked against the oracle
//! cases and XLA's elemental IR emitter / HloEvaluator):
//!
//! - **Subnormals** ([`FLUSH_SUBNORMALS`]): XLA:CPU runs with FTZ and DAZ.
//!   Arithmetic on f32/f64 (and bf16, which is computed in f32) treats
//!   subnormal inputs as zero and flushes subnormal results to zero, keeping
//!   the sign: add, subtract, multiply, divide, remainder, power, atan2,
//!   every transcendental, sqrt/rsqrt/cbrt, floor/ceil/round, sign and
//!   float compares (FLOAT type). Ops that only move or select values
//!   (negate, abs, select, maximum/minimum/clamp, real/imag/complex,
//!   bitcasts, TOTALORDER compares, reduce-precision) keep subnormals bit
//!   exact. Complex arithmetic does not flush.
//! - **maximum/minimum/clamp** on floats propagate NaN (XLA:CPU lowers them
//!   to `llvm.maximum`/`llvm.minimum`): if either operand is NaN the result
//!   is NaN (the lhs NaN when both are). -0 < +0: `maximum(-0, +0) = +0`,
//!   `minimum(-0, +0) = -0`. `clamp(lo, x, hi) = minimum(hi, maximum(lo, x))`,
//!   so `lo > hi` gives `hi`. On pred, maximum is `or` and minimum is `and`.
//! - **Integer division**: `x / 0 = -1` (all bits set, also for unsigned),
//!   `x % 0 = x`, `INT_MIN / -1 = INT_MIN`, `INT_MIN % -1 = 0`. add, subtract,
//!   multiply, negate and abs wrap (`abs(INT_MIN) = INT_MIN`).
//! - **Shifts**: the shift amount is read as unsigned; amounts `>=` the bit
//!   width give 0 for shift-left and shift-right-logical and the sign fill
//!   (0 or -1) for shift-right-arithmetic.
//! - **Integer power**: exponentiation by squaring with wrapping; a negative
//!   exponent gives 1 when the base is 1 and 0 otherwise (also for base -1,
//!   as XLA). `x^0 = 1`. (XLA:CPU's emitter only looks at the low 6 bits of
//!   the exponent; we use the whole exponent, which differs only for
//!   exponents >= 64, where the true wrapped power is returned.)
//! - **Float power**: C `pow` semantics (`pow(x, 0) = 1`, `pow(1, y) = 1`
//!   even for NaN). Complex power: `z^0 = 1`, `0^w = 0` for real `w > 0`,
//!   otherwise `exp(w log z)`.
//! - **remainder** on floats is C `fmod` (sign of the dividend).
//! - **sign**: floats give -1, -0, +0, +1 or NaN for NaN (the sign of zero is
//!   kept); integers give -1/0/1; complex gives `z / |z|` or 0.
//! - **round-nearest-afz** rounds ties away from zero; **round-nearest-even**
//!   ties to even; both keep the sign of zero.
//! - **count-leading-zeros** and **popcnt** count within the element width
//!   (for s4: 4 bits).
//! - **compare**: the default comparison type is FLOAT for floats and
//!   complex, SIGNED for signed integers, UNSIGNED for unsigned integers and
//!   pred. FLOAT follows IEEE (NaN compares unequal to everything, NE is
//!   true); TOTALORDER orders -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN
//!   by the bit pattern (NaN payloads ordered by their bits); SIGNED/UNSIGNED
//!   reinterpret the integer bits as that signedness. Complex numbers only
//!   support EQ (both parts equal) and NE.
//! - **select** takes a pred array of the result shape or a scalar pred;
//!   with a scalar pred, tuples may be selected as a whole. **clamp** accepts
//!   scalar min/max.
//! - Binary ops also accept a scalar operand for an array result (implicit
//!   scalar broadcast), although verified HLO never needs it.
//! - **constant** elements are read as XLA's parser does: decimals go
//!   through f64 and are then rounded to the element type (so f32 decimals
//!   are rounded twice, exactly like XLA); `inf`, `-inf`, `nan`, `-nan`,
//!   `nan(0x...)` (payload in the mantissa), hex floats (`0x1.8p3`),
//!   complex `(re, im)`, pred `true`/`false` (or 1/0). Integer tokens must fit
//!   the element type. Narrow floats whose decimal overflows the format
//!   become inf or NaN as a convert would.
//! - **iota** converts the s64 index to the element type as `convert`
//!   does.
//! - **reduce-precision** is XLA's bit algorithm: round the mantissa to
//!   nearest even, then values above the largest finite value of the
//!   reduced exponent range become inf and values at or below its smallest
//!   normal exponent become (signed) zero, so reduced denormals flush to
//!   zero. NaN stays the input NaN (becomes +inf when `mantissa_bits=0`).
//!   f16/bf16/f32/f64 are reduced in their own bits; f8/f6/f4 in f32.
//! - **stochastic-convert** (float to signed integer) follows XLA's
//!   decomposition: `|x|` is truncated and rounded away from zero when the
//!   random bits are below the fraction scaled to 2^bits; values at or beyond
//!   the type's limits saturate; NaN gives 0.

use crate::{
    bail,
    error::{EvalError, Result},
    eval::{attr, attr_error, require, Interpreter},
    literal::{element_count, narrow_float_bits, static_dims, strides, Data, ElementType, Literal},
    ops::convert::convert_data,
};
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::{
    ast::{self, Instruction, LiteralArray, PrimitiveType as T, Shape},
    attrs,
    floats::{float_format, FloatFormat},
};
use std::borrow::Cow;

/// Whether f32/f64 arithmetic flushes subnormal inputs and results to zero
/// as XLA:CPU does (DAZ/FTZ). See the module documentation for which ops.
pub const FLUSH_SUBNORMALS: bool = true;

pub fn evaluate(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    let op = inst.opcode.as_str();
    let result = match op {
        "abs"
        | "acos"
        | "acosh"
        | "asin"
        | "asinh"
        | "atan"
        | "atanh"
        | "cbrt"
        | "ceil"
        | "count-leading-zeros"
        | "cosine"
        | "cosh"
        | "erf"
        | "exponential"
        | "exponential-minus-one"
        | "floor"
        | "imag"
        | "is-finite"
        | "log"
        | "log-plus-one"
        | "logistic"
        | "negate"
        | "not"
        | "popcnt"
        | "real"
        | "round-nearest-afz"
        | "round-nearest-even"
        | "rsqrt"
        | "sign"
        | "sine"
        | "sinh"
        | "sqrt"
        | "tan"
        | "tanh" => unary(op, inst, operands),
        "add"
        | "subtract"
        | "multiply"
        | "divide"
        | "remainder"
        | "maximum"
        | "minimum"
        | "power"
        | "atan2"
        | "and"
        | "or"
        | "xor"
        | "shift-left"
        | "shift-right-arithmetic"
        | "shift-right-logical"
        | "mulhi"
        | "complex" => binary(op, inst, operands),
        "compare" => compare(inst, operands),
        "select" => select(inst, operands),
        "clamp" => clamp(inst, operands),
        "constant" => constant(inst),
        "iota" => iota(inst),
        "reduce-precision" => reduce_precision(inst, operands),
        "stochastic-convert" => stochastic_convert(inst, operands),
        _ => return None,
    };
    Some(result)
}

// ---------------------------------------------------------------------------
// Shapes and operands

/// Element type and dims of an array-shaped instruction.
pub(crate) fn result_array(inst: &Instruction) -> Result<(ElementType, Vec<i64>)> {
    match &inst.shape {
        Shape::Array { element, dims, .. } => Ok((*element, static_dims(dims))),
        _ => bail!("the result shape must be an array"),
    }
}

/// Operand `i` as an array: (dims, data).
pub(crate) fn array_operand<'a>(operands: &[&'a Literal], i: usize) -> Result<(&'a [i64], &'a Data)> {
    match operands.get(i) {
        Some(Literal::Array { dims, data }) => Ok((dims, data)),
        Some(_) => bail!("operand {i} must be an array"),
        None => bail!("missing operand {i}"),
    }
}

/// `data` with `n` elements: itself, or a scalar repeated.
fn expand<'a>(data: &'a Data, n: usize, what: &str) -> Result<Cow<'a, Data>> {
    if data.len() == n {
        Ok(Cow::Borrowed(data))
    } else if data.len() == 1 {
        Ok(Cow::Owned(data.select(&vec![0; n])))
    } else {
        bail!("{what} has {} elements, the result has {n}", data.len())
    }
}

/// Wraps `data` as the result of `inst`, checking type and size.
fn finish(t: ElementType, dims: Vec<i64>, data: Data) -> Result<Literal> {
    if data.element_type() != t {
        bail!("computed elements of type {} but the result type is {}", data.element_type().name(), t.name());
    }
    if data.len() != element_count(&dims) {
        bail!("computed {} elements but the result shape has {}", data.len(), element_count(&dims));
    }
    Ok(Literal::Array { dims, data })
}

fn unsupported(op: &str, t: ElementType) -> EvalError {
    EvalError::new(format!("{op} is not defined for element type {}", t.name()))
}

// ---------------------------------------------------------------------------
// Element helpers shared with convert.rs

/// Flushes a subnormal f32 to zero of the same sign (when enabled).
#[inline(always)]
pub(crate) fn ftz32(x: f32) -> f32 {
    if FLUSH_SUBNORMALS && x.to_bits() & 0x7f80_0000 == 0 {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Flushes a subnormal f64 to zero of the same sign (when enabled).
#[inline(always)]
pub(crate) fn ftz64(x: f64) -> f64 {
    if FLUSH_SUBNORMALS && x.to_bits() & 0x7ff0_0000_0000_0000 == 0 {
        f64::from_bits(x.to_bits() & 0x8000_0000_0000_0000)
    } else {
        x
    }
}

/// Sub-byte integer types and their width in bits.
pub(crate) fn sub_byte_int(t: ElementType) -> Option<(u32, bool)> {
    match t {
        T::S1 => Some((1, true)),
        T::S2 => Some((2, true)),
        T::S4 => Some((4, true)),
        T::U1 => Some((1, false)),
        T::U2 => Some((2, false)),
        T::U4 => Some((4, false)),
        _ => None,
    }
}

/// The f8/f6/f4 formats (floats stored as bits).
pub(crate) fn narrow_float(t: ElementType) -> Option<FloatFormat> {
    match t {
        T::F16 | T::Bf16 | T::F32 | T::F64 => None,
        _ => float_format(t),
    }
}

/// Whether `t` is a float type computed through f32 (f16, bf16, f8/f6/f4).
fn f32_computed(t: ElementType) -> bool {
    matches!(t, T::F16 | T::Bf16) || narrow_float(t).is_some()
}

/// f32 values of every bit pattern of a narrow float format (NaN keeps its
/// sign; the table has 256 entries, patterns masked to the format width).
pub(crate) fn narrow_decode_table(format: &FloatFormat) -> Vec<f32> {
    let mask = (1u64 << format.width()) - 1;
    (0u64..256)
        .map(|b| {
            let bits = b & mask;
            match format.special_text(bits) {
                Some(s) if s.contains("nan") => {
                    if s.starts_with('-') {
                        -f32::NAN
                    } else {
                        f32::NAN
                    }
                }
                Some(s) if s.starts_with('-') => f32::NEG_INFINITY,
                Some(_) => f32::INFINITY,
                None => format.finite_value(bits) as f32,
            }
        })
        .collect()
}

/// The elements of an f16/bf16/f8/f6/f4 (or f32) array as f32, exactly.
pub(crate) fn widen_f32(d: &Data) -> Option<Vec<f32>> {
    match d {
        Data::F32(v) => Some(v.clone()),
        Data::F16(v) => Some(v.iter().map(|x| x.to_f32()).collect()),
        Data::Bf16(v) => Some(v.iter().map(|x| x.to_f32()).collect()),
        Data::Bits(t, v) => {
            let table = narrow_decode_table(&narrow_float(*t)?);
            Some(v.iter().map(|&b| table[b as usize]).collect())
        }
        _ => None,
    }
}

/// f32 values rounded (nearest even) to the float type `t`.
pub(crate) fn narrow_from_f32(t: ElementType, v: Vec<f32>) -> Data {
    match t {
        T::F32 => Data::F32(v),
        T::F64 => Data::F64(v.iter().map(|&x| x as f64).collect()),
        T::F16 => Data::F16(v.iter().map(|&x| f16::from_f32(x)).collect()),
        T::Bf16 => Data::Bf16(v.iter().map(|&x| bf16::from_f32(x)).collect()),
        _ => match narrow_float(t) {
            Some(format) => Data::Bits(t, v.iter().map(|&x| narrow_float_bits(&format, x as f64) as u8).collect()),
            None => Data::zeros(t, 0),
        },
    }
}

/// Sub-byte integers as s8/u8 data (their bytes are already sign- or
/// zero-extended).
pub(crate) fn widen_sub_byte(d: &Data) -> Option<Data> {
    match d {
        Data::Bits(t, v) => {
            let (_, signed) = sub_byte_int(*t)?;
            Some(if signed { Data::S8(v.iter().map(|&b| b as i8).collect()) } else { Data::U8(v.clone()) })
        }
        _ => None,
    }
}

/// Wraps a byte to the low `bits` bits, sign- or zero-extended.
#[inline(always)]
pub(crate) fn wrap_sub_byte(x: u8, bits: u32, signed: bool) -> u8 {
    let shift = 8 - bits;
    if signed {
        (((x << shift) as i8) >> shift) as u8
    } else {
        x & (0xffu8 >> shift)
    }
}

/// s8/u8 data wrapped back to the sub-byte type `t`.
pub(crate) fn narrow_sub_byte(t: ElementType, d: Data) -> Result<Data> {
    let (bits, signed) =
        sub_byte_int(t).ok_or_else(|| EvalError::new(format!("{} is not a sub-byte type", t.name())))?;
    let bytes: Vec<u8> = match d {
        Data::S8(v) => v.into_iter().map(|x| x as u8).collect(),
        Data::U8(v) => v,
        Data::Pred(v) => return Ok(Data::Pred(v)),
        other => bail!("internal: sub-byte result of type {}", other.element_type().name()),
    };
    Ok(Data::Bits(t, bytes.into_iter().map(|x| wrap_sub_byte(x, bits, signed)).collect()))
}

#[inline(always)]
fn map<A: Copy, R>(a: &[A], f: impl Fn(A) -> R) -> Vec<R> {
    a.iter().map(|&x| f(x)).collect()
}

#[inline(always)]
fn zip_map<A: Copy, B: Copy, R>(a: &[A], b: &[B], f: impl Fn(A, B) -> R) -> Vec<R> {
    a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
}

// ---------------------------------------------------------------------------
// Integer semantics

/// XLA's integer operations on one native integer type.
pub(crate) trait XInt: Copy + Ord {
    fn xdiv(self, o: Self) -> Self;
    fn xrem(self, o: Self) -> Self;
    fn xpow(self, o: Self) -> Self;
    fn xshl(self, o: Self) -> Self;
    fn xsra(self, o: Self) -> Self;
    fn xsrl(self, o: Self) -> Self;
    fn xclz(self) -> Self;
    fn xpopcnt(self) -> Self;
    fn xabs(self) -> Self;
    fn xsign(self) -> Self;
    fn xmulhi(self, o: Self) -> Self;
}

macro_rules! impl_xint {
    ($($t:ty, $ut:ty, $st:ty, $wide:ty);* $(;)?) => {$(
        #[allow(unused_comparisons)]
        impl XInt for $t {
            #[inline(always)]
            fn xdiv(self, o: Self) -> Self {
                if o == 0 { !0 } else { self.wrapping_div(o) }
            }
            #[inline(always)]
            fn xrem(self, o: Self) -> Self {
                if o == 0 { self } else { self.wrapping_rem(o) }
            }
            #[inline]
            fn xpow(self, o: Self) -> Self {
                if o < 0 {
                    // 1/x^|o| truncated: only 1 and -1 survive.
                    let minus_one = (0 as $t).wrapping_sub(1);
                    return if self == 1 {
                        1
                    } else if self == minus_one {
                        if o & 1 == 1 { minus_one } else { 1 }
                    } else {
                        0
                    };
                }
                let mut e = o as $ut;
                let mut base = self;
                let mut acc: $t = 1;
                while e != 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                acc
            }
            #[inline(always)]
            fn xshl(self, o: Self) -> Self {
                if (o as $ut as u64) >= Self::BITS as u64 { 0 } else { self << (o as $ut as u32) }
            }
            #[inline(always)]
            fn xsra(self, o: Self) -> Self {
                let s = self as $st;
                if (o as $ut as u64) >= Self::BITS as u64 {
                    (if s < 0 { -1 } else { 0 }) as $st as Self
                } else {
                    (s >> (o as $ut as u32)) as Self
                }
            }
            #[inline(always)]
            fn xsrl(self, o: Self) -> Self {
                if (o as $ut as u64) >= Self::BITS as u64 { 0 } else { ((self as $ut) >> (o as $ut as u32)) as Self }
            }
            #[inline(always)]
            fn xclz(self) -> Self {
                self.leading_zeros() as Self
            }
            #[inline(always)]
            fn xpopcnt(self) -> Self {
                self.count_ones() as Self
            }
            #[inline(always)]
            fn xabs(self) -> Self {
                if self < 0 { self.wrapping_neg() } else { self }
            }
            #[inline(always)]
            fn xsign(self) -> Self {
                if self > 0 { 1 } else if self < 0 { (0 as Self).wrapping_sub(1) } else { 0 }
            }
            #[inline(always)]
            fn xmulhi(self, o: Self) -> Self {
                (((self as $wide) * (o as $wide)) >> Self::BITS) as Self
            }
        }
    )*};
}

impl_xint!(
    i8, u8, i8, i16;
    i16, u16, i16, i32;
    i32, u32, i32, i64;
    i64, u64, i64, i128;
    u8, u8, i8, u16;
    u16, u16, i16, u32;
    u32, u32, i32, u64;
    u64, u64, i64, u128;
);

/// Applies `$f` to every element of a native integer array.
macro_rules! int_unary {
    ($d:expr, $f:expr) => {
        match $d {
            Data::S8(v) => Some(Data::S8(map(v, $f))),
            Data::S16(v) => Some(Data::S16(map(v, $f))),
            Data::S32(v) => Some(Data::S32(map(v, $f))),
            Data::S64(v) => Some(Data::S64(map(v, $f))),
            Data::U8(v) => Some(Data::U8(map(v, $f))),
            Data::U16(v) => Some(Data::U16(map(v, $f))),
            Data::U32(v) => Some(Data::U32(map(v, $f))),
            Data::U64(v) => Some(Data::U64(map(v, $f))),
            _ => None,
        }
    };
}

/// Applies `$f` elementwise to two native integer arrays of the same type.
macro_rules! int_binary {
    ($a:expr, $b:expr, $f:expr) => {
        match ($a, $b) {
            (Data::S8(x), Data::S8(y)) => Some(Data::S8(zip_map(x, y, $f))),
            (Data::S16(x), Data::S16(y)) => Some(Data::S16(zip_map(x, y, $f))),
            (Data::S32(x), Data::S32(y)) => Some(Data::S32(zip_map(x, y, $f))),
            (Data::S64(x), Data::S64(y)) => Some(Data::S64(zip_map(x, y, $f))),
            (Data::U8(x), Data::U8(y)) => Some(Data::U8(zip_map(x, y, $f))),
            (Data::U16(x), Data::U16(y)) => Some(Data::U16(zip_map(x, y, $f))),
            (Data::U32(x), Data::U32(y)) => Some(Data::U32(zip_map(x, y, $f))),
            (Data::U64(x), Data::U64(y)) => Some(Data::U64(zip_map(x, y, $f))),
            _ => None,
        }
    };
}

// ---------------------------------------------------------------------------
// Float helpers

macro_rules! float_minmax {
    ($max:ident, $min:ident, $t:ty) => {
        /// NaN-propagating maximum with -0 < +0.
        #[inline(always)]
        pub(crate) fn $max(a: $t, b: $t) -> $t {
            if a.is_nan() {
                a
            } else if b.is_nan() {
                b
            } else if a > b {
                a
            } else if b > a {
                b
            } else if a.is_sign_negative() {
                b
            } else {
                a
            }
        }
        /// NaN-propagating minimum with -0 < +0.
        #[inline(always)]
        pub(crate) fn $min(a: $t, b: $t) -> $t {
            if a.is_nan() {
                a
            } else if b.is_nan() {
                b
            } else if a < b {
                a
            } else if b < a {
                b
            } else if a.is_sign_negative() {
                a
            } else {
                b
            }
        }
    };
}
float_minmax!(fmax32, fmin32, f32);
float_minmax!(fmax64, fmin64, f64);

/// `sign` of a float: NaN stays, zeros keep their sign, else +-1.
macro_rules! float_sign {
    ($x:expr) => {{
        let x = $x;
        if x.is_nan() || x == 0.0 {
            x
        } else if x > 0.0 {
            1.0
        } else {
            -1.0
        }
    }};
}

/// erf in f64: `2/sqrt(pi) * exp(-x^2) * sum (2x^2)^n x / (2n+1)!!`, a
/// series of positive terms that is accurate to a few ulp for |x| < 6
/// (beyond, erf rounds to +-1).
pub(crate) fn erf64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    if a >= 6.0 {
        return 1f64.copysign(x);
    }
    if a == 0.0 {
        return x;
    }
    let a2 = a * a;
    // exp(-(a^2)) with the rounding error of a^2 compensated.
    let err = a.mul_add(a, -a2);
    let e = (-a2).exp() * (1.0 - err);
    let two_a2 = 2.0 * a2;
    let mut term = a;
    let mut sum = a;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= two_a2 / (2.0 * n + 1.0);
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    let r = std::f64::consts::FRAC_2_SQRT_PI * e * sum;
    r.min(1.0).copysign(x)
}

/// Applies a float function to f32/f64 data, and to f16/bf16/f8/f6/f4
/// through f32. With `flush`, subnormal inputs and results are zeroed.
fn float_map(d: &Data, flush: bool, f32op: impl Fn(f32) -> f32, f64op: impl Fn(f64) -> f64) -> Option<Data> {
    Some(match d {
        Data::F32(v) => Data::F32(if flush { map(v, |x| ftz32(f32op(ftz32(x)))) } else { map(v, f32op) }),
        Data::F64(v) => Data::F64(if flush { map(v, |x| ftz64(f64op(ftz64(x)))) } else { map(v, f64op) }),
        _ if f32_computed(d.element_type()) => {
            let xs = widen_f32(d)?;
            let ys = if flush { map(&xs, |x| ftz32(f32op(ftz32(x)))) } else { map(&xs, f32op) };
            narrow_from_f32(d.element_type(), ys)
        }
        _ => return None,
    })
}

/// A float predicate (pred result).
fn float_test(d: &Data, f32op: impl Fn(f32) -> bool, f64op: impl Fn(f64) -> bool) -> Option<Data> {
    Some(Data::Pred(match d {
        Data::F32(v) => map(v, f32op),
        Data::F64(v) => map(v, f64op),
        _ if f32_computed(d.element_type()) => map(&widen_f32(d)?, f32op),
        _ => return None,
    }))
}

/// Applies a binary float function (see [`float_map`]).
fn float_zip(
    a: &Data,
    b: &Data,
    flush: bool,
    f32op: impl Fn(f32, f32) -> f32,
    f64op: impl Fn(f64, f64) -> f64,
) -> Option<Data> {
    Some(match (a, b) {
        (Data::F32(x), Data::F32(y)) => {
            Data::F32(if flush { zip_map(x, y, |p, q| ftz32(f32op(ftz32(p), ftz32(q)))) } else { zip_map(x, y, f32op) })
        }
        (Data::F64(x), Data::F64(y)) => {
            Data::F64(if flush { zip_map(x, y, |p, q| ftz64(f64op(ftz64(p), ftz64(q)))) } else { zip_map(x, y, f64op) })
        }
        _ if f32_computed(a.element_type()) && a.element_type() == b.element_type() => {
            let (xs, ys) = (widen_f32(a)?, widen_f32(b)?);
            let zs = if flush {
                zip_map(&xs, &ys, |p, q| ftz32(f32op(ftz32(p), ftz32(q))))
            } else {
                zip_map(&xs, &ys, f32op)
            };
            narrow_from_f32(a.element_type(), zs)
        }
        _ => return None,
    })
}

/// An f32 function evaluated in f64.
#[inline(always)]
fn via64(x: f32, f: impl Fn(f64) -> f64) -> f32 {
    f(x as f64) as f32
}

// ---------------------------------------------------------------------------
// Complex helpers

#[inline(always)]
fn c64_to_128(z: Complex32) -> Complex64 {
    Complex64::new(z.re as f64, z.im as f64)
}

#[inline(always)]
fn c128_to_64(z: Complex64) -> Complex32 {
    Complex32::new(z.re as f32, z.im as f32)
}

/// Applies a complex function (evaluated in c128) to c64/c128 data.
fn complex_map(d: &Data, f: impl Fn(Complex64) -> Complex64) -> Option<Data> {
    Some(match d {
        Data::C64(v) => Data::C64(map(v, |z| c128_to_64(f(c64_to_128(z))))),
        Data::C128(v) => Data::C128(map(v, f)),
        _ => return None,
    })
}

fn complex_zip(a: &Data, b: &Data, f: impl Fn(Complex64, Complex64) -> Complex64) -> Option<Data> {
    Some(match (a, b) {
        (Data::C64(x), Data::C64(y)) => Data::C64(zip_map(x, y, |p, q| c128_to_64(f(c64_to_128(p), c64_to_128(q))))),
        (Data::C128(x), Data::C128(y)) => Data::C128(zip_map(x, y, f)),
        _ => return None,
    })
}

/// Complex division by Smith's algorithm (no intermediate overflow).
/// Smith's division, then, when both parts come out NaN, the recovery of
/// C99 Annex G (`__divdc3`) that the compiled code's lowering of
/// `complex.div` also applies: infinities and zeros the scaled formula lost.
fn complex_div(a: Complex64, b: Complex64) -> Complex64 {
    let q = if b.re.abs() >= b.im.abs() {
        if b.re == 0.0 && b.im == 0.0 {
            Complex64::new(a.re / 0.0, a.im / 0.0)
        } else {
            let r = b.im / b.re;
            let d = b.re + b.im * r;
            Complex64::new((a.re + a.im * r) / d, (a.im - a.re * r) / d)
        }
    } else {
        let r = b.re / b.im;
        let d = b.re * r + b.im;
        Complex64::new((a.re * r + a.im) / d, (a.im * r - a.re) / d)
    };
    if !(q.re.is_nan() && q.im.is_nan()) {
        return q;
    }
    let (x, y, c, d) = (a.re, a.im, b.re, b.im);
    let unit = |v: f64, inf: bool| (if inf { 1.0f64 } else { 0.0 }).copysign(v);
    if c == 0.0 && d == 0.0 && (!x.is_nan() || !y.is_nan()) {
        let s = f64::INFINITY.copysign(c);
        Complex64::new(s * x, s * y)
    } else if (x.is_infinite() || y.is_infinite()) && c.is_finite() && d.is_finite() {
        let (x, y) = (unit(x, x.is_infinite()), unit(y, y.is_infinite()));
        Complex64::new(f64::INFINITY * (x * c + y * d), f64::INFINITY * (y * c - x * d))
    } else if (c.is_infinite() || d.is_infinite()) && x.is_finite() && y.is_finite() {
        let (c, d) = (unit(c, c.is_infinite()), unit(d, d.is_infinite()));
        Complex64::new(0.0 * (x * c + y * d), 0.0 * (y * c - x * d))
    } else {
        q
    }
}

/// `tanh(z)`, also where num_complex's formula divides infinities: for a
/// large real part it is `sign(re) + i 4 sin(im) cos(im) e^(-2|re|)`.
fn complex_tanh(z: Complex64) -> Complex64 {
    if z.re.abs() > 20.0 && z.im.is_finite() {
        let im = 4.0 * z.im.sin() * z.im.cos() * (-2.0 * z.re.abs()).exp();
        return Complex64::new(1.0f64.copysign(z.re), im);
    }
    z.tanh()
}

/// `|z|` as the compiled code computes it (MLIR's `complex.abs` lowering,
/// XLA's too): `max * sqrt(1 + (min / max)^2)` over NaN-propagating
/// max/min of the parts' magnitudes, and `min` where that is NaN (zero, or
/// two infinities). `|NaN + inf i|` is NaN, not C's `hypot` infinity.
fn complex_abs(z: Complex64) -> f64 {
    let (a, b) = (z.re.abs(), z.im.abs());
    let (max, min) = if a.is_nan() || b.is_nan() { (f64::NAN, f64::NAN) } else { (a.max(b), a.min(b)) };
    let r = min / max;
    let v = max * (1.0 + r * r).sqrt();
    if v.is_nan() {
        min
    } else {
        v
    }
}

fn complex_pow(a: Complex64, b: Complex64) -> Complex64 {
    if b.re == 0.0 && b.im == 0.0 {
        return Complex64::new(1.0, 0.0);
    }
    if a.re == 0.0 && a.im == 0.0 && b.im == 0.0 && b.re > 0.0 {
        return Complex64::new(0.0, 0.0);
    }
    a.powc(b)
}

fn complex_log1p(z: Complex64) -> Complex64 {
    // |1+z|^2 = 1 + (2x + x^2 + y^2)
    let t = 2.0 * z.re + z.re * z.re + z.im * z.im;
    let re = if t.abs() < 0.5 { 0.5 * t.ln_1p() } else { (1.0 + z).norm().ln() };
    Complex64::new(re, z.im.atan2(1.0 + z.re))
}

fn complex_expm1(z: Complex64) -> Complex64 {
    // exp(x)cos(y) - 1 = expm1(x)cos(y) - 2 sin^2(y/2)
    let s = (z.im / 2.0).sin();
    Complex64::new(z.re.exp_m1() * z.im.cos() - 2.0 * s * s, z.re.exp() * z.im.sin())
}

fn complex_sign(z: Complex64) -> Complex64 {
    let n = z.norm();
    if n == 0.0 {
        Complex64::new(0.0, 0.0)
    } else if z.re.is_nan() || z.im.is_nan() {
        Complex64::new(f64::NAN, f64::NAN)
    } else {
        z / n
    }
}

// ---------------------------------------------------------------------------
// Unary ops

fn unary(op: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let (_, x) = array_operand(operands, 0)?;
    if x.len() != element_count(&dims) {
        bail!("the operand has {} elements, the result has {}", x.len(), element_count(&dims));
    }
    let data = unary_data(op, x)?;
    finish(t, dims, data)
}

/// Evaluates unary `op` on the elements `x`.
pub(crate) fn unary_data(op: &str, x: &Data) -> Result<Data> {
    let t = x.element_type();
    if let Some((bits, _)) = sub_byte_int(t) {
        let wide = widen_sub_byte(x).unwrap();
        let mask = 0xffu8 >> (8 - bits);
        let out = match op {
            "count-leading-zeros" => {
                Data::U8(map(&as_bytes(&wide), |b| ((b & mask).leading_zeros() - (8 - bits)) as u8))
            }
            "popcnt" => Data::U8(map(&as_bytes(&wide), |b| (b & mask).count_ones() as u8)),
            _ => unary_data(op, &wide)?,
        };
        return narrow_sub_byte(t, out);
    }
    let result = match op {
        "abs" => match x {
            Data::C64(v) => Some(Data::F32(map(v, |z| complex_abs(c64_to_128(z)) as f32))),
            Data::C128(v) => Some(Data::F64(map(v, complex_abs))),
            Data::F16(v) => Some(Data::F16(map(v, |h| f16::from_bits(h.to_bits() & 0x7fff)))),
            Data::Bf16(v) => Some(Data::Bf16(map(v, |h| bf16::from_bits(h.to_bits() & 0x7fff)))),
            _ => int_unary!(x, XInt::xabs).or_else(|| float_map(x, false, f32::abs, f64::abs)),
        },
        "negate" => match x {
            Data::C64(v) => Some(Data::C64(map(v, |z| -z))),
            Data::C128(v) => Some(Data::C128(map(v, |z| -z))),
            Data::F16(v) => Some(Data::F16(map(v, |h| f16::from_bits(h.to_bits() ^ 0x8000)))),
            Data::Bf16(v) => Some(Data::Bf16(map(v, |h| bf16::from_bits(h.to_bits() ^ 0x8000)))),
            _ => int_unary!(x, |v| v.wrapping_neg()).or_else(|| float_map(x, false, |v| -v, |v| -v)),
        },
        "not" => match x {
            Data::Pred(v) => Some(Data::Pred(map(v, |b| !b))),
            _ => int_unary!(x, |v| !v),
        },
        "sign" => match x {
            Data::C64(_) | Data::C128(_) => complex_map(x, complex_sign),
            _ => int_unary!(x, XInt::xsign).or_else(|| float_map(x, true, |v| float_sign!(v), |v| float_sign!(v))),
        },
        "popcnt" => int_unary!(x, XInt::xpopcnt),
        "count-leading-zeros" => int_unary!(x, XInt::xclz),
        "is-finite" => float_test(x, f32::is_finite, f64::is_finite),
        "real" => match x {
            Data::C64(v) => Some(Data::F32(map(v, |z| z.re))),
            Data::C128(v) => Some(Data::F64(map(v, |z| z.re))),
            _ if float_format(t).is_some() => Some(x.clone()),
            _ => None,
        },
        "imag" => match x {
            Data::C64(v) => Some(Data::F32(map(v, |z| z.im))),
            Data::C128(v) => Some(Data::F64(map(v, |z| z.im))),
            _ if float_format(t).is_some() => Some(Data::zeros(t, x.len())),
            _ => None,
        },
        _ => match x {
            Data::C64(_) | Data::C128(_) => complex_unary(op, x),
            _ => float_unary(op, x),
        },
    };
    result.ok_or_else(|| unsupported(op, t))
}

fn as_bytes(d: &Data) -> Vec<u8> {
    match d {
        Data::S8(v) => v.iter().map(|&x| x as u8).collect(),
        Data::U8(v) => v.clone(),
        _ => Vec::new(),
    }
}

fn float_unary(op: &str, x: &Data) -> Option<Data> {
    macro_rules! f {
        ($f64fn:expr) => {
            float_map(x, true, |v| via64(v, $f64fn), $f64fn)
        };
    }
    match op {
        "exponential" => f!(f64::exp),
        "exponential-minus-one" => f!(f64::exp_m1),
        "log" => f!(f64::ln),
        "log-plus-one" => f!(f64::ln_1p),
        "logistic" => f!(|v: f64| 1.0 / (1.0 + (-v).exp())),
        "sqrt" => float_map(x, true, f32::sqrt, f64::sqrt),
        "rsqrt" => f!(|v: f64| 1.0 / v.sqrt()),
        "cbrt" => f!(f64::cbrt),
        "sine" => f!(f64::sin),
        "cosine" => f!(f64::cos),
        "tan" => f!(f64::tan),
        "tanh" => f!(f64::tanh),
        "sinh" => f!(f64::sinh),
        "cosh" => f!(f64::cosh),
        "asin" => f!(f64::asin),
        "acos" => f!(f64::acos),
        "atan" => f!(f64::atan),
        "asinh" => f!(f64::asinh),
        "acosh" => f!(f64::acosh),
        "atanh" => f!(f64::atanh),
        "erf" => f!(erf64),
        "floor" => float_map(x, true, f32::floor, f64::floor),
        "ceil" => float_map(x, true, f32::ceil, f64::ceil),
        "round-nearest-afz" => float_map(x, true, f32::round, f64::round),
        "round-nearest-even" => float_map(x, true, f32::round_ties_even, f64::round_ties_even),
        _ => None,
    }
}

fn complex_unary(op: &str, x: &Data) -> Option<Data> {
    match op {
        "exponential" => complex_map(x, |z| z.exp()),
        "exponential-minus-one" => complex_map(x, complex_expm1),
        "log" => complex_map(x, |z| z.ln()),
        "log-plus-one" => complex_map(x, complex_log1p),
        "logistic" => complex_map(x, |z| complex_div(Complex64::new(1.0, 0.0), 1.0 + (-z).exp())),
        "sqrt" => complex_map(x, |z| z.sqrt()),
        "rsqrt" => complex_map(x, |z| complex_div(Complex64::new(1.0, 0.0), z.sqrt())),
        "cbrt" => complex_map(x, |z| z.cbrt()),
        "sine" => complex_map(x, |z| z.sin()),
        "cosine" => complex_map(x, |z| z.cos()),
        // tan(z) = -i tanh(iz).
        "tan" => complex_map(x, |z| Complex64::new(0.0, -1.0) * complex_tanh(Complex64::i() * z)),
        "tanh" => complex_map(x, complex_tanh),
        "sinh" => complex_map(x, |z| z.sinh()),
        "cosh" => complex_map(x, |z| z.cosh()),
        "asin" => complex_map(x, |z| z.asin()),
        "acos" => complex_map(x, |z| z.acos()),
        "atan" => complex_map(x, |z| z.atan()),
        "asinh" => complex_map(x, |z| z.asinh()),
        "acosh" => complex_map(x, |z| z.acosh()),
        "atanh" => complex_map(x, |z| z.atanh()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Binary ops

fn binary(op: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let n = element_count(&dims);
    let (_, a) = array_operand(operands, 0)?;
    let (_, b) = array_operand(operands, 1)?;
    let a = expand(a, n, "the lhs")?;
    let b = expand(b, n, "the rhs")?;
    let data = binary_data(op, &a, &b)?;
    finish(t, dims, data)
}

/// Evaluates binary `op` elementwise on `a` and `b` (same type and length).
pub(crate) fn binary_data(op: &str, a: &Data, b: &Data) -> Result<Data> {
    let t = a.element_type();
    if op == "complex" {
        return match (a, b) {
            (Data::F32(x), Data::F32(y)) => Ok(Data::C64(zip_map(x, y, Complex32::new))),
            (Data::F64(x), Data::F64(y)) => Ok(Data::C128(zip_map(x, y, Complex64::new))),
            _ => Err(unsupported(op, t)),
        };
    }
    if t != b.element_type() {
        bail!("operands have different element types {} and {}", t.name(), b.element_type().name());
    }
    if let Some((bits, signed)) = sub_byte_int(t) {
        let (wa, wb) = (widen_sub_byte(a).unwrap(), widen_sub_byte(b).unwrap());
        let mask = 0xffu8 >> (8 - bits);
        let out = match op {
            "shift-right-logical" => Data::U8(zip_map(&as_bytes(&wa), &as_bytes(&wb), |x, k| {
                let k = k & mask;
                if k as u32 >= bits {
                    0
                } else {
                    (x & mask) >> k
                }
            })),
            // The lhs as a signed value of the narrow width.
            "shift-right-arithmetic" => Data::S8(zip_map(&as_bytes(&wa), &as_bytes(&wb), |x, k| {
                let x = wrap_sub_byte(x, bits, true) as i8;
                let k = k & mask;
                if k as u32 >= bits {
                    x >> 7
                } else {
                    x >> k
                }
            })),
            "mulhi" => {
                let (xa, xb) = (as_bytes(&wa), as_bytes(&wb));
                Data::U8(zip_map(&xa, &xb, |x, y| {
                    if signed {
                        (((x as i8 as i16) * (y as i8 as i16)) >> bits) as u8
                    } else {
                        (((x as u16) * (y as u16)) >> bits) as u8
                    }
                }))
            }
            _ => binary_data(op, &wa, &wb)?,
        };
        return narrow_sub_byte(t, out);
    }
    let result = match a {
        Data::Pred(x) => {
            let Data::Pred(y) = b else { unreachable!() };
            match op {
                "and" | "multiply" | "minimum" => Some(Data::Pred(zip_map(x, y, |p, q| p & q))),
                "or" | "add" | "maximum" => Some(Data::Pred(zip_map(x, y, |p, q| p | q))),
                "xor" => Some(Data::Pred(zip_map(x, y, |p, q| p ^ q))),
                _ => None,
            }
        }
        Data::C64(_) | Data::C128(_) => match op {
            "add" => complex_zip(a, b, |p, q| p + q),
            "subtract" => complex_zip(a, b, |p, q| p - q),
            "multiply" => complex_zip(a, b, |p, q| p * q),
            "divide" => complex_zip(a, b, complex_div),
            "power" => complex_zip(a, b, complex_pow),
            // atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2))
            "atan2" => complex_zip(a, b, |y, x| {
                let i = Complex64::new(0.0, 1.0);
                -i * complex_div(x + i * y, (x * x + y * y).sqrt()).ln()
            }),
            _ => None,
        },
        _ if float_format(t).is_some() => match op {
            "add" => float_zip(a, b, true, |p, q| p + q, |p, q| p + q),
            "subtract" => float_zip(a, b, true, |p, q| p - q, |p, q| p - q),
            "multiply" => float_zip(a, b, true, |p, q| p * q, |p, q| p * q),
            "divide" => float_zip(a, b, true, |p, q| p / q, |p, q| p / q),
            "remainder" => float_zip(a, b, true, |p, q| p % q, |p, q| p % q),
            "power" => float_zip(a, b, true, |p, q| (p as f64).powf(q as f64) as f32, f64::powf),
            "atan2" => float_zip(a, b, true, |p, q| (p as f64).atan2(q as f64) as f32, f64::atan2),
            "maximum" => float_zip(a, b, false, fmax32, fmax64),
            "minimum" => float_zip(a, b, false, fmin32, fmin64),
            _ => None,
        },
        _ => match op {
            "add" => int_binary!(a, b, |p, q| p.wrapping_add(q)),
            "subtract" => int_binary!(a, b, |p, q| p.wrapping_sub(q)),
            "multiply" => int_binary!(a, b, |p, q| p.wrapping_mul(q)),
            "divide" => int_binary!(a, b, XInt::xdiv),
            "remainder" => int_binary!(a, b, XInt::xrem),
            "power" => int_binary!(a, b, XInt::xpow),
            "maximum" => int_binary!(a, b, |p, q| if p >= q { p } else { q }),
            "minimum" => int_binary!(a, b, |p, q| if p <= q { p } else { q }),
            "and" => int_binary!(a, b, |p, q| p & q),
            "or" => int_binary!(a, b, |p, q| p | q),
            "xor" => int_binary!(a, b, |p, q| p ^ q),
            "shift-left" => int_binary!(a, b, XInt::xshl),
            "shift-right-arithmetic" => int_binary!(a, b, XInt::xsra),
            "shift-right-logical" => int_binary!(a, b, XInt::xsrl),
            "mulhi" => int_binary!(a, b, XInt::xmulhi),
            _ => None,
        },
    };
    result.ok_or_else(|| unsupported(op, t))
}

// ---------------------------------------------------------------------------
// compare

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Compares `x[i]` with `y[i]` through `key` in direction `dir` (IEEE
/// semantics when the keys are floats).
fn cmp_by<A: Copy, K: PartialOrd>(x: &[A], y: &[A], dir: Direction, key: impl Fn(A) -> K) -> Vec<bool> {
    match dir {
        Direction::Eq => zip_map(x, y, |a, b| key(a) == key(b)),
        Direction::Ne => zip_map(x, y, |a, b| key(a) != key(b)),
        Direction::Lt => zip_map(x, y, |a, b| key(a) < key(b)),
        Direction::Le => zip_map(x, y, |a, b| key(a) <= key(b)),
        Direction::Gt => zip_map(x, y, |a, b| key(a) > key(b)),
        Direction::Ge => zip_map(x, y, |a, b| key(a) >= key(b)),
    }
}

/// Total-order keys of float bit patterns (sign-magnitude to two's complement).
#[inline(always)]
fn total_key32(x: f32) -> i32 {
    let b = x.to_bits() as i32;
    if b < 0 {
        b ^ 0x7fff_ffff
    } else {
        b
    }
}

#[inline(always)]
fn total_key64(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 {
        b ^ 0x7fff_ffff_ffff_ffff
    } else {
        b
    }
}

#[inline(always)]
fn total_key16(bits: u16) -> i16 {
    let b = bits as i16;
    if b < 0 {
        b ^ 0x7fff
    } else {
        b
    }
}

fn compare(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let n = element_count(&dims);
    let (_, a) = array_operand(operands, 0)?;
    let (_, b) = array_operand(operands, 1)?;
    let a = expand(a, n, "the lhs")?;
    let b = expand(b, n, "the rhs")?;
    let dir = match attrs::enum_word(require(inst, "direction")?).map_err(attr_error)?.as_str() {
        "EQ" => Direction::Eq,
        "NE" => Direction::Ne,
        "LT" => Direction::Lt,
        "LE" => Direction::Le,
        "GT" => Direction::Gt,
        "GE" => Direction::Ge,
        other => bail!("unknown comparison direction '{other}'"),
    };
    let kind = match attr(inst, "type") {
        Some(v) => Some(attrs::enum_word(v).map_err(attr_error)?),
        None => None,
    };
    let data = compare_data(&a, &b, dir, kind.as_deref())?;
    finish(t, dims, Data::Pred(data))
}

fn compare_data(a: &Data, b: &Data, dir: Direction, kind: Option<&str>) -> Result<Vec<bool>> {
    let t = a.element_type();
    if t != b.element_type() {
        bail!("operands have different element types {} and {}", t.name(), b.element_type().name());
    }
    let is_float = float_format(t).is_some();
    let is_complex = matches!(t, T::C64 | T::C128);
    let kind = kind.unwrap_or(if is_float || is_complex {
        "FLOAT"
    } else if matches!(t, T::S8 | T::S16 | T::S32 | T::S64) || sub_byte_int(t).is_some_and(|(_, s)| s) {
        "SIGNED"
    } else {
        "UNSIGNED"
    });
    let mismatch = || EvalError::new(format!("comparison type {kind} does not apply to {}", t.name()));
    match kind {
        "FLOAT" | "TOTALORDER" if is_complex => {
            let (re_eq, im_eq): (Vec<bool>, Vec<bool>) = match (a, b) {
                (Data::C64(x), Data::C64(y)) => {
                    (cmp_by(x, y, Direction::Eq, |z| z.re), cmp_by(x, y, Direction::Eq, |z| z.im))
                }
                (Data::C128(x), Data::C128(y)) => {
                    (cmp_by(x, y, Direction::Eq, |z| z.re), cmp_by(x, y, Direction::Eq, |z| z.im))
                }
                _ => unreachable!(),
            };
            match dir {
                Direction::Eq => Ok(zip_map(&re_eq, &im_eq, |p, q| p && q)),
                Direction::Ne => Ok(zip_map(&re_eq, &im_eq, |p, q| !(p && q))),
                _ => bail!("complex numbers can only be compared with EQ or NE"),
            }
        }
        "FLOAT" if is_float => Ok(match (a, b) {
            (Data::F32(x), Data::F32(y)) => cmp_by(x, y, dir, ftz32),
            (Data::F64(x), Data::F64(y)) => cmp_by(x, y, dir, ftz64),
            _ => {
                let (x, y) = (widen_f32(a).unwrap(), widen_f32(b).unwrap());
                cmp_by(&x, &y, dir, ftz32)
            }
        }),
        "TOTALORDER" if is_float => Ok(match (a, b) {
            (Data::F32(x), Data::F32(y)) => cmp_by(x, y, dir, total_key32),
            (Data::F64(x), Data::F64(y)) => cmp_by(x, y, dir, total_key64),
            (Data::F16(x), Data::F16(y)) => cmp_by(x, y, dir, |v| total_key16(v.to_bits())),
            (Data::Bf16(x), Data::Bf16(y)) => cmp_by(x, y, dir, |v| total_key16(v.to_bits())),
            _ => {
                let (x, y) = (widen_f32(a).unwrap(), widen_f32(b).unwrap());
                cmp_by(&x, &y, dir, total_key32)
            }
        }),
        "SIGNED" | "UNSIGNED" if !is_float && !is_complex => {
            let signed = kind == "SIGNED";
            Ok(match (a, b) {
                (Data::Pred(x), Data::Pred(y)) => cmp_by(x, y, dir, |v| v),
                (Data::S8(x), Data::S8(y)) => int_cmp(x, y, dir, signed, |v| v as i64, |v| v as u8 as u64),
                (Data::S16(x), Data::S16(y)) => int_cmp(x, y, dir, signed, |v| v as i64, |v| v as u16 as u64),
                (Data::S32(x), Data::S32(y)) => int_cmp(x, y, dir, signed, |v| v as i64, |v| v as u32 as u64),
                (Data::S64(x), Data::S64(y)) => int_cmp(x, y, dir, signed, |v| v, |v| v as u64),
                (Data::U8(x), Data::U8(y)) => int_cmp(x, y, dir, signed, |v| v as i8 as i64, |v| v as u64),
                (Data::U16(x), Data::U16(y)) => int_cmp(x, y, dir, signed, |v| v as i16 as i64, |v| v as u64),
                (Data::U32(x), Data::U32(y)) => int_cmp(x, y, dir, signed, |v| v as i32 as i64, |v| v as u64),
                (Data::U64(x), Data::U64(y)) => int_cmp(x, y, dir, signed, |v| v as i64, |v| v),
                (Data::Bits(_, x), Data::Bits(_, y)) => {
                    let (bits, _) = sub_byte_int(t).ok_or_else(mismatch)?;
                    int_cmp(
                        x,
                        y,
                        dir,
                        signed,
                        |v| wrap_sub_byte(v, bits, true) as i8 as i64,
                        |v| wrap_sub_byte(v, bits, false) as u64,
                    )
                }
                _ => return Err(mismatch()),
            })
        }
        _ => Err(mismatch()),
    }
}

fn int_cmp<A: Copy>(
    x: &[A],
    y: &[A],
    dir: Direction,
    signed: bool,
    as_signed: impl Fn(A) -> i64,
    as_unsigned: impl Fn(A) -> u64,
) -> Vec<bool> {
    if signed {
        cmp_by(x, y, dir, as_signed)
    } else {
        cmp_by(x, y, dir, as_unsigned)
    }
}

// ---------------------------------------------------------------------------
// select, clamp

/// Picks `t[i]` where `p[i]` else `f[i]`, for any element type.
fn select_data(p: &[bool], t: &Data, f: &Data) -> Result<Data> {
    macro_rules! pick {
        ($($variant:ident),*) => {
            match (t, f) {
                $((Data::$variant(x), Data::$variant(y)) => Data::$variant(
                    p.iter().zip(x.iter().zip(y)).map(|(&c, (&a, &b))| if c { a } else { b }).collect(),
                ),)*
                (Data::Bits(tt, x), Data::Bits(ft, y)) if tt == ft => Data::Bits(
                    *tt,
                    p.iter().zip(x.iter().zip(y)).map(|(&c, (&a, &b))| if c { a } else { b }).collect(),
                ),
                _ => bail!(
                    "on_true and on_false have different element types {} and {}",
                    t.element_type().name(),
                    f.element_type().name()
                ),
            }
        };
    }
    Ok(pick!(Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, Bf16, F32, F64, C64, C128))
}

fn select(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (_, pred) = array_operand(operands, 0)?;
    let Data::Pred(p) = pred else { bail!("the predicate must be pred, not {}", pred.element_type().name()) };
    let (on_true, on_false) = match (operands.get(1), operands.get(2)) {
        (Some(t), Some(f)) => (*t, *f),
        _ => bail!("select takes three operands"),
    };
    // A scalar predicate selects a whole operand (arrays or tuples).
    if p.len() == 1 {
        return Ok(if p[0] { on_true.clone() } else { on_false.clone() });
    }
    let (t, dims) = result_array(inst)?;
    let n = element_count(&dims);
    let p_data = expand(pred, n, "the predicate")?;
    let Data::Pred(p) = &*p_data else { bail!("the predicate must be pred") };
    let (_, x) = array_operand(operands, 1)?;
    let (_, y) = array_operand(operands, 2)?;
    let x = expand(x, n, "on_true")?;
    let y = expand(y, n, "on_false")?;
    finish(t, dims, select_data(p, &x, &y)?)
}

fn clamp(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let n = element_count(&dims);
    let (_, lo) = array_operand(operands, 0)?;
    let (_, x) = array_operand(operands, 1)?;
    let (_, hi) = array_operand(operands, 2)?;
    let lo = expand(lo, n, "min")?;
    let x = expand(x, n, "the operand")?;
    let hi = expand(hi, n, "max")?;
    let data = clamp_data(&lo, &x, &hi)?;
    finish(t, dims, data)
}

fn clamp_data(lo: &Data, x: &Data, hi: &Data) -> Result<Data> {
    let t = x.element_type();
    if lo.element_type() != t || hi.element_type() != t {
        bail!("clamp operands have different element types");
    }
    macro_rules! ints {
        ($($variant:ident),*) => {
            match (lo, x, hi) {
                $((Data::$variant(l), Data::$variant(v), Data::$variant(h)) => {
                    return Ok(Data::$variant(
                        v.iter().zip(l.iter().zip(h)).map(|(&v, (&l, &h))| {
                            let m = if l >= v { l } else { v };
                            if h <= m { h } else { m }
                        }).collect(),
                    ))
                })*
                _ => {}
            }
        };
    }
    ints!(Pred, S8, S16, S32, S64, U8, U16, U32, U64);
    if sub_byte_int(t).is_some() {
        let (l, v, h) = (widen_sub_byte(lo).unwrap(), widen_sub_byte(x).unwrap(), widen_sub_byte(hi).unwrap());
        return narrow_sub_byte(t, clamp_data(&l, &v, &h)?);
    }
    match (lo, x, hi) {
        (Data::F32(l), Data::F32(v), Data::F32(h)) => {
            Ok(Data::F32(v.iter().zip(l.iter().zip(h)).map(|(&v, (&l, &h))| fmin32(h, fmax32(l, v))).collect()))
        }
        (Data::F64(l), Data::F64(v), Data::F64(h)) => {
            Ok(Data::F64(v.iter().zip(l.iter().zip(h)).map(|(&v, (&l, &h))| fmin64(h, fmax64(l, v))).collect()))
        }
        _ if f32_computed(t) => {
            let (l, v, h) = (widen_f32(lo).unwrap(), widen_f32(x).unwrap(), widen_f32(hi).unwrap());
            let r = v.iter().zip(l.iter().zip(&h)).map(|(&v, (&l, &h))| fmin32(h, fmax32(l, v))).collect();
            Ok(narrow_from_f32(t, r))
        }
        _ => Err(unsupported("clamp", t)),
    }
}

// ---------------------------------------------------------------------------
// constant

fn constant(inst: &Instruction) -> Result<Literal> {
    let literal = inst.literal.as_ref().ok_or_else(|| EvalError::new("constant without a literal"))?;
    literal_from_ast(&inst.shape, literal)
}

/// A literal of `shape` from the parsed text of a constant.
pub fn literal_from_ast(shape: &Shape, literal: &ast::Literal) -> Result<Literal> {
    match (shape, literal) {
        (Shape::Tuple(shapes), ast::Literal::Tuple(items)) => {
            if shapes.len() != items.len() {
                bail!("tuple literal has {} elements, the shape has {}", items.len(), shapes.len());
            }
            Ok(Literal::Tuple(shapes.iter().zip(items).map(|(s, l)| literal_from_ast(s, l)).collect::<Result<_>>()?))
        }
        (Shape::Array { element, dims, .. }, ast::Literal::Array(array)) => {
            let dims = static_dims(dims);
            let n = element_count(&dims);
            let mut tokens = Vec::with_capacity(n);
            if n > 0 {
                flatten_tokens(array, &dims, 0, &mut tokens)?;
            }
            if tokens.len() != n {
                bail!("literal has {} elements, the shape has {n}", tokens.len());
            }
            Ok(Literal::Array { dims, data: parse_elements(*element, &tokens)? })
        }
        (Shape::Token, _) => Ok(Literal::Token),
        _ => bail!("literal does not match its shape"),
    }
}

fn flatten_tokens<'a>(array: &'a LiteralArray, dims: &[i64], depth: usize, out: &mut Vec<&'a str>) -> Result<()> {
    match (dims.get(depth), array) {
        (None, LiteralArray::Element(token)) => {
            out.push(token);
            Ok(())
        }
        // A one-element braced scalar is accepted.
        (None, LiteralArray::Nested(items)) if items.len() == 1 => flatten_tokens(&items[0], dims, depth, out),
        (None, LiteralArray::Nested(_)) => bail!("literal has too many nesting levels for a rank-{} shape", dims.len()),
        (Some(_), LiteralArray::Element(token)) => {
            bail!("literal element '{token}' appears where dimension {depth} needs a {{...}} list")
        }
        (Some(&size), LiteralArray::Nested(items)) => {
            if items.len() as i64 != size {
                bail!("literal has {} elements in dimension {depth}, the shape has {size}", items.len());
            }
            items.iter().try_for_each(|item| flatten_tokens(item, dims, depth + 1, out))
        }
    }
}

/// A float token: finite value (through f64), infinity or NaN.
enum FloatToken {
    Finite(f64),
    Inf(bool),
    /// Sign and payload (0: the default quiet NaN).
    Nan(bool, u64),
}

fn parse_float_token(token: &str) -> Result<FloatToken> {
    let token = token.trim();
    let (negative, body) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Ok(FloatToken::Inf(negative));
    }
    if lower == "nan" {
        return Ok(FloatToken::Nan(negative, 0));
    }
    if let Some(payload) = lower.strip_prefix("nan(").and_then(|p| p.strip_suffix(')')) {
        let payload = payload
            .strip_prefix("0x")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| EvalError::new(format!("bad NaN payload in '{token}'")))?;
        return Ok(FloatToken::Nan(negative, payload));
    }
    let value = if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_float(hex).ok_or_else(|| EvalError::new(format!("'{token}' is not a float")))?
    } else {
        let valid = !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
        match body.parse::<f64>() {
            Ok(v) if valid => v,
            _ => bail!("'{token}' is not a float"),
        }
    };
    Ok(FloatToken::Finite(if negative { -value } else { value }))
}

/// `1.8p3` (after `0x`) as f64.
fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.find('p') {
        Some(i) => (&hex[..i], hex[i + 1..].parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    // Accumulate the hex digits exactly as an integer (up to 15 digits, more
    // only shift in as sticky precision) and scale by the exponent.
    let mut value = 0f64;
    let mut scale = exponent;
    for c in int.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    for c in frac.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
        scale -= 4;
    }
    Some(value * 2f64.powi(scale))
}

/// Bits of a float token in an IEEE-like format of `width` bits.
fn special_bits(t: ElementType, token: &FloatToken, what: &str) -> Result<u64> {
    let format = float_format(t).ok_or_else(|| EvalError::new(format!("{} is not a float type", t.name())))?;
    let bits = match *token {
        FloatToken::Inf(negative) => format.infinity(negative),
        FloatToken::Nan(negative, payload) => format.nan(negative, payload),
        FloatToken::Finite(v) => Some(narrow_float_bits(&format, v)),
    };
    bits.ok_or_else(|| EvalError::new(format!("'{what}' cannot be represented in {}", t.name())))
}

fn parse_float_as<R>(tokens: &[&str], f: impl Fn(&str, FloatToken) -> Result<R>) -> Result<Vec<R>> {
    tokens.iter().map(|tok| f(tok, parse_float_token(tok)?)).collect()
}

fn parse_f32(tok: &str, v: FloatToken) -> Result<f32> {
    Ok(match v {
        FloatToken::Finite(x) => x as f32,
        _ => f32::from_bits(special_bits(T::F32, &v, tok)? as u32),
    })
}

fn parse_f64(tok: &str, v: FloatToken) -> Result<f64> {
    Ok(match v {
        FloatToken::Finite(x) => x,
        _ => f64::from_bits(special_bits(T::F64, &v, tok)?),
    })
}

fn parse_complex<R>(tok: &str, part: impl Fn(&str, FloatToken) -> Result<R>) -> Result<(R, R)> {
    let inner = tok
        .trim()
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| EvalError::new(format!("'{tok}' is not a complex value (re, im)")))?;
    let (re, im) =
        inner.split_once(',').ok_or_else(|| EvalError::new(format!("'{tok}' is not a complex value (re, im)")))?;
    Ok((part(re, parse_float_token(re)?)?, part(im, parse_float_token(im)?)?))
}

fn parse_int(tok: &str, min: i128, max: i128, t: ElementType) -> Result<i128> {
    let s = tok.trim();
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
        i128::from_str_radix(hex, 16).ok()
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<i128>().ok()
    } else {
        None
    }
    .ok_or_else(|| EvalError::new(format!("'{tok}' is not an integer")))?;
    let v = if negative { -magnitude } else { magnitude };
    if v < min || v > max {
        bail!("{v} does not fit in {}", t.name());
    }
    Ok(v)
}

/// Typed elements of type `t` from literal tokens.
pub(crate) fn parse_elements(t: ElementType, tokens: &[&str]) -> Result<Data> {
    macro_rules! ints {
        ($variant:ident, $ty:ty) => {
            Data::$variant(
                tokens
                    .iter()
                    .map(|tok| parse_int(tok, <$ty>::MIN as i128, <$ty>::MAX as i128, t).map(|v| v as $ty))
                    .collect::<Result<_>>()?,
            )
        };
    }
    Ok(match t {
        T::Pred => Data::Pred(
            tokens
                .iter()
                .map(|tok| match tok.trim() {
                    "true" | "1" => Ok(true),
                    "false" | "0" => Ok(false),
                    other => bail!("'{other}' is not a pred value (true or false)"),
                })
                .collect::<Result<_>>()?,
        ),
        T::S8 => ints!(S8, i8),
        T::S16 => ints!(S16, i16),
        T::S32 => ints!(S32, i32),
        T::S64 => ints!(S64, i64),
        T::U8 => ints!(U8, u8),
        T::U16 => ints!(U16, u16),
        T::U32 => ints!(U32, u32),
        T::U64 => ints!(U64, u64),
        T::F32 => Data::F32(parse_float_as(tokens, parse_f32)?),
        T::F64 => Data::F64(parse_float_as(tokens, parse_f64)?),
        T::F16 => Data::F16(parse_float_as(tokens, |tok, v| Ok(f16::from_bits(special_bits(t, &v, tok)? as u16)))?),
        T::Bf16 => Data::Bf16(parse_float_as(tokens, |tok, v| Ok(bf16::from_bits(special_bits(t, &v, tok)? as u16)))?),
        T::C64 => Data::C64(
            tokens
                .iter()
                .map(|tok| parse_complex(tok, parse_f32).map(|(re, im)| Complex32::new(re, im)))
                .collect::<Result<_>>()?,
        ),
        T::C128 => Data::C128(
            tokens
                .iter()
                .map(|tok| parse_complex(tok, parse_f64).map(|(re, im)| Complex64::new(re, im)))
                .collect::<Result<_>>()?,
        ),
        _ => {
            if let Some((bits, signed)) = sub_byte_int(t) {
                let (min, max) =
                    if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
                Data::Bits(
                    t,
                    tokens
                        .iter()
                        .map(|tok| parse_int(tok, min, max, t).map(|v| v as i8 as u8))
                        .collect::<Result<_>>()?,
                )
            } else if narrow_float(t).is_some() {
                Data::Bits(t, parse_float_as(tokens, |tok, v| Ok(special_bits(t, &v, tok)? as u8))?)
            } else {
                bail!("literals of type {} are not supported", t.name())
            }
        }
    })
}

// ---------------------------------------------------------------------------
// iota

fn iota(inst: &Instruction) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let dim = attrs::integer(require(inst, "iota_dimension")?).map_err(attr_error)?;
    if dim < 0 || dim as usize >= dims.len() {
        bail!("iota_dimension {dim} is out of range for rank {}", dims.len());
    }
    let n = element_count(&dims);
    let stride = strides(&dims)[dim as usize];
    let size = dims[dim as usize];
    let values: Vec<i64> = (0..n as i64).map(|i| (i / stride) % size).collect();
    let data = convert_data(&Data::S64(values), t)?;
    finish(t, dims, data)
}

// ---------------------------------------------------------------------------
// reduce-precision

/// XLA's reduce-precision on the bits of an IEEE float with `nbits` bits,
/// `se` exponent and `sm` mantissa bits.
fn reduce_precision_bits(bits: u64, nbits: u32, se: u32, sm: u32, de: u32, dm: u32) -> u64 {
    let all = if nbits == 64 { u64::MAX } else { (1u64 << nbits) - 1 };
    let sign_mask = 1u64 << (nbits - 1);
    let exp_mask = ((1u64 << se) - 1) << sm;
    let x_abs = bits & !sign_mask & all;
    let is_nan = x_abs > exp_mask;
    let mut x = bits;
    if dm < sm {
        let last = 1u64 << (sm - dm);
        let base_bias = (last >> 1) - 1;
        let last_bit = (x & last) >> (sm - dm);
        x = x.wrapping_add(last_bit + base_bias) & !(last - 1) & all;
    }
    if de < se {
        let exp_bias = (1u64 << (se - 1)) - 1;
        let reduced_bias = (1u64 << (de - 1)) - 1;
        let max_exp = exp_bias + reduced_bias;
        let min_exp = exp_bias - reduced_bias;
        let x_exp = x & exp_mask;
        let signed_zero = x & sign_mask;
        if x_exp > max_exp << sm {
            x = signed_zero | exp_mask;
        } else if x_exp <= min_exp << sm {
            x = signed_zero;
        }
    }
    // NaN is kept, as the semantics say and XLA:CPU does (XLA's evaluator
    // gives +inf when no mantissa bits are left).
    if is_nan {
        bits
    } else {
        x
    }
}

fn reduce_precision(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let (_, x) = array_operand(operands, 0)?;
    let de = attrs::integer(require(inst, "exponent_bits")?).map_err(attr_error)?;
    let dm = attrs::integer(require(inst, "mantissa_bits")?).map_err(attr_error)?;
    if de < 1 || dm < 0 {
        bail!("reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0 (got {de}, {dm})");
    }
    let (de, dm) = (de.min(64) as u32, dm.min(64) as u32);
    let data = match x {
        Data::F32(v) => {
            Data::F32(map(v, |f| f32::from_bits(reduce_precision_bits(f.to_bits() as u64, 32, 8, 23, de, dm) as u32)))
        }
        Data::F64(v) => Data::F64(map(v, |f| f64::from_bits(reduce_precision_bits(f.to_bits(), 64, 11, 52, de, dm)))),
        Data::F16(v) => {
            Data::F16(map(v, |f| f16::from_bits(reduce_precision_bits(f.to_bits() as u64, 16, 5, 10, de, dm) as u16)))
        }
        Data::Bf16(v) => {
            Data::Bf16(map(v, |f| bf16::from_bits(reduce_precision_bits(f.to_bits() as u64, 16, 8, 7, de, dm) as u16)))
        }
        _ if f32_computed(x.element_type()) => {
            let v = widen_f32(x).unwrap();
            let r = map(&v, |f| f32::from_bits(reduce_precision_bits(f.to_bits() as u64, 32, 8, 23, de, dm) as u32));
            narrow_from_f32(x.element_type(), r)
        }
        _ => return Err(unsupported("reduce-precision", x.element_type())),
    };
    finish(t, dims, data)
}

// ---------------------------------------------------------------------------
// stochastic-convert

fn stochastic_convert(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (t, dims) = result_array(inst)?;
    let n = element_count(&dims);
    let (_, x) = array_operand(operands, 0)?;
    let (_, r) = array_operand(operands, 1)?;
    if x.len() != n || r.len() != n {
        bail!("operand and random must have the result's {n} elements");
    }
    let values: Vec<f64> = match x {
        Data::F64(v) => v.clone(),
        _ => widen_f32(x)
            .ok_or_else(|| unsupported("stochastic-convert", x.element_type()))?
            .into_iter()
            .map(|v| v as f64)
            .collect(),
    };
    let (random, random_bits): (Vec<u64>, u32) = match r {
        Data::U8(v) => (map(v, |b| b as u64), 8),
        Data::U16(v) => (map(v, |b| b as u64), 16),
        Data::U32(v) => (map(v, |b| b as u64), 32),
        Data::U64(v) => (v.clone(), 64),
        other => bail!("the random operand must be an unsigned integer, not {}", other.element_type().name()),
    };
    let bits: u32 = match t {
        T::S8 => 8,
        T::S16 => 16,
        T::S32 => 32,
        T::S64 => 64,
        _ => return Err(unsupported("stochastic-convert to", t)),
    };
    let min = -(2f64.powi(bits as i32 - 1));
    let max_int = if bits == 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    let min_int = if bits == 64 { i64::MIN } else { -(1i64 << (bits - 1)) };
    let scale = 2f64.powi(random_bits as i32);
    let out: Vec<i64> = values
        .iter()
        .zip(&random)
        .map(|(&v, &rnd)| {
            if v <= min {
                return min_int;
            }
            if v >= max_int as f64 {
                return max_int;
            }
            if v.is_nan() {
                return 0;
            }
            let a = v.abs();
            let truncated = a.floor();
            let fixed = ((a - truncated) * scale) as u64;
            let mut r = truncated as i64;
            if rnd < fixed {
                r += 1;
            }
            if v < 0.0 {
                -r
            } else {
                r
            }
        })
        .collect();
    finish(t, dims, convert_data(&Data::S64(out), t)?)
}
