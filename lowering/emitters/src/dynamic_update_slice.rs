//! The in-place dynamic-update-slice emitter (XLA's
//! `in_place_dynamic_update_slice.cc`): when every root is a
//! `dynamic-update-slice` of a parameter nothing else reads, the output
//! shares that parameter's buffer and only the updated window is written.
//! A loop over the update's shape (no unrolling): each thread clamps the
//! start indices (as HLO does, so the window stays inside the operand),
//! computes the update element and writes it at `start + index`.

use crate::{
    choose::Choice,
    elemental::{Current, Elemental},
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::{bitcast_index, Grid},
    r#loop::{entry, Work},
    EmitError, KernelModule,
};
use rxla_ir::op::Value;
use std::collections::HashMap;

/// Emits the in-place DUS kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let duses: Vec<usize> = choice
        .root_heroes
        .iter()
        .map(|h| h.ok_or_else(|| kernel.err("a root is not a DUS")))
        .collect::<Result<_, _>>()?;
    let update_shape = comp.ty(comp.instrs[duses[0]].operands[1]).dims.clone();
    let work = Work::per_element(&kernel.target, comp, update_shape.iter().product());
    kernel.entry_attrs.extend(work.grid.attrs());
    kernel.entry_attrs.push(("xla.in_place".into(), Attr::Unit));
    let (mut fb, params, outs) = entry(&kernel);
    let ids = work.ids(&mut fb);
    let map = work.map(&update_shape);
    let inits: Vec<Value> = outs.clone();
    let outputs = {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, _syms, iters| {
            let mut out = Vec::new();
            for (k, &d) in duses.iter().enumerate() {
                let dus = comp.instrs[d].clone();
                let dims = dus.results[0].dims.clone();
                let update = dus.operands[1];
                let upd = comp.ty(update).dims.clone();
                let mut out_idx = Vec::new();
                for j in 0..dims.len() {
                    let off = el.clamped_offset(fb, dus.operands[2 + j], dims[j] - upd[j], &[])?;
                    out_idx.push(idx[j].add(&off));
                }
                let v = el.value(fb, update, idx)?;
                let root_idx = bitcast_index(&out_idx, &dims, &comp.ty(comp.roots[k]).dims);
                let at = fb.indices(&root_idx)?;
                out.push(fb.insert(v, iters[k], &at));
            }
            Ok(out)
        })?
    };
    let grid = work.grid;
    let module = kernel.finish(fb, &outputs)?;
    Ok((module, grid))
}
