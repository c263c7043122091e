//! The CPU backend (XLA:CPU's place): the compiler ([`compiler`]: HLO
//! pipeline, emitters, lowering, LLVM on all cores, JIT) and the
//! [`Executable`] it produces, which runs thunk programs with the kernels
//! over workgroups on the [`crate::pool`]; [`cache`]: an in-process
//! cache of executables, for callers that compile the same module again.

pub mod cache;
pub mod compiler;
mod executable;

pub use cache::{CacheStats, CompileCache};
pub use compiler::{compile_hlo_text, compile_module};
pub use executable::Executable;
