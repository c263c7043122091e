//! Pipelines as data: a [`Step`] is a pass by name (with options) or a
//! group of steps repeated to a fixed point (XLA's HloPassFix), and [`run`]
//! runs a list of them pass by pass. Which passes a pipeline holds is the
//! business of the crates that own the passes (`rxla_passes::pipeline` for
//! the HLO pipelines, `rxla_lowering::pipeline` for the lowering).

use crate::registry::PassInfo;
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
/// module text stops changing), finding each pass by name with `lookup`
/// (a crate's registry, e.g. `rxla_passes::lookup`). Unknown pass names
/// and pass failures are errors. (`hlo-opt` has its own driver with IR
/// printing and the interpreter check; this is the programmatic entry the
/// backends, tests and benchmarks use, through `rxla_passes::pipeline::run`.)
pub fn run(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    steps: &[Step],
    options: &mut RunOptions,
    lookup: fn(&str) -> Option<&'static PassInfo>,
) -> Result<(), crate::PassError> {
    for step in steps {
        match step {
            Step::Pass { name, .. } if options.disabled.contains(name) => {}
            Step::Pass { name, options: pass_options } => {
                let info = lookup(name).ok_or_else(|| crate::PassError(format!("unknown pass '{name}'")))?;
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
                let mut before = Snapshot::of(module);
                for _ in 0..*max_iterations {
                    run(context, module, steps, options, lookup)?;
                    let after = Snapshot::of(module);
                    if after == before {
                        break;
                    }
                    before = after;
                }
            }
        }
    }
    Ok(())
}

/// What a fixed-point group compares to tell whether an iteration changed
/// the module: its structure ([`crate::structure::snapshot`]), or its text
/// where that cannot be read (IR with branches between blocks).
#[derive(PartialEq, Eq)]
pub enum Snapshot {
    Structure(crate::structure::Fingerprint),
    Text(String),
}

impl Snapshot {
    pub fn of(module: &melior::ir::Module) -> Snapshot {
        match crate::structure::snapshot(module.as_operation().to_raw()) {
            Some(s) => Snapshot::Structure(s),
            None => Snapshot::Text(module.as_operation().to_string()),
        }
    }
}
