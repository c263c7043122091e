//! `float-normalization`: elementwise arithmetic on 8-bit floats is
//! computed in f16, as XLA:CPU's `FloatNormalization` (run for each f8 type
//! with f16 as the compute type) does: the f8 operands are converted to f16
//! (exactly), the op computes in f16, and an f8 result is converted back.
//!
//! Neither backend has f8 arithmetic (the lowering rejects `arith.addf` on
//! `f8E4M3FN`), so without this pass `x + y` on f8 arrays did not compile.
//! Data movement (`copy`, `select`, `bitcast-convert`) and conversions stay
//! as they are. Reductions, sorts and scatters with f8 computations are not
//! normalized yet (they keep the lowering's clear error).
//!
//! Not exact by declaration: the interpreter computes f8 arithmetic in f64
//! and rounds once, the normalized op rounds to f16 and then to f8.

use crate::fusion::is_elementwise;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    layout::{copy_layout_attr, rebuild},
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    types::{ElementType, HloType},
};

#[derive(Clone, Debug)]
pub struct FloatNormalization;

impl HloPass for FloatNormalization {
    const NAME: &'static str = "float-normalization";
    const DESCRIPTION: &'static str = "Compute elementwise arithmetic on 8-bit floats in f16, as XLA:CPU does";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let f16 = ElementType::new("f16");
        // Erased after the walk, whose list holds the ops after these.
        let mut dead = Vec::new();
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !computes_f8(op) {
                    continue;
                }
                let b = Builder::before(op);
                let mut operands = Vec::with_capacity(op.num_operands());
                for v in op.operands() {
                    operands.push(if is_f8(&v.ty()) { b.convert(v, &f16)? } else { v });
                }
                let results: Vec<HloType> = op
                    .results()
                    .iter()
                    .map(|r| match r.ty() {
                        HloType::Tensor(t) if t.elem.0.starts_with("f8") => t.with_elem(&f16).into(),
                        other => other,
                    })
                    .collect();
                let wide = rebuild(&b, op, &operands, &results, &[])?;
                for (k, r) in op.results().into_iter().enumerate() {
                    let mut v = wide.result(k);
                    if let HloType::Tensor(t) = r.ty() {
                        if t.elem.0.starts_with("f8") {
                            v = b.convert(v, &t.elem)?;
                            if let Some(convert) = v.op() {
                                copy_layout_attr(op, convert);
                            }
                        }
                    }
                    op.replace_result_uses(k, v);
                }
                dead.push(op);
            }
        }
        for op in dead {
            op.erase();
        }
        Ok(())
    }
}

fn is_f8(t: &HloType) -> bool {
    matches!(t, HloType::Tensor(t) if t.elem.0.starts_with("f8"))
}

/// An elementwise op that computes (not moves or converts) with an f8
/// operand or result.
fn computes_f8(op: Op) -> bool {
    if !is_elementwise(op) {
        return false;
    }
    if matches!(
        op.opcode().as_str(),
        "copy" | "convert" | "bitcast_convert" | "select" | "reduce_precision" | "stochastic_convert"
    ) {
        return false;
    }
    op.operands().iter().any(|v| is_f8(&v.ty())) || op.results().iter().any(|r| is_f8(&r.ty()))
}
