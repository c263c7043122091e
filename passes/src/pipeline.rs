//! The default HLO pipelines: which passes run, in which order, for each
//! platform (what `hlo-opt --stage=hlo --platform=cpu|gpu` runs and what
//! the backends compile from).
//!
//! The order follows XLA's CPU and GPU compilers: expand what the backend
//! does not implement directly, simplify to a fixed point, canonicalize
//! dots/gathers/scatters and layouts, then fuse, then clean up. Every pass
//! can be skipped by name (`--disable-passes`), which is how users bisect a
//! miscompile.

pub use rxla_ir::pipeline::{pass_names, Platform, RunOptions, Step};

fn p(name: &'static str) -> Step {
    Step::Pass { name, options: "" }
}

fn with(name: &'static str, options: &'static str) -> Step {
    Step::Pass { name, options }
}

/// The simplification loop both platforms run to a fixed point.
fn simplification() -> Step {
    Step::Fixpoint {
        name: "simplification",
        steps: vec![
            p("algsimp"),
            p("constant_folding"),
            p("simplify-conditional"),
            p("simplify-while-loops"),
            p("reshape-mover"),
            p("tuple-simplifier"),
            p("cse"),
            p("dce"),
        ],
        max_iterations: 8,
    }
}

/// The SPMD stage: every instruction given a sharding, then the entry
/// rewritten into the program each of the module's `num_partitions`
/// partitions runs, its independent all-reduces combined (XLA runs its
/// combiner in the backend; rxla runs it here, where the partitioner has
/// just made them).
pub fn spmd_pipeline() -> Vec<Step> {
    vec![p("sharding-propagation"), p("spmd-partitioner"), p("all-reduce-combiner")]
}

/// The default HLO pipeline of `platform`.
pub fn hlo_pipeline(platform: Platform) -> Vec<Step> {
    let mut steps = vec![
        // rxla runs one device: sharding annotations are identities.
        p("sharding-remover"),
        // Calls become straight-line code; zero-sized arrays become constants.
        p("call-inliner"),
        p("zero_sized_hlo_elimination"),
        // Layouts on intermediate values are the frontend's hints.
        p("default-layouts"),
        // Ops the backends implement by expansion.
        p("batchnorm_expander"),
        p("logistic-expander"),
        p("comparison-expander"),
        p("rng-expander"),
        p("rng-bit-generator-expander"),
        p("select_and_scatter_expander"),
        p("operand_upcaster"),
        p("result_caster"),
        // Canonical forms the emitters expect.
        p("gather_simplifier"),
        p("scatter_simplifier"),
        p("dot_decomposer"),
        // XLA's default xla_allow_excess_precision: a bf16 result converted
        // to f32 is not rounded first. Where XLA's FloatNormalization runs:
        // after the dot decomposer, whose reshape after a dot keeps the
        // dot's rounding.
        p("excess-precision"),
        // No backend has f8 arithmetic: XLA:CPU computes it in f16.
        p("float-normalization"),
        p("broadcast_canonicalizer"),
        // XLA's inexact division and dot rules (part of its algsimp),
        // once, where XLA applies them: before CSE merges the divisors'
        // broadcasts.
        p("algsimp"),
        p("divide-to-multiply"),
        p("dot-strength-reduction"),
        p("dus-accumulate"),
        simplification(),
        p("while-loop-trip-count-annotator"),
        p("flatten-call-graph"),
    ];
    // XLA:CPU's runtime top-k for sorts of which only a prefix is used
    // (after the simplification, which removes the tuples between the sort
    // and its slices). The GPU sorts on the device (or will): not there.
    if platform == Platform::Cpu {
        steps.push(p("topk-rewriter"));
    }
    // No stable-sort-expander: both runtimes sort stably (the GPU's sorts
    // on the host), and without the iota tie breaker comparators stay
    // simple enough to sort by keys. An unstable GPU sort kernel would need
    // it back.
    // bf16/f16 sums in XLA:CPU's order (sequential windows of 32), on the
    // logical dimensions, before layouts and the dimension grouper.
    steps.push(p("windowed-reduction-rewriter"));
    // Long scans (cumsum) as 16-wide trees on both platforms: XLA:CPU's
    // cumulative sums round in that order too.
    steps.push(p("reduce-window-rewriter"));
    steps.extend([
        // Layouts: make every array's layout the default one.
        p("layout-normalization"),
        // The normalizer first: the grouper only handles default layouts.
        p("reduction-layout-normalizer"),
        p("reduction-dimension-grouper"),
        Step::Fixpoint {
            name: "post-layout-simplification",
            steps: vec![p("algsimp"), p("cse"), p("dce")],
            max_iterations: 4,
        },
        // After the simplification, which would merge integer splits
        // back: a few long rows become many short ones to parallelize.
        p("tree-reduction-rewriter"),
        // Fusion, then merge what fusion duplicated.
        p("priority-fusion"),
        p("multi-output-fusion"),
        p("cse"),
        // Whatever still needs a kernel becomes a fusion of its own.
        p("fusion-wrapper"),
        with("dce", "remove-dead-computations=true"),
    ]);
    steps
}

/// Runs `steps` (HLO passes from [`crate::registry`](mod@crate::registry)) over `module` pass
/// by pass: [`rxla_ir::pipeline::run`] with this crate's registry.
pub fn run(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    steps: &[Step],
    options: &mut RunOptions,
) -> Result<(), rxla_ir::PassError> {
    rxla_ir::pipeline::run(context, module, steps, options, crate::lookup)
}
