//! `broadcast_canonicalizer`: broadcasts whose `dimensions` are not sorted
//! become a transpose of the operand followed by a broadcast with sorted
//! dimensions, as XLA's BroadcastCanonicalizer does.
//!
//! `broadcast(x, dims=[2, 0])` maps operand dim 0 to result dim 2 and operand
//! dim 1 to result dim 0: a transpose hidden in the broadcast. With
//! `sorted = [0, 2]` and `perm[i]` = the position of `sorted[i]` in `dims`
//! (`[1, 0]`), `broadcast(transpose(x, perm), sorted)` is the same array.
//! The transpose takes the operand's layout (XLA keeps the operand layout
//! rather than one that makes the transpose a bitcast); the new broadcast
//! keeps the old one's attributes, layout included.

use melior::ir::OperationRef;
use rxla_ir::layout::rebuild;
use rxla_ir::{
    builder::Builder,
    computation,
    op::Op,
    pass::{HloPass, PassError, PassOptions},
};

#[derive(Clone, Debug)]
pub struct BroadcastCanonicalizer;

impl HloPass for BroadcastCanonicalizer {
    const NAME: &'static str = "broadcast_canonicalizer";
    const DESCRIPTION: &'static str = "Sort broadcast dimensions, moving the implied transpose onto the operand";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        computation::for_each_op(module, "broadcast", canonicalize)
    }
}

/// Rewrites one broadcast; false if its dimensions are already sorted (or
/// its shapes are not static arrays).
pub fn canonicalize(op: Op) -> Result<bool, PassError> {
    let Some(dims) = op.dims_attr("dimensions") else { return Ok(false) };
    if dims.windows(2).all(|w| w[0] <= w[1]) {
        return Ok(false);
    }
    let operand = op.operand(0);
    if operand.ty().tensor().is_none() || op.result_type(0).tensor().is_none() {
        return Ok(false);
    }
    let mut sorted = dims.clone();
    sorted.sort_unstable();
    let perm: Vec<i64> = sorted
        .iter()
        .map(|d| dims.iter().position(|x| x == d).map(|p| p as i64))
        .collect::<Option<_>>()
        .ok_or_else(|| PassError("internal error: broadcast dimensions are not a set".into()))?;
    let b = Builder::before(op);
    let transposed = b.transpose(operand, &perm)?;
    if let (Some(layout), Some(t)) = (operand.layout_attr(), transposed.op()) {
        t.set_attr_raw("hlo.layout", layout);
    }
    let new = rebuild(&b, op, &[transposed], &[op.result_type(0)], &["dimensions"])?;
    new.set_dims_attr("dimensions", &sorted);
    op.replace_result_uses(0, new.result(0));
    op.erase();
    Ok(true)
}
