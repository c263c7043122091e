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
//! directly (XLA's `fusion_to_mlir` input). Every kernel is one `module`,
//! built in the HLO module's context and verified, whose entry function
//! takes the parameters and the output tensors and returns the outputs.

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
use melior::ContextRef;
use mlir_sys::*;
use rxla_ir::{computation, diagnostics::Collector, hlo_analysis::FusionKind, op::Op};
use std::fmt;
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
    /// The kernel module, in the HLO module's context.
    pub module: KernelModule,
}

/// A kernel's `builtin.module` (`module @name attributes {xla.target ...}`),
/// owned: destroyed with this value, which must not outlive its context.
pub struct KernelModule(MlirOperation);

impl KernelModule {
    pub(crate) fn from_raw(op: MlirOperation) -> Self {
        KernelModule(op)
    }

    /// The module op (valid while `self` lives).
    pub fn op(&self) -> Op {
        Op::from_raw(self.0)
    }

    /// A detached copy of the module op, owned by the caller (for a module
    /// of several kernels).
    pub fn clone_op(&self) -> MlirOperation {
        unsafe { mlirOperationClone(self.0) }
    }

    /// The module as MLIR text (for `--stage=emitter` and dumps).
    pub fn to_text(&self) -> String {
        self.op().to_text()
    }

    /// The module op as melior's owned operation (for pass managers and
    /// translation); `context` must be the module's.
    pub fn into_operation(self, context: &melior::Context) -> melior::ir::Operation<'_> {
        debug_assert!(unsafe { mlirContextEqual(context.to_raw(), mlirOperationGetContext(self.0)) });
        let op = self.0;
        std::mem::forget(self);
        // SAFETY: the op is live and owned; melior's value takes it over.
        unsafe { melior::ir::Operation::from_raw(op) }
    }

    /// Verifies the module; the error carries MLIR's diagnostics.
    pub fn verify(&self) -> Result<(), String> {
        // SAFETY: the op is live, so is its context.
        let context = unsafe { ContextRef::from_raw(mlirOperationGetContext(self.0)) };
        let context = unsafe { context.to_ref() };
        let collector = Collector::attach(context);
        let ok = unsafe { mlirOperationVerify(self.0) };
        collector.detach(context);
        match ok {
            true => Ok(()),
            false => Err(collector.take().iter().map(|r| r.message.clone()).collect::<Vec<_>>().join("; ")),
        }
    }
}

impl Clone for KernelModule {
    fn clone(&self) -> Self {
        KernelModule(self.clone_op())
    }
}

impl Drop for KernelModule {
    fn drop(&mut self) {
        unsafe { mlirOperationDestroy(self.0) }
    }
}

impl fmt::Debug for KernelModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KernelModule({})", self.op().symbol_attr("sym_name").unwrap_or_default())
    }
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
        Ok((module, grid)) => {
            Ok(EmittedKernel { name: comp.name.clone(), kind: kernel_kind, fallback: choice.fallback, grid, module })
        }
        Err(e) if kernel_kind != EmitterKind::Loop && choice.loop_fallback_ok => {
            // The hero's emitter does not handle this fusion: the loop
            // emitter computes everything elementally.
            let loop_choice =
                choose::Choice::loop_with_reason(format!("{} emitter: {}", kernel_kind.name(), e.message));
            let (module, grid) = emit_with(&comp, &loop_choice, module, target)?;
            Ok(EmittedKernel {
                name: comp.name.clone(),
                kind: EmitterKind::Loop,
                fallback: loop_choice.fallback,
                grid,
                module,
            })
        }
        Err(e) => Err(e),
    }
}

/// Emits with `choice`'s emitter; a panic (a bug in an emitter) becomes
/// an error naming the fusion.
fn emit_with(
    comp: &Computation,
    choice: &choose::Choice,
    module: Option<Op>,
    target: &Target,
) -> Result<(KernelModule, Grid), EmitError> {
    rxla_ir::panics::catch(|| emit_unchecked(comp, choice, module, target))
        .unwrap_or_else(|panic| Err(EmitError::new(&comp.name, format!("internal error in the emitter: {panic}"))))
}

fn emit_unchecked(
    comp: &Computation,
    choice: &choose::Choice,
    module: Option<Op>,
    target: &Target,
) -> Result<(KernelModule, Grid), EmitError> {
    let part = partitioner::partition(comp, &choice.heroes);
    let mut kernel = Kernel::new(comp, part, module, target);
    kernel.module_attrs.push(("xla.emitter".into(), kernel::Attr::Str(choice.kind.name().into())));
    if let Some(reason) = &choice.fallback {
        kernel.module_attrs.push(("xla.emitter_note".into(), kernel::Attr::Str(reason.clone())));
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

/// The kernels as one module (a `builtin.module` holding one module per
/// kernel), printed.
pub fn print_kernels(kernels: &[&EmittedKernel]) -> String {
    let modules: Vec<&KernelModule> = kernels.iter().map(|k| &k.module).collect();
    let Some(first) = modules.first() else { return "module {\n}\n".to_string() };
    let context = unsafe { mlirOperationGetContext(first.0) };
    combine(context, &modules).to_text()
}

/// A new `builtin.module` holding a copy of every kernel module (all in
/// `context`).
pub fn combine(context: MlirContext, modules: &[&KernelModule]) -> KernelModule {
    unsafe {
        let m = mlirModuleCreateEmpty(mlirLocationUnknownGet(context));
        let body = mlirModuleGetBody(m);
        for k in modules {
            mlirBlockAppendOwnedOperation(body, k.clone_op());
        }
        KernelModule(mlirModuleGetOperation(m))
    }
}
