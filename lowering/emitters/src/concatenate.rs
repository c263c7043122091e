//! The concatenate emitter (XLA's `concatenate.cc`): a loop over the
//! largest operand's shape; each thread computes the element of every
//! operand at its index (when the operand is that large) and writes it to
//! the output at the operand's offset along the concatenated dimension,
//! applying the epilogue between the concatenate and the root. Unlike the
//! loop emitter, no element needs the `scf.if` chain that picks the
//! operand, and each operand's elements are read coalesced.

use crate::{
    choose::Choice,
    elemental::{Current, Elemental},
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::{bitcast_index, Grid},
    r#loop::{entry, Work},
    EmitError, KernelModule,
};
use rxla_indexing::Interval;
use std::collections::HashMap;

/// Emits the concatenate kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let hero = choice.root_heroes.first().copied().flatten().ok_or_else(|| kernel.err("no concatenate hero"))?;
    let concat = comp.instrs[hero].clone();
    let dim = concat.op.int_attr("dimension").ok_or_else(|| kernel.err("concatenate without a dimension"))? as usize;
    let root = comp.roots[0];
    if let Some(i) = root.instr().filter(|&i| i != hero) {
        let s = kernel.part.subgraph_of_root(i).ok_or_else(|| kernel.err("the root has no function"))?;
        if kernel.part.subgraphs[s].injected.iter().any(|&x| x != hero) {
            return Err(kernel.err("the epilogue reads another hero"));
        }
    }
    let out_shape = concat.results[0].dims.clone();
    let largest = concat
        .operands
        .iter()
        .map(|v| comp.ty(*v).dims.clone())
        .max_by_key(|d| d.iter().product::<i64>())
        .unwrap_or_default();
    let work = Work::new(&kernel.target, comp, largest.iter().product(), None);
    kernel.entry_attrs.extend(work.grid.attrs());
    kernel.entry_attrs.push(("xla.unroll".into(), Attr::I64(work.unroll)));
    let (mut fb, params, outs) = entry(&kernel);
    let ids = work.ids(&mut fb);
    let mut output = outs[0];
    {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        let mut offset = 0;
        for &operand in &concat.operands {
            let dims = comp.ty(operand).dims.clone();
            let mut map = work.map(&largest);
            let results = map.results().to_vec();
            for (d, e) in results.into_iter().enumerate() {
                if dims[d] < largest[d] {
                    let _ = map.add_constraint(e, Interval::new(0, dims[d] - 1));
                }
            }
            map.simplify();
            let inits = vec![output];
            let off = offset;
            let root_dims = comp.ty(root).dims.clone();
            let new = kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, _syms, iters| {
                let v = el.value(fb, operand, idx)?;
                let mut out_idx = idx.to_vec();
                out_idx[dim] = out_idx[dim].add_const(off);
                el.injected.insert(hero, vec![v]);
                let root_idx = bitcast_index(&out_idx, &out_shape, &root_dims);
                let r = el.value(fb, root, &root_idx);
                el.injected.remove(&hero);
                let r = r?;
                let at = fb.indices(&root_idx)?;
                Ok(vec![fb.insert(r, iters[0], &at)])
            })?;
            output = new[0];
            offset += dims[dim];
        }
    }
    let returned = vec![output];
    let grid = work.grid;
    let module = kernel.finish(fb, &returned)?;
    Ok((module, grid))
}
