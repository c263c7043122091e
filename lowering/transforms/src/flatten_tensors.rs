//! `xla-flatten-tensors`: every tensor becomes one-dimensional (XLA's
//! `flatten_tensors`), so a tensor access is one offset into the buffer:
//! the multi-index of `tensor.extract`, `tensor.insert` and
//! `xla.atomic_rmw` is linearized row-major by an `xla.apply_indexing`
//! (which `xla-simplify-indexing` then composes with the index
//! computation it came from, so a loop over a linear index reads
//! `x[i]` again). Rank-0 tensors become `tensor<1xT>`.
//!
//! Types are rewritten in place (function arguments, loop-carried values,
//! results); dense tensor constants are reshaped.

use crate::ir::*;
use crate::lower_loops::apply;
use melior::ir::OperationRef;
use mlir_sys::*;
use rxla_indexing::{Expr, IndexingMap, Variable};
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct FlattenTensors;

impl HloPass for FlattenTensors {
    const NAME: &'static str = "xla-flatten-tensors";
    const DESCRIPTION: &'static str = "Make every tensor one-dimensional, linearizing tensor indices row-major";

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(FlattenTensors)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        let ops = walk(root);
        // Accesses first, while the tensors still have their shapes.
        for op in &ops {
            let name = op.name();
            match name.as_str() {
                "tensor.extract" => linearize_indices(*op, 0, 1)?,
                "tensor.insert" => linearize_indices(*op, 1, 2)?,
                "xla.atomic_rmw" => linearize_indices(*op, 0, 1)?,
                _ => {}
            }
        }
        for op in &ops {
            for v in op.results() {
                flatten_value(v);
            }
            for r in 0..num_regions(*op) {
                for block in region_blocks(*op, r) {
                    for a in block_args(block) {
                        flatten_value(a);
                    }
                }
            }
            if op.is_named("arith.constant") {
                if let Some(attr) = op.attr_raw("value") {
                    unsafe {
                        if mlirAttributeIsADenseElements(attr) {
                            let ty = mlirAttributeGetType(attr);
                            if is_ranked_tensor(ty) && shape_of(ty).len() != 1 {
                                let flat = flat_type(ty);
                                op.set_attr_raw("value", mlirDenseElementsAttrReshapeGet(attr, flat));
                            }
                        }
                    }
                }
            }
        }
        for func in functions(root) {
            update_function_type(func);
        }
        Ok(())
    }
}

/// `tensor<N x T>` for a ranked tensor type with `N` elements.
pub fn flat_type(ty: MlirType) -> MlirType {
    let n: i64 = shape_of(ty).iter().product();
    tensor_type(&[n], element_type(ty))
}

fn flatten_value(v: Value) {
    let ty = v.raw_type();
    if is_ranked_tensor(ty) && shape_of(ty).len() != 1 {
        set_type(v, flat_type(ty));
    }
}

/// Replaces the index operands of `op` (after `tensor_pos`, from
/// `first_index` on) with one row-major linear index.
fn linearize_indices(op: Op, tensor_pos: usize, first_index: usize) -> Result<()> {
    let operands = op.operands();
    let ty = operands[tensor_pos].raw_type();
    let dims = shape_of(ty);
    if dims.len() == 1 {
        return Ok(());
    }
    let indices = &operands[first_index..];
    if indices.len() != dims.len() {
        return Err(bug(format!("{} with {} indices into a rank-{} tensor", op.name(), indices.len(), dims.len())));
    }
    let b = B::before(op);
    let linear = if dims.is_empty() {
        b.const_index(0)
    } else {
        let mut expr = Expr::zero();
        let mut stride = 1i64;
        for d in (0..dims.len()).rev() {
            expr = expr.add(&Expr::dim(d).mul_const(stride));
            stride *= dims[d];
        }
        let vars: Vec<Variable> = dims.iter().map(|&n| Variable::new(0, n.max(1) - 1)).collect();
        let map = IndexingMap::new(vec![expr.clone()], vars, vec![], vec![], vec![]).map_err(|e| bug(e.to_string()))?;
        apply(&b, &map, vec![expr], indices)[0]
    };
    let mut new_operands = operands[..first_index].to_vec();
    new_operands.push(linear);
    op.set_operands(&new_operands);
    Ok(())
}

/// Recomputes a `func.func`'s type from its arguments and returned values.
pub fn update_function_type(func: Op) {
    let Some(block) = func.region_block(0) else { return };
    let inputs: Vec<MlirType> = block_args(block).iter().map(|a| a.raw_type()).collect();
    let results: Vec<MlirType> = match terminator(block) {
        Some(ret) if ret.is_named("func.return") => ret.operands().iter().map(|v| v.raw_type()).collect(),
        _ => function_results(function_type(func)),
    };
    set_function_type(func, make_function_type(func.context(), &inputs, &results));
}
