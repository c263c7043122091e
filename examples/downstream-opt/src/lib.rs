//! A downstream extension of rxla: the `example` dialect (IRDL) and the
//! `example-expand-double` pass, which rewrites `example.double` into
//! `hlo.add` so that the rest of rxla's pipeline can compile it.

use melior::ir::OperationRef;
use rxla_ir::{
    op::Op,
    pass::{HloPass, PassError, PassOptions},
    rewrite::{apply_greedily, fold, DriverOptions},
};

/// The IRDL definition of the `example` dialect.
pub const EXAMPLE_DIALECT: &str = include_str!("example.irdl.mlir");

/// `example.double(x)` → `hlo.add(x, x)` on tensors.
#[derive(Clone, Debug)]
pub struct ExpandDouble;

impl HloPass for ExpandDouble {
    const NAME: &'static str = "example-expand-double";
    const DESCRIPTION: &'static str = "Rewrite example.double(x) as hlo.add(x, x)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(ExpandDouble)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let patterns = vec![fold("example.double", |op, builder| {
            let x = op.operand(0);
            if x.ty().tensor().is_none() {
                return Ok(None); // hlo.add is defined on tensors only
            }
            Ok(Some(builder.add(x, x)?))
        })];
        apply_greedily(Op::of(&module), &patterns, DriverOptions::default())?;
        Ok(())
    }
}

/// rxla's registry plus this project's dialect and pass.
pub fn registry() -> rxla_opt::Registry {
    rxla_opt::Registry::rxla()
        .with_passes("Example passes", &[rxla_ir::pass!(ExpandDouble)])
        .with_irdl_dialects(EXAMPLE_DIALECT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_has_rxla_passes_and_ours() {
        let registry = registry();
        assert!(registry.lookup("example-expand-double").is_some());
        assert!(registry.lookup("algsimp").is_some());
        assert!(registry.list_passes().contains("Example passes:\n  example-expand-double"));
    }

    #[test]
    fn contexts_load_the_irdl_dialect() {
        let context = registry().create_context().expect("the IRDL module loads");
        assert!(context.is_registered_operation("example.double"));
    }
}
