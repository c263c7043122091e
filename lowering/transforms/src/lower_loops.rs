//! `xla-lower-loops`: the emitter ops with control flow become upstream
//! `scf` (XLA's `lower_xla_to_scf` / `lower_xla_loops_to_scf`):
//!
//! - `xla.loop` -> one `scf.for` per range variable (its bounds), with the
//!   map's results computed by `xla.apply_indexing` in the innermost body
//!   and the body under an `scf.if` that checks the dimension bounds and
//!   the constraints (both skipped where they provably hold), placed
//!   outside the loops of the variables the constraints do not use;
//! - `xla.predicated_insert` / `xla.predicated_extract` -> `scf.if`;
//! - `xla.pure_call` -> `func.call` (run `inline` first: it applies XLA's
//!   inlining rule to pure calls; what stays a call becomes a plain one).
//!
//! `xla.apply_indexing`, `xla.atomic_rmw` and `xla.workgroup_id` stay for
//! the later passes (flattening and vectorization read the maps).

use crate::ir::*;
use melior::ir::OperationRef;
use mlir_sys::MlirType;
use rxla_indexing::{Expr, IndexingMap, Interval};
use rxla_ir::pass::{HloPass, PassError, PassOptions};

#[derive(Clone, Debug)]
pub struct LowerLoops;

impl HloPass for LowerLoops {
    const NAME: &'static str = "xla-lower-loops";
    const DESCRIPTION: &'static str =
        "Lower xla.loop to scf.for nests with bounds checks, predicated tensor accesses to scf.if, xla.pure_call to func.call";

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        use melior::dialect::DialectHandle;
        vec![DialectHandle::scf(), DialectHandle::func(), DialectHandle::arith()]
    }

    fn from_options(options: &PassOptions) -> std::result::Result<Self, PassError> {
        options.expect_only(Self::NAME, &[])?;
        Ok(LowerLoops)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> std::result::Result<(), PassError> {
        let root = Op::of(&module);
        // Outer loops first: moving a body keeps the ops nested in it alive.
        for op in ops_named(root, "xla.loop") {
            lower_loop(op)?;
        }
        for op in ops_named(root, "xla.predicated_insert") {
            lower_predicated_insert(op);
        }
        for op in ops_named(root, "xla.predicated_extract") {
            lower_predicated_extract(op);
        }
        for op in ops_named(root, "xla.pure_call") {
            lower_pure_call(op);
        }
        Ok(())
    }
}

/// The `#xla.indexing_map` attribute of `map`.
pub fn map_attr(b: &B, map: &IndexingMap) -> mlir_sys::MlirAttribute {
    let text = map.to_string();
    rxla_ir::attrs::indexing_map(b.ctx, &text)
        .unwrap_or_else(|| panic!("rxla-indexing printed a map the xla dialect does not read: {text}"))
}

/// `xla.apply_indexing` of `exprs` over `map`'s variables (no constraints:
/// the bounds are promises the caller keeps).
pub fn apply(b: &B, map: &IndexingMap, exprs: Vec<Expr>, operands: &[Value]) -> Vec<Value> {
    if exprs.is_empty() {
        return Vec::new();
    }
    let n = exprs.len();
    let m = IndexingMap::new(exprs, map.dim_vars().to_vec(), map.range_vars().to_vec(), map.rt_vars().to_vec(), vec![])
        .expect("same variables as a valid map");
    let index = b.index();
    b.op("xla.apply_indexing", operands, &vec![index; n], &[("indexing_map_attr", map_attr(b, &m))], vec![]).results()
}

/// What is known about an index value's range (`xla.range`, constants).
pub fn known_range(v: Value) -> Option<Interval> {
    if let Some(op) = v.op() {
        if op.is_named("arith.constant") {
            return op.int_attr("value").map(Interval::point);
        }
        if op.is_named("xla.apply_indexing") {
            // The map's bounds are promises about the operands.
            let map = IndexingMap::parse(&op.indexing_map_text("indexing_map_attr")?).ok()?;
            return Some(map.expression_range(map.results().get(v.result_number()?)?));
        }
    }
    if let (Some(owner), Some(0)) = (v.owner_op(), v.arg_number()) {
        if owner.is_named("scf.for") {
            let lo = known_range(owner.operand(0))?;
            let hi = known_range(owner.operand(1))?;
            return (lo.lower < hi.upper).then(|| Interval::new(lo.lower, hi.upper - 1));
        }
    }
    let (lo, hi) = v.attr("xla.range").and_then(range_bounds)?;
    Some(Interval::new(lo, hi))
}

/// `lo <= v <= hi`, leaving out the sides `range` already guarantees.
fn in_bounds(b: &B, v: Value, bounds: Interval, range: Option<Interval>) -> Option<Value> {
    let mut cond: Option<Value> = None;
    let and = |c: Option<Value>, x: Value| {
        Some(match c {
            Some(c) => b.and(c, x),
            None => x,
        })
    };
    if range.is_none_or(|r| r.lower < bounds.lower) {
        let lo = b.const_index(bounds.lower);
        cond = and(cond, b.cmpi("sge", v, lo));
    }
    if range.is_none_or(|r| r.upper > bounds.upper) {
        let hi = b.const_index(bounds.upper);
        cond = and(cond, b.cmpi("sle", v, hi));
    }
    cond
}

fn and_opt(b: &B, a: Option<Value>, c: Option<Value>) -> Option<Value> {
    match (a, c) {
        (Some(a), Some(c)) => Some(b.and(a, c)),
        (a, None) => a,
        (None, c) => c,
    }
}

struct Loop {
    op: Op,
    map: IndexingMap,
    dims: Vec<Value>,
    body: mlir_sys::MlirBlock,
    types: Vec<MlirType>,
    /// The check of the dimension operands against their bounds (computed
    /// before the loop nest).
    dims_ok: Option<Value>,
    /// The constraints that do not always hold, checked inside the loops
    /// of the range variables they use and outside the others: a check
    /// that does not depend on the innermost loops stays out of them, whose
    /// bodies are then straight-line (vectorizable lane loops).
    checks: Vec<(Expr, Interval, Interval)>,
    /// The loop depth the checks go at: one past the last range variable
    /// they use.
    check_depth: usize,
}

fn lower_loop(op: Op) -> Result<()> {
    let text = op.indexing_map_text("indexing_map_attr").ok_or_else(|| bug("xla.loop without a map"))?;
    let map = IndexingMap::parse(&text).map_err(|e| bug(format!("xla.loop map `{text}`: {e}")))?;
    let operands = op.operands();
    let nd = map.num_dims();
    let (dims, inits) = operands.split_at(nd);
    let b = B::before(op);
    if map.is_known_empty() {
        replace_op(op, inits);
        return Ok(());
    }
    let mut dims_ok = None;
    for (i, d) in dims.iter().enumerate() {
        let c = in_bounds(&b, *d, map.dim_vars()[i].bounds, known_range(*d));
        dims_ok = and_opt(&b, dims_ok, c);
    }
    let body = op.region_block(0).ok_or_else(|| bug("xla.loop without a body"))?;
    let types: Vec<MlirType> = inits.iter().map(|v| v.raw_type()).collect();
    // Ranges from the variables' bounds alone: the constraints are what is
    // being checked.
    let unconstrained = rxla_indexing::RangeEvaluator::new(&map, false);
    let mut checks = Vec::new();
    for (expr, bounds) in map.constraints() {
        let range = unconstrained.range(expr);
        if range.lower < bounds.lower || range.upper > bounds.upper {
            checks.push((expr.clone(), *bounds, range));
        }
    }
    let check_depth = checks.iter().flat_map(|(e, _, _)| e.used_syms()).map(|j| j + 1).max().unwrap_or(0);
    let l = Loop { op, map, dims: dims.to_vec(), body, types, dims_ok, checks, check_depth };
    let mut ivs = Vec::new();
    let results = nest(&l, b, 0, inits.to_vec(), &mut ivs, false)?;
    replace_op(op, &results);
    Ok(())
}

/// Builds the loops for range variables `j..` at `b`, carrying `carried`;
/// returns the values the enclosing code sees (the loop results, the
/// check's `scf.if` results, or the innermost body's yielded values).
/// `checked`: the checks were made outside.
fn nest(l: &Loop, b: B, j: usize, carried: Vec<Value>, ivs: &mut Vec<Value>, checked: bool) -> Result<Vec<Value>> {
    if j == l.check_depth && !checked {
        return check(l, b, j, carried, ivs);
    }
    if j == l.map.num_range_vars() {
        return innermost(l, b, carried, ivs);
    }
    let bounds = l.map.range_vars()[j].bounds;
    if bounds.lower == bounds.upper {
        ivs.push(b.const_index(bounds.lower));
        let r = nest(l, b, j + 1, carried, ivs, checked);
        ivs.pop();
        return r;
    }
    let lo = b.const_index(bounds.lower);
    let hi = b.const_index(bounds.upper + 1);
    let step = b.const_index(1);
    let mut arg_types = vec![b.index()];
    arg_types.extend(&l.types);
    let (region, block) = region_with_block(&arg_types, b.loc);
    let mut operands = vec![lo, hi, step];
    operands.extend(&carried);
    let for_op = b.op("scf.for", &operands, &l.types, &[], vec![region]);
    let args = block_args(block);
    ivs.push(args[0]);
    let inner = nest(l, b.at_end(block), j + 1, args[1..].to_vec(), ivs, checked)?;
    ivs.pop();
    b.yield_in(block, &inner);
    Ok(for_op.results())
}

/// The dimension and constraint checks at depth `j` (the range variables
/// from `j` on are not used by them: they get 0), with the rest of the nest
/// inside an `scf.if` (or directly, if nothing needs checking).
fn check(l: &Loop, b: B, j: usize, carried: Vec<Value>, ivs: &mut Vec<Value>) -> Result<Vec<Value>> {
    let mut operands = l.dims.clone();
    operands.extend_from_slice(ivs);
    let all = l.dims.len() + l.map.num_range_vars();
    if !l.checks.is_empty() && operands.len() < all {
        operands.resize(all, b.const_index(0));
    }
    let mut ok = l.dims_ok;
    for (expr, bounds, range) in &l.checks {
        let v = apply(&b, &l.map, vec![expr.clone()], &operands)[0];
        ok = and_opt(&b, ok, in_bounds(&b, v, *bounds, Some(*range)));
    }
    let Some(ok) = ok else {
        // Every point of the nest is in the domain: the body runs as is.
        return nest(l, b, j, carried, ivs, true);
    };
    let (then_region, then_block) = region_with_block(&[], b.loc);
    let (else_region, else_block) = region_with_block(&[], b.loc);
    let if_op = b.op("scf.if", &[ok], &l.types, &[], vec![then_region, else_region]);
    let inner = nest(l, b.at_end(then_block), j, carried.clone(), ivs, true)?;
    b.yield_in(then_block, &inner);
    b.yield_in(else_block, &carried);
    Ok(if_op.results())
}

fn innermost(l: &Loop, b: B, carried: Vec<Value>, ivs: &[Value]) -> Result<Vec<Value>> {
    let mut operands = l.dims.clone();
    operands.extend_from_slice(ivs);
    let results = apply(&b, &l.map, l.map.results().to_vec(), &operands);
    let args = block_args(l.body);
    let nr = l.map.num_range_vars();
    let nres = l.map.num_results();
    for (a, v) in args[..nr].iter().zip(ivs) {
        a.replace_all_uses_with(*v);
    }
    for (a, v) in args[nr..nr + nres].iter().zip(&results) {
        a.replace_all_uses_with(*v);
    }
    for (a, v) in args[nr + nres..].iter().zip(&carried) {
        a.replace_all_uses_with(*v);
    }
    let yielded = take_body(l.body, &b);
    let _ = l.op;
    Ok(yielded)
}

/// Moves the ops of an `xla.loop` body to `b`'s point, dropping its
/// `xla.yield`; returns the yielded values.
fn take_body(body: mlir_sys::MlirBlock, b: &B) -> Vec<Value> {
    let yield_op = terminator(body).expect("xla.loop body ends with xla.yield");
    let yielded = yield_op.operands();
    yield_op.erase();
    match b.at {
        At::Before(before) => move_block_ops_before(body, Op::from_raw(before)),
        At::End(block) | At::Append(block) => move_block_ops(body, block),
    }
    yielded
}

fn lower_predicated_insert(op: Op) {
    // (condition, value, dest, indices...)
    let operands = op.operands();
    let (cond, value, dest, indices) = (operands[0], operands[1], operands[2], &operands[3..]);
    let b = B::before(op);
    let ty = dest.raw_type();
    let (then_region, then_block) = region_with_block(&[], b.loc);
    let (else_region, else_block) = region_with_block(&[], b.loc);
    let if_op = b.op("scf.if", &[cond], &[ty], &[], vec![then_region, else_region]);
    let mut insert_operands = vec![value, dest];
    insert_operands.extend_from_slice(indices);
    let inserted = b.append(then_block).val("tensor.insert", &insert_operands, ty, &[]);
    b.yield_in(then_block, &[inserted]);
    b.yield_in(else_block, &[dest]);
    replace_op(op, &if_op.results());
}

fn lower_predicated_extract(op: Op) {
    // (condition, fallback, src, indices...)
    let operands = op.operands();
    let (cond, fallback, src, indices) = (operands[0], operands[1], operands[2], &operands[3..]);
    let b = B::before(op);
    let ty = fallback.raw_type();
    let (then_region, then_block) = region_with_block(&[], b.loc);
    let (else_region, else_block) = region_with_block(&[], b.loc);
    let if_op = b.op("scf.if", &[cond], &[ty], &[], vec![then_region, else_region]);
    let mut extract_operands = vec![src];
    extract_operands.extend_from_slice(indices);
    let extracted = b.append(then_block).val("tensor.extract", &extract_operands, ty, &[]);
    b.yield_in(then_block, &[extracted]);
    b.yield_in(else_block, &[fallback]);
    replace_op(op, &if_op.results());
}

fn lower_pure_call(op: Op) {
    let b = B::before(op);
    let callee = op.attr_raw("callee").expect("xla.pure_call has a callee");
    let types: Vec<MlirType> = op.results().iter().map(|v| v.raw_type()).collect();
    let call = b.op("func.call", &op.operands(), &types, &[("callee", callee)], vec![]);
    replace_op(op, &call.results());
}
