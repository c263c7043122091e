//! The default HLO pipelines: which passes run, in which order, for each
//! platform (what `hlo-opt --stage=hlo --platform=cpu|gpu` runs and what
//! the backends compile from).
//!
//! The order follows XLA's CPU and GPU compilers: expand what the backend
//! does not implement directly, simplify to a fixed point, canonicalize
//! dots/gathers/scatters and layouts, then fuse, then clean up. Every pass
//! can be skipped by name (`--disable-passes`), which is how users bisect a
//! miscompile.

use std::fmt;

/// A target platform of the HLO pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    Cpu,
    Gpu,
}

impl Platform {
    pub fn name(self) -> &'static str {
        match self {
            Platform::Cpu => "cpu",
            Platform::Gpu => "gpu",
        }
    }
}

/// One step of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A registered pass with its options (`name{options}` syntax).
    Pass { name: &'static str, options: &'static str },
    /// Steps repeated until none of them changes the module (XLA's
    /// HloPassFix), at most `max_iterations` times.
    Fixpoint { name: &'static str, steps: Vec<Step>, max_iterations: usize },
}

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

/// The default HLO pipeline of `platform`.
pub fn hlo_pipeline(platform: Platform) -> Vec<Step> {
    let mut steps = vec![
        // Calls become straight-line code; zero-sized arrays become constants.
        p("call-inliner"),
        p("zero_sized_hlo_elimination"),
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
        p("broadcast_canonicalizer"),
        simplification(),
        p("while-loop-trip-count-annotator"),
        p("flatten-call-graph"),
    ];
    // No stable-sort-expander: both runtimes sort stably (the GPU's sorts
    // on the host), and without the iota tie breaker comparators stay
    // simple enough to sort by keys. An unstable GPU sort kernel would need
    // it back.
    if platform == Platform::Gpu {
        steps.push(p("reduce-window-rewriter"));
    }
    steps.extend([
        // Layouts: make every array's layout the default one.
        p("layout-normalization"),
        // The normalizer first: the grouper only handles default layouts.
        p("reduction-layout-normalizer"),
        p("reduction-dimension-grouper"),
        Step::Fixpoint { name: "post-layout-simplification", steps: vec![p("algsimp"), p("cse"), p("dce")], max_iterations: 4 },
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

/// Every pass name a pipeline uses (for checking against the registry).
pub fn pass_names(steps: &[Step]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Pass { name, .. } => out.push(*name),
            Step::Fixpoint { steps, .. } => out.extend(pass_names(steps)),
        }
    }
    out
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Pass { name, options: "" } => f.write_str(name),
            Step::Pass { name, options } => write!(f, "{name}{{{options}}}"),
            Step::Fixpoint { name, steps, max_iterations } => {
                write!(f, "fixpoint<{name}, max {max_iterations}>(")?;
                for (i, s) in steps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    s.fmt(f)?;
                }
                f.write_str(")")
            }
        }
    }
}

/// How [`run`] runs a pipeline.
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Pass names to skip.
    pub disabled: &'a [&'a str],
    /// Verify the module after every pass.
    pub verify_each: bool,
    /// When set, receives each pass's name and wall time, in run order.
    pub timings: Option<&'a mut Vec<(&'static str, std::time::Duration)>>,
}

/// Runs `steps` over `module` pass by pass (fixpoint groups until the
/// module text stops changing). Unknown pass names and pass failures are
/// errors. (`hlo-opt` has its own driver with IR printing and the
/// interpreter check; this is the programmatic entry the backends, tests
/// and benchmarks use.)
pub fn run(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    steps: &[Step],
    options: &mut RunOptions,
) -> Result<(), crate::PassError> {
    for step in steps {
        match step {
            Step::Pass { name, .. } if options.disabled.contains(name) => {}
            Step::Pass { name, options: pass_options } => {
                let info = crate::lookup(name).ok_or_else(|| crate::PassError(format!("unknown pass '{name}'")))?;
                let manager = melior::pass::PassManager::new(context);
                manager.enable_verifier(options.verify_each);
                manager.add_pass((info.create)(&crate::PassOptions::parse(pass_options)?)?);
                let start = std::time::Instant::now();
                manager.run(module).map_err(|e| crate::PassError(format!("pass '{name}' failed: {e}")))?;
                if let Some(timings) = options.timings.as_deref_mut() {
                    timings.push((name, start.elapsed()));
                }
            }
            Step::Fixpoint { steps, max_iterations, .. } => {
                for _ in 0..*max_iterations {
                    let before = module.as_operation().to_string();
                    run(context, module, steps, options)?;
                    if module.as_operation().to_string() == before {
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}
