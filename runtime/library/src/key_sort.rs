//! Sorting by precomputed keys: the fast path for comparators that compare
//! one key per element (`compare(g(lhs0), g(rhs0), LT|GT)` with `g` the same
//! elementwise function on both sides; the runtime recognizes them and
//! computes the keys `g(x)` with a compiled kernel).
//!
//! Each key becomes an unsigned integer whose order is the comparison's
//! (signed integers: the sign bit flipped; floats in total order:
//! `-NaN < -inf < ... < -0 < +0 < ... < inf < NaN`, the sign bit flipped for
//! positive values and all bits for negative ones; descending: the bits
//! inverted). Every slice along the sort dimension sorts `(key, position)`
//! pairs: positions are unique, so an unstable sort of the pairs is stable
//! by key. All operands are then permuted by the sorted positions.

use crate::array::{byte_size, checked_dims, ArrayMut, ArrayRef, ElementType};
use rayon::prelude::*;

/// Below this many elements a batched sort runs on the calling thread.
const PARALLEL_ELEMENTS: usize = 1 << 15;

/// How keys compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrder {
    Signed,
    Unsigned,
    /// Floats in IEEE total order.
    TotalOrder,
}

/// The order-preserving unsigned image of a key's `width` low bits.
#[inline]
pub(crate) fn ordered_bits(bits: u64, width: u32, order: KeyOrder, descending: bool) -> u64 {
    let sign = 1u64 << (width - 1);
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let u = match order {
        KeyOrder::Unsigned => bits,
        KeyOrder::Signed => bits ^ sign,
        KeyOrder::TotalOrder => {
            if bits & sign != 0 {
                !bits & mask
            } else {
                bits | sign
            }
        }
    };
    if descending {
        !u & mask
    } else {
        u
    }
}

/// The raw bits of key `i` (little-endian, `size` bytes).
#[inline]
pub(crate) fn key_bits(data: &[u8], size: usize, i: usize) -> u64 {
    match size {
        1 => data[i] as u64,
        2 => u16::from_le_bytes([data[2 * i], data[2 * i + 1]]) as u64,
        4 => u32::from_le_bytes(data[4 * i..4 * i + 4].try_into().expect("4 bytes")) as u64,
        _ => u64::from_le_bytes(data[8 * i..8 * i + 8].try_into().expect("8 bytes")),
    }
}

/// Copies elements of `es` bytes: `dst[i] = src[perm[i]]` (element
/// offsets through `at`).
fn gather(src: &[u8], dst: *mut u8, es: usize, perm: &[u32], at: impl Fn(usize) -> usize) {
    macro_rules! typed {
        ($t:ty) => {{
            let s = src.as_ptr() as *const $t;
            let d = dst as *mut $t;
            for (i, &p) in perm.iter().enumerate() {
                // SAFETY: offsets within the operand; `dst` is the
                // operand's buffer, `src` a copy of it (aligned alike).
                unsafe { *d.add(at(i)) = std::ptr::read_unaligned(s.add(at(p as usize))) };
            }
        }};
    }
    match es {
        1 => typed!(u8),
        2 => typed!(u16),
        4 => typed!(u32),
        8 => typed!(u64),
        _ => {
            for (i, &p) in perm.iter().enumerate() {
                // SAFETY: as above, `es` bytes per element.
                unsafe {
                    std::ptr::copy_nonoverlapping(src.as_ptr().add(at(p as usize) * es), dst.add(at(i) * es), es)
                };
            }
        }
    }
}

/// Stable LSD radix sort of `(key, position)` pairs by the low `bits` bits
/// of the keys, a byte at a time (bytes that are the same in every key are
/// skipped).
fn radix_sort(pairs: &mut Vec<(u64, u32)>, bits: usize) {
    let mut scratch = vec![(0u64, 0u32); pairs.len()];
    for shift in (0..bits).step_by(8) {
        let mut counts = [0usize; 256];
        for &(k, _) in pairs.iter() {
            counts[((k >> shift) & 0xff) as usize] += 1;
        }
        if counts.contains(&pairs.len()) {
            continue;
        }
        let mut offsets = [0usize; 256];
        let mut total = 0;
        for (o, c) in offsets.iter_mut().zip(counts) {
            *o = total;
            total += c;
        }
        for &p in pairs.iter() {
            let d = ((p.0 >> shift) & 0xff) as usize;
            scratch[offsets[d]] = p;
            offsets[d] += 1;
        }
        std::mem::swap(pairs, &mut scratch);
    }
}

/// Sorts every slice along `dimension` of `operands` by `keys` (same dims
/// as the operands), stably, permuting all operands together.
pub fn sort_by_keys(
    keys: ArrayRef,
    operands: &mut [ArrayMut],
    dimension: usize,
    order: KeyOrder,
    descending: bool,
) -> Result<(), String> {
    let dims = keys.dims.to_vec();
    checked_dims("sort", "keys", keys.ty, keys.dims, keys.data.len())?;
    let size = byte_size(keys.ty);
    let float = matches!(keys.ty, ElementType::F16 | ElementType::Bf16 | ElementType::F32 | ElementType::F64);
    if !(1..=8).contains(&size) || (order == KeyOrder::TotalOrder) != float {
        return Err(format!("sort: keys of type {} cannot be ordered as {order:?}", keys.ty.name()));
    }
    for (k, a) in operands.iter().enumerate() {
        checked_dims("sort", &format!("operand {k}"), a.ty, a.dims, a.data.len())?;
        if a.dims != dims.as_slice() {
            return Err(format!("sort: operand {k} has dims {:?}, the keys {dims:?}", a.dims));
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
    if len > u32::MAX as usize {
        return Err("sort: slices longer than 2^32 elements".into());
    }
    let inner: usize = dims[dimension + 1..].iter().product();
    let slices = total / len;
    let at = move |s: usize, i: usize| (s / inner) * len * inner + (s % inner) + i * inner;
    // The permutation of every slice.
    let bits = 8 * size;
    let sort_slice = |s: usize| -> Result<Vec<u32>, String> {
        let _ = &keys;
        let width = 8 * size as u32;
        let mut pairs: Vec<(u64, u32)> = (0..len)
            .map(|i| (ordered_bits(key_bits(keys.data, size, at(s, i)), width, order, descending), i as u32))
            .collect();
        if len >= 256 {
            radix_sort(&mut pairs, bits);
        } else {
            pairs.sort_unstable();
        }
        Ok(pairs.into_iter().map(|(_, i)| i).collect())
    };
    // Small sorts stay on the calling thread: handing a few thousand
    // elements to the thread pool cost more than sorting them.
    let parallel = slices > 1 && total >= PARALLEL_ELEMENTS;
    let perms: Vec<Vec<u32>> = if parallel {
        (0..slices).into_par_iter().map(sort_slice).collect::<Result<_, _>>()?
    } else {
        (0..slices).map(sort_slice).collect::<Result<_, _>>()?
    };
    // Gather each operand through the permutations.
    for a in operands.iter_mut() {
        let es = byte_size(a.ty);
        let src = a.data.to_vec();
        let out = a.data.as_mut_ptr() as usize;
        let gather_slice = |(s, perm): (usize, &Vec<u32>)| {
            // Slices are disjoint: threads write disjoint elements.
            gather(&src, out as *mut u8, es, perm, |i| at(s, i));
        };
        if parallel {
            perms.par_iter().enumerate().for_each(gather_slice);
        } else {
            perms.iter().enumerate().for_each(gather_slice);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn radix_sort_is_stable() {
        let mut state = 12345u64;
        let mut pairs: Vec<(u64, u32)> = (0..5000)
            .map(|i| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 40) % 97, i)
            })
            .collect();
        let mut expected = pairs.clone();
        expected.sort();
        radix_sort(&mut pairs, 32);
        assert_eq!(pairs, expected);
    }

    #[test]
    fn total_order_is_ieee_total_order_and_stable() {
        let keys = [f32::NAN, 1.0, -0.0, 0.0, f32::NEG_INFINITY, -f32::NAN, -1.0, 1.0, f32::INFINITY];
        let kb = f32_bytes(&keys);
        let dims = [keys.len() as i64];
        let mut payload: Vec<u8> = (0..keys.len() as u8).collect();
        let mut ops = [ArrayMut::new(ElementType::U8, &dims, &mut payload)];
        sort_by_keys(ArrayRef::new(ElementType::F32, &dims, &kb), &mut ops, 0, KeyOrder::TotalOrder, false).unwrap();
        // -NaN, -inf, -1, -0, +0, 1 (position 1), 1 (position 7), inf, NaN
        assert_eq!(payload, vec![5, 4, 6, 2, 3, 1, 7, 8, 0]);
    }

    #[test]
    fn descending_signed_keys_along_an_inner_dimension() {
        // [2, 3]: sort each row by its keys, descending.
        let keys: Vec<u8> = [3i32, -1, 3, 0, 7, -5].iter().flat_map(|x| x.to_le_bytes()).collect();
        let dims = [2i64, 3];
        let mut payload: Vec<u8> = (0..6).collect();
        let mut ops = [ArrayMut::new(ElementType::U8, &dims, &mut payload)];
        sort_by_keys(ArrayRef::new(ElementType::S32, &dims, &keys), &mut ops, 1, KeyOrder::Signed, true).unwrap();
        assert_eq!(payload, vec![0, 2, 1, 4, 3, 5]);
        // Along dimension 0 (columns).
        let mut payload: Vec<u8> = (0..6).collect();
        let mut ops = [ArrayMut::new(ElementType::U8, &dims, &mut payload)];
        sort_by_keys(ArrayRef::new(ElementType::S32, &dims, &keys), &mut ops, 0, KeyOrder::Signed, false).unwrap();
        assert_eq!(payload, vec![3, 1, 5, 0, 4, 2]);
    }
}
