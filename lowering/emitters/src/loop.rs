//! The loop emitter (XLA's `loop.cc` / `loop_kernel_emitter.cc`): every
//! thread computes `unroll` consecutive elements of the output per chunk;
//! the root function is called at each element's index and the results
//! are inserted into the output tensors.
//!
//! Unrolling (XLA's `ComputeLoopFusionConfig`): only for outputs with at
//! least as many elements as the GPU keeps threads resident, and not when
//! an op in the fusion makes vector code unlikely (XLA's
//! `MayPreventVectorization`: reduce-window, sort, dot, sin/cos/tan, power,
//! atan2, concatenates with more than 10 operands, variadic reduces). The
//! factor is the largest power of two up to 4 that divides the element
//! count and keeps a vector within 16 bytes of the widest element type
//! (so f64 unrolls by 2 and c128 not at all); types narrower than a byte
//! unroll so that one thread writes whole bytes.
//!
//! On the CPU a loop is split into workgroups (one per core at most) by
//! its cost: its elements and those of its transcendental ops
//! ([`cpu_loop_cost`]).
//!
//! Outputs with the same element count as the first are written from the
//! same loop (other shapes through the bitcast map); roots of other sizes
//! (possible in rxla's multi-output fusions) get a loop nest of their own
//! over the same launch.

use crate::{
    builder::FuncBuilder,
    elemental::{Current, Elemental},
    fusion::{mlir_tensor, Computation, Val},
    kernel::{Attr, Kernel},
    kernel_ops,
    launch::{
        bitcast_index, ceil_div, cpu_linear_map, cpu_workgroups, gpu_linear_map, loop_launch, Grid, LaunchDims,
        GPU_DIMS,
    },
    target::Target,
    EmitError, KernelModule,
};
use rxla_indexing::{Expr, IndexingMap};
use rxla_ir::op::Value;
use std::collections::HashMap;

/// XLA's `MayPreventVectorization`.
pub fn may_prevent_vectorization(comp: &Computation) -> bool {
    comp.instrs.iter().any(|ins| match ins.opcode.as_str() {
        "reduce_window" | "sort" | "dot" | "sine" | "cosine" | "tan" | "power" | "atan2" => true,
        "concatenate" => ins.operands.len() > 10,
        "reduce" => ins.results.len() > 1,
        _ => false,
    })
}

/// Widest and narrowest element (bits) among parameters and roots.
fn element_bits(comp: &Computation) -> (u32, u32) {
    let mut widest = 8;
    let mut narrowest = 64;
    let tys = comp.params.iter().chain(comp.roots.iter().map(|r| comp.ty(*r)));
    for t in tys {
        // pred is stored in a byte.
        let b = if t.elem.is_pred() { 8 } else { t.elem.bit_width().max(1) };
        widest = widest.max(b);
        narrowest = narrowest.min(b);
    }
    (widest, narrowest)
}

/// Ops that expand into a polynomial or a libm-style routine of tens of
/// instructions per element (`xla-expand-math`, libdevice on the GPU):
/// HloCostAnalysis's transcendentals.
pub(crate) const TRANSCENDENTAL: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "cosh",
    "cosine",
    "erf",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "power",
    "sine",
    "sinh",
    "tan",
    "tanh",
];

/// What a transcendental costs per element next to a cheap elementwise op
/// (a load, an add, a store): a vectorized `exp` or `tanh` is about 20-30
/// instructions for a vector of lanes, an `add` streams at memory speed.
const TRANSCENDENTAL_COST: i64 = 8;

/// The work of a CPU loop fusion over `num_elements` elements, in cheap
/// elements, for the work split: the elements, plus
/// [`TRANSCENDENTAL_COST`] for every element a transcendental op computes
/// (a scalar one feeding a broadcast counts once, not per element). The
/// split gives a core a workgroup per 1024 vectors of cheap elements; a
/// fusion of several transcendentals on a small tensor (an LSTM cell: 3
/// exp and 2 tanh on [16, 512], 40 us a step on one core) is worth
/// splitting where a plain add of as many elements is not. XLA:CPU's
/// parallel task assignment weighs its cost model's transcendentals the
/// same way.
pub fn cpu_loop_cost(comp: &Computation, num_elements: i64) -> i64 {
    let transcendental: i64 = comp
        .instrs
        .iter()
        .filter(|ins| TRANSCENDENTAL.contains(&ins.opcode.as_str()))
        .map(|ins| ins.shape().dims.iter().product::<i64>())
        .sum();
    num_elements.saturating_add(TRANSCENDENTAL_COST.saturating_mul(transcendental))
}

/// True if a transcendental op of `comp` computes at least `elements`
/// elements: per element of a loop over that many, not once per row.
pub fn has_transcendental_per_element(comp: &Computation, elements: i64) -> bool {
    comp.instrs.iter().any(|ins| {
        TRANSCENDENTAL.contains(&ins.opcode.as_str()) && ins.shape().dims.iter().product::<i64>() >= elements
    })
}

/// The unroll factor of a loop over `num_elements` elements.
pub fn unroll_factor(target: &Target, comp: &Computation, num_elements: i64) -> i64 {
    let (widest, narrowest) = element_bits(comp);
    match target {
        Target::Gpu(gpu) => {
            let mut unroll = 1;
            if num_elements >= gpu.resident_threads() && !may_prevent_vectorization(comp) {
                let max = (128 / widest as i64).clamp(1, 4);
                let mut u = max;
                while u > 1 {
                    if num_elements % u == 0 {
                        unroll = u;
                        break;
                    }
                    u /= 2;
                }
            }
            if narrowest < 8 {
                unroll = unroll.max(8 / narrowest as i64);
            }
            unroll
        }
        Target::Cpu(cpu) => {
            let lanes = (cpu.vector_bytes * 8 / widest as i64).max(1);
            let mut u = 1;
            while u * 2 <= lanes {
                u *= 2;
            }
            u
        }
    }
}

/// The grid and per-shape work maps of a loop over `num_elements`.
pub struct Work {
    pub grid: Grid,
    pub unroll: i64,
}

impl Work {
    pub fn new(target: &Target, comp: &Computation, num_elements: i64, unroll: Option<i64>) -> Work {
        let unroll = unroll.unwrap_or_else(|| unroll_factor(target, comp, num_elements));
        match target {
            Target::Gpu(gpu) => Work { grid: Grid::Gpu(loop_launch(gpu, num_elements, unroll)), unroll },
            Target::Cpu(cpu) => {
                // Never more workgroups than vectors to compute.
                let workgroups = cpu_workgroups(cpu, cpu_loop_cost(comp, num_elements), unroll)
                    .min(ceil_div(num_elements.max(1), unroll));
                Work { grid: Grid::Cpu { workgroups }, unroll }
            }
        }
    }

    /// One element per step (unroll 1), for kernels whose elements are not
    /// vector lanes (in-place dynamic-update-slice). On the CPU the grid
    /// is still a loop fusion's over as many elements (a vector's worth
    /// per step): an element is a load and a store, and 1024 of them cost
    /// less than handing a workgroup to a thread (an LSTM's per-step
    /// state update, [16, 512], took 28 us in 8 workgroups).
    pub fn per_element(target: &Target, comp: &Computation, num_elements: i64) -> Work {
        let mut work = Work::new(target, comp, num_elements, Some(1));
        if let (Grid::Cpu { workgroups }, Target::Cpu(cpu)) = (&mut work.grid, target) {
            *workgroups = cpu_workgroups(cpu, num_elements, unroll_factor(target, comp, num_elements));
        }
        work
    }

    /// The map from the grid to an index of `shape`.
    pub fn map(&self, shape: &[i64]) -> IndexingMap {
        match self.grid {
            Grid::Gpu(l) => gpu_linear_map(&l, self.unroll, shape),
            Grid::Cpu { workgroups } => cpu_linear_map(workgroups, self.unroll, shape, true),
        }
    }

    /// Emits the grid ids (the map's dimensions).
    pub fn ids(&self, fb: &mut FuncBuilder) -> Vec<Expr> {
        grid_ids(fb, &self.grid)
    }
}

/// The six GPU ids (`gpu.thread_id`/`gpu.block_id`, constants where the
/// launch has one thread or block in a dimension), or the CPU workgroup id.
pub fn grid_ids(fb: &mut FuncBuilder, grid: &Grid) -> Vec<Expr> {
    match grid {
        Grid::Gpu(l) => gpu_ids(fb, l),
        Grid::Cpu { workgroups } => {
            let wg = kernel_ops::workgroup_id(fb, *workgroups);
            vec![fb.var(wg, 0, workgroups - 1)]
        }
    }
}

pub fn gpu_ids(fb: &mut FuncBuilder, l: &LaunchDims) -> Vec<Expr> {
    let mut ids = Vec::new();
    for (i, name) in GPU_DIMS.iter().enumerate() {
        let (count, dim) = if i < 3 { (l.threads[i], i) } else { (l.blocks[i - 3], i - 3) };
        let axis = ['x', 'y', 'z'][dim];
        if count == 1 {
            ids.push(Expr::constant(0));
            continue;
        }
        let id = if name.starts_with("th") {
            kernel_ops::thread_id(fb, axis, count)
        } else {
            kernel_ops::block_id(fb, axis, count)
        };
        ids.push(fb.var(id, 0, count - 1));
    }
    ids
}

/// The entry function: the builder of its body, its parameters, and one
/// output tensor per root.
pub fn entry(kernel: &Kernel) -> (FuncBuilder, Vec<Value>, Vec<Value>) {
    let comp = kernel.comp;
    let mut types: Vec<String> = comp.params.iter().map(mlir_tensor).collect();
    types.extend(comp.roots.iter().map(|r| mlir_tensor(comp.ty(*r))));
    let (fb, args) = kernel.entry(&types);
    let n = comp.params.len();
    (fb, args[..n].to_vec(), args[n..].to_vec())
}

/// Emits the loop kernel.
pub fn emit(mut kernel: Kernel, unroll: Option<i64>) -> Result<(KernelModule, Grid), EmitError> {
    let comp = kernel.comp;
    let (mut fb, params, outs) = entry(&kernel);
    // Group outputs by element count.
    let mut groups: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
    for (k, r) in comp.roots.iter().enumerate() {
        let shape = comp.ty(*r).dims.clone();
        let n: i64 = shape.iter().product();
        match groups.iter_mut().find(|(s, _)| s.iter().product::<i64>() == n) {
            Some((_, members)) => members.push(k),
            None => groups.push((shape, vec![k])),
        }
    }
    let largest = groups.iter().map(|(s, _)| s.iter().product::<i64>()).max().unwrap_or(1);
    let work = Work::new(&kernel.target, comp, largest, unroll);
    kernel.entry_attrs.extend(work.grid.attrs());
    kernel.entry_attrs.push(("xla.unroll".into(), Attr::I64(work.unroll)));
    let ids = work.ids(&mut fb);
    let mut results: Vec<Value> = outs.clone();
    {
        let mut el = Elemental::new(&mut kernel, comp, Current::Entry, params, HashMap::new());
        for (shape, members) in &groups {
            let map = work.map(shape);
            let inits: Vec<Value> = members.iter().map(|&k| results[k]).collect();
            let roots: Vec<Val> = members.iter().map(|&k| comp.roots[k]).collect();
            let new = kernel_ops::loop_over_map(&mut fb, &map, &ids, &inits, &mut |fb, idx, _syms, iters| {
                let mut out = Vec::new();
                for (root, &iter) in roots.iter().zip(iters) {
                    let root_idx = bitcast_index(idx, shape, &comp.ty(*root).dims);
                    let v = el.value(fb, *root, &root_idx)?;
                    let ids = fb.indices(&root_idx)?;
                    out.push(fb.insert(v, iter, &ids));
                }
                Ok(out)
            })?;
            for (&k, v) in members.iter().zip(new) {
                results[k] = v;
            }
        }
    }
    let grid = work.grid;
    let module = kernel.finish(fb, &results)?;
    Ok((module, grid))
}
