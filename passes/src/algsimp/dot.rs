//! Dot simplifications that keep the interpreter's accumulation: every
//! output element stays the same sum, over the same products, in the same
//! order (contracting indices row-major in the listed order, starting from
//! +0), so results are bit-identical.
//!
//! - A dot whose contraction has no elements is zeros.
//! - `dot(transpose(x), y)` contracts x directly, with the transpose folded
//!   into the dimension numbers, when x's free dims keep their order (so the
//!   result layout of dims is unchanged); likewise for the rhs.
//! - Size-1 dims of either operand are dropped (XLA's
//!   RemoveDegenerateDimensionFromDot): reshapes around a smaller dot.
//! - `transpose(dot(a, b))` that puts b's free dims before a's (batch dims
//!   in place) is `dot(b, a)` (XLA's transpose-of-dot rewrite, for any
//!   number of free dims), when the transpose is the dot's only user: the
//!   same products (real `x * y == y * x`; which payload the product of two
//!   NaNs carries is not defined), summed in the same order, and
//!   no transpose (a training step's weight gradients are often computed
//!   as `dot(dy, x)` and transposed into the weight's shape).
//!
//! Not done (they change rounding): a dot with a size-1 or no contraction
//! as a multiply (the dot starts from +0, so `0 + (-0) = +0`, and does not
//! flush subnormals), reassociation of nested dots, dots of concatenates,
//! strength reduction to reduce(multiply).

use super::*;
use mlir_sys::MlirAttribute;
use rxla_ir::{attrs::DotDims, rewrite::Pattern};

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp("hlo.dot", dot));
}

type R = Result<Option<Value>, PassError>;

/// A dot like `op` (precision config and algorithm kept) on new operands.
fn new_dot(op: Op, b: &Builder, lhs: Value, rhs: Value, dims: &DotDims) -> Result<Value, PassError> {
    dot_like(op, b, lhs, rhs, dims, op.attr_raw("precision_config"))
}

/// A dot with `op`'s element type and algorithm on new operands, with
/// `precision` as its precision config.
fn dot_like(
    op: Op,
    b: &Builder,
    lhs: Value,
    rhs: Value,
    dims: &DotDims,
    precision: Option<MlirAttribute>,
) -> Result<Value, PassError> {
    let (Some(l), Some(r), Some(rt)) = (tensor(lhs), tensor(rhs), result_tensor(op)) else {
        return Err(PassError("internal error: dot of non-arrays".into()));
    };
    let out = TensorType::new(&dims.result_dims(&l.dims, &r.dims), &rt.elem);
    let dot_dims = dims
        .to_attr(b.context())
        .ok_or_else(|| PassError(format!("internal error: bad dot dimension numbers {dims:?}")))?;
    let mut attrs = vec![("dot_dimension_numbers", dot_dims)];
    attrs.extend(precision.map(|p| ("precision_config", p)));
    attrs.extend(op.attr_raw("algorithm").map(|a| ("algorithm", a)));
    Ok(b.create("hlo.dot", &[lhs, rhs], &[out.into()], &attrs)?.result(0))
}

/// `transpose(dot(a, b))` as `dot(b, a)` (see the module docs); `op` is
/// the transpose.
pub(super) fn transpose_of_dot(op: Op, b: &Builder) -> R {
    let Some(d) = def(op.operand(0), "dot") else { return Ok(None) };
    if !d.has_single_user() || !eligible(d) || d.has_attr("algorithm") {
        // A dot algorithm names its operands' precisions in order.
        return Ok(None);
    }
    let (Some(perm), Some(dn)) = (op.dims_attr("dimensions"), DotDims::of(d)) else { return Ok(None) };
    let (lhs, rhs) = (d.operand(0), d.operand(1));
    let (Some(lt), Some(rt), Some(out)) = (tensor(lhs), tensor(rhs), result_tensor(op)) else { return Ok(None) };
    if out.elem.is_complex() {
        // A complex product's parts are sums of two real products, which
        // the interpreter may fuse into one rounding: not symmetric.
        return Ok(None);
    }
    let nb = dn.lhs_batch.len() as i64;
    let nl = DotDims::free_dims(lt.dims.len(), &dn.lhs_batch, &dn.lhs_contracting).len() as i64;
    let nr = DotDims::free_dims(rt.dims.len(), &dn.rhs_batch, &dn.rhs_contracting).len() as i64;
    let swapped: Vec<i64> = (0..nb).chain(nb + nl..nb + nl + nr).chain(nb..nb + nl).collect();
    if nl == 0 || nr == 0 || perm != swapped || dn.rhs_batch.len() != dn.lhs_batch.len() {
        return Ok(None);
    }
    let nd = DotDims {
        lhs_batch: dn.rhs_batch.clone(),
        rhs_batch: dn.lhs_batch.clone(),
        lhs_contracting: dn.rhs_contracting.clone(),
        rhs_contracting: dn.lhs_contracting.clone(),
    };
    // One precision per operand, in operand order.
    let precision = match d.attr_raw("precision_config") {
        Some(attr) => match rxla_ir::attrs::array_elements(attr).filter(|e| e.len() == 2) {
            Some(each) => Some(rxla_ir::attrs::array(b.context(), &[each[1], each[0]])),
            None => return Ok(None),
        },
        None => None,
    };
    if TensorType::new(&nd.result_dims(&rt.dims, &lt.dims), &out.elem) != out {
        return Ok(None);
    }
    Ok(Some(dot_like(d, b, rhs, lhs, &nd, precision)?))
}

fn dot(op: Op, b: &Builder) -> R {
    let (lhs, rhs) = (op.operand(0), op.operand(1));
    let (Some(lt), Some(rtt), Some(ot)) = (tensor(lhs), tensor(rhs), result_tensor(op)) else { return Ok(None) };
    let Some(dn) = DotDims::of(op) else { return Ok(None) };
    if dn.lhs_contracting.len() != dn.rhs_contracting.len() || dn.lhs_batch.len() != dn.rhs_batch.len() {
        return Ok(None);
    }

    // An empty contraction (or empty operand) with a non-empty result: zeros.
    if ot.num_elements() > 0 && (lt.num_elements() == 0 || rtt.num_elements() == 0) {
        return Ok(Some(splat_like(b, &ot, zero_of(&ot.elem))?));
    }

    // Transposes of operands folded into the dimension numbers.
    for side in [0, 1] {
        let v = if side == 0 { lhs } else { rhs };
        let Some(tr) = def(v, "transpose") else { continue };
        let Some(perm) = tr.dims_attr("dimensions") else { continue };
        let (batch, contracting) =
            if side == 0 { (&dn.lhs_batch, &dn.lhs_contracting) } else { (&dn.rhs_batch, &dn.rhs_contracting) };
        let free = DotDims::free_dims(perm.len(), batch, contracting);
        let mapped_free: Vec<i64> = free.iter().map(|&d| perm[d as usize]).collect();
        if !mapped_free.windows(2).all(|w| w[0] < w[1]) {
            continue;
        }
        let map = |list: &Vec<i64>| -> Vec<i64> { list.iter().map(|&d| perm[d as usize]).collect() };
        let mut nd = dn.clone();
        if side == 0 {
            nd.lhs_batch = map(batch);
            nd.lhs_contracting = map(contracting);
            return Ok(Some(new_dot(op, b, tr.operand(0), rhs, &nd)?));
        }
        nd.rhs_batch = map(batch);
        nd.rhs_contracting = map(contracting);
        return Ok(Some(new_dot(op, b, lhs, tr.operand(0), &nd)?));
    }

    // Size-1 dims dropped.
    if (lt.dims.contains(&1) || rtt.dims.contains(&1)) && ot.num_elements() > 0 {
        // New index of each old dim (None when dropped).
        let squeeze = |dims: &[i64]| -> (Vec<i64>, Vec<Option<i64>>) {
            let mut kept = Vec::new();
            let mut map = Vec::new();
            for &d in dims {
                if d == 1 {
                    map.push(None);
                } else {
                    map.push(Some(kept.len() as i64));
                    kept.push(d);
                }
            }
            (kept, map)
        };
        let (ld, lmap) = squeeze(&lt.dims);
        let (rd, rmap) = squeeze(&rtt.dims);
        let remap =
            |list: &[i64], map: &[Option<i64>]| -> Vec<i64> { list.iter().filter_map(|&d| map[d as usize]).collect() };
        let nd = DotDims {
            lhs_batch: remap(&dn.lhs_batch, &lmap),
            rhs_batch: remap(&dn.rhs_batch, &rmap),
            lhs_contracting: remap(&dn.lhs_contracting, &lmap),
            rhs_contracting: remap(&dn.rhs_contracting, &rmap),
        };
        if nd.lhs_batch.len() != nd.rhs_batch.len() || nd.lhs_contracting.len() != nd.rhs_contracting.len() {
            return Ok(None);
        }
        let nl = if ld.len() == lt.rank() { lhs } else { b.reshape(lhs, &ld)? };
        let nr = if rd.len() == rtt.rank() { rhs } else { b.reshape(rhs, &rd)? };
        let d = new_dot(op, b, nl, nr, &nd)?;
        if tensor(d).is_some_and(|t| t.dims == ot.dims) {
            return Ok(Some(d));
        }
        return Ok(Some(b.reshape(d, &ot.dims)?));
    }
    Ok(None)
}
