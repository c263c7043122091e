//! Passes for testing rxla's tools, not for compiling: like mlir-opt's
//! `test-*` passes, they exist so that tests can exercise machinery that
//! needs a pass with a known effect. Their names start with `test-` and
//! pipelines never use them.

use melior::ir::OperationRef;
use rxla_ir::{
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    rewrite::{apply_greedily, fold, DriverOptions},
};

/// `test-miscompile`: rewrites every `hlo.add` into `hlo.subtract`, a
/// deliberately wrong pass for testing `hlo-opt --run-after-each-pass`.
#[derive(Clone, Debug)]
pub struct TestMiscompile;

impl HloPass for TestMiscompile {
    const NAME: &'static str = "test-miscompile";
    const DESCRIPTION: &'static str = "(testing only) Turn every add into a subtract, to test --run-after-each-pass";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let patterns = vec![fold("hlo.add", |op, b| Ok(Some(b.binary("subtract", op.operand(0), op.operand(1))?)))];
        apply_greedily(Op::of(&module), &patterns, DriverOptions::default())?;
        Ok(())
    }
}
