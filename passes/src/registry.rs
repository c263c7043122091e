//! The Rust passes `hlo-opt` knows, by name. Adding a pass is one line in
//! [`REGISTRY`].

use crate::framework::{create_pass, HloPass, PassError, PassId, PassOptions};
use melior::pass::Pass;

/// A registered pass: its name, description and constructor.
pub struct PassInfo {
    pub name: &'static str,
    pub description: &'static str,
    /// The pass never changes a result bit (see `HloPass::EXACT`).
    pub exact: bool,
    /// Builds a configured MLIR pass from pipeline options.
    pub create: fn(&PassOptions) -> Result<Pass, PassError>,
}

/// Registry entry for pass type `P`, with its own TypeID.
macro_rules! pass {
    ($pass:ty) => {{
        static ID: PassId = PassId::new();
        fn create(options: &PassOptions) -> Result<Pass, PassError> {
            Ok(create_pass(<$pass>::from_options(options)?, &ID))
        }
        PassInfo { name: <$pass>::NAME, description: <$pass>::DESCRIPTION, exact: <$pass>::EXACT, create }
    }};
}

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
    pass!(crate::batchnorm_expander::BatchNormExpander),
    pass!(crate::comparison_expander::ComparisonExpander),
    pass!(crate::logistic_expander::LogisticExpander),
    pass!(crate::reduce_window_rewriter::ReduceWindowRewriter),
    pass!(crate::operand_upcaster::OperandUpcaster),
    pass!(crate::result_caster::ResultCaster),
    pass!(crate::rng_bit_generator_expander::RngBitGeneratorExpander),
    pass!(crate::rng_expander::RngExpander),
    pass!(crate::select_and_scatter_expander::SelectAndScatterExpander),
    pass!(crate::stable_sort_expander::StableSortExpander),
    pass!(crate::zero_sized_hlo_elimination::ZeroSizedHloElimination),
    pass!(crate::while_loop_simplifier::WhileLoopSimplifier),
    pass!(crate::while_loop_trip_count_annotator::WhileLoopTripCountAnnotator),
    pass!(crate::fusion::priority::PriorityFusion),
    pass!(crate::fusion::multi_output::MultiOutputFusion),
    pass!(crate::fusion_wrapper::FusionWrapper),
    pass!(crate::xla_simplify_indexing::XlaSimplifyIndexing),
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
