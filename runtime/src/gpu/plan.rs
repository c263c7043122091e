//! Where each step of a GPU program runs, and the thunk sequence as text
//! (`hlo-opt --stage=thunks`): launches with their dimensions, library
//! calls, copies, host steps and control flow, each with the buffer
//! slices it reads and writes.

use crate::program::*;
use rxla_library::array::ElementType;
use std::fmt::Write as _;

/// Where a step runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Placement {
    /// A kernel launch or a device copy.
    Device,
    /// A cuBLAS gemm.
    Cublas(Gemm),
    /// A sort by keys, as the device's radix sort.
    Sort(super::sort::DeviceSort),
    /// On the host, on copies of the buffers it touches (ops with no
    /// device implementation yet: sorts, FFTs, convolutions, RNG, custom
    /// calls, interpreted ops, relayouts).
    Host,
    /// While, conditional, call: the host runs other programs, reading
    /// predicates back.
    Control,
}

/// A dot as one strided-batched cuBLAS gemm (column-major): row-major
/// `out[b, M, N] = lhs[b, M, K] rhs[b, K, N]` is column-major
/// `out^T = rhs^T lhs^T`, so cuBLAS's A is the rhs and B the lhs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gemm {
    pub ty: ElementType,
    pub batch: i64,
    /// cuBLAS's m (= N), n (= M), k (= K).
    pub m: i64,
    pub n: i64,
    pub k: i64,
    /// Whether cuBLAS's A (the rhs) and B (the lhs) are transposed.
    pub trans_a: bool,
    pub trans_b: bool,
    pub lda: i64,
    pub ldb: i64,
    pub ldc: i64,
    pub stride_a: i64,
    pub stride_b: i64,
    pub stride_c: i64,
}

/// The gemm computing `Step::Dot`, when cuBLAS can (f16, bf16, f32, f64;
/// leading batch dimensions; one contracting and at most one free
/// dimension per operand).
pub fn gemm(p: &Program, lhs: Slot, rhs: Slot, out: Slot, dims: &rxla_library::dot::DotDims) -> Option<Gemm> {
    let (l, r, o) = (&p.slots[lhs].shape, &p.slots[rhs].shape, &p.slots[out].shape);
    if l.ty != r.ty
        || l.ty != o.ty
        || !matches!(l.ty, ElementType::F16 | ElementType::Bf16 | ElementType::F32 | ElementType::F64)
    {
        return None;
    }
    let nb = dims.lhs_batch.len();
    let leading: Vec<usize> = (0..nb).collect();
    if dims.lhs_batch != leading
        || dims.rhs_batch != leading
        || dims.lhs_contracting.len() != 1
        || dims.rhs_contracting.len() != 1
    {
        return None;
    }
    let (lc, rc) = (dims.lhs_contracting[0], dims.rhs_contracting[0]);
    if l.dims.len() > nb + 2 || r.dims.len() > nb + 2 || l.dims.len() < nb + 1 || r.dims.len() < nb + 1 {
        return None;
    }
    let batch: i64 = l.dims[..nb].iter().product();
    let k = l.dims[lc];
    let m_rows = if l.dims.len() == nb + 2 { l.dims[if lc == nb { nb + 1 } else { nb }] } else { 1 };
    let n_cols = if r.dims.len() == nb + 2 { r.dims[if rc == nb { nb + 1 } else { nb }] } else { 1 };
    if [batch, k, m_rows, n_cols].iter().any(|&d| d <= 0 || d > i32::MAX as i64) || r.dims[rc] != k {
        return None;
    }
    // lhs row-major [M, K] is column-major [K, M]: cuBLAS's B (k x n)
    // untransposed; [K, M] needs a transpose.
    let lhs_k_last = lc == l.dims.len() - 1;
    // rhs row-major [K, N] is column-major [N, K]: cuBLAS's A (m x k)
    // untransposed; [N, K] needs a transpose.
    let rhs_k_first = rc == nb;
    Some(Gemm {
        ty: l.ty,
        batch,
        m: n_cols,
        n: m_rows,
        k,
        trans_a: !rhs_k_first,
        trans_b: !lhs_k_last,
        lda: if rhs_k_first { n_cols } else { k },
        ldb: if lhs_k_last { k } else { m_rows },
        ldc: n_cols,
        stride_a: k * n_cols,
        stride_b: m_rows * k,
        stride_c: m_rows * n_cols,
    })
}

/// Where `step` runs (`cublas`: whether cuBLAS is there).
pub fn placement(p: &Program, kernels: &[KernelInfo], step: &Step, cublas: bool) -> Placement {
    match step {
        Step::Kernel { kernel, .. } if kernels[*kernel].launch.is_some() => Placement::Device,
        Step::Copy { .. } => Placement::Device,
        Step::Dot { lhs, rhs, out, dims } if cublas => match gemm(p, *lhs, *rhs, *out, dims) {
            Some(g) => Placement::Cublas(g),
            None => Placement::Host,
        },
        Step::SortByKeys { .. } => match super::sort::device_sort(p, step) {
            Some(s) => Placement::Sort(s),
            None => Placement::Host,
        },
        Step::While { .. } | Step::Conditional { .. } | Step::Call { .. } => Placement::Control,
        _ => Placement::Host,
    }
}

/// Where a slot's bytes are: `param 0`, `constant 2`, `temp [0, 4096)`,
/// `output 1`.
pub fn location(p: &Program, slot: Slot) -> String {
    match p.buffers[p.buffer_of(slot)] {
        Allocation::Parameter(i) => format!("param {i}"),
        Allocation::Constant(k) => format!("constant {k}"),
        Allocation::Temp { offset, size } => format!("temp [{offset}, {})", offset + size),
        Allocation::Output(i) => format!("output {i}"),
        Allocation::Unassigned | Allocation::Unused => "unassigned".into(),
    }
}

fn slot_text(p: &Program, s: Slot) -> String {
    let info = &p.slots[s];
    let layout = info
        .layout
        .as_ref()
        .map(|l| format!("{{{}}}", l.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")))
        .unwrap_or_default();
    format!("%{s} {}{layout} {}", info.shape, location(p, s))
}

/// The thunk sequence of every program (entry first), as text.
pub fn describe(programs: &[Program], entry: usize, kernels: &[KernelInfo], cublas: bool) -> String {
    let mut out = String::new();
    let order = std::iter::once(entry).chain((0..programs.len()).filter(|&i| i != entry));
    for i in order {
        let p = &programs[i];
        let _ = writeln!(
            out,
            "program {}{} (temp arena {} bytes)",
            p.name,
            if i == entry { ", entry" } else { "" },
            p.arena_size
        );
        for (k, &s) in p.param_leaves.iter().enumerate() {
            let _ = writeln!(out, "  parameter {k}: {}", slot_text(p, s));
        }
        for (n, step) in p.steps.iter().enumerate() {
            let (reads, writes) = match step {
                // Fusion parameters, then outputs.
                Step::Kernel { kernel, args } => {
                    let split = args.len().saturating_sub(kernels[*kernel].outputs);
                    (args[..split].to_vec(), args[split..].to_vec())
                }
                _ => step.reads_writes(),
            };
            let head = match (step, placement(p, kernels, step, cublas)) {
                (Step::Kernel { kernel, .. }, Placement::Device) => {
                    let k = &kernels[*kernel];
                    let l = k.launch.expect("a device kernel has launch dimensions");
                    format!(
                        "launch {} ({}) blocks {}x{}x{} threads {}x{}x{}",
                        k.name,
                        k.emitter,
                        l.blocks[0],
                        l.blocks[1],
                        l.blocks[2],
                        l.threads[0],
                        l.threads[1],
                        l.threads[2]
                    )
                }
                (Step::Copy { .. }, _) => "copy (device)".to_string(),
                (_, Placement::Cublas(g)) => format!(
                    "gemm (cuBLAS) {} batch {} m {} n {} k {}{}{}",
                    g.ty.name(),
                    g.batch,
                    g.m,
                    g.n,
                    g.k,
                    if g.trans_a { " transa" } else { "" },
                    if g.trans_b { " transb" } else { "" }
                ),
                (_, Placement::Sort(s)) => format!(
                    "sort by keys (device radix sort) {} x {} {} keys, {} passes",
                    s.slices,
                    s.len,
                    s.key_type.name(),
                    s.passes()
                ),
                (Step::While { body, trip_count: Some(n), .. }, _) => {
                    format!("while (host) {n} iterations, body {}", programs[*body].name)
                }
                (Step::While { cond, body, .. }, _) => {
                    format!(
                        "while (host, predicate read back) cond {} body {}",
                        programs[*cond].name, programs[*body].name
                    )
                }
                (Step::Conditional { branches, .. }, _) => {
                    let names: Vec<&str> = branches.iter().map(|b| programs[*b].name.as_str()).collect();
                    format!("conditional (host) branches {}", names.join(", "))
                }
                (Step::Call { program, .. }, _) => format!("call (host) {}", programs[*program].name),
                (other, _) => format!("{} (host)", host_step_name(other, kernels)),
            };
            let _ = writeln!(out, "  {n}: {head}");
            for s in &reads {
                if !writes.contains(s) {
                    let _ = writeln!(out, "       in  {}", slot_text(p, *s));
                }
            }
            for s in &writes {
                let role = if reads.contains(s) { "io " } else { "out" };
                let _ = writeln!(out, "       {role} {}", slot_text(p, *s));
            }
        }
        let outputs: Vec<String> = p.outputs.iter().map(|&s| slot_text(p, s)).collect();
        let _ = writeln!(out, "  result: {}", outputs.join(", "));
    }
    out
}

fn host_step_name(step: &Step, kernels: &[KernelInfo]) -> String {
    match step {
        Step::Kernel { kernel, .. } => format!("kernel {}", kernels[*kernel].name),
        Step::Relayout { .. } => "relayout".into(),
        Step::DeviceId { partition, .. } => if *partition { "partition-id" } else { "replica-id" }.into(),
        Step::Dot { .. } => "dot".into(),
        Step::Convolution { .. } => "convolution".into(),
        Step::Sort { comparator, .. } => format!("sort, comparator {}", kernels[*comparator].name),
        Step::SortByKeys { .. } => "sort by keys".into(),
        Step::Fft { kind, .. } => format!("fft {kind:?}"),
        Step::TopK { .. } => "topk".into(),
        Step::RngBitGenerator { algorithm, .. } => format!("rng-bit-generator {algorithm:?}"),
        Step::CustomCall { target, .. } => format!("custom-call {target}"),
        Step::Interpret { opcode, .. } => format!("{opcode} (interpreter)"),
        other => format!("{other:?}").split_whitespace().next().unwrap_or("step").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxla_library::{array::ArrayShape, dot::DotDims};

    fn program(shapes: &[&[i64]], ty: ElementType) -> Program {
        let mut p = Program::new("t");
        for s in shapes {
            p.new_slot(ArrayShape::new(ty, s.to_vec()), None, "x");
        }
        p
    }

    fn dims(batch: usize, lc: usize, rc: usize) -> DotDims {
        DotDims {
            lhs_batch: (0..batch).collect(),
            rhs_batch: (0..batch).collect(),
            lhs_contracting: vec![lc],
            rhs_contracting: vec![rc],
        }
    }

    #[test]
    fn plain_matmul_swaps_operands() {
        let p = program(&[&[2, 3], &[3, 5], &[2, 5]], ElementType::F32);
        let g = gemm(&p, 0, 1, 2, &dims(0, 1, 0)).unwrap();
        assert_eq!((g.m, g.n, g.k, g.trans_a, g.trans_b, g.lda, g.ldb, g.ldc), (5, 2, 3, false, false, 5, 3, 5));
    }

    #[test]
    fn transposed_operands_and_batches() {
        // lhs [4, K=3, M=2], rhs [4, N=5, K=3]
        let p = program(&[&[4, 3, 2], &[4, 5, 3], &[4, 2, 5]], ElementType::Bf16);
        let g = gemm(&p, 0, 1, 2, &dims(1, 1, 2)).unwrap();
        assert_eq!((g.batch, g.m, g.n, g.k, g.trans_a, g.trans_b, g.lda, g.ldb), (4, 5, 2, 3, true, true, 3, 2));
        assert_eq!((g.stride_a, g.stride_b, g.stride_c), (15, 6, 10));
    }

    #[test]
    fn vector_operands_and_unsupported_dots() {
        // [K] . [K, N]: M = 1.
        let p = program(&[&[3], &[3, 5], &[5]], ElementType::F64);
        let g = gemm(&p, 0, 1, 2, &dims(0, 0, 0)).unwrap();
        assert_eq!((g.m, g.n, g.k, g.ldb), (5, 1, 3, 3));
        let ints = program(&[&[2, 3], &[3, 5], &[2, 5]], ElementType::S32);
        assert!(gemm(&ints, 0, 1, 2, &dims(0, 1, 0)).is_none());
        let mixed =
            DotDims { lhs_batch: vec![1], rhs_batch: vec![0], lhs_contracting: vec![0], rhs_contracting: vec![1] };
        let p = program(&[&[3, 4], &[4, 3], &[4]], ElementType::F32);
        assert!(gemm(&p, 0, 1, 2, &mixed).is_none());
    }
}
