//! rxla's f32 math library: branch-free approximations of the hot
//! transcendental functions, emitted as `arith`/`math` ops that LLVM
//! compiles to plain instructions (so its vectorizers can work on loops
//! that use them, which they cannot across calls to `expf`, `tanhf`, ...).
//!
//! Every function is written once, over [`Ops`]: f32 arithmetic on values
//! of one shape with the `i32` integers and `i1` masks of the same shape.
//! [`Emit`] implements it by building MLIR ops for a scalar `f32` or a
//! `vector<...xf32>` (constants are splats of the value's type), so the
//! same code serves scalars today and vectors later.
//!
//! Methods (the usual ones: Cody-Waite range reduction plus polynomials,
//! as in Cephes, SLEEF and XLA:CPU):
//!
//! - `exp`, `exp2`, `expm1`: `x = n ln2 + r` with `|r| <= ln2/2` (`n` by
//!   the 1.5*2^23 rounding trick, no float-to-int conversion), `expm1(r)`
//!   by a polynomial, and `2^n` applied as two exact power-of-two factors
//!   (so that `n = 128` and `n = -150` need no special case);
//!   `expm1 = 2^n expm1(r) + (2^n - 1)` in one fused multiply-add.
//! - `log`, `log2`, `log1p`: `x = 2^e m` with `m` in `[sqrt(1/2), sqrt(2))`
//!   from the bits, `log(m) = log1p(m - 1)` by a polynomial; `log1p`
//!   computes `m - 1` from `x` itself (`x 2^-e + (2^-e - 1)`, one rounding),
//!   which keeps the low bits `1 + x` loses.
//! - `tanh`: an odd polynomial for `|x| < 0.625`, `1 - 2/(exp(2|x|) + 1)`
//!   beyond (saturating at 1 by itself).
//! - `erf`: an odd polynomial for `|x| < 1`, `1 - exp(-x^2) P(|x|)`
//!   beyond, with `|x|` clamped to 4 where `erf` rounds to 1.
//!
//! Special values are exact: NaN in gives NaN out, infinities, signed
//! zeros (the odd functions and `expm1`/`log1p` take the sign of `x`),
//! `log(0) = -inf`, `log(x < 0) = NaN`, `log1p(-1) = -inf`, overflow to
//! infinity at `expf`'s thresholds. Kernels run with denormals flushed
//! (FTZ/DAZ, as XLA:CPU): subnormal inputs act as zero and results that
//! would be subnormal may be zero.
//!
//! Accuracy, over all 2^32 inputs: every result of `exp`, `expm1`, `log`,
//! `log1p`, `tanh` and `erf` is within 1 ulp of the correctly rounded one
//! (`runtime/tests/math_accuracy.rs`, its ignored `*_all_inputs` tests);
//! against the exact value, the largest errors are 0.98 ulp (`exp`), 0.99
//! (`exp2`), 1.44 (`expm1`), 0.93 (`log`), 1.54 (`log2`), 1.49 (`log1p`),
//! 1.33 (`tanh`) and 1.28 (`erf`) (these functions evaluated in Rust over
//! every input, as the tests below do).
//!
//! The polynomial coefficients are minimax fits (Remez exchange in
//! mpmath, 50 digits) of the stated function on the stated interval,
//! weighted for relative error of the final result, with the
//! coefficients rounded to f32 one at a time (lowest degree first) and
//! the remaining ones refitted after each rounding. The fit error quoted
//! with each is that of the f32 coefficients, relative, before rounding
//! errors of the evaluation.

use crate::ir::*;
use mlir_sys::{MlirAttribute, MlirType};

/// The operations the approximations are written in: `F` is an f32 value
/// (a scalar or a vector), `I` the i32 value and `M` the i1 mask of the
/// same shape. Float arithmetic is IEEE round-to-nearest (with FTZ/DAZ
/// when the machine has them set); integer arithmetic wraps; `cmp` takes
/// `arith.cmpf` predicate names (`olt`, `ult`, `oeq`, ...).
pub trait Ops {
    type F: Copy;
    type I: Copy;
    type M: Copy;
    fn f(&self, c: f32) -> Self::F;
    fn i(&self, c: i32) -> Self::I;
    fn add(&self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(&self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(&self, a: Self::F, b: Self::F) -> Self::F;
    fn div(&self, a: Self::F, b: Self::F) -> Self::F;
    /// `a * b + c` with one rounding.
    fn fma(&self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    fn abs(&self, a: Self::F) -> Self::F;
    /// `|a|` with the sign of `s`.
    fn copysign(&self, a: Self::F, s: Self::F) -> Self::F;
    fn cmp(&self, pred: &str, a: Self::F, b: Self::F) -> Self::M;
    fn select(&self, m: Self::M, a: Self::F, b: Self::F) -> Self::F;
    /// The bits of a float as an integer, and back.
    fn bits(&self, a: Self::F) -> Self::I;
    fn of_bits(&self, a: Self::I) -> Self::F;
    /// Signed integer to float.
    fn to_float(&self, a: Self::I) -> Self::F;
    fn iadd(&self, a: Self::I, b: Self::I) -> Self::I;
    fn isub(&self, a: Self::I, b: Self::I) -> Self::I;
    fn iand(&self, a: Self::I, b: Self::I) -> Self::I;
    fn shl(&self, a: Self::I, n: u32) -> Self::I;
    /// Arithmetic shift right.
    fn sra(&self, a: Self::I, n: u32) -> Self::I;
    fn icmp(&self, pred: &str, a: Self::I, b: Self::I) -> Self::M;
}

// ----- the approximations -----

/// `log2(e)`.
const LOG2E: f32 = std::f32::consts::LOG2_E;
/// `ln 2 = LN2_HI + LN2_LO`: `LN2_HI` is `ln 2` rounded to f32, `LN2_LO`
/// the rest (rounded).
const LN2_HI: f32 = std::f32::consts::LN_2;
const LN2_LO: f32 = -1.9046542e-9;
/// `log2(e) = LOG2E + LOG2E_LO`.
const LOG2E_LO: f32 = 1.925963e-8;
/// 1.5 * 2^23: `y + MAGIC` rounds `y` (|y| < 2^22) to an integer, which
/// ends up in the low mantissa bits.
const MAGIC: f32 = 12_582_912.0;
const MAGIC_BITS: i32 = 0x4B40_0000;
/// Bits of `sqrt(1/2)` (rounded): `log`'s reduction puts the mantissa in
/// `[sqrt(1/2), sqrt(2))`.
const SQRT_HALF_BITS: i32 = 0x3F35_04F3;

/// `expm1(r) ~ r + r^2/2 + r^3 EXPM1_Q(r)` on `|r| <= ln2/2` (+1e-5),
/// relative error 4.6e-10.
const EXPM1_Q: [f32; 5] = [1.6666666e-1, 4.1666467e-2, 8.333643e-3, 1.3935047e-3, 1.9664547e-4];

/// `log1p(f) ~ f - f^2/2 + f^3 LOG1P_R(f)` on `[sqrt(1/2) - 1, sqrt(2) - 1]`
/// (+-1e-6), relative error 6.3e-9.
const LOG1P_R: [f32; 8] =
    [3.333333e-1, -2.5000823e-1, 2.0001261e-1, -1.6623335e-1, 1.4201026e-1, -1.3159554e-1, 1.2765619e-1, -7.640726e-2];

/// Below this, `tanh` is the polynomial.
const TANH_SMALL: f32 = 0.625;
/// `tanh(x) ~ x + x^3 TANH_S(x^2)` on `[0, 0.625]`, relative error 4.5e-9
/// (the fit lands on Cephes' `tanhf` polynomial, to 4 digits).
const TANH_S: [f32; 5] = [-3.333328e-1, 1.3331406e-1, -5.3736515e-2, 2.0628167e-2, -5.6922967e-3];

/// Below this, `erf` is the polynomial.
const ERF_SMALL: f32 = 1.0;
/// `erf(x) ~ x + x ERF_S(x^2)` on `[0, 1]` (the leading `2/sqrt(pi)` as
/// `1 + 0.128...`, which f32 holds closer), relative error 1.4e-9.
const ERF_S: [f32; 7] =
    [1.2837917e-1, -3.7612626e-1, 1.1283579e-1, -2.6853347e-2, 5.187162e-3, -7.997853e-4, 7.806903e-5];
/// `erf(x) ~ 1 - exp(-x^2) ERF_L(x)` (`ERF_L ~ exp(x^2) erfc(x)`) on
/// `[1, 4]`, relative error of `erf` 9.4e-9.
const ERF_L: [f32; 10] = [
    9.903315e-1,
    -1.070704,
    8.4465885e-1,
    -4.9988642e-1,
    2.1962744e-1,
    -6.98997e-2,
    1.5550302e-2,
    -2.2862698e-3,
    1.9973674e-4,
    -7.869988e-6,
];
/// `erf` is 1 in f32 beyond this (`erfc(4) = 1.5e-8 < 2^-25`).
const ERF_ONE: f32 = 4.0;

/// `c[0] + x (c[1] + x (c[2] + ...))`.
fn poly<O: Ops>(o: &O, x: O::F, c: &[f32]) -> O::F {
    let (last, rest) = c.split_last().expect("a polynomial has coefficients");
    rest.iter().rev().fold(o.f(*last), |acc, &ci| o.fma(acc, x, o.f(ci)))
}

/// `min(x, hi)`; NaN stays NaN.
fn clamp_hi<O: Ops>(o: &O, x: O::F, hi: f32) -> O::F {
    o.select(o.cmp("ogt", x, o.f(hi)), o.f(hi), x)
}

/// `x` clamped to `[lo, hi]`; NaN stays NaN.
fn clamp<O: Ops>(o: &O, x: O::F, lo: f32, hi: f32) -> O::F {
    let x = clamp_hi(o, x, hi);
    o.select(o.cmp("olt", x, o.f(lo)), o.f(lo), x)
}

/// `2^k` for `k` in `[-126, 127]`, from the bits.
fn pow2<O: Ops>(o: &O, k: O::I) -> O::F {
    o.of_bits(o.shl(o.iadd(k, o.i(127)), 23))
}

/// `x = n ln2 + r`, `|r| <= ln2/2`, for `|x| <= 104`: `(r, n)`.
fn exp_reduce<O: Ops>(o: &O, x: O::F) -> (O::F, O::I) {
    let t = o.fma(x, o.f(LOG2E), o.f(MAGIC));
    let n = o.isub(o.bits(t), o.i(MAGIC_BITS));
    let nf = o.sub(t, o.f(MAGIC));
    // x - n LN2_HI is exact (for n != 0, |x| > 1/4: both terms are
    // multiples of 2^-25 and the difference is below 1/2); the second
    // step rounds once.
    let r = o.fma(nf, o.f(-LN2_HI), x);
    let r = o.fma(nf, o.f(-LN2_LO), r);
    (r, n)
}

/// `expm1(r)` for `|r| <= ln2/2`.
fn expm1_poly<O: Ops>(o: &O, r: O::F) -> O::F {
    let q = poly(o, r, &EXPM1_Q);
    let h = o.fma(q, r, o.f(0.5));
    o.fma(o.mul(r, r), h, r)
}

/// `2^n (1 + p)` for `n` in `[-252, 254]` (`2^n` as two exact factors, so
/// that the result may overflow or underflow).
fn exp_scale<O: Ops>(o: &O, p: O::F, n: O::I) -> O::F {
    let h = o.sra(n, 1);
    let s1 = pow2(o, h);
    let s2 = pow2(o, o.isub(n, h));
    o.mul(s1, o.fma(s2, p, s2))
}

/// `2^n (1 + p) - 1` for `n` in `[-252, 253]`: `s1 (s2 p + (s2 - 1/s1))`
/// with `s1 s2 = 2^n`, which rounds as `2^n p + (2^n - 1)` does (`s2 -
/// 1/s1` is exact while `2^n - 1` is, and scaling by `s1` is exact).
fn expm1_scale<O: Ops>(o: &O, p: O::F, n: O::I) -> O::F {
    let h = o.sra(n, 1);
    let s1 = pow2(o, h);
    let s2 = pow2(o, o.isub(n, h));
    let s1_inv = pow2(o, o.isub(o.i(0), h));
    o.mul(s1, o.fma(s2, p, o.sub(s2, s1_inv)))
}

/// `exp(x)` for `x` in `[-104, 89]` (`|x|` beyond: 0 or inf).
fn exp_clamped<O: Ops>(o: &O, x: O::F) -> O::F {
    let (r, n) = exp_reduce(o, x);
    exp_scale(o, expm1_poly(o, r), n)
}

pub fn exp<O: Ops>(o: &O, x: O::F) -> O::F {
    // exp(89) overflows, exp(-104) underflows (to 0 even without FTZ).
    exp_clamped(o, clamp(o, x, -104.0, 89.0))
}

pub fn exp2<O: Ops>(o: &O, x: O::F) -> O::F {
    let x = clamp(o, x, -151.0, 129.0);
    let t = o.add(x, o.f(MAGIC));
    let n = o.isub(o.bits(t), o.i(MAGIC_BITS));
    // x - round(x) is exact; 2^r = e^(r ln2) with |r ln2| <= ln2/2.
    let r = o.sub(x, o.sub(t, o.f(MAGIC)));
    exp_scale(o, expm1_poly(o, o.mul(r, o.f(LN2_HI))), n)
}

pub fn expm1<O: Ops>(o: &O, x: O::F) -> O::F {
    let xc = clamp(o, x, -104.0, 89.0);
    let (r, n) = exp_reduce(o, xc);
    let y = expm1_scale(o, expm1_poly(o, r), n);
    // expm1(x) has the sign of x (this keeps expm1(-0) = -0).
    o.copysign(y, x)
}

/// `x = 2^e (1 + f)`, `1 + f` in `[sqrt(1/2), sqrt(2))`, for positive
/// normal `x`: `(f, e)` (`f = m - 1` is exact).
fn log_reduce<O: Ops>(o: &O, x: O::F) -> (O::F, O::I) {
    let k = o.isub(o.bits(x), o.i(SQRT_HALF_BITS));
    let e = o.sra(k, 23);
    let m = o.of_bits(o.iadd(o.iand(k, o.i(0x007F_FFFF)), o.i(SQRT_HALF_BITS)));
    (o.sub(m, o.f(1.0)), e)
}

/// `log1p(f)` for `f` in `[sqrt(1/2) - 1, sqrt(2) - 1]`.
fn log1p_poly<O: Ops>(o: &O, f: O::F) -> O::F {
    let h = o.fma(poly(o, f, &LOG1P_R), f, o.f(-0.5));
    o.fma(o.mul(f, f), h, f)
}

/// `y` for finite positive `x`; for the rest what `log` gives: `+inf` and
/// NaN as they are, `-inf` for zeros, NaN for negative numbers.
fn log_special<O: Ops>(o: &O, x: O::F, y: O::F) -> O::F {
    let y = o.select(o.cmp("olt", x, o.f(f32::INFINITY)), y, x);
    let y = o.select(o.cmp("oeq", x, o.f(0.0)), o.f(f32::NEG_INFINITY), y);
    o.select(o.cmp("olt", x, o.f(0.0)), o.f(f32::NAN), y)
}

pub fn log<O: Ops>(o: &O, x: O::F) -> O::F {
    let (f, e) = log_reduce(o, x);
    let ef = o.to_float(e);
    let y = o.fma(ef, o.f(LN2_HI), o.fma(ef, o.f(LN2_LO), log1p_poly(o, f)));
    log_special(o, x, y)
}

pub fn log2<O: Ops>(o: &O, x: O::F) -> O::F {
    let (f, e) = log_reduce(o, x);
    let p = log1p_poly(o, f);
    // e + p log2(e), log2(e) in two parts.
    let y = o.fma(p, o.f(LOG2E), o.fma(p, o.f(LOG2E_LO), o.to_float(e)));
    log_special(o, x, y)
}

pub fn log1p<O: Ops>(o: &O, x: O::F) -> O::F {
    let u = o.add(x, o.f(1.0));
    let (fu, e) = log_reduce(o, u);
    // f = (1 + x) 2^-e - 1 = x 2^-e + (2^-e - 1), one rounding (2^-e - 1
    // is exact for e <= 24, and its error is negligible beyond). 2^-e is
    // not a normal float for e = 128 (x > 2^127 sqrt 2), where f = m - 1
    // (the error of 1 + x is negligible there).
    let t = pow2(o, o.isub(o.i(0), e));
    let f = o.fma(x, t, o.sub(t, o.f(1.0)));
    let f = o.select(o.icmp("sgt", e, o.i(126)), fu, f);
    let ef = o.to_float(e);
    let y = o.fma(ef, o.f(LN2_HI), o.fma(ef, o.f(LN2_LO), log1p_poly(o, f)));
    let y = log_special(o, u, y);
    // log1p(x) has the sign of x (this keeps log1p(-0) = -0).
    o.copysign(y, x)
}

pub fn tanh<O: Ops>(o: &O, x: O::F) -> O::F {
    let a = o.abs(x);
    let z = o.mul(a, a);
    let small = o.fma(o.mul(a, z), poly(o, z, &TANH_S), a);
    // 1 - 2 / (exp(2a) + 1); tanh rounds to 1 from a = 9.01 on.
    let e = exp_clamped(o, clamp_hi(o, o.add(a, a), 20.0));
    let large = o.sub(o.f(1.0), o.div(o.f(2.0), o.add(e, o.f(1.0))));
    o.copysign(o.select(o.cmp("olt", a, o.f(TANH_SMALL)), small, large), x)
}

pub fn erf<O: Ops>(o: &O, x: O::F) -> O::F {
    let a = o.abs(x);
    let small = o.fma(a, poly(o, o.mul(a, a), &ERF_S), a);
    // 1 - exp(-a^2) ERF_L(a), with -a^2 in [-16, 0].
    let ac = clamp_hi(o, a, ERF_ONE);
    let e = exp_clamped(o, o.mul(o.f(-1.0), o.mul(ac, ac)));
    let large = o.fma(o.mul(o.f(-1.0), e), poly(o, ac, &ERF_L), o.f(1.0));
    o.copysign(o.select(o.cmp("olt", a, o.f(ERF_SMALL)), small, large), x)
}

/// The in-house function named `name` (`math.<name>`), if there is one.
/// The functions [`evaluate`] implements.
pub const IN_HOUSE: &[&str] = &["exp", "exp2", "expm1", "log", "log2", "log1p", "tanh", "erf"];

pub fn evaluate<O: Ops>(o: &O, name: &str, x: O::F) -> Option<O::F> {
    Some(match name {
        "exp" => exp(o, x),
        "exp2" => exp2(o, x),
        "expm1" => expm1(o, x),
        "log" => log(o, x),
        "log2" => log2(o, x),
        "log1p" => log1p(o, x),
        "tanh" => tanh(o, x),
        "erf" => erf(o, x),
        _ => return None,
    })
}

// ----- MLIR -----

/// [`Ops`] as MLIR ops at a builder's point, for values of type `f` (f32
/// or a vector of f32).
pub struct Emit<'a> {
    b: &'a B,
    f: MlirType,
    i: MlirType,
    m: MlirType,
}

impl<'a> Emit<'a> {
    /// `None` unless `ty` is f32 or a vector of f32.
    pub fn new(b: &'a B, ty: MlirType) -> Option<Emit<'a>> {
        // SAFETY: uniqued types of one live context.
        if unsafe { mlir_sys::mlirTypeIsAF32(ty) } {
            return Some(Emit { b, f: ty, i: b.int(32), m: b.int(1) });
        }
        if !is_vector(ty) || !unsafe { mlir_sys::mlirTypeIsAF32(element_type(ty)) } {
            return None;
        }
        let i = b.vector(&shape_of(ty), b.int(32));
        let m = b.vector(&shape_of(ty), b.int(1));
        Some(Emit { b, f: ty, i, m })
    }

    /// A constant of `ty` with every element `literal` (MLIR text).
    fn splat(&self, ty: MlirType, literal: &str) -> Value {
        self.b.const_literal(ty, literal)
    }

    fn un(&self, name: &str, a: Value, ty: MlirType) -> Value {
        self.b.val(name, &[a], ty, &[])
    }

    fn bin(&self, name: &str, a: Value, b: Value, ty: MlirType) -> Value {
        self.b.val(name, &[a, b], ty, &[])
    }

    fn predicate(&self, code: i64) -> MlirAttribute {
        self.b.int_attr(self.b.int(64), code)
    }
}

impl Ops for Emit<'_> {
    type F = Value;
    type I = Value;
    type M = Value;

    fn f(&self, c: f32) -> Value {
        // The bits, exactly (NaN and infinities included).
        self.splat(self.f, &format!("0x{:08X}", c.to_bits()))
    }
    fn i(&self, c: i32) -> Value {
        self.splat(self.i, &c.to_string())
    }
    fn add(&self, a: Value, b: Value) -> Value {
        self.bin("arith.addf", a, b, self.f)
    }
    fn sub(&self, a: Value, b: Value) -> Value {
        self.bin("arith.subf", a, b, self.f)
    }
    fn mul(&self, a: Value, b: Value) -> Value {
        self.bin("arith.mulf", a, b, self.f)
    }
    fn div(&self, a: Value, b: Value) -> Value {
        self.bin("arith.divf", a, b, self.f)
    }
    fn fma(&self, a: Value, b: Value, c: Value) -> Value {
        self.b.val("math.fma", &[a, b, c], self.f, &[])
    }
    fn abs(&self, a: Value) -> Value {
        self.un("math.absf", a, self.f)
    }
    fn copysign(&self, a: Value, s: Value) -> Value {
        self.bin("math.copysign", a, s, self.f)
    }
    fn cmp(&self, pred: &str, a: Value, b: Value) -> Value {
        self.b.val("arith.cmpf", &[a, b], self.m, &[("predicate", self.predicate(cmpf_code(pred)))])
    }
    fn select(&self, m: Value, a: Value, b: Value) -> Value {
        self.b.val("arith.select", &[m, a, b], self.f, &[])
    }
    fn bits(&self, a: Value) -> Value {
        self.un("arith.bitcast", a, self.i)
    }
    fn of_bits(&self, a: Value) -> Value {
        self.un("arith.bitcast", a, self.f)
    }
    fn to_float(&self, a: Value) -> Value {
        self.un("arith.sitofp", a, self.f)
    }
    fn iadd(&self, a: Value, b: Value) -> Value {
        self.bin("arith.addi", a, b, self.i)
    }
    fn isub(&self, a: Value, b: Value) -> Value {
        self.bin("arith.subi", a, b, self.i)
    }
    fn iand(&self, a: Value, b: Value) -> Value {
        self.bin("arith.andi", a, b, self.i)
    }
    fn shl(&self, a: Value, n: u32) -> Value {
        let n = self.i(n as i32);
        self.bin("arith.shli", a, n, self.i)
    }
    fn sra(&self, a: Value, n: u32) -> Value {
        let n = self.i(n as i32);
        self.bin("arith.shrsi", a, n, self.i)
    }
    fn icmp(&self, pred: &str, a: Value, b: Value) -> Value {
        self.b.val("arith.cmpi", &[a, b], self.m, &[("predicate", self.predicate(cmpi_code(pred)))])
    }
}

/// The in-house replacement of `math.<name>` on an f32 (or vector of f32)
/// operand, built at `b`; `None` where there is none (the caller calls
/// the C library).
pub fn expand_f32(b: &B, name: &str, operands: &[Value]) -> Option<Value> {
    let [x] = operands else { return None };
    let e = Emit::new(b, x.raw_type())?;
    evaluate(&e, name, *x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Ops`] evaluated in Rust, with denormals flushed as the kernels run
    /// them (subnormal operands of arithmetic and comparisons read as zero,
    /// subnormal results become zero; bit operations see the bits).
    struct Eval;

    fn flush(x: f32) -> f32 {
        if x.is_subnormal() {
            0f32.copysign(x)
        } else {
            x
        }
    }

    impl Ops for Eval {
        type F = f32;
        type I = i32;
        type M = bool;
        fn f(&self, c: f32) -> f32 {
            c
        }
        fn i(&self, c: i32) -> i32 {
            c
        }
        fn add(&self, a: f32, b: f32) -> f32 {
            flush(flush(a) + flush(b))
        }
        fn sub(&self, a: f32, b: f32) -> f32 {
            flush(flush(a) - flush(b))
        }
        fn mul(&self, a: f32, b: f32) -> f32 {
            flush(flush(a) * flush(b))
        }
        fn div(&self, a: f32, b: f32) -> f32 {
            flush(flush(a) / flush(b))
        }
        fn fma(&self, a: f32, b: f32, c: f32) -> f32 {
            flush(flush(a).mul_add(flush(b), flush(c)))
        }
        fn abs(&self, a: f32) -> f32 {
            a.abs()
        }
        fn copysign(&self, a: f32, s: f32) -> f32 {
            a.copysign(s)
        }
        fn cmp(&self, pred: &str, a: f32, b: f32) -> bool {
            let (a, b) = (flush(a), flush(b));
            let holds = match &pred[1..] {
                "eq" => a == b,
                "gt" => a > b,
                "ge" => a >= b,
                "lt" => a < b,
                "le" => a <= b,
                "ne" => a != b,
                _ => panic!("bad predicate {pred}"),
            };
            let unordered = a.is_nan() || b.is_nan();
            if pred.starts_with('o') {
                !unordered && holds
            } else {
                unordered || holds
            }
        }
        fn select(&self, m: bool, a: f32, b: f32) -> f32 {
            if m {
                a
            } else {
                b
            }
        }
        fn bits(&self, a: f32) -> i32 {
            a.to_bits() as i32
        }
        fn of_bits(&self, a: i32) -> f32 {
            f32::from_bits(a as u32)
        }
        fn to_float(&self, a: i32) -> f32 {
            a as f32
        }
        fn iadd(&self, a: i32, b: i32) -> i32 {
            a.wrapping_add(b)
        }
        fn isub(&self, a: i32, b: i32) -> i32 {
            a.wrapping_sub(b)
        }
        fn iand(&self, a: i32, b: i32) -> i32 {
            a & b
        }
        fn shl(&self, a: i32, n: u32) -> i32 {
            a << n
        }
        fn sra(&self, a: i32, n: u32) -> i32 {
            a >> n
        }
        fn icmp(&self, pred: &str, a: i32, b: i32) -> bool {
            match pred {
                "eq" => a == b,
                "ne" => a != b,
                "slt" => a < b,
                "sle" => a <= b,
                "sgt" => a > b,
                "sge" => a >= b,
                _ => panic!("bad predicate {pred}"),
            }
        }
    }

    /// The functions with an f64 reference in `std` (erf is checked
    /// against `libm` in `runtime/tests/math_accuracy.rs`).
    type Reference = fn(f64) -> f64;
    const FUNCTIONS: &[(&str, Reference)] = &[
        ("exp", f64::exp),
        ("exp2", f64::exp2),
        ("expm1", f64::exp_m1),
        ("log", f64::ln),
        ("log2", f64::log2),
        ("log1p", f64::ln_1p),
        ("tanh", f64::tanh),
    ];

    /// The error of `got` against the exact `want`, in ulps of `want`'s
    /// binade; NaN, infinities and zero signs must match (infinite error
    /// otherwise); a zero is exact for results that flush to zero.
    fn ulps(got: f32, want: f64) -> f64 {
        let rounded = want as f32;
        if rounded.is_nan() || got.is_nan() {
            return if rounded.is_nan() && got.is_nan() { 0.0 } else { f64::INFINITY };
        }
        if rounded.is_infinite() || got.is_infinite() {
            return if rounded == got { 0.0 } else { f64::INFINITY };
        }
        if got == 0.0 && flush(rounded) == 0.0 {
            return if got.is_sign_negative() == rounded.is_sign_negative() { 0.0 } else { f64::INFINITY };
        }
        let binade = want.abs().max(f32::MIN_POSITIVE as f64).log2().floor() as i32;
        (got as f64 - want).abs() / 2f64.powi(binade - 23)
    }

    /// The worst error of `name` over every `stride`-th bit pattern.
    fn worst(name: &str, reference: Reference, stride: usize) -> (f64, f32) {
        let mut worst = (0.0, 0.0);
        for bits in (0..=u32::MAX).step_by(stride) {
            let x = flush(f32::from_bits(bits));
            let got = evaluate(&Eval, name, x).unwrap();
            let e = ulps(got, reference(x as f64));
            if e > worst.0 {
                worst = (e, x);
            }
        }
        worst
    }

    #[test]
    fn within_two_ulp_of_the_exact_result() {
        let stride = if cfg!(debug_assertions) { 100_003 } else { 1009 };
        for &(name, reference) in FUNCTIONS {
            let (e, x) = worst(name, reference, stride);
            assert!(e <= 2.0, "{name}: {e} ulp at x = {x:e}");
        }
    }

    /// Every f32 input: `cargo test --release -p rxla-lowering math -- --ignored`.
    #[test]
    #[ignore = "all 2^32 inputs of each function: minutes"]
    fn within_two_ulp_of_the_exact_result_everywhere() {
        for &(name, reference) in FUNCTIONS {
            let (e, x) = worst(name, reference, 1);
            println!("{name}: max {e:.3} ulp at x = {x:e}");
            assert!(e <= 2.0, "{name}: {e} ulp at x = {x:e}");
        }
    }

    #[test]
    fn special_values_are_exact() {
        let inf = f32::INFINITY;
        let cases: &[(&str, f32, f32)] = &[
            ("exp", 0.0, 1.0),
            ("exp", -0.0, 1.0),
            ("exp", inf, inf),
            ("exp", -inf, 0.0),
            ("exp", 88.72284, inf),
            ("exp", -104.0, 0.0),
            ("exp2", 128.0, inf),
            ("exp2", -126.0, f32::MIN_POSITIVE),
            ("exp2", 127.0, 2f32.powi(127)),
            ("exp2", 10.0, 1024.0),
            ("exp2", -inf, 0.0),
            ("expm1", -0.0, -0.0),
            ("expm1", -inf, -1.0),
            ("expm1", -20.0, -1.0),
            ("expm1", 88.72284, inf),
            ("log", 1.0, 0.0),
            ("log", 0.0, -inf),
            ("log", -0.0, -inf),
            ("log", f32::from_bits(1), -inf),
            ("log", inf, inf),
            ("log2", 1024.0, 10.0),
            ("log2", f32::MIN_POSITIVE, -126.0),
            ("log2", 2f32.powi(127), 127.0),
            ("log2", 0.0, -inf),
            ("log1p", -0.0, -0.0),
            ("log1p", -1.0, -inf),
            ("log1p", inf, inf),
            ("tanh", -0.0, -0.0),
            ("tanh", 10.0, 1.0),
            ("tanh", -inf, -1.0),
            ("erf", -0.0, -0.0),
            ("erf", 4.0, 1.0),
            ("erf", -inf, -1.0),
        ];
        for &(name, x, want) in cases {
            let got = evaluate(&Eval, name, x).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{name}({x:e}) = {got:e}, want {want:e}");
        }
        for name in ["exp", "exp2", "expm1", "log", "log2", "log1p", "tanh", "erf"] {
            assert!(evaluate(&Eval, name, f32::NAN).unwrap().is_nan(), "{name}(NaN)");
        }
        for name in ["log", "log2"] {
            assert!(evaluate(&Eval, name, -1.0).unwrap().is_nan(), "{name}(-1)");
            assert!(evaluate(&Eval, name, -inf).unwrap().is_nan(), "{name}(-inf)");
        }
        assert!(evaluate(&Eval, "log1p", -1.5).unwrap().is_nan());
    }

    /// The emitted ops verify, on scalars and on vectors.
    #[test]
    fn emits_valid_ir_for_scalars_and_vectors() {
        use melior::ir::{operation::OperationLike, Module};
        let context = rxla_dialects::create_context();
        let mut text = String::new();
        for (i, ty) in ["f32", "vector<8xf32>"].iter().enumerate() {
            text += &format!("func.func @f{i}(%x: {ty}) -> {ty} {{\n");
            let mut last = "%x".to_string();
            for (j, name) in ["exp", "exp2", "expm1", "log", "log2", "log1p", "tanh", "erf"].iter().enumerate() {
                text += &format!("  %y{j} = math.{name} {last} : {ty}\n");
                last = format!("%y{j}");
            }
            text += &format!("  return {last} : {ty}\n}}\n");
        }
        let module = Module::parse(&context, &text).expect("parses");
        let root = Op::of(&module.as_operation());
        for op in walk(root) {
            if let Some(name) = op.name().strip_prefix("math.") {
                let b = B::before(op);
                let x = op.operands()[0];
                let y = expand_f32(&b, name, &[x]).unwrap_or_else(|| panic!("math.{name} is in-house"));
                replace_op(op, &[y]);
            }
        }
        assert!(module.as_operation().verify(), "verifies:\n{}", module.as_operation());
        let out = module.as_operation().to_string();
        for name in ["exp", "log", "tanh", "erf"] {
            assert!(!out.contains(&format!("math.{name} ")), "math.{name} left:\n{out}");
        }
        assert!(out.contains("dense<") && out.contains("vector<8xi32>"), "vector constants and integers:\n{out}");
    }
}
