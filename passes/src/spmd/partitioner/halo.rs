//! Halo exchange: a block extended by the edges of its neighbouring blocks
//! along one dimension, so that a windowed op (a spatially split
//! `convolution`) runs on blocks. Each edge travels by one
//! `collective-permute`; a block at the end of the dimension receives
//! zeros, which stand for the op's padding.

use super::*;
use crate::spmd::rules::Halo;

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
