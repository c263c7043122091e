//! The lowering passes `hlo-opt` knows, by name (same shape as
//! `rxla_passes::registry`, whose framework they use).

use rxla_passes::{
    framework::{create_pass, HloPass, PassId},
    registry::PassInfo,
    PassError, PassOptions,
};
use melior::pass::Pass;

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
    pass!(crate::lower_shuffles::LowerShuffles),
    pass!(crate::inline::Inline),
    pass!(crate::lower_loops::LowerLoops),
    pass!(crate::flatten_tensors::FlattenTensors),
    pass!(crate::expand_narrow_floats::ExpandNarrowFloats),
    pass!(crate::lower_tensors::LowerTensors),
    pass!(crate::lower_indexing::LowerIndexing),
    pass!(crate::expand_math::ExpandMath),
];

/// Every lowering pass, in pipeline order.
pub fn registry() -> &'static [PassInfo] {
    REGISTRY
}

/// The lowering pass named `name`.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    REGISTRY.iter().find(|info| info.name == name)
}
