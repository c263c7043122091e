//! `tuple-simplifier`: removes tuple construction that is immediately taken
//! apart, as XLA's TupleSimplifier does:
//!
//! - `get_tuple_element(tuple(x0, ..., xn), i)` is `xi`;
//! - `tuple(get_tuple_element(t, 0), ..., get_tuple_element(t, n-1))` over
//!   all elements of `t`, in order, is `t` itself.
//!
//! Tuples and get_tuple_elements left unused are erased.

use crate::dce::remove_dead_instructions;
use melior::ir::OperationRef;
use mlir_sys::{
    mlirIntegerAttrGetValueInt, mlirOperationGetAttributeByName, mlirTypeEqual, mlirValueGetType, MlirStringRef,
};
use rxla_ir::{
    op::Op,
    pass::{HloPass, PassError, PassOptions},
};

#[derive(Clone, Debug)]
pub struct TupleSimplifier;

impl HloPass for TupleSimplifier {
    const NAME: &'static str = "tuple-simplifier";
    const DESCRIPTION: &'static str =
        "Forward get_tuple_element(tuple(...)) operands and drop tuples rebuilt from their own elements";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in module.body_ops() {
            let mut changed = false;
            for op in func.walk_preorder() {
                changed |= match op.name().as_str() {
                    "hlo.get_tuple_element" => forward_element(op),
                    "hlo.tuple" => forward_rebuilt_tuple(op),
                    _ => false,
                };
            }
            if changed {
                remove_dead_instructions(func);
            }
        }
        Ok(())
    }
}

/// The `index` attribute of a get_tuple_element.
fn tuple_index(gte: Op) -> usize {
    let name = "index";
    let name = MlirStringRef { data: name.as_ptr() as *const _, length: name.len() };
    // SAFETY: the verifier guarantees a non-negative integer `index`.
    unsafe { mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(gte.raw(), name)) as usize }
}

fn forward_element(gte: Op) -> bool {
    let Some(tuple) = Op::defining(gte.operand(0)) else { return false };
    if tuple.name() != "hlo.tuple" {
        return false;
    }
    let index = tuple_index(gte);
    if index >= tuple.num_operands() {
        return false;
    }
    gte.replace_result_uses(0, tuple.operand(index));
    true
}

fn forward_rebuilt_tuple(tuple: Op) -> bool {
    let n = tuple.num_operands();
    if n == 0 {
        return false;
    }
    let mut source = None;
    for i in 0..n {
        let Some(gte) = Op::defining(tuple.operand(i)) else { return false };
        if gte.name() != "hlo.get_tuple_element" || tuple_index(gte) != i {
            return false;
        }
        let from = gte.operand(0);
        match source {
            None => source = Some(from),
            Some(s) if from.same_as(s) => {}
            Some(_) => return false,
        }
    }
    let source = source.expect("n > 0");
    // The source must have exactly these n elements: same tuple type.
    let same_type = unsafe { mlirTypeEqual(mlirValueGetType(source.0), mlirValueGetType(tuple.result(0).0)) };
    if !same_type {
        return false;
    }
    tuple.replace_result_uses(0, source);
    true
}
