//! `sharding-remover`: removes the custom calls that only carry sharding
//! information, as XLA's ShardingRemover does when a program runs on one
//! device (`num_partitions=1`).
//!
//! JAX writes these into every program jitted with shardings:
//! - `Sharding` (GSPMD's sharding annotation, `jax.lax.with_sharding_constraint`);
//! - `SPMDFullToShardShape` / `SPMDShardToFullShape` (the edges of a
//!   manually partitioned region, `shard_map` under GSPMD);
//! - Shardy's round-trip calls (JAX's default partitioner):
//!   `xla.sdy.FuncResultSharding` (a result's sharding),
//!   `xla.sdy.GlobalToLocalShape` / `xla.sdy.LocalToGlobalShape` (the edges
//!   of a `shard_map` body) and `xla.sdy.ShardingGroup` (ties the shardings
//!   of values together; no result).
//!
//! On one device each is the identity of its one operand: its uses take the
//! operand and it is erased (`xla.sdy.ShardingGroup`, which has no uses, is
//! just erased). Where such a call changes the shape (a region partitioned
//! by hand for several devices, whose per-device shape differs from the
//! global one) the program cannot run on one device, and the pass fails at
//! that instruction. Sharding attributes (`sharding={...}`, the `xla.sdy.*`
//! frontend attributes) are left as they are: nothing reads them on one
//! device.

use melior::ir::{Location, OperationRef};
use rxla_hlo_text::custom_calls::{SHARDING_GROUP, SHARDING_TARGETS};
use rxla_ir::{
    builder::Builder,
    computation,
    op::Op,
    pass::{emit_error, HloPass, PassError, PassOptions},
    types::HloType,
};

#[derive(Clone, Debug)]
pub struct ShardingRemover;

impl HloPass for ShardingRemover {
    const NAME: &'static str = "sharding-remover";
    const DESCRIPTION: &'static str =
        "Remove the sharding custom calls (Sharding, SPMD*Shape, xla.sdy.*) of a one-device program (XLA's ShardingRemover)";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if !op.is("custom_call") {
                    continue;
                }
                let Some(target) = op.string_attr("custom_call_target") else { continue };
                if target == SHARDING_GROUP && !op.has_uses() {
                    op.erase();
                    continue;
                }
                if !SHARDING_TARGETS.contains(&target.as_str()) {
                    continue;
                }
                if op.num_operands() != 1 && op.num_results() == 1 {
                    // Shardy's edges of a shard_map body with several values:
                    // a tuple of them, the identity where no shape changes.
                    let types: Vec<HloType> = op.operands().iter().map(|v| v.ty()).collect();
                    let result = op.result_type(0);
                    if result != HloType::Tuple(types.clone()) {
                        return Err(fail(
                            op,
                            &format!(
                                "custom-call '{target}' changes the shapes ({} to {result}): the program is \
                                 partitioned by hand for several devices and cannot run on one",
                                HloType::Tuple(types)
                            ),
                        ));
                    }
                    let tuple = Builder::before(op).tuple(&op.operands())?;
                    op.replace_result_uses(0, tuple);
                    op.erase();
                    continue;
                }
                if op.num_operands() != 1 || op.num_results() != 1 {
                    return Err(fail(op, &format!("custom-call '{target}' must have one operand and one result")));
                }
                let (from, to) = (op.operand_type(0), op.result_type(0));
                if from != to {
                    return Err(fail(
                        op,
                        &format!(
                            "custom-call '{target}' changes the shape ({from} to {to}): the program is partitioned \
                             by hand for several devices and cannot run on one"
                        ),
                    ));
                }
                op.replace_result_uses(0, op.operand(0));
                op.erase();
            }
        }
        Ok(())
    }
}

/// Reports `message` at `op` (its HLO instruction) and returns the
/// pass's error, which points there.
fn fail(op: Op, message: &str) -> PassError {
    // SAFETY: the op is live, so its location is.
    emit_error(unsafe { Location::from_raw(op.location()) }, message);
    PassError("a sharding custom call cannot be removed (see the error at the instruction)".into())
}
