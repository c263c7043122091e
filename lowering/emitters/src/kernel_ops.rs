//! The kernel-level ops the emitters need beyond `func`/`arith`/`math`/
//! `scf`/`tensor`, in one module so that switching between spellings is
//! one edit.
//!
//! XLA's emitters use its `xla` dialect (`xla.loop`, `xla.apply_indexing`,
//! `xla.pure_call`, `xla.atomic_rmw`, `xla.predicated_insert`,
//! `xla.predicated_extract`, `xla.workgroup_id`) and `xla_gpu` dialect
//! (`xla_gpu.allocate_shared`, `xla_gpu.sync_threads`,
//! `xla_gpu.shuffle_reduce`); rxla has both (`dialects/xla`,
//! `dialects/xla_gpu`, see `docs/emitter-dialects.md`). The lowering
//! (`rxla-lowering`) turns them into upstream ops.

use crate::{
    builder::{FuncBuilder, RegionOp},
    kernel::ScalarFn,
    EmitError,
};
use mlir_sys::{MlirAttribute, MlirType};
use rxla_dialects::ffi;
use rxla_indexing::{BinOp, Expr, ExprKind, IndexingMap, Variable};
use rxla_ir::op::{string_ref, Value};

/// The body of a loop over a map: gets the map's results, the range
/// variables and the iter args, returns the next iter args.
pub type LoopBody<'a> = dyn FnMut(&mut FuncBuilder, &[Expr], &[Expr], &[Value]) -> Result<Vec<Value>, EmitError> + 'a;

/// An `#xla.indexing_map` attribute of `map`.
pub fn indexing_map_attr(fb: &FuncBuilder, map: &IndexingMap) -> MlirAttribute {
    let text = map.to_string();
    let attr = unsafe { ffi::rxlaIndexingMapAttrGet(fb.context(), string_ref(&text)) };
    assert!(!attr.ptr.is_null(), "internal error: the indexing map `{text}` is not well-formed");
    attr
}

/// `xla.apply_indexing`: the value of `expr` over `operands` (the
/// expression's dimensions, in order; `bounds` are their ranges).
pub fn apply_indexing(fb: &mut FuncBuilder, expr: &Expr, operands: &[Value], bounds: &[(i64, i64)]) -> Value {
    let vars: Vec<Variable> = bounds.iter().map(|&(lo, hi)| Variable::new(lo, hi)).collect();
    let map = IndexingMap::new(vec![expr.clone()], vars, vec![], vec![], vec![]).expect("valid index expression");
    let attr = indexing_map_attr(fb, &map);
    fb.val_attrs("xla.apply_indexing", operands, "index", &[("indexing_map_attr", attr)])
}

/// `xla.pure_call` (or `func.call` for a function without results).
pub fn call(fb: &mut FuncBuilder, callee: &str, args: &[Value], result_types: &[String]) -> Vec<Value> {
    let types: Vec<MlirType> = result_types.iter().map(|t| fb.ty(t)).collect();
    let name = if result_types.is_empty() { "func.call" } else { "xla.pure_call" };
    let callee = fb.symbol_attr(callee);
    fb.op(name, args, &types, &[("callee", callee)]).results()
}

/// `vector<lanes x T>` where `v` is a `T`: `v` in every lane.
pub fn broadcast(fb: &mut FuncBuilder, v: Value, lanes: i64) -> Value {
    let elem = fb.type_of(v);
    let ty = unsafe { mlir_sys::mlirVectorTypeGet(1, &lanes, elem) };
    fb.op("vector.broadcast", &[v], &[ty], &[]).result(0)
}

/// `vector.extract %vector[%lane]`: one lane, at a position known only at
/// run time (a lane loop's induction variable).
pub fn lane(fb: &mut FuncBuilder, vector: Value, lane: Value) -> Value {
    let elem = unsafe { mlir_sys::mlirShapedTypeGetElementType(fb.type_of(vector)) };
    let position = fb.i64_array_attr(&[i64::MIN]);
    fb.op("vector.extract", &[vector, lane], &[elem], &[("static_position", position)]).result(0)
}

/// `vector.insert %value, %vector[%lane]`: `vector` with one lane replaced.
pub fn with_lane(fb: &mut FuncBuilder, value: Value, vector: Value, lane: Value) -> Value {
    let ty = fb.type_of(vector);
    let position = fb.i64_array_attr(&[i64::MIN]);
    fb.op("vector.insert", &[value, vector, lane], &[ty], &[("static_position", position)]).result(0)
}

/// `gpu.thread_id` with XLA's range annotation.
pub fn thread_id(fb: &mut FuncBuilder, dim: char, count: i64) -> Value {
    gpu_id(fb, "gpu.thread_id", dim, count)
}

/// `gpu.block_id` with XLA's range annotation.
pub fn block_id(fb: &mut FuncBuilder, dim: char, count: i64) -> Value {
    gpu_id(fb, "gpu.block_id", dim, count)
}

fn gpu_id(fb: &mut FuncBuilder, name: &str, dim: char, count: i64) -> Value {
    let d = unsafe { ffi::rxlaGpuDimensionAttrGet(fb.context(), dim_number(dim)) };
    let range = fb.range_attr(0, count - 1);
    fb.val_attrs(name, &[], "index", &[("dimension", d), ("xla.range", range)])
}

fn dim_number(dim: char) -> i32 {
    match dim {
        'x' => 0,
        'y' => 1,
        _ => 2,
    }
}

/// `xla.workgroup_id`: the id of the executing CPU workgroup.
pub fn workgroup_id(fb: &mut FuncBuilder, count: i64) -> Value {
    let d = unsafe { ffi::rxlaWorkGroupDimensionAttrGet(fb.context(), 0) };
    let range = fb.range_attr(0, count - 1);
    fb.val_attrs("xla.workgroup_id", &[], "index", &[("dimension", d), ("xla.range", range)])
}

/// `xla_gpu.allocate_shared`: a shared-memory tensor of `ty`.
pub fn allocate_shared(fb: &mut FuncBuilder, ty: &str) -> Value {
    fb.val("xla_gpu.allocate_shared", &[], ty)
}

/// `xla_gpu.sync_threads`: a block-wide barrier after which `tensors`
/// (shared memory) hold every thread's writes. Returns the synchronized
/// tensors.
pub fn sync_threads(fb: &mut FuncBuilder, tensors: &[Value]) -> Vec<Value> {
    let types: Vec<MlirType> = tensors.iter().map(|&t| fb.type_of(t)).collect();
    if tensors.is_empty() {
        fb.op("gpu.barrier", &[], &[], &[]);
        return Vec::new();
    }
    fb.op("xla_gpu.sync_threads", tensors, &types, &[]).results()
}

/// `xla.loop`: runs `body` for every point of `map`'s domain given the
/// dimension values `dims` (its range variables become loops, its
/// constraints a guard). `body` gets the map's results (as index
/// expressions), the range variables, and the iter args, and returns the
/// new iter args. Returns the final iter args.
pub fn loop_over_map(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    inits: &[Value],
    body: &mut LoopBody,
) -> Result<Vec<Value>, EmitError> {
    if map.is_known_empty() {
        return Ok(inits.to_vec());
    }
    xla_loop(fb, map, dims, inits, body)
}

/// [`loop_over_map`] with the last `unrolled` range variables unrolled by
/// the emitter (straight-line code with constant indices; the others are
/// `scf.for` loops): for small tiles whose unrolling the code's quality
/// depends on, since LLVM's unroller is off on the CPU.
pub fn loop_over_map_unrolled(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    inits: &[Value],
    unrolled: usize,
    body: &mut LoopBody,
) -> Result<Vec<Value>, EmitError> {
    if unrolled == 0 {
        return loop_over_map(fb, map, dims, inits, body);
    }
    if map.is_known_empty() {
        return Ok(inits.to_vec());
    }
    let mut syms: Vec<Expr> = Vec::new();
    nest(fb, map, dims, &mut syms, inits, map.num_range_vars().saturating_sub(unrolled), body)
}

/// `xla.loop` over `map`: dimensions whose value is a constant are folded
/// into the map (unused GPU dimensions), the others become operands.
fn xla_loop(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    inits: &[Value],
    body: &mut LoopBody,
) -> Result<Vec<Value>, EmitError> {
    // Fold constant dimensions.
    let mut kept: Vec<usize> = Vec::new();
    let mut replacement: Vec<Expr> = Vec::new();
    for (i, d) in dims.iter().enumerate() {
        match d.as_const() {
            Some(c) => replacement.push(Expr::constant(c)),
            None => {
                replacement.push(Expr::dim(kept.len()));
                kept.push(i);
            }
        }
    }
    // Range variables with a single value are constants too.
    let mut range_vars = Vec::new();
    let mut syms: Vec<Expr> = Vec::new();
    for v in map.range_vars() {
        if v.bounds.lower == v.bounds.upper {
            syms.push(Expr::constant(v.bounds.lower));
        } else {
            syms.push(Expr::sym(range_vars.len()));
            range_vars.push(v.clone());
        }
    }
    let exprs: Vec<Expr> = map.results().iter().map(|e| e.replace_dims_and_symbols(&replacement, &syms)).collect();
    let dim_vars: Vec<Variable> = kept.iter().map(|&i| map.dim_vars()[i].clone()).collect();
    let constraints: Vec<(Expr, rxla_indexing::Interval)> =
        map.constraints().iter().map(|(e, r)| (e.replace_dims_and_symbols(&replacement, &syms), *r)).collect();
    if map.num_rt_vars() > 0 {
        return Err(EmitError::new("?", "xla.loop maps have no runtime variables"));
    }
    let mut folded = IndexingMap::new(exprs, dim_vars, range_vars, vec![], constraints)
        .map_err(|e| EmitError::new("?", format!("loop map: {e}")))?;
    folded.simplify();
    if folded.is_known_empty() {
        return Ok(inits.to_vec());
    }
    let mut operands: Vec<Value> = kept.iter().map(|&i| fb.index(&dims[i])).collect::<Result<_, _>>()?;
    let num_dims = operands.len() as i32;
    operands.extend_from_slice(inits);
    let types: Vec<MlirType> = inits.iter().map(|&v| fb.type_of(v)).collect();
    // Block arguments: the induction variables, the map's results, the
    // iter args.
    let index = fb.ty("index");
    let mut arg_types = vec![index; folded.num_range_vars() + folded.num_results()];
    arg_types.extend(&types);
    let map_attr = indexing_map_attr(fb, &folded);
    let segments = unsafe { mlir_sys::mlirDenseI32ArrayGet(fb.context(), 2, [num_dims, inits.len() as i32].as_ptr()) };
    let attrs = [("indexing_map_attr", map_attr), ("operandSegmentSizes", segments)];
    let nr = folded.num_range_vars();
    let ranges = folded.compute_result_ranges();
    let parts = RegionOp {
        name: "xla.loop",
        operands: &operands,
        results: &types,
        attrs: &attrs,
        arg_types: &arg_types,
        terminator: "xla.yield",
    };
    let op = fb.region_op(parts, &mut |fb, args| {
        let iv_exprs: Vec<Expr> = args[..nr]
            .iter()
            .zip(folded.range_vars())
            .map(|(&iv, v)| fb.var(iv, v.bounds.lower, v.bounds.upper))
            .collect();
        // The original range variables: constants or the loop's ivs.
        let sym_exprs: Vec<Expr> = syms.iter().map(|e| e.replace_dims_and_symbols(&[], &iv_exprs)).collect();
        let nres = ranges.len();
        let res_exprs: Vec<Expr> =
            args[nr..nr + nres].iter().zip(&ranges).map(|(&r, b)| fb.var(r, b.lower, b.upper)).collect();
        body(fb, &res_exprs, &sym_exprs, &args[nr + nres..])
    })?;
    Ok(op.results())
}

/// The loops of `map`'s range variables from `syms.len()` on; those from
/// `unroll_from` on are unrolled.
fn nest(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    syms: &mut Vec<Expr>,
    inits: &[Value],
    unroll_from: usize,
    body: &mut LoopBody,
) -> Result<Vec<Value>, EmitError> {
    let j = syms.len();
    if j == unroll_from && j < map.num_range_vars() {
        let tile = UnrolledTile::hoist(fb, map, dims, syms)?;
        return tile.unroll(fb, &mut Vec::new(), inits, body);
    }
    if j < map.num_range_vars() {
        let b = map.range_vars()[j].bounds;
        if b.lower == b.upper {
            // A loop of one iteration is just the value.
            syms.push(Expr::constant(b.lower));
            let r = nest(fb, map, dims, syms, inits, unroll_from, body);
            syms.pop();
            return r;
        }
        let emit_loop = if j >= unroll_from { FuncBuilder::unrolled_loop } else { FuncBuilder::for_loop };
        return emit_loop(fb, b.lower, b.upper + 1, 1, inits, &mut |fb, iv, iters| {
            syms.push(iv);
            let r = nest(fb, map, dims, syms, iters, unroll_from, body);
            syms.pop();
            r
        });
    }
    let cond = fb.map_constraints(map, dims, syms)?;
    let results: Vec<Expr> =
        map.results().iter().map(|e| fb.simplify(&e.replace_dims_and_symbols(dims, syms))).collect();
    let iters: Vec<Value> = inits.to_vec();
    let syms_now = syms.clone();
    fb.if_then(cond, &iters, &mut |fb| body(fb, &results, &syms_now, &iters))
}

/// The unrolled range variables of a map (the last ones, from `first`)
/// with everything that does not depend on them computed once: the map's
/// results and constraints over the builder's variables, where each
/// sub-expression of the outer loops' variables that is not affine (the
/// tile's coordinates: `(wg * n + t) mod k`, ...) became a variable of its
/// own, and the unrolled variables are symbols `s0, s1, ...`. Each
/// unrolled element then indexes as `coordinate * size + constant`, which
/// the simplifier can see through (`(8 * v + 3) floordiv 64` is
/// `v floordiv 8`), instead of repeating the tile's division and modulo
/// with another constant folded in, which neither the lowering nor LLVM
/// could share between the elements.
struct UnrolledTile<'m> {
    map: &'m IndexingMap,
    first: usize,
    outer_syms: Vec<Expr>,
    results: Vec<Expr>,
    constraints: Vec<(Expr, rxla_indexing::Interval)>,
    /// The element-independent part of the guard: the dimensions' and the
    /// outer range variables' bounds.
    outer_cond: Option<Value>,
}

impl<'m> UnrolledTile<'m> {
    fn hoist(fb: &mut FuncBuilder, map: &'m IndexingMap, dims: &[Expr], outer: &[Expr]) -> Result<Self, EmitError> {
        let first = outer.len();
        let mut syms = outer.to_vec();
        syms.extend((0..map.num_range_vars() - first).map(Expr::sym));
        let mut conds = Vec::new();
        for (d, var) in map.dim_vars().iter().enumerate() {
            conds.extend(fb.in_range(&dims[d], var.bounds.lower, var.bounds.upper)?);
        }
        for (j, var) in map.range_vars()[..first].iter().enumerate() {
            conds.extend(fb.in_range(&outer[j], var.bounds.lower, var.bounds.upper)?);
        }
        let outer_cond = (!conds.is_empty()).then(|| fb.and_all(&conds));
        let results = map
            .results()
            .iter()
            .map(|e| hoist_coordinates(fb, &e.replace_dims_and_symbols(dims, &syms)))
            .collect::<Result<_, _>>()?;
        let constraints = map
            .constraints()
            .iter()
            .map(|(e, r)| Ok((hoist_coordinates(fb, &e.replace_dims_and_symbols(dims, &syms))?, *r)))
            .collect::<Result<_, EmitError>>()?;
        Ok(UnrolledTile { map, first, outer_syms: outer.to_vec(), results, constraints, outer_cond })
    }

    /// Emits the body for every value of the unrolled variables from the
    /// `consts.len()`-th on.
    fn unroll(
        &self,
        fb: &mut FuncBuilder,
        consts: &mut Vec<i64>,
        inits: &[Value],
        body: &mut LoopBody,
    ) -> Result<Vec<Value>, EmitError> {
        let k = consts.len();
        if self.first + k < self.map.num_range_vars() {
            let b = self.map.range_vars()[self.first + k].bounds;
            let mut values = inits.to_vec();
            for c in b.lower..=b.upper {
                consts.push(c);
                values = self.unroll(fb, consts, &values, body)?;
                consts.pop();
            }
            return Ok(values);
        }
        let at = |e: &Expr| {
            e.map_vars(&mut |v| match v {
                rxla_indexing::Var::Dim(i) => Expr::dim(i),
                rxla_indexing::Var::Sym(j) => Expr::constant(consts[j]),
            })
        };
        let mut conds: Vec<Value> = self.outer_cond.into_iter().collect();
        for (e, r) in &self.constraints {
            conds.extend(fb.in_range(&at(e), r.lower, r.upper)?);
        }
        let cond = (!conds.is_empty()).then(|| fb.and_all(&conds));
        let results: Vec<Expr> = self.results.iter().map(|e| fb.simplify(&at(e))).collect();
        let mut syms = self.outer_syms.clone();
        syms.extend(consts.iter().map(|&c| Expr::constant(c)));
        fb.if_then(cond, inits, &mut |fb| body(fb, &results, &syms, inits))
    }
}

/// `e` with every maximal sub-expression that reads no symbol and is not
/// affine (a division, modulo, minimum or maximum of the builder's
/// variables) replaced by a new variable holding its value.
fn hoist_coordinates(fb: &mut FuncBuilder, e: &Expr) -> Result<Expr, EmitError> {
    let Some((op, lhs, rhs)) = e.as_binary() else { return Ok(e.clone()) };
    if !matches!(op, BinOp::Add | BinOp::Mul) && e.used_syms().is_empty() {
        let e = fb.simplify(e);
        if e.is_const() || matches!(e.kind(), ExprKind::Dim(_)) {
            return Ok(e);
        }
        let (lo, hi) = fb.range(&e);
        let v = fb.index(&e)?;
        return Ok(fb.var(v, lo, hi));
    }
    Ok(Expr::binary(op, &hoist_coordinates(fb, lhs)?, &hoist_coordinates(fb, rhs)?))
}

/// `xla.predicated_insert`: inserts `value` into `tensor` at `indices` if
/// `cond` holds.
pub fn predicated_insert(
    fb: &mut FuncBuilder,
    cond: Option<Value>,
    value: Value,
    tensor: Value,
    indices: &[Value],
) -> Value {
    match cond {
        Some(c) => {
            let t = fb.type_of(tensor);
            let mut operands = vec![c, value, tensor];
            operands.extend_from_slice(indices);
            fb.val("xla.predicated_insert", &operands, t)
        }
        None => fb.insert(value, tensor, indices),
    }
}

/// `xla.predicated_extract`: `tensor[indices]` if `cond` holds, else
/// `fallback`.
pub fn predicated_extract(
    fb: &mut FuncBuilder,
    cond: Option<Value>,
    fallback: Value,
    tensor: Value,
    indices: &[Value],
) -> Value {
    match cond {
        None => fb.extract(tensor, indices),
        Some(c) => {
            let t = fb.type_of(fallback);
            let mut operands = vec![c, fallback, tensor];
            operands.extend_from_slice(indices);
            fb.val("xla.predicated_extract", &operands, t)
        }
    }
}

/// `xla.atomic_rmw`: `tensor[indices] = update(tensor[indices])` atomically
/// with respect to other threads. `update` gets the current value and
/// returns the new one.
pub fn atomic_rmw(
    fb: &mut FuncBuilder,
    tensor: Value,
    indices: &[Value],
    update: &mut dyn FnMut(&mut FuncBuilder, Value) -> Result<Value, EmitError>,
) -> Result<Value, EmitError> {
    let t = fb.type_of(tensor);
    let elem = fb.element_type(t);
    let mut operands = vec![tensor];
    operands.extend_from_slice(indices);
    let parts = RegionOp {
        name: "xla.atomic_rmw",
        operands: &operands,
        results: &[t],
        attrs: &[],
        arg_types: &[elem],
        terminator: "xla.yield",
    };
    let op = fb.region_op(parts, &mut |fb, args| Ok(vec![update(fb, args[0])?]))?;
    Ok(op.result(0))
}

/// `xla_gpu.shuffle_reduce`: reduces `values` across the lanes of a warp
/// with the function `combiner` (own values, then received ones),
/// shuffling down from `max_offset` to 1. Lane 0 ends up with the result.
pub fn shuffle_reduce(fb: &mut FuncBuilder, values: &[Value], max_offset: i64, combiner: &ScalarFn) -> Vec<Value> {
    let types: Vec<MlirType> = values.iter().map(|&v| fb.type_of(v)).collect();
    let attrs = [("max_distance", fb.i64_attr(max_offset)), ("combiner", fb.symbol_attr(&combiner.name))];
    fb.op("xla_gpu.shuffle_reduce", values, &types, &attrs).results()
}
