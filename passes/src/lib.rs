//! rxla's HLO-level passes, written in Rust, over the IR layer in
//! `rxla-ir` (op handles, types, attributes, the builder, rewrite patterns,
//! the pass trait and the pipeline driver live there).
//!
//! - [`constant`]: matching and making constants (needs the translator's
//!   float formats, hence here and not in `rxla-ir`);
//! - [`pipeline`]: the default HLO pipelines of each platform;
//! - [`registry`](mod@registry): the table of HLO passes by name, which `hlo-opt` reads;
//! - [`testing`]: passes for testing the tools;
//! - one module per pass, named after its command-line name
//!   ([`fusion`] holds the fusion passes and what they share).

pub mod constant;
pub mod pipeline;
pub mod registry;
pub mod testing;

pub mod broadcast_canonicalizer;
pub mod dot_decomposer;
pub mod gather_simplifier;
pub mod layout_normalization;
pub mod reduction_dimension_grouper;
pub mod reduction_layout_normalizer;
pub mod reshape_mover;
pub mod scatter_simplifier;
pub mod topk_rewriter;
pub mod tree_reduction_rewriter;

pub mod algsimp;
pub mod all_reduce_combiner;
pub mod batchnorm_expander;
pub mod call_inliner;
pub mod comparison_expander;
pub mod conditional_simplifier;
pub mod constant_folding;
pub mod cse;
pub mod dce;
pub mod default_layouts;
pub mod divide_to_multiply;
pub mod dot_strength_reduction;
pub mod dus_accumulate;
pub mod excess_precision;
pub mod flatten_call_graph;
pub mod float_normalization;
pub mod fusion;
pub mod fusion_wrapper;
pub mod logistic_expander;
pub mod operand_upcaster;
pub mod reduce_window_rewriter;
pub mod result_caster;
pub mod rng_bit_generator_expander;
pub mod rng_expander;
pub mod select_and_scatter_expander;
pub mod sharding_remover;
pub mod spmd;
pub mod stable_sort_expander;
pub mod tuple_simplifier;
pub mod while_loop_simplifier;
pub mod while_loop_trip_count_annotator;
pub mod windowed_reduction_rewriter;
pub mod zero_sized_hlo_elimination;

pub use registry::{lookup, registry, PassInfo};
