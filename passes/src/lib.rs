//! rxla's HLO-level passes, written in Rust.
//!
//! - [`framework`]: the [`HloPass`](framework::HloPass) trait every pass
//!   implements, pass options, and the adapter that turns a Rust pass into an
//!   MLIR pass the pass manager can schedule.
//! - [`ir`]: the few IR queries and mutations the MLIR C API offers only
//!   as raw functions (uses, erasure, symbol references), wrapped once.
//! - [`registry`]: the table of passes by name, which `hlo-opt` reads.
//! - one module per pass, named after its command-line name.

pub mod framework;
pub mod ir;
pub mod registry;

pub mod dce;
pub mod tuple_simplifier;

pub use framework::{HloPass, PassError, PassOptions};
pub use registry::{lookup, registry, PassInfo};
