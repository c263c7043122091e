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

use crate::matmul::{Packed, Product, SendPtr};
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
/// bandwidth). Each of the `KC` rows is its own stream, a page or more
/// from the next; 32 streams are followed where 64 were not: an LSTM
/// step's `[16, 512] x [512, 2048]` took 0.16-0.19 ms instead of
/// 0.21-0.24 ms (16 and 128 were slower than both).
const KC: usize = 32;

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

/// The product `p` if it is one this path takes (the shape above, `rhs`
/// and `dst` contiguous along their rows), its columns split over the
/// rayon pool where `parallel`; false (nothing written) otherwise.
///
/// # Safety
/// As [`crate::matmul::Scalar::product`].
pub(crate) unsafe fn product(p: &Product<f32>, parallel: bool) -> bool {
    match isa() {
        // SAFETY: the caller's; `isa` was detected.
        Some(isa) => unsafe { product_with(isa, p, parallel) },
        None => false,
    }
}

/// [`product`] with the kernels of `isa`, which the CPU must have.
///
/// # Safety
/// As [`product`].
unsafe fn product_with(isa: Isa, p: &Product<f32>, parallel: bool) -> bool {
    let Product { m, n, k, .. } = *p;
    if !(2..=MAX_ROWS).contains(&m) || n < MIN_COLUMNS || k == 0 || p.rhs_cs != 1 || p.dst_cs != 1 {
        return false;
    }
    let width = match isa {
        Isa::Avx512 => 16,
        Isa::Avx2 => 8,
    };
    // The left operand k-major (`[k, m]`), so that a step's broadcasts
    // read one or two cache lines (its rows are usually far apart).
    let mut scratch = Packed::new(m * k * std::mem::size_of::<f32>());
    let lhs = scratch.as_mut_ptr::<f32>();
    for s in 0..k {
        for i in 0..m {
            // SAFETY: i < m and s < k address the caller's left operand
            // and the scratch's m * k elements.
            unsafe { lhs.add(s * m + i).write(*p.lhs.add(i * p.lhs_rs + s * p.lhs_cs)) };
        }
    }
    let ops = Operands { m, k, dst_rs: p.dst_rs, rhs_rs: p.rhs_rs };
    let (d, l, r) = (SendPtr(p.dst), SendPtr(lhs), SendPtr(p.rhs as *mut f32));
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
    let tasks = if parallel { rayon::current_num_threads().min(vectors) } else { 1 };
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

/// The shape and strides of one product, its left operand `[k, m]`
/// contiguous.
struct Operands {
    m: usize,
    k: usize,
    dst_rs: usize,
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
                            unsafe { s = (*lhs.add(p * o.m + i)).mul_add(*rhs.add(p * o.rhs_rs + j), s) };
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
                    unsafe { tile::<MR, V>(o, k0, k1, dst.add(i * o.dst_rs), lhs.add(i), rhs) };
                    i += MR;
                }
                let (d, l) = unsafe { (dst.add(i * o.dst_rs), lhs.add(i)) };
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
                        let a = $set1(unsafe { *lhs.add(p * o.m + r) });
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
                    let p = Product {
                        lhs: lhs.as_ptr(),
                        lhs_rs: rs,
                        lhs_cs: cs,
                        ..row_major(m, n, k, c.as_mut_ptr(), b.as_ptr())
                    };
                    let took = unsafe { product_with(isa, &p, parallel) };
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

    /// Every operand row-major, the left one `[m, k]` inside `b`'s
    /// allocation too (for shapes that are never read).
    fn row_major(m: usize, n: usize, k: usize, dst: *mut f32, b: *const f32) -> Product<f32> {
        Product { m, n, k, dst, dst_rs: n, dst_cs: 1, lhs: b, lhs_rs: k, lhs_cs: 1, rhs: b, rhs_rs: n, rhs_cs: 1 }
    }

    #[test]
    fn other_shapes_are_left_to_gemm() {
        let mut c = [0.0f32; 64];
        let a = [1.0f32; 64];
        let (n, d) = (MIN_COLUMNS, c.as_mut_ptr());
        // SAFETY: nothing is read or written when false.
        unsafe {
            assert!(!product(&row_major(1, n, 4, d, a.as_ptr()), false));
            assert!(!product(&row_major(MAX_ROWS + 1, n, 1, d, a.as_ptr()), false));
            assert!(!product(&row_major(2, n, 0, d, a.as_ptr()), false));
            assert!(!product(&row_major(2, n - 1, 1, d, a.as_ptr()), false));
            assert!(!product(&Product { rhs_cs: 2, ..row_major(2, n, 1, d, a.as_ptr()) }, false));
            assert!(!product(&Product { dst_cs: 2, ..row_major(2, n, 1, d, a.as_ptr()) }, false));
        }
    }
}
