//! LAPACK's typed-FFI custom calls as JAX's CPU lowering emits them
//! (`rxla_hlo_text::custom_calls::LAPACK_TARGETS`: `lapack_?potrf_ffi`,
//! `?trsm`, `?getrf`, `?geqrf`, `?orgqr`/`?ungqr`, `?syevd`/`?heevd`,
//! `?gesdd`, `?gesvd`; prefix `s`/`d`/`c`/`z` for f32/f64/c64/c128).
//!
//! Decisions:
//!
//! - **Operands are logical arrays.** JAX asks for column-major matrices
//!   (`operand_layout_constraints`), and LAPACK's column-major `A(i, j)` is
//!   the logical element `[..., i, j]`; the interpreter's values are
//!   logical, so every routine reads and writes `[..., rows, cols]`
//!   row-major values and returns the logical value XLA returns. Leading
//!   dimensions are batch dimensions (`num_batch_dims`), one call per matrix.
//! - **`backend_config`** is the MLIR dictionary JAX writes,
//!   `{uplo = 76 : ui8}`, characters as their byte values ('L' = 76).
//! - **potrf, getrf, geqrf, orgqr/ungqr** follow LAPACK's unblocked
//!   reference routines (potf2, getf2, geqr2 with larfg/larf, org2r/ung2r)
//!   in the element type itself, so pivots, `info` and Householder signs are
//!   LAPACK's; values differ from a blocked LAPACK only by rounding.
//!   potrf factors the `uplo` triangle and leaves the other triangle as it
//!   was; `info` is the order of the first leading minor that is not
//!   positive definite (the factor is then partial; JAX replaces it by NaN).
//!   getrf pivots on the first entry of largest `|re| + |im|` (LAPACK's
//!   i?amax), `ipiv` is 1-based, `info` the first zero pivot (1-based).
//! - **trsm** (alpha = 1) is `triangular-solve`'s substitution in f64/c128
//!   (`linalg::triangular_solve_core`), rounded once.
//! - **syevd/heevd and gesdd/gesvd** are cyclic Jacobi methods (two-sided
//!   for the Hermitian eigenproblem, one-sided Hestenes for the SVD) in
//!   f64/c128 whatever the type, rounded once: robust and accurate at the
//!   sizes JAX programs factor on a CPU. Eigenvalues ascend, singular
//!   values descend. Vectors are unique only up to a unit factor (a sign
//!   for reals), which LAPACK chooses by its algorithm; here each
//!   eigenvector, and each left singular vector (its right one with it),
//!   has its largest-modulus entry (the first of equals) real and
//!   positive. So vectors may differ from XLA's by that factor, while what
//!   users compute from them (`U diag(s) V^H`, `V diag(w) V^H`,
//!   projections) agrees. Vectors of repeated values span the same space.
//!   Left singular vectors of zero singular values, and the extra columns
//!   of mode 'A', complete the basis with unit vectors orthogonalized
//!   against the others. A matrix with NaN or infinite entries gives NaN
//!   values and vectors (`info` 0). gesdd's mode 'N' gives zeros of the
//!   declared `u` and `vt` shapes; syevd's mode 'N' returns the input in
//!   place of the vectors (LAPACK leaves it overwritten); gesdd's first
//!   result (LAPACK's overwritten input, unused by JAX) is the input.
//! - Wrong operand counts, types or shapes, a prefix that does not match
//!   the operand type, or a missing or unknown `backend_config` entry are
//!   errors naming the target.

use crate::{
    bail,
    error::Result,
    eval::{attr, attr_error},
    literal::{Data, ElementType, Literal},
    ops::linalg::{
        array, array_shape, literal_from_c64s, literal_from_f64s, to_c64s, to_f64s, triangular_solve_core, Transpose,
        TriSolve,
    },
};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::{
    ast::{Instruction, PrimitiveType, Shape},
    attrs,
};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Evaluates the LAPACK custom call `target` (one of `LAPACK_TARGETS`).
pub fn evaluate(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let name = target.strip_prefix("lapack_").and_then(|t| t.strip_suffix("_ffi"));
    let Some((prefix, routine)) = name.and_then(|n| Some((n.chars().next()?, n.get(1..)?))) else {
        bail!("custom-call target \"{target}\" is not a LAPACK target");
    };
    macro_rules! typed {
        ($f:ident) => {
            match prefix {
                's' => $f::<f32>(target, inst, operands),
                'd' => $f::<f64>(target, inst, operands),
                'c' => $f::<Complex32>(target, inst, operands),
                'z' => $f::<Complex64>(target, inst, operands),
                _ => bail!("custom-call target \"{target}\": unknown type prefix '{prefix}'"),
            }
        };
    }
    match routine {
        "potrf" => typed!(potrf),
        "trsm" => typed!(trsm),
        "getrf" => typed!(getrf),
        "geqrf" => typed!(geqrf),
        "orgqr" | "ungqr" => typed!(orgqr),
        "syevd" | "heevd" => typed!(syevd),
        "gesdd" | "gesvd" => typed!(gesdd),
        _ => bail!("custom-call target \"{target}\" is not supported by the interpreter"),
    }
}

// ---------------------------------------------------------------------------
// Element types

/// The four LAPACK element types, with what the routines need of them.
trait Elem:
    Copy
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    type Real: Real;
    /// The type the iterative routines compute in (f64 or c128).
    type Wide: Elem<Real = f64>;
    const TYPE: ElementType;
    const COMPLEX: bool;
    fn from_parts(re: Self::Real, im: Self::Real) -> Self;
    fn re(self) -> Self::Real;
    fn im(self) -> Self::Real;
    fn conj(self) -> Self;
    fn widen(self) -> Self::Wide;
    fn narrow(w: Self::Wide) -> Self;
    fn unwrap(d: &Data) -> Option<&[Self]>;
    fn wrap(v: Vec<Self>) -> Data;

    fn zero() -> Self {
        Self::from_real(Self::Real::ZERO)
    }
    fn one() -> Self {
        Self::from_real(Self::Real::ONE)
    }
    fn from_real(r: Self::Real) -> Self {
        Self::from_parts(r, Self::Real::ZERO)
    }
    /// `|re| + |im|`, LAPACK's cabs1 (i?amax compares it).
    fn abs1(self) -> Self::Real {
        self.re().mag() + self.im().mag()
    }
    fn norm_sq(self) -> Self::Real {
        self.re() * self.re() + self.im() * self.im()
    }
    fn modulus(self) -> Self::Real {
        self.re().hypot(self.im())
    }
    fn scale(self, r: Self::Real) -> Self {
        Self::from_parts(self.re() * r, self.im() * r)
    }
    fn finite(self) -> bool {
        self.re().is_finite_real() && self.im().is_finite_real()
    }
}

/// f32 and f64.
trait Real: Elem<Real = Self> + PartialOrd {
    const ZERO: Self;
    const ONE: Self;
    /// LAPACK's dlamch('S'): the smallest normal number.
    const SAFMIN: Self;
    fn mag(self) -> Self;
    fn sqrt(self) -> Self;
    fn hypot(self, other: Self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn is_finite_real(self) -> bool;
    fn from_f64(x: f64) -> Self;
}

macro_rules! real_elem {
    ($t:ident, $variant:ident, $prim:ident) => {
        impl Elem for $t {
            type Real = $t;
            type Wide = f64;
            const TYPE: ElementType = PrimitiveType::$prim;
            const COMPLEX: bool = false;
            fn from_parts(re: $t, _im: $t) -> Self {
                re
            }
            fn re(self) -> $t {
                self
            }
            fn im(self) -> $t {
                0.0
            }
            fn conj(self) -> Self {
                self
            }
            fn widen(self) -> f64 {
                self as f64
            }
            fn narrow(w: f64) -> Self {
                w as $t
            }
            fn unwrap(d: &Data) -> Option<&[Self]> {
                match d {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> Data {
                Data::$variant(v)
            }
            fn abs1(self) -> $t {
                $t::abs(self)
            }
            fn modulus(self) -> $t {
                $t::abs(self)
            }
        }
        impl Real for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const SAFMIN: $t = $t::MIN_POSITIVE;
            fn mag(self) -> $t {
                $t::abs(self)
            }
            fn sqrt(self) -> $t {
                $t::sqrt(self)
            }
            fn hypot(self, other: $t) -> $t {
                $t::hypot(self, other)
            }
            fn copysign(self, sign: $t) -> $t {
                $t::copysign(self, sign)
            }
            fn is_finite_real(self) -> bool {
                $t::is_finite(self)
            }
            fn from_f64(x: f64) -> $t {
                x as $t
            }
        }
    };
}
real_elem!(f32, F32, F32);
real_elem!(f64, F64, F64);

macro_rules! complex_elem {
    ($t:ident, $r:ident, $variant:ident, $prim:ident) => {
        impl Elem for $t {
            type Real = $r;
            type Wide = Complex64;
            const TYPE: ElementType = PrimitiveType::$prim;
            const COMPLEX: bool = true;
            fn from_parts(re: $r, im: $r) -> Self {
                $t::new(re, im)
            }
            fn re(self) -> $r {
                self.re
            }
            fn im(self) -> $r {
                self.im
            }
            fn conj(self) -> Self {
                $t::new(self.re, -self.im)
            }
            fn widen(self) -> Complex64 {
                Complex64::new(self.re as f64, self.im as f64)
            }
            fn narrow(w: Complex64) -> Self {
                $t::new(w.re as $r, w.im as $r)
            }
            fn unwrap(d: &Data) -> Option<&[Self]> {
                match d {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> Data {
                Data::$variant(v)
            }
        }
    };
}
complex_elem!(Complex32, f32, C64, C64);
complex_elem!(Complex64, f64, C128, C128);

// ---------------------------------------------------------------------------
// Operands, results and backend_config

/// Operand `i` as an array of `T`.
fn operand<'a, T: Elem>(target: &str, operands: &[&'a Literal], i: usize, what: &str) -> Result<(&'a [i64], &'a [T])> {
    let Some(lit) = operands.get(i) else { bail!("{target}: missing operand {i} ({what})") };
    let (dims, data) = array(lit)?;
    match T::unwrap(data) {
        Some(v) => Ok((dims, v)),
        None => bail!("{target}: {what} must be {}, got {}", T::TYPE.name(), data.element_type().name()),
    }
}

fn operand_count(target: &str, operands: &[&Literal], n: usize) -> Result<()> {
    if operands.len() != n {
        bail!("{target} takes {n} operand(s), got {}", operands.len());
    }
    Ok(())
}

/// Batch dims, rows and columns of `[..., rows, cols]`.
fn matrices(target: &str, what: &str, dims: &[i64]) -> Result<(Vec<i64>, usize, usize)> {
    let r = dims.len();
    if r < 2 {
        bail!("{target}: {what} must be a matrix or a batch of matrices, got dims {dims:?}");
    }
    Ok((dims[..r - 2].to_vec(), dims[r - 2].max(0) as usize, dims[r - 1].max(0) as usize))
}

fn count(batch: &[i64]) -> usize {
    batch.iter().map(|&d| d.max(0) as usize).product()
}

fn with(batch: &[i64], tail: &[usize]) -> Vec<i64> {
    batch.iter().copied().chain(tail.iter().map(|&d| d as i64)).collect()
}

type ArrayType = (ElementType, Vec<i64>);

/// The declared result arrays (one, or the elements of the tuple).
fn declared(inst: &Instruction) -> Result<Vec<ArrayType>> {
    match &inst.shape {
        Shape::Tuple(e) => e.iter().map(array_shape).collect(),
        s => Ok(vec![array_shape(s)?]),
    }
}

fn show(types: &[ArrayType]) -> String {
    let one = |(t, d): &ArrayType| format!("{}{d:?}", t.name());
    match types {
        [single] => one(single),
        _ => format!("({})", types.iter().map(one).collect::<Vec<_>>().join(", ")),
    }
}

/// Checks the declared result against what `target` computes.
fn check_results(target: &str, inst: &Instruction, want: &[ArrayType]) -> Result<()> {
    let got = declared(inst)?;
    let tuple = matches!(inst.shape, Shape::Tuple(_));
    if got != want || tuple != (want.len() > 1) {
        bail!("{target}: the result must be {}, but is declared {}", show(want), show(&got));
    }
    Ok(())
}

fn pack(mut results: Vec<Literal>) -> Literal {
    if results.len() == 1 {
        results.remove(0)
    } else {
        Literal::Tuple(results)
    }
}

fn s32(dims: Vec<i64>, v: Vec<i32>) -> Literal {
    Literal::array(dims, Data::S32(v))
}

/// The integer entries of `backend_config` (`{uplo = 76 : ui8, ...}`).
fn config(target: &str, inst: &Instruction) -> Result<Vec<(String, i64)>> {
    let Some(v) = attr(inst, "backend_config") else { return Ok(Vec::new()) };
    let text =
        if v.text.trim_start().starts_with('"') { attrs::string(v).map_err(attr_error)? } else { v.text.clone() };
    let trimmed = text.trim();
    let Some(body) = trimmed.strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
        bail!("{target}: backend_config {text} is not a dictionary like {{uplo = 76 : ui8}}");
    };
    let mut entries = Vec::new();
    for entry in body.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let parsed = entry.split_once('=').and_then(|(name, value)| {
            let number = value.split(':').next()?.trim().parse::<i64>().ok()?;
            Some((name.trim().to_string(), number))
        });
        match parsed {
            Some(p) => entries.push(p),
            None => bail!("{target}: backend_config entry `{entry}` is not `name = integer : type`"),
        }
    }
    Ok(entries)
}

/// The character option `name` of the config, one of `allowed`.
fn char_option(target: &str, config: &[(String, i64)], name: &str, allowed: &[u8]) -> Result<u8> {
    let options = allowed.iter().map(|&c| format!("'{}'", c as char)).collect::<Vec<_>>().join(", ");
    let Some((_, value)) = config.iter().find(|(k, _)| k == name) else {
        bail!("{target}: backend_config has no `{name}` (one of {options})");
    };
    match u8::try_from(*value).ok().filter(|c| allowed.contains(c)) {
        Some(c) => Ok(c),
        None => bail!("{target}: backend_config `{name} = {value}` is not one of {options}"),
    }
}

// ---------------------------------------------------------------------------
// potrf: Cholesky

fn potrf<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let lower = char_option(target, &config(target, inst)?, "uplo", b"LU")? == b'L';
    operand_count(target, operands, 1)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the matrix")?;
    let (batch, n, cols) = matrices(target, "the matrix", dims)?;
    if n != cols {
        bail!("{target}: the matrix must be square, got dims {dims:?}");
    }
    check_results(target, inst, &[(T::TYPE, dims.to_vec()), (PrimitiveType::S32, batch.clone())])?;
    let mut out = a.to_vec();
    let mut info = Vec::new();
    for b in 0..count(&batch) {
        let m = &mut out[b * n * n..(b + 1) * n * n];
        // The upper factor U (U^H U = A) is the conjugate transpose of the
        // lower factor of A^H.
        if !lower {
            conj_transpose_square(m, n);
        }
        info.push(potf2_lower(m, n));
        if !lower {
            conj_transpose_square(m, n);
        }
    }
    Ok(pack(vec![Literal::array(dims.to_vec(), T::wrap(out)), s32(batch, info)]))
}

fn conj_transpose_square<T: Elem>(m: &mut [T], n: usize) {
    for i in 0..n {
        m[i * n + i] = m[i * n + i].conj();
        for j in i + 1..n {
            let (x, y) = (m[i * n + j], m[j * n + i]);
            m[i * n + j] = y.conj();
            m[j * n + i] = x.conj();
        }
    }
}

/// LAPACK's potf2 ('L'): the lower factor in place; only the lower
/// triangle is read or written. Returns `info`.
fn potf2_lower<T: Elem>(a: &mut [T], n: usize) -> i32 {
    for j in 0..n {
        let mut ajj = a[j * n + j].re();
        for k in 0..j {
            ajj = ajj - a[j * n + k].norm_sq();
        }
        // Only a non-positive pivot fails: a NaN one goes on (and spreads),
        // as in the OpenBLAS potrf XLA:CPU calls (reference LAPACK also
        // stops at NaN), so JAX keeps the factor's leading entries.
        if ajj.partial_cmp(&T::Real::ZERO).is_some_and(|o| o != std::cmp::Ordering::Greater) {
            a[j * n + j] = T::from_real(ajj);
            return (j + 1) as i32;
        }
        let ajj = ajj.sqrt();
        a[j * n + j] = T::from_real(ajj);
        let r = T::Real::ONE / ajj;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s = s - a[i * n + k] * a[j * n + k].conj();
            }
            a[i * n + j] = s.scale(r);
        }
    }
    0
}

// ---------------------------------------------------------------------------
// trsm: triangular solve

fn trsm<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let cfg = config(target, inst)?;
    let left_side = char_option(target, &cfg, "side", b"LR")? == b'L';
    let lower = char_option(target, &cfg, "uplo", b"LU")? == b'L';
    let transpose = match char_option(target, &cfg, "trans_x", b"NTC")? {
        b'N' => Transpose::No,
        b'T' => Transpose::Plain,
        _ => Transpose::Adjoint,
    };
    let unit_diagonal = char_option(target, &cfg, "diag", b"UN")? == b'U';
    operand_count(target, operands, 2)?;
    let (a_dims, a) = operand::<T>(target, operands, 0, "the triangular matrix")?;
    let (b_dims, b) = operand::<T>(target, operands, 1, "the right-hand side")?;
    let (a_batch, m, m2) = matrices(target, "the triangular matrix", a_dims)?;
    let (b_batch, rows, cols) = matrices(target, "the right-hand side", b_dims)?;
    let k = if left_side { cols } else { rows };
    if m != m2 || a_batch != b_batch || (if left_side { rows } else { cols }) != m {
        let side = if left_side { "[..., m, n]" } else { "[..., n, m]" };
        bail!(
            "{target}: needs a of [..., m, m] and b of {side} with the same batch dims, got a {a_dims:?}, b {b_dims:?}"
        );
    }
    check_results(target, inst, &[(T::TYPE, b_dims.to_vec())])?;
    let o = TriSolve { left_side, lower, unit_diagonal, transpose };
    let (a_data, b_data) = (T::wrap(a.to_vec()), T::wrap(b.to_vec()));
    if T::COMPLEX {
        let mut x = to_c64s(&b_data);
        triangular_solve_core(&to_c64s(&a_data), &mut x, m, k, &o);
        literal_from_c64s(T::TYPE, b_dims.to_vec(), x)
    } else {
        let mut x = to_f64s(&b_data);
        triangular_solve_core(&to_f64s(&a_data), &mut x, m, k, &o);
        literal_from_f64s(T::TYPE, b_dims.to_vec(), x)
    }
}

// ---------------------------------------------------------------------------
// getrf: LU with partial pivoting

fn getrf<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    operand_count(target, operands, 1)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the matrix")?;
    let (batch, m, n) = matrices(target, "the matrix", dims)?;
    let k = m.min(n);
    let s32_type = PrimitiveType::S32;
    check_results(
        target,
        inst,
        &[(T::TYPE, dims.to_vec()), (s32_type, with(&batch, &[k])), (s32_type, batch.clone())],
    )?;
    let mut lu = a.to_vec();
    let mut ipiv = vec![0; count(&batch) * k];
    let mut info = Vec::new();
    for b in 0..count(&batch) {
        info.push(getf2(&mut lu[b * m * n..(b + 1) * m * n], m, n, &mut ipiv[b * k..(b + 1) * k]));
    }
    Ok(pack(vec![Literal::array(dims.to_vec(), T::wrap(lu)), s32(with(&batch, &[k]), ipiv), s32(batch, info)]))
}

/// LAPACK's getf2 on the row-major `m x n` matrix `a`. Returns `info`.
fn getf2<T: Elem>(a: &mut [T], m: usize, n: usize, ipiv: &mut [i32]) -> i32 {
    let mut info = 0;
    for j in 0..m.min(n) {
        // i?amax: the first index of the largest |re| + |im|.
        let (mut p, mut best) = (j, a[j * n + j].abs1());
        for i in j + 1..m {
            let v = a[i * n + j].abs1();
            if v > best {
                (p, best) = (i, v);
            }
        }
        ipiv[j] = (p + 1) as i32;
        if a[p * n + j] != T::zero() {
            if p != j {
                for c in 0..n {
                    a.swap(p * n + c, j * n + c);
                }
            }
            let d = a[j * n + j];
            if d.modulus() >= T::Real::SAFMIN {
                let r = T::one() / d;
                for i in j + 1..m {
                    a[i * n + j] = a[i * n + j] * r;
                }
            } else {
                for i in j + 1..m {
                    a[i * n + j] = a[i * n + j] / d;
                }
            }
        } else if info == 0 {
            info = (j + 1) as i32;
        }
        for i in j + 1..m {
            let l = a[i * n + j];
            for c in j + 1..n {
                a[i * n + c] = a[i * n + c] - l * a[j * n + c];
            }
        }
    }
    info
}

// ---------------------------------------------------------------------------
// geqrf and orgqr/ungqr: Householder QR

fn geqrf<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    operand_count(target, operands, 1)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the matrix")?;
    let (batch, m, n) = matrices(target, "the matrix", dims)?;
    let k = m.min(n);
    check_results(target, inst, &[(T::TYPE, dims.to_vec()), (T::TYPE, with(&batch, &[k]))])?;
    let mut out = a.to_vec();
    let mut tau = vec![T::zero(); count(&batch) * k];
    for b in 0..count(&batch) {
        geqr2(&mut out[b * m * n..(b + 1) * m * n], m, n, &mut tau[b * k..(b + 1) * k]);
    }
    Ok(pack(vec![Literal::array(dims.to_vec(), T::wrap(out)), Literal::array(with(&batch, &[k]), T::wrap(tau))]))
}

/// LAPACK's geqr2: R on and above the diagonal, the reflectors' vectors
/// (implicit leading 1) below it.
fn geqr2<T: Elem>(a: &mut [T], m: usize, n: usize, tau: &mut [T]) {
    for i in 0..m.min(n) {
        let mut column: Vec<T> = (i..m).map(|r| a[r * n + i]).collect();
        let (beta, t) = larfg(&mut column);
        for (r, v) in (i..m).zip(&column) {
            a[r * n + i] = *v;
        }
        tau[i] = t;
        // Apply H(i)^H = I - conj(tau) v v^H to the columns on the right.
        column[0] = T::one();
        larf_left(a, n, i, i + 1..n, &column, t.conj());
        a[i * n + i] = beta;
    }
}

/// LAPACK's larfg on `x = [alpha, x...]`: overwrites the tail with `v`
/// (v[0] = 1 implied) and returns (beta, tau) with
/// `(I - tau v v^H)^H [alpha; x] = [beta; 0]`.
fn larfg<T: Elem>(x: &mut [T]) -> (T, T) {
    let alpha = x[0];
    // dlarfg returns tau = 0 for n <= 1; zlarfg still makes a complex
    // alpha real.
    if x.len() <= 1 && !T::COMPLEX {
        return (alpha, T::zero());
    }
    let xnorm = norm2(&x[1..]);
    let (alphr, alphi) = (alpha.re(), alpha.im());
    if xnorm == T::Real::ZERO && alphi == T::Real::ZERO {
        return (alpha, T::zero());
    }
    // |beta| = ||[alpha; x]||, computed without overflow.
    let norm = alphr.hypot(alphi).hypot(xnorm);
    let beta = -norm.copysign(alphr);
    let tau = T::from_parts((beta - alphr) / beta, -alphi / beta);
    let r = T::one() / (alpha - T::from_real(beta));
    for v in &mut x[1..] {
        *v = *v * r;
    }
    (T::from_real(beta), tau)
}

/// The 2-norm of `x`, scaled against overflow (as ?nrm2).
fn norm2<T: Elem>(x: &[T]) -> T::Real {
    let mut big = T::Real::ZERO;
    for v in x {
        let m = v.re().mag();
        if m > big {
            big = m;
        }
        let m = v.im().mag();
        if m > big {
            big = m;
        }
    }
    if big == T::Real::ZERO || !big.is_finite_real() {
        return big;
    }
    let r = T::Real::ONE / big;
    let mut sum = T::Real::ZERO;
    for v in x {
        sum = sum + v.scale(r).norm_sq();
    }
    big * sum.sqrt()
}

/// LAPACK's larf from the left: rows `row0..` and `cols` of the row-major
/// matrix `c` (`n` columns) become `(I - tau v v^H) C`.
fn larf_left<T: Elem>(c: &mut [T], n: usize, row0: usize, cols: std::ops::Range<usize>, v: &[T], tau: T) {
    if tau == T::zero() {
        return;
    }
    for col in cols {
        // w = v^H C[:, col]
        let mut w = T::zero();
        for (r, vr) in v.iter().enumerate() {
            w = w + vr.conj() * c[(row0 + r) * n + col];
        }
        let tw = tau * w;
        for (r, vr) in v.iter().enumerate() {
            let e = &mut c[(row0 + r) * n + col];
            *e = *e - *vr * tw;
        }
    }
}

fn orgqr<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    operand_count(target, operands, 2)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the reflectors")?;
    let (tau_dims, tau) = operand::<T>(target, operands, 1, "tau")?;
    let (batch, m, n) = matrices(target, "the reflectors", dims)?;
    let k = tau_dims.last().map_or(0, |&d| d.max(0) as usize);
    if tau_dims.is_empty() || tau_dims[..tau_dims.len() - 1] != batch[..] || !(k <= n && n <= m) {
        bail!(
            "{target}: needs reflectors [..., m, n] and tau [..., k] with m >= n >= k, got {dims:?} and {tau_dims:?}"
        );
    }
    check_results(target, inst, &[(T::TYPE, dims.to_vec())])?;
    let mut q = a.to_vec();
    for b in 0..count(&batch) {
        org2r(&mut q[b * m * n..(b + 1) * m * n], m, n, &tau[b * k..(b + 1) * k]);
    }
    Ok(Literal::array(dims.to_vec(), T::wrap(q)))
}

/// LAPACK's org2r/ung2r: the first `n` columns of `H(1) ... H(k)` in place
/// of the reflectors.
fn org2r<T: Elem>(a: &mut [T], m: usize, n: usize, tau: &[T]) {
    let k = tau.len();
    for j in k..n {
        for r in 0..m {
            a[r * n + j] = T::zero();
        }
        a[j * n + j] = T::one();
    }
    for i in (0..k).rev() {
        if i + 1 < n {
            let mut v: Vec<T> = (i..m).map(|r| a[r * n + i]).collect();
            v[0] = T::one();
            larf_left(a, n, i, i + 1..n, &v, tau[i]);
        }
        for r in i + 1..m {
            a[r * n + i] = -(tau[i] * a[r * n + i]);
        }
        a[i * n + i] = T::one() - tau[i];
        for r in 0..i {
            a[r * n + i] = T::zero();
        }
    }
}

// ---------------------------------------------------------------------------
// syevd/heevd and gesdd/gesvd: Jacobi methods in f64/c128

const MAX_SWEEPS: usize = 80;

/// A power of two that brings the largest modulus of `x` near 1 (exact
/// scaling, so squares neither overflow nor underflow).
fn pow2_scale<W: Elem<Real = f64>>(x: &[W]) -> f64 {
    let big = x.iter().fold(0.0f64, |m, v| m.max(v.modulus()));
    if big == 0.0 || !big.is_finite() {
        return 1.0;
    }
    2f64.powi(-(big.log2().floor() as i32).clamp(-1000, 1000))
}

/// The rotation `U = [[c, s], [-s d, c d]]` (rows p, q) that makes the
/// Hermitian 2x2 `[[app, apq], [conj(apq), aqq]]` diagonal as `U^H A U`,
/// or None when `apq` is negligible. The diagonal becomes
/// `app - t |apq|` and `aqq + t |apq|` (the last item is `t |apq|`).
fn jacobi_rotation<W: Elem<Real = f64>>(app: f64, aqq: f64, apq: W, tol: f64) -> Option<(f64, f64, W, f64)> {
    let g = apq.modulus();
    if g == 0.0 || g <= f64::EPSILON * app.abs().sqrt() * aqq.abs().sqrt() || g <= tol {
        return None;
    }
    let theta = (aqq - app) / (2.0 * g);
    let t = 1f64.copysign(theta) / (theta.abs() + 1f64.hypot(theta));
    let c = 1.0 / 1f64.hypot(t);
    // d turns apq real: conj(apq) / |apq|.
    Some((c, t * c, apq.conj().scale(1.0 / g), t * g))
}

/// Columns `p` and `q` of `x` (row-major, `n` columns, `rows` rows)
/// become those of `x U`.
fn rotate_columns<W: Elem<Real = f64>>(
    x: &mut [W],
    rows: usize,
    n: usize,
    p: usize,
    q: usize,
    (c, s, d): (f64, f64, W),
) {
    for r in 0..rows {
        let (xp, xq) = (x[r * n + p], x[r * n + q] * d);
        x[r * n + p] = xp.scale(c) - xq.scale(s);
        x[r * n + q] = xp.scale(s) + xq.scale(c);
    }
}

/// The largest-modulus entry of `col` (the first of equals): its index,
/// modulus, and the unit factor that makes it real and positive.
fn largest_entry<W: Elem<Real = f64>>(col: impl Iterator<Item = W>) -> (usize, f64, W) {
    let mut best = (0, 0.0, W::one());
    for (i, v) in col.enumerate() {
        let m = v.modulus();
        if m > best.1 {
            best = (i, m, v.conj().scale(1.0 / m));
        }
    }
    best
}

fn syevd<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let cfg = config(target, inst)?;
    let vectors = char_option(target, &cfg, "mode", b"VN")? == b'V';
    let lower = char_option(target, &cfg, "uplo", b"LU")? == b'L';
    operand_count(target, operands, 1)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the matrix")?;
    let (batch, n, cols) = matrices(target, "the matrix", dims)?;
    if n != cols {
        bail!("{target}: the matrix must be square, got dims {dims:?}");
    }
    let real = <T::Real as Elem>::TYPE;
    check_results(
        target,
        inst,
        &[(T::TYPE, dims.to_vec()), (real, with(&batch, &[n])), (PrimitiveType::S32, batch.clone())],
    )?;
    let mut v_out = if vectors { Vec::with_capacity(a.len()) } else { a.to_vec() };
    let mut w_out = Vec::with_capacity(count(&batch) * n);
    for b in 0..count(&batch) {
        let m = &a[b * n * n..(b + 1) * n * n];
        // The Hermitian matrix of the uplo triangle (the diagonal's real part).
        let mut h = vec![T::Wide::zero(); n * n];
        for i in 0..n {
            for j in 0..n {
                let (r, c) = if (i >= j) == lower { (i, j) } else { (j, i) };
                let x = m[r * n + c].widen();
                h[i * n + j] = if i == j {
                    T::Wide::from_real(x.re())
                } else if (r, c) == (i, j) {
                    x
                } else {
                    x.conj()
                };
            }
        }
        let (w, v) = jacobi_eigh(h, n);
        w_out.extend(w.into_iter().map(T::Real::from_f64));
        if vectors {
            v_out.extend(v.into_iter().map(T::narrow));
        }
    }
    let info = vec![0; count(&batch)];
    Ok(pack(vec![
        Literal::array(dims.to_vec(), T::wrap(v_out)),
        Literal::array(with(&batch, &[n]), T::Real::wrap(w_out)),
        s32(batch, info),
    ]))
}

/// Eigenvalues (ascending) and eigenvectors (columns of the row-major
/// result) of the Hermitian `h`, by cyclic Jacobi.
fn jacobi_eigh<W: Elem<Real = f64>>(mut h: Vec<W>, n: usize) -> (Vec<f64>, Vec<W>) {
    if h.iter().any(|x| !x.finite()) {
        return (vec![f64::NAN; n], vec![W::from_real(f64::NAN); n * n]);
    }
    let scale = pow2_scale(&h);
    h.iter_mut().for_each(|x| *x = x.scale(scale));
    let frobenius = h.iter().map(|x| x.norm_sq()).sum::<f64>().sqrt();
    let tol = frobenius * f64::EPSILON * f64::EPSILON;
    let mut v = vec![W::zero(); n * n];
    for i in 0..n {
        v[i * n + i] = W::one();
    }
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (app, aqq) = (h[p * n + p].re(), h[q * n + q].re());
                let Some((c, s, d, shift)) = jacobi_rotation(app, aqq, h[p * n + q], tol) else {
                    continue;
                };
                rotated = true;
                let rot = (c, s, d);
                rotate_columns(&mut h, n, n, p, q, rot);
                // Rows: U^H H, the conjugate of the column rotation.
                let dc = d.conj();
                for k in 0..n {
                    let (hp, hq) = (h[p * n + k], h[q * n + k] * dc);
                    h[p * n + k] = hp.scale(c) - hq.scale(s);
                    h[q * n + k] = hp.scale(s) + hq.scale(c);
                }
                h[p * n + q] = W::zero();
                h[q * n + p] = W::zero();
                // The closed form is more accurate than the rotated entries.
                h[p * n + p] = W::from_real(app - shift);
                h[q * n + q] = W::from_real(aqq + shift);
                rotate_columns(&mut v, n, n, p, q, rot);
            }
        }
        if !rotated {
            break;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| h[i * n + i].re().total_cmp(&h[j * n + j].re()));
    let w = order.iter().map(|&i| h[i * n + i].re() / scale).collect();
    let mut vectors = vec![W::zero(); n * n];
    for (j, &src) in order.iter().enumerate() {
        let (at, modulus, phase) = largest_entry((0..n).map(|r| v[r * n + src]));
        for r in 0..n {
            vectors[r * n + j] = v[r * n + src] * phase;
        }
        // Exactly real, not real up to rounding.
        if n > 0 {
            vectors[at * n + j] = W::from_real(modulus);
        }
    }
    (w, vectors)
}

fn gesdd<T: Elem>(target: &str, inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let mode = char_option(target, &config(target, inst)?, "mode", b"ASN")?;
    operand_count(target, operands, 1)?;
    let (dims, a) = operand::<T>(target, operands, 0, "the matrix")?;
    let (batch, m, n) = matrices(target, "the matrix", dims)?;
    let k = m.min(n);
    let (u_dims, vt_dims) = match mode {
        b'A' => (with(&batch, &[m, m]), with(&batch, &[n, n])),
        b'S' => (with(&batch, &[m, k]), with(&batch, &[k, n])),
        _ => {
            // 'N': zeros of the shapes the result declares (JAX: [m, m] and
            // [n, n]), batched as the matrix.
            let got = declared(inst)?;
            let matrix = |i: usize| {
                got.get(i)
                    .map(|(_, d)| d.clone())
                    .filter(|d| d.len() == batch.len() + 2 && d[..batch.len()] == batch[..])
            };
            (matrix(2).unwrap_or_else(|| with(&batch, &[m, m])), matrix(3).unwrap_or_else(|| with(&batch, &[n, n])))
        }
    };
    let (u_cols, vt_rows) = (u_dims[u_dims.len() - 1].max(0) as usize, vt_dims[vt_dims.len() - 2].max(0) as usize);
    let (u_size, vt_size) = (count(&u_dims[batch.len()..]), count(&vt_dims[batch.len()..]));
    let real = <T::Real as Elem>::TYPE;
    check_results(
        target,
        inst,
        &[
            (T::TYPE, dims.to_vec()),
            (real, with(&batch, &[k])),
            (T::TYPE, u_dims.clone()),
            (T::TYPE, vt_dims.clone()),
            (PrimitiveType::S32, batch.clone()),
        ],
    )?;
    let batches = count(&batch);
    let (mut s_out, mut u_out, mut vt_out) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..batches {
        let mat = &a[b * m * n..(b + 1) * m * n];
        let wide: Vec<T::Wide> = mat.iter().map(|x| x.widen()).collect();
        let vectors = mode != b'N';
        let svd = jacobi_svd(&wide, m, n, if vectors { u_cols } else { 0 }, if vectors { vt_rows } else { 0 });
        s_out.extend(svd.s.into_iter().map(T::Real::from_f64));
        if vectors {
            for r in 0..m {
                u_out.extend(svd.u.iter().map(|col| T::narrow(col[r])));
            }
            for col in &svd.v {
                vt_out.extend(col.iter().map(|x| T::narrow(x.conj())));
            }
        } else {
            u_out.extend(std::iter::repeat_n(T::zero(), u_size));
            vt_out.extend(std::iter::repeat_n(T::zero(), vt_size));
        }
    }
    Ok(pack(vec![
        Literal::array(dims.to_vec(), T::wrap(a.to_vec())),
        Literal::array(with(&batch, &[k]), T::Real::wrap(s_out)),
        Literal::array(u_dims, T::wrap(u_out)),
        Literal::array(vt_dims, T::wrap(vt_out)),
        s32(batch, vec![0; batches]),
    ]))
}

struct Svd<W> {
    /// Descending.
    s: Vec<f64>,
    /// Left singular vectors as columns (length m each).
    u: Vec<Vec<W>>,
    /// Right singular vectors as columns (length n each).
    v: Vec<Vec<W>>,
}

/// The SVD of the row-major `m x n` matrix `a` with `u_cols` left and
/// `v_cols` right singular vectors, by one-sided Jacobi on the tall one of
/// `a` and `a^H`.
fn jacobi_svd<W: Elem<Real = f64>>(a: &[W], m: usize, n: usize, u_cols: usize, v_cols: usize) -> Svd<W> {
    let k = m.min(n);
    if a.iter().any(|x| !x.finite()) {
        let nan = W::from_real(f64::NAN);
        return Svd { s: vec![f64::NAN; k], u: vec![vec![nan; m]; u_cols], v: vec![vec![nan; n]; v_cols] };
    }
    // Columns of the tall matrix: those of a (m >= n) or of a^H.
    let (rows, cols) = (m.max(n), k);
    let mut work: Vec<Vec<W>> = if m >= n {
        (0..n).map(|j| (0..m).map(|i| a[i * n + j]).collect()).collect()
    } else {
        (0..m).map(|i| (0..n).map(|j| a[i * n + j].conj()).collect()).collect()
    };
    let scale = pow2_scale(a);
    work.iter_mut().flatten().for_each(|x| *x = x.scale(scale));
    let mut right: Vec<Vec<W>> =
        (0..cols).map(|j| (0..cols).map(|i| if i == j { W::one() } else { W::zero() }).collect()).collect();
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..cols {
            for q in p + 1..cols {
                let alpha: f64 = work[p].iter().map(|x| x.norm_sq()).sum();
                let beta: f64 = work[q].iter().map(|x| x.norm_sq()).sum();
                let gamma = work[p].iter().zip(&work[q]).fold(W::zero(), |acc, (x, y)| acc + x.conj() * *y);
                let Some((c, s, d, _)) = jacobi_rotation(alpha, beta, gamma, 0.0) else { continue };
                rotated = true;
                for x in [&mut work, &mut right] {
                    let (lo, hi) = x.split_at_mut(q);
                    for (xp, xq) in lo[p].iter_mut().zip(hi[0].iter_mut()) {
                        let (vp, vq) = (*xp, *xq * d);
                        *xp = vp.scale(c) - vq.scale(s);
                        *xq = vp.scale(s) + vq.scale(c);
                    }
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = work.iter().map(|c| c.iter().map(|x| x.norm_sq()).sum::<f64>().sqrt()).collect();
    let mut order: Vec<usize> = (0..cols).collect();
    order.sort_by(|&i, &j| norms[j].total_cmp(&norms[i]));
    let s = order.iter().map(|&j| norms[j] / scale).collect();
    // Normalized columns of the tall side; those of zero norm are completed.
    let mut tall: Vec<Vec<W>> = Vec::new();
    let mut short: Vec<Vec<W>> = Vec::new();
    for &j in &order {
        if norms[j] > 0.0 {
            tall.push(work[j].iter().map(|x| x.scale(1.0 / norms[j])).collect());
        }
        short.push(right[j].clone());
    }
    let (tall_want, short_want) = if m >= n { (u_cols, v_cols) } else { (v_cols, u_cols) };
    complete(&mut tall, rows, tall_want);
    tall.truncate(tall_want);
    complete(&mut short, cols, short_want);
    short.truncate(short_want);
    let (mut u, mut v) = if m >= n { (tall, short) } else { (short, tall) };
    // A common unit factor per singular pair keeps a v = s u.
    for j in 0..k.min(u.len()).min(v.len()) {
        let (at, modulus, phase) = largest_entry(u[j].iter().copied());
        u[j].iter_mut().for_each(|x| *x = *x * phase);
        v[j].iter_mut().for_each(|x| *x = *x * phase);
        if let Some(x) = u[j].get_mut(at) {
            *x = W::from_real(modulus);
        }
    }
    Svd { s, u, v }
}

/// Extends the orthonormal columns `cols` (length `len`) to `want` columns:
/// each new one is the unit vector with the largest residual (the first
/// above 1/2) orthogonalized (twice) against the others.
fn complete<W: Elem<Real = f64>>(cols: &mut Vec<Vec<W>>, len: usize, want: usize) {
    while cols.len() < want.min(len) {
        let mut best: Option<(f64, Vec<W>)> = None;
        for i in 0..len {
            let mut x = vec![W::zero(); len];
            x[i] = W::one();
            for _ in 0..2 {
                for c in cols.iter() {
                    let proj = c.iter().zip(&x).fold(W::zero(), |acc, (ci, xi)| acc + ci.conj() * *xi);
                    x.iter_mut().zip(c).for_each(|(xi, ci)| *xi = *xi - proj * *ci);
                }
            }
            let norm = x.iter().map(|v| v.norm_sq()).sum::<f64>().sqrt();
            if best.as_ref().is_none_or(|(b, _)| norm > *b) {
                let good = norm > 0.5;
                best = Some((norm, x));
                if good {
                    break;
                }
            }
        }
        let Some((norm, x)) = best else { break };
        cols.push(x.into_iter().map(|v| v.scale(1.0 / norm)).collect());
    }
}
