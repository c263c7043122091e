//! What the fusion passes share: which ops may be fused, what a fusion's
//! "hero" is and which kind (`kLoop`/`kInput`) it therefore gets, a
//! detached view of a would-be fusion (so a pass can judge a fusion before
//! making it), the IR surgery that makes one, and cycle checks.
//!
//! The passes themselves are [`priority`] (`priority-fusion`, XLA's
//! PriorityFusion) and [`multi_output`] (`multi-output-fusion`, XLA's
//! MultiOutputFusion); [`cost`] is the roofline cost model both consult.
//! What they share with the emitters (an `hlo.fusion`'s `FusionKind`,
//! opcodes, the memoized value types, reduction and transpose shapes) is
//! `rxla_ir::hlo_analysis`. This module holds the op classification and
//! the shared fusion rules; views are in `view.rs`, the IR surgery in
//! `materialize.rs`.
//!
//! ## Representation
//!
//! A fusion is `hlo.fusion <kind> @fused_computation(operands)` with one
//! result per output; the fused computation is a private `func.func` whose
//! parameters are the fusion's operands and whose `func.return` operands are
//! its outputs (several for a multi-output fusion; the HLO exporter turns
//! that into XLA's tuple root and `get-tuple-element`s). Each fused
//! computation belongs to exactly one fusion op.
//!
//! ## Nodes
//!
//! The passes work on the top-level ops of a computation ("nodes"): a plain
//! fusible op, or an `hlo.fusion` of kind `kLoop`/`kInput` whose results are
//! arrays. A [`View`] is a node's dataflow graph detached from the IR:
//! its parameters (outer SSA values), its ops (the op itself, or the ops of
//! the fused computation) with their inputs, and its roots. Views merge
//! (producer into consumer, siblings side by side) without touching the IR;
//! [`materialize`] turns a view into a fused computation and fusion op.
//! Each node of a view carries its op's [`Facts`] (what the rules and the
//! cost model ask of it), computed once when the op enters a view; the
//! passes keep each node's view while its op and operands stay the same
//! (see "Compile time" in `docs/passes/fusion.md`).
//!
//! ## What may be fused
//!
//! Elementwise ops (arithmetic, transcendental, compare, select, clamp,
//! convert, bitcast-convert, copy, ...), broadcast, reshape, bitcast,
//! transpose, reverse, slice, dynamic-slice, concatenate, pad, iota,
//! constants, gather, reduce, reduce-window, dynamic-update-slice and
//! (single-operand) scatter, all with static array operands and results.
//! Everything else is never fused: dot, convolution, custom-call, sort, fft,
//! while, conditional, call, map, rng ops, collectives, infeed/outfeed,
//! send/recv, tuple/get-tuple-element, opt-barrier, ... and any op with
//! side effects.

pub mod cost;
mod materialize;
pub mod multi_output;
pub mod priority;
mod view;

pub use materialize::{build_planned, materialize, materialize_with_clones, restore_topological_order};
pub use view::{is_reduce_intermediate, Facts, Functions, Inputs, Src, VNode, View};

use rxla_ir::{
    computation,
    hlo_analysis::{
        array_type, elements, is_static_array_value, opcode_str, reduction_dimensions, tiled_transpose, type_facts,
        value_bytes, FusionKind, FxHashMap, FxHashSet, TypeCacheGuard,
    },
    op::{Op, Value},
};
use std::collections::HashSet;

/// At most this many operands plus outputs per fusion (XLA:GPU's
/// `MaxOperandsAndOutputsPerFusion`: a kernel's parameter budget).
pub const MAX_OPERANDS_AND_OUTPUTS: usize = 96;
/// At most this many unnested (row/column) reductions in one fusion: each
/// needs registers and shared memory (XLA:GPU's
/// `kMaxUnnestedReductionOutputsPerFusion`).
pub const MAX_UNNESTED_REDUCTIONS: usize = 8;
/// Shared memory one kernel may use, bytes (reductions' and transposes'
/// tiles; 48 KiB, the per-block default of every CUDA GPU).
pub const SHARED_MEMORY_PER_BLOCK: u64 = 48 * 1024;
/// At most this many ops in one fused computation (keeps emitted kernels,
/// and the passes' own work, bounded; XLA's "overly large code" check).
pub const MAX_FUSED_OPS: usize = 256;
/// A producer duplicated into several consumers has at most this many ops.
pub const MAX_DUPLICATED_OPS: usize = 32;
/// An expensive op (exp, divide, ...) is duplicated into several consumers
/// only if its result has at most this many elements: recomputing so few is
/// cheaper than the kernel launch it saves.
pub const SMALL_EXPENSIVE_ELEMENTS: i64 = 1024;

// ---------------------------------------------------------------------------
// Op classification.

/// Unary elementwise opcodes (one operand, same-shape result).
const UNARY: &[&str] = &[
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cbrt",
    "ceil",
    "count_leading_zeros",
    "cosine",
    "cosh",
    "erf",
    "exponential",
    "exponential_minus_one",
    "floor",
    "imag",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "not",
    "popcnt",
    "real",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "copy",
    "convert",
    "bitcast_convert",
    "reduce_precision",
];

/// Binary and ternary elementwise opcodes.
const NARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "mulhi",
    "complex",
    "compare",
    "select",
    "clamp",
    "stochastic_convert",
];

/// Non-elementwise opcodes the emitters handle inside a fusion.
pub(crate) const STRUCTURAL: &[&str] = &[
    "constant",
    "iota",
    "broadcast",
    "reshape",
    "bitcast",
    "transpose",
    "reverse",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "concatenate",
    "pad",
    "gather",
    "reduce",
    "reduce_window",
    "scatter",
];

/// Elementwise (XLA's `IsElementwise`): a bitcast-convert only where it
/// keeps the element width (else one element becomes several, or a slice
/// of one, and the ranks differ).
pub fn is_elementwise(op: Op) -> bool {
    match opcode_str(&op) {
        Some("bitcast_convert") => match (array_type(op.operand(0)), array_type(op.result(0))) {
            (Some(from), Some(to)) => from.elem.bit_width() == to.elem.bit_width(),
            _ => false,
        },
        Some(o) => UNARY.contains(&o) || NARY.contains(&o),
        None => false,
    }
}

/// True if `op` may be part of a fusion at all: a fusible opcode whose
/// operands and results are all static arrays. Scatter only with a single
/// operand (the emitters' scatter fusion), reduce and reduce-window with
/// their reducer.
pub fn is_fusible_op(op: Op) -> bool {
    let Some(code) = opcode_str(&op) else { return false };
    let known = UNARY.contains(&code) || NARY.contains(&code) || STRUCTURAL.contains(&code);
    if !known || op.num_results() == 0 {
        return false;
    }
    if code == "scatter" && op.num_operands() != 3 {
        return false;
    }
    (0..op.num_operands()).all(|i| is_static_array_value(op.operand(i)))
        && (0..op.num_results()).all(|i| is_static_array_value(op.result(i)))
}

/// The callee of a fusion op.
pub fn callee_name(op: Op) -> Option<String> {
    op.symbol_attr("calls")
}

/// True if `op` is a node the passes may fuse further: a fusible plain op,
/// or a `kLoop`/`kInput` fusion with static array results.
pub fn is_node(op: Op) -> bool {
    if op.is("fusion") {
        return matches!(FusionKind::of(op), Some(FusionKind::Loop | FusionKind::Input))
            && op.num_results() > 0
            && (0..op.num_results()).all(|i| is_static_array_value(op.result(i)))
            && (0..op.num_operands()).all(|i| is_static_array_value(op.operand(i)));
    }
    is_fusible_op(op)
}

/// XLA's `InstructionFusion::IsExpensive`: ops whose recomputation costs
/// much more than reading their result back (transcendentals, divisions,
/// reductions, gathers, ...), never duplicated into several consumers.
pub fn is_expensive(op: Op) -> bool {
    let Some(code) = opcode_str(&op) else { return true };
    let complex = || op.num_results() > 0 && array_type(op.result(0)).is_some_and(|t| t.elem.is_complex());
    match code {
        "add"
        | "and"
        | "bitcast"
        | "bitcast_convert"
        | "broadcast"
        | "ceil"
        | "clamp"
        | "count_leading_zeros"
        | "compare"
        | "complex"
        | "concatenate"
        | "constant"
        | "convert"
        | "copy"
        | "dynamic_slice"
        | "dynamic_update_slice"
        | "floor"
        | "imag"
        | "iota"
        | "is_finite"
        | "maximum"
        | "minimum"
        | "multiply"
        | "negate"
        | "not"
        | "or"
        | "xor"
        | "pad"
        | "popcnt"
        | "real"
        | "reduce_precision"
        | "reshape"
        | "reverse"
        | "round_nearest_afz"
        | "round_nearest_even"
        | "select"
        | "shift_left"
        | "shift_right_arithmetic"
        | "shift_right_logical"
        | "slice"
        | "stochastic_convert"
        | "subtract"
        | "transpose"
        | "mulhi" => false,
        "abs" | "cosine" | "sign" | "sine" => complex(),
        // Integer division by a constant becomes multiplies and shifts.
        "divide" | "remainder" => {
            let integral = array_type(op.result(0)).is_some_and(|t| t.elem.is_integer());
            !(integral && crate::constant::splat(op.operand(1)).is_some() && is_scalar_constant_like(op.operand(1)))
        }
        _ => true,
    }
}

/// A constant with at most one element, or a broadcast of one.
fn is_scalar_constant_like(v: Value) -> bool {
    match v.op() {
        Some(op) if op.is("constant") => elements(v) <= 1,
        Some(op) if op.is("broadcast") => is_scalar_constant_like(op.operand(0)),
        _ => false,
    }
}

/// XLA's `IsSmallConstant`: a constant with at most one element, which the
/// emitters fold into the code.
pub fn is_small_constant(op: Op) -> bool {
    op.is("constant") && op.num_results() == 1 && {
        let t = type_facts(op.result(0));
        t.static_array && t.elements <= 1
    }
}

// ---------------------------------------------------------------------------
// Views ([`View`], [`Facts`], [`Functions`]: in `view.rs`).

// ---------------------------------------------------------------------------
// Shared fusion rules.

/// XLA:GPU's `FusionFitsInBudget` for the fused view: operands plus
/// outputs, unnested reductions, shared memory, and rxla's op cap.
/// `consumer_params` is the consumer's operand count for producer-consumer
/// fusion (a fusion that reads no more than its consumer did fits).
pub fn fits_in_budget(view: &View, consumer_params: Option<usize>) -> Result<(), &'static str> {
    if view.len() > MAX_FUSED_OPS {
        return Err("the fusion would have too many ops");
    }
    if view.unnested_reductions() > MAX_UNNESTED_REDUCTIONS {
        return Err("too many unnested reductions in one fusion");
    }
    if view.shared_memory() > SHARED_MEMORY_PER_BLOCK {
        return Err("shared memory over budget");
    }
    let small_enough = consumer_params.is_some_and(|c| view.params.len() <= c);
    if !small_enough && view.params.len() + view.roots.len() > MAX_OPERANDS_AND_OUTPUTS {
        return Err("too many operands and outputs for one kernel");
    }
    Ok(())
}

/// The in-place rule (XLA's `ShouldFuseInPlaceOp`): fusing `producer` into
/// an in-place `consumer` (dynamic-update-slice or scatter, or a fusion
/// with one at its root) must not let the consumer overwrite a buffer some
/// other fused op still reads. rxla refuses every producer that is not
/// elementwise and reads the updated buffer (XLA allows a matching slice).
pub fn in_place_ok(producer: &View, consumer: &View) -> Result<(), &'static str> {
    for i in consumer.in_place_params() {
        let buffer = consumer.params[i];
        // The buffer read another way too (the consumer's params are unique,
        // so look for other reads of the same parameter).
        let reads = consumer.nodes.iter().flat_map(|n| n.inputs.iter()).filter(|s| **s == Src::Param(i)).count();
        if reads > 1 {
            return Err("the in-place buffer is read twice by its consumer");
        }
        if !producer.is_elementwise() && producer.params.contains(&buffer) {
            return Err("the producer reads the buffer its consumer updates in place");
        }
    }
    Ok(())
}

/// The scatter rule (XLA's `CanEmitInputFusedScatter`): nothing fuses into
/// a scatter's output or updated operand, and no producer of a scatter's
/// fusion may read the operand it updates.
pub fn scatter_ok(producer: &View, producer_results: &[Value], consumer: &View) -> Result<(), &'static str> {
    if producer.any_facts(|f| f.is_scatter()) {
        return Err("nothing fuses into the output of a scatter");
    }
    for root in &consumer.roots {
        let Src::Node(k, _) = root else { continue };
        let node = &consumer.nodes[*k];
        if !node.facts.is_scatter() {
            continue;
        }
        let Src::Param(i) = node.inputs[0] else {
            continue;
        };
        let operand = consumer.params[i];
        if producer_results.contains(&operand) {
            return Err("the producer is the operand a scatter updates in place");
        }
        if producer.params.contains(&operand) {
            return Err("the producer reads the operand a scatter updates in place");
        }
    }
    // A scatter anywhere but at the root cannot be emitted.
    if consumer.any_facts(|f| f.is_scatter())
        && !consumer.roots.iter().any(|r| matches!(r, Src::Node(k, _) if consumer.nodes[*k].facts.is_scatter()))
    {
        return Err("a scatter must stay its fusion's root");
    }
    Ok(())
}

/// XLA's `IsExpensiveToRepeat`: a reduction the emitters do not tile
/// (not a row/column reduction) reading more than 10 inputs per output, or
/// a reduce-window with a window of more than 10 elements.
pub fn is_expensive_to_repeat(op: Op) -> bool {
    const MAX_INPUTS_PER_OUTPUT: i64 = 10;
    if op.is("reduce") && !reduction_dimensions(op).is_some_and(|d| d.unnested_is_faster()) {
        return elements(op.operand(0)) / elements(op.result(0)).max(1) > MAX_INPUTS_PER_OUTPUT;
    }
    if op.is("reduce_window") {
        let size = rxla_ir::attrs::StructAttr::of(op, "window").map(|w| w.list("size")).unwrap_or_default();
        return size.iter().product::<i64>() > MAX_INPUTS_PER_OUTPUT;
    }
    false
}

/// True if `op` reads some elements of its first operand several times
/// (XLA's `IfFusedReadsElementsMultipleTimes`): an expanding broadcast or
/// gather, or a reduce-window whose windows overlap.
pub fn reads_elements_multiple_times(op: Op) -> bool {
    if op.is("broadcast") || op.is("gather") {
        return elements(op.result(0)) > elements(op.operand(0));
    }
    if op.is("reduce_window") {
        let Some(w) = rxla_ir::attrs::StructAttr::of(op, "window") else {
            return true;
        };
        let (size, stride) = (w.list("size"), w.list("stride"));
        return size.iter().enumerate().any(|(i, s)| *s > stride.get(i).copied().unwrap_or(1));
    }
    false
}

/// XLA's `CreatesHeavyComputation`: a producer with an expensive-to-repeat
/// reduction that the consumer would read some elements of many times
/// recomputes the reduction for each read. rxla also counts every reduce
/// the emitters compute elementally (short rows), as XLA:CPU's fusion never
/// fuses a reduce into a consumer: nested in another reduce (softmax over
/// 10 classes: max, then the sum of exp(x - max), then x - log(sum)) each
/// output element recomputed the inner reduce for every element of the
/// outer one, and a [16, 10] log-softmax gradient took 74 us.
pub fn creates_heavy_computation(producer: &View, consumer: &View, producer_results: &[Value]) -> bool {
    if !producer.any_facts(|f| f.is_expensive_to_repeat() || f.is_reduce()) {
        return false;
    }
    // Ops of the consumer downstream of the producer's results.
    let mut reached = vec![false; consumer.nodes.len()];
    for (k, n) in consumer.nodes.iter().enumerate() {
        reached[k] = n.inputs.iter().any(|s| match s {
            Src::Param(i) => producer_results.contains(&consumer.params[*i]),
            Src::Node(j, _) => reached[*j],
        });
        if reached[k] && n.facts.reads_elements_multiple_times() {
            return true;
        }
    }
    false
}

/// True if the producer may be duplicated into several consumers: small
/// and cheap (no expensive op, unless on at most
/// [`SMALL_EXPENSIVE_ELEMENTS`] elements).
pub fn duplicable(view: &View) -> bool {
    view.len() <= MAX_DUPLICATED_OPS && view.nodes.iter().all(|n| n.facts.is_duplicable())
}

// ---------------------------------------------------------------------------
// IR surgery ([`materialize`], in `materialize.rs`).

/// The computations fusion runs in (XLA's `GetFusibleComputations`): the
/// entry, and computations reached through call, while and conditional;
/// not fused computations, reducers, comparators, scatter/select
/// combiners or async bodies. Computations with control dependencies
/// (`hlo.control_predecessors`, which name instructions fusion would
/// rename) are left alone.
pub fn fusible_computations(module: Op) -> Vec<Op> {
    let funcs = computation::functions(module);
    let mut embedded: HashSet<String> = HashSet::new();
    for func in &funcs {
        for op in func.walk_preorder().into_iter().skip(1) {
            if op.is("call") || op.is("while") || op.is("conditional") {
                continue;
            }
            embedded.extend(op.symbol_uses());
        }
    }
    funcs
        .into_iter()
        .filter(|f| !embedded.contains(&computation::name(*f)))
        .filter(|f| !f.walk_preorder().into_iter().any(|op| op.has_attr("hlo.control_predecessors")))
        .collect()
}
