//! `default-layouts`: the layouts that only hint, dropped. Every array op
//! whose layout nothing depends on gets the default (row-major) layout, as
//! XLA's `LayoutAssignment` does before it assigns its own (it clears the
//! layouts of all instructions but parameters, the computation's result,
//! infeeds and layout-constrained custom calls and collectives; XLA:CPU then
//! assigns row-major layouts).
//!
//! JAX's HLO carries layouts on intermediate values: a transpose gets the
//! layout that makes it a bitcast of its operand (`f32[512,2048]{0,1}
//! transpose(f32[2048,512] dot)`), and the elementwise ops after it inherit
//! it. rxla's later passes honour a layout as the value's physical order,
//! so each such hint became a transpose somewhere else (the AdamW update of
//! every transposed weight gradient in a training step), and the algebraic
//! simplifier, which leaves ops with layouts alone, could not fold the
//! transpose into the dot.
//!
//! A layout only changes how a value is stored, never its elements, so
//! dropping it changes no result, provided nothing reads the storage: the
//! op and all its users must be ops whose meaning is layout-independent
//! (elementwise ops, the shape ops fusion knows, dots, convolutions,
//! reductions). Layouts stay on everything else: bitcasts and what they
//! read, custom calls, values returned by a computation (its signature),
//! values passed to calls, loops, conditionals and tuples, parameters.

use melior::ir::OperationRef;
use rxla_ir::{
    computation,
    hlo_analysis::opcode_str,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
};

#[derive(Clone, Debug)]
pub struct DefaultLayouts;

impl HloPass for DefaultLayouts {
    const NAME: &'static str = "default-layouts";
    const DESCRIPTION: &'static str =
        "Give the default layout to every op whose layout nothing depends on (XLA's LayoutAssignment clears them)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.body_ops() {
                if op.has_attr("hlo.layout") && hint_only(op) {
                    op.remove_attr("hlo.layout");
                }
            }
        }
        Ok(())
    }
}

/// True for ops whose results do not depend on how their operands are
/// stored, and whose own layout is only where they store their result:
/// elementwise ops, the shape ops fusion knows but bitcast, dots and
/// convolutions.
fn layout_free(op: Op) -> bool {
    crate::fusion::is_elementwise(op)
        || opcode_str(&op).is_some_and(|code| {
            (crate::fusion::STRUCTURAL.contains(&code) && code != "bitcast") || code == "dot" || code == "convolution"
        })
}

/// True if `op`'s layout is a hint: a single-result layout-free op read
/// only by layout-free ops.
fn hint_only(op: Op) -> bool {
    op.num_results() == 1 && layout_free(op) && op.users().into_iter().all(layout_free)
}
