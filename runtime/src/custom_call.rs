//! The custom-call registry: host functions the CPU runtime calls for
//! `custom-call` instructions, by `custom_call_target` (XLA's FFI
//! registry, reduced to Rust functions over the runtime's buffers).
//!
//! A target receives its operands and result buffers (row-major, in the
//! runtime's memory format) and the instruction's `backend_config` text,
//! and returns an error message on failure:
//!
//! ```
//! use rxla_library::array::{ArrayMut, ArrayRef};
//! fn double(inputs: &[ArrayRef], outputs: &mut [ArrayMut], _config: &str) -> Result<(), String> {
//!     let x: &[f32] = inputs[0].typed();
//!     for (o, v) in outputs[0].typed::<f32>().iter_mut().zip(x) {
//!         *o = 2.0 * v;
//!     }
//!     Ok(())
//! }
//! rxla_runtime::custom_call::register("my_double", double);
//! ```
//!
//! Targets must be registered before a module using them is compiled.

use crate::program::CustomCallFn;
use std::{collections::HashMap, sync::RwLock};

static REGISTRY: RwLock<Option<HashMap<String, CustomCallFn>>> = RwLock::new(None);

/// Registers (or replaces) the host function of `target`.
pub fn register(target: &str, function: CustomCallFn) {
    let mut registry = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    registry.get_or_insert_with(HashMap::new).insert(target.to_string(), function);
}

/// The host function of `target`, if registered.
pub fn lookup(target: &str) -> Option<CustomCallFn> {
    let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    registry.as_ref().and_then(|r| r.get(target).copied())
}
