//! How each op's dimensions correspond between its operands and its
//! result: what sharding propagation reads forward and the partitioner
//! reads backward.
//!
//! A correspondence is a list, per result dimension, of the operand
//! dimension that is the same index space (`None`: the result dimension has
//! no counterpart and is whole on the operand side).

use rxla_ir::{
    attrs::{DotDims, StructAttr, Window, WindowDim},
    op::{Op, Value},
    types::TensorType,
};

use super::tiles::{Placement, Tiles};
use crate::gather_simplifier::GatherDims;
use crate::scatter_simplifier::ScatterDims;

/// Ops that act independently along some dimensions of their operands and
/// result (all of one rank): their sharding along those dimensions passes
/// through, and the op runs on each block alone.
pub fn passthrough_dims(op: Op) -> Option<Vec<bool>> {
    passthrough_dims_with(op, |v| v.ty().into_tensor())
}

/// [`passthrough_dims`] with the values' (global) types given by `ty`.
pub fn passthrough_dims_with(op: Op, ty: impl Fn(Value) -> Option<TensorType>) -> Option<Vec<bool>> {
    if op.num_results() == 0 {
        return None;
    }
    let out = ty(op.result(0))?;
    let rank = out.rank();
    let operand = || (op.num_operands() > 0).then(|| ty(op.operand(0))).flatten();
    let same_size = |d: usize| operand().is_some_and(|t| t.dims.get(d) == Some(&out.dims[d]));
    let dims = match op.opcode().as_str() {
        "slice" => {
            let (start, stride) = (op.dims_attr("start_indices")?, op.dims_attr("strides")?);
            (0..rank).map(|d| start[d] == 0 && stride[d] == 1 && same_size(d)).collect()
        }
        "pad" => {
            let (lo, hi) = (op.dims_attr("edge_padding_low")?, op.dims_attr("edge_padding_high")?);
            let interior = op.dims_attr("interior_padding").unwrap_or(vec![0; rank]);
            (0..rank).map(|d| lo[d] == 0 && hi[d] == 0 && interior[d] == 0).collect()
        }
        "reverse" => {
            let reversed = op.dims_attr("dimensions")?;
            (0..rank).map(|d| !reversed.contains(&(d as i64))).collect()
        }
        "concatenate" | "sort" => {
            let along = op.int_attr("dimension")? as usize;
            (0..rank).map(|d| d != along).collect()
        }
        "dynamic_slice" => (0..rank).map(same_size).collect(),
        "dynamic_update_slice" => {
            let update = ty(op.operand(1))?;
            (0..rank).map(|d| update.dims[d] == out.dims[d]).collect()
        }
        "iota" => {
            let along = op.int_attr("iota_dimension")? as usize;
            (0..rank).map(|d| d != along).collect()
        }
        _ => return None,
    };
    Some(dims)
}

/// For a `pad` without interior padding or a `slice` with unit strides:
/// per dimension, how far the op moves elements along it (result element
/// `i` is operand element `i - shift`; a pad's `edge_padding_low`, minus a
/// slice's start). `None` for other ops, and per dimension where elements
/// are spread (interior padding, strides).
pub fn shifted_dims(op: Op) -> Option<Vec<Option<i64>>> {
    let rank = op.result_type(0).tensor()?.rank();
    match op.opcode().as_str() {
        "pad" => {
            let lo = op.dims_attr("edge_padding_low")?;
            let interior = op.dims_attr("interior_padding").unwrap_or(vec![0; rank]);
            Some((0..rank).map(|d| (interior[d] == 0).then_some(lo[d])).collect())
        }
        "slice" => {
            let (start, stride) = (op.dims_attr("start_indices")?, op.dims_attr("strides")?);
            Some((0..rank).map(|d| (stride[d] == 1).then_some(-start[d])).collect())
        }
        _ => None,
    }
}

/// `reshape`: for each `to` dimension, the `from` dimension that starts at
/// the same place in the row-major order (equal products of the dimensions
/// before them). A sharding of `k` blocks carries over between the two
/// when `k` divides both sizes: the blocks are then the same ranges of the
/// flattened array.
pub fn reshape_correspondence(from: &[i64], to: &[i64]) -> Vec<Option<usize>> {
    let prefixes = |dims: &[i64]| -> Vec<i64> {
        dims.iter()
            .scan(1i64, |p, &d| {
                let before = *p;
                *p *= d;
                Some(before)
            })
            .collect()
    };
    let (pf, pt) = (prefixes(from), prefixes(to));
    (0..to.len()).map(|i| (0..from.len()).find(|&j| pf[j] == pt[i] && from[j] > 1 && to[i] > 1)).collect()
}

/// The sharding of a reshape's `to` side given the `from` side's, for
/// the dimensions that carry over (the rest whole).
pub fn reshape_carry(from_tiles: &Tiles, from: &[i64], to: &[i64]) -> Tiles {
    let map = reshape_correspondence(from, to);
    let picks: Vec<Option<(&Tiles, usize)>> = map
        .iter()
        .enumerate()
        .map(|(i, j)| {
            j.filter(|&j| {
                // Even blocks carry over; uneven ones where the dimension
                // itself is unchanged (the same elements, the same padding).
                let k = from_tiles.counts[j];
                k > 1 && ((to[i] % k == 0 && from[j] % k == 0) || to[i] == from[j])
            })
            .map(|j| (from_tiles, j))
        })
        .collect();
    Tiles::assemble(from_tiles.partitions(), &picks)
}

/// The result dimensions of a dot, by where they come from.
pub struct DotLayout {
    pub dims: DotDims,
    pub lhs_free: Vec<i64>,
    pub rhs_free: Vec<i64>,
}

impl DotLayout {
    pub fn of(op: Op, lhs_rank: usize, rhs_rank: usize) -> Option<Self> {
        let dims = DotDims::of(op)?;
        let lhs_free = DotDims::free_dims(lhs_rank, &dims.lhs_batch, &dims.lhs_contracting);
        let rhs_free = DotDims::free_dims(rhs_rank, &dims.rhs_batch, &dims.rhs_contracting);
        Some(DotLayout { dims, lhs_free, rhs_free })
    }

    /// Result dimension -> (true for lhs, operand dimension), batch
    /// dimensions read from `batch_from_lhs`'s side.
    pub fn result_sources(&self, batch_from_lhs: bool) -> Vec<(bool, usize)> {
        let batch = if batch_from_lhs { &self.dims.lhs_batch } else { &self.dims.rhs_batch };
        batch
            .iter()
            .map(|&d| (batch_from_lhs, d as usize))
            .chain(self.lhs_free.iter().map(|&d| (true, d as usize)))
            .chain(self.rhs_free.iter().map(|&d| (false, d as usize)))
            .collect()
    }

    /// An operand's sharding that matches `result` on the dimensions it
    /// shares with the result (contracting dimensions whole).
    pub fn operand_from_result(&self, result: &Tiles, lhs: bool, rank: usize) -> Tiles {
        let nb = self.dims.lhs_batch.len();
        let (batch, free, free_at) = if lhs {
            (&self.dims.lhs_batch, &self.lhs_free, nb)
        } else {
            (&self.dims.rhs_batch, &self.rhs_free, nb + self.lhs_free.len())
        };
        let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; rank];
        for (k, &d) in batch.iter().enumerate() {
            picks[d as usize] = Some((result, k));
        }
        for (k, &d) in free.iter().enumerate() {
            picks[d as usize] = Some((result, free_at + k));
        }
        Tiles::assemble(result.partitions(), &picks)
    }
}

/// The dimensions of a `convolution` without feature or batch groups: the
/// result's batch dimension is the input's, its feature dimension the
/// kernel's output features, the input features are contracted with the
/// kernel's input features, and spatial dimension `i` of the result slides
/// window dimension `i` over the input's.
#[derive(Clone, Debug)]
pub struct ConvDims {
    pub input_batch: usize,
    pub input_feature: usize,
    pub input_spatial: Vec<usize>,
    pub kernel_input_feature: usize,
    pub kernel_output_feature: usize,
    pub output_batch: usize,
    pub output_feature: usize,
    pub output_spatial: Vec<usize>,
}

/// What a block of a spatially split convolution input needs from its
/// neighbours: `low` elements from the end of the previous block, `high`
/// from the start of the next (negative: that many of its own dropped).
/// Blocks at the ends get zeros, which are the convolution's padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Halo {
    pub low: i64,
    pub high: i64,
}

/// The halo that lets window dimension `w` run on `k` blocks of an input
/// of `input` elements, each giving one of `k` blocks of the `output`
/// elements, with no padding of its own: `None` where the blocks do not
/// line up (uneven blocks, a base dilation, a stride that does not divide
/// the block) or a halo reaches past the neighbouring block.
pub fn conv_halo(w: &WindowDim, input: i64, output: i64, k: i64) -> Option<Halo> {
    if k <= 1 || w.lhs_dilation != 1 || w.stride < 1 || input % k != 0 || output % k != 0 {
        return None;
    }
    let (block, out_block) = (input / k, output / k);
    // Output block c starts at input c * out_block * stride - pad_low; the
    // input block at c * block: the same offset for every c only if these
    // agree.
    if block != out_block * w.stride {
        return None;
    }
    let extent = (w.size - 1) * w.rhs_dilation + 1;
    let halo = Halo { low: w.pad_low, high: extent - w.stride - w.pad_low };
    // From the neighbouring block only, and something of the own left.
    let fits = |h: i64| -block < h && h <= block;
    (fits(halo.low) && fits(halo.high) && block + halo.low + halo.high >= extent).then_some(halo)
}

/// Per spatial dimension of convolution `op` whose input is split in
/// `counts[input dim]` blocks: the halo when those blocks can be convolved
/// locally (see [`conv_halo`]).
pub fn conv_halos(op: Op, c: &ConvDims, input: &[i64], output: &[i64], counts: &[i64]) -> Vec<Option<Halo>> {
    let Some(window) = Window::of(op) else { return vec![None; c.input_spatial.len()] };
    c.input_spatial
        .iter()
        .zip(&c.output_spatial)
        .zip(&window.0)
        .map(|((&s, &o), w)| conv_halo(w, input[s], output[o], counts[s]))
        .collect()
}

pub fn conv_dims(op: Op) -> Option<ConvDims> {
    if op.int_attr("feature_group_count").unwrap_or(1) != 1 || op.int_attr("batch_group_count").unwrap_or(1) != 1 {
        return None;
    }
    let d = StructAttr::of(op, "dimension_numbers")?;
    let field = |name: &str| d.raw(name)?.trim().parse::<usize>().ok();
    let dims = |name: &str| d.list(name).into_iter().map(|x| x as usize).collect::<Vec<_>>();
    Some(ConvDims {
        input_batch: field("input_batch_dim")?,
        input_feature: field("input_feature_dim")?,
        input_spatial: dims("input_spatial_dims"),
        kernel_input_feature: field("kernel_input_feature_dim")?,
        kernel_output_feature: field("kernel_output_feature_dim")?,
        output_batch: field("output_batch_dim")?,
        output_feature: field("output_feature_dim")?,
        output_spatial: dims("output_spatial_dims"),
    })
}

/// The dimension numbers of a `gather` or a `scatter`, in a gather's
/// terms: a scatter's updates play the gather's result, its inserted window
/// dimensions the collapsed ones.
#[derive(Clone, Debug)]
pub struct IndexedDims {
    /// The result's (updates') dimensions that run over a window.
    pub window: Vec<usize>,
    /// Operand dimensions whose window is one element with no result
    /// dimension.
    pub collapsed: Vec<usize>,
    /// Operand dimensions indexed by the position along the index
    /// dimension of `indices_batching` at the same place.
    pub operand_batching: Vec<usize>,
    pub indices_batching: Vec<usize>,
    /// The operand dimension each index component starts.
    pub start_index_map: Vec<usize>,
    pub index_vector_dim: usize,
}

impl IndexedDims {
    /// The dimension numbers of `op` (a gather or a scatter), as the
    /// simplifier passes read them.
    pub fn of(op: Op) -> Option<Self> {
        let dims = |v: Vec<i64>| v.into_iter().map(|x| usize::try_from(x).ok()).collect::<Option<Vec<_>>>();
        let index = |x: i64| usize::try_from(x).ok();
        if op.is("scatter") {
            let d = ScatterDims::of(op)?;
            Some(IndexedDims {
                window: dims(d.update_window_dims)?,
                collapsed: dims(d.inserted_window_dims)?,
                operand_batching: dims(d.input_batching_dims)?,
                indices_batching: dims(d.scatter_indices_batching_dims)?,
                start_index_map: dims(d.scatter_dims_to_operand_dims)?,
                index_vector_dim: index(d.index_vector_dim)?,
            })
        } else {
            let d = GatherDims::of(op)?;
            Some(IndexedDims {
                window: dims(d.offset_dims)?,
                collapsed: dims(d.collapsed_slice_dims)?,
                operand_batching: dims(d.operand_batching_dims)?,
                indices_batching: dims(d.start_indices_batching_dims)?,
                start_index_map: dims(d.start_index_map)?,
                index_vector_dim: index(d.index_vector_dim)?,
            })
        }
    }

    /// The result's (updates') dimensions outside the window, paired with
    /// the index dimensions they come from (every index dimension but
    /// `index_vector_dim`, in order).
    pub fn batch_pairs(&self, indices_rank: usize, out_rank: usize) -> Option<Vec<(usize, usize)>> {
        let index_dims: Vec<usize> = (0..indices_rank).filter(|&i| i != self.index_vector_dim).collect();
        let out_dims: Vec<usize> = (0..out_rank).filter(|o| !self.window.contains(o)).collect();
        (index_dims.len() == out_dims.len()).then(|| out_dims.into_iter().zip(index_dims).collect())
    }

    /// For each operand dimension, the result (updates) dimension its
    /// window runs along (`None` for collapsed and batching dimensions).
    pub fn operand_windows(&self, operand_rank: usize) -> Vec<Option<usize>> {
        let mut windows = self.window.iter().copied();
        (0..operand_rank)
            .map(
                |d| {
                    if self.collapsed.contains(&d) || self.operand_batching.contains(&d) {
                        None
                    } else {
                        windows.next()
                    }
                },
            )
            .collect()
    }
}

/// A gather's or scatter's batch dimensions (see
/// [`IndexedDims::batch_pairs`]); `None` for batched forms
/// (`operand_batching_dims`).
pub fn indexed_batch_dims(op: Op, indices_rank: usize, out_rank: usize) -> Option<Vec<(usize, usize)>> {
    let d = IndexedDims::of(op)?;
    if !d.operand_batching.is_empty() {
        return None;
    }
    d.batch_pairs(indices_rank, out_rank)
}

/// A uniform sharding, or the replicated one in its place.
pub fn uniform_or_replicated(t: Tiles) -> Tiles {
    if t.is_uniform() {
        t
    } else {
        Tiles::replicated(t.rank(), t.partitions())
    }
}

/// The sharding of a result inferred from its operands' (XLA's forward
/// sharding propagation, simplified: every op has one rule; an op without
/// one, or whose rule gives blocks no collective could regroup, is
/// replicated).
pub fn infer(op: Op, operands: &[Placement], partitions: usize) -> Vec<Placement> {
    // Inside a region partitioned by hand, everything is.
    if operands.contains(&Placement::Manual)
        || op.string_attr("custom_call_target").as_deref() == Some("xla.sdy.GlobalToLocalShape")
    {
        return vec![Placement::Manual; op.num_results()];
    }
    let replicated = || (0..op.num_results()).map(|i| Placement::replicated(&op.result_type(i), partitions)).collect();
    let tiles = |i: usize| operands.get(i).and_then(Placement::tiles);
    let Some(out) = op.result_type(0).tensor().cloned() else {
        return match op.opcode().as_str() {
            "tuple" => vec![Placement::Tuple(operands.to_vec())],
            _ => replicated(),
        };
    };
    let one = |t: Tiles| vec![Placement::Array(uniform_or_replicated(t))];
    match op.opcode().as_str() {
        "get_tuple_element" => {
            let i = op.int_attr("index").unwrap_or(0) as usize;
            match operands.first() {
                Some(Placement::Tuple(items)) if i < items.len() => vec![items[i].clone()],
                _ => replicated(),
            }
        }
        _ if is_elementwise(op) => {
            let best = (0..op.num_operands())
                .filter(|&i| op.operand_type(i).tensor().is_some_and(|t| t.dims == out.dims))
                .filter_map(tiles)
                .fold(None, |best: Option<&Tiles>, t| match best {
                    Some(b) if b.blocks() >= t.blocks() => Some(b),
                    _ => Some(t),
                });
            match best {
                Some(t) => one(t.clone()),
                None => replicated(),
            }
        }
        "broadcast" => match (tiles(0), op.dims_attr("dimensions")) {
            (Some(l), Some(dims)) => {
                let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; out.rank()];
                for (j, &d) in dims.iter().enumerate() {
                    picks[d as usize] = Some((l, j));
                }
                one(Tiles::assemble(partitions, &picks))
            }
            _ => replicated(),
        },
        "transpose" => match (tiles(0), op.dims_attr("dimensions")) {
            (Some(l), Some(perm)) => {
                let picks: Vec<Option<(&Tiles, usize)>> = perm.iter().map(|&p| Some((l, p as usize))).collect();
                one(Tiles::assemble(partitions, &picks))
            }
            _ => replicated(),
        },
        "reshape" => match (tiles(0), op.operand_type(0).tensor()) {
            (Some(l), Some(from)) => one(reshape_carry(l, &from.dims, &out.dims)),
            _ => replicated(),
        },
        "reduce" => match (tiles(0), op.dims_attr("dimensions")) {
            (Some(l), Some(reduced)) => {
                let picks: Vec<Option<(&Tiles, usize)>> =
                    (0..l.rank()).filter(|d| !reduced.contains(&(*d as i64))).map(|d| Some((l, d))).collect();
                let t = uniform_or_replicated(Tiles::assemble(partitions, &picks));
                vec![Placement::Array(t); op.num_results()]
            }
            _ => replicated(),
        },
        "dot" => {
            let (Some(l), Some(r)) = (tiles(0), tiles(1)) else { return replicated() };
            let Some(layout) = DotLayout::of(op, l.rank(), r.rank()) else { return replicated() };
            let batch_from_lhs = layout.dims.lhs_batch.iter().any(|&d| l.counts[d as usize] > 1)
                || !layout.dims.rhs_batch.iter().any(|&d| r.counts[d as usize] > 1);
            let sources = layout.result_sources(batch_from_lhs);
            let pick = |keep_rhs_free: bool| -> Tiles {
                let nlhs = layout.dims.lhs_batch.len() + layout.lhs_free.len();
                let picks: Vec<Option<(&Tiles, usize)>> = sources
                    .iter()
                    .enumerate()
                    .map(
                        |(i, &(is_lhs, d))| {
                            if !keep_rhs_free && i >= nlhs {
                                None
                            } else {
                                Some((if is_lhs { l } else { r }, d))
                            }
                        },
                    )
                    .collect();
                Tiles::assemble(partitions, &picks)
            };
            let both = pick(true);
            one(if both.is_uniform() { both } else { pick(false) })
        }
        "convolution" => match (tiles(0), tiles(1), conv_dims(op)) {
            (Some(l), Some(r), Some(c)) => {
                let mut picks: Vec<Option<(&Tiles, usize)>> = vec![None; out.rank()];
                // Spatial splits carry over where the blocks convolve
                // locally with a halo from their neighbours.
                if let Some(input) = op.operand_type(0).tensor() {
                    for (i, halo) in conv_halos(op, &c, &input.dims, &out.dims, &l.counts).into_iter().enumerate() {
                        if halo.is_some() {
                            picks[c.output_spatial[i]] = Some((l, c.input_spatial[i]));
                        }
                    }
                }
                picks[c.output_batch] = Some((l, c.input_batch));
                picks[c.output_feature] = Some((r, c.kernel_output_feature));
                let both = Tiles::assemble(partitions, &picks);
                picks[c.output_feature] = None;
                one(if both.is_uniform() { both } else { Tiles::assemble(partitions, &picks) })
            }
            _ => replicated(),
        },
        "gather" => {
            let (Some(ot), Some(it)) = (op.operand_type(0).tensor().cloned(), op.operand_type(1).tensor().cloned())
            else {
                return replicated();
            };
            let dims = IndexedDims::of(op);
            let pairs = dims.as_ref().and_then(|g| g.batch_pairs(it.rank(), out.rank()));
            match (tiles(0), tiles(1), dims, pairs) {
                (Some(o), Some(ix), Some(g), Some(pairs)) => {
                    // The result's batch dimensions split as the indices'.
                    let mut from_indices: Vec<Option<(&Tiles, usize)>> = vec![None; out.rank()];
                    for &(r, i) in &pairs {
                        from_indices[r] = Some((ix, i));
                    }
                    let mut picks = from_indices.clone();
                    for (r, i) in pairs {
                        // A batching dimension split in the operand only.
                        if let Some(k) = g.indices_batching.iter().position(|&x| x == i) {
                            if ix.counts[i] == 1 {
                                picks[r] = Some((o, g.operand_batching[k]));
                            }
                        }
                    }
                    // Whole windows of a split operand dimension stay split.
                    let sizes = op.dims_attr("slice_sizes").unwrap_or_default();
                    for (d, r) in g.operand_windows(ot.rank()).into_iter().enumerate() {
                        if let Some(r) = r {
                            if sizes.get(d) == Some(&ot.dims[d]) && o.counts[d] > 1 {
                                picks[r] = Some((o, d));
                            }
                        }
                    }
                    let t = Tiles::assemble(partitions, &picks);
                    one(if t.is_uniform() { t } else { Tiles::assemble(partitions, &from_indices) })
                }
                _ => replicated(),
            }
        }
        // A scatter's result is its operand updated: its blocks.
        "scatter" if op.num_operands() == 3 => match tiles(0) {
            Some(o) => one(o.clone()),
            None => replicated(),
        },
        // A pad or slice keeps the operand's split along the dimensions it
        // shifts (the partitioner moves blocks by halos).
        "pad" | "slice" => match (shifted_dims(op), tiles(0)) {
            (Some(shifts), Some(l)) => {
                let picks: Vec<Option<(&Tiles, usize)>> =
                    shifts.iter().enumerate().map(|(d, s)| s.is_some().then_some((l, d))).collect();
                one(Tiles::assemble(partitions, &picks))
            }
            _ => replicated(),
        },
        _ => match (passthrough_dims(op), tiles(0)) {
            (Some(pass), Some(l)) if op.opcode() != "iota" => {
                let along = |src: &Tiles| -> Tiles {
                    let picks: Vec<Option<(&Tiles, usize)>> =
                        pass.iter().enumerate().map(|(d, &p)| p.then_some((src, d))).collect();
                    uniform_or_replicated(Tiles::assemble(partitions, &picks))
                };
                let mut t = along(l);
                // A whole buffer updated with a split block (a scan writing
                // its outputs) takes the update's split.
                if op.is("dynamic_update_slice") {
                    if let Some(u) = tiles(1).filter(|u| u.rank() == l.rank()).map(along) {
                        if u.blocks() > t.blocks() {
                            t = u;
                        }
                    }
                }
                vec![Placement::Array(t); op.num_results()]
            }
            _ => replicated(),
        },
    }
}

/// Elementwise ops, including those whose operands may be scalars
/// (`select`'s predicate, `clamp`'s bounds) and `map`.
pub fn is_elementwise(op: Op) -> bool {
    is_elementwise_with(op, |v| v.ty().into_tensor())
}

/// [`is_elementwise`] with the values' (global) types given by `ty`.
pub fn is_elementwise_with(op: Op, ty: impl Fn(Value) -> Option<TensorType>) -> bool {
    let opcode = op.opcode();
    let known = crate::reshape_mover::ELEMENTWISE.contains(&opcode.as_str()) || opcode == "map";
    if !known || op.num_results() != 1 {
        return false;
    }
    let Some(out) = ty(op.result(0)) else { return false };
    let scalars_allowed = matches!(opcode.as_str(), "select" | "clamp");
    let operands: Vec<Option<TensorType>> = op.operands().into_iter().map(&ty).collect();
    operands.iter().all(|t| t.as_ref().is_some_and(|t| t.dims == out.dims || (scalars_allowed && t.rank() == 0)))
        && (opcode != "bitcast_convert"
            || operands[0].as_ref().is_some_and(|t| t.elem.bit_width() == out.elem.bit_width()))
}
