//! The scatter emitter (XLA's `scatter.cc`): a root `scatter` in the
//! canonical form of `scatter_simplifier` (indices `[N, K]`, updates
//! `[N, window...]` over every operand dimension), updating its operand in
//! place (the operand is a parameter whose buffer the output shares).
//!
//! A loop over the updates (no unrolling): each thread reads the `K` start
//! indices of its update row, skips the update if the window does not fit
//! in the operand (HLO drops out-of-bounds scatters), and combines the
//! update element into the output element. Unless the scatter promises
//! unique indices, several threads may update one element, so the update
//! is an atomic read-modify-write (`xla.atomic_rmw`); a combiner that just
//! returns the update is a plain store either way. On the CPU a thread takes
//! whole update rows (indices and bounds check once per row, a loop nest
//! over the window), and a scatter of fewer than 64K rows runs in one
//! workgroup with plain read-modify-writes (`xla.scatter = "sequential"`).

use crate::{
    builder::FuncBuilder,
    choose::Choice,
    elemental::{Current, Elemental},
    fusion::{struct_int, struct_list, Computation, Val},
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::Grid,
    r#loop::{entry, Work},
    scalar_ops, EmitError, KernelModule,
};
use rxla_indexing::Expr;
use rxla_ir::{computation, op::Value};
use std::collections::HashMap;

/// Update rows (or, where a thread takes elements, updates) below which a
/// CPU scatter whose updates may collide runs in one workgroup, without
/// atomics.
const SEQUENTIAL_UPDATES: i64 = 1 << 16;

/// Emits the scatter kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let s = choice.root_heroes.first().copied().flatten().ok_or_else(|| kernel.err("no scatter"))?;
    let scatter = comp.instrs[s].clone();
    if scatter.operands.len() != 3 {
        return Err(kernel.err("only scatters with one operand are supported"));
    }
    let (operand, indices, updates) = (scatter.operands[0], scatter.operands[1], scatter.operands[2]);
    if !matches!(operand, Val::Param(_)) {
        return Err(kernel.err("the scatter operand must be a fusion parameter (it is updated in place)"));
    }
    let dims = comp.ty(operand).dims.clone();
    let index_dims = comp.ty(indices).dims.clone();
    let update_dims = comp.ty(updates).dims.clone();
    let dn = |f: &str| struct_list(scatter.op, "dimension_numbers", f);
    let window_dims = dn("update_window_dims");
    let sdod = dn("scatter_dims_to_operand_dims");
    let ivd = struct_int(scatter.op, "dimension_numbers", "index_vector_dim").unwrap_or(-1);
    let canonical = index_dims.len() == 2
        && ivd == 1
        && dn("inserted_window_dims").is_empty()
        && dn("input_batching_dims").is_empty()
        && window_dims == (1..=dims.len() as i64).collect::<Vec<_>>()
        && update_dims.len() == dims.len() + 1
        && sdod.len() as i64 == index_dims[1];
    if !canonical {
        return Err(kernel.err("only scatters in scatter_simplifier's canonical form are supported"));
    }
    let unique = scatter.op.bool_attr("unique_indices") == Some(true);
    let combiner_name = comp.to_apply(s).ok_or_else(|| kernel.err("scatter without a combiner"))?;
    let overwrite = kernel
        .module
        .and_then(|m| computation::lookup(m, &combiner_name))
        .and_then(|f| Computation::from_func(f).ok())
        .is_some_and(|c| returns_update(&c));
    let combiner = kernel.reducer_fn(&combiner_name)?;
    let updates_count: i64 = update_dims.iter().product();
    let rows = update_dims[0];
    // On the CPU a thread takes whole update rows: the start indices and
    // the bounds check once per row, then a loop nest over the window
    // (contiguous, vectorizable), instead of both per element.
    let by_rows = matches!(kernel.target, crate::target::Target::Cpu(_)) && updates_count > rows;
    let mut work = Work::new(&kernel.target, comp, if by_rows { rows } else { updates_count }, Some(1));
    let collisions = if by_rows { rows } else { updates_count };
    // One CPU workgroup needs no atomics. Below SEQUENTIAL_UPDATES updates
    // that is faster than parallel workgroups whose atomic
    // read-modify-writes contend for the same cache lines (XLA:CPU's
    // scatter is one sequential loop too): a GNN's segment sum of 12K
    // updates took 149 us in 8 workgroups.
    let sequential = match &mut work.grid {
        Grid::Cpu { workgroups } if !unique && !overwrite && collisions < SEQUENTIAL_UPDATES => {
            *workgroups = 1;
            true
        }
        Grid::Cpu { workgroups } => *workgroups == 1,
        Grid::Gpu(_) => false,
    };
    kernel.entry_attrs.extend(work.grid.attrs());
    kernel.entry_attrs.push(("xla.in_place".into(), Attr::Unit));
    kernel.entry_attrs.push((
        "xla.scatter".into(),
        Attr::Str(
            if overwrite {
                "store"
            } else if unique {
                "unique"
            } else if sequential {
                "sequential"
            } else {
                "atomic"
            }
            .into(),
        ),
    ));
    let (mut fb, params, outs) = entry(&kernel);
    let index_elem = comp.ty(indices).elem.clone();
    let ids = work.ids(&mut fb);
    let map = if by_rows { work.map(&update_dims[..1]) } else { work.map(&update_dims) };
    let inits = vec![outs[0]];
    let output = {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, _syms, iters| {
            // Start indices, unclamped, and the in-bounds check of the window.
            let mut starts: Vec<Option<Value>> = vec![None; dims.len()];
            let mut conds = Vec::new();
            for (k, &d) in sdod.iter().enumerate() {
                let d = d as usize;
                let raw = el.value(fb, indices, &[idx[0].clone(), Expr::constant(k as i64)])?;
                let ix = scalar_ops::to_index(fb, &raw, &index_elem).map_err(|m| el.kernel.err(m))?;
                let zero = fb.index_const(0);
                let hi = fb.index_const(dims[d] - update_dims[d + 1]);
                conds.push(fb.cmpi("sge", ix, zero));
                conds.push(fb.cmpi("sle", ix, hi));
                starts[d] = Some(ix);
            }
            let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
            let tensor = iters[0];
            let r = fb.if_then(cond, std::slice::from_ref(&tensor), &mut |fb| {
                // The update element's index: the row's and the window's.
                let mut row_window = Vec::new();
                let mut element = |fb: &mut FuncBuilder, idx: &[Expr], tensor: Value| -> Result<Value, EmitError> {
                    let mut out_idx = Vec::new();
                    for d in 0..dims.len() {
                        let w = idx[d + 1].clone();
                        out_idx.push(match &starts[d] {
                            Some(ix) => w.add(&fb.var(*ix, 0, dims[d] - update_dims[d + 1])),
                            None => w,
                        });
                    }
                    let u = el.value(fb, updates, idx)?;
                    let at = fb.indices(&out_idx)?;
                    if overwrite {
                        return Ok(fb.insert(u, tensor, &at));
                    }
                    let combine = |fb: &mut FuncBuilder, cur: Value| -> Result<Value, EmitError> {
                        Ok(kernel_ops::call(fb, &combiner.name, &[cur, u], &combiner.result_types)[0])
                    };
                    if unique || sequential {
                        let cur = fb.extract(tensor, &at);
                        let new = combine(fb, cur)?;
                        Ok(fb.insert(new, tensor, &at))
                    } else {
                        kernel_ops::atomic_rmw(fb, tensor, &at, &mut |fb, cur| combine(fb, cur))
                    }
                };
                if by_rows {
                    row_window.push(idx[0].clone());
                    Ok(vec![window_nest(fb, &update_dims[1..], &mut row_window, tensor, &mut element)?])
                } else {
                    Ok(vec![element(fb, idx, tensor)?])
                }
            })?;
            Ok(r)
        })?
    };
    let returned = vec![output[0]];
    let grid = work.grid;
    let module = kernel.finish(fb, &returned)?;
    Ok((module, grid))
}

/// Updates one element of the output tensor at an update index; returns
/// the new tensor.
type ElementUpdate<'a> = dyn FnMut(&mut FuncBuilder, &[Expr], Value) -> Result<Value, EmitError> + 'a;

/// Loops over the window `window` (sizes) inside an update row: `index`
/// holds the row and gets the window's induction variables; `element`
/// updates one element of `tensor` and returns the new tensor.
fn window_nest(
    fb: &mut FuncBuilder,
    window: &[i64],
    index: &mut Vec<Expr>,
    tensor: Value,
    element: &mut ElementUpdate,
) -> Result<Value, EmitError> {
    let d = index.len() - 1;
    if d == window.len() {
        return element(fb, index, tensor);
    }
    if window[d] == 1 {
        index.push(Expr::constant(0));
        let r = window_nest(fb, window, index, tensor, element);
        index.pop();
        return r;
    }
    let r = fb.for_loop(0, window[d], 1, &[tensor], &mut |fb, iv, iters| {
        index.push(iv);
        let r = window_nest(fb, window, index, iters[0], element);
        index.pop();
        Ok(vec![r?])
    })?;
    Ok(r[0])
}

/// True if a combiner returns its second argument (the update), possibly
/// through copies.
fn returns_update(c: &Computation) -> bool {
    let [mut v] = c.roots[..] else { return false };
    while let Val::Res(i, _) = v {
        if !c.instrs[i].is("copy") {
            return false;
        }
        v = c.instrs[i].operands[0];
    }
    v == Val::Param(1)
}
