//! `xla-contract-float-ops`: float additions, subtractions and
//! multiplications may fuse into multiply-adds (`fastmath<contract>`), as
//! XLA compiles every kernel with LLVM's `AllowFPOpFusion::Fast`.
//!
//! `a * b + c` then rounds once (an FMA) where the target has one: XLA:CPU's
//! results are bit-for-bit the fused ones, and rounding twice instead is off
//! by one unit in the last place on about a quarter of such elements, which
//! an f16 GroupNorm's `x * scale + bias` shows at 4e-3. Contraction happens
//! in LLVM's instruction selection; this pass only marks the ops (keeping
//! their other flags, such as a reducer's `reassoc`). Runs last before the
//! conversion to `llvm`, so the expanded math routines are marked too.

use crate::ir::*;
use melior::ir::OperationRef;
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct ContractFloatOps;

/// The ops LLVM contracts into a fused multiply-add.
const CONTRACTIBLE: &[&str] = &["arith.addf", "arith.subf", "arith.mulf"];

impl HloPass for ContractFloatOps {
    const NAME: &'static str = "xla-contract-float-ops";
    const DESCRIPTION: &'static str =
        "Mark float adds, subtracts and multiplies contractable into FMAs (XLA's AllowFPOpFusion::Fast)";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        vec![melior::dialect::DialectHandle::arith()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(ContractFloatOps)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        for op in walk(Op::of(&module)) {
            if !CONTRACTIBLE.contains(&op.name().as_str()) {
                continue;
            }
            // `fast` includes `contract`.
            let flags = op.attr_raw("fastmath").and_then(fastmath_flags).unwrap_or(0);
            if flags & FASTMATH_CONTRACT != 0 {
                continue;
            }
            op.set_attr_raw("fastmath", B::before(op).fastmath(flags | FASTMATH_CONTRACT));
        }
        Ok(())
    }
}
