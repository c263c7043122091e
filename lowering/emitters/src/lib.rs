//! rxla's emitters: each fusion of the HLO pipeline becomes un-lowered
//! kernel IR, as XLA's MLIR emitters make it (see `docs/emitters.md`).
//!
//! - [`target`]: GPU (`sm_80`, `sm_90`) and CPU descriptions;
//! - [`fusion`]: the fused computation as the emitters see it;
//! - [`partitioner`]: XLA's computation partitioner (subgraph functions);
//! - [`elemental`], [`scalar_ops`]: the elemental emitter;
//! - [`choose`]: which emitter a fusion gets (XLA's hero-based choice);
//! - the emitters: [`mod@loop`], [`reduction`], [`transpose`],
//!   [`concatenate`], [`dynamic_update_slice`], [`scatter`],
//!   [`input_slices`];
//! - [`launch`]: launch dimensions and thread-to-element maps;
//! - [`builder`], [`kernel`], [`kernel_ops`]: writing the IR (the `xla` /
//!   `xla_gpu` ops are all in `kernel_ops`).
//!
//! [`emit_fusion`] emits one `hlo.fusion`, [`emit_module`] every fusion of
//! a module, [`emit_computation`] a computation used as a fused computation
//! directly (XLA's `fusion_to_mlir` input). Every kernel is one `module`
//! whose entry function takes the parameters and the output tensors and
//! returns the outputs. [`parse_kernel`] parses and verifies a kernel
//! (`hlo-opt --stage=emitter` and the oracle test verify every one).

pub mod builder;
pub mod choose;
pub mod concatenate;
pub mod dynamic_update_slice;
pub mod elemental;
pub mod fusion;
pub mod input_slices;
pub mod kernel;
pub mod kernel_ops;
pub mod launch;
#[path = "loop.rs"]
pub mod r#loop;
pub mod partitioner;
pub mod reduction;
pub mod scalar_ops;
pub mod scatter;
pub mod target;
pub mod transpose;

use choose::EmitterKind;
use fusion::Computation;
use kernel::Kernel;
use launch::Grid;
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};
use rxla_ir::{computation, hlo_analysis::FusionKind, op::Op};
use std::{cell::RefCell, fmt, rc::Rc};
pub use target::{CpuTarget, GpuTarget, Target};

/// Why a fusion could not be emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The fused computation.
    pub fusion: String,
    pub message: String,
}

impl EmitError {
    pub fn new(fusion: &str, message: impl Into<String>) -> EmitError {
        EmitError { fusion: fusion.to_string(), message: message.into() }
    }
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}: {}", self.fusion, self.message)
    }
}

impl std::error::Error for EmitError {}

/// One emitted kernel.
#[derive(Clone, Debug)]
pub struct EmittedKernel {
    /// The fused computation's name (also the kernel's).
    pub name: String,
    pub kind: EmitterKind,
    /// Set when the kind's emitter could not take the fusion and the loop
    /// emitter did: why.
    pub fallback: Option<String>,
    pub grid: Grid,
    /// The kernel module, as emitted (parse it with [`parse_kernel`]).
    pub text: String,
}

/// Emits the fused computation `func` as a kernel. `kind` is the fusion's
/// kind when it comes from an `hlo.fusion` (`None` for a computation
/// emitted directly), `module` holds the reducers it calls.
pub fn emit_computation(
    func: Op,
    kind: Option<FusionKind>,
    module: Option<Op>,
    target: &Target,
) -> Result<EmittedKernel, EmitError> {
    let comp = Computation::from_func(func)?;
    let choice = choose::choose(&comp, kind, target);
    let kernel_kind = choice.kind;
    match emit_with(&comp, &choice, module, target) {
        Ok((text, grid)) => {
            Ok(EmittedKernel { name: comp.name.clone(), kind: kernel_kind, fallback: choice.fallback, grid, text })
        }
        Err(e) if kernel_kind != EmitterKind::Loop && choice.loop_fallback_ok => {
            // The hero's emitter does not handle this fusion: the loop
            // emitter computes everything elementally.
            let loop_choice =
                choose::Choice::loop_with_reason(format!("{} emitter: {}", kernel_kind.name(), e.message));
            let (text, grid) = emit_with(&comp, &loop_choice, module, target)?;
            Ok(EmittedKernel {
                name: comp.name.clone(),
                kind: EmitterKind::Loop,
                fallback: loop_choice.fallback,
                grid,
                text,
            })
        }
        Err(e) => Err(e),
    }
}

fn emit_with(
    comp: &Computation,
    choice: &choose::Choice,
    module: Option<Op>,
    target: &Target,
) -> Result<(String, Grid), EmitError> {
    let part = partitioner::partition(comp, &choice.heroes);
    let mut kernel = Kernel::new(comp, part, module, target);
    kernel.module_attrs.push(format!("xla.emitter = \"{}\"", choice.kind.name()));
    if let Some(reason) = &choice.fallback {
        kernel.module_attrs.push(format!("xla.emitter_note = \"{}\"", escape(reason)));
    }
    match choice.kind {
        EmitterKind::Loop => r#loop::emit(kernel, None),
        EmitterKind::Reduction => reduction::emit(kernel, choice),
        EmitterKind::Transpose => transpose::emit(kernel, choice),
        EmitterKind::Concatenate => concatenate::emit(kernel, choice),
        EmitterKind::InPlaceDynamicUpdateSlice => dynamic_update_slice::emit(kernel, choice),
        EmitterKind::Scatter => scatter::emit(kernel, choice),
        EmitterKind::InputSlices => input_slices::emit(kernel, choice),
    }
}

/// `text` as the body of an MLIR string literal.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Emits the fusion op `fusion` of `module`.
pub fn emit_fusion(fusion: Op, module: Op, target: &Target) -> Result<EmittedKernel, EmitError> {
    let callee = fusion.symbol_attr("calls").ok_or_else(|| EmitError::new("?", "hlo.fusion without a callee"))?;
    let kind = FusionKind::of(fusion);
    if matches!(kind, Some(FusionKind::Custom) | Some(FusionKind::Output)) {
        return Err(EmitError::new(&callee, format!("{} fusions are not emitted", kind.unwrap().text())));
    }
    let func =
        computation::lookup(module, &callee).ok_or_else(|| EmitError::new(&callee, "fused computation not found"))?;
    emit_computation(func, kind, Some(module), target)
}

/// Every `hlo.fusion` of `module` (outside fused computations), in order.
pub fn fusions(module: Op) -> Vec<Op> {
    let mut out = Vec::new();
    for func in computation::functions(module) {
        for op in func.walk_preorder().into_iter().skip(1) {
            if op.name() == "hlo.fusion" {
                out.push(op);
            }
        }
    }
    out
}

/// Emits every fusion of `module`.
pub fn emit_module(module: Op, target: &Target) -> Vec<Result<EmittedKernel, EmitError>> {
    fusions(module).into_iter().map(|f| emit_fusion(f, module, target)).collect()
}

/// Parses and verifies an emitted kernel in `context`; the error carries
/// MLIR's diagnostics.
pub fn parse_kernel<'c>(context: &'c Context, kernel: &EmittedKernel) -> Result<Module<'c>, EmitError> {
    let messages = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = messages.clone();
    let lines: Vec<String> = kernel.text.lines().map(str::to_string).collect();
    let id = context.attach_diagnostic_handler(move |d| {
        // Quote the offending line of the emitted text.
        let loc = d.location().to_string();
        let line = loc
            .rsplit(':')
            .nth(1)
            .and_then(|l| l.parse::<usize>().ok())
            .and_then(|l| lines.get(l.wrapping_sub(1)))
            .map(|l| format!(" (at `{}`)", l.trim()))
            .unwrap_or_default();
        sink.borrow_mut().push(format!("{d}{line}"));
        true
    });
    let parsed = Module::parse(context, &kernel.text);
    let result = match parsed {
        None => {
            Err(EmitError::new(&kernel.name, format!("emitted IR does not parse: {}", messages.borrow().join("; "))))
        }
        Some(m) => {
            if m.as_operation().verify() {
                Ok(m)
            } else {
                Err(EmitError::new(
                    &kernel.name,
                    format!("emitted IR does not verify: {}", messages.borrow().join("; ")),
                ))
            }
        }
    };
    context.detach_diagnostic_handler(id);
    if result.is_err() && std::env::var_os("RXLA_EMITTER_DEBUG").is_some() {
        eprintln!("{}", kernel.text);
    }
    result
}

/// Emits every fusion of `module`, or, with `entry_is_fusion`, its entry
/// computation as one fused computation (a header-less `fusion { ... }`
/// HLO file).
pub fn emit_all(module: Op, target: &Target, entry_is_fusion: bool) -> Vec<Result<EmittedKernel, EmitError>> {
    if entry_is_fusion {
        return match computation::entry(module) {
            Some(func) => vec![emit_computation(func, None, Some(module), target)],
            None => vec![Err(EmitError::new("?", "the module has no entry computation"))],
        };
    }
    emit_module(module, target)
}

/// Verifies each kernel and prints those that verify as one module (a
/// `builtin.module` holding one module per kernel); the errors are those
/// of the kernels that do not verify.
pub fn print_kernels(context: &Context, kernels: &[EmittedKernel]) -> (String, Vec<EmitError>) {
    let mut errors = Vec::new();
    let mut text = String::from("module {\n");
    for k in kernels {
        match parse_kernel(context, k) {
            Ok(_) => text.push_str(&k.text),
            Err(e) => errors.push(e),
        }
    }
    text.push_str("}\n");
    let combined = EmittedKernel {
        name: "kernels".into(),
        kind: EmitterKind::Loop,
        fallback: None,
        grid: Grid::Cpu { workgroups: 1 },
        text,
    };
    match parse_kernel(context, &combined) {
        Ok(m) => (m.as_operation().to_string(), errors),
        Err(e) => {
            errors.push(e);
            (String::new(), errors)
        }
    }
}
