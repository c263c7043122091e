//! rxla's CPU and GPU backends: compile an HLO module to native code (or
//! PTX, [`gpu`]) and run it.
//!
//! - [`cpu`]: the CPU backend: its compiler (HLO pipeline, emitters,
//!   lowering, LLVM, JIT) and the [`Executable`] it produces;
//! - [`gpu`]: the GPU backend (PTX, CUDA through cudarc, emulation);
//! - [`driver`]: what the two compilers share (options, phase times, HLO
//!   import, kernel lowering); [`entry`]: parameters and results;
//! - [`thunk_emitter`]: computations to thunk [`program`]s;
//! - [`buffer_assignment`]: memory for every buffer (live-range sharing,
//!   in-place updates, outputs);
//! - [`executor`]: running programs (kernels over workgroups on the
//!   [`pool`], library calls, control flow);
//! - [`custom_call`]: the registry of host functions for custom calls;
//! - [`constants`], [`relayout`]: constants and layouts.
//!
//! ```no_run
//! let exe = rxla_runtime::compile_hlo_text(
//!     "HloModule m\nENTRY e { p = f32[4] parameter(0)\n ROOT r = f32[4] add(p, p) }",
//!     "m.hlo",
//!     &Default::default(),
//! ).unwrap();
//! # let args = vec![];
//! let result = exe.run(&args).unwrap();
//! ```

pub mod buffer_assignment;
pub mod constants;
pub mod cpu;
pub mod custom_call;
pub mod driver;
pub mod entry;
pub mod executor;
pub mod gpu;
pub mod pool;
pub mod program;
pub mod relayout;
pub mod sort_keys;
pub mod spmd;
pub mod thunk_emitter;

pub use cpu::{
    compile_hlo_text, compile_module, is_executable_artifact, load_executable, saved_parameter_shapes, CompileCache,
    DiskCache, Executable,
};
pub use driver::{CompileTimes, EntryLayouts, Options};
pub use entry::ParameterSpec;
pub use executor::RunError;
pub use thunk_emitter::CompileError;
