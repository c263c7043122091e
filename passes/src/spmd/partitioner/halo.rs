//! Halo exchange: a block extended by the edges of its neighbouring blocks
//! along one dimension, so that a windowed op (a spatially split
//! `convolution`) runs on blocks. Each edge travels by one
//! `collective-permute`; a block at the end of the dimension receives
//! zeros, which stand for the op's padding.

use super::*;
use crate::spmd::rules::Halo;
use crate::spmd::tiles::block;

impl Partitioner<'_> {
    /// `v`, a block of dimension `d` split as `tiles`, with `halo.low`
    /// elements of the previous block before it and `halo.high` of the
    /// next after it (a negative count drops that many of its own).
    pub(super) fn exchange_halo(
        &mut self,
        b: &Builder,
        v: Value,
        tiles: &Tiles,
        d: usize,
        halo: Halo,
    ) -> Result<Value> {
        // Partitions that differ only in dimension d, in block order.
        let groups = tiles.groups_varying(&[d]).ok_or_else(|| PassError("internal error: uneven blocks".into()))?;
        let size = Builder::tensor(v)?.dims[d];
        let mut parts = Vec::new();
        if halo.low > 0 {
            let edge = slice_along(b, v, d, size - halo.low, size)?;
            let pairs: Vec<(usize, usize)> = groups.iter().flat_map(|g| g.windows(2).map(|w| (w[0], w[1]))).collect();
            parts.push(self.collective_permute(b, edge, &pairs)?);
        }
        parts.push(v);
        if halo.high > 0 {
            let edge = slice_along(b, v, d, 0, halo.high)?;
            let pairs: Vec<(usize, usize)> = groups.iter().flat_map(|g| g.windows(2).map(|w| (w[1], w[0]))).collect();
            parts.push(self.collective_permute(b, edge, &pairs)?);
        }
        let extended = if parts.len() > 1 { b.concatenate(&parts, d as i64)? } else { v };
        let (drop_low, drop_high) = ((-halo.low).max(0), (-halo.high).max(0));
        if drop_low == 0 && drop_high == 0 {
            return Ok(extended);
        }
        let len = Builder::tensor(extended)?.dims[d];
        slice_along(b, extended, d, drop_low, len - drop_high)
    }
}

/// Elements `[start, limit)` of dimension `d` of `v`.
fn slice_along(b: &Builder, v: Value, d: usize, start: i64, limit: i64) -> Result<Value> {
    let dims = Builder::tensor(v)?.dims;
    let mut starts = vec![0; dims.len()];
    let mut limits = dims.clone();
    starts[d] = start;
    limits[d] = limit;
    b.slice(v, &starts, &limits, &vec![1; dims.len()])
}

/// How blocks move for an op that shifts elements along a dimension (a
/// pad or a slice, result element `i` is operand element `i - shift`):
/// the halo every block takes from its neighbours, then each partition's
/// window of its extended block.
#[derive(Clone, Debug)]
pub(super) struct Shift {
    halo: Halo,
    /// Zeros added around the extended block so that every window is
    /// inside it (before, after).
    pad: (i64, i64),
    /// Per block index: the window's start in the padded extended block,
    /// and the global operand index of its first element.
    starts: Vec<(i64, i64)>,
    /// Some window reaches outside the operand (a pad's padding).
    outside: bool,
}

/// The [`Shift`] of `k` blocks of an `n_in`-element dimension to `k`
/// blocks of `n_out` elements; `None` where a block needs more than its
/// neighbours' blocks.
pub(super) fn shift_plan(n_in: i64, n_out: i64, k: i64, shift: i64) -> Option<Shift> {
    let (bi, bo) = (block(n_in, k), block(n_out, k));
    let (mut low, mut high, mut outside) = (0i64, 0i64, false);
    for c in 0..k {
        let (s, e) = (c * bo - shift, c * bo - shift + bo);
        // Only the real output elements matter; the rest is padding.
        let real_end = (c * bo + bo).min(n_out) - shift;
        outside |= s < 0 || real_end > n_in;
        let (cs, ce) = (s.max(0), e.min(n_in));
        if cs < ce {
            low = low.max(c * bi - cs);
            high = high.max(ce - (c + 1) * bi);
        }
    }
    if low > bi || high > bi {
        return None;
    }
    let extended = bi + low + high;
    let offsets: Vec<i64> = (0..k).map(|c| c * bo - shift - (c * bi - low)).collect();
    let pad_low = offsets.iter().map(|&o| -o).max().unwrap_or(0).max(0);
    let pad_high = offsets.iter().map(|&o| o + bo - extended).max().unwrap_or(0).max(0);
    let starts = (0..k).map(|c| (offsets[c as usize] + pad_low, c * bo - shift)).collect();
    Some(Shift { halo: Halo { low, high }, pad: (pad_low, pad_high), starts, outside })
}

impl Partitioner<'_> {
    /// `v`, blocks of dimension `d` (split as `tiles`) of an operand of
    /// `n_in` elements there, moved by `plan` into the blocks of the
    /// result's `n_out` elements; where a window reaches outside the
    /// operand, `fill` (a scalar) if given.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shift_blocks(
        &mut self,
        b: &Builder,
        v: Value,
        tiles: &Tiles,
        d: usize,
        (n_in, n_out): (i64, i64),
        plan: &Shift,
        fill: Option<Value>,
    ) -> Result<Value> {
        let k = tiles.counts[d];
        let mut x = self.exchange_halo(b, v, tiles, d, plan.halo)?;
        let local = Builder::tensor(x)?;
        if plan.pad != (0, 0) {
            let zero = b.scalar(&local.elem, zero_of(&local.elem))?;
            let (mut lo, mut hi) = (vec![0; local.rank()], vec![0; local.rank()]);
            lo[d] = plan.pad.0;
            hi[d] = plan.pad.1;
            x = b.pad(x, zero, &lo, &hi, &vec![0; local.rank()])?;
        }
        let per_partition = |f: &dyn Fn((i64, i64)) -> i64| -> Vec<i64> {
            tiles.coords.iter().map(|c| f(plan.starts[c[d] as usize])).collect()
        };
        let mut indices = Vec::new();
        for i in 0..local.rank() {
            let table = if i == d { per_partition(&|s| s.0) } else { vec![0; self.n] };
            indices.push(self.offset(b, &table)?);
        }
        let mut sizes = Builder::tensor(x)?.dims;
        sizes[d] = block(n_out, k);
        let window = b.value(
            "hlo.dynamic_slice",
            &[vec![x], indices].concat(),
            TensorType::new(&sizes, &local.elem).into(),
            &[("slice_sizes", b.dims_attr(&sizes))],
        )?;
        let (Some(fill), true) = (fill, plan.outside) else { return Ok(window) };
        // Elements from outside the operand are the fill value.
        let s32 = ElementType::new("i32");
        let iota = b.iota(&TensorType::new(&sizes, &s32), d as i64)?;
        let first = self.offset(b, &per_partition(&|s| s.1))?;
        let index = b.add(iota, b.broadcast_scalar(first, &sizes)?)?;
        let zero = b.splat_broadcast(&s32, Scalar::Int(0), &sizes)?;
        let end = b.splat_broadcast(&s32, Scalar::Int(n_in as i128), &sizes)?;
        let inside = b.binary("and", b.compare("GE", index, zero, None)?, b.compare("LT", index, end, None)?)?;
        b.select(inside, window, b.broadcast_scalar(fill, &sizes)?)
    }
}

impl Partitioner<'_> {
    /// A `pad` (no interior padding) or a `slice` (unit strides) whose
    /// result is split along a dimension it shifts elements on: the
    /// operand split alike, its blocks moved by halos and a window each
    /// (XLA's windowed resharding), the op then local along that
    /// dimension. False (nothing done) where it does not apply.
    pub(super) fn shifted(&mut self, op: Op, operands: &[Local], t: &Tiles) -> Result<bool> {
        let Some(shifts) = rules::shifted_dims(op) else { return Ok(false) };
        let (it, out) = (self.global_tensor(op.operand(0))?, self.global_tensor(op.result(0))?);
        let mut plans = Vec::new();
        for (d, &shift) in shifts.iter().enumerate() {
            if t.counts[d] == 1 {
                continue;
            }
            let Some(shift) = shift else { return Ok(false) };
            if shift == 0 && it.dims[d] == out.dims[d] {
                continue; // blocks stay where they are
            }
            let Some(plan) = shift_plan(it.dims[d], out.dims[d], t.counts[d], shift) else { return Ok(false) };
            plans.push((d, plan));
        }
        if plans.is_empty() || !t.is_uniform() {
            return Ok(false);
        }
        let b = Builder::before(op);
        let mut v = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(t.clone()))?;
        let fill = match op.opcode().as_str() {
            "pad" => Some(self.reshard(&b, &operands[1], op.operand(1), &self.whole(op.operand(1)))?),
            _ => None,
        };
        for (d, plan) in &plans {
            v = self.shift_blocks(&b, v, t, *d, (it.dims[*d], out.dims[*d]), plan, fill)?;
        }
        op.set_operand(0, v);
        if let Some(fill) = fill {
            op.set_operand(1, fill);
        }
        // Along the split dimensions the op now does nothing.
        let local = t.local_dims(&out.dims);
        let set = |name: &str, value: &dyn Fn(usize) -> i64| -> Result<()> {
            if let Some(mut attr) = op.dims_attr(name) {
                for d in (0..out.rank()).filter(|&d| t.counts[d] > 1) {
                    attr[d] = value(d);
                }
                op.set_dims_attr(name, &attr);
            }
            Ok(())
        };
        if op.is("pad") {
            set("edge_padding_low", &|_| 0)?;
            set("edge_padding_high", &|_| 0)?;
        } else {
            set("start_indices", &|_| 0)?;
            set("limit_indices", &|d| local[d])?;
        }
        self.finish(op, &[Placement::Array(t.clone())])?;
        Ok(true)
    }
}
