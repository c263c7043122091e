//! Reductions. The interpreter folds `acc = f(acc, x)` from the init value
//! over the reduced elements in row-major order of the input (reduced dims
//! in ascending order), so a rewrite is exact when every output reduces the
//! same elements in the same order, or when the reducer is exactly
//! associative and commutative (integer and pred add, multiply, and, or,
//! xor, maximum, minimum).
//!
//! - An empty input (non-empty result) is the init value, broadcast.
//! - A reduction over size-1 dims (or over no dims) applies the reducer
//!   once: `f(init, x)`, emitted as that binary op when the reducer is a
//!   single binary op of its parameters, or just `x` when `init` is an
//!   exact identity of the op (integers, pred; float max/min with -inf/+inf;
//!   float add of -0.0 and multiply by 1 for a canonical `x`).
//! - reduce(transpose) reduces the transpose's operand when the reduced
//!   elements keep their order (or the reducer is an exact integer one).
//! - reduce(reduce) with the same integer reducer and identity init values
//!   is one reduce.
//! - reduce(reshape) reduces the reshape's operand when the reshape leaves
//!   the kept dims (or the reduced dims) unmodified.
//! - reduce(broadcast) reduces before broadcasting when the reduced dims
//!   come from the operand; a scalar broadcast reduced with an idempotent
//!   op (max, min, and, or) is `f(init, x)`; integer sums over
//!   broadcast-added dims are `init + x * n`.
//!
//! Not done (they change rounding): float reduce(concatenate) into maps,
//! reduce(negate) with add, reduce(dot) reordering, float sums of
//! broadcasts as multiplies.

use super::*;
use crate::constant::ConstantBuilder;
use rxla_ir::rewrite::Pattern;

pub(super) fn patterns(out: &mut Vec<Rc<dyn Pattern>>) {
    out.push(simp_multi("hlo.reduce", reduce));
}

type R = Result<Option<Vec<Value>>, PassError>;

/// `v` wrapped to the range of integer type `e` (two's complement).
fn wrap_int(v: i128, e: &ElementType) -> i128 {
    let bits = e.bit_width();
    if bits == 0 || bits >= 127 {
        return v;
    }
    let m = 1i128 << bits;
    let r = v.rem_euclid(m);
    if e.is_signed_int() && r >= m / 2 {
        r - m
    } else {
        r
    }
}

/// True if `f` reassociates and commutes exactly on `e`.
fn exact_monoid(opcode: &str, e: &ElementType) -> bool {
    is_int_like(e) && matches!(opcode, "add" | "multiply" | "and" | "or" | "xor" | "maximum" | "minimum")
}

/// True if `f(f(a, x), x) = f(a, x)` for every `a` and `x` of type `e`,
/// bit for bit.
fn idempotent(opcode: &str, e: &ElementType) -> bool {
    match opcode {
        "and" | "or" => is_int_like(e),
        "maximum" | "minimum" => is_int_like(e) || is_std_float(e),
        "add" | "multiply" => e.is_pred(),
        _ => false,
    }
}

/// `f(init, x)` (or `f(x, init)` for a swapped reducer), `init` broadcast
/// to x's shape.
fn apply(b: &Builder, opcode: &str, swapped: bool, init: Value, x: Value) -> Result<Value, PassError> {
    let t = tensor(x).ok_or_else(|| PassError("internal error: reduce of a non-array".into()))?;
    let i = if t.rank() == 0 { init } else { b.broadcast_scalar(init, &t.dims)? };
    if swapped {
        b.binary(opcode, x, i)
    } else {
        b.binary(opcode, i, x)
    }
}

fn reduce(op: Op, b: &Builder) -> R {
    let n = op.num_results();
    if op.num_operands() != 2 * n || n == 0 {
        return Ok(None);
    }
    let Some(xt) = tensor(op.operand(0)) else { return Ok(None) };
    let Some(rt) = result_tensor(op) else { return Ok(None) };
    let Some(dims) = op.dims_attr("dimensions") else { return Ok(None) };
    for i in 0..n {
        if op.result(i).layout_text().is_some() {
            return Ok(None);
        }
    }

    // Empty input, non-empty result: the init values.
    if xt.num_elements() == 0 && rt.num_elements() > 0 {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let t = tensor(op.result(i)).unwrap();
            out.push(b.broadcast_scalar(op.operand(n + i), &t.dims)?);
        }
        return Ok(Some(out));
    }
    if n != 1 || xt.num_elements() == 0 {
        return Ok(None);
    }
    let (x, init) = (op.operand(0), op.operand(1));
    let e = xt.elem.clone();
    // The reducer, looked up only by the rules that ask (a lookup scans
    // the module's computations; most reductions match no rule).
    let reducer_cell = std::cell::OnceCell::new();
    let reducer = || reducer_cell.get_or_init(|| reducer_binary_op(op, "to_apply"));
    let mut sorted_dims = dims.clone();
    sorted_dims.sort();

    // Nothing to combine: every output reduces exactly one element.
    if rt.num_elements() == xt.num_elements() {
        let Some((opcode, swapped)) = reducer() else { return Ok(None) };
        let identity = exact_identity(opcode, &e).is_some_and(|id| splat_equals(init, id))
            || (is_std_float(&e)
                && canonical(x)
                && ((opcode == "add" && is_neg_zero(init)) || (opcode == "multiply" && is_one(init))));
        let reshaped = if xt.dims == rt.dims { x } else { b.reshape(x, &rt.dims)? };
        if identity && reshaped.layout_text().is_none() {
            return Ok(Some(vec![reshaped]));
        }
        return Ok(Some(vec![apply(b, opcode, *swapped, init, reshaped)?]));
    }

    let monoid = || reducer().as_ref().is_some_and(|(o, _)| exact_monoid(o, &e));
    let single_user = |v: Value| v.has_single_user();

    // reduce(transpose(z)).
    if let Some(tr) = def(x, "transpose") {
        let perm = tr.dims_attr("dimensions").unwrap_or_default();
        let gated = rt.rank() < 2 || single_user(x) || x.users().iter().all(|u| u.is("reduce"));
        // The reduced dims of size > 1, in ascending order, must stay in
        // ascending order in z (or the reducer must not care).
        let big: Vec<i64> =
            sorted_dims.iter().copied().filter(|&d| xt.dims[d as usize] > 1).map(|d| perm[d as usize]).collect();
        let ordered = big.windows(2).all(|w| w[0] < w[1]);
        if gated && perm.len() == xt.rank() && (ordered || monoid()) {
            let z = tr.operand(0);
            let new_dims: Vec<i64> = dims.iter().map(|&d| perm[d as usize]).collect();
            let r = b.reduce(&[z], &[init], &new_dims, &op.symbol_attr("to_apply").unwrap_or_default())?[0];
            // Kept dims of x in order, as dims of z; their rank among z's
            // kept dims gives the transpose of the new result.
            let kept: Vec<i64> =
                (0..xt.rank() as i64).filter(|d| !dims.contains(d)).map(|d| perm[d as usize]).collect();
            let mut sorted_kept = kept.clone();
            sorted_kept.sort();
            let order: Vec<i64> =
                kept.iter().map(|k| sorted_kept.iter().position(|s| s == k).unwrap() as i64).collect();
            if order.iter().enumerate().all(|(i, &o)| i as i64 == o) {
                return Ok(Some(vec![r]));
            }
            return Ok(Some(vec![b.transpose(r, &order)?]));
        }
    }

    // reduce(reduce(z)) with the same exact reducer and identity inits.
    if let Some(inner) = def(x, "reduce") {
        if inner.num_results() == 1 && monoid() {
            let (opcode, _) = reducer().as_ref().unwrap();
            let inner_reducer = reducer_binary_op(inner, "to_apply");
            let id = exact_identity(opcode, &e);
            let same_op = inner_reducer.as_ref().is_some_and(|(o, _)| o == opcode);
            let inits_ok = id.is_some_and(|id| splat_equals(init, id) && splat_equals(inner.operand(1), id));
            if same_op && inits_ok {
                let z = inner.operand(0);
                let mut inner_dims = inner.dims_attr("dimensions").unwrap_or_default();
                inner_dims.sort();
                let zr = tensor(z).map(|t| t.rank()).unwrap_or(0) as i64;
                let kept: Vec<i64> = (0..zr).filter(|d| !inner_dims.contains(d)).collect();
                let mut all: Vec<i64> = inner_dims.clone();
                all.extend(dims.iter().map(|&d| kept[d as usize]));
                all.sort();
                return Ok(Some(b.reduce(&[z], &[init], &all, &op.symbol_attr("to_apply").unwrap_or_default())?));
            }
        }
    }

    // reduce(reshape(z)).
    if let Some(rs) = def(x, "reshape") {
        let z = rs.operand(0);
        if let Some(zt) = tensor(z) {
            let pairs = super::shape::unmodified_dims(&zt.dims, &xt.dims);
            let unmodified = |d: i64| pairs.iter().any(|(_, t)| *t as i64 == d);
            let kept: Vec<i64> = (0..xt.rank() as i64).filter(|d| !dims.contains(d)).collect();
            let to_apply = op.symbol_attr("to_apply").unwrap_or_default();
            if !pairs.is_empty() || kept.is_empty() {
                if kept.iter().all(|&d| unmodified(d)) {
                    // Reduce every dim of z that is not a kept dim.
                    let keep_z: Vec<usize> =
                        kept.iter().map(|&d| pairs.iter().find(|(_, t)| *t as i64 == d).unwrap().0).collect();
                    let new_dims: Vec<i64> = (0..zt.rank()).filter(|i| !keep_z.contains(i)).map(|i| i as i64).collect();
                    return Ok(Some(b.reduce(&[z], &[init], &new_dims, &to_apply)?));
                }
                if single_user(x) && dims.iter().all(|&d| unmodified(d)) {
                    let new_dims: Vec<i64> =
                        dims.iter().map(|&d| pairs.iter().find(|(_, t)| *t as i64 == d).unwrap().0 as i64).collect();
                    let r = b.reduce(&[z], &[init], &new_dims, &to_apply)?[0];
                    return Ok(Some(vec![b.reshape(r, &rt.dims)?]));
                }
            }
        }
    }

    // reduce(broadcast(z)).
    if let Some(bc) = def(x, "broadcast") {
        let z = bc.operand(0);
        let bd = bc.dims_attr("dimensions").unwrap_or_default();
        let Some(zt) = tensor(z) else { return Ok(None) };
        let to_apply = op.symbol_attr("to_apply").unwrap_or_default();
        let from_operand = dims.iter().all(|d| bd.contains(d));
        let sorted_bd = bd.windows(2).all(|w| w[0] < w[1]);
        let non_expanding = bd.iter().enumerate().all(|(k, &d)| zt.dims[k] == xt.dims[d as usize]);
        if from_operand && sorted_bd && non_expanding && !dims.is_empty() {
            let zdims: Vec<i64> = dims.iter().map(|d| bd.iter().position(|b| b == d).unwrap() as i64).collect();
            let r = b.reduce(&[z], &[init], &zdims, &to_apply)?[0];
            let new_bd: Vec<i64> = (0..zt.rank() as i64)
                .filter(|k| !zdims.contains(k))
                .map(|k| {
                    let d = bd[k as usize];
                    d - dims.iter().filter(|&&r| r < d).count() as i64
                })
                .collect();
            return Ok(Some(vec![b.broadcast(r, &new_bd, &rt.dims)?]));
        }
        if let Some((opcode, swapped)) = reducer() {
            let only_added = dims.iter().all(|d| !bd.contains(d));
            if zt.rank() == 0 && rt.rank() == 0 && idempotent(opcode, &e) {
                return Ok(Some(vec![apply(b, opcode, *swapped, init, z)?]));
            }
            if only_added && opcode == "add" && e.is_integer() && non_expanding {
                let count: i128 = dims.iter().map(|&d| xt.dims[d as usize] as i128).product();
                let zc = b.scalar(&e, Scalar::Int(wrap_int(count, &e)))?;
                let zc = if zt.rank() == 0 { zc } else { b.broadcast_scalar(zc, &zt.dims)? };
                let scaled = b.multiply(z, zc)?;
                let sum = apply(b, opcode, *swapped, init, scaled)?;
                let new_bd: Vec<i64> = bd.iter().map(|&d| d - dims.iter().filter(|&&r| r < d).count() as i64).collect();
                return Ok(Some(vec![b.broadcast(sum, &new_bd, &rt.dims)?]));
            }
        }
    }
    Ok(None)
}
