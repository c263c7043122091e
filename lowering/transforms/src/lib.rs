//! rxla's lowering passes: MLIR passes, written in Rust, that take the
//! emitters' kernel IR (`xla`, `xla_gpu`, `tensor`, `scf`, `arith`,
//! `math`) down to the `llvm` dialect, and the pipelines that chain them
//! with upstream passes (XLA's emitter compilation pipeline; see
//! `docs/lowering.md`).
//!
//! - [`ir`]: building upstream-dialect IR (ops with regions, types) from
//!   Rust;
//! - one module per pass, named after the pass;
//! - [`registry`]: the passes by name (`hlo-opt --passes=...`);
//! - [`pipeline`]: the stages of the CPU and GPU lowering.

pub mod contract_float_ops;
pub mod expand_math;
pub mod expand_narrow_floats;
pub mod flatten_tensors;
pub mod inline;
pub mod ir;
pub mod lower_indexing;
pub mod lower_loops;
pub mod lower_shuffles;
pub mod lower_tensors;
pub mod math;
pub mod pipeline;
pub mod registry;
pub mod simplify_indexing;
pub mod unroll_lanes;
pub mod vectorize_lane_groups;
pub mod vectorize_loads_stores;
pub mod vectorize_reductions;
pub mod vectorize_straight_line;

pub use registry::{lookup, registry};
