//! The CPU compiler (XLA's `CpuCompiler`): HLO module -> HLO pipeline ->
//! thunk programs and kernels -> lowering -> LLVM -> JIT -> [`Executable`].

use super::Executable;
use crate::{
    buffer_assignment,
    driver::{
        compile_threads, default_entry_layouts, from_hlo_text, host, lower_kernels, register_passes, with_diagnostics,
        CompileTimes, EntryLayouts, Options,
    },
    executor::KernelFn,
    thunk_emitter::{CompileError, ThunkEmitter},
};
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};
use rxla_codegen::cpu::Jit;
use rxla_emitters::Target;
use rxla_ir::op::Op;
use rxla_passes::pipeline::{hlo_pipeline, Platform, RunOptions};
use std::{sync::Mutex, time::Instant};

/// Compiles HLO text (`file` names it in messages).
pub fn compile_hlo_text(text: &str, file: &str, options: &Options) -> Result<Executable, CompileError> {
    from_hlo_text(
        text,
        file,
        |context, module| compile_module(context, module, options),
        |exe, import, total, warnings| {
            exe.compile_times.import = import;
            exe.compile_times.total = total;
            exe.warnings = warnings;
        },
    )
}

/// Compiles an `hlo` module of `context` (which has rxla's dialects).
/// MLIR's diagnostics during compilation become part of the error.
pub fn compile_module(context: &Context, module: Module, options: &Options) -> Result<Executable, CompileError> {
    with_diagnostics(context, || compile_module_inner(context, module, options))
}

fn compile_module_inner(context: &Context, mut module: Module, options: &Options) -> Result<Executable, CompileError> {
    register_passes();
    let mut times = CompileTimes::default();
    let start = Instant::now();
    let disabled: Vec<&str> = options.disabled_passes.iter().map(String::as_str).collect();
    if options.entry_layouts == EntryLayouts::Default {
        default_entry_layouts(Op::of(&module.as_operation()));
    }
    crate::driver::dump(options, "module.before_optimizations.mlir", || module.as_operation().to_string())?;
    let mut run_options = RunOptions { disabled: &disabled, verify_each: options.verify_each, timings: None };
    rxla_passes::pipeline::run(context, &mut module, &hlo_pipeline(Platform::Cpu), &mut run_options)
        .map_err(|e| CompileError(format!("HLO pipeline: {e}")))?;
    if !module.as_operation().verify() {
        return Err(CompileError("the module does not verify after the HLO pipeline".into()));
    }
    times.hlo_pipeline = start.elapsed();
    crate::driver::dump_optimized(options, &module)?;

    let t = Instant::now();
    let root = Op::of(&module.as_operation());
    let mut emitter = ThunkEmitter::new(root, Target::default_cpu());
    emitter.emitted_convolutions = options.emitted_convolutions;
    let mut emitted = emitter.emit()?;
    times.emit = t.elapsed();

    let t = Instant::now();
    let names: Vec<String> = emitted.kernels.iter().map(|(k, _)| k.name.clone()).collect();
    let jit = if names.is_empty() {
        None
    } else {
        let kernels: Vec<&rxla_emitters::EmittedKernel> = emitted.kernels.iter().map(|(_, k)| k).collect();
        crate::driver::dump_kernels(options, &kernels)?;
        let lowered = lower_kernels(context, &kernels, Platform::Cpu, &disabled, options.verify_each)?;
        times.lower = t.elapsed();
        crate::driver::dump(options, "kernels.llvm-mlir.mlir", || lowered.as_operation().to_string())?;
        let t = Instant::now();
        rxla_codegen::translate::register_translations(context);
        if options.dump_dir.is_some() {
            // The LLVM stages once more, on a copy merged into one module
            // (the JIT takes the kernel modules apart); only when dumping.
            let copy = Module::from_operation((*lowered.as_operation()).clone())
                .ok_or_else(|| CompileError("internal error: the lowered module does not copy".into()))?;
            rxla_codegen::translate::merge_kernel_modules(&copy);
            let (before, after, asm) = rxla_codegen::cpu::stages(&copy, &host()?)
                .map_err(|e| CompileError(format!("--dump-dir: LLVM: {e}")))?;
            crate::driver::dump(options, "kernels.ll", || before)?;
            crate::driver::dump(options, "kernels.opt.ll", || after)?;
            crate::driver::dump(options, "kernels.s", || asm)?;
        }
        let jit = Jit::compile_kernels(&lowered, &host()?, &names, compile_threads())
            .map_err(|e| CompileError(format!("LLVM: {e}")))?;
        times.llvm = t.elapsed();
        Some(jit)
    };
    let functions: Vec<Option<KernelFn>> = match &jit {
        Some(jit) => names
            .iter()
            .map(|n| {
                let address = jit.address(n).expect("every kernel was looked up");
                // SAFETY: the JIT compiled `n` with the CPU kernel ABI.
                Some(unsafe { std::mem::transmute::<usize, KernelFn>(address) })
            })
            .collect(),
        None => Vec::new(),
    };

    let mut stats = Vec::new();
    for (i, (p, requests)) in emitted.programs.iter_mut().zip(&emitted.in_place).enumerate() {
        let aliases: &[(usize, usize)] = &emitted.aliases[i];
        stats.push(buffer_assignment::assign(p, requests, aliases));
    }
    let arenas = emitted.programs.iter().map(|_| Mutex::new(Vec::new())).collect();
    times.total = start.elapsed();
    Ok(Executable {
        programs: emitted.programs,
        entry: emitted.entry,
        kernels: emitted.kernels.into_iter().map(|(k, _)| k).collect(),
        functions,
        constants: emitted.constants,
        arenas,
        jit,
        buffer_stats: stats,
        compile_times: times,
        warnings: Vec::new(),
    })
}
