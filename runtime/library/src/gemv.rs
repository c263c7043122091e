//! Matrix-vector products (`m == 1` or `n == 1`: a decoder's every dot),
//! which the `gemm` crate runs on one thread at half the memory bandwidth.
//! They are bandwidth-bound: the matrix is streamed once, along its
//! contiguous dimension, split over the rayon pool.
//!
//! - The matrix contiguous along the output (`y[j] += v[k] * a[k, j]`):
//!   each task streams whole rows of its own range of k, accumulating them
//!   in order four at a time, into its own partial sums; the partials are
//!   added in task order.
//! - The matrix contiguous along the contraction (`y[j] = a[j, :] . v`):
//!   each task owns a block of outputs, each a dot product over 16 partial
//!   sums (vector lanes), added pairwise at the end.

use crate::matmul::SendPtr;
use rayon::prelude::*;
use std::ops::{Add, Mul};

/// Element types with a matrix-vector kernel.
pub(crate) trait Element: Copy + Send + Sync + Add<Output = Self> + Mul<Output = Self> + 'static {
    const ZERO: Self;
}

impl Element for f32 {
    const ZERO: Self = 0.0;
}

impl Element for f64 {
    const ZERO: Self = 0.0;
}

/// Lanes of partial sums of the dot-product form.
const LANES: usize = 16;

/// A strided vector or matrix operand.
#[derive(Clone, Copy)]
pub(crate) struct Strided<T> {
    pub ptr: *const T,
    /// Element stride along the contraction (k).
    pub k: usize,
    /// Element stride along the outputs (j); unused for the vector.
    pub j: usize,
}
// SAFETY: operands are only read, by tasks that share them.
unsafe impl<T: Sync> Send for Strided<T> {}
unsafe impl<T: Sync> Sync for Strided<T> {}

/// `y[j * ys] = sum_k v[k] * a[k, j]` for `j < outputs`: returns false
/// (and does nothing) when neither of the matrix's strides is 1.
///
/// # Safety
/// Every addressed element is inside its allocation; `y` does not overlap
/// the operands.
pub(crate) unsafe fn product<T: Element>(
    outputs: usize,
    k: usize,
    y: *mut T,
    ys: usize,
    v: Strided<T>,
    a: Strided<T>,
    parallel: bool,
) -> bool {
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    let y = SendPtr(y);
    // Detected once per product, not per output or task.
    let wide = wide();
    if a.j == 1 && outputs > 1 {
        // Each task streams whole rows of its own range of k into its own
        // partial sums; the partials are added in task order.
        let tasks = if threads > 1 { threads.min(k / 64).max(1) } else { 1 };
        let per = k.div_ceil(tasks);
        let partial = |t: usize| {
            let rows = t * per..((t + 1) * per).min(k);
            // SAFETY: as the caller promised.
            unsafe {
                if wide {
                    axpy_rows_wide(rows, outputs, v, a)
                } else {
                    axpy_rows(rows, outputs, v, a)
                }
            }
        };
        let partials: Vec<Vec<T>> =
            if tasks > 1 { (0..tasks).into_par_iter().map(partial).collect() } else { vec![partial(0)] };
        let mut sums = partials.into_iter();
        let mut total = sums.next().expect("one task at least");
        for p in sums {
            total.iter_mut().zip(p).for_each(|(s, x)| *s = *s + x);
        }
        for (j, s) in total.into_iter().enumerate() {
            // SAFETY: as the caller promised.
            unsafe { *y.get().add(j * ys) = s };
        }
        true
    } else if a.k == 1 {
        let block = outputs.div_ceil(threads * 4).max(1);
        let run = |start: usize| {
            // Whole operands, not their pointer fields (which are not Sync).
            let (v, a) = (v, a);
            for j in start..(start + block).min(outputs) {
                // SAFETY: as the caller promised.
                unsafe {
                    let row = a.ptr.add(j * a.j);
                    *y.get().add(j * ys) = if wide { dot_wide(k, row, v.ptr, v.k) } else { dot(k, row, v.ptr, v.k) };
                }
            }
        };
        let starts: Vec<usize> = (0..outputs).step_by(block).collect();
        if threads > 1 && starts.len() > 1 {
            starts.into_par_iter().for_each(run);
        } else {
            starts.into_iter().for_each(run);
        }
        true
    } else {
        false
    }
}

/// Whether the CPU has AVX2: then the kernels below are compiled for it
/// too (`*_wide`), with 8 f32 lanes per instruction instead of SSE2's 4.
/// The arithmetic is the same (no fused multiply-adds), so are the
/// results. The matrix streams from memory either way, but with SSE2 the
/// arithmetic of a 1024 x 2816 product took about half as long as the
/// stream and did not fully overlap it.
fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// [`axpy_rows`] compiled for AVX2 (only called where [`wide`]).
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "avx2"))]
unsafe fn axpy_rows_wide<T: Element>(
    rows: std::ops::Range<usize>,
    outputs: usize,
    v: Strided<T>,
    a: Strided<T>,
) -> Vec<T> {
    unsafe { axpy_rows(rows, outputs, v, a) }
}

/// [`dot`] compiled for AVX2 (only called where [`wide`]).
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "avx2"))]
unsafe fn dot_wide<T: Element>(k: usize, row: *const T, v: *const T, vk: usize) -> T {
    unsafe { dot(k, row, v, vk) }
}

/// `sum_{kk in rows} v[kk] * a[kk, :]`, rows accumulated in order, four at
/// a time.
#[inline(always)]
unsafe fn axpy_rows<T: Element>(rows: std::ops::Range<usize>, outputs: usize, v: Strided<T>, a: Strided<T>) -> Vec<T> {
    let mut acc = vec![T::ZERO; outputs];
    let row = |kk: usize| unsafe { std::slice::from_raw_parts(a.ptr.add(kk * a.k), outputs) };
    let coef = |kk: usize| unsafe { *v.ptr.add(kk * v.k) };
    let mut kk = rows.start;
    while kk + 4 <= rows.end {
        let (r0, r1, r2, r3) = (row(kk), row(kk + 1), row(kk + 2), row(kk + 3));
        let (c0, c1, c2, c3) = (coef(kk), coef(kk + 1), coef(kk + 2), coef(kk + 3));
        for (i, s) in acc.iter_mut().enumerate() {
            *s = (((*s + c0 * r0[i]) + c1 * r1[i]) + c2 * r2[i]) + c3 * r3[i];
        }
        kk += 4;
    }
    while kk < rows.end {
        let (r, c) = (row(kk), coef(kk));
        for (s, &x) in acc.iter_mut().zip(r) {
            *s = *s + c * x;
        }
        kk += 1;
    }
    acc
}

/// `sum_k row[k] * v[k * vk]` over `LANES` partial sums.
#[inline(always)]
unsafe fn dot<T: Element>(k: usize, row: *const T, v: *const T, vk: usize) -> T {
    let row = unsafe { std::slice::from_raw_parts(row, k) };
    let mut lanes = [T::ZERO; LANES];
    let full = k - k % LANES;
    if vk == 1 {
        let v = unsafe { std::slice::from_raw_parts(v, k) };
        for (r, x) in row[..full].chunks_exact(LANES).zip(v[..full].chunks_exact(LANES)) {
            for l in 0..LANES {
                lanes[l] = lanes[l] + r[l] * x[l];
            }
        }
    } else {
        for (c, r) in row[..full].chunks_exact(LANES).enumerate() {
            for l in 0..LANES {
                lanes[l] = lanes[l] + r[l] * unsafe { *v.add((c * LANES + l) * vk) };
            }
        }
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            lanes[l] = lanes[l] + lanes[l + width];
        }
    }
    let mut sum = lanes[0];
    for (kk, &r) in row.iter().enumerate().skip(full) {
        sum = sum + r * unsafe { *v.add(kk * vk) };
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(outputs: usize, k: usize, v: &[f64], a: &[f64], ak: usize, aj: usize) -> Vec<f64> {
        (0..outputs).map(|j| (0..k).map(|kk| v[kk] * a[kk * ak + j * aj]).sum()).collect()
    }

    #[test]
    fn both_forms_agree_with_a_naive_loop() {
        for (outputs, k) in [(1, 1), (3, 5), (1500, 37), (2049, 70), (7, 1000)] {
            let v: Vec<f64> = (0..k).map(|i| ((i * 37) % 11) as f64 - 5.0).collect();
            let a: Vec<f64> = (0..outputs * k).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
            for (ak, aj) in [(outputs, 1), (1, k)] {
                let want = naive(outputs, k, &v, &a, ak, aj);
                for parallel in [false, true] {
                    let mut y = vec![f64::NAN; outputs * 2];
                    let vs = Strided { ptr: v.as_ptr(), k: 1, j: 0 };
                    let am = Strided { ptr: a.as_ptr(), k: ak, j: aj };
                    // SAFETY: the strides address exactly the vectors above.
                    assert!(unsafe { product(outputs, k, y.as_mut_ptr(), 2, vs, am, parallel) });
                    let got: Vec<f64> = y.iter().step_by(2).copied().collect();
                    assert_eq!(got, want, "outputs {outputs} k {k} strides ({ak}, {aj}) parallel {parallel}");
                }
            }
        }
        // Neither stride contiguous: left to gemm.
        let a = [0.0f64; 4];
        let s = Strided { ptr: a.as_ptr(), k: 2, j: 2 };
        assert!(!unsafe { product(1, 1, [0.0f64].as_mut_ptr(), 1, s, s, false) });
    }

    /// The AVX2 copies compute exactly what the baseline ones do (the same
    /// operations in the same order), bit for bit, on values whose sums
    /// round.
    #[test]
    fn wide_copies_match_the_baseline_bit_for_bit() {
        if !wide() {
            return;
        }
        let (outputs, k) = (1037, 203);
        let v: Vec<f32> = (0..k).map(|i| ((i * 37) % 101) as f32 / 7.0 - 6.3).collect();
        let a: Vec<f32> = (0..outputs * k).map(|i| ((i * 7919) % 1009) as f32 / 13.0 - 38.1).collect();
        let (vs, am) = (Strided { ptr: v.as_ptr(), k: 1, j: 0 }, Strided { ptr: a.as_ptr(), k: outputs, j: 1 });
        // SAFETY: rows of `outputs` elements, `k` of them, inside `a`.
        let (base, wide_) = unsafe { (axpy_rows(0..k, outputs, vs, am), axpy_rows_wide(0..k, outputs, vs, am)) };
        assert!(base.iter().zip(&wide_).all(|(x, y)| x.to_bits() == y.to_bits()), "axpy rows");
        for j in [0, 1, 500, outputs - 1] {
            // SAFETY: row j of `k` elements of the transposed reading.
            let (x, y) = unsafe {
                (dot(k, a.as_ptr().add(j * k), v.as_ptr(), 1), dot_wide(k, a.as_ptr().add(j * k), v.as_ptr(), 1))
            };
            assert_eq!(x.to_bits(), y.to_bits(), "dot {j}");
        }
    }
}
