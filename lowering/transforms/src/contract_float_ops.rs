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
use mlir_sys::MlirAttribute;
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
        let context = Op::of(&module).context();
        // One attribute per distinct set of flags (most ops have none).
        let mut attrs: std::collections::HashMap<String, MlirAttribute> = Default::default();
        for op in walk(Op::of(&module)) {
            if !CONTRACTIBLE.contains(&op.name().as_str()) {
                continue;
            }
            let flags = fastmath_flags(op.attr_text("fastmath").as_deref());
            if flags.iter().any(|f| f == "contract" || f == "fast") {
                continue;
            }
            let mut flags: Vec<String> = flags.into_iter().filter(|f| f != "none").collect();
            flags.push("contract".to_string());
            let text = format!("#arith.fastmath<{}>", flags.join(","));
            let attr = *attrs.entry(text).or_insert_with_key(|t| parse_attr(context, t).expect("valid fastmath flags"));
            op.set_attr_raw("fastmath", attr);
        }
        Ok(())
    }
}

/// The flags of a printed `#arith.fastmath<...>` (none when absent).
fn fastmath_flags(text: Option<&str>) -> Vec<String> {
    let Some(text) = text else { return Vec::new() };
    let inner = text.trim().trim_start_matches("#arith.fastmath<").trim_end_matches('>');
    inner.split(',').map(|f| f.trim().to_string()).filter(|f| !f.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::fastmath_flags;

    #[test]
    fn reads_printed_flags() {
        assert_eq!(fastmath_flags(Some("#arith.fastmath<reassoc>")), vec!["reassoc"]);
        assert_eq!(fastmath_flags(Some("#arith.fastmath<nnan,reassoc>")), vec!["nnan", "reassoc"]);
        assert!(fastmath_flags(None).is_empty());
    }
}
