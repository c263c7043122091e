//! The library face of the opt driver: `run_opt` in-process, and a
//! registry extended with a pass and an IRDL dialect of the test's own.

use melior::ir::OperationRef;
use rxla_ir::{
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    rewrite::{apply_greedily, fold, DriverOptions},
};
use rxla_opt::{run_opt, Registry};

const ADD: &str = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = hlo.negate %a : tensor<2xf32>
  %1 = hlo.negate %0 : tensor<2xf32>
  return %1 : tensor<2xf32>
}
";

#[test]
fn runs_passes_on_a_string() {
    let out = run_opt(&["--passes=algsimp"], ADD);
    assert!(out.success, "{}", out.diagnostics);
    assert!(!out.output.contains("hlo.negate"), "{}", out.output);
    assert!(out.output.contains("return %arg0"), "{}", out.output);
    assert_eq!(out.diagnostics, "");
}

#[test]
fn reads_hlo_text_and_runs_a_stage() {
    let hlo = "HloModule m\nENTRY e { p = f32[4] parameter(0)\n ROOT t = f32[4] tanh(p) }\n";
    let out = run_opt(&["--input-format=hlo", "--stage=llvm", "--platform=cpu"], hlo);
    assert!(out.success, "{}", out.diagnostics);
    assert!(out.output.contains("define"), "{}", out.output);
}

#[test]
fn reports_diagnostics_with_positions() {
    let out =
        run_opt(&[], "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n  %0 = hlo.add %a, %a : tensor<3xf32>\n");
    assert!(!out.success);
    assert!(out.diagnostics.contains("<input>:"), "{}", out.diagnostics);
    assert!(out.diagnostics.contains("error"), "{}", out.diagnostics);
    let out = run_opt(&["--passes=no-such-pass"], ADD);
    assert!(!out.success);
    assert!(out.diagnostics.contains("unknown pass 'no-such-pass'"), "{}", out.diagnostics);
    let out = run_opt(&["--no-such-flag"], ADD);
    assert!(!out.success);
    assert!(out.diagnostics.contains("--no-such-flag"), "{}", out.diagnostics);
    let out = run_opt(&["some/file.mlir"], ADD);
    assert!(!out.success);
    assert!(out.diagnostics.contains("reads its input from the string"), "{}", out.diagnostics);
}

/// `test.twice(x)` → `hlo.add(x, x)`.
#[derive(Clone, Debug)]
struct ExpandTwice;

impl HloPass for ExpandTwice {
    const NAME: &'static str = "test-expand-twice";
    const DESCRIPTION: &'static str = "Rewrite twice(x) as x + x";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(ExpandTwice)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let patterns = vec![fold("mine.twice", |op, b| Ok(Some(b.add(op.operand(0), op.operand(0))?)))];
        apply_greedily(Op::of(&module), &patterns, DriverOptions::default())?;
        Ok(())
    }
}

const MINE: &str = "irdl.dialect @mine {
  irdl.operation @twice {
    %t = irdl.any
    irdl.operands(x: %t)
    irdl.results(y: %t)
  }
}";

#[test]
fn a_registry_extends_rxla_with_passes_and_dialects() {
    let registry = Registry::rxla().with_passes("Mine", &[rxla_ir::pass!(ExpandTwice)]).with_irdl_dialects(MINE);
    assert!(registry.lookup("test-expand-twice").is_some() && registry.lookup("cse").is_some());
    assert!(registry.list_passes().contains("Mine:\n  test-expand-twice"));
    let context = registry.create_context().unwrap();
    assert!(context.is_registered_operation("mine.twice"));
    assert!(Registry::empty().lookup("cse").is_none());
    let bad = Registry::empty().with_irdl_dialects("irdl.dialect @x {");
    assert!(bad.create_context().is_err());
}
