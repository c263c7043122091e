//! `scatter_simplifier`: every scatter in XLA's simplified form, as XLA's
//! ScatterSimplifier (preceded, for batched scatters, by what XLA's
//! BatchedGatherScatterNormalizer does).
//!
//! Simplified form: no inserted window dims and no batching dims, the index
//! vector dim is the last dim of the indices, the updates have at most one
//! scatter dim and it is dim 0, and the update window dims are sorted. Any
//! other scatter becomes
//!
//! 1. batching dims made explicit: iotas along the indices batching dims
//!    concatenated in front of the index vectors (the index type widened if
//!    a batch size does not fit), the input batching dims prepended to
//!    `scatter_dims_to_operand_dims` and added to the inserted window dims;
//! 2. the indices as `[N, K]` (index vector dim last, batch dims flattened
//!    in row-major order);
//! 3. each update transposed so its scatter dims come first, those
//!    flattened into one dim of size N, and size-1 dims inserted for the
//!    inserted window dims: `[N, window...]` over all operand dims;
//! 4. a scatter with `update_window_dims = 1..=rank`, the same
//!    `scatter_dims_to_operand_dims`, `index_vector_dim = 1` and the same
//!    inputs, `to_apply`, `unique_indices` and results.
//!
//! The updates are applied in the same order as before (scatter positions
//! in row-major order, each window in row-major order), so results are
//! bit-identical even with repeated indices. A scatter into rank-0 operands
//! with scalar updates applies `to_apply` once: its body is inlined in
//! place of the scatter. XLA's option to reorder the operand dims for
//! coalescing (off by default) is not implemented. Scatters with dynamic
//! shapes are left alone; fusion computations are skipped.

use crate::gather_simplifier::{
    concat_batch_indices, insert_degenerate_dims, maybe_reshape, maybe_transpose, transform_start_indices,
};
use melior::ir::OperationRef;
use rxla_ir::layout::rebuild;
use rxla_ir::{
    attrs::{Field, StructAttr},
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct ScatterSimplifier;

impl HloPass for ScatterSimplifier {
    const NAME: &'static str = "scatter_simplifier";
    const DESCRIPTION: &'static str = "Rewrite scatters to the simplified [N, K]-indices, [N, window...]-updates form";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        computation::for_each_op(module, "scatter", |op| simplify(module, op))
    }
}

fn bug(what: &str) -> PassError {
    PassError(format!("internal error: {what}"))
}

/// A scatter's dimension numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScatterDims {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

impl ScatterDims {
    pub fn of(op: Op) -> Option<Self> {
        let s = StructAttr::of(op, "dimension_numbers")?;
        Some(Self {
            update_window_dims: s.list("update_window_dims"),
            inserted_window_dims: s.list("inserted_window_dims"),
            input_batching_dims: s.list("input_batching_dims"),
            scatter_indices_batching_dims: s.list("scatter_indices_batching_dims"),
            scatter_dims_to_operand_dims: s.list("scatter_dims_to_operand_dims"),
            index_vector_dim: s.raw("index_vector_dim")?.parse().ok()?,
        })
    }

    pub fn to_struct(&self) -> StructAttr {
        let mut s = StructAttr::new("scatter");
        s.set_list("update_window_dims", self.update_window_dims.clone());
        s.set_list("inserted_window_dims", self.inserted_window_dims.clone());
        s.set_list("input_batching_dims", self.input_batching_dims.clone());
        s.set_list("scatter_indices_batching_dims", self.scatter_indices_batching_dims.clone());
        s.set_list("scatter_dims_to_operand_dims", self.scatter_dims_to_operand_dims.clone());
        s.set("index_vector_dim", Field::Raw(self.index_vector_dim.to_string()));
        s
    }
}

/// XLA's ScatterSimplifier::IsSimplifiedScatter (and no batching dims).
pub fn is_simplified(dims: &ScatterDims, operand_rank: usize, indices_rank: usize, updates_rank: usize) -> bool {
    let uwd = &dims.update_window_dims;
    operand_rank != 0
        && dims.input_batching_dims.is_empty()
        && dims.index_vector_dim + 1 == indices_rank as i64
        && updates_rank as i64 - uwd.len() as i64 <= 1
        && !uwd.contains(&0)
        && uwd.windows(2).all(|w| w[0] <= w[1])
        && dims.inserted_window_dims.is_empty()
}

/// Rewrites one scatter; false if it is already simplified (or has shapes
/// the pass does not handle).
pub fn simplify(module: Op, scatter: Op) -> Result<bool, PassError> {
    let num = scatter.num_operands();
    if num < 3 || num.is_multiple_of(2) {
        return Ok(false);
    }
    let n = (num - 1) / 2;
    let operands = scatter.operands();
    let (inputs, indices, updates) = (&operands[..n], operands[n], &operands[n + 1..]);
    if operands.iter().any(|v| v.ty().tensor().is_none()) {
        return Ok(false);
    }
    let rank_of = |v: Value| v.ty().tensor().map(|t| t.rank()).unwrap_or(0);
    let Some(mut dims) = ScatterDims::of(scatter) else { return Ok(false) };
    let (operand_rank, updates_rank) = (rank_of(inputs[0]), rank_of(updates[0]));
    if is_simplified(&dims, operand_rank, rank_of(indices), updates_rank) {
        return Ok(false);
    }
    let b = Builder::before(scatter);
    if operand_rank == 0 {
        // One update per operand, applied once (the empty index vector is
        // always in bounds): the combiner's body in place of the scatter.
        if updates_rank != 0 {
            return Ok(false);
        }
        let Some(callee) = scatter.symbol_attr("to_apply").and_then(|name| computation::lookup(module, &name)) else {
            return Ok(false);
        };
        let mut args: Vec<Value> = inputs.to_vec();
        args.extend(updates);
        let Some(results) = inline_body(&b, callee, &args, n)? else { return Ok(false) };
        for (i, v) in results.into_iter().enumerate() {
            scatter.replace_result_uses(i, v);
        }
        scatter.erase();
        return Ok(true);
    }
    let sorted = scatter.bool_attr("indices_are_sorted") == Some(true);
    let mut indices_sorted = sorted;
    let mut indices = indices;

    // 1. Batching dims become inserted window dims indexed by iotas.
    if !dims.input_batching_dims.is_empty() {
        indices = concat_batch_indices(&b, indices, dims.index_vector_dim, &dims.scatter_indices_batching_dims)?;
        let mut map = dims.input_batching_dims.clone();
        map.extend(&dims.scatter_dims_to_operand_dims);
        indices_sorted = sorted
            && dims.scatter_indices_batching_dims.windows(2).all(|w| w[0] <= w[1])
            && map.windows(2).all(|w| w[0] <= w[1]);
        dims.scatter_dims_to_operand_dims = map;
        dims.inserted_window_dims.extend(&dims.input_batching_dims);
        dims.inserted_window_dims.sort_unstable();
        dims.input_batching_dims.clear();
        dims.scatter_indices_batching_dims.clear();
    }

    // 2. Indices as [N, K].
    let flat = transform_start_indices(&b, indices, dims.index_vector_dim)?;
    let n_indices = flat.ty().tensor().map(|t| t.dims[0]).ok_or_else(|| bug("indices are not an array"))?;

    // 3. Updates as [N, window...].
    let mut new_updates = Vec::with_capacity(n);
    for &u in updates {
        let t = u.ty().into_tensor().ok_or_else(|| bug("updates are not an array"))?;
        let rank = t.rank() as i64;
        let mut perm: Vec<i64> = (0..rank).filter(|d| !dims.update_window_dims.contains(d)).collect();
        let num_scatter_dims = perm.len();
        perm.extend(&dims.update_window_dims);
        let mut v = maybe_transpose(&b, u, &perm)?;
        let vt = v.ty().into_tensor().ok_or_else(|| bug("updates are not an array"))?;
        if num_scatter_dims > 1 {
            let mut collapsed = vec![vt.dims[..num_scatter_dims].iter().product::<i64>()];
            collapsed.extend(&vt.dims[num_scatter_dims..]);
            v = maybe_reshape(&b, v, &collapsed)?;
        } else if num_scatter_dims == 0 {
            v = insert_degenerate_dims(&b, v, &[0])?;
        }
        if !dims.inserted_window_dims.is_empty() {
            let positions: Vec<i64> = dims.inserted_window_dims.iter().map(|d| d + 1).collect();
            v = insert_degenerate_dims(&b, v, &positions)?;
        }
        let vt = v.ty().into_tensor().ok_or_else(|| bug("updates are not an array"))?;
        if vt.rank() != operand_rank + 1 || vt.dims[0] != n_indices {
            return Err(bug(&format!("scatter_simplifier built updates {:?} for {n_indices} indices", vt.dims)));
        }
        new_updates.push(v);
    }

    // 4. The simplified scatter.
    let simple = ScatterDims {
        update_window_dims: (1..=operand_rank as i64).collect(),
        inserted_window_dims: Vec::new(),
        input_batching_dims: Vec::new(),
        scatter_indices_batching_dims: Vec::new(),
        scatter_dims_to_operand_dims: dims.scatter_dims_to_operand_dims.clone(),
        index_vector_dim: 1,
    };
    let mut new_operands: Vec<Value> = inputs.to_vec();
    new_operands.push(flat);
    new_operands.extend(&new_updates);
    let result_types: Vec<HloType> = scatter.results().iter().map(|r| r.ty()).collect();
    let new = rebuild(&b, scatter, &new_operands, &result_types, &["dimension_numbers", "indices_are_sorted"])?;
    new.set_struct_attr("dimension_numbers", &simple.to_struct())?;
    if indices_sorted {
        new.set_bool_attr("indices_are_sorted", true);
    }
    for i in 0..scatter.num_results() {
        scatter.replace_result_uses(i, new.result(i));
    }
    scatter.erase();
    Ok(true)
}

/// Clones the body of `callee` before the builder's point with its
/// parameters bound to `args`; returns the `expected` values it returns
/// (the elements of a returned tuple when it returns one tuple), or `None`
/// if the callee does not have that shape.
pub fn inline_body(b: &Builder, callee: Op, args: &[Value], expected: usize) -> Result<Option<Vec<Value>>, PassError> {
    let params = callee.arguments();
    if params.len() != args.len() {
        return Ok(None);
    }
    let Some(terminator) = callee.terminator() else { return Ok(None) };
    let mut map: HashMap<Value, Value> = params.iter().copied().zip(args.iter().copied()).collect();
    for op in callee.body_ops() {
        if op == terminator {
            break;
        }
        let clone = op.clone_detached();
        for i in 0..clone.num_operands() {
            if let Some(&v) = map.get(&op.operand(i)) {
                clone.set_operand(i, v);
            }
        }
        b.insert(clone.raw());
        for i in 0..op.num_results() {
            map.insert(op.result(i), clone.result(i));
        }
    }
    let returned: Vec<Value> = terminator.operands().iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect();
    if returned.len() == expected {
        return Ok(Some(returned));
    }
    if returned.len() == 1 {
        if let HloType::Tuple(items) = returned[0].ty() {
            if items.len() == expected {
                let values = (0..expected).map(|i| b.get_tuple_element(returned[0], i)).collect::<Result<_, _>>()?;
                return Ok(Some(values));
            }
        }
    }
    Err(bug("scatter combiner returns an unexpected number of values"))
}
