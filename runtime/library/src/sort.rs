//! `sort`: every 1-D slice along one dimension of N same-shaped operands,
//! permuted together, ordered by a compiled comparator.
//!
//! - The comparator is called with 2N element pointers in XLA's parameter
//!   order `[lhs0, rhs0, lhs1, rhs1, ...]` and returns true when the lhs
//!   element sorts before the rhs one. Each pointer is aligned for its
//!   element type when the operand buffers are (runtime buffers always
//!   are); the pointers may point at copies of the elements.
//! - The sort is always stable (a valid result for `is_stable=false` too,
//!   and deterministic): a merge sort (insertion-sorted runs, merges that
//!   take the right element only when it is strictly less). It only ever
//!   compares and moves whole entries, so a comparator that is not a strict
//!   weak order (NaN keys) gives some permutation and never a panic (Rust's
//!   `sort_by` may panic then).
//! - What is sorted: when one element of every operand fits in a 32-byte
//!   record (fields at their natural alignment), each slice is packed into
//!   records, the records are sorted (the comparator reads them in place:
//!   sequential memory, no index indirection) and unpacked; otherwise a
//!   permutation of element indices is sorted and each operand gathered
//!   through it.
//! - Many slices sort in parallel; a few long slices use a parallel merge
//!   sort (halves sorted in parallel, merges split by binary search).

use crate::array::{byte_size, checked_dims, ArrayMut};
use rayon::prelude::*;

/// Runs shorter than this are insertion sorted.
const RUN: usize = 8;
/// Slices (or merges) shorter than this are not split across threads.
const PARALLEL_LEN: usize = 1 << 14;
/// Largest record, in 8-byte words.
const MAX_WORDS: usize = 4;

// ---------------------------------------------------------------------------
// A stable merge sort over any entries

/// Stable insertion sort.
fn insertion_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && less(&x, &v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// Stable merge of sorted `left` and `right` into `out`.
fn merge<T: Copy>(left: &[T], right: &[T], out: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    debug_assert_eq!(left.len() + right.len(), out.len());
    // Already in order (common for presorted input): one comparison.
    if left.is_empty() || right.is_empty() || !less(&right[0], &left[left.len() - 1]) {
        out[..left.len()].copy_from_slice(left);
        out[left.len()..].copy_from_slice(right);
        return;
    }
    let (mut i, mut j, mut o) = (0, 0, 0);
    while i < left.len() && j < right.len() {
        // Branch-free: the comparison outcome is unpredictable, so select
        // the source instead of branching on it.
        let take_right = less(&right[j], &left[i]);
        out[o] = *if take_right { &right[j] } else { &left[i] };
        j += take_right as usize;
        i += !take_right as usize;
        o += 1;
    }
    out[o..o + left.len() - i].copy_from_slice(&left[i..]);
    o += left.len() - i;
    out[o..].copy_from_slice(&right[j..]);
}

/// Stable bottom-up merge sort of `v`, `buf` as scratch (resized).
fn merge_sort<T: Copy>(v: &mut [T], buf: &mut Vec<T>, less: &impl Fn(&T, &T) -> bool) {
    let n = v.len();
    for run in v.chunks_mut(RUN) {
        insertion_sort(run, less);
    }
    if n <= RUN {
        return;
    }
    buf.clear();
    buf.extend_from_slice(v);
    let mut in_buf = false;
    let mut width = RUN;
    while width < n {
        let (src, dst): (&mut [T], &mut [T]) = if in_buf { (&mut buf[..n], v) } else { (v, &mut buf[..n]) };
        for (s, d) in src.chunks(2 * width).zip(dst.chunks_mut(2 * width)) {
            let mid = width.min(s.len());
            merge(&s[..mid], &s[mid..], d, less);
        }
        in_buf = !in_buf;
        width *= 2;
    }
    if in_buf {
        v.copy_from_slice(&buf[..n]);
    }
}

/// Stable merge of `left` and `right` into `out`, split across threads by
/// binary search when long. The split keeps stability: elements of `right`
/// precede an element of `left` only when strictly less than it.
fn par_merge<T: Copy + Send + Sync>(left: &[T], right: &[T], out: &mut [T], less: &(impl Fn(&T, &T) -> bool + Sync)) {
    if out.len() < PARALLEL_LEN {
        return merge(left, right, out, less);
    }
    let (li, ri) = if left.len() >= right.len() {
        let mid = left.len() / 2;
        let p = &left[mid];
        (mid, right.partition_point(|x| less(x, p)))
    } else {
        let mid = right.len() / 2;
        let p = &right[mid];
        (left.partition_point(|x| !less(p, x)), mid)
    };
    let (out_a, out_b) = out.split_at_mut(li + ri);
    rayon::join(
        || par_merge(&left[..li], &right[..ri], out_a, less),
        || par_merge(&left[li..], &right[ri..], out_b, less),
    );
}

/// Parallel stable merge sort: the result is left in `v` (`into_buf`
/// false) or in `buf` (same length).
fn par_sort<T: Copy + Send + Sync>(
    v: &mut [T],
    buf: &mut [T],
    into_buf: bool,
    less: &(impl Fn(&T, &T) -> bool + Sync),
) {
    if v.len() < PARALLEL_LEN {
        let mut scratch = Vec::new();
        merge_sort(v, &mut scratch, less);
        if into_buf {
            buf.copy_from_slice(v);
        }
        return;
    }
    let mid = v.len() / 2;
    let (va, vb) = v.split_at_mut(mid);
    let (ba, bb) = buf.split_at_mut(mid);
    // The halves land where the merge reads them: the other buffer.
    rayon::join(|| par_sort(va, ba, !into_buf, less), || par_sort(vb, bb, !into_buf, less));
    if into_buf {
        par_merge(va, vb, buf, less);
    } else {
        par_merge(ba, bb, v, less);
    }
}

/// Sorts one slice's entries, in parallel or not.
fn sort_entries<T: Copy + Send + Sync>(
    v: &mut [T],
    buf: &mut Vec<T>,
    parallel: bool,
    less: &(impl Fn(&T, &T) -> bool + Sync),
) {
    if parallel {
        buf.clear();
        buf.extend_from_slice(v);
        par_sort(v, buf, false, less);
    } else {
        merge_sort(v, buf, less);
    }
}

// ---------------------------------------------------------------------------
// The operands

/// One operand's buffer and element size.
#[derive(Clone, Copy)]
struct Operand {
    ptr: *mut u8,
    size: usize,
}

/// The operands, shared by the slice tasks.
struct Operands {
    ops: Vec<Operand>,
    /// Length of the sorted dimension, and the product of the dims after it.
    len: usize,
    inner: usize,
}

// SAFETY: slice tasks read and write only the elements of their own slice
// (disjoint across tasks); the comparator only reads.
unsafe impl Send for Operands {}
unsafe impl Sync for Operands {}

impl Operands {
    /// Element index of position `i` of slice `s` (slices numbered
    /// (outer, inner) row-major).
    #[inline(always)]
    fn index(&self, s: usize, i: usize) -> usize {
        (s / self.inner) * self.len * self.inner + s % self.inner + i * self.inner
    }

    /// Pointer to element `e` of operand `k`.
    #[inline(always)]
    fn at(&self, k: usize, e: usize) -> *mut u8 {
        let op = self.ops[k];
        op.ptr.wrapping_add(e * op.size)
    }
}

/// Copies one element of `size` bytes.
///
/// # Safety
/// Both pointers address `size` valid bytes.
#[inline(always)]
unsafe fn copy_element(src: *const u8, dst: *mut u8, size: usize) {
    match size {
        1 => *dst = *src,
        2 => (dst as *mut u16).write_unaligned((src as *const u16).read_unaligned()),
        4 => (dst as *mut u32).write_unaligned((src as *const u32).read_unaligned()),
        8 => (dst as *mut u64).write_unaligned((src as *const u64).read_unaligned()),
        _ => std::ptr::copy_nonoverlapping(src, dst, size),
    }
}

/// Calls the comparator on operand pointers `a(k)` (lhs) and `b(k)` (rhs).
#[inline(always)]
fn compare(
    less: &(dyn Fn(&[*const u8]) -> bool + Sync),
    n: usize,
    a: impl Fn(usize) -> *const u8,
    b: impl Fn(usize) -> *const u8,
) -> bool {
    // Fixed arrays for the common operand counts: this is the inner loop.
    match n {
        1 => less(&[a(0), b(0)]),
        2 => less(&[a(0), b(0), a(1), b(1)]),
        3 => less(&[a(0), b(0), a(1), b(1), a(2), b(2)]),
        4..=8 => {
            let mut p = [std::ptr::null::<u8>(); 16];
            for k in 0..n {
                p[2 * k] = a(k);
                p[2 * k + 1] = b(k);
            }
            less(&p[..2 * n])
        }
        _ => less(&(0..n).flat_map(|k| [a(k), b(k)]).collect::<Vec<_>>()),
    }
}

/// Runs `f(scratch, slice, parallel)` for every slice: slices in parallel
/// when there are many, each slice's sort in parallel when there are few
/// long ones.
fn for_slices<S: Send>(
    slices: usize,
    len: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize, bool) + Sync + Send,
) {
    let threads = rayon::current_num_threads();
    if threads > 1 && len >= PARALLEL_LEN && slices < 2 * threads {
        let mut scratch = init();
        (0..slices).for_each(|s| f(&mut scratch, s, true));
    } else if threads > 1 && slices * len >= PARALLEL_LEN {
        (0..slices).into_par_iter().for_each_init(init, |scratch, s| f(scratch, s, false));
    } else {
        let mut scratch = init();
        (0..slices).for_each(|s| f(&mut scratch, s, false));
    }
}

/// Sorts packed records of `W` words: field `k` of a record is operand
/// `k`'s element, at byte offset `offsets[k]`.
fn sort_records<const W: usize>(
    ops: &Operands,
    offsets: &[usize],
    slices: usize,
    less: &(dyn Fn(&[*const u8]) -> bool + Sync),
) {
    let n = ops.ops.len();
    let field = |r: &[u64; W], k: usize| (r.as_ptr() as *const u8).wrapping_add(offsets[k]);
    let rec_less = |a: &[u64; W], b: &[u64; W]| compare(less, n, |k| field(a, k), |k| field(b, k));
    // Packs (or unpacks) records `r0..` of slice `s`.
    let pack = |s: usize, r0: usize, recs: &mut [[u64; W]], unpack: bool| {
        for (i, r) in recs.iter_mut().enumerate() {
            let e = ops.index(s, r0 + i);
            let rp = r.as_mut_ptr() as *mut u8;
            for (k, op) in ops.ops.iter().enumerate() {
                // SAFETY: `e` is an element of this task's slice; the
                // field lies inside the record (offsets from the layout).
                unsafe {
                    let (elem, f) = (ops.at(k, e), rp.add(offsets[k]));
                    if unpack {
                        copy_element(f, elem, op.size)
                    } else {
                        copy_element(elem, f, op.size)
                    }
                }
            }
        }
    };
    let len = ops.len;
    for_slices(
        slices,
        len,
        || (Vec::<[u64; W]>::new(), Vec::<[u64; W]>::new()),
        |(recs, buf), s, parallel| {
            recs.clear();
            recs.resize(len, [0u64; W]);
            let chunk = PARALLEL_LEN;
            if parallel {
                recs.par_chunks_mut(chunk).enumerate().for_each(|(c, r)| pack(s, c * chunk, r, false));
            } else {
                pack(s, 0, recs, false);
            }
            sort_entries(recs, buf, parallel, &rec_less);
            if parallel {
                recs.par_chunks_mut(chunk).enumerate().for_each(|(c, r)| pack(s, c * chunk, r, true));
            } else {
                pack(s, 0, recs, true);
            }
        },
    );
}

/// Sorts element indices and gathers every operand through them (for
/// records too large to move around).
fn sort_indices(ops: &Operands, slices: usize, less: &(dyn Fn(&[*const u8]) -> bool + Sync)) {
    let n = ops.ops.len();
    let idx_less =
        |a: &usize, b: &usize| compare(less, n, |k| ops.at(k, *a) as *const u8, |k| ops.at(k, *b) as *const u8);
    let len = ops.len;
    for_slices(
        slices,
        len,
        || (Vec::<usize>::new(), Vec::<usize>::new(), Vec::<u8>::new()),
        |(idx, buf, tmp), s, parallel| {
            idx.clear();
            idx.extend((0..len).map(|i| ops.index(s, i)));
            sort_entries(idx, buf, parallel, &idx_less);
            for k in 0..n {
                let size = ops.ops[k].size;
                tmp.resize(len * size, 0);
                // SAFETY: the indices are elements of this task's slice.
                unsafe {
                    for (i, &e) in idx.iter().enumerate() {
                        copy_element(ops.at(k, e), tmp.as_mut_ptr().add(i * size), size);
                    }
                    for i in 0..len {
                        copy_element(tmp.as_ptr().add(i * size), ops.at(k, ops.index(s, i)), size);
                    }
                }
            }
        },
    );
}

/// Byte offset of each element in a record (natural alignment, at most 8)
/// and the record size in 8-byte words.
fn record_layout(sizes: &[usize]) -> (Vec<usize>, usize) {
    let mut offsets = Vec::with_capacity(sizes.len());
    let mut end = 0usize;
    for &s in sizes {
        let align = s.clamp(1, 8);
        let off = end.div_ceil(align) * align;
        offsets.push(off);
        end = off + s;
    }
    (offsets, end.div_ceil(8))
}

/// Sorts every slice along `dimension` of `operands` (same dims, any
/// element types) in place, permuting all operands together.
pub fn sort(
    operands: &mut [ArrayMut],
    dimension: usize,
    less: &(dyn Fn(&[*const u8]) -> bool + Sync),
) -> Result<(), String> {
    let Some(first) = operands.first() else { return Err("sort: needs at least one operand".into()) };
    let dims = first.dims.to_vec();
    for (k, a) in operands.iter().enumerate() {
        checked_dims("sort", &format!("operand {k}"), a.ty, a.dims, a.data.len())?;
        if a.dims != dims.as_slice() {
            return Err(format!("sort: operand {k} has dims {:?}, operand 0 has {dims:?}", a.dims));
        }
    }
    if dimension >= dims.len() {
        return Err(format!("sort: dimension {dimension} is out of range for rank {}", dims.len()));
    }
    let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
    let len = dims[dimension];
    let total: usize = dims.iter().product();
    if total == 0 || len <= 1 {
        return Ok(());
    }
    let ops = Operands {
        ops: operands.iter_mut().map(|a| Operand { ptr: a.data.as_mut_ptr(), size: byte_size(a.ty) }).collect(),
        len,
        inner: dims[dimension + 1..].iter().product(),
    };
    let slices = total / len;
    let sizes: Vec<usize> = ops.ops.iter().map(|o| o.size).collect();
    let (offsets, words) = record_layout(&sizes);
    match words {
        1 => sort_records::<1>(&ops, &offsets, slices, less),
        2 => sort_records::<2>(&ops, &offsets, slices, less),
        3 => sort_records::<3>(&ops, &offsets, slices, less),
        w if w <= MAX_WORDS => sort_records::<MAX_WORDS>(&ops, &offsets, slices, less),
        _ => sort_indices(&ops, slices, less),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An inconsistent "comparator" that must not break the sort.
    fn chaotic(a: &usize, b: &usize) -> bool {
        (a.wrapping_mul(2654435761) ^ b.wrapping_mul(40503)).is_multiple_of(3)
    }

    #[test]
    fn merge_sort_is_stable_and_total() {
        for n in [0usize, 1, 2, 15, 16, 17, 100, 1000, 40000] {
            let keys: Vec<u32> = (0..n).map(|i| ((i * 7919) % 13) as u32).collect();
            let less = |a: &usize, b: &usize| keys[*a] < keys[*b];
            let mut v: Vec<usize> = (0..n).collect();
            merge_sort(&mut v, &mut Vec::new(), &less);
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by_key(|&i| keys[i]);
            assert_eq!(v, want, "n = {n}");
            let mut v: Vec<usize> = (0..n).collect();
            sort_entries(&mut v, &mut Vec::new(), true, &less);
            assert_eq!(v, want, "parallel, n = {n}");
        }
    }

    #[test]
    fn inconsistent_comparators_give_a_permutation() {
        for n in [5usize, 33, 5000, 70000] {
            let mut v: Vec<usize> = (0..n).collect();
            merge_sort(&mut v, &mut Vec::new(), &chaotic);
            let mut w: Vec<usize> = (0..n).collect();
            sort_entries(&mut w, &mut Vec::new(), true, &chaotic);
            v.sort();
            w.sort();
            assert_eq!(v, (0..n).collect::<Vec<_>>());
            assert_eq!(w, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn records_align_every_field() {
        assert_eq!(record_layout(&[4]), (vec![0], 1));
        assert_eq!(record_layout(&[4, 4]), (vec![0, 4], 1));
        assert_eq!(record_layout(&[1, 8, 2]), (vec![0, 8, 16], 3));
        assert_eq!(record_layout(&[16, 1]), (vec![0, 16], 3));
    }
}
