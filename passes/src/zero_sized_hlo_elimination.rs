//! `zero_sized_hlo_elimination`: replaces every side-effect-free
//! instruction whose result is an array with zero elements by an empty
//! constant of the same type, as XLA's `ZeroSizedHloElimination`
//! (xla/hlo/transforms/simplifiers/zero_sized_hlo_elimination.cc).
//!
//! - Constants are left alone (they already are one); parameters are block
//!   arguments, not instructions, so they are never touched.
//! - Side effects are XLA's `HasSideEffect`: the op itself (rng, collectives,
//!   send/recv, infeed/outfeed, opt-barrier, custom-calls marked
//!   `has_side_effect`, ...) or any computation it calls.
//! - Ops whose results are all static arrays with zero elements qualify,
//!   multi-result ops too (XLA skips tuple-shaped instructions; rxla's
//!   variadic reduce-window or sort of empty arrays crashed its emitters).
//! - Computations called by fusions are skipped (XLA visits non-fusion
//!   computations only), and so is every computation that uses control
//!   dependencies (`hlo.control_predecessors`), where XLA would refuse to
//!   remove an instruction that has some.
//! - The constant takes over the old op's `hlo.layout` (and metadata).

use melior::ir::OperationRef;
use rxla_ir::{
    attrs,
    builder::Builder,
    computation::{self, SideEffects},
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};
use std::collections::HashSet;

#[derive(Clone, Debug)]
pub struct ZeroSizedHloElimination;

impl HloPass for ZeroSizedHloElimination {
    const NAME: &'static str = "zero_sized_hlo_elimination";
    const DESCRIPTION: &'static str =
        "Replace side-effect-free instructions with zero-element array results by empty constants";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let fused: HashSet<String> = computation::functions(module)
            .into_iter()
            .flat_map(|f| f.walk_preorder())
            .filter(|op| op.is("fusion"))
            .filter_map(|op| op.symbol_attr("calls"))
            .collect();
        let mut effects = SideEffects::with_function_table(module);
        for func in computation::functions(module) {
            if fused.contains(&computation::name(func)) {
                continue;
            }
            let ops = func.walk_preorder().into_iter().skip(1).collect::<Vec<_>>();
            if ops.iter().any(|op| op.has_attr("hlo.control_predecessors")) {
                continue;
            }
            for op in ops {
                if op.name() == "func.return" || op.is("constant") || op.num_results() == 0 {
                    continue;
                }
                let empty_arrays = (0..op.num_results())
                    .all(|i| matches!(op.result_type(i), HloType::Tensor(t) if t.num_elements() == 0));
                if !empty_arrays || effects.op(op) {
                    continue;
                }
                let b = Builder::before(op);
                for i in 0..op.num_results() {
                    let HloType::Tensor(t) = op.result_type(i) else { unreachable!() };
                    let ty = t.to_mlir(b.context()).ok_or_else(|| PassError(format!("internal error: type {t}")))?;
                    let attr = attrs::dense_raw(ty, &[])
                        .ok_or_else(|| PassError(format!("internal error: no empty constant of {t}")))?;
                    let empty = b.constant_attr(attr, &t)?;
                    let new_op = empty.op().expect("a constant's result");
                    // A multi-result op's layout attribute lists its results'.
                    let keys: &[&str] =
                        if op.num_results() == 1 { &["hlo.layout", "hlo.metadata"] } else { &["hlo.metadata"] };
                    for key in keys {
                        if let Some(attr) = op.attr_raw(key) {
                            new_op.set_attr_raw(key, attr);
                        }
                    }
                    op.replace_result_uses(i, empty);
                }
                op.erase();
            }
        }
        Ok(())
    }
}
