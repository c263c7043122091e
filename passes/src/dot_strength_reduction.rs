//! `dot-strength-reduction`: dots that are not matrix products become
//! elementwise multiplies (and a reduce), as XLA's algebraic simplifier
//! rewrites them on the CPU (`enable_dot_strength_reduction`):
//!
//! - no contracting dimension (an outer product, or a batch of them):
//!   `multiply(broadcast(lhs), broadcast(rhs))`;
//! - both operands only batch and contracting dimensions (a dot of
//!   vectors): `reduce(multiply(lhs, rhs), add)` over the contracted
//!   dimensions.
//!
//! Operands are converted to the result's element type first, as XLA
//! does. A matrix-vector product stays a dot (XLA:CPU keeps it too).
//!
//! Both forms fuse with their neighbours, where a dot is a library call of
//! its own; JAX's `jnp.outer`, `x[:, None] * y[None, :]` written as an
//! einsum, and per-position dot products of attention variants (RetNet,
//! linear attention) hit them inside loops.
//!
//! Not exact: a dot sums its products from +0 (so a product of -0 gives +0,
//! where the multiply keeps -0) and the reduce sums in the emitters'
//! order. `--disable-passes=dot-strength-reduction` keeps the dots.

use crate::constant::{ConstantBuilder, Scalar};
use melior::ir::OperationRef;
use rxla_ir::{
    attrs::DotDims,
    builder::Builder,
    computation,
    layout::copy_layout_attr,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct DotStrengthReduction;

impl HloPass for DotStrengthReduction {
    const NAME: &'static str = "dot-strength-reduction";
    const DESCRIPTION: &'static str =
        "Rewrite outer-product dots as multiplies and vector-vector dots as multiply and reduce (XLA:CPU's algsimp)";
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
                if op.is("dot") && rewrite(module, op)? {
                    dead.push(op);
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

/// Rewrites one dot; true when it did (the dot is then unused).
fn rewrite(module: Op, op: Op) -> Result<bool, PassError> {
    if op.num_operands() != 2 || op.has_attr("algorithm") {
        return Ok(false);
    }
    let (lhs, rhs) = (op.operand(0), op.operand(1));
    let (Some(lt), Some(rt)) = (lhs.ty().into_tensor(), rhs.ty().into_tensor()) else { return Ok(false) };
    let HloType::Tensor(out) = op.result_type(0) else { return Ok(false) };
    let Some(dn) = DotDims::of(op) else { return Ok(false) };
    if dn.lhs_batch.len() != dn.rhs_batch.len() || dn.lhs_contracting.len() != dn.rhs_contracting.len() {
        return Ok(false);
    }
    let elem = &out.elem;
    if !(elem.is_float() || elem.is_integer()) || out.num_elements() == 0 {
        return Ok(false);
    }
    let outer = dn.lhs_contracting.is_empty();
    let vectors = dn.lhs_batch.len() + dn.lhs_contracting.len() == lt.rank()
        && dn.rhs_batch.len() + dn.rhs_contracting.len() == rt.rank();
    if !outer && !vectors {
        return Ok(false);
    }
    let b = Builder::before(op);
    let to_result = |v: Value, t: &TensorType| -> Result<Value, PassError> {
        if &t.elem == elem {
            Ok(v)
        } else {
            b.convert(v, elem)
        }
    };
    let (l, r) = (to_result(lhs, &lt)?, to_result(rhs, &rt)?);
    let result = if outer {
        // Result dims: batch, then lhs free, then rhs free.
        let nb = dn.lhs_batch.len();
        let lf = DotDims::free_dims(lt.rank(), &dn.lhs_batch, &[]);
        let rf = DotDims::free_dims(rt.rank(), &dn.rhs_batch, &[]);
        let l = arranged(&b, l, &dn.lhs_batch, &lf)?;
        let r = arranged(&b, r, &dn.rhs_batch, &rf)?;
        let l_dims: Vec<i64> = (0..(nb + lf.len()) as i64).collect();
        let r_dims: Vec<i64> = (0..nb as i64).chain(((nb + lf.len()) as i64)..(out.rank() as i64)).collect();
        let lb = b.broadcast(l, &l_dims, &out.dims)?;
        let rb = b.broadcast(r, &r_dims, &out.dims)?;
        b.multiply(lb, rb)?
    } else {
        // Both operands as [batch..., contracting...] in matching order.
        let l = arranged(&b, l, &dn.lhs_batch, &dn.lhs_contracting)?;
        let r = arranged(&b, r, &dn.rhs_batch, &dn.rhs_contracting)?;
        let product = b.multiply(l, r)?;
        let nb = dn.lhs_batch.len() as i64;
        let reduced: Vec<i64> = (nb..nb + dn.lhs_contracting.len() as i64).collect();
        let zero = b.scalar(elem, if elem.is_float() { Scalar::Float(0.0) } else { Scalar::Int(0) })?;
        let adder = computation::scalar_reducer(module, "add", elem)?;
        b.reduce(&[product], &[zero], &reduced, &adder)?[0]
    };
    if let Some(new) = result.op() {
        copy_layout_attr(op, new);
    }
    op.replace_result_uses(0, result);
    Ok(true)
}

/// `x` transposed so that its dims `first` come first and `then` after
/// them, in the listed orders (no transpose when already so).
fn arranged(b: &Builder, x: Value, first: &[i64], then: &[i64]) -> Result<Value, PassError> {
    let perm: Vec<i64> = first.iter().chain(then).copied().collect();
    if shape::is_identity_permutation(&perm) {
        return Ok(x);
    }
    b.transpose(x, &perm)
}
