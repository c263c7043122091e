//! What the CPU and GPU compilers share: options, phase times, the host
//! target, HLO import, diagnostics capture, the entry layouts, and the
//! lowering of emitted kernels to the `llvm` dialect.

use crate::thunk_emitter::CompileError;
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};
use rxla_codegen::cpu::HostTarget;
use rxla_ir::{
    diagnostics::{Collector, Record},
    op::Op,
};
use rxla_passes::pipeline::Platform;
use std::{
    sync::OnceLock,
    time::{Duration, Instant},
};

/// Which layouts the entry computation's parameters and results have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntryLayouts {
    /// The module's (`entry_computation_layout`): what XLA's HLO runner
    /// uses.
    #[default]
    Module,
    /// Row-major, whatever the module says: what a JAX or PJRT client gets
    /// when it compiles without layout annotations (StableHLO carries no
    /// layouts), so the module's layouts only describe its internals.
    Default,
}

/// Compiler options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The entry computation's layouts.
    pub entry_layouts: EntryLayouts,
    /// HLO or lowering passes to skip (`--disable-passes`).
    pub disabled_passes: Vec<String>,
    /// Verify the IR after every pass (slower; for debugging).
    pub verify_each: bool,
    /// Float convolutions as emitted kernels instead of library calls (the
    /// GPU backend always emits them; on the CPU the library is faster, and
    /// this tests the emitted path).
    pub emitted_convolutions: bool,
    /// Write every stage of the compilation to this directory, as XLA's
    /// `--xla_dump_to` does (`hlo-run --dump-dir`): [`dump`] lists the files.
    pub dump_dir: Option<std::path::PathBuf>,
    /// CPU: also keep the executable in its saved form
    /// ([`crate::Executable::artifact`], `hlo-run --save-executable`): the
    /// kernels are compiled to object files and linked into memory from
    /// them, so what runs is what a later [`crate::load_executable`] runs.
    pub save_artifact: bool,
}

/// Writes stage `file` of a compilation to `options.dump_dir`, if set.
/// The files, in compilation order: `module.before_optimizations.mlir`,
/// `module.after_optimizations.mlir` and `.hlo` (after the HLO pipeline),
/// `kernels.emitter.mlir`, `kernels.llvm-mlir.mlir` (lowered), then on the
/// CPU `kernels.ll`, `kernels.opt.ll` and `kernels.s`, on the GPU
/// `kernels.ptx`.
pub(crate) fn dump(options: &Options, file: &str, text: impl FnOnce() -> String) -> Result<(), CompileError> {
    let Some(dir) = &options.dump_dir else { return Ok(()) };
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(dir.join(file), text()))
        .map_err(|e| CompileError(format!("--dump-dir: cannot write {}: {e}", dir.join(file).display())))
}

/// The HLO pipeline's result as MLIR and, where it exports, HLO text.
pub(crate) fn dump_optimized(options: &Options, module: &Module) -> Result<(), CompileError> {
    if options.dump_dir.is_none() {
        return Ok(());
    }
    dump(options, "module.after_optimizations.mlir", || module.as_operation().to_string())?;
    match rxla_translate::export::export_hlo_text(module) {
        Ok(text) => dump(options, "module.after_optimizations.hlo", || text),
        Err(e) => dump(options, "module.after_optimizations.hlo", || format!("// not exportable as HLO text: {e}\n")),
    }
}

/// The emitted kernels, as `lower_kernels` gets them.
pub(crate) fn dump_kernels(options: &Options, kernels: &[&rxla_emitters::EmittedKernel]) -> Result<(), CompileError> {
    dump(options, "kernels.emitter.mlir", || rxla_emitters::print_kernels(kernels))
}

/// Time spent in each phase of a compilation.
#[derive(Clone, Debug, Default)]
pub struct CompileTimes {
    pub import: Duration,
    pub hlo_pipeline: Duration,
    pub emit: Duration,
    pub lower: Duration,
    pub llvm: Duration,
    pub total: Duration,
}

pub(crate) fn host() -> Result<HostTarget, CompileError> {
    HostTarget::new().map_err(|e| CompileError(format!("host target: {e}")))
}

/// How many threads LLVM compiles kernels on: one per core. Asked once:
/// the standard library reads the cgroup's CPU quota files every time.
pub(crate) fn compile_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

pub(crate) fn register_passes() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(melior::utility::register_all_passes);
}

/// Drops the layouts of the entry computation's parameters and of the
/// values it returns: they become row-major. Layouts are physical only
/// (HLO values are logical arrays), so this changes no result.
pub(crate) fn default_entry_layouts(module: Op) {
    let Some(entry) = rxla_ir::computation::entry(module) else { return };
    entry.remove_attr("arg_attrs_layouts");
    if let Some(attrs) = entry.attr_raw("arg_attrs") {
        entry.set_attr_raw("arg_attrs", without_layouts(attrs));
    }
    let mut todo = entry.return_values();
    while let Some(v) = todo.pop() {
        if let Some(op) = v.op() {
            if op.is("tuple") {
                todo.extend(op.operands());
            } else if op.num_results() == 1 {
                op.remove_attr("hlo.layout");
            }
        }
    }
}

/// An argument attribute list (an array of dictionaries) without its
/// `hlo.layout` entries.
fn without_layouts(arg_attrs: mlir_sys::MlirAttribute) -> mlir_sys::MlirAttribute {
    use mlir_sys::*;
    // SAFETY: live attributes of the entry function, only read; the new
    // ones are uniqued in the same context.
    unsafe {
        if !mlirAttributeIsAArray(arg_attrs) {
            return arg_attrs;
        }
        let context = mlirAttributeGetContext(arg_attrs);
        let dicts: Vec<MlirAttribute> = (0..mlirArrayAttrGetNumElements(arg_attrs))
            .map(|i| {
                let dict = mlirArrayAttrGetElement(arg_attrs, i);
                if !mlirAttributeIsADictionary(dict) {
                    return dict;
                }
                let kept: Vec<MlirNamedAttribute> = (0..mlirDictionaryAttrGetNumElements(dict))
                    .map(|j| mlirDictionaryAttrGetElement(dict, j))
                    .filter(|named| rxla_ir::op::string(mlirIdentifierStr(named.name)) != "hlo.layout")
                    .collect();
                mlirDictionaryAttrGet(context, kept.len() as isize, kept.as_ptr())
            })
            .collect();
        mlirArrayAttrGet(context, dicts.len() as isize, dicts.as_ptr())
    }
}

/// HLO text up to this size is compiled in a context that goes back to
/// the pool afterwards (see `rxla_dialects::context_pool`): larger modules
/// would leave their constants' data behind in it, and gain little.
const POOLED_TEXT_BYTES: usize = 256 << 10;

/// Imports HLO text into a context of its own and compiles it with
/// `compile`; `finish` gets the import and total times and the import's
/// warnings. The context is a pooled one, given back after a successful
/// compile of a small module (nothing compiled refers to it).
pub(crate) fn from_hlo_text<E>(
    text: &str,
    file: &str,
    compile: impl FnOnce(&Context, Module) -> Result<E, CompileError>,
    finish: impl FnOnce(&mut E, Duration, Duration, Vec<String>),
) -> Result<E, CompileError> {
    let start = Instant::now();
    let context = rxla_dialects::PooledContext::take();
    context.enable_multi_threading(false);
    let (module, warnings) = rxla_translate::import_hlo_text_with_warnings(&context, text, file)
        .map_err(|e| CompileError(e.render(file)))?;
    let import = start.elapsed();
    let mut exe = compile(&context, module)?;
    if text.len() <= POOLED_TEXT_BYTES {
        context.give_back();
    }
    let warnings = warnings.iter().map(|w| w.render(file)).collect();
    finish(&mut exe, import, start.elapsed(), warnings);
    Ok(exe)
}

/// Runs `f`, adding MLIR's diagnostics emitted meanwhile (as
/// `file:line:col: error: message`) to its error.
pub(crate) fn with_diagnostics<T>(
    context: &Context,
    f: impl FnOnce() -> Result<T, CompileError>,
) -> Result<T, CompileError> {
    let collector = Collector::attach(context);
    let result = f();
    collector.detach(context);
    result.map_err(|e| {
        let diagnostics: Vec<String> = collector.take().iter().map(Record::render_located).collect();
        if diagnostics.is_empty() {
            e
        } else {
            CompileError(format!("{e}\n{}", diagnostics.join("\n")))
        }
    })
}

/// The emitted `kernels` in one module, through `platform`'s lowering
/// pipeline (minus the `disabled` passes) to the `llvm` dialect.
pub(crate) fn lower_kernels<'c>(
    context: &'c Context,
    kernels: &[&rxla_emitters::EmittedKernel],
    platform: Platform,
    disabled: &[&str],
    verify_each: bool,
) -> Result<Module<'c>, CompileError> {
    // One module of copies of the kernel modules (the emitters built them
    // in this context).
    let modules: Vec<&rxla_emitters::KernelModule> = kernels.iter().map(|k| &k.module).collect();
    let mut module = Module::from_operation(rxla_emitters::combine(context.to_raw(), &modules).into_operation(context))
        .ok_or_else(|| CompileError("internal error: the kernels do not form a module".into()))?;
    let steps: Vec<_> = rxla_lowering::pipeline::lowering_steps(platform)
        .into_iter()
        .filter(|s| !matches!(s, rxla_lowering::pipeline::Step::Pass { name, .. } if disabled.contains(name)))
        .collect();
    rxla_lowering::pipeline::run(context, &mut module, &steps, verify_each)
        .map_err(|e| CompileError(format!("kernel lowering: {e}")))?;
    if !module.as_operation().verify() {
        return Err(CompileError("internal error: the lowered kernels do not verify".into()));
    }
    Ok(module)
}
