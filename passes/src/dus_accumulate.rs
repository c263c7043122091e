//! `dus-accumulate`: `add(A, dynamic_update_slice(zeros, U, i...))`
//! becomes `dynamic_update_slice(A, add(dynamic_slice(A, i...), U), i...)`,
//! as XLA's algebraic simplifier rewrites it (checked against XLA:CPU's
//! optimized HLO).
//!
//! JAX writes the gradient of `x[:, t]` inside a `fori_loop` or `scan` as a
//! dynamic-update-slice of the slice's cotangent into zeros, added to the
//! accumulated gradient. Unrewritten, every iteration builds and adds a
//! whole array; rewritten, the loop updates one slice of its state in place.
//! `dynamic_slice` and `dynamic_update_slice` clamp their start indices
//! alike, so the slice read is the slice written.
//!
//! Conditions: the zeros are a splat constant or a broadcast of a zero
//! scalar; the dynamic-update-slice has no other user; integer, float or
//! complex elements.
//!
//! Not exact (`EXACT = false`): outside the slice the result is `A` where it
//! was `A + 0`, which differs for `A = -0.0` (the sum is +0.0).

use crate::constant::is_splat_of;
use melior::ir::OperationRef;
use rxla_ir::{
    builder::Builder,
    computation,
    layout::{copy_layout_attr, layout_of},
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::HloType,
};

#[derive(Clone, Debug)]
pub struct DusAccumulate;

impl HloPass for DusAccumulate {
    const NAME: &'static str = "dus-accumulate";
    const DESCRIPTION: &'static str =
        "Rewrite A + dynamic-update-slice(zeros, U, i) as an in-place update of A's slice (XLA's algsimp)";
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        let mut dead = Vec::new();
        for func in computation::functions(module) {
            for op in func.walk_preorder() {
                if op.is("add") && op.num_operands() == 2 {
                    dead.extend(rewrite(op)?);
                }
            }
        }
        // After the walk, whose list holds the ops after these.
        for op in dead {
            op.erase();
        }
        Ok(())
    }
}

/// Rewrites `add`; returns the ops left unused.
fn rewrite(add: Op) -> Result<Vec<Op>, PassError> {
    let HloType::Tensor(t) = add.result_type(0) else { return Ok(vec![]) };
    if t.elem.is_pred() || t.num_elements() == 0 {
        return Ok(vec![]);
    }
    let (x, y) = (add.operand(0), add.operand(1));
    let (acc, dus) = match (zero_update(x), zero_update(y)) {
        (_, Some(d)) => (x, d),
        (Some(d), _) => (y, d),
        _ => return Ok(vec![]),
    };
    let update = dus.operand(1);
    let indices: Vec<Value> = dus.operands().into_iter().skip(2).collect();
    let Some(u) = update.ty().into_tensor() else { return Ok(vec![]) };
    if !layout_of(update).is_default() || !layout_of(acc).is_default() || !layout_of(dus.result(0)).is_default() {
        return Ok(vec![]);
    }
    let b = Builder::before(add).at_location_of(add);
    let operands: Vec<Value> = std::iter::once(acc).chain(indices.iter().copied()).collect();
    let current =
        b.value("hlo.dynamic_slice", &operands, u.clone().into(), &[("slice_sizes", b.dims_attr(&u.dims))])?;
    let sum = b.add(current, update)?;
    let operands: Vec<Value> = [acc, sum].into_iter().chain(indices).collect();
    let result = b.value("hlo.dynamic_update_slice", &operands, add.result_type(0), &[])?;
    if let Some(new) = result.op() {
        copy_layout_attr(add, new);
    }
    add.replace_result_uses(0, result);
    Ok(vec![add, dus])
}

/// The dynamic-update-slice `v` is, if it writes into zeros and `v` has no
/// other user.
fn zero_update(v: Value) -> Option<Op> {
    let dus = v.op().filter(|o| o.is("dynamic_update_slice"))?;
    if v.uses().len() != 1 {
        return None;
    }
    let base = dus.operand(0);
    let zero = is_splat_of(base, 0.0) || base.op().is_some_and(|b| b.is("broadcast") && is_splat_of(b.operand(0), 0.0));
    zero.then_some(dus)
}
