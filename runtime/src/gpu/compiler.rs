//! The GPU compiler (XLA's `NVPTXCompiler`): HLO module -> the GPU HLO
//! pipeline -> thunk programs and kernels -> the GPU lowering -> LLVM ->
//! PTX, and the host kernels (sort comparators) -> JIT.

use super::GpuExecutable;
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
use rxla_codegen::{
    cpu::Jit,
    gpu::{NvptxTarget, PtxTarget},
};
use rxla_emitters::{GpuTarget, Target};
use rxla_ir::op::Op;
use rxla_passes::pipeline::{hlo_pipeline, Platform, RunOptions};
use std::time::Instant;

/// GPU compiler options.
#[derive(Clone, Debug)]
pub struct GpuOptions {
    pub common: Options,
    /// The GPU the emitters size kernels for.
    pub device: GpuTarget,
    /// The SM and PTX version of the PTX.
    pub ptx: PtxTarget,
    /// Also compile every GPU kernel for the CPU and run on the host
    /// backend (`hlo-run --emulate-gpu`): checks the GPU runtime, its plan
    /// and its gemm mapping where there is no GPU.
    pub emulate: bool,
}

impl GpuOptions {
    /// Options for `device`, with the oldest PTX version of its SM.
    pub fn new(device: GpuTarget) -> Result<GpuOptions, String> {
        let ptx = PtxTarget::for_sm(device.name)?;
        Ok(GpuOptions { common: Options::default(), device, ptx, emulate: false })
    }
}

impl Default for GpuOptions {
    fn default() -> GpuOptions {
        GpuOptions::new(GpuTarget::sm_90()).expect("sm_90 is in the SM table")
    }
}

/// Compiles HLO text for the GPU (`file` names it in messages).
pub fn compile_hlo_text(text: &str, file: &str, options: &GpuOptions) -> Result<GpuExecutable, CompileError> {
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

/// Compiles an `hlo` module of `context` for the GPU; MLIR's diagnostics
/// become part of the error.
pub fn compile_module(context: &Context, module: Module, options: &GpuOptions) -> Result<GpuExecutable, CompileError> {
    with_diagnostics(context, || compile_inner(context, module, options))
}

fn compile_inner(context: &Context, mut module: Module, options: &GpuOptions) -> Result<GpuExecutable, CompileError> {
    register_passes();
    let mut times = CompileTimes::default();
    let start = Instant::now();
    let common = &options.common;
    let disabled: Vec<&str> = common.disabled_passes.iter().map(String::as_str).collect();
    if common.entry_layouts == EntryLayouts::Default {
        default_entry_layouts(Op::of(&module.as_operation()));
    }
    crate::driver::dump(common, "module.before_optimizations.mlir", || module.as_operation().to_string())?;
    let mut run_options = RunOptions { disabled: &disabled, verify_each: common.verify_each, timings: None };
    rxla_passes::pipeline::run(context, &mut module, &hlo_pipeline(Platform::Gpu), &mut run_options)
        .map_err(|e| CompileError(format!("HLO pipeline: {e}")))?;
    if !module.as_operation().verify() {
        return Err(CompileError("the module does not verify after the HLO pipeline".into()));
    }
    times.hlo_pipeline = start.elapsed();
    crate::driver::dump_optimized(common, &module)?;

    let t = Instant::now();
    let root = Op::of(&module.as_operation());
    let mut emitter = ThunkEmitter::new(root, Target::Gpu(options.device.clone()));
    // Float convolutions run as GPU kernels (no cuDNN); others on the host.
    emitter.emitted_convolutions = true;
    if options.emulate {
        emitter.shadow_target = Some(Target::default_cpu());
    }
    let emitted = emitter.emit()?;
    times.emit = t.elapsed();

    // Kernels with launch dimensions run on the GPU; the rest (sort
    // comparators) on the host.
    let (device_kernels, host_kernels): (Vec<_>, Vec<_>) =
        emitted.kernels.iter().partition(|(k, _)| k.launch.is_some());
    let t = Instant::now();
    let mut ptx = String::new();
    if !device_kernels.is_empty() {
        let kernels: Vec<_> = device_kernels.iter().map(|(_, k)| k).collect();
        crate::driver::dump_kernels(common, &kernels)?;
        let lowered = lower_kernels(context, &kernels, Platform::Gpu, &disabled, common.verify_each)?;
        times.lower = t.elapsed();
        crate::driver::dump(common, "kernels.llvm-mlir.mlir", || lowered.as_operation().to_string())?;
        let t = Instant::now();
        rxla_codegen::translate::register_translations(context);
        let nvptx = NvptxTarget::new(options.ptx.clone(), rxla_codegen::gpu::libdevice_path()).map_err(CompileError)?;
        ptx = rxla_codegen::gpu::compile_kernels(&lowered, &nvptx, compile_threads())
            .map_err(|e| CompileError(format!("LLVM (NVPTX): {e}")))?;
        times.llvm = t.elapsed();
        crate::driver::dump(common, "kernels.ptx", || ptx.clone())?;
    }
    let host_names: Vec<String> = host_kernels.iter().map(|(k, _)| k.name.clone()).collect();
    let jit = host_jit(
        context,
        &host_kernels.iter().map(|(_, k)| k).collect::<Vec<_>>(),
        &host_names,
        &disabled,
        common.verify_each,
        &mut times,
    )?;
    let emulation = if options.emulate {
        let shadows: Vec<&rxla_emitters::EmittedKernel> = emitted.shadows.iter().flatten().collect();
        let names: Vec<String> = shadows.iter().map(|k| k.name.clone()).collect();
        let jit = host_jit(context, &shadows, &names, &disabled, common.verify_each, &mut times)?;
        let kernels = emitted
            .shadows
            .iter()
            .map(|s| {
                let s = s.as_ref()?;
                let address = jit.as_ref()?.address(&s.name)?;
                let workgroups = match s.grid {
                    rxla_emitters::launch::Grid::Cpu { workgroups } => workgroups,
                    rxla_emitters::launch::Grid::Gpu(_) => 1,
                };
                // SAFETY: the JIT compiled the kernel with the CPU kernel ABI.
                Some((unsafe { KernelFn::from_address(address) }, workgroups))
            })
            .collect();
        Some(super::Emulation { jit, kernels })
    } else {
        None
    };
    let host_functions: Vec<Option<KernelFn>> = emitted
        .kernels
        .iter()
        .map(|(k, _)| {
            let address = jit.as_ref().filter(|_| k.launch.is_none()).and_then(|j| j.address(&k.name))?;
            // SAFETY: the JIT compiled the kernel with the CPU kernel ABI.
            Some(unsafe { KernelFn::from_address(address) })
        })
        .collect();

    let mut programs = emitted.programs;
    let mut stats = Vec::new();
    for (i, (p, requests)) in programs.iter_mut().zip(&emitted.in_place).enumerate() {
        let aliases: &[(usize, usize)] = &emitted.aliases[i];
        stats.push(buffer_assignment::assign(p, requests, aliases));
    }
    times.total = start.elapsed();
    Ok(GpuExecutable {
        programs,
        entry: emitted.entry,
        kernels: emitted.kernels.into_iter().map(|(k, _)| k).collect(),
        host_functions,
        constants: emitted.constants,
        jit,
        ptx,
        ptx_target: options.ptx.clone(),
        device_target: options.device.clone(),
        buffer_stats: stats,
        compile_times: times,
        warnings: Vec::new(),
        loaded: std::sync::Mutex::new(None),
        emulation,
    })
}

/// `kernels` lowered for the CPU and JIT-compiled (`None` for none).
fn host_jit(
    context: &Context,
    kernels: &[&rxla_emitters::EmittedKernel],
    names: &[String],
    disabled: &[&str],
    verify_each: bool,
    times: &mut CompileTimes,
) -> Result<Option<Jit>, CompileError> {
    if kernels.is_empty() {
        return Ok(None);
    }
    let t = Instant::now();
    let lowered = lower_kernels(context, kernels, Platform::Cpu, disabled, verify_each)?;
    rxla_codegen::translate::register_translations(context);
    let jit = Jit::compile_kernels(&lowered, &host()?, names, compile_threads())
        .map_err(|e| CompileError(format!("LLVM: {e}")))?;
    times.llvm += t.elapsed();
    Ok(Some(jit))
}
