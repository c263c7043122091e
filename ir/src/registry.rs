//! The machinery of pass registries: [`PassInfo`], one registered pass,
//! and [`pass!`](crate::pass!), which makes one from a type implementing
//! [`HloPass`](crate::pass::HloPass). The tables themselves belong to the
//! crates that own the passes (`rxla_passes::registry` for the HLO passes,
//! `rxla_lowering::registry` for the lowering passes), which `hlo-opt`
//! reads.

use crate::pass::{PassError, PassOptions};
pub use melior::pass::Pass;

/// A registered pass: its name, description and constructor.
#[derive(Clone, Copy)]
pub struct PassInfo {
    pub name: &'static str,
    pub description: &'static str,
    /// The pass never changes a result bit (see `HloPass::EXACT`).
    pub exact: bool,
    /// Builds a configured MLIR pass from pipeline options.
    pub create: fn(&PassOptions) -> Result<Pass, PassError>,
}

/// Registry entry for pass type `P`, with its own TypeID.
#[macro_export]
macro_rules! pass {
    ($pass:ty) => {{
        static ID: $crate::pass::PassId = $crate::pass::PassId::new();
        fn create(
            options: &$crate::pass::PassOptions,
        ) -> ::std::result::Result<$crate::registry::Pass, $crate::pass::PassError> {
            Ok($crate::pass::create_pass(<$pass as $crate::pass::HloPass>::from_options(options)?, &ID))
        }
        $crate::registry::PassInfo {
            name: <$pass as $crate::pass::HloPass>::NAME,
            description: <$pass as $crate::pass::HloPass>::DESCRIPTION,
            exact: <$pass as $crate::pass::HloPass>::EXACT,
            create,
        }
    }};
}
