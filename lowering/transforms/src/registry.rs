//! The lowering passes `hlo-opt` knows, by name (same shape as
//! `rxla_passes::registry`; the machinery is `rxla_ir::registry`'s).

use rxla_ir::{pass, registry::PassInfo};

static REGISTRY: &[PassInfo] = &[
    pass!(crate::lower_shuffles::LowerShuffles),
    pass!(crate::inline::Inline),
    pass!(crate::simplify_indexing::XlaSimplifyIndexing),
    pass!(crate::lower_loops::LowerLoops),
    pass!(crate::flatten_tensors::FlattenTensors),
    pass!(crate::vectorize_loads_stores::VectorizeLoadsStores),
    pass!(crate::expand_narrow_floats::ExpandNarrowFloats),
    pass!(crate::lower_tensors::LowerTensors),
    pass!(crate::lower_indexing::LowerIndexing),
    pass!(crate::expand_math::ExpandMath),
    pass!(crate::contract_float_ops::ContractFloatOps),
];

/// Every lowering pass, in pipeline order.
pub fn registry() -> &'static [PassInfo] {
    REGISTRY
}

/// The lowering pass named `name`.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    REGISTRY.iter().find(|info| info.name == name)
}
