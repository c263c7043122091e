//! The CPU runtime's library kernels: ops that are not fusions, implemented
//! in Rust over raw row-major buffers and called by the runtime's thunks.
//! Every kernel computes what the reference interpreter computes (its
//! module doc says where results may differ, e.g. accumulation order) and
//! reports bad shapes or types as `Err(String)`, never by panicking.
//!
//! - [`array`](mod@array): the memory format (element sizes, alignment), typed views
//!   of buffers, literals to and from bytes.
//! - [`dot`]: dot_general on strided views through gemm (floats) or an
//!   exact wrapping kernel (integers).
//! - [`conv`]: convolution as blocked im2col + the same matrix kernel.
//! - [`sort`]: stable multi-operand sort with a compiled comparator
//!   (branch-free merge sort over packed records, parallel).
//! - [`key_sort`]: stable sort by precomputed keys (the fast path for
//!   comparators that compare one key per element).
//! - [`fft`]: FFT, IFFT, RFFT, IRFFT over the innermost axes (rustfft, f64).
//! - [`rng`]: rng-bit-generator (Threefry, Philox), bit-exact with XLA.
//! - [`topk`]: top-k along the last dimension (partial selection per row).
//! - `convert` (internal): operand/result conversions of dot and conv.
//! - `matmul` (internal): batched strided products (gemm, integer kernel).
//! - `gemv`, `skinny` (internal): the products gemm packs for nothing: one
//!   row or column (matrix-vector), a few rows (unpacked register tiles).

pub mod array;
pub mod conv;
mod convert;
pub mod dot;
pub mod fft;
mod gemv;
pub mod key_sort;
mod matmul;
pub mod rng;
mod skinny;
pub mod sort;
pub mod topk;
