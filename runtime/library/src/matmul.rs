//! Batched strided matrix products, the kernel under `dot` and
//! `convolution`: `dst[b] = lhs[b] x rhs[b]` for `[m, k] x [k, n]`
//! matrices addressed by (batch, row, column) strides in elements.
//!
//! - f32, f64, c64 and c128 go to the `gemm` crate (AVX-512 kernels chosen
//!   at run time) straight on the strided operands, so transposed and
//!   batched operands need no copy. Large products run gemm on the current
//!   rayon pool; a batch of small products, or a batch that splits evenly
//!   over the threads (attention's heads), runs one product per task
//!   instead (gemm's own threading does not pay off on small matrices:
//!   ViT's `[197, 64] x [64, 197]` heads ran at a quarter of the machine's
//!   rate).
//! - i32 and i64 use an exact wrapping kernel (rows of the result
//!   accumulated over contiguous rows of the right operand), over rows in
//!   parallel when the product is large.
//! - A contraction over zero elements writes zeros.

use num_complex::{Complex32, Complex64};
use rayon::prelude::*;

/// A read-only strided batch of matrices inside `data`.
#[derive(Clone, Copy)]
pub(crate) struct Mat<'a, T> {
    pub data: &'a [T],
    pub batch: usize,
    pub row: usize,
    pub col: usize,
}

/// A writable strided batch of matrices inside `data`.
pub(crate) struct MatMut<'a, T> {
    pub data: &'a mut [T],
    pub batch: usize,
    pub row: usize,
    pub col: usize,
}

/// Products at or above this many multiply-adds use every thread (below,
/// waking the pool costs about what the second thread saves).
const PARALLEL_WORK: usize = 1 << 19;

/// A pointer that may cross threads: tasks write disjoint elements.
#[derive(Clone, Copy)]
pub(crate) struct SendPtr<T>(pub *mut T);
// SAFETY: only used to hand disjoint regions of one buffer to tasks.
unsafe impl<T> Send for SendPtr<T> {}
unsafe impl<T> Sync for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The pointer (a method, so closures capture the whole `SendPtr`).
    #[inline(always)]
    pub fn get(self) -> *mut T {
        self.0
    }
}

/// One product `dst = lhs x rhs` of `[m, k] x [k, n]` matrices, each
/// addressed by its first element and its (row, column) strides in
/// elements.
#[derive(Clone, Copy)]
pub(crate) struct Product<T> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub dst: *mut T,
    pub dst_rs: usize,
    pub dst_cs: usize,
    pub lhs: *const T,
    pub lhs_rs: usize,
    pub lhs_cs: usize,
    pub rhs: *const T,
    pub rhs_rs: usize,
    pub rhs_cs: usize,
}
// SAFETY: a product is handed to tasks that read the operands and write
// disjoint parts of `dst`.
unsafe impl<T: Send> Send for Product<T> {}
unsafe impl<T: Sync> Sync for Product<T> {}

/// Element types the product kernel multiplies.
pub(crate) trait Scalar: Copy + Send + Sync + 'static {
    const ZERO: Self;
    /// One product (k > 0); `parallel` lets it use every thread.
    ///
    /// # Safety
    /// Every addressed element is inside its allocation and `dst` does not
    /// overlap the operands.
    unsafe fn product(p: Product<Self>, parallel: bool);
}

macro_rules! gemm_scalar {
    ($t:ty, $zero:expr, $one:expr) => {
        impl Scalar for $t {
            const ZERO: Self = $zero;
            unsafe fn product(p: Product<Self>, parallel: bool) {
                if (p.m == 1 || p.n == 1) && <$t as Gemv>::gemv(&p, parallel) {
                    return;
                }
                let par = if parallel {
                    gemm::Parallelism::Rayon(rayon::current_num_threads())
                } else {
                    gemm::Parallelism::None
                };
                // gemm packs a column-major right operand (`x @ W^T`, the
                // attention scores, every backward product) element by
                // element, 1.5-2.5x slower than a row-major one: a tiled
                // transpose into row-major first costs less than that
                // (while the copy stays in the caches).
                let pack =
                    p.rhs_rs == 1 && p.rhs_cs != 1 && p.n > 1 && p.k * p.n * std::mem::size_of::<Self>() <= PACK_MAX;
                let packed = pack.then(|| pack_row_major(p.rhs, p.k, p.n, p.rhs_cs, parallel));
                let p = match &packed {
                    Some(b) => Product { rhs: b.as_ptr::<Self>(), rhs_rs: p.n, rhs_cs: 1, ..p },
                    None => p,
                };
                if <$t as Skinny>::skinny(&p, parallel) {
                    return;
                }
                let Product { m, n, k, dst, dst_rs, dst_cs, lhs, lhs_rs, lhs_cs, rhs, rhs_rs, rhs_cs } = p;
                // dst := 1 * lhs x rhs (read_dst false: dst is not read).
                gemm::gemm(
                    m,
                    n,
                    k,
                    dst,
                    dst_cs as isize,
                    dst_rs as isize,
                    false,
                    lhs,
                    lhs_cs as isize,
                    lhs_rs as isize,
                    rhs,
                    rhs_cs as isize,
                    rhs_rs as isize,
                    $zero,
                    $one,
                    false,
                    false,
                    false,
                    par,
                )
            }
        }
    };
}

/// A packed copy of an operand in this thread's scratch memory, given back
/// when dropped so that the next product reuses it without page faults.
pub(crate) struct Packed(Vec<u64>);

/// Right operands up to this size are packed (see `product`); beyond it
/// the copy leaves the caches and costs as much as gemm's own packing
/// (a 512 x 32128 embedding: 14 ms to transpose, 13 ms saved). It also
/// bounds the scratch memory a thread keeps.
const PACK_MAX: usize = 16 << 20;

thread_local! {
    /// Taken while in use: a product that rayon runs on this thread while
    /// another waits (work stealing) finds it empty and allocates its own.
    static SCRATCH: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Packed {
    /// At least `bytes` of scratch, uninitialized: written through
    /// [`Packed::as_mut_ptr`] before it is read.
    pub(crate) fn new(bytes: usize) -> Packed {
        let mut v = SCRATCH.with(|s| s.take());
        let words = bytes.div_ceil(8);
        if v.capacity() < words {
            v = Vec::with_capacity(words);
        }
        Packed(v)
    }

    pub(crate) fn as_ptr<T>(&self) -> *const T {
        self.0.as_ptr() as *const T
    }

    pub(crate) fn as_mut_ptr<T>(&mut self) -> *mut T {
        self.0.as_mut_ptr() as *mut T
    }
}

impl Drop for Packed {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        SCRATCH.with(|s| {
            let old = s.take();
            s.set(if old.capacity() > v.capacity() { old } else { v });
        });
    }
}

/// The `[k, n]` matrix whose element `(r, c)` is at `src[r + c * col_stride]`
/// (column-major), copied row-major: 64x64 tiles of 8x8 blocks (an AVX2
/// register transpose for 4-byte elements), bands of output rows in
/// parallel.
///
/// # Safety
/// Every addressed element is inside `src`'s allocation; `T` needs at
/// most 8-byte alignment.
unsafe fn pack_row_major<T: Copy + Send + Sync>(
    src: *const T,
    k: usize,
    n: usize,
    col_stride: usize,
    parallel: bool,
) -> Packed {
    const TILE: usize = 64;
    const { assert!(std::mem::align_of::<T>() <= 8) };
    let mut out = Packed::new(k * n * std::mem::size_of::<T>());
    let (dst, src) = (SendPtr(out.as_mut_ptr::<T>()), SendPtr(src as *mut T));
    let avx2 = std::mem::size_of::<T>() == 4 && has_avx2();
    // Output rows r0..r1, every column.
    let band = move |r0: usize, r1: usize| {
        for c0 in (0..n).step_by(TILE) {
            let c1 = (c0 + TILE).min(n);
            for r in (r0..r1).step_by(8) {
                for c in (c0..c1).step_by(8) {
                    let (s, d) = (src.get().add(r + c * col_stride), dst.get().add(r * n + c));
                    if avx2 && r + 8 <= r1 && c + 8 <= c1 {
                        // SAFETY: a whole 8x8 block inside both matrices;
                        // 4-byte elements move bit for bit as f32 lanes.
                        unsafe { transpose_8x8_f32(s as *const f32, col_stride, d as *mut f32, n) };
                    } else {
                        for cc in 0..(c1 - c).min(8) {
                            for rr in 0..(r1 - r).min(8) {
                                // SAFETY: r + rr < k and c + cc < n; bands
                                // write disjoint rows of the output.
                                unsafe { d.add(rr * n + cc).write(*s.add(rr + cc * col_stride)) };
                            }
                        }
                    }
                }
            }
        }
    };
    let bands = k.div_ceil(TILE);
    if parallel && k * n >= 1 << 16 {
        (0..bands).into_par_iter().for_each(|b| band(b * TILE, ((b + 1) * TILE).min(k)));
    } else {
        (0..bands).for_each(|b| band(b * TILE, ((b + 1) * TILE).min(k)));
    }
    out
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// `dst[j * dst_stride + i] = src[j + i * src_stride]` for i, j < 8.
///
/// # Safety
/// Both 8x8 blocks are inside their allocations; only called where AVX2
/// was detected.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn transpose_8x8_f32(src: *const f32, src_stride: usize, dst: *mut f32, dst_stride: usize) {
    use std::arch::x86_64::*;
    let row = |i: usize| unsafe { _mm256_loadu_ps(src.add(i * src_stride)) };
    let (r0, r1, r2, r3, r4, r5, r6, r7) = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7));
    let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
    let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
    let (t4, t5) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
    let (t6, t7) = (_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7));
    let (u0, u1) = (_mm256_shuffle_ps::<0x44>(t0, t2), _mm256_shuffle_ps::<0xEE>(t0, t2));
    let (u2, u3) = (_mm256_shuffle_ps::<0x44>(t1, t3), _mm256_shuffle_ps::<0xEE>(t1, t3));
    let (u4, u5) = (_mm256_shuffle_ps::<0x44>(t4, t6), _mm256_shuffle_ps::<0xEE>(t4, t6));
    let (u6, u7) = (_mm256_shuffle_ps::<0x44>(t5, t7), _mm256_shuffle_ps::<0xEE>(t5, t7));
    let out = [
        _mm256_permute2f128_ps::<0x20>(u0, u4),
        _mm256_permute2f128_ps::<0x20>(u1, u5),
        _mm256_permute2f128_ps::<0x20>(u2, u6),
        _mm256_permute2f128_ps::<0x20>(u3, u7),
        _mm256_permute2f128_ps::<0x31>(u0, u4),
        _mm256_permute2f128_ps::<0x31>(u1, u5),
        _mm256_permute2f128_ps::<0x31>(u2, u6),
        _mm256_permute2f128_ps::<0x31>(u3, u7),
    ];
    for (j, v) in out.into_iter().enumerate() {
        unsafe { _mm256_storeu_ps(dst.add(j * dst_stride), v) };
    }
}

#[cfg(not(target_arch = "x86_64"))]
unsafe fn transpose_8x8_f32(_: *const f32, _: usize, _: *mut f32, _: usize) {
    unreachable!("only called where AVX2 was detected")
}

/// The matrix-vector path ([`crate::gemv`]) where the element type has one.
trait Gemv: Sized {
    /// A product with `m == 1` or `n == 1`; false when it is left to gemm.
    ///
    /// # Safety
    /// As [`Scalar::product`].
    unsafe fn gemv(_p: &Product<Self>, _parallel: bool) -> bool {
        false
    }
}

impl Gemv for Complex32 {}
impl Gemv for Complex64 {}

macro_rules! real_gemv {
    ($t:ty) => {
        impl Gemv for $t {
            unsafe fn gemv(p: &Product<Self>, parallel: bool) -> bool {
                use crate::gemv::{product, Strided};
                if p.m == 1 {
                    // y[j] = sum_k lhs[0, k] * rhs[k, j]
                    let v = Strided { ptr: p.lhs, k: p.lhs_cs, j: 0 };
                    product(p.n, p.k, p.dst, p.dst_cs, v, Strided { ptr: p.rhs, k: p.rhs_rs, j: p.rhs_cs }, parallel)
                } else {
                    // y[i] = sum_k rhs[k, 0] * lhs[i, k]
                    let v = Strided { ptr: p.rhs, k: p.rhs_rs, j: 0 };
                    product(p.m, p.k, p.dst, p.dst_rs, v, Strided { ptr: p.lhs, k: p.lhs_cs, j: p.lhs_rs }, parallel)
                }
            }
        }
    };
}

/// The few-rows path ([`crate::skinny`]) where the element type has one.
trait Skinny: Sized {
    /// The product, where it is one that path takes; false when it is
    /// left to gemm.
    ///
    /// # Safety
    /// As [`Scalar::product`].
    unsafe fn skinny(_p: &Product<Self>, _parallel: bool) -> bool {
        false
    }
}

impl Skinny for f32 {
    unsafe fn skinny(p: &Product<f32>, parallel: bool) -> bool {
        // SAFETY: the caller's.
        unsafe { crate::skinny::product(p, parallel) }
    }
}
impl Skinny for f64 {}
impl Skinny for Complex32 {}
impl Skinny for Complex64 {}

real_gemv!(f32);
real_gemv!(f64);

gemm_scalar!(f32, 0.0, 1.0);
gemm_scalar!(f64, 0.0, 1.0);
gemm_scalar!(Complex32, Complex32::new(0.0, 0.0), Complex32::new(1.0, 0.0));
gemm_scalar!(Complex64, Complex64::new(0.0, 0.0), Complex64::new(1.0, 0.0));

/// Wrapping integer accumulators.
pub(crate) trait WrappingInt: Copy + Send + Sync + 'static + PartialEq {
    const ZERO: Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
}

impl WrappingInt for i32 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
}

impl WrappingInt for i64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
}

/// Rows `rows` of the integer product; `b` is the right operand packed
/// row-major `[k, n]`.
///
/// # Safety
/// As [`Scalar::product`].
unsafe fn int_rows<T: WrappingInt>(rows: std::ops::Range<usize>, p: &Product<T>, b: &[T]) {
    let Product { n, k, dst, dst_rs, dst_cs, lhs, lhs_rs, lhs_cs, .. } = *p;
    let mut acc = vec![T::ZERO; n];
    for i in rows {
        acc.iter_mut().for_each(|v| *v = T::ZERO);
        for kk in 0..k {
            let a = *lhs.add(i * lhs_rs + kk * lhs_cs);
            if a == T::ZERO {
                continue;
            }
            let brow = &b[kk * n..(kk + 1) * n];
            for (c, &bv) in acc.iter_mut().zip(brow) {
                *c = c.mul_add(a, bv);
            }
        }
        for (j, &v) in acc.iter().enumerate() {
            *dst.add(i * dst_rs + j * dst_cs) = v;
        }
    }
}

macro_rules! int_scalar {
    ($t:ty) => {
        impl Scalar for $t {
            const ZERO: Self = 0;
            unsafe fn product(p: Product<Self>, parallel: bool) {
                let Product { m, n, k, rhs, rhs_rs, rhs_cs, .. } = p;
                // Rows of the right operand contiguous, for the inner loop.
                let mut b = Vec::with_capacity(k * n);
                for kk in 0..k {
                    b.extend((0..n).map(|j| *rhs.add(kk * rhs_rs + j * rhs_cs)));
                }
                if parallel && m > 1 {
                    let per = m.div_ceil(rayon::current_num_threads() * 4).max(1);
                    (0..m.div_ceil(per)).into_par_iter().for_each(|c| {
                        let rows = c * per..((c + 1) * per).min(m);
                        // SAFETY: tasks write disjoint rows of dst.
                        unsafe { int_rows(rows, &p, &b) }
                    });
                } else {
                    int_rows(0..m, &p, &b);
                }
            }
        }
    };
}

int_scalar!(i32);
int_scalar!(i64);

/// Largest element offset a strided batch addresses (+1), for bounds checks.
fn extent(batch: usize, rows: usize, cols: usize, bs: usize, rs: usize, cs: usize) -> usize {
    if batch == 0 || rows == 0 || cols == 0 {
        return 0;
    }
    (batch - 1) * bs + (rows - 1) * rs + (cols - 1) * cs + 1
}

/// `dst[b] = lhs[b] x rhs[b]` for `batch` products of `[m, k] x [k, n]`.
///
/// Panics if a view addresses elements outside its slice (callers build
/// the views from checked shapes).
pub(crate) fn batched<T: Scalar>(batch: usize, m: usize, n: usize, k: usize, dst: MatMut<T>, lhs: Mat<T>, rhs: Mat<T>) {
    assert!(extent(batch, m, n, dst.batch, dst.row, dst.col) <= dst.data.len(), "matmul: dst out of bounds");
    if batch == 0 || m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        for b in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    dst.data[b * dst.batch + i * dst.row + j * dst.col] = T::ZERO;
                }
            }
        }
        return;
    }
    assert!(extent(batch, m, k, lhs.batch, lhs.row, lhs.col) <= lhs.data.len(), "matmul: lhs out of bounds");
    assert!(extent(batch, k, n, rhs.batch, rhs.row, rhs.col) <= rhs.data.len(), "matmul: rhs out of bounds");
    let work = m * n * k;
    let threads = rayon::current_num_threads();
    let d = SendPtr(dst.data.as_mut_ptr());
    let (l, r) = (SendPtr(lhs.data.as_ptr() as *mut T), SendPtr(rhs.data.as_ptr() as *mut T));
    // SAFETY: the extents were checked above; products of different batch
    // elements write disjoint parts of dst (dst is a fresh output, so it
    // does not overlap the operands).
    let one = move |b: usize, parallel: bool| unsafe {
        T::product(
            Product {
                m,
                n,
                k,
                dst: d.get().add(b * dst.batch),
                dst_rs: dst.row,
                dst_cs: dst.col,
                lhs: l.get().add(b * lhs.batch),
                lhs_rs: lhs.row,
                lhs_cs: lhs.col,
                rhs: r.get().add(b * rhs.batch),
                rhs_rs: rhs.row,
                rhs_cs: rhs.col,
            },
            parallel,
        )
    };
    // One product per task where the batch splits evenly over the threads
    // (or into enough tasks that the last round hardly matters), or where
    // the products are too small for gemm's own threading to pay off.
    let even = batch.is_multiple_of(threads) || batch >= 4 * threads;
    if batch > 1 && threads > 1 && (even || work < (1 << 21)) && batch * work >= PARALLEL_WORK {
        (0..batch).into_par_iter().for_each(|b| one(b, false));
    } else {
        for b in 0..batch {
            one(b, work >= PARALLEL_WORK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row-major result and left operand; the right operand's strides.
    fn contiguous<T>(
        m: usize,
        n: usize,
        k: usize,
        dst: *mut T,
        lhs: *const T,
        rhs: *const T,
        (rhs_rs, rhs_cs): (usize, usize),
    ) -> Product<T> {
        Product { m, n, k, dst, dst_rs: n, dst_cs: 1, lhs, lhs_rs: k, lhs_cs: 1, rhs, rhs_rs, rhs_cs }
    }

    fn naive(m: usize, n: usize, k: usize, a: &[i64], b: &[i64]) -> Vec<i64> {
        let mut c = vec![0i64; m * n];
        for i in 0..m {
            for j in 0..n {
                for kk in 0..k {
                    c[i * n + j] = c[i * n + j].wrapping_add(a[i * k + kk].wrapping_mul(b[kk * n + j]));
                }
            }
        }
        c
    }

    #[test]
    fn column_major_right_operands_are_packed_exactly() {
        // Whole 8x8 blocks (the AVX2 transpose), ragged edges, and a
        // column stride past the rows (a slice of a wider matrix).
        for (k, n, stride) in [(70, 45, 73), (64, 128, 64), (5, 3, 9), (130, 9, 130)] {
            let src: Vec<f32> = (0..n * stride).map(|i| i as f32 * 0.5 - 7.0).collect();
            for parallel in [false, true] {
                let packed = unsafe { pack_row_major(src.as_ptr(), k, n, stride, parallel) };
                let got = unsafe { std::slice::from_raw_parts(packed.as_ptr::<f32>(), k * n) };
                for r in 0..k {
                    for c in 0..n {
                        assert_eq!(got[r * n + c], src[r + c * stride], "k {k} n {n} at ({r}, {c})");
                    }
                }
            }
        }
        // Through the product: x @ W^T against the row-major W.
        let (m, n, k) = (33, 40, 72);
        let a: Vec<f32> = (0..m * k).map(|i| ((i * 37) % 17) as f32 - 8.0).collect();
        let w: Vec<f32> = (0..n * k).map(|i| ((i * 11) % 13) as f32 - 6.0).collect();
        let wt: Vec<f32> = (0..k * n).map(|i| w[(i % n) * k + i / n]).collect();
        let (mut got, mut want) = (vec![0f32; m * n], vec![0f32; m * n]);
        unsafe {
            f32::product(contiguous(m, n, k, got.as_mut_ptr(), a.as_ptr(), w.as_ptr(), (1, k)), true);
            f32::product(contiguous(m, n, k, want.as_mut_ptr(), a.as_ptr(), wt.as_ptr(), (n, 1)), true);
        }
        assert_eq!(got, want);
    }

    #[test]
    fn integer_and_float_products_agree_with_a_naive_loop() {
        let (m, n, k) = (37, 29, 41);
        let a: Vec<i64> = (0..m * k).map(|i| (i as i64 * 7919) % 23 - 11).collect();
        let b: Vec<i64> = (0..k * n).map(|i| (i as i64 * 104729) % 19 - 9).collect();
        let want = naive(m, n, k, &a, &b);
        // Right operand given transposed: [n, k] storage.
        let bt: Vec<i64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        for parallel_work in [false, true] {
            let mut c = vec![0i64; m * n];
            let rhs = Mat { data: &bt, batch: 0, row: 1, col: k };
            let lhs = Mat { data: &a, batch: 0, row: k, col: 1 };
            if parallel_work {
                batched(1, m, n, k, MatMut { data: &mut c, batch: 0, row: n, col: 1 }, lhs, rhs);
            } else {
                unsafe { i64::product(contiguous(m, n, k, c.as_mut_ptr(), a.as_ptr(), bt.as_ptr(), (1, k)), false) };
            }
            assert_eq!(c, want);
        }
        let af: Vec<f64> = a.iter().map(|&x| x as f64).collect();
        let btf: Vec<f64> = bt.iter().map(|&x| x as f64).collect();
        let mut c = vec![0f64; m * n];
        batched(
            1,
            m,
            n,
            k,
            MatMut { data: &mut c, batch: 0, row: n, col: 1 },
            Mat { data: &af, batch: 0, row: k, col: 1 },
            Mat { data: &btf, batch: 0, row: 1, col: k },
        );
        assert_eq!(c, want.iter().map(|&x| x as f64).collect::<Vec<_>>());
    }

    #[test]
    fn empty_contractions_write_zeros() {
        let mut c = vec![7f32; 6];
        batched(
            2,
            1,
            3,
            0,
            MatMut { data: &mut c, batch: 3, row: 3, col: 1 },
            Mat { data: &[], batch: 0, row: 0, col: 0 },
            Mat { data: &[], batch: 0, row: 0, col: 0 },
        );
        assert_eq!(c, vec![0f32; 6]);
    }
}
