//! `layout-normalization`: every array the pass can rewrite gets the
//! default (descending) layout, as XLA's LayoutNormalization does.
//!
//! A value `v` of logical shape `S` with layout `L` (major-to-minor order
//! `P`, i.e. `minor_to_major` reversed) is, in memory, the row-major array
//! `v' = transpose(v, P)` of the *physical shape* `S' = [S[P[0]], ...]`.
//! The pass rewrites each op producing or consuming such values to compute
//! `v'` directly, with default layouts, and marks the boundary with
//! `bitcast(v') : S {L}`, a bitcast that reinterprets the same bytes in the
//! old logical shape and layout (a physical no-op). Users that are
//! normalized in turn read `v'` through that bitcast; users that are not
//! (dots, gathers, calls, tuples, the function's return, ...) keep reading
//! the boundary bitcast, which is the original value with the original
//! layout. Values with a layout that come from ops the pass does not
//! rewrite (and function parameters) are read by normalized users through
//! `bitcast(v) : S'`, the other boundary direction. Function signatures are
//! never changed, so the entry computation's parameter and result layouts
//! (the ABI) are kept: a normalized root is returned through its boundary
//! bitcast with the original layout.
//!
//! Rewrites (`in_order(x, Q)` is `transpose(x, Q)` computed from `x'`: no op
//! when `x`'s layout already is `Q`, else an explicit transpose, or a
//! reshape when it only moves size-1 dims):
//! - `transpose(a, D)`: `in_order(a, D∘P)`; a transpose whose layout makes
//!   it physically a no-op becomes just the boundary bitcast;
//! - `copy(a)`: `in_order(a, P)`, an explicit transpose when the copy
//!   changed the layout;
//! - `bitcast(a)`: a default-layout bitcast of `a'` to `S'`;
//! - `reshape(a)`: `transpose(reshape(in_order(a, identity)), P)`, i.e.
//!   transpose + reshape + transpose (XLA's ReshapeDecomposer), the
//!   transposes left out when they are no-ops;
//! - elementwise ops (unary, binary, compare, select, clamp, convert, ...):
//!   the same op on `in_order(x, P)` of every operand (scalars as they are);
//! - `broadcast`: a broadcast of the operand arranged so that the
//!   broadcast dims are sorted in the physical result;
//! - `constant`: the constant without layout, transposed (splats rebuilt in
//!   the physical shape); `iota`: an iota of `S'` along the moved dim;
//! - `slice`, `pad`, `reverse`, `concatenate`, `dynamic_slice`,
//!   `dynamic_update_slice`: the op on operands in the result's order with
//!   its per-dimension attributes (or index operands) permuted;
//! - `reduce` (one input): reduces the input's physical form when that keeps
//!   the order in which the reduced elements are combined (or the combiner
//!   is an order-insensitive integer one), else the logical input; the
//!   result is then put in its physical order.
//!
//! Gathers, scatters, reduce-windows, variadic reduces and width-changing
//! bitcast-converts, whose emitters read operands and write results as
//! row-major arrays, get their transposed operands as row-major arrays in
//! logical order (a transpose of the physical form), and a result with a
//! layout is written row-major and transposed to its physical form.
//! Everything else (tuples, calls, control flow, dots, convolutions, other
//! variadic ops, custom calls, ...) is left as it is, with bitcasts at its
//! boundary. Layouts with tiles, a memory space or other
//! uninterpreted parts in a non-default order are not touched. Every
//! rewrite only moves elements or reinterprets the same bytes, so results
//! are bit-identical. Fusion computations are skipped.

use crate::{
    constant::{splat, splat_attr},
    reshape_mover::is_elementwise,
};
use melior::ir::OperationRef;
use rxla_ir::layout::{layout_of, may_reduce_in_order, non_fusion_functions, physical_dims, rebuild};
use rxla_ir::{
    builder::Builder,
    op::{Op, Value},
    pass::{HloPass, PassError, PassOptions},
    types::{shape, HloType, TensorType},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct LayoutNormalization {
    /// Reduce over a logical (transposed) input rather than combine the
    /// reduced elements in memory order (see [`Normalizer::rewrite_reduce`]).
    keep_reduction_order: bool,
}

impl HloPass for LayoutNormalization {
    const NAME: &'static str = "layout-normalization";
    const DESCRIPTION: &'static str =
        "Rewrite ops on arrays with non-default layouts to default-layout physical shapes, bitcasts at the boundary";
    // Float reduces may be combined in memory order (keep-reduction-order).
    const EXACT: bool = false;

    fn from_options(options: &PassOptions) -> Result<Self, PassError> {
        options.expect_only(Self::NAME, &["keep-reduction-order"])?;
        Ok(Self { keep_reduction_order: options.bool("keep-reduction-order", false)? })
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let module = Op::of(&module);
        for func in non_fusion_functions(module) {
            let mut n = Normalizer {
                module,
                func,
                normalized: HashMap::new(),
                created: Vec::new(),
                created_set: HashSet::new(),
                keep_reduction_order: self.keep_reduction_order,
            };
            n.run()?;
        }
        Ok(())
    }
}

fn bug(what: &str) -> PassError {
    PassError(format!("internal error: {what}"))
}

/// Ops left alone whose emitters read their operands as row-major arrays
/// in logical order and write their result so (they take no layouts):
/// gathers, scatters (which update the operand in place), reduce-windows,
/// variadic reduces and width-changing bitcast-converts.
fn reads_row_major(op: Op) -> bool {
    matches!(op.opcode().as_str(), "gather" | "scatter" | "reduce_window")
        || (op.is("reduce") && op.num_operands() > 2)
        || (op.is("bitcast_convert") && changes_rank(op))
}

/// A width-changing bitcast-convert: its result gains or loses the minor
/// dimension of the narrower elements.
fn changes_rank(op: Op) -> bool {
    let rank = |t: HloType| t.tensor().map(|t| t.rank());
    op.num_operands() == 1 && rank(op.operand_type(0)) != rank(op.result_type(0))
}

/// Elementwise ops whose non-scalar operands have the result's dims; scalar
/// operands (select's predicate, clamp's bounds) are allowed.
fn is_elementwise_with_scalars(op: Op) -> bool {
    if is_elementwise(op) {
        return true;
    }
    if !(op.is("select") || op.is("clamp")) || op.num_results() != 1 {
        return false;
    }
    let Some(out) = op.result_type(0).tensor().cloned() else { return false };
    op.operands().iter().all(|v| v.ty().tensor().is_some_and(|t| t.dims == out.dims || t.rank() == 0))
}

/// `perm` applied to a list indexed by dims: `out[k] = list[perm[k]]`.
fn permute(list: &[i64], perm: &[i64]) -> Vec<i64> {
    perm.iter().map(|&p| list[p as usize]).collect()
}

struct Normalizer {
    /// The pass option of the same name.
    keep_reduction_order: bool,
    module: Op,
    func: Op,
    /// Boundary bitcasts (and layout-carrying values already read through a
    /// bitcast) to their physical, default-layout form.
    normalized: HashMap<Value, Value>,
    /// Ops this pass created, to erase the unused ones at the end.
    created: Vec<Op>,
    created_set: HashSet<Op>,
}

impl Normalizer {
    fn run(&mut self) -> Result<(), PassError> {
        let ops = self.func.body_ops();
        for op in ops {
            if op.name() == "func.return" {
                continue;
            }
            self.visit(op)?;
        }
        rxla_ir::layout::erase_unused(&self.created);
        Ok(())
    }

    fn note(&mut self, v: Value) -> Value {
        if let Some(op) = v.op() {
            self.note_op(op);
        }
        v
    }

    fn note_op(&mut self, op: Op) {
        if self.created_set.insert(op) {
            self.created.push(op);
        }
    }

    /// The major-to-minor order of an array value's layout (None: opaque
    /// or not an array).
    fn order(v: Value) -> Option<Vec<i64>> {
        let rank = v.ty().tensor()?.rank();
        layout_of(v).major_to_minor(rank)
    }

    /// The physical form of `v` (default layout): `v` itself for the default
    /// layout; else recorded, or a bitcast made right after `v`'s
    /// definition.
    fn physical(&mut self, v: Value) -> Result<Option<Value>, PassError> {
        if let Some(&p) = self.normalized.get(&v) {
            return Ok(Some(p));
        }
        let Some(order) = Self::order(v) else { return Ok(None) };
        if shape::is_identity_permutation(&order) {
            return Ok(Some(v));
        }
        let t = v.ty().into_tensor().ok_or_else(|| bug("not an array"))?;
        let at = match v.op() {
            Some(def) => def.next().ok_or_else(|| bug("an op without a successor"))?,
            None => *self.func.body_ops().first().ok_or_else(|| bug("an empty function"))?,
        };
        let b = Builder::before(at);
        let p = b.bitcast(v, &t.with_dims(&physical_dims(&t.dims, &order)))?;
        self.note(p);
        self.normalized.insert(v, p);
        Ok(Some(p))
    }

    /// `transpose(v, q)` computed from `v`'s physical form, default layout.
    fn in_order(&mut self, b: &Builder, v: Value, q: &[i64]) -> Result<Option<Value>, PassError> {
        let Some(order) = Self::order(v) else { return Ok(None) };
        let Some(p) = self.physical(v)? else { return Ok(None) };
        let perm = shape::compose_permutations(&shape::inverse_permutation(&order), q);
        Ok(Some(self.transpose(b, p, &perm)?))
    }

    /// `transpose(x, perm)`: nothing for the identity, a reshape when only
    /// size-1 dims move.
    fn transpose(&mut self, b: &Builder, x: Value, perm: &[i64]) -> Result<Value, PassError> {
        if shape::is_identity_permutation(perm) {
            return Ok(x);
        }
        // A transpose of a transpose this pass made is one transpose.
        if let Some(def) = x.op() {
            if def.is("transpose") && self.created_set.contains(&def) {
                if let Some(first) = def.dims_attr("dimensions") {
                    let composed = shape::compose_permutations(&first, perm);
                    return self.transpose(b, def.operand(0), &composed);
                }
            }
        }
        let t = x.ty().into_tensor().ok_or_else(|| bug("not an array"))?;
        let moved: Vec<i64> = perm.iter().copied().filter(|&d| t.dims[d as usize] != 1).collect();
        if moved.windows(2).all(|w| w[0] < w[1]) {
            let dims = shape::permute(&t.dims, perm);
            return self.reshape(b, x, &dims);
        }
        let v = b.transpose(x, perm)?;
        Ok(self.note(v))
    }

    /// `reshape(x, dims)`, folding into a reshape this pass made.
    fn reshape(&mut self, b: &Builder, x: Value, dims: &[i64]) -> Result<Value, PassError> {
        let t = x.ty().into_tensor().ok_or_else(|| bug("not an array"))?;
        if t.dims == dims {
            return Ok(x);
        }
        let mut source = x;
        if let Some(def) = x.op() {
            if def.is("reshape") && self.created_set.contains(&def) {
                source = def.operand(0);
                if source.ty().tensor().is_some_and(|s| s.dims == dims) {
                    return Ok(source);
                }
            }
        }
        let v = b.reshape(source, dims)?;
        Ok(self.note(v))
    }

    fn visit(&mut self, op: Op) -> Result<(), PassError> {
        if reads_row_major(op) {
            return self.row_major_operands(op);
        }
        if op.num_results() != 1 {
            return Ok(());
        }
        let r = op.result(0);
        let Some(rt) = r.ty().into_tensor() else { return Ok(()) };
        let Some(order) = Self::order(r) else { return Ok(()) };
        let has_layout = |v: &Value| Self::order(*v).is_some_and(|o| !shape::is_identity_permutation(&o));
        if shape::is_identity_permutation(&order) && !op.operands().iter().any(has_layout) {
            return Ok(());
        }
        let b = Builder::before(op);
        let Some(physical) = self.rewrite(&b, op, &rt, &order)? else { return Ok(()) };
        let expected = physical_dims(&rt.dims, &order);
        if physical.ty().tensor().is_none_or(|t| t.dims != expected || t.elem != rt.elem) {
            return Err(bug(&format!("layout-normalization built {} for {}", physical.ty(), op.name())));
        }
        let replacement = if shape::is_identity_permutation(&order) {
            physical
        } else {
            let cast = b.bitcast(physical, &rt)?;
            let cast_op = cast.op().ok_or_else(|| bug("bitcast without an op"))?;
            rxla_ir::layout::set_layout(cast_op, &rxla_ir::layout::minor_to_major_of(&order))?;
            self.note(cast);
            self.normalized.insert(cast, physical);
            cast
        };
        op.replace_result_uses(0, replacement);
        op.erase();
        Ok(())
    }

    /// Gives `op` its operands as row-major arrays in logical order: a
    /// transposed operand becomes a transpose of its physical form (XLA's
    /// layout assignment copies there too), which a fusion then reads
    /// through the transpose.
    fn row_major_operands(&mut self, op: Op) -> Result<(), PassError> {
        let b = Builder::before(op);
        for (k, v) in op.operands().into_iter().enumerate() {
            let Some(order) = Self::order(v) else { continue };
            if shape::is_identity_permutation(&order) {
                continue;
            }
            let identity: Vec<i64> = (0..order.len() as i64).collect();
            if let Some(x) = self.in_order(&b, v, &identity)? {
                op.set_operand(k, x);
            }
        }
        // A result with a layout: the op writes it row-major, and its users
        // read it through a transpose to the physical form and the usual
        // boundary bitcast.
        if op.num_results() != 1 {
            return Ok(());
        }
        let r = op.result(0);
        let Some(order) = Self::order(r) else { return Ok(()) };
        if shape::is_identity_permutation(&order) {
            return Ok(());
        }
        let rt = r.ty().into_tensor().ok_or_else(|| bug("not an array"))?;
        let uses = r.uses();
        op.remove_attr("hlo.layout");
        let after = Builder::before(op.next().ok_or_else(|| bug("an op without a successor"))?);
        let physical = self.transpose(&after, r, &order)?;
        let cast = after.bitcast(physical, &rt)?;
        let cast_op = cast.op().ok_or_else(|| bug("bitcast without an op"))?;
        rxla_ir::layout::set_layout(cast_op, &rxla_ir::layout::minor_to_major_of(&order))?;
        self.note(cast);
        self.normalized.insert(cast, physical);
        for (user, k) in uses {
            user.set_operand(k, cast);
        }
        Ok(())
    }

    /// The physical form of `op`'s result (layout order `order`), built from
    /// physical operands; None if the op is not one the pass rewrites.
    fn rewrite(&mut self, b: &Builder, op: Op, rt: &TensorType, order: &[i64]) -> Result<Option<Value>, PassError> {
        let inverse = shape::inverse_permutation(order);
        let phys_dims = physical_dims(&rt.dims, order);
        let phys_ty = rt.with_dims(&phys_dims);
        let name = op.opcode();
        let drop = ["hlo.layout", "hlo.sharding"];
        match name.as_str() {
            "transpose" => {
                let Some(d) = op.dims_attr("dimensions") else { return Ok(None) };
                self.in_order(b, op.operand(0), &shape::compose_permutations(&d, order))
            }
            "copy" => self.in_order(b, op.operand(0), order),
            "bitcast" => {
                let Some(p) = self.physical(op.operand(0))? else { return Ok(None) };
                if p.ty() == HloType::Tensor(phys_ty.clone()) {
                    return Ok(Some(p));
                }
                let v = b.bitcast(p, &phys_ty)?;
                Ok(Some(self.note(v)))
            }
            "reshape" => {
                let a = op.operand(0);
                let Some(rank) = a.ty().tensor().map(|t| t.rank()) else { return Ok(None) };
                let identity: Vec<i64> = (0..rank as i64).collect();
                let Some(logical) = self.in_order(b, a, &identity)? else { return Ok(None) };
                let reshaped = self.reshape(b, logical, &rt.dims)?;
                Ok(Some(self.transpose(b, reshaped, order)?))
            }
            "broadcast" => {
                let Some(dims) = op.dims_attr("dimensions") else { return Ok(None) };
                // Where each operand dim lands in the physical result; the
                // operand is arranged so that these are sorted.
                let q: Vec<i64> = dims.iter().map(|&d| inverse[d as usize]).collect();
                let mut arrangement: Vec<i64> = (0..q.len() as i64).collect();
                arrangement.sort_by_key(|&m| q[m as usize]);
                let Some(x) = self.in_order(b, op.operand(0), &arrangement)? else { return Ok(None) };
                let new_dims: Vec<i64> = arrangement.iter().map(|&m| q[m as usize]).collect();
                let v = b.value("hlo.broadcast", &[x], phys_ty.into(), &[("dimensions", b.dims_attr(&new_dims))])?;
                Ok(Some(self.note(v)))
            }
            "constant" => {
                if let Some(s) = splat(op.result(0)) {
                    if let Some(attr) = splat_attr(b.context(), &phys_ty, s) {
                        let v = b.constant_attr(attr, &phys_ty)?;
                        return Ok(Some(self.note(v)));
                    }
                }
                let plain = rebuild(b, op, &[], &[HloType::Tensor(rt.clone())], &drop)?;
                self.note_op(plain);
                Ok(Some(self.transpose(b, plain.result(0), order)?))
            }
            "iota" => {
                let Some(d) = op.int_attr("iota_dimension") else { return Ok(None) };
                let v = b.iota(&phys_ty, inverse[d as usize])?;
                Ok(Some(self.note(v)))
            }
            "slice" => {
                let (Some(start), Some(limit), Some(strides)) =
                    (op.dims_attr("start_indices"), op.dims_attr("limit_indices"), op.dims_attr("strides"))
                else {
                    return Ok(None);
                };
                let Some(x) = self.in_order(b, op.operand(0), order)? else { return Ok(None) };
                let v = b.slice(x, &permute(&start, order), &permute(&limit, order), &permute(&strides, order))?;
                Ok(Some(self.note(v)))
            }
            "pad" => {
                let (Some(lo), Some(hi), Some(interior)) = (
                    op.dims_attr("edge_padding_low"),
                    op.dims_attr("edge_padding_high"),
                    op.dims_attr("interior_padding"),
                ) else {
                    return Ok(None);
                };
                let Some(x) = self.in_order(b, op.operand(0), order)? else { return Ok(None) };
                let v =
                    b.pad(x, op.operand(1), &permute(&lo, order), &permute(&hi, order), &permute(&interior, order))?;
                Ok(Some(self.note(v)))
            }
            "reverse" => {
                let Some(dims) = op.dims_attr("dimensions") else { return Ok(None) };
                let Some(x) = self.in_order(b, op.operand(0), order)? else { return Ok(None) };
                let mut new_dims: Vec<i64> = dims.iter().map(|&d| inverse[d as usize]).collect();
                new_dims.sort_unstable();
                let v = b.reverse(x, &new_dims)?;
                Ok(Some(self.note(v)))
            }
            "concatenate" => {
                let Some(dim) = op.int_attr("dimension") else { return Ok(None) };
                let mut xs = Vec::with_capacity(op.num_operands());
                for v in op.operands() {
                    let Some(x) = self.in_order(b, v, order)? else { return Ok(None) };
                    xs.push(x);
                }
                let v = b.concatenate(&xs, inverse[dim as usize])?;
                Ok(Some(self.note(v)))
            }
            "dynamic_slice" => {
                let Some(sizes) = op.dims_attr("slice_sizes") else { return Ok(None) };
                let Some(x) = self.in_order(b, op.operand(0), order)? else { return Ok(None) };
                let starts: Vec<Value> = order.iter().map(|&d| op.operand(1 + d as usize)).collect();
                let mut operands = vec![x];
                operands.extend(starts);
                let new = rebuild(b, op, &operands, &[phys_ty.into()], &["slice_sizes", "hlo.layout", "hlo.sharding"])?;
                new.set_dims_attr("slice_sizes", &permute(&sizes, order));
                Ok(Some(self.note(new.result(0))))
            }
            "dynamic_update_slice" => {
                let Some(x) = self.in_order(b, op.operand(0), order)? else { return Ok(None) };
                let Some(u) = self.in_order(b, op.operand(1), order)? else { return Ok(None) };
                let starts: Vec<Value> = order.iter().map(|&d| op.operand(2 + d as usize)).collect();
                let mut operands = vec![x, u];
                operands.extend(starts);
                let new = rebuild(b, op, &operands, &[phys_ty.into()], &drop)?;
                Ok(Some(self.note(new.result(0))))
            }
            "reduce" => self.rewrite_reduce(b, op, rt, order),
            _ if is_elementwise_with_scalars(op) => {
                let mut operands = Vec::with_capacity(op.num_operands());
                for v in op.operands() {
                    let scalar = v.ty().tensor().is_some_and(|t| t.rank() == 0) && rt.rank() > 0;
                    if scalar {
                        operands.push(v);
                        continue;
                    }
                    let Some(x) = self.in_order(b, v, order)? else { return Ok(None) };
                    operands.push(x);
                }
                let new = rebuild(b, op, &operands, &[phys_ty.into()], &drop)?;
                Ok(Some(self.note(new.result(0))))
            }
            _ => Ok(None),
        }
    }

    fn rewrite_reduce(
        &mut self,
        b: &Builder,
        op: Op,
        rt: &TensorType,
        order: &[i64],
    ) -> Result<Option<Value>, PassError> {
        if op.num_operands() != 2 {
            return Ok(None);
        }
        let a = op.operand(0);
        let Some(at) = a.ty().into_tensor() else { return Ok(None) };
        let Some(reduced) = op.dims_attr("dimensions") else { return Ok(None) };
        let Some(a_order) = Self::order(a) else { return Ok(None) };
        // The input arrangement: its physical order (memory order, what
        // XLA does: the semantics leave the combining order unspecified),
        // unless keep-reduction-order asks for the logical order where the
        // physical one would combine float elements in another order.
        let arrangement =
            if may_reduce_in_order(self.module, op, &at.dims, &reduced, &a_order, self.keep_reduction_order) {
                a_order
            } else {
                (0..at.rank() as i64).collect()
            };
        let Some(x) = self.in_order(b, a, &arrangement)? else { return Ok(None) };
        let to_result_dim = |d: i64| d - reduced.iter().filter(|&&r| r < d).count() as i64;
        let mut new_reduced = Vec::new();
        let mut kept = Vec::new();
        for (k, &d) in arrangement.iter().enumerate() {
            if reduced.contains(&d) {
                new_reduced.push(k as i64);
            } else {
                kept.push(to_result_dim(d));
            }
        }
        let r0_ty = rt.with_dims(&shape::permute(&rt.dims, &kept));
        let new = rebuild(b, op, &[x, op.operand(1)], &[r0_ty.into()], &["dimensions", "hlo.layout", "hlo.sharding"])?;
        new.set_dims_attr("dimensions", &new_reduced);
        self.note_op(new);
        // r0 = transpose(r, kept); the physical result is transpose(r, order).
        let perm = shape::compose_permutations(&shape::inverse_permutation(&kept), order);
        Ok(Some(self.transpose(b, new.result(0), &perm)?))
    }
}
