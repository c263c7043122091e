//! Batched strided matrix products, the kernel under `dot` and
//! `convolution`: `dst[b] = lhs[b] x rhs[b]` for `[m, k] x [k, n]`
//! matrices addressed by (batch, row, column) strides in elements.
//!
//! - f32, f64, c64 and c128 go to the `gemm` crate (AVX-512 kernels chosen
//!   at run time) straight on the strided operands, so transposed and
//!   batched operands need no copy. Large products run gemm on the current
//!   rayon pool; a large batch of small products runs one product per task
//!   instead (gemm's own threading does not pay off on small matrices).
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

/// Products at or above this many multiply-adds use every thread.
const PARALLEL_WORK: usize = 1 << 18;

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

/// Element types the product kernel multiplies.
pub(crate) trait Scalar: Copy + Send + Sync + 'static {
    const ZERO: Self;
    /// One product `dst = lhs x rhs` of `[m, k] x [k, n]` (k > 0) with the
    /// given (row, column) strides; `parallel` lets it use every thread.
    ///
    /// # Safety
    /// Every addressed element is inside its allocation and `dst` does not
    /// overlap the operands.
    #[allow(clippy::too_many_arguments)]
    unsafe fn product(
        m: usize,
        n: usize,
        k: usize,
        dst: *mut Self,
        dst_rs: usize,
        dst_cs: usize,
        lhs: *const Self,
        lhs_rs: usize,
        lhs_cs: usize,
        rhs: *const Self,
        rhs_rs: usize,
        rhs_cs: usize,
        parallel: bool,
    );
}

macro_rules! gemm_scalar {
    ($t:ty, $zero:expr, $one:expr) => {
        impl Scalar for $t {
            const ZERO: Self = $zero;
            unsafe fn product(
                m: usize,
                n: usize,
                k: usize,
                dst: *mut Self,
                dst_rs: usize,
                dst_cs: usize,
                lhs: *const Self,
                lhs_rs: usize,
                lhs_cs: usize,
                rhs: *const Self,
                rhs_rs: usize,
                rhs_cs: usize,
                parallel: bool,
            ) {
                if (m == 1 || n == 1)
                    && <$t as Gemv>::gemv(
                        m, n, k, dst, dst_rs, dst_cs, lhs, lhs_rs, lhs_cs, rhs, rhs_rs, rhs_cs, parallel,
                    )
                {
                    return;
                }
                let par = if parallel {
                    gemm::Parallelism::Rayon(rayon::current_num_threads())
                } else {
                    gemm::Parallelism::None
                };
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

/// The matrix-vector path ([`crate::gemv`]) where the element type has one.
trait Gemv {
    /// A product with `m == 1` or `n == 1`; false when it is left to gemm.
    ///
    /// # Safety
    /// As [`Scalar::product`].
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemv(
        _m: usize,
        _n: usize,
        _k: usize,
        _dst: *mut Self,
        _dst_rs: usize,
        _dst_cs: usize,
        _lhs: *const Self,
        _lhs_rs: usize,
        _lhs_cs: usize,
        _rhs: *const Self,
        _rhs_rs: usize,
        _rhs_cs: usize,
        _parallel: bool,
    ) -> bool {
        false
    }
}

impl Gemv for Complex32 {}
impl Gemv for Complex64 {}

macro_rules! real_gemv {
    ($t:ty) => {
        impl Gemv for $t {
            unsafe fn gemv(
                m: usize,
                n: usize,
                k: usize,
                dst: *mut Self,
                dst_rs: usize,
                dst_cs: usize,
                lhs: *const Self,
                lhs_rs: usize,
                lhs_cs: usize,
                rhs: *const Self,
                rhs_rs: usize,
                rhs_cs: usize,
                parallel: bool,
            ) -> bool {
                use crate::gemv::{product, Strided};
                if m == 1 {
                    // y[j] = sum_k lhs[0, k] * rhs[k, j]
                    let v = Strided { ptr: lhs, k: lhs_cs, j: 0 };
                    product(n, k, dst, dst_cs, v, Strided { ptr: rhs, k: rhs_rs, j: rhs_cs }, parallel)
                } else {
                    // y[i] = sum_k rhs[k, 0] * lhs[i, k]
                    let v = Strided { ptr: rhs, k: rhs_rs, j: 0 };
                    product(m, k, dst, dst_rs, v, Strided { ptr: lhs, k: lhs_cs, j: lhs_rs }, parallel)
                }
            }
        }
    };
}

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
#[allow(clippy::too_many_arguments)]
unsafe fn int_rows<T: WrappingInt>(
    rows: std::ops::Range<usize>,
    n: usize,
    k: usize,
    dst: SendPtr<T>,
    dst_rs: usize,
    dst_cs: usize,
    lhs: *const T,
    lhs_rs: usize,
    lhs_cs: usize,
    b: &[T],
) {
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
            *dst.get().add(i * dst_rs + j * dst_cs) = v;
        }
    }
}

macro_rules! int_scalar {
    ($t:ty) => {
        impl Scalar for $t {
            const ZERO: Self = 0;
            unsafe fn product(
                m: usize,
                n: usize,
                k: usize,
                dst: *mut Self,
                dst_rs: usize,
                dst_cs: usize,
                lhs: *const Self,
                lhs_rs: usize,
                lhs_cs: usize,
                rhs: *const Self,
                rhs_rs: usize,
                rhs_cs: usize,
                parallel: bool,
            ) {
                // Rows of the right operand contiguous, for the inner loop.
                let mut b = Vec::with_capacity(k * n);
                for kk in 0..k {
                    b.extend((0..n).map(|j| *rhs.add(kk * rhs_rs + j * rhs_cs)));
                }
                let dst = SendPtr(dst);
                let lhs = SendPtr(lhs as *mut Self);
                if parallel && m > 1 {
                    let per = m.div_ceil(rayon::current_num_threads() * 4).max(1);
                    (0..m.div_ceil(per)).into_par_iter().for_each(|c| {
                        let rows = c * per..((c + 1) * per).min(m);
                        // SAFETY: tasks write disjoint rows of dst.
                        unsafe { int_rows(rows, n, k, dst, dst_rs, dst_cs, lhs.get(), lhs_rs, lhs_cs, &b) }
                    });
                } else {
                    int_rows(0..m, n, k, dst, dst_rs, dst_cs, lhs.get(), lhs_rs, lhs_cs, &b);
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
            m,
            n,
            k,
            d.get().add(b * dst.batch),
            dst.row,
            dst.col,
            l.get().add(b * lhs.batch),
            lhs.row,
            lhs.col,
            r.get().add(b * rhs.batch),
            rhs.row,
            rhs.col,
            parallel,
        )
    };
    if batch > 1 && threads > 1 && work < (1 << 21) && batch * work >= PARALLEL_WORK {
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
                unsafe { i64::product(m, n, k, c.as_mut_ptr(), n, 1, a.as_ptr(), k, 1, bt.as_ptr(), 1, k, false) };
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
