//! The indexed ops, `gather` and `scatter`: blocks of the indices, and
//! blocks of the operand where each partition can tell which indices fall
//! in its block.

use super::contractions::{gather_cost, partial_bytes};
use super::*;
use crate::spmd::rules::IndexedDims;

/// How a `gather` runs on blocks: the operand's and the indices' blocks,
/// the result's blocks over its dimensions plus one per split indexed
/// operand dimension (summed over by an all-reduce), and those operand
/// dimensions with their index components.
struct GatherPlan {
    operand: Tiles,
    indices: Tiles,
    partial: Tiles,
    /// `(operand dimension, index component)` of each split dimension the
    /// indices select in.
    indexed: Vec<(usize, usize)>,
}

/// How a one-operand `scatter` runs into its operand's blocks (see
/// [`Partitioner::scatter`]).
struct ScatterPlan {
    operand: Tiles,
    indices: Tiles,
    updates: Tiles,
    indexed: Vec<(usize, usize)>,
}

/// What choosing a gather's blocks reads.
#[derive(Clone, Copy)]
struct GatherShape<'a> {
    dims: &'a IndexedDims,
    /// (result dimension, index dimension) of the batch dimensions.
    pairs: &'a [(usize, usize)],
    sizes: &'a [i64],
    operand: &'a TensorType,
    indices_rank: usize,
    out_rank: usize,
}

impl Partitioner<'_> {
    /// `gather`: the indices split along their batch dimensions as the
    /// result's; the operand split where a partition's block serves its
    /// indices: along a batching dimension (the indices' matching
    /// dimension split alike), along a dimension taken whole by every
    /// window (the result's window dimension split alike), or along a
    /// dimension the indices select single elements in (each partition
    /// gathers what falls in its block, zeros elsewhere, and an
    /// all-reduce sums them, as XLA does for a split embedding table).
    /// The operand's other dimensions are whole. Of that and the operand
    /// whole, the cheaper in bytes moved.
    pub(super) fn gather(&mut self, op: Op, operands: &[Local], t: Tiles) -> Result<()> {
        let (ot, it, out) =
            (self.global_tensor(op.operand(0))?, self.global_tensor(op.operand(1))?, self.global_tensor(op.result(0))?);
        let sizes = op.dims_attr("slice_sizes").unwrap_or_default();
        let (Some(g), true) = (IndexedDims::of(op), sizes.len() == ot.rank()) else {
            return self.whole_op(op, operands);
        };
        let Some(pairs) = g.batch_pairs(it.rank(), out.rank()) else { return self.whole_op(op, operands) };
        let (o, ix) = (self.tiles_of(&operands[0])?, self.tiles_of(&operands[1])?);
        let shape = GatherShape {
            dims: &g,
            pairs: &pairs,
            sizes: &sizes,
            operand: &ot,
            indices_rank: it.rank(),
            out_rank: out.rank(),
        };
        let kept = self.gather_plan(&shape, &o, &t, false);
        let whole = self.gather_plan(&shape, &o, &t, true);
        let cost = |plan: &GatherPlan| {
            let sum = if plan.indexed.is_empty() { 0 } else { 2 * partial_bytes(&plan.partial, &out) };
            gather_cost(&o, &plan.operand, ot.byte_size()) + gather_cost(&ix, &plan.indices, it.byte_size()) + sum
        };
        let plan = match (kept, whole) {
            (Some(k), Some(w)) => {
                if cost(&k) <= cost(&w) {
                    k
                } else {
                    w
                }
            }
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => return self.whole_op(op, operands),
        };
        let b = Builder::before(op);
        let ov = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(plan.operand.clone()))?;
        let mut iv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(plan.indices.clone()))?;
        let mut mask = None;
        if !plan.indexed.is_empty() {
            let (local, inside) = self.local_indices(&b, iv, &g, &plan.indexed, &plan.operand, &ot, true)?;
            iv = local;
            mask = inside;
        }
        op.set_operand(0, ov);
        op.set_operand(1, iv);
        // Windows over a whole split dimension take the whole block.
        let block = plan.operand.local_dims(&ot.dims);
        let local_sizes: Vec<i64> = (0..ot.rank())
            .map(|d| if plan.operand.counts[d] > 1 && sizes[d] == ot.dims[d] { block[d] } else { sizes[d] })
            .collect();
        if local_sizes != sizes {
            op.set_dims_attr("slice_sizes", &local_sizes);
        }
        let rank = out.rank();
        let result = Tiles {
            counts: plan.partial.counts[..rank].to_vec(),
            coords: plan.partial.coords.iter().map(|c| c[..rank].to_vec()).collect(),
        };
        self.finish(op, &[Placement::Array(result.clone())])?;
        let Some(inside) = mask else { return Ok(()) };
        // Zeros where the index fell outside the block (-0.0 for floats:
        // x + -0.0 is x for every x, +0.0 included), then the sum.
        let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
            .at_location_of(op);
        let local = Builder::tensor(op.result(0))?;
        let zero = if local.elem.is_float() { Scalar::Float(-0.0) } else { zero_of(&local.elem) };
        let zeros = after.splat_broadcast(&local.elem, zero, &local.dims)?;
        let batch: Vec<i64> = pairs.iter().map(|&(r, _)| r as i64).collect();
        let inside = after.broadcast(inside, &batch, &local.dims)?;
        let masked = after.select(inside, op.result(0), zeros)?;
        let extra: Vec<usize> = (rank..plan.partial.rank()).collect();
        let groups =
            plan.partial.groups_varying(&extra).ok_or_else(|| PassError("internal error: uneven groups".into()))?;
        let adder =
            computation::scalar_reducer(self.module, if local.elem.is_pred() { "or" } else { "add" }, &local.elem)?;
        let summed = self.all_reduce(&after, masked, &groups, &adder)?;
        self.locals.insert(op.result(0), Local { value: summed, place: Placement::Array(result) });
        Ok(())
    }

    /// The blocks of a gather with the operand split as `o` where that
    /// serves (`operand_whole`: not at all) and the rest as the result's
    /// `t`; `None` where they do not form a uniform sharding.
    fn gather_plan(&self, shape: &GatherShape, o: &Tiles, t: &Tiles, operand_whole: bool) -> Option<GatherPlan> {
        let GatherShape { dims: g, pairs, sizes, operand: ot, indices_rank, out_rank } = *shape;
        let windows = g.operand_windows(ot.rank());
        let mut op_picks: Vec<Option<(&Tiles, usize)>> = vec![None; ot.rank()];
        let mut ip: Vec<Option<(&Tiles, usize)>> = vec![None; indices_rank];
        let mut rp: Vec<Option<(&Tiles, usize)>> = vec![None; out_rank];
        let mut indexed = Vec::new();
        for d in 0..ot.rank() {
            if operand_whole || o.counts[d] == 1 || ot.dims[d] % o.counts[d] != 0 {
                continue;
            }
            if g.operand_batching.contains(&d) {
                op_picks[d] = Some((o, d));
            } else if let Some(j) = g.start_index_map.iter().position(|&x| x == d) {
                if sizes[d] == 1 {
                    op_picks[d] = Some((o, d));
                    indexed.push((d, j));
                }
            } else if let (Some(r), true) = (windows[d], sizes[d] == ot.dims[d]) {
                op_picks[d] = Some((o, d));
                rp[r] = Some((o, d));
            }
        }
        let operand = Tiles::assemble(self.n, &op_picks);
        // The indices' dimensions: a batching one split as its operand
        // dimension, the others as the result's.
        for &(r, i) in pairs {
            match g.indices_batching.iter().position(|&x| x == i) {
                Some(k) => ip[i] = Some((&operand, g.operand_batching[k])),
                None => ip[i] = Some((t, r)),
            }
        }
        let indices = Tiles::assemble(self.n, &ip);
        for &(r, i) in pairs {
            rp[r] = Some((&indices, i));
        }
        rp.extend(indexed.iter().map(|&(d, _)| Some((&operand, d))));
        let partial = Tiles::assemble(self.n, &rp);
        (operand.is_uniform() && indices.is_uniform() && partial.is_uniform()).then_some(GatherPlan {
            operand,
            indices,
            partial,
            indexed,
        })
    }

    /// Indices `iv` made local to the operand blocks `operand` along the
    /// split dimensions `indexed` (operand dimension, index component),
    /// for a gather after the clamping a gather of the whole operand does
    /// (a scatter skips what falls outside the operand, block or whole);
    /// and the mask of the index vectors that fall in this partition's
    /// block (the indices' shape without the index vector dimension).
    #[allow(clippy::too_many_arguments)]
    fn local_indices(
        &mut self,
        b: &Builder,
        iv: Value,
        g: &IndexedDims,
        indexed: &[(usize, usize)],
        operand: &Tiles,
        ot: &TensorType,
        gather: bool,
    ) -> Result<(Value, Option<Value>)> {
        let it = Builder::tensor(iv)?;
        let ivd = g.index_vector_dim;
        let explicit = ivd < it.rank();
        let components = g.start_index_map.len();
        let component = |j: usize| -> Result<Value> {
            if !explicit || it.dims[ivd] == 1 {
                return Ok(iv);
            }
            let mut start = vec![0; it.rank()];
            let mut limit = it.dims.clone();
            start[ivd] = j as i64;
            limit[ivd] = j as i64 + 1;
            b.slice(iv, &start, &limit, &vec![1; it.rank()])
        };
        let mut parts: Vec<Value> = (0..components).map(component).collect::<Result<_>>()?;
        let mut inside: Option<Value> = None;
        for &(d, j) in indexed {
            let shape = Builder::tensor(parts[j])?;
            let scalar = |x: i64| b.splat_broadcast(&shape.elem, Scalar::Int(x as i128), &shape.dims);
            let clamped = if gather {
                b.value("hlo.clamp", &[scalar(0)?, parts[j], scalar(ot.dims[d] - 1)?], shape.clone().into(), &[])?
            } else {
                parts[j]
            };
            let offset = self.offset(b, &operand.offsets(&ot.dims, d))?;
            let offset = if shape.elem == ElementType::new("i32") { offset } else { b.convert(offset, &shape.elem)? };
            let offset = b.broadcast_scalar(offset, &shape.dims)?;
            let local = b.subtract(clamped, offset)?;
            if gather {
                let block = operand.local_dims(&ot.dims)[d];
                let low = b.compare("GE", local, scalar(0)?, None)?;
                let high = b.compare("LT", local, scalar(block)?, None)?;
                let here = b.binary("and", low, high)?;
                inside = Some(match inside {
                    Some(m) => b.binary("and", m, here)?,
                    None => here,
                });
            }
            parts[j] = local;
        }
        let local = if !explicit || components == 1 { parts[0] } else { b.concatenate(&parts, ivd as i64)? };
        // The mask over the index vectors: drop the vector dimension.
        let batch: Vec<i64> = (0..it.rank()).filter(|&i| !explicit || i != ivd).map(|i| it.dims[i]).collect();
        let inside = match inside {
            Some(m) if explicit => Some(b.reshape(m, &batch)?),
            m => m,
        };
        Ok((local, inside))
    }

    /// `scatter` (one operand), the cheapest in bytes moved of:
    /// - the operand split where a partition can tell which updates fall
    ///   in its block: along a batching dimension (the indices and updates
    ///   split alike), along a dimension every window covers whole (the
    ///   updates' window dimension split alike), or along a dimension the
    ///   indices select single elements in (indices made local to the
    ///   block: the others fall outside it, and a scatter skips those);
    ///   updates and indices whole elsewhere. Any combiner; no collective
    ///   but what brings the updates.
    /// - with an `add` combiner (a gradient of a gather), updates split
    ///   along their batch dimensions: each partition scatters its updates
    ///   into zeros, an all-reduce sums the partitions' contributions, and
    ///   the operand is added once;
    /// - everything whole.
    pub(super) fn scatter(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        if op.num_operands() == 3 && op.num_results() == 1 {
            if let Some(plan) = self.scatter_plan(op, operands)? {
                return self.scatter_into_blocks(op, operands, plan);
            }
        }
        self.scatter_split_updates(op, operands)
    }

    /// The blocks of a one-operand scatter into its operand's blocks,
    /// where that moves fewer bytes than a whole scatter.
    fn scatter_plan(&self, op: Op, operands: &[Local]) -> Result<Option<ScatterPlan>> {
        let (ot, it, ut) = (
            self.global_tensor(op.operand(0))?,
            self.global_tensor(op.operand(1))?,
            self.global_tensor(op.operand(2))?,
        );
        let (Some(g), Some(o)) = (IndexedDims::of(op), operands[0].place.tiles()) else { return Ok(None) };
        let Some(pairs) = g.batch_pairs(it.rank(), ut.rank()) else { return Ok(None) };
        let (ix, u) = (self.tiles_of(&operands[1])?, self.tiles_of(&operands[2])?);
        let windows = g.operand_windows(ot.rank());
        let mut op_picks: Vec<Option<(&Tiles, usize)>> = vec![None; ot.rank()];
        let mut ip: Vec<Option<(&Tiles, usize)>> = vec![None; it.rank()];
        let mut up: Vec<Option<(&Tiles, usize)>> = vec![None; ut.rank()];
        let mut indexed = Vec::new();
        for d in 0..ot.rank() {
            let window = windows[d].map_or(1, |r| ut.dims[r]);
            let indexes = g.start_index_map.contains(&d);
            if o.counts[d] == 1 {
                // A whole operand dimension split in the indices (a batching
                // one) or the updates (one every window takes whole): the
                // operand split alike (a whole operand's block is a local
                // slice).
                if let Some(k) = g.operand_batching.iter().position(|&x| x == d) {
                    let i = g.indices_batching[k];
                    let pair = pairs.iter().find(|&&(_, x)| x == i);
                    if let (Some(&(r, _)), true) = (pair, ix.counts[i] > 1 && ot.dims[d] % ix.counts[i] == 0) {
                        op_picks[d] = Some((&ix, i));
                        ip[i] = Some((&ix, i));
                        up[r] = Some((&ix, i));
                    }
                } else if let (Some(r), false) = (windows[d], indexes) {
                    if window == ot.dims[d] && u.counts[r] > 1 && ot.dims[d] % u.counts[r] == 0 {
                        op_picks[d] = Some((&u, r));
                        up[r] = Some((&u, r));
                    }
                }
                continue;
            }
            if ot.dims[d] % o.counts[d] != 0 {
                continue;
            }
            if let Some(k) = g.operand_batching.iter().position(|&x| x == d) {
                let i = g.indices_batching[k];
                let Some(&(r, _)) = pairs.iter().find(|&&(_, x)| x == i) else { continue };
                op_picks[d] = Some((o, d));
                ip[i] = Some((o, d));
                up[r] = Some((o, d));
            } else if let Some(j) = g.start_index_map.iter().position(|&x| x == d) {
                if window == 1 {
                    op_picks[d] = Some((o, d));
                    indexed.push((d, j));
                }
            } else if let (Some(r), true) = (windows[d], window == ot.dims[d]) {
                op_picks[d] = Some((o, d));
                up[r] = Some((o, d));
            }
        }
        let plan = ScatterPlan {
            operand: Tiles::assemble(self.n, &op_picks),
            indices: Tiles::assemble(self.n, &ip),
            updates: Tiles::assemble(self.n, &up),
            indexed,
        };
        let uniform = plan.operand.is_uniform() && plan.indices.is_uniform() && plan.updates.is_uniform();
        if plan.operand.is_replicated() || !uniform {
            return Ok(None);
        }
        let cost = gather_cost(o, &plan.operand, ot.byte_size())
            + gather_cost(&ix, &plan.indices, it.byte_size())
            + gather_cost(&u, &plan.updates, ut.byte_size());
        let whole = ot.byte_size()
            + gather_cost(&ix, &ix.without(&(0..it.rank()).collect::<Vec<_>>()), it.byte_size())
            + gather_cost(&u, &u.without(&(0..ut.rank()).collect::<Vec<_>>()), ut.byte_size());
        Ok((cost <= whole).then_some(plan))
    }

    fn scatter_into_blocks(&mut self, op: Op, operands: &[Local], plan: ScatterPlan) -> Result<()> {
        let ot = self.global_tensor(op.operand(0))?;
        let g = IndexedDims::of(op).ok_or_else(|| PassError("internal error: a scatter without dimensions".into()))?;
        let b = Builder::before(op);
        let ov = self.reshard(&b, &operands[0], op.operand(0), &Placement::Array(plan.operand.clone()))?;
        let mut iv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(plan.indices))?;
        let uv = self.reshard(&b, &operands[2], op.operand(2), &Placement::Array(plan.updates))?;
        if !plan.indexed.is_empty() {
            iv = self.local_indices(&b, iv, &g, &plan.indexed, &plan.operand, &ot, false)?.0;
        }
        op.set_operand(0, ov);
        op.set_operand(1, iv);
        op.set_operand(2, uv);
        self.finish(op, &[Placement::Array(plan.operand)])
    }

    /// `scatter` with an `add` combiner and updates split along their
    /// batch dimensions: into zeros, all-reduced, the operand added once;
    /// any other scatter whole.
    fn scatter_split_updates(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let single = op.num_operands() == 3 && op.num_results() == 1;
        let adds = single && combiner_is_add(self.module, op);
        let (Some(it), Some(ut)) = (
            (op.num_operands() == 3).then(|| self.global_tensor(op.operand(1)).ok()).flatten(),
            (op.num_operands() == 3).then(|| self.global_tensor(op.operand(2)).ok()).flatten(),
        ) else {
            return self.whole_op(op, operands);
        };
        let pairs = rules::indexed_batch_dims(op, it.rank(), ut.rank());
        let updates = operands[2].place.tiles().cloned();
        let (Some(pairs), Some(u), true) = (pairs, updates, adds) else { return self.whole_op(op, operands) };
        let split: Vec<(usize, usize)> = pairs.iter().copied().filter(|&(o, _)| u.counts[o] > 1).collect();
        if split.is_empty() || split.iter().any(|&(o, _)| ut.dims[o] % u.counts[o] != 0) {
            return self.whole_op(op, operands);
        }
        // Updates keep their split batch dimensions (windows whole); the
        // indices follow them.
        let mut up: Vec<Option<(&Tiles, usize)>> = vec![None; ut.rank()];
        let mut ip: Vec<Option<(&Tiles, usize)>> = vec![None; it.rank()];
        for &(o, i) in &split {
            up[o] = Some((&u, o));
            ip[i] = Some((&u, o));
        }
        let (uw, iw) = (Tiles::assemble(self.n, &up), Tiles::assemble(self.n, &ip));
        if !uw.is_uniform() {
            return self.whole_op(op, operands);
        }
        let b = Builder::before(op);
        let whole = self.whole(op.operand(0));
        let base = self.reshard(&b, &operands[0], op.operand(0), &whole)?;
        let iv = self.reshard(&b, &operands[1], op.operand(1), &Placement::Array(iw))?;
        let uv = self.reshard(&b, &operands[2], op.operand(2), &Placement::Array(uw.clone()))?;
        let operand_ty = Builder::tensor(base)?;
        let zeros = b.splat_broadcast(&operand_ty.elem, zero_of(&operand_ty.elem), &operand_ty.dims)?;
        op.set_operand(0, zeros);
        op.set_operand(1, iv);
        op.set_operand(2, uv);
        self.finish(op, std::slice::from_ref(&whole))?;
        let groups = uw
            .groups_varying(&split.iter().map(|&(o, _)| o).collect::<Vec<_>>())
            .ok_or_else(|| PassError("internal error: uneven groups".into()))?;
        let adder = computation::scalar_reducer(self.module, "add", &operand_ty.elem)?;
        let after = Builder::before(op.next().ok_or_else(|| PassError("internal error: no op after".into()))?)
            .at_location_of(op);
        let summed = self.all_reduce(&after, op.result(0), &groups, &adder)?;
        let total = after.add(base, summed)?;
        self.locals.insert(op.result(0), Local { value: total, place: whole });
        Ok(())
    }
}

/// True if `scatter`'s combiner adds the update to the operand (one `add`
/// of its two parameters), so that contributions scattered into zeros
/// sum to the same result.
pub(super) fn combiner_is_add(module: Op, scatter: Op) -> bool {
    let Some(f) = scatter.symbol_attr("to_apply").and_then(|name| computation::lookup(module, &name)) else {
        return false;
    };
    let (body, args) = (f.body_ops(), f.arguments());
    body.len() == 2
        && args.len() == 2
        && body[0].is("add")
        && body[0].num_operands() == 2
        && ((body[0].operand(0) == args[0] && body[0].operand(1) == args[1])
            || (body[0].operand(0) == args[1] && body[0].operand(1) == args[0]))
        && body[1].operand(0) == body[0].result(0)
}
