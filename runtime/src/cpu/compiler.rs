//! The CPU compiler (XLA's `CpuCompiler`): HLO module -> HLO pipeline ->
//! thunk programs and kernels -> lowering -> LLVM -> JIT -> [`Executable`].

use super::{
    artifact::{self, Artifact},
    Executable,
};
use crate::{
    buffer_assignment,
    driver::{
        compile_threads, default_entry_layouts, from_hlo_text, host, lower_kernels, register_passes, with_diagnostics,
        CompileTimes, EntryLayouts, Options,
    },
    executor::KernelFn,
    thunk_emitter::{CompileError, Emitted, ThunkEmitter},
};
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};
use rxla_codegen::cpu::LoadedCode;
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
    // The saved form starts from the optimized module, before the thunk
    // emitter annotates it.
    let optimized = match options.save_artifact {
        true => Some((artifact::parameter_shapes(&module)?, artifact::module_bytecode(&module))),
        false => None,
    };

    let t = Instant::now();
    let emitted = emit_thunks(&module, options.emitted_convolutions)?;
    times.emit = t.elapsed();

    let t = Instant::now();
    let names: Vec<String> = emitted.kernels.iter().map(|(k, _)| k.name.clone()).collect();
    let mut objects = Vec::new();
    let code = if names.is_empty() {
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
        // The objects the saved form keeps are the ones that run now.
        let compiled = rxla_codegen::cpu::kernel_objects(&lowered, &host()?, &names, compile_threads())
            .map_err(|e| CompileError(format!("LLVM: {e}")))?;
        let code = LoadedCode::load(&compiled, &names).map_err(|e| CompileError(format!("LLVM: {e}")))?;
        if options.save_artifact {
            objects = compiled;
        }
        times.llvm = t.elapsed();
        Some(code)
    };
    let saved = match optimized {
        Some((parameters, module)) => Some(
            Artifact {
                host: host()?.identity(),
                emitted_convolutions: options.emitted_convolutions,
                parameters,
                module,
                fingerprint: artifact::fingerprint(&emitted),
                kernels: names,
                objects,
            }
            .to_bytes(),
        ),
        None => None,
    };
    let mut exe = assemble(emitted, code, times, start)?;
    exe.artifact = saved;
    Ok(exe)
}

/// The thunk programs and kernels of an optimized module.
pub(crate) fn emit_thunks(module: &Module, emitted_convolutions: bool) -> Result<Emitted, CompileError> {
    let root = Op::of(&module.as_operation());
    let mut emitter = ThunkEmitter::new(root, Target::default_cpu());
    emitter.emitted_convolutions = emitted_convolutions;
    emitter.emit()
}

/// The executable from the emitter's programs and the kernels' code.
pub(crate) fn assemble(
    mut emitted: Emitted,
    code: Option<LoadedCode>,
    mut times: CompileTimes,
    start: Instant,
) -> Result<Executable, CompileError> {
    let functions: Vec<Option<KernelFn>> = match &code {
        Some(code) => emitted
            .kernels
            .iter()
            .map(|(k, _)| {
                let address = code
                    .address(&k.name)
                    .ok_or_else(|| CompileError(format!("internal error: kernel `{}` has no code", k.name)))?;
                // SAFETY: `address` is `k`'s code, compiled with the CPU kernel ABI.
                Ok(Some(unsafe { KernelFn::from_address(address) }))
            })
            .collect::<Result<_, CompileError>>()?,
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
        code,
        buffer_stats: stats,
        compile_times: times,
        warnings: Vec::new(),
        artifact: None,
    })
}
