//! `reduction-layout-normalizer`: reduce inputs with a non-default layout
//! are bitcast to their physical shape (default layout) before the reduce,
//! as XLA's (GPU) ReductionLayoutNormalizer does.
//!
//! For inputs of shape `S` with layout `L` (all inputs of a variadic reduce
//! must share it), the input dims are listed major to minor: the bitcast
//! gives the physical shape `S'` with the default layout, the reduced
//! dimensions are renumbered accordingly, and the new reduce's results keep
//! the kept dims in physical order with a layout chosen so that each is, in
//! memory, exactly the original result; a bitcast to the original result
//! shape and layout follows. Bitcasts between layouts are physical no-ops
//! (the interpreter reinterprets the buffer by both layouts), so the values
//! are unchanged.
//!
//! Summation order: a reduce combines the reduced elements in row-major
//! order of the reduced dims. When the layout lists the reduced dims (those
//! of size above 1) in another relative order, the physical reduce combines
//! them in memory order instead, which can change float rounding (XLA's
//! semantics leave the order unspecified, and XLA's pass reorders freely).
//! That is what makes a reduce of a column-major array read memory
//! contiguously instead of one element per cache line. With
//! `keep-reduction-order=true` the pass only rewrites such reduces when the
//! combiner is order-insensitive (one integer or pred add/multiply/max/min/
//! and/or/xor), which keeps results bit-identical to the interpreter's.
//! Inputs with default or opaque (tiled, memory-space) layouts, inputs whose
//! layouts differ, and dynamic shapes are left alone; fusion computations
//! are skipped. Only single-result ops carry a layout in rxla, so a
//! variadic reduce is rewritten only when its kept dims stay in logical
//! order (its new results need no layout).

use melior::ir::OperationRef;
use rxla_ir::layout::{layout_of, major_to_minor, may_reduce_in_order, rebuild, LayoutKind};
use rxla_ir::{
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct ReductionLayoutNormalizer {
    /// Only rewrite reduces whose combination order stays the same (or
    /// does not matter).
    keep_reduction_order: bool,
}

impl HloPass for ReductionLayoutNormalizer {
    const NAME: &'static str = "reduction-layout-normalizer";
    const DESCRIPTION: &'static str = "Bitcast reduce inputs with non-default layouts to their physical shape";
    // Float reduces may be combined in memory order (see the module doc).
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["keep-reduction-order"])?;
        Ok(Self { keep_reduction_order: options.bool("keep-reduction-order", false)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let keep_order = self.keep_reduction_order;
        computation::for_each_op(module, "reduce", |op| normalize(module, op, keep_order))
    }
}

/// Rewrites one reduce; false if its inputs have the default layout (or it
/// cannot be rewritten, or `keep_order` forbids it).
pub fn normalize(module: Op, reduce: Op, keep_order: bool) -> Result<bool, PassError> {
    let n = reduce.num_operands() / 2;
    if n == 0 || reduce.num_operands() != 2 * n || reduce.num_results() != n {
        return Ok(false);
    }
    let Some(reduced) = reduce.dims_attr("dimensions") else { return Ok(false) };
    let inputs: Vec<Value> = (0..n).map(|i| reduce.operand(i)).collect();
    let Some(first) = inputs[0].ty().into_tensor() else { return Ok(false) };
    let layout = layout_of(inputs[0]);
    let LayoutKind::Permuted(m2m) = &layout else { return Ok(false) };
    for &v in &inputs {
        if v.ty().tensor().is_none_or(|t| t.dims != first.dims) || layout_of(v) != layout {
            return Ok(false);
        }
    }
    let rank = first.rank();
    let order = major_to_minor(m2m);
    if !may_reduce_in_order(module, reduce, &first.dims, &reduced, &order, keep_order) {
        return Ok(false);
    }
    // Each result's layout as a major-to-minor order (None: opaque).
    let mut result_orders = Vec::with_capacity(n);
    for r in reduce.results() {
        let Some(t) = r.ty().into_tensor() else { return Ok(false) };
        match layout_of(r).major_to_minor(t.rank()) {
            Some(o) => result_orders.push((t, o)),
            None => return Ok(false),
        }
    }
    // Logical result dim of each kept input dim.
    let to_result_dim = |d: i64| d - reduced.iter().filter(|&&r| r < d).count() as i64;
    let mut physical_dims = Vec::with_capacity(rank);
    let mut new_reduced = Vec::new();
    let mut kept = Vec::new(); // logical result dims, in physical order
    for (i, &d) in order.iter().enumerate() {
        physical_dims.push(first.dims[d as usize]);
        if reduced.contains(&d) {
            new_reduced.push(i as i64);
        } else {
            kept.push(to_result_dim(d));
        }
    }
    // New results: kept dims in physical input order; the layout puts them
    // in memory in the original result's physical order.
    let mut new_types = Vec::with_capacity(n);
    let mut new_layouts = Vec::with_capacity(n);
    for (t, result_order) in &result_orders {
        let dims: Vec<i64> = kept.iter().map(|&d| t.dims[d as usize]).collect();
        // Major to minor over new dims: the new dim of each logical result
        // dim in the result's major-to-minor order.
        let new_order: Vec<i64> = result_order
            .iter()
            .map(|d| kept.iter().position(|k| k == d).map(|p| p as i64))
            .collect::<Option<_>>()
            .ok_or_else(|| PassError("internal error: reduce result dims do not match".into()))?;
        let m2m: Vec<i64> = new_order.iter().rev().copied().collect();
        new_layouts.push(m2m);
        new_types.push(HloType::Tensor(TensorType::new(&dims, &t.elem)));
    }
    let is_default = |m: &Vec<i64>| rxla_ir::layout::is_default_minor_to_major(m);
    // Only single-result ops carry a layout: a variadic reduce is rewritten
    // only when its new results need none.
    if n > 1 && new_layouts.iter().any(|m| !is_default(m)) {
        return Ok(false);
    }
    let b = Builder::before(reduce);
    let mut operands = Vec::with_capacity(2 * n);
    for &v in &inputs {
        let elem = v.ty().tensor().map(|t| t.elem.clone()).unwrap_or_else(|| first.elem.clone());
        operands.push(b.bitcast(v, &TensorType::new(&physical_dims, &elem))?);
    }
    operands.extend((n..2 * n).map(|i| reduce.operand(i)));
    let new = rebuild(&b, reduce, &operands, &new_types, &["dimensions", "hlo.layout"])?;
    new.set_dims_attr("dimensions", &new_reduced);
    if !is_default(&new_layouts[0]) {
        rxla_ir::layout::set_layout(new, &new_layouts[0])?;
    }
    for i in 0..n {
        let (t, _) = &result_orders[i];
        let value = if new.result(i).ty().tensor().is_some_and(|nt| nt.dims == t.dims)
            && is_default(&new_layouts[i])
            && layout_of(reduce.result(i)).is_default()
        {
            new.result(i)
        } else {
            let cast = b.bitcast(new.result(i), t)?;
            if let (Some(layout), Some(op)) = (reduce.result(i).layout_attr(), cast.op()) {
                op.set_attr_raw("hlo.layout", layout);
            }
            cast
        };
        reduce.replace_result_uses(i, value);
    }
    reduce.erase();
    Ok(true)
}
