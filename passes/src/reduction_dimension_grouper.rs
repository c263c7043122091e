//! `reduction-dimension-grouper`: adjacent reduced dimensions of a reduce
//! merged into one, as XLA's (GPU) ReductionDimensionGrouper does.
//!
//! `reduce(x: [a, b, c, d], dims = {1, 2})` becomes
//! `reduce(bitcast(x): [a, b*c, d], dims = {1})`: each run of consecutive
//! reduced dimensions of the inputs is collapsed by a bitcast (a reshape:
//! the inputs have the default layout), and the reduce reduces the merged
//! dimensions. Every input of a variadic reduce is bitcast the same way.
//! The result, init values, combiner and attributes are unchanged.
//!
//! The reduce visits the reduced indices in row-major order of the
//! reduced dimensions, and merging adjacent ones keeps that order, so the
//! combiner sees the elements in the same sequence: results are
//! bit-identical. Like XLA (which requires it), the pass only touches
//! reduces whose inputs have the default layout; reduces with dynamic
//! shapes are left alone; fusion computations are skipped.

use melior::ir::OperationRef;
use rxla_ir::layout::{layout_of, rebuild};
use rxla_ir::{
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::TensorType,
};

#[derive(Clone, Debug)]
pub struct ReductionDimensionGrouper;

impl HloPass for ReductionDimensionGrouper {
    const NAME: &'static str = "reduction-dimension-grouper";
    const DESCRIPTION: &'static str = "Merge adjacent reduced dimensions of reduces with a bitcast";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        computation::for_each_op(module, "reduce", group)
    }
}

/// The grouped shape of `dims` reduced over `reduced`, and the reduced dims
/// of the grouped shape; `None` when no two reduced dims are adjacent.
pub fn grouped(dims: &[i64], reduced: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let is_reduced = |d: usize| reduced.contains(&(d as i64));
    let mut changed = false;
    let mut shape = Vec::with_capacity(dims.len());
    let mut new_reduced = Vec::new();
    let mut run = 1i64;
    for d in 0..dims.len() {
        if is_reduced(d) && d + 1 < dims.len() && is_reduced(d + 1) {
            changed = true;
            run *= dims[d];
            continue;
        }
        if is_reduced(d) {
            shape.push(run * dims[d]);
            new_reduced.push(shape.len() as i64 - 1);
            run = 1;
        } else {
            shape.push(dims[d]);
        }
    }
    changed.then_some((shape, new_reduced))
}

/// Rewrites one reduce; false if it has no adjacent reduced dims (or
/// inputs the pass does not handle).
pub fn group(reduce: Op) -> Result<bool, PassError> {
    let n = reduce.num_operands() / 2;
    if n == 0 || reduce.num_operands() != 2 * n {
        return Ok(false);
    }
    let Some(dims) = reduce.dims_attr("dimensions") else { return Ok(false) };
    let inputs: Vec<Value> = (0..n).map(|i| reduce.operand(i)).collect();
    let Some(first) = inputs[0].ty().into_tensor() else { return Ok(false) };
    for &v in &inputs {
        if v.ty().tensor().is_none_or(|t| t.dims != first.dims) || !layout_of(v).is_default() {
            return Ok(false);
        }
    }
    let Some((shape, new_dims)) = grouped(&first.dims, &dims) else { return Ok(false) };
    let b = Builder::before(reduce);
    let mut operands = Vec::with_capacity(2 * n);
    for &v in &inputs {
        let t = v.ty().into_tensor().unwrap_or_else(|| first.clone());
        operands.push(b.bitcast(v, &TensorType::new(&shape, &t.elem))?);
    }
    operands.extend((n..2 * n).map(|i| reduce.operand(i)));
    let results: Vec<_> = reduce.results().iter().map(|r| r.ty()).collect();
    let new = rebuild(&b, reduce, &operands, &results, &["dimensions"])?;
    new.set_dims_attr("dimensions", &new_dims);
    for i in 0..reduce.num_results() {
        reduce.replace_result_uses(i, new.result(i));
    }
    reduce.erase();
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn groups_runs_of_reduced_dims() {
        assert_eq!(grouped(&[2, 3, 4, 5], &[1, 2]), Some((vec![2, 12, 5], vec![1])));
        assert_eq!(grouped(&[2, 3, 4, 5], &[0, 1, 3]), Some((vec![6, 4, 5], vec![0, 2])));
        assert_eq!(grouped(&[2, 3, 4, 5], &[3, 2, 1, 0]), Some((vec![120], vec![0])));
        assert_eq!(grouped(&[2, 3, 4, 5], &[0, 2]), None);
    }
}
