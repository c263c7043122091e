//! `reshape-mover`: sinks reshapes and transposes ("rearranges") below
//! elementwise ops, as XLA's ReshapeMover does, so that they can meet and
//! cancel other rearranges or be merged by later passes.
//!
//! An elementwise op is a candidate when
//! - at least one operand is a rearrange whose operand is not trivially
//!   rearrangeable (see below): the first such operand is *the* rearrange;
//! - every rearrange operand is equivalent to it (same opcode and result
//!   dims; for transposes the same permutation, for reshapes the same
//!   operand dims);
//! - every other operand can trivially take the inverse rearrange: a
//!   constant, an `rng` with this single user, or a broadcast with sorted
//!   dimensions that is a scalar broadcast (reshape) or keeps its broadcast
//!   dims in order under the transpose.
//!
//! Candidates are then pruned until every rearrange operand is used only by
//! candidates (otherwise moving it would duplicate it). Each remaining
//! candidate `op(rearrange(x), c)` becomes `rearrange(op(x, c'))` where `c'`
//! is `c` with the inverse rearrange applied: equivalent rearranges give
//! their operand, splat constants are rebuilt in the new shape, broadcasts
//! get new dimensions, other constants and rngs get an explicit inverse
//! reshape/transpose. The new elementwise op keeps the old attributes except
//! layout and sharding; the new rearrange takes the old op's layout.
//! Rearranges, constants and broadcasts left without users are erased.
//!
//! XLA runs ReshapeMover in a fixed-point loop with the algebraic
//! simplifier; this pass repeats its own rounds until nothing moves (at
//! most 32), folding the inverse rearranges XLA leaves for algsimp.
//! Fusion computations are skipped, like XLA's pass.

use crate::constant::{splat, splat_attr};
use melior::ir::OperationRef;
use rxla_ir::layout::{copy_layout_attr, erase_unused, non_fusion_functions, rebuild};
use rxla_ir::{
    builder::Builder,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, HloType, TensorType},
};
use std::collections::HashSet;

#[derive(Clone, Debug)]
pub struct ReshapeMover {
    /// XLA's `reshape_of_1d_broadcast_is_cheap`: also treat reshapes of
    /// broadcasts of rank <= 1 operands (or reshapes that leave the
    /// broadcast dims unmodified) as trivial.
    reshape_of_1d_broadcast_is_cheap: bool,
}

impl HloPass for ReshapeMover {
    const NAME: &'static str = "reshape-mover";
    const DESCRIPTION: &'static str = "Sink reshapes and transposes below elementwise ops whose operands agree";

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["reshape-of-1d-broadcast-is-cheap"])?;
        Ok(Self { reshape_of_1d_broadcast_is_cheap: options.bool("reshape-of-1d-broadcast-is-cheap", false)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in non_fusion_functions(module) {
            for _ in 0..32 {
                if !self.run_on_function(func)? {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// Elementwise ops (XLA's IsElementwise) by their rxla names.
pub(crate) const ELEMENTWISE: &[&str] = &[
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cbrt",
    "ceil",
    "count_leading_zeros",
    "cosine",
    "cosh",
    "erf",
    "exponential",
    "exponential_minus_one",
    "floor",
    "imag",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "not",
    "popcnt",
    "real",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "copy",
    "convert",
    "reduce_precision",
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "mulhi",
    "complex",
    "compare",
    "select",
    "clamp",
    "stochastic_convert",
    "bitcast_convert",
];

/// True for `hlo.<opcode>` elementwise ops whose operands all have the
/// result's dims (no scalar-broadcasting select/clamp, no width-changing
/// bitcast-convert, no tuples).
pub fn is_elementwise(op: Op) -> bool {
    if op.num_results() != 1 || !ELEMENTWISE.iter().any(|name| op.is(name)) {
        return false;
    }
    let Some(out) = op.result_type(0).tensor().cloned() else { return false };
    op.operands().iter().all(|v| v.ty().tensor().is_some_and(|t| t.dims == out.dims))
        && (!op.is("bitcast_convert")
            || op.operand_type(0).tensor().is_some_and(|t| t.elem.bit_width() == out.elem.bit_width()))
}

fn is_rearrange(op: Op) -> bool {
    (op.is("reshape") || op.is("transpose"))
        && op.operand_type(0).tensor().is_some()
        && op.result_type(0).tensor().is_some()
}

fn dims_of(v: Value) -> Vec<i64> {
    v.ty().tensor().map(|t| t.dims.clone()).unwrap_or_default()
}

fn are_equivalent_rearranges(a: Op, b: Op) -> bool {
    if a.name() != b.name() || dims_of(a.result(0)) != dims_of(b.result(0)) {
        return false;
    }
    if a.is("transpose") {
        a.dims_attr("dimensions") == b.dims_attr("dimensions")
    } else {
        dims_of(a.operand(0)) == dims_of(b.operand(0))
    }
}

impl ReshapeMover {
    /// XLA's CanTriviallyRearrange: `value` can take the inverse of
    /// `rearrange` for free.
    fn can_trivially_rearrange(&self, value: Value, rearrange: Op) -> bool {
        // No-op rearranges are trivial by definition.
        if rearrange.is("reshape") && rearrange.result_type(0) == rearrange.operand_type(0) {
            return true;
        }
        if rearrange.is("transpose")
            && rearrange.dims_attr("dimensions").is_some_and(|p| shape::is_identity_permutation(&p))
        {
            return true;
        }
        let Some(op) = value.op() else { return false };
        if op.is("constant") {
            return true;
        }
        if op.is("rng") && value.uses().len() == 1 {
            return true;
        }
        if op.is("broadcast") {
            let Some(dims) = op.dims_attr("dimensions") else { return false };
            if !dims.windows(2).all(|w| w[0] <= w[1]) {
                return false;
            }
            let operand = dims_of(op.operand(0));
            if rearrange.is("reshape") {
                if operand.is_empty() {
                    return true;
                }
                if !self.reshape_of_1d_broadcast_is_cheap {
                    return false;
                }
                let true_rank = operand.iter().filter(|&&d| d != 1).count();
                return true_rank <= 1
                    || reshape_leaves_dims_unmodified(
                        &dims_of(rearrange.result(0)),
                        &dims_of(rearrange.operand(0)),
                        &dims,
                    )
                    .is_some();
            }
            let Some(perm) = rearrange.dims_attr("dimensions") else { return false };
            let moved = transposed_broadcast_dims(&dims, &perm);
            return moved.windows(2).all(|w| w[0] <= w[1]);
        }
        false
    }

    fn first_nontrivial_rearrange(&self, op: Op) -> Option<Op> {
        op.operands()
            .into_iter()
            .filter_map(|v| v.op())
            .find(|&o| is_rearrange(o) && !self.can_trivially_rearrange(o.operand(0), o))
    }

    fn is_candidate(&self, op: Op) -> bool {
        // The cheapest test first: most ops read no reshape or transpose.
        if !op.operands().into_iter().any(|v| v.op().is_some_and(|o| o.is("reshape") || o.is("transpose"))) {
            return false;
        }
        if !is_elementwise(op) {
            return false;
        }
        let Some(rearrange) = self.first_nontrivial_rearrange(op) else { return false };
        op.operands().into_iter().all(|v| match v.op() {
            Some(o) if is_rearrange(o) => are_equivalent_rearranges(o, rearrange),
            _ => self.can_trivially_rearrange(v, rearrange),
        })
    }

    /// One round over `func`; true if anything moved.
    fn run_on_function(&self, func: Op) -> Result<bool, PassError> {
        let mut candidates: Vec<Op> = func.walk_preorder().into_iter().filter(|&op| self.is_candidate(op)).collect();
        // Drop candidates whose rearrange operands have users outside the
        // set, until none does.
        loop {
            let set: HashSet<Op> = candidates.iter().copied().collect();
            let mut outside: HashSet<Op> = HashSet::new();
            for &c in &candidates {
                for v in c.operands() {
                    let Some(r) = v.op().filter(|&o| is_rearrange(o)) else { continue };
                    let users = r.users();
                    if users.iter().any(|u| !set.contains(u)) {
                        outside.extend(users);
                    }
                }
            }
            let before = candidates.len();
            candidates.retain(|c| !outside.contains(c));
            if candidates.len() == before {
                break;
            }
        }
        if candidates.is_empty() {
            return Ok(false);
        }
        // Pair each candidate with its rearrange before anything moves.
        let mut work = Vec::with_capacity(candidates.len());
        let mut old_rearranges = Vec::new();
        // Membership of the lists (kept in order) in sets: a round can move
        // thousands of ops.
        let mut listed: HashSet<Op> = HashSet::new();
        for &op in &candidates {
            let rearrange = self
                .first_nontrivial_rearrange(op)
                .ok_or_else(|| PassError("internal error: reshape-mover candidate lost its rearrange".into()))?;
            for v in op.operands() {
                if let Some(r) = v.op().filter(|&o| is_rearrange(o)) {
                    if listed.insert(r) {
                        old_rearranges.push(r);
                    }
                }
            }
            work.push((op, rearrange));
        }
        // Producers the moved ops leave unused (the old rearranges,
        // constants and broadcasts that were rearranged) are erased.
        let mut orphans = old_rearranges;
        for &(op, _) in &work {
            for v in op.operands() {
                if let Some(d) = v.op() {
                    if listed.insert(d) {
                        orphans.push(d);
                    }
                }
            }
        }
        for (op, rearrange) in work {
            sink(op, rearrange)?;
        }
        erase_unused(&orphans);
        Ok(true)
    }
}

/// Where broadcast dims `dims` end up when the inverse of a transpose by
/// `perm` is applied to the broadcast: `transpose(broadcast(x, dims),
/// inverse(perm))` is `broadcast(x, [perm[d] for d in dims])`.
pub fn transposed_broadcast_dims(dims: &[i64], perm: &[i64]) -> Vec<i64> {
    dims.iter().map(|&d| perm[d as usize]).collect()
}

/// XLA's ShapeUtil::ReshapeLeavesDimensionsUnmodified: if reshaping `from`
/// to `to` keeps each of `dims` (dims of `from`) as a whole dimension of
/// `to`, their positions in `to`.
pub fn reshape_leaves_dims_unmodified(from: &[i64], to: &[i64], dims: &[i64]) -> Option<Vec<i64>> {
    // Walk both shapes, grouping dims into runs with equal products; a dim
    // of `from` is unmodified when its run is exactly it and one dim of
    // `to` of the same size (ignoring size-1 dims on either side).
    let mut out = Vec::with_capacity(dims.len());
    let (mut i, mut j) = (0usize, 0usize);
    let mut mapping: Vec<Option<usize>> = vec![None; from.len()];
    while i < from.len() && j < to.len() {
        if from[i] == to[j] {
            mapping[i] = Some(j);
            i += 1;
            j += 1;
            continue;
        }
        if from[i] == 1 {
            i += 1;
            continue;
        }
        if to[j] == 1 {
            j += 1;
            continue;
        }
        // Skip one group whose products agree.
        let (mut pf, mut pt) = (from[i], to[j]);
        i += 1;
        j += 1;
        while pf != pt {
            if pf < pt {
                if i >= from.len() {
                    return None;
                }
                pf *= from[i];
                i += 1;
            } else {
                if j >= to.len() {
                    return None;
                }
                pt *= to[j];
                j += 1;
            }
        }
    }
    for &d in dims {
        out.push(mapping.get(d as usize).copied().flatten()? as i64);
    }
    Some(out)
}

/// Moves `rearrange` (an operand of `op`) across `op`.
fn sink(op: Op, rearrange: Op) -> Result<(), PassError> {
    let b = Builder::before(op);
    let new_dims = dims_of(rearrange.operand(0));
    let mut operands = Vec::with_capacity(op.num_operands());
    for v in op.operands() {
        operands.push(inverse_rearrange(&b, rearrange, v, &new_dims)?);
    }
    let out =
        op.result_type(0).tensor().cloned().ok_or_else(|| PassError("internal error: non-array result".into()))?;
    let new_ty = TensorType::new(&new_dims, &out.elem);
    let new_op = rebuild(&b, op, &operands, &[HloType::Tensor(new_ty)], &["hlo.layout", "hlo.sharding"])?;
    let moved = if rearrange.is("reshape") {
        b.reshape(new_op.result(0), &out.dims)?
    } else {
        let perm = rearrange.dims_attr("dimensions").unwrap_or_default();
        b.transpose(new_op.result(0), &perm)?
    };
    if let Some(m) = moved.op() {
        copy_layout_attr(op, m);
    }
    op.replace_result_uses(0, moved);
    op.erase();
    Ok(())
}

/// `value` with the inverse of `rearrange` applied (its dims become
/// `new_dims`).
fn inverse_rearrange(b: &Builder, rearrange: Op, value: Value, new_dims: &[i64]) -> Result<Value, PassError> {
    let t = value.ty().into_tensor().ok_or_else(|| PassError("internal error: non-array operand".into()))?;
    let perm = if rearrange.is("transpose") {
        Some(
            rearrange
                .dims_attr("dimensions")
                .ok_or_else(|| PassError("internal error: transpose without dims".into()))?,
        )
    } else {
        None
    };
    // A no-op rearrange: nothing to undo.
    match &perm {
        Some(p) if shape::is_identity_permutation(p) => return Ok(value),
        None if t.dims == new_dims => return Ok(value),
        _ => {}
    }
    if let Some(op) = value.op() {
        // An equivalent rearrange: its operand already has the new shape.
        if is_rearrange(op) && op.name() == rearrange.name() && dims_of(op.operand(0)) == new_dims {
            return Ok(op.operand(0));
        }
        let new_ty = t.with_dims(new_dims);
        if op.is("constant") {
            if let Some(s) = splat(value) {
                if let Some(attr) = splat_attr(b.context(), &new_ty, s) {
                    return b.constant_attr(attr, &new_ty);
                }
            }
        }
        if op.is("broadcast") {
            let dims = op.dims_attr("dimensions").unwrap_or_default();
            let operand = op.operand(0);
            let new = match &perm {
                Some(p) => Some(transposed_broadcast_dims(&dims, p)),
                None if dims_of(operand).is_empty() => Some(Vec::new()),
                None => reshape_leaves_dims_unmodified(&t.dims, new_dims, &dims)
                    .filter(|_| dims_of(operand).iter().all(|&d| d != 1)),
            };
            if let Some(new) = new.filter(|n| n.windows(2).all(|w| w[0] <= w[1])) {
                return b.value("hlo.broadcast", &[operand], new_ty.into(), &[("dimensions", b.dims_attr(&new))]);
            }
        }
    }
    match perm {
        Some(p) => b.transpose(value, &shape::inverse_permutation(&p)),
        None => b.reshape(value, new_dims),
    }
}
