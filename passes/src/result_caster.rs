//! `result_caster`: for a `dot` or `convolution` whose result element type
//! is narrower than the type shape inference gives its operands, computes
//! the op in the inferred type and converts the result, as XLA's
//! `ResultCaster` (xla/hlo/transforms/simplifiers/result_caster.cc).
//!
//! The inferred type is XLA's `HigherPrecisionElementType(lhs, rhs)` (see
//! `operand_upcaster`). The op qualifies when that type differs from the
//! result type and is the more precise of the two ("never downcast"). The
//! op is re-created with the inferred element type (same operands and
//! attributes, layout included) and followed by a `convert` to the original
//! result type, e.g. `dot(f32, f32) -> bf16` becomes
//! `convert(dot(f32, f32) -> f32) -> bf16`.
//!
//! Not exact by declaration: the result is rounded once from the wide
//! type, which may differ from how a backend accumulates a narrow result.

use crate::operand_upcaster::{element_types, higher_precision};
use melior::ir::OperationRef;
use mlir_sys::MlirAttribute;
use rxla_ir::{
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};

#[derive(Clone, Debug)]
pub struct ResultCaster;

impl HloPass for ResultCaster {
    const NAME: &'static str = "result_caster";
    const DESCRIPTION: &'static str =
        "Compute dot/convolution in the operands' wider type and convert to a narrower result type";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !(op.is("dot") || op.is("convolution")) || op.num_operands() != 2 || op.num_results() != 1 {
                    continue;
                }
                let Some((lhs, rhs, result)) = element_types(op) else { continue };
                let Some(inferred) = higher_precision(&lhs, &rhs) else { continue };
                if inferred == result || higher_precision(&inferred, &result).as_ref() != Some(&inferred) {
                    continue;
                }
                let HloType::Tensor(t) = op.result_type(0) else { continue };
                let b = Builder::before(op);
                let attrs = op.attrs_raw();
                let attrs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let wide = b.create(&op.name(), &op.operands(), &[t.with_elem(&inferred).into()], &attrs)?;
                let narrow = b.convert(wide.result(0), &t.elem)?;
                if let (Some(layout), Some(convert)) = (op.attr_raw("hlo.layout"), narrow.op()) {
                    convert.set_attr_raw("hlo.layout", layout);
                }
                op.replace_result_uses(0, narrow);
                op.erase();
            }
        }
        Ok(())
    }
}
