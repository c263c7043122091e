//! The HLO passes `hlo-opt` knows, by name. Adding a pass is one line in
//! `REGISTRY` (the machinery, [`PassInfo`] and `pass!`, is
//! `rxla_ir::registry`'s).

use rxla_ir::pass;
pub use rxla_ir::registry::PassInfo;

static REGISTRY: &[PassInfo] = &[
    pass!(crate::constant_folding::ConstantFolding),
    pass!(crate::call_inliner::CallInliner),
    pass!(crate::conditional_simplifier::ConditionalSimplifier),
    pass!(crate::cse::Cse),
    pass!(crate::dce::Dce),
    pass!(crate::algsimp::AlgSimp),
    pass!(crate::flatten_call_graph::FlattenCallGraph),
    pass!(crate::tuple_simplifier::TupleSimplifier),
    pass!(crate::broadcast_canonicalizer::BroadcastCanonicalizer),
    pass!(crate::dot_decomposer::DotDecomposer),
    pass!(crate::gather_simplifier::GatherSimplifier),
    pass!(crate::layout_normalization::LayoutNormalization),
    pass!(crate::reduction_dimension_grouper::ReductionDimensionGrouper),
    pass!(crate::reduction_layout_normalizer::ReductionLayoutNormalizer),
    pass!(crate::reshape_mover::ReshapeMover),
    pass!(crate::scatter_simplifier::ScatterSimplifier),
    pass!(crate::tree_reduction_rewriter::TreeReductionRewriter),
    pass!(crate::windowed_reduction_rewriter::WindowedReductionRewriter),
    pass!(crate::batchnorm_expander::BatchNormExpander),
    pass!(crate::comparison_expander::ComparisonExpander),
    pass!(crate::logistic_expander::LogisticExpander),
    pass!(crate::reduce_window_rewriter::ReduceWindowRewriter),
    pass!(crate::operand_upcaster::OperandUpcaster),
    pass!(crate::result_caster::ResultCaster),
    pass!(crate::excess_precision::ExcessPrecision),
    pass!(crate::float_normalization::FloatNormalization),
    pass!(crate::divide_to_multiply::DivideToMultiply),
    pass!(crate::dot_strength_reduction::DotStrengthReduction),
    pass!(crate::dus_accumulate::DusAccumulate),
    pass!(crate::rng_bit_generator_expander::RngBitGeneratorExpander),
    pass!(crate::rng_expander::RngExpander),
    pass!(crate::select_and_scatter_expander::SelectAndScatterExpander),
    pass!(crate::sharding_remover::ShardingRemover),
    pass!(crate::default_layouts::DefaultLayouts),
    pass!(crate::spmd::ShardingPropagation),
    pass!(crate::spmd::SpmdPartitioner),
    pass!(crate::all_reduce_combiner::AllReduceCombiner),
    pass!(crate::stable_sort_expander::StableSortExpander),
    pass!(crate::topk_rewriter::TopkRewriter),
    pass!(crate::zero_sized_hlo_elimination::ZeroSizedHloElimination),
    pass!(crate::while_loop_simplifier::WhileLoopSimplifier),
    pass!(crate::while_loop_trip_count_annotator::WhileLoopTripCountAnnotator),
    pass!(crate::fusion::priority::PriorityFusion),
    pass!(crate::fusion::multi_output::MultiOutputFusion),
    pass!(crate::fusion_wrapper::FusionWrapper),
    pass!(crate::testing::TestMiscompile),
];

/// Every registered pass, in registration order.
pub fn registry() -> &'static [PassInfo] {
    REGISTRY
}

/// The pass named `name`, if it is a Rust pass.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    REGISTRY.iter().find(|info| info.name == name)
}
