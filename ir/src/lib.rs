//! rxla's IR layer: what every crate that reads or writes rxla's IR uses,
//! directly above the dialects (`rxla-dialects`) and below the translator,
//! the HLO passes, the emitters, the lowering and the runtime.
//!
//! - [`op`]: [`Op`] and [`Value`] handles, and the few IR queries and
//!   mutations the MLIR C API offers only as raw functions (uses, erasure,
//!   symbol references), wrapped once.
//! - [`types`], [`attrs`], [`layout`]: typed views of shapes, dialect
//!   attributes and layouts (`hlo.layout`).
//! - [`builder`]: creating `hlo` ops with inferred result types.
//! - [`diagnostics`]: MLIR's diagnostics collected as located records.
//! - [`computation`]: functions, the call graph, new computations.
//! - [`rewrite`]: Rust rewrite patterns and fold functions applied by
//!   MLIR's greedy driver.
//! - [`pass`](mod@pass): the [`HloPass`] trait every Rust pass implements, pass
//!   options and errors, and the adapter that turns a Rust pass into an
//!   MLIR pass the pass manager can schedule; [`panics`] turns a panic
//!   inside a pass into a pass error.
//! - [`registry`]: [`PassInfo`] and the [`pass!`] macro, from which crates
//!   build their tables of passes by name (`rxla_passes::registry`,
//!   `rxla_lowering::registry`).
//! - [`pipeline`]: pipelines as data ([`pipeline::Step`]) and the driver
//!   that runs them pass by pass, fixpoint groups included.
//! - [`structure`]: the structure of IR as a comparable value (a module's,
//!   for fixed points; a fusion's, for kernel reuse).
//! - [`hlo_analysis`]: HLO analyses the fusion passes and the emitters
//!   share (fusion kinds, memoized value types, layouts, reduction and
//!   transpose shapes).
//!
//! Constants (`rxla_passes::constant`) stay with the passes: writing
//! special float values needs the translator's float formats.

pub mod attrs;
pub mod builder;
pub mod computation;
pub mod diagnostics;
pub mod hlo_analysis;
pub mod layout;
pub mod op;
pub mod panics;
pub mod pass;
pub mod pipeline;
pub mod registry;
pub mod rewrite;
pub mod structure;
pub mod types;

pub use op::{Op, Value};
pub use pass::{HloPass, PassError, PassOptions};
pub use registry::PassInfo;
pub use types::{ElementType, HloType, TensorType};
