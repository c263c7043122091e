//! `gather_simplifier`: every gather in XLA's simplified form, as XLA's
//! GatherSimplifier (preceded, for batched gathers, by what XLA's
//! BatchedGatherScatterNormalizer does).
//!
//! Simplified form: the start indices are `[N, K]` with `index_vector_dim =
//! 1`, no collapsed slice dims and no batching dims, and the offset dims are
//! `1..=rank(operand)` (the result is `[N, slice_sizes...]`). Any other
//! gather becomes
//!
//! 1. batching dims made explicit: for each `start_indices_batching_dims`
//!    entry an iota along it is concatenated in front of the indices along
//!    the index vector dim (the index type is widened to s32/s64 if a
//!    batch size does not fit), the operand batching dims are prepended to
//!    `start_index_map` and join the collapsed dims;
//! 2. the indices transposed so the index vector dim is last (or given a
//!    trailing dim of 1 when it is implicit) and reshaped to `[N, K]`;
//! 3. a simplified gather with the same `start_index_map` and slice sizes;
//! 4. the collapsed dims removed, the batch dims restored and the offset
//!    dims moved to their places with a reshape and a transpose.
//!
//! A gather with a zero slice size becomes a broadcast zero, a gather from
//! a rank-0 operand a broadcast of the operand. Only data moves, so the
//! results are bit-identical (out-of-bounds start indices are clamped the
//! same way: the index values are unchanged and the iotas are in bounds).
//! Gathers with dynamic shapes are left alone; fusion computations are
//! skipped.

use crate::constant::ConstantBuilder;
use crate::constant::Scalar;
use melior::ir::OperationRef;
use rxla_ir::layout::{copy_layout_attr, rebuild};
use rxla_ir::{
    attrs::StructAttr,
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, ElementType, HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct GatherSimplifier;

impl HloPass for GatherSimplifier {
    const NAME: &'static str = "gather_simplifier";
    const DESCRIPTION: &'static str =
        "Rewrite gathers to the simplified [N, K]-indices form with reshapes and transposes around them";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        computation::for_each_op(module, "gather", simplify)
    }
}

fn bug(what: &str) -> PassError {
    PassError(format!("internal error: {what}"))
}

/// A gather's dimension numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatherDims {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

impl GatherDims {
    pub fn of(op: Op) -> Option<Self> {
        let s = StructAttr::of(op, "dimension_numbers")?;
        Some(Self {
            offset_dims: s.list("offset_dims"),
            collapsed_slice_dims: s.list("collapsed_slice_dims"),
            operand_batching_dims: s.list("operand_batching_dims"),
            start_indices_batching_dims: s.list("start_indices_batching_dims"),
            start_index_map: s.list("start_index_map"),
            index_vector_dim: s.raw("index_vector_dim")?.parse().ok()?,
        })
    }

    pub fn to_struct(&self) -> StructAttr {
        let mut s = StructAttr::new("gather");
        s.set_list("offset_dims", self.offset_dims.clone());
        s.set_list("collapsed_slice_dims", self.collapsed_slice_dims.clone());
        s.set_list("operand_batching_dims", self.operand_batching_dims.clone());
        s.set_list("start_indices_batching_dims", self.start_indices_batching_dims.clone());
        s.set_list("start_index_map", self.start_index_map.clone());
        s.set("index_vector_dim", rxla_ir::attrs::Field::Raw(self.index_vector_dim.to_string()));
        s
    }
}

/// XLA's GatherSimplifier::IsSimplifiedGather (and no batching dims).
pub fn is_simplified(dims: &GatherDims, indices_rank: usize) -> bool {
    let operand_rank = dims.collapsed_slice_dims.len() + dims.offset_dims.len() + dims.operand_batching_dims.len();
    operand_rank != 0
        && dims.operand_batching_dims.is_empty()
        && indices_rank == 2
        && dims.index_vector_dim == 1
        && dims.collapsed_slice_dims.is_empty()
        && dims.offset_dims.first() == Some(&1)
        && dims.offset_dims.last() == Some(&(dims.offset_dims.len() as i64))
}

fn tensor(v: Value) -> Result<TensorType, PassError> {
    v.ty().into_tensor().ok_or_else(|| bug("expected an array"))
}

/// `v` transposed by `perm`, or `v` itself for the identity.
pub fn maybe_transpose(b: &Builder, v: Value, perm: &[i64]) -> Result<Value, PassError> {
    if shape::is_identity_permutation(perm) {
        Ok(v)
    } else {
        b.transpose(v, perm)
    }
}

/// `v` reshaped to `dims`, or `v` itself if it has them. A reshape of an
/// unused reshape (one just built) reshapes its operand instead.
pub fn maybe_reshape(b: &Builder, v: Value, dims: &[i64]) -> Result<Value, PassError> {
    if tensor(v)?.dims == dims {
        return Ok(v);
    }
    if let Some(def) = v.op().filter(|d| d.is("reshape") && !v.has_uses()) {
        let source = def.operand(0);
        def.erase();
        return maybe_reshape(b, source, dims);
    }
    b.reshape(v, dims)
}

/// Size-1 dims inserted so that they are at `positions` (sorted) of the
/// result (XLA's InsertDegenerateDims).
pub fn insert_degenerate_dims(b: &Builder, v: Value, positions: &[i64]) -> Result<Value, PassError> {
    let t = tensor(v)?;
    let rank = t.rank() + positions.len();
    let mut dims = Vec::with_capacity(rank);
    let mut src = t.dims.iter();
    for i in 0..rank as i64 {
        if positions.contains(&i) {
            dims.push(1);
        } else {
            dims.push(*src.next().ok_or_else(|| bug("degenerate dim positions out of range"))?);
        }
    }
    maybe_reshape(b, v, &dims)
}

/// The size-1 dims at `positions` removed (XLA's ElideDegenerateDims).
pub fn elide_degenerate_dims(b: &Builder, v: Value, positions: &[i64]) -> Result<Value, PassError> {
    let t = tensor(v)?;
    let dims = shape::remove_dims(&t.dims, positions);
    maybe_reshape(b, v, &dims)
}

/// XLA's TransformStartIndices: the indices as `[N, K]` with the index
/// vector dim last.
pub fn transform_start_indices(b: &Builder, indices: Value, index_vector_dim: i64) -> Result<Value, PassError> {
    let t = tensor(indices)?;
    let mut rank = t.rank() as i64;
    let mut v = indices;
    if index_vector_dim == rank {
        v = insert_degenerate_dims(b, v, &[rank])?;
        rank += 1;
    } else if index_vector_dim < rank - 1 {
        let mut perm: Vec<i64> = (0..rank).filter(|&d| d != index_vector_dim).collect();
        perm.push(index_vector_dim);
        v = maybe_transpose(b, v, &perm)?;
    }
    let t = tensor(v)?;
    if rank > 2 {
        let n: i64 = t.dims[..(rank - 1) as usize].iter().product();
        v = maybe_reshape(b, v, &[n, t.dims[(rank - 1) as usize]])?;
    } else if rank == 1 {
        v = insert_degenerate_dims(b, v, &[0])?;
    }
    Ok(v)
}

/// The largest value an integer element type holds (None if not an
/// integer type).
fn integer_max(elem: &ElementType) -> Option<i128> {
    let w = elem.bit_width() as i128;
    if elem.is_unsigned_int() {
        Some((1i128 << w) - 1)
    } else if elem.is_signed_int() {
        Some((1i128 << (w - 1)) - 1)
    } else {
        None
    }
}

/// What XLA's BatchedGatherScatterNormalizer does to the indices: an iota
/// along each indices batching dim concatenated in front of the index
/// vectors. Returns the new indices (same index vector dim; a trailing dim
/// of 1 is added first when the index vector dim is implicit).
pub fn concat_batch_indices(
    b: &Builder,
    indices: Value,
    index_vector_dim: i64,
    indices_batching_dims: &[i64],
) -> Result<Value, PassError> {
    let mut t = tensor(indices)?;
    let mut v = indices;
    // Widen the index type if a batch size does not fit.
    let largest = indices_batching_dims.iter().map(|&d| t.dims[d as usize]).max().unwrap_or(0) as i128;
    if integer_max(&t.elem).is_some_and(|max| largest > max) {
        let wide = if largest <= i32::MAX as i128 { "i32" } else { "i64" };
        v = b.convert(v, &ElementType::new(wide))?;
        t = tensor(v)?;
    }
    if index_vector_dim == t.rank() as i64 {
        v = insert_degenerate_dims(b, v, &[index_vector_dim])?;
        t = tensor(v)?;
    }
    let mut iota_ty = t.clone();
    iota_ty.dims[index_vector_dim as usize] = 1;
    let mut parts = Vec::with_capacity(indices_batching_dims.len() + 1);
    for &d in indices_batching_dims {
        parts.push(b.iota(&iota_ty, d)?);
    }
    parts.push(v);
    b.concatenate(&parts, index_vector_dim)
}

/// Replaces `op`'s single result by `value`, moving `op`'s layout to the
/// op defining `value` if it is new, and erases `op`.
pub fn replace_single(op: Op, value: Value) {
    if let Some(def) = value.op() {
        if op.attr_raw("hlo.layout").is_some() {
            copy_layout_attr(op, def);
        }
    }
    op.replace_result_uses(0, value);
    op.erase();
}

/// Rewrites one gather; false if it is already simplified (or has shapes
/// the pass does not handle).
pub fn simplify(gather: Op) -> Result<bool, PassError> {
    let (Some(operand_ty), Some(indices_ty), Some(out)) = (
        gather.operand_type(0).tensor().cloned(),
        gather.operand_type(1).tensor().cloned(),
        gather.result_type(0).tensor().cloned(),
    ) else {
        return Ok(false);
    };
    let Some(mut dims) = GatherDims::of(gather) else { return Ok(false) };
    let Some(slice_sizes) = gather.dims_attr("slice_sizes") else { return Ok(false) };
    if is_simplified(&dims, indices_ty.rank()) {
        return Ok(false);
    }
    let b = Builder::before(gather);
    let sorted = gather.bool_attr("indices_are_sorted") == Some(true);
    let operand = gather.operand(0);
    let mut indices = gather.operand(1);

    // Zero-sized slices: the result has no elements.
    if slice_sizes.contains(&0) {
        let zero = b.scalar(&out.elem, Scalar::Int(0))?;
        let value = b.broadcast_scalar(zero, &out.dims)?;
        replace_single(gather, value);
        return Ok(true);
    }
    if operand_ty.rank() == 0 {
        let value = b.broadcast_scalar(operand, &out.dims)?;
        replace_single(gather, value);
        return Ok(true);
    }

    // 1. Batching dims become collapsed dims indexed by iotas.
    let mut indices_sorted = sorted;
    if !dims.operand_batching_dims.is_empty() {
        indices = concat_batch_indices(&b, indices, dims.index_vector_dim, &dims.start_indices_batching_dims)?;
        let mut map = dims.operand_batching_dims.clone();
        map.extend(&dims.start_index_map);
        indices_sorted = sorted
            && dims.start_indices_batching_dims.windows(2).all(|w| w[0] <= w[1])
            && map.windows(2).all(|w| w[0] <= w[1]);
        dims.start_index_map = map;
        dims.collapsed_slice_dims.extend(&dims.operand_batching_dims);
        dims.collapsed_slice_dims.sort_unstable();
        dims.operand_batching_dims.clear();
        dims.start_indices_batching_dims.clear();
    }
    let indices_dims = tensor(indices)?.dims;

    // 2. Indices as [N, K].
    let flat = transform_start_indices(&b, indices, dims.index_vector_dim)?;
    let n = tensor(flat)?.dims[0];

    // 3. The simplified gather.
    let rank = operand_ty.rank() as i64;
    let simple = GatherDims {
        offset_dims: (1..=rank).collect(),
        collapsed_slice_dims: Vec::new(),
        operand_batching_dims: Vec::new(),
        start_indices_batching_dims: Vec::new(),
        start_index_map: dims.start_index_map.clone(),
        index_vector_dim: 1,
    };
    let mut result_dims = vec![n];
    result_dims.extend(&slice_sizes);
    let result_ty = HloType::Tensor(out.with_dims(&result_dims));
    let new = rebuild(
        &b,
        gather,
        &[operand, flat],
        &[result_ty],
        &["dimension_numbers", "indices_are_sorted", "hlo.layout", "hlo.sharding"],
    )?;
    new.set_struct_attr("dimension_numbers", &simple.to_struct())?;
    if indices_sorted {
        new.set_bool_attr("indices_are_sorted", true);
    }
    let mut result = new.result(0);

    // 4. Collapse, expand the batch dims, move the offset dims.
    if !dims.collapsed_slice_dims.is_empty() {
        let positions: Vec<i64> = dims.collapsed_slice_dims.iter().map(|d| d + 1).collect();
        result = elide_degenerate_dims(&b, result, &positions)?;
    }
    let batch_dims: Vec<i64> =
        indices_dims.iter().enumerate().filter(|(i, _)| *i as i64 != dims.index_vector_dim).map(|(_, &d)| d).collect();
    let t = tensor(result)?;
    let mut expanded = batch_dims.clone();
    expanded.extend(&t.dims[1..]);
    result = maybe_reshape(&b, result, &expanded)?;
    let output_rank = batch_dims.len() + dims.offset_dims.len();
    let mut perm = Vec::with_capacity(output_rank);
    let (mut offset_index, mut batch_index) = (batch_dims.len() as i64, 0i64);
    for i in 0..output_rank as i64 {
        if dims.offset_dims.contains(&i) {
            perm.push(offset_index);
            offset_index += 1;
        } else {
            perm.push(batch_index);
            batch_index += 1;
        }
    }
    result = maybe_transpose(&b, result, &perm)?;
    if tensor(result)?.dims != out.dims {
        return Err(bug(&format!("gather_simplifier built {:?} for a {:?} gather", tensor(result)?.dims, out.dims)));
    }
    replace_single(gather, result);
    Ok(true)
}
