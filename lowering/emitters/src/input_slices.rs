//! The input-slices emitter (XLA's `input_slices.cc`): a multi-output
//! fusion whose roots are all unstrided slices of operands of one shape. A
//! loop over that shape computes each slice's operand once per element and
//! writes it to every slice that contains the element.

use crate::{
    choose::Choice,
    elemental::{Current, Elemental},
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::Grid,
    r#loop::{entry, Work},
    EmitError, KernelModule,
};
use rxla_ir::op::Value;
use std::collections::HashMap;

/// Emits the input-slices kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let slices: Vec<usize> = choice
        .root_heroes
        .iter()
        .map(|h| h.ok_or_else(|| kernel.err("a root is not a slice")))
        .collect::<Result<_, _>>()?;
    let shape = comp.ty(comp.instrs[slices[0]].operands[0]).dims.clone();
    let work = Work::new(&kernel.target, comp, shape.iter().product(), None);
    kernel.entry_attrs.extend(work.grid.attrs());
    kernel.entry_attrs.push(("xla.unroll".into(), Attr::I64(work.unroll)));
    let (mut fb, params, outs) = entry(&kernel);
    let ids = work.ids(&mut fb);
    let map = work.map(&shape);
    let inits: Vec<Value> = outs.clone();
    let outputs = {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, _syms, iters| {
            let mut out = Vec::new();
            for (k, &s) in slices.iter().enumerate() {
                let slice = comp.instrs[s].clone();
                let starts = slice.op.dims_attr("start_indices").unwrap_or_default();
                let limits = slice.op.dims_attr("limit_indices").unwrap_or_default();
                let v = el.value(fb, slice.operands[0], idx)?;
                let mut conds = Vec::new();
                let mut out_idx = Vec::new();
                for d in 0..shape.len() {
                    conds.extend(fb.in_range(&idx[d], starts[d], limits[d] - 1)?);
                    out_idx.push(idx[d].sub_const(starts[d]));
                }
                let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
                let at = fb.indices(&out_idx)?;
                out.push(kernel_ops::predicated_insert(fb, cond, v, iters[k], &at));
            }
            Ok(out)
        })?
    };
    let grid = work.grid;
    let module = kernel.finish(fb, &outputs)?;
    Ok((module, grid))
}
