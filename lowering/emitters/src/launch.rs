//! Launch dimensions and the work mapping: how the threads and blocks of a
//! GPU kernel (or the workgroups of a CPU kernel) cover a shape.
//!
//! GPU (XLA's `CalculateLaunchDimensions` and
//! `GetDefaultThreadIdIndexingMap`): `warp_size * 4` = 128 threads per
//! block (fewer for tiny shapes), as many blocks as needed, the blocks
//! split over `y` when `x` would exceed the grid limit. Thread `t` of block
//! `b` handles the linear elements `((b * threads + t) * unroll + u) +
//! chunk * threads * blocks * unroll` for `u < unroll`: consecutive threads
//! touch consecutive vectors of `unroll` elements (coalesced, and
//! vectorizable by a later pass), and the linear index is split into the
//! shape's row-major index.
//!
//! CPU: `min(cores, ceil(elements / (unroll * 1024)))` workgroups, each a
//! contiguous chunk of the linear index processed `unroll` (the SIMD width)
//! elements at a time.

use crate::target::{CpuTarget, GpuTarget};
use rxla_indexing::{Expr, IndexingMap, Interval, Variable};

/// GPU launch dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDims {
    pub blocks: [i64; 3],
    pub threads: [i64; 3],
}

impl LaunchDims {
    pub fn new(blocks: [i64; 3], threads: [i64; 3]) -> LaunchDims {
        LaunchDims { blocks, threads }
    }

    pub fn num_threads(&self) -> i64 {
        self.threads.iter().product()
    }

    pub fn num_blocks(&self) -> i64 {
        self.blocks.iter().product()
    }
}

/// How a kernel's work is distributed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grid {
    Gpu(LaunchDims),
    /// CPU workgroups.
    Cpu {
        workgroups: i64,
    },
}

impl Grid {
    /// Attributes of the entry function describing the launch.
    pub fn attrs(&self) -> Vec<(String, crate::kernel::Attr)> {
        use crate::kernel::Attr::I64Array;
        match self {
            Grid::Gpu(l) => vec![
                ("xla.block_counts".into(), I64Array(l.blocks.to_vec())),
                ("xla.thread_counts".into(), I64Array(l.threads.to_vec())),
            ],
            Grid::Cpu { workgroups } => vec![("xla.workgroups".into(), I64Array(vec![*workgroups, 1, 1]))],
        }
    }

    /// One line for reports (`blocks 24576x1x1, threads 128x1x1`).
    pub fn describe(&self) -> String {
        match self {
            Grid::Gpu(l) => format!(
                "blocks {}x{}x{}, threads {}x{}x{}",
                l.blocks[0], l.blocks[1], l.blocks[2], l.threads[0], l.threads[1], l.threads[2]
            ),
            Grid::Cpu { workgroups } => format!("workgroups {workgroups}"),
        }
    }
}

/// The variable names XLA gives the six GPU dimensions.
pub const GPU_DIMS: [&str; 6] = ["th_x", "th_y", "th_z", "bl_x", "bl_y", "bl_z"];

/// XLA's `CalculateLaunchDimensions` for `num_elements` elements handled
/// `unroll` at a time.
pub fn loop_launch(gpu: &GpuTarget, num_elements: i64, unroll: i64) -> LaunchDims {
    if num_elements <= 1 {
        return LaunchDims::new([1, 1, 1], [1, 1, 1]);
    }
    let n = ceil_div(num_elements, unroll);
    let threads = (gpu.warp_size * 4).min(n);
    let blocks = ceil_div(n, threads);
    let blocks_y = ceil_div(blocks, gpu.block_dim_limit[0]);
    let blocks_x = ceil_div(blocks, blocks_y);
    LaunchDims::new([blocks_x, blocks_y, 1], [threads, 1, 1])
}

pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Row-major index of `shape` for a linear index.
pub fn delinearize(linear: &Expr, shape: &[i64]) -> Vec<Expr> {
    let mut out = vec![Expr::zero(); shape.len()];
    let mut stride = 1i64;
    for d in (0..shape.len()).rev() {
        out[d] = linear.floor_div_const(stride).modulo_const(shape[d].max(1));
        stride = stride.saturating_mul(shape[d].max(1));
    }
    out
}

/// Row-major linear index of `idx` in `shape`.
pub fn linearize(idx: &[Expr], shape: &[i64]) -> Expr {
    let mut linear = Expr::zero();
    let mut stride = 1i64;
    for d in (0..shape.len()).rev() {
        linear = linear.add(&idx[d].mul_const(stride));
        stride = stride.saturating_mul(shape[d]);
    }
    linear
}

/// The index in `to` of the element at `idx` of `from` when both are the
/// same row-major buffer (XLA's bitcast map), for an `idx` within `from`.
///
/// Both shapes are cut into the shortest runs of dimensions with the same
/// number of elements (`[2, 768, 197]` and `[2, 12, 64, 197]` into `2`,
/// `768 = 12 x 64` and `197`), and each run is linearized and delinearized
/// on its own, with no `mod` on its outermost dimension. For an index
/// within the shape that is the same element as linearizing the whole
/// index; but a run's index does not depend on the others, so an index
/// whose range is not tight (`8 * tile + 7` in a dimension of 197, under
/// a guard) still maps dimension by dimension instead of through a
/// division by the whole run below it, which the simplifier could not
/// undo, and a dimension that moves over unchanged stays as it is.
pub fn bitcast_index(idx: &[Expr], from: &[i64], to: &[i64]) -> Vec<Expr> {
    if from == to {
        return idx.to_vec();
    }
    // Shapes that differ only in size-1 dimensions: the index moves over
    // as it is.
    let kept = |shape: &[i64]| shape.iter().copied().filter(|&d| d != 1).collect::<Vec<_>>();
    if kept(from) == kept(to) {
        let mut moved = from.iter().zip(idx).filter(|(&d, _)| d != 1).map(|(_, e)| e.clone());
        return to.iter().map(|&d| if d == 1 { Expr::zero() } else { moved.next().expect("same kept dims") }).collect();
    }
    let Some(runs) = equal_size_runs(from, to) else {
        return delinearize(&linearize(idx, from), to);
    };
    let mut out = Vec::with_capacity(to.len());
    for (f, t) in runs {
        match (f.len(), t.len()) {
            (_, 0) => {}
            (1, 1) => out.push(idx[f.start].clone()),
            _ => {
                let linear = linearize(&idx[f.clone()], &from[f]);
                let mut within = delinearize(&linear, &to[t.clone()]);
                // The run's outermost dimension takes what is left (no wrap).
                let inner: i64 = to[t.start + 1..t.end].iter().map(|&d| d.max(1)).product();
                within[0] = linear.floor_div_const(inner);
                out.extend(within);
            }
        }
    }
    out
}

/// `from` and `to` cut into the shortest runs of dimensions with equal
/// element counts, as index ranges into each (a run may be empty on one
/// side: trailing size-1 dimensions). `None` when the element counts
/// differ or a dimension is empty.
fn equal_size_runs(from: &[i64], to: &[i64]) -> Option<Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>> {
    if from.iter().chain(to).any(|&d| d <= 0) {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    let mut runs = Vec::new();
    while i < from.len() || j < to.len() {
        let (fi, tj) = (i, j);
        let (mut pf, mut pt) = (1i64, 1i64);
        if i < from.len() {
            pf *= from[i];
            i += 1;
        }
        if j < to.len() {
            pt *= to[j];
            j += 1;
        }
        while pf != pt {
            if pf < pt {
                pf = pf.checked_mul(*from.get(i)?)?;
                i += 1;
            } else {
                pt = pt.checked_mul(*to.get(j)?)?;
                j += 1;
            }
        }
        runs.push((fi..i, tj..j));
    }
    Some(runs)
}

/// XLA's default thread-to-element map over `shape`: dims `th_x ... bl_z`,
/// range variables `chunk` and `unroll`, constraint `linear < elements`.
pub fn gpu_linear_map(launch: &LaunchDims, unroll: i64, shape: &[i64]) -> IndexingMap {
    let num_elements: i64 = shape.iter().product();
    let mut linear = Expr::zero();
    let mut stride = 1i64;
    for i in 0..3 {
        let coord = Expr::dim(i).add(&Expr::dim(3 + i).mul_const(launch.threads[i]));
        linear = linear.add(&coord.mul_const(stride));
        stride *= launch.threads[i] * launch.blocks[i];
    }
    let total_threads = stride;
    let linear = linear.mul_const(unroll).add(&Expr::sym(0).mul_const(unroll * total_threads)).add(&Expr::sym(1));
    let results = delinearize(&linear, shape);
    let dims: Vec<Variable> = (0..6)
        .map(|i| {
            let size = if i < 3 { launch.threads[i] } else { launch.blocks[i - 3] };
            Variable::named(0, size - 1, GPU_DIMS[i])
        })
        .collect();
    let chunks = ceil_div(num_elements.max(1), total_threads * unroll);
    let ranges = vec![Variable::named(0, chunks - 1, "chunk"), Variable::named(0, unroll - 1, "unroll")];
    let mut map = IndexingMap::new(results, dims, ranges, vec![], vec![]).expect("valid default thread map");
    let _ = map.add_constraint(linear, Interval::new(0, num_elements - 1));
    map.simplify();
    map
}

/// Vectors (or cost units) a CPU workgroup takes at least: handing
/// workgroups to the pool's sleeping threads and waiting for them costs
/// ~14 us on the 2-core machine; a logsumexp over [4, 16, 16] inside a scan
/// took 16 us per step in 2 workgroups and 1.9 us in one.
const CPU_WORKGROUP_VECTORS: i64 = 4096;

/// The CPU work split for `num_elements` processed `unroll` at a time.
pub fn cpu_workgroups(cpu: &CpuTarget, num_elements: i64, unroll: i64) -> i64 {
    ceil_div(num_elements.max(1), unroll * CPU_WORKGROUP_VECTORS).clamp(1, cpu.cores)
}

/// The CPU workgroup-to-element map over `shape`. With `wg_as_dim` the
/// workgroup id is dimension `wg` (`xla.workgroup_id`); otherwise it is the
/// first range variable (a loop over the workgroups).
pub fn cpu_linear_map(workgroups: i64, unroll: i64, shape: &[i64], wg_as_dim: bool) -> IndexingMap {
    let num_elements: i64 = shape.iter().product::<i64>().max(1);
    let vectors = ceil_div(num_elements, unroll);
    let per_wg = ceil_div(vectors, workgroups);
    let wg = if wg_as_dim { Expr::dim(0) } else { Expr::sym(0) };
    let first = if wg_as_dim { 0 } else { 1 };
    let linear = wg.mul_const(per_wg * unroll).add(&Expr::sym(first).mul_const(unroll)).add(&Expr::sym(first + 1));
    let results = delinearize(&linear, shape);
    let wg_var = Variable::named(0, workgroups - 1, "wg");
    let mut ranges = vec![Variable::named(0, per_wg - 1, "vector"), Variable::named(0, unroll - 1, "lane")];
    let dims = if wg_as_dim {
        vec![wg_var]
    } else {
        ranges.insert(0, wg_var);
        vec![]
    };
    let mut map = IndexingMap::new(results, dims, ranges, vec![], vec![]).expect("valid workgroup map");
    let _ = map.add_constraint(linear, Interval::new(0, num_elements - 1));
    map.simplify();
    map
}

/// Enumerating maps in tests.
#[cfg(test)]
pub(crate) mod testing {
    use rxla_indexing::IndexingMap;

    /// Every point of `map`'s domain, dimensions ranging over `[0, size)`
    /// (the launch's full grid, whatever the map's simplified bounds) and
    /// symbols over the map's bounds: `(dims, syms, results)`.
    pub fn points(map: &IndexingMap, dim_sizes: &[i64]) -> Vec<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let sym_bounds: Vec<(i64, i64)> =
            map.range_vars().iter().chain(map.rt_vars()).map(|v| (v.bounds.lower, v.bounds.upper)).collect();
        let mut out = Vec::new();
        let mut dims = vec![0i64; dim_sizes.len()];
        loop {
            let mut syms: Vec<i64> = sym_bounds.iter().map(|b| b.0).collect();
            if sym_bounds.iter().all(|b| b.0 <= b.1) {
                loop {
                    if map.contains_point(&dims, &syms) {
                        out.push((dims.clone(), syms.clone(), map.evaluate(&dims, &syms).unwrap()));
                    }
                    let mut k = syms.len();
                    loop {
                        if k == 0 {
                            break;
                        }
                        k -= 1;
                        syms[k] += 1;
                        if syms[k] <= sym_bounds[k].1 {
                            break;
                        }
                        syms[k] = sym_bounds[k].0;
                        if k == 0 {
                            k = usize::MAX;
                            break;
                        }
                    }
                    if k == usize::MAX || syms.is_empty() {
                        break;
                    }
                }
            }
            let mut k = dims.len();
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                dims[k] += 1;
                if dims[k] < dim_sizes[k] {
                    break;
                }
                dims[k] = 0;
            }
        }
    }

    /// Asserts that `points` cover every index of `shape` exactly once.
    pub fn covers_once(results: &[Vec<i64>], shape: &[i64]) {
        let n: i64 = shape.iter().product();
        let mut seen = vec![0u32; n as usize];
        for r in results {
            assert_eq!(r.len(), shape.len(), "result rank");
            let mut linear = 0i64;
            for (d, &x) in r.iter().enumerate() {
                assert!(x >= 0 && x < shape[d], "index {r:?} outside {shape:?}");
                linear = linear * shape[d] + x;
            }
            seen[linear as usize] += 1;
        }
        assert!(
            seen.iter().all(|&c| c == 1),
            "not every element exactly once: {:?}",
            seen.iter().filter(|&&c| c != 1).count()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{covers_once, points};
    use super::*;

    fn grid_sizes(l: &LaunchDims) -> Vec<i64> {
        vec![l.threads[0], l.threads[1], l.threads[2], l.blocks[0], l.blocks[1], l.blocks[2]]
    }

    #[test]
    fn loop_maps_cover_every_element_once() {
        let gpu = GpuTarget::sm_80();
        for shape in [vec![7, 13], vec![3, 5, 8], vec![1000], vec![1], vec![]] {
            let n: i64 = shape.iter().product();
            for unroll in [1, 2, 4] {
                let launch = loop_launch(&gpu, n, unroll);
                let map = gpu_linear_map(&launch, unroll, &shape);
                let pts: Vec<Vec<i64>> = points(&map, &grid_sizes(&launch)).into_iter().map(|p| p.2).collect();
                covers_once(&pts, &shape);
                for workgroups in [1, 3, 8] {
                    let map = cpu_linear_map(workgroups, unroll, &shape, true);
                    let pts: Vec<Vec<i64>> = points(&map, &[workgroups]).into_iter().map(|p| p.2).collect();
                    covers_once(&pts, &shape);
                    let map = cpu_linear_map(workgroups, unroll, &shape, false);
                    let pts: Vec<Vec<i64>> = points(&map, &[]).into_iter().map(|p| p.2).collect();
                    covers_once(&pts, &shape);
                }
            }
        }
    }

    #[test]
    fn gelu_launch_matches_xla() {
        // bf16[6,512,4096], unroll 4: 128 threads, 24576 blocks, and the
        // map of XLA's emitter documentation.
        let gpu = GpuTarget::sm_90();
        let launch = loop_launch(&gpu, 6 * 512 * 4096, 4);
        assert_eq!(launch, LaunchDims::new([24576, 1, 1], [128, 1, 1]));
        let map = gpu_linear_map(&launch, 4, &[12582912]);
        assert_eq!(map.results()[0].to_string(), "d0 * 4 + d3 * 512 + s1");
    }

    #[test]
    fn tail_is_constrained() {
        let gpu = GpuTarget::sm_80();
        let launch = loop_launch(&gpu, 100, 1);
        assert_eq!(launch, LaunchDims::new([1, 1, 1], [100, 1, 1]));
        let launch = loop_launch(&gpu, 1000, 1);
        assert_eq!(launch, LaunchDims::new([8, 1, 1], [128, 1, 1]));
        let map = gpu_linear_map(&launch, 1, &[10, 100]);
        assert!(!map.constraints().is_empty());
    }

    #[test]
    fn bitcast() {
        let idx = vec![Expr::dim(0), Expr::dim(1)];
        let r = bitcast_index(&idx, &[4, 6], &[24]);
        // One run of dimensions: linearized, with no wrap around 24.
        assert_eq!(r[0].to_string(), "d0 * 6 + d1");
        // Runs `2 | 768 = 12 x 64 | 197` map one by one.
        let idx = [Expr::dim(0), Expr::dim(1).mul_const(8).add_const(3), Expr::dim(2)];
        let r: Vec<String> =
            bitcast_index(&idx, &[2, 768, 197], &[2, 12, 64, 197]).iter().map(|e| e.to_string()).collect();
        assert_eq!(r[0], "d0");
        assert_eq!(r[3], "d2");
        assert!(r.iter().all(|e| !e.contains("197")), "no division by the run below: {r:?}");
        // Only size-1 dimensions differ: the index moves over unchanged.
        let r = bitcast_index(&[Expr::zero(), Expr::dim(0), Expr::dim(1)], &[1, 4, 6], &[4, 1, 6]);
        let r: Vec<String> = r.iter().map(|e| e.to_string()).collect();
        assert_eq!(r, ["d0", "0", "d1"]);
    }

    /// For every index within `from`, the runs' index is the element
    /// linearizing the whole index finds.
    #[test]
    fn bitcast_runs_agree_with_linearization() {
        let pairs: [(&[i64], &[i64]); 9] = [
            (&[2, 6, 5], &[2, 2, 3, 5]),
            (&[2, 2, 3, 5], &[2, 6, 5]),
            (&[4, 6], &[24]),
            (&[24], &[2, 3, 4]),
            (&[2, 3, 4], &[4, 3, 2]),
            (&[3, 1, 4], &[12, 1, 1]),
            (&[1, 6, 1], &[2, 3]),
            (&[6, 4], &[2, 12]),
            (&[1], &[1, 1]),
        ];
        for (from, to) in pairs {
            let idx: Vec<Expr> = (0..from.len()).map(Expr::dim).collect();
            let runs = bitcast_index(&idx, from, to);
            let whole = delinearize(&linearize(&idx, from), to);
            let n: i64 = from.iter().product();
            for linear in 0..n {
                let mut point = vec![0; from.len()];
                let mut rest = linear;
                for d in (0..from.len()).rev() {
                    point[d] = rest % from[d];
                    rest /= from[d];
                }
                let eval = |es: &[Expr]| es.iter().map(|e| e.eval(&point, &[]).unwrap()).collect::<Vec<_>>();
                assert_eq!(eval(&runs), eval(&whole), "{from:?} -> {to:?} at {point:?}");
            }
        }
    }
}
