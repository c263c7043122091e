//! f32 products with few rows (`2 <= m <= MAX_ROWS`), many columns
//! (`n >= MIN_COLUMNS`) and a row-major right operand: an LSTM or RNN step, a decoder's dots at small batch, an
//! expert's handful of tokens. There the `gemm` crate's packing of the
//! right operand costs as much as the product itself (every element of
//! `[k, n]` is used only `m` times), so these run without packing it:
//!
//! - the left operand (small) is copied k-major, so that one step's
//!   broadcasts read adjacent elements;
//! - each task owns a range of columns; it walks the contraction `KC`
//!   steps at a time, and for each stretch the columns in blocks of `NV`
//!   SIMD vectors and the rows `MR` at a time: `MR x NV` accumulators in
//!   registers (resumed from the result after the first stretch), and at
//!   each step `NV` vector loads of the right operand's row, `MR`
//!   broadcasts and `MR x NV` fused multiply-adds;
//! - a stretch of a column block of the right operand (`KC x NV` vectors)
//!   comes from memory for the first `MR` rows and from L1 for the rest.
//!
//! AVX-512F (`MR` 8, `NV` 3: 24 of 32 registers accumulate) or AVX2 with
//! FMA (`MR` 4, `NV` 3, of 16), chosen at run time; elsewhere the caller
//! falls back to gemm. Each output is one sum over `k` in order, as in a
//! plain loop. Measured against gemm on `[16, 512] x [512, 2048]` (an LSTM
//! step): 0.30 ms instead of 0.47 ms on two cores, on par with XLA:CPU
//! (docs/cpu-backend.md).

use crate::matmul::SendPtr;
use rayon::prelude::*;

/// The most rows this path takes; more rows amortize gemm's packing.
pub(crate) const MAX_ROWS: usize = 32;

/// The fewest columns this path takes. Measured one thread at a time
/// against gemm (m 8-32, k 512-4608): with up to 512 columns gemm's packed
/// kernels were as fast or up to 1.4x faster (a convolution's blocks of
/// patch rows, `[28, 4608] x [4608, 256]`); from 1024 columns gemm's time
/// grew to 1.5-2x this path's.
pub(crate) const MIN_COLUMNS: usize = 1024;

/// Steps of the contraction per pass over the columns: the right
/// operand's rows are read `KC` at a time, each from left to right, which
/// the hardware prefetchers follow (a column block walked down every row
/// jumps a page or more per step, and ran at a fifth of the cache's
/// bandwidth).
const KC: usize = 64;

/// Products at or above this many multiply-adds split their columns over
/// the rayon pool.
const PARALLEL_WORK: usize = 1 << 18;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Isa {
    Avx512,
    Avx2,
}

fn isa() -> Option<Isa> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return Some(Isa::Avx512);
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            return Some(Isa::Avx2);
        }
    }
    None
}

/// `dst[i, j] = sum_p lhs[i, p] * rhs[p, j]` for `[m, k] x [k, n]`, with
/// `rhs` and `dst` contiguous along their rows; false (nothing written)
/// when the product is not one this path takes.
///
/// # Safety
/// Every addressed element is inside its allocation and `dst` does not
/// overlap the operands.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn product(
    m: usize,
    n: usize,
    k: usize,
    dst: *mut f32,
    dst_rs: usize,
    lhs: *const f32,
    lhs_rs: usize,
    lhs_cs: usize,
    rhs: *const f32,
    rhs_rs: usize,
    parallel: bool,
) -> bool {
    match isa() {
        // SAFETY: the caller's; `isa` was detected.
        Some(isa) => unsafe { product_with(isa, m, n, k, dst, dst_rs, lhs, lhs_rs, lhs_cs, rhs, rhs_rs, parallel) },
        None => false,
    }
}

/// [`product`] with the kernels of `isa`, which the CPU must have.
///
/// # Safety
/// As [`product`].
#[allow(clippy::too_many_arguments)]
unsafe fn product_with(
    isa: Isa,
    m: usize,
    n: usize,
    k: usize,
    dst: *mut f32,
    dst_rs: usize,
    lhs: *const f32,
    lhs_rs: usize,
    lhs_cs: usize,
    rhs: *const f32,
    rhs_rs: usize,
    parallel: bool,
) -> bool {
    if !(2..=MAX_ROWS).contains(&m) || n < MIN_COLUMNS || k == 0 {
        return false;
    }
    let width = match isa {
        Isa::Avx512 => 16,
        Isa::Avx2 => 8,
    };
    // The left operand k-major, so that a step's broadcasts read one or
    // two cache lines (its rows are usually far apart).
    let mut packed = Vec::with_capacity(m * k);
    for p in 0..k {
        // SAFETY: i < m and p < k address the caller's left operand.
        packed.extend((0..m).map(|i| unsafe { *lhs.add(i * lhs_rs + p * lhs_cs) }));
    }
    let (d, l, r) = (SendPtr(dst), SendPtr(packed.as_ptr() as *mut f32), SendPtr(rhs as *mut f32));
    let ops = Operands { m, k, dst_rs, lhs_rs: 1, lhs_cs: m, rhs_rs };
    // Columns [c0, c1), c0 a multiple of the vector width.
    let columns = move |c0: usize, c1: usize| {
        // SAFETY: the caller's guarantee; tasks write disjoint columns.
        unsafe {
            let (d, l, r) = (d.get().add(c0), l.get() as *const f32, r.get().add(c0) as *const f32);
            match isa {
                Isa::Avx512 => avx512::columns(&ops, c1 - c0, d, l, r),
                Isa::Avx2 => avx2::columns(&ops, c1 - c0, d, l, r),
            }
        }
    };
    let vectors = n / width;
    let tasks = if parallel && m * n * k >= PARALLEL_WORK { rayon::current_num_threads().min(vectors) } else { 1 };
    if tasks > 1 {
        (0..tasks).into_par_iter().for_each(|t| {
            let c0 = vectors * t / tasks * width;
            let c1 = if t + 1 == tasks { n } else { vectors * (t + 1) / tasks * width };
            columns(c0, c1);
        });
    } else {
        columns(0, n);
    }
    true
}

/// The shape and strides of one product.
struct Operands {
    m: usize,
    k: usize,
    dst_rs: usize,
    lhs_rs: usize,
    lhs_cs: usize,
    rhs_rs: usize,
}

/// One instruction set's kernels: `$v` vectors of `$w` f32 lanes.
macro_rules! kernels {
    ($name:ident, $feature:literal, $mr:expr, $nv:expr, $v:ty, $w:expr, $zero:ident, $set1:ident, $load:ident, $store:ident, $fma:ident) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::{Operands, KC};
            const MR: usize = $mr;
            const NV: usize = $nv;
            use std::arch::x86_64::*;

            /// `cols` columns starting at `dst`/`rhs` (which point at the
            /// first one), `KC` steps of the contraction at a time: blocks
            /// of `NV` vectors, then single vectors, then the columns left
            /// over one at a time.
            ///
            /// # Safety
            /// As [`super::product`]; only called where `$feature` was
            /// detected.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn columns(o: &Operands, cols: usize, dst: *mut f32, lhs: *const f32, rhs: *const f32) {
                for k0 in (0..o.k).step_by(KC) {
                    let k1 = (k0 + KC).min(o.k);
                    let mut c = 0;
                    while c + NV * $w <= cols {
                        unsafe { rows::<NV>(o, k0, k1, dst.add(c), lhs, rhs.add(c)) };
                        c += NV * $w;
                    }
                    while c + $w <= cols {
                        unsafe { rows::<1>(o, k0, k1, dst.add(c), lhs, rhs.add(c)) };
                        c += $w;
                    }
                }
                let c = cols / $w * $w;
                for j in c..cols {
                    for i in 0..o.m {
                        let mut s = 0.0f32;
                        for p in 0..o.k {
                            // SAFETY: i < m, p < k, j < cols.
                            unsafe {
                                s = (*lhs.add(i * o.lhs_rs + p * o.lhs_cs)).mul_add(*rhs.add(p * o.rhs_rs + j), s)
                            };
                        }
                        unsafe { *dst.add(i * o.dst_rs + j) = s };
                    }
                }
            }

            /// Steps `k0..k1` for every row of one block of `V` vectors of
            /// columns, `MR` rows at a time.
            #[target_feature(enable = $feature)]
            unsafe fn rows<const V: usize>(
                o: &Operands,
                k0: usize,
                k1: usize,
                dst: *mut f32,
                lhs: *const f32,
                rhs: *const f32,
            ) {
                let mut i = 0;
                while i + MR <= o.m {
                    unsafe { tile::<MR, V>(o, k0, k1, dst.add(i * o.dst_rs), lhs.add(i * o.lhs_rs), rhs) };
                    i += MR;
                }
                let (d, l) = unsafe { (dst.add(i * o.dst_rs), lhs.add(i * o.lhs_rs)) };
                match o.m - i {
                    1 => unsafe { tile::<1, V>(o, k0, k1, d, l, rhs) },
                    2 => unsafe { tile::<2, V>(o, k0, k1, d, l, rhs) },
                    3 => unsafe { tile::<3, V>(o, k0, k1, d, l, rhs) },
                    4 => unsafe { tile::<4, V>(o, k0, k1, d, l, rhs) },
                    5 => unsafe { tile::<5, V>(o, k0, k1, d, l, rhs) },
                    6 => unsafe { tile::<6, V>(o, k0, k1, d, l, rhs) },
                    7 => unsafe { tile::<7, V>(o, k0, k1, d, l, rhs) },
                    _ => {}
                }
            }

            /// `R x V` vectors of outputs in registers: the partial sums
            /// of the steps before `k0` (none when `k0` is 0) plus steps
            /// `k0..k1`, stored back.
            #[target_feature(enable = $feature)]
            unsafe fn tile<const R: usize, const V: usize>(
                o: &Operands,
                k0: usize,
                k1: usize,
                dst: *mut f32,
                lhs: *const f32,
                rhs: *const f32,
            ) {
                let mut acc: [[$v; V]; R] = [[$zero(); V]; R];
                if k0 > 0 {
                    for (r, accr) in acc.iter_mut().enumerate() {
                        for (v, accv) in accr.iter_mut().enumerate() {
                            *accv = unsafe { $load(dst.add(r * o.dst_rs + v * $w)) };
                        }
                    }
                }
                for p in k0..k1 {
                    let row = unsafe { rhs.add(p * o.rhs_rs) };
                    let mut b: [$v; V] = [$zero(); V];
                    for (v, bv) in b.iter_mut().enumerate() {
                        *bv = unsafe { $load(row.add(v * $w)) };
                    }
                    for (r, accr) in acc.iter_mut().enumerate() {
                        let a = $set1(unsafe { *lhs.add(r * o.lhs_rs + p * o.lhs_cs) });
                        for (accv, bv) in accr.iter_mut().zip(&b) {
                            *accv = $fma(a, *bv, *accv);
                        }
                    }
                }
                for (r, accr) in acc.iter().enumerate() {
                    for (v, accv) in accr.iter().enumerate() {
                        unsafe { $store(dst.add(r * o.dst_rs + v * $w), *accv) };
                    }
                }
            }
        }

        #[cfg(not(target_arch = "x86_64"))]
        mod $name {
            pub(super) unsafe fn columns(_: &super::Operands, _: usize, _: *mut f32, _: *const f32, _: *const f32) {
                unreachable!("only called where the instruction set was detected")
            }
        }
    };
}

kernels!(
    avx512,
    "avx512f",
    8,
    3,
    __m512,
    16,
    _mm512_setzero_ps,
    _mm512_set1_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_fmadd_ps
);
kernels!(
    avx2,
    "avx2,fma",
    4,
    3,
    __m256,
    8,
    _mm256_setzero_ps,
    _mm256_set1_ps,
    _mm256_loadu_ps,
    _mm256_storeu_ps,
    _mm256_fmadd_ps
);

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32]) -> Vec<f64> {
        let mut c = vec![0.0f64; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] as f64 * b[p * n + j] as f64).sum();
            }
        }
        c
    }

    /// The instruction sets this machine has, widest first.
    fn isas() -> Vec<Isa> {
        match isa() {
            Some(Isa::Avx512) => vec![Isa::Avx512, Isa::Avx2],
            Some(Isa::Avx2) => vec![Isa::Avx2],
            None => vec![],
        }
    }

    /// Every row remainder, column block, single vector, column tail and
    /// contraction stretch, serial and split over tasks, against a naive
    /// f64 loop; a strided (transposed) left operand too; with each
    /// instruction set the machine has.
    #[test]
    fn small_products_agree_with_a_naive_loop() {
        for isa in isas() {
            check_products(isa);
        }
    }

    fn check_products(isa: Isa) {
        for &(m, n, k) in
            &[(2, 1024, 3), (3, 1040, 130), (3, 1081, 17), (5, 1100, 64), (16, 2048, 512), (31, 1051, 9), (32, 1024, 1)]
        {
            let a: Vec<f32> = (0..m * k).map(|x| ((x * 7 % 13) as f32 - 6.0) / 8.0).collect();
            let b: Vec<f32> = (0..k * n).map(|x| ((x * 5 % 11) as f32 - 5.0) / 4.0).collect();
            let want = naive(m, n, k, &a, &b);
            // The left operand column-major too: lhs[i, p] at p * m + i.
            let at: Vec<f32> = (0..k * m).map(|x| a[(x % m) * k + x / m]).collect();
            for parallel in [false, true] {
                for (lhs, rs, cs) in [(&a, k, 1), (&at, 1, m)] {
                    let mut c = vec![f32::NAN; m * n];
                    // SAFETY: the views cover exactly the vectors.
                    let took = unsafe {
                        product_with(isa, m, n, k, c.as_mut_ptr(), n, lhs.as_ptr(), rs, cs, b.as_ptr(), n, parallel)
                    };
                    assert!(took, "{isa:?} {m}x{n}x{k}");
                    for (x, (got, want)) in c.iter().zip(&want).enumerate() {
                        assert!(
                            (*got as f64 - want).abs() <= 1e-4 * (1.0 + want.abs()),
                            "{isa:?} {m}x{n}x{k} [{x}]: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn other_shapes_are_left_to_gemm() {
        let mut c = [0.0f32; 64];
        let a = [1.0f32; 64];
        let n = MIN_COLUMNS;
        // SAFETY: nothing is read or written when false.
        unsafe {
            assert!(!product(1, n, 4, c.as_mut_ptr(), n, a.as_ptr(), 4, 1, a.as_ptr(), n, false));
            assert!(!product(MAX_ROWS + 1, n, 1, c.as_mut_ptr(), n, a.as_ptr(), 1, 1, a.as_ptr(), n, false));
            assert!(!product(2, n, 0, c.as_mut_ptr(), n, a.as_ptr(), 1, 1, a.as_ptr(), n, false));
            assert!(!product(2, n - 1, 1, c.as_mut_ptr(), n, a.as_ptr(), 1, 1, a.as_ptr(), n, false));
        }
    }
}
