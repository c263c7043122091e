//! Linear algebra: `dot`, `ragged-dot`, `scaled-dot`, `convolution`, `fft`, `cholesky`,
//! `triangular-solve` and the three `batch-norm-*` ops.
//!
//! Edge-case decisions (XLA's HloEvaluator and XLA:CPU are the reference):
//!
//! - **Element types.** As HloEvaluator does, operands whose element type
//!   differs from the result's are first converted to the result type
//!   (`f32 x f32 -> f16` rounds the operands to f16 first; `s8 x s8 -> s32`
//!   and `bf16 x bf16 -> f32` widen exactly), then the products are
//!   accumulated in the *compute type* of the result:
//!   f32 for f32, f16, bf16 and the f8/f6/f4 formats (rounded once at the
//!   end, round to nearest even); f64 for f64; c64/c128 for complex; and a
//!   64-bit wrapping integer for every integer type, truncated to the result
//!   width at the end (identical to wrapping arithmetic in the result type).
//!   A `pred` result is the OR of ANDs.
//! - **Accumulation order** of dot and convolution is ascending over the
//!   contracted index (row-major over several contracting dimensions); no
//!   fused multiply-add. Results may differ from XLA:CPU (which reorders
//!   freely) in the last bits; the oracle tolerances allow for that.
//!   A contraction over zero elements gives 0. NaN and infinities propagate
//!   as IEEE arithmetic says (0 * inf = NaN).
//!   Subnormals are not flushed (XLA:CPU runs with FTZ/DAZ, so dots and
//!   convolutions over subnormal f32 values may differ from it).
//! - **dot** needs no BLAS: operands are packed to `[batch, m, k]` and
//!   `[batch, k, n]`; blocks of 256 rows of the right operand are packed into
//!   16-wide column panels and the result is accumulated in 4x16 register
//!   tiles, split over the available cores for large products. The same
//!   code is compiled for AVX2 and used when the CPU has it. Every element
//!   is still the plain ascending-k sum, so results do not depend on the
//!   blocking, the thread count or the CPU.
//! - **ragged-dot** and **scaled-dot** are evaluated by a plain nested loop
//!   in f64 (ascending contracted index) and rounded once to the result
//!   type (integers exact up to 2^53). ragged-dot takes rank-1
//!   `group_sizes` (G groups; group g covers `[sum(sizes[..g]), +sizes[g])`
//!   of the lhs ragged dimension) in the three modes of chlo.ragged_dot:
//!   ragged non-contracting dim (rhs has a group dim; row r uses
//!   `rhs[group(r)]`, rows past the last group are 0), ragged contracting
//!   dim (result gets a leading G dim; group g contracts only its range),
//!   ragged batch dim (a dot where batch rows past the last group are 0).
//!   scaled-dot multiplies each operand element by its block's scale
//!   (scale dim i covers `operand_dim_i / scale_dim_i` elements) and dots.
//! - **convolution** follows HloEvaluator's index arithmetic: output
//!   position `o`, kernel tap `k` read input `o*stride - pad_low +
//!   k*rhs_dilate`, which must be a multiple of `lhs_dilate` (else the tap
//!   reads a zero hole) and, divided by it, inside the input (else padding,
//!   zero). Negative padding crops. `rhs_reversal` reads the kernel tap
//!   `size-1-k`. With `feature_group_count = G` output feature `o` belongs
//!   to group `o / (O/G)` and reads input features `g*C/G ..`; with
//!   `batch_group_count = G` it reads input batch `g*(N/G) + b`.
//!   It is evaluated as im2col + the dot kernel, in row chunks.
//! - **fft** is computed in f64 (c128) whatever the type and rounded at the
//!   end: radix-2 for power-of-two lengths, a direct DFT for other lengths up
//!   to 256, Bluestein's algorithm above. IFFT and IRFFT scale by `1/n` per
//!   transformed axis. RFFT keeps `n/2+1` outputs of the innermost axis.
//!   IRFFT reads the first `n/2+1` entries of the innermost axis, completes
//!   the rest by Hermitian symmetry and returns the real part, so the
//!   imaginary parts of the DC and (even `n`) Nyquist terms are ignored, as
//!   pocketfft/ducc (XLA:CPU) do. Multi-axis RFFT transforms the innermost
//!   axis first; IRFFT transforms it last.
//! - **cholesky** reads only the `lower` (or upper) triangle, computes in
//!   f64 (complex: c128) and returns zeros in the other triangle (XLA's
//!   CholeskyExpander starts from zeros). Exactly as the expander, when the
//!   square root of any pivot is NaN (the matrix is not positive definite)
//!   the whole matrix of that batch element is NaN. A zero pivot is not an
//!   error: it divides by zero (inf/NaN entries). `lower` defaults to false.
//! - **triangular-solve** reads only the `lower`/upper triangle of `a`
//!   (`unit_diagonal` replaces the diagonal by 1 without reading it), applies
//!   `transpose_a` (NO_TRANSPOSE, TRANSPOSE, ADJOINT = conjugate transpose)
//!   and solves by forward/back substitution in f64 (c128). A zero diagonal
//!   divides by zero (inf/NaN; the exact pattern is implementation-defined
//!   and differs from XLA:CPU's blocked expander, which gives NaN where
//!   this gives inf). Defaults: left_side=false, lower=false,
//!   unit_diagonal=false, transpose_a=NO_TRANSPOSE.
//! - **batch-norm-*** follow the operation-semantics formulas, computed in
//!   f64 and rounded: the variance is the biased mean of squared deviations
//!   (two passes); `batch-norm-grad` uses the `batch_mean`/`batch_var`
//!   operands as given.
//!
//! The numeric conversion helpers at the end (`to_f64s`, `literal_from_f64s`,
//! ...) are shared with the other modules of this family (`control`, `rng`,
//! `lapack`).

use crate::{
    bail,
    error::{EvalError, Result},
    eval::{attr, attr_error, require, Interpreter},
    literal::{narrow_float_bits, static_dims, strides, Data, ElementType, Literal},
};
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rxla_hlo_text::{
    ast::{Instruction, PrimitiveType, Shape},
    attrs,
    floats::float_format,
};

pub fn evaluate(_: &Interpreter, inst: &Instruction, operands: &[&Literal]) -> Option<Result<Literal>> {
    let f: fn(&Instruction, &[&Literal]) -> Result<Literal> = match inst.opcode.as_str() {
        "dot" => dot,
        "ragged-dot" => ragged_dot,
        "scaled-dot" => scaled_dot,
        "convolution" => convolution,
        "fft" => fft,
        "cholesky" => cholesky,
        "triangular-solve" => triangular_solve,
        "batch-norm-training" => batch_norm_training,
        "batch-norm-inference" => batch_norm_inference,
        "batch-norm-grad" => batch_norm_grad,
        _ => return None,
    };
    Some(f(inst, operands))
}

// ---------------------------------------------------------------------------
// Small helpers

/// The element type and dims of an array shape.
pub(crate) fn array_shape(shape: &Shape) -> Result<(ElementType, Vec<i64>)> {
    match shape {
        Shape::Array { element, dims, .. } => Ok((*element, static_dims(dims))),
        _ => bail!("expected an array shape"),
    }
}

/// The declared result element type and dims of `inst`.
fn result_shape(inst: &Instruction) -> Result<(ElementType, Vec<i64>)> {
    array_shape(&inst.shape)
}

/// Dims and data of an array literal.
pub(crate) fn array(lit: &Literal) -> Result<(&[i64], &Data)> {
    match lit {
        Literal::Array { dims, data } => Ok((dims, data)),
        Literal::Tuple(_) => bail!("expected an array operand, got a tuple"),
        Literal::Token => bail!("expected an array operand, got a token"),
    }
}

fn operand<'a>(operands: &[&'a Literal], i: usize) -> Result<(&'a [i64], &'a Data)> {
    match operands.get(i) {
        Some(l) => array(l),
        None => bail!("expected at least {} operands, got {}", i + 1, operands.len()),
    }
}

/// An optional `{...}` dims attribute (absent: empty).
fn dims_attr(inst: &Instruction, name: &str) -> Result<Vec<i64>> {
    match attr(inst, name) {
        Some(v) => attrs::dims(v).map_err(attr_error),
        None => Ok(Vec::new()),
    }
}

fn int_attr(inst: &Instruction, name: &str, default: i64) -> Result<i64> {
    match attr(inst, name) {
        Some(v) => attrs::integer(v).map_err(attr_error),
        None => Ok(default),
    }
}

fn bool_attr(inst: &Instruction, name: &str, default: bool) -> Result<bool> {
    match attr(inst, name) {
        Some(v) => attrs::boolean(v).map_err(attr_error),
        None => Ok(default),
    }
}

fn float_attr(inst: &Instruction, name: &str, default: f64) -> Result<f64> {
    match attr(inst, name) {
        Some(v) => attrs::float(v).map_err(attr_error),
        None => Ok(default),
    }
}

fn product(dims: &[i64]) -> usize {
    dims.iter().map(|&d| d.max(0) as usize).product()
}

/// Copies row-major `src` of `dims` into the row-major layout of the
/// permuted dims (output dim `i` is source dim `perm[i]`).
pub(crate) fn permute<T: Copy>(src: &[T], dims: &[i64], perm: &[usize]) -> Vec<T> {
    let rank = dims.len();
    if rank == 0 || src.is_empty() || perm.iter().enumerate().all(|(i, &p)| i == p) {
        return src.to_vec();
    }
    let s = strides(dims);
    let out_dims: Vec<usize> = perm.iter().map(|&p| dims[p].max(0) as usize).collect();
    let src_strides: Vec<usize> = perm.iter().map(|&p| s[p] as usize).collect();
    let mut out = Vec::with_capacity(src.len());
    let inner = out_dims[rank - 1];
    let inner_stride = src_strides[rank - 1];
    let mut idx = vec![0usize; rank];
    let mut base = 0usize;
    loop {
        out.extend((0..inner).map(|j| src[base + j * inner_stride]));
        let mut d = rank - 1;
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            idx[d] += 1;
            base += src_strides[d];
            if idx[d] < out_dims[d] {
                break;
            }
            base -= src_strides[d] * out_dims[d];
            idx[d] = 0;
        }
    }
}

/// How a result type computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    F32,
    F64,
    C64,
    C128,
    Int,
}

fn kind_of(t: ElementType) -> Result<Kind> {
    use PrimitiveType::*;
    Ok(match t {
        F64 => Kind::F64,
        C64 => Kind::C64,
        C128 => Kind::C128,
        Pred | S1 | S2 | S4 | S8 | S16 | S32 | S64 | U1 | U2 | U4 | U8 | U16 | U32 | U64 => Kind::Int,
        Token | Opaque => bail!("{} is not a numeric type", t.name()),
        _ => Kind::F32,
    })
}

/// Scalars the dot kernel multiplies and accumulates.
pub(crate) trait Scalar: Copy + Send + Sync + 'static {
    const ZERO: Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
}

impl Scalar for f32 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Scalar for f64 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Scalar for Complex32 {
    const ZERO: Self = Complex32::new(0.0, 0.0);
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Scalar for Complex64 {
    const ZERO: Self = Complex64::new(0.0, 0.0);
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Scalar for i64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
}

// ---------------------------------------------------------------------------
// Matrix multiplication kernel

/// `c[b] = a[b] x bm[b]` for `batch` row-major `[m, k] x [k, n]` products.
///
/// Every element is `sum_k a[i,k] * b[k,j]` accumulated in ascending `k`
/// without fused multiply-add, whatever the blocking, threading or CPU
/// features, so results are deterministic.
pub(crate) fn matmul<T: Scalar>(a: &[T], bm: &[T], batch: usize, m: usize, k: usize, n: usize) -> Vec<T> {
    let mut c = vec![T::ZERO; batch * m * n];
    if c.is_empty() || k == 0 {
        return c;
    }
    let rows = batch * m;
    let work = rows.saturating_mul(k).saturating_mul(n);
    let threads = if work >= 1 << 21 {
        std::thread::available_parallelism().map(|p| p.get()).unwrap_or(1).min(rows.div_ceil(MR)).min(16)
    } else {
        1
    };
    if threads <= 1 {
        kernel_rows_dispatch(a, bm, &mut c, 0, rows, m, k, n);
    } else {
        // Chunks of whole MR-row tiles.
        let per = rows.div_ceil(threads).div_ceil(MR) * MR;
        std::thread::scope(|s| {
            for (t, chunk) in c.chunks_mut(per * n).enumerate() {
                let nrows = chunk.len() / n;
                s.spawn(move || kernel_rows_dispatch(a, bm, chunk, t * per, nrows, m, k, n));
            }
        });
    }
    c
}

/// Rows per register tile and columns per packed panel of the kernel.
const MR: usize = 4;
const NR: usize = 16;
/// Depth of a packed block of `b`.
const KC: usize = 256;

/// Runs [`kernel_rows`] compiled for AVX2 when the CPU has it (same
/// arithmetic, wider vectors).
#[allow(clippy::too_many_arguments)]
fn kernel_rows_dispatch<T: Scalar>(
    a: &[T],
    bm: &[T],
    c: &mut [T],
    row0: usize,
    nrows: usize,
    m: usize,
    k: usize,
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { kernel_rows_avx2(a, bm, c, row0, nrows, m, k, n) };
            return;
        }
    }
    kernel_rows(a, bm, c, row0, nrows, m, k, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn kernel_rows_avx2<T: Scalar>(
    a: &[T],
    bm: &[T],
    c: &mut [T],
    row0: usize,
    nrows: usize,
    m: usize,
    k: usize,
    n: usize,
) {
    kernel_rows(a, bm, c, row0, nrows, m, k, n)
}

/// Rows `row0..row0+nrows` of the stacked `[batch*m, n]` result into `c`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn kernel_rows<T: Scalar>(a: &[T], bm: &[T], c: &mut [T], row0: usize, nrows: usize, m: usize, k: usize, n: usize) {
    let end = row0 + nrows;
    let mut r = row0;
    let panels = n.div_ceil(NR);
    let mut packed = vec![T::ZERO; panels * KC.min(k) * NR];
    while r < end {
        let bi = r / m;
        let seg_end = end.min((bi + 1) * m);
        block_kernel(
            &a[r * k..seg_end * k],
            &bm[bi * k * n..(bi + 1) * k * n],
            &mut c[(r - row0) * n..(seg_end - row0) * n],
            seg_end - r,
            k,
            n,
            &mut packed,
        );
        r = seg_end;
    }
}

/// `c += a x b` for row-major `[rows, k] x [k, n]`: `b` is packed in
/// blocks of `KC` rows into `NR`-wide column panels, and each `MR x NR`
/// tile of `c` is accumulated in registers over the block.
#[inline(always)]
fn block_kernel<T: Scalar>(a: &[T], b: &[T], c: &mut [T], rows: usize, k: usize, n: usize, packed: &mut [T]) {
    let panels = n.div_ceil(NR);
    for k0 in (0..k).step_by(KC) {
        let kc = KC.min(k - k0);
        // Pack b[k0..k0+kc, :] as panels[p][kk][0..NR] (zero padded).
        for p in 0..panels {
            let j0 = p * NR;
            let w = NR.min(n - j0);
            for kk in 0..kc {
                let dst = &mut packed[(p * kc + kk) * NR..(p * kc + kk + 1) * NR];
                let src = &b[(k0 + kk) * n + j0..(k0 + kk) * n + j0 + w];
                dst[..w].copy_from_slice(src);
                dst[w..].iter_mut().for_each(|v| *v = T::ZERO);
            }
        }
        let mut i = 0;
        while i + MR <= rows {
            for p in 0..panels {
                tile::<T, MR>(a, c, packed, i, p, k0, kc, k, n);
            }
            i += MR;
        }
        while i < rows {
            for p in 0..panels {
                tile::<T, 1>(a, c, packed, i, p, k0, kc, k, n);
            }
            i += 1;
        }
    }
}

/// One `R x NR` tile of `c` (rows `i..i+R`, panel `p`) over one k block.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn tile<T: Scalar, const R: usize>(
    a: &[T],
    c: &mut [T],
    packed: &[T],
    i: usize,
    p: usize,
    k0: usize,
    kc: usize,
    k: usize,
    n: usize,
) {
    let j0 = p * NR;
    let w = NR.min(n - j0);
    let mut acc = [[T::ZERO; NR]; R];
    for r in 0..R {
        acc[r][..w].copy_from_slice(&c[(i + r) * n + j0..(i + r) * n + j0 + w]);
    }
    let panel = &packed[p * kc * NR..(p + 1) * kc * NR];
    let arows: [&[T]; R] = std::array::from_fn(|r| &a[(i + r) * k + k0..(i + r) * k + k0 + kc]);
    for kk in 0..kc {
        let bv: &[T; NR] = panel[kk * NR..(kk + 1) * NR].try_into().expect("panel width");
        for r in 0..R {
            let av = arows[r][kk];
            for j in 0..NR {
                acc[r][j] = acc[r][j].mul_add(av, bv[j]);
            }
        }
    }
    for r in 0..R {
        c[(i + r) * n + j0..(i + r) * n + j0 + w].copy_from_slice(&acc[r][..w]);
    }
}

// ---------------------------------------------------------------------------
// dot

fn dot(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (lhs_dims, lhs) = operand(operands, 0)?;
    let (rhs_dims, rhs) = operand(operands, 1)?;
    let (t, out_dims) = result_shape(inst)?;
    let lc = dims_attr(inst, "lhs_contracting_dims")?;
    let rc = dims_attr(inst, "rhs_contracting_dims")?;
    let lb = dims_attr(inst, "lhs_batch_dims")?;
    let rb = dims_attr(inst, "rhs_batch_dims")?;
    if lc.len() != rc.len() || lb.len() != rb.len() {
        bail!(
            "dot has {} lhs and {} rhs contracting dims, {} and {} batch dims",
            lc.len(),
            rc.len(),
            lb.len(),
            rb.len()
        );
    }
    let check = |dims: &[i64], list: &[i64], side: &str| -> Result<()> {
        for &d in list {
            if d < 0 || d as usize >= dims.len() {
                bail!("{side} dimension {d} is out of range for rank {}", dims.len());
            }
        }
        Ok(())
    };
    check(lhs_dims, &lc, "lhs")?;
    check(lhs_dims, &lb, "lhs")?;
    check(rhs_dims, &rc, "rhs")?;
    check(rhs_dims, &rb, "rhs")?;
    for (&l, &r) in lc.iter().zip(&rc).chain(lb.iter().zip(&rb)) {
        if lhs_dims[l as usize] != rhs_dims[r as usize] {
            bail!(
                "lhs dimension {l} (size {}) does not match rhs dimension {r} (size {})",
                lhs_dims[l as usize],
                rhs_dims[r as usize]
            );
        }
    }
    let free = |rank: usize, c: &[i64], b: &[i64]| -> Vec<usize> {
        (0..rank).filter(|d| !c.contains(&(*d as i64)) && !b.contains(&(*d as i64))).collect()
    };
    let lfree = free(lhs_dims.len(), &lc, &lb);
    let rfree = free(rhs_dims.len(), &rc, &rb);
    let size = |dims: &[i64], list: &mut dyn Iterator<Item = usize>| -> usize {
        list.map(|d| dims[d].max(0) as usize).product()
    };
    let batch = size(lhs_dims, &mut lb.iter().map(|&d| d as usize));
    let m = size(lhs_dims, &mut lfree.iter().copied());
    let k = size(lhs_dims, &mut lc.iter().map(|&d| d as usize));
    let n = size(rhs_dims, &mut rfree.iter().copied());
    let mut expected: Vec<i64> = lb.iter().map(|&d| lhs_dims[d as usize]).collect();
    expected.extend(lfree.iter().map(|&d| lhs_dims[d]));
    expected.extend(rfree.iter().map(|&d| rhs_dims[d]));
    if expected != out_dims {
        bail!("dot result dims {out_dims:?} do not match the operands (expected {expected:?})");
    }
    let lperm: Vec<usize> =
        lb.iter().map(|&d| d as usize).chain(lfree.iter().copied()).chain(lc.iter().map(|&d| d as usize)).collect();
    let rperm: Vec<usize> =
        rb.iter().map(|&d| d as usize).chain(rc.iter().map(|&d| d as usize)).chain(rfree.iter().copied()).collect();
    macro_rules! run {
        ($to:ident, $from:ident) => {{
            let a = permute(&$to(lhs, t)?, lhs_dims, &lperm);
            let b = permute(&$to(rhs, t)?, rhs_dims, &rperm);
            $from(t, out_dims, matmul(&a, &b, batch, m, k, n))
        }};
    }
    match kind_of(t)? {
        Kind::F32 => run!(operand_f32s, literal_from_f32s),
        Kind::F64 => run!(operand_f64s, literal_from_f64s),
        Kind::C64 => run!(operand_c32s, literal_from_c32s),
        Kind::C128 => run!(operand_c64s, literal_from_c64s),
        Kind::Int => run!(operand_i64s, literal_from_i64s),
    }
}

// ---------------------------------------------------------------------------
// convolution

struct ConvGeometry {
    /// Per spatial dimension: output size, kernel size, input size.
    out: Vec<usize>,
    kernel: Vec<usize>,
    /// Per spatial dimension, for output position `o` and tap `k`:
    /// `taps[s][o * kernel[s] + k]` is the input index or -1.
    taps: Vec<Vec<i64>>,
}

fn convolution(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (lhs_dims, lhs) = operand(operands, 0)?;
    let (rhs_dims, rhs) = operand(operands, 1)?;
    let (t, out_dims) = result_shape(inst)?;
    let dn = attrs::conv_dim_labels(require(inst, "dim_labels")?).map_err(attr_error)?;
    let fgc = int_attr(inst, "feature_group_count", 1)?;
    let bgc = int_attr(inst, "batch_group_count", 1)?;
    let spatial = dn.input_spatial.len();
    let rank = spatial + 2;
    if lhs_dims.len() != rank || rhs_dims.len() != rank || out_dims.len() != rank {
        bail!("convolution with {spatial} spatial dimensions needs rank-{rank} operands and result");
    }
    let window = match attr(inst, "window") {
        Some(v) => attrs::window(v).map_err(attr_error)?,
        None => dn
            .kernel_spatial
            .iter()
            .map(|&d| attrs::WindowDim {
                size: rhs_dims[d as usize],
                stride: 1,
                padding_low: 0,
                padding_high: 0,
                lhs_dilate: 1,
                rhs_dilate: 1,
                rhs_reversal: false,
            })
            .collect(),
    };
    if window.len() != spatial {
        bail!("window has {} dimensions but the convolution has {spatial} spatial dimensions", window.len());
    }
    if fgc < 1 || bgc < 1 {
        bail!("feature_group_count and batch_group_count must be positive");
    }
    let d = |dims: &[i64], i: i64| dims[i as usize].max(0) as usize;
    let (n_in, c_in) = (d(lhs_dims, dn.input_batch), d(lhs_dims, dn.input_feature));
    let (o_k, ci_k) = (d(rhs_dims, dn.kernel_output_feature), d(rhs_dims, dn.kernel_input_feature));
    let (n_out, o_out) = (d(&out_dims, dn.output_batch), d(&out_dims, dn.output_feature));
    let (fgc, bgc) = (fgc as usize, bgc as usize);
    let groups = fgc * bgc;
    if c_in != ci_k * fgc || o_k % groups != 0 || n_in % bgc != 0 || n_out != n_in / bgc || o_out != o_k {
        bail!(
            "convolution shapes do not agree: input batch {n_in}, features {c_in}; kernel input features {ci_k}, output features {o_k}; result batch {n_out}, features {o_out}; feature_group_count {fgc}, batch_group_count {bgc}"
        );
    }
    let mut geo = ConvGeometry { out: Vec::new(), kernel: Vec::new(), taps: Vec::new() };
    for (s, w) in window.iter().enumerate() {
        let (os, ks, is) =
            (d(&out_dims, dn.output_spatial[s]), d(rhs_dims, dn.kernel_spatial[s]), d(lhs_dims, dn.input_spatial[s]));
        if w.size != ks as i64 {
            bail!("window size {} does not match kernel spatial size {ks}", w.size);
        }
        if w.lhs_dilate < 1 || w.rhs_dilate < 1 || w.stride < 1 {
            bail!("window strides and dilations must be positive");
        }
        let mut taps = vec![-1i64; os * ks];
        for o in 0..os {
            for k in 0..ks {
                let undilated = o as i64 * w.stride - w.padding_low + k as i64 * w.rhs_dilate;
                if undilated < 0 || undilated % w.lhs_dilate != 0 {
                    continue;
                }
                let i = undilated / w.lhs_dilate;
                if i < is as i64 {
                    taps[o * ks + k] = i;
                }
            }
        }
        geo.out.push(os);
        geo.kernel.push(ks);
        geo.taps.push(taps);
    }
    let p = ConvParams {
        lhs_dims,
        rhs_dims,
        out_dims: &out_dims,
        dn: &dn,
        reversal: window.iter().map(|w| w.rhs_reversal).collect(),
        geo,
        fgc,
        bgc,
        n_out,
        ci: ci_k,
        og: o_k / groups,
    };
    macro_rules! run {
        ($to:ident, $from:ident) => {{
            let a = $to(lhs, t)?;
            let b = $to(rhs, t)?;
            $from(t, out_dims.clone(), conv_core(&a, &b, &p))
        }};
    }
    match kind_of(t)? {
        Kind::F32 => run!(operand_f32s, literal_from_f32s),
        Kind::F64 => run!(operand_f64s, literal_from_f64s),
        Kind::C64 => run!(operand_c32s, literal_from_c32s),
        Kind::C128 => run!(operand_c64s, literal_from_c64s),
        Kind::Int => run!(operand_i64s, literal_from_i64s),
    }
}

struct ConvParams<'a> {
    lhs_dims: &'a [i64],
    rhs_dims: &'a [i64],
    out_dims: &'a [i64],
    dn: &'a attrs::ConvDimensionNumbers,
    reversal: Vec<bool>,
    geo: ConvGeometry,
    fgc: usize,
    bgc: usize,
    n_out: usize,
    /// Input features per group (the kernel's input feature size).
    ci: usize,
    /// Output features per group.
    og: usize,
}

/// Odometer step over `dims`; false after the last index.
fn bump(index: &mut [usize], dims: &[usize]) -> bool {
    for d in (0..index.len()).rev() {
        index[d] += 1;
        if index[d] < dims[d] {
            return true;
        }
        index[d] = 0;
    }
    false
}

fn conv_core<T: Scalar>(lhs: &[T], rhs: &[T], p: &ConvParams) -> Vec<T> {
    let total = product(p.out_dims);
    let mut out = vec![T::ZERO; total];
    if total == 0 {
        return out;
    }
    let ls: Vec<usize> = strides(p.lhs_dims).iter().map(|&s| s as usize).collect();
    let rs: Vec<usize> = strides(p.rhs_dims).iter().map(|&s| s as usize).collect();
    let os: Vec<usize> = strides(p.out_dims).iter().map(|&s| s as usize).collect();
    let dn = p.dn;
    let spatial = p.geo.out.len();
    let ks_total: usize = p.geo.kernel.iter().product();
    let out_spatial_total: usize = p.geo.out.iter().product();
    let cols = ks_total * p.ci;
    let groups = p.fgc * p.bgc;
    // Kernel positions (row-major over the kernel's spatial dims).
    let mut kpos: Vec<Vec<usize>> = Vec::with_capacity(ks_total);
    if ks_total > 0 {
        let mut idx = vec![0usize; spatial];
        loop {
            kpos.push(idx.clone());
            if !bump(&mut idx, &p.geo.kernel) {
                break;
            }
        }
    }
    let rows_total = p.n_out * out_spatial_total;
    // Bound both the patch matrix and the chunk result to ~4M elements.
    let chunk_rows = ((1usize << 22) / cols.max(p.og).max(1)).clamp(1, rows_total.max(1));
    let in_batch_stride = ls[dn.input_batch as usize];
    let in_feature_stride = ls[dn.input_feature as usize];
    for g in 0..groups {
        let feature_offset = if p.fgc > 1 { g * p.ci } else { 0 };
        let batch_offset = if p.bgc > 1 { g * p.n_out } else { 0 };
        // Kernel matrix [cols, og]: row (kp, ci), column oo.
        let mut w = vec![T::ZERO; cols * p.og];
        for (kpi, kp) in kpos.iter().enumerate() {
            let mut base = 0usize;
            for s in 0..spatial {
                let k = if p.reversal[s] { p.geo.kernel[s] - 1 - kp[s] } else { kp[s] };
                base += k * rs[dn.kernel_spatial[s] as usize];
            }
            for ci in 0..p.ci {
                for oo in 0..p.og {
                    let o = g * p.og + oo;
                    w[(kpi * p.ci + ci) * p.og + oo] = rhs
                        [base + ci * rs[dn.kernel_input_feature as usize] + o * rs[dn.kernel_output_feature as usize]];
                }
            }
        }
        // Rows: (batch, output position), in chunks.
        let mut row = 0usize;
        let mut b = 0usize;
        let mut opos = vec![0usize; spatial];
        while row < rows_total {
            let n_rows = chunk_rows.min(rows_total - row);
            let mut patch = vec![T::ZERO; n_rows * cols];
            let mut out_offsets = Vec::with_capacity(n_rows);
            for r in 0..n_rows {
                let mut out_base = b * os[dn.output_batch as usize];
                for s in 0..spatial {
                    out_base += opos[s] * os[dn.output_spatial[s] as usize];
                }
                out_offsets.push(out_base);
                let in_base = (batch_offset + b) * in_batch_stride + feature_offset * in_feature_stride;
                let prow = &mut patch[r * cols..(r + 1) * cols];
                'taps: for (kpi, kp) in kpos.iter().enumerate() {
                    let mut off = in_base;
                    for s in 0..spatial {
                        let i = p.geo.taps[s][opos[s] * p.geo.kernel[s] + kp[s]];
                        if i < 0 {
                            continue 'taps;
                        }
                        off += i as usize * ls[dn.input_spatial[s] as usize];
                    }
                    let dst = &mut prow[kpi * p.ci..(kpi + 1) * p.ci];
                    if in_feature_stride == 1 {
                        dst.copy_from_slice(&lhs[off..off + p.ci]);
                    } else {
                        for (ci, v) in dst.iter_mut().enumerate() {
                            *v = lhs[off + ci * in_feature_stride];
                        }
                    }
                }
                if !bump(&mut opos, &p.geo.out) {
                    b += 1;
                }
            }
            let res = matmul(&patch, &w, 1, n_rows, cols, p.og);
            let of = os[dn.output_feature as usize];
            for (r, &base) in out_offsets.iter().enumerate() {
                for oo in 0..p.og {
                    out[base + (g * p.og + oo) * of] = res[r * p.og + oo];
                }
            }
            row += n_rows;
        }
    }
    out
}

// ---------------------------------------------------------------------------
// fft

/// A one-dimensional DFT of a fixed length (forward sign: exp(-2*pi*i*jk/n)).
enum FftPlan {
    Trivial,
    Pow2 { n: usize, twiddles: Vec<Complex64> },
    Direct { n: usize, w: Vec<Complex64> },
    Bluestein { n: usize, m: usize, chirp: Vec<Complex64>, kernel: Vec<Complex64>, sub: Box<FftPlan> },
}

fn unit_root(num: usize, den: usize) -> Complex64 {
    // exp(-2*pi*i*num/den) with the angle reduced first for accuracy.
    let angle = -2.0 * std::f64::consts::PI * ((num % den) as f64) / den as f64;
    Complex64::new(angle.cos(), angle.sin())
}

impl FftPlan {
    fn new(n: usize) -> FftPlan {
        if n <= 1 {
            FftPlan::Trivial
        } else if n.is_power_of_two() {
            FftPlan::Pow2 { n, twiddles: (0..n / 2).map(|k| unit_root(k, n)).collect() }
        } else if n <= 256 {
            FftPlan::Direct { n, w: (0..n).map(|k| unit_root(k, n)).collect() }
        } else {
            let m = (2 * n - 1).next_power_of_two();
            // chirp[j] = exp(-pi*i*j^2/n) = unit_root(j^2 mod 2n, 2n).
            let chirp: Vec<Complex64> = (0..n).map(|j| unit_root((j * j) % (2 * n), 2 * n)).collect();
            let sub = FftPlan::new(m);
            let mut kernel = vec![Complex64::new(0.0, 0.0); m];
            kernel[0] = chirp[0].conj();
            for j in 1..n {
                kernel[j] = chirp[j].conj();
                kernel[m - j] = chirp[j].conj();
            }
            sub.forward(&mut kernel);
            FftPlan::Bluestein { n, m, chirp, kernel, sub: Box::new(sub) }
        }
    }

    /// In-place forward transform (unscaled).
    fn forward(&self, x: &mut [Complex64]) {
        match self {
            FftPlan::Trivial => {}
            FftPlan::Pow2 { n, twiddles } => {
                let n = *n;
                let bits = n.trailing_zeros();
                for i in 0..n {
                    let j = i.reverse_bits() >> (usize::BITS - bits);
                    if j > i {
                        x.swap(i, j);
                    }
                }
                let mut len = 2;
                while len <= n {
                    let half = len / 2;
                    let step = n / len;
                    for start in (0..n).step_by(len) {
                        for j in 0..half {
                            let w = twiddles[j * step];
                            let u = x[start + j];
                            let v = x[start + j + half] * w;
                            x[start + j] = u + v;
                            x[start + j + half] = u - v;
                        }
                    }
                    len *= 2;
                }
            }
            FftPlan::Direct { n, w } => {
                let n = *n;
                let input = x.to_vec();
                for (k, out) in x.iter_mut().enumerate() {
                    let mut acc = Complex64::new(0.0, 0.0);
                    let mut idx = 0usize;
                    for v in &input {
                        acc += *v * w[idx];
                        idx += k;
                        if idx >= n {
                            idx -= n;
                        }
                    }
                    *out = acc;
                }
            }
            FftPlan::Bluestein { n, m, chirp, kernel, sub } => {
                let mut a = vec![Complex64::new(0.0, 0.0); *m];
                for j in 0..*n {
                    a[j] = x[j] * chirp[j];
                }
                sub.forward(&mut a);
                for (v, k) in a.iter_mut().zip(kernel) {
                    *v = (*v * k).conj();
                }
                // Inverse via conjugation: ifft(y) = conj(fft(conj(y))) / m.
                sub.forward(&mut a);
                let scale = 1.0 / *m as f64;
                for k in 0..*n {
                    x[k] = a[k].conj() * scale * chirp[k];
                }
            }
        }
    }

    /// In-place inverse transform (unscaled: no division by n).
    fn inverse(&self, x: &mut [Complex64]) {
        for v in x.iter_mut() {
            *v = v.conj();
        }
        self.forward(x);
        for v in x.iter_mut() {
            *v = v.conj();
        }
    }
}

/// Transforms every line of `data` (row-major `dims`) along `axis`.
fn dft_axis(data: &mut [Complex64], dims: &[usize], axis: usize, inverse: bool) {
    let n = dims[axis];
    if n <= 1 || data.is_empty() {
        return;
    }
    let inner: usize = dims[axis + 1..].iter().product();
    let outer: usize = dims[..axis].iter().product();
    let plan = FftPlan::new(n);
    let scale = 1.0 / n as f64;
    let mut line = vec![Complex64::new(0.0, 0.0); n];
    for o in 0..outer {
        for i in 0..inner {
            let base = o * n * inner + i;
            for (j, v) in line.iter_mut().enumerate() {
                *v = data[base + j * inner];
            }
            if inverse {
                plan.inverse(&mut line);
            } else {
                plan.forward(&mut line);
            }
            for (j, v) in line.iter().enumerate() {
                data[base + j * inner] = if inverse { *v * scale } else { *v };
            }
        }
    }
}

fn fft(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (in_dims, data) = operand(operands, 0)?;
    let (t, out_dims) = result_shape(inst)?;
    let fft_type = attrs::enum_word(require(inst, "fft_type")?).map_err(attr_error)?;
    let lengths = attrs::dims(require(inst, "fft_length")?).map_err(attr_error)?;
    let rank = in_dims.len();
    let r = lengths.len();
    if r == 0 || r > 3 || r > rank || out_dims.len() != rank {
        bail!("fft over {r} axes of a rank-{rank} operand is not valid");
    }
    if lengths.iter().any(|&l| l < 0) {
        bail!("fft_length {lengths:?} has a negative length");
    }
    let first = rank - r;
    let ins: Vec<usize> = in_dims.iter().map(|&d| d.max(0) as usize).collect();
    let outs: Vec<usize> = out_dims.iter().map(|&d| d.max(0) as usize).collect();
    let lens: Vec<usize> = lengths.iter().map(|&d| d as usize).collect();
    if ins[..first] != outs[..first] {
        bail!("fft result dims {out_dims:?} do not match the operand dims {in_dims:?}");
    }
    match fft_type.as_str() {
        "FFT" | "IFFT" => {
            if ins[first..] != lens[..] || ins != outs {
                bail!("{fft_type} needs trailing operand dims equal to fft_length {lengths:?}");
            }
            let mut buf = to_c64s(data);
            for axis in first..rank {
                dft_axis(&mut buf, &ins, axis, fft_type == "IFFT");
            }
            literal_from_c64s(t, out_dims, buf)
        }
        "RFFT" => {
            let last = lens[r - 1];
            if ins[first..] != lens[..] || outs[first..rank - 1] != lens[..r - 1] || outs[rank - 1] != last / 2 + 1 {
                bail!("RFFT of {in_dims:?} with fft_length {lengths:?} cannot give {out_dims:?}");
            }
            let mut buf = to_c64s(data);
            dft_axis(&mut buf, &ins, rank - 1, false);
            // Keep the first n/2+1 outputs of the innermost axis.
            let keep = outs[rank - 1];
            let lines = buf.len() / last.max(1);
            let mut cut = Vec::with_capacity(lines * keep);
            for l in 0..lines {
                cut.extend_from_slice(&buf[l * last..l * last + keep]);
            }
            for axis in first..rank - 1 {
                dft_axis(&mut cut, &outs, axis, false);
            }
            literal_from_c64s(t, out_dims, cut)
        }
        "IRFFT" => {
            let last = lens[r - 1];
            let half = last / 2 + 1;
            if outs[first..] != lens[..] || ins[first..rank - 1] != lens[..r - 1] {
                bail!("IRFFT of {in_dims:?} with fft_length {lengths:?} cannot give {out_dims:?}");
            }
            if ins[rank - 1] < half && last > 0 {
                bail!("IRFFT needs at least {half} entries in the innermost operand axis, got {}", ins[rank - 1]);
            }
            let mut buf = to_c64s(data);
            for axis in first..rank - 1 {
                dft_axis(&mut buf, &ins, axis, true);
            }
            let width = ins[rank - 1];
            let lines = buf.len().checked_div(width).unwrap_or(0);
            let mut result = Vec::with_capacity(lines * last);
            let plan = FftPlan::new(last);
            let mut line = vec![Complex64::new(0.0, 0.0); last];
            let scale = if last > 0 { 1.0 / last as f64 } else { 1.0 };
            for l in 0..lines {
                let src = &buf[l * width..l * width + half.min(width)];
                for (j, v) in line.iter_mut().enumerate() {
                    *v = if j < half { src[j] } else { src[last - j].conj() };
                }
                plan.inverse(&mut line);
                result.extend(line.iter().map(|v| v.re * scale));
            }
            literal_from_f64s(t, out_dims, result)
        }
        other => bail!("unknown fft_type {other}"),
    }
}

// ---------------------------------------------------------------------------
// cholesky and triangular-solve

/// Field operations over f64 and c128.
pub(crate) trait Field:
    Copy
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn zero() -> Self;
    fn one() -> Self;
    fn conj(self) -> Self;
    fn real(self) -> f64;
    fn from_real(x: f64) -> Self;
    fn nan() -> Self;
}

impl Field for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn conj(self) -> Self {
        self
    }
    fn real(self) -> f64 {
        self
    }
    fn from_real(x: f64) -> Self {
        x
    }
    fn nan() -> Self {
        f64::NAN
    }
}

impl Field for Complex64 {
    fn zero() -> Self {
        Complex64::new(0.0, 0.0)
    }
    fn one() -> Self {
        Complex64::new(1.0, 0.0)
    }
    fn conj(self) -> Self {
        Complex64::conj(&self)
    }
    fn real(self) -> f64 {
        self.re
    }
    fn from_real(x: f64) -> Self {
        Complex64::new(x, 0.0)
    }
    fn nan() -> Self {
        Complex64::new(f64::NAN, f64::NAN)
    }
}

/// Lower Cholesky factor of each `n x n` matrix of `a`, reading only the
/// lower triangle; a NaN pivot square root makes the matrix all NaN.
fn cholesky_lower<T: Field>(a: &mut [T], n: usize) {
    for mat in a.chunks_mut(n * n) {
        let mut l = vec![T::zero(); n * n];
        let mut failed = false;
        for j in 0..n {
            let mut d = mat[j * n + j];
            for k in 0..j {
                d = d - l[j * n + k] * l[j * n + k].conj();
            }
            let pivot = d.real().sqrt();
            if pivot.is_nan() {
                failed = true;
            }
            let pivot = T::from_real(pivot);
            l[j * n + j] = pivot;
            for i in j + 1..n {
                let mut s = mat[i * n + j];
                for k in 0..j {
                    s = s - l[i * n + k] * l[j * n + k].conj();
                }
                l[i * n + j] = s / pivot;
            }
        }
        if failed {
            l.iter_mut().for_each(|v| *v = T::nan());
        }
        mat.copy_from_slice(&l);
    }
}

fn transpose_minor<T: Copy>(a: &mut [T], n: usize) {
    for mat in a.chunks_mut(n * n) {
        for i in 0..n {
            for j in i + 1..n {
                mat.swap(i * n + j, j * n + i);
            }
        }
    }
}

fn cholesky(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (dims, data) = operand(operands, 0)?;
    let (t, out_dims) = result_shape(inst)?;
    let lower = bool_attr(inst, "lower", false)?;
    let rank = dims.len();
    if rank < 2 || dims[rank - 1] != dims[rank - 2] || out_dims != dims {
        bail!("cholesky needs batches of square matrices, got {dims:?} -> {out_dims:?}");
    }
    let n = dims[rank - 1].max(0) as usize;
    if n == 0 {
        return Ok(Literal::zeros(t, out_dims));
    }
    macro_rules! run {
        ($buf:expr, $from:ident) => {{
            let mut buf = $buf;
            if !lower {
                transpose_minor(&mut buf, n);
            }
            cholesky_lower(&mut buf, n);
            if !lower {
                transpose_minor(&mut buf, n);
            }
            $from(t, out_dims, buf)
        }};
    }
    match kind_of(t)? {
        Kind::C64 | Kind::C128 => run!(to_c64s(data), literal_from_c64s),
        Kind::F32 | Kind::F64 => run!(to_f64s(data), literal_from_f64s),
        Kind::Int => bail!("cholesky of {} is not supported", t.name()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transpose {
    No,
    Plain,
    Adjoint,
}

pub(crate) struct TriSolve {
    pub(crate) left_side: bool,
    pub(crate) lower: bool,
    pub(crate) unit_diagonal: bool,
    pub(crate) transpose: Transpose,
}

/// Solves every batch element in place in `b`.
pub(crate) fn triangular_solve_core<T: Field>(a: &[T], b: &mut [T], m: usize, k: usize, o: &TriSolve) {
    let mm = m * m;
    let bsize = m * k;
    if mm == 0 || bsize == 0 {
        return;
    }
    let mut t = vec![T::zero(); mm];
    for (am, bm) in a.chunks(mm).zip(b.chunks_mut(bsize)) {
        // t = op(triangle of a).
        for i in 0..m {
            for j in 0..m {
                let keep = if o.lower { i >= j } else { i <= j };
                let v = if i == j && o.unit_diagonal {
                    T::one()
                } else if keep {
                    am[i * m + j]
                } else {
                    T::zero()
                };
                match o.transpose {
                    Transpose::No => t[i * m + j] = v,
                    Transpose::Plain => t[j * m + i] = v,
                    Transpose::Adjoint => t[j * m + i] = v.conj(),
                }
            }
        }
        let t_lower = o.lower == (o.transpose == Transpose::No);
        if o.left_side {
            // t x = b with b [m, k]: column by column.
            for c in 0..k {
                let order: Box<dyn Iterator<Item = usize>> =
                    if t_lower { Box::new(0..m) } else { Box::new((0..m).rev()) };
                for i in order {
                    let mut s = bm[i * k + c];
                    let range = if t_lower { 0..i } else { i + 1..m };
                    for j in range {
                        s = s - t[i * m + j] * bm[j * k + c];
                    }
                    bm[i * k + c] = s / t[i * m + i];
                }
            }
        } else {
            // x t = b with b [k, m]: row by row; x[j] depends on x[i] with
            // t[i][j] != 0, i != j.
            for r in 0..k {
                let row = &mut bm[r * m..(r + 1) * m];
                let order: Box<dyn Iterator<Item = usize>> =
                    if t_lower { Box::new((0..m).rev()) } else { Box::new(0..m) };
                for j in order {
                    let mut s = row[j];
                    let range = if t_lower { j + 1..m } else { 0..j };
                    for i in range {
                        s = s - row[i] * t[i * m + j];
                    }
                    row[j] = s / t[j * m + j];
                }
            }
        }
    }
}

fn triangular_solve(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (a_dims, a) = operand(operands, 0)?;
    let (b_dims, b) = operand(operands, 1)?;
    let (t, out_dims) = result_shape(inst)?;
    let transpose = match attr(inst, "transpose_a") {
        None => Transpose::No,
        Some(v) => match attrs::enum_word(v).map_err(attr_error)?.as_str() {
            "NO_TRANSPOSE" => Transpose::No,
            "TRANSPOSE" => Transpose::Plain,
            "ADJOINT" => Transpose::Adjoint,
            other => bail!("unknown transpose_a {other}"),
        },
    };
    let o = TriSolve {
        left_side: bool_attr(inst, "left_side", false)?,
        lower: bool_attr(inst, "lower", false)?,
        unit_diagonal: bool_attr(inst, "unit_diagonal", false)?,
        transpose,
    };
    let rank = a_dims.len();
    if rank < 2
        || b_dims.len() != rank
        || a_dims[rank - 1] != a_dims[rank - 2]
        || a_dims[..rank - 2] != b_dims[..rank - 2]
        || out_dims != b_dims
    {
        bail!("triangular-solve shapes do not agree: a {a_dims:?}, b {b_dims:?}, result {out_dims:?}");
    }
    let m = a_dims[rank - 1].max(0) as usize;
    let (b_rows, b_cols) = (b_dims[rank - 2].max(0) as usize, b_dims[rank - 1].max(0) as usize);
    let k = if o.left_side {
        if b_rows != m {
            bail!("left-side triangular-solve needs b of [..., {m}, K], got {b_dims:?}");
        }
        b_cols
    } else {
        if b_cols != m {
            bail!("right-side triangular-solve needs b of [..., K, {m}], got {b_dims:?}");
        }
        b_rows
    };
    match kind_of(t)? {
        Kind::C64 | Kind::C128 => {
            let mut x = to_c64s(b);
            triangular_solve_core(&to_c64s(a), &mut x, m, k, &o);
            literal_from_c64s(t, out_dims, x)
        }
        Kind::F32 | Kind::F64 => {
            let mut x = to_f64s(b);
            triangular_solve_core(&to_f64s(a), &mut x, m, k, &o);
            literal_from_f64s(t, out_dims, x)
        }
        Kind::Int => bail!("triangular-solve of {} is not supported", t.name()),
    }
}

// ---------------------------------------------------------------------------
// batch norm

/// (outer, features, inner) sizes around the feature dimension.
fn feature_split(dims: &[i64], feature_index: i64) -> Result<(usize, usize, usize)> {
    if feature_index < 0 || feature_index as usize >= dims.len() {
        bail!("feature_index {feature_index} is out of range for rank {}", dims.len());
    }
    let f = feature_index as usize;
    Ok((product(&dims[..f]), dims[f].max(0) as usize, product(&dims[f + 1..])))
}

fn feature_vector(operands: &[&Literal], i: usize, features: usize, what: &str) -> Result<Vec<f64>> {
    let (dims, data) = operand(operands, i)?;
    if dims.len() != 1 || dims[0] as usize != features {
        bail!("{what} must be a vector of {features} features, got {dims:?}");
    }
    Ok(to_f64s(data))
}

fn tuple_types(inst: &Instruction, n: usize) -> Result<Vec<(ElementType, Vec<i64>)>> {
    match &inst.shape {
        Shape::Tuple(elements) if elements.len() == n => elements.iter().map(array_shape).collect(),
        _ => bail!("expected a result tuple of {n} arrays"),
    }
}

/// Per feature: mean and biased variance over all other dimensions.
fn moments(x: &[f64], outer: usize, features: usize, inner: usize) -> (Vec<f64>, Vec<f64>) {
    let count = (outer * inner) as f64;
    let mut mean = vec![0.0; features];
    let mut var = vec![0.0; features];
    for o in 0..outer {
        for (f, m) in mean.iter_mut().enumerate() {
            let base = (o * features + f) * inner;
            *m += x[base..base + inner].iter().sum::<f64>();
        }
    }
    mean.iter_mut().for_each(|m| *m /= count);
    for o in 0..outer {
        for (f, (s, m)) in var.iter_mut().zip(&mean).enumerate() {
            let base = (o * features + f) * inner;
            *s += x[base..base + inner].iter().map(|v| (v - m) * (v - m)).sum::<f64>();
        }
    }
    var.iter_mut().for_each(|v| *v /= count);
    (mean, var)
}

fn batch_norm_training(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (dims, data) = operand(operands, 0)?;
    let eps = float_attr(inst, "epsilon", 0.0)?;
    let (outer, features, inner) = feature_split(dims, int_attr(inst, "feature_index", 0)?)?;
    let scale = feature_vector(operands, 1, features, "scale")?;
    let offset = feature_vector(operands, 2, features, "offset")?;
    let types = tuple_types(inst, 3)?;
    let x = to_f64s(data);
    let (mean, var) = moments(&x, outer, features, inner);
    let mut y = x;
    for o in 0..outer {
        for f in 0..features {
            let base = (o * features + f) * inner;
            let inv = 1.0 / (var[f] + eps).sqrt();
            for v in &mut y[base..base + inner] {
                *v = (*v - mean[f]) * inv * scale[f] + offset[f];
            }
        }
    }
    Ok(Literal::Tuple(vec![
        literal_from_f64s(types[0].0, types[0].1.clone(), y)?,
        literal_from_f64s(types[1].0, types[1].1.clone(), mean)?,
        literal_from_f64s(types[2].0, types[2].1.clone(), var)?,
    ]))
}

fn batch_norm_inference(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (dims, data) = operand(operands, 0)?;
    let (t, out_dims) = result_shape(inst)?;
    let eps = float_attr(inst, "epsilon", 0.0)?;
    let (outer, features, inner) = feature_split(dims, int_attr(inst, "feature_index", 0)?)?;
    let scale = feature_vector(operands, 1, features, "scale")?;
    let offset = feature_vector(operands, 2, features, "offset")?;
    let mean = feature_vector(operands, 3, features, "mean")?;
    let var = feature_vector(operands, 4, features, "variance")?;
    let mut y = to_f64s(data);
    for o in 0..outer {
        for f in 0..features {
            let base = (o * features + f) * inner;
            let inv = 1.0 / (var[f] + eps).sqrt();
            for v in &mut y[base..base + inner] {
                *v = (*v - mean[f]) * inv * scale[f] + offset[f];
            }
        }
    }
    literal_from_f64s(t, out_dims, y)
}

fn batch_norm_grad(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (dims, data) = operand(operands, 0)?;
    let eps = float_attr(inst, "epsilon", 0.0)?;
    let (outer, features, inner) = feature_split(dims, int_attr(inst, "feature_index", 0)?)?;
    let scale = feature_vector(operands, 1, features, "scale")?;
    let mean = feature_vector(operands, 2, features, "mean")?;
    let var = feature_vector(operands, 3, features, "variance")?;
    let (gdims, gdata) = operand(operands, 4)?;
    if gdims != dims {
        bail!("grad_output dims {gdims:?} differ from the operand dims {dims:?}");
    }
    let types = tuple_types(inst, 3)?;
    let x = to_f64s(data);
    let dy = to_f64s(gdata);
    let count = (outer * inner) as f64;
    // sum(dy) and sum(dy * (x - mean)) per feature.
    let mut sum_dy = vec![0.0; features];
    let mut sum_dy_xc = vec![0.0; features];
    for o in 0..outer {
        for f in 0..features {
            let base = (o * features + f) * inner;
            for i in base..base + inner {
                sum_dy[f] += dy[i];
                sum_dy_xc[f] += dy[i] * (x[i] - mean[f]);
            }
        }
    }
    let mut dx = vec![0.0; x.len()];
    for o in 0..outer {
        for f in 0..features {
            let base = (o * features + f) * inner;
            let ve = var[f] + eps;
            let c = sum_dy_xc[f] / ve / count;
            let d = sum_dy[f] / count;
            let k = scale[f] / ve.sqrt();
            for i in base..base + inner {
                dx[i] = k * (dy[i] - d - c * (x[i] - mean[f]));
            }
        }
    }
    let dscale: Vec<f64> = (0..features).map(|f| sum_dy_xc[f] / (var[f] + eps).sqrt()).collect();
    Ok(Literal::Tuple(vec![
        literal_from_f64s(types[0].0, types[0].1.clone(), dx)?,
        literal_from_f64s(types[1].0, types[1].1.clone(), dscale)?,
        literal_from_f64s(types[2].0, types[2].1.clone(), sum_dy)?,
    ]))
}

// ---------------------------------------------------------------------------
// Numeric conversions (shared with control.rs and rng.rs)

fn is_signed_bits(t: ElementType) -> bool {
    matches!(t, PrimitiveType::S1 | PrimitiveType::S2 | PrimitiveType::S4)
}

/// The f64 value of each of the 256 bit patterns of a narrow float type.
fn narrow_table(t: ElementType) -> Option<Vec<f64>> {
    float_format(t)?;
    let lit = Literal::array(vec![256], Data::Bits(t, (0..=255u8).collect()));
    Some(lit.to_f32_vec().into_iter().map(|x| x as f64).collect())
}

macro_rules! convert_all {
    ($data:expr, $out:ty, |$x:ident| $real:expr, |$c:ident| $complex:expr, |$b:ident| $pred:expr) => {
        match $data {
            Data::Pred(v) => v.iter().map(|&$b| -> $out { $pred }).collect(),
            Data::S8(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::S16(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::S32(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::S64(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::U8(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::U16(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::U32(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::U64(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::F16(v) => v
                .iter()
                .map(|&y| -> $out {
                    let $x = y.to_f64();
                    $real
                })
                .collect(),
            Data::Bf16(v) => v
                .iter()
                .map(|&y| -> $out {
                    let $x = y.to_f64();
                    $real
                })
                .collect(),
            Data::F32(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::F64(v) => v.iter().map(|&$x| -> $out { $real }).collect(),
            Data::C64(v) => v
                .iter()
                .map(|&y| -> $out {
                    let $c = Complex64::new(y.re as f64, y.im as f64);
                    $complex
                })
                .collect(),
            Data::C128(v) => v.iter().map(|&$c| -> $out { $complex }).collect(),
            Data::Bits(t, v) => match narrow_table(*t) {
                Some(table) => v
                    .iter()
                    .map(|&y| -> $out {
                        let $x = table[y as usize];
                        $real
                    })
                    .collect(),
                None if is_signed_bits(*t) => v
                    .iter()
                    .map(|&y| -> $out {
                        let $x = y as i8 as i64;
                        $real
                    })
                    .collect(),
                None => v
                    .iter()
                    .map(|&y| -> $out {
                        let $x = y as i64;
                        $real
                    })
                    .collect(),
            },
        }
    };
}

/// Every element as f64: integers converted (rounded to nearest), pred
/// 0/1, complex: the real part, narrow floats decoded.
pub(crate) fn to_f64s(data: &Data) -> Vec<f64> {
    convert_all!(data, f64, |x| x as f64, |c| c.re, |b| b as u8 as f64)
}

/// Every element as f32 (rounded once from the exact value).
pub(crate) fn to_f32s(data: &Data) -> Vec<f32> {
    match data {
        Data::F32(v) => v.clone(),
        Data::F16(v) => v.iter().map(|x| x.to_f32()).collect(),
        Data::Bf16(v) => v.iter().map(|x| x.to_f32()).collect(),
        Data::S32(v) => v.iter().map(|&x| x as f32).collect(),
        Data::S64(v) => v.iter().map(|&x| x as f32).collect(),
        Data::U32(v) => v.iter().map(|&x| x as f32).collect(),
        Data::U64(v) => v.iter().map(|&x| x as f32).collect(),
        Data::C64(v) => v.iter().map(|x| x.re).collect(),
        other => to_f64s(other).into_iter().map(|x| x as f32).collect(),
    }
}

/// Every element as i64: integers exactly (u64 as its bits), floats
/// truncated toward zero and saturated (NaN: 0), complex: the real part.
pub(crate) fn to_i64s(data: &Data) -> Vec<i64> {
    convert_all!(data, i64, |x| x as i64, |c| c.re as i64, |b| b as i64)
}

/// Every element as c128 (reals with a zero imaginary part).
pub(crate) fn to_c64s(data: &Data) -> Vec<Complex64> {
    convert_all!(data, Complex64, |x| Complex64::new(x as f64, 0.0), |c| c, |b| Complex64::new(b as u8 as f64, 0.0))
}

/// Every element as c64.
pub(crate) fn to_c32s(data: &Data) -> Vec<Complex32> {
    match data {
        Data::C64(v) => v.clone(),
        other => to_c64s(other).into_iter().map(|c| Complex32::new(c.re as f32, c.im as f32)).collect(),
    }
}

/// Truncates `x` to the width of integer type `t` (sign- or zero-extended
/// back to i64).
pub(crate) fn wrap_int(t: ElementType, x: i64) -> i64 {
    use PrimitiveType::*;
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

/// An array of type `t` from f64 values: floats rounded to nearest even,
/// integers truncated toward zero and saturated to the type's range (NaN:
/// 0), pred: nonzero, complex: zero imaginary part.
pub(crate) fn literal_from_f64s(t: ElementType, dims: Vec<i64>, v: Vec<f64>) -> Result<Literal> {
    use PrimitiveType::*;
    let data = match t {
        F64 => Data::F64(v),
        F32 => Data::F32(v.iter().map(|&x| x as f32).collect()),
        F16 => Data::F16(v.iter().map(|&x| f16::from_f64(x)).collect()),
        Bf16 => Data::Bf16(v.iter().map(|&x| bf16::from_f64(x)).collect()),
        C64 => Data::C64(v.iter().map(|&x| Complex32::new(x as f32, 0.0)).collect()),
        C128 => Data::C128(v.iter().map(|&x| Complex64::new(x, 0.0)).collect()),
        Pred => Data::Pred(v.iter().map(|&x| x != 0.0).collect()),
        U64 => Data::U64(v.iter().map(|&x| x as u64).collect()),
        S1 | S2 | S4 | S8 | S16 | S32 | S64 | U1 | U2 | U4 | U8 | U16 | U32 => {
            let (lo, hi) = int_range(t);
            return literal_from_i64s(t, dims, v.iter().map(|&x| (x as i64).clamp(lo, hi)).collect());
        }
        Token | Opaque => bail!("{} is not a numeric type", t.name()),
        other => match float_format(other) {
            Some(format) => Data::Bits(other, v.iter().map(|&x| narrow_float_bits(&format, x) as u8).collect()),
            None => bail!("cannot produce {}", other.name()),
        },
    };
    check_len(dims, data)
}

/// An array of type `t` from f32 values (see [`literal_from_f64s`]).
pub(crate) fn literal_from_f32s(t: ElementType, dims: Vec<i64>, v: Vec<f32>) -> Result<Literal> {
    let data = match t {
        PrimitiveType::F32 => Data::F32(v),
        PrimitiveType::F16 => Data::F16(v.iter().map(|&x| f16::from_f32(x)).collect()),
        PrimitiveType::Bf16 => Data::Bf16(v.iter().map(|&x| bf16::from_f32(x)).collect()),
        PrimitiveType::C64 => Data::C64(v.iter().map(|&x| Complex32::new(x, 0.0)).collect()),
        _ => return literal_from_f64s(t, dims, v.into_iter().map(|x| x as f64).collect()),
    };
    check_len(dims, data)
}

fn int_range(t: ElementType) -> (i64, i64) {
    use PrimitiveType::*;
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

/// An array of type `t` from i64 values: integers wrap to the type's
/// width, floats round to nearest, pred: nonzero.
pub(crate) fn literal_from_i64s(t: ElementType, dims: Vec<i64>, v: Vec<i64>) -> Result<Literal> {
    use PrimitiveType::*;
    let data = match t {
        Pred => Data::Pred(v.iter().map(|&x| x != 0).collect()),
        S8 => Data::S8(v.iter().map(|&x| x as i8).collect()),
        S16 => Data::S16(v.iter().map(|&x| x as i16).collect()),
        S32 => Data::S32(v.iter().map(|&x| x as i32).collect()),
        S64 => Data::S64(v),
        U8 => Data::U8(v.iter().map(|&x| x as u8).collect()),
        U16 => Data::U16(v.iter().map(|&x| x as u16).collect()),
        U32 => Data::U32(v.iter().map(|&x| x as u32).collect()),
        U64 => Data::U64(v.iter().map(|&x| x as u64).collect()),
        S1 | S2 | S4 | U1 | U2 | U4 => Data::Bits(t, v.iter().map(|&x| wrap_int(t, x) as u8).collect()),
        F32 => Data::F32(v.iter().map(|&x| x as f32).collect()),
        C64 => Data::C64(v.iter().map(|&x| Complex32::new(x as f32, 0.0)).collect()),
        _ => return literal_from_f64s(t, dims, v.into_iter().map(|x| x as f64).collect()),
    };
    check_len(dims, data)
}

/// An array of complex type `t` from c128 values (real types: the real
/// part).
pub(crate) fn literal_from_c64s(t: ElementType, dims: Vec<i64>, v: Vec<Complex64>) -> Result<Literal> {
    match t {
        PrimitiveType::C128 => check_len(dims, Data::C128(v)),
        PrimitiveType::C64 => {
            check_len(dims, Data::C64(v.iter().map(|c| Complex32::new(c.re as f32, c.im as f32)).collect()))
        }
        _ => literal_from_f64s(t, dims, v.into_iter().map(|c| c.re).collect()),
    }
}

/// An array of complex type `t` from c64 values.
pub(crate) fn literal_from_c32s(t: ElementType, dims: Vec<i64>, v: Vec<Complex32>) -> Result<Literal> {
    match t {
        PrimitiveType::C64 => check_len(dims, Data::C64(v)),
        _ => literal_from_c64s(t, dims, v.into_iter().map(|c| Complex64::new(c.re as f64, c.im as f64)).collect()),
    }
}

fn check_len(dims: Vec<i64>, data: Data) -> Result<Literal> {
    if product(&dims) != data.len() {
        return Err(EvalError::new(format!(
            "result has {} elements but its shape {dims:?} needs {}",
            data.len(),
            product(&dims)
        )));
    }
    Ok(Literal::Array { dims, data })
}

// Operand conversion into the compute type of result type `t`: converted
// to `t` first when the types differ (as HloEvaluator does).

fn operand_f32s(d: &Data, t: ElementType) -> Result<Vec<f32>> {
    if d.element_type() == t || t == PrimitiveType::F32 {
        return Ok(to_f32s(d));
    }
    let converted = literal_from_f64s(t, vec![d.len() as i64], to_f64s(d))?;
    Ok(to_f32s(converted.data().expect("array")))
}

fn operand_f64s(d: &Data, _t: ElementType) -> Result<Vec<f64>> {
    Ok(to_f64s(d))
}

fn operand_c32s(d: &Data, _t: ElementType) -> Result<Vec<Complex32>> {
    Ok(to_c32s(d))
}

fn operand_c64s(d: &Data, _t: ElementType) -> Result<Vec<Complex64>> {
    Ok(to_c64s(d))
}

fn operand_i64s(d: &Data, t: ElementType) -> Result<Vec<i64>> {
    let ints = match d {
        Data::F16(_) | Data::Bf16(_) | Data::F32(_) | Data::F64(_) => {
            let converted = literal_from_f64s(t, vec![d.len() as i64], to_f64s(d))?;
            return Ok(to_i64s(converted.data().expect("array")));
        }
        Data::Bits(bt, _) if float_format(*bt).is_some() => {
            let converted = literal_from_f64s(t, vec![d.len() as i64], to_f64s(d))?;
            return Ok(to_i64s(converted.data().expect("array")));
        }
        other => to_i64s(other),
    };
    Ok(ints)
}

// ---------------------------------------------------------------------------
// ragged-dot and scaled-dot

/// Row-major index of `idx` in `dims`.
fn flat(idx: &[usize], dims: &[usize]) -> usize {
    idx.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i)
}

/// A general dot in f64. `term(l, r)` may veto a product (ragged masks);
/// `extra` is a leading result dimension (ragged contracting groups) whose
/// index is passed to `term` as well. `rhs_skip` is a rhs dimension fixed
/// by `rhs_fixed(lhs index, extra index)` (the ragged group dimension).
struct DotSpec<'a> {
    lb: Vec<usize>,
    lc: Vec<usize>,
    rb: Vec<usize>,
    rc: Vec<usize>,
    extra: usize,
    rhs_skip: Option<usize>,
    rhs_fixed: &'a dyn Fn(&[usize], usize) -> Option<usize>,
    keep: &'a dyn Fn(&[usize], usize) -> bool,
}

fn dot_f64(l: &[f64], ld: &[usize], r: &[f64], rd: &[usize], spec: &DotSpec) -> Result<(Vec<usize>, Vec<f64>)> {
    let lfree: Vec<usize> = (0..ld.len()).filter(|d| !spec.lb.contains(d) && !spec.lc.contains(d)).collect();
    let rfree: Vec<usize> =
        (0..rd.len()).filter(|d| !spec.rb.contains(d) && !spec.rc.contains(d) && Some(*d) != spec.rhs_skip).collect();
    if spec.lb.len() != spec.rb.len() || spec.lc.len() != spec.rc.len() {
        bail!("dot dimension numbers have unequal batch or contracting counts");
    }
    for (a, b) in spec.lb.iter().zip(&spec.rb).chain(spec.lc.iter().zip(&spec.rc)) {
        if ld[*a] != rd[*b] {
            bail!("dot dimension lhs {a} (size {}) does not match rhs {b} (size {})", ld[*a], rd[*b]);
        }
    }
    let mut out_dims: Vec<usize> = Vec::new();
    if spec.extra > 0 {
        out_dims.push(spec.extra);
    }
    out_dims.extend(spec.lb.iter().map(|&d| ld[d]));
    out_dims.extend(lfree.iter().map(|&d| ld[d]));
    out_dims.extend(rfree.iter().map(|&d| rd[d]));
    let cdims: Vec<usize> = spec.lc.iter().map(|&d| ld[d]).collect();
    let total: usize = out_dims.iter().product();
    let ccount: usize = cdims.iter().product();
    let mut out = vec![0f64; total];
    let mut oi = vec![0usize; out_dims.len()];
    let mut li = vec![0usize; ld.len()];
    let mut ri = vec![0usize; rd.len()];
    let mut ci = vec![0usize; cdims.len()];
    for (o, slot) in out.iter_mut().enumerate() {
        // Decode the output index.
        let mut rem = o;
        for (i, &d) in out_dims.iter().enumerate().rev() {
            oi[i] = rem % d;
            rem /= d;
        }
        let (g, rest) = if spec.extra > 0 { (oi[0], &oi[1..]) } else { (0, &oi[..]) };
        let nb = spec.lb.len();
        for (j, (&a, &b)) in spec.lb.iter().zip(&spec.rb).enumerate() {
            li[a] = rest[j];
            ri[b] = rest[j];
        }
        for (j, &a) in lfree.iter().enumerate() {
            li[a] = rest[nb + j];
        }
        for (j, &b) in rfree.iter().enumerate() {
            ri[b] = rest[nb + lfree.len() + j];
        }
        let mut acc = 0f64;
        for c in 0..ccount {
            let mut rem = c;
            for (i, &d) in cdims.iter().enumerate().rev() {
                ci[i] = rem % d;
                rem /= d;
            }
            for (j, (&a, &b)) in spec.lc.iter().zip(&spec.rc).enumerate() {
                li[a] = ci[j];
                ri[b] = ci[j];
            }
            if !(spec.keep)(&li, g) {
                continue;
            }
            if let Some(skip) = spec.rhs_skip {
                match (spec.rhs_fixed)(&li, g) {
                    Some(v) => ri[skip] = v,
                    None => continue,
                }
            }
            acc += l[flat(&li, ld)] * r[flat(&ri, rd)];
        }
        *slot = acc;
    }
    Ok((out_dims, out))
}

fn usizes(dims: &[i64]) -> Vec<usize> {
    dims.iter().map(|&d| d.max(0) as usize).collect()
}

fn check_dims(v: &[i64], rank: usize, what: &str) -> Result<Vec<usize>> {
    v.iter()
        .map(|&d| {
            if d >= 0 && (d as usize) < rank {
                Ok(d as usize)
            } else {
                bail!("{what} dimension {d} is out of range for rank {rank}")
            }
        })
        .collect()
}

fn finish_f64_dot(inst: &Instruction, dims: Vec<usize>, values: Vec<f64>) -> Result<Literal> {
    let (t, want) = result_shape(inst)?;
    let dims: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    if dims != want {
        bail!("{} computes {dims:?} but declares {want:?}", inst.opcode);
    }
    if t.is_integral() || t == ElementType::Pred {
        literal_from_i64s(t, dims, values.iter().map(|&x| x as i64).collect())
    } else {
        literal_from_f64s(t, dims, values)
    }
}

fn ragged_dot(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (ldims, ldata) = operand(operands, 0)?;
    let (rdims, rdata) = operand(operands, 1)?;
    let (gdims, gdata) = operand(operands, 2)?;
    if gdims.len() != 1 {
        bail!("ragged-dot supports only rank-1 group_sizes, got {gdims:?}");
    }
    let sizes = to_i64s(gdata);
    let (ld, rd) = (usizes(ldims), usizes(rdims));
    let lb = check_dims(&dims_attr(inst, "lhs_batch_dims")?, ld.len(), "lhs batch")?;
    let lc = check_dims(&dims_attr(inst, "lhs_contracting_dims")?, ld.len(), "lhs contracting")?;
    let rb = check_dims(&dims_attr(inst, "rhs_batch_dims")?, rd.len(), "rhs batch")?;
    let rc = check_dims(&dims_attr(inst, "rhs_contracting_dims")?, rd.len(), "rhs contracting")?;
    let ragged = match check_dims(&dims_attr(inst, "lhs_ragged_dims")?, ld.len(), "lhs ragged")?.as_slice() {
        [d] => *d,
        other => bail!("ragged-dot needs exactly one lhs_ragged_dims entry, got {other:?}"),
    };
    let group_dims = check_dims(&dims_attr(inst, "rhs_group_dims")?, rd.len(), "rhs group")?;
    // Group boundaries along the ragged dimension.
    let mut starts = Vec::with_capacity(sizes.len() + 1);
    let mut acc = 0i64;
    starts.push(0i64);
    for &s in &sizes {
        acc += s.max(0);
        starts.push(acc);
    }
    let group_of = |i: usize| -> Option<usize> {
        (0..sizes.len()).find(|&g| (i as i64) >= starts[g] && (i as i64) < starts[g + 1])
    };
    let (l, r) = (to_f64s(ldata), to_f64s(rdata));
    let always = |_: &[usize], _: usize| -> Option<usize> { None };
    let (dims, values) = if lc.contains(&ragged) {
        if !group_dims.is_empty() {
            bail!("ragged-dot with a ragged contracting dimension takes no rhs_group_dims");
        }
        let keep = |li: &[usize], g: usize| group_of(li[ragged]) == Some(g);
        let spec = DotSpec { lb, lc, rb, rc, extra: sizes.len(), rhs_skip: None, rhs_fixed: &always, keep: &keep };
        dot_f64(&l, &ld, &r, &rd, &spec)?
    } else if lb.contains(&ragged) {
        if !group_dims.is_empty() {
            bail!("ragged-dot with a ragged batch dimension takes no rhs_group_dims");
        }
        let keep = |li: &[usize], _: usize| group_of(li[ragged]).is_some();
        let spec = DotSpec { lb, lc, rb, rc, extra: 0, rhs_skip: None, rhs_fixed: &always, keep: &keep };
        dot_f64(&l, &ld, &r, &rd, &spec)?
    } else {
        let gd = match group_dims.as_slice() {
            [d] => *d,
            other => bail!(
                "ragged-dot with a ragged non-contracting dimension needs one rhs_group_dims entry, got {other:?}"
            ),
        };
        if rd[gd] != sizes.len() {
            bail!("rhs group dimension has size {} but there are {} groups", rd[gd], sizes.len());
        }
        let fixed = |li: &[usize], _: usize| group_of(li[ragged]);
        let keep = |_: &[usize], _: usize| true;
        let spec = DotSpec { lb, lc, rb, rc, extra: 0, rhs_skip: Some(gd), rhs_fixed: &fixed, keep: &keep };
        dot_f64(&l, &ld, &r, &rd, &spec)?
    };
    finish_f64_dot(inst, dims, values)
}

/// Each element times the scale of its block.
fn dequantize(dims: &[usize], values: &[f64], sdims: &[usize], scales: &[f64], what: &str) -> Result<Vec<f64>> {
    if sdims.len() != dims.len() {
        bail!("{what}_scale has rank {} but {what} has rank {}", sdims.len(), dims.len());
    }
    let mut block = Vec::with_capacity(dims.len());
    for (i, (&d, &s)) in dims.iter().zip(sdims).enumerate() {
        if s == 0 || d % s != 0 {
            bail!("{what} dimension {i} (size {d}) is not a multiple of {what}_scale dimension {i} (size {s})");
        }
        block.push(d / s);
    }
    let mut out = Vec::with_capacity(values.len());
    let mut idx = vec![0usize; dims.len()];
    let mut sidx = vec![0usize; dims.len()];
    for (o, &v) in values.iter().enumerate() {
        let mut rem = o;
        for (i, &d) in dims.iter().enumerate().rev() {
            idx[i] = rem % d;
            rem /= d;
        }
        for i in 0..dims.len() {
            sidx[i] = idx[i] / block[i];
        }
        out.push(v * scales[flat(&sidx, sdims)]);
    }
    Ok(out)
}

fn scaled_dot(inst: &Instruction, operands: &[&Literal]) -> Result<Literal> {
    let (ldims, ldata) = operand(operands, 0)?;
    let (rdims, rdata) = operand(operands, 1)?;
    let (lsdims, lsdata) = operand(operands, 2)?;
    let (rsdims, rsdata) = operand(operands, 3)?;
    let (ld, rd) = (usizes(ldims), usizes(rdims));
    let l = dequantize(&ld, &to_f64s(ldata), &usizes(lsdims), &to_f64s(lsdata), "lhs")?;
    let r = dequantize(&rd, &to_f64s(rdata), &usizes(rsdims), &to_f64s(rsdata), "rhs")?;
    let always = |_: &[usize], _: usize| -> Option<usize> { None };
    let keep = |_: &[usize], _: usize| true;
    let spec = DotSpec {
        lb: check_dims(&dims_attr(inst, "lhs_batch_dims")?, ld.len(), "lhs batch")?,
        lc: check_dims(&dims_attr(inst, "lhs_contracting_dims")?, ld.len(), "lhs contracting")?,
        rb: check_dims(&dims_attr(inst, "rhs_batch_dims")?, rd.len(), "rhs batch")?,
        rc: check_dims(&dims_attr(inst, "rhs_contracting_dims")?, rd.len(), "rhs contracting")?,
        extra: 0,
        rhs_skip: None,
        rhs_fixed: &always,
        keep: &keep,
    };
    let (dims, values) = dot_f64(&l, &ld, &r, &rd, &spec)?;
    finish_f64_dot(inst, dims, values)
}
