//! The kernel-level ops the emitters need beyond `func`/`arith`/`math`/
//! `scf`/`tensor`, in one module so that switching between spellings is
//! one edit.
//!
//! XLA's emitters use its `xla` dialect (`xla.loop`, `xla.apply_indexing`,
//! `xla.pure_call`, `xla.atomic_rmw`, `xla.predicated_insert`,
//! `xla.predicated_extract`, `xla.workgroup_id`) and `xla_gpu` dialect
//! (`xla_gpu.allocate_shared`, `xla_gpu.sync_threads`,
//! `xla_gpu.shuffle_reduce`); rxla has both (`dialects/xla`,
//! `dialects/xla_gpu`, see `docs/emitter-dialects.md`), and the helpers
//! write them when [`XLA_DIALECTS`] is set (the default). With it unset
//! they write the upstream form XLA's own lowering would produce, which is
//! how the emitters were first written and tested:
//!
//! | XLA op | upstream form |
//! |---|---|
//! | `xla.apply_indexing` | `affine.apply` of the map's expression (min/max as `arith`) |
//! | `xla.loop` | `scf.for` per range variable, `scf.if` on the map's constraints |
//! | `xla.pure_call` | `func.call` |
//! | `xla.predicated_insert` | `scf.if` around `tensor.insert` |
//! | `xla.atomic_rmw` | read-modify-write with `tensor.extract`/`tensor.insert` marked `xla.atomic` |
//! | `xla.workgroup_id` (CPU) | an `scf.for` over the workgroups |
//! | `xla_gpu.allocate_shared` | `tensor.empty` marked `xla.shared` |
//! | `xla_gpu.sync_threads` | `gpu.barrier` (the tensors flow through) |
//! | `xla_gpu.shuffle_reduce` | `gpu.shuffle down` steps and calls of the reducer |

use crate::{
    builder::{result_lhs, results, FuncBuilder},
    kernel::ScalarFn,
    EmitError,
};
use rxla_indexing::{Expr, IndexingMap, Variable};

/// The body of a loop over a map: gets the map's results, the range
/// variables and the iter args, returns the next iter args.
pub type LoopBody<'a> = dyn FnMut(&mut FuncBuilder, &[Expr], &[Expr], &[String]) -> Result<Vec<String>, EmitError> + 'a;

/// Whether to write the `xla`/`xla_gpu` ops (else their upstream forms).
pub const XLA_DIALECTS: bool = true;

/// An `#xla.indexing_map` attribute of a map's text.
pub fn indexing_map_attr(map: &IndexingMap) -> String {
    format!("#xla.indexing_map<\"{map}\">")
}

/// `xla.apply_indexing`: the value of `expr` over `operands` (the
/// expression's dimensions, in order; `bounds` are their ranges).
pub fn apply_indexing(fb: &mut FuncBuilder, expr: &Expr, operands: &[String], bounds: &[(i64, i64)]) -> String {
    if XLA_DIALECTS {
        let vars: Vec<Variable> = bounds.iter().map(|&(lo, hi)| Variable::new(lo, hi)).collect();
        let map = IndexingMap::new(vec![expr.clone()], vars, vec![], vec![], vec![]).expect("valid index expression");
        return fb.assign("idx", &format!("xla.apply_indexing {}({})", indexing_map_attr(&map), operands.join(", ")));
    }
    let dims: Vec<String> = (0..operands.len()).map(|i| format!("d{i}")).collect();
    fb.assign("idx", &format!("affine.apply affine_map<({}) -> ({expr})>({})", dims.join(", "), operands.join(", ")))
}

/// `xla.pure_call`: a call of a side-effect-free function.
pub fn call(
    fb: &mut FuncBuilder,
    callee: &str,
    args: &[String],
    arg_types: &[String],
    result_types: &[String],
) -> Vec<String> {
    let name = fb.fresh("call");
    let lhs =
        if result_types.is_empty() { String::new() } else { format!("{} = ", result_lhs(&name, result_types.len())) };
    let res = if result_types.len() == 1 { result_types[0].clone() } else { format!("({})", result_types.join(", ")) };
    let op = if XLA_DIALECTS && !result_types.is_empty() { "xla.pure_call" } else { "func.call" };
    fb.line(&format!("{lhs}{op} @\"{callee}\"({}) : ({}) -> {res}", args.join(", "), arg_types.join(", ")));
    results(&name, result_types.len())
}

/// `gpu.thread_id` with XLA's range annotation.
pub fn thread_id(fb: &mut FuncBuilder, dim: char, count: i64) -> String {
    fb.assign("tid", &format!("gpu.thread_id {dim} {{xla.range = [0 : index, {} : index]}}", count - 1))
}

/// `gpu.block_id` with XLA's range annotation.
pub fn block_id(fb: &mut FuncBuilder, dim: char, count: i64) -> String {
    fb.assign("bid", &format!("gpu.block_id {dim} {{xla.range = [0 : index, {} : index]}}", count - 1))
}

/// `xla.workgroup_id`: the id of the executing CPU workgroup (`None` in
/// the upstream form, where the workgroups are a loop).
pub fn workgroup_id(fb: &mut FuncBuilder, count: i64) -> Option<String> {
    XLA_DIALECTS
        .then(|| fb.assign("wg", &format!("xla.workgroup_id x {{xla.range = [0 : index, {} : index]}}", count - 1)))
}

/// `xla_gpu.allocate_shared`: a shared-memory tensor of `ty`.
pub fn allocate_shared(fb: &mut FuncBuilder, ty: &str) -> String {
    if XLA_DIALECTS {
        return fb.assign("shmem", &format!("xla_gpu.allocate_shared : {ty}"));
    }
    fb.assign("shmem", &format!("tensor.empty() {{xla.shared}} : {ty}"))
}

/// `xla_gpu.sync_threads`: a block-wide barrier after which `tensors` (shared
/// memory, of `types`) hold every thread's writes. Returns the synchronized
/// tensors.
pub fn sync_threads(fb: &mut FuncBuilder, tensors: &[String], types: &[String]) -> Vec<String> {
    if XLA_DIALECTS && !tensors.is_empty() {
        let name = fb.fresh("synced");
        fb.line(&format!(
            "{} = xla_gpu.sync_threads {} : {}",
            result_lhs(&name, tensors.len()),
            tensors.join(", "),
            types.join(", ")
        ));
        return results(&name, tensors.len());
    }
    fb.line("gpu.barrier");
    tensors.to_vec()
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
    inits: &[(String, String)],
    body: &mut LoopBody,
) -> Result<Vec<String>, EmitError> {
    if map.is_known_empty() {
        return Ok(inits.iter().map(|(v, _)| v.clone()).collect());
    }
    if XLA_DIALECTS {
        return xla_loop(fb, map, dims, inits, body);
    }
    let mut syms: Vec<Expr> = Vec::new();
    nest(fb, map, dims, &mut syms, inits, 0, body)
}

/// [`loop_over_map`] with the last `unrolled` range variables unrolled by
/// the emitter (straight-line code with constant indices; the others are
/// `scf.for` loops): for small tiles whose unrolling the code's quality
/// depends on, since LLVM's unroller is off on the CPU.
pub fn loop_over_map_unrolled(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    inits: &[(String, String)],
    unrolled: usize,
    body: &mut LoopBody,
) -> Result<Vec<String>, EmitError> {
    if unrolled == 0 {
        return loop_over_map(fb, map, dims, inits, body);
    }
    if map.is_known_empty() {
        return Ok(inits.iter().map(|(v, _)| v.clone()).collect());
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
    inits: &[(String, String)],
    body: &mut LoopBody,
) -> Result<Vec<String>, EmitError> {
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
        return Ok(inits.iter().map(|(v, _)| v.clone()).collect());
    }
    let operands: Vec<String> = kept.iter().map(|&i| fb.index(&dims[i])).collect::<Result<_, _>>()?;
    let result = fb.fresh("loop");
    let ivs: Vec<String> = (0..folded.num_range_vars()).map(|_| fb.fresh("i")).collect();
    let ras: Vec<String> = (0..folded.num_results()).map(|_| fb.fresh("r")).collect();
    let iters: Vec<String> = inits.iter().map(|_| fb.fresh("iter")).collect();
    let types: Vec<&str> = inits.iter().map(|(_, t)| t.as_str()).collect();
    let args: Vec<String> = iters.iter().zip(inits).map(|(a, (v, _))| format!("{a} = {v}")).collect();
    let lhs = if inits.is_empty() { String::new() } else { format!("{} = ", result_lhs(&result, inits.len())) };
    fb.open(&format!(
        "{lhs}xla.loop ({})[{}] -> ({}) in {} iter_args({}) -> ({}) {{",
        operands.join(", "),
        ivs.join(", "),
        ras.join(", "),
        indexing_map_attr(&folded),
        args.join(", "),
        types.join(", ")
    ));
    let iv_exprs: Vec<Expr> =
        ivs.iter().zip(folded.range_vars()).map(|(iv, v)| fb.var(iv, v.bounds.lower, v.bounds.upper)).collect();
    // The original range variables: constants or the loop's ivs.
    let sym_exprs: Vec<Expr> = syms.iter().map(|e| e.replace_dims_and_symbols(&[], &iv_exprs)).collect();
    let ranges = folded.compute_result_ranges();
    let res_exprs: Vec<Expr> = ras.iter().zip(ranges).map(|(r, b)| fb.var(r, b.lower, b.upper)).collect();
    let yields = body(fb, &res_exprs, &sym_exprs, &iters)?;
    fb.yield_values("xla.yield", &yields, &types);
    fb.close("}");
    Ok(results(&result, inits.len()))
}

/// The loops of `map`'s range variables from `syms.len()` on; those from
/// `unroll_from` on are unrolled.
fn nest(
    fb: &mut FuncBuilder,
    map: &IndexingMap,
    dims: &[Expr],
    syms: &mut Vec<Expr>,
    inits: &[(String, String)],
    unroll_from: usize,
    body: &mut LoopBody,
) -> Result<Vec<String>, EmitError> {
    let j = syms.len();
    if j < map.num_range_vars() {
        let b = map.range_vars()[j].bounds;
        if b.lower == b.upper {
            // A loop of one iteration is just the value.
            syms.push(Expr::constant(b.lower));
            let r = nest(fb, map, dims, syms, inits, unroll_from, body);
            syms.pop();
            return r;
        }
        let types: Vec<String> = inits.iter().map(|(_, t)| t.clone()).collect();
        let emit_loop = if j >= unroll_from { FuncBuilder::unrolled_loop } else { FuncBuilder::for_loop };
        return emit_loop(fb, b.lower, b.upper + 1, 1, inits, &mut |fb, iv, iters| {
            syms.push(iv);
            let inner: Vec<(String, String)> = iters.iter().cloned().zip(types.iter().cloned()).collect();
            let r = nest(fb, map, dims, syms, &inner, unroll_from, body);
            syms.pop();
            r
        });
    }
    let cond = fb.map_constraints(map, dims, syms)?;
    let results: Vec<Expr> =
        map.results().iter().map(|e| fb.simplify(&e.replace_dims_and_symbols(dims, syms))).collect();
    let iters: Vec<String> = inits.iter().map(|(v, _)| v.clone()).collect();
    let types: Vec<String> = inits.iter().map(|(_, t)| t.clone()).collect();
    let syms_now = syms.clone();
    fb.if_then(cond.as_deref(), &iters, &types, &mut |fb| body(fb, &results, &syms_now, &iters))
}

/// `xla.predicated_insert`: inserts `value` into `tensor` at `indices` if
/// `cond` holds.
pub fn predicated_insert(
    fb: &mut FuncBuilder,
    cond: Option<&str>,
    value: &str,
    tensor: &str,
    indices: &[String],
    tensor_type: &str,
) -> Result<String, EmitError> {
    let (v, t, idx, ty) = (value.to_string(), tensor.to_string(), indices.join(", "), tensor_type.to_string());
    if XLA_DIALECTS {
        return Ok(match cond {
            Some(c) => fb.assign("ins", &format!("xla.predicated_insert {v} into {t}[{idx}] if {c} : {ty}")),
            None => fb.assign("ins", &format!("tensor.insert {v} into {t}[{idx}] : {ty}")),
        });
    }
    let r = fb.if_then(cond, &[tensor.to_string()], &[tensor_type.to_string()], &mut |fb| {
        Ok(vec![fb.assign("ins", &format!("tensor.insert {v} into {t}[{idx}] : {ty}"))])
    })?;
    Ok(r[0].clone())
}

/// `xla.predicated_extract`: `tensor[indices]` if `cond` holds, else
/// `fallback`.
pub fn predicated_extract(
    fb: &mut FuncBuilder,
    cond: Option<&str>,
    fallback: &str,
    tensor: &str,
    indices: &[String],
    tensor_type: &str,
    elem_type: &str,
) -> Result<String, EmitError> {
    let idx = indices.join(", ");
    match cond {
        None => Ok(fb.assign("x", &format!("tensor.extract {tensor}[{idx}] : {tensor_type}"))),
        Some(c) if XLA_DIALECTS => {
            Ok(fb
                .assign("x", &format!("xla.predicated_extract {tensor}[{idx}] if {c} else {fallback} : {tensor_type}")))
        }
        Some(c) => {
            let (t, ty) = (tensor.to_string(), tensor_type.to_string());
            let r = fb.if_then(Some(c), &[fallback.to_string()], &[elem_type.to_string()], &mut |fb| {
                Ok(vec![fb.assign("x", &format!("tensor.extract {t}[{idx}] : {ty}"))])
            })?;
            Ok(r[0].clone())
        }
    }
}

/// `xla.atomic_rmw`: `tensor[indices] = update(tensor[indices])` atomically
/// with respect to other threads. `update` gets the current value and
/// returns the new one.
pub fn atomic_rmw(
    fb: &mut FuncBuilder,
    tensor: &str,
    indices: &[String],
    tensor_type: &str,
    elem_type: &str,
    update: &mut dyn FnMut(&mut FuncBuilder, &str) -> Result<String, EmitError>,
) -> Result<String, EmitError> {
    let idx = indices.join(", ");
    if XLA_DIALECTS {
        let name = fb.fresh("rmw");
        let current = fb.fresh("current");
        fb.open(&format!("{name} = xla.atomic_rmw {tensor}[{idx}] : {tensor_type} {{"));
        fb.line(&format!("^bb0({current}: {elem_type}):"));
        let new = update(fb, &current)?;
        fb.line(&format!("xla.yield {new} : {elem_type}"));
        fb.close("}");
        return Ok(name);
    }
    let current = fb.assign("cur", &format!("tensor.extract {tensor}[{idx}] {{xla.atomic}} : {tensor_type}"));
    let new = update(fb, &current)?;
    Ok(fb.assign("ins", &format!("tensor.insert {new} into {tensor}[{idx}] {{xla.atomic}} : {tensor_type}")))
}

/// `xla_gpu.shuffle_reduce`: reduces `values` across the lanes of a warp
/// with the function `combiner` (own values, then received ones),
/// shuffling down from `max_offset` to 1. Lane 0 ends up with the result.
pub fn shuffle_reduce(
    fb: &mut FuncBuilder,
    values: &[String],
    types: &[String],
    max_offset: i64,
    warp_size: i64,
    combiner: &ScalarFn,
) -> Result<Vec<String>, EmitError> {
    if XLA_DIALECTS {
        let name = fb.fresh("shuffled");
        fb.line(&format!(
            "{} = xla_gpu.shuffle_reduce({}) to {max_offset} combiner=@\"{}\" : {}",
            result_lhs(&name, values.len()),
            values.join(", "),
            combiner.name,
            types.join(", ")
        ));
        return Ok(results(&name, values.len()));
    }
    let mut acc = values.to_vec();
    let width = fb.constant(&warp_size.to_string(), "i32");
    let mut offset = max_offset;
    while offset >= 1 {
        let off = fb.constant(&offset.to_string(), "i32");
        let mut other = Vec::new();
        for (v, t) in acc.iter().zip(types) {
            other.push(shuffle_down(fb, v, t, &off, &width));
        }
        let mut args = acc.clone();
        args.extend(other);
        acc = call(fb, &combiner.name, &args, &combiner.arg_types, &combiner.result_types);
        offset /= 2;
    }
    Ok(acc)
}

/// One `gpu.shuffle down` of a scalar of any type (complex values are
/// shuffled as two floats).
fn shuffle_down(fb: &mut FuncBuilder, v: &str, ty: &str, off: &str, width: &str) -> String {
    if let Some(inner) = ty.strip_prefix("complex<").and_then(|t| t.strip_suffix('>')) {
        let re = fb.assign("re", &format!("complex.re {v} : {ty}"));
        let im = fb.assign("im", &format!("complex.im {v} : {ty}"));
        let sre = shuffle_down(fb, &re, inner, off, width);
        let sim = shuffle_down(fb, &im, inner, off, width);
        return fb.assign("cplx", &format!("complex.create {sre}, {sim} : {ty}"));
    }
    let name = fb.fresh("shfl");
    fb.line(&format!("{name}:2 = gpu.shuffle down {v}, {off}, {width} : {ty}"));
    format!("{name}#0")
}
