//! `dot_decomposer`: every dot in canonical form, as XLA's DotDecomposer.
//!
//! An operand is canonical when it has exactly one contracting dimension,
//! at most one non-contracting (free) dimension, and its batch dimensions
//! are its leading dimensions in order (`[0, 1, ..., nb-1]`). A dot with a
//! non-canonical operand is rewritten to
//!
//! ```text
//! lhs' = reshape(transpose(lhs, batch ++ free ++ contracting), [B..., M, K])
//! rhs' = reshape(transpose(rhs, batch ++ contracting ++ free), [B..., K, N])
//! dot'  = dot(lhs', rhs') with batch dims 0..nb, contracting nb+1 / nb
//! result = reshape(dot', original result shape)
//! ```
//!
//! The final reshape is there even when the shapes agree, as in XLA (the
//! simplification loop removes it): `excess-precision`, which runs in
//! between, keeps the rounding of a bf16 dot whose user is a reshape.
//!
//! where `M`/`N` are the products of the free dimensions (left out when 1,
//! as XLA does) and `K` the product of the contracting dimensions, taken in
//! the order the dimension numbers list them (so the contracted index runs
//! in the same order as before). A dot without contracting dimensions gets
//! a `K` of 1. The rewrite only moves elements: the products and their
//! accumulation order are unchanged, so results are bit-identical.
//!
//! The canonical dot keeps the precision config, algorithm and other
//! attributes of the original (not its layout or sharding); the final
//! reshape takes the original's layout. Dots with dynamic dimensions are
//! left alone, as are `ragged_dot` and `scaled_dot`.

use melior::ir::OperationRef;
use rxla_ir::layout::{copy_layout_attr, rebuild};
use rxla_ir::{
    attrs::DotDims,
    builder::Builder,
    computation,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, HloType, TensorType},
};

#[derive(Clone, Debug)]
pub struct DotDecomposer;

impl HloPass for DotDecomposer {
    const NAME: &'static str = "dot_decomposer";
    const DESCRIPTION: &'static str =
        "Canonicalize dots to [batch..., M, K] x [batch..., K, N] with transposes and reshapes";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(Self)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        computation::for_each_op(module, "dot", decompose)
    }
}

/// XLA's DotDecomposer::IsCanonical for one operand of rank `rank`.
pub fn is_canonical(rank: usize, contracting: &[i64], batch: &[i64]) -> bool {
    contracting.len() == 1 && batch.len() + 2 >= rank && batch.iter().enumerate().all(|(i, &d)| d == i as i64)
}

/// Rewrites `dot` into canonical form; false if it already is (or has
/// shapes the pass does not handle).
pub fn decompose(dot: Op) -> Result<bool, PassError> {
    let (Some(lhs), Some(rhs), Some(out)) = (
        dot.operand_type(0).tensor().cloned(),
        dot.operand_type(1).tensor().cloned(),
        dot.result_type(0).tensor().cloned(),
    ) else {
        return Ok(false);
    };
    let Some(dims) = DotDims::of(dot) else { return Ok(false) };
    if dims.lhs_batch.len() != dims.rhs_batch.len() || dims.lhs_contracting.len() != dims.rhs_contracting.len() {
        return Ok(false);
    }
    if is_canonical(lhs.rank(), &dims.lhs_contracting, &dims.lhs_batch)
        && is_canonical(rhs.rank(), &dims.rhs_contracting, &dims.rhs_batch)
    {
        return Ok(false);
    }
    let b = Builder::before(dot);
    let nb = dims.lhs_batch.len() as i64;
    let (new_lhs, lhs_k) =
        canonicalize_operand(&b, dot.operand(0), &lhs, &dims.lhs_batch, &dims.lhs_contracting, true)?;
    let (new_rhs, rhs_k) =
        canonicalize_operand(&b, dot.operand(1), &rhs, &dims.rhs_batch, &dims.rhs_contracting, false)?;
    let canonical = DotDims {
        lhs_batch: (0..nb).collect(),
        rhs_batch: (0..nb).collect(),
        lhs_contracting: vec![lhs_k],
        rhs_contracting: vec![rhs_k],
    };
    let (l, r) = (new_lhs.ty(), new_rhs.ty());
    let (Some(l), Some(r)) = (l.tensor(), r.tensor()) else {
        return Err(PassError("internal error: canonical dot operands are not arrays".into()));
    };
    let result = TensorType::new(&canonical.result_dims(&l.dims, &r.dims), &out.elem);
    let new_dot = rebuild(
        &b,
        dot,
        &[new_lhs, new_rhs],
        &[HloType::Tensor(result)],
        &["dot_dimension_numbers", "hlo.layout", "hlo.sharding"],
    )?;
    new_dot.set_struct_attr("dot_dimension_numbers", &canonical.to_struct())?;
    // Always a reshape, as XLA's, even to the same shape (algsimp removes
    // it later): until then the dot's user is the reshape, which decides
    // where `excess-precision` keeps a bf16 dot's rounding as XLA does.
    let result = b.reshape(new_dot.result(0), &out.dims)?;
    if let Some(r) = result.op() {
        copy_layout_attr(dot, r);
    }
    dot.replace_result_uses(0, result);
    dot.erase();
    Ok(true)
}

/// Transposes an operand to `batch ++ free ++ contracting` (lhs) or `batch
/// ++ contracting ++ free` (rhs) and reshapes the free and the contracting
/// dimensions into one each. Returns the new operand and the position of
/// its contracting dimension.
fn canonicalize_operand(
    b: &Builder,
    operand: Value,
    ty: &TensorType,
    batch: &[i64],
    contracting: &[i64],
    contracting_minor: bool,
) -> Result<(Value, i64), PassError> {
    let free: Vec<i64> = DotDims::free_dims(ty.rank(), batch, contracting);
    let size = |list: &[i64]| list.iter().map(|&d| ty.dims[d as usize]).product::<i64>();
    let (free_size, contracting_size) = (size(&free), size(contracting));
    let mut perm: Vec<i64> = batch.to_vec();
    let mut shape: Vec<i64> = batch.iter().map(|&d| ty.dims[d as usize]).collect();
    let k_pos;
    if contracting_minor {
        perm.extend(&free);
        perm.extend(contracting);
        if free_size != 1 {
            shape.push(free_size);
        }
        k_pos = shape.len() as i64;
        shape.push(contracting_size);
    } else {
        perm.extend(contracting);
        perm.extend(&free);
        k_pos = shape.len() as i64;
        shape.push(contracting_size);
        if free_size != 1 {
            shape.push(free_size);
        }
    }
    let identity = perm.iter().enumerate().all(|(i, &p)| p == i as i64);
    let transposed = if identity { operand } else { b.transpose(operand, &perm)? };
    let reshaped = if shape == shape::permute(&ty.dims, &perm) { transposed } else { b.reshape(transposed, &shape)? };
    Ok((reshaped, k_pos))
}
