//! rxla's MLIR dialects.
//!
//! - [`hlo`]: XLA's HLO instruction set, one op per opcode;
//! - [`xla`]: the target-independent ops of XLA's emitters (`xla.loop`,
//!   `xla.apply_indexing`, `xla.pure_call`, ..., `#xla.indexing_map`);
//! - [`xla_gpu`]: the GPU ops of XLA's emitters (`xla_gpu.allocate_shared`,
//!   `xla_gpu.sync_threads`, `xla_gpu.shuffle_reduce`).
//!
//! The ops are declared once in ODS (`dialects/<dialect>/include/.../*.td`).
//! The C++ that MLIR requires (registration, verifiers, the C API handle) is
//! built by CMake from `build.rs`; Rust gets typed op builders from the same
//! `.td` files through melior's `dialect!` macro.
//!
//! A downstream crate registers the dialects into its own context with
//! [`register_rxla_dialects`] (or one at a time with [`register_hlo_dialect`],
//! [`register_xla_dialect`], [`register_xla_gpu_dialect`]), or gets a ready
//! context from [`create_context`] (or, for one compile at a time, from
//! the [`context_pool`]). [`indexing_map_attribute`] and
//! [`indexing_map_text`] move indexing maps between text and `#xla.indexing_map`.

pub mod context_pool;
pub mod ffi;

pub use context_pool::PooledContext;

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    ir::{operation::OperationLike, Attribute, AttributeLike, Location},
    utility::register_all_dialects,
    Context, StringRef,
};

// Typed builders and wrappers for the `hlo` ops (`hlo::add(...)`,
// `hlo::AddOperation`, ...), generated from the ODS into `pub mod hlo`.
melior::dialect! {
    name: "hlo",
    files: ["rxla/Dialect/Hlo/IR/HloOps.td"],
    include_directory_env_vars: ["RXLA_HLO_TD_DIR"],
}

// Typed builders for the emitter dialects (`xla::loop(...)`,
// `xla_gpu::sync_threads(...)`, ...), generated into `pub mod xla` and
// `pub mod xla_gpu`.
melior::dialect! {
    name: "xla",
    files: ["rxla/Dialect/Xla/IR/XlaOps.td"],
    include_directory_env_vars: ["RXLA_XLA_TD_DIR"],
}

melior::dialect! {
    name: "xla_gpu",
    files: ["rxla/Dialect/XlaGpu/IR/XlaGpuOps.td"],
    include_directory_env_vars: ["RXLA_XLA_GPU_TD_DIR"],
}

/// The reference documentation of the `hlo` dialect as mlir-tblgen
/// generates it from the ODS (checked in as docs/reference/hlo-dialect.md).
pub const HLO_REFERENCE_DOC: &str =
    include_str!(concat!(env!("OUT_DIR"), "/build/hlo/include/rxla/Dialect/Hlo/IR/HloOps.md"));

/// The reference documentation of the `xla` dialect as mlir-tblgen
/// generates it (checked in as docs/reference/xla-dialect.md).
pub const XLA_REFERENCE_DOC: &str =
    include_str!(concat!(env!("OUT_DIR"), "/build/xla/include/rxla/Dialect/Xla/IR/XlaOps.md"));

/// The reference documentation of the `xla_gpu` dialect as mlir-tblgen
/// generates it (checked in as docs/reference/xla-gpu-dialect.md).
pub const XLA_GPU_REFERENCE_DOC: &str =
    include_str!(concat!(env!("OUT_DIR"), "/build/xla_gpu/include/rxla/Dialect/XlaGpu/IR/XlaGpuOps.md"));

/// The handle of the `hlo` dialect, for registries and contexts.
pub fn hlo_dialect_handle() -> DialectHandle {
    // SAFETY: the handle is a static produced by MLIR's registration macro.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__hlo__()) }
}

/// Adds the `hlo` dialect to `registry`.
pub fn register_hlo_dialect(registry: &DialectRegistry) {
    hlo_dialect_handle().insert_dialect(registry);
}

/// The handle of the `xla` emitter dialect.
pub fn xla_dialect_handle() -> DialectHandle {
    // SAFETY: the handle is a static produced by MLIR's registration macro.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xla__()) }
}

/// Adds the `xla` emitter dialect to `registry`.
pub fn register_xla_dialect(registry: &DialectRegistry) {
    xla_dialect_handle().insert_dialect(registry);
}

/// The handle of the `xla_gpu` emitter dialect.
pub fn xla_gpu_dialect_handle() -> DialectHandle {
    // SAFETY: the handle is a static produced by MLIR's registration macro.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xla_gpu__()) }
}

/// Adds the `xla_gpu` emitter dialect to `registry`.
pub fn register_xla_gpu_dialect(registry: &DialectRegistry) {
    xla_gpu_dialect_handle().insert_dialect(registry);
}

/// Adds all of rxla's dialects (`hlo`, `xla`, `xla_gpu`) to `registry`.
pub fn register_rxla_dialects(registry: &DialectRegistry) {
    register_hlo_dialect(registry);
    register_xla_dialect(registry);
    register_xla_gpu_dialect(registry);
}

/// A context with every upstream MLIR dialect and rxla's dialects
/// registered, and `func` and rxla's dialects loaded (so typed builders can
/// create their ops right away).
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_rxla_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.get_or_load_dialect("func");
    context.get_or_load_dialect("hlo");
    context.get_or_load_dialect("xla");
    context.get_or_load_dialect("xla_gpu");
    context
}

/// An `#xla.indexing_map` holding `text`, XLA's text form of an indexing
/// map (`"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3]"`), with
/// runs of whitespace collapsed. `None` when the text is not a well-formed
/// map; the reason goes to the context's diagnostic handlers.
pub fn indexing_map_attribute<'c>(context: &'c Context, text: &str) -> Option<Attribute<'c>> {
    // SAFETY: the context is live; MLIR copies the text into the attribute.
    unsafe { Attribute::from_option_raw(ffi::rxlaIndexingMapAttrGet(context.to_raw(), StringRef::new(text).to_raw())) }
}

/// Emits a warning at `location` to the context's diagnostic handlers
/// (MLIR's C API can only emit errors).
pub fn emit_warning(location: Location, message: &str) {
    // SAFETY: the location is live; MLIR copies the message.
    unsafe { ffi::rxlaEmitWarning(location.to_raw(), StringRef::new(message).to_raw()) }
}

/// The text of `attribute` if it is an `#xla.indexing_map`.
pub fn indexing_map_text<'c>(attribute: Attribute<'c>) -> Option<&'c str> {
    // SAFETY: the attribute is live; its text is uniqued in the context and
    // lives as long as it. The dialect only stores UTF-8 (parsed MLIR text
    // or a Rust &str).
    unsafe {
        if !ffi::rxlaAttributeIsAIndexingMap(attribute.to_raw()) {
            return None;
        }
        StringRef::from_raw(ffi::rxlaIndexingMapAttrGetText(attribute.to_raw())).as_str().ok()
    }
}

/// Every attribute of the live operation `op`, inherent and discardable,
/// as one dictionary attribute (sorted by name). Reading attributes one
/// by one through MLIR's C API rebuilds this dictionary on every call for
/// ops that keep attributes as properties (all ODS ops).
///
/// # Safety
/// `op` must be a live operation.
pub unsafe fn attr_dictionary(op: mlir_sys::MlirOperation) -> mlir_sys::MlirAttribute {
    // SAFETY: the caller guarantees a live operation.
    unsafe { ffi::rxlaOperationGetAttrDictionary(op) }
}

/// Every attribute of the live operation `op`, inherent and discardable,
/// sorted by name: the elements of [`attr_dictionary`], read without
/// building that dictionary (which uniques a new attribute for ops that
/// keep attributes as properties: a hash of every attribute and a lock).
///
/// # Safety
/// `op` must be a live operation.
pub unsafe fn named_attrs(op: mlir_sys::MlirOperation) -> Vec<mlir_sys::MlirNamedAttribute> {
    unsafe extern "C" fn push(attr: mlir_sys::MlirNamedAttribute, user: *mut std::ffi::c_void) {
        // SAFETY: `user` is the Vec below, alive for the call.
        unsafe { (*(user as *mut Vec<mlir_sys::MlirNamedAttribute>)).push(attr) };
    }
    let mut out: Vec<mlir_sys::MlirNamedAttribute> = Vec::new();
    // SAFETY: the caller guarantees a live operation; the callback only
    // pushes to `out`.
    unsafe { ffi::rxlaOperationForEachAttr(op, push, &mut out as *mut _ as *mut std::ffi::c_void) };
    out
}

/// True if `op` would be dead were its results unused: it has no memory
/// effects (MLIR's `wouldOpBeTriviallyDead`).
pub fn is_trivially_dead<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: `op` is a live operation for the duration of the call.
    unsafe { ffi::rxlaOperationIsTriviallyDead(op.to_raw()) }
}

/// True if `op` has no memory effects at all (MLIR's `isMemoryEffectFree`).
pub fn is_memory_effect_free<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: `op` is a live operation for the duration of the call.
    unsafe { ffi::rxlaOperationIsMemoryEffectFree(op.to_raw()) }
}

/// Whether diagnostics attached to an op carry a "see current operation"
/// note with the op printed (on by default; off for checking diagnostics).
pub fn set_print_op_on_diagnostic(context: &Context, enable: bool) {
    // SAFETY: the context is live.
    unsafe { ffi::rxlaContextSetPrintOpOnDiagnostic(context.to_raw(), enable) }
}
