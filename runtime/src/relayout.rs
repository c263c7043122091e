//! Moving arrays between physical layouts.
//!
//! A layout is XLA's `minor_to_major` list (`None`: row-major). The
//! element at logical index `i` of an array laid out with `m2m` is at
//! offset `sum(i[d] * stride[d])`, where `stride[m2m[0]] = 1` and each next
//! dimension's stride is the previous one times its size.

use rxla_library::array::{byte_size, ArrayShape};

/// Element strides of a layout (in elements).
pub fn strides(dims: &[i64], m2m: Option<&[i64]>) -> Vec<usize> {
    let rank = dims.len();
    let order: Vec<usize> = match m2m {
        Some(m) => m.iter().map(|&d| d as usize).collect(),
        None => (0..rank).rev().collect(),
    };
    let mut strides = vec![0usize; rank];
    let mut s = 1usize;
    for &d in &order {
        strides[d] = s;
        s *= dims[d].max(0) as usize;
    }
    strides
}

/// Copies `src` (laid out with `from`) into `dst` (laid out with `to`).
pub fn relayout(shape: &ArrayShape, from: Option<&[i64]>, to: Option<&[i64]>, src: &[u8], dst: &mut [u8]) {
    let es = byte_size(shape.ty);
    let n = shape.elements();
    debug_assert_eq!(src.len(), n * es);
    debug_assert_eq!(dst.len(), n * es);
    if n == 0 {
        return;
    }
    let rank = shape.dims.len();
    let sstr = strides(&shape.dims, from);
    let dstr = strides(&shape.dims, to);
    // Walk the destination in its memory order: dims from major to minor.
    let order: Vec<usize> = match to {
        Some(m) => m.iter().rev().map(|&d| d as usize).collect(),
        None => (0..rank).collect(),
    };
    let sizes: Vec<usize> = order.iter().map(|&d| shape.dims[d] as usize).collect();
    let mut index = vec![0usize; rank];
    let mut src_off = 0usize;
    for k in 0..n {
        let dst_off = k;
        debug_assert_eq!(dst_off, order.iter().zip(&index).map(|(&d, &i)| i * dstr[d]).sum::<usize>());
        dst[dst_off * es..(dst_off + 1) * es].copy_from_slice(&src[src_off * es..(src_off + 1) * es]);
        // Next index (innermost of `order` fastest), tracking the source
        // offset incrementally.
        let mut j = rank;
        while j > 0 {
            j -= 1;
            let d = order[j];
            index[j] += 1;
            src_off += sstr[d];
            if index[j] < sizes[j] {
                break;
            }
            src_off -= sstr[d] * sizes[j];
            index[j] = 0;
        }
    }
}

/// Logical row-major bytes to the physical order of `m2m`.
pub fn to_physical(shape: &ArrayShape, m2m: &[i64], logical: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; logical.len()];
    relayout(shape, None, Some(m2m), logical, &mut out);
    out
}

/// Physical bytes in the order of `m2m` to logical row-major order.
pub fn to_logical(shape: &ArrayShape, m2m: &[i64], physical: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; physical.len()];
    relayout(shape, Some(m2m), None, physical, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_library::array::ElementType;

    #[test]
    fn column_major_round_trip() {
        let shape = ArrayShape::new(ElementType::S8, vec![2, 3]);
        let logical: Vec<u8> = (0..6).collect(); // [[0,1,2],[3,4,5]]
        let physical = to_physical(&shape, &[0, 1], &logical);
        assert_eq!(physical, vec![0, 3, 1, 4, 2, 5]);
        assert_eq!(to_logical(&shape, &[0, 1], &physical), logical);
    }

    #[test]
    fn three_d_permutations() {
        let shape = ArrayShape::new(ElementType::S16, vec![2, 3, 4]);
        let logical: Vec<u8> = (0..24u16).flat_map(|x| x.to_le_bytes()).collect();
        for m2m in [[0i64, 1, 2], [1, 0, 2], [2, 0, 1], [0, 2, 1], [1, 2, 0], [2, 1, 0]] {
            let physical = to_physical(&shape, &m2m, &logical);
            let st = strides(&shape.dims, Some(&m2m));
            for i in 0..2 {
                for j in 0..3 {
                    for k in 0..4 {
                        let v = (i * 12 + j * 4 + k) as u16;
                        let off = i * st[0] + j * st[1] + k * st[2];
                        assert_eq!(u16::from_le_bytes([physical[2 * off], physical[2 * off + 1]]), v, "{m2m:?}");
                    }
                }
            }
            assert_eq!(to_logical(&shape, &m2m, &physical), logical);
        }
    }
}
