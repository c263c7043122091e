//! The transpose emitter (XLA's `transpose.cc`): on GPU a tiled transpose
//! through shared memory, so that both the reads of the input and the
//! writes of the output are coalesced; on CPU ([`emit_cpu`]) a walk over
//! `T x T` tiles (a SIMD vector wide) per workgroup, for cache locality.
//!
//! The hero's shape is normalized (XLA's `GetDescriptionForTiledTransposeEmitter`,
//! `rxla_ir::hlo_analysis::tiled_transpose`): size-1 dimensions dropped and
//! dimensions that stay adjacent merged, leaving `[n, a, b] -> [n, b, a]`
//! (`021`; a 2-D `[1, 0]` is `021` with `n = 1`) or `[a, m, b] -> [b, m, a]`
//! (`210`). A block of 128 threads (32 x 4) handles a `T x T` tile of the
//! two swapped dimensions, `T = 32 * vector`; each thread covers
//! `T / 4` of its rows, `vector` consecutive elements of each.
//!
//! 1. Every thread reads its input elements along the input's minor
//!    dimension (coalesced), computes the hero's operand there (calling its
//!    function), and writes it to a shared-memory tile padded to `T + 1`
//!    columns (`Tx(T+1)`, or `Tx1x(T+1)` for `210`) so that the transposed
//!    reads hit different banks. Roots that are not transposes (side
//!    outputs, with as many elements as the transpose's input) are written
//!    here too.
//! 2. After a barrier, every thread reads its elements of the tile
//!    transposed and writes the output along its minor dimension
//!    (coalesced), applying the epilogue between the hero and the root.
//!
//! `vector` is XLA's rule ([`gpu_vector`]): elements narrower than 32 bits
//! are read and written 32 bits at a time (2 16-bit or 4 8-bit elements:
//! the innermost loop `xla-vectorize-loads-stores` makes vector accesses)
//! when the transpose is large enough to keep the GPU busy with fewer
//! threads, the tiles fit in shared memory, and both swapped dimensions
//! are multiples of the vector. Wider elements keep one element per
//! access: a warp already moves 128 bytes per access.
//!
//! Several transpose heroes with the same normalized shape share the
//! kernel, each with its own tile.
//!
//! On CPU every workgroup takes a contiguous run of tiles; inside a tile
//! each element computes the hero's operand at the transposed index and
//! the epilogue, writing the output along its minor dimension (side
//! outputs at the input index).

use crate::{
    choose::Choice,
    elemental::{Current, Elemental},
    fusion::mlir_elem,
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::{bitcast_index, ceil_div, cpu_workgroups, Grid, LaunchDims, GPU_DIMS},
    r#loop::{entry, gpu_ids},
    target::{CpuTarget, GpuTarget, Target},
    EmitError, KernelModule,
};
use rxla_indexing::{Expr, IndexingMap, Interval, Variable};
use rxla_ir::hlo_analysis::{layout_text, tiled_transpose};
use rxla_ir::op::Value;
use std::collections::HashMap;

const TILE: i64 = 32;
const ROWS_PER_PASS: i64 = 4;

/// The normalized transpose: `[x, y, z]` input dims and whether it swaps
/// the outer dims (`210`) or the inner two (`021`).
struct Spec {
    dims: [i64; 3],
    outer: bool,
}

impl Spec {
    fn out_dims(&self) -> [i64; 3] {
        let [x, y, z] = self.dims;
        if self.outer {
            [z, y, x]
        } else {
            [x, z, y]
        }
    }

    /// Blocks of `tile x tile` elements per swapped dimension (the input's
    /// major swapped one, its minor one) and along the third.
    fn blocks(&self, tile: i64) -> (i64, i64, i64) {
        let [x, y, z] = self.dims;
        if self.outer {
            (ceil_div(x, tile), ceil_div(z, tile), y)
        } else {
            (ceil_div(y, tile), ceil_div(z, tile), x)
        }
    }

    /// The input dimension that becomes the output's minor one.
    fn swapped_major(&self) -> i64 {
        if self.outer {
            self.dims[0]
        } else {
            self.dims[1]
        }
    }
}

/// Most bytes a thread reads or writes at once in a vectorized GPU
/// transpose (XLA's `kMaxVectorizedBytes`).
const MAX_VECTOR_BYTES: i64 = 4;

/// The GPU transpose's vector (XLA's rule) for heroes of `hero_bytes`
/// bytes per element: the most elements of the widest in
/// `MAX_VECTOR_BYTES`, halved until the grid of the unvectorized tiling
/// still has `vector^2` times the threads the GPU can hold at once, the
/// `32 * vector` square tiles of every hero fit in shared memory, and both
/// swapped dimensions are multiples of it.
fn gpu_vector(spec: &Spec, hero_bytes: &[i64], gpu: &GpuTarget) -> i64 {
    let (ba, bb, bo) = spec.blocks(TILE);
    let threads = ba * bb * bo * TILE * ROWS_PER_PASS;
    let tile_bytes: i64 = hero_bytes.iter().sum();
    let mut vector = MAX_VECTOR_BYTES / hero_bytes.iter().copied().max().unwrap_or(1).max(1);
    while vector > 1 {
        let tile = TILE * vector;
        let enough_work = threads >= vector * vector * gpu.core_count * gpu.threads_per_core_limit;
        let enough_shmem = tile * (tile + 1) * tile_bytes <= gpu.shared_memory_per_block;
        let aligned = spec.dims[2] % vector == 0 && spec.swapped_major() % vector == 0;
        if enough_work && enough_shmem && aligned {
            return vector;
        }
        vector /= 2;
    }
    1
}

/// The normalized input (`read`) or output (`!read`) index a thread handles
/// in pass `s0` (and, with `vector > 1`, element `s1` of its vector), with
/// bounds constraints, followed by the shared-memory cell it writes
/// (`read`) or reads, as a map from the grid.
fn tile_map(spec: &Spec, launch: &LaunchDims, vector: i64, read: bool) -> IndexingMap {
    let tile = TILE * vector;
    let th = Expr::dim(0);
    let bl = Expr::dim(3);
    let mut lane = th.modulo_const(TILE);
    if vector > 1 {
        lane = lane.mul_const(vector).add(&Expr::sym(1));
    }
    let row = Expr::sym(0).mul_const(ROWS_PER_PASS).add(&th.floor_div_const(TILE));
    let (ba_count, bb_count, _) = spec.blocks(tile);
    // Block coordinates: (ba: tile of the input's swapped major dim, bb:
    // tile of the input's minor dim, bo: the other dim).
    let bb = bl.modulo_const(bb_count);
    let ba = bl.floor_div_const(bb_count).modulo_const(ba_count);
    let bo = bl.floor_div_const(bb_count * ba_count);
    let (major, minor) = if read {
        (ba.mul_const(tile).add(&row), bb.mul_const(tile).add(&lane))
    } else {
        (bb.mul_const(tile).add(&row), ba.mul_const(tile).add(&lane))
    };
    let dims = if read { spec.dims } else { spec.out_dims() };
    let mut results = if spec.outer { vec![major, bo, minor] } else { vec![bo, major, minor] };
    let bounded = results.clone();
    // Then the shared-memory cell: [row, lane] when reading the input,
    // [lane, row] when writing the output (with a middle 0 for `210`).
    let (a, b) = if read { (row, lane) } else { (lane, row) };
    results.push(a);
    if spec.outer {
        results.push(Expr::constant(0));
    }
    results.push(b);
    let vars: Vec<Variable> = (0..6)
        .map(|i| {
            let size = if i < 3 { launch.threads[i] } else { launch.blocks[i - 3] };
            Variable::named(0, size - 1, GPU_DIMS[i])
        })
        .collect();
    let mut ranges = vec![Variable::named(0, tile / ROWS_PER_PASS - 1, "row")];
    if vector > 1 {
        ranges.push(Variable::named(0, vector - 1, "vector"));
    }
    let mut map = IndexingMap::new(results.clone(), vars, ranges, vec![], vec![]).expect("valid transpose map");
    for (e, d) in bounded.into_iter().zip(dims) {
        let _ = map.add_constraint(e, Interval::new(0, d - 1));
    }
    map.simplify();
    map
}

/// Emits the transpose kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let mut heroes: Vec<usize> = Vec::new();
    for h in choice.root_heroes.iter().flatten() {
        if !heroes.contains(h) {
            heroes.push(*h);
        }
    }
    let first = comp.instrs[*heroes.first().ok_or_else(|| kernel.err("no transpose hero"))?].clone();
    let (ndims, nperm) = tiled_transpose(first.op).ok_or_else(|| kernel.err("not a tiled transpose"))?;
    let spec = match (nperm.as_slice(), ndims.as_slice()) {
        ([1, 0], [a, b]) => Spec { dims: [1, *a, *b], outer: false },
        ([0, 2, 1], [n, a, b]) => Spec { dims: [*n, *a, *b], outer: false },
        ([2, 1, 0], [a, m, b]) => Spec { dims: [*a, *m, *b], outer: true },
        _ => return Err(kernel.err("unsupported transpose permutation")),
    };
    for &h in &heroes {
        let ins = &comp.instrs[h];
        if layout_text(ins.op.operand(0)).is_some() || layout_text(ins.op.result(0)).is_some() {
            return Err(kernel.err("transposes with non-default layouts are not supported"));
        }
    }
    let in_elements: i64 = spec.dims.iter().product();
    // Side outputs must not read a transpose; epilogues only their hero.
    for (k, root) in comp.roots.iter().enumerate() {
        let injected = match root.instr().and_then(|i| kernel.part.subgraph_of_root(i).map(|s| (i, s))) {
            Some((i, s)) if !heroes.contains(&i) => kernel.part.subgraphs[s].injected.clone(),
            _ => Vec::new(),
        };
        match choice.root_heroes.get(k).copied().flatten() {
            Some(h) if injected.iter().any(|&x| x != h) && !reads_heroes_in_step(&kernel, root.instr(), &heroes) => {
                return Err(kernel.err("an epilogue reads another transpose"))
            }
            Some(_) => {}
            None if !injected.is_empty() => return Err(kernel.err("a side output reads a transpose")),
            None if comp.ty(*root).dims.iter().product::<i64>() != in_elements => {
                return Err(kernel.err("a side output's size differs from the transpose's input"))
            }
            None => {}
        }
    }
    let gpu = match &kernel.target {
        Target::Gpu(gpu) => gpu.clone(),
        Target::Cpu(cpu) => {
            let cpu = cpu.clone();
            return emit_cpu(kernel, choice, &heroes, &spec, &cpu);
        }
    };
    let hero_bytes: Vec<i64> = heroes.iter().map(|&h| comp.instrs[h].results[0].elem.byte_size() as i64).collect();
    let vector = gpu_vector(&spec, &hero_bytes, &gpu);
    let tile = TILE * vector;
    let tile_dims = if spec.outer { format!("{tile}x1x{}", tile + 1) } else { format!("{tile}x{}", tile + 1) };
    let shmem_bytes: i64 = tile * (tile + 1) * hero_bytes.iter().sum::<i64>();
    if shmem_bytes > gpu.shared_memory_per_block {
        return Err(kernel.err(format!("needs {shmem_bytes} bytes of shared memory")));
    }
    let (ba, bb, bo) = spec.blocks(tile);
    let launch = LaunchDims::new([ba * bb * bo, 1, 1], [TILE * ROWS_PER_PASS, 1, 1]);
    let grid = Grid::Gpu(launch);
    kernel.entry_attrs.extend(grid.attrs());
    kernel.entry_attrs.push(("xla.shared_memory_bytes".into(), Attr::I64(shmem_bytes)));
    let vector_text = if vector > 1 { format!(", vector {vector}") } else { String::new() };
    kernel.entry_attrs.push((
        "xla.transpose".into(),
        Attr::Str(format!(
            "{} [{}, {}, {}]{vector_text}",
            if spec.outer { "210" } else { "021" },
            spec.dims[0],
            spec.dims[1],
            spec.dims[2]
        )),
    ));

    let (mut fb, params, outs) = entry(&kernel);
    let ids = gpu_ids(&mut fb, &launch);
    let mut outputs = outs.clone();
    {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        // Pass 1: input tile to shared memory, side outputs.
        let mut inits: Vec<Value> = Vec::new();
        for &h in &heroes {
            let ty = format!("tensor<{tile_dims}x{}>", mlir_elem(&comp.instrs[h].results[0].elem));
            inits.push(kernel_ops::allocate_shared(&mut fb, &ty));
        }
        let side: Vec<usize> =
            (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_none()).collect();
        for &k in &side {
            inits.push(outputs[k]);
        }
        let read_map = tile_map(&spec, &launch, vector, true);
        let norm_in = spec.dims;
        let first_operand_dims = comp.ty(first.operands[0]).dims.clone();
        let written = kernel_ops::loop_over_map(&mut fb, &read_map, &ids, &inits, &mut |fb, results, _syms, iters| {
            let (idx, cell) = results.split_at(3);
            let at = fb.indices(cell)?;
            let mut out = Vec::new();
            for (j, &h) in heroes.iter().enumerate() {
                let operand = comp.instrs[h].operands[0];
                let operand_idx = bitcast_index(idx, &norm_in, &comp.ty(operand).dims);
                let v = el.value(fb, operand, &operand_idx)?;
                out.push(fb.insert(v, iters[j], &at));
            }
            for (j, &k) in side.iter().enumerate() {
                let root = comp.roots[k];
                let in_idx = bitcast_index(idx, &norm_in, &first_operand_dims);
                let root_idx = bitcast_index(&in_idx, &first_operand_dims, &comp.ty(root).dims);
                let v = el.value(fb, root, &root_idx)?;
                let ids = fb.indices(&root_idx)?;
                out.push(fb.insert(v, iters[heroes.len() + j], &ids));
            }
            Ok(out)
        })?;
        for (j, &k) in side.iter().enumerate() {
            outputs[k] = written[heroes.len() + j];
        }
        let tiles = kernel_ops::sync_threads(&mut fb, &written[..heroes.len()]);

        // Pass 2: transposed reads from shared memory, coalesced writes.
        let tr: Vec<usize> =
            (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_some()).collect();
        let inits2: Vec<Value> = tr.iter().map(|&k| outputs[k]).collect();
        let write_map = tile_map(&spec, &launch, vector, false);
        let norm_out = spec.out_dims();
        let root_heroes = choice.root_heroes.clone();
        let new = kernel_ops::loop_over_map(&mut fb, &write_map, &ids, &inits2, &mut |fb, results, _syms, iters| {
            let (idx, cell) = results.split_at(3);
            let at = fb.indices(cell)?;
            for (j, &h) in heroes.iter().enumerate() {
                let v = fb.extract(tiles[j], &at);
                el.injected.insert(h, vec![v]);
            }
            let mut out = Vec::new();
            for (j, &k) in tr.iter().enumerate() {
                let h = root_heroes[k].unwrap();
                let hero_idx = bitcast_index(idx, &norm_out, &comp.instrs[h].results[0].dims);
                let root = comp.roots[k];
                let root_idx = bitcast_index(&hero_idx, &comp.instrs[h].results[0].dims, &comp.ty(root).dims);
                let v = el.value(fb, root, &root_idx)?;
                let ids = fb.indices(&root_idx)?;
                out.push(fb.insert(v, iters[j], &ids));
            }
            Ok(out)
        })?;
        for (&k, v) in tr.iter().zip(new) {
            outputs[k] = v;
        }
    }
    let module = kernel.finish(fb, &outputs)?;
    Ok((module, grid))
}

/// True if the epilogue function computing root `root` reads every
/// transpose hero it is given at the root's own linear position: each of
/// its members that depends on a hero is an elementwise op, bitcast,
/// reshape or copy with as many elements as the heroes, and it calls no
/// other function that reads a hero. All heroes' values are then available
/// at the position being written (both emitters inject every hero's value
/// there), which is what multi-output fusions of the same update need
/// (AdamW's `m = b1 m + (1 - b1) g^T`, `v = b2 v + (1 - b2) (g^T)^2`,
/// grouped into one epilogue because the roots have one shape).
fn reads_heroes_in_step(kernel: &Kernel, root: Option<usize>, heroes: &[usize]) -> bool {
    let comp = kernel.comp;
    let part = &kernel.part;
    let Some(s) = root.and_then(|r| part.subgraph_of_root(r)) else { return false };
    let sg = &part.subgraphs[s];
    let Some(&first) = heroes.first() else { return false };
    let elements: i64 = comp.instrs[first].results[0].dims.iter().product();
    // Members of the subgraph that depend on a hero, in topological order.
    let mut tainted: std::collections::HashSet<usize> = heroes.iter().copied().collect();
    for &i in &sg.instrs {
        let ins = &comp.instrs[i];
        let mut reads_hero = false;
        for v in &ins.operands {
            let crate::fusion::Val::Res(j, _) = *v else { continue };
            if part.of[j].is_some_and(|t| t != s && !part.subgraphs[t].injected.is_empty()) {
                return false;
            }
            reads_hero |= tainted.contains(&j);
        }
        if !reads_hero {
            continue;
        }
        let same_count = ins.results.len() == 1 && ins.results[0].dims.iter().product::<i64>() == elements;
        let linear = match ins.opcode.as_str() {
            "bitcast" | "reshape" | "copy" => true,
            o => {
                crate::elemental::is_elementwise(o)
                    && ins.operands.iter().all(|v| {
                        let d = &comp.ty(*v).dims;
                        d.is_empty() || *d == ins.results[0].dims
                    })
            }
        };
        if !(same_count && linear) {
            return false;
        }
        tainted.insert(i);
    }
    true
}

/// The CPU tiling: `tile x tile` tiles of the two swapped dimensions
/// (for each index of the third), numbered output-major; workgroup `wg`
/// takes tiles `[wg * per_wg, (wg + 1) * per_wg)`.
struct CpuTiling {
    tile: i64,
    tiles: i64,
    workgroups: i64,
    per_wg: i64,
}

impl CpuTiling {
    fn new(spec: &Spec, cpu: &CpuTarget, tile: i64) -> CpuTiling {
        let od = spec.out_dims();
        let (p, q, other) = cpu_swapped(spec);
        let tiles = od[other] * ceil_div(od[p], tile) * ceil_div(od[q], tile);
        let elements: i64 = od.iter().product();
        let workgroups = cpu_workgroups(cpu, elements, tile).min(tiles.max(1));
        CpuTiling { tile, tiles, workgroups, per_wg: ceil_div(tiles, workgroups) }
    }
}

/// The output dimensions `(p, q, other)`: `p` and `q` (the minor one) are
/// swapped with the input.
fn cpu_swapped(spec: &Spec) -> (usize, usize, usize) {
    if spec.outer {
        (0, 2, 1)
    } else {
        (1, 2, 0)
    }
}

/// The input index of the normalized output index `o` (both normalized
/// permutations are their own inverse).
fn cpu_transposed(spec: &Spec, o: &[Expr]) -> Vec<Expr> {
    if spec.outer {
        vec![o[2].clone(), o[1].clone(), o[0].clone()]
    } else {
        vec![o[0].clone(), o[2].clone(), o[1].clone()]
    }
}

/// `(wg)[t, r, l] -> normalized output index`: tile `wg * per_wg + t`,
/// row `r` and column `l` inside it (the column along the output's minor
/// dimension). With `wg_as_dim` unset the workgroup is the first range
/// variable (the upstream form's loop over workgroups).
fn cpu_tile_map(spec: &Spec, ct: &CpuTiling, wg_as_dim: bool) -> IndexingMap {
    let od = spec.out_dims();
    let (p, q, other) = cpu_swapped(spec);
    let first = if wg_as_dim { 0 } else { 1 };
    let wg = if wg_as_dim { Expr::dim(0) } else { Expr::sym(0) };
    let t = wg.mul_const(ct.per_wg).add(&Expr::sym(first));
    let (tp, tq) = (ceil_div(od[p], ct.tile), ceil_div(od[q], ct.tile));
    let mut o = vec![Expr::zero(); 3];
    o[q] = t.modulo_const(tq).mul_const(ct.tile).add(&Expr::sym(first + 2));
    o[p] = t.floor_div_const(tq).modulo_const(tp).mul_const(ct.tile).add(&Expr::sym(first + 1));
    o[other] = t.floor_div_const(tq * tp);
    let wg_var = Variable::named(0, ct.workgroups - 1, "wg");
    let mut ranges = vec![
        Variable::named(0, ct.per_wg - 1, "tile"),
        Variable::named(0, ct.tile - 1, "row"),
        Variable::named(0, ct.tile - 1, "col"),
    ];
    let dims = if wg_as_dim {
        vec![wg_var]
    } else {
        ranges.insert(0, wg_var);
        vec![]
    };
    let mut map = IndexingMap::new(o.clone(), dims, ranges, vec![], vec![]).expect("valid CPU transpose map");
    let _ = map.add_constraint(t, Interval::new(0, ct.tiles - 1));
    let _ = map.add_constraint(o[p].clone(), Interval::new(0, od[p] - 1));
    let _ = map.add_constraint(o[q].clone(), Interval::new(0, od[q] - 1));
    map.simplify();
    map
}

/// CPU transposes of fusions of at most this many instructions (not
/// counting parameters) have their tiles unrolled by the emitter.
const MAX_UNROLLED_TRANSPOSE_INSTRS: usize = 4;

/// The CPU flavour: no shared memory; every workgroup walks its tiles,
/// and inside a tile writes the output row by row along its minor
/// dimension while the reads of the input stay within `tile` rows of the
/// input (cache lines are reused across the tile's rows). Each element
/// computes the hero's operand at the transposed index and the epilogue;
/// side outputs (indexed like the transpose's input) are written at that
/// transposed index in the same loop.
fn emit_cpu(
    mut kernel: Kernel,
    choice: &Choice,
    heroes: &[usize],
    spec: &Spec,
    cpu: &CpuTarget,
) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let elements: i64 = spec.dims.iter().product();
    let tile = crate::r#loop::unroll_factor(&kernel.target, comp, elements).max(2);
    let ct = CpuTiling::new(spec, cpu, tile);
    let grid = Grid::Cpu { workgroups: ct.workgroups };
    kernel.entry_attrs.extend(grid.attrs());
    kernel.entry_attrs.push((
        "xla.transpose".into(),
        Attr::Str(format!(
            "{} [{}, {}, {}], tile {}x{}, tiles per workgroup {}",
            if spec.outer { "210" } else { "021" },
            spec.dims[0],
            spec.dims[1],
            spec.dims[2],
            ct.tile,
            ct.tile,
            ct.per_wg
        )),
    ));
    let (mut fb, params, outs) = entry(&kernel);
    let ids = crate::r#loop::grid_ids(&mut fb, &grid);
    let map = cpu_tile_map(spec, &ct, true);
    let norm_in = spec.dims;
    let norm_out = spec.out_dims();
    let first_operand_dims = comp.ty(comp.instrs[heroes[0]].operands[0]).dims.clone();
    let inits: Vec<Value> = outs.clone();
    let root_heroes = choice.root_heroes.clone();
    let result = {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        // The tile's rows and columns are unrolled when each element is
        // cheap (a plain transpose, a convert): LLVM turns the tile into
        // vector loads, shuffles and stores. Where each element computes
        // more, the tile stays a loop: unrolled, it would cost the lowering
        // and LLVM `tile * tile` copies of the computation.
        let unrolled = if comp.instrs.len() <= MAX_UNROLLED_TRANSPOSE_INSTRS { 2 } else { 0 };
        kernel_ops::loop_over_map_unrolled(&mut fb, &map, &ids, &inits, unrolled, &mut |fb, o, _syms, iters| {
            let i = cpu_transposed(spec, o);
            for &h in heroes {
                let operand = comp.instrs[h].operands[0];
                let operand_idx = bitcast_index(&i, &norm_in, &comp.ty(operand).dims);
                let v = el.value(fb, operand, &operand_idx)?;
                el.injected.insert(h, vec![v]);
            }
            let mut out = Vec::new();
            for (k, root) in comp.roots.iter().enumerate() {
                let root_idx = match root_heroes.get(k).copied().flatten() {
                    Some(h) => {
                        let hero_idx = bitcast_index(o, &norm_out, &comp.instrs[h].results[0].dims);
                        bitcast_index(&hero_idx, &comp.instrs[h].results[0].dims, &comp.ty(*root).dims)
                    }
                    None => {
                        let in_idx = bitcast_index(&i, &norm_in, &first_operand_dims);
                        bitcast_index(&in_idx, &first_operand_dims, &comp.ty(*root).dims)
                    }
                };
                let v = el.value(fb, *root, &root_idx)?;
                let ids = fb.indices(&root_idx)?;
                out.push(fb.insert(v, iters[k], &ids));
            }
            Ok(out)
        })?
    };
    let module = kernel.finish(fb, &result)?;
    Ok((module, grid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::testing::{covers_once, points};
    use std::collections::HashMap;

    /// The CPU tiles: every output element is written exactly once, and
    /// the transposed (input) indices cover the input exactly once; a
    /// workgroup's elements come from its own contiguous run of tiles.
    #[test]
    fn cpu_tiles_cover_output_and_input_once() {
        let cpu = CpuTarget::generic();
        for (dims, outer) in
            [([1, 40, 70], false), ([3, 33, 17], false), ([20, 3, 50], true), ([64, 1, 64], true), ([2, 5, 3], false)]
        {
            let spec = Spec { dims, outer };
            for tile in [2, 4, 8] {
                let mut ct = CpuTiling::new(&spec, &cpu, tile);
                for workgroups in [1, 3, ct.workgroups] {
                    ct.workgroups = workgroups.min(ct.tiles);
                    ct.per_wg = ceil_div(ct.tiles, ct.workgroups);
                    for as_dim in [true, false] {
                        let map = cpu_tile_map(&spec, &ct, as_dim);
                        let sizes: Vec<i64> = if as_dim { vec![ct.workgroups] } else { vec![] };
                        let pts = points(&map, &sizes);
                        let outs: Vec<Vec<i64>> = pts.iter().map(|p| p.2.clone()).collect();
                        covers_once(&outs, &spec.out_dims());
                        let ins: Vec<Vec<i64>> = outs
                            .iter()
                            .map(|o| {
                                let e: Vec<Expr> = o.iter().map(|&x| Expr::constant(x)).collect();
                                cpu_transposed(&spec, &e).iter().map(|x| x.as_const().unwrap()).collect()
                            })
                            .collect();
                        covers_once(&ins, &spec.dims);
                        for (d, s, _) in &pts {
                            let (wg, t) = if as_dim { (d[0], s[0]) } else { (s[0], s[1]) };
                            assert!(wg * ct.per_wg + t < ct.tiles, "{dims:?}: tile in range");
                        }
                    }
                }
            }
        }
    }

    /// Pass 2 reads, from the shared-memory cell of its block, exactly the
    /// element pass 1 wrote there, transposed; both passes cover their
    /// shapes once, with and without vectors.
    #[test]
    fn tiles_transpose_through_shared_memory() {
        let cases = [([1, 40, 70], false), ([3, 34, 18], false), ([20, 3, 50], true), ([64, 1, 64], true)];
        for ((dims, outer), vector) in cases.into_iter().flat_map(|c| [(c, 1), (c, 2)]) {
            let spec = Spec { dims, outer };
            let (ba, bb, bo) = spec.blocks(TILE * vector);
            let launch = LaunchDims::new([ba * bb * bo, 1, 1], [TILE * ROWS_PER_PASS, 1, 1]);
            let sizes = vec![128, 1, 1, ba * bb * bo, 1, 1];
            let read = points(&tile_map(&spec, &launch, vector, true), &sizes);
            let write = points(&tile_map(&spec, &launch, vector, false), &sizes);
            covers_once(&read.iter().map(|p| p.2[..3].to_vec()).collect::<Vec<_>>(), &spec.dims);
            covers_once(&write.iter().map(|p| p.2[..3].to_vec()).collect::<Vec<_>>(), &spec.out_dims());
            let cell = |r: &[i64]| if outer { (r[3], r[5]) } else { (r[3], r[4]) };
            let lane = |th: i64, s: &[i64]| (th % TILE) * vector + if vector > 1 { s[1] } else { 0 };
            // (block, cell) -> input element written there.
            let mut cells: HashMap<(i64, (i64, i64)), Vec<i64>> = HashMap::new();
            for (d, s, r) in &read {
                let (th, bl) = (d[0], d[3]);
                assert_eq!(cell(r), (s[0] * ROWS_PER_PASS + th / TILE, lane(th, s)), "pass 1 writes [row, lane]");
                cells.insert((bl, cell(r)), r[..3].to_vec());
            }
            for (d, s, r) in &write {
                let (th, bl) = (d[0], d[3]);
                assert_eq!(cell(r), (lane(th, s), s[0] * ROWS_PER_PASS + th / TILE), "pass 2 reads [lane, row]");
                let x = cells.get(&(bl, cell(r))).expect("cell written in pass 1");
                let r = &r[..3];
                let transposed = if outer { vec![x[2], x[1], x[0]] } else { vec![x[0], x[2], x[1]] };
                assert_eq!(&transposed, r, "{dims:?} vector {vector}");
            }
        }
    }

    /// XLA's vector rule: narrow elements of big, aligned transposes only.
    #[test]
    fn vectorizes_big_aligned_narrow_transposes() {
        let gpu = GpuTarget::by_name("sm_90").unwrap();
        let big = Spec { dims: [1, 4096, 4096], outer: false };
        assert_eq!(gpu_vector(&big, &[2], &gpu), 2);
        assert_eq!(gpu_vector(&big, &[1], &gpu), 2, "4 needs 16x the threads");
        assert_eq!(gpu_vector(&big, &[4], &gpu), 1);
        let odd = Spec { dims: [1, 4095, 4096], outer: false };
        assert_eq!(gpu_vector(&odd, &[2], &gpu), 1);
        let small = Spec { dims: [1, 512, 512], outer: false };
        assert_eq!(gpu_vector(&small, &[2], &gpu), 1);
    }
}
