//! `--stage=emitter`: the platform's HLO pipeline, then every fusion
//! through rxla's emitters (`lowering/emitters`); prints the kernels as
//! one module of kernel modules. A header-less `fusion { ... }` HLO file
//! (XLA's `fusion_to_mlir` input) skips the pipeline: its computation is
//! emitted as one fused computation.

use melior::ir::Module;
use rxla_emitters::{GpuTarget, Target};
use rxla_ir::op::Op;

/// True for HLO text that is a bare computation (no `HloModule` header).
pub fn is_headerless(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'));
    first.is_some_and(|l| !l.starts_with("HloModule"))
}

/// The emitters' target for `--platform` and `--gpu-target`.
pub fn target(gpu: bool, gpu_target: &str) -> Result<Target, String> {
    if !gpu {
        return Ok(Target::default_cpu());
    }
    gpu_device(gpu_target).map(Target::Gpu)
}

/// `--gpu-target`: a name (`sm_90`, `h100`, ...) or a target-description
/// file.
pub fn gpu_device(gpu_target: &str) -> Result<GpuTarget, String> {
    if let Some(t) = GpuTarget::by_name(gpu_target) {
        return Ok(t);
    }
    let path = std::path::Path::new(gpu_target);
    if path.is_file() {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("--gpu-target: cannot read '{gpu_target}': {e}"))?;
        return GpuTarget::from_spec(&text).map_err(|e| format!("--gpu-target: {gpu_target}: {e}"));
    }
    Err(format!("--gpu-target: unknown target '{gpu_target}' (sm_80, sm_90, or a target-description file)"))
}

/// The SM and PTX version of `--gpu-target` and `--ptx-version`.
pub fn ptx_target(gpu_target: &str, ptx_version: Option<&str>) -> Result<rxla_codegen::gpu::PtxTarget, String> {
    let device = gpu_device(gpu_target)?;
    match ptx_version {
        Some(v) => rxla_codegen::gpu::PtxTarget::with_ptx_version(device.name, v),
        None => rxla_codegen::gpu::PtxTarget::for_sm(device.name),
    }
    .map_err(|e| format!("--ptx-version: {e}"))
}

/// Emits and prints the kernels of `module`; errors are one line each.
pub fn emit(module: &Module, target: &Target, headerless: bool) -> (String, Vec<String>) {
    let op = Op::of(&module.as_operation());
    let mut errors = Vec::new();
    let mut kernels = Vec::new();
    for result in rxla_emitters::emit_all(op, target, headerless) {
        match result {
            Ok(k) => kernels.push(k),
            Err(e) => errors.push(format!("kernel {e}")),
        }
    }
    (rxla_emitters::print_kernels(&kernels.iter().collect::<Vec<_>>()), errors)
}
