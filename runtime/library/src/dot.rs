//! `dot` (HLO dot_general) over row-major buffers.
//!
//! Semantics are the reference interpreter's: the result dims are the batch
//! dims, then the lhs free dims in order, then the rhs free dims in order;
//! contracting dims pair up in the order given; element types follow
//! the rules in src/convert.rs (operands converted to the result type first,
//! accumulation in the result's compute type, one rounding at the end;
//! integers exact with wrapping, on the float GEMM when every partial sum
//! is exact in f32 or f64; `pred` is `sum != 0`, for pred operands
//! the OR of ANDs). A contraction over zero elements gives 0.
//!
//! Each operand is viewed as a strided `[batch, m, k]` (lhs) or
//! `[batch, k, n]` (rhs) matrix batch: when each group of dims (batch,
//! free, contracting) collapses to one stride the buffer is used as is
//! (plain, transposed and batched matmuls copy nothing); otherwise that
//! operand alone is permuted into a packed copy. Results differ from the
//! interpreter only by accumulation order (gemm blocks and uses FMA), and
//! for complex operands with infinite parts: gemm's complex kernels sum
//! the `re*re` and `im*im` products apart and subtract at the end, so such
//! an element may be NaN where the interpreter's direct complex products
//! give an infinity (the same holds for `convolution`).

use crate::array::{checked_dims, row_major_strides, write_typed, ArrayMut, ArrayRef, Element, ElementType};
use crate::convert::{self, Compute};
use crate::matmul::{self, Mat, MatMut, Scalar};
use std::borrow::Cow;

/// dot_general dimension numbers (dimension indices of each operand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DotDims {
    pub lhs_batch: Vec<usize>,
    pub rhs_batch: Vec<usize>,
    pub lhs_contracting: Vec<usize>,
    pub rhs_contracting: Vec<usize>,
}

impl DotDims {
    /// A plain matrix product `[m, k] x [k, n]`.
    pub fn matmul() -> DotDims {
        DotDims { lhs_contracting: vec![1], rhs_contracting: vec![0], ..Default::default() }
    }
}

/// The stride of the single index that walks `list` (dims of an array
/// with `dims`/`strides`) in row-major order, if there is one. Unit dims
/// are skipped; an empty (or all-unit) list has stride 0.
pub(crate) fn merged_stride(dims: &[usize], strides: &[usize], list: &[usize]) -> Option<usize> {
    let mut stride = None;
    let mut expect = None;
    for &d in list.iter().rev() {
        if dims[d] == 1 {
            continue;
        }
        match expect {
            Some(e) if strides[d] != e => return None,
            _ => {}
        }
        if stride.is_none() {
            stride = Some(strides[d]);
        }
        expect = Some(strides[d] * dims[d]);
    }
    Some(stride.unwrap_or(0))
}

/// Row-major copy of `src` (dims `dims`) with its axes in the order `perm`.
pub(crate) fn permute<T: Copy>(src: &[T], dims: &[usize], perm: &[usize]) -> Vec<T> {
    let rank = dims.len();
    if rank == 0 || src.is_empty() || perm.iter().enumerate().all(|(i, &p)| i == p) {
        return src.to_vec();
    }
    let s = row_major_strides(dims);
    let out_dims: Vec<usize> = perm.iter().map(|&p| dims[p]).collect();
    let src_strides: Vec<usize> = perm.iter().map(|&p| s[p]).collect();
    let mut out = Vec::with_capacity(src.len());
    let (inner, inner_stride) = (out_dims[rank - 1], src_strides[rank - 1]);
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

/// The checked geometry of a dot.
struct Geometry {
    ld: Vec<usize>,
    rd: Vec<usize>,
    lfree: Vec<usize>,
    rfree: Vec<usize>,
    batch: usize,
    m: usize,
    n: usize,
    k: usize,
}

fn check(lhs: &ArrayRef, rhs: &ArrayRef, out: &ArrayMut, dims: &DotDims) -> Result<Geometry, String> {
    let ld = checked_dims("dot", "lhs", lhs.ty, lhs.dims, lhs.data.len())?;
    let rd = checked_dims("dot", "rhs", rhs.ty, rhs.dims, rhs.data.len())?;
    let od = checked_dims("dot", "result", out.ty, out.dims, out.data.len())?;
    if dims.lhs_batch.len() != dims.rhs_batch.len() || dims.lhs_contracting.len() != dims.rhs_contracting.len() {
        return Err(format!(
            "dot: {} lhs and {} rhs batch dims, {} lhs and {} rhs contracting dims",
            dims.lhs_batch.len(),
            dims.rhs_batch.len(),
            dims.lhs_contracting.len(),
            dims.rhs_contracting.len()
        ));
    }
    for (side, rank, b, c) in [
        ("lhs", ld.len(), &dims.lhs_batch, &dims.lhs_contracting),
        ("rhs", rd.len(), &dims.rhs_batch, &dims.rhs_contracting),
    ] {
        let mut seen = vec![false; rank];
        for &d in b.iter().chain(c) {
            if d >= rank {
                return Err(format!("dot: {side} dimension {d} is out of range for rank {rank}"));
            }
            if seen[d] {
                return Err(format!("dot: {side} dimension {d} is listed twice in the dimension numbers"));
            }
            seen[d] = true;
        }
    }
    for (&l, &r) in
        dims.lhs_batch.iter().zip(&dims.rhs_batch).chain(dims.lhs_contracting.iter().zip(&dims.rhs_contracting))
    {
        if ld[l] != rd[r] {
            return Err(format!(
                "dot: lhs dimension {l} (size {}) does not match rhs dimension {r} (size {})",
                ld[l], rd[r]
            ));
        }
    }
    let free = |rank: usize, b: &[usize], c: &[usize]| -> Vec<usize> {
        (0..rank).filter(|d| !b.contains(d) && !c.contains(d)).collect()
    };
    let lfree = free(ld.len(), &dims.lhs_batch, &dims.lhs_contracting);
    let rfree = free(rd.len(), &dims.rhs_batch, &dims.rhs_contracting);
    let mut expected: Vec<usize> = dims.lhs_batch.iter().map(|&d| ld[d]).collect();
    expected.extend(lfree.iter().map(|&d| ld[d]));
    expected.extend(rfree.iter().map(|&d| rd[d]));
    if expected != od {
        return Err(format!(
            "dot: result {}{od:?} does not match the operands {}{ld:?} x {}{rd:?} (expected dims {expected:?})",
            out.ty.name(),
            lhs.ty.name(),
            rhs.ty.name()
        ));
    }
    let size = |d: &[usize], list: &[usize]| -> usize { list.iter().map(|&i| d[i]).product() };
    Ok(Geometry {
        batch: size(&ld, &dims.lhs_batch),
        m: size(&ld, &lfree),
        k: size(&ld, &dims.lhs_contracting),
        n: size(&rd, &rfree),
        ld,
        rd,
        lfree,
        rfree,
    })
}

/// Strided matrix view of an operand: `groups` are (batch, rows, cols)
/// dimension lists; permuted into a packed copy when a group does not
/// collapse to one stride.
fn view<'a, T: Copy>(data: Cow<'a, [T]>, dims: &[usize], groups: [&[usize]; 3]) -> (Cow<'a, [T]>, [usize; 3]) {
    let strides = row_major_strides(dims);
    let merged: Option<Vec<usize>> = groups.iter().map(|g| merged_stride(dims, &strides, g)).collect();
    if let Some(s) = merged {
        return (data, [s[0], s[1], s[2]]);
    }
    let perm: Vec<usize> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let size = |g: &[usize]| -> usize { g.iter().map(|&d| dims[d]).product() };
    let (rows, cols) = (size(groups[1]), size(groups[2]));
    (Cow::Owned(permute(&data, dims, &perm)), [rows * cols, cols, 1])
}

fn run<T: Scalar + Element>(g: &Geometry, dims: &DotDims, lhs: Cow<[T]>, rhs: Cow<[T]>, out: &mut [T]) {
    let (a, [ab, ar, ac]) = view(lhs, &g.ld, [&dims.lhs_batch, &g.lfree, &dims.lhs_contracting]);
    let (b, [bb, br, bc]) = view(rhs, &g.rd, [&dims.rhs_batch, &dims.rhs_contracting, &g.rfree]);
    matmul::batched(
        g.batch,
        g.m,
        g.n,
        g.k,
        MatMut { data: out, batch: g.m * g.n, row: g.n, col: 1 },
        Mat { data: &a, batch: ab, row: ar, col: ac },
        Mat { data: &b, batch: bb, row: br, col: bc },
    );
}

/// Runs in compute type `T`, writing straight into `out` when it is of
/// that type (and aligned), else through a temporary and `store`.
fn run_into<T: Scalar + Element>(
    g: &Geometry,
    dims: &DotDims,
    lhs: Cow<[T]>,
    rhs: Cow<[T]>,
    out: &mut ArrayMut,
    direct: bool,
    store: impl FnOnce(&[T], &mut [u8]),
) {
    if direct && (out.data.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        run(g, dims, lhs, rhs, crate::array::cast_mut(out.data));
    } else {
        let mut tmp = vec![T::ZERO; g.batch * g.m * g.n];
        run(g, dims, lhs, rhs, &mut tmp);
        store(&tmp, out.data);
    }
}

/// Integer dots whose partial sums are all exact in a float type (int8
/// quantized models: `|a| |b| k < 2^24` for f32, `2^53` for f64) run on
/// the float GEMM, whatever order it sums in, and the exact sums are
/// stored with the integer type's wrapping. False (nothing written) when
/// the values are too large.
fn exact_in_float(g: &Geometry, dims: &DotDims, l: &[i32], r: &[i32], out: &mut ArrayMut, t: ElementType) -> bool {
    let max = |v: &[i32]| v.iter().map(|x| x.unsigned_abs() as u128).max().unwrap_or(0);
    let bound = max(l) * max(r) * g.k as u128;
    let ints: Vec<i64> = if bound < 1 << 24 {
        let mut tmp = vec![0f32; g.batch * g.m * g.n];
        let (lf, rf) = (l.iter().map(|&x| x as f32).collect(), r.iter().map(|&x| x as f32).collect());
        run(g, dims, Cow::Owned(lf), Cow::Owned(rf), &mut tmp);
        tmp.iter().map(|&x| x as i64).collect()
    } else if bound < 1 << 53 {
        let mut tmp = vec![0f64; g.batch * g.m * g.n];
        let (lf, rf) = (l.iter().map(|&x| x as f64).collect(), r.iter().map(|&x| x as f64).collect());
        run(g, dims, Cow::Owned(lf), Cow::Owned(rf), &mut tmp);
        tmp.iter().map(|&x| x as i64).collect()
    } else {
        return false;
    };
    convert::store_int(t, &ints, out.data);
    true
}

/// `out = dot_general(lhs, rhs)` with dimension numbers `dims`.
pub fn dot(lhs: ArrayRef, rhs: ArrayRef, mut out: ArrayMut, dims: &DotDims) -> Result<(), String> {
    let g = check(&lhs, &rhs, &out, dims)?;
    let t = out.ty;
    let compute = convert::compute_type("dot", t)?;
    if out.data.is_empty() {
        return Ok(());
    }
    use ElementType as E;
    match compute {
        Compute::F32 => {
            run_into(&g, dims, convert::load_f32(lhs, t), convert::load_f32(rhs, t), &mut out, t == E::F32, |v, o| {
                convert::store_f32(t, v, o)
            })
        }
        Compute::F64 => run_into(&g, dims, convert::load_f64(lhs), convert::load_f64(rhs), &mut out, true, write_typed),
        Compute::C32 => run_into(&g, dims, convert::load_c32(lhs), convert::load_c32(rhs), &mut out, true, write_typed),
        Compute::C64 => run_into(&g, dims, convert::load_c64(lhs), convert::load_c64(rhs), &mut out, true, write_typed),
        Compute::I32 => {
            let (l, r) = (convert::load_i32(lhs, t), convert::load_i32(rhs, t));
            if t == E::Pred || !exact_in_float(&g, dims, &l, &r, &mut out, t) {
                run_into(&g, dims, l, r, &mut out, matches!(t, E::S32 | E::U32), |v, o| convert::store_int(t, v, o))
            }
        }
        Compute::I64 => run_into(
            &g,
            dims,
            convert::load_i64(lhs, t),
            convert::load_i64(rhs, t),
            &mut out,
            matches!(t, E::S64 | E::U64),
            |v, o| convert::store_int(t, v, o),
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_collapse_to_one_stride_when_contiguous() {
        // [2, 3, 4]: dims (0, 1) walk with stride 4; (0, 2) do not collapse.
        let dims = [2, 3, 4];
        let s = row_major_strides(&dims);
        assert_eq!(merged_stride(&dims, &s, &[0, 1]), Some(4));
        assert_eq!(merged_stride(&dims, &s, &[0, 2]), None);
        assert_eq!(merged_stride(&dims, &s, &[1, 0]), None);
        assert_eq!(merged_stride(&dims, &s, &[]), Some(0));
        // Unit dims do not break contiguity.
        let dims = [3, 1, 5];
        let s = row_major_strides(&dims);
        assert_eq!(merged_stride(&dims, &s, &[0, 1, 2]), Some(1));
        assert_eq!(merged_stride(&dims, &s, &[2, 1]), Some(1));
    }

    #[test]
    fn permute_reorders_axes() {
        let v: Vec<u32> = (0..6).collect();
        assert_eq!(permute(&v, &[2, 3], &[1, 0]), vec![0, 3, 1, 4, 2, 5]);
    }

    /// s32 matmul of `a` [m, k] and `b` [k, n] through `dot`, and naively
    /// with wrapping.
    fn int_matmul(a: &[i32], b: &[i32], m: usize, k: usize, n: usize) -> (Vec<i32>, Vec<i32>) {
        let bytes = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let (ab, bb) = (bytes(a), bytes(b));
        let (ad, bd, od) = ([m as i64, k as i64], [k as i64, n as i64], [m as i64, n as i64]);
        let mut o = vec![0u8; 4 * m * n];
        let out = ArrayMut::new(ElementType::S32, &od, &mut o);
        let (l, r) = (ArrayRef::new(ElementType::S32, &ad, &ab), ArrayRef::new(ElementType::S32, &bd, &bb));
        dot(l, r, out, &DotDims::matmul()).unwrap();
        let got = o.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        let mut want = vec![0i32; m * n];
        for i in 0..m {
            for j in 0..n {
                want[i * n + j] = (0..k).fold(0i32, |acc, p| acc.wrapping_add(a[i * k + p].wrapping_mul(b[p * n + j])));
            }
        }
        (got, want)
    }

    #[test]
    fn integer_dots_are_exact_through_float_gemm_and_wrap_beyond() {
        let mut seed = 7u64;
        let mut next = |range: i64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as i64 % (2 * range + 1) - range) as i32
        };
        // int8 values, k = 1000: f32 (127 * 127 * 1000 < 2^24).
        let (m, k, n) = (5, 1000, 7);
        let a: Vec<i32> = (0..m * k).map(|_| next(127)).collect();
        let b: Vec<i32> = (0..k * n).map(|_| next(127)).collect();
        let (got, want) = int_matmul(&a, &b, m, k, n);
        assert_eq!(got, want);
        // int16 values: f64.
        let a: Vec<i32> = (0..m * k).map(|_| next(32767)).collect();
        let b: Vec<i32> = (0..k * n).map(|_| next(32767)).collect();
        let (got, want) = int_matmul(&a, &b, m, k, n);
        assert_eq!(got, want);
        // Full-range values overflow i32: the integer path wraps.
        let a: Vec<i32> = (0..m * k).map(|_| next(i32::MAX as i64)).collect();
        let b: Vec<i32> = (0..k * n).map(|_| next(i32::MAX as i64)).collect();
        let (got, want) = int_matmul(&a, &b, m, k, n);
        assert_eq!(got, want);
    }

    #[test]
    fn bad_dimension_numbers_are_errors() {
        let a = vec![0u8; 24];
        let lhs = ArrayRef::new(ElementType::F32, &[2, 3], &a);
        let mut o = vec![0u8; 16];
        let out = ArrayMut::new(ElementType::F32, &[2, 2], &mut o);
        let dims = DotDims::matmul();
        assert!(dot(lhs, lhs, out, &dims).unwrap_err().contains("does not match"));
        let mut o = vec![0u8; 16];
        let out = ArrayMut::new(ElementType::F32, &[2, 2], &mut o);
        let dims = DotDims { lhs_contracting: vec![1, 1], rhs_contracting: vec![1, 0], ..Default::default() };
        assert!(dot(lhs, lhs, out, &dims).unwrap_err().contains("twice"));
    }
}
