//! The lowering pipelines: emitter IR to the `llvm` dialect, CPU and GPU
//! flavours (XLA's emitter compilation pipeline, `emitter_base.cc`), as
//! lists of passes that `hlo-opt --stage=scf|llvm-mlir` runs pass by pass
//! and the backends run programmatically ([`run`]).
//!
//! Three stages: `scf` (loops over flat tensors), `vector` (the
//! contiguous accesses of lane loops as vector transfers; still tensors)
//! and `llvm-mlir` (pointers, loads and stores, math expanded, everything
//! in the `llvm` dialect).

use melior::{
    ir::Module,
    pass::{OperationPassManager, PassManager},
    Context,
};
use mlir_sys::{mlirOpPassManagerAddPipeline, MlirStringRef};
pub use rxla_ir::pipeline::{Platform, Step};
use std::ffi::c_void;

fn p(name: &'static str) -> Step {
    Step::Pass { name, options: "" }
}

/// Upstream `canonicalize` without `RemoveDuplicateSuccessorInputUses`
/// (LLVM 22's `RegionBranchOpInterface` patterns): it compares every pair
/// of a loop's iter_args, each time the greedy driver visits the loop, and
/// the emitters' reduction loops carry dozens (one accumulator per lane
/// and reducer); it took a fifth of the CPU compile of a ResNet-50
/// training step. The emitters never give a loop two iter_args that are
/// the same value on every path, which is all it would find. The name is
/// the pattern's C++ type name; should upstream rename it, the option
/// would silently stop applying, which the test below catches.
///
/// `region-simplify=disabled` skips the driver's region simplification
/// (unreachable-block erasure, region DCE, identical-block merging) after
/// every round: it walks whole kernels each time and was 40% of the
/// canonicalizations' time on a ResNet-50 training step, and the
/// emitters' structured loops give it nothing to do (the `llvm-mlir`
/// output is byte-identical without it on the oracle corpus and the
/// bench models).
fn canonicalize() -> Step {
    Step::Pass {
        name: "canonicalize",
        options: "disable-patterns='(anonymous namespace)::RemoveDuplicateSuccessorInputUses' \
                  region-simplify=disabled",
    }
}

/// A target-specific pass: `target=gpu` on the GPU.
fn t(name: &'static str, platform: Platform) -> Step {
    let options = match platform {
        Platform::Cpu => "",
        Platform::Gpu => "target=gpu",
    };
    Step::Pass { name, options }
}

/// Emitter IR to `scf` over flat tensors.
pub fn scf_steps(platform: Platform) -> Vec<Step> {
    let mut steps = Vec::new();
    if platform == Platform::Gpu {
        // Warp shuffles call the combiner, which xla-inline then inlines.
        steps.push(p("xla-lower-shuffles"));
    }
    steps.extend([
        // Subgraph functions into their callers (bounded growth).
        p("xla-inline"),
        p("xla-simplify-indexing"),
        p("xla-lower-loops"),
        canonicalize(),
        p("xla-flatten-tensors"),
        p("xla-simplify-indexing"),
        canonicalize(),
    ]);
    steps
}

/// The contiguous accesses of lane loops as `vector` transfers.
pub fn vector_steps(platform: Platform) -> Vec<Step> {
    vec![t("xla-vectorize-loads-stores", platform)]
}

/// `scf` and `vector` over tensors to the `llvm` dialect (and `nvvm` on the GPU).
pub fn llvm_steps(platform: Platform) -> Vec<Step> {
    vec![
        p("xla-expand-narrow-floats"),
        t("xla-lower-tensors", platform),
        p("xla-lower-indexing"),
        canonicalize(),
        p("loop-invariant-code-motion"),
        p("convert-complex-to-standard"),
        t("xla-expand-math", platform),
        // FMAs where LLVM can form them, as XLA compiles its kernels.
        p("xla-contract-float-ops"),
        p("convert-scf-to-cf"),
        p("convert-to-llvm"),
        p("reconcile-unrealized-casts"),
        canonicalize(),
    ]
}

/// The whole lowering.
pub fn lowering_steps(platform: Platform) -> Vec<Step> {
    let mut steps = scf_steps(platform);
    steps.extend(vector_steps(platform));
    steps.extend(llvm_steps(platform));
    steps
}

/// A pass by name: the lowering passes of this crate, or upstream.
fn add(manager: &OperationPassManager, name: &str, options: &str) -> Result<(), String> {
    if let Some(info) = crate::lookup(name) {
        let options = rxla_ir::PassOptions::parse(options).map_err(|e| e.0)?;
        manager.add_pass((info.create)(&options).map_err(|e| e.0)?);
        return Ok(());
    }
    let text = if options.is_empty() { name.to_string() } else { format!("{name}{{{options}}}") };
    let mut message = String::new();
    unsafe extern "C" fn collect(s: MlirStringRef, user: *mut c_void) {
        // SAFETY: `user` is the String below; `s` is valid for the call.
        unsafe {
            let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
            (*(user as *mut String)).push_str(&String::from_utf8_lossy(bytes));
        }
    }
    let text_ref = MlirStringRef { data: text.as_ptr() as *const _, length: text.len() };
    // SAFETY: live pass manager; the callback only touches `message`.
    let ok = unsafe {
        mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            text_ref,
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    if ok.value == 0 {
        return Err(format!("cannot add pass '{text}': {}", message.trim()));
    }
    Ok(())
}

/// True if `module` holds kernel modules (`builtin.module`s in its body),
/// as the emitters make them.
fn has_kernel_modules(module: &Module) -> bool {
    rxla_ir::op::Op::of(&module.as_operation()).body_ops().iter().any(|op| op.is_named("builtin.module"))
}

/// The dialects whose ops the kernel lowering reads or creates, loaded
/// before the kernels are lowered in parallel (no dialect may be loaded
/// while the context is multi-threaded; the pass manager loads the
/// passes' declared dependent dialects itself). Not every registered
/// dialect: loading all of them (linalg, tosa, spirv, ...) made every
/// compile pay for their operation tables and `canonicalize` collect their
/// patterns, half of the lowering time of a small module.
const LOWERING_DIALECTS: [&str; 18] = [
    "func", "arith", "math", "scf", "cf", "vector", "tensor", "memref", "affine", "index", "ub", "complex", "llvm",
    "gpu", "nvvm", "hlo", "xla", "xla_gpu",
];

/// Runs `steps` over `module` in one pass manager (fixpoint groups are
/// run once: the lowering has none). Names are resolved in this crate's
/// registry, then upstream (upstream passes need
/// `melior::utility::register_all_passes()` to have run).
///
/// A module of kernel modules (what the emitters produce) is lowered one
/// kernel module at a time, the modules in parallel on all cores: the
/// passes are nested under `builtin.module` and the context is
/// multi-threaded while they run (the lowering's dialects are loaded
/// first: none may be loaded during multi-threaded execution). Kernels
/// share nothing, and MLIR reports the diagnostics of parallel passes in
/// order. The context is single-threaded again afterwards, as rxla's
/// compilers keep it.
pub fn run(context: &Context, module: &mut Module, steps: &[Step], verify_each: bool) -> Result<(), String> {
    fn flatten(steps: &[Step], out: &mut Vec<(&'static str, &'static str)>) {
        for s in steps {
            match s {
                Step::Pass { name, options } => out.push((name, options)),
                Step::Fixpoint { steps, .. } => flatten(steps, out),
            }
        }
    }
    let mut flat = Vec::new();
    flatten(steps, &mut flat);
    let parallel = has_kernel_modules(module);
    let key = Managers::key(&flat, verify_each, parallel);
    rxla_dialects::context_pool::with_attached(
        context,
        Managers::default,
        |managers| {
            let manager = managers.get(context, &key, || {
                let manager = PassManager::new(context);
                manager.enable_verifier(verify_each);
                let target =
                    if parallel { manager.nested_under("builtin.module") } else { manager.as_operation_pass_manager() };
                for (name, options) in &flat {
                    add(&target, name, options)?;
                }
                Ok(manager)
            })?;
            if !parallel {
                return manager.run(module).map_err(|e| format!("lowering failed: {e}"));
            }
            for dialect in LOWERING_DIALECTS {
                context.get_or_load_dialect(dialect);
            }
            context.enable_multi_threading(true);
            let result = manager.run(module).map_err(|e| format!("lowering failed: {e}"));
            context.enable_multi_threading(false);
            result
        },
        Result::is_ok,
    )
}

/// The lowering's pass managers kept with a pooled context
/// (`rxla_dialects::context_pool`), by pipeline: building one and, at its
/// first run, initializing its passes (`canonicalize` collects every
/// loaded dialect's patterns) took 0.4 ms of every compile. A manager runs
/// again as a fresh one would (the passes keep no state between runs).
#[derive(Default)]
struct Managers(Vec<(String, PassManager<'static>)>);

impl Managers {
    /// What identifies a pipeline: its passes with their options, the
    /// verifier, and whether it is nested under kernel modules.
    fn key(flat: &[(&str, &str)], verify_each: bool, parallel: bool) -> String {
        let passes: Vec<String> = flat.iter().map(|(name, options)| format!("{name}{{{options}}}")).collect();
        format!("{} verify={verify_each} nested={parallel}", passes.join(","))
    }

    /// The manager for `key`, built by `build` the first time.
    fn get<'c>(
        &mut self,
        _context: &'c Context,
        key: &str,
        build: impl FnOnce() -> Result<PassManager<'c>, String>,
    ) -> Result<&PassManager<'c>, String> {
        let at = match self.0.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                // SAFETY: a manager kept here never outlives its context:
                // the pool drops a context's attachments before the
                // context, and an unpooled context's right after this
                // call; it is only ever handed out again as borrowing
                // that same context (`_context`).
                let manager = unsafe { std::mem::transmute::<PassManager<'c>, PassManager<'static>>(build()?) };
                self.0.push((key.to_string(), manager));
                self.0.len() - 1
            }
        };
        Ok(&self.0[at].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop whose two iter_args are the same value on every path: what
    /// `RemoveDuplicateSuccessorInputUses` merges.
    const DUPLICATE_ITER_ARGS: &str = "
        func.func @dup(%lb: index, %ub: index, %step: index, %x: f32) -> (f32, f32) {
          %r:2 = scf.for %i = %lb to %ub step %step iter_args(%a = %x, %b = %x) -> (f32, f32) {
            %s = arith.addf %a, %b : f32
            scf.yield %s, %s : f32, f32
          }
          return %r#0, %r#1 : f32, f32
        }";

    fn canonicalized(step: Step) -> String {
        melior::utility::register_all_passes();
        let context = rxla_dialects::create_context();
        let mut module = Module::parse(&context, DUPLICATE_ITER_ARGS).expect("parses");
        run(&context, &mut module, &[step], true).expect("canonicalizes");
        module.as_operation().to_string()
    }

    /// The pipeline's `canonicalize` names the pattern it disables by its
    /// C++ type name, which upstream may change without notice: the option
    /// would then silently disable nothing. Plain `canonicalize` merges the
    /// two iter_args; the pipeline's must keep both.
    #[test]
    fn canonicalize_disables_the_quadratic_pattern_by_its_current_name() {
        let plain = canonicalized(p("canonicalize"));
        assert!(plain.contains("iter_args(%arg5 = %arg3) -> (f32)"), "plain canonicalize merges:\n{plain}");
        let pipeline = canonicalized(canonicalize());
        assert!(
            pipeline.contains("iter_args(%arg5 = %arg3, %arg6 = %arg3) -> (f32, f32)"),
            "the pipeline's canonicalize no longer disables RemoveDuplicateSuccessorInputUses \
             (renamed upstream?):\n{pipeline}"
        );
    }
}
