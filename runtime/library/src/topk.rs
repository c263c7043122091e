//! Top-k (HLO's `topk`, JAX's `lax.top_k`): the `k` largest (or smallest)
//! elements of every row along the last dimension, in order, with their
//! positions in the row.
//!
//! Floats compare in IEEE total order (`-NaN < -inf < ... < -0 < +0 < ... <
//! inf < NaN`), integers by value; equal elements keep the lower position
//! first, as the reference interpreter orders them. Each row finds its `k`
//! first `(key, position)` pairs (keys are `key_sort`'s order-preserving
//! unsigned images, inverted for the largest): a sorted buffer of the best
//! so far for small `k` (MoE routing, top-p sampling), a selection for
//! large `k`.

use crate::array::{byte_size, checked_dims, ArrayMut, ArrayRef, ElementType};
use crate::key_sort::{key_bits, ordered_bits, KeyOrder};
use rayon::prelude::*;

/// Up to this `k`, a row keeps its k best in a sorted buffer (most elements
/// are rejected by one comparison); beyond, it selects with
/// `select_nth_unstable`.
const SMALL_K: usize = 64;

/// How `ty`'s bits order as keys, for the types whose bit patterns do
/// (IEEE floats and integers); None for the others (narrow floats whose
/// NaN or zero encodings break the order, complex numbers).
pub fn key_order(ty: ElementType) -> Option<KeyOrder> {
    use ElementType::*;
    match ty {
        F16 | Bf16 | F32 | F64 => Some(KeyOrder::TotalOrder),
        S8 | S16 | S32 | S64 => Some(KeyOrder::Signed),
        Pred | U8 | U16 | U32 | U64 => Some(KeyOrder::Unsigned),
        _ => None,
    }
}

/// `values[r, j]` and `indices[r, j]` (s32): the `j`-th largest (or
/// smallest) element of row `r` of `input` and its position.
pub fn topk(input: ArrayRef, values: ArrayMut, indices: ArrayMut, largest: bool) -> Result<(), String> {
    checked_dims("topk", "input", input.ty, input.dims, input.data.len())?;
    checked_dims("topk", "values", values.ty, values.dims, values.data.len())?;
    checked_dims("topk", "indices", indices.ty, indices.dims, indices.data.len())?;
    let order = key_order(input.ty).ok_or_else(|| format!("topk: elements of type {}", input.ty.name()))?;
    if values.ty != input.ty || indices.ty != ElementType::S32 {
        return Err(format!("topk: outputs of {} and {}", values.ty.name(), indices.ty.name()));
    }
    let (Some(&n), Some(&k)) = (input.dims.last(), values.dims.last()) else {
        return Err("topk of a scalar".into());
    };
    let (n, k) = (n as usize, k as usize);
    let prefix = &input.dims[..input.dims.len() - 1];
    if values.dims != indices.dims || &values.dims[..values.dims.len() - 1] != prefix || k > n {
        return Err(format!("topk: input {:?}, outputs {:?} and {:?}", input.dims, values.dims, indices.dims));
    }
    if n > i32::MAX as usize {
        return Err("topk: rows longer than 2^31 elements".into());
    }
    let rows = prefix.iter().product::<i64>() as usize;
    if rows == 0 || k == 0 {
        return Ok(());
    }
    let size = byte_size(input.ty);
    let width = 8 * size as u32;
    let key = |i: usize| ordered_bits(key_bits(input.data, size, i), width, order, largest);
    let row = |r: usize, vals: &mut [u8], idx: &mut [u8]| {
        let pairs: Vec<(u64, u32)> = if k <= SMALL_K {
            // The k best so far, in order: most elements lose to the k-th
            // in one comparison. Positions rise, so an equal key goes after
            // the ones already kept.
            let mut best: Vec<(u64, u32)> = Vec::with_capacity(k + 1);
            for j in 0..n {
                let kj = key(r * n + j);
                if best.len() == k && kj >= best[k - 1].0 {
                    continue;
                }
                let at = best.partition_point(|&(kb, _)| kb <= kj);
                best.insert(at, (kj, j as u32));
                best.truncate(k);
            }
            best
        } else {
            let mut pairs: Vec<(u64, u32)> = (0..n).map(|j| (key(r * n + j), j as u32)).collect();
            if k < n {
                pairs.select_nth_unstable(k - 1);
                pairs.truncate(k);
            }
            pairs.sort_unstable();
            pairs
        };
        for (j, &(_, pos)) in pairs.iter().enumerate() {
            let from = (r * n + pos as usize) * size;
            vals[j * size..(j + 1) * size].copy_from_slice(&input.data[from..from + size]);
            idx[4 * j..4 * j + 4].copy_from_slice(&(pos as i32).to_le_bytes());
        }
    };
    let (vals, idx) = (&mut *values.data, &mut *indices.data);
    if rows * n >= 1 << 16 {
        vals.par_chunks_mut(k * size).zip(idx.par_chunks_mut(4 * k)).enumerate().for_each(|(r, (v, i))| row(r, v, i));
    } else {
        vals.chunks_mut(k * size).zip(idx.chunks_mut(4 * k)).enumerate().for_each(|(r, (v, i))| row(r, v, i));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(x: &[f32], dims: &[i64], k: i64, largest: bool) -> (Vec<f32>, Vec<i32>) {
        let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out_dims = dims.to_vec();
        *out_dims.last_mut().unwrap() = k;
        let m = out_dims.iter().product::<i64>() as usize;
        let (mut v, mut i) = (vec![0u8; 4 * m], vec![0u8; 4 * m]);
        topk(
            ArrayRef::new(ElementType::F32, dims, &bytes),
            ArrayMut::new(ElementType::F32, &out_dims, &mut v),
            ArrayMut::new(ElementType::S32, &out_dims, &mut i),
            largest,
        )
        .unwrap();
        let v = v.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        let i = i.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        (v, i)
    }

    #[test]
    fn rows_in_order_ties_by_position_nan_largest() {
        let x = [1.0, 3.0, f32::NAN, 3.0, -0.0, 0.0, 2.0, -1.0];
        let (v, i) = run(&x, &[2, 4], 2, true);
        assert!(v[0].is_nan());
        assert_eq!((&v[1..], &i[..]), (&[3.0, 2.0, 0.0][..], &[2, 1, 2, 1][..]));
        assert!(v[3].is_sign_positive());
        let (v, i) = run(&x, &[2, 4], 3, false);
        assert_eq!(&i, &[0, 1, 3, 3, 0, 1]);
        assert_eq!(v[3], -1.0);
        assert!(v[4].is_sign_negative() && v[4] == 0.0);
    }

    #[test]
    fn agrees_with_a_full_sort_on_many_rows() {
        for (rows, n, k) in [(300, 257, 7), (20, 300, 100), (3, 64, 64)] {
            check_against_sort(rows, n, k);
        }
    }

    fn check_against_sort(rows: usize, n: usize, k: usize) {
        let x: Vec<f32> = (0..rows * n).map(|j| ((j * 7919) % 1013) as f32 - 500.0).collect();
        let (v, i) = run(&x, &[rows as i64, n as i64], k as i64, true);
        for r in 0..rows {
            let mut want: Vec<(f32, usize)> = (0..n).map(|j| (x[r * n + j], j)).collect();
            want.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for j in 0..k {
                assert_eq!((v[r * k + j], i[r * k + j] as usize), want[j]);
            }
        }
    }
}
