//! rxla's code generation: a module in the `llvm` dialect (what
//! `rxla-lowering` produces) becomes LLVM IR, is optimized by LLVM's new
//! pass manager and compiled to native code for the host CPU, in memory, or to PTX for
//! NVIDIA GPUs.
//!
//! - [`translate`]: kernel modules merged into one module, MLIR's
//!   translation to LLVM IR (stage `llvm-before-optimizations`);
//! - [`builtins`]: compiler-runtime functions LLVM calls (bf16 rounding)
//!   that the JIT provides;
//! - [`cpu`]: the host target machine, LLVM's optimization (stage
//!   `llvm`), assembly (stage `asm`) and the JIT that maps kernels into
//!   memory;
//! - [`effort`]: which kernels get LLVM's `default<O3>` and which a light
//!   pipeline (those rxla's lowering vectorized);
//! - [`gpu`]: the NVPTX target (SM and PTX version), libdevice, LLVM's
//!   `default<O3>` for the GPU (stage `llvm`), PTX (stage `ptx`) and the
//!   `ptxas` check.

pub mod builtins;
pub mod cpu;
pub mod effort;
pub mod gpu;
pub mod translate;
mod unit;
