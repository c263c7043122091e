//! The fusion passes' cost model: a roofline estimate of one kernel's run
//! time, in the spirit of XLA:GPU's `GpuPerformanceModel`.
//!
//! A kernel (a fusion, or an unfused op, which runs as a kernel of its own)
//! costs a fixed launch overhead plus the larger of its memory time (bytes
//! of its distinct operands read once, plus bytes of its outputs written,
//! over the memory bandwidth) and its compute time (weighted elementwise
//! operations over the compute rate). Ops inside a fusion cost compute
//! only: their intermediate results never reach memory.
//!
//! Per-element weights: 0 for pure data movement (broadcast, reshape,
//! transpose, slice, ...; its memory is counted at the kernel boundary), 1
//! for cheap arithmetic, [`EXPENSIVE_WEIGHT`] for what
//! [`super::is_expensive`] calls expensive (transcendentals, divisions);
//! a reduction costs one combine per input element, a gather or
//! reduce-window one read per output element (times the window). An op a
//! fused consumer reads through an expanding broadcast (or gather, or
//! overlapping windows) is recomputed for every read and costs as much
//! more ([`recompute_factors`]).
//!
//! The device is a generic modern GPU ([`Device::default`]); only ratios
//! matter for the decisions.

use super::{elements, is_expensive, reads_elements_multiple_times, Src, View};
use rxla_ir::op::Op;

/// Weight of an expensive op, per element (a transcendental is tens of
/// instructions).
pub const EXPENSIVE_WEIGHT: f64 = 16.0;

/// The machine the estimates are for.
#[derive(Clone, Copy, Debug)]
pub struct Device {
    /// Memory bandwidth, bytes per second.
    pub bandwidth: f64,
    /// Elementwise operations per second.
    pub compute: f64,
    /// Fixed cost of a kernel launch, seconds.
    pub launch: f64,
}

impl Default for Device {
    fn default() -> Self {
        // An H100-class GPU: ~3 TB/s, ~30 T simple ops/s, ~1 us per launch
        // (XLA's kKernelLaunchOverhead).
        Self { bandwidth: 3.0e12, compute: 3.0e13, launch: 1.0e-6 }
    }
}

/// Weighted operations of one op inside a kernel.
pub fn op_flops(op: Op) -> f64 {
    let out: f64 = op.results().iter().map(|r| elements(*r) as f64).sum();
    let code = super::opcode_str(&op).unwrap_or_default();
    match code {
        "constant" | "iota" | "broadcast" | "reshape" | "bitcast" | "transpose" | "reverse" | "slice"
        | "dynamic_slice" | "concatenate" | "pad" | "copy" => 0.0,
        "reduce" => {
            let inputs: f64 = (0..op.num_operands() / 2).map(|i| elements(op.operand(i)) as f64).sum();
            inputs
        }
        "reduce_window" => {
            let window: f64 = rxla_ir::attrs::StructAttr::of(op, "window")
                .map(|w| w.list("size").iter().product::<i64>() as f64)
                .unwrap_or(1.0);
            out * window
        }
        "gather" | "dynamic_update_slice" | "scatter" => out,
        _ if is_expensive(op) => out * EXPENSIVE_WEIGHT,
        _ => out,
    }
}

/// Bytes of an array value (0 for anything else).
fn bytes(v: rxla_ir::op::Value) -> f64 {
    super::value_bytes(v) as f64
}

/// How many times a loop emitting `op` reads each element of its first
/// operand: more than once through an expanding broadcast or gather, or
/// overlapping windows (see [`recompute_factors`]); 1 otherwise.
pub fn first_operand_read_ratio(op: Op) -> f64 {
    if op.num_operands() == 0 || !reads_elements_multiple_times(op) {
        return 1.0;
    }
    if op.is("reduce_window") {
        return rxla_ir::attrs::StructAttr::of(op, "window")
            .map(|w| {
                let size: i64 = w.list("size").iter().product();
                let stride: i64 = w.list("stride").iter().product::<i64>().max(1);
                (size as f64 / stride as f64).max(1.0)
            })
            .unwrap_or(1.0);
    }
    let out = op.results().iter().map(|r| elements(*r)).max().unwrap_or(1).max(1) as f64;
    let input = (elements(op.operand(0)).max(1)) as f64;
    (out / input).max(1.0)
}

/// How many times each op of `view` computes each of its elements when the
/// view is emitted as one loop: 1 for the outputs; an op read through an
/// expanding broadcast or gather, or overlapping windows, is recomputed for
/// each read (users reading the same element share it, so a multiply used
/// op takes its most demanding user's factor).
pub fn recompute_factors(view: &View) -> Vec<f64> {
    let mut factor = vec![0.0f64; view.nodes.len()];
    for root in &view.roots {
        if let Src::Node(k, _) = root {
            factor[*k] = factor[*k].max(1.0);
        }
    }
    for u in (0..view.nodes.len()).rev() {
        let node = &view.nodes[u];
        for (i, src) in node.inputs.iter().enumerate() {
            let Src::Node(k, _) = src else { continue };
            let ratio = if i == 0 { node.facts.read_ratio } else { 1.0 };
            factor[*k] = factor[*k].max(factor[u] * ratio);
        }
    }
    factor
}

/// Estimated run time of `view` as one kernel, seconds.
pub fn kernel_time(device: &Device, view: &View) -> f64 {
    let read: f64 = view.params.iter().map(|v| bytes(*v)).sum();
    let written: f64 = view.roots.iter().map(|s| view.src_bytes(*s) as f64).sum();
    let factors = recompute_factors(view);
    let flops: f64 = view.nodes.iter().zip(&factors).map(|(n, f)| n.facts.flops * f.max(1.0)).sum();
    device.launch + ((read + written) / device.bandwidth).max(flops / device.compute)
}

/// Benefit of fusing a producer into all its consumers: the time of the
/// producer's kernel and its consumers' kernels unfused, minus the time of
/// the fused consumers (each recomputing the producer). Positive means
/// faster fused.
pub fn fusion_benefit(device: &Device, producer: &View, consumers: &[View], fused: &[View]) -> f64 {
    benefit_of_times(
        kernel_time(device, producer),
        consumers.iter().map(|c| kernel_time(device, c)),
        fused.iter().map(|f| kernel_time(device, f)),
    )
}

/// [`fusion_benefit`] from the kernel times (of the producer, of each
/// consumer, of each fused consumer), added up in the same order.
pub fn benefit_of_times(producer: f64, consumers: impl Iterator<Item = f64>, fused: impl Iterator<Item = f64>) -> f64 {
    let unfused: f64 = producer + consumers.sum::<f64>();
    let fused: f64 = fused.sum();
    unfused - fused
}
