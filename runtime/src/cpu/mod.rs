//! The CPU backend (XLA:CPU's place): the compiler ([`compiler`]: HLO
//! pipeline, emitters, lowering, LLVM on all cores, JIT) and the
//! [`Executable`] it produces, which runs thunk programs with the kernels
//! over workgroups on the [`crate::pool`]; [`cache`]: an in-process
//! cache of executables, for callers that compile the same module again;
//! [`artifact`]: executables saved to a file and loaded without
//! recompiling; [`disk_cache`]: an on-disk cache of such files, shared by
//! processes (JAX's persistent compilation cache).

pub mod artifact;
pub mod cache;
pub mod compiler;
pub mod disk_cache;
mod executable;

pub use artifact::{is_executable_artifact, load_executable, saved_parameter_shapes};
pub use cache::{CacheStats, CompileCache};
pub use compiler::{compile_hlo_text, compile_module};
pub use disk_cache::{DiskCache, DiskCacheStats, SourceKind};
pub use executable::{Executable, MemoryStats};
/// Frees the memory that dropped buffers leave for later runs (see
/// `rxla_library::array::release_pooled_buffers`).
pub use rxla_library::array::release_pooled_buffers;

/// What the caches' tests share: a module that doubles its `f32[4]`
/// parameter, and a run of it on `[1, 2, 3, 4]`.
#[cfg(test)]
mod test_support {
    use super::Executable;
    use rxla_interpreter::{ElementType, Literal};

    pub const MODULE: &str = "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] add(p, p)\n}\n";

    pub fn f32s(values: &[f32]) -> Literal {
        Literal::from_f32_vec(ElementType::F32, vec![values.len() as i64], values.to_vec())
    }

    pub fn run(exe: &Executable) -> Literal {
        exe.run(&[f32s(&[1.0, 2.0, 3.0, 4.0])]).expect("runs")
    }
}
