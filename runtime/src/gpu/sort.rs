//! Sorts by keys on the device: a stable LSD radix sort of `(key,
//! position)` pairs (`kernels/radix_sort.ptx`, rxla's own PTX, loaded once
//! per device next to the executables' kernels), then every operand
//! gathered through the sorted positions. XLA:GPU calls CUB's radix sort
//! for the same comparators (its sort rewriter); rxla keeps no CUDA C++, so
//! the sort is written in PTX.
//!
//! The keys come from the sort's key kernel (`crate::sort_keys`); each is
//! mapped to a u64 whose unsigned order is the comparator's (as
//! `rxla_library::key_sort` does on the host), then sorted a byte at a
//! time. Batched sorts (the sort dimension innermost, `slices` rows of
//! `len`) add passes over the bytes of the slice index: the sort is
//! stable, so those last passes group the rows and keep each row in key
//! order. Other sorts (another dimension innermost, 16-byte elements, more
//! than 2^31 elements) run on the host.

use super::device::{Backend, Kernel};
use crate::program::{Program, Slot, Step};
use rxla_library::{
    array::{byte_size, ElementType},
    key_sort::KeyOrder,
};

/// The PTX of the device library's sort kernels.
pub const PTX: &str = include_str!("kernels/radix_sort.ptx");

/// Its kernels, in the order [`SortKernels`] holds them.
pub const KERNEL_NAMES: [&str; 6] = [
    "rxla_sort_init",
    "rxla_sort_histogram",
    "rxla_sort_scan",
    "rxla_sort_bases",
    "rxla_sort_scatter",
    "rxla_sort_gather",
];

/// Elements per tile of the histogram and scatter kernels (256 threads).
const TILE: u64 = 4096;

/// The loaded sort kernels.
#[derive(Clone, Copy)]
pub struct SortKernels {
    pub init: Kernel,
    pub histogram: Kernel,
    pub scan: Kernel,
    pub bases: Kernel,
    pub scatter: Kernel,
    pub gather: Kernel,
}

/// A `Step::SortByKeys` as the device sorts it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceSort {
    /// Elements per slice (the sort dimension) and slices.
    pub len: u64,
    pub slices: u64,
    pub key_type: ElementType,
    pub order: KeyOrder,
    pub descending: bool,
    pub operand_types: Vec<ElementType>,
}

impl DeviceSort {
    pub fn elements(&self) -> u64 {
        self.len * self.slices
    }

    pub fn key_bytes(&self) -> u64 {
        byte_size(self.key_type) as u64
    }

    /// Radix passes: one per key byte, and one per byte of the largest
    /// slice index.
    pub fn passes(&self) -> u64 {
        let slice_bits = 64 - (self.slices.saturating_sub(1)).leading_zeros() as u64;
        self.key_bytes() + slice_bits.div_ceil(8)
    }
}

/// How the device sorts `step`, if it can.
pub fn device_sort(p: &Program, step: &Step) -> Option<DeviceSort> {
    let Step::SortByKeys { keys, outputs, dimension, order, descending } = step else { return None };
    let key = &p.slots[*keys].shape;
    let dims = &key.dims;
    if *dimension >= dims.len() || dims[dimension + 1..].iter().any(|&d| d != 1) {
        return None;
    }
    let total: i64 = dims.iter().product();
    let len = dims[*dimension];
    if total <= 0 || len <= 0 || total > i32::MAX as i64 {
        return None;
    }
    let key_bytes = byte_size(key.ty) as u64;
    let float = is_float(key.ty);
    if !matches!(key_bytes, 1 | 2 | 4 | 8) || (*order == KeyOrder::TotalOrder) != float {
        return None;
    }
    let operand_types: Vec<ElementType> = outputs.iter().map(|&s: &Slot| p.slots[s].shape.ty).collect();
    if operand_types.iter().any(|&t| !matches!(byte_size(t), 1 | 2 | 4 | 8)) {
        return None;
    }
    Some(DeviceSort {
        len: len as u64,
        slices: (total / len) as u64,
        key_type: key.ty,
        order: *order,
        descending: *descending,
        operand_types,
    })
}

/// The key types ordered as floats (`KeyOrder::TotalOrder`), as in
/// `rxla_library::key_sort`.
fn is_float(t: ElementType) -> bool {
    matches!(t, ElementType::F16 | ElementType::Bf16 | ElementType::F32 | ElementType::F64)
}

/// Runs `s` with `kernels` on `device`: `keys` and the `operands` (sorted
/// in place) are device addresses.
pub fn run(
    device: &dyn Backend,
    kernels: &SortKernels,
    s: &DeviceSort,
    keys: u64,
    operands: &[u64],
) -> Result<(), String> {
    let n = s.elements();
    if n == 0 || s.len <= 1 {
        return Ok(());
    }
    let tiles = n.div_ceil(TILE);
    let blocks = |threads: u64| [n.div_ceil(threads) as i64, 1, 1];
    let scratch = Scratch::new(device, &[8 * n, 8 * n, 4 * n, 4 * n, 4 * 256 * tiles, 4 * 256])?;
    let (mut keys_a, mut keys_b, mut pos_a, mut pos_b, counts, bases) =
        (scratch.ptrs[0], scratch.ptrs[1], scratch.ptrs[2], scratch.ptrs[3], scratch.ptrs[4], scratch.ptrs[5]);
    let key_bytes = s.key_bytes();
    let width = 8 * key_bytes;
    let sign = 1u64 << (width - 1);
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let order = match s.order {
        KeyOrder::Unsigned => 0,
        KeyOrder::Signed => 1,
        KeyOrder::TotalOrder => 2,
    };
    device.launch(
        &kernels.init,
        blocks(256),
        [256, 1, 1],
        &[keys, n, key_bytes, order, s.descending as u64, sign, mask, keys_a, pos_a],
    )?;
    let key_passes = (0..key_bytes).map(|b| (0u64, 8 * b));
    let slice_passes = (0..s.passes() - key_bytes).map(|b| (1u64, 8 * b));
    for (mode, shift) in key_passes.chain(slice_passes) {
        let tiled = [tiles as i64, 1, 1];
        device.launch(
            &kernels.histogram,
            tiled,
            [256, 1, 1],
            &[keys_a, pos_a, n, s.len, mode, shift, counts, tiles],
        )?;
        device.launch(&kernels.scan, [256, 1, 1], [1024, 1, 1], &[counts, tiles, bases])?;
        device.launch(&kernels.bases, [1, 1, 1], [256, 1, 1], &[bases])?;
        device.launch(
            &kernels.scatter,
            tiled,
            [256, 1, 1],
            &[keys_a, pos_a, keys_b, pos_b, n, s.len, mode, shift, counts, tiles, bases],
        )?;
        std::mem::swap(&mut keys_a, &mut keys_b);
        std::mem::swap(&mut pos_a, &mut pos_b);
    }
    // The operands hold the unsorted values: gather each from a copy.
    for (&operand, &ty) in operands.iter().zip(&s.operand_types) {
        let bytes = byte_size(ty) as u64;
        let copy = Scratch::new(device, &[n * bytes])?;
        device.copy(copy.ptrs[0], operand, (n * bytes) as usize)?;
        device.launch(&kernels.gather, blocks(256), [256, 1, 1], &[copy.ptrs[0], operand, pos_a, n, bytes])?;
    }
    Ok(())
}

/// Device memory for one sort, freed (in stream order) when dropped.
struct Scratch<'a> {
    device: &'a dyn Backend,
    ptrs: Vec<u64>,
}

impl<'a> Scratch<'a> {
    fn new(device: &'a dyn Backend, sizes: &[u64]) -> Result<Scratch<'a>, String> {
        let mut scratch = Scratch { device, ptrs: Vec::with_capacity(sizes.len()) };
        for &size in sizes {
            scratch.ptrs.push(device.alloc(size as usize)?);
        }
        Ok(scratch)
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        for &p in &self.ptrs {
            self.device.free(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_library::array::ArrayShape;

    fn sort_program(dims: &[i64], key: ElementType, operand: ElementType, dimension: usize) -> (Program, Step) {
        let mut p = Program::new("t");
        let keys = p.new_slot(ArrayShape::new(key, dims.to_vec()), None, "keys");
        let out = p.new_slot(ArrayShape::new(operand, dims.to_vec()), None, "out");
        let order = if is_float(key) { KeyOrder::TotalOrder } else { KeyOrder::Signed };
        let step = Step::SortByKeys { keys, outputs: vec![out], dimension, order, descending: false };
        (p, step)
    }

    #[test]
    fn rows_sorted_along_the_last_dimension_run_on_the_device() {
        let (p, step) = sort_program(&[8, 1000], ElementType::F32, ElementType::S32, 1);
        let s = device_sort(&p, &step).expect("a device sort");
        assert_eq!((s.len, s.slices, s.key_bytes(), s.operand_types.clone()), (1000, 8, 4, vec![ElementType::S32]));
        // 4 key bytes and one byte of slice index (0..7).
        assert_eq!(s.passes(), 5);
        let (p, step) = sort_program(&[4096], ElementType::S64, ElementType::F64, 0);
        assert_eq!(device_sort(&p, &step).expect("a device sort").passes(), 8);
        // Trailing unit dimensions keep the sort dimension innermost.
        let (p, step) = sort_program(&[3, 300, 1], ElementType::F16, ElementType::Pred, 1);
        assert_eq!(device_sort(&p, &step).expect("a device sort").slices, 3);
        let (p, step) = sort_program(&[300, 70000], ElementType::F32, ElementType::F32, 1);
        assert_eq!(device_sort(&p, &step).expect("a device sort").passes(), 6);
    }

    #[test]
    fn other_sorts_stay_on_the_host() {
        // Sorting along a dimension that is not innermost.
        let (p, step) = sort_program(&[8, 1000], ElementType::F32, ElementType::F32, 0);
        assert!(device_sort(&p, &step).is_none());
        // 16-byte operands.
        let (p, step) = sort_program(&[100], ElementType::F32, ElementType::C128, 0);
        assert!(device_sort(&p, &step).is_none());
    }

    #[test]
    fn the_ptx_names_every_kernel() {
        for name in KERNEL_NAMES {
            assert!(PTX.contains(&format!(".visible .entry {name}(")), "{name}");
        }
    }
}
