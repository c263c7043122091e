//! rxla's reference interpreter: evaluates HLO modules exactly as XLA's
//! operation semantics say. Every backend is compared against it.
//!
//! It runs on the HLO syntax tree (`rxla-hlo-text`), which an `hlo`-dialect
//! module exports to without loss (`rxla_translate::export::export_ast`), so
//! this crate needs no MLIR and its tests build fast.
//!
//! - [`literal`]: values and their element storage
//! - [`npy`]: NumPy `.npy`/`.npz` input and output
//! - [`text`]: XLA's literal text format
//! - [`eval`]: the evaluator; [`ops`]: one module per op family

pub mod compare;
pub mod error;
pub mod eval;
pub mod literal;
pub mod literal_file;
pub mod npy;
pub mod ops;
pub mod random;
pub mod replicated;
pub mod text;

pub use error::{EvalError, Result};
pub use eval::{Interpreter, Options};
pub use literal::{Data, ElementType, Literal};
