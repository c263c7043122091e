//! `--stage=emitter`: the platform's HLO pipeline, then every fusion
//! through rxla's emitters (`lowering/emitters`); prints the kernels as
//! one module of kernel modules. A header-less `fusion { ... }` HLO file
//! (XLA's `fusion_to_mlir` input) skips the pipeline: its computation is
//! emitted as one fused computation.

use melior::{ir::Module, Context};
use rxla_emitters::{GpuTarget, Target};
use rxla_passes::ir::Op;

/// True for HLO text that is a bare computation (no `HloModule` header).
pub fn is_headerless(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'));
    first.is_some_and(|l| !l.starts_with("HloModule"))
}

/// The emitters' target for `--platform` and `--gpu-target`.
pub fn target(gpu: bool, gpu_target: &str) -> Result<Target, String> {
    if !gpu {
        return Ok(Target::default_cpu());
    }
    GpuTarget::by_name(gpu_target)
        .map(Target::Gpu)
        .ok_or_else(|| format!("--gpu-target: unknown target '{gpu_target}' (sm_80 or sm_90)"))
}

/// Emits and prints the kernels of `module`; errors are one line each.
pub fn emit(context: &Context, module: &Module, target: &Target, headerless: bool) -> (String, Vec<String>) {
    let op = Op::of(&module.as_operation());
    let mut errors = Vec::new();
    let mut kernels = Vec::new();
    for result in rxla_emitters::emit_all(op, target, headerless) {
        match result {
            Ok(k) => kernels.push(k),
            Err(e) => errors.push(format!("kernel {e}")),
        }
    }
    let (text, verify_errors) = rxla_emitters::print_kernels(context, &kernels);
    errors.extend(verify_errors.into_iter().map(|e| format!("kernel {e}")));
    (text, errors)
}
