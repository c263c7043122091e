//! rxla's HLO-level passes, written in Rust.
//!
//! - [`framework`]: the [`HloPass`](framework::HloPass) trait every pass
//!   implements, pass options, and the adapter that turns a Rust pass into an
//!   MLIR pass the pass manager can schedule.
//! - [`ir`]: the few IR queries and mutations the MLIR C API offers only
//!   as raw functions (uses, erasure, symbol references), wrapped once.
//! - [`types`], [`attrs`], [`constant`]: typed views of shapes, dialect
//!   attributes and constants;
//! - [`builder`]: creating `hlo` ops with inferred result types;
//! - [`computation`]: functions, the call graph, new computations;
//! - [`rewrite`]: Rust rewrite patterns and fold functions applied by
//!   MLIR's greedy driver;
//! - [`registry`]: the table of passes by name, which `hlo-opt` reads.
//! - one module per pass, named after its command-line name.

pub mod attrs;
pub mod builder;
pub mod computation;
pub mod constant;
pub mod framework;
pub mod ir;
pub mod panics;
pub mod pipeline;
pub mod registry;
pub mod rewrite;
pub mod testing;
pub mod types;
pub mod layout;

pub mod broadcast_canonicalizer;
pub mod dot_decomposer;
pub mod gather_simplifier;
pub mod layout_normalization;
pub mod reduction_dimension_grouper;
pub mod reduction_layout_normalizer;
pub mod reshape_mover;
pub mod scatter_simplifier;

pub mod constant_folding;
pub mod call_inliner;
pub mod conditional_simplifier;
pub mod cse;
pub mod dce;
pub mod flatten_call_graph;
pub mod tuple_simplifier;
pub mod batchnorm_expander;
pub mod comparison_expander;
pub mod logistic_expander;
pub mod reduce_window_rewriter;
pub mod operand_upcaster;
pub mod result_caster;
pub mod rng_bit_generator_expander;
pub mod rng_expander;
pub mod select_and_scatter_expander;
pub mod stable_sort_expander;
pub mod zero_sized_hlo_elimination;
pub mod while_loop_simplifier;
pub mod while_loop_trip_count_annotator;
pub mod fusion;
pub mod fusion_wrapper;
pub mod algsimp;
pub mod xla_simplify_indexing;

pub use framework::{HloPass, PassError, PassOptions};
pub use registry::{lookup, registry, PassInfo};
pub use ir::{Op, Value};
pub use types::{ElementType, HloType, TensorType};
