//! The reduction emitter (XLA's `reduction.cc`): on GPU row and column
//! reductions with per-thread partial results, warp shuffles and shared
//! memory; on CPU a loop per output element in each workgroup's block of
//! outputs.
//!
//! The reduce's input is viewed as XLA's normalized 3-D shape
//! (`reduction_dimensions`): `[major reduced, kept, minor reduced]` for a
//! row reduction, `[major kept, reduced, minor kept]` for a column
//! reduction (a reshape of the input, since the inputs have default
//! layouts after layout normalization).
//!
//! **Multi-row reductions** (XLA's `MultiRowReduction`, tried first): rows
//! whose length `R` is a power of two and fits in a warp of `vector`-element
//! loads get `R / vector` lanes each, several rows per warp, and shuffles
//! limited to the row's lanes; no shared memory (see
//! [`multi_row_tiling`]).
//!
//! **Row reductions.** `lanes` threads share a row (`min(1024, round_up(
//! ceil(R / 16), 32))`, so each thread reduces about 16 elements), and
//! a block handles `rows` rows (filled up to 256 threads). Each thread
//! accumulates its elements `(i * lanes + lane) * vector + v` (loads of
//! `vector` consecutive elements: 4 for 16-bit inputs, 2 for 32-bit, when
//! the row divides), loops over the major reduced dimension, then the warp
//! combines its partial results with shuffles. With several warps per row
//! each warp's lane 0 writes its result to shared memory (`[rows, warps]`),
//! and after a barrier the first warp of the row reduces those. Lane 0 of
//! the row writes the output (and computes the epilogue from it).
//!
//! **Column reductions.** A block is a 32 x 32 tile: 32 lanes along the
//! minor kept dimension (coalesced reads) and 32 rows along the reduced
//! dimension, each thread accumulating every 32nd row. The partial results
//! go to a `32 x 33` shared-memory tile (padded against bank conflicts),
//! are read back transposed after a barrier, and each warp shuffle-reduces
//! one column; lane 0 writes it.
//!
//! Side outputs (roots that are not reductions, with as many elements as
//! the reduction's input) are written by the threads that read the input
//! element, in the accumulation loop. Several reductions of the same input
//! shape and dimensions (multi-output fusions) share the loop; each has its
//! own accumulators, shuffles and shared memory.
//!
//! **CPU** ([`emit_cpu`]): each workgroup owns a contiguous block of the
//! hero's output elements and, for each, loops over the reduced positions
//! with the accumulators as loop-carried values, then applies the epilogue
//! and writes the output once (side outputs are written by that loop). A
//! column reduction over many rows accumulates in a tree of blocks of at
//! most 32 rows ([`row_tree`]), each from the init values and then
//! combined into its parent, which makes f32 sums about as accurate as
//! XLA:CPU's (a pairwise-like summation) at no extra memory traffic.

use crate::{
    builder::FuncBuilder,
    choose::Choice,
    elemental::{Current, Elemental},
    fusion::{mlir_elem, Val},
    kernel::{Attr, Kernel, ScalarFn},
    kernel_ops,
    launch::{bitcast_index, ceil_div, cpu_workgroups, delinearize, linearize, Grid, LaunchDims, GPU_DIMS},
    r#loop::{entry, gpu_ids},
    target::{CpuTarget, Target},
    EmitError, KernelModule,
};
use rxla_indexing::{Expr, IndexingMap, Interval, Variable};
use rxla_ir::hlo_analysis::{layout_text, reduction_dimensions};
use rxla_ir::op::Value;
use std::collections::HashMap;

/// One reduction hero.
struct Hero {
    instr: usize,
    inputs: Vec<Val>,
    inits: Vec<Val>,
    types: Vec<String>,
    reducer: ScalarFn,
}

/// The thread layout of the kernel.
struct Tiling {
    row: bool,
    /// XLA's `MultiRowReduction`: a row fits in one warp (`lanes <= 32`),
    /// no shared memory.
    multi_row: bool,
    /// Normalized input `[a, b, c]`.
    dims: [i64; 3],
    /// Threads along the reduced dimension per row (row) / 32 (column).
    lanes: i64,
    /// Rows per block (row) / 32 reduced rows (column).
    rows: i64,
    vector: i64,
    launch: LaunchDims,
}

fn round_up(a: i64, b: i64) -> i64 {
    ceil_div(a, b) * b
}

/// Rows per block for `lanes` threads per row: up to 256 threads (XLA's
/// `kThreadsPerBlockTarget`).
fn rows_per_block(kept: i64, lanes: i64) -> i64 {
    (if kept * lanes <= 256 { kept } else { 256 / lanes }).max(1)
}

/// A GPU column reduction's vector (XLA's `GetVectorSizeForMlir` for
/// columns): adjacent columns per thread, 2 when the minor kept dimension
/// `c` is even and leaves every lane two columns; 4 for inputs narrower
/// than 32 bits when `c` divides by 4 and leaves every lane four.
fn column_vector(c: i64, smallest_input_bits: i64, no_vectors: bool) -> i64 {
    if no_vectors || c % 2 != 0 || 32 * 2 > c {
        1
    } else if smallest_input_bits >= 32 || 32 * 4 > c || c % 4 != 0 {
        2
    } else {
        4
    }
}

fn tiling(row: bool, dims: [i64; 3], input_bits: u32, smallest_input_bits: i64, complex: bool) -> Tiling {
    let [_, b, c] = dims;
    if !row {
        let vector = column_vector(c, smallest_input_bits, complex);
        let blocks = dims[0] * ceil_div(c, 32 * vector);
        return Tiling {
            row,
            multi_row: false,
            dims,
            lanes: 32,
            rows: 32,
            vector,
            launch: LaunchDims::new([blocks, 1, 1], [1024, 1, 1]),
        };
    }
    let (k, r) = (b, c);
    let lanes = (round_up(ceil_div(r, 16), 32)).min(1024);
    let mut vector = if complex || input_bits > 32 {
        1
    } else if input_bits <= 16 {
        4
    } else {
        2
    };
    while vector > 1 && (r % vector != 0 || lanes * vector * 2 > r) {
        vector /= 2;
    }
    let rows = if lanes * 2 <= 256 { rows_per_block(k, lanes) } else { 1 };
    let blocks = ceil_div(k, rows);
    Tiling {
        row,
        multi_row: false,
        dims,
        lanes,
        rows,
        vector,
        launch: LaunchDims::new([blocks, 1, 1], [lanes * rows, 1, 1]),
    }
}

/// XLA's `MultiRowReduction::TryCreate`: row reductions whose rows (a
/// power of two) fit in one warp of `vector`-element loads. A row gets
/// `c / vector` lanes, so a warp reduces `warp * vector / c` rows and the
/// shuffles stay within a row's lanes. `smallest_bits`/`largest_bits` are
/// the smaller and larger of the narrowest input and the narrowest output
/// element (XLA considers both: the input-to-output ratio is high). The
/// vector shrinks while the grid has fewer blocks than the GPU has SMs.
fn multi_row_tiling(dims: [i64; 3], smallest_bits: i64, largest_bits: i64, warp: i64, cores: i64) -> Option<Tiling> {
    let [_, b, c] = dims;
    if c < 1 || c & (c - 1) != 0 {
        return None;
    }
    let mut vector = c.min(64 / smallest_bits.max(1)).max(1);
    if largest_bits >= 32 {
        vector = vector.min(128 / largest_bits).max(1);
    }
    let blocks = |vector: i64| ceil_div(b, rows_per_block(b, c / vector));
    if c > warp * vector {
        return None;
    }
    while vector > 1 && blocks(vector) < cores {
        vector /= 2;
    }
    if c > warp * vector {
        return None;
    }
    let lanes = c / vector;
    let rows = rows_per_block(b, lanes);
    Some(Tiling {
        row: true,
        multi_row: true,
        dims,
        lanes,
        rows,
        vector,
        launch: LaunchDims::new([ceil_div(b, rows), 1, 1], [lanes * rows, 1, 1]),
    })
}

/// The map from the grid to the input element each thread reads. A
/// column reduction's thread reads `t.vector` adjacent columns, each with
/// its own accumulators: its map's `vector` variable takes `vector_points`
/// values (1 for the loop, which starts at the first column; `t.vector`
/// for the elements).
fn input_map(t: &Tiling, in_shape: &[i64], vector_points: i64) -> IndexingMap {
    let [a, b, c] = t.dims;
    let th = Expr::dim(0);
    let bl = Expr::dim(3);
    let (norm, ranges, constraints): (Vec<Expr>, Vec<Variable>, Vec<(Expr, Interval)>) = if t.row {
        let lane = th.modulo_const(t.lanes);
        let row = th.floor_div_const(t.lanes);
        let kept = bl.mul_const(t.rows).add(&row);
        let iters = ceil_div(c, t.lanes * t.vector);
        let red = Expr::sym(1).mul_const(t.lanes).add(&lane).mul_const(t.vector).add(&Expr::sym(2));
        (
            vec![Expr::sym(0), kept.clone(), red.clone()],
            vec![
                Variable::named(0, a - 1, "major"),
                Variable::named(0, iters - 1, "iter"),
                Variable::named(0, t.vector - 1, "vector"),
            ],
            vec![(kept, Interval::new(0, b - 1)), (red, Interval::new(0, c - 1))],
        )
    } else {
        let lane = th.modulo_const(32);
        let row = th.floor_div_const(32);
        let col_blocks = ceil_div(c, 32 * t.vector);
        let major = bl.floor_div_const(col_blocks);
        let mut col = bl.modulo_const(col_blocks).mul_const(32).add(&lane);
        let mut ranges = vec![Variable::named(0, ceil_div(b, 32) - 1, "iter")];
        if t.vector > 1 {
            col = col.mul_const(t.vector).add(&Expr::sym(1));
            ranges.push(Variable::named(0, vector_points - 1, "vector"));
        }
        let red = Expr::sym(0).mul_const(32).add(&row);
        (
            vec![major, red.clone(), col.clone()],
            ranges,
            vec![(col, Interval::new(0, c - 1)), (red, Interval::new(0, b - 1))],
        )
    };
    let results = delinearize(&linearize(&norm, &[a, b, c]), in_shape);
    let dims: Vec<Variable> = (0..6)
        .map(|i| {
            let size = if i < 3 { t.launch.threads[i] } else { t.launch.blocks[i - 3] };
            Variable::named(0, size - 1, GPU_DIMS[i])
        })
        .collect();
    let mut map = IndexingMap::new(results, dims, ranges, vec![], vec![]).expect("valid reduction map");
    for (e, i) in constraints {
        let _ = map.add_constraint(e, i);
    }
    map.simplify();
    map
}

/// Emits the reduction kernel.
pub fn emit(mut kernel: Kernel, choice: &Choice) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    // The heroes, in root order.
    let mut hero_ids: Vec<usize> = Vec::new();
    for h in choice.root_heroes.iter().flatten() {
        if !hero_ids.contains(h) {
            hero_ids.push(*h);
        }
    }
    let first = comp.instrs[*hero_ids.first().ok_or_else(|| kernel.err("no reduction hero"))?].clone();
    let rd = reduction_dimensions(first.op).ok_or_else(|| kernel.err("not a row or column reduction"))?;
    let in_shape = comp.ty(first.operands[0]).dims.clone();
    let out_shape = first.results[0].dims.clone();
    let mut heroes = Vec::new();
    let mut input_bits = 0;
    let mut complex = false;
    for &h in &hero_ids {
        let ins = comp.instrs[h].clone();
        let n = ins.operands.len() / 2;
        for k in 0..n {
            if layout_text(ins.op.operand(k)).is_some() {
                return Err(kernel.err("reduction inputs with non-default layouts are not supported"));
            }
            let elem = &comp.ty(ins.operands[k]).elem;
            input_bits = input_bits.max(if elem.is_pred() { 8 } else { elem.bit_width() });
            complex |= elem.is_complex();
        }
        let name = comp.to_apply(h).ok_or_else(|| kernel.err("reduce without a reducer"))?;
        // A CPU column reduction gets its parallelism from lanes of
        // adjacent outputs (contiguous loads); a reassociative reducer
        // would let LLVM vectorize down the columns instead, with gathers.
        let cpu_column = matches!(kernel.target, Target::Cpu(_)) && !rd.row;
        let reducer = if cpu_column { kernel.scalar_fn(&name)? } else { kernel.reducer_fn(&name)? };
        heroes.push(Hero {
            instr: h,
            inputs: ins.operands[..n].to_vec(),
            inits: ins.operands[n..].to_vec(),
            types: ins.results.iter().map(|t| mlir_elem(&t.elem)).collect(),
            reducer,
        });
    }
    // Outputs: reductions (with their hero) and side outputs.
    for (k, root) in comp.roots.iter().enumerate() {
        let injected = match root.instr().and_then(|i| kernel.part.subgraph_of_root(i).map(|s| (i, s))) {
            Some((i, s)) if !hero_ids.contains(&i) => kernel.part.subgraphs[s].injected.clone(),
            _ => Vec::new(),
        };
        match choice.root_heroes.get(k).copied().flatten() {
            Some(h) => {
                if injected.iter().any(|&x| x != h) {
                    return Err(kernel.err("an epilogue reads another reduction's result"));
                }
                let n: i64 = comp.ty(*root).dims.iter().product();
                if n != out_shape.iter().product::<i64>() {
                    return Err(kernel.err("an epilogue changes the number of elements"));
                }
            }
            None => {
                if !injected.is_empty() {
                    return Err(kernel.err("a side output reads a reduction's result"));
                }
            }
        }
    }

    let gpu = match &kernel.target {
        Target::Gpu(gpu) => gpu.clone(),
        Target::Cpu(cpu) => {
            let cpu = cpu.clone();
            return emit_cpu(kernel, choice, &heroes, rd.row, rd.dims, &in_shape, &out_shape, &cpu);
        }
    };
    // Variadic reductions are not vectorized (XLA's MayPreventVectorization).
    let variadic = heroes.iter().any(|h| h.types.len() > 1);
    let bits = |t: &rxla_ir::types::TensorType| -> i64 {
        if t.elem.is_pred() {
            8
        } else {
            t.elem.bit_width().max(1) as i64
        }
    };
    let smallest_in = comp.params.iter().map(bits).min();
    let smallest_out = comp.roots.iter().map(|r| bits(comp.ty(*r))).min().unwrap_or(8);
    let (smallest, largest) = match smallest_in {
        Some(i) => (i.min(smallest_out), i.max(smallest_out)),
        None => (smallest_out, smallest_out),
    };
    let multi = if rd.row { multi_row_tiling(rd.dims, smallest, largest, gpu.warp_size, gpu.core_count) } else { None };
    let smallest_input = smallest_in.unwrap_or(smallest);
    let t = multi.unwrap_or_else(|| tiling(rd.row, rd.dims, input_bits, smallest_input, complex || variadic));
    // Shared memory: per accumulator, [rows, warps] (row) or 32 x (32 *
    // vector + 1) (column).
    let warps = ceil_div(t.lanes, 32);
    let acc_bytes: i64 = heroes.iter().flat_map(|h| h.instr_results(comp)).map(|b| b as i64).sum();
    let shmem_bytes = if t.row {
        if t.lanes > 32 {
            t.rows * warps * acc_bytes
        } else {
            0
        }
    } else {
        32 * (32 * t.vector + 1) * acc_bytes
    };
    if shmem_bytes > gpu.shared_memory_per_block {
        return Err(kernel.err(format!("needs {shmem_bytes} bytes of shared memory")));
    }
    let grid = Grid::Gpu(t.launch);
    kernel.entry_attrs.extend(grid.attrs());
    kernel.entry_attrs.push(("xla.shared_memory_bytes".into(), Attr::I64(shmem_bytes)));
    kernel.entry_attrs.push((
        "xla.reduction".into(),
        Attr::Str(format!(
            "{} [{}, {}, {}], lanes {}, rows {}, vector {}",
            if t.multi_row {
                "multi-row"
            } else if t.row {
                "row"
            } else {
                "column"
            },
            t.dims[0],
            t.dims[1],
            t.dims[2],
            t.lanes,
            t.rows,
            t.vector
        )),
    ));

    let (mut fb, params, outs) = entry(&kernel);
    let ids = gpu_ids(&mut fb, &t.launch);
    let map = input_map(&t, &in_shape, 1);
    // A column reduction's thread keeps `vector` copies of the accumulators,
    // one per column it reads (the row reduction's vector elements share
    // theirs).
    let copies = if t.row { 1 } else { t.vector };
    let elements = (copies > 1).then(|| input_map(&t, &in_shape, copies));
    let mut outputs = outs.clone();
    {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        // Phase 1: per-thread partial results (and side outputs).
        let mut inits: Vec<Value> = Vec::new();
        for h in &heroes {
            for v in &h.inits {
                inits.push(el.value(&mut fb, *v, &[])?);
            }
        }
        let per_copy = inits.len();
        let init_values: Vec<Value> = inits.clone();
        inits = (0..copies).flat_map(|_| inits.iter().cloned()).collect();
        let num_accs = inits.len();
        let side: Vec<usize> =
            (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_none()).collect();
        for &k in &side {
            inits.push(outputs[k]);
        }
        let roots = comp.roots.clone();
        let final_values = kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, syms, iters| {
            let mut out = iters.to_vec();
            for copy in 0..copies {
                let idx: Vec<Expr> = match &elements {
                    None => idx.to_vec(),
                    Some(elements) => {
                        let mut at = syms.to_vec();
                        at[1] = Expr::constant(copy);
                        elements.results().iter().map(|e| fb.simplify(&e.replace_dims_and_symbols(&ids, &at))).collect()
                    }
                };
                let mut a = copy as usize * per_copy;
                for h in &heroes {
                    let n = h.types.len();
                    let mut call_args = out[a..a + n].to_vec();
                    for v in &h.inputs {
                        call_args.push(el.value(fb, *v, &idx)?);
                    }
                    let reduced = kernel_ops::call(fb, &h.reducer.name, &call_args, &h.reducer.result_types);
                    out.splice(a..a + n, reduced);
                    a += n;
                }
                for (j, &k) in side.iter().enumerate() {
                    let root = roots[k];
                    let root_idx = bitcast_index(&idx, &in_shape, &comp.ty(root).dims);
                    let v = el.value(fb, root, &root_idx)?;
                    let ids = fb.indices(&root_idx)?;
                    let tensor = out[num_accs + j];
                    out[num_accs + j] = fb.insert(v, tensor, &ids);
                }
            }
            Ok(out)
        })?;
        for (j, &k) in side.iter().enumerate() {
            outputs[k] = final_values[num_accs + j];
        }
        // accs[hero][copy]: the hero's accumulators for one column.
        let mut accs: Vec<Vec<Vec<Value>>> = Vec::new();
        let mut a = 0;
        for h in &heroes {
            let n = h.types.len();
            accs.push(
                (0..copies as usize).map(|c| final_values[c * per_copy + a..c * per_copy + a + n].to_vec()).collect(),
            );
            a += n;
        }

        // Phase 2: combine across threads.
        let th = ids[0].clone();
        let bl = ids[3].clone();
        let (writer, out_linear) = if t.row {
            let mut a = 0;
            for (hi, h) in heroes.iter().enumerate() {
                let max_offset = (t.lanes.min(32)) / 2;
                accs[hi][0] = warp_reduce(&mut fb, &accs[hi][0], h, max_offset, gpu.warp_size)?;
                if t.lanes > 32 {
                    accs[hi][0] = across_warps(
                        &mut fb,
                        &accs[hi][0],
                        h,
                        &init_values[a..a + h.types.len()],
                        &th,
                        &t,
                        gpu.warp_size,
                    )?;
                }
                a += h.types.len();
            }
            let lane = th.modulo_const(t.lanes);
            let row = th.floor_div_const(t.lanes);
            let kept = fb.simplify(&bl.mul_const(t.rows).add(&row));
            let mut conds = Vec::new();
            conds.extend(fb.in_range(&lane, 0, 0)?);
            conds.extend(fb.in_range(&kept, 0, t.dims[1] - 1)?);
            let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
            (cond, kept)
        } else {
            let lane = th.modulo_const(32);
            let row = th.floor_div_const(32);
            let col_blocks = ceil_div(t.dims[2], 32 * t.vector);
            let major = bl.floor_div_const(col_blocks);
            // The first of the `vector` columns this warp reduces.
            let col = bl.modulo_const(col_blocks).mul_const(32).add(&row).mul_const(t.vector);
            for (hi, h) in heroes.iter().enumerate() {
                accs[hi] = transpose_tile(&mut fb, &accs[hi], h, &lane, &row)?;
                for copy in accs[hi].iter_mut() {
                    *copy = warp_reduce(&mut fb, copy, h, 16, gpu.warp_size)?;
                }
            }
            let mut conds = Vec::new();
            conds.extend(fb.in_range(&lane, 0, 0)?);
            conds.extend(fb.in_range(&col, 0, t.dims[2] - 1)?);
            let cond = if conds.is_empty() { None } else { Some(fb.and_all(&conds)) };
            (cond, major.mul_const(t.dims[2]).add(&col))
        };
        // Outputs of reductions (and their epilogues), written by one thread:
        // `copies` adjacent outputs from `out_linear` on.
        let red_outputs: Vec<usize> =
            (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_some()).collect();
        let current: Vec<Value> = red_outputs.iter().map(|&k| outputs[k]).collect();
        let written = fb.if_then(writer, &current, &mut |fb| {
            let mut out = current.clone();
            for copy in 0..copies {
                let hero_idx = delinearize(&fb.simplify(&out_linear.add(&Expr::constant(copy))), &out_shape);
                for (hi, h) in heroes.iter().enumerate() {
                    el.injected.insert(h.instr, accs[hi][copy as usize].clone());
                }
                for (j, &k) in red_outputs.iter().enumerate() {
                    let root = comp.roots[k];
                    let root_idx = bitcast_index(&hero_idx, &out_shape, &comp.ty(root).dims);
                    let v = el.value(fb, root, &root_idx)?;
                    let ids = fb.indices(&root_idx)?;
                    out[j] = fb.insert(v, out[j], &ids);
                }
            }
            Ok(out)
        })?;
        for (&k, v) in red_outputs.iter().zip(written) {
            outputs[k] = v;
        }
    }
    let module = kernel.finish(fb, &outputs)?;
    Ok((module, grid))
}

/// The CPU workgroups of a reduction: as many as the loop emitter would
/// use for the input, at most one per unit of work (output element or
/// strip of outputs).
fn cpu_reduction_workgroups(cpu: &CpuTarget, input_elements: i64, units: i64, vector: i64) -> i64 {
    cpu_workgroups(cpu, input_elements, vector).min(units.max(1))
}

/// Adjacent outputs per strip of a CPU column reduction: enough SIMD
/// vectors of them that, with `accumulators` per output (the heroes'
/// results together), the vectorized reduction has four independent
/// dependency chains in flight. Four vectors for one accumulator; one for
/// four or more (a batch norm's backward pass reduces five quantities at
/// once): more lanes would not add parallelism, only code (the lanes are
/// unrolled), which LLVM spends its time on.
fn cpu_lanes(extent: i64, vector: i64, accumulators: i64) -> i64 {
    let vectors = ceil_div(4, accumulators.max(1));
    extent.clamp(1, vectors * vector.max(1))
}

/// The normalized `[a, b, c]` index of a reduction input, as an index of
/// the input's shape.
fn cpu_input_index(fb: &FuncBuilder, dims: [i64; 3], norm: [Expr; 3], in_shape: &[i64]) -> Vec<Expr> {
    delinearize(&linearize(&norm, &dims), in_shape).iter().map(|e| fb.simplify(e)).collect()
}

/// The reducers of `heroes` applied to two sets of one lane's accumulators
/// (each hero's values in turn, as the lanes carry them).
fn combine_accumulators(fb: &mut FuncBuilder, heroes: &[Hero], a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let mut at = 0;
    for h in heroes {
        let n = h.types.len();
        let mut call_args = a[at..at + n].to_vec();
        call_args.extend(b[at..at + n].iter().cloned());
        out.extend(kernel_ops::call(fb, &h.reducer.name, &call_args, &h.reducer.result_types));
        at += n;
    }
    out
}

/// Rows a CPU column reduction adds one after another into one partial
/// result (the leaves of [`row_tree`]).
const LEAF_ROWS: i64 = 32;
/// Row counts up to this are one plain loop: an f32 sum of 256 terms is
/// accurate enough, and each level of blocks adds a loop with its
/// accumulators and combining calls to the kernel (compile time).
const PLAIN_ROWS: i64 = 256;
/// Blocks per level where the row count does not factor into leaves.
const ROW_FAN: i64 = 16;

/// How a CPU column reduction walks its rows: a tree of blocks, each block
/// accumulated from the init values and then combined into its parent, so
/// that an f32 sum's rounding error grows with about `LEAF_ROWS` additions
/// per level (a few levels) instead of with the row count. XLA:CPU's
/// reductions are about this accurate; one running sum over 6272 rows
/// (ResNet's batch-norm statistics) was 20x, blocks of `sqrt(rows)` 3x,
/// less accurate than XLA:CPU.
#[derive(Debug, PartialEq)]
enum RowTree {
    /// Rows added one after another to the carried values.
    Leaf(i64),
    /// `count` blocks of `inner`, then `rest` (the rows left over).
    Blocks { count: i64, inner: Box<RowTree>, rest: Option<Box<RowTree>> },
}

impl RowTree {
    fn rows(&self) -> i64 {
        match self {
            RowTree::Leaf(n) => *n,
            RowTree::Blocks { count, inner, rest } => count * inner.rows() + rest.as_ref().map_or(0, |r| r.rows()),
        }
    }
}

/// The [`RowTree`] of `n` rows: one loop up to `PLAIN_ROWS`, then blocks
/// of at most `LEAF_ROWS` rows. Where every prime factor of `n` is at most
/// `LEAF_ROWS`, the factors are packed into levels of at most `LEAF_ROWS`
/// (the largest the leaf) and the tree has one leaf loop and no
/// remainders, so the kernel carries one copy of the loop body; otherwise
/// `n` is cut into `ROW_FAN`-ary blocks plus the rows left over, one body
/// per nonzero base-`ROW_FAN` digit of `n`.
fn row_tree(n: i64) -> RowTree {
    if n <= PLAIN_ROWS {
        return RowTree::Leaf(n.max(0));
    }
    blocks_of_rows(n)
}

/// [`row_tree`] above `PLAIN_ROWS` (and for the blocks inside).
fn blocks_of_rows(n: i64) -> RowTree {
    if n <= LEAF_ROWS {
        return RowTree::Leaf(n.max(0));
    }
    let mut primes = Vec::new();
    let mut m = n;
    let mut p = 2;
    while p * p <= m {
        while m % p == 0 {
            primes.push(p);
            m /= p;
        }
        p += 1;
    }
    if m > 1 {
        primes.push(m);
    }
    if primes.iter().all(|&p| p <= LEAF_ROWS) {
        // First-fit decreasing into levels of at most LEAF_ROWS.
        primes.sort_unstable_by(|a, b| b.cmp(a));
        let mut levels: Vec<i64> = Vec::new();
        for p in primes {
            match levels.iter_mut().find(|l| **l * p <= LEAF_ROWS) {
                Some(l) => *l *= p,
                None => levels.push(p),
            }
        }
        levels.sort_unstable_by(|a, b| b.cmp(a));
        let mut tree = RowTree::Leaf(levels[0]);
        for &count in &levels[1..] {
            tree = RowTree::Blocks { count, inner: Box::new(tree), rest: None };
        }
        return tree;
    }
    let mut block = ROW_FAN;
    while block * ROW_FAN < n {
        block *= ROW_FAN;
    }
    RowTree::Blocks {
        count: n / block,
        inner: Box::new(blocks_of_rows(block)),
        rest: (n % block > 0).then(|| Box::new(blocks_of_rows(n % block))),
    }
}

type RowsFn<'f, E> = dyn Fn(&mut FuncBuilder, &mut E, Expr, i64, &[Value]) -> Result<Vec<Value>, EmitError> + 'f;
type CombineFn<'f> = dyn Fn(&mut FuncBuilder, &[Value], &[Value]) -> Result<Vec<Value>, EmitError> + 'f;

/// The emission of a [`RowTree`] in a CPU column reduction: `rows` adds
/// rows `[lo, lo + count)` to the carried values (accumulators, then side
/// outputs), `combine` folds a block's partial accumulators into the
/// total, `fresh` restarts the accumulators from the init values (keeping
/// the side outputs).
struct RowWalk<'f, E> {
    rows: &'f RowsFn<'f, E>,
    combine: &'f CombineFn<'f>,
    fresh: &'f dyn Fn(&[Value]) -> Vec<Value>,
}

impl<E> RowWalk<'_, E> {
    fn emit(
        &self,
        fb: &mut FuncBuilder,
        el: &mut E,
        tree: &RowTree,
        lo: Expr,
        carried: &[Value],
    ) -> Result<Vec<Value>, EmitError> {
        match tree {
            RowTree::Leaf(n) => (self.rows)(fb, el, lo, *n, carried),
            RowTree::Blocks { count, inner, rest } => {
                let size = inner.rows();
                let mut total = fb.for_loop(0, *count, 1, carried, &mut |fb, k, iters| {
                    let partial = self.emit(fb, el, inner, lo.add(&k.mul_const(size)), &(self.fresh)(iters))?;
                    (self.combine)(fb, iters, &partial)
                })?;
                if let Some(rest) = rest {
                    let partial = self.emit(fb, el, rest, lo.add_const(count * size), &(self.fresh)(&total))?;
                    total = (self.combine)(fb, &total, &partial)?;
                }
                Ok(total)
            }
        }
    }
}

/// The CPU flavour. Reductions are associative and commutative (HLO's
/// contract), so the order of accumulation is free; the CPU emitter uses
/// that to vectorize:
///
/// - *row* (`[a, b, c]`, reduce `a` and `c`): each workgroup owns a
///   contiguous block of the `b` outputs; for each output, `L` lanes
///   accumulate `c`-contiguous elements independently (element `k * L + j`
///   into lane `j`, the remainder into lane 0), then the lanes are combined
///   pairwise and the epilogue is applied;
/// - *column* (`[a, b, c]`, reduce `b`): the outputs of one `a` are cut
///   into strips of `L` adjacent columns; each workgroup owns a contiguous
///   block of strips and walks down the rows, lane `j` accumulating column
///   `col0 + j` (contiguous loads across lanes), in the blocks of a
///   [`row_tree`] combined into the totals; the last strip of a
///   row clamps its lanes to the last column and writes only the real ones.
///   Where the strips are full and `L` is a power of two up to 32, the
///   accumulators are `vector<L x T>` and each per-lane step one loop over
///   the lanes (`vector.extract`/`vector.insert` of lane `j`), which the
///   CPU's `xla-vectorize-loads-stores` makes vector code: the body is
///   emitted once, not `L` times.
///
/// No other workgroup touches a workgroup's outputs, so nothing needs
/// synchronizing. Side outputs are written where their input element is
/// read (each input element belongs to one output).
#[allow(clippy::too_many_arguments)]
fn emit_cpu(
    mut kernel: Kernel,
    choice: &Choice,
    heroes: &[Hero],
    row: bool,
    dims: [i64; 3],
    in_shape: &[i64],
    out_shape: &[i64],
    cpu: &CpuTarget,
) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let [a, b, c] = dims;
    let input_elements = a * b * c;
    let vector = crate::r#loop::unroll_factor(&kernel.target, comp, input_elements);
    // Column: strips of adjacent kept columns. Row: one accumulator; the
    // reducer is reassociative, so LLVM vectorizes and interleaves the
    // reduction loop itself.
    let accumulators = heroes.iter().map(|h| h.types.len() as i64).sum::<i64>();
    // A transcendental per input element (EfficientNet's SiLU before its
    // squeeze-and-excite mean) is latency enough between additions: one
    // vector of lanes, not four, whose unrolled polynomials LLVM would
    // spend four times as long on for no speed.
    let expensive = crate::r#loop::has_transcendental_per_element(comp, input_elements);
    let accumulators = if expensive { accumulators.max(4) } else { accumulators };
    let lanes = if row { 1 } else { cpu_lanes(c, vector, accumulators) };
    // A column strip's lanes are one loop over vectors where its lanes fill
    // every strip and xla-vectorize-loads-stores takes such a loop whole;
    // otherwise each lane's code is emitted apart.
    // (Vectors hold integers and floats: complex accumulators stay apart.)
    let vector_elements = heroes.iter().flat_map(|h| &h.types).all(|t| !t.starts_with("complex"));
    let lane_loops =
        !row && vector_elements && (2..=32).contains(&lanes) && (lanes as u64).is_power_of_two() && c % lanes == 0;
    let strips_per_major = ceil_div(c.max(1), lanes);
    let units = if row { b } else { a * strips_per_major };
    let workgroups = cpu_reduction_workgroups(cpu, input_elements, units, vector);
    let per_wg = ceil_div(units.max(1), workgroups);
    let grid = Grid::Cpu { workgroups };
    kernel.entry_attrs.extend(grid.attrs());
    kernel.entry_attrs.push((
        "xla.reduction".into(),
        Attr::Str(format!(
            "{} [{a}, {b}, {c}], lanes {lanes}, {} per workgroup {per_wg}",
            if row { "row" } else { "column" },
            if row { "outputs" } else { "strips" }
        )),
    ));
    let (mut fb, params, outs) = entry(&kernel);
    let ids = crate::r#loop::grid_ids(&mut fb, &grid);
    let wg = ids.first().cloned().unwrap_or_else(Expr::zero);
    let side: Vec<usize> =
        (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_none()).collect();
    let red_outputs: Vec<usize> =
        (0..comp.roots.len()).filter(|&k| choice.root_heroes.get(k).copied().flatten().is_some()).collect();
    let nacc: usize = heroes.iter().map(|h| h.types.len()).sum();
    let result = {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        fb.for_loop(0, per_wg, 1, &outs, &mut |fb, i, tensors| {
            let unit = wg.mul_const(per_wg).add(&i);
            let guard = if units % workgroups == 0 { None } else { fb.in_range(&unit, 0, units - 1)? };
            let tensors_v = tensors.to_vec();
            fb.if_then(guard, &tensors_v, &mut |fb| {
                // The unit's outputs: one (row) or a strip (column).
                let (m, col0) = if row {
                    (Expr::zero(), Expr::zero())
                } else {
                    (
                        fb.simplify(&unit.floor_div_const(strips_per_major)),
                        fb.simplify(&unit.modulo_const(strips_per_major).mul_const(lanes)),
                    )
                };
                let accumulating = if row { 1 } else { lanes };
                let mut init_values = Vec::new();
                for h in heroes {
                    for v in &h.inits {
                        init_values.push(el.value(fb, *v, &[])?);
                    }
                }
                let mut inits: Vec<Value> = Vec::new();
                if lane_loops {
                    for &v in &init_values {
                        inits.push(kernel_ops::broadcast(fb, v, lanes));
                    }
                } else {
                    let carried_lanes = if row { lanes } else { accumulating };
                    for _ in 0..carried_lanes {
                        inits.extend(init_values.iter().cloned());
                    }
                }
                for &k in &side {
                    inits.push(tensors_v[k]);
                }
                // One lane's step at `idx`: the reducers, then the side
                // outputs' elements.
                let lane_step = |fb: &mut FuncBuilder,
                                 el: &mut Elemental,
                                 accs: &[Value],
                                 sides: &mut Vec<Value>,
                                 idx: &[Expr]|
                 -> Result<Vec<Value>, EmitError> {
                    let mut out = Vec::new();
                    let mut at = 0;
                    for h in heroes {
                        let mut call_args = accs[at..at + h.types.len()].to_vec();
                        for v in &h.inputs {
                            call_args.push(el.value(fb, *v, idx)?);
                        }
                        out.extend(kernel_ops::call(fb, &h.reducer.name, &call_args, &h.reducer.result_types));
                        at += h.types.len();
                    }
                    for (j, &k) in side.iter().enumerate() {
                        let root = comp.roots[k];
                        let root_idx = bitcast_index(idx, in_shape, &comp.ty(root).dims);
                        let v = el.value(fb, root, &root_idx)?;
                        let at = fb.indices(&root_idx)?;
                        sides[j] = fb.insert(v, sides[j], &at);
                    }
                    Ok(out)
                };
                let finals: Vec<Value> = if row {
                    let o = unit.clone();
                    let full = c / lanes;
                    let rem = c % lanes;
                    fb.for_loop(0, a, 1, &inits, &mut |fb, major, iters| {
                        let mut r = fb.for_loop(0, full, 1, iters, &mut |fb, chunk, iters| {
                            let mut sides = iters[lanes as usize * nacc..].to_vec();
                            let mut out = Vec::new();
                            for j in 0..lanes {
                                let minor = chunk.mul_const(lanes).add_const(j);
                                let idx = cpu_input_index(fb, dims, [major.clone(), o.clone(), minor], in_shape);
                                let lane = &iters[j as usize * nacc..(j as usize + 1) * nacc];
                                out.extend(lane_step(fb, &mut el, lane, &mut sides, &idx)?);
                            }
                            out.extend(sides);
                            Ok(out)
                        })?;
                        if rem > 0 {
                            r = fb.for_loop(full * lanes, c, 1, &r, &mut |fb, minor, iters| {
                                let mut sides = iters[lanes as usize * nacc..].to_vec();
                                let idx = cpu_input_index(fb, dims, [major.clone(), o.clone(), minor], in_shape);
                                let mut out = lane_step(fb, &mut el, &iters[..nacc], &mut sides, &idx)?;
                                out.extend(iters[nacc..lanes as usize * nacc].iter().cloned());
                                out.extend(sides);
                                Ok(out)
                            })?;
                        }
                        Ok(r)
                    })?
                } else if lane_loops {
                    // Each row's step is one loop over the strip's lanes,
                    // lane `j` of every accumulator vector being column
                    // `col0 + j`: one copy of the body, which
                    // xla-vectorize-loads-stores turns into vector code.
                    let rows = |fb: &mut FuncBuilder,
                                el: &mut Elemental,
                                lo: Expr,
                                count: i64,
                                carried: &[Value]|
                     -> Result<Vec<Value>, EmitError> {
                        fb.for_loop(0, count, 1, carried, &mut |fb, r, iters| {
                            let reduced = lo.add(&r);
                            let accs = iters[..nacc].to_vec();
                            fb.for_loop(0, lanes, 1, iters, &mut |fb, j, lane_iters| {
                                let jv = fb.index(&j)?;
                                let lane: Vec<Value> = accs.iter().map(|&v| kernel_ops::lane(fb, v, jv)).collect();
                                let mut sides = lane_iters[nacc..].to_vec();
                                let col = col0.add(&j);
                                let idx = cpu_input_index(fb, dims, [m.clone(), reduced.clone(), col], in_shape);
                                let stepped = lane_step(fb, el, &lane, &mut sides, &idx)?;
                                let mut out: Vec<Value> = stepped
                                    .iter()
                                    .zip(&lane_iters[..nacc])
                                    .map(|(&x, &v)| kernel_ops::with_lane(fb, x, v, jv))
                                    .collect();
                                out.extend(sides);
                                Ok(out)
                            })
                        })
                    };
                    let combine =
                        |fb: &mut FuncBuilder, total: &[Value], partial: &[Value]| -> Result<Vec<Value>, EmitError> {
                            let (t, p) = (total[..nacc].to_vec(), partial[..nacc].to_vec());
                            let mut out = fb.for_loop(0, lanes, 1, &t, &mut |fb, j, lane_iters| {
                                let jv = fb.index(&j)?;
                                let a: Vec<Value> = t.iter().map(|&v| kernel_ops::lane(fb, v, jv)).collect();
                                let b: Vec<Value> = p.iter().map(|&v| kernel_ops::lane(fb, v, jv)).collect();
                                let combined = combine_accumulators(fb, heroes, &a, &b);
                                Ok(combined
                                    .iter()
                                    .zip(lane_iters)
                                    .map(|(&x, &v)| kernel_ops::with_lane(fb, x, v, jv))
                                    .collect())
                            })?;
                            // Side outputs: the partial's (it wrote them).
                            out.extend(partial[nacc..].iter().cloned());
                            Ok(out)
                        };
                    let fresh = |carried: &[Value]| -> Vec<Value> {
                        let mut v = inits[..nacc].to_vec();
                        v.extend(carried[nacc..].iter().cloned());
                        v
                    };
                    let walk = RowWalk { rows: &rows, combine: &combine, fresh: &fresh };
                    walk.emit(fb, &mut el, &row_tree(b), Expr::zero(), &inits)?
                } else {
                    // Rows [lo, hi) into the carried accumulators (and side
                    // outputs).
                    let rows = |fb: &mut FuncBuilder,
                                el: &mut Elemental,
                                lo: Expr,
                                count: i64,
                                carried: &[Value]|
                     -> Result<Vec<Value>, EmitError> {
                        fb.for_loop(0, count, 1, carried, &mut |fb, r, iters| {
                            let reduced = lo.add(&r);
                            let mut sides = iters[lanes as usize * nacc..].to_vec();
                            let mut out = Vec::new();
                            for j in 0..lanes {
                                let col = col0.add_const(j).minimum(&Expr::constant(c - 1));
                                let idx = cpu_input_index(fb, dims, [m.clone(), reduced.clone(), col], in_shape);
                                let lane = &iters[j as usize * nacc..(j as usize + 1) * nacc];
                                out.extend(lane_step(fb, el, lane, &mut sides, &idx)?);
                            }
                            out.extend(sides);
                            Ok(out)
                        })
                    };
                    let combine =
                        |fb: &mut FuncBuilder, total: &[Value], partial: &[Value]| -> Result<Vec<Value>, EmitError> {
                            let mut out = Vec::new();
                            for j in 0..lanes as usize {
                                let lane = j * nacc..(j + 1) * nacc;
                                out.extend(combine_accumulators(fb, heroes, &total[lane.clone()], &partial[lane]));
                            }
                            // Side outputs: the partial's (it wrote them).
                            out.extend(partial[lanes as usize * nacc..].iter().cloned());
                            Ok(out)
                        };
                    let fresh = |carried: &[Value]| -> Vec<Value> {
                        let mut v = inits[..lanes as usize * nacc].to_vec();
                        v.extend(carried[lanes as usize * nacc..].iter().cloned());
                        v
                    };
                    let walk = RowWalk { rows: &rows, combine: &combine, fresh: &fresh };
                    walk.emit(fb, &mut el, &row_tree(b), Expr::zero(), &inits)?
                };
                let mut next: Vec<Value> = tensors_v.clone();
                let lane_count = if row { lanes } else { accumulating } as usize;
                let sides_at = if lane_loops { nacc } else { lane_count * nacc };
                for (j, &k) in side.iter().enumerate() {
                    next[k] = finals[sides_at + j];
                }
                // The epilogue of the output at linear index `o` from its
                // accumulators `accs`, written into the outputs `outs`.
                let write = |fb: &mut FuncBuilder,
                             el: &mut Elemental,
                             accs: &[Value],
                             o: &Expr,
                             outs: &[Value]|
                 -> Result<Vec<Value>, EmitError> {
                    let mut at = 0;
                    for h in heroes {
                        el.injected.insert(h.instr, accs[at..at + h.types.len()].to_vec());
                        at += h.types.len();
                    }
                    let hero_idx: Vec<Expr> = delinearize(o, out_shape).iter().map(|e| fb.simplify(e)).collect();
                    let mut updated = outs.to_vec();
                    for &k in &red_outputs {
                        let root = comp.roots[k];
                        let root_idx = bitcast_index(&hero_idx, out_shape, &comp.ty(root).dims);
                        let v = el.value(fb, root, &root_idx)?;
                        let at = fb.indices(&root_idx)?;
                        updated[k] = fb.insert(v, updated[k], &at);
                    }
                    Ok(updated)
                };
                if lane_loops {
                    // The epilogue and the writes, one lane loop over the
                    // strip (every column is real: `c % lanes == 0`).
                    let accs = finals[..nacc].to_vec();
                    return fb.for_loop(0, lanes, 1, &next, &mut |fb, j, outs| {
                        let jv = fb.index(&j)?;
                        let lane: Vec<Value> = accs.iter().map(|&v| kernel_ops::lane(fb, v, jv)).collect();
                        write(fb, &mut el, &lane, &m.mul_const(c).add(&col0).add(&j), outs)
                    });
                }
                let mut lane_accs: Vec<Vec<Value>> =
                    (0..lane_count).map(|j| finals[j * nacc..(j + 1) * nacc].to_vec()).collect();
                // (output linear index, lane accumulators) to write.
                let mut writes: Vec<(Expr, Vec<Value>, Option<Expr>)> = Vec::new();
                if row {
                    // Combine the lanes pairwise.
                    while lane_accs.len() > 1 {
                        let mut merged = Vec::new();
                        for pair in lane_accs.chunks(2) {
                            if pair.len() == 1 {
                                merged.push(pair[0].clone());
                                continue;
                            }
                            merged.push(combine_accumulators(fb, heroes, &pair[0], &pair[1]));
                        }
                        lane_accs = merged;
                    }
                    writes.push((unit.clone(), lane_accs.remove(0), None));
                } else {
                    for (j, accs) in lane_accs.into_iter().enumerate() {
                        let col = col0.add_const(j as i64);
                        let valid = if c % lanes == 0 { None } else { Some(col.clone()) };
                        writes.push((m.mul_const(c).add(&col), accs, valid));
                    }
                }
                for (o, accs, valid) in writes {
                    let cond = match &valid {
                        Some(col) => fb.in_range(col, 0, c - 1)?,
                        None => None,
                    };
                    let current = next.clone();
                    next = fb.if_then(cond, &current, &mut |fb| write(fb, &mut el, &accs, &o, &current))?;
                }
                Ok(next)
            })
        })?
    };
    let module = kernel.finish(fb, &result)?;
    Ok((module, grid))
}

impl Hero {
    /// Bytes of each accumulator.
    fn instr_results(&self, comp: &crate::fusion::Computation) -> Vec<u64> {
        comp.instrs[self.instr].results.iter().map(|t| t.elem.byte_size()).collect()
    }
}

fn warp_reduce(
    fb: &mut FuncBuilder,
    accs: &[Value],
    h: &Hero,
    max_offset: i64,
    _warp: i64,
) -> Result<Vec<Value>, EmitError> {
    if max_offset < 1 {
        return Ok(accs.to_vec());
    }
    Ok(kernel_ops::shuffle_reduce(fb, accs, max_offset, &h.reducer))
}

/// Row reductions with several warps per row: each warp's lane 0 writes to
/// shared memory; after a barrier every warp reads the row's partial
/// results (lanes past the number of warps take the init value) and
/// shuffle-reduces them again.
fn across_warps(
    fb: &mut FuncBuilder,
    accs: &[Value],
    h: &Hero,
    inits: &[Value],
    th: &Expr,
    t: &Tiling,
    warp: i64,
) -> Result<Vec<Value>, EmitError> {
    let warps = t.lanes / warp;
    let lane = th.modulo_const(warp);
    let warp_id = th.modulo_const(t.lanes).floor_div_const(warp);
    let row = th.floor_div_const(t.lanes);
    let is_first = fb.in_range(&lane, 0, 0)?;
    let at = fb.indices(&[row.clone(), warp_id])?;
    let mut tiles = Vec::new();
    for (&v, ty) in accs.iter().zip(&h.types) {
        let tile_ty = format!("tensor<{}x{}x{ty}>", t.rows, warps);
        let shmem = kernel_ops::allocate_shared(fb, &tile_ty);
        tiles.push(kernel_ops::predicated_insert(fb, is_first, v, shmem, &at));
    }
    let synced = kernel_ops::sync_threads(fb, &tiles);
    let has_value = fb.in_range(&lane, 0, warps - 1)?;
    let read_at = fb.indices(&[row, lane])?;
    let mut values = Vec::new();
    for (&tile, &init) in synced.iter().zip(inits) {
        values.push(kernel_ops::predicated_extract(fb, has_value, init, tile, &read_at));
    }
    let max_offset = ((warps as u64).next_power_of_two() as i64 / 2).max(1);
    warp_reduce(fb, &values, h, max_offset, warp)
}

/// Column reductions: every thread writes its partial results (one copy
/// per column of its vector) to a padded `32 x (32 * vector + 1)` tile at
/// `[row, lane * vector + v]` and reads `[lane, row * vector + v]` after a
/// barrier: warp `row` then holds column `row * vector + v` of the block
/// in its lanes.
fn transpose_tile(
    fb: &mut FuncBuilder,
    copies: &[Vec<Value>],
    h: &Hero,
    lane: &Expr,
    row: &Expr,
) -> Result<Vec<Vec<Value>>, EmitError> {
    let vector = copies.len() as i64;
    let mut tiles = Vec::new();
    for (j, ty) in h.types.iter().enumerate() {
        let tile_ty = format!("tensor<32x{}x{ty}>", 32 * vector + 1);
        let mut tile = kernel_ops::allocate_shared(fb, &tile_ty);
        for (v, copy) in copies.iter().enumerate() {
            let at = fb.indices(&[row.clone(), lane.mul_const(vector).add(&Expr::constant(v as i64))])?;
            tile = fb.insert(copy[j], tile, &at);
        }
        tiles.push(tile);
    }
    let synced = kernel_ops::sync_threads(fb, &tiles);
    let mut out = vec![Vec::new(); copies.len()];
    for (v, values) in out.iter_mut().enumerate() {
        let read_at = fb.indices(&[lane.clone(), row.mul_const(vector).add(&Expr::constant(v as i64))])?;
        for &tile in &synced {
            values.push(fb.extract(tile, &read_at));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::testing::{covers_once, points};

    fn sizes(t: &Tiling) -> Vec<i64> {
        let l = &t.launch;
        vec![l.threads[0], l.threads[1], l.threads[2], l.blocks[0], l.blocks[1], l.blocks[2]]
    }

    /// Leaf rows of a row tree in walking order, as (first row, count).
    fn leaves(t: &RowTree, lo: i64, out: &mut Vec<(i64, i64)>) {
        match t {
            RowTree::Leaf(n) => out.push((lo, *n)),
            RowTree::Blocks { count, inner, rest } => {
                for k in 0..*count {
                    leaves(inner, lo + k * inner.rows(), out);
                }
                if let Some(r) = rest {
                    leaves(r, lo + count * inner.rows(), out);
                }
            }
        }
    }

    fn depth_and_bodies(t: &RowTree) -> (usize, usize) {
        match t {
            RowTree::Leaf(_) => (0, 1),
            RowTree::Blocks { inner, rest, .. } => {
                let (d, b) = depth_and_bodies(inner);
                let (rd, rb) = rest.as_ref().map_or((0, 0), |r| depth_and_bodies(r));
                (1 + d.max(rd), b + rb)
            }
        }
    }

    /// A row tree visits every row once, in order, with leaves of at most
    /// LEAF_ROWS rows; row counts that factor into small primes get one
    /// loop body, others one per nonzero base-16 digit.
    #[test]
    fn row_tree_covers_rows_in_small_leaves() {
        for n in [0, 1, 31, 32, 33, 98, 256, 257, 1000, 6272, 25088, 50176, 65536, 1_000_003, 37 * 41, 16 * 37] {
            let t = row_tree(n);
            assert_eq!(t.rows(), n, "{n}: {t:?}");
            let mut got = Vec::new();
            leaves(&t, 0, &mut got);
            let mut next = 0;
            for (lo, count) in got {
                assert_eq!(lo, next, "{n}: {t:?}");
                assert!(count <= if n <= PLAIN_ROWS { PLAIN_ROWS } else { LEAF_ROWS }, "{n}: leaf of {count}");
                next += count;
            }
            assert_eq!(next, n);
            let (depth, bodies) = depth_and_bodies(&t);
            assert!(depth <= 6, "{n}: depth {depth}");
            let digits = format!("{n:x}").chars().filter(|&c| c != '0').count();
            assert!(bodies <= digits.max(1), "{n}: {bodies} bodies: {t:?}");
        }
        assert_eq!(depth_and_bodies(&row_tree(6272)).1, 1);
        assert_eq!(
            row_tree(6272),
            RowTree::Blocks {
                count: 8,
                inner: Box::new(RowTree::Blocks { count: 28, inner: Box::new(RowTree::Leaf(28)), rest: None }),
                rest: None
            }
        );
    }

    /// Every input element is read exactly once, by a thread of the row
    /// (or column) group that writes the element's output.
    #[test]
    fn every_input_element_is_read_once_by_its_output_group() {
        let cases: Vec<(bool, [i64; 3], Vec<i64>)> = vec![
            (true, [1, 5, 100], vec![5, 100]),
            (true, [1, 3, 4096], vec![3, 4096]),
            (true, [1, 40, 8], vec![40, 8]),
            (true, [3, 4, 64], vec![3, 4, 64]),
            (true, [1, 2, 70], vec![2, 70]),
            (false, [1, 70, 40], vec![70, 40]),
            (false, [3, 33, 65], vec![3, 33, 65]),
            (false, [1, 70, 128], vec![70, 128]),
            (false, [2, 40, 66], vec![2, 40, 66]),
        ];
        for (row, dims, shape) in cases {
            for bits in [16, 32] {
                let t = tiling(row, dims, bits, bits as i64, false);
                let map = input_map(&t, &shape, t.vector);
                let pts = points(&map, &sizes(&t));
                covers_once(&pts.iter().map(|p| p.2.clone()).collect::<Vec<_>>(), &shape);
                for (d, s, r) in &pts {
                    let (th, bl) = (d[0], d[3]);
                    let linear = r.iter().zip(&shape).fold(0, |acc, (x, s)| acc * s + x);
                    let [_, b, c] = dims;
                    if row {
                        let kept = (linear / c) % b;
                        assert_eq!(kept, bl * t.rows + th / t.lanes, "{dims:?} row group");
                    } else {
                        let (major, col) = (linear / (b * c), linear % c);
                        let col_blocks = ceil_div(c, 32 * t.vector);
                        let v = if t.vector > 1 { s[1] } else { 0 };
                        assert_eq!(major, bl / col_blocks);
                        assert_eq!(col, ((bl % col_blocks) * 32 + th % 32) * t.vector + v, "{dims:?} column");
                    }
                }
            }
        }
    }

    /// XLA's column vectors: 2 adjacent columns, 4 for narrow inputs with
    /// room for them; none for odd or narrow columns.
    #[test]
    fn column_vectors_follow_xla() {
        assert_eq!(column_vector(512, 32, false), 2);
        assert_eq!(column_vector(512, 16, false), 4);
        assert_eq!(column_vector(96, 16, false), 2, "32 lanes of 4 need 128 columns");
        assert_eq!(column_vector(130, 16, false), 2, "130 is not a multiple of 4");
        assert_eq!(column_vector(62, 32, false), 1, "fewer than 2 columns per lane");
        assert_eq!(column_vector(513, 32, false), 1);
        assert_eq!(column_vector(512, 32, true), 1, "complex or variadic");
    }

    /// The multi-row emitter: every input element is read once, by a
    /// thread of its row's lane group; the groups are aligned runs of
    /// `lanes` (a power of two) threads inside one warp, so shuffles down
    /// from `lanes / 2` stay in the row; the first lane of each group
    /// writes each output exactly once.
    #[test]
    fn multi_row_maps_read_each_row_in_one_warp_segment() {
        let cases: Vec<([i64; 3], Vec<i64>, i64, i64)> = vec![
            ([1, 1024, 8], vec![1024, 8], 32, 32),
            ([1, 1024, 4], vec![1024, 4], 32, 32),
            ([1, 65536, 16], vec![65536, 16], 16, 16),
            ([3, 70, 16], vec![3, 70, 16], 8, 8),
            ([1, 300, 32], vec![300, 32], 16, 32),
            ([1, 5, 2], vec![5, 2], 32, 32),
            ([2, 100, 64], vec![2, 100, 64], 8, 32),
        ];
        for (dims, shape, smallest, largest) in cases {
            for cores in [1, 132] {
                // With one core every power-of-two row up to 32 * vector
                // is multi-row; with 132 the vector may shrink too far.
                let Some(t) = multi_row_tiling(dims, smallest, largest, 32, cores) else {
                    assert!(cores > 1, "{dims:?} should be multi-row");
                    continue;
                };
                assert!(t.multi_row && t.lanes <= 32 && 32 % t.lanes == 0, "{dims:?}");
                assert!(t.launch.num_threads() <= 1024);
                let map = input_map(&t, &shape, t.vector);
                let pts = points(&map, &sizes(&t));
                covers_once(&pts.iter().map(|p| p.2.clone()).collect::<Vec<_>>(), &shape);
                let [_, b, c] = dims;
                for (d, _, r) in &pts {
                    let (th, bl) = (d[0], d[3]);
                    let linear = r.iter().zip(&shape).fold(0, |acc, (x, s)| acc * s + x);
                    let kept = (linear / c) % b;
                    let group_start = th - th % t.lanes;
                    assert_eq!(kept, bl * t.rows + group_start / t.lanes, "{dims:?}: read by the row's group");
                    assert_eq!(group_start / 32, (group_start + t.lanes - 1) / 32, "{dims:?}: group inside a warp");
                }
                // Writers: lane 0 of each group with a row in bounds.
                let mut written = vec![0; b as usize];
                for bl in 0..t.launch.blocks[0] {
                    for th in 0..t.launch.threads[0] {
                        let kept = bl * t.rows + th / t.lanes;
                        if th % t.lanes == 0 && kept < b {
                            written[kept as usize] += 1;
                        }
                    }
                }
                assert!(written.iter().all(|&n| n == 1), "{dims:?}: every output written once");
            }
        }
        // XLA's choices: f32 rows of 4 on an H100 (few blocks: no vector),
        // f16 rows of 16 (many blocks: vector 4), rows of 64 f32 too long
        // for a warp without vectors, rows that are not powers of two.
        let t = multi_row_tiling([1, 1024, 4], 32, 32, 32, 132).unwrap();
        assert_eq!((t.lanes, t.rows, t.vector), (4, 64, 1));
        let t = multi_row_tiling([1, 65536, 16], 16, 16, 32, 132).unwrap();
        assert_eq!((t.lanes, t.rows, t.vector), (4, 64, 4));
        assert!(multi_row_tiling([1, 1024, 64], 32, 32, 32, 132).is_none());
        let t = multi_row_tiling([1, 8192, 64], 32, 32, 32, 132).unwrap();
        assert_eq!((t.lanes, t.rows, t.vector), (32, 8, 2));
        assert!(multi_row_tiling([1, 1024, 12], 32, 32, 32, 132).is_none());
    }

    /// The CPU flavour: the workgroups' blocks of outputs cover every
    /// output once, and every input element is read exactly once, by the
    /// loop of the output it reduces into.
    #[test]
    fn tilings() {
        let t = tiling(true, [1, 32, 100], 32, 32, false);
        assert_eq!((t.lanes, t.rows, t.vector), (32, 8, 1));
        let t = tiling(true, [1, 8, 4096], 32, 32, false);
        assert_eq!((t.lanes, t.rows, t.vector), (256, 1, 2));
        let t = tiling(true, [1, 8, 4096], 16, 16, false);
        assert_eq!(t.vector, 4);
        let t = multi_row_tiling([1, 1024, 8], 32, 32, 32, 132).unwrap();
        assert_eq!((t.lanes, t.rows, t.vector), (8, 32, 1));
        assert!(t.launch.num_threads() <= 1024);
    }
}
